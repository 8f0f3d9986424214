/*
 * nicfit/cluster.h - the networks of N GPU servers: switches per tier,
 * links, cables by type and length, a bill of materials, and a port map.
 *
 * A cluster has up to three networks, sized the same way:
 *
 *   back end   the RDMA fabric (RoCE or InfiniBand) between GPUs: K NIC
 *              ports per node, one, two or three tiers (leaf, spine,
 *              core), optionally rail-optimized (NIC i of every node on
 *              rail i) and split into P independent planes;
 *   front end  one or two links per node to leaf switches that serve
 *              whole racks (two links go to two different switches);
 *   OOB        the 1GbE management network: every node's BMC port and
 *              every other switch's management port.
 *
 * Sizing fills ports instead of over-provisioning them: leaves take as
 * many node ports as the oversubscription ratio allows, uplinks are sized
 * for the ports a leaf really uses, spines are shared by all the leaves
 * (and all the rails) of a plane, and a third tier of pods and cores is
 * added only past the two-tier limit (R^2/2 endpoints for radix R at 1:1;
 * R^3/4 for three). A switch port faster than the node ports is split
 * (one 100G port to four 25G nodes) when the switch supports the split.
 *
 * Cables come from a physical layout with named, overridable assumptions
 * (rack height, metres per U, rack and row pitch, slack): DAC inside a
 * rack, AOC or a pair of optics and fibre between racks, chosen from the
 * catalog by rate, cage and reach. Items without a catalog price are
 * never priced; the BOM lists them as unpriced.
 *
 * The result keeps counts and small per-group tables only; the port map
 * (one row per link, hundreds of thousands for 100,000 GPUs) is produced
 * on demand by walking the design, so memory stays linear in the number
 * of switches and racks, not links.
 *
 * This is the pure core: nothing here prints. nicfit_cluster_run() is the
 * whole request (spec in, rendered document out) for the CLI and the web
 * API; plan calls nicfit_cluster_size() directly for its switch and cable
 * lines.
 *
 * The result: the caller owns the struct nicfit_cluster (on the stack or
 * its own allocation); nicfit_cluster_size() fills it and allocates what
 * it holds (cable lines, BOM, findings, decisions, the design tables the
 * walk reads), and nicfit_cluster_release() frees that, leaving the struct
 * zeroed and ready to be sized again. Pointers into the result (c->cables,
 * c->findings.v[i].message, the cable labels a walk passes to its
 * callback) live until the release; the strings of the input (in.nic_id,
 * switch ids) are the caller's and must outlive the result. The result is
 * read-only once sized: several walks and renders may read it at once.
 *
 *	struct nicfit_cluster c;
 *
 *	if (nicfit_cluster_size(&in, cat, &c, &err))
 *		return err.code;
 *	for (i = 0; i < c.findings.n; i++)
 *		... c.findings.v[i].severity, .code, .message ...
 *	nicfit_cluster_release(&c);
 */
#ifndef NICFIT_CLUSTER_H
#define NICFIT_CLUSTER_H

#include <stddef.h>

#include "nicfit/catalog.h"
#include "nicfit/compat.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "nicfit/finding.h"
#include "nicfit/param.h"
#include "nicfit/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Hard limits on a request (checked by nicfit_cluster_size). They are
 * sanity bounds, not design rules: far above what is built, low enough
 * that the sizing's arithmetic stays in range.
 */
#define NICFIT_CLUSTER_MAX_NODES 1000000L
#define NICFIT_CLUSTER_MAX_RACKS 1000   /* --racks of a rack-scale server */
#define NICFIT_CLUSTER_MAX_LINKS 64      /* links per node on one network */
#define NICFIT_CLUSTER_MAX_PLANES 16
#define NICFIT_CLUSTER_MAX_RADIX 1024
#define NICFIT_CLUSTER_MAX_NODES_PER_RACK 256
#define NICFIT_CLUSTER_MAX_GPUS 64       /* per node */
#define NICFIT_CLUSTER_MAX_NIC_PORTS 8   /* cabled ports per NIC */
#define NICFIT_CLUSTER_MAX_GBPS 3200     /* link and switch port rates, twice a 1.6T port */
#define NICFIT_CLUSTER_MAX_OVERSUB 64    /* leaf oversubscription X:1 */
/*
 * The least leaf down:up ratio, 1:2: twice the uplink bandwidth of the
 * node ports. Below 1 a leaf is undersubscribed (AMD's MI3XX cluster
 * design recommends 1:1.16, about 0.86:1); a leaf below 1:2 would give
 * more than twice its node bandwidth to uplinks, more likely a ratio
 * written the wrong way round than a design.
 */
#define NICFIT_CLUSTER_MIN_OVERSUB 0.5
/* Rows of a port map that nicfit_cluster_run() puts inline in JSON. */
#define NICFIT_CLUSTER_INLINE_ROWS 50000L

enum nicfit_net {
	NICFIT_NET_BACKEND,
	NICFIT_NET_FRONTEND,
	NICFIT_NET_OOB,
	NICFIT_NET_COUNT
};
/* "backend", "frontend", "oob" */
const char *nicfit_net_name(enum nicfit_net n);

enum nicfit_tier { NICFIT_TIER_LEAF, NICFIT_TIER_SPINE, NICFIT_TIER_CORE, NICFIT_TIER_COUNT };
/* "leaf", "spine", "core" */
const char *nicfit_tier_name(enum nicfit_tier t);

/* What a link joins. */
enum nicfit_link_level {
	NICFIT_LINK_HOST,       /* node port - leaf (BMC - leaf on the OOB network) */
	NICFIT_LINK_LEAF_SPINE,
	NICFIT_LINK_SPINE_CORE,
	NICFIT_LINK_MGMT,       /* a switch's management port - OOB leaf */
	NICFIT_LINK_LEVELS
};
/* "host-leaf", "leaf-spine", "spine-core", "mgmt" */
const char *nicfit_link_level_name(enum nicfit_link_level l);

/*
 * Physical layout assumptions, all overridable by name (--assume
 * rack_pitch_m=0.8). Cable length between two ports =
 * (routed distance) x (1 + slack_frac) + slack_m, where the routed
 * distance is the vertical run inside one rack, or for two racks: up each
 * rack to the overhead tray (tray_m each end) plus the horizontal
 * Manhattan distance along and across rows.
 */
struct nicfit_cluster_layout {
	double rack_u;          /* usable height of a rack, U */
	double u_m;             /* metres per rack unit */
	double node_u;          /* height of one server, U */
	double rack_pitch_m;    /* centre to centre of neighbouring racks */
	double row_pitch_m;     /* centre to centre of neighbouring rows */
	double racks_per_row;   /* compute racks in one row */
	double switches_per_rack; /* most switches in one network rack; rack_u may allow fewer */
	double tor_span;        /* a leaf of at most this many racks sits on one with room */
	double tray_m;          /* rack top to overhead tray, each end */
	double slack_m;         /* fixed slack per cable */
	double slack_frac;      /* extra share of the routed length */
	double storage_u;       /* height of one storage server, U */
};

extern const struct nicfit_param nicfit_cluster_layout_table[];
extern const size_t nicfit_cluster_layout_count;
void nicfit_cluster_layout_default(struct nicfit_cluster_layout *l);

/* What one network is asked to be. */
struct nicfit_cluster_net_input {
	int links_per_node;      /* 0: no such network. Back end: set by nicfit_cluster_size()
				  * to nics_per_node x nic_ports (give nics_per_node 0 for none) */
	double link_gbps;        /* rate of each node port; 0: the NIC's (back end), else the
				  * catalog switch's, else 400 / 25 / 1 Gb/s */
	/*
	 * Back end: the InfiniBand rate link_gbps was given as ("HDR"; ""
	 * for a figure), and its lanes (HDR 4 x 50G). A named rate is that
	 * port type, whatever the switch: HDR is 4 x 50G in QSFP56, never the
	 * NDR200 (2 x 100G) that a bare 200 is on an NDR switch.
	 */
	char link_ib[8];
	int link_ib_lanes;
	double link_ib_lane_gbps;
	const char *switch_id;   /* catalog switch id, or NULL for a generic switch */
	int radix;               /* generic switch: ports (ignored with switch_id) */
	double switch_gbps;      /* generic switch: port rate; 0 = link_gbps */
	double oversubscription; /* leaf down:up bandwidth limit, MIN_OVERSUB..MAX_OVERSUB;
				  * below 1 undersubscribed (more up than down) */
	int uplinks;             /* fixed uplinks per leaf (OOB); 0 = from oversubscription */
	int rail_optimized;      /* link i of every node on rail i (its own leaves), spines shared */
	int rail_only;           /* rail-optimized with no spines: one switch per rail (PXN) */
	int planes;              /* independent fabrics sharing the links; divides links_per_node */
	int min_tiers;           /* 1..3: use at least this many tiers; 0 = as few as fit */
	int breakout;            /* split faster switch ports across node ports (default 1) */
};

/*
 * The storage network, sized as a fabric of its own (the DGX SuperPOD
 * reference architectures keep a storage fabric apart from the compute
 * fabric): every compute node and every storage server on leaves, spines
 * above them when one switch does not take every port. node_gbps 0: none.
 */
struct nicfit_cluster_storage_input {
	double node_gbps;        /* storage bandwidth each compute node needs, Gb/s */
	long servers;            /* storage servers, 1..NICFIT_CLUSTER_MAX_NODES */
	double link_gbps;        /* rate of every storage port; 0: the catalog switch's, else 200 */
	const char *switch_id;   /* catalog switch id, or NULL for a generic switch */
	int radix;               /* generic switch: ports */
	double oversubscription; /* leaf down:up bandwidth limit, MIN_OVERSUB..MAX_OVERSUB */
	int dual_homed;          /* a compute node's ports on two different leaves (at least two
				  * ports a node, so two tiers) */
};

struct nicfit_cluster_input {
	long nodes;              /* servers, 1..NICFIT_CLUSTER_MAX_NODES */
	int gpus_per_node;       /* informational (GPU count), 0..64 */
	int nodes_per_rack;      /* servers in one compute rack */
	const char *nic_id;      /* back-end NIC from the catalog (cage, BOM line) or NULL */
	const char *gpu_id;      /* the nodes' GPU from the catalog or NULL: its maker's
				  * collective library and GPUDirect path name the advice */
	int backend_from_gpu;    /* no NIC, NIC count, port count or rate was given: an
				  * accelerator with scale-out ports on its package
				  * (scaleout_ports) is cabled from its own cages */
	int nics_per_node;       /* back-end NICs per node; 0 = no back end */
	int nic_ports;           /* ports of each back-end NIC that are cabled (1..8) */
	/*
	 * Back-end node ports that share one cage of the node: 2 where a
	 * server brings two NICs' ports out at one twin-port OSFP cage (a DGX
	 * H100's four cages, each carrying two ConnectX-7 ports), which takes
	 * one twin-port module for both; 0 or 1: each port its own cage.
	 * nic_cage[i] is then the cage of node port i (0-based, any order),
	 * nic_cage_finned its top (1 finned, 0 flat, -1 unknown).
	 */
	int nic_ports_per_cage;
	int nic_cage_finned;
	signed char nic_cage[NICFIT_CLUSTER_MAX_LINKS];
	int mgmt_ports;          /* cable each switch's management port to the OOB network */
	struct nicfit_cluster_net_input net[NICFIT_NET_COUNT];
	struct nicfit_cluster_storage_input storage;
	int frontend_uplinks;    /* uplinks from each top-tier front-end switch to the border; 0: none */
	/*
	 * The reference design whose node defaults the request took (an
	 * 8-GPU HGX/DGX node: rail-optimized, two north-south links to two
	 * switches, dual-homed storage), NULL when none: a decision names it.
	 */
	const char *node_kind;
	/*
	 * A catalog server the nodes are (--server), or NULL: its GPUs, its
	 * built-in compute NICs and north-south cards set what the request
	 * leaves out (nicfit_cluster_input_server). racks (--racks) counts
	 * whole racks of a rack-scale server (GB200/GB300 NVL72), 0: nodes.
	 */
	const char *server_id;
	int racks;
	/*
	 * The back end of a rack-scale design (nicfit_cluster_input_rack):
	 * rack_leaves, a rail leaf takes whole compute racks; su_nodes > 0,
	 * the nodes of one scalable unit, past which the back end has three
	 * tiers whose pods are one unit's leaves of one rail (the DGX
	 * SuperPOD GB200 layout). switch_from names the design a default
	 * back-end switch came from (NULL: the request's or the generic one).
	 */
	int rack_leaves;
	long su_nodes;
	const char *switch_from;
	struct nicfit_cluster_layout layout;
};

/*
 * Defaults: 8 GPUs and 8 back-end NICs of one 400G port per node on a
 * generic 64-port switch at 1:1, one plane, not rail-optimized; one 25G
 * front-end link per node on 48-port switches; a 1G OOB network on 48-port
 * switches with 2 uplinks per leaf; management ports on; 4 nodes per rack.
 * nodes is 0 and must be set.
 */
void nicfit_cluster_input_default(struct nicfit_cluster_input *in);

/* The switch model a network uses. */
struct nicfit_cluster_switch {
	const struct nicfit_switch *cat; /* catalog entry, NULL for a generic switch */
	char id[64];            /* catalog id, or "generic-64x400g" */
	char name[160];
	int ports;              /* physical ports */
	double gbps;            /* rate of one port */
	char cage[16];
	int max_logical;        /* ports after splitting; 0 = no limit known */
	int per_cage;           /* logical ports per cage (twin-port OSFP: 2); ports counts logical ports */
	int height_u;
};

/* One tier of one network, all planes together. */
struct nicfit_cluster_tier {
	long switches;
	int down;               /* ports facing down on a full switch (physical) */
	int up;                 /* ports facing up */
	long ports_used;        /* physical ports cabled, all switches of the tier */
	long ports_free;
};

/* One network as sized. */
struct nicfit_cluster_net {
	int enabled;
	int tiers;              /* 1..3 (0 when disabled) */
	int planes;
	int rails;              /* rails per plane; 1 when not rail-optimized */
	int links_per_node;
	double link_gbps;
	char node_cage[16];     /* cage of the node ports */
	struct nicfit_cluster_switch sw;
	/*
	 * A scheduled (VOQ, cell) fabric: sw is its leaf, whose fabric ports
	 * (uplinks_per_leaf) go to fabric, the cell switches that make up the
	 * spine tier; 0 and an empty fabric for a leaf-spine of one model.
	 */
	int scheduled;
	struct nicfit_cluster_switch fabric;
	int breakout;           /* node ports per switch port (1 = no split) */
	int split_stride;       /* switch ports one split port takes: 1, or 2 where the split
				 * needs its neighbour's logical ports too (SN2700 4-way) */
	double port_gbps;       /* rate a leaf down port runs at (link_gbps x breakout) */
	int endpoints_per_leaf; /* node ports on a full leaf */
	int uplinks_per_leaf;
	double leaf_ratio;      /* down:up bandwidth of a full leaf (1 = non-blocking) */
	long max_endpoints;     /* most node ports these tiers take at this ratio, per plane */
	long pods;              /* per plane, three tiers */
	long leaves_per_pod;
	int spines_per_pod;
	int cores_per_group;    /* core group = the cores joined to spine j of every pod */
	struct nicfit_cluster_tier tier[NICFIT_TIER_COUNT];
	long endpoints;         /* node ports (OOB: BMC ports + management ports) */
	long links[NICFIT_LINK_LEVELS];
	long cables;            /* physical cables: copper, AOC, RJ45 or generic links (a breakout
				 * cable serves several links) and fibres between optics */
	long ports_total;       /* switch ports of this network */
	long ports_free;
	struct nicfit_port_match fit;  /* how a node port meets a switch port (nicfit/compat.h) */
	long max_length_m;      /* longest cable run of this network, rounded up */
};

/* A counted item: one cable type and length, an optic, or a fibre. */
struct nicfit_cluster_cable {
	enum nicfit_net net;
	enum nicfit_link_level level;
	const struct nicfit_cable *cat; /* NULL for a generic item (never priced) */
	char part[64];          /* catalog id, or a generic id such as "fiber-mpo12-mmf-20m" */
	char type[16];          /* "dac", "aoc", "optic", "fiber", "breakout-dac", "rj45", ... */
	char description[160];
	double length_m;        /* item length; 0 for optics */
	double gbps;
	long qty;
	long links;             /* links these items serve */
};

/* One BOM line (the shape plan shares). */
struct nicfit_cluster_bom_line {
	char part[64];
	char description[160];
	long qty;
	int priced;
	double unit_usd;        /* valid when priced */
	double total_usd;
	const char *prices_as_of;
	const char *source;     /* price source, or NULL */
};

/* The storage network as sized (its links are in the port map, named by count). */
struct nicfit_cluster_storage {
	int enabled;
	double link_gbps;
	double demand_gbps;     /* nodes x node_gbps: what the storage servers must serve */
	int node_links;         /* per compute node: node_gbps over link_gbps, rounded up */
	int server_links;       /* per storage server: its share of the demand, rounded up */
	long endpoints;         /* node and server ports */
	struct nicfit_cluster_switch sw;
	int breakout;           /* storage ports per switch port */
	int split_stride;       /* switch ports one split port takes (2: a 4-way split on an
				 * SN2700 takes its neighbour's logical ports), 1 unsplit */
	int tiers;              /* 1 or 2 */
	long leaves, spines;
	int down, up;           /* physical ports of a full leaf facing down (split ports x
				 * split_stride) and up */
	int upbase;             /* the first uplink's port: down rounded up to whole cages */
	int endpoints_per_leaf;
	double leaf_ratio;      /* down:up bandwidth of a full leaf */
	long host_links, leaf_spine_links;
	long ports_total, ports_free;
	struct nicfit_cluster_cable *cables; /* host links, then leaf-spine items */
	size_t ncables;
	long max_length_m;      /* longest cable run of the storage network, rounded up */
};

/*
 * The front end's way out and its MLAG pairs, counts only: uplinks from
 * every switch of the front end's top tier to border switches (in pairs),
 * and the peer links that join the two leaves a dual-homed node spans
 * (two front-end links per node) and the two switches of a border pair.
 * Its links are in the port map, named by count.
 */
struct nicfit_cluster_border {
	int enabled;            /* uplinks asked for */
	int uplinks_per_switch;
	enum nicfit_tier top_tier;
	long top_switches;      /* front-end switches the uplinks leave from */
	long switches;          /* border switches (the front end's switch model) */
	long uplinks;
	long leaf_pairs;        /* MLAG pairs of front-end leaves (dual-homed nodes) */
	long border_pairs;
	long peer_links;        /* all MLAG peer links */
	long leaf_peer_ports;   /* front-end leaf ports the leaf pairs' peer links take (0: no room) */
	long map_rows;          /* its rows of the port map: uplinks and the peer links cabled */
	struct nicfit_cluster_cable *cables;
	size_t ncables;
	long max_length_m;      /* longest uplink or peer-link run, rounded up */
};

struct nicfit_cluster_impl;

struct nicfit_cluster {
	struct nicfit_cluster_input in; /* as given (strings point to the caller's) */
	long gpus;
	long racks;             /* compute racks */
	long network_racks;
	long rows;              /* compute rows (+1 spine row when there are spines) */
	const struct nicfit_nic *nic; /* back-end NIC when nic_id was given */
	const struct nicfit_gpu *gpu; /* the nodes' GPU when gpu_id was given */
	const struct nicfit_server *server; /* the nodes' server when server_id was given */
	const struct nicfit_nic *ns_nic; /* its built-in north-south card, whose cage the front
					  * end's node ports are, or NULL */
	int integrated;          /* the back end is the GPUs' own scale-out ports, no NIC cards */
	struct nicfit_cluster_net net[NICFIT_NET_COUNT];
	struct nicfit_cluster_storage storage;
	struct nicfit_cluster_border border;
	struct nicfit_cluster_cable *cables;
	size_t ncables;
	struct nicfit_cluster_bom_line *bom;
	size_t nbom;
	double total_usd;       /* sum of priced lines */
	char prices_as_of[16];  /* latest date among priced lines, "" if none */
	long max_length_m;      /* longest cable run of all networks (each network's: its max_length_m) */
	struct nicfit_findings decisions; /* each sizing step: code is the rule id
					   * ("cluster.tiers"), severity NICFIT_SEV_NONE */
	struct nicfit_findings findings; /* registered codes ("cluster-blocking"), as raised */
	struct nicfit_cluster_impl *impl; /* the design tables the walk reads */
};

/*
 * Size every enabled network for in. cat provides switches, NICs and
 * cables (it may be NULL: generic switches only, every cable generic).
 * out is filled and owns memory until nicfit_cluster_release(); the strings
 * that in points to must outlive it. Errors: NICFIT_E_USAGE for values out
 * of range or a design that cannot be built (e.g. more than three tiers:
 * the message says what would fit), NICFIT_E_NOTFOUND for an unknown
 * switch or NIC id, NICFIT_E_NOMEM. On error out holds nothing to free
 * (calling nicfit_cluster_release on it is still safe).
 */
int nicfit_cluster_size(const struct nicfit_cluster_input *in,
			const struct nicfit_catalog *cat, struct nicfit_cluster *out,
			struct nicfit_error *err);

/*
 * Free what c holds (not c itself) and zero it, so it can be sized again.
 * Safe on a zeroed struct and on one already released.
 */
void nicfit_cluster_release(struct nicfit_cluster *c);

/*
 * Endpoint ids in links: nodes are 0..nodes-1, switches nodes+i; on the
 * OOB network also the storage and border switches and, after them, the
 * storage servers (their BMCs), ids past every walked switch. Names:
 * "node0007", "be-leaf012", "be-p1-spine03" (plane shown when there are
 * several), "fe-leaf004", "oob-leaf002", "st-leaf01", "fe-border02",
 * "stor03". Ports: nodes "nic3" (or "nic3p1"
 * with several cabled ports per NIC), "fe0", "bmc"; switches "swp17",
 * "swp17s2" for lane 2 of a split port, "mgmt". Writes at most n bytes
 * (always NUL-terminated) and returns the length.
 */
size_t nicfit_cluster_endpoint_name(const struct nicfit_cluster *c, long id,
				    char *out, size_t n);

/* One link of the port map. */
struct nicfit_cluster_link {
	enum nicfit_net net;
	enum nicfit_link_level level;
	int plane;              /* -1 on the OOB network */
	int rail;               /* rail (front end: the node's link index); -1 if none */
	long a, b;              /* endpoint ids: a is the lower end (node or lower tier) */
	int port_a, port_b;     /* node: link index on that network; switch: 0-based port; -1: mgmt */
	int lane_a, lane_b;     /* lane of a split switch port, -1 when not split */
	double length_m;        /* cable run */
	const char *cable;      /* what is cabled: "dac-qsfp28-100g-2m", or optics + fibre */
	int new_cable;          /* 1 unless this link shares the previous link's breakout cable
				 * or twin-port switch-to-switch cable (both ports of a cage) */
	int cables;             /* physical cables this link adds: 1 (0 when it shares the
				 * previous link's breakout or twin-port cable); on optics its
				 * fibres, 1 or 2 */
};

/* Called once per link; a non-zero return stops the walk and is returned. */
typedef int (*nicfit_cluster_link_fn)(void *ctx, const struct nicfit_cluster_link *l);

/*
 * Every link of the design in port-map order: per network (back end, front
 * end, OOB), per plane, the host links leaf by leaf (on the OOB network
 * each leaf's BMC and management links in rack order), then leaf-spine,
 * then spine-core. The counts in c are the counts of this walk. Returns 0,
 * NICFIT_E_NOMEM, or what fn returned. Read-only: several walks may run at
 * once on one result.
 */
int nicfit_cluster_walk(const struct nicfit_cluster *c, nicfit_cluster_link_fn fn, void *ctx);

/* A byte sink for the CSV writer: returns 0, or non-zero to stop. */
typedef int (*nicfit_cluster_write_fn)(void *ctx, const char *p, size_t n);

/*
 * Stream the port map as CSV (header link_type,endpoint_a,port_a,
 * endpoint_b,port_b,cable,length_m,plane,rail; CRLF line ends) through
 * write in large blocks. *rows gets the number of data rows. Returns 0,
 * or NICFIT_E_IO when write failed.
 */
int nicfit_cluster_write_port_map(const struct nicfit_cluster *c, nicfit_cluster_write_fn write,
				  void *ctx, long *rows, struct nicfit_error *err);

/* The spec keys nicfit_cluster_input_from_spec() knows, NULL-terminated. */
extern const char *const nicfit_cluster_spec_keys[];

/*
 * Read a request from spec (keys as in `nicfit cluster`, '-' as '_';
 * see docs/nicfit-cluster.1) into in. Strings in in point into spec.
 * *port_map_inline (may be NULL) gets 1 when the spec asks for the port
 * map inline ("port_map": true). Errors: NICFIT_E_USAGE (NICFIT_E_DATA for
 * a spec parsed from JSON) naming the setting.
 */
int nicfit_cluster_input_from_spec(struct nicfit_spec *spec, struct nicfit_cluster_input *in,
				   int *port_map_inline, struct nicfit_error *err);

/*
 * The defaults of the node's kind on what spec leaves out, after
 * nicfit_cluster_input_from_spec() read it: an 8-GPU HGX/DGX baseboard
 * node (--gpus-per-node 8 with no GPU named, or a baseboard GPU of
 * cat, --gpu) gets a rail-optimized back end, two north-south links to
 * two switches at 200GbE (400GbE behind 800G compute NICs) and
 * dual-homed storage, as NVIDIA's HGX reference architectures build it
 * and as `nicfit plan` judges the same node. in->node_kind then names
 * the design. cat may be NULL (nothing is known of a named GPU: no
 * defaults). Never fails: an unknown GPU or NIC is for the sizing to
 * refuse.
 */
void nicfit_cluster_input_node_defaults(struct nicfit_spec *spec, const struct nicfit_catalog *cat,
					struct nicfit_cluster_input *in);

/*
 * What a catalog server (in->server_id, --server) fixes in a request that
 * nicfit_cluster_input_from_spec() read, before the node defaults: its
 * GPU and GPUs a node, its built-in compute NICs (a different --nic or
 * NIC count is refused: they cannot be swapped), its north-south cards as
 * the front end's links and rate, its height; for a rack-scale server
 * (GB200/GB300 NVL72) whole racks of its trays (--racks N), a rail-
 * optimized back end and the rack as the compute rack. Options given keep
 * their values where they do not contradict the server. Returns 0, or an
 * error naming the option (an unknown server, --racks of a server that is
 * not rack-scale, a swapped NIC).
 */
int nicfit_cluster_input_server(struct nicfit_spec *spec, const struct nicfit_catalog *cat,
				struct nicfit_cluster_input *in, struct nicfit_error *err);

/*
 * The back-end layout of a rack-scale server's reference design (sv a
 * catalog server with a "rack"; nothing for any other): the rack as the
 * compute rack, rail leaves of whole racks, and the scalable unit
 * (rack.su_racks) past which the back end grows a third tier. `nicfit
 * plan --racks` and `nicfit cluster --racks` both size the rack's fabric
 * through it. Never fails.
 */
struct nicfit_server;
void nicfit_cluster_input_rack(struct nicfit_cluster_input *in, const struct nicfit_server *sv);

/* How the port map was delivered, for the renderer. */
struct nicfit_cluster_render_opts {
	const char *port_map_file; /* written by the caller, or NULL */
	long port_map_rows;
	int port_map_inline;       /* put the rows in the JSON document */
};

/*
 * Render c: the summary, cables, BOM, decisions, findings and assumptions
 * in text, Markdown and JSON ("schema": "nicfit.cluster.v1"); the BOM
 * table in CSV; the fabric diagram in SVG. opts may be NULL. Returns 0, or
 * NICFIT_E_LIMIT when an inline port map would exceed
 * NICFIT_CLUSTER_INLINE_ROWS rows.
 */
int nicfit_cluster_render(const struct nicfit_cluster *c,
			  const struct nicfit_cluster_render_opts *opts,
			  struct nicfit_emit *e, struct nicfit_error *err);

/* The fabric diagram as one SVG document appended raw to e. */
void nicfit_cluster_svg(const struct nicfit_cluster *c, struct nicfit_emit *e);

/*
 * The whole request, as `nicfit cluster` and POST /api/cluster run it:
 * input from spec, size, render. A port map is only available inline.
 */
int nicfit_cluster_run(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
		       struct nicfit_emit *e, struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
