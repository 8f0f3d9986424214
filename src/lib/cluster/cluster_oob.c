/*
 * cluster_oob.c - the OOB (1GbE management) network: its endpoints are
 * every node's and storage server's BMC port and the management port of
 * every other switch (the storage network's and the border's too), where
 * they stand, so it is sized after the other networks are placed.
 * The endpoints are listed rack by rack, cut into leaves of whole racks
 * (no leaf across rows), sized above the leaves with the same rules as
 * the other networks (cluster_tiers.c), and placed like them.
 */
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "cluster/cluster_int.h"

struct chunk {
	long first;             /* in the OOB list */
	long count;
	long row;
	long rack;              /* compute rack, or -1 for a network rack */
};

/* Counting sort of the first nsw switches of pos by compute rack (on top of one: tor_start,
 * by_tor) and by row slot (slot_start, by_slot); -1 when out of memory. pos holds the
 * walked networks' switches, then (xbase == im->nsw) the storage and border ones. */
static int sort_switches(const struct nicfit_cluster *c, const struct placer *p, long nsw,
			 long rows, long *tor_start, long *slot_start, long *by_tor, long *by_slot)
{
	const struct nicfit_cluster_impl *im = c->impl;
	long i, r, *fill;

	for (i = 0; i < nsw; i++) {
		const struct cl_pos *q = &im->pos[i];

		if (q->x < 0)
			tor_start[q->row * p->rpr + (-q->x - 1) + 1]++;
	}
	for (i = 0; i < p->C; i++)
		tor_start[i + 1] += tor_start[i];
	for (r = 0; r < rows; r++)
		slot_start[r + 1] = slot_start[r] + p->slots[r];
	fill = calloc((size_t)p->C + 1, sizeof(*fill));
	if (!fill)
		return -1;
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
	return 0;
}

/*
 * The NVLink switch trays of a rack-scale system (GB200 and GB300 NVL72)
 * have their own BMCs on the OOB network: NVIDIA's multi-node NVLink
 * tuning guide puts the BMCs of the compute and switch trays on the IPMI
 * network, and Base Command Manager lists each NVLink switch tray as a
 * device on the BMC network (docs/reference/baseboard-servers.md). One
 * BMC port a switch tray, each cabled like a tray's; a unit that spans
 * racks (NVL36x2) has its switch trays spread over them.
 */
static void rack_devices(struct nicfit_cluster *c, const struct placer *p)
{
	const struct nicfit_server *sv = c->server;
	struct nicfit_cluster_impl *im = c->impl;
	int per = 0;

	if (sv && sv->rack_trays > 0 && sv->rack_switch_trays > 0 &&
	    c->net[NICFIT_NET_OOB].links_per_node)
		per = sv->rack_switch_trays / (sv->rack_racks > 1 ? sv->rack_racks : 1);
	im->rackdev_per_rack = per;
	im->nrackdev = (long)per * p->C;
}

/* The OOB endpoints rack by rack: BMCs (the nodes', then the rack's NVLink
 * switch trays') and the switches on top of each compute rack, then each network rack's switches, row by row; the storage
 * row's storage racks (their servers' BMCs) and network racks last. A
 * switch is listed as N + its index in pos (the storage and border
 * switches from xbase), a storage server k as N + xbase + nx + k. */
static int oob_list(struct nicfit_cluster *c, struct placer *p, struct chunk **chunksp,
		    long *nchunks, struct nicfit_error *err)
{
	struct nicfit_cluster_impl *im = c->impl;
	long N = c->in.nodes, M = c->in.nodes_per_rack, spr = p->spr;
	long nsw = im->nsw + im->nx, rows = (im->has_storage_row ? im->srow : im->crow) + 1;
	long S = c->storage.enabled ? c->in.storage.servers : 0;
	long r, i, k, total, nch = 0, maxch;
	long *tor_start = NULL, *slot_start = NULL, *by_tor = NULL, *by_slot = NULL;
	struct chunk *ch = NULL;
	int rc = NICFIT_E_NOMEM;

	tor_start = calloc((size_t)p->C + 1, sizeof(*tor_start));
	slot_start = calloc((size_t)rows + 1, sizeof(*slot_start));
	by_tor = malloc(((size_t)nsw + 1) * sizeof(*by_tor));
	by_slot = malloc(((size_t)nsw + 1) * sizeof(*by_slot));
	if (!tor_start || !slot_start || !by_tor || !by_slot)
		goto out;
	if (sort_switches(c, p, nsw, rows, tor_start, slot_start, by_tor, by_slot))
		goto out;
	rack_devices(c, p);
	total = (c->net[NICFIT_NET_OOB].links_per_node ? N + S + im->nrackdev : 0) +
		(c->in.mgmt_ports ? nsw : 0);
	maxch = p->C + im->storage_racks + nsw / (spr > 0 ? spr : 1) + rows + 2;
	im->oob_list = malloc(((size_t)total + 1) * sizeof(*im->oob_list));
	ch = calloc((size_t)maxch, sizeof(*ch));
	if (!im->oob_list || !ch)
		goto out;
	k = 0;
	for (r = 0; r < rows; r++) {
		long c0 = r * p->rpr, c1 = r < im->crow ? lmin(c0 + p->rpr, p->C) : c0, rack, j;

		if (r == im->srow && im->has_storage_row && c->net[NICFIT_NET_OOB].links_per_node)
			for (rack = 0; rack < im->storage_racks; rack++) {
				long before = k, s0 = rack * im->servers_per_rack;

				for (i = s0; i < lmin(s0 + im->servers_per_rack, S); i++)
					im->oob_list[k++] = N + im->xbase + im->nx + i;
				if (k > before)
					ch[nch++] = (struct chunk){ before, k - before, r, -1 };
			}
		for (rack = c0; rack < c1; rack++) {
			long before = k;

			if (c->net[NICFIT_NET_OOB].links_per_node) {
				for (i = rack * M; i < lmin(rack * M + M, N); i++)
					im->oob_list[k++] = i;
				for (i = 0; i < im->rackdev_per_rack; i++)
					im->oob_list[k++] = N + im->xbase + im->nx + S +
							    rack * im->rackdev_per_rack + i;
			}
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
	long cap1 = nicfit__cluster_leaf_max(d, 0), emax = nicfit__cluster_leaf_max(d, 1), cap, i, n = 0, max;
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

int nicfit__cluster_size_oob(struct nicfit_cluster *c, struct placer *p, struct nicfit_error *err)
{
	struct nicfit_cluster_impl *im = c->impl;
	struct cl_net *cn = &im->net[NICFIT_NET_OOB];
	struct nicfit_cluster_net *nt = &c->net[NICFIT_NET_OOB];
	struct chunk *ch = NULL;
	struct leafdes d;
	long nch = 0, *lc = NULL, *ll = NULL, i, s, plane;
	int rc, t;

	rc = nicfit__cluster_net_setup(c, NICFIT_NET_OOB, &d, err);
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
	rc = nicfit__cluster_upper_tiers(c, NICFIT_NET_OOB, &d, err);
	if (rc)
		goto out;
	nicfit__cluster_net_publish(c, NICFIT_NET_OOB, &d);
	cn->base = im->nsw;
	/* the OOB switches take pos from im->nsw on; the storage and border switches
	 * placed there move up behind them */
	if (NICFIT_ALLOC_GROW(im->pos, (size_t)(im->nsw + cn->per_plane + im->nx + 1), im->alloc_pos)) {
		rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		goto out;
	}
	memmove(&im->pos[im->nsw + cn->per_plane], &im->pos[im->xbase],
		(size_t)im->nx * sizeof(*im->pos));
	for (i = 0; i < im->noob; i++)
		if (im->oob_list[i] >= c->in.nodes + im->xbase)
			im->oob_list[i] += cn->per_plane;
	im->xbase = im->nsw + cn->per_plane;
	s = cn->base;
	for (plane = 0; plane < 1; plane++)
		for (t = 0; t < NICFIT_TIER_COUNT; t++)
			for (i = 0; i < cn->tier_sw[t]; i++, s++) {
				const struct chunk *k;

				if (t != NICFIT_TIER_LEAF) {
					nicfit__cluster_place_slot(c, p, s, im->crow);
					continue;
				}
				/* like a leaf of the other networks when all its endpoints are
				 * in compute racks */
				k = &ch[lc[i]];
				if (k->rack >= 0 && ch[ll[i]].rack >= 0)
					nicfit__cluster_place_leaf(c, p, s, nt->sw.height_u,
								   k->rack, ch[ll[i]].rack);
				else
					nicfit__cluster_place_slot(c, p, s, k->row);
			}
	im->nsw += cn->per_plane;
out:
	free(ch);
	free(lc);
	free(ll);
	return rc;
}
