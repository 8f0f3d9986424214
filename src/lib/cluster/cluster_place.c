/*
 * cluster_place.c - where every switch stands, which the cable lengths
 * come from: a leaf whose nodes fill a few racks of one row on top of the
 * middle one (or of another of them when the middle one has no room left
 * above its nodes), other leaves in the network racks in the middle of
 * their row, spines and cores in a spine row of their own (the spines of a
 * three-tier pod in the row of the pod's first nodes). Switches are first
 * given a slot or a top-of-rack mark, then rack positions once every
 * network is placed and the width of each row's network racks is known.
 */
#include <stdint.h>

#include "cluster/cluster_int.h"
#include "core/num_int.h"

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

long nicfit__cluster_rack_switches(double switches_per_rack, double rack_u, int height_u)
{
	long spr = (long)switches_per_rack, fit;

	fit = height_u > 0 ? (long)(rack_u / height_u + NICFIT_EPS) : spr;
	if (fit < spr)
		spr = fit;
	return spr < 1 ? 1 : spr;
}

/* Switch s, h units high, on top of compute rack rack, under those already there. */
static void place_tor(struct nicfit_cluster *c, struct placer *p, long s, long rack, int h)
{
	struct cl_pos *q = &c->impl->pos[s];

	q->row = (int32_t)(rack / p->rpr);
	q->x = -(int32_t)(rack % p->rpr) - 1;
	q->u = (float)(c->in.layout.rack_u - p->tor_u[rack] - h / 2.0);
	p->tor_u[rack] += h;
}

void nicfit__cluster_place_slot(struct nicfit_cluster *c, struct placer *p, long s, long row)
{
	struct cl_pos *q = &c->impl->pos[s];

	q->row = (int32_t)row;
	q->x = (int32_t)p->slots[row]++;
	q->u = 0;
}

/* The nodes compute rack r holds: nodes_per_rack, fewer in the last one. */
static long rack_nodes(const struct nicfit_cluster *c, long r)
{
	long M = c->in.nodes_per_rack, n = lmin(M, c->in.nodes - r * M);

	return n > 0 ? n : 0;
}

/*
 * The units a rack-scale system's own equipment takes in each of its
 * physical racks besides the compute trays: its NVLink switch trays, its
 * management switches and its power shelves, each at the height its
 * catalog entry gives (rack.switch_tray_u, mgmt_switch_u, power_shelf_u;
 * one not given counts nothing). A GB200 NVL72 rack: 9 x 1U switch trays,
 * 2 x 1U management switches, 8 x 1U power shelves, 19U (the NVIDIA DGX
 * GB200 User Guide's rack configuration; the shelves Supermicro's, see
 * data/nv-rack.json). A unit over several racks (NVL36x2) shares its
 * switch trays among them. Every compute rack holds them, a partial one
 * too, since its trays' NVLink domain runs through its own switch trays
 * (nicfit_rack_domains). 0 for a plain server.
 */
double nicfit__cluster_rack_gear_u(const struct nicfit_cluster *c)
{
	const struct nicfit_server *sv = c->server;
	int racks;

	if (!sv || sv->rack_trays <= 0)
		return 0;
	racks = sv->rack_racks > 0 ? sv->rack_racks : 1;
	return (double)cdiv(sv->rack_switch_trays, racks) * sv->rack_switch_tray_u +
	       (double)sv->rack_mgmt_switches * sv->rack_mgmt_switch_u +
	       (double)sv->rack_power_shelves * sv->rack_power_shelf_u;
}

/*
 * Whether compute rack r has room on top for one more switch of h units.
 * Its nodes fill it from the bottom, node_u each, with a rack-scale
 * system's switch trays, management switches and power shelves
 * (nicfit__cluster_rack_gear_u); switches stack down from the top, each
 * its own height (place_tor()), and the new one must end above all that.
 */
static int tor_room(const struct nicfit_cluster *c, const struct placer *p, long r, int h)
{
	double nodes_u = (double)rack_nodes(c, r) * c->in.layout.node_u +
			 nicfit__cluster_rack_gear_u(c);

	return p->tor_u[r] + h <= c->in.layout.rack_u - nodes_u + NICFIT_EPS;
}

/* Record, for the decision that says so, the first compute rack found full. */
static void note_full(struct nicfit_cluster_impl *im, const struct nicfit_cluster *c,
		      const struct placer *p, long r, int h)
{
	if (im->tor_moved + im->tor_shifted > 0)
		return;
	im->tor_full_rack = r;
	im->tor_full_nodes = rack_nodes(c, r);
	im->tor_full_used_u = p->tor_u[r];
	im->tor_full_h = h;
}

/*
 * On top of the middle rack of its span when the span is short and stays
 * in one row, if that rack has room above its nodes (tor_room); else on
 * top of the nearest other rack of the span that has (its cables still
 * reach every node of the span); else in the network racks of the first
 * rack's row, as a leaf of a long span.
 */
void nicfit__cluster_place_leaf(struct nicfit_cluster *c, struct placer *p, long s, int h,
				long r0, long r1)
{
	struct nicfit_cluster_impl *im = c->impl;
	long mid = (r0 + r1) / 2, d, r;

	if (r1 - r0 + 1 > (long)c->in.layout.tor_span || r0 / p->rpr != r1 / p->rpr) {
		nicfit__cluster_place_slot(c, p, s, r0 / p->rpr);
		return;
	}
	if (tor_room(c, p, mid, h)) {
		place_tor(c, p, s, mid, h);
		return;
	}
	note_full(im, c, p, mid, h);
	for (d = 1; d <= r1 - r0; d++) {
		r = mid - d;
		if (r < r0 || !tor_room(c, p, r, h))
			r = mid + d;
		if (r <= r1 && tor_room(c, p, r, h)) {
			place_tor(c, p, s, r, h);
			im->tor_shifted++;
			return;
		}
	}
	nicfit__cluster_place_slot(c, p, s, r0 / p->rpr);
	im->tor_moved++;
}

/* Leaves with all their nodes in a few racks go on top of one of them; the others into
 * the network racks of their first node's row; spines and cores into the
 * spine row. */
void nicfit__cluster_place_net(struct nicfit_cluster *c, struct placer *p, enum nicfit_net n)
{
	const struct cl_net *cn = &c->impl->net[n];
	long M = c->in.nodes_per_rack, plane, i, s = cn->base;
	int t, h = c->net[n].sw.height_u;

	for (plane = 0; plane < c->net[n].planes; plane++)
		for (t = 0; t < NICFIT_TIER_COUNT; t++)
			for (i = 0; i < cn->tier_sw[t]; i++, s++) {
				long first, last;

				if (t == NICFIT_TIER_SPINE && cn->tiers == 3) {
					/* a pod's spines stand in the row of its first leaf's nodes */
					leaf_nodes(cn, c->in.nodes, cl_pod_leaf(cn, i / cn->spines), &first,
						   &last);
					nicfit__cluster_place_slot(c, p, s, first / M / p->rpr);
					continue;
				}
				if (t != NICFIT_TIER_LEAF) {
					nicfit__cluster_place_slot(c, p, s, c->impl->crow);
					continue;
				}
				leaf_nodes(cn, c->in.nodes, i, &first, &last);
				nicfit__cluster_place_leaf(c, p, s, h, first / M, last / M);
			}
}

/* Turn slots and ToR marks into rack positions, and count network racks: the
 * compute rows', the spine row's and the storage row's. */
void nicfit__cluster_finalize_positions(struct nicfit_cluster *c, struct placer *p)
{
	struct nicfit_cluster_impl *im = c->impl;
	long r, s, spr = p->spr, width;
	long last = im->has_storage_row ? im->srow : im->crow;

	c->network_racks = 0;
	for (r = 0; r <= last; r++) {
		long ncomp = r < im->crow ? lmin(p->rpr, p->C - r * p->rpr) :
			     r == im->srow ? im->storage_racks : 0;

		im->row_net[r] = (int32_t)cdiv(p->slots[r], spr);
		im->row_half[r] = (int32_t)((ncomp + 1) / 2);
		c->network_racks += im->row_net[r];
	}
	im->has_spine_row = p->slots[im->crow] > 0;
	width = lmin(p->rpr, p->C);
	im->spine_x0 = (int32_t)((width - im->row_net[im->crow]) / 2);
	for (s = 0; s < im->xbase + im->nx; s++) {
		struct cl_pos *q = &im->pos[s];

		if (q->x < 0) {
			int32_t i = -q->x - 1;

			q->x = i < im->row_half[q->row] ? i : i + im->row_net[q->row];
		} else {
			long slot = q->x, j = slot / spr, k = slot % spr;
			double u = c->in.layout.rack_u - (double)k * p->hmax - p->hmax / 2.0;

			q->x = (int32_t)(q->row != im->crow ? im->row_half[q->row] + j : im->spine_x0 + j);
			q->u = (float)(u < p->hmax / 2.0 ? p->hmax / 2.0 : u);
		}
	}
	c->rows = im->crow + (im->has_spine_row ? 1 : 0) + im->has_storage_row;
}

/* ---- the storage network and the border ---------------------------------------- */

/*
 * Storage servers stand in storage racks of their own, in a storage row
 * behind the compute rows, as many to a rack as fit its height
 * (storage_u); the storage row has network racks in its middle as a
 * compute row has. A storage leaf that serves only compute nodes stands
 * where a leaf of theirs would (on top of their rack, or in their row's
 * network racks), one that serves storage servers in the storage row's
 * network racks; storage spines in the spine row. Border switches stand
 * in the spine row with the front end's spines and cores, where the
 * front end's top tier is; the spine row is made for them when there is
 * none.
 */
void nicfit__cluster_place_extra(struct nicfit_cluster *c, struct placer *p)
{
	struct nicfit_cluster_impl *im = c->impl;
	const struct nicfit_cluster_storage *st = &c->storage;
	long M = c->in.nodes_per_rack, l, s = im->xbase, host = c->in.nodes * st->node_links;
	long nb = c->border.switches, i;

	im->srow = im->crow + 1;
	if (st->enabled) {
		int per = (int)(c->in.layout.rack_u / c->in.layout.storage_u + NICFIT_EPS);

		im->servers_per_rack = per < 1 ? 1 : per;
		im->storage_racks = cdiv(c->in.storage.servers, im->servers_per_rack);
		im->has_storage_row = 1;
		for (l = 0; l < st->leaves; l++, s++) {
			long e0 = l * st->endpoints_per_leaf;
			long e1 = lmin(e0 + st->endpoints_per_leaf, st->endpoints) - 1;

			if (st->tiers > 1 && e1 < host)
				nicfit__cluster_place_leaf(c, p, s, st->sw.height_u,
							   e0 / st->node_links / M,
							   e1 / st->node_links / M);
			else
				nicfit__cluster_place_slot(c, p, s, im->srow);
		}
		for (l = 0; l < st->spines; l++, s++)
			nicfit__cluster_place_slot(c, p, s, im->crow);
	}
	for (i = 0; i < nb; i++, s++)
		nicfit__cluster_place_slot(c, p, s, im->crow);
	im->nx = s - im->xbase;
}

void nicfit__cluster_server_pos(const struct nicfit_cluster *c, long k, struct cl_pos *q)
{
	const struct nicfit_cluster_impl *im = c->impl;
	long rack = k / im->servers_per_rack, half = im->row_half[im->srow];

	q->row = (int32_t)im->srow;
	q->x = (int32_t)(rack < half ? rack : rack + im->row_net[im->srow]);
	q->u = (float)((double)(k % im->servers_per_rack) * c->in.layout.storage_u +
		       c->in.layout.storage_u / 2);
}
