/*
 * calc_serving.c - the pools of `calc step --workload prefill
 * --disaggregated`: what one server of a prefill pool and one of a decode
 * pool serve, with the step's job as each pool's instance, and with
 * --requests-per-s the servers each pool needs for the target. The
 * numbers are nicfit_serving_calc()'s (nicfit/serving.h), the model plan
 * --disaggregated sizes its pools with, so the two agree.
 */
#include <stdio.h>
#include <string.h>

#include "calc/calc_int.h"
#include "nicfit/kv.h"
#include "nicfit/serving.h"
#include "nicfit/units.h"

/*
 * Read --output-tokens, --ttft-ms, --tpot-ms and --requests-per-s into a
 * (before the calculator checks for settings it does not know); without
 * --disaggregated they are a usage error.
 */
int nicfit__calc_step_pools_read(struct req *r, int disagg, struct nicfit_serving_ask *a)
{
	static const char *const keys[] = { "output_tokens", "requests_per_s", "ttft_ms",
					    "tpot_ms", NULL };
	double ms;
	int rc, i;

	memset(a, 0, sizeof(*a));
	for (i = 0; !disagg && keys[i]; i++)
		if (nicfit_spec_get(r->s, keys[i]))
			return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
					nicfit__calc_optname(r, keys[i]), 0, 0,
					"a setting of the disaggregated pools: give --disaggregated too"));
	if (!disagg)
		return 0;
	if ((rc = nicfit__calc_get_double(r, "output_tokens", 1024, 1, 1e8, &a->output_tokens)) ||
	    (rc = nicfit__calc_get_double(r, "requests_per_s", 0, 0.001, 1e7, &a->rps)) ||
	    (rc = nicfit__calc_get_double(r, "ttft_ms", 2000, 1, 1e7, &ms)))
		return rc;
	a->ttft_s = ms / 1000;
	if ((rc = nicfit__calc_get_double(r, "tpot_ms", 200, 0.1, 1e6, &ms)))
		return rc;
	a->tpot_s = ms / 1000;
	return 0;
}

/*
 * Size the pools of instances of job j for prompts of prompt tokens, as
 * a asks; rail_gbps is one node's goodput for the KV cache and for an
 * instance's own traffic between nodes (0: no link given), latency_us one
 * network step's latency. Returns 0 with *known set when worked out; *known 0 (and 0)
 * when the weights leave no memory for a KV cache on the instance.
 */
int nicfit__calc_step_pools(struct req *r, const struct nicfit_step_job *j,
			    const struct nicfit_llm_params *lp, const struct nicfit_step_params *sp,
			    const struct nicfit_serving_params *svp, double prompt, double rail_gbps,
			    double latency_us, struct nicfit_serving *out, struct nicfit_serving_ask *a,
			    int *known)
{
	int rc;

	*known = 0;
	a->job = *j;
	a->prompt_tokens = prompt;
	/* without a target: one instance in each pool, to say what a server of each does */
	a->servers = a->rps > 0 ? 0 : 2 * j->nodes;
	a->kv_bytes_per_token = nicfit_kv_bytes_per_token(&j->arch, lp);
	a->kv_room_gb = j->gpu_usable_gb * j->nodes * j->gpus_per_node - j->weights_gb;
	a->rails_gbps = rail_gbps;
	/* an instance over several nodes sends its own traffic over the same NICs */
	a->be_gbps = rail_gbps;
	a->latency_us = latency_us;
	if (!(a->kv_room_gb > 0) || !(j->mem_gbs > 0))
		return 0;
	if ((rc = nicfit__calc_fix(r, nicfit_serving_calc(a, sp, svp, out, r->err))))
		return rc;
	*known = 1;
	return 0;
}

/* The pools' JSON object ("pools", null when not worked out) and text lines; nothing without --disaggregated. */
void nicfit__calc_step_pools_emit(struct nicfit_emit *e, const struct nicfit_serving_ask *a,
				  const struct nicfit_serving *s, double pool_load, int known)
{
	const struct nicfit_serving_pool *pp = &s->pool[0], *dp = &s->pool[1];
	char b1[32], b2[32];

	if (!(a->prompt_tokens > 0))
		return; /* not a disaggregated step: no pools */
	if (!known) {
		nicfit_emit_null(e, "pools");
		nicfit_emit_printf(e, "  pools         not worked out: the weights leave the instance "
				      "no memory for a KV cache, or the GPU's memory bandwidth is "
				      "unknown\n");
		return;
	}
	nicfit_emit_begin_object(e, "pools");
	nicfit_emit_int(e, "instance_gpus", pp->gpus);
	nicfit_emit_int(e, "instance_nodes", pp->nodes);
	nicfit_emit_number(e, "output_tokens", a->output_tokens);
	nicfit_emit_number(e, "ttft_target_s", a->ttft_s);
	nicfit_emit_number(e, "tpot_target_s", a->tpot_s);
	nicfit_emit_number(e, "prefill_s", s->prefill_s);
	nicfit_emit_number(e, "prefill_instance_requests_per_s", pp->rps);
	nicfit_emit_number(e, "prefill_server_requests_per_s", pp->server_rps);
	nicfit_emit_number(e, "decode_batch", s->decode_batch);
	nicfit_emit_string(e, "decode_batch_by", s->batch_by);
	nicfit_emit_number(e, "decode_step_s", s->decode_step_s);
	nicfit_emit_number(e, "decode_instance_requests_per_s", dp->rps);
	nicfit_emit_number(e, "decode_server_requests_per_s", dp->server_rps);
	nicfit_emit_bool(e, "tpot_met", s->tpot_ok);
	if (a->rps > 0) {
		nicfit_emit_number(e, "target_requests_per_s", a->rps);
		nicfit_emit_int(e, "prefill_servers", s->prefill_servers);
		nicfit_emit_int(e, "decode_servers", s->decode_servers);
		nicfit_emit_number(e, "requests_per_s", s->rps);
	} else {
		nicfit_emit_null(e, "target_requests_per_s");
		nicfit_emit_null(e, "prefill_servers");
		nicfit_emit_null(e, "decode_servers");
		nicfit_emit_null(e, "requests_per_s");
	}
	nicfit_emit_end_object(e);
	nicfit_emit_printf(e, "  pools         an instance of each is the step's %d GPU%s on %d node%s; "
			      "%.0f output tokens, TPOT %s\n", pp->gpus, pp->gpus == 1 ? "" : "s",
			   pp->nodes, pp->nodes == 1 ? "" : "s", a->output_tokens,
			   nicfit_fmt_seconds(a->tpot_s, b1, sizeof(b1)));
	nicfit_emit_printf(e, "                prefill: one prompt in %s, %.2f requests/s an instance, "
			      "%.2f a server\n", nicfit_fmt_seconds(s->prefill_s, b1, sizeof(b1)),
			   pp->rps, pp->server_rps);
	nicfit_emit_printf(e, "                decode: %.0f sequences (%s sets it) in a %s step, %.2f "
			      "requests/s an instance, %.2f a server\n", s->decode_batch, s->batch_by,
			   nicfit_fmt_seconds(s->decode_step_s, b2, sizeof(b2)), dp->rps,
			   dp->server_rps);
	if (a->rps > 0)
		nicfit_emit_printf(e, "                for %g requests/s at %.0f%% busy: %d prefill + %d "
				      "decode server%s (plan --disaggregated sizes the same)\n", a->rps,
				   pool_load * 100, s->prefill_servers, s->decode_servers,
				   s->decode_servers == 1 ? "" : "s");
}
