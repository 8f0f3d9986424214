/*
 * nicfit/perf.h - estimates built on the PCIe and link models: a network
 * card in a slot, a file loaded over a link, and a ring all-reduce.
 *
 * These are the formulas `nicfit plan` uses; `nicfit calc nic|load|allreduce`
 * shows them on their own. All rates are Gb/s, sizes bytes, times seconds.
 */
#ifndef NICFIT_PERF_H
#define NICFIT_PERF_H

#include "nicfit/error.h"
#include "nicfit/link.h"
#include "nicfit/pcie.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A card: its host interface and its ports. */
struct nicfit_card {
	int pcie_gen;       /* generation the card supports */
	int pcie_width;     /* lanes of its edge connector */
	int ports;          /* network ports on the card */
	double port_gbps;   /* nominal Ethernet rate of one port */
	const char *ib_rate;/* fastest InfiniBand rate, NULL when none */
	unsigned rdma;      /* NICFIT_RDMA_* bits (catalog.h); 0 = no RDMA */
	double card_gbps;   /* the most all ports move together; 0 = their sum */
	int vpi;            /* ports switch between InfiniBand and Ethernet */
	/*
	 * PCIe links the card's lanes come in: 2 on a Socket Direct card (a
	 * main and an auxiliary card, one per CPU socket), whose pcie_width
	 * is then each link's; 0 or 1 for one link.
	 */
	int pcie_links;
};

/*
 * The card in a slot of generation slot_gen and slot_width lanes; a card
 * of several PCIe links (Socket Direct) has each link in such a slot, and
 * its links count together, as one link of their lanes (NVIDIA's manual
 * has the card negotiate x32), which is how decode and plan count them.
 */
struct nicfit_nic_fit {
	int link_gen, link_width;   /* the link they train to: the lesser of each (all links) */
	int links;                  /* PCIe links counted: the card's pcie_links, at least 1 */
	int ports_used;
	struct nicfit_link_result port; /* one port's goodput */
	double ports_gbps;          /* ports_used x one port's goodput */
	struct nicfit_pcie_result pcie; /* all links together */
	double pcie_gbps;           /* pcie.effective_gbps */
	double effective_gbps;      /* min(ports_gbps, pcie_gbps) */
	double per_port_gbps;       /* effective / ports_used */
	const char *limited_by;     /* "pcie", "ports" or "card" (its own ceiling) */
	double idle_gbps;           /* port capacity the slot cannot feed */
};

/*
 * ports_used 0 means all of the card's ports. proto chooses the goodput
 * formula; for NICFIT_PROTO_IB the card's ib_rate is used (a usage error
 * when it has none).
 */
int nicfit_calc_nic(const struct nicfit_card *card, int slot_gen, int slot_width,
		    int ports_used, enum nicfit_proto proto,
		    const struct nicfit_pcie_params *pp,
		    const struct nicfit_link_params *lp,
		    struct nicfit_nic_fit *r, struct nicfit_error *err);

/* Loading a file (model weights) over a link. */
struct nicfit_load {
	struct nicfit_link_result link;
	double network_gbps;     /* link goodput x streams limit (one link) */
	double storage_gbps;     /* storage read rate, 0 = not limiting */
	double rate_gbps;        /* the lesser */
	double seconds;
	const char *bottleneck;  /* "network" or "storage" */
};

/* storage_gbps 0 means the storage keeps up. */
int nicfit_calc_load(double bytes, const struct nicfit_speed *link,
		     enum nicfit_proto proto, double storage_gbps,
		     const struct nicfit_link_params *lp, struct nicfit_load *r,
		     struct nicfit_error *err);

struct nicfit_allreduce_params {
	double latency_us;   /* per-step latency of one ring hop */
	/*
	 * Not an --assume: 1 when the fabric reduces in the network (SHARP on
	 * InfiniBand Quantum switches through NCCL's CollNet plugin), which
	 * adds that algorithm to the choice. Defaults leave it 0.
	 */
	int in_network;
};

extern const struct nicfit_param nicfit_allreduce_param_table[];
extern const size_t nicfit_allreduce_param_count;
void nicfit_allreduce_params_default(struct nicfit_allreduce_params *p);

/*
 * An all-reduce of `bytes` across `nodes` nodes, by the algorithm NCCL's
 * tuning model would pick (src/graph/tuning.cc: each algorithm's time is
 * a latency plus bytes over its bandwidth, the least wins): a ring (2(n-1)
 * network steps, 2(n-1)/n of the buffer per node), a tree (2 log2(n)
 * steps, the buffer up and down at 0.9 x 0.5 of the bus rate), or, where
 * the fabric reduces in the network, SHARP (each node sends and receives
 * the buffer once, 2 steps).
 */
struct nicfit_allreduce {
	const char *algorithm; /* "ring", "tree" or "sharp" */
	double ring_s, tree_s; /* each algorithm's time */
	double sharp_s;        /* 0 when the fabric has no in-network reduction */
	double latency_s;      /* the chosen algorithm's latency term */
	double ring_latency_s; /* the ring's, which small messages are dominated by */
	double tree_latency_s; /* the tree's: 2 log2(n) network steps */
	int nodes;
	int nics_per_node;
	struct nicfit_link_result link;
	double node_gbps;      /* per-node network goodput (nics x link) */
	double factor;         /* 2(n-1)/n */
	double bytes_per_node; /* factor x bytes: what each node sends */
	double seconds;        /* the chosen algorithm's time */
	double algbw_gbps;     /* bytes / seconds */
	double busbw_gbps;     /* algbw x factor (nccl-tests' definition) */
};

/*
 * node_cap_gbps, when above 0, caps the per-node rate (e.g. the PCIe path
 * of the NICs). nodes >= 2.
 */
int nicfit_calc_allreduce(double bytes, int nodes, int nics_per_node,
			  const struct nicfit_speed *link, enum nicfit_proto proto,
			  double node_cap_gbps,
			  const struct nicfit_link_params *lp,
			  const struct nicfit_allreduce_params *ap,
			  struct nicfit_allreduce *r, struct nicfit_error *err);

/*
 * The same choice for nodes >= 2 moving node_gbps of goodput each, when
 * the caller already knows the rate (the step model times each kind of
 * traffic at the rate of the network it compares); fills every field but
 * link and nics_per_node. node_gbps must be above 0.
 */
void nicfit_allreduce_pick(double bytes, int nodes, double node_gbps,
			   const struct nicfit_allreduce_params *ap, struct nicfit_allreduce *r);

#ifdef __cplusplus
}
#endif

#endif
