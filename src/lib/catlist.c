/*
 * catlist.c - the catalog as documents (see nicfit/catlist.h): a table of
 * entries with a one-line summary of each, and one entry in full, walked
 * from the merged JSON object into the emitter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "nicfit/catlist.h"

static void rdma_names(unsigned bits, char *out, size_t n)
{
	snprintf(out, n, "%s%s%s%s%s", bits & NICFIT_RDMA_ROCE ? "RoCE" : "",
		 (bits & NICFIT_RDMA_ROCE) && (bits & (NICFIT_RDMA_IB | NICFIT_RDMA_IWARP)) ? "+" : "",
		 bits & NICFIT_RDMA_IB ? "IB" : "",
		 (bits & NICFIT_RDMA_IB) && (bits & NICFIT_RDMA_IWARP) ? "+" : "",
		 bits & NICFIT_RDMA_IWARP ? "iWARP" : "");
}

static void nic_summary(const struct nicfit_nic *n, char *out, size_t len)
{
	char rdma[32];

	rdma_names(n->rdma, rdma, sizeof(rdma));
	snprintf(out, len, "%d x %g Gb/s %s, PCIe %d.0 x%d, %s%s", n->ports, n->port_gbps,
		 n->cage ? n->cage : "", n->pcie_gen, n->pcie_width,
		 n->rdma ? "RDMA " : "no RDMA", rdma);
}

static const char *type_word(enum nicfit_cable_type t)
{
	static const char *const w[] = { "DAC", "AOC", "optic", "breakout DAC",
		"breakout AOC", "RJ45 cable" };

	return (unsigned)t < sizeof(w) / sizeof(w[0]) ? w[t] : "cable";
}

static void cable_summary(const struct nicfit_cable *c, char *out, size_t len)
{
	char reach[48] = "";

	if (c->length_m > 0)
		snprintf(reach, sizeof(reach), ", %g m", c->length_m);
	else if (c->max_length_m > 0)
		snprintf(reach, sizeof(reach), ", up to %g m", c->max_length_m);
	if (c->split > 1)
		snprintf(out, len, "%s %g Gb/s %s to %d x %s%s", type_word(c->type),
			 c->gbps, c->end_a ? c->end_a : "?", c->split,
			 c->end_b ? c->end_b : "?", reach);
	else
		snprintf(out, len, "%s %g Gb/s %s%s%s%s", type_word(c->type), c->gbps,
			 c->end_a ? c->end_a : "", c->end_b ? " to " : "",
			 c->end_b ? c->end_b : "", reach);
}

static void switch_summary(const struct nicfit_switch *s, char *out, size_t len)
{
	char up[64] = "";

	if (s->uplink_ports)
		snprintf(up, sizeof(up), " + %d x %g Gb/s uplinks", s->uplink_ports,
			 s->uplink_gbps);
	snprintf(out, len, "%d x %g Gb/s %s%s, %s%s", s->ports, s->port_gbps,
		 s->cage ? s->cage : "", up, s->fabric ? s->fabric : "",
		 s->lossless ? ", lossless" : "");
}

static void server_summary(const struct nicfit_server *s, char *out, size_t len)
{
	char gpus[48] = "";

	if (s->max_gpus_double)
		snprintf(gpus, sizeof(gpus), ", up to %d double-width GPUs", s->max_gpus_double);
	snprintf(out, len, "%s%s%d socket%s, PCIe Gen%d, %d slot%s%s", s->form ? s->form : "",
		 s->form ? ", " : "", s->sockets, s->sockets == 1 ? "" : "s", s->pcie_gen,
		 s->nslots, s->nslots == 1 ? "" : "s", gpus);
}

static void gpu_summary(const struct nicfit_gpu *g, char *out, size_t len)
{
	snprintf(out, len, "%g GiB %s, PCIe Gen%d x%d, %s width", g->memory_gib,
		 g->memory_type ? g->memory_type : "", g->pcie_gen, g->pcie_width,
		 g->double_width ? "double" : "single");
}

static void model_summary(const struct nicfit_model *m, char *out, size_t len)
{
	double p = m->arch.params;

	snprintf(out, len, "%.*f B parameters%s%s", p >= 1e11 ? 0 : 1, p / 1e9,
		 m->native_precision ? ", " : "",
		 m->native_precision ? m->native_precision : "");
}

char *nicfit_catalog_summary(const struct nicfit_catalog *cat, enum nicfit_kind k,
			     size_t i, char *out, size_t n)
{
	if (!n)
		return out;
	out[0] = '\0';
	if (i >= nicfit_catalog_count(cat, k))
		return out;
	switch (k) {
	case NICFIT_KIND_NIC:
		nic_summary(nicfit_catalog_nic(cat, i), out, n);
		break;
	case NICFIT_KIND_CABLE:
		cable_summary(nicfit_catalog_cable(cat, i), out, n);
		break;
	case NICFIT_KIND_SWITCH:
		switch_summary(nicfit_catalog_switch(cat, i), out, n);
		break;
	case NICFIT_KIND_SERVER:
		server_summary(nicfit_catalog_server(cat, i), out, n);
		break;
	case NICFIT_KIND_GPU:
		gpu_summary(nicfit_catalog_gpu(cat, i), out, n);
		break;
	case NICFIT_KIND_MODEL:
		model_summary(nicfit_catalog_model(cat, i), out, n);
		break;
	default:
		break;
	}
	return out;
}

static const struct nicfit_column list_cols[] = {
	{ "kind", "kind", 0 },
	{ "id", "id", 0 },
	{ "name", "name", 0 },
	{ "summary", "summary", 0 },
	{ "price_usd", "USD", 1 },
	{ "prices_as_of", "as of", 0 },
};

int nicfit_catalog_render_list(const struct nicfit_catalog *cat, int all,
			       enum nicfit_kind kind, struct nicfit_emit *e,
			       struct nicfit_error *err)
{
	char summary[256];
	int k;
	size_t i, n;

	(void)err;
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.catalog.list.v1");
	if (all)
		nicfit_emit_null(e, "kind");
	else
		nicfit_emit_string(e, "kind", nicfit_kind_name(kind));
	nicfit_emit_table_begin(e, "entries", list_cols,
				(int)(sizeof(list_cols) / sizeof(list_cols[0])));
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		if (!all && k != (int)kind)
			continue;
		n = nicfit_catalog_count(cat, (enum nicfit_kind)k);
		for (i = 0; i < n; i++) {
			const struct nicfit_entry *en =
				nicfit_catalog_entry(cat, (enum nicfit_kind)k, i);

			nicfit_emit_cell_string(e, nicfit_kind_name((enum nicfit_kind)k));
			nicfit_emit_cell_string(e, en->id);
			nicfit_emit_cell_string(e, en->name ? en->name : "");
			nicfit_emit_cell_string(e, nicfit_catalog_summary(cat, (enum nicfit_kind)k,
									   i, summary,
									   sizeof(summary)));
			if (en->priced) {
				nicfit_emit_cell_number(e, en->price_usd, 2);
				nicfit_emit_cell_string(e, en->prices_as_of ? en->prices_as_of : "");
			} else {
				nicfit_emit_cell_null(e, "-");
				nicfit_emit_cell_null(e, "-");
			}
		}
	}
	nicfit_emit_table_end(e);
	nicfit_emit_end_object(e);
	return 0;
}

/* One JSON value into the emitter; prose lines "key: value" for text. */
static void walk(struct nicfit_emit *e, const char *key, json_t *v, int indent, int depth)
{
	const char *k;
	json_t *x;
	size_t i;

	if (depth >= NICFIT_EMIT_MAX_DEPTH - 2) {
		nicfit_emit_null(e, key);
		return;
	}
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		if (key)
			nicfit_emit_printf(e, "%*s%s:\n", indent, "", key);
		nicfit_emit_begin_object(e, key);
		json_object_foreach(v, k, x)
			walk(e, k, x, key ? indent + 2 : indent, depth + 1);
		nicfit_emit_end_object(e);
		break;
	case JSON_ARRAY:
		nicfit_emit_printf(e, "%*s%s:\n", indent, "", key ? key : "-");
		nicfit_emit_begin_array(e, key);
		json_array_foreach(v, i, x) {
			if (json_is_object(x) || json_is_array(x)) {
				nicfit_emit_printf(e, "%*s-\n", indent + 2, "");
				walk(e, NULL, x, indent + 4, depth + 1);
			} else {
				walk(e, NULL, x, indent + 2, depth + 1);
			}
		}
		nicfit_emit_end_array(e);
		break;
	case JSON_STRING:
		nicfit_emit_printf(e, "%*s%s%s%s\n", indent, "", key ? key : "- ", key ? ": " : "",
				   json_string_value(v));
		nicfit_emit_string(e, key, json_string_value(v));
		break;
	case JSON_INTEGER:
		nicfit_emit_printf(e, "%*s%s%s%lld\n", indent, "", key ? key : "- ",
				   key ? ": " : "", (long long)json_integer_value(v));
		nicfit_emit_int(e, key, (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		nicfit_emit_printf(e, "%*s%s%s%g\n", indent, "", key ? key : "- ", key ? ": " : "",
				   json_real_value(v));
		nicfit_emit_number(e, key, json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		nicfit_emit_printf(e, "%*s%s%s%s\n", indent, "", key ? key : "- ", key ? ": " : "",
				   json_is_true(v) ? "true" : "false");
		nicfit_emit_bool(e, key, json_is_true(v));
		break;
	default:
		nicfit_emit_printf(e, "%*s%s%snull\n", indent, "", key ? key : "- ",
				   key ? ": " : "");
		nicfit_emit_null(e, key);
		break;
	}
}

/* Entry id of kind k, or NULL with err saying what is close. */
static const struct nicfit_entry *find_kind(const struct nicfit_catalog *cat,
					    enum nicfit_kind k, const char *id,
					    struct nicfit_error *err)
{
	const struct nicfit_nic *n;
	const struct nicfit_cable *c;
	const struct nicfit_switch *s;
	const struct nicfit_server *v;
	const struct nicfit_gpu *g;
	const struct nicfit_model *m;

	switch (k) {
	case NICFIT_KIND_NIC:
		n = nicfit_find_nic(cat, id, "catalog", err);
		return n ? &n->e : NULL;
	case NICFIT_KIND_CABLE:
		c = nicfit_find_cable(cat, id, "catalog", err);
		return c ? &c->e : NULL;
	case NICFIT_KIND_SWITCH:
		s = nicfit_find_switch(cat, id, "catalog", err);
		return s ? &s->e : NULL;
	case NICFIT_KIND_SERVER:
		v = nicfit_find_server(cat, id, "catalog", err);
		return v ? &v->e : NULL;
	case NICFIT_KIND_GPU:
		g = nicfit_find_gpu(cat, id, "catalog", err);
		return g ? &g->e : NULL;
	case NICFIT_KIND_MODEL:
		m = nicfit_find_model(cat, id, "catalog", err);
		return m ? &m->e : NULL;
	default:
		return NULL;
	}
}

int nicfit_catalog_render_show(const struct nicfit_catalog *cat, enum nicfit_kind kind,
			       const char *id, struct nicfit_emit *e,
			       struct nicfit_error *err)
{
	const struct nicfit_entry *en;
	enum nicfit_kind found;
	json_error_t jerr;
	json_t *root;
	char *text;

	if (kind == NICFIT_KIND_COUNT) {
		en = nicfit_catalog_lookup(cat, id, &found);
		if (!en)
			return nicfit_error_at(err, NICFIT_E_NOTFOUND, "catalog", 0, 0,
					       "no entry '%.64s'", id);
	} else {
		found = kind;
		en = find_kind(cat, kind, id, err);
		if (!en)
			return err && err->code ? err->code : NICFIT_E_NOTFOUND;
	}
	text = nicfit_catalog_entry_json(cat, found, en->id, 0);
	if (!text)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	root = json_loads(text, 0, &jerr);
	free(text);
	if (!root)
		return nicfit_error_set(err, NICFIT_E_INTERNAL, "catalog entry '%.64s': %s", id,
					jerr.text);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.catalog.show.v1");
	nicfit_emit_string(e, "kind", nicfit_kind_name(found));
	nicfit_emit_printf(e, "%s %s\n", nicfit_kind_name(found), en->id);
	walk(e, "entry", root, 0, 1);
	nicfit_emit_end_object(e);
	json_decref(root);
	return 0;
}
