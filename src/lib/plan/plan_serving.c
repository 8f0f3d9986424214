/*
 * plan_serving.c - R9, disaggregated serving in a plan: the prefill and
 * decode pools of the servers asked (or of a target), the KV cache each
 * request moves between them over the back-end rails, and its offload to
 * host memory or storage (the model is nicfit/serving.h; the sources are
 * docs/reference/inference-serving.md 4, 5). The KV cache of every
 * prompt crosses servers over RDMA (NIXL, Mooncake's transfer engine),
 * GPU memory to GPU memory: over a back end, or, when every instance
 * stays inside one server and the cache fits kv_storage_share of the
 * storage/in-band RoCE NICs within the TTFT target, over those, with no
 * back end (the seed's rule: no back end where none is needed;
 * --kv-over chooses).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/kv.h"
#include "nicfit/pcie.h"
#include "nicfit/serving.h"
#include "nicfit/units.h"
#include "core/num_int.h"
#include "plan/plan_int.h"

static int is_set(const char *v)
{
	return v && strcasecmp(v, "false") && strcmp(v, "0");
}

/* An option of disaggregated serving given without --disaggregated, or the reverse. */
static int serving_only(struct nicfit_reader *r, const char *const *keys)
{
	int i;

	for (i = 0; keys[i]; i++)
		if (nicfit_spec_get(r->s, keys[i]))
			return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
							     nicfit_reader_opt(r, keys[i]), 0, 0,
							     "a setting of disaggregated serving: give "
							     "--disaggregated too"));
	return 0;
}

/* A choice's parse error (rc) named by its option, as the number readers name theirs. */
static int named(struct nicfit_reader *r, const char *key, int rc)
{
	if (rc && r->err && !r->err->input[0])
		snprintf(r->err->input, sizeof(r->err->input), "%s", nicfit_reader_opt(r, key));
	return nicfit_reader_fail(r, rc);
}

static int read_ckpt(struct nicfit_reader *r, struct nicfit_plan_input *in)
{
	static const char *const keys[] = { "checkpoint_every", "checkpoint_stall",
					    "checkpoint_state", "checkpoint_async", NULL };
	const char *v;
	double min;
	int rc, i;

	nicfit_ckpt_params_default(&in->ckpt);
	if (in->workload != NICFIT_WL_TRAINING && in->workload != NICFIT_WL_FINETUNING) {
		for (i = 0; keys[i]; i++)
			if (nicfit_spec_get(r->s, keys[i]))
				return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
							     nicfit_reader_opt(r, keys[i]), 0, 0,
							     "checkpoints are written by training: give "
							     "--workload training or fine-tuning"));
		return 0;
	}
	if ((rc = nicfit_reader_double(r, "checkpoint_every", 0, 0.1, 1e6, &min)) ||
	    (rc = nicfit_reader_double(r, "checkpoint_stall", 0, 0.01, 1e8, &in->ckpt_stall_s)))
		return rc;
	in->ckpt_every_s = min * 60;
	if (in->ckpt_every_s > 0 && in->ckpt_stall_s > in->ckpt_every_s)
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						     nicfit_reader_opt(r, "checkpoint_stall"), 0, 0,
						     "a stall of %g s is longer than the %g minutes between "
						     "saves", in->ckpt_stall_s, min));
	in->ckpt_async = is_set(nicfit_spec_get(r->s, "checkpoint_async"));
	if (in->ckpt_async && !(in->ckpt_every_s > 0 || in->ckpt_stall_s > 0))
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						     nicfit_reader_opt(r, "checkpoint_async"), 0, 0,
						     "an asynchronous save needs --checkpoint-every or "
						     "--checkpoint-stall"));
	v = nicfit_reader_get(r, "checkpoint_state");
	in->ckpt_state = NICFIT_CKPT_FULL;
	if (v && (rc = named(r, "checkpoint_state", nicfit_ckpt_state_parse(v, &in->ckpt_state,
									      r->err))))
		return rc;
	return 0;
}

/*
 * Each pool's instance as given: --prefill-gpus, --prefill-tp, -pp, -ep
 * and the same for decode (0: chosen). The GPUs fill whole servers or
 * divide one; TP x PP divides them; EP is at most them.
 */
static int read_pools(struct nicfit_reader *r, struct nicfit_plan_input *in)
{
	static const char *const k[2][4] = {
		{ "prefill_gpus", "prefill_tp", "prefill_pp", "prefill_ep" },
		{ "decode_gpus", "decode_tp", "decode_pp", "decode_ep" },
	};
	int gps = in->gpus_per_server > 0 ? in->gpus_per_server : 1, i, j, rc;
	long v[4];

	for (i = 0; i < 2; i++) {
		struct nicfit_serving_shape *sh = &in->pool_given[i];
		long g;

		for (j = 0; j < 4; j++)
			if ((rc = nicfit_reader_long(r, k[i][j], 0, 1, 100000, &v[j])))
				return rc;
		g = v[0] ? v[0] : v[1] || v[2] ? (v[1] ? v[1] : 1) * (v[2] ? v[2] : 1) : v[3];
		if (g && ((g % gps && gps % g) || g > (long)in->servers * gps))
			return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
							     nicfit_reader_opt(r, k[i][v[0] ? 0 : v[1] ? 1 : v[2] ? 2 : 3]),
							     0, 0, "a %s instance of %ld GPUs must fill whole "
							     "servers of %d or divide one, within the %d "
							     "asked", i ? "decode" : "prefill", g, gps,
							     in->servers));
		if (g && ((v[1] ? v[1] : 1) * (v[2] ? v[2] : 1) > g ||
			  g % ((v[1] ? v[1] : 1) * (v[2] ? v[2] : 1)) || v[3] > g))
			return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
							     nicfit_reader_opt(r, k[i][v[1] ? 1 : v[2] ? 2 : 3]),
							     0, 0, "TP x PP must divide the %s instance's %ld "
							     "GPUs and EP be at most them",
							     i ? "decode" : "prefill", g));
		sh->gpus = (int)v[0];
		sh->tp = (int)v[1];
		sh->pp = (int)v[2];
		sh->ep = (int)v[3];
	}
	return 0;
}

/*
 * --disaggregated and its settings (--prompt-tokens, --output-tokens,
 * --requests-per-s, --ttft-ms, --tpot-ms, --prefill-servers,
 * --kv-offload), and the checkpoint's (--checkpoint-every minutes,
 * --checkpoint-stall seconds, --checkpoint-state).
 */
int nicfit__plan_read_serving(struct nicfit_reader *r, struct nicfit_plan_input *in)
{
	static const char *const keys[] = { "prompt_tokens", "output_tokens", "requests_per_s",
					    "ttft_ms", "tpot_ms", "prefill_servers", "kv_offload",
					    "prefill_gpus", "prefill_tp", "prefill_pp", "prefill_ep",
					    "decode_gpus", "decode_tp", "decode_pp", "decode_ep",
					    "kv_over", NULL };
	const char *v;
	double ms;
	long l;
	int rc;

	nicfit_serving_params_default(&in->serving);
	if ((rc = read_ckpt(r, in)))
		return rc;
	in->disagg = is_set(nicfit_spec_get(r->s, "disaggregated"));
	if (!in->disagg)
		return serving_only(r, keys);
	if (in->workload != NICFIT_WL_INFERENCE && in->workload != NICFIT_WL_MULTINODE_INFERENCE)
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						     nicfit_reader_opt(r, "disaggregated"), 0, 0,
						     "disaggregated serving is inference: give --workload "
						     "inference or multi-node-inference"));
	if (in->servers < 2)
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						     nicfit_reader_opt(r, "disaggregated"), 0, 0,
						     "disaggregated serving puts prefill and decode on "
						     "different servers: give --servers 2 or more"));
	if ((rc = nicfit_reader_double(r, "prompt_tokens", (double)(in->context > 0 ? in->context : 4096),
				       1, 1e8, &in->prompt_tokens)) ||
	    (rc = nicfit_reader_double(r, "output_tokens", 1024, 1, 1e8, &in->output_tokens)) ||
	    (rc = nicfit_reader_double(r, "requests_per_s", 0, 0.001, 1e7, &in->requests_per_s)) ||
	    (rc = nicfit_reader_double(r, "ttft_ms", 2000, 1, 1e7, &ms)))
		return rc;
	in->ttft_s = ms / 1000;
	if ((rc = nicfit_reader_double(r, "tpot_ms", 200, 0.1, 1e6, &ms)))
		return rc;
	in->tpot_s = ms / 1000;
	/* the default prompt (the context) leaves room for the answer in the model's context */
	if (!nicfit_spec_get(r->s, "prompt_tokens") && in->model && in->model->context_max &&
	    in->prompt_tokens + in->output_tokens > (double)in->model->context_max &&
	    in->model->context_max > in->output_tokens)
		in->prompt_tokens = (double)in->model->context_max - in->output_tokens;
	if (in->model && in->model->context_max &&
	    in->prompt_tokens + in->output_tokens > (double)in->model->context_max)
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						     nicfit_reader_opt(r, nicfit_spec_get(r->s,
							"prompt_tokens") ? "prompt_tokens" : "output_tokens"),
						     0, 0, "%.0f + %.0f tokens is longer than %s's context "
						     "of %ld", in->prompt_tokens, in->output_tokens,
						     in->model->e.name, in->model->context_max));
	if ((rc = nicfit_reader_long(r, "prefill_servers", 0, 1, in->servers - 1, &l)))
		return rc;
	in->prefill_servers = (int)l;
	v = nicfit_reader_get(r, "kv_offload");
	in->kv_offload = NICFIT_OFFLOAD_NONE;
	if (v && (rc = named(r, "kv_offload", nicfit_kv_offload_parse(v, &in->kv_offload, r->err))))
		return rc;
	v = nicfit_reader_get(r, "kv_over");
	in->kv_over = NICFIT_KV_OVER_AUTO;
	if (v && (rc = named(r, "kv_over", nicfit_kv_over_parse(v, &in->kv_over, r->err))))
		return rc;
	return read_pools(r, in);
}

/* An instance given wider than one server: its GPUs exchange traffic between servers. */
static int given_spans(const struct nicfit_plan_input *in)
{
	int i, gps = in->gpus_per_server;

	for (i = 0; i < 2; i++) {
		const struct nicfit_serving_shape *sh = &in->pool_given[i];

		if (sh->gpus > gps || sh->tp * (sh->pp ? sh->pp : 1) > gps || sh->ep > gps)
			return 1;
	}
	return 0;
}

/*
 * R2 for a disaggregated plan. The KV cache crosses servers: over a back
 * end when one is there for other reasons (an instance spans servers) or
 * asked (--kv-over backend, or auto's first pass); over the storage/in-band
 * NICs when asked or when auto found it fits them (nicfit_plan's second
 * pass), with no back end at all when no other GPU traffic crosses
 * servers. Returns 1 when it applied.
 */
int nicfit__plan_serving_backend(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	int spans = !p->fits_one_server || given_spans(in);

	if (!in->disagg)
		return 0;
	p->kv_storage = in->kv_over == NICFIT_KV_OVER_STORAGE;
	p->backend_needed = !p->kv_storage || spans;
	if (p->kv_storage && !spans) {
		plan_decide(&p->decisions, "R2", 1,
			    "Disaggregated serving with every instance inside one server: the only GPU "
			    "traffic between servers is each prompt's KV cache, which %s over the "
			    "storage/in-band NICs (RoCE, GPUDirect RDMA; the front end where the server "
			    "has none; R9 has its rate and time): no back-end fabric%s.", in->kv_over_auto ? "fits" : "goes, as asked,",
			    in->kv_over_auto ? " where none is needed (--kv-over backend plans one)" :
			    "");
		return 1;
	}
	if (p->kv_storage)
		plan_decide(&p->decisions, "R2", 1,
			    "Disaggregated serving with an instance over several servers: its GPUs "
			    "exchange activations (or expert-parallel tokens) between servers every "
			    "step, so a back-end RDMA fabric is needed; the KV cache goes over the "
			    "storage/in-band NICs as asked.");
	else
		plan_decide(&p->decisions, "R2", 1,
			    "Disaggregated serving: prefill and decode run on different servers, and "
			    "every prompt's KV cache moves from a prefill GPU to a decode GPU over RDMA "
			    "(NIXL, Mooncake's transfer engine): back-end RDMA fabric needed%s.",
			    spans ? "" : in->kv_over == NICFIT_KV_OVER_BACKEND ?
			    ", as asked (--kv-over backend), though the model fits one server" :
			    ", though the model fits one server");
	return 1;
}

/* One server's goodput for the KV cache without a back end: the storage NICs, else the front end. */
static double kv_storage_gbps(const struct nicfit_plan *p)
{
	return p->st_node_gbps > 0 ? p->st_node_gbps : p->fe_goodput_gbps;
}

/* The NICs the KV cache crosses, in a sentence. */
static const char *kv_nics(const struct nicfit_plan *p)
{
	return !p->kv_storage ? "rails" : p->st_nic ? "storage/in-band NICs" : "front-end ports";
}

/* One server's GPU-to-host-memory rate, GB/s: the assumption, else the GPUs' PCIe links. */
static double host_gbs(const struct nicfit_plan *p, int gpus)
{
	const struct nicfit_gpu *g = p->in.gpu;
	struct nicfit_pcie_result r;

	if (p->in.serving.host_link_gbs > 0)
		return p->in.serving.host_link_gbs * gpus;
	if (!g || g->pcie_gen < 1 || g->pcie_width < 1 ||
	    nicfit_pcie_calc(g->pcie_gen, g->pcie_width, &p->in.pcie, &r, NULL))
		return 0;
	return r.effective_gbps / 8 * gpus;
}

/*
 * One pool's instance from what was given (in->pool_given[i]): its GPUs
 * (given; else TP x PP; else EP when wider than R1's; else R1's), TP (at
 * most a server), PP (the rest), EP (all its GPUs when they divide the
 * experts), and the memory the weights leave on it. Nothing given: gpus 0,
 * the job's own. Returns -1 when the instance does not hold the weights.
 */
static int pool_shape(const struct nicfit_plan *p, int i, int gpn, int min_gpus,
		      struct nicfit_serving_shape *sh)
{
	const struct nicfit_serving_shape *g = &p->in.pool_given[i];
	const struct nicfit_model *m = p->in.model;
	int gpus;

	memset(sh, 0, sizeof(*sh));
	if (!g->gpus && !g->tp && !g->pp && !g->ep)
		return 0;
	gpus = g->gpus ? g->gpus : g->tp || g->pp ? (g->tp ? g->tp : 1) * (g->pp ? g->pp : 1) :
	       g->ep > min_gpus ? g->ep : min_gpus;
	sh->gpus = gpus;
	sh->tp = g->tp ? g->tp : gpus < gpn ? gpus : gpn;
	sh->pp = g->pp ? g->pp : gpus / sh->tp > 0 ? gpus / sh->tp : 1;
	sh->ep = g->ep ? g->ep : m && m->experts > 1 && m->experts % gpus == 0 ? gpus : 1;
	sh->kv_room_gb = p->fit.capacity_gb / gpn * gpus - p->fit.weights_gb;
	return sh->kv_room_gb > 0 ? 0 : -1;
}

/* The request to nicfit_serving_calc from the plan. */
static int serving_ask(struct nicfit_plan *p, struct nicfit_serving_ask *a, char *why, size_t n)
{
	const struct nicfit_plan_input *in = &p->in;
	int u = p->servers_needed > 0 ? p->servers_needed : 1, i;
	int gpn = p->gpus_placed > 0 ? p->gpus_placed : in->gpus_per_server;
	const struct nicfit_model *m = in->model;

	memset(a, 0, sizeof(*a));
	if (!in->gpu || gpn < 1 || !p->fit_known)
		return -1;
	nicfit_step_job_fill(&a->job, m, in->params, in->gpu, in->precision, 0, &in->llm);
	a->job.nodes = u;
	a->job.gpus_per_node = gpn;
	a->job.tp = gpn;
	a->job.pp = u;
	if (m && m->experts > 1 && m->experts % (u * gpn) == 0)
		a->job.ep = u * gpn;
	for (i = 0; i < 2; i++)
		if (pool_shape(p, i, gpn, u * gpn, i ? &a->decode : &a->prefill)) {
			plan_fmt(why, n, "a %s instance of %d GPU%s holds %.1f GB, less than the "
				 "%.1f GB of weights", i ? "decode" : "prefill",
				 (i ? &a->decode : &a->prefill)->gpus,
				 (i ? &a->decode : &a->prefill)->gpus == 1 ? "" : "s",
				 p->fit.capacity_gb / gpn * (i ? &a->decode : &a->prefill)->gpus,
				 p->fit.weights_gb);
			return -1;
		}
	a->prompt_tokens = in->prompt_tokens;
	a->output_tokens = in->output_tokens;
	a->rps = in->requests_per_s;
	a->ttft_s = in->ttft_s;
	a->tpot_s = in->tpot_s;
	a->servers = in->servers;
	a->prefill_servers = in->prefill_servers;
	a->kv_bytes_per_token = m ? nicfit_kv_bytes_per_token(&m->arch, &in->llm) : 0;
	a->kv_room_gb = p->fit.capacity_gb * u - p->fit.weights_gb;
	a->rails_gbps = p->kv_storage ? kv_storage_gbps(p) : p->be_node_gbps;
	a->rails = p->kv_storage ? (p->st_cards > 0 ? p->st_cards : 1) :
		   p->rails > 0 ? p->rails : p->be_cards;
	a->be_gbps = p->backend_needed ? p->be_node_gbps : 0;
	a->latency_us = in->ar.latency_us;
	a->offload = in->kv_offload;
	p->serving_host_gbs = host_gbs(p, gpn);
	a->host_gbs = p->serving_host_gbs;
	a->storage_gbps = p->st_node_gbps;
	return 0;
}

/*
 * --kv-over auto: whether the KV cache would fit the storage/in-band
 * NICs instead of a back end (R2): every instance inside one server, a
 * RoCE card there, the cache's rate (with an offload read from storage)
 * within kv_storage_share of their goodput, and TTFT still met.
 */
static void kv_storage_check(struct nicfit_plan *p, struct nicfit_serving_ask *a)
{
	const struct nicfit_plan_input *in = &p->in;
	struct nicfit_serving alt;
	double st = p->st_node_gbps, load;

	if (in->kv_over != NICFIT_KV_OVER_AUTO || p->kv_storage || !p->fits_one_server ||
	    given_spans(in) || !p->st_nic || !(st > 0))
		return;
	a->rails_gbps = st;
	a->rails = p->st_cards > 0 ? p->st_cards : 1;
	if (nicfit_serving_calc(a, &in->step, &in->serving, &alt, NULL))
		return;
	load = fmax(alt.kv_prefill_node_gbps + (in->kv_offload == NICFIT_OFFLOAD_STORAGE ?
						  alt.offload_node_gbps : 0), alt.kv_decode_node_gbps);
	p->kv_storage_fits = load <= in->serving.kv_storage_share * st && alt.ttft_ok;
	if (!p->kv_storage_fits)
		plan_decide(&p->decisions, "R2", 1,
			    "The KV cache stays on the back end: over the storage/in-band NICs it "
			    "would take %.1f of their %.1f Gb/s (%.0f%%, kv_storage_share %.0f%%) and "
			    "TTFT would be %.0f ms (target %.0f ms).", load, st, load / st * 100,
			    in->serving.kv_storage_share * 100, alt.ttft_s * 1000, in->ttft_s * 1000);
}

/* "8 GPUs on 1 server, TP 8 x PP 1 x EP 8" for pool i. */
static const char *pool_name(const struct nicfit_plan *p, int i, char *buf, size_t n)
{
	const struct nicfit_serving_pool *pl = &p->serving.pool[i];
	const struct nicfit_serving_shape *g = &p->in.pool_given[i];

	plan_fmt(buf, n, "%d GPU%s on %s%d server%s, TP %d x PP %d x EP %d%s", pl->gpus,
		 pl->gpus == 1 ? "" : "s", pl->nodes == 1 && pl->gpus < p->in.gpus_per_server ?
		 "a share of " : "", pl->nodes, pl->nodes == 1 ? "" : "s", pl->tp, pl->pp, pl->ep,
		 g->gpus || g->tp || g->pp || g->ep ? ", as given" : "");
	return buf;
}

/* R9's account of the pools' instances and steps. */
static void describe_pools(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_serving *s = &p->serving;
	char b1[32], b2[32], n0[96], n1[96];
	int left;

	plan_decide(&p->decisions, "R9", 1,
		    "Prefill: one prompt of %.0f tokens on one instance (%s) takes %s (2 x active "
		    "parameters x tokens / (GPUs x peak x MFU): compute bound), %.2f requests/s an "
		    "instance, %.2f a server.", in->prompt_tokens, pool_name(p, 0, n0, sizeof(n0)),
		    nicfit_fmt_seconds(s->prefill_s, b1, sizeof(b1)), s->prefill_rps,
		    s->pool[0].server_rps);
	plan_decide(&p->decisions, "R9", 1,
		    "Decode: %.0f sequences an instance (%s; %s sets it: %.0f within TPOT %s, %.0f in "
		    "the %.1f GB of memory the weights leave, %.0f + %.0f tokens each), a %s step (the "
		    "weights and the mean KV cache read once a step, or the compute), %.2f requests/s "
		    "an instance, %.2f a server.", s->decode_batch, pool_name(p, 1, n1, sizeof(n1)),
		    s->batch_by, s->batch_tpot, nicfit_fmt_seconds(in->tpot_s, b1, sizeof(b1)),
		    s->batch_mem, s->pool[1].kv_room_gb, in->prompt_tokens, in->output_tokens,
		    nicfit_fmt_seconds(s->decode_step_s, b2, sizeof(b2)), s->decode_rps,
		    s->pool[1].server_rps);
	left = in->servers - s->prefill_servers - s->decode_servers;
	plan_decide(&p->decisions, "R9", 1,
		    "Pools: %d prefill + %d decode server%s (%s), %.2f requests/s at %.0f%% busy "
		    "(--assume pool_load=)%s%.0d%s.", s->prefill_servers, s->decode_servers,
		    s->decode_servers == 1 ? "" : "s",
		    in->prefill_servers ? "as asked" : in->requests_per_s > 0 && in->servers == 0 ?
		    "for the target" : "the split of the servers that serves the most", s->rps,
		    in->serving.pool_load * 100, left > 0 ? "; pools come in whole instances, so " : "",
		    left > 0 ? left : 0, left > 0 ? " of the servers asked are left over" : "");
}

/* R9's account of the KV cache: its size, rate, the NICs it takes, and what TTFT waits for. */
static void describe_kv(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_serving *s = &p->serving;
	char b1[32], b2[32], b3[32], when[200], alt[160];

	when[0] = alt[0] = '\0';
	if (s->kv_request_s > 0 && in->serving.kv_layerwise >= 0.5)
		plan_fmt(when, sizeof(when), "; sent layer by layer while the prefill runs "
			 "(kv_layerwise=1), TTFT waits %s of it%s", nicfit_fmt_seconds(s->kv_exposed_s,
			 b3, sizeof(b3)), s->kv_hidden ? ": it hides under the prefill but for the last "
			 "layer" : ", what outlasts the prefill");
	else if (s->kv_request_s > 0)
		plan_fmt(when, sizeof(when), "; read once the prefill is done (kv_layerwise=0), so "
			 "TTFT is the prefill plus that");
	if (p->kv_storage && in->kv_over_auto && in->kv_backend_s > 0)
		plan_fmt(alt, sizeof(alt), "; --kv-over backend adds a back end that carries it in "
			 "%s and leaves the storage network to storage",
			 nicfit_fmt_seconds(in->kv_backend_s, b3, sizeof(b3)));
	plan_decide(&p->decisions, "R9", 1,
		    "KV cache: %.0f B a token x %.0f prompt tokens = %s a request, %.1f Gb/s out of "
		    "each prefill server and %.1f Gb/s into each decode server over %s (GPUDirect "
		    "RDMA%s)%s%s%s%s.", s->kv_bytes_per_token, in->prompt_tokens,
		    nicfit_fmt_bytes(s->kv_bytes_per_request, b1, sizeof(b1)), s->kv_prefill_node_gbps,
		    s->kv_decode_node_gbps, p->kv_storage ? (p->st_nic ? "the storage/in-band NICs" :
		    "the front end (the server has no storage/in-band NICs)") : "the back-end rails",
		    p->kv_storage ? (p->st_nic ? ", RoCE" : " where its card has RDMA, else TCP") : "",
		    s->kv_request_s > 0 ? "; one request's cache crosses them in " : "",
		    s->kv_request_s > 0 ? nicfit_fmt_seconds(s->kv_request_s, b2, sizeof(b2)) : "",
		    when, alt);
}

/* R9: a pool's step whose instance spans servers, its traffic over the back end and its stall. */
static void describe_steps(struct nicfit_plan *p)
{
	const struct nicfit_serving *s = &p->serving;
	char b1[32], b2[32], b3[32];
	int i;

	for (i = 0; i < 2; i++) {
		const struct nicfit_serving_pool *pl = &s->pool[i];
		int k, top = 0;

		if (!pl->timed)
			continue;
		for (k = 1; k < pl->step.nterms; k++)
			if (pl->step.terms[k].bytes > pl->step.terms[top].bytes)
				top = k;
		plan_decide(&p->decisions, "R9", 1,
			    "%s step across the instance's %d servers: %s leaves each server (most of "
			    "it %s), "
			    "%s over the back end at %.1f Gb/s; %s hides under %.0f%% of the compute "
			    "(overlap)%s%s.", i ? "Decode" : "Prefill", pl->nodes,
			    nicfit_fmt_bytes(pl->step.bytes_per_node, b1, sizeof(b1)),
			    pl->step.terms[top].name, nicfit_fmt_seconds(pl->time.comm_s, b2, sizeof(b2)),
			    pl->time.node_gbps, pl->time.hides ? "it" : "not all of it",
			    p->in.step.overlap * 100, pl->time.hides ? "" : ": the step grows by ",
			    pl->time.hides ? "" : nicfit_fmt_seconds(pl->time.stall_s, b3, sizeof(b3)));
	}
}

/* R9's account of the pools and of what crosses the network. */
static void serving_describe(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_serving *s = &p->serving;
	char b1[32], b2[32], b3[32];

	describe_pools(p);
	describe_kv(p);
	describe_steps(p);
	if (s->ep_prompt_bytes > 0)
		plan_decide(&p->decisions, "R9", 1,
			    "Expert parallel: %s of dispatch (dispatch_bytes) and combine "
			    "(combine_bytes) per prompt on a prefill instance, %s of it leaving each "
			    "server over RDMA%s.", nicfit_fmt_bytes(s->ep_prompt_bytes, b1, sizeof(b1)),
			    nicfit_fmt_bytes(s->ep_prompt_net_bytes, b2, sizeof(b2)),
			    s->instance_nodes == 1 ? " (the instance is one server: the all-to-all "
			    "stays on NVLink)" : "");
	if (in->kv_offload != NICFIT_OFFLOAD_NONE)
		plan_decide(&p->decisions, "R9", 1,
			    "KV offload to %s: %.0f%% of prompt tokens found there (--assume "
			    "kv_hit_rate=), %s a request read back instead of prefilled (the prefill "
			    "computes the rest), %.1f Gb/s a "
			    "prefill server over %s (%s/s).",
			    in->kv_offload == NICFIT_OFFLOAD_CPU ? "host memory" : "storage",
			    in->serving.kv_hit_rate * 100,
			    nicfit_fmt_bytes(s->offload_bytes_per_request, b1, sizeof(b1)),
			    s->offload_node_gbps, in->kv_offload == NICFIT_OFFLOAD_CPU ?
			    "the GPUs' links to host memory" : "the storage NICs (GPUDirect Storage or "
			    "NVMe-oF)", s->offload_link_gbps > 0 ?
			    nicfit_fmt_bytes(s->offload_link_gbps / 8 * 1e9, b3, sizeof(b3)) :
			    "rate unknown");
}

/* The findings: a target missed, a KV transfer or an offload the links do not carry. */
static void serving_find(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_serving *s = &p->serving;
	char b1[32], b2[32];

	if (in->requests_per_s > 0 && s->rps + 1e-9 < in->requests_per_s)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_SERVING_TARGET_UNMET,
				  "plan with --servers N for the pools the target needs",
				  "The %d servers serve %.3g requests/s of the %.3g asked: the target "
				  "needs %.0f (prefill %.3g and decode %.3g requests/s an instance at "
				  "%.0f%% busy).", in->servers, s->rps, in->requests_per_s,
				  s->need_servers, s->prefill_rps, s->decode_rps,
				  in->serving.pool_load * 100);
	if (!s->kv_fits)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_SERVING_TARGET_UNMET,
				  "give a decode instance more GPUs (--decode-gpus, --decode-ep), a lower "
				  "precision, or shorter requests (--prompt-tokens, --output-tokens)",
				  "One sequence's KV cache (%.0f + %.0f tokens, %s) does not fit the "
				  "memory the weights leave on a decode instance: it cannot decode.",
				  in->prompt_tokens, in->output_tokens,
				  nicfit_fmt_bytes(s->kv_bytes_per_token * (in->prompt_tokens +
						   in->output_tokens), b1, sizeof(b1)));
	if (!s->ttft_ok || !s->tpot_ok)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_SERVING_TARGET_UNMET,
				  "give the pool's instance more GPUs (--prefill-gpus, --decode-gpus; a "
				  "larger server, or a lower precision), or relax the target (--ttft-ms, "
				  "--tpot-ms)",
				  "%s%s%s", !s->ttft_ok ? "A prompt's first token takes " : "",
				  !s->ttft_ok ? nicfit_fmt_seconds(s->ttft_s, b1, sizeof(b1)) : "",
				  !s->tpot_ok ? (!s->ttft_ok ? ", over its target; and a decode step of "
				  "one sequence is over the TPOT target." : "A decode step of one "
				  "sequence is over the TPOT target.") : ", over its target.");
	if (s->kv_decode_share > 1 || (s->kv_request_s > 0 && s->kv_request_s > in->ttft_s / 10))
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_KV_TRANSFER_SLOW,
				  p->kv_storage ? "plan a back end for it (--kv-over backend), or faster "
				  "storage NICs" : "add back-end rails or faster cards (--backend-cards, "
				  "--backend-nic)",
				  "The KV cache needs %.1f Gb/s into each decode server, %.0f%% of its "
				  "%s, and one request's cache takes %s of the %s TTFT target.",
				  s->kv_decode_node_gbps, s->kv_decode_share * 100,
				  kv_nics(p),
				  nicfit_fmt_seconds(s->kv_request_s, b1, sizeof(b1)),
				  nicfit_fmt_seconds(in->ttft_s, b2, sizeof(b2)));
	if (in->kv_offload != NICFIT_OFFLOAD_NONE && (s->offload_share > 1 || !(s->offload_link_gbps > 0))) {
		char ports[120];

		ports[0] = '\0';
		if (in->kv_offload == NICFIT_OFFLOAD_STORAGE && p->st_port_gbps > 0)
			plan_fmt(ports, sizeof(ports), ": %.0f storage ports of %.0f G a prefill server "
				 "at 90%% goodput carry it", ceil(s->offload_node_gbps /
							       (p->st_port_gbps * 0.9)), p->st_port_gbps);
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_KV_OFFLOAD_SLOW,
				  in->kv_offload == NICFIT_OFFLOAD_CPU ? "set the link's rate with "
				  "--assume host_link_gbs=, or offload less" : "add storage NICs "
				  "(--storage-nics) or faster ones",
				  "Reading the offloaded KV cache back needs %.1f Gb/s a prefill server; "
				  "%s%s.", s->offload_node_gbps, s->offload_link_gbps > 0 ?
				  "more than the link it is read over carries" :
				  "the link it is read over is not known", ports);
	}
}

/* Whether a is better than b for the plan: fewer servers for the target, else more requests/s. */
static int serves_better(const struct nicfit_plan *p, const struct nicfit_serving *a,
			 const struct nicfit_serving *b)
{
	if (p->in.requests_per_s > 0 && p->in.servers <= 0)
		return a->need_servers + 1e-9 < b->need_servers;
	if (p->in.requests_per_s > 0 && a->need_servers + 1e-9 < b->need_servers &&
	    a->rps + 1e-9 >= b->rps)
		return 1;
	return a->rps > b->rps * (1 + 1e-9);
}

/*
 * The decode instance chosen from the target, for a mixture-of-experts
 * model whose decode instance was not given and whose servers have a back
 * end: R1's GPUs, twice or four times them (TP a server, EP all of them,
 * as SGLang's and Dynamo's large expert-parallel decode deployments run
 * DeepSeek), whichever needs the fewest servers for --requests-per-s (or
 * serves the most on the servers given), its expert-parallel traffic over
 * the back end and TPOT counted; ties keep the smaller. A larger instance
 * holds more KV cache beside one copy of the weights.
 */
static void choose_decode(struct nicfit_plan *p, struct nicfit_serving_ask *a)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_serving_shape *g = &in->pool_given[1];
	const struct nicfit_model *m = in->model;
	int gpn = a->job.gpus_per_node, m0 = a->job.nodes * gpn, k;
	struct nicfit_serving best, s;
	struct nicfit_serving_shape sh, pick;

	if (!m || m->experts <= 1 || g->gpus || g->tp || g->pp || g->ep || !p->backend_needed ||
	    !(a->be_gbps > 0) || nicfit_serving_calc(a, &in->step, &in->serving, &best, NULL))
		return;
	memset(&pick, 0, sizeof(pick));
	for (k = 2; k <= 4; k *= 2) {
		memset(&sh, 0, sizeof(sh));
		sh.gpus = m0 * k;
		sh.tp = gpn;
		sh.pp = 1;
		sh.ep = m->experts % sh.gpus == 0 ? sh.gpus : a->job.ep > 0 ? a->job.ep : 1;
		sh.kv_room_gb = p->fit.capacity_gb / gpn * sh.gpus - p->fit.weights_gb;
		if (in->servers > 0 && sh.gpus + (a->prefill.gpus ? a->prefill.gpus : m0) >
		    in->servers * gpn)
			break;
		a->decode = sh;
		if (!nicfit_serving_calc(a, &in->step, &in->serving, &s, NULL) && s.tpot_ok &&
		    serves_better(p, &s, &best)) {
			best = s;
			pick = sh;
		}
	}
	a->decode = pick;
	if (pick.gpus)
		plan_decide(&p->decisions, "R9", 1,
			    "Decode instance chosen from the target: %d GPUs on %d servers (TP %d, "
			    "EP %d) %s than R1's %d GPUs (its KV cache beside one copy of the weights "
			    "grows, its expert-parallel traffic crosses the back end; "
			    "--decode-gpus sets it).", pick.gpus, pick.gpus / gpn, pick.tp, pick.ep,
			    in->requests_per_s > 0 ? "need fewer servers for the target" :
			    "serve more on the servers given", m0);
}

/* R9, disaggregated serving (nicfit/serving.h), once the back end and storage NICs are chosen. */
void nicfit__plan_serving(struct nicfit_plan *p)
{
	struct nicfit_serving_ask a;
	struct nicfit_serving_shape given;
	struct nicfit_error err;
	char why[160];

	if (!p->in.disagg)
		return;
	nicfit_error_clear(&err);
	why[0] = '\0';
	memset(&given, 0, sizeof(given));
	if (!serving_ask(p, &a, why, sizeof(why))) {
		given = a.decode;
		choose_decode(p, &a);
	}
	if (why[0] || nicfit_serving_calc(&a, &p->in.step, &p->in.serving, &p->serving, &err)) {
		plan_decide(&p->decisions, "R9", 0,
			    "Disaggregated serving: the pools are not worked out (%s).",
			    err.msg[0] ? err.msg : why[0] ? why :
			    "the model's size or the GPU is not known");
		if (why[0] || err.msg[0])
			nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_SERVING_TARGET_UNMET,
					  "give each pool's instance GPUs that hold the weights "
					  "(--prefill-gpus, --decode-gpus) and degrees that divide them",
					  "The disaggregated pools are not worked out: %s.",
					  err.msg[0] ? err.msg : why);
		return;
	}
	p->serving_known = 1;
	serving_describe(p);
	serving_find(p);
	/* whether the cache fits the storage NICs is asked of the instances as given (or R1's) */
	a.decode = given;
	kv_storage_check(p, &a);
}

/* The verdict's sentence on the pools. */
void nicfit__plan_serving_verdict(struct nicfit_plan *p)
{
	const struct nicfit_serving *s = &p->serving;
	size_t n = strlen(p->verdict);
	char b1[32], b2[32];

	if (!p->serving_known)
		return;
	plan_fmt(p->verdict + n, sizeof(p->verdict) - n,
		 " Disaggregated: %d prefill + %d decode server%s serve %.2f requests/s; each "
		 "request's KV cache (%s) crosses the %s%s%s, %.1f Gb/s a prefill server.",
		 s->prefill_servers, s->decode_servers, s->decode_servers == 1 ? "" : "s", s->rps,
		 nicfit_fmt_bytes(s->kv_bytes_per_request, b1, sizeof(b1)),
		 p->kv_storage ? kv_nics(p) : "back-end rails",
		 s->kv_request_s > 0 ? " in " : "",
		 s->kv_request_s > 0 ? nicfit_fmt_seconds(s->kv_request_s, b2, sizeof(b2)) : "",
		 s->kv_prefill_node_gbps);
}

/* The text line under the plan's summary. */
void nicfit__plan_serving_text(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_serving *s = &p->serving;
	char b1[32], b2[32], b3[32], n0[96], n1[96];

	if (!p->serving_known)
		return;
	nicfit_emit_printf(e, "Serving    %d prefill + %d decode server%s: %.2f requests/s; TTFT %s, "
			      "decode step %s at %.0f sequences an instance\n",
			   s->prefill_servers, s->decode_servers, s->decode_servers == 1 ? "" : "s",
			   s->rps, nicfit_fmt_seconds(s->ttft_s, b1, sizeof(b1)),
			   nicfit_fmt_seconds(s->decode_step_s, b2, sizeof(b2)), s->decode_batch);
	nicfit_emit_printf(e, "KV cache   %s a request, %.1f Gb/s out of each prefill server, %.1f "
			      "Gb/s into each decode server (%.1f%% of its %s)\n",
			   nicfit_fmt_bytes(s->kv_bytes_per_request, b3, sizeof(b3)),
			   s->kv_prefill_node_gbps, s->kv_decode_node_gbps, s->kv_decode_share * 100,
			   kv_nics(p));
	nicfit_emit_printf(e, "Pools      prefill: %s; decode: %s\n",
			   pool_name(p, 0, n0, sizeof(n0)), pool_name(p, 1, n1, sizeof(n1)));
}

/* One pool's step in JSON: the instance, its time and the traffic between its servers. */
static void pool_json(struct nicfit_emit *e, const struct nicfit_plan *p, int i)
{
	const struct nicfit_serving *s = &p->serving;
	const struct nicfit_serving_pool *pl = &s->pool[i];
	const struct nicfit_serving_shape *g = &p->in.pool_given[i];
	int k;

	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "pool", i ? "decode" : "prefill");
	nicfit_emit_bool(e, "given", g->gpus || g->tp || g->pp || g->ep);
	nicfit_emit_int(e, "instance_gpus", pl->gpus);
	nicfit_emit_int(e, "instance_servers", pl->nodes);
	nicfit_emit_int(e, "tp", pl->tp);
	nicfit_emit_int(e, "pp", pl->pp);
	nicfit_emit_int(e, "ep", pl->ep);
	nicfit_emit_int(e, "instances", pl->instances);
	nicfit_emit_int(e, "servers", pl->servers);
	nicfit_emit_number(e, "instance_requests_per_s", pl->rps);
	nicfit_emit_number(e, "server_requests_per_s", pl->server_rps);
	nicfit_emit_number(e, "kv_room_gb", pl->kv_room_gb);
	nicfit_emit_begin_object(e, "step");
	nicfit_emit_string(e, "phase", i ? "decode" : "prefill");
	nicfit_emit_number(e, "tokens", i ? s->decode_batch : pl->step.tokens);
	nicfit_emit_number(e, "step_s", i ? s->decode_step_s : s->prefill_s);
	nicfit_emit_number(e, "flops", pl->step.flops);
	nicfit_emit_number(e, "bytes_per_node_gb", pl->step.bytes_per_node / 1e9);
	nicfit_emit_begin_array(e, "traffic");
	for (k = 0; k < pl->step.nterms; k++) {
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "name", pl->step.terms[k].name);
		nicfit_emit_number(e, "gb_per_node", pl->step.terms[k].bytes / 1e9);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	if (pl->timed) {
		nicfit_emit_number(e, "comm_s", pl->time.comm_s);
		nicfit_emit_number(e, "stall_s", pl->time.stall_s);
		nicfit_emit_bool(e, "hides", pl->time.hides);
	} else {
		nicfit_emit_null(e, "comm_s");
		nicfit_emit_null(e, "stall_s");
		nicfit_emit_null(e, "hides");
	}
	nicfit_emit_end_object(e);
	nicfit_emit_end_object(e);
}

/*
 * The input object's disaggregated settings beyond the common ones, only
 * in a disaggregated plan: each pool's instance as given (null: chosen)
 * and --kv-over as asked ("auto" when auto chose the storage NICs).
 */
void nicfit__plan_serving_input_json(struct nicfit_emit *e, const struct nicfit_plan_input *in)
{
	static const char *const k[2][4] = {
		{ "prefill_gpus", "prefill_tp", "prefill_pp", "prefill_ep" },
		{ "decode_gpus", "decode_tp", "decode_pp", "decode_ep" },
	};
	int i;

	for (i = 0; i < 2; i++) {
		const struct nicfit_serving_shape *g = &in->pool_given[i];
		int v[4] = { g->gpus, g->tp, g->pp, g->ep }, j;

		for (j = 0; j < 4; j++)
			if (v[j] > 0)
				nicfit_emit_int(e, k[i][j], v[j]);
			else
				nicfit_emit_null(e, k[i][j]);
	}
	nicfit_emit_string(e, "kv_over", nicfit_kv_over_name(in->kv_over_auto ? NICFIT_KV_OVER_AUTO :
							      in->kv_over));
}

/* plan JSON "serving" (docs/json-plan.md): null unless --disaggregated was worked out. */
void nicfit__plan_serving_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_serving *s = &p->serving;

	if (!p->serving_known) {
		nicfit_emit_null(e, "serving");
		return;
	}
	nicfit_emit_begin_object(e, "serving");
	nicfit_emit_number(e, "prompt_tokens", in->prompt_tokens);
	nicfit_emit_number(e, "output_tokens", in->output_tokens);
	if (in->requests_per_s > 0)
		nicfit_emit_number(e, "target_requests_per_s", in->requests_per_s);
	else
		nicfit_emit_null(e, "target_requests_per_s");
	nicfit_emit_number(e, "ttft_target_s", in->ttft_s);
	nicfit_emit_number(e, "tpot_target_s", in->tpot_s);
	nicfit_emit_int(e, "instance_servers", s->instance_nodes);
	nicfit_emit_int(e, "instance_gpus", s->instance_nodes * (p->gpus_placed > 0 ? p->gpus_placed :
								     in->gpus_per_server));
	nicfit_emit_int(e, "expert_parallel", s->expert_parallel);
	nicfit_emit_int(e, "prefill_servers", s->prefill_servers);
	nicfit_emit_int(e, "decode_servers", s->decode_servers);
	nicfit_emit_number(e, "requests_per_s", s->rps);
	nicfit_emit_number(e, "servers_for_target", s->need_servers);
	nicfit_emit_number(e, "prefill_s", s->prefill_s);
	nicfit_emit_number(e, "ttft_s", s->ttft_s);
	nicfit_emit_number(e, "decode_batch", s->decode_batch);
	nicfit_emit_string(e, "decode_batch_by", s->batch_by);
	nicfit_emit_number(e, "decode_step_s", s->decode_step_s);
	nicfit_emit_bool(e, "ttft_met", s->ttft_ok);
	nicfit_emit_bool(e, "tpot_met", s->tpot_ok);
	nicfit_emit_begin_object(e, "kv_transfer");
	nicfit_emit_number(e, "bytes_per_token", s->kv_bytes_per_token);
	nicfit_emit_number(e, "bytes_per_request", s->kv_bytes_per_request);
	nicfit_emit_number(e, "prefill_server_gbps", s->kv_prefill_node_gbps);
	nicfit_emit_number(e, "decode_server_gbps", s->kv_decode_node_gbps);
	nicfit_emit_string(e, "over", p->kv_storage ? "storage" : "backend");
	nicfit_emit_bool(e, "over_chosen", p->in.kv_over == NICFIT_KV_OVER_AUTO);
	nicfit_emit_number(e, "request_s", s->kv_request_s);
	nicfit_emit_number(e, "exposed_s", s->kv_exposed_s);
	nicfit_emit_bool(e, "layerwise", in->serving.kv_layerwise >= 0.5);
	nicfit_emit_bool(e, "hidden", s->kv_hidden);
	if (p->kv_storage && in->kv_backend_s > 0)
		nicfit_emit_number(e, "backend_request_s", in->kv_backend_s);
	else
		nicfit_emit_null(e, "backend_request_s");
	nicfit_emit_number(e, "decode_rail_share", s->kv_decode_share);
	nicfit_emit_end_object(e);
	nicfit_emit_begin_array(e, "pools");
	pool_json(e, p, 0);
	pool_json(e, p, 1);
	nicfit_emit_end_array(e);
	nicfit_emit_number(e, "ep_prompt_bytes", s->ep_prompt_bytes);
	nicfit_emit_number(e, "ep_prompt_network_bytes", s->ep_prompt_net_bytes);
	nicfit_emit_number(e, "ep_decode_network_bytes", s->ep_decode_net_bytes);
	nicfit_emit_string(e, "kv_offload", nicfit_kv_offload_name(in->kv_offload));
	if (in->kv_offload != NICFIT_OFFLOAD_NONE) {
		nicfit_emit_begin_object(e, "offload");
		nicfit_emit_number(e, "bytes_per_request", s->offload_bytes_per_request);
		nicfit_emit_number(e, "prefill_server_gbps", s->offload_node_gbps);
		nicfit_emit_number(e, "link_gbps", s->offload_link_gbps);
		nicfit_emit_number(e, "link_share", s->offload_share);
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "offload");
	}
	nicfit_param_emit(e, "assumptions", nicfit_serving_param_table, nicfit_serving_param_count,
			  &in->serving);
	nicfit_emit_end_object(e);
}
