/*
 * catalog.c - the catalog itself: its kinds, the store of entries, the
 * typed views of them, and loading and overlaying documents (see
 * nicfit/catalog.h and docs/catalog.md). The schema and its checks are in
 * catalog_check.c, look-ups in catalog_find.c, rendering in
 * catalog_render.c.
 *
 * Entries are kept as jansson objects, merged field by field when an
 * overlay names an existing id; after every successful load the typed views
 * (struct nicfit_nic ...) are rebuilt from them, sorted by id. Strings in
 * the views point into the jansson objects, which the catalog owns.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "catalog_int.h"
#include "embedded_int.h"
#include "nicfit/catalog.h"
#include "nicfit/file.h"

/* ---- kinds --------------------------------------------------------------- */

static const char *const kind_names[NICFIT_KIND_COUNT] = {
	"nic", "cable", "switch", "server", "gpu", "model"
};
const char *const nicfit__catalog_kind_plurals[NICFIT_KIND_COUNT + 1] = {
	"nics", "cables", "switches", "servers", "gpus", "models", NULL
};

const char *nicfit_kind_name(enum nicfit_kind k)
{
	return (unsigned)k < NICFIT_KIND_COUNT ? kind_names[k] : "?";
}

const char *nicfit_kind_plural(enum nicfit_kind k)
{
	return (unsigned)k < NICFIT_KIND_COUNT ? nicfit__catalog_kind_plurals[k] : "?";
}

int nicfit_kind_parse(const char *s, enum nicfit_kind *out, struct nicfit_error *err)
{
	int k;

	for (k = 0; k < NICFIT_KIND_COUNT; k++)
		if (!strcasecmp(s, kind_names[k]) || !strcasecmp(s, nicfit__catalog_kind_plurals[k])) {
			*out = (enum nicfit_kind)k;
			return 0;
		}
	return nicfit_error_set(err, NICFIT_E_USAGE,
				"unknown kind '%.32s' (use nics, cables, switches, servers, gpus or models)",
				s);
}

/* ---- the catalog ------------------------------------------------------- */

static const size_t view_size[NICFIT_KIND_COUNT] = {
	sizeof(struct nicfit_nic), sizeof(struct nicfit_cable), sizeof(struct nicfit_switch),
	sizeof(struct nicfit_server), sizeof(struct nicfit_gpu), sizeof(struct nicfit_model)
};

int nicfit__catalog_has(const struct nicfit_catalog *cat, enum nicfit_kind k, const char *id)
{
	return cat && json_object_get(cat->k[k].byid, id) != NULL;
}

int nicfit_catalog_new_empty(struct nicfit_catalog **out, struct nicfit_error *err)
{
	struct nicfit_catalog *cat = calloc(1, sizeof(*cat));
	int k;

	*out = NULL;
	if (!cat)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		cat->k[k].byid = json_object();
		if (!cat->k[k].byid) {
			nicfit_catalog_free(cat);
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		}
	}
	*out = cat;
	return 0;
}

void nicfit_catalog_free(struct nicfit_catalog *cat)
{
	int k;

	if (!cat)
		return;
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		json_decref(cat->k[k].byid);
		free(cat->k[k].views);
		free(cat->k[k].ids);
	}
	free(cat);
}

/* Typed getters over a merged entry. */
static const char *gs(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static double gn(json_t *o, const char *key, double def)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : def;
}

static int gi(json_t *o, const char *key, int def)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

static int gb(json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

static int gstrs(json_t *o, const char *key, const char **out, int max)
{
	json_t *a = json_object_get(o, key);
	size_t i;
	int n = 0;

	for (i = 0; i < json_array_size(a) && n < max; i++)
		if (json_is_string(json_array_get(a, i)))
			out[n++] = json_string_value(json_array_get(a, i));
	return n;
}

static unsigned gbits(json_t *o, const char *key, const char *const *names)
{
	const char *v[NICFIT_MAX_LIST];
	unsigned bits = 0;
	int n = gstrs(o, key, v, NICFIT_MAX_LIST), i, j;

	for (i = 0; i < n; i++)
		for (j = 0; names[j]; j++)
			if (!strcmp(v[i], names[j]))
				bits |= 1u << j;
	return bits;
}

static unsigned hex(const char *s)
{
	unsigned long v;
	char *end;

	if (!s)
		return 0;
	errno = 0;
	v = strtoul(s, &end, 16);
	return errno || *end || v > 0xffff ? 0 : (unsigned)v;
}

static void fill_entry(struct nicfit_entry *e, json_t *o)
{
	e->id = gs(o, "id");
	e->name = gs(o, "name");
	e->source = gs(o, "source");
	e->nunverified = gstrs(o, "unverified", e->unverified, NICFIT_MAX_LIST);
	e->nnotes = gstrs(o, "notes", e->notes, NICFIT_MAX_LIST);
	e->priced = json_is_number(json_object_get(o, "price_usd"));
	e->price_usd = gn(o, "price_usd", 0);
	e->prices_as_of = gs(o, "prices_as_of");
	e->price_source = gs(o, "price_source");
	e->origin = gs(o, "_origin");
}

static void fill_nic(struct nicfit_nic *n, json_t *o)
{
	static const char *const rdma_bits[] = { "roce", "infiniband", "iwarp", NULL };
	static const char *const role_bits[] = { "frontend", "backend", "storage", NULL };
	json_t *a = json_object_get(o, "speeds_gbps"), *pci = json_object_get(o, "pci");
	const char *subs[NICFIT_MAX_LIST];
	size_t i;
	int k, ns;

	fill_entry(&n->e, o);
	n->part = gs(o, "part");
	n->vendor = gs(o, "vendor");
	n->family = gs(o, "family");
	n->protocol = gs(o, "protocol");
	n->cage = gs(o, "cage");
	n->ib_rate = gs(o, "ib_rate");
	n->form_factor = gs(o, "form_factor");
	n->bracket = gs(o, "bracket");
	n->driver = gs(o, "driver");
	n->module_coding = gs(o, "module_coding");
	n->ports = gi(o, "ports", 0);
	n->port_gbps = gn(o, "port_gbps", 0);
	for (i = 0; i < json_array_size(a) && n->nspeeds < NICFIT_MAX_LIST; i++)
		n->speeds_gbps[n->nspeeds++] = json_number_value(json_array_get(a, i));
	n->pcie_gen = gi(o, "pcie_gen", 0);
	n->pcie_width = gi(o, "pcie_width", 0);
	n->pcie_gen_min = gi(o, "pcie_gen_min", 0);
	n->card_gbps = gn(o, "card_gbps", 0);
	n->socket_direct = gb(o, "socket_direct");
	n->vpi = gb(o, "vpi");
	n->rdma = gbits(o, "rdma", rdma_bits);
	n->roles = gbits(o, "role", role_bits);
	n->pci_vendor = hex(gs(pci, "vendor"));
	n->pci_device = hex(gs(pci, "device"));
	n->npsids = gstrs(o, "psids", n->psids, NICFIT_MAX_LIST);
	ns = gstrs(pci, "subsystems", subs, NICFIT_MAX_LIST);
	for (k = 0; k < ns; k++) {
		char v[5] = { 0 }, d[5] = { 0 };

		if (strlen(subs[k]) != 9 || subs[k][4] != ':')
			continue;
		memcpy(v, subs[k], 4);
		memcpy(d, subs[k] + 5, 4);
		n->subsys[n->nsubsys][0] = hex(v);
		n->subsys[n->nsubsys][1] = hex(d);
		n->nsubsys++;
	}
	n->lanes = gi(o, "lanes", 0);
	n->lane_gbps = gn(o, "lane_gbps", 0);
}

static void fill_cable(struct nicfit_cable *c, json_t *o)
{
	static const char *const types[] = { "dac", "aoc", "optic", "breakout-dac",
		"breakout-aoc", "rj45", NULL };
	const char *t = gs(o, "type");
	int i;

	fill_entry(&c->e, o);
	c->part = gs(o, "part");
	for (i = 0; types[i]; i++)
		if (t && !strcmp(t, types[i]))
			c->type = (enum nicfit_cable_type)i;
	c->gbps = gn(o, "gbps", 0);
	c->end_a = gs(o, "end_a");
	c->end_b = gs(o, "end_b");
	c->split = gi(o, "split", 1);
	c->lane_gbps = gn(o, "lane_gbps", c->gbps);
	c->length_m = gn(o, "length_m", -1);
	c->max_length_m = gn(o, "max_length_m", 0);
	c->medium = gs(o, "medium");
	c->fiber = gs(o, "fiber");
	c->standard = gs(o, "standard");
	c->coding = gs(o, "coding");
	c->lanes_a = gi(o, "lanes_a", 0);
	c->lanes_b = gi(o, "lanes_b", 0);
	c->serdes_gbps_a = gn(o, "serdes_gbps_a", 0);
	c->serdes_gbps_b = gn(o, "serdes_gbps_b", 0);
	c->top_a = gs(o, "top_a");
	c->top_b = gs(o, "top_b");
}

static void fill_switch(struct nicfit_switch *s, json_t *o)
{
	json_t *a;
	size_t i;

	fill_entry(&s->e, o);
	s->vendor = gs(o, "vendor");
	s->fabric = gs(o, "fabric");
	s->cage = gs(o, "cage");
	s->form = gs(o, "form");
	s->ports = gi(o, "ports", 0);
	s->port_gbps = gn(o, "port_gbps", 0);
	s->nbreakout = gstrs(o, "breakout", s->breakout, NICFIT_MAX_LIST);
	s->max_logical_ports = gi(o, "max_logical_ports", 0);
	s->ports_per_cage = gi(o, "ports_per_cage", 1);
	s->uplink_ports = gi(o, "uplink_ports", 0);
	s->uplink_gbps = gn(o, "uplink_gbps", 0);
	s->uplink_cage = gs(o, "uplink_cage");
	s->nuplink_breakout = gstrs(o, "uplink_breakout", s->uplink_breakout, NICFIT_MAX_LIST);
	s->lossless = gb(o, "lossless");
	s->subnet_manager = gb(o, "subnet_manager");
	s->lanes_per_port = gi(o, "lanes_per_port", 0);
	s->lane_gbps = gn(o, "lane_gbps", 0);
	a = json_object_get(o, "lane_rates");
	for (i = 0; i < json_array_size(a) && s->nlane_rates < NICFIT_MAX_LIST; i++)
		s->lane_rates[s->nlane_rates++] = json_number_value(json_array_get(a, i));
}

static enum nicfit_slot_role slot_role(const char *r)
{
	if (!r)
		return NICFIT_SLOT_ANY;
	return !strcmp(r, "compute") ? NICFIT_SLOT_COMPUTE :
	       !strcmp(r, "storage") ? NICFIT_SLOT_STORAGE :
	       !strcmp(r, "frontend") ? NICFIT_SLOT_FRONTEND :
	       !strcmp(r, "gpu") ? NICFIT_SLOT_GPU : NICFIT_SLOT_ANY;
}

/* The index of switch id among s's switches, -1 for none (checked by catalog_check.c). */
static int switch_index(const struct nicfit_server *s, const char *id)
{
	int i;

	for (i = 0; id && i < s->nswitches; i++)
		if (s->switches[i].id && !strcmp(s->switches[i].id, id))
			return i;
	return -1;
}

static void fill_server(struct nicfit_server *s, json_t *o)
{
	static const char *const rdma_bits[] = { "roce", "infiniband", "iwarp", NULL };
	json_t *slots = json_object_get(o, "slots"), *ob = json_object_get(o, "onboard");
	json_t *oob = json_object_get(o, "oob"), *mg = json_object_get(o, "max_gpus");
	json_t *sw = json_object_get(o, "pcie_switches");
	size_t i;

	fill_entry(&s->e, o);
	for (i = 0; i < json_array_size(sw) && s->nswitches < NICFIT_MAX_PCIE_SWITCHES; i++) {
		json_t *x = json_array_get(sw, i);
		struct nicfit_pcie_switch *w = &s->switches[s->nswitches++];

		w->id = gs(x, "id");
		w->socket = gi(x, "socket", 0);
		w->gen = gi(x, "gen", gi(o, "pcie_gen", 3));
		w->width = gi(x, "width", 16);
	}
	s->vendor = gs(o, "vendor");
	s->form = gs(o, "form");
	s->cpu = gs(o, "cpu");
	s->sockets = gi(o, "sockets", 1);
	s->pcie_gen = gi(o, "pcie_gen", 3);
	s->generic = gb(o, "generic");
	s->baseboard_gpu = gs(o, "baseboard_gpu");
	for (i = 0; i < json_array_size(slots) && s->nslots < NICFIT_MAX_SLOTS; i++) {
		json_t *x = json_array_get(slots, i);
		struct nicfit_slot *sl = &s->slots[s->nslots++];
		const char *gpu = gs(x, "gpu"), *h = gs(x, "height"), *l = gs(x, "length");

		sl->name = gs(x, "name");
		sl->riser = gs(x, "riser");
		sl->kind = gs(x, "kind") ? gs(x, "kind") : "pcie";
		sl->gen = gi(x, "gen", s->pcie_gen);
		sl->width = gi(x, "width", 8);
		sl->connector_width = gi(x, "connector_width", sl->width);
		sl->full_height = h && !strcmp(h, "full");
		sl->full_length = l && !strcmp(l, "full");
		sl->socket = gi(x, "socket", 0);
		sl->gpu = gpu && !strcmp(gpu, "double") ? NICFIT_GPU_DOUBLE :
			  gpu && !strcmp(gpu, "single") ? NICFIT_GPU_SINGLE :
			  gpu && !strcmp(gpu, "baseboard") ? NICFIT_GPU_BASEBOARD : NICFIT_GPU_NONE;
		sl->role = slot_role(gs(x, "role"));
		sl->pcie_switch = switch_index(s, gs(x, "switch"));
	}
	for (i = 0; i < json_array_size(ob) && s->nonboard < 8; i++) {
		json_t *x = json_array_get(ob, i);
		struct nicfit_onboard *b = &s->onboard[s->nonboard++];

		b->name = gs(x, "name");
		b->kind = gs(x, "kind");
		b->nic = gs(x, "nic");
		b->cage = gs(x, "cage");
		b->description = gs(x, "description");
		b->ports = gi(x, "ports", 0);
		b->port_gbps = gn(x, "port_gbps", 0);
		b->socket = gi(x, "socket", -1);
		b->rdma = gbits(x, "rdma", rdma_bits);
	}
	s->oob_name = gs(oob, "name");
	s->oob_cage = gs(oob, "cage");
	s->oob_gbps = gn(oob, "gbps", 1);
	s->max_gpus_double = gi(mg, "double", 0);
	s->max_gpus_single = gi(mg, "single", 0);
}

static void fill_gpu(struct nicfit_gpu *g, json_t *o)
{
	json_t *pci = json_object_get(o, "pci");
	const char *w = gs(o, "slot_width");

	fill_entry(&g->e, o);
	g->vendor = gs(o, "vendor");
	g->memory_type = gs(o, "memory_type");
	g->memory_gib = gn(o, "memory_gib", 0);
	g->mem_bw_gbs = gn(o, "mem_bw_gbs", 0);
	g->tdp_w = gn(o, "tdp_w", 0);
	g->pcie_gen = gi(o, "pcie_gen", 0);
	g->pcie_width = gi(o, "pcie_width", 16);
	g->double_width = !w || strcmp(w, "single");
	g->baseboard = w && !strcmp(w, "baseboard");
	g->nvlink_domain = gi(o, "nvlink_domain", 0);
	g->nvlink_gbs = gn(o, "nvlink_gbs", 0);
	g->fp16_tflops = gn(o, "fp16_tflops", 0);
	g->fp8_tflops = gn(o, "fp8_tflops", 0);
	g->pci_vendor = hex(gs(pci, "vendor"));
	g->pci_device = hex(gs(pci, "device"));
}

static void fill_model(struct nicfit_model *m, json_t *o)
{
	fill_entry(&m->e, o);
	m->family = gs(o, "family");
	m->native_precision = gs(o, "native_precision");
	m->arch.params = gn(o, "params", 0);
	m->arch.active_params = gn(o, "active_params", 0);
	m->arch.layers = gi(o, "layers", 0);
	m->arch.hidden = gi(o, "hidden", 0);
	m->arch.heads = gi(o, "heads", 0);
	m->arch.kv_heads = gi(o, "kv_heads", 0);
	m->arch.head_dim = gi(o, "head_dim", 0);
	m->arch.vocab = gi(o, "vocab", 0);
	m->arch.kv_lora_rank = gi(o, "kv_lora_rank", 0);
	m->arch.rope_dim = gi(o, "rope_dim", 0);
	m->arch.tied_embeddings = gb(o, "tied_embeddings");
	m->context_max = gi(o, "context_max", 0);
	m->experts = gi(o, "experts", 0);
	m->experts_active = gi(o, "experts_active", 0);
	m->moe_layers = gi(o, "moe_layers", 0);
}

static int cmp_ids(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Rebuild the typed views of every kind from the merged objects. */
static int rebuild(struct nicfit_catalog *cat, struct nicfit_error *err)
{
	int k;

	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		struct kindstore *ks = &cat->k[k];
		size_t n = json_object_size(ks->byid), i = 0;
		const char **ids = calloc(n + 1, sizeof(*ids));
		char *views = calloc(n ? n : 1, view_size[k]);
		const char *key;
		json_t *v;

		if (!ids || !views) {
			free(ids);
			free(views);
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		}
		json_object_foreach(ks->byid, key, v)
			ids[i++] = key;
		qsort(ids, n, sizeof(*ids), cmp_ids);
		for (i = 0; i < n; i++) {
			json_t *o = json_object_get(ks->byid, ids[i]);
			void *slot = views + i * view_size[k];

			switch (k) {
			case NICFIT_KIND_NIC: fill_nic(slot, o); break;
			case NICFIT_KIND_CABLE: fill_cable(slot, o); break;
			case NICFIT_KIND_SWITCH: fill_switch(slot, o); break;
			case NICFIT_KIND_SERVER: fill_server(slot, o); break;
			case NICFIT_KIND_GPU: fill_gpu(slot, o); break;
			case NICFIT_KIND_MODEL: fill_model(slot, o); break;
			}
			/* the id key string lives in the object */
			ids[i] = ((struct nicfit_entry *)slot)->id;
		}
		free(ks->views);
		free(ks->ids);
		ks->views = views;
		ks->ids = ids;
		ks->n = n;
	}
	return 0;
}

/*
 * Merge a document into cat. Only the kinds the document names are copied
 * first, so that a failure leaves the catalog as it was. A trusted document
 * (the embedded data) is not validated again, and the typed views are left
 * for the caller to rebuild once after loading all of them.
 */
static int overlay(struct nicfit_catalog *cat, const char *input, const char *text,
		   size_t len, int trusted, struct nicfit_error *err)
{
	struct nicfit_error first;
	json_error_t jerr;
	json_t *root, *copy[NICFIT_KIND_COUNT] = { NULL };
	const char *key;
	json_t *v;
	int k, rc = 0;

	if (len > CATALOG_MAX_BYTES)
		return nicfit_error_at(err, NICFIT_E_LIMIT, input, 0, 0,
				       "catalog larger than %u bytes", CATALOG_MAX_BYTES);
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return nicfit_error_at(err, NICFIT_E_DATA, input, jerr.line, jerr.column,
				       "%s", jerr.text);
	nicfit_error_clear(&first);
	/* The embedded catalog is validated by the test suite
	 * (test_catalog.c), not on every start. */
	if (!trusted && nicfit__catalog_validate(cat, input, text, len, root, &first)) {
		json_decref(root);
		if (err && !err->code)
			*err = first;
		return first.code;
	}
	json_object_foreach(root, key, v) {
		size_t i;

		for (k = 0; k < NICFIT_KIND_COUNT; k++)
			if (!strcmp(key, nicfit__catalog_kind_plurals[k]))
				break;
		if (k == NICFIT_KIND_COUNT || !json_is_array(v))
			continue;
		if (!copy[k]) {
			copy[k] = json_object_size(cat->k[k].byid) ?
				  json_deep_copy(cat->k[k].byid) : json_object();
			if (!copy[k]) {
				rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
				goto out_free_copies;
			}
		}
		for (i = 0; i < json_array_size(v); i++) {
			json_t *e = json_array_get(v, i);
			const char *id = json_string_value(json_object_get(e, "id"));
			json_t *have = json_object_get(copy[k], id);

			if (have) {
				json_object_update(have, e);
			} else {
				json_object_set(copy[k], id, e);
				have = e;
			}
			json_object_set_new(have, "_origin", json_string(input));
			if (json_object_size(copy[k]) > CATALOG_MAX_ENTRIES) {
				rc = nicfit_error_at(err, NICFIT_E_LIMIT, input, 0, 0,
						     "more than %d %s", CATALOG_MAX_ENTRIES, key);
				goto out_free_copies;
			}
		}
	}
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		if (!copy[k])
			continue;
		json_decref(cat->k[k].byid);
		cat->k[k].byid = copy[k];
		copy[k] = NULL;
	}
	if (!trusted)
		rc = rebuild(cat, err);
out_free_copies:
	for (k = 0; k < NICFIT_KIND_COUNT; k++)
		json_decref(copy[k]);
	json_decref(root);
	return rc;
}

int nicfit_catalog_overlay(struct nicfit_catalog *cat, const char *input,
			   const char *text, size_t len, struct nicfit_error *err)
{
	return overlay(cat, input, text, len, 0, err);
}

int nicfit_catalog_new(struct nicfit_catalog **out, struct nicfit_error *err)
{
	struct nicfit_catalog *cat;
	const struct nicfit_blob *b;
	char name[128];
	int rc;

	rc = nicfit_catalog_new_empty(&cat, err);
	if (rc)
		return rc;
	for (b = nicfit_catalog_blobs; b->name; b++) {
		snprintf(name, sizeof(name), "data/%s", b->name);
		rc = overlay(cat, name, b->data, b->len, 1, err);
		if (rc) {
			nicfit_catalog_free(cat);
			return rc;
		}
	}
	rc = rebuild(cat, err);
	if (rc) {
		nicfit_catalog_free(cat);
		return rc;
	}
	*out = cat;
	return 0;
}

int nicfit_catalog_overlay_file(struct nicfit_catalog *cat, const char *path,
				struct nicfit_error *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc = nicfit_read_file(path, CATALOG_MAX_BYTES, &text, &len, err);

	if (rc)
		return rc;
	rc = nicfit_catalog_overlay(cat, path, text, len, err);
	free(text);
	return rc;
}

size_t nicfit_catalog_count(const struct nicfit_catalog *cat, enum nicfit_kind k)
{
	return (unsigned)k < NICFIT_KIND_COUNT ? cat->k[k].n : 0;
}

const struct nicfit_entry *nicfit_catalog_entry(const struct nicfit_catalog *cat,
						enum nicfit_kind k, size_t i)
{
	if ((unsigned)k >= NICFIT_KIND_COUNT || i >= cat->k[k].n)
		return NULL;
	return (const struct nicfit_entry *)(const void *)((const char *)cat->k[k].views +
							   i * view_size[k]);
}
