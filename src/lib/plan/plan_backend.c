/*
 * plan_backend.c - R5: the back-end card (an RDMA card, the speed a free
 * slot can feed, the cheapest sourced card that meets it, or the card
 * asked for) and the checks on it. Where it goes is R6 (plan_search.c,
 * plan_place.c), the fabric and cables R7-R8 (plan_parts.c).
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

/* ---- R5: the back-end card ---------------------------------------------- */

/* The port speeds cards are sold at (IEEE 802.3 and InfiniBand's rates). */
static const double std_speeds[] = { 10, 25, 50, 100, 200, 400, 800 };

/*
 * A card meets a target when it moves 98% of the goodput of a port of the
 * target's speed. The PCIe and link models carry their overheads to
 * within about 2% (encoding, TLP headers, flow-control credits), so a
 * slot within 2% of the port is, in practice, feeding the port.
 */
#define MEETS_SHARE 0.98
/*
 * default_target: a slot feeds a port when the slot's effective rate is
 * at least the port's goodput, within 0.01%: the two come from different
 * formulas whose rounding differs in the last digits.
 */
#define FEEDS_SLACK 1.0001
/* More than this much of a port left idle by its slot is worth a warning. */
#define CAPPED_IDLE_GBPS 1.0
/*
 * FDR InfiniBand is 4 lanes of 14.0625 Gb/s, sold and shown as 56 Gb/s
 * (IBTA; NVIDIA's ConnectX-3 product briefs); its data rate after 64b/66b
 * is 54.5 Gb/s (docs/reference/bandwidth.md 3.1). Every later rate's name
 * is its data rate.
 */
#define FDR_PORT_GBPS 56.0
/* Where the driver facts of R5 come from. */
#define MLNX_OFED_SOURCE "NVIDIA MLNX_OFED release notes: ConnectX-3 and ConnectX-3 Pro supported up to 4.9 LTS"
/*
 * The ports of one card add bandwidth only when together they move half
 * again what one port does; below that they share one PCIe link that one
 * port already fills.
 */
#define PORTS_ADD_RATIO 1.5
/*
 * NVIDIA's sizing guidance for its certified multi-node systems starts at
 * 200 Gb/s of back end per node (the below-200g-guidance finding quotes
 * it); a node "reaches" it at MEETS_SHARE of it, as a card meets a target.
 */
#define GUIDANCE_NODE_GBPS 200.0

/* Goodput of one port of `gbps` under the fabric's protocol. */
static double port_goodput(const struct nicfit_plan *p, double gbps)
{
	struct nicfit_speed sp;
	struct nicfit_link_result lr;

	memset(&sp, 0, sizeof(sp));
	sp.gbps = gbps;
	sp.kind = NICFIT_SPEED_ANY;
	if (p->fabric == NICFIT_FABRIC_IB &&
	    !nicfit_link_calc(&sp, NICFIT_PROTO_IB, &p->in.link, &lr, NULL))
		return lr.goodput_gbps;
	if (nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &p->in.link, &lr, NULL))
		return gbps;
	return lr.goodput_gbps;
}

/*
 * R5's default target: the fastest standard port speed whose goodput some
 * free PCIe slot of the server can carry (an x16 card at most, whatever
 * the slot's width). A faster port would sit partly idle; a slower one
 * leaves the slot's bandwidth unused. Without any such slot, 10G.
 */
static double default_target(const struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	double best = 0, goodput[sizeof(std_speeds) / sizeof(std_speeds[0])];
	int i, k, nspeeds = (int)(sizeof(std_speeds) / sizeof(std_speeds[0]));

	/* what each speed's port moves is the same in every slot: worked out once */
	for (k = 0; k < nspeeds; k++)
		goodput[k] = port_goodput(p, std_speeds[k]);
	for (i = 0; i < sv->nslots; i++) {
		const struct nicfit_slot *s = &sv->slots[i];
		int width = s->width > 16 ? 16 : s->width;
		struct nicfit_pcie_result pr;

		if (s->kind && strcmp(s->kind, "pcie"))
			continue;
		if (nicfit_pcie_calc(s->gen, width, &p->in.pcie, &pr, NULL))
			continue;
		for (k = nspeeds - 1; k >= 0; k--) {
			if (goodput[k] <= pr.effective_gbps * FEEDS_SLACK) {
				if (std_speeds[k] > best)
					best = std_speeds[k];
				break;
			}
		}
	}
	return best > 0 ? best : std_speeds[0];
}

/* A card whose driver stack has ended comes after every other. */
static int ended(const struct nicfit_nic *n)
{
	return nicfit_family_past_driver_support(n->family);
}

/*
 * A BlueField (DPU or SuperNIC): Arm cores, its own OS and firmware to
 * run, bought for what those do. Between two cards alike in price and
 * ports, the plain ConnectX is the back end; a SuperNIC is chosen where
 * its fabric needs one (Spectrum-X) or when it is asked for.
 */
static int bluefield(const struct nicfit_nic *n)
{
	return n->family && !strncmp(n->family, "BlueField", 9);
}

/* Cheapest first: sourced prices, then unpriced by least excess speed, a plain ConnectX first. */
static int same_end_before(const struct nicfit_nic *a, const struct nicfit_nic *b)
{
	if (a->e.priced != b->e.priced)
		return a->e.priced;
	if (a->e.priced && a->e.price_usd != b->e.price_usd)
		return a->e.price_usd < b->e.price_usd;
	if (a->port_gbps != b->port_gbps)
		return a->port_gbps < b->port_gbps;
	if (a->ports != b->ports)
		return a->ports < b->ports;
	if (bluefield(a) != bluefield(b))
		return bluefield(b);
	return strcmp(a->e.id, b->e.id) < 0;
}

/* cand_before() with each card's ended() worked out once, for sorting */
struct cand {
	const struct nicfit_nic *n;
	int ended;
};

static int cand_before(const struct nicfit_nic *a, const struct nicfit_nic *b)
{
	int ea = ended(a), eb = ended(b);

	return ea != eb ? eb : same_end_before(a, b);
}

static int cand_sorts_before(const struct cand *a, const struct cand *b)
{
	return a->ended != b->ended ? b->ended : same_end_before(a->n, b->n);
}

/*
 * R5, choosing the card (docs/rules.md): among the catalog's RDMA cards
 * for the fabric (Socket Direct cards need two slots and are left out),
 * the cheapest with a sourced price whose best placement meets the
 * target, and whose port is at least the target's speed; unpriced cards
 * come after priced ones, the least oversized first. When none meets it,
 * the card that moves the most (rates within PLAN_SAME_RATE_GBPS are
 * equal, then the cheapest), so the plan still names the best there is.
 * Before all of that, the card whose placement leaves the most GPUs a
 * slot: a fast card that pushes GPUs out of the server plans a server
 * that cannot be built (four x16 cards and four GPUs in a server with six
 * x16 slots), where x8 cards beside them can. And before price and rate,
 * a card whose driver stack lives: a ConnectX-3 (backend-driver-ended) is
 * chosen only when no supported card can be placed, since the plan's own
 * finding tells the user not to build on one; --backend-nic still takes
 * it. When one was passed over that would have moved more, R5 says so.
 */
/*
 * pick_card()'s answer when it is a card that meets the target and places
 * every GPU, found by trying only the cards that can meet it (a port of
 * the target's speed), in cand_before() order: the first that meets it
 * and places every GPU is the one the full round picks (the round keeps
 * the card placing the most GPUs, then the first in that order, and no
 * fallback places more than every GPU), so the rest go untried. NULL when
 * there is none, or no memory: the full round then decides.
 */
static const struct nicfit_nic *pick_meeting(const struct nicfit_catalog *cat,
					     struct nicfit_plan *p, struct plan_place_memo *memo,
					     double target, double need, int ncards,
					     struct plan_choice *where)
{
	size_t i, j, k = 0, count;
	const struct nicfit_nic *nics = nicfit__plan_nics(cat, &count);
	struct cand *v = malloc((count ? count : 1) * sizeof(*v));
	const struct nicfit_nic *hit = NULL;
	int ngpus = p->in.gpu ? p->in.gpus_per_server : 0;

	if (!v)
		return NULL;
	for (i = 0; i < count; i++) {
		const struct nicfit_nic *n = &nics[i];
		struct cand c;

		if (!nicfit__plan_rdma_ok(p, n->rdma) || n->socket_direct ||
		    !nicfit__plan_spectrum_x_ok(p, n) ||
		    n->port_gbps < target - NICFIT_EPS)
			continue;
		c.n = n;
		c.ended = ended(n);
		v[k++] = c;
	}
	/*
	 * Tried in cand_sorts_before() order (a total order: ids differ), each
	 * next card selected from those left: the first tried usually meets
	 * it, where sorting them all first compared every pair.
	 */
	for (i = 0; i < k && !hit; i++) {
		struct nicfit_card card;
		struct plan_choice c;
		struct cand t;
		size_t m = i;

		for (j = i + 1; j < k; j++)
			if (cand_sorts_before(&v[j], &v[m]))
				m = j;
		t = v[m];
		v[m] = v[i];
		v[i] = t;
		nicfit__plan_fill_card(&card, v[i].n);
		if (nicfit__plan_card_can_meet(p, &card, v[i].n, need) &&
		    nicfit__plan_search_place_memo(p, memo, &card, v[i].n, ncards, need,
						   &c) && c.meets && c.ngpu_placed >= ngpus) {
			hit = v[i].n;
			*where = c;
		}
	}
	free(v);
	return hit;
}

static const struct nicfit_nic *pick_card(const struct nicfit_catalog *cat,
					  struct nicfit_plan *p, double target, int ncards,
					  struct plan_choice *where)
{
	const struct nicfit_nic *best = NULL, *fallback = NULL, *passed = NULL;
	struct plan_place_memo *memo = malloc(sizeof(*memo));
	struct plan_choice c, fb_c;
	double need = port_goodput(p, target) * MEETS_SHARE, fb_eff = 0, passed_eff = 0;
	int ngpus = p->in.gpu ? p->in.gpus_per_server : 0;
	size_t i, count;
	const struct nicfit_nic *nics = nicfit__plan_nics(cat, &count);

	memset(&fb_c, 0, sizeof(fb_c));
	p->be_passed = NULL;
	if (memo)
		memo->n = 0;
	best = pick_meeting(cat, p, memo, target, need, ncards, where);
	if (best) {
		free(memo);
		return best;
	}
	for (i = 0; i < count; i++) {
		const struct nicfit_nic *n = &nics[i];
		struct nicfit_card card;

		if (!nicfit__plan_rdma_ok(p, n->rdma) || n->socket_direct ||
		    !nicfit__plan_spectrum_x_ok(p, n))
			continue;
		/*
		 * A bound: once the best card places every GPU, only a card
		 * before it in cand_before() can replace it, and the fallback
		 * no longer counts, so the others are not searched.
		 */
		if (best && where->ngpu_placed >= ngpus && !cand_before(n, best))
			continue;
		nicfit__plan_fill_card(&card, n);
		if (!nicfit__plan_search_place_memo(p, memo, &card, n, ncards, need, &c))
			continue;
		if (c.meets && n->port_gbps >= target - NICFIT_EPS) {
			if (!best || c.ngpu_placed > where->ngpu_placed ||
			    (c.ngpu_placed == where->ngpu_placed && cand_before(n, best))) {
				best = n;
				*where = c;
			}
		} else if (!fallback || c.ngpu_placed > fb_c.ngpu_placed ||
			   (c.ngpu_placed == fb_c.ngpu_placed &&
			    (ended(n) != ended(fallback) ? ended(fallback) :
			     c.per_card > fb_eff + PLAN_SAME_RATE_GBPS ||
			     (fabs(c.per_card - fb_eff) <= PLAN_SAME_RATE_GBPS &&
			      cand_before(n, fallback))))) {
			fallback = n;
			fb_eff = c.per_card;
			fb_c = c;
		}
		/* the ended card that moves the most, to name if a slower one wins */
		if (ended(n) && c.per_card > passed_eff) {
			passed = n;
			passed_eff = c.per_card;
		}
	}
	free(memo);
	/* a card that leaves GPUs without a slot is worse than a slower one that does not */
	if (best && !(fallback && fb_c.ngpu_placed > where->ngpu_placed))
		return best;
	if (!fallback)
		return NULL;
	*where = fb_c;
	if (passed && !ended(fallback) && passed_eff > fb_eff + PLAN_SAME_RATE_GBPS) {
		p->be_passed = passed;
		p->be_passed_gbps = passed_eff;
	}
	return fallback;
}

/*
 * R7's first part, which fabric: what was asked (--fabric), else what the
 * switch given runs, else RoCE v2, which runs on the Ethernet switches and
 * skills a site already has. It comes before the card because the card
 * must speak the fabric.
 */
static void choose_fabric(struct nicfit_plan *p, const struct nicfit_nic *builtin)
{
	const struct nicfit_plan_input *in = &p->in;

	if (in->fabric != NICFIT_FABRIC_AUTO) {
		p->fabric = in->fabric;
	} else if (in->sw) {
		p->fabric = !strcmp(in->sw->fabric, "infiniband") ? NICFIT_FABRIC_IB :
			    NICFIT_FABRIC_ROCE;
	} else if (nicfit__plan_builtin_fabric_ib(builtin)) {
		/* a DGX or NVL72 tray: its compute ports ship in InfiniBand mode (plan_builtin.c) */
		p->fabric = NICFIT_FABRIC_IB;
		plan_decide(&p->decisions, "R7", 1,
			    "Fabric: InfiniBand, as %s ships its built-in %s compute ports and as "
			    "NVIDIA's DGX SuperPOD designs build the compute fabric; Ethernet "
			    "(RoCE v2, Spectrum-X) is the Enterprise RA alternative: --fabric roce "
			    "or an Ethernet --switch.", in->server->e.name, builtin->part);
	} else {
		p->fabric = NICFIT_FABRIC_ROCE;
	}
}

/*
 * R5, an accelerator whose scale-out ports are on its own package (Intel
 * Gaudi 3: 3 x 200 GbE of its 24 RoCE ports, four to an 800G OSFP cage of
 * the server; Intel Gaudi "Network Configuration"): the back end needs no
 * NIC card, so none is chosen or placed (unless --backend-nic asks for
 * one). The plan says what the servers bring out and hands the fabric's
 * sizing to nicfit cluster, which cables those cages (cluster.integrated);
 * the plan's own switch, cable and step rules are built on NIC cards and
 * are not run on these ports. Returns 1 when it took the back end.
 */
/*
 * What the accelerators' own ports move: each port's RoCE v2 goodput (the
 * link model of every other back end), per cage of per ports and per
 * server, for the step model's rows (R9) as a card's would be.
 */
static void integrated_goodput(struct nicfit_plan *p, const struct nicfit_gpu *g, int per)
{
	struct nicfit_link_result lr;
	struct nicfit_speed sp;

	memset(&sp, 0, sizeof(sp));
	sp.gbps = g->scaleout_gbps;
	sp.kind = NICFIT_SPEED_ETH;
	if (nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &p->in.link, &lr, NULL))
		return;
	p->be_effective_gbps = lr.goodput_gbps * per;
	p->be_node_gbps = lr.goodput_gbps * p->in.gpus_per_server * g->scaleout_ports;
	p->be_limited_by = "ports";
}

static int integrated_backend(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_gpu *g = in->gpu;
	const struct nicfit__gpu_stack *st;
	int per, cages;

	if (!g || g->scaleout_ports < 1 || g->scaleout_gbps <= 0 || in->backend_nic)
		return 0;
	st = nicfit__plan_stack(p);
	per = g->scaleout_per_cage > 0 ? g->scaleout_per_cage : 1;
	cages = (in->gpus_per_server * g->scaleout_ports + per - 1) / per;
	nicfit__plan_place_gpus_only(p);
	p->be_integrated = 1;
	p->be_cards = cages;
	p->be_ports = 1;
	p->be_port_gbps = g->scaleout_gbps * per;
	integrated_goodput(p, g, per);
	plan_decide(&p->decisions, "R5", 1,
		    "Back end: the %s's own ports, no NIC cards: %d GPUs x %d x %g GbE = %d ports "
		    "per server, %d to each %s cage: %d x %g Gb/s per server (%s runs the "
		    "collectives over them; test with %s).", g->e.name, in->gpus_per_server,
		    g->scaleout_ports, g->scaleout_gbps, in->gpus_per_server * g->scaleout_ports,
		    per, g->scaleout_cage ? g->scaleout_cage : "server", cages, g->scaleout_gbps * per,
		    st->ccl, st->tests);
	nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_INTEGRATED_SCALEOUT,
			  "nicfit cluster --server ID --nodes N sizes the same fabric with its front "
			  "end and OOB network; give --backend-nic only for NIC cards on top of them",
			  "%s scales out over its own %g GbE ports (%d x %g Gb/s cages per server), not "
			  "through NIC cards: this plan buys no back-end card; the switches and cables "
			  "for its cages are sized as nicfit cluster sizes them.", g->e.name,
			  g->scaleout_gbps, cages, g->scaleout_gbps * per);
	return 1;
}

/*
 * The GPU driver's peer-memory client the plan's GPU would use for
 * GPUDirect RDMA through a NIC driver's peer-memory interface:
 * nvidia-peermem, or the amdgpu driver's (core/gpu_stack_int.h).
 */
static const char *peer_name(const struct nicfit_plan *p)
{
	const char *peer = nicfit__plan_stack(p)->peer;

	return peer ? peer : "a GPU peer-memory client";
}

/*
 * R5, the card asked for (--backend-nic): used as asked unless it cannot
 * be the back end at all. A card without RDMA would make NCCL fall back to
 * TCP sockets through the CPU, and a card without InfiniBand cannot join
 * an InfiniBand fabric: both are refused (critical) and R5 chooses
 * instead. Returns the card to use, or NULL to choose one.
 */
static const struct nicfit_nic *forced_card(const struct nicfit_catalog *cat,
					    struct nicfit_plan *p)
{
	const struct nicfit_nic *forced;
	struct nicfit_error err;

	nicfit_error_clear(&err);
	forced = nicfit__plan_whatif_card(cat, p, 0, p->in.backend_nic, "--backend-nic", &err);
	if (!forced) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_BACKEND_NIC_UNKNOWN,
				  "give a catalog NIC id (nicfit catalog list nics) or add the card with --catalog",
				  "%s", err.msg);
	} else if (!forced->rdma) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_BACKEND_NO_RDMA,
				  "use an RDMA card (ConnectX, or Intel E810 for RoCE/iWARP) for the back "
				  "end; keep the Intel card as the front end",
				  "%s (%s) has no RDMA (no RoCE, no InfiniBand): GPU-to-GPU traffic between "
				  "servers needs RDMA, and %s would fall back to TCP sockets through the CPU. "
				  "Refused as the back-end card.", forced->part, forced->e.name,
				  nicfit__plan_stack(p)->ccl);
		plan_decide(&p->decisions, "R5", 1,
			    "%s refused: no RDMA. Choosing an RDMA card instead.", forced->part);
		return NULL;
	} else if (p->fabric == NICFIT_FABRIC_IB && !(forced->rdma & NICFIT_RDMA_IB)) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_BACKEND_NOT_INFINIBAND,
				  "use a VPI or InfiniBand card (e.g. MCX556A-ECAT) or --fabric roce",
				  "%s has no InfiniBand ports, but the fabric is InfiniBand.", forced->part);
		return NULL;
	}
	return forced;
}

/* The card and its placement: forced or chosen. Returns 0 when there is none. */
static int place_card(const struct nicfit_catalog *cat, struct nicfit_plan *p,
		      const struct nicfit_nic *forced, int cards, double target,
		      struct plan_choice *where)
{
	const struct nicfit_server *sv = p->in.server;

	if (forced) {
		nicfit__plan_fill_card(&p->be_card, forced);
		if (!nicfit__plan_search_place(p, &p->be_card, forced, cards, 0,
					       where) && p->in.backend_slot_pin) {
			nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_NO_SLOT,
					  "another --backend-slot, or none to let the plan choose",
					  "Slot %s (--backend-slot) cannot take %s (PCIe x%d%s) beside the "
					  "GPUs.", sv->slots[p->in.backend_slot_pin - 1].name,
					  forced->part, forced->pcie_width,
					  nicfit__plan_form_words(forced));
			return 0;
		}
		if (!where->valid) {
			nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_NO_SLOT,
					  "a server with a free slot of the card's width and size",
					  "%s has no free slot for %s (PCIe x%d%s).", sv->e.name,
					  forced->part, forced->pcie_width,
					  nicfit__plan_form_words(forced));
			return 0;
		}
		p->be_nic = forced;
		return 1;
	}
	p->be_nic = pick_card(cat, p, target, cards, where);
	if (!p->be_nic && p->in.backend_slot_pin) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_NO_BACKEND_CARD,
				  "another --backend-slot, or none to let the plan choose",
				  "No RDMA card of the catalog fits slot %s (--backend-slot) of %s beside "
				  "the GPUs.", sv->slots[p->in.backend_slot_pin - 1].name, sv->e.name);
		return 0;
	}
	if (!p->be_nic) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_NO_BACKEND_CARD,
				  "add RDMA cards to the catalog with --catalog, or free a slot",
				  "No RDMA card in the catalog fits a free slot of %s.", sv->e.name);
		return 0;
	}
	nicfit__plan_fill_card(&p->be_card, p->be_nic);
	return 1;
}

/*
 * R6's checks on the placement R5 took: an installed card the plan moves
 * (a warning: the move is cheap but must be done), and GPUs that no
 * longer fit beside the card (critical: the server cannot hold the plan).
 */
static void check_placement(struct nicfit_plan *p, const struct nicfit_nic *forced,
			    const struct plan_choice *where)
{
	const struct nicfit_plan_input *in = &p->in;
	const char *slot = in->server->slots[where->nic_slots[0]].name;
	int dual = p->be_nic && p->be_nic->double_width;

	if (forced && in->installed_cards && in->installed_slot &&
	    !nicfit__plan_slot_listed(in->installed_slot, slot))
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_MOVE_INSTALLED_CARD,
				  "move the card; its link, cables and configuration stay the same",
				  "The installed %s sits in slot %s; the plan puts it in slot %s (%s).", p->be_part,
				  in->installed_slot, slot,
				  where->local ? "on the GPUs' socket" : "the better slot for it");
	if (in->gpu && where->ngpu_placed < in->gpus_per_server) {
		int alone = nicfit__plan_gpus_alone(p);

		if (alone < 0) {
			p->findings.oom = 1;
			return;
		}
		/* a server too small for the GPUs by itself: the card is not the cause */
		if (alone < in->gpus_per_server) {
			nicfit__plan_find_gpu_room(p, alone);
			return;
		}
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_NO_SLOT_FOR_GPUS,
				  dual ? "a single-slot back-end card, fewer GPUs or back-end cards per "
				  "server, or a server with more double-width slots" :
				  in->gpu->double_width && !in->gpu->baseboard ?
				  "fewer GPUs or back-end cards per server, single-width GPUs, or a server "
				  "with more x16 slots" :
				  "fewer GPUs or back-end cards per server (--backend-cards), or a server "
				  "with more x16 slots",
				  "%d x %s and the back-end card%s do not fit %s together: with the card in "
				  "slot %s there is room for %d GPU%s, not %d.", in->gpus_per_server,
				  in->gpu->e.name,
				  dual ? " (dual-slot: it takes a slot a double-width GPU could)" : "",
				  in->server->e.name, slot, where->ngpu_placed,
				  where->ngpu_placed == 1 ? "" : "s", in->gpus_per_server);
	}
}

/* R5's account of the card: what it is, its price, what its slot lets it move. */
static void describe_card(struct nicfit_plan *p, const struct nicfit_nic *forced,
			  const struct nicfit_slot *slot, const struct nicfit_nic_fit *fit, int meets,
			  int builtin)
{
	const struct nicfit_nic *n = p->be_nic;

	plan_decide(&p->decisions, "R5", 1,
		    "%s %s (%s): %d x %g Gb/s %s, PCIe Gen%d x%d, RDMA: %s%s%s.",
		    n->part, n->e.name, n->family, n->ports, p->be_port_gbps, n->cage, n->pcie_gen,
		    n->pcie_width, n->rdma & NICFIT_RDMA_IB ? "InfiniBand " : "",
		    !(n->rdma & NICFIT_RDMA_ROCE) ? "" :
		    nicfit_family_roce_v1_only(n->family) ? "RoCE v1" : "RoCE v2",
		    builtin ? " - built into the server" :
		    forced ? " - as asked" :
		    !meets && p->be_passed ? " - no card meets the target here: of those still "
		    "supported, the one that moves the most" :
		    !meets ? " - no card meets the target here: the one that moves the most" :
		    n->e.priced ? " - the cheapest sourced card that meets the target" : "");
	if (!forced && p->be_passed)
		plan_decide(&p->decisions, "R5", 1,
			    "%s (%s) would move %.1f Gb/s per card here, more than this card, but "
			    "NVIDIA's driver support for it has ended (MLNX_OFED 4.9 LTS is its last, "
			    "and GPUDirect RDMA through %s needs MLNX_OFED): passed over "
			    "for a card still supported; "
			    "--backend-nic %s takes it anyway.", p->be_passed->part,
			    p->be_passed->family, p->be_passed_gbps, peer_name(p), p->be_passed->e.id);
	if (!forced && n->e.priced)
		plan_decide(&p->decisions, "R5", 1,
			    "Price: %.2f USD (%s, as of %s).", n->e.price_usd,
			    n->e.price_source ? n->e.price_source : "catalog",
			    n->e.prices_as_of ? n->e.prices_as_of : "?");
	plan_decide(&p->decisions, "R5", 1,
		    "In its slot the link trains at PCIe Gen%d x%d = %.1f Gb/s raw, "
		    "%.1f Gb/s usable each way; one %g G port carries %.1f Gb/s of %s payload -> "
		    "%.1f Gb/s per card, limited by the %s.",
		    fit->link_gen, fit->link_width, fit->pcie.raw_gbps, fit->pcie_gbps,
		    p->be_port_gbps, fit->port.goodput_gbps,
		    p->fabric == NICFIT_FABRIC_IB && p->be_card.ib_rate ? "InfiniBand" :
		    nicfit_family_roce_v1_only(n->family) ? "RoCE v1" : "RoCE v2",
		    fit->effective_gbps,
		    !strcmp(fit->limited_by, "pcie") ? "PCIe slot" :
		    !strcmp(fit->limited_by, "card") ? "card's own total" : "port");
	if (n->ports > 1) {
		struct nicfit_nic_fit all;
		double both;
		int sd;

		memset(&all, 0, sizeof(all));
		both = nicfit__plan_card_in_slot(p, &p->be_card, slot, n->ports, &all);
		sd = all.links > 1; /* a Socket Direct card with its auxiliary card placed */
		/* what stops the other ports: the slot (both slots of a Socket Direct card) or the card */
		plan_decide(&p->decisions, "R5", 1,
			    "All %d ports share %s: together they move %.1f Gb/s, "
			    "so the %s%s.", n->ports, sd ? "the card's two PCIe links" : "one PCIe link",
			    both, both > fit->effective_gbps * PORTS_ADD_RATIO ? "other ports add bandwidth" :
			    "other ports add redundancy (or a second network), not bandwidth: ",
			    both > fit->effective_gbps * PORTS_ADD_RATIO ? "" :
			    all.limited_by && !strcmp(all.limited_by, "card") ?
			    "the card's own total across its ports is the limit" :
			    sd ? "the slots are the limit" : "the slot is the limit");
	}
}

/*
 * R5, a card capped by its slot (docs/rules.md, backend-capped): when the
 * PCIe link cannot feed the port and more than CAPPED_IDLE_GBPS of it
 * sits idle, the money for that speed buys nothing. The fix names the
 * cheapest sourced card that, placed the same way, moves as much (within
 * PLAN_FULL_SPEED_SHARE), or else says what would feed the port. A
 * target asked for (--backend-gbps) that the link meets is no fault: the
 * port speed the link cannot feed is headroom, said as a decision (a
 * ConnectX-8 at 400 Gb/s on one Gen5 x16 link; Socket Direct's second
 * link would feed the rest).
 */
static void rule_capped(const struct nicfit_catalog *cat, struct nicfit_plan *p,
			const struct nicfit_nic_fit *fit, int meets)
{
	const struct nicfit_nic *alt = NULL, **v;
	struct plan_place_memo *memo;
	struct plan_choice alt_where;
	struct nicfit_finding *f;
	size_t i, j, k = 0, count;
	const struct nicfit_nic *nics = nicfit__plan_nics(cat, &count);

	if (strcmp(fit->limited_by, "pcie") || !(fit->idle_gbps > CAPPED_IDLE_GBPS))
		return;
	if (meets && p->in.backend_gbps > 0) {
		plan_decide(&p->decisions, "R5", 1,
			    "%s: PCIe Gen%d x%d feeds %.1f Gb/s of its %g Gb/s port, which meets the "
			    "%g Gb/s asked for; the rest of the port is headroom, not a fault "
			    "(not backend-capped)%s.", p->be_part, fit->link_gen, fit->link_width,
			    fit->effective_gbps, p->be_port_gbps, p->in.backend_gbps,
			    p->be_nic->sd_option ? ": Socket Direct's second link, through the "
			    "auxiliary kit, would feed the rest" : "");
		return;
	}
	memo = malloc(sizeof(*memo));
	if (memo)
		memo->n = 0;
	/*
	 * The cheapest card that meets it, the first in the catalog among
	 * equal prices: the candidates are tried cheapest first (a stable
	 * order) and the first that meets it is the one.
	 */
	v = malloc((count ? count : 1) * sizeof(*v));
	for (i = 0; v && i < count; i++) {
		const struct nicfit_nic *n = &nics[i];

		if (n == p->be_nic || !nicfit__plan_rdma_ok(p, n->rdma) || !n->e.priced || n->socket_direct)
			continue;
		if (p->be_nic->e.priced && n->e.price_usd >= p->be_nic->e.price_usd)
			continue;
		for (j = k++; j > 0 && n->e.price_usd < v[j - 1]->e.price_usd; j--)
			v[j] = v[j - 1];
		v[j] = n;
	}
	if (!v)
		p->findings.oom = 1;
	for (i = 0; v && i < k && !alt; i++) {
		struct nicfit_card c;

		nicfit__plan_fill_card(&c, v[i]);
		if (nicfit__plan_card_can_meet(p, &c, v[i],
					       fit->effective_gbps * PLAN_FULL_SPEED_SHARE) &&
		    nicfit__plan_search_place_memo(p, memo, &c, v[i], p->be_cards,
						   fit->effective_gbps * PLAN_FULL_SPEED_SHARE,
						   &alt_where) && alt_where.meets)
			alt = v[i];
	}
	free(v);
	free(memo);
	f = nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_BACKEND_CAPPED,
			      alt ? NULL : "a faster slot (PCIe Gen4 x16 feeds 200G), or a card of "
			      "the speed the slot can feed",
			      "%s is capped by its slot: %g Gb/s of port, but PCIe Gen%d x%d feeds only %.1f "
			      "Gb/s (effective_gbps %.1f), so %.0f Gb/s of the port sits idle.",
			      p->be_part, p->be_port_gbps, fit->link_gen, fit->link_width,
			      fit->pcie_gbps, fit->effective_gbps, fit->idle_gbps);
	if (f && alt && p->be_nic->e.priced)
		nicfit__finding_fix(&p->findings, f, "%s (%s, %.2f USD) gives the same speed "
				    "in this slot for %.2f USD less per card", alt->part,
				    alt->e.name, alt->e.price_usd,
				    p->be_nic->e.price_usd - alt->e.price_usd);
	else if (f && alt)
		nicfit__finding_fix(&p->findings, f, "%s (%s, %.2f USD) gives the same speed "
				    "in this slot", alt->part, alt->e.name, alt->e.price_usd);
}

/*
 * R5, a card past its driver stack (backend-driver-ended): NVIDIA's
 * MLNX_OFED supports ConnectX-3 and ConnectX-3 Pro up to 4.9 LTS and
 * dropped them from 5.1; GPUDirect RDMA through nvidia-peermem builds
 * against MLNX_OFED, and the inbox mlx4 stack has no peer-memory path. A
 * cluster built on such a card runs an old, frozen stack or no GPUDirect
 * RDMA: the user must know before buying, so it is a warning.
 */
static void rule_driver_support(struct nicfit_plan *p)
{
	const struct nicfit_nic *n = p->be_nic;
	struct nicfit_finding *f;

	if (!nicfit_family_past_driver_support(n->family))
		return;
	f = nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_BACKEND_DRIVER_ENDED,
			      "a ConnectX-4 or later card for a new build; with this card stay on "
			      "MLNX_OFED 4.9 LTS and a kernel it supports",
			      "%s is a %s: NVIDIA's MLNX_OFED supports it up to 4.9 LTS and dropped it "
			      "from 5.1, and GPUDirect RDMA through %s needs MLNX_OFED (the "
			      "inbox mlx4 stack has no peer-memory path).", p->be_part, n->family,
			      peer_name(p));
	if (f)
		f->source = MLNX_OFED_SOURCE;
}

/*
 * The port's rate in the fabric the plan uses: a VPI card's InfiniBand
 * rate can differ from its Ethernet speed (a ConnectX-3 runs FDR, 56 Gb/s,
 * on InfiniBand and 40GbE on Ethernet), and the rate shown must be the
 * one whose goodput the plan computes.
 */
static double fabric_port_gbps(const struct nicfit_plan *p)
{
	struct nicfit_speed sp;

	if (p->fabric != NICFIT_FABRIC_IB || !p->be_card.ib_rate ||
	    nicfit_ib_rate(p->be_card.ib_rate, &sp))
		return p->be_nic->port_gbps;
	return !strcmp(sp.ib_name, "FDR") ? FDR_PORT_GBPS : sp.gbps;
}

/*
 * R5's advice on the chosen back end: an Intel RDMA card's GPUDirect path
 * (irdma needs DMA-BUF, not nvidia_peermem); a back end short of the
 * --backend-gbps asked (MEETS_SHARE of its goodput); and NVIDIA's
 * GUIDANCE_NODE_GBPS per node for multi-server GPU jobs (RDMA storage is
 * sized by its targets instead).
 */
static void rule_backend_advice(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_nic *n = p->be_nic;
	const struct nicfit__gpu_stack *st = nicfit__plan_stack(p);
	struct nicfit_finding *f;

	if (!strcmp(n->vendor, "Intel") && (n->rdma & (NICFIT_RDMA_ROCE | NICFIT_RDMA_IWARP)) &&
	    st->maker == NICFIT_MAKER_NVIDIA)
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_IRDMA_GPUDIRECT,
				  "check that NCCL's log says 'GPU Direct RDMA Enabled' on a test run; ConnectX "
				  "cards are NCCL's reference for GPUDirect RDMA",
				  "%s does RDMA through the kernel's irdma driver: GPUDirect RDMA then depends on "
				  "DMA-BUF (a recent kernel, NVIDIA open driver and NCCL), not on nvidia_peermem.",
				  p->be_part);
	else if (!strcmp(n->vendor, "Intel") && (n->rdma & (NICFIT_RDMA_ROCE | NICFIT_RDMA_IWARP)) &&
		 (f = nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_IRDMA_GPUDIRECT, NULL,
					"%s does RDMA through the kernel's irdma driver, which takes GPU "
					"memory only through DMA-BUF: GPUDirect RDMA for %s GPUs then "
					"depends on the kernel and the GPU driver exporting DMA-BUF, not on "
					"%s.", p->be_part, st->maker_name, peer_name(p))))
		nicfit__finding_fix(&p->findings, f, "check on a test run that %s",
				    st->gdr_log ? st->gdr_log : "the collective library uses GPUDirect RDMA");
	if (in->backend_gbps > 0 &&
	    p->be_node_gbps < port_goodput(p, in->backend_gbps) * MEETS_SHARE)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_BACKEND_BELOW_TARGET,
				  "a faster slot or more cards per server (--backend-cards)",
				  "The back end reaches %.1f Gb/s per server, below the %g Gb/s asked.",
				  p->be_node_gbps, in->backend_gbps);
	if (p->be_node_gbps < GUIDANCE_NODE_GBPS * MEETS_SHARE &&
	    in->workload != NICFIT_WL_RDMA_STORAGE && in->servers > 1)
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_BELOW_200G_GUIDANCE,
				  in->server->pcie_gen <= 3 ?
				  "in a PCIe Gen3 server 200 Gb/s per node takes two 100G cards in two x16 slots "
				  "(--backend-cards 2); otherwise a Gen4 server with a 200G card" :
				  "a 200G card (or two 100G cards) per node",
				  "NVIDIA's sizing guidance for certified multi-node systems starts at 200 Gb/s per "
				  "node; this plan gives %.1f Gb/s per node%s.", p->be_node_gbps,
				  in->server->pcie_gen <= 3 ? ", and one PCIe Gen3 x16 slot cannot feed 200G" : "");
}

/*
 * R5, how many back-end cards (docs/rules.md): as asked (--backend-cards);
 * else one per GPU on a server whose vendor marks compute-NIC positions
 * (an HGX/DGX baseboard node: NVIDIA's reference architectures give every
 * GPU its own 400G NIC, one rail each), up to the positions there are;
 * else, for a --backend-gbps above what one slot can feed, the fewest
 * cards of the speed a slot feeds that reach it (two 100G cards in a Gen3
 * server for 200 Gb/s, rather than one 200G card its slot caps at 100);
 * else one.
 */
/*
 * Card slots that share a PCIe switch with a GPU position: on a server
 * whose slot map names no roles (one read from a host), these are the
 * compute-NIC positions of a switched GPU node.
 */
static int switch_positions(const struct nicfit_server *sv)
{
	int i, j, n = 0;

	for (i = 0; i < sv->nslots; i++) {
		const struct nicfit_slot *s = &sv->slots[i];
		int shared = 0;

		if (s->pcie_switch < 0 || s->gpu != NICFIT_GPU_NONE)
			continue;
		for (j = 0; j < sv->nslots && !shared; j++)
			shared = sv->slots[j].gpu != NICFIT_GPU_NONE &&
				 sv->slots[j].pcie_switch == s->pcie_switch;
		n += shared;
	}
	return n;
}

/*
 * Whose design R5's one rail per GPU follows, by the GPU's maker: an AMD
 * plan cites AMD's MI3XX cluster design (docs/reference/anchors.md 3.4),
 * never NVIDIA's reference architectures.
 */
static const char *rail_design(const struct nicfit_plan *p)
{
	switch (nicfit__plan_stack(p)->maker) {
	case NICFIT_MAKER_AMD:
		return "AMD's cluster design for Instinct MI3XX builds it";
	case NICFIT_MAKER_GAUDI:
		return "card i of every server on rail i";
	case NICFIT_MAKER_NVIDIA:
	default:
		return "NVIDIA's HGX/DGX reference architectures build it";
	}
}

static int backend_card_count(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	int compute = nicfit__plan_role_slots(in->server, NICFIT_SLOT_COMPUTE);

	if (!compute)
		compute = switch_positions(in->server);
	int most = in->gpu && in->gpus_per_server > 0 ? in->gpus_per_server : 1;
	double feed;
	int n;

	if (most > NICFIT_PLAN_MAX_CARDS)
		most = NICFIT_PLAN_MAX_CARDS;
	if (in->backend_cards)
		return in->backend_cards;
	if (compute > 0 && in->gpu && !in->backend_gbps) {
		n = compute < most ? compute : most;
		plan_decide(&p->decisions, "R5", 1,
			    "One back-end card per GPU: %s has %d compute NIC position%s for %d "
			    "GPU%s, so %d card%s per server, one rail each (rail-optimized, as "
			    "%s).",
			    in->server->e.name, compute, compute == 1 ? "" : "s",
			    in->gpus_per_server, in->gpus_per_server == 1 ? "" : "s", n,
			    n == 1 ? "" : "s", rail_design(p));
		return n;
	}
	if (in->backend_gbps <= 0)
		return 1;
	feed = default_target(p);
	for (n = 1; n < most && in->backend_gbps / n > feed + NICFIT_EPS; n++)
		;
	if (n > 1)
		plan_decide(&p->decisions, "R5", 1,
			    "%g Gb/s per server is more than one slot of %s feeds (a %g G port): "
			    "%d cards of %g G, rather than one faster card its slot would cap.",
			    in->backend_gbps, in->server->e.name, feed, n, in->backend_gbps / n);
	return n;
}

/*
 * R5 with --backend-size traffic (docs/rules.md): the slowest standard
 * port speed whose goodput, on each of the server's cards, carries what
 * the step needs to hide its traffic under the compute (R9's model,
 * plan_traffic.c), but never faster than a slot can feed (slot_target,
 * the default rule's answer): a slot cannot feed more, and the stall
 * warning then says so. Without a traffic model, the default rule.
 */
static double traffic_target(struct nicfit_plan *p, int cards, double slot_target)
{
	struct nicfit_step_time t;
	double carry;
	size_t k;

	if (!p->traffic_known) {
		plan_decide(&p->decisions, "R5", 1,
			    "--backend-size traffic: this job has no step model (R9 needs a training "
			    "job or a split model, and the GPU's TFLOPS), so the card is sized by "
			    "its slot.");
		return slot_target;
	}
	nicfit_step_over(&p->step, 0, p->in.ar.latency_us, &p->in.step, &t);
	for (k = 0; k < sizeof(std_speeds) / sizeof(std_speeds[0]); k++) {
		carry = port_goodput(p, std_speeds[k]) * cards;
		if (carry * MEETS_SHARE >= t.need_gbps || std_speeds[k] >= slot_target - NICFIT_EPS)
			break;
	}
	if (k == sizeof(std_speeds) / sizeof(std_speeds[0]))
		return slot_target;
	plan_decide(&p->decisions, "R5", 1,
		    "Target: %g Gb/s per card (--backend-size traffic): %d x %g G carry %.1f Gb/s "
		    "per server%s, and the step needs %.1f Gb/s to hide its traffic under the "
		    "compute (R9).", std_speeds[k], cards, std_speeds[k], carry,
		    carry * MEETS_SHARE >= t.need_gbps ? ", the slowest standard speed that does" :
		    ", the fastest a free slot feeds, short of it", t.need_gbps);
	return std_speeds[k];
}

/*
 * R5, back-end card (docs/rules.md), with R7's choice of fabric before it
 * and R6's placement inside it: the target per card (--backend-gbps over
 * the cards, else what a free slot can feed), the card (asked for, or the
 * cheapest that meets the target), where it goes, what it moves there,
 * and what the user should know about it.
 */
void nicfit__plan_rule_backend(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_nic *forced = NULL, *builtin;
	const struct nicfit_slot *slot;
	struct nicfit_nic_fit fit;
	struct plan_choice where;
	double target;
	int cards;

	memset(&where, 0, sizeof(where));
	memset(&fit, 0, sizeof(fit));
	fit.limited_by = "ports";
	builtin = nicfit__plan_builtin_nic(cat, in->server);
	choose_fabric(p, builtin);
	if (integrated_backend(p)) {
		nicfit__plan_traffic_judge(cat, p);
		return;
	}
	cards = backend_card_count(p);
	target = in->backend_gbps > 0 ? in->backend_gbps / cards : default_target(p);
	if (in->backend_size_traffic && !(in->backend_gbps > 0))
		target = traffic_target(p, cards, target);
	p->be_target_gbps = target;
	if (in->backend_size_traffic && !(in->backend_gbps > 0) && p->traffic_known)
		plan_decide(&p->decisions, "R5", 0,
			    "Without --backend-size traffic the target would be the fastest port "
			    "speed a free slot of this PCIe Gen%d server can feed.",
			    in->server->pcie_gen);
	else if (in->backend_gbps > 0)
		plan_decide(&p->decisions, "R5", 1,
			    "Target: %g Gb/s per server as asked (%g Gb/s per card).",
			    in->backend_gbps, target);
	else
		plan_decide(&p->decisions, "R5", 1,
			    "Target: %g Gb/s per card, the fastest port speed a free slot "
			    "of this PCIe Gen%d server can feed (see R6 for the slot).",
			    target, in->server->pcie_gen);
	if (in->backend_nic)
		forced = forced_card(cat, p);
	if (builtin && nicfit__plan_rdma_ok(p, builtin->rdma)) {
		nicfit__plan_rule_builtin(p, builtin, forced);
		forced = builtin;
	}
	if (!place_card(cat, p, forced, cards, target, &where))
		return;
	slot = &in->server->slots[where.nic_slots[0]];
	nicfit__plan_copy(p->be_part, sizeof(p->be_part), p->be_nic->part);
	p->be_cards = cards;
	p->be_ports = 1;
	p->be_port_gbps = fabric_port_gbps(p);
	nicfit__plan_card_in_slot(p, &p->be_card, slot, 1, &fit);
	p->be_effective_gbps = where.per_card;
	p->be_node_gbps = where.per_card * cards;
	p->be_pcie_gbps = fit.pcie_gbps;
	p->be_limited_by = fit.limited_by;
	p->gpus_local = where.local;
	p->rails = cards > 1 && in->gpu && cards == where.ngpu_placed ? cards : 0;
	nicfit__plan_record_slots(p, &where);
	check_placement(p, forced, &where);
	describe_card(p, forced, slot, &fit, where.meets, builtin && forced == builtin);
	rule_capped(cat, p, &fit, where.meets);
	rule_backend_advice(p);
	nicfit__plan_rule_spectrum_x(p);
	rule_driver_support(p);
	nicfit__plan_describe_placement(p, &where);
	if (in->gpu)
		nicfit__plan_traffic_placed(p, where.ngpu_placed, slot->name);
	nicfit__plan_traffic_judge(cat, p);
}
