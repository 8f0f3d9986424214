/*
 * nicfit/kv.h - the KV cache as it moves: what a disaggregated prefill
 * node sends to the decode nodes for each request it prefills.
 *
 * Disaggregated serving (NVIDIA Dynamo with NIXL, SGLang and vLLM with
 * Mooncake's transfer engine or NIXL) runs a prompt's prefill on one pool
 * of GPUs and its decode on another, and moves the prompt's KV cache
 * between them over RDMA: every token of the prompt, every layer, its
 * keys and values. Bytes per token: 2 x layers x KV heads x head
 * dimension x bytes per value (bf16: 2), or for multi-head latent
 * attention (kv_lora_rank + rope_dim) x layers x bytes per value, the
 * same count calc fit holds in GPU memory (nicfit_llm_params' kv_bytes
 * is the precision). It is not a model of the serving stack's scheduler:
 * the rate is what a prefill node must send to keep up with its own
 * prefills, and the times are one request's cache over the rails.
 */
#ifndef NICFIT_KV_H
#define NICFIT_KV_H

#include "nicfit/error.h"
#include "nicfit/llm.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * KV cache bytes per token of the architecture at p's kv_bytes; 0 when
 * the architecture lacks its layer and KV shape.
 */
double nicfit_kv_bytes_per_token(const struct nicfit_arch *a, const struct nicfit_llm_params *p);

/* The KV cache a prefill node hands to the decode nodes. */
struct nicfit_kv_xfer {
	double bytes_per_token;
	double prompt_tokens;     /* per request */
	double bytes_per_request; /* bytes_per_token x prompt_tokens */
	double requests;          /* prefilled per step on each prefill node */
	double prefill_s;         /* one prefill step */
	double node_gbps;         /* per prefill node: requests x bytes_per_request x 8 / prefill_s */
	double rail_gbps;         /* one rail's goodput, 0 when no link was given */
	int rails;                /* rails of a prefill node */
	double one_rail_s;        /* one request's cache over one rail */
	double all_rails_s;       /* over all the node's rails at once */
};

/*
 * Work out the transfer of requests prompts of prompt_tokens each,
 * prefilled per step of prefill_s on one node, over rails of rail_gbps
 * goodput (0: no link). Errors: NICFIT_E_USAGE when the architecture
 * lacks its KV shape or a count is out of range.
 */
int nicfit_kv_xfer(const struct nicfit_arch *a, const struct nicfit_llm_params *p,
		   double prompt_tokens, double requests, double prefill_s, double rail_gbps,
		   int rails, struct nicfit_kv_xfer *out, struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
