/*
 * node_kind_int.h - the networks a GPU node of a given kind is built
 * with, by default: the one place `nicfit cluster` and `nicfit plan` read
 * them from (parts/node_kind.c), so that the two commands give an
 * 8-GPU HGX/DGX node the same back end, north-south and storage. A
 * library-wide header, in core/. Internal to libnicfit.
 */
#ifndef NICFIT_NODE_KIND_INT_H
#define NICFIT_NODE_KIND_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "node_kind_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

struct nicfit_gpu;

/*
 * GPUs on one HGX/DGX baseboard: NVIDIA's baseboard nodes carry eight
 * SXM GPUs on one NVLink switch system.
 */
#define NICFIT_BASEBOARD_GPUS 8

/* What a node of one kind is built with, unless the request says otherwise. */
struct nicfit_node_kind {
	int baseboard;          /* an 8-GPU HGX/DGX baseboard node */
	int rail_optimized;     /* back end: NIC i of every node on rail i */
	int ns_links;           /* north-south (front-end, storage, in-band) ports a node */
	int ns_switches;        /* switches those ports go to, one each (2: dual-homed) */
	double ns_gbps;         /* the rate of each */
	int storage_dual_homed; /* a node's storage ports on two different switches */
	const char *source;     /* the reference design the figures come from, NULL: none */
};

/*
 * The kind of a node of gpus_per_node GPUs of gpu (NULL: none named),
 * whose back-end ports run at backend_gbps (0: not known). A baseboard
 * node is eight GPUs with no GPU named, or eight of a baseboard (SXM)
 * GPU whose NVLink domain is the node: NVIDIA's HGX and DGX reference
 * architectures give it a rail-optimized back end, two north-south ports
 * to two switches, at 200GbE (H100, H200, B200) or 400GbE where the
 * compute NICs are 800G (B300, ConnectX-8), and dual-homed storage.
 * Anything else (PCIe-card GPUs, other counts, a rack-scale GPU whose
 * domain spans trays) gets none of these: every field 0. Never fails.
 */
void nicfit_node_kind(const struct nicfit_gpu *gpu, int gpus_per_node, double backend_gbps,
		      struct nicfit_node_kind *k);

#endif
