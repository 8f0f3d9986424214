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
	{ "kv_layerwise", P(kv_layerwise), 0, 0, 1, "",
	  "1: the prefill sends each layer's KV cache while the next layer computes, so TTFT "
	  "waits only for what outlasts the prefill; 0: the decode side reads it once the "
	  "prefill is done",
	  "vLLM's KV connector API (save_kv_layer, wait_for_layer_load: per layer, maybe async); "
	  "Mooncake's layer-wise prefill (Qin et al., FAST '25); 0 is vLLM's NixlConnector, "
	  "which reads the blocks after the prefill" },
	{ "kv_storage_share", P(kv_storage_share), 0.5, 0.05, 1.0, "",
	  "most of the storage/in-band NICs' goodput the KV transfer may take when it goes over "
	  "them instead of a back end (the rest carries storage, the model load and requests)",
	  "nicfit's planning margin (R2 with --kv-over auto)" },
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

int nicfit_kv_over_parse(const char *s, enum nicfit_kv_over *out, struct nicfit_error *err)
{
	if (!strcasecmp(s, "auto"))
		return *out = NICFIT_KV_OVER_AUTO, 0;
	if (!strcasecmp(s, "backend"))
		return *out = NICFIT_KV_OVER_BACKEND, 0;
	if (!strcasecmp(s, "storage"))
		return *out = NICFIT_KV_OVER_STORAGE, 0;
	return nicfit_error_set(err, NICFIT_E_USAGE, "'%.32s': use auto, backend or storage", s);
}

const char *nicfit_kv_over_name(enum nicfit_kv_over o)
{
	return o == NICFIT_KV_OVER_BACKEND ? "backend" : o == NICFIT_KV_OVER_STORAGE ? "storage" :
	       "auto";
}

static int check(const struct nicfit_serving_ask *a, struct nicfit_error *err)
{
	const struct nicfit_serving_shape *sh[2] = { &a->prefill, &a->decode };
	int gpn = a->job.gpus_per_node, i;

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
	if (gpn < 1 || gpn > 1024)
		return nicfit_error_set(err, NICFIT_E_USAGE, "GPUs per server out of range");
	for (i = 0; i < 2; i++)
		if (sh[i]->gpus < 0 || sh[i]->gpus > 1000000 ||
		    (sh[i]->gpus > 0 && gpn % sh[i]->gpus && sh[i]->gpus % gpn))
			return nicfit_error_set(err, NICFIT_E_USAGE,
						"a %s instance of %d GPUs neither fills whole servers "
						"of %d nor divides one", i ? "decode" : "prefill",
						sh[i]->gpus, gpn);
	return 0;
}

/* The step job of one pool's instance (sh->gpus 0: the ask's own). */
static void pool_job(const struct nicfit_serving_ask *a, const struct nicfit_serving_shape *sh,
		     struct nicfit_serving_pool *pl, struct nicfit_step_job *j)
{
	int gpn = a->job.gpus_per_node;

	*j = a->job;
	if (sh->gpus > 0) {
		j->nodes = sh->gpus >= gpn ? sh->gpus / gpn : 1;
		j->gpus_per_node = sh->gpus >= gpn ? gpn : sh->gpus;
		j->tp = sh->tp > 0 ? sh->tp : 1;
		j->pp = sh->pp > 0 ? sh->pp : 1;
		j->ep = sh->ep > 0 ? sh->ep : 1;
		pl->kv_room_gb = sh->kv_room_gb;
	} else {
		if (j->nodes < 1)
			j->nodes = 1;
		pl->kv_room_gb = a->kv_room_gb;
	}
	pl->gpus = j->nodes * j->gpus_per_node;
	pl->nodes = j->nodes;
	pl->tp = j->tp > 0 ? j->tp : 1;
	pl->pp = j->pp > 0 ? j->pp : 1;
	pl->ep = j->ep > 0 ? j->ep : 1;
}

/* The stall of a pool's step: its traffic between servers over the back end, beyond what hides. */
static double stall(const struct nicfit_serving_ask *a, const struct nicfit_step_params *sp,
		    struct nicfit_serving_pool *pl)
{
	if (!pl->step.nterms || !(a->be_gbps > 0))
		return 0;
	nicfit_step_over(&pl->step, a->be_gbps, a->latency_us, sp, &pl->time);
	pl->timed = 1;
	return pl->time.stall_s;
}

/* One instance's prefill of a prompt, and the expert-parallel traffic it sends. */
static int prefill(const struct nicfit_serving_ask *a, const struct nicfit_step_params *sp,
		   const struct nicfit_serving_params *p, struct nicfit_serving *s,
		   struct nicfit_error *err)
{
	struct nicfit_serving_pool *pl = &s->pool[0];
	struct nicfit_step_job j;
	struct nicfit_step *st = &pl->step;
	int rc, i, ep;
	double k, moe;

	pool_job(a, &a->prefill, pl, &j);
	ep = pl->ep;
	k = j.experts_active > 0 ? j.experts_active : 1;
	moe = j.moe_layers > 0 ? j.moe_layers : j.arch.layers;
	j.phase = NICFIT_PHASE_PREFILL;
	/* the tokens found in the offload tier are read back, not prefilled */
	j.tokens = a->prompt_tokens * (a->offload != NICFIT_OFFLOAD_NONE ? 1 - p->kv_hit_rate : 1);
	if (j.tokens < 1)
		j.tokens = 1;
	j.kv_out_bytes = 0;
	if ((rc = nicfit_step_calc(&j, sp, st, err)))
		return rc;
	s->prefill_s = st->compute_s + stall(a, sp, pl);
	s->prefill_rps = 1 / st->compute_s;
	pl->rps = s->prefill_rps;
	/* dispatch and combine of every token to its k experts, (ep-1)/ep of them on other GPUs */
	if (j.experts > 1 && ep > 1)
		s->ep_prompt_bytes = moe * a->prompt_tokens * j.arch.hidden * k *
				     (sp->dispatch_bytes + sp->combine_bytes) * (ep - 1) / ep;
	for (i = 0; i < st->nterms; i++)
		if (!strncmp(st->terms[i].name, "expert parallel", 15))
			s->ep_prompt_net_bytes = st->terms[i].bytes;
	return 0;
}

/* The decode step of b sequences on one instance of j (see nicfit/serving.h). */
static double decode_step(const struct nicfit_serving_ask *a, const struct nicfit_step_job *j,
			  const struct nicfit_step_params *sp, double b)
{
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
	struct nicfit_serving_pool *pl = &s->pool[1];
	struct nicfit_step_job j;
	double gpus, b, active, per_seq, tb;
	int i, rc;

	pool_job(a, &a->decode, pl, &j);
	gpus = (double)j.nodes * j.gpus_per_node;
	active = j.arch.active_params > 0 ? j.arch.active_params : j.arch.params;
	per_seq = a->kv_bytes_per_token * (a->prompt_tokens + a->output_tokens);
	tb = a->tpot_s * gpus * j.tflops * 1e12 * sp->mfu / (2 * active);
	if (j.mem_gbs > 0) {
		double room = a->tpot_s * gpus * j.mem_gbs * 1e9 - j.weights_gb * 1e9;
		double mb = room / (a->kv_bytes_per_token *
				    (a->prompt_tokens + a->output_tokens / 2));

		if (mb < tb)
			tb = mb;
	}
	s->batch_tpot = floor(tb);
	s->batch_mem = floor(pl->kv_room_gb * 1e9 / per_seq);
	b = s->batch_tpot < s->batch_mem ? s->batch_tpot : s->batch_mem;
	s->batch_by = s->batch_tpot < s->batch_mem ? "TPOT" : "memory";
	s->tpot_ok = s->batch_tpot >= 1;
	s->kv_fits = s->batch_mem >= 1;
	if (b < 1)
		b = 1;
	s->decode_batch = b;
	s->decode_step_s = decode_step(a, &j, sp, b);
	s->decode_rps = b / (s->decode_step_s * a->output_tokens);
	pl->rps = s->decode_rps;
	/* the step's traffic between the instance's servers (low-latency EP, PP, TP) */
	j.phase = NICFIT_PHASE_DECODE;
	j.tokens = b;
	j.kv_out_bytes = 0;
	if ((rc = nicfit_step_calc(&j, sp, &pl->step, err)))
		return rc;
	/* the traffic between the instance's servers that does not hide lengthens the step */
	pl->step.compute_s = s->decode_step_s;
	s->decode_step_s += stall(a, sp, pl);
	if (s->decode_step_s > a->tpot_s * (1 + 1e-9))
		s->tpot_ok = 0;
	s->decode_rps = b / (s->decode_step_s * a->output_tokens);
	pl->rps = s->decode_rps;
	for (i = 0; i < pl->step.nterms; i++)
		if (!strncmp(pl->step.terms[i].name, "expert parallel", 15))
			s->ep_decode_net_bytes = pl->step.terms[i].bytes;
	return 0;
}

/* Instances of g GPUs that n servers of gpn hold. */
static double fit_in(int n, int gpn, int g)
{
	return floor((double)n * gpn / g + 1e-9);
}

/* Servers that k instances of g GPUs take. */
static double servers_for(double k, int gpn, int g)
{
	return ceil(k * g / gpn - 1e-9);
}

/* The pools: for the target, or the split of the servers that serves most. */
static void pools(const struct nicfit_serving_ask *a, const struct nicfit_serving_params *p,
		  struct nicfit_serving *s)
{
	int gpn = a->job.gpus_per_node, gp = s->pool[0].gpus, gd = s->pool[1].gpus, best = -1, i;
	double rp = s->prefill_rps * p->pool_load, rd = s->decode_rps * p->pool_load, top = -1;
	double np = 0, nd = 0;

	if (a->rps > 0) {
		/* counts in doubles: a target far beyond one instance must not overflow an int */
		np = ceil(a->rps / rp - 1e-9);
		nd = ceil(a->rps / rd - 1e-9);
		s->need_servers = servers_for(np, gpn, gp) + servers_for(nd, gpn, gd);
		if (a->servers == 0)
			goto out;
	}
	if (a->prefill_servers > 0) {
		best = a->prefill_servers;
	} else {
		for (i = 1; i < a->servers; i++) {
			double r = fmin(fit_in(i, gpn, gp) * rp, fit_in(a->servers - i, gpn, gd) * rd);

			if (r > top + 1e-12) {
				top = r;
				best = i;
			}
		}
	}
	if (best < 1)
		best = a->servers / 2 > 0 ? a->servers / 2 : 1;
	np = fit_in(best, gpn, gp);
	nd = fit_in(a->servers - best, gpn, gd);
out:
	s->pool[0].instances = np > 1e8 ? 100000000 : (int)np;
	s->pool[1].instances = nd > 1e8 ? 100000000 : (int)nd;
	np = servers_for(np, gpn, gp);
	nd = servers_for(nd, gpn, gd);
	s->prefill_servers = np > 1e8 ? 100000000 : (int)np;
	s->decode_servers = nd > 1e8 ? 100000000 : (int)nd;
	s->pool[0].servers = s->prefill_servers;
	s->pool[1].servers = s->decode_servers;
	s->pool[0].server_rps = s->prefill_rps * gpn / gp;
	s->pool[1].server_rps = s->decode_rps * gpn / gd;
	s->rps = fmin(s->pool[0].instances * rp, s->pool[1].instances * rd);
}

/* The KV cache from prefill to decode, and from the offload tier. */
static void kv(const struct nicfit_serving_ask *a, const struct nicfit_serving_params *p,
	       struct nicfit_serving *s)
{
	double bits = s->kv_bytes_per_request * 8;
	int gpn = a->job.gpus_per_node;
	/* the servers (or share of one) that one request's cache leaves and reaches */
	double ends = fmin(s->pool[0].gpus, s->pool[1].gpus) / gpn;

	s->kv_prefill_node_gbps = s->prefill_servers ? s->rps * bits / s->prefill_servers / 1e9 : 0;
	s->kv_decode_node_gbps = s->decode_servers ? s->rps * bits / s->decode_servers / 1e9 : 0;
	if (a->rails_gbps > 0) {
		/* an instance over u nodes sends each node's layers from that node, at once */
		s->kv_request_s = bits / ends / (a->rails_gbps * 1e9);
		s->kv_decode_share = s->kv_decode_node_gbps / a->rails_gbps;
	}
	s->kv_exposed_s = s->kv_request_s;
	if (p->kv_layerwise >= 0.5 && s->kv_request_s > 0) {
		/* layer by layer: what outlasts the prefill, and at least the last layer's */
		double last = s->kv_request_s / (a->job.arch.layers > 0 ? a->job.arch.layers : 1);

		s->kv_exposed_s = fmax(last, s->kv_request_s - s->prefill_s);
		s->kv_hidden = s->kv_request_s <= s->prefill_s;
	}
	s->ttft_s = s->prefill_s + s->kv_exposed_s;
	s->ttft_ok = s->ttft_s <= a->ttft_s;
	if (a->offload == NICFIT_OFFLOAD_NONE)
		return;
	s->offload_bytes_per_request = p->kv_hit_rate * s->kv_bytes_per_request;
	s->offload_node_gbps = s->prefill_servers ?
			       s->rps * s->offload_bytes_per_request * 8 / s->prefill_servers / 1e9 : 0;
	s->offload_link_gbps = a->offload == NICFIT_OFFLOAD_CPU ? a->host_gbs * 8 : a->storage_gbps;
	if (s->offload_link_gbps > 0) {
		s->offload_share = s->offload_node_gbps / s->offload_link_gbps;
		s->ttft_s += s->offload_bytes_per_request * 8 /
			     (s->pool[0].gpus >= gpn ? s->pool[0].nodes : 1) /
			     (s->offload_link_gbps * 1e9);
		s->ttft_ok = s->ttft_s <= a->ttft_s;
	}
}

int nicfit_serving_calc(const struct nicfit_serving_ask *a, const struct nicfit_step_params *sp,
			const struct nicfit_serving_params *p, struct nicfit_serving *s,
			struct nicfit_error *err)
{
	int rc, gpn = a->job.gpus_per_node;

	memset(s, 0, sizeof(*s));
	if ((rc = check(a, err)))
		return rc;
	s->kv_bytes_per_token = a->kv_bytes_per_token;
	s->kv_bytes_per_request = a->kv_bytes_per_token * a->prompt_tokens;
	if ((rc = prefill(a, sp, p, s, err)) || (rc = decode(a, sp, s, err)))
		return rc;
	s->instance_nodes = s->pool[0].nodes;
	s->expert_parallel = s->pool[0].ep;
	if (a->servers > 0 &&
	    (double)a->servers * gpn < (double)s->pool[0].gpus + s->pool[1].gpus)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"a prefill instance of %d GPUs and a decode instance of %d "
					"need more than %d server%s of %d", s->pool[0].gpus,
					s->pool[1].gpus, a->servers, a->servers == 1 ? "" : "s", gpn);
	pools(a, p, s);
	kv(a, p, s);
	return 0;
}
