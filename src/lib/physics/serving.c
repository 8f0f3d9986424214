/*
 * serving.c - disaggregated prefill and decode pools, the KV cache
 * between them and its offload (see nicfit/serving.h; sources in
 * docs/reference/inference-serving.md 4, 5).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "nicfit/serving.h"

#define P(f) offsetof(struct nicfit_serving_params, f)

const struct nicfit_param nicfit_serving_param_table[] = {
	{ "pool_load", P(pool_load), 0.8, 0.1, 1.0, "",
	  "share of a prefill or decode pool's throughput planned busy (the rest absorbs bursts "
	  "and keeps queues short)",
	  "nicfit's planning margin; NVIDIA Dynamo's planner scales pools on measured load" },
	{ "kv_hit_rate", P(kv_hit_rate), 0.5, 0, 1.0, "",
	  "share of prompt tokens whose KV cache is found in the offload tier (shared system "
	  "prompts, multi-turn history) and read back instead of prefilled",
	  "an assumption to set from the serving stack's own hit-rate metric (LMCache, Dynamo KV "
	  "block manager, Mooncake store)" },
	{ "host_link_gbs", P(host_link_gbs), 0, 0, 10000, "GB/s",
	  "one GPU's link to host memory, each way (0: its PCIe link as calc pcie works it out; "
	  "set the NVLink-C2C rate for a Grace superchip)",
	  "the GPU's PCIe generation and width in the catalog" },
};

const size_t nicfit_serving_param_count =
	sizeof(nicfit_serving_param_table) / sizeof(nicfit_serving_param_table[0]);

void nicfit_serving_params_default(struct nicfit_serving_params *p)
{
	nicfit_param_defaults(nicfit_serving_param_table, nicfit_serving_param_count, p);
}

int nicfit_kv_offload_parse(const char *s, enum nicfit_kv_offload *out, struct nicfit_error *err)
{
	if (!strcasecmp(s, "none"))
		return *out = NICFIT_OFFLOAD_NONE, 0;
	if (!strcasecmp(s, "cpu") || !strcasecmp(s, "host"))
		return *out = NICFIT_OFFLOAD_CPU, 0;
	if (!strcasecmp(s, "storage"))
		return *out = NICFIT_OFFLOAD_STORAGE, 0;
	return nicfit_error_set(err, NICFIT_E_USAGE, "'%.32s': use none, cpu or storage", s);
}

const char *nicfit_kv_offload_name(enum nicfit_kv_offload o)
{
	return o == NICFIT_OFFLOAD_CPU ? "cpu" : o == NICFIT_OFFLOAD_STORAGE ? "storage" : "none";
}

static int check(const struct nicfit_serving_ask *a, struct nicfit_error *err)
{
	if (!(a->prompt_tokens >= 1) || a->prompt_tokens > 1e8 || !(a->output_tokens >= 1) ||
	    a->output_tokens > 1e8)
		return nicfit_error_set(err, NICFIT_E_USAGE, "prompt or output tokens out of range");
	if (a->rps < 0 || a->rps > 1e7 || !(a->ttft_s > 0) || !(a->tpot_s > 0))
		return nicfit_error_set(err, NICFIT_E_USAGE, "serving target out of range");
	if (!(a->kv_bytes_per_token > 0))
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"the model's layer and KV head counts are unknown: its KV "
					"cache cannot be sized");
	if (a->servers < 0 || a->servers > 100000 || a->prefill_servers < 0 ||
	    (a->servers > 0 && a->prefill_servers >= a->servers))
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"the prefill pool must leave servers for the decode pool");
	if (a->servers == 0 && !(a->rps > 0))
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"give the servers or a target in requests per second");
	return 0;
}

/* One instance's prefill of a prompt, and the expert-parallel traffic it sends. */
static int prefill(const struct nicfit_serving_ask *a, const struct nicfit_step_params *sp,
		   const struct nicfit_serving_params *p, struct nicfit_serving *s,
		   struct nicfit_error *err)
{
	struct nicfit_step_job j = a->job;
	struct nicfit_step st;
	int rc, i, ep = j.ep > 1 ? j.ep : 1;
	double k = j.experts_active > 0 ? j.experts_active : 1;
	double moe = j.moe_layers > 0 ? j.moe_layers : j.arch.layers;

	j.phase = NICFIT_PHASE_PREFILL;
	/* the tokens found in the offload tier are read back, not prefilled */
	j.tokens = a->prompt_tokens * (a->offload != NICFIT_OFFLOAD_NONE ? 1 - p->kv_hit_rate : 1);
	if (j.tokens < 1)
		j.tokens = 1;
	j.kv_out_bytes = 0;
	if ((rc = nicfit_step_calc(&j, sp, &st, err)))
		return rc;
	s->prefill_s = st.compute_s;
	s->prefill_rps = 1 / st.compute_s;
	/* dispatch and combine of every token to its k experts, (ep-1)/ep of them on other GPUs */
	if (j.experts > 1 && ep > 1)
		s->ep_prompt_bytes = moe * a->prompt_tokens * j.arch.hidden * k *
				     (sp->dispatch_bytes + sp->combine_bytes) * (ep - 1) / ep;
	for (i = 0; i < st.nterms; i++)
		if (!strncmp(st.terms[i].name, "expert parallel", 15))
			s->ep_prompt_net_bytes = st.terms[i].bytes;
	return 0;
}

/* The decode step of b sequences on one instance (see nicfit/serving.h). */
static double decode_step(const struct nicfit_serving_ask *a, const struct nicfit_step_params *sp,
			  double b)
{
	const struct nicfit_step_job *j = &a->job;
	double gpus = (double)j->nodes * j->gpus_per_node;
	double active = j->arch.active_params > 0 ? j->arch.active_params : j->arch.params;
	double flops = 2 * active * b / (gpus * j->tflops * 1e12 * sp->mfu);
	double read = (j->weights_gb * 1e9 + b * a->kv_bytes_per_token *
		       (a->prompt_tokens + a->output_tokens / 2)) / (gpus * j->mem_gbs * 1e9);

	return j->mem_gbs > 0 && read > flops ? read : flops;
}

/* b, the sequences one decode instance carries: within TPOT and the memory left. */
static int decode(const struct nicfit_serving_ask *a, const struct nicfit_step_params *sp,
		  struct nicfit_serving *s, struct nicfit_error *err)
{
	const struct nicfit_step_job *j = &a->job;
	double gpus = (double)j->nodes * j->gpus_per_node, b;
	double active = j->arch.active_params > 0 ? j->arch.active_params : j->arch.params;
	double per_seq = a->kv_bytes_per_token * (a->prompt_tokens + a->output_tokens);
	double tb = a->tpot_s * gpus * j->tflops * 1e12 * sp->mfu / (2 * active);

	if (j->mem_gbs > 0) {
		double room = a->tpot_s * gpus * j->mem_gbs * 1e9 - j->weights_gb * 1e9;
		double mb = room / (a->kv_bytes_per_token *
				    (a->prompt_tokens + a->output_tokens / 2));

		if (mb < tb)
			tb = mb;
	}
	s->batch_tpot = floor(tb);
	s->batch_mem = floor(a->kv_room_gb * 1e9 / per_seq);
	b = s->batch_tpot < s->batch_mem ? s->batch_tpot : s->batch_mem;
	s->batch_by = s->batch_tpot < s->batch_mem ? "TPOT" : "memory";
	s->tpot_ok = s->batch_tpot >= 1;
	s->kv_fits = s->batch_mem >= 1;
	if (b < 1)
		b = 1;
	s->decode_batch = b;
	s->decode_step_s = decode_step(a, sp, b);
	s->decode_rps = b / (s->decode_step_s * a->output_tokens);
	if (j->experts > 1 && j->ep > j->gpus_per_node) {
		struct nicfit_step_job d = *j;
		struct nicfit_step st;
		int i;

		d.phase = NICFIT_PHASE_DECODE;
		d.tokens = b;
		d.kv_out_bytes = 0;
		if (nicfit_step_calc(&d, sp, &st, err))
			return err ? err->code : NICFIT_E_USAGE;
		for (i = 0; i < st.nterms; i++)
			if (!strncmp(st.terms[i].name, "expert parallel", 15))
				s->ep_decode_net_bytes = st.terms[i].bytes;
	}
	return 0;
}

/* The pools, in instances: for the target, or the split of the servers that serves most. */
static void pools(const struct nicfit_serving_ask *a, const struct nicfit_serving_params *p,
		  struct nicfit_serving *s)
{
	int u = s->instance_nodes, units = a->servers / u, best = 1, i;
	double rp = s->prefill_rps * p->pool_load, rd = s->decode_rps * p->pool_load, top = -1;

	if (a->rps > 0) {
		/* counts in doubles: a target far beyond one instance must not overflow an int */
		double np = ceil(a->rps / rp - 1e-9), nd = ceil(a->rps / rd - 1e-9);

		s->need_servers = (np + nd) * u;
		if (a->servers == 0) {
			s->prefill_servers = np * u > 1e8 ? 100000000 : (int)(np * u);
			s->decode_servers = nd * u > 1e8 ? 100000000 : (int)(nd * u);
			s->rps = fmin(np * rp, nd * rd);
			return;
		}
	}
	if (a->prefill_servers > 0) {
		best = a->prefill_servers / u > 0 ? a->prefill_servers / u : 1;
	} else {
		for (i = 1; i < units; i++) {
			double r = fmin(i * rp, (units - i) * rd);

			if (r > top + 1e-12) {
				top = r;
				best = i;
			}
		}
	}
	s->prefill_servers = best * u;
	s->decode_servers = (units - best) * u;
	s->rps = fmin(best * rp, (units - best) * rd);
}

/* The KV cache from prefill to decode, and from the offload tier. */
static void kv(const struct nicfit_serving_ask *a, const struct nicfit_serving_params *p,
	       struct nicfit_serving *s)
{
	double bits = s->kv_bytes_per_request * 8;

	s->kv_prefill_node_gbps = s->prefill_servers ? s->rps * bits / s->prefill_servers / 1e9 : 0;
	s->kv_decode_node_gbps = s->decode_servers ? s->rps * bits / s->decode_servers / 1e9 : 0;
	if (a->rails_gbps > 0) {
		/* an instance over u nodes sends each node's layers from that node, at once */
		s->kv_request_s = bits / s->instance_nodes / (a->rails_gbps * 1e9);
		s->kv_decode_share = s->kv_decode_node_gbps / a->rails_gbps;
	}
	s->ttft_s = s->prefill_s + s->kv_request_s;
	s->ttft_ok = s->ttft_s <= a->ttft_s;
	if (a->offload == NICFIT_OFFLOAD_NONE)
		return;
	s->offload_bytes_per_request = p->kv_hit_rate * s->kv_bytes_per_request;
	s->offload_node_gbps = s->prefill_servers ?
			       s->rps * s->offload_bytes_per_request * 8 / s->prefill_servers / 1e9 : 0;
	s->offload_link_gbps = a->offload == NICFIT_OFFLOAD_CPU ? a->host_gbs * 8 : a->storage_gbps;
	if (s->offload_link_gbps > 0) {
		s->offload_share = s->offload_node_gbps / s->offload_link_gbps;
		s->ttft_s += s->offload_bytes_per_request * 8 / s->instance_nodes /
			     (s->offload_link_gbps * 1e9);
		s->ttft_ok = s->ttft_s <= a->ttft_s;
	}
}

int nicfit_serving_calc(const struct nicfit_serving_ask *a, const struct nicfit_step_params *sp,
			const struct nicfit_serving_params *p, struct nicfit_serving *s,
			struct nicfit_error *err)
{
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = check(a, err)))
		return rc;
	s->instance_nodes = a->job.nodes > 0 ? a->job.nodes : 1;
	s->expert_parallel = a->job.ep > 1 ? a->job.ep : 1;
	if (a->servers > 0 && a->servers < 2 * s->instance_nodes)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"one copy of the model spans %d server%s: two pools need at "
					"least %d", s->instance_nodes,
					s->instance_nodes == 1 ? "" : "s", 2 * s->instance_nodes);
	s->kv_bytes_per_token = a->kv_bytes_per_token;
	s->kv_bytes_per_request = a->kv_bytes_per_token * a->prompt_tokens;
	if ((rc = prefill(a, sp, p, s, err)) || (rc = decode(a, sp, s, err)))
		return rc;
	pools(a, p, s);
	kv(a, p, s);
	return 0;
}
