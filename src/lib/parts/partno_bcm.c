/*
 * partno_bcm.c - Broadcom NetXtreme-E adapter part numbers
 * (BCM957608-P2200GQF00, BCM957508-N1200G, ...): the chip, the form, the
 * port count and rate, read position by position (see partno_int.h).
 *
 * Broadcom publishes no ordering-code key; the reading follows how its
 * adapter names are built across its product pages, as a public adapter
 * survey lists them (P2100G, N2100G, P1200G, N1200G, P2200G on the
 * BCM57508; P2200G, N2200G, P1400G, N1400G on the BCM57608): "BCM9" and the
 * controller's number, then P for a PCIe add-in card or N for an OCP 3.0
 * card, the port count, the rate of one port and G. What follows (QF00,
 * DF00, DP00) is a variant code nicfit does not read: the cage it seems to
 * name (Q for QSFP112, D for the single-port QSFP112-DD cards) is marked
 * unverified. The controllers' facts: the Linux bnxt_en driver's table
 * (14e4:1750 BCM57508 up to 200G, 14e4:1760 BCM57608 up to 400G) and the
 * catalog's Thor and Thor2 cards. Confidence "rule"; the catalog, asked
 * first, wins where it holds the part.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parts/partno_int.h"

struct bcm_chip {
	const char *num;        /* "57608" */
	const char *name;       /* "Thor2" */
	unsigned device;        /* PCI device ID (vendor 14e4) */
	double max_gbps;        /* what the controller moves in all */
	int gen;                /* PCIe host interface: generation, x16 */
	const char *cage;       /* the cage of its cards' ports */
};

static const struct bcm_chip chips[] = {
	{ "57508", "Thor", 0x1750, 200, 4, "QSFP56" },
	{ "57608", "Thor2", 0x1760, 400, 5, "QSFP112" },
};

#define NCHIPS (sizeof(chips) / sizeof(chips[0]))

static const struct bcm_chip *chip_of(const char *s)
{
	size_t i;

	for (i = 0; i < NCHIPS; i++)
		if (!strncmp(s, chips[i].num, 5))
			return &chips[i];
	return NULL;
}

/* "P2200G...": form, ports, rate; the index after the G, or 0 when it does not read. */
static size_t read_model(struct dec *d, const struct bcm_chip *c, size_t at, int *ports,
			 double *gbps)
{
	const char *s = d->s + at;
	size_t i = 2;
	long rate = 0;

	if ((s[0] != 'P' && s[0] != 'N') || s[1] < '1' || s[1] > '4')
		return 0;
	while (s[i] >= '0' && s[i] <= '9' && i < 6)
		rate = rate * 10 + (s[i++] - '0');
	if (s[i] != 'G' || (rate != 25 && rate != 50 && rate != 100 && rate != 200 && rate != 400))
		return 0;
	*ports = s[1] - '0';
	*gbps = (double)rate;
	if (*gbps > c->max_gbps)
		return 0;
	return at + i + 1;
}

int nicfit__bcm_decode(struct dec *d)
{
	struct nicfit_part *p = d->p;
	const struct bcm_chip *c;
	const char *s = d->s;
	char chars[16];
	size_t end;
	int ports = 0;
	double gbps = 0;

	if (strncmp(s, "BCM9", 4) || !(c = chip_of(s + 4)))
		return 1;
	if (s[9] != '-')
		return bad(d, 9, "expected '-' after the controller BCM9%s", c->num);
	end = read_model(d, c, 10, &ports, &gbps);
	if (!end)
		return bad(d, 10, "expected P (PCIe) or N (OCP 3.0), a port count and a port rate "
			   "such as 2200G, within the BCM%s's %.0f Gb/s", c->num, c->max_gbps);
	setstr(p->part, sizeof(p->part), s);
	setstr(p->vendor, sizeof(p->vendor), "Broadcom");
	snprintf(p->family, sizeof(p->family), "Broadcom BCM%s", c->num);
	setstr(p->protocol, sizeof(p->protocol), "EN");
	p->ports = ports;
	p->port_gbps = gbps;
	if (ports * gbps > c->max_gbps)
		p->card_gbps = c->max_gbps;
	p->pcie_gen = c->gen;
	p->pcie_width = 16;
	p->rdma = NICFIT_RDMA_ROCE;
	setstr(p->form_factor, sizeof(p->form_factor), s[10] == 'P' ? "pcie-hhhl" : "ocp3");
	setstr(p->driver, sizeof(p->driver), "bnxt_en");
	p->pci_vendor = 0x14e4;
	p->pci_device = c->device;
	setstr(p->cage, sizeof(p->cage), s[end] == 'D' && c->max_gbps >= 400 ? "QSFP-DD" : c->cage);
	setstr(p->source, sizeof(p->source), "Broadcom NetXtreme-E adapter names (P/N, ports, rate) "
	       "as listed across Broadcom's product pages; Linux bnxt_en PCI ID table");
	unverified(p, "form_factor");
	unverified(p, "cage");
	snprintf(chars, sizeof(chars), "BCM9%s", c->num);
	pos(p, chars, "Broadcom BCM%s (%s) NetXtreme-E controller: up to %.0f Gb/s, PCIe Gen%d "
	    "x16 (PCI 14e4:%04x, bnxt_en; RDMA through bnxt_re)", c->num, c->name, c->max_gbps,
	    c->gen, c->device);
	pos_char(p, s[10], "%s", s[10] == 'P' ? "PCIe add-in card" : "OCP 3.0 card");
	pos_char(p, s[11], "%d port%s", ports, ports == 1 ? "" : "s");
	snprintf(chars, sizeof(chars), "%.0fG", gbps);
	pos(p, chars, "%.0f Gb/s per port", gbps);
	if (s[end])
		pos(p, s + end, "Broadcom's variant code: not read (no public key)%s",
		    s[end] == 'Q' ? "; Q appears on the QSFP112 cards" :
		    s[end] == 'D' ? "; D appears on the single-port QSFP112-DD cards" : "");
	if (p->card_gbps > 0)
		note(p, "The controller moves %.0f Gb/s in all: %d ports at %.0f Gb/s share it.",
		     c->max_gbps, ports, gbps);
	if (c->max_gbps >= 400 && ports == 2)
		note(p, "Thor2's dual-port cards also run port 1 alone at 400 Gb/s (single-port mode).");
	note(p, "RoCE must be enabled in the card's NVM: niccli -i INDEX nvm -setoption support_rdma "
		"-value 1 -scope 0 (AMD's ROCm RoCE configuration guide).");
	return 0;
}
