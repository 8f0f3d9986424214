/*
 * cluster_border.c - where the front end leaves the cluster, and its MLAG
 * pairs (nicfit/cluster.h): uplinks from every switch of the front end's
 * top tier to border switches, which come in pairs, and the peer links
 * that join the two switches of an MLAG pair: the two leaves a
 * dual-homed node spans, and the two border switches.
 *
 * It is sized by counts after the front end: the front-end switches keep
 * the ports they have, and these links take ports they leave free (the
 * front end's tiers then count them as used). It is
 * not in the port map or the picture; its cables have the one length
 * class of networks sized by counts (nicfit__cluster_row_run_m).
 */
#include <stdio.h>
#include <string.h>

#include "cluster_int.h"
#include "finding_int.h"

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

/*
 * The two switches of a pair stand in one rack or side by side: their
 * peer links are short copper (DAC) of this length, an assumption.
 */
#define PEER_LINK_M 3

static int border_cables(struct nicfit_cluster *c, struct nicfit_cluster_border *b)
{
	const struct nicfit_cluster_switch *sw = &c->net[NICFIT_NET_FRONTEND].sw;
	double len = nicfit__cluster_row_run_m(&c->in.layout);
	char id[64], desc[160];
	size_t cap = 0;
	int rc = 0;

	if (b->uplinks) {
		snprintf(id, sizeof(id), "optic-%gg-%s", sw->gbps, sw->cage);
		snprintf(desc, sizeof(desc), "%g Gb/s %s optic (generic): front-end uplink to the "
			 "border, both ends", sw->gbps, sw->cage);
		rc = nicfit__cluster_item_add(&b->cables, &b->ncables, &cap, NICFIT_LINK_SPINE_CORE,
					      "optic", sw->gbps, 0, 2 * b->uplinks, b->uplinks, id,
					      desc);
		snprintf(id, sizeof(id), "fiber-border-%gm", len);
		snprintf(desc, sizeof(desc), "fibre patch cord for the border uplinks, %g m (generic)",
			 len);
		if (!rc)
			rc = nicfit__cluster_item_add(&b->cables, &b->ncables, &cap,
						      NICFIT_LINK_SPINE_CORE, "fiber", sw->gbps, len,
						      b->uplinks, b->uplinks, id, desc);
	}
	snprintf(id, sizeof(id), "dac-%gg-%s-%dm", sw->gbps, sw->cage, PEER_LINK_M);
	snprintf(desc, sizeof(desc), "%g Gb/s %s DAC, %d m (generic): MLAG peer link", sw->gbps,
		 sw->cage, PEER_LINK_M);
	if (!rc)
		rc = nicfit__cluster_item_add(&b->cables, &b->ncables, &cap, NICFIT_LINK_LEAF_SPINE,
					      "dac", sw->gbps, PEER_LINK_M, b->peer_links,
					      b->peer_links, id, desc);
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
	if (peer_ports && peer_ports <= leaf->ports_free) {
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
