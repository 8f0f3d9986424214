/*
 * cluster_tiers.c - sizing the tiers of one network: how many node ports
 * a leaf takes (radix, split ports, oversubscription), the leaf layer of
 * the back end and the front end as groups of nodes, and the spine and
 * core tiers filled instead of over-provisioned.
 *
 * The textbook limits follow from the leaf design: a leaf with radix R at
 * 1:1 takes R/2 node ports; a spine joins at most R leaves, so two tiers
 * hold R * R/2 = R^2/2 node ports; a pod of R/2 leaves under spines with
 * R/2 ports down, and at most R pods under the cores, give R^3/4.
 *
 * The OOB network cuts its leaves from a list of endpoints instead
 * (cluster_oob.c) and shares the capacity and upper-tier rules here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cluster/cluster_int.h"
#include "core/num_int.h"

/* ---- leaf capacity ----------------------------------------------------------- */

/*
 * Uplinks a leaf with e node ports needs: enough that down:up bandwidth is
 * at most the oversubscription asked for (1:1 is non-blocking, the
 * textbook fat tree), rounded up; a fixed count when one was given (the
 * OOB network's two uplinks per leaf, for redundancy rather than
 * bandwidth).
 */
static int uplinks_for(const struct leafdes *d, long e)
{
	double need;

	/* a scheduled leaf's fabric ports are a group of their own */
	if (d->sw->cat && d->sw->cat->scheduled)
		return 0;
	if (d->ni->uplinks > 0)
		return d->ni->uplinks;
	need = (double)e * d->ni->link_gbps / (d->ni->oversubscription * d->sw->gbps);
	return (int)ceil(need - NICFIT_EPS);
}

/*
 * Can a leaf carry e node ports and u uplinks? Node ports take e/b split
 * ports (b node ports each), and each of those stride switch ports where
 * a split needs its neighbour's logical ports (cluster_net.c
 * nicfit__cluster_split_stride(): a switch's logical-port limit is that); uplinks start
 * on a fresh cage, so that a twin-port cage never carries a node port and
 * an uplink. Ports left idle are no logical ports: they are not split
 * and need not be enabled.
 */
static int leaf_fits(const struct leafdes *d, long e, int u)
{
	long ports = (e + d->b - 1) / d->b * d->stride;

	return (u ? whole_cages(ports, d->sw->per_cage) : ports) + u <= d->sw->ports;
}

/*
 * A scheduled leaf's fabric ports are fixed, so the ratio asked for caps
 * its node ports instead: e node ports at most the ratio times the fabric
 * bandwidth (1:1 leaves the 7700R4C-38PE's 18 x 2 x 400G under its 20 x
 * 800G; AMD's 1:1.16 takes 34).
 */
static int scheduled_fits(const struct leafdes *d, long e)
{
	const struct nicfit_switch *s = d->sw->cat;

	return (double)e * d->ni->link_gbps <=
	       d->ni->oversubscription * s->uplink_ports * s->uplink_gbps + NICFIT_EPS;
}

/* Most node ports a leaf takes: with no uplinks (one tier) or with them. */
long nicfit__cluster_leaf_max(const struct leafdes *d, int with_uplinks)
{
	int sched = with_uplinks && d->sw->cat && d->sw->cat->scheduled &&
		    d->sw->cat->uplink_gbps > 0;
	long e;

	for (e = (long)d->sw->ports * d->b; e > 0; e--)
		if (leaf_fits(d, e, with_uplinks ? uplinks_for(d, e) : 0) &&
		    (!sched || scheduled_fits(d, e)))
			return e;
	return 0;
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

/* ---- the spine and core tiers ------------------------------------------------ */

/*
 * Round u up to a multiple of spines when the leaf has ports for it and
 * the spine count stays the same, so that every leaf has the same number
 * of links to every spine: ECMP spreads flows evenly over equal trunks
 * only. A fixed uplink count is kept as given.
 */
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

/*
 * Three tiers as pods of lpp leaves: each pod's leaves are joined by its
 * own spines (at most R/2 leaves per pod, so a spine keeps half its ports
 * for the cores), and spine j of every pod joins core group j. Spines
 * face the cores with as many ports as they face their leaves (1:1 above
 * the leaves: oversubscription is a leaf decision), rounded up to a
 * multiple of the group size when that fits, so every spine has equal
 * trunks to its cores. Returns 0 when the cores reach every pod (a core
 * has R ports), else -1 with cn unchanged.
 */
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

/*
 * The spine tier of a scheduled fabric: every leaf sends its cells over
 * all of its fabric ports (u = uplink_ports, whatever the node ports use),
 * spread evenly over F cell switches of Rf ports each; F is the fewest
 * that divide u and hold L x u fabric links. Past Rf leaves per plane one
 * fabric tier is not enough: a second tier of cell switches is not
 * modelled, so the request is refused with the limit.
 */
static int scheduled_tiers(struct nicfit_cluster *c, enum nicfit_net n, const struct leafdes *d,
			   struct nicfit_error *err)
{
	struct nicfit_cluster_net *nt = &c->net[n];
	struct cl_net *cn = &c->impl->net[n];
	long L = cn->leaves, f, need;
	int u = d->sw->cat->uplink_ports, Rf = nt->fabric.ports;

	if (d->ni->min_tiers > 2)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--tiers", 0, 0,
				       "%s is the leaf of a scheduled fabric: its cell switches are its "
				       "one tier above the leaves, and a third tier is not modelled",
				       d->sw->id);
	need = cdiv(L * u, Rf);
	for (f = need; f <= u && u % f; f++)
		;
	if (f > u)
		return nicfit_error_at(err, NICFIT_E_USAGE, nicfit_net_name(n), 0, 0,
				       "%ld leaves per plane exceed one fabric tier of %s (%d leaves "
				       "of %d fabric ports on %d-port cell switches, %ld node ports); "
				       "a second tier of cell switches is not modelled: use more "
				       "planes", L, nt->fabric.id, Rf, u, Rf, (long)Rf * cn->elaf);
	cn->tiers = 2;
	cn->u = u;
	cn->upbase = d->sw->ports;
	cn->spines = (int)f;
	cn->sdown = (int)(L * u / f);
	cn->tier_sw[NICFIT_TIER_LEAF] = L;
	cn->tier_sw[NICFIT_TIER_SPINE] = f;
	return 0;
}

/*
 * Three tiers of rail pods, a rack-scale design's scalable units past the
 * first (the DGX SuperPOD GB200 layout: every SU's leaves of one rail
 * under their own spines, those spines under shared cores): gpp groups (a
 * unit's racks) a pod, one leaf each. Each pod's spines are the fewest
 * that take its uplinks at R/2 ports down and divide a leaf's uplinks, so
 * every leaf has equal trunks to every spine of its pod; the spines face
 * the cores with as many ports as they face their leaves, and spine j of
 * every pod joins core group j, as in try_pods. With QM9700 and 4 rails of
 * 18-tray racks this gives, for 2, 4, 8 and 16 SUs of 8 racks, 64/128/
 * 256/512 leaves, 48/96/192/384 spines and 18/36/72/144 cores: the RA's
 * table as its summaries give it (docs/reference/baseboard-servers.md).
 * One unit alone is the same spine-leaf groups with no cores above them
 * (their spines' core-facing ports left for the next unit): 32 leaves and
 * 24 spines, the RA's "8 leaf switches (one for each compute rack) and 6
 * spine switches" a group as secondary readings quote it. Returns 0 (three
 * tiers), 1 (one unit: two tiers of rail pods), or -1 with cn unchanged
 * when the cores cannot reach every pod.
 */
static int try_rail_pods(struct cl_net *cn, const struct leafdes *d, int R, long gpp)
{
	long hd = R / 2, lpp = gpp, pods, sp, smin, sdown, sup, cg, base;
	int u = cn->u;

	if (gpp < 1 || lpp > hd || u < 1)
		return -1;
	pods = cdiv(cn->ngroups, gpp) * cn->kp;
	smin = cdiv(lpp * u, hd);
	for (sp = smin; sp <= u && u % sp; sp++)
		;
	if (sp > u)
		sp = smin;
	sdown = cdiv(lpp * u, sp);
	if (pods <= cn->kp) {
		/* one unit: its rail groups are the whole fabric, no cores */
		cn->rail_pods = 1;
		cn->gpp = gpp;
		cn->pods = pods;
		cn->lpp = lpp;
		cn->spines = (int)sp;
		cn->sdown = (int)sdown;
		cn->sup = 0;
		cn->cg = 0;
		return 1;
	}
	sup = sdown;
	cg = cdiv(pods * sup, R);
	base = whole_cages(sdown, d->sw->per_cage);
	if (cg > sup || base + sup > R)
		return -1;
	if (sup % cg) {
		long sup2 = (sup / cg + 1) * cg;

		if (sup2 <= R - base && cdiv(pods * sup2, R) == cg)
			sup = sup2;
	}
	cn->rail_pods = 1;
	cn->gpp = gpp;
	cn->supbase = (int)base;
	cn->pods = pods;
	cn->lpp = lpp;
	cn->spines = (int)sp;
	cn->sdown = (int)sdown;
	cn->sup = (int)sup;
	cn->cg = (int)cg;
	return 0;
}

/*
 * The tiers above the leaves. Two tiers when every leaf can reach every
 * spine: S = leaves x uplinks / R spines, at most one per uplink of a
 * leaf, which with R-port switches holds R x (node ports per leaf) node
 * ports per plane (R^2/2 at 1:1). Uplinks that do not divide evenly take
 * the fewest spines that divide them, so ECMP sees equal trunks. Past
 * that, three tiers of pods (try_pods), whole groups of leaves per pod
 * when they fit, so that a rail group stays in one pod; past R^3/4 at 1:1
 * the request is refused with what would fit.
 */
int nicfit__cluster_upper_tiers(struct nicfit_cluster *c, enum nicfit_net n,
				const struct leafdes *d, struct nicfit_error *err)
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
	if (nt->scheduled)
		return scheduled_tiers(c, n, d, err);
	cn->u = uplinks_for(d, cn->elaf);
	if (cn->u < 1)
		cn->u = 1;
	/* a rack-scale design of whole scalable units: rail pods of whole units */
	if (n == NICFIT_NET_BACKEND && c->in.su_nodes > 0 && c->in.nodes >= c->in.su_nodes &&
	    cn->map == MAP_RAIL && cn->rpl == 1 && cn->lpg == cn->kp &&
	    c->in.su_nodes % cn->gsize == 0) {
		int rc = try_rail_pods(cn, d, R, c->in.su_nodes / cn->gsize);

		if (rc == 0)
			goto three;
		if (rc == 1) {
			cn->tiers = 2;
			cn->tier_sw[NICFIT_TIER_LEAF] = L;
			cn->tier_sw[NICFIT_TIER_SPINE] = cn->pods * cn->spines;
			return 0;
		}
	}
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
		return nicfit_error_at(err, NICFIT_E_USAGE, nicfit__cluster_switch_opt(n), 0, 0,
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

/*
 * One tier: a single switch takes every node port of a plane, or (rail-only,
 * and the front end, whose links are separate rails) one switch per rail.
 * Rails that fit together share a switch; without rails the switch takes
 * whole nodes.
 */
static void one_tier_map(struct cl_net *cn, enum nicfit_net n,
			 const struct nicfit_cluster_net_input *ni, long N, long cap1, int rail,
			 struct nicfit_cluster_net *nt)
{
	long kp = cn->kp;

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
}

/*
 * Two or more tiers: how a leaf's node ports are grouped. The front end
 * serves whole racks per leaf (so a rack's cables stay short), each of a
 * node's links on its own leaf; a rail-optimized back end puts link k of
 * every node of a group on rail k's leaves, groups as large as a leaf
 * takes; otherwise a leaf takes all links of as many nodes as fit, spread
 * evenly, and a node with more links than a leaf takes splits them over
 * several leaves. Returns 0 or NICFIT_E_USAGE when a leaf has no port left
 * for its uplinks.
 */
static int two_tier_map(struct cl_net *cn, enum nicfit_net n, const struct leafdes *d, long N,
			long M, long emax, int rail, int rack_leaves, struct nicfit_cluster_net *nt,
			struct nicfit_error *err)
{
	const struct nicfit_cluster_net_input *ni = d->ni;
	long kp = cn->kp;

	if (emax < 1)
		return nicfit_error_at(err, NICFIT_E_USAGE, nicfit__cluster_switch_opt(n), 0, 0,
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
	} else if (rail && rack_leaves && emax >= M) {
		/* a rack-scale design: each rail leaf takes whole racks, one rack's
		 * trays on one leaf per rail (the DGX SuperPOD GB200 layout) */
		cn->map = MAP_RAIL;
		cn->gsize = emax / M * M;
		cn->esub = (int)cn->gsize;
		cn->rpl = 1;
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
	nt->max_endpoints = emax * (long)(nt->scheduled ? nt->fabric.ports : d->sw->ports);
	return 0;
}

/*
 * The leaf layer of the back end or the front end, then the tiers above.
 *
 * One tier when one switch (or one per rail) takes every node port and at
 * least two tiers were not asked for; else leaves sized to the ports they
 * really use (nicfit__cluster_leaf_max with uplinks for the
 * oversubscription asked for). A rail-only design must fit one switch per
 * rail: it has no spines by definition, and traffic between rails crosses
 * NVLink inside a node instead (NCCL's PXN).
 */
int nicfit__cluster_leaf_layer(struct nicfit_cluster *c, enum nicfit_net n,
			       const struct leafdes *d, struct nicfit_error *err)
{
	const struct nicfit_cluster_net_input *ni = d->ni;
	struct nicfit_cluster_net *nt = &c->net[n];
	struct cl_net *cn = &c->impl->net[n];
	long N = c->in.nodes, M = c->in.nodes_per_rack, kp = cn->kp;
	long cap1 = nicfit__cluster_leaf_max(d, 0), emax = nicfit__cluster_leaf_max(d, 1), last;
	int rail = n == NICFIT_NET_FRONTEND || ni->rail_optimized || ni->rail_only;
	int one, rc;

	if (cap1 < 1)
		return nicfit_error_at(err, NICFIT_E_USAGE, nicfit__cluster_switch_opt(n), 0, 0,
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
		one_tier_map(cn, n, ni, N, cap1, rail, nt);
	} else {
		rc = two_tier_map(cn, n, d, N, M, emax, rail,
				  n == NICFIT_NET_BACKEND && c->in.rack_leaves, nt, err);
		if (rc)
			return rc;
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
	cn->down = (int)cdiv(cn->elaf, d->b) * d->stride;
	cn->upbase = (int)whole_cages(cn->down, d->sw->per_cage);
	return nicfit__cluster_upper_tiers(c, n, d, err);
}
