/*
 * cluster_walk.c - every link of a sized cluster, in port-map order, with
 * its length and what it is cabled with (see nicfit/cluster.h).
 *
 * The design is formulas, not a table of links: a leaf's node ports come
 * from its group (cluster_int.h), uplink j of leaf l lands on spine
 * (l*u + j) mod S at port (l*u + j) div S, and so on. Walking the design
 * once while sizing counts links, ports and cable items; the port map is
 * the same walk again, so the summary and the port map cannot disagree.
 */
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster_int.h"
#include "core/budget_int.h"

struct walker {
	const struct nicfit_cluster *c;
	nicfit_cluster_link_fn fn;
	void *ctx;
	/* legs of one leaf, in slot order */
	long *node;
	int *k;
	int *slot;
	int cap;
};

/* Every node port of leaf `leaf` (per plane) with its slot, in slot order. */
static int leaf_legs(struct walker *w, const struct cl_net *cn, long leaf)
{
	long N = w->c->in.nodes;
	long g = leaf / cn->lpg, lig = leaf % cn->lpg, g0 = g * cn->gsize;
	long count = N - g0 < cn->gsize ? N - g0 : cn->gsize, o, o1;
	int n = 0, r, r1, k;

	switch (cn->map) {
	case MAP_RAIL: {
		long lpr = (count + cn->esub - 1) / cn->esub, rb = lig / lpr, sub = lig % lpr;

		r1 = (int)((rb + 1) * cn->rpl);
		if (r1 > cn->kp)
			r1 = cn->kp;
		o1 = sub * cn->esub + cn->esub;
		if (o1 > count)
			o1 = count;
		for (r = (int)(rb * cn->rpl); r < r1; r++)
			for (o = sub * cn->esub; o < o1 && n < w->cap; o++, n++) {
				w->node[n] = g0 + o;
				w->k[n] = r;
				w->slot[n] = (int)((r % cn->rpl) * cn->esub + (o - sub * cn->esub));
			}
		break;
	}
	case MAP_NODES:
		o1 = lig * cn->npl + cn->npl;
		if (o1 > count)
			o1 = count;
		for (o = lig * cn->npl; o < o1; o++)
			for (k = 0; k < cn->kp && n < w->cap; k++, n++) {
				w->node[n] = g0 + o;
				w->k[n] = k;
				w->slot[n] = (int)((o - lig * cn->npl) * cn->kp + k);
			}
		break;
	case MAP_SPLIT: {
		long j = lig % cn->lpn;
		int k1 = (int)(j * cn->esub + cn->esub);

		if (k1 > cn->kp)
			k1 = cn->kp;
		for (k = (int)(j * cn->esub); k < k1 && n < w->cap; k++, n++) {
			w->node[n] = g0 + lig / cn->lpn;
			w->k[n] = k;
			w->slot[n] = (int)(k - j * cn->esub);
		}
		break;
	}
	case MAP_LIST: {
		const struct cl_range *rg = &cn->ranges[leaf];

		for (o = 0; o < rg->count && n < w->cap; o++, n++) {
			w->node[n] = w->c->impl->oob_list[rg->first + o];
			w->k[n] = 0;
			w->slot[n] = (int)o;
		}
		break;
	}
	}
	return n;
}

/*
 * The physical cables one link adds, as the BOM counts them: a cable (DAC,
 * AOC, RJ45, a generic link) once for all the legs it serves (first: the
 * first leg); on optics the link's own fibres, one per leg, two where a
 * twin-port optic's two engines carry one 800G port. The optics are
 * modules, not cables, and a twin-port optic shared by two ports adds
 * none: its two ports have a fibre each.
 */
static int kit_cables(const struct cl_kit *kt, int first)
{
	if (kt && kt->type == KIT_OPTICS)
		return kt->fibers > 1 ? kt->fibers : 1;
	return first;
}

/*
 * Is node port `port` of network n the first of its node cage, the one
 * whose link counts the twin-port module two node ports share? Every port
 * is, but where back-end ports share the node's twin-port cages
 * (nic_ports_per_cage): there only the lowest-numbered port of each cage.
 */
static int first_in_cage(const struct nicfit_cluster *c, enum nicfit_net n, int port)
{
	const struct nicfit_cluster_input *in = &c->in;
	int q;

	if (n != NICFIT_NET_BACKEND || in->nic_ports_per_cage < 2 || port < 0 ||
	    port >= NICFIT_CLUSTER_MAX_LINKS)
		return 1;
	for (q = 0; q < port; q++)
		if (in->nic_cage[q] == in->nic_cage[port])
			return 0;
	return 1;
}

static int walk_hosts(struct walker *w, enum nicfit_net n, int plane)
{
	const struct nicfit_cluster *c = w->c;
	const struct nicfit_cluster_net *nt = &c->net[n];
	const struct cl_net *cn = &c->impl->net[n];
	long leaf, N = c->in.nodes;
	int b = nt->breakout, cage = nt->breakout * nt->sw.per_cage, rc;

	for (leaf = 0; leaf < cn->leaves; leaf++) {
		long s = nicfit__cluster_switch_id(c, n, plane, NICFIT_TIER_LEAF, leaf);
		int legs, i = 0;

		if (nicfit_budget_tick())
			return NICFIT_E_LIMIT; /* the thread's CPU budget is spent */
		legs = leaf_legs(w, cn, leaf);

		while (i < legs) {
			double len[CL_MAX_LEGS], max = 0;
			int same[CL_MAX_LEGS], j, m = 1, all_same = 1, cls, first_b = 0;
			const struct cl_kit *kt;

			/* the legs of one switch port (or twin-port cage) share a cable */
			while (i + m < legs && m < cage && m < CL_MAX_LEGS &&
			       w->slot[i + m] / cage == w->slot[i] / cage)
				m++;
			for (j = 0; j < m; j++) {
				len[j] = nicfit__cluster_length(c, w->node[i + j], s, &same[j]);
				if (len[j] > max)
					max = len[j];
				all_same &= same[j];
				first_b += first_in_cage(c, n, w->k[i + j] * nt->planes + plane);
			}
			cls = cn->cls[NICFIT_LINK_HOST];
			if (n == NICFIT_NET_OOB && w->node[i] >= N && !cl_is_bmc(c, w->node[i]))
				cls = cn->cls[NICFIT_LINK_MGMT];
			kt = nicfit__cluster_kit_for(c, cls, max, all_same);
			nicfit__cluster_count_kit(c, kt, m, 1, first_b);
			for (j = 0; j < m; j++) {
				struct nicfit_cluster_link l;
				long node = w->node[i + j];
				int k = w->k[i + j], mgmt = n == NICFIT_NET_OOB && node >= N &&
							     !cl_is_bmc(c, node);

				l.net = n;
				l.level = mgmt ? NICFIT_LINK_MGMT : NICFIT_LINK_HOST;
				l.plane = n == NICFIT_NET_OOB ? -1 : plane;
				l.rail = n == NICFIT_NET_FRONTEND || (n == NICFIT_NET_BACKEND &&
								    c->in.net[n].rail_optimized) ? k : -1;
				l.a = node;
				l.port_a = n == NICFIT_NET_OOB ? (mgmt ? -1 : 0) : k * nt->planes + plane;
				l.lane_a = -1;
				l.b = s;
				l.port_b = w->slot[i + j] / b * nt->split_stride;
				l.lane_b = b > 1 ? w->slot[i + j] % b : -1;
				l.length_m = len[j];
				l.cable = kt ? kt->label : "?";
				l.new_cable = j == 0;
				l.cables = kit_cables(kt, j == 0);
				rc = w->fn(w->ctx, &l);
				if (rc)
					return rc;
			}
			i += m;
		}
	}
	return 0;
}

static int link_up(struct walker *w, enum nicfit_net n, int plane, enum nicfit_link_level lv,
		   long a, int pa, long b, int pb)
{
	const struct nicfit_cluster *c = w->c;
	struct nicfit_cluster_link l;
	const struct cl_kit *kt;
	int same, twin = c->net[n].sw.per_cage, cls = c->impl->net[n].cls[lv];

	l.net = n;
	l.level = lv;
	l.plane = n == NICFIT_NET_OOB ? -1 : plane;
	l.rail = -1;
	l.a = a;
	l.port_a = pa;
	l.lane_a = -1;
	l.b = b;
	l.port_b = pb;
	l.lane_b = -1;
	l.length_m = nicfit__cluster_length(c, a, b, &same);
	kt = nicfit__cluster_kit_for(c, cls, l.length_m, same);
	nicfit__cluster_count_kit(c, kt, 1, pb % twin == 0, pa % twin == 0);
	l.cable = kt ? kt->label : "?";
	/* a twin-port cable joins both ports of a cage: new on the first only */
	l.new_cable = !(kt && kt->type == KIT_CABLE && c->impl->classes[cls].paired) || pa % twin == 0;
	l.cables = kt && kt->type == KIT_CABLE ? l.new_cable : kit_cables(kt, 1);
	return w->fn(w->ctx, &l);
}

static int walk_up(struct walker *w, enum nicfit_net n, int plane)
{
	const struct cl_net *cn = &w->c->impl->net[n];
	const struct cl_class *cls = w->c->impl->classes;
	int twin = w->c->net[n].sw.per_cage, pls, psc;
	long l, p;
	int j, s, rc;

	if (cn->tiers < 2)
		return 0;
	pls = cn->cls[NICFIT_LINK_LEAF_SPINE] >= 0 && cls[cn->cls[NICFIT_LINK_LEAF_SPINE]].paired;
	for (l = 0; l < cn->leaves; l++) {
		long a = nicfit__cluster_switch_id(w->c, n, plane, NICFIT_TIER_LEAF, l);

		if (nicfit_budget_tick())
			return NICFIT_E_LIMIT;
		for (j = 0; j < cn->u; j++) {
			long pod = 0, pos = l, spine, port;

			if (!(cn->tiers == 2 && !cn->rail_pods))
				cl_leaf_pod(cn, l, &pod, &pos);
			cl_twin_up(pls, twin, pos * cn->u, j, cn->spines, &spine, &port);
			rc = link_up(w, n, plane, NICFIT_LINK_LEAF_SPINE, a, cn->upbase + j,
				     nicfit__cluster_switch_id(w->c, n, plane, NICFIT_TIER_SPINE,
							       pod * cn->spines + spine),
				     (int)port);
			if (rc)
				return rc;
		}
	}
	if (cn->tiers < 3)
		return 0;
	psc = cn->cls[NICFIT_LINK_SPINE_CORE] >= 0 && cls[cn->cls[NICFIT_LINK_SPINE_CORE]].paired;
	for (p = 0; p < cn->pods; p++)
		for (s = 0; s < cn->spines; s++) {
			long a = nicfit__cluster_switch_id(w->c, n, plane, NICFIT_TIER_SPINE, p * cn->spines + s);

			for (j = 0; j < cn->sup; j++) {
				long core, port;

				cl_twin_up(psc, twin, p * cn->sup, j, cn->cg, &core, &port);
				rc = link_up(w, n, plane, NICFIT_LINK_SPINE_CORE, a, cn->supbase + j,
					     nicfit__cluster_switch_id(w->c, n, plane, NICFIT_TIER_CORE,
								       (long)s * cn->cg + core),
					     (int)port);
				if (rc)
					return rc;
			}
		}
	return 0;
}

int nicfit_cluster_walk(const struct nicfit_cluster *c, nicfit_cluster_link_fn fn, void *ctx)
{
	struct walker w;
	int n, plane, rc = 0, cap = 1;

	if (!c || !c->impl)
		return 0;
	memset(&w, 0, sizeof(w));
	w.c = c;
	w.fn = fn;
	w.ctx = ctx;
	for (n = 0; n < NICFIT_NET_COUNT; n++)
		if (c->net[n].enabled && c->impl->net[n].elaf > cap)
			cap = c->impl->net[n].elaf;
	w.cap = cap;
	w.node = malloc((size_t)cap * sizeof(*w.node));
	w.k = malloc((size_t)cap * sizeof(*w.k));
	w.slot = malloc((size_t)cap * sizeof(*w.slot));
	if (!w.node || !w.k || !w.slot) {
		rc = NICFIT_E_NOMEM;
		goto out;
	}
	for (n = 0; n < NICFIT_NET_COUNT && !rc; n++) {
		if (!c->net[n].enabled)
			continue;
		for (plane = 0; plane < c->net[n].planes && !rc; plane++) {
			rc = walk_hosts(&w, n, plane);
			if (!rc)
				rc = walk_up(&w, n, plane);
		}
	}
out:
	free(w.node);
	free(w.k);
	free(w.slot);
	return rc;
}
