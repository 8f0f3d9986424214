/*
 * cluster_explain.c - the decisions and findings that explain a sized
 * cluster: each sizing step with the numbers it used (rule ids
 * "cluster.tiers", "cluster.spines", ...), and the findings about the
 * design and the parts it was given (codes in cluster_codes.def). Nothing
 * here changes the design.
 */
#include <stdio.h>
#include <string.h>

#include "cluster/cluster_int.h"
#include "core/finding_int.h"
#include "core/gpu_stack_int.h"
#include "core/num_int.h"

/*
 * Back-end leaves count as oversubscribed above BLOCKING_RATIO: a design
 * sized at 1:1 can come out a rounding error above 1 with rates such as
 * 53.125 Gb/s, and a ratio that prints as 1.00:1 is not worth a warning.
 */
#define BLOCKING_RATIO 1.0001

static const char *prose(enum nicfit_net n)
{
	static const char *const names[] = { "back end", "front end", "OOB" };

	return names[n];
}

/*
 * How network n's switch ports are used: a separate uplink group the
 * design leaves alone, twin-port cages, and whether faster switch ports
 * split across node ports (and whether the catalog has verified the
 * split) or run at the node rate.
 */
static void explain_ports(struct nicfit_cluster *c, enum nicfit_net n)
{
	const struct nicfit_cluster_net *nt = &c->net[n];
	const char *nn = prose(n);
	char stride[128] = "";

	if (nt->split_stride > 1)
		snprintf(stride, sizeof(stride), "; each split port takes %d switch ports, as %s has "
			 "%d logical ports on %d ports", nt->split_stride, nt->sw.id, nt->sw.max_logical,
			 nt->sw.ports);
	if (nt->sw.cat && nt->sw.cat->uplink_ports > 0 && nt->tiers > 1 && !nt->scheduled)
		nicfit__find(&c->findings, NICFIT_SEV_INFO, NICFIT_CODE_CLUSTER_UPLINK_GROUP, NULL,
			     "%s: %s also has %d x %g Gb/s uplink ports; this design takes the leaf "
			     "uplinks from its %d x %g Gb/s ports, so every tier is the same switch",
			     nn, nt->sw.id, nt->sw.cat->uplink_ports, nt->sw.cat->uplink_gbps,
			     nt->sw.ports, nt->sw.gbps);
	if (nt->sw.per_cage > 1)
		nicfit__decide(&c->decisions, "cluster.cages", 1,
			       "%s: %s has %d logical ports per cage: one twin-port transceiver or "
			       "splitter cable serves each cage, uplinks start on a fresh cage",
			       nn, nt->sw.id, nt->sw.per_cage);
	if (nt->breakout > 1) {
		nicfit__decide(&c->decisions, "cluster.breakout", 1,
			       "%s: each %g Gb/s switch port splits into %d x %g Gb/s node ports (%dx%g breakout)%s",
			       nn, nt->sw.gbps, nt->breakout, nt->link_gbps, nt->breakout, nt->link_gbps,
			       stride);
		if (nt->sw.cat && nicfit_entry_unverified(&nt->sw.cat->e, "breakout"))
			nicfit__find(&c->findings, NICFIT_SEV_INFO, NICFIT_CODE_CLUSTER_BREAKOUT_UNVERIFIED, NULL,
				     "%s: the catalog marks the split modes of %s unverified; check that "
				     "its ports split %dx%g before ordering", nn, nt->sw.id, nt->breakout,
				     nt->link_gbps);
	} else if (nt->sw.gbps > nt->link_gbps + NICFIT_EPS) {
		nicfit__decide(&c->decisions, "cluster.port_speed", 1,
			       "%s: %g Gb/s switch ports run at the node rate of %g Gb/s, one node port each%s",
			       nn, nt->sw.gbps, nt->link_gbps,
			       !c->in.net[n].breakout ? " (splitting is off)" :
			       n == NICFIT_NET_BACKEND && (c->nic || c->in.net[n].link_ib_lanes) ?
			       " (the node's lanes give no split, cluster.lanes)" :
						       " (the switch lists no matching split)");
	}
}

/*
 * A scheduled fabric's tiers (cluster_tiers.c scheduled_tiers()), and what
 * differs from a leaf-spine: Broadcom's Jericho3-AI/Ramon3 fabric as Meta
 * (Disaggregated Scheduled Fabric) and AMD ("Cluster architecture and
 * network design for AMD Instinct MI3XX", 3-tier TH5/J3 and fully
 * scheduled designs) describe it: virtual output queues at the ingress
 * leaf, credit from the egress leaf, cells sprayed over every fabric link.
 */
static void explain_scheduled(struct nicfit_cluster *c, enum nicfit_net n)
{
	const struct nicfit_cluster_net *nt = &c->net[n];
	const struct cl_net *cn = &c->impl->net[n];
	const char *nn = prose(n);

	nicfit__decide(&c->decisions, "cluster.leaf", 1,
		       "%s: each %s leaf takes %d node ports on %d of its %d Ethernet ports; its %d "
		       "fabric ports (%g Gb/s) go to the fabric and never to a node (%.2f:1)",
		       nn, nt->sw.id, cn->elaf, cn->down, nt->sw.ports, cn->u, nt->fabric.gbps,
		       nt->leaf_ratio);
	nicfit__decide(&c->decisions, "cluster.tiers", 1,
		       "%s: a scheduled fabric, not a leaf-spine: %ld leaves per plane over %d-port "
		       "%s cell switches, which forward as one switch, one hop for the nodes; one "
		       "fabric tier holds %d leaves (%ld node ports) per plane",
		       nn, cn->leaves, nt->fabric.ports, nt->fabric.id, nt->fabric.ports,
		       (long)nt->fabric.ports * cn->elaf);
	nicfit__decide(&c->decisions, "cluster.spines", 1,
		       "%s: %ld leaves x %d fabric ports = %ld fabric links / %d = %d cell switch%s "
		       "per plane (a count that divides the fabric ports: %d link%s from every leaf "
		       "to every cell switch)", nn, cn->leaves, cn->u, cn->leaves * cn->u,
		       nt->fabric.ports, cn->spines, cn->spines == 1 ? "" : "es", cn->u / cn->spines,
		       cn->u / cn->spines == 1 ? "" : "s");
	nicfit__decide(&c->decisions, "cluster.scheduled", 1,
		       "%s: what differs from a leaf-spine: the ingress leaf holds each packet in a "
		       "virtual output queue for its egress port and sends it only when the egress "
		       "leaf grants credit; the fabric carries it as cells sprayed over every fabric "
		       "link, so no ECMP hash is balanced, flows do not collide in the fabric, and "
		       "congestion waits in the ingress leaf's deep buffer rather than in the fabric; "
		       "the fabric links carry no Ethernet and take no PFC, ECN or ECMP settings", nn);
}

/*
 * A leaf asked to be undersubscribed (--oversubscription below 1, AMD's
 * "1:1.16" in its MI3XX cluster design: downstream demand : upstream
 * capacity, 16% more up than down): the uplinks that ratio took
 * (ceil(down / ratio), then rounded up to equal trunks), the ratio they
 * give, and what the spare bandwidth buys, with the ratio left when one
 * uplink (or fabric link) is lost.
 */
static void explain_subscription(struct nicfit_cluster *c, enum nicfit_net n)
{
	const struct nicfit_cluster_net *nt = &c->net[n];
	const struct cl_net *cn = &c->impl->net[n];
	double asked = c->in.net[n].oversubscription, up = nt->scheduled ? nt->fabric.gbps : nt->sw.gbps;
	double down = (double)cn->elaf * nt->link_gbps, less;
	const char *amd = n == NICFIT_NET_BACKEND ? "; AMD's MI3XX cluster design recommends 1:1.16" : "";

	if (asked >= 1 - NICFIT_EPS || nt->tiers < 2 || cn->u < 2 || nt->leaf_ratio <= 0)
		return;
	less = down / ((double)(cn->u - 1) * up);
	if (nt->scheduled)
		nicfit__decide(&c->decisions, "cluster.subscription", 1,
			       "%s: undersubscribed as asked (%.2f:1, 1:%.2f down:up%s): a leaf takes %d "
			       "node ports (%g Gb/s) so that its "
			       "%d fabric ports (%g Gb/s) carry 1:%.2f; the spare fabric bandwidth covers a "
			       "lost fabric link or cell switch (%.2f:1 with one of its %d fabric links "
			       "lost%s)", prose(n), asked, 1 / asked, amd, cn->elaf, down, cn->u, cn->u * up,
			       1 / nt->leaf_ratio, less, cn->u, less > BLOCKING_RATIO ? ", blocking" : "");
	else
		nicfit__decide(&c->decisions, "cluster.subscription", 1,
			       "%s: undersubscribed as asked (%.2f:1, 1:%.2f down:up%s): %d node ports x "
			       "%g Gb/s = %g Gb/s down need "
			       "ceil(%g / (%.4g x %g)) uplinks, %d with equal trunks to every spine, 1:%.2f "
			       "(%.2f:1); the spare uplink bandwidth absorbs ECMP hash collisions (flows "
			       "hashed onto the same uplink) and a lost uplink or spine (%.2f:1 with one of "
			       "its %d uplinks down%s)", prose(n), asked, 1 / asked, amd, cn->elaf,
			       nt->link_gbps, down, down, asked, up, cn->u, 1 / nt->leaf_ratio,
			       nt->leaf_ratio, less, cn->u,
			       less > BLOCKING_RATIO ? ", blocking" : ", still non-blocking");
}

/*
 * Why two or three tiers hold network n, and how many spines (and pods and
 * cores) that takes: the upper half of explain_tiers.
 */
static void explain_upper_tiers(struct nicfit_cluster *c, enum nicfit_net n)
{
	const struct nicfit_cluster_net *nt = &c->net[n];
	const struct cl_net *cn = &c->impl->net[n];
	const char *nn = prose(n);
	int R = nt->sw.ports;

	if (nt->tiers == 2 && n == NICFIT_NET_OOB) {
		nicfit__decide(&c->decisions, "cluster.tiers", 1, "%s: two tiers: %ld leaves <= %d, the ports of one spine",
			       nn, cn->leaves, R);
	} else if (nt->tiers == 2) {
		nicfit__decide(&c->decisions, "cluster.tiers", 1,
			       "%s: two tiers: %ld leaves per plane <= %d, the ports of one spine; "
			       "two tiers hold up to %d x %d = %ld node ports per plane here (R^2/2 = %ld at 1:1)",
			       nn, cn->leaves, R, R, cn->elaf, (long)R * cn->elaf, (long)R * R / 2);
	}
	if (nt->tiers == 2 && cn->rail_pods) {
		nicfit__decide(&c->decisions, "cluster.tiers", 1,
			       "%s: one scalable unit of %ld nodes (the rack-scale design's, catalog "
			       "rack.su_racks) as the design builds it to grow: each rail's leaves are a "
			       "spine-leaf group under %d spines of their own (the fewest at %d ports "
			       "down that divide a leaf's %d uplinks), their other ports kept for the "
			       "cores of a second unit",
			       nn, c->in.su_nodes, cn->spines, R / 2, cn->u);
		nicfit__decide(&c->decisions, "cluster.pods", 1,
			       "%s: %ld rail groups of %ld leaves and %d spines (%d ports down), %ld "
			       "spines per plane; no cores", nn, cn->pods, cn->lpp, cn->spines,
			       cn->sdown, cn->tier_sw[NICFIT_TIER_SPINE]);
	} else if (nt->tiers == 2) {
		long need = (cn->leaves * cn->u + R - 1) / R;

		if (cn->spines > need)
			nicfit__decide(&c->decisions, "cluster.spines", 1,
				       "%s: %ld leaves x %d uplinks = %ld spine ports / %d = %ld spine%s per "
				       "plane, rounded up to %d (a count that divides the uplinks, so every "
				       "leaf has %d link%s to every spine and ECMP sees equal trunks)",
				       nn, cn->leaves, cn->u, cn->leaves * cn->u, R, need, need == 1 ? "" : "s",
				       cn->spines, cn->u / cn->spines, cn->u / cn->spines == 1 ? "" : "s");
		else
			nicfit__decide(&c->decisions, "cluster.spines", 1,
				       "%s: %ld leaves x %d uplinks = %ld spine ports / %d = %d spine%s per "
				       "plane, %s%d link%s from every leaf to every spine",
				       nn, cn->leaves, cn->u, cn->leaves * cn->u, R, cn->spines,
				       cn->spines == 1 ? "" : "s", cn->u % cn->spines ? "about " : "",
				       cn->u / cn->spines, cn->u / cn->spines == 1 ? "" : "s");
	} else if (cn->rail_pods) {
		nicfit__decide(&c->decisions, "cluster.tiers", 1,
			       "%s: three tiers past one scalable unit of %ld nodes (the rack-scale "
			       "design's, catalog rack.su_racks): each unit's leaves of one rail are a "
			       "pod under %d spines of their own (the fewest at %d ports down that "
			       "divide a leaf's %d uplinks), the spines under shared cores",
			       nn, c->in.su_nodes, cn->spines, R / 2, cn->u);
		nicfit__decide(&c->decisions, "cluster.pods", 1,
			       "%s: %ld rail pods of %ld leaves and %d spines (%d down, %d up); %d core "
			       "groups of %d cores, %ld cores per plane (spine j of every pod joins core "
			       "group j)", nn, cn->pods, cn->lpp, cn->spines, cn->sdown, cn->sup,
			       cn->spines, cn->cg, cn->tier_sw[NICFIT_TIER_CORE]);
	} else {
		nicfit__decide(&c->decisions, "cluster.tiers", 1,
			       "%s: three tiers: %ld leaves per plane exceed the %d ports of a spine; "
			       "pods of up to %d leaves under spines with %d ports down (R^3/4 = %ld node ports at 1:1)",
			       nn, cn->leaves, R, R / 2, R / 2, (long)R * R / 4 * R);
		nicfit__decide(&c->decisions, "cluster.pods", 1,
			       "%s: %ld pods of %ld leaves and %d spines; %d core groups of %d cores, "
			       "%ld cores per plane (spine j of every pod joins core group j)",
			       nn, cn->pods, cn->lpp, cn->spines, cn->spines, cn->cg, cn->tier_sw[NICFIT_TIER_CORE]);
	}
}

/*
 * The tiers of network n with the numbers that chose them: one tier and
 * why it fits; else what a leaf takes, why two tiers hold the plane
 * (R^2/2 node ports at 1:1) or why three are needed (pods under cores,
 * R^3/4), how many spines and why that count; and a warning when the
 * back end's leaves are oversubscribed, since all-reduce across leaves
 * then gets only that share of the NIC rate.
 */
static void explain_tiers(struct nicfit_cluster *c, enum nicfit_net n)
{
	const struct nicfit_cluster_net *nt = &c->net[n];
	const struct cl_net *cn = &c->impl->net[n];
	const char *nn = prose(n);
	int R = nt->sw.ports;
	long per_plane = n == NICFIT_NET_OOB ? nt->endpoints : nt->endpoints / nt->planes;

	if (nt->tiers == 1) {
		if (cn->map == MAP_RAIL && cn->leaves > 1 && n == NICFIT_NET_BACKEND)
			nicfit__decide(&c->decisions, "cluster.tiers", 1,
				       "%s: one tier: each rail's %ld node ports fit one %d-port switch, "
				       "%d rail%s per switch, %ld switch%s per plane, no spines",
				       nn, c->in.nodes, R, cn->rpl, cn->rpl == 1 ? "" : "s", cn->leaves,
				       cn->leaves == 1 ? "" : "es");
		else
			nicfit__decide(&c->decisions, "cluster.tiers", 1,
				       "%s: one tier: %ld ports fit %s%ld %d-port switch%s (one takes up to %ld)",
				       nn, per_plane, n == NICFIT_NET_FRONTEND && cn->leaves > 1 ? "one per link, " : "",
				       cn->leaves, R, cn->leaves == 1 ? "" : "es", cn->cap1);
		return;
	}
	if (nt->scheduled) {
		explain_scheduled(c, n);
		goto blocking;
	}
	if (n == NICFIT_NET_OOB)
		nicfit__decide(&c->decisions, "cluster.leaf", 1,
			       "%s: a leaf takes up to %d ports + %d uplinks of %d", nn, cn->elaf, cn->u, R);
	else
		nicfit__decide(&c->decisions, "cluster.leaf", 1,
			       "%s: a leaf takes %d node ports on %d switch ports + %d uplinks of %d "
			       "(%.2f:1 at %g Gb/s down, %g Gb/s up)",
			       nn, cn->elaf, cn->down, cn->u, R, nt->leaf_ratio, nt->link_gbps, nt->sw.gbps);
	if (n == NICFIT_NET_BACKEND && c->in.rack_leaves && cn->map == MAP_RAIL && cn->rpl == 1 &&
	    c->in.nodes_per_rack > 0)
		nicfit__decide(&c->decisions, "cluster.leaf", 1,
			       "%s: a rail leaf takes whole racks: %ld trays (%ld rack%s) on each rail, as "
			       "the rack-scale design builds it", nn, cn->gsize,
			       cn->gsize / c->in.nodes_per_rack, cn->gsize == c->in.nodes_per_rack ? "" : "s");
	explain_upper_tiers(c, n);
blocking:
	explain_subscription(c, n);
	if (nt->leaf_ratio > BLOCKING_RATIO && n == NICFIT_NET_BACKEND)
		nicfit__find(&c->findings, NICFIT_SEV_WARNING, NICFIT_CODE_CLUSTER_BLOCKING, NULL,
			     "back end: leaves are %.2f:1 oversubscribed; all-reduce across leaves gets "
			     "1/%.2f of the NIC rate when every GPU sends at once", nt->leaf_ratio,
			     nt->leaf_ratio);
}

/* Up to MAX_FITS_NAMED catalog switches are named as ones the NIC would meet. */
#define MAX_FITS_NAMED 3

/*
 * How the back end's NIC ports meet the switch's, as lanes (nicfit/compat.h):
 * the arithmetic of node ports per switch port and per cage, and how many
 * one switch takes; a NIC and a switch that share a port rate but no lane
 * rate meet only through optics (no DAC or AOC, the cable choice keeps to
 * that); two that cannot meet at all are critical, with the catalog
 * switches of the same fabric the NIC would meet directly. A port given
 * only by an InfiniBand rate's name (--nic-gbps HDR) is judged the same
 * way, on that rate's lanes. Sources: the
 * NVIDIA LinkX splitter specifications cited in nicfit/compat.h.
 */
static int explain_lanes(struct nicfit_cluster *c)
{
	const struct nicfit_cluster_net *nt = &c->net[NICFIT_NET_BACKEND];
	const struct cl_net *cn = &c->impl->net[NICFIT_NET_BACKEND];
	const struct nicfit_catalog *cat = c->impl->cat;
	struct nicfit_finding *f;
	char fits[160] = "";
	size_t i, named = 0;
	long per_switch;

	if (!nt->enabled || (!c->nic && !c->in.net[NICFIT_NET_BACKEND].link_ib_lanes))
		return 0;
	per_switch = (long)(nt->sw.ports / nt->split_stride) *
		     (nt->fit.per_port > 0 ? nt->fit.per_port : 1);
	if (nt->sw.max_logical > 0 && per_switch > nt->sw.max_logical)
		per_switch = nt->sw.max_logical;
	if (nt->fit.kind == NICFIT_MATCH_DIRECT && nt->split_stride > 1) {
		nicfit__decide(&c->decisions, "cluster.lanes", 1,
			       "back end: %s; %s has %d logical ports on %d ports, so a %d-way split "
			       "takes %d ports: %d split ports x %d = %ld node ports per switch at most",
			       nt->fit.why, nt->sw.id, nt->sw.max_logical, nt->sw.ports, nt->breakout,
			       nt->split_stride, nt->sw.ports / nt->split_stride, nt->fit.per_port,
			       per_switch);
		return 0;
	}
	if (nt->fit.kind == NICFIT_MATCH_DIRECT) {
		nicfit__decide(&c->decisions, "cluster.lanes", 1,
			       "back end: %s; %d ports x %d = %ld node ports per switch at most",
			       nt->fit.why, nt->sw.ports, nt->fit.per_port, per_switch);
		return 0;
	}
	if (nt->fit.kind == NICFIT_MATCH_OPTICS) {
		nicfit__decide(&c->decisions, "cluster.lanes", 1, "back end: %s", nt->fit.why);
		f = nicfit__find(&c->findings, NICFIT_SEV_INFO, NICFIT_CODE_CLUSTER_OPTICS_ONLY, NULL,
				 "back end: %s", nt->fit.why);
		return f ? 0 : NICFIT_E_NOMEM;
	}
	for (i = 0; cat && i < nicfit_catalog_count(cat, NICFIT_KIND_SWITCH) && named < MAX_FITS_NAMED; i++) {
		const struct nicfit_switch *s = nicfit_catalog_switch(cat, i);
		struct nicfit_port sp;
		struct nicfit_port_match m;
		size_t len = strlen(fits);

		if (!s->fabric || !nt->sw.cat || !nt->sw.cat->fabric ||
		    strcmp(s->fabric, nt->sw.cat->fabric) ||
		    (s->scheduled && !strcmp(s->scheduled, "fabric")))
			continue;
		nicfit_port_of_switch(s, &sp);
		if (nicfit_port_match(&cn->node_port, &sp, 1, &m) != NICFIT_MATCH_DIRECT)
			continue;
		snprintf(fits + len, sizeof(fits) - len, "%s%s", named ? ", " : "", s->e.id);
		named++;
	}
	f = nicfit__find(&c->findings, NICFIT_SEV_CRITICAL, NICFIT_CODE_CLUSTER_PORTS_CANNOT_MEET, NULL,
			 "back end: %s: no cable, splitter or pair of optics joins them", nt->fit.why);
	if (!f || nicfit__finding_fix(&c->findings, f, "%s%s", named ? "a switch that meets it: " :
				      "no catalog switch of this fabric meets it directly", fits))
		return NICFIT_E_NOMEM;
	return 0;
}

static void explain(struct nicfit_cluster *c, enum nicfit_net n)
{
	if (n == NICFIT_NET_BACKEND && explain_lanes(c))
		c->findings.oom = 1;
	explain_ports(c, n);
	explain_tiers(c, n);
}

/*
 * The RoCE lossless checklist for an Ethernet back end, as plan prints
 * it: PFC on the RoCE priority (3), ECN marking for DCQCN, DSCP trust
 * with congestion notification packets on DSCP 48 (NVIDIA NIC
 * Configuration Operator's roceOptimized, docs/reference/anchors.md 1.6),
 * MTU 9000 end to end; on Spectrum-4 also adaptive routing, which NVIDIA
 * NetQ monitors on Spectrum-4 only (NetQ 4.11 "Spectrum Support").
 */
static void rule_roce_checklist(struct nicfit_cluster *c)
{
	const struct nicfit_cluster_net *be = &c->net[NICFIT_NET_BACKEND];
	const struct nicfit_switch *s = be->sw.cat;

	if (!be->enabled || !s || !s->fabric || strcmp(s->fabric, "ethernet") ||
	    (c->nic && !(c->nic->rdma & NICFIT_RDMA_ROCE)))
		return;
	/*
	 * Spectrum-X's per-packet adaptive routing spreads a flow over every
	 * path; only a SuperNIC (BlueField-3 SuperNIC, ConnectX-8) puts the
	 * packets back in order, so with any other NIC it is ECMP RoCE.
	 */
	if (be->scheduled && be->tiers > 1) {
		nicfit__decide(&c->decisions, "cluster.roce", 1,
			       "back end: RoCE v2 on %s: the fabric between leaves is scheduled (cells "
			       "on credit), so PFC, ECN marking for DCQCN and DSCP trust (CNPs on DSCP "
			       "48) belong on the leaves' node ports only, where the NICs' RoCE frames "
			       "enter and leave; MTU 9000 on those ports", be->sw.id);
		nicfit__cluster_vendor_roce(c);
		return;
	}
	nicfit__decide(&c->decisions, "cluster.roce", 1,
		       "back end: RoCE v2 on %s needs a lossless fabric: PFC on the RoCE priority (3), "
		       "ECN marking for DCQCN, DSCP trust (CNPs on DSCP 48), MTU 9000 end to end%s%s%s",
		       be->sw.id, !(s->e.name && strstr(s->e.name, "Spectrum-4")) ? "" :
		       c->nic && c->nic->supernic ? "; Spectrum-X: enable per-packet adaptive routing, "
		       "which the SuperNICs (" : c->nic ? "; Spectrum-4 with " :
		       "; Spectrum-4: per-packet adaptive routing (Spectrum-X) needs a SuperNIC on "
		       "every host (BlueField-3 SuperNIC, ConnectX-8) to reorder; with other NICs, ECMP",
		       !(s->e.name && strstr(s->e.name, "Spectrum-4")) || !c->nic ? "" : c->nic->part,
		       !(s->e.name && strstr(s->e.name, "Spectrum-4")) || !c->nic ? "" :
		       c->nic->supernic ? ") reorder at the RoCE transport" :
		       " (no SuperNIC): routed by ECMP; Spectrum-X's per-packet adaptive routing "
		       "needs a SuperNIC on every host");
	nicfit__cluster_vendor_roce(c);
}

/*
 * The back end's parts against each other: an InfiniBand switch needs
 * InfiniBand NICs; an Ethernet back end carries RDMA only with RoCE
 * NICs, and RoCE needs a lossless fabric (PFC and ECN) from the switch;
 * the NIC's ports must run the link rate asked for, and it must have the
 * ports to be cabled. Only what the catalog says is checked: a generic
 * switch or an unnamed NIC is not judged.
 */
/*
 * The GPUDirect RDMA path of the back-end NIC (cluster-gpudirect, info):
 * how the card registers GPU memory, DMA-BUF from the Linux kernel or a
 * GPU driver's peer-memory client over the NIC driver's peer-memory
 * interface, as the catalog's vendor source says. The client is the GPU
 * maker's (core/gpu_stack_int.h): NVIDIA's nvidia-peermem (NVIDIA
 * recommends DMA-BUF: GPU Operator, "GPUDirect RDMA and GPUDirect
 * Storage"), or for AMD Instinct GPUs the amdgpu driver's, which RCCL
 * finds at /sys/kernel/mm/memory_peers/amdkfd/version (RCCL's net_ib.cc;
 * RCCL uses DMA-BUF too where the kernel offers it). Intel Gaudi scales
 * out over its own on-package RoCE ports, so a NIC card's GPUDirect path
 * does not apply. Without a vendor source nicfit says so rather than
 * guess: the buyer checks the vendor's documents before counting on
 * GPUDirect.
 */
static void rule_gpudirect(struct nicfit_cluster *c)
{
	const struct nicfit_nic *n = c->nic;
	const struct nicfit__gpu_stack *st;
	const char *part;
	struct nicfit_finding *f;

	if (!n || c->in.gpus_per_node < 1)
		return;
	part = n->part ? n->part : n->e.id;
	st = nicfit__gpu_stack_of(c->gpu ? c->gpu->vendor : NULL, c->gpu ? c->gpu->e.name : NULL);
	if (st->maker == NICFIT_MAKER_GAUDI) {
		nicfit__find(&c->findings, NICFIT_SEV_INFO, NICFIT_CODE_CLUSTER_GPUDIRECT, NULL,
			     "%s: %s scales out over %s's own RoCE ports, not through GPUDirect RDMA "
			     "of a NIC card", part, st->ccl, c->gpu->e.name);
		return;
	}
	if (n->gpudirect) {
		f = nicfit__find(&c->findings, NICFIT_SEV_INFO, NICFIT_CODE_CLUSTER_GPUDIRECT, NULL,
				 "%s: GPUDirect RDMA registers GPU memory through %s%s%s, as its "
				 "vendor documents it", part,
				 n->gpudirect & NICFIT_GDR_DMABUF ? "DMA-BUF (recommended)" : "",
				 (n->gpudirect & NICFIT_GDR_DMABUF) && (n->gpudirect & NICFIT_GDR_PEERMEM) ?
				 " or " : "", n->gpudirect & NICFIT_GDR_PEERMEM ? st->peer : "");
		if (f)
			f->source = n->gpudirect_source;
		if (f && st->maker != NICFIT_MAKER_NVIDIA)
			nicfit__finding_fix(&c->findings, f, "check on a test run of %s that %s",
					    st->tests, st->gdr_log);
		return;
	}
	if (st->maker == NICFIT_MAKER_NVIDIA)
		nicfit__find(&c->findings, NICFIT_SEV_INFO, NICFIT_CODE_CLUSTER_GPUDIRECT, NULL,
			     "%s: the catalog has no vendor document on GPUDirect RDMA with this card; "
			     "check its vendor's support for GPU memory registration (DMA-BUF) before "
			     "counting on it", part);
	else
		nicfit__find(&c->findings, NICFIT_SEV_INFO, NICFIT_CODE_CLUSTER_GPUDIRECT, NULL,
			     "%s: the catalog has no vendor document on GPUDirect RDMA with this card; "
			     "check its vendor's support for %s GPU memory (DMA-BUF, or %s) before "
			     "counting on it, and that %s", part, st->maker_name, st->peer, st->gdr_log);
}

static void rule_backend_parts(struct nicfit_cluster *c)
{
	const struct nicfit_cluster_net *be = &c->net[NICFIT_NET_BACKEND];

	rule_roce_checklist(c);
	rule_gpudirect(c);

	if (be->sw.cat && c->nic) {
		int ib_sw = be->sw.cat->fabric && !strcmp(be->sw.cat->fabric, "infiniband");

		if (ib_sw && !c->nic->ib_rate)
			nicfit__find(&c->findings, NICFIT_SEV_CRITICAL, NICFIT_CODE_CLUSTER_NIC_NOT_IB, NULL,
				     "%s is an InfiniBand switch but %s has no InfiniBand ports",
				     be->sw.id, c->nic->part ? c->nic->part : c->nic->e.id);
		if (!ib_sw && !(c->nic->rdma & NICFIT_RDMA_ROCE))
			nicfit__find(&c->findings, NICFIT_SEV_WARNING, NICFIT_CODE_CLUSTER_NIC_NO_RDMA, NULL,
				     "%s has no RoCE: the back end would run TCP only",
				     c->nic->part ? c->nic->part : c->nic->e.id);
	}
	if (be->sw.cat && be->sw.cat->fabric && !strcmp(be->sw.cat->fabric, "ethernet") &&
	    !be->sw.cat->lossless)
		nicfit__find(&c->findings, NICFIT_SEV_WARNING, NICFIT_CODE_CLUSTER_NOT_LOSSLESS, NULL,
			     "the catalog does not list PFC/ECN for %s; RoCE needs a lossless "
			     "fabric (PFC and ECN)", be->sw.id);
	if (c->nic && c->nic->port_gbps < be->link_gbps - NICFIT_EPS)
		nicfit__find(&c->findings, NICFIT_SEV_CRITICAL, NICFIT_CODE_CLUSTER_NIC_SLOWER, NULL,
			     "%s ports run at most %g Gb/s, not %g", c->nic->e.id, c->nic->port_gbps,
			     be->link_gbps);
	if (c->nic && c->nic->ports < c->in.nic_ports)
		nicfit__find(&c->findings, NICFIT_SEV_CRITICAL, NICFIT_CODE_CLUSTER_NIC_PORTS, NULL,
			     "%s has %d port%s, not %d", c->nic->e.id, c->nic->ports,
			     c->nic->ports == 1 ? "" : "s", c->in.nic_ports);
}

/* The back end: planes, rails, its ports and tiers, and what is worth knowing about them. */
static void explain_backend(struct nicfit_cluster *c)
{
	const struct nicfit_cluster_net *be = &c->net[NICFIT_NET_BACKEND];
	const struct cl_net *cb = &c->impl->net[NICFIT_NET_BACKEND];

	if (c->in.node_kind)
		nicfit__decide(&c->decisions, "cluster.node_kind", 1,
			       "nodes: %d GPUs on one baseboard (HGX/DGX, or OAM), built as %s unless asked "
			       "otherwise: the back end rail-optimized (--no-rail-optimized), two "
			       "north-south links to two switches at 200GbE, 400GbE behind 800G "
			       "compute NICs (--frontend-links, --frontend-gbps), storage dual-homed",
			       c->in.gpus_per_node, c->in.node_kind);
	if (c->in.switch_from && be->enabled)
		nicfit__decide(&c->decisions, "cluster.switch", 1,
			       "back-end switch: %s, as %s (--switch to choose another)", be->sw.id,
			       c->in.switch_from);
	if (be->planes > 1)
		nicfit__decide(&c->decisions, "cluster.planes", 1,
			       "back end: %d independent planes; link l of a node goes to plane l mod %d, "
			       "so each plane carries %d of every node's %d links",
			       be->planes, be->planes, be->links_per_node / be->planes, be->links_per_node);
	if (c->in.net[NICFIT_NET_BACKEND].rail_only)
		nicfit__decide(&c->decisions, "cluster.rail", 1,
			       "back end: rail-only: link i of every node on rail i, each rail on one "
			       "switch (%d rail%s per switch), no spines", cb->rpl, cb->rpl == 1 ? "" : "s");
	else if (c->in.net[NICFIT_NET_BACKEND].rail_optimized)
		nicfit__decide(&c->decisions, "cluster.rail", 1,
			       "back end: rail-optimized: link i of every node on rail i (%d rails per plane)%s",
			       be->rails, be->tiers > 1 ? "; the spines are shared by all rails" : "");
	explain(c, NICFIT_NET_BACKEND);
	if (be->tiers == 1 && be->rails > 1 && cb->leaves > 1)
		nicfit__find(&c->findings, NICFIT_SEV_INFO, NICFIT_CODE_CLUSTER_RAIL_ONLY, NULL,
			     "back end: rail-only: no spines, so traffic between rails must cross "
			     "NVLink inside a node (PXN)");
	if (c->in.nodes == 2 && be->links_per_node)
		nicfit__find(&c->findings, NICFIT_SEV_INFO, NICFIT_CODE_CLUSTER_BACK_TO_BACK, NULL,
			     "two nodes can also be cabled back to back without a back-end switch");
	rule_backend_parts(c);
}

/* The front end: links per node and leaves that serve whole racks. A node
 * with one link is cut off when its leaf fails: worth saying. */
static void explain_frontend(struct nicfit_cluster *c)
{
	const struct nicfit_cluster_net *fe = &c->net[NICFIT_NET_FRONTEND];

	nicfit__decide(&c->decisions, "cluster.frontend", 1,
		       "front end: %d x %g Gb/s link%s per node to %s, leaves serve whole racks; "
		       "the servers' own (onboard or OCP) ports are assumed, so the BOM has no "
		       "front-end NIC", fe->links_per_node, fe->link_gbps,
		       fe->links_per_node == 1 ? "" : "s",
		       fe->links_per_node == 1 ? "one leaf" : "different leaves (one per link)");
	explain(c, NICFIT_NET_FRONTEND);
	if (fe->links_per_node == 1)
		nicfit__find(&c->findings, NICFIT_SEV_INFO, NICFIT_CODE_CLUSTER_SINGLE_HOMED, NULL,
			     "front end: one link per node: a leaf failure cuts its racks off "
			     "(--frontend-links 2 dual-homes every node to two leaves)");
}

/*
 * The OOB leaves and their uplinks: one leaf that takes every port has
 * none. Its ports as the walk counted them: the BMCs of nodes and storage
 * servers, and the management ports of every other switch.
 */
static void explain_oob(struct nicfit_cluster *c)
{
	const struct nicfit_cluster_net *oob = &c->net[NICFIT_NET_OOB];
	long leaves = c->impl->net[NICFIT_NET_OOB].leaves;

	if (oob->tiers > 1)
		nicfit__decide(&c->decisions, "cluster.oob", 1,
			       "OOB: %ld BMC ports and %ld switch management ports on %ld OOB leaves "
			       "(whole racks per leaf, %d uplinks each)",
			       oob->links[NICFIT_LINK_HOST], oob->links[NICFIT_LINK_MGMT], leaves,
			       oob->uplinks_per_leaf);
	else
		nicfit__decide(&c->decisions, "cluster.oob", 1,
			       "OOB: %ld BMC ports and %ld switch management ports on %ld OOB leaf%s "
			       "(one tier, no uplinks)",
			       oob->links[NICFIT_LINK_HOST], oob->links[NICFIT_LINK_MGMT], leaves,
			       leaves == 1 ? "" : "s");
	explain(c, NICFIT_NET_OOB);
}

/* Network racks of tall switches hold fewer than switches_per_rack allows: say so. */
static void explain_network_racks(struct nicfit_cluster *c)
{
	const struct nicfit_cluster_impl *im = c->impl;

	if (c->network_racks < 1 || im->spr >= (long)c->in.layout.switches_per_rack)
		return;
	nicfit__decide(&c->decisions, "cluster.place", 1,
		       "network racks: %ld switches a rack, under the switches_per_rack cap of %g: "
		       "%dU switches, floor(rack_u %gU / %dU) = %ld fit one rack "
		       "(--assume rack_u=); %ld network rack%s",
		       im->spr, c->in.layout.switches_per_rack, im->hmax, c->in.layout.rack_u,
		       im->hmax, im->spr, c->network_racks, c->network_racks == 1 ? "" : "s");
}

/*
 * A rack-scale system's own equipment in each rack, as the placement
 * counts it (nicfit__cluster_rack_gear_u), for the decision that says a
 * rack is full: ", 9 NVLink switch trays of 1U, ...".
 */
static void rack_gear(const struct nicfit_cluster *c, char *s, size_t n)
{
	const struct nicfit_server *sv = c->server;
	int racks = sv->rack_racks > 0 ? sv->rack_racks : 1;
	long st = (sv->rack_switch_trays + racks - 1) / racks;
	size_t k = 0;

	s[0] = 0;
	if (st > 0 && sv->rack_switch_tray_u > 0)
		k += (size_t)snprintf(s + k, n - k, ", %ld NVLink switch tray%s of %dU", st,
				      st == 1 ? "" : "s", sv->rack_switch_tray_u);
	if (k < n && sv->rack_mgmt_switches > 0 && sv->rack_mgmt_switch_u > 0)
		k += (size_t)snprintf(s + k, n - k, ", %d management switch%s of %dU",
				      sv->rack_mgmt_switches, sv->rack_mgmt_switches == 1 ? "" : "es",
				      sv->rack_mgmt_switch_u);
	if (k < n && sv->rack_power_shelves > 0 && sv->rack_power_shelf_u > 0)
		snprintf(s + k, n - k, ", %d power shel%s of %dU", sv->rack_power_shelves,
			 sv->rack_power_shelves == 1 ? "f" : "ves", sv->rack_power_shelf_u);
}

/*
 * Leaves that found no room on top of the compute rack in the middle of
 * their span (cluster_place.c tor_room(): its nodes from the bottom, the
 * switches already there from the top): say where they went instead and
 * the numbers of the first full rack.
 */
static void explain_tor_room(struct nicfit_cluster *c)
{
	const struct nicfit_cluster_impl *im = c->impl;
	const struct nicfit_cluster_layout *L = &c->in.layout;
	double gear = nicfit__cluster_rack_gear_u(c);
	double room = L->rack_u - (double)im->tor_full_nodes * L->node_u - gear - im->tor_full_used_u;
	char on_top[48] = "", shifted[80] = "", moved[80] = "", own[200] = "";

	if (im->tor_moved + im->tor_shifted < 1 || im->tor_full_rack < 0)
		return;
	if (im->tor_full_used_u)
		snprintf(on_top, sizeof(on_top), " and %dU of switches on top",
			 im->tor_full_used_u);
	if (gear > 0)
		rack_gear(c, own, sizeof(own));
	if (im->tor_shifted)
		snprintf(shifted, sizeof(shifted), "; %ld lea%s on top of another rack of %s span",
			 im->tor_shifted, im->tor_shifted == 1 ? "f" : "ves",
			 im->tor_shifted == 1 ? "its" : "their");
	if (im->tor_moved)
		snprintf(moved, sizeof(moved), "; %ld lea%s in %s row's network racks",
			 im->tor_moved, im->tor_moved == 1 ? "f" : "ves",
			 im->tor_moved == 1 ? "its" : "their");
	nicfit__decide(&c->decisions, "cluster.place", 1,
		       "top of rack: compute rack %ld holds %ld node%s of %gU%s in %gU%s: %gU left, "
		       "no room for a %dU leaf%s%s (%s)",
		       im->tor_full_rack + 1, im->tor_full_nodes,
		       im->tor_full_nodes == 1 ? "" : "s", L->node_u, own, L->rack_u, on_top,
		       room > 0 ? room : 0, im->tor_full_h, shifted, moved,
		       gear > 0 ? "--assume rack_u= for the rack's real height, which no source "
				  "nicfit read gives; where the DGX SuperPOD GB200 RA's one-row layout "
				  "of an SU stands its leaves was not read either, so nicfit puts on "
				  "top of a rack only what fits it" :
				  "--nodes-per-rack, --assume node_u= or rack_u=");
}

void nicfit__cluster_explain(struct nicfit_cluster *c)
{
	nicfit__cluster_explain_rack(c);
	if (c->net[NICFIT_NET_BACKEND].enabled)
		explain_backend(c);
	if (c->net[NICFIT_NET_BACKEND].enabled && c->integrated)
		nicfit__cluster_explain_integrated(c);
	if (c->net[NICFIT_NET_FRONTEND].enabled)
		explain_frontend(c);
	if (c->net[NICFIT_NET_OOB].enabled)
		explain_oob(c);
	nicfit__cluster_explain_border(c);
	nicfit__cluster_explain_storage(c);
	explain_network_racks(c);
	explain_tor_room(c);
	/* the rack height assumed must hold the nodes asked for per rack */
	if (c->in.nodes_per_rack * c->in.layout.node_u > c->in.layout.rack_u)
		nicfit__find(&c->findings, NICFIT_SEV_WARNING, NICFIT_CODE_CLUSTER_RACK_FULL, NULL,
			     "%d nodes of %gU do not fit a %gU rack; lower --nodes-per-rack or set "
			     "--assume node_u/rack_u", c->in.nodes_per_rack, c->in.layout.node_u,
			     c->in.layout.rack_u);
}
