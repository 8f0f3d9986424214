/*
 * calc_step.c - `nicfit calc step`: one step of a job (training, adapter
 * fine-tuning, prefill or decode) on nodes of GPUs, its compute, the
 * traffic of each parallelism that crosses the network, and whether a
 * link hides it (nicfit/step.h has the formulas). The GPU and model facts
 * come from the catalog through nicfit_step_job_fill() (parts/step_job.c),
 * which the planner uses too, so both give the same numbers.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "calc/calc_int.h"
#include "nicfit/kv.h"
#include "nicfit/link.h"
#include "nicfit/perf.h"
#include "nicfit/serving.h"
#include "nicfit/step.h"
#include "nicfit/units.h"

/* ---- step ---------------------------------------------------------------- */

/* What a step was asked beside its job: a disaggregated prefill's requests and prompt. */
struct step_ask {
	int disagg;   /* prefill hands its KV cache to other (decode) nodes */
	long conc;    /* requests per step */
	long ctx;     /* prompt tokens per request */
};

/* The job of `calc step`: model, GPUs, workload, parallelism, tokens. */
static int step_job(struct req *r, const struct nicfit_catalog *cat, struct nicfit_step_job *j,
		    const struct nicfit_model **model, const struct nicfit_gpu **gpu,
		    enum nicfit_precision *prec, const struct nicfit_llm_params *lp,
		    const struct nicfit_step_params *sp, struct step_ask *ask)
{
	const char *mv = nicfit_spec_get(r->s, "model"), *pv = nicfit_spec_get(r->s, "params");
	const char *v, *gv;
	double params = 0, tflops;
	long nodes, gpn, tp, pp, ep, conc, ctx;
	int rc, adapters;

	memset(j, 0, sizeof(*j));
	*model = NULL;
	if (!mv && !pv)
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, r->s->input, 0, 0,
					      "give %s or %s", nicfit__calc_optname(r, "model"),
					      r->s->from_data ? "params" : "--params"));
	if (mv && !(*model = nicfit_catalog_find_model(cat, mv, nicfit__calc_optname(r, "model"), r->err)))
		return r->err ? r->err->code : NICFIT_E_NOTFOUND;
	if (pv) {
		enum nicfit_size_kind kind;

		if ((rc = nicfit__calc_fix(r, nicfit_parse_size(pv, nicfit__calc_optname(r, "params"), &params, &kind, r->err))))
			return rc;
		if (kind != NICFIT_SIZE_PARAMS)
			return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "params"), 0, 0,
						      "'%s' is a size in bytes; give a parameter count such as 70B", pv));
	}
	*prec = NICFIT_PREC_BF16;
	if ((v = nicfit_spec_get(r->s, "precision"))) {
		(void)nicfit__calc_optname(r, "precision");
		if ((rc = nicfit__calc_fix(r, nicfit_precision_parse(v, prec, r->err))))
			return rc;
	}
	if ((rc = nicfit__calc_need(r, "gpu", &gv)))
		return rc;
	if (!(*gpu = nicfit_catalog_find_gpu(cat, gv, nicfit__calc_optname(r, "gpu"), r->err)))
		return r->err ? r->err->code : NICFIT_E_NOTFOUND;
	j->phase = NICFIT_PHASE_TRAIN;
	v = nicfit_spec_get(r->s, "workload");
	if (v && (!strcasecmp(v, "inference") || !strcasecmp(v, "decode")))
		j->phase = NICFIT_PHASE_DECODE;
	else if (v && !strcasecmp(v, "prefill"))
		j->phase = NICFIT_PHASE_PREFILL;
	else if (v && strcasecmp(v, "training") && strcasecmp(v, "fine-tuning") &&
		 strcasecmp(v, "finetuning"))
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "workload"), 0, 0,
					      "'%.32s': use training, fine-tuning, inference (decode) or prefill",
					      v));
	adapters = v && strcasecmp(v, "training") && j->phase == NICFIT_PHASE_TRAIN &&
		   *prec >= NICFIT_PREC_FP8;
	nicfit_step_job_fill(j, *model, params, *gpu, *prec, adapters, lp);
	v = nicfit_spec_get(r->s, "parallel");
	if (v) {
		(void)nicfit__calc_optname(r, "parallel");
		if ((rc = nicfit__calc_fix(r, nicfit_dp_parse(v, &j->dp, r->err))))
			return rc;
	}
	if ((rc = nicfit__calc_get_long(r, "nodes", 2, 1, 100000, &nodes)) ||
	    (rc = nicfit__calc_get_long(r, "gpus_per_node", nicfit_gpus_per_node(*gpu), 1, 1024, &gpn)) ||
	    (rc = nicfit__calc_get_long(r, "tp", 1, 1, 100000, &tp)) ||
	    (rc = nicfit__calc_get_long(r, "pp", 1, 1, 100000, &pp)) ||
	    (rc = nicfit__calc_get_long(r, "ep", 1, 1, 100000, &ep)) ||
	    (rc = nicfit__calc_get_long(r, "concurrency", 1, 1, 100000000, &conc)) ||
	    (rc = nicfit__calc_get_long(r, "context", 4096, 1, 100000000, &ctx)) ||
	    (rc = nicfit__calc_get_double(r, "tflops", j->tflops, 0.001, 1e6, &tflops)))
		return rc;
	j->tflops = tflops;
	j->nodes = (int)nodes;
	j->gpus_per_node = (int)gpn;
	j->tp = (int)tp;
	j->pp = (int)pp;
	j->ep = (int)ep;
	j->tokens = j->phase == NICFIT_PHASE_DECODE ? (double)conc :
		    j->phase == NICFIT_PHASE_PREFILL ? (double)conc * ctx :
		    sp->tokens_per_gpu * nodes * gpn;
	ask->conc = conc;
	ask->ctx = ctx;
	if ((rc = nicfit__calc_get_bool(r, "disaggregated", &ask->disagg)))
		return rc;
	if (ask->disagg && j->phase != NICFIT_PHASE_PREFILL)
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "disaggregated"), 0, 0,
					      "a disaggregated step is a prefill step: give --workload prefill"));
	if (ask->disagg) {
		double bpt = nicfit_kv_bytes_per_token(&j->arch, lp);

		if (!(bpt > 0))
			return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "disaggregated"), 0, 0,
						      "the KV cache moved to decode needs the model's layers and KV heads: give --model"));
		j->kv_out_bytes = (double)conc * ctx * bpt;
	}
	return nicfit__calc_get_double(r, "batch_tokens", j->tokens, 1, 1e12, &j->tokens);
}

static const char *phase_name(enum nicfit_phase ph)
{
	return ph == NICFIT_PHASE_TRAIN ? "training" : ph == NICFIT_PHASE_PREFILL ? "prefill" :
	       "decode";
}

static void emit_step_terms(struct nicfit_emit *e, const struct nicfit_step *st)
{
	char b[32];
	int i;

	nicfit_emit_begin_array(e, "traffic");
	for (i = 0; i < st->nterms; i++) {
		const struct nicfit_step_term *t = &st->terms[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "name", t->name);
		nicfit_emit_number(e, "gb_per_node", t->bytes / 1e9);
		nicfit_emit_number(e, "latency_steps", t->hops);
		nicfit_emit_string(e, "formula", t->formula);
		nicfit_emit_string(e, "source", t->source);
		nicfit_emit_end_object(e);
		nicfit_emit_printf(e, "  %-32s %s per node per step\n      = %s\n      (%s)\n",
				   t->name, nicfit_fmt_bytes(t->bytes, b, sizeof(b)), t->formula,
				   t->source);
	}
	nicfit_emit_end_array(e);
	if (!st->nterms)
		nicfit_emit_printf(e, "  no traffic crosses the network: every parallel group "
				      "stays inside a node\n");
}

static void emit_step_time(struct nicfit_emit *e, const struct nicfit_step *st,
			   const struct nicfit_step_time *t, const struct nicfit_step_params *sp,
			   const char *over)
{
	char b1[32], b2[32];

	nicfit_emit_number(e, "comm_s", t->comm_s);
	nicfit_emit_number(e, "hidden_s", t->hidden_s);
	nicfit_emit_number(e, "stall_s", t->stall_s);
	nicfit_emit_number(e, "step_s", t->step_s);
	nicfit_emit_number(e, "compute_comm_ratio", t->ratio);
	nicfit_emit_bool(e, "hides", t->hides);
	nicfit_emit_number(e, "need_gbps", t->need_gbps);
	nicfit_emit_string(e, "algorithm", t->algorithm);
	nicfit_emit_printf(e, "  communication %s over %s (%.1f Gb/s per node), compute/comm %.2f\n",
			   nicfit_fmt_seconds(t->comm_s, b1, sizeof(b1)), over, t->node_gbps, t->ratio);
	nicfit_emit_printf(e, "  hides under   %s (overlap %.0f%% of the compute)\n",
			   nicfit_fmt_seconds(t->hidden_s, b1, sizeof(b1)), sp->overlap * 100);
	if (t->hides)
		nicfit_emit_printf(e, "  verdict       the network hides under the compute; step %s\n",
				   nicfit_fmt_seconds(t->step_s, b1, sizeof(b1)));
	else
		nicfit_emit_printf(e, "  verdict       the GPUs stall %s per step (%.0f%% of a %s step)\n",
				   nicfit_fmt_seconds(t->stall_s, b1, sizeof(b1)),
				   t->stall_s / t->step_s * 100,
				   nicfit_fmt_seconds(t->step_s, b2, sizeof(b2)));
	if (t->need_gbps > 0)
		nicfit_emit_printf(e, "  needs         %.1f Gb/s per node to hide it\n", t->need_gbps);
	else if (st->nterms)
		nicfit_emit_printf(e, "  needs         no rate hides it: the latency alone exceeds the overlap\n");
}

/*
 * Disaggregated prefill (reference/inference-serving.md 2): each request's
 * KV cache, the rate a prefill node sends it at to keep up with its own
 * prefills, and one request's cache over one rail and over all of them.
 * kv_transfer is null when prefill and decode share the GPUs.
 */
static void emit_kv_xfer(struct nicfit_emit *e, const struct nicfit_step_job *j,
			 const struct nicfit_llm_params *lp, const struct nicfit_kv_xfer *kv)
{
	const struct nicfit_kv_xfer x = kv ? *kv : (struct nicfit_kv_xfer){ 0 };
	char b1[32], b2[32], b3[32];

	nicfit_emit_bool(e, "disaggregated", kv != NULL);
	if (!kv) {
		nicfit_emit_null(e, "kv_transfer");
		return;
	}
	nicfit_emit_begin_object(e, "kv_transfer");
	nicfit_emit_number(e, "bytes_per_token", x.bytes_per_token);
	nicfit_emit_number(e, "prompt_tokens", x.prompt_tokens);
	nicfit_emit_number(e, "gb_per_request", x.bytes_per_request / 1e9);
	nicfit_emit_number(e, "requests_per_node", x.requests);
	nicfit_emit_number(e, "prefill_s", x.prefill_s);
	nicfit_emit_number(e, "node_gbps", x.node_gbps);
	if (x.rail_gbps > 0) {
		nicfit_emit_number(e, "rail_gbps", x.rail_gbps);
		nicfit_emit_int(e, "rails", x.rails);
		nicfit_emit_number(e, "one_rail_s", x.one_rail_s);
		nicfit_emit_number(e, "all_rails_s", x.all_rails_s);
	} else {
		nicfit_emit_null(e, "rail_gbps");
		nicfit_emit_null(e, "rails");
		nicfit_emit_null(e, "one_rail_s");
		nicfit_emit_null(e, "all_rails_s");
	}
	nicfit_emit_end_object(e);
	nicfit_emit_printf(e, "  KV transfer   %s per request = %.0f prompt tokens x %.0f B per token "
			      "(%s x %g B%s)\n"
			      "                %.4g request%s per prefill node every %s: %.1f Gb/s per "
			      "prefill node to the decode nodes\n",
			   nicfit_fmt_bytes(x.bytes_per_request, b1, sizeof(b1)), x.prompt_tokens,
			   x.bytes_per_token, j->arch.kv_lora_rank > 0 ?
			   "(kv_lora_rank + rope_dim) x layers" : "2 x layers x KV heads x head dim",
			   lp->kv_bytes, j->arch.kv_lora_rank > 0 ? ": the MLA latent" : "", x.requests, x.requests == 1 ? "" : "s",
			   nicfit_fmt_seconds(x.prefill_s, b2, sizeof(b2)), x.node_gbps);
	if (x.rail_gbps > 0)
		nicfit_emit_printf(e, "                one request's cache: %s over one %.1f Gb/s rail, "
				      "%s over %d\n",
				   nicfit_fmt_seconds(x.one_rail_s, b2, sizeof(b2)), x.rail_gbps,
				   nicfit_fmt_seconds(x.all_rails_s, b3, sizeof(b3)), x.rails);
}

/* What the step's Markdown answer shows (md_step). */
struct step_md {
	const struct nicfit_step_job *job;
	const struct nicfit_step *st;
	const struct nicfit_step_time *t;
	const struct nicfit_step_params *sp;
	const struct nicfit_model *model;
	const struct nicfit_gpu *gpu;
	enum nicfit_precision prec;
	const char *cprec;
	const char *over;  /* "8 x 200G roce", "" without a link */
	double latency_us; /* one network step's latency */
	const struct nicfit_kv_xfer *kv; /* a disaggregated prefill's KV transfer, or NULL */
};

/* The traffic of each parallelism that crosses the network, as a table. */
static void md_step_traffic(struct nicfit_emit *e, const struct nicfit_step *st)
{
	static const struct nicfit_column cols[] = {
		{ "name", "traffic", 0 }, { "per_node", "per node per step", 1 },
		{ "formula", "formula", 0 }, { "source", "source", 0 },
	};
	char b[32];
	int i;

	nicfit_emit_heading(e, "Traffic");
	if (!st->nterms) {
		nicfit_emit_printf(e, "No traffic crosses the network: every parallel group stays "
				      "inside a node.\n\n");
		return;
	}
	nicfit_emit_table_begin(e, NULL, cols, 4);
	for (i = 0; i < st->nterms; i++) {
		nicfit_emit_cell_string(e, st->terms[i].name);
		nicfit_emit_cell_string(e, nicfit_fmt_bytes(st->terms[i].bytes, b, sizeof(b)));
		nicfit_emit_cell_string(e, st->terms[i].formula);
		nicfit_emit_cell_string(e, st->terms[i].source);
	}
	nicfit_emit_table_end(e);
}

/* `calc step --format md`: the answer, the figures, the traffic, the formula. */
static void md_step(struct nicfit_emit *e, const struct step_md *m)
{
	const struct nicfit_step_job *j = m->job;
	const struct nicfit_step *st = m->st;
	const struct nicfit_step_time *t = m->t;
	char what[32], b1[32], b2[32], b3[32], b4[32], verdict[160];

	if (!m->over[0] && t->need_gbps > 0)
		snprintf(verdict, sizeof(verdict), "it needs %.1f Gb/s per node to hide its traffic",
			 t->need_gbps);
	else if (!st->nterms)
		snprintf(verdict, sizeof(verdict), "no traffic crosses the network");
	else if (!m->over[0])
		snprintf(verdict, sizeof(verdict), "no rate hides its traffic");
	else if (t->hides)
		snprintf(verdict, sizeof(verdict), "the network hides under the compute (step %s)",
			 nicfit_fmt_seconds(t->step_s, b1, sizeof(b1)));
	else
		snprintf(verdict, sizeof(verdict), "the GPUs stall %s per step (%.0f%% of %s)",
			 nicfit_fmt_seconds(t->stall_s, b1, sizeof(b1)), t->stall_s / t->step_s * 100,
			 nicfit_fmt_seconds(t->step_s, b2, sizeof(b2)));
	nicfit__calc_md_title(e, "%s step of %s on %d node%s x %d %s: %s",
			      j->phase == NICFIT_PHASE_TRAIN ? (j->adapters ? "Adapter fine-tuning" :
			      "Training") : j->phase == NICFIT_PHASE_PREFILL ? "Prefill" : "Decode",
			      m->model ? m->model->e.name :
			      nicfit_fmt_bytes(j->arch.params, what, sizeof(what)),
			      j->nodes, j->nodes == 1 ? "" : "s", j->gpus_per_node, m->gpu->e.name,
			      verdict);
	nicfit__calc_md_row(e, "precision", "%s (computes in %s)", nicfit_precision_name(m->prec),
			    m->cprec);
	if (j->phase == NICFIT_PHASE_TRAIN)
		nicfit__calc_md_row(e, "data parallel", "%s", nicfit_dp_name(st->dp));
	nicfit__calc_md_row(e, "model parallel", "TP %d x PP %d x EP %d", j->tp, j->pp, j->ep);
	nicfit__calc_md_row(e, "tokens per step", "%.0f", st->tokens);
	nicfit__calc_md_row(e, "compute", "%s%s", nicfit_fmt_seconds(st->compute_s, b1, sizeof(b1)),
			    st->memory_bound ? " (memory-bound)" : "");
	nicfit__calc_md_row(e, "traffic per node", "%s per step",
			    nicfit_fmt_bytes(st->bytes_per_node, b1, sizeof(b1)));
	if (m->over[0]) {
		nicfit__calc_md_row(e, "network", "%s, %.1f Gb/s per node", m->over, t->node_gbps);
		nicfit__calc_md_row(e, "communication", "%s",
				    nicfit_fmt_seconds(t->comm_s, b1, sizeof(b1)));
		nicfit__calc_md_row(e, "compute/comm", "%.2f", t->ratio);
		nicfit__calc_md_row(e, "stall", "%s", nicfit_fmt_seconds(t->stall_s, b1, sizeof(b1)));
		nicfit__calc_md_row(e, "step", "%s", nicfit_fmt_seconds(t->step_s, b1, sizeof(b1)));
	}
	nicfit__calc_md_row(e, "hides under", "%s (%.0f%% of the compute)",
			    nicfit_fmt_seconds(t->hidden_s, b1, sizeof(b1)), m->sp->overlap * 100);
	if (t->need_gbps > 0)
		nicfit__calc_md_row(e, "needs", "%.1f Gb/s per node", t->need_gbps);
	if (m->kv) {
		nicfit__calc_md_row(e, "KV cache per request", "%s (%.0f tokens x %.0f B)",
				    nicfit_fmt_bytes(m->kv->bytes_per_request, b1, sizeof(b1)),
				    m->kv->prompt_tokens, m->kv->bytes_per_token);
		nicfit__calc_md_row(e, "KV to decode", "%.1f Gb/s per prefill node", m->kv->node_gbps);
		if (m->kv->rail_gbps > 0)
			nicfit__calc_md_row(e, "one request's KV", "%s over one rail, %s over %d",
					    nicfit_fmt_seconds(m->kv->one_rail_s, b1, sizeof(b1)),
					    nicfit_fmt_seconds(m->kv->all_rails_s, b2, sizeof(b2)),
					    m->kv->rails);
	}
	nicfit_emit_table_end(e);
	md_step_traffic(e, st);
	nicfit_emit_heading(e, "Formula");
	nicfit_emit_printf(e, "```\n");
	if (st->memory_bound)
		nicfit_emit_printf(e, "compute   = weights per GPU / memory bandwidth\n"
				      "          = %s / %g GB/s = %s\n",
				   nicfit_fmt_bytes(j->weights_gb * 1e9 / st->gpus, b1, sizeof(b1)),
				   j->mem_gbs, nicfit_fmt_seconds(st->compute_s, b2, sizeof(b2)));
	else
		nicfit_emit_printf(e, "compute   = %g x parameters x tokens / (GPUs x TFLOPS x 1e12 x MFU)\n"
				      "          = %g x %.4g x %.4g / (%d x %g x 1e12 x %g) = %s\n",
				   st->flops_per_token_param, st->flops_per_token_param,
				   j->arch.active_params > 0 ? j->arch.active_params : j->arch.params,
				   st->tokens, st->gpus, j->tflops, m->sp->mfu,
				   nicfit_fmt_seconds(st->compute_s, b1, sizeof(b1)));
	nicfit_emit_printf(e, "hidden    = overlap x compute = %g x %s = %s\n", m->sp->overlap,
			   nicfit_fmt_seconds(st->compute_s, b1, sizeof(b1)),
			   nicfit_fmt_seconds(t->hidden_s, b2, sizeof(b2)));
	if (m->over[0])
		nicfit_emit_printf(e, "comm      = bytes x 8 / node rate + steps x latency\n"
				      "          = %s x 8 / %.1f Gb/s + %g x %g us = %s\n"
				      "step      = compute + max(0, comm - hidden) = %s + %s = %s\n",
				   nicfit_fmt_bytes(st->bytes_per_node, b1, sizeof(b1)), t->node_gbps,
				   st->hops, m->latency_us, nicfit_fmt_seconds(t->comm_s, b2, sizeof(b2)),
				   nicfit_fmt_seconds(st->compute_s, b3, sizeof(b3)),
				   nicfit_fmt_seconds(t->stall_s, b4, sizeof(b4)),
				   nicfit_fmt_seconds(t->step_s, what, sizeof(what)));
	if (t->need_gbps > 0)
		nicfit_emit_printf(e, "needs     = bytes x 8 / (hidden - steps x latency) = %.1f Gb/s per node\n",
				   t->need_gbps);
	nicfit__calc_md_end(e);
}

/* The disaggregated pools in the Markdown answer: what a server of each pool serves. */
static void md_pools(struct nicfit_emit *e, const struct nicfit_serving_ask *a,
		     const struct nicfit_serving *s)
{
	static const struct nicfit_column cols[] = {
		{ "pool", "pool", 0 }, { "instance", "one instance", 1 },
		{ "server", "one server", 1 }, { "servers", "servers for the target", 1 },
	};
	char b[32], c[32];

	nicfit_emit_heading(e, "Pools");
	nicfit_emit_table_begin(e, NULL, cols, 4);
	nicfit_emit_cell_string(e, "prefill");
	snprintf(b, sizeof(b), "%.2f requests/s", s->pool[0].rps);
	nicfit_emit_cell_string(e, b);
	snprintf(c, sizeof(c), "%.2f requests/s", s->pool[0].server_rps);
	nicfit_emit_cell_string(e, c);
	snprintf(b, sizeof(b), "%d", s->prefill_servers);
	nicfit_emit_cell_string(e, a->rps > 0 ? b : "-");
	nicfit_emit_cell_string(e, "decode");
	snprintf(b, sizeof(b), "%.2f requests/s", s->pool[1].rps);
	nicfit_emit_cell_string(e, b);
	snprintf(c, sizeof(c), "%.2f requests/s", s->pool[1].server_rps);
	nicfit_emit_cell_string(e, c);
	snprintf(b, sizeof(b), "%d", s->decode_servers);
	nicfit_emit_cell_string(e, a->rps > 0 ? b : "-");
	nicfit_emit_table_end(e);
}

/* The step's JSON fields: the job as resolved, its compute and its traffic per node. */
static void emit_step_job(struct nicfit_emit *e, const struct nicfit_step_job *job,
			  const struct nicfit_step *st, const struct nicfit_model *model,
			  const struct nicfit_gpu *gpu, enum nicfit_precision prec, const char *cprec)
{
	nicfit_emit_string(e, "model", model ? model->e.id : NULL);
	nicfit_emit_number(e, "params", job->arch.params);
	nicfit_emit_string(e, "gpu", gpu->e.id);
	nicfit_emit_int(e, "nodes", job->nodes);
	nicfit_emit_int(e, "gpus_per_node", job->gpus_per_node);
	nicfit_emit_int(e, "gpus", st->gpus);
	nicfit_emit_string(e, "precision", nicfit_precision_name(prec));
	nicfit_emit_string(e, "compute_precision", cprec);
	nicfit_emit_string(e, "phase", phase_name(job->phase));
	nicfit_emit_bool(e, "adapters", job->adapters);
	nicfit_emit_string(e, "parallel", job->phase == NICFIT_PHASE_TRAIN ? nicfit_dp_name(st->dp) : NULL);
	nicfit_emit_int(e, "tp", job->tp);
	nicfit_emit_int(e, "pp", job->pp);
	nicfit_emit_int(e, "ep", job->ep);
	nicfit_emit_number(e, "tokens", st->tokens);
	nicfit_emit_number(e, "trainable_params", job->phase == NICFIT_PHASE_TRAIN ? st->trainable : 0);
	nicfit_emit_number(e, "flops", st->flops);
	nicfit_emit_number(e, "tflops_per_gpu", job->tflops);
	nicfit_emit_number(e, "compute_s", st->compute_s);
	nicfit_emit_bool(e, "memory_bound", st->memory_bound);
	nicfit_emit_number(e, "bytes_per_node_gb", st->bytes_per_node / 1e9);
}

/* The step's first text lines: the job, and its compute and how it is bound. */
static void text_step(struct nicfit_emit *e, const struct nicfit_step_job *job,
		      const struct nicfit_step *st, const struct nicfit_step_params *sp,
		      const struct nicfit_model *model, const struct nicfit_gpu *gpu,
		      enum nicfit_precision prec, const char *cprec)
{
	char b1[32], b2[32];

	nicfit_emit_printf(e, "%s step of %s on %d node%s x %d %s (%s%s%s%s)\n",
			   job->phase == NICFIT_PHASE_TRAIN ? (job->adapters ? "Adapter fine-tuning" :
			   "Training") : job->phase == NICFIT_PHASE_PREFILL ? "Prefill" : "Decode",
			   model ? model->e.name : nicfit_fmt_bytes(job->arch.params, b1, sizeof(b1)),
			   job->nodes, job->nodes == 1 ? "" : "s", job->gpus_per_node, gpu->e.name,
			   nicfit_precision_name(prec), job->phase == NICFIT_PHASE_TRAIN ? ", " : "",
			   job->phase == NICFIT_PHASE_TRAIN ? nicfit_dp_name(st->dp) : "",
			   job->tp * job->pp * job->ep > 1 ? ", model parallel" : "");
	nicfit_emit_printf(e, "  compute       %s = %g x %.4g parameters x %.4g tokens = %.3g FLOPs\n"
			      "                over %d GPUs x %g TFLOPS (%s dense) x %.0f%% MFU\n",
			   nicfit_fmt_seconds(st->compute_s, b1, sizeof(b1)), st->flops_per_token_param,
			   job->arch.active_params > 0 ? job->arch.active_params : job->arch.params,
			   st->tokens, st->flops, st->gpus, job->tflops, cprec, sp->mfu * 100);
	if (st->memory_bound)
		nicfit_emit_printf(e, "                (memory-bound: each GPU reads its %s of the "
				      "weights at %g GB/s)\n",
				   nicfit_fmt_bytes(job->weights_gb * 1e9 / st->gpus, b2, sizeof(b2)),
				   job->mem_gbs);
}

/* The step over the link given (over: its name), or the rate that would hide it (over NULL). */
static void emit_step_net(struct nicfit_emit *e, const struct nicfit_step *st,
			  const struct nicfit_step_time *t, const struct nicfit_step_params *sp,
			  const char *over)
{
	char b1[32];

	if (over) {
		nicfit_emit_number(e, "node_gbps", t->node_gbps);
		emit_step_time(e, st, t, sp, over);
		return;
	}
	nicfit_emit_null(e, "node_gbps");
	nicfit_emit_number(e, "need_gbps", t->need_gbps);
	if (t->need_gbps > 0)
		nicfit_emit_printf(e, "  needs         %.1f Gb/s per node to hide under %s "
				      "(overlap %.0f%%; give --link to time it)\n", t->need_gbps,
				   nicfit_fmt_seconds(t->hidden_s, b1, sizeof(b1)), sp->overlap * 100);
}

int nicfit__calc_run_step(struct req *r, const struct nicfit_catalog *cat, struct nicfit_emit *e)
{
	static const char *const known[] = { "model", "params", "precision", "gpu", "nodes",
		"gpus_per_node", "workload", "parallel", "tp", "pp", "ep", "batch_tokens",
		"concurrency", "context", "tflops", "link", "proto", "nics_per_node", "disaggregated",
		"output_tokens", "requests_per_s", "ttft_ms", "tpot_ms", "assume", NULL };
	struct nicfit_llm_params lp;
	struct nicfit_step_params sp;
	struct nicfit_link_params lkp;
	struct nicfit_allreduce_params ap;
	struct nicfit_serving_params svp;
	struct nicfit_param_set tabs[5] = { { nicfit_step_param_table, nicfit_step_param_count, &sp },
		{ nicfit_llm_param_table, nicfit_llm_param_count, &lp },
		{ nicfit_link_param_table, nicfit_link_param_count, &lkp },
		{ nicfit_allreduce_param_table, nicfit_allreduce_param_count, &ap },
		{ nicfit_serving_param_table, nicfit_serving_param_count, &svp } };
	struct nicfit_serving pools;
	struct nicfit_serving_ask pask;
	int pools_known = 0, ntabs, rc;
	const struct nicfit_model *model = NULL;
	const struct nicfit_gpu *gpu = NULL;
	struct nicfit_step_job job;
	struct nicfit_step st;
	struct nicfit_step_time t;
	struct nicfit_link_result lr;
	struct nicfit_speed link;
	enum nicfit_precision prec;
	enum nicfit_proto proto;
	const char *cprec;
	double peak;
	char over[64];
	long nics;
	struct step_ask ask = { 0, 0, 0 };
	struct nicfit_kv_xfer kv;

	nicfit_llm_params_default(&lp);
	nicfit_step_params_default(&sp);
	nicfit_link_params_default(&lkp);
	nicfit_allreduce_params_default(&ap);
	nicfit_serving_params_default(&svp);
	if ((rc = nicfit__calc_apply_assume(r, tabs, 5)) ||
	    (rc = step_job(r, cat, &job, &model, &gpu, &prec, &lp, &sp, &ask)) ||
	    (rc = nicfit__calc_get_link(r, "link", 0, NICFIT_PROTO_ROCE, &link, &proto)) ||
	    (rc = nicfit__calc_get_long(r, "nics_per_node", 1, 1, 64, &nics)))
		return rc;
	if ((rc = nicfit__calc_step_pools_read(r, ask.disagg, &pask)) ||
	    (rc = nicfit__calc_unused(r, known)))
		return rc;
	if (!(job.tflops > 0))
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
							   nicfit__calc_optname(r, "tflops"), 0, 0,
							   "%s has no dense TFLOPS in the catalog: give them",
							   gpu->e.name));
	rc = nicfit_step_calc(&job, &sp, &st, r->err);
	if (rc && r->err && !r->err->input[0])
		snprintf(r->err->input, sizeof(r->err->input), "%s",
			 nicfit__calc_optname(r, nicfit_spec_get(r->s, "tp") ? "tp" :
					      nicfit_spec_get(r->s, "pp") ? "pp" :
					      nicfit_spec_get(r->s, "ep") ? "ep" : "nodes"));
	if ((rc = nicfit__calc_fix(r, rc)))
		return rc;
	cprec = nicfit_gpu_peak(gpu, prec, job.adapters, &peak);
	nicfit__calc_header(e, "step");
	emit_step_job(e, &job, &st, model, gpu, prec, cprec);
	over[0] = '\0';
	if (link.gbps > 0) {
		if ((rc = nicfit__calc_fix(r, nicfit_link_calc(&link, proto, &lkp, &lr, r->err))))
			return rc;
		snprintf(over, sizeof(over), "%ld x %gG %s", nics, lr.line_gbps,
			 nicfit_proto_name(proto));
		nicfit_step_over(&st, lr.goodput_gbps * nics, ap.latency_us, &sp, &t);
	} else {
		nicfit_step_over(&st, 0, ap.latency_us, &sp, &t);
	}
	if (ask.disagg && (rc = nicfit__calc_fix(r, nicfit_kv_xfer(&job.arch, &lp, (double)ask.ctx,
			(double)ask.conc / job.nodes, st.compute_s, link.gbps > 0 ? lr.goodput_gbps : 0,
			(int)nics, &kv, r->err))))
		return rc;
	if (ask.disagg && (rc = nicfit__calc_step_pools(r, &job, &lp, &sp, &svp, (double)ask.ctx,
			link.gbps > 0 ? lr.goodput_gbps * nics : 0, ap.latency_us, &pools, &pask,
			&pools_known)))
		return rc;
	ntabs = ask.disagg ? 5 : 4;
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		struct step_md m = { &job, &st, &t, &sp, model, gpu, prec, cprec, over,
				      ap.latency_us, ask.disagg ? &kv : NULL };

		md_step(e, &m);
		if (pools_known)
			md_pools(e, &pask, &pools);
		return nicfit__calc_done(e, tabs, ntabs);
	}
	text_step(e, &job, &st, &sp, model, gpu, prec, cprec);
	emit_step_terms(e, &st);
	emit_kv_xfer(e, &job, &lp, ask.disagg ? &kv : NULL);
	nicfit__calc_step_pools_emit(e, &pask, &pools, svp.pool_load, pools_known);
	emit_step_net(e, &st, &t, &sp, link.gbps > 0 ? over : NULL);
	nicfit__calc_assumptions(e, tabs, ntabs);
	nicfit_emit_end_object(e);
	return 0;
}

