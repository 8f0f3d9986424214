/*
 * step_job.c - from the catalog to a step job: a GPU's nodes and peak
 * TFLOPS, and a model's and a GPU's facts filled into the struct
 * nicfit_step_job that nicfit_step_calc() works on (nicfit/step.h). It
 * holds no formula of its own (those are physics/step.c's) and reads no
 * request: `calc step` and the planner's traffic rule both call it, so
 * both give the same numbers.
 */
#include "nicfit/catalog.h"
#include "nicfit/llm.h"
#include "nicfit/step.h"

int nicfit_gpus_per_node(const struct nicfit_gpu *g)
{
	return g && g->nvlink_domain > 0 ? g->nvlink_domain : NICFIT_GPUS_PER_NODE_DEFAULT;
}

const char *nicfit_gpu_peak(const struct nicfit_gpu *g, enum nicfit_precision prec, int adapters,
			    double *peak)
{
	*peak = g ? g->fp16_tflops : 0;
	if (g && prec == NICFIT_PREC_FP8 && !adapters && g->fp8_tflops > 0) {
		*peak = g->fp8_tflops;
		return "fp8";
	}
	return g && g->no_bf16 ? "fp16" : "bf16";
}

void nicfit_step_job_fill(struct nicfit_step_job *j, const struct nicfit_model *m, double params,
			  const struct nicfit_gpu *g, enum nicfit_precision prec, int adapters,
			  const struct nicfit_llm_params *lp)
{
	if (m) {
		j->arch = m->arch;
		j->experts = m->experts;
		j->experts_active = m->experts_active;
		j->moe_layers = m->moe_layers;
	}
	if (params > 0)
		j->arch.params = params;
	j->adapters = adapters;
	j->adapter_share = lp->adapter_share;
	j->train_bytes = lp->train_bytes;
	j->weights_gb = j->arch.params * nicfit_bits_per_param(prec, lp) / 8 / 1e9;
	nicfit_gpu_peak(g, prec, adapters, &j->tflops);
	if (g) {
		j->mem_gbs = g->mem_bw_gbs;
		j->gpu_usable_gb = g->memory_gib * 1073741824.0 / 1e9 * lp->gpu_util;
	}
}
