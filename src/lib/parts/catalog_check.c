/*
 * catalog_check.c - the catalog schema and the checks against it (see
 * nicfit/catalog.h and docs/catalog.md).
 *
 * The schema is a table per kind: each field's type, whether it is
 * required, its range or its allowed values. A document is checked as a
 * whole against it before anything is merged, every problem with the
 * position of its value (input:line:col, from the tokenizer: jscan_int.h);
 * nicfit_catalog_check() reports them all, an overlay only the first.
 * This file does not load or keep entries (catalog.c does).
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jansson_int.h"

#include "parts/catalog_int.h"
#include "core/jscan_int.h"
#include "core/text_int.h"
#include "core/utf8.h"
#include "nicfit/catalog.h"
#include "nicfit/spec.h"

/* ---- schema ------------------------------------------------------------ */

enum ftype { F_STR, F_STRN, F_DATE, F_INT, F_NUM, F_NUMN, F_BOOL, F_ASTR, F_ANUM, F_OBJ, F_AOBJ };

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
static const char *const gdr_kinds[] = { "dmabuf", "peermem", NULL };
static const char *const roles[] = { "frontend", "backend", "storage", NULL };
static const char *const ib_rates[] = { "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR",
	"HDR100", "HDR", "NDR200", "NDR", "XDR", NULL };
static const char *const form_factors[] = { "pcie-hhhl", "pcie-fhhl", "pcie-fhfl", "ocp2",
	"ocp3", "lom", "mezz", NULL };
static const char *const brackets[] = { "tall", "short", "none", NULL };
static const char *const nic_slot_widths[] = { "single", "double", NULL };
static const char *const cable_types[] = { "dac", "aoc", "optic", "breakout-dac",
	"breakout-aoc", "rj45", NULL };
static const char *const media[] = { "copper", "fiber", NULL };
static const char *const fibers[] = { "MMF", "SMF", NULL };
static const char *const codings[] = { "generic", "nvidia", "intel", "intel/nvidia", NULL };
static const char *const tops[] = { "flat", "finned", NULL };
static const char *const fabrics[] = { "ethernet", "infiniband", NULL };
static const char *const scheds[] = { "leaf", "fabric", NULL };
static const char *const heights[] = { "full", "low", NULL };
static const char *const lengths[] = { "full", "half", NULL };
static const char *const gpu_fits[] = { "double", "single", "none", "baseboard", NULL };
static const char *const slot_kinds[] = { "pcie", "ocp3", "ocp2", "ndc", "flexlom", "mezz",
	"baseboard", NULL };
static const char *const slot_roles[] = { "compute", "storage", "frontend", "gpu", NULL };
static const char *const onboard_kinds[] = { "ndc", "lom", "flexlom", "ocp", NULL };
static const char *const widths[] = { "single", "double", "baseboard", NULL };
static const char *const precisions[] = { "fp32", "bf16", "fp16", "fp8", "int8", "int4", NULL };

#define COMMON \
	{ "id", F_STR, 1, 1, 63, NULL, NULL }, \
	{ "name", F_STR, 1, 1, 200, NULL, NULL }, \
	{ "source", F_STR, 1, 1, 1000, NULL, NULL }, \
	{ "unverified", F_ASTR, 0, 0, 100, NULL, NULL }, \
	{ "notes", F_ASTR, 0, 0, 500, NULL, NULL }, \
	{ "price_usd", F_NUM, 0, 0, 10000000, NULL, NULL }, \
	{ "prices_as_of", F_DATE, 0, 0, 0, NULL, NULL }, \
	{ "price_source", F_STR, 0, 1, 500, NULL, NULL }

static const struct field pci_fields[] = {
	{ "vendor", F_STR, 1, 4, 4, NULL, NULL },
	{ "device", F_STR, 1, 4, 4, NULL, NULL },
	{ "subsystems", F_ASTR, 0, 9, 9, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field port_mode_fields[] = {
	{ "ports", F_INT, 1, 1, 8, NULL, NULL },
	{ "gbps", F_NUM, 1, 1, 1600, NULL, NULL },
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
	{ "socket_direct_links", F_INT, 0, 2, 2, NULL, NULL },
	{ "socket_direct_width", F_INT, 0, 1, 16, NULL, NULL },
	{ "socket_direct_option", F_BOOL, 0, 0, 0, NULL, NULL },
	{ "supernic", F_BOOL, 0, 0, 0, NULL, NULL },
	{ "rdma", F_ASTR, 1, 0, 0, NULL, rdma_kinds },
	{ "vpi", F_BOOL, 1, 0, 0, NULL, NULL },
	{ "pci", F_OBJ, 0, 0, 0, pci_fields, NULL },
	{ "psids", F_ASTR, 0, 4, 32, NULL, NULL },
	{ "form_factor", F_STR, 1, 0, 0, NULL, form_factors },
	{ "slot_width", F_STR, 0, 0, 0, NULL, nic_slot_widths },
	{ "bracket", F_STR, 0, 0, 0, NULL, brackets },
	{ "driver", F_STR, 0, 1, 32, NULL, NULL },
	{ "module_coding", F_STR, 0, 0, 0, NULL, codings },
	{ "role", F_ASTR, 0, 0, 0, NULL, roles },
	{ "lanes", F_INT, 0, 1, 8, NULL, NULL },
	{ "lane_gbps", F_NUM, 0, 1, 400, NULL, NULL },
	{ "gpudirect", F_ASTR, 0, 0, 0, NULL, gdr_kinds },
	{ "gpudirect_source", F_STR, 0, 1, 600, NULL, NULL },
	{ "port_modes", F_AOBJ, 0, 0, NICFIT_MAX_PORT_MODES, port_mode_fields, NULL },
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
	{ "lanes_a", F_INT, 0, 1, 8, NULL, NULL },
	{ "lanes_b", F_INT, 0, 1, 8, NULL, NULL },
	{ "serdes_gbps_a", F_NUM, 0, 1, 400, NULL, NULL },
	{ "serdes_gbps_b", F_NUM, 0, 1, 400, NULL, NULL },
	{ "top_a", F_STR, 0, 0, 0, NULL, tops },
	{ "fabric", F_STR, 0, 0, 0, NULL, fabrics },
	{ "top_b", F_STR, 0, 0, 0, NULL, tops },
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
	{ "lanes_per_port", F_INT, 0, 1, 8, NULL, NULL },
	{ "lane_gbps", F_NUM, 0, 1, 400, NULL, NULL },
	{ "lane_rates", F_ANUM, 0, 1, 400, NULL, NULL },
	{ "scheduled", F_STR, 0, 0, 0, NULL, scheds },
	{ "fabric_switch", F_STR, 0, 1, 63, NULL, NULL },
	{ "chassis", F_BOOL, 0, 0, 0, NULL, NULL },
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
	{ "card_width", F_STR, 0, 0, 0, NULL, nic_slot_widths },
	{ "kind", F_STR, 0, 0, 0, NULL, slot_kinds },
	{ "role", F_STR, 0, 0, 0, NULL, slot_roles },
	{ "switch", F_STR, 0, 1, 32, NULL, NULL },
	{ "notes", F_ASTR, 0, 0, 500, NULL, NULL },
	{ "included", F_STR, 0, 1, 63, NULL, NULL },
	{ "shared_cage", F_STR, 0, 1, 32, NULL, NULL },
	{ "cage_top", F_STR, 0, 0, 0, NULL, tops },
	{ "holds", F_STR, 0, 1, 200, NULL, NULL },
	{ "configs", F_ASTR, 0, 1, 32, NULL, NULL },
	{ "gpu_power", F_STR, 0, 1, 80, NULL, NULL },
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

static const struct field pcie_switch_fields[] = {
	{ "id", F_STR, 1, 1, 32, NULL, NULL },
	{ "socket", F_INT, 1, 0, 7, NULL, NULL },
	{ "gen", F_INT, 1, 1, 6, NULL, NULL },
	{ "width", F_INT, 1, 1, 32, NULL, NULL },
	{ "upstream", F_STR, 0, 1, 32, NULL, NULL },
	{ "notes", F_ASTR, 0, 0, 500, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const char *const coolings[] = { "air", "liquid", NULL };

static const struct field rack_fields[] = {
	{ "trays", F_INT, 1, 1, 72, NULL, NULL },
	{ "switch_trays", F_INT, 0, 0, 72, NULL, NULL },
	{ "mgmt_switches", F_INT, 0, 0, 16, NULL, NULL },
	{ "kw", F_NUM, 0, 0.1, 2000, NULL, NULL },
	{ "cooling", F_STR, 0, 0, 0, NULL, coolings },
	{ "racks", F_INT, 0, 1, 8, NULL, NULL },
	{ "fabric_switch", F_STR, 0, 1, 63, NULL, NULL },
	{ "su_racks", F_INT, 0, 1, 64, NULL, NULL },
	{ "switch_tray_u", F_INT, 0, 1, 8, NULL, NULL },
	{ "mgmt_switch_u", F_INT, 0, 1, 8, NULL, NULL },
	{ "power_shelves", F_INT, 0, 0, 16, NULL, NULL }, { "power_shelf_u", F_INT, 0, 1, 8, NULL, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field riser_config_fields[] = {
	{ "id", F_STR, 1, 1, 32, NULL, NULL },
	{ "name", F_STR, 1, 1, 160, NULL, NULL },
	{ "max_gpus", F_OBJ, 0, 0, 0, maxgpu_fields, NULL },
	{ "notes", F_ASTR, 0, 0, 500, NULL, NULL },
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
	{ "pcie_switches", F_AOBJ, 0, 0, NICFIT_MAX_PCIE_SWITCHES, pcie_switch_fields, NULL },
	{ "baseboard_gpu", F_STR, 0, 1, 63, NULL, NULL },
	{ "rack", F_OBJ, 0, 0, 0, rack_fields, NULL },
	{ "riser_configs", F_AOBJ, 0, 0, NICFIT_MAX_RISER_CONFIGS, riser_config_fields, NULL },
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
	{ "nvlink_domain", F_INT, 0, 1, 100000, NULL, NULL },
	{ "fp16_tflops", F_NUMN, 1, 0, 100000, NULL, NULL },
	{ "bf16", F_BOOL, 0, 0, 0, NULL, NULL },
	{ "fp8_tflops", F_NUMN, 0, 0, 100000, NULL, NULL },
	{ "pci", F_OBJ, 0, 0, 0, gpu_pci_fields, NULL },
	{ "power_connector", F_STR, 0, 1, 80, NULL, NULL },
	{ "scaleout_ports", F_INT, 0, 1, 64, NULL, NULL },
	{ "scaleout_gbps", F_NUM, 0, 1, 3200, NULL, NULL },
	{ "scaleout_cage", F_STR, 0, 0, 0, NULL, cages },
	{ "scaleout_per_cage", F_INT, 0, 1, 8, NULL, NULL },
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
	{ "moe_layers", F_INT, 0, 1, 10000, NULL, NULL },
	{ "tied_embeddings", F_BOOL, 0, 0, 0, NULL, NULL },
	{ "native_precision", F_STR, 0, 0, 0, NULL, precisions },
	{ NULL, 0, 0, 0, 0, NULL, NULL }
};

static const struct field *const kind_fields[NICFIT_KIND_COUNT] = {
	nic_fields, cable_fields, switch_fields, server_fields, gpu_fields, model_fields
};

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
	/* every document jansson accepted has positions */
	c->js.max_depth = JSON_PARSER_MAX_DEPTH;
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

/* problem() for the slot map checks of catalog_slots.c. */
static void report(void *ctx, const char *path, const char *msg)
{
	problem(ctx, path, "%s", msg);
}

static const char *type_name(enum ftype t)
{
	switch (t) {
	case F_STR: return "a string";
	case F_STRN: return "a string or null";
	case F_DATE: return "a date, YYYY-MM-DD";
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

/*
 * The first character of the len bytes at s (UTF-8, as jansson gave
 * them) that a one-line string of the catalog may not hold: what it is,
 * and in out how to name it. Every string of the catalog is one line of
 * text that reaches a terminal, a table cell, a CSV field or an SVG: a
 * line break splits the line it is printed on, and ESC, BEL and the C1
 * controls (U+0080-U+009F, CSI among them) are commands to a terminal,
 * not text; those are "a control character", named as the escaper shows
 * them (\n, \x1b, \u009b). The bidirectional controls (U+202E, ...)
 * reorder what the terminal shows after them, and the zero-width
 * characters (U+200B, U+FEFF, ...) make a part name look like another;
 * those are named by their code point and by what they are (the list is
 * the escaper's, nicfit__invisible_kind()). The emitter would show any of
 * them escaped; the catalog refuses them, as it refuses any value that is
 * not what its field says. NULL when there is none.
 */
static const char control_kind[] = "a control character";

static const char *control_char(const char *s, size_t len, char *out, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < len; i++) {
		const char *kind;
		unsigned cp;
		int k;

		if (p[i] == '\n' || p[i] == '\t' || p[i] == '\r') {
			snprintf(out, n, "\\%c", p[i] == '\n' ? 'n' : p[i] == '\t' ? 't' : 'r');
			return control_kind;
		}
		if (p[i] < 0x20 || p[i] == 0x7f) {
			snprintf(out, n, "\\x%02x", p[i]);
			return control_kind;
		}
		if (p[i] < 0x80)
			continue;
		k = (int)nicfit__utf8_len(p + i, len - i, NULL);
		if (k == 2)
			cp = (p[i] & 0x1fu) << 6 | (p[i + 1] & 0x3fu);
		else if (k == 3)
			cp = (p[i] & 0x0fu) << 12 | (p[i + 1] & 0x3fu) << 6 | (p[i + 2] & 0x3fu);
		else
			cp = 0; /* four bytes: none of them is in the list */
		if (k > 1)
			i += (size_t)k - 1;
		kind = cp ? nicfit__invisible_kind(cp) : NULL;
		if (!kind)
			continue;
		if (cp <= 0x9f) {
			snprintf(out, n, "\\u%04x", cp);
			return control_kind;
		}
		snprintf(out, n, "U+%04X", cp);
		return kind;
	}
	return NULL;
}

/*
 * Whether the len bytes at s are a day of the calendar as YYYY-MM-DD
 * (ISO 8601's calendar date, Gregorian leap years): "2026-13-01",
 * "2026-02-29" and "0000-00-00" are not, and neither is a formula.
 */
static int valid_date(const char *s, size_t len)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y = 0, m, d, leap;
	size_t i;

	if (len != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (i = 0; i < len; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return 0;
	for (i = 0; i < 4; i++)
		y = y * 10 + (s[i] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (y < 1 || m < 1 || m > 12 || d < 1)
		return 0;
	leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return d <= mdays[m - 1] + (m == 2 && leap);
}

static void check_string(struct checker *c, json_t *v, const struct field *f,
			 const char *path)
{
	const char *s = json_string_value(v);
	size_t len = json_string_length(v);
	const char *kind;
	char set[300], ctl[8];

	kind = control_char(s, len, ctl, sizeof(ctl));
	if (kind == control_kind) {
		problem(c, path, "'%s': %s (%s) in a one-line string", f->key, kind, ctl);
		return;
	}
	if (kind) {
		problem(c, path, "'%s': %s (%s): the text would show other than its bytes", f->key,
			kind, ctl);
		return;
	}
	if (f->t == F_DATE) {
		if (!valid_date(s, len))
			problem(c, path, "'%s': '%.40s' is not a date YYYY-MM-DD", f->key, s);
		return;
	}
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
	case F_DATE:
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

/*
 * An id begins with a letter or a digit: one that begins with '-' reads
 * as an option on a command line (catalog show -x), and with '+' or '-'
 * as a formula in a spreadsheet, where the cluster's port map writes ids.
 */
static int valid_id(const char *s)
{
	size_t n = 0;

	if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s))
		return 0;
	for (; *s; s++, n++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) ||
		      strchr("-._+", *s)))
			return 0;
	return n >= 1 && n <= 63;
}

/* Whether the file's array for kind k (or the base) has an entry with this id. */
static int merged_has(json_t *root, const struct nicfit_catalog *base, int k, const char *id)
{
	json_t *arr = json_object_get(root, nicfit__catalog_kind_plurals[k]), *e;
	size_t i;

	if (nicfit__catalog_has(base, (enum nicfit_kind)k, id))
		return 1;
	json_array_foreach(arr, i, e)
		if (json_is_object(e) && json_is_string(json_object_get(e, "id")) &&
		    !strcmp(json_string_value(json_object_get(e, "id")), id))
			return 1;
	return 0;
}

/*
 * What holds only once the document is merged with the catalog it
 * overlays, as --catalog merges it: each kind stays within
 * CATALOG_MAX_ENTRIES counted after the merge (ids the base has replace
 * entries, new ids add to them); an id names one entry across all kinds
 * (`catalog show ID` finds one, so a second would be unreachable); and an
 * onboard NIC names a NIC that exists, not the server itself.
 */
static void check_merged(struct checker *c, json_t *root, const struct nicfit_catalog *base)
{
	char path[300];
	int k, k2;

	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		json_t *arr = json_object_get(root, nicfit__catalog_kind_plurals[k]), *e, *seen;
		size_t i, added = 0, have = base ? base->k[k].n : 0;

		if (!json_is_array(arr) || json_array_size(arr) > CATALOG_MAX_ENTRIES)
			continue;
		seen = json_object();
		json_array_foreach(arr, i, e) {
			const char *id = json_string_value(json_object_get(e, "id"));

			if (!json_is_object(e) || !id || !valid_id(id))
				continue;
			if (!json_object_get(seen, id) && !nicfit__catalog_has(base, (enum nicfit_kind)k, id))
				added++;
			json_object_set_new(seen, id, json_true());
			for (k2 = 0; k2 < NICFIT_KIND_COUNT; k2++) {
				if (k2 == k || !merged_has(root, base, k2, id))
					continue;
				snprintf(path, sizeof(path), "/%s/%zu/id", nicfit__catalog_kind_plurals[k], i);
				problem(c, path, "id '%s' is also one of the %s (an id names one entry "
					"across kinds: catalog show finds only one)", id,
					nicfit__catalog_kind_plurals[k2]);
				break;
			}
		}
		json_decref(seen);
		if (have + added > CATALOG_MAX_ENTRIES) {
			snprintf(path, sizeof(path), "/%s", nicfit__catalog_kind_plurals[k]);
			problem(c, path, "more than %d %s once merged with the catalog it overlays "
				"(%zu there, %zu new here)", CATALOG_MAX_ENTRIES,
				nicfit__catalog_kind_plurals[k], have, added);
		}
	}
	{
		json_t *arr = json_object_get(root, nicfit__catalog_kind_plurals[NICFIT_KIND_SERVER]);
		json_t *s, *b;
		size_t i, j;

		json_array_foreach(arr, i, s) {
			const char *sid = json_string_value(json_object_get(s, "id"));

			json_array_foreach(json_object_get(s, "onboard"), j, b) {
				const char *nic = json_string_value(json_object_get(b, "nic"));

				if (!nic)
					continue;
				snprintf(path, sizeof(path), "/servers/%zu/onboard/%zu/nic", i, j);
				if (sid && !strcmp(nic, sid))
					problem(c, path, "onboard NIC '%.63s' names this server itself", nic);
				else if (!merged_has(root, base, NICFIT_KIND_NIC, nic))
					problem(c, path, "onboard NIC '%.63s' is not a NIC of the catalog", nic);
			}
			json_array_foreach(json_object_get(s, "slots"), j, b) {
				const char *nic = json_string_value(json_object_get(b, "included"));

				if (!nic || merged_has(root, base, NICFIT_KIND_NIC, nic))
					continue;
				snprintf(path, sizeof(path), "/servers/%zu/slots/%zu/included", i, j);
				problem(c, path, "included NIC '%.63s' is not a NIC of the catalog", nic);
			}
		}
	}
}

/*
 * A scheduled-fabric leaf reaches its cell switches over its own group of
 * fabric ports: it needs uplink_ports and a fabric_switch that is a
 * "fabric" switch of the merged catalog; only a leaf names one.
 */
static void check_scheduled(struct checker *c, json_t *root, const struct nicfit_catalog *base)
{
	json_t *arr = json_object_get(root, "switches"), *s;
	char path[300];
	size_t i;

	json_array_foreach(arr, i, s) {
		const char *sch = json_string_value(json_object_get(s, "scheduled"));
		const char *fab = json_string_value(json_object_get(s, "fabric_switch"));
		const char *id = json_string_value(json_object_get(s, "id"));
		int leaf = sch && !strcmp(sch, "leaf");
		/* a partial override of a switch the base has keeps the base's fields */
		int partial = id && nicfit__catalog_has(base, NICFIT_KIND_SWITCH, id);

		snprintf(path, sizeof(path), "/switches/%zu/fabric_switch", i);
		if (fab && !leaf)
			problem(c, path, "only a scheduled leaf (\"scheduled\": \"leaf\") names a fabric switch");
		if (!leaf)
			continue;
		if (!fab && !partial)
			problem(c, path, "a scheduled leaf names the fabric switch its fabric ports go to");
		else if (fab && !merged_has(root, base, NICFIT_KIND_SWITCH, fab))
			problem(c, path, "fabric switch '%.63s' is not a switch of the catalog", fab);
		if (!partial && json_integer_value(json_object_get(s, "uplink_ports")) < 1) {
			snprintf(path, sizeof(path), "/switches/%zu/uplink_ports", i);
			problem(c, path, "a scheduled leaf gives its fabric ports as uplink_ports");
		}
	}
}

/* A dual-slot card is a PCIe add-in card: an OCP or LOM one takes no second slot. */
static void check_nic_width(struct checker *c, json_t *e, const char *epath)
{
	json_t *w = json_object_get(e, "slot_width"), *f = json_object_get(e, "form_factor");
	char sub[320];

	if (!json_is_string(w) || strcmp(json_string_value(w), "double") || !json_is_string(f) ||
	    !strncmp(json_string_value(f), "pcie-", 5))
		return;
	snprintf(sub, sizeof(sub), "%s/slot_width", epath);
	problem(c, sub, "'slot_width': 'double' needs a PCIe card ('form_factor' pcie-*), not '%.16s'",
		json_string_value(f));
}

/*
 * Check a whole parsed document. Entries whose id the base has are
 * partial overrides. Returns the number of problems.
 */
static size_t check_document(struct checker *c, json_t *root,
			     const struct nicfit_catalog *base, size_t *total)
{
	const char *key;
	json_t *v, *ids = NULL;
	int k;

	if (total)
		*total = 0;
	if (!json_is_object(root)) {
		problem(c, "", "a catalog file is a JSON object with \"schema\": \"%s\"", CATALOG_SCHEMA);
		return c->n;
	}
	json_object_foreach(root, key, v) {
		char path[256];
		size_t i;

		snprintf(path, sizeof(path), "/%s", key);
		if (!strcmp(key, "schema")) {
			if (!json_is_string(v) || strcmp(json_string_value(v), CATALOG_SCHEMA))
				problem(c, path, "'schema' must be \"%s\"", CATALOG_SCHEMA);
			continue;
		}
		for (k = 0; k < NICFIT_KIND_COUNT; k++)
			if (!strcmp(key, nicfit__catalog_kind_plurals[k]))
				break;
		if (k == NICFIT_KIND_COUNT) {
			const char *near = nicfit_suggest(key, nicfit__catalog_kind_plurals);

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
		if (json_array_size(v) > CATALOG_MAX_ENTRIES) {
			problem(c, path, "more than %d %s", CATALOG_MAX_ENTRIES, key);
			continue;
		}
		json_decref(ids);
		ids = json_object(); /* id -> first entry's index, for duplicates */
		for (i = 0; i < json_array_size(v); i++) {
			json_t *e = json_array_get(v, i);
			json_t *id, *first;
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
				problem(c, epath, "id '%.64s' must be 1-63 lowercase letters, digits, '-', '.', '_' or '+', "
					"beginning with a letter or a digit",
					json_string_value(id));
				continue;
			}
			first = json_object_get(ids, json_string_value(id));
			if (first)
				problem(c, epath, "duplicate id '%s' (also entry %zu)",
					json_string_value(id), (size_t)json_integer_value(first));
			else
				json_object_set_new(ids, json_string_value(id), json_integer((json_int_t)i));
			partial = nicfit__catalog_has(base, (enum nicfit_kind)k, json_string_value(id));
			check_object(c, e, kind_fields[k], epath, !partial);
			if (k == NICFIT_KIND_SERVER) {
				nicfit__catalog_check_slots(e, epath, partial, report, c);
			}
			if (k == NICFIT_KIND_NIC)
				check_nic_width(c, e, epath);
			if (json_object_get(e, "price_usd") &&
			    (!json_object_get(e, "prices_as_of") || !json_object_get(e, "price_source")))
				problem(c, epath, "a price needs 'prices_as_of' and 'price_source'");
		}
	}
	json_decref(ids);
	check_merged(c, root, base);
	check_scheduled(c, root, base);
	if (!json_object_get(root, "schema"))
		problem(c, "", "missing \"schema\": \"%s\"", CATALOG_SCHEMA);
	return c->n;
}


int nicfit__catalog_validate(const struct nicfit_catalog *cat, const char *input,
			     const char *text, size_t len, json_t *root,
			     struct nicfit_error *first)
{
	struct checker c;
	size_t n;

	checker_init(&c, input, text, len, first, 1);
	n = check_document(&c, root, cat, NULL);
	checker_release(&c);
	return n ? first->code : 0;
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
	if (len > CATALOG_MAX_BYTES) {
		if (max)
			nicfit_error_at(&errs[0], NICFIT_E_LIMIT, input, 0, 0,
					"catalog larger than %u bytes", CATALOG_MAX_BYTES);
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
