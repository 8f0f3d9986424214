/*
 * cluster_svg.c - the fabric diagram of a sized cluster as one hand-written
 * SVG document: a panel per network, tiers from the cores at the top to
 * the nodes at the bottom, a line wherever two boxes are linked.
 *
 * Large fabrics are collapsed into groups with counts: in two tiers a box
 * per node group (the leaves that serve the same nodes, all rails of them),
 * in three tiers a box per pod and per core group; a row of more than
 * MAXB boxes shows the first ones, a box counting the rest, and the last.
 * Only plane 0 is drawn; the others are identical and said so. The front
 * end's border switches are a row above its top tier; the storage network
 * is a panel of its own, its leaves above the compute nodes and storage
 * servers they serve.
 */
#include <stdio.h>
#include <string.h>

#include "cluster/cluster_int.h"
#include "core/svg_int.h"

#define W 1100          /* canvas width */
#define MARGIN 20
#define MAXB 10         /* boxes in one row before collapsing */
#define BOX_H 38
#define ROW_GAP 70
#define BOX_W_MAX 150   /* widest box, when a row has few */

struct box {
	long first, count;      /* items of the row this box stands for */
	int elided;             /* the box that counts the hidden ones */
	double x, w;
};

struct row {
	struct box b[MAXB];
	int n;
	double y;
};

/* Lay out `items` items in boxes: all of them, or the first MAXB-2, a box
 * for the hidden ones and the last. */
static void layout_row(struct row *r, long items, double y)
{
	double usable = W - 2 * MARGIN, w;
	int i;

	r->n = 0;
	r->y = y;
	if (items <= 0)
		return;
	if (items <= MAXB) {
		for (i = 0; i < items; i++)
			r->b[r->n++] = (struct box){ i, 1, 0, 0, 0 };
	} else {
		for (i = 0; i < MAXB - 2; i++)
			r->b[r->n++] = (struct box){ i, 1, 0, 0, 0 };
		r->b[r->n++] = (struct box){ MAXB - 2, items - (MAXB - 1), 1, 0, 0 };
		r->b[r->n++] = (struct box){ items - 1, 1, 0, 0, 0 };
	}
	w = usable / r->n - 10;
	if (w > BOX_W_MAX)
		w = BOX_W_MAX;
	for (i = 0; i < r->n; i++) {
		double slot = usable / r->n;

		r->b[i].w = w;
		r->b[i].x = MARGIN + slot * i + (slot - w) / 2;
	}
}

static void draw_box(struct nicfit_buf *o, const struct box *b, double y, const char *fill,
		     const char *l1, const char *l2)
{
	nicfit_buf_addf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" rx=\"4\" "
			   "fill=\"%s\" stroke=\"#333\"%s/>\n", b->x, y, b->w, BOX_H,
			b->elided ? "#fff" : fill, b->elided ? " stroke-dasharray=\"4 3\"" : "");
	nicfit__svg_text(o, l1, "x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\"", b->x + b->w / 2,
			 y + 16);
	nicfit_buf_addch(o, '\n');
	if (l2 && *l2) {
		nicfit__svg_text(o, l2, "x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"s\"",
				 b->x + b->w / 2, y + 31);
		nicfit_buf_addch(o, '\n');
	}
}

static void line(struct nicfit_buf *o, const struct box *a, double ya, const struct box *b,
		 double yb, int dashed)
{
	nicfit_buf_addf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"%s/>\n",
			a->x + a->w / 2, ya, b->x + b->w / 2, yb,
			dashed ? " stroke-dasharray=\"4 3\"" : "");
}

/* Name of the first switch of a tier index range, e.g. "be-leaf01". */
static void sw_name(const struct nicfit_cluster *c, enum nicfit_net n, enum nicfit_tier t,
		    long idx, char *out, size_t len)
{
	nicfit_cluster_endpoint_name(c, nicfit__cluster_switch_id(c, n, 0, t, idx), out, len);
}

/* How many switches of tier t one box item stands for, and the first one. */
static void item_span(const struct nicfit_cluster *c, enum nicfit_net n, enum nicfit_tier t,
		      long item, long *first, long *count)
{
	const struct cl_net *cn = &c->impl->net[n];
	long total = cn->tier_sw[t], per;

	if (cn->tiers == 3) {
		/* rail pods: a box of leaves is a whole unit's, every rail */
		per = t == NICFIT_TIER_LEAF ? (cn->rail_pods ? cn->gpp * cn->lpg : cn->lpp) :
		      t == NICFIT_TIER_SPINE ? cn->spines : cn->cg;
	} else if (t == NICFIT_TIER_LEAF) {
		per = total > MAXB ? (cn->map == MAP_LIST ? 1 : cn->lpg) : 1;
	} else {
		per = total > MAXB ? total : 1;
	}
	if (per < 1)
		per = 1;
	*first = item * per;
	*count = *first + per > total ? total - *first : per;
}

static long items_of(const struct nicfit_cluster *c, enum nicfit_net n, enum nicfit_tier t)
{
	const struct cl_net *cn = &c->impl->net[n];
	long total = cn->tier_sw[t], per, f;

	if (total <= 0)
		return 0;
	item_span(c, n, t, 0, &f, &per);
	return (total + per - 1) / per;
}

static void label_for(const struct nicfit_cluster *c, enum nicfit_net n, enum nicfit_tier t,
		      const struct box *b, char *l1, char *l2, size_t len)
{
	const struct cl_net *cn = &c->impl->net[n];
	long first, count, lastfirst, lastcount;
	char a[64], z[64];

	item_span(c, n, t, b->first, &first, &count);
	if (b->elided) {
		item_span(c, n, t, b->first + b->count - 1, &lastfirst, &lastcount);
		snprintf(l1, len, "... %ld more", lastfirst + lastcount - first);
		snprintf(l2, len, "%s", cn->tiers == 3 ? "in the same pattern" : "");
		return;
	}
	sw_name(c, n, t, first, a, sizeof(a));
	if (count == 1) {
		snprintf(l1, len, "%s", a);
		snprintf(l2, len, "%d ports", nicfit__cluster_tier_ports(&c->net[n], t));
		return;
	}
	sw_name(c, n, t, first + count - 1, z, sizeof(z));
	snprintf(l1, len, "%ld x %s", count, nicfit_tier_name(t));
	if (cn->tiers == 3 && t == NICFIT_TIER_LEAF && cn->rail_pods)
		snprintf(l2, len, "unit %ld", first / (cn->gpp * cn->lpg) + 1);
	else if (cn->tiers == 3 && t != NICFIT_TIER_CORE)
		snprintf(l2, len, "pod %ld", first / (t == NICFIT_TIER_LEAF ? cn->lpp : cn->spines) + 1);
	else if (cn->tiers == 3)
		snprintf(l2, len, "core group %ld", first / cn->cg + 1);
	else
		snprintf(l2, len, "%s..%s", a + (strlen(a) > 12 ? strlen(a) - 12 : 0),
			 z + (strlen(z) > 6 ? strlen(z) - 6 : 0));
}

/* Nodes that leaf box b serves (range of node numbers, 1-based). */
static void nodes_of_box(const struct nicfit_cluster *c, enum nicfit_net n, const struct box *b,
			 char *l1, char *l2, size_t len)
{
	const struct cl_net *cn = &c->impl->net[n];
	long lf, lc, g0, g1, N = c->in.nodes;

	item_span(c, n, NICFIT_TIER_LEAF, b->first, &lf, &lc);
	if (b->elided) {
		long f2, c2;

		item_span(c, n, NICFIT_TIER_LEAF, b->first + b->count - 1, &f2, &c2);
		lc = f2 + c2 - lf;
	}
	if (cn->map == MAP_LIST) {
		long e = 0, i;

		for (i = lf; i < lf + lc; i++)
			e += cn->ranges[i].count;
		snprintf(l1, len, "%ld ports", e);
		snprintf(l2, len, "BMC + mgmt");
		return;
	}
	g0 = lf / cn->lpg * cn->gsize;
	g1 = (lf + lc - 1) / cn->lpg * cn->gsize + cn->gsize;
	if (g1 > N)
		g1 = N;
	snprintf(l1, len, "%ld node%s", g1 - g0, g1 - g0 == 1 ? "" : "s");
	snprintf(l2, len, "%ld-%ld", g0 + 1, g1);
}

/* The label of box b of a row of `total` switches named prefix01, prefix02, ... */
static void named_box(const struct box *b, const char *prefix, long total, char *l1, char *l2,
		      size_t len)
{
	int d = total >= 100 ? (int)snprintf(NULL, 0, "%ld", total) : 2;

	if (b->elided) {
		snprintf(l1, len, "... %ld more", b->count);
		l2[0] = '\0';
		return;
	}
	snprintf(l1, len, "%s%0*ld", prefix, d, b->first + 1);
	l2[0] = '\0';
}

/* The storage network: spines, leaves, and the compute nodes and storage servers. */
static double storage_panel(struct nicfit_buf *o, const struct nicfit_cluster *c, double y0)
{
	const struct nicfit_cluster_storage *st = &c->storage;
	long host = c->in.nodes * st->node_links;
	struct row sp, lf, ends;
	char l1[96], l2[96];
	double y = y0 + 34;
	int i, j;

	nicfit_buf_addf(o, "<text x=\"%d\" y=\"%.1f\" class=\"h\">", MARGIN, y0 + 18);
	snprintf(l1, sizeof(l1), "Storage: %d tier%s, %ld switch%s; %ld x %g Gb/s storage ports",
		 st->tiers, st->tiers == 1 ? "" : "s", st->leaves + st->spines,
		 st->leaves + st->spines == 1 ? "" : "es", st->endpoints, st->link_gbps);
	nicfit__xml_escape(o, l1);
	nicfit_buf_puts(o, "</text>\n");
	sp.n = 0;
	if (st->spines) {
		layout_row(&sp, st->spines, y);
		y += BOX_H + ROW_GAP;
	}
	layout_row(&lf, st->leaves, y);
	y += BOX_H + ROW_GAP;
	layout_row(&ends, 2, y);
	nicfit_buf_puts(o, "<g class=\"l\">\n");
	for (i = 0; i < sp.n; i++)
		for (j = 0; j < lf.n; j++)
			line(o, &lf.b[j], lf.y, &sp.b[i], sp.y + BOX_H, sp.b[i].elided || lf.b[j].elided);
	for (j = 0; j < lf.n; j++) {
		long e0 = lf.b[j].first * st->endpoints_per_leaf;
		long e1 = (lf.b[j].first + lf.b[j].count) * st->endpoints_per_leaf;

		if (e0 < host)
			line(o, &ends.b[0], ends.y, &lf.b[j], lf.y + BOX_H, lf.b[j].elided);
		if (e1 > host)
			line(o, &ends.b[1], ends.y, &lf.b[j], lf.y + BOX_H, lf.b[j].elided);
	}
	nicfit_buf_puts(o, "</g>\n");
	for (i = 0; i < sp.n; i++) {
		named_box(&sp.b[i], "st-spine", st->spines, l1, l2, sizeof(l1));
		snprintf(l2, sizeof(l2), "%d ports", st->sw.ports);
		draw_box(o, &sp.b[i], sp.y, "#e6dcf3", l1, sp.b[i].elided ? "" : l2);
	}
	for (i = 0; i < lf.n; i++) {
		named_box(&lf.b[i], "st-leaf", st->leaves, l1, l2, sizeof(l1));
		snprintf(l2, sizeof(l2), "%d ports", st->sw.ports);
		draw_box(o, &lf.b[i], lf.y, "#e6dcf3", l1, lf.b[i].elided ? "" : l2);
	}
	snprintf(l1, sizeof(l1), "%ld compute nodes", c->in.nodes);
	snprintf(l2, sizeof(l2), "%d storage port%s each", st->node_links,
		 st->node_links == 1 ? "" : "s");
	draw_box(o, &ends.b[0], ends.y, "#eee", l1, l2);
	snprintf(l1, sizeof(l1), "%ld storage servers", c->in.storage.servers);
	snprintf(l2, sizeof(l2), "%ld storage rack%s, %d ports each", c->impl->storage_racks,
		 c->impl->storage_racks == 1 ? "" : "s", st->server_links);
	draw_box(o, &ends.b[1], ends.y, "#eee", l1, l2);
	nicfit_buf_addf(o, "<text x=\"%d\" y=\"%.1f\" class=\"s\">", MARGIN, y + BOX_H + 18);
	snprintf(l1, sizeof(l1), "%ld host links, %ld switch links", st->host_links,
		 st->leaf_spine_links);
	nicfit__xml_escape(o, l1);
	nicfit_buf_puts(o, "</text>\n");
	return y + BOX_H + 40;
}

/* A network's heading: its tiers and switches, the planes shown, its node ports. */
static void panel_title(struct nicfit_buf *o, const struct nicfit_cluster *c, enum nicfit_net n,
			double y0)
{
	static const char *const title[] = { "Back end", "Front end", "Out-of-band" };
	const struct nicfit_cluster_net *nt = &c->net[n];
	char l1[96];

	nicfit_buf_addf(o, "<text x=\"%d\" y=\"%.1f\" class=\"h\">", MARGIN, y0 + 18);
	snprintf(l1, sizeof(l1), "%s: %d tier%s, %ld switches", title[n], nt->tiers,
		 nt->tiers == 1 ? "" : "s",
		 nt->tier[0].switches + nt->tier[1].switches + nt->tier[2].switches);
	nicfit__xml_escape(o, l1);
	/* the border switches stand above the front end and are counted with it, as the
	 * switch table's "border" row of the front end is */
	if (n == NICFIT_NET_FRONTEND && c->border.switches) {
		snprintf(l1, sizeof(l1), " and %ld border switch%s", c->border.switches,
			 c->border.switches == 1 ? "" : "es");
		nicfit__xml_escape(o, l1);
	}
	if (nt->planes > 1) {
		snprintf(l1, sizeof(l1), "; plane 1 of %d shown, the others are the same", nt->planes);
		nicfit__xml_escape(o, l1);
	}
	if (n == NICFIT_NET_OOB)
		snprintf(l1, sizeof(l1), "; %ld BMC and management ports", nt->endpoints);
	else
		snprintf(l1, sizeof(l1), "; %ld x %g Gb/s node ports", nt->endpoints, nt->link_gbps);
	nicfit__xml_escape(o, l1);
	nicfit_buf_puts(o, "</text>\n");
}

/*
 * The lines between the rows (drawn first, so the boxes sit on top): the
 * top tier to the border switches, each tier to the one below (in three
 * tiers, leaves meet only their pod's spines), the leaves to their nodes.
 */
static void panel_links(struct nicfit_buf *o, const struct cl_net *cn, const struct row *rows,
			const struct row *border, int top)
{
	int t, i, j;

	nicfit_buf_puts(o, "<g class=\"l\">\n");
	for (i = 0; i < border->n; i++)
		for (j = 0; j < rows[top].n; j++)
			line(o, &rows[top].b[j], rows[top].y, &border->b[i], border->y + BOX_H,
			     border->b[i].elided || rows[top].b[j].elided);
	for (t = top; t > 0; t--)
		for (i = 0; i < rows[t].n; i++)
			for (j = 0; j < rows[t - 1].n; j++) {
				const struct box *up = &rows[t].b[i], *dn = &rows[t - 1].b[j];

				/* three tiers: leaves meet only their pod's spines */
				if (cn->tiers == 3 && t == NICFIT_TIER_SPINE && up->first != dn->first)
					continue;
				line(o, dn, rows[t - 1].y, up, rows[t].y + BOX_H, up->elided || dn->elided);
			}
	for (i = 0; i < rows[0].n; i++)
		line(o, &rows[NICFIT_TIER_COUNT].b[i], rows[NICFIT_TIER_COUNT].y, &rows[0].b[i],
		     rows[0].y + BOX_H, rows[0].b[i].elided);
	nicfit_buf_puts(o, "</g>\n");
}

/* The line under a network: what its links carry, and the front end's border links. */
static void panel_caption(struct nicfit_buf *o, const struct nicfit_cluster *c, enum nicfit_net n,
			  double y)
{
	const struct nicfit_cluster_net *nt = &c->net[n];
	char l1[96], l2[96];

	nicfit_buf_addf(o, "<text x=\"%d\" y=\"%.1f\" class=\"s\">", MARGIN, y);
	if (nt->tiers >= 2)
		snprintf(l1, sizeof(l1), "leaf: %d node ports + %d uplinks (%.2f:1); ",
			 nt->endpoints_per_leaf, nt->uplinks_per_leaf, nt->leaf_ratio);
	else
		l1[0] = '\0';
	snprintf(l2, sizeof(l2), "%ld host links, %ld switch links",
		 nt->links[NICFIT_LINK_HOST] + nt->links[NICFIT_LINK_MGMT],
		 nt->links[NICFIT_LINK_LEAF_SPINE] + nt->links[NICFIT_LINK_SPINE_CORE]);
	nicfit__xml_escape(o, l1);
	nicfit__xml_escape(o, l2);
	/* the front end's border uplinks and MLAG peer links, each where there are some */
	if (n == NICFIT_NET_FRONTEND && c->border.uplinks) {
		snprintf(l2, sizeof(l2), ", %ld border uplink%s", c->border.uplinks,
			 c->border.uplinks == 1 ? "" : "s");
		nicfit__xml_escape(o, l2);
	}
	if (n == NICFIT_NET_FRONTEND && c->border.peer_links) {
		snprintf(l2, sizeof(l2), ", %ld MLAG peer link%s", c->border.peer_links,
			 c->border.peer_links == 1 ? "" : "s");
		nicfit__xml_escape(o, l2);
	}
	nicfit_buf_puts(o, "</text>\n");
}

/* One network's panel at y0: heading, rows of switches over the nodes, caption; returns its end. */
static double panel(struct nicfit_buf *o, const struct nicfit_cluster *c, enum nicfit_net n,
		    double y0)
{
	static const char *const fill[] = { "#dbe9f6", "#e3f1dc", "#f6ecd6" };
	const struct nicfit_cluster_net *nt = &c->net[n];
	const struct cl_net *cn = &c->impl->net[n];
	struct row rows[NICFIT_TIER_COUNT + 1], border;
	char l1[96], l2[96];
	int t, i, top = cn->tiers - 1;
	double y = y0 + 34;

	border.n = 0;
	panel_title(o, c, n, y0);
	/* the front end's border switches, then rows from the top tier down, then the nodes */
	if (n == NICFIT_NET_FRONTEND && c->border.switches) {
		layout_row(&border, c->border.switches, y);
		y += BOX_H + ROW_GAP;
	}
	for (t = top; t >= 0; t--) {
		layout_row(&rows[t], items_of(c, n, t), y);
		y += BOX_H + ROW_GAP;
	}
	layout_row(&rows[NICFIT_TIER_COUNT], rows[0].n ? items_of(c, n, NICFIT_TIER_LEAF) : 0, y);
	panel_links(o, cn, rows, &border, top);
	for (i = 0; i < border.n; i++) {
		named_box(&border.b[i], "fe-border", c->border.switches, l1, l2, sizeof(l1));
		snprintf(l2, sizeof(l2), "border, %d ports", nt->sw.ports);
		draw_box(o, &border.b[i], border.y, "#f3d9e6", l1, border.b[i].elided ? "" : l2);
	}
	for (t = top; t >= 0; t--)
		for (i = 0; i < rows[t].n; i++) {
			label_for(c, n, t, &rows[t].b[i], l1, l2, sizeof(l1));
			draw_box(o, &rows[t].b[i], rows[t].y, fill[n], l1, l2);
		}
	for (i = 0; i < rows[NICFIT_TIER_COUNT].n; i++) {
		nodes_of_box(c, n, &rows[NICFIT_TIER_COUNT].b[i], l1, l2, sizeof(l1));
		draw_box(o, &rows[NICFIT_TIER_COUNT].b[i], rows[NICFIT_TIER_COUNT].y, "#eee", l1, l2);
	}
	panel_caption(o, c, n, y + BOX_H + 18);
	return y + BOX_H + 40;
}

void nicfit_cluster_svg(const struct nicfit_cluster *c, struct nicfit_emit *e)
{
	struct nicfit_buf o;
	double y = 44;
	int n, h = 60;

	for (n = 0; n < NICFIT_NET_COUNT; n++)
		if (c->net[n].enabled)
			h += 34 + (c->net[n].tiers + 1) * (BOX_H + ROW_GAP) + 40 - ROW_GAP + BOX_H;
	if (c->border.switches && c->net[NICFIT_NET_FRONTEND].enabled)
		h += BOX_H + ROW_GAP;
	if (c->storage.enabled)
		h += 34 + (c->storage.tiers + 1) * (BOX_H + ROW_GAP) + 40 - ROW_GAP + BOX_H;
	nicfit_buf_init(&o, 0);
	nicfit_buf_addf(&o,
			"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
			"<style>.h{font-size:14px;font-weight:bold}.s{font-size:10px;fill:#444}"
			".l line{stroke:#777;stroke-width:1}</style>\n"
			"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n", W, h, W, h);
	nicfit_buf_addf(&o, "<text x=\"%d\" y=\"24\" class=\"h\">", MARGIN);
	{
		char t[160];

		snprintf(t, sizeof(t), "nicfit cluster: %ld nodes, %ld GPUs, %ld racks", c->in.nodes,
			 c->gpus, c->racks);
		nicfit__xml_escape(&o, t);
	}
	nicfit_buf_puts(&o, "</text>\n");
	for (n = 0; n < NICFIT_NET_COUNT; n++)
		if (c->net[n].enabled)
			y = panel(&o, c, n, y);
	if (c->storage.enabled)
		storage_panel(&o, c, y);
	nicfit_buf_puts(&o, "</svg>\n");
	nicfit_emit_raw(e, o.data, o.len);
	nicfit_buf_release(&o);
}
