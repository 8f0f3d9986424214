/*
 * nicfit/llm.h - how much GPU memory a language model needs, and how much
 * network traffic serving it makes.
 *
 * Weights: parameters x bits per parameter. 4-bit formats carry a 16-bit
 * scale and a 4-bit zero point per group of 128 weights (GPTQ layout:
 * 4 + 20/128 = 4.16 bits); token embeddings and the output head stay at
 * 16 bits in quantised checkpoints.
 * KV cache: 2 x layers x kv_heads x head_dim x bytes per value per token
 * (grouped-query attention uses the KV heads, not the attention heads);
 * multi-head latent attention caches (kv_lora_rank + rope_dim) per layer.
 * Capacity: GPUs x memory x the share a serving engine may use.
 * (docs/reference/servers-gpus-models.md section 4)
 */
#ifndef NICFIT_LLM_H
#define NICFIT_LLM_H

#include <stddef.h>

#include "nicfit/error.h"
#include "nicfit/param.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nicfit_precision {
	NICFIT_PREC_FP32,
	NICFIT_PREC_FP16,
	NICFIT_PREC_BF16,
	NICFIT_PREC_FP8,
	NICFIT_PREC_INT8,
	NICFIT_PREC_INT4
};

int nicfit_precision_parse(const char *s, enum nicfit_precision *out,
			   struct nicfit_error *err);
const char *nicfit_precision_name(enum nicfit_precision p);

/* A model's shape; zero fields are unknown. */
struct nicfit_arch {
	double params;        /* total parameters */
	double active_params; /* per token (mixture of experts), 0 = params */
	int layers, hidden, heads, kv_heads, head_dim, vocab;
	int kv_lora_rank, rope_dim; /* MLA, 0 when not used */
	int tied_embeddings;  /* 1 when input and output embeddings share weights */
};

struct nicfit_llm_params {
	double group_size;   /* weights per scale group in 4-bit formats */
	double scale_bits;   /* bits of one group scale */
	double zero_bits;    /* bits of one group zero point */
	double embed_bits;   /* bits of embeddings/output head when quantised */
	double kv_bytes;     /* bytes per cached K or V value (2 = bf16) */
	double gpu_util;     /* share of GPU memory the engine may use */
	double train_bytes;  /* bytes per parameter of training state */
	double adapter_share; /* trainable adapter parameters / model parameters (LoRA) */
};

extern const struct nicfit_param nicfit_llm_param_table[];
extern const size_t nicfit_llm_param_count;
void nicfit_llm_params_default(struct nicfit_llm_params *p);

/* A model on GPUs: what nicfit_calc_fit() works out. */
struct nicfit_fit {
	double bits_per_param;   /* average over the weights */
	double weights_gb;
	double kv_bytes_per_token;
	double kv_cache_gb;      /* context x concurrency tokens */
	double total_gb;         /* weights + kv cache */
	double capacity_gb;      /* gpus x memory x gpu_util */
	double gpu_gb;           /* one GPU's memory, GB */
	int fits;
	int gpus_needed;         /* fewest GPUs of this kind that hold total_gb */
	int kv_known;            /* 0 when the architecture lacks the KV shape */
};

/*
 * Fit a model on `gpus` GPUs of gpu_mem_gib each. context and concurrency
 * size the KV cache (0 = none). Errors: NICFIT_E_USAGE for zero params,
 * absurd counts, or GPUs without memory.
 */
int nicfit_calc_fit(const struct nicfit_arch *a, enum nicfit_precision prec,
		    long context, long concurrency, int gpus, double gpu_mem_gib,
		    const struct nicfit_llm_params *p, struct nicfit_fit *r,
		    struct nicfit_error *err);

/* Bits per weight of a precision under p (int4: 4 + (scale+zero)/group). */
double nicfit_bits_per_param(enum nicfit_precision prec,
			     const struct nicfit_llm_params *p);

/* Token streaming traffic (OpenAI-style server-sent events). */
struct nicfit_stream_params {
	double event_bytes;  /* one SSE chunk carrying one token */
	double wire_bytes;   /* HTTP chunk + TLS + TCP/IP + Ethernet per event */
};

extern const struct nicfit_param nicfit_stream_param_table[];
extern const size_t nicfit_stream_param_count;
void nicfit_stream_params_default(struct nicfit_stream_params *p);

struct nicfit_stream {
	double bytes_per_token;      /* event + wire overhead */
	double per_request_kbps;     /* kB/s per request (1e3 bytes) */
	double total_mbps;           /* Mb/s for all concurrent requests */
	double link_share;           /* total / link speed, when a link is given */
};

int nicfit_calc_stream(double tokens_per_s, long concurrency, double link_gbps,
		       const struct nicfit_stream_params *p, struct nicfit_stream *r,
		       struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
