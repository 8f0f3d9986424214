/*
 * plan_parts.c - the later rules of the planner: fabric (R7), cables (R8),
 * estimates (R9), bill of materials (R10), notes (R11) and the verdict.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/cluster.h"
#include "nicfit/plan.h"
#include "nicfit/units.h"
#include "plan_int.h"

static int is_training(enum nicfit_workload w)
{
	return w == NICFIT_WL_TRAINING || w == NICFIT_WL_FINETUNING;
}

/* ---- R7: fabric --------------------------------------------------------- */

void plan_fabric(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;

	if (!p->backend_needed || !p->be_nic)
		return;
	p->back_to_back = in->servers == 2 && !in->sw && in->workload != NICFIT_WL_RDMA_STORAGE;
	if (p->fabric == NICFIT_FABRIC_IB) {
		plan_decide(p, "R7", 1, "Fabric: InfiniBand%s. It needs a subnet manager: %s.",
			    p->be_card.ib_rate ? "" : " (the card has no InfiniBand rate)",
			    p->back_to_back ? "with two hosts cabled back to back, run opensm on one "
			    "of them" : "on a managed InfiniBand switch, or opensm on one host");
	} else {
		plan_decide(p, "R7", 1, "Fabric: RoCE v2 (RDMA over Converged Ethernet)%s.",
			    in->fabric == NICFIT_FABRIC_AUTO ?
			    " - chosen because it runs on Ethernet switches and skills you have; "
			    "give --fabric infiniband for InfiniBand" : "");
		if (p->back_to_back)
			plan_decide(p, "R7", 1, "Two servers back to back: no switch, so no PFC/ECN switch "
				    "configuration; set MTU 9000 on both ports (RoCE MTU 4096), put them in "
				    "one subnet, and use the RoCE v2 GID (NCCL_IB_GID_INDEX, see show_gids).");
		else
			plan_decide(p, "R7", 1, "RoCE needs a lossless Ethernet switch: PFC on the RoCE "
				    "priority (commonly 3), ECN marking for DCQCN congestion control, DSCP "
				    "trust (RoCE DSCP 26 to priority 3, CNP DSCP 48), MTU 9000 end to end, "
				    "and the RoCE v2 GID index on the hosts (NCCL_IB_GID_INDEX, usually 3).");
	}
	if (p->be_card.vpi)
		plan_decide(p, "R7", 1, "%s is a VPI card: each port runs InfiniBand or Ethernet. Set "
			    "it with mlxconfig -d <PCI address> set LINK_TYPE_P1=%d%s (1 = InfiniBand, "
			    "2 = Ethernet), then reset the card (mlxfwreset) or reboot.",
			    p->be_part, p->fabric == NICFIT_FABRIC_IB ? 1 : 2,
			    p->be_nic->ports > 1 ? (p->fabric == NICFIT_FABRIC_IB ?
						   " LINK_TYPE_P2=1" : " LINK_TYPE_P2=2") : "");
	else if (p->fabric == NICFIT_FABRIC_ROCE && (p->be_nic->rdma & NICFIT_RDMA_ROCE))
		plan_decide(p, "R7", 0, "InfiniBand was not considered further: %s is Ethernet-only "
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

static int coding_score(const struct nicfit_cable *c, const char *want)
{
	const char *have = c->coding ? c->coding : "generic";

	if (!want)
		return !strcmp(have, "generic") || !strcmp(have, "nvidia") ? 0 : 1;
	if (!strcmp(want, "intel"))
		return !strcmp(have, "intel") ? 0 : !strcmp(have, "intel/nvidia") ? 1 : 5;
	if (!strcmp(want, "intel/nvidia"))
		return !strcmp(have, "intel/nvidia") ? 0 : !strcmp(have, "intel") ? 1 : 5;
	return !strcmp(have, want) ? 0 : !strcmp(have, "generic") ? 1 : 3;
}

const struct nicfit_cable *plan_pick_cable(const struct nicfit_catalog *cat, const char *a,
					   const char *b, double gbps, int split,
					   double length_m, const char *coding)
{
	const struct nicfit_cable *best = NULL;
	size_t i;

	for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_CABLE); i++) {
		const struct nicfit_cable *c = nicfit_catalog_cable(cat, i);
		int ends = (!strcmp(c->end_a, a) && !strcmp(c->end_b, b)) ||
			   (!strcmp(c->end_a, b) && !strcmp(c->end_b, a));

		if (c->type == NICFIT_CABLE_OPTIC || !ends)
			continue;
		if ((split > 1) != (c->split > 1) || (split > 1 && c->split != split))
			continue;
		if (fabs((split > 1 ? c->lane_gbps : c->gbps) - gbps) > 0.01 &&
		    !(split > 1 && fabs(c->gbps - gbps * split) < 0.01))
			continue;
		if (c->length_m > 0 && length_m > 0 && c->length_m + 1e-9 < length_m)
			continue;
		if (c->max_length_m > 0 && length_m > c->max_length_m)
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
		if (coding_score(c, coding) != coding_score(best, coding)) {
			if (coding_score(c, coding) < coding_score(best, coding))
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

	if (p->ncables >= NICFIT_PLAN_MAX_CABLES || qty <= 0)
		return;
	x = &p->cables[p->ncables++];
	snprintf(x->link, sizeof(x->link), "%s", link);
	x->qty = qty;
	x->length_m = c && c->length_m > 0 ? c->length_m : len;
	snprintf(x->ends, sizeof(x->ends), "%s - %s", a, b);
	if (c) {
		snprintf(x->id, sizeof(x->id), "%s", c->e.id);
		snprintf(x->part, sizeof(x->part), "%s", c->part ? c->part : c->e.id);
		snprintf(x->description, sizeof(x->description), "%s (%s)", c->e.name, why);
	} else {
		snprintf(x->part, sizeof(x->part), "%s %gG cable", a, gbps);
		snprintf(x->description, sizeof(x->description),
			 "%s to %s, %g Gb/s, %.1f m (%s) - not in the catalog", a, b, gbps, len, why);
	}
}

/*
 * A catalog switch for `links` server links of `gbps` each on `fabric`:
 * the smallest that takes them all (natively or by splitting faster ports),
 * else the one with the most ports for a leaf-spine fabric. NULL if no
 * catalog switch runs at that speed.
 */
static const struct nicfit_switch *pick_switch(const struct nicfit_catalog *cat,
					       const char *fabric, double gbps, int links,
					       int *split)
{
	const struct nicfit_switch *best = NULL, *largest = NULL;
	int best_split = 1, largest_split = 1, largest_ports = 0;
	size_t i;

	for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_SWITCH); i++) {
		const struct nicfit_switch *s = nicfit_catalog_switch(cat, i);
		int sp = 0, k, ports;

		if (strcmp(s->fabric, fabric))
			continue;
		if (fabs(s->port_gbps - gbps) < 0.01) {
			sp = 1;
		} else {
			char want[16];

			snprintf(want, sizeof(want), "%dx%g", (int)(s->port_gbps / gbps + 0.5), gbps);
			for (k = 0; k < s->nbreakout; k++)
				if (!strcmp(s->breakout[k], want))
					sp = (int)(s->port_gbps / gbps + 0.5);
		}
		if (!sp)
			continue;
		ports = s->ports * sp;
		if (s->max_logical_ports && ports > s->max_logical_ports)
			ports = s->max_logical_ports;
		if (ports > largest_ports) {
			largest = s;
			largest_split = sp;
			largest_ports = ports;
		}
		if (ports < links)
			continue;
		if (!best || s->ports * sp < best->ports * best_split ||
		    (s->ports * sp == best->ports * best_split && sp < best_split)) {
			best = s;
			best_split = sp;
		}
	}
	if (best) {
		*split = best_split;
		return best;
	}
	*split = largest_split;
	return largest;
}

/*
 * The back end through switches: nicfit_cluster sizes the fabric (one
 * switch, or leaves and spines) for the plan's servers, and its switch and
 * cable lines join the plan. Front-end and management switches are the
 * site's; plan cables the servers to them.
 */
static void plan_backend_fabric(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const char *fabric = p->fabric == NICFIT_FABRIC_IB ? "infiniband" : "ethernet";
	struct nicfit_cluster_input ci;
	struct nicfit_cluster *cl;
	struct nicfit_cluster_net *be;
	struct nicfit_error err;
	const struct nicfit_switch *sw = in->sw;
	double g = p->be_port_gbps;
	int links = in->servers * p->be_cards * p->be_ports, split = 1, k;
	size_t i;

	if (sw) {
		split = 0;
		if (fabs(sw->port_gbps - g) < 0.01)
			split = 1;
		for (k = 0; k < sw->nbreakout && !split; k++) {
			char want[16];

			snprintf(want, sizeof(want), "%dx%g", (int)(sw->port_gbps / g + 0.5), g);
			if (!strcmp(sw->breakout[k], want))
				split = (int)(sw->port_gbps / g + 0.5);
		}
		if (!split) {
			plan_find(p, NICFIT_SEV_CRITICAL, "switch-speed",
				  "a switch whose ports (or breakout legs) run at the card's speed",
				  "%s ports run at %g Gb/s and do not split to %g Gb/s for %s.",
				  sw->e.name, sw->port_gbps, g, p->be_part);
			return;
		}
		if (strcmp(sw->fabric, fabric))
			plan_find(p, NICFIT_SEV_CRITICAL, "switch-fabric",
				  "an InfiniBand switch for InfiniBand, an Ethernet switch for RoCE",
				  "%s is an %s switch but the back end runs %s.", sw->e.name, sw->fabric,
				  p->fabric == NICFIT_FABRIC_IB ? "InfiniBand" : "RoCE v2 over Ethernet");
	} else {
		sw = pick_switch(cat, fabric, g, links, &split);
	}
	cl = calloc(1, sizeof(*cl));
	if (!cl)
		return;
	nicfit_cluster_input_default(&ci);
	ci.nodes = in->servers;
	ci.gpus_per_node = in->gpus_per_server;
	ci.nics_per_node = p->be_cards;
	ci.nic_ports = p->be_ports;
	ci.nic_id = NULL; /* plan lists the cards itself */
	ci.net[NICFIT_NET_BACKEND].links_per_node = p->be_cards * p->be_ports;
	ci.net[NICFIT_NET_BACKEND].link_gbps = g;
	ci.net[NICFIT_NET_BACKEND].switch_id = sw ? sw->e.id : NULL;
	ci.net[NICFIT_NET_BACKEND].radix = 64;
	ci.net[NICFIT_NET_BACKEND].switch_gbps = sw ? 0 : g;
	ci.net[NICFIT_NET_FRONTEND].links_per_node = 0;
	ci.net[NICFIT_NET_OOB].links_per_node = 0;
	ci.mgmt_ports = 0;
	nicfit_error_clear(&err);
	if (nicfit_cluster_size(&ci, cat, cl, &err)) {
		plan_find(p, NICFIT_SEV_CRITICAL, "fabric-too-large",
			  "more planes or a larger switch: see nicfit cluster", "%s", err.msg);
		nicfit_cluster_free(cl);
		free(cl);
		return;
	}
	be = &cl->net[NICFIT_NET_BACKEND];
	if (be->tiers == 1)
		plan_decide(p, "R7", 1, "Back-end switch: %s x %s (%d ports of %g Gb/s%s): %ld server "
			    "link%s, %ld of %ld ports free.", "1", be->sw.name, be->sw.ports, be->sw.gbps,
			    be->breakout > 1 ? ", split for the servers" : "", be->endpoints,
			    be->endpoints == 1 ? "" : "s", be->ports_free, be->ports_total);
	else
		plan_decide(p, "R7", 1, "Back-end fabric (as nicfit cluster sizes it): %d tiers of %s "
			    "(%d ports of %g Gb/s): %ld leaf, %ld spine%s%s switches for %ld server links, "
			    "%ld leaf-spine links at %.2f:1.", be->tiers, be->sw.name, be->sw.ports,
			    be->sw.gbps, be->tier[NICFIT_TIER_LEAF].switches,
			    be->tier[NICFIT_TIER_SPINE].switches,
			    be->tiers > 2 ? " and core " : "", be->tiers > 2 ? "" : "", be->endpoints,
			    be->links[NICFIT_LINK_LEAF_SPINE], be->leaf_ratio);
	for (i = 0; i < cl->ncables; i++) {
		const struct nicfit_cluster_cable *cc = &cl->cables[i];
		struct nicfit_plan_cable *x;

		if (cc->net != NICFIT_NET_BACKEND || p->ncables >= NICFIT_PLAN_MAX_CABLES)
			continue;
		x = &p->cables[p->ncables++];
		memset(x, 0, sizeof(*x));
		snprintf(x->link, sizeof(x->link), "%s", cc->level == NICFIT_LINK_HOST ? "backend" :
			 "backend-fabric");
		snprintf(x->id, sizeof(x->id), "%s", cc->cat ? cc->cat->e.id : "");
		snprintf(x->part, sizeof(x->part), "%s", cc->cat && cc->cat->part ? cc->cat->part : cc->part);
		snprintf(x->description, sizeof(x->description), "%s", cc->description);
		snprintf(x->ends, sizeof(x->ends), "%s", cc->cat ? "" : cc->type);
		if (cc->cat)
			snprintf(x->ends, sizeof(x->ends), "%s - %s%s", cc->cat->end_a,
				 cc->cat->split > 1 ? "4 x " : "", cc->cat->end_b);
		x->length_m = cc->length_m;
		x->qty = (int)cc->qty;
	}
	for (i = 0; i < cl->nbom; i++) {
		const struct nicfit_cluster_bom_line *b = &cl->bom[i];
		const struct nicfit_entry *e = nicfit_catalog_lookup(cat, b->part, NULL);
		enum nicfit_kind kind = NICFIT_KIND_CABLE;
		struct nicfit_plan_line *l;

		/* cables come back through p->cables; keep the switches here */
		if ((e && nicfit_catalog_lookup(cat, b->part, &kind) && kind != NICFIT_KIND_SWITCH) ||
		    (!e && strncmp(b->part, "generic-", 8)) || p->nbom >= NICFIT_PLAN_MAX_LINES)
			continue;
		l = &p->bom[p->nbom++];
		memset(l, 0, sizeof(*l));
		snprintf(l->id, sizeof(l->id), "%s", e ? e->id : "");
		snprintf(l->part, sizeof(l->part), "%s", b->part);
		snprintf(l->description, sizeof(l->description), "%s", b->description);
		snprintf(l->role, sizeof(l->role), "switch");
		l->qty = (int)b->qty;
		l->priced = b->priced;
		l->unit_usd = b->unit_usd;
		if (b->priced) {
			snprintf(l->prices_as_of, sizeof(l->prices_as_of), "%s", b->prices_as_of ? b->prices_as_of : "");
			snprintf(l->source, sizeof(l->source), "%s", b->source ? b->source : "");
		}
	}
	for (k = 0; k < cl->nfindings; k++) {
		const struct nicfit_cluster_note *f = &cl->findings[k];

		plan_find(p, !strcmp(f->severity, "critical") ? NICFIT_SEV_CRITICAL :
			  !strcmp(f->severity, "warning") ? NICFIT_SEV_WARNING : NICFIT_SEV_INFO,
			  f->rule, NULL, "%s", f->text);
	}
	if (!in->sw && !sw)
		plan_find(p, NICFIT_SEV_INFO, "generic-switch",
			  "give --switch ID (nicfit catalog list switches) or add yours with --catalog",
			  "No catalog %s switch takes %g Gb/s ports for this many servers: the plan uses a "
			  "generic %d-port switch, unpriced.", fabric, g, be->sw.ports);
	nicfit_cluster_free(cl);
	free(cl);
}

void plan_cables(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_cable *c;
	const char *fe_cage, *coding = NULL;
	int n = in->servers;
	char why[120];

	/* front end: one link per server to the top-of-rack switch */
	fe_cage = p->fe_onboard ? p->fe_ob->cage : p->fe_nic ? p->fe_nic->cage : "SFP+";
	if (p->fe_nic && p->fe_nic->module_coding && !strcmp(p->fe_nic->module_coding, "intel"))
		coding = "intel";
	if (!strcmp(fe_cage, "RJ45")) {
		c = plan_pick_cable(cat, "RJ45", "RJ45", p->fe_port_gbps, 1, in->rack_cable_m, NULL);
		add_cable(p, "frontend", c, "RJ45", "RJ45", p->fe_port_gbps, in->rack_cable_m, n,
			  "server to top-of-rack switch");
	} else {
		c = plan_pick_cable(cat, fe_cage, fe_cage, p->fe_port_gbps, 1, in->rack_cable_m, coding);
		add_cable(p, "frontend", c, fe_cage, fe_cage, p->fe_port_gbps, in->rack_cable_m, n,
			  coding ? "server to top-of-rack switch, Intel-coded NIC end" :
			  "server to top-of-rack switch");
	}
	if (coding)
		plan_decide(p, "R8", 1, "Front end: %d x %s DAC to the top-of-rack switch. Intel 700-series "
			    "ports only link with Intel-coded modules, so the NIC end must be coded for Intel "
			    "(a DAC can carry a different coding at each end).", n, fe_cage);
	else
		plan_decide(p, "R8", 1, "Front end: %d x %s link%s to the top-of-rack switch.", n,
			    !strcmp(fe_cage, "RJ45") ? "10GBASE-T Cat6a" : fe_cage, n == 1 ? "" : "s");

	/* back end */
	if (p->backend_needed && p->be_nic) {
		const char *cage = p->be_nic->cage;
		double g = p->be_port_gbps;

		if (p->back_to_back) {
			double len = in->rack_cable_m / 2;

			c = plan_pick_cable(cat, cage, cage, g, 1, len, "nvidia");
			snprintf(why, sizeof(why), "back to back, server 1 to server 2");
			add_cable(p, "backend", c, cage, cage, g, len, p->be_cards * p->be_ports, why);
			plan_decide(p, "R8", 1, "Back end: two servers need no switch: %d x %s %gG %s, "
				    "%.1f m, card to card.", p->be_cards * p->be_ports, cage, g,
				    c ? nicfit_cable_type_name(c->type) : "cable", c ? c->length_m : len);
		} else {
			plan_backend_fabric(cat, p);
		}
	}

	/* OOB: one RJ45 per server to the management switch */
	c = plan_pick_cable(cat, "RJ45", "RJ45", 1, 1, in->rack_cable_m, NULL);
	if (!c)
		c = plan_pick_cable(cat, "RJ45", "RJ45", 10, 1, in->rack_cable_m, NULL);
	add_cable(p, "oob", c, "RJ45", "RJ45", p->oob_gbps, in->rack_cable_m, n,
		  "BMC to management switch");
}

/* ---- R9: estimates ------------------------------------------------------ */

static void add_est(struct nicfit_plan *p, const char *label, double gbps, double seconds)
{
	struct nicfit_plan_estimate *e;

	if (p->nest >= NICFIT_PLAN_MAX_ESTIMATES)
		return;
	e = &p->est[p->nest++];
	snprintf(e->label, sizeof(e->label), "%s", label);
	e->gbps = gbps;
	e->seconds = seconds;
}

static double ring_seconds(const struct nicfit_plan *p, double bytes, double node_gbps,
			   enum nicfit_proto proto, double line)
{
	struct nicfit_speed sp;
	struct nicfit_allreduce ar;

	memset(&sp, 0, sizeof(sp));
	sp.gbps = line;
	sp.kind = proto == NICFIT_PROTO_IB ? NICFIT_SPEED_ANY : NICFIT_SPEED_ETH;
	if (nicfit_calc_allreduce(bytes, p->in.servers, 1, &sp, proto, node_gbps, &p->in.link,
				  &p->in.ar, &ar, NULL))
		return NAN;
	return ar.seconds;
}

void plan_estimates(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	char b1[32], b2[32], b3[32], label[64];

	if (is_training(in->workload) && in->params > 0 && in->servers > 1) {
		/* bf16 gradients: of the whole model, or of the adapters only */
		double bytes = in->params * 2 * (p->adapters ? in->llm.adapter_share : 1);
		double t_fe, t_be = NAN;
		struct nicfit_link_result lr;
		struct nicfit_speed sp;

		p->grad_gb = bytes / 1e9;
		if (p->backend_needed && p->be_nic) {
			enum nicfit_proto proto = p->fabric == NICFIT_FABRIC_IB && p->be_card.ib_rate ?
						  NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;

			t_be = ring_seconds(p, bytes, p->be_node_gbps, proto,
					    proto == NICFIT_PROTO_IB ? p->be_port_gbps : p->be_port_gbps);
			snprintf(label, sizeof(label), "%s %gG %s (this plan)", p->be_part, p->be_port_gbps,
				 proto == NICFIT_PROTO_IB ? "InfiniBand" : "RoCE v2");
			add_est(p, label, p->be_node_gbps, t_be);
		}
		memset(&sp, 0, sizeof(sp));
		sp.gbps = p->fe_port_gbps;
		sp.kind = NICFIT_SPEED_ETH;
		nicfit_link_calc(&sp, NICFIT_PROTO_TCP, &in->link, &lr, NULL);
		t_fe = ring_seconds(p, bytes, lr.goodput_gbps, NICFIT_PROTO_TCP, p->fe_port_gbps);
		snprintf(label, sizeof(label), "%gGbE front end, TCP (no back end)", p->fe_port_gbps);
		add_est(p, label, lr.goodput_gbps, t_fe);
		if (!(p->be_port_gbps == 25)) {
			sp.gbps = 25;
			nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &in->link, &lr, NULL);
			add_est(p, "25G RoCE v2 (budget lab)", lr.goodput_gbps,
				ring_seconds(p, bytes, lr.goodput_gbps, NICFIT_PROTO_ROCE, 25));
		}
		if (!(p->be_port_gbps == 200) && in->server->pcie_gen >= 4) {
			sp.gbps = 200;
			nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &in->link, &lr, NULL);
			add_est(p, "200G RoCE v2", lr.goodput_gbps,
				ring_seconds(p, bytes, lr.goodput_gbps, NICFIT_PROTO_ROCE, 200));
		}
		plan_decide(p, "R9", 1, "Each training step all-reduces %s of bf16 gradients (%.3gB "
			    "%sparameters x 2 B): a ring across %d servers sends 2(n-1)/n of it per server%s%s "
			    "vs %s over the %g GbE front end. Overlap with compute hides part of it.",
			    nicfit_fmt_bytes(bytes, b1, sizeof(b1)), bytes / 2e9,
			    p->adapters ? "adapter " : "", in->servers,
			    isfinite(t_be) ? ": " : "", isfinite(t_be) ?
			    nicfit_fmt_seconds(t_be, b2, sizeof(b2)) : "",
			    nicfit_fmt_seconds(t_fe, b3, sizeof(b3)), p->fe_port_gbps);
	}
	if (in->workload == NICFIT_WL_MULTINODE_INFERENCE ||
	    (in->workload == NICFIT_WL_INFERENCE && p->backend_needed)) {
		const struct nicfit_model *m = in->model;

		if (m && m->arch.hidden > 0 && m->arch.layers > 0) {
			int n = in->servers > 1 ? in->servers : p->servers_needed;
			double tp = 2.0 * m->arch.layers * 2.0 * (n - 1) / n * m->arch.hidden * 2;
			double pp = (double)m->arch.hidden * 2;
			double toks = in->tokens_per_s * (double)(in->concurrency > 0 ? in->concurrency : 1);

			plan_decide(p, "R9", 1, "Splitting %s across %d servers: pipeline parallel sends %s "
				    "per token across each server boundary; tensor parallel across servers "
				    "sends %s per token per server and waits on %d all-reduces per token. At "
				    "%.0f tokens/s that is %.3f vs %.2f Gb/s: keep tensor parallel inside a "
				    "server and pipeline parallel across servers.",
				    m->e.name, n, nicfit_fmt_bytes(pp, b1, sizeof(b1)),
				    nicfit_fmt_bytes(tp, b2, sizeof(b2)), 2 * m->arch.layers, toks,
				    pp * toks * 8 / 1e9, tp * toks * 8 / 1e9);
		}
	}
}

/* ---- R10: bill of materials --------------------------------------------- */

static void add_line(struct nicfit_plan *p, const struct nicfit_entry *e, const char *part,
		     const char *desc, const char *role, int qty)
{
	struct nicfit_plan_line *l;
	int i;

	if (qty <= 0)
		return;
	for (i = 0; i < p->nbom; i++)
		if (e && !strcmp(p->bom[i].id, e->id)) {
			p->bom[i].qty += qty;
			return;
		}
	if (p->nbom >= NICFIT_PLAN_MAX_LINES)
		return;
	l = &p->bom[p->nbom++];
	memset(l, 0, sizeof(*l));
	snprintf(l->id, sizeof(l->id), "%s", e ? e->id : "");
	snprintf(l->part, sizeof(l->part), "%s", part);
	snprintf(l->description, sizeof(l->description), "%s", desc);
	snprintf(l->role, sizeof(l->role), "%s", role);
	l->qty = qty;
	if (e && e->priced) {
		l->priced = 1;
		l->unit_usd = e->price_usd;
		snprintf(l->prices_as_of, sizeof(l->prices_as_of), "%s", e->prices_as_of ? e->prices_as_of : "");
		snprintf(l->source, sizeof(l->source), "%s", e->price_source ? e->price_source : "");
	}
}

void plan_bom(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	struct nicfit_plan_line sw[NICFIT_PLAN_MAX_LINES];
	int nsw = 0, i, unpriced = 0;

	/* switch lines were added while cabling; keep them after the cards */
	for (i = 0; i < p->nbom; i++)
		sw[nsw++] = p->bom[i];
	p->nbom = 0;
	if (p->backend_needed && p->be_nic) {
		int have = p->in.installed_cards > p->be_cards ? p->be_cards : p->in.installed_cards;

		add_line(p, &p->be_nic->e, p->be_nic->part, p->be_nic->e.name, "backend",
			 p->in.servers * (p->be_cards - have));
		if (have)
			plan_decide(p, "R10", 1, "%d x %s per server %s already installed: not in the "
				    "bill of materials.", have, p->be_part, have == 1 ? "is" : "are");
	}
	if (!p->fe_onboard && p->fe_nic)
		add_line(p, &p->fe_nic->e, p->fe_nic->part, p->fe_nic->e.name, "frontend",
			 p->in.servers);
	for (i = 0; i < p->ncables; i++) {
		const struct nicfit_plan_cable *c = &p->cables[i];
		const struct nicfit_cable *cc = c->id[0] ? nicfit_catalog_find_cable(cat, c->id, "", NULL) : NULL;

		add_line(p, cc ? &cc->e : NULL, c->part, cc ? cc->e.name : c->description, c->link, c->qty);
	}
	for (i = 0; i < nsw && p->nbom < NICFIT_PLAN_MAX_LINES; i++)
		p->bom[p->nbom++] = sw[i];
	p->total_usd = 0;
	p->prices_as_of[0] = '\0';
	for (i = 0; i < p->nbom; i++) {
		struct nicfit_plan_line *l = &p->bom[i];

		if (l->priced) {
			l->total_usd = l->unit_usd * l->qty;
			p->total_usd += l->total_usd;
			/* a quote is as old as its oldest price */
			if (!p->prices_as_of[0] || strcmp(l->prices_as_of, p->prices_as_of) < 0)
				snprintf(p->prices_as_of, sizeof(p->prices_as_of), "%s", l->prices_as_of);
		} else {
			unpriced++;
		}
	}
	plan_decide(p, "R10", 1, "Bill of materials: %d line%s, %.2f USD for the priced ones%s%s%s; "
		    "%d line%s without a sourced price (never estimated: add yours with --catalog).",
		    p->nbom, p->nbom == 1 ? "" : "s", p->total_usd,
		    p->prices_as_of[0] ? " (prices as of " : "", p->prices_as_of,
		    p->prices_as_of[0] ? ")" : "", unpriced, unpriced == 1 ? "" : "s");
}

/* ---- R11: notes --------------------------------------------------------- */

static void unverified_note(struct nicfit_plan *p, const struct nicfit_entry *e, const char *what)
{
	char list[300];
	size_t k = 0;
	int i;

	if (!e || !e->nunverified)
		return;
	list[0] = '\0';
	for (i = 0; i < e->nunverified && k < sizeof(list); i++)
		k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%s", i ? ", " : "", e->unverified[i]);
	plan_find(p, NICFIT_SEV_INFO, "unverified-data",
		  "check these against the vendor's documentation; correct them with --catalog",
		  "Facts about the %s %s that the catalog marks unverified: %s.", what, e->id, list);
}

void plan_notes(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	int i;

	if (!p->backend_needed && in->workload != NICFIT_WL_REPLICATED && in->servers == 1)
		plan_decide(p, "R11", 1, "No ConnectX or InfiniBand card is needed for a single "
			    "inference server: the model's GPU traffic stays on PCIe, and 10GbE is "
			    "plenty for requests, model downloads and management.");
	if (p->backend_needed && p->be_nic && p->fabric == NICFIT_FABRIC_ROCE && !p->back_to_back)
		plan_find(p, NICFIT_SEV_WARNING, "roce-lossless",
			  "enable PFC on the RoCE priority and ECN on the switch ports before the first "
			  "job; check counters (pause frames, CNPs) under load",
			  "RoCE without a lossless switch configuration collapses under congestion: "
			  "packet drops make RDMA retransmit and throughput falls to a fraction.");
	if (p->backend_needed && p->be_card.vpi)
		plan_find(p, NICFIT_SEV_INFO, "vpi-port-mode",
			  p->fabric == NICFIT_FABRIC_IB ? "mlxconfig -d <PCI address> set LINK_TYPE_P1=1" :
			  "mlxconfig -d <PCI address> set LINK_TYPE_P1=2",
			  "%s ports may arrive in either mode; a port in the wrong mode shows up as a "
			  "missing link or as the wrong link layer in ibstat.", p->be_part);
	if (p->fe_nic && p->fe_nic->module_coding && !strcmp(p->fe_nic->module_coding, "intel"))
		plan_find(p, NICFIT_SEV_INFO, "intel-module-coding",
			  "order DACs and optics coded for Intel at the NIC end",
			  "The front-end %s checks module coding: a DAC or optic not coded for Intel "
			  "leaves the port down ('unsupported SFP module type').",
			  p->fe_onboard ? "X710 rNDC" : p->fe_nic->part);
	if (in->gpu && in->gpu->pcie_gen > in->server->pcie_gen)
		plan_find(p, NICFIT_SEV_INFO, "gpu-pcie-downtrained", NULL,
			  "%s is a PCIe Gen%d card; in %s it runs at Gen%d x16, which halves host-to-GPU "
			  "copy bandwidth (model loading from RAM, offload) but does not affect the network "
			  "plan.", in->gpu->e.name, in->gpu->pcie_gen, in->server->e.name,
			  in->server->pcie_gen);
	if (in->workload == NICFIT_WL_RDMA_STORAGE)
		plan_find(p, NICFIT_SEV_INFO, "rdma-storage", NULL,
			  "For RDMA storage, the storage targets need RDMA cards of at least the same "
			  "speed, and GPUDirect Storage (cuFile/nvidia-fs) lets the NIC write straight "
			  "into GPU memory.");
	unverified_note(p, &in->server->e, "server");
	if (p->be_nic)
		unverified_note(p, &p->be_nic->e, "card");
	for (i = 0; i < p->nbom; i++)
		if (!p->bom[i].priced) {
			plan_find(p, NICFIT_SEV_INFO, "unpriced",
				  "nicfit catalog list -j > prices.json, add price_usd, prices_as_of and "
				  "price_source, then --catalog prices.json",
				  "Some parts have no sourced price and are listed as unpriced, not estimated.");
			break;
		}
}

void plan_verdict(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	char fe[200], be[300], fit[200];
	char b[32];

	fit[0] = '\0';
	if (p->fit_known && !is_training(in->workload))
		snprintf(fit, sizeof(fit), " %s at %s (%.1f GB) %s its %d x %s (%.1f GB usable).",
			 in->model ? in->model->e.name : "The model", nicfit_precision_name(in->precision),
			 p->fit.total_gb, p->fits_one_server ? "fits" : "does not fit",
			 in->gpus_per_server, in->gpu->e.name, p->fit.capacity_gb);
	if (p->fe_onboard)
		snprintf(fe, sizeof(fe), "Front end: the onboard %g GbE %s is enough%s%s.",
			 p->fe_port_gbps, p->fe_nic ? p->fe_nic->family : p->fe_ob->name,
			 p->load_s > 0 ? "; the weights load in " : "",
			 p->load_s > 0 ? nicfit_fmt_seconds(p->load_s, b, sizeof(b)) : "");
	else
		snprintf(fe, sizeof(fe), "Front end: %s, %g GbE%s%s.", p->fe_nic ? p->fe_nic->part : "a card",
			 p->fe_port_gbps, p->load_s > 0 ? "; the weights load in " : "",
			 p->load_s > 0 ? nicfit_fmt_seconds(p->load_s, b, sizeof(b)) : "");
	if (!p->backend_needed) {
		snprintf(p->verdict, sizeof(p->verdict), "%d x %s: no back-end fabric needed (%s).%s %s",
			 in->servers, in->server->e.name,
			 in->workload == NICFIT_WL_REPLICATED ? "independent replicas" :
			 is_training(in->workload) ? "one server keeps its gradients on PCIe" :
			 p->fit_known ? "the model fits one server" :
			 "assuming the model fits one server: fit not checked", fit, fe);
		return;
	}
	if (p->be_nic)
		snprintf(be, sizeof(be), "%d x %s per server at %.1f Gb/s, %s%s", p->be_cards, p->be_part,
			 p->be_effective_gbps,
			 p->fabric == NICFIT_FABRIC_IB ? "InfiniBand" : "RoCE v2",
			 p->back_to_back ? ", back to back" : "");
	else
		snprintf(be, sizeof(be), "no suitable card found (see findings)");
	snprintf(p->verdict, sizeof(p->verdict), "%d x %s need a back-end RDMA fabric (%s): %s.%s %s",
		 in->servers, in->server->e.name,
		 is_training(in->workload) ? "gradients are exchanged every step" :
		 in->workload == NICFIT_WL_RDMA_STORAGE ? "RDMA storage" :
		 "one model spans servers", be, fit, fe);
}
