/*
 * cluster_border.c - where the front end leaves the cluster, and its MLAG
 * pairs (nicfit/cluster.h): uplinks from every switch of the front end's
 * top tier to border switches, which come in pairs, and the peer links
 * that join the two switches of an MLAG pair: the two leaves a
 * dual-homed node spans, and the two border switches.
 *
 * It is sized by counts after the front end: the front-end switches keep
 * the ports they have, and these links take their highest ports, above
 * every port the front end cables (the front end's tiers then count them
 * as used). The border switches stand in the spine row (cluster_place.c);
 * every link is cabled from where its ends stand and is in the port map
 * (nicfit__cluster_border_walk).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cluster/cluster_int.h"
#include "core/finding_int.h"

/*
 * Peer links per MLAG pair. The inter-peer link carries the MLAG control
 * traffic and, when one side loses its host links, data; it may be a LAG
 * of links of any speed (NVIDIA Onyx User Manual, "MLAG",
 * https://docs.nvidia.com/networking/display/NVIDIAOnyxUserManualv3104408LTS/MLAG).
 * Two, so that one cable or port does not split the pair: an assumption.
 */
#define MLAG_PEER_LINKS 2

/* Border switches come in pairs, so that the cluster keeps its way out when one fails. */
#define BORDER_PAIR 2

long nicfit__cluster_border_switches(const struct nicfit_cluster *c)
{
	const struct nicfit_cluster_net *fe = &c->net[NICFIT_NET_FRONTEND];
	long u = c->in.frontend_uplinks, per = fe->sw.ports - MLAG_PEER_LINKS;

	if (!fe->enabled || u < 1 || u > NICFIT_CLUSTER_MAX_RADIX || fe->tiers < 1 || per < 1)
		return 0;
	return BORDER_PAIR * cdiv(fe->tier[fe->tiers - 1].switches * u, BORDER_PAIR * per);
}

/* Digits of a switch number in a name: at least two. */
static int name_digits(long n)
{
	int d = digits(n > 0 ? n : 1);

	return d < 2 ? 2 : d;
}

/* One switch-to-switch link of the border, cabled from where its ends stand. */
static int border_link(const struct nicfit_cluster *c, int cls, struct cl_slink *x,
		       const struct cl_pos *pa, const struct cl_pos *pb, cl_slink_fn fn, void *ctx)
{
	int twin = c->net[NICFIT_NET_FRONTEND].sw.per_cage, same;
	const struct cl_kit *kt;

	x->length_m = nicfit__cluster_length_pos(c, pa, pb, &same);
	kt = nicfit__cluster_kit_for(c, cls, x->length_m, same);
	nicfit__cluster_count_kit(c, kt, 1, x->port_b % twin == 0, x->port_a % twin == 0);
	x->cable = kt ? kt->label : "?";
	return fn(ctx, x);
}

/* Front-end switch q of tier t, all planes in order: its name and where it stands. */
static void fe_switch(const struct nicfit_cluster *c, enum nicfit_tier t, long q, char *name,
		      size_t len, struct cl_pos *pos)
{
	const struct cl_net *cn = &c->impl->net[NICFIT_NET_FRONTEND];
	long per = cn->tier_sw[t] > 0 ? cn->tier_sw[t] : 1;
	long id = nicfit__cluster_switch_id(c, NICFIT_NET_FRONTEND, (int)(q / per), t, q % per);

	nicfit_cluster_endpoint_name(c, id, name, len);
	nicfit__cluster_where(c, id, pos);
}

/*
 * Uplink j of top-tier switch i (all planes in order) takes that switch's
 * port P - U + j and lands on border switch (i*U + j) mod B at port
 * (i*U + j) div B; a leaf pair's peer links take the two ports below a
 * leaf's uplinks to the border (its highest when it has none), a border
 * pair's its two highest ports.
 */
int nicfit__cluster_border_walk(const struct nicfit_cluster *c, cl_slink_fn fn, void *ctx)
{
	const struct nicfit_cluster_border *b = &c->border;
	const struct nicfit_cluster_impl *im = c->impl;
	int P = c->net[NICFIT_NET_FRONTEND].sw.ports, U = b->uplinks_per_switch, j, rc;
	int db = name_digits(b->switches), leaf_up = b->top_tier == NICFIT_TIER_LEAF ? U : 0;
	long bbase = im->xbase + c->storage.leaves + c->storage.spines, i, q;
	struct cl_slink x;
	struct cl_pos pa, pb;

	memset(&x, 0, sizeof(x));
	x.lane_b = -1;
	x.level = NICFIT_LINK_SPINE_CORE;
	x.type = "border-uplink";
	for (i = 0; b->uplinks && im->bcls[0] >= 0 && i < b->top_switches; i++)
		for (j = 0; j < U; j++) {
			long g = i * U + j;

			fe_switch(c, b->top_tier, i, x.a, sizeof(x.a), &pa);
			x.port_a = P - U + j;
			snprintf(x.b, sizeof(x.b), "fe-border%0*ld", db, g % b->switches + 1);
			x.port_b = (int)(g / b->switches);
			rc = border_link(c, im->bcls[0], &x, &pa, &im->pos[bbase + g % b->switches], fn,
					 ctx);
			if (rc)
				return rc;
		}
	x.level = NICFIT_LINK_LEAF_SPINE;
	x.type = "mlag-peer";
	for (q = 0; b->leaf_peer_ports && im->bcls[1] >= 0 && q < b->leaf_pairs; q++)
		for (j = 0; j < MLAG_PEER_LINKS; j++) {
			fe_switch(c, NICFIT_TIER_LEAF, 2 * q, x.a, sizeof(x.a), &pa);
			fe_switch(c, NICFIT_TIER_LEAF, 2 * q + 1, x.b, sizeof(x.b), &pb);
			x.port_a = x.port_b = P - leaf_up - MLAG_PEER_LINKS + j;
			rc = border_link(c, im->bcls[1], &x, &pa, &pb, fn, ctx);
			if (rc)
				return rc;
		}
	for (q = 0; im->bcls[1] >= 0 && q < b->border_pairs; q++)
		for (j = 0; j < MLAG_PEER_LINKS; j++) {
			snprintf(x.a, sizeof(x.a), "fe-border%0*ld", db, 2 * q + 1);
			snprintf(x.b, sizeof(x.b), "fe-border%0*ld", db, 2 * q + 2);
			x.port_a = x.port_b = P - MLAG_PEER_LINKS + j;
			rc = border_link(c, im->bcls[1], &x, &im->pos[bbase + 2 * q],
					 &im->pos[bbase + 2 * q + 1], fn, ctx);
			if (rc)
				return rc;
		}
	return 0;
}

/* While cabling: the rows of the port map and the longest run. */
static int count_blink(void *ctx, const struct cl_slink *l)
{
	struct nicfit_cluster *c = ctx;

	c->border.map_rows++;
	if (l->length_m > c->max_length_m)
		c->max_length_m = (long)ceil(l->length_m);
	if (l->length_m > c->border.max_length_m)
		c->border.max_length_m = (long)ceil(l->length_m);
	return 0;
}

/* The classes of the uplinks and the peer links (front-end port to front-end port), then
 * one walk that chooses and counts what cables each link. */
static int border_cables(struct nicfit_cluster *c, struct nicfit_cluster_border *b)
{
	const struct nicfit_cluster_switch *sw = &c->net[NICFIT_NET_FRONTEND].sw;
	const struct nicfit_port *fp = &c->impl->net[NICFIT_NET_FRONTEND].sw_port;
	struct nicfit_cluster_impl *im = c->impl;
	int rc;

	im->bcls[0] = im->bcls[1] = -1;
	if (!b->uplinks && !b->peer_links)
		return 0;
	if (b->uplinks)
		im->bcls[0] = nicfit__cluster_add_class(c, CL_LIST_BORDER, NICFIT_LINK_SPINE_CORE,
							sw->gbps, sw->cage, sw->gbps, sw->cage, 1,
							sw->per_cage, fp, fp);
	im->bcls[1] = nicfit__cluster_add_class(c, CL_LIST_BORDER, NICFIT_LINK_LEAF_SPINE,
						sw->gbps, sw->cage, sw->gbps, sw->cage, 1,
						sw->per_cage, fp, fp);
	if ((b->uplinks && im->bcls[0] < 0) || im->bcls[1] < 0)
		return NICFIT_E_NOMEM;
	im->counting = 1;
	rc = nicfit__cluster_border_walk(c, count_blink, c);
	im->counting = 0;
	if (!rc)
		nicfit__cluster_sort_list(b->cables, b->ncables);
	return rc;
}

/*
 * The uplinks and peer links take front-end ports: the top tier's switches
 * give U ports each to the border (they count as up ports of that tier),
 * and each leaf of an MLAG pair gives MLAG_PEER_LINKS to its peer. So the
 * front end's rows of the switch table, its tiers in JSON and its free
 * ports count them, as the border's own row does. Peer links that do not
 * fit the leaves' free ports (cluster-mlag-ports) are not counted, so
 * that no count goes below zero; the warning says what is missing.
 */
static void count_front_end_ports(struct nicfit_cluster *c, struct nicfit_cluster_border *b,
				  long peer_ports)
{
	struct nicfit_cluster_net *fe = &c->net[NICFIT_NET_FRONTEND];
	struct nicfit_cluster_tier *top = &fe->tier[b->top_tier];
	struct nicfit_cluster_tier *leaf = &fe->tier[NICFIT_TIER_LEAF];

	if (b->uplinks) {
		top->up += b->uplinks_per_switch;
		top->ports_used += b->uplinks;
		top->ports_free -= b->uplinks;
		fe->ports_free -= b->uplinks;
	}
	int room = c->net[NICFIT_NET_FRONTEND].sw.ports -
		   c->impl->hi_port[NICFIT_NET_FRONTEND][NICFIT_TIER_LEAF] -
		   (b->top_tier == NICFIT_TIER_LEAF ? b->uplinks_per_switch : 0);

	/* the peer links take two ports of every paired leaf, above those it cables */
	if (peer_ports && peer_ports <= leaf->ports_free && room >= MLAG_PEER_LINKS) {
		b->leaf_peer_ports = peer_ports;
		leaf->ports_used += peer_ports;
		leaf->ports_free -= peer_ports;
		fe->ports_free -= peer_ports;
	}
}

/*
 * The border and the MLAG pairs. Dual-homed nodes (two front-end links,
 * each to another leaf) pair the leaf of their first link with the leaf
 * of their second for MLAG (or EVPN multihoming, which needs no peer
 * link: then ignore them). With --frontend-uplinks U every switch of the front end's top
 * tier sends U uplinks to the border: when the top tier has not the
 * ports free for them (and its peer links), the request is refused with
 * what is free. Border switches are the front end's switch model, in
 * pairs, each with its peer links and the rest of its ports for the
 * uplinks; their own uplinks to the site are the site's.
 */
int nicfit__cluster_size_border(struct nicfit_cluster *c, struct nicfit_error *err)
{
	const struct nicfit_cluster_net *fe = &c->net[NICFIT_NET_FRONTEND];
	struct nicfit_cluster_border *b = &c->border;
	long u = c->in.frontend_uplinks, free_top, need, per_border;
	long peer_ports;

	if (u < 0 || u > NICFIT_CLUSTER_MAX_RADIX)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--frontend-uplinks", 0, 0,
				       "give 0 to %d uplinks per switch", NICFIT_CLUSTER_MAX_RADIX);
	if (!fe->enabled) {
		if (u)
			return nicfit_error_at(err, NICFIT_E_USAGE, "--frontend-uplinks", 0, 0,
					       "there is no front end to take uplinks from");
		return 0;
	}
	b->top_tier = (enum nicfit_tier)(fe->tiers - 1);
	b->top_switches = fe->tier[b->top_tier].switches;
	b->leaf_pairs = fe->links_per_node >= 2 ? fe->tier[NICFIT_TIER_LEAF].switches / 2 : 0;
	peer_ports = b->leaf_pairs * 2 * MLAG_PEER_LINKS;
	if (u) {
		free_top = fe->tier[b->top_tier].ports_free;
		need = b->top_switches * u + (b->top_tier == NICFIT_TIER_LEAF ? peer_ports : 0);
		if (need > free_top)
			return nicfit_error_at(err, NICFIT_E_USAGE, "--frontend-uplinks", 0, 0,
					       "the %ld front-end %s switch%s %s %ld ports free, fewer "
					       "than %ld x %ld uplinks%s: give fewer uplinks or a larger "
					       "--frontend-switch", b->top_switches,
					       nicfit_tier_name(b->top_tier),
					       b->top_switches == 1 ? "" : "es",
					       b->top_switches == 1 ? "has" : "have", free_top, b->top_switches,
					       u, b->top_tier == NICFIT_TIER_LEAF && peer_ports ?
					       " and their MLAG peer links" : "");
		if (u > fe->sw.ports - c->impl->hi_port[NICFIT_NET_FRONTEND][b->top_tier])
			return nicfit_error_at(err, NICFIT_E_USAGE, "--frontend-uplinks", 0, 0,
					       "a front-end %s switch cables its ports up to swp%d of "
					       "%d: %ld uplinks do not fit above them; give fewer "
					       "uplinks or a larger --frontend-switch",
					       nicfit_tier_name(b->top_tier),
					       c->impl->hi_port[NICFIT_NET_FRONTEND][b->top_tier],
					       fe->sw.ports, u);
		per_border = fe->sw.ports - MLAG_PEER_LINKS;
		b->enabled = 1;
		b->uplinks_per_switch = (int)u;
		b->uplinks = b->top_switches * u;
		b->switches = BORDER_PAIR * cdiv(b->uplinks, BORDER_PAIR * per_border);
		b->border_pairs = b->switches / BORDER_PAIR;
	}
	b->peer_links = (b->leaf_pairs + b->border_pairs) * MLAG_PEER_LINKS;
	count_front_end_ports(c, b, peer_ports);
	if (border_cables(c, b))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	return 0;
}

/* The border's decision (cluster.border) and a leaf layer without ports for its peer links. */
void nicfit__cluster_explain_border(struct nicfit_cluster *c)
{
	const struct nicfit_cluster_net *fe = &c->net[NICFIT_NET_FRONTEND];
	const struct nicfit_cluster_border *b = &c->border;
	long peer_ports = b->leaf_pairs * 2 * MLAG_PEER_LINKS;
	long leaf_free = fe->tier[NICFIT_TIER_LEAF].ports_free;
	long u = b->uplinks_per_switch;

	if (peer_ports && !b->leaf_peer_ports)
		nicfit__find(&c->findings, NICFIT_SEV_WARNING, NICFIT_CODE_CLUSTER_MLAG_PORTS, NULL,
			     "front end: %ld leaf pairs need %ld ports for MLAG peer links (%d per "
			     "switch); the leaves have %ld free: take a larger --frontend-switch, or "
			     "use EVPN multihoming, which needs no peer link",
			     b->leaf_pairs, peer_ports, MLAG_PEER_LINKS, leaf_free);
	if (b->peer_links)
		nicfit__decide(&c->decisions, "cluster.border", 1,
			       "front end: MLAG: %ld leaf pair%s for dual-homed nodes and %ld border "
			       "pair%s, %d peer links each = %ld peer links", b->leaf_pairs,
			       b->leaf_pairs == 1 ? "" : "s", b->border_pairs,
			       b->border_pairs == 1 ? "" : "s", MLAG_PEER_LINKS, b->peer_links);
	if (b->uplinks)
		nicfit__decide(&c->decisions, "cluster.border", 1,
			       "front end: %ld %s switch%s x %ld uplinks = %ld uplinks over border "
			       "switches of %d ports less %d for peer links = %ld border switches, in "
			       "pairs", b->top_switches, nicfit_tier_name(b->top_tier),
			       b->top_switches == 1 ? "" : "es", u, b->uplinks, fe->sw.ports,
			       MLAG_PEER_LINKS, b->switches);
}

/* ---- rendering ------------------------------------------------------------------ */

void nicfit__cluster_border_switch_rows(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	const struct nicfit_cluster_border *b = &c->border;
	const struct nicfit_cluster_switch *sw = &c->net[NICFIT_NET_FRONTEND].sw;
	long used = b->uplinks + b->border_pairs * BORDER_PAIR * MLAG_PEER_LINKS;

	if (!b->switches)
		return;
	nicfit_emit_cell_string(e, "frontend");
	nicfit_emit_cell_string(e, "border");
	nicfit_emit_cell_string(e, sw->id);
	nicfit_emit_cell_int(e, b->switches);
	nicfit_emit_cell_int(e, sw->ports);
	nicfit_emit_cell_int(e, sw->ports);
	nicfit_emit_cell_int(e, 0);
	nicfit_emit_cell_int(e, used);
	nicfit_emit_cell_int(e, b->switches * sw->ports - used);
}

void nicfit__cluster_border_render(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	static const struct nicfit_column cols[] = {
		{ "link", "link", 0 }, { "part", "part", 0 }, { "type", "type", 0 },
		{ "length_m", "length_m", 1 }, { "qty", "qty", 1 }, { "links", "links", 1 },
	};
	const struct nicfit_cluster_border *b = &c->border;
	const char *bold = nicfit_emit_color(e, NICFIT_COLOR_BOLD);
	const char *reset = nicfit_emit_color(e, NICFIT_COLOR_RESET);
	size_t i;

	if (!b->uplinks && !b->peer_links) {
		nicfit_emit_null(e, "border");
		return;
	}
	nicfit_emit_begin_object(e, "border");
	nicfit_emit_int(e, "uplinks_per_switch", b->uplinks_per_switch);
	nicfit_emit_string(e, "from_tier", nicfit_tier_name(b->top_tier));
	nicfit_emit_int(e, "from_switches", b->top_switches);
	nicfit_emit_int(e, "border_switches", b->switches);
	nicfit_emit_int(e, "uplinks", b->uplinks);
	nicfit_emit_int(e, "mlag_leaf_pairs", b->leaf_pairs);
	nicfit_emit_int(e, "mlag_border_pairs", b->border_pairs);
	nicfit_emit_int(e, "peer_links", b->peer_links);
	nicfit_emit_printf(e, "\n%sFront-end border%s: ", bold, reset);
	if (b->uplinks)
		nicfit_emit_printf(e, "%ld uplinks from %ld %s switch%s (%d each) to %ld border "
				   "switches; ", b->uplinks, b->top_switches,
				   nicfit_tier_name(b->top_tier), b->top_switches == 1 ? "" : "es",
				   b->uplinks_per_switch, b->switches);
	nicfit_emit_printf(e, "MLAG: %ld leaf pair%s, %ld border pair%s, %ld peer links\n",
			   b->leaf_pairs, b->leaf_pairs == 1 ? "" : "s", b->border_pairs,
			   b->border_pairs == 1 ? "" : "s", b->peer_links);
	nicfit_emit_table_begin(e, "cables", cols, 6);
	for (i = 0; i < b->ncables; i++) {
		const struct nicfit_cluster_cable *x = &b->cables[i];

		nicfit_emit_cell_string(e, x->level == NICFIT_LINK_SPINE_CORE ? "uplink" : "peer");
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
	nicfit_emit_end_object(e);
}
