/*
 * plan_traffic.c - the job's step as R5 and R9 need it: how long a step
 * computes on the plan's GPUs and what it sends across servers (the
 * formulas are nicfit/step.h, the same `nicfit calc step` shows), whether
 * the back end R5 chose hides that traffic under the compute, and what
 * a cheaper card would do. R2's advice to add GPUs to one server before
 * splitting a model across servers is here too, because it rests on the
 * same layout rule. Choosing and placing cards stays in plan_backend.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nicfit/llm.h"
#include "nicfit/step.h"
#include "nicfit/units.h"
#include "core/num_int.h"
#include "plan/plan_int.h"

/*
 * "Much cheaper": a card that hides the traffic is worth naming when it
 * costs at most half the chosen one; a smaller saving is within what
 * optics, a switch port or a spare change, and not worth a second opinion.
 */
#define MUCH_CHEAPER_SHARE 0.5

/* The GPUs that a single server can hold of this kind (0: the catalog does not say). */
int nicfit__plan_gpu_room(const struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	const struct nicfit_gpu *g = p->in.gpu;
	int i, n = 0;

	if (g->baseboard) {
		for (i = 0; i < sv->nslots; i++)
			n += sv->slots[i].gpu == NICFIT_GPU_BASEBOARD;
	} else {
		n = g->double_width ? sv->max_gpus_double : sv->max_gpus_single;
	}
	return n > NICFIT_PLAN_MAX_GPUS ? NICFIT_PLAN_MAX_GPUS : n;
}

/*
 * R2, add GPUs first (add-gpus-first): a model that does not fit the
 * GPUs asked for but fits the same server with more of them (the layout
 * a serving engine can run: tensor parallel dividing the heads, inside
 * the server) is better served there than split across servers, which
 * would need a back-end fabric for every token. The plan is then made
 * for that server with those GPUs, and the finding says so; quantising
 * is the other way. Returns 1 when it applied.
 */
int nicfit__plan_add_gpus_first(struct nicfit_plan *p)
{
	struct nicfit_plan_input *in = &p->in;
	const struct nicfit_model *m = in->model;
	struct nicfit_layout lay;
	int room;

	if (!p->fit_known || p->fits_one_server || !in->gpu || in->workload != NICFIT_WL_INFERENCE)
		return 0;
	room = nicfit__plan_gpu_room(p);
	if (nicfit_layout_pick(m ? &m->arch : &(struct nicfit_arch){ 0 }, m ? m->experts : 0,
			       p->gpus_needed, room > 0 ? room : 1, in->gpu->nvlink_domain, &lay,
			       NULL) || room <= in->gpus_per_server || lay.nodes > 1 ||
	    lay.gpus > room)
		return 0;
	nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_ADD_GPUS_FIRST,
			  "add the GPUs to this server (--gpus-per-server N), or quantise the model "
			  "(--precision int8 or int4) to fit the GPUs it has",
			  "%s needs %d x %s (%s) and %s holds up to %d: add GPUs to this server before "
			  "splitting the model across servers, which would need a back-end fabric for "
			  "every token. Planned with %d x %s in one server.",
			  m ? m->e.name : "The model", lay.gpus, in->gpu->e.name, lay.name,
			  in->server->e.name, room, lay.gpus, in->gpu->e.name);
	plan_decide(&p->decisions, "R2", 1,
		    "%s fits one %s with %d x %s (%s): planned that way, with no back end.",
		    m ? m->e.name : "The model", in->server->e.name, lay.gpus, in->gpu->e.name,
		    lay.name);
	p->layout = lay;
	p->gpus_needed = lay.gpus;
	in->gpus_per_server = lay.gpus;
	p->fits_one_server = 1;
	p->servers_needed = 1;
	if (nicfit_calc_fit(m ? &m->arch : &(struct nicfit_arch){ .params = in->params },
			    in->precision, in->context, in->concurrency, lay.gpus,
			    in->gpu->memory_gib, &in->llm, &p->fit, NULL) == 0)
		p->fits_one_server = p->fit.fits;
	return 1;
}

/* The layout of a model split over the plan's servers: TP inside each, PP across. */
static void split_layout(struct nicfit_plan *p, struct nicfit_step_job *j)
{
	const struct nicfit_model *m = p->in.model;
	int gpn = j->gpus_per_node, t;

	j->tp = 1;
	for (t = gpn; t > 1; t--)
		if (gpn % t == 0 && m && m->arch.heads > 0 && m->arch.kv_heads > 0 &&
		    m->arch.heads % t == 0 && m->arch.kv_heads % t == 0) {
			j->tp = t;
			break;
		}
	j->pp = j->nodes * gpn / j->tp;
	if (m && m->experts > 1 && m->experts % (j->nodes * gpn) == 0)
		j->ep = j->nodes * gpn;
}

/*
 * The step of the job on per_server GPUs in each of the plan's servers
 * (no decisions: step_describe says them). Returns 0 when it is known.
 */
static int step_model(struct nicfit_plan *p, int per_server)
{
	const struct nicfit_plan_input *in = &p->in;
	struct nicfit_step_job *j = &p->step_job;

	memset(j, 0, sizeof(*j));
	nicfit_step_job_fill(j, in->model, in->params, in->gpu, in->precision, p->adapters,
			     &in->llm);
	j->nodes = in->servers;
	j->gpus_per_node = per_server;
	j->dp = in->dp;
	if (nicfit__plan_is_training(in->workload)) {
		j->phase = NICFIT_PHASE_TRAIN;
		j->tokens = in->batch_tokens > 0 ? in->batch_tokens :
			    in->step.tokens_per_gpu * j->nodes * j->gpus_per_node;
	} else {
		j->phase = NICFIT_PHASE_DECODE;
		j->tokens = in->concurrency > 0 ? (double)in->concurrency : 1;
	}
	p->traffic_known = nicfit__plan_domain_step(p, split_layout) == 0;
	return p->traffic_known ? 0 : -1;
}

/*
 * R9's account of the step step_model worked out; why names the GPUs
 * when not those asked, again says it replaces an account made before.
 */
static void step_describe(struct nicfit_plan *p, const char *why, int again)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_step_job *j = &p->step_job;
	int train = j->phase == NICFIT_PHASE_TRAIN;
	char b1[32], b2[32];

	plan_decide(&p->decisions, "R9", 1,
		    "Compute per %s step%s: %g FLOPs x %.4g%s parameters x %.4g tokens = %.3g FLOPs "
		    "over %d x %s%s at %g TFLOPS dense (%s) x %.0f%% MFU (--assume mfu=) = %s%s.",
		    train ? "training" : "decode",
		    again ? ", worked out again on the GPUs placed (it replaces the one above)" : "",
		    p->step.flops_per_token_param,
		    j->arch.active_params > 0 ? j->arch.active_params : j->arch.params,
		    j->arch.active_params > 0 ? " active" : "", p->step.tokens, p->step.flops,
		    p->step.gpus, in->gpu->e.name, why ? why : "", j->tflops,
		    nicfit_gpu_peak(in->gpu, in->precision, p->adapters, &(double){ 0 }),
		    in->step.mfu * 100, nicfit_fmt_seconds(p->step.compute_s, b1, sizeof(b1)),
		    p->step.memory_bound ? " (the weight read from GPU memory sets it)" : "");
	for (int i = 0; i < p->step.nterms; i++)
		plan_decide(&p->decisions, "R9", 1,
			    "Traffic, %s: %s per server per step = %s (%s).", p->step.terms[i].name,
			    nicfit_fmt_bytes(p->step.terms[i].bytes, b2, sizeof(b2)),
			    p->step.terms[i].formula, p->step.terms[i].source);
	if (train)
		plan_decide(&p->decisions, "R9", 1,
			    "Data parallelism: %s (%s; --parallel ddp|zero1|zero2|zero3|fsdp).",
			    nicfit_dp_name(p->step.dp),
			    in->dp == NICFIT_DP_AUTO ? "the least traffic whose training state fits the "
			    "GPUs, ZeRO paper Figure 1" : "as asked");
}

/* R9 when no GPU of the plan's kind fits the server: there is no step to time. */
static void step_no_gpus(struct nicfit_plan *p, const char *where)
{
	p->traffic_known = 0;
	plan_decide(&p->decisions, "R9", 0,
		    "No %s fits %s%s: there is no step to time, and whether a back end would hide "
		    "its traffic is not worked out.", p->in.gpu->e.name, p->in.server->e.name, where);
}

/*
 * R9, the job's step (docs/rules.md): for distributed training and
 * fine-tuning, the training step of the whole job (tokens per step from
 * --batch-tokens, else tokens_per_gpu for each GPU; data parallelism from
 * --parallel, else the least traffic whose state fits); for a model split
 * across servers, one decode step of the requests in flight, tensor
 * parallel inside each server and pipeline stages across. Without the
 * GPU's peak in the catalog there is nothing to time, and R9 says so.
 *
 * The step is the one the servers can run: on the GPUs a server's slots
 * hold, not more (8 x H100 PCIe asked of a server with room for 4 compute
 * on 4 a server, and R9 says the 8 were asked). When the back-end card
 * then takes a GPU's slot too, _traffic_placed times it again on what is
 * left.
 */
void nicfit__plan_traffic(struct nicfit_plan *p, int *alone)
{
	const struct nicfit_plan_input *in = &p->in;
	int per = in->gpus_per_server, room;
	char why[96];

	if ((!p->backend_needed && !p->domain_only) || !in->gpu || in->gpus_per_server < 1 ||
	    !(in->params > 0) ||
	    in->workload == NICFIT_WL_RDMA_STORAGE || in->servers < 2)
		return;
	if (!(in->gpu->fp16_tflops > 0)) {
		plan_decide(&p->decisions, "R9", 0,
			    "%s has no dense TFLOPS in the catalog: the step's compute, and whether "
			    "the back end hides its traffic, are not worked out.", in->gpu->e.name);
		return;
	}
	room = nicfit__plan_gpus_alone_memo(p, alone);
	if (room < 0) {
		p->findings.oom = 1;
		return;
	}
	if (room < 1) {
		step_no_gpus(p, "");
		return;
	}
	why[0] = 0;
	if (room < per) {
		plan_fmt(why, sizeof(why), " (the %d a server holds, of the %d asked)", room, per);
		per = room;
	}
	if (step_model(p, per) == 0)
		step_describe(p, why[0] ? why : NULL, 0);
}

/*
 * R9 again once R6 placed the back-end card: a card that took a GPU's
 * slot leaves the server placed GPUs, fewer than the step was worked out
 * on, so the step is worked out again on those (R5 sized the card on the
 * first), and R9 says why. No GPU left: no step.
 */
void nicfit__plan_traffic_placed(struct nicfit_plan *p, int placed, const char *slot)
{
	char why[128];

	if (!p->traffic_known || placed >= p->step_job.gpus_per_node)
		return;
	if (placed < 1) {
		plan_fmt(why, sizeof(why), " beside the back-end card in slot %s", slot);
		step_no_gpus(p, why);
		return;
	}
	plan_fmt(why, sizeof(why), " (the %d a server holds beside the back-end card in slot %s, "
		 "of the %d asked)", placed, slot, p->in.gpus_per_server);
	if (step_model(p, placed) == 0)
		step_describe(p, why, 1);
	else
		plan_decide(&p->decisions, "R9", 0,
			    "On the %d GPUs a server holds beside the back-end card in slot %s the "
			    "step cannot be laid out: not timed.", placed, slot);
}

/* Time the step over node_gbps per server. */
static void over(const struct nicfit_plan *p, double node_gbps, struct nicfit_step_time *t)
{
	nicfit_step_over(&p->step, node_gbps, p->in.ar.latency_us, &p->in.step, t);
}

/*
 * The cheapest priced card for the fabric that, placed as R6 would place
 * it, moves enough to hide the traffic, and costs at most
 * MUCH_CHEAPER_SHARE of the chosen card. NULL when none.
 */
static const struct nicfit_nic *cheaper_card(const struct nicfit_catalog *cat,
					     struct nicfit_plan *p, double *node_gbps)
{
	const struct nicfit_nic *best = NULL;
	size_t i, count;
	const struct nicfit_nic *nics = nicfit__plan_nics(cat, &count);

	if (!p->be_nic->e.priced)
		return NULL;
	for (i = 0; i < count; i++) {
		const struct nicfit_nic *n = &nics[i];
		struct plan_choice where;
		struct nicfit_step_time t;
		struct nicfit_card c;

		if (!n->e.priced || !nicfit__plan_rdma_ok(p, n->rdma) || n->socket_direct ||
		    n->e.price_usd > p->be_nic->e.price_usd * MUCH_CHEAPER_SHARE)
			continue;
		nicfit__plan_fill_card(&c, n);
		if (!nicfit__plan_search_place(p, &c, n, p->be_cards, 0, &where) ||
		    where.ngpu_placed < p->step_job.gpus_per_node)
			continue;
		over(p, where.per_card * p->be_cards, &t);
		if (t.hides && (!best || n->e.price_usd < best->e.price_usd)) {
			best = n;
			*node_gbps = where.per_card * p->be_cards;
		}
	}
	return best;
}

/* The fix for a back end that stalls: more cards of this one, or a faster one. */
static void stall_fix(struct nicfit_plan *p, struct nicfit_finding *f)
{
	const struct nicfit_plan_input *in = &p->in;
	int most = in->gpus_per_server < NICFIT_PLAN_MAX_CARDS ? in->gpus_per_server :
		   NICFIT_PLAN_MAX_CARDS;
	int cards = (int)ceil(p->step_be.need_gbps / p->be_effective_gbps - NICFIT_EPS);

	if (!(p->step_be.need_gbps > 0))
		nicfit__finding_fix(&p->findings, f, "no back end hides it: the latency alone exceeds "
				    "the overlap; give each step more tokens (--batch-tokens)");
	else if (p->be_integrated && !p->be_nic)
		nicfit__finding_fix(&p->findings, f, "the accelerators' own ports are all the server "
				    "has: more tokens per step (--batch-tokens) hide more");
	else if (cards > p->be_cards && cards <= most)
		nicfit__finding_fix(&p->findings, f, "%d x %s per server (--backend-cards %d) reach "
				    "%.0f Gb/s; more tokens per step (--batch-tokens) also hide more",
				    cards, p->be_part, cards, cards * p->be_effective_gbps);
	else
		nicfit__finding_fix(&p->findings, f, "%.0f Gb/s per server takes faster cards or "
				    "slots (--backend-size traffic; a PCIe Gen4 x16 slot feeds 200G, "
				    "Gen5 400G), or more tokens per step (--batch-tokens)",
				    p->step_be.need_gbps);
}

/*
 * R5 judged by the traffic (docs/rules.md, backend-stalls-gpus and
 * backend-cheaper-hides): the step's communication over the back end R5
 * chose, against the share of the compute it can hide under (overlap, an
 * --assume). When it does not hide, the GPUs wait every step: a warning
 * with the stall and what would hide it. When it hides and a card at most
 * half the price also would, an info with that card and the saving (for
 * training only: a split model's decode waits on the fabric's latency per
 * token, which a cheaper card does not improve). The gradient
 * all-reduce's NCCL algorithm over this back end is named too.
 */
void nicfit__plan_traffic_judge(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_nic *alt;
	struct nicfit_finding *f;
	char b1[32], b2[32], b3[32], b4[32], b5[32];
	double alt_gbps = 0;

	if (!p->traffic_known || !(p->be_nic || p->be_integrated) || !(p->be_node_gbps > 0))
		return;
	over(p, p->be_node_gbps, &p->step_be);
	p->step_be_known = 1;
	plan_fmt(p->step_algorithm, sizeof(p->step_algorithm), "%s",
		 p->step_be.algorithm ? p->step_be.algorithm : "");
	plan_decide(&p->decisions, "R9", 1,
		    "Over this back end (%.1f Gb/s per server) the step's %s of traffic take %s; "
		    "%s of it can hide under the compute (overlap %.0f%%, --assume overlap=): "
		    "compute/communication %.2f, %s.", p->be_node_gbps,
		    nicfit_fmt_bytes(p->step.bytes_per_node, b1, sizeof(b1)),
		    nicfit_fmt_seconds(p->step_be.comm_s, b2, sizeof(b2)),
		    nicfit_fmt_seconds(p->step_be.hidden_s, b3, sizeof(b3)), in->step.overlap * 100,
		    p->step_be.ratio, p->step_be.hides ? "it hides" : "the GPUs stall");
	if (!p->step_be.hides) {
		f = nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_BACKEND_STALLS_GPUS, NULL,
				      "The back end stalls the GPUs: each step sends %s per server, "
				      "%s over %.1f Gb/s, but only %s hides under the %s of compute; the "
				      "GPUs wait %s per step (%.0f%%). Hiding it takes %.0f Gb/s per server.",
				      b1, b2, p->be_node_gbps, b3, /* R9's figures, written above */
				      nicfit_fmt_seconds(p->step.compute_s, b4, sizeof(b4)),
				      nicfit_fmt_seconds(p->step_be.stall_s, b5, sizeof(b5)),
				      p->step_be.stall_s / p->step_be.step_s * 100, p->step_be.need_gbps);
		if (f)
			stall_fix(p, f);
		return;
	}
	/* a split model's decode waits on the fabric's latency per token: only training is priced
	 * down; the accelerators' own ports have no cheaper card to compare */
	if (p->step_job.phase != NICFIT_PHASE_TRAIN || !p->be_nic)
		return;
	alt = cheaper_card(cat, p, &alt_gbps);
	if (alt && alt != p->be_nic)
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_BACKEND_CHEAPER_HIDES,
				  "--backend-size traffic plans the cheapest card that hides the traffic",
				  "A cheaper back end also hides this job's traffic: %s (%s, %.2f USD) moves "
				  "%.1f Gb/s per server, and the step needs %.3g; that saves %.2f USD per "
				  "server, %.2f for %d.", alt->part, alt->e.name, alt->e.price_usd, alt_gbps,
				  p->step_be.need_gbps,
				  (p->be_nic->e.price_usd - alt->e.price_usd) * p->be_cards,
				  (p->be_nic->e.price_usd - alt->e.price_usd) * p->be_cards * in->servers,
				  in->servers);
}
