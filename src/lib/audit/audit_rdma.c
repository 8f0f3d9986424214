/*
 * audit_rdma.c - RDMA ports (see audit_int.h): the state of each port of
 * each RDMA device (/sys/class/infiniband), whether a VPI port is in the
 * mode of the host's fabric, and for active RoCE ports what the
 * interface gives RoCE: PFC, a routable RoCE v2 GID, a path MTU. What the
 * card's PCIe gives its ports is audit_card.c's.
 */
#include <stdio.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/fmt_int.h"
#include "nicfit/link.h"
#include "core/pciids_int.h"

/* IB physical port states (ports/N/phys_state). */
#define IB_PHYS_POLLING 2
#define IB_PHYS_DISABLED 3

/*
 * RoCE v2 puts an IPv4 header (20 B), UDP (8), the IB base transport
 * header (12), an RDMA extended header (16) and the invariant CRC (4)
 * inside the interface MTU (docs/reference/bandwidth.md 2.3): the RoCE path
 * MTU is the largest IB MTU (256 to 4096 B, powers of two) that fits in
 * the rest.
 */
#define ROCE_HEADER_BYTES 60
#define IB_MTU_MIN 256
#define IB_MTU_MAX 4096

static int card_has_active(const struct nicfit__audit_ctx *c, const struct nicfit_pcidev *p)
{
	int i, k;

	for (i = 0; i < c->t->nrdma; i++) {
		const struct nicfit_rdmadev *r = &c->t->rdma[i];

		if (r->pci < 0 || !nicfit__audit_same_card(P(c, r->pci), p))
			continue;
		for (k = 0; k < r->nports; k++)
			if (r->ports[k].state == IB_PORT_ACTIVE)
				return 1;
	}
	return 0;
}

static int netdev_mtu(const struct nicfit__audit_ctx *c, int pci)
{
	int n = nicfit__audit_first_netdev(c, pci);

	return n >= 0 ? c->t->net[n].mtu : 0;
}

static int vpi_capable(const struct nicfit__audit_ctx *c, int pci)
{
	const struct nicfit_audit_dev *d = c->dev_of[pci] >= 0 ? &c->a->devs[c->dev_of[pci]]
							       : NULL;
	const struct nicfit_pci_id *id = nicfit__pci_id_find(P(c, pci)->vendor, P(c, pci)->device);

	if (d && d->cat_nic)
		return d->cat_nic->vpi;
	return id && (id->rdma & NICFIT_PCIID_IB) && (id->rdma & NICFIT_PCIID_ROCE);
}

/* Active VPI ports of the host, by the mode they run. */
struct modes {
	int ib, eth;
};

/*
 * ib-no-subnet-manager: an InfiniBand port at INIT has link but no subnet
 * manager has given it an address, so it passes no traffic: a warning.
 */
static void rule_subnet_manager(struct nicfit__audit_ctx *c, const struct nicfit_rdmadev *r,
				const struct nicfit_rdma_port *pt)
{
	if (pt->state != IB_PORT_INIT || !strcmp(pt->link_layer, "Ethernet"))
		return;
	nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_IB_NO_SUBNET_MANAGER, r->name, S_VPI,
			   "Run a subnet manager on the fabric: enable the switch's SM, or "
			   "`systemctl start opensm` on one host.",
			   "%s port %d is INIT: the link is up but no subnet manager has "
			   "configured it, so it passes no traffic.", r->name, pt->num);
}

/*
 * rdma-port-down: a port is DOWN, with the physical state saying why (no
 * partner, disabled). A spare port of a card whose other port is active
 * is common and only a note; a card with no active port is a warning.
 */
static void rule_port_down(struct nicfit__audit_ctx *c, const struct nicfit_rdmadev *r,
			   const struct nicfit_rdma_port *pt)
{
	const char *why;
	int other;

	if (pt->state != IB_PORT_DOWN)
		return;
	other = card_has_active(c, P(c, r->pci));
	why = pt->phys_state == IB_PHYS_POLLING ? "no link partner: the cable is unplugged or "
						  "faulty, or the switch port is down"
	      : pt->phys_state == IB_PHYS_DISABLED ? "the port is disabled" : "no link";
	nicfit__audit_find(c, other ? NICFIT_SEV_INFO : NICFIT_SEV_WARNING,
			   NICFIT_CODE_RDMA_PORT_DOWN, r->name, NULL,
			   "If the port should be in use: check the cable and the switch port "
			   "(`ibstat`, `ip link`); if not, nothing to do.",
			   "%s port %d is DOWN (%s)%s.", r->name, pt->num, why,
			   other ? "; another port of the card is active" : "");
}

/*
 * vpi-port-mode: a VPI port (InfiniBand or Ethernet, set by mlxconfig
 * LINK_TYPE_Pn) has no link in one mode while the host's other active VPI
 * ports run the other: cabled to that fabric, it links to nothing until
 * its mode is changed (docs/reference/anchors.md 1.5, 5.9). A warning.
 */
static void rule_vpi_mode(struct nicfit__audit_ctx *c, const struct nicfit_rdmadev *r,
			  const struct nicfit_rdma_port *pt, const struct modes *m)
{
	const struct nicfit_pcidev *p = P(c, r->pci);
	int eth = !strcmp(pt->link_layer, "Ethernet"), other = eth ? m->ib : m->eth, phys;
	struct nicfit_finding *f;
	char f0[16];

	if (!vpi_capable(c, r->pci) || pt->state == IB_PORT_ACTIVE || !other)
		return;
	phys = r->nports > 1 ? pt->num : (int)p->fn + 1;
	nicfit__fmt(f0, sizeof(f0), "%.10s.0", p->bdf);
	f = nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_VPI_PORT_MODE, r->name, S_VPI,
			       NULL,
			       "%s port %d (card port %d) has no link in %s mode, while %d active "
			       "VPI port%s run%s %s: a VPI port in the wrong mode links to nothing "
			       "on the other fabric.", r->name, pt->num, phys,
			       eth ? "Ethernet" : "InfiniBand", other, other == 1 ? "" : "s",
			       other == 1 ? "s" : "", eth ? "InfiniBand" : "Ethernet");
	if (f)
		nicfit__finding_fix(&c->a->findings, f,
				    "If the port is cabled to the %s fabric: `mlxconfig -d %s set "
				    "LINK_TYPE_P%d=%d` (1 = InfiniBand, 2 = Ethernet), then reboot.",
				    eth ? "InfiniBand" : "Ethernet", f0, phys, eth ? 1 : 2);
}

/*
 * roce-no-pfc: the interface of an active RoCE port reports PFC off on
 * every priority (DCB, read on the live host or kept in a snapshot).
 * Without a lossless priority, or ECN end to end, RoCE's go-back-N
 * recovery collapses under congestion (docs/reference/anchors.md 5.6-5.7): a
 * warning. Said only when PFC was actually read.
 */
static void rule_roce_pfc(struct nicfit__audit_ctx *c, const struct nicfit_rdmadev *r,
			  const struct nicfit_rdma_port *pt)
{
	int nd = nicfit__audit_first_netdev(c, r->pci);
	const struct nicfit_netdev *n = nd >= 0 ? &c->t->net[nd] : NULL;

	if (!n || n->pfc.state != NICFIT_PFC_READ || n->pfc.pfc_en)
		return;
	nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_ROCE_NO_PFC, r->name, S_ROCE,
			   "Turn PFC on for the RoCE priority on the NIC and every switch port "
			   "(commonly priority 3: `dcb pfc set dev IF prio-pfc 3:on` or `mlnx_qos -i "
			   "IF --pfc 0,0,0,1,0,0,0,0`, with DSCP trust), or run the fabric lossy with "
			   "ECN on NIC and switches.",
			   "%s port %d (%s) runs RoCE with PFC off on every priority: without a "
			   "lossless fabric (or ECN end to end) RoCE throughput collapses under "
			   "congestion.", r->name, pt->num, n->name);
}

/*
 * roce-no-routable-gid: an active RoCE port whose GIDs are all link-local
 * or RoCE v1 has nothing NCCL can address across an IP network (RoCE v2
 * is routed by its IP address): a warning. Only when the GID types could
 * be read.
 */
static void rule_roce_gid(struct nicfit__audit_ctx *c, const struct nicfit_rdmadev *r,
			  const struct nicfit_rdma_port *pt)
{
	if (!pt->gid_types_known || pt->ngid_v2_routable)
		return;
	nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_ROCE_NO_ROUTABLE_GID, r->name, S_ROCE,
			   "Give the port's interface an IPv4 (or global IPv6) address; NCCL then "
			   "finds the RoCE v2 GID itself (or set NCCL_IB_GID_INDEX).",
			   "%s port %d has no RoCE v2 GID with a routable address (%d GIDs, all "
			   "link-local or v1): RoCE traffic between hosts has no GID to use.",
			   r->name, pt->num, pt->ngids);
}

/*
 * roce-mtu: the interface MTU leaves RoCE a path MTU below IB_MTU_MAX, so
 * every message is cut into smaller packets with the same headers; the
 * message gives the goodput at both MTUs (nicfit_link_calc). A note: it
 * works, slower, and the whole path (switches too) must change together.
 */
static void rule_roce_mtu(struct nicfit__audit_ctx *c, const struct nicfit_rdmadev *r,
			  const struct nicfit_rdma_port *pt)
{
	int mtu = netdev_mtu(c, r->pci), ib_mtu = IB_MTU_MIN, m;
	struct nicfit_link_params lp;
	struct nicfit_link_result now, best;
	struct nicfit_speed sp;

	if (mtu <= 0 || !pt->have_rate)
		return;
	for (m = IB_MTU_MAX; m >= IB_MTU_MIN; m /= 2)
		if (mtu - ROCE_HEADER_BYTES >= m) {
			ib_mtu = m;
			break;
		}
	if (ib_mtu >= IB_MTU_MAX)
		return;
	memset(&sp, 0, sizeof(sp));
	sp.gbps = pt->rate.gbps;
	sp.kind = NICFIT_SPEED_ETH;
	nicfit_link_params_default(&lp);
	lp.rdma_mtu = ib_mtu;
	if (nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &lp, &now, NULL))
		return;
	lp.rdma_mtu = IB_MTU_MAX;
	if (nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &lp, &best, NULL))
		return;
	nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_ROCE_MTU, r->name, S_ROCE_MTU,
			   "Set the interface MTU to 4200 or more (9000 is common) on the host and "
			   "every switch port on the path.",
			   "%s port %d: interface MTU %d leaves RoCE a %d-byte path MTU (RoCE v2 "
			   "puts 60 bytes of IP, UDP, BTH, RETH and ICRC inside it): ≈ %.1f Gb/s of "
			   "%g instead of ≈ %.1f at 4096.", r->name, pt->num, mtu, ib_mtu,
			   now.goodput_gbps, pt->rate.gbps, best.goodput_gbps);
}

/*
 * Count the host's active VPI ports by mode first (vpi-port-mode compares
 * each idle port with them), then each port's rules in order; the RoCE
 * rules only for active Ethernet ports, since an idle port's PFC, GIDs and
 * MTU carry nothing yet.
 */
void nicfit__audit_judge_rdma(struct nicfit__audit_ctx *c)
{
	const struct nicfit_topo *t = c->t;
	struct modes m = { 0, 0 };
	int i, k;

	for (i = 0; i < t->nrdma; i++) {
		const struct nicfit_rdmadev *r = &t->rdma[i];

		if (r->pci < 0)
			continue;
		for (k = 0; k < r->nports; k++) {
			if (!vpi_capable(c, r->pci) || r->ports[k].state != IB_PORT_ACTIVE)
				continue;
			if (!strcmp(r->ports[k].link_layer, "InfiniBand"))
				m.ib++;
			else if (!strcmp(r->ports[k].link_layer, "Ethernet"))
				m.eth++;
		}
	}
	for (i = 0; i < t->nrdma; i++) {
		const struct nicfit_rdmadev *r = &t->rdma[i];

		if (r->pci < 0)
			continue;
		for (k = 0; k < r->nports; k++) {
			const struct nicfit_rdma_port *pt = &r->ports[k];

			rule_subnet_manager(c, r, pt);
			rule_port_down(c, r, pt);
			rule_vpi_mode(c, r, pt, &m);
			if (strcmp(pt->link_layer, "Ethernet") || pt->state != IB_PORT_ACTIVE)
				continue;
			rule_roce_pfc(c, r, pt);
			rule_roce_gid(c, r, pt);
			rule_roce_mtu(c, r, pt);
		}
	}
}
