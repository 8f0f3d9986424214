/*
 * nicfit/step.h - what one step of a job computes and what it sends over
 * the network, and whether the network keeps up.
 *
 * Compute: model FLOPs over the GPUs' dense peak at a model-FLOPs
 * utilisation (MFU). Training costs 6 FLOPs per parameter and token (2
 * forward, 4 backward: gradients of the activations and of the weights;
 * Kaplan et al. 2020, Narayanan et al. 2021), adapter fine-tuning 4 (the
 * frozen base has no weight gradients), inference 2; a mixture-of-experts
 * model counts its active parameters. A decode step also reads every
 * GPU's share of the weights once, so it lasts at least that long.
 *
 * Communication, bytes leaving one node per step, by parallelism:
 * data parallel all-reduces the trained parameters' gradients, a ring
 * sending 2(d-1)/d of them per node (DDP; ZeRO-1 and -2 move the same;
 * ZeRO-3/FSDP adds an all-gather of the parameters in the forward and the
 * backward pass, 1.5 times that: Rajbhandari et al. 2020, section 7);
 * tensor parallel all-reduces the activations twice per layer forward and
 * twice backward (Shoeybi et al. 2019; Narayanan et al. 2021; sequence
 * parallelism, Korthikanti et al. 2022, moves the same bytes); pipeline
 * parallel sends the activations across each stage boundary (and their
 * gradients back); expert parallel sends every token to its top-k experts
 * and back (dispatch and combine, all-to-all). Only the degrees that span
 * nodes cross the network: a layout keeps tensor parallel inside a node.
 *
 * Whether it hides: communication overlaps the compute it runs beside
 * (gradient buckets all-reduce during the backward pass, PyTorch DDP, Li
 * et al. 2020), up to `overlap` of the compute time; the rest stalls the
 * GPUs. Every constant is a named parameter (nicfit_step_param_table).
 */
#ifndef NICFIT_STEP_H
#define NICFIT_STEP_H

#include "nicfit/error.h"
#include "nicfit/llm.h"
#include "nicfit/param.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How data parallelism keeps its state. */
enum nicfit_dp {
	NICFIT_DP_AUTO,   /* the least traffic whose state fits the GPUs */
	NICFIT_DP_DDP,
	NICFIT_DP_ZERO1,
	NICFIT_DP_ZERO2,
	NICFIT_DP_ZERO3   /* also FSDP's full sharding */
};

/* ddp, zero1, zero2, zero3, fsdp or auto. */
int nicfit_dp_parse(const char *s, enum nicfit_dp *out, struct nicfit_error *err);
const char *nicfit_dp_name(enum nicfit_dp dp);

enum nicfit_phase { NICFIT_PHASE_TRAIN, NICFIT_PHASE_PREFILL, NICFIT_PHASE_DECODE };

struct nicfit_step_params {
	double mfu;            /* model FLOPs utilisation */
	double overlap;        /* share of the compute time communication hides under */
	double tokens_per_gpu; /* training tokens per GPU per step when none given */
	double act_bytes;      /* bytes per activation value sent */
	double grad_bytes;     /* bytes per gradient value all-reduced */
	double dispatch_bytes; /* bytes per value an MoE dispatch sends (FP8 with its scales) */
	double combine_bytes;  /* bytes per value an MoE combine sends back (bf16) */
};

extern const struct nicfit_param nicfit_step_param_table[];
extern const size_t nicfit_step_param_count;
void nicfit_step_params_default(struct nicfit_step_params *p);

/* A layout: tensor x pipeline (x expert) parallel degrees over GPUs. */
struct nicfit_layout {
	int tp, pp, ep;     /* degrees, 1 = none */
	int gpus;           /* tp x pp */
	int nodes;          /* servers of gpus_per_node it takes */
	char name[80];      /* "TP 8 x PP 2 on 2 nodes" */
};

/*
 * The layout a serving engine can run for a model that needs `needed`
 * GPUs, gpus_per_node to a node and tp_max GPUs in its NVLink domain (0:
 * the node). Tensor parallel must divide the attention heads and the KV
 * heads (vLLM checks both) and stays inside tp_max; pipeline stages take
 * the rest, across nodes; a mixture-of-experts model spreads its experts
 * over all the layout's GPUs (EP) when their count divides them. Returns
 * 0, or NICFIT_E_USAGE when needed or the node is out of range, or the
 * layout would need more pipeline stages than the model has layers.
 */
int nicfit_layout_pick(const struct nicfit_arch *a, int experts, int needed,
		       int gpus_per_node, int tp_max, struct nicfit_layout *out,
		       struct nicfit_error *err);
/* Name a layout in l->name from its degrees and node count. */
void nicfit_layout_name(struct nicfit_layout *l);

/* One step of a job. */
struct nicfit_step_job {
	struct nicfit_arch arch;
	int experts, experts_active, moe_layers; /* 0 for a dense model */
	enum nicfit_phase phase;
	int adapters;           /* LoRA/QLoRA: only adapter parameters train */
	double adapter_share;   /* their share of the parameters */
	enum nicfit_dp dp;
	int nodes, gpus_per_node;
	int tp, pp, ep;         /* parallel degrees over all the job's GPUs (0 = 1) */
	double tokens;          /* per step: training batch; prefill prompt tokens; decode sequences */
	double tflops;          /* one GPU's dense peak at the compute precision */
	double mem_gbs;         /* one GPU's memory bandwidth (decode), 0 = unknown */
	double weights_gb;      /* the weights (decode reads them each step) */
	double gpu_usable_gb;   /* one GPU's usable memory (DP auto), 0 = unknown */
	double train_bytes;     /* bytes per parameter of training state */
	/*
	 * Disaggregated prefill: the KV cache the step's prompts leave for
	 * the decode nodes, whole job, per step (nicfit_kv_xfer); 0 when
	 * prefill and decode share the GPUs.
	 */
	double kv_out_bytes;
};

/* A kind of traffic: what crosses the network per node and per step. */
struct nicfit_step_term {
	const char *name;      /* "data parallel (ZeRO-3)", "expert parallel all-to-all" */
	const char *formula;   /* the formula in words */
	const char *source;
	double bytes;          /* leaving one node per step */
	double hops;           /* network latencies it waits on per step */
	/*
	 * An all-reduce (DDP, ZeRO-1/2 gradients): the buffer it reduces per
	 * node and the nodes it spans, so that nicfit_step_over() times it by
	 * the algorithm NCCL would pick (ring or tree, nicfit_allreduce_pick);
	 * buffer 0 for every other collective (ZeRO-3's reduce-scatter and
	 * all-gathers, which NCCL runs as rings; point-to-point; all-to-all).
	 */
	double buffer;
	int group;
};

#define NICFIT_STEP_MAX_TERMS 5

struct nicfit_step {
	double flops;          /* model FLOPs per step, whole job */
	double flops_per_token_param; /* 6, 4 or 2 */
	double tokens;
	int gpus;
	double compute_s;      /* flops / (gpus x tflops x mfu), or the weight read */
	int memory_bound;      /* decode: the weight read sets compute_s */
	enum nicfit_dp dp;     /* resolved */
	double trainable;      /* parameters that carry gradients */
	struct nicfit_step_term terms[NICFIT_STEP_MAX_TERMS];
	int nterms;
	double bytes_per_node; /* sum of the terms */
	double hops;           /* sum of the terms' latencies */
};

/*
 * Work out a step. Errors: NICFIT_E_USAGE for a job without parameters,
 * GPUs or peak, or degrees that do not fit the GPUs.
 */
int nicfit_step_calc(const struct nicfit_step_job *job, const struct nicfit_step_params *p,
		     struct nicfit_step *out, struct nicfit_error *err);

/* A step over a network of node_gbps goodput per node. */
struct nicfit_step_time {
	double node_gbps;
	double comm_s;        /* bytes / rate + hops x latency */
	double hidden_s;      /* overlap x compute: what can hide */
	double stall_s;       /* comm beyond hidden_s */
	double step_s;        /* compute + stall */
	double ratio;         /* compute / comm */
	int hides;
	double need_gbps;     /* per-node goodput that would just hide it; 0 = none can */
	const char *algorithm; /* the data-parallel exchange's NCCL algorithm ("ring", "tree"); NULL without one */
};

/*
 * comm_s is every term's bytes over node_gbps plus its latencies, an
 * all-reduce term at the cheaper of NCCL's ring and tree (the one named
 * in algorithm); need_gbps is the least rate at which either hides.
 */
void nicfit_step_over(const struct nicfit_step *s, double node_gbps, double latency_us,
		      const struct nicfit_step_params *p, struct nicfit_step_time *t);

/*
 * From the catalog to a step job (parts/step_job.c): the GPU's and the
 * model's facts as `calc step` and the planner read them, so that both
 * give the same numbers. The structs are the catalog's (nicfit/catalog.h).
 */
struct nicfit_gpu;
struct nicfit_model;

/*
 * GPUs to a node when none is given: the GPU's NVLink domain, else 8, the
 * HGX/DGX node and the common 8-GPU server (calc fit and calc step).
 */
#define NICFIT_GPUS_PER_NODE_DEFAULT 8
int nicfit_gpus_per_node(const struct nicfit_gpu *g);

/*
 * The precision a job computes in: fp8 weights that train or serve in
 * fp8 use the FP8 tensor cores; everything else (bf16, and int8/int4
 * weights, which serving engines dequantise, or a QLoRA base) computes in
 * 16 bits. Sets *peak to the GPU's dense TFLOPS for it (the FP16 figure
 * when the GPU has no FP8 rate in the catalog) and returns "fp8" or
 * "bf16" for the text; *peak is 0 when the catalog has no figure.
 */
const char *nicfit_gpu_peak(const struct nicfit_gpu *g, enum nicfit_precision prec, int adapters,
			    double *peak);

/*
 * Fill a step job's model and GPU facts: the architecture (m may be
 * NULL: params alone), the experts, the GPU's peak for prec, memory
 * bandwidth and usable memory, and the weights' size under lp.
 */
void nicfit_step_job_fill(struct nicfit_step_job *j, const struct nicfit_model *m, double params,
			  const struct nicfit_gpu *g, enum nicfit_precision prec, int adapters,
			  const struct nicfit_llm_params *lp);

#ifdef __cplusplus
}
#endif

#endif
