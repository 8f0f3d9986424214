/*
 * plan_sd.c - R6 for a Socket Direct card: a main card and an auxiliary
 * card, each with its own PCIe link in a slot of its own, one per CPU
 * socket, counted together as one card (NVIDIA's manual has the pair
 * negotiate x32). Which card is one, its halves, and what the pair moves
 * in two slots; where the pair goes is the search's (plan_search.c).
 */
#include <string.h>

#include "nicfit/pcie.h"
#include "plan/plan_int.h"

/*
 * Whether a card with Socket Direct as an option (a ConnectX-8) is
 * planned over two links: when the server's fastest slot of the card's
 * width is of an older PCIe generation than the card, and the target
 * (--backend-gbps, else the card's ports) is more than one such link
 * carries after packet overhead (a Gen5 x16 link: about 412 Gb/s, so an
 * 800G ConnectX-8 needs its second x16 link from the other socket
 * through NVIDIA's auxiliary kit, as `calc nic` with two --slot values
 * computes it). The search then places the second link on another
 * socket, or says none is free (R6).
 */
static int sd_option_needed(struct nicfit_plan *p, const struct nicfit_nic *n)
{
	const struct nicfit_server *sv = p->in.server;
	struct nicfit_pcie_result r;
	double target = p->in.backend_gbps > 0 ? p->in.backend_gbps : n->ports * n->port_gbps;
	int i, gen = 0, width = n->sd_width > 0 ? n->sd_width : n->pcie_width;

	for (i = 0; i < sv->nslots; i++)
		if (sv->slots[i].width >= width && sv->slots[i].gpu != NICFIT_GPU_BASEBOARD &&
		    sv->slots[i].gen > gen)
			gen = sv->slots[i].gen;
	if (!gen || gen >= n->pcie_gen ||
	    nicfit_pcie_calc(gen, width, &p->in.pcie, &r, NULL))
		return 0;
	plan_decide(&p->decisions, "R6", 1,
		    "Socket Direct option of the %s (a PCIe Gen%d card in a Gen%d host): one Gen%d "
		    "x%d link carries %.1f Gb/s, %s the %g Gb/s target, so %s.", n->part,
		    n->pcie_gen, gen, gen, width, r.effective_gbps,
		    target > r.effective_gbps ? "less than" : "enough for", target,
		    target > r.effective_gbps ?
		    "the card is planned over two x16 links, the second from the other socket "
		    "through the auxiliary kit" : "one link is planned");
	return target > r.effective_gbps;
}

void nicfit__plan_socket_direct_asked(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_nic *n = p->in.backend_nic ?
				     nicfit_catalog_find_nic(cat, p->in.backend_nic, "--backend-nic", NULL) :
				     NULL;

	p->be_sd_nic = n && (n->socket_direct || (n->sd_option && sd_option_needed(p, n))) ?
		       n : NULL;
}

/*
 * The Socket Direct card card is, when it is the plan's back-end card
 * and --backend-nic named one (from the catalog, or decoded from its part
 * number); NULL for any other card.
 */
const struct nicfit_nic *nicfit__plan_sd_nic(const struct nicfit_plan *p,
					     const struct nicfit_card *card)
{
	if (card != &p->be_card || !p->in.backend_nic)
		return NULL;
	if (p->be_sd_nic)
		return p->be_sd_nic;
	if (p->rule_nic[0].part && p->rule_nic[0].socket_direct)
		return &p->rule_nic[0];
	return NULL;
}

/* One half of a Socket Direct card: its own PCIe link's lanes, no ceiling of its own. */
void nicfit__plan_sd_half(const struct nicfit_card *c, const struct nicfit_nic *n,
			  struct nicfit_card *half)
{
	*half = *c;
	half->pcie_width = n->sd_width > 0 ? n->sd_width : n->pcie_width;
	half->card_gbps = 0;
}

/*
 * What a Socket Direct card moves with its main card in slot a and its
 * auxiliary card in slot b (NULL: none): the ports' goodput, or the two
 * PCIe links together when they carry less (NVIDIA: two Gen3 x16 links
 * feed HDR 200Gb/s, which one cannot), or the card's own ceiling.
 */
double nicfit__plan_sd_in_slots(const struct nicfit_plan *p, const struct nicfit_card *c,
				const struct nicfit_nic *n, const struct nicfit_slot *a,
				const struct nicfit_slot *b, int ports, struct nicfit_nic_fit *out)
{
	struct nicfit_nic_fit fa, fb;
	struct nicfit_card half;
	double pcie;

	memset(&fa, 0, sizeof(fa));
	memset(&fb, 0, sizeof(fb));
	nicfit__plan_sd_half(c, n, &half);
	if (!nicfit__plan_one_slot(p, &half, a, ports, &fa) && fa.ports_gbps <= 0)
		return 0;
	pcie = fa.pcie_gbps;
	if (b) {
		if (!nicfit__plan_one_slot(p, &half, b, ports, &fb) && fb.ports_gbps <= 0)
			return 0;
		pcie += fb.pcie_gbps;
		/* the two links as one: NVIDIA's manual has the card negotiate x32 */
		fa.links += fb.links;
		fa.link_width += fb.link_width;
		fa.pcie.width += fb.pcie.width;
		fa.pcie.signal_gbps += fb.pcie.signal_gbps;
		fa.pcie.raw_gbps += fb.pcie.raw_gbps;
		fa.pcie.write_gbps += fb.pcie.write_gbps;
		fa.pcie.read_gbps += fb.pcie.read_gbps;
		fa.pcie.effective_gbps += fb.pcie.effective_gbps;
	}
	fa.pcie_gbps = pcie;
	fa.idle_gbps = 0;
	if (pcie < fa.ports_gbps) {
		fa.effective_gbps = pcie;
		fa.limited_by = "pcie";
		fa.idle_gbps = fa.ports_gbps - pcie;
	} else {
		fa.effective_gbps = fa.ports_gbps;
		fa.limited_by = "ports";
	}
	if (c->card_gbps > 0 && c->card_gbps * fa.port.efficiency < fa.effective_gbps) {
		fa.effective_gbps = c->card_gbps * fa.port.efficiency;
		fa.limited_by = "card";
		fa.idle_gbps = fa.ports_gbps - fa.effective_gbps;
	}
	fa.per_port_gbps = fa.effective_gbps / (fa.ports_used ? fa.ports_used : 1);
	if (out)
		*out = fa;
	return fa.effective_gbps;
}

/*
 * What card c moves in slot s. The plan's Socket Direct card counts the
 * auxiliary card placed with its main card in s (p->be_aux_slots, kept
 * from the search), so R5's figures for the slot are the card's.
 */
double nicfit__plan_card_in_slot(const struct nicfit_plan *p, const struct nicfit_card *c,
				 const struct nicfit_slot *s, int ports, struct nicfit_nic_fit *out)
{
	const struct nicfit_server *sv = p->in.server;
	const struct nicfit_nic *n = nicfit__plan_sd_nic(p, c);
	int i, j;

	if (!n)
		return nicfit__plan_one_slot(p, c, s, ports, out);
	i = (int)(s - sv->slots);
	for (j = 0; j < NICFIT_PLAN_MAX_CARDS; j++)
		if (p->be_slots[j] == i && i >= 0 && i < sv->nslots)
			return nicfit__plan_sd_in_slots(p, c, n, s, p->be_aux_slots[j] >= 0 ?
					   &sv->slots[p->be_aux_slots[j]] : NULL, ports, out);
	return nicfit__plan_sd_in_slots(p, c, n, s, NULL, ports, out);
}
