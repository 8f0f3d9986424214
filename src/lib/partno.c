/*
 * partno.c - explain a network-adapter part number (see nicfit/partno.h).
 *
 * Three readers share one result struct: the ConnectX OPN rules
 * (reference/nic-identity.md section 1, "MCX <gen> <digits> <letters> -
 * <speed><host interface><option><bracket>"), a table of Intel adapter
 * names (section 2) and the catalog. The catalog is asked first; the
 * rules run anyway so that their reading of each position is shown and
 * any disagreement with the catalog becomes a note.
 *
 * The input is measured once (strnlen, at most NICFIT_PART_SCAN_MAX
 * bytes) and copied into a fixed buffer of NICFIT_PART_MAX characters;
 * everything after that walks that buffer, so the work is bounded for
 * any input. Nothing here allocates.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/link.h"
#include "nicfit/partno.h"
#include "nicfit/pcie.h"
#include "nicfit/spec.h"
#include "nicfit/units.h"

#define REF1 "reference/nic-identity.md \xc2\xa7" "1"
#define REF2 "reference/nic-identity.md \xc2\xa7" "2"

const char *nicfit_confidence_name(enum nicfit_confidence c)
{
	return c == NICFIT_CONF_CATALOG ? "catalog" : "rule";
}

/* ---- small helpers ------------------------------------------------------- */

static void setstr(char *dst, size_t n, const char *s)
{
	snprintf(dst, n, "%s", s ? s : "");
}

static void note(struct nicfit_part *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct nicfit_part *p, const char *fmt, ...)
{
	char buf[NICFIT_PART_NOTE_LEN];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (i = 0; i < p->nnotes; i++)
		if (!strcmp(p->notes[i], buf))
			return;
	if (p->nnotes < NICFIT_PART_NOTES)
		setstr(p->notes[p->nnotes++], NICFIT_PART_NOTE_LEN, buf);
}

static void pos(struct nicfit_part *p, const char *chars, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void pos(struct nicfit_part *p, const char *chars, const char *fmt, ...)
{
	struct nicfit_part_pos *r;
	va_list ap;

	if (p->nreading >= NICFIT_PART_READING)
		return;
	r = &p->reading[p->nreading++];
	setstr(r->chars, sizeof(r->chars), chars);
	va_start(ap, fmt);
	vsnprintf(r->meaning, sizeof(r->meaning), fmt, ap);
	va_end(ap);
}

static void pos_char(struct nicfit_part *p, char c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void pos_char(struct nicfit_part *p, char c, const char *fmt, ...)
{
	char chars[2] = { c, '\0' };
	char buf[112];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pos(p, chars, "%s", buf);
}

static void unverified(struct nicfit_part *p, const char *field)
{
	int i;

	for (i = 0; i < p->nunverified; i++)
		if (!strcmp(p->unverified[i], field))
			return;
	if (p->nunverified < (int)(sizeof(p->unverified) / sizeof(p->unverified[0])))
		setstr(p->unverified[p->nunverified++], sizeof(p->unverified[0]), field);
}

struct intel_nic;

/* The text being decoded, for error messages. */
struct dec {
	struct nicfit_part *p;
	const char *s;     /* normalised text (upper case, trimmed) */
	char *buf;         /* where normalize() writes it, NICFIT_PART_MAX + 1 bytes */
	const struct intel_nic *intel; /* the Intel table row that matched */
	size_t len;
	long lead;         /* columns of leading space in the original text */
	struct nicfit_error *err;
};

static int bad(struct dec *d, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct dec *d, size_t at, const char *fmt, ...)
{
	char why[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, d->lead + (long)at + 1,
			       "'%s': %s (at column %ld)", d->s, why, d->lead + (long)at + 1);
}

/* ---- the ConnectX tables (reference/nic-identity.md 1.2-1.6) -------------- */

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

/*
 * A ConnectX family: what the generation and family digits select.
 * Maximum Ethernet rates from NVIDIA's MLNX_EN documentation
 * ("Uplink Speed" table); PCI IDs from reference/nic-identity.md 3.1.
 */
struct family {
	const char *name;      /* "ConnectX-6 Dx" */
	unsigned device;       /* PCI device ID, 0 when unknown */
	double max_gbps;       /* fastest Ethernet rate of the chip */
	const char *ib_letters;/* speed letters it may carry; "" = Ethernet only */
	const char *host_letters; /* host-interface letters seen */
	const char *driver;
};

static const struct family fam_cx3 = { "ConnectX-3", 0x1003, 56, "QTF", "C", "mlx4_core" };
static const struct family fam_cx3pro = { "ConnectX-3 Pro", 0x1007, 56, "QTF", "C", "mlx4_core" };
static const struct family fam_cx4 = { "ConnectX-4", 0x1013, 100, "FE", "C", "mlx5_core" };
static const struct family fam_cx4lx = { "ConnectX-4 Lx", 0x1015, 50, "", "C", "mlx5_core" };
static const struct family fam_cx5 = { "ConnectX-5", 0x1017, 100, "FE", "C", "mlx5_core" };
static const struct family fam_cx5ex = { "ConnectX-5 Ex", 0x1019, 100, "FE", "D", "mlx5_core" };
static const struct family fam_cx6 = { "ConnectX-6", 0x101b, 200, "EH", "CDF", "mlx5_core" };
static const struct family fam_cx6dx = { "ConnectX-6 Dx", 0x101d, 200, "", "CD", "mlx5_core" };
static const struct family fam_cx6lx = { "ConnectX-6 Lx", 0x101f, 50, "", "CD", "mlx5_core" };
static const struct family fam_cx6de = { "ConnectX-6 DE", 0, 200, "EH", "D", "mlx5_core" };
static const struct family fam_cx7 = { "ConnectX-7", 0x1021, 400, "HN", "DE", "mlx5_core" };

/* Everything the rules read from an OPN, before it becomes a nicfit_part. */
struct opn {
	int gen;
	char digits[8];
	int ndigits;
	char letters[4];
	int nletters;
	char sfx[5];
	int nsfx;
	size_t at_digits, at_letters, at_sfx; /* indexes into the text */
	const struct family *fam;
	int form_vpi;         /* the form digit says VPI (1), EN (0), either (-1) */
	int ocp;              /* 0 stand-up, 2 OCP 2.0, 3 OCP 3.0 */
	int ports;
	const char *cage;
	int width;
	int community;        /* a position was read from community data only */
};

/* ---- reading the shape of an OPN ----------------------------------------- */

static int is_upper(int c)
{
	return c >= 'A' && c <= 'Z';
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* The generation digit and the number of digits fit one of the layouts. */
static int check_gen(struct dec *d, const struct opn *o)
{
	switch (o->gen) {
	case 3: case 4: case 5: case 6: case 7:
		break;
	case 1: case 2:
		return bad(d, o->at_digits, "ConnectX-1/-2 cards use MHxH/MNPH part numbers, not "
			   "MCX%c", d->s[o->at_digits]);
	case 8:
		return bad(d, o->at_digits, "ConnectX-8 and later are sold as 900-... SKUs; "
			   "nicfit's OPN rules cover ConnectX-3 to ConnectX-7");
	default:
		return bad(d, o->at_digits, "no ConnectX generation '%c' (the rules cover ConnectX-3 "
			   "to ConnectX-7)", d->s[o->at_digits]);
	}
	if ((o->gen <= 5 && !(o->ndigits == 3 || (o->gen == 4 && o->ndigits == 4))) ||
	    (o->gen == 6 && o->ndigits != 6) || (o->gen == 7 && o->ndigits < 5))
		return bad(d, o->at_digits, "ConnectX-%d OPNs have %s digits after MCX, this one "
			   "has %d", o->gen,
			   o->gen == 4 ? "3 (or 4 for Lx)" : o->gen <= 5 ? "3" : o->gen == 6 ? "6" : "5 or 6",
			   o->ndigits);
	return 0;
}

/* Split the text into prefix, digits, letters, suffix, extras and tails. */
static int opn_shape(struct dec *d, size_t i, struct opn *o, size_t *end)
{
	const char *s = d->s;
	size_t k;
	int rc;

	o->at_digits = i;
	for (k = i; k < d->len && is_digit(s[k]); k++) {
		if (o->ndigits < (int)sizeof(o->digits) - 1)
			o->digits[o->ndigits++] = s[k];
	}
	if (k == i) {
		if (i >= d->len)
			return bad(d, i, "the ConnectX generation digit is missing after '%.*s'",
				   (int)i, s);
		return bad(d, i, "expected the ConnectX generation digit after '%.*s', found '%c'",
			   (int)i, s, s[i]);
	}
	if (k - i > 6)
		return bad(d, i, "%zu digits after '%.*s'; ConnectX OPNs have 3 to 6",
			   k - i, (int)i, s);
	o->ndigits = (int)(k - i);
	o->gen = s[i] - '0';
	if ((rc = check_gen(d, o)))
		return rc;
	o->at_letters = k;
	i = k;
	for (; k < d->len && is_upper(s[k]); k++) {
		if (o->nletters < 3)
			o->letters[o->nletters++] = s[k];
	}
	if (k - i > 3)
		return bad(d, i, "'%.*s': too many letters after the digits (is the '-' missing? "
			   "e.g. MCX4121A-ACAT)", (int)(k - i), s + i);
	if (k == i && k < d->len)
		return bad(d, k, "expected the variant letter (A, B, M ...) after the digits, "
			   "found '%c'", s[k]);
	if (k == i)
		return bad(d, k, "the variant letter (A, B, M ...) is missing after the digits");
	i = k;
	if (i < d->len && s[i] == '-') {
		i++;
		o->at_sfx = i;
		for (k = i; k < d->len && (is_upper(s[k]) || is_digit(s[k])); k++) {
			if (o->nsfx < 4)
				o->sfx[o->nsfx++] = s[k];
		}
		if (k - i > 4 || k - i < 3)
			return bad(d, i, "expected 4 letters after '-' (speed, host interface, "
				   "option, bracket), found %zu characters", k - i);
		for (k = 0; k < (size_t)o->nsfx; k++)
			if (!is_upper(o->sfx[k]))
				return bad(d, i + k, "expected a letter, found '%c'", o->sfx[k]);
		i += (size_t)o->nsfx;
	}
	*end = i;
	return 0;
}

/* Extra suffixes ("-S25", "-N") and firmware-tool tails ("_Ax", "_QP1"). */
static int opn_tails(struct dec *d, size_t i, int *tool)
{
	const char *s = d->s;
	int nextra = 0, ntail = 0;

	*tool = 0;
	while (i < d->len) {
		size_t k = i + 1, n;
		char sep = s[i];
		char word[8];

		if (sep != '-' && sep != '_')
			return bad(d, i, "unexpected '%c'", sep);
		while (k < d->len && (is_upper(s[k]) || is_digit(s[k])))
			k++;
		n = k - i - 1;
		if (n == 0 || n > 6)
			return bad(d, i + 1, "expected 1 to 6 letters or digits after '%c'", sep);
		if (sep == '-' && ntail)
			return bad(d, i, "'-' after a '_' tail");
		memcpy(word, s + i + 1, n);
		word[n] = '\0';
		if (sep == '-') {
			if (++nextra > 2)
				return bad(d, i, "too many '-' suffixes");
			if (word[0] == 'S' && n >= 3 && is_digit(word[1]) && is_digit(word[2])) {
				pos(d->p, s + i, "Socket Direct harness of %c%c0 mm", word[1], word[2]);
				d->p->socket_direct = 1;
			} else if (!strcmp(word, "N")) {
				pos(d->p, "-N", "NVIDIA DGX build (community data)");
			} else {
				pos(d->p, s + i, "extra suffix, not decoded");
				note(d->p, "The suffix '-%s' is not decoded.", word);
			}
		} else {
			if (++ntail > 3)
				return bad(d, i, "too many '_' tails");
			*tool = 1;
			if (word[0] == 'A' && n == 2)
				pos(d->p, s + i, "hardware revision added by firmware tools");
			else if (word[0] == 'Q' && word[1] == 'P')
				pos(d->p, s + i, "qualification sample tag added by firmware tools");
			else
				pos(d->p, s + i, "tail, not part of the ordering number");
		}
		i = k;
	}
	return 0;
}

/* ---- ConnectX base digits ------------------------------------------------- */

static void set_cage(struct opn *o, int ports, const char *cage)
{
	o->ports = ports;
	o->cage = cage;
}

/* ConnectX-3, -4 and -5: MCX g f p (3 digits) and CX-4 Lx MCX 4 f p 1. */
static int base_cx345(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	char f = o->digits[1], pc = o->digits[2];
	char g[2] = { o->digits[0], '\0' };
	size_t at = o->at_digits;

	if (o->gen == 4 && o->ndigits == 4) {
		o->fam = &fam_cx4lx;
		pos(p, g, "ConnectX-4 generation; four digits = ConnectX-4 Lx");
	} else {
		o->fam = o->gen == 3 ? &fam_cx3 : o->gen == 4 ? &fam_cx4 : &fam_cx5;
		pos(p, g, "ConnectX-%d generation", o->gen);
	}
	switch (f) {
	case '1':
		o->form_vpi = 0;
		pos_char(p, f, "stand-up PCIe card, Ethernet (EN)");
		break;
	case '5':
		if (o->fam == &fam_cx4lx)
			return bad(d, at + 1, "form digit 5 (VPI) on a ConnectX-4 Lx, which is "
				   "Ethernet only");
		o->form_vpi = 1;
		pos_char(p, f, "stand-up PCIe card, VPI (InfiniBand and Ethernet)");
		break;
	case '4':
		o->form_vpi = -1;
		o->ocp = 2;
		pos_char(p, f, "OCP 2.0 mezzanine (EN, or VPI with an InfiniBand speed letter)");
		break;
	case '6':
		if (o->gen == 3)
			return bad(d, at + 1, "form digit 6 (OCP 3.0) on a ConnectX-3");
		o->form_vpi = -1;
		o->ocp = 3;
		pos_char(p, f, "OCP 3.0 card");
		break;
	default:
		return bad(d, at + 1, "form digit '%c' is not one of 1 (EN), 5 (VPI), 4 (OCP 2.0), "
			   "6 (OCP 3.0)", f);
	}
	if (o->fam == &fam_cx4lx) {
		switch (pc) {
		case '1': set_cage(o, 1, "SFP28"); break;
		case '2': set_cage(o, 2, "SFP28"); break;
		case '3': set_cage(o, 1, "QSFP28"); break;
		default:
			return bad(d, at + 2, "port digit '%c' is not one of 1 (1 x SFP28), "
				   "2 (2 x SFP28), 3 (1 x QSFP28)", pc);
		}
		o->width = 8;
		pos_char(p, pc, "%d x %s", o->ports, o->cage);
		if (o->digits[3] != '1')
			note(p, "ConnectX-4 Lx OPNs end their digits in 1; '%c' is not decoded.",
			     o->digits[3]);
		pos_char(p, o->digits[3], "ConnectX-4 Lx digit (always 1)");
		return 0;
	}
	if (o->gen == 3) {
		switch (pc) {
		case '1': set_cage(o, 1, "SFP+"); break;
		case '2': set_cage(o, 2, "SFP+"); break;
		case '3': case '5': set_cage(o, 1, "QSFP+"); break;
		case '4': case '6': set_cage(o, 2, "QSFP+"); break;
		default:
			return bad(d, at + 2, "port digit '%c' is not one of 1-4 (SFP+ or QSFP+)", pc);
		}
		if (pc == '5' || pc == '6')
			o->community = 1;
		o->width = 8;
		pos_char(p, pc, "%d x %s", o->ports, o->cage);
		if (f == '1' && pc == '1')
			note(p, "MCX311A is listed as PCIe 3.0 x4 by community data; other ConnectX-3 "
				"cards are x8.");
		return 0;
	}
	switch (pc) {
	case '1': set_cage(o, 1, "SFP28"); o->width = 8; break;
	case '2': set_cage(o, 2, "SFP28"); o->width = 8; break;
	case '3': set_cage(o, 1, "QSFP28"); o->width = 8; break;
	case '4': set_cage(o, 2, "QSFP28"); o->width = 8; break;
	case '5': set_cage(o, 1, "QSFP28"); o->width = 16; break;
	case '6': set_cage(o, 2, "QSFP28"); o->width = 16; break;
	default:
		return bad(d, at + 2, "port digit '%c' is not one of 1-6 (SFP28 or QSFP28)", pc);
	}
	if (o->gen == 5 && (pc == '3' || pc == '4')) {
		o->community = 1;
		note(p, "Port digits 3/4 (QSFP28 on PCIe x8) are seen on ConnectX-4 only.");
	}
	/* ConnectX-5 SFP28 cards: x8 stand-up, x16 on OCP (community data) */
	if (o->gen == 5 && (pc == '1' || pc == '2') && o->ocp)
		o->width = 16;
	pos_char(p, pc, "%d x %s, PCIe x%d", o->ports, o->cage, o->width);
	return 0;
}

/* ConnectX-6 and 6-digit ConnectX-7: MCX g f w m d p. */
static int base_cx67(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	const char *dg = o->digits;
	char g[2] = { dg[0], '\0' };
	size_t at = o->at_digits;
	int five = o->ndigits == 5;

	if (o->gen == 6) {
		switch (dg[1]) {
		case '1': o->fam = &fam_cx6; o->form_vpi = 0; break;
		case '2': o->fam = &fam_cx6dx; o->form_vpi = 0; break;
		case '3': o->fam = &fam_cx6lx; o->form_vpi = 0; break;
		case '5': o->fam = &fam_cx6; o->form_vpi = 1; break;
		case '8': o->fam = &fam_cx6de; o->form_vpi = 1; o->community = 1; break;
		default:
			return bad(d, at + 1, "ConnectX-6 family digit '%c' is not one of 1 (EN), "
				   "2 (Dx), 3 (Lx), 5 (VPI), 8 (DE)", dg[1]);
		}
		pos(p, g, "ConnectX-6 generation");
		pos_char(p, dg[1], "%s%s", o->fam->name,
			 dg[1] == '1' ? " EN" : dg[1] == '5' ? " VPI" : "");
	} else {
		o->fam = &fam_cx7;
		o->community = 1;
		switch (dg[1]) {
		case '1': o->form_vpi = 0; break;
		case '5': o->form_vpi = 1; break;
		default:
			return bad(d, at + 1, "ConnectX-7 family digit '%c' is not 1 (Ethernet) or "
				   "5 (VPI)", dg[1]);
		}
		pos(p, g, "ConnectX-7 generation");
		pos_char(p, dg[1], "%s (community data)", dg[1] == '1' ? "Ethernet" : "VPI");
	}
	switch (dg[2]) {
	case '1':
		o->width = 8;
		pos_char(p, dg[2], "PCIe x8");
		break;
	case '3':
		o->width = 16;
		pos_char(p, dg[2], "PCIe x16");
		break;
	case '4':
		if (o->gen != 6)
			return bad(d, at + 2, "host digit 4 is a ConnectX-6 Socket Direct code");
		o->width = 16;
		p->socket_direct = 1;
		pos_char(p, dg[2], "Socket Direct: 2 x PCIe x16 (two cards)");
		break;
	case '5':
		if (o->gen != 7)
			return bad(d, at + 2, "host digit 5 is a ConnectX-7 code");
		o->width = 16;
		pos_char(p, dg[2], "PCIe x16 with an optional x16 extension (Socket Direct)");
		break;
	case '2':
		if (o->gen != 7)
			return bad(d, at + 2, "host digit '%c' is not one of 1 (x8), 3 (x16), "
				   "4 (Socket Direct)", dg[2]);
		o->width = 8;
		p->socket_direct = 1;
		pos_char(p, dg[2], "Socket Direct: 2 x PCIe x8 (community data)");
		break;
	default:
		return bad(d, at + 2, "host digit '%c' is not one of 1 (x8), 3 (x16), %s", dg[2],
			   o->gen == 6 ? "4 (Socket Direct)" : "5 (x16 + extension)");
	}
	switch (dg[3]) {
	case '1':
		pos_char(p, dg[3], "stand-up PCIe card");
		break;
	case '2':
		if (o->gen != 6)
			return bad(d, at + 3, "mechanical digit '%c' is not 1 (stand-up) or 4 (OCP)",
				   dg[3]);
		o->community = 1;
		pos_char(p, dg[3], "stand-up PCIe card with active cooling (community data)");
		break;
	case '4':
		if (five ? dg[4] != '3' : dg[4] != '0' && dg[4] != '3')
			return bad(d, at + 4, "OCP digit '%c' is not 0 (OCP 2.0) or 3 (OCP 3.0)", dg[4]);
		o->ocp = dg[4] == '3' ? 3 : 2;
		pos_char(p, dg[3], "OCP mezzanine card");
		break;
	default:
		return bad(d, at + 3, "mechanical digit '%c' is not 1 (stand-up) or 4 (OCP)", dg[3]);
	}
	if (five) {
		/* MCX7 f w m p with OSFP cages (community data) */
		if (o->ocp) {
			set_cage(o, 1, "OSFP");
			pos_char(p, dg[4], "OCP 3.0 (TSFF), 1 x OSFP (community data)");
			return 0;
		}
		switch (dg[4]) {
		case '0': set_cage(o, 1, "OSFP"); break;
		case '1': set_cage(o, 2, "OSFP"); break;
		default:
			return bad(d, at + 4, "port digit '%c' is not 0 (1 x OSFP) or 1 (2 x OSFP)",
				   dg[4]);
		}
		pos_char(p, dg[4], "%d x OSFP (community data)", o->ports);
		return 0;
	}
	if (o->ocp)
		pos_char(p, dg[4], "OCP %s", o->ocp == 3 ? "3.0" : "2.0");
	else if (dg[4] == '0')
		pos_char(p, dg[4], "(always 0 on stand-up cards)");
	else {
		pos_char(p, dg[4], "not decoded");
		note(p, "Digit '%c' (0 on other stand-up cards) is not decoded.", dg[4]);
	}
	switch (dg[5]) {
	case '2': set_cage(o, 2, o->gen == 7 ? "SFP56" : "SFP28"); break;
	case '4':
		if (o->gen != 7)
			return bad(d, at + 5, "port digit 4 (4 x SFP56) is a ConnectX-7 code");
		set_cage(o, 4, "SFP56");
		break;
	case '5':
		set_cage(o, 1, o->gen == 7 ? "QSFP112" : o->fam == &fam_cx6lx ? "QSFP28" : "QSFP56");
		break;
	case '6':
		if (o->fam == &fam_cx6lx)
			return bad(d, at + 5, "port digit 6 (2 x QSFP56) on a ConnectX-6 Lx");
		set_cage(o, 2, o->gen == 7 ? "QSFP112" : "QSFP56");
		break;
	case '9':
	case '0':
		if (o->gen != 6)
			return bad(d, at + 5, "port digit '%c' (DSFP) is a ConnectX-6 code", dg[5]);
		set_cage(o, dg[5] == '9' ? 1 : 2, "DSFP");
		o->community = 1;
		break;
	default:
		return bad(d, at + 5, "port digit '%c' is not one of 2, 5, 6%s", dg[5],
			   o->gen == 7 ? ", 4" : ", 9, 0");
	}
	pos_char(p, dg[5], "%d x %s", o->ports, o->cage);
	return 0;
}

/* ---- letters --------------------------------------------------------------- */

static int letters_expected(const struct opn *o)
{
	if (o->gen <= 5)
		return 1;
	if (o->gen == 7)
		return o->ndigits == 5 ? 3 : 2;
	return o->fam == &fam_cx6 ? 1 : 2;
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

static int cx_letters(struct dec *d, struct opn *o)
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
		if (o->ocp == 2 && o->gen == 5) {
			o->width = 8;
			note(p, "B boards on OCP 2.0 are PCIe x8 (MCX542B); community data lists "
				"MCX545B-CCUN as x16.");
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

		if (o->fam == &fam_cx6 && i == 1)
			note(p, "ConnectX-6 EN/VPI OPNs carry no security letter; '%c' is read as one.",
			     c);
		security(p, c);
	}
	if (o->nletters < want && (o->gen >= 7 || o->fam != &fam_cx6))
		note(p, "No security letter (N, S, E, C) after the variant: crypto and secure "
			"boot are unknown.");
	return 0;
}

/* ---- the suffix ------------------------------------------------------------ */

static int cx_speed(struct dec *d, struct opn *o)
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

static int cx_host(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	char c = o->sfx[1];

	if (!strchr(o->fam->host_letters, c)) {
		if (c == 'D' && o->fam == &fam_cx5) {
			o->fam = &fam_cx5ex;
		} else if (c == 'C' && (o->fam == &fam_cx6dx || o->fam == &fam_cx6lx)) {
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
		if (o->fam == &fam_cx6) {
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
		if (o->fam == &fam_cx6 || o->fam == &fam_cx6dx)
			p->pcie_gen_min = 3;
		pos_char(p, c, "PCIe 4.0 (16 GT/s)%s",
			 o->fam == &fam_cx5ex ? ": ConnectX-5 Ex" : p->pcie_gen_min ? ", 3.0 compatible" :
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

static void cx_option(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	char c = o->sfx[2];

	if (o->gen == 3) {
		if (c == 'C' || c == 'P' || c == 'Q') {
			o->fam = &fam_cx3pro;
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

static void cx_bracket(struct dec *d, struct opn *o)
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

/* ---- ConnectX: the whole OPN ---------------------------------------------- */

static void fill_cx(struct nicfit_part *p, const struct opn *o)
{
	setstr(p->vendor, sizeof(p->vendor), "NVIDIA");
	setstr(p->family, sizeof(p->family), o->fam->name);
	setstr(p->driver, sizeof(p->driver), o->fam->driver);
	p->ports = o->ports;
	setstr(p->cage, sizeof(p->cage), o->cage);
	p->pcie_width = o->width;
	if (!p->form_factor[0])
		setstr(p->form_factor, sizeof(p->form_factor),
		       o->ocp == 3 ? "ocp3" : o->ocp == 2 ? "ocp2" : "pcie-hhhl");
	p->rdma = NICFIT_RDMA_ROCE;
	if (!strcmp(p->protocol, "VPI"))
		p->rdma |= NICFIT_RDMA_IB;
	p->pci_vendor = 0x15b3;
	p->pci_device = o->fam->device;
}

static int decode_cx(struct dec *d, size_t i)
{
	struct nicfit_part *p = d->p;
	struct opn o;
	size_t end = 0;
	int rc, tool;

	memset(&o, 0, sizeof(o));
	o.form_vpi = -1;
	pos(p, i == 3 ? "MCX" : "CX", "ConnectX adapter card%s",
	    i == 3 ? "" : " (the leading M is missing)");
	if ((rc = opn_shape(d, i, &o, &end)))
		return rc;
	rc = o.gen <= 5 ? base_cx345(d, &o) : base_cx67(d, &o);
	if (rc)
		return rc;
	if ((rc = cx_letters(d, &o)))
		return rc;
	if (o.nsfx == 0) {
		if (end < d->len)
			return bad(d, end, "expected '-' after the letters, found '%c'", d->s[end]);
		note(p, "No suffix after the base: speed, PCIe generation and bracket are unknown.");
		fill_cx(p, &o);
		setstr(p->protocol, sizeof(p->protocol), o.form_vpi == 1 ? "VPI" : o.form_vpi == 0 ?
		       "EN" : "");
		p->rdma = NICFIT_RDMA_ROCE | (o.form_vpi == 1 ? NICFIT_RDMA_IB : 0);
		if (o.gen == 3)
			note(p, "Without the suffix a ConnectX-3 and a ConnectX-3 Pro look the same.");
		return 0;
	}
	pos(p, "-", "separator");
	if ((rc = cx_speed(d, &o)) || (rc = cx_host(d, &o)))
		return rc;
	cx_option(d, &o);
	if (o.nsfx == 4)
		cx_bracket(d, &o);
	if ((rc = opn_tails(d, end, &tool)))
		return rc;
	if (o.nsfx == 3)
		note(p, tool ? "Firmware tools print the OPN without its bracket letter and with a "
			       "revision tail; bracket unknown." :
			       "Only 3 letters after '-': the bracket letter is missing.");
	if (o.gen == 7)
		note(p, "The ConnectX-7 digit layout is community data (KCORES list, VPD strings), "
			"not an NVIDIA document.");
	if (o.gen == 7 && o.ndigits == 5 && o.ocp == 0)
		note(p, "Some OSFP ConnectX-7 parts are InfiniBand-only (community data lists "
			"MCX75510AAS-NEAT as IB).");
	if (o.fam == &fam_cx6de)
		note(p, "ConnectX-6 DE (family digit 8) is community data; its PCI ID is not in "
			"nicfit's table.");
	if (p->socket_direct)
		note(p, "Socket Direct: the card's PCIe lanes are split across two slots (two CPU "
			"sockets); pcie_width is per link.");
	if (o.community)
		note(p, "Part of this reading rests on community data only (KCORES OPN list).");
	fill_cx(p, &o);
	return 0;
}

/* BlueField DPU OPNs: recognised, not decoded position by position. */
static int decode_bf(struct dec *d)
{
	struct nicfit_part *p = d->p;
	char g = d->len > 3 ? d->s[3] : '\0';

	if (!is_digit(g))
		return bad(d, 3, "expected the BlueField generation digit after MBF");
	if (g < '1' || g > '3')
		return bad(d, 3, "no BlueField generation '%c'", g);
	p->kind = NICFIT_PART_DPU;
	pos(p, "MBF", "BlueField DPU card");
	pos_char(p, g, "BlueField%s generation", g == '1' ? "" : g == '2' ? "-2" : "-3");
	setstr(p->vendor, sizeof(p->vendor), "NVIDIA");
	snprintf(p->family, sizeof(p->family), "BlueField%s",
		 g == '1' ? "" : g == '2' ? "-2" : "-3");
	p->pci_vendor = 0x15b3;
	p->pci_device = g == '1' ? 0xa2d2 : g == '2' ? 0xa2d6 : 0xa2dc;
	p->rdma = NICFIT_RDMA_ROCE;
	setstr(p->driver, sizeof(p->driver), "mlx5_core");
	note(p, "BlueField DPU OPNs follow their own scheme; nicfit recognises them but does "
		"not decode ports, speed or PCIe from the rules.");
	note(p, "pci.device is the DPU's integrated ConnectX network function.");
	return 0;
}

/* ---- Intel adapters (reference/nic-identity.md section 2) ----------------- */

struct intel_nic {
	const char *name;        /* "X710-DA2" */
	const char *ctl;         /* controller: "X710" */
	const char *code;        /* port-type code: "DA" */
	const char *count;       /* "2", "4L" */
	int ports;
	const char *cage;
	double gbps;
	int gen, width;
	unsigned device;
	unsigned rdma;
	const char *driver;
	const char *unverified;  /* space-separated field names */
	const char *source;
};

#define IW (NICFIT_RDMA_IWARP | NICFIT_RDMA_ROCE)

static const struct intel_nic intel[] = {
	{ "X520-DA1", "X520", "DA", "1", 1, "SFP+", 10, 2, 8, 0x10fb, 0, "ixgbe",
	  "pcie_width pci form_factor",
	  "82599 controller (PCIe 2.0 per Intel's 82599 specification update); not in " REF2 },
	{ "X520-DA2", "X520", "DA", "2", 2, "SFP+", 10, 2, 8, 0x10fb, 0, "ixgbe",
	  "pcie_width pci form_factor",
	  "82599 controller (PCIe 2.0 per Intel's 82599 specification update); not in " REF2 },
	{ "X540-T2", "X540", "T", "2", 2, "RJ45", 10, 2, 8, 0x1528, 0, "ixgbe",
	  "pcie_gen pcie_width pci form_factor", "not in " REF2 "; general knowledge" },
	{ "X550-T1", "X550", "T", "1", 1, "RJ45", 10, 3, 4, 0x1563, 0, "ixgbe",
	  "pcie_width pci form_factor", REF2 ".1 (X550-T2 row; the T1 is its one-port sibling)" },
	{ "X550-T2", "X550", "T", "2", 2, "RJ45", 10, 3, 4, 0x1563, 0, "ixgbe",
	  "form_factor", REF2 ".1 (Intel retail list H86377 / 1563; X550 spec update)" },
	{ "X710-DA2", "X710", "DA", "2", 2, "SFP+", 10, 3, 8, 0x1572, 0, "i40e",
	  "pcie_width form_factor", REF2 ".1 (pci.ids; Intel retail list J11367 / 1572)" },
	{ "X710-DA4", "X710", "DA", "4", 4, "SFP+", 10, 3, 8, 0x1572, 0, "i40e",
	  "pcie_width form_factor", REF2 ".1 (pci.ids; DPDK)" },
	{ "X710-T4", "X710", "T", "4", 4, "RJ45", 10, 3, 8, 0x1589, 0, "i40e",
	  "form_factor", REF2 ".1 (pci.ids)" },
	{ "X710-T4L", "X710", "T", "4L", 4, "RJ45", 10, 3, 8, 0x15ff, 0, "i40e",
	  "pcie_width form_factor", REF2 ".1 (pci.ids; Intel retail list K37380 / 15FF)" },
	{ "XL710-QDA1", "XL710", "QDA", "1", 1, "QSFP+", 40, 3, 8, 0x1584, 0, "i40e",
	  "pcie_gen pcie_width form_factor", REF2 " (i40e device IDs: XL710 QSFP single 1584)" },
	{ "XL710-QDA2", "XL710", "QDA", "2", 2, "QSFP+", 40, 3, 8, 0x1583, 0, "i40e",
	  "form_factor", REF2 ".1 (Intel retail list J11363 / 1583, PCIe 3.0 x8)" },
	{ "XXV710-DA1", "XXV710", "DA", "1", 1, "SFP28", 25, 3, 8, 0x158b, 0, "i40e",
	  "pcie_gen pcie_width pci form_factor", REF2 " (XXV710-DA2 row; one-port sibling)" },
	{ "XXV710-DA2", "XXV710", "DA", "2", 2, "SFP28", 25, 3, 8, 0x158b, 0, "i40e",
	  "form_factor", REF2 ".1 (Intel retail list J21147 / 158B, PCIe 3.0 x8)" },
	{ "E810-XXVDA2", "E810", "XXVDA", "2", 2, "SFP28", 25, 4, 8, 0x159b, IW, "ice",
	  "form_factor", REF2 ".1 (pci.ids; lspci LnkCap 16GT/s x8)" },
	{ "E810-XXVDA4", "E810", "XXVDA", "4", 4, "SFP28", 25, 4, 16, 0x1593, IW, "ice",
	  "pcie_width pci form_factor", "Intel ice driver download list; not in " REF2 },
	{ "E810-CQDA1", "E810", "CQDA", "1", 1, "QSFP28", 100, 4, 16, 0x1592, IW, "ice",
	  "pcie_width form_factor", "Intel ice driver download list; E810-C QSFP ID 1592 (" REF2 ")" },
	{ "E810-CQDA2", "E810", "CQDA", "2", 2, "QSFP28", 100, 4, 16, 0x1592, IW, "ice",
	  "form_factor", REF2 ".1 (pci.ids; ServeTheHome review: PCIe Gen4 x16)" },
	{ "E810-2CQDA2", "E810", "2CQDA", "2", 2, "QSFP28", 100, 4, 16, 0x1592, IW, "ice",
	  "pcie_width pci form_factor", "Intel ice driver download list; not in " REF2 },
};

#define NINTEL (sizeof(intel) / sizeof(intel[0]))

static const char *intel_code_text(const char *code)
{
	if (!strcmp(code, "DA"))
		return "direct attach: SFP cages (DAC or optics)";
	if (!strcmp(code, "QDA"))
		return "QSFP+ cages (DAC or optics)";
	if (!strcmp(code, "XXVDA"))
		return "25GbE SFP28 cages";
	if (!strcmp(code, "CQDA"))
		return "100GbE QSFP28 cages";
	if (!strcmp(code, "2CQDA"))
		return "two 100GbE controllers, QSFP28 cages (unverified)";
	return "BASE-T copper (RJ45)";
}

/* Compare ignoring '-' and ' '; *rest gets what follows a match of all of name. */
static int intel_match(const char *s, const char *name, const char **rest)
{
	while (*name) {
		if (*s == '-' || *s == ' ') {
			s++;
			continue;
		}
		if (*name == '-') {
			name++;
			continue;
		}
		if (*s != *name)
			return 0;
		s++;
		name++;
	}
	*rest = s;
	return 1;
}

static void intel_notes(struct nicfit_part *p, const struct intel_nic *n)
{
	if (!strcmp(n->driver, "i40e")) {
		note(p, "No RDMA: the Intel 700 series has none (irdma supports E810 and X722 only).");
		if (strcmp(n->cage, "RJ45"))
			note(p, "700-series firmware may accept only Intel-coded modules and DACs "
				"(the check is in the card's NVM; i40e has no allow_unsupported_sfp).");
	} else if (!strcmp(n->driver, "ixgbe")) {
		note(p, "No RDMA (irdma supports E810 and X722 only).");
		if (strcmp(n->cage, "RJ45"))
			note(p, "ixgbe refuses non-Intel SFP+ modules unless loaded with "
				"allow_unsupported_sfp=1.");
	} else {
		note(p, "RDMA: iWARP and RoCE v2 with the irdma driver.");
	}
	if (!strcmp(n->name, "E810-CQDA2"))
		note(p, "Both ports together may be limited to about 100 Gb/s per card (unverified); "
			"E810-2CQDA2 is the 200 Gb/s part.");
	if (!strcmp(n->name, "E810-2CQDA2"))
		note(p, "Two E810 controllers on one card: the slot must bifurcate x16 into x8x8 "
			"(unverified).");
	if (!strcmp(n->ctl, "X550"))
		note(p, "X550 ports also run at 1, 2.5 and 5 Gb/s (NBASE-T); a Gen2 slot halves "
			"its PCIe bandwidth.");
}

static int decode_intel(struct dec *d)
{
	struct nicfit_part *p = d->p;
	const char *s = d->s, *rest = NULL;
	size_t i, skip = 0;
	char field[24];

	if (!strncmp(s, "INTEL", 5)) {
		skip = 5;
		while (s[skip] == ' ' || s[skip] == '-')
			skip++;
	}
	for (i = 0; i < NINTEL; i++)
		if (intel_match(s + skip, intel[i].name, &rest))
			if (!*rest || !strcmp(rest, "BLK") || !strcmp(rest, "-BLK"))
				break;
	if (i == NINTEL)
		return 1;
	{
		const struct intel_nic *n = &intel[i];
		const char *u = n->unverified;

		setstr(p->part, sizeof(p->part), n->name);
		setstr(p->vendor, sizeof(p->vendor), "Intel");
		snprintf(p->family, sizeof(p->family), "Intel %s", n->ctl);
		setstr(p->protocol, sizeof(p->protocol), "EN");
		p->ports = n->ports;
		setstr(p->cage, sizeof(p->cage), n->cage);
		p->port_gbps = n->gbps;
		p->pcie_gen = n->gen;
		p->pcie_width = n->width;
		p->rdma = n->rdma;
		setstr(p->form_factor, sizeof(p->form_factor), "pcie-hhhl");
		setstr(p->driver, sizeof(p->driver), n->driver);
		p->pci_vendor = 0x8086;
		p->pci_device = n->device;
		setstr(p->source, sizeof(p->source), n->source);
		while (*u) {
			size_t len = strcspn(u, " ");

			snprintf(field, sizeof(field), "%.*s", (int)len, u);
			unverified(p, field);
			u += len;
			while (*u == ' ')
				u++;
		}
		pos(p, n->ctl, "Intel Ethernet controller %s (%s driver)", n->ctl, n->driver);
		pos(p, n->code, "%s", intel_code_text(n->code));
		pos(p, n->count, "%d port%s%s", n->ports, n->ports == 1 ? "" : "s",
		    strchr(n->count, 'L') ? " (L: the later X710-TM4 board)" : "");
		if (*rest)
			pos(p, "BLK", "bulk pack (no retail box)");
		d->intel = n;
	}
	return 0;
}

/* Intel controller names that start a name the table lacks. */
static int intel_family_error(struct dec *d)
{
	static const char *const fam[] = { "X520", "X540", "X550", "X710", "XL710", "XXV710",
		"E810", NULL };
	const char *s = d->s;
	size_t i, k;
	char known[200];
	int n = 0;

	if (!strncmp(s, "INTEL", 5)) {
		s += 5;
		while (*s == ' ' || *s == '-')
			s++;
	}
	if (!strncmp(s, "X722", 4))
		return bad(d, (size_t)(s - d->s), "X722 is the 10GbE controller built into Intel "
			   "C620-series chipsets (LOM; iWARP RDMA), not an adapter nicfit knows");
	for (i = 0; fam[i]; i++) {
		if (strncmp(s, fam[i], strlen(fam[i])))
			continue;
		known[0] = '\0';
		for (k = 0; k < NINTEL; k++)
			if (!strcmp(intel[k].ctl, fam[i]) && n < 6) {
				size_t l = strlen(known);

				snprintf(known + l, sizeof(known) - l, "%s%s", n ? ", " : "",
					 intel[k].name);
				n++;
			}
		return bad(d, (size_t)(s - d->s) + strlen(fam[i]),
			   "not an Intel %s adapter nicfit knows (known: %s)", fam[i], known);
	}
	return 1;
}

/* ---- the catalog ---------------------------------------------------------- */

/* Facts the rules and the catalog both give, for comparing them. */
struct facts {
	char family[32], protocol[8], cage[12], ib_rate[8], form_factor[16], bracket[24];
	int ports, pcie_gen, pcie_width, socket_direct;
	double port_gbps;
};

static void take_facts(struct facts *f, const struct nicfit_part *p)
{
	memset(f, 0, sizeof(*f));
	setstr(f->family, sizeof(f->family), p->family);
	setstr(f->protocol, sizeof(f->protocol), p->protocol);
	setstr(f->cage, sizeof(f->cage), p->cage);
	setstr(f->ib_rate, sizeof(f->ib_rate), p->ib_rate);
	setstr(f->form_factor, sizeof(f->form_factor), p->form_factor);
	setstr(f->bracket, sizeof(f->bracket), p->bracket);
	f->ports = p->ports;
	f->pcie_gen = p->pcie_gen;
	f->pcie_width = p->pcie_width;
	f->socket_direct = p->socket_direct;
	f->port_gbps = p->port_gbps;
}

static void differ_s(struct nicfit_part *p, const char *field, const char *rule,
		     const char *cat)
{
	if (rule[0] && cat[0] && strcasecmp(rule, cat))
		note(p, "The part-number rules read %s as %s; the catalog says %s (the catalog "
			"wins).", field, rule, cat);
}

static void differ_i(struct nicfit_part *p, const char *field, double rule, double cat)
{
	if (rule > 0 && cat > 0 && rule != cat)
		note(p, "The part-number rules read %s as %g; the catalog says %g (the catalog "
			"wins).", field, rule, cat);
}

static void compare(struct nicfit_part *p, const struct facts *r)
{
	differ_s(p, "family", r->family, p->family);
	differ_s(p, "protocol", r->protocol, p->protocol);
	differ_i(p, "ports", r->ports, p->ports);
	differ_s(p, "cage", r->cage, p->cage);
	differ_i(p, "port_gbps", r->port_gbps, p->port_gbps);
	if (r->ib_rate[0] != p->ib_rate[0] || strcmp(r->ib_rate, p->ib_rate))
		if (r->protocol[0] && p->protocol[0])
			note(p, "The part-number rules read ib_rate as %s; the catalog says %s (the "
				"catalog wins).", r->ib_rate[0] ? r->ib_rate : "none",
			     p->ib_rate[0] ? p->ib_rate : "none");
	differ_i(p, "pcie_gen", r->pcie_gen, p->pcie_gen);
	differ_i(p, "pcie_width", r->pcie_width, p->pcie_width);
	differ_s(p, "form_factor", r->form_factor, p->form_factor);
	differ_s(p, "bracket", r->bracket, p->bracket);
	if (r->socket_direct != p->socket_direct && r->ports)
		note(p, "The part-number rules read socket_direct as %s; the catalog says %s.",
		     r->socket_direct ? "true" : "false", p->socket_direct ? "true" : "false");
}

static void fill_from_nic(struct nicfit_part *p, const struct nicfit_nic *n)
{
	int i;

	p->kind = NICFIT_PART_NIC;
	p->confidence = NICFIT_CONF_CATALOG;
	p->catalog_kind = NICFIT_KIND_NIC;
	setstr(p->catalog_id, sizeof(p->catalog_id), n->e.id);
	setstr(p->name, sizeof(p->name), n->e.name);
	setstr(p->source, sizeof(p->source), n->e.source);
	setstr(p->part, sizeof(p->part), n->part ? n->part : n->e.id);
	setstr(p->vendor, sizeof(p->vendor), n->vendor);
	setstr(p->family, sizeof(p->family), n->family);
	setstr(p->protocol, sizeof(p->protocol), n->protocol);
	p->ports = n->ports;
	setstr(p->cage, sizeof(p->cage), n->cage);
	p->port_gbps = n->port_gbps;
	setstr(p->ib_rate, sizeof(p->ib_rate), n->ib_rate);
	p->pcie_gen = n->pcie_gen;
	p->pcie_gen_min = n->pcie_gen_min;
	p->pcie_width = n->pcie_width;
	p->socket_direct = n->socket_direct;
	p->rdma = n->rdma;
	setstr(p->form_factor, sizeof(p->form_factor), n->form_factor);
	if (n->bracket)
		setstr(p->bracket, sizeof(p->bracket), n->bracket);
	if (n->driver)
		setstr(p->driver, sizeof(p->driver), n->driver);
	if (n->pci_vendor) {
		p->pci_vendor = n->pci_vendor;
		p->pci_device = n->pci_device;
	}
	p->nunverified = 0;
	for (i = 0; i < n->e.nunverified; i++)
		unverified(p, n->e.unverified[i]);
	for (i = 0; i < n->e.nnotes; i++)
		note(p, "%s", n->e.notes[i]);
}

static void fill_from_entry(struct nicfit_part *p, const struct nicfit_entry *e,
			    enum nicfit_kind k)
{
	int i;

	p->kind = NICFIT_PART_OTHER;
	p->confidence = NICFIT_CONF_CATALOG;
	p->catalog_kind = k;
	setstr(p->catalog_id, sizeof(p->catalog_id), e->id);
	setstr(p->name, sizeof(p->name), e->name);
	setstr(p->source, sizeof(p->source), e->source);
	setstr(p->part, sizeof(p->part), e->id);
	if (k == NICFIT_KIND_CABLE) {
		const struct nicfit_cable *c = (const struct nicfit_cable *)(const void *)e;

		if (c->part)
			setstr(p->part, sizeof(p->part), c->part);
	}
	for (i = 0; i < e->nunverified; i++)
		unverified(p, e->unverified[i]);
	for (i = 0; i < e->nnotes; i++)
		note(p, "%s", e->notes[i]);
	note(p, "This is a catalog %s, not a network card: 'nicfit catalog show %s' has its "
		"facts.", nicfit_kind_name(k), e->id);
}

/*
 * A firmware-tool string ("MCX623106AN-CDA_Ax") names the OPN without its
 * bracket letter: the catalog NIC whose part is that plus one letter.
 */
static const struct nicfit_nic *tool_match(const struct nicfit_catalog *cat,
					   struct nicfit_part *p, const char *s)
{
	const struct nicfit_nic *hit = NULL;
	char base[NICFIT_PART_MAX + 1];
	size_t i, n = strcspn(s, "_"), count = nicfit_catalog_count(cat, NICFIT_KIND_NIC);
	int matches = 0;

	if (!s[n] || n == 0)
		return NULL;
	snprintf(base, sizeof(base), "%.*s", (int)n, s);
	for (i = 0; i < count; i++) {
		const struct nicfit_nic *c = nicfit_catalog_nic(cat, i);

		if (!c->part)
			continue;
		if (!strcasecmp(c->part, base)) {
			return c;
		}
		if (strlen(c->part) == n + 1 && !strncasecmp(c->part, base, n)) {
			matches++;
			hit = c;
		}
	}
	if (matches == 1) {
		note(p, "Matched catalog part %s: firmware tools drop the bracket letter.", hit->part);
		return hit;
	}
	if (matches > 1)
		note(p, "Several catalog parts differ only in the bracket letter; none was chosen.");
	return NULL;
}

/* ---- planning: the card in common slots ----------------------------------- */

static void plan_slots(struct nicfit_part *p)
{
	struct nicfit_pcie_params pp;
	struct nicfit_link_params lp;
	struct nicfit_card card;
	enum nicfit_proto proto;
	int gens[NICFIT_PART_SLOTS], n = 0, i, links;

	if (nicfit_part_card(p, &card))
		return;
	nicfit_pcie_params_default(&pp);
	nicfit_link_params_default(&lp);
	proto = (p->rdma & NICFIT_RDMA_ROCE) ? NICFIT_PROTO_ROCE :
		!strcmp(p->protocol, "IB") ? NICFIT_PROTO_IB : NICFIT_PROTO_TCP;
	gens[n++] = p->pcie_gen;
	if (p->pcie_gen >= 5)
		gens[n++] = 4;
	if (p->pcie_gen >= 4)
		gens[n++] = 3;
	/* a Socket Direct card is installed with both links: count their lanes together */
	links = p->socket_direct ? 2 : 1;
	card.pcie_width *= links;
	for (i = 0; i < n; i++) {
		struct nicfit_nic_fit r;
		struct nicfit_part_slot *s;

		if (nicfit_calc_nic(&card, gens[i], card.pcie_width, 0, proto, &pp, &lp, &r, NULL))
			continue;
		s = &p->slots[p->nslots++];
		s->gen = gens[i];
		s->links = links;
		s->width = card.pcie_width / links;
		s->link_gen = r.link_gen;
		s->link_width = r.link_width;
		s->ports_gbps = r.ports_gbps;
		s->pcie_gbps = r.pcie_gbps;
		s->effective_gbps = r.effective_gbps;
		s->limited_by = r.limited_by;
	}
}

int nicfit_part_card(const struct nicfit_part *p, struct nicfit_card *card)
{
	static const char *const ib[] = { "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR",
		"HDR100", "HDR", "NDR200", "NDR", "XDR", NULL };
	size_t i;

	memset(card, 0, sizeof(*card));
	if (p->kind != NICFIT_PART_NIC || p->ports < 1 || p->port_gbps <= 0 ||
	    p->pcie_gen < 1 || p->pcie_width < 1)
		return NICFIT_E_DATA;
	card->pcie_gen = p->pcie_gen;
	card->pcie_width = p->pcie_width;
	card->ports = p->ports;
	card->port_gbps = p->port_gbps;
	card->rdma = p->rdma;
	card->vpi = !strcmp(p->protocol, "VPI");
	for (i = 0; p->ib_rate[0] && ib[i]; i++)
		if (!strcasecmp(ib[i], p->ib_rate))
			card->ib_rate = ib[i];
	return 0;
}

/* ---- the summary line ------------------------------------------------------ */

static void make_summary(struct nicfit_part *p)
{
	char buf[256], pcie[48];
	size_t n;

	if (p->kind == NICFIT_PART_OTHER) {
		setstr(p->summary, sizeof(p->summary), p->name);
		return;
	}
	if (p->kind == NICFIT_PART_DPU && !p->ports) {
		snprintf(p->summary, sizeof(p->summary), "%s DPU (ports, speed and PCIe not decoded)",
			 p->family);
		return;
	}
	n = (size_t)snprintf(buf, sizeof(buf), "%s%s%s", p->family,
			     !strcmp(p->protocol, "VPI") || (!strcmp(p->protocol, "EN") &&
			     !strcmp(p->vendor, "NVIDIA")) ? " " : "",
			     !strcmp(p->protocol, "VPI") || (!strcmp(p->protocol, "EN") &&
			     !strcmp(p->vendor, "NVIDIA")) ? p->protocol : "");
	if (p->ports && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %d x %s", p->ports, p->cage);
	if (p->port_gbps > 0 && n < sizeof(buf)) {
		if (p->ib_rate[0])
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %s InfiniBand or %gGbE",
					      p->ib_rate, p->port_gbps);
		else
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %gGbE", p->port_gbps);
	}
	if (p->pcie_gen && n < sizeof(buf)) {
		if (p->pcie_gen_min && p->pcie_gen_min < p->pcie_gen)
			snprintf(pcie, sizeof(pcie), "PCIe %d.0/%d.0", p->pcie_gen_min, p->pcie_gen);
		else
			snprintf(pcie, sizeof(pcie), "PCIe %d.0", p->pcie_gen);
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %s%s x%d",
				      p->socket_direct ? "Socket Direct 2 x " : "", pcie,
				      p->pcie_width);
	}
	if (p->form_factor[0] && strncmp(p->form_factor, "pcie", 4) && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %s",
				      !strcmp(p->form_factor, "ocp3") ? "OCP 3.0" :
				      !strcmp(p->form_factor, "ocp2") ? "OCP 2.0" : p->form_factor);
	if ((!strcmp(p->bracket, "tall") || !strcmp(p->bracket, "short")) && n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, ", %s bracket", p->bracket);
	setstr(p->summary, sizeof(p->summary), buf);
}

/* ---- the entry point -------------------------------------------------------- */

static int allowed(int c)
{
	return isalnum(c) || c == '-' || c == '_' || c == ' ' || c == '.' || c == '+' ||
	       c == '/' || c == '(' || c == ')';
}

/* Trim, check and upper-case text into d->s (p->input). */
static int normalize(struct dec *d, const char *text)
{
	size_t len, start = 0, i;

	d->s = d->buf;
	d->buf[0] = '\0';
	if (!text)
		return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, 0,
				       "no part number given");
	len = strnlen(text, NICFIT_PART_SCAN_MAX + 1);
	while (start < len && isspace((unsigned char)text[start]))
		start++;
	if (len > NICFIT_PART_SCAN_MAX)
		return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, (long)start + 1,
				       "not a part number: more than %d characters (a part number "
				       "has at most %d)", NICFIT_PART_SCAN_MAX, NICFIT_PART_MAX);
	while (len > start && isspace((unsigned char)text[len - 1]))
		len--;
	d->lead = (long)start;
	if (len == start)
		return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, 0,
				       "empty part number");
	for (i = start; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c >= 0x80 || !allowed(c))
			return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, (long)i + 1,
					       "not a part number: %s 0x%02x at column %ld",
					       isprint(c) ? "character" : "byte", c, (long)i + 1);
	}
	if (len - start > NICFIT_PART_MAX)
		return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0,
				       (long)start + NICFIT_PART_MAX + 1,
				       "'%.20s...': too long for a part number (%zu characters; "
				       "at most %d)", text + start, len - start, NICFIT_PART_MAX);
	for (i = start; i < len; i++)
		d->buf[i - start] = (char)toupper((unsigned char)text[i]);
	d->buf[len - start] = '\0';
	d->len = len - start;
	return 0;
}

/* The catalog's nearest NIC id, for "did you mean". */
static const char *nearest(const struct nicfit_catalog *cat, const char *s)
{
	const char *ids[257];
	char low[NICFIT_PART_MAX + 1];
	size_t i, n = cat ? nicfit_catalog_count(cat, NICFIT_KIND_NIC) : 0;

	if (n > 256)
		n = 256;
	for (i = 0; i < n; i++)
		ids[i] = nicfit_catalog_entry(cat, NICFIT_KIND_NIC, i)->id;
	ids[n] = NULL;
	for (i = 0; s[i] && i < NICFIT_PART_MAX; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[i] = '\0';
	return n ? nicfit_suggest(low, ids) : NULL;
}

/* Run the rules: 0 decoded, <0 error, 1 no scheme matched (no error set). */
static int rules(struct dec *d)
{
	const char *s = d->s;
	int rc;

	if (!strncmp(s, "MCX", 3))
		return decode_cx(d, 3);
	if (!strncmp(s, "MBF", 3))
		return decode_bf(d);
	if (s[0] == 'C' && s[1] == 'X' && is_digit(s[2]))
		return decode_cx(d, 2);
	rc = decode_intel(d);
	if (rc <= 0)
		return rc;
	return intel_family_error(d);
}

static void reset(struct nicfit_part *p)
{
	memset(p, 0, sizeof(*p));
	p->crypto = -1;
	p->secure_boot = -1;
	p->catalog_kind = NICFIT_KIND_NIC;
}

static int not_a_part(const struct nicfit_catalog *cat, struct dec *d)
{
	const char *near = nearest(cat, d->s);
	char shown[24];

	snprintf(shown, sizeof(shown), "%.20s", d->s);
	if (!strncmp(d->s, "900-", 4))
		return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, d->lead + 1,
				       "'%s': NVIDIA 900-... SKUs are not decoded; give the MCX "
				       "ordering part number (card label, lspci -vv [PN]) (at column "
				       "%ld)", shown, d->lead + 1);
	return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, d->lead + 1,
			       "'%s' is not a part number nicfit can read: expected a ConnectX OPN "
			       "(MCX...), an Intel adapter name (X710-DA2, E810-CQDA2 ...) or a "
			       "catalog id%s%s%s (at column %ld)", shown,
			       near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "",
			       d->lead + 1);
}

int nicfit_decode(const struct nicfit_catalog *cat, const char *text,
		  struct nicfit_part *out, struct nicfit_error *err)
{
	char norm[NICFIT_PART_MAX + 1];
	struct nicfit_error rerr;
	struct dec d;
	struct facts rf;
	const struct nicfit_nic *nic = NULL;
	const struct nicfit_entry *other = NULL;
	enum nicfit_kind kind = NICFIT_KIND_NIC;
	int rc;

	reset(out);
	memset(&d, 0, sizeof(d));
	d.p = out;
	d.err = err;
	d.buf = norm;
	rc = normalize(&d, text);
	if (rc)
		return rc;
	/* the rules first, so that their reading is there to compare */
	nicfit_error_clear(&rerr);
	d.err = &rerr;
	rc = rules(&d);
	d.err = err;
	if (rc != 0)
		reset(out);
	if (cat) {
		nic = nicfit_catalog_find_nic(cat, norm, "part", NULL);
		if (!nic && rc == 0 && out->part[0])
			nic = nicfit_catalog_find_nic(cat, out->part, "part", NULL);
		if (!nic) {
			other = nicfit_catalog_lookup(cat, norm, &kind);
			if (other && kind == NICFIT_KIND_NIC) {
				nic = (const struct nicfit_nic *)(const void *)other;
				other = NULL;
			}
		}
		if (!nic && !other)
			nic = tool_match(cat, out, norm);
	}
	if (other) {
		reset(out);
		fill_from_entry(out, other, kind);
	} else if (nic) {
		/* the catalog has it: its facts win, the rules explain and cross-check */
		take_facts(&rf, out);
		fill_from_nic(out, nic);
		if (rc == 0)
			compare(out, &rf);
		else if (rc < 0)
			note(out, "The part-number rules cannot read it: %s", rerr.msg);
	} else if (rc == 0) {
		out->confidence = NICFIT_CONF_RULE;
		if (d.intel)
			intel_notes(out, d.intel);
		if (!out->part[0])
			snprintf(out->part, sizeof(out->part), "%.*s", (int)strcspn(norm, "_"), norm);
		if (!out->source[0])
			setstr(out->source, sizeof(out->source), REF1 ", OPN rules");
	} else {
		reset(out);
		if (rc < 0) {
			const char *near = nearest(cat, norm);

			if (err && err->code == NICFIT_OK) {
				*err = rerr;
				if (near) {
					size_t l = strlen(err->msg);

					snprintf(err->msg + l, sizeof(err->msg) - l,
						 "; did you mean '%s'?", near);
				}
			}
			return rerr.code;
		}
		return not_a_part(cat, &d);
	}
	setstr(out->input, sizeof(out->input), norm);
	if (out->kind == NICFIT_PART_NIC)
		plan_slots(out);
	make_summary(out);
	return 0;
}

/* ---- rendering -------------------------------------------------------------- */

static void emit_str_or_null(struct nicfit_emit *e, const char *key, const char *v)
{
	if (v && v[0])
		nicfit_emit_string(e, key, v);
	else
		nicfit_emit_null(e, key);
}

static void emit_int_or_null(struct nicfit_emit *e, const char *key, int v)
{
	if (v > 0)
		nicfit_emit_int(e, key, v);
	else
		nicfit_emit_null(e, key);
}

static void emit_tri(struct nicfit_emit *e, const char *key, int v)
{
	if (v >= 0)
		nicfit_emit_bool(e, key, v);
	else
		nicfit_emit_null(e, key);
}

static const char *kind_name(enum nicfit_part_kind k)
{
	return k == NICFIT_PART_NIC ? "nic" : k == NICFIT_PART_DPU ? "dpu" : "other";
}

static void rdma_text(const struct nicfit_part *p, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!p->rdma) {
		snprintf(buf, n, "none");
		return;
	}
	snprintf(buf, n, "%s%s%s%s%s", (p->rdma & NICFIT_RDMA_IB) ? "InfiniBand" : "",
		 (p->rdma & NICFIT_RDMA_IB) && (p->rdma & (NICFIT_RDMA_ROCE | NICFIT_RDMA_IWARP)) ?
		 ", " : "",
		 (p->rdma & NICFIT_RDMA_ROCE) ? "RoCE" : "",
		 (p->rdma & NICFIT_RDMA_ROCE) && (p->rdma & NICFIT_RDMA_IWARP) ? ", " : "",
		 (p->rdma & NICFIT_RDMA_IWARP) ? "iWARP" : "");
}

static void render_json_facts(struct nicfit_emit *e, const struct nicfit_part *p)
{
	int i;

	nicfit_emit_string(e, "schema", "nicfit.decode.v1");
	nicfit_emit_string(e, "part", p->part);
	nicfit_emit_string(e, "input", p->input);
	nicfit_emit_string(e, "kind", kind_name(p->kind));
	emit_str_or_null(e, "vendor", p->vendor);
	emit_str_or_null(e, "family", p->family);
	emit_str_or_null(e, "protocol", p->protocol);
	emit_int_or_null(e, "ports", p->ports);
	emit_str_or_null(e, "cage", p->cage);
	if (p->port_gbps > 0)
		nicfit_emit_number(e, "port_gbps", p->port_gbps);
	else
		nicfit_emit_null(e, "port_gbps");
	emit_str_or_null(e, "ib_rate", p->ib_rate);
	emit_int_or_null(e, "pcie_gen", p->pcie_gen);
	emit_int_or_null(e, "pcie_gen_min", p->pcie_gen_min);
	emit_int_or_null(e, "pcie_width", p->pcie_width);
	nicfit_emit_bool(e, "socket_direct", p->socket_direct);
	nicfit_emit_bool(e, "multi_host", p->multi_host);
	if (p->kind == NICFIT_PART_OTHER)
		nicfit_emit_null(e, "rdma");
	else
		nicfit_emit_bool(e, "rdma", p->rdma != 0);
	nicfit_emit_begin_array(e, "rdma_kinds");
	if (p->rdma & NICFIT_RDMA_IB)
		nicfit_emit_string(e, NULL, "infiniband");
	if (p->rdma & NICFIT_RDMA_ROCE)
		nicfit_emit_string(e, NULL, "roce");
	if (p->rdma & NICFIT_RDMA_IWARP)
		nicfit_emit_string(e, NULL, "iwarp");
	nicfit_emit_end_array(e);
	emit_str_or_null(e, "form_factor", p->form_factor);
	emit_str_or_null(e, "bracket", p->bracket);
	emit_tri(e, "crypto", p->crypto);
	emit_tri(e, "secure_boot", p->secure_boot);
	emit_str_or_null(e, "options", p->options);
	emit_str_or_null(e, "driver", p->driver);
	if (p->pci_vendor && p->pci_device) {
		nicfit_emit_begin_object(e, "pci");
		nicfit_emit_stringf(e, "vendor", "%04x", p->pci_vendor);
		nicfit_emit_stringf(e, "device", "%04x", p->pci_device);
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "pci");
	}
	nicfit_emit_string(e, "confidence", nicfit_confidence_name(p->confidence));
	emit_str_or_null(e, "catalog_id", p->catalog_id);
	if (p->catalog_id[0])
		nicfit_emit_string(e, "catalog_kind", nicfit_kind_name(p->catalog_kind));
	emit_str_or_null(e, "name", p->name);
	nicfit_emit_string(e, "source", p->source);
	nicfit_emit_begin_array(e, "unverified");
	for (i = 0; i < p->nunverified; i++)
		nicfit_emit_string(e, NULL, p->unverified[i]);
	nicfit_emit_end_array(e);
	nicfit_emit_string(e, "summary", p->summary);
}

static void render_slots(struct nicfit_emit *e, const struct nicfit_part *p)
{
	const char *proto = (p->rdma & NICFIT_RDMA_ROCE) ? "roce" :
			    !strcmp(p->protocol, "IB") ? "ib" : "tcp";
	char where[64];
	int i;

	nicfit_emit_begin_array(e, "slots");
	for (i = 0; i < p->nslots; i++) {
		const struct nicfit_part_slot *s = &p->slots[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_stringf(e, "slot", "gen%dx%d", s->gen, s->width);
		nicfit_emit_int(e, "links", s->links);
		nicfit_emit_stringf(e, "link", "gen%dx%d", s->link_gen, s->link_width);
		nicfit_emit_string(e, "proto", proto);
		nicfit_emit_number(e, "ports_gbps", s->ports_gbps);
		nicfit_emit_number(e, "pcie_gbps", s->pcie_gbps);
		nicfit_emit_number(e, "effective_gbps", s->effective_gbps);
		nicfit_emit_string(e, "limited_by", s->limited_by);
		nicfit_emit_end_object(e);
		if (s->links > 1)
			snprintf(where, sizeof(where), "With both links in Gen%d x%d slots", s->gen,
				 s->width);
		else
			snprintf(where, sizeof(where), "In a Gen%d x%d slot", s->gen, s->width);
		if (!strcmp(s->limited_by, "pcie"))
			nicfit_emit_printf(e, "  %s: about %.0f Gb/s (PCIe-bound; the ports could "
					   "carry %.0f)\n", where, s->effective_gbps, s->ports_gbps);
		else
			nicfit_emit_printf(e, "  %s: %.0f Gb/s, %s at line rate (%.0f Gb/s of "
					   "PCIe)\n", where, s->effective_gbps,
					   p->ports == 1 ? "its port" : p->ports == 2 ? "both ports" :
					   "all ports", s->pcie_gbps);
	}
	nicfit_emit_end_array(e);
	if (p->nslots)
		nicfit_emit_printf(e, "  (%s goodput per 'nicfit calc nic' with its default "
				   "assumptions)\n", !strcmp(proto, "roce") ? "RoCE v2" :
				   !strcmp(proto, "ib") ? "InfiniBand" : "TCP");
}

static void render_text_facts(struct nicfit_emit *e, const struct nicfit_part *p)
{
	const char *bold = nicfit_emit_color(e, NICFIT_COLOR_BOLD);
	const char *reset = nicfit_emit_color(e, NICFIT_COLOR_RESET);
	char buf[96];

	nicfit_emit_printf(e, "%s%s%s: %s\n", bold, p->part, reset, p->summary);
	if (p->kind == NICFIT_PART_OTHER) {
		nicfit_emit_printf(e, "  source      %s\n", p->source);
		return;
	}
	if (p->pci_vendor && p->pci_device)
		nicfit_emit_printf(e, "  vendor      %s (PCI %04x:%04x%s%s)\n", p->vendor,
				   p->pci_vendor, p->pci_device, p->driver[0] ? ", driver " : "",
				   p->driver);
	else
		nicfit_emit_printf(e, "  vendor      %s%s%s%s\n", p->vendor,
				   p->driver[0] ? " (driver " : "", p->driver,
				   p->driver[0] ? ")" : "");
	rdma_text(p, buf, sizeof(buf));
	nicfit_emit_printf(e, "  RDMA        %s\n", buf);
	if (p->crypto >= 0 || p->secure_boot >= 0)
		nicfit_emit_printf(e, "  security    %s, %s\n",
				   p->crypto > 0 ? "crypto" : p->crypto == 0 ? "no crypto" : "crypto unknown",
				   p->secure_boot > 0 ? "secure boot" : p->secure_boot == 0 ?
				   "no secure boot" : "secure boot unknown");
	if (p->options[0])
		nicfit_emit_printf(e, "  options     %s\n", p->options);
	if (p->catalog_id[0])
		nicfit_emit_printf(e, "  source      catalog entry %s: %s\n", p->catalog_id,
				   p->source);
	else
		nicfit_emit_printf(e, "  source      %s; not in the catalog\n", p->source);
	nicfit_emit_printf(e, "  confidence  %s\n", nicfit_confidence_name(p->confidence));
	if (p->nunverified) {
		int i;

		nicfit_emit_printf(e, "  unverified  ");
		for (i = 0; i < p->nunverified; i++)
			nicfit_emit_printf(e, "%s%s", i ? ", " : "", p->unverified[i]);
		nicfit_emit_printf(e, "\n");
	}
}

void nicfit_decode_render(struct nicfit_emit *e, const struct nicfit_part *p)
{
	static const struct nicfit_column cols[] = {
		{ "chars", "Chars", 0 },
		{ "meaning", "Meaning", 0 },
	};
	int i;

	nicfit_emit_begin_object(e, NULL);
	render_json_facts(e, p);
	render_text_facts(e, p);
	if (p->nreading) {
		nicfit_emit_printf(e, "\nHow it reads:");
		for (i = 0; i < p->nreading; i++)
			nicfit_emit_printf(e, " %s", p->reading[i].chars);
		nicfit_emit_printf(e, "\n");
		nicfit_emit_table_begin(e, "reading", cols, 2);
		for (i = 0; i < p->nreading; i++) {
			nicfit_emit_cell_string(e, p->reading[i].chars);
			nicfit_emit_cell_string(e, p->reading[i].meaning);
		}
		nicfit_emit_table_end(e);
	} else {
		nicfit_emit_begin_array(e, "reading");
		nicfit_emit_end_array(e);
	}
	if (p->nslots)
		nicfit_emit_printf(e, "\nIn a server:\n");
	render_slots(e, p);
	nicfit_emit_begin_array(e, "notes");
	if (p->nnotes)
		nicfit_emit_printf(e, "\nNotes:\n");
	for (i = 0; i < p->nnotes; i++) {
		nicfit_emit_string(e, NULL, p->notes[i]);
		nicfit_emit_printf(e, "  - %s\n", p->notes[i]);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
}
