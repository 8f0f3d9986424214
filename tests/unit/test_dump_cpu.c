/*
 * test_dump_cpu.c - NUMA nodes and sockets from numactl -H, lscpu (plain,
 * -e, -p) and /proc/cpuinfo in a dump: the real pastes under
 * tests/fixtures/dumps/public (see its README), each read beside an lspci
 * listing, and the sockets they give the model and the audit.
 */
#include "unit.h"

#include "dump/dump_int.h"
#include "nicfit/audit.h"

#define PUB "tests/fixtures/dumps/public/"

/* Two root ports on two NUMA nodes, a GPU under one and a NIC under the other. */
static const char two_nodes[] =
	"0000:16:01.0 PCI bridge [0604]: Intel Corporation Device [8086:352a] (rev 04)\n"
	"\tNUMA node: 0\n"
	"\tBus: primary=16, secondary=17, subordinate=17, sec-latency=0\n"
	"\n"
	"0000:17:00.0 3D controller [0302]: NVIDIA Corporation GA100 [A100 PCIe 40GB] [10de:20f1] (rev a1)\n"
	"\tNUMA node: 0\n"
	"\n"
	"0000:98:01.0 PCI bridge [0604]: Intel Corporation Device [8086:352a] (rev 04)\n"
	"\tNUMA node: 1\n"
	"\tBus: primary=98, secondary=99, subordinate=99, sec-latency=0\n"
	"\n"
	"0000:99:00.0 Ethernet controller [0200]: Mellanox Technologies MT2892 Family [ConnectX-6 Dx] [15b3:101d]\n"
	"\tNUMA node: 1\n";

static struct nicfit_topo *read_with(const char *path, const char *extra,
				     struct nicfit_dump **out)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_text(d, "lspci", two_nodes, strlen(two_nodes), &err), 0);
	if (path)
		assert_int_equal(nicfit_dump_add_path(d, path, &err), 0);
	if (extra)
		assert_int_equal(nicfit_dump_add_text(d, "extra", extra, strlen(extra), &err), 0);
	assert_int_equal(nicfit_dump_topo(d, &t, &err), 0);
	*out = d;
	return t;
}

static const struct nicfit_numa *node(const struct nicfit_topo *t, int id)
{
	int i;

	for (i = 0; i < t->nnuma; i++)
		if (t->numa[i].id == id)
			return &t->numa[i];
	fail_msg("no node %d", id);
	return NULL;
}

/* The audit's not_checked reason for check, or NULL. */
static const char *why(const struct nicfit_dump *d, struct nicfit_topo *t, const char *check,
		       int *socket_of_nic)
{
	static char out[512];
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	const char *r = NULL;
	size_t i;
	int k;

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_audit_judge(t, NULL, NULL, &a, &err), 0);
	assert_int_equal(nicfit_dump_judge(d, a, &err), 0);
	for (i = 0; i < a->nnot_checked; i++)
		if (!strcmp(a->not_checked[i].check, check)) {
			snprintf(out, sizeof(out), "%s", a->not_checked[i].why);
			r = out;
		}
	*socket_of_nic = -2;
	for (k = 0; k < a->ndevs; k++)
		if (!strcmp(t->pci[a->devs[k].pci].bdf, "0000:99:00.0"))
			*socket_of_nic = a->devs[k].socket;
	nicfit_audit_free(a);
	return r;
}

/* numactl --hardware: each node's CPUs (as ranges) and the distance table; no sockets. */
static void numactl_public(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_with(PUB "aws-c-s3-403-numactl.txt", NULL, &d);
	int s;

	(void)state;
	assert_true(nicfit_dump_formats(d) & NICFIT_DUMP_CPU);
	assert_int_equal(t->nnuma, 2);
	assert_string_equal(node(t, 0)->cpulist, "0-17,36-53");
	assert_string_equal(node(t, 1)->cpulist, "18-35,54-71");
	assert_int_equal(node(t, 0)->ncpus, 36);
	assert_int_equal(node(t, 0)->ndistance, 2);
	assert_int_equal(node(t, 0)->distance[1], 21);
	assert_int_equal(node(t, 1)->distance[1], 10);
	assert_int_equal(node(t, 0)->package, -1); /* numactl names no socket */
	assert_int_equal(d->cpu.nodes_count, 2);
	assert_non_null(strstr(why(d, t, "sockets", &s), "lscpu -e"));
	assert_int_equal(s, -1);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* Plain lscpu with two sockets and two nodes: each node a socket, in node order, and said so. */
static void lscpu_counts_public(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_with(PUB "vectorizationbase-37-lscpu.txt", NULL, &d);
	int s;

	(void)state;
	assert_int_equal(d->cpu.sockets, 2);
	assert_int_equal(d->cpu.sockets_at.line, 11);
	assert_string_equal(node(t, 0)->cpulist, "0-11");
	assert_string_equal(node(t, 1)->cpulist, "12-23");
	assert_int_equal(node(t, 0)->package, 0);
	assert_int_equal(node(t, 1)->package, 1);
	assert_int_equal(t->npackages, 2);
	assert_non_null(strstr(why(d, t, "sockets", &s), "numbered in node order"));
	assert_int_equal(s, 1);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* lscpu -e and -p on two sockets with one node: the node is on its lowest CPU's socket. */
static void lscpu_table_public(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_with(PUB "netutils-169-lscpu-e-p.txt", NULL, &d);
	int s;

	(void)state;
	assert_non_null(d->cpu.cpu_sock);
	assert_int_equal(d->cpu.cpu_sock[1], 1);
	assert_int_equal(d->cpu.cpu_sock[6], 0);
	assert_int_equal(d->cpu.sockets, 2);
	assert_int_equal(d->cpu.nodes_count, 1);
	assert_int_equal(node(t, 0)->package, 0);
	/* lspci's node 1 is one this paste does not list: its socket stays unknown */
	assert_int_equal(node(t, 1)->package, -1);
	assert_non_null(strstr(why(d, t, "sockets", &s), "do not give the socket"));
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* lscpu -e with its node and socket columns, cut mid-row: two nodes on two sockets, no note. */
static void lscpu_e_cut_public(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_with(PUB "subspace-2456-lscpu-e.txt", NULL, &d);
	int s;

	(void)state;
	assert_int_equal(node(t, 0)->package, 0);
	assert_int_equal(node(t, 1)->package, 1);
	assert_int_equal(d->cpu.cpu_sock[18], 1);
	assert_int_equal(d->cpu.cpu_sock[19], -1); /* the cut row says nothing */
	assert_null(why(d, t, "sockets", &s));
	assert_int_equal(s, 1);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* util-linux 2.38's indented lscpu on a GH200: nine nodes, one with CPUs, no Socket(s) line. */
static void lscpu_gh200_public(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_with(PUB "xpu-perf-129-lscpu-gh200.txt", NULL, &d);
	int s;

	(void)state;
	assert_int_equal(t->nnuma, 9);
	assert_int_equal(d->cpu.nodes_count, 9);
	assert_string_equal(node(t, 0)->cpulist, "0-71");
	assert_int_equal(node(t, 8)->ncpus, 0);
	assert_int_equal(node(t, 0)->package, -1); /* the excerpt has no Socket(s) */
	assert_non_null(why(d, t, "sockets", &s));
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/*
 * /proc/cpuinfo's physical id with numactl's node CPUs (both written here
 * in the kernel's and numactl's layouts): node 1's first CPU is on socket
 * 1, so the NIC there is on socket 1 and the GPU on socket 0.
 */
static void cpuinfo_with_numactl(void **state)
{
	static const char text[] =
		"$ numactl -H\n"
		"available: 2 nodes (0-1)\n"
		"node 0 cpus: 0 1\n"
		"node 0 size: 64000 MB\n"
		"node 1 cpus: 2 3\n"
		"node 1 size: 64000 MB\n"
		"\n"
		"$ cat /proc/cpuinfo\n"
		"processor\t: 0\nvendor_id\t: GenuineIntel\nphysical id\t: 0\n\n"
		"processor\t: 2\nvendor_id\t: GenuineIntel\nphysical id\t: 1\n\n"
		"physical id\t: 7\n";
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_with(NULL, text, &d);
	int s;

	(void)state;
	assert_int_equal(node(t, 0)->package, 0);
	assert_int_equal(node(t, 1)->package, 1);
	assert_null(why(d, t, "sockets", &s));
	assert_int_equal(s, 1);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* Without CPU listings the sockets stay unknown, and the audit says which commands tell. */
static void no_cpu_listing(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_with(NULL, NULL, &d);
	int s;

	(void)state;
	assert_false(nicfit_dump_formats(d) & NICFIT_DUMP_CPU);
	assert_int_equal(node(t, 0)->package, -1);
	assert_non_null(strstr(why(d, t, "sockets", &s), "lspci gives NUMA nodes"));
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* Plain lspci lines say no NUMA node: with numactl's two nodes that is unknown, not -1. */
static void plain_lspci_numa(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	size_t i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_path(d, PUB "i40e-20-sfp.txt", &err), 0);
	assert_int_equal(nicfit_dump_add_path(d, PUB "aws-c-s3-403-numactl.txt", &err), 0);
	assert_int_equal(nicfit_dump_topo(d, &t, &err), 0);
	assert_int_equal(t->nnuma, 2);
	assert_int_equal(nicfit_audit_judge(t, NULL, NULL, &a, &err), 0);
	assert_int_equal(nicfit_dump_judge(d, a, &err), 0);
	for (i = 0; i < a->findings.n; i++)
		assert_string_not_equal(a->findings.v[i].code, "numa-locality-unknown");
	for (i = 0; i < a->nnot_checked && strcmp(a->not_checked[i].check, "numa"); i++)
		;
	assert_true(i < a->nnot_checked);
	nicfit_audit_free(a);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* Hostile shapes: huge ids, rows before a header, a table row past the CPU bound. */
static void hostile(void **state)
{
	static const char text[] =
		"available: 99999999999999999999 nodes (0-1)\n"
		"node 99 cpus: 1 2 3\n"
		"node 1 cpus: 5 4 3 999999\n"
		"NUMA node7 CPU(s): 0-99999999\n"
		"Socket(s): -1\n"
		"0,0,0,0\n"
		"# CPU,Core,Socket,Node\n"
		"1,0,5000,0\n"
		"99999,0,1,0\n"
		"node distances:\n"
		"node 0 1\n"
		"  1: 10\n"
		"  77: 1 2 3\n";
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_with(NULL, text, &d);

	(void)state;
	assert_int_equal(d->cpu.sockets, 0);
	assert_int_equal(d->cpu.nodes_count, 0);
	assert_int_equal(node(t, 0)->package, -1); /* socket 5000 is past the bound */
	assert_int_equal(node(t, 1)->ndistance, 0); /* a row short of the model's nodes */
	assert_string_equal(node(t, 1)->cpulist, "5");
	assert_string_equal(node(t, 7)->cpulist, "");
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/*
 * A node's CPU list may name a CPU past the per-CPU table (8192 CPUs): its
 * socket is then not looked up there (that read was out of bounds), only
 * counted from the other nodes.
 */
static void node_cpu_past_table(void **state)
{
	static const char text[] =
		"Socket(s):               2\n"
		"NUMA node(s):            2\n"
		"NUMA node0 CPU(s):       0-3\n"
		"NUMA node1 CPU(s):       222222\n"
		"$ cat /proc/cpuinfo\n"
		"processor\t: 0\nphysical id\t: 0\n\n"
		"processor\t: 4\nphysical id\t: 1\n\n";
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_with(NULL, text, &d);

	(void)state;
	assert_int_equal(node(t, 0)->package, 0);
	assert_string_equal(node(t, 1)->cpulist, "222222");
	assert_int_equal(node(t, 1)->package, 1); /* by count: the second of two sockets */
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numactl_public),
		cmocka_unit_test(lscpu_counts_public),
		cmocka_unit_test(lscpu_table_public),
		cmocka_unit_test(lscpu_e_cut_public),
		cmocka_unit_test(lscpu_gh200_public),
		cmocka_unit_test(cpuinfo_with_numactl),
		cmocka_unit_test(no_cpu_listing),
		cmocka_unit_test(plain_lspci_numa),
		cmocka_unit_test(hostile),
		cmocka_unit_test(node_cpu_past_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
