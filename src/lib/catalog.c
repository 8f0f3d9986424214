/*
 * catalog.c - load, validate, overlay and look up catalog entries
 * (see nicfit/catalog.h and docs/catalog.md).
 *
 * Entries are kept as jansson objects, merged field by field when an
 * overlay names an existing id; after every successful load the typed views
 * (struct nicfit_nic ...) are rebuilt from them, sorted by id. Strings in
 * the views point into the jansson objects, which the catalog owns.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "embedded_int.h"
#include "jscan_int.h"
#include "nicfit/catalog.h"
#include "nicfit/file.h"
#include "nicfit/spec.h"

#define MAX_CATALOG_BYTES (16u << 20)
#define MAX_ENTRIES_PER_KIND 4096
#define SCHEMA_NAME "nicfit.catalog.v1"

/* ---- schema ------------------------------------------------------------ */

enum ftype { F_STR, F_STRN, F_INT, F_NUM, F_NUMN, F_BOOL, F_ASTR, F_ANUM, F_OBJ, F_AOBJ };

struct field {
	const char *key;
	enum ftype t;
	int req;
	double min, max;            /* numbers and integers; lengths of strings */
	const struct field *sub;    /* F_OBJ, F_AOBJ */
	const char *const *allowed; /* strings (or array elements) from a set */
};

static const char *const cages[] = { "SFP+", "SFP28", "SFP56", "SFP112", "QSFP+", "QSFP28",
	"QSFP56", "QSFP112", "QSFP-DD", "OSFP", "RJ45", "DSFP", "SFP", NULL };
/* the far end of a cable: a cage, or an optic's fibre connector */
static const char *const cable_ends[] = { "SFP+", "SFP28", "SFP56", "SFP112", "QSFP+",
	"QSFP28", "QSFP56", "QSFP112", "QSFP-DD", "OSFP", "RJ45", "DSFP", "SFP",
	"LC duplex", "MPO-8", "MPO-12", "MPO-16", "MPO-24", NULL };
static const char *const protocols[] = { "EN", "VPI", "IB", NULL };
static const char *const rdma_kinds[] = { "roce", "infiniband", "iwarp", NULL };
static const char *const roles[] = { "frontend", "backend", "storage", NULL };
static const char *const ib_rates[] = { "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR",
	"HDR100", "HDR", "NDR200", "NDR", "XDR", NULL };
static const char *const form_factors[] = { "pcie-hhhl", "pcie-fhhl", "pcie-fhfl", "ocp2",
	"ocp3", "lom", "mezz", NULL };
static const char *const brackets[] = { "tall", "short", "none", NULL };
static const char *const cable_types[] = { "dac", "aoc", "optic", "breakout-dac",
	"breakout-aoc", "rj45", NULL };
static const char *const media[] = { "copper", "fiber", NULL };
static const char *const fibers[] = { "MMF", "SMF", NULL };
static const char *const codings[] = { "generic", "nvidia", "intel", "intel/nvidia", NULL };
static const char *const fabrics[] = { "ethernet", "infiniband", NULL };
static const char *const heights[] = { "full", "low", NULL };
static const char *const lengths[] = { "full", "half", NULL };
static const char *const gpu_fits[] = { "double", "single", "none", NULL };
static const char *const slot_kinds[] = { "pcie", "ocp3", "ocp2", "ndc", "flexlom", "mezz", NULL };
static const char *const onboard_kinds[] = { "ndc", "lom", "flexlom", "ocp", NULL };
static const char *const widths[] = { "single", "double", NULL };
static const char *const precisions[] = { "fp32", "bf16", "fp16", "fp8", "int8", "int4", NULL };

#define COMMON \
	{ "id", F_STR, 1, 1, 63, NULL, NULL }, \
	{ "name", F_STR, 1, 1, 200, NULL, NULL }, \
	{ "source", F_STR, 1, 1, 1000, NULL, NULL }, \
	{ "unverified", F_ASTR, 0, 0, 100, NULL, NULL }, \
	{ "notes", F_ASTR, 0, 0, 500, NULL, NULL }, \
	{ "price_usd", F_NUM, 0, 0, 10000000, NULL, NULL }, \
	{ "prices_as_of", F_STR, 0, 10, 10, NULL, NULL }, \
	{ "price_source", F_STR, 0, 1, 500, NULL, NULL }

static const struct field pci_fields[] = {
	{ "vendor", F_STR, 1, 4, 4, NULL, NULL },
	{ "device", F_STR, 1, 4, 4, NULL, NULL },
	{ "subsystems", F_ASTR, 0, 9, 9, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field nic_fields[] = {
	COMMON,
	{ "part", F_STR, 1, 1, 64, NULL, NULL },
	{ "vendor", F_STR, 1, 1, 64, NULL, NULL },
	{ "family", F_STR, 1, 1, 64, NULL, NULL },
	{ "protocol", F_STR, 1, 0, 0, NULL, protocols },
	{ "ports", F_INT, 1, 1, 8, NULL, NULL },
	{ "cage", F_STR, 1, 0, 0, NULL, cages },
	{ "port_gbps", F_NUM, 1, 1, 1600, NULL, NULL },
	{ "speeds_gbps", F_ANUM, 0, 0.1, 1600, NULL, NULL },
	{ "ib_rate", F_STRN, 0, 0, 0, NULL, ib_rates },
	{ "pcie_gen", F_INT, 1, 1, 6, NULL, NULL },
	{ "pcie_width", F_INT, 1, 1, 32, NULL, NULL },
	{ "pcie_gen_min", F_INT, 0, 1, 6, NULL, NULL },
	{ "card_gbps", F_NUM, 0, 1, 3200, NULL, NULL },
	{ "socket_direct", F_BOOL, 0, 0, 0, NULL, NULL },
	{ "rdma", F_ASTR, 1, 0, 0, NULL, rdma_kinds },
	{ "vpi", F_BOOL, 1, 0, 0, NULL, NULL },
	{ "pci", F_OBJ, 0, 0, 0, pci_fields, NULL },
	{ "form_factor", F_STR, 1, 0, 0, NULL, form_factors },
	{ "bracket", F_STR, 0, 0, 0, NULL, brackets },
	{ "driver", F_STR, 0, 1, 32, NULL, NULL },
	{ "module_coding", F_STR, 0, 0, 0, NULL, codings },
	{ "role", F_ASTR, 0, 0, 0, NULL, roles },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field cable_fields[] = {
	COMMON,
	{ "part", F_STRN, 1, 1, 64, NULL, NULL },
	{ "type", F_STR, 1, 0, 0, NULL, cable_types },
	{ "gbps", F_NUM, 1, 0.1, 1600, NULL, NULL },
	{ "end_a", F_STR, 1, 0, 0, NULL, cages },
	{ "end_b", F_STR, 1, 0, 0, NULL, cable_ends },
	{ "split", F_INT, 1, 1, 8, NULL, NULL },
	{ "lane_gbps", F_NUM, 1, 0.1, 1600, NULL, NULL },
	{ "length_m", F_NUMN, 1, 0.1, 100000, NULL, NULL },
	{ "max_length_m", F_NUM, 1, 0.1, 100000, NULL, NULL },
	{ "medium", F_STR, 1, 0, 0, NULL, media },
	{ "fiber", F_STR, 0, 0, 0, NULL, fibers },
	{ "standard", F_STR, 0, 1, 64, NULL, NULL },
	{ "coding", F_STR, 0, 0, 0, NULL, codings },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field switch_fields[] = {
	COMMON,
	{ "vendor", F_STR, 1, 1, 64, NULL, NULL },
	{ "fabric", F_STR, 1, 0, 0, NULL, fabrics },
	{ "ports", F_INT, 1, 1, 1024, NULL, NULL },
	{ "port_gbps", F_NUM, 1, 0.1, 1600, NULL, NULL },
	{ "cage", F_STR, 1, 0, 0, NULL, cages },
	{ "breakout", F_ASTR, 0, 3, 8, NULL, NULL },
	{ "ports_per_cage", F_INT, 0, 1, 8, NULL, NULL },
	{ "uplink_ports", F_INT, 0, 0, 1024, NULL, NULL },
	{ "uplink_gbps", F_NUM, 0, 0.1, 1600, NULL, NULL },
	{ "uplink_cage", F_STR, 0, 0, 0, NULL, cages },
	{ "uplink_breakout", F_ASTR, 0, 3, 8, NULL, NULL },
	{ "max_logical_ports", F_INT, 0, 1, 4096, NULL, NULL },
	{ "lossless", F_BOOL, 0, 0, 0, NULL, NULL },
	{ "subnet_manager", F_BOOL, 0, 0, 0, NULL, NULL },
	{ "form", F_STR, 0, 1, 8, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field slot_fields[] = {
	{ "name", F_STR, 1, 1, 32, NULL, NULL },
	{ "riser", F_STR, 0, 1, 32, NULL, NULL },
	{ "gen", F_INT, 1, 1, 6, NULL, NULL },
	{ "width", F_INT, 1, 1, 32, NULL, NULL },
	{ "connector_width", F_INT, 0, 1, 32, NULL, NULL },
	{ "height", F_STR, 1, 0, 0, NULL, heights },
	{ "length", F_STR, 1, 0, 0, NULL, lengths },
	{ "socket", F_INT, 1, 0, 7, NULL, NULL },
	{ "gpu", F_STR, 1, 0, 0, NULL, gpu_fits },
	{ "kind", F_STR, 0, 0, 0, NULL, slot_kinds },
	{ "notes", F_ASTR, 0, 0, 500, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field onboard_fields[] = {
	{ "name", F_STR, 1, 1, 64, NULL, NULL },
	{ "kind", F_STR, 1, 0, 0, NULL, onboard_kinds },
	{ "nic", F_STR, 0, 1, 63, NULL, NULL },
	{ "ports", F_INT, 1, 1, 16, NULL, NULL },
	{ "port_gbps", F_NUM, 1, 0.1, 1600, NULL, NULL },
	{ "cage", F_STR, 1, 0, 0, NULL, cages },
	{ "description", F_STR, 1, 1, 300, NULL, NULL },
	{ "socket", F_INT, 0, 0, 7, NULL, NULL },
	{ "rdma", F_ASTR, 1, 0, 0, NULL, rdma_kinds },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field oob_fields[] = {
	{ "name", F_STR, 1, 1, 64, NULL, NULL },
	{ "gbps", F_NUM, 1, 0.01, 100, NULL, NULL },
	{ "cage", F_STR, 1, 0, 0, NULL, cages },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field maxgpu_fields[] = {
	{ "double", F_INT, 0, 0, 64, NULL, NULL },
	{ "single", F_INT, 0, 0, 64, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field server_fields[] = {
	COMMON,
	{ "vendor", F_STR, 1, 1, 64, NULL, NULL },
	{ "form", F_STR, 1, 1, 8, NULL, NULL },
	{ "sockets", F_INT, 1, 1, 8, NULL, NULL },
	{ "pcie_gen", F_INT, 1, 1, 6, NULL, NULL },
	{ "cpu", F_STR, 0, 1, 128, NULL, NULL },
	{ "slots", F_AOBJ, 1, 0, NICFIT_MAX_SLOTS, slot_fields, NULL },
	{ "onboard", F_AOBJ, 1, 0, 8, onboard_fields, NULL },
	{ "oob", F_OBJ, 1, 0, 0, oob_fields, NULL },
	{ "max_gpus", F_OBJ, 0, 0, 0, maxgpu_fields, NULL },
	{ "generic", F_BOOL, 0, 0, 0, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field gpu_pci_fields[] = {
	{ "vendor", F_STR, 1, 4, 4, NULL, NULL },
	{ "device", F_STR, 1, 4, 4, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field gpu_fields[] = {
	COMMON,
	{ "vendor", F_STR, 1, 1, 64, NULL, NULL },
	{ "memory_gib", F_NUM, 1, 1, 100000, NULL, NULL },
	{ "memory_type", F_STR, 1, 1, 32, NULL, NULL },
	{ "mem_bw_gbs", F_NUM, 1, 1, 100000, NULL, NULL },
	{ "pcie_gen", F_INT, 1, 1, 6, NULL, NULL },
	{ "pcie_width", F_INT, 1, 1, 32, NULL, NULL },
	{ "tdp_w", F_NUM, 1, 1, 5000, NULL, NULL },
	{ "slot_width", F_STR, 1, 0, 0, NULL, widths },
	{ "nvlink_gbs", F_NUMN, 1, 0, 100000, NULL, NULL },
	{ "fp16_tflops", F_NUMN, 1, 0, 100000, NULL, NULL },
	{ "pci", F_OBJ, 0, 0, 0, gpu_pci_fields, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field model_fields[] = {
	COMMON,
	{ "family", F_STR, 1, 1, 64, NULL, NULL },
	{ "params", F_INT, 1, 1e6, 1e14, NULL, NULL },
	{ "active_params", F_INT, 0, 1e6, 1e14, NULL, NULL },
	{ "layers", F_INT, 1, 1, 10000, NULL, NULL },
	{ "hidden", F_INT, 1, 1, 1000000, NULL, NULL },
	{ "heads", F_INT, 1, 1, 10000, NULL, NULL },
	{ "kv_heads", F_INT, 1, 1, 10000, NULL, NULL },
	{ "head_dim", F_INT, 1, 1, 10000, NULL, NULL },
	{ "vocab", F_INT, 1, 1, 10000000, NULL, NULL },
	{ "context_max", F_INT, 1, 1, 100000000, NULL, NULL },
	{ "kv_lora_rank", F_INT, 0, 1, 100000, NULL, NULL },
	{ "rope_dim", F_INT, 0, 0, 100000, NULL, NULL },
	{ "experts", F_INT, 0, 1, 10000, NULL, NULL },
	{ "experts_active", F_INT, 0, 1, 10000, NULL, NULL },
	{ "tied_embeddings", F_BOOL, 0, 0, 0, NULL, NULL },
	{ "native_precision", F_STR, 0, 0, 0, NULL, precisions },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field *const kind_fields[NICFIT_KIND_COUNT] = {
	nic_fields, cable_fields, switch_fields, server_fields, gpu_fields, model_fields
};

static const char *const kind_names[NICFIT_KIND_COUNT] = {
	"nic", "cable", "switch", "server", "gpu", "model"
};
static const char *const kind_plurals[NICFIT_KIND_COUNT + 1] = {
	"nics", "cables", "switches", "servers", "gpus", "models", NULL
};

const char *nicfit_kind_name(enum nicfit_kind k)
{
	return (unsigned)k < NICFIT_KIND_COUNT ? kind_names[k] : "?";
}

const char *nicfit_kind_plural(enum nicfit_kind k)
{
	return (unsigned)k < NICFIT_KIND_COUNT ? kind_plurals[k] : "?";
}

int nicfit_kind_parse(const char *s, enum nicfit_kind *out, struct nicfit_error *err)
{
	int k;

	for (k = 0; k < NICFIT_KIND_COUNT; k++)
		if (!strcasecmp(s, kind_names[k]) || !strcasecmp(s, kind_plurals[k])) {
			*out = (enum nicfit_kind)k;
			return 0;
		}
	return nicfit_error_set(err, NICFIT_E_USAGE,
				"unknown kind '%.32s' (use nics, cables, switches, servers, gpus or models)",
				s);
}

/* ---- validation -------------------------------------------------------- */

struct checker {
	const char *input, *text;
	size_t len;
	struct nicfit_error *errs;
	size_t max, n;
	struct jscan js;   /* the text's tokens, for positions: made at the first problem */
	int tokenized;     /* 0 not yet, 1 js holds the tokens, -1 the text has none */
};

static void checker_init(struct checker *c, const char *input, const char *text, size_t len,
			 struct nicfit_error *errs, size_t max)
{
	memset(c, 0, sizeof(*c));
	c->input = input;
	c->text = text;
	c->len = len;
	c->errs = errs;
	c->max = max;
	nicfit__jscan_init(&c->js);
}

static void checker_release(struct checker *c)
{
	nicfit__jscan_release(&c->js);
}

static void problem(struct checker *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void problem(struct checker *c, const char *path, const char *fmt, ...)
{
	long line = 0, col = 0;
	char msg[400];
	va_list ap;

	if (c->n++ >= c->max)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!c->tokenized)
		c->tokenized = nicfit__jscan_parse(&c->js, c->text, c->len) ? -1 : 1;
	if (c->tokenized > 0)
		nicfit__jscan_locate(&c->js, path, &line, &col);
	nicfit_error_clear(&c->errs[c->n - 1]);
	nicfit_error_at(&c->errs[c->n - 1], NICFIT_E_DATA, c->input, line, col, "%s", msg);
}

static const char *type_name(enum ftype t)
{
	switch (t) {
	case F_STR: return "a string";
	case F_STRN: return "a string or null";
	case F_INT: return "an integer";
	case F_NUM: return "a number";
	case F_NUMN: return "a number or null";
	case F_BOOL: return "true or false";
	case F_ASTR: return "an array of strings";
	case F_ANUM: return "an array of numbers";
	case F_OBJ: return "an object";
	case F_AOBJ: return "an array of objects";
	}
	return "?";
}

static int in_set(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(s, *set))
			return 1;
	return 0;
}

static void set_list(char *out, size_t n, const char *const *set)
{
	size_t k = 0;

	out[0] = '\0';
	for (; *set && k + 1 < n; set++)
		k += (size_t)snprintf(out + k, n - k, "%s%s", k ? ", " : "", *set);
}

static void check_object(struct checker *c, json_t *o, const struct field *fields,
			 const char *path, int need_required);

static void check_string(struct checker *c, json_t *v, const struct field *f,
			 const char *path)
{
	const char *s = json_string_value(v);
	size_t len = json_string_length(v);
	char set[300];

	if (f->allowed) {
		if (!in_set(s, f->allowed)) {
			set_list(set, sizeof(set), f->allowed);
			problem(c, path, "'%s': '%.40s' is not one of %s", f->key, s, set);
		}
		return;
	}
	if (f->max > 0 && (len < f->min || len > f->max))
		problem(c, path, "'%s': length %zu outside %g..%g", f->key, len, f->min, f->max);
}

static void check_value(struct checker *c, json_t *v, const struct field *f,
			const char *path, int need_required)
{
	char sub[512];
	size_t i;
	double d;

	switch (f->t) {
	case F_STRN:
		if (json_is_null(v))
			return;
		/* fall through */
	case F_STR:
		if (!json_is_string(v)) {
			problem(c, path, "'%s' must be %s", f->key, type_name(f->t));
			return;
		}
		check_string(c, v, f, path);
		return;
	case F_INT:
		if (!json_is_integer(v)) {
			problem(c, path, "'%s' must be %s", f->key, type_name(f->t));
			return;
		}
		d = (double)json_integer_value(v);
		if (d < f->min || d > f->max)
			problem(c, path, "'%s': %.0f outside %.0f..%.0f", f->key, d, f->min, f->max);
		return;
	case F_NUMN:
		if (json_is_null(v))
			return;
		/* fall through */
	case F_NUM:
		if (!json_is_number(v)) {
			problem(c, path, "'%s' must be %s", f->key, type_name(f->t));
			return;
		}
		d = json_number_value(v);
		if (!isfinite(d) || d < f->min || d > f->max)
			problem(c, path, "'%s': %g outside %g..%g", f->key, d, f->min, f->max);
		return;
	case F_BOOL:
		if (!json_is_boolean(v))
			problem(c, path, "'%s' must be %s", f->key, type_name(f->t));
		return;
	case F_ASTR:
	case F_ANUM:
	case F_AOBJ:
		if (!json_is_array(v)) {
			problem(c, path, "'%s' must be %s", f->key, type_name(f->t));
			return;
		}
		if (json_array_size(v) > NICFIT_MAX_LIST && f->t != F_AOBJ) {
			problem(c, path, "'%s' has more than %d elements", f->key, NICFIT_MAX_LIST);
			return;
		}
		if (f->t == F_AOBJ && json_array_size(v) > (size_t)f->max) {
			problem(c, path, "'%s' has more than %.0f elements", f->key, f->max);
			return;
		}
		for (i = 0; i < json_array_size(v); i++) {
			json_t *el = json_array_get(v, i);

			snprintf(sub, sizeof(sub), "%s/%zu", path, i);
			if (f->t == F_AOBJ) {
				if (!json_is_object(el))
					problem(c, sub, "'%s'[%zu] must be an object", f->key, i);
				else
					check_object(c, el, f->sub, sub, 1);
			} else if (f->t == F_ASTR) {
				if (!json_is_string(el))
					problem(c, sub, "'%s'[%zu] must be a string", f->key, i);
				else
					check_string(c, el, f, sub);
			} else if (!json_is_number(el) || !isfinite(json_number_value(el)) ||
				   json_number_value(el) < f->min || json_number_value(el) > f->max) {
				problem(c, sub, "'%s'[%zu] must be a number in %g..%g", f->key, i,
					f->min, f->max);
			}
		}
		return;
	case F_OBJ:
		if (!json_is_object(v)) {
			problem(c, path, "'%s' must be %s", f->key, type_name(f->t));
			return;
		}
		check_object(c, v, f->sub, path, need_required);
		return;
	}
}

static void check_object(struct checker *c, json_t *o, const struct field *fields,
			 const char *path, int need_required)
{
	const struct field *f;
	const char *key;
	char sub[512];
	json_t *v;

	json_object_foreach(o, key, v) {
		for (f = fields; f->key; f++)
			if (!strcmp(f->key, key))
				break;
		snprintf(sub, sizeof(sub), "%s/%s", path, key);
		if (!f->key) {
			const char *known[64];
			const char *near;
			int k = 0;

			for (f = fields; f->key && k < 63; f++)
				known[k++] = f->key;
			known[k] = NULL;
			near = nicfit_suggest(key, known);
			if (near)
				problem(c, sub, "unknown key '%.40s' (did you mean '%s'?)", key, near);
			else
				problem(c, sub, "unknown key '%.40s'", key);
			continue;
		}
		check_value(c, v, f, sub, need_required);
	}
	if (!need_required)
		return;
	{
		char missing[400];
		size_t k = 0;
		int n = 0;

		missing[0] = '\0';
		for (f = fields; f->key; f++)
			if (f->req && !json_object_get(o, f->key) && k < sizeof(missing)) {
				k += (size_t)snprintf(missing + k, sizeof(missing) - k, "%s'%s'",
						      n ? ", " : "", f->key);
				n++;
			}
		if (n)
			problem(c, path, "missing required key%s %s", n == 1 ? "" : "s", missing);
	}
}

static int valid_id(const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) ||
		      strchr("-._+", *s)))
			return 0;
	return n >= 1 && n <= 63;
}

/* Is id present in kind k of cat (NULL cat: no)? */
static int base_has(const struct nicfit_catalog *cat, enum nicfit_kind k, const char *id);

/*
 * Check a whole parsed document. Entries whose id the base has are
 * partial overrides. Returns the number of problems.
 */
static size_t check_document(struct checker *c, json_t *root,
			     const struct nicfit_catalog *base, size_t *total)
{
	const char *key;
	json_t *v;
	int k;

	if (total)
		*total = 0;
	if (!json_is_object(root)) {
		problem(c, "", "a catalog file is a JSON object with \"schema\": \"%s\"", SCHEMA_NAME);
		return c->n;
	}
	json_object_foreach(root, key, v) {
		char path[256];
		size_t i, j;

		snprintf(path, sizeof(path), "/%s", key);
		if (!strcmp(key, "schema")) {
			if (!json_is_string(v) || strcmp(json_string_value(v), SCHEMA_NAME))
				problem(c, path, "'schema' must be \"%s\"", SCHEMA_NAME);
			continue;
		}
		for (k = 0; k < NICFIT_KIND_COUNT; k++)
			if (!strcmp(key, kind_plurals[k]))
				break;
		if (k == NICFIT_KIND_COUNT) {
			const char *near = nicfit_suggest(key, kind_plurals);

			if (near)
				problem(c, path, "unknown key '%.40s' (did you mean '%s'?)", key, near);
			else
				problem(c, path, "unknown key '%.40s' (expected schema, nics, cables, switches, servers, gpus, models)", key);
			continue;
		}
		if (!json_is_array(v)) {
			problem(c, path, "'%s' must be an array of entries", key);
			continue;
		}
		if (json_array_size(v) > MAX_ENTRIES_PER_KIND) {
			problem(c, path, "more than %d %s", MAX_ENTRIES_PER_KIND, key);
			continue;
		}
		for (i = 0; i < json_array_size(v); i++) {
			json_t *e = json_array_get(v, i);
			json_t *id;
			char epath[300];
			int partial;

			snprintf(epath, sizeof(epath), "/%s/%zu", key, i);
			if (total)
				(*total)++;
			if (!json_is_object(e)) {
				problem(c, epath, "entry must be an object");
				continue;
			}
			id = json_object_get(e, "id");
			if (!json_is_string(id)) {
				problem(c, epath, "entry needs an 'id' string");
				continue;
			}
			if (!valid_id(json_string_value(id))) {
				snprintf(epath, sizeof(epath), "/%s/%zu/id", key, i);
				problem(c, epath, "id '%.64s' must be 1-63 lowercase letters, digits, '-', '.', '_' or '+'",
					json_string_value(id));
				continue;
			}
			for (j = 0; j < i; j++) {
				json_t *o = json_object_get(json_array_get(v, j), "id");

				if (json_is_string(o) && !strcmp(json_string_value(o), json_string_value(id))) {
					problem(c, epath, "duplicate id '%s' (also entry %zu)",
						json_string_value(id), j);
					break;
				}
			}
			partial = base_has(base, (enum nicfit_kind)k, json_string_value(id));
			check_object(c, e, kind_fields[k], epath, !partial);
			if (json_object_get(e, "price_usd") &&
			    (!json_object_get(e, "prices_as_of") || !json_object_get(e, "price_source")))
				problem(c, epath, "a price needs 'prices_as_of' and 'price_source'");
		}
	}
	if (!json_object_get(root, "schema"))
		problem(c, "", "missing \"schema\": \"%s\"", SCHEMA_NAME);
	return c->n;
}

/* ---- the catalog ------------------------------------------------------- */

struct kindstore {
	json_t *byid;       /* id -> merged entry object */
	void *views;        /* typed array, sorted by id */
	size_t n;
	const char **ids;   /* NULL-terminated, for suggestions */
};

struct nicfit_catalog {
	struct kindstore k[NICFIT_KIND_COUNT];
};

static const size_t view_size[NICFIT_KIND_COUNT] = {
	sizeof(struct nicfit_nic), sizeof(struct nicfit_cable), sizeof(struct nicfit_switch),
	sizeof(struct nicfit_server), sizeof(struct nicfit_gpu), sizeof(struct nicfit_model)
};

static int base_has(const struct nicfit_catalog *cat, enum nicfit_kind k, const char *id)
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
}

static void fill_switch(struct nicfit_switch *s, json_t *o)
{
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
}

static void fill_server(struct nicfit_server *s, json_t *o)
{
	static const char *const rdma_bits[] = { "roce", "infiniband", "iwarp", NULL };
	json_t *slots = json_object_get(o, "slots"), *ob = json_object_get(o, "onboard");
	json_t *oob = json_object_get(o, "oob"), *mg = json_object_get(o, "max_gpus");
	size_t i;

	fill_entry(&s->e, o);
	s->vendor = gs(o, "vendor");
	s->form = gs(o, "form");
	s->cpu = gs(o, "cpu");
	s->sockets = gi(o, "sockets", 1);
	s->pcie_gen = gi(o, "pcie_gen", 3);
	s->generic = gb(o, "generic");
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
			  gpu && !strcmp(gpu, "single") ? NICFIT_GPU_SINGLE : NICFIT_GPU_NONE;
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
	g->nvlink_gbs = gn(o, "nvlink_gbs", 0);
	g->fp16_tflops = gn(o, "fp16_tflops", 0);
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
	struct checker c;
	json_error_t jerr;
	json_t *root, *copy[NICFIT_KIND_COUNT] = { NULL };
	const char *key;
	json_t *v;
	int k, rc = 0;

	if (len > MAX_CATALOG_BYTES)
		return nicfit_error_at(err, NICFIT_E_LIMIT, input, 0, 0,
				       "catalog larger than %u bytes", MAX_CATALOG_BYTES);
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return nicfit_error_at(err, NICFIT_E_DATA, input, jerr.line, jerr.column,
				       "%s", jerr.text);
	nicfit_error_clear(&first);
	/* The embedded catalog is validated by the test suite
	 * (test_catalog.c), not on every start. */
	checker_init(&c, input, text, len, &first, 1);
	if (!trusted && check_document(&c, root, cat, NULL)) {
		checker_release(&c);
		json_decref(root);
		if (err && !err->code)
			*err = first;
		return first.code;
	}
	checker_release(&c);
	json_object_foreach(root, key, v) {
		size_t i;

		for (k = 0; k < NICFIT_KIND_COUNT; k++)
			if (!strcmp(key, kind_plurals[k]))
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
			if (json_object_size(copy[k]) > MAX_ENTRIES_PER_KIND) {
				rc = nicfit_error_at(err, NICFIT_E_LIMIT, input, 0, 0,
						     "more than %d %s", MAX_ENTRIES_PER_KIND, key);
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
	int rc = nicfit_read_file(path, MAX_CATALOG_BYTES, &text, &len, err);

	if (rc)
		return rc;
	rc = nicfit_catalog_overlay(cat, path, text, len, err);
	free(text);
	return rc;
}

size_t nicfit_catalog_check(const struct nicfit_catalog *base, const char *input,
			    const char *text, size_t len,
			    struct nicfit_error *errs, size_t max, size_t *total)
{
	struct checker c;
	json_error_t jerr;
	json_t *root;
	size_t n;

	if (total)
		*total = 0;
	if (len > MAX_CATALOG_BYTES) {
		if (max)
			nicfit_error_at(&errs[0], NICFIT_E_LIMIT, input, 0, 0,
					"catalog larger than %u bytes", MAX_CATALOG_BYTES);
		return 1;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (max) {
			nicfit_error_clear(&errs[0]);
			nicfit_error_at(&errs[0], NICFIT_E_DATA, input, jerr.line, jerr.column,
					"%s", jerr.text);
		}
		return 1;
	}
	checker_init(&c, input, text, len, errs, max);
	n = check_document(&c, root, base, total);
	checker_release(&c);
	json_decref(root);
	return n;
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

#define ACCESSOR(fn, type, kind) \
	const struct type *fn(const struct nicfit_catalog *cat, size_t i) \
	{ \
		return (const struct type *)(const void *)nicfit_catalog_entry(cat, kind, i); \
	}

ACCESSOR(nicfit_catalog_nic, nicfit_nic, NICFIT_KIND_NIC)
ACCESSOR(nicfit_catalog_cable, nicfit_cable, NICFIT_KIND_CABLE)
ACCESSOR(nicfit_catalog_switch, nicfit_switch, NICFIT_KIND_SWITCH)
ACCESSOR(nicfit_catalog_server, nicfit_server, NICFIT_KIND_SERVER)
ACCESSOR(nicfit_catalog_gpu, nicfit_gpu, NICFIT_KIND_GPU)
ACCESSOR(nicfit_catalog_model, nicfit_model, NICFIT_KIND_MODEL)

static const struct nicfit_entry *find(const struct nicfit_catalog *cat, enum nicfit_kind k,
				       const char *id)
{
	size_t i;

	for (i = 0; i < cat->k[k].n; i++) {
		const struct nicfit_entry *e = nicfit_catalog_entry(cat, k, i);

		if (!strcasecmp(e->id, id))
			return e;
	}
	if (k == NICFIT_KIND_NIC || k == NICFIT_KIND_CABLE) {
		for (i = 0; i < cat->k[k].n; i++) {
			const struct nicfit_entry *e = nicfit_catalog_entry(cat, k, i);
			const char *part = k == NICFIT_KIND_NIC ?
				((const struct nicfit_nic *)(const void *)e)->part :
				((const struct nicfit_cable *)(const void *)e)->part;

			if (part && !strcasecmp(part, id))
				return e;
		}
	}
	return NULL;
}

static const struct nicfit_entry *find_or_fail(const struct nicfit_catalog *cat,
					       enum nicfit_kind k, const char *id,
					       const char *what, struct nicfit_error *err)
{
	const struct nicfit_entry *e = find(cat, k, id);
	const char *near;

	if (e)
		return e;
	near = nicfit_suggest(id, cat->k[k].ids);
	if (near)
		nicfit_error_at(err, NICFIT_E_NOTFOUND, what, 0, 0,
				"unknown %s '%.64s' (did you mean '%s'?)", kind_names[k], id, near);
	else
		nicfit_error_at(err, NICFIT_E_NOTFOUND, what, 0, 0,
				"unknown %s '%.64s' (see 'nicfit catalog list %s')",
				kind_names[k], id, kind_plurals[k]);
	return NULL;
}

#define FINDER(fn, type, kind) \
	const struct type *fn(const struct nicfit_catalog *cat, const char *id, \
			      const char *what, struct nicfit_error *err) \
	{ \
		return (const struct type *)(const void *)find_or_fail(cat, kind, id, what, err); \
	}

FINDER(nicfit_catalog_find_nic, nicfit_nic, NICFIT_KIND_NIC)
FINDER(nicfit_catalog_find_cable, nicfit_cable, NICFIT_KIND_CABLE)
FINDER(nicfit_catalog_find_switch, nicfit_switch, NICFIT_KIND_SWITCH)
FINDER(nicfit_catalog_find_server, nicfit_server, NICFIT_KIND_SERVER)
FINDER(nicfit_catalog_find_gpu, nicfit_gpu, NICFIT_KIND_GPU)
FINDER(nicfit_catalog_find_model, nicfit_model, NICFIT_KIND_MODEL)

const struct nicfit_entry *nicfit_catalog_lookup(const struct nicfit_catalog *cat,
						 const char *id, enum nicfit_kind *kind)
{
	int k;

	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		const struct nicfit_entry *e = find(cat, (enum nicfit_kind)k, id);

		if (e) {
			if (kind)
				*kind = (enum nicfit_kind)k;
			return e;
		}
	}
	return NULL;
}

const struct nicfit_nic *nicfit_catalog_find_nic_pci(const struct nicfit_catalog *cat,
						     unsigned vendor, unsigned device,
						     unsigned subvendor, unsigned subdevice)
{
	const struct nicfit_nic *any = NULL;
	size_t i;
	int s;

	for (i = 0; i < cat->k[NICFIT_KIND_NIC].n; i++) {
		const struct nicfit_nic *n = nicfit_catalog_nic(cat, i);

		if (n->pci_vendor != vendor || n->pci_device != device)
			continue;
		for (s = 0; s < n->nsubsys; s++)
			if (n->subsys[s][0] == subvendor && n->subsys[s][1] == subdevice)
				return n;
		if (!any)
			any = n;
	}
	(void)any; /* a device ID alone names a chip, not a card */
	return NULL;
}

int nicfit_entry_unverified(const struct nicfit_entry *e, const char *field)
{
	int i;

	for (i = 0; i < e->nunverified; i++)
		if (!strcmp(e->unverified[i], field))
			return 1;
	return 0;
}

char *nicfit_catalog_entry_json(const struct nicfit_catalog *cat, enum nicfit_kind k,
				const char *id, int pretty)
{
	const struct nicfit_entry *e = find(cat, k, id);
	json_t *o, *copy;
	char *s;

	if (!e)
		return NULL;
	o = json_object_get(cat->k[k].byid, e->id);
	copy = json_deep_copy(o);
	if (!copy)
		return NULL;
	json_object_del(copy, "_origin");
	s = json_dumps(copy, (pretty ? JSON_INDENT(2) : JSON_COMPACT) | JSON_REAL_PRECISION(15));
	json_decref(copy);
	return s;
}

const char *nicfit_cable_type_name(enum nicfit_cable_type t)
{
	switch (t) {
	case NICFIT_CABLE_DAC: return "dac";
	case NICFIT_CABLE_AOC: return "aoc";
	case NICFIT_CABLE_OPTIC: return "optic";
	case NICFIT_CABLE_BREAKOUT_DAC: return "breakout-dac";
	case NICFIT_CABLE_BREAKOUT_AOC: return "breakout-aoc";
	case NICFIT_CABLE_RJ45: return "rj45";
	}
	return "?";
}
