/*
 * audit_svg.c - a picture of the host (see nicfit/audit.h): one box per
 * socket, its host bridges, root ports and switches as a tree down to the
 * GPUs, accelerators and NICs. Each link is labelled with its generation
 * and width; a link that limits a device below what it can do is red, an
 * idle GPU link amber. Only what leads to a listed device is drawn.
 *
 * A small host is drawn with its sockets side by side. A host whose trees
 * would make the picture wider than SVG_MAX_W (an 8-GPU HGX board is 24
 * leaves, 4,152 px in one row) is laid out as lstopo does: the sockets
 * stacked, and each socket's host-bridge trees (one PCIe switch each on
 * such boards) wrapped into rows. Every label is measured and, when it is
 * wider than its box, cut with an ellipsis and given a <title> that holds
 * the whole text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "audit/audit_int.h"
#include "nicfit/buf.h"
#include "nicfit/emit.h"
#include "core/svg_int.h"

#define LEAF_W 200     /* a leaf box holds a ConnectX-7 name at 10 px */
#define NODE_H 40
#define LEVEL_H 92
#define TOP 96
#define MARGIN 24
#define SVG_MAX_W 1700 /* 8 leaves a row, about a laptop screen */
#define TEXT_MIN 9     /* px: a label too wide is set one size smaller, never below this */
#define ROW_GAP 24     /* between wrapped rows of trees */
#define TEXT_PAD 6     /* each side of a label in its box */

struct node {
	int pci;              /* topo index, -1 for a host bridge */
	int hb;               /* host bridge index for hb nodes */
	int parent;           /* node index */
	int first_child, next_sibling;
	int depth;
	int socket;           /* column */
	double x, y;          /* centre top */
	int leaves;
};

struct svg {
	const struct nicfit_audit *a;
	struct node *n;
	int nn;
	size_t alloc;
	int *node_of;         /* topo index -> node, -1 */
	int *hb_node;         /* host bridge -> node, -1 */
	char *limit;          /* topo index of a link's child: 1 limiting, 2 idle */
	struct nicfit_buf b;
};

static int add_node(struct svg *s, int pci, int hb, int parent)
{
	struct node *n;

	if (NICFIT_ALLOC_GROW(s->n, (size_t)s->nn + 1, s->alloc))
		return -1;
	n = &s->n[s->nn];
	memset(n, 0, sizeof(*n));
	n->pci = pci;
	n->hb = hb;
	n->parent = parent;
	n->first_child = n->next_sibling = -1;
	n->depth = parent >= 0 ? s->n[parent].depth + 1 : 0;
	if (parent >= 0) {
		/* append as last child, keeping PCI order */
		int *link = &s->n[parent].first_child;

		while (*link >= 0)
			link = &s->n[*link].next_sibling;
		*link = s->nn;
	}
	return s->nn++;
}

static int socket_of_hb(const struct nicfit_audit *a, int hb)
{
	const struct nicfit_topo *t = a->topo;
	int numa = hb >= 0 && hb < t->nhb ? t->hb[hb].numa_node : -1;
	int s;

	if (numa < 0 && t->nnuma == 1)
		numa = t->numa[0].id;
	s = numa >= 0 ? nicfit_topo_socket_of_node(t, numa) : -1;
	return s >= 0 ? s : (numa >= 0 ? numa : -1);
}

/* Add the device and every function above it. */
static int add_path(struct svg *s, int pci)
{
	const struct nicfit_topo *t = s->a->topo;
	int chain[2 * NICFIT_TOPO_MAX_DEPTH], n, k, parent = -1;

	n = nicfit_topo_chain(t, pci, chain, (int)(sizeof(chain) / sizeof(chain[0])));
	for (k = 0; k < n; k++) {
		const struct nicfit_pcidev *p = &t->pci[chain[k]];

		if (s->node_of[chain[k]] >= 0) {
			parent = s->node_of[chain[k]];
			continue;
		}
		if (p->parent < 0) {
			int hb = p->hostbridge;

			if (hb >= 0 && hb < t->nhb && s->hb_node[hb] < 0) {
				int nn = add_node(s, -1, hb, parent);

				if (nn < 0)
					return -1;
				s->hb_node[hb] = nn;
				s->n[nn].socket = socket_of_hb(s->a, hb);
			}
			parent = hb >= 0 && hb < t->nhb ? s->hb_node[hb] : parent;
		}
		{
			int nn = add_node(s, chain[k], -1, parent);

			if (nn < 0)
				return -1;
			s->node_of[chain[k]] = nn;
			s->n[nn].socket = parent >= 0 ? s->n[parent].socket : -1;
			parent = nn;
		}
	}
	return 0;
}

static int count_leaves(struct svg *s, int i)
{
	int c, sum = 0;

	for (c = s->n[i].first_child; c >= 0; c = s->n[c].next_sibling)
		sum += count_leaves(s, c);
	s->n[i].leaves = sum ? sum : 1;
	return s->n[i].leaves;
}

/* Levels below node i (0 for a leaf). */
static int sub_depth(const struct svg *s, int i)
{
	int c, d = 0;

	for (c = s->n[i].first_child; c >= 0; c = s->n[c].next_sibling) {
		int k = 1 + sub_depth(s, c);

		if (k > d)
			d = k;
	}
	return d;
}

/* Place the tree of root node i with its left edge at left, its top row at top. */
static void place(struct svg *s, int i, double left, double top)
{
	int c;
	double x = left;

	s->n[i].x = left + s->n[i].leaves * LEAF_W / 2.0;
	s->n[i].y = top + s->n[i].depth * LEVEL_H;
	for (c = s->n[i].first_child; c >= 0; c = s->n[c].next_sibling) {
		place(s, c, x, top);
		x += s->n[c].leaves * LEAF_W;
	}
}

static const char *fill_of(enum nicfit_dev_kind k)
{
	switch (k) {
	case NICFIT_DEV_GPU: return "#d9f2d9";
	case NICFIT_DEV_ACCEL: return "#eadcf5";
	case NICFIT_DEV_NIC: return "#d6e6fa";
	case NICFIT_DEV_NVSWITCH: return "#eeeeee";
	default: return "#ffffff";
	}
}

/*
 * The advance of each printable ASCII character in thousandths of an em,
 * from DejaVu Sans (the sans-serif that Debian's browsers and rsvg fall
 * back to, and wider than Liberation Sans, Arial or Helvetica, so a label
 * that fits here fits there too). A code point outside ASCII counts as
 * 0.9 em, except the few the pictures write themselves.
 */
static const unsigned short ascii_em[95] = {
	318, 400, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
	1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
	603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
};

static double char_em(const unsigned char *p)
{
	if (*p >= 32 && *p < 127)
		return ascii_em[*p - 32] / 1000.0;
	if (p[0] == 0xC2 && p[1] == 0xB7) /* · */
		return 0.318;
	if (p[0] == 0xE2 && p[1] == 0x89 && p[2] == 0x88) /* ≈ */
		return 0.838;
	return 0.9; /* …, —, and anything else */
}

/* Width in px of the first n bytes of s at size px; bold is about 10% wider. */
static double text_w(const char *s, size_t n, int size, int bold)
{
	double em = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			em += char_em((const unsigned char *)s + i);
	return em * size * (bold ? 1.1 : 1.0);
}

/*
 * A centred label at most maxw px wide. Outside text is measured as it
 * is shown (escaped); one that does not fit is set a size smaller (down
 * to TEXT_MIN), and one that still does not is cut on a code point with
 * an ellipsis, its whole text in a <title> (a viewer's tooltip).
 */
static void text(struct nicfit_buf *b, double x, double y, int size, const char *weight,
		 const char *s, double maxw)
{
	struct nicfit_buf shown;
	size_t n;
	int bold = weight != NULL;

	nicfit_buf_init(&shown, 0);
	nicfit__text_escape_n(&shown, s, strlen(s), 0);
	n = shown.len;
	if (shown.data && size > TEXT_MIN && text_w(shown.data, n, size, bold) > maxw)
		size--;
	nicfit_buf_addf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"middle\"%s%s%s>",
			x, y, size, bold ? " font-weight=\"" : "", bold ? weight : "", bold ? "\"" : "");
	if (shown.data && text_w(shown.data, n, size, bold) > maxw) {
		double ell = text_w("…", strlen("…"), size, bold);

		while (n && (((unsigned char)shown.data[n] & 0xC0) == 0x80 ||
			     text_w(shown.data, n, size, bold) + ell > maxw))
			n--;
		nicfit_buf_puts(b, "<title>");
		nicfit__xml_escape(b, s);
		nicfit_buf_puts(b, "</title>");
		nicfit__xml_escape_n(b, shown.data, n);
		nicfit_buf_puts(b, "…");
	} else if (shown.data) {
		nicfit__xml_escape_n(b, shown.data, n);
	}
	nicfit_buf_puts(b, "</text>\n");
	nicfit_buf_release(&shown);
}

static void draw_node(struct svg *s, int i)
{
	const struct nicfit_audit *a = s->a;
	const struct nicfit_topo *t = a->topo;
	struct node *n = &s->n[i];
	struct nicfit_buf *b = &s->b;
	double w = LEAF_W - 16, x = n->x - w / 2;
	char line[128];

	if (n->pci < 0) {
		nicfit_buf_addf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"24\" rx=\"12\" "
				"fill=\"#f4f4f4\" stroke=\"#888\"/>\n", x + 20, n->y, w - 40);
		text(b, n->x, n->y + 16, 11, NULL, t->hb[n->hb].name, w - 40 - 2 * TEXT_PAD);
		return;
	}
	{
		const struct nicfit_pcidev *p = &t->pci[n->pci];
		int d = -1, k;

		for (k = 0; k < a->ndevs; k++)
			if (a->devs[k].pci == n->pci)
				d = k;
		if (p->kind == NICFIT_DEV_BRIDGE) {
			const char *what = p->port_type == NICFIT_PORT_ROOT ? "root port" :
					   p->port_type == NICFIT_PORT_UPSTREAM ? "switch" :
					   p->port_type == NICFIT_PORT_DOWNSTREAM ? "switch port" : "bridge";

			nicfit_buf_addf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"30\" rx=\"4\" "
					"fill=\"%s\" stroke=\"#666\"/>\n", x + 10, n->y, w - 20,
					p->port_type == NICFIT_PORT_UPSTREAM ? "#fff4d6" : "#fafafa");
			const char *slot = "";
			char g[64];
			int gen = nicfit_pcie_gen_from_gts(p->max_gts);

			for (k = 0; k < t->nslots; k++)
				if (t->slots[k].bridge == n->pci)
					slot = t->slots[k].name;
			snprintf(line, sizeof(line), "%s %s", what, nicfit__audit_short_bdf(p->bdf));
			text(b, n->x, n->y + 13, 10, NULL, line, w - 20 - 2 * TEXT_PAD);
			snprintf(g, sizeof(g), "%s%s", slot[0] ? "slot " : "", slot);
			if (gen)
				snprintf(g + strlen(g), sizeof(g) - strlen(g), "%sGen%d x%d",
					 slot[0] ? " · " : "", gen, p->max_width);
			if (g[0])
				text(b, n->x, n->y + 25, 9, NULL, g, w - 20 - 2 * TEXT_PAD);
			return;
		}
		nicfit_buf_addf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" rx=\"6\" "
				"fill=\"%s\" stroke=\"#333\"/>\n", x, n->y, w, NODE_H + 6,
				fill_of(p->kind));
		snprintf(line, sizeof(line), "%s · %s",
			 d >= 0 ? a->devs[d].label : nicfit__audit_short_bdf(p->bdf),
			 nicfit__audit_short_bdf(p->bdf));
		text(b, n->x, n->y + 15, 11, "bold", line, w - 2 * TEXT_PAD);
		text(b, n->x, n->y + 29, 10, NULL, d >= 0 ? a->devs[d].name : "", w - 2 * TEXT_PAD);
		if (d >= 0 && a->devs[d].link.path_gbps >= 0) {
			snprintf(line, sizeof(line), "≈ %.0f Gb/s to CPU", a->devs[d].link.path_gbps);
			text(b, n->x, n->y + 42, 9, NULL, line, w - 2 * TEXT_PAD);
		}
	}
}

static void draw_edge(struct svg *s, int i)
{
	const struct nicfit_topo *t = s->a->topo;
	struct node *n = &s->n[i], *p;
	struct nicfit_buf *b = &s->b;
	const char *color = "#777";
	double y1, y2;
	char label[48];
	int physical = 0;

	if (n->parent < 0)
		return;
	p = &s->n[n->parent];
	y1 = p->y + (p->pci < 0 ? 24 : p->pci >= 0 && t->pci[p->pci].kind == NICFIT_DEV_BRIDGE ? 30
										 : NODE_H + 6);
	y2 = n->y;
	label[0] = '\0';
	if (n->pci >= 0 && p->pci >= 0) {
		const struct nicfit_pcidev *c = &t->pci[n->pci], *up = &t->pci[p->pci];

		physical = (c->port_type == NICFIT_PORT_ENDPOINT || c->port_type == NICFIT_PORT_UPSTREAM) &&
			   (up->port_type == NICFIT_PORT_ROOT || up->port_type == NICFIT_PORT_DOWNSTREAM);
		if (physical) {
			double g = c->cur_gts > 0 ? c->cur_gts : up->cur_gts;
			int w = c->cur_width > 0 ? c->cur_width : up->cur_width;
			int gen = nicfit_pcie_gen_from_gts(g);

			if (gen && w)
				snprintf(label, sizeof(label), "Gen%d x%d", gen, w);
			else if (w)
				snprintf(label, sizeof(label), "x%d", w);
		}
		if (s->limit[n->pci] & 1)
			color = "#d62728";
		else if (s->limit[n->pci] & 2)
			color = "#e8a33d";
	}
	nicfit_buf_addf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"%s\"%s/>\n", p->x, y1, n->x, y2, color,
			physical ? "2.5" : "1", physical ? "" : " stroke-dasharray=\"4 3\"");
	if (label[0]) {
		nicfit_buf_addf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">",
				(p->x + n->x) / 2 + 6, (y1 + y2) / 2 + 4, color);
		nicfit__xml_escape(b, label);
		if (s->limit[n->pci] & 2)
			nicfit_buf_puts(b, " idle");
		nicfit_buf_puts(b, "</text>\n");
	}
}

static void mark_limits(struct svg *s)
{
	const struct nicfit_audit *a = s->a;
	const struct nicfit_topo *t = a->topo;
	int i, k;

	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];

		if (d->link.idle)
			s->limit[d->pci] |= 2;
		if (d->link.limit_pci >= 0) {
			/* the link right below the limiting port on this device's chain */
			int chain[2 * NICFIT_TOPO_MAX_DEPTH];
			int n = nicfit_topo_chain(t, d->pci, chain, (int)(sizeof(chain) / sizeof(chain[0])));

			for (k = 0; k + 1 < n; k++)
				if (chain[k] == d->link.limit_pci)
					s->limit[chain[k + 1]] |= 1;
		}
	}
	/* downtrained links */
	for (i = 0; i < t->npci; i++) {
		const struct nicfit_pcidev *p = &t->pci[i];

		if (p->parent < 0)
			continue;
		if ((p->cur_width > 0 && p->max_width > 0 && p->cur_width < p->max_width &&
		     t->pci[p->parent].max_width >= p->max_width) ||
		    (p->kind != NICFIT_DEV_GPU && p->cur_gts > 0 && p->max_gts > 0 &&
		     p->cur_gts < p->max_gts && t->pci[p->parent].max_gts >= p->max_gts))
			s->limit[i] |= 1;
	}
}

/* One box per socket (unknown locality last), and the picture's size. */
struct columns {
	int socket[NICFIT_TOPO_MAX_NUMA + 1];
	double left[NICFIT_TOPO_MAX_NUMA + 1], width[NICFIT_TOPO_MAX_NUMA + 1];
	double top[NICFIT_TOPO_MAX_NUMA + 1], height[NICFIT_TOPO_MAX_NUMA + 1];
	int n;
	double w, h;             /* the whole picture */
};

/* The sockets side by side, each one's trees in a row. */
static void layout_columns(struct svg *s, struct columns *k)
{
	double x = MARGIN, height = 0;
	int i, c;

	for (c = 0; c < k->n; c++) {
		k->left[c] = x;
		k->width[c] = 0;
		for (i = 0; i < s->nn; i++)
			if (s->n[i].parent < 0 && s->n[i].socket == k->socket[c]) {
				place(s, i, x, TOP + 40);
				x += s->n[i].leaves * LEAF_W;
				k->width[c] += s->n[i].leaves * LEAF_W;
			}
		x += 12;
	}
	for (i = 0; i < s->nn; i++)
		if (s->n[i].y + NODE_H + 20 > height)
			height = s->n[i].y + NODE_H + 20;
	k->w = x + MARGIN < 640 ? 640 : x + MARGIN;
	k->h = height + 40 < 260 ? 260 : height + 40;
	for (c = 0; c < k->n; c++) {
		k->top[c] = TOP;
		k->height[c] = k->h - TOP - 10;
	}
}

/*
 * The sockets stacked, each one's trees wrapped into rows no wider than
 * SVG_MAX_W, as lstopo wraps the children of a box. A tree is never cut:
 * one wider than a row has a row of its own.
 */
static void layout_stacked(struct svg *s, struct columns *k)
{
	double y = TOP, right = MARGIN;
	int i, c;

	for (c = 0; c < k->n; c++) {
		double x = MARGIN, row = y + 40, row_h = 0;

		for (i = 0; i < s->nn; i++) {
			double w, h;

			if (s->n[i].parent >= 0 || s->n[i].socket != k->socket[c])
				continue;
			w = s->n[i].leaves * LEAF_W;
			h = sub_depth(s, i) * LEVEL_H + NODE_H + 6;
			if (x > MARGIN && x + w > SVG_MAX_W - MARGIN) {
				row += row_h + ROW_GAP;
				x = MARGIN;
				row_h = 0;
			}
			place(s, i, x, row);
			x += w;
			if (x > right)
				right = x;
			if (h > row_h)
				row_h = h;
		}
		k->left[c] = MARGIN;
		k->top[c] = y;
		k->height[c] = row + row_h + 20 - (y - 10);
		y += k->height[c] + 12;
	}
	for (c = 0; c < k->n; c++)
		k->width[c] = right - MARGIN;
	k->w = right + MARGIN < 640 ? 640 : right + MARGIN;
	k->h = y + 20;
}

/* Sockets in ascending order, unknown locality last; then place the trees. */
static void layout(struct svg *s, struct columns *k)
{
	double wide = MARGIN;
	int i, j;

	k->n = 0;
	for (i = 0; i < s->nn; i++) {
		if (s->n[i].parent >= 0)
			continue;
		count_leaves(s, i);
		wide += s->n[i].leaves * LEAF_W;
		for (j = 0; j < k->n; j++)
			if (k->socket[j] == s->n[i].socket)
				break;
		if (j == k->n && k->n <= NICFIT_TOPO_MAX_NUMA)
			k->socket[k->n++] = s->n[i].socket;
	}
	for (i = 1; i < k->n; i++) {
		int v = k->socket[i];

		for (j = i; j > 0 && (k->socket[j - 1] < 0 || (v >= 0 && k->socket[j - 1] > v)); j--)
			k->socket[j] = k->socket[j - 1];
		k->socket[j] = v;
	}
	wide += 12.0 * k->n + MARGIN;
	if (wide <= SVG_MAX_W)
		layout_columns(s, k);
	else
		layout_stacked(s, k);
}

/* The title, the verdict's counts and the legend. */
static void draw_title(struct svg *s)
{
	const struct nicfit_audit *a = s->a;
	const struct nicfit_topo *t = a->topo;
	size_t ncrit = nicfit_findings_count(&a->findings, NICFIT_SEV_CRITICAL);
	size_t nwarn = nicfit_findings_count(&a->findings, NICFIT_SEV_WARNING);
	size_t ninfo = nicfit_findings_count(&a->findings, NICFIT_SEV_INFO);
	char title[512], rdma[64];

	snprintf(title, sizeof(title), "%s%s%s%s — %d GPU%s, %d NIC%s (%s)",
		 t->hostname[0] ? t->hostname : "host", t->product[0] ? " (" : "", t->product,
		 t->product[0] ? ")" : "", a->ngpus, a->ngpus == 1 ? "" : "s", a->nnics,
		 a->nnics == 1 ? "" : "s", nicfit__audit_rdma_count(a, rdma, sizeof(rdma)));
	nicfit__svg_text(&s->b, title, "x=\"24\" y=\"30\" font-size=\"16\" font-weight=\"bold\"");
	nicfit_buf_addch(&s->b, '\n');
	nicfit_buf_addf(&s->b, "<text x=\"24\" y=\"52\" font-size=\"11\" fill=\"#555\">%zu critical, "
			"%zu warning%s, %zu note%s · each link shows its generation and negotiated "
			"width</text>\n", ncrit, nwarn, nwarn == 1 ? "" : "s", ninfo,
			ninfo == 1 ? "" : "s");
	nicfit_buf_puts(&s->b, "<text x=\"24\" y=\"68\" font-size=\"11\"><tspan fill=\"#d62728\">"
			"red: limits a device below what it can do</tspan> · <tspan fill=\"#e8a33d\">"
			"amber: idle GPU link</tspan> · dashed: inside a switch or chip</text>\n");
}

/* Each column's box and heading: the socket and its NUMA nodes' CPUs. */
static void draw_columns(struct svg *s, const struct columns *k)
{
	const struct nicfit_topo *t = s->a->topo;
	char head[256];
	int c, j;

	for (c = 0; c < k->n; c++) {
		size_t hl;

		if (k->socket[c] >= 0) {
			hl = (size_t)snprintf(head, sizeof(head), "Socket %d", k->socket[c]);
			for (j = 0; j < t->nnuma && hl < sizeof(head); j++)
				if (t->numa[j].package == k->socket[c] ||
				    (t->numa[j].package < 0 && t->numa[j].id == k->socket[c]))
					hl += (size_t)snprintf(head + hl, sizeof(head) - hl,
							       " · NUMA %d (CPUs %s)", t->numa[j].id,
							       t->numa[j].cpulist[0] ? t->numa[j].cpulist
										     : "?");
		} else {
			snprintf(head, sizeof(head), "socket unknown (no NUMA node read for these)");
		}
		nicfit_buf_addf(&s->b, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\" "
				"rx=\"10\" fill=\"%s\" stroke=\"#bbb\"/>\n", k->left[c] + 4, k->top[c] - 10,
				k->width[c] - 8, k->height[c],
				k->socket[c] >= 0 ? "#fbfbff" : "#fff8f8");
		text(&s->b, k->left[c] + k->width[c] / 2, k->top[c] + 12, 13, "bold", head,
		     k->width[c] - 8 - 2 * TEXT_PAD);
	}
}

int nicfit__audit_render_svg(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	const struct nicfit_topo *t = a->topo;
	struct columns cols;
	struct svg s;
	int i, rc = 0;

	memset(&s, 0, sizeof(s));
	s.a = a;
	nicfit_buf_init(&s.b, 0);
	s.node_of = malloc((size_t)(t->npci + 1) * sizeof(int));
	s.hb_node = malloc((size_t)(t->nhb + 1) * sizeof(int));
	s.limit = calloc((size_t)(t->npci + 1), 1);
	if (!s.node_of || !s.hb_node || !s.limit) {
		rc = NICFIT_E_NOMEM;
		goto out;
	}
	for (i = 0; i < t->npci; i++)
		s.node_of[i] = -1;
	for (i = 0; i < t->nhb; i++)
		s.hb_node[i] = -1;
	mark_limits(&s);
	for (i = 0; i < a->ndevs; i++)
		if (a->devs[i].kind != NICFIT_DEV_BRIDGE && a->devs[i].kind != NICFIT_DEV_HOST &&
		    add_path(&s, a->devs[i].pci)) {
			rc = NICFIT_E_NOMEM;
			goto out;
		}
	layout(&s, &cols);
	nicfit_buf_addf(&s.b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
			"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
			cols.w, cols.h, cols.w, cols.h);
	nicfit_buf_puts(&s.b, "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
	draw_title(&s);
	draw_columns(&s, &cols);
	for (i = 0; i < s.nn; i++)
		draw_edge(&s, i);
	for (i = 0; i < s.nn; i++)
		draw_node(&s, i);
	if (!s.nn)
		nicfit_buf_puts(&s.b, "<text x=\"24\" y=\"120\" font-size=\"13\">No GPUs, accelerators "
				"or network cards found.</text>\n");
	nicfit_buf_puts(&s.b, "</svg>\n");
	rc = nicfit_buf_error(&s.b);
	if (!rc)
		nicfit_emit_raw(e, s.b.data, s.b.len);
out:
	nicfit_buf_release(&s.b);
	free(s.n);
	free(s.node_of);
	free(s.hb_node);
	free(s.limit);
	return rc;
}
