/*
 * partno_intel.c - Intel Ethernet adapter names (X710-DA2, E810-CQDA2 ...)
 * from a table of the adapters nicfit knows (docs/reference/nic-identity.md
 * section 2; see partno_int.h).
 *
 * Intel's names are not an ordering code read position by position: the
 * table holds each adapter's facts and their sources, and the reading
 * explains the name's parts (controller, port-type code, port count).
 */
#include <stdio.h>
#include <string.h>

#include "parts/partno_int.h"

/*
 * What an E810-CQDA2 moves over both ports together, as the catalog's
 * card_gbps has it (docs/reference/nic-identity.md 2.1, marked unverified).
 */
#define E810_CQDA2_CARD_GBPS 100

/* ---- Intel adapters (docs/reference/nic-identity.md section 2) ----------------- */

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

/* The adapters, compiled from data/ids/intel.txt by tools/idgen.c. */
#include "intel_table.h"

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

void nicfit__intel_notes(struct nicfit_part *p, const struct intel_nic *n)
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
	if (!strcmp(n->name, "E810-CQDA2")) {
		/* the catalog's card_gbps for this card, so decode and calc nic agree */
		p->card_gbps = E810_CQDA2_CARD_GBPS;
		unverified(p, "card_gbps");
		note(p, "Both ports together carry about 100 Gb/s per card (one E810-C controller; "
			"unverified); E810-2CQDA2 is the 200 Gb/s part.");
	}
	if (!strcmp(n->name, "E810-2CQDA2"))
		note(p, "Two E810 controllers on one card: the slot must bifurcate x16 into x8x8 "
			"(unverified).");
	if (!strcmp(n->ctl, "X550"))
		note(p, "X550 ports also run at 1, 2.5 and 5 Gb/s (NBASE-T); a Gen2 slot halves "
			"its PCIe bandwidth.");
}

int nicfit__intel_decode(struct dec *d)
{
	struct nicfit_part *p = d->p;
	const char *s = d->s, *rest = NULL, *ocp = NULL;
	size_t i, skip = 0;
	char field[24];

	if (!strncmp(s, "INTEL", 5)) {
		skip = 5;
		while (s[skip] == ' ' || s[skip] == '-')
			skip++;
	}
	for (i = 0; i < NINTEL; i++)
		if (intel_match(s + skip, intel[i].name, &rest)) {
			/* Intel names an adapter's OCP NIC 3.0 form "<name> for OCP 3.0" */
			const char *r = rest;

			while (*r == ' ')
				r++;
			if (!strcmp(r, "FOR OCP 3.0")) {
				ocp = r;
				break;
			}
			if (!*rest || !strcmp(rest, "BLK") || !strcmp(rest, "-BLK"))
				break;
		}
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
		setstr(p->form_factor, sizeof(p->form_factor), ocp ? "ocp3" : "pcie-hhhl");
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
		if (ocp) {
			pos(p, ocp, "the adapter's OCP NIC 3.0 form");
			/* the host interface is the PCIe card's; no OCP product brief read */
			unverified(p, "pcie_gen");
			unverified(p, "pcie_width");
		} else if (*rest) {
			pos(p, "BLK", "bulk pack (no retail box)");
		}
		d->intel = n;
	}
	return 0;
}

/* Intel controller names that start a name the table lacks. */
int nicfit__intel_family_error(struct dec *d)
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
