/*
 * plan_parts.c - the later rules of the planner: fabric (R7), cables (R8),
 * estimates (R9), bill of materials (R10), notes (R11) and the verdict.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nicfit/cluster.h"
#include "nicfit/units.h"
#include "num_int.h"
#include "plan_int.h"

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

	if (!p->backend_needed || !p->be_nic)
		return;
	p->back_to_back = in->servers == 2 && !in->sw && in->workload != NICFIT_WL_RDMA_STORAGE;
	if (p->fabric == NICFIT_FABRIC_IB) {
		nicfit__decide(&p->decisions, "R7", 1,
			       "Fabric: InfiniBand%s. It needs a subnet manager: %s.",
			       p->be_card.ib_rate ? "" : " (the card has no InfiniBand rate)",
			       p->back_to_back ? "with two hosts cabled back to back, run opensm on one "
			       "of them" : "on a managed InfiniBand switch, or opensm on one host");
	} else {
		nicfit__decide(&p->decisions, "R7", 1,
			       "Fabric: RoCE v2 (RDMA over Converged Ethernet)%s.",
			       in->fabric == NICFIT_FABRIC_AUTO ?
			       " - chosen because it runs on Ethernet switches and skills you have; "
			       "give --fabric infiniband for InfiniBand" : "");
		if (p->back_to_back)
			nicfit__decide(&p->decisions, "R7", 1,
				       "Two servers back to back: no switch, so no PFC/ECN switch "
				       "configuration; set MTU 9000 on both ports (RoCE MTU 4096), put them in "
				       "one subnet, and use the RoCE v2 GID (NCCL_IB_GID_INDEX, see show_gids).");
		else
			nicfit__decide(&p->decisions, "R7", 1,
				       "RoCE needs a lossless Ethernet switch: PFC on the RoCE "
				       "priority (commonly 3), ECN marking for DCQCN congestion control, DSCP "
				       "trust (RoCE DSCP 26 to priority 3, CNP DSCP 48), MTU 9000 end to end, "
				       "and the RoCE v2 GID index on the hosts (NCCL_IB_GID_INDEX, usually 3).");
	}
	if (p->be_card.vpi)
		nicfit__decide(&p->decisions, "R7", 1,
			       "%s is a VPI card: each port runs InfiniBand or Ethernet. Set "
			       "it with mlxconfig -d <PCI address> set LINK_TYPE_P1=%d%s (1 = InfiniBand, "
			       "2 = Ethernet), then reset the card (mlxfwreset) or reboot.",
			       p->be_part, p->fabric == NICFIT_FABRIC_IB ? 1 : 2,
			       p->be_nic->ports > 1 ? (p->fabric == NICFIT_FABRIC_IB ?
						      " LINK_TYPE_P2=1" : " LINK_TYPE_P2=2") : "");
	else if (p->fabric == NICFIT_FABRIC_ROCE && (p->be_nic->rdma & NICFIT_RDMA_ROCE))
		nicfit__decide(&p->decisions, "R7", 0,
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

/*
 * The catalog cable for a link between cages a and b at gbps, at least
 * length_m long (0 = any), preferring DAC, then AOC, then optics, the coding
 * asked for ("intel", "nvidia", NULL), a sourced price, and the shortest
 * length. split > 1 asks for a breakout with that many legs. NULL if none.
 */
static const struct nicfit_cable *pick_cable(const struct nicfit_catalog *cat, const char *a,
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
		if (fabs((split > 1 ? c->lane_gbps : c->gbps) - gbps) > SPEED_MATCH_GBPS &&
		    !(split > 1 && fabs(c->gbps - gbps * split) < SPEED_MATCH_GBPS))
			continue;
		if (c->length_m > 0 && length_m > 0 && c->length_m + NICFIT_EPS < length_m)
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
 * The port speed (or breakout leg speed) a switch offers for a card of g
 * Gb/s: 1 when its ports run at g, n when they split n ways to g, 0 when
 * they do neither.
 */
static int switch_split(const struct nicfit_switch *sw, double g)
{
	char want[16];
	int k;

	if (fabs(sw->port_gbps - g) < SPEED_MATCH_GBPS)
		return 1;
	snprintf(want, sizeof(want), "%dx%g", (int)(sw->port_gbps / g + 0.5), g);
	for (k = 0; k < sw->nbreakout; k++)
		if (!strcmp(sw->breakout[k], want))
			return (int)(sw->port_gbps / g + 0.5);
	return 0;
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
		int sp, ports;

		if (strcmp(s->fabric, fabric))
			continue;
		sp = switch_split(s, gbps);
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
 * The cluster's findings about the back-end fabric (blocking, breakout
 * cables not verified...) join the plan's under their own codes
 * (cluster.*). The cluster result still holds them as notes, severity as a
 * word and the code in a buffer of its own; a code the registry does not
 * list yet keeps its string from the table below, so that the plan shows
 * it unchanged. When the cluster reports struct nicfit_findings this loop
 * reads cl->findings.v[] and carries each with nicfit__find_code() alone.
 */
static const char *const cluster_codes[] = {
	"cluster.back_to_back", "cluster.blocking", "cluster.breakout_unverified",
	"cluster.nic_no_rdma", "cluster.nic_not_ib", "cluster.nic_ports", "cluster.nic_slower",
	"cluster.not_lossless", "cluster.rack_full", "cluster.rail_only", "cluster.single_homed",
	"cluster.uplink_group", NULL
};

static void carry_cluster_findings(struct nicfit_plan *p, const struct nicfit_cluster *cl)
{
	int k, i;

	for (k = 0; k < cl->nfindings; k++) {
		const struct nicfit_cluster_note *n = &cl->findings[k];
		enum nicfit_severity sev = NICFIT_SEV_INFO;
		struct nicfit_finding *f;

		if (nicfit_severity_parse(n->severity, &sev) || sev == NICFIT_SEV_NONE)
			sev = NICFIT_SEV_INFO;
		if (nicfit_code_lookup(n->rule)) {
			nicfit__find_code(&p->findings, sev, n->rule, NULL, NULL, "%s", n->text);
			continue;
		}
		for (i = 0; cluster_codes[i] && strcmp(cluster_codes[i], n->rule); i++)
			;
		if (!cluster_codes[i]) {
			/* a code nobody registered is a bug; the recorder's one failure
			 * (the plan fails) rather than a finding dropped in silence */
			p->findings.oom = 1;
			continue;
		}
		f = nicfit__find(&p->findings, sev, NICFIT_CODE_FABRIC_TOO_LARGE, NULL, "%s", n->text);
		if (f)
			f->code = cluster_codes[i];
	}
}

/*
 * R7, the switch given (--switch): it must run at the card's speed,
 * natively or through breakout legs, or no server can link to it
 * (critical, and the fabric is not sized); it must also run the
 * back end's fabric (critical, but the sizing goes on, so that the rest
 * of the plan shows). Returns 0 when the fabric cannot be sized.
 */
static int check_given_switch(struct nicfit_plan *p, const struct nicfit_switch *sw,
			      const char *fabric)
{
	double g = p->be_port_gbps;

	if (!switch_split(sw, g)) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_SWITCH_SPEED,
				  "a switch whose ports (or breakout legs) run at the card's speed",
				  "%s ports run at %g Gb/s and do not split to %g Gb/s for %s.",
				  sw->e.name, sw->port_gbps, g, p->be_part);
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

	nicfit_cluster_input_default(&ci);
	ci.nodes = in->servers;
	ci.gpus_per_node = in->gpus_per_server;
	ci.nics_per_node = p->be_cards;
	ci.nic_ports = p->be_ports;
	ci.nic_id = NULL;
	ci.net[NICFIT_NET_BACKEND].links_per_node = p->be_cards * p->be_ports;
	ci.net[NICFIT_NET_BACKEND].link_gbps = p->be_port_gbps;
	ci.net[NICFIT_NET_BACKEND].switch_id = sw ? sw->e.id : NULL;
	ci.net[NICFIT_NET_BACKEND].radix = GENERIC_SWITCH_RADIX;
	ci.net[NICFIT_NET_BACKEND].switch_gbps = sw ? 0 : p->be_port_gbps;
	ci.net[NICFIT_NET_FRONTEND].links_per_node = 0;
	ci.net[NICFIT_NET_OOB].links_per_node = 0;
	ci.mgmt_ports = 0;
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
		nicfit__decide(&p->decisions, "R7", 1,
			       "Back-end switch: %s x %s (%d ports of %g Gb/s%s): %ld server "
			       "link%s, %ld of %ld ports free.", "1", be->sw.name, be->sw.ports,
			       be->sw.gbps, be->breakout > 1 ? ", split for the servers" : "",
			       be->endpoints, be->endpoints == 1 ? "" : "s", be->ports_free,
			       be->ports_total);
	else
		nicfit__decide(&p->decisions, "R7", 1,
			       "Back-end fabric (as nicfit cluster sizes it): %d tiers of %s "
			       "(%d ports of %g Gb/s): %ld leaf, %ld spine%s switches for %ld server "
			       "links, %ld leaf-spine links at %.2f:1.", be->tiers, be->sw.name,
			       be->sw.ports, be->sw.gbps, be->tier[NICFIT_TIER_LEAF].switches,
			       be->tier[NICFIT_TIER_SPINE].switches,
			       be->tiers > 2 ? " and core " : "", be->endpoints,
			       be->links[NICFIT_LINK_LEAF_SPINE], be->leaf_ratio);
}

/* The cluster's back-end cables become the plan's. */
static void carry_cluster_cables(struct nicfit_plan *p, const struct nicfit_cluster *cl)
{
	size_t i;

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
		sw = pick_switch(cat, fabric, p->be_port_gbps,
				 in->servers * p->be_cards * p->be_ports, &split);
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
	nicfit_cluster_free(cl);
	free(cl);
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
	int n = in->servers;
	char why[120];

	/* front end: one link per server to the top-of-rack switch */
	fe_cage = p->fe_onboard ? p->fe_ob->cage : p->fe_nic ? p->fe_nic->cage : "SFP+";
	if (p->fe_nic && p->fe_nic->module_coding && !strcmp(p->fe_nic->module_coding, "intel"))
		coding = "intel";
	if (!strcmp(fe_cage, "RJ45")) {
		c = pick_cable(cat, "RJ45", "RJ45", p->fe_port_gbps, 1, in->rack_cable_m, NULL);
		add_cable(p, "frontend", c, "RJ45", "RJ45", p->fe_port_gbps, in->rack_cable_m, n,
			  "server to top-of-rack switch");
	} else {
		c = pick_cable(cat, fe_cage, fe_cage, p->fe_port_gbps, 1, in->rack_cable_m, coding);
		add_cable(p, "frontend", c, fe_cage, fe_cage, p->fe_port_gbps, in->rack_cable_m, n,
			  coding ? "server to top-of-rack switch, Intel-coded NIC end" :
			  "server to top-of-rack switch");
	}
	if (coding)
		nicfit__decide(&p->decisions, "R8", 1,
			       "Front end: %d x %s DAC to the top-of-rack switch. Intel 700-series "
			       "ports only link with Intel-coded modules, so the NIC end must be coded for Intel "
			       "(a DAC can carry a different coding at each end).", n, fe_cage);
	else
		nicfit__decide(&p->decisions, "R8", 1,
			       "Front end: %d x %s link%s to the top-of-rack switch.", n,
			       !strcmp(fe_cage, "RJ45") ? "10GBASE-T Cat6a" : fe_cage, n == 1 ? "" : "s");

	/* back end */
	if (p->backend_needed && p->be_nic) {
		const char *cage = p->be_nic->cage;
		double g = p->be_port_gbps;

		if (p->back_to_back) {
			double len = in->rack_cable_m / 2;

			c = pick_cable(cat, cage, cage, g, 1, len, "nvidia");
			snprintf(why, sizeof(why), "back to back, server 1 to server 2");
			add_cable(p, "backend", c, cage, cage, g, len, p->be_cards * p->be_ports, why);
			nicfit__decide(&p->decisions, "R8", 1,
				       "Back end: two servers need no switch: %d x %s %gG %s, "
				       "%.1f m, card to card.", p->be_cards * p->be_ports, cage, g,
				       c ? nicfit_cable_type_name(c->type) : "cable", c ? c->length_m : len);
		} else {
			plan_backend_fabric(cat, p);
		}
	}

	/* OOB: one RJ45 per server to the management switch */
	c = pick_cable(cat, "RJ45", "RJ45", 1, 1, in->rack_cable_m, NULL);
	if (!c)
		c = pick_cable(cat, "RJ45", "RJ45", 10, 1, in->rack_cable_m, NULL);
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

/*
 * The alternatives R9 prices a training step on besides the plan's own
 * back end and the front end: 25G RoCE, the cheapest RDMA speed (the
 * budget lab of the planner's examples), and 200G RoCE, NVIDIA's per-node
 * guidance (R5), which takes a PCIe Gen4 slot or faster.
 */
#define ALT_LAB_GBPS 25.0
#define ALT_GUIDANCE_GBPS 200.0

/* The ring all-reduce of bytes over one RoCE port of gbps, as an estimate. */
static void est_roce(struct nicfit_plan *p, const char *label, double bytes, double gbps)
{
	struct nicfit_link_result lr;
	struct nicfit_speed sp;

	memset(&sp, 0, sizeof(sp));
	sp.gbps = gbps;
	sp.kind = NICFIT_SPEED_ETH;
	nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &p->in.link, &lr, NULL);
	add_est(p, label, lr.goodput_gbps,
		ring_seconds(p, bytes, lr.goodput_gbps, NICFIT_PROTO_ROCE, gbps));
}

/*
 * R9, a training step's gradient exchange (docs/rules.md): data-parallel
 * training all-reduces its bf16 gradients (2 bytes per trained parameter:
 * the whole model, or the adapters) every step; a ring sends 2(n-1)/n of
 * them per server. Timed over the plan's back end, the front end (what
 * going without a back end costs) and the alternatives above, so the
 * user sees what the back end buys.
 */
static void estimate_allreduce(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	double bytes = in->params * 2 * (p->adapters ? in->llm.adapter_share : 1);
	double t_fe, t_be = NAN;
	struct nicfit_link_result lr;
	struct nicfit_speed sp;
	char b1[32], b2[32], b3[32], label[64];

	p->grad_gb = bytes / 1e9;
	if (p->backend_needed && p->be_nic) {
		enum nicfit_proto proto = p->fabric == NICFIT_FABRIC_IB && p->be_card.ib_rate ?
					  NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;

		t_be = ring_seconds(p, bytes, p->be_node_gbps, proto, p->be_port_gbps);
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
	if (!(p->be_port_gbps == ALT_LAB_GBPS))
		est_roce(p, "25G RoCE v2 (budget lab)", bytes, ALT_LAB_GBPS);
	if (!(p->be_port_gbps == ALT_GUIDANCE_GBPS) && in->server->pcie_gen >= 4)
		est_roce(p, "200G RoCE v2", bytes, ALT_GUIDANCE_GBPS);
	nicfit__decide(&p->decisions, "R9", 1,
		       "Each training step all-reduces %s of bf16 gradients (%.3gB "
		       "%sparameters x 2 B): a ring across %d servers sends 2(n-1)/n of it per server%s%s "
		       "vs %s over the %g GbE front end. Overlap with compute hides part of it.",
		       nicfit_fmt_bytes(bytes, b1, sizeof(b1)), bytes / 2e9,
		       p->adapters ? "adapter " : "", in->servers,
		       isfinite(t_be) ? ": " : "", isfinite(t_be) ?
		       nicfit_fmt_seconds(t_be, b2, sizeof(b2)) : "",
		       nicfit_fmt_seconds(t_fe, b3, sizeof(b3)), p->fe_port_gbps);
}

/*
 * R9, a model split across servers: pipeline parallelism sends one
 * token's hidden state (hidden x 2 bytes) across each server boundary;
 * tensor parallelism all-reduces twice per layer, each 2(n-1)/n of the
 * hidden state, and waits on each. Both at the serving rate, so the user
 * sees why tensor parallelism stays inside a server.
 */
static void estimate_split(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_model *m = in->model;
	char b1[32], b2[32];
	int n;
	double tp, pp, toks;

	if (!m || !(m->arch.hidden > 0) || !(m->arch.layers > 0))
		return;
	n = in->servers > 1 ? in->servers : p->servers_needed;
	tp = 2.0 * m->arch.layers * 2.0 * (n - 1) / n * m->arch.hidden * 2;
	pp = (double)m->arch.hidden * 2;
	toks = in->tokens_per_s * (double)(in->concurrency > 0 ? in->concurrency : 1);
	nicfit__decide(&p->decisions, "R9", 1,
		       "Splitting %s across %d servers: pipeline parallel sends %s "
		       "per token across each server boundary; tensor parallel across servers "
		       "sends %s per token per server and waits on %d all-reduces per token. At "
		       "%.0f tokens/s that is %.3f vs %.2f Gb/s: keep tensor parallel inside a "
		       "server and pipeline parallel across servers.",
		       m->e.name, n, nicfit_fmt_bytes(pp, b1, sizeof(b1)),
		       nicfit_fmt_bytes(tp, b2, sizeof(b2)), 2 * m->arch.layers, toks,
		       pp * toks * 8 / 1e9, tp * toks * 8 / 1e9);
}

/* R9, estimates: what the network costs a training step, or a split model's token. */
void nicfit__plan_estimates(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;

	if (nicfit__plan_is_training(in->workload) && in->params > 0 && in->servers > 1)
		estimate_allreduce(p);
	if (in->workload == NICFIT_WL_MULTINODE_INFERENCE ||
	    (in->workload == NICFIT_WL_INFERENCE && p->backend_needed))
		estimate_split(p);
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

/*
 * R10, bill of materials (docs/rules.md): the cards (less those already
 * installed), the cables and the switches, with prices only where the
 * catalog has a sourced one; the rest are listed as unpriced, never
 * estimated, and the total says which it counts. A quote is as old as
 * its oldest price.
 */
void nicfit__plan_bom(const struct nicfit_catalog *cat, struct nicfit_plan *p)
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
			nicfit__decide(&p->decisions, "R10", 1,
				       "%d x %s per server %s already installed: not in the "
				       "bill of materials.", have, p->be_part, have == 1 ? "is" : "are");
	}
	if (!p->fe_onboard && p->fe_nic)
		add_line(p, &p->fe_nic->e, p->fe_nic->part, p->fe_nic->e.name, "frontend",
			 p->in.servers);
	for (i = 0; i < p->ncables; i++) {
		const struct nicfit_plan_cable *c = &p->cables[i];
		const struct nicfit_cable *cc = c->id[0] ? nicfit_find_cable(cat, c->id, "", NULL) : NULL;

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
	nicfit__decide(&p->decisions, "R10", 1,
		       "Bill of materials: %d line%s, %.2f USD for the priced ones%s%s%s; "
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
	nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_UNVERIFIED_DATA,
			  "check these against the vendor's documentation; correct them with --catalog",
			  "Facts about the %s %s that the catalog marks unverified: %s.", what, e->id, list);
}

/*
 * R11, notes (docs/rules.md): what the user should know that no earlier
 * rule decided. RoCE through a switch without PFC and ECN collapses under
 * congestion (a warning: the plan fails in production without it); the
 * rest is advice (infos): VPI port mode, Intel module coding, a GPU of a
 * newer PCIe generation than its server, what RDMA storage also needs,
 * catalog facts marked unverified, parts without a sourced price.
 */
void nicfit__plan_notes(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	int i;

	if (!p->backend_needed && in->workload != NICFIT_WL_REPLICATED && in->servers == 1)
		nicfit__decide(&p->decisions, "R11", 1,
			       "No ConnectX or InfiniBand card is needed for a single "
			       "inference server: the model's GPU traffic stays on PCIe, and 10GbE is "
			       "plenty for requests, model downloads and management.");
	if (p->backend_needed && p->be_nic && p->fabric == NICFIT_FABRIC_ROCE && !p->back_to_back)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_ROCE_LOSSLESS,
				  "enable PFC on the RoCE priority and ECN on the switch ports before the first "
				  "job; check counters (pause frames, CNPs) under load",
				  "RoCE without a lossless switch configuration collapses under congestion: "
				  "packet drops make RDMA retransmit and throughput falls to a fraction.");
	if (p->backend_needed && p->be_card.vpi)
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_VPI_PORT_MODE,
				  p->fabric == NICFIT_FABRIC_IB ? "mlxconfig -d <PCI address> set LINK_TYPE_P1=1" :
				  "mlxconfig -d <PCI address> set LINK_TYPE_P1=2",
				  "%s ports may arrive in either mode; a port in the wrong mode shows up as a "
				  "missing link or as the wrong link layer in ibstat.", p->be_part);
	if (p->fe_nic && p->fe_nic->module_coding && !strcmp(p->fe_nic->module_coding, "intel"))
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_INTEL_MODULE_CODING,
				  "order DACs and optics coded for Intel at the NIC end",
				  "The front-end %s checks module coding: a DAC or optic not coded for Intel "
				  "leaves the port down ('unsupported SFP module type').",
				  p->fe_onboard ? "X710 rNDC" : p->fe_nic->part);
	if (in->gpu && in->gpu->pcie_gen > in->server->pcie_gen)
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_GPU_PCIE_DOWNTRAINED, NULL,
				  "%s is a PCIe Gen%d card; in %s it runs at Gen%d x16, which halves host-to-GPU "
				  "copy bandwidth (model loading from RAM, offload) but does not affect the network "
				  "plan.", in->gpu->e.name, in->gpu->pcie_gen, in->server->e.name,
				  in->server->pcie_gen);
	if (in->workload == NICFIT_WL_RDMA_STORAGE)
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_RDMA_STORAGE, NULL,
				  "For RDMA storage, the storage targets need RDMA cards of at least the same "
				  "speed, and GPUDirect Storage (cuFile/nvidia-fs) lets the NIC write straight "
				  "into GPU memory.");
	unverified_note(p, &in->server->e, "server");
	if (p->be_nic)
		unverified_note(p, &p->be_nic->e, "card");
	for (i = 0; i < p->nbom; i++)
		if (!p->bom[i].priced) {
			nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_UNPRICED,
					  "nicfit catalog list -j > prices.json, add price_usd, prices_as_of and "
					  "price_source, then --catalog prices.json",
					  "Some parts have no sourced price and are listed as unpriced, not estimated.");
			break;
		}
}

/*
 * The verdict, the first line of every report: whether a back end is
 * needed and why, the card and fabric when it is, the model's fit and
 * the front end, in one paragraph a buyer can act on.
 */
void nicfit__plan_verdict(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	char fe[200], be[300], fit[200];
	char b[32];

	fit[0] = '\0';
	if (p->fit_known && !nicfit__plan_is_training(in->workload))
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
			 nicfit__plan_is_training(in->workload) ? "one server keeps its gradients on PCIe" :
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
		 nicfit__plan_is_training(in->workload) ? "gradients are exchanged every step" :
		 in->workload == NICFIT_WL_RDMA_STORAGE ? "RDMA storage" :
		 "one model spans servers", be, fit, fe);
}
