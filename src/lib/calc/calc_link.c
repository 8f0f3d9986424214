/*
 * calc_link.c - the calculators of bytes over a network link: `calc link`
 * (a link's goodput under a protocol), `calc load` (a model's weights to a
 * server) and `calc allreduce` (a buffer reduced across nodes, ring, tree
 * or SHARP). The formulas are nicfit_link_calc(), nicfit_calc_load() and
 * nicfit_calc_allreduce(); this file reads the settings and shows them.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/link.h"
#include "nicfit/perf.h"
#include "nicfit/units.h"
#include "calc/calc_int.h"

/* ---- link ---------------------------------------------------------------- */

static void emit_link(struct nicfit_emit *e, const char *key, const struct nicfit_link_result *l)
{
	if (key)
		nicfit_emit_begin_object(e, key);
	nicfit_emit_string(e, "proto", nicfit_proto_name(l->proto));
	if (l->ib_name[0]) {
		nicfit_emit_stringf(e, "ib_rate", "%dx %s", l->ib_lanes, l->ib_name);
	} else {
		nicfit_emit_null(e, "ib_rate");
	}
	nicfit_emit_number(e, "line_gbps", l->line_gbps);
	nicfit_emit_number(e, "payload_bytes", l->payload_bytes);
	nicfit_emit_number(e, "overhead_bytes", l->overhead_bytes);
	nicfit_emit_number(e, "efficiency", l->efficiency);
	nicfit_emit_number(e, "goodput_gbps", l->goodput_gbps);
	nicfit_emit_number(e, "goodput_gBps", l->goodput_gbps / 8);
	if (key)
		nicfit_emit_end_object(e);
}

static const char *proto_long(enum nicfit_proto p)
{
	switch (p) {
	case NICFIT_PROTO_TCP: return "TCP/IPv4 over Ethernet";
	case NICFIT_PROTO_ROCE: return "RoCE v2 (RDMA over UDP/IPv4/Ethernet)";
	case NICFIT_PROTO_IB: return "InfiniBand RDMA";
	}
	return "?";
}

int nicfit__calc_run_link(struct req *r, struct nicfit_emit *e)
{
	static const char *const known[] = { "speed", "proto", "mtu", "assume", NULL };
	struct nicfit_link_params lp;
	struct nicfit_link_result res;
	struct nicfit_speed sp;
	struct nicfit_param_set tabs[1] = { { nicfit_link_param_table, nicfit_link_param_count, &lp } };
	enum nicfit_proto proto;
	double mtu;
	int rc;

	nicfit_link_params_default(&lp);
	if ((rc = nicfit__calc_get_link(r, "speed", 1, NICFIT_PROTO_TCP, &sp, &proto)) ||
	    (rc = nicfit__calc_get_double(r, "mtu", -1, 256, 9216, &mtu)) ||
	    (rc = nicfit__calc_apply_assume(r, tabs, 1)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	if (mtu > 0) {
		if (proto == NICFIT_PROTO_TCP) {
			lp.mtu = mtu;
		} else if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096) {
			return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "mtu"), 0, 0,
						      "RDMA path MTU must be 256, 512, 1024, 2048 or 4096"));
		} else {
			lp.rdma_mtu = mtu;
		}
	}
	rc = nicfit__calc_fix(r, nicfit_link_calc(&sp, proto, &lp, &res, r->err));
	if (rc)
		return rc;
	nicfit__calc_header(e, "link");
	emit_link(e, NULL, &res);
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		nicfit__calc_md_link(e, &res);
		return nicfit__calc_done(e, tabs, 1);
	}
	if (res.ib_name[0])
		nicfit_emit_printf(e, "%dx %s InfiniBand: %g Gb/s data rate\n", res.ib_lanes,
				   res.ib_name, res.line_gbps);
	else
		nicfit_emit_printf(e, "%g Gb/s Ethernet carrying %s\n", res.line_gbps,
				   proto_long(proto));
	nicfit_emit_printf(e, "  per packet  %g B payload + %g B headers, trailers and gaps (%.2f%%)\n",
			   res.payload_bytes, res.overhead_bytes, res.efficiency * 100);
	nicfit_emit_printf(e, "  goodput     %.2f Gb/s = %.3f GB/s per direction\n",
			   res.goodput_gbps, res.goodput_gbps / 8);
	nicfit__calc_assumptions(e, tabs, 1);
	nicfit_emit_end_object(e);
	return 0;
}

/* ---- load ---------------------------------------------------------------- */

int nicfit__calc_run_load(struct req *r, struct nicfit_emit *e)
{
	static const char *const known[] = { "size", "precision", "link", "storage_gbps", "proto",
		"mtu", "assume", NULL };
	struct nicfit_link_params lp;
	struct nicfit_load res;
	struct nicfit_speed sp;
	struct nicfit__calc_size z;
	struct nicfit_param_set tabs[2] = { { nicfit_link_param_table, nicfit_link_param_count, &lp } };
	enum nicfit_proto proto;
	double bytes, storage, mtu;
	char b1[32], b2[32];
	int rc, ntabs;

	nicfit_link_params_default(&lp);
	if ((rc = nicfit__calc_size_get(r, "size", &z)))
		return rc;
	ntabs = 1 + nicfit__calc_size_tabs(&z, &tabs[1]);
	if ((rc = nicfit__calc_get_link(r, "link", 1, NICFIT_PROTO_TCP, &sp, &proto)) ||
	    (rc = nicfit__calc_get_double(r, "storage_gbps", 0, 0, 100000, &storage)) ||
	    (rc = nicfit__calc_get_double(r, "mtu", -1, 576, 9216, &mtu)) ||
	    (rc = nicfit__calc_apply_assume(r, tabs, (size_t)ntabs)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	nicfit__calc_size_bytes(&z);
	bytes = z.bytes;
	if (mtu > 0)
		lp.mtu = mtu;
	rc = nicfit__calc_fix(r, nicfit_calc_load(bytes, &sp, proto, storage, &lp, &res, r->err));
	if (rc)
		return rc;
	nicfit__calc_header(e, "load");
	nicfit__calc_size_emit(e, &z);
	nicfit_emit_number(e, "seconds", res.seconds);
	nicfit_emit_string(e, "bottleneck", res.bottleneck);
	nicfit_emit_number(e, "rate_gbps", res.rate_gbps);
	nicfit_emit_number(e, "rate_gBps", res.rate_gbps / 8);
	nicfit_emit_number(e, "network_gbps", res.network_gbps);
	if (storage > 0)
		nicfit_emit_number(e, "storage_gbps", storage);
	else
		nicfit_emit_null(e, "storage_gbps");
	emit_link(e, "link", &res.link);
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		nicfit__calc_md_load(e, &z, &res, storage);
		return nicfit__calc_done(e, tabs, ntabs);
	}
	nicfit_emit_printf(e, "%s over %g Gb/s %s: %s\n", nicfit_fmt_bytes(bytes, b1, sizeof(b1)),
			   res.link.line_gbps, nicfit_proto_name(proto),
			   nicfit_fmt_seconds(res.seconds, b2, sizeof(b2)));
	nicfit__calc_size_explain(e, &z, "weights");
	nicfit_emit_printf(e, "  rate        %.2f Gb/s = %.3f GB/s, limited by the %s\n",
			   res.rate_gbps, res.rate_gbps / 8, res.bottleneck);
	nicfit_emit_printf(e, "  network     %.2f Gb/s goodput (%.2f%% of the line rate)\n",
			   res.network_gbps, res.link.efficiency * 100);
	if (storage > 0)
		nicfit_emit_printf(e, "  storage     %.2f Gb/s\n", storage);
	else
		nicfit_emit_printf(e, "  storage     assumed to keep up (set --storage-gbps; NFS without\n"
				      "              tuned readahead or a single-threaded loader is often slower)\n");
	nicfit__calc_assumptions(e, tabs, ntabs);
	nicfit_emit_end_object(e);
	return 0;
}

/* ---- allreduce ----------------------------------------------------------- */

/* A yes/no setting: true, yes, 1 or false, no, 0. */
static const char *algo_long(const char *a)
{
	return !strcmp(a, "tree") ? "Tree" : !strcmp(a, "sharp") ? "SHARP (in-network)" : "Ring";
}

int nicfit__calc_run_allreduce(struct req *r, struct nicfit_emit *e)
{
	static const char *const known[] = { "size", "precision", "nodes", "link", "proto",
		"nics_per_node", "mtu", "sharp", "assume", NULL };
	struct nicfit_link_params lp;
	struct nicfit_allreduce_params ap;
	struct nicfit_allreduce res;
	struct nicfit_speed sp;
	struct nicfit__calc_size z;
	struct nicfit_param_set tabs[3] = { { nicfit_link_param_table, nicfit_link_param_count, &lp },
				{ nicfit_allreduce_param_table, nicfit_allreduce_param_count, &ap } };
	enum nicfit_proto proto;
	double bytes, mtu;
	long nodes, nics;
	char b1[32], b2[32], b3[32];
	int rc, sharp, ntabs;

	nicfit_link_params_default(&lp);
	nicfit_allreduce_params_default(&ap);
	if ((rc = nicfit__calc_size_get(r, "size", &z)))
		return rc;
	ntabs = 2 + nicfit__calc_size_tabs(&z, &tabs[2]);
	if ((rc = nicfit__calc_get_long(r, "nodes", 2, 2, 1000000, &nodes)) ||
	    (rc = nicfit__calc_get_link(r, "link", 1, NICFIT_PROTO_ROCE, &sp, &proto)) ||
	    (rc = nicfit__calc_get_long(r, "nics_per_node", 1, 1, 64, &nics)) ||
	    (rc = nicfit__calc_get_double(r, "mtu", -1, 256, 9216, &mtu)) ||
	    (rc = nicfit__calc_get_bool(r, "sharp", &sharp)) ||
	    (rc = nicfit__calc_apply_assume(r, tabs, (size_t)ntabs)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	nicfit__calc_size_bytes(&z);
	bytes = z.bytes;
	if (sharp && proto != NICFIT_PROTO_IB)
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "sharp"), 0, 0,
					      "SHARP reduces in InfiniBand switches: use --proto ib"));
	ap.in_network = sharp;
	if (mtu > 0) {
		if (proto == NICFIT_PROTO_TCP)
			lp.mtu = mtu;
		else
			lp.rdma_mtu = mtu;
	}
	rc = nicfit__calc_fix(r, nicfit_calc_allreduce(bytes, (int)nodes, (int)nics, &sp, proto, 0, &lp, &ap,
					  &res, r->err));
	if (rc)
		return rc;
	nicfit__calc_header(e, "allreduce");
	nicfit__calc_size_emit(e, &z);
	nicfit_emit_int(e, "nodes", nodes);
	nicfit_emit_int(e, "nics_per_node", nics);
	nicfit_emit_string(e, "algorithm", res.algorithm);
	nicfit_emit_number(e, "factor", res.factor);
	nicfit_emit_number(e, "bytes_per_node_gb", res.bytes_per_node / 1e9);
	nicfit_emit_number(e, "node_gbps", res.node_gbps);
	nicfit_emit_number(e, "seconds", res.seconds);
	nicfit_emit_number(e, "latency_s", res.latency_s);
	nicfit_emit_number(e, "ring_s", res.ring_s);
	nicfit_emit_number(e, "tree_s", res.tree_s);
	if (sharp)
		nicfit_emit_number(e, "sharp_s", res.sharp_s);
	else
		nicfit_emit_null(e, "sharp_s");
	nicfit_emit_number(e, "algbw_gbps", res.algbw_gbps);
	nicfit_emit_number(e, "busbw_gbps", res.busbw_gbps);
	emit_link(e, "link", &res.link);
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		nicfit__calc_md_allreduce(e, &z, &res, sharp);
		return nicfit__calc_done(e, tabs, ntabs);
	}
	nicfit_emit_printf(e, "%s all-reduce of %s across %ld nodes: %s\n", algo_long(res.algorithm),
			   nicfit_fmt_bytes(bytes, b1, sizeof(b1)), nodes,
			   nicfit_fmt_seconds(res.seconds, b2, sizeof(b2)));
	nicfit__calc_size_explain(e, &z, "gradients");
	nicfit_emit_printf(e, "  each node sends 2(n-1)/n = %.3f x the buffer = %s in a ring\n",
			   res.factor, nicfit_fmt_bytes(res.bytes_per_node, b1, sizeof(b1)));
	nicfit_emit_printf(e, "  at %.1f Gb/s per node (%ld x %.1f Gb/s %s goodput)\n",
			   res.node_gbps, nics, res.link.goodput_gbps, nicfit_proto_name(proto));
	nicfit_emit_printf(e, "  ring %s (latency %s: 2(n-1) steps), tree %s (2 log2(n) steps)",
			   nicfit_fmt_seconds(res.ring_s, b1, sizeof(b1)),
			   nicfit_fmt_seconds(res.ring_latency_s, b2, sizeof(b2)),
			   nicfit_fmt_seconds(res.tree_s, b3, sizeof(b3)));
	if (sharp)
		nicfit_emit_printf(e, ", SHARP %s", nicfit_fmt_seconds(res.sharp_s, b1, sizeof(b1)));
	nicfit_emit_printf(e, ":\n  NCCL's tuning model picks the least: %s%s\n", res.algorithm,
			   res.latency_s > res.seconds / 2 ? " (the latency term dominates)" : "");
	nicfit_emit_printf(e, "  busbw %.1f Gb/s, algbw %.1f Gb/s (nccl-tests definitions)\n",
			   res.busbw_gbps, res.algbw_gbps);
	nicfit__calc_assumptions(e, tabs, ntabs);
	nicfit_emit_end_object(e);
	return 0;
}
