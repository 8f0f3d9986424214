/*
 * cluster_storage.c - the storage network of a cluster (nicfit/cluster.h):
 * every compute node's storage ports and every storage server's ports on
 * leaves of their own, spines above them when one switch does not take
 * every port, and the cables, optics and fibre those links need.
 *
 * It is sized by counts from the request: the storage servers must serve
 * what all compute nodes read at once, so each server gets its share of
 * that demand in ports. Its servers and switches are placed
 * (cluster_place.c: storage racks in a storage row of their own), and
 * every link is cabled from where its ends stand, as the back end's are
 * (cluster_cable.c). Its links are in the port map, named by count
 * (nicfit__cluster_storage_walk).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "cluster/cluster_int.h"
#include "core/compat_int.h"
#include "core/finding_int.h"
#include "core/num_int.h"

/*
 * Storage ports run at 200 Gb/s unless a catalog switch or --storage-link-gbps
 * says otherwise: NVIDIA's enterprise reference architecture for HGX H100,
 * H200 and B200 clusters connects each node to its storage and in-band
 * network with two 200 GbE ports to two switches ("Network Logical
 * Architecture", https://docs.nvidia.com/enterprise-reference-architectures/
 * hgx-ai-factory-h100-h200-b200/latest/network-logical-architecture.html).
 */
#define STORAGE_DEFAULT_GBPS 200

/* A storage port splits a faster switch port into at most this many legs (QSFP-DD/OSFP: 8 lanes). */
#define STORAGE_MAX_SPLIT 8

static const char *const opt_switch = "--storage-switch";

/* The ports of each end as lanes: the storage switch's, and a storage port at the
 * storage link rate, taken as the switch's own port type. */
static void storage_port_pair(const struct nicfit_cluster_storage *st, struct nicfit_port *sp,
			      struct nicfit_port *np)
{
	if (st->sw.cat)
		nicfit_port_of_switch(st->sw.cat, sp);
	else
		nicfit_port_generic(NULL, st->sw.gbps, 1, 1, NULL, sp);
	nicfit_port_generic(NULL, st->link_gbps, 0, 1, sp, np);
}

static int storage_switch(struct nicfit_cluster *c, struct nicfit_cluster_storage *st,
			  struct nicfit_error *err)
{
	const struct nicfit_cluster_storage_input *si = &c->in.storage;
	struct nicfit_cluster_switch *sw = &st->sw;
	struct nicfit_port sp, np;
	struct nicfit_port_match m;

	memset(sw, 0, sizeof(*sw));
	if (si->switch_id) {
		const struct nicfit_switch *s = NULL;

		if (c->impl->cat)
			s = nicfit_catalog_find_switch(c->impl->cat, si->switch_id, opt_switch, err);
		if (!s)
			return err && err->code ? err->code :
				nicfit_error_at(err, NICFIT_E_NOTFOUND, opt_switch, 0, 0,
						"unknown switch '%.64s'", si->switch_id);
		if (s->ports < 2 || s->ports > NICFIT_CLUSTER_MAX_RADIX || !(s->port_gbps > 0))
			return nicfit_error_at(err, NICFIT_E_DATA, opt_switch, 0, 0,
					       "switch '%s' has %d ports at %g Gb/s: cannot size with it",
					       s->e.id, s->ports, s->port_gbps);
		if (s->scheduled)
			return nicfit_error_at(err, NICFIT_E_USAGE, opt_switch, 0, 0,
					       "%s belongs to a scheduled fabric, sized for the back "
					       "end only: give a packet switch for storage", s->e.id);
		sw->cat = s;
		snprintf(sw->id, sizeof(sw->id), "%s", s->e.id);
		snprintf(sw->name, sizeof(sw->name), "%s", s->e.name ? s->e.name : s->e.id);
		sw->ports = s->ports;
		sw->gbps = s->port_gbps;
		snprintf(sw->cage, sizeof(sw->cage), "%s", s->cage ? s->cage : "?");
		sw->max_logical = s->max_logical_ports;
		sw->per_cage = s->ports_per_cage > 1 ? s->ports_per_cage : 1;
		sw->height_u = nicfit__cluster_switch_u(s, sw->ports);
	} else {
		sw->ports = si->radix;
		sw->gbps = st->link_gbps;
		if (nicfit__cluster_rate_check(sw->gbps, "--storage-link-gbps", err))
			return err ? err->code : NICFIT_E_USAGE;
		snprintf(sw->id, sizeof(sw->id), "generic-%dx%gg", sw->ports, sw->gbps);
		snprintf(sw->name, sizeof(sw->name), "%d-port %gG switch (generic)", sw->ports,
			 sw->gbps);
		nicfit_port_generic(nicfit__usual_cage(sw->gbps), sw->gbps, 1, 1, NULL, &sp);
		snprintf(sw->cage, sizeof(sw->cage), "%s", sp.cage);
		sw->per_cage = 1;
		sw->height_u = nicfit__cluster_switch_u(NULL, sw->ports);
	}
	if (st->link_gbps > sw->gbps + CL_RATE_EPS)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--storage-link-gbps", 0, 0,
				       "storage ports at %g Gb/s are faster than the %s ports (%g Gb/s)",
				       st->link_gbps, sw->id, sw->gbps);
	storage_port_pair(st, &sp, &np);
	if (nicfit_port_match(&np, &sp, 1, &m) == NICFIT_MATCH_NONE)
		return nicfit_error_at(err, NICFIT_E_USAGE, opt_switch, 0, 0, "storage: %s", m.why);
	st->breakout = m.kind == NICFIT_MATCH_DIRECT && m.per_port > 1 &&
		       m.per_port <= STORAGE_MAX_SPLIT ? m.per_port : 1;
	st->split_stride = nicfit__cluster_split_stride(sw, st->breakout);
	return 0;
}

/*
 * The ports of each end: a compute node needs its storage bandwidth in
 * whole ports; the storage servers together serve every node at once, so
 * each takes its share of that demand, in whole ports. That is the worst
 * case the storage network must carry (every node of a job reading its
 * data set or checkpoint at once) and an assumption of this sizing: a
 * smaller --storage-gbps sizes for less.
 */
static int storage_ports(struct nicfit_cluster *c, struct nicfit_cluster_storage *st,
			 struct nicfit_error *err)
{
	const struct nicfit_cluster_storage_input *si = &c->in.storage;
	double per_server, k;

	st->demand_gbps = si->node_gbps * (double)c->in.nodes;
	k = ceil(si->node_gbps / st->link_gbps - NICFIT_EPS);
	if (k > NICFIT_CLUSTER_MAX_LINKS)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--storage-gbps", 0, 0,
				       "%g Gb/s per node needs %.0f storage ports of %g Gb/s (at most %d)",
				       si->node_gbps, k, st->link_gbps, NICFIT_CLUSTER_MAX_LINKS);
	st->node_links = k < 1 ? 1 : (int)k;
	/* dual-homed: one port to each of two leaves at least, whatever one port carries */
	if (si->dual_homed && st->node_links < 2)
		st->node_links = 2;
	per_server = st->demand_gbps / (double)si->servers;
	k = ceil(per_server / st->link_gbps - NICFIT_EPS);
	if (k > NICFIT_CLUSTER_MAX_LINKS)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--storage-nodes", 0, 0,
				       "%ld storage servers would need %.0f ports of %g Gb/s each to serve "
				       "%.0f Gb/s (at most %d): give more storage servers",
				       si->servers, k, st->link_gbps, st->demand_gbps,
				       NICFIT_CLUSTER_MAX_LINKS);
	st->server_links = k < 1 ? 1 : (int)k;
	st->endpoints = c->in.nodes * st->node_links + si->servers * st->server_links;
	return 0;
}

/*
 * The tiers: one switch when it takes every storage port; else leaves
 * that give as many ports to the ends as the oversubscription allows
 * (down bandwidth at most X times the up bandwidth), every leaf joined to
 * every spine. A leaf is counted as the other networks' leaves are
 * (cluster_tiers.c leaf_fits): storage ports take ports split `breakout`
 * ways, each split split_stride physical ports where it needs its
 * neighbours' logical ports (SN2700: a 4-way split takes two), uplinks
 * start on a fresh cage, and an idle port is no logical port. The ports
 * a full leaf has left after its storage ports are its uplinks (more than
 * the oversubscription needs when they are spare). A leaf's uplinks must
 * reach every spine, so two tiers take at most as many leaves as a spine
 * has ports; beyond that the request is refused with what would fit, as
 * for the other networks.
 */
static int storage_tiers(struct nicfit_cluster *c, struct nicfit_cluster_storage *st,
			 struct nicfit_error *err)
{
	struct nicfit_cluster_net_input ni;
	struct leafdes d;
	double r = st->link_gbps, g = st->sw.gbps;
	long P = st->sw.ports, one, elaf, split, used;

	memset(&ni, 0, sizeof(ni));
	ni.link_gbps = r;
	ni.oversubscription = c->in.storage.oversubscription;
	d.ni = &ni;
	d.sw = &st->sw;
	d.b = st->breakout;
	d.stride = st->split_stride;
	one = nicfit__cluster_leaf_max(&d, 0);
	if (st->endpoints <= one && !c->in.storage.dual_homed) {
		split = cdiv(st->endpoints, st->breakout);
		st->tiers = 1;
		st->leaves = 1;
		st->down = (int)(split * st->split_stride);
		st->upbase = st->down;
		st->endpoints_per_leaf = (int)st->endpoints;
		st->host_links = st->endpoints;
		st->ports_total = P;
		st->ports_free = P - st->down;
		return 0;
	}
	elaf = nicfit__cluster_leaf_max(&d, 1);
	if (elaf < 1)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--storage-switch", 0, 0,
				       "storage: a %s leaf has no room for a storage port beside its "
				       "uplinks: give a larger switch or more "
				       "--storage-oversubscription", st->sw.id);
	/*
	 * Dual-homed: the compute nodes' ports are laid out port by port
	 * (port 0 of every node, then port 1: port_end), so a leaf of no
	 * more ports than there are nodes never holds two ports of one node.
	 */
	if (c->in.storage.dual_homed && elaf > c->in.nodes)
		elaf = c->in.nodes;
	st->tiers = 2;
	st->down = (int)(cdiv(elaf, st->breakout) * st->split_stride);
	st->upbase = (int)whole_cages(st->down, st->sw.per_cage);
	st->up = (int)(P - st->upbase);
	st->endpoints_per_leaf = (int)elaf;
	st->leaves = cdiv(st->endpoints, elaf);
	st->spines = cdiv(st->leaves * st->up, P);
	if (st->leaves > P || st->spines > st->up)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--storage-switch", 0, 0,
				       "storage: %ld ports need %ld leaves of %ld ports, more than two "
				       "tiers of %s take (at most %ld leaves): give a larger switch or "
				       "more --storage-oversubscription", st->endpoints, st->leaves,
				       P, st->sw.id, P);
	st->leaf_ratio = (double)elaf * r / ((double)st->up * g);
	st->host_links = st->endpoints;
	st->leaf_spine_links = st->leaves * st->up;
	st->ports_total = (st->leaves + st->spines) * P;
	used = cdiv(st->endpoints, st->breakout) * st->split_stride + 2 * st->leaf_spine_links;
	st->ports_free = st->ports_total - used;
	return 0;
}

int nicfit__cluster_size_storage(struct nicfit_cluster *c, struct nicfit_error *err)
{
	const struct nicfit_cluster_storage_input *si = &c->in.storage;
	struct nicfit_cluster_storage *st = &c->storage;
	const struct nicfit_switch *s = NULL;
	int rc;

	if (!(si->node_gbps > 0))
		return 0;
	if (si->switch_id && c->impl->cat)
		s = nicfit_catalog_find_switch(c->impl->cat, si->switch_id, opt_switch, NULL);
	st->enabled = 1;
	st->link_gbps = si->link_gbps > 0 ? si->link_gbps :
			s && s->port_gbps > 0 && s->port_gbps < STORAGE_DEFAULT_GBPS ? s->port_gbps :
			STORAGE_DEFAULT_GBPS;
	rc = storage_switch(c, st, err);
	if (!rc)
		rc = storage_ports(c, st, err);
	if (!rc)
		rc = storage_tiers(c, st, err);
	return rc;
}

int nicfit__cluster_check_storage(const struct nicfit_cluster_input *in, struct nicfit_error *err)
{
	const struct nicfit_cluster_storage_input *si = &in->storage;

	if (!(si->node_gbps > 0)) {
		if (si->servers)
			return nicfit_error_at(err, NICFIT_E_USAGE, "--storage-gbps", 0, 0,
					       "give the storage bandwidth per node with the storage "
					       "servers");
		return 0;
	}
	if (si->node_gbps > (double)NICFIT_CLUSTER_MAX_GBPS * NICFIT_CLUSTER_MAX_LINKS)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--storage-gbps", 0, 0,
				       "at most %d Gb/s per node",
				       NICFIT_CLUSTER_MAX_GBPS * NICFIT_CLUSTER_MAX_LINKS);
	if (si->servers < 1 || si->servers > NICFIT_CLUSTER_MAX_NODES)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--storage-nodes", 0, 0,
				       "give the number of storage servers with the storage bandwidth "
				       "(1 to %ld)", NICFIT_CLUSTER_MAX_NODES);
	if (si->link_gbps < 0 || si->link_gbps > NICFIT_CLUSTER_MAX_GBPS)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--storage-link-gbps", 0, 0,
				       "link rate must be above 0 and at most %d Gb/s",
				       NICFIT_CLUSTER_MAX_GBPS);
	if (!si->switch_id && (si->radix < 2 || si->radix > NICFIT_CLUSTER_MAX_RADIX))
		return nicfit_error_at(err, NICFIT_E_USAGE, "--storage-radix", 0, 0,
				       "switch radix must be 2 to %d", NICFIT_CLUSTER_MAX_RADIX);
	if (!(si->oversubscription >= NICFIT_CLUSTER_MIN_OVERSUB &&
	      si->oversubscription <= NICFIT_CLUSTER_MAX_OVERSUB))
		return nicfit_error_at(err, NICFIT_E_USAGE, "--storage-oversubscription", 0, 0,
				       "oversubscription must be %g to %d (X:1; 0.5 is 1:2)",
				       NICFIT_CLUSTER_MIN_OVERSUB, NICFIT_CLUSTER_MAX_OVERSUB);
	return 0;
}

/* ---- the links, for the port map ---------------------------------------------- */

/* Digits of a switch or server number in a name: at least two, as switch names have. */
static int name_digits(long n)
{
	int d = digits(n > 0 ? n : 1);

	return d < 2 ? 2 : d;
}

/* Where storage port e stands (its node or storage server) and its name and port. */
static void port_end(const struct nicfit_cluster *c, long e, int dv, struct cl_pos *q,
		     struct cl_slink *x)
{
	const struct nicfit_cluster_storage *st = &c->storage;
	long host = c->in.nodes * st->node_links;

	if (e < host) {
		/* dual-homed: port by port over the nodes, so a node's ports fall on different leaves */
		long node = c->in.storage.dual_homed ? e % c->in.nodes : e / st->node_links;

		nicfit__cluster_where(c, node, q);
		snprintf(x->a, sizeof(x->a), "node%0*ld", c->impl->node_digits, node + 1);
		x->port_a = (int)(c->in.storage.dual_homed ? e / c->in.nodes : e % st->node_links);
	} else {
		long k = e - host;

		nicfit__cluster_server_pos(c, k / st->server_links, q);
		snprintf(x->a, sizeof(x->a), "stor%0*ld", dv, k / st->server_links + 1);
		x->port_a = (int)(k % st->server_links);
	}
}

/*
 * The host links of leaf l: its storage ports in order, a switch port (or
 * twin-port cage) taking `breakout` (x ports per cage) of them as the legs
 * of one cable, as long as its farthest leg needs.
 */
static int walk_leaf_hosts(const struct nicfit_cluster *c, long l, cl_slink_fn fn, void *ctx)
{
	const struct nicfit_cluster_storage *st = &c->storage;
	const struct nicfit_cluster_impl *im = c->impl;
	const struct cl_pos *leaf = &im->pos[im->xbase + l];
	int per = st->endpoints_per_leaf, cage = st->breakout * st->sw.per_cage;
	int dl = name_digits(st->leaves), dv = name_digits(c->in.storage.servers), j, m, rc;
	long e0 = l * per, e1 = lmin(e0 + per, st->endpoints), e;

	if (cage > CL_MAX_LEGS)
		cage = CL_MAX_LEGS;
	for (e = e0; e < e1; e += m) {
		struct cl_slink x[CL_MAX_LEGS];
		double max = 0;
		int all_same = 1, same;
		const struct cl_kit *kt;

		m = (int)lmin(cage - (e - e0) % cage, e1 - e);
		for (j = 0; j < m; j++) {
			struct cl_pos q;
			long slot = e + j - e0;

			memset(&x[j], 0, sizeof(x[j]));
			port_end(c, e + j, dv, &q, &x[j]);
			x[j].level = NICFIT_LINK_HOST;
			x[j].type = "storage-host";
			snprintf(x[j].b, sizeof(x[j].b), "st-leaf%0*ld", dl, l + 1);
			x[j].port_b = (int)(slot / st->breakout * st->split_stride);
			x[j].lane_b = st->breakout > 1 ? (int)(slot % st->breakout) : -1;
			x[j].length_m = nicfit__cluster_length_pos(c, &q, leaf, &same);
			all_same &= same;
			if (x[j].length_m > max)
				max = x[j].length_m;
		}
		kt = nicfit__cluster_kit_for(c, im->scls[0], max, all_same);
		nicfit__cluster_count_kit(c, kt, m, 1, 1);
		for (j = 0; j < m; j++) {
			x[j].cable = kt ? kt->label : "?";
			rc = fn(ctx, &x[j]);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/*
 * The storage links one by one, as the sizing counted them: storage ports
 * in order (every compute node's, then every storage server's) fill the
 * leaves, endpoints_per_leaf each, a switch port taking `breakout` of them
 * as split legs; uplink j of leaf l lands on spine (l*up + j) mod S at
 * port (l*up + j) div S, as the other networks' uplinks do
 * (cluster_walk.c). Each is as long as the run between where its ends
 * stand (cluster_place.c).
 */
int nicfit__cluster_storage_walk(const struct nicfit_cluster *c, cl_slink_fn fn, void *ctx)
{
	const struct nicfit_cluster_storage *st = &c->storage;
	const struct nicfit_cluster_impl *im = c->impl;
	int dl = name_digits(st->leaves), ds = name_digits(st->spines), j, rc;
	int twin = st->sw.per_cage;
	struct cl_slink x;
	long l;

	if (!st->enabled || st->endpoints_per_leaf < 1 || st->breakout < 1 || im->scls[0] < 0)
		return 0;
	for (l = 0; l < st->leaves; l++) {
		rc = walk_leaf_hosts(c, l, fn, ctx);
		if (rc)
			return rc;
	}
	if (st->tiers < 2 || st->spines < 1 || im->scls[1] < 0)
		return 0;
	memset(&x, 0, sizeof(x));
	x.level = NICFIT_LINK_LEAF_SPINE;
	x.type = "storage-leaf-spine";
	x.lane_b = -1;
	for (l = 0; l < st->leaves; l++)
		for (j = 0; j < st->up; j++) {
			long g = l * st->up + j, sp = g % st->spines;
			const struct cl_kit *kt;
			int same;

			snprintf(x.a, sizeof(x.a), "st-leaf%0*ld", dl, l + 1);
			x.port_a = st->upbase + j;
			snprintf(x.b, sizeof(x.b), "st-spine%0*ld", ds, sp + 1);
			x.port_b = (int)(g / st->spines);
			x.length_m = nicfit__cluster_length_pos(c, &im->pos[im->xbase + l],
								&im->pos[im->xbase + st->leaves + sp],
								&same);
			kt = nicfit__cluster_kit_for(c, im->scls[1], x.length_m, same);
			nicfit__cluster_count_kit(c, kt, 1, x.port_b % twin == 0, x.port_a % twin == 0);
			x.cable = kt ? kt->label : "?";
			rc = fn(ctx, &x);
			if (rc)
				return rc;
		}
	return 0;
}

/* While cabling: the longest run. */
static int count_slink(void *ctx, const struct cl_slink *l)
{
	struct nicfit_cluster *c = ctx;

	if (l->length_m > c->max_length_m)
		c->max_length_m = (long)ceil(l->length_m);
	if (l->length_m > c->storage.max_length_m)
		c->storage.max_length_m = (long)ceil(l->length_m);
	return 0;
}

/*
 * The cable classes of the storage network (host links: the storage
 * switch's port, split or not, to storage ports of its own type;
 * leaf-spine: switch port to switch port), then one walk that chooses
 * and counts what cables every link, as the back end's walk does.
 */
int nicfit__cluster_cable_storage(struct nicfit_cluster *c, struct nicfit_error *err)
{
	struct nicfit_cluster_storage *st = &c->storage;
	struct nicfit_cluster_impl *im = c->impl;
	struct nicfit_port sp, np;
	int cage = st->breakout * st->sw.per_cage, rc;

	im->scls[0] = im->scls[1] = -1;
	if (!st->enabled)
		return 0;
	storage_port_pair(st, &sp, &np);
	im->scls[0] = nicfit__cluster_add_class(c, CL_LIST_STORAGE, NICFIT_LINK_HOST,
						st->link_gbps * cage, st->sw.cage, st->link_gbps,
						np.cage, cage, 1, &sp, &np);
	if (st->tiers > 1)
		im->scls[1] = nicfit__cluster_add_class(c, CL_LIST_STORAGE, NICFIT_LINK_LEAF_SPINE,
							st->sw.gbps, st->sw.cage, st->sw.gbps,
							st->sw.cage, 1, st->sw.per_cage, &sp, &sp);
	if (im->scls[0] < 0 || (st->tiers > 1 && im->scls[1] < 0))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	im->counting = 1;
	rc = nicfit__cluster_storage_walk(c, count_slink, c);
	im->counting = 0;
	if (rc)
		return nicfit_error_set(err, rc, "out of memory");
	nicfit__cluster_sort_list(st->cables, st->ncables);
	return 0;
}

/* ---- explaining and rendering ------------------------------------------------ */

void nicfit__cluster_explain_storage(struct nicfit_cluster *c)
{
	const struct nicfit_cluster_storage *st = &c->storage;
	long split = cdiv(st->endpoints_per_leaf, st->breakout);
	char stride[128] = "";

	if (!st->enabled)
		return;
	if (st->split_stride > 1)
		snprintf(stride, sizeof(stride), ", each split port taking %d switch ports, as %s has "
			 "%d logical ports on %d ports", st->split_stride, st->sw.id, st->sw.max_logical,
			 st->sw.ports);
	nicfit__decide(&c->decisions, "cluster.storage", 1,
		       "storage: %ld nodes x %g Gb/s = %.0f Gb/s to serve; %d port%s of %g Gb/s per "
		       "node; %ld storage servers take %.0f Gb/s each: %d port%s each; %ld ports",
		       c->in.nodes, c->in.storage.node_gbps, st->demand_gbps, st->node_links,
		       st->node_links == 1 ? "" : "s", st->link_gbps, c->in.storage.servers,
		       st->demand_gbps / (double)c->in.storage.servers, st->server_links,
		       st->server_links == 1 ? "" : "s", st->endpoints);
	if (c->in.storage.dual_homed)
		nicfit__decide(&c->decisions, "cluster.storage", 1,
			       "storage: dual-homed: each node's %d ports go to %d different leaves "
			       "(port k of every node in turn, at most %d ports a leaf), so a leaf "
			       "failure leaves every node its storage", st->node_links,
			       st->node_links, st->endpoints_per_leaf);
	if (st->tiers == 1)
		nicfit__decide(&c->decisions, "cluster.storage", 1,
			       "storage: one %s takes all %ld ports: %ld of its %d ports x %d%s",
			       st->sw.id, st->endpoints, split, st->sw.ports, st->breakout, stride);
	else
		nicfit__decide(&c->decisions, "cluster.storage", 1,
			       "storage: two tiers: a %d-port leaf at %g:1 gives %ld ports down (x %d "
			       "= %d storage ports%s) and its other %d up; %ld leaves, %ld x %d uplinks "
			       "over %d-port spines = %ld spines", st->sw.ports,
			       c->in.storage.oversubscription, split, st->breakout,
			       st->endpoints_per_leaf, stride, st->up, st->leaves, st->leaves, st->up,
			       st->sw.ports, st->spines);
}

static void switch_row(struct nicfit_emit *e, const struct nicfit_cluster_storage *st,
		       enum nicfit_tier t, long n, int down, int up, long used)
{
	nicfit_emit_cell_string(e, "storage");
	nicfit_emit_cell_string(e, nicfit_tier_name(t));
	nicfit_emit_cell_string(e, st->sw.id);
	nicfit_emit_cell_int(e, n);
	nicfit_emit_cell_int(e, st->sw.ports);
	nicfit_emit_cell_int(e, down);
	nicfit_emit_cell_int(e, up);
	nicfit_emit_cell_int(e, used);
	nicfit_emit_cell_int(e, n * st->sw.ports - used);
}

void nicfit__cluster_storage_switch_rows(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	const struct nicfit_cluster_storage *st = &c->storage;

	if (!st->enabled)
		return;
	switch_row(e, st, NICFIT_TIER_LEAF, st->leaves, st->down, st->up,
		   cdiv(st->endpoints, st->breakout) * st->split_stride + st->leaf_spine_links);
	if (st->spines)
		switch_row(e, st, NICFIT_TIER_SPINE, st->spines, st->sw.ports, 0,
			   st->leaf_spine_links);
}

static void storage_cables_emit(struct nicfit_emit *e, const struct nicfit_cluster_storage *st)
{
	static const struct nicfit_column cols[] = {
		{ "link", "link", 0 }, { "part", "part", 0 }, { "type", "type", 0 },
		{ "length_m", "length_m", 1 }, { "qty", "qty", 1 }, { "links", "links", 1 },
	};
	size_t i;

	nicfit_emit_table_begin(e, "cables", cols, 6);
	for (i = 0; i < st->ncables; i++) {
		const struct nicfit_cluster_cable *x = &st->cables[i];

		nicfit_emit_cell_string(e, nicfit_link_level_name(x->level));
		nicfit_emit_cell_string(e, x->part);
		nicfit_emit_cell_string(e, x->type);
		if (x->length_m > 0)
			nicfit_emit_cell_number(e, x->length_m, 0);
		else
			nicfit_emit_cell_null(e, "-");
		nicfit_emit_cell_int(e, x->qty);
		nicfit_emit_cell_int(e, x->links);
	}
	nicfit_emit_table_end(e);
}

void nicfit__cluster_storage_render(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	const struct nicfit_cluster_storage *st = &c->storage;
	const char *bold = nicfit_emit_color(e, NICFIT_COLOR_BOLD);
	const char *reset = nicfit_emit_color(e, NICFIT_COLOR_RESET);
	long in_compute = 0, l;

	if (!st->enabled) {
		nicfit_emit_null(e, "storage");
		return;
	}
	for (l = 0; l < st->leaves; l++)
		in_compute += c->impl->pos[c->impl->xbase + l].row < c->impl->crow;
	nicfit_emit_begin_object(e, "storage");
	nicfit_emit_number(e, "node_gbps", c->in.storage.node_gbps);
	nicfit_emit_int(e, "servers", c->in.storage.servers);
	nicfit_emit_number(e, "demand_gbps", st->demand_gbps);
	nicfit_emit_number(e, "link_gbps", st->link_gbps);
	nicfit_emit_int(e, "links_per_node", st->node_links);
	nicfit_emit_bool(e, "dual_homed", c->in.storage.dual_homed);
	nicfit_emit_int(e, "links_per_server", st->server_links);
	nicfit_emit_int(e, "endpoints", st->endpoints);
	nicfit_emit_begin_object(e, "switch");
	nicfit_emit_string(e, "id", st->sw.id);
	nicfit_emit_string(e, "name", st->sw.name);
	nicfit_emit_bool(e, "catalog", st->sw.cat != NULL);
	nicfit_emit_int(e, "ports", st->sw.ports);
	nicfit_emit_number(e, "port_gbps", st->sw.gbps);
	nicfit_emit_string(e, "cage", st->sw.cage);
	nicfit_emit_end_object(e);
	nicfit_emit_int(e, "breakout", st->breakout);
	nicfit_emit_int(e, "tiers", st->tiers);
	nicfit_emit_int(e, "leaf_switches", st->leaves);
	nicfit_emit_int(e, "spine_switches", st->spines);
	nicfit_emit_int(e, "down_ports_per_leaf", st->down);
	nicfit_emit_int(e, "up_ports_per_leaf", st->up);
	nicfit_emit_int(e, "endpoints_per_leaf", st->endpoints_per_leaf);
	nicfit_emit_number(e, "oversubscription", st->leaf_ratio);
	nicfit_emit_begin_object(e, "links");
	nicfit_emit_int(e, "host", st->host_links);
	nicfit_emit_int(e, "leaf_spine", st->leaf_spine_links);
	nicfit_emit_end_object(e);
	nicfit_emit_int(e, "ports_total", st->ports_total);
	nicfit_emit_int(e, "ports_free", st->ports_free);
	nicfit_emit_int(e, "storage_racks", c->impl->storage_racks);
	nicfit_emit_int(e, "servers_per_rack", c->impl->servers_per_rack);
	nicfit_emit_int(e, "leaves_in_compute_rows", in_compute);
	nicfit_emit_printf(e, "\n%sStorage%s: %d tier%s, %ld x %g Gb/s node ports (%d per node) + "
			   "%ld server ports (%d per storage server), %.0f Gb/s to serve\n", bold,
			   reset, st->tiers, st->tiers == 1 ? "" : "s",
			   c->in.nodes * st->node_links, st->link_gbps, st->node_links,
			   c->in.storage.servers * st->server_links, st->server_links,
			   st->demand_gbps);
	nicfit_emit_printf(e, "  switch  %s: %d x %g Gb/s %s%s\n", st->sw.name, st->sw.ports,
			   st->sw.gbps, st->sw.cage, st->sw.cat ? "" : " (unpriced)");
	if (st->breakout > 1)
		nicfit_emit_printf(e, "  split   each leaf port serves %d x %g Gb/s storage ports\n",
				   st->breakout, st->link_gbps);
	if (st->tiers == 1)
		nicfit_emit_printf(e, "  leaf    1 x (%d down), %ld storage ports\n", st->down,
				   st->endpoints);
	else
		nicfit_emit_printf(e, "  leaf    %ld x (%d down + %d up), %d storage ports each, "
				   "%.2f:1\n  spine   %ld x (%d down)\n", st->leaves, st->down, st->up,
				   st->endpoints_per_leaf, st->leaf_ratio, st->spines, st->sw.ports);
	nicfit_emit_printf(e, "  links   %ld host-leaf", st->host_links);
	if (st->leaf_spine_links)
		nicfit_emit_printf(e, ", %ld leaf-spine", st->leaf_spine_links);
	nicfit_emit_printf(e, "; %ld of %ld switch ports free\n", st->ports_free, st->ports_total);
	nicfit_emit_printf(e, "  racks   %ld storage server%s in %ld storage rack%s (up to %d a rack) "
			   "in the storage row; leaves: %ld in the compute rows, %ld in the storage row",
			   c->in.storage.servers, c->in.storage.servers == 1 ? "" : "s",
			   c->impl->storage_racks, c->impl->storage_racks == 1 ? "" : "s",
			   c->impl->servers_per_rack, in_compute, st->leaves - in_compute);
	if (st->spines)
		nicfit_emit_printf(e, "; spines in the spine row");
	nicfit_emit_printf(e, "\n");
	storage_cables_emit(e, st);
	nicfit_emit_end_object(e);
}
