/*
 * catalog_render.c - `catalog list` and `catalog show` (see nicfit/catalog.h).
 *
 * Text and JSON are two documents here, not two views of one: the text is
 * a table of each kind's key facts (or an entry's fields, one per line),
 * the JSON is the catalog document itself, which can be edited and loaded
 * back with --catalog. So these renderers ask nicfit_emit_format() once
 * and write one or the other (see nicfit/emit.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jansson_int.h"

#include "parts/catalog_int.h"
#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/spec.h"

static void price_cell(struct nicfit_emit *e, const struct nicfit_entry *en)
{
	if (en->priced)
		nicfit_emit_cell_number(e, en->price_usd, 2);
	else
		nicfit_emit_cell_null(e, "-");
}

static const char *rdma_text(unsigned r, char *b, size_t n)
{
	snprintf(b, n, "%s%s%s%s", r & NICFIT_RDMA_IB ? "IB " : "",
		 r & NICFIT_RDMA_ROCE ? "RoCE " : "", r & NICFIT_RDMA_IWARP ? "iWARP " : "",
		 r ? "" : "none");
	if (b[0] && b[strlen(b) - 1] == ' ')
		b[strlen(b) - 1] = '\0';
	return b;
}

/* The columns of each kind's text table. */
static const struct nicfit_column nic_cols[] = {
	{ "id", "id", 0 }, { "family", "family", 0 }, { "ports", "ports", 0 },
	{ "pcie", "PCIe", 0 }, { "rdma", "RDMA", 0 }, { "price_usd", "USD", 1 } };

static const struct nicfit_column cable_cols[] = {
	{ "id", "id", 0 }, { "type", "type", 0 }, { "gbps", "Gb/s", 1 },
	{ "ends", "ends", 0 }, { "length_m", "m", 1 }, { "price_usd", "USD", 1 } };

static const struct nicfit_column switch_cols[] = {
	{ "id", "id", 0 }, { "fabric", "fabric", 0 }, { "ports", "ports", 0 },
	{ "name", "name", 0 }, { "price_usd", "USD", 1 } };

static const struct nicfit_column server_cols[] = {
	{ "id", "id", 0 }, { "name", "name", 0 }, { "pcie", "PCIe", 0 },
	{ "slots", "slots", 1 }, { "onboard", "onboard network", 0 } };

static const struct nicfit_column gpu_cols[] = {
	{ "id", "id", 0 }, { "name", "name", 0 }, { "memory_gib", "GiB", 1 },
	{ "pcie", "PCIe", 0 }, { "tdp_w", "W", 1 } };

static const struct nicfit_column model_cols[] = {
	{ "id", "id", 0 }, { "name", "name", 0 }, { "params_b", "params (B)", 1 },
		{ "layers", "layers", 1 }, { "kv_heads", "KV heads", 1 }, { "context_max", "context", 1 } };

#define NCOLS(cols) ((int)(sizeof(cols) / sizeof((cols)[0])))

static const struct {
	const struct nicfit_column *cols;
	int ncols;
} list_cols[NICFIT_KIND_COUNT] = {
	[NICFIT_KIND_NIC] = { nic_cols, NCOLS(nic_cols) },
	[NICFIT_KIND_CABLE] = { cable_cols, NCOLS(cable_cols) },
	[NICFIT_KIND_SWITCH] = { switch_cols, NCOLS(switch_cols) },
	[NICFIT_KIND_SERVER] = { server_cols, NCOLS(server_cols) },
	[NICFIT_KIND_GPU] = { gpu_cols, NCOLS(gpu_cols) },
	[NICFIT_KIND_MODEL] = { model_cols, NCOLS(model_cols) },
};

static void list_nics(struct nicfit_emit *e, const struct nicfit_catalog *cat)
{
	size_t i, n = nicfit_catalog_count(cat, NICFIT_KIND_NIC);
	char b[160];

	nicfit_emit_table_begin(e, NULL, nic_cols, NCOLS(nic_cols));
	for (i = 0; i < n; i++) {
		const struct nicfit_nic *x = nicfit_catalog_nic(cat, i);

		nicfit_emit_cell_string(e, x->e.id);
		nicfit_emit_cell_string(e, x->family);
		snprintf(b, sizeof(b), "%d x %gG %s", x->ports, x->port_gbps, x->cage);
		nicfit_emit_cell_string(e, b);
		snprintf(b, sizeof(b), "Gen%d x%d", x->pcie_gen, x->pcie_width);
		nicfit_emit_cell_string(e, b);
		nicfit_emit_cell_string(e, rdma_text(x->rdma, b, sizeof(b)));
		price_cell(e, &x->e);
	}
}

static void list_cables(struct nicfit_emit *e, const struct nicfit_catalog *cat)
{
	size_t i, n = nicfit_catalog_count(cat, NICFIT_KIND_CABLE);
	char b[160];

	nicfit_emit_table_begin(e, NULL, cable_cols, NCOLS(cable_cols));
	for (i = 0; i < n; i++) {
		const struct nicfit_cable *x = nicfit_catalog_cable(cat, i);

		nicfit_emit_cell_string(e, x->e.id);
		nicfit_emit_cell_string(e, nicfit_cable_type_name(x->type));
		nicfit_emit_cell_number(e, x->gbps, 0);
		if (x->split > 1)
			snprintf(b, sizeof(b), "%s - %d x %s", x->end_a, x->split, x->end_b);
		else
			snprintf(b, sizeof(b), "%s - %s", x->end_a, x->end_b);
		nicfit_emit_cell_string(e, b);
		if (x->length_m > 0)
			nicfit_emit_cell_number(e, x->length_m, 1);
		else
			nicfit_emit_cell_null(e, "-");
		price_cell(e, &x->e);
	}
}

static void list_switches(struct nicfit_emit *e, const struct nicfit_catalog *cat)
{
	size_t i, n = nicfit_catalog_count(cat, NICFIT_KIND_SWITCH);
	char b[160];

	nicfit_emit_table_begin(e, NULL, switch_cols, NCOLS(switch_cols));
	for (i = 0; i < n; i++) {
		const struct nicfit_switch *x = nicfit_catalog_switch(cat, i);

		nicfit_emit_cell_string(e, x->e.id);
		nicfit_emit_cell_string(e, x->fabric);
		if (x->uplink_ports)
			snprintf(b, sizeof(b), "%d x %gG %s + %d x %gG", x->ports, x->port_gbps,
				 x->cage, x->uplink_ports, x->uplink_gbps);
		else
			snprintf(b, sizeof(b), "%d x %gG %s", x->ports, x->port_gbps, x->cage);
		nicfit_emit_cell_string(e, b);
		nicfit_emit_cell_string(e, x->e.name);
		price_cell(e, &x->e);
	}
}

static void list_servers(struct nicfit_emit *e, const struct nicfit_catalog *cat)
{
	size_t i, n = nicfit_catalog_count(cat, NICFIT_KIND_SERVER);
	char b[160];

	nicfit_emit_table_begin(e, NULL, server_cols, NCOLS(server_cols));
	for (i = 0; i < n; i++) {
		const struct nicfit_server *x = nicfit_catalog_server(cat, i);

		nicfit_emit_cell_string(e, x->e.id);
		nicfit_emit_cell_string(e, x->e.name);
		snprintf(b, sizeof(b), "Gen%d", x->pcie_gen);
		nicfit_emit_cell_string(e, b);
		nicfit_emit_cell_int(e, x->nslots);
		if (x->nonboard)
			snprintf(b, sizeof(b), "%d x %gG %s%s", x->onboard[0].ports,
				 x->onboard[0].port_gbps, x->onboard[0].cage,
				 x->nonboard > 1 ? " + more" : "");
		else
			snprintf(b, sizeof(b), "none");
		nicfit_emit_cell_string(e, b);
	}
}

static void list_gpus(struct nicfit_emit *e, const struct nicfit_catalog *cat)
{
	size_t i, n = nicfit_catalog_count(cat, NICFIT_KIND_GPU);
	char b[160];

	nicfit_emit_table_begin(e, NULL, gpu_cols, NCOLS(gpu_cols));
	for (i = 0; i < n; i++) {
		const struct nicfit_gpu *x = nicfit_catalog_gpu(cat, i);

		nicfit_emit_cell_string(e, x->e.id);
		nicfit_emit_cell_string(e, x->e.name);
		nicfit_emit_cell_number(e, x->memory_gib, 0);
		snprintf(b, sizeof(b), "Gen%d x%d", x->pcie_gen, x->pcie_width);
		nicfit_emit_cell_string(e, b);
		nicfit_emit_cell_number(e, x->tdp_w, 0);
	}
}

static void list_models(struct nicfit_emit *e, const struct nicfit_catalog *cat)
{
	size_t i, n = nicfit_catalog_count(cat, NICFIT_KIND_MODEL);

	nicfit_emit_table_begin(e, NULL, model_cols, NCOLS(model_cols));
	for (i = 0; i < n; i++) {
		const struct nicfit_model *x = nicfit_catalog_model(cat, i);

		nicfit_emit_cell_string(e, x->e.id);
		nicfit_emit_cell_string(e, x->e.name);
		nicfit_emit_cell_number(e, x->arch.params / 1e9, 2);
		nicfit_emit_cell_int(e, x->arch.layers);
		nicfit_emit_cell_int(e, x->arch.kv_heads);
		nicfit_emit_cell_int(e, x->context_max);
	}
}

/* One kind as a text table of its key facts, under its heading. */
static void list_text(struct nicfit_emit *e, const struct nicfit_catalog *cat,
		      enum nicfit_kind k)
{
	nicfit_emit_heading(e, nicfit_kind_plural(k));
	switch (k) {
	case NICFIT_KIND_NIC: list_nics(e, cat); break;
	case NICFIT_KIND_CABLE: list_cables(e, cat); break;
	case NICFIT_KIND_SWITCH: list_switches(e, cat); break;
	case NICFIT_KIND_SERVER: list_servers(e, cat); break;
	case NICFIT_KIND_GPU: list_gpus(e, cat); break;
	case NICFIT_KIND_MODEL:
	default: list_models(e, cat); break;
	}
	nicfit_emit_table_end(e);
	nicfit_emit_printf(e, "\n");
}

void nicfit_catalog_render_list(struct nicfit_emit *e, const struct nicfit_catalog *cat,
				int kind)
{
	int k;

	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.catalog.v1");
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		size_t i, n;

		if (kind >= 0 && k != kind)
			continue;
		n = nicfit_catalog_count(cat, (enum nicfit_kind)k);
		/* -o names the text table's columns, in JSON too */
		nicfit_emit_columns(e, list_cols[k].cols, list_cols[k].ncols);
		if (nicfit_emit_format(e) == NICFIT_FMT_JSON) {
			nicfit_emit_begin_array(e, nicfit_kind_plural((enum nicfit_kind)k));
			for (i = 0; i < n; i++) {
				const struct nicfit_entry *en =
					nicfit_catalog_entry(cat, (enum nicfit_kind)k, i);
				json_t *o = json_object_get(nicfit__catalog_json(cat, (enum nicfit_kind)k),
							    en->id);

				/* the entry as the catalog holds it, written straight from its tree */
				if (o)
					nicfit__emit_json_object(e, NULL, o, "_origin");
			}
			nicfit_emit_end_array(e);
		} else {
			list_text(e, cat, (enum nicfit_kind)k);
		}
	}
	nicfit_emit_end_object(e);
}

static void show_value(struct nicfit_emit *e, const char *key, json_t *v, int indent);

static void show_scalar(struct nicfit_emit *e, json_t *v)
{
	if (json_is_string(v))
		nicfit_emit_printf(e, "%s", json_string_value(v));
	else if (json_is_integer(v))
		nicfit_emit_printf(e, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		nicfit_emit_printf(e, "%g", json_real_value(v));
	else if (json_is_true(v))
		nicfit_emit_printf(e, "yes");
	else if (json_is_false(v))
		nicfit_emit_printf(e, "no");
	else if (json_is_null(v))
		nicfit_emit_printf(e, "-");
}

/* An object inside a list item (a riser configuration's max_gpus): "(double 3, single 6)". */
static void show_inline_object(struct nicfit_emit *e, json_t *o)
{
	const char *k;
	json_t *x;
	int first = 1;

	nicfit_emit_printf(e, "(");
	json_object_foreach(o, k, x) {
		nicfit_emit_printf(e, "%s%s ", first ? "" : ", ", k);
		show_scalar(e, x);
		first = 0;
	}
	nicfit_emit_printf(e, ")");
}

static void show_value(struct nicfit_emit *e, const char *key, json_t *v, int indent)
{
	size_t i;
	const char *k;
	json_t *x, *f;

	nicfit_emit_printf(e, "%*s%-16s ", indent, "", key);
	if (json_is_array(v) && json_array_size(v) && json_is_object(json_array_get(v, 0))) {
		nicfit_emit_printf(e, "\n");
		json_array_foreach(v, i, x) {
			int first = 1;

			nicfit_emit_printf(e, "%*s- ", indent + 2, "");
			json_object_foreach(x, k, f) {
				nicfit_emit_printf(e, "%s%s ", first ? "" : ", ", k);
				if (json_is_array(f)) {
					size_t j;

					for (j = 0; j < json_array_size(f); j++) {
						if (j)
							nicfit_emit_printf(e, " / ");
						show_scalar(e, json_array_get(f, j));
					}
				} else if (json_is_object(f)) {
					show_inline_object(e, f);
				} else {
					show_scalar(e, f);
				}
				first = 0;
			}
			nicfit_emit_printf(e, "\n");
		}
		return;
	}
	if (json_is_array(v) && (!strcmp(key, "notes") || !strcmp(key, "source"))) {
		nicfit_emit_printf(e, "\n");
		json_array_foreach(v, i, x) {
			nicfit_emit_printf(e, "%*s- ", indent + 2, "");
			show_scalar(e, x);
			nicfit_emit_printf(e, "\n");
		}
		return;
	}
	if (json_is_array(v)) {
		json_array_foreach(v, i, x) {
			if (i)
				nicfit_emit_printf(e, ", ");
			show_scalar(e, x);
		}
		nicfit_emit_printf(e, "\n");
		return;
	}
	if (json_is_object(v)) {
		int first = 1;

		json_object_foreach(v, k, x) {
			nicfit_emit_printf(e, "%s%s ", first ? "" : ", ", k);
			if (json_is_array(x)) {
				size_t j;

				for (j = 0; j < json_array_size(x); j++) {
					if (j)
						nicfit_emit_printf(e, " / ");
					show_scalar(e, json_array_get(x, j));
				}
			} else {
				show_scalar(e, x);
			}
			first = 0;
		}
		nicfit_emit_printf(e, "\n");
		return;
	}
	show_scalar(e, v);
	nicfit_emit_printf(e, "\n");
}

int nicfit_catalog_render_show(struct nicfit_emit *e, const struct nicfit_catalog *cat,
			       const char *id, struct nicfit_error *err)
{
	enum nicfit_kind k;
	const struct nicfit_entry *en = nicfit_catalog_lookup(cat, id, &k);
	json_error_t jerr;
	json_t *o, *v;
	const char *key;
	char *text;
	int i;

	if (!en) {
		const char *ids[2048];
		const char *near;
		size_t n = 0, j;
		int kk;

		for (kk = 0; kk < NICFIT_KIND_COUNT; kk++)
			for (j = 0; j < nicfit_catalog_count(cat, (enum nicfit_kind)kk) && n < 2047; j++)
				ids[n++] = nicfit_catalog_entry(cat, (enum nicfit_kind)kk, j)->id;
		ids[n] = NULL;
		near = nicfit_suggest(id, ids);
		if (near)
			return nicfit_error_set(err, NICFIT_E_NOTFOUND,
						"no catalog entry '%.64s' (did you mean '%s'?)", id, near);
		return nicfit_error_set(err, NICFIT_E_NOTFOUND,
					"no catalog entry '%.64s' (see 'nicfit catalog list')", id);
	}
	text = nicfit_catalog_entry_json(cat, k, en->id, 0);
	o = text ? json_loads(text, 0, &jerr) : NULL;
	free(text);
	if (!o)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	json_object_set_new(o, "kind", json_string(nicfit_kind_name(k)));
	if (nicfit_emit_format(e) == NICFIT_FMT_JSON) {
		/* the entry, its schema id first (json-catalog.md) */
		json_t *doc = json_object();
		char *s = NULL;

		if (doc && !json_object_set_new(doc, "schema", json_string("nicfit.catalog.entry.v1")) &&
		    !json_object_update(doc, o))
			s = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(15));
		json_decref(doc);
		if (!s) {
			json_decref(o);
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		}

		nicfit_emit_json_text(e, NULL, s);
		free(s);
		json_decref(o);
		return 0;
	}
	nicfit_emit_printf(e, "%s%s%s  (%s)\n", nicfit_emit_color(e, NICFIT_COLOR_BOLD), en->name,
			   nicfit_emit_color(e, NICFIT_COLOR_RESET), nicfit_kind_name(k));
	json_object_foreach(o, key, v) {
		if (!strcmp(key, "name") || !strcmp(key, "kind") || !strcmp(key, "unverified"))
			continue;
		show_value(e, key, v, 2);
	}
	if (en->nunverified) {
		nicfit_emit_printf(e, "  %-16s ", "unverified");
		for (i = 0; i < en->nunverified; i++)
			nicfit_emit_printf(e, "%s%s", i ? ", " : "", en->unverified[i]);
		nicfit_emit_printf(e, "  (not confirmed in a primary source)\n");
	}
	if (!en->priced)
		nicfit_emit_printf(e, "  %-16s none sourced: plans list it as unpriced\n", "price");
	if (en->origin && strncmp(en->origin, "data/", 5))
		nicfit_emit_printf(e, "  %-16s %s\n", "from", en->origin);
	json_decref(o);
	return 0;
}
