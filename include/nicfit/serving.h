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
 *             rails (or the storage/in-band NICs the plan sends it over)
 *             in bytes / their goodput, at the smaller instance's share
 *             of them. Sent after the prefill (vLLM's NixlConnector
 *             reads the blocks once it is done) TTFT adds all of it; sent
 *             layer by layer while the prefill runs (kv_layerwise: the
 *             KV connector's save_kv_layer, Mooncake's layer-wise
 *             prefill) only what outlasts the prefill, and at least one
 *             layer's share.
 *   instances each pool has its own: GPUs (a server's, several servers',
 *             or a share of one that divides it) and TP x PP x EP over
 *             them; one not given is the smallest that holds the model.
 *             An instance over several servers sends the step model's
 *             traffic (expert parallel with DeepEP's normal kernels in
 *             prefill and low-latency ones in decode, pipeline and tensor
 *             parallel) over the back end; what does not hide under the
 *             step (nicfit_step_over) lengthens it.
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
	double kv_layerwise;   /* 1: the KV cache streams layer by layer during the prefill */
	double kv_storage_share; /* most of the storage/in-band NICs the KV transfer may take */
};

extern const struct nicfit_param nicfit_serving_param_table[];
extern const size_t nicfit_serving_param_count;
void nicfit_serving_params_default(struct nicfit_serving_params *p);

enum nicfit_kv_offload { NICFIT_OFFLOAD_NONE, NICFIT_OFFLOAD_CPU, NICFIT_OFFLOAD_STORAGE };

/* none, cpu or storage. */
int nicfit_kv_offload_parse(const char *s, enum nicfit_kv_offload *out, struct nicfit_error *err);
const char *nicfit_kv_offload_name(enum nicfit_kv_offload o);

/*
 * One pool's instance: the GPUs that hold one copy of the model and their
 * degrees. gpus 0: the ask's job (its nodes x gpus_per_node, tp, pp, ep)
 * and kv_room_gb. gpus is a multiple of a server's GPUs, or divides them
 * (several instances to a server).
 */
struct nicfit_serving_shape {
	int gpus;
	int tp, pp, ep;        /* 0 = 1 */
	double kv_room_gb;     /* memory the weights leave on the instance */
};

/* Which NICs carry the KV cache between the pools. */
enum nicfit_kv_over { NICFIT_KV_OVER_AUTO, NICFIT_KV_OVER_BACKEND, NICFIT_KV_OVER_STORAGE };

/* auto, backend or storage. */
int nicfit_kv_over_parse(const char *s, enum nicfit_kv_over *out, struct nicfit_error *err);
const char *nicfit_kv_over_name(enum nicfit_kv_over o);

struct nicfit_serving_ask {
	struct nicfit_step_job job; /* model and GPU facts; nodes and degrees of one instance */
	struct nicfit_serving_shape prefill, decode; /* each pool's instance (gpus 0: job's) */
	double prompt_tokens, output_tokens;
	double rps;            /* target requests/s, 0 = none */
	double ttft_s, tpot_s; /* targets */
	int servers;           /* servers for both pools, 0 = as the target needs */
	int prefill_servers;   /* given, 0 = choose */
	double kv_bytes_per_token; /* nicfit_kv_bytes_per_token() */
	double kv_room_gb;     /* one instance's memory left for KV cache */
	double rails_gbps;     /* one node's goodput on the NICs the KV cache takes; 0 = unknown */
	double be_gbps;        /* one node's back-end goodput for an instance's own traffic; 0 = none */
	double latency_us;     /* one network step's latency (nicfit_step_over) */
	int rails;
	enum nicfit_kv_offload offload;
	double host_gbs;       /* one node's GPU-to-host-memory rate, GB/s (offload cpu) */
	double storage_gbps;   /* one node's storage-network goodput, Gb/s (offload storage) */
};

/* One pool as worked out: its instance and the step it runs. */
struct nicfit_serving_pool {
	int gpus, nodes;                         /* one instance; nodes 1 for a share of a server */
	int tp, pp, ep;
	int instances, servers;
	double rps;                              /* one instance's requests/s (at full load) */
	double server_rps;                       /* one server's, rps x servers' share */
	double kv_room_gb;
	struct nicfit_step step;                 /* one prompt (prefill) or one decode step */
	struct nicfit_step_time time;            /* its traffic over be_gbps (stall in the step) */
	int timed;                               /* the step has traffic and be_gbps was given */
};

struct nicfit_serving {
	int instance_nodes;                      /* the prefill instance's servers */
	int expert_parallel;                     /* the prefill instance's EP degree, 1 = none */
	struct nicfit_serving_pool pool[2];      /* [0] prefill, [1] decode */
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
	double kv_exposed_s;                     /* of it, what TTFT waits for */
	int kv_hidden;                           /* layer by layer, it outlasts no prefill */
	double kv_decode_share;                  /* of a decode node's rails */
	double ttft_s;                           /* prefill_s + kv_exposed_s (+ offload read) */
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
