/*
 * nicfit/serving.h - disaggregated serving: a prefill pool and a decode
 * pool of servers, sized from a target or split from the servers given,
 * the KV cache each request moves from one to the other over RDMA, and
 * the KV cache offloaded to host memory or storage.
 *
 * NVIDIA Dynamo, SGLang, vLLM with llm-d and Mooncake run a prompt's
 * prefill on one pool of GPUs and its decode on another, and move the
 * prompt's KV cache between them (NIXL, Mooncake's transfer engine) over
 * the RDMA NICs. The model (docs/reference/inference-serving.md 4):
 *
 *   prefill   one prompt of L tokens on one instance (the GPUs that hold
 *             one copy of the model) takes 2 x active params x L /
 *             (GPUs x peak x MFU): prefill is compute bound, so batching
 *             prompts does not raise its throughput; an instance serves
 *             1 / prefill_s requests/s and TTFT is prefill_s plus the KV
 *             transfer.
 *   decode    an instance decoding b sequences takes
 *             max(2 x active x b / (GPUs x peak x MFU),
 *                 (weights + b x KV per token x (L + O/2)) / (GPUs x HBM))
 *             a token: the weights and the mean KV cache are read each
 *             step. b is the most sequences whose step stays within TPOT
 *             and whose KV cache (L + O tokens each) fits the memory
 *             left by the weights; an instance serves b / (step x O)
 *             requests/s.
 *   pools     at a target of R requests/s, ceil(R x prefill_s / load)
 *             prefill instances and ceil(R x O x step / (b x load))
 *             decode ones (load: the share of a pool's throughput planned
 *             busy); with servers given, the split that serves the most.
 *   KV        L x KV bytes per token leaves a prefill node per request,
 *             at the prefill pool's rate, and reaches a decode node at
 *             the decode pool's; one request's cache crosses a node's
 *             rails in bytes / rails' goodput.
 *   offload   with a hit rate h of prompt tokens already cached in a
 *             lower tier (LMCache, Dynamo's KV block manager, Mooncake's
 *             store), h x L x KV bytes per token is read back per request
 *             instead of prefilled (the prefill computes (1 - h) x L
 *             tokens, and TTFT adds the read); from host memory over the
 *             GPUs' PCIe or C2C links, or from storage over the storage
 *             NICs (GPUDirect Storage, NVMe-oF).
 */
#ifndef NICFIT_SERVING_H
#define NICFIT_SERVING_H

#include "nicfit/error.h"
#include "nicfit/param.h"
#include "nicfit/step.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nicfit_serving_params {
	double pool_load;      /* share of a pool's throughput planned busy */
	double kv_hit_rate;    /* share of prompt tokens whose KV comes from the offload tier */
	double host_link_gbs;  /* one GPU's link to host memory, GB/s; 0 = its PCIe link */
};

extern const struct nicfit_param nicfit_serving_param_table[];
extern const size_t nicfit_serving_param_count;
void nicfit_serving_params_default(struct nicfit_serving_params *p);

enum nicfit_kv_offload { NICFIT_OFFLOAD_NONE, NICFIT_OFFLOAD_CPU, NICFIT_OFFLOAD_STORAGE };

/* none, cpu or storage. */
int nicfit_kv_offload_parse(const char *s, enum nicfit_kv_offload *out, struct nicfit_error *err);
const char *nicfit_kv_offload_name(enum nicfit_kv_offload o);

struct nicfit_serving_ask {
	struct nicfit_step_job job; /* model and GPU facts; nodes and degrees of one instance */
	double prompt_tokens, output_tokens;
	double rps;            /* target requests/s, 0 = none */
	double ttft_s, tpot_s; /* targets */
	int servers;           /* servers for both pools, 0 = as the target needs */
	int prefill_servers;   /* given, 0 = choose */
	double kv_bytes_per_token; /* nicfit_kv_bytes_per_token() */
	double kv_room_gb;     /* one instance's memory left for KV cache */
	double rails_gbps;     /* one node's back-end goodput, all rails; 0 = unknown */
	int rails;
	enum nicfit_kv_offload offload;
	double host_gbs;       /* one node's GPU-to-host-memory rate, GB/s (offload cpu) */
	double storage_gbps;   /* one node's storage-network goodput, Gb/s (offload storage) */
};

struct nicfit_serving {
	int instance_nodes;
	int expert_parallel;                     /* the instance's EP degree, 1 = none */
	double prefill_s, prefill_rps;           /* one prompt; requests/s of one instance */
	double decode_batch, decode_step_s, decode_rps;
	const char *batch_by;                    /* "TPOT", "memory" */
	double batch_tpot, batch_mem;            /* the two limits on b */
	int prefill_servers, decode_servers;
	double rps;                              /* what the two pools serve at pool_load */
	double need_servers;                     /* for the target (0 without one) */
	double kv_bytes_per_token, kv_bytes_per_request;
	double kv_prefill_node_gbps, kv_decode_node_gbps;
	double kv_request_s;                     /* one request's cache over one node's rails */
	double kv_decode_share;                  /* of a decode node's rails */
	double ttft_s;                           /* prefill_s + kv_request_s */
	int ttft_ok, tpot_ok;
	int kv_fits;                             /* one sequence's KV cache fits the memory left */
	/* expert parallel, per prompt on the prefill instance and per decode step */
	double ep_prompt_bytes;                  /* the instance's all-to-all, all paths */
	double ep_prompt_net_bytes;              /* of it, leaving each node over RDMA */
	double ep_decode_net_bytes;              /* per decode step, leaving each node */
	/* offload */
	double offload_bytes_per_request;
	double offload_node_gbps;                /* per prefill node, read back */
	double offload_link_gbps;                /* the link it is read over, per node */
	double offload_share;                    /* of that link */
};

/*
 * Size the pools. Errors: NICFIT_E_USAGE for targets or counts out of
 * range, a model without its KV shape, or too few servers for two pools.
 */
int nicfit_serving_calc(const struct nicfit_serving_ask *a, const struct nicfit_step_params *sp,
			const struct nicfit_serving_params *p, struct nicfit_serving *out,
			struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
