/*
 * partno_render.c - a decoded part as a "nicfit.decode.v1" document
 * (docs/json-decode.md) and as the text explanation (see nicfit/partno.h).
 *
 * The reading and the notes are the same facts in every format (a table,
 * field calls). The facts themselves are two views: JSON has one member
 * per fact, in the documented order; the text groups them into a few
 * lines ("vendor NVIDIA (PCI 15b3:101d, driver mlx5_core)") and a slot
 * sentence puts its figures in the order a reader asks for them, so each
 * view is written by its own function.
 */
#include <stdio.h>
#include <string.h>

#include "nicfit/emit.h"
#include "nicfit/partno.h"

/* ---- rendering -------------------------------------------------------------- */

static void emit_str_or_null(struct nicfit_emit *e, const char *key, const char *v)
{
	if (v && v[0])
		nicfit_emit_string(e, key, v);
	else
		nicfit_emit_null(e, key);
}

static void emit_int_or_null(struct nicfit_emit *e, const char *key, int v)
{
	if (v > 0)
		nicfit_emit_int(e, key, v);
	else
		nicfit_emit_null(e, key);
}

static void emit_tri(struct nicfit_emit *e, const char *key, int v)
{
	if (v >= 0)
		nicfit_emit_bool(e, key, v);
	else
		nicfit_emit_null(e, key);
}

static const char *kind_name(enum nicfit_part_kind k)
{
	return k == NICFIT_PART_NIC ? "nic" : k == NICFIT_PART_DPU ? "dpu" : "other";
}

static void rdma_text(const struct nicfit_part *p, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!p->rdma) {
		snprintf(buf, n, "none");
		return;
	}
	snprintf(buf, n, "%s%s%s%s%s", (p->rdma & NICFIT_RDMA_IB) ? "InfiniBand" : "",
		 (p->rdma & NICFIT_RDMA_IB) && (p->rdma & (NICFIT_RDMA_ROCE | NICFIT_RDMA_IWARP)) ?
		 ", " : "",
		 (p->rdma & NICFIT_RDMA_ROCE) ? "RoCE" : "",
		 (p->rdma & NICFIT_RDMA_ROCE) && (p->rdma & NICFIT_RDMA_IWARP) ? ", " : "",
		 (p->rdma & NICFIT_RDMA_IWARP) ? "iWARP" : "");
}

/* A cable's or transceiver's ends and where they fit (docs/json-decode.md "cable"). */
static void render_json_cable(struct nicfit_emit *e, const struct nicfit_part_cable *k)
{
	int i;

	nicfit_emit_begin_object(e, "cable");
	nicfit_emit_string(e, "type", k->type);
	nicfit_emit_string(e, "end_a", k->end_a);
	nicfit_emit_string(e, "end_b", k->end_b);
	nicfit_emit_int(e, "legs", k->legs);
	nicfit_emit_number(e, "gbps", k->gbps);
	nicfit_emit_number(e, "leg_gbps", k->leg_gbps);
	emit_int_or_null(e, "lanes_a", k->lanes_a);
	if (k->serdes_a > 0)
		nicfit_emit_number(e, "lane_gbps_a", k->serdes_a);
	else
		nicfit_emit_null(e, "lane_gbps_a");
	emit_int_or_null(e, "lanes_b", k->lanes_b);
	if (k->serdes_b > 0)
		nicfit_emit_number(e, "lane_gbps_b", k->serdes_b);
	else
		nicfit_emit_null(e, "lane_gbps_b");
	emit_str_or_null(e, "top_a", k->top_a);
	emit_str_or_null(e, "top_b", k->top_b);
	if (k->length_m > 0)
		nicfit_emit_number(e, "length_m", k->length_m);
	else
		nicfit_emit_null(e, "length_m");
	if (k->reach_m > 0)
		nicfit_emit_number(e, "reach_m", k->reach_m);
	else
		nicfit_emit_null(e, "reach_m");
	emit_str_or_null(e, "medium", k->medium);
	emit_str_or_null(e, "fiber", k->fiber);
	nicfit_emit_begin_array(e, "fits_nics");
	for (i = 0; i < k->nfits_nics; i++)
		nicfit_emit_string(e, NULL, k->fits_nics[i]);
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "fits_switches");
	for (i = 0; i < k->nfits_switches; i++)
		nicfit_emit_string(e, NULL, k->fits_switches[i]);
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
}

/* A text line names this many parts; the JSON lists all of them. */
#define TEXT_FITS 10

static void text_list(struct nicfit_emit *e, const char *label, char (*ids)[24], int n)
{
	int i, shown = n > TEXT_FITS ? TEXT_FITS : n;

	nicfit_emit_printf(e, "  %-11s ", label);
	if (!n)
		nicfit_emit_printf(e, "none in the catalog");
	for (i = 0; i < shown; i++)
		nicfit_emit_printf(e, i ? ", %s" : "%s", ids[i]);
	if (n > shown)
		nicfit_emit_printf(e, " and %d more%s (--json lists them)", n - shown,
				   n == NICFIT_PART_FITS ? " or more" : "");
	nicfit_emit_printf(e, "\n");
}

/* The text lines of a cable: ends, lanes, length or reach, what it fits. */
static void render_text_cable(struct nicfit_emit *e, const struct nicfit_part *p)
{
	const struct nicfit_part_cable *k = &p->cable;

	nicfit_emit_printf(e, "  ends        %s%s%s (%d x %g lanes) to %s%s%s", k->end_a,
			   k->top_a[0] ? " " : "", k->top_a, k->lanes_a, k->serdes_a,
			   k->legs > 1 ? (k->legs == 2 ? "2 x " : "4 x ") : "", k->end_b,
			   k->top_b[0] ? " " : "");
	nicfit_emit_printf(e, "%s", k->top_b);
	if (k->lanes_b)
		nicfit_emit_printf(e, " (%d x %g lanes%s)", k->lanes_b, k->serdes_b,
				   k->legs > 1 ? " each" : "");
	nicfit_emit_printf(e, ", %g Gb/s%s\n", k->legs > 1 ? k->leg_gbps : k->gbps,
			   k->legs > 1 ? " per leg" : "");
	if (k->length_m > 0)
		nicfit_emit_printf(e, "  length      %g m\n", k->length_m);
	if (k->reach_m > 0)
		nicfit_emit_printf(e, "  reach       %g m%s%s\n", k->reach_m, k->fiber[0] ? " over " : "",
				   k->fiber);
	text_list(e, "fits NICs", (char (*)[24])k->fits_nics, k->nfits_nics);
	text_list(e, "switches", (char (*)[24])k->fits_switches, k->nfits_switches);
	nicfit_emit_printf(e, "  confidence  %s\n", nicfit_confidence_name(p->confidence));
}

static void render_json_facts(struct nicfit_emit *e, const struct nicfit_part *p)
{
	int i;

	nicfit_emit_string(e, "schema", "nicfit.decode.v1");
	nicfit_emit_string(e, "part", p->part);
	nicfit_emit_string(e, "input", p->input);
	nicfit_emit_string(e, "kind", kind_name(p->kind));
	emit_str_or_null(e, "vendor", p->vendor);
	emit_str_or_null(e, "family", p->family);
	emit_str_or_null(e, "protocol", p->protocol);
	emit_int_or_null(e, "ports", p->ports);
	emit_str_or_null(e, "cage", p->cage);
	if (p->port_gbps > 0)
		nicfit_emit_number(e, "port_gbps", p->port_gbps);
	else
		nicfit_emit_null(e, "port_gbps");
	emit_str_or_null(e, "ib_rate", p->ib_rate);
	emit_int_or_null(e, "pcie_gen", p->pcie_gen);
	emit_int_or_null(e, "pcie_gen_min", p->pcie_gen_min);
	emit_int_or_null(e, "pcie_width", p->pcie_width);
	nicfit_emit_bool(e, "socket_direct", p->socket_direct);
	nicfit_emit_bool(e, "socket_direct_option", p->socket_direct_option);
	nicfit_emit_bool(e, "multi_host", p->multi_host);
	if (p->kind == NICFIT_PART_OTHER)
		nicfit_emit_null(e, "rdma");
	else
		nicfit_emit_bool(e, "rdma", p->rdma != 0);
	nicfit_emit_begin_array(e, "rdma_kinds");
	if (p->rdma & NICFIT_RDMA_IB)
		nicfit_emit_string(e, NULL, "infiniband");
	if (p->rdma & NICFIT_RDMA_ROCE)
		nicfit_emit_string(e, NULL, "roce");
	if (p->rdma & NICFIT_RDMA_IWARP)
		nicfit_emit_string(e, NULL, "iwarp");
	nicfit_emit_end_array(e);
	emit_str_or_null(e, "form_factor", p->form_factor);
	emit_str_or_null(e, "bracket", p->bracket);
	emit_str_or_null(e, "slot_width", p->slot_width);
	emit_tri(e, "crypto", p->crypto);
	emit_tri(e, "secure_boot", p->secure_boot);
	emit_str_or_null(e, "options", p->options);
	emit_str_or_null(e, "driver", p->driver);
	if (p->pci_vendor && p->pci_device) {
		nicfit_emit_begin_object(e, "pci");
		nicfit_emit_stringf(e, "vendor", "%04x", p->pci_vendor);
		nicfit_emit_stringf(e, "device", "%04x", p->pci_device);
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "pci");
	}
	nicfit_emit_string(e, "confidence", nicfit_confidence_name(p->confidence));
	emit_str_or_null(e, "catalog_id", p->catalog_id);
	if (p->catalog_id[0])
		nicfit_emit_string(e, "catalog_kind", nicfit_kind_name(p->catalog_kind));
	emit_str_or_null(e, "name", p->name);
	nicfit_emit_string(e, "source", p->source);
	nicfit_emit_begin_array(e, "unverified");
	for (i = 0; i < p->nunverified; i++)
		nicfit_emit_string(e, NULL, p->unverified[i]);
	nicfit_emit_end_array(e);
	nicfit_emit_string(e, "summary", p->summary);
	if (p->cable.is_cable)
		render_json_cable(e, &p->cable);
}

static void render_slots(struct nicfit_emit *e, const struct nicfit_part *p)
{
	const char *proto = (p->rdma & NICFIT_RDMA_ROCE) ? "roce" :
			    !strcmp(p->protocol, "IB") ? "ib" : "tcp";
	char where[64];
	int i;

	nicfit_emit_begin_array(e, "slots");
	for (i = 0; i < p->nslots; i++) {
		const struct nicfit_part_slot *s = &p->slots[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_stringf(e, "slot", "gen%dx%d", s->gen, s->width);
		nicfit_emit_int(e, "links", s->links);
		nicfit_emit_stringf(e, "link", "gen%dx%d", s->link_gen, s->link_width);
		nicfit_emit_string(e, "proto", proto);
		nicfit_emit_number(e, "ports_gbps", s->ports_gbps);
		nicfit_emit_number(e, "pcie_gbps", s->pcie_gbps);
		nicfit_emit_number(e, "effective_gbps", s->effective_gbps);
		nicfit_emit_string(e, "limited_by", s->limited_by);
		nicfit_emit_end_object(e);
		if (s->links > 1 && !p->socket_direct)
			snprintf(where, sizeof(where), "Socket Direct, two Gen%d x%d links", s->gen,
				 s->width);
		else if (s->links > 1)
			snprintf(where, sizeof(where), "With both links in Gen%d x%d slots", s->gen,
				 s->width);
		else
			snprintf(where, sizeof(where), "In a Gen%d x%d slot", s->gen, s->width);
		if (p->card_gbps > 0 && p->card_gbps < p->ports * p->port_gbps &&
		    strcmp(s->limited_by, "pcie"))
			nicfit_emit_printf(e, "  %s: %.0f Gb/s, the card's limit for all its ports "
					   "together (%g Gb/s; %.0f Gb/s of PCIe)\n", where,
					   s->effective_gbps, p->card_gbps, s->pcie_gbps);
		else if (!strcmp(s->limited_by, "pcie") && p->card_gbps > 0 &&
			 p->card_gbps < p->ports * p->port_gbps)
			/* the card's own total at the ports' goodput share, as calc nic has it */
			nicfit_emit_printf(e, "  %s: about %.0f Gb/s (PCIe-bound; the card could "
					   "carry %.0f)\n", where, s->effective_gbps,
					   p->card_gbps * s->ports_gbps / (p->ports * p->port_gbps));
		else if (!strcmp(s->limited_by, "pcie"))
			nicfit_emit_printf(e, "  %s: about %.0f Gb/s (PCIe-bound; the ports could "
					   "carry %.0f)\n", where, s->effective_gbps, s->ports_gbps);
		else
			nicfit_emit_printf(e, "  %s: %.0f Gb/s, %s at line rate (%.0f Gb/s of "
					   "PCIe)\n", where, s->effective_gbps,
					   p->ports == 1 ? "its port" : p->ports == 2 ? "both ports" :
					   "all ports", s->pcie_gbps);
	}
	nicfit_emit_end_array(e);
	if (p->nslots)
		nicfit_emit_printf(e, "  (%s goodput per 'nicfit calc nic' with its default "
				   "assumptions)\n", !strcmp(proto, "roce") ? "RoCE v2" :
				   !strcmp(proto, "ib") ? "InfiniBand" : "TCP");
}

static void render_text_facts(struct nicfit_emit *e, const struct nicfit_part *p)
{
	const char *bold = nicfit_emit_color(e, NICFIT_COLOR_BOLD);
	const char *reset = nicfit_emit_color(e, NICFIT_COLOR_RESET);
	char buf[96];

	nicfit_emit_printf(e, "%s%s%s: %s\n", bold, p->part, reset, p->summary);
	if (p->kind == NICFIT_PART_OTHER) {
		if (p->cable.is_cable)
			render_text_cable(e, p);
		nicfit_emit_printf(e, "  source      %s\n", p->source);
		return;
	}
	if (p->pci_vendor && p->pci_device)
		nicfit_emit_printf(e, "  vendor      %s (PCI %04x:%04x%s%s)\n", p->vendor,
				   p->pci_vendor, p->pci_device, p->driver[0] ? ", driver " : "",
				   p->driver);
	else
		nicfit_emit_printf(e, "  vendor      %s%s%s%s\n", p->vendor,
				   p->driver[0] ? " (driver " : "", p->driver,
				   p->driver[0] ? ")" : "");
	rdma_text(p, buf, sizeof(buf));
	nicfit_emit_printf(e, "  RDMA        %s\n", buf);
	if (p->crypto >= 0 || p->secure_boot >= 0)
		nicfit_emit_printf(e, "  security    %s, %s\n",
				   p->crypto > 0 ? "crypto" : p->crypto == 0 ? "no crypto" : "crypto unknown",
				   p->secure_boot > 0 ? "secure boot" : p->secure_boot == 0 ?
				   "no secure boot" : "secure boot unknown");
	if (p->options[0])
		nicfit_emit_printf(e, "  options     %s\n", p->options);
	if (p->catalog_id[0])
		nicfit_emit_printf(e, "  source      catalog entry %s: %s\n", p->catalog_id,
				   p->source);
	else
		nicfit_emit_printf(e, "  source      %s; not in the catalog\n", p->source);
	nicfit_emit_printf(e, "  confidence  %s\n", nicfit_confidence_name(p->confidence));
	if (p->nunverified) {
		int i;

		nicfit_emit_printf(e, "  unverified  ");
		for (i = 0; i < p->nunverified; i++)
			nicfit_emit_printf(e, "%s%s", i ? ", " : "", p->unverified[i]);
		nicfit_emit_printf(e, "\n");
	}
}

void nicfit_decode_render(struct nicfit_emit *e, const struct nicfit_part *p)
{
	static const struct nicfit_column cols[] = {
		{ "chars", "Chars", 0 },
		{ "meaning", "Meaning", 0 },
	};
	int i;

	nicfit_emit_columns(e, cols, 2); /* what -o may name, for parts read by rule or not */
	nicfit_emit_begin_object(e, NULL);
	render_json_facts(e, p);
	render_text_facts(e, p);
	if (p->nreading) {
		nicfit_emit_printf(e, "\nHow it reads:");
		for (i = 0; i < p->nreading; i++)
			nicfit_emit_printf(e, " %s", p->reading[i].chars);
		nicfit_emit_printf(e, "\n");
		nicfit_emit_table_begin(e, "reading", cols, 2);
		for (i = 0; i < p->nreading; i++) {
			nicfit_emit_cell_string(e, p->reading[i].chars);
			nicfit_emit_cell_string(e, p->reading[i].meaning);
		}
		nicfit_emit_table_end(e);
	} else {
		nicfit_emit_begin_array(e, "reading");
		nicfit_emit_end_array(e);
	}
	if (p->nslots)
		nicfit_emit_printf(e, "\nIn a server:\n");
	render_slots(e, p);
	nicfit_emit_begin_array(e, "notes");
	if (p->nnotes)
		nicfit_emit_printf(e, "\nNotes:\n");
	for (i = 0; i < p->nnotes; i++)
		nicfit_emit_field_string(e, NULL, "  - %s\n", p->notes[i]);
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
}
