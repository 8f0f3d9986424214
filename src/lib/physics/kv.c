/*
 * kv.c - the KV cache's size per token and what a disaggregated prefill
 * node sends to the decode nodes (see nicfit/kv.h); the sources are in
 * docs/reference/inference-serving.md 2. It does not choose rails or
 * parts: the caller gives the link.
 */
#include <string.h>

#include "nicfit/kv.h"

double nicfit_kv_bytes_per_token(const struct nicfit_arch *a, const struct nicfit_llm_params *p)
{
	/* MLA caches one compressed latent and the shared rope key per layer (DeepSeek-V2, 2.1) */
	if (a->kv_lora_rank > 0 && a->layers > 0)
		return (double)a->layers * (a->kv_lora_rank + a->rope_dim) * p->kv_bytes;
	if (a->layers > 0 && a->kv_heads > 0 && a->head_dim > 0)
		return 2.0 * a->layers * a->kv_heads * a->head_dim * p->kv_bytes;
	return 0;
}

int nicfit_kv_xfer(const struct nicfit_arch *a, const struct nicfit_llm_params *p,
		   double prompt_tokens, double requests, double prefill_s, double rail_gbps,
		   int rails, struct nicfit_kv_xfer *out, struct nicfit_error *err)
{
	memset(out, 0, sizeof(*out));
	out->bytes_per_token = nicfit_kv_bytes_per_token(a, p);
	if (!(out->bytes_per_token > 0))
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"the model's layer and KV head counts are unknown: its KV cache "
					"cannot be sized");
	if (!(prompt_tokens >= 1) || prompt_tokens > 1e9 || !(requests > 0) || requests > 1e9 ||
	    !(prefill_s > 0) || rails < 0 || rails > 1024 || rail_gbps < 0)
		return nicfit_error_set(err, NICFIT_E_USAGE, "KV transfer out of range");
	out->prompt_tokens = prompt_tokens;
	out->bytes_per_request = out->bytes_per_token * prompt_tokens;
	out->requests = requests;
	out->prefill_s = prefill_s;
	out->node_gbps = requests * out->bytes_per_request * 8 / prefill_s / 1e9;
	out->rails = rails;
	out->rail_gbps = rail_gbps;
	if (rail_gbps > 0 && rails > 0) {
		out->one_rail_s = out->bytes_per_request * 8 / (rail_gbps * 1e9);
		out->all_rails_s = out->one_rail_s / rails;
	}
	return 0;
}
