/*
 * plan.c - the decision system of `nicfit plan` (see nicfit/plan.h).
 *
 * The rules, in the order they run (docs/rules.md explains each):
 *   R1  model fit: weights + KV cache (or training state) against one server
 *   R2  back end or not: only when one model or job spans servers, or RDMA storage
 *   R3  front end: onboard ports when they suffice; load time; serving traffic
 *   R4  out-of-band management port
 *   R5  back-end card: RDMA only; the speed the slot can feed; cheapest that meets it
 *   R6  slots: GPUs first, then the card on the GPUs' socket
 *   R7  fabric: RoCE v2 with its switch checklist, or InfiniBand with a subnet manager
 *   R8  cables per link
 *   R9  estimates: gradient all-reduce per step, load time, serving bandwidth
 *   R10 bill of materials with sourced prices only
 *   R11 findings: what the user should know
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nicfit/calc.h"
#include "nicfit/plan.h"
#include "nicfit/units.h"
#include "plan_int.h"

void plan_decide(struct nicfit_plan *p, const char *rule, int applied, const char *fmt, ...)
{
	struct nicfit_plan_decision *d;
	va_list ap;

	if (p->ndecisions >= NICFIT_PLAN_MAX_DECISIONS)
		return;
	d = &p->decisions[p->ndecisions++];
	snprintf(d->rule, sizeof(d->rule), "%s", rule);
	d->applied = applied;
	va_start(ap, fmt);
	vsnprintf(d->text, sizeof(d->text), fmt, ap);
	va_end(ap);
}

void plan_find(struct nicfit_plan *p, enum nicfit_severity sev, const char *code,
	       const char *fix, const char *fmt, ...)
{
	struct nicfit_plan_finding *f;
	va_list ap;

	if (p->nfindings >= NICFIT_PLAN_MAX_FINDINGS)
		return;
	f = &p->findings[p->nfindings++];
	f->severity = sev;
	snprintf(f->code, sizeof(f->code), "%s", code);
	snprintf(f->fix, sizeof(f->fix), "%s", fix ? fix : "");
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
}

/* ---- R1: model fit ------------------------------------------------------ */

static int is_training(enum nicfit_workload w)
{
	return w == NICFIT_WL_TRAINING || w == NICFIT_WL_FINETUNING;
}

static void rule_fit(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	struct nicfit_arch arch;
	struct nicfit_error err;
	double per_gpu, cap;
	char name[160];
	int gpus = in->gpus_per_server;

	p->fits_one_server = 1;
	p->servers_needed = 1;
	if (!(in->params > 0) && !(in->weights_gb > 0)) {
		plan_decide(p, "R1", 0, "No model given (--model, --params or --weights-gb): "
			    "memory fit not checked; the network is planned from the workload alone.");
		if (in->workload == NICFIT_WL_INFERENCE || in->workload == NICFIT_WL_REPLICATED)
			plan_find(p, NICFIT_SEV_INFO, "fit-not-checked",
				  "give --model ID (or --params N, --weights-gb X) and the GPUs",
				  "No model given: the plan assumes it fits one server.");
		return;
	}
	if (in->model)
		snprintf(name, sizeof(name), "%s", in->model->e.name);
	else if (in->params > 0)
		snprintf(name, sizeof(name), "a %.3gB-parameter model", in->params / 1e9);
	else
		snprintf(name, sizeof(name), "a %.1f GB model", in->weights_gb);
	if (!in->gpu || gpus < 1) {
		plan_decide(p, "R1", 0, "No GPU given (--gpu, --gpus-per-server): %s is not checked "
			    "against GPU memory.", name);
		plan_find(p, NICFIT_SEV_WARNING, "fit-not-checked",
			  "give --gpu ID and --gpus-per-server N",
			  "No GPU given: whether %s fits one server was not checked, so the back-end "
			  "decision rests on the workload alone.", name);
		/* the weights still size the model download (R3) */
		memset(&arch, 0, sizeof(arch));
		if (in->model)
			arch = in->model->arch;
		arch.params = in->params > 0 ? in->params : in->weights_gb * 1e9 * 8 / 16;
		if (in->weights_gb > 0)
			p->weights_only_gb = in->weights_gb;
		else if (!nicfit_calc_fit(&arch, in->precision, 0, 0, 1, 1e4, &in->llm, &p->fit, NULL))
			p->weights_only_gb = p->fit.weights_gb;
		memset(&p->fit, 0, sizeof(p->fit));
		return;
	}
	memset(&arch, 0, sizeof(arch));
	if (in->model)
		arch = in->model->arch;
	arch.params = in->params > 0 ? in->params : in->weights_gb * 1e9 * 8 / 16;
	nicfit_error_clear(&err);
	if (nicfit_calc_fit(&arch, in->precision, is_training(in->workload) ? 0 : in->context,
			    is_training(in->workload) ? 0 : in->concurrency, gpus,
			    in->gpu->memory_gib, &in->llm, &p->fit, &err))
		return;
	if (in->weights_gb > 0) {
		p->fit.weights_gb = in->weights_gb;
		p->fit.total_gb = p->fit.weights_gb + p->fit.kv_cache_gb;
	}
	p->fit_known = 1;
	per_gpu = p->fit.gpu_gb * in->llm.gpu_util;
	cap = p->fit.capacity_gb;
	if (in->workload == NICFIT_WL_FINETUNING && in->precision >= NICFIT_PREC_FP8) {
		/* Adapter fine-tuning (LoRA, QLoRA): the quantised base is frozen;
		 * only the adapters carry gradients and optimizer state. */
		double adapters = arch.params * in->llm.adapter_share;

		p->adapters = 1;
		p->train_state_gb = p->fit.weights_gb + adapters * in->llm.train_bytes / 1e9;
		p->fit.total_gb = p->train_state_gb;
		p->gpus_needed = (int)ceil(p->train_state_gb / per_gpu - 1e-9);
		p->servers_needed = (p->gpus_needed + gpus - 1) / gpus;
		p->fits_one_server = p->train_state_gb <= cap;
		plan_decide(p, "R1", 1,
			    "%s fine-tuned at %s: adapter fine-tuning (LoRA/QLoRA) keeps the %.1f GB "
			    "quantised base frozen and trains %.2gB adapter parameters (%.1f%% of the "
			    "model) at %g bytes each: %.1f GB before activations; one server's %d x %s "
			    "hold %.1f GB usable -> %s. (For a full fine-tune give --precision bf16.)",
			    name, nicfit_precision_name(in->precision), p->fit.weights_gb, adapters / 1e9,
			    in->llm.adapter_share * 100, in->llm.train_bytes, p->train_state_gb, gpus,
			    in->gpu->e.name, cap,
			    p->fits_one_server ? "fits one server" : "does not fit one server");
		return;
	}
	if (is_training(in->workload)) {
		/* Model state of mixed-precision Adam; ZeRO-3/FSDP shards it over
		 * every GPU of the job, activations come on top. */
		p->train_state_gb = arch.params * in->llm.train_bytes / 1e9;
		p->fit.total_gb = p->train_state_gb; /* what the job needs across its GPUs */
		p->gpus_needed = (int)ceil(p->train_state_gb / per_gpu - 1e-9);
		p->servers_needed = (p->gpus_needed + gpus - 1) / gpus;
		p->fits_one_server = p->train_state_gb <= cap;
		plan_decide(p, "R1", 1,
			    "%s: %.1f GB of training state (%.3gB parameters x %g bytes: bf16 weights and "
			    "gradients, fp32 Adam moments and master weights) before activations; one "
			    "server's %d x %s hold %.1f GB usable -> %s (sharded with ZeRO-3/FSDP it needs "
			    "%d GPU%s, %d server%s).",
			    name, p->train_state_gb, arch.params / 1e9, in->llm.train_bytes, gpus,
			    in->gpu->e.name, cap,
			    p->fits_one_server ? "fits one server" : "does not fit one server",
			    p->gpus_needed, p->gpus_needed == 1 ? "" : "s", p->servers_needed,
			    p->servers_needed == 1 ? "" : "s");
		return;
	}
	p->gpus_needed = p->fit.gpus_needed;
	p->servers_needed = (p->gpus_needed + gpus - 1) / gpus;
	p->fits_one_server = p->fit.fits;
	if (p->fit.kv_known)
		plan_decide(p, "R1", 1,
			    "%s at %s: %.1f GB of weights (%.2f bits per parameter) + %.1f GB of KV cache "
			    "(%ld tokens x %ld request%s x %.0f kB per token) = %.1f GB; one server's %d x "
			    "%s hold %.1f GB usable (%.0f%% of %.1f GB each) -> %s%s.",
			    name, nicfit_precision_name(in->precision), p->fit.weights_gb,
			    p->fit.bits_per_param, p->fit.kv_cache_gb, in->context, in->concurrency,
			    in->concurrency == 1 ? "" : "s", p->fit.kv_bytes_per_token / 1e3,
			    p->fit.total_gb, gpus, in->gpu->e.name, cap, in->llm.gpu_util * 100,
			    p->fit.gpu_gb, p->fits_one_server ? "fits one server" : "does not fit one server",
			    p->fit.total_gb <= per_gpu ? " (even one GPU holds it)" : "");
	else
		plan_decide(p, "R1", 1,
			    "%s at %s: %.1f GB of weights; one server's %d x %s hold %.1f GB usable -> %s "
			    "(KV cache not counted: the model's layer and head counts are unknown).",
			    name, nicfit_precision_name(in->precision), p->fit.weights_gb, gpus,
			    in->gpu->e.name, cap,
			    p->fits_one_server ? "fits one server" : "does not fit one server");
	if (!p->fits_one_server)
		plan_decide(p, "R1", 1, "It needs %d GPUs of this kind: %d server%s of %d.",
			    p->gpus_needed, p->servers_needed, p->servers_needed == 1 ? "" : "s", gpus);
}

/* ---- R2: back end or not ------------------------------------------------ */

static void rule_backend_needed(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;

	switch (in->workload) {
	case NICFIT_WL_REPLICATED:
		p->backend_needed = 0;
		plan_decide(p, "R2", 1, "Replicated inference: each of the %d server%s runs its own "
			    "copy of the model behind a load balancer and answers its own requests, so "
			    "no GPU traffic crosses servers: no back-end fabric.",
			    in->servers, in->servers == 1 ? "" : "s");
		if (!p->fits_one_server && p->fit_known)
			plan_find(p, NICFIT_SEV_CRITICAL, "replica-does-not-fit",
				  "use a smaller precision (--precision int4), more GPUs per server, or "
				  "split each replica across servers (--workload multi-node-inference)",
				  "A replica does not fit one server (%.1f GB needed, %.1f GB usable), so "
				  "replicas cannot run one per server.",
				  p->fit.total_gb, p->fit.capacity_gb);
		return;
	case NICFIT_WL_INFERENCE:
		if (p->fits_one_server) {
			p->backend_needed = 0;
			plan_decide(p, "R2", 1, "Inference with the model inside one server: GPU-to-GPU "
				    "traffic stays on that server's PCIe%s and never touches the network: "
				    "no back-end fabric.",
				    in->gpu && in->gpu->nvlink_gbs > 0 ? " (or NVLink bridge)" : "");
			if (in->servers > 1)
				plan_decide(p, "R2", 1, "With %d servers each serving on its own "
					    "(behind a load balancer) there is still no back end.",
					    in->servers);
			return;
		}
		p->backend_needed = 1;
		plan_decide(p, "R2", 1, "The model does not fit one server, so it must be split "
			    "(tensor or pipeline parallel) across %d servers that exchange activations "
			    "for every token: back-end RDMA fabric needed.", p->servers_needed);
		break;
	case NICFIT_WL_MULTINODE_INFERENCE:
		p->backend_needed = in->servers > 1;
		if (p->backend_needed)
			plan_decide(p, "R2", 1, "Multi-node inference: one model split across %d servers "
				    "(pipeline or tensor parallel) exchanges activations for every token: "
				    "back-end RDMA fabric needed.", in->servers);
		else
			plan_decide(p, "R2", 1, "Multi-node inference on 1 server is single-node "
				    "inference: no back-end fabric (give --servers N to split).");
		break;
	case NICFIT_WL_TRAINING:
	case NICFIT_WL_FINETUNING:
		p->backend_needed = in->servers > 1;
		if (p->backend_needed)
			plan_decide(p, "R2", 1, "Distributed %s across %d servers exchanges gradients on "
				    "every step (all-reduce): back-end RDMA fabric needed.",
				    in->workload == NICFIT_WL_TRAINING ? "training" : "fine-tuning",
				    in->servers);
		else
			plan_decide(p, "R2", 1, "%s on one server: gradients are exchanged over the "
				    "server's own PCIe/NVLink: no back-end fabric.",
				    in->workload == NICFIT_WL_TRAINING ? "Training" : "Fine-tuning");
		break;
	case NICFIT_WL_RDMA_STORAGE:
		p->backend_needed = 1;
		plan_decide(p, "R2", 1, "RDMA storage (NVMe over Fabrics, Ceph or a parallel file "
			    "system over RDMA) feeding the GPU server%s: RDMA fabric needed.",
			    in->servers == 1 ? "" : "s");
		break;
	}
	if (is_training(in->workload) && p->fit_known && p->servers_needed > in->servers)
		plan_find(p, NICFIT_SEV_WARNING, "training-state-does-not-fit",
			  "shard the job over more servers (--servers N), offload optimizer state to CPU "
			  "memory (ZeRO-Offload), or train adapters only (LoRA/QLoRA)",
			  "The training state (%.1f GB) needs %d GPUs of this kind (%d server%s); the plan "
			  "has %d server%s.", p->train_state_gb, p->gpus_needed, p->servers_needed,
			  p->servers_needed == 1 ? "" : "s", in->servers, in->servers == 1 ? "" : "s");
	if (!p->backend_needed)
		return;
	if (p->fit_known && p->servers_needed > in->servers &&
	    (in->workload == NICFIT_WL_INFERENCE || in->workload == NICFIT_WL_MULTINODE_INFERENCE)) {
		/* a model that must be split is planned on the fewest servers that hold it */
		int asked = in->servers;

		plan_find(p, NICFIT_SEV_CRITICAL, "not-enough-servers",
			  "plan with --servers N, a smaller precision (--precision int4), or more GPUs "
			  "per server",
			  "%s needs %d GPUs (%d servers of %d x %s) but %d server%s %s asked for: the plan "
			  "below is for %d.", in->model ? in->model->e.name : "The model", p->gpus_needed,
			  p->servers_needed, in->gpus_per_server, in->gpu->e.name, asked,
			  asked == 1 ? "" : "s", asked == 1 ? "was" : "were", p->servers_needed);
		p->in.servers = p->servers_needed;
		plan_decide(p, "R2", 1, "Planned for %d servers, the fewest whose GPUs hold the model "
			    "(%d %s asked).", p->servers_needed, asked, asked == 1 ? "was" : "were");
	}
}

/*
 * A what-if card: the catalog's, or else one decoded from its part number
 * (held in p->rule_part[which]). NULL with err set when neither knows it.
 */
static const struct nicfit_nic *whatif_card(const struct nicfit_catalog *cat,
					     struct nicfit_plan *p, int which, const char *part,
					     const char *what, struct nicfit_error *err)
{
	const struct nicfit_nic *n = nicfit_catalog_find_nic(cat, part, what, NULL);
	struct nicfit_part *d = &p->rule_part[which];
	struct nicfit_nic *x = &p->rule_nic[which];

	if (n)
		return n;
	if (nicfit_decode(cat, part, d, err))
		return NULL;
	if (d->kind != NICFIT_PART_NIC || d->ports < 1 || d->port_gbps <= 0 || d->pcie_gen < 1) {
		nicfit_error_at(err, NICFIT_E_DATA, what, 0, 0,
				"'%.64s' is not a network card nicfit can plan with (%s)", part,
				d->summary);
		return NULL;
	}
	memset(x, 0, sizeof(*x));
	x->e.id = d->part;
	x->e.name = d->summary;
	x->e.source = d->source;
	x->part = d->part;
	x->vendor = d->vendor;
	x->family = d->family;
	x->protocol = d->protocol;
	x->cage = d->cage;
	x->ib_rate = d->ib_rate[0] ? d->ib_rate : NULL;
	x->form_factor = d->form_factor[0] ? d->form_factor : "pcie-hhhl";
	x->bracket = d->bracket;
	x->driver = d->driver;
	x->ports = d->ports;
	x->port_gbps = d->port_gbps;
	x->pcie_gen = d->pcie_gen;
	x->pcie_width = d->pcie_width;
	x->pcie_gen_min = d->pcie_gen_min;
	x->socket_direct = d->socket_direct;
	x->vpi = !strcmp(d->protocol, "VPI");
	x->rdma = d->rdma;
	x->pci_vendor = d->pci_vendor;
	x->pci_device = d->pci_device;
	if (!strcmp(d->vendor, "Intel") && strstr(d->family, "7"))
		x->module_coding = "intel";
	plan_decide(p, which ? "R3" : "R5", 1, "%s is not in the catalog: its facts come from "
		    "the part-number rules (%s), and it has no sourced price.", d->part, d->summary);
	return x;
}

/* For --explain: the other triggers of R2, and why they did not fire. */
static void explain_backend(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const char *w = nicfit_workload_name(in->workload);

	if (in->workload != NICFIT_WL_MULTINODE_INFERENCE && in->workload != NICFIT_WL_INFERENCE)
		plan_decide(p, "R2", 0, "A model split across servers needs a back end; this workload "
			    "does not split one model (%s).", w);
	else if (p->fits_one_server)
		plan_decide(p, "R2", 0, "A model split across servers needs a back end; this one fits "
			    "one server, so it need not be split.");
	if (!(in->workload == NICFIT_WL_TRAINING || in->workload == NICFIT_WL_FINETUNING) ||
	    in->servers < 2)
		plan_decide(p, "R2", 0, "Distributed training or fine-tuning across servers needs a back "
			    "end; not planned here (%s on %d server%s).", w, in->servers,
			    in->servers == 1 ? "" : "s");
	if (in->workload != NICFIT_WL_RDMA_STORAGE)
		plan_decide(p, "R2", 0, "RDMA storage (NVMe-oF, Ceph or a parallel file system over RDMA) "
			    "needs an RDMA fabric; not asked for (--workload rdma-storage).");
	if (!p->backend_needed) {
		plan_decide(p, "R5", 0, "No back-end card: no back end is needed.");
		plan_decide(p, "R6", 0, "No back-end slot to choose; the GPUs still get theirs.");
		plan_decide(p, "R7", 0, "No back-end fabric (RoCE v2 or InfiniBand) to choose.");
	}
}

/* ---- R3: front end ------------------------------------------------------ */

static void rule_frontend(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_server *s = in->server;
	struct nicfit_link_params lp = in->link;
	struct nicfit_stream_params sp;
	struct nicfit_stream st;
	struct nicfit_load ld;
	struct nicfit_speed speed;
	struct nicfit_error err;
	char b1[32], b2[32];
	int i;

	p->fe_onboard = 0;
	p->fe_ob = NULL;
	p->fe_nic = NULL;
	if (in->frontend_nic) {
		nicfit_error_clear(&err);
		p->fe_nic = whatif_card(cat, p, 1, in->frontend_nic, "--frontend-nic", &err);
		if (!p->fe_nic)
			plan_find(p, NICFIT_SEV_CRITICAL, "frontend-nic-unknown",
				  "give a catalog NIC id (nicfit catalog list nics) or a part number "
				  "nicfit decode reads", "%s", err.msg);
	}
	if (!p->fe_nic) {
		for (i = 0; i < s->nonboard; i++) {
			const struct nicfit_onboard *ob = &s->onboard[i];

			if (ob->port_gbps >= 10 && (!p->fe_ob || ob->port_gbps > p->fe_ob->port_gbps))
				p->fe_ob = ob;
		}
	}
	if (p->fe_ob) {
		p->fe_onboard = 1;
		p->fe_port_gbps = p->fe_ob->port_gbps;
		if (p->fe_ob->nic)
			p->fe_nic = nicfit_catalog_find_nic(cat, p->fe_ob->nic, "onboard", NULL);
	} else if (!p->fe_nic) {
		/* no onboard 10G+: the cheapest sourced front-end card */
		size_t k;

		for (k = 0; k < nicfit_catalog_count(cat, NICFIT_KIND_NIC); k++) {
			const struct nicfit_nic *n = nicfit_catalog_nic(cat, k);

			if (!(n->roles & NICFIT_ROLE_FRONTEND) || n->port_gbps < 10)
				continue;
			if (!p->fe_nic || (n->e.priced && (!p->fe_nic->e.priced ||
							   n->e.price_usd < p->fe_nic->e.price_usd)))
				p->fe_nic = n;
		}
	}
	if (!p->fe_onboard && p->fe_nic)
		p->fe_port_gbps = p->fe_nic->port_gbps;
	if (p->fe_port_gbps <= 0)
		p->fe_port_gbps = 10;
	memset(&speed, 0, sizeof(speed));
	speed.gbps = p->fe_port_gbps;
	speed.kind = NICFIT_SPEED_ETH;
	nicfit_stream_params_default(&sp);
	nicfit_calc_stream(in->tokens_per_s, in->concurrency > 0 ? in->concurrency : 1,
			   p->fe_port_gbps, &sp, &st, NULL);
	p->serving_mbps = st.total_mbps;
	nicfit_error_clear(&err);
	if (p->fit_known || in->weights_gb > 0 || p->weights_only_gb > 0) {
		double bytes = (p->fit_known ? p->fit.weights_gb :
				in->weights_gb > 0 ? in->weights_gb : p->weights_only_gb) * 1e9;

		/* a model split across servers: each loads its share */
		if (p->backend_needed && !is_training(in->workload) &&
		    in->workload != NICFIT_WL_RDMA_STORAGE && in->servers > 1)
			bytes /= in->servers;

		p->load_bytes = bytes;
		if (!nicfit_calc_load(bytes, &speed, NICFIT_PROTO_TCP, in->storage_gbps, &lp, &ld, &err)) {
			p->load_s = ld.seconds;
			p->fe_goodput_gbps = ld.network_gbps;
		}
	} else {
		struct nicfit_link_result lr;

		if (!nicfit_link_calc(&speed, NICFIT_PROTO_TCP, &lp, &lr, &err))
			p->fe_goodput_gbps = lr.goodput_gbps;
	}
	if (p->fe_onboard)
		plan_decide(p, "R3", 1, "Front end: the server's onboard %s%s%s%s (%d x %g GbE %s) carries "
			    "requests, model downloads, storage and management: no front-end card needed.",
			    p->fe_ob->name, p->fe_nic ? " (" : "", p->fe_nic ? p->fe_nic->family : "",
			    p->fe_nic ? ")" : "", p->fe_ob->ports, p->fe_ob->port_gbps, p->fe_ob->cage);
	else if (p->fe_nic)
		plan_decide(p, "R3", 1, "Front end: %s %s (%d x %g GbE %s)%s.", p->fe_nic->part,
			    p->fe_nic->e.name, p->fe_nic->ports, p->fe_nic->port_gbps, p->fe_nic->cage,
			    in->frontend_nic ? " as asked" : ": the server has no onboard 10GbE or faster "
			    "port, so one card per server, the cheapest sourced front-end card");
	plan_decide(p, "R3", 1, "Serving traffic: %ld concurrent stream%s x %g tokens/s x %.0f B per "
		    "token = %.2f Mb/s, %.4f%% of %g GbE (generated text is a few kB/s per request).",
		    in->concurrency, in->concurrency == 1 ? "" : "s", in->tokens_per_s,
		    st.bytes_per_token, st.total_mbps, st.link_share * 100, p->fe_port_gbps);
	if (p->load_s > 0) {
		plan_decide(p, "R3", 1, "Model load: %s of weights%s from a NAS at %.2f GB/s (%g GbE TCP "
			    "goodput%s) = %s per (re)start.",
			    nicfit_fmt_bytes(p->load_bytes, b1, sizeof(b1)),
			    p->load_bytes < (p->fit_known ? p->fit.weights_gb : in->weights_gb > 0 ?
					     in->weights_gb : p->weights_only_gb) * 1e9 * 0.999 ?
			    " per server (its share of the split model)" : "",
			    (in->storage_gbps > 0 && in->storage_gbps < p->fe_goodput_gbps ?
			     in->storage_gbps : p->fe_goodput_gbps) / 8, p->fe_port_gbps,
			    in->storage_gbps > 0 && in->storage_gbps < p->fe_goodput_gbps ?
			    ", limited by the storage" : "",
			    nicfit_fmt_seconds(p->load_s, b2, sizeof(b2)));
		if (in->reloads_per_day * p->load_s >= 864 ||
		    (in->storage_gbps > p->fe_goodput_gbps * 1.5 && p->fe_port_gbps < 25)) {
			p->fe_suggest_25g = 1;
			plan_find(p, NICFIT_SEV_INFO, "frontend-25g",
				  "a 25GbE front end (e.g. a ConnectX-4 Lx MCX4121A-ACAT or an Intel "
				  "XXV710-DA2) and a 25GbE top-of-rack port",
				  "Loading takes %s and happens %g time%s a day (%.1f min a day)%s: 25GbE "
				  "would cut each load about 2.5-fold.",
				  nicfit_fmt_seconds(p->load_s, b2, sizeof(b2)), in->reloads_per_day,
				  in->reloads_per_day == 1 ? "" : "s", in->reloads_per_day * p->load_s / 60,
				  in->storage_gbps > p->fe_goodput_gbps * 1.5 ?
				  ", and the storage can deliver more than the link" : "");
		}
	}
	if (is_training(in->workload))
		plan_find(p, NICFIT_SEV_INFO, "frontend-datasets", NULL,
			  "Training reads its dataset over the front end: move it to 25GbE if the job "
			  "pulls large datasets from shared storage.");
	p->oob_gbps = s->oob_gbps;
	plan_decide(p, "R4", 1, "Out-of-band management: the %s port (%g GbE %s) on its own "
		    "management-network link; 1GbE is plenty there.",
		    s->oob_name ? s->oob_name : "BMC", s->oob_gbps, s->oob_cage ? s->oob_cage : "RJ45");
}

/* ---- R5/R6: the back-end card and its slot ------------------------------ */

static const double std_speeds[] = { 10, 25, 50, 100, 200, 400, 800 };

/* Goodput of one port of `gbps` under the fabric's protocol. */
static double port_goodput(const struct nicfit_plan *p, double gbps)
{
	struct nicfit_speed sp;
	struct nicfit_link_result lr;

	memset(&sp, 0, sizeof(sp));
	sp.gbps = gbps;
	sp.kind = NICFIT_SPEED_ANY;
	if (p->fabric == NICFIT_FABRIC_IB && !nicfit_link_calc(&sp, NICFIT_PROTO_IB, &p->in.link, &lr, NULL))
		return lr.goodput_gbps;
	if (nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &p->in.link, &lr, NULL))
		return gbps;
	return lr.goodput_gbps;
}

static int card_fits_slot(const struct nicfit_card *c, const char *form,
			  const struct nicfit_slot *s)
{
	int ocp = form && !strncmp(form, "ocp", 3);

	if (ocp != (s->kind && !strncmp(s->kind, "ocp", 3)))
		return 0;
	if (s->kind && (!strcmp(s->kind, "ndc") || !strcmp(s->kind, "flexlom")))
		return 0;
	return c->pcie_width <= (s->connector_width ? s->connector_width : s->width);
}

/* What card c moves in slot s under the plan's protocol (one port used). */
static double card_in_slot(const struct nicfit_plan *p, const struct nicfit_card *c,
			   const struct nicfit_slot *s, int ports, struct nicfit_nic_fit *out)
{
	struct nicfit_nic_fit f;
	enum nicfit_proto proto = p->fabric == NICFIT_FABRIC_IB && c->ib_rate ?
				  NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;

	if (nicfit_calc_nic(c, s->gen, s->width, ports, proto, &p->in.pcie, &p->in.link, &f, NULL))
		return 0;
	if (out)
		*out = f;
	return f.effective_gbps;
}

struct choice {
	int gpu_slots[NICFIT_PLAN_MAX_GPUS];
	int nic_slots[NICFIT_PLAN_MAX_CARDS];
	int ngpu_placed;
	double per_card;      /* effective Gb/s of the weakest card */
	int meets;
	int local;            /* GPUs sharing a socket with a card */
	int gpu_sockets;      /* sockets the GPUs span: fewer keeps GPU peer traffic local */
	int waste;            /* slot lanes beyond the card's */
	int order;            /* sum of slot positions: follow the server's slot order */
	int valid;
};

static int better(const struct choice *a, const struct choice *b)
{
	if (!b->valid)
		return a->valid;
	if (a->ngpu_placed != b->ngpu_placed)
		return a->ngpu_placed > b->ngpu_placed;
	if (a->meets != b->meets)
		return a->meets > b->meets;
	if (!a->meets && fabs(a->per_card - b->per_card) > 0.5)
		return a->per_card > b->per_card;
	if (a->local != b->local)
		return a->local > b->local;
	if (a->gpu_sockets != b->gpu_sockets)
		return a->gpu_sockets < b->gpu_sockets;
	if (a->waste != b->waste)
		return a->waste < b->waste;
	return a->order < b->order;
}

static int gpu_can_use(const struct nicfit_gpu *g, const struct nicfit_slot *s)
{
	if (s->gpu == NICFIT_GPU_DOUBLE)
		return 1;
	return s->gpu == NICFIT_GPU_SINGLE && g && !g->double_width;
}

struct search {
	const struct nicfit_plan *p;
	const struct nicfit_card *card;
	const char *form;
	int ncards, ngpus;
	double need;          /* per-card effective needed to meet the target */
	int used[NICFIT_MAX_SLOTS];
	struct choice cur, best;
	long budget;          /* evaluations left */
};

static void eval_nics(struct search *S, int from, int k)
{
	const struct nicfit_server *sv = S->p->in.server;
	int i, j;

	if (S->budget-- <= 0)
		return;
	if (k == S->ncards) {
		struct choice c = S->cur;
		double weakest = 1e18;

		c.local = 0;
		c.waste = 0;
		c.order = 0;
		c.gpu_sockets = 0;
		{
			unsigned seen = 0;

			for (i = 0; i < c.ngpu_placed; i++) {
				int so = sv->slots[c.gpu_slots[i]].socket & 31;

				if (!(seen & (1u << so))) {
					seen |= 1u << so;
					c.gpu_sockets++;
				}
			}
		}
		for (j = 0; j < S->ncards; j++) {
			const struct nicfit_slot *s = &sv->slots[c.nic_slots[j]];
			double e = card_in_slot(S->p, S->card, s, 1, NULL);

			if (e < weakest)
				weakest = e;
			c.waste += s->width > S->card->pcie_width ? s->width - S->card->pcie_width : 0;
			c.order += c.nic_slots[j];
			/* a card already installed stays where it is when nothing is gained */
			if (S->p->in.installed_slot && s->name &&
			    !strcmp(S->p->in.installed_slot, s->name))
				c.order -= 1000;
		}
		for (i = 0; i < c.ngpu_placed; i++) {
			c.order += c.gpu_slots[i];
			for (j = 0; j < S->ncards; j++)
				if (sv->slots[c.gpu_slots[i]].socket == sv->slots[c.nic_slots[j]].socket) {
					c.local++;
					break;
				}
		}
		c.per_card = weakest;
		c.meets = weakest + 1e-9 >= S->need;
		c.valid = 1;
		if (better(&c, &S->best))
			S->best = c;
		return;
	}
	for (i = from; i < sv->nslots; i++) {
		if (S->used[i] || !card_fits_slot(S->card, S->form, &sv->slots[i]))
			continue;
		S->used[i] = 1;
		S->cur.nic_slots[k] = i;
		eval_nics(S, i + 1, k + 1);
		S->used[i] = 0;
	}
}

static void place_gpus(struct search *S, int from, int k)
{
	const struct nicfit_server *sv = S->p->in.server;
	int i, placed_any = 0;

	if (S->budget <= 0)
		return;
	if (k == S->ngpus) {
		S->cur.ngpu_placed = k;
		eval_nics(S, 0, 0);
		return;
	}
	for (i = from; i < sv->nslots; i++) {
		if (S->used[i] || !gpu_can_use(S->p->in.gpu, &sv->slots[i]))
			continue;
		placed_any = 1;
		S->used[i] = 1;
		S->cur.gpu_slots[k] = i;
		place_gpus(S, i + 1, k + 1);
		S->used[i] = 0;
	}
	if (!placed_any) {
		/* fewer GPU slots than GPUs: place what fits */
		S->cur.ngpu_placed = k;
		eval_nics(S, 0, 0);
	}
}

/* Best placement of the GPUs and ncards copies of card; returns 0 if none. */
static int search_place(const struct nicfit_plan *p, const struct nicfit_card *card,
			const char *form, int ncards, double need, struct choice *out)
{
	struct search *S = calloc(1, sizeof(*S));
	int ok;

	if (!S)
		return 0;
	S->p = p;
	S->card = card;
	S->form = form;
	S->ncards = ncards;
	S->ngpus = p->in.gpu ? p->in.gpus_per_server : 0;
	S->need = need;
	S->budget = 2000000;
	place_gpus(S, 0, 0);
	ok = S->best.valid;
	*out = S->best;
	free(S);
	return ok;
}

/* The fastest standard port speed some free slot can feed. */
static double default_target(const struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	double best = 0;
	int i, k;

	for (i = 0; i < sv->nslots; i++) {
		struct nicfit_card ideal;
		const struct nicfit_slot *s = &sv->slots[i];

		if (s->kind && strcmp(s->kind, "pcie"))
			continue;
		memset(&ideal, 0, sizeof(ideal));
		ideal.pcie_gen = s->gen;
		ideal.pcie_width = s->width > 16 ? 16 : s->width;
		ideal.ports = 1;
		ideal.port_gbps = 800;
		for (k = (int)(sizeof(std_speeds) / sizeof(std_speeds[0])) - 1; k >= 0; k--) {
			struct nicfit_pcie_result pr;

			if (nicfit_pcie_calc(s->gen, ideal.pcie_width, &p->in.pcie, &pr, NULL))
				continue;
			if (port_goodput(p, std_speeds[k]) <= pr.effective_gbps * 1.0001) {
				if (std_speeds[k] > best)
					best = std_speeds[k];
				break;
			}
		}
	}
	return best > 0 ? best : 10;
}

struct cand {
	const struct nicfit_nic *nic;
	struct nicfit_card card;
};

static int rdma_ok(const struct nicfit_plan *p, unsigned rdma)
{
	if (p->fabric == NICFIT_FABRIC_IB)
		return (rdma & NICFIT_RDMA_IB) != 0;
	return (rdma & (NICFIT_RDMA_ROCE | NICFIT_RDMA_IB)) != 0 &&
	       (rdma & NICFIT_RDMA_ROCE) != 0;
}

/* Cheapest first: sourced prices, then unpriced by least excess speed. */
static int cand_before(const struct nicfit_nic *a, const struct nicfit_nic *b)
{
	if (a->e.priced != b->e.priced)
		return a->e.priced;
	if (a->e.priced && a->e.price_usd != b->e.price_usd)
		return a->e.price_usd < b->e.price_usd;
	if (a->port_gbps != b->port_gbps)
		return a->port_gbps < b->port_gbps;
	if (a->ports != b->ports)
		return a->ports < b->ports;
	return strcmp(a->e.id, b->e.id) < 0;
}

static void fill_card(struct nicfit_card *c, const struct nicfit_nic *n)
{
	memset(c, 0, sizeof(*c));
	c->pcie_gen = n->pcie_gen;
	c->pcie_width = n->pcie_width;
	c->ports = n->ports;
	c->port_gbps = n->port_gbps;
	c->ib_rate = n->ib_rate;
	c->rdma = n->rdma;
	c->vpi = n->vpi;
	c->card_gbps = n->card_gbps;
}

/* Cheapest RDMA card that reaches `target` in the best placement. */
static const struct nicfit_nic *pick_card(const struct nicfit_catalog *cat,
					  struct nicfit_plan *p, double target, int ncards,
					  struct choice *where)
{
	const struct nicfit_nic *best = NULL, *fallback = NULL;
	struct choice c, fb_c;
	double need = port_goodput(p, target) * 0.98, fb_eff = 0;
	size_t i;

	memset(&fb_c, 0, sizeof(fb_c));
	for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_NIC); i++) {
		const struct nicfit_nic *n = nicfit_catalog_nic(cat, i);
		struct nicfit_card card;

		if (!rdma_ok(p, n->rdma) || n->socket_direct)
			continue;
		fill_card(&card, n);
		if (!search_place(p, &card, n->form_factor, ncards, need, &c))
			continue;
		if (c.meets && n->port_gbps >= target - 1e-9) {
			if (!best || cand_before(n, best)) {
				best = n;
				*where = c;
			}
		} else if (c.per_card > fb_eff + 0.5 ||
			   (fabs(c.per_card - fb_eff) <= 0.5 && fallback && cand_before(n, fallback))) {
			fallback = n;
			fb_eff = c.per_card;
			fb_c = c;
		}
	}
	if (best)
		return best;
	if (fallback)
		*where = fb_c;
	return fallback;
}

static const char *sock_name(const struct nicfit_server *s, int socket, char *b, size_t n)
{
	if (s->vendor && !strcasecmp(s->vendor, "Dell"))
		snprintf(b, n, "socket %d (CPU%d)", socket, socket + 1);
	else if (s->vendor && (!strcasecmp(s->vendor, "HPE") || !strcasecmp(s->vendor, "HP")))
		snprintf(b, n, "socket %d (processor %d)", socket, socket + 1);
	else
		snprintf(b, n, "socket %d", socket);
	return b;
}

static void record_slots(struct nicfit_plan *p, const struct choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	int i;

	p->nslots = 0;
	for (i = 0; i < NICFIT_PLAN_MAX_GPUS; i++)
		p->gpu_slots[i] = -1;
	for (i = 0; i < NICFIT_PLAN_MAX_CARDS; i++)
		p->be_slots[i] = -1;
	for (i = 0; i < c->ngpu_placed && p->nslots < NICFIT_PLAN_MAX_SLOTS; i++) {
		const struct nicfit_slot *s = &sv->slots[c->gpu_slots[i]];
		struct nicfit_plan_slotuse *u = &p->slots[p->nslots++];

		p->gpu_slots[i] = c->gpu_slots[i];
		snprintf(u->slot, sizeof(u->slot), "%s", s->name);
		u->socket = s->socket;
		u->gen = s->gen;
		u->width = s->width;
		snprintf(u->what, sizeof(u->what), "GPU %d (%s)", i, p->in.gpu->e.name);
	}
	if (!p->backend_needed)
		return;
	for (i = 0; i < p->be_cards && p->nslots < NICFIT_PLAN_MAX_SLOTS; i++) {
		const struct nicfit_slot *s = &sv->slots[c->nic_slots[i]];
		struct nicfit_plan_slotuse *u = &p->slots[p->nslots++];

		p->be_slots[i] = c->nic_slots[i];
		snprintf(u->slot, sizeof(u->slot), "%s", s->name);
		u->socket = s->socket;
		u->gen = s->gen;
		u->width = s->width;
		snprintf(u->what, sizeof(u->what), "back-end NIC %s", p->be_part);
	}
}

/* Place the GPUs alone (no back end). */
static void place_gpus_only(struct nicfit_plan *p)
{
	struct nicfit_card none;
	struct choice c;
	struct search *S;

	memset(&none, 0, sizeof(none));
	memset(&c, 0, sizeof(c));
	if (!p->in.gpu || p->in.gpus_per_server < 1)
		return;
	S = calloc(1, sizeof(*S));
	if (!S)
		return;
	S->p = p;
	S->card = &none;
	S->ncards = 0;
	S->ngpus = p->in.gpus_per_server;
	S->budget = 2000000;
	place_gpus(S, 0, 0);
	c = S->best;
	free(S);
	record_slots(p, &c);
	if (c.ngpu_placed) {
		const struct nicfit_server *sv = p->in.server;
		char gp[400], sock[40];
		size_t k = 0;
		int i;

		gp[0] = '\0';
		for (i = 0; i < c.ngpu_placed && k < sizeof(gp); i++)
			k += (size_t)snprintf(gp + k, sizeof(gp) - k, "%sGPU %d in slot %s (%s)",
					      i ? ", " : "", i, sv->slots[c.gpu_slots[i]].name,
					      sock_name(sv, sv->slots[c.gpu_slots[i]].socket, sock,
							sizeof(sock)));
		plan_decide(p, "R6", 1, "GPUs in %s-width GPU slots: %s%s.",
			    p->in.gpu->double_width ? "double" : "single", gp,
			    c.ngpu_placed > 1 && c.gpu_sockets == 1 ?
			    " - all on one socket, so GPU-to-GPU traffic stays under one CPU" : "");
	}
	if (c.ngpu_placed < p->in.gpus_per_server)
		plan_find(p, NICFIT_SEV_CRITICAL, "too-many-gpus",
			  "fewer GPUs per server, single-width GPUs, or another server",
			  "%s has room for %d %s-width GPU%s (%d asked).", p->in.server->e.name,
			  c.ngpu_placed, p->in.gpu->double_width ? "double" : "single",
			  c.ngpu_placed == 1 ? "" : "s", p->in.gpus_per_server);
}

static void describe_placement(struct nicfit_plan *p, const struct choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	char gp[400], sock[40], sock2[40];
	size_t k = 0;
	int i, j, nonlocal = 0;

	gp[0] = '\0';
	for (i = 0; i < c->ngpu_placed; i++) {
		const struct nicfit_slot *s = &sv->slots[c->gpu_slots[i]];

		k += (size_t)snprintf(gp + k, sizeof(gp) - k, "%sGPU %d in slot %s (%s)",
				      i ? ", " : "", i, s->name, sock_name(sv, s->socket, sock, sizeof(sock)));
		if (k >= sizeof(gp))
			break;
	}
	if (c->ngpu_placed)
		plan_decide(p, "R6", 1, "GPUs take their slots first (%s-width GPU slots): %s.",
			    p->in.gpu->double_width ? "double" : "single", gp);
	for (j = 0; j < p->be_cards; j++) {
		const struct nicfit_slot *s = &sv->slots[c->nic_slots[j]];
		int local = 0;

		for (i = 0; i < c->ngpu_placed; i++)
			local += sv->slots[c->gpu_slots[i]].socket == s->socket;
		plan_decide(p, "R6", 1, "Back-end card%s in slot %s: PCIe Gen%d x%d, %s, %s%s.",
			    p->be_cards > 1 ? " (one of several)" : "", s->name, s->gen, s->width,
			    s->full_height ? "full height" : "low profile",
			    sock_name(sv, s->socket, sock, sizeof(sock)),
			    c->ngpu_placed == 0 ? "" : local == c->ngpu_placed ?
			    " - the same socket as every GPU, so GPUDirect RDMA traffic stays off the "
			    "inter-socket link" : local ? " - the same socket as some of the GPUs" :
			    " - no GPU on this socket");
	}
	for (i = 0; i < c->ngpu_placed; i++) {
		int gsock = sv->slots[c->gpu_slots[i]].socket, ok = 0;

		for (j = 0; j < p->be_cards; j++)
			ok |= sv->slots[c->nic_slots[j]].socket == gsock;
		nonlocal += !ok;
	}
	if (nonlocal && c->ngpu_placed) {
		int other = -1;

		/* could one more card on the other socket make every GPU local? */
		for (i = 0; i < sv->nslots && other < 0; i++) {
			int used = 0;

			for (j = 0; j < c->ngpu_placed; j++)
				used |= c->gpu_slots[j] == i;
			for (j = 0; j < p->be_cards; j++)
				used |= c->nic_slots[j] == i;
			if (used || !card_fits_slot(&p->be_card, p->be_nic ? p->be_nic->form_factor : NULL,
						    &sv->slots[i]))
				continue;
			for (j = 0; j < c->ngpu_placed; j++) {
				int gs = sv->slots[c->gpu_slots[j]].socket, k2, has = 0;

				for (k2 = 0; k2 < p->be_cards; k2++)
					has |= sv->slots[c->nic_slots[k2]].socket == gs;
				if (!has && sv->slots[i].socket == gs &&
				    card_in_slot(p, &p->be_card, &sv->slots[i], 1, NULL) >=
				    p->be_effective_gbps * 0.95)
					other = i;
			}
		}
		snprintf(sock, sizeof(sock), "%d", nonlocal);
		plan_find(p, NICFIT_SEV_WARNING, "gpu-nic-cross-socket",
			  other >= 0 ? "" : "choose a server with a free x16 slot on each GPU socket, or "
			  "keep the GPUs of one job on one socket",
			  "%d of %d GPUs sit on another socket than the back-end card: their GPUDirect "
			  "RDMA traffic crosses the inter-socket link (path SYS), where NCCL does not use "
			  "GPUDirect RDMA and bandwidth drops.%s",
			  nonlocal, c->ngpu_placed,
			  other >= 0 ? "" : " No free slot on that socket can feed the card at full speed.");
		if (other >= 0) {
			struct nicfit_plan_finding *f = &p->findings[p->nfindings - 1];

			snprintf(f->fix, sizeof(f->fix),
				 "add a second %s in slot %s (%s): one back-end card per GPU socket "
				 "(--backend-cards %d) keeps every GPU local and doubles the node's "
				 "back-end bandwidth",
				 p->be_part, sv->slots[other].name,
				 sock_name(sv, sv->slots[other].socket, sock2, sizeof(sock2)), p->be_cards + 1);
		}
	}
	if (c->ngpu_placed && p->gpus_local)
		plan_find(p, NICFIT_SEV_INFO, "gdr-level",
			  "export NCCL_NET_GDR_LEVEL=PHB (or NODE on AMD EPYC) when GPU and NIC share a "
			  "socket; check with NCCL_DEBUG=INFO that the log says 'GPU Direct RDMA Enabled'",
			  "GPU and back-end card sit on separate root ports of the same socket (path PHB or "
			  "NODE, no PCIe switch between them). NCCL uses GPUDirect RDMA by default only up to "
			  "PXB (a shared PCIe switch), so on this server it must be allowed explicitly.");
}

static void rule_backend(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_nic *forced = NULL;
	struct nicfit_nic_fit fit;
	struct choice where;
	struct nicfit_error err;
	double target;
	int cards = in->backend_cards ? in->backend_cards : 1;
	char b[64];

	memset(&where, 0, sizeof(where));
	memset(&fit, 0, sizeof(fit));
	fit.limited_by = "ports";
	/* R7 first part: which fabric */
	if (in->fabric != NICFIT_FABRIC_AUTO)
		p->fabric = in->fabric;
	else if (in->sw && !strcmp(in->sw->fabric, "infiniband"))
		p->fabric = NICFIT_FABRIC_IB;
	else
		p->fabric = NICFIT_FABRIC_ROCE;

	target = in->backend_gbps > 0 ? in->backend_gbps / cards : default_target(p);
	p->be_target_gbps = target;
	if (in->backend_gbps > 0)
		plan_decide(p, "R5", 1, "Target: %g Gb/s per server as asked (%g Gb/s per card).",
			    in->backend_gbps, target);
	else
		plan_decide(p, "R5", 1, "Target: %g Gb/s per card, the fastest port speed a free slot "
			    "of this PCIe Gen%d server can feed (see R6 for the slot).",
			    target, in->server->pcie_gen);

	if (in->backend_nic) {
		nicfit_error_clear(&err);
		forced = whatif_card(cat, p, 0, in->backend_nic, "--backend-nic", &err);
		if (!forced) {
			plan_find(p, NICFIT_SEV_CRITICAL, "backend-nic-unknown",
				  "give a catalog NIC id (nicfit catalog list nics) or add the card with --catalog",
				  "%s", err.msg);
		} else if (!forced->rdma) {
			plan_find(p, NICFIT_SEV_CRITICAL, "backend-no-rdma",
				  "use an RDMA card (ConnectX, or Intel E810 for RoCE/iWARP) for the back "
				  "end; keep the Intel card as the front end",
				  "%s (%s) has no RDMA (no RoCE, no InfiniBand): GPU-to-GPU traffic between "
				  "servers needs RDMA, and NCCL would fall back to TCP sockets through the CPU. "
				  "Refused as the back-end card.", forced->part, forced->e.name);
			plan_decide(p, "R5", 1, "%s refused: no RDMA. Choosing an RDMA card instead.",
				    forced->part);
			forced = NULL;
		} else if (p->fabric == NICFIT_FABRIC_IB && !(forced->rdma & NICFIT_RDMA_IB)) {
			plan_find(p, NICFIT_SEV_CRITICAL, "backend-not-infiniband",
				  "use a VPI or InfiniBand card (e.g. MCX556A-ECAT) or --fabric roce",
				  "%s has no InfiniBand ports, but the fabric is InfiniBand.", forced->part);
			forced = NULL;
		}
	}
	if (forced) {
		fill_card(&p->be_card, forced);
		if (!search_place(p, &p->be_card, forced->form_factor, cards, 0, &where)) {
			plan_find(p, NICFIT_SEV_CRITICAL, "no-slot",
				  "a server with a free slot of the card's width",
				  "%s has no free slot for %s (PCIe x%d).", in->server->e.name,
				  forced->part, forced->pcie_width);
			return;
		}
		p->be_nic = forced;
	} else {
		p->be_nic = pick_card(cat, p, target, cards, &where);
		if (!p->be_nic) {
			plan_find(p, NICFIT_SEV_CRITICAL, "no-backend-card",
				  "add RDMA cards to the catalog with --catalog, or free a slot",
				  "No RDMA card in the catalog fits a free slot of %s.", in->server->e.name);
			return;
		}
		fill_card(&p->be_card, p->be_nic);
	}
	snprintf(p->be_part, sizeof(p->be_part), "%s", p->be_nic->part);
	p->be_cards = cards;
	p->be_ports = 1;
	p->be_port_gbps = p->be_nic->port_gbps;
	card_in_slot(p, &p->be_card, &in->server->slots[where.nic_slots[0]], 1, &fit);
	p->be_effective_gbps = where.per_card;
	p->be_node_gbps = where.per_card * cards;
	p->be_pcie_gbps = fit.pcie_gbps;
	p->be_limited_by = fit.limited_by;
	p->gpus_local = where.local;
	record_slots(p, &where);
	if (forced && in->installed_cards && in->installed_slot &&
	    strcmp(in->installed_slot, in->server->slots[where.nic_slots[0]].name))
		plan_find(p, NICFIT_SEV_WARNING, "move-installed-card",
			  "move the card; its link, cables and configuration stay the same",
			  "The installed %s sits in slot %s; the plan puts it in slot %s (%s).", p->be_part,
			  in->installed_slot, in->server->slots[where.nic_slots[0]].name,
			  where.local ? "on the GPUs' socket" : "the better slot for it");
	if (in->gpu && where.ngpu_placed < in->gpus_per_server)
		plan_find(p, NICFIT_SEV_CRITICAL, "no-slot-for-gpus",
			  "fewer GPUs per server, single-width GPUs, or a server with more x16 slots",
			  "%d x %s and the back-end card do not fit %s together: with the card in slot %s "
			  "there is room for %d GPU%s, not %d.", in->gpus_per_server, in->gpu->e.name,
			  in->server->e.name, in->server->slots[where.nic_slots[0]].name,
			  where.ngpu_placed, where.ngpu_placed == 1 ? "" : "s", in->gpus_per_server);

	plan_decide(p, "R5", 1, "%s %s (%s): %d x %g Gb/s %s, PCIe Gen%d x%d, RDMA: %s%s%s%s.",
		    p->be_nic->part, p->be_nic->e.name, p->be_nic->family, p->be_nic->ports,
		    p->be_nic->port_gbps, p->be_nic->cage, p->be_nic->pcie_gen, p->be_nic->pcie_width,
		    p->be_nic->rdma & NICFIT_RDMA_IB ? "InfiniBand " : "",
		    p->be_nic->rdma & NICFIT_RDMA_ROCE ? "RoCE v2" : "",
		    forced ? " - as asked" : p->be_nic->e.priced ? " - the cheapest sourced card that meets the target" : "",
		    forced || !p->be_nic->e.priced ? "" : "");
	if (!forced && p->be_nic->e.priced)
		plan_decide(p, "R5", 1, "Price: %.2f USD (%s, as of %s).", p->be_nic->e.price_usd,
			    p->be_nic->e.price_source ? p->be_nic->e.price_source : "catalog",
			    p->be_nic->e.prices_as_of ? p->be_nic->e.prices_as_of : "?");
	plan_decide(p, "R5", 1, "In its slot the link trains at PCIe Gen%d x%d = %.1f Gb/s raw, "
		    "%.1f Gb/s usable each way; one %g G port carries %.1f Gb/s of %s payload -> "
		    "%.1f Gb/s per card, limited by the %s.",
		    fit.link_gen, fit.link_width, fit.pcie.raw_gbps, fit.pcie_gbps, p->be_port_gbps,
		    fit.port.goodput_gbps, p->fabric == NICFIT_FABRIC_IB && p->be_card.ib_rate ?
		    "InfiniBand" : "RoCE v2", fit.effective_gbps,
		    !strcmp(fit.limited_by, "pcie") ? "PCIe slot" :
		    !strcmp(fit.limited_by, "card") ? "card's own total" : "port");
	if (p->be_nic->ports > 1) {
		double both = card_in_slot(p, &p->be_card, &in->server->slots[where.nic_slots[0]],
					   p->be_nic->ports, NULL);

		plan_decide(p, "R5", 1, "All %d ports share one PCIe link: together they move %.1f Gb/s, "
			    "so the %s.", p->be_nic->ports, both,
			    both > fit.effective_gbps * 1.5 ? "other ports add bandwidth" :
			    "other ports add redundancy (or a second network), not bandwidth: the slot "
			    "is the limit");
	}

	if (!strcmp(fit.limited_by, "pcie") && fit.idle_gbps > 1) {
		/* name the cheaper card that gives the same speed */
		struct choice alt_where;
		const struct nicfit_nic *alt = NULL;
		size_t i;

		for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_NIC); i++) {
			const struct nicfit_nic *n = nicfit_catalog_nic(cat, i);
			struct nicfit_card c;

			if (n == p->be_nic || !rdma_ok(p, n->rdma) || !n->e.priced || n->socket_direct)
				continue;
			if (p->be_nic->e.priced && n->e.price_usd >= p->be_nic->e.price_usd)
				continue;
			fill_card(&c, n);
			if (!search_place(p, &c, n->form_factor, cards, fit.effective_gbps * 0.95, &alt_where) ||
			    !alt_where.meets)
				continue;
			if (!alt || n->e.price_usd < alt->e.price_usd)
				alt = n;
		}
		if (alt)
			snprintf(b, sizeof(b), "%s", alt->part);
		plan_find(p, NICFIT_SEV_WARNING, "backend-capped",
			  alt ? "" : "a faster slot (PCIe Gen4 x16 feeds 200G), or a card of the speed the slot can feed",
			  "%s is capped by its slot: %g Gb/s of port, but PCIe Gen%d x%d feeds only %.1f "
			  "Gb/s (effective_gbps %.1f), so %.0f Gb/s of the port sits idle.",
			  p->be_part, p->be_port_gbps, fit.link_gen, fit.link_width, fit.pcie_gbps,
			  fit.effective_gbps, fit.idle_gbps);
		if (alt) {
			struct nicfit_plan_finding *f = &p->findings[p->nfindings - 1];

			snprintf(f->fix, sizeof(f->fix),
				 "%s (%s, %.2f USD) gives the same speed in this slot%s%.2f USD less per card",
				 alt->part, alt->e.name, alt->e.price_usd,
				 p->be_nic->e.priced ? " for " : "", p->be_nic->e.priced ?
				 p->be_nic->e.price_usd - alt->e.price_usd : 0);
			if (!p->be_nic->e.priced)
				snprintf(f->fix, sizeof(f->fix), "%s (%s, %.2f USD) gives the same speed in this slot",
					 alt->part, alt->e.name, alt->e.price_usd);
		}
	}
	if (!strcmp(p->be_nic->vendor, "Intel") && (p->be_nic->rdma & (NICFIT_RDMA_ROCE | NICFIT_RDMA_IWARP)))
		plan_find(p, NICFIT_SEV_INFO, "irdma-gpudirect",
			  "check that NCCL's log says 'GPU Direct RDMA Enabled' on a test run; ConnectX "
			  "cards are NCCL's reference for GPUDirect RDMA",
			  "%s does RDMA through the kernel's irdma driver: GPUDirect RDMA then depends on "
			  "DMA-BUF (a recent kernel, NVIDIA open driver and NCCL), not on nvidia_peermem.",
			  p->be_part);
	if (in->backend_gbps > 0 && p->be_node_gbps < port_goodput(p, in->backend_gbps) * 0.98)
		plan_find(p, NICFIT_SEV_WARNING, "backend-below-target",
			  "a faster slot or more cards per server (--backend-cards)",
			  "The back end reaches %.1f Gb/s per server, below the %g Gb/s asked.",
			  p->be_node_gbps, in->backend_gbps);
	if (p->be_node_gbps < 196 && in->workload != NICFIT_WL_RDMA_STORAGE && in->servers > 1)
		plan_find(p, NICFIT_SEV_INFO, "below-200g-guidance",
			  in->server->pcie_gen <= 3 ?
			  "in a PCIe Gen3 server 200 Gb/s per node takes two 100G cards in two x16 slots "
			  "(--backend-cards 2); otherwise a Gen4 server with a 200G card" :
			  "a 200G card (or two 100G cards) per node",
			  "NVIDIA's sizing guidance for certified multi-node systems starts at 200 Gb/s per "
			  "node; this plan gives %.1f Gb/s per node%s.", p->be_node_gbps,
			  in->server->pcie_gen <= 3 ? ", and one PCIe Gen3 x16 slot cannot feed 200G" : "");
	describe_placement(p, &where);
}

/* ---- the whole plan ----------------------------------------------------- */

int nicfit_plan(const struct nicfit_catalog *cat, const struct nicfit_plan_input *in,
		struct nicfit_plan *p, struct nicfit_error *err)
{
	memset(p, 0, sizeof(*p));
	p->in = *in;
	p->be_limited_by = "";
	if (!in->server)
		return nicfit_error_set(err, NICFIT_E_USAGE, "no server");
	if (in->server->generic)
		plan_decide(p, "R0", 1, "Server: %s - a generic profile, not a real model: check the "
			    "slot map against your server's manual.", in->server->e.name);
	rule_fit(p);
	rule_backend_needed(p);
	explain_backend(p);
	rule_frontend(cat, p);
	if (p->backend_needed)
		rule_backend(cat, p);
	else
		place_gpus_only(p);
	plan_fabric(p);
	plan_cables(cat, p);
	plan_estimates(p);
	plan_bom(cat, p);
	plan_notes(p);
	plan_verdict(p);
	return 0;
}
