/*
 * test_serving.c - disaggregated prefill and decode pools, the KV cache
 * between them and its offload (nicfit/serving.h), and training
 * checkpoints on the storage network (nicfit/ckpt.h). Every expected
 * number is worked out by hand in the comment above its check, from the
 * catalog's facts and the defaults (MFU 0.40, pool_load 0.8, kv_hit_rate
 * 0.5, ckpt_state_bytes 14, ckpt_node_gbs 40).
 */
#include "unit.h"

#include <math.h>

#include "nicfit/catalog.h"
#include "nicfit/ckpt.h"
#include "nicfit/kv.h"
#include "nicfit/plan.h"
#include "nicfit/serving.h"
#include "nicfit/step.h"

#include "plan_fixture.h"

/* One instance of model on nodes x gpn of gpu at prec, with its KV room, as plan builds it. */
static void ask_of(struct nicfit_serving_ask *a, const char *model, const char *gpu,
		   enum nicfit_precision prec, int nodes, int gpn)
{
	const struct nicfit_model *m = nicfit_catalog_find_model(cat, model, "model", NULL);
	const struct nicfit_gpu *g = nicfit_catalog_find_gpu(cat, gpu, "gpu", NULL);
	struct nicfit_llm_params lp;
	struct nicfit_fit fit;

	assert_non_null(m);
	assert_non_null(g);
	nicfit_llm_params_default(&lp);
	memset(a, 0, sizeof(*a));
	nicfit_step_job_fill(&a->job, m, 0, g, prec, 0, &lp);
	a->job.nodes = nodes;
	a->job.gpus_per_node = gpn;
	a->job.ep = m->experts > 1 && m->experts % (nodes * gpn) == 0 ? nodes * gpn : 1;
	assert_int_equal(nicfit_calc_fit(&m->arch, prec, 0, 0, nodes * gpn, g->memory_gib, &lp,
					 &fit, NULL), 0);
	a->kv_room_gb = fit.capacity_gb - fit.weights_gb;
	a->kv_bytes_per_token = nicfit_kv_bytes_per_token(&m->arch, &lp);
}

/*
 * DeepSeek-V3 (671B, 37.55e9 active, 61 layers of which 58 MoE, 256
 * experts top-8, hidden 7168, MLA) at fp8 on 2 x 8 H200 (141 GiB, 4.8
 * TB/s, 1,979 TFLOPS fp8), prompts of 4,096 tokens and answers of 1,024,
 * TTFT 2 s, TPOT 50 ms, eight 400G InfiniBand rails a server (NDR
 * goodput 397.477 Gb/s each, calc link):
 *   instance       671.0 GB of weights fit one server (1,088.2 GB usable,
 *                  calc fit): an instance is one server, EP 8
 *   KV room        1,088.2 - 671.0 = 417.2 GB
 *   prefill        2 x 37.55e9 x 4,096 / (8 x 1979e12 x 0.4) = 48.6 ms;
 *                  1 / 0.0486 = 20.59 requests/s an instance
 *   decode batch   memory: 417.2e9 / (70,272 B x (4,096 + 1,024)) = 1,159;
 *                  TPOT allows more (3,857), so memory sets it
 *   decode step    (671.0e9 + 1,159 x 70,272 x (4,096 + 512)) / (8 x 4.8e12)
 *                  = 27.2 ms (the compute, 13.7 ms, is less);
 *                  1,159 / (0.02725 x 1,024) = 41.54 requests/s
 *   pools          2 servers: 1 prefill + 1 decode, serving
 *                  min(20.59, 41.54) x 0.8 = 16.47 requests/s
 *   KV             70,272 x 4,096 = 287.8 MB a request;
 *                  16.47 x 287.8e6 x 8 = 37.9 Gb/s out of the prefill server
 *                  and into the decode one, 1.2% of its 3,179.8 Gb/s of rails;
 *                  one request over the 8 rails: 2.303e9 / 3.18e12 = 0.72 ms
 *   expert parallel per prompt, all inside the server (EP 8 over NVLink):
 *                  58 x 4,096 x 7,168 x 8 x (1.03125 + 2) x 7/8 = 36.13 GB,
 *                  none over RDMA; with a bf16 dispatch (2 + 2 B) 47.68 GB
 */
static void deepseek_split_2x8_h200(void **state)
{
	struct nicfit_serving_ask a;
	struct nicfit_serving_params p;
	struct nicfit_step_params sp;
	struct nicfit_serving s;

	(void)state;
	nicfit_serving_params_default(&p);
	nicfit_step_params_default(&sp);
	ask_of(&a, "deepseek-v3", "h200-sxm-141gb", NICFIT_PREC_FP8, 1, 8);
	a.prompt_tokens = 4096;
	a.output_tokens = 1024;
	a.ttft_s = 2;
	a.tpot_s = 0.05;
	a.servers = 2;
	a.rails_gbps = 8 * 397.4770;
	a.rails = 8;
	assert_int_equal(a.job.ep, 8);
	assert_near(a.kv_bytes_per_token, 70272, 1e-9);
	assert_near(a.kv_room_gb, 417.18, 0.01);
	assert_int_equal(nicfit_serving_calc(&a, &sp, &p, &s, NULL), 0);
	assert_near(s.prefill_s, 2 * a.job.arch.active_params * 4096 / (8 * 1979e12 * 0.4), 1e-12);
	assert_near(s.prefill_s, 0.04858, 0.00001);
	assert_near(s.batch_mem, 1159, 1e-9);
	assert_near(s.batch_tpot, 3857, 1e-9);
	assert_string_equal(s.batch_by, "memory");
	assert_near(s.decode_step_s, 0.02725, 0.00001);
	assert_near(s.decode_rps, 41.54, 0.01);
	assert_int_equal(s.prefill_servers, 1);
	assert_int_equal(s.decode_servers, 1);
	assert_near(s.rps, 16.47, 0.01);
	assert_near(s.kv_bytes_per_request, 287834112.0, 1e-3);
	assert_near(s.kv_prefill_node_gbps, 37.92, 0.01);
	assert_near(s.kv_decode_share, 0.0119, 0.0001);
	assert_near(s.kv_request_s, 0.000724, 0.000001);
	assert_true(s.ttft_ok && s.tpot_ok);
	assert_near(s.ep_prompt_bytes / 1e9, 36.13, 0.01);
	assert_near(s.ep_prompt_net_bytes, 0, 1e-9);
	sp.dispatch_bytes = 2;
	assert_int_equal(nicfit_serving_calc(&a, &sp, &p, &s, NULL), 0);
	assert_near(s.ep_prompt_bytes / 1e9, 47.68, 0.01);
}

/*
 * The same pools sized from a target of 50 requests/s instead:
 * ceil(50 / (20.59 x 0.8)) = 4 prefill servers and ceil(50 / (41.54 x
 * 0.8)) = 2 decode servers, 6 in all; they serve min(4 x 16.47, 2 x
 * 33.23) = 65.9 requests/s. The 2 servers given serve 16.47 of the 50.
 * KV offload to storage at the default hit rate 0.5: 2,048 of the 4,096
 * tokens are read back, 143.9 MB a request, and 2,048 prefilled: 24.3 ms,
 * 41.17 requests/s an instance, so ceil(50 / 32.94) = 2 prefill servers
 * serve min(2 x 32.94, 2 x 33.23) = 65.9; each reads 65.87 x 143.9e6 x 8
 * / 2 = 37.9 Gb/s back over 2 x 400GbE storage ports at 90% (720 Gb/s),
 * 5.3% of them, and TTFT gains 143.9e6 x 8 / 720e9 = 1.6 ms.
 */
static void deepseek_pools_from_target(void **state)
{
	struct nicfit_serving_ask a;
	struct nicfit_serving_params p;
	struct nicfit_step_params sp;
	struct nicfit_serving s;

	(void)state;
	nicfit_serving_params_default(&p);
	nicfit_step_params_default(&sp);
	ask_of(&a, "deepseek-v3", "h200-sxm-141gb", NICFIT_PREC_FP8, 1, 8);
	a.prompt_tokens = 4096;
	a.output_tokens = 1024;
	a.ttft_s = 2;
	a.tpot_s = 0.05;
	a.rps = 50;
	assert_int_equal(nicfit_serving_calc(&a, &sp, &p, &s, NULL), 0);
	assert_int_equal(s.prefill_servers, 4);
	assert_int_equal(s.decode_servers, 2);
	assert_near(s.need_servers, 6, 1e-9);
	assert_near(s.rps, 65.87, 0.01);
	a.offload = NICFIT_OFFLOAD_STORAGE;
	a.storage_gbps = 720;
	assert_int_equal(nicfit_serving_calc(&a, &sp, &p, &s, NULL), 0);
	assert_near(s.prefill_s, 0.02429, 0.00001);
	assert_int_equal(s.prefill_servers, 2);
	assert_int_equal(s.decode_servers, 2);
	assert_near(s.rps, 65.87, 0.01);
	assert_near(s.offload_bytes_per_request / 1e6, 143.92, 0.01);
	assert_near(s.offload_node_gbps, 37.92, 0.01);
	assert_near(s.offload_share, 0.0527, 0.0001);
	assert_near(s.ttft_s - s.prefill_s, 143.917e6 * 8 / 720e9, 1e-6);
	a.offload = NICFIT_OFFLOAD_NONE;
	a.servers = 2;
	assert_int_equal(nicfit_serving_calc(&a, &sp, &p, &s, NULL), 0);
	assert_near(s.need_servers, 6, 1e-9);
	assert_near(s.rps, 16.47, 0.01);
	/* a TPOT no step can meet: one sequence still takes 17.5 ms to read the weights */
	a.tpot_s = 0.01;
	assert_int_equal(nicfit_serving_calc(&a, &sp, &p, &s, NULL), 0);
	assert_false(s.tpot_ok);
	/* one server cannot hold two pools */
	a.servers = 1;
	assert_int_equal(nicfit_serving_calc(&a, &sp, &p, &s, NULL), NICFIT_E_USAGE);
}

/*
 * Llama 3.1 405B (405.85e9 parameters) trained on 32 DGX H100, every rank
 * writing its shard (distributed checkpoint):
 *   full state     405.85e9 x 14 B = 5.682 TB a checkpoint
 *   per node       5.682e12 / 32 = 177.6 GB
 *   rate           the storage ports (2 x 400GbE at 90% = 720 Gb/s = 90 GB/s)
 *                  are above SuperPOD's "over 40 GBps" a node: 40 GB/s
 *   one save       177.6e9 / 40e9 = 4.44 s; every 30 minutes that is 0.25%
 *   within 2 s     177.6e9 x 8 / 2 = 710.3 Gb/s a node
 * Not sharded (one replica of TP 8 x PP 16 over 16 nodes writes it): 355.1
 * GB a node, 8.88 s. Weights alone at bf16: 811.7 GB, 0.63 s. A storage
 * system of 500 GB/s in all: 5.682e12 / 500e9 = 11.36 s.
 */
static void ckpt_405b_32_dgx(void **state)
{
	struct nicfit_ckpt_params p;
	struct nicfit_ckpt_job j = { 0 };
	struct nicfit_ckpt c;

	(void)state;
	nicfit_ckpt_params_default(&p);
	j.params = 405.85e9;
	j.state = NICFIT_CKPT_FULL;
	j.weight_bytes = 2;
	j.nodes = 32;
	j.gpus_per_node = 8;
	j.model_nodes = 16;
	j.sharded = 1;
	j.node_gbps = 720;
	j.every_s = 1800;
	j.stall_s = 2;
	assert_int_equal(nicfit_ckpt_calc(&j, &p, &c, NULL), 0);
	assert_near(c.bytes / 1e12, 5.682, 0.001);
	assert_int_equal(c.writers, 32);
	assert_near(c.node_bytes / 1e9, 177.56, 0.01);
	assert_string_equal(c.limited_by, "node ceiling");
	assert_near(c.save_s, 4.439, 0.001);
	assert_near(c.share, 4.439 / 1800, 1e-6);
	assert_near(c.need_node_gbps, 710.2, 0.1);
	assert_false(c.within);
	j.sharded = 0;
	assert_int_equal(nicfit_ckpt_calc(&j, &p, &c, NULL), 0);
	assert_int_equal(c.writers, 16);
	assert_near(c.save_s, 8.878, 0.001);
	j.sharded = 1;
	j.state = NICFIT_CKPT_WEIGHTS;
	assert_int_equal(nicfit_ckpt_calc(&j, &p, &c, NULL), 0);
	assert_near(c.bytes / 1e9, 811.7, 0.1);
	assert_near(c.save_s, 0.634, 0.001);
	j.state = NICFIT_CKPT_FULL;
	p.system_gbs = 500;
	assert_int_equal(nicfit_ckpt_calc(&j, &p, &c, NULL), 0);
	assert_string_equal(c.limited_by, "storage system");
	assert_near(c.save_s, 11.364, 0.001);
	/* a 200G storage port (180 Gb/s goodput) sets the rate itself */
	p.system_gbs = 0;
	j.node_gbps = 180;
	assert_int_equal(nicfit_ckpt_calc(&j, &p, &c, NULL), 0);
	assert_string_equal(c.limited_by, "storage NICs");
	assert_near(c.save_s, 177.56e9 / 22.5e9, 0.001);
	j.stall_s = 3600;
	assert_int_equal(nicfit_ckpt_calc(&j, &p, &c, NULL), NICFIT_E_USAGE);
}

/*
 * The same 405B checkpoint saved asynchronously (PyTorch DCP async_save):
 * each server's 177.6 GB is first copied to host memory by its 8 H100s
 * over PCIe Gen5 x16 (412.4 Gb/s = 51.55 GB/s each, calc pcie): 177.56e9
 * / (8 x 51.55e9) = 0.431 s, the stall, 0.024% of 30 minutes; the 4.44 s
 * write runs behind training and must end before the next save: 177.56e9
 * x 8 / 1800 = 0.79 Gb/s a server. A 0.2 s stall budget is missed by the
 * copy; saved every 4 s the write (4.44 s) does not finish in time.
 */
static void ckpt_405b_async(void **state)
{
	struct nicfit_ckpt_params p;
	struct nicfit_ckpt_job j = { 0 };
	struct nicfit_ckpt c;

	(void)state;
	nicfit_ckpt_params_default(&p);
	j.params = 405.85e9;
	j.state = NICFIT_CKPT_FULL;
	j.nodes = 32;
	j.gpus_per_node = 8;
	j.model_nodes = 16;
	j.sharded = 1;
	j.node_gbps = 720;
	j.every_s = 1800;
	j.stall_s = 2;
	j.async = 1;
	j.host_gbs = 412.4 / 8;
	assert_int_equal(nicfit_ckpt_calc(&j, &p, &c, NULL), 0);
	assert_near(c.save_s, 4.439, 0.001);
	assert_near(c.copy_gbs, 412.4, 1e-9);
	assert_near(c.copy_s, 177.56e9 / 412.4e9, 0.001);
	assert_near(c.copy_s, 0.4306, 0.0001);
	assert_near(c.stall_s, c.copy_s, 1e-12);
	assert_near(c.share, 0.4306 / 1800, 1e-6);
	assert_near(c.need_node_gbps, 177.56e9 * 8 / 1800 / 1e9, 0.001);
	assert_near(c.need_node_gbps, 0.789, 0.001);
	assert_true(c.within);
	j.stall_s = 0.2;
	assert_int_equal(nicfit_ckpt_calc(&j, &p, &c, NULL), 0);
	assert_false(c.within);
	j.stall_s = 0;
	j.every_s = 4;
	assert_int_equal(nicfit_ckpt_calc(&j, &p, &c, NULL), 0);
	assert_false(c.within);
	/* ckpt_host_gbs overrides the PCIe link: 25 GB/s a GPU, 200 GB/s a server */
	p.host_gbs = 25;
	assert_int_equal(nicfit_ckpt_calc(&j, &p, &c, NULL), 0);
	assert_near(c.copy_s, 177.56e9 / 200e9, 0.001);
	j.host_gbs = 0;
	p.host_gbs = 0;
	assert_int_equal(nicfit_ckpt_calc(&j, &p, &c, NULL), NICFIT_E_USAGE);
}

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

/*
 * The DeepSeek-V3 split of deepseek_split_2x8_h200 as `nicfit plan
 * --server xe9680 --gpu h200-sxm-141gb --servers 2 --model deepseek-v3
 * --disaggregated --prompt-tokens 4096 --tpot-ms 50` plans it: 1 prefill
 * + 1 decode server, the same 16.47 requests/s and 37.9 Gb/s of KV cache
 * a prefill server. Every instance is one server, so the KV cache is the
 * only GPU traffic between servers, and --kv-over auto (R2) checks it
 * against the storage/in-band NICs (2 x 200GbE ConnectX-7, RoCE, 376.6
 * Gb/s of goodput bonded): 37.9 <= 0.5 x 376.6 = 188.3 Gb/s
 * (kv_storage_share), one request 287.834e6 x 8 / 376.6e9 = 6.11 ms, TTFT
 * 48.6 + 6.1 = 54.7 ms within 2 s: the cache goes over them and no back
 * end is planned. The first pass's back end (eight 400G RoCE rails,
 * ConnectX-7 at 392.15 Gb/s goodput each, 3,137.2 Gb/s a server) would
 * carry it in 2.303e9 / 3.1372e12 = 0.734 ms: the trade-off R9 names.
 * --kv-over backend plans that back end: 0.734 ms, 1.2% of the decode
 * server's rails. The expert-parallel all-to-all (36.13 GB a prompt)
 * stays on NVLink. No replicas-first: the split is of the work, not of
 * the model. A target of 50 requests/s is not met (6 servers).
 */
static void plan_deepseek_disaggregated(void **state)
{
	static const char *const kv[] = { "server", "xe9680", "gpu", "h200-sxm-141gb", "servers",
		"2", "model", "deepseek-v3", "disaggregated", "true", "prompt_tokens", "4096",
		"tpot_ms", "50", "requests_per_s", "50", NULL };
	static const char *const be[] = { "server", "xe9680", "gpu", "h200-sxm-141gb", "servers",
		"2", "model", "deepseek-v3", "disaggregated", "true", "prompt_tokens", "4096",
		"tpot_ms", "50", "requests_per_s", "50", "kv_over", "backend", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_false(p->backend_needed);
	assert_true(p->kv_storage);
	assert_true(p->in.kv_over_auto);
	assert_true(p->fits_one_server);
	assert_true(p->serving_known);
	assert_int_equal(p->serving.prefill_servers, 1);
	assert_int_equal(p->serving.decode_servers, 1);
	assert_near(p->serving.rps, 16.47, 0.01);
	assert_near(p->serving.kv_prefill_node_gbps, 37.92, 0.01);
	assert_near(p->st_node_gbps, 376.6, 0.1);
	assert_near(p->serving.kv_request_s, 287834112.0 * 8 / (p->st_node_gbps * 1e9), 1e-9);
	assert_near(p->serving.kv_request_s, 0.00611, 0.00001);
	assert_near(p->serving.ttft_s, 0.0547, 0.0001);
	assert_near(p->in.kv_backend_s, 0.000734, 0.000001);
	assert_near(p->serving.ep_prompt_bytes / 1e9, 36.13, 0.01);
	assert_near(p->serving.ep_prompt_net_bytes, 0, 1e-9);
	assert_near(p->serving.need_servers, 6, 1e-9);
	assert_non_null(finding(p, "serving-target-unmet"));
	assert_null(finding(p, "replicas-first"));
	assert_null(finding(p, "kv-transfer-slow"));
	assert_non_null(strstr(p->verdict, "1 prefill + 1 decode server"));
	assert_non_null(strstr(p->verdict, "no back-end fabric needed"));
	done(p);
	p = plan_of(be);
	assert_true(p->backend_needed);
	assert_false(p->kv_storage);
	assert_near(p->be_node_gbps, 3137.2, 0.1);
	assert_near(p->serving.kv_request_s, 0.000734, 0.000001);
	assert_near(p->serving.kv_decode_share, 0.0121, 0.0001);
	done(p);
}

/*
 * When the KV cache does not fit the storage NICs the back end stays: the
 * same split with --assume kv_storage_share=0.1: 37.9 Gb/s is more than
 * 0.1 x 376.6 = 37.7 Gb/s of the storage/in-band NICs, so R2 keeps the
 * back end and says why.
 */
static void plan_deepseek_kv_stays_on_backend(void **state)
{
	static const char *const kv[] = { "server", "xe9680", "gpu", "h200-sxm-141gb", "servers",
		"2", "model", "deepseek-v3", "disaggregated", "true", "prompt_tokens", "4096",
		"tpot_ms", "50", "assume", "kv_storage_share=0.1", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	/* 37.9 Gb/s > 0.1 x 376.6 = 37.7 Gb/s: over the share, so the back end stays */
	assert_true(p->backend_needed);
	assert_false(p->kv_storage);
	assert_false(p->kv_storage_fits);
	assert_near(p->serving.kv_prefill_node_gbps, 37.92, 0.01);
	done(p);
}

/*
 * Each pool its own instance: DeepSeek-V3 on 4 XE9680 with H200, decode
 * on 16 GPUs over 2 servers (--decode-gpus 16 --decode-pp 1: TP 8 x PP 1,
 * EP 16), prefill on one server (R1's). The decode instance holds
 * 2 x 1,090.1 - 672.9 = 1,507.2 GB of KV cache: 1,507.2e9 / (70,272 x
 * 5,120) = 4,189 sequences (TPOT allows 0.05 x 16 x 1979e12 x 0.4 /
 * (2 x 37.55e9) = 8,431). Its memory step reads the 671.0 GB of fp8
 * weights (the step model's count, without R1's scales) and the mean
 * caches: (671.0e9 + 4,189 x 70,272 x 4,608) / (16 x 4.8e12) = 26.4 ms.
 * EP 16 over 2 servers sends, with DeepEP's low-latency kernels, 58
 * layers x 2,094.5 tokens a server x 7,168 x 8 x 1/2 copies x 3.03125 B = 10.56 GB a server a step, over
 * 3,137.2 Gb/s of rails 26.9 ms, plus 58 x 2 (dispatch, combine)
 * latencies of 10 us: 28.1 ms, of which 67% of 26.4 ms = 17.7 ms hides:
 * the step grows by 10.4 ms to 36.8 ms (within the 50 ms TPOT). An
 * instance serves 4,189 / (0.0368 x 1,024) = 111 requests/s, 55.6 a
 * server against 41.5 for a one-server instance. The instance spans
 * servers, so a back end is needed whatever --kv-over says. Best
 * split of 4 servers: 2 prefill (2 x 16.47) + 2 decode (1 instance,
 * 88.9 at 80%): 32.94 requests/s (the servers per request/s are what
 * --decode-gpus changes; the pools' rate is prefill-bound here).
 */
static void plan_deepseek_decode_pool_ep16(void **state)
{
	static const char *const kv[] = { "server", "xe9680", "gpu", "h200-sxm-141gb", "servers",
		"4", "model", "deepseek-v3", "disaggregated", "true", "prompt_tokens", "4096",
		"tpot_ms", "50", "decode_gpus", "16", "decode_pp", "1", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_serving_pool *d;
	double hidden;

	(void)state;
	assert_true(p->serving_known);
	assert_true(p->backend_needed);
	assert_false(p->kv_storage);
	d = &p->serving.pool[1];
	assert_int_equal(d->gpus, 16);
	assert_int_equal(d->nodes, 2);
	assert_int_equal(d->tp, 8);
	assert_int_equal(d->pp, 1);
	assert_int_equal(d->ep, 16);
	assert_int_equal(p->serving.pool[0].gpus, 8);
	assert_near(d->kv_room_gb, 1507.2, 0.1);
	assert_near(p->serving.decode_batch, 4189, 1e-9);
	assert_near(p->serving.batch_tpot, 8431, 1e-9);
	assert_near(p->serving.ep_decode_net_bytes / 1e9, 10.56, 0.01);
	assert_true(d->timed);
	assert_false(d->time.hides);
	hidden = 0.67 * d->step.compute_s;
	assert_near(d->step.compute_s, 0.02640, 0.00001);
	assert_near(d->time.stall_s, d->time.comm_s - hidden, 1e-9);
	assert_near(p->serving.decode_step_s, d->step.compute_s + d->time.stall_s, 1e-12);
	assert_near(d->step.hops, 116, 1e-9);
	assert_near(d->time.comm_s, 10.558e9 * 8 / 3137.2e9 + 116 * 10e-6, 0.0001);
	assert_true(p->serving.tpot_ok);
	assert_near(d->server_rps, p->serving.decode_rps / 2, 1e-9);
	assert_int_equal(p->serving.prefill_servers, 2);
	assert_int_equal(p->serving.decode_servers, 2);
	assert_int_equal(d->instances, 1);
	assert_near(p->serving.rps, 32.94, 0.01);
	done(p);
}

/*
 * The decode instance chosen from the target: DeepSeek-V3 on 8 XE9680
 * with a back end (--kv-over backend), 200 requests/s. R1's one-server
 * instances need ceil(200 / (20.59 x 0.8)) = 13 prefill and ceil(200 /
 * (41.54 x 0.8)) = 7 decode servers, 20. Two servers a decode instance
 * (plan_deepseek_decode_pool_ep16: 111.2 requests/s, 88.9 at 80%) need
 * ceil(200 / 88.9) = 3 instances, 6 servers: 19. Four (EP 32) would send
 * 8 x 3/4 = 6 copies of 2,562 tokens a server a step, 58 x 2,562 x 7,168
 * x 6 x 3.03125 = 19.4 GB, 49 ms over the rails against a 26 ms memory
 * step: a 58 ms step, over the 50 ms TPOT, so it is not taken. On the 8
 * servers given, 6 prefill (98.8) + 2 decode (one instance, 88.9) serve
 * 88.9 requests/s where R1's instances serve 5 x 16.47 = 82.3. Without
 * --kv-over backend the cache fits the storage NICs, no back end is
 * planned, and the decode instance stays one server.
 */
static void plan_deepseek_decode_chosen(void **state)
{
	static const char *const kv[] = { "server", "xe9680", "gpu", "h200-sxm-141gb", "servers",
		"8", "model", "deepseek-v3", "disaggregated", "true", "prompt_tokens", "4096",
		"tpot_ms", "50", "requests_per_s", "200", "kv_over", "backend", NULL };
	static const char *const st[] = { "server", "xe9680", "gpu", "h200-sxm-141gb", "servers",
		"8", "model", "deepseek-v3", "disaggregated", "true", "prompt_tokens", "4096",
		"tpot_ms", "50", "requests_per_s", "200", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_int_equal(p->serving.pool[1].gpus, 16);
	assert_int_equal(p->serving.pool[1].ep, 16);
	assert_near(p->serving.need_servers, 19, 1e-9);
	assert_int_equal(p->serving.prefill_servers, 6);
	assert_int_equal(p->serving.decode_servers, 2);
	assert_near(p->serving.rps, 88.94, 0.01);
	done(p);
	p = plan_of(st);
	assert_false(p->backend_needed);
	assert_int_equal(p->serving.pool[1].gpus, 8);
	assert_near(p->serving.need_servers, 20, 1e-9);
	assert_near(p->serving.rps, 82.34, 0.01);
	done(p);
}

/*
 * A prefill instance smaller than a server: Llama 3.1 70B on 4 DGX H100
 * with --prefill-tp 4 (two prefill instances a server). One 8K prompt on
 * 4 GPUs: 2 x 70.55e9 x 8,192 / (4 x 989e12 x 0.4) = 730.6 ms, 1.369
 * requests/s an instance, 2.738 a server. Decode on R1's server: 6.99
 * requests/s (plan_70b_8k_offload's figures without the offload). Best
 * split of 4: 3 prefill servers (6 instances, 6 x 1.095 = 6.57) + 1
 * decode (5.59 at 80%): 5.59 requests/s. One request's 2.684 GB cache
 * leaves half a server's storage NICs (the smaller instance's share):
 * 2.684e9 x 8 / (0.5 x 376.6e9) = 114 ms.
 */
static void plan_70b_prefill_tp4(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "4", "model",
		"llama-3.1-70b", "disaggregated", "true", "prompt_tokens", "8192", "prefill_tp", "4",
		NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_true(p->serving_known);
	assert_int_equal(p->serving.pool[0].gpus, 4);
	assert_int_equal(p->serving.pool[0].tp, 4);
	assert_near(p->serving.prefill_s, 0.7306, 0.0001);
	assert_near(p->serving.pool[0].server_rps, 2.738, 0.001);
	assert_int_equal(p->serving.pool[0].instances, 6);
	assert_int_equal(p->serving.prefill_servers, 3);
	assert_int_equal(p->serving.decode_servers, 1);
	assert_near(p->serving.rps, 5.59, 0.01);
	assert_true(p->kv_storage);
	assert_near(p->serving.kv_request_s, 2684354560.0 * 8 / (0.5 * p->st_node_gbps * 1e9),
		    1e-9);
	done(p);
}

/*
 * Layer by layer (kv_layerwise): the 70B 8K prompt of calc step's
 * example on one DGX H100 instance, prefill 365 ms, its 2.684 GB cache
 * over eight NDR rails (3,179.8 Gb/s): 6.75 ms. Read after the prefill,
 * TTFT = 365 + 6.75 ms. Sent layer by layer while the 80 layers prefill,
 * all of it but the last layer's hides: exposed max(6.75 / 80, 6.75 -
 * 365) = 84 us. Over one rail (397.5 Gb/s, 54 ms) it still hides. Over
 * one 10 Gb/s link the cache takes 2.684e9 x 8 / 10e9 = 2.147 s, longer
 * than the prefill: exposed 2.147 - 0.365 = 1.78 s.
 */
static void kv_layerwise_overlap(void **state)
{
	struct nicfit_serving_ask a;
	struct nicfit_serving_params p;
	struct nicfit_step_params sp;
	struct nicfit_serving s;
	double t;

	(void)state;
	nicfit_serving_params_default(&p);
	nicfit_step_params_default(&sp);
	ask_of(&a, "llama-3-70b", "h100-sxm5-80gb", NICFIT_PREC_BF16, 1, 8);
	a.prompt_tokens = 8192;
	a.output_tokens = 1024;
	a.ttft_s = 2;
	a.tpot_s = 0.2;
	a.servers = 2;
	a.rails_gbps = 8 * 397.4770;
	assert_int_equal(nicfit_serving_calc(&a, &sp, &p, &s, NULL), 0);
	t = 2684354560.0 * 8 / (8 * 397.4770e9);
	assert_near(s.prefill_s, 0.3653, 0.0001);
	assert_near(s.kv_request_s, t, 1e-9);
	assert_near(s.kv_exposed_s, t, 1e-12);
	assert_near(s.ttft_s, s.prefill_s + t, 1e-12);
	assert_false(s.kv_hidden);
	p.kv_layerwise = 1;
	assert_int_equal(nicfit_serving_calc(&a, &sp, &p, &s, NULL), 0);
	assert_true(s.kv_hidden);
	assert_near(s.kv_exposed_s, t / 80, 1e-12);
	assert_near(s.kv_exposed_s, 0.000084, 0.000001);
	a.rails_gbps = 397.4770;
	assert_int_equal(nicfit_serving_calc(&a, &sp, &p, &s, NULL), 0);
	assert_near(s.kv_request_s, 0.0540, 0.0001);
	assert_true(s.kv_hidden);
	a.rails_gbps = 10;
	assert_int_equal(nicfit_serving_calc(&a, &sp, &p, &s, NULL), 0);
	assert_false(s.kv_hidden);
	assert_near(s.kv_exposed_s, 2684354560.0 * 8 / 10e9 - s.prefill_s, 1e-9);
	assert_near(s.kv_exposed_s, 1.782, 0.001);
}

/*
 * calc step --disaggregated and plan size pools alike: Llama 3.1 70B 8K
 * prompts, one DGX H100 an instance: prefill 2.74 and decode 6.99
 * requests/s an instance; for 10 requests/s at 80%: ceil(10 / 2.19) = 5
 * prefill and ceil(10 / 5.59) = 2 decode servers, 7 (calc step's golden
 * calc-step-disaggregated-pools says the same).
 */
static void plan_70b_pools_for_target(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "2", "model",
		"llama-3.1-70b", "disaggregated", "true", "prompt_tokens", "8192", "requests_per_s",
		"10", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_true(p->serving_known);
	assert_near(p->serving.prefill_rps, 2.738, 0.001);
	assert_near(p->serving.decode_rps, 6.99, 0.01);
	assert_near(p->serving.need_servers, 7, 1e-9);
	done(p);
}

/*
 * Llama 3.1 70B (327,680 B of KV a token) with 8K prompts on 4 DGX H100,
 * offloading KV to host memory: half of each prompt (4,096 tokens) is
 * read back, 1.342 GB a request, and 4,096 tokens are prefilled:
 * 2 x 70.55e9 x 4,096 / (8 x 989e12 x 0.4) = 182.6 ms, 5.48 requests/s
 * an instance. Decode: the 618.5 - 141.1 = 477.4 GB left hold
 * 477.4e9 / (327,680 x 9,216) = 158 sequences, a step of (141.1e9 + 158
 * x 327,680 x 8,704) / (8 x 3.35e12) = 22.6 ms, 158 / (0.0226 x 1,024) =
 * 6.83 requests/s an instance. Best split of 4: 2 + 2 (min(2 x 4.38, 2
 * x 5.46) = 8.77 requests/s at 80%); the KV cache is 2.684 GB a request,
 * 8.77 x 2.684e9 x 8 / 2 = 94.2 Gb/s out of each prefill server.
 */
static void plan_70b_8k_offload(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "4", "model",
		"llama-3.1-70b", "disaggregated", "true", "prompt_tokens", "8192", "kv_offload", "cpu",
		NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_true(p->serving_known);
	assert_near(p->serving.kv_bytes_per_request / 1e9, 2.684, 0.001);
	assert_near(p->serving.offload_bytes_per_request / 1e9, 1.342, 0.001);
	assert_near(p->serving.prefill_s, 0.1826, 0.0001);
	assert_near(p->serving.decode_batch, 158, 1e-9);
	assert_int_equal(p->serving.prefill_servers, 2);
	assert_int_equal(p->serving.decode_servers, 2);
	assert_near(p->serving.kv_prefill_node_gbps,
		    p->serving.rps * 2684354560.0 * 8 / 2 / 1e9, 1e-9);
	assert_true(p->serving.offload_link_gbps > 0);
	assert_null(finding(p, "kv-offload-slow"));
	done(p);
}

/*
 * Llama 3.1 405B at bf16 on 2 GB200 NVL72 racks (36 trays of 4 Blackwell)
 * asked as multi-node inference: it needs 2 trays (947 GB with the KV
 * cache of 64 requests against 719 GB a tray) and fits one 72-GPU NVLink
 * domain of 18 trays, 9 replicas a rack, 18 in all, each on NVLink alone:
 * replicas-first, and the verdict recommends them.
 */
static void plan_nvl72_replicas_first(void **state)
{
	static const char *const kv[] = { "server", "gb200-nvl72", "racks", "2", "model",
		"llama-3.1-405b", "workload", "multi-node-inference", "concurrency", "64", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_int_equal(p->servers_needed, 2);
	assert_false(p->fits_one_server);
	assert_true(p->replicas_first);
	assert_true(p->replicas_domain);
	assert_int_equal(p->replicas, 18);
	assert_non_null(finding(p, "replicas-first"));
	assert_non_null(strstr(p->verdict, "18 replicas"));
	assert_true(p->replicas_tok_s >= p->split_tok_s);
	done(p);
}

/*
 * The 405B checkpoint of ckpt_405b_32_dgx in a plan of 32 DGX H100
 * training: the storage/in-band cards carry 376.6 Gb/s (47 GB/s) a
 * server, above SuperPOD's 40 GB/s, so a sharded save of 177.6 GB a
 * server takes 4.44 s; within a 2 s budget it needs 710.2 Gb/s a server:
 * checkpoint-stall.
 */
static void plan_405b_checkpoint(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "32", "model",
		"llama-3.1-405b", "workload", "training", "checkpoint_every", "30",
		"checkpoint_stall", "2", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_true(p->ckpt_known);
	assert_near(p->ckpt.bytes / 1e12, 5.682, 0.001);
	assert_int_equal(p->ckpt.writers, 32);
	assert_near(p->st_node_gbps, 376.6, 0.1);
	assert_string_equal(p->ckpt.limited_by, "node ceiling");
	assert_near(p->ckpt.save_s, 4.439, 0.001);
	assert_near(p->ckpt.need_node_gbps, 710.2, 0.1);
	assert_non_null(finding(p, "checkpoint-stall"));
	done(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deepseek_split_2x8_h200),
		cmocka_unit_test(deepseek_pools_from_target),
		cmocka_unit_test(ckpt_405b_32_dgx),
		cmocka_unit_test(ckpt_405b_async),
		cmocka_unit_test(plan_deepseek_disaggregated),
		cmocka_unit_test(plan_deepseek_kv_stays_on_backend),
		cmocka_unit_test(plan_deepseek_decode_pool_ep16),
		cmocka_unit_test(plan_deepseek_decode_chosen),
		cmocka_unit_test(plan_70b_prefill_tp4),
		cmocka_unit_test(kv_layerwise_overlap),
		cmocka_unit_test(plan_70b_pools_for_target),
		cmocka_unit_test(plan_70b_8k_offload),
		cmocka_unit_test(plan_nvl72_replicas_first),
		cmocka_unit_test(plan_405b_checkpoint),
	};

	return cmocka_run_group_tests_name("serving", tests, catalog_setup, catalog_teardown);
}
