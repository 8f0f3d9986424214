/*
 * plan_render.c - render a plan: the text report (verdict first), JSON
 * (nicfit.plan.v1), Markdown and CSV (the bill of materials); the SVG of
 * the server's slots is plan_svg.c's. It decides nothing: every figure is
 * the plan's.
 */
#include <stdio.h>
#include <string.h>

#include "nicfit/plan.h"
#include "nicfit/units.h"
#include "plan/plan_int.h"

static const char *fabric_name(enum nicfit_fabric f)
{
	return f == NICFIT_FABRIC_IB ? "infiniband" : f == NICFIT_FABRIC_ROCE ? "roce" : "auto";
}

static void emit_positive(struct nicfit_emit *e, const char *key, double v)
{
	if (v > 0)
		nicfit_emit_number(e, key, v);
	else
		nicfit_emit_null(e, key);
}

/*
 * The request's disaggregated serving and checkpoint settings, as the
 * reader takes them back (plan_serving.c): null where they do not apply
 * (serving settings without disaggregation, checkpoints outside training)
 * or were not given, so that a saved plan read back is the same request.
 */
static void emit_input_serving(struct nicfit_emit *e, const struct nicfit_plan_input *in)
{
	int ckpt = in->ckpt_every_s > 0 || in->ckpt_stall_s > 0;

	nicfit_emit_bool(e, "disaggregated", in->disagg);
	emit_positive(e, "prompt_tokens", in->disagg ? in->prompt_tokens : 0);
	emit_positive(e, "output_tokens", in->disagg ? in->output_tokens : 0);
	emit_positive(e, "requests_per_s", in->disagg ? in->requests_per_s : 0);
	emit_positive(e, "ttft_ms", in->disagg ? in->ttft_s * 1000 : 0);
	emit_positive(e, "tpot_ms", in->disagg ? in->tpot_s * 1000 : 0);
	if (in->disagg && in->prefill_servers > 0)
		nicfit_emit_int(e, "prefill_servers", in->prefill_servers);
	else
		nicfit_emit_null(e, "prefill_servers");
	nicfit_emit_string(e, "kv_offload", in->disagg ? nicfit_kv_offload_name(in->kv_offload) :
			   NULL);
	if (in->disagg)
		nicfit__plan_serving_input_json(e, in);
	emit_positive(e, "checkpoint_every", in->ckpt_every_s / 60);
	emit_positive(e, "checkpoint_stall", in->ckpt_stall_s);
	nicfit_emit_string(e, "checkpoint_state", ckpt ? nicfit_ckpt_state_name(in->ckpt_state) :
			   NULL);
	if (ckpt)
		nicfit_emit_bool(e, "checkpoint_async", in->ckpt_async);
}

static void emit_input(struct nicfit_emit *e, const struct nicfit_plan_input *in,
		       const struct nicfit_riser_config *riser)
{
	nicfit_emit_begin_object(e, "input");
	nicfit_emit_string(e, "server", in->server->e.id);
	/* only for a server with riser configurations: the one planned with */
	if (riser)
		nicfit_emit_string(e, "riser_config", riser->id);
	nicfit_emit_int(e, "servers", in->servers);
	nicfit_emit_string(e, "gpu", in->gpu ? in->gpu->e.id : NULL);
	nicfit_emit_int(e, "gpus_per_server", in->gpus_per_server);
	nicfit_emit_string(e, "model", in->model ? in->model->e.id : NULL);
	if (in->params > 0)
		nicfit_emit_number(e, "params", in->params);
	else
		nicfit_emit_null(e, "params");
	if (in->weights_gb > 0)
		nicfit_emit_number(e, "weights_gb", in->weights_gb);
	else
		nicfit_emit_null(e, "weights_gb");
	nicfit_emit_string(e, "precision", nicfit_precision_name(in->precision));
	nicfit_emit_int(e, "context", in->context);
	nicfit_emit_int(e, "concurrency", in->concurrency);
	nicfit_emit_number(e, "tokens_per_s", in->tokens_per_s);
	nicfit_emit_string(e, "workload", nicfit_workload_name(in->workload));
	nicfit_emit_string(e, "backend_nic", in->backend_nic);
	nicfit_emit_string(e, "frontend_nic", in->frontend_nic);
	if (in->backend_gbps > 0)
		nicfit_emit_number(e, "backend_gbps", in->backend_gbps);
	else
		nicfit_emit_null(e, "backend_gbps");
	if (in->backend_cards > 0)
		nicfit_emit_int(e, "backend_cards", in->backend_cards);
	else
		nicfit_emit_null(e, "backend_cards");
	nicfit_emit_string(e, "fabric", fabric_name(in->fabric));
	if (in->storage_gbps > 0)
		nicfit_emit_number(e, "storage_gbps", in->storage_gbps);
	else
		nicfit_emit_null(e, "storage_gbps");
	nicfit_emit_number(e, "reloads_per_day", in->reloads_per_day);
	nicfit_emit_string(e, "switch", in->sw ? in->sw->e.id : NULL);
	nicfit_emit_string(e, "backend_slot", in->backend_slot_pin ?
			   in->server->slots[in->backend_slot_pin - 1].name : NULL);
	if (in->storage_nics >= 0)
		nicfit_emit_int(e, "storage_nics", in->storage_nics);
	else
		nicfit_emit_null(e, "storage_nics");
	nicfit_emit_string(e, "frontend_slot", in->frontend_slot_pin ?
			   in->server->slots[in->frontend_slot_pin - 1].name : NULL);
	nicfit_emit_string(e, "backend_size", in->backend_size_traffic ? "traffic" : "port");
	nicfit_emit_string(e, "parallel", nicfit_dp_name(in->dp));
	if (in->batch_tokens > 0)
		nicfit_emit_number(e, "batch_tokens", in->batch_tokens);
	else
		nicfit_emit_null(e, "batch_tokens");
	emit_input_serving(e, in);
	nicfit_emit_end_object(e);
}

static void emit_bom_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	size_t n;

	nicfit_emit_begin_object(e, "bom");
	nicfit_emit_begin_array(e, "lines");
	for (n = 0; n < p->nbom; n++) {
		const struct nicfit_plan_line *l = &p->bom[n];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "part", l->part);
		nicfit_emit_string(e, "id", l->id[0] ? l->id : NULL);
		nicfit_emit_string(e, "description", l->description);
		nicfit_emit_string(e, "role", l->role);
		nicfit_emit_int(e, "qty", l->qty);
		nicfit_emit_bool(e, "included", l->included);
		if (l->included) {
			nicfit_emit_number(e, "unit_usd", 0);
			nicfit_emit_number(e, "total_usd", 0);
			nicfit_emit_null(e, "prices_as_of");
			nicfit_emit_null(e, "price_source");
		} else if (l->priced) {
			nicfit_emit_number(e, "unit_usd", l->unit_usd);
			nicfit_emit_number(e, "total_usd", l->total_usd);
			nicfit_emit_string(e, "prices_as_of", l->prices_as_of);
			nicfit_emit_string(e, "price_source", l->source);
		} else {
			nicfit_emit_null(e, "unit_usd");
			nicfit_emit_null(e, "total_usd");
			nicfit_emit_null(e, "prices_as_of");
			nicfit_emit_null(e, "price_source");
		}
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_number(e, "total_usd", p->total_usd);
	nicfit_emit_string(e, "prices_as_of", p->prices_as_of[0] ? p->prices_as_of : NULL);
	nicfit_emit_begin_array(e, "unpriced");
	for (n = 0; n < p->nbom; n++)
		if (!p->bom[n].priced && !p->bom[n].included)
			nicfit_emit_string(e, NULL, p->bom[n].part);
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
}

/* R2's replicas before splits (plan_replicas.c): null unless it applied. */
static void emit_replicas_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	if (!p->replicas_first) {
		nicfit_emit_null(e, "replicas_first");
		return;
	}
	nicfit_emit_begin_object(e, "replicas_first");
	nicfit_emit_int(e, "replicas", p->replicas);
	nicfit_emit_bool(e, "nvlink_domain", p->replicas_domain);
	nicfit_emit_number(e, "fit_times", p->replicas_fit_times);
	if (p->replicas_tok_s > 0) {
		nicfit_emit_number(e, "replica_step_s", p->replicas_step_s);
		nicfit_emit_number(e, "replicas_tokens_per_s", p->replicas_tok_s);
		nicfit_emit_number(e, "split_tokens_per_s", p->split_tok_s);
	} else {
		nicfit_emit_null(e, "replica_step_s");
		nicfit_emit_null(e, "replicas_tokens_per_s");
		nicfit_emit_null(e, "split_tokens_per_s");
	}
	nicfit_emit_end_object(e);
}

static void emit_fit_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;

	nicfit_emit_string(e, "verdict", p->verdict);
	nicfit_emit_bool(e, "buildable", p->buildable);
	emit_input(e, in, p->riser);
	if (p->fit_known) {
		nicfit_emit_begin_object(e, "model_fit");
		nicfit_emit_number(e, "weights_gb", p->fit.weights_gb);
		nicfit_emit_number(e, "bits_per_param", p->fit.bits_per_param);
		nicfit_emit_number(e, "kv_cache_gb", p->fit.kv_cache_gb);
		nicfit_emit_number(e, "total_gb", p->fit.total_gb);
		if (p->train_state_gb > 0)
			nicfit_emit_number(e, "training_state_gb", p->train_state_gb);
		nicfit_emit_number(e, "capacity_gb", p->fit.capacity_gb);
		nicfit_emit_int(e, "gpus_placed", p->gpus_placed);
		nicfit_emit_bool(e, "fits_one_server", p->fits_one_server);
		nicfit_emit_int(e, "gpus_needed", p->gpus_needed);
		nicfit_emit_int(e, "servers_needed", p->servers_needed);
		if (p->layout.gpus > 0)
			nicfit_emit_string(e, "layout", p->layout.name);
		else
			nicfit_emit_null(e, "layout");
		emit_replicas_json(e, p);
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "model_fit");
	}
}

static void emit_frontend_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	nicfit_emit_begin_object(e, "frontend");
	nicfit_emit_bool(e, "needed", 1);
	nicfit_emit_number(e, "port_gbps", p->fe_port_gbps);
	nicfit_emit_number(e, "goodput_gbps", p->fe_goodput_gbps);
	nicfit_emit_begin_object(e, "nic");
	nicfit_emit_string(e, "part", p->fe_converged ? p->st_nic->part :
			   p->fe_nic ? p->fe_nic->part : NULL);
	nicfit_emit_string(e, "name", p->fe_converged ? p->st_nic->e.name :
			   p->fe_onboard ? p->fe_ob->description :
			   p->fe_nic ? p->fe_nic->e.name : NULL);
	nicfit_emit_bool(e, "onboard", p->fe_onboard);
	nicfit_emit_string(e, "slot", p->fe_slot >= 0 ? p->in.server->slots[p->fe_slot].name : NULL);
	nicfit_emit_bool(e, "installed", p->fe_installed);
	nicfit_emit_end_object(e);
	nicfit_emit_bool(e, "converged", p->fe_converged);
	if (p->load_s > 0)
		nicfit_emit_number(e, "load_s", p->load_s);
	else
		nicfit_emit_null(e, "load_s");
	nicfit_emit_number(e, "serving_mbps", p->serving_mbps);
	nicfit_emit_bool(e, "suggest_25g", p->fe_suggest_25g);
	nicfit_emit_end_object(e);
}

/* Each placed GPU, its back-end card and the PCIe path class between them. */
static void emit_pairs_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	int i;

	nicfit_emit_begin_array(e, "pairs");
	for (i = 0; i < NICFIT_PLAN_MAX_GPUS && p->gpu_slots[i] >= 0; i++) {
		int c = p->pair_card[i];

		if (c < 0)
			continue;
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_int(e, "gpu", i);
		nicfit_emit_string(e, "gpu_slot", sv->slots[p->gpu_slots[i]].name);
		nicfit_emit_int(e, "card", c);
		nicfit_emit_string(e, "nic_slot", sv->slots[p->pair_slot[i] >= 0 ? p->pair_slot[i] :
							    p->be_slots[c]].name);
		nicfit_emit_string(e, "path", nicfit_path_name(p->pair_path[i]));
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

/* "8 PIX", "2 PHB, 2 SYS": the planned pairs by path class, into b. */
static void path_counts(const struct nicfit_plan *p, char *b, size_t n)
{
	int count[NICFIT_PATH_SYS + 1] = { 0 };
	size_t k = 0;
	int i;

	b[0] = '\0';
	for (i = 0; i < NICFIT_PLAN_MAX_GPUS && p->gpu_slots[i] >= 0; i++)
		if (p->pair_card[i] >= 0)
			count[p->pair_path[i]]++;
	for (i = 0; i <= NICFIT_PATH_SYS && k < n; i++)
		if (count[i])
			k += (size_t)plan_fmt(b + k, n - k, "%s%d %s", k ? ", " : "", count[i],
					      nicfit_path_name((enum nicfit_path)i));
}

/* 1 when every planned pair is PIX: no GPU reaches its card through a cascade. */
static int all_pix(const struct nicfit_plan *p)
{
	int i;

	for (i = 0; i < NICFIT_PLAN_MAX_GPUS && p->gpu_slots[i] >= 0; i++)
		if (p->pair_card[i] >= 0 && p->pair_path[i] != NICFIT_PATH_PIX)
			return 0;
	return 1;
}

static void emit_storage_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	int i;

	if (!p->st_nic) {
		nicfit_emit_null(e, "storage");
		return;
	}
	nicfit_emit_begin_object(e, "storage");
	nicfit_emit_string(e, "part", p->st_nic->part);
	nicfit_emit_string(e, "name", p->st_nic->e.name);
	nicfit_emit_int(e, "cards_per_server", p->st_cards);
	nicfit_emit_begin_array(e, "slots");
	for (i = 0; i < p->st_cards; i++)
		nicfit_emit_string(e, NULL, p->in.server->slots[p->st_slots[i]].name);
	nicfit_emit_end_array(e);
	nicfit_emit_number(e, "port_gbps", p->st_port_gbps);
	nicfit_emit_number(e, "node_gbps", p->st_node_gbps);
	nicfit_emit_bool(e, "loads_weights", p->load_over_storage);
	nicfit_emit_end_object(e);
}

static void emit_backend_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	int i;

	nicfit_emit_begin_object(e, "backend");
	nicfit_emit_bool(e, "needed", p->backend_needed);
	if (p->backend_needed && p->be_nic) {
		const struct nicfit_slot *s = &in->server->slots[p->be_slots[0]];

		nicfit_emit_string(e, "fabric", fabric_name(p->fabric));
		nicfit_emit_begin_object(e, "nic");
		nicfit_emit_string(e, "part", p->be_part);
		nicfit_emit_string(e, "name", p->be_nic->e.name);
		nicfit_emit_string(e, "slot", s->name);
		nicfit_emit_int(e, "numa_node", s->socket);
		nicfit_emit_number(e, "port_gbps", p->be_port_gbps);
		nicfit_emit_number(e, "pcie_gbps", p->be_pcie_gbps);
		nicfit_emit_number(e, "effective_gbps", p->be_effective_gbps);
		nicfit_emit_string(e, "limited_by", p->be_limited_by);
		nicfit_emit_int(e, "cards_per_server", p->be_cards);
		nicfit_emit_begin_array(e, "slots");
		for (i = 0; i < p->be_cards; i++)
			nicfit_emit_string(e, NULL, in->server->slots[p->be_slots[i]].name);
		nicfit_emit_end_array(e);
		nicfit_emit_int(e, "pcie_links", p->be_sd_links);
		nicfit_emit_begin_array(e, "aux_slots");
		for (i = 0; p->be_sd_links > 1 && i < p->be_cards; i++)
			if (p->be_aux_slots[i] >= 0)
				nicfit_emit_string(e, NULL, in->server->slots[p->be_aux_slots[i]].name);
			else
				nicfit_emit_null(e, NULL);
		nicfit_emit_end_array(e);
		nicfit_emit_end_object(e);
		nicfit_emit_number(e, "node_gbps", p->be_node_gbps);
		nicfit_emit_number(e, "target_gbps", p->be_target_gbps);
		nicfit_emit_bool(e, "back_to_back", p->back_to_back);
		nicfit_emit_int(e, "gpus_local", p->gpus_local);
		nicfit_emit_int(e, "gpus_near", p->gpus_near);
		nicfit_emit_int(e, "rails", p->rails);
		emit_pairs_json(e, p);
	} else {
		nicfit_emit_null(e, "fabric");
		nicfit_emit_null(e, "nic");
	}
	nicfit_emit_end_object(e);

	emit_storage_json(e, p);
	nicfit_emit_begin_object(e, "oob");
	nicfit_emit_string(e, "name", in->server->oob_name);
	nicfit_emit_number(e, "gbps", in->server->oob_gbps);
	nicfit_emit_string(e, "cage", in->server->oob_cage);
	nicfit_emit_end_object(e);
}

static void emit_lists_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	size_t n;
	int i;

	nicfit_emit_begin_array(e, "placement");
	for (i = 0; i < p->nslots; i++) {
		/* "gen%dx%d", piece by piece: no format to read */
		char link[48];
		struct plan_str w;

		nicfit__plan_str_init(&w, link, sizeof(link));
		nicfit__plan_str_add(&w, "gen");
		nicfit__plan_str_int(&w, p->slots[i].gen);
		nicfit__plan_str_add(&w, "x");
		nicfit__plan_str_int(&w, p->slots[i].width);
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "slot", p->slots[i].slot);
		nicfit_emit_int(e, "socket", p->slots[i].socket);
		nicfit_emit_string(e, "link", link);
		nicfit_emit_string(e, "holds", p->slots[i].what);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);

	nicfit_emit_begin_array(e, "cables");
	for (n = 0; n < p->ncables; n++) {
		const struct nicfit_plan_cable *c = &p->cables[n];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "link", c->link);
		nicfit_emit_string(e, "part", c->part);
		nicfit_emit_string(e, "id", c->id[0] ? c->id : NULL);
		nicfit_emit_string(e, "description", c->description);
		nicfit_emit_string(e, "ends", c->ends);
		nicfit_emit_number(e, "length_m", c->length_m);
		nicfit_emit_int(e, "qty", c->qty);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	emit_bom_json(e, p);
}

static void emit_estimates_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	int i;

	nicfit_emit_begin_object(e, "estimates");
	if (p->load_s > 0)
		nicfit_emit_number(e, "load_s", p->load_s);
	else
		nicfit_emit_null(e, "load_s");
	nicfit_emit_number(e, "serving_mbps", p->serving_mbps);
	if (p->nest) {
		nicfit_emit_begin_object(e, "allreduce");
		nicfit_emit_number(e, "gradient_gb", p->grad_gb);
		nicfit_emit_number(e, "bytes_per_node_gb", p->est_bytes_gb);
		nicfit_emit_string(e, "traffic", p->est_traffic);
		nicfit_emit_begin_array(e, "options");
		for (i = 0; i < p->nest; i++) {
			nicfit_emit_begin_object(e, NULL);
			nicfit_emit_string(e, "label", p->est[i].label);
			nicfit_emit_number(e, "node_gbps", p->est[i].gbps);
			nicfit_emit_number(e, "seconds", p->est[i].seconds);
			nicfit_emit_string(e, "algorithm", p->est[i].algorithm[0] ? p->est[i].algorithm :
					   NULL);
			nicfit_emit_end_object(e);
		}
		nicfit_emit_end_array(e);
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "allreduce");
	}
	nicfit_emit_end_object(e);
}

/* Decisions (with --explain also those not applied), then findings, worst first. */
static void emit_records_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	size_t k;
	int j;

	nicfit_emit_begin_array(e, "decisions");
	for (k = 0; k < p->decisions.n; k++) {
		const struct nicfit_finding *d = &p->decisions.v[k];

		if (!d->applied && !in->explain)
			continue;
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "rule", d->code);
		nicfit_emit_string(e, "text", d->message);
		if (in->explain)
			nicfit_emit_bool(e, "applied", d->applied);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "findings");
	for (j = NICFIT_SEV_CRITICAL; j >= NICFIT_SEV_INFO; j--)
		for (k = 0; k < p->findings.n; k++) {
			const struct nicfit_finding *f = &p->findings.v[k];

			if ((int)f->severity != j)
				continue;
			nicfit_emit_begin_object(e, NULL);
			nicfit_emit_string(e, "severity", nicfit_severity_name(f->severity));
			nicfit_emit_string(e, "code", f->code);
			nicfit_emit_string(e, "message", f->message);
			nicfit_emit_string(e, "fix", f->fix);
			nicfit_emit_end_object(e);
		}
	nicfit_emit_end_array(e);
}

/* The job's step (plan_traffic.c): compute, traffic, and over the back end. */
static void emit_step_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_step *st = &p->step;
	int i;

	if (!p->traffic_known) {
		nicfit_emit_null(e, "step");
		return;
	}
	nicfit_emit_begin_object(e, "step");
	nicfit_emit_string(e, "phase", p->step_job.phase == NICFIT_PHASE_TRAIN ? "training" : "decode");
	nicfit_emit_string(e, "parallel", p->step_job.phase == NICFIT_PHASE_TRAIN ?
			   nicfit_dp_name(st->dp) : NULL);
	nicfit_emit_int(e, "gpus", st->gpus);
	nicfit_emit_int(e, "gpus_per_server", p->step_job.gpus_per_node);
	nicfit_emit_number(e, "tokens", st->tokens);
	nicfit_emit_number(e, "flops", st->flops);
	nicfit_emit_number(e, "tflops_per_gpu", p->step_job.tflops);
	nicfit_emit_number(e, "mfu", p->in.step.mfu);
	nicfit_emit_number(e, "compute_s", st->compute_s);
	nicfit_emit_number(e, "bytes_per_node_gb", st->bytes_per_node / 1e9);
	nicfit_emit_begin_array(e, "traffic");
	for (i = 0; i < st->nterms; i++) {
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "name", st->terms[i].name);
		nicfit_emit_number(e, "gb_per_node", st->terms[i].bytes / 1e9);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	if (p->step_be_known) {
		nicfit_emit_number(e, "node_gbps", p->step_be.node_gbps);
		nicfit_emit_number(e, "comm_s", p->step_be.comm_s);
		nicfit_emit_number(e, "hidden_s", p->step_be.hidden_s);
		nicfit_emit_number(e, "stall_s", p->step_be.stall_s);
		nicfit_emit_number(e, "compute_comm_ratio", p->step_be.ratio);
		nicfit_emit_bool(e, "hides", p->step_be.hides);
		nicfit_emit_number(e, "need_gbps", p->step_be.need_gbps);
		nicfit_emit_string(e, "algorithm", p->step_algorithm[0] ? p->step_algorithm : NULL);
	} else {
		nicfit_emit_null(e, "node_gbps");
		nicfit_emit_null(e, "hides");
	}
	nicfit_emit_end_object(e);
}

/* The text lines under the step-time table: compute, traffic and whether it hides. */
static void text_step(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	char b1[32], b2[32], b3[32], few[64];

	if (!p->traffic_known)
		return;
	few[0] = 0;
	if (p->step_job.gpus_per_node < p->in.gpus_per_server)
		plan_fmt(few, sizeof(few), ", %d a server as it can be built, not the %d asked,",
			 p->step_job.gpus_per_node, p->in.gpus_per_server);
	nicfit_emit_printf(e, "Compute    %s per %s step (%.3g FLOPs on %d GPUs%s at %.0f%% MFU%s%s)\n",
			   nicfit_fmt_seconds(p->step.compute_s, b1, sizeof(b1)),
			   p->step_job.phase == NICFIT_PHASE_TRAIN ? "training" : "decode",
			   p->step.flops, p->step.gpus, few, p->in.step.mfu * 100,
			   p->step_job.phase == NICFIT_PHASE_TRAIN ? ", " : "",
			   p->step_job.phase == NICFIT_PHASE_TRAIN ? nicfit_dp_name(p->step.dp) : "");
	if (!p->step_be_known)
		return;
	nicfit_emit_printf(e, "Network    %s per server per step: %s over the back end%s%s%s, %s hides "
			      "under compute -> %s (compute/comm %.2f)\n",
			   nicfit_fmt_bytes(p->step.bytes_per_node, b1, sizeof(b1)),
			   nicfit_fmt_seconds(p->step_be.comm_s, b2, sizeof(b2)),
			   p->step_algorithm[0] ? " (" : "", p->step_algorithm,
			   !p->step_algorithm[0] ? "" : p->step.dp == NICFIT_DP_ZERO3 ?
			   " reduce-scatter and all-gathers)" : " all-reduce)",
			   nicfit_fmt_seconds(p->step_be.hidden_s, b3, sizeof(b3)),
			   p->step_be.hides ? "hidden" : "the GPUs stall", p->step_be.ratio);
}

static void emit_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	emit_fit_json(e, p);
	emit_frontend_json(e, p);
	emit_backend_json(e, p);
	nicfit__plan_rack_json(e, p);
	emit_lists_json(e, p);
	emit_estimates_json(e, p);
	emit_step_json(e, p);
	nicfit__plan_serving_json(e, p);
	nicfit__plan_ckpt_json(e, p);
	emit_records_json(e, p);
}

/* The text tables: the bill of materials, the step estimates, the slots and the cables. */
static const struct nicfit_column bom_cols[] = {
	{ "part", "part", 0 }, { "description", "description", 0 }, { "role", "for", 0 },
	{ "qty", "qty", 1 }, { "unit_usd", "unit USD", 1 }, { "total_usd", "total USD", 1 },
};
static const struct nicfit_column est_cols[] = {
	{ "label", "over", 0 }, { "node_gbps", "Gb/s per node", 1 }, { "seconds", "per step", 1 },
	{ "algorithm", "NCCL", 0 },
};
static const struct nicfit_column slot_cols[] = {
	{ "slot", "slot", 0 }, { "socket", "socket", 1 }, { "link", "link", 0 },
	{ "holds", "holds", 0 },
};
static const struct nicfit_column cable_cols[] = {
	{ "qty", "qty", 1 }, { "link", "link", 0 }, { "part", "part", 0 },
	{ "ends", "ends", 0 }, { "length_m", "m", 1 },
};

/*
 * Every column of the text tables, in every format (the estimates and the
 * slots are shown only when the plan has them): what -o may name.
 */
static void declare_columns(struct nicfit_emit *e)
{
	nicfit_emit_columns(e, bom_cols, (int)(sizeof(bom_cols) / sizeof(bom_cols[0])));
	nicfit_emit_columns(e, est_cols, (int)(sizeof(est_cols) / sizeof(est_cols[0])));
	nicfit_emit_columns(e, slot_cols, (int)(sizeof(slot_cols) / sizeof(slot_cols[0])));
	nicfit_emit_columns(e, cable_cols, (int)(sizeof(cable_cols) / sizeof(cable_cols[0])));
}

/*
 * The bill of materials in the columns every BOM has (docs/formats.md):
 * part, description, this command's own (role), then qty, unit_usd and
 * total_usd, so that a spreadsheet reads qty x unit = total left to right.
 */
static void bom_table(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	size_t n;

	nicfit_emit_table_begin(e, NULL, bom_cols, 6);
	for (n = 0; n < p->nbom; n++) {
		const struct nicfit_plan_line *l = &p->bom[n];

		nicfit_emit_cell_string(e, l->part);
		nicfit_emit_cell_string(e, l->description);
		nicfit_emit_cell_string(e, l->role);
		nicfit_emit_cell_int(e, l->qty);
		if (l->included && nicfit_emit_format(e) == NICFIT_FMT_CSV) {
			nicfit_emit_cell_number(e, 0, 2);
			nicfit_emit_cell_number(e, 0, 2);
		} else if (l->included) {
			nicfit_emit_cell_null(e, "included");
			nicfit_emit_cell_number(e, 0, 2);
		} else if (l->priced) {
			nicfit_emit_cell_number(e, l->unit_usd, 2);
			nicfit_emit_cell_number(e, l->total_usd, 2);
		} else {
			int csv = nicfit_emit_format(e) == NICFIT_FMT_CSV;

			nicfit_emit_cell_null(e, csv ? "" : "unpriced");
			nicfit_emit_cell_null(e, csv ? "" : "-");
		}
	}
	nicfit_emit_table_end(e);
}

/* "1, 3" (the back-end cards' slots), into b. */
static const char *slot_names(const struct nicfit_plan *p, char *b, size_t n)
{
	size_t k = 0;
	int i;

	b[0] = '\0';
	for (i = 0; i < p->be_cards && k < n; i++)
		k += (size_t)plan_fmt(b + k, n - k, "%s%s", i ? ", " : "",
				      p->in.server->slots[p->be_slots[i]].name);
	return b;
}

/* ", sockets 0 + 1: 2 + 2" (cards per socket), into b; "" on one socket. */
static const char *sockets_of_cards(const struct nicfit_plan *p, char *b, size_t n)
{
	int per[8] = { 0 }, i, used = 0;
	size_t k;

	for (i = 0; i < p->be_cards; i++)
		per[p->in.server->slots[p->be_slots[i]].socket & 7]++;
	for (i = 0; i < 8; i++)
		used += per[i] > 0;
	b[0] = '\0';
	if (used < 2)
		return b;
	k = (size_t)plan_fmt(b, n, ", cards per socket:");
	for (i = 0; i < 8 && i < p->in.server->sockets && k < n; i++)
		k += (size_t)plan_fmt(b + k, n - k, "%s%d", i ? " + " : " ", per[i]);
	return b;
}

/* The back end in a few lines: the card and its slots, what feeds it, the paths, the fabric. */
static void text_backend(struct nicfit_emit *e, const struct nicfit_plan *p, const char *bold,
			 const char *reset)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_slot *s;
	char b[64], paths[80];
	int i;

	if (!p->backend_needed) {
		nicfit_emit_printf(e, "%sBack end%s   none needed\n", bold, reset);
		return;
	}
	if (!p->be_nic && p->be_integrated) {
		nicfit_emit_printf(e, "%sBack end%s   the GPUs' own ports: %d x %g Gb/s %s cages per "
				   "server, no NIC cards (size the fabric with nicfit cluster --gpu %s)\n",
				   bold, reset, p->be_cards, p->be_port_gbps,
				   p->in.gpu->scaleout_cage ? p->in.gpu->scaleout_cage : "",
				   p->in.gpu->e.id);
		return;
	}
	if (!p->be_nic) {
		nicfit_emit_printf(e, "%sBack end%s   needed, but no RDMA card fits this server (see the findings)\n",
				   bold, reset);
		return;
	}
	s = &in->server->slots[p->be_slots[0]];
	if (p->rails)
		nicfit_emit_printf(e, "%sBack end%s   %s %s, %d per server, one per GPU: %d rails "
				      "of %g G (Gen%d x%d)\n", bold, reset, p->be_part,
				   p->be_nic->e.name, p->be_cards, p->rails, p->be_port_gbps,
				   s->gen, s->width);
	else if (p->be_cards > 1)
		nicfit_emit_printf(e, "%sBack end%s   %s %s, %d per server, slots %s (Gen%d x%d)%s\n",
				   bold, reset, p->be_part, p->be_nic->e.name, p->be_cards,
				   slot_names(p, b, sizeof(b)), s->gen, s->width,
				   sockets_of_cards(p, paths, sizeof(paths)));
	else
		nicfit_emit_printf(e, "%sBack end%s   %s %s, %d per server, slot %s (Gen%d x%d, socket %d)\n",
				   bold, reset, p->be_part, p->be_nic->e.name, p->be_cards, s->name,
				   s->gen, s->width, s->socket);
	nicfit_emit_printf(e, "           %g Gb/s port; the slot%s feed%s %.1f Gb/s: %.1f Gb/s per card "
			      "(limited by the %s)%s\n",
			   p->be_port_gbps, p->be_sd_links > 1 ? "s" : "",
			   p->be_sd_links > 1 ? "" : "s", p->be_pcie_gbps, p->be_effective_gbps,
			   !strcmp(p->be_limited_by, "pcie") ? "slot" : "port",
			   p->be_cards > 1 ? "" : "");
	for (i = 0; p->be_sd_links > 1 && i < p->be_cards; i++)
		if (p->be_aux_slots[i] >= 0)
			nicfit_emit_printf(e, "           Socket Direct: main card in slot %s "
					      "(socket %d), auxiliary card in slot %s (socket %d)\n",
					   in->server->slots[p->be_slots[i]].name,
					   in->server->slots[p->be_slots[i]].socket,
					   in->server->slots[p->be_aux_slots[i]].name,
					   in->server->slots[p->be_aux_slots[i]].socket);
		else
			nicfit_emit_printf(e, "           Socket Direct: main card in slot %s alone, "
					      "no free slot on another socket for its auxiliary card\n",
					   in->server->slots[p->be_slots[i]].name);
	path_counts(p, paths, sizeof(paths));
	if (paths[0])
		nicfit_emit_printf(e, "           GPU-NIC paths: %s%s\n", paths,
				   p->gpus_near != in->gpus_per_server ? "" : all_pix(p) ?
				   " - every GPU under the same PCIe switch as its card" :
				   " - every GPU under the same PCIe switch or cascade of switches "
				   "as its card");
	nicfit_emit_printf(e, "           fabric: %s%s\n",
			   p->fabric == NICFIT_FABRIC_IB ? "InfiniBand (subnet manager needed)" :
			   nicfit__plan_roce_name(p), p->back_to_back ? ", two servers back to back" :
			   p->fabric != NICFIT_FABRIC_ROCE ? "" :
			   /* RoCE v1 has no IP header to mark: PFC alone */
			   strcmp(nicfit__plan_roce_name(p), "RoCE v1") ?
			   " on a lossless switch (PFC, ECN)" : " on a lossless switch (PFC)");
}

/* The front end, the model's load and serving traffic, and the storage NICs. */
static void text_frontend(struct nicfit_emit *e, const struct nicfit_plan *p, const char *bold,
			  const char *reset)
{
	const struct nicfit_plan_input *in = &p->in;
	char b[64];

	if (p->fe_converged)
		nicfit_emit_printf(e, "%sFront end%s  converged with storage and in-band: one port of each "
				      "%s, %d x %g GbE bonded to two switches\n", bold, reset,
				   p->st_nic->part, p->st_cards, p->st_port_gbps);
	else if (p->fe_onboard)
		nicfit_emit_printf(e, "%sFront end%s  onboard %s%s%s%s, %d x %g GbE %s\n", bold, reset,
				   p->fe_ob->name, p->fe_nic ? " (" : "", p->fe_nic ? p->fe_nic->family : "",
				   p->fe_nic ? ")" : "", p->fe_ob->ports, p->fe_ob->port_gbps, p->fe_ob->cage);
	else if (p->fe_nic)
		nicfit_emit_printf(e, "%sFront end%s  %s %s, %d x %g GbE %s\n", bold, reset,
				   p->fe_nic->part, p->fe_nic->e.name, p->fe_nic->ports,
				   p->fe_nic->port_gbps, p->fe_nic->cage);
	if (p->load_s > 0 && !p->load_over_storage)
		nicfit_emit_printf(e, "           model load %s at %.2f GB/s; serving %.2f Mb/s\n",
				   nicfit_fmt_seconds(p->load_s, b, sizeof(b)),
				   (in->storage_gbps > 0 && in->storage_gbps < p->fe_goodput_gbps ?
				    in->storage_gbps : p->fe_goodput_gbps) / 8, p->serving_mbps);
	else if (p->load_s > 0)
		nicfit_emit_printf(e, "           serving %.2f Mb/s\n", p->serving_mbps);
	if (p->st_nic) {
		nicfit_emit_printf(e, "%sStorage%s    %s %s, %d per server, one port each to two "
				      "switches (bonded)\n", bold, reset, p->st_nic->part,
				   p->st_nic->e.name, p->st_cards);
		nicfit_emit_printf(e, "           storage and in-band %.1f Gb/s per server%s%s%s\n",
				   p->st_node_gbps, p->load_over_storage ? "; model load " : "",
				   p->load_over_storage ? nicfit_fmt_seconds(p->load_s, b, sizeof(b)) : "",
				   p->load_over_storage ? " over them" : "");
	}
}

/* R9's step times: the all-reduce of the gradients over each rate, as a table. */
static void text_step_times(struct nicfit_emit *e, const struct nicfit_plan *p, const char *bold,
			    const char *reset)
{
	struct nicfit_column cols[4];
	char b[64];
	int i;

	if (!p->nest)
		return;
	if (p->est_traffic)
		nicfit_emit_printf(e, "%sStep time%s  %s, %s per server per step (%.1f GB of "
				      "gradients):\n", bold, reset, p->est_traffic,
				   nicfit_fmt_bytes(p->est_bytes_gb * 1e9, b, sizeof(b)),
				   p->grad_gb);
	else
		nicfit_emit_printf(e, "%sStep time%s  all-reduce of %.1f GB of gradients:\n",
				   bold, reset, p->grad_gb);
	/* the algorithm column is headed by the library that picks it: NCCL, RCCL */
	memcpy(cols, est_cols, sizeof(cols));
	cols[3].title = nicfit__plan_stack(p)->ccl;
	nicfit_emit_table_begin(e, NULL, cols, 4);
	for (i = 0; i < p->nest; i++) {
		nicfit_emit_cell_string(e, p->est[i].label);
		nicfit_emit_cell_number(e, p->est[i].gbps, 1);
		nicfit_emit_cell_string(e, nicfit_fmt_seconds(p->est[i].seconds, b, sizeof(b)));
		nicfit_emit_cell_string(e, p->est[i].algorithm[0] ? p->est[i].algorithm : NULL);
	}
	nicfit_emit_table_end(e);
}

/* The verdict and the parts in a few lines: back end, front end, OOB, step times. */
static void text_summary(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	int md = nicfit_emit_format(e) == NICFIT_FMT_MD;
	const char *bold = nicfit_emit_color(e, NICFIT_COLOR_BOLD);
	const char *reset = nicfit_emit_color(e, NICFIT_COLOR_RESET);

	if (md)
		nicfit_emit_printf(e, "# Network plan: %d x %s\n\n", in->servers, in->server->e.name);
	nicfit_emit_printf(e, "%sVerdict:%s %s\n\n", md ? "**" : bold, md ? "**" : reset, p->verdict);
	nicfit__plan_rack_text(e, p, bold, reset);
	text_backend(e, p, bold, reset);
	text_frontend(e, p, bold, reset);
	nicfit_emit_printf(e, "%sOOB%s        %s %g GbE %s\n", bold, reset,
			   in->server->oob_name ? in->server->oob_name : "BMC", in->server->oob_gbps,
			   in->server->oob_cage ? in->server->oob_cage : "RJ45");
	text_step_times(e, p, bold, reset);
	text_step(e, p);
	nicfit__plan_serving_text(e, p);
	nicfit_emit_printf(e, "\n");
}

/* The slots, cables and bill of materials as tables. */
static void text_tables(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	char b[64];
	size_t n;
	int i, unpriced = 0;

	if (p->nslots) {
		nicfit_emit_heading(e, "Slots");
		nicfit_emit_table_begin(e, NULL, slot_cols, 4);
		for (i = 0; i < p->nslots; i++) {
			char link[24];

			nicfit_emit_cell_string(e, p->slots[i].slot);
			nicfit_emit_cell_int(e, p->slots[i].socket);
			plan_fmt(link, sizeof(link), "Gen%d x%d", p->slots[i].gen, p->slots[i].width);
			nicfit_emit_cell_string(e, link);
			nicfit_emit_cell_string(e, p->slots[i].what);
		}
		nicfit_emit_table_end(e);
		nicfit_emit_printf(e, "\n");
	}
	nicfit_emit_heading(e, "Cables");
	nicfit_emit_table_begin(e, NULL, cable_cols, 5);
	for (n = 0; n < p->ncables; n++) {
		nicfit_emit_cell_int(e, p->cables[n].qty);
		nicfit_emit_cell_string(e, p->cables[n].link);
		nicfit_emit_cell_string(e, p->cables[n].part);
		nicfit_emit_cell_string(e, p->cables[n].ends);
		nicfit_emit_cell_number(e, p->cables[n].length_m, 1);
	}
	nicfit_emit_table_end(e);
	nicfit_emit_printf(e, "\n");
	plan_fmt(b, sizeof(b), "Bill of materials%s%s%s", p->prices_as_of[0] ? " (prices as of " : "",
		 p->prices_as_of, p->prices_as_of[0] ? ")" : "");
	nicfit_emit_heading(e, b);
	bom_table(e, p);
	for (n = 0; n < p->nbom; n++)
		unpriced += !p->bom[n].priced && !p->bom[n].included;
	nicfit_emit_printf(e, "  total (priced lines) %.2f USD", p->total_usd);
	if (unpriced)
		nicfit_emit_printf(e, "; %d line%s unpriced - add your prices with --catalog", unpriced,
				   unpriced == 1 ? "" : "s");
	nicfit_emit_printf(e, "\n\n");
}

/* The findings, worst first, and the decisions ("Why"), then the assumptions. */
static void text_records(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	int md = nicfit_emit_format(e) == NICFIT_FMT_MD, j;
	size_t k;

	if (p->findings.n) {
		nicfit_emit_heading(e, "Findings");
		for (j = NICFIT_SEV_CRITICAL; j >= NICFIT_SEV_INFO; j--)
			for (k = 0; k < p->findings.n; k++) {
				const struct nicfit_finding *f = &p->findings.v[k];
				enum nicfit_color col = j == NICFIT_SEV_CRITICAL ? NICFIT_COLOR_RED :
							j == NICFIT_SEV_WARNING ? NICFIT_COLOR_YELLOW :
							NICFIT_COLOR_BLUE;

				if ((int)f->severity != j)
					continue;
				nicfit_emit_printf(e, "%s  %s%-8s%s %s: %s\n", md ? "-" : "",
						   nicfit_emit_color(e, col),
						   j == NICFIT_SEV_CRITICAL ? "CRITICAL" :
						   j == NICFIT_SEV_WARNING ? "WARNING" : "info",
						   nicfit_emit_color(e, NICFIT_COLOR_RESET), f->code, f->message);
				if (f->fix)
					nicfit_emit_printf(e, "%s           fix: %s\n", md ? " " : "", f->fix);
			}
		nicfit_emit_printf(e, "\n");
	}
	nicfit_emit_heading(e, in->explain ? "Every rule considered" : "Why");
	for (k = 0; k < p->decisions.n; k++) {
		const struct nicfit_finding *d = &p->decisions.v[k];

		if (!d->applied && !in->explain)
			continue;
		nicfit_emit_printf(e, "%s  %-4s %s%s\n", md ? "-" : "", d->code,
				   in->explain && !d->applied ? "(not applied) " : "", d->message);
	}
	if (in->explain) {
		nicfit_emit_printf(e, "\nAssumptions (change with --assume NAME=VALUE):\n");
		nicfit_param_emit(e, "assumptions", nicfit_pcie_param_table, nicfit_pcie_param_count,
				  &in->pcie);
		nicfit_param_emit(e, "assumptions_link", nicfit_link_param_table,
				  nicfit_link_param_count, &in->link);
		nicfit_param_emit(e, "assumptions_llm", nicfit_llm_param_table, nicfit_llm_param_count,
				  &in->llm);
		nicfit_param_emit(e, "assumptions_step", nicfit_step_param_table,
				  nicfit_step_param_count, &in->step);
		nicfit_param_emit(e, "assumptions_allreduce", nicfit_allreduce_param_table,
				  nicfit_allreduce_param_count, &in->ar);
	} else {
		nicfit_emit_printf(e, "\n(--explain lists every rule considered and the assumptions)\n");
	}
}

static void text_report(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	text_summary(e, p);
	text_tables(e, p);
	text_records(e, p);
}

void nicfit_plan_render(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	declare_columns(e);
	switch (nicfit_emit_format(e)) {
	case NICFIT_FMT_JSON:
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "schema", "nicfit.plan.v1");
		emit_json(e, p);
		nicfit_emit_end_object(e);
		break;
	case NICFIT_FMT_CSV:
		bom_table(e, p);
		break;
	case NICFIT_FMT_SVG:
		nicfit__plan_svg(e, p);
		break;
	default:
		text_report(e, p);
		break;
	}
}
