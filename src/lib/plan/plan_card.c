/*
 * plan_card.c - a catalog NIC as the planner's rules see it: the card
 * model perf.h computes with, and whether its RDMA kinds run the plan's
 * fabric. The back-end choice (plan_backend.c), the job's traffic
 * (plan_traffic.c) and the storage NICs (plan_storage.c) all ask; it
 * chooses nothing itself.
 */
#include <string.h>

#include "plan/plan_int.h"

/* A catalog NIC as the card model perf.h computes with. */
void nicfit__plan_fill_card(struct nicfit_card *c, const struct nicfit_nic *n)
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

/* Can a card of these RDMA kinds run the plan's fabric? */
int nicfit__plan_rdma_ok(const struct nicfit_plan *p, unsigned rdma)
{
	if (p->fabric == NICFIT_FABRIC_IB)
		return (rdma & NICFIT_RDMA_IB) != 0;
	return (rdma & NICFIT_RDMA_ROCE) != 0;
}
