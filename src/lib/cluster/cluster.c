/*
 * cluster.c - sizing the networks of N GPU servers (see nicfit/cluster.h):
 * the layout assumptions, the input and its checks, and the whole sizing
 * in order: each network's tiers (cluster_tiers.c), where the switches
 * stand (cluster_place.c), the OOB network that reaches them
 * (cluster_oob.c), the cables counted by walking every link once
 * (cluster_walk.c, cluster_cable.c), the decisions and findings
 * (cluster_explain.c) and the bill of materials (cluster_bom.c).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "cluster/cluster_int.h"
#include "core/num_int.h"

/*
 * Node names are zero-padded to at least four digits ("node0007"), so that
 * the names of clusters of up to 9,999 nodes sort as numbers do; larger
 * clusters get the digits they need.
 */
#define NODE_DIGITS_MIN 4

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
	  "most switches in one network rack (fewer when floor(rack_u / switch U) is less)",
	  "assumption (power, cooling, cable management)" },
	{ "tor_span", LP(tor_span), 3, 1, 50, "",
	  "a leaf whose nodes span at most this many racks goes on top of one of them with "
	  "room, the middle one first (others go to network racks in the middle of the row)",
	  "assumption" },
	{ "tray_m", LP(tray_m), 0.5, 0, 5, "m",
	  "from the top of a rack up into the overhead tray, each end", "assumption" },
	{ "slack_m", LP(slack_m), 0.5, 0, 10, "m", "fixed slack per cable (service loop)",
	  "assumption" },
	{ "slack_frac", LP(slack_frac), 0.1, 0, 1, "", "extra share of the routed length",
	  "assumption" },
	{ "storage_u", LP(storage_u), 2, 1, 20, "U", "height of one storage server",
	  "assumption: a 2U storage server (set it to the storage vendor's)" },
};

const size_t nicfit_cluster_layout_count =
	sizeof(nicfit_cluster_layout_table) / sizeof(nicfit_cluster_layout_table[0]);

void nicfit_cluster_layout_default(struct nicfit_cluster_layout *l)
{
	nicfit_param_defaults(nicfit_cluster_layout_table, nicfit_cluster_layout_count, l);
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
	in->storage.radix = 64;
	in->storage.oversubscription = 1;
	nicfit_cluster_layout_default(&in->layout);
}

/* ---- checks on the input ----------------------------------------------------- */

static int check_input(const struct nicfit_cluster_input *in, struct nicfit_error *err)
{
	int i;

	if (in->nodes < 1 || in->nodes > NICFIT_CLUSTER_MAX_NODES)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--nodes", 0, 0,
				       "give 1 to %ld nodes", NICFIT_CLUSTER_MAX_NODES);
	if (in->nodes_per_rack < 1 || in->nodes_per_rack > NICFIT_CLUSTER_MAX_NODES_PER_RACK)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--nodes-per-rack", 0, 0,
				       "give 1 to %d nodes per rack", NICFIT_CLUSTER_MAX_NODES_PER_RACK);
	if (in->gpus_per_node < 0 || in->gpus_per_node > NICFIT_CLUSTER_MAX_GPUS)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--gpus-per-node", 0, 0,
				       "give 0 to %d GPUs per node", NICFIT_CLUSTER_MAX_GPUS);
	for (i = 0; i < NICFIT_NET_COUNT; i++) {
		const struct nicfit_cluster_net_input *ni = &in->net[i];

		if (ni->links_per_node == 0)
			continue;
		if (ni->links_per_node < 0 || ni->links_per_node > NICFIT_CLUSTER_MAX_LINKS)
			return nicfit_error_at(err, NICFIT_E_USAGE, nicfit_net_name(i), 0, 0,
					       "give 0 to %d links per node", NICFIT_CLUSTER_MAX_LINKS);
		if (!(ni->link_gbps > 0 && ni->link_gbps <= NICFIT_CLUSTER_MAX_GBPS))
			return nicfit_error_at(err, NICFIT_E_USAGE, nicfit__cluster_rate_opt(i), 0, 0,
					       "link rate must be above 0 and at most %d Gb/s",
					       NICFIT_CLUSTER_MAX_GBPS);
		if (!ni->switch_id && (ni->radix < 2 || ni->radix > NICFIT_CLUSTER_MAX_RADIX))
			return nicfit_error_at(err, NICFIT_E_USAGE, nicfit_net_name(i), 0, 0,
					       "switch radix must be 2 to %d", NICFIT_CLUSTER_MAX_RADIX);
		if (!(ni->oversubscription >= NICFIT_CLUSTER_MIN_OVERSUB &&
		      ni->oversubscription <= NICFIT_CLUSTER_MAX_OVERSUB))
			return nicfit_error_at(err, NICFIT_E_USAGE, nicfit_net_name(i), 0, 0,
					       "oversubscription must be %g to %d (X:1; 0.5 is 1:2)",
					       NICFIT_CLUSTER_MIN_OVERSUB, NICFIT_CLUSTER_MAX_OVERSUB);
		if (ni->switch_gbps < 0 || ni->switch_gbps > NICFIT_CLUSTER_MAX_GBPS || ni->uplinks < 0 ||
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
	    (in->nics_per_node && (in->nic_ports < 1 || in->nic_ports > NICFIT_CLUSTER_MAX_NIC_PORTS)))
		return nicfit_error_at(err, NICFIT_E_USAGE, "--nics-per-node", 0, 0,
				       "give 0 to %d NICs per node with 1 to %d cabled ports each",
				       NICFIT_CLUSTER_MAX_LINKS, NICFIT_CLUSTER_MAX_NIC_PORTS);
	if (in->net[NICFIT_NET_OOB].links_per_node > 1)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--oob", 0, 0,
				       "a node has one BMC port");
	return nicfit__cluster_check_storage(in, err);
}

/* ---- the whole sizing -------------------------------------------------------- */

static int count_link(void *ctx, const struct nicfit_cluster_link *l)
{
	struct nicfit_cluster *c = ctx;
	struct nicfit_cluster_net *nt = &c->net[l->net];
	enum nicfit_tier ta, tb;
	enum nicfit_net na;
	int pa;
	long ia;

	nt->links[l->level]++;
	nt->cables += l->cables;
	if (l->length_m > c->max_length_m)
		c->max_length_m = (long)ceil(l->length_m);
	if (l->length_m > nt->max_length_m)
		nt->max_length_m = (long)ceil(l->length_m);
	/* physical switch ports in use, counted once per port */
	if (l->a >= c->in.nodes && l->a < c->in.nodes + c->impl->nsw && l->port_a >= 0 &&
	    l->lane_a <= 0) {
		nicfit__cluster_switch_of(c, l->a - c->in.nodes, &na, &pa, &ta, &ia);
		c->net[na].tier[ta].ports_used++;
		if (l->port_a >= c->impl->hi_port[na][ta])
			c->impl->hi_port[na][ta] = l->port_a + 1;
	}
	if (l->b >= c->in.nodes && l->port_b >= 0 && l->lane_b <= 0) {
		nicfit__cluster_switch_of(c, l->b - c->in.nodes, &na, &pa, &tb, &ia);
		/* a split port that takes its neighbour's logical ports takes its port too */
		c->net[na].tier[tb].ports_used += l->lane_b == 0 ? c->net[na].split_stride : 1;
		if (l->port_b >= c->impl->hi_port[na][tb])
			c->impl->hi_port[na][tb] = l->port_b + 1;
	}
	return 0;
}

/* Link rates left at 0: the NIC's, else the catalog switch's, else the
 * defaults of nicfit/cluster.h (400G back end, 25G front end, 1G OOB). */
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
			s = nicfit_catalog_find_switch(c->impl->cat, ni->switch_id, nicfit__cluster_switch_opt(n), NULL);
		if (n == NICFIT_NET_BACKEND && c->nic && nicfit_nic_port_gbps(c->nic, c->in.nic_ports) > 0)
			ni->link_gbps = nicfit_nic_port_gbps(c->nic, c->in.nic_ports); /* its port mode */
		else if (n == NICFIT_NET_BACKEND && c->nic)
			ni->link_gbps = c->nic->port_gbps;
		else if (s && s->port_gbps > 0)
			ni->link_gbps = s->port_gbps;
		else
			ni->link_gbps = def[n];
	}
}

/*
 * --nic-gbps given as an InfiniBand rate (HDR, NDR200) names InfiniBand
 * ports: a card without InfiniBand, or a catalog switch of another fabric
 * (an Ethernet Spectrum), cannot run it, as calc link refuses HDR with
 * --proto roce. Said as a usage error naming the figure to give instead.
 */
static int check_ib_rate(struct nicfit_cluster *c, struct nicfit_error *err)
{
	const struct nicfit_cluster_net_input *be = &c->in.net[NICFIT_NET_BACKEND];
	const struct nicfit_switch *s = NULL;

	if (!be->link_ib[0] || !be->links_per_node)
		return 0;
	if (c->nic && !c->nic->ib_rate)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--nic-gbps", 0, 0,
				       "%s is an InfiniBand rate, and %.64s has no InfiniBand ports: "
				       "give an Ethernet speed (a figure such as %gG), or a card with "
				       "InfiniBand", be->link_ib, c->nic->part ? c->nic->part : c->nic->e.id,
				       be->link_gbps);
	if (be->switch_id && c->impl->cat)
		s = nicfit_catalog_find_switch(c->impl->cat, be->switch_id, "--switch", NULL);
	if (s && s->fabric && strcmp(s->fabric, "infiniband"))
		return nicfit_error_at(err, NICFIT_E_USAGE, "--nic-gbps", 0, 0,
				       "%s is an InfiniBand rate, and %.64s is an %s switch: give an "
				       "Ethernet speed such as %gG, or an InfiniBand switch", be->link_ib,
				       s->e.id, !strcmp(s->fabric, "ethernet") ? "Ethernet" : s->fabric,
				       be->link_gbps);
	return 0;
}

/*
 * An accelerator whose scale-out ports are on its own package (Intel
 * Gaudi 3: 3 x 200 GbE of its 24 RoCE ports, Intel Gaudi "Network
 * Configuration") needs no NIC card: when --gpu names one and the back end
 * was not given otherwise (no --nic, --nics-per-node, --nic-ports or
 * --nic-gbps), the node's back-end links are its cages, each carrying
 * scaleout_per_cage of those ports (an 800G OSFP bundles four 200 GbE
 * ports: six cages for eight accelerators), at their sum of rates. A
 * switch port then takes one cage, whole or split into the ports' rate.
 */
static void integrated_ports(struct nicfit_cluster *c)
{
	struct nicfit_cluster_net_input *be = &c->in.net[NICFIT_NET_BACKEND];
	const struct nicfit_gpu *g = c->gpu;
	int per = g->scaleout_per_cage > 0 ? g->scaleout_per_cage : 1;
	long ports = (long)c->in.gpus_per_node * g->scaleout_ports;

	if (!c->in.backend_from_gpu || g->scaleout_ports < 1 || g->scaleout_gbps <= 0 ||
	    c->in.gpus_per_node < 1)
		return;
	c->in.nics_per_node = (int)((ports + per - 1) / per);
	c->in.nic_ports = 1;
	be->link_gbps = g->scaleout_gbps * per;
	be->link_ib[0] = '\0';
	c->integrated = 1;
}

/*
 * A card whose ports cannot all run at its top rate at once (port_modes:
 * Thor2 runs 2 x 200G or 1 x 400G) is cabled in one of its modes: more
 * ports than a mode runs, or a port rate above the mode's for that many
 * ports, is refused with the modes the catalog gives.
 */
static int check_port_mode(struct nicfit_cluster *c, struct nicfit_error *err)
{
	const struct nicfit_nic *n = c->nic;
	double g;
	char modes[96];
	size_t k = 0;
	int i;

	if (!n || !n->nport_modes || !c->in.net[NICFIT_NET_BACKEND].links_per_node)
		return 0;
	g = nicfit_nic_port_gbps(n, c->in.nic_ports);
	if (g > 0 && c->in.net[NICFIT_NET_BACKEND].link_gbps <= g + NICFIT_EPS)
		return 0;
	modes[0] = '\0';
	for (i = 0; i < n->nport_modes && k < sizeof(modes); i++)
		k += (size_t)snprintf(modes + k, sizeof(modes) - k, "%s%u x %uG", i ? " or " : "",
				      n->port_modes[i][0], n->port_modes[i][1]);
	return nicfit_error_at(err, NICFIT_E_USAGE, g > 0 ? "--nic-gbps" : "--nic-ports", 0, 0,
			       "%s runs its ports as %s: %d port%s at %g Gb/s is none of them",
			       n->part, modes, c->in.nic_ports, c->in.nic_ports == 1 ? "" : "s",
			       c->in.net[NICFIT_NET_BACKEND].link_gbps);
}

/* The request as it will be sized: back-end links from the NICs, the NIC
 * looked up, rates left at 0 filled in, then every value checked. */
static int prepare(struct nicfit_cluster *out, const struct nicfit_cluster_input *in,
		   const struct nicfit_catalog *cat, struct nicfit_error *err)
{
	struct nicfit_cluster_net_input *be = &out->in.net[NICFIT_NET_BACKEND];
	struct nicfit_cluster_impl *im;
	int rc;

	out->in = *in;
	if (in->server_id && cat)
		out->server = nicfit_catalog_find_server(cat, in->server_id, NULL, NULL);
	out->ns_nic = nicfit__cluster_server_ns_nic(cat, out->server);
	if (in->gpu_id) {
		out->gpu = cat ? nicfit_catalog_find_gpu(cat, in->gpu_id, "--gpu", err) : NULL;
		if (!out->gpu)
			return err && err->code ? err->code :
				nicfit_error_at(err, NICFIT_E_NOTFOUND, "--gpu", 0, 0,
						"unknown GPU '%.64s'", in->gpu_id);
		integrated_ports(out);
	}
	if (out->in.nics_per_node > 0 && out->in.nic_ports > 0) {
		long links = (long)out->in.nics_per_node * out->in.nic_ports;

		/* out of range is refused by check_input() below */
		be->links_per_node = links > NICFIT_CLUSTER_MAX_LINKS ? NICFIT_CLUSTER_MAX_LINKS + 1 :
									(int)links;
	} else {
		be->links_per_node = 0;
	}
	out->impl = im = calloc(1, sizeof(*im));
	if (!im)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	im->cat = cat;
	im->counting = 1;
	if (in->nic_id && be->links_per_node) {
		out->nic = cat ? nicfit_catalog_find_nic(cat, in->nic_id, "--nic", err) : NULL;
		if (!out->nic)
			return err && err->code ? err->code :
				nicfit_error_at(err, NICFIT_E_NOTFOUND, "--nic", 0, 0,
						"unknown NIC '%.64s'", in->nic_id);
	}
	auto_rates(out);
	rc = check_ib_rate(out, err);
	if (!rc)
		rc = check_port_mode(out, err);
	if (rc)
		return rc;
	if (be->rail_only)
		be->rail_optimized = 1;
	rc = check_input(&out->in, err);
	if (rc)
		return rc;
	out->gpus = out->in.nodes * out->in.gpus_per_node;
	out->racks = cdiv(out->in.nodes, out->in.nodes_per_rack);
	im->node_digits = digits(out->in.nodes);
	if (im->node_digits < NODE_DIGITS_MIN)
		im->node_digits = NODE_DIGITS_MIN;
	return 0;
}

/* The back end and the front end: set up, leaves and tiers, switches numbered. */
static int size_networks(struct nicfit_cluster *out, struct nicfit_error *err)
{
	struct nicfit_cluster_impl *im = out->impl;
	struct leafdes d;
	int n, rc;

	for (n = 0; n < NICFIT_NET_OOB; n++) {
		if (!out->in.net[n].links_per_node)
			continue;
		rc = nicfit__cluster_net_setup(out, n, &d, err);
		if (!rc)
			rc = nicfit__cluster_leaf_layer(out, n, &d, err);
		if (rc)
			return rc;
		nicfit__cluster_net_publish(out, n, &d);
		im->net[n].base = im->nsw;
		im->nsw += im->net[n].per_plane * out->net[n].planes;
	}
	return 0;
}

/* Where every switch stands; the OOB network, which reaches the BMCs and
 * the switches where they stand, is sized here, once the others are placed. */
static int place_all(struct nicfit_cluster *out, struct placer *p, struct nicfit_error *err)
{
	struct nicfit_cluster_impl *im = out->impl;
	long i;
	int n, rc;

	p->C = out->racks;
	p->rpr = (long)out->in.layout.racks_per_row;
	if (p->rpr < 1)
		p->rpr = 1;
	im->crow = cdiv(p->C, p->rpr);
	p->slots = calloc((size_t)im->crow + 2, sizeof(*p->slots));
	p->tor_u = calloc((size_t)p->C + 1, sizeof(*p->tor_u));
	im->row_half = calloc((size_t)im->crow + 2, sizeof(*im->row_half));
	im->row_net = calloc((size_t)im->crow + 2, sizeof(*im->row_net));
	if (!p->slots || !p->tor_u || !im->row_half || !im->row_net ||
	    NICFIT_ALLOC_GROW(im->pos, (size_t)im->nsw + 1, im->alloc_pos))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	p->hmax = 1;
	for (n = 0; n < NICFIT_NET_COUNT; n++)
		if (out->net[n].enabled && out->net[n].sw.height_u > p->hmax)
			p->hmax = out->net[n].sw.height_u;
	if (out->storage.enabled && out->storage.sw.height_u > p->hmax)
		p->hmax = out->storage.sw.height_u;
	p->spr = nicfit__cluster_rack_switches(out->in.layout.switches_per_rack,
					       out->in.layout.rack_u, p->hmax);
	im->spr = p->spr;
	im->hmax = p->hmax;
	im->tor_full_rack = -1;
	for (n = 0; n < NICFIT_NET_OOB; n++)
		if (out->net[n].enabled)
			nicfit__cluster_place_net(out, p, n);
	/* the storage network's switches and the border's, placed before the OOB network
	 * reaches them (and the storage servers) where they stand */
	im->xbase = im->nsw;
	out->border.switches = nicfit__cluster_border_switches(out);
	if (NICFIT_ALLOC_GROW(im->pos, (size_t)(im->nsw + out->storage.leaves + out->storage.spines +
						out->border.switches + 1), im->alloc_pos))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	nicfit__cluster_place_extra(out, p);
	if (out->in.net[NICFIT_NET_OOB].links_per_node) {
		rc = nicfit__cluster_size_oob(out, p, err);
		if (rc)
			return rc;
	}
	im->nservers = out->storage.enabled ? out->in.storage.servers : 0;
	if (NICFIT_ALLOC_GROW(im->pos, (size_t)(im->xbase + im->nx + im->nservers + 1), im->alloc_pos))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	nicfit__cluster_finalize_positions(out, p);
	for (i = 0; i < im->nservers; i++)
		nicfit__cluster_server_pos(out, i, &im->pos[im->xbase + im->nx + i]);
	return 0;
}

/* Cables, links and used ports, counted by walking every link once. */
static int count_all(struct nicfit_cluster *out, struct nicfit_error *err)
{
	int n, t, rc;

	rc = nicfit__cluster_classes(out, err);
	if (rc)
		return rc;
	rc = nicfit_cluster_walk(out, count_link, out);
	if (rc == NICFIT_E_LIMIT)
		return nicfit_error_set(err, rc, "the cluster's walk is over this thread's CPU budget");
	if (rc)
		return nicfit_error_set(err, rc, "out of memory");
	out->impl->counting = 0;
	if (nicfit__cluster_sort_cables(out))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	for (n = 0; n < NICFIT_NET_COUNT; n++) {
		struct nicfit_cluster_net *nt = &out->net[n];

		if (!nt->enabled)
			continue;
		for (t = 0; t < NICFIT_TIER_COUNT; t++) {
			long total = nt->tier[t].switches * nicfit__cluster_tier_ports(nt, t);

			nt->tier[t].ports_free = total - nt->tier[t].ports_used;
			nt->ports_total += total;
			nt->ports_free += nt->tier[t].ports_free;
		}
	}
	return 0;
}

int nicfit_cluster_size(const struct nicfit_cluster_input *in,
			const struct nicfit_catalog *cat, struct nicfit_cluster *out,
			struct nicfit_error *err)
{
	struct placer p;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	rc = prepare(out, in, cat, err);
	if (!rc)
		rc = size_networks(out, err);
	if (!rc)
		rc = nicfit__cluster_size_storage(out, err);
	if (!rc)
		rc = place_all(out, &p, err);
	free(p.slots);
	free(p.tor_u);
	if (!rc)
		rc = count_all(out, err);
	if (!rc)
		rc = nicfit__cluster_cable_storage(out, err);
	if (!rc)
		rc = nicfit__cluster_size_border(out, err);
	if (!rc) {
		nicfit__cluster_explain(out);
		if (out->findings.oom || out->decisions.oom)
			rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	if (!rc)
		rc = nicfit__cluster_bom(out, err);
	if (rc)
		nicfit_cluster_release(out);
	return rc;
}

void nicfit_cluster_release(struct nicfit_cluster *c)
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
		nicfit__cluster_kits_free(im);
		free(im);
	}
	free(c->cables);
	free(c->storage.cables);
	free(c->border.cables);
	free(c->bom);
	nicfit_findings_release(&c->findings);
	nicfit_findings_release(&c->decisions);
	memset(c, 0, sizeof(*c));
}
