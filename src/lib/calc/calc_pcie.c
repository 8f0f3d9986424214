/*
 * calc_pcie.c - `calc pcie` (what a PCIe link carries each way) and
 * `calc nic` (a card in its slot: its ports against its PCIe link), and
 * the card resolver both `calc nic` and the planner use. The formulas are
 * nicfit_pcie_calc() and nicfit_calc_nic(); this file reads the settings
 * and shows the result.
 */
#include <stdio.h>
#include <string.h>

#include "nicfit/partno.h"
#include "nicfit/pcie.h"
#include "nicfit/perf.h"
#include "nicfit/units.h"
#include "calc/calc_int.h"

/*
 * `calc nic` names the port capacity its slot or card leaves idle when
 * there is at least half a Gb/s of it: the line prints whole Gb/s, and
 * less would print as 0.
 */
#define IDLE_SHOWN_GBPS 0.5

/* ---- pcie ---------------------------------------------------------------- */

static void emit_pcie(struct nicfit_emit *e, const char *key, const struct nicfit_pcie_result *p)
{
	if (key)
		nicfit_emit_begin_object(e, key);
	nicfit_emit_int(e, "gen", p->gen);
	nicfit_emit_int(e, "width", p->width);
	nicfit_emit_number(e, "gts", p->gts);
	nicfit_emit_number(e, "encoding", p->encoding);
	nicfit_emit_number(e, "signal_gbps", p->signal_gbps);
	nicfit_emit_number(e, "raw_gbps", p->raw_gbps);
	nicfit_emit_number(e, "write_gbps", p->write_gbps);
	nicfit_emit_number(e, "read_gbps", p->read_gbps);
	nicfit_emit_number(e, "effective_gbps", p->effective_gbps);
	nicfit_emit_number(e, "effective_gBps", p->effective_gbps / 8);
	if (key)
		nicfit_emit_end_object(e);
}

int nicfit__calc_run_pcie(struct req *r, struct nicfit_emit *e)
{
	static const char *const known[] = { "gen", "width", "slot", "mps", "assume", NULL };
	struct nicfit_pcie_params pp;
	struct nicfit_pcie_result res;
	struct nicfit_param_set tabs[1] = { { nicfit_pcie_param_table, nicfit_pcie_param_count, &pp } };
	const char *slot = nicfit_spec_get(r->s, "slot");
	long gen = 0, width = 0;
	double mps;
	int rc, g, w;

	nicfit_pcie_params_default(&pp);
	if (slot) {
		rc = nicfit__calc_fix(r, nicfit_parse_pcie(slot, nicfit__calc_optname(r, "slot"), &g, &w, r->err));
		if (rc)
			return rc;
		gen = g;
		width = w ? w : 16;
	}
	if ((rc = nicfit__calc_get_long(r, "gen", gen, 1, 6, &gen)) ||
	    (rc = nicfit__calc_get_long(r, "width", width ? width : 16, 1, 32, &width)) ||
	    (rc = nicfit__calc_get_double(r, "mps", pp.mps, 128, 4096, &mps)))
		return rc;
	pp.mps = mps;
	if (!gen)
		return nicfit__calc_need(r, "gen", &slot);
	if ((rc = nicfit__calc_apply_assume(r, tabs, 1)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	rc = nicfit__calc_fix(r, nicfit_pcie_calc((int)gen, (int)width, &pp, &res, r->err));
	if (rc)
		return rc;
	nicfit__calc_header(e, "pcie");
	emit_pcie(e, NULL, &res);
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		nicfit__calc_md_pcie(e, &res, &pp);
		return nicfit__calc_done(e, tabs, 1);
	}
	nicfit_emit_printf(e, "PCIe Gen%d x%d: %g GT/s x %d lanes\n", res.gen, res.width,
			   res.gts, res.width);
	nicfit_emit_printf(e, "  raw        %7.1f Gb/s per direction (%g Gb/s signalling x %s line code)\n",
			   res.raw_gbps, res.signal_gbps,
			   res.gen <= 2 ? "8b/10b" : res.gen <= 5 ? "128b/130b" : "FLIT 236/256");
	nicfit_emit_printf(e, "  writes     %7.1f Gb/s (%.1f%% of raw: %g B payload per TLP)\n",
			   res.write_gbps, res.write_eff * 100, pp.mps);
	nicfit_emit_printf(e, "  reads      %7.1f Gb/s (%.1f%% of raw: %g B per completion)\n",
			   res.read_gbps, res.read_eff * 100, pp.read_cpl);
	nicfit_emit_printf(e, "  effective  %7.1f Gb/s = %.2f GB/s each way: what a NIC that sends and\n"
			      "             receives at once can move (the lesser of the two paths)\n",
			   res.effective_gbps, res.effective_gbps / 8);
	nicfit__calc_assumptions(e, tabs, 1);
	nicfit_emit_end_object(e);
	return 0;
}

/* ---- nic ----------------------------------------------------------------- */

int nicfit_card_resolve(const struct nicfit_catalog *cat, const char *part,
			struct nicfit_card *card, const struct nicfit_nic **nic,
			struct nicfit_error *err)
{
	const struct nicfit_nic *n = cat ? nicfit_catalog_find_nic(cat, part, "--part", NULL) : NULL;
	struct nicfit_error derr;
	struct nicfit_part p;
	int rc;

	if (nic)
		*nic = n;
	memset(card, 0, sizeof(*card));
	if (n) {
		card->pcie_gen = n->pcie_gen;
		/* a Socket Direct card: its links, each of its own lanes, in slots alike */
		card->pcie_links = n->socket_direct ? n->sd_links : 1;
		card->pcie_width = n->socket_direct && n->sd_width > 0 ? n->sd_width :
				   n->pcie_width;
		card->ports = n->ports;
		card->port_gbps = n->port_gbps;
		card->ib_rate = n->ib_rate;
		card->rdma = n->rdma;
		card->vpi = n->vpi;
		card->card_gbps = n->card_gbps;
		return 0;
	}
	/* not a catalog id or part: any part number the decoder reads */
	nicfit_error_clear(&derr);
	rc = nicfit_decode(cat, part, &p, &derr);
	if (rc) {
		snprintf(derr.input, sizeof(derr.input), "--part");
		if (err && err->code == NICFIT_OK)
			*err = derr;
		return rc;
	}
	if (p.kind == NICFIT_PART_OTHER)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--part", 0, 0,
				       "'%.64s' is a catalog %s, not a network card", part,
				       nicfit_kind_name(p.catalog_kind));
	if (p.catalog_id[0] && cat && nic)
		*nic = nicfit_catalog_find_nic(cat, p.catalog_id, "--part", NULL);
	if (nicfit_part_card(&p, card))
		return nicfit_error_at(err, NICFIT_E_DATA, "--part", 0, 0,
				       "'%.64s' decodes as %s, but its ports, speed or PCIe "
				       "interface are unknown", part, p.summary);
	return 0;
}

/*
 * calc nic in text. A Socket Direct card is read as it is installed: the
 * main card and the auxiliary card each in a slot like --slot, one per
 * CPU socket, their two links counted together as plan and decode count
 * them; the output says so, since one x16 link alone carries half.
 */
static void text_nic(struct nicfit_emit *e, const struct nicfit_nic_fit *res,
		     const struct nicfit_card *card, const struct nicfit_nic *nic, const char *part,
		     int g, int w, enum nicfit_proto proto)
{
	int sd = res->links > 1;
	char where[64];

	if (sd)
		snprintf(where, sizeof(where), "with both links in Gen%d x%d slots", g, w);
	else
		snprintf(where, sizeof(where), "in a Gen%d x%d slot", g, w);
	if (nic)
		nicfit_emit_printf(e, "%s (%s) %s\n", nic->part, nic->e.name, where);
	else
		nicfit_emit_printf(e, "%s %s (not in the catalog: the card's facts\n"
				      "  come from the part-number rules; see 'nicfit decode %s')\n",
				   part, where, part);
	if (sd)
		nicfit_emit_printf(e, "  card       %d x %g Gb/s, Socket Direct: %d PCIe Gen%d x%d "
				      "links; each trains at Gen%d x%d\n", card->ports,
				   card->port_gbps, res->links, card->pcie_gen, card->pcie_width,
				   res->link_gen, res->link_width / res->links);
	else
		nicfit_emit_printf(e, "  card       %d x %g Gb/s, PCIe Gen%d x%d; the link trains at "
				      "Gen%d x%d\n", card->ports, card->port_gbps, card->pcie_gen,
				   card->pcie_width, res->link_gen, res->link_width);
	nicfit_emit_printf(e, "  ports      %d x %.1f Gb/s %s goodput = %.1f Gb/s\n",
			   res->ports_used, res->port.goodput_gbps, nicfit_proto_name(proto),
			   res->ports_gbps);
	if (sd)
		nicfit_emit_printf(e, "  PCIe       %.1f Gb/s each way (%d x Gen%d x%d: %d x %.1f; %.1f raw)\n",
				   res->pcie_gbps, res->links, res->link_gen, res->link_width / res->links,
				   res->links, res->pcie_gbps / res->links, res->pcie.raw_gbps);
	else
		nicfit_emit_printf(e, "  PCIe       %.1f Gb/s each way (Gen%d x%d: %.1f raw)\n",
				   res->pcie_gbps, res->link_gen, res->link_width, res->pcie.raw_gbps);
	nicfit_emit_printf(e, "  effective  %.1f Gb/s (%.1f per port), limited by %s\n",
			   res->effective_gbps, res->per_port_gbps,
			   !strcmp(res->limited_by, "pcie") ? (sd ? "the PCIe links" : "the PCIe link") :
			   !strcmp(res->limited_by, "card") ? "the card itself (its total across ports)" :
			   "the ports");
	if (res->idle_gbps > IDLE_SHOWN_GBPS)
		nicfit_emit_printf(e, "  %.0f Gb/s of port capacity cannot be used: %s\n", res->idle_gbps,
				   !strcmp(res->limited_by, "card") ? "the card's own total is lower" :
				   sd ? "the slots cannot feed it" : "the slot cannot feed it");
	if (sd)
		nicfit_emit_printf(e, "  --slot is each link's slot: the main card's and the auxiliary card's,\n"
				      "  one per CPU socket (with one link alone the card gets half the PCIe)\n");
	else if (nic && nic->sd_option && !strcmp(res->limited_by, "pcie"))
		nicfit_emit_printf(e, "  Socket Direct: with its auxiliary PCIe kit the card takes a second x%d\n"
				      "  link from the other CPU socket; give --slot twice to count both\n",
				   nic->sd_width > 0 ? nic->sd_width : nic->pcie_width);
}

/*
 * calc nic's slots: one --slot for a card in one slot (a Socket Direct
 * card's main and auxiliary cards each in a slot like it); two for a
 * card that spans two slots, or a ConnectX-8 with its Socket Direct
 * auxiliary kit (socket_direct_option), which then runs two x16 links,
 * one per socket (NVIDIA's DOCA notes: 800 Gb/s over two Gen5 x16
 * links, where one carries about 412). A second --slot is used or
 * refused, never dropped: refused for a card that takes one slot, and
 * when the two differ (nicfit counts a card's links alike). Sets *g, *w
 * and *sd (1 when the second slot turns on the option); 0 or an error.
 */
static int read_slots(struct req *r, const struct nicfit_catalog *cat, const char *part, int *g,
		      int *w, int *sd)
{
	const struct nicfit_nic *n = cat ? nicfit_catalog_find_nic(cat, part, NULL, NULL) : NULL;
	size_t k = nicfit_spec_count(r->s, "slot");
	const char *a = nicfit_spec_get_nth(r->s, "slot", 0);
	const char *b = k > 1 ? nicfit_spec_get_nth(r->s, "slot", 1) : NULL;
	int g2 = 0, w2 = 0, rc;

	*sd = 0;
	rc = nicfit__calc_fix(r, nicfit_parse_pcie(a, nicfit__calc_optname(r, "slot"), g, w, r->err));
	if (rc || !b)
		return rc;
	if (k > 2)
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
					      nicfit__calc_optname(r, "slot"), 0, 0,
					      "given %zu times: a card takes one slot, a Socket "
					      "Direct card two", k));
	rc = nicfit__calc_fix(r, nicfit_parse_pcie(b, nicfit__calc_optname(r, "slot"), &g2, &w2, r->err));
	if (rc)
		return rc;
	if (!n || !(n->socket_direct || n->sd_option))
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
					      nicfit__calc_optname(r, "slot"), 0, 0,
					      "given twice, but %.64s takes one slot (it is not a "
					      "Socket Direct card): give one --slot", n ? n->part : part));
	if (g2 != *g || (w2 ? w2 : 16) != (*w ? *w : 16))
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
					      nicfit__calc_optname(r, "slot"), 0, 0,
					      "the two --slot values differ (%s, %s): nicfit counts a "
					      "Socket Direct card's two links alike; give the slower "
					      "slot twice", a, b));
	*sd = n->sd_option && !n->socket_direct;
	return 0;
}

int nicfit__calc_run_nic(struct req *r, const struct nicfit_catalog *cat, struct nicfit_emit *e)
{
	static const char *const known[] = { "part", "slot", "ports", "proto", "assume", NULL };
	struct nicfit_pcie_params pp;
	struct nicfit_link_params lp;
	struct nicfit_nic_fit res;
	struct nicfit_card card;
	const struct nicfit_nic *nic = NULL;
	struct nicfit_param_set tabs[2] = { { nicfit_pcie_param_table, nicfit_pcie_param_count, &pp },
				{ nicfit_link_param_table, nicfit_link_param_count, &lp } };
	enum nicfit_proto proto;
	const char *part, *slot;
	long ports;
	int rc, g, w, sd;

	nicfit_pcie_params_default(&pp);
	nicfit_link_params_default(&lp);
	if ((rc = nicfit__calc_need(r, "part", &part)) || (rc = nicfit__calc_need(r, "slot", &slot)))
		return rc;
	if ((rc = read_slots(r, cat, part, &g, &w, &sd)))
		return rc;
	if (!w)
		w = 16;
	if ((rc = nicfit__calc_get_long(r, "ports", 0, 1, 8, &ports)) ||
	    (rc = nicfit__calc_get_proto(r, NICFIT_PROTO_ROCE, &proto)) ||
	    (rc = nicfit__calc_apply_assume(r, tabs, 2)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	rc = nicfit_card_resolve(cat, part, &card, &nic, r->err);
	if (rc)
		return rc;
	if (nic && nic->nport_modes) {
		/* ports that cannot all run at the top rate at once (Thor2: 2 x 200G or 1 x 400G) */
		int used = ports ? (int)ports : nic->ports;

		card.port_gbps = nicfit_nic_port_gbps(nic, used);
		if (!(card.port_gbps > 0))
			return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						nicfit__calc_optname(r, "ports"), 0, 0,
						"%s runs at most %d port%s at once", part,
						nic->ports, nic->ports == 1 ? "" : "s"));
	}
	if (sd) {
		/* the auxiliary kit: a second link of the card's width from the other socket */
		card.pcie_links = nic->sd_links;
		card.pcie_width = nic->sd_width > 0 ? nic->sd_width : nic->pcie_width;
	}
	if (!card.rdma && !nicfit_spec_get(r->s, "proto"))
		proto = NICFIT_PROTO_TCP; /* a card without RDMA carries TCP */
	if (!card.rdma && proto != NICFIT_PROTO_TCP)
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "proto"), 0, 0,
					      "%s has no RDMA: it carries TCP, not %s", part,
					      proto == NICFIT_PROTO_IB ? "InfiniBand" : "RoCE"));
	if (proto == NICFIT_PROTO_IB && !card.ib_rate)
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "proto"), 0, 0,
					      "%s has no InfiniBand ports (use roce or tcp)", part));
	rc = nicfit__calc_fix(r, nicfit_calc_nic(&card, g, w, (int)ports, proto, &pp, &lp, &res, r->err));
	if (rc)
		return rc;
	nicfit__calc_header(e, "nic");
	nicfit_emit_string(e, "part", nic ? nic->part : part);
	nicfit_emit_string(e, "name", nic ? nic->e.name : NULL);
	nicfit_emit_string(e, "card_from", nic ? "catalog" : "rule");
	nicfit_emit_stringf(e, "slot", "gen%dx%d", g, w);
	nicfit_emit_stringf(e, "link", "gen%dx%d", res.link_gen, res.link_width);
	nicfit_emit_int(e, "pcie_links", res.links);
	nicfit_emit_bool(e, "socket_direct", res.links > 1);
	nicfit_emit_int(e, "ports", res.ports_used);
	nicfit_emit_string(e, "proto", nicfit_proto_name(proto));
	nicfit_emit_number(e, "port_line_gbps", res.port.line_gbps);
	nicfit_emit_number(e, "port_gbps", res.port.goodput_gbps);
	nicfit_emit_number(e, "ports_gbps", res.ports_gbps);
	nicfit_emit_number(e, "pcie_gbps", res.pcie_gbps);
	nicfit_emit_number(e, "effective_gbps", res.effective_gbps);
	nicfit_emit_number(e, "per_port_gbps", res.per_port_gbps);
	nicfit_emit_string(e, "limited_by", res.limited_by);
	nicfit_emit_number(e, "idle_gbps", res.idle_gbps);
	emit_pcie(e, "pcie", &res.pcie);
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		nicfit__calc_md_nic(e, &res, &card, nic, part, g, w, proto);
		return nicfit__calc_done(e, tabs, 2);
	}
	text_nic(e, &res, &card, nic, part, g, w, proto);
	nicfit__calc_assumptions(e, tabs, 2);
	nicfit_emit_end_object(e);
	return 0;
}
