/*
 * plan_svg.c - a plan as a picture (--format svg): the server's slots,
 * GPUs and cards, by CPU socket and PCIe switch, so that a GPU and the NIC
 * sharing its switch are seen together. Every text in it goes through the
 * SVG escaper (out/svg_int.h); it decides nothing, it draws the plan.
 */
#include <stdio.h>
#include <string.h>

#include "nicfit/buf.h"
#include "nicfit/plan.h"
#include "plan/plan_int.h"
#include "core/svg_int.h"

/* Geometry of the picture: a slot's row, a switch's heading and the gap after a switch. */
#define SVG_ROW 46
#define SVG_SWITCH_HEAD 28
#define SVG_SWITCH_GAP 12

/* One slot's box at (x, y), w wide: its name and link, and what the plan put there. */
static void svg_slot(struct nicfit_buf *b, const struct nicfit_plan *p,
		     const struct nicfit_slot *s, int x, int y, int w)
{
	const char *what = "free", *fill = "#ffffff", *stroke = "#bbb";
	char label[200];
	int k;

	for (k = 0; k < p->nslots; k++)
		if (!strcmp(p->slots[k].slot, s->name)) {
			what = p->slots[k].what;
			if (!strncmp(what, "GPU", 3)) {
				fill = "#e3f4e1";
				stroke = "#3a8d35";
			} else {
				fill = "#e1ecfa";
				stroke = "#2c6bc4";
			}
		}
	nicfit_buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"38\" rx=\"4\" "
			"fill=\"%s\" stroke=\"%s\"/>\n", x, y, w, fill, stroke);
	plan_fmt(label, sizeof(label), "slot %s  Gen%d x%d %s", s->name, s->gen, s->width,
		 s->full_height ? "FH" : "LP");
	nicfit__svg_text(b, label, "x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\"", x + 8, y + 15);
	nicfit_buf_puts(b, "\n");
	nicfit__svg_text(b, what, "x=\"%d\" y=\"%d\"", x + 8, y + 31);
	nicfit_buf_puts(b, "\n");
}

/*
 * One socket's column at x: the slots on its root ports, then each PCIe
 * switch of the socket as a box holding the GPUs and NICs under it, so
 * that a GPU and the NIC that shares its switch (PIX) are seen together.
 * Draws only when b is given; returns the column's height either way.
 */
static int svg_socket(struct nicfit_buf *b, const struct nicfit_plan *p, int sock, int x)
{
	const struct nicfit_server *sv = p->in.server;
	int y = 70, cur = y + 36, i, k;
	char t[200];

	for (i = 0; i < sv->nslots; i++) {
		const struct nicfit_slot *s = &sv->slots[i];

		if ((s->pcie_switch >= 0 && s->pcie_switch < sv->nswitches) || s->socket != sock)
			continue;
		if (b)
			svg_slot(b, p, s, x + 12, cur, 316);
		cur += SVG_ROW;
	}
	for (k = 0; k < sv->nswitches; k++) {
		const struct nicfit_pcie_switch *w = &sv->switches[k];
		int n = 0, top = cur, ug, uw;

		if (w->socket != sock)
			continue;
		for (i = 0; i < sv->nslots; i++)
			n += sv->slots[i].pcie_switch == k;
		cur += SVG_SWITCH_HEAD + n * SVG_ROW + SVG_SWITCH_GAP;
		if (!b)
			continue;
		nicfit_buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"316\" height=\"%d\" rx=\"6\" "
				"fill=\"#fbf6ea\" stroke=\"#b08a3e\"/>\n", x + 12, top,
				SVG_SWITCH_HEAD + n * SVG_ROW);
		/* a cascaded switch: the narrowest link on its way to the CPU */
		if (w->upstream > 0 && w->upstream <= sv->nswitches &&
		    nicfit__plan_switch_uplink(sv, k, &ug, &uw))
			plan_fmt(t, sizeof(t), "PCIe switch %s  Gen%d x%d via %s to CPU %d", w->id,
				 ug, uw, sv->switches[w->upstream - 1].id, w->socket);
		else
			plan_fmt(t, sizeof(t), "PCIe switch %s  Gen%d x%d to CPU %d", w->id, w->gen,
				 w->width, w->socket);
		nicfit__svg_text(b, t, "x=\"%d\" y=\"%d\" font-size=\"11\" font-weight=\"bold\" "
				 "fill=\"#7a5a1c\"", x + 20, top + 18);
		nicfit_buf_puts(b, "\n");
		for (i = 0, n = 0; i < sv->nslots; i++)
			if (sv->slots[i].pcie_switch == k)
				svg_slot(b, p, &sv->slots[i], x + 20, top + SVG_SWITCH_HEAD + n++ * SVG_ROW,
					 300);
	}
	return cur - y + 14;
}

void nicfit__plan_svg(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	struct nicfit_buf b;
	char t[200];
	int sock, maxh = 50, w, h;

	for (sock = 0; sock < sv->sockets && sock < 8; sock++) {
		int sh = svg_socket(NULL, p, sock, 0);

		maxh = sh > maxh ? sh : maxh;
	}
	w = 40 + sv->sockets * 360;
	h = 100 + maxh;
	nicfit_buf_init(&b, 0);
	nicfit_buf_addf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"13\">\n", w, h, w, h);
	nicfit_buf_puts(&b, "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
	nicfit__svg_text(&b, sv->e.name, "x=\"20\" y=\"28\" font-size=\"16\" font-weight=\"bold\"");
	nicfit_buf_puts(&b, "\n");
	if (p->backend_needed && p->be_nic)
		plan_fmt(t, sizeof(t), "back end: %s at %.1f Gb/s (%s)", p->be_part,
			 p->be_effective_gbps,
			 p->fabric == NICFIT_FABRIC_IB ? "InfiniBand" : nicfit__plan_roce_name(p));
	else
		nicfit__plan_copy(t, sizeof(t), p->backend_needed ? "back end: " : "no back end needed");
	nicfit__svg_text(&b, t, "x=\"20\" y=\"48\" fill=\"#444\"");
	nicfit_buf_puts(&b, "\n");
	for (sock = 0; sock < sv->sockets && sock < 8; sock++) {
		int x = 20 + sock * 360;

		nicfit_buf_addf(&b, "<rect x=\"%d\" y=\"70\" width=\"340\" height=\"%d\" rx=\"8\" "
				"fill=\"#f4f6f8\" stroke=\"#99a\"/>\n", x, svg_socket(NULL, p, sock, x));
		nicfit_buf_addf(&b, "<text x=\"%d\" y=\"92\" font-weight=\"bold\">CPU socket %d</text>\n",
				x + 12, sock);
		svg_socket(&b, p, sock, x);
	}
	nicfit_buf_puts(&b, "</svg>\n");
	nicfit_emit_raw(e, b.data, b.len);
	nicfit_buf_release(&b);
}
