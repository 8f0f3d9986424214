/*
 * plan_serving.c - R9, disaggregated serving in a plan: the prefill and
 * decode pools of the servers asked (or of a target), the KV cache each
 * request moves between them over the back-end rails, and its offload to
 * host memory or storage (the model is nicfit/serving.h; the sources are
 * docs/reference/inference-serving.md 4, 5). A disaggregated plan
 * needs a back end even when the model fits one server: the KV cache of
 * every prompt crosses servers, over RDMA (NIXL, Mooncake's transfer
 * engine), GPU memory to GPU memory.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/kv.h"
#include "nicfit/pcie.h"
#include "nicfit/serving.h"
#include "nicfit/units.h"
#include "core/num_int.h"
#include "plan/plan_int.h"

static int is_set(const char *v)
{
	return v && strcasecmp(v, "false") && strcmp(v, "0");
}

/* An option of disaggregated serving given without --disaggregated, or the reverse. */
static int serving_only(struct nicfit_reader *r, const char *const *keys)
{
	int i;

	for (i = 0; keys[i]; i++)
		if (nicfit_spec_get(r->s, keys[i]))
			return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
							     nicfit_reader_opt(r, keys[i]), 0, 0,
							     "a setting of disaggregated serving: give "
							     "--disaggregated too"));
	return 0;
}

static int read_ckpt(struct nicfit_reader *r, struct nicfit_plan_input *in)
{
	static const char *const keys[] = { "checkpoint_every", "checkpoint_stall",
					    "checkpoint_state", NULL };
	const char *v;
	double min;
	int rc, i;

	nicfit_ckpt_params_default(&in->ckpt);
	if (in->workload != NICFIT_WL_TRAINING && in->workload != NICFIT_WL_FINETUNING) {
		for (i = 0; keys[i]; i++)
			if (nicfit_spec_get(r->s, keys[i]))
				return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
							     nicfit_reader_opt(r, keys[i]), 0, 0,
							     "checkpoints are written by training: give "
							     "--workload training or fine-tuning"));
		return 0;
	}
	if ((rc = nicfit_reader_double(r, "checkpoint_every", 0, 0.1, 1e6, &min)) ||
	    (rc = nicfit_reader_double(r, "checkpoint_stall", 0, 0.01, 1e8, &in->ckpt_stall_s)))
		return rc;
	in->ckpt_every_s = min * 60;
	if (in->ckpt_every_s > 0 && in->ckpt_stall_s > in->ckpt_every_s)
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						     nicfit_reader_opt(r, "checkpoint_stall"), 0, 0,
						     "a stall of %g s is longer than the %g minutes between "
						     "saves", in->ckpt_stall_s, min));
	v = nicfit_reader_get(r, "checkpoint_state");
	in->ckpt_state = NICFIT_CKPT_FULL;
	if (v && (rc = nicfit_reader_fail(r, nicfit_ckpt_state_parse(v, &in->ckpt_state, r->err))))
		return rc;
	return 0;
}

/*
 * --disaggregated and its settings (--prompt-tokens, --output-tokens,
 * --requests-per-s, --ttft-ms, --tpot-ms, --prefill-servers,
 * --kv-offload), and the checkpoint's (--checkpoint-every minutes,
 * --checkpoint-stall seconds, --checkpoint-state).
 */
int nicfit__plan_read_serving(struct nicfit_reader *r, struct nicfit_plan_input *in)
{
	static const char *const keys[] = { "prompt_tokens", "output_tokens", "requests_per_s",
					    "ttft_ms", "tpot_ms", "prefill_servers", "kv_offload",
					    NULL };
	const char *v;
	double ms;
	long l;
	int rc;

	nicfit_serving_params_default(&in->serving);
	if ((rc = read_ckpt(r, in)))
		return rc;
	in->disagg = is_set(nicfit_spec_get(r->s, "disaggregated"));
	if (!in->disagg)
		return serving_only(r, keys);
	if (in->workload != NICFIT_WL_INFERENCE && in->workload != NICFIT_WL_MULTINODE_INFERENCE)
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						     nicfit_reader_opt(r, "disaggregated"), 0, 0,
						     "disaggregated serving is inference: give --workload "
						     "inference or multi-node-inference"));
	if (in->servers < 2)
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						     nicfit_reader_opt(r, "disaggregated"), 0, 0,
						     "disaggregated serving puts prefill and decode on "
						     "different servers: give --servers 2 or more"));
	if ((rc = nicfit_reader_double(r, "prompt_tokens", (double)(in->context > 0 ? in->context : 4096),
				       1, 1e8, &in->prompt_tokens)) ||
	    (rc = nicfit_reader_double(r, "output_tokens", 1024, 1, 1e8, &in->output_tokens)) ||
	    (rc = nicfit_reader_double(r, "requests_per_s", 0, 0.001, 1e7, &in->requests_per_s)) ||
	    (rc = nicfit_reader_double(r, "ttft_ms", 2000, 1, 1e7, &ms)))
		return rc;
	in->ttft_s = ms / 1000;
	if ((rc = nicfit_reader_double(r, "tpot_ms", 200, 0.1, 1e6, &ms)))
		return rc;
	in->tpot_s = ms / 1000;
	/* the default prompt (the context) leaves room for the answer in the model's context */
	if (!nicfit_spec_get(r->s, "prompt_tokens") && in->model && in->model->context_max &&
	    in->prompt_tokens + in->output_tokens > (double)in->model->context_max &&
	    in->model->context_max > in->output_tokens)
		in->prompt_tokens = (double)in->model->context_max - in->output_tokens;
	if (in->model && in->model->context_max &&
	    in->prompt_tokens + in->output_tokens > (double)in->model->context_max)
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						     nicfit_reader_opt(r, nicfit_spec_get(r->s,
							"prompt_tokens") ? "prompt_tokens" : "output_tokens"),
						     0, 0, "%.0f + %.0f tokens is longer than %s's context "
						     "of %ld", in->prompt_tokens, in->output_tokens,
						     in->model->e.name, in->model->context_max));
	if ((rc = nicfit_reader_long(r, "prefill_servers", 0, 1, in->servers - 1, &l)))
		return rc;
	in->prefill_servers = (int)l;
	v = nicfit_reader_get(r, "kv_offload");
	in->kv_offload = NICFIT_OFFLOAD_NONE;
	if (v && (rc = nicfit_reader_fail(r, nicfit_kv_offload_parse(v, &in->kv_offload, r->err))))
		return rc;
	return 0;
}

/* R2 for a disaggregated plan: the back end carries every prompt's KV cache. Returns 1 when it applied. */
int nicfit__plan_serving_backend(struct nicfit_plan *p)
{
	if (!p->in.disagg)
		return 0;
	p->backend_needed = 1;
	plan_decide(&p->decisions, "R2", 1,
		    "Disaggregated serving: prefill and decode run on different servers, and every "
		    "prompt's KV cache moves from a prefill GPU to a decode GPU over RDMA (NIXL, "
		    "Mooncake's transfer engine): back-end RDMA fabric needed%s.",
		    p->fits_one_server ? ", though the model fits one server" : "");
	return 1;
}

/* One server's GPU-to-host-memory rate, GB/s: the assumption, else the GPUs' PCIe links. */
static double host_gbs(const struct nicfit_plan *p, int gpus)
{
	const struct nicfit_gpu *g = p->in.gpu;
	struct nicfit_pcie_result r;

	if (p->in.serving.host_link_gbs > 0)
		return p->in.serving.host_link_gbs * gpus;
	if (!g || g->pcie_gen < 1 || g->pcie_width < 1 ||
	    nicfit_pcie_calc(g->pcie_gen, g->pcie_width, &p->in.pcie, &r, NULL))
		return 0;
	return r.effective_gbps / 8 * gpus;
}

/* The request to nicfit_serving_calc from the plan. */
static int serving_ask(struct nicfit_plan *p, struct nicfit_serving_ask *a)
{
	const struct nicfit_plan_input *in = &p->in;
	int u = p->servers_needed > 0 ? p->servers_needed : 1;
	int gpn = p->gpus_placed > 0 ? p->gpus_placed : in->gpus_per_server;
	const struct nicfit_model *m = in->model;

	memset(a, 0, sizeof(*a));
	if (!in->gpu || gpn < 1 || !p->fit_known)
		return -1;
	nicfit_step_job_fill(&a->job, m, in->params, in->gpu, in->precision, 0, &in->llm);
	a->job.nodes = u;
	a->job.gpus_per_node = gpn;
	a->job.tp = gpn;
	a->job.pp = u;
	if (m && m->experts > 1 && m->experts % (u * gpn) == 0)
		a->job.ep = u * gpn;
	a->prompt_tokens = in->prompt_tokens;
	a->output_tokens = in->output_tokens;
	a->rps = in->requests_per_s;
	a->ttft_s = in->ttft_s;
	a->tpot_s = in->tpot_s;
	a->servers = in->servers;
	a->prefill_servers = in->prefill_servers;
	a->kv_bytes_per_token = m ? nicfit_kv_bytes_per_token(&m->arch, &in->llm) : 0;
	a->kv_room_gb = p->fit.capacity_gb * u - p->fit.weights_gb;
	a->rails_gbps = p->be_node_gbps;
	a->rails = p->rails > 0 ? p->rails : p->be_cards;
	a->offload = in->kv_offload;
	p->serving_host_gbs = host_gbs(p, gpn);
	a->host_gbs = p->serving_host_gbs;
	a->storage_gbps = p->st_node_gbps;
	return 0;
}

/* R9's account of the pools and of what crosses the network. */
static void serving_describe(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_serving *s = &p->serving;
	char b1[32], b2[32], b3[32];
	int left;

	plan_decide(&p->decisions, "R9", 1,
		    "Prefill: one prompt of %.0f tokens on one instance (%d server%s) takes %s "
		    "(2 x active parameters x tokens / (GPUs x peak x MFU): compute bound), %.2f "
		    "requests/s an instance.", in->prompt_tokens, s->instance_nodes,
		    s->instance_nodes == 1 ? "" : "s", nicfit_fmt_seconds(s->prefill_s, b1, sizeof(b1)),
		    s->prefill_rps);
	plan_decide(&p->decisions, "R9", 1,
		    "Decode: %.0f sequences an instance (%s sets it: %.0f within TPOT %s, %.0f in the "
		    "%.1f GB of memory the weights leave, %.0f + %.0f tokens each), a %s step (the "
		    "weights and the mean KV cache read once a step, or the compute), %.2f requests/s "
		    "an instance.", s->decode_batch, s->batch_by, s->batch_tpot,
		    nicfit_fmt_seconds(in->tpot_s, b1, sizeof(b1)), s->batch_mem,
		    p->fit.capacity_gb * s->instance_nodes - p->fit.weights_gb, in->prompt_tokens,
		    in->output_tokens, nicfit_fmt_seconds(s->decode_step_s, b2, sizeof(b2)),
		    s->decode_rps);
	left = in->servers - s->prefill_servers - s->decode_servers;
	plan_decide(&p->decisions, "R9", 1,
		    "Pools: %d prefill + %d decode server%s (%s), %.2f requests/s at %.0f%% busy "
		    "(--assume pool_load=)%s%.0d%s.", s->prefill_servers, s->decode_servers,
		    s->decode_servers == 1 ? "" : "s",
		    in->prefill_servers ? "as asked" : in->requests_per_s > 0 && in->servers == 0 ?
		    "for the target" : "the split of the servers that serves the most", s->rps,
		    in->serving.pool_load * 100, left > 0 ? "; pools come in whole instances, so " : "",
		    left > 0 ? left : 0, left > 0 ? " of the servers asked are left over" : "");
	plan_decide(&p->decisions, "R9", 1,
		    "KV cache: %.0f B a token x %.0f prompt tokens = %s a request, %.1f Gb/s out of "
		    "each prefill server and %.1f Gb/s into each decode server over the back-end "
		    "rails (GPUDirect RDMA)%s%s%s.", s->kv_bytes_per_token, in->prompt_tokens,
		    nicfit_fmt_bytes(s->kv_bytes_per_request, b1, sizeof(b1)), s->kv_prefill_node_gbps,
		    s->kv_decode_node_gbps, s->kv_request_s > 0 ? "; one request's cache crosses a "
		    "server's rails in " : "", s->kv_request_s > 0 ?
		    nicfit_fmt_seconds(s->kv_request_s, b2, sizeof(b2)) : "",
		    s->kv_request_s > 0 ? ", and TTFT is the prefill plus that" : "");
	if (s->ep_prompt_bytes > 0)
		plan_decide(&p->decisions, "R9", 1,
			    "Expert parallel: %s of dispatch (dispatch_bytes) and combine "
			    "(combine_bytes) per prompt on a prefill instance, %s of it leaving each "
			    "server over RDMA%s.", nicfit_fmt_bytes(s->ep_prompt_bytes, b1, sizeof(b1)),
			    nicfit_fmt_bytes(s->ep_prompt_net_bytes, b2, sizeof(b2)),
			    s->instance_nodes == 1 ? " (the instance is one server: the all-to-all "
			    "stays on NVLink)" : "");
	if (in->kv_offload != NICFIT_OFFLOAD_NONE)
		plan_decide(&p->decisions, "R9", 1,
			    "KV offload to %s: %.0f%% of prompt tokens found there (--assume "
			    "kv_hit_rate=), %s a request read back instead of prefilled (the prefill "
			    "computes the rest), %.1f Gb/s a "
			    "prefill server over %s (%s/s).",
			    in->kv_offload == NICFIT_OFFLOAD_CPU ? "host memory" : "storage",
			    in->serving.kv_hit_rate * 100,
			    nicfit_fmt_bytes(s->offload_bytes_per_request, b1, sizeof(b1)),
			    s->offload_node_gbps, in->kv_offload == NICFIT_OFFLOAD_CPU ?
			    "the GPUs' links to host memory" : "the storage NICs (GPUDirect Storage or "
			    "NVMe-oF)", s->offload_link_gbps > 0 ?
			    nicfit_fmt_bytes(s->offload_link_gbps / 8 * 1e9, b3, sizeof(b3)) :
			    "rate unknown");
}

/* The findings: a target missed, a KV transfer or an offload the links do not carry. */
static void serving_find(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_serving *s = &p->serving;
	char b1[32], b2[32];

	if (in->requests_per_s > 0 && s->rps + 1e-9 < in->requests_per_s)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_SERVING_TARGET_UNMET,
				  "plan with --servers N for the pools the target needs",
				  "The %d servers serve %.3g requests/s of the %.3g asked: the target "
				  "needs %.0f (prefill %.3g and decode %.3g requests/s an instance at "
				  "%.0f%% busy).", in->servers, s->rps, in->requests_per_s,
				  s->need_servers, s->prefill_rps, s->decode_rps,
				  in->serving.pool_load * 100);
	if (!s->kv_fits)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_SERVING_TARGET_UNMET,
				  "give an instance more GPUs, a lower precision, or shorter requests "
				  "(--prompt-tokens, --output-tokens)",
				  "One sequence's KV cache (%.0f + %.0f tokens, %s) does not fit the "
				  "memory the weights leave on a decode instance: it cannot decode.",
				  in->prompt_tokens, in->output_tokens,
				  nicfit_fmt_bytes(s->kv_bytes_per_token * (in->prompt_tokens +
						   in->output_tokens), b1, sizeof(b1)));
	if (!s->ttft_ok || !s->tpot_ok)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_SERVING_TARGET_UNMET,
				  "give an instance more GPUs (a larger server, or a lower precision), "
				  "or relax the target (--ttft-ms, --tpot-ms)",
				  "%s%s%s", !s->ttft_ok ? "A prompt's first token takes " : "",
				  !s->ttft_ok ? nicfit_fmt_seconds(s->ttft_s, b1, sizeof(b1)) : "",
				  !s->tpot_ok ? (!s->ttft_ok ? ", over its target; and a decode step of "
				  "one sequence is over the TPOT target." : "A decode step of one "
				  "sequence is over the TPOT target.") : ", over its target.");
	if (s->kv_decode_share > 1 || (s->kv_request_s > 0 && s->kv_request_s > in->ttft_s / 10))
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_KV_TRANSFER_SLOW,
				  "add back-end rails or faster cards (--backend-cards, --backend-nic)",
				  "The KV cache needs %.1f Gb/s into each decode server, %.0f%% of its "
				  "rails, and one request's cache takes %s of the %s TTFT target.",
				  s->kv_decode_node_gbps, s->kv_decode_share * 100,
				  nicfit_fmt_seconds(s->kv_request_s, b1, sizeof(b1)),
				  nicfit_fmt_seconds(in->ttft_s, b2, sizeof(b2)));
	if (in->kv_offload != NICFIT_OFFLOAD_NONE && (s->offload_share > 1 || !(s->offload_link_gbps > 0))) {
		char ports[120];

		ports[0] = '\0';
		if (in->kv_offload == NICFIT_OFFLOAD_STORAGE && p->st_port_gbps > 0)
			plan_fmt(ports, sizeof(ports), ": %.0f storage ports of %.0f G a prefill server "
				 "at 90%% goodput carry it", ceil(s->offload_node_gbps /
							       (p->st_port_gbps * 0.9)), p->st_port_gbps);
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_KV_OFFLOAD_SLOW,
				  in->kv_offload == NICFIT_OFFLOAD_CPU ? "set the link's rate with "
				  "--assume host_link_gbs=, or offload less" : "add storage NICs "
				  "(--storage-nics) or faster ones",
				  "Reading the offloaded KV cache back needs %.1f Gb/s a prefill server; "
				  "%s%s.", s->offload_node_gbps, s->offload_link_gbps > 0 ?
				  "more than the link it is read over carries" :
				  "the link it is read over is not known", ports);
	}
}

/* R9, disaggregated serving (nicfit/serving.h), once the back end and storage NICs are chosen. */
void nicfit__plan_serving(struct nicfit_plan *p)
{
	struct nicfit_serving_ask a;
	struct nicfit_error err;

	if (!p->in.disagg)
		return;
	nicfit_error_clear(&err);
	if (serving_ask(p, &a) ||
	    nicfit_serving_calc(&a, &p->in.step, &p->in.serving, &p->serving, &err)) {
		plan_decide(&p->decisions, "R9", 0,
			    "Disaggregated serving: the pools are not worked out (%s).",
			    err.msg[0] ? err.msg : "the model's size or the GPU is not known");
		return;
	}
	p->serving_known = 1;
	serving_describe(p);
	serving_find(p);
}

/* The verdict's sentence on the pools. */
void nicfit__plan_serving_verdict(struct nicfit_plan *p)
{
	const struct nicfit_serving *s = &p->serving;
	size_t n = strlen(p->verdict);
	char b1[32], b2[32];

	if (!p->serving_known)
		return;
	plan_fmt(p->verdict + n, sizeof(p->verdict) - n,
		 " Disaggregated: %d prefill + %d decode server%s serve %.2f requests/s; each "
		 "request's KV cache (%s) crosses the back-end rails%s%s, %.1f Gb/s a prefill server.",
		 s->prefill_servers, s->decode_servers, s->decode_servers == 1 ? "" : "s", s->rps,
		 nicfit_fmt_bytes(s->kv_bytes_per_request, b1, sizeof(b1)),
		 s->kv_request_s > 0 ? " in " : "",
		 s->kv_request_s > 0 ? nicfit_fmt_seconds(s->kv_request_s, b2, sizeof(b2)) : "",
		 s->kv_prefill_node_gbps);
}

/* The text line under the plan's summary. */
void nicfit__plan_serving_text(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_serving *s = &p->serving;
	char b1[32], b2[32], b3[32];

	if (!p->serving_known)
		return;
	nicfit_emit_printf(e, "Serving    %d prefill + %d decode server%s: %.2f requests/s; TTFT %s, "
			      "decode step %s at %.0f sequences an instance\n",
			   s->prefill_servers, s->decode_servers, s->decode_servers == 1 ? "" : "s",
			   s->rps, nicfit_fmt_seconds(s->ttft_s, b1, sizeof(b1)),
			   nicfit_fmt_seconds(s->decode_step_s, b2, sizeof(b2)), s->decode_batch);
	nicfit_emit_printf(e, "KV cache   %s a request, %.1f Gb/s out of each prefill server, %.1f "
			      "Gb/s into each decode server (%.1f%% of its rails)\n",
			   nicfit_fmt_bytes(s->kv_bytes_per_request, b3, sizeof(b3)),
			   s->kv_prefill_node_gbps, s->kv_decode_node_gbps, s->kv_decode_share * 100);
}

/* plan JSON "serving" (docs/json-plan.md): null unless --disaggregated was worked out. */
void nicfit__plan_serving_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_serving *s = &p->serving;

	if (!p->serving_known) {
		nicfit_emit_null(e, "serving");
		return;
	}
	nicfit_emit_begin_object(e, "serving");
	nicfit_emit_number(e, "prompt_tokens", in->prompt_tokens);
	nicfit_emit_number(e, "output_tokens", in->output_tokens);
	if (in->requests_per_s > 0)
		nicfit_emit_number(e, "target_requests_per_s", in->requests_per_s);
	else
		nicfit_emit_null(e, "target_requests_per_s");
	nicfit_emit_number(e, "ttft_target_s", in->ttft_s);
	nicfit_emit_number(e, "tpot_target_s", in->tpot_s);
	nicfit_emit_int(e, "instance_servers", s->instance_nodes);
	nicfit_emit_int(e, "instance_gpus", s->instance_nodes * (p->gpus_placed > 0 ? p->gpus_placed :
								     in->gpus_per_server));
	nicfit_emit_int(e, "expert_parallel", s->expert_parallel);
	nicfit_emit_int(e, "prefill_servers", s->prefill_servers);
	nicfit_emit_int(e, "decode_servers", s->decode_servers);
	nicfit_emit_number(e, "requests_per_s", s->rps);
	nicfit_emit_number(e, "servers_for_target", s->need_servers);
	nicfit_emit_number(e, "prefill_s", s->prefill_s);
	nicfit_emit_number(e, "ttft_s", s->ttft_s);
	nicfit_emit_number(e, "decode_batch", s->decode_batch);
	nicfit_emit_string(e, "decode_batch_by", s->batch_by);
	nicfit_emit_number(e, "decode_step_s", s->decode_step_s);
	nicfit_emit_bool(e, "ttft_met", s->ttft_ok);
	nicfit_emit_bool(e, "tpot_met", s->tpot_ok);
	nicfit_emit_begin_object(e, "kv_transfer");
	nicfit_emit_number(e, "bytes_per_token", s->kv_bytes_per_token);
	nicfit_emit_number(e, "bytes_per_request", s->kv_bytes_per_request);
	nicfit_emit_number(e, "prefill_server_gbps", s->kv_prefill_node_gbps);
	nicfit_emit_number(e, "decode_server_gbps", s->kv_decode_node_gbps);
	nicfit_emit_string(e, "over", "backend");
	nicfit_emit_number(e, "request_s", s->kv_request_s);
	nicfit_emit_number(e, "decode_rail_share", s->kv_decode_share);
	nicfit_emit_end_object(e);
	nicfit_emit_number(e, "ep_prompt_bytes", s->ep_prompt_bytes);
	nicfit_emit_number(e, "ep_prompt_network_bytes", s->ep_prompt_net_bytes);
	nicfit_emit_number(e, "ep_decode_network_bytes", s->ep_decode_net_bytes);
	nicfit_emit_string(e, "kv_offload", nicfit_kv_offload_name(in->kv_offload));
	if (in->kv_offload != NICFIT_OFFLOAD_NONE) {
		nicfit_emit_begin_object(e, "offload");
		nicfit_emit_number(e, "bytes_per_request", s->offload_bytes_per_request);
		nicfit_emit_number(e, "prefill_server_gbps", s->offload_node_gbps);
		nicfit_emit_number(e, "link_gbps", s->offload_link_gbps);
		nicfit_emit_number(e, "link_share", s->offload_share);
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "offload");
	}
	nicfit_param_emit(e, "assumptions", nicfit_serving_param_table, nicfit_serving_param_count,
			  &in->serving);
	nicfit_emit_end_object(e);
}
