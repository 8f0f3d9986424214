/*
 * perf.c - a card in a slot, a file over a link, a ring all-reduce
 * (see nicfit/perf.h).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "nicfit/perf.h"

int nicfit_calc_nic(const struct nicfit_card *card, int slot_gen, int slot_width,
		    int ports_used, enum nicfit_proto proto,
		    const struct nicfit_pcie_params *pp,
		    const struct nicfit_link_params *lp,
		    struct nicfit_nic_fit *r, struct nicfit_error *err)
{
	struct nicfit_speed sp;
	int rc;

	memset(r, 0, sizeof(*r));
	if (card->ports < 1 || card->port_gbps <= 0 || card->pcie_gen < 1 ||
	    card->pcie_width < 1)
		return nicfit_error_set(err, NICFIT_E_DATA,
					"the card's ports, speed or PCIe interface are unknown");
	if (ports_used < 0 || ports_used > card->ports)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"--ports %d: the card has %d port%s", ports_used,
					card->ports, card->ports == 1 ? "" : "s");
	r->ports_used = ports_used ? ports_used : card->ports;
	r->links = card->pcie_links > 1 ? card->pcie_links : 1;
	r->link_gen = card->pcie_gen < slot_gen ? card->pcie_gen : slot_gen;
	r->link_width = (card->pcie_width < slot_width ? card->pcie_width : slot_width) * r->links;
	rc = nicfit_pcie_calc(r->link_gen, r->link_width, pp, &r->pcie, err);
	if (rc)
		return rc;
	if (proto == NICFIT_PROTO_IB) {
		if (!card->ib_rate || nicfit_ib_rate(card->ib_rate, &sp))
			return nicfit_error_set(err, NICFIT_E_USAGE,
						"this card has no InfiniBand ports (use --proto roce or tcp)");
	} else {
		memset(&sp, 0, sizeof(sp));
		sp.gbps = card->port_gbps;
		sp.kind = NICFIT_SPEED_ETH;
	}
	rc = nicfit_link_calc(&sp, proto, lp, &r->port, err);
	if (rc)
		return rc;
	r->ports_gbps = r->ports_used * r->port.goodput_gbps;
	r->pcie_gbps = r->pcie.effective_gbps;
	if (r->pcie_gbps < r->ports_gbps) {
		r->effective_gbps = r->pcie_gbps;
		r->limited_by = "pcie";
		r->idle_gbps = r->ports_gbps - r->pcie_gbps;
	} else {
		r->effective_gbps = r->ports_gbps;
		r->limited_by = "ports";
	}
	/* a card whose own engine moves less than its ports (same goodput share) */
	if (card->card_gbps > 0 &&
	    card->card_gbps * r->port.efficiency < r->effective_gbps) {
		r->effective_gbps = card->card_gbps * r->port.efficiency;
		r->limited_by = "card";
		r->idle_gbps = r->ports_gbps - r->effective_gbps;
	}
	r->per_port_gbps = r->effective_gbps / r->ports_used;
	return 0;
}

int nicfit_calc_load(double bytes, const struct nicfit_speed *link,
		     enum nicfit_proto proto, double storage_gbps,
		     const struct nicfit_link_params *lp, struct nicfit_load *r,
		     struct nicfit_error *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	if (!(bytes > 0))
		return nicfit_error_set(err, NICFIT_E_USAGE, "size must be above 0");
	if (storage_gbps < 0)
		return nicfit_error_set(err, NICFIT_E_USAGE, "storage rate must not be negative");
	rc = nicfit_link_calc(link, proto, lp, &r->link, err);
	if (rc)
		return rc;
	r->network_gbps = r->link.goodput_gbps;
	r->storage_gbps = storage_gbps;
	if (storage_gbps > 0 && storage_gbps < r->network_gbps) {
		r->rate_gbps = storage_gbps;
		r->bottleneck = "storage";
	} else {
		r->rate_gbps = r->network_gbps;
		r->bottleneck = "network";
	}
	r->seconds = bytes * 8 / (r->rate_gbps * 1e9);
	return 0;
}

#define A(f) offsetof(struct nicfit_allreduce_params, f)

const struct nicfit_param nicfit_allreduce_param_table[] = {
	{ "latency_us", A(latency_us), 10, 0, 10000, "us",
	  "latency of one network step of a collective (hop plus the collective library's protocol, NCCL's or RCCL's)",
	  "NCCL src/graph/tuning.cc models 9.6 us per network step of a ring (Simple protocol); only matters for small messages" },
};

const size_t nicfit_allreduce_param_count =
	sizeof(nicfit_allreduce_param_table) / sizeof(nicfit_allreduce_param_table[0]);

void nicfit_allreduce_params_default(struct nicfit_allreduce_params *p)
{
	memset(p, 0, sizeof(*p));
	nicfit_param_defaults(nicfit_allreduce_param_table,
			      nicfit_allreduce_param_count, p);
}

/*
 * NCCL's tree all-reduce moves the buffer up and down a tree (algorithm
 * bandwidth half the bus bandwidth) and its model caps the tree's bus
 * bandwidth at 0.9 of the links' (src/graph/tuning.cc: "busBw*.9",
 * "ratio = .5"); a SHARP (CollNet) all-reduce sends and receives the
 * buffer once, at the same 0.9.
 */
#define TREE_BUS_SHARE 0.9
#define TREE_ALG_RATIO 0.5

static void choose_algorithm(struct nicfit_allreduce *r, double bytes, int nodes,
			     const struct nicfit_allreduce_params *ap)
{
	double lat = ap->latency_us * 1e-6, rate = r->node_gbps * 1e9 / 8;
	double tree_lat = 2.0 * ceil(log2((double)nodes)) * lat;

	r->ring_latency_s = 2.0 * (nodes - 1) * lat;
	r->tree_latency_s = tree_lat;
	r->ring_s = r->bytes_per_node / rate + r->ring_latency_s;
	r->tree_s = bytes / (rate * TREE_BUS_SHARE * TREE_ALG_RATIO) + tree_lat;
	r->sharp_s = ap->in_network ? bytes / (rate * TREE_BUS_SHARE) + 2 * lat : 0;
	r->algorithm = "ring";
	r->seconds = r->ring_s;
	r->latency_s = r->ring_latency_s;
	if (r->tree_s < r->seconds) {
		r->algorithm = "tree";
		r->seconds = r->tree_s;
		r->latency_s = tree_lat;
	}
	if (ap->in_network && r->sharp_s < r->seconds) {
		r->algorithm = "sharp";
		r->seconds = r->sharp_s;
		r->latency_s = 2 * lat;
	}
}

/* The algorithm and its times for r->node_gbps of goodput per node. */
static void pick(double bytes, int nodes, const struct nicfit_allreduce_params *ap,
		 struct nicfit_allreduce *r)
{
	r->nodes = nodes;
	r->factor = 2.0 * (nodes - 1) / nodes;
	r->bytes_per_node = r->factor * bytes;
	choose_algorithm(r, bytes, nodes, ap);
	r->algbw_gbps = bytes * 8 / r->seconds / 1e9;
	r->busbw_gbps = r->algbw_gbps * r->factor;
}

int nicfit_calc_allreduce(double bytes, int nodes, int nics_per_node,
			  const struct nicfit_speed *link, enum nicfit_proto proto,
			  double node_cap_gbps,
			  const struct nicfit_link_params *lp,
			  const struct nicfit_allreduce_params *ap,
			  struct nicfit_allreduce *r, struct nicfit_error *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	if (!(bytes > 0))
		return nicfit_error_set(err, NICFIT_E_USAGE, "size must be above 0");
	if (nodes < 2)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"an all-reduce across the network needs at least 2 nodes");
	if (nics_per_node < 1)
		return nicfit_error_set(err, NICFIT_E_USAGE, "nics per node must be at least 1");
	rc = nicfit_link_calc(link, proto, lp, &r->link, err);
	if (rc)
		return rc;
	r->nics_per_node = nics_per_node;
	r->node_gbps = r->link.goodput_gbps * nics_per_node;
	if (node_cap_gbps > 0 && node_cap_gbps < r->node_gbps)
		r->node_gbps = node_cap_gbps;
	pick(bytes, nodes, ap, r);
	return 0;
}

void nicfit_allreduce_pick(double bytes, int nodes, double node_gbps,
			   const struct nicfit_allreduce_params *ap, struct nicfit_allreduce *r)
{
	memset(r, 0, sizeof(*r));
	r->node_gbps = node_gbps;
	pick(bytes, nodes, ap, r);
}
