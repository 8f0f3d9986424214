/*
 * cluster_int.h - the design tables behind a struct nicfit_cluster, shared
 * by the sizer (cluster.c), the link walk and cable choice
 * (cluster_walk.c) and the renderers. Internal to libnicfit.
 *
 * Leaves are numbered per plane; every plane of a network is identical.
 * Node ports reach leaves through groups of consecutive nodes: a group of
 * gsize nodes (the last may be smaller) owns lpg consecutive leaves. How
 * a node's links spread over its group's leaves is the map kind:
 *
 *   MAP_RAIL   link k is rail k; rails-per-leaf rails share a leaf, and a
 *              rail of a big group has several sub-leaves of esub nodes;
 *   MAP_NODES  all links of npl consecutive nodes on one leaf;
 *   MAP_SPLIT  a node with more links than a leaf takes spreads them over
 *              lpn leaves of esub links;
 *   MAP_LIST   the OOB network: an explicit list of endpoints (BMCs and
 *              switch management ports) cut into leaves by rack.
 */
#ifndef NICFIT_CLUSTER_INT_H
#define NICFIT_CLUSTER_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "cluster_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stdint.h>

#include "nicfit/cluster.h"

enum cl_map { MAP_RAIL, MAP_NODES, MAP_SPLIT, MAP_LIST };

/* One OOB leaf: a range of the endpoint list. */
struct cl_range {
	long first;
	int count;
};

/* How one network is built (per plane). */
struct cl_net {
	enum cl_map map;
	int kp;                 /* node links per plane */
	long gsize;             /* nodes per group */
	long ngroups;
	int lpg;                /* leaves of a full group */
	int rpl;                /* MAP_RAIL: rails sharing a leaf */
	int esub;               /* MAP_RAIL: nodes per sub-leaf; MAP_SPLIT: links per leaf */
	int npl;                /* MAP_NODES: nodes per leaf */
	int lpn;                /* MAP_SPLIT: leaves per node */
	struct cl_range *ranges;/* MAP_LIST: one per leaf */
	long leaves;            /* per plane */
	long cap1;              /* node ports one switch takes with no uplinks */
	int elaf;               /* node ports on a full leaf */
	int down;               /* switch ports a full leaf gives its nodes */
	int upbase;             /* first uplink port of a leaf (down rounded up to whole cages) */
	int u;                  /* uplinks per leaf */
	int tiers;
	int spines;             /* two tiers: per plane; three tiers: per pod */
	long pods;
	long lpp;               /* leaves per pod (three tiers; the last pod may have fewer) */
	int sdown;              /* spine ports facing down (design) */
	int sup;                /* spine ports facing up (three tiers) */
	int supbase;            /* first uplink port of a spine (sdown rounded up to whole cages) */
	int cg;                 /* cores per core group */
	long tier_sw[NICFIT_TIER_COUNT]; /* switches per plane */
	long base;              /* global index of this network's first switch */
	long per_plane;         /* switches per plane */
	int digits[NICFIT_TIER_COUNT];   /* of switch numbers in names */
	int cls[NICFIT_LINK_LEVELS];     /* cable class per link level, -1 if none */
};

/* Where a switch stands. */
struct cl_pos {
	int32_t row;            /* compute row, or the spine row (= crow) */
	int32_t x;              /* rack position along the row */
	float u;                /* height of its ports, U from the floor */
};

/* A cable class: the ends every link of one (network, level) has. */
struct cl_class {
	enum nicfit_net net;
	enum nicfit_link_level level;
	double gbps_a;          /* port rate at end a (the upper switch) */
	char cage_a[16];
	double gbps_b;          /* rate of each leg at end b */
	char cage_b[16];
	int split;              /* legs per end-a port (or cage) */
	int twin_a, twin_b;     /* switch-to-switch: logical ports per cage at each end (1 = plain) */
	int intel_b;            /* end b only takes Intel-coded modules */
	int32_t *cache[2];      /* kit per decimetre of length: [0] same rack, [1] between racks */
};

#define CL_CACHE_DM 30000   /* lengths cached up to 3 km */
#define CL_MAX_LEGS 64      /* node ports on one switch cage: split x ports per cage */
#define CL_MAX_CLASSES (NICFIT_NET_COUNT * NICFIT_LINK_LEVELS)

enum cl_kit_type { KIT_CABLE, KIT_OPTICS, KIT_GENERIC };

/* What one link (or one split port) is cabled with. */
struct cl_kit {
	int cls;
	enum cl_kit_type type;
	int item_port;          /* per end-a port: the cable, the end-a optic or the generic link */
	int item_leg;           /* per leg: the end-b optic, or -1 */
	int item_fiber;         /* per leg: the fibre, or -1 */
	char label[200];
};

struct nicfit_cluster_impl {
	const struct nicfit_catalog *cat;
	struct cl_net net[NICFIT_NET_COUNT];
	long nsw;               /* switches of all networks */
	struct cl_pos *pos;     /* per switch */
	long crow;              /* compute rows */
	int has_spine_row;
	int32_t *row_half;      /* compute racks before the network racks, per row */
	int32_t *row_net;       /* network racks per row (index crow: the spine row) */
	int32_t spine_x0;       /* x of the spine row's first rack */
	long *oob_list;         /* OOB endpoint ids in cabling order */
	long noob;
	int node_digits;
	struct cl_class classes[CL_MAX_CLASSES];
	int nclasses;
	struct cl_kit *kits;
	size_t nkits, alloc_kits;
	size_t alloc_cables;    /* of c->cables */
	size_t alloc_pos;       /* of pos */
	int counting;           /* the sizing walk: create kits and count items */
};

/* Node and switch positions and the cable run between two endpoints. */
double cl_length(const struct nicfit_cluster *c, long a, long b, int *same_rack);

/* The walk shared by sizing (counting = 1) and the public walk. */
int cl_walk(const struct nicfit_cluster *c, nicfit_cluster_link_fn fn, void *ctx);

/* Set up the cable classes of every enabled network (after sizing). */
int cl_classes(struct nicfit_cluster *c, struct nicfit_error *err);

/* Free the cable caches and kits. */
void cl_kits_free(struct nicfit_cluster_impl *im);

/* The switch that a global index names: network, plane, tier, index in tier. */
void cl_switch_of(const struct nicfit_cluster *c, long s, enum nicfit_net *net, int *plane,
		  enum nicfit_tier *tier, long *idx);

/* Standard cable/fibre lengths: the smallest stock length >= m. */
double cl_stock_length(double m);

/* Cage usually fitted for a port rate ("QSFP28" for 100). */
const char *cl_cage_for(double gbps);

#endif
