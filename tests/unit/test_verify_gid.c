/*
 * test_verify_gid.c - NCCL's per-QP connection lines in each version's
 * format (src/transport/net_ib.cc 2.7-2.28, net_ib/connect.cc 2.29-2.30),
 * the GID decoded from the two printed halves, and the causes judged from
 * them: a link-local GID, RoCE v1 asked for, a path MTU under 4096. The
 * real paste is tests/fixtures/verify/nccl-1657-gid0-link-local.txt; the
 * other lines are NCCL's printf formats of each version filled with
 * values of the kind public logs show (no public log of every version was
 * found: tests/fixtures/verify/README.md lists the searches).
 */
#include "unit.h"

#include "nicfit/file.h"
#include "nicfit/finding.h"
#include "nicfit/verify.h"
#include "verify_fixture.h"

static void assert_ipv4(const struct nicfit_nccl_qp *q, unsigned a, unsigned b, unsigned c,
			unsigned d)
{
	assert_int_equal(q->gid_kind, NICFIT_GID_IPV4);
	assert_int_equal(q->gid[10], 0xff);
	assert_int_equal(q->gid[11], 0xff);
	assert_int_equal(q->gid[12], a);
	assert_int_equal(q->gid[13], b);
	assert_int_equal(q->gid[14], c);
	assert_int_equal(q->gid[15], d);
}

static void fixture_1657(void **state)
{
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_error err;
	const struct nicfit_nccl_log *g;
	const struct nicfit_finding *f;
	struct nicfit_verify_expect x;
	char *text = NULL;
	size_t len = 0;

	(void)state;
	nicfit_error_clear(&err);
	if (nicfit_read_file("tests/fixtures/verify/nccl-1657-gid0-link-local.txt",
			     NICFIT_VERIFY_MAX_BYTES, &text, &len, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(nicfit_verify_add_text(v, "nccl-1657", text, len, &err), 0);
	free(text);
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_verify_judge(v, &x, &err), 0);
	g = log_of(v);
	assert_int_equal(g->nqps, 1);
	assert_string_equal(g->qps[0].host, "aigc-maas-instance-leader-0");
	assert_int_equal(g->qps[0].dev, 0);
	assert_int_equal(g->qps[0].ibdev, 0);
	assert_int_equal(g->qps[0].port, 1);
	assert_int_equal(g->qps[0].mtu, 5);
	assert_int_equal(g->qps[0].gid_index, 0);
	assert_int_equal(g->qps[0].line, 10);
	assert_int_equal(g->qps[0].gid_kind, NICFIT_GID_LINK_LOCAL);
	/* "80FE/1A8A41FEFF21A75E" read back to front: fe80::5ea7:21ff:fe41:8a1a (EUI-64: ff fe) */
	assert_int_equal(g->qps[0].gid[0], 0xfe);
	assert_int_equal(g->qps[0].gid[1], 0x80);
	assert_int_equal(g->qps[0].gid[8], 0x5e);
	assert_int_equal(g->qps[0].gid[11], 0xff);
	assert_int_equal(g->qps[0].gid[12], 0xfe);
	assert_int_equal(g->qps[0].gid[15], 0x1a);
	f = find(v, "nccl-gid-link-local");
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_WARNING);
	assert_non_null(strstr(f->message, "fe80:0000:0000:0000:5ea7:21ff:fe41:8a1a"));
	assert_non_null(strstr(f->message, "(line 10: "));
	assert_non_null(strstr(f->fix, "NCCL_IB_GID_INDEX=0, set by the user"));
	assert_non_null(strstr(f->fix, "(line 9: "));
	assert_null(find(v, "nccl-mtu-low"));
	assert_null(find(v, "nccl-roce-v1"));
	nicfit_verify_free(v);
}

/* Each version's line, one device each, on two hosts. */
static void formats(void **state)
{
	static const char text[] =
		"h1:1:2 [0] NCCL INFO NCCL version 2.18.6+cuda12.2\n"
		/* 2.7-2.18, RoCE and InfiniBand */
		"h1:1:2 [0] NCCL INFO NET/IB: Dev 1 Port 1 qpn 233 mtu 3 GID 3 (0/1064A8C0FFFF0000)\n"
		"h1:1:2 [0] NCCL INFO NET/IB: Dev 4 Port 1 qpn 3038 mtu 5 LID 37\n"
		/* 2.19 */
		"h1:1:2 [0] NCCL INFO NET/IB: Dev 0 Port 1 qpn 34 mtu 3 query_ece={supported=0, "
		"vendor_id=0x0, options=0x0, comp_mask=0x0} GID 1 (0/19001EACFFFF0000)\n"
		/* 2.27-2.28 */
		"h1:1:2 [0] NCCL INFO NET/IB: NCCL Dev 2 IbDev 1 Port 1 qpn 704 mtu 3 GID 0 "
		"(80FE/46442FFEFF47BB4E) fifoRkey=0x1ddcd6 fifoLkey=0x1ddcd6\n"
		/* the same device again: one entry, two lines */
		"h1:1:2 [0] NCCL INFO NET/IB: NCCL Dev 2 IbDev 1 Port 1 qpn 705 mtu 3 GID 0 "
		"(80FE/46442FFEFF47BB4E) fifoRkey=0x1dd0cc fifoLkey=0x1dd0cc\n"
		/* 2.30, on another host */
		"h2:1:2 [0] NCCL INFO NET/IB: ncclIbConnect: NCCL MergedDev 3 IbDev 3 Port 2 qp_num 99 "
		"mtu 4 GID 5 (0/A0A0A0AFFFF0000) ctsFifoRkey=0x1 ctsFifoLkey=0x1\n"
		/* the ECE line of 2.27 carries no mtu: not a QP line */
		"h1:1:2 [0] NCCL INFO NET/IB: IbDev 1 Port 1 qpn 704 query_ece={supported=1, "
		"vendor_id=0x15b3, options=0x30000002, comp_mask=0x0}\n"
		/* a big-endian host prints the halves in address order: ::ffff:10.0.0.1 */
		"h3:1:2 [0] NCCL INFO NET/IB: Dev 5 Port 1 qpn 7 mtu 5 GID 3 (0/FFFF0A000001)\n"
		/* broken numbers: the index stays, no GID */
		"h3:1:2 [0] NCCL INFO NET/IB: Dev 6 Port 1 qpn 8 mtu 5 GID 2 (0/12345678901234567)\n"
		"h3:1:2 [0] NCCL INFO NET/IB: Dev 7 Port 1 qpn 9 mtu 9 GID 2 (zz/0)\n";
	struct nicfit_verify *v = from_text("formats", text);
	const struct nicfit_nccl_log *g = log_of(v);
	(void)state;
	assert_int_equal(g->nqps, 8);
	assert_int_equal(g->qps[0].dev, 1);
	assert_int_equal(g->qps[0].ibdev, -1);
	assert_int_equal(g->qps[0].mtu, 3);
	assert_int_equal(g->qps[0].gid_index, 3);
	assert_ipv4(&g->qps[0], 192, 168, 100, 16);
	assert_true(g->qps[1].ib);
	assert_int_equal(g->qps[1].gid_kind, NICFIT_GID_NONE);
	assert_int_equal(g->qps[1].gid_index, -1);
	assert_ipv4(&g->qps[2], 172, 30, 0, 25);
	assert_int_equal(g->qps[3].dev, 2);
	assert_int_equal(g->qps[3].ibdev, 1);
	assert_int_equal(g->qps[3].nlines, 2);
	assert_int_equal(g->qps[3].gid_kind, NICFIT_GID_LINK_LOCAL);
	assert_string_equal(g->qps[4].host, "h2");
	assert_int_equal(g->qps[4].dev, 3);
	assert_int_equal(g->qps[4].ibdev, 3);
	assert_int_equal(g->qps[4].port, 2);
	assert_int_equal(g->qps[4].mtu, 4);
	assert_ipv4(&g->qps[4], 10, 10, 10, 10);
	assert_ipv4(&g->qps[5], 10, 0, 0, 1);
	assert_int_equal(g->qps[6].gid_index, 2);
	assert_int_equal(g->qps[6].gid_kind, NICFIT_GID_NONE);
	assert_int_equal(g->qps[7].mtu, 0);
	assert_int_equal(g->qps[7].gid_kind, NICFIT_GID_NONE);
	assert_string_equal(nicfit_gid_kind_name(NICFIT_GID_LINK_LOCAL), "link-local");
	assert_null(nicfit_gid_kind_name(NICFIT_GID_NONE));
	/* 2.18.6 before NCCL chose GIDs: index 0 unless set */
	assert_non_null(find(v, "nccl-gid-link-local"));
	assert_non_null(strstr(find(v, "nccl-gid-link-local")->fix, "NCCL 2.18.6 uses GID index 0"));
	assert_non_null(strstr(find(v, "nccl-gid-link-local")->message,
			       "NCCL Dev 1 uses the IPv4 GID ::ffff:192.168.100.16 (index 3)"));
	nicfit_verify_free(v);
}

static void causes(void **state)
{
	static const char roce[] =
		"a:1:2 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n"
		"a:1:2 [0] NCCL INFO NCCL_IB_ROCE_VERSION_NUM set by environment to 1.\n"
		"a:1:2 [0] NCCL INFO NET/IB: NCCL Dev 0 IbDev 0 Port 1 qpn 576 mtu 3 GID 3 "
		"(0/1064A8C0FFFF0000) fifoRkey=0x1b9e9c fifoLkey=0x1b9e9c\n"
		"b:1:2 [0] NCCL INFO NET/IB: NCCL Dev 0 IbDev 0 Port 1 qpn 578 mtu 3 GID 3 "
		"(0/F64A8C0FFFF0000) fifoRkey=0x1bbbb8 fifoLkey=0x1bbbb8\n";
	static const char ib[] =
		"c:1:2 [0] NCCL INFO NET/IB: Dev 0 Port 1 qpn 3038 mtu 4 LID 37\n";
	static const char ll_new[] =
		"a:1:2 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n"
		"a:1:2 [0] NCCL INFO NET/IB: NCCL Dev 1 IbDev 1 Port 1 qpn 704 mtu 3 GID 0 "
		"(80FE/46442FFEFF47BB4E) fifoRkey=0x1ddcd6 fifoLkey=0x1ddcd6\n"
		"b:1:2 [0] NCCL INFO NET/IB: NCCL Dev 1 IbDev 1 Port 1 qpn 704 mtu 3 GID 0 "
		"(80FE/9DFB2FFEFF47BB4E) fifoRkey=0x1deeeb fifoLkey=0x1deeeb\n";
	static const char ll_unknown[] =
		"c:1:2 [0] NCCL INFO NET/IB: Dev 0 Port 1 qpn 12 mtu 5 GID 0 (80FE/46442FFEFF47BB4E)\n";
	struct nicfit_verify *v = from_text("roce", roce);
	const struct nicfit_finding *f;

	(void)state;
	assert_ipv4(&log_of(v)->qps[1], 192, 168, 100, 15);
	f = find(v, "nccl-mtu-low");
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_WARNING);
	/* RoCE: 1024 / (1024 + 82) against 4096 / (4096 + 82) */
	assert_non_null(strstr(f->message, "1024-byte path MTU (mtu 3), not 4096: each packet "
			       "carries 0.9259 of the line instead of 0.9804 (5.6 % less)"));
	assert_non_null(strstr(f->fix, "4200"));
	f = find(v, "nccl-roce-v1");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "(line 2: "));
	assert_null(strstr(f->message, "does not read it"));
	assert_null(find(v, "nccl-gid-link-local"));
	nicfit_verify_free(v);

	/* link-local with NCCL choosing (2.21 on): the port has no routable address */
	v = from_text("ll-new", ll_new);
	f = find(v, "nccl-gid-link-local");
	assert_non_null(f);
	assert_non_null(strstr(f->fix, "1) the port's netdev has no routable address"));
	assert_non_null(strstr(f->message, "NCCL Dev 1 (port 1)"));
	assert_non_null(strstr(f->message, "on 2 hosts"));
	nicfit_verify_free(v);
	/* no version line: both readings */
	v = from_text("ll-unknown", ll_unknown);
	assert_non_null(strstr(find(v, "nccl-gid-link-local")->fix, "NCCL before 2.21 uses GID index 0"));
	assert_non_null(strstr(find(v, "nccl-gid-link-local")->fix, "from 2.21 NCCL picks"));
	nicfit_verify_free(v);

	v = from_text("ib", ib);
	f = find(v, "nccl-mtu-low");
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_INFO);
	assert_non_null(strstr(f->message, "2048-byte"));
	assert_non_null(strstr(f->fix, "partition"));
	nicfit_verify_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixture_1657),
		cmocka_unit_test(formats),
		cmocka_unit_test(causes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
