/*
 * plan_fit.c - the rules about the model and the job: R1, whether the
 * model fits one server (or how many its training state needs), and R2,
 * whether the plan needs a back-end fabric at all, and R1 again on the GPUs
 * R6 could place. Nothing here chooses parts; that starts with R3
 * (plan_frontend.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nicfit/llm.h"
#include "nicfit/units.h"
#include "core/num_int.h"
#include "plan/plan_int.h"

/* ---- R1: model fit ------------------------------------------------------ */

/*
 * --weights-gb without --params: the parameters are counted as if the
 * weights were 16-bit (bf16/fp16), the precision models are published in.
 */
#define WEIGHT_BITS_PER_PARAM 16.0
/*
 * The GPU memory (GiB) the fit is computed against when only the weights'
 * size is wanted (no GPU given): large enough that nothing is refused.
 */
#define WEIGHTS_ONLY_GPU_GIB 1e4

static const char *fits_word(int fits)
{
	return fits ? "fits one server" : "does not fit one server";
}

/* The model as the text names it: its catalog name, or its size. */
static void model_name(const struct nicfit_plan_input *in, char *name, size_t n)
{
	if (in->model)
		nicfit__plan_copy(name, n, in->model->e.name);
	else if (in->params > 0)
		plan_fmt(name, n, "a %.3gB-parameter model", in->params / 1e9);
	else
		plan_fmt(name, n, "a %.1f GB model", in->weights_gb);
}

/* The model's architecture, its parameter count from the request. */
static void model_arch(const struct nicfit_plan_input *in, struct nicfit_arch *arch)
{
	memset(arch, 0, sizeof(*arch));
	if (in->model)
		*arch = in->model->arch;
	arch->params = in->params > 0 ? in->params :
		       in->weights_gb * 1e9 * 8 / WEIGHT_BITS_PER_PARAM;
}

/*
 * R1 without a GPU: a model was given but nothing to fit it in. Whether
 * one server holds it decides R2 for inference, so this is a warning: the
 * back-end decision then rests on the workload alone. The weights' size
 * is still worked out, because it sizes the model download of R3.
 */
static void fit_no_gpu(struct nicfit_plan *p, const char *name)
{
	const struct nicfit_plan_input *in = &p->in;
	struct nicfit_arch arch;

	plan_decide(&p->decisions, "R1", 0,
		    "No GPU given (--gpu, --gpus-per-server): %s is not checked "
		    "against GPU memory.", name);
	nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_FIT_NOT_CHECKED,
			  "give --gpu ID and --gpus-per-server N",
			  "No GPU given: whether %s fits one server was not checked, so the back-end "
			  "decision rests on the workload alone.", name);
	model_arch(in, &arch);
	if (in->weights_gb > 0)
		p->weights_only_gb = in->weights_gb;
	else if (!nicfit_calc_fit(&arch, in->precision, 0, 0, 1, WEIGHTS_ONLY_GPU_GIB, &in->llm,
				  &p->fit, NULL))
		p->weights_only_gb = p->fit.weights_gb;
	memset(&p->fit, 0, sizeof(p->fit));
}

/* GPUs and servers that hold state_gb, usable per_gpu GB on each GPU. */
static void size_state(struct nicfit_plan *p, double state_gb, double per_gpu)
{
	int gpus = p->in.gpus_per_server;

	p->train_state_gb = state_gb;
	p->fit.total_gb = state_gb; /* what the job needs across its GPUs */
	p->gpus_needed = (int)ceil(state_gb / per_gpu - NICFIT_EPS);
	p->servers_needed = (p->gpus_needed + gpus - 1) / gpus;
	p->fits_one_server = state_gb <= p->fit.capacity_gb;
}

/*
 * R1 for adapter fine-tuning (LoRA, QLoRA): fine-tuning a model quantised
 * to fp8 or below cannot update its weights, so the quantised base stays
 * frozen and only the adapters (adapter_share of the parameters, 1% by
 * default, an --assume) carry gradients and optimizer state at
 * train_bytes each. The base's weights plus the adapters' state is what
 * must fit; activations come on top and are not counted.
 */
static void fit_adapters(struct nicfit_plan *p, const struct nicfit_arch *arch,
			 const char *name, double per_gpu)
{
	const struct nicfit_plan_input *in = &p->in;
	double adapters = arch->params * in->llm.adapter_share;

	p->adapters = 1;
	size_state(p, p->fit.weights_gb + adapters * in->llm.train_bytes / 1e9, per_gpu);
	plan_decide(&p->decisions, "R1", 1,
		    "%s fine-tuned at %s: adapter fine-tuning (LoRA/QLoRA) keeps the %.1f GB "
		    "quantised base frozen and trains %.2gB adapter parameters (%.1f%% of the "
		    "model) at %g bytes each: %.1f GB before activations; one server's %d x %s "
		    "hold %.1f GB usable -> %s. (For a full fine-tune give --precision bf16.)",
		    name, nicfit_precision_name(in->precision), p->fit.weights_gb, adapters / 1e9,
		    in->llm.adapter_share * 100, in->llm.train_bytes, p->train_state_gb,
		    in->gpus_per_server, in->gpu->e.name, p->fit.capacity_gb,
		    fits_word(p->fits_one_server));
}

/*
 * R1 for training and full fine-tuning: mixed-precision Adam keeps bf16
 * weights and gradients, fp32 moments and master weights, 16 bytes per
 * parameter (train_bytes, an --assume), and ZeRO-3/FSDP shards that state
 * over every GPU of the job, so the state over the usable memory of one
 * GPU gives the GPUs, and the servers, the job needs. Activations come on
 * top and are not counted.
 */
static void fit_training(struct nicfit_plan *p, const struct nicfit_arch *arch,
			 const char *name, double per_gpu)
{
	const struct nicfit_plan_input *in = &p->in;

	size_state(p, arch->params * in->llm.train_bytes / 1e9, per_gpu);
	plan_decide(&p->decisions, "R1", 1,
		    "%s: %.1f GB of training state (%.3gB parameters x %g bytes: bf16 weights and "
		    "gradients, fp32 Adam moments and master weights) before activations; one "
		    "server's %d x %s hold %.1f GB usable -> %s (sharded with ZeRO-3/FSDP it needs "
		    "%d GPU%s, %d server%s).",
		    name, p->train_state_gb, arch->params / 1e9, in->llm.train_bytes,
		    in->gpus_per_server, in->gpu->e.name, p->fit.capacity_gb,
		    fits_word(p->fits_one_server), p->gpus_needed,
		    p->gpus_needed == 1 ? "" : "s", p->servers_needed,
		    p->servers_needed == 1 ? "" : "s");
}

/*
 * R1 for a model split across servers: the GPUs it needs, rounded up to a
 * layout a serving engine can run (nicfit_layout_pick: tensor parallel
 * dividing the attention and KV heads, inside the server or its NVLink
 * domain; pipeline stages across servers), and the servers that layout
 * takes. "Needs 6 GPUs" is not a count any tensor-parallel split of a
 * 128-head model can use; 8 is.
 */
static void split_layout(struct nicfit_plan *p, int gpus)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_model *m = in->model;
	struct nicfit_arch none;
	struct nicfit_layout lay;

	memset(&none, 0, sizeof(none));
	if (nicfit_layout_pick(m ? &m->arch : &none, m ? m->experts : 0, p->gpus_needed, gpus,
			       in->gpu->nvlink_domain, &lay, NULL)) {
		plan_decide(&p->decisions, "R1", 1,
			    "It needs %d GPUs of this kind: %d server%s of %d.",
			    p->gpus_needed, p->servers_needed, p->servers_needed == 1 ? "" : "s",
			    gpus);
		return;
	}
	p->layout = lay;
	plan_decide(&p->decisions, "R1", 1,
		    "It needs %d GPUs of this kind; the layout a serving engine can run is %s "
		    "(%d GPUs: tensor parallel divides the %d attention and %d KV heads and stays "
		    "inside a server, pipeline stages go across servers).", p->gpus_needed,
		    lay.name, lay.gpus, m ? m->arch.heads : 0, m ? m->arch.kv_heads : 0);
	p->gpus_needed = lay.gpus;
	p->servers_needed = lay.nodes;
}

/*
 * R1 for inference: the weights (parameters x bits per parameter of the
 * precision) and the KV cache (context x concurrency tokens) must fit the
 * server's GPUs at gpu_util of their memory (90% by default: the runtime,
 * CUDA context and fragmentation take the rest). nicfit_calc_fit() does
 * the arithmetic; a model without its layer and head counts is fitted on
 * its weights alone, and the text says so.
 */
static void fit_inference(struct nicfit_plan *p, const char *name, double per_gpu)
{
	const struct nicfit_plan_input *in = &p->in;
	int gpus = in->gpus_per_server;

	p->gpus_needed = p->fit.gpus_needed;
	p->servers_needed = (p->gpus_needed + gpus - 1) / gpus;
	p->fits_one_server = p->fit.fits;
	if (p->fit.kv_known)
		plan_decide(&p->decisions, "R1", 1,
			    "%s at %s: %.1f GB of weights (%.2f bits per parameter) + %.1f GB of KV cache "
			    "(%ld tokens x %ld request%s x %.0f kB per token) = %.1f GB; one server's %d x "
			    "%s hold %.1f GB usable (%.0f%% of %.1f GB each) -> %s%s.",
			    name, nicfit_precision_name(in->precision), p->fit.weights_gb,
			    p->fit.bits_per_param, p->fit.kv_cache_gb, in->context, in->concurrency,
			    in->concurrency == 1 ? "" : "s", p->fit.kv_bytes_per_token / 1e3,
			    p->fit.total_gb, gpus, in->gpu->e.name, p->fit.capacity_gb,
			    in->llm.gpu_util * 100, p->fit.gpu_gb, fits_word(p->fits_one_server),
			    p->fit.total_gb <= per_gpu ? " (even one GPU holds it)" : "");
	else
		plan_decide(&p->decisions, "R1", 1,
			    "%s at %s: %.1f GB of weights; one server's %d x %s hold %.1f GB usable -> %s "
			    "(KV cache not counted: the model's layer and head counts are unknown).",
			    name, nicfit_precision_name(in->precision), p->fit.weights_gb, gpus,
			    in->gpu->e.name, p->fit.capacity_gb, fits_word(p->fits_one_server));
	if (!p->fits_one_server)
		split_layout(p, gpus);
}

/*
 * R1, model fit (docs/rules.md): does the model, or the job's training
 * state, fit one server's GPUs, and if not how many GPUs and servers it
 * needs. R2 decides the back end from it. Without a model there is
 * nothing to check: the plan assumes inference fits one server and says
 * so (an info, since planning one server's network without a model is
 * ordinary); the other cases are above.
 */
void nicfit__plan_rule_fit(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	struct nicfit_arch arch;
	struct nicfit_error err;
	char name[160];
	int train;

	p->fits_one_server = 1;
	p->servers_needed = 1;
	if (!(in->params > 0) && !(in->weights_gb > 0)) {
		plan_decide(&p->decisions, "R1", 0,
			    "No model given (--model, --params or --weights-gb): "
			    "memory fit not checked; the network is planned from the workload alone.");
		if (in->workload == NICFIT_WL_INFERENCE || in->workload == NICFIT_WL_REPLICATED)
			nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_FIT_NOT_CHECKED,
					  "give --model ID (or --params N, --weights-gb X) and the GPUs",
					  "No model given: the plan assumes it fits one server.");
		return;
	}
	model_name(in, name, sizeof(name));
	if (!in->gpu || in->gpus_per_server < 1) {
		fit_no_gpu(p, name);
		return;
	}
	model_arch(in, &arch);
	nicfit_error_clear(&err);
	train = nicfit__plan_is_training(in->workload);
	if (nicfit_calc_fit(&arch, in->precision, train ? 0 : in->context,
			    train ? 0 : in->concurrency, in->gpus_per_server, in->gpu->memory_gib,
			    &in->llm, &p->fit, &err))
		return;
	if (in->weights_gb > 0) {
		p->fit.weights_gb = in->weights_gb;
		p->fit.total_gb = p->fit.weights_gb + p->fit.kv_cache_gb;
	}
	p->fit_known = 1;
	if (in->workload == NICFIT_WL_FINETUNING && in->precision >= NICFIT_PREC_FP8)
		fit_adapters(p, &arch, name, p->fit.gpu_gb * in->llm.gpu_util);
	else if (train)
		fit_training(p, &arch, name, p->fit.gpu_gb * in->llm.gpu_util);
	else
		fit_inference(p, name, p->fit.gpu_gb * in->llm.gpu_util);
}

/* ---- R2: back end or not ------------------------------------------------ */

/*
 * R2, back end or not (docs/rules.md), by workload. A back-end RDMA
 * fabric carries GPU traffic between servers, so it is needed exactly when
 * GPU traffic crosses servers: a model split across servers (it does not
 * fit one, or multi-node inference was asked for) exchanges activations
 * every token, distributed training or fine-tuning exchanges gradients
 * every step, and RDMA storage is RDMA by definition. Inference that fits
 * one server, and replicas behind a load balancer, keep their GPU traffic
 * inside each server: the front end is all they need.
 */
int nicfit__plan_scaleup_split(const struct nicfit_plan_input *in)
{
	const struct nicfit_gpu *g = in->gpu;

	return g && g->scaleout_ports > 0 && g->nvlink_domain > 0 &&
	       in->gpus_per_server > g->nvlink_domain;
}

static void backend_by_workload(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;

	if (nicfit__plan_serving_backend(p))
		return;
	switch (in->workload) {
	case NICFIT_WL_REPLICATED:
		p->backend_needed = 0;
		plan_decide(&p->decisions, "R2", 1,
			    "Replicated inference: each of the %d server%s runs its own "
			    "copy of the model behind a load balancer and answers its own requests, so "
			    "no GPU traffic crosses servers: no back-end fabric.",
			    in->servers, in->servers == 1 ? "" : "s");
		if (!p->fits_one_server && p->fit_known)
			nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_REPLICA_DOES_NOT_FIT,
					  "use a smaller precision (--precision int4), more GPUs per server, or "
					  "split each replica across servers (--workload multi-node-inference)",
					  "A replica does not fit one server (%.1f GB needed, %.1f GB usable), so "
					  "replicas cannot run one per server.",
					  p->fit.total_gb, p->fit.capacity_gb);
		return;
	case NICFIT_WL_INFERENCE:
		if (p->fits_one_server) {
			p->backend_needed = 0;
			plan_decide(&p->decisions, "R2", 1,
				    "Inference with the model inside one server: GPU-to-GPU "
				    "traffic stays on that server's PCIe%s and never touches the network: "
				    "no back-end fabric.",
				    in->gpu && in->gpu->nvlink_gbs > 0 ? " (or NVLink bridge)" : "");
			if (in->servers > 1)
				plan_decide(&p->decisions, "R2", 1,
					    "With %d servers each serving on its own "
					    "(behind a load balancer) there is still no back end.",
					    in->servers);
			return;
		}
		p->backend_needed = 1;
		if (nicfit__plan_split_domain_only(cat, p, "Inference split"))
			return;
		plan_decide(&p->decisions, "R2", 1,
			    "The model does not fit one server, so it must be split "
			    "(tensor or pipeline parallel) across %d servers that exchange activations "
			    "for every token: back-end RDMA fabric needed.", p->servers_needed);
		break;
	case NICFIT_WL_MULTINODE_INFERENCE:
		p->backend_needed = in->servers > 1;
		if (p->backend_needed && nicfit__plan_split_domain_only(cat, p, "Multi-node inference"))
			break;
		if (p->backend_needed)
			plan_decide(&p->decisions, "R2", 1,
				    "Multi-node inference: one model split across %d servers "
				    "(pipeline or tensor parallel) exchanges activations for every token: "
				    "back-end RDMA fabric needed.", in->servers);
		else
			plan_decide(&p->decisions, "R2", 1,
				    "Multi-node inference on 1 server is single-node "
				    "inference: no back-end fabric (give --servers N to split).");
		break;
	case NICFIT_WL_TRAINING:
	case NICFIT_WL_FINETUNING:
		p->backend_needed = in->servers > 1 || nicfit__plan_scaleup_split(in);
		if (in->servers > 1 &&
		    nicfit__plan_rule_domain_only(cat, p, in->workload == NICFIT_WL_TRAINING ?
						  "Training" : "Fine-tuning", in->servers))
			break;
		if (in->servers > 1)
			plan_decide(&p->decisions, "R2", 1,
				    "Distributed %s across %d servers exchanges gradients on "
				    "every step (all-reduce): back-end RDMA fabric needed.",
				    in->workload == NICFIT_WL_TRAINING ? "training" : "fine-tuning",
				    in->servers);
		else if (p->backend_needed)
			plan_decide(&p->decisions, "R2", 1,
				    "%s on one server of %d %s: its scale-up links join only %d "
				    "cards (Intel HCL's scale-up group), so the server's %d groups exchange "
				    "gradients over the cards' own scale-out ports: they need a switch even "
				    "for one server.",
				    in->workload == NICFIT_WL_TRAINING ? "Training" : "Fine-tuning",
				    in->gpus_per_server, in->gpu->e.name, in->gpu->nvlink_domain,
				    (in->gpus_per_server + in->gpu->nvlink_domain - 1) /
				    in->gpu->nvlink_domain);
		else
			plan_decide(&p->decisions, "R2", 1,
				    "%s on one server: gradients are exchanged over the "
				    "server's own PCIe/NVLink: no back-end fabric.",
				    in->workload == NICFIT_WL_TRAINING ? "Training" : "Fine-tuning");
		break;
	case NICFIT_WL_RDMA_STORAGE:
		p->backend_needed = 1;
		plan_decide(&p->decisions, "R2", 1,
			    "RDMA storage (NVMe over Fabrics, Ceph or a parallel file "
			    "system over RDMA) feeding the GPU server%s: RDMA fabric needed.",
			    in->servers == 1 ? "" : "s");
		break;
	}
}

/*
 * R2, add GPUs first, for training and fine-tuning (add-gpus-first): a
 * job whose training state does not fit the GPUs asked for but fits the
 * same server with more of them (R1's sharded count, no more than the
 * server's slots take) trains there with its gradients on PCIe and no
 * back end. On one server that is the plan: a warning, and the plan is
 * made with those GPUs (the alternative, the warning that the state does
 * not fit, tells the user to buy servers). When servers were asked for,
 * the plan keeps them, and this is an info: the job asked spans servers,
 * so it needs the back end the article prescribes (its two R740xd with
 * 2 x A40 for an 8B model keep the 100G ConnectX-5), and it computes on
 * more GPUs than one server holds (4 against 3); the info gives the
 * one-server way and what it trades.
 */
static void training_add_gpus(struct nicfit_plan *p)
{
	struct nicfit_plan_input *in = &p->in;
	int room, asked = in->gpus_per_server;
	const char *name = in->model ? in->model->e.name : "The job";
	char fix[160];

	if (!p->fit_known || p->fits_one_server || !in->gpu ||
	    !nicfit__plan_is_training(in->workload))
		return;
	room = nicfit__plan_gpu_room(p);
	if (room <= asked || p->gpus_needed > room || p->gpus_needed < 1)
		return;
	plan_fmt(fix, sizeof(fix), "to train on one server instead: --servers 1 --gpus-per-server %d",
		 p->gpus_needed);
	if (in->servers > 1) {
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_ADD_GPUS_FIRST, fix,
				  "%s's training state (%.1f GB) fits one %s with %d x %s (it holds up to "
				  "%d): on one server the gradients stay on PCIe and no back end is needed. "
				  "The plan keeps the %d servers asked: the job spans servers, so it needs a "
				  "back end, and it computes on %d GPUs, not %d.", name, p->train_state_gb,
				  in->server->e.name, p->gpus_needed, in->gpu->e.name, room, in->servers,
				  asked * in->servers, p->gpus_needed);
		return;
	}
	plan_fmt(fix, sizeof(fix), "add the GPUs to this server (--gpus-per-server %d), or train "
		 "adapters only (LoRA/QLoRA: --workload fine-tuning --precision int4)", p->gpus_needed);
	nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_ADD_GPUS_FIRST, fix,
			  "%s's training state (%.1f GB) needs %d x %s and %s holds up to %d: add GPUs to "
			  "this server before sharding the job across servers, which would need a "
			  "back-end fabric for every step. Planned with %d x %s in one server.", name,
			  p->train_state_gb, p->gpus_needed, in->gpu->e.name, in->server->e.name, room,
			  p->gpus_needed, in->gpu->e.name);
	plan_decide(&p->decisions, "R2", 1,
		    "%s trains on one %s with %d x %s (ZeRO-3/FSDP inside the server): planned "
		    "that way, with no back end.", name, in->server->e.name, p->gpus_needed,
		    in->gpu->e.name);
	p->fit.capacity_gb *= (double)p->gpus_needed / asked;
	in->gpus_per_server = p->gpus_needed;
	p->fits_one_server = p->train_state_gb <= p->fit.capacity_gb + NICFIT_EPS;
	p->servers_needed = 1;
}

/*
 * R2's check of a training job's servers (training-state-does-not-fit):
 * the servers its state needs, counted on the GPUs a server holds when
 * its slots take fewer than asked (84 GPUs are 21 servers of the 4 a
 * SYS-221GE-NR holds, not 11 of the 8 asked), as R1 counts them again
 * once the GPUs are placed (nicfit__plan_fit_placed).
 */
static void training_servers(struct nicfit_plan *p, int *alone)
{
	const struct nicfit_plan_input *in = &p->in;
	int per = in->gpus_per_server, room = in->gpu ? nicfit__plan_gpus_alone_memo(p, alone) : per;
	int need = p->servers_needed;
	char held[64];

	if (room < 0) {
		p->findings.oom = 1;
		return;
	}
	held[0] = 0;
	if (room > 0 && room < per && p->gpus_needed > 0) {
		need = (p->gpus_needed + room - 1) / room;
		plan_fmt(held, sizeof(held), " of the %d a server holds", room);
	}
	if (need <= in->servers)
		return;
	nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_TRAINING_STATE_DOES_NOT_FIT,
			  "shard the job over more servers (--servers N), offload optimizer state to CPU "
			  "memory (ZeRO-Offload), or train adapters only (LoRA/QLoRA)",
			  "The training state (%.1f GB) needs %d GPUs of this kind (%d server%s%s); the "
			  "plan has %d server%s.", p->train_state_gb, p->gpus_needed, need,
			  need == 1 ? "" : "s", held, in->servers, in->servers == 1 ? "" : "s");
}

/*
 * R2, back end or not: the request, then the servers it needs. After the
 * workload's answer, the servers asked for are checked against R1's
 * count: a training job short of servers is a warning (it can still run
 * with offload or adapters), a model that must be split and has too few
 * servers cannot run at all, so it is critical and the plan is made for
 * the fewest servers that hold it.
 */
void nicfit__plan_rule_backend_needed(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	/* the GPUs the server holds alone: the same for training_servers() and R9's traffic */
	int alone = NICFIT__PLAN_UNKNOWN;

	if (!nicfit__plan_add_gpus_first(p))
		training_add_gpus(p);
	backend_by_workload(cat, p);
	if (nicfit__plan_is_training(in->workload) && p->fit_known)
		training_servers(p, &alone);
	if (p->domain_only) {
		/* R9 still works out the step over the one domain: 0 B leave it */
		nicfit__plan_traffic(p, &alone);
		return;
	}
	if (!p->backend_needed || in->disagg)
		return;
	if (p->fit_known && p->servers_needed > in->servers &&
	    (in->workload == NICFIT_WL_INFERENCE || in->workload == NICFIT_WL_MULTINODE_INFERENCE)) {
		/* a model that must be split is planned on the fewest servers that hold it */
		int asked = in->servers;

		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_NOT_ENOUGH_SERVERS,
				  "plan with --servers N, a smaller precision (--precision int4), or more GPUs "
				  "per server",
				  "%s needs %d GPUs (%d servers of %d x %s) but %d server%s %s asked for: the plan "
				  "below is for %d.", in->model ? in->model->e.name : "The model", p->gpus_needed,
				  p->servers_needed, in->gpus_per_server, in->gpu->e.name, asked,
				  asked == 1 ? "" : "s", asked == 1 ? "was" : "were", p->servers_needed);
		p->in.servers = p->servers_needed;
		plan_decide(&p->decisions, "R2", 1,
			    "Planned for %d servers, the fewest whose GPUs hold the model "
			    "(%d %s asked).", p->servers_needed, asked, asked == 1 ? "was" : "were");
		/* trays of one rack: the split stays inside its NVLink domain */
		if (nicfit__plan_rule_domain_only(cat, p, in->workload == NICFIT_WL_INFERENCE ?
						  "Inference split" : "Multi-node inference",
						  p->in.servers)) {
			nicfit__plan_traffic(p, &alone);
			return;
		}
	}
	nicfit__plan_traffic(p, &alone);
}

/* For --explain: the other triggers of R2, and why they did not fire. */
void nicfit__plan_explain_backend(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const char *w = nicfit_workload_name(in->workload);

	if (in->workload != NICFIT_WL_MULTINODE_INFERENCE && in->workload != NICFIT_WL_INFERENCE)
		plan_decide(&p->decisions, "R2", 0,
			    "A model split across servers needs a back end; this workload "
			    "does not split one model (%s).", w);
	else if (p->fits_one_server)
		plan_decide(&p->decisions, "R2", 0,
			    "A model split across servers needs a back end; this one fits "
			    "one server, so it need not be split.");
	if (!(in->workload == NICFIT_WL_TRAINING || in->workload == NICFIT_WL_FINETUNING) ||
	    in->servers < 2)
		plan_decide(&p->decisions, "R2", 0,
			    "Distributed training or fine-tuning across servers needs a back "
			    "end; not planned here (%s on %d server%s).", w, in->servers,
			    in->servers == 1 ? "" : "s");
	if (in->workload != NICFIT_WL_RDMA_STORAGE)
		plan_decide(&p->decisions, "R2", 0,
			    "RDMA storage (NVMe-oF, Ceph or a parallel file system over RDMA) "
			    "needs an RDMA fabric; not asked for (--workload rdma-storage).");
	if (!p->backend_needed) {
		plan_decide(&p->decisions, "R5", 0, "No back-end card: no back end is needed.");
		plan_decide(&p->decisions, "R6", 0,
			    "No back-end slot to choose; the GPUs still get theirs.");
		plan_decide(&p->decisions, "R7", 0,
			    "No back-end fabric (RoCE v2 or InfiniBand) to choose.");
	}
}

/*
 * R1 again, on what R6 could place: the model's fit was judged on the
 * GPUs asked for, but a server with room for fewer holds only what its
 * slots take (8 x H100 asked, 4 placed: 309 GB usable, not 618), so the
 * fit, and model_fit in the JSON, are judged again on the placed GPUs. A
 * model that no longer fits is split again, by the layout rule above on
 * the placed GPUs, so gpus_needed is always a layout's count, never the
 * raw quotient of memory over GPUs (6 for a 128-head model: TP 4 x PP 2
 * runs it, on 8).
 */
void nicfit__plan_fit_placed(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	double need;
	int i;

	p->gpus_placed = 0;
	for (i = 0; i < NICFIT_PLAN_MAX_GPUS && i < in->gpus_per_server; i++)
		p->gpus_placed += p->gpu_slots[i] >= 0;
	if (!p->fit_known || !in->gpu || p->gpus_placed >= in->gpus_per_server)
		return;
	need = p->train_state_gb > 0 ? p->train_state_gb : p->fit.total_gb;
	p->fit.capacity_gb *= (double)p->gpus_placed / in->gpus_per_server;
	p->fit.fits = need <= p->fit.capacity_gb;
	p->fits_one_server = p->fit.fits;
	plan_decide(&p->decisions, "R1", 1,
		    "Only %d of the %d x %s asked fit %s: they hold %.1f GB usable, %s the %.1f GB "
		    "needed.", p->gpus_placed, in->gpus_per_server, in->gpu->e.name,
		    in->server->e.name, p->fit.capacity_gb,
		    p->fit.fits ? "enough for" : "less than", need);
	if (p->gpus_placed < 1)
		return;
	if (p->train_state_gb > 0 || p->fits_one_server) {
		p->servers_needed = (p->gpus_needed + p->gpus_placed - 1) / p->gpus_placed;
		return;
	}
	memset(&p->layout, 0, sizeof(p->layout));
	p->gpus_needed = p->fit.gpus_needed;
	p->servers_needed = (p->gpus_needed + p->gpus_placed - 1) / p->gpus_placed;
	split_layout(p, p->gpus_placed);
}
