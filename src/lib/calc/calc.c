/*
 * calc.c - the eight calculators behind `nicfit calc` and /api/calc
 * (see nicfit/calc.h). Each reads its settings from a spec, calls the
 * formula in pcie/link/perf/llm, and renders the result with its
 * assumptions, so that every number shown can be traced.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/calc.h"
#include "nicfit/link.h"
#include "nicfit/llm.h"
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

const char *const nicfit_calc_names[] = {
	"pcie", "link", "nic", "load", "fit", "allreduce", "stream", "step", NULL
};

const char *nicfit__calc_optname(struct req *r, const char *key)
{
	return nicfit_reader_opt(&r->rd, key);
}

int nicfit__calc_fix(struct req *r, int rc)
{
	return nicfit_reader_fail(&r->rd, rc);
}

int nicfit__calc_need(struct req *r, const char *key, const char **out)
{
	return nicfit_reader_need(&r->rd, key, out);
}

int nicfit__calc_get_long(struct req *r, const char *key, long def, long min, long max, long *out)
{
	return nicfit_reader_long(&r->rd, key, def, min, max, out);
}

int nicfit__calc_get_double(struct req *r, const char *key, double def, double min, double max,
		      double *out)
{
	return nicfit_reader_double(&r->rd, key, def, min, max, out);
}

int nicfit__calc_get_speed(struct req *r, const char *key, int required, struct nicfit_speed *out)
{
	const char *v = nicfit_spec_get(r->s, key);

	memset(out, 0, sizeof(*out));
	if (!v)
		return required ? nicfit__calc_need(r, key, &v) : 0;
	return nicfit__calc_fix(r, nicfit_parse_speed(v, nicfit__calc_optname(r, key), out, r->err));
}

/*
 * --size in bytes, or as a parameter count ("70B", as help says) at
 * --precision (default bf16). The bytes of a count are worked out by
 * size_bytes() once the assumptions are applied: int4's depend on them.
 * A --precision beside a size in bytes is refused rather than ignored.
 */
static int get_size(struct req *r, const char *key, struct nicfit__calc_size *z)
{
	enum nicfit_size_kind kind;
	const char *v, *pv = nicfit_spec_get(r->s, "precision");
	int rc = nicfit__calc_need(r, key, &v);

	memset(z, 0, sizeof(*z));
	nicfit_llm_params_default(&z->lp);
	z->prec = NICFIT_PREC_BF16;
	if (rc)
		return rc;
	rc = nicfit__calc_fix(r, nicfit_parse_size(v, nicfit__calc_optname(r, key), &z->bytes, &kind,
						   r->err));
	if (rc)
		return rc;
	if (pv && (rc = nicfit__calc_fix(r, nicfit_precision_parse(pv, &z->prec, r->err))))
		return rc;
	if (kind == NICFIT_SIZE_BYTES) {
		if (pv)
			return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						      nicfit__calc_optname(r, "precision"), 0, 0,
						      "'%.32s' is a size in bytes; a precision applies "
						      "only to a parameter count such as 70B", v));
		return 0;
	}
	z->params = z->bytes;
	z->bytes = 0;
	return 0;
}

/* The tables a size adds to the assumptions: int4's group layout for a count in int4. */
static int size_tabs(struct nicfit__calc_size *z, struct nicfit_param_set *tab)
{
	if (!z->params || z->prec != NICFIT_PREC_INT4)
		return 0;
	tab->tab = nicfit_llm_param_table;
	tab->n = NICFIT__CALC_INT4_PARAMS;
	tab->obj = &z->lp;
	return 1;
}

static void size_bytes(struct nicfit__calc_size *z)
{
	if (!z->params)
		return;
	z->bits = nicfit_bits_per_param(z->prec, &z->lp);
	z->bytes = z->params * z->bits / 8;
}

const char *nicfit__calc_size_text(const struct nicfit__calc_size *z, char *out, size_t n)
{
	char b[32];

	nicfit_fmt_bytes(z->bytes, b, sizeof(b));
	if (z->params)
		snprintf(out, n, "%gB parameters x %g bits (%s) = %s", z->params / 1e9, z->bits,
			 nicfit_precision_name(z->prec), b);
	else
		snprintf(out, n, "%s", b);
	return out;
}

/* The size's fields: size_gb, and params, precision, bytes_per_param (null for bytes). */
static void emit_size(struct nicfit_emit *e, const struct nicfit__calc_size *z)
{
	nicfit_emit_number(e, "size_gb", z->bytes / 1e9);
	if (z->params) {
		nicfit_emit_number(e, "params", z->params);
		nicfit_emit_string(e, "precision", nicfit_precision_name(z->prec));
		nicfit_emit_number(e, "bytes_per_param", z->bits / 8);
	} else {
		nicfit_emit_null(e, "params");
		nicfit_emit_null(e, "precision");
		nicfit_emit_null(e, "bytes_per_param");
	}
}

int nicfit__calc_get_proto(struct req *r, enum nicfit_proto def, enum nicfit_proto *out)
{
	const char *v = nicfit_spec_get(r->s, "proto");

	*out = def;
	if (!v)
		return 0;
	nicfit__calc_optname(r, "proto"); /* an error points at this setting */
	return nicfit__calc_fix(r, nicfit_proto_parse(v, out, r->err));
}

int nicfit__calc_get_link(struct req *r, const char *key, int required, enum nicfit_proto eth_def,
			  struct nicfit_speed *sp, enum nicfit_proto *proto)
{
	struct nicfit_error why;
	const char *v, *pv;
	char popt[72];
	int rc;

	if ((rc = nicfit__calc_get_speed(r, key, required, sp)) ||
	    (rc = nicfit__calc_get_proto(r, sp->kind == NICFIT_SPEED_IB ? NICFIT_PROTO_IB : eth_def,
					 proto)))
		return rc;
	v = nicfit_spec_get(r->s, key);
	nicfit_error_clear(&why);
	if (!v || !nicfit_link_check(sp, *proto, &why))
		return 0;
	pv = nicfit_spec_get(r->s, "proto");
	snprintf(popt, sizeof(popt), "%s", nicfit__calc_optname(r, "proto"));
	/* the speed is what is wrong for the protocol: the error is the speed's */
	if (pv)
		rc = nicfit_error_at(r->err, why.code, nicfit__calc_optname(r, key), 0, 0,
				     "'%.32s' with %s %.16s: %s", v, popt, pv, why.msg);
	else
		rc = nicfit_error_at(r->err, why.code, nicfit__calc_optname(r, key), 0, 0,
				     "'%.32s': %s", v, why.msg);
	return nicfit__calc_fix(r, rc);
}

/* Apply every "assume" pair to whichever set knows its name. */
int nicfit__calc_apply_assume(struct req *r, const struct nicfit_param_set *sets, size_t nsets)
{
	size_t i, count = nicfit_spec_count(r->s, "assume");
	int rc;

	for (i = 0; i < count; i++) {
		rc = nicfit_param_assign_any(sets, nsets, nicfit_spec_get_nth(r->s, "assume", i),
					     nicfit__calc_optname(r, "assume"), r->err);
		if (rc)
			return nicfit__calc_fix(r, rc);
	}
	return 0;
}

int nicfit__calc_unused(struct req *r, const char *const *known)
{
	return nicfit_spec_check_unused(r->s, known, r->err);
}

void nicfit__calc_header(struct nicfit_emit *e, const char *name)
{
	char schema[64];

	snprintf(schema, sizeof(schema), "nicfit.calc.%s.v1", name);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", schema);
}

/* The assumptions as a Markdown table: JSON is never Markdown, so no values. */
static void md_assumptions(struct nicfit_emit *e, const struct nicfit_param_set *tabs, int ntabs)
{
	static const struct nicfit_column cols[] = {
		{ "name", "name", 0 }, { "value", "value", 1 }, { "meaning", "meaning", 0 },
	};
	char v[64];
	int t;

	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Assumptions");
	nicfit_emit_printf(e, "Change them with `--assume NAME=VALUE`.\n\n");
	nicfit_emit_table_begin(e, NULL, cols, 3);
	for (t = 0; t < ntabs; t++) {
		size_t i;

		for (i = 0; i < tabs[t].n; i++) {
			const struct nicfit_param *p = &tabs[t].tab[i];
			double x = nicfit_param_get(p, tabs[t].obj);

			snprintf(v, sizeof(v), "%g%s%s", x, p->unit[0] ? " " : "", p->unit);
			nicfit_emit_cell_string(e, p->name);
			nicfit_emit_cell_string(e, v);
			if (x != p->def) {
				char m[512];

				snprintf(m, sizeof(m), "%s (set by you)", p->text);
				nicfit_emit_cell_string(e, m);
			} else {
				nicfit_emit_cell_string(e, p->text);
			}
		}
	}
	nicfit_emit_table_end(e);
}

void nicfit__calc_assumptions(struct nicfit_emit *e, const struct nicfit_param_set *tabs, int ntabs)
{
	int t;

	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		md_assumptions(e, tabs, ntabs);
		return;
	}
	nicfit_emit_printf(e, "\nAssumptions (change with --assume NAME=VALUE):\n");
	nicfit_emit_begin_array(e, "assumptions");
	for (t = 0; t < ntabs; t++) {
		/* nested arrays would break the flat list: emit members inline */
		size_t i;

		for (i = 0; i < tabs[t].n; i++) {
			const struct nicfit_param *p = &tabs[t].tab[i];
			double v = nicfit_param_get(p, tabs[t].obj);
			int changed = v != p->def;

			nicfit_emit_begin_object(e, NULL);
			nicfit_emit_string(e, "name", p->name);
			nicfit_emit_number(e, "value", v);
			nicfit_emit_string(e, "unit", p->unit[0] ? p->unit : NULL);
			nicfit_emit_string(e, "meaning", p->text);
			nicfit_emit_string(e, "source", changed ? "set by the user" : p->source);
			nicfit_emit_end_object(e);
			nicfit_emit_printf(e, "  %-15s %g%s%s  %s%s\n", p->name, v,
					   p->unit[0] ? " " : "", p->unit, p->text,
					   changed ? " (set by you)" : "");
		}
	}
	nicfit_emit_end_array(e);
}

int nicfit__calc_done(struct nicfit_emit *e, const struct nicfit_param_set *tabs, int ntabs)
{
	nicfit__calc_assumptions(e, tabs, ntabs);
	nicfit_emit_end_object(e);
	return 0;
}

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

static int calc_pcie(struct req *r, struct nicfit_emit *e)
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

/* ---- link ---------------------------------------------------------------- */

static void emit_link(struct nicfit_emit *e, const char *key, const struct nicfit_link_result *l)
{
	if (key)
		nicfit_emit_begin_object(e, key);
	nicfit_emit_string(e, "proto", nicfit_proto_name(l->proto));
	if (l->ib_name[0]) {
		nicfit_emit_stringf(e, "ib_rate", "%dx %s", l->ib_lanes, l->ib_name);
	} else {
		nicfit_emit_null(e, "ib_rate");
	}
	nicfit_emit_number(e, "line_gbps", l->line_gbps);
	nicfit_emit_number(e, "payload_bytes", l->payload_bytes);
	nicfit_emit_number(e, "overhead_bytes", l->overhead_bytes);
	nicfit_emit_number(e, "efficiency", l->efficiency);
	nicfit_emit_number(e, "goodput_gbps", l->goodput_gbps);
	nicfit_emit_number(e, "goodput_gBps", l->goodput_gbps / 8);
	if (key)
		nicfit_emit_end_object(e);
}

static const char *proto_long(enum nicfit_proto p)
{
	switch (p) {
	case NICFIT_PROTO_TCP: return "TCP/IPv4 over Ethernet";
	case NICFIT_PROTO_ROCE: return "RoCE v2 (RDMA over UDP/IPv4/Ethernet)";
	case NICFIT_PROTO_IB: return "InfiniBand RDMA";
	}
	return "?";
}

static int calc_link(struct req *r, struct nicfit_emit *e)
{
	static const char *const known[] = { "speed", "proto", "mtu", "assume", NULL };
	struct nicfit_link_params lp;
	struct nicfit_link_result res;
	struct nicfit_speed sp;
	struct nicfit_param_set tabs[1] = { { nicfit_link_param_table, nicfit_link_param_count, &lp } };
	enum nicfit_proto proto;
	double mtu;
	int rc;

	nicfit_link_params_default(&lp);
	if ((rc = nicfit__calc_get_link(r, "speed", 1, NICFIT_PROTO_TCP, &sp, &proto)) ||
	    (rc = nicfit__calc_get_double(r, "mtu", -1, 256, 9216, &mtu)) ||
	    (rc = nicfit__calc_apply_assume(r, tabs, 1)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	if (mtu > 0) {
		if (proto == NICFIT_PROTO_TCP) {
			lp.mtu = mtu;
		} else if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096) {
			return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "mtu"), 0, 0,
						      "RDMA path MTU must be 256, 512, 1024, 2048 or 4096"));
		} else {
			lp.rdma_mtu = mtu;
		}
	}
	rc = nicfit__calc_fix(r, nicfit_link_calc(&sp, proto, &lp, &res, r->err));
	if (rc)
		return rc;
	nicfit__calc_header(e, "link");
	emit_link(e, NULL, &res);
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		nicfit__calc_md_link(e, &res);
		return nicfit__calc_done(e, tabs, 1);
	}
	if (res.ib_name[0])
		nicfit_emit_printf(e, "%dx %s InfiniBand: %g Gb/s data rate\n", res.ib_lanes,
				   res.ib_name, res.line_gbps);
	else
		nicfit_emit_printf(e, "%g Gb/s Ethernet carrying %s\n", res.line_gbps,
				   proto_long(proto));
	nicfit_emit_printf(e, "  per packet  %g B payload + %g B headers, trailers and gaps (%.2f%%)\n",
			   res.payload_bytes, res.overhead_bytes, res.efficiency * 100);
	nicfit_emit_printf(e, "  goodput     %.2f Gb/s = %.3f GB/s per direction\n",
			   res.goodput_gbps, res.goodput_gbps / 8);
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
}

static int calc_nic(struct req *r, const struct nicfit_catalog *cat, struct nicfit_emit *e)
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
	int rc, g, w;

	nicfit_pcie_params_default(&pp);
	nicfit_link_params_default(&lp);
	if ((rc = nicfit__calc_need(r, "part", &part)) || (rc = nicfit__calc_need(r, "slot", &slot)))
		return rc;
	rc = nicfit__calc_fix(r, nicfit_parse_pcie(slot, nicfit__calc_optname(r, "slot"), &g, &w, r->err));
	if (rc)
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

/* ---- load ---------------------------------------------------------------- */

/* A size given in parameters: how it became bytes, and how to change that. */
static void text_size(struct nicfit_emit *e, const struct nicfit__calc_size *z, const char *what)
{
	char t[96];

	if (z->params)
		nicfit_emit_printf(e, "  size        %s: %s (set with --precision)\n", what,
				   nicfit__calc_size_text(z, t, sizeof(t)));
}

static int calc_load(struct req *r, struct nicfit_emit *e)
{
	static const char *const known[] = { "size", "precision", "link", "storage_gbps", "proto",
		"mtu", "assume", NULL };
	struct nicfit_link_params lp;
	struct nicfit_load res;
	struct nicfit_speed sp;
	struct nicfit__calc_size z;
	struct nicfit_param_set tabs[2] = { { nicfit_link_param_table, nicfit_link_param_count, &lp } };
	enum nicfit_proto proto;
	double bytes, storage, mtu;
	char b1[32], b2[32];
	int rc, ntabs;

	nicfit_link_params_default(&lp);
	if ((rc = get_size(r, "size", &z)))
		return rc;
	ntabs = 1 + size_tabs(&z, &tabs[1]);
	if ((rc = nicfit__calc_get_link(r, "link", 1, NICFIT_PROTO_TCP, &sp, &proto)) ||
	    (rc = nicfit__calc_get_double(r, "storage_gbps", 0, 0, 100000, &storage)) ||
	    (rc = nicfit__calc_get_double(r, "mtu", -1, 576, 9216, &mtu)) ||
	    (rc = nicfit__calc_apply_assume(r, tabs, (size_t)ntabs)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	size_bytes(&z);
	bytes = z.bytes;
	if (mtu > 0)
		lp.mtu = mtu;
	rc = nicfit__calc_fix(r, nicfit_calc_load(bytes, &sp, proto, storage, &lp, &res, r->err));
	if (rc)
		return rc;
	nicfit__calc_header(e, "load");
	emit_size(e, &z);
	nicfit_emit_number(e, "seconds", res.seconds);
	nicfit_emit_string(e, "bottleneck", res.bottleneck);
	nicfit_emit_number(e, "rate_gbps", res.rate_gbps);
	nicfit_emit_number(e, "rate_gBps", res.rate_gbps / 8);
	nicfit_emit_number(e, "network_gbps", res.network_gbps);
	if (storage > 0)
		nicfit_emit_number(e, "storage_gbps", storage);
	else
		nicfit_emit_null(e, "storage_gbps");
	emit_link(e, "link", &res.link);
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		nicfit__calc_md_load(e, &z, &res, storage);
		return nicfit__calc_done(e, tabs, ntabs);
	}
	nicfit_emit_printf(e, "%s over %g Gb/s %s: %s\n", nicfit_fmt_bytes(bytes, b1, sizeof(b1)),
			   res.link.line_gbps, nicfit_proto_name(proto),
			   nicfit_fmt_seconds(res.seconds, b2, sizeof(b2)));
	text_size(e, &z, "weights");
	nicfit_emit_printf(e, "  rate        %.2f Gb/s = %.3f GB/s, limited by the %s\n",
			   res.rate_gbps, res.rate_gbps / 8, res.bottleneck);
	nicfit_emit_printf(e, "  network     %.2f Gb/s goodput (%.2f%% of the line rate)\n",
			   res.network_gbps, res.link.efficiency * 100);
	if (storage > 0)
		nicfit_emit_printf(e, "  storage     %.2f Gb/s\n", storage);
	else
		nicfit_emit_printf(e, "  storage     assumed to keep up (set --storage-gbps; NFS without\n"
				      "              tuned readahead or a single-threaded loader is often slower)\n");
	nicfit__calc_assumptions(e, tabs, ntabs);
	nicfit_emit_end_object(e);
	return 0;
}

/* ---- fit ----------------------------------------------------------------- */

static int parse_gpus(struct req *r, const struct nicfit_catalog *cat, const char *v,
		      int *count, const struct nicfit_gpu **gpu, double *mem_gib)
{
	const char *x = strchr(v, 'x');
	char name[72];
	long n = 1;
	int rc;

	if (!x)
		x = strchr(v, 'X');
	if (x && x != v) {
		char num[24];
		size_t len = (size_t)(x - v);

		if (len >= sizeof(num))
			len = sizeof(num) - 1;
		memcpy(num, v, len);
		num[len] = '\0';
		rc = nicfit__calc_fix(r, nicfit_parse_long(num, nicfit__calc_optname(r, "gpus"), 1, 100000, &n, r->err));
		if (rc)
			return rc;
		snprintf(name, sizeof(name), "%s", x + 1);
	} else {
		snprintf(name, sizeof(name), "%s", v);
	}
	*count = (int)n;
	*gpu = NULL;
	/* "2x48GiB" names memory instead of a model */
	if (name[0] >= '0' && name[0] <= '9') {
		enum nicfit_size_kind kind;
		double bytes;

		rc = nicfit__calc_fix(r, nicfit_parse_size(name, nicfit__calc_optname(r, "gpus"), &bytes, &kind, r->err));
		if (rc)
			return rc;
		*mem_gib = bytes / 1073741824.0;
		return 0;
	}
	if (!cat)
		return nicfit_error_set(r->err, NICFIT_E_INTERNAL, "no catalog");
	*gpu = nicfit_catalog_find_gpu(cat, name, nicfit__calc_optname(r, "gpus"), r->err);
	if (!*gpu)
		return r->err ? r->err->code : NICFIT_E_NOTFOUND;
	*mem_gib = (*gpu)->memory_gib;
	return 0;
}

static int calc_fit(struct req *r, const struct nicfit_catalog *cat, struct nicfit_emit *e)
{
	static const char *const known[] = { "model", "params", "precision", "gpus", "context",
		"concurrency", "gpus_per_node", "assume", NULL };
	struct nicfit_llm_params lp;
	struct nicfit_layout lay;
	struct nicfit_fit res;
	struct nicfit_arch arch;
	struct nicfit_param_set tabs[1] = { { nicfit_llm_param_table, nicfit_llm_param_count, &lp } };
	const struct nicfit_model *model = NULL;
	const struct nicfit_gpu *gpu = NULL;
	enum nicfit_precision prec = NICFIT_PREC_BF16;
	const char *mv = nicfit_spec_get(r->s, "model"), *pv = nicfit_spec_get(r->s, "params");
	const char *prv = nicfit_spec_get(r->s, "precision"), *gv;
	long context, conc, gpn;
	double mem = 0;
	int rc, ngpu = 1;
	char b[32];

	nicfit_llm_params_default(&lp);
	memset(&arch, 0, sizeof(arch));
	if (!mv && !pv)
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, r->s->input, 0, 0,
					      "give %s or %s", nicfit__calc_optname(r, "model"),
					      r->s->from_data ? "params" : "--params"));
	if (mv) {
		model = nicfit_catalog_find_model(cat, mv, nicfit__calc_optname(r, "model"), r->err);
		if (!model)
			return r->err ? r->err->code : NICFIT_E_NOTFOUND;
		arch = model->arch;
	}
	if (pv) {
		enum nicfit_size_kind kind;
		double v;

		rc = nicfit__calc_fix(r, nicfit_parse_size(pv, nicfit__calc_optname(r, "params"), &v, &kind, r->err));
		if (rc)
			return rc;
		if (kind != NICFIT_SIZE_PARAMS)
			return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "params"), 0, 0,
						      "'%s' is a size in bytes; give a parameter count such as 70B", pv));
		arch.params = v;
	}
	if (prv && (rc = nicfit__calc_fix(r, nicfit_precision_parse(prv, &prec, r->err))))
		return rc;
	if ((rc = nicfit__calc_need(r, "gpus", &gv)) || (rc = parse_gpus(r, cat, gv, &ngpu, &gpu, &mem)) ||
	    (rc = nicfit__calc_get_long(r, "context", 4096, 0, 100000000, &context)) ||
	    (rc = nicfit__calc_get_long(r, "concurrency", 1, 0, 100000000, &conc)) ||
	    (rc = nicfit__calc_get_long(r, "gpus_per_node", nicfit_gpus_per_node(gpu), 1, 1024, &gpn)) ||
	    (rc = nicfit__calc_apply_assume(r, tabs, 1)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	rc = nicfit__calc_fix(r, nicfit_calc_fit(&arch, prec, context, conc, ngpu, mem, &lp, &res, r->err));
	if (rc)
		return rc;
	/* a count no layout can take (beyond a million GPUs) leaves the layout null */
	if (nicfit_layout_pick(&arch, model ? model->experts : 0, res.gpus_needed, (int)gpn,
			       gpu ? gpu->nvlink_domain : 0, &lay, NULL))
		memset(&lay, 0, sizeof(lay));
	nicfit__calc_header(e, "fit");
	nicfit_emit_string(e, "model", model ? model->e.id : NULL);
	nicfit_emit_number(e, "params", arch.params);
	nicfit_emit_string(e, "precision", nicfit_precision_name(prec));
	nicfit_emit_number(e, "bits_per_param", res.bits_per_param);
	nicfit_emit_number(e, "weights_gb", res.weights_gb);
	nicfit_emit_number(e, "kv_bytes_per_token", res.kv_bytes_per_token);
	nicfit_emit_int(e, "context", context);
	nicfit_emit_int(e, "concurrency", conc);
	nicfit_emit_number(e, "kv_cache_gb", res.kv_cache_gb);
	nicfit_emit_number(e, "total_gb", res.total_gb);
	nicfit_emit_int(e, "gpus", ngpu);
	nicfit_emit_string(e, "gpu", gpu ? gpu->e.id : NULL);
	nicfit_emit_number(e, "gpu_memory_gb", res.gpu_gb);
	nicfit_emit_number(e, "capacity_gb", res.capacity_gb);
	nicfit_emit_bool(e, "fits", res.fits);
	nicfit_emit_int(e, "gpus_needed", res.gpus_needed);
	if (!lay.gpus) {
		nicfit_emit_null(e, "layout");
	} else {
		nicfit_emit_begin_object(e, "layout");
		nicfit_emit_int(e, "tp", lay.tp);
		nicfit_emit_int(e, "pp", lay.pp);
		nicfit_emit_int(e, "ep", lay.ep);
		nicfit_emit_int(e, "gpus", lay.gpus);
		nicfit_emit_int(e, "nodes", lay.nodes);
		nicfit_emit_int(e, "gpus_per_node", gpn);
		nicfit_emit_string(e, "name", lay.name);
		nicfit_emit_end_object(e);
	}
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		struct nicfit__fit_md f = {
			.what = model ? model->e.name : b,
			.gpu = gpu ? gpu->e.name : "GPU", .prec = prec, .params = arch.params,
			.context = context, .concurrency = conc, .ngpu = ngpu,
			.gpu_util = lp.gpu_util, .res = &res, .lay = &lay,
		};

		if (!model)
			snprintf(b, sizeof(b), "%gB parameters", arch.params / 1e9);
		nicfit__calc_md_fit(e, &f);
		return nicfit__calc_done(e, tabs, 1);
	}
	nicfit_emit_printf(e, "%s at %s on %d x %s: %s\n",
			   model ? model->e.name : nicfit_fmt_bytes(arch.params, b, sizeof(b)),
			   nicfit_precision_name(prec), ngpu,
			   gpu ? gpu->e.name : "GPU", res.fits ? "fits" : "does not fit");
	nicfit_emit_printf(e, "  weights    %7.1f GB  (%.2fe9 parameters x %.2f bits)\n",
			   res.weights_gb, arch.params / 1e9, res.bits_per_param);
	if (res.kv_known)
		nicfit_emit_printf(e, "  KV cache   %7.1f GB  (%.0f B/token x %ld tokens x %ld requests)\n",
				   res.kv_cache_gb, res.kv_bytes_per_token, context, conc);
	else
		nicfit_emit_printf(e, "  KV cache   unknown (give --model for the layer and head counts)\n");
	nicfit_emit_printf(e, "  total      %7.1f GB\n", res.total_gb);
	nicfit_emit_printf(e, "  capacity   %7.1f GB  (%d x %.1f GB x %.0f%% usable)\n",
			   res.capacity_gb, ngpu, res.gpu_gb, lp.gpu_util * 100);
	nicfit_emit_printf(e, "  needs      %d GPU%s of this kind\n", res.gpus_needed,
			   res.gpus_needed == 1 ? "" : "s");
	if (lay.gpus > 1 && arch.heads > 0)
		nicfit_emit_printf(e, "  layout     %s: %d GPUs (tensor parallel divides the %d "
				      "attention and %d KV heads%s; pipeline stages across nodes of %ld)\n",
				   lay.name, lay.gpus, arch.heads, arch.kv_heads,
				   gpu && gpu->nvlink_domain ? " inside the NVLink domain" : "", gpn);
	else if (lay.gpus > 1)
		nicfit_emit_printf(e, "  layout     %s: %d GPUs (the heads are unknown: tensor parallel "
				      "in powers of two inside nodes of %ld; give --model)\n",
				   lay.name, lay.gpus, gpn);
	nicfit__calc_assumptions(e, tabs, 1);
	nicfit_emit_end_object(e);
	return 0;
}

/* ---- allreduce ----------------------------------------------------------- */

/* A yes/no setting: true, yes, 1 or false, no, 0. */
static int get_bool(struct req *r, const char *key, int *out)
{
	const char *v = nicfit_spec_get(r->s, key);

	*out = 0;
	if (!v)
		return 0;
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcmp(v, "1")) {
		*out = 1;
		return 0;
	}
	if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcmp(v, "0"))
		return 0;
	return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, key), 0, 0,
				      "'%.32s': use true or false", v));
}

static const char *algo_long(const char *a)
{
	return !strcmp(a, "tree") ? "Tree" : !strcmp(a, "sharp") ? "SHARP (in-network)" : "Ring";
}

static int calc_allreduce(struct req *r, struct nicfit_emit *e)
{
	static const char *const known[] = { "size", "precision", "nodes", "link", "proto",
		"nics_per_node", "mtu", "sharp", "assume", NULL };
	struct nicfit_link_params lp;
	struct nicfit_allreduce_params ap;
	struct nicfit_allreduce res;
	struct nicfit_speed sp;
	struct nicfit__calc_size z;
	struct nicfit_param_set tabs[3] = { { nicfit_link_param_table, nicfit_link_param_count, &lp },
				{ nicfit_allreduce_param_table, nicfit_allreduce_param_count, &ap } };
	enum nicfit_proto proto;
	double bytes, mtu;
	long nodes, nics;
	char b1[32], b2[32], b3[32];
	int rc, sharp, ntabs;

	nicfit_link_params_default(&lp);
	nicfit_allreduce_params_default(&ap);
	if ((rc = get_size(r, "size", &z)))
		return rc;
	ntabs = 2 + size_tabs(&z, &tabs[2]);
	if ((rc = nicfit__calc_get_long(r, "nodes", 2, 2, 1000000, &nodes)) ||
	    (rc = nicfit__calc_get_link(r, "link", 1, NICFIT_PROTO_ROCE, &sp, &proto)) ||
	    (rc = nicfit__calc_get_long(r, "nics_per_node", 1, 1, 64, &nics)) ||
	    (rc = nicfit__calc_get_double(r, "mtu", -1, 256, 9216, &mtu)) ||
	    (rc = get_bool(r, "sharp", &sharp)) ||
	    (rc = nicfit__calc_apply_assume(r, tabs, (size_t)ntabs)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	size_bytes(&z);
	bytes = z.bytes;
	if (sharp && proto != NICFIT_PROTO_IB)
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "sharp"), 0, 0,
					      "SHARP reduces in InfiniBand switches: use --proto ib"));
	ap.in_network = sharp;
	if (mtu > 0) {
		if (proto == NICFIT_PROTO_TCP)
			lp.mtu = mtu;
		else
			lp.rdma_mtu = mtu;
	}
	rc = nicfit__calc_fix(r, nicfit_calc_allreduce(bytes, (int)nodes, (int)nics, &sp, proto, 0, &lp, &ap,
					  &res, r->err));
	if (rc)
		return rc;
	nicfit__calc_header(e, "allreduce");
	emit_size(e, &z);
	nicfit_emit_int(e, "nodes", nodes);
	nicfit_emit_int(e, "nics_per_node", nics);
	nicfit_emit_string(e, "algorithm", res.algorithm);
	nicfit_emit_number(e, "factor", res.factor);
	nicfit_emit_number(e, "bytes_per_node_gb", res.bytes_per_node / 1e9);
	nicfit_emit_number(e, "node_gbps", res.node_gbps);
	nicfit_emit_number(e, "seconds", res.seconds);
	nicfit_emit_number(e, "latency_s", res.latency_s);
	nicfit_emit_number(e, "ring_s", res.ring_s);
	nicfit_emit_number(e, "tree_s", res.tree_s);
	if (sharp)
		nicfit_emit_number(e, "sharp_s", res.sharp_s);
	else
		nicfit_emit_null(e, "sharp_s");
	nicfit_emit_number(e, "algbw_gbps", res.algbw_gbps);
	nicfit_emit_number(e, "busbw_gbps", res.busbw_gbps);
	emit_link(e, "link", &res.link);
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		nicfit__calc_md_allreduce(e, &z, &res, sharp);
		return nicfit__calc_done(e, tabs, ntabs);
	}
	nicfit_emit_printf(e, "%s all-reduce of %s across %ld nodes: %s\n", algo_long(res.algorithm),
			   nicfit_fmt_bytes(bytes, b1, sizeof(b1)), nodes,
			   nicfit_fmt_seconds(res.seconds, b2, sizeof(b2)));
	text_size(e, &z, "gradients");
	nicfit_emit_printf(e, "  each node sends 2(n-1)/n = %.3f x the buffer = %s in a ring\n",
			   res.factor, nicfit_fmt_bytes(res.bytes_per_node, b1, sizeof(b1)));
	nicfit_emit_printf(e, "  at %.1f Gb/s per node (%ld x %.1f Gb/s %s goodput)\n",
			   res.node_gbps, nics, res.link.goodput_gbps, nicfit_proto_name(proto));
	nicfit_emit_printf(e, "  ring %s (latency %s: 2(n-1) steps), tree %s (2 log2(n) steps)",
			   nicfit_fmt_seconds(res.ring_s, b1, sizeof(b1)),
			   nicfit_fmt_seconds(res.ring_latency_s, b2, sizeof(b2)),
			   nicfit_fmt_seconds(res.tree_s, b3, sizeof(b3)));
	if (sharp)
		nicfit_emit_printf(e, ", SHARP %s", nicfit_fmt_seconds(res.sharp_s, b1, sizeof(b1)));
	nicfit_emit_printf(e, ":\n  NCCL's tuning model picks the least: %s%s\n", res.algorithm,
			   res.latency_s > res.seconds / 2 ? " (the latency term dominates)" : "");
	nicfit_emit_printf(e, "  busbw %.1f Gb/s, algbw %.1f Gb/s (nccl-tests definitions)\n",
			   res.busbw_gbps, res.algbw_gbps);
	nicfit__calc_assumptions(e, tabs, ntabs);
	nicfit_emit_end_object(e);
	return 0;
}

/* ---- stream -------------------------------------------------------------- */

static int calc_stream(struct req *r, struct nicfit_emit *e)
{
	static const char *const known[] = { "tokens_per_s", "concurrency", "link", "assume", NULL };
	struct nicfit_stream_params sp;
	struct nicfit_stream res;
	struct nicfit_speed link;
	struct nicfit_param_set tabs[1] = { { nicfit_stream_param_table, nicfit_stream_param_count, &sp } };
	double tps;
	long conc;
	int rc;

	nicfit_stream_params_default(&sp);
	if ((rc = nicfit__calc_get_double(r, "tokens_per_s", 30, 0.001, 1e6, &tps)) ||
	    (rc = nicfit__calc_get_long(r, "concurrency", 1, 1, 100000000, &conc)) ||
	    (rc = nicfit__calc_get_speed(r, "link", 0, &link)) ||
	    (rc = nicfit__calc_apply_assume(r, tabs, 1)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	rc = nicfit__calc_fix(r, nicfit_calc_stream(tps, conc, link.gbps, &sp, &res, r->err));
	if (rc)
		return rc;
	nicfit__calc_header(e, "stream");
	nicfit_emit_number(e, "tokens_per_s", tps);
	nicfit_emit_int(e, "concurrency", conc);
	nicfit_emit_number(e, "bytes_per_token", res.bytes_per_token);
	nicfit_emit_number(e, "per_request_kBps", res.per_request_kbps);
	nicfit_emit_number(e, "total_mbps", res.total_mbps);
	if (link.gbps > 0)
		nicfit_emit_number(e, "link_share", res.link_share);
	else
		nicfit_emit_null(e, "link_share");
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		nicfit__calc_md_stream(e, tps, conc, &res, &sp, link.gbps);
		return nicfit__calc_done(e, tabs, 1);
	}
	nicfit_emit_printf(e, "Token streaming: %g tokens/s per request, %ld concurrent\n", tps, conc);
	nicfit_emit_printf(e, "  per token    %.0f B on the wire (%g B event + %g B framing)\n",
			   res.bytes_per_token, sp.event_bytes, sp.wire_bytes);
	nicfit_emit_printf(e, "  per request  %.1f kB/s\n", res.per_request_kbps);
	nicfit_emit_printf(e, "  all requests %.2f Mb/s", res.total_mbps);
	if (link.gbps > 0)
		nicfit_emit_printf(e, " = %.4f%% of %g Gb/s", res.link_share * 100, link.gbps);
	nicfit_emit_printf(e, "\n");
	nicfit__calc_assumptions(e, tabs, 1);
	nicfit_emit_end_object(e);
	return 0;
}

int nicfit_calc_run(const struct nicfit_catalog *cat, const char *name,
		    struct nicfit_spec *spec, struct nicfit_emit *e,
		    struct nicfit_error *err)
{
	struct req r;
	const char *near;

	memset(&r, 0, sizeof(r));
	r.s = spec;
	r.err = err;
	nicfit_reader_init(&r.rd, spec, err);
	if (!strcmp(name, "pcie"))
		return calc_pcie(&r, e);
	if (!strcmp(name, "link"))
		return calc_link(&r, e);
	if (!strcmp(name, "nic"))
		return calc_nic(&r, cat, e);
	if (!strcmp(name, "load"))
		return calc_load(&r, e);
	if (!strcmp(name, "fit"))
		return calc_fit(&r, cat, e);
	if (!strcmp(name, "allreduce"))
		return calc_allreduce(&r, e);
	if (!strcmp(name, "stream"))
		return calc_stream(&r, e);
	if (!strcmp(name, "step"))
		return nicfit__calc_step(&r, cat, e);
	near = nicfit_suggest(name, nicfit_calc_names);
	if (near)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"no calculator '%.32s' (did you mean '%s'?)", name, near);
	return nicfit_error_set(err, NICFIT_E_USAGE,
				"no calculator '%.32s' (pcie, link, nic, load, fit, allreduce, stream, step)",
				name);
}
