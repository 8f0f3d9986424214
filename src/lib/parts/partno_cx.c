/*
 * partno_cx.c - ConnectX ordering part numbers: the families, the shape of
 * an OPN and its whole reading; BlueField DPU OPNs (see partno_int.h).
 *
 * An OPN is "MCX <generation> <digits> <letters> - <speed><host><option>
 * <bracket>" (docs/reference/nic-identity.md section 1), followed by extra suffixes
 * ("-S25") and tails firmware tools add ("_Ax"). opn_shape() splits the
 * text into those parts and checks their lengths for the generation;
 * the digits are read by generation in partno_cx_base.c, the letters and
 * the suffix position by position in partno_cx_suffix.c, with the
 * families they share in partno_cx_fam.c. This file puts the reading
 * together and turns it into facts.
 */
#include <stdio.h>
#include <string.h>

#include "parts/partno_int.h"

/*
 * What a ConnectX-6 moves over all its ports together, as the catalog's
 * card_gbps has it for its dual-port HDR and 200GbE cards
 * (docs/reference/nic-identity.md 1.7, marked unverified).
 */
#define CX6_CARD_GBPS 200

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

/*
 * A ConnectX-6 moves about 200 Gb/s across all its ports (Lenovo LP1195:
 * "up to 200 Gb/s total bandwidth"; docs/reference/nic-identity.md 1.7), so
 * a dual-port HDR or 200GbE card read by the rules gets the catalog's
 * card_gbps for its kin, unverified as there: decode's slot lines, calc nic
 * and plan then stop at 200, not at twice that.
 */
static void cx6_total(struct nicfit_part *p, const struct opn *o)
{
	if (o->fam != FAM(CX6) || p->ports * p->port_gbps <= CX6_CARD_GBPS)
		return;
	p->card_gbps = CX6_CARD_GBPS;
	unverified(p, "card_gbps");
	note(p, "A ConnectX-6 moves about %d Gb/s across all its ports together (unverified: a "
		"server vendor's guide, not NVIDIA): the second port adds redundancy or a second "
		"network, not bandwidth.", CX6_CARD_GBPS);
}

int nicfit__cx_decode(struct dec *d, size_t i)
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
	rc = o.gen <= 5 ? nicfit__cx_base345(d, &o) : nicfit__cx_base67(d, &o);
	if (rc)
		return rc;
	if ((rc = nicfit__cx_letters(d, &o)))
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
	if ((rc = nicfit__cx_speed(d, &o)) || (rc = nicfit__cx_host(d, &o)))
		return rc;
	nicfit__cx_option(d, &o);
	if (o.nsfx == 4)
		nicfit__cx_bracket(d, &o);
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
	if (o.fam == FAM(CX6DE))
		note(p, "ConnectX-6 DE (family digit 8) is community data; its PCI ID is not in "
			"nicfit's table.");
	if (p->socket_direct)
		note(p, "Socket Direct: the card's PCIe lanes are split across two slots (two CPU "
			"sockets); pcie_width is per link.");
	if (o.community)
		note(p, "Part of this reading rests on community data only (KCORES OPN list).");
	fill_cx(p, &o);
	cx6_total(p, &o);
	return 0;
}

/* BlueField DPU OPNs: recognised, not decoded position by position. */
int nicfit__bf_decode(struct dec *d)
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
