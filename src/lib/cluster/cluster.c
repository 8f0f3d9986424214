/*
 * cluster.c - sizing the networks of N GPU servers (see nicfit/cluster.h):
 * leaf capacity from radix, split and oversubscription; the leaf layer as
 * groups of nodes (rails, racks); spines and cores filled instead of
 * over-provisioned; then where every switch stands, which the cable
 * lengths come from.
 *
 * The textbook limits follow from the leaf design: a leaf with radix R at
 * 1:1 takes R/2 node ports; a spine joins at most R leaves, so two tiers
 * hold R * R/2 = R^2/2 node ports; a pod of R/2 leaves under spines with
 * R/2 ports down, and at most R pods under the cores, give R^3/4.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cluster_int.h"
#include "nicfit/units.h"

#define LP(f) offsetof(struct nicfit_cluster_layout, f)

const struct nicfit_param nicfit_cluster_layout_table[] = {
	{ "rack_u", LP(rack_u), 42, 10, 60, "U", "usable height of a rack",
	  "assumption: the common 42U rack" },
	{ "u_m", LP(u_m), 0.04445, 0.04, 0.05, "m", "height of one rack unit",
	  "EIA-310: 1U = 1.75 in = 44.45 mm" },
	{ "node_u", LP(node_u), 4, 1, 20, "U", "height of one GPU server",
	  "assumption: 4U (8-GPU HGX systems are 6-10U: set it)" },
	{ "rack_pitch_m", LP(rack_pitch_m), 0.6, 0.3, 3, "m",
	  "distance between neighbouring racks in a row", "assumption: 600 mm wide racks" },
	{ "row_pitch_m", LP(row_pitch_m), 4.2, 1, 30, "m", "distance between neighbouring rows",
	  "assumption: seven 600 mm floor tiles per hot/cold aisle pair" },
	{ "racks_per_row", LP(racks_per_row), 16, 1, 500, "", "compute racks in one row",
	  "assumption" },
	{ "switches_per_rack", LP(switches_per_rack), 16, 1, 60, "",
	  "switches in one network rack", "assumption (power, cooling, cable management)" },
	{ "tor_span", LP(tor_span), 3, 1, 50, "",
	  "a leaf whose nodes span at most this many racks goes on top of the middle one "
	  "(others go to network racks in the middle of the row)", "assumption" },
	{ "tray_m", LP(tray_m), 0.5, 0, 5, "m",
	  "from the top of a rack up into the overhead tray, each end", "assumption" },
	{ "slack_m", LP(slack_m), 0.5, 0, 10, "m", "fixed slack per cable (service loop)",
	  "assumption" },
	{ "slack_frac", LP(slack_frac), 0.1, 0, 1, "", "extra share of the routed length",
	  "assumption" },
};

const size_t nicfit_cluster_layout_count =
	sizeof(nicfit_cluster_layout_table) / sizeof(nicfit_cluster_layout_table[0]);

void nicfit_cluster_layout_default(struct nicfit_cluster_layout *l)
{
	nicfit_param_defaults(nicfit_cluster_layout_table, nicfit_cluster_layout_count, l);
}

const char *nicfit_net_name(enum nicfit_net n)
{
	static const char *const names[] = { "backend", "frontend", "oob" };

	return (unsigned)n < NICFIT_NET_COUNT ? names[n] : "?";
}

const char *nicfit_tier_name(enum nicfit_tier t)
{
	static const char *const names[] = { "leaf", "spine", "core" };

	return (unsigned)t < NICFIT_TIER_COUNT ? names[t] : "?";
}

const char *nicfit_link_level_name(enum nicfit_link_level l)
{
	static const char *const names[] = { "host-leaf", "leaf-spine", "spine-core", "mgmt" };

	return (unsigned)l < NICFIT_LINK_LEVELS ? names[l] : "?";
}

void nicfit_cluster_input_default(struct nicfit_cluster_input *in)
{
	struct nicfit_cluster_net_input *be = &in->net[NICFIT_NET_BACKEND];
	struct nicfit_cluster_net_input *fe = &in->net[NICFIT_NET_FRONTEND];
	struct nicfit_cluster_net_input *oob = &in->net[NICFIT_NET_OOB];
	int i;

	memset(in, 0, sizeof(*in));
	in->gpus_per_node = 8;
	in->nodes_per_rack = 4;
	in->nics_per_node = 8;
	in->nic_ports = 1;
	in->mgmt_ports = 1;
	for (i = 0; i < NICFIT_NET_COUNT; i++) {
		in->net[i].oversubscription = 1;
		in->net[i].planes = 1;
		in->net[i].breakout = 1;
	}
	be->links_per_node = 8;
	be->radix = 64;
	fe->links_per_node = 1;
	fe->radix = 48;
	oob->links_per_node = 1;
	oob->radix = 48;
	oob->uplinks = 2;
	nicfit_cluster_layout_default(&in->layout);
}

/* ---- notes ----------------------------------------------------------------- */

static void note(struct nicfit_cluster_note *n, const char *rule, const char *sev,
		 const char *fmt, va_list ap)
{
	snprintf(n->rule, sizeof(n->rule), "%s", rule);
	snprintf(n->severity, sizeof(n->severity), "%s", sev);
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
}

void cl_decide(struct nicfit_cluster *c, const char *rule, const char *fmt, ...)
{
	va_list ap;

	if (c->ndecisions >= NICFIT_CLUSTER_MAX_NOTES)
		return;
	va_start(ap, fmt);
	note(&c->decisions[c->ndecisions++], rule, "", fmt, ap);
	va_end(ap);
}

void cl_find(struct nicfit_cluster *c, const char *severity, const char *code,
	     const char *fmt, ...)
{
	va_list ap;

	if (c->nfindings >= NICFIT_CLUSTER_MAX_NOTES)
		return;
	va_start(ap, fmt);
	note(&c->findings[c->nfindings++], code, severity, fmt, ap);
	va_end(ap);
}

/* ---- switches ---------------------------------------------------------------- */

const char *cl_cage_for(double gbps)
{
	static const struct { double g; const char *cage; } t[] = {
		{ 1, "RJ45" }, { 10, "SFP+" }, { 25, "SFP28" }, { 40, "QSFP+" },
		{ 50, "SFP56" }, { 100, "QSFP28" }, { 200, "QSFP56" }, { 400, "OSFP" },
		{ 800, "OSFP" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (fabs(t[i].g - gbps) < 1e-6)
			return t[i].cage;
	return "?";
}

static const char *switch_opt(enum nicfit_net n)
{
	static const char *const o[] = { "--switch", "--frontend-switch", "--oob-switch" };

	return o[n];
}

static int form_u(const char *form)
{
	long u = 0;

	if (form && form[0] >= '1' && form[0] <= '9')
		u = strtol(form, NULL, 10);
	return u >= 1 && u <= 10 ? (int)u : 1;
}

static int resolve_switch(const struct nicfit_catalog *cat, enum nicfit_net n,
			  const struct nicfit_cluster_net_input *ni,
			  struct nicfit_cluster_switch *sw, struct nicfit_error *err)
{
	memset(sw, 0, sizeof(*sw));
	if (ni->switch_id) {
		const struct nicfit_switch *s = NULL;

		if (cat)
			s = nicfit_catalog_find_switch(cat, ni->switch_id, switch_opt(n), err);
		if (!s)
			return err && err->code ? err->code :
				nicfit_error_at(err, NICFIT_E_NOTFOUND, switch_opt(n), 0, 0,
						"unknown switch '%.64s'", ni->switch_id);
		sw->cat = s;
		snprintf(sw->id, sizeof(sw->id), "%s", s->e.id);
		snprintf(sw->name, sizeof(sw->name), "%s", s->e.name ? s->e.name : s->e.id);
		sw->ports = s->ports;
		sw->gbps = s->port_gbps;
		snprintf(sw->cage, sizeof(sw->cage), "%s", s->cage ? s->cage : cl_cage_for(s->port_gbps));
		sw->max_logical = s->max_logical_ports;
		sw->per_cage = s->ports_per_cage > 1 ? s->ports_per_cage : 1;
		sw->height_u = form_u(s->form);
		if (sw->ports < 2 || sw->ports > NICFIT_CLUSTER_MAX_RADIX || sw->gbps <= 0)
			return nicfit_error_at(err, NICFIT_E_DATA, switch_opt(n), 0, 0,
					       "switch '%s' has %d ports at %g Gb/s: cannot size with it",
					       sw->id, sw->ports, sw->gbps);
		return 0;
	}
	sw->ports = ni->radix;
	sw->gbps = ni->switch_gbps > 0 ? ni->switch_gbps : ni->link_gbps;
	snprintf(sw->id, sizeof(sw->id), "generic-%dx%gg", sw->ports, sw->gbps);
	snprintf(sw->name, sizeof(sw->name), "%d-port %gG switch (generic)", sw->ports, sw->gbps);
	snprintf(sw->cage, sizeof(sw->cage), "%s", cl_cage_for(sw->gbps));
	sw->per_cage = 1;
	sw->height_u = sw->ports > 64 ? 2 : 1;
	return 0;
}

/* Does the switch list an "NxG" split with n legs of rate g? */
static int can_split(const struct nicfit_cluster_switch *sw, int n, double g)
{
	int i;

	if (!sw->cat)
		return n == 2 || n == 4 || n == 8;
	for (i = 0; i < sw->cat->nbreakout; i++) {
		const char *s = sw->cat->breakout[i], *x = strchr(s, 'x');
		char *end;
		long legs;
		double rate;

		if (!x)
			continue;
		legs = strtol(s, &end, 10);
		if (end != x)
			continue;
		rate = strtod(x + 1, &end);
		if (legs == n && fabs(rate - g) < 1e-6)
			return 1;
	}
	return 0;
}

/* ---- leaf capacity --------------------------------------------------------- */

struct leafdes {
	const struct nicfit_cluster_net_input *ni;
	const struct nicfit_cluster_switch *sw;
	int b;                  /* node ports per switch port */
};

static int uplinks_for(const struct leafdes *d, long e)
{
	double need;

	if (d->ni->uplinks > 0)
		return d->ni->uplinks;
	need = (double)e * d->ni->link_gbps / (d->ni->oversubscription * d->sw->gbps);
	return (int)ceil(need - 1e-9);
}

/* n rounded up to whole cages */
static long whole_cages(long n, int per_cage)
{
	return per_cage > 1 ? (n + per_cage - 1) / per_cage * per_cage : n;
}

/* Can a leaf carry e node ports and u uplinks (which start on a fresh cage)? */
static int leaf_fits(const struct leafdes *d, long e, int u)
{
	long ports = (e + d->b - 1) / d->b;

	if ((u ? whole_cages(ports, d->sw->per_cage) : ports) + u > d->sw->ports)
		return 0;
	if (d->b > 1 && d->sw->max_logical > 0 &&
	    ports * d->b + (d->sw->ports - ports) > d->sw->max_logical)
		return 0;
	return 1;
}

/* Most node ports a leaf takes: with no uplinks (one tier) or with them. */
static long leaf_max(const struct leafdes *d, int with_uplinks)
{
	long e;

	for (e = (long)d->sw->ports * d->b; e > 0; e--)
		if (leaf_fits(d, e, with_uplinks ? uplinks_for(d, e) : 0))
			return e;
	return 0;
}

static long cdiv(long a, long b)
{
	return b > 0 ? (a + b - 1) / b : 0;
}

static long lmin(long a, long b)
{
	return a < b ? a : b;
}

static int digits(long v)
{
	int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

/* Leaves a group of count nodes needs. */
static long group_leaves(const struct cl_net *cn, long count)
{
	switch (cn->map) {
	case MAP_RAIL:
		return cdiv(cn->kp, cn->rpl) * cdiv(count, cn->esub);
	case MAP_NODES:
		return cdiv(count, cn->npl);
	case MAP_SPLIT:
		return count * cn->lpn;
	case MAP_LIST:
		break;
	}
	return 0;
}

/* ---- the spine and core tiers --------------------------------------------- */

/* Round u up to a multiple of spines when the leaf has ports for it and
 * the spine count stays the same, so that every leaf has the same number
 * of links to every spine. */
static int even_uplinks(const struct leafdes *d, int elaf, int u, long leaves, int spines,
			int ports)
{
	int u2;

	if (spines <= 0 || u % spines == 0)
		return u;
	u2 = (u / spines + 1) * spines;
	if (d->ni->uplinks > 0 || !leaf_fits(d, elaf, u2))
		return u;
	if (cdiv(leaves * u2, ports) != spines)
		return u;
	return u2;
}

/* Pods of lpp leaves: spines per pod, core groups. Returns 0 when the cores
 * can reach every pod (at most R pods), else -1 with cn unchanged. */
static int try_pods(struct cl_net *cn, const struct leafdes *d, int R, long lpp)
{
	long L = cn->leaves, hd = R / 2, pods, sp, cg, sup, sdown, base;
	int u = cn->u;

	if (lpp < 1 || lpp > hd)
		return -1;
	pods = cdiv(L, lpp);
	sp = cdiv(lpp * u, hd);
	u = even_uplinks(d, cn->elaf, u, lpp, (int)sp, (int)hd);
	sp = cdiv(lpp * u, hd);
	sdown = cdiv(lpp * u, sp);
	sup = sdown;
	cg = cdiv(pods * sup, R);
	base = whole_cages(sdown, d->sw->per_cage);
	if (cg > sup || sp > u || base + sup > R)
		return -1;
	if (sup % cg) {
		long sup2 = (sup / cg + 1) * cg;

		if (sup2 <= R - base && cdiv(pods * sup2, R) == cg)
			sup = sup2;
	}
	cn->supbase = (int)base;
	cn->u = u;
	cn->pods = pods;
	cn->lpp = lpp;
	cn->spines = (int)sp;
	cn->sdown = (int)sdown;
	cn->sup = (int)sup;
	cn->cg = (int)cg;
	return 0;
}

static int upper_tiers(struct nicfit_cluster *c, enum nicfit_net n, const struct leafdes *d,
		       struct nicfit_error *err)
{
	struct nicfit_cluster_net *nt = &c->net[n];
	struct cl_net *cn = &c->impl->net[n];
	const struct nicfit_cluster_net_input *ni = d->ni;
	int R = d->sw->ports, hd = R / 2;
	long L = cn->leaves;

	if (cn->tiers == 1) {
		cn->tier_sw[NICFIT_TIER_LEAF] = L;
		return 0;
	}
	cn->u = uplinks_for(d, cn->elaf);
	if (cn->u < 1)
		cn->u = 1;
	/* two tiers: every leaf reaches every spine */
	if (ni->min_tiers <= 2) {
		long s = cdiv(L * cn->u, R);

		if (s <= cn->u) {
			cn->tiers = 2;
			cn->u = even_uplinks(d, cn->elaf, cn->u, L, (int)s, R);
			/* Uplinks that cannot be spread evenly: take the fewest spines
			 * that divide them, so ECMP sees equal trunks to every spine. */
			if (cn->u % s) {
				long s2;

				for (s2 = s + 1; s2 <= cn->u; s2++)
					if (cn->u % s2 == 0)
						break;
				if (s2 <= cn->u)
					s = s2;
			}
			cn->spines = (int)s;
			cn->sdown = (int)cdiv(L * cn->u, s);
			cn->tier_sw[NICFIT_TIER_LEAF] = L;
			cn->tier_sw[NICFIT_TIER_SPINE] = s;
			return 0;
		}
	}
	/* three tiers: pods of at most R/2 leaves, whole groups when that fits */
	if (hd < 1)
		return nicfit_error_at(err, NICFIT_E_USAGE, switch_opt(n), 0, 0,
				       "a %d-port switch cannot build three tiers", R);
	if (cn->map != MAP_LIST && cn->lpg <= hd) {
		long gpp = hd / cn->lpg, pods = cdiv(cn->ngroups, gpp);

		if (!try_pods(cn, d, R, cdiv(cn->ngroups, pods) * cn->lpg))
			goto three;
	}
	if (!try_pods(cn, d, R, cdiv(L, cdiv(L, hd))))
		goto three;
	{
		long per_plane = (long)R * hd * cn->elaf;

		return nicfit_error_at(err, NICFIT_E_USAGE, nicfit_net_name(n), 0, 0,
				       "%ld node ports per plane need more than three tiers "
				       "(three tiers of %d-port switches hold about %ld here); use "
				       "more planes, a switch with more ports, or oversubscription",
				       (long)(nt->endpoints / (nt->planes ? nt->planes : 1)),
				       R, per_plane);
	}
three:
	cn->tiers = 3;
	cn->tier_sw[NICFIT_TIER_LEAF] = L;
	cn->tier_sw[NICFIT_TIER_SPINE] = cn->pods * cn->spines;
	cn->tier_sw[NICFIT_TIER_CORE] = (long)cn->spines * cn->cg;
	return 0;
}

/* ---- the leaf layer of the back end and the front end ------------------------ */

static int leaf_layer(struct nicfit_cluster *c, enum nicfit_net n, const struct leafdes *d,
		      struct nicfit_error *err)
{
	const struct nicfit_cluster_net_input *ni = d->ni;
	struct nicfit_cluster_net *nt = &c->net[n];
	struct cl_net *cn = &c->impl->net[n];
	long N = c->in.nodes, M = c->in.nodes_per_rack, kp = cn->kp;
	long cap1 = leaf_max(d, 0), emax = leaf_max(d, 1), last;
	int rail = n == NICFIT_NET_FRONTEND || ni->rail_optimized || ni->rail_only;
	int one;

	if (cap1 < 1)
		return nicfit_error_at(err, NICFIT_E_USAGE, switch_opt(n), 0, 0,
				       "%s: the switch has no port for a node", nicfit_net_name(n));
	cn->cap1 = cap1;
	/* one tier: one switch takes every port of the plane, or (rail-only, and
	 * the front end's separate links) one switch per rail */
	if (n == NICFIT_NET_FRONTEND || ni->rail_only)
		one = N <= cap1;
	else
		one = N * kp <= cap1;
	if (ni->rail_only && !one)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--rail-only", 0, 0,
				       "rail-only needs each rail on one switch: %ld nodes exceed the %ld "
				       "ports of one (use --rail-optimized for rails with shared spines, "
				       "or --planes %d for a separate fabric per rail)",
				       N, cap1, c->in.net[n].links_per_node);
	cn->tiers = one && ni->min_tiers <= 1 ? 1 : 2;
	if (cn->tiers == 1) {
		cn->gsize = N;
		if (n == NICFIT_NET_FRONTEND || ni->rail_only) {
			cn->map = MAP_RAIL;
			cn->esub = (int)N;
			cn->rpl = n == NICFIT_NET_FRONTEND ? 1 : (int)lmin(kp, cap1 / N);
		} else if (rail) {
			cn->map = MAP_RAIL;
			cn->esub = (int)N;
			cn->rpl = (int)kp;
		} else {
			cn->map = MAP_NODES;
			cn->npl = (int)N;
		}
		nt->max_endpoints = rail ? cap1 * kp : cap1;
	} else {
		if (emax < 1)
			return nicfit_error_at(err, NICFIT_E_USAGE, switch_opt(n), 0, 0,
					       "%s: a %d-port switch has no port left for uplinks at %g:1",
					       nicfit_net_name(n), d->sw->ports, ni->oversubscription);
		if (n == NICFIT_NET_FRONTEND) {
			/* whole racks per leaf; each of a node's links on its own leaf */
			cn->map = MAP_RAIL;
			cn->rpl = 1;
			if (emax >= M) {
				cn->gsize = emax / M * M;
				cn->esub = (int)cn->gsize;
			} else {
				cn->gsize = M;
				cn->esub = (int)cdiv(M, cdiv(M, emax));
			}
		} else if (rail) {
			long groups = cdiv(N, emax);

			cn->map = MAP_RAIL;
			cn->gsize = cdiv(N, groups);
			cn->esub = (int)cn->gsize;
			cn->rpl = groups == 1 ? (int)lmin(kp, emax / cn->gsize) : 1;
			if (cn->rpl < 1)
				cn->rpl = 1;
		} else if (emax >= kp) {
			long npl = emax / kp;

			/* all of a node's links on one leaf, leaves filled evenly */
			cn->map = MAP_NODES;
			cn->npl = (int)cdiv(N, cdiv(N, npl));
			cn->gsize = cn->npl;
		} else {
			cn->map = MAP_SPLIT;
			cn->gsize = 1;
			cn->lpn = (int)cdiv(kp, emax);
			cn->esub = (int)cdiv(kp, cn->lpn);
		}
		nt->max_endpoints = emax * (long)d->sw->ports;
	}
	if (cn->gsize > N)
		cn->gsize = N;
	if (cn->map == MAP_RAIL && cn->esub > cn->gsize)
		cn->esub = (int)cn->gsize;
	if (cn->map == MAP_NODES && cn->npl > cn->gsize)
		cn->npl = (int)cn->gsize;
	cn->ngroups = cdiv(N, cn->gsize);
	cn->lpg = (int)group_leaves(cn, cn->gsize);
	last = N - (cn->ngroups - 1) * cn->gsize;
	cn->leaves = (cn->ngroups - 1) * cn->lpg + group_leaves(cn, last);
	switch (cn->map) {
	case MAP_RAIL:
		cn->elaf = cn->rpl * cn->esub;
		break;
	case MAP_NODES:
		cn->elaf = cn->npl * (int)kp;
		break;
	default:
		cn->elaf = cn->esub;
		break;
	}
	cn->down = (int)cdiv(cn->elaf, d->b);
	cn->upbase = (int)whole_cages(cn->down, d->sw->per_cage);
	return upper_tiers(c, n, d, err);
}

/* ---- one network ----------------------------------------------------------- */

static const char *link_opt(enum nicfit_net n)
{
	static const char *const o[] = { "--nic-gbps", "--frontend-gbps", "--oob-switch" };

	return o[n];
}

static int net_setup(struct nicfit_cluster *c, enum nicfit_net n, struct leafdes *d,
		     struct nicfit_error *err)
{
	const struct nicfit_cluster_net_input *ni = &c->in.net[n];
	struct nicfit_cluster_net *nt = &c->net[n];
	struct cl_net *cn = &c->impl->net[n];
	const char *cage = NULL;
	int rc;

	nt->enabled = 1;
	nt->links_per_node = ni->links_per_node;
	nt->link_gbps = ni->link_gbps;
	nt->planes = n == NICFIT_NET_BACKEND ? ni->planes : 1;
	cn->kp = ni->links_per_node / nt->planes;
	rc = resolve_switch(c->impl->cat, n, ni, &nt->sw, err);
	if (rc)
		return rc;
	if (n == NICFIT_NET_BACKEND && c->nic)
		cage = c->nic->cage;
	snprintf(nt->node_cage, sizeof(nt->node_cage), "%s",
		 cage ? cage : cl_cage_for(ni->link_gbps));
	if (nt->sw.gbps < ni->link_gbps - 1e-9)
		return nicfit_error_at(err, NICFIT_E_USAGE, link_opt(n), 0, 0,
				       "%s: node ports at %g Gb/s are faster than the %s ports (%g Gb/s)",
				       nicfit_net_name(n), ni->link_gbps, nt->sw.id, nt->sw.gbps);
	d->ni = ni;
	d->sw = &nt->sw;
	d->b = 1;
	if (nt->sw.gbps > ni->link_gbps + 1e-9) {
		double r = nt->sw.gbps / ni->link_gbps;
		int bi = (int)lround(r);

		if (ni->breakout && fabs(r - bi) < 1e-6 && bi >= 2 && bi <= 8 &&
		    can_split(&nt->sw, bi, ni->link_gbps))
			d->b = bi;
	}
	nt->breakout = d->b;
	nt->port_gbps = ni->link_gbps * d->b;
	nt->rails = n == NICFIT_NET_FRONTEND ? ni->links_per_node :
		    ni->rail_optimized || ni->rail_only ? cn->kp : 1;
	nt->endpoints = c->in.nodes * ni->links_per_node;
	return 0;
}

static void net_publish(struct nicfit_cluster *c, enum nicfit_net n, const struct leafdes *d)
{
	struct nicfit_cluster_net *nt = &c->net[n];
	struct cl_net *cn = &c->impl->net[n];
	int t;

	nt->tiers = cn->tiers;
	nt->endpoints_per_leaf = cn->elaf;
	nt->uplinks_per_leaf = cn->tiers > 1 ? cn->u : 0;
	nt->leaf_ratio = cn->tiers > 1 ? (double)cn->elaf * d->ni->link_gbps /
					 ((double)cn->u * nt->sw.gbps) : 1;
	nt->pods = cn->pods;
	nt->leaves_per_pod = cn->lpp;
	nt->spines_per_pod = cn->tiers == 3 ? cn->spines : 0;
	nt->cores_per_group = cn->cg;
	nt->tier[NICFIT_TIER_LEAF].down = cn->down;
	nt->tier[NICFIT_TIER_LEAF].up = nt->uplinks_per_leaf;
	if (cn->tiers >= 2) {
		nt->tier[NICFIT_TIER_SPINE].down = cn->sdown;
		nt->tier[NICFIT_TIER_SPINE].up = cn->tiers == 3 ? cn->sup : 0;
	}
	if (cn->tiers == 3)
		nt->tier[NICFIT_TIER_CORE].down = (int)cdiv(cn->pods * cn->sup, cn->cg);
	cn->per_plane = 0;
	for (t = 0; t < NICFIT_TIER_COUNT; t++) {
		nt->tier[t].switches = cn->tier_sw[t] * nt->planes;
		cn->per_plane += cn->tier_sw[t];
		cn->digits[t] = digits(cn->tier_sw[t] > 0 ? cn->tier_sw[t] : 1);
		if (cn->digits[t] < 2)
			cn->digits[t] = 2;
	}
}

/* ---- placement -------------------------------------------------------------- */

/* Node range [first, last] that leaf idx of a back-end or front-end network serves. */
static void leaf_nodes(const struct cl_net *cn, long N, long idx, long *first, long *last)
{
	long g = idx / cn->lpg, lig = idx % cn->lpg, g0 = g * cn->gsize;
	long count = lmin(cn->gsize, N - g0);

	switch (cn->map) {
	case MAP_RAIL: {
		long lpr = cdiv(count, cn->esub), sub = lig % lpr;

		*first = g0 + sub * cn->esub;
		*last = g0 + lmin(sub * cn->esub + cn->esub, count) - 1;
		return;
	}
	case MAP_NODES:
		*first = g0 + lig * cn->npl;
		*last = g0 + lmin(lig * cn->npl + cn->npl, count) - 1;
		return;
	case MAP_SPLIT:
		*first = *last = g0 + lig / cn->lpn;
		return;
	case MAP_LIST:
		break;
	}
	*first = *last = 0;
}

struct placer {
	long C;                 /* compute racks */
	long rpr;               /* compute racks per row */
	long *slots;            /* network-rack slots used per row (crow + 1 rows) */
	int32_t *tors;          /* switches on top of each compute rack */
	int hmax;
};

static void place_tor(struct nicfit_cluster *c, struct placer *p, long s, long rack)
{
	struct cl_pos *q = &c->impl->pos[s];

	q->row = (int32_t)(rack / p->rpr);
	q->x = -(int32_t)(rack % p->rpr) - 1;
	q->u = (float)(c->in.layout.rack_u - p->tors[rack] * p->hmax - p->hmax / 2.0);
	p->tors[rack]++;
}

static void place_slot(struct nicfit_cluster *c, struct placer *p, long s, long row)
{
	struct cl_pos *q = &c->impl->pos[s];

	q->row = (int32_t)row;
	q->x = (int32_t)p->slots[row]++;
	q->u = 0;
}

/* On top of the middle rack of its span when the span is short and stays in one
 * row; else in the network racks of the first rack's row. */
static void place_leaf(struct nicfit_cluster *c, struct placer *p, long s, long r0, long r1)
{
	if (r1 - r0 + 1 <= (long)c->in.layout.tor_span && r0 / p->rpr == r1 / p->rpr)
		place_tor(c, p, s, (r0 + r1) / 2);
	else
		place_slot(c, p, s, r0 / p->rpr);
}

/* Leaves with all their nodes in a few racks go on top of one of them; the others into
 * the network racks of their first node's row; spines and cores into the
 * spine row. */
static void place_net(struct nicfit_cluster *c, struct placer *p, enum nicfit_net n)
{
	const struct cl_net *cn = &c->impl->net[n];
	long M = c->in.nodes_per_rack, plane, i, s = cn->base;
	int t;

	for (plane = 0; plane < c->net[n].planes; plane++)
		for (t = 0; t < NICFIT_TIER_COUNT; t++)
			for (i = 0; i < cn->tier_sw[t]; i++, s++) {
				long first, last;

				if (t == NICFIT_TIER_SPINE && cn->tiers == 3) {
					/* a pod's spines stand in the row of its first leaf's nodes */
					leaf_nodes(cn, c->in.nodes, i / cn->spines * cn->lpp, &first, &last);
					place_slot(c, p, s, first / M / p->rpr);
					continue;
				}
				if (t != NICFIT_TIER_LEAF) {
					place_slot(c, p, s, c->impl->crow);
					continue;
				}
				leaf_nodes(cn, c->in.nodes, i, &first, &last);
				place_leaf(c, p, s, first / M, last / M);
			}
}

/* ---- the OOB network ---------------------------------------------------------- */

struct chunk {
	long first;             /* in the OOB list */
	long count;
	long row;
	long rack;              /* compute rack, or -1 for a network rack */
};

/* The OOB endpoints rack by rack: BMCs and the switches on top of each
 * compute rack, then each network rack's switches, row by row. */
static int oob_list(struct nicfit_cluster *c, struct placer *p, struct chunk **chunksp,
		    long *nchunks, struct nicfit_error *err)
{
	struct nicfit_cluster_impl *im = c->impl;
	long N = c->in.nodes, M = c->in.nodes_per_rack, spr = (long)c->in.layout.switches_per_rack;
	long nsw = im->nsw, rows = im->crow + 1, r, i, k, total, nch = 0, maxch;
	long *tor_start = NULL, *slot_start = NULL, *by_tor = NULL, *by_slot = NULL;
	struct chunk *ch = NULL;
	int rc = NICFIT_E_NOMEM;

	tor_start = calloc((size_t)p->C + 1, sizeof(*tor_start));
	slot_start = calloc((size_t)rows + 1, sizeof(*slot_start));
	by_tor = malloc(((size_t)nsw + 1) * sizeof(*by_tor));
	by_slot = malloc(((size_t)nsw + 1) * sizeof(*by_slot));
	if (!tor_start || !slot_start || !by_tor || !by_slot)
		goto out;
	/* counting sort of switches by compute rack (ToR) and by row slot */
	for (i = 0; i < nsw; i++) {
		const struct cl_pos *q = &im->pos[i];

		if (q->x < 0)
			tor_start[q->row * p->rpr + (-q->x - 1) + 1]++;
	}
	for (i = 0; i < p->C; i++)
		tor_start[i + 1] += tor_start[i];
	for (r = 0; r < rows; r++)
		slot_start[r + 1] = slot_start[r] + p->slots[r];
	{
		long *fill = calloc((size_t)p->C + 1, sizeof(*fill));

		if (!fill)
			goto out;
		for (i = 0; i < nsw; i++) {
			const struct cl_pos *q = &im->pos[i];

			if (q->x < 0) {
				long rack = q->row * p->rpr + (-q->x - 1);

				by_tor[tor_start[rack] + fill[rack]++] = i;
			} else {
				by_slot[slot_start[q->row] + q->x] = i;
			}
		}
		free(fill);
	}
	total = (c->net[NICFIT_NET_OOB].links_per_node ? N : 0) + (c->in.mgmt_ports ? nsw : 0);
	maxch = p->C + nsw / (spr > 0 ? spr : 1) + rows + 2;
	im->oob_list = malloc(((size_t)total + 1) * sizeof(*im->oob_list));
	ch = calloc((size_t)maxch, sizeof(*ch));
	if (!im->oob_list || !ch)
		goto out;
	k = 0;
	for (r = 0; r < rows; r++) {
		long c0 = r * p->rpr, c1 = r < im->crow ? lmin(c0 + p->rpr, p->C) : c0, rack, j;

		for (rack = c0; rack < c1; rack++) {
			long before = k;

			if (c->net[NICFIT_NET_OOB].links_per_node)
				for (i = rack * M; i < lmin(rack * M + M, N); i++)
					im->oob_list[k++] = i;
			if (c->in.mgmt_ports)
				for (i = tor_start[rack]; i < tor_start[rack + 1]; i++)
					im->oob_list[k++] = N + by_tor[i];
			if (k > before)
				ch[nch++] = (struct chunk){ before, k - before, r, rack };
		}
		if (!c->in.mgmt_ports)
			continue;
		for (j = 0; j < p->slots[r]; j += spr) {
			long before = k;

			for (i = j; i < lmin(j + spr, p->slots[r]); i++)
				im->oob_list[k++] = N + by_slot[slot_start[r] + i];
			if (k > before)
				ch[nch++] = (struct chunk){ before, k - before, r, -1 };
		}
	}
	im->noob = k;
	*chunksp = ch;
	*nchunks = nch;
	ch = NULL;
	rc = 0;
out:
	free(ch);
	free(tor_start);
	free(slot_start);
	free(by_tor);
	free(by_slot);
	if (rc)
		return nicfit_error_set(err, rc, "out of memory");
	return 0;
}

/* Cut the OOB list into leaves: whole racks per leaf, no leaf across rows. */
static int oob_leaves(struct nicfit_cluster *c, const struct leafdes *d, const struct chunk *ch,
		      long nch, long **leaf_chunk, long **leaf_last, struct nicfit_error *err)
{
	struct cl_net *cn = &c->impl->net[NICFIT_NET_OOB];
	long cap1 = leaf_max(d, 0), emax = leaf_max(d, 1), cap, i, n = 0, max;
	long cur_row = -1;
	struct cl_range *rg;
	long *lc, *ll;

	if (cap1 < 1)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--oob-switch", 0, 0,
				       "oob: the switch has no port for a node");
	cn->cap1 = cap1;
	cn->tiers = c->impl->noob <= cap1 && d->ni->min_tiers <= 1 ? 1 : 2;
	cap = cn->tiers == 1 ? cap1 : emax;
	if (cap < 1)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--oob-switch", 0, 0,
				       "oob: a %d-port switch has no port left for %d uplinks",
				       d->sw->ports, d->ni->uplinks);
	max = c->impl->noob / cap + nch + 2;
	rg = calloc((size_t)max, sizeof(*rg));
	lc = calloc((size_t)max, sizeof(*lc));
	ll = calloc((size_t)max, sizeof(*ll));
	if (!rg || !lc || !ll) {
		free(rg);
		free(lc);
		free(ll);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	for (i = 0; i < nch; i++) {
		long left = ch[i].count, at = ch[i].first;

		if (n > 0 && cn->tiers > 1 &&
		    (ch[i].row != cur_row || rg[n - 1].count + left > cap))
			n++;
		if (n == 0)
			n = 1;
		cur_row = ch[i].row;
		while (left > 0) {
			long room = cap - rg[n - 1].count, take = left < room ? left : room;

			if (room == 0) {
				n++;
				continue;
			}
			if (rg[n - 1].count == 0) {
				rg[n - 1].first = at;
				lc[n - 1] = i;
			}
			rg[n - 1].count += (int)take;
			ll[n - 1] = i;
			left -= take;
			at += take;
		}
	}
	while (n > 0 && rg[n - 1].count == 0)
		n--;
	if (n == 0)
		n = 1;
	cn->map = MAP_LIST;
	cn->ranges = rg;
	cn->leaves = n;
	cn->ngroups = n;
	cn->lpg = 1;
	cn->kp = 1;
	cn->elaf = 0;
	for (i = 0; i < n; i++)
		if (rg[i].count > cn->elaf)
			cn->elaf = rg[i].count;
	cn->down = cn->elaf;
	cn->upbase = (int)whole_cages(cn->down, d->sw->per_cage);
	if (cn->tiers > 1 && n == 1 && d->ni->min_tiers <= 1)
		cn->tiers = 1;
	c->net[NICFIT_NET_OOB].max_endpoints = cn->tiers == 1 ? cap1 : emax * d->sw->ports;
	*leaf_chunk = lc;
	*leaf_last = ll;
	return 0;
}

static int size_oob(struct nicfit_cluster *c, struct placer *p, struct nicfit_error *err)
{
	struct nicfit_cluster_impl *im = c->impl;
	struct cl_net *cn = &im->net[NICFIT_NET_OOB];
	struct nicfit_cluster_net *nt = &c->net[NICFIT_NET_OOB];
	struct chunk *ch = NULL;
	struct leafdes d;
	long nch = 0, *lc = NULL, *ll = NULL, i, s, plane;
	int rc, t;

	rc = net_setup(c, NICFIT_NET_OOB, &d, err);
	if (rc)
		return rc;
	rc = oob_list(c, p, &ch, &nch, err);
	if (rc)
		return rc;
	nt->endpoints = im->noob;
	if (im->noob == 0) {
		free(ch);
		nt->enabled = 0;
		return 0;
	}
	rc = oob_leaves(c, &d, ch, nch, &lc, &ll, err);
	if (rc)
		goto out;
	rc = upper_tiers(c, NICFIT_NET_OOB, &d, err);
	if (rc)
		goto out;
	net_publish(c, NICFIT_NET_OOB, &d);
	cn->base = im->nsw;
	{
		struct cl_pos *pos = realloc(im->pos, ((size_t)im->nsw + (size_t)cn->per_plane + 1) *
						       sizeof(*pos));

		if (!pos) {
			rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
			goto out;
		}
		im->pos = pos;
	}
	s = cn->base;
	for (plane = 0; plane < 1; plane++)
		for (t = 0; t < NICFIT_TIER_COUNT; t++)
			for (i = 0; i < cn->tier_sw[t]; i++, s++) {
				const struct chunk *k;

				if (t != NICFIT_TIER_LEAF) {
					place_slot(c, p, s, im->crow);
					continue;
				}
				/* like a leaf of the other networks when all its endpoints are
				 * in compute racks */
				k = &ch[lc[i]];
				if (k->rack >= 0 && ch[ll[i]].rack >= 0)
					place_leaf(c, p, s, k->rack, ch[ll[i]].rack);
				else
					place_slot(c, p, s, k->row);
			}
	im->nsw += cn->per_plane;
out:
	free(ch);
	free(lc);
	free(ll);
	return rc;
}

/* Turn slots and ToR marks into rack positions, and count network racks. */
static void finalize_positions(struct nicfit_cluster *c, struct placer *p)
{
	struct nicfit_cluster_impl *im = c->impl;
	long r, s, spr = (long)c->in.layout.switches_per_rack, width;

	c->network_racks = 0;
	for (r = 0; r <= im->crow; r++) {
		long ncomp = r < im->crow ? lmin(p->rpr, p->C - r * p->rpr) : 0;

		im->row_net[r] = (int32_t)cdiv(p->slots[r], spr);
		im->row_half[r] = (int32_t)((ncomp + 1) / 2);
		c->network_racks += im->row_net[r];
	}
	im->has_spine_row = p->slots[im->crow] > 0;
	width = lmin(p->rpr, p->C);
	im->spine_x0 = (int32_t)((width - im->row_net[im->crow]) / 2);
	for (s = 0; s < im->nsw; s++) {
		struct cl_pos *q = &im->pos[s];

		if (q->x < 0) {
			int32_t i = -q->x - 1;

			q->x = i < im->row_half[q->row] ? i : i + im->row_net[q->row];
		} else {
			long slot = q->x, j = slot / spr, k = slot % spr;
			double u = c->in.layout.rack_u - (double)k * p->hmax - p->hmax / 2.0;

			q->x = (int32_t)(q->row < im->crow ? im->row_half[q->row] + j : im->spine_x0 + j);
			q->u = (float)(u < p->hmax / 2.0 ? p->hmax / 2.0 : u);
		}
	}
	c->rows = im->crow + (im->has_spine_row ? 1 : 0);
}

/* ---- checks on the input ------------------------------------------------------- */

static int check_input(const struct nicfit_cluster_input *in, struct nicfit_error *err)
{
	int i;

	if (in->nodes < 1 || in->nodes > NICFIT_CLUSTER_MAX_NODES)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--nodes", 0, 0,
				       "give 1 to %ld nodes", NICFIT_CLUSTER_MAX_NODES);
	if (in->nodes_per_rack < 1 || in->nodes_per_rack > 256)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--nodes-per-rack", 0, 0,
				       "give 1 to 256 nodes per rack");
	if (in->gpus_per_node < 0 || in->gpus_per_node > 64)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--gpus-per-node", 0, 0,
				       "give 0 to 64 GPUs per node");
	for (i = 0; i < NICFIT_NET_COUNT; i++) {
		const struct nicfit_cluster_net_input *ni = &in->net[i];

		if (ni->links_per_node == 0)
			continue;
		if (ni->links_per_node < 0 || ni->links_per_node > NICFIT_CLUSTER_MAX_LINKS)
			return nicfit_error_at(err, NICFIT_E_USAGE, nicfit_net_name(i), 0, 0,
					       "give 0 to %d links per node", NICFIT_CLUSTER_MAX_LINKS);
		if (!(ni->link_gbps > 0 && ni->link_gbps <= 3200))
			return nicfit_error_at(err, NICFIT_E_USAGE, link_opt(i), 0, 0,
					       "link rate must be above 0 and at most 3200 Gb/s");
		if (!ni->switch_id && (ni->radix < 2 || ni->radix > NICFIT_CLUSTER_MAX_RADIX))
			return nicfit_error_at(err, NICFIT_E_USAGE, nicfit_net_name(i), 0, 0,
					       "switch radix must be 2 to %d", NICFIT_CLUSTER_MAX_RADIX);
		if (!(ni->oversubscription >= 1 && ni->oversubscription <= 64))
			return nicfit_error_at(err, NICFIT_E_USAGE, nicfit_net_name(i), 0, 0,
					       "oversubscription must be 1 to 64 (X:1)");
		if (ni->switch_gbps < 0 || ni->switch_gbps > 3200 || ni->uplinks < 0 ||
		    ni->uplinks > NICFIT_CLUSTER_MAX_RADIX || ni->min_tiers < 0 || ni->min_tiers > 3)
			return nicfit_error_at(err, NICFIT_E_USAGE, nicfit_net_name(i), 0, 0,
					       "switch rate, uplinks or tiers out of range");
		if (ni->planes < 1 || ni->planes > NICFIT_CLUSTER_MAX_PLANES ||
		    (i == NICFIT_NET_BACKEND && ni->links_per_node % ni->planes))
			return nicfit_error_at(err, NICFIT_E_USAGE, "--planes", 0, 0,
					       "%d planes must divide the %d back-end links per node "
					       "(at most %d planes)", ni->planes, ni->links_per_node,
					       NICFIT_CLUSTER_MAX_PLANES);
	}
	if (in->nics_per_node < 0 || in->nics_per_node > NICFIT_CLUSTER_MAX_LINKS ||
	    (in->nics_per_node && (in->nic_ports < 1 || in->nic_ports > 8)))
		return nicfit_error_at(err, NICFIT_E_USAGE, "--nics-per-node", 0, 0,
				       "give 0 to %d NICs per node with 1 to 8 cabled ports each",
				       NICFIT_CLUSTER_MAX_LINKS);
	if (in->net[NICFIT_NET_OOB].links_per_node > 1)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--oob", 0, 0,
				       "a node has one BMC port");
	return 0;
}

/* ---- findings and decisions that explain the design ------------------------------ */

static const char *prose(enum nicfit_net n)
{
	static const char *const names[] = { "back end", "front end", "OOB" };

	return names[n];
}

static void explain(struct nicfit_cluster *c, enum nicfit_net n)
{
	const struct nicfit_cluster_net *nt = &c->net[n];
	const struct cl_net *cn = &c->impl->net[n];
	const char *nn = prose(n);
	int R = nt->sw.ports;
	long per_plane = n == NICFIT_NET_OOB ? nt->endpoints : nt->endpoints / nt->planes;

	if (nt->sw.cat && nt->sw.cat->uplink_ports > 0 && nt->tiers > 1)
		cl_find(c, "info", "cluster.uplink_group",
			"%s: %s also has %d x %g Gb/s uplink ports; this design takes the leaf "
			"uplinks from its %d x %g Gb/s ports, so every tier is the same switch",
			nn, nt->sw.id, nt->sw.cat->uplink_ports, nt->sw.cat->uplink_gbps,
			nt->sw.ports, nt->sw.gbps);
	if (nt->sw.per_cage > 1)
		cl_decide(c, "cluster.cages",
			  "%s: %s has %d logical ports per cage: one twin-port transceiver or "
			  "splitter cable serves each cage, uplinks start on a fresh cage",
			  nn, nt->sw.id, nt->sw.per_cage);
	if (nt->breakout > 1) {
		cl_decide(c, "cluster.breakout",
			  "%s: each %g Gb/s switch port splits into %d x %g Gb/s node ports (%dx%g breakout)",
			  nn, nt->sw.gbps, nt->breakout, nt->link_gbps, nt->breakout, nt->link_gbps);
		if (nt->sw.cat && nicfit_entry_unverified(&nt->sw.cat->e, "breakout"))
			cl_find(c, "info", "cluster.breakout_unverified",
				"%s: the catalog marks the split modes of %s unverified; check that "
				"its ports split %dx%g before ordering", nn, nt->sw.id, nt->breakout,
				nt->link_gbps);
	} else if (nt->sw.gbps > nt->link_gbps + 1e-9) {
		cl_decide(c, "cluster.port_speed",
			  "%s: %g Gb/s switch ports run at the node rate of %g Gb/s, one node port each%s",
			  nn, nt->sw.gbps, nt->link_gbps,
			  c->in.net[n].breakout ? " (the switch lists no matching split)" :
						  " (splitting is off)");
	}
	if (nt->tiers == 1) {
		if (cn->map == MAP_RAIL && cn->leaves > 1 && n == NICFIT_NET_BACKEND)
			cl_decide(c, "cluster.tiers",
				  "%s: one tier: each rail's %ld node ports fit one %d-port switch, "
				  "%d rail%s per switch, %ld switch%s per plane, no spines",
				  nn, c->in.nodes, R, cn->rpl, cn->rpl == 1 ? "" : "s", cn->leaves,
				  cn->leaves == 1 ? "" : "es");
		else
			cl_decide(c, "cluster.tiers",
				  "%s: one tier: %ld ports fit %s%ld %d-port switch%s (one takes up to %ld)",
				  nn, per_plane, n == NICFIT_NET_FRONTEND && cn->leaves > 1 ? "one per link, " : "",
				  cn->leaves, R, cn->leaves == 1 ? "" : "es", cn->cap1);
		return;
	}
	if (n == NICFIT_NET_OOB)
		cl_decide(c, "cluster.leaf",
			  "%s: a leaf takes up to %d ports + %d uplinks of %d", nn, cn->elaf, cn->u, R);
	else
		cl_decide(c, "cluster.leaf",
			  "%s: a leaf takes %d node ports on %d switch ports + %d uplinks of %d "
			  "(%.2f:1 at %g Gb/s down, %g Gb/s up)",
			  nn, cn->elaf, cn->down, cn->u, R, nt->leaf_ratio, nt->link_gbps, nt->sw.gbps);
	if (nt->tiers == 2 && n == NICFIT_NET_OOB) {
		cl_decide(c, "cluster.tiers", "%s: two tiers: %ld leaves <= %d, the ports of one spine",
			  nn, cn->leaves, R);
	} else if (nt->tiers == 2) {
		cl_decide(c, "cluster.tiers",
			  "%s: two tiers: %ld leaves per plane <= %d, the ports of one spine; "
			  "two tiers hold up to %d x %d = %ld node ports per plane here (R^2/2 = %ld at 1:1)",
			  nn, cn->leaves, R, R, cn->elaf, (long)R * cn->elaf, (long)R * R / 2);
	}
	if (nt->tiers == 2) {
		long need = (cn->leaves * cn->u + R - 1) / R;

		if (cn->spines > need)
			cl_decide(c, "cluster.spines",
				  "%s: %ld leaves x %d uplinks = %ld spine ports / %d = %ld spine%s per "
				  "plane, rounded up to %d (a count that divides the uplinks, so every "
				  "leaf has %d link%s to every spine and ECMP sees equal trunks)",
				  nn, cn->leaves, cn->u, cn->leaves * cn->u, R, need, need == 1 ? "" : "s",
				  cn->spines, cn->u / cn->spines, cn->u / cn->spines == 1 ? "" : "s");
		else
			cl_decide(c, "cluster.spines",
				  "%s: %ld leaves x %d uplinks = %ld spine ports / %d = %d spine%s per "
				  "plane, %s%d link%s from every leaf to every spine",
				  nn, cn->leaves, cn->u, cn->leaves * cn->u, R, cn->spines,
				  cn->spines == 1 ? "" : "s", cn->u % cn->spines ? "about " : "",
				  cn->u / cn->spines, cn->u / cn->spines == 1 ? "" : "s");
	} else {
		cl_decide(c, "cluster.tiers",
			  "%s: three tiers: %ld leaves per plane exceed the %d ports of a spine; "
			  "pods of up to %d leaves under spines with %d ports down (R^3/4 = %ld node ports at 1:1)",
			  nn, cn->leaves, R, R / 2, R / 2, (long)R * R / 4 * R);
		cl_decide(c, "cluster.pods",
			  "%s: %ld pods of %ld leaves and %d spines; %d core groups of %d cores, "
			  "%ld cores per plane (spine j of every pod joins core group j)",
			  nn, cn->pods, cn->lpp, cn->spines, cn->spines, cn->cg, cn->tier_sw[NICFIT_TIER_CORE]);
	}
	if (nt->leaf_ratio > 1.0001 && n == NICFIT_NET_BACKEND)
		cl_find(c, "warning", "cluster.blocking",
			"back end: leaves are %.2f:1 oversubscribed; all-reduce across leaves gets "
			"1/%.2f of the NIC rate when every GPU sends at once", nt->leaf_ratio,
			nt->leaf_ratio);
}

static void explain_all(struct nicfit_cluster *c)
{
	const struct nicfit_cluster_net *be = &c->net[NICFIT_NET_BACKEND];
	const struct nicfit_cluster_net *fe = &c->net[NICFIT_NET_FRONTEND];
	const struct nicfit_cluster_net *oob = &c->net[NICFIT_NET_OOB];
	const struct cl_net *cb = &c->impl->net[NICFIT_NET_BACKEND];

	if (be->enabled) {
		if (be->planes > 1)
			cl_decide(c, "cluster.planes",
				  "back end: %d independent planes; link l of a node goes to plane l mod %d, "
				  "so each plane carries %d of every node's %d links",
				  be->planes, be->planes, be->links_per_node / be->planes, be->links_per_node);
		if (c->in.net[NICFIT_NET_BACKEND].rail_only)
			cl_decide(c, "cluster.rail",
				  "back end: rail-only: link i of every node on rail i, each rail on one "
				  "switch (%d rail%s per switch), no spines", cb->rpl, cb->rpl == 1 ? "" : "s");
		else if (c->in.net[NICFIT_NET_BACKEND].rail_optimized)
			cl_decide(c, "cluster.rail",
				  "back end: rail-optimized: link i of every node on rail i (%d rails per plane)%s",
				  be->rails, be->tiers > 1 ? "; the spines are shared by all rails" : "");
		explain(c, NICFIT_NET_BACKEND);
		if (be->tiers == 1 && be->rails > 1 && cb->leaves > 1)
			cl_find(c, "info", "cluster.rail_only",
				"back end: rail-only: no spines, so traffic between rails must cross "
				"NVLink inside a node (PXN)");
		if (c->in.nodes == 2 && be->links_per_node)
			cl_find(c, "info", "cluster.back_to_back",
				"two nodes can also be cabled back to back without a back-end switch");
		if (be->sw.cat && c->nic) {
			int ib_sw = be->sw.cat->fabric && !strcmp(be->sw.cat->fabric, "infiniband");

			if (ib_sw && !c->nic->ib_rate)
				cl_find(c, "critical", "cluster.nic_not_ib",
					"%s is an InfiniBand switch but %s has no InfiniBand ports",
					be->sw.id, c->nic->part ? c->nic->part : c->nic->e.id);
			if (!ib_sw && !(c->nic->rdma & NICFIT_RDMA_ROCE))
				cl_find(c, "warning", "cluster.nic_no_rdma",
					"%s has no RoCE: the back end would run TCP only",
					c->nic->part ? c->nic->part : c->nic->e.id);
		}
		if (be->sw.cat && be->sw.cat->fabric && !strcmp(be->sw.cat->fabric, "ethernet") &&
		    !be->sw.cat->lossless)
			cl_find(c, "warning", "cluster.not_lossless",
				"the catalog does not list PFC/ECN for %s; RoCE needs a lossless "
				"fabric (PFC and ECN)", be->sw.id);
		if (c->nic && c->nic->port_gbps < be->link_gbps - 1e-9)
			cl_find(c, "critical", "cluster.nic_slower",
				"%s ports run at most %g Gb/s, not %g", c->nic->e.id, c->nic->port_gbps,
				be->link_gbps);
		if (c->nic && c->nic->ports < c->in.nic_ports)
			cl_find(c, "critical", "cluster.nic_ports",
				"%s has %d port%s, not %d", c->nic->e.id, c->nic->ports,
				c->nic->ports == 1 ? "" : "s", c->in.nic_ports);
	}
	if (fe->enabled) {
		cl_decide(c, "cluster.frontend",
			  "front end: %d x %g Gb/s link%s per node to %s, leaves serve whole racks; "
			  "the servers' own (onboard or OCP) ports are assumed, so the BOM has no "
			  "front-end NIC", fe->links_per_node, fe->link_gbps,
			  fe->links_per_node == 1 ? "" : "s",
			  fe->links_per_node == 1 ? "one leaf" : "different leaves (one per link)");
		explain(c, NICFIT_NET_FRONTEND);
		if (fe->links_per_node == 1)
			cl_find(c, "info", "cluster.single_homed",
				"front end: one link per node: a leaf failure cuts its racks off "
				"(--frontend-links 2 dual-homes every node to two leaves)");
	}
	if (oob->enabled) {
		cl_decide(c, "cluster.oob",
			  "OOB: %ld BMC ports and %ld switch management ports on %ld OOB leaves "
			  "(whole racks per leaf, %d uplinks each)",
			  c->in.nodes, c->impl->noob - c->in.nodes, c->impl->net[NICFIT_NET_OOB].leaves,
			  c->in.net[NICFIT_NET_OOB].uplinks);
		explain(c, NICFIT_NET_OOB);
	}
	if (c->in.nodes_per_rack * c->in.layout.node_u > c->in.layout.rack_u)
		cl_find(c, "warning", "cluster.rack_full",
			"%d nodes of %gU do not fit a %gU rack; lower --nodes-per-rack or set "
			"--assume node_u/rack_u", c->in.nodes_per_rack, c->in.layout.node_u,
			c->in.layout.rack_u);
}

/* ---- the whole sizing --------------------------------------------------------- */

static int count_link(void *ctx, const struct nicfit_cluster_link *l)
{
	struct nicfit_cluster *c = ctx;
	struct nicfit_cluster_net *nt = &c->net[l->net];
	enum nicfit_tier ta, tb;
	enum nicfit_net na;
	int pa;
	long ia;

	nt->links[l->level]++;
	if (l->new_cable)
		nt->cables++;
	if (l->length_m > c->max_length_m)
		c->max_length_m = (long)ceil(l->length_m);
	/* physical switch ports in use, counted once per port */
	if (l->a >= c->in.nodes && l->port_a >= 0 && l->lane_a <= 0) {
		cl_switch_of(c, l->a - c->in.nodes, &na, &pa, &ta, &ia);
		c->net[na].tier[ta].ports_used++;
	}
	if (l->b >= c->in.nodes && l->port_b >= 0 && l->lane_b <= 0) {
		cl_switch_of(c, l->b - c->in.nodes, &na, &pa, &tb, &ia);
		c->net[na].tier[tb].ports_used++;
	}
	return 0;
}

static int bom(struct nicfit_cluster *c, struct nicfit_error *err);

static int type_rank(const char *t)
{
	static const char *const order[] = { "dac", "breakout-dac", "aoc", "breakout-aoc",
		"optic", "fiber", "rj45", "generic", NULL };
	int i;

	for (i = 0; order[i]; i++)
		if (!strcmp(order[i], t))
			return i;
	return i;
}

static int cable_cmp(const void *pa, const void *pb)
{
	const struct nicfit_cluster_cable *a = pa, *b = pb;
	int d;

	if (a->net != b->net)
		return (int)a->net - (int)b->net;
	if (a->level != b->level)
		return (int)a->level - (int)b->level;
	d = type_rank(a->type) - type_rank(b->type);
	if (d)
		return d;
	if (a->length_m != b->length_m)
		return a->length_m < b->length_m ? -1 : 1;
	return strcmp(a->part, b->part);
}

/* Sort the cable lines for people, keeping the kits pointing at their items. */
static int sort_cables(struct nicfit_cluster *c)
{
	struct nicfit_cluster_impl *im = c->impl;
	struct nicfit_cluster_cable *tmp;
	int *where, i;
	size_t k;

	if (c->ncables < 2)
		return 0;
	tmp = malloc(c->ncables * sizeof(*tmp));
	where = malloc(c->ncables * sizeof(*where));
	if (!tmp || !where) {
		free(tmp);
		free(where);
		return NICFIT_E_NOMEM;
	}
	memcpy(tmp, c->cables, c->ncables * sizeof(*tmp));
	qsort(c->cables, c->ncables, sizeof(*c->cables), cable_cmp);
	for (k = 0; k < c->ncables; k++) {
		size_t j;

		for (j = 0; j < c->ncables; j++)
			if (!cable_cmp(&tmp[k], &c->cables[j]))
				break;
		where[k] = (int)j;
	}
	for (i = 0; i < im->nkits; i++) {
		struct cl_kit *kt = &im->kits[i];

		kt->item_port = kt->item_port >= 0 ? where[kt->item_port] : -1;
		kt->item_leg = kt->item_leg >= 0 ? where[kt->item_leg] : -1;
		kt->item_fiber = kt->item_fiber >= 0 ? where[kt->item_fiber] : -1;
	}
	free(tmp);
	free(where);
	return 0;
}

/* Link rates left at 0: the NIC's, else the catalog switch's, else the defaults. */
static void auto_rates(struct nicfit_cluster *c)
{
	static const double def[] = { 400, 25, 1 };
	int n;

	for (n = 0; n < NICFIT_NET_COUNT; n++) {
		struct nicfit_cluster_net_input *ni = &c->in.net[n];
		const struct nicfit_switch *s = NULL;

		if (ni->link_gbps > 0)
			continue;
		if (ni->switch_id && c->impl->cat)
			s = nicfit_catalog_find_switch(c->impl->cat, ni->switch_id, switch_opt(n), NULL);
		if (n == NICFIT_NET_BACKEND && c->nic)
			ni->link_gbps = c->nic->port_gbps;
		else if (s && s->port_gbps > 0)
			ni->link_gbps = s->port_gbps;
		else
			ni->link_gbps = def[n];
	}
}

int nicfit_cluster_size(const struct nicfit_cluster_input *in,
			const struct nicfit_catalog *cat, struct nicfit_cluster *out,
			struct nicfit_error *err)
{
	struct nicfit_cluster_impl *im;
	struct placer p;
	struct leafdes d[NICFIT_NET_COUNT];
	int rc, n, t;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	out->in = *in;
	if (in->nics_per_node > 0 && in->nic_ports > 0) {
		long links = (long)in->nics_per_node * in->nic_ports;

		/* out of range is refused by check_input() below */
		out->in.net[NICFIT_NET_BACKEND].links_per_node =
			links > NICFIT_CLUSTER_MAX_LINKS ? NICFIT_CLUSTER_MAX_LINKS + 1 : (int)links;
	} else {
		out->in.net[NICFIT_NET_BACKEND].links_per_node = 0;
	}
	out->impl = im = calloc(1, sizeof(*im));
	if (!im)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	im->cat = cat;
	im->counting = 1;
	if (in->nic_id && out->in.net[NICFIT_NET_BACKEND].links_per_node) {
		out->nic = cat ? nicfit_catalog_find_nic(cat, in->nic_id, "--nic", err) : NULL;
		if (!out->nic) {
			rc = err && err->code ? err->code :
				nicfit_error_at(err, NICFIT_E_NOTFOUND, "--nic", 0, 0,
						"unknown NIC '%.64s'", in->nic_id);
			goto fail;
		}
	}
	auto_rates(out);
	if (out->in.net[NICFIT_NET_BACKEND].rail_only)
		out->in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
	rc = check_input(&out->in, err);
	if (rc)
		goto fail;
	in = &out->in;
	out->gpus = in->nodes * in->gpus_per_node;
	p.C = cdiv(in->nodes, in->nodes_per_rack);
	p.rpr = (long)in->layout.racks_per_row;
	if (p.rpr < 1)
		p.rpr = 1;
	out->racks = p.C;
	im->crow = cdiv(p.C, p.rpr);
	im->node_digits = digits(in->nodes);
	if (im->node_digits < 4)
		im->node_digits = 4;
	/* back end and front end */
	for (n = 0; n < NICFIT_NET_OOB; n++) {
		if (!in->net[n].links_per_node)
			continue;
		rc = net_setup(out, n, &d[n], err);
		if (!rc)
			rc = leaf_layer(out, n, &d[n], err);
		if (rc)
			goto fail;
		net_publish(out, n, &d[n]);
		im->net[n].base = im->nsw;
		im->nsw += im->net[n].per_plane * out->net[n].planes;
	}
	/* where they stand */
	p.slots = calloc((size_t)im->crow + 2, sizeof(*p.slots));
	p.tors = calloc((size_t)p.C + 1, sizeof(*p.tors));
	im->pos = malloc(((size_t)im->nsw + 1) * sizeof(*im->pos));
	im->row_half = calloc((size_t)im->crow + 2, sizeof(*im->row_half));
	im->row_net = calloc((size_t)im->crow + 2, sizeof(*im->row_net));
	if (!p.slots || !p.tors || !im->pos || !im->row_half || !im->row_net) {
		rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		goto fail;
	}
	p.hmax = 1;
	for (n = 0; n < NICFIT_NET_COUNT; n++)
		if (out->net[n].enabled && out->net[n].sw.height_u > p.hmax)
			p.hmax = out->net[n].sw.height_u;
	for (n = 0; n < NICFIT_NET_OOB; n++)
		if (out->net[n].enabled)
			place_net(out, &p, n);
	/* the OOB network reaches BMCs and the switches where they stand */
	if (in->net[NICFIT_NET_OOB].links_per_node) {
		rc = size_oob(out, &p, err);
		if (rc)
			goto fail;
	}
	finalize_positions(out, &p);
	/* cables, counted by walking every link once */
	rc = cl_classes(out, err);
	if (rc)
		goto fail;
	rc = cl_walk(out, count_link, out);
	if (rc)
		goto fail;
	im->counting = 0;
	if (sort_cables(out)) {
		rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		goto fail;
	}
	for (n = 0; n < NICFIT_NET_COUNT; n++) {
		struct nicfit_cluster_net *nt = &out->net[n];

		if (!nt->enabled)
			continue;
		for (t = 0; t < NICFIT_TIER_COUNT; t++) {
			long total = nt->tier[t].switches * nt->sw.ports;

			nt->tier[t].ports_free = total - nt->tier[t].ports_used;
			nt->ports_total += total;
			nt->ports_free += nt->tier[t].ports_free;
		}
	}
	explain_all(out);
	rc = bom(out, err);
	if (rc)
		goto fail;
	free(p.slots);
	free(p.tors);
	return 0;
fail:
	free(p.slots);
	free(p.tors);
	nicfit_cluster_free(out);
	return rc;
}

void nicfit_cluster_free(struct nicfit_cluster *c)
{
	struct nicfit_cluster_impl *im;
	int n;

	if (!c)
		return;
	im = c->impl;
	if (im) {
		for (n = 0; n < NICFIT_NET_COUNT; n++)
			free(im->net[n].ranges);
		free(im->pos);
		free(im->row_half);
		free(im->row_net);
		free(im->oob_list);
		cl_kits_free(im);
		free(im);
	}
	free(c->cables);
	free(c->bom);
	memset(c, 0, sizeof(*c));
}

void cl_switch_of(const struct nicfit_cluster *c, long s, enum nicfit_net *net, int *plane,
		  enum nicfit_tier *tier, long *idx)
{
	const struct nicfit_cluster_impl *im = c->impl;
	int n, t;

	for (n = NICFIT_NET_COUNT - 1; n >= 0; n--)
		if (c->net[n].enabled && im->net[n].per_plane > 0 && s >= im->net[n].base)
			break;
	if (n < 0)
		n = 0;
	*net = n;
	s -= im->net[n].base;
	*plane = (int)(s / im->net[n].per_plane);
	s %= im->net[n].per_plane;
	for (t = 0; t < NICFIT_TIER_COUNT - 1 && s >= im->net[n].tier_sw[t]; t++)
		s -= im->net[n].tier_sw[t];
	*tier = t;
	*idx = s;
}

/* ---- bill of materials ---------------------------------------------------------- */

static int bom_add(struct nicfit_cluster *c, size_t *cap, const char *part, const char *desc,
		   long qty, const struct nicfit_entry *e)
{
	struct nicfit_cluster_bom_line *b;
	size_t i;

	if (qty <= 0)
		return 0;
	for (i = 0; i < c->nbom; i++)
		if (!strcmp(c->bom[i].part, part)) {
			c->bom[i].qty += qty;
			c->bom[i].total_usd = c->bom[i].priced ? c->bom[i].unit_usd * c->bom[i].qty : 0;
			return 0;
		}
	if (c->nbom == *cap) {
		size_t nc = *cap ? *cap * 2 : 32;

		b = realloc(c->bom, nc * sizeof(*b));
		if (!b)
			return NICFIT_E_NOMEM;
		c->bom = b;
		*cap = nc;
	}
	b = &c->bom[c->nbom++];
	memset(b, 0, sizeof(*b));
	snprintf(b->part, sizeof(b->part), "%s", part);
	snprintf(b->description, sizeof(b->description), "%s", desc);
	b->qty = qty;
	if (e && e->priced) {
		b->priced = 1;
		b->unit_usd = e->price_usd;
		b->total_usd = e->price_usd * qty;
		b->prices_as_of = e->prices_as_of;
		b->source = e->price_source;
	}
	return 0;
}

static int bom(struct nicfit_cluster *c, struct nicfit_error *err)
{
	size_t cap = 0, i;
	int n, rc = 0;

	for (n = 0; n < NICFIT_NET_COUNT && !rc; n++) {
		const struct nicfit_cluster_net *nt = &c->net[n];
		long qty = 0;
		int t;

		if (!nt->enabled)
			continue;
		for (t = 0; t < NICFIT_TIER_COUNT; t++)
			qty += nt->tier[t].switches;
		rc = bom_add(c, &cap, nt->sw.id, nt->sw.name, qty, nt->sw.cat ? &nt->sw.cat->e : NULL);
	}
	if (!rc && c->nic)
		rc = bom_add(c, &cap, c->nic->e.id, c->nic->e.name ? c->nic->e.name : c->nic->e.id,
			     c->in.nodes * c->in.nics_per_node, &c->nic->e);
	for (i = 0; i < c->ncables && !rc; i++)
		rc = bom_add(c, &cap, c->cables[i].part, c->cables[i].description, c->cables[i].qty,
			     c->cables[i].cat ? &c->cables[i].cat->e : NULL);
	if (rc)
		return nicfit_error_set(err, rc, "out of memory");
	c->total_usd = 0;
	c->prices_as_of[0] = '\0';
	for (i = 0; i < c->nbom; i++) {
		if (!c->bom[i].priced)
			continue;
		c->total_usd += c->bom[i].total_usd;
		if (c->bom[i].prices_as_of && strcmp(c->bom[i].prices_as_of, c->prices_as_of) > 0)
			snprintf(c->prices_as_of, sizeof(c->prices_as_of), "%s", c->bom[i].prices_as_of);
	}
	return 0;
}
