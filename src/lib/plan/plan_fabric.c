/*
 * plan_fabric.c - R7 and R8: what the back-end fabric needs (subnet
 * manager or lossless Ethernet, VPI port mode), the switches
 * nicfit_cluster sizes for it, and every cable of the plan. The card it
 * connects is R5 (plan_backend.c); the bill of materials that lists it
 * all is R10 (plan_parts.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/cluster.h"
#include "nicfit/partno.h"
#include "core/coding_int.h"
#include "core/node_kind_int.h"
#include "core/num_int.h"
#include "plan/plan_int.h"

/* ---- R7: fabric --------------------------------------------------------- */

/*
 * Port, lane and cable speeds are catalog figures (25, 100, 53.125...):
 * two are the same speed within a hundredth of a Gb/s.
 */
#define SPEED_MATCH_GBPS 0.01
/*
 * When no catalog switch of the card's speed fits, nicfit cluster sizes
 * the back end from a generic switch of 64 ports, the common radix of
 * today's 1U data-centre switches; the plan says so (generic-switch).
 */
#define GENERIC_SWITCH_RADIX 64
/* Where R7's RoCE v1 fact comes from. */
#define ROCE_V1_SOURCE "Red Hat Enterprise Linux 7 Networking Guide 13.2, Transferring Data Using RoCE"

/*
 * R7 on a RoCE back end whose card does RoCE v1 only (roce-v1-only): RoCE
 * v1 is an Ethernet link-layer protocol (ethertype 0x8915), so RDMA
 * between servers stays inside one broadcast domain and no router carries
 * it; RoCE v2 (UDP port 4791) starts with the ConnectX-3 Pro. A
 * multi-subnet or routed (layer-3 leaf-spine) back end cannot carry it,
 * and NCCL must use the RoCE v1 GID, so it is a warning.
 */
/*
 * Where to read the GID table: show_gids is NVIDIA's (MLNX_OFED / DOCA-OFED)
 * script, for ConnectX cards; rdma-core's ibv_devinfo -v lists every port's
 * GIDs with their RoCE version for any card. (A RoCE v1-only card is a
 * ConnectX-2/3, so the v1 advice names show_gids.)
 */
static const char *gid_tool(const struct nicfit_plan *p)
{
	return p->be_nic && p->be_nic->pci_vendor == 0x15b3 ? "show_gids" :
	       "the GID table of ibv_devinfo -v";
}

static void rule_roce_v1(struct nicfit_plan *p)
{
	struct nicfit_finding *f;

	if (p->fabric != NICFIT_FABRIC_ROCE || !nicfit_family_roce_v1_only(p->be_nic->family))
		return;
	f = nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_ROCE_V1_ONLY,
			      "keep every server of the back end in one VLAN and subnet and use the RoCE "
			      "v1 GID (NCCL_IB_GID_INDEX, see show_gids), or a ConnectX-3 Pro or later "
			      "card for RoCE v2",
			      "%s (%s) does RoCE v1 only: RoCE v1 is not routable, so RDMA works only "
			      "inside one Ethernet broadcast domain, not across IP subnets.",
			      p->be_part, p->be_nic->family);
	if (f)
		f->source = ROCE_V1_SOURCE;
}

/*
 * The mlxconfig command that puts every port of the back-end VPI card in
 * the plan's fabric's mode (1 InfiniBand, 2 Ethernet). mlxconfig keeps one
 * LINK_TYPE_Pn per port (docs/reference/anchors.md 1.5): a command that
 * names only P1 leaves a dual-port card's second port in the other mode,
 * so R7's decision and R11's vpi-port-mode fix both take this one.
 */
void nicfit__plan_link_types(const struct nicfit_plan *p, char *buf, size_t size)
{
	int mode = p->fabric == NICFIT_FABRIC_IB ? 1 : 2, port;
	size_t n;

	n = (size_t)plan_fmt(buf, size, "mlxconfig -d <PCI address> set");
	for (port = 1; port <= p->be_card.ports && n < size; port++)
		n += (size_t)plan_fmt(buf + n, size - n, " LINK_TYPE_P%d=%d", port, mode);
}

/*
 * R7, fabric (docs/rules.md): what the chosen fabric needs before the
 * first job. InfiniBand needs a subnet manager (on a managed switch, or
 * opensm on a host); RoCE v2 needs a lossless Ethernet switch (PFC on the
 * RoCE priority, ECN for DCQCN, DSCP trust, MTU 9000) and the RoCE v2 GID
 * on the hosts, except two servers cabled back to back, which need no
 * switch at all. A VPI card needs its ports set to the fabric's mode.
 */
void nicfit__plan_fabric(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const char *roce;

	if (!p->backend_needed || !p->be_nic)
		return;
	roce = nicfit_family_roce_v1_only(p->be_nic->family) ? "RoCE v1" : "RoCE v2";
	p->back_to_back = in->servers == 2 && !in->sw && in->workload != NICFIT_WL_RDMA_STORAGE;
	if (p->fabric == NICFIT_FABRIC_IB) {
		plan_decide(&p->decisions, "R7", 1,
			    "Fabric: InfiniBand%s. It needs a subnet manager: %s.",
			    p->be_card.ib_rate ? "" : " (the card has no InfiniBand rate)",
			    p->back_to_back ? "with two hosts cabled back to back, run opensm on one "
			    "of them" : "on a managed InfiniBand switch, or opensm on one host");
	} else {
		plan_decide(&p->decisions, "R7", 1,
			    "Fabric: %s (RDMA over Converged Ethernet)%s.", roce,
			    in->fabric == NICFIT_FABRIC_AUTO ?
			    " - chosen because it runs on Ethernet switches and skills you have; "
			    "give --fabric infiniband for InfiniBand" : "");
		if (p->back_to_back)
			plan_decide(&p->decisions, "R7", 1,
				    "Two servers back to back: no switch, so no PFC/ECN switch "
				    "configuration; set MTU 9000 on both ports (RoCE MTU 4096), put them in "
				    "one subnet, and use the %s GID (NCCL_IB_GID_INDEX, see %s).", roce,
				    gid_tool(p));
		else if (strcmp(roce, "RoCE v2"))
			plan_decide(&p->decisions, "R7", 1,
				    "RoCE v1 needs a lossless Ethernet switch: PFC on the RoCE "
				    "priority (commonly 3), carried in the VLAN tag's priority (PCP: RoCE "
				    "v1 has no IP header, so DSCP trust and ECN marking do not apply), MTU "
				    "9000 end to end, and the RoCE v1 GID index on the hosts "
				    "(NCCL_IB_GID_INDEX, see show_gids).");
		else
			plan_decide(&p->decisions, "R7", 1,
				    "RoCE needs a lossless Ethernet switch: PFC on the RoCE "
				    "priority (commonly 3), ECN marking for DCQCN congestion control, DSCP "
				    "trust (RoCE DSCP 26 to priority 3, CNP DSCP 48), MTU 9000 end to end, "
				    "and the RoCE v2 GID index on the hosts (NCCL_IB_GID_INDEX, usually 3).");
		rule_roce_v1(p);
	}
	if (p->be_card.vpi) {
		char set[NICFIT__PLAN_LINK_TYPES_MAX];

		nicfit__plan_link_types(p, set, sizeof(set));
		plan_decide(&p->decisions, "R7", 1,
			    "%s is a VPI card: each port runs InfiniBand or Ethernet. Set "
			    "it with %s (1 = InfiniBand, 2 = Ethernet), then reset the card "
			    "(mlxfwreset) or reboot.", p->be_part, set);
	} else if (p->fabric == NICFIT_FABRIC_ROCE && (p->be_nic->rdma & NICFIT_RDMA_ROCE))
		plan_decide(&p->decisions, "R7", 0,
			    "InfiniBand was not considered further: %s is Ethernet-only "
			    "(RoCE).", p->be_part);
}

/* ---- R8: cables --------------------------------------------------------- */

static int type_rank(enum nicfit_cable_type t)
{
	switch (t) {
	case NICFIT_CABLE_DAC:
	case NICFIT_CABLE_BREAKOUT_DAC:
	case NICFIT_CABLE_RJ45: return 0;
	case NICFIT_CABLE_AOC:
	case NICFIT_CABLE_BREAKOUT_AOC: return 1;
	case NICFIT_CABLE_OPTIC: return 2;
	}
	return 3;
}

/*
 * nicfit__coding_score(have, want) for one pick_cable(): the score is a
 * pure function of the two strings and the catalog's cables share a few
 * codings, so each coding (by its pointer) is scored once a pick.
 */
#define CODING_MEMO 4
struct coding_memo {
	const char *have[CODING_MEMO];
	int score[CODING_MEMO];
	int n;
};

static int coding_score(struct coding_memo *m, const char *have, const char *want)
{
	int k, s;

	for (k = 0; k < m->n; k++)
		if (m->have[k] == have)
			return m->score[k];
	s = nicfit__coding_score(have, want);
	if (m->n < CODING_MEMO) {
		m->have[m->n] = have;
		m->score[m->n++] = s;
	}
	return s;
}

/*
 * The catalog cable for a link between cages a and b at gbps, at least
 * length_m long (0 = any), preferring DAC, then AOC, then optics, the coding
 * that suits the NIC end ("intel", "nvidia", NULL: nicfit__coding_score,
 * core/coding_int.h, the rule cluster weighs at a switch end too), a
 * sourced price, and the shortest length. split > 1 asks for a breakout
 * with that many legs. A cable sold for one fabric only goes on that
 * fabric (fabric "infiniband" or "ethernet"; NULL for a network of unknown
 * kind). NULL if none.
 */
static const struct nicfit_cable *pick_cable(const struct nicfit_catalog *cat, const char *a,
					     const char *b, double gbps, int split,
					     double length_m, const char *coding, const char *fabric)
{
	const struct nicfit_cable *best = NULL, *scored = NULL;
	const struct nicfit_cable *const *between;
	size_t i, count;
	/* the catalog's cables are one array (catalog_int.h), walked whole without the index */
	const struct nicfit_cable *all = NULL;
	int cs, best_cs = 0;
	struct coding_memo memo;

	memo.n = 0;

	/* the cables between these cages, in the catalog's order, from the catalog's index */
	if (nicfit_catalog_cables_between(cat, a, b, &between, &count)) {
		count = nicfit_catalog_count(cat, NICFIT_KIND_CABLE);
		all = count ? nicfit_catalog_cable(cat, 0) : NULL;
	}
	for (i = 0; i < count; i++) {
		const struct nicfit_cable *c = all ? &all[i] : between[i];

		/* the figures first, the connector names (string compares) last */
		if (c->type == NICFIT_CABLE_OPTIC)
			continue;
		/* a cable sold for one fabric (an HDR InfiniBand DAC) only on that fabric */
		if (c->fabric && (!fabric || strcmp(c->fabric, fabric)))
			continue;
		if ((split > 1) != (c->split > 1) || (split > 1 && c->split != split))
			continue;
		if (fabs((split > 1 ? c->lane_gbps : c->gbps) - gbps) > SPEED_MATCH_GBPS &&
		    !(split > 1 && fabs(c->gbps - gbps * split) < SPEED_MATCH_GBPS))
			continue;
		if (c->length_m > 0 && length_m > 0 && c->length_m + NICFIT_EPS < length_m)
			continue;
		if (c->max_length_m > 0 && length_m > c->max_length_m)
			continue;
		if (!((c->end_a[0] == a[0] && !strcmp(c->end_a, a) && !strcmp(c->end_b, b)) ||
		      (c->end_a[0] == b[0] && !strcmp(c->end_a, b) && !strcmp(c->end_b, a))))
			continue;
		if (!best) {
			best = c;
			continue;
		}
		if (type_rank(c->type) != type_rank(best->type)) {
			if (type_rank(c->type) < type_rank(best->type))
				best = c;
			continue;
		}
		/* best's score is kept until best changes: it is a string compare or two */
		if (scored != best) {
			best_cs = coding_score(&memo, best->coding, coding);
			scored = best;
		}
		cs = coding_score(&memo, c->coding, coding);
		if (cs != best_cs) {
			if (cs < best_cs)
				best = c;
			continue;
		}
		if (c->length_m != best->length_m) {
			if (c->length_m < best->length_m)
				best = c;
			continue;
		}
		if (c->e.priced != best->e.priced) {
			if (c->e.priced)
				best = c;
			continue;
		}
		if (c->e.priced && c->e.price_usd < best->e.price_usd)
			best = c;
	}
	return best;
}

static void add_cable(struct nicfit_plan *p, const char *link, const struct nicfit_cable *c,
		      const char *a, const char *b, double gbps, double len, int qty,
		      const char *why)
{
	struct nicfit_plan_cable *x;
	struct plan_str t;

	if (qty <= 0 || !(x = nicfit__plan_new_cable(p)))
		return;
	nicfit__plan_copy(x->link, sizeof(x->link), link);
	x->qty = qty;
	x->length_m = c && c->length_m > 0 ? c->length_m : len;
	nicfit__plan_str_init(&t, x->ends, sizeof(x->ends));
	nicfit__plan_str_add(&t, a);
	nicfit__plan_str_add(&t, " - ");
	nicfit__plan_str_add(&t, b);
	if (c) {
		nicfit__plan_copy(x->id, sizeof(x->id), c->e.id);
		x->cable = c;
		nicfit__plan_copy(x->part, sizeof(x->part), c->part ? c->part : c->e.id);
		nicfit__plan_str_init(&t, x->description, sizeof(x->description));
		nicfit__plan_str_add(&t, c->e.name);
		nicfit__plan_str_add(&t, " (");
		nicfit__plan_str_add(&t, why);
		nicfit__plan_str_add(&t, ")");
	} else {
		plan_fmt(x->part, sizeof(x->part), "%s %gG cable", a, gbps);
		plan_fmt(x->description, sizeof(x->description),
			 "%s to %s, %g Gb/s, %.1f m (%s) - not in the catalog", a, b, gbps, len, why);
	}
}

/*
 * The cluster's findings about the back-end fabric (blocking, breakout
 * cables not verified...) join the plan's under their own codes, which
 * the registry lists as raised by both engines.
 */
static void carry_cluster_findings(struct nicfit_plan *p, const struct nicfit_cluster *cl)
{
	size_t k;

	for (k = 0; k < cl->findings.n; k++) {
		const struct nicfit_finding *n = &cl->findings.v[k];
		struct nicfit_finding *f;

		if (n->severity == NICFIT_SEV_NONE)
			continue;
		/* an unregistered code is a bug: fail the plan, drop nothing silently */
		if (nicfit__find_code(&p->findings, n->severity, n->code, n->device, &f, "%s",
				      n->message)) {
			p->findings.oom = 1;
			return;
		}
		if (n->fix)
			nicfit__finding_fix(&p->findings, f, "%s", n->fix);
	}
}

/*
 * R7, the switch given (--switch): its ports must take the card's link as
 * lanes (compat.c's nicfit_port_match(), the rule the automatic choice
 * and nicfit cluster size with), natively, on slower lanes it runs or
 * through a split mode it lists, or no server can link to it (critical,
 * and the fabric is not sized). Judging by rate alone refused an NDR
 * switch for an EDR card, which its cages run one per port on 4 x 25G
 * NRZ lanes (NVIDIA Quantum-2 QM9700 user manual: NDR, HDR and EDR), and
 * took split modes the card's lanes cannot use. It must also run the
 * back end's fabric (critical, but the sizing goes on, so that the rest
 * of the plan shows). Returns 0 when the fabric cannot be sized.
 */
static int check_given_switch(struct nicfit_plan *p, const struct nicfit_switch *sw,
			      const char *fabric)
{
	struct nicfit_port sp, np;
	struct nicfit_port_match m;

	nicfit_port_of_switch(sw, &sp);
	nicfit_node_kind_port(p->be_nic, p->be_port_gbps, &sp, &np);
	if (nicfit_port_match(&np, &sp, 1, &m) == NICFIT_MATCH_NONE) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_SWITCH_SPEED,
				  "a switch whose ports (or split legs) run the card's lanes",
				  "%s cannot take %s at %g Gb/s: %s.", sw->e.name, p->be_part,
				  p->be_port_gbps, m.why);
		return 0;
	}
	if (strcmp(sw->fabric, fabric))
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_SWITCH_FABRIC,
				  "an InfiniBand switch for InfiniBand, an Ethernet switch for RoCE",
				  "%s is an %s switch but the back end runs %s.", sw->e.name, sw->fabric,
				  p->fabric == NICFIT_FABRIC_IB ? "InfiniBand" : "RoCE v2 over Ethernet");
	return 1;
}

/*
 * Back-end ports the server brings out at shared twin-port cages: slots
 * that name one "shared_cage" (the DGX H100's OSFPnP1 and OSFPnP2, two
 * ConnectX-7 ports on one DensiLink cable to cage n, DGX H100 User Guide
 * 1.2.3 Table 6). Returns the ports per cage (2) and fills cage[] with
 * each card's cage and *finned with their top (1 finned, 0 flat); 1 when
 * a card has a cage of its own or uses more than one port (a cage carries
 * one port of each of its two cards).
 */
static int be_shared_cages(const struct nicfit_plan *p, signed char *cage, int *finned)
{
	const struct nicfit_server *sv = p->in.server;
	int i, j, shared = 0;

	if (!sv || p->be_ports != 1 || p->be_cards < 2 || p->be_cards > NICFIT_CLUSTER_MAX_LINKS)
		return 1;
	for (i = 0; i < p->be_cards; i++) {
		const struct nicfit_slot *a;

		if (p->be_slots[i] < 0 || p->be_slots[i] >= sv->nslots)
			return 1;
		a = &sv->slots[p->be_slots[i]];
		if (!a->shared_cage)
			return 1;
		cage[i] = (signed char)i;
		*finned = a->cage_top ? !strcmp(a->cage_top, "finned") : -1;
		for (j = 0; j < i; j++) {
			const char *b = sv->slots[p->be_slots[j]].shared_cage;

			if (!strcmp(b, a->shared_cage)) {
				cage[i] = cage[j];
				shared = 1;
				break;
			}
		}
	}
	return shared ? 2 : 1;
}

/*
 * nicfit_cluster sizes the back end for the plan's servers: one switch,
 * or leaves and spines, of sw (NULL: a generic one of the card's speed).
 * The plan lists the cards itself, and the front-end and management
 * networks are the site's, so only the back end is asked for. Returns 0
 * when it cannot be built (fabric-too-large, critical: no switch of that
 * kind takes this many servers in the tiers nicfit cluster builds).
 */
static int size_backend(const struct nicfit_catalog *cat, struct nicfit_plan *p,
			const struct nicfit_switch *sw, struct nicfit_cluster *cl)
{
	const struct nicfit_plan_input *in = &p->in;
	struct nicfit_cluster_input ci;
	struct nicfit_error err;
	int u;

	nicfit_cluster_input_default(&ci);
	ci.nodes = in->servers;
	ci.gpus_per_node = in->gpus_per_server;
	ci.nics_per_node = p->be_cards;
	ci.nic_ports = p->be_ports;
	ci.nic_id = p->be_nic ? p->be_nic->e.id : NULL; /* its lanes choose the cables */
	ci.gpu_id = in->gpu ? in->gpu->e.id : NULL;     /* its maker names the GPUDirect path */
	/* the accelerators' own ports: the cluster cables the server's cages (integrated_ports) */
	ci.backend_from_gpu = p->be_integrated && !p->be_nic;
	ci.nic_ports_per_cage = ci.backend_from_gpu ? 1 :
				be_shared_cages(p, ci.nic_cage, &ci.nic_cage_finned);
	ci.net[NICFIT_NET_BACKEND].links_per_node = p->be_cards * p->be_ports;
	ci.net[NICFIT_NET_BACKEND].link_gbps = p->be_port_gbps;
	ci.net[NICFIT_NET_BACKEND].switch_id = sw ? sw->e.id : NULL;
	ci.net[NICFIT_NET_BACKEND].radix = GENERIC_SWITCH_RADIX;
	ci.net[NICFIT_NET_BACKEND].switch_gbps = sw ? 0 : p->be_port_gbps;
	/* one card per GPU: card i of every node on rail i (NVIDIA's rail-optimized SuperPOD) */
	ci.net[NICFIT_NET_BACKEND].rail_optimized = p->rails > 1;
	ci.net[NICFIT_NET_FRONTEND].links_per_node = 0;
	ci.net[NICFIT_NET_OOB].links_per_node = 0;
	ci.mgmt_ports = 0;
	/* a rack-scale server: its racks as nicfit cluster --racks lays them out, its
	 * trays at their height */
	nicfit_cluster_input_rack(&ci, in->server);
	if (ci.rack_leaves && in->server->form && sscanf(in->server->form, "%dU", &u) == 1 && u > 0)
		ci.layout.node_u = u;
	nicfit_error_clear(&err);
	if (nicfit_cluster_size(&ci, cat, cl, &err)) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_FABRIC_TOO_LARGE,
				  "more planes or a larger switch: see nicfit cluster", "%s", err.msg);
		return 0;
	}
	return 1;
}

static void describe_backend(struct nicfit_plan *p, const struct nicfit_cluster_net *be)
{
	if (be->tiers == 1)
		plan_decide(&p->decisions, "R7", 1,
			    "Back-end switch: %s x %s (%d ports of %g Gb/s%s): %ld server "
			    "link%s, %ld of %ld ports free.", "1", be->sw.name, be->sw.ports,
			    be->sw.gbps, be->breakout > 1 ? ", split for the servers" : "",
			    be->endpoints, be->endpoints == 1 ? "" : "s", be->ports_free,
			    be->ports_total);
	else if (be->tiers == 2 && be->scheduled)
		plan_decide(&p->decisions, "R7", 1,
			    "Back-end fabric (as nicfit cluster sizes it): a scheduled fabric, not a "
			    "leaf-spine: %ld leaves of %s (%d ports of %g Gb/s for servers) over %ld "
			    "cell switches of %s, for %ld server links and %ld fabric links at %.2f:1. "
			    "Between leaves the fabric carries cells on credit: PFC, ECN and DSCP trust "
			    "go on the leaves' server ports only, the fabric links take none.",
			    be->tier[NICFIT_TIER_LEAF].switches, be->sw.name, be->sw.ports, be->sw.gbps,
			    be->tier[NICFIT_TIER_SPINE].switches, be->fabric.name, be->endpoints,
			    be->links[NICFIT_LINK_LEAF_SPINE], be->leaf_ratio);
	else if (be->tiers == 2)
		plan_decide(&p->decisions, "R7", 1,
			    "Back-end fabric (as nicfit cluster sizes it): 2 tiers of %s "
			    "(%d ports of %g Gb/s): %ld leaf, %ld spine switches for %ld server "
			    "links, %ld leaf-spine links at %.2f:1.", be->sw.name,
			    be->sw.ports, be->sw.gbps, be->tier[NICFIT_TIER_LEAF].switches,
			    be->tier[NICFIT_TIER_SPINE].switches, be->endpoints,
			    be->links[NICFIT_LINK_LEAF_SPINE], be->leaf_ratio);
	else
		plan_decide(&p->decisions, "R7", 1,
			    "Back-end fabric (as nicfit cluster sizes it): %d tiers of %s "
			    "(%d ports of %g Gb/s): %ld leaf, %ld spine and %ld core switches for %ld "
			    "server links, %ld leaf-spine and %ld spine-core links at %.2f:1.",
			    be->tiers, be->sw.name, be->sw.ports, be->sw.gbps,
			    be->tier[NICFIT_TIER_LEAF].switches, be->tier[NICFIT_TIER_SPINE].switches,
			    be->tier[NICFIT_TIER_CORE].switches, be->endpoints,
			    be->links[NICFIT_LINK_LEAF_SPINE], be->links[NICFIT_LINK_SPINE_CORE],
			    be->leaf_ratio);
}

/* The cluster's back-end cables become the plan's. */
static void carry_cluster_cables(struct nicfit_plan *p, const struct nicfit_cluster *cl)
{
	size_t i;

	for (i = 0; i < cl->ncables; i++) {
		const struct nicfit_cluster_cable *cc = &cl->cables[i];
		struct nicfit_plan_cable *x;

		if (cc->net != NICFIT_NET_BACKEND || !(x = nicfit__plan_new_cable(p)))
			continue;
		nicfit__plan_copy(x->link, sizeof(x->link), cc->level == NICFIT_LINK_HOST ? "backend" :
			 "backend-fabric");
		nicfit__plan_copy(x->id, sizeof(x->id), cc->cat ? cc->cat->e.id : "");
		x->cable = cc->cat;
		nicfit__plan_copy(x->part, sizeof(x->part), cc->cat && cc->cat->part ? cc->cat->part : cc->part);
		nicfit__plan_copy(x->description, sizeof(x->description), cc->description);
		nicfit__plan_copy(x->ends, sizeof(x->ends), cc->cat ? "" : cc->type);
		if (cc->cat && cc->cat->split > 1) /* a twin-port part's split end has 2 legs */
			plan_fmt(x->ends, sizeof(x->ends), "%s - %d x %s", cc->cat->end_a,
				 cc->cat->split, cc->cat->end_b);
		else if (cc->cat)
			plan_fmt(x->ends, sizeof(x->ends), "%s - %s", cc->cat->end_a, cc->cat->end_b);
		x->length_m = cc->length_m;
		x->qty = (int)cc->qty;
	}
}

/*
 * The cluster's switch lines join the plan's bill of materials (its cable
 * lines come back through the plan's cables, R10).
 */
static void carry_cluster_switches(const struct nicfit_catalog *cat, struct nicfit_plan *p,
				   const struct nicfit_cluster *cl)
{
	size_t i;

	for (i = 0; i < cl->nbom; i++) {
		const struct nicfit_cluster_bom_line *b = &cl->bom[i];
		const struct nicfit_entry *e = nicfit_catalog_lookup(cat, b->part, NULL);
		enum nicfit_kind kind = NICFIT_KIND_CABLE;
		struct nicfit_plan_line *l;

		if ((e && nicfit_catalog_lookup(cat, b->part, &kind) && kind != NICFIT_KIND_SWITCH) ||
		    (!e && strncmp(b->part, "generic-", 8)) || !(l = nicfit__plan_new_line(p)))
			continue;
		nicfit__plan_copy(l->id, sizeof(l->id), e ? e->id : "");
		nicfit__plan_copy(l->part, sizeof(l->part), b->part);
		nicfit__plan_copy(l->description, sizeof(l->description), b->description);
		plan_fmt(l->role, sizeof(l->role), "switch");
		l->qty = (int)b->qty;
		l->priced = b->priced;
		l->unit_usd = b->unit_usd;
		if (b->priced) {
			nicfit__plan_copy(l->prices_as_of, sizeof(l->prices_as_of), b->prices_as_of ? b->prices_as_of : "");
			nicfit__plan_copy(l->source, sizeof(l->source), b->source ? b->source : "");
		}
	}
}

/*
 * R7, the back end through switches (docs/rules.md): the switch given,
 * or the catalog's smallest that takes every server link of the fabric,
 * else the one with the most ports for leaves and spines; nicfit_cluster
 * sizes the fabric from it, and its switches, cables and findings join
 * the plan. Without any catalog switch of that speed a generic one is
 * planned, unpriced, and the plan says so (generic-switch, an info: the
 * design holds, only the part is the user's to choose).
 */
static void plan_backend_fabric(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const char *fabric = p->fabric == NICFIT_FABRIC_IB ? "infiniband" : "ethernet";
	const struct nicfit_switch *sw = in->sw;
	struct nicfit_cluster *cl;
	int split = 1;

	if (sw && !check_given_switch(p, sw, fabric))
		return;
	if (!sw)
		sw = nicfit_node_kind_switch(cat, in->server, fabric, p->be_nic, p->be_port_gbps,
					     (long)in->servers * p->be_cards * p->be_ports, &split);
	cl = calloc(1, sizeof(*cl));
	if (!cl) {
		p->findings.oom = 1;
		return;
	}
	if (size_backend(cat, p, sw, cl)) {
		describe_backend(p, &cl->net[NICFIT_NET_BACKEND]);
		carry_cluster_cables(p, cl);
		carry_cluster_switches(cat, p, cl);
		carry_cluster_findings(p, cl);
		if (!in->sw && !sw)
			nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_GENERIC_SWITCH,
					  "give --switch ID (nicfit catalog list switches) or add yours with --catalog",
					  "No catalog %s switch takes %g Gb/s ports for this many servers: the plan "
					  "uses a generic %d-port switch, unpriced.", fabric, p->be_port_gbps,
					  cl->net[NICFIT_NET_BACKEND].sw.ports);
	}
	nicfit_cluster_release(cl);
	free(cl);
}

/*
 * The twin-port optic that fills a node cage two single-port cards share
 * (nicfit_cable_end_fits: the cage's lanes and top), the cheapest sourced
 * one first, then the longest reach. NULL when the catalog has none.
 */
static const struct nicfit_cable *twin_cage_optic(const struct nicfit_catalog *cat,
						  const struct nicfit_port *np)
{
	const struct nicfit_cable *best = NULL;
	size_t i, count = nicfit_catalog_count(cat, NICFIT_KIND_CABLE);

	for (i = 0; i < count; i++) {
		const struct nicfit_cable *c = nicfit_catalog_cable(cat, i);

		if (c->type != NICFIT_CABLE_OPTIC || c->split != np->per_cage ||
		    fabs(c->lane_gbps - np->gbps) > SPEED_MATCH_GBPS ||
		    !nicfit_cable_end_fits(c, 0, np, NULL, 0))
			continue;
		if (!best || (c->e.priced && (!best->e.priced || c->e.price_usd < best->e.price_usd)) ||
		    (c->e.priced == best->e.priced && c->max_length_m > best->max_length_m))
			best = c;
	}
	return best;
}

/*
 * R8, two servers back to back whose back-end ports share twin-port
 * cages (be_shared_cages: a DGX H100's four flat-top cages, two
 * ConnectX-7 ports each). A single-port cable end does not go into a
 * twin-port cage (NVIDIA LinkX "Connectors and Cages",
 * https://docs.nvidia.com/networking/display/cableovpub/connectors+and+cages),
 * and the twin-port DACs NVIDIA lists for these cages have a flat top at
 * one end only (MCP4Y10 -FLT: the DGX end flat, the switch end finned,
 * https://docs.nvidia.com/networking/display/mcp4y10nxxx2x400pub/overview),
 * so no catalog DAC joins two such cages unless one fits both: then a
 * twin-port optic in every cage of both servers and one fibre per port,
 * port n of one server to port n of the other (the same rail). Returns 0
 * when the ports have cages of their own (the caller cables them card
 * to card), 1 when it has cabled them or said why it cannot.
 */
static int back_to_back_cages(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	signed char cage[NICFIT_CLUSTER_MAX_LINKS];
	const struct nicfit_cable *o, *dac = NULL;
	struct nicfit_port np;
	int finned = -1, per, cages, ports = p->be_cards * p->be_ports, i;
	size_t k, count = nicfit_catalog_count(cat, NICFIT_KIND_CABLE);
	double len = p->in.rack_cable_m / 2;
	struct nicfit_plan_cable *x;

	per = be_shared_cages(p, cage, &finned);
	if (per < 2)
		return 0;
	for (cages = 0, i = 0; i < p->be_cards; i++)
		cages += cage[i] == i;
	nicfit_node_kind_port(p->be_nic, p->be_port_gbps, NULL, &np);
	np.per_cage = per;
	np.finned = finned;
	for (k = 0; k < count && !dac; k++) {
		const struct nicfit_cable *c = nicfit_catalog_cable(cat, k);

		if (c->type == NICFIT_CABLE_DAC && c->split == 1 &&
		    fabs(c->gbps - per * np.gbps) < SPEED_MATCH_GBPS &&
		    (!(c->length_m > 0) || c->length_m + NICFIT_EPS >= len) &&
		    nicfit_cable_end_fits(c, 0, &np, NULL, 0) && nicfit_cable_end_fits(c, 1, &np, NULL, 0))
			dac = c;
	}
	if (dac) {
		add_cable(p, "backend", dac, np.cage, np.cage, per * np.gbps, len, cages,
			  "back to back, one per twin-port cage pair");
		plan_decide(&p->decisions, "R8", 1,
			    "Back end: two servers need no switch: their %d ports share %d twin-port "
			    "%s cages each; %d x %s join the cages pairwise.", ports, cages, np.cage,
			    cages, dac->part ? dac->part : dac->e.id);
		return 1;
	}
	o = twin_cage_optic(cat, &np);
	if (!o) {
		add_cable(p, "backend", NULL, np.cage, np.cage, per * np.gbps, len, cages,
			  "back to back, twin-port cage to twin-port cage");
		plan_decide(&p->decisions, "R8", 1,
			    "Back end: two servers need no switch, but their %d ports share %d twin-port "
			    "%s cages each and no catalog cable or optic fits such a cage.", ports, cages,
			    np.cage);
		return 1;
	}
	add_cable(p, "backend", o, np.cage, o->end_b, per * np.gbps, 0, 2 * cages,
		  "back to back, one in each twin-port cage of both servers");
	if (p->ncables > 0 && o->split > 1) /* its split end: a fibre connector per port */
		plan_fmt(p->cables[p->ncables - 1].ends, sizeof(p->cables[0].ends), "%s - %d x %s",
			 o->end_a, o->split, o->end_b);
	if ((x = nicfit__plan_new_cable(p))) {
		int smf = o->fiber && !strcmp(o->fiber, "SMF");

		nicfit__plan_copy(x->link, sizeof(x->link), "backend");
		plan_fmt(x->part, sizeof(x->part), "fiber-%s-%s-%gm",
			 o->end_b && !strncmp(o->end_b, "MPO", 3) ? "mpo12" : "lc", smf ? "smf" : "mmf",
			 len);
		plan_fmt(x->description, sizeof(x->description),
			 "%s %s fibre patch cord, %g m (generic)", o->end_b ? o->end_b : "LC",
			 smf ? "single-mode" : "multimode", len);
		nicfit__plan_copy(x->ends, sizeof(x->ends), "fiber");
		x->length_m = len;
		x->qty = ports;
	}
	plan_decide(&p->decisions, "R8", 1,
		    "Back end: two servers need no switch. Their %d ports share %d twin-port %s "
		    "cages each (%s top), which take neither single-port cables nor a DAC the catalog "
		    "has with that top at both ends: %d x %s, one in each cage of both servers, and "
		    "%d %s fibres of %g m, port to port.", ports, cages, np.cage,
		    finned == 1 ? "finned" : finned == 0 ? "flat" : "unknown", 2 * cages,
		    o->part ? o->part : o->e.id, ports, o->end_b ? o->end_b : "", len);
	return 1;
}

/*
 * R8, cables (docs/rules.md): one link per server to the top-of-rack
 * switch for the front end (Intel 700-series ports take only modules
 * coded for Intel at the NIC end), the back end card to card for two
 * servers or through the fabric R7 sized, and one RJ45 per BMC to the
 * management switch. DAC first, then AOC, within their reach: they cost
 * a fraction of optics and draw no power.
 */
void nicfit__plan_cables(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_cable *c;
	const char *fe_cage, *coding = NULL;
	int n = in->servers, swt;
	char why[120];

	/* front end: one link per server to the top-of-rack switch, none when converged */
	fe_cage = p->fe_converged ? NULL : p->fe_onboard ? p->fe_ob->cage :
		  p->fe_nic ? p->fe_nic->cage : "SFP+";
	if (p->fe_nic && p->fe_nic->module_coding && !strcmp(p->fe_nic->module_coding, "intel"))
		coding = "intel";
	if (!fe_cage) {
		plan_decide(&p->decisions, "R8", 1,
			    "Front end: no link of its own; it shares the storage and in-band links.");
	} else if (!strcmp(fe_cage, "RJ45")) {
		c = pick_cable(cat, "RJ45", "RJ45", p->fe_port_gbps, 1, in->rack_cable_m, NULL, NULL);
		add_cable(p, "frontend", c, "RJ45", "RJ45", p->fe_port_gbps, in->rack_cable_m, n,
			  "server to top-of-rack switch");
	} else {
		c = pick_cable(cat, fe_cage, fe_cage, p->fe_port_gbps, 1, in->rack_cable_m, coding, NULL);
		add_cable(p, "frontend", c, fe_cage, fe_cage, p->fe_port_gbps, in->rack_cable_m, n,
			  coding ? "server to top-of-rack switch, Intel-coded NIC end" :
			  "server to top-of-rack switch");
	}
	if (fe_cage && coding)
		plan_decide(&p->decisions, "R8", 1,
			    "Front end: %d x %s DAC to the top-of-rack switch. Intel 700-series "
			    "ports only link with Intel-coded modules, so the NIC end must be coded for Intel "
			    "(a DAC can carry a different coding at each end).", n, fe_cage);
	else if (fe_cage)
		plan_decide(&p->decisions, "R8", 1,
			    "Front end: %d x %s link%s to the top-of-rack switch.", n,
			    !strcmp(fe_cage, "RJ45") ? "10GBASE-T Cat6a" : fe_cage, n == 1 ? "" : "s");

	/* storage and in-band (plan_storage.c): one link per card, to one of two switches */
	if (p->st_nic) {
		const char *cage = p->st_nic->cage;

		c = pick_cable(cat, cage, cage, p->st_port_gbps, 1, in->rack_cable_m, NULL, NULL);
		add_cable(p, "storage", c, cage, cage, p->st_port_gbps, in->rack_cable_m,
			  n * p->st_cards, "server to the storage/in-band switches");
		plan_decide(&p->decisions, "R8", 1,
			    "Storage and in-band: %d x %s %gG link%s, one per card to each of two "
			    "switches.", n * p->st_cards, cage, p->st_port_gbps,
			    n * p->st_cards == 1 ? "" : "s");
	}

	/* back end: the accelerators' own cages (Gaudi 3) to switches nicfit cluster sizes */
	if (p->backend_needed && !p->be_nic && p->be_integrated &&
	    (in->servers > 1 || nicfit__plan_scaleup_split(in)))
		plan_backend_fabric(cat, p);
	if (p->backend_needed && p->be_nic) {
		const char *cage = p->be_nic->cage;
		double g = p->be_port_gbps;

		if (p->back_to_back && back_to_back_cages(cat, p)) {
			/* cabled there: twin-port optics and fibres between the cages */
		} else if (p->back_to_back) {
			double len = in->rack_cable_m / 2;

			c = pick_cable(cat, cage, cage, g, 1, len, "nvidia",
				       p->fabric == NICFIT_FABRIC_IB ? "infiniband" : "ethernet");
			plan_fmt(why, sizeof(why), "back to back, server 1 to server 2");
			add_cable(p, "backend", c, cage, cage, g, len, p->be_cards * p->be_ports, why);
			plan_decide(&p->decisions, "R8", 1,
				    "Back end: two servers need no switch: %d x %s %gG %s, "
				    "%.1f m, card to card.", p->be_cards * p->be_ports, cage, g,
				    c ? nicfit_cable_type_name(c->type) : "cable", c ? c->length_m : len);
		} else {
			plan_backend_fabric(cat, p);
		}
	}

	/* OOB: one RJ45 per server to the management switch, and one per NVLink
	 * switch tray of a rack-scale system's racks (their own BMCs) */
	c = pick_cable(cat, "RJ45", "RJ45", 1, 1, in->rack_cable_m, NULL, NULL);
	if (!c)
		c = pick_cable(cat, "RJ45", "RJ45", 10, 1, in->rack_cable_m, NULL, NULL);
	swt = in->server && in->server->rack_trays ?
	      nicfit__plan_racks(p) * in->server->rack_switch_trays : 0;
	add_cable(p, "oob", c, "RJ45", "RJ45", p->oob_gbps, in->rack_cable_m, n + swt,
		  swt ? "BMC to management switch: compute trays and NVLink switch trays" :
		  "BMC to management switch");
}
