/*
 * verify_judge.c - what each measurement should have been: the
 * expectation (from the caller, else from what the inputs name), the
 * ceiling computed by the link and perf modules, the ratio and the
 * verdict. The causes read from NCCL logs are in verify_causes.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "nicfit/buf.h"
#include "core/finding_int.h"
#include "core/num_int.h"
#include "nicfit/link.h"
#include "nicfit/perf.h"
#include "verify/verify_int.h"

#define PLATEAU_BYTES NICFIT__VPLATEAU_BYTES
/* perftest's default message (65536 B, perftest's -s default) fills a link; less does not. */
#define PERFTEST_FULL_BYTES 65536.0
/* An iperf3 TCP stream is one sender thread: on 40G and faster links one is not enough. */
#define IPERF3_FAST_GBPS 40.0
/* Above the ring ceiling by more than this, the algorithm was not a ring. */
#define ABOVE_RING_RATIO 1.05
/*
 * Above the line rate's bound by more than this, the measurement cannot be:
 * 1 % is the tools' rounding and clocks (iperf3's receiver times its own
 * interval; nccl-tests prints busbw to 2 decimals), nothing a link adds.
 */
#define LINE_RATE_SLACK 1.01

/* ---- the expectation -------------------------------------------------------- */

static void from_inputs(struct nicfit_verify *v, struct nicfit_verify_expect *x, char *how,
			size_t size)
{
	size_t i;
	int nodes = 0, ranks = 0, hcas = 0, ib = -1;
	const char *nfrom = NULL;
	double topo_mbps = 0;

	for (i = 0; i < v->ndocs; i++) {
		const struct nicfit_verify_doc *d = &v->docs[i];

		if (d->kind == NICFIT_VERIFY_NCCL_TESTS) {
			if (d->u.t.nodes > nodes) {
				nodes = d->u.t.nodes;
				nfrom = d->u.t.nodes_from;
			}
			if (d->u.t.nranks > ranks)
				ranks = d->u.t.nranks;
		} else if (d->kind == NICFIT_VERIFY_NCCL_LOG) {
			const struct nicfit_nccl_log *g = &d->u.log;
			int before = nodes;

			/* separate single-node jobs: one node each, whatever the hosts */
			if (g->jobs && nodes < 1)
				nodes = g->nnodes > 0 ? g->nnodes : 1;
			/* one host's lines with connections via NET: more nodes, how many unknown */
			else if (!g->jobs && (int)g->nhosts > nodes &&
				 !(g->nhosts == 1 && g->chan_net))
				nodes = (int)g->nhosts;
			if (!g->jobs && g->nnodes > nodes)
				nodes = g->nnodes;
			if (nodes != before)
				nfrom = NULL;
			if (g->nranks > ranks)
				ranks = g->nranks;
			/* the launcher names every node; a log may show some hosts' lines only */
			if (!g->jobs && g->launch.nodes > nodes) {
				nodes = g->launch.nodes;
				nfrom = "launcher";
			}
			if ((int)g->nhcas > hcas)
				hcas = (int)g->nhcas;
			if (g->nhcas && g->hcas[0].link[0])
				ib = !strcmp(g->hcas[0].link, "IB");
		} else if (d->kind == NICFIT_VERIFY_NCCL_TOPO && d->u.topo.net_speed_mbps > 0) {
			topo_mbps = d->u.topo.net_speed_mbps;
			if (!hcas)
				hcas = d->u.topo.nets;
		}
	}
	how[0] = '\0';
	if (!x->nodes && nodes) {
		x->nodes = nodes;
		snprintf(how + strlen(how), size - strlen(how), "%snodes from %s", how[0] ? ", " : "",
			 !nfrom || !strcmp(nfrom, "rank lines") ? "the hosts named" :
			 !strcmp(nfrom, "launcher") ? "the launcher line" :
			 "the ranks / the processes a node of the launcher line");
	}
	if (!x->gpus_per_node && ranks && x->nodes)
		x->gpus_per_node = ranks / x->nodes > 0 ? ranks / x->nodes : 1;
	if (!x->nics_per_node && hcas) {
		x->nics_per_node = hcas;
		snprintf(how + strlen(how), size - strlen(how), "%srails from NCCL's HCA list",
			 how[0] ? ", " : "");
	}
	if (x->proto < 0 && ib >= 0)
		x->proto = ib ? NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;
	if (x->link.gbps <= 0 && topo_mbps > 0) {
		x->link.gbps = topo_mbps / 1000;
		x->link.kind = NICFIT_SPEED_ETH;
		snprintf(how + strlen(how), size - strlen(how), "%slink from the topology's net speed",
			 how[0] ? ", " : "");
	}
}

static enum nicfit_proto proto_of(const struct nicfit_verify_expect *x)
{
	if (x->proto >= 0)
		return (enum nicfit_proto)x->proto;
	return x->link.ib_name[0] ? NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;
}

/* One NIC's goodput, capped by its PCIe path when known; 0 when unknown. */
static double nic_goodput(const struct nicfit_verify_expect *x, enum nicfit_proto proto,
			  struct nicfit_link_result *lr)
{
	struct nicfit_link_params lp;

	memset(lr, 0, sizeof(*lr));
	if (x->link.gbps <= 0)
		return 0;
	nicfit_link_params_default(&lp);
	/* the link the user named wins over what a tool's output suggests */
	if (proto == NICFIT_PROTO_IB && x->link.kind == NICFIT_SPEED_ETH)
		proto = NICFIT_PROTO_ROCE;
	else if (proto != NICFIT_PROTO_IB && x->link.kind == NICFIT_SPEED_IB)
		proto = NICFIT_PROTO_IB;
	if (nicfit_link_calc(&x->link, proto, &lp, lr, NULL))
		return 0;
	if (x->pcie_gbps > 0 && x->pcie_gbps < lr->goodput_gbps)
		return x->pcie_gbps;
	return lr->goodput_gbps;
}

/* ---- verdicts ------------------------------------------------------------- */

/*
 * What a finding quotes of the input: the JSON summary given as evidence,
 * or the input's line; where names it.
 */
static void quote_evidence(const struct nicfit_verify_doc *d, long line, const char *evidence,
			   char *q, size_t qn, char *where, size_t wn)
{
	if (evidence) {
		nicfit__vcopy(q, qn, evidence, (size_t)-1);
		snprintf(where, wn, "the JSON summary");
	} else {
		nicfit__vline_at(d, line, q, qn);
		snprintf(where, wn, "line %ld", line);
	}
}

/*
 * The verdict on a measurement: as expected from low_ratio of the ceiling
 * (0.80 by default: NCCL's maintainers call ~24 GB/s per 200G NIC and
 * 46-48 GB/s per NDR NIC the peak, 92-96 % of the line rate, so 80 %
 * leaves their margin twice over), low from far_ratio (0.50: half the
 * hardware is what a wrong transport, a missing GPUDirect path or a
 * degraded link cost), far below under that.
 */
static struct nicfit_finding *judge_ratio(struct nicfit_verify *v, struct nicfit_verify_doc *d,
					  const char *device, long line, const char *evidence)
{
	const struct nicfit_verify_expect *x = &v->expect;
	double low = x->low_ratio > 0 ? x->low_ratio : NICFIT_VERIFY_LOW_RATIO;
	double far = x->far_ratio > 0 ? x->far_ratio : NICFIT_VERIFY_FAR_RATIO;
	char q[NICFIT__VQUOTE_MAX + 1], where[32];
	struct nicfit_finding *f = NULL;

	if (d->measured_gbps < 0 || d->expected_gbps <= 0)
		return NULL;
	d->ratio = d->measured_gbps / d->expected_gbps;
	quote_evidence(d, line, evidence, q, sizeof(q), where, sizeof(where));
	if (d->ratio + NICFIT_EPS >= low) {
		d->verdict = NICFIT_VERDICT_OK;
		return NULL;
	}
	d->verdict = d->ratio + NICFIT_EPS >= far ? NICFIT_VERDICT_LOW : NICFIT_VERDICT_FAR_BELOW;
	f = nicfit__find(&v->findings,
			 d->verdict == NICFIT_VERDICT_LOW ? NICFIT_SEV_WARNING : NICFIT_SEV_CRITICAL,
			 d->verdict == NICFIT_VERDICT_LOW ? NICFIT_CODE_VERIFY_LOW
							  : NICFIT_CODE_VERIFY_FAR_BELOW,
			 device, "%s: %s = %.1f Gb/s is %.0f %% of the %.1f Gb/s ceiling (%s; "
			 "%s below %.0f %%, far below %.0f %%); %s: \"%s\"",
			 d->input, d->what, d->measured_gbps, 100 * d->ratio, d->expected_gbps,
			 d->arith, nicfit_verdict_name(NICFIT_VERDICT_LOW), 100 * low, 100 * far,
			 where, q);
	if (f)
		f->source = "docs/json-verify.md (verdict thresholds)";
	return f;
}

/*
 * A measurement above bound (what the links given carry at their line
 * rate, no header paid, whatever the algorithm) by more than
 * LINE_RATE_SLACK cannot be: the input is damaged, or the link, the NICs
 * per node or the nodes given are not the hardware measured. Its verdict
 * is "above line rate", a warning, so that nothing judged against a wrong
 * expectation reads "as expected". Returns 1 when it was so, 0 when not,
 * or NICFIT_E_NOMEM.
 */
static int judge_above_line(struct nicfit_verify *v, struct nicfit_verify_doc *d, double bound,
			    const char *how, const char *device, long line, const char *evidence)
{
	char q[NICFIT__VQUOTE_MAX + 1], where[32];
	struct nicfit_finding *f;

	if (bound <= 0 || d->measured_gbps <= bound * LINE_RATE_SLACK)
		return 0;
	d->ratio = d->measured_gbps / d->expected_gbps;
	d->verdict = NICFIT_VERDICT_ABOVE_LINE;
	d->verdict_code = "verify-above-line-rate";
	quote_evidence(d, line, evidence, q, sizeof(q), where, sizeof(where));
	f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_ABOVE_LINE_RATE, device,
			 "%s: %s = %.1f Gb/s is above the %.1f Gb/s the links given carry at all "
			 "(%s): the input is damaged, or the hardware measured is not the one given; "
			 "%s: \"%s\"", d->input, d->what, d->measured_gbps, bound, how, where, q);
	if (!f)
		return NICFIT_E_NOMEM;
	f->source = "docs/json-verify.md (verdict thresholds)";
	if (nicfit__finding_fix(&v->findings, f, "Check what the run had against what verify was "
				"given: each port's rate (ibstat, ethtool), the NICs per node the run "
				"used (NCCL_IB_HCA; --nics-per-node), the nodes (--nodes); then the "
				"figure's unit in the input."))
		return NICFIT_E_NOMEM;
	return 1;
}

static void judge_tests_notes(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_tests *t = &d->u.t;
	char q[NICFIT__VQUOTE_MAX + 1];
	struct nicfit_finding *f;
	double maxb = t->nrows ? t->rows[t->nrows - 1].bytes : 0;

	if (t->wrong > 0) {
		nicfit__vline_at(d, t->wrong_line, q, sizeof(q));
		f = nicfit__find(&v->findings, NICFIT_SEV_CRITICAL, NICFIT_CODE_VERIFY_NCCL_TESTS_WRONG, NULL,
				 "%s: %ld wrong result(s); line %ld: \"%s\"", d->input, t->wrong,
				 t->wrong_line, q);
		if (f)
			nicfit__finding_fix(&v->findings, f, "Data is corrupted on the way: rerun "
					    "with NCCL_P2P_DISABLE=1, then NCCL_SHM_DISABLE=1, then "
					    "NCCL_IB_DISABLE=1 to find the transport at fault.");
	}
	if (t->avg_ok == 0) {
		/* nccl-tests' bound is the user's own: the run missed what they asked of it */
		nicfit__vline_at(d, t->avg_line, q, sizeof(q));
		f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_NCCL_TESTS_MIN_BW,
				 NULL, "%s: nccl-tests judged the average bus bandwidth, %.4g GB/s, "
				 "under 90 %% of NCCL_TESTS_MIN_BW (FAILED); line %ld: \"%s\"",
				 d->input, t->avg_busbw, t->avg_line, q);
		if (f)
			nicfit__finding_fix(&v->findings, f, "The run is below the bound it was given: "
					    "compare the peak with the ceiling, and see the causes the "
					    "other findings name.");
	}
	if (t->truncated) {
		nicfit__vline_at(d, t->rows[t->nrows - 1].line, q, sizeof(q));
		nicfit__find(&v->findings, NICFIT_SEV_INFO, NICFIT_CODE_VERIFY_TRUNCATED, NULL,
			     "%s: no \"# Avg bus bandwidth\" line; the table stops at line %ld: \"%s\"",
			     d->input, t->rows[t->nrows - 1].line, q);
	}
	if (t->nrows && maxb < PLATEAU_BYTES) {
		nicfit__vline_at(d, t->rows[t->nrows - 1].line, q, sizeof(q));
		f = nicfit__find(&v->findings, NICFIT_SEV_INFO, NICFIT_CODE_VERIFY_LATENCY_BOUND,
				 NULL, "%s: the largest size is %.0f bytes, under the %.0f-byte "
				 "plateau; line %ld: \"%s\"", d->input, maxb, PLATEAU_BYTES,
				 t->rows[t->nrows - 1].line, q);
		if (f)
			nicfit__finding_fix(&v->findings, f, "Run up to 8G or more: -b 8 -e 8G -f 2.");
	}
}

/* The ring's network ceiling for a collective, in Gb/s of busbw; 0 none. */
static double tests_ceiling(struct nicfit_verify *v, struct nicfit_verify_doc *d, double nic,
			    const struct nicfit_link_result *lr)
{
	const struct nicfit_verify_expect *x = &v->expect;
	const struct nicfit_nccl_tests *t = &d->u.t;
	int nodes = x->nodes, gpn = x->gpus_per_node > 0 ? x->gpus_per_node : 1;
	int k = x->nics_per_node > 0 ? x->nics_per_node : gpn;
	int r = t->nranks > 0 ? t->nranks : nodes * gpn;
	const char *assumed = x->nics_per_node > 0 ? "" : " (one NIC per GPU assumed)";
	char lname[48], cap[64] = "";
	double c;

	if (lr->ib_name[0])
		snprintf(lname, sizeof(lname), "%s InfiniBand", lr->ib_name);
	else
		snprintf(lname, sizeof(lname), "%.0fG %s", x->link.gbps,
			 lr->proto == NICFIT_PROTO_TCP ? "TCP" : "RoCE");
	if (nic + NICFIT_EPS < lr->goodput_gbps)
		snprintf(cap, sizeof(cap), ", capped at %.1f Gb/s by the card's PCIe path", nic);
	if (!strcmp(t->op, "alltoall")) {
		/* each node sends (N-1)/N of every rank's bytes off the node */
		c = k * nic / gpn * nodes / (nodes - 1.0) * (r - 1.0) / r;
		d->arith = nicfit__strfmt("%d rail%s%s x %.1f Gb/s (%s goodput) / %d GPUs x N/(N-1) "
					  "x (n-1)/n over %d nodes, %d ranks = %.1f Gb/s = %.1f GB/s busbw",
					  k, k == 1 ? "" : "s", assumed, nic, lname, gpn, nodes, r, c, c / 8);
	} else if (!strcmp(t->op, "sendrecv")) {
		/* one rank per node pair crosses the network, through one NIC */
		c = nic;
		d->arith = nicfit__strfmt("one NIC's %.1f Gb/s (%s goodput) between the nodes = "
					  "%.1f GB/s busbw", nic, lname, c / 8);
	} else {
		/* a ring over N nodes moves, per node, busbw x ranks' share through K rails */
		c = k * nic;
		d->arith = nicfit__strfmt("%d rail%s%s x %.1f Gb/s (%s at %.0f-byte MTU: %.4f of "
					  "%.1f Gb/s%s) = %.1f Gb/s = %.1f GB/s busbw (ring over %d "
					  "nodes; busbw = algbw x %s)",
					  k, k == 1 ? "" : "s", assumed, nic, lname, lr->payload_bytes,
					  lr->efficiency, lr->line_gbps, cap, c, c / 8, nodes,
					  !strcmp(t->op, "allreduce") ? "2(n-1)/n" :
					  (t->bus_factor > 0 && t->bus_factor < 1 ? "(n-1)/n" : "1"));
	}
	return d->arith ? c : -1;
}

/*
 * The most a collective's busbw can be over the nodes' links at their line
 * rate L (K rails a node, N nodes, n ranks, G GPUs a node), whatever the
 * algorithm: each node must move through its rails at least what no other
 * node can move for it (nccl-tests' doc/PERFORMANCE.md defines busbw).
 * AllReduce: a node sends its data once and receives the result once
 * (in-network reduction, SHARP or NVLS, or a tree on two nodes), so algbw
 * is at most K x L and busbw 2(n-1)/n of it; AllGather and ReduceScatter:
 * a node receives (sends) the other nodes' share, (N-1)/N, so busbw is at
 * most K x L x N/(N-1) x (n-1)/n; AlltoAll: the ceiling's formula at L;
 * Broadcast, Reduce and SendRecv: K x L; any other, 2 x K x L, above
 * all of these. Writes its arithmetic into how.
 */
static double tests_bound(const struct nicfit_verify *v, const struct nicfit_verify_doc *d,
			  const struct nicfit_link_result *lr, char *how, size_t size)
{
	const struct nicfit_verify_expect *x = &v->expect;
	const struct nicfit_nccl_tests *t = &d->u.t;
	int nodes = x->nodes, gpn = x->gpus_per_node > 0 ? x->gpus_per_node : 1;
	int k = x->nics_per_node > 0 ? x->nics_per_node : gpn;
	int r = t->nranks > 0 ? t->nranks : nodes * gpn;
	double l = k * lr->line_gbps, f;
	const char *why;

	if (r < 2)
		r = 2;
	if (!strcmp(t->op, "allreduce")) {
		f = 2.0 * (r - 1) / r;
		why = "2(n-1)/n: each node sends its data once and receives the result once";
	} else if (!strcmp(t->op, "allgather") || !strcmp(t->op, "reducescatter")) {
		f = nodes / (nodes - 1.0) * (r - 1) / r;
		why = "N/(N-1) x (n-1)/n: each node moves the other nodes' share once";
	} else if (!strcmp(t->op, "alltoall")) {
		f = nodes / (nodes - 1.0) * (r - 1) / r / gpn;
		why = "N/(N-1) x (n-1)/n / G: each node sends off the node what its GPUs send there";
	} else if (!strcmp(t->op, "broadcast") || !strcmp(t->op, "reduce") ||
		   !strcmp(t->op, "sendrecv")) {
		f = 1;
		why = "1: each node receives (sends) the whole message once";
	} else {
		f = 2;
		why = "2, above every collective's";
	}
	snprintf(how, size, "%d rail%s%s x %.1f Gb/s line rate x %s, n = %d, N = %d", k,
		 k == 1 ? "" : "s", x->nics_per_node > 0 ? "" : " (one NIC per GPU assumed)",
		 lr->line_gbps, why, r, nodes);
	return l * f;
}

static int judge_tests(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_verify_expect *x = &v->expect;
	struct nicfit_nccl_tests *t = &d->u.t;
	struct nicfit_link_result lr;
	const struct nicfit_nccl_row *pk;
	double nic, c, bound;
	char q[NICFIT__VQUOTE_MAX + 1], how[200];
	int rc;

	judge_tests_notes(v, d);
	if (t->jobs > 1) {
		struct nicfit_finding *f;

		nicfit__vline_at(d, t->jobs_line, q, sizeof(q));
		f = nicfit__find(&v->findings, NICFIT_SEV_WARNING,
				 NICFIT_CODE_VERIFY_NCCL_TESTS_SEPARATE_JOBS, NULL,
				 "%s: %d processes each printed rank %d's line: nccl-tests was built "
				 "without MPI, so every process ran its own %d-rank job and no "
				 "figure measures the network between them; line %ld: \"%s\"",
				 d->input, t->jobs, 0, t->nranks, t->jobs_line, q);
		if (!f || nicfit__finding_fix(&v->findings, f, "Build nccl-tests with MPI (make "
					      "MPI=1 MPI_HOME=/path/to/mpi) and run it under mpirun: "
					      "rank 0 then prints one line for every rank of one job."))
			return NICFIT_E_NOMEM;
		return 0;
	}
	if (!t->nrows)
		return 0;
	pk = &t->rows[t->peak];
	d->measured_gbps = pk->busbw[t->peak_inplace] * 8;
	d->what = nicfit__strfmt("peak busbw %.2f GB/s (%s, %.0f bytes)",
				 pk->busbw[t->peak_inplace], t->peak_inplace ? "in-place" :
				 "out-of-place", pk->bytes);
	if (!d->what)
		return NICFIT_E_NOMEM;
	/* one node: no network link is in the path, only the GPUs' NVLink */
	if (x->nodes == 1 || (x->nodes < 1 && t->nodes == 1))
		return nicfit__verify_judge_node(v, d);
	nic = nic_goodput(x, proto_of(x), &lr);
	if (x->nodes < 2 || nic <= 0)
		return 0;
	c = tests_ceiling(v, d, nic, &lr);
	if (c < 0)
		return NICFIT_E_NOMEM;
	d->expected_gbps = c;
	bound = tests_bound(v, d, &lr, how, sizeof(how));
	rc = judge_above_line(v, d, bound, how, NULL, pk->line, NULL);
	if (rc)
		return rc < 0 ? rc : 0;
	if (d->measured_gbps > c * ABOVE_RING_RATIO && !strcmp(t->op, "allreduce")) {
		d->ratio = d->measured_gbps / c;
		d->verdict = NICFIT_VERDICT_OK;
		d->verdict_code = "verify-above-ring";
		nicfit__vline_at(d, pk->line, q, sizeof(q));
		struct nicfit_finding *f = nicfit__find(&v->findings, NICFIT_SEV_INFO,
			NICFIT_CODE_VERIFY_ABOVE_RING, NULL,
			"%s: %s is %.0f %% of the ring's %.1f Gb/s ceiling: NCCL used trees, NVLS "
			"or CollNet; line %ld: \"%s\"", d->input, d->what, 100 * d->ratio, c,
			pk->line, q);
		if (f && nicfit__finding_fix(&v->findings, f, "To measure the network itself, "
					     "rerun with NCCL_ALGO=Ring."))
			return NICFIT_E_NOMEM;
		return 0;
	}
	judge_ratio(v, d, NULL, pk->line, NULL);
	return 0;
}

/*
 * perftest-latency-high: a latency run's smallest message (perftest's
 * default and -a's first size, 2 bytes) against the values NVIDIA's
 * acceptance scripts fail a test at: 2.5 us for send and write, 4.5 us
 * for read (Mellanox/ngc_multinode_perf common.sh, LAT_PASS_VAL, on
 * t_avg; its PR #97 calls them a floor past which "there certainly is an
 * issue", not a fabric's expected figure). t_typical stands in for a row
 * cut before t_avg, and says so. Atomics have no such value.
 */
static int judge_latency(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_perftest *pt = &d->u.pt;
	int rd = strstr(pt->test, "Read") != NULL;
	double limit = rd ? 4.5 : strstr(pt->test, "Send") || strstr(pt->test, "Write") ? 2.5 : 0;
	double us = pt->lat_avg_us >= 0 ? pt->lat_avg_us : pt->lat_typical_us;
	char q[NICFIT__VQUOTE_MAX + 1], cpu[NICFIT__VQUOTE_MAX + 1] = "";
	struct nicfit_finding *f;

	if (!pt->latency || !pt->row_line || pt->bytes > 8 || limit <= 0 || us <= limit)
		return 0;
	nicfit__vline_at(d, pt->row_line, q, sizeof(q));
	if (pt->cpu_freq_line)
		nicfit__vline_at(d, pt->cpu_freq_line, cpu, sizeof(cpu));
	f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_PERFTEST_LATENCY_HIGH,
			 pt->device[0] ? pt->device : NULL, "%s: %s of %.0f-byte messages is %.2f us, "
			 "above %.1f us, where NVIDIA's acceptance scripts (ngc_multinode_perf) fail a "
			 "%s latency test%s; line %ld: \"%s\"", d->input,
			 pt->lat_avg_us >= 0 ? "t_avg" : "t_typical (the row stops before t_avg)",
			 pt->bytes, us, limit, rd ? "read" : "send or write",
			 pt->link_type[0] ? strcmp(pt->link_type, "IB") ? " (this one runs over "
			 "Ethernet: RoCE)" : " (this one runs over InfiniBand)" : "", pt->row_line, q);
	if (!f)
		return NICFIT_E_NOMEM;
	if (cpu[0] ? nicfit__finding_fix(&v->findings, f, "perftest says the CPU clock was not at "
					 "its maximum (line %ld: \"%s\"): set the performance "
					 "governor on both hosts (`cpupower frequency-set -g "
					 "performance`) and keep the cores out of deep C-states, "
					 "then run again pinned to the NIC's NUMA node.",
					 pt->cpu_freq_line, cpu)
		   : nicfit__finding_fix(&v->findings, f, "Look for what the path adds: CPU "
					 "frequency scaling or deep C-states (perftest warns of "
					 "the first), cores on the other socket than the NIC "
					 "(pin with numactl), switch hops, a bond or a VM's "
					 "virtual function."))
		return NICFIT_E_NOMEM;
	f->source = "Mellanox/ngc_multinode_perf common.sh (LAT_PASS_VAL 2.5 send/write, 4.5 "
		    "read, on perftest's t_avg); pull request #97";
	return 0;
}

static int judge_perftest(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_verify_expect *x = &v->expect;
	struct nicfit_perftest *pt = &d->u.pt;
	struct nicfit_link_result lr;
	enum nicfit_proto proto;
	char q[NICFIT__VQUOTE_MAX + 1], how[64];
	double nic, dup;
	int rc;

	if (pt->cut_line && !pt->row_line) {
		nicfit__vline_at(d, pt->cut_line, q, sizeof(q));
		if (!nicfit__find(&v->findings, NICFIT_SEV_INFO, NICFIT_CODE_VERIFY_TRUNCATED,
				  pt->device[0] ? pt->device : NULL, "%s: the result row is cut short; "
				  "line %ld: \"%s\"", d->input, pt->cut_line, q))
			return NICFIT_E_NOMEM;
	}
	if (pt->latency)
		return judge_latency(v, d);
	if (!pt->row_line)
		return 0;
	d->measured_gbps = pt->bw_avg_gbps;
	d->what = nicfit__strfmt("BW average %.2f %s (%.0f-byte messages)", pt->bw_avg,
				 pt->gbits ? "Gb/sec" : "MB/sec", pt->bytes);
	if (!d->what)
		return NICFIT_E_NOMEM;
	if (pt->bytes < PERFTEST_FULL_BYTES) {
		nicfit__vline_at(d, pt->row_line, q, sizeof(q));
		struct nicfit_finding *f = nicfit__find(&v->findings, NICFIT_SEV_INFO,
			NICFIT_CODE_PERFTEST_SMALL_MESSAGE, pt->device[0] ? pt->device : NULL,
			"%s: %.0f-byte messages; line %ld: \"%s\"", d->input, pt->bytes,
			pt->row_line, q);
		if (f && nicfit__finding_fix(&v->findings, f, "Measure bandwidth with -s 65536 or "
					     "larger, or -a for every size."))
			return NICFIT_E_NOMEM;
	}
	proto = !strcmp(pt->link_type, "IB") ? NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;
	if (x->proto >= 0)
		proto = (enum nicfit_proto)x->proto;
	nic = nic_goodput(x, proto, &lr);
	if (nic <= 0)
		return 0;
	dup = strstr(pt->test, "Bidirectional") ? 2 : 1;
	d->expected_gbps = nic * dup;
	d->arith = nicfit__strfmt("%s%.0fG %s at %.0f-byte MTU: %.4f x %.1f Gb/s = %.1f Gb/s%s",
				  dup > 1 ? "2 directions x " : "", x->link.gbps,
				  lr.ib_name[0] ? lr.ib_name : "RoCE", lr.payload_bytes,
				  lr.efficiency, lr.line_gbps, d->expected_gbps,
				  x->pcie_gbps > 0 && x->pcie_gbps < lr.goodput_gbps ?
				  " (the card's PCIe path)" : "");
	if (!d->arith)
		return NICFIT_E_NOMEM;
	snprintf(how, sizeof(how), "%s%.1f Gb/s line rate", dup > 1 ? "2 directions x " : "",
		 lr.line_gbps);
	rc = judge_above_line(v, d, lr.line_gbps * dup, how, pt->device[0] ? pt->device : NULL,
			      pt->row_line, NULL);
	if (rc)
		return rc < 0 ? rc : 0;
	judge_ratio(v, d, pt->device[0] ? pt->device : NULL, pt->row_line, NULL);
	return 0;
}

/*
 * An iperf3 run low on a link that another iperf run in the same input
 * filled (iperf2 at line rate beside it: esnet/iperf#286): the network
 * carried the rate, so the gap is iperf3's own (before 3.16 every stream
 * of a -P run is served by one thread, one core). Its verdict is "low"
 * with that cause, never "far below" for the network. Returns 1 when it
 * was so, 0 when not, or NICFIT_E_NOMEM.
 */
static int judge_tool_limit(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_verify_expect *x = &v->expect;
	double low = x->low_ratio > 0 ? x->low_ratio : NICFIT_VERIFY_LOW_RATIO;
	char q[NICFIT__VQUOTE_MAX + 1], q2[NICFIT__VQUOTE_MAX + 1];
	const struct nicfit_verify_doc *o = NULL;
	struct nicfit_finding *f;
	size_t i;

	if (d->kind != NICFIT_VERIFY_IPERF3 || d->u.ip.json ||
	    d->measured_gbps + NICFIT_EPS >= low * d->expected_gbps)
		return 0;
	for (i = 0; i < v->ndocs; i++) {
		const struct nicfit_verify_doc *s = &v->docs[i];
		double m = s->u.ip.receiver_gbps >= 0 ? s->u.ip.receiver_gbps : s->u.ip.sender_gbps;

		if (s != d && s->text == d->text && (s->kind == NICFIT_VERIFY_IPERF2 ||
		    s->kind == NICFIT_VERIFY_IPERF3) && !s->u.ip.intervals &&
		    m + NICFIT_EPS >= low * d->expected_gbps && (!o || m > o->measured_gbps))
			o = s;
	}
	if (!o)
		return 0;
	d->ratio = d->measured_gbps / d->expected_gbps;
	d->verdict = NICFIT_VERDICT_LOW;
	d->verdict_code = "iperf3-tool-limit";
	nicfit__vline_at(d, d->u.ip.sum_line, q, sizeof(q));
	nicfit__vline_at(o, o->u.ip.sum_line, q2, sizeof(q2));
	f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_IPERF3_TOOL_LIMIT, NULL,
			 "%s: iperf3 %s = %.1f Gb/s is %.0f %% of the %.1f Gb/s ceiling, but %s "
			 "carried %.1f Gb/s over the same link in the same input: the limit is "
			 "iperf3's, not the network's; line %ld: \"%s\"; line %ld: \"%s\"",
			 d->input, d->what, d->measured_gbps, 100 * d->ratio, d->expected_gbps,
			 nicfit_verify_kind_name(o->kind), o->u.ip.receiver_gbps >= 0 ?
			 o->u.ip.receiver_gbps : o->u.ip.sender_gbps, d->u.ip.sum_line, q,
			 o->u.ip.sum_line, q2);
	if (!f || nicfit__finding_fix(&v->findings, f, "Use iperf3 3.16 or later (a thread per "
				      "stream), or run several iperf3 processes on different ports "
				      "(-p) and add their results; iperf2 -P already runs a thread "
				      "per stream."))
		return NICFIT_E_NOMEM;
	return 1;
}

/*
 * A UDP run. iperf sends UDP at the rate -b asks (1 Mbit/s by default in
 * iperf3, 1.05 in iperf2) and the receiver counts the datagrams that did
 * not arrive, so the rate a UDP run shows is what its sender offered, less
 * what was lost: it is no measure of what the link can carry, and is not
 * judged against the link's ceiling (iperf-udp-offered). What it does
 * measure is loss: above IPERF_UDP_LOSS_WARN a warning, below it a note.
 * Returns 1 for a UDP run (its rate is not judged), 0 for TCP, or
 * NICFIT_E_NOMEM.
 */
/*
 * iperf3-retransmits: the sender summary's count, or the Retr column summed
 * over the interval lines of a run cut before it (at least that many).
 */
static int judge_retransmits(struct nicfit_verify *v, const struct nicfit_verify_doc *d,
			     const char *where, const char *q)
{
	const struct nicfit_iperf3 *ip = &d->u.ip;
	struct nicfit_finding *f;

	if (ip->retransmits > 0 && ip->retr_intervals) {
		/* a run cut before its summary: the Retr column of the interval lines read */
		f = nicfit__find(&v->findings, d->verdict == NICFIT_VERDICT_LOW ||
				 d->verdict == NICFIT_VERDICT_FAR_BELOW ? NICFIT_SEV_WARNING :
				 NICFIT_SEV_INFO, NICFIT_CODE_IPERF3_RETRANSMITS, NULL,
				 "%s: at least %ld retransmitted segments, the %s column summed "
				 "over the %d interval lines up to %.0f s; the run is cut before its "
				 "summary, so the total is partial; %s: \"%s\"", d->input,
				 ip->retransmits, d->kind == NICFIT_VERIFY_IPERF2 ? "Rtry" : "Retr",
				 ip->retr_intervals, ip->duration_s, where, q);
		if (f && nicfit__finding_fix(&v->findings, f, "Look for drops on the path (switch "
					     "counters, NIC rx discards) and for a too small socket "
					     "buffer (-w); paste the whole run, with its sender "
					     "summary, for the total."))
			return NICFIT_E_NOMEM;
	} else if (ip->retransmits > 0) {
		f = nicfit__find(&v->findings, d->verdict == NICFIT_VERDICT_LOW ||
				 d->verdict == NICFIT_VERDICT_FAR_BELOW ? NICFIT_SEV_WARNING :
				 NICFIT_SEV_INFO, NICFIT_CODE_IPERF3_RETRANSMITS,
				 NULL, "%s: %ld retransmitted segments in %.0f s; %s: \"%s\"",
				 d->input, ip->retransmits, ip->duration_s, where, q);
		if (f && nicfit__finding_fix(&v->findings, f, "Look for drops on the path (switch "
					     "counters, NIC rx discards) and for a too small socket "
					     "buffer (-w)."))
			return NICFIT_E_NOMEM;
	}
	return 0;
}

/* ITU-T Y.1541's packet loss objective (IPLR) for its classes 0-4: 1 in 1,000 */
#define IPERF_UDP_LOSS_WARN 1e-3

static int judge_udp(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_iperf3 *ip = &d->u.ip;
	char q[NICFIT__VQUOTE_MAX + 1], jit[32] = "", where[32];
	struct nicfit_finding *f;
	double loss;

	if (!ip->udp)
		return 0;
	if (ip->datagrams <= 0 || !ip->lost) {
		long line = ip->datagrams > 0 ? ip->loss_line : ip->sum_line;

		nicfit__vline_at(d, line, q, sizeof(q));
		if (ip->datagrams > 0)
			snprintf(where, sizeof(where), "0 of %ld datagrams lost", ip->datagrams);
		else
			snprintf(where, sizeof(where), "no receiver report");
		f = nicfit__find(&v->findings, NICFIT_SEV_INFO, NICFIT_CODE_IPERF_UDP_OFFERED, NULL,
				 "%s: UDP, %s: %.3f Gb/s is the rate the sender offered (-b), not "
				 "what the link can carry, and is not judged against it; line %ld: "
				 "\"%s\"", d->input, where, d->measured_gbps, line, q);
		if (!f || nicfit__finding_fix(&v->findings, f, "To measure the link, run TCP with "
					      "parallel streams (iperf3 -c HOST -P 8), or raise the UDP "
					      "target (-b) until the receiver reports loss."))
			return NICFIT_E_NOMEM;
		return 1;
	}
	loss = (double)ip->lost / (double)ip->datagrams;
	nicfit__vline_at(d, ip->loss_line, q, sizeof(q));
	if (ip->jitter_ms >= 0)
		snprintf(jit, sizeof(jit), ", jitter %s%.3f ms", ip->intervals ? "up to " : "",
			 ip->jitter_ms);
	f = nicfit__find(&v->findings, loss > IPERF_UDP_LOSS_WARN ? NICFIT_SEV_WARNING :
			 NICFIT_SEV_INFO, NICFIT_CODE_IPERF_UDP_LOSS, NULL,
			 "%s: UDP, %ld of %ld datagrams lost (%.2f %%)%s%s; the rate (%.3f Gb/s) "
			 "is what was offered less the loss, not judged against the link; line "
			 "%ld: \"%s\"", d->input, ip->lost, ip->datagrams, 100 * loss, jit,
			 ip->intervals ? ", summed over the interval lines (worst quoted)" : "",
			 d->measured_gbps, ip->loss_line, q);
	if (!f || nicfit__finding_fix(&v->findings, f, "Compare the receiver's socket drops "
				      "(netstat -su: receive buffer errors; raise -w or "
				      "net.core.rmem_max) with the NICs' and switches' drop counters "
				      "(ethtool -S): drops at the receiver are the host's, on the "
				      "path the network's. A datagram larger than the path MTU (-l "
				      "above 1472 bytes on a 1500-byte MTU) is sent in fragments and "
				      "lost with any one of them: keep -l under the MTU."))
		return NICFIT_E_NOMEM;
	return 1;
}

static int judge_iperf3(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_verify_expect *x = &v->expect;
	struct nicfit_iperf3 *ip = &d->u.ip;
	struct nicfit_link_result lr;
	struct nicfit_finding *f;
	char q[NICFIT__VQUOTE_MAX + 1], where[32], how[64];
	double nic;
	int rc;

	d->measured_gbps = ip->receiver_gbps >= 0 ? ip->receiver_gbps : ip->sender_gbps;
	/* --bidir: each direction is one link's; the faster one is judged */
	if (ip->bidir && ip->sender_gbps > d->measured_gbps)
		d->measured_gbps = ip->sender_gbps;
	if (d->measured_gbps < 0)
		return 0;
	if (!ip->streams && ip->sum)
		d->what = nicfit__strfmt("%s %.2f Gb/s over several streams%s", ip->bidir ?
					 "one direction" : ip->receiver_gbps >= 0 ? "receiver" :
					 "sender", d->measured_gbps, ip->intervals ?
					 " (mean of the interval lines)" : "");
	else
		d->what = nicfit__strfmt("%s %.2f Gb/s over %d stream%s%s", ip->bidir ?
					 "one direction" : ip->receiver_gbps >= 0 ? "receiver" :
					 "sender", d->measured_gbps, ip->streams ? ip->streams : 1,
					 ip->streams > 1 ? "s" : "", ip->intervals ?
					 " (mean of the interval lines)" : "");
	if (!d->what)
		return NICFIT_E_NOMEM;
	nic = nic_goodput(x, NICFIT_PROTO_TCP, &lr);
	if (nic > 0) {
		d->expected_gbps = nic;
		d->arith = nicfit__strfmt("%.0fG TCP at %.0f-byte payload per frame: %.4f x %.1f "
					  "Gb/s = %.1f Gb/s", x->link.gbps, lr.payload_bytes,
					  lr.efficiency, lr.line_gbps, nic);
		if (!d->arith)
			return NICFIT_E_NOMEM;
	}
	if (ip->json)
		snprintf(where, sizeof(where), "the JSON summary");
	else
		snprintf(where, sizeof(where), "line %ld", ip->sum_line);
	if (ip->json)
		snprintf(q, sizeof(q), "end.sum_sent: %.2f Gb/s, %ld retransmits, %d stream%s",
			 ip->sender_gbps, ip->retransmits, ip->streams, ip->streams == 1 ? "" : "s");
	else
		nicfit__vline_at(d, ip->sum_line, q, sizeof(q));
	snprintf(how, sizeof(how), "one link's %.1f Gb/s line rate", lr.line_gbps);
	rc = nic > 0 ? judge_above_line(v, d, lr.line_gbps, how, NULL, ip->sum_line,
					ip->json ? q : NULL) : 0;
	if (rc < 0)
		return rc;
	if (!rc && (rc = judge_udp(v, d)) < 0)
		return rc;
	if (ip->udp) {
		/* a UDP rate is what was offered: no ceiling to hold it to */
		d->expected_gbps = -1;
		free(d->arith);
		d->arith = NULL;
	}
	if (nic > 0 && !rc && (rc = judge_tool_limit(v, d)) == 0)
		judge_ratio(v, d, NULL, ip->sum_line, ip->json ? q : NULL);
	if (rc < 0)
		return rc;
	if (ip->streams <= 1 && !ip->sum && !ip->bidir && d->kind == NICFIT_VERIFY_IPERF3 &&
	    !ip->udp && (x->link.gbps >= IPERF3_FAST_GBPS) &&
	    d->verdict != NICFIT_VERDICT_OK && d->verdict != NICFIT_VERDICT_ABOVE_LINE) {
		f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_IPERF3_ONE_STREAM,
				 NULL, "%s: one stream on a %.0fG link; %s: \"%s\"", d->input,
				 x->link.gbps, where, q);
		if (f && nicfit__finding_fix(&v->findings, f, "Run parallel streams: iperf3 -c HOST "
					     "-P 8 (iperf3 3.16 and later run each stream in its own "
					     "thread), or several iperf3 processes on different ports (-p)."))
			return NICFIT_E_NOMEM;
	}
	return judge_retransmits(v, d, where, q);
}

/*
 * The fix of a low or far-below verdict: the causes the other findings
 * show, most likely first. The order is how much of a link each cause
 * costs when it is there: sockets instead of RDMA (most of it), a failing
 * link or an address that does not route, no GPUDirect RDMA, a small path
 * MTU (a few per cent), then what limits the test rather than the
 * network (one TCP stream, small messages, sizes below the plateau), then
 * loss. Each cause's own finding quotes its line.
 */
static int verdict_causes(struct nicfit_verify *v, struct nicfit_finding *f,
			  enum nicfit_verify_kind kind)
{
	static const char *const ranked[] = {
		"nccl-net-socket", "nccl-ofi-tcp", "nccl-ib-completion-error", "nccl-error",
		"nccl-gid-link-local", "nccl-roce-v1", "nccl-gdr-disabled", "nccl-channel-no-gdr",
		"nccl-mtu-low", "iperf3-one-stream", "perftest-small-message",
		"verify-latency-bound", "iperf3-retransmits", "iperf-udp-loss", "nccl-warn", NULL,
	};
	struct nicfit_buf b;
	size_t i, k;
	int n = 0, rc;

	nicfit_buf_init(&b, 0);
	nicfit_buf_puts(&b, "Likely causes, most likely first:");
	for (k = 0; ranked[k]; k++)
		for (i = 0; i < v->findings.n; i++)
			if (!strcmp(v->findings.v[i].code, ranked[k])) {
				const struct nicfit_code_info *ci = nicfit_code_lookup(ranked[k]);

				nicfit_buf_addf(&b, " %d) %s: %s (its finding quotes the line);", ++n,
						ranked[k], ci ? ci->meaning : "");
				break;
			}
	if (!n && kind == NICFIT_VERIFY_NCCL_TESTS)
		nicfit_buf_puts(&b, " none shown by the inputs: give verify the NCCL_DEBUG=INFO "
				"log of the run (NCCL_DEBUG_SUBSYS=INIT,NET) with the table, and check "
				"each HCA alone with ib_write_bw.");
	else if (!n && kind == NICFIT_VERIFY_PERFTEST)
		nicfit_buf_puts(&b, " none shown by the report: compare the port's rate "
				"(ibv_devinfo) and the card's PCIe link (nicfit audit) with the "
				"ceiling, and try more queue pairs (-q 4).");
	else if (!n)
		nicfit_buf_puts(&b, " none shown by the output: check the interface's speed and "
				"MTU, then run parallel streams (-P 8).");
	if (b.len && b.data[b.len - 1] == ';')
		b.data[--b.len] = '.';
	rc = nicfit_buf_error(&b) ? NICFIT_E_NOMEM : nicfit__finding_fix(&v->findings, f, "%s", b.data);
	nicfit_buf_release(&b);
	return rc;
}

int nicfit_verify_judge(struct nicfit_verify *v, const struct nicfit_verify_expect *x,
			struct nicfit_error *err)
{
	char how[160];
	size_t i;
	int rc = 0, any_ceiling = 0;

	if (x)
		v->expect = *x;
	from_inputs(v, &v->expect, how, sizeof(how));
	if (how[0] && !v->expect.source)
		v->expect.source = "the inputs";
	for (i = 0; i < v->ndocs && !rc; i++) {
		struct nicfit_verify_doc *d = &v->docs[i];

		switch (d->kind) {
		case NICFIT_VERIFY_NCCL_TESTS:
			rc = judge_tests(v, d);
			break;
		case NICFIT_VERIFY_NCCL_LOG:
			rc = nicfit__verify_causes(v, d);
			break;
		case NICFIT_VERIFY_PERFTEST:
			rc = judge_perftest(v, d);
			break;
		case NICFIT_VERIFY_IPERF3:
		case NICFIT_VERIFY_IPERF2:
			rc = judge_iperf3(v, d);
			break;
		case NICFIT_VERIFY_NCCL_TOPO:
			break;
		}
		any_ceiling |= d->expected_gbps > 0;
	}
	if (!rc && !any_ceiling) {
		for (i = 0; i < v->ndocs; i++)
			if (v->docs[i].measured_gbps >= 0 && !(v->docs[i].verdict_code &&
			    !strcmp(v->docs[i].verdict_code, "verify-single-node")) &&
			    !((v->docs[i].kind == NICFIT_VERIFY_IPERF3 ||
			       v->docs[i].kind == NICFIT_VERIFY_IPERF2) && v->docs[i].u.ip.udp))
				break;
		if (i < v->ndocs && !nicfit__find(&v->findings, NICFIT_SEV_INFO,
						  NICFIT_CODE_VERIFY_NO_EXPECTATION, NULL,
						  "no ceiling for %s: %s", v->docs[i].input,
						  v->expect.link.gbps <= 0 ? "the link's rate is not known "
						  "(--link SPEED or --nic PART)" :
						  "a collective needs two nodes or more (--nodes N)"))
			rc = NICFIT_E_NOMEM;
	}
	for (i = 0; i < v->findings.n && !rc; i++) {
		struct nicfit_finding *f = &v->findings.v[i];
		size_t j;

		if (strcmp(f->code, "verify-low") && strcmp(f->code, "verify-far-below"))
			continue;
		/* the document the verdict is about: its input opens the message */
		for (j = 0; j < v->ndocs; j++)
			if (!strncmp(f->message, v->docs[j].input, strlen(v->docs[j].input)) &&
			    (v->docs[j].verdict == NICFIT_VERDICT_LOW ||
			     v->docs[j].verdict == NICFIT_VERDICT_FAR_BELOW))
				break;
		rc = verdict_causes(v, f, j < v->ndocs ? v->docs[j].kind : NICFIT_VERIFY_IPERF3);
	}
	if (!rc && v->findings.oom)
		rc = NICFIT_E_NOMEM;
	if (!rc)
		rc = nicfit_findings_sort(&v->findings);
	v->judged = 1;
	return rc ? nicfit_error_set(err, rc, "verify: %s", nicfit_strerror(rc)) : 0;
}
