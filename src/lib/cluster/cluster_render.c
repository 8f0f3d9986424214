/*
 * cluster_render.c - a sized cluster rendered for people (text,
 * Markdown), programs (JSON "nicfit.cluster.v1") and spreadsheets (the
 * BOM as CSV), and the whole request (nicfit_cluster_run). The request is
 * read from a spec in cluster_spec.c; the SVG diagram is in cluster_svg.c.
 */
#include <stdio.h>
#include <string.h>

#include "cluster/cluster_int.h"

/* ---- rendering ---------------------------------------------------------------- */

static const char *const net_title[] = { "Back end", "Front end", "Out-of-band (OOB)" };

static void emit_tier(struct nicfit_emit *e, const char *key, const struct nicfit_cluster_tier *t)
{
	nicfit_emit_begin_object(e, key);
	nicfit_emit_int(e, "switches", t->switches);
	nicfit_emit_int(e, "down_ports", t->down);
	nicfit_emit_int(e, "up_ports", t->up);
	nicfit_emit_int(e, "ports_used", t->ports_used);
	nicfit_emit_int(e, "ports_free", t->ports_free);
	nicfit_emit_end_object(e);
}

static void emit_net_json(struct nicfit_emit *e, const struct nicfit_cluster *c, enum nicfit_net n)
{
	const struct nicfit_cluster_net *nt = &c->net[n];
	int t;

	if (!nt->enabled) {
		nicfit_emit_null(e, nicfit_net_name(n));
		return;
	}
	nicfit_emit_begin_object(e, nicfit_net_name(n));
	nicfit_emit_int(e, "tiers", nt->tiers);
	nicfit_emit_int(e, "planes", nt->planes);
	nicfit_emit_int(e, "rails", nt->rails);
	nicfit_emit_bool(e, "rail_optimized", n == NICFIT_NET_BACKEND &&
						c->in.net[n].rail_optimized);
	nicfit_emit_int(e, "links_per_node", nt->links_per_node);
	nicfit_emit_number(e, "link_gbps", nt->link_gbps);
	nicfit_emit_string(e, "node_cage", nt->node_cage);
	nicfit_emit_begin_object(e, "switch");
	nicfit_emit_string(e, "id", nt->sw.id);
	nicfit_emit_string(e, "name", nt->sw.name);
	nicfit_emit_bool(e, "catalog", nt->sw.cat != NULL);
	nicfit_emit_int(e, "ports", nt->sw.ports);
	nicfit_emit_number(e, "port_gbps", nt->sw.gbps);
	nicfit_emit_string(e, "cage", nt->sw.cage);
	nicfit_emit_int(e, "ports_per_cage", nt->sw.per_cage);
	nicfit_emit_end_object(e);
	if (nt->scheduled) {
		nicfit_emit_begin_object(e, "fabric");
		nicfit_emit_string(e, "id", nt->fabric.id);
		nicfit_emit_string(e, "name", nt->fabric.name);
		nicfit_emit_int(e, "ports", nt->fabric.ports);
		nicfit_emit_number(e, "port_gbps", nt->fabric.gbps);
		nicfit_emit_string(e, "cage", nt->fabric.cage);
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "fabric");
	}
	nicfit_emit_int(e, "breakout", nt->breakout);
	nicfit_emit_number(e, "down_port_gbps", nt->port_gbps);
	nicfit_emit_int(e, "endpoints", nt->endpoints);
	nicfit_emit_int(e, "endpoints_per_leaf", nt->endpoints_per_leaf);
	nicfit_emit_int(e, "uplinks_per_leaf", nt->uplinks_per_leaf);
	nicfit_emit_number(e, "oversubscription", nt->leaf_ratio);
	nicfit_emit_int(e, "max_endpoints_per_plane", nt->max_endpoints);
	nicfit_emit_int(e, "pods", nt->pods);
	nicfit_emit_int(e, "leaves_per_pod", nt->leaves_per_pod);
	nicfit_emit_int(e, "spines_per_pod", nt->spines_per_pod);
	for (t = 0; t < NICFIT_TIER_COUNT; t++)
		emit_tier(e, nicfit_tier_name(t), &nt->tier[t]);
	nicfit_emit_begin_object(e, "links");
	nicfit_emit_int(e, "host", nt->links[NICFIT_LINK_HOST]);
	nicfit_emit_int(e, "leaf_spine", nt->links[NICFIT_LINK_LEAF_SPINE]);
	nicfit_emit_int(e, "spine_core", nt->links[NICFIT_LINK_SPINE_CORE]);
	nicfit_emit_int(e, "mgmt", nt->links[NICFIT_LINK_MGMT]);
	nicfit_emit_end_object(e);
	nicfit_emit_int(e, "cables", nt->cables);
	nicfit_emit_int(e, "ports_total", nt->ports_total);
	nicfit_emit_int(e, "ports_free", nt->ports_free);
	nicfit_emit_end_object(e);
}

static void emit_net_text(struct nicfit_emit *e, const struct nicfit_cluster *c, enum nicfit_net n)
{
	const struct nicfit_cluster_net *nt = &c->net[n];
	const char *bold = nicfit_emit_color(e, NICFIT_COLOR_BOLD);
	const char *reset = nicfit_emit_color(e, NICFIT_COLOR_RESET);
	int t;

	if (!nt->enabled)
		return;
	nicfit_emit_printf(e, "\n%s%s%s: %d tier%s", bold, net_title[n], reset, nt->tiers,
			   nt->tiers == 1 ? "" : "s");
	if (n == NICFIT_NET_BACKEND) {
		nicfit_emit_printf(e, ", %d plane%s", nt->planes, nt->planes == 1 ? "" : "s");
		if (c->in.net[n].rail_only)
			nicfit_emit_printf(e, ", rail-only (%d rails per plane)", nt->rails);
		else if (c->in.net[n].rail_optimized)
			nicfit_emit_printf(e, ", rail-optimized (%d rails per plane)", nt->rails);
	}
	if (n == NICFIT_NET_OOB)
		nicfit_emit_printf(e, ", %ld BMC + %ld switch management ports at %g Gb/s\n",
				   nt->links[NICFIT_LINK_HOST], nt->links[NICFIT_LINK_MGMT], nt->link_gbps);
	else
		nicfit_emit_printf(e, ", %ld x %g Gb/s node ports (%d per node)\n", nt->endpoints,
				   nt->link_gbps, nt->links_per_node);
	nicfit_emit_printf(e, "  switch  %s: %d x %g Gb/s %s", nt->sw.name, nt->sw.ports,
			   nt->sw.gbps, nt->sw.cage);
	if (nt->sw.per_cage > 1)
		nicfit_emit_printf(e, " (%d per cage)", nt->sw.per_cage);
	nicfit_emit_printf(e, "%s\n", nt->sw.cat ? "" : " (unpriced)");
	if (nt->scheduled && nt->tiers > 1)
		nicfit_emit_printf(e, "  fabric  %s: %d x %g Gb/s %s, the spine tier (scheduled: cells, "
				   "not packets)\n", nt->fabric.name, nt->fabric.ports, nt->fabric.gbps,
				   nt->fabric.cage);
	if (nt->breakout > 1)
		nicfit_emit_printf(e, "  split   each leaf port serves %d x %g Gb/s node ports\n",
				   nt->breakout, nt->link_gbps);
	for (t = 0; t < nt->tiers; t++) {
		const struct nicfit_cluster_tier *tr = &nt->tier[t];

		nicfit_emit_printf(e, "  %-6s  %ld x (%d down%s", nicfit_tier_name(t), tr->switches,
				   tr->down, tr->up ? "" : ")");
		if (tr->up)
			nicfit_emit_printf(e, " + %d up)", tr->up);
		if (t == 0 && nt->tiers > 1 && n != NICFIT_NET_OOB)
			nicfit_emit_printf(e, ", %d node ports each, %.2f:1", nt->endpoints_per_leaf,
					   nt->leaf_ratio);
		if (t == 1 && nt->spines_per_pod > 0)
			nicfit_emit_printf(e, ", %ld pods of %ld leaves + %d spines per plane", nt->pods,
					   nt->leaves_per_pod, nt->spines_per_pod);
		nicfit_emit_printf(e, "\n");
	}
	nicfit_emit_printf(e, "  links   %ld host-leaf", nt->links[NICFIT_LINK_HOST]);
	if (nt->links[NICFIT_LINK_MGMT])
		nicfit_emit_printf(e, ", %ld management", nt->links[NICFIT_LINK_MGMT]);
	if (nt->tiers >= 2)
		nicfit_emit_printf(e, ", %ld leaf-spine", nt->links[NICFIT_LINK_LEAF_SPINE]);
	if (nt->tiers >= 3)
		nicfit_emit_printf(e, ", %ld spine-core", nt->links[NICFIT_LINK_SPINE_CORE]);
	nicfit_emit_printf(e, "; %ld cables; %ld of %ld switch ports free\n", nt->cables,
			   nt->ports_free, nt->ports_total);
}

/* The text tables: switches, cables and the bill of materials. */
static const struct nicfit_column switch_cols[] = {
	{ "network", "network", 0 }, { "tier", "tier", 0 }, { "switch", "switch", 0 },
	{ "switches", "switches", 1 }, { "ports", "ports", 1 }, { "down", "down", 1 },
	{ "up", "up", 1 }, { "used", "used", 1 }, { "free", "free", 1 },
};
static const struct nicfit_column cable_cols[] = {
	{ "network", "network", 0 }, { "link", "link", 0 }, { "part", "part", 0 },
	{ "type", "type", 0 }, { "length_m", "length", 1 }, { "qty", "qty", 1 },
	{ "links", "links", 1 },
};
static const struct nicfit_column bom_cols[] = {
	{ "part", "part", 0 }, { "description", "description", 0 }, { "qty", "qty", 1 },
	{ "unit_usd", "unit USD", 1 }, { "total_usd", "total USD", 1 },
};

/*
 * Every column of the text tables, in every format, whatever the cluster
 * has: what -o may name. The storage network's and the border's cable
 * tables have columns of the cables table (cluster_storage.c,
 * cluster_border.c).
 */
static void declare_columns(struct nicfit_emit *e)
{
	nicfit_emit_columns(e, switch_cols, (int)(sizeof(switch_cols) / sizeof(switch_cols[0])));
	nicfit_emit_columns(e, cable_cols, (int)(sizeof(cable_cols) / sizeof(cable_cols[0])));
	nicfit_emit_columns(e, bom_cols, (int)(sizeof(bom_cols) / sizeof(bom_cols[0])));
}

static void switch_table(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	int n, t;

	nicfit_emit_table_begin(e, "switches", switch_cols, 9);
	for (n = 0; n < NICFIT_NET_COUNT; n++)
		for (t = 0; t < NICFIT_TIER_COUNT; t++) {
			const struct nicfit_cluster_net *nt = &c->net[n];

			if (!nt->enabled || !nt->tier[t].switches)
				continue;
			nicfit_emit_cell_string(e, nicfit_net_name(n));
			nicfit_emit_cell_string(e, nicfit_tier_name(t));
			nicfit_emit_cell_string(e, nicfit__cluster_tier_switch(nt, t)->id);
			nicfit_emit_cell_int(e, nt->tier[t].switches);
			nicfit_emit_cell_int(e, nicfit__cluster_tier_ports(nt, t));
			nicfit_emit_cell_int(e, nt->tier[t].down);
			nicfit_emit_cell_int(e, nt->tier[t].up);
			nicfit_emit_cell_int(e, nt->tier[t].ports_used);
			nicfit_emit_cell_int(e, nt->tier[t].ports_free);
		}
	nicfit__cluster_border_switch_rows(e, c);
	nicfit__cluster_storage_switch_rows(e, c);
	nicfit_emit_table_end(e);
}

static void cables_json(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	size_t i;

	nicfit_emit_begin_array(e, "cables");
	for (i = 0; i < c->ncables; i++) {
		const struct nicfit_cluster_cable *x = &c->cables[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "network", nicfit_net_name(x->net));
		nicfit_emit_string(e, "link", nicfit_link_level_name(x->level));
		nicfit_emit_string(e, "part", x->part);
		nicfit_emit_string(e, "type", x->type);
		nicfit_emit_string(e, "description", x->description);
		if (x->length_m > 0)
			nicfit_emit_number(e, "length_m", x->length_m);
		else
			nicfit_emit_null(e, "length_m");
		nicfit_emit_number(e, "gbps", x->gbps);
		nicfit_emit_int(e, "qty", x->qty);
		nicfit_emit_int(e, "links", x->links);
		nicfit_emit_bool(e, "catalog", x->cat != NULL);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static void cables_table(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	size_t i;

	nicfit_emit_table_begin(e, NULL, cable_cols, 7);
	for (i = 0; i < c->ncables; i++) {
		const struct nicfit_cluster_cable *x = &c->cables[i];

		nicfit_emit_cell_string(e, nicfit_net_name(x->net));
		nicfit_emit_cell_string(e, nicfit_link_level_name(x->level));
		nicfit_emit_cell_string(e, x->part);
		nicfit_emit_cell_string(e, x->type);
		if (x->length_m > 0) {
			char b[24];

			snprintf(b, sizeof(b), "%g m", x->length_m);
			nicfit_emit_cell_string(e, b);
		} else {
			nicfit_emit_cell_null(e, "-");
		}
		nicfit_emit_cell_int(e, x->qty);
		nicfit_emit_cell_int(e, x->links);
	}
	nicfit_emit_table_end(e);
}

/* Items per type over all networks: "dac 128, optic 2048, fiber 1024". */
static void by_type(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	static const char *const types[] = { "dac", "breakout-dac", "aoc", "breakout-aoc",
		"optic", "fiber", "rj45", "generic" };
	size_t t, i;
	int first = 1;

	nicfit_emit_begin_object(e, "cables_by_type");
	nicfit_emit_printf(e, "  By type:");
	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		long qty = 0;

		for (i = 0; i < c->ncables; i++)
			if (!strcmp(c->cables[i].type, types[t]))
				qty += c->cables[i].qty;
		if (!qty)
			continue;
		nicfit_emit_int(e, types[t], qty);
		nicfit_emit_printf(e, "%s %ld %s", first ? "" : ",", qty, types[t]);
		first = 0;
	}
	nicfit_emit_printf(e, "%s.\n", first ? " none" : "");
	nicfit_emit_end_object(e);
}

/*
 * The longest run of each network that has cables, as the JSON's
 * max_cable_m_by_network gives it: the storage network's and the border's
 * runs (to the storage row, up to the spine row) are often longer than
 * any in the cables table above, so one figure for all would not say
 * which table it belongs to.
 */
static void longest_runs(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	int n, first = 1;

	nicfit_emit_begin_object(e, "max_cable_m_by_network");
	nicfit_emit_printf(e, "  Longest run per network:");
	for (n = 0; n <= NICFIT_NET_COUNT + 1; n++) {
		const char *name = n < NICFIT_NET_COUNT ? nicfit_net_name(n) :
				   n == NICFIT_NET_COUNT ? "storage" : "border";
		int on = n < NICFIT_NET_COUNT ? c->net[n].enabled :
			 n == NICFIT_NET_COUNT ? c->storage.enabled : c->border.map_rows > 0;
		long m = n < NICFIT_NET_COUNT ? c->net[n].max_length_m :
			 n == NICFIT_NET_COUNT ? c->storage.max_length_m : c->border.max_length_m;

		if (!on)
			continue;
		nicfit_emit_int(e, name, m);
		nicfit_emit_printf(e, "%s %s %ld m", first ? "" : ",", name, m);
		first = 0;
	}
	nicfit_emit_printf(e, "%s.", first ? " none" : "");
	nicfit_emit_end_object(e);
}

/*
 * The bill of materials in the columns every BOM has (docs/formats.md):
 * part, description, qty, unit_usd, total_usd, titled as plan's are.
 */
static void bom_emit(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	size_t i, nun = 0;

	nicfit_emit_begin_object(e, "bom");
	nicfit_emit_table_begin(e, "lines", bom_cols, 5);
	for (i = 0; i < c->nbom; i++) {
		const struct nicfit_cluster_bom_line *b = &c->bom[i];

		nicfit_emit_cell_string(e, b->part);
		nicfit_emit_cell_string(e, b->description);
		nicfit_emit_cell_int(e, b->qty);
		if (b->priced) {
			nicfit_emit_cell_number(e, b->unit_usd, 2);
			nicfit_emit_cell_number(e, b->total_usd, 2);
		} else {
			nicfit_emit_cell_null(e, "-");
			nicfit_emit_cell_null(e, "-");
		}
		nun += !b->priced;
	}
	nicfit_emit_table_end(e);
	nicfit_emit_number(e, "total_usd", c->total_usd);
	if (c->prices_as_of[0])
		nicfit_emit_string(e, "prices_as_of", c->prices_as_of);
	else
		nicfit_emit_null(e, "prices_as_of");
	nicfit_emit_begin_array(e, "unpriced");
	for (i = 0; i < c->nbom; i++)
		if (!c->bom[i].priced)
			nicfit_emit_string(e, NULL, c->bom[i].part);
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
	if (c->total_usd > 0)
		nicfit_emit_printf(e, "  Priced lines: $%.2f (prices as of %s).", c->total_usd,
				   c->prices_as_of);
	else
		nicfit_emit_printf(e, "  No line has a catalog price.");
	if (nun)
		nicfit_emit_printf(e, " %zu line%s without a catalog price %s not in the total.\n",
				   nun, nun == 1 ? "" : "s", nun == 1 ? "is" : "are");
	else
		nicfit_emit_printf(e, "\n");
}

static void decisions_emit(struct nicfit_emit *e, const struct nicfit_findings *fs)
{
	size_t i;

	nicfit_emit_begin_array(e, "decisions");
	for (i = 0; i < fs->n; i++) {
		const struct nicfit_finding *d = &fs->v[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "rule", d->code);
		nicfit_emit_string(e, "text", d->message);
		nicfit_emit_printf(e, "  %-22s %s\n", d->code, d->message);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static void findings_emit(struct nicfit_emit *e, const struct nicfit_findings *fs)
{
	size_t i;

	nicfit_emit_begin_array(e, "findings");
	for (i = 0; i < fs->n; i++) {
		const struct nicfit_finding *f = &fs->v[i];
		const char *sev = nicfit_severity_name(f->severity);

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "severity", sev);
		nicfit_emit_string(e, "code", f->code);
		nicfit_emit_string(e, "message", f->message);
		nicfit_emit_printf(e, "  %s%-8s%s %s\n",
				   nicfit_emit_color(e, f->severity == NICFIT_SEV_CRITICAL ?
						     NICFIT_COLOR_RED :
						     f->severity == NICFIT_SEV_WARNING ?
						     NICFIT_COLOR_YELLOW : NICFIT_COLOR_DIM),
				   sev, nicfit_emit_color(e, NICFIT_COLOR_RESET), f->message);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static void input_json(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	const struct nicfit_cluster_input *in = &c->in;
	int n;

	nicfit_emit_begin_object(e, "input");
	nicfit_emit_int(e, "nodes", in->nodes);
	nicfit_emit_int(e, "gpus_per_node", in->gpus_per_node);
	nicfit_emit_int(e, "nodes_per_rack", in->nodes_per_rack);
	nicfit_emit_int(e, "nics_per_node", in->net[0].links_per_node ? in->nics_per_node : 0);
	nicfit_emit_int(e, "nic_ports", in->nic_ports);
	nicfit_emit_string(e, "nic", c->nic ? c->nic->e.id : NULL);
	nicfit_emit_string(e, "server", c->server ? c->server->e.id : NULL);
	nicfit_emit_int(e, "racks", in->racks);
	nicfit_emit_bool(e, "mgmt_ports", in->mgmt_ports);
	for (n = 0; n < NICFIT_NET_COUNT; n++) {
		const struct nicfit_cluster_net_input *ni = &in->net[n];

		nicfit_emit_begin_object(e, nicfit_net_name(n));
		nicfit_emit_int(e, "links_per_node", ni->links_per_node);
		nicfit_emit_number(e, "link_gbps", c->net[n].enabled ? c->net[n].link_gbps : ni->link_gbps);
		nicfit_emit_string(e, "ib_rate", ni->link_ib[0] ? ni->link_ib : NULL);
		nicfit_emit_string(e, "switch", c->net[n].enabled ? c->net[n].sw.id : ni->switch_id);
		nicfit_emit_number(e, "oversubscription", ni->oversubscription);
		if (ni->uplinks)
			nicfit_emit_int(e, "uplinks", ni->uplinks);
		else
			nicfit_emit_null(e, "uplinks");
		nicfit_emit_bool(e, "rail_optimized", ni->rail_optimized);
		nicfit_emit_bool(e, "rail_only", ni->rail_only);
		nicfit_emit_int(e, "planes", ni->planes);
		nicfit_emit_int(e, "min_tiers", ni->min_tiers);
		nicfit_emit_bool(e, "breakout", ni->breakout);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_object(e);
}

struct inline_ctx {
	const struct nicfit_cluster *c;
	struct nicfit_emit *e;
};

static int inline_row(void *ctx, const struct nicfit_cluster_link *l)
{
	struct inline_ctx *x = ctx;
	char a[64], b[64];

	nicfit_cluster_endpoint_name(x->c, l->a, a, sizeof(a));
	nicfit_cluster_endpoint_name(x->c, l->b, b, sizeof(b));
	nicfit_emit_begin_object(x->e, NULL);
	nicfit_emit_stringf(x->e, "link_type", "%s-%s", nicfit_net_name(l->net),
			    l->level == NICFIT_LINK_HOST ? (l->net == NICFIT_NET_OOB ? "bmc" : "host") :
			    nicfit_link_level_name(l->level));
	nicfit_emit_string(x->e, "endpoint_a", a);
	nicfit_emit_int(x->e, "port_a", l->port_a);
	nicfit_emit_string(x->e, "endpoint_b", b);
	nicfit_emit_int(x->e, "port_b", l->port_b);
	if (l->lane_b >= 0)
		nicfit_emit_int(x->e, "lane_b", l->lane_b);
	else
		nicfit_emit_null(x->e, "lane_b");
	nicfit_emit_string(x->e, "cable", l->cable);
	nicfit_emit_number(x->e, "length_m", l->length_m);
	nicfit_emit_end_object(x->e);
	return 0;
}

/* A storage or border link inline, in the shape of the walked ones. */
static int inline_storage_row(void *ctx, const struct cl_slink *l)
{
	struct inline_ctx *x = ctx;

	nicfit_emit_begin_object(x->e, NULL);
	nicfit_emit_string(x->e, "link_type", l->type);
	nicfit_emit_string(x->e, "endpoint_a", l->a);
	nicfit_emit_int(x->e, "port_a", l->port_a);
	nicfit_emit_string(x->e, "endpoint_b", l->b);
	nicfit_emit_int(x->e, "port_b", l->port_b);
	if (l->lane_b >= 0)
		nicfit_emit_int(x->e, "lane_b", l->lane_b);
	else
		nicfit_emit_null(x->e, "lane_b");
	nicfit_emit_string(x->e, "cable", l->cable);
	nicfit_emit_number(x->e, "length_m", l->length_m);
	nicfit_emit_end_object(x->e);
	return 0;
}

/* Rows of the port map: every walked link, every storage and border link. */
static long total_links(const struct nicfit_cluster *c)
{
	long t = (c->storage.enabled ? c->storage.host_links + c->storage.leaf_spine_links : 0) +
		 c->border.map_rows;
	int n, l;

	for (n = 0; n < NICFIT_NET_COUNT; n++)
		for (l = 0; l < NICFIT_LINK_LEVELS; l++)
			t += c->net[n].links[l];
	return t;
}

/* The cluster in one paragraph: its input, its counts, and the line that sums it up. */
static void overview(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	const struct nicfit_cluster_net *be = &c->net[NICFIT_NET_BACKEND];

	input_json(e, c);
	nicfit_emit_int(e, "gpus", c->gpus);
	nicfit_emit_int(e, "racks", c->racks);
	nicfit_emit_int(e, "network_racks", c->network_racks);
	nicfit_emit_int(e, "storage_racks", c->impl->storage_racks);
	nicfit_emit_int(e, "rows", c->rows);
	nicfit_emit_int(e, "tiers", be->enabled ? be->tiers : 0);
	nicfit_emit_int(e, "leaf_switches", be->tier[NICFIT_TIER_LEAF].switches);
	nicfit_emit_int(e, "spine_switches", be->tier[NICFIT_TIER_SPINE].switches);
	nicfit_emit_int(e, "core_switches", be->tier[NICFIT_TIER_CORE].switches);
	nicfit_emit_int(e, "host_links", be->links[NICFIT_LINK_HOST]);
	nicfit_emit_int(e, "switch_links", be->links[NICFIT_LINK_LEAF_SPINE] +
					    be->links[NICFIT_LINK_SPINE_CORE]);
	nicfit_emit_int(e, "max_cable_m", c->max_length_m);
	nicfit_emit_heading(e, "nicfit cluster");
	nicfit_emit_printf(e, "%ld node%s", c->in.nodes, c->in.nodes == 1 ? "" : "s");
	if (c->in.gpus_per_node)
		nicfit_emit_printf(e, " x %d GPUs = %ld GPUs", c->in.gpus_per_node, c->gpus);
	/* the rows counted as the JSON's "rows" counts them: the spine row too */
	nicfit_emit_printf(e, " in %ld rack%s of %d (%ld row%s", c->racks, c->racks == 1 ? "" : "s",
			   c->in.nodes_per_rack, c->rows, c->rows == 1 ? "" : "s");
	if (c->rows > c->impl->crow)
		nicfit_emit_printf(e, ": %ld of compute racks%s%s", c->impl->crow,
				   c->impl->has_spine_row ? (c->impl->has_storage_row ? ", the spine row" :
							     " and the spine row") : "",
				   c->impl->has_storage_row ? " and the storage row" : "");
	nicfit_emit_printf(e, "), %ld network rack%s", c->network_racks,
			   c->network_racks == 1 ? "" : "s");
	if (c->impl->storage_racks)
		nicfit_emit_printf(e, ", %ld storage rack%s", c->impl->storage_racks,
				   c->impl->storage_racks == 1 ? "" : "s");
	nicfit_emit_printf(e, "\n");
	nicfit__cluster_rack_emit(e, c);
}


/*
 * Whether a switch-to-switch link of the main list runs on a twin-port
 * cable that joins two cages, two links a cable (cluster_cable.c,
 * twin_cable()): then copper also spans racks, and the cabling line says so.
 */
static int twin_copper(const struct nicfit_cluster *c)
{
	size_t i;

	for (i = 0; i < c->ncables; i++) {
		const struct nicfit_cluster_cable *x = &c->cables[i];

		if ((x->level == NICFIT_LINK_LEAF_SPINE || x->level == NICFIT_LINK_SPINE_CORE) &&
		    !strcmp(x->type, "dac") && x->qty < x->links)
			return 1;
	}
	return 0;
}
/*
 * The port map's entry: the file it went to, the links themselves when
 * they are inline (JSON only; the text has a row count), or null.
 */
static void port_map(struct nicfit_emit *e, const struct nicfit_cluster *c,
		     const struct nicfit_cluster_render_opts *opts, enum nicfit_format fmt)
{
	if (opts && opts->port_map_file) {
		nicfit_emit_begin_object(e, "port_map");
		nicfit_emit_string(e, "file", opts->port_map_file);
		nicfit_emit_int(e, "rows", opts->port_map_rows);
		nicfit_emit_end_object(e);
		nicfit_emit_printf(e, "\nPort map: %s (%ld links)\n", opts->port_map_file,
				   opts->port_map_rows);
	} else if (opts && opts->port_map_inline && fmt == NICFIT_FMT_JSON) {
		struct inline_ctx x = { c, e };

		nicfit_emit_begin_object(e, "port_map");
		nicfit_emit_null(e, "file");
		nicfit_emit_int(e, "rows", total_links(c));
		nicfit_emit_begin_array(e, "links");
		nicfit_cluster_walk(c, inline_row, &x);
		nicfit__cluster_storage_walk(c, inline_storage_row, &x);
		nicfit__cluster_border_walk(c, inline_storage_row, &x);
		nicfit_emit_end_array(e);
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "port_map");
	}
}

int nicfit_cluster_render(const struct nicfit_cluster *c,
			  const struct nicfit_cluster_render_opts *opts,
			  struct nicfit_emit *e, struct nicfit_error *err)
{
	enum nicfit_format fmt = nicfit_emit_format(e);
	int n;

	declare_columns(e);
	if (opts && opts->port_map_inline && total_links(c) > NICFIT_CLUSTER_INLINE_ROWS)
		return nicfit_error_set(err, NICFIT_E_LIMIT,
					"the port map has %ld rows; inline port maps stop at %ld "
					"(write it to a file with --port-map)", total_links(c),
					NICFIT_CLUSTER_INLINE_ROWS);
	if (fmt == NICFIT_FMT_SVG) {
		nicfit_cluster_svg(c, e);
		return 0;
	}
	if (fmt == NICFIT_FMT_CSV) {
		bom_emit(e, c);
		return 0;
	}
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.cluster.v1");
	overview(e, c);
	for (n = 0; n < NICFIT_NET_COUNT; n++) {
		emit_net_json(e, c, n);
		emit_net_text(e, c, n);
	}
	nicfit__cluster_border_render(e, c);
	nicfit__cluster_storage_render(e, c);
	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Switches");
	switch_table(e, c);
	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Cables");
	if (fmt == NICFIT_FMT_JSON)
		cables_json(e, c);
	else
		cables_table(e, c);
	by_type(e, c);
	longest_runs(e, c);
	if (twin_copper(c))
		nicfit_emit_printf(e, " DAC inside a rack, twin-port copper between switch cages "
				   "within its reach (one cable, two links), AOC or optics between "
				   "racks.\n\n");
	else
		nicfit_emit_printf(e, " DAC inside a rack, AOC or optics between racks.\n\n");
	nicfit_emit_heading(e, "Bill of materials");
	bom_emit(e, c);
	port_map(e, c, opts, fmt);
	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Decisions");
	decisions_emit(e, &c->decisions);
	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Findings");
	findings_emit(e, &c->findings);
	if (!c->findings.n)
		nicfit_emit_printf(e, "  none\n");
	nicfit_emit_printf(e, "\nAssumptions (change with --assume NAME=VALUE):\n");
	nicfit_param_emit(e, "assumptions", nicfit_cluster_layout_table, nicfit_cluster_layout_count,
			  &c->in.layout);
	nicfit_emit_end_object(e);
	return 0;
}

int nicfit_cluster_run(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
		       struct nicfit_emit *e, struct nicfit_error *err)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_cluster_render_opts opts;
	int rc;

	memset(&opts, 0, sizeof(opts));
	rc = nicfit_cluster_input_from_spec(spec, &in, &opts.port_map_inline, err);
	if (rc)
		return rc;
	rc = nicfit_cluster_input_server(spec, cat, &in, err);
	if (rc)
		return rc;
	nicfit_cluster_input_node_defaults(spec, cat, &in);
	rc = nicfit_cluster_size(&in, cat, &c, err);
	if (rc) {
		/* "--switch": in a JSON request, the "switch" key at its line and column */
		nicfit_spec_locate_option(spec, err);
		if (rc == NICFIT_E_USAGE && spec->from_data && err && err->code == rc)
			err->code = NICFIT_E_DATA;
		return rc;
	}
	rc = nicfit_cluster_render(&c, &opts, e, err);
	nicfit_cluster_release(&c);
	return rc;
}
