/*
 * verify_render.c - the verify document: the verdict first, then each
 * input with what was read from it and its judgement (measured, ceiling
 * and its arithmetic, ratio), then the findings, worst first, each with
 * the line it rests on and its fix. Text and Markdown are one view, JSON
 * (nicfit.verify.v1, docs/json-verify.md) the other.
 */
#include <stdio.h>
#include <string.h>

#include "verify/verify_int.h"

static void num_or_null(struct nicfit_emit *e, const char *key, double v)
{
	if (v < 0)
		nicfit_emit_null(e, key);
	else
		nicfit_emit_number(e, key, v);
}

static void str_or_null(struct nicfit_emit *e, const char *key, const char *s)
{
	if (s && *s)
		nicfit_emit_string(e, key, s);
	else
		nicfit_emit_null(e, key);
}

/*
 * How bad a verdict is: above line rate is a warning (the input or the
 * expectation is wrong, not the network), between low and far below.
 */
static int verdict_rank(enum nicfit_verify_verdict k)
{
	switch (k) {
	case NICFIT_VERDICT_NONE: return 0;
	case NICFIT_VERDICT_OK: return 1;
	case NICFIT_VERDICT_LOW: return 2;
	case NICFIT_VERDICT_ABOVE_LINE: return 3;
	case NICFIT_VERDICT_FAR_BELOW: return 4;
	}
	return 0;
}

static enum nicfit_verify_verdict worst_verdict(const struct nicfit_verify *v)
{
	enum nicfit_verify_verdict w = NICFIT_VERDICT_NONE;
	size_t i;

	for (i = 0; i < v->ndocs; i++)
		if (verdict_rank(v->docs[i].verdict) > verdict_rank(w))
			w = v->docs[i].verdict;
	return w;
}

/* ---- JSON ----------------------------------------------------------------- */

/* The launcher line's counts, null when the input has none. */
static void json_launch(struct nicfit_emit *e, const struct nicfit_launch *L)
{
	if (!L->tool[0]) {
		nicfit_emit_null(e, "launcher");
		return;
	}
	nicfit_emit_begin_object(e, "launcher");
	nicfit_emit_string(e, "tool", L->tool);
	if (L->procs)
		nicfit_emit_int(e, "processes", L->procs);
	else
		nicfit_emit_null(e, "processes");
	if (L->nodes)
		nicfit_emit_int(e, "nodes", L->nodes);
	else
		nicfit_emit_null(e, "nodes");
	if (L->per_node)
		nicfit_emit_int(e, "per_node", L->per_node);
	else
		nicfit_emit_null(e, "per_node");
	nicfit_emit_int(e, "gpus_per_process", L->gpus_per_proc > 0 ? L->gpus_per_proc : 1);
	nicfit_emit_bool(e, "hostfile", L->hostfile);
	nicfit_emit_int(e, "line", L->line);
	nicfit_emit_end_object(e);
}

static void json_tests(struct nicfit_emit *e, const struct nicfit_nccl_tests *t)
{
	size_t i;

	str_or_null(e, "collective", t->collective);
	str_or_null(e, "op", t->op);
	nicfit_emit_int(e, "ranks", t->nranks);
	nicfit_emit_int(e, "nodes", t->nodes);
	str_or_null(e, "ranks_from", t->ranks_from);
	str_or_null(e, "nodes_from", t->nodes_from);
	json_launch(e, &t->launch);
	str_or_null(e, "gpu", t->gpu);
	str_or_null(e, "nccl_version", t->version);
	nicfit_emit_number(e, "bus_factor", t->bus_factor);
	nicfit_emit_int(e, "jobs", t->jobs > 1 ? t->jobs : 1);
	if (t->nrows) {
		const struct nicfit_nccl_row *p = &t->rows[t->peak];

		nicfit_emit_begin_object(e, "peak");
		nicfit_emit_number(e, "bytes", p->bytes);
		nicfit_emit_number(e, "busbw_gbytes_s", p->busbw[t->peak_inplace]);
		nicfit_emit_number(e, "algbw_gbytes_s", p->algbw[t->peak_inplace]);
		nicfit_emit_bool(e, "in_place", t->peak_inplace);
		nicfit_emit_int(e, "line", p->line);
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "peak");
	}
	num_or_null(e, "avg_busbw_gbytes_s", t->avg_busbw);
	if (t->avg_ok < 0)
		nicfit_emit_null(e, "avg_busbw_ok");
	else
		nicfit_emit_bool(e, "avg_busbw_ok", t->avg_ok);
	nicfit_emit_int(e, "wrong", t->wrong);
	nicfit_emit_bool(e, "truncated", t->truncated);
	nicfit_emit_begin_array(e, "rows");
	for (i = 0; i < t->nrows; i++) {
		const struct nicfit_nccl_row *r = &t->rows[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_number(e, "bytes", r->bytes);
		nicfit_emit_string(e, "type", r->type);
		nicfit_emit_string(e, "redop", r->redop);
		num_or_null(e, "time_us", r->time_us[0]);
		num_or_null(e, "algbw_gbytes_s", r->algbw[0]);
		num_or_null(e, "busbw_gbytes_s", r->busbw[0]);
		num_or_null(e, "in_place_time_us", r->time_us[1]);
		num_or_null(e, "in_place_algbw_gbytes_s", r->algbw[1]);
		num_or_null(e, "in_place_busbw_gbytes_s", r->busbw[1]);
		nicfit_emit_int(e, "line", r->line);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static void int_or_null(struct nicfit_emit *e, const char *k, long long v, int known)
{
	if (known)
		nicfit_emit_int(e, k, v);
	else
		nicfit_emit_null(e, k);
}

/* The per-device queue pairs of NCCL's NET/IB connection lines. */
static void json_qps(struct nicfit_emit *e, const struct nicfit_nccl_log *g)
{
	char gt[48];
	size_t i;

	nicfit_emit_begin_array(e, "qps");
	for (i = 0; i < g->nqps; i++) {
		const struct nicfit_nccl_qp *q = &g->qps[i];

		nicfit_emit_begin_object(e, NULL);
		str_or_null(e, "host", q->host);
		int_or_null(e, "dev", q->dev, q->dev >= 0);
		int_or_null(e, "ib_dev", q->ibdev, q->ibdev >= 0);
		int_or_null(e, "port", q->port, q->port > 0);
		nicfit_emit_string(e, "link_layer", q->ib ? "IB" : "RoCE");
		int_or_null(e, "mtu_bytes", nicfit__ibv_mtu_bytes(q->mtu), q->mtu > 0);
		int_or_null(e, "gid_index", q->gid_index, q->gid_index >= 0);
		nicfit__gid_text(q, gt, sizeof(gt));
		str_or_null(e, "gid", gt);
		if (nicfit_gid_kind_name(q->gid_kind))
			nicfit_emit_string(e, "gid_kind", nicfit_gid_kind_name(q->gid_kind));
		else
			nicfit_emit_null(e, "gid_kind");
		nicfit_emit_int(e, "qp_lines", (long long)q->nlines);
		nicfit_emit_int(e, "line", q->line);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

/* NCCL's own node count, separate jobs, mixed link layers, per-GPU GDR lines */
static void json_log_run(struct nicfit_emit *e, const struct nicfit_nccl_log *g)
{
	size_t i;

	if (g->nnodes > 0) {
		nicfit_emit_int(e, "nodes", g->nnodes);
		nicfit_emit_int(e, "local_ranks", g->local_ranks);
	} else {
		nicfit_emit_null(e, "nodes");
		nicfit_emit_null(e, "local_ranks");
	}
	nicfit_emit_begin_array(e, "nic_distances");
	for (i = 0; i < g->nnic_dist; i++) {
		const struct nicfit_nccl_nic_dist *x = &g->nic_dist[i];
		int k;

		nicfit_emit_begin_object(e, NULL);
		str_or_null(e, "host", x->host);
		nicfit_emit_int(e, "gpu", x->gpu);
		nicfit_emit_begin_array(e, "paths");
		for (k = 0; k < x->npaths; k++)
			nicfit_emit_string(e, NULL, x->paths[k]);
		nicfit_emit_end_array(e);
		nicfit_emit_int(e, "line", x->line);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_int(e, "separate_jobs", g->jobs);
	nicfit_emit_bool(e, "mixed_link_layers", g->ib_mixed_links);
	nicfit_emit_begin_array(e, "gdr_gpus");
	for (i = 0; i < g->ngdr_gpus; i++) {
		const struct nicfit_nccl_gdr_gpu *x = &g->gdr_gpus[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "gpu", x->gpu);
		if (x->hca >= 0)
			nicfit_emit_int(e, "hca", x->hca);
		else
			nicfit_emit_null(e, "hca");
		str_or_null(e, "hca_name", x->hca_name);
		nicfit_emit_bool(e, "gdr", x->on);
		str_or_null(e, "reason", x->reason);
		nicfit_emit_int(e, "line", x->line);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static void json_log(struct nicfit_emit *e, const struct nicfit_nccl_log *g)
{
	size_t i;

	nicfit_emit_string(e, "library", g->rccl ? "RCCL" : "NCCL");
	str_or_null(e, "nccl_version", g->version);
	str_or_null(e, "network", g->network);
	str_or_null(e, "plugin", g->plugin);
	str_or_null(e, "ofi_provider", g->ofi_provider);
	str_or_null(e, "ofi_fabric", g->ofi_fabric);
	if (g->ofi_nics > 0)
		nicfit_emit_int(e, "ofi_nics", g->ofi_nics);
	else
		nicfit_emit_null(e, "ofi_nics");
	nicfit_emit_bool(e, "ib_no_device", g->ib_no_device);
	nicfit_emit_bool(e, "libibverbs_missing", g->no_ibverbs);
	str_or_null(e, "socket_interfaces", g->socket_ifs);
	str_or_null(e, "bootstrap_interface", g->bootstrap_if);
	nicfit_emit_bool(e, "relaxed_ordering", g->relaxed_ordering);
	nicfit_emit_begin_array(e, "hcas");
	for (i = 0; i < g->nhcas; i++) {
		const struct nicfit_nccl_hca *h = &g->hcas[i];

		nicfit_emit_begin_object(e, NULL);
		str_or_null(e, "name", h->name);
		nicfit_emit_int(e, "port", h->port);
		str_or_null(e, "link_layer", h->link);
		if (h->gdr < 0)
			nicfit_emit_null(e, "gdr");
		else
			nicfit_emit_bool(e, "gdr", h->gdr);
		str_or_null(e, "gdr_reason", h->gdr_reason);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	json_qps(e, g);
	nicfit_emit_begin_object(e, "channels");
	nicfit_emit_int(e, "net", (long long)g->chan_net);
	nicfit_emit_int(e, "net_gdrdma", (long long)g->chan_gdr);
	nicfit_emit_int(e, "p2p", (long long)g->chan_p2p);
	nicfit_emit_int(e, "shm", (long long)g->chan_shm);
	nicfit_emit_int(e, "nvls", (long long)g->chan_nvls);
	nicfit_emit_int(e, "rings", g->nrings);
	nicfit_emit_int(e, "trees", g->ntrees);
	nicfit_emit_int(e, "coll_channels", g->coll_channels);
	nicfit_emit_end_object(e);
	nicfit_emit_int(e, "ranks", g->nranks);
	str_or_null(e, "ranks_from", g->ranks_from);
	nicfit_emit_int(e, "ranks_at_least", g->ranks_at_least);
	json_launch(e, &g->launch);
	nicfit_emit_int(e, "hosts", (long long)g->nhosts);
	json_log_run(e, g);
	nicfit_emit_begin_object(e, "env");
	for (i = 0; i < g->nenv; i++)
		nicfit_emit_string(e, g->env[i].name, g->env[i].value);
	nicfit_emit_end_object(e);
	nicfit_emit_int(e, "warnings", (long long)g->nwarns);
}

static void json_doc(struct nicfit_emit *e, const struct nicfit_verify_doc *d)
{
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "input", d->input);
	nicfit_emit_string(e, "kind", nicfit_verify_kind_name(d->kind));
	switch (d->kind) {
	case NICFIT_VERIFY_NCCL_TESTS:
		json_tests(e, &d->u.t);
		break;
	case NICFIT_VERIFY_NCCL_LOG:
		json_log(e, &d->u.log);
		break;
	case NICFIT_VERIFY_PERFTEST:
		str_or_null(e, "test", d->u.pt.test);
		str_or_null(e, "device", d->u.pt.device);
		str_or_null(e, "link_type", d->u.pt.link_type);
		int_or_null(e, "mtu", d->u.pt.mtu, d->u.pt.mtu > 0);
		int_or_null(e, "gid_index", d->u.pt.gid_index, d->u.pt.gid_index >= 0);
		int_or_null(e, "qps", d->u.pt.qps, d->u.pt.qps > 0);
		nicfit_emit_number(e, "bytes", d->u.pt.bytes);
		num_or_null(e, "bw_average_gbps", d->u.pt.latency ? -1 : d->u.pt.bw_avg_gbps);
		num_or_null(e, "latency_typical_us", d->u.pt.lat_typical_us);
		num_or_null(e, "latency_avg_us", d->u.pt.lat_avg_us);
		str_or_null(e, "gpu_memory", d->u.pt.gpu_mem);
		str_or_null(e, "gpu", d->u.pt.gpu);
		nicfit_emit_bool(e, "dmabuf", d->u.pt.dmabuf);
		break;
	case NICFIT_VERIFY_IPERF3:
	case NICFIT_VERIFY_IPERF2:
		nicfit_emit_bool(e, "json", d->u.ip.json);
		nicfit_emit_bool(e, "cut", d->u.ip.cut);
		nicfit_emit_bool(e, "bidir", d->u.ip.bidir);
		nicfit_emit_bool(e, "sum", d->u.ip.sum);
		nicfit_emit_int(e, "intervals", d->u.ip.intervals);
		str_or_null(e, "version", d->u.ip.version);
		nicfit_emit_int(e, "streams", d->u.ip.streams);
		nicfit_emit_string(e, "protocol", d->u.ip.udp ? "UDP" : "TCP");
		nicfit_emit_number(e, "duration_s", d->u.ip.duration_s);
		num_or_null(e, "sender_gbps", d->u.ip.sender_gbps);
		num_or_null(e, "receiver_gbps", d->u.ip.receiver_gbps);
		if (d->u.ip.retransmits < 0)
			nicfit_emit_null(e, "retransmits");
		else
			nicfit_emit_int(e, "retransmits", d->u.ip.retransmits);
		nicfit_emit_int(e, "retransmits_intervals", d->u.ip.retr_intervals);
		if (d->u.ip.datagrams > 0) {
			nicfit_emit_int(e, "datagrams", d->u.ip.datagrams);
			nicfit_emit_int(e, "lost_datagrams", d->u.ip.lost);
		} else {
			nicfit_emit_null(e, "datagrams");
			nicfit_emit_null(e, "lost_datagrams");
		}
		num_or_null(e, "jitter_ms", d->u.ip.jitter_ms);
		break;
	case NICFIT_VERIFY_NCCL_TOPO:
		nicfit_emit_int(e, "version", d->u.topo.version);
		nicfit_emit_int(e, "cpus", d->u.topo.cpus);
		nicfit_emit_int(e, "pci", d->u.topo.pci);
		nicfit_emit_int(e, "gpus", d->u.topo.gpus);
		nicfit_emit_int(e, "nics", d->u.topo.nics);
		nicfit_emit_int(e, "nets", d->u.topo.nets);
		nicfit_emit_int(e, "gdr_nets", d->u.topo.gdr_nets);
		num_or_null(e, "net_speed_mbps", d->u.topo.net_speed_mbps > 0 ?
			    d->u.topo.net_speed_mbps : -1);
		break;
	}
	nicfit_emit_begin_object(e, "judgement");
	str_or_null(e, "measured", d->what);
	num_or_null(e, "measured_gbps", d->measured_gbps);
	num_or_null(e, "expected_gbps", d->expected_gbps);
	str_or_null(e, "ceiling", d->arith);
	num_or_null(e, "ratio", d->expected_gbps > 0 ? d->ratio : -1);
	nicfit_emit_string(e, "verdict", nicfit_verdict_name(d->verdict));
	nicfit_emit_end_object(e);
	nicfit_emit_end_object(e);
}

static void render_json(const struct nicfit_verify *v, struct nicfit_emit *e)
{
	const struct nicfit_verify_expect *x = &v->expect;
	size_t i;

	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.verify.v1");
	nicfit_emit_string(e, "verdict", nicfit_verdict_name(worst_verdict(v)));
	nicfit_emit_int(e, "exit_code", nicfit_verify_exit_code(v));
	nicfit_emit_begin_object(e, "expectation");
	str_or_null(e, "source", x->source);
	nicfit_emit_int(e, "nodes", x->nodes);
	nicfit_emit_int(e, "gpus_per_node", x->gpus_per_node);
	nicfit_emit_int(e, "nics_per_node", x->nics_per_node);
	num_or_null(e, "link_gbps", x->link.gbps > 0 ? x->link.gbps : -1);
	num_or_null(e, "pcie_gbps", x->pcie_gbps > 0 ? x->pcie_gbps : -1);
	str_or_null(e, "gpu_nic_path", x->path);
	nicfit_emit_int(e, "gpus_without_gdr", x->gpus_without_gdr);
	nicfit_emit_number(e, "low_ratio", x->low_ratio > 0 ? x->low_ratio : NICFIT_VERIFY_LOW_RATIO);
	nicfit_emit_number(e, "far_ratio", x->far_ratio > 0 ? x->far_ratio : NICFIT_VERIFY_FAR_RATIO);
	nicfit_emit_end_object(e);
	nicfit_emit_begin_array(e, "inputs");
	for (i = 0; i < v->ndocs; i++)
		json_doc(e, &v->docs[i]);
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "findings");
	for (i = 0; i < v->findings.n; i++) {
		const struct nicfit_finding *f = &v->findings.v[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "severity", nicfit_severity_name(f->severity));
		nicfit_emit_string(e, "code", f->code);
		str_or_null(e, "device", f->device);
		nicfit_emit_string(e, "message", f->message);
		str_or_null(e, "fix", f->fix);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
}

/* ---- text and Markdown ----------------------------------------------------- */

/* "  launcher (line 1): mpirun, 16 processes, 2 nodes, 8 a node, ..." */
static void text_launch(struct nicfit_emit *e, const struct nicfit_launch *L)
{
	if (!L->tool[0])
		return;
	nicfit_emit_printf(e, "  launcher (line %ld): %s", L->line, L->tool);
	if (L->procs)
		nicfit_emit_printf(e, ", %d process%s", L->procs, L->procs == 1 ? "" : "es");
	if (L->nodes)
		nicfit_emit_printf(e, ", %d node%s", L->nodes, L->nodes == 1 ? "" : "s");
	if (L->per_node)
		nicfit_emit_printf(e, ", %d a node", L->per_node);
	if (L->gpus_per_proc > 1)
		nicfit_emit_printf(e, ", %d GPUs a process (-t x -g)", L->gpus_per_proc);
	if (L->hostfile)
		nicfit_emit_printf(e, ", hosts in a hostfile the paste does not show");
	nicfit_emit_printf(e, "\n");
}

static void text_tests(struct nicfit_emit *e, const struct nicfit_nccl_tests *t)
{
	nicfit_emit_printf(e, "  %s%s%s, %d ranks", t->collective[0] ? t->collective : "table",
			   t->op[0] ? " = " : "", t->op, t->nranks);
	if (t->nodes)
		nicfit_emit_printf(e, " on %d node%s", t->nodes, t->nodes > 1 ? "s" : "");
	if (t->gpu[0])
		nicfit_emit_printf(e, " (%s)", t->gpu);
	if (t->version[0])
		nicfit_emit_printf(e, ", NCCL %s", t->version);
	nicfit_emit_printf(e, "\n");
	text_launch(e, &t->launch);
	if (t->bus_factor > 0)
		nicfit_emit_printf(e, "  busbw = algbw x %.4f (%s, n = %d)\n", t->bus_factor,
				   !strcmp(t->op, "allreduce") ? "2(n-1)/n" :
				   t->bus_factor < 1 ? "(n-1)/n" : "1", t->nranks);
	if (t->nrows) {
		const struct nicfit_nccl_row *p = &t->rows[t->peak];

		nicfit_emit_printf(e, "  %zu sizes, %.0f to %.0f bytes; peak busbw %.2f GB/s at %.0f "
				   "bytes (%s, line %ld)\n", t->nrows, t->rows[0].bytes,
				   t->rows[t->nrows - 1].bytes, p->busbw[t->peak_inplace], p->bytes,
				   t->peak_inplace ? "in-place" : "out-of-place", p->line);
	}
	if (t->avg_busbw >= 0)
		nicfit_emit_printf(e, "  average bus bandwidth %.4f GB/s (line %ld)%s\n", t->avg_busbw,
				   t->avg_line, t->avg_ok < 0 ? "" : t->avg_ok ?
				   ", NCCL_TESTS_MIN_BW check OK" : ", NCCL_TESTS_MIN_BW check FAILED");
}

static void text_log(struct nicfit_emit *e, const struct nicfit_nccl_log *g)
{
	size_t i;

	nicfit_emit_printf(e, "  %s %s, network %s", g->rccl ? "RCCL" : "NCCL",
			   g->version[0] ? g->version : "(version not "
			   "shown)", g->network[0] ? g->network : "(not shown)");
	if (g->network_line)
		nicfit_emit_printf(e, " (line %ld)", g->network_line);
	if (g->plugin[0])
		nicfit_emit_printf(e, ", plugin %s", g->plugin);
	if (g->ofi_provider[0]) {
		nicfit_emit_printf(e, ", NET/OFI provider %s", g->ofi_provider);
		if (g->ofi_fabric[0])
			nicfit_emit_printf(e, " (fabric %s)", g->ofi_fabric);
		if (g->ofi_nics > 0)
			nicfit_emit_printf(e, ", %d NIC%s", g->ofi_nics, g->ofi_nics == 1 ? "" : "s");
		nicfit_emit_printf(e, " (line %ld)", g->ofi_provider_line);
	}
	/* no host named in the log's prefixes is not a log of no hosts */
	if (!g->nhosts)
		nicfit_emit_printf(e, "; hosts not named");
	else
		nicfit_emit_printf(e, "; %zu host%s", g->nhosts, g->nhosts == 1 ? "" : "s");
	if (!g->nranks && g->ranks_at_least)
		nicfit_emit_printf(e, ", at least %d ranks (the connection lines)\n",
				   g->ranks_at_least);
	else
		nicfit_emit_printf(e, ", %d ranks\n", g->nranks);
	if (g->nnodes > 0)
		nicfit_emit_printf(e, "  NCCL: nNodes %d, localRanks %d (line %ld)\n", g->nnodes,
				   g->local_ranks, g->nnodes_line);
	text_launch(e, &g->launch);
	for (i = 0; i < g->nnic_dist; i++) {
		const struct nicfit_nccl_nic_dist *x = &g->nic_dist[i];
		int k;

		nicfit_emit_printf(e, "  %s GPU %d: NIC distance", x->host, x->gpu);
		for (k = 0; k < x->npaths; k++)
			nicfit_emit_printf(e, " %d:%s", k, x->paths[k]);
		nicfit_emit_printf(e, " (line %ld)\n", x->line);
	}
	for (i = 0; i < g->ngdr_gpus; i++) {
		const struct nicfit_nccl_gdr_gpu *x = &g->gdr_gpus[i];

		if (x->hca_name[0])
			nicfit_emit_printf(e, "  GPU %s / HCA %s", x->gpu, x->hca_name);
		else
			nicfit_emit_printf(e, "  GPU %s / HCA %d", x->gpu, x->hca);
		nicfit_emit_printf(e, ": GPUDirect RDMA %s%s%s%s (line %ld)\n", x->on ? "enabled" :
				   "DISABLED", x->reason[0] ? " (" : "", x->reason,
				   x->reason[0] ? ")" : "", x->line);
	}
	for (i = 0; i < g->nhcas; i++) {
		const struct nicfit_nccl_hca *h = &g->hcas[i];

		nicfit_emit_printf(e, "  HCA %zu %s", i, h->name[0] ? h->name : "(not named)");
		if (h->port)
			nicfit_emit_printf(e, " port %d", h->port);
		if (h->link[0])
			nicfit_emit_printf(e, " %s", h->link);
		nicfit_emit_printf(e, ", GPUDirect RDMA %s%s%s%s\n", h->gdr < 0 ? "not said" :
				   h->gdr ? "enabled" : "DISABLED", h->gdr_reason[0] ? " (" : "",
				   h->gdr_reason, h->gdr_reason[0] ? ")" : "");
	}
	for (i = 0; i < g->nqps; i++) {
		const struct nicfit_nccl_qp *q = &g->qps[i];
		char gt[48];

		nicfit_emit_printf(e, "  NCCL Dev %d", q->dev);
		if (q->ibdev >= 0)
			nicfit_emit_printf(e, " (IbDev %d)", q->ibdev);
		if (q->port > 0)
			nicfit_emit_printf(e, " port %d", q->port);
		if (q->host[0])
			nicfit_emit_printf(e, " on %s", q->host);
		if (q->ib)
			nicfit_emit_printf(e, ": InfiniBand (LID)");
		else if (nicfit__gid_text(q, gt, sizeof(gt)))
			nicfit_emit_printf(e, ": GID %ld %s (%s)", q->gid_index, gt,
					   nicfit_gid_kind_name(q->gid_kind));
		else
			nicfit_emit_printf(e, ": GID not read");
		if (q->mtu > 0)
			nicfit_emit_printf(e, ", MTU %d", nicfit__ibv_mtu_bytes(q->mtu));
		nicfit_emit_printf(e, "; %zu QP line%s (line %ld)\n", q->nlines,
				   q->nlines == 1 ? "" : "s", q->line);
	}
	if (g->relaxed_ordering)
		nicfit_emit_printf(e, "  PCIe relaxed ordering on ([RO])\n");
	if (g->chan_net || g->chan_p2p || g->chan_shm || g->chan_nvls || g->nrings)
		nicfit_emit_printf(e, "  channels: %zu via NET (%zu /GDRDMA), %zu P2P, %zu SHM, %zu NVLS;"
				   " %d rings, %d trees\n", g->chan_net, g->chan_gdr, g->chan_p2p,
				   g->chan_shm, g->chan_nvls, g->nrings, g->ntrees);
	if (g->socket_ifs[0])
		nicfit_emit_printf(e, "  NET/Socket interfaces: %s\n", g->socket_ifs);
	for (i = 0; i < g->nenv; i++)
		nicfit_emit_printf(e, "  %s %s=%s (line %ld)\n", i ? "   " : "env", g->env[i].name,
				   g->env[i].value, g->env[i].line);
}

static void text_doc(struct nicfit_emit *e, const struct nicfit_verify_doc *d)
{
	nicfit_emit_printf(e, "\n%s: %s\n", d->input, nicfit_verify_kind_name(d->kind));
	switch (d->kind) {
	case NICFIT_VERIFY_NCCL_TESTS:
		text_tests(e, &d->u.t);
		break;
	case NICFIT_VERIFY_NCCL_LOG:
		text_log(e, &d->u.log);
		break;
	case NICFIT_VERIFY_PERFTEST:
		/* what the header did not show is left out, not printed as 0 */
		nicfit_emit_printf(e, "  %s on %s, link %s", d->u.pt.test[0] ? d->u.pt.test : "perftest",
				   d->u.pt.device[0] ? d->u.pt.device : "?",
				   d->u.pt.link_type[0] ? d->u.pt.link_type : "?");
		if (d->u.pt.mtu > 0)
			nicfit_emit_printf(e, ", MTU %d", d->u.pt.mtu);
		if (d->u.pt.gid_index >= 0)
			nicfit_emit_printf(e, ", GID index %d", d->u.pt.gid_index);
		if (d->u.pt.qps > 0)
			nicfit_emit_printf(e, ", %d QP%s", d->u.pt.qps, d->u.pt.qps == 1 ? "" : "s");
		nicfit_emit_printf(e, "\n");
		if (d->u.pt.latency && d->u.pt.lat_typical_us >= 0 && d->u.pt.lat_avg_us >= 0)
			nicfit_emit_printf(e, "  latency typical %.2f us, average %.2f us at %.0f "
					   "bytes\n", d->u.pt.lat_typical_us, d->u.pt.lat_avg_us,
					   d->u.pt.bytes);
		else if (d->u.pt.latency && d->u.pt.lat_typical_us >= 0)
			nicfit_emit_printf(e, "  latency typical %.2f us at %.0f bytes (no average: "
					   "the row is cut)\n", d->u.pt.lat_typical_us, d->u.pt.bytes);
		if (d->u.pt.gpu_mem[0])
			nicfit_emit_printf(e, "  GPU memory (--use_%s%s%s%s, line %ld): the run measured "
					   "GPUDirect RDMA%s\n", d->u.pt.gpu_mem,
					   d->u.pt.gpu[0] ? ", " : "", d->u.pt.gpu,
					   d->u.pt.dmabuf ? ", DMA-BUF" : "", d->u.pt.gpu_line,
					   d->u.pt.dmabuf ? " through DMA-BUF" : "");
		break;
	case NICFIT_VERIFY_IPERF3:
	case NICFIT_VERIFY_IPERF2:
		nicfit_emit_printf(e, "  %s%s%s%s%s, %s, ", nicfit_verify_kind_name(d->kind),
				   d->u.ip.version[0] ? " " : "", d->u.ip.version,
				   d->u.ip.json ? " --json" : "", d->u.ip.bidir ? " --bidir" : "",
				   d->u.ip.udp ? "UDP" : "TCP");
		if (!d->u.ip.streams && d->u.ip.sum)
			nicfit_emit_printf(e, "several streams ([SUM] lines)");
		else
			nicfit_emit_printf(e, "%d stream%s", d->u.ip.streams ? d->u.ip.streams : 1,
					   d->u.ip.streams > 1 ? "s" : "");
		nicfit_emit_printf(e, ", %.0f s", d->u.ip.duration_s);
		if (d->u.ip.cut)
			nicfit_emit_printf(e, ": a cut --json document, no result in it");
		else if (d->u.ip.intervals)
			nicfit_emit_printf(e, ": no summary line, the mean of %d interval lines",
					   d->u.ip.intervals);
		if (d->u.ip.sender_gbps >= 0)
			nicfit_emit_printf(e, ": sender %.2f Gb/s", d->u.ip.sender_gbps);
		if (d->u.ip.receiver_gbps >= 0)
			nicfit_emit_printf(e, ", receiver %.2f Gb/s", d->u.ip.receiver_gbps);
		if (d->u.ip.sender_gbps < 0 && d->u.ip.receiver_gbps < 0 && !d->u.ip.cut)
			nicfit_emit_printf(e, ": no summary line (a truncated paste)");
		if (d->u.ip.retransmits >= 0 && d->u.ip.retr_intervals)
			nicfit_emit_printf(e, ", %ld retransmits in %d interval lines (partial)",
					   d->u.ip.retransmits, d->u.ip.retr_intervals);
		else if (d->u.ip.retransmits >= 0)
			nicfit_emit_printf(e, ", %ld retransmits", d->u.ip.retransmits);
		if (d->u.ip.datagrams > 0)
			nicfit_emit_printf(e, ", %ld of %ld datagrams lost", d->u.ip.lost,
					   d->u.ip.datagrams);
		if (d->u.ip.jitter_ms >= 0)
			nicfit_emit_printf(e, ", jitter %.3f ms", d->u.ip.jitter_ms);
		nicfit_emit_printf(e, "\n");
		break;
	case NICFIT_VERIFY_NCCL_TOPO:
		nicfit_emit_printf(e, "  topology version %d: %d CPUs, %d PCI nodes, %d GPUs, %d NICs, "
				   "%d nets (%d with GDR)\n", d->u.topo.version, d->u.topo.cpus,
				   d->u.topo.pci, d->u.topo.gpus, d->u.topo.nics, d->u.topo.nets,
				   d->u.topo.gdr_nets);
		break;
	}
	if (d->what && d->expected_gbps > 0) {
		nicfit_emit_printf(e, "  ceiling   %s\n", d->arith);
		nicfit_emit_printf(e, "  measured  %s = %.1f Gb/s\n", d->what, d->measured_gbps);
		nicfit_emit_printf(e, "  verdict   %.1f / %.1f Gb/s = %.0f %%: %s\n", d->measured_gbps,
				   d->expected_gbps, 100 * d->ratio, nicfit_verdict_name(d->verdict));
	} else if (d->what) {
		nicfit_emit_printf(e, "  measured  %s (no ceiling to compare with)\n", d->what);
	}
}

static void render_people(const struct nicfit_verify *v, struct nicfit_emit *e)
{
	const struct nicfit_verify_expect *x = &v->expect;
	enum nicfit_verify_verdict w = worst_verdict(v);
	size_t i;

	nicfit_emit_printf(e, "Verdict: %s", nicfit_verdict_name(w));
	for (i = 0; i < v->ndocs; i++)
		if (v->docs[i].verdict == w && w != NICFIT_VERDICT_NONE) {
			nicfit_emit_printf(e, ": %s, %.0f %% of the %.1f Gb/s ceiling%s%s%s", v->docs[i].what,
					   100 * v->docs[i].ratio, v->docs[i].expected_gbps,
					   v->docs[i].verdict_code ? " (see " : "",
					   v->docs[i].verdict_code ? v->docs[i].verdict_code : "",
					   v->docs[i].verdict_code ? ")" : "");
			break;
		}
	if (nicfit_findings_count(&v->findings, NICFIT_SEV_CRITICAL) ||
	    nicfit_findings_count(&v->findings, NICFIT_SEV_WARNING))
		nicfit_emit_printf(e, "%s%zu critical, %zu warning%s", w == NICFIT_VERDICT_NONE ?
				   " (no ceiling to compare with); " : "; ",
				   nicfit_findings_count(&v->findings, NICFIT_SEV_CRITICAL),
				   nicfit_findings_count(&v->findings, NICFIT_SEV_WARNING),
				   nicfit_findings_count(&v->findings, NICFIT_SEV_WARNING) == 1 ? "" : "s");
	nicfit_emit_printf(e, "\n");
	if (x->link.gbps > 0 || x->nodes || x->nics_per_node) {
		const char *sep = " ";

		nicfit_emit_printf(e, "Expected from %s:", x->source ? x->source : "the inputs");
		if (x->nodes) {
			nicfit_emit_printf(e, " %d node%s", x->nodes, x->nodes == 1 ? "" : "s");
			sep = ", ";
		}
		if (x->gpus_per_node) {
			nicfit_emit_printf(e, "%s%d GPU%s%s", x->nodes ? " x " : sep, x->gpus_per_node,
					   x->gpus_per_node == 1 ? "" : "s", x->nodes ? "" : " per node");
			sep = ", ";
		}
		if (x->nics_per_node) {
			nicfit_emit_printf(e, "%s%d NIC%s per node", sep, x->nics_per_node,
					   x->nics_per_node == 1 ? "" : "s");
			sep = ", ";
		}
		if (x->link.gbps > 0)
			nicfit_emit_printf(e, "%s%s%s%.0f Gb/s links", sep, x->link.ib_name,
					   x->link.ib_name[0] ? " " : "", x->link.gbps);
		if (x->pcie_gbps > 0)
			nicfit_emit_printf(e, ", %.1f Gb/s PCIe path per NIC", x->pcie_gbps);
		if (x->path[0])
			nicfit_emit_printf(e, "; GPU-NIC path at worst %s, %d GPU%s without GPUDirect "
					   "RDMA by default", x->path, x->gpus_without_gdr,
					   x->gpus_without_gdr == 1 ? "" : "s");
		nicfit_emit_printf(e, "\n");
	}
	for (i = 0; i < v->ndocs; i++)
		text_doc(e, &v->docs[i]);
	if (v->findings.n)
		nicfit_emit_printf(e, "\nFindings, worst first (each quotes the line it rests on):\n");
	for (i = 0; i < v->findings.n; i++) {
		const struct nicfit_finding *f = &v->findings.v[i];
		const char *c = nicfit_emit_color(e, f->severity == NICFIT_SEV_CRITICAL ?
						  NICFIT_COLOR_RED : f->severity == NICFIT_SEV_WARNING ?
						  NICFIT_COLOR_YELLOW : NICFIT_COLOR_DIM);

		nicfit_emit_printf(e, "  %s%-8s%s %s%s%s\n           %s\n", c,
				   nicfit_severity_name(f->severity),
				   nicfit_emit_color(e, NICFIT_COLOR_RESET), f->code,
				   f->device ? "  " : "", f->device ? f->device : "", f->message);
		if (f->fix)
			nicfit_emit_printf(e, "           fix: %s\n", f->fix);
	}
}

int nicfit_verify_render(const struct nicfit_verify *v, struct nicfit_emit *e)
{
	if (nicfit_emit_format(e) == NICFIT_FMT_JSON)
		render_json(v, e);
	else
		render_people(v, e);
	return 0;
}
