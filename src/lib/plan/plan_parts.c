/*
 * plan_parts.c - the planner's last rules, which read what the others
 * chose: estimates (R9), bill of materials (R10), notes (R11) and the
 * verdict. The fabric and cables (R7, R8) are plan_fabric.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nicfit/partno.h"
#include "nicfit/units.h"
#include "core/num_int.h"
#include "plan/plan_int.h"

/* ---- R9: estimates ------------------------------------------------------ */

/*
 * One row of the step-time table over node_gbps per server: the step
 * model's traffic, timed as the Network line and JSON step time it (the
 * data-parallel exchange by the algorithm NCCL would pick at that rate),
 * when the step is known; else a ring or tree all-reduce of the
 * gradients over nics links of `line` Gb/s, capped at node_gbps (what the
 * node's cards move together in their slots: NCCL drives every card of a
 * node at once).
 */
static void add_row(struct nicfit_plan *p, const char *label, double node_gbps, int nics,
		    enum nicfit_proto proto, double line)
{
	struct nicfit_plan_estimate *e;
	struct nicfit_step_time t;
	struct nicfit_allreduce ar;
	struct nicfit_speed sp;
	const char *alg = NULL;

	if (p->nest >= NICFIT_PLAN_MAX_ESTIMATES)
		return;
	e = &p->est[p->nest++];
	nicfit__plan_copy(e->label, sizeof(e->label), label);
	e->gbps = node_gbps;
	e->seconds = NAN;
	if (p->est_traffic) {
		nicfit_step_over(&p->step, node_gbps, p->in.ar.latency_us, &p->in.step, &t);
		e->seconds = t.comm_s;
		alg = t.algorithm;
	} else {
		memset(&sp, 0, sizeof(sp));
		sp.gbps = line;
		sp.kind = proto == NICFIT_PROTO_IB ? NICFIT_SPEED_ANY : NICFIT_SPEED_ETH;
		if (!nicfit_calc_allreduce(p->grad_gb * 1e9, p->in.servers, nics, &sp, proto,
					   node_gbps, &p->in.link, &p->in.ar, &ar, NULL)) {
			e->seconds = ar.seconds;
			alg = ar.algorithm;
		}
	}
	nicfit__plan_copy(e->algorithm, sizeof(e->algorithm), alg ? alg : "");
}

/*
 * The alternatives R9 prices a training step on besides the plan's own
 * back end and the front end: 25G RoCE, the cheapest RDMA speed (the
 * budget lab of the planner's examples), and 200G RoCE, NVIDIA's per-node
 * guidance (R5), which takes a PCIe Gen4 slot or faster.
 */
#define ALT_LAB_GBPS 25.0
#define ALT_GUIDANCE_GBPS 200.0

/* The step over one RoCE port of gbps, as a row. */
static void row_roce(struct nicfit_plan *p, const char *label, double gbps)
{
	struct nicfit_link_result lr;
	struct nicfit_speed sp;

	memset(&sp, 0, sizeof(sp));
	sp.gbps = gbps;
	sp.kind = NICFIT_SPEED_ETH;
	nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &p->in.link, &lr, NULL);
	add_row(p, label, lr.goodput_gbps, 1, NICFIT_PROTO_ROCE, gbps);
}

/* R9's sentence on the exchange: what it sends, by which collective, and the two times. */
static void decide_exchange(struct nicfit_plan *p, double t_be, double t_fe)
{
	const struct nicfit_plan_input *in = &p->in;
	const char *alg = p->nest && p->est[0].algorithm[0] ? p->est[0].algorithm : "ring";
	char b1[32], b2[32], b3[32], b4[32], how[160];

	if (!p->est_traffic)
		plan_fmt(how, sizeof(how), "a %s all-reduce across %d servers sends %s per server",
			 alg, in->servers, nicfit_fmt_bytes(p->est_bytes_gb * 1e9, b4, sizeof(b4)));
	else if (p->step.dp == NICFIT_DP_ZERO3)
		plan_fmt(how, sizeof(how), "ZeRO-3/FSDP reduce-scatters the gradients and all-gathers "
			 "the parameters twice, rings across %d servers, %s per server per step",
			 in->servers, nicfit_fmt_bytes(p->est_bytes_gb * 1e9, b4, sizeof(b4)));
	else
		plan_fmt(how, sizeof(how), "%s all-reduces them as a %s across %d servers, %s per "
			 "server per step", p->step.dp == NICFIT_DP_ZERO1 ? "ZeRO-1" :
			 p->step.dp == NICFIT_DP_ZERO2 ? "ZeRO-2" : "DDP", alg, in->servers,
			 nicfit_fmt_bytes(p->est_bytes_gb * 1e9, b4, sizeof(b4)));
	plan_decide(&p->decisions, "R9", 1,
		    "Each training step exchanges %s of bf16 gradients (%.3gB %sparameters x 2 B): "
		    "%s%s%s vs %s over the %g GbE front end. Overlap with compute hides part of it.",
		    nicfit_fmt_bytes(p->grad_gb * 1e9, b1, sizeof(b1)), p->grad_gb / 2,
		    p->adapters ? "adapter " : "", how, isfinite(t_be) ? ": " : "",
		    isfinite(t_be) ? nicfit_fmt_seconds(t_be, b2, sizeof(b2)) : "",
		    nicfit_fmt_seconds(t_fe, b3, sizeof(b3)), p->fe_port_gbps);
}

/*
 * R9, a training step's exchange (docs/rules.md): data-parallel training
 * sends its bf16 gradients (2 bytes per trained parameter: the whole
 * model, or the adapters) every step, as the step model counts them: a
 * DDP or ZeRO-1/2 all-reduce sends 2(n-1)/n of them per server, ZeRO-3
 * and FSDP 1.5 times that. Timed over the plan's back end, the front end
 * (what going without a back end costs) and the alternatives above, each
 * with the algorithm NCCL would pick, so the user sees what the back end
 * buys, in the same figures as the Network line and JSON step.
 */
static void estimate_allreduce(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	double t_fe, t_be = NAN;
	struct nicfit_link_result lr;
	struct nicfit_speed sp;
	char label[64];

	if (p->traffic_known && p->step_job.phase == NICFIT_PHASE_TRAIN) {
		/* no term: the whole job is one NVLink domain (an NVL72 rack, plan_rack.c) */
		p->est_traffic = p->step.nterms ? p->step.terms[0].name :
				 "none: the job is one NVLink domain";
		p->grad_gb = p->step.trainable * in->step.grad_bytes / 1e9;
		p->est_bytes_gb = p->step.bytes_per_node / 1e9;
	} else {
		p->grad_gb = in->params * 2 * (p->adapters ? in->llm.adapter_share : 1) / 1e9;
		p->est_bytes_gb = p->grad_gb * 2.0 * (in->servers - 1) / in->servers;
	}
	if (p->backend_needed && p->be_nic) {
		enum nicfit_proto proto = p->fabric == NICFIT_FABRIC_IB && p->be_card.ib_rate ?
					  NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;

		plan_fmt(label, sizeof(label), "%s %gG %s (this plan)", p->be_part, p->be_port_gbps,
			 proto == NICFIT_PROTO_IB ? "InfiniBand" :
			 nicfit__plan_roce_name(p));
		add_row(p, label, p->be_node_gbps, p->be_cards, proto, p->be_port_gbps);
		t_be = p->est[p->nest - 1].seconds;
	} else if (p->backend_needed && p->be_integrated && in->gpu) {
		plan_fmt(label, sizeof(label), "own %d x %gG RoCE v2 ports (this plan)",
			 in->gpus_per_server * in->gpu->scaleout_ports, in->gpu->scaleout_gbps);
		add_row(p, label, p->be_node_gbps, in->gpus_per_server * in->gpu->scaleout_ports,
			NICFIT_PROTO_ROCE, in->gpu->scaleout_gbps);
		t_be = p->est[p->nest - 1].seconds;
	}
	memset(&sp, 0, sizeof(sp));
	sp.gbps = p->fe_port_gbps;
	sp.kind = NICFIT_SPEED_ETH;
	nicfit_link_calc(&sp, NICFIT_PROTO_TCP, &in->link, &lr, NULL);
	plan_fmt(label, sizeof(label), "%gGbE %sfront end, TCP (no back end)", p->fe_port_gbps,
		 p->fe_converged ? "converged " : "");
	add_row(p, label, lr.goodput_gbps, 1, NICFIT_PROTO_TCP, p->fe_port_gbps);
	t_fe = p->est[p->nest - 1].seconds;
	if (!(p->be_port_gbps == ALT_LAB_GBPS))
		row_roce(p, "25G RoCE v2 (budget lab)", ALT_LAB_GBPS);
	if (!(p->be_port_gbps == ALT_GUIDANCE_GBPS) && in->server->pcie_gen >= 4)
		row_roce(p, "200G RoCE v2", ALT_GUIDANCE_GBPS);
	decide_exchange(p, t_be, t_fe);
}

/*
 * R9, a model split across servers: pipeline parallelism sends one
 * token's hidden state (hidden x 2 bytes) across each server boundary;
 * tensor parallelism all-reduces twice per layer, each 2(n-1)/n of the
 * hidden state, and waits on each. Both at the serving rate, so the user
 * sees why tensor parallelism stays inside a server.
 */
static void estimate_split(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_model *m = in->model;
	char b1[32], b2[32];
	int n;
	double tp, pp, toks;

	if (!m || !(m->arch.hidden > 0) || !(m->arch.layers > 0) || (in->disagg && p->servers_needed < 2))
		return;
	n = in->servers > 1 ? in->servers : p->servers_needed;
	tp = 2.0 * m->arch.layers * 2.0 * (n - 1) / n * m->arch.hidden * 2;
	pp = (double)m->arch.hidden * 2;
	toks = in->tokens_per_s * (double)(in->concurrency > 0 ? in->concurrency : 1);
	/* on a rack-scale NVLink domain the boundary is the domain's, not a server's */
	if (nicfit__plan_split_domain(p, pp, toks))
		return;
	plan_decide(&p->decisions, "R9", 1,
		    "Splitting %s across %d servers: pipeline parallel sends %s "
		    "per token across each server boundary; tensor parallel across servers "
		    "sends %s per token per server and waits on %d all-reduces per token. At "
		    "%.0f tokens/s that is %.3f vs %.2f Gb/s: keep tensor parallel inside a "
		    "server and pipeline parallel across servers.",
		    m->e.name, n, nicfit_fmt_bytes(pp, b1, sizeof(b1)),
		    nicfit_fmt_bytes(tp, b2, sizeof(b2)), 2 * m->arch.layers, toks,
		    pp * toks * 8 / 1e9, tp * toks * 8 / 1e9);
}

/* R9, estimates: what the network costs a training step, or a split model's token. */
void nicfit__plan_estimates(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;

	if (nicfit__plan_is_training(in->workload) && in->params > 0 && in->servers > 1)
		estimate_allreduce(p);
	if (in->workload == NICFIT_WL_MULTINODE_INFERENCE ||
	    (in->workload == NICFIT_WL_INFERENCE && p->backend_needed))
		estimate_split(p);
}

/* ---- R10: bill of materials --------------------------------------------- */

static void add_line(struct nicfit_plan *p, const struct nicfit_entry *e, const char *part,
		     const char *desc, const char *role, int qty)
{
	struct nicfit_plan_line *l;
	size_t i;

	if (qty <= 0)
		return;
	for (i = 0; i < p->nbom; i++)
		if (e && !p->bom[i].included && !strcmp(p->bom[i].id, e->id)) {
			p->bom[i].qty += qty;
			return;
		}
	if (!(l = nicfit__plan_new_line(p)))
		return;
	nicfit__plan_copy(l->id, sizeof(l->id), e ? e->id : "");
	nicfit__plan_copy(l->part, sizeof(l->part), part);
	nicfit__plan_copy(l->description, sizeof(l->description), desc);
	nicfit__plan_copy(l->role, sizeof(l->role), role);
	l->qty = qty;
	if (e && e->priced) {
		l->priced = 1;
		l->unit_usd = e->price_usd;
		nicfit__plan_copy(l->prices_as_of, sizeof(l->prices_as_of), e->prices_as_of ? e->prices_as_of : "");
		nicfit__plan_copy(l->source, sizeof(l->source), e->price_source ? e->price_source : "");
	}
}

/*
 * Cards the server ships with: listed, so the bill shows every card the
 * plan uses, but at no cost and not as unpriced.
 */
static void add_included(struct nicfit_plan *p, const struct nicfit_nic *n, const char *role,
			 int qty, int idle)
{
	struct nicfit_plan_line *l;

	if (qty <= 0 || !(l = nicfit__plan_new_line(p)))
		return;
	nicfit__plan_copy(l->id, sizeof(l->id), n->e.id);
	nicfit__plan_copy(l->part, sizeof(l->part), n->part);
	plan_fmt(l->description, sizeof(l->description), "%s - included with the server%s",
		 n->e.name, idle ? ", unused by this job" : "");
	nicfit__plan_copy(l->role, sizeof(l->role), role);
	l->qty = qty;
	l->included = 1;
}

/* How many of the n slots (indices into the server's slots) ship card nic. */
static int included_in(const struct nicfit_plan *p, const struct nicfit_nic *nic, const int *slots,
		       int n)
{
	const struct nicfit_server *sv = p->in.server;
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += slots[i] >= 0 && slots[i] < sv->nslots && sv->slots[slots[i]].included &&
		     !strcmp(sv->slots[slots[i]].included, nic->e.id);
	return k;
}

/*
 * The auxiliary kit of a card planned over two PCIe links by its Socket
 * Direct option (a ConnectX-8 in a Gen5 host, R6): NVIDIA's manual for
 * the card has its second x16 link come through a PCIe extension card
 * cabled to the card's MCIO connector, sold apart from the card (a card
 * that is Socket Direct itself ships its auxiliary card and harness under
 * its own part number, so it has no such line). One kit per card whose
 * auxiliary slot was found. No order code for the kit is in nicfit's
 * sources: the line names what to order, unpriced.
 */
static void add_aux_kits(struct nicfit_plan *p)
{
	int i, kits = 0;

	if (!p->be_nic || !p->be_nic->sd_option || p->be_nic->socket_direct || p->be_sd_links < 2)
		return;
	for (i = 0; i < p->be_cards && i < NICFIT_PLAN_MAX_CARDS; i++)
		kits += p->be_aux_slots[i] >= 0;
	if (!kits)
		return;
	add_line(p, NULL, "pcie-aux-kit-cx8",
		 "NVIDIA PCIe auxiliary kit for ConnectX-8 Socket Direct (x16 extension card, MCIO "
		 "cable)", "backend", p->in.servers * kits);
	plan_decide(&p->decisions, "R10", 1,
		    "%d PCIe auxiliary kit%s a server for the %s's second x16 link (R6): the "
		    "extension card in the auxiliary slot, cabled to the card's MCIO connector "
		    "(NVIDIA ConnectX-8 SuperNIC user manual, Introduction: the Socket-Direct "
		    "extension option of 900-9X81E-00EX-ST0 and 900-9X81Q-00CN-ST0). Unpriced, and "
		    "named by what it is: its order code is not in nicfit's sources.", kits,
		    kits == 1 ? "" : "s", p->be_nic->part);
}

/*
 * R10, bill of materials (docs/rules.md): the cards (less those already
 * installed), the cables and the switches, with prices only where the
 * catalog has a sourced one; the rest are listed as unpriced, never
 * estimated, and the total says which it counts. A quote is as old as
 * its oldest price.
 */
void nicfit__plan_bom(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	struct nicfit_plan_line *sw = p->bom, *l;
	size_t nsw = p->nbom, i;
	int unpriced = 0, included = 0;

	/* switch lines were added while cabling; keep them after the cards */
	p->bom = NULL;
	p->nbom = p->alloc_bom = 0;
	if (p->backend_needed && p->be_nic) {
		int incl = included_in(p, p->be_nic, p->be_slots, p->be_cards);
		int have = p->in.installed_cards > p->be_cards - incl ? p->be_cards - incl :
			   p->in.installed_cards;

		add_line(p, &p->be_nic->e, p->be_nic->part, p->be_nic->e.name, "backend",
			 p->in.servers * (p->be_cards - incl - have));
		add_included(p, p->be_nic, "backend", p->in.servers * incl, 0);
		if (have)
			plan_decide(&p->decisions, "R10", 1,
				    "%d x %s per server %s already installed: not in the "
				    "bill of materials.", have, p->be_part, have == 1 ? "is" : "are");
		add_aux_kits(p);
	} else {
		int idle;
		const struct nicfit_nic *n = nicfit__plan_builtin_idle(cat, p, &idle);

		if (n)
			add_included(p, n, "backend", p->in.servers * idle, 1);
	}
	if (!p->fe_onboard && !p->fe_converged && p->fe_nic && p->fe_installed)
		plan_decide(&p->decisions, "R10", 1, "The front-end %s is already installed (slot "
			    "%s): not in the bill of materials.", p->fe_nic->part,
			    p->in.installed_fe_slot);
	else if (!p->fe_onboard && !p->fe_converged && p->fe_nic)
		add_line(p, &p->fe_nic->e, p->fe_nic->part, p->fe_nic->e.name, "frontend",
			 p->in.servers);
	if (p->st_nic) {
		int incl = included_in(p, p->st_nic, p->st_slots, p->st_cards);

		add_line(p, &p->st_nic->e, p->st_nic->part, p->st_nic->e.name, "storage",
			 p->in.servers * (p->st_cards - incl));
		add_included(p, p->st_nic, "storage", p->in.servers * incl, 0);
	}
	for (i = 0; i < p->ncables; i++) {
		const struct nicfit_plan_cable *c = &p->cables[i];
		/* the entry the cable was chosen as, not looked up again by its id */
		const struct nicfit_cable *cc = c->cable ? c->cable : c->id[0] ?
			nicfit_catalog_find_cable(cat, c->id, "", NULL) : NULL;

		add_line(p, cc ? &cc->e : NULL, c->part, cc ? cc->e.name : c->description, c->link, c->qty);
	}
	for (i = 0; i < nsw && (l = nicfit__plan_new_line(p)); i++)
		*l = sw[i];
	free(sw);
	p->total_usd = 0;
	p->prices_as_of[0] = '\0';
	for (i = 0; i < p->nbom; i++) {
		l = &p->bom[i];
		if (l->priced) {
			l->total_usd = l->unit_usd * l->qty;
			p->total_usd += l->total_usd;
			/* a quote is as old as its oldest price */
			if (!p->prices_as_of[0] || strcmp(l->prices_as_of, p->prices_as_of) < 0)
				nicfit__plan_copy(p->prices_as_of, sizeof(p->prices_as_of), l->prices_as_of);
		} else if (!l->included) {
			unpriced++;
		}
		included += l->included;
	}
	if (included)
		plan_decide(&p->decisions, "R10", 1,
			    "%d line%s of cards the server ships with (%s): listed as included with "
			    "the server, nothing to buy.", included, included == 1 ? "" : "s",
			    p->in.server->e.name);
	plan_decide(&p->decisions, "R10", 1,
		    "Bill of materials: %zu line%s, %.2f USD for the priced ones%s%s%s; "
		    "%d line%s without a sourced price (never estimated: add yours with --catalog).",
		    p->nbom, p->nbom == 1 ? "" : "s", p->total_usd,
		    p->prices_as_of[0] ? " (prices as of " : "", p->prices_as_of,
		    p->prices_as_of[0] ? ")" : "", unpriced, unpriced == 1 ? "" : "s");
}

/* ---- R11: notes --------------------------------------------------------- */

static void unverified_note(struct nicfit_plan *p, const struct nicfit_entry *e, const char *what)
{
	char list[300];
	size_t k = 0;
	int i;

	if (!e || !e->nunverified)
		return;
	list[0] = '\0';
	for (i = 0; i < e->nunverified && k < sizeof(list); i++)
		k += (size_t)plan_fmt(list + k, sizeof(list) - k, "%s%s", i ? ", " : "", e->unverified[i]);
	nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_UNVERIFIED_DATA,
			  "check these against the vendor's documentation; correct them with --catalog",
			  "Facts about the %s %s that the catalog marks unverified: %s.", what, e->id, list);
}

/*
 * R11, notes (docs/rules.md): what the user should know that no earlier
 * rule decided. RoCE through a switch without PFC and ECN collapses under
 * congestion (a warning: the plan fails in production without it); the
 * rest is advice (infos): VPI port mode, Intel module coding, a GPU of a
 * newer PCIe generation than its server, what RDMA storage also needs,
 * catalog facts marked unverified, parts without a sourced price.
 */
void nicfit__plan_notes(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	size_t k;

	if (!p->backend_needed && in->workload != NICFIT_WL_REPLICATED && in->servers == 1)
		plan_decide(&p->decisions, "R11", 1,
			    "No ConnectX or InfiniBand card is needed for a single "
			    "inference server: the model's GPU traffic stays on PCIe, and 10GbE is "
			    "plenty for requests, model downloads and management.");
	if (p->backend_needed && p->be_nic && p->fabric == NICFIT_FABRIC_ROCE && !p->back_to_back)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_ROCE_LOSSLESS,
				  "enable PFC on the RoCE priority and ECN on the switch ports before the first "
				  "job; check counters (pause frames, CNPs) under load",
				  "RoCE without a lossless switch configuration collapses under congestion: "
				  "packet drops make RDMA retransmit and throughput falls to a fraction.");
	if (p->backend_needed && p->be_card.vpi) {
		char set[NICFIT__PLAN_LINK_TYPES_MAX];

		nicfit__plan_link_types(p, set, sizeof(set));
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_VPI_PORT_MODE, set,
				  "%s ports may arrive in either mode; a port in the wrong mode shows up as a "
				  "missing link or as the wrong link layer in ibstat.", p->be_part);
	}
	if (p->fe_nic && p->fe_nic->module_coding && !strcmp(p->fe_nic->module_coding, "intel"))
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_INTEL_MODULE_CODING,
				  "order DACs and optics coded for Intel at the NIC end",
				  "The front-end %s checks module coding: a DAC or optic not coded for Intel "
				  "leaves the port down ('unsupported SFP module type').",
				  p->fe_onboard ? "X710 rNDC" : p->fe_nic->part);
	if (in->gpu && in->gpu->pcie_gen > in->server->pcie_gen)
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_GPU_PCIE_DOWNTRAINED, NULL,
				  "%s is a PCIe Gen%d card; in %s it runs at Gen%d x16, which halves host-to-GPU "
				  "copy bandwidth (model loading from RAM, offload) but does not affect the network "
				  "plan.", in->gpu->e.name, in->gpu->pcie_gen, in->server->e.name,
				  in->server->pcie_gen);
	if (in->workload == NICFIT_WL_RDMA_STORAGE)
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_RDMA_STORAGE, NULL,
				  "For RDMA storage, the storage targets need RDMA cards of at least the same "
				  "speed, and GPUDirect Storage (cuFile/nvidia-fs) lets the NIC write straight "
				  "into GPU memory.");
	unverified_note(p, &in->server->e, "server");
	if (p->be_nic)
		unverified_note(p, &p->be_nic->e, "card");
	for (k = 0; k < p->nbom; k++)
		if (!p->bom[k].priced && !p->bom[k].included) {
			nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_UNPRICED,
					  "nicfit catalog list -j > prices.json, add price_usd, prices_as_of and "
					  "price_source, then --catalog prices.json",
					  "Some parts have no sourced price and are listed as unpriced, not estimated.");
			break;
		}
}

/*
 * Critical findings that leave nothing to build as asked: GPUs or cards
 * without a slot, a replica that fits no server, a fabric no switch
 * builds. The other critical findings refuse what was asked (a part, a
 * server count) and plan with something else, which the verdict says.
 */
static int unbuildable_code(const char *code)
{
	static const char *const codes[] = { "too-many-gpus", "no-slot-for-gpus", "no-slot",
		"no-backend-card", "fabric-too-large", "replica-does-not-fit", "switch-speed",
		"switch-fabric", "frontend-no-slot", NULL };
	int i;

	for (i = 0; codes[i]; i++)
		if (!strcmp(code, codes[i]))
			return 1;
	return 0;
}

/*
 * The verdict when a critical finding stands (it never contradicts one):
 * the finding first, what the placed GPUs hold, and its fix; a refused
 * part is said first and the plan made without it follows. Returns 1
 * when the verdict is complete.
 */
static int verdict_critical(struct nicfit_plan *p, char *rest, size_t n)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_finding *crit = NULL;
	char fit[200];
	size_t i;

	p->buildable = 1;
	/* one that makes the plan unbuildable first: it is the answer, whatever else changed */
	for (i = 0; i < p->findings.n && !crit; i++)
		if (p->findings.v[i].severity == NICFIT_SEV_CRITICAL &&
		    unbuildable_code(p->findings.v[i].code))
			crit = &p->findings.v[i];
	for (i = 0; i < p->findings.n && !crit; i++)
		if (p->findings.v[i].severity == NICFIT_SEV_CRITICAL)
			crit = &p->findings.v[i];
	if (!crit)
		return 0;
	p->buildable = 0;
	if (!unbuildable_code(crit->code)) {
		plan_fmt(rest, n, "Not as asked: %s Planned instead: ", crit->message);
		return 0;
	}
	fit[0] = '\0';
	/*
	 * What the GPUs that fit hold: a model split over the servers (ZeRO
	 * shards, pipeline stages) is judged on all of them, as R1 sized it.
	 */
	if (p->fit_known && p->gpus_placed < in->gpus_per_server && in->servers > 1 &&
	    !p->fits_one_server && p->gpus_placed > 0)
		plan_fmt(fit, sizeof(fit), " Only %d of the %d GPUs fit, holding %.1f GB usable a "
			 "server: %s over %d servers.", p->gpus_placed, in->gpus_per_server,
			 p->fit.capacity_gb, p->servers_needed <= in->servers ?
			 "enough for the model" : "not enough for the model even", in->servers);
	else if (p->fit_known && p->gpus_placed < in->gpus_per_server && p->gpus_placed > 0)
		plan_fmt(fit, sizeof(fit), " Only %d of the %d GPUs fit, holding %.1f GB usable: %s.",
			 p->gpus_placed, in->gpus_per_server, p->fit.capacity_gb,
			 p->fits_one_server ? "enough for the model" : "the model does not fit them");
	plan_fmt(p->verdict, sizeof(p->verdict), "Cannot be built as asked: %s%s%s%s%s",
		 crit->message, fit, crit->fix ? " Fix: " : "", crit->fix ? crit->fix : "",
		 crit->fix ? "." : "");
	return 1;
}

/*
 * The verdict, the first line of every report: whether a back end is
 * needed and why, the card and fabric when it is, the model's fit and
 * the front end, in one paragraph a buyer can act on.
 */
void nicfit__plan_verdict(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	char fe[200], be[300], fit[200], pre[400], whole[640];
	char b[32];

	pre[0] = '\0';
	if (verdict_critical(p, pre, sizeof(pre)))
		return;
	fit[0] = '\0';
	if (p->fit_known && !nicfit__plan_is_training(in->workload))
		plan_fmt(fit, sizeof(fit), " %s at %s (%.1f GB) %s its %d x %s (%.1f GB usable).",
			 in->model ? in->model->e.name : "The model", nicfit_precision_name(in->precision),
			 p->fit.total_gb, p->fits_one_server ? "fits" : "does not fit",
			 in->gpus_per_server, in->gpu->e.name, p->fit.capacity_gb);
	if (p->fe_converged)
		plan_fmt(fe, sizeof(fe), "Front end converged with storage and in-band management "
			 "onto %d x %s (%.0f Gb/s bonded to two switches)%s%s.", p->st_cards,
			 p->st_nic->part, p->st_node_gbps, p->load_s > 0 ? ", where the weights load in " : "",
			 p->load_s > 0 ? nicfit_fmt_seconds(p->load_s, b, sizeof(b)) : "");
	else if (p->load_over_storage)
		plan_fmt(fe, sizeof(fe), "Front end: %s %g GbE; storage and in-band over %d x %s "
			 "(%.0f Gb/s bonded to two switches), where the weights load in %s.",
			 p->fe_onboard ? "the onboard" : p->fe_nic ? p->fe_nic->part : "a card",
			 p->fe_port_gbps, p->st_cards, p->st_nic->part, p->st_node_gbps,
			 nicfit_fmt_seconds(p->load_s, b, sizeof(b)));
	else if (p->fe_onboard)
		plan_fmt(fe, sizeof(fe), "Front end: the onboard %g GbE %s is enough%s%s.",
			 p->fe_port_gbps, p->fe_nic ? p->fe_nic->family : p->fe_ob->name,
			 p->load_s > 0 ? "; the weights load in " : "",
			 p->load_s > 0 ? nicfit_fmt_seconds(p->load_s, b, sizeof(b)) : "");
	else
		plan_fmt(fe, sizeof(fe), "Front end: %s, %g GbE%s%s.", p->fe_nic ? p->fe_nic->part : "a card",
			 p->fe_port_gbps, p->load_s > 0 ? "; the weights load in " : "",
			 p->load_s > 0 ? nicfit_fmt_seconds(p->load_s, b, sizeof(b)) : "");
	if (!p->backend_needed) {
		plan_fmt(whole, sizeof(whole), "%d x %s: no back-end fabric needed (%s).%s %s",
			 in->servers, in->server->e.name,
			 in->workload == NICFIT_WL_REPLICATED ? "independent replicas" :
			 p->kv_storage ? "the model fits one server, and the KV cache from prefill to "
			 "decode goes over the storage/in-band NICs" :
			 p->domain_only ? "the job is one NVLink domain: every collective stays on "
			 "NVLink" :
			 nicfit__plan_is_training(in->workload) ? "one server keeps its gradients on PCIe" :
			 p->fit_known ? "the model fits one server" :
			 "assuming the model fits one server: fit not checked", fit, fe);
		plan_fmt(p->verdict, sizeof(p->verdict), "%s%s", pre, whole);
		return;
	}
	if (p->be_nic)
		plan_fmt(be, sizeof(be), "%d x %s per server at %.1f Gb/s, %s%s", p->be_cards, p->be_part,
			 p->be_effective_gbps,
			 p->fabric == NICFIT_FABRIC_IB ? "InfiniBand" : nicfit__plan_roce_name(p),
			 p->back_to_back ? ", back to back" : "");
	else if (p->be_integrated)
		plan_fmt(be, sizeof(be), "the GPUs' own ports, %d x %g Gb/s cages per server, no NIC "
			 "cards", p->be_cards, p->be_port_gbps);
	else
		plan_fmt(be, sizeof(be), "no suitable card found (see findings)");
	plan_fmt(whole, sizeof(whole), "%d x %s need a back-end RDMA fabric (%s): %s.%s %s",
		 in->servers, in->server->e.name,
		 nicfit__plan_is_training(in->workload) ? "gradients are exchanged every step" :
		 in->workload == NICFIT_WL_RDMA_STORAGE ? "RDMA storage" :
		 in->disagg && !p->kv_storage ? "prefill hands each prompt's KV cache to decode" :
		 "one model spans servers", be, fit, fe);
	plan_fmt(p->verdict, sizeof(p->verdict), "%s%s", pre, whole);
}

const char *nicfit__plan_roce_name(const struct nicfit_plan *p)
{
	return p->be_nic && nicfit_family_roce_v1_only(p->be_nic->family) ? "RoCE v1" : "RoCE v2";
}
