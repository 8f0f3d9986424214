/*
 * partno_linkx.c - NVIDIA (Mellanox) LinkX cable and transceiver ordering
 * part numbers, read by rule: "MCP1600-C003" is a passive copper cable
 * (MCP), of the QSFP28 100G family 1600, rated 100GbE (C), 3 m long
 * (003). The family (the seven characters before the dash) gives the ends,
 * the legs of a splitter and the lanes; the letter after the dash the
 * rated rate and protocol; the digits after it the length of a cable
 * (003 = 3 m, 01A = 1.5 m) or the reach of a transceiver (C100 = 100 m).
 * Then every catalog NIC and switch the ends plug into (nicfit/compat.h).
 *
 * Sources, per family row below: NVIDIA's LinkX product specifications
 * (docs.nvidia.com/networking), whose ordering tables show the pattern
 * (MCP7Y00-N001 ... N01A = 1.5 m, MFS1S50-V003E ... V010E = 10 m). A row
 * whose facts rest on no NVIDIA page the search found says so, and the
 * decode marks those fields unverified.
 *
 * It is not the cable catalog: a LinkX part in the catalog is answered
 * from its entry, and only the fit lists come from here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/compat.h"
#include "parts/partno_int.h"

struct linkx_family {
	const char *prefix;     /* "MCP1600" */
	const char *type;       /* "dac", "acc", "aoc", "optic", "breakout-dac", ... */
	const char *end_a, *end_b;
	int legs;
	double gbps, leg_gbps;  /* 0: from the rate letter */
	int lanes_a, lanes_b;
	double serdes_a, serdes_b;
	const char *top_a, *top_b;
	const char *fiber;      /* optics and AOCs */
	double reach_m;         /* transceivers, when the OPN has no reach digits */
	int verified;           /* an NVIDIA specification confirms the row */
	const char *source;
	int flt_both;           /* "-FLT": flat tops at both ends, not at the first only */
	int ib_only;            /* listed for InfiniBand only, whatever the rate letter says */
};

#define DOCS "https://docs.nvidia.com/networking/display/"

static const struct linkx_family families[] = {
	{ "MCP1600", "dac", "QSFP28", "QSFP28", 1, 100, 100, 4, 4, 25, 25, NULL, NULL, NULL, 0, 0,
	  "NVIDIA LinkX 100G QSFP28 passive DAC family (community OPN tables; no NVIDIA page found)", 0, 0 },
	{ "MCP2M00", "dac", "SFP28", "SFP28", 1, 25, 25, 1, 1, 25, 25, NULL, NULL, NULL, 0, 1,
	  "catalog entry mcp2m00-a001 (NVIDIA 25GbE SFP28 passive DAC)", 0, 0 },
	{ "MCP7F00", "breakout-dac", "QSFP28", "SFP28", 4, 100, 25, 4, 1, 25, 25, NULL, NULL, NULL,
	  0, 1, "catalog entry mcp7f00-a002r30n (QSFP28 to 4x SFP28 splitter DAC)", 0, 0 },
	{ "MCP4Y10", "dac", "OSFP", "OSFP", 1, 800, 800, 8, 8, 100, 100, "finned", "finned", NULL,
	  0, 1, "NVIDIA MCP4Y10-Nxxx specifications: twin-port 2x400G OSFP to twin-port OSFP, "
	  "8 x 100G PAM4, finned tops both ends, switch to switch, 0.5-2 m (" DOCS
	  "mcp4y10nxxx2x400pub/overview)", 0, 0 },
	{ "MCP7Y00", "breakout-dac", "OSFP", "OSFP", 2, 800, 400, 8, 4, 100, 100, "finned", "flat",
	  NULL, 0, 1, "NVIDIA MCP7Y00-Nxxx specifications, ordering information (" DOCS
	  "mcp7y00nxxx800pub/ordering+information)", 0, 0 },
	{ "MCP7Y10", "breakout-dac", "OSFP", "QSFP112", 2, 800, 400, 8, 4, 100, 100, "finned", NULL,
	  NULL, 0, 1, "NVIDIA MCP7Y10-Nxxx specifications (" DOCS "MCP7Y10NXXX800Gpub)", 0, 0 },
	{ "MCP7Y40", "breakout-dac", "OSFP", "QSFP112", 4, 800, 200, 8, 2, 100, 100, "finned", NULL,
	  NULL, 0, 1, "NVIDIA MCP7Y10-Nxxx connectivity scenarios: MCP7Y40 1:4 splits, 2 x 100G PAM4 ("
	  DOCS "mcp7y10nxxx800gpub/transceiver+connectivity+scenarios)", 0, 0 },
	{ "MCP7Y50", "breakout-dac", "OSFP", "OSFP", 4, 800, 200, 8, 2, 100, 100, "finned", "flat",
	  NULL, 0, 1, "NVIDIA MCP7Y50-Nxxx use cases (" DOCS "mcp7y50nxxx800pub/use+cases)", 0, 0 },
	{ "MCP7Y60", "breakout-dac", "OSFP", "QSFP56", 2, 400, 200, 8, 4, 50, 50, "finned", NULL,
	  NULL, 0, 1, "NVIDIA MCP7Y60-Hxxx specifications (" DOCS "MCP7Y60HXXX400pub)", 0, 0 },
	{ "MCP7Y70", "breakout-dac", "OSFP", "QSFP56", 4, 400, 100, 8, 2, 50, 50, "finned", NULL,
	  NULL, 0, 1, "NVIDIA MCP7Y70-Hxxx specifications (" DOCS "MCP7Y70HXXX400pub)", 0, 0 },
	{ "MCA4J80", "acc", "OSFP", "OSFP", 1, 800, 800, 8, 8, 100, 100, "finned", "finned", NULL, 0,
	  0, "secondary (unverified): a public NVIDIA interconnect catalog snapshot of 2026-09-17: "
	  "MCA4J80-Nxxx, 800G twin-port OSFP to twin-port OSFP InfiniBand active copper, finned "
	  "tops up to 5 m, -FLT flat tops both ends up to 3 m (NVIDIA page "
	  "https://networking-docs.nvidia.com/mca4j80nxxx800pub, not read here; "
	  "docs/reference/baseboard-servers.md section 6)", 1, 1 },
	{ "MCA7J60", "breakout-acc", "OSFP", "OSFP", 2, 800, 400, 8, 4, 100, 100, "finned", "flat",
	  NULL, 0, 1, "NVIDIA MCA7J60-Nxxx overview: 1:2 splits, 4 x 100G PAM4 (" DOCS
	  "mca7j60nxxx800pub/overview)", 0, 0 },
	{ "MCA7J65", "breakout-acc", "OSFP", "QSFP112", 2, 800, 400, 8, 4, 100, 100, "finned", NULL,
	  NULL, 0, 1, "NVIDIA MCA7J60-Nxxx overview: MCA7J65 has QSFP112 ends (" DOCS
	  "mca7j60nxxx800pub/overview)", 0, 0 },
	{ "MCA7J70", "breakout-acc", "OSFP", "OSFP", 4, 800, 200, 8, 2, 100, 100, "finned", "flat",
	  NULL, 0, 1, "NVIDIA MCA7J60-Nxxx overview: MCA7J70 1:4 splits, 2 x 100G PAM4 (" DOCS
	  "mca7j60nxxx800pub/overview)", 0, 0 },
	{ "MCA7J75", "breakout-acc", "OSFP", "QSFP112", 4, 800, 200, 8, 2, 100, 100, "finned", NULL,
	  NULL, 0, 1, "NVIDIA MCA7J60-Nxxx overview: MCA7J75 has QSFP112 ends (" DOCS
	  "mca7j60nxxx800pub/overview)", 0, 0 },
	{ "MFA1A00", "aoc", "QSFP28", "QSFP28", 1, 100, 100, 4, 4, 25, 25, NULL, NULL, "MMF", 0, 1,
	  "NVIDIA MFA1A00-xxxx 100Gb/s QSFP28 MMF active optical cable specifications (" DOCS
	  "mfa1a00xxxxspec/references)", 0, 0 },
	{ "MFA7A20", "breakout-aoc", "QSFP28", "QSFP28", 2, 100, 50, 4, 2, 25, 25, NULL, NULL, "MMF",
	  0, 1, "NVIDIA MFA7A20-Cxxx 100GbE QSFP28 to 2x50GbE QSFP28 AOC splitter specifications ("
	  DOCS "MFA7A20CxxxSpec/References)", 0, 0 },
	{ "MFS1S00", "aoc", "QSFP56", "QSFP56", 1, 200, 200, 4, 4, 50, 50, NULL, NULL, "MMF", 0, 0,
	  "NVIDIA 200G QSFP56 AOC family (sibling of MFS1S50; no NVIDIA page found for it)", 0, 0 },
	{ "MFS1S50", "breakout-aoc", "QSFP56", "QSFP56", 2, 200, 100, 4, 2, 50, 50, NULL, NULL, "MMF",
	  0, 1, "NVIDIA MFS1S50-V0xxE 200GbE QSFP56 to 2x100GbE QSFP56 AOC ordering information ("
	  DOCS "mfs1s50v0xxespec/ordering+information)", 0, 0 },
	{ "MFA7U40", "breakout-aoc", "OSFP", "QSFP56", 2, 200, 100, 4, 2, 50, 50, NULL, NULL, "MMF",
	  0, 1, "NVIDIA MFA7U40-H00X 200Gb/s OSFP to 2x100Gb/s QSFP56 HDR100 AOC specifications ("
	  DOCS "mfa7u40h00xdev/document+revision+history)", 0, 0 },
	{ "MMA1B00", "optic", "QSFP28", "MPO-12", 1, 100, 100, 4, 0, 25, 0, NULL, NULL, "MMF", 100, 0,
	  "NVIDIA 100G QSFP28 SR4 multimode transceiver family (community OPN tables; no NVIDIA page "
	  "found)", 0, 0 },
	{ "MMA1T00", "optic", "QSFP56", "MPO-12", 1, 200, 200, 4, 0, 50, 0, NULL, NULL, "MMF", 0, 1,
	  "NVIDIA MMA1T00-VS / MMA1T00-HS QSFP56 MMF transceiver specifications (" DOCS
	  "MMA1T00VSSpec/References)", 0, 0 },
	{ "MMA1Z00", "optic", "QSFP112", "MPO-12", 1, 400, 400, 4, 0, 100, 0, NULL, NULL, "MMF", 50, 1,
	  "NVIDIA MMA1Z00-NS400 QSFP112 multimode transceiver overview (" DOCS
	  "MMA1Z00NS400T/Overview)", 0, 0 },
};

/* The letter after the dash: the rate and protocol the part is rated for. */
static const struct {
	char letter;
	double gbps;            /* per port of a straight cable; 0: from the family */
	const char *protocol, *meaning;
	int verified;
} rates[] = {
	{ 'A', 25, "EN", "25GbE", 1 },
	{ 'C', 100, "EN", "100GbE", 1 },
	{ 'E', 100, "IB", "EDR InfiniBand (100Gb/s)", 0 },
	{ 'H', 200, "IB", "HDR InfiniBand (200Gb/s)", 1 },
	{ 'V', 200, "EN", "200GbE", 1 },
	{ 'N', 400, "IB/EN", "NDR InfiniBand (400Gb/s per port; the firmware also runs Ethernet)", 1 },
};

static const char *type_words(const char *type)
{
	static const struct { const char *t, *w; } w[] = {
		{ "dac", "passive copper cable (DAC)" }, { "acc", "active copper cable (ACC)" },
		{ "aoc", "active optical cable (AOC)" }, { "optic", "transceiver" },
		{ "breakout-dac", "passive copper splitter (DAC)" },
		{ "breakout-acc", "active copper splitter (ACC)" },
		{ "breakout-aoc", "active optical splitter (AOC)" },
	};
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(w[i].t, type))
			return w[i].w;
	return type;
}

/* "003" = 3 m, "01A" = 1.5 m, "00A" = 0.5 m; -1 when not a length code. */
static double length_code(const char *s)
{
	int i;

	for (i = 0; i < 2; i++)
		if (s[i] < '0' || s[i] > '9')
			return -1;
	if (s[2] == 'A')
		return (s[0] - '0') * 10 + (s[1] - '0') + 0.5;
	if (s[2] < '0' || s[2] > '9')
		return -1;
	return (s[0] - '0') * 100 + (s[1] - '0') * 10 + (s[2] - '0');
}

static void set_cable(struct nicfit_part_cable *k, const struct linkx_family *f)
{
	setstr(k->type, sizeof(k->type), f->type);
	setstr(k->end_a, sizeof(k->end_a), f->end_a);
	setstr(k->end_b, sizeof(k->end_b), f->end_b);
	k->legs = f->legs;
	k->gbps = f->gbps;
	k->leg_gbps = f->leg_gbps;
	k->lanes_a = f->lanes_a;
	k->lanes_b = f->lanes_b;
	k->serdes_a = f->serdes_a;
	k->serdes_b = f->serdes_b;
	setstr(k->top_a, sizeof(k->top_a), f->top_a);
	setstr(k->top_b, sizeof(k->top_b), f->top_b);
	setstr(k->medium, sizeof(k->medium), !strcmp(f->type, "optic") || strstr(f->type, "aoc") ?
	       "fiber" : "copper");
	setstr(k->fiber, sizeof(k->fiber), f->fiber);
	k->is_cable = 1;
}

/* The twin-port transceivers: "-NS" two 400G ports, "-NS400" one flat-top 400G port. */
static int twin_optic(struct dec *d, const char *s)
{
	struct nicfit_part *p = d->p;
	struct nicfit_part_cable *k = &p->cable;
	int mm = !strncmp(s, "MMA4Z00", 7), sm = !strncmp(s, "MMS4X00", 7);
	int single;

	if ((!mm && !sm) || strncmp(s + 7, "-NS", 3))
		return 1;
	if (s[10] && strcmp(s + 10, "400") && strcmp(s + 10, "-T") && strcmp(s + 10, "400-T"))
		return bad(d, 10, "not a %s transceiver suffix", mm ? "MMA4Z00" : "MMS4X00");
	single = !strncmp(s + 10, "400", 3);
	k->is_cable = 1;
	setstr(k->type, sizeof(k->type), "optic");
	setstr(k->end_a, sizeof(k->end_a), "OSFP");
	setstr(k->end_b, sizeof(k->end_b), single ? "MPO-12" : "2x MPO-12");
	k->legs = single ? 1 : 2;
	k->gbps = single ? 400 : 800;
	k->leg_gbps = 400;
	k->lanes_a = single ? 4 : 8;
	k->serdes_a = 100;
	setstr(k->top_a, sizeof(k->top_a), single ? "flat" : "finned");
	setstr(k->medium, sizeof(k->medium), "fiber");
	setstr(k->fiber, sizeof(k->fiber), mm ? "MMF" : "SMF");
	k->reach_m = mm ? 50 : 100;
	pos(p, mm ? "MMA" : "MMS", "%s transceiver", mm ? "multimode" : "single-mode");
	pos(p, "4", "OSFP");
	pos(p, s + 4, "%s", single ? "single-port 400G (flat top, for ConnectX-7)" :
	    "twin-port 2 x 400G (finned top, for Quantum-2 / Spectrum-4 switches)");
	pos(p, "NS", "NDR / 400GbE, %s", mm ? "SR4 per port, 50 m over OM4" : "DR4 per port, 100 m");
	setstr(p->family, sizeof(p->family), mm ? "LinkX multimode transceiver" :
	       "LinkX single-mode transceiver");
	setstr(p->protocol, sizeof(p->protocol), "IB/EN");
	setstr(p->source, sizeof(p->source), mm ?
	       "NVIDIA MMA4Z00-NS400 / MMA4Z00-NS specifications (" DOCS "MMA4Z00NS400T)" :
	       "NVIDIA MMS4X00-NS400 / MMS4X00-NS specifications (" DOCS "mms4x00ns400/overview)");
	return 0;
}

static const struct linkx_family *family_of(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strncmp(s, families[i].prefix, 7))
			return &families[i];
	return NULL;
}

/* What follows the rate letter: a length (cables), a reach (transceivers), options. */
static int read_tail(struct dec *d, const struct linkx_family *f, const char *s, size_t at)
{
	struct nicfit_part *p = d->p;
	struct nicfit_part_cable *k = &p->cable;
	const char *t = s + at;
	double v = strlen(t) >= 3 ? length_code(t) : -1;

	if (!strcmp(f->type, "optic")) {
		if (v > 0) {
			char c[4];

			memcpy(c, t, 3);
			c[3] = 0;
			k->reach_m = v;
			pos(p, c, "reach %g m", v);
			t += 3;
		} else {
			k->reach_m = f->reach_m;
		}
	} else {
		char c[4];

		if (v <= 0)
			return bad(d, at, "expected a length code after the rate letter "
			   "(003 = 3 m, 01A = 1.5 m)");
		memcpy(c, t, 3);
		c[3] = 0;
		k->length_m = v;
		pos(p, c, "length %g m", v);
		t += 3;
	}
	if (!strcmp(t, "-FLT") && f->flt_both) {
		setstr(k->top_a, sizeof(k->top_a), "flat");
		setstr(k->top_b, sizeof(k->top_b), "flat");
		pos(p, "-FLT", "flat tops at both ends (liquid-cooled switches' twin-port cages)");
	} else if (!strcmp(t, "-FLT")) {
		setstr(k->top_a, sizeof(k->top_a), "flat");
		pos(p, "-FLT", "flat-top twin-port end (DGX H100 twin-port cages, liquid-cooled "
		    "switches); the other end finned");
	} else if (*t) {
		pos(p, t, "suffix not read by these rules");
		note(p, "The suffix '%s' is not read by the LinkX rules.", t);
	}
	return 0;
}

int nicfit__linkx_decode(struct dec *d)
{
	struct nicfit_part *p = d->p;
	const char *s = d->s;
	const struct linkx_family *f;
	char kind[4], fam[5];
	size_t i;
	int rc;

	if (s[0] != 'M' || !s[1] || !s[2] || !strchr("CFM", s[1]) || !strchr("PASM", s[2]))
		return 1;
	rc = twin_optic(d, s);
	if (rc <= 0)
		goto done;
	f = family_of(s);
	if (!f || s[7] != '-')
		return 1;
	if (!s[8])
		return bad(d, 8, "expected a rate letter after the dash");
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (rates[i].letter == s[8])
			break;
	if (i == sizeof(rates) / sizeof(rates[0]))
		return bad(d, 8, "'%c' is not a LinkX rate letter (A, C, E, H, V, N)", s[8]);
	set_cable(&p->cable, f);
	snprintf(kind, sizeof(kind), "%.3s", s);
	snprintf(fam, sizeof(fam), "%.4s", s + 3);
	pos(p, kind, "%s", type_words(f->type));
	pos(p, fam, "family: %s to %s%s", f->end_a,
	    f->legs > 1 ? (f->legs == 2 ? "2 x " : "4 x ") : "", f->end_b);
	pos_char(p, s[8], "%s", rates[i].meaning);
	setstr(p->protocol, sizeof(p->protocol), f->ib_only ? "IB" :
	       f->legs > 1 && f->gbps >= 400 ? "IB/EN" : rates[i].protocol);
	if (!rates[i].verified || f->ib_only)
		unverified(p, "protocol");
	rc = read_tail(d, f, s, 9);
	if (rc)
		return rc;
	setstr(p->family, sizeof(p->family), "LinkX");
	setstr(p->source, sizeof(p->source), f->source);
	if (!f->verified) {
		unverified(p, "cage");
		unverified(p, "port_gbps");
	}
done:
	p->kind = NICFIT_PART_OTHER;
	p->catalog_kind = NICFIT_KIND_CABLE;
	setstr(p->vendor, sizeof(p->vendor), "NVIDIA");
	setstr(p->cage, sizeof(p->cage), p->cable.end_a);
	p->port_gbps = p->cable.gbps;
	p->ports = p->cable.legs;
	setstr(p->part, sizeof(p->part), s);
	snprintf(p->name, sizeof(p->name), "NVIDIA %s %s, %g Gb/s %s to %s%s%s", s,
		 type_words(p->cable.type), p->cable.gbps, p->cable.end_a,
		 p->cable.legs > 1 ? (p->cable.legs == 2 ? "2 x " : "4 x ") : "", p->cable.end_b,
		 p->cable.legs > 1 ? " legs" : "");
	return 0;
}

void nicfit__linkx_from_catalog(struct nicfit_part *p, const struct nicfit_cable *c)
{
	struct nicfit_part_cable *k = &p->cable;
	struct nicfit_lanes la, lb;

	k->is_cable = 1;
	setstr(k->type, sizeof(k->type), nicfit_cable_type_name(c->type));
	setstr(k->end_a, sizeof(k->end_a), c->end_a);
	setstr(k->end_b, sizeof(k->end_b), c->end_b);
	k->legs = c->split;
	k->gbps = c->gbps;
	k->leg_gbps = c->lane_gbps;
	nicfit_cable_end_lanes(c, 0, &la);
	k->lanes_a = la.lanes;
	k->serdes_a = la.lane_gbps;
	if (c->type != NICFIT_CABLE_OPTIC) {
		nicfit_cable_end_lanes(c, 1, &lb);
		k->lanes_b = lb.lanes;
		k->serdes_b = lb.lane_gbps;
	}
	setstr(k->top_a, sizeof(k->top_a), c->top_a);
	setstr(k->top_b, sizeof(k->top_b), c->top_b);
	k->length_m = c->length_m > 0 ? c->length_m : 0;
	k->reach_m = c->type == NICFIT_CABLE_OPTIC ? c->max_length_m : 0;
	setstr(k->medium, sizeof(k->medium), c->medium);
	setstr(k->fiber, sizeof(k->fiber), c->fiber);
}

/* The decoded cable as a catalog cable, for nicfit_cable_end_fits(). */
static void as_cable(const struct nicfit_part *p, struct nicfit_cable *c)
{
	const struct nicfit_part_cable *k = &p->cable;
	static const char *const types[] = { "dac", "aoc", "optic", "breakout-dac",
		"breakout-aoc", "rj45" };
	int i;

	memset(c, 0, sizeof(*c));
	c->type = NICFIT_CABLE_DAC;
	for (i = 0; i < 6; i++)
		if (!strcmp(k->type, types[i]))
			c->type = (enum nicfit_cable_type)i;
	if (!strcmp(k->type, "breakout-acc"))
		c->type = NICFIT_CABLE_BREAKOUT_DAC;
	c->part = p->part;
	c->gbps = k->gbps;
	c->end_a = k->end_a;
	c->end_b = k->end_b;
	c->split = k->legs > 0 ? k->legs : 1;
	c->lane_gbps = k->leg_gbps > 0 ? k->leg_gbps : k->gbps;
	c->lanes_a = k->lanes_a;
	c->lanes_b = k->lanes_b;
	c->serdes_gbps_a = k->serdes_a;
	c->serdes_gbps_b = k->serdes_b;
	c->top_a = k->top_a[0] ? k->top_a : NULL;
	c->top_b = k->top_b[0] ? k->top_b : NULL;
	c->coding = "nvidia";
}

/* Does the cable's protocol rating allow fabric/protocol x ("ethernet", "EN", "IB", "VPI")? */
static int protocol_ok(const char *cable, int ib_only, int en_only)
{
	if (!cable[0] || strchr(cable, '/'))
		return 1;
	if (ib_only)
		return !strcmp(cable, "IB");
	if (en_only)
		return !strcmp(cable, "EN");
	return 1;
}

/*
 * The catalog NICs and switches the cable's ends plug into and run in:
 * a NIC takes the leg end of a splitter (either end of a straight cable),
 * a switch the fast end (either end of a straight cable); an Ethernet-
 * rated cable is listed for Ethernet parts, an InfiniBand-rated one for
 * InfiniBand parts, one whose firmware runs both for either.
 */
void nicfit__linkx_fits(struct nicfit_part *p, const struct nicfit_catalog *cat)
{
	struct nicfit_part_cable *k = &p->cable;
	struct nicfit_cable c;
	size_t i;

	if (!cat || !k->is_cable)
		return;
	as_cable(p, &c);
	for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_NIC) &&
		    k->nfits_nics < NICFIT_PART_FITS; i++) {
		const struct nicfit_nic *n = nicfit_catalog_nic(cat, i);
		struct nicfit_port np;
		int ok;

		if (!protocol_ok(p->protocol, n->protocol && !strcmp(n->protocol, "IB"),
				 n->protocol && !strcmp(n->protocol, "EN")))
			continue;
		nicfit_port_of_nic(n, &np);
		ok = c.type == NICFIT_CABLE_OPTIC || c.split > 1 ?
		     nicfit_cable_end_fits(&c, c.split > 1 ? 1 : 0, &np, NULL, 0) :
		     nicfit_cable_end_fits(&c, 0, &np, NULL, 0) || nicfit_cable_end_fits(&c, 1, &np, NULL, 0);
		if (ok)
			setstr(k->fits_nics[k->nfits_nics++], sizeof(k->fits_nics[0]), n->e.id);
	}
	for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_SWITCH) &&
		    k->nfits_switches < NICFIT_PART_FITS; i++) {
		const struct nicfit_switch *s = nicfit_catalog_switch(cat, i);
		int ib = s->fabric && !strcmp(s->fabric, "infiniband");
		struct nicfit_port sp;

		if (!protocol_ok(p->protocol, ib, !ib))
			continue;
		nicfit_port_of_switch(s, &sp);
		if (nicfit_cable_end_fits(&c, 0, &sp, NULL, 0) ||
		    (c.split == 1 && c.type != NICFIT_CABLE_OPTIC &&
		     nicfit_cable_end_fits(&c, 1, &sp, NULL, 0)))
			setstr(k->fits_switches[k->nfits_switches++], sizeof(k->fits_switches[0]),
			       s->e.id);
	}
}
