/*
 * step.c - compute and communication of one step of a job, the layouts a
 * serving engine can run, and whether the network hides under the
 * compute (see nicfit/step.h). The formulas and their sources are in
 * docs/reference/training-step.md; this file does not choose parts.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/perf.h"
#include "nicfit/step.h"
#include "core/num_int.h"

int nicfit_dp_parse(const char *s, enum nicfit_dp *out, struct nicfit_error *err)
{
	static const struct { const char *n; enum nicfit_dp d; } t[] = {
		{ "auto", NICFIT_DP_AUTO }, { "ddp", NICFIT_DP_DDP }, { "zero1", NICFIT_DP_ZERO1 },
		{ "zero-1", NICFIT_DP_ZERO1 }, { "zero2", NICFIT_DP_ZERO2 },
		{ "zero-2", NICFIT_DP_ZERO2 }, { "zero3", NICFIT_DP_ZERO3 },
		{ "zero-3", NICFIT_DP_ZERO3 }, { "fsdp", NICFIT_DP_ZERO3 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcasecmp(s, t[i].n)) {
			*out = t[i].d;
			return 0;
		}
	return nicfit_error_at(err, NICFIT_E_USAGE, "--parallel", 0, 0,
			       "unknown data parallelism '%.32s' (use auto, ddp, zero1, zero2, zero3 or fsdp)",
			       s);
}

const char *nicfit_dp_name(enum nicfit_dp dp)
{
	switch (dp) {
	case NICFIT_DP_AUTO: return "auto";
	case NICFIT_DP_DDP: return "ddp";
	case NICFIT_DP_ZERO1: return "zero1";
	case NICFIT_DP_ZERO2: return "zero2";
	case NICFIT_DP_ZERO3: return "zero3";
	}
	return "?";
}

#define P(f) offsetof(struct nicfit_step_params, f)

const struct nicfit_param nicfit_step_param_table[] = {
	{ "mfu", P(mfu), 0.40, 0.01, 1.0, "",
	  "model FLOPs utilisation: share of the GPUs' dense peak a step achieves",
	  "Llama 3 paper (Dubey et al. 2024, arXiv 2407.21783): 38-43% BF16 MFU training 405B on H100" },
	{ "overlap", P(overlap), 0.67, 0, 1.0, "",
	  "share of the compute time communication can hide under",
	  "the backward pass, 4 of a step's 6 FLOPs per parameter, during which PyTorch DDP "
	  "all-reduces gradient buckets (Li et al. 2020, VLDB)" },
	{ "tokens_per_gpu", P(tokens_per_gpu), 2048, 1, 1e8, "tokens",
	  "training tokens per GPU per step when --batch-tokens is not given",
	  "Narayanan et al. 2021 (Megatron-LM), Table 1: 1T model, batch 3072 x 2048 tokens on 3072 GPUs" },
	{ "act_bytes", P(act_bytes), 2, 0.5, 4, "B", "bytes per activation value sent (bf16)",
	  "Megatron-LM and vLLM exchange bf16 activations" },
	{ "grad_bytes", P(grad_bytes), 2, 1, 4, "B", "bytes per gradient value all-reduced (bf16)",
	  "ZeRO paper (Rajbhandari et al. 2020): fp16/bf16 gradients" },
	{ "dispatch_bytes", P(dispatch_bytes), 1.03125, 0.5, 4, "B",
	  "bytes per value an MoE dispatch sends: FP8 plus one fp32 scale per 128 channels",
	  "DeepSeek-V3 report (arXiv 2412.19437) 3.3.2 and 3.2.2; DeepEP README: FP8 dispatching" },
	{ "combine_bytes", P(combine_bytes), 2, 0.5, 4, "B",
	  "bytes per value an MoE combine sends back (bf16)",
	  "DeepSeek-V3 report (arXiv 2412.19437) 3.3.2; DeepEP README: BF16 combining" },
};

const size_t nicfit_step_param_count =
	sizeof(nicfit_step_param_table) / sizeof(nicfit_step_param_table[0]);

void nicfit_step_params_default(struct nicfit_step_params *p)
{
	nicfit_param_defaults(nicfit_step_param_table, nicfit_step_param_count, p);
}

/* ---- layouts ------------------------------------------------------------- */

static int gcd(int a, int b)
{
	while (b) {
		int t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Can tensor parallel of degree t split this model's heads? */
static int tp_divides(const struct nicfit_arch *a, int t)
{
	int g;

	if (a->heads <= 0)
		return (t & (t - 1)) == 0; /* unknown heads: powers of two, as models are built */
	g = a->kv_heads > 0 ? gcd(a->heads, a->kv_heads) : a->heads;
	return g % t == 0;
}

void nicfit_layout_name(struct nicfit_layout *l)
{
	char ep[24] = "";

	if (l->ep > 1)
		snprintf(ep, sizeof(ep), " (EP %d)", l->ep);
	if (l->gpus <= 1)
		snprintf(l->name, sizeof(l->name), "1 GPU");
	else if (l->pp > 1)
		snprintf(l->name, sizeof(l->name), "TP %d x PP %d%s on %d node%s", l->tp, l->pp, ep,
			 l->nodes, l->nodes == 1 ? "" : "s");
	else
		snprintf(l->name, sizeof(l->name), "TP %d%s on %d node%s", l->tp, ep, l->nodes,
			 l->nodes == 1 ? "" : "s");
}

int nicfit_layout_pick(const struct nicfit_arch *a, int experts, int needed,
		       int gpus_per_node, int tp_max, struct nicfit_layout *out,
		       struct nicfit_error *err)
{
	int t, best = 1, fit = 0;

	memset(out, 0, sizeof(*out));
	if (needed < 1 || needed > 1000000 || gpus_per_node < 1 || gpus_per_node > 1024)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"layout of %d GPUs on nodes of %d out of range", needed,
					gpus_per_node);
	if (tp_max <= 0 || tp_max > gpus_per_node)
		tp_max = gpus_per_node;
	for (t = 1; t <= tp_max; t++) {
		if (!tp_divides(a, t))
			continue;
		best = t;
		if (!fit && t >= needed)
			fit = t;
	}
	out->tp = fit ? fit : best;
	out->pp = fit ? 1 : (needed + best - 1) / best;
	if (a->layers > 0 && out->pp > a->layers)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"%d GPUs need %d pipeline stages, more than the model's %d layers",
					needed, out->pp, a->layers);
	out->gpus = out->tp * out->pp;
	out->nodes = (out->gpus + gpus_per_node - 1) / gpus_per_node;
	out->ep = experts > 1 && out->gpus > 1 && experts % out->gpus == 0 ? out->gpus : 1;
	nicfit_layout_name(out);
	return 0;
}

/* ---- a step -------------------------------------------------------------- */

/* Bytes of training state one GPU holds under dp, sharded over n GPUs (ZeRO paper, Fig. 1). */
static double dp_state(enum nicfit_dp dp, double params, double train_bytes, double n)
{
	double opt = train_bytes - 4; /* beyond bf16 weights and gradients */

	switch (dp) {
	case NICFIT_DP_ZERO1: return params * (4 + opt / n);
	case NICFIT_DP_ZERO2: return params * (2 + (2 + opt) / n);
	case NICFIT_DP_ZERO3: return params * train_bytes / n;
	default: return params * train_bytes;
	}
}

/* DP auto: the least traffic whose state fits: DDP, ZeRO-1, ZeRO-2 move 2x, ZeRO-3 3x. */
static enum nicfit_dp dp_choose(const struct nicfit_step_job *j, double shard_params, int dp)
{
	static const enum nicfit_dp order[] = { NICFIT_DP_DDP, NICFIT_DP_ZERO1, NICFIT_DP_ZERO2 };
	size_t i;

	if (j->adapters || !(j->gpu_usable_gb > 0))
		return NICFIT_DP_DDP;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (dp_state(order[i], shard_params, j->train_bytes, dp) / 1e9 <= j->gpu_usable_gb)
			return order[i];
	return NICFIT_DP_ZERO3;
}

static struct nicfit_step_term *add_term(struct nicfit_step *s, const char *name,
					 const char *formula, const char *source, double bytes,
					 double hops)
{
	struct nicfit_step_term *t;

	if (s->nterms >= NICFIT_STEP_MAX_TERMS || !(bytes > 0))
		return NULL;
	t = &s->terms[s->nterms++];
	t->name = name;
	t->formula = formula;
	t->source = source;
	t->bytes = bytes;
	t->hops = hops;
	s->bytes_per_node += bytes;
	s->hops += hops;
	return t;
}

static int check_job(const struct nicfit_step_job *j, struct nicfit_error *err)
{
	int tp = j->tp > 0 ? j->tp : 1, pp = j->pp > 0 ? j->pp : 1;
	long gpus = (long)j->nodes * j->gpus_per_node;

	if (!(j->arch.params >= 1e6) || j->arch.params > 1e14)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"parameter count %g out of range (1M to 100T)", j->arch.params);
	if (j->nodes < 1 || j->nodes > 100000 || j->gpus_per_node < 1 || j->gpus_per_node > 1024)
		return nicfit_error_set(err, NICFIT_E_USAGE, "nodes or GPUs per node out of range");
	if (!(j->tflops > 0))
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"the GPU's dense TFLOPS are unknown (give --tflops)");
	if (!(j->tokens >= 1) || j->tokens > 1e12)
		return nicfit_error_set(err, NICFIT_E_USAGE, "tokens per step out of range");
	if ((long)tp * pp > gpus || gpus % ((long)tp * pp))
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"TP %d x PP %d does not divide the job's %ld GPUs", tp, pp, gpus);
	if ((long)tp * pp > j->gpus_per_node && ((long)tp * pp) % j->gpus_per_node)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"TP %d x PP %d spans nodes of %d GPUs unevenly", tp, pp,
					j->gpus_per_node);
	if (tp > j->gpus_per_node && tp % j->gpus_per_node)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"TP %d spans nodes of %d GPUs unevenly", tp, j->gpus_per_node);
	if (j->ep > 1 && (j->ep > gpus || (j->ep > j->gpus_per_node && j->ep % j->gpus_per_node)))
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"EP %d does not fit %ld GPUs in nodes of %d", j->ep, gpus,
					j->gpus_per_node);
	return 0;
}

/* Compute: model FLOPs over the peak at MFU; a decode step reads the weights at least once. */
static void step_compute(const struct nicfit_step_job *j, const struct nicfit_step_params *p,
			 struct nicfit_step *s)
{
	double active = j->arch.active_params > 0 ? j->arch.active_params : j->arch.params;

	s->flops_per_token_param = j->phase != NICFIT_PHASE_TRAIN ? 2 : j->adapters ? 4 : 6;
	s->flops = s->flops_per_token_param * active * s->tokens;
	s->compute_s = s->flops / ((double)s->gpus * j->tflops * 1e12 * p->mfu);
	if (j->phase == NICFIT_PHASE_DECODE && j->mem_gbs > 0 && j->weights_gb > 0) {
		double read = j->weights_gb / s->gpus / j->mem_gbs;

		if (read > s->compute_s) {
			s->compute_s = read;
			s->memory_bound = 1;
		}
	}
}

/*
 * Expert parallel as DeepEP moves it (docs/reference/inference-serving.md
 * 3): every MoE layer dispatches each token's hidden state to its top-k
 * experts and combines their outputs back, dispatch in FP8 with its
 * scales (dispatch_bytes) and combine in bf16 (combine_bytes), as
 * DeepSeek-V3 trains and serves; training adds the backward pass, the
 * combine's gradient in FP8 and the dispatch's in bf16. Training and
 * prefill run DeepEP's normal kernels, which send a token over RDMA once
 * per remote node it has experts on and fan it out over NVLink there:
 * (n-1) x (1 - (1 - 1/n)^k) copies on n nodes, the remote nodes that k
 * uniformly routed experts reach. Decode runs the low-latency kernels,
 * pure RDMA, one copy per remote expert: k x (n-1)/n.
 */
static void step_ep(const struct nicfit_step_job *j, const struct nicfit_step_params *p,
		    struct nicfit_step *s, int n)
{
	double moe = j->moe_layers > 0 ? j->moe_layers : j->arch.layers;
	int k = j->experts_active > 0 ? j->experts_active : 1;
	int train = j->phase == NICFIT_PHASE_TRAIN, ll = j->phase == NICFIT_PHASE_DECODE;
	double copies = ll ? k * (n - 1.0) / n : (n - 1.0) * (1 - pow(1 - 1.0 / n, k));
	double per_value = (train ? 2 : 1) * (p->dispatch_bytes + p->combine_bytes);

	add_term(s, "expert parallel all-to-all",
		 ll ? "2 all-to-alls per MoE layer (dispatch at dispatch_bytes, combine at "
		 "combine_bytes) x tokens x hidden x k(e-1)/e copies off the node, one per remote "
		 "expert (DeepEP low-latency kernels, pure RDMA)" :
		 train ? "4 all-to-alls per MoE layer (dispatch and the combine's gradient at "
		 "dispatch_bytes, combine and the dispatch's gradient at combine_bytes) x tokens x "
		 "hidden x (e-1)(1-(1-1/e)^k) copies, one per remote node the token's experts reach "
		 "(DeepEP normal kernels: RDMA once per node, NVLink fan-out)" :
		 "2 all-to-alls per MoE layer (dispatch at dispatch_bytes, combine at combine_bytes) "
		 "x tokens x hidden x (e-1)(1-(1-1/e)^k) copies, one per remote node the token's "
		 "experts reach (DeepEP normal kernels: RDMA once per node, NVLink fan-out)",
		 "DeepSeek-V3 technical report (arXiv 2412.19437) 3.2.2, 3.3.2; DeepEP README "
		 "(github.com/deepseek-ai/DeepEP); Lepikhin et al. 2020 (GShard)",
		 moe * (s->tokens / j->nodes) * j->arch.hidden * per_value * copies,
		 (train ? 4 : 2) * moe);
}

/*
 * The traffic of each parallelism that spans nodes. m nodes hold one
 * replica (TP x PP over GPUs per node); d = nodes / m replicas exchange
 * gradients; tp_nodes and pp_nodes are the nodes tensor and pipeline
 * parallel span; every node carries the tokens of its own replica.
 */
static void step_traffic(const struct nicfit_step_job *j, const struct nicfit_step_params *p,
			 struct nicfit_step *s)
{
	int tp = j->tp > 0 ? j->tp : 1, pp = j->pp > 0 ? j->pp : 1, gpn = j->gpus_per_node;
	int m = tp * pp > gpn ? tp * pp / gpn : 1, d = j->nodes / m;
	int tp_nodes = tp > gpn ? tp / gpn : 1, pp_nodes = m / tp_nodes;
	int ep_nodes = j->ep > gpn ? j->ep / gpn : 1, train = j->phase == NICFIT_PHASE_TRAIN;
	double replicas = (double)s->gpus / (tp * pp), t_rep = s->tokens / replicas;
	double h = j->arch.hidden, layers = j->arch.layers;

	if (train && d > 1) {
		double z = s->dp == NICFIT_DP_ZERO3 ? 1.5 : 1;
		struct nicfit_step_term *t;

		t = add_term(s, s->dp == NICFIT_DP_ZERO3 ? "data parallel (ZeRO-3/FSDP)" :
			 s->dp == NICFIT_DP_DDP ? "data parallel (DDP)" :
			 s->dp == NICFIT_DP_ZERO1 ? "data parallel (ZeRO-1)" : "data parallel (ZeRO-2)",
			 z > 1 ? "1.5 x 2(d-1)/d x trained parameters x grad_bytes / nodes per replica "
			 "(reduce-scatter of gradients, all-gather of parameters forward and backward)" :
			 "2(d-1)/d x trained parameters x grad_bytes / nodes per replica "
			 "(ring all-reduce of gradients)",
			 "Rajbhandari et al. 2020 (ZeRO), section 7: DDP and ZeRO-1/2 move 2 x params, "
			 "ZeRO-3 3 x params per GPU",
			 z * 2.0 * (d - 1) / d * s->trainable * p->grad_bytes / m,
			 (z > 1 ? 3.0 : 2.0) * (d - 1));
		if (t && z == 1) {
			t->buffer = s->trainable * p->grad_bytes / m;
			t->group = d;
		}
	}
	if (tp_nodes > 1 && h > 0 && layers > 0) {
		double per = train ? 4 : 2;

		add_term(s, "tensor parallel across nodes",
			 train ? "4 all-reduces per layer (2 forward, 2 backward) x 2(t-1)/t x tokens x "
			 "hidden x act_bytes" : "2 all-reduces per layer x 2(t-1)/t x tokens x hidden x "
			 "act_bytes",
			 "Shoeybi et al. 2019 and Narayanan et al. 2021 (Megatron-LM); Korthikanti et al. "
			 "2022 (sequence parallel moves the same bytes)",
			 per * layers / pp * 2.0 * (tp_nodes - 1) / tp_nodes * t_rep * h * p->act_bytes,
			 per * layers / pp * 2.0 * (tp_nodes - 1));
	}
	if (pp_nodes > 1 && h > 0)
		add_term(s, "pipeline parallel across nodes",
			 train ? "tokens x hidden x act_bytes forward, the same gradients backward, at "
			 "each stage boundary" : "tokens x hidden x act_bytes at each stage boundary",
			 "Narayanan et al. 2021 (Megatron-LM), section 3: point-to-point between stages",
			 (train ? 2 : 1) * t_rep * h * p->act_bytes, (train ? 2.0 : 1.0) * (pp_nodes - 1));
	if (ep_nodes > 1 && j->experts > 1 && h > 0)
		step_ep(j, p, s, ep_nodes);
}

/*
 * Disaggregated prefill (docs/reference/inference-serving.md 2): the
 * prompts' KV cache leaves every prefill node for the decode pool once,
 * point to point over RDMA (NIXL, Mooncake's transfer engine), one
 * network latency per step.
 */
static void step_kv_out(const struct nicfit_step_job *j, struct nicfit_step *s)
{
	if (j->phase != NICFIT_PHASE_PREFILL || !(j->kv_out_bytes > 0))
		return;
	add_term(s, "KV cache to the decode nodes",
		 j->arch.kv_lora_rank > 0 ? "prompt tokens x KV bytes per token ((kv_lora_rank + "
		 "rope_dim) x layers x kv_bytes: the MLA latent) / prefill nodes" :
		 "prompt tokens x KV bytes per token (2 x layers x KV heads x head dim x kv_bytes) "
		 "/ prefill nodes",
		 "NVIDIA Dynamo disaggregated serving (NIXL); Mooncake (Qin et al. 2024, FAST '25)",
		 j->kv_out_bytes / j->nodes, 1);
}

int nicfit_step_calc(const struct nicfit_step_job *j, const struct nicfit_step_params *p,
		     struct nicfit_step *s, struct nicfit_error *err)
{
	int rc, tp, pp;

	memset(s, 0, sizeof(*s));
	if ((rc = check_job(j, err)))
		return rc;
	tp = j->tp > 0 ? j->tp : 1;
	pp = j->pp > 0 ? j->pp : 1;
	s->gpus = j->nodes * j->gpus_per_node;
	s->tokens = j->tokens;
	s->trainable = j->adapters ? j->arch.params * j->adapter_share : j->arch.params;
	s->dp = j->dp;
	if (j->phase == NICFIT_PHASE_TRAIN && s->dp == NICFIT_DP_AUTO)
		s->dp = dp_choose(j, j->arch.params / (tp * pp), s->gpus / (tp * pp));
	step_compute(j, p, s);
	step_traffic(j, p, s);
	step_kv_out(j, s);
	return 0;
}

/*
 * A term over rate bytes/s, as (bytes it moves, latency it waits): an
 * all-reduce as the ring or tree NCCL would pick at that rate, alg its
 * name; anything else its bytes and hops. rate 1 B/s gives the bytes
 * each algorithm's bandwidth term moves (which need_gbps solves for).
 */
static double term_seconds(const struct nicfit_step_term *t, double rate,
			   const struct nicfit_allreduce_params *ap, const char **alg)
{
	struct nicfit_allreduce ar;

	if (!(t->buffer > 0) || t->group < 2)
		return t->bytes / rate + t->hops * ap->latency_us * 1e-6;
	nicfit_allreduce_pick(t->buffer, t->group, rate * 8 / 1e9, ap, &ar);
	*alg = ar.algorithm;
	return ar.seconds;
}

/*
 * The least node rate (Gb/s) at which the step's communication hides
 * under hidden_s, with each all-reduce by ring or by tree: the bandwidth
 * and latency terms of both, read off nicfit_allreduce_pick at 1 B/s.
 * 0 when the latency alone exceeds hidden_s.
 */
static double need_gbps(const struct nicfit_step *s, double hidden_s,
			const struct nicfit_allreduce_params *ap)
{
	double best = 0;
	int tree;

	for (tree = 0; tree < 2; tree++) {
		double bytes = 0, lat = 0;
		int i;

		for (i = 0; i < s->nterms; i++) {
			const struct nicfit_step_term *t = &s->terms[i];
			struct nicfit_allreduce ar;

			if (!(t->buffer > 0) || t->group < 2) {
				bytes += t->bytes;
				lat += t->hops * ap->latency_us * 1e-6;
				continue;
			}
			nicfit_allreduce_pick(t->buffer, t->group, 8 / 1e9, ap, &ar);
			bytes += tree ? ar.tree_s - ar.tree_latency_s : ar.ring_s - ar.ring_latency_s;
			lat += tree ? ar.tree_latency_s : ar.ring_latency_s;
		}
		if (hidden_s > lat) {
			double g = bytes * 8 / ((hidden_s - lat) * 1e9);

			if (!(best > 0) || g < best)
				best = g;
		}
	}
	return best;
}

void nicfit_step_over(const struct nicfit_step *s, double node_gbps, double latency_us,
		      const struct nicfit_step_params *p, struct nicfit_step_time *t)
{
	struct nicfit_allreduce_params ap;
	double lat = s->hops * latency_us * 1e-6;
	int i;

	memset(t, 0, sizeof(*t));
	memset(&ap, 0, sizeof(ap));
	ap.latency_us = latency_us;
	t->node_gbps = node_gbps;
	for (i = 0; i < s->nterms; i++)
		if (!strncmp(s->terms[i].name, "data parallel", 13))
			t->algorithm = "ring";
	if (s->bytes_per_node > 0 && node_gbps > 0)
		for (i = 0; i < s->nterms; i++)
			t->comm_s += term_seconds(&s->terms[i], node_gbps * 1e9 / 8, &ap,
						  &t->algorithm);
	else
		t->comm_s = lat;
	t->hidden_s = p->overlap * s->compute_s;
	t->stall_s = t->comm_s > t->hidden_s ? t->comm_s - t->hidden_s : 0;
	t->step_s = s->compute_s + t->stall_s;
	t->ratio = t->comm_s > 0 ? s->compute_s / t->comm_s : 0;
	t->hides = t->comm_s <= t->hidden_s + NICFIT_EPS;
	if (s->bytes_per_node > 0)
		t->need_gbps = need_gbps(s, t->hidden_s, &ap);
}
