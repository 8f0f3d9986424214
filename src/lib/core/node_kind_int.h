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
struct nicfit_catalog;
struct nicfit_nic;
struct nicfit_port;
struct nicfit_server;
struct nicfit_switch;

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

/*
 * The back-end card's port as the link runs it (nicfit/compat.h): the
 * catalog card's cage and lanes at gbps when that is below the card's top
 * rate (a ConnectX-3 run at FDR 56); with no catalog card, a generic port
 * of that rate that takes the switch port sw's lanes. Never fails.
 */
void nicfit_node_kind_port(const struct nicfit_nic *nic, double gbps, const struct nicfit_port *sw,
			   struct nicfit_port *out);

/*
 * The back-end switch a node gets when the request names none: the one
 * `nicfit plan` (R7) and `nicfit cluster --server ID` both take.
 * A rack-scale server whose catalog rack names the switch of its
 * reference design (rack.fabric_switch: the DGX SuperPOD GB200's QM9700)
 * gets it when it runs `fabric` ("infiniband" or "ethernet") and its
 * ports meet the card; else the catalog's smallest switch of the fabric
 * that takes all `links` server links, one whose lanes meet the card's
 * directly before one that needs optics at both ends; when none takes
 * them all, the one that takes the most, for leaves and spines; between
 * equals, one with lossless (PFC/ECN) support. *split gets the card ports
 * per switch port. NULL when no catalog switch of the fabric meets the
 * card (the caller plans a generic one).
 */
const struct nicfit_switch *nicfit_node_kind_switch(const struct nicfit_catalog *cat,
						    const struct nicfit_server *sv,
						    const char *fabric, const struct nicfit_nic *nic,
						    double gbps, long links, int *split);

/*
 * Whether a built-in compute NIC ships in InfiniBand mode: an NVIDIA VPI
 * card (a DGX's or an NVL72 tray's ConnectX), whose server's back end is
 * then InfiniBand unless the request says otherwise.
 */
int nicfit_node_kind_builtin_ib(const struct nicfit_nic *builtin);

/*
 * The NVLink domains `trays` compute trays of a rack-scale server make
 * (nicfit plan and nicfit cluster both read them from here). A rack's
 * (an NVL36x2 unit's) NVLink switch trays join every tray in it, full or
 * not, so its trays are one domain as far as the GPU's domain reaches;
 * the trays fill whole racks first and the rest sit in one more rack.
 */
struct nicfit_rack_domains {
	int rack_trays;   /* trays of one full domain; 0: no domain past one tray */
	long whole;       /* full domains (whole racks or units) */
	int partial;      /* trays of the last, partial domain; 0: none */
	int largest_gpus; /* GPUs of the largest domain; 0: no more than one tray */
	int partial_gpus; /* GPUs of the partial domain */
	int group_trays;  /* trays of the groups a job lays out alike in every domain */
};

/*
 * Fill d for `trays` trays of server sv with gpus_per_tray GPUs of gpu
 * each. No domain (every field 0, group_trays 1) for a server that is not
 * rack-scale or a GPU whose NVLink domain is one tray or does not divide
 * into trays; one tray alone sets only rack_trays, whole and partial
 * (largest_gpus 0: a tray is no multi-tray domain). group_trays: all the trays while
 * they fit one rack (9 trays: 9), else the largest tray count dividing
 * every domain, gcd(rack, trays) (27 trays of 18: 9). Never fails.
 */
void nicfit_rack_domains(const struct nicfit_server *sv, const struct nicfit_gpu *gpu,
			 int gpus_per_tray, long trays, struct nicfit_rack_domains *d);

#endif
