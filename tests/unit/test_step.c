/*
 * test_step.c - a job's step (nicfit/step.h), NCCL's algorithm choice
 * (perf.h) and the planner's use of them, on the cases the traffic model
 * must get right; calc fit's memory and layout (llm.h, calc.h) on the
 * catalog's GPUs. Every expected number is worked out by hand in the
 * comment above its check, from the catalog's facts and the defaults
 * (MFU 0.40, overlap 0.67, 2048 tokens per GPU, bf16 gradients and
 * activations, 10 us per network step).
 */
#include "unit.h"

#include <math.h>

#include "nicfit/buf.h"
#include "nicfit/calc.h"
#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/kv.h"
#include "nicfit/perf.h"
#include "nicfit/plan.h"
#include "nicfit/step.h"

#include "plan_fixture.h"

/* A training job of model on nodes x gpn of gpu, as calc step and plan build it. */
static void job_of(struct nicfit_step_job *j, const char *model, const char *gpu,
		   enum nicfit_precision prec, int adapters, int nodes, int gpn)
{
	const struct nicfit_model *m = nicfit_catalog_find_model(cat, model, "model", NULL);
	const struct nicfit_gpu *g = nicfit_catalog_find_gpu(cat, gpu, "gpu", NULL);
	struct nicfit_llm_params lp;

	assert_non_null(m);
	assert_non_null(g);
	nicfit_llm_params_default(&lp);
	memset(j, 0, sizeof(*j));
	nicfit_step_job_fill(j, m, 0, g, prec, adapters, &lp);
	j->nodes = nodes;
	j->gpus_per_node = gpn;
	j->phase = NICFIT_PHASE_TRAIN;
	j->tokens = 2048.0 * nodes * gpn;
}

/* Goodput per node of `cards` RoCE ports of gbps. */
static double roce(double gbps, int cards)
{
	struct nicfit_link_params lp;
	struct nicfit_link_result lr;
	struct nicfit_speed sp;

	nicfit_link_params_default(&lp);
	memset(&sp, 0, sizeof(sp));
	sp.gbps = gbps;
	sp.kind = NICFIT_SPEED_ETH;
	assert_int_equal(nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &lp, &lr, NULL), 0);
	return lr.goodput_gbps * cards;
}

/*
 * QLoRA of Llama 3 70B (70,553,706,496 parameters) on 8 servers x 2 A40:
 * adapters are 1% = 705,537,065 parameters; DDP sends 2(8-1)/8 x 705.5e6
 * x 2 B = 2.4694 GB per server. Compute is 4 FLOPs (no weight gradients
 * of the frozen base) x 70.554e9 x (16 x 2048 = 32,768 tokens) = 9.2476e15
 * over 16 x 149.7e12 x 0.40 = 9.5808e14 FLOP/s: 9.652 s; 0.67 of it,
 * 6.467 s, can hide traffic. Over one 25G RoCE port (24.5 Gb/s goodput)
 * the 2.4694 GB take 0.806 s (+ 2 x 7 x 10 us): it hides, with a ratio
 * near 12; hiding needs only 2.4694e9 x 8 / 6.467 = 3.05 Gb/s.
 */
static void qlora_70b_on_25g(void **state)
{
	struct nicfit_step_params sp;
	struct nicfit_step_job j;
	struct nicfit_step s;
	struct nicfit_step_time t;

	(void)state;
	nicfit_step_params_default(&sp);
	job_of(&j, "llama-3-70b", "a40", NICFIT_PREC_INT4, 1, 8, 2);
	assert_int_equal(nicfit_step_calc(&j, &sp, &s, NULL), 0);
	assert_int_equal(s.dp, NICFIT_DP_DDP);
	assert_near(s.trainable, 705537065, 1);
	assert_int_equal(s.nterms, 1);
	assert_near(s.bytes_per_node / 1e9, 2.4694, 0.0001);
	assert_near(s.flops, 9.2476e15, 0.0001e15);
	assert_near(s.compute_s, 9.652, 0.001);
	nicfit_step_over(&s, roce(25, 1), 10, &sp, &t);
	assert_near(t.comm_s, 2.4694e9 * 8 / roce(25, 1) / 1e9 + 14e-5, 0.001);
	assert_near(t.hidden_s, 6.467, 0.001);
	assert_true(t.hides);
	assert_near(t.need_gbps, 3.055, 0.01);
	assert_near(t.ratio, 11.97, 0.05);
}

/*
 * Full fine-tuning of Llama 3 8B (8,030,261,248 parameters) on 2 x 2 A40
 * (48 GiB = 51.54 GB, 46.39 GB usable): DDP needs 16 x 8.03 = 128.5 GB a
 * GPU, ZeRO-1 8.03 x (4 + 12/4) = 56.2 GB, ZeRO-2 8.03 x (2 + 14/4) =
 * 44.2 GB, which fits: ZeRO-2, whose traffic is DDP's, 2(2-1)/2 x 8.03e9
 * x 2 B = 16.06 GB per server. Compute 6 x 8.03e9 x 8192 = 3.947e14 over
 * 4 x 149.7e12 x 0.40 = 2.395e14: 1.648 s, 1.104 s of overlap. On the
 * article's 100G card (98.0 Gb/s RoCE goodput) the traffic takes 1.311 s:
 * compute/comm 1.257, a 0.207 s stall; hiding it takes 116.4 Gb/s.
 */
static void article_8b_on_100g(void **state)
{
	struct nicfit_step_params sp;
	struct nicfit_step_job j;
	struct nicfit_step s;
	struct nicfit_step_time t;

	(void)state;
	nicfit_step_params_default(&sp);
	job_of(&j, "llama-3-8b", "a40", NICFIT_PREC_BF16, 0, 2, 2);
	assert_int_equal(nicfit_step_calc(&j, &sp, &s, NULL), 0);
	assert_int_equal(s.dp, NICFIT_DP_ZERO2);
	assert_near(s.bytes_per_node / 1e9, 16.0605, 0.0001);
	assert_near(s.compute_s, 1.648, 0.001);
	nicfit_step_over(&s, roce(100, 1), 10, &sp, &t);
	assert_near(t.comm_s, 1.311, 0.001);
	assert_near(t.ratio, 1.257, 0.002);
	assert_false(t.hides);
	assert_near(t.stall_s, 0.207, 0.001);
	assert_near(t.need_gbps, 116.4, 0.1);
}

/*
 * Llama 3.1 405B (405,853,388,800 parameters) on 32 DGX-class nodes of 8
 * H100 SXM (80 GiB, 77.3 GB usable): only ZeRO-3 fits (16 x 405.85e9 /
 * 256 = 25.4 GB a GPU), moving 1.5 x 2(31)/32 x 405.85e9 x 2 B = 2.359 TB
 * per node. Compute 6 x 405.85e9 x 524,288 = 1.2767e18 over 256 x 989e12
 * x 0.40: 12.61 s, 8.45 s of overlap; hiding needs 2.359e12 x 8 / 8.45 =
 * 2,234 Gb/s per node, 279 per GPU: 8 x 400G (3,137 Gb/s) hide it in 6.0
 * s, 8 x 200G (1,569 Gb/s) take 12.0 s and stall 3.6 s.
 */
static void llama_405b_needs_400g(void **state)
{
	struct nicfit_step_params sp;
	struct nicfit_step_job j;
	struct nicfit_step s;
	struct nicfit_step_time t;

	(void)state;
	nicfit_step_params_default(&sp);
	job_of(&j, "llama-3.1-405b", "h100-sxm5-80gb", NICFIT_PREC_BF16, 0, 32, 8);
	assert_int_equal(nicfit_step_calc(&j, &sp, &s, NULL), 0);
	assert_int_equal(s.dp, NICFIT_DP_ZERO3);
	assert_near(s.bytes_per_node / 1e12, 2.3590, 0.0001);
	assert_near(s.compute_s, 12.61, 0.01);
	nicfit_step_over(&s, roce(400, 8), 10, &sp, &t);
	assert_true(t.hides);
	assert_near(t.comm_s, 6.02, 0.01);
	assert_near(t.need_gbps, 2234.6, 0.5);
	nicfit_step_over(&s, roce(200, 8), 10, &sp, &t);
	assert_false(t.hides);
	assert_near(t.stall_s, 3.58, 0.02);
}

/*
 * ZeRO-3 against DDP on the same job: 1.5 times the bytes (3 x params
 * against 2 x params, ZeRO paper section 7) and 3(d-1) network steps
 * against 2(d-1). On 4 nodes of 8 A100-class GPUs, 8.03e9 parameters:
 * DDP 2(3)/4 x 8.03e9 x 2 = 24.09 GB, ZeRO-3 36.14 GB.
 */
static void zero3_moves_half_again(void **state)
{
	struct nicfit_step_params sp;
	struct nicfit_step_job j;
	struct nicfit_step ddp, z3;

	(void)state;
	nicfit_step_params_default(&sp);
	job_of(&j, "llama-3-8b", "h100-sxm5-80gb", NICFIT_PREC_BF16, 0, 4, 8);
	j.dp = NICFIT_DP_DDP;
	assert_int_equal(nicfit_step_calc(&j, &sp, &ddp, NULL), 0);
	j.dp = NICFIT_DP_ZERO3;
	assert_int_equal(nicfit_step_calc(&j, &sp, &z3, NULL), 0);
	assert_near(ddp.bytes_per_node / 1e9, 24.091, 0.001);
	assert_near(z3.bytes_per_node / ddp.bytes_per_node, 1.5, 1e-9);
	assert_near(ddp.hops, 6, 1e-9);
	assert_near(z3.hops, 9, 1e-9);
	assert_near(z3.compute_s, ddp.compute_s, 1e-12);
}

/*
 * DeepSeek-V3 decoding 256 requests on 2 x 8 H200 with its experts over
 * all 16 GPUs (EP 16). Decode runs DeepEP's low-latency kernels: one RDMA
 * copy per remote expert, k(n-1)/n = 8 x 1/2 = 4 per token; each of 58
 * MoE layers dispatches 128 tokens per node x 7168 values in FP8 with a
 * fp32 scale per 128 (1.03125 B) and combines them in bf16 (2 B):
 *   58 x 128 x 7168 x (1.03125 + 2) x 4 = 645.23 MB per node per step
 * with 2 x 58 = 116 network waits (1.16 ms at 10 us). bf16 both ways
 * (--assume dispatch_bytes=2) gives the 851.44 MB nicfit counted before,
 * 4 / 3.03125 = 1.32 times as much: a third too high. With TP 8 x PP 2
 * instead every token crosses the one stage boundary, 256 x 7168 x 2 =
 * 3.67 MB, and the all-to-all still moves over 150 times that.
 *
 * Prefill of 32,768 prompt tokens on the same nodes runs DeepEP's normal
 * kernels: a token crosses RDMA once per remote node its 8 experts reach,
 * (n-1)(1-(1-1/n)^k) = 1 x (1 - 0.5^8) = 0.99609 copies, and fans out
 * over NVLink there:
 *   58 x 16,384 x 7168 x 3.03125 x 0.99609 = 20.567 GB per node,
 * against 82.59 GB at one copy per remote expert (4.02 times); a training
 * step of the same tokens adds the backward pass, the combine's gradient
 * in FP8 and the dispatch's in bf16: twice, 41.13 GB, with 4 x 58 waits.
 */
static void deepseek_ep_dominates(void **state)
{
	struct nicfit_step_params sp;
	struct nicfit_step_job j;
	struct nicfit_step ep, pp, bf;
	struct nicfit_step_time t;

	(void)state;
	nicfit_step_params_default(&sp);
	assert_near(sp.dispatch_bytes, 1.03125, 1e-12);
	assert_near(sp.combine_bytes, 2, 1e-12);
	job_of(&j, "deepseek-v3", "h200-sxm-141gb", NICFIT_PREC_FP8, 0, 2, 8);
	j.phase = NICFIT_PHASE_DECODE;
	j.tokens = 256;
	j.ep = 16;
	assert_near(j.tflops, 1979, 1e-9); /* fp8 weights compute on the FP8 tensor cores */
	assert_int_equal(nicfit_step_calc(&j, &sp, &ep, NULL), 0);
	assert_int_equal(ep.nterms, 1);
	assert_string_equal(ep.terms[0].name, "expert parallel all-to-all");
	assert_non_null(strstr(ep.terms[0].formula, "low-latency"));
	assert_near(ep.bytes_per_node, 58.0 * 128 * 7168 * 3.03125 * 4, 1);
	assert_near(ep.bytes_per_node / 1e6, 645.23, 0.01);
	assert_near(ep.hops, 116, 1e-9);
	nicfit_step_over(&ep, 0, 10, &sp, &t);
	assert_near(t.comm_s, 1.16e-3, 1e-9);
	sp.dispatch_bytes = 2;
	assert_int_equal(nicfit_step_calc(&j, &sp, &bf, NULL), 0);
	assert_near(bf.bytes_per_node / 1e6, 851.44, 0.01);
	assert_near(bf.bytes_per_node / ep.bytes_per_node, 4 / 3.03125, 1e-9);
	sp.dispatch_bytes = 1.03125;
	j.tp = 8;
	j.pp = 2;
	j.ep = 16;
	assert_int_equal(nicfit_step_calc(&j, &sp, &pp, NULL), 0);
	assert_int_equal(pp.nterms, 2);
	assert_near(pp.terms[0].bytes / 1e6, 3.670, 0.001);
	assert_near(pp.terms[1].bytes / 1e6, 645.23, 0.01);
	assert_true(pp.terms[1].bytes > 150 * pp.terms[0].bytes);
	/* prefill: DeepEP's normal kernels, once per remote node */
	j.tp = j.pp = 1;
	j.phase = NICFIT_PHASE_PREFILL;
	j.tokens = 32768;
	assert_int_equal(nicfit_step_calc(&j, &sp, &ep, NULL), 0);
	assert_int_equal(ep.nterms, 1);
	assert_non_null(strstr(ep.terms[0].formula, "normal kernels"));
	assert_near(ep.bytes_per_node, 58.0 * 16384 * 7168 * 3.03125 * (1 - pow(0.5, 8)), 1);
	assert_near(ep.bytes_per_node / 1e9, 20.567, 0.001);
	assert_near(58.0 * 16384 * 7168 * 3.03125 * 4 / ep.bytes_per_node, 4.016, 0.001);
	assert_near(ep.hops, 116, 1e-9);
	/* training: the backward pass moves as much again */
	j.phase = NICFIT_PHASE_TRAIN;
	assert_int_equal(nicfit_step_calc(&j, &sp, &bf, NULL), 0);
	assert_near(bf.terms[bf.nterms - 1].bytes / 1e9, 41.13, 0.01);
	assert_near(bf.terms[bf.nterms - 1].hops, 232, 1e-9);
}

/*
 * Disaggregated prefill, Llama 3 70B (80 layers, 8 KV heads of 128) with
 * an 8K prompt on one node of 8 H100 SXM:
 *   KV per token   2 x 80 x 8 x 128 x 2 B = 327,680 B
 *   per request    327,680 x 8,192 = 2,684,354,560 B = 2.68 GB
 *   prefill        2 x 70.55e9 x 8,192 / (8 x 989e12 x 0.4) = 0.365 s
 *   per node       2.684e9 x 8 / 0.365 s = 58.8 Gb/s (7.35 GB/s)
 *   one 400G rail  InfiniBand NDR goodput 397.48 Gb/s (calc link):
 *                  2.684e9 x 8 / 397.48e9 = 54.0 ms; over 8 rails 6.75 ms
 * The step carries it as a term of its own: 2.68 GB leave the node per
 * prefill step, one network latency.
 */
static void kv_transfer_70b_8k(void **state)
{
	const struct nicfit_model *m = nicfit_catalog_find_model(cat, "llama-3-70b", "m", NULL);
	struct nicfit_llm_params lp;
	struct nicfit_step_params sp;
	struct nicfit_step_job j;
	struct nicfit_step st;
	struct nicfit_kv_xfer x;

	(void)state;
	assert_non_null(m);
	nicfit_llm_params_default(&lp);
	nicfit_step_params_default(&sp);
	assert_near(nicfit_kv_bytes_per_token(&m->arch, &lp), 327680, 1e-9);
	job_of(&j, "llama-3-70b", "h100-sxm5-80gb", NICFIT_PREC_BF16, 0, 1, 8);
	j.phase = NICFIT_PHASE_PREFILL;
	j.tokens = 8192;
	j.kv_out_bytes = 8192 * 327680.0;
	assert_int_equal(nicfit_step_calc(&j, &sp, &st, NULL), 0);
	assert_near(st.compute_s, 2 * 70.55e9 * 8192 / (8 * 989e12 * 0.4), 1e-3 * st.compute_s);
	assert_near(st.compute_s, 0.365, 0.001);
	assert_int_equal(st.nterms, 1);
	assert_string_equal(st.terms[0].name, "KV cache to the decode nodes");
	assert_near(st.terms[0].bytes, 2684354560.0, 1e-3);
	assert_near(st.terms[0].hops, 1, 1e-9);
	assert_int_equal(nicfit_kv_xfer(&m->arch, &lp, 8192, 1, st.compute_s, 397.4770, 8, &x,
					NULL), 0);
	assert_near(x.bytes_per_request / 1e9, 2.684, 0.001);
	assert_near(x.node_gbps, 2684354560.0 * 8 / st.compute_s / 1e9, 1e-9);
	assert_near(x.node_gbps, 58.8, 0.1);
	assert_near(x.one_rail_s, 0.0540, 0.0001);
	assert_near(x.all_rails_s, 0.00675, 0.00001);
	/* without a link: the rate alone; an architecture without its KV shape cannot be sized */
	assert_int_equal(nicfit_kv_xfer(&m->arch, &lp, 8192, 1, st.compute_s, 0, 0, &x, NULL), 0);
	assert_true(x.one_rail_s == 0 && x.node_gbps > 58);
	assert_int_equal(nicfit_kv_xfer(&(struct nicfit_arch){ .params = 7e10 }, &lp, 8192, 1, 0.3,
					0, 0, &x, NULL), NICFIT_E_USAGE);
	/* prefill and decode on the same GPUs: nothing crosses the network */
	j.kv_out_bytes = 0;
	assert_int_equal(nicfit_step_calc(&j, &sp, &st, NULL), 0);
	assert_int_equal(st.nterms, 0);
}

/*
 * DeepSeek-V3's prefill pool on 2 x 8 H200 at fp8, EP 16, 8 prompts of
 * 4,096 tokens a step, its KV cache handed to a decode pool:
 *   KV per token   MLA: 61 layers x (512 + 64) x 2 B = 70,272 B
 *   per request    70,272 x 4,096 = 287.8 MB; 4 requests a node: 1.151 GB
 *   prefill        2 x 37.55e9 active x 32,768 / (16 x 1979e12 x 0.4) = 194 ms
 *   per node       4 x 287.8e6 x 8 / 0.1943 s = 47.4 Gb/s
 *   expert parallel (normal kernels, FP8 dispatch, bf16 combine)
 *                  58 x 16,384 x 7168 x 3.03125 x (1 - 0.5^8) = 20.567 GB
 * The all-to-all moves 18 times the KV cache: the prefill pool's rails are
 * sized by expert parallelism, not by the hand-off.
 */
static void deepseek_prefill_pool(void **state)
{
	const struct nicfit_model *m = nicfit_catalog_find_model(cat, "deepseek-v3", "m", NULL);
	struct nicfit_llm_params lp;
	struct nicfit_step_params sp;
	struct nicfit_step_job j;
	struct nicfit_step st;
	struct nicfit_kv_xfer x;

	(void)state;
	assert_non_null(m);
	nicfit_llm_params_default(&lp);
	nicfit_step_params_default(&sp);
	assert_near(nicfit_kv_bytes_per_token(&m->arch, &lp), 70272, 1e-9);
	job_of(&j, "deepseek-v3", "h200-sxm-141gb", NICFIT_PREC_FP8, 0, 2, 8);
	j.phase = NICFIT_PHASE_PREFILL;
	j.ep = 16;
	j.tokens = 8 * 4096;
	j.kv_out_bytes = 8 * 4096 * 70272.0;
	assert_int_equal(nicfit_step_calc(&j, &sp, &st, NULL), 0);
	assert_near(st.compute_s, 2 * m->arch.active_params * 32768 / (16 * 1979e12 * 0.4), 1e-12);
	assert_near(st.compute_s, 0.1943, 0.0001);
	assert_int_equal(st.nterms, 2);
	assert_string_equal(st.terms[0].name, "expert parallel all-to-all");
	assert_near(st.terms[0].bytes / 1e9, 20.567, 0.001);
	assert_string_equal(st.terms[1].name, "KV cache to the decode nodes");
	assert_near(st.terms[1].bytes / 1e9, 1.151, 0.001);
	assert_true(st.terms[0].bytes > 17 * st.terms[1].bytes);
	assert_int_equal(nicfit_kv_xfer(&m->arch, &lp, 4096, 4, st.compute_s, 0, 0, &x, NULL), 0);
	assert_near(x.bytes_per_request / 1e6, 287.83, 0.01);
	assert_near(x.node_gbps, 47.4, 0.05);
}

/*
 * Layouts: TP must divide the attention and KV heads and stay in the
 * node. Llama 3.1 405B at fp8 needs 6 H100 (412 GB / 77.3): 6 divides
 * neither 128 nor 8, so TP 8 on 1 node; at bf16 it needs 11: TP 8 x PP 2
 * on 2 nodes. Llama 3.1 70B at 128K x 32 users needs 20 (1,515.5 GB /
 * 77.3): TP 8 x PP 3, 24 GPUs on 3 nodes. Llama 3 8B on T4s needs 2: TP 2.
 */
static void layouts_users_can_run(void **state)
{
	const struct nicfit_model *m405 = nicfit_catalog_find_model(cat, "llama-3.1-405b", "m", NULL);
	const struct nicfit_model *m70 = nicfit_catalog_find_model(cat, "llama-3.1-70b", "m", NULL);
	const struct nicfit_model *m8 = nicfit_catalog_find_model(cat, "llama-3-8b", "m", NULL);
	struct nicfit_layout l;

	(void)state;
	assert_int_equal(nicfit_layout_pick(&m405->arch, 0, 6, 8, 8, &l, NULL), 0);
	assert_int_equal(l.tp, 8);
	assert_int_equal(l.pp, 1);
	assert_string_equal(l.name, "TP 8 on 1 node");
	assert_int_equal(nicfit_layout_pick(&m405->arch, 0, 11, 8, 8, &l, NULL), 0);
	assert_string_equal(l.name, "TP 8 x PP 2 on 2 nodes");
	assert_int_equal(l.gpus, 16);
	assert_int_equal(nicfit_layout_pick(&m70->arch, 0, 20, 8, 8, &l, NULL), 0);
	assert_string_equal(l.name, "TP 8 x PP 3 on 3 nodes");
	assert_int_equal(nicfit_layout_pick(&m8->arch, 0, 2, 8, 0, &l, NULL), 0);
	assert_string_equal(l.name, "TP 2 on 1 node");
	/* 3 GPUs: no 3-way split of 32 heads; TP 4 */
	assert_int_equal(nicfit_layout_pick(&m8->arch, 0, 3, 8, 0, &l, NULL), 0);
	assert_int_equal(l.tp, 4);
	assert_int_not_equal(nicfit_layout_pick(&m8->arch, 0, 0, 8, 0, &l, NULL), 0);
	/* 300 GPUs in TP 8 take 38 stages; Llama 3 8B has 32 layers: no layout */
	assert_int_not_equal(nicfit_layout_pick(&m8->arch, 0, 300, 8, 0, &l, NULL), 0);
}

/* calc fit's JSON document for the key/value pairs kv (a copy the caller frees). */
static char *calc_fit_json(const char *const *kv)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	struct nicfit_spec spec;
	struct nicfit_error err;
	struct nicfit_buf b;
	int i;

	assert_non_null(e);
	nicfit_error_clear(&err);
	nicfit_spec_init(&spec, "test");
	for (i = 0; kv[i]; i += 2)
		assert_int_equal(nicfit_spec_add(&spec, kv[i], kv[i + 1], &err), 0);
	if (nicfit_calc_run(cat, "fit", &spec, e, &err))
		fail_msg("calc fit: %s", err.msg);
	nicfit_buf_init(&b, 0);
	assert_int_equal(nicfit_emit_finish(e, &b), 0);
	nicfit_emit_free(e);
	nicfit_spec_release(&spec);
	return nicfit_buf_detach(&b, NULL);
}

/*
 * calc fit on 8 x MI355X. The catalog's MI355X has 288 GiB of HBM3E
 * (AMD's MI355X product page: 288 GB, which rocm-smi counts in GiB):
 * 288 x 1.073741824 = 309.2376 GB a GPU, x 0.9 usable (gpu_util) =
 * 278.3139 GB, x 8 = 2,226.511 GB (R1, docs/rules.md).
 *   Llama 3.1 405B at bf16, 4,096 tokens x 1 request:
 *     weights   405,853,388,800 x 2 B = 811.7068 GB
 *     KV        2 x 126 layers x 8 KV heads x 128 x 2 B = 516,096 B a
 *               token, x 4,096 = 2.1139 GB; total 813.8207 GB
 *     GPUs      813.8207 / 278.3139 = 2.92: 3; tensor parallel must
 *               divide 128 heads and 8 KV heads, and 3 does not: TP 4,
 *               inside the 8-GPU xGMI domain, on 1 node
 *   DeepSeek-V3 at fp8, 32,768 tokens x 16 requests:
 *     weights   the linear layers at 8 bits, embeddings and head
 *               (2 x 129,280 x 7,168 = 1,853,358,080) at 16 (embed_bits):
 *               (671,026,419,200 + 1,853,358,080) x 1 B = 672.8798 GB,
 *               8.0221 bits a parameter
 *     KV        MLA: (512 + 64) x 61 layers x 2 B = 70,272 B a token,
 *               x 32,768 x 16 = 36.8428 GB; total 709.7225 GB
 *     GPUs      709.7225 / 278.3139 = 2.55: 3; TP 4 (128 heads, 128 KV
 *               heads), EP 4 (256 experts / 4), on 1 node
 */
static void mi355x_fits(void **state)
{
	static const char *const l405[] = { "model", "llama-3.1-405b", "precision", "bf16",
		"gpus", "8xmi355x", NULL };
	static const char *const ds[] = { "model", "deepseek-v3", "precision", "fp8",
		"gpus", "8xmi355x", "context", "32768", "concurrency", "16", NULL };
	const struct nicfit_gpu *g = nicfit_catalog_find_gpu(cat, "mi355x", "gpu", NULL);
	const struct nicfit_model *m405 = nicfit_catalog_find_model(cat, "llama-3.1-405b", "m", NULL);
	const struct nicfit_model *mds = nicfit_catalog_find_model(cat, "deepseek-v3", "m", NULL);
	struct nicfit_llm_params lp;
	struct nicfit_fit f;
	struct nicfit_layout l;
	char *j;

	(void)state;
	assert_non_null(g);
	assert_non_null(m405);
	assert_non_null(mds);
	assert_true(g->memory_gib == 288);
	assert_int_equal(g->nvlink_domain, 8);
	nicfit_llm_params_default(&lp);
	assert_int_equal(nicfit_calc_fit(&m405->arch, NICFIT_PREC_BF16, 4096, 1, 8, g->memory_gib,
					 &lp, &f, NULL), 0);
	assert_near(f.gpu_gb, 309.2376, 1e-4);
	assert_near(f.capacity_gb, 2226.511, 1e-3);
	assert_near(f.weights_gb, 811.7068, 1e-4);
	assert_near(f.kv_bytes_per_token, 516096, 1e-6);
	assert_near(f.kv_cache_gb, 2.1139, 1e-4);
	assert_near(f.total_gb, 813.8207, 1e-4);
	assert_true(f.fits);
	assert_int_equal(f.gpus_needed, 3);
	assert_int_equal(nicfit_layout_pick(&m405->arch, 0, 3, 8, g->nvlink_domain, &l, NULL), 0);
	assert_int_equal(l.tp, 4);
	assert_int_equal(l.pp, 1);
	assert_string_equal(l.name, "TP 4 on 1 node");
	assert_int_equal(nicfit_calc_fit(&mds->arch, NICFIT_PREC_FP8, 32768, 16, 8, g->memory_gib,
					 &lp, &f, NULL), 0);
	assert_near(f.bits_per_param, 8.0221, 1e-4);
	assert_near(f.weights_gb, 672.8798, 1e-4);
	assert_near(f.kv_bytes_per_token, 70272, 1e-6);
	assert_near(f.kv_cache_gb, 36.8428, 1e-4);
	assert_near(f.total_gb, 709.7225, 1e-4);
	assert_true(f.fits);
	assert_int_equal(f.gpus_needed, 3);
	assert_int_equal(nicfit_layout_pick(&mds->arch, mds->experts, 3, 8, g->nvlink_domain, &l,
					    NULL), 0);
	assert_int_equal(l.tp, 4);
	assert_int_equal(l.ep, 4);
	assert_string_equal(l.name, "TP 4 (EP 4) on 1 node");
	/* calc fit says the same through the catalog: the GPU named "8xmi355x" */
	j = calc_fit_json(l405);
	assert_non_null(strstr(j, "\"gpu\":\"mi355x\",\"gpu_memory_gb\":309.2376,"
				  "\"capacity_gb\":2226.511,\"fits\":true,\"gpus_needed\":3,"));
	assert_non_null(strstr(j, "\"weights_gb\":811.7068,"));
	assert_non_null(strstr(j, "\"name\":\"TP 4 on 1 node\""));
	free(j);
	j = calc_fit_json(ds);
	assert_non_null(strstr(j, "\"weights_gb\":672.8798,"));
	assert_non_null(strstr(j, "\"kv_cache_gb\":36.8428,\"total_gb\":709.7225,"));
	assert_non_null(strstr(j, "\"gpus_needed\":3,"));
	assert_non_null(strstr(j, "\"tp\":4,\"pp\":1,\"ep\":4,"));
	free(j);
}

/*
 * NCCL's choice: 1 MB on 1,024 nodes at 100G RoCE (98.0 Gb/s): a ring
 * waits 2 x 1023 x 10 us = 20.46 ms and sends 2 MB (0.163 ms): 20.6 ms;
 * a tree waits 2 x 10 x 10 us = 0.2 ms and sends 1 MB at 0.45 x 98.0 Gb/s
 * (0.181 ms): 0.381 ms, so tree. 16 GB on 2 nodes stays a ring (1.306 s
 * against the tree's 2.9 s). 16 GB on 8 nodes of HDR with SHARP: the ring
 * sends 1.75 x 16 GB, SHARP 16 GB at 0.9 of the rate: SHARP.
 */
static void nccl_algorithm(void **state)
{
	struct nicfit_link_params lp;
	struct nicfit_allreduce_params ap;
	struct nicfit_allreduce r;
	struct nicfit_speed sp;

	(void)state;
	nicfit_link_params_default(&lp);
	nicfit_allreduce_params_default(&ap);
	memset(&sp, 0, sizeof(sp));
	sp.gbps = 100;
	sp.kind = NICFIT_SPEED_ETH;
	assert_int_equal(nicfit_calc_allreduce(1e6, 1024, 1, &sp, NICFIT_PROTO_ROCE, 0, &lp, &ap,
					       &r, NULL), 0);
	assert_string_equal(r.algorithm, "tree");
	assert_near(r.ring_s, 20.46e-3 + 2e6 * 1023 / 1024 * 8 / roce(100, 1) / 1e9, 1e-6);
	assert_near(r.seconds, 0.2e-3 + 1e6 * 8 / (0.45 * roce(100, 1) * 1e9), 1e-6);
	assert_near(r.ring_latency_s, 20.46e-3, 1e-9);
	assert_int_equal(nicfit_calc_allreduce(16e9, 2, 1, &sp, NICFIT_PROTO_ROCE, 0, &lp, &ap,
					       &r, NULL), 0);
	assert_string_equal(r.algorithm, "ring");
	assert_true(r.sharp_s == 0);
	ap.in_network = 1;
	assert_int_equal(nicfit_calc_allreduce(16e9, 8, 1, &sp, NICFIT_PROTO_ROCE, 0, &lp, &ap,
					       &r, NULL), 0);
	assert_string_equal(r.algorithm, "sharp");
	assert_near(r.sharp_s, 16e9 * 8 / (0.9 * roce(100, 1) * 1e9) + 20e-6, 1e-6);
}

/* ---- the planner --------------------------------------------------------- */

static const struct nicfit_finding *finding(const struct nicfit_plan *p, const char *code)
{
	size_t i;

	for (i = 0; i < p->findings.n; i++)
		if (!strcmp(p->findings.v[i].code, code))
			return &p->findings.v[i];
	return NULL;
}

static void done(struct nicfit_plan *p)
{
	nicfit_plan_release(p);
	free(p);
}

#define QLORA "server", "generic-gen4", "gpu", "a40", "gpus_per_server", "2", "servers", "8", \
	      "model", "llama-3-70b", "precision", "int4", "workload", "fine-tuning"

/*
 * The QLoRA case in the planner: by default R5 keeps the article's rule
 * (200G in a Gen4 slot, MCX653105A-HDAT at 619.95 USD) and says that the
 * 25G MCX4121A-ACAT (54.95 USD) also hides the 2.47 GB per step: 565.00
 * USD less per server, 4,520.00 for 8. --backend-size traffic plans it.
 */
static void plan_qlora_25g(void **state)
{
	static const char *const dflt[] = { QLORA, NULL };
	static const char *const traffic[] = { QLORA, "backend_size", "traffic", NULL };
	const struct nicfit_finding *f;
	struct nicfit_plan *p;

	(void)state;
	p = plan_of(dflt);
	assert_string_equal(p->be_nic->e.id, "mcx653105a-hdat");
	assert_true(p->step_be_known && p->step_be.hides);
	f = finding(p, "backend-cheaper-hides");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "MCX4121A-ACAT"));
	assert_non_null(strstr(f->message, "565.00 USD per server, 4520.00 for 8"));
	assert_null(finding(p, "backend-stalls-gpus"));
	done(p);
	p = plan_of(traffic);
	assert_string_equal(p->be_nic->e.id, "mcx4121a-acat");
	assert_true(p->step_be.hides);
	assert_null(finding(p, "backend-cheaper-hides"));
	done(p);
}

/*
 * The article's two-server training keeps the 100G MCX556A-ECAT and now
 * carries its figures: 1.648 s of compute, 1.311 s of traffic, a stall.
 */
static void plan_article_training_figures(void **state)
{
	static const char *const kv[] = { "example", "training", "server", "r740xd", "gpu", "a40",
		"gpus_per_server", "2", "servers", "2", "model", "llama-3-8b", "precision", "bf16",
		"workload", "training", NULL };
	struct nicfit_plan *p;

	(void)state;
	p = plan_of(kv);
	assert_string_equal(p->be_nic->e.id, "mcx556a-ecat");
	assert_true(p->traffic_known && p->step_be_known);
	assert_near(p->step.compute_s, 1.648, 0.001);
	assert_near(p->step_be.ratio, 1.257, 0.002);
	assert_non_null(finding(p, "backend-stalls-gpus"));
	done(p);
}

/* 405B on 32 DGX H100: 400G per GPU, by default and when sized by traffic; no stall. */
static void plan_405b_400g(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "32", "model",
		"llama-3.1-405b", "workload", "training", "backend_size", "traffic", NULL };
	struct nicfit_plan *p;

	(void)state;
	p = plan_of(kv);
	assert_near(p->be_target_gbps, 400, 1e-9);
	assert_int_equal(p->be_cards, 8);
	assert_true(p->step_be.hides);
	assert_null(finding(p, "backend-stalls-gpus"));
	done(p);
}

/*
 * One T4 with Llama 3 8B (16.6 GB, 15.5 GB usable on a T4): the plan adds
 * a second T4 in the same server (TP 2) instead of a second server and a
 * back end.
 */
static void plan_t4_add_gpus(void **state)
{
	static const char *const kv[] = { "server", "generic-gen3", "gpu", "t4",
		"gpus_per_server", "1", "model", "llama-3-8b", NULL };
	struct nicfit_plan *p;

	(void)state;
	p = plan_of(kv);
	assert_non_null(finding(p, "add-gpus-first"));
	assert_false(p->backend_needed);
	assert_int_equal(p->in.gpus_per_server, 2);
	assert_true(p->fits_one_server);
	assert_string_equal(p->layout.name, "TP 2 on 1 node");
	done(p);
}

/*
 * Training too: Llama 3 8B's state, 8,030,261,248 x 16 B = 128.5 GB, needs
 * ceil(128.5 / 46.4) = 3 A40 (48 GiB at 90%: 46.4 GB usable each), and an
 * R740xd holds 3 double-width GPUs. On one server asked with 2, the plan
 * adds the third there (warning) and plans no back end; the article's two
 * servers keep their 100G card and hear of it as an info.
 */
static void plan_training_add_gpus(void **state)
{
	static const char *const one[] = { "server", "r740xd", "gpu", "a40", "gpus_per_server", "2",
		"model", "llama-3-8b", "workload", "training", NULL };
	static const char *const two[] = { "server", "r740xd", "gpu", "a40", "gpus_per_server", "2",
		"servers", "2", "model", "llama-3-8b", "precision", "bf16", "workload", "training",
		NULL };
	const struct nicfit_finding *f;
	struct nicfit_plan *p;

	(void)state;
	p = plan_of(one);
	f = finding(p, "add-gpus-first");
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_WARNING);
	assert_false(p->backend_needed);
	assert_int_equal(p->in.gpus_per_server, 3);
	assert_int_equal(p->gpus_placed, 3);
	assert_true(p->fits_one_server);
	assert_null(finding(p, "training-state-does-not-fit"));
	done(p);
	p = plan_of(two);
	f = finding(p, "add-gpus-first");
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_INFO);
	assert_non_null(strstr(f->message, "3 x NVIDIA A40 48GB"));
	assert_true(p->backend_needed);
	assert_string_equal(p->be_nic->e.id, "mcx556a-ecat");
	assert_int_equal(p->in.gpus_per_server, 2);
	done(p);
}

/*
 * A small DDP all-reduce on many nodes goes to NCCL's tree in the step
 * model too: adapters of Llama 3 8B (1% of 8,030,261,248 = 80.3e6
 * parameters, a 160.6 MB bf16 buffer) on 1,024 nodes of one A40 over
 * 98.0 Gb/s (12.25 GB/s). A ring sends 2 x 1023/1024 x 160.6 MB, 26.2 ms,
 * and waits 2 x 1023 x 10 us = 20.46 ms: 46.7 ms; a tree sends 160.6 MB
 * at 0.45 x 12.25 GB/s, 29.1 ms, and waits 2 x 10 x 10 us: 29.3 ms.
 */
static void step_picks_tree(void **state)
{
	struct nicfit_step_params sp;
	struct nicfit_step_job j;
	struct nicfit_step s;
	struct nicfit_step_time t;
	double buf = 8030261248.0 * 0.01 * 2;

	(void)state;
	nicfit_step_params_default(&sp);
	job_of(&j, "llama-3-8b", "a40", NICFIT_PREC_INT4, 1, 1024, 1);
	assert_int_equal(nicfit_step_calc(&j, &sp, &s, NULL), 0);
	assert_near(s.terms[0].buffer, buf, 1);
	assert_int_equal(s.terms[0].group, 1024);
	nicfit_step_over(&s, 98.0, 10, &sp, &t);
	assert_string_equal(t.algorithm, "tree");
	assert_near(t.comm_s, buf / (0.45 * 12.25e9) + 200e-6, 1e-6);
	assert_true(t.comm_s < s.terms[0].bytes * 8 / 98e9 + s.terms[0].hops * 10e-6);
	/* the rate that just hides it is the tree's (the ring's latency alone is 20 ms) */
	nicfit_step_over(&s, t.need_gbps, 10, &sp, &t);
	assert_near(t.comm_s, t.hidden_s, 1e-9);
	/* ZeRO-3 runs rings (reduce-scatter, all-gathers): no buffer, no tree */
	job_of(&j, "llama-3-8b", "a40", NICFIT_PREC_BF16, 0, 1024, 1);
	j.dp = NICFIT_DP_ZERO3;
	assert_int_equal(nicfit_step_calc(&j, &sp, &s, NULL), 0);
	assert_true(s.terms[0].buffer == 0);
	nicfit_step_over(&s, 98.0, 10, &sp, &t);
	assert_string_equal(t.algorithm, "ring");
}

/*
 * The step-time table is the step: every row is the step model's traffic
 * over that row's rate (the same function, the same bytes, the same
 * algorithm as the Network line, the findings and JSON step), and the
 * plan's own row is step_be itself. Hand-checked back-end rows: QLoRA
 * 70B, DDP 2(8-1)/8 x 705.5e6 x 2 B = 2.4694 GB over 196.1 Gb/s = 0.1007
 * s; the article's 8B, ZeRO-2 on 2 servers, 8.03e9 x 2 B = 16.06 GB over
 * 98.0 Gb/s = 1.311 s; 405B on 32 DGX H100, ZeRO-3, 1.5 x 2 x 31/32 x
 * 405.85e9 x 2 B = 2.359 TB over 8 x 392.1 Gb/s = 6.016 s (the table said
 * 4.0 s, a DDP ring of 811.7 GB, while the Network line said 6.0).
 */
static void table_is_the_step(void **state)
{
	static const char *const qlora[] = { QLORA, NULL };
	static const char *const article[] = { "server", "r740xd", "gpu", "a40",
		"gpus_per_server", "2", "servers", "2", "model", "llama-3-8b", "precision", "bf16",
		"workload", "training", NULL };
	/* RoCE asked: a DGX's fabric is InfiniBand by default (plan_builtin.c) */
	static const char *const dgx[] = { "server", "dgx-h100", "servers", "32", "model",
		"llama-3.1-405b", "workload", "training", "fabric", "roce", NULL };
	static const char *const *const cases[] = { qlora, article, dgx };
	static const double gb[] = { 2.4694, 16.06, 2359.1 }, sec[] = { 0.1007, 1.311, 6.017 };
	static const char *const traffic[] = { "data parallel (DDP)", "data parallel (ZeRO-2)",
		"data parallel (ZeRO-3/FSDP)" };
	const struct nicfit_finding *f;
	struct nicfit_step_time t;
	char b[32];
	int c, i;

	(void)state;
	for (c = 0; c < 3; c++) {
		struct nicfit_plan *p = plan_of(cases[c]);

		assert_true(p->traffic_known && p->step_be_known);
		assert_true(p->nest >= 3);
		assert_string_equal(p->est_traffic, traffic[c]);
		assert_string_equal(p->est_traffic, p->step.terms[0].name);
		assert_true(p->est_bytes_gb == p->step.bytes_per_node / 1e9);
		assert_near(p->est_bytes_gb, gb[c], gb[c] * 1e-3);
		assert_true(p->est[0].gbps == p->step_be.node_gbps);
		assert_true(p->est[0].seconds == p->step_be.comm_s);
		assert_near(p->est[0].seconds, sec[c], sec[c] * 2e-3);
		assert_string_equal(p->est[0].algorithm, p->step_algorithm);
		assert_string_equal(p->est[0].algorithm, "ring");
		for (i = 0; i < p->nest; i++) {
			nicfit_step_over(&p->step, p->est[i].gbps, p->in.ar.latency_us, &p->in.step,
					 &t);
			assert_true(p->est[i].seconds == t.comm_s);
			assert_string_equal(p->est[i].algorithm, t.algorithm);
		}
		if ((f = finding(p, "backend-stalls-gpus")))
			assert_non_null(strstr(f->message, nicfit_fmt_seconds(p->est[0].seconds, b,
									       sizeof(b))));
		assert_non_null(finding(p, c == 0 ? "backend-cheaper-hides" : c == 1 ?
					"backend-stalls-gpus" : "roce-lossless"));
		done(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(qlora_70b_on_25g),
		cmocka_unit_test(article_8b_on_100g),
		cmocka_unit_test(llama_405b_needs_400g),
		cmocka_unit_test(zero3_moves_half_again),
		cmocka_unit_test(deepseek_ep_dominates),
		cmocka_unit_test(kv_transfer_70b_8k),
		cmocka_unit_test(deepseek_prefill_pool),
		cmocka_unit_test(layouts_users_can_run),
		cmocka_unit_test(mi355x_fits),
		cmocka_unit_test(nccl_algorithm),
		cmocka_unit_test(plan_qlora_25g),
		cmocka_unit_test(plan_article_training_figures),
		cmocka_unit_test(plan_405b_400g),
		cmocka_unit_test(plan_t4_add_gpus),
		cmocka_unit_test(plan_training_add_gpus),
		cmocka_unit_test(step_picks_tree),
		cmocka_unit_test(table_is_the_step),
	};

	return cmocka_run_group_tests_name("step", tests, catalog_setup, catalog_teardown);
}
