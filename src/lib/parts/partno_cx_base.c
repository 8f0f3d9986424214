/*
 * partno_cx_base.c - the base digits of a ConnectX OPN, by generation
 * (docs/reference/nic-identity.md section 1; see partno_int.h).
 *
 * ConnectX-3 to -5 carry three digits after the generation: form
 * (EN/VPI/OCP), ports and cages, and the 4-digit ConnectX-4 Lx one more.
 * ConnectX-6 and -7 carry five or six: family, host interface, mechanics,
 * OCP and ports. Each digit is read into struct opn and, as a position
 * of the reading, explained; a digit the rules do not allow is an error
 * that says which ones they do.
 */
#include <string.h>

#include "parts/partno_int.h"

/* ---- ConnectX base digits ------------------------------------------------- */

static void set_cage(struct opn *o, int ports, const char *cage)
{
	o->ports = ports;
	o->cage = cage;
}

/* ConnectX-3, -4 and -5: MCX g f p (3 digits) and CX-4 Lx MCX 4 f p 1. */
int nicfit__cx_base345(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	char f = o->digits[1], pc = o->digits[2];
	char g[2] = { o->digits[0], '\0' };
	size_t at = o->at_digits;

	if (o->gen == 4 && o->ndigits == 4) {
		o->fam = FAM(CX4LX);
		pos(p, g, "ConnectX-4 generation; four digits = ConnectX-4 Lx");
	} else {
		o->fam = o->gen == 3 ? FAM(CX3) : o->gen == 4 ? FAM(CX4) : FAM(CX5);
		pos(p, g, "ConnectX-%d generation", o->gen);
	}
	switch (f) {
	case '1':
		o->form_vpi = 0;
		pos_char(p, f, "stand-up PCIe card, Ethernet (EN)");
		break;
	case '5':
		if (o->fam == FAM(CX4LX))
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
	if (o->fam == FAM(CX4LX)) {
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
		/* the single-SFP+ MCX311A has a x4 edge connector; the other ConnectX-3 cards x8 */
		o->width = f == '1' && pc == '1' ? 4 : 8;
		pos_char(p, pc, "%d x %s", o->ports, o->cage);
		if (f == '1' && pc == '1') {
			note(p, "MCX311A is a PCIe 3.0 x4 card (a x4 edge connector); other ConnectX-3 "
				"cards are x8. The width rests on community data.");
			unverified(p, "pcie_width");
		}
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

/*
 * ConnectX-6 and -7, the family digit f of MCX g f w m d p: which chip,
 * and whether the card is Ethernet or VPI.
 */
static int cx67_family(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	const char *dg = o->digits;
	char g[2] = { dg[0], '\0' };
	size_t at = o->at_digits;

	if (o->gen == 6) {
		switch (dg[1]) {
		case '1': o->fam = FAM(CX6); o->form_vpi = 0; break;
		case '2': o->fam = FAM(CX6DX); o->form_vpi = 0; break;
		case '3': o->fam = FAM(CX6LX); o->form_vpi = 0; break;
		case '5': o->fam = FAM(CX6); o->form_vpi = 1; break;
		case '8': o->fam = FAM(CX6DE); o->form_vpi = 1; o->community = 1; break;
		default:
			return bad(d, at + 1, "ConnectX-6 family digit '%c' is not one of 1 (EN), "
				   "2 (Dx), 3 (Lx), 5 (VPI), 8 (DE)", dg[1]);
		}
		pos(p, g, "ConnectX-6 generation");
		pos_char(p, dg[1], "%s%s", o->fam->name,
			 dg[1] == '1' ? " EN" : dg[1] == '5' ? " VPI" : "");
	} else {
		o->fam = FAM(CX7);
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
	return 0;
}

/* The host digit w: PCIe width, or a Socket Direct pair of links. */
static int cx67_host(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	const char *dg = o->digits;
	size_t at = o->at_digits;

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
	return 0;
}

/* The mechanical digit m: stand-up card or OCP mezzanine (with its OCP digit). */
static int cx67_mechanics(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	const char *dg = o->digits;
	size_t at = o->at_digits;
	int five = o->ndigits == 5;

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
	return 0;
}

/* The port digit of a 5-digit ConnectX-7 (MCX7 f w m p): OSFP cages (community data). */
static int cx7_osfp_ports(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	const char *dg = o->digits;
	size_t at = o->at_digits;

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

/* The OCP digit d and the port digit p of a 6-digit base: cages and their count. */
static int cx67_ports(struct dec *d, struct opn *o)
{
	struct nicfit_part *p = d->p;
	const char *dg = o->digits;
	size_t at = o->at_digits;

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
		set_cage(o, 1, o->gen == 7 ? "QSFP112" : o->fam == FAM(CX6LX) ? "QSFP28" : "QSFP56");
		break;
	case '6':
		if (o->fam == FAM(CX6LX))
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

/* ConnectX-6 and 6-digit ConnectX-7: MCX g f w m d p, one digit after another. */
int nicfit__cx_base67(struct dec *d, struct opn *o)
{
	int rc;

	if ((rc = cx67_family(d, o)) || (rc = cx67_host(d, o)) || (rc = cx67_mechanics(d, o)))
		return rc;
	return o->ndigits == 5 ? cx7_osfp_ports(d, o) : cx67_ports(d, o);
}
