/*
 * cluster_spec.c - a cluster request from a spec: the keys of `nicfit
 * cluster` and of POST /api/cluster (option names with '-' as '_'), each
 * read and range-checked into a struct nicfit_cluster_input, with errors
 * that name the option (or the key of a JSON request).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cluster/cluster_int.h"
#include "core/node_kind_int.h"
#include "nicfit/units.h"

/* ---- the request ------------------------------------------------------------- */

const char *const nicfit_cluster_spec_keys[] = {
	"nodes", "gpus", "gpus_per_node", "nics_per_node", "nic_ports", "nic_gbps", "nic",
	"switch", "radix", "switch_gbps", "rail_optimized", "no_rail_optimized", "rail_only", "oversubscription", "planes",
	"tiers", "breakout", "nodes_per_rack", "frontend", "no_frontend", "frontend_links",
	"frontend_gbps", "frontend_switch", "frontend_radix", "frontend_oversubscription",
	"oob", "no_oob", "oob_switch", "oob_radix", "oob_uplinks", "mgmt_ports", "assume",
	"port_map", "storage_gbps", "storage_nodes", "storage_link_gbps", "storage_switch",
	"storage_radix", "storage_oversubscription", "frontend_uplinks", "gpu", "checkpoint_tb",
	"checkpoint_stall", "server", "racks", NULL
};

/*
 * The reader of nicfit/spec.h does the naming: each value read becomes
 * the current key, so an error in it names the option ("--planes") or,
 * in a JSON request, the key and the line and column of its own value.
 */
struct req {
	struct nicfit_reader rd;
	struct nicfit_error *err;
};

/* The value of key, now the current key; NULL when absent. */
static const char *get(struct req *r, const char *key)
{
	return nicfit_reader_get(&r->rd, key);
}

/* The option name of key as the user wrote it, now the current key. */
static const char *optname(struct req *r, const char *key)
{
	return nicfit_reader_opt(&r->rd, key);
}

/* A failure (already in r->err) pointed at the current key; bad JSON values are bad data. */
static int fix(struct req *r, int rc)
{
	return nicfit_reader_fail(&r->rd, rc);
}

static int get_long(struct req *r, const char *key, long min, long max, long *out)
{
	const char *v = get(r, key);

	if (!v)
		return 0;
	return fix(r, nicfit_parse_long(v, nicfit_reader_name(&r->rd), min, max, out, r->err));
}

static int get_int(struct req *r, const char *key, long min, long max, int *out)
{
	long v = *out;
	int rc = get_long(r, key, min, max, &v);

	if (!rc)
		*out = (int)v;
	return rc;
}

/*
 * A leaf's down:up ratio: "3", "3.5", "3:1", or "A:B" as AMD's MI3XX
 * cluster design writes an undersubscribed leaf ("1:1.16", downstream
 * demand : upstream capacity), read as A/B; NICFIT_CLUSTER_MIN_OVERSUB
 * (1:2) to NICFIT_CLUSTER_MAX_OVERSUB.
 */
static int get_ratio(struct req *r, const char *key, double *out)
{
	const char *v = get(r, key), *colon;
	char a[64];
	double down, up = 1;
	int rc;

	if (!v)
		return 0;
	colon = strchr(v, ':');
	if (!colon)
		return fix(r, nicfit_parse_double(v, nicfit_reader_name(&r->rd), NICFIT_CLUSTER_MIN_OVERSUB,
						  NICFIT_CLUSTER_MAX_OVERSUB, out, r->err));
	if ((size_t)(colon - v) >= sizeof(a))
		return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit_reader_name(&r->rd), 0, 0,
					      "give the ratio as X or A:B (down:up)"));
	memcpy(a, v, (size_t)(colon - v));
	a[colon - v] = '\0';
	if ((rc = nicfit_parse_double(a, nicfit_reader_name(&r->rd), 0.001, 1e6, &down, r->err)) ||
	    (rc = nicfit_parse_double(colon + 1, nicfit_reader_name(&r->rd), 0.001, 1e6, &up, r->err)))
		return fix(r, rc);
	if (down / up < NICFIT_CLUSTER_MIN_OVERSUB - 1e-9 || down / up > NICFIT_CLUSTER_MAX_OVERSUB)
		return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit_reader_name(&r->rd), 0, 0,
					      "%g:%g is %.3g:1 down:up, out of range (1:2 to %d:1)",
					      down, up, down / up, NICFIT_CLUSTER_MAX_OVERSUB));
	*out = down / up;
	return 0;
}

static int get_speed(struct req *r, const char *key, double *out)
{
	const char *v = get(r, key);
	struct nicfit_speed sp;
	int rc;

	if (!v)
		return 0;
	/* the option names its unit: a bare number is Gb/s */
	if (nicfit_parse_double(v, nicfit_reader_name(&r->rd), 0.001, NICFIT_CLUSTER_MAX_GBPS, out, NULL) == 0)
		return 0;
	rc = fix(r, nicfit_parse_speed(v, nicfit_reader_name(&r->rd), &sp, r->err));
	if (rc)
		return rc;
	/* the front end is Ethernet: an InfiniBand rate's name is not one of its speeds */
	if (sp.kind == NICFIT_SPEED_IB && !strcmp(key, "frontend_gbps"))
		return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit_reader_name(&r->rd), 0, 0,
					      "%.32s is an InfiniBand rate, and the front-end network "
					      "is Ethernet: give an Ethernet speed such as 100G", v));
	*out = sp.gbps;
	return 0;
}

/*
 * The back end's --nic-gbps: a speed as get_speed reads it, and when it is
 * an InfiniBand rate's name (HDR, NDR200), that rate's lanes too, which
 * size the node port (nicfit/cluster.h).
 */
static int get_backend_speed(struct req *r, struct nicfit_cluster_net_input *be)
{
	const char *v = get(r, "nic_gbps");
	struct nicfit_speed sp;
	int rc;

	if (!v || nicfit_parse_double(v, nicfit_reader_name(&r->rd), 0.001, NICFIT_CLUSTER_MAX_GBPS, &be->link_gbps,
				      NULL) == 0)
		return 0;
	rc = fix(r, nicfit_parse_speed(v, nicfit_reader_name(&r->rd), &sp, r->err));
	if (rc)
		return rc;
	be->link_gbps = sp.gbps;
	if (sp.kind == NICFIT_SPEED_IB && sp.ib_lanes > 0 && sp.ib_lane_gbps > 0) {
		snprintf(be->link_ib, sizeof(be->link_ib), "%s", sp.ib_name[0] ? sp.ib_name : "IB");
		be->link_ib_lanes = sp.ib_lanes;
		be->link_ib_lane_gbps = sp.ib_lane_gbps;
	}
	return 0;
}

static int get_bool(struct req *r, const char *key, int *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1", NULL };
	static const char *const no[] = { "false", "no", "off", "0", NULL };
	const char *v = get(r, key);
	int i;

	if (!v)
		return 0;
	for (i = 0; yes[i]; i++)
		if (!strcasecmp(v, yes[i])) {
			*out = 1;
			return 0;
		}
	for (i = 0; no[i]; i++)
		if (!strcasecmp(v, no[i])) {
			*out = 0;
			return 0;
		}
	return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit_reader_name(&r->rd), 0, 0,
				      "'%.32s' is not on/off (true, false, yes, no)", v));
}

/* The settings that are not fields of the input: what the spec asks for, read before it is checked. */
struct asked {
	long gpus, nodes;
	int front, nofront, oobon, nooob, inl, norail;
};

/* The nodes and their back end, in the order the options are listed. */
static int read_backend(struct req *r, struct nicfit_cluster_input *in, struct asked *a)
{
	struct nicfit_cluster_net_input *be = &in->net[NICFIT_NET_BACKEND];
	int rc;

	if ((rc = get_long(r, "nodes", 1, NICFIT_CLUSTER_MAX_NODES, &a->nodes)) ||
	    (rc = get_int(r, "racks", 1, NICFIT_CLUSTER_MAX_RACKS, &in->racks)) ||
	    (rc = get_long(r, "gpus", 1, NICFIT_CLUSTER_MAX_NODES * NICFIT_CLUSTER_MAX_GPUS, &a->gpus)) ||
	    (rc = get_int(r, "gpus_per_node", 0, NICFIT_CLUSTER_MAX_GPUS, &in->gpus_per_node)) ||
	    (rc = get_int(r, "nics_per_node", 0, NICFIT_CLUSTER_MAX_LINKS, &in->nics_per_node)) ||
	    (rc = get_int(r, "nic_ports", 1, NICFIT_CLUSTER_MAX_NIC_PORTS, &in->nic_ports)) ||
	    (rc = get_backend_speed(r, be)) ||
	    (rc = get_int(r, "radix", 2, NICFIT_CLUSTER_MAX_RADIX, &be->radix)) ||
	    (rc = get_speed(r, "switch_gbps", &be->switch_gbps)) ||
	    (rc = get_bool(r, "rail_optimized", &be->rail_optimized)) ||
	    (rc = get_bool(r, "no_rail_optimized", &a->norail)) ||
	    (rc = get_bool(r, "rail_only", &be->rail_only)) ||
	    (rc = get_ratio(r, "oversubscription", &be->oversubscription)) ||
	    (rc = get_int(r, "planes", 1, NICFIT_CLUSTER_MAX_PLANES, &be->planes)) ||
	    (rc = get_int(r, "tiers", 1, 3, &be->min_tiers)) ||
	    (rc = get_bool(r, "breakout", &be->breakout)) ||
	    (rc = get_int(r, "nodes_per_rack", 1, NICFIT_CLUSTER_MAX_NODES_PER_RACK,
			  &in->nodes_per_rack)))
		return rc;
	return 0;
}

/* The front end, the OOB network and the storage network. */
static int read_other_nets(struct req *r, struct nicfit_cluster_input *in, struct asked *a)
{
	struct nicfit_cluster_net_input *fe = &in->net[NICFIT_NET_FRONTEND];
	struct nicfit_cluster_net_input *oob = &in->net[NICFIT_NET_OOB];
	int rc;

	if ((rc = get_bool(r, "frontend", &a->front)) ||
	    (rc = get_bool(r, "no_frontend", &a->nofront)) ||
	    (rc = get_int(r, "frontend_links", 1, 4, &fe->links_per_node)) ||
	    (rc = get_speed(r, "frontend_gbps", &fe->link_gbps)) ||
	    (rc = get_int(r, "frontend_radix", 2, NICFIT_CLUSTER_MAX_RADIX, &fe->radix)) ||
	    (rc = get_ratio(r, "frontend_oversubscription", &fe->oversubscription)) ||
	    (rc = get_int(r, "frontend_uplinks", 0, NICFIT_CLUSTER_MAX_RADIX, &in->frontend_uplinks)) ||
	    (rc = get_bool(r, "oob", &a->oobon)) ||
	    (rc = get_bool(r, "no_oob", &a->nooob)) ||
	    (rc = get_int(r, "oob_radix", 2, NICFIT_CLUSTER_MAX_RADIX, &oob->radix)) ||
	    (rc = get_int(r, "oob_uplinks", 1, 64, &oob->uplinks)) ||
	    (rc = get_bool(r, "mgmt_ports", &in->mgmt_ports)) ||
	    (rc = get_bool(r, "port_map", &a->inl)) ||
	    (rc = get_speed(r, "storage_gbps", &in->storage.node_gbps)) ||
	    (rc = get_long(r, "storage_nodes", 1, NICFIT_CLUSTER_MAX_NODES, &in->storage.servers)) ||
	    (rc = get_speed(r, "storage_link_gbps", &in->storage.link_gbps)) ||
	    (rc = get_int(r, "storage_radix", 2, NICFIT_CLUSTER_MAX_RADIX, &in->storage.radix)) ||
	    (rc = get_ratio(r, "storage_oversubscription", &in->storage.oversubscription)))
		return rc;
	return 0;
}

/*
 * A training checkpoint of --checkpoint-tb TB saved within --checkpoint-stall
 * seconds, every node writing its shard (plan --checkpoint-stall works the
 * size out: its JSON checkpoint.bytes): each node needs TB x 8000 / nodes /
 * seconds Gb/s to storage, and the storage network is sized for the larger
 * of that and --storage-gbps (docs/reference/storage-checkpoints.md).
 */
static int read_checkpoint(struct req *r, struct nicfit_cluster_input *in)
{
	const char *tb = get(r, "checkpoint_tb"), *st;
	double t, s, g;
	int rc;

	if (tb && (rc = fix(r, nicfit_parse_double(tb, nicfit_reader_name(&r->rd), 0.001, 1e6, &t, r->err))))
		return rc;
	st = get(r, "checkpoint_stall");
	if (st && (rc = fix(r, nicfit_parse_double(st, nicfit_reader_name(&r->rd), 0.01, 1e8, &s, r->err))))
		return rc;
	if (!tb != !st)
		return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit_reader_name(&r->rd), 0, 0,
					      "give --checkpoint-tb and --checkpoint-stall together"));
	if (!tb)
		return 0;
	g = t * 8000 / (double)in->nodes / s;
	if (g > NICFIT_CLUSTER_MAX_GBPS * 64.0)
		return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit_reader_name(&r->rd), 0, 0,
					      "%.4g Gb/s a node to storage is beyond any network", g));
	if (g > in->storage.node_gbps)
		in->storage.node_gbps = g;
	return 0;
}

/*
 * The node count: --nodes, or --gpus over the GPUs per node (rounded up),
 * one of the two and not both; the NICs per node default to the GPUs per
 * node, and the back-end links per node are bounded.
 */
static int count_nodes(struct req *r, struct nicfit_spec *spec, struct nicfit_cluster_input *in,
		       const struct asked *a)
{
	long nodes = a->nodes;

	if (in->racks && (nodes || a->gpus))
		return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, optname(r, "racks"), 0, 0,
					      "give the rack count or the %s count, not both",
					      nodes ? "node" : "GPU"));
	if (in->racks && !in->server_id)
		return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, optname(r, "racks"), 0, 0,
					      "--racks counts racks of a rack-scale server: give "
					      "--server (gb200-nvl72, gb300-nvl72)"));
	if (in->racks) /* the server's trays a rack: nicfit_cluster_input_server() */
		return 0;
	if (!nodes && !a->gpus) {
		/* a missing setting has no position: the error names the input */
		r->rd.key = NULL;
		return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, spec->input, 0, 0,
					      "give %s (or %s)", spec->from_data ? "nodes" : "--nodes",
					      spec->from_data ? "gpus" : "--gpus"));
	}
	if (nodes && a->gpus)
		return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, optname(r, "gpus"), 0, 0,
					      "give the node count or the GPU count, not both"));
	if (a->gpus) {
		if (in->gpus_per_node < 1)
			return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, optname(r, "gpus_per_node"),
						      0, 0, "--gpus needs at least one GPU per node"));
		nodes = (a->gpus + in->gpus_per_node - 1) / in->gpus_per_node;
		if (nodes > NICFIT_CLUSTER_MAX_NODES)
			return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, optname(r, "gpus"), 0, 0,
						      "more than %ld nodes", NICFIT_CLUSTER_MAX_NODES));
	}
	in->nodes = nodes;
	if (!nicfit_spec_get(spec, "nics_per_node") && in->gpus_per_node > 0)
		in->nics_per_node = in->gpus_per_node;
	if (in->nics_per_node * in->nic_ports > NICFIT_CLUSTER_MAX_LINKS)
		return fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
					      optname(r, nicfit_spec_get(spec, "nic_ports") ?
						      "nic_ports" : "nics_per_node"), 0, 0,
					      "at most %d back-end links per node",
					      NICFIT_CLUSTER_MAX_LINKS));
	return 0;
}

int nicfit_cluster_input_from_spec(struct nicfit_spec *spec, struct nicfit_cluster_input *in,
				   int *port_map_inline, struct nicfit_error *err)
{
	struct nicfit_cluster_net_input *be = &in->net[NICFIT_NET_BACKEND];
	struct asked a = { .front = 1, .oobon = 1 };
	struct req r;
	int rc, radix_given;
	size_t i, na;

	memset(&r, 0, sizeof(r));
	nicfit_reader_init(&r.rd, spec, err);
	r.err = err;
	nicfit_cluster_input_default(in);
	in->nic_id = nicfit_spec_get(spec, "nic");
	in->gpu_id = nicfit_spec_get(spec, "gpu");
	in->server_id = nicfit_spec_get(spec, "server");
	in->backend_from_gpu = in->gpu_id && !in->nic_id && !nicfit_spec_get(spec, "nics_per_node") &&
			       !nicfit_spec_get(spec, "nic_ports") && !nicfit_spec_get(spec, "nic_gbps");
	be->switch_id = nicfit_spec_get(spec, "switch");
	in->net[NICFIT_NET_FRONTEND].switch_id = nicfit_spec_get(spec, "frontend_switch");
	in->net[NICFIT_NET_OOB].switch_id = nicfit_spec_get(spec, "oob_switch");
	in->storage.switch_id = nicfit_spec_get(spec, "storage_switch");
	radix_given = nicfit_spec_get(spec, "radix") != NULL;
	if ((rc = read_backend(&r, in, &a)) || (rc = read_other_nets(&r, in, &a)))
		return rc;
	if (nicfit_spec_get(spec, "storage_radix") && in->storage.switch_id)
		return fix(&r, nicfit_error_at(err, NICFIT_E_USAGE, optname(&r, "storage_radix"), 0, 0,
					       "give a storage switch or a radix, not both"));
	if ((rc = count_nodes(&r, spec, in, &a)) || (rc = read_checkpoint(&r, in)))
		return rc;
	if (radix_given && be->switch_id)
		return fix(&r, nicfit_error_at(err, NICFIT_E_USAGE, optname(&r, "radix"), 0, 0,
					       "give a switch or a radix, not both"));
	if (!a.front || a.nofront)
		in->net[NICFIT_NET_FRONTEND].links_per_node = 0;
	if (!a.oobon || a.nooob)
		in->net[NICFIT_NET_OOB].links_per_node = 0;
	if (a.norail && be->rail_optimized)
		return fix(&r, nicfit_error_at(err, NICFIT_E_USAGE, optname(&r, "no_rail_optimized"),
					       0, 0, "give --rail-optimized or --no-rail-optimized, "
					       "not both"));
	na = nicfit_spec_count(spec, "assume");
	for (i = 0; i < na; i++) {
		const char *v = nicfit_reader_get_nth(&r.rd, "assume", i);

		rc = nicfit_param_assign(nicfit_cluster_layout_table, nicfit_cluster_layout_count,
					 &in->layout, v, nicfit_reader_name(&r.rd), err);
		if (rc)
			return fix(&r, rc);
	}
	/* an unknown key names its own position already */
	rc = nicfit_spec_check_unused(spec, nicfit_cluster_spec_keys, err);
	if (rc)
		return rc;
	if (port_map_inline)
		*port_map_inline = a.inl;
	return 0;
}

/*
 * The defaults of the node's kind (core/node_kind_int.h, the rules plan
 * shares): an 8-GPU HGX/DGX baseboard node, as --gpus-per-node 8 or a
 * baseboard GPU (--gpu) says, gets a rail-optimized back end, two
 * north-south links to two switches at 200GbE (400GbE behind 800G
 * compute NICs) and dual-homed storage, as NVIDIA's HGX reference
 * architectures build it. Only what the request leaves out is set: an
 * option given keeps its value, and a front-end switch given sets the
 * front end's rate. A GPU or NIC the catalog does not hold is left for
 * the sizing to refuse.
 */
void nicfit_cluster_input_node_defaults(struct nicfit_spec *spec, const struct nicfit_catalog *cat,
					struct nicfit_cluster_input *in)
{
	struct nicfit_cluster_net_input *be = &in->net[NICFIT_NET_BACKEND];
	struct nicfit_cluster_net_input *fe = &in->net[NICFIT_NET_FRONTEND];
	const struct nicfit_gpu *g = NULL;
	const struct nicfit_nic *nic = NULL;
	struct nicfit_node_kind k;
	double gbps = be->link_gbps;

	if (in->gpu_id && !(cat && (g = nicfit_catalog_find_gpu(cat, in->gpu_id, NULL, NULL))))
		return;
	if (in->nic_id && cat)
		nic = nicfit_catalog_find_nic(cat, in->nic_id, NULL, NULL);
	if (!(gbps > 0) && nic)
		gbps = nic->port_gbps;
	nicfit_node_kind(g, in->gpus_per_node, gbps, &k);
	if (!k.baseboard || in->nics_per_node < 1)
		return;
	in->node_kind = k.source;
	if (!nicfit_spec_get(spec, "rail_optimized") && !nicfit_spec_get(spec, "no_rail_optimized") &&
	    !nicfit_spec_get(spec, "rail_only"))
		be->rail_optimized = k.rail_optimized;
	if (fe->links_per_node > 0 && !nicfit_spec_get(spec, "frontend_links"))
		fe->links_per_node = k.ns_links;
	if (fe->links_per_node > 0 && !nicfit_spec_get(spec, "frontend_gbps") &&
	    !nicfit_spec_get(spec, "frontend_switch"))
		fe->link_gbps = k.ns_gbps;
	in->storage.dual_homed = k.storage_dual_homed;
}
