/*
 * audit_card.c - network cards (see audit_int.h): a card is the functions
 * that share a PCI domain, bus and device; on its first function the
 * audit records how many ports it has and how fast, what they run at now,
 * and what they need from PCIe against what the card's path gives
 * (nicfit_calc_nic, the model `nicfit calc nic` prints). The findings are
 * about the card's firmware and drivers, a PCIe path too slow for its
 * ports, and ports that run below the card's rate. RDMA ports' own state
 * is audit_rdma.c's.
 */
#include <stdio.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/fmt_int.h"
#include "nicfit/link.h"
#include "nicfit/perf.h"
#include "nicfit/units.h"
#include "core/pciids_int.h"

/*
 * A port "meets" the card's rate from PORT_RATE_MEETS of it up: link
 * rates are reported rounded (an IB 4X HDR port shows 200 Gb/s, sysfs
 * speed is in whole Mb/s), and what matters is a port at a lower standard
 * rate (100G on a 200G card), which is far below this.
 */
#define PORT_RATE_MEETS 0.98

/*
 * A free slot is offered as a faster home for a starved card only when its
 * raw rate beats the card's present path by FASTER_SLOT_MARGIN: a slot of
 * the same class would only move the problem.
 */
#define FASTER_SLOT_MARGIN 1.01

static const char *rdma_driver_for(const char *drv)
{
	if (!strcmp(drv, "mlx5_core"))
		return "mlx5_ib";
	if (!strcmp(drv, "mlx4_core") || !strcmp(drv, "mlx4_en"))
		return "mlx4_ib";
	if (!strcmp(drv, "ice") || !strcmp(drv, "i40e"))
		return "irdma";
	if (!strcmp(drv, "bnxt_en"))
		return "bnxt_re";
	return NULL;
}

/*
 * What the ports of one function run at now: the sum of the rates of those
 * with link, and how many have link (*up). *unknown gains
 * NICFIT_PORTS_STATE_UNKNOWN when a port's state cannot be read (an RDMA
 * port without a state file, or ACTIVE without a rate; an interface whose
 * carrier and operstate say neither up nor down) or the function shows no
 * port at all: no RDMA device and no interface (an InfiniBand HCA whose
 * RDMA driver is not loaded, or a capture without sys/class/infiniband);
 * NICFIT_PORTS_RATE_UNKNOWN when an interface with link has no speed
 * (virtio). The figures are then what is known, not what is.
 */
static double port_rate_now(const struct nicfit__audit_ctx *c, int pci, int *up, int *unknown)
{
	const struct nicfit_topo *t = c->t;
	double sum = 0;
	int i, k, r = nicfit__audit_rdma_of(c, pci), seen = 0;

	*up = 0;
	if (r >= 0) {
		if (!t->rdma[r].nports)
			*unknown |= NICFIT_PORTS_STATE_UNKNOWN;
		for (k = 0; k < t->rdma[r].nports; k++) {
			const struct nicfit_rdma_port *pt = &t->rdma[r].ports[k];

			if (pt->state < 0 || (pt->state == IB_PORT_ACTIVE && !pt->have_rate))
				*unknown |= NICFIT_PORTS_STATE_UNKNOWN;
			if (pt->state == IB_PORT_ACTIVE && pt->have_rate) {
				(*up)++;
				sum += nicfit_rdma_port_gbps(pt);
			}
		}
		return sum;
	}
	for (i = 0; i < t->nnet; i++) {
		const struct nicfit_netdev *nd = &t->net[i];

		if (nd->pci != pci || nd->is_virtual)
			continue;
		seen = 1;
		if (nd->carrier == 1 || (nd->carrier < 0 && !strcmp(nd->operstate, "up"))) {
			(*up)++;
			if (nd->speed_mbps > 0)
				sum += nd->speed_mbps / 1000.0;
			else
				*unknown |= NICFIT_PORTS_RATE_UNKNOWN;
		} else if (!nicfit__audit_known_no_link(nd)) {
			*unknown |= NICFIT_PORTS_STATE_UNKNOWN;
		}
	}
	if (!seen)
		*unknown |= NICFIT_PORTS_STATE_UNKNOWN;
	return sum;
}

static int rdma_ports(const struct nicfit__audit_ctx *c, int pci)
{
	int r = nicfit__audit_rdma_of(c, pci);

	return r >= 0 ? c->t->rdma[r].nports : 0;
}

static int any_ib(const struct nicfit__audit_ctx *c, int pci)
{
	int r = nicfit__audit_rdma_of(c, pci), k;

	if (r < 0)
		return 0;
	for (k = 0; k < c->t->rdma[r].nports; k++)
		if (!strcmp(c->t->rdma[r].ports[k].link_layer, "InfiniBand"))
			return 1;
	return 0;
}

/* What the card's functions show now. */
struct survey {
	double now;              /* sum of the negotiated rates of ports with link */
	double max_port_now;     /* the fastest port with link */
	int ib;                  /* a port runs InfiniBand */
	int has_rdma;            /* a function has an RDMA device */
};

/*
 * Walk the functions of the card whose first function is devs[di]: count
 * them and their ports, sum what the ports with link run at, and set the
 * card's port count and rate: the catalog's when the part is known (VPD,
 * PSID or PCI subsystem); else the ports seen and the fastest port with
 * link now. Only a card whose part is unknown and has no port with link
 * falls back to the family's maximum from the built-in table, flagged as
 * such: a family spans parts of several port rates (ConnectX-7 has 2 x
 * 200G and 1 x 400G cards), so that figure is a ceiling, not the card's.
 */
static void survey_card(struct nicfit__audit_ctx *c, int di,
			const struct nicfit_pci_id *id, struct survey *sv)
{
	struct nicfit_audit *a = c->a;
	struct nicfit_audit_dev *d = &a->devs[di];
	const struct nicfit_pcidev *p = P(c, d->pci);
	int k, funcs = 0, ports_seen = 0;

	memset(sv, 0, sizeof(*sv));
	for (k = di; k < a->ndevs; k++) {
		int pci = a->devs[k].pci, u;
		double r;

		if (a->devs[k].kind != NICFIT_DEV_NIC || !nicfit__audit_same_card(p, P(c, pci)))
			break;
		if (k != di)
			a->devs[k].card_lead = 0;
		funcs++;
		ports_seen += rdma_ports(c, pci) > 1 ? rdma_ports(c, pci) : 1;
		r = port_rate_now(c, pci, &u, &d->ports_unknown);
		d->ports_up += u;
		sv->now += r;
		if (u && r / u > sv->max_port_now)
			sv->max_port_now = r / u;
		sv->ib |= any_ib(c, pci);
		sv->has_rdma |= a->devs[k].rdma;
	}
	d->card_lead = 1;
	d->card_functions = funcs;
	d->ports_now_gbps = sv->now;
	if (d->cat_nic) {
		d->card_ports = d->cat_nic->ports;
		d->port_gbps = d->cat_nic->port_gbps;
	} else {
		d->card_ports = ports_seen;
		if (sv->max_port_now > 0 || !id || id->max_port_gbps <= 0) {
			d->port_gbps = sv->max_port_now;
		} else {
			d->port_gbps = id->max_port_gbps;
			d->port_gbps_is_family_max = 1;
		}
	}
}

/*
 * nic-flash-recovery, nic-no-driver: the card's identity says it cannot
 * work. A flash-recovery PCI ID (docs/reference/nic-identity.md 3) means the
 * firmware is gone, so nothing on the card works: critical. A card without
 * a driver has no interface, which may be intended (a spare), so a
 * warning; a card in recovery gets only the first finding. A tree that
 * cannot show drivers says nothing of the card's (not_checked "drivers").
 */
static void rule_card_alive(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d,
			    const struct nicfit_pci_id *id)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	int recovery = id && (id->flags & NICFIT_PCIID_RECOVERY);

	if (recovery)
		nicfit__audit_find(c, NICFIT_SEV_CRITICAL, NICFIT_CODE_NIC_FLASH_RECOVERY, p->bdf,
				   S_IDS,
				   "Burn the firmware again with mstflint/flint (the card's firmware "
				   "image for its PSID); the card does not work until then.",
				   "%s reports a flash-recovery PCI ID (%04x:%04x): it has no working "
				   "firmware.", d->name, p->vendor, p->device);
	if (!p->driver[0] && !recovery && nicfit__audit_driver_unknown(c, d->pci))
		c->drivers_unknown = 1;
	else if (!p->driver[0] && !recovery)
		nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_NIC_NO_DRIVER, p->bdf, NULL,
				   "Install or load the driver (`lspci -k -s` shows which one the "
				   "card wants).",
				   "%s %s has no driver bound: it has no network interface.", d->label,
				   d->name);
}

/*
 * Whether function pci has an RDMA device is unknown: it has none in the
 * tree, yet the built-in table says it can do RDMA, its Ethernet driver
 * is bound and has an RDMA driver (or the tree cannot show its driver),
 * and the tree has neither sys/module nor sys/class/infiniband to say
 * whether that driver is loaded.
 */
int nicfit__audit_rdma_unknown(const struct nicfit__audit_ctx *c, int pci)
{
	const struct nicfit_pcidev *p = P(c, pci);
	const struct nicfit_pci_id *id;

	if (c->t->modules_listed || c->t->rdma_listed || nicfit__audit_rdma_of(c, pci) >= 0)
		return 0;
	if (p->driver[0] ? !rdma_driver_for(p->driver) : !nicfit__audit_driver_unknown(c, pci))
		return 0;
	id = nicfit__pci_id_find(p->vendor, p->device);
	return id && id->rdma;
}

/*
 * nic-rdma-not-loaded: the built-in table says the card can do RDMA, its
 * Ethernet driver is bound, but no function has an RDMA device: the
 * matching RDMA driver (mlx5_ib, irdma, bnxt_re) is not loaded. A note:
 * the card works for TCP, and not every host wants RDMA. The evidence is
 * the module list (sys/module) or the RDMA class (sys/class/infiniband,
 * which exists once ib_core is loaded); a tree with neither (a capture
 * that left both out) cannot tell, and the card's RDMA is noted as
 * unknown instead (not_checked "rdma", audit_checks.c), also where the
 * tree cannot show which driver is bound. A card whose Ethernet driver is
 * unknown in a tree that lists RDMA devices has none, but the note, which
 * names the bound driver, is not made.
 */
static void rule_rdma_driver(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d,
			     const struct nicfit_pci_id *id, const struct survey *sv)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	const char *rd = p->driver[0] ? rdma_driver_for(p->driver) : NULL;
	struct nicfit_finding *f;

	if (sv->has_rdma || !id || !id->rdma)
		return;
	if (d->rdma_unknown) {
		c->rdma_unknown = 1;
		return;
	}
	if (!rd)
		return;
	f = nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_NIC_RDMA_NOT_LOADED, p->bdf, S_IDS,
			       NULL,
			       "%s can do RDMA but has no RDMA device (driver %s is bound, its RDMA "
			       "driver is not loaded).", d->name, p->driver);
	if (f)
		nicfit__finding_fix(&c->a->findings, f,
				    "Load %s (`modprobe %s`) and install rdma-core; `rdma link` "
				    "should then list the port.", rd, rd);
}

/* What the card's ports need and its path gives, all ports and one. */
struct fit {
	struct nicfit_card card;
	struct nicfit_nic_fit all, one;
	char slot[32];           /* the limiting link: "Gen3 x16" */
};

/*
 * Model the card in the link that limits it (the bridge named by the path,
 * else its own link as negotiated) with nicfit_calc_nic, and record demand
 * and supply on the card. Returns 0, or -1 when there is nothing to judge
 * (no path rate, no port figures, a VM, a chipset function, or a link the
 * model does not know).
 */
static int fit_card(struct nicfit__audit_ctx *c, struct nicfit_audit_dev *d,
		    const struct survey *sv, struct fit *ft)
{
	const struct nicfit_pcidev *p = P(c, d->pci);
	struct nicfit_link_params lp;
	enum nicfit_proto proto;
	int own_gen = nicfit_pcie_gen_from_gts(p->max_gts), slot_gen, slot_w;

	if (d->link.path_gbps < 0 || d->card_ports < 1 || d->port_gbps <= 0 ||
	    c->t->is_virtual || d->link.nominal)
		return -1;
	if (d->link.limit_pci >= 0) {
		slot_gen = d->link.limit_gen;
		slot_w = d->link.limit_width;
	} else {
		slot_gen = nicfit_pcie_gen_from_gts(p->cur_gts > 0 ? p->cur_gts : p->max_gts);
		slot_w = p->cur_width > 0 ? p->cur_width : p->max_width;
	}
	memset(ft, 0, sizeof(*ft));
	ft->card.pcie_gen = own_gen ? own_gen : slot_gen;
	ft->card.pcie_width = p->max_width > 0 ? p->max_width : slot_w;
	ft->card.ports = d->card_ports;
	ft->card.port_gbps = d->port_gbps;
	ft->card.ib_rate = sv->ib && d->cat_nic ? d->cat_nic->ib_rate : NULL;
	proto = ft->card.ib_rate ? NICFIT_PROTO_IB
		: sv->has_rdma ? NICFIT_PROTO_ROCE : NICFIT_PROTO_TCP;
	nicfit_link_params_default(&lp);
	if (slot_gen < 1 || slot_w < 1 ||
	    nicfit_calc_nic(&ft->card, slot_gen, slot_w, 0, proto, &c->a->pcie, &lp, &ft->all,
			    NULL) ||
	    nicfit_calc_nic(&ft->card, slot_gen, slot_w, 1, proto, &c->a->pcie, &lp, &ft->one,
			    NULL))
		return -1;
	d->demand_gbps = ft->all.ports_gbps;
	d->supply_gbps = ft->all.pcie_gbps;
	d->card_limited_by = ft->all.limited_by;
	nicfit__audit_genw(ft->slot, sizeof(ft->slot), nicfit_pcie_gts(slot_gen), slot_w);
	return 0;
}

/*
 * Whether the card's own host interface is known: its max_link_* files
 * gave a speed and a width. Without them a link that limits the card may
 * be the card's own interface or a slot narrower than the card.
 */
static int own_link_known(const struct nicfit_pcidev *p)
{
	return p->max_gts > 0 && p->max_width > 0;
}

/*
 * nic-card-pcie-bound: nothing upstream narrows the card, yet its own host
 * interface carries less than its ports (dual-port 100G on PCIe 3.0 x16:
 * docs/reference/anchors.md 5.1-5.2). No slot fixes that. It matters only when
 * two ports with link already ask for more than PCIe gives (a warning);
 * with one port busy it is a ceiling to know about (a note). When even one
 * port cannot run at its rate, that is nic-pcie-starved (tried first). A
 * card whose part is unknown is not judged on its family's fastest port:
 * that is another card's rate as often as this one's. Without the card's
 * max_link files the link is not called its own interface: a narrower slot
 * would look the same.
 */
static void rule_card_pcie_bound(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d,
				 const struct fit *ft, const struct survey *sv)
{
	const struct nicfit_nic_fit *all = &ft->all;
	const struct nicfit_pcidev *p = P(c, d->pci);
	int busy, own = own_link_known(p);
	char fix[256];

	if (d->port_gbps_is_family_max)
		return;
	if (!(all->pcie_gbps < all->ports_gbps - RATE_SLACK_GBPS))
		return;
	busy = d->ports_up >= 2 && all->pcie_gbps < sv->now * all->port.efficiency - RATE_SLACK_GBPS;
	if (busy)
		nicfit__fmt(fix, sizeof(fix), "Expect the PCIe figure shared between the ports; for "
			    "full rate on every port use a card with a faster host interface in a "
			    "matching slot (e.g. a PCIe 4.0 x16 part for 2 x 100G), or one port per "
			    "card.");
	else if (own)
		nicfit__fmt(fix, sizeof(fix), "Nothing to fix while one port carries the traffic: "
			    "the card's own PCIe interface sets this ceiling.");
	else
		nicfit__fmt(fix, sizeof(fix), "If the card supports more than %s (`sudo lspci -vv "
			    "-s %s`: LnkCap), a slot that gives it lifts this ceiling; else nothing to "
			    "fix while one port carries the traffic.", ft->slot, p->bdf);
	nicfit__audit_find(c, busy ? NICFIT_SEV_WARNING : NICFIT_SEV_INFO,
			   NICFIT_CODE_NIC_CARD_PCIE_BOUND, p->bdf, S_NIC_PCIE, fix,
			   "%s: its %s%s %s carries ≈ %.0f Gb/s, below its %d x %.0f Gb/s of "
			   "ports (≈ %.0f Gb/s)%s.", d->name, own ? "own " : "", ft->slot,
			   own ? "interface" : "link (what the card itself supports is unknown)",
			   all->pcie_gbps, d->card_ports, d->port_gbps, all->ports_gbps,
			   busy ? "; the ports with link now share it" : "");
}

/*
 * nic-pcie-starved where nothing upstream is narrower than the card's own
 * link: one port needs more than that link gives (a single-port QDR HCA
 * at Gen3 x4, a 200G card whose own interface is Gen3 x16). With the
 * card's max_link files that is its own interface, which no slot lifts;
 * without them the slot may be what holds it to this width or speed, so
 * the fix asks to compare the card's LnkCap with its LnkSta and names the
 * faster free slots on this socket. A card rated only by its family's
 * fastest port is not judged (nic-card-pcie-bound does the same).
 */
static int starved_own_link(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d,
			    const struct fit *ft)
{
	const struct nicfit_nic_fit *one = &ft->one;
	const struct nicfit_pcidev *p = P(c, d->pci);
	int own = own_link_known(p);
	struct nicfit_finding *f;
	char fs[256];

	if (d->port_gbps_is_family_max)
		return 0;
	f = nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_NIC_PCIE_STARVED, p->bdf,
			       S_NIC_PCIE, NULL,
			       "%s: one %.0f Gb/s port needs ≈ %.0f Gb/s, but %s %s %s gives ≈ "
			       "%.0f Gb/s, so a port can never run at its rate.", d->name,
			       d->port_gbps, one->ports_gbps, own ? "the card's own" : "its",
			       ft->slot, own ? "interface" : "link (what the card itself supports "
			       "is unknown: no max_link files)", one->pcie_gbps);
	if (!f)
		return 1;
	if (own) {
		nicfit__finding_fix(&c->a->findings, f,
				    "No slot lifts this: the card's own PCIe interface is the limit. "
				    "For the port's full rate use a card with a faster host "
				    "interface; this one runs at ≈ %.0f Gb/s.", one->pcie_gbps);
		return 1;
	}
	nicfit__audit_free_slots(c, d->socket, one->pcie.raw_gbps * FASTER_SLOT_MARGIN, fs,
				 sizeof(fs));
	nicfit__finding_fix(&c->a->findings, f,
			    "Compare the card's LnkCap with its LnkSta (`sudo lspci -vv -s %s`): if "
			    "it supports more lanes or a faster generation than %s, move it to a "
			    "slot that gives them%s%s%s; if not, only a card with a faster host "
			    "interface runs the port at its rate.", p->bdf, ft->slot,
			    fs[0] ? " (free on this socket: " : "", fs, fs[0] ? ")" : "");
	return 1;
}

/*
 * nic-pcie-starved: a link on the card's path gives less than one port
 * needs, so no port can ever run at its rate (a 200G card behind a Gen3
 * x16 slot). When the card's rate is known (catalog) or a port with link
 * already runs faster than the path carries, the fix names the free slots
 * on this socket that are really faster; when only the family's top rate
 * is known, it asks to identify the card first. The card works, at the
 * slot's rate: a warning, as plan calls it. Where no link upstream is
 * narrower, the card's own link is the one (starved_own_link). Returns 1
 * when it applied.
 */
static int rule_pcie_starved(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d,
			     const struct fit *ft, const struct survey *sv)
{
	const struct nicfit_nic_fit *one = &ft->one;
	const char *bdf = P(c, d->pci)->bdf, *limit;
	struct nicfit_finding *f;
	char fs[256];

	if (one->pcie_gbps >= one->ports_gbps - RATE_SLACK_GBPS)
		return 0;
	if (d->link.limit_pci < 0)
		return starved_own_link(c, d, ft);
	limit = P(c, d->link.limit_pci)->bdf;
	if (!d->cat_nic &&
	    !(sv->max_port_now > 0 && one->pcie_gbps < sv->max_port_now * one->port.efficiency)) {
		nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_NIC_PCIE_STARVED, bdf,
				   S_NIC_PCIE,
				   "Identify the card (its ports' speed) and move it to a slot whose "
				   "path is as fast as the card's own interface.",
				   "%s: the family's ports run at up to %.0f Gb/s (≈ %.0f Gb/s of "
				   "data); its PCIe path (%s at %s) gives ≈ %.0f Gb/s.", d->name,
				   d->port_gbps, one->ports_gbps, ft->slot, limit, one->pcie_gbps);
		return 1;
	}
	f = nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_NIC_PCIE_STARVED, bdf,
			       S_NIC_PCIE, NULL,
			       "%s: one %.0f Gb/s port needs ≈ %.0f Gb/s, but its PCIe path (%s at "
			       "%s) gives ≈ %.0f Gb/s, so a port can never run at its rate.",
			       d->name, d->port_gbps, one->ports_gbps, ft->slot, limit,
			       one->pcie_gbps);
	if (!f)
		return 1;
	nicfit__audit_free_slots(c, d->socket, one->pcie.raw_gbps * FASTER_SLOT_MARGIN, fs,
				 sizeof(fs));
	if (fs[0])
		nicfit__finding_fix(&c->a->findings, f,
				    "Move the card to a faster slot on this socket (free: %s); "
				    "otherwise a card of the slot's class (≈ %.0f Gb/s) runs as fast "
				    "and costs less.", fs, one->pcie_gbps);
	else
		nicfit__finding_fix(&c->a->findings, f,
				    "No free slot on this socket is faster than this path: a card of "
				    "the slot's class (≈ %.0f Gb/s) runs as fast and costs less; full "
				    "rate needs a %s%s slot.", one->pcie_gbps,
				    ft->card.pcie_gen >= 4 ? (ft->card.pcie_gen >= 5 ? "Gen5" : "Gen4") :
				    "wider", ft->card.pcie_gen >= 4 ? " x16" : "");
	return 1;
}

/*
 * nic-ports-exceed-pcie: the path carries one port at full rate but not
 * all of them together. With two ports up that is lost bandwidth now (a
 * warning); with one port up, a limit for later (a note).
 */
static void rule_ports_exceed_pcie(struct nicfit__audit_ctx *c,
				   const struct nicfit_audit_dev *d, const struct fit *ft)
{
	const struct nicfit_nic_fit *all = &ft->all;
	int both = d->ports_up >= 2;

	if (!(all->pcie_gbps < all->ports_gbps - RATE_SLACK_GBPS && d->card_ports > 1))
		return;
	nicfit__audit_find(c, both ? NICFIT_SEV_WARNING : NICFIT_SEV_INFO,
			   NICFIT_CODE_NIC_PORTS_EXCEED_PCIE, P(c, d->pci)->bdf, S_NIC_PCIE,
			   "For full rate on every port use a Gen4 x16 slot (2 x 100G needs Gen4), "
			   "or cable one port per card and add a card.",
			   "%s: %d ports x %.0f Gb/s need ≈ %.0f Gb/s together, the %s path gives "
			   "≈ %.0f Gb/s%s.", d->name, d->card_ports, d->port_gbps, all->ports_gbps,
			   ft->slot, all->pcie_gbps,
			   both ? "" : " (only one port has link now, so it runs at full rate)");
}

/*
 * A card's rules, in the order their findings are listed: is it alive
 * (firmware, driver), is its RDMA driver loaded, and can its PCIe path
 * feed its ports. The last asks where the limit sits: with nothing
 * upstream narrower than the card, its own interface (nic-card-pcie-bound);
 * else a link on the path starves one port (nic-pcie-starved) or only all
 * of them together (nic-ports-exceed-pcie), the worse one said. A card
 * whose own link cannot carry even one port is starved too: that a port
 * can never run at its rate is the warning, wherever the limit sits.
 */
void nicfit__audit_judge_card(struct nicfit__audit_ctx *c, int di)
{
	struct nicfit_audit_dev *d = &c->a->devs[di];
	const struct nicfit_pcidev *p = P(c, d->pci);
	const struct nicfit_pci_id *id = nicfit__pci_id_find(p->vendor, p->device);
	struct survey sv;
	struct fit ft;

	survey_card(c, di, id, &sv);
	rule_card_alive(c, d, id);
	rule_rdma_driver(c, d, id, &sv);
	if (fit_card(c, d, &sv, &ft))
		return;
	if (rule_pcie_starved(c, d, &ft, &sv))
		return;
	if (d->link.limit_pci < 0)
		rule_card_pcie_bound(c, d, &ft, &sv);
	else
		rule_ports_exceed_pcie(c, d, &ft);
}

/* nic-port-slow for a BASE-T card the catalog does not know: its chip's rate is its ports'. */
static void judge_baset_speed(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *d,
			      const struct nicfit_pci_id *id)
{
	const struct nicfit_topo *t = c->t;
	int i;

	for (i = 0; i < t->nnet; i++) {
		const struct nicfit_netdev *nd = &t->net[i];

		if (nd->pci != d->pci || nd->speed_mbps <= 0 ||
		    nd->speed_mbps / 1000.0 >= id->max_port_gbps * PORT_RATE_MEETS)
			continue;
		nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_NIC_PORT_SLOW, nd->name,
				   S_NIC_PCIE,
				   id->max_port_gbps >= 10 ? "Check the cable (10GBASE-T needs Cat6a "
				   "or better up to 100 m, Cat6 up to 55 m) and the switch port's "
				   "speed." : "Check the cable and the switch port's speed.",
				   "%s runs at %g Gb/s; the card (%s) has %gGBASE-T ports.", nd->name,
				   nd->speed_mbps / 1000.0, d->name, id->max_port_gbps);
	}
}

/*
 * nic-port-slow: a port with link runs below the card's rate (the
 * catalog's, or the IB rate for an InfiniBand port): the cable or
 * transceiver is rated lower, or the switch port is set slower. For
 * cards the catalog knows, since the rate to compare with must be the
 * card's own, and for BASE-T chips (X710-T, X550, X722): the built-in
 * table's rate of a NIC chip is an upper bound over the cards built on
 * it, but every card of a BASE-T chip has RJ45 ports of the chip's rate,
 * so a 10GBASE-T port at 1 Gb/s (a Cat5e cable, a 1G switch port) is as
 * sure as a catalog card's; a warning.
 */
void nicfit__audit_judge_port_speed(struct nicfit__audit_ctx *c,
				    const struct nicfit_audit_dev *d)
{
	const struct nicfit_topo *t = c->t;
	int i, r = nicfit__audit_rdma_of(c, d->pci), k;
	struct nicfit_speed ib;
	const struct nicfit_pci_id *id;

	if (!d->cat_nic) {
		id = nicfit__pci_id_find(P(c, d->pci)->vendor, P(c, d->pci)->device);
		if (id && (id->flags & NICFIT_PCIID_BASET) && id->max_port_gbps > 0)
			judge_baset_speed(c, d, id);
		return;
	}
	if (r >= 0) {
		for (k = 0; k < t->rdma[r].nports; k++) {
			const struct nicfit_rdma_port *pt = &t->rdma[r].ports[k];
			double want = d->cat_nic->port_gbps;

			if (pt->state != IB_PORT_ACTIVE || !pt->have_rate)
				continue;
			if (!strcmp(pt->link_layer, "InfiniBand") && d->cat_nic->ib_rate &&
			    !nicfit_ib_rate(d->cat_nic->ib_rate, &ib))
				want = ib.gbps;
			if (nicfit_rdma_port_gbps(pt) < want * PORT_RATE_MEETS)
				nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_NIC_PORT_SLOW,
						   t->rdma[r].name, S_NIC_PCIE,
						   "Check the cable or transceiver (it must be rated "
						   "for the card's speed) and the switch port's speed "
						   "setting.",
						   "%s port %d runs at %g Gb/s (%dX %s); the card (%s) "
						   "does %g Gb/s.", t->rdma[r].name, pt->num,
						   pt->rate.gbps, pt->rate.width,
						   pt->rate.speed[0] ? pt->rate.speed : "SDR",
						   d->cat_nic->part, want);
		}
		return;
	}
	for (i = 0; i < t->nnet; i++) {
		const struct nicfit_netdev *nd = &t->net[i];

		if (nd->pci != d->pci || nd->speed_mbps <= 0)
			continue;
		if (nd->speed_mbps / 1000.0 < d->cat_nic->port_gbps * PORT_RATE_MEETS)
			nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_NIC_PORT_SLOW, nd->name,
					   S_NIC_PCIE,
					   "Check the cable or transceiver and the switch port's speed.",
					   "%s runs at %g Gb/s; the card (%s) does %g Gb/s per port.",
					   nd->name, nd->speed_mbps / 1000.0, d->cat_nic->part,
					   d->cat_nic->port_gbps);
	}
}
