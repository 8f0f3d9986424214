/*
 * partno_cx_suffix.c - the letters of a ConnectX OPN: the variant and
 * security letters before the '-', then the speed, host-interface, option
 * and bracket letters after it (docs/reference/nic-identity.md section 1; see
 * partno_int.h).
 *
 * A letter the rules do not know is a note, not an error, except the
 * speed and host letters, whose meaning the facts depend on: those must
 * fit the family the digits chose.
 */
#include <stdio.h>
#include <string.h>

#include "parts/partno_int.h"

/* ---- the speed letters (docs/reference/nic-identity.md section 1) ------------- */

/* The first character after the dash: the fastest rate of a port. */
struct speed {
	char c;
	double eth_gbps;   /* fastest Ethernet rate */
	int ib;            /* an InfiniBand letter: the card is VPI */
	const char *text;  /* meaning */
	int community;     /* 1: community data only */
};

static const struct speed speeds[] = {
	{ 'X', 10, 0, "10GbE", 0 },
	{ 'A', 25, 0, "25GbE (10/25)", 0 },
	{ 'B', 40, 0, "40GbE (40/56GbE on ConnectX-3/-4)", 0 },
	{ 'G', 50, 0, "50GbE", 0 },
	{ 'C', 100, 0, "100GbE, Ethernet only", 0 },
	{ 'V', 200, 0, "200GbE, Ethernet only", 0 },
	{ 'W', 400, 0, "400GbE, Ethernet only", 1 },
	{ 'Q', 10, 1, "QDR InfiniBand (40 Gb/s) and 10GbE", 1 },
	{ 'T', 10, 1, "FDR10 InfiniBand", 1 },
	{ 'F', 40, 1, "FDR InfiniBand (56 Gb/s) and 40/56GbE", 0 },
	{ 'E', 100, 1, "EDR InfiniBand (100 Gb/s) and 100GbE", 0 },
	{ 'H', 200, 1, "200 Gb/s InfiniBand and 200GbE", 0 },
	{ 'N', 400, 1, "NDR InfiniBand (400 Gb/s) and 400GbE", 0 },
};

static const struct speed *find_speed(char c)
{
	size_t i;

	for (i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (speeds[i].c == c)
			return &speeds[i];
	return NULL;
}

/* InfiniBand rate of speed letter c on generation gen; NULL for Ethernet letters. */
static const char *ib_name(char c, int gen)
{
	switch (c) {
	case 'Q': return "QDR";
	case 'T': return "FDR10";
	case 'F': return "FDR";
	case 'E': return gen >= 6 ? "HDR100" : "EDR";
	case 'H': return gen >= 7 ? "NDR200" : "HDR";
	case 'N': return "NDR";
	}
	return NULL;
}

/* Fastest Ethernet a cage carries, Gb/s. */
static double cage_max(const char *cage)
{
	static const struct { const char *cage; double gbps; } t[] = {
		{ "SFP+", 10 }, { "SFP28", 25 }, { "SFP56", 50 }, { "QSFP+", 56 },
		{ "QSFP28", 100 }, { "QSFP56", 200 }, { "QSFP112", 400 }, { "OSFP", 400 },
		{ "DSFP", 100 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].cage, cage))
			return t[i].gbps;
	return 0;
}

/* ---- letters --------------------------------------------------------------- */

static int letters_expected(const struct opn *o)
{
	if (o->gen <= 5)
		return 1;
	if (o->gen == 7)
		return o->ndigits == 5 ? 3 : 2;
	return o->fam == FAM(CX6) ? 1 : 2;
}

static void security(struct nicfit_part *p, char c)
{
	switch (c) {
	case 'N':
		p->crypto = 0, p->secure_boot = 0;
		pos_char(p, c, "no crypto, no secure boot");
		break;
	case 'S':
		p->crypto = 0, p->secure_boot = 1;
		pos_char(p, c, "secure boot, no crypto");
		break;
	case 'E':
		p->crypto = 1, p->secure_boot = 0;
		pos_char(p, c, "crypto, no secure boot (secure-boot capable)");
		break;
	case 'C':
		p->crypto = 1, p->secure_boot = 1;
		pos_char(p, c, "crypto and secure boot");
		break;
	default:
		pos_char(p, c, "security letter, not decoded");
		note(p, "Security letter '%c' is not one of N, S, E, C.", c);
	}
}

int nicfit__cx_letters(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	int want = letters_expected(o), i = 0;
	/* 5-digit ConnectX-7 (OSFP) bases put a board letter before the variant */
	int vi = o->gen == 7 && o->ndigits == 5 ? 1 : 0;
	char v;

	if (o->nletters > want)
		return bad(d, o->at_letters, "'%.*s': %s OPNs have %d letter%s before the '-'",
			   o->nletters, o->letters, o->fam->name, want, want == 1 ? "" : "s");
	if (o->nletters <= vi)
		return bad(d, o->at_letters + (size_t)o->nletters, "ConnectX-7 OSFP OPNs have a "
			   "board letter, a variant letter and a security letter after the digits");
	if (vi)
		pos_char(p, o->letters[0], "OSFP board letter (A/B), not decoded");
	v = o->letters[vi];
	switch (v) {
	case 'A':
		pos_char(p, v, "standard variant");
		break;
	case 'B':
		pos_char(p, v, "alternate board (e.g. OCP 2.0 Type 1)");
		/*
		 * A B board on OCP 2.0: the dual-SFP28 MCX542B is x8, the QSFP28
		 * MCX545B PCIe 3.0 x16 (NVIDIA ConnectX-5 EN OCP 2.0 user manual,
		 * Interfaces: "through x16 edge connectors").
		 */
		if (o->ocp == 2 && o->gen == 5) {
			if (strcmp(o->cage, "QSFP28"))
				o->width = 8;
			note(p, "OCP 2.0 B boards: the SFP28 MCX542B is PCIe x8, the QSFP28 MCX545B "
				"PCIe 3.0 x16 (NVIDIA ConnectX-5 OCP 2.0 user manual, Interfaces).");
		}
		break;
	case 'M':
		if (o->ocp) {
			p->multi_host = 1;
			pos_char(p, v, "Multi-Host / Socket Direct variant");
		} else {
			p->socket_direct = 1;
			if (o->gen <= 5 && o->width == 16)
				o->width = 8;
			pos_char(p, v, "Socket Direct: two PCIe x8 links via an auxiliary card");
		}
		break;
	case 'F':
		o->community = 1;
		if (o->gen == 5)
			o->width = 16;
		pos_char(p, v, "alternate x16 variant (community data; meaning unverified)");
		break;
	case 'P':
	case 'T':
	case 'G':
		if (o->gen >= 6) {
			o->community = 1;
			setstr(p->form_factor, sizeof(p->form_factor), "pcie-fhhl");
			pos_char(p, v, "time-synchronisation board (PPS/SMA%s; community data)",
				 v == 'G' ? ", GNSS" : "");
			break;
		}
		/* fall through */
	default:
		pos_char(p, v, "variant letter, not decoded");
		note(p, "Variant letter '%c' is not decoded.", v);
	}
	for (i = vi + 1; i < o->nletters; i++) {
		char c = o->letters[i];

		if (o->fam == FAM(CX6) && i == 1)
			note(p, "ConnectX-6 EN/VPI OPNs carry no security letter; '%c' is read as one.",
			     c);
		security(p, c);
	}
	if (o->nletters < want && (o->gen >= 7 || o->fam != FAM(CX6)))
		note(p, "No security letter (N, S, E, C) after the variant: crypto and secure "
			"boot are unknown.");
	return 0;
}

/* ---- the suffix ------------------------------------------------------------ */

int nicfit__cx_speed(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	char c = o->sfx[0];
	const struct speed *sp = find_speed(c);
	const char *ib;
	double cm;

	if (!sp)
		return bad(d, o->at_sfx, "speed letter '%c' is not one of X A B G C V W Q T F E H N", c);
	ib = ib_name(c, o->gen);
	if (sp->ib && !strchr(o->fam->ib_letters, c))
		return bad(d, o->at_sfx, "speed letter %c (%s InfiniBand) is not a %s rate", c, ib,
			   o->fam->name);
	if (sp->eth_gbps > o->fam->max_gbps)
		return bad(d, o->at_sfx, "speed letter %c (%gGbE) is faster than any %s "
			   "(at most %g Gb/s)", c, sp->eth_gbps, o->fam->name, o->fam->max_gbps);
	if (c == 'G' && o->gen >= 6 && !strcmp(o->cage, "SFP28"))
		o->cage = "SFP56";
	cm = cage_max(o->cage);
	if (cm > 0 && sp->eth_gbps > cm)
		return bad(d, o->at_sfx, "speed letter %c (%gGbE) does not fit %s ports", c,
			   sp->eth_gbps, o->cage);
	p->port_gbps = sp->eth_gbps;
	if (ib) {
		setstr(p->ib_rate, sizeof(p->ib_rate), ib);
		setstr(p->protocol, sizeof(p->protocol), "VPI");
		if (o->form_vpi == 0)
			note(p, "The form digit says Ethernet, the speed letter InfiniBand; read as "
				"VPI by the speed letter.");
	} else {
		setstr(p->protocol, sizeof(p->protocol), "EN");
		if (o->form_vpi == 1 && c != 'W')
			note(p, "The form digit says VPI, the speed letter an Ethernet-only rate; read "
				"as EN by the speed letter.");
		if (c == 'W')
			note(p, "Community data lists MCX715105AS-WEAT as VPI although W is an "
				"Ethernet-only letter.");
	}
	if (c == 'E' && o->gen == 6)
		pos_char(p, c, "HDR100 / EDR InfiniBand (100 Gb/s) and 100GbE");
	else if (c == 'H')
		pos_char(p, c, "%s InfiniBand (200 Gb/s) and 200GbE", ib);
	else
		pos_char(p, c, "%s%s", sp->text, sp->community ? " (community data)" : "");
	if (sp->community)
		o->community = 1;
	if (c == 'B' || c == 'F')
		note(p, "56GbE is an NVIDIA-proprietary rate between NVIDIA parts; planning uses "
			"40GbE.");
	if (c == 'T' || c == 'Q')
		note(p, "The Ethernet rate of %s parts (10GbE) is community data.", ib);
	return 0;
}

int nicfit__cx_host(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	char c = o->sfx[1];

	if (!strchr(o->fam->host_letters, c)) {
		if (c == 'D' && o->fam == FAM(CX5)) {
			o->fam = FAM(CX5EX);
		} else if (c == 'C' && (o->fam == FAM(CX6DX) || o->fam == FAM(CX6LX))) {
			/* unusual but harmless */
		} else {
			return bad(d, o->at_sfx + 1, "host-interface letter %c is not a %s code (%s)",
				   c, o->fam->name,
				   o->gen <= 4 ? "C = PCIe 3.0" :
				   o->gen == 5 ? "C = PCIe 3.0, D = PCIe 4.0" :
				   o->gen == 6 ? "C, D = PCIe 4.0, F = Socket Direct 2 x x8" :
				   "D = PCIe 4.0, E = PCIe 5.0");
		}
	}
	switch (c) {
	case 'C':
		if (o->fam == FAM(CX6)) {
			p->pcie_gen = 4;
			p->pcie_gen_min = 3;
			pos_char(p, c, "PCIe 3.0 class; documented 3.0/4.0 on ConnectX-6");
			note(p, "On ConnectX-6 the letter C does not strictly mean PCIe 3.0: "
				"-ECAT and Socket Direct -HCAT parts are documented as PCIe 3.0/4.0.");
		} else {
			p->pcie_gen = 3;
			pos_char(p, c, "PCIe 3.0 (8 GT/s)");
		}
		break;
	case 'D':
		p->pcie_gen = 4;
		/* NVIDIA quotes "PCIe 3.0/4.0" for ConnectX-6 and "4.0/3.0" for 6 Dx */
		if (o->fam == FAM(CX6) || o->fam == FAM(CX6DX))
			p->pcie_gen_min = 3;
		pos_char(p, c, "PCIe 4.0 (16 GT/s)%s",
			 o->fam == FAM(CX5EX) ? ": ConnectX-5 Ex" : p->pcie_gen_min ? ", 3.0 compatible" :
			 "");
		break;
	case 'E':
		p->pcie_gen = 5;
		pos_char(p, c, "PCIe 5.0 (32 GT/s)");
		break;
	case 'F':
		p->pcie_gen = 4;
		p->pcie_gen_min = 3;
		p->socket_direct = 1;
		o->width = 8;
		o->community = 1;
		pos_char(p, c, "single-slot Socket Direct, 2 x PCIe x8 (community data)");
		break;
	}
	return 0;
}

void nicfit__cx_option(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	char c = o->sfx[2];

	if (o->gen == 3) {
		if (c == 'C' || c == 'P' || c == 'Q') {
			o->fam = FAM(CX3PRO);
			if (c == 'Q')
				setstr(p->options, sizeof(p->options), "NC-SI host management");
			pos_char(p, c, "ConnectX-3 Pro%s", c == 'C' ? "" : " (community data)");
		} else if (c == 'B') {
			pos_char(p, c, "ConnectX-3 (not Pro)");
		} else if (c == 'A') {
			o->community = 1;
			pos_char(p, c, "ConnectX-3 (community data)");
		} else {
			pos_char(p, c, "option letter, not decoded");
			note(p, "Option letter '%c' is not decoded.", c);
		}
		return;
	}
	switch (c) {
	case 'A':
		pos_char(p, c, "standard options");
		break;
	case 'U':
		setstr(p->options, sizeof(p->options), "UEFI enabled");
		pos_char(p, c, "UEFI enabled");
		break;
	case 'H':
		setstr(p->options, sizeof(p->options), "host management and UEFI");
		pos_char(p, c, "enhanced host management and UEFI (community data)");
		break;
	case 'Q':
		setstr(p->options, sizeof(p->options), "host management");
		pos_char(p, c, "host management (community data)");
		break;
	case 'S':
		setstr(p->options, sizeof(p->options), "secure firmware");
		pos_char(p, c, "secure firmware (community data)");
		break;
	default:
		pos_char(p, c, "option letter, not decoded");
		note(p, "Option letter '%c' is not decoded.", c);
	}
}

void nicfit__cx_bracket(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	char c = o->sfx[3];
	const char *b = NULL;
	int want_ocp = -1; /* -1 any, 0 stand-up, 2, 3 */

	switch (c) {
	case 'T':
		b = "tall";
		want_ocp = 0;
		pos_char(p, c, "tall bracket fitted, short one in the box");
		break;
	case 'S':
		b = "short";
		want_ocp = 0;
		unverified(p, "bracket");
		pos_char(p, c, "short bracket (community data)");
		break;
	case 'N':
		b = "none";
		want_ocp = 2;
		pos_char(p, c, "no bracket (OCP 2.0)");
		break;
	case 'I':
		b = "ocp3-internal-lock";
		want_ocp = 3;
		pos_char(p, c, "OCP 3.0 internal lock");
		break;
	case 'B':
		b = "ocp3-pull-tab";
		want_ocp = 3;
		pos_char(p, c, "OCP 3.0 pull tab (thumbscrew)");
		break;
	case 'E':
		b = "ocp3-ejector";
		want_ocp = 3;
		pos_char(p, c, "OCP 3.0 ejector latch");
		break;
	case 'L':
		want_ocp = 0;
		setstr(p->options, sizeof(p->options), "liquid-cooled");
		pos_char(p, c, "liquid-cooled variant (community data)");
		break;
	default:
		pos_char(p, c, "bracket letter, not decoded");
		note(p, "Bracket letter '%c' is not decoded.", c);
	}
	if (b)
		setstr(p->bracket, sizeof(p->bracket), b);
	if (want_ocp >= 0 && want_ocp != o->ocp)
		note(p, "The bracket letter %c belongs to %s cards, the digits say %s.", c,
		     want_ocp == 0 ? "stand-up" : want_ocp == 2 ? "OCP 2.0" : "OCP 3.0",
		     o->ocp == 0 ? "stand-up" : o->ocp == 2 ? "OCP 2.0" : "OCP 3.0");
}
