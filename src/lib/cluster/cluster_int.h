/*
 * cluster_int.h - the design tables behind a struct nicfit_cluster, and
 * the steps of sizing one, shared by the files of the cluster engine:
 *
 *   cluster.c          the input, its checks and the whole sizing in order
 *   cluster_net.c      one network: switch model, set-up, switch numbering
 *   cluster_tiers.c    leaf capacity, the leaf layer, spines and cores
 *   cluster_place.c    where the switches stand
 *   cluster_oob.c      the OOB network, sized after the others are placed
 *   cluster_storage.c  the storage network, a fabric of its own sized by counts
 *   cluster_border.c   the front end's border uplinks and MLAG peer links, by counts
 *   cluster_cable.c    cable lengths, classes and what cables each link
 *   cluster_walk.c     every link, in port-map order
 *   cluster_name.c     endpoint and port names
 *   cluster_portmap.c  the CSV port map
 *   cluster_explain.c  decisions and findings
 *   cluster_vendor.c   the RoCE settings each switch and NIC vendor documents
 *   cluster_bom.c      cable lines sorted, the bill of materials
 *   cluster_spec.c     the request from a spec
 *   cluster_render.c   text, Markdown, JSON, CSV; the whole request
 *   cluster_svg.c      the fabric diagram
 *
 * Internal to libnicfit.
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
#include <string.h>

#include "nicfit/cluster.h"
#include "nicfit/compat.h"

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
	/*
	 * Rail pods (a rack-scale design's scalable units): pod p is the
	 * leaves of rail p % kp in unit p / kp, one a group of gpp groups,
	 * rather than lpp leaves in a row (cl_leaf_pod).
	 */
	int rail_pods;
	long gpp;
	int sdown;              /* spine ports facing down (design) */
	int sup;                /* spine ports facing up (three tiers) */
	int supbase;            /* first uplink port of a spine (sdown rounded up to whole cages) */
	int cg;                 /* cores per core group */
	long tier_sw[NICFIT_TIER_COUNT]; /* switches per plane */
	long base;              /* global index of this network's first switch */
	long per_plane;         /* switches per plane */
	int digits[NICFIT_TIER_COUNT];   /* of switch numbers in names */
	int cls[NICFIT_LINK_LEVELS];     /* cable class per link level, -1 if none */
	struct nicfit_port node_port;   /* the host links' node end, as lanes */
	struct nicfit_port sw_port;     /* the switch end */
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
	int optics_only;        /* the ends share no lane rate: a pair of optics only */
	/*
	 * switch-to-switch on twin-port cages at both ends whose walk gives
	 * both ports of a cage to one far cage (cl_twin_paired): one
	 * twin-port cable may join the two cages
	 */
	int paired;
	struct nicfit_port pa, pb; /* the ports at each end, as lanes (nicfit/compat.h) */
	int list;               /* where its items are counted: CL_LIST_MAIN, _STORAGE, _BORDER */
	/*
	 * The catalog cables whose ends fit the class, in catalog order,
	 * found once when the class is made: the DACs and RJ45 cables
	 * (cand[CL_CAND_COPPER]), the AOCs (CL_CAND_FAR), the optics for end a
	 * and for end b. A choice scans these few, not the catalog.
	 */
	const struct nicfit_cable **cand[4];
	size_t ncand[4];
	/*
	 * The last pair of optics chosen, the fibre's stock length and their
	 * kit (index + 1, 0 none): the lengths of one long run differ by
	 * decimetres and take the same kit, found without naming its fibre
	 * again.
	 */
	const struct nicfit_cable *last_oa, *last_ob;
	double last_stock;
	int last_kit;
	int32_t *cache[2];      /* kit per decimetre of length: [0] same rack, [1] between racks */
	size_t cache_dm[2];     /* the decimetres each holds; grown to the longest link */
};

/* The candidate lists of a class (struct cl_class's cand). */
enum { CL_CAND_COPPER, CL_CAND_FAR, CL_CAND_OPTIC_A, CL_CAND_OPTIC_B };

/* The cable lists a class counts into: c->cables, c->storage.cables, c->border.cables. */
enum { CL_LIST_MAIN, CL_LIST_STORAGE, CL_LIST_BORDER };

/*
 * Two rates are the same rate when they differ by less than CL_RATE_EPS
 * Gb/s: catalog rates are read from text with a few decimals at most
 * (53.125), and ratios of them (400 / 100) must come out whole. It is
 * wider than NICFIT_EPS, which compares figures computed here.
 */
#define CL_RATE_EPS 1e-6

#define CL_CACHE_DM 30000   /* lengths cached up to 3 km at first, then as far as links run */
#define CL_CACHE_MAX_DM 10000000 /* but not past 1,000 km: such a length is chosen each time */
#define CL_MAX_LEGS 64      /* node ports on one switch cage: split x ports per cage */
/* the walked networks' classes, and two each for the storage network and the border */
#define CL_MAX_CLASSES (NICFIT_NET_COUNT * NICFIT_LINK_LEVELS + 4)

enum cl_kit_type { KIT_CABLE, KIT_OPTICS, KIT_GENERIC };

/* What one link (or one split port) is cabled with. */
struct cl_kit {
	int cls;
	enum cl_kit_type type;
	int item_port;          /* per end-a port: the cable, the end-a optic or the generic link */
	int item_leg;           /* per leg: the end-b optic, or -1 */
	int item_fiber;         /* per leg: the fibre, or -1 */
	int fibers;             /* fibres per leg: 2 for a twin-port optic on one 800G port */
	char label[200];
};

struct nicfit_cluster_impl {
	const struct nicfit_catalog *cat;
	struct cl_net net[NICFIT_NET_COUNT];
	long nsw;               /* switches of all networks */
	struct cl_pos *pos;     /* per switch, then the storage and border switches (xbase on) */
	long xbase;             /* pos index of the first storage leaf */
	long nx;                /* storage leaves and spines, then border switches, from xbase */
	long nservers;          /* storage servers in pos after them (xbase + nx on), for the OOB
				 * network's BMC links: endpoint id nodes + xbase + nx + k */
	long nrackdev;          /* NVLink switch-tray BMCs of a rack-scale system's racks, after
				 * the storage servers: endpoint id nodes + xbase + nx + nservers
				 * + rack x rackdev_per_rack + tray */
	int rackdev_per_rack;
	long storage_racks;     /* in the storage row */
	int servers_per_rack;   /* storage servers in one storage rack */
	long srow;              /* index of the storage row (crow + 1) */
	int has_storage_row;
	int scls[2], bcls[2];
	int hi_port[NICFIT_NET_COUNT][NICFIT_TIER_COUNT]; /* ports up to the highest one cabled */   /* cable classes: storage host and leaf-spine; border uplink, peer */
	long crow;              /* compute rows */
	int has_spine_row;
	int32_t *row_half;      /* compute racks before the network racks, per row */
	int32_t *row_net;       /* network racks per row (index crow: the spine row) */
	int32_t spine_x0;       /* x of the spine row's first rack */
	long spr;               /* switches in one network rack (placer's spr) */
	int hmax;               /* the slot height they were stacked at, U */
	long tor_moved;         /* leaves no rack of their span had room on top of: network racks */
	long tor_shifted;       /* leaves on another rack of their span, the middle one full */
	long tor_full_rack;     /* the first compute rack found full (-1 none) */
	long tor_full_nodes;    /* its nodes, */
	int32_t tor_full_used_u; /* the units switches already took on top of it */
	int tor_full_h;         /* and the height of the leaf that did not fit, U */
	long *oob_list;         /* OOB endpoint ids in cabling order */
	long noob;
	int node_digits;
	struct cl_class classes[CL_MAX_CLASSES];
	int nclasses;
	struct cl_kit *kits;
	size_t nkits, alloc_kits;
	size_t alloc_cables;    /* of c->cables */
	size_t alloc_scables, alloc_bcables; /* of c->storage.cables, c->border.cables */
	size_t alloc_pos;       /* of pos */
	int counting;           /* the sizing walk: create kits and count items */
};

/* The pod of leaf l (three tiers) and its place among the pod's leaves. */
static inline void cl_leaf_pod(const struct cl_net *cn, long l, long *pod, long *pos)
{
	if (cn->rail_pods) {
		long g = l / cn->lpg;

		*pod = g / cn->gpp * cn->kp + l % cn->lpg;
		*pos = g % cn->gpp;
	} else {
		*pod = l / cn->lpp;
		*pos = l % cn->lpp;
	}
}

/*
 * Whether the uplinks of a switch, up of them on cages of twin ports,
 * go in pairs to one cage of one of its far switches, far of them, with
 * every far switch still reached: when each far switch takes a whole
 * number of twin pairs from it (up a multiple of far x twin). Then the
 * walk (cluster_walk.c, cl_twin_up) gives port j and j + 1 of a cage the
 * same far switch and two ports of one far cage, so a twin-port cable
 * (NVIDIA's MCA4J80 active copper, one twin-port OSFP at each end) can
 * join the two cages; with optics the same pairing is NVIDIA's
 * switch-to-switch twin-port scenario, a module at each end and two
 * fibres between them.
 */
static inline int cl_twin_paired(int twin, long up, long far)
{
	return twin > 1 && far > 0 && up > 0 && up % (far * twin) == 0;
}

/*
 * Uplink j of a switch whose first uplink has global index g0 (a
 * multiple of up), far switches far of them: which of them (*to) and its
 * port among those facing down (*port). Plain: round robin over the far
 * switches, link by link. Paired (cl_twin_paired): round robin by cage,
 * both ports of a cage to the same far switch and far cage.
 */
static inline void cl_twin_up(int paired, int twin, long g0, long j, long far, long *to,
			      long *port)
{
	long g = g0 + j, cage;

	if (!paired) {
		*to = g % far;
		*port = g / far;
		return;
	}
	cage = g / twin;
	*to = cage % far;
	*port = cage / far * twin + g % twin;
}

/* The first leaf of pod p (three tiers). */
static inline long cl_pod_leaf(const struct cl_net *cn, long p)
{
	if (cn->rail_pods)
		return p / cn->kp * cn->gpp * cn->lpg + p % cn->kp;
	return p * cn->lpp;
}

/* Whether endpoint id is a storage server (its BMC on the OOB network). */
static inline int cl_is_server(const struct nicfit_cluster *c, long id)
{
	long s0 = c->in.nodes + c->impl->xbase + c->impl->nx;

	return c->impl->nservers > 0 && id >= s0 && id < s0 + c->impl->nservers;
}

/* Whether endpoint id is the BMC of an NVLink switch tray of a rack-scale system's rack. */
static inline int cl_is_rackdev(const struct nicfit_cluster *c, long id)
{
	long r0 = c->in.nodes + c->impl->xbase + c->impl->nx + c->impl->nservers;

	return c->impl->nrackdev > 0 && id >= r0 && id < r0 + c->impl->nrackdev;
}

/* Whether endpoint id is a BMC that is not a node's: a storage server's or a switch tray's. */
static inline int cl_is_bmc(const struct nicfit_cluster *c, long id)
{
	return cl_is_server(c, id) || cl_is_rackdev(c, id);
}

/* Whether endpoint id is a storage or border switch (its management port on the OOB network). */
static inline int cl_is_extra(const struct nicfit_cluster *c, long id)
{
	long x0 = c->in.nodes + c->impl->xbase;

	return c->impl->nx > 0 && id >= x0 && id < x0 + c->impl->nx;
}

/*
 * cluster_name.c: endpoint id's name written at p (room for 48 bytes), and
 * a port's ("swp17s2", "nic3p1", "bmc"); each returns the new end.
 */
char *nicfit__cluster_put_endpoint(const struct nicfit_cluster *c, char *p, long id);
char *nicfit__cluster_put_port(const struct nicfit_cluster *c, char *p, enum nicfit_net n, long id,
			       int port, int lane);

/* ---- arithmetic shared by the sizing files ---------------------------------- */

/* a / b rounded up; 0 when b is not positive */
static inline long cdiv(long a, long b)
{
	return b > 0 ? (a + b - 1) / b : 0;
}

static inline long lmin(long a, long b)
{
	return a < b ? a : b;
}

/* n rounded up to whole cages */
static inline long whole_cages(long n, int per_cage)
{
	return per_cage > 1 ? (n + per_cage - 1) / per_cage * per_cage : n;
}

/*
 * Appending to a name or a port-map row without printf (cluster_name.c,
 * cluster_portmap.c): the port map writes hundreds of thousands of rows.
 */
/* Append s; returns the new end. One strlen() and memcpy(), not a loop a byte: a
 * row's cable label is tens of bytes. */
static inline char *cl_put(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/* Append v in decimal, zero-padded to width. */
static inline char *cl_put_num(char *p, long v, int width)
{
	char tmp[24];
	int n = 0;

	if (v < 0) {
		*p++ = '-';
		v = -v;
	}
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (width-- > n)
		*p++ = '0';
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* decimal digits of v >= 0 */
static inline int digits(long v)
{
	int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

/* ---- one network (cluster_net.c) -------------------------------------------- */

/* What the leaf rules of one network read: its input, its switch, the split. */
struct leafdes {
	const struct nicfit_cluster_net_input *ni;
	const struct nicfit_cluster_switch *sw;
	int b;                  /* node ports per switch port */
	int stride;             /* switch ports one split port takes (split_stride) */
};

/*
 * The switch of tier t of network nt, and the ports one of them has: a
 * scheduled fabric's leaf counts its fabric ports too, and its spine tier
 * is the cell switch.
 */
static inline const struct nicfit_cluster_switch *
nicfit__cluster_tier_switch(const struct nicfit_cluster_net *nt, int t)
{
	return nt->scheduled && t == NICFIT_TIER_SPINE ? &nt->fabric : &nt->sw;
}

static inline int nicfit__cluster_tier_ports(const struct nicfit_cluster_net *nt, int t)
{
	if (nt->scheduled && t == NICFIT_TIER_LEAF && nt->sw.cat)
		return nt->sw.ports + nt->sw.cat->uplink_ports;
	return nicfit__cluster_tier_switch(nt, t)->ports;
}

/*
 * Switch ports one port of sw split into b legs takes: 1, or more where
 * the split needs its neighbours' shares of max_logical_ports (cluster_net.c).
 */
int nicfit__cluster_split_stride(const struct nicfit_cluster_switch *sw, int b);

/* The option that sets a network's switch ("--switch", "--frontend-switch", ...). */
const char *nicfit__cluster_switch_opt(enum nicfit_net n);
/* The option that sets a network's node port rate ("--nic-gbps", ...). */
const char *nicfit__cluster_rate_opt(enum nicfit_net n);
/* 0 when a generic port runs at gbps, else a usage error naming opt. */
int nicfit__cluster_rate_check(double gbps, const char *opt, struct nicfit_error *err);

/*
 * Enable network n: resolve its switch, check the rates, choose the split
 * of faster switch ports, and fill d for the leaf rules. Returns 0,
 * NICFIT_E_NOTFOUND (unknown switch), NICFIT_E_DATA (an unusable catalog
 * switch) or NICFIT_E_USAGE (node ports faster than the switch's).
 */
int nicfit__cluster_net_setup(struct nicfit_cluster *c, enum nicfit_net n, struct leafdes *d,
			      struct nicfit_error *err);
/* Height in U of a catalog switch (its form, "2U"), or of a generic one of that many ports. */
int nicfit__cluster_switch_u(const struct nicfit_switch *s, int ports);
/* Publish the sized tables of network n into c->net[n] and number its switches. */
void nicfit__cluster_net_publish(struct nicfit_cluster *c, enum nicfit_net n,
				 const struct leafdes *d);

/* The switch that a global index names: network, plane, tier, index in tier. */
void nicfit__cluster_switch_of(const struct nicfit_cluster *c, long s, enum nicfit_net *net,
			       int *plane, enum nicfit_tier *tier, long *idx);
/* The inverse: the endpoint id of switch idx of tier t, plane, network n. */
long nicfit__cluster_switch_id(const struct nicfit_cluster *c, enum nicfit_net n, int plane,
			       enum nicfit_tier t, long idx);

/* ---- the tiers (cluster_tiers.c) --------------------------------------------- */

/* Most node ports a leaf takes: with no uplinks (one tier) or with them. */
long nicfit__cluster_leaf_max(const struct leafdes *d, int with_uplinks);
/* Choose the leaf layer of the back end or front end, then the tiers above. */
int nicfit__cluster_leaf_layer(struct nicfit_cluster *c, enum nicfit_net n,
			       const struct leafdes *d, struct nicfit_error *err);
/* The spine and core tiers above the leaves of network n (cn->leaves set). */
int nicfit__cluster_upper_tiers(struct nicfit_cluster *c, enum nicfit_net n,
				const struct leafdes *d, struct nicfit_error *err);

/* ---- placement (cluster_place.c) and the OOB network (cluster_oob.c) ------- */

/* Where switches are put while placing, before rack positions are known. */
struct placer {
	long C;                 /* compute racks */
	long rpr;               /* compute racks per row */
	long *slots;            /* network-rack slots used per row (crow + 1 rows) */
	int32_t *tor_u;         /* units the switches on top of each compute rack take */
	int hmax;               /* height of the tallest switch, U */
	long spr;               /* switches in one network rack: switches_per_rack, at most
				 * as many hmax-high ones as rack_u holds */
};

/*
 * Switches one network rack holds: the switches_per_rack assumption, but no
 * more switches of height_u units than a rack_u rack has room for
 * (floor(rack_u / height_u), at least one).
 */
long nicfit__cluster_rack_switches(double switches_per_rack, double rack_u, int height_u);

/*
 * Units a rack-scale system's switch trays, management switches and power
 * shelves take in each compute rack (cluster_place.c); 0 for a plain
 * server.
 */
double nicfit__cluster_rack_gear_u(const struct nicfit_cluster *c);
/* Switch s into the next network-rack slot of row. */
void nicfit__cluster_place_slot(struct nicfit_cluster *c, struct placer *p, long s, long row);
/* Leaf s, h units high, serving compute racks r0..r1: on top of one with room above
 * its nodes (the middle one first), or in its row's network racks. */
void nicfit__cluster_place_leaf(struct nicfit_cluster *c, struct placer *p, long s, int h,
				long r0, long r1);
/* Every switch of network n (back end or front end). */
void nicfit__cluster_place_net(struct nicfit_cluster *c, struct placer *p, enum nicfit_net n);
/* Slots and top-of-rack marks into rack positions; counts the network racks. */
void nicfit__cluster_finalize_positions(struct nicfit_cluster *c, struct placer *p);

/* The storage servers and switches (storage row, compute rows, spine row) and the
 * border switches (spine row), after the OOB network; pos must hold them. */
void nicfit__cluster_place_extra(struct nicfit_cluster *c, struct placer *p);
/* Where storage server k stands (after the positions are final). */
void nicfit__cluster_server_pos(const struct nicfit_cluster *c, long k, struct cl_pos *q);

/* Size and place the OOB network (after the others are placed). */
int nicfit__cluster_size_oob(struct nicfit_cluster *c, struct placer *p,
			     struct nicfit_error *err);

/* ---- the storage network (cluster_storage.c) ---------------------------------- */


/* The storage request's values (nicfit/cluster.h), checked before sizing. */
int nicfit__cluster_check_storage(const struct nicfit_cluster_input *in, struct nicfit_error *err);
/* Size the storage network into c->storage (nothing when it is not asked for). */
int nicfit__cluster_size_storage(struct nicfit_cluster *c, struct nicfit_error *err);
/* Its cables, link by link from where its ends stand (after placement). */
int nicfit__cluster_cable_storage(struct nicfit_cluster *c, struct nicfit_error *err);
/* Its decisions (cluster.storage). */
void nicfit__cluster_explain_storage(struct nicfit_cluster *c);
/* Its rows of the switch table (network "storage"), none when there is no storage network. */
void nicfit__cluster_storage_switch_rows(struct nicfit_emit *e, const struct nicfit_cluster *c);
/* Its "storage" member (null when there is none) and text section. */
void nicfit__cluster_storage_render(struct nicfit_emit *e, const struct nicfit_cluster *c);

/* One link of the storage network or the border, for the port map (named, not numbered). */
struct cl_slink {
	enum nicfit_link_level level; /* NICFIT_LINK_HOST, _LEAF_SPINE, or _SPINE_CORE (border) */
	const char *type;       /* link_type: "storage-host", "border-uplink", "mlag-peer", ... */
	char a[48], b[48];      /* endpoint names: node, storage server or switch; switch */
	int port_a;             /* the node's or server's storage port (host links), or a switch port */
	int port_b, lane_b;     /* switch port at end b, and its split leg (-1 when not split) */
	const char *cable;
	double length_m;
};
typedef int (*cl_slink_fn)(void *ctx, const struct cl_slink *l);

/* Every storage link, host links then leaf-spine links; stops at fn's first non-zero. */
int nicfit__cluster_storage_walk(const struct nicfit_cluster *c, cl_slink_fn fn, void *ctx);

/* ---- the front end's border and MLAG pairs (cluster_border.c) ----------------- */

/* Border switches that --frontend-uplinks asks for (the front end sized; 0: none). */
long nicfit__cluster_border_switches(const struct nicfit_cluster *c);
/* Size the border uplinks and MLAG peer links into c->border (after the front end is
 * counted), and cable them from where their ends stand. */
int nicfit__cluster_size_border(struct nicfit_cluster *c, struct nicfit_error *err);
/* Every border uplink, then every MLAG peer link; stops at fn's first non-zero. */
int nicfit__cluster_border_walk(const struct nicfit_cluster *c, cl_slink_fn fn, void *ctx);
/* Their decision (cluster.border) and the cluster-mlag-ports finding. */
void nicfit__cluster_explain_border(struct nicfit_cluster *c);
/* The border switches' row of the switch table. */
void nicfit__cluster_border_switch_rows(struct nicfit_emit *e, const struct nicfit_cluster *c);
/* Its "border" member (null when there is nothing) and text section. */
void nicfit__cluster_border_render(struct nicfit_emit *e, const struct nicfit_cluster *c);

/* ---- cables (cluster_cable.c) and the walk (cluster_walk.c) ------------------ */

/* The cable run between two endpoints; *same_rack says whether they share a rack. */
double nicfit__cluster_length(const struct nicfit_cluster *c, long a, long b, int *same_rack);
/* The same between two positions (storage servers and switches, border switches). */
double nicfit__cluster_length_pos(const struct nicfit_cluster *c, const struct cl_pos *a,
				  const struct cl_pos *b, int *same_rack);
/* Where endpoint id stands (a node or a walked network's switch). */
void nicfit__cluster_where(const struct nicfit_cluster *c, long id, struct cl_pos *q);

/* A cable class of a network sized by counts (list CL_LIST_STORAGE or _BORDER), with
 * its caches; -1 when there is no room or memory. */
int nicfit__cluster_add_class(struct nicfit_cluster *c, int list, enum nicfit_link_level lv,
			      double ga, const char *ca, double gb, const char *cb, int split,
			      int twin, const struct nicfit_port *pa, const struct nicfit_port *pb);

/* Set up the cable classes of every enabled network (after sizing). */
int nicfit__cluster_classes(struct nicfit_cluster *c, struct nicfit_error *err);

/* The kit that cables a link (or split port) of class cls needing len metres,
 * created while counting; NULL when none could be made. */
const struct cl_kit *nicfit__cluster_kit_for(const struct nicfit_cluster *c, int cls, double len,
					     int same_rack);

/* Count the items of one cabled port (legs links) while sizing. */
void nicfit__cluster_count_kit(const struct nicfit_cluster *c, const struct cl_kit *kt, int legs,
			       int first_a, int first_b);

/* Free the cable caches and kits. */
void nicfit__cluster_kits_free(struct nicfit_cluster_impl *im);

/* ---- explaining and the bill of materials ------------------------------------ */

/* The decisions and findings that explain the sized design. */
void nicfit__cluster_explain(struct nicfit_cluster *c);

/* cluster_vendor.c: the RoCE settings the back end's switch and NIC vendors document,
 * as cluster.roce decisions after the generic checklist. */
void nicfit__cluster_vendor_roce(struct nicfit_cluster *c);
/* cluster_vendor.c: a back end cabled from the accelerators' own scale-out ports */
void nicfit__cluster_explain_integrated(struct nicfit_cluster *c);

/* cluster_server.c: a catalog server's rack (GB200/GB300 NVL72) in the decisions and the output. */
void nicfit__cluster_explain_rack(struct nicfit_cluster *c);
const struct nicfit_nic *nicfit__cluster_server_ns_nic(const struct nicfit_catalog *cat,
							const struct nicfit_server *sv);
void nicfit__cluster_rack_emit(struct nicfit_emit *e, const struct nicfit_cluster *c);

/* Sort a cable list of a network sized by counts for people, once it is counted: its
 * kits then keep their labels, not their item numbers. */
void nicfit__cluster_sort_list(struct nicfit_cluster_cable *v, size_t n);
/* Sort the cable lines for people, keeping the kits pointing at their items. */
int nicfit__cluster_sort_cables(struct nicfit_cluster *c);
/* The bill of materials from the switches, the NIC and the cable lines. */
int nicfit__cluster_bom(struct nicfit_cluster *c, struct nicfit_error *err);

#endif
