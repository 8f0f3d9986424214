/*
 * llm.c - model memory and token-stream traffic (see nicfit/llm.h).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "nicfit/kv.h"
#include "nicfit/llm.h"
#include "core/num_int.h"

#define GIB 1073741824.0

int nicfit_precision_parse(const char *s, enum nicfit_precision *out,
			   struct nicfit_error *err)
{
	static const struct { const char *n; enum nicfit_precision p; } t[] = {
		{ "fp32", NICFIT_PREC_FP32 }, { "float32", NICFIT_PREC_FP32 },
		{ "fp16", NICFIT_PREC_FP16 }, { "float16", NICFIT_PREC_FP16 },
		{ "16bit", NICFIT_PREC_FP16 }, { "16-bit", NICFIT_PREC_FP16 },
		{ "bf16", NICFIT_PREC_BF16 }, { "bfloat16", NICFIT_PREC_BF16 },
		{ "fp8", NICFIT_PREC_FP8 }, { "int8", NICFIT_PREC_INT8 },
		{ "8bit", NICFIT_PREC_INT8 }, { "8-bit", NICFIT_PREC_INT8 },
		{ "int4", NICFIT_PREC_INT4 }, { "4bit", NICFIT_PREC_INT4 },
		{ "4-bit", NICFIT_PREC_INT4 }, { "gptq", NICFIT_PREC_INT4 },
		{ "awq", NICFIT_PREC_INT4 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcasecmp(s, t[i].n)) {
			*out = t[i].p;
			return 0;
		}
	return nicfit_error_at(err, NICFIT_E_USAGE, "--precision", 0, 0,
			       "unknown precision '%.32s' (use fp32, fp16, bf16, fp8, int8 or int4)", s);
}

const char *nicfit_precision_name(enum nicfit_precision p)
{
	switch (p) {
	case NICFIT_PREC_FP32: return "fp32";
	case NICFIT_PREC_FP16: return "fp16";
	case NICFIT_PREC_BF16: return "bf16";
	case NICFIT_PREC_FP8: return "fp8";
	case NICFIT_PREC_INT8: return "int8";
	case NICFIT_PREC_INT4: return "int4";
	}
	return "?";
}

#define L(f) offsetof(struct nicfit_llm_params, f)

const struct nicfit_param nicfit_llm_param_table[] = {
	{ "group_size", L(group_size), 128, 16, 4096, "weights",
	  "weights sharing one scale and zero point in 4-bit formats",
	  "GPTQ/AWQ default group size" },
	{ "scale_bits", L(scale_bits), 16, 0, 32, "bits", "bits of one group scale (fp16)",
	  "AutoGPTQ qlinear buffers; docs/reference/servers-gpus-models.md 4.1" },
	{ "zero_bits", L(zero_bits), 4, 0, 32, "bits", "bits of one packed group zero point",
	  "AutoGPTQ packs zeros as int4" },
	{ "embed_bits", L(embed_bits), 16, 4, 32, "bits",
	  "bits of token embeddings and output head in quantised checkpoints",
	  "GPTQ/AWQ keep them at fp16" },
	{ "kv_bytes", L(kv_bytes), 2, 0.5, 4, "B", "bytes per cached key or value (bf16)",
	  "serving engines' default KV dtype" },
	{ "gpu_util", L(gpu_util), 0.90, 0.1, 1.0, "",
	  "share of GPU memory the serving engine may fill",
	  "vLLM gpu_memory_utilization default 0.90 (0.92 in newer releases)" },
	{ "train_bytes", L(train_bytes), 16, 2, 64, "B",
	  "bytes per parameter of training state (fp16 weights+grads, fp32 Adam states)",
	  "ZeRO paper: 2+2+12 bytes per parameter, before activations" },
	{ "adapter_share", L(adapter_share), 0.01, 0.0001, 0.5, "",
	  "trainable adapter parameters as a share of the model in LoRA/QLoRA fine-tuning",
	  "LoRA rank 16-64 on every linear layer of a Llama-class model: about 0.2-1%; upper end taken" },
};

const size_t nicfit_llm_param_count =
	sizeof(nicfit_llm_param_table) / sizeof(nicfit_llm_param_table[0]);

void nicfit_llm_params_default(struct nicfit_llm_params *p)
{
	nicfit_param_defaults(nicfit_llm_param_table, nicfit_llm_param_count, p);
}

double nicfit_bits_per_param(enum nicfit_precision prec,
			     const struct nicfit_llm_params *p)
{
	switch (prec) {
	case NICFIT_PREC_FP32: return 32;
	case NICFIT_PREC_FP16:
	case NICFIT_PREC_BF16: return 16;
	case NICFIT_PREC_FP8:
	case NICFIT_PREC_INT8: return 8;
	case NICFIT_PREC_INT4: return 4 + (p->scale_bits + p->zero_bits) / p->group_size;
	}
	return 16;
}

int nicfit_calc_fit(const struct nicfit_arch *a, enum nicfit_precision prec,
		    long context, long concurrency, int gpus, double gpu_mem_gib,
		    const struct nicfit_llm_params *p, struct nicfit_fit *r,
		    struct nicfit_error *err)
{
	double bits = nicfit_bits_per_param(prec, p), embed = 0, wbits;
	double per_gpu;

	memset(r, 0, sizeof(*r));
	if (!(a->params >= 1e6) || a->params > 1e14)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"parameter count %g out of range (1M to 100T)", a->params);
	if (gpus < 1 || gpus > 1000000)
		return nicfit_error_set(err, NICFIT_E_USAGE, "GPU count %d out of range", gpus);
	if (!(gpu_mem_gib > 0) || gpu_mem_gib > 100000)
		return nicfit_error_set(err, NICFIT_E_USAGE, "GPU memory %g GiB out of range",
					gpu_mem_gib);
	if (context < 0 || concurrency < 0 || context > 100000000L ||
	    concurrency > 100000000L)
		return nicfit_error_set(err, NICFIT_E_USAGE, "context or concurrency out of range");

	/* Quantised checkpoints keep embeddings and output head wide. */
	if (bits < 16 && a->vocab > 0 && a->hidden > 0) {
		embed = (double)a->vocab * a->hidden * (a->tied_embeddings ? 1 : 2);
		if (embed > a->params / 2)
			embed = 0;
	}
	wbits = (a->params - embed) * bits + embed * fmax(p->embed_bits, bits);
	r->bits_per_param = wbits / a->params;
	r->weights_gb = wbits / 8 / 1e9;

	r->kv_bytes_per_token = nicfit_kv_bytes_per_token(a, p);
	r->kv_known = r->kv_bytes_per_token > 0;
	r->kv_cache_gb = r->kv_bytes_per_token * (double)context * (double)concurrency / 1e9;
	r->total_gb = r->weights_gb + r->kv_cache_gb;
	r->gpu_gb = gpu_mem_gib * GIB / 1e9;
	per_gpu = r->gpu_gb * p->gpu_util;
	r->capacity_gb = per_gpu * gpus;
	r->fits = r->total_gb <= r->capacity_gb;
	r->gpus_needed = (int)ceil(r->total_gb / per_gpu - NICFIT_EPS);
	if (r->gpus_needed < 1)
		r->gpus_needed = 1;
	return 0;
}

#define S(f) offsetof(struct nicfit_stream_params, f)

const struct nicfit_param nicfit_stream_param_table[] = {
	{ "event_bytes", S(event_bytes), 260, 20, 100000, "B",
	  "one server-sent event carrying one token (OpenAI chat.completion.chunk)",
	  "measured chunk size, docs/reference/bandwidth.md 6" },
	{ "wire_bytes", S(wire_bytes), 118, 0, 10000, "B",
	  "HTTP chunk (6) + TLS record (22) + TCP/IP (52) + Ethernet (38) per event",
	  "docs/reference/bandwidth.md 6, one event per packet" },
};

const size_t nicfit_stream_param_count =
	sizeof(nicfit_stream_param_table) / sizeof(nicfit_stream_param_table[0]);

void nicfit_stream_params_default(struct nicfit_stream_params *p)
{
	nicfit_param_defaults(nicfit_stream_param_table, nicfit_stream_param_count, p);
}

int nicfit_calc_stream(double tokens_per_s, long concurrency, double link_gbps,
		       const struct nicfit_stream_params *p, struct nicfit_stream *r,
		       struct nicfit_error *err)
{
	memset(r, 0, sizeof(*r));
	if (!(tokens_per_s > 0) || tokens_per_s > 1e6)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"tokens per second %g out of range (above 0, at most 1e6)",
					tokens_per_s);
	if (concurrency < 1 || concurrency > 100000000L)
		return nicfit_error_set(err, NICFIT_E_USAGE, "concurrency out of range");
	r->bytes_per_token = p->event_bytes + p->wire_bytes;
	r->per_request_kbps = tokens_per_s * r->bytes_per_token / 1e3;
	r->total_mbps = r->per_request_kbps * 8 * (double)concurrency / 1e3;
	if (link_gbps > 0)
		r->link_share = r->total_mbps / (link_gbps * 1e3);
	return 0;
}
