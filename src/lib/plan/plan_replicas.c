/*
 * plan_replicas.c - R2, replicas before splits (replicas-first): when
 * multi-node inference is asked of a model that fits one server, the
 * servers can each run a copy behind a load balancer with no back end,
 * and serve at least the split's throughput. This file works out that
 * comparison from the step model (nicfit/step.h) and says it as a
 * finding and in the verdict; it does not change the plan that was
 * asked, which stays built with its back end for whoever must split.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nicfit/step.h"
#include "nicfit/units.h"
#include "core/num_int.h"
#include "plan/plan_int.h"

/*
 * The decode throughput of the two ways at the same C requests in flight
 * on N servers (docs/rules.md, R2 replicas-first):
 *
 *   replicas   each server carries b = ceil(C / N) sequences and every
 *              sequence gains a token per step of one server,
 *              step_1(b) = max(2 x active params x b / (GPUs x peak x MFU),
 *                              weights / GPUs / memory bandwidth):
 *              tokens/s = C / step_1(b)
 *   split      TP inside each server and a pipeline stage per server
 *              (the plan's layout), kept full by N micro-batches of b: a
 *              stage holds 1/N of the layers, so it takes step_1(b) / N,
 *              and a sequence passes all N stages and the back end's
 *              hops (comm_s, the step's traffic over the plan's back end)
 *              for each token: tokens/s = C / (step_1(b) + comm_s)
 *
 * So the split never serves more than the replicas; it serves about the
 * same, and pays a back-end fabric and a hop per stage for each token.
 * vLLM's and SGLang's own guidance is the same: pipeline or tensor
 * parallel across nodes is for a model that does not fit one node
 * (docs/reference/inference-serving.md). Returns 0 when the step is
 * known; the throughputs stay 0 otherwise.
 */
static int throughputs(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	struct nicfit_step_job j;
	struct nicfit_step one;
	double c = in->concurrency > 0 ? (double)in->concurrency : 1, b;

	if (!p->traffic_known || p->step_job.phase != NICFIT_PHASE_DECODE)
		return -1;
	j = p->step_job;
	b = ceil(c / p->replicas);
	j.nodes = 1;
	j.gpus_per_node *= p->replicas_domain ? p->servers_needed : 1;
	j.tp = j.gpus_per_node;
	j.pp = 1;
	j.ep = j.experts > 1 && j.experts % j.gpus_per_node == 0 ? j.gpus_per_node : 1;
	j.tokens = b;
	if (nicfit_step_calc(&j, &in->step, &one, NULL) || !(one.compute_s > 0))
		return -1;
	p->replicas_step_s = one.compute_s;
	p->replicas_tok_s = c / one.compute_s;
	p->split_tok_s = c / (one.compute_s + (p->step_be_known ? p->step_be.comm_s : 0));
	return 0;
}

static void domain_first(struct nicfit_plan *p);

/*
 * R2, replicas before splits (replicas-first): multi-node inference
 * asked of N servers for a model whose weights and KV cache (R1, at the
 * asked context and concurrency) fit one server. The seed article's
 * point: a back end is needed only when one model spans servers, and a
 * model that fits one server need not span them; replicas behind a load
 * balancer serve the same requests with no back end. A warning, since
 * the plan builds a fabric the job does not need; the plan stays as
 * asked (a user may split for reasons nicfit cannot see: a longer
 * context later, one endpoint), and the verdict says which nicfit
 * recommends.
 */
void nicfit__plan_replicas_first(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const char *name = in->model ? in->model->e.name : "The model";
	struct nicfit_layout lay;
	char thr[400], b1[32], b2[32];

	int t;

	if (in->workload != NICFIT_WL_MULTINODE_INFERENCE || in->disagg || in->servers < 2 ||
	    !p->fit_known || !p->backend_needed || !in->gpu || !(p->fit.total_gb > 0))
		return;
	t = nicfit__plan_domain_trays(p, p->step_job.gpus_per_node > 0 ?
				      p->step_job.gpus_per_node : in->gpus_per_server);
	if (!p->fits_one_server) {
		/* NVL72: a model that spans trays but fits one NVLink domain */
		if (t < 2 || p->servers_needed < 2 || p->servers_needed > t)
			return;
		domain_first(p);
		return;
	}
	p->replicas_first = 1;
	p->replicas = in->servers;
	p->replicas_fit_times = p->fit.capacity_gb / p->fit.total_gb;
	thr[0] = '\0';
	memset(&lay, 0, sizeof(lay));
	lay.tp = p->step_job.tp > 0 ? p->step_job.tp : 1;
	lay.pp = p->step_job.pp > 0 ? p->step_job.pp : 1;
	lay.ep = p->step_job.ep > 0 ? p->step_job.ep : 1;
	lay.gpus = lay.tp * lay.pp;
	lay.nodes = in->servers;
	nicfit_layout_name(&lay);
	if (throughputs(p) == 0)
		plan_fmt(thr, sizeof(thr), " At %ld request%s in flight the %d replicas decode %.1f "
			 "tokens/s (a %s step of one server for each token); split as %s they "
			 "decode at most %.1f tokens/s: each stage holds 1/%d of the layers, and a "
			 "token still passes every stage, plus %s over the back end.",
			 in->concurrency, in->concurrency == 1 ? "" : "s", in->servers,
			 p->replicas_tok_s, nicfit_fmt_seconds(p->replicas_step_s, b1, sizeof(b1)),
			 lay.name,
			 p->split_tok_s, in->servers,
			 nicfit_fmt_seconds(p->step_be_known ? p->step_be.comm_s : 0, b2, sizeof(b2)));
	nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_REPLICAS_FIRST,
			  "run one replica per server behind a load balancer (--workload "
			  "replicated-inference): no back-end fabric; split only a model, or a KV "
			  "cache, that one server cannot hold",
			  "%s at %s (%.1f GB with its KV cache) fits one %s %.1f times over (%.1f GB "
			  "usable): %d replicas behind a load balancer need no back end, where the split "
			  "asked needs one for every token.%s", name,
			  nicfit_precision_name(in->precision), p->fit.total_gb, in->server->e.name,
			  p->replicas_fit_times, p->fit.capacity_gb, in->servers, thr);
	plan_decide(&p->decisions, "R2", 1,
		    "Replicas before splits: the model fits one server, so %d replicas would need no "
		    "back end; the split asked is planned, and the verdict recommends the replicas.",
		    in->servers);
}

/*
 * R2 replicas-first on a rack-scale NVLink domain (GB200/GB300 NVL72): a
 * model that needs k trays but fits inside one domain of t trays runs
 * floor(t / k) replicas a domain, each over NVLink alone (the domain's
 * NVLink switch trays join its trays' GPUs, DGX SuperPOD GB200 RA); no
 * token crosses the scale-out back end, which a split over every tray
 * asked would use for each one.
 */
static void domain_first(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const char *name = in->model ? in->model->e.name : "The model";
	int k = p->servers_needed, big, part, per;
	char thr[400], b1[32], b2[32], inpart[96];

	p->replicas_first = 1;
	p->replicas_domain = 1;
	/* every domain's replicas: whole racks' and a partial rack's (nicfit__plan_domain_trays) */
	p->replicas = nicfit__plan_domain_replicas(p, k, &big, &part);
	per = big / k;
	p->replicas_fit_times = p->fit.capacity_gb * big / p->fit.total_gb;
	inpart[0] = '\0';
	if (part)
		plan_fmt(inpart, sizeof(inpart), ", %d of them in the %d trays past the whole racks",
			 part / k, part);
	thr[0] = '\0';
	if (throughputs(p) == 0)
		plan_fmt(thr, sizeof(thr), " At %ld request%s in flight the %d replicas decode %.1f "
			 "tokens/s (a %s step of %d trays for each token); split over all %d trays "
			 "they decode at most %.1f tokens/s, plus %s over the back end.",
			 in->concurrency, in->concurrency == 1 ? "" : "s", p->replicas,
			 p->replicas_tok_s, nicfit_fmt_seconds(p->replicas_step_s, b1, sizeof(b1)), k,
			 in->servers, p->split_tok_s,
			 nicfit_fmt_seconds(p->step_be_known ? p->step_be.comm_s : 0, b2, sizeof(b2)));
	nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_REPLICAS_FIRST,
			  "run one replica per group of trays inside an NVLink domain: the back end "
			  "is then needed only for what leaves a domain (training, storage, a model "
			  "larger than the domain)",
			  "%s at %s (%.1f GB with its KV cache) needs %d trays of %s and fits one "
			  "%d-GPU NVLink domain (%d trays) %.1f times over: %d replicas a domain, %d in "
			  "all%s, each on NVLink alone, need no back end, where the split asked sends "
			  "every token across it.%s", name, nicfit_precision_name(in->precision),
			  p->fit.total_gb, k, in->server->e.name, big * in->gpus_per_server, big,
			  p->replicas_fit_times, per, p->replicas, inpart, thr);
	plan_decide(&p->decisions, "R2", 1,
		    "Replicas before splits: the model fits one NVLink domain of %d trays, so %d "
		    "replicas of %d trays would need no back end; the split asked is planned, and the "
		    "verdict recommends the replicas.", big, p->replicas, k);
}

/* The verdict's last sentence when replicas-first applied to a plan that can be built. */
void nicfit__plan_replicas_verdict(struct nicfit_plan *p)
{
	size_t n = strlen(p->verdict);
	char thr[160];

	if (!p->replicas_first || !p->buildable)
		return;
	thr[0] = '\0';
	if (p->replicas_tok_s > 0)
		plan_fmt(thr, sizeof(thr), " and decode %.1f tokens/s against the split's %.1f",
			 p->replicas_tok_s, p->split_tok_s);
	plan_fmt(p->verdict + n, sizeof(p->verdict) - n,
		 " nicfit recommends %d replicas behind a load balancer instead: the model fits one "
		 "%s %.1f times over, so the replicas need no back end%s (replicas-first).",
		 p->replicas, p->replicas_domain ? "NVLink domain" : "server", p->replicas_fit_times,
		 thr);
}
