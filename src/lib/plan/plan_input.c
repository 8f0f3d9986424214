/*
 * plan_input.c - read a plan request (flags or JSON, as a spec) into a
 * normalised struct nicfit_plan_input, and the named examples.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/plan.h"
#include "nicfit/units.h"
#include "plan/plan_int.h"

static const char *const article_inference[] = {
	"server", "r740xd", "gpu", "a40", "gpus_per_server", "2", "model", "llama-3-70b",
	"precision", "int4", "workload", "inference", NULL };
static const char *const article_replicas[] = {
	"server", "r740xd", "servers", "4", "gpu", "a40", "gpus_per_server", "2",
	"model", "llama-3-70b", "precision", "int4", "workload", "replicated-inference", NULL };
static const char *const article_training[] = {
	"server", "r740xd", "servers", "2", "gpu", "a40", "gpus_per_server", "2",
	"model", "llama-3-8b", "precision", "bf16", "workload", "training", NULL };
static const char *const article_capped[] = {
	"server", "r740xd", "servers", "2", "gpu", "a40", "gpus_per_server", "2",
	"model", "llama-3-8b", "precision", "bf16", "workload", "training",
	"backend_nic", "mcx653105a-hdat", NULL };
static const char *const article_gen4[] = {
	"server", "generic-gen4", "servers", "2", "gpu", "l40s", "gpus_per_server", "2",
	"model", "llama-3-8b", "precision", "bf16", "workload", "training", NULL };
static const char *const article_lab[] = {
	"server", "r740xd", "servers", "2", "gpu", "a40", "gpus_per_server", "2",
	"model", "llama-3-8b", "precision", "bf16", "workload", "fine-tuning",
	"backend_gbps", "25", NULL };
static const char *const article_x710[] = {
	"server", "r740xd", "servers", "2", "gpu", "a40", "gpus_per_server", "2",
	"model", "llama-3-8b", "precision", "bf16", "workload", "training",
	"backend_nic", "x710-da2", NULL };
static const char *const article_split[] = {
	"server", "r740xd", "servers", "2", "gpu", "a40", "gpus_per_server", "2",
	"model", "llama-3-70b", "precision", "bf16", "workload", "multi-node-inference", NULL };

const struct nicfit_plan_example nicfit_plan_examples[] = {
	{ "inference", "one R740xd, two A40s, a 70B model at 4-bit: no back end", article_inference },
	{ "replicas", "four R740xd serving replicas behind a load balancer", article_replicas },
	{ "training", "two R740xd training Llama 3 8B: 100G ConnectX-5", article_training },
	{ "capped", "a 200G ConnectX-6 forced into a Gen3 server", article_capped },
	{ "gen4", "a PCIe Gen4 server gets a 200G card", article_gen4 },
	{ "lab", "a two-node lab on a budget: 25GbE ConnectX-4 Lx", article_lab },
	{ "x710", "an Intel X710 asked to be the back end", article_x710 },
	{ "split", "a 70B model at 16-bit split across two R740xd", article_split },
	{ NULL, NULL, NULL }
};

static const char *const workload_names[] = {
	"inference", "replicated-inference", "multi-node-inference", "training",
	"fine-tuning", "rdma-storage", NULL
};

const char *nicfit_workload_name(enum nicfit_workload w)
{
	return (unsigned)w < 6 ? workload_names[w] : "?";
}

int nicfit_workload_parse(const char *s, enum nicfit_workload *out, struct nicfit_error *err)
{
	int i;
	const char *near;

	for (i = 0; workload_names[i]; i++)
		if (!strcasecmp(s, workload_names[i])) {
			*out = (enum nicfit_workload)i;
			return 0;
		}
	if (!strcasecmp(s, "replicas") || !strcasecmp(s, "replicated"))
		return *out = NICFIT_WL_REPLICATED, 0;
	if (!strcasecmp(s, "serving"))
		return *out = NICFIT_WL_INFERENCE, 0;
	if (!strcasecmp(s, "finetuning") || !strcasecmp(s, "fine_tuning"))
		return *out = NICFIT_WL_FINETUNING, 0;
	near = nicfit_suggest(s, workload_names);
	return nicfit_error_at(err, NICFIT_E_USAGE, "--workload", 0, 0,
			       "unknown workload '%.40s'%s%s%s", s,
			       near ? " (did you mean '" : " (inference, replicated-inference, multi-node-inference, training, fine-tuning, rdma-storage)",
			       near ? near : "", near ? "'?)" : "");
}

static const char *const known_keys[] = {
	"server", "servers", "gpu", "gpus_per_server", "model", "precision", "params",
	"weights_gb", "context", "concurrency", "tokens_per_s", "workload", "backend_nic",
	"frontend_nic", "backend_gbps", "backend_cards", "fabric", "storage_gbps",
	"reloads_per_day", "switch", "explain", "assume", "example", "installed_backend_cards",
	"installed_backend_slot", "installed_frontend_slot", "backend_slot", "frontend_slot",
	"storage_nics", "backend_size",
	"parallel", "batch_tokens", "riser_config", "racks", "disaggregated", "prompt_tokens",
	"output_tokens", "requests_per_s", "ttft_ms", "tpot_ms", "prefill_servers", "kv_offload",
	"prefill_gpus", "prefill_tp", "prefill_pp", "prefill_ep", "decode_gpus", "decode_tp",
	"decode_pp", "decode_ep", "kv_over",
	"checkpoint_every", "checkpoint_stall", "checkpoint_state", "checkpoint_async", NULL
};

/*
 * A slot pinned by name (--backend-slot, --frontend-slot): *pin gets 1 +
 * its index in the server's slot map, 0 when not given. A name the map
 * lacks is a usage error that suggests the nearest.
 */
/* Is slot i of sv there in the riser configuration asked for (every slot when none is)? */
static int in_asked_config(const struct nicfit_server *sv, const char *riser, int i)
{
	int k;

	if (!riser || !sv->slots[i].configs)
		return 1;
	for (k = 0; k < sv->nrisers; k++)
		if (!strcasecmp(sv->risers[k].id, riser))
			return (sv->slots[i].configs >> k) & 1u;
	return 1;
}

static int read_pin(struct nicfit_reader *r, const struct nicfit_server *sv, const char *key,
		    const char *riser, int *pin)
{
	const char *v = nicfit_reader_get(r, key);
	const char *names[NICFIT_MAX_SLOTS + 1], *near;
	int i, n = 0;

	*pin = 0;
	if (!v)
		return 0;
	for (i = 0; i < sv->nslots; i++) {
		if (!in_asked_config(sv, riser, i))
			continue;
		if (sv->slots[i].name && !strcasecmp(sv->slots[i].name, v)) {
			*pin = i + 1;
			return 0;
		}
		if (sv->slots[i].name)
			names[n++] = sv->slots[i].name;
	}
	names[n] = NULL;
	near = nicfit_suggest(v, names);
	return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						     nicfit_reader_opt(r, key), 0, 0,
						     "no slot '%.32s' in %s%s%s%s%s%s", v, sv->e.id,
						     riser ? " with riser configuration " : "",
						     riser ? riser : "",
						     near ? " (did you mean '" : "", near ? near : "",
						     near ? "'?)" : ""));
}

/* Apply "assume" pairs to the first table that knows the name. */
static int assume(struct nicfit_reader *r, struct nicfit_plan_input *in)
{
	static const struct nicfit_param rack[] = {
		{ "rack_cable_m", 0, 2, 0.5, 10, "m", "length of a link inside one rack",
		  "servers within 2 m of their top-of-rack switch or of each other" },
	};
	const struct nicfit_param_set sets[] = {
		{ nicfit_pcie_param_table, nicfit_pcie_param_count, &in->pcie },
		{ nicfit_link_param_table, nicfit_link_param_count, &in->link },
		{ nicfit_llm_param_table, nicfit_llm_param_count, &in->llm },
		{ nicfit_allreduce_param_table, nicfit_allreduce_param_count, &in->ar },
		{ nicfit_step_param_table, nicfit_step_param_count, &in->step },
		{ nicfit_serving_param_table, nicfit_serving_param_count, &in->serving },
		{ nicfit_ckpt_param_table, nicfit_ckpt_param_count, &in->ckpt },
		{ rack, 1, &in->rack_cable_m },
	};
	size_t i, count = nicfit_spec_count(r->s, "assume");

	in->rack_cable_m = 2;
	for (i = 0; i < count; i++) {
		const char *v = nicfit_reader_get_nth(r, "assume", i);

		if (nicfit_param_assign_any(sets, sizeof(sets) / sizeof(sets[0]), v, nicfit_reader_name(r), r->err))
			return nicfit_reader_fail(r, r->err ? r->err->code : NICFIT_E_USAGE);
	}
	return 0;
}

/* Baseboard GPUs default to every baseboard position of the server; other GPUs to one. */
static long baseboard_positions(const struct nicfit_server *sv, const struct nicfit_gpu *g)
{
	long n = 0;
	int i;

	if (!g->baseboard)
		return 1;
	for (i = 0; i < sv->nslots; i++)
		n += sv->slots[i].gpu == NICFIT_GPU_BASEBOARD;
	return n ? (n > NICFIT_PLAN_MAX_GPUS ? NICFIT_PLAN_MAX_GPUS : n) : 1;
}

/* --riser-config: one of the server's riser configurations (plan_riser.c plans with it). */
static int read_riser(struct nicfit_reader *r, struct nicfit_plan_input *in)
{
	const struct nicfit_server *sv = in->server;
	const char *v = nicfit_reader_get(r, "riser_config");
	char list[200];
	size_t len = 0;
	int k;

	in->riser_config = NULL;
	if (!v)
		return 0;
	list[0] = '\0';
	for (k = 0; k < sv->nrisers; k++) {
		if (!strcasecmp(sv->risers[k].id, v)) {
			in->riser_config = sv->risers[k].id;
			return 0;
		}
		if (len + 1 < sizeof(list))
			len += (size_t)nicfit__fmt(list + len, sizeof(list) - len, "%s%s",
						   k ? ", " : "", sv->risers[k].id);
	}
	if (!sv->nrisers)
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
							     nicfit_reader_opt(r, "riser_config"), 0, 0,
							     "%s has one slot map, no riser configurations to "
							     "choose from", sv->e.id));
	return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						     nicfit_reader_opt(r, "riser_config"), 0, 0,
						     "no riser configuration '%.32s' in %s (it has %s)", v,
						     sv->e.id, list));
}

/* The servers and their GPUs. */
static int read_hardware(const struct nicfit_catalog *cat, struct nicfit_reader *r,
			 struct nicfit_plan_input *in)
{
	struct nicfit_error *err = r->err;
	const char *v;
	long l;
	int rc;

	v = nicfit_reader_get(r, "server");
	in->server = nicfit_catalog_find_server(cat, v ? v : "generic-gen4", nicfit_reader_name(r), err);
	if (!in->server)
		return nicfit_reader_fail(r, err ? err->code : NICFIT_E_NOTFOUND);
	if ((rc = nicfit_reader_long(r, "servers", 1, 1, 100000, &l)))
		return rc;
	in->servers = (int)l;
	if ((rc = read_riser(r, in)))
		return rc;
	if ((rc = nicfit__plan_read_racks(r, in)))
		return rc;
	v = nicfit_reader_get(r, "gpu");
	/* a baseboard server comes with its GPUs: they are the default */
	if (!v && in->server->baseboard_gpu)
		v = in->server->baseboard_gpu;
	if (v && strcasecmp(v, "none")) {
		in->gpu = nicfit_catalog_find_gpu(cat, v, nicfit_reader_name(r), err);
		if (!in->gpu)
			return nicfit_reader_fail(r, err ? err->code : NICFIT_E_NOTFOUND);
	}
	if ((rc = nicfit_reader_long(r, "gpus_per_server",
				     in->gpu ? baseboard_positions(in->server, in->gpu) : 0, 0,
				     NICFIT_PLAN_MAX_GPUS, &l)))
		return rc;
	in->gpus_per_server = (int)l;
	if (in->gpus_per_server && !in->gpu) {
		char gpu[sizeof(r->opt)];

		nicfit__plan_copy(gpu, sizeof(gpu), nicfit_reader_opt(r, "gpu"));
		nicfit_reader_get(r, "gpus_per_server");
		return nicfit_reader_fail(r, nicfit_error_at(err, NICFIT_E_USAGE, nicfit_reader_name(r), 0, 0,
							     "give the GPU model too (%s)", gpu));
	}
	return 0;
}

/* The model: from the catalog, or its parameters or weights; how it runs. */
static int read_model(const struct nicfit_catalog *cat, struct nicfit_reader *r,
		      struct nicfit_plan_input *in)
{
	struct nicfit_spec *spec = r->s;
	struct nicfit_error *err = r->err;
	const char *v;
	int rc;

	v = nicfit_reader_get(r, "model");
	if (v) {
		in->model = nicfit_catalog_find_model(cat, v, nicfit_reader_name(r), err);
		if (!in->model)
			return nicfit_reader_fail(r, err ? err->code : NICFIT_E_NOTFOUND);
		in->params = in->model->arch.params;
	}
	v = nicfit_reader_get(r, "params");
	if (v) {
		enum nicfit_size_kind k;
		double p;

		if ((rc = nicfit_reader_fail(r, nicfit_parse_size(v, nicfit_reader_opt(r, "params"), &p, &k, err))))
			return rc;
		if (k != NICFIT_SIZE_PARAMS)
			return nicfit_reader_fail(r, nicfit_error_at(err, NICFIT_E_USAGE, nicfit_reader_opt(r, "params"), 0, 0,
						       "'%s' is a size; give a parameter count such as 70B", v));
		if (p < 1e6 || p > 1e14)
			return nicfit_reader_fail(r, nicfit_error_at(err, NICFIT_E_USAGE, nicfit_reader_opt(r, "params"), 0, 0,
						       "'%s': out of range (1M to 100T parameters)", v));
		in->params = p;
	}
	if ((rc = nicfit_reader_double(r, "weights_gb", 0, 0.001, 1e6, &in->weights_gb)))
		return rc;
	in->precision = NICFIT_PREC_BF16;
	if (in->model && in->model->native_precision)
		nicfit_precision_parse(in->model->native_precision, &in->precision, NULL);
	v = nicfit_reader_get(r, "precision");
	if (v && (rc = nicfit_reader_fail(r, nicfit_precision_parse(v, &in->precision, err))))
		return rc;
	if ((rc = nicfit_reader_long(r, "context", 4096, 0, 100000000, &in->context)) ||
	    (rc = nicfit_reader_long(r, "concurrency", 1, 0, 100000000, &in->concurrency)) ||
	    (rc = nicfit_reader_double(r, "tokens_per_s", 30, 0.01, 1e6, &in->tokens_per_s)))
		return rc;
	if (in->model && in->model->context_max && in->context > in->model->context_max)
		/* a default context too long for the model is the model's */
		return nicfit_reader_fail(r, nicfit_error_at(err, NICFIT_E_USAGE,
					       nicfit_reader_opt(r, nicfit_spec_get(spec, "context") ?
								 "context" : "model"), 0, 0,
					       "%ld tokens is longer than %s's context of %ld",
					       in->context, in->model->e.name, in->model->context_max));
	return 0;
}

/*
 * How the back end is sized and the job's step: --backend-size port (the
 * fastest speed a free slot feeds, the default) or traffic (the cheapest
 * that hides the step's traffic), --parallel, --batch-tokens.
 */
static int read_traffic(struct nicfit_reader *r, struct nicfit_plan_input *in)
{
	const char *v = nicfit_spec_get(r->s, "backend_size");
	int rc;

	if (v && !strcasecmp(v, "traffic"))
		in->backend_size_traffic = 1;
	else if (v && strcasecmp(v, "port"))
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
							     nicfit_reader_opt(r, "backend_size"), 0, 0,
							     "'%.32s': use port or traffic", v));
	v = nicfit_spec_get(r->s, "parallel");
	if (v) {
		/* an error names the option as given: --parallel, or the spec's key */
		(void)nicfit_reader_opt(r, "parallel");
		if ((rc = nicfit_reader_fail(r, nicfit_dp_parse(v, &in->dp, r->err))))
			return rc;
	}
	return nicfit_reader_double(r, "batch_tokens", 0, 1, 1e12, &in->batch_tokens);
}

/* The workload and the what-ifs: cards, fabric, storage, switch, installed cards. */
static int read_workload(const struct nicfit_catalog *cat, struct nicfit_reader *r,
			 struct nicfit_plan_input *in)
{
	struct nicfit_spec *spec = r->s;
	struct nicfit_error *err = r->err;
	const char *v;
	long l;
	int rc;

	v = nicfit_reader_get(r, "workload");
	in->workload = NICFIT_WL_INFERENCE;
	if (v) {
		if ((rc = nicfit_reader_fail(r, nicfit_workload_parse(v, &in->workload, err))))
			return rc;
		in->workload_given = 1;
	}
	in->backend_nic = nicfit_spec_get(spec, "backend_nic");
	in->frontend_nic = nicfit_spec_get(spec, "frontend_nic");
	if ((rc = nicfit_reader_double(r, "backend_gbps", 0, 1, 3200, &in->backend_gbps)) ||
	    (rc = nicfit_reader_long(r, "backend_cards", 0, 1, NICFIT_PLAN_MAX_CARDS, &l)))
		return rc;
	in->backend_cards = (int)l;
	v = nicfit_reader_get(r, "fabric");
	in->fabric = NICFIT_FABRIC_AUTO;
	if (v) {
		if (!strcasecmp(v, "roce") || !strcasecmp(v, "rocev2") || !strcasecmp(v, "ethernet")) {
			in->fabric = NICFIT_FABRIC_ROCE;
		} else if (!strcasecmp(v, "spectrum-x")) {
			in->fabric = NICFIT_FABRIC_ROCE;
			in->spectrum_x = 1;
		} else if (!strcasecmp(v, "infiniband") || !strcasecmp(v, "ib")) {
			in->fabric = NICFIT_FABRIC_IB;
		} else if (strcasecmp(v, "auto")) {
			return nicfit_reader_fail(r, nicfit_error_at(err, NICFIT_E_USAGE, nicfit_reader_opt(r, "fabric"), 0, 0,
						       "'%.32s': use auto, roce, spectrum-x or infiniband", v));
		}
	}
	if ((rc = nicfit_reader_double(r, "storage_gbps", 0, 0, 100000, &in->storage_gbps)) ||
	    (rc = nicfit_reader_double(r, "reloads_per_day", 1, 0, 1e6, &in->reloads_per_day)))
		return rc;
	v = nicfit_reader_get(r, "switch");
	if (v) {
		in->sw = nicfit_catalog_find_switch(cat, v, nicfit_reader_name(r), err);
		if (!in->sw)
			return nicfit_reader_fail(r, err ? err->code : NICFIT_E_NOTFOUND);
	}
	if ((rc = nicfit_reader_long(r, "installed_backend_cards", 0, 0, NICFIT_PLAN_MAX_CARDS, &l)))
		return rc;
	in->installed_cards = (int)l;
	in->installed_slot = nicfit_spec_get(spec, "installed_backend_slot");
	in->installed_fe_slot = nicfit_spec_get(spec, "installed_frontend_slot");
	if ((rc = nicfit_reader_long(r, "storage_nics", -1, 0, NICFIT_PLAN_MAX_STORAGE, &l)))
		return rc;
	in->storage_nics = (int)l;
	if ((rc = read_pin(r, in->server, "backend_slot", in->riser_config, &in->backend_slot_pin)) ||
	    (rc = read_pin(r, in->server, "frontend_slot", in->riser_config, &in->frontend_slot_pin)))
		return rc;
	if ((rc = read_traffic(r, in)))
		return rc;
	return nicfit__plan_read_serving(r, in);
}

int nicfit_plan_input_from_spec(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
				struct nicfit_plan_input *in, struct nicfit_error *err)
{
	struct nicfit_reader r;
	const char *v;
	int rc;

	nicfit_reader_init(&r, spec, err);
	memset(in, 0, sizeof(*in));
	nicfit_pcie_params_default(&in->pcie);
	nicfit_link_params_default(&in->link);
	nicfit_llm_params_default(&in->llm);
	nicfit_allreduce_params_default(&in->ar);
	nicfit_step_params_default(&in->step);
	if ((rc = read_hardware(cat, &r, in)) || (rc = read_model(cat, &r, in)) ||
	    (rc = read_workload(cat, &r, in)))
		return rc;
	v = nicfit_spec_get(spec, "explain");
	in->explain = v && strcasecmp(v, "false") && strcmp(v, "0");
	(void)nicfit_spec_get(spec, "example");
	if ((rc = assume(&r, in)))
		return rc;
	return nicfit_spec_check_unused(spec, known_keys, err);
}

int nicfit__plan_is_training(enum nicfit_workload w)
{
	return w == NICFIT_WL_TRAINING || w == NICFIT_WL_FINETUNING;
}

/* A what-if card (plan_int.h). */
const struct nicfit_nic *nicfit__plan_whatif_card(const struct nicfit_catalog *cat,
						  struct nicfit_plan *p, int which,
						  const char *part, const char *what,
						  struct nicfit_error *err)
{
	const struct nicfit_nic *n = nicfit_catalog_find_nic(cat, part, what, NULL);
	struct nicfit_part *d = &p->rule_part[which];
	struct nicfit_nic *x = &p->rule_nic[which];

	if (n)
		return n;
	if (nicfit_decode(cat, part, d, err))
		return NULL;
	if (d->kind != NICFIT_PART_NIC || d->ports < 1 || d->port_gbps <= 0 || d->pcie_gen < 1) {
		nicfit_error_at(err, NICFIT_E_DATA, what, 0, 0,
				"'%.64s' is not a network card nicfit can plan with (%s)", part,
				d->summary);
		return NULL;
	}
	memset(x, 0, sizeof(*x));
	x->e.id = d->part;
	x->e.name = d->summary;
	x->e.source = d->source;
	x->part = d->part;
	x->vendor = d->vendor;
	x->family = d->family;
	x->protocol = d->protocol;
	x->cage = d->cage;
	x->ib_rate = d->ib_rate[0] ? d->ib_rate : NULL;
	x->form_factor = d->form_factor[0] ? d->form_factor : "pcie-hhhl";
	x->bracket = d->bracket;
	x->driver = d->driver;
	x->ports = d->ports;
	x->port_gbps = d->port_gbps;
	x->pcie_gen = d->pcie_gen;
	x->pcie_width = d->pcie_width;
	x->pcie_gen_min = d->pcie_gen_min;
	x->socket_direct = d->socket_direct;
	x->vpi = !strcmp(d->protocol, "VPI");
	x->rdma = d->rdma;
	x->pci_vendor = d->pci_vendor;
	x->pci_device = d->pci_device;
	if (!strcmp(d->vendor, "Intel") && strstr(d->family, "7"))
		x->module_coding = "intel";
	plan_decide(&p->decisions, which ? "R3" : "R5", 1,
		    "%s is not in the catalog: its facts come from "
		    "the part-number rules (%s), and it has no sourced price.", d->part, d->summary);
	return x;
}
