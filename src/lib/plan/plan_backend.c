/*
 * plan_backend.c - R5: the back-end card (an RDMA card, the speed a free
 * slot can feed, the cheapest sourced card that meets it, or the card
 * asked for) and the checks on it. Where it goes is R6 (plan_place.c),
 * the fabric and cables R7-R8 (plan_parts.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nicfit/calc.h"
#include "plan_int.h"

/* ---- R5: the back-end card ---------------------------------------------- */

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
					  struct plan_choice *where)
{
	const struct nicfit_nic *best = NULL, *fallback = NULL;
	struct plan_choice c, fb_c;
	double need = port_goodput(p, target) * 0.98, fb_eff = 0;
	size_t i;

	memset(&fb_c, 0, sizeof(fb_c));
	for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_NIC); i++) {
		const struct nicfit_nic *n = nicfit_catalog_nic(cat, i);
		struct nicfit_card card;

		if (!rdma_ok(p, n->rdma) || n->socket_direct)
			continue;
		fill_card(&card, n);
		if (!nicfit__plan_search_place(p, &card, n->form_factor, ncards, need, &c))
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

void nicfit__plan_rule_backend(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_nic *forced = NULL;
	struct nicfit_finding *f;
	struct nicfit_nic_fit fit;
	struct plan_choice where;
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
		nicfit__decide(&p->decisions, "R5", 1,
			       "Target: %g Gb/s per server as asked (%g Gb/s per card).",
			       in->backend_gbps, target);
	else
		nicfit__decide(&p->decisions, "R5", 1,
			       "Target: %g Gb/s per card, the fastest port speed a free slot "
			       "of this PCIe Gen%d server can feed (see R6 for the slot).",
			       target, in->server->pcie_gen);

	if (in->backend_nic) {
		nicfit_error_clear(&err);
		forced = nicfit__plan_whatif_card(cat, p, 0, in->backend_nic, "--backend-nic", &err);
		if (!forced) {
			nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_BACKEND_NIC_UNKNOWN,
					  "give a catalog NIC id (nicfit catalog list nics) or add the card with --catalog",
					  "%s", err.msg);
		} else if (!forced->rdma) {
			nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_BACKEND_NO_RDMA,
					  "use an RDMA card (ConnectX, or Intel E810 for RoCE/iWARP) for the back "
					  "end; keep the Intel card as the front end",
					  "%s (%s) has no RDMA (no RoCE, no InfiniBand): GPU-to-GPU traffic between "
					  "servers needs RDMA, and NCCL would fall back to TCP sockets through the CPU. "
					  "Refused as the back-end card.", forced->part, forced->e.name);
			nicfit__decide(&p->decisions, "R5", 1,
				       "%s refused: no RDMA. Choosing an RDMA card instead.",
				       forced->part);
			forced = NULL;
		} else if (p->fabric == NICFIT_FABRIC_IB && !(forced->rdma & NICFIT_RDMA_IB)) {
			nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_BACKEND_NOT_INFINIBAND,
					  "use a VPI or InfiniBand card (e.g. MCX556A-ECAT) or --fabric roce",
					  "%s has no InfiniBand ports, but the fabric is InfiniBand.", forced->part);
			forced = NULL;
		}
	}
	if (forced) {
		fill_card(&p->be_card, forced);
		if (!nicfit__plan_search_place(p, &p->be_card, forced->form_factor, cards, 0, &where)) {
			nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_NO_SLOT,
					  "a server with a free slot of the card's width",
					  "%s has no free slot for %s (PCIe x%d).", in->server->e.name,
					  forced->part, forced->pcie_width);
			return;
		}
		p->be_nic = forced;
	} else {
		p->be_nic = pick_card(cat, p, target, cards, &where);
		if (!p->be_nic) {
			nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_NO_BACKEND_CARD,
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
	nicfit__plan_card_in_slot(p, &p->be_card, &in->server->slots[where.nic_slots[0]], 1, &fit);
	p->be_effective_gbps = where.per_card;
	p->be_node_gbps = where.per_card * cards;
	p->be_pcie_gbps = fit.pcie_gbps;
	p->be_limited_by = fit.limited_by;
	p->gpus_local = where.local;
	nicfit__plan_record_slots(p, &where);
	if (forced && in->installed_cards && in->installed_slot &&
	    strcmp(in->installed_slot, in->server->slots[where.nic_slots[0]].name))
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_MOVE_INSTALLED_CARD,
				  "move the card; its link, cables and configuration stay the same",
				  "The installed %s sits in slot %s; the plan puts it in slot %s (%s).", p->be_part,
				  in->installed_slot, in->server->slots[where.nic_slots[0]].name,
				  where.local ? "on the GPUs' socket" : "the better slot for it");
	if (in->gpu && where.ngpu_placed < in->gpus_per_server)
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_NO_SLOT_FOR_GPUS,
				  "fewer GPUs per server, single-width GPUs, or a server with more x16 slots",
				  "%d x %s and the back-end card do not fit %s together: with the card in slot %s "
				  "there is room for %d GPU%s, not %d.", in->gpus_per_server, in->gpu->e.name,
				  in->server->e.name, in->server->slots[where.nic_slots[0]].name,
				  where.ngpu_placed, where.ngpu_placed == 1 ? "" : "s", in->gpus_per_server);

	nicfit__decide(&p->decisions, "R5", 1,
		       "%s %s (%s): %d x %g Gb/s %s, PCIe Gen%d x%d, RDMA: %s%s%s%s.",
		       p->be_nic->part, p->be_nic->e.name, p->be_nic->family, p->be_nic->ports,
		       p->be_nic->port_gbps, p->be_nic->cage, p->be_nic->pcie_gen, p->be_nic->pcie_width,
		       p->be_nic->rdma & NICFIT_RDMA_IB ? "InfiniBand " : "",
		       p->be_nic->rdma & NICFIT_RDMA_ROCE ? "RoCE v2" : "",
		       forced ? " - as asked" : p->be_nic->e.priced ? " - the cheapest sourced card that meets the target" : "",
		       forced || !p->be_nic->e.priced ? "" : "");
	if (!forced && p->be_nic->e.priced)
		nicfit__decide(&p->decisions, "R5", 1,
			       "Price: %.2f USD (%s, as of %s).", p->be_nic->e.price_usd,
			       p->be_nic->e.price_source ? p->be_nic->e.price_source : "catalog",
			       p->be_nic->e.prices_as_of ? p->be_nic->e.prices_as_of : "?");
	nicfit__decide(&p->decisions, "R5", 1,
		       "In its slot the link trains at PCIe Gen%d x%d = %.1f Gb/s raw, "
		       "%.1f Gb/s usable each way; one %g G port carries %.1f Gb/s of %s payload -> "
		       "%.1f Gb/s per card, limited by the %s.",
		       fit.link_gen, fit.link_width, fit.pcie.raw_gbps, fit.pcie_gbps, p->be_port_gbps,
		       fit.port.goodput_gbps, p->fabric == NICFIT_FABRIC_IB && p->be_card.ib_rate ?
		       "InfiniBand" : "RoCE v2", fit.effective_gbps,
		       !strcmp(fit.limited_by, "pcie") ? "PCIe slot" :
		       !strcmp(fit.limited_by, "card") ? "card's own total" : "port");
	if (p->be_nic->ports > 1) {
		double both = nicfit__plan_card_in_slot(p, &p->be_card, &in->server->slots[where.nic_slots[0]],
					   p->be_nic->ports, NULL);

		nicfit__decide(&p->decisions, "R5", 1,
			       "All %d ports share one PCIe link: together they move %.1f Gb/s, "
			       "so the %s.", p->be_nic->ports, both,
			       both > fit.effective_gbps * 1.5 ? "other ports add bandwidth" :
			       "other ports add redundancy (or a second network), not bandwidth: the slot "
			       "is the limit");
	}

	if (!strcmp(fit.limited_by, "pcie") && fit.idle_gbps > 1) {
		/* name the cheaper card that gives the same speed */
		struct plan_choice alt_where;
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
			if (!nicfit__plan_search_place(p, &c, n->form_factor, cards, fit.effective_gbps * 0.95, &alt_where) ||
			    !alt_where.meets)
				continue;
			if (!alt || n->e.price_usd < alt->e.price_usd)
				alt = n;
		}
		if (alt)
			snprintf(b, sizeof(b), "%s", alt->part);
		f = nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_BACKEND_CAPPED,
				      alt ? NULL : "a faster slot (PCIe Gen4 x16 feeds 200G), or a card of the speed the slot can feed",
				  "%s is capped by its slot: %g Gb/s of port, but PCIe Gen%d x%d feeds only %.1f "
				  "Gb/s (effective_gbps %.1f), so %.0f Gb/s of the port sits idle.",
				  p->be_part, p->be_port_gbps, fit.link_gen, fit.link_width, fit.pcie_gbps,
				  fit.effective_gbps, fit.idle_gbps);
		if (f && alt && p->be_nic->e.priced)
			nicfit__finding_fix(&p->findings, f, "%s (%s, %.2f USD) gives the same speed "
					    "in this slot for %.2f USD less per card", alt->part,
					    alt->e.name, alt->e.price_usd,
					    p->be_nic->e.price_usd - alt->e.price_usd);
		else if (f && alt)
			nicfit__finding_fix(&p->findings, f, "%s (%s, %.2f USD) gives the same speed "
					    "in this slot", alt->part, alt->e.name, alt->e.price_usd);
	}
	if (!strcmp(p->be_nic->vendor, "Intel") && (p->be_nic->rdma & (NICFIT_RDMA_ROCE | NICFIT_RDMA_IWARP)))
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_IRDMA_GPUDIRECT,
				  "check that NCCL's log says 'GPU Direct RDMA Enabled' on a test run; ConnectX "
				  "cards are NCCL's reference for GPUDirect RDMA",
				  "%s does RDMA through the kernel's irdma driver: GPUDirect RDMA then depends on "
				  "DMA-BUF (a recent kernel, NVIDIA open driver and NCCL), not on nvidia_peermem.",
				  p->be_part);
	if (in->backend_gbps > 0 && p->be_node_gbps < port_goodput(p, in->backend_gbps) * 0.98)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_BACKEND_BELOW_TARGET,
				  "a faster slot or more cards per server (--backend-cards)",
				  "The back end reaches %.1f Gb/s per server, below the %g Gb/s asked.",
				  p->be_node_gbps, in->backend_gbps);
	if (p->be_node_gbps < 196 && in->workload != NICFIT_WL_RDMA_STORAGE && in->servers > 1)
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_BELOW_200G_GUIDANCE,
				  in->server->pcie_gen <= 3 ?
				  "in a PCIe Gen3 server 200 Gb/s per node takes two 100G cards in two x16 slots "
				  "(--backend-cards 2); otherwise a Gen4 server with a 200G card" :
				  "a 200G card (or two 100G cards) per node",
				  "NVIDIA's sizing guidance for certified multi-node systems starts at 200 Gb/s per "
				  "node; this plan gives %.1f Gb/s per node%s.", p->be_node_gbps,
				  in->server->pcie_gen <= 3 ? ", and one PCIe Gen3 x16 slot cannot feed 200G" : "");
	nicfit__plan_describe_placement(p, &where);
}
