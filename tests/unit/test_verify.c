/*
 * test_verify.c - nicfit verify on the real pastes of tests/fixtures/verify:
 * what each parser reads (rows, peaks, ranks, HCAs, GDR per HCA, channels,
 * environment, perftest and iperf3 figures), the bus-bandwidth factor, the
 * ceiling's arithmetic and the verdict, the causes named with the line
 * they rest on, and bad input.
 */
#include "unit.h"

#include <unistd.h>

#include "nicfit/file.h"
#include "nicfit/finding.h"
#include "nicfit/units.h"
#include "nicfit/verify.h"

#define FIX "tests/fixtures/verify/"

static struct nicfit_verify *load(const char *name)
{
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_error err;
	char path[256], *text = NULL;
	size_t len = 0;

	assert_non_null(v);
	nicfit_error_clear(&err);
	snprintf(path, sizeof(path), FIX "%s", name);
	if (nicfit_read_file(path, NICFIT_VERIFY_MAX_BYTES, &text, &len, &err))
		fail_msg("%s: %s", path, err.msg);
	if (nicfit_verify_add_text(v, name, text, len, &err))
		fail_msg("%s: %s", path, err.msg);
	free(text);
	return v;
}

static struct nicfit_verify *load_text(const char *text)
{
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_error err;

	assert_non_null(v);
	nicfit_error_clear(&err);
	if (nicfit_verify_add_text(v, "t", text, strlen(text), &err))
		fail_msg("t: %s", err.msg);
	return v;
}

static void judge(struct nicfit_verify *v, const struct nicfit_verify_expect *x)
{
	struct nicfit_error err;

	nicfit_error_clear(&err);
	if (nicfit_verify_judge(v, x, &err))
		fail_msg("judge: %s", err.msg);
}

static const struct nicfit_verify_doc *doc(const struct nicfit_verify *v,
					   enum nicfit_verify_kind k)
{
	size_t i;

	for (i = 0; i < v->ndocs; i++)
		if (v->docs[i].kind == k)
			return &v->docs[i];
	fail_msg("no %s document", nicfit_verify_kind_name(k));
	return NULL;
}

static const struct nicfit_finding *find(const struct nicfit_verify *v, const char *code,
					 const char *device)
{
	size_t i;

	for (i = 0; i < v->findings.n; i++)
		if (!strcmp(v->findings.v[i].code, code) &&
		    (!device || (v->findings.v[i].device && !strcmp(v->findings.v[i].device, device))))
			return &v->findings.v[i];
	return NULL;
}

static void bus_factor(void **state)
{
	(void)state;
	assert_near(nicfit_nccl_bus_factor("allreduce", 16), 2.0 * 15 / 16, 1e-12);
	assert_near(nicfit_nccl_bus_factor("allgather", 8), 7.0 / 8, 1e-12);
	assert_near(nicfit_nccl_bus_factor("reducescatter", 2), 0.5, 1e-12);
	assert_near(nicfit_nccl_bus_factor("alltoall", 4), 0.75, 1e-12);
	assert_near(nicfit_nccl_bus_factor("broadcast", 64), 1.0, 1e-12);
	assert_near(nicfit_nccl_bus_factor("sendrecv", 64), 1.0, 1e-12);
	assert_near(nicfit_nccl_bus_factor("nonsense", 8), 0, 0);
	assert_near(nicfit_nccl_bus_factor("allreduce", 0), 0, 0);
}

/*
 * The must-show case: 3 nodes of 8 GPUs with 8 x 400G (NDR) rails each,
 * peaking at 29.5 GB/s busbw, a tenth of the rails: far below, with the
 * arithmetic 8 x 397.5 Gb/s (4096/(4096+26) of 400) = 3179.8 Gb/s.
 */
static void ndr_far_below(void **state)
{
	struct nicfit_verify *v = load("nccl-1453-h100-3node-ranktags.txt");
	struct nicfit_verify_expect x;
	const struct nicfit_verify_doc *d;
	const struct nicfit_finding *f;

	(void)state;
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_parse_speed("NDR", "t", &x.link, NULL), 0);
	x.nodes = 3;
	x.gpus_per_node = 8;
	x.nics_per_node = 8;
	x.source = "test";
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_int_equal(d->u.t.nrows, 10);
	assert_string_equal(d->u.t.op, "allreduce");
	assert_int_equal(d->u.t.nranks, 24);        /* from busbw/algbw = 2(n-1)/n */
	assert_near(d->u.t.rows[d->u.t.peak].busbw[0], 29.50, 1e-9);
	assert_near(d->u.t.rows[d->u.t.peak].bytes, 33554432, 0);
	assert_int_equal(d->u.t.truncated, 1);
	assert_near(d->expected_gbps, 8 * 400.0 * 4096 / (4096 + 26), 1e-6);
	assert_near(d->measured_gbps, 29.50 * 8, 1e-9);
	assert_int_equal(d->verdict, NICFIT_VERDICT_FAR_BELOW);
	assert_non_null(strstr(d->arith, "8 rails x 397.5 Gb/s"));
	assert_non_null(strstr(d->arith, "= 3179.8 Gb/s = 397.5 GB/s busbw"));
	f = find(v, "verify-far-below", NULL);
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_CRITICAL);
	assert_non_null(strstr(f->message, "7 % of the 3179.8 Gb/s ceiling"));
	assert_non_null(strstr(f->message, "line 7: \"[0]     33554432"));
	/* the causes the inputs show, ranked: here, sizes below the plateau */
	assert_non_null(strstr(f->fix, "1) verify-latency-bound"));
	assert_int_equal(nicfit_verify_exit_code(v), 2);
	nicfit_verify_free(v);
}

/* The thresholds are named and overridable: 7 % is "low" with far_ratio 0.05. */
static void thresholds(void **state)
{
	struct nicfit_verify *v = load("nccl-1453-h100-3node-ranktags.txt");
	struct nicfit_verify_expect x;

	(void)state;
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_parse_speed("NDR", "t", &x.link, NULL), 0);
	x.nodes = 3;
	x.far_ratio = 0.05;
	judge(v, &x);
	assert_int_equal(doc(v, NICFIT_VERIFY_NCCL_TESTS)->verdict, NICFIT_VERDICT_LOW);
	assert_non_null(find(v, "verify-low", NULL));
	assert_int_equal(nicfit_verify_exit_code(v), 1);
	nicfit_verify_free(v);
}

/*
 * Two ranks on two nodes, Tree forced, 41.5 GB/s busbw: one 100G NIC a
 * node cannot carry 332 Gb/s whatever the algorithm (busbw of 2 ranks is
 * algbw, and a node must send its data once): above line rate, a warning
 * that points at the NIC count, never "as expected". The run names four
 * HCAs (NCCL_IB_HCA): with four rails it is a plain 85 %.
 */
static void above_line_rate(void **state)
{
	struct nicfit_verify *v = load("nccl-tests-232-h100-tree-4nic.txt");
	struct nicfit_verify_expect x;
	const struct nicfit_verify_doc *d;
	const struct nicfit_finding *f;

	(void)state;
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_parse_speed("100GbE", "t", &x.link, NULL), 0);
	x.nodes = 2;
	x.gpus_per_node = 1;
	x.nics_per_node = 1;
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_string_equal(d->u.t.collective, "all_reduce_perf");
	assert_near(d->u.t.rows[d->u.t.peak].busbw[1], 41.52, 1e-9);
	assert_int_equal(d->u.t.peak_inplace, 1);
	assert_int_equal(d->verdict, NICFIT_VERDICT_ABOVE_LINE);
	assert_string_equal(d->verdict_code, "verify-above-line-rate");
	assert_null(find(v, "verify-above-ring", NULL));
	f = find(v, "verify-above-line-rate", NULL);
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_WARNING);
	assert_non_null(strstr(f->message, "332.2 Gb/s is above the 100.0 Gb/s"));
	assert_non_null(strstr(f->fix, "--nics-per-node"));
	assert_int_equal(nicfit_verify_exit_code(v), 1);
	nicfit_verify_free(v);

	v = load("nccl-tests-232-h100-tree-4nic.txt");
	x.nics_per_node = 4;
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_int_equal(d->verdict, NICFIT_VERDICT_OK);
	assert_null(d->verdict_code);
	assert_null(find(v, "verify-above-line-rate", NULL));
	nicfit_verify_free(v);
}

/*
 * 16 ranks on two nodes of 8 NDR rails at 469.6 GB/s busbw: above the
 * ring's 397.5 GB/s, under the 750 GB/s that 2(n-1)/n of the rails' line
 * rate allows (a tree on two nodes): as expected, with verify-above-ring.
 */
static void above_ring(void **state)
{
	struct nicfit_verify *v = load("nccl-tests-2.19.6-2node-16rank-summary.txt");
	struct nicfit_verify_expect x;
	const struct nicfit_verify_doc *d;
	const struct nicfit_finding *f;

	(void)state;
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_parse_speed("NDR", "t", &x.link, NULL), 0);
	x.nodes = 2;
	x.nics_per_node = 8;
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_int_equal(d->verdict, NICFIT_VERDICT_OK);
	assert_string_equal(d->verdict_code, "verify-above-ring");
	f = find(v, "verify-above-ring", NULL);
	assert_non_null(f);
	assert_non_null(strstr(f->fix, "NCCL_ALGO=Ring"));
	assert_null(find(v, "verify-above-line-rate", NULL));
	nicfit_verify_free(v);
}

/* perftest and iperf3 above their one link's line rate; within it, as expected. */
static void above_line_rate_p2p(void **state)
{
	static const char pt[] = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]"
				 "   MsgRate[Mpps]\n 65536          5000        97.2               %s"
				 "   0.18\n";
	static const char ip[] = "[SUM]   0.00-10.00  sec  46.6 GBytes  %s Gbits/sec  0  sender\n"
				 "[SUM]   0.00-10.00  sec  46.6 GBytes  %s Gbits/sec  receiver\n";
	struct nicfit_verify_expect x;
	struct nicfit_verify *v;
	char text[512];

	(void)state;
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_parse_speed("400G", "t", &x.link, NULL), 0);
	snprintf(text, sizeof(text), pt, "980.5");
	v = load_text(text);
	judge(v, &x);
	assert_int_equal(doc(v, NICFIT_VERIFY_PERFTEST)->verdict, NICFIT_VERDICT_ABOVE_LINE);
	assert_non_null(strstr(find(v, "verify-above-line-rate", NULL)->message,
			       "above the 400.0 Gb/s"));
	nicfit_verify_free(v);
	/* 396 Gb/s: above the 392.1 Gb/s RoCE goodput, within the line rate */
	snprintf(text, sizeof(text), pt, "396.0");
	v = load_text(text);
	judge(v, &x);
	assert_int_equal(doc(v, NICFIT_VERIFY_PERFTEST)->verdict, NICFIT_VERDICT_OK);
	assert_null(doc(v, NICFIT_VERIFY_PERFTEST)->verdict_code);
	nicfit_verify_free(v);

	assert_int_equal(nicfit_parse_speed("40G", "t", &x.link, NULL), 0);
	snprintf(text, sizeof(text), ip, "80.0", "79.9");
	v = load_text(text);
	judge(v, &x);
	assert_int_equal(doc(v, NICFIT_VERIFY_IPERF3)->verdict, NICFIT_VERDICT_ABOVE_LINE);
	assert_non_null(find(v, "verify-above-line-rate", NULL));
	assert_null(find(v, "iperf3-one-stream", NULL));
	nicfit_verify_free(v);
}

static void table_layouts(void **state)
{
	struct nicfit_verify *v;
	const struct nicfit_verify_doc *d;

	(void)state;
	/* the "error" column, no root column */
	v = load("nccl-1244-h20-2node-errorcol.txt");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_int_equal(d->u.t.nrows, 8);
	assert_int_equal(d->u.t.wrong, 0);
	assert_near(d->u.t.rows[7].time_us[1], 46.42, 1e-9);
	assert_non_null(find(v, "verify-latency-bound", NULL));
	nicfit_verify_free(v);
	/* all_gather: busbw/algbw = (n-1)/n gives the op and n */
	v = load("nccl-1435-allgather-bf16.txt");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_string_equal(d->u.t.op, "allgather");
	assert_int_equal(d->u.t.nranks, 2);
	assert_near(d->u.t.bus_factor, 0.5, 1e-12);
	assert_string_equal(d->u.t.rows[0].type, "bfloat16");
	nicfit_verify_free(v);
	/* nccl-tests 2.20 header: collective, ranks, hosts, device */
	v = load("nccl-tests-2.20-gb10-2node.txt");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_string_equal(d->u.t.collective, "all_reduce_perf");
	assert_int_equal(d->u.t.nranks, 2);
	assert_int_equal(d->u.t.nodes, 2);
	assert_string_equal(d->u.t.gpu, "NVIDIA GB10");
	assert_non_null(find(v, "verify-no-expectation", NULL));
	nicfit_verify_free(v);
	/* the old "# nThreads:" format, Rank lines without Group */
	v = load("rccl-old-nthreads-format.txt");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_int_equal(d->u.t.nrows, 5);
	assert_int_equal(d->u.t.nranks, 2);
	assert_int_equal(d->u.t.nodes, 1);
	nicfit_verify_free(v);
	/* rows only, the last one cut short: read as out-of-place only */
	v = load("deepep-303-h20-alltoall-truncated.txt");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_int_equal(d->u.t.nrows, 11);
	assert_true(d->u.t.rows[10].busbw[1] < 0);
	nicfit_verify_free(v);
}

/* NET/Socket while the expectation is an RDMA link: the transport and the cause, quoted. */
static void socket_with_rdma(void **state)
{
	struct nicfit_verify *v = load("nccl-941-container-socket-2.17.1.txt");
	struct nicfit_verify_expect x;
	const struct nicfit_verify_doc *d;
	const struct nicfit_finding *f;

	(void)state;
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_parse_speed("100GbE", "t", &x.link, NULL), 0);
	x.proto = 1; /* RoCE */
	x.source = "the options";
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_NCCL_LOG);
	assert_string_equal(d->u.log.version, "2.17.1");
	assert_string_equal(d->u.log.network, "Socket");
	assert_int_equal(d->u.log.ib_no_device, 1);
	assert_string_equal(d->u.log.plugin, "IBext");
	assert_string_equal(d->u.log.socket_ifs, "ens5f0np0, ens3f0np0, ens8f1np1, bond0, virbr0");
	f = find(v, "nccl-net-socket", NULL);
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_CRITICAL);
	assert_non_null(strstr(f->message, "NET/Socket"));
	assert_non_null(strstr(f->message, "line 16: \"05-06-76-200:7839:7911 [0] NCCL INFO Using network Socket\""));
	assert_non_null(strstr(f->fix, "No device found"));
	assert_non_null(strstr(f->fix, "/dev/infiniband"));
	assert_int_equal(nicfit_verify_exit_code(v), 2);
	nicfit_verify_free(v);
}

/* Sockets on hosts with no RDMA device (AWS without EFA) are not a fault. */
static void socket_without_rdma(void **state)
{
	struct nicfit_verify *v = load("nccl-226-aws-socket-noib.txt");
	const struct nicfit_verify_doc *d;

	(void)state;
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_LOG);
	assert_int_equal(d->u.log.nhosts, 18);
	assert_int_equal(d->u.log.ib_no_device, 1);
	assert_null(find(v, "nccl-net-socket", NULL));
	nicfit_verify_free(v);
	/* libibverbs missing on a desktop: sockets, two WARN lines, no socket finding */
	v = load("nccl-tests-131-libibverbs-socket-2.16.5.txt");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_LOG);
	assert_int_equal(d->u.log.no_ibverbs, 1);
	assert_string_equal(d->u.log.version, "2.16.5");
	assert_int_equal(d->u.log.nwarns, 2);
	assert_null(find(v, "nccl-net-socket", NULL));
	assert_non_null(find(v, "nccl-warn", NULL));
	nicfit_verify_free(v);
}

/*
 * NET/OFI: the provider aws-ofi-nccl selected is shown (real pastes: efa
 * on p4d, cxi on Slingshot); the tcp provider is the socket case. The
 * lines of the tcp case follow aws-ofi-nccl's own formats
 * (src/nccl_ofi_net.c: "Selected provider is %s, fabric is %s (found %d
 * nics)", "No eligible providers were found"), each form tried.
 */
static void ofi_provider(void **state)
{
	static const char *const tcp[] = {
		"h1:7:7 [0] NCCL INFO NET/OFI Initializing aws-ofi-nccl 1.14.2\n"
		"h1:7:7 [0] NCCL WARN NET/OFI No eligible providers were found\n"
		"h1:7:7 [0] NCCL WARN NET/OFI Selected provider is tcp, fabric is 10.0.0.0/16 "
		"(found 8 nics)\n"
		"h1:7:7 [0] NCCL INFO Using network AWS Libfabric\n",
		"h1:7:7 [0] NCCL INFO NET/OFI Selected Provider is sockets (found 1 nics)\n",
		"h1:7:7 [0] NCCL INFO NET/OFI Selected Provider is tcp;ofi_rxm\n",
	};
	struct nicfit_verify *v = load("nccl-527-p4d-ofi-efa-2.9.9.txt");
	const struct nicfit_verify_doc *d;
	const struct nicfit_finding *f;
	size_t i;

	(void)state;
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_LOG);
	assert_string_equal(d->u.log.network, "AWS Libfabric");
	assert_string_equal(d->u.log.ofi_provider, "efa");
	assert_int_equal(d->u.log.ofi_provider_line, 3);
	assert_null(find(v, "nccl-ofi-tcp", NULL));
	nicfit_verify_free(v);
	v = load("determined-169-slingshot-ofi-cxi.txt");
	judge(v, NULL);
	assert_string_equal(doc(v, NICFIT_VERIFY_NCCL_LOG)->u.log.ofi_provider, "cxi");
	assert_null(find(v, "nccl-ofi-tcp", NULL));
	nicfit_verify_free(v);
	for (i = 0; i < sizeof(tcp) / sizeof(tcp[0]); i++) {
		v = load_text(tcp[i]);
		judge(v, NULL);
		f = find(v, "nccl-ofi-tcp", NULL);
		assert_non_null(f);
		assert_int_equal(f->severity, NICFIT_SEV_CRITICAL);
		assert_non_null(strstr(f->message, "Selected "));
		assert_non_null(strstr(f->fix, "fi_info -p efa"));
		assert_int_equal(nicfit_verify_exit_code(v), 2);
		if (i == 0) {
			d = doc(v, NICFIT_VERIFY_NCCL_LOG);
			assert_string_equal(d->u.log.ofi_provider, "tcp");
			assert_string_equal(d->u.log.ofi_fabric, "10.0.0.0/16");
			assert_int_equal(d->u.log.ofi_nics, 8);
			assert_non_null(strstr(f->fix, "No eligible providers were found"));
		}
		nicfit_verify_free(v);
	}
	/* a provider whose name only starts like tcp's is not it */
	v = load_text("h1:7:7 [0] NCCL INFO NET/OFI Selected Provider is tcpx\n");
	judge(v, NULL);
	assert_null(find(v, "nccl-ofi-tcp", NULL));
	nicfit_verify_free(v);
}

/* GPUDirect RDMA disabled, said per HCA, with NCCL's reason and its fix. */
static void gdr_per_hca(void **state)
{
	struct nicfit_verify *v = load("nccl-899-gdr-no-module.txt");
	const struct nicfit_verify_doc *d;
	const struct nicfit_finding *f;
	char dev[8];
	int i;

	(void)state;
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_LOG);
	assert_int_equal(d->u.log.nhcas, 4);
	assert_int_equal(d->u.log.hcas[0].gdr, -1);
	for (i = 1; i <= 3; i++) {
		snprintf(dev, sizeof(dev), "mlx5_%d", i);
		assert_string_equal(d->u.log.hcas[i].name, dev);
		assert_int_equal(d->u.log.hcas[i].gdr, 0);
		assert_string_equal(d->u.log.hcas[i].gdr_reason, "no module");
		f = find(v, "nccl-gdr-disabled", dev);
		assert_non_null(f);
		assert_int_equal(f->severity, NICFIT_SEV_WARNING);
		assert_non_null(strstr(f->fix, "nvidia-peermem"));
		assert_non_null(strstr(f->message, "(no module)"));
	}
	assert_int_equal(d->u.log.chan_net, 11);
	assert_int_equal(d->u.log.chan_gdr, 0);
	assert_int_equal(d->u.log.nhosts, 2);
	assert_int_equal(nicfit_verify_exit_code(v), 1);
	nicfit_verify_free(v);
}

static void log_versions(void **state)
{
	struct nicfit_verify *v;
	const struct nicfit_verify_doc *d;

	(void)state;
	/* 2.4.7: HCA list with link layer, the env echo, no "Using network" line */
	v = load("nv_peer_memory-56-nccl-2.4.7.txt");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_LOG);
	assert_string_equal(d->u.log.version, "2.4.7");
	assert_int_equal(d->u.log.nhcas, 1);
	assert_string_equal(d->u.log.hcas[0].name, "mlx5_0");
	assert_int_equal(d->u.log.hcas[0].port, 1);
	assert_string_equal(d->u.log.hcas[0].link, "IB");
	assert_int_equal(d->u.log.nenv, 1);
	assert_string_equal(d->u.log.env[0].name, "NCCL_IB_DISABLE");
	assert_string_equal(d->u.log.env[0].value, "0");
	assert_null(find(v, "nccl-net-socket", NULL));
	nicfit_verify_free(v);
	/* RoCE with relaxed ordering, a result trace */
	v = load("nccl-676-dgxa100-roce-ro.txt");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_LOG);
	assert_string_equal(d->u.log.hcas[0].name, "mlx5_9");
	assert_string_equal(d->u.log.hcas[0].link, "RoCE");
	assert_int_equal(d->u.log.relaxed_ordering, 1);
	assert_non_null(strstr(find(v, "nccl-error", NULL)->message, "ncclInternalError"));
	nicfit_verify_free(v);
	/* 2.27.6: "NCCL INFO NCCL version", "Bootstrap:" */
	v = load("nccl-1866-h100-vm-2.27.6.txt");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_LOG);
	assert_string_equal(d->u.log.version, "2.27.6");
	assert_string_equal(d->u.log.bootstrap_if, "enp9s0np0");
	assert_int_equal(d->u.log.nhosts, 2);
	nicfit_verify_free(v);
}

static void perftest_iperf3(void **state)
{
	struct nicfit_verify *v;
	struct nicfit_verify_expect x;
	const struct nicfit_verify_doc *d;

	(void)state;
	v = load("perftest-273-write-bw-8byte.txt");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_PERFTEST);
	assert_string_equal(d->u.pt.device, "ib0");
	assert_string_equal(d->u.pt.link_type, "Ethernet");
	assert_int_equal(d->u.pt.gid_index, 2);
	assert_int_equal(d->u.pt.gbits, 1);
	assert_near(d->u.pt.bw_avg_gbps, 0.48, 1e-12);
	assert_non_null(find(v, "perftest-small-message", "ib0"));
	nicfit_verify_free(v);
	/* MB/sec is 2^20 bytes/s (perftest's format_factor) */
	v = load("perftest-65-send-bw-markdown.txt");
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_parse_speed("EDR", "t", &x.link, NULL), 0);
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_PERFTEST);
	assert_near(d->u.pt.bw_avg_gbps, 5544.28 * 1048576 * 8 / 1e9, 1e-9);
	assert_int_equal(d->verdict, NICFIT_VERDICT_FAR_BELOW);
	nicfit_verify_free(v);
	v = load("perftest-234-write-bw-truncated.txt");
	judge(v, NULL);
	assert_non_null(find(v, "verify-truncated", "mlx5_0"));
	nicfit_verify_free(v);
	/* quoted in a reply ("> "): the test's name and rows as if unquoted */
	v = load_text("> ---------------------------------------------------------------\n"
		      ">                     RDMA_Write BW Test\n"
		      ">  Link type       : IB\n"
		      ">  #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
		      ">  65536      5000             97.10              97.05   \t\t   0.185\n"
		      "> > \n");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_PERFTEST);
	assert_string_equal(d->u.pt.test, "RDMA_Write BW Test");
	assert_int_equal(d->u.pt.bytes, 65536);
	assert_near(d->u.pt.bw_avg_gbps, 97.05, 1e-12);
	nicfit_verify_free(v);
	/* iperf3 text: one stream on 10G at 9.30 Gb/s is as expected; its retransmits are info */
	v = load("iperf3-394-10g-retransmits.txt");
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_parse_speed("10GbE", "t", &x.link, NULL), 0);
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_IPERF3);
	assert_near(d->u.ip.sender_gbps, 9.30, 1e-12);
	assert_int_equal(d->u.ip.retransmits, 1245);
	assert_int_equal(d->verdict, NICFIT_VERDICT_OK);
	assert_int_equal(find(v, "iperf3-retransmits", NULL)->severity, NICFIT_SEV_INFO);
	assert_int_equal(nicfit_verify_exit_code(v), 0);
	nicfit_verify_free(v);
	/* iperf3 --json: one stream on 100G far below, the -P fix */
	v = load("iperf3-json-gcp-1stream.json");
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_parse_speed("100GbE", "t", &x.link, NULL), 0);
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_IPERF3);
	assert_int_equal(d->u.ip.json, 1);
	assert_string_equal(d->u.ip.version, "3.9");
	assert_int_equal(d->u.ip.streams, 1);
	assert_int_equal(d->u.ip.retransmits, 275);
	assert_near(d->u.ip.receiver_gbps, 0.38262187677134335, 1e-9);
	assert_non_null(strstr(find(v, "iperf3-one-stream", NULL)->fix, "-P 8"));
	assert_non_null(strstr(find(v, "verify-far-below", NULL)->fix,
			       "1) iperf3-one-stream: one TCP stream"));
	nicfit_verify_free(v);
	/* 8 streams, no summary: read, not judged */
	v = load("iperf3-408-40g-8streams-truncated.txt");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_IPERF3);
	assert_int_equal(d->u.ip.streams, 8);
	assert_true(d->measured_gbps < 0);
	/* its Retr column over the three whole stream lines: a partial count, said so */
	assert_int_equal(d->u.ip.retransmits, 548 + 352 + 416);
	assert_int_equal(d->u.ip.retr_intervals, 3);
	nicfit_verify_free(v);
	/* [SUM] lines carry the Retr column of all streams: they are summed, not the streams' */
	v = load_text("iperf3 -c 10.0.0.2 -P 2\n"
		      "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n"
		      "[  5]   0.00-1.00   sec   552 MBytes  4.63 Gbits/sec   12    1.1 MBytes\n"
		      "[  7]   0.00-1.00   sec   551 MBytes  4.62 Gbits/sec    3    1.2 MBytes\n"
		      "[SUM]   0.00-1.00   sec  1.08 GBytes  9.25 Gbits/sec   15\n"
		      "[  5]   1.00-2.00   sec   552 MBytes  4.63 Gbits/sec    7    1.1 MBytes\n"
		      "[  7]   1.00-2.00   sec   551 MBytes  4.62 Gbits/sec    0    1.2 MBytes\n"
		      "[SUM]   1.00-2.00   sec  1.08 GBytes  9.25 Gbits/sec    7\n"
		      "[  5]   2.00-3.00   sec   552 MBytes  4.63 Gbits/sec    1    1.1 MB");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_IPERF3);
	assert_int_equal(d->u.ip.retransmits, 22);
	assert_int_equal(d->u.ip.retr_intervals, 2);
	assert_non_null(strstr(find(v, "iperf3-retransmits", NULL)->message, "partial"));
	nicfit_verify_free(v);
	/*
	 * iperf2 -e cut before its whole-run line (perfsonar/pscheduler#394's
	 * shape): the 0.00-1.00 line is an interval, not the run; the mean of
	 * the intervals and their Rtry column, partial. Whole, the run's line
	 * and its own Rtry.
	 */
	v = load_text("iperf -e -c host -i1\n"
		      "Client connecting to host, TCP port 5001 with pid 22911\n"
		      "[ ID] Interval        Transfer    Bandwidth       Write/Err  Rtry    Cwnd/RTT\n"
		      "[  3] 0.00-1.00 sec   102 MBytes   858 Mbits/sec  818/0        299     1090K/10000 us\n"
		      "[  3] 1.00-2.00 sec   111 MBytes   932 Mbits/sec  890/0          1     1186K/10000 us\n"
		      "[  3] 2.00-");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_IPERF2);
	assert_true(fabs(d->u.ip.receiver_gbps - 0.895) < 1e-9);
	assert_int_equal(d->u.ip.intervals, 2);
	assert_int_equal(d->u.ip.retransmits, 300);
	assert_int_equal(d->u.ip.retr_intervals, 2);
	nicfit_verify_free(v);
	v = load_text("iperf -e -c host -i1\n"
		      "[ ID] Interval        Transfer    Bandwidth       Write/Err  Rtry    Cwnd/RTT\n"
		      "[  3] 0.00-1.00 sec   102 MBytes   858 Mbits/sec  818/0        299     1090K/10000 us\n"
		      "[  3] 1.00-2.00 sec   111 MBytes   932 Mbits/sec  890/0          1     1186K/10000 us\n"
		      "[  3] 0.00-2.00 sec   213 MBytes   895 Mbits/sec  1708/0       300     1186K/10000 us\n");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_IPERF2);
	assert_true(fabs(d->u.ip.receiver_gbps - 0.895) < 1e-9);
	assert_int_equal(d->u.ip.intervals, 0);
	assert_int_equal(d->u.ip.retransmits, 300);
	assert_int_equal(d->u.ip.retr_intervals, 0);
	nicfit_verify_free(v);
	/* a receiver's interval lines have no Retr column: nothing is counted */
	v = load_text("Accepted connection from 10.0.0.1, port 50000\n"
		      "[ ID] Interval           Transfer     Bitrate\n"
		      "[  5]   0.00-1.00   sec   552 MBytes  4.63 Gbits/sec\n"
		      "[  5]   1.00-2.00   sec   552 MBytes  4.63 Gbits/sec\n");
	judge(v, NULL);
	assert_true(doc(v, NICFIT_VERIFY_IPERF3)->u.ip.retransmits < 0);
	nicfit_verify_free(v);
}

/*
 * nccl-tests ends its summary with "%g %s": a trailing space, or "OK" or
 * "FAILED" under NCCL_TESTS_MIN_BW (src/util.cu, writeResultFooter). Each
 * form is a complete run: the average is read, the run is not truncated,
 * and a FAILED is nccl-tests' own verdict, a warning.
 */
static void summary_lines(void **state)
{
	static const char *const files[] = { "nccl-tests-2.19.6-2node-16rank-summary.txt",
					     "nccl-tests-2.19.6-min-bw-ok.txt",
					     "nccl-tests-2.19.6-min-bw-failed.txt" };
	static const double avg[] = { 454.488, 367.575, 42.1388 };
	static const int ok[] = { -1, 1, 0 };
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct nicfit_verify *v = load(files[i]);
		const struct nicfit_verify_doc *d;
		const struct nicfit_finding *f;

		judge(v, NULL);
		d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
		assert_near(d->u.t.avg_busbw, avg[i], 1e-9);
		assert_int_equal(d->u.t.avg_line, 31);
		assert_int_equal(d->u.t.avg_ok, ok[i]);
		assert_int_equal(d->u.t.truncated, 0);
		assert_int_equal(d->u.t.wrong, 0);
		assert_int_equal(d->u.t.nranks, 16);
		assert_int_equal(d->u.t.nodes, 2);
		assert_null(find(v, "verify-truncated", NULL));
		f = find(v, "nccl-tests-min-bw-failed", NULL);
		if (ok[i]) {
			assert_null(f);
		} else {
			assert_non_null(f);
			assert_int_equal(f->severity, NICFIT_SEV_WARNING);
			assert_non_null(strstr(f->message, "42.14 GB/s"));
			assert_non_null(strstr(f->message, "line 31: \"# Avg bus bandwidth    : "
						      "42.1388 FAILED\""));
			assert_int_equal(nicfit_verify_exit_code(v), 1);
		}
		nicfit_verify_free(v);
	}
}

/* The v1.0.0 summary had no '#'; an out-of-bounds count with FAILED is wrong results. */
static void summary_old_and_oob(void **state)
{
	struct nicfit_verify *v;
	const struct nicfit_verify_doc *d;
	static const char row[] =
		"  1073741824     268435456     float     sum      -1   4517.3  237.69  445.68      0"
		"   4507.6  238.21  446.64      0\n";
	char text[1024];

	(void)state;
	snprintf(text, sizeof(text), "%s Out of bounds values : 0 OK\n Avg bus bandwidth    : "
		 "446.16 \n", row);
	v = load_text(text);
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_near(d->u.t.avg_busbw, 446.16, 1e-9);
	assert_int_equal(d->u.t.avg_line, 3);
	assert_int_equal(d->u.t.truncated, 0);
	nicfit_verify_free(v);

	snprintf(text, sizeof(text), "%s# Out of bounds values : 12 FAILED\n# Avg bus bandwidth    "
		 ": 446.16 OK\n#\n", row);
	v = load_text(text);
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_int_equal(d->u.t.wrong, 12);
	assert_int_equal(d->u.t.wrong_line, 2);
	assert_int_equal(d->u.t.avg_ok, 1);
	assert_non_null(find(v, "nccl-tests-wrong", NULL));
	nicfit_verify_free(v);
}

/*
 * A figure past NICFIT__VMAX_* (10^6 Gb/s, 10^15 bytes or us) is not a
 * measurement: the input is refused (65) at the figure's line and column,
 * or, in iperf3's JSON, with the member's path.
 */
static void absurd_figures(void **state)
{
	static const struct {
		const char *text, *at, *what;
		long line;
	} bad[] = {
		{ "  8589934592    2147483648     float     sum      -1    100.0   1e308   1e308      0"
		  "    100.0   1.0   1.0      0\n", "1e308", "algbw 1e+308 GB/s", 1 },
		{ "  1073741824     268435456     float     sum      -1   4517.3  237.69  445.68      0"
		  "   4507.6  238.21  446.64      0\n# Avg bus bandwidth    : 99999999 \n", "99999999",
		  "Avg bus bandwidth 1e+08 GB/s", 2 },
		{ " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
		  " 65536          5000        97.2               99999999999999999999999   0.18\n",
		  "99999999999999999999999", "BW average 1e+23 Gb/s", 2 },
		/* inf, nan, an overflow and a negative figure: refused alike, with their column */
		{ "  8589934592    2147483648     float     sum      -1    100.0   85.90   inf      0"
		  "    100.0   1.0   1.0      0\n", "inf", "busbw inf GB/s", 1 },
		{ "#  Rank  0 Group  0 Pid 1 on a device  0 [0x18] NVIDIA H100\n"
		  "  8589934592    2147483648     float     sum      -1    -nan   85.90   160.0      0"
		  "    100.0   1.0   1.0      0\n", "-nan", "time nan is not a measurement (not a "
		  "number)", 2 },
		{ "  8589934592    2147483648     float     sum      -1    100.0   85.90   1e999      0"
		  "    100.0   1.0   1.0      0\n", "1e999", "busbw inf GB/s", 1 },
		{ "  8589934592    2147483648     float     sum      -1    100.0   85.90   160.0      0"
		  "    100.0   -1.0   1.0      0\n", "-1.0", "algbw -1 GB/s is not a measurement (below "
		  "0)", 1 },
		{ "  1073741824     268435456     float     sum      -1   4517.3  237.69  445.68      0"
		  "   4507.6  238.21  446.64      0\n# Avg bus bandwidth    : inf \n", "inf",
		  "Avg bus bandwidth inf GB/s", 2 },
		{ "[  5]   0.00-10.00  sec  1.10 GBytes  2e9 Gbits/sec  0  sender\n", "2e9",
		  "rate 2e+09 Gb/s", 1 },
		{ "<system version=\"1\"><cpu numaid=\"0\">\n<pci busid=\"0000:01:00.0\"><nic>"
		  "<net name=\"mlx5_0\" speed=\"1e308\"/></nic></pci></cpu></system>\n", "<net ",
		  "<net> speed 1e+308 Mb/s", 2 },
	};
	static const char json[] = "{\"start\": {\"test_start\": {\"duration\": 10}}, \"end\": "
				   "{\"sum_sent\": {\"bits_per_second\": 1e9}, \"sum_received\": "
				   "{\"bits_per_second\": 1e+308}}}";
	struct nicfit_verify *v;
	struct nicfit_error err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *line = bad[i].text, *at = strstr(bad[i].text, bad[i].at);
		long k;

		for (k = 1; k < bad[i].line; k++)
			line = strchr(line, '\n') + 1;
		v = nicfit_verify_new();
		nicfit_error_clear(&err);
		assert_int_equal(nicfit_verify_add_text(v, "t", bad[i].text, strlen(bad[i].text),
							&err), NICFIT_E_DATA);
		assert_string_equal(err.input, "t");
		assert_int_equal(err.line, bad[i].line);
		assert_int_equal(err.col, at - line + 1);
		if (!strstr(err.msg, bad[i].what) || !strstr(err.msg, "is not a measurement"))
			fail_msg("%zu: %s", i, err.msg);
		nicfit_verify_free(v);
	}
	v = nicfit_verify_new();
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_verify_add_text(v, "r.json", json, sizeof(json) - 1, &err),
			 NICFIT_E_DATA);
	assert_int_equal(err.line, 0);
	assert_non_null(strstr(err.msg, "end.sum_received.bits_per_second 1e+308 bit/s is not a "
				       "measurement (above 1e+15 bit/s)"));
	nicfit_verify_free(v);
}

static void bad_input(void **state)
{
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_error err;
	static const char junk[] = "hello world\nnot a benchmark\n";
	static const char cut[] = "{\"start\": {\"version\": \"iperf 3.9\"}, \"intervals\": [";

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_verify_add_text(v, "junk.txt", junk, sizeof(junk) - 1, &err),
			 NICFIT_E_DATA);
	assert_string_equal(err.input, "junk.txt");
	assert_int_equal(err.line, 1);
	assert_non_null(strstr(err.msg, "not an nccl-tests"));
	nicfit_error_clear(&err);
	/* a cut document is read as far as it goes, and says it is cut */
	assert_int_equal(nicfit_verify_add_text(v, "cut.json", cut, sizeof(cut) - 1, &err), 0);
	assert_int_equal(v->docs[v->ndocs - 1].u.ip.cut, 1);
	assert_string_equal(v->docs[v->ndocs - 1].u.ip.version, "3.9");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_verify_add_text(v, "cut2.json", "{\"start\": {", 12, &err),
			 NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "iperf3 JSON"));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_verify_add_text(v, "empty", "", 0, &err), NICFIT_E_DATA);
	nicfit_verify_free(v);
}

/*
 * iperf3 and iperf2 in their shapes (esnet/iperf src/iperf_locale.c;
 * iperf2's Reporter): -P from the command line with only [SUM] lines, an
 * iperf2 run kept apart from an iperf3 one in one paste (and the iperf3
 * gap put on the tool), --bidir roles read from the interval lines of a
 * cut run, server output with no test, and exit 3 where nothing is judged.
 */
static void iperf_shapes(void **state)
{
	struct nicfit_verify_expect x;
	const struct nicfit_verify_doc *d;
	struct nicfit_verify *v;
	size_t i;

	(void)state;
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_parse_speed("100G", "t", &x.link, NULL), 0);
	v = load_text("$ iperf3 -c 10.0.0.2 -P20 -t360\n"
		      "[SUM]   0.00-360.00 sec  2.72 TBytes  66.4 Gbits/sec  19545340   sender\n"
		      "[SUM]   0.00-360.00 sec  2.72 TBytes  66.4 Gbits/sec   receiver\n");
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_IPERF3);
	assert_int_equal(d->u.ip.streams, 20);
	assert_int_equal(d->u.ip.sum, 1);
	assert_int_equal(d->u.ip.retransmits, 19545340);
	assert_null(find(v, "iperf3-one-stream", NULL));
	assert_int_equal(d->verdict, NICFIT_VERDICT_LOW);
	nicfit_verify_free(v);
	/* [SUM] lines without a command line: several streams, count unknown */
	v = load_text("[SUM]   0.00-10.00 sec  40 GBytes  34.4 Gbits/sec  0   sender\n");
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_IPERF3);
	assert_int_equal(d->u.ip.streams, 0);
	assert_null(find(v, "iperf3-one-stream", NULL));
	nicfit_verify_free(v);
	v = load_text("iperf -c 10.0.0.2 -w 416k -P 16 -t 30 -i 5\n"
		      "[SUM]  0.0-5.0 sec    56 GBytes  96.0 Gbits/sec\n"
		      "[SUM]  0.0-30.0 sec    337 GBytes  96.4 Gbits/sec\n"
		      "then iperf3 -c 10.0.0.2 -P 16 -t 30\n"
		      "[SUM]   0.00-30.00  sec   123 GBytes  35.2 Gbits/sec    0     sender\n"
		      "[SUM]   0.00-30.00  sec   123 GBytes  35.2 Gbits/sec      receiver\n");
	judge(v, &x);
	assert_int_equal(v->ndocs, 2);
	d = doc(v, NICFIT_VERIFY_IPERF2);
	assert_near(d->u.ip.receiver_gbps, 96.4, 1e-9);
	assert_near(d->u.ip.duration_s, 30, 1e-9);
	assert_int_equal(d->u.ip.streams, 16);
	assert_int_equal(d->verdict, NICFIT_VERDICT_OK);
	d = doc(v, NICFIT_VERIFY_IPERF3);
	assert_near(d->u.ip.receiver_gbps, 35.2, 1e-9);
	assert_int_equal(d->verdict, NICFIT_VERDICT_LOW);
	assert_non_null(find(v, "iperf3-tool-limit", NULL));
	assert_null(find(v, "verify-far-below", NULL));
	assert_int_equal(nicfit_verify_exit_code(v), 1);
	nicfit_verify_free(v);
	/* --bidir, cut before its summary: each role's mean, the faster judged */
	assert_int_equal(nicfit_parse_speed("10G", "t", &x.link, NULL), 0);
	v = load_text("```\n[  5] local 10.0.0.1 port 44544 connected to 10.0.0.2 port 5201\n"
		      "[  7] local 10.0.0.1 port 44546 connected to 10.0.0.2 port 5201\n"
		      "[ ID][Role] Interval           Transfer     Bitrate         Retr  Cwnd\n"
		      "[  5][TX-C]   0.00-1.00   sec   371 MBytes  3.11 Gbits/sec    0   1.17 MBytes\n"
		      "[  7][RX-C]   0.00-1.00   sec   152 MBytes  1.28 Gbits/sec\n"
		      "[  5][TX-C]   1.00-2.00   sec   369 MBytes  3.09 Gbits/sec    0   1.29 MBytes\n"
		      "[  7][RX-C]   1.00-2.00   sec   108 MBytes   902 Mbits/sec\n");
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_IPERF3);
	assert_int_equal(d->u.ip.bidir, 1);
	assert_int_equal(d->u.ip.intervals, 4);
	assert_near(d->u.ip.sender_gbps, 3.10, 1e-9);
	assert_near(d->u.ip.receiver_gbps, 1.091, 1e-9);
	assert_near(d->measured_gbps, 3.10, 1e-9);
	assert_int_equal(d->verdict, NICFIT_VERDICT_FAR_BELOW);
	nicfit_verify_free(v);
	/* a server that saw no test: read, nothing to judge */
	v = load_text("Sat May 24 22:41:30 2025 iperf 3.19+\n"
		      "Sat May 24 22:41:30 2025 Server listening on 5201 (test #1)\n");
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_IPERF3);
	assert_string_equal(d->u.ip.version, "3.19+");
	assert_true(d->measured_gbps < 0);
	assert_int_equal(nicfit_verify_exit_code(v), 3);
	for (i = 0; i < v->findings.n; i++)
		assert_true(v->findings.v[i].severity < NICFIT_SEV_WARNING);
	nicfit_verify_free(v);
	/* a piece of a --json document */
	v = load_text("```\n        \"version\":      \"iperf 3.7\",\n"
		      "        \"test_start\":   {\n \"protocol\":     \"TCP\",\n"
		      "  \"num_streams\":  1,\n  \"duration\":     10,\n"
		      "        \"intervals\":    [{\n");
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_IPERF3);
	assert_int_equal(d->u.ip.cut, 1);
	assert_int_equal(d->u.ip.streams, 1);
	assert_string_equal(d->u.ip.version, "3.7");
	assert_int_equal(nicfit_verify_exit_code(v), 3);
	nicfit_verify_free(v);
}

/*
 * UDP and the headers that name the tool: iperf2's client with its Server
 * Report (iperf2 Locale.c: report_bw_header "[ ID] Interval       Transfer
 * Bandwidth", report_bw_jitter_loss_format, "Server Report:", "Sent %d
 * datagrams"; 2.0's " 0.0-10.0 sec" with a blank after the dash), iperf3
 * before 3.2 ("Bandwidth", no role word on its UDP summary), and a UDP run
 * without loss, whose rate is what was offered and is not judged.
 */
static void iperf_udp(void **state)
{
	struct nicfit_verify_expect x;
	const struct nicfit_verify_doc *d;
	struct nicfit_verify *v;

	(void)state;
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_parse_speed("10G", "t", &x.link, NULL), 0);
	v = load_text("[  3] local 10.0.0.1 port 53028 connected with 10.0.0.2 port 5001\n"
		      "[ ID] Interval       Transfer     Bandwidth\n"
		      "[  3]  0.0- 1.0 sec   119 MBytes   999 Mbits/sec\n"
		      "[  3]  0.0-10.0 sec  1.16 GBytes   999 Mbits/sec\n"
		      "[  3] Sent 850340 datagrams\n"
		      "[  3] Server Report:\n"
		      "[  3]  0.0-10.0 sec  1.11 GBytes   955 Mbits/sec   0.017 ms 37541/850339 (4.4%)\n");
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_IPERF2);
	assert_int_equal(d->u.ip.udp, 1);
	assert_int_equal(d->u.ip.lost, 37541);
	assert_int_equal(d->u.ip.datagrams, 850339);
	assert_near(d->u.ip.jitter_ms, 0.017, 1e-9);
	assert_near(d->u.ip.receiver_gbps, 0.955, 1e-9);
	assert_int_equal(d->verdict, NICFIT_VERDICT_NONE);
	assert_int_equal(find(v, "iperf-udp-loss", NULL)->severity, NICFIT_SEV_WARNING);
	assert_null(find(v, "verify-far-below", NULL));
	assert_int_equal(nicfit_verify_exit_code(v), 1);
	nicfit_verify_free(v);
	/* iperf2's server side, its padded total: "0/  893" */
	v = load_text("[ ID] Interval       Transfer     Bandwidth        Jitter   Lost/Total Datagrams\n"
		      "[  3]  0.0-10.0 sec  1.25 MBytes  1.05 Mbits/sec   0.017 ms    0/  893 (0%)\n");
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_IPERF2);
	assert_int_equal(d->u.ip.datagrams, 893);
	assert_int_equal(d->u.ip.lost, 0);
	assert_non_null(find(v, "iperf-udp-offered", NULL));
	assert_null(find(v, "iperf-udp-loss", NULL));
	assert_int_equal(nicfit_verify_exit_code(v), 3);
	nicfit_verify_free(v);
	/* iperf3 3.1: "Bandwidth", a summary with no receiver word */
	v = load_text("[ ID] Interval           Transfer     Bandwidth       Jitter    Lost/Total Datagrams\n"
		      "[  4]   0.00-1.00   sec   120 MBytes  1.00 Gbits/sec  0.010 ms  0/85000 (0%)\n"
		      "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
		      "[ ID] Interval           Transfer     Bandwidth       Jitter    Lost/Total Datagrams\n"
		      "[  4]   0.00-10.00  sec  1.17 GBytes  1.00 Gbits/sec  0.012 ms  85/850000 (0.01%)\n");
	judge(v, &x);
	d = doc(v, NICFIT_VERIFY_IPERF3);
	assert_int_equal(d->u.ip.intervals, 0);
	assert_int_equal(d->u.ip.lost, 85);
	assert_int_equal(d->u.ip.datagrams, 850000);
	/* 0.01 %: below Y.1541's 1e-3, a note */
	assert_int_equal(find(v, "iperf-udp-loss", NULL)->severity, NICFIT_SEV_INFO);
	assert_int_equal(nicfit_verify_exit_code(v), 3);
	nicfit_verify_free(v);
}

/*
 * A file read by nicfit_verify_add_file(): mapped, read in one pass, and a
 * line past several of its marks (every NICFIT_VERIFY_MARK_LINES lines)
 * quoted from the file as add_text() quotes it from its copy; --max-size's
 * limit; a directory and a missing file.
 */
static void add_file(void **state)
{
	char path[] = "/tmp/nicfit-test-verify-XXXXXX", want[128];
	struct nicfit_verify *v;
	struct nicfit_error err;
	const struct nicfit_finding *f;
	FILE *fp;
	int fd, i, lines = 3 * NICFIT_VERIFY_MARK_LINES + 5;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	for (i = 1; i < lines; i++)
		fprintf(fp, "n1:1:1 [0] NCCL INFO Channel %02d/0 : 0[0] -> 1[1] via P2P/IPC\n", i % 32);
	fprintf(fp, "n1:1:1 [0] misc/socket.cc:50 NCCL WARN line %d\n", lines);
	fclose(fp);
	v = nicfit_verify_new();
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_verify_add_file(v, path, 0, &err), 0);
	judge(v, NULL);
	f = find(v, "nccl-warn", NULL);
	assert_non_null(f);
	snprintf(want, sizeof(want), "line %d: \"n1:1:1 [0] misc/socket.cc:50 NCCL WARN line %d\"",
		 lines, lines);
	if (!strstr(f->message, want))
		fail_msg("%s", f->message);
	assert_int_equal(v->docs[0].u.log.chan_p2p, (size_t)lines - 1);
	nicfit_verify_free(v);
	v = nicfit_verify_new();
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_verify_add_file(v, path, 1000, &err), NICFIT_E_LIMIT);
	assert_non_null(strstr(err.msg, "larger than 1000 bytes"));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_verify_add_file(v, "/tmp", 0, &err), NICFIT_E_IO);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_verify_add_file(v, "/nonexistent/x", 0, &err), NICFIT_E_NOTFOUND);
	nicfit_verify_free(v);
	unlink(path);
}

/*
 * nccl-tests built without MPI: every process is rank 0 of its own job and
 * prints its own header and Rank line (src/common.cu), '#' lost or not.
 */
static void separate_jobs(void **state)
{
	const struct nicfit_verify_doc *d;
	struct nicfit_verify *v;

	(void)state;
	v = load_text("mpirun -np 2 -H a,b ./all_reduce_perf -b 8 -e 1G\n"
		      "# nThread 1 nGpus 1 minBytes 8 maxBytes 1073741824 step: 2(factor)\n"
		      "#   Rank  0 Pid   1320 on a device  0 [0x00] Tesla V100-SXM2-16GB\n"
		      "Rank  0 Group  0 Pid 2066 on    b device  0 [0x00] Tesla V100-SXM2-16GB\n");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_int_equal(d->u.t.jobs, 2);
	assert_int_equal(d->u.t.nranks, 1);
	assert_int_equal(d->u.t.nodes, 1);
	assert_non_null(strstr(find(v, "nccl-tests-separate-jobs", NULL)->fix, "MPI=1"));
	assert_int_equal(nicfit_verify_exit_code(v), 1);
	nicfit_verify_free(v);
	/* one job of two ranks on two hosts is not separate jobs */
	v = load_text("#   Rank  0 Group  0 Pid 1 on a device  0 [0x00] NVIDIA H100 80GB HBM3\n"
		      "#   Rank  1 Group  0 Pid 2 on b device  0 [0x00] NVIDIA H100 80GB HBM3\n");
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_NCCL_TESTS);
	assert_int_equal(d->u.t.jobs, 0);
	assert_int_equal(d->u.t.nranks, 2);
	assert_int_equal(d->u.t.nodes, 2);
	assert_null(find(v, "nccl-tests-separate-jobs", NULL));
	nicfit_verify_free(v);
}

/* perftest's --use_cuda and --use_rocm lines (src/cuda_memory.c, src/rocm_memory.c) */
static void perftest_gpu_memory(void **state)
{
	static const char *const table =
		" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
		" 65536      5000             391.22             390.87  		   0.745523\n";
	struct nicfit_verify *v;
	char text[2048];

	(void)state;
	snprintf(text, sizeof(text), "initializing CUDA\nListing all CUDA devices in system:\n"
		 "[pid = 4242, dev = 0] device name = [NVIDIA H100 80GB HBM3]\n"
		 "                    RDMA_Write BW Test\n%s", table);
	v = load_text(text);
	assert_string_equal(v->docs[0].u.pt.gpu_mem, "cuda");
	assert_string_equal(v->docs[0].u.pt.gpu, "NVIDIA H100 80GB HBM3");
	assert_int_equal(v->docs[0].u.pt.gpu_line, 1);
	nicfit_verify_free(v);
	snprintf(text, sizeof(text), "Using ROCm Device with ID: 0, Name: AMD Instinct MI300X, "
		 "PCI Bus ID: 0x5, GCN Arch: gfx942\nusing DMA-BUF for GPU buffer address at 0x1 "
		 "aligned at 0x1 with aligned size 4096\n                    RDMA_Write BW Test\n%s",
		 table);
	v = load_text(text);
	assert_string_equal(v->docs[0].u.pt.gpu_mem, "rocm");
	assert_string_equal(v->docs[0].u.pt.gpu, "AMD Instinct MI300X");
	assert_int_equal(v->docs[0].u.pt.dmabuf, 1);
	nicfit_verify_free(v);
	/* host memory: nothing said */
	snprintf(text, sizeof(text), "                    RDMA_Write BW Test\n%s", table);
	v = load_text(text);
	assert_string_equal(v->docs[0].u.pt.gpu_mem, "");
	nicfit_verify_free(v);
}

/* perftest rows without their header: MsgRate = average / size tells the unit */
static void perftest_bare_rows(void **state)
{
	struct nicfit_verify *v;

	(void)state;
	v = load_text(" 65536      5000             391.22             390.87  \t\t   0.745523\n");
	assert_int_equal(v->ndocs, 1);
	assert_int_equal(v->docs[0].kind, NICFIT_VERIFY_PERFTEST);
	assert_int_equal(v->docs[0].u.pt.gbits, 1);
	assert_true(v->docs[0].u.pt.bw_avg_gbps > 390.8 && v->docs[0].u.pt.bw_avg_gbps < 390.9);
	nicfit_verify_free(v);
	/* MB/sec (MiB): 5544.28 x 2^20 / 1024 / 10^6 = 5.677 Mpps */
	v = load_text("1024       1000             0.00               **5544.28**\t\t   5.677340\n");
	assert_int_equal(v->docs[0].kind, NICFIT_VERIFY_PERFTEST);
	assert_int_equal(v->docs[0].u.pt.gbits, 0);
	nicfit_verify_free(v);
	/* five figures whose MsgRate fits neither unit, or four, are no perftest row */
	{
		static const char *const no[] = { " 65536 5000 391.22 390.87 3.5\n",
						   " 65536 5000 391.22 390.87\n" };
		struct nicfit_error err;
		size_t i;

		for (i = 0; i < 2; i++) {
			v = nicfit_verify_new();
			assert_non_null(v);
			nicfit_error_clear(&err);
			assert_int_not_equal(nicfit_verify_add_text(v, "t", no[i], strlen(no[i]),
								    &err), 0);
			nicfit_verify_free(v);
		}
	}
}

/* a whole iperf3 --json document inside a Markdown fence is the document, not a fragment */
static void iperf3_json_fenced(void **state)
{
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_error err;
	char *text = NULL, *wrapped;
	size_t len = 0, n;

	(void)state;
	assert_non_null(v);
	nicfit_error_clear(&err);
	if (nicfit_read_file(FIX "iperf3-json-gcp-1stream.json", NICFIT_VERIFY_MAX_BYTES, &text,
			     &len, &err))
		fail_msg("%s", err.msg);
	wrapped = malloc(len + 64);
	assert_non_null(wrapped);
	n = (size_t)snprintf(wrapped, 64, "The output:\n\n```json\n");
	memcpy(wrapped + n, text, len);
	memcpy(wrapped + n + len, "```\n", 4);
	if (nicfit_verify_add_text(v, "t", wrapped, n + len + 4, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(v->ndocs, 1);
	assert_int_equal(v->docs[0].kind, NICFIT_VERIFY_IPERF3);
	assert_int_equal(v->docs[0].u.ip.json, 1);
	assert_int_equal(v->docs[0].u.ip.cut, 0);
	assert_true(v->docs[0].u.ip.sender_gbps > 0.38 && v->docs[0].u.ip.sender_gbps < 0.39);
	free(wrapped);
	free(text);
	nicfit_verify_free(v);
}

/*
 * A latency run is judged on its smallest message against NVIDIA's
 * acceptance values (ngc_multinode_perf: 2.5 us send or write, 4.5 us
 * read, on t_avg); a larger row after it does not replace it; perftest's
 * "CPU Frequency is not max" warning becomes the fix.
 */
static void perftest_latency(void **state)
{
	static const char write_all[] =
		"                    RDMA_Write Latency Test\n"
		" Link type       : IB\n"
		"---------------------------------------------------------------------------------------\n"
		" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n"
		" 2       1000          2.90           9.10         3.05               3.10           0.20            3.60                   9.10\n"
		" 4096    1000          4.90           9.10         5.05               5.10           0.20            5.60                   9.10\n"
		"---------------------------------------------------------------------------------------\n";
	static const char read_ok[] =
		"                    RDMA_Read Latency Test\n"
		"---------------------------------------------------------------------------------------\n"
		" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n"
		"Conflicting CPU frequency values detected: 2400.000000 != 3000.000000. CPU Frequency is not max.\n"
		" 2       1000          3.80           6.10         4.05               4.10           0.20            4.60                   6.10\n"
		"---------------------------------------------------------------------------------------\n";
	struct nicfit_verify *v;
	const struct nicfit_verify_doc *d;
	const struct nicfit_finding *f;

	(void)state;
	v = load_text(write_all);
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_PERFTEST);
	assert_int_equal(d->u.pt.bytes, 2);
	assert_true(d->u.pt.lat_avg_us > 3.09 && d->u.pt.lat_avg_us < 3.11);
	f = find(v, "perftest-latency-high", NULL);
	assert_non_null(f);
	assert_non_null(strstr(f->message, "t_avg of 2-byte messages is 3.10 us, above 2.5 us"));
	assert_non_null(strstr(f->fix, "frequency scaling"));
	nicfit_verify_free(v);
	v = load_text(read_ok); /* 4.10 us is within read's 4.5 us */
	judge(v, NULL);
	d = doc(v, NICFIT_VERIFY_PERFTEST);
	assert_int_equal(d->u.pt.cpu_freq_line, 4);
	assert_null(find(v, "perftest-latency-high", NULL));
	nicfit_verify_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bus_factor),
		cmocka_unit_test(ndr_far_below),
		cmocka_unit_test(thresholds),
		cmocka_unit_test(above_line_rate),
		cmocka_unit_test(above_ring),
		cmocka_unit_test(above_line_rate_p2p),
		cmocka_unit_test(table_layouts),
		cmocka_unit_test(socket_with_rdma),
		cmocka_unit_test(socket_without_rdma),
		cmocka_unit_test(ofi_provider),
		cmocka_unit_test(gdr_per_hca),
		cmocka_unit_test(log_versions),
		cmocka_unit_test(perftest_iperf3),
		cmocka_unit_test(summary_lines),
		cmocka_unit_test(summary_old_and_oob),
		cmocka_unit_test(absurd_figures),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(iperf_shapes),
		cmocka_unit_test(iperf_udp),
		cmocka_unit_test(add_file),
		cmocka_unit_test(separate_jobs),
		cmocka_unit_test(perftest_gpu_memory),
		cmocka_unit_test(perftest_bare_rows),
		cmocka_unit_test(iperf3_json_fenced),
		cmocka_unit_test(perftest_latency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
