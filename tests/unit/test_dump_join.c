/*
 * test_dump_join.c - which PCI function each RDMA device of a paste is
 * tied to (dump/dump_build.c, enum dump_join in core/dump_facts.h), on a
 * two-socket server with two dual-port ConnectX-7 cards whose lspci -vvv
 * covers function 0 of each card only, as tickets show it: functions seen
 * only in lspci -tv are kept; ibdev2netdev -v, ethtool -i's bus-info and a
 * card's sys_image_guid tie by evidence; name order ties only what nothing
 * else does, is said to be a guess, is taken back when the GUIDs contradict
 * it, and a matrix that disagrees with a guessed tie is a note on the tie,
 * never dump-topo-mismatch. nvidia-smi topo -m's cells tie a legend's
 * device to the one function (or one card) the tree has at those classes.
 */
#include "unit.h"
#include "dump_fixture.h"

#include "dump/dump_int.h"
#include "nicfit/audit.h"
#include "nicfit/buf.h"
#include "nicfit/emit.h"

/* lspci -vvv of function 0 of each card (no -nn), as one ticket pasted it. */
#define BLOCK(bdf, numa)                                                                  \
	bdf " Ethernet controller: Mellanox Technologies MT2910 Family [ConnectX-7]\n"     \
	"\tSubsystem: Mellanox Technologies Device 0021\n"                                 \
	"\tNUMA node: " numa "\n"                                                           \
	"\tCapabilities: [40] Express (v2) Endpoint, MSI 00\n"                              \
	"\t\tLnkCap:\tPort #0, Speed 32GT/s, Width x16, ASPM not supported\n"              \
	"\t\tLnkSta:\tSpeed 32GT/s, Width x16\n"                                           \
	"\tKernel driver in use: mlx5_core\n\n"

static const char lspci[] =
	BLOCK("17:00.0", "0") BLOCK("b1:00.0", "1")
	"-+-[0000:b0]-+-00.0  Intel Corporation Ice Lake Memory Map/VT-d\n"
	" |           \\-02.0-[b1]--+-00.0  Mellanox Technologies MT2910 Family [ConnectX-7]\n"
	" |                        \\-00.1  Mellanox Technologies MT2910 Family [ConnectX-7]\n"
	" \\-[0000:16]-+-00.0  Intel Corporation Ice Lake Memory Map/VT-d\n"
	"             \\-02.0-[17]--+-00.0  Mellanox Technologies MT2910 Family [ConnectX-7]\n"
	"                          \\-00.1  Mellanox Technologies MT2910 Family [ConnectX-7]\n\n";

/* One ibv_devinfo block: a port DOWN, as on a host whose cables are out. */
#define IBV(name, fw, node, sys)                                                          \
	"hca_id:\t" name "\n"                                                               \
	"\ttransport:\t\t\tInfiniBand (0)\n"                                                \
	"\tfw_ver:\t\t\t\t" fw "\n"                                                          \
	"\tnode_guid:\t\t\t" node "\n"                                                       \
	"\tsys_image_guid:\t\t\t" sys "\n"                                                   \
	"\tvendor_id:\t\t\t0x02c9\n"                                                         \
	"\tvendor_part_id:\t\t\t4129\n"                                                      \
	"\tphys_port_cnt:\t\t\t1\n"                                                          \
	"\t\tport:\t1\n"                                                                     \
	"\t\t\tstate:\t\t\tPORT_DOWN (1)\n"                                                  \
	"\t\t\tlink_layer:\t\tEthernet\n\n"

#define CARD_A "b83f:d203:00aa:0010"
#define CARD_B "b83f:d203:00bb:0020"

static size_t count(const struct nicfit_audit *a, const char *code)
{
	size_t i, n = 0;

	for (i = 0; i < a->findings.n; i++)
		n += !strcmp(a->findings.v[i].code, code);
	return n;
}

static int noted(const struct nicfit_audit *a, const char *check)
{
	size_t i;

	for (i = 0; i < a->nnot_checked; i++)
		if (!strcmp(a->not_checked[i].check, check))
			return 1;
	return 0;
}

static void out_has(const struct nicfit_audit *a, const char *needle)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	struct nicfit_buf b;

	nicfit_buf_init(&b, 0);
	assert_int_equal(nicfit_audit_render(a, e), 0);
	assert_int_equal(nicfit_emit_finish(e, &b), 0);
	if (!strstr(b.data, needle))
		fail_msg("%s missing in:\n%s", needle, b.data);
	nicfit_emit_free(e);
	nicfit_buf_release(&b);
}

/*
 * The ticket as given: no tool names a function, so mlx5_N is the N-th
 * Mellanox function, the .1 functions of lspci -tv included; each device
 * keeps its own firmware and port, the four down ports are all reported,
 * the ties are called a guess, nothing blames the dumps.
 */
static void order_with_tree_functions(void **state)
{
	char text[8192];
	struct run r;

	(void)state;
	snprintf(text, sizeof(text), "%s%s%s%s%s", lspci,
		 IBV("mlx5_0", "28.39.1002", "b83f:d203:00aa:0010", CARD_A),
		 IBV("mlx5_1", "28.39.1002", "b83f:d203:00aa:0011", CARD_A),
		 IBV("mlx5_2", "28.42.1000", "b83f:d203:00bb:0020", CARD_B),
		 IBV("mlx5_3", "28.42.1000", "b83f:d203:00bb:0021", CARD_B));
	judge(&r, text);
	assert_int_equal(r.t->nrdma, 4);
	assert_string_equal(on(&r, "mlx5_0"), "0000:17:00.0");
	assert_string_equal(on(&r, "mlx5_1"), "0000:17:00.1");
	assert_string_equal(on(&r, "mlx5_2"), "0000:b1:00.0");
	assert_string_equal(on(&r, "mlx5_3"), "0000:b1:00.1");
	assert_string_equal(r.t->rdma[3].fw_ver, "28.42.1000");
	assert_int_equal(rec(&r, "mlx5_3")->join, DUMP_JOIN_ORDER);
	assert_string_equal(rec(&r, "mlx5_1")->sys_guid, "b83fd20300aa0010");
	/* the function only the tree drew: a ConnectX-7 on its bus's NUMA node */
	assert_int_equal(r.t->pci[nicfit_topo_find(r.t, "0000:b1:00.1")].numa_node, 1);
	assert_int_equal(count(r.a, "rdma-port-down"), 4);
	assert_int_equal(count(r.a, "dump-topo-mismatch"), 0);
	assert_true(noted(r.a, "rdma_join"));
	out_has(r.a, "\"name\":\"mlx5_3\",\"port\":1,\"state\":\"DOWN\"");
	out_has(r.a, "\"join\":\"name_order\"");
	done(&r);
}

/*
 * ethtool -i's bus-info ties mlx5_0's interface (named by ibdev2netdev) to
 * the second card: evidence over name order, which would say the first.
 */
static void ethtool_bus_info(void **state)
{
	char text[8192];
	struct run r;

	(void)state;
	snprintf(text, sizeof(text), "%s%s"
		 "mlx5_0 port 1 ==> ens5f0np0 (Down)\n\n"
		 "# ethtool -i ens5f0np0\n"
		 "driver: mlx5_core\n"
		 "version: 24.10-1.1.4\n"
		 "firmware-version: 28.42.1000 (MT_0000000838)\n"
		 "expansion-rom-version: \n"
		 "bus-info: 0000:b1:00.0\n"
		 "supports-statistics: yes\n", lspci,
		 IBV("mlx5_0", "28.42.1000", "b83f:d203:00bb:0020", CARD_B));
	judge(&r, text);
	assert_string_equal(on(&r, "mlx5_0"), "0000:b1:00.0");
	assert_int_equal(rec(&r, "mlx5_0")->join, DUMP_JOIN_ETHTOOL);
	assert_false(noted(r.a, "rdma_join"));
	out_has(r.a, "\"join\":\"ethtool\"");
	done(&r);
}

/*
 * ibdev2netdev -v places mlx5_2 on 17:00.0; mlx5_3 shares its
 * sys_image_guid (the card's second function) and has the next node GUID:
 * 17:00.1. mlx5_0 and mlx5_1, by order, would land on those same functions:
 * they are left untied rather than put where another device is.
 */
static void sibling_by_sys_image_guid(void **state)
{
	char text[8192];
	struct run r;

	(void)state;
	snprintf(text, sizeof(text), "%s%s%s%s%s"
		 "0000:17:00.0 mlx5_2 (MT4129 - MCX755106AS-HEAT) fw 28.42.1000 port 1 (DOWN  ) "
		 "==> ens1f0np0 (Down)\n", lspci,
		 IBV("mlx5_0", "28.39.1002", "b83f:d203:00aa:0010", CARD_A),
		 IBV("mlx5_1", "28.39.1002", "b83f:d203:00aa:0011", CARD_A),
		 IBV("mlx5_2", "28.42.1000", "b83f:d203:00bb:0020", CARD_B),
		 IBV("mlx5_3", "28.42.1000", "b83f:d203:00bb:0021", CARD_B));
	judge(&r, text);
	assert_string_equal(on(&r, "mlx5_2"), "0000:17:00.0");
	assert_int_equal(rec(&r, "mlx5_2")->join, DUMP_JOIN_IBDEV);
	assert_string_equal(on(&r, "mlx5_3"), "0000:17:00.1");
	assert_int_equal(rec(&r, "mlx5_3")->join, DUMP_JOIN_SIBLING);
	assert_int_equal(rec(&r, "mlx5_0")->join, DUMP_JOIN_NONE);
	assert_int_equal(rec(&r, "mlx5_1")->join, DUMP_JOIN_NONE);
	assert_int_equal(count(r.a, "rdma-port-down"), 4); /* the untied ones judged as pasted */
	done(&r);
}

/*
 * Two devices of one card (one sys_image_guid) that name order would put
 * on two different cards: the order is wrong for this host, both ties go.
 */
static void order_contradicted_by_guids(void **state)
{
	char text[8192];
	struct run r;

	(void)state;
	snprintf(text, sizeof(text), "%s%s%s", BLOCK("17:00.0", "0") BLOCK("b1:00.0", "1"),
		 IBV("mlx5_0", "22.32.2004", "0c42:a103:0001:65fc", "0c42:a103:0001:65fc"),
		 IBV("mlx5_1", "22.32.2004", "0c42:a103:0001:65fd", "0c42:a103:0001:65fc"));
	judge(&r, text);
	assert_int_equal(rec(&r, "mlx5_0")->join, DUMP_JOIN_NONE);
	assert_int_equal(rec(&r, "mlx5_1")->join, DUMP_JOIN_NONE);
	assert_int_equal(r.t->nrdma, 0);
	done(&r);
}

/* GUIDs as ibstat prints them; all zeros (a VF's sys_image_guid) is no GUID. */
static void guid_forms(void **state)
{
	char g[17];

	(void)state;
	assert_int_equal(nicfit__dump_guid("0xB83FD20300AA0010", g), 0);
	assert_string_equal(g, "b83fd20300aa0010");
	assert_int_equal(nicfit__dump_guid("b83f:d203:00aa:0010", g), 0);
	assert_string_equal(g, "b83fd20300aa0010");
	assert_int_equal(nicfit__dump_guid("0000:0000:0000:0000", g), -1);
	assert_int_equal(nicfit__dump_guid("b83f:d203:00aa", g), -1);
	assert_int_equal(nicfit__dump_guid("b83f:d203:00aa:0010:ffff", g), -1);
	assert_int_equal(nicfit__dump_guid("0xb83fd20300aa0010junk", g), -1);
}

/*
 * Two sockets, each with a PCIe switch holding one H100 and one dual-port
 * ConnectX-7, as lspci -tv draws them (names only), and a matrix whose
 * legend does not follow PCI order: mlx5_0 and mlx5_1 sit by GPU1.
 */
static const char tree2[] =
	"-+-[0000:b0]-+-00.0  Intel Corporation Ice Lake Memory Map/VT-d\n"
	" |           \\-02.0-[b1-b4]----00.0-[b2-b4]--+-00.0-[b3]----00.0  NVIDIA Corporation "
	"GH100 [H100 SXM5 80GB]\n"
	" |                                           \\-01.0-[b4]--+-00.0  Mellanox Technologies "
	"MT2910 Family [ConnectX-7]\n"
	" |                                                         \\-00.1  Mellanox Technologies "
	"MT2910 Family [ConnectX-7]\n"
	" \\-[0000:16]-+-00.0  Intel Corporation Ice Lake Memory Map/VT-d\n"
	"             \\-02.0-[17-1a]----00.0-[18-1a]--+-00.0-[19]----00.0  NVIDIA Corporation "
	"GH100 [H100 SXM5 80GB]\n"
	"                                             \\-01.0-[1a]--+-00.0  Mellanox Technologies "
	"MT2910 Family [ConnectX-7]\n"
	"                                                           \\-00.1  Mellanox Technologies "
	"MT2910 Family [ConnectX-7]\n\n";

#define MATRIX(row0, row1)                                                                \
	"\tGPU0\tGPU1\tNIC0\tNIC1\tNIC2\tNIC3\tCPU Affinity\tNUMA Affinity\n"               \
	"GPU0\t X \tSYS\t" row0 "\t0-31\t0\n"                                                \
	"GPU1\tSYS\t X \t" row1 "\t32-63\t1\n\n"                                             \
	"NIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_1\n  NIC2: mlx5_2\n  NIC3: mlx5_3\n"

/*
 * The matrix alone with the tree: each column's cells fit one card, and
 * within the card the functions go in name order; name order over the
 * whole host would have put mlx5_0 by GPU0. Said as the matrix's join.
 */
static void matrix_cells_place_devices(void **state)
{
	char text[8192];
	struct run r;

	(void)state;
	snprintf(text, sizeof(text), "%s%s", tree2,
		 MATRIX("SYS\tSYS\tPIX\tPIX", "PIX\tPIX\tSYS\tSYS"));
	judge(&r, text);
	assert_string_equal(on(&r, "mlx5_0"), "0000:b4:00.0");
	assert_string_equal(on(&r, "mlx5_1"), "0000:b4:00.1");
	assert_string_equal(on(&r, "mlx5_2"), "0000:1a:00.0");
	assert_string_equal(on(&r, "mlx5_3"), "0000:1a:00.1");
	assert_int_equal(r.d->smi.nic_join[0], DUMP_JOIN_MATRIX);
	assert_int_equal(count(r.a, "dump-join-guess"), 0);
	assert_int_equal(count(r.a, "dump-topo-mismatch"), 0);
	assert_false(noted(r.a, "nic_names"));
	assert_true(noted(r.a, "rdma_join"));
	done(&r);
}

/* ibv_devinfo's devices, with no ibdev2netdev: the matrix ties them, reported as such. */
static void matrix_ties_listed_devices(void **state)
{
	char text[8192];
	struct run r;

	(void)state;
	snprintf(text, sizeof(text), "%s%s%s%s", tree2,
		 MATRIX("SYS\tSYS\tPIX\tPIX", "PIX\tPIX\tSYS\tSYS"),
		 IBV("mlx5_0", "28.42.1000", "b83f:d203:00bb:0020", CARD_B),
		 IBV("mlx5_2", "28.39.1002", "b83f:d203:00aa:0010", CARD_A));
	judge(&r, text);
	assert_string_equal(on(&r, "mlx5_0"), "0000:b4:00.0");
	assert_int_equal(rec(&r, "mlx5_0")->join, DUMP_JOIN_MATRIX);
	assert_string_equal(on(&r, "mlx5_2"), "0000:1a:00.0");
	out_has(r.a, "\"join\":\"topo_matrix\"");
	done(&r);
}

/*
 * Cells no card's functions can have (one card's two functions at PIX and
 * PXB from one GPU) place nothing by the matrix; name order then ties what
 * is free and says it guessed; a function the matrix gave to another
 * device is not handed out again.
 */
static void matrix_cells_that_fit_nothing(void **state)
{
	char text[8192];
	struct run r;

	(void)state;
	snprintf(text, sizeof(text), "%s%s", tree2,
		 MATRIX("SYS\tSYS\tPIX\tPXB", "PIX\tPIX\tSYS\tSYS"));
	judge(&r, text);
	assert_string_equal(on(&r, "mlx5_0"), "0000:b4:00.0");
	assert_int_equal(r.d->smi.nic_join[2], DUMP_JOIN_NONE);
	assert_int_equal(r.d->smi.nic_join[3], DUMP_JOIN_NONE);
	assert_string_equal(on(&r, "mlx5_2"), "");
	assert_int_equal(count(r.a, "dump-topo-mismatch"), 0);
	done(&r);
}

/* Columns that two cards fit alike (all SYS, no NUMA known) place nothing by the matrix. */
static void matrix_ambiguous_columns(void **state)
{
	const char *cand;
	char text[8192];
	struct run r;

	(void)state;
	snprintf(text, sizeof(text), "%s%s", tree2,
		 MATRIX("SYS\tSYS\tSYS\tSYS", "SYS\tSYS\tSYS\tSYS"));
	judge(&r, text);
	assert_int_equal(r.d->smi.nic_join[0], DUMP_JOIN_ORDER);
	cand = on(&r, "mlx5_0");
	assert_string_equal(cand, "0000:1a:00.0");
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(order_with_tree_functions),
		cmocka_unit_test(ethtool_bus_info),
		cmocka_unit_test(sibling_by_sys_image_guid),
		cmocka_unit_test(order_contradicted_by_guids),
		cmocka_unit_test(guid_forms),
		cmocka_unit_test(matrix_cells_place_devices),
		cmocka_unit_test(matrix_ties_listed_devices),
		cmocka_unit_test(matrix_cells_that_fit_nothing),
		cmocka_unit_test(matrix_ambiguous_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
