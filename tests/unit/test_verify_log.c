/*
 * test_verify_log.c - NCCL logs of each era as NCCL's own format strings
 * print them (NVIDIA/nccl v2.3.7 src/transport/net_ib.cu, v2.4.8
 * src/transport/net.cc and shm.cc, v2.5.6-v2.26 src/graph/paths.cc and
 * topo.cc, v2.19+ src/init.cc), filled with values of the kind public
 * logs show; the nodes and jobs a log shows; records glued by runs of
 * spaces; and each work-completion status of enum ibv_wc_status
 * (rdma-core libibverbs/verbs.h) with its own meaning and check.
 */
#include "unit.h"

#include "nicfit/file.h"
#include "nicfit/finding.h"
#include "nicfit/verify.h"
#include "verify_fixture.h"

/* 2.3: one HCA a line, "NET : Using interface", per-GPU GDR by HCA name */
static void era_2_3(void **state)
{
	static const char t[] =
		"h1:46393:46393 [0] NCCL INFO NET : Using interface enp1s0f0:100.97.70.134<0>\n"
		"h1:46393:46393 [0] NCCL INFO NET/IB: [0] mlx5_1:1/IB \n"
		"h1:46393:46393 [0] NCCL INFO NET/IB: [1] mlx5_3:1/IB \n"
		"h1:46393:46393 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for GPU 0 / HCA mlx5_1 (no module)\n"
		"NCCL version 2.3.7+cuda9.0\n"
		"h1:46393:46393 [0] NCCL INFO rank 0 nranks 8\n"
		"h1:46394:46394 [1] NCCL INFO NET/IB: [0] mlx5_1:1/IB \n";
	struct nicfit_verify *v = from_text("2.3", t);
	const struct nicfit_nccl_log *g = log_of(v);
	const struct nicfit_finding *f;

	(void)state;
	assert_string_equal(g->version, "2.3.7");
	assert_int_equal(g->nhcas, 2);
	assert_string_equal(g->hcas[0].name, "mlx5_1");
	assert_string_equal(g->hcas[1].name, "mlx5_3");
	assert_string_equal(g->hcas[1].link, "IB");
	assert_string_equal(g->bootstrap_if, "enp1s0f0");
	assert_int_equal(g->nranks, 8);
	assert_int_equal(g->nhosts, 1);
	assert_int_equal(g->ngdr_gpus, 1);
	assert_string_equal(g->gdr_gpus[0].hca_name, "mlx5_1");
	f = find(v, "nccl-gdr-disabled");
	assert_non_null(f);
	assert_non_null(strstr(f->fix, "nvidia-peermem"));
	nicfit_verify_free(v);
}

/* 2.4: "Ring NN : a -> b [send] via NET/X/n[/GDRDMA]", SHM, "Bootstrap : Using [0]lo" */
static void era_2_4(void **state)
{
	static const char t[] =
		"[1,0]<stdout>:c1:10:10 [0] NCCL INFO Bootstrap : Using [0]lo:127.0.0.1<0>\n"
		"c1:10:10 [0] NCCL INFO Ring 00 : 15 -> 0 [receive] via NET/IB/0/GDRDMA\n"
		"c1:10:10 [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/IB/0\n"
		"c1:10:10 [0] NCCL INFO Ring 01 : 0[0] -> 1[1] via P2P/IPC\n"
		"c1:10:10 [0] NCCL INFO Ring 01 : 1[1] -> 2[2] via direct shared memory\n"
		"c1:10:10 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for GPU 0[0] / HCA 0 (distance 4 >= 2)\n"
		/* src/transport/net.cc: "CUDA Dev %d[%d], %s NIC distance : " then " %s" each */
		"c1:10:10 [0] NCCL INFO CUDA Dev 0[0], IB NIC distance :  PIX NODE SYS SYS\n"
		"c1:10:10 [0] NCCL INFO CUDA Dev 0[0], IB NIC distance :  PIX NODE SYS SYS\n"
		"c1:11:11 [1] NCCL INFO CUDA Dev 1[1], IB NIC distance :  SYS SYS PXB PHB\n";
	struct nicfit_verify *v = from_text("2.4", t);
	const struct nicfit_nccl_log *g = log_of(v);

	(void)state;
	assert_string_equal(g->bootstrap_if, "lo");
	assert_int_equal(g->chan_net, 2);
	assert_int_equal(g->chan_gdr, 1);
	assert_int_equal(g->chan_p2p, 1);
	assert_int_equal(g->chan_shm, 1);
	assert_int_equal(g->nrings, 2);
	/* "Ring 00 : 15 -> 0": rank 15 exists, so 16 ranks at least (no count) */
	assert_int_equal(g->ranks_at_least, 16);
	assert_int_equal(g->nranks, 0);
	assert_int_equal(g->ngdr_gpus, 1);
	assert_string_equal(g->gdr_gpus[0].gpu, "0[0]");
	assert_int_equal(g->gdr_gpus[0].distance, 4);
	assert_int_equal(g->gdr_gpus[0].level, 2);
	/* the per-GPU line is not an HCA line with an empty name */
	assert_int_equal(g->nhcas, 0);
	/* NIC distances: once per host and GPU, each net device's path in order */
	assert_int_equal(g->nnic_dist, 2);
	assert_string_equal(g->nic_dist[0].host, "c1");
	assert_int_equal(g->nic_dist[0].gpu, 0);
	assert_int_equal(g->nic_dist[0].npaths, 4);
	assert_string_equal(g->nic_dist[0].paths[1], "NODE");
	assert_int_equal(g->nic_dist[1].gpu, 1);
	assert_string_equal(g->nic_dist[1].paths[2], "PXB");
	assert_string_equal(g->nic_dist[1].paths[3], "PHB");
	nicfit_verify_free(v);
}

/*
 * 2.3: "Using internal Network IB" names the network; "CUDA Dev 2, IB
 * Ports : mlx5_3/1(SOC) mlx5_1/1(PIX)" gives each port's class, SOC (the
 * old name) read as SYS (NVIDIA/nccl#147's shape).
 */
static void era_2_3_ib_ports(void **state)
{
	static const char t[] =
		"lf:1:1 [4] NCCL INFO NET/IB: [0] mlx5_3:1/IB\n"
		"lf:1:1 [4] NCCL INFO Using internal Network IB\n"
		"lf:2:2 [2] NCCL INFO CUDA Dev 2, IB Ports : mlx5_3/1(SOC) mlx5_2/1(SOC) "
		"mlx5_1/1(PIX) mlx5_0/1(PHB)\n";
	struct nicfit_verify *v = from_text("2.3", t);
	const struct nicfit_nccl_log *g = log_of(v);

	(void)state;
	assert_string_equal(g->network, "IB");
	assert_int_equal(g->nnic_dist, 1);
	assert_int_equal(g->nic_dist[0].gpu, 2);
	assert_int_equal(g->nic_dist[0].npaths, 4);
	assert_string_equal(g->nic_dist[0].paths[0], "SYS");
	assert_string_equal(g->nic_dist[0].paths[2], "PIX");
	assert_string_equal(g->nic_dist[0].paths[3], "PHB");
	nicfit_verify_free(v);
}

/* 2.5-2.26: per-GPU lines kept per GPU; the fix names the level the log sets */
static void era_2_5_per_gpu(void **state)
{
	static const char t[] =
		"n1:5:5 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to PIX\n"
		"n1:5:5 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>\n"
		"n1:5:5 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 1b000 / HCA 0 (distance 4 > 2)\n"
		"n1:6:6 [1] NCCL INFO GPU Direct RDMA Disabled for GPU 3d000 / HCA 0 (distance 4 > 2)\n"
		"n1:6:6 [1] NCCL INFO GPU Direct RDMA Disabled for GPU 3d000 / HCA 0 (distance 4 > 2)\n"
		"n1:7:7 [2] NCCL INFO GPU Direct RDMA Enabled for GPU 5e000 / HCA 0 (distance 2 <= 2), read 0\n";
	struct nicfit_verify *v = from_text("2.5", t);
	const struct nicfit_nccl_log *g = log_of(v);
	const struct nicfit_finding *f;

	(void)state;
	assert_int_equal(g->ngdr_gpus, 3);
	assert_int_equal(g->hcas[0].gdr, -1);
	assert_string_equal(g->hcas[0].name, "mlx5_0");
	assert_int_equal(count(v, "nccl-gdr-disabled"), 2);
	f = find(v, "nccl-gdr-disabled");
	assert_non_null(strstr(f->message, "GPU 1b000 / HCA 0"));
	assert_non_null(strstr(f->fix, "the log sets NCCL_NET_GDR_LEVEL=PIX"));
	nicfit_verify_free(v);
}

/*
 * 2.7-2.18: "Channel 00 : 0[1b000] -> 1[3d000] via P2P/IPC" and "Channel
 * 00 : 7[e4000] -> 8[1b000] [send] via NET/IB/0/GDRDMA" (src/transport.cc),
 * "NET/IB : Using [0]mlx5_0:1/IB" with the OOB interface, "nranks" in the
 * init line (src/init.cc); and 2.19 on: "Channel 00/0 : 0[0] -> 8[0]
 * [send] via NET/IB/0/GDRDMA", the init line with nNodes and localRanks,
 * NVLS channels.
 */
static void era_2_7_to_2_2x(void **state)
{
	static const char t27[] =
		"a1:9:9 [0] NCCL INFO NCCL version 2.7.8+cuda11.0\n"
		"a1:9:9 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.1.0.1<0>\n"
		"a1:9:20 [0] NCCL INFO Channel 00/02 :    0   1   2   3\n"
		"a1:9:20 [0] NCCL INFO Channel 00 : 0[1b000] -> 1[3d000] via P2P/IPC\n"
		"a1:9:20 [0] NCCL INFO Channel 00 : 3[e4000] -> 0[1b000] [receive] via NET/IB/0/GDRDMA\n"
		"a1:9:20 [0] NCCL INFO Channel 01 : 0[1b000] -> 3[e4000] [send] via NET/IB/1\n"
		"a1:9:20 [0] NCCL INFO comm 0x5 rank 0 nranks 4 cudaDev 0 busId 1b000 - Init COMPLETE\n";
	static const char t219[] =
		"b1:7:7 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"b1:7:30 [0] NCCL INFO comm 0x7 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0\n"
		"b1:7:30 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\n"
		"b1:7:30 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n"
		"b1:7:30 [0] NCCL INFO NVLS multicast support is available on dev 0\n"
		"b2:8:31 [0] NCCL INFO comm 0x9 rank 8 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0\n";
	struct nicfit_verify *v = from_text("2.7", t27);
	const struct nicfit_nccl_log *g = log_of(v);

	(void)state;
	assert_string_equal(g->version, "2.7.8");
	assert_int_equal(g->nhcas, 2);
	assert_string_equal(g->hcas[1].name, "mlx5_1");
	assert_string_equal(g->hcas[1].link, "IB");
	assert_int_equal(g->chan_net, 2);
	assert_int_equal(g->chan_gdr, 1);
	assert_int_equal(g->chan_p2p, 1);
	assert_int_equal(g->nranks, 4);
	assert_string_equal(g->ranks_from, "nranks");
	assert_int_equal(g->nrings, 2);
	/* one channel without /GDRDMA among others with it: no "none use GDR" */
	assert_int_equal(count(v, "nccl-channel-no-gdr"), 0);
	nicfit_verify_free(v);
	v = from_text("2.19", t219);
	g = log_of(v);
	assert_string_equal(g->version, "2.21.5");
	assert_int_equal(g->nnodes, 2);
	assert_int_equal(g->local_ranks, 8);
	assert_int_equal(g->nranks, 16);
	assert_int_equal(g->nhosts, 2);
	assert_int_equal(g->chan_net, 1);
	assert_int_equal(g->chan_gdr, 1);
	assert_int_equal(g->chan_p2p, 1);
	assert_int_equal(g->chan_nvls, 1);
	assert_int_equal(g->jobs, 0);
	assert_int_equal(v->expect.nodes, 2);
	nicfit_verify_free(v);
}

/*
 * Host names from prefixes: a name that is the tail of an escape sequence
 * or longer than a DNS label is no host; torchrun's "[default0]:" label is
 * not part of one. (A two-host log with such names read as six hosts.)
 */
static void host_names(void **state)
{
	static const char t[] =
		"\033]0;t\007nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
		":1:1 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
		"\033]0;t\007nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
		":1:1 [0] NCCL INFO cudaDriverVersion 12040\n"
		"x\033[31mgpu0:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		"gpu0\351\377:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		"[default0]:node3:5:5 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.3<0>\n"
		"| node4:5:5 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.4<0>\n";
	struct nicfit_verify *v = from_text("hosts", t);

	(void)state;
	assert_int_equal(log_of(v)->nhosts, 2);
	assert_int_equal(log_of(v)->nlines, 6);
	nicfit_verify_free(v);
}

/*
 * RCCL: its banner alone on a line ("RCCL version : 2.21.5-HEAD:9a0e6a1",
 * ROCm/rccl-tests#163) and after NCCL INFO, librccl-net.so; an AMD run's
 * advice names RCCL's peer memory (/sys/kernel/mm/memory_peers/amdkfd)
 * and ROCm's tools, never an NVIDIA module, tool or path; RCCL's own
 * start-up warnings get the fix they ask for.
 */
static void rccl_log(void **state)
{
	static const char t[] =
		"z:5:5 [0] NCCL INFO NET/Plugin: No plugin found (librccl-net.so)\n"
		"RCCL version : 2.21.5-HEAD:9a0e6a1\n"
		"HIP version  : 6.3.42134-a9a80e791\n"
		"z:5:5 [0] NCCL INFO NET/IB : Using [0]bnxt_re0:1/RoCE [1]ionic_0:1/RoCE [RO]; OOB ens1:10.0.0.1<0>\n"
		"z:5:5 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'bnxt_re0' (no module)\n"
		"z:5:5 [0] NCCL INFO GPU Direct RDMA Disabled for GPU c1000 / HCA 1 (distance 4 > 3)\n"
		"z:5:9 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/1\n"
		"z:5:9 [0] init.cpp:126 NCCL WARN Missing \"HSA_FORCE_FINE_GRAIN_PCIE=1\" from environment\n"
		"z:5:9 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<5> with error 10, "
		"opcode 0, len 0, vendor err 136 (Recv)\n"
		"z:5:9 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.3<5> with error 4, "
		"opcode 0, len 0, vendor err 81 (Recv)\n";
	/* RCCL's environment-variable reference lists no NCCL_NET_GDR_LEVEL: no advice names it */
	static const char *const nvidia[] = { "nvidia", "NVIDIA", "peermem", "nv_mem", "CUDA",
					      "NVLink", "NCCL_NET_GDR_LEVEL", NULL };
	struct nicfit_verify *v = from_text("rccl", t);
	const struct nicfit_nccl_log *g = log_of(v);
	size_t i;
	int k, amd = 0;

	(void)state;
	assert_true(g->rccl > 0);
	assert_string_equal(g->version, "2.21.5");
	assert_non_null(find(v, "nccl-gdr-disabled"));
	for (i = 0; i < v->findings.n; i++) {
		const struct nicfit_finding *f = &v->findings.v[i];

		for (k = 0; nvidia[k]; k++)
			if ((f->fix && strstr(f->fix, nvidia[k])) || strstr(f->message, nvidia[k]))
				fail_msg("%s names %s: %s", f->code, nvidia[k], f->fix ? f->fix : "");
		amd |= f->fix && strstr(f->fix, "memory_peers/amdkfd") != NULL;
	}
	assert_true(amd);
	assert_non_null(strstr(find(v, "nccl-warn")->fix, "HSA_FORCE_FINE_GRAIN_PCIE=1"));
	/* the GPU too far from its HCA: move it, and see where it is with rocm-smi */
	for (i = 0, k = 0; i < v->findings.n; i++)
		k |= v->findings.v[i].fix && strstr(v->findings.v[i].fix, "RCCL's path-type numbers") &&
		     strstr(v->findings.v[i].fix, "rocm-smi --showtopo");
	assert_true(k);
	nicfit_verify_free(v);
}

/* topo.cc's "NET/Socket : GPU Direct RDMA Disabled for HCA 0 'lan2'": a socket, never peermem */
static void socket_gdr_line(void **state)
{
	static const char t[] =
		"s:1:1 [0] NCCL INFO NET/IB : No device found.\n"
		"s:1:1 [0] NCCL INFO NET/IB : Using [RO]; OOB lan2:192.168.1.2<0>\n"
		"s:1:1 [0] NCCL INFO NET/Socket : Using [0]lan2:192.168.1.2<0>\n"
		"s:1:1 [0] NCCL INFO Using network Socket\n"
		"s:1:1 [0] NCCL INFO NET/Socket : GPU Direct RDMA Disabled for HCA 0 'lan2'\n"
		"s:1:1 [0] NCCL INFO NET/Socket : GPU Direct RDMA Disabled for HCA 'lan2'\n";
	struct nicfit_verify *v = from_text("sock", t);
	const struct nicfit_nccl_log *g = log_of(v);
	size_t i;

	(void)state;
	assert_int_equal(g->nhcas, 0);
	assert_int_equal(g->relaxed_ordering, 0);
	assert_null(find(v, "nccl-gdr-disabled"));
	for (i = 0; i < v->findings.n; i++)
		assert_null(v->findings.v[i].fix ? strstr(v->findings.v[i].fix, "peermem") : NULL);
	nicfit_verify_free(v);
}

/* nodes: NCCL's nNodes, host prefixes behind quotes, rank tags and prose */
static void nodes_and_hosts(void **state)
{
	static const char t[] =
		"Here is my log, node0: it fails\n"
		"> `[0] node0:13571:13571 [0] NCCL INFO Bootstrap : Using enp10s0:10.10.7.107<0>\n"
		"[1] node2:22555:22555 [0] NCCL INFO Bootstrap : Using enp10s0:10.10.7.109<0>\n"
		"[3] node2:22556:22556 [1] NCCL INFO cudaDriverVersion 11070\n"
		"node0:13571:13580 [0] NCCL INFO comm 0x5 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0\n"
		"node2:22555:22590 [0] NCCL INFO comm 0x7 rank 8 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0\n";
	struct nicfit_verify *v = from_text("nodes", t);
	const struct nicfit_nccl_log *g = log_of(v);

	(void)state;
	assert_int_equal(g->nhosts, 2);
	assert_int_equal(g->nnodes, 2);
	assert_int_equal(g->local_ranks, 8);
	assert_int_equal(g->nranks, 16);
	assert_int_equal(g->jobs, 0);
	assert_string_equal(g->bootstrap_if, "enp10s0");
	assert_int_equal(v->expect.nodes, 2);
	assert_int_equal(v->expect.gpus_per_node, 8);
	assert_null(find(v, "nccl-separate-jobs"));
	nicfit_verify_free(v);
}

/* two single-node jobs pasted together; and the same before nNodes (two headers) */
static void separate_jobs(void **state)
{
	static const char t[] =
		"a:1:2 [0] NCCL INFO comm 0x1 rank 0 nRanks 8 nNodes 1 localRanks 8 localRank 0 MNNVL 0\n"
		"b:3:4 [0] NCCL INFO comm 0x2 rank 0 nRanks 8 nNodes 1 localRanks 8 localRank 0 MNNVL 0\n";
	static const char old[] =
		"a:1:1 [0] NCCL INFO NCCL version 2.10.3+cuda11.0\n"
		"a:1:2 [0] NCCL INFO comm 0x1 rank 0 nranks 1 cudaDev 0 busId 1b000 - Init COMPLETE\n"
		"b:3:3 [0] NCCL INFO NCCL version 2.10.3+cuda11.0\n"
		"b:3:4 [0] NCCL INFO comm 0x2 rank 0 nranks 1 cudaDev 0 busId 1b000 - Init COMPLETE\n";
	static const char split[] =
		"a:1:1 [0] NCCL INFO NCCL version 2.10.3+cuda11.0\n"
		"a:1:2 [0] NCCL INFO comm 0x1 rank 0 nranks 16 cudaDev 0 busId 1b000 - Init COMPLETE\n"
		"b:3:4 [0] NCCL INFO comm 0x2 rank 0 nranks 8 cudaDev 0 busId 1b000 - Init COMPLETE\n";
	struct nicfit_verify *v = from_text("jobs", t);
	const struct nicfit_finding *f;

	(void)state;
	assert_int_equal(log_of(v)->jobs, 2);
	f = find(v, "nccl-separate-jobs");
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_WARNING);
	assert_int_equal(v->expect.nodes, 1);
	nicfit_verify_free(v);
	v = from_text("old", old);
	assert_int_equal(log_of(v)->jobs, 2);
	nicfit_verify_free(v);
	/* a sub-communicator's rank 0 on another host, one version header: one job */
	v = from_text("split", split);
	assert_int_equal(log_of(v)->jobs, 0);
	assert_null(find(v, "nccl-separate-jobs"));
	nicfit_verify_free(v);
}

/* records glued by runs of spaces, one cut after "via" */
static void glued_records(void **state)
{
	static const char t[] =
		"NCCL INFO Channel 12/0 : 13[5] -> 5[5] [receive] via NET/IBext/5/GDRDMA"
		"                VM-1:11980:12549 [2] NCCL INFO Channel 03/0 : 2[2] -> 10[2] [send] via NET/IBext/2/GDRDMA"
		"      VM-1:11982:12551 [4] NCCL INFO Channel 15/0 : 12[4] -> 4[4] [receive] via\n"
		" NET/IBext/4/GDRDMA                VM-1:11984:12553 [6] NCCL INFO Channel 12/0 : 14[6] -> 6[6] [receive] via NET/IBext/6/GDRDMA\n";
	struct nicfit_verify *v = from_text("glued", t);
	const struct nicfit_nccl_log *g = log_of(v);

	(void)state;
	assert_int_equal(g->chan_net, 4);
	assert_int_equal(g->chan_gdr, 4);
	assert_int_equal(g->nhosts, 1);
	nicfit_verify_free(v);
}

/* RoCE and InfiniBand ports in one NET/IB list */
static void mixed_link_layers(void **state)
{
	static const char t[] =
		"m:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.1<0>\n";
	struct nicfit_verify *v = from_text("mixed", t);
	const struct nicfit_finding *f;

	(void)state;
	assert_int_equal(log_of(v)->ib_mixed_links, 1);
	assert_int_equal(log_of(v)->relaxed_ordering, 1);
	f = find(v, "nccl-mixed-link-layers");
	assert_non_null(f);
	assert_non_null(strstr(f->fix, "NCCL_IB_HCA=mlx5_0"));
	nicfit_verify_free(v);
}

/* every ibv_wc_status NCCL can print, each with its own name and check */
static void wc_statuses(void **state)
{
	static const char *const name[] = {
		NULL, "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR", "IBV_WC_LOC_EEC_OP_ERR",
		"IBV_WC_LOC_PROT_ERR", "IBV_WC_WR_FLUSH_ERR", "IBV_WC_MW_BIND_ERR",
		"IBV_WC_BAD_RESP_ERR", "IBV_WC_LOC_ACCESS_ERR", "IBV_WC_REM_INV_REQ_ERR",
		"IBV_WC_REM_ACCESS_ERR", "IBV_WC_REM_OP_ERR", "IBV_WC_RETRY_EXC_ERR",
		"IBV_WC_RNR_RETRY_EXC_ERR", "IBV_WC_LOC_RDD_VIOL_ERR", "IBV_WC_REM_INV_RD_REQ_ERR",
		"IBV_WC_REM_ABORT_ERR", "IBV_WC_INV_EECN_ERR", "IBV_WC_INV_EEC_STATE_ERR",
		"IBV_WC_FATAL_ERR", "IBV_WC_RESP_TIMEOUT_ERR", "IBV_WC_GENERAL_ERR",
		"IBV_WC_TM_ERR", "IBV_WC_TM_RNDV_INCOMPLETE",
	};
	char t[256];
	int st;

	(void)state;
	for (st = 1; st < (int)(sizeof(name) / sizeof(name[0])); st++) {
		struct nicfit_verify *v;
		const struct nicfit_finding *f;

		snprintf(t, sizeof(t), "w:1:1 [0] NCCL WARN NET/IB : Got completion from peer "
			 "10.0.0.2<5> with error %d, opcode 0, len 0, vendor err 81 (Recv)\n", st);
		v = from_text("wc", t);
		f = find(v, "nccl-ib-completion-error");
		assert_non_null(f);
		assert_non_null(strstr(f->message, name[st]));
		assert_non_null(f->fix);
		if (st == 4) {
			assert_non_null(strstr(f->fix, "ACS"));
			assert_non_null(strstr(f->fix, "NCCL_NET_GDR_LEVEL=LOC"));
			assert_null(strstr(f->fix, "GID"));
		} else if (st == 12) {
			assert_non_null(strstr(f->fix, "GID index"));
			assert_null(strstr(f->fix, "ACS"));
		} else {
			assert_null(strstr(f->fix, "NCCL_NET_GDR_LEVEL"));
		}
		nicfit_verify_free(v);
	}
	/* the plugin's "status=IBV_WC_RETRY_EXC_ERR(12)" form */
	{
		struct nicfit_verify *v = from_text("plugin", "k:1:1 [4] NCCL WARN NET/IB : Got "
			"completion from peer 10.0.0.2<5> with status=IBV_WC_REM_ACCESS_ERR(10) "
			"opcode=0 len=0 vendor err 136 (Recv)\n");

		assert_non_null(strstr(find(v, "nccl-ib-completion-error")->message,
				       "remote access error"));
		nicfit_verify_free(v);
	}
}

/*
 * NCCL's "Got async event : TEXT" in libibverbs' words: an event that
 * leaves a queue pair or a port in error is critical and named; a GID
 * table change is a warning; an event the table does not know stays a
 * plain WARN.
 */
static void async_events(void **state)
{
	static const char t[] =
		"u:1:2 [0] transport/net_ib.cc:100 NCCL WARN NET/IB : mlx5_0:1 Got async event : "
		"local access violation work queue error\n"
		"u:1:2 [0] transport/net_ib.cc:100 NCCL WARN NET/IB : mlx5_3:1 Got async event : "
		"port error\n"
		"u:1:2 [0] transport/net_ib.cc:100 NCCL WARN NET/IB : mlx5_1:1 Got async event : "
		"GID table change\n"
		"u:1:2 [0] transport/net_ib.cc:100 NCCL WARN NET/IB : mlx5_1:1 Got async event : "
		"something new\n";
	struct nicfit_verify *v = from_text("async", t);
	size_t i;
	int crit = 0, warn = 0, named = 0;

	(void)state;
	for (i = 0; i < v->findings.n; i++) {
		const struct nicfit_finding *f = &v->findings.v[i];

		if (strcmp(f->code, "nccl-warn"))
			continue;
		crit += f->severity == NICFIT_SEV_CRITICAL;
		warn += f->severity == NICFIT_SEV_WARNING;
		if (strstr(f->message, "IBV_EVENT_QP_ACCESS_ERR")) {
			named++;
			assert_non_null(f->fix);
			assert_non_null(strstr(f->fix, "MTU"));
		}
		if (strstr(f->message, "IBV_EVENT_PORT_ERR")) {
			named++;
			assert_int_equal(f->severity, NICFIT_SEV_CRITICAL);
		}
		if (strstr(f->message, "IBV_EVENT_GID_CHANGE")) {
			named++;
			assert_int_equal(f->severity, NICFIT_SEV_WARNING);
		}
	}
	assert_int_equal(named, 3);
	assert_int_equal(crit, 2);
	assert_int_equal(warn, 2); /* the GID change and the event nobody named */
	nicfit_verify_free(v);
}

/*
 * One failure's "file.cc:N -> c" lines, as NCCL prints one a frame in each
 * process it reaches (src/include/checks.h, NCCLCHECK's INFO "%s:%d -> %d"),
 * are one finding naming how many lines and which processes; another
 * result is another finding; a WARN stays its own.
 */
static void result_traces(void **state)
{
	static const char t[] =
		"n1:100:110 [5] NCCL INFO group.cc:64 -> 3 [Async thread]\n"
		"n1:100:100 [5] NCCL INFO group.cc:421 -> 3\n"
		"n1:200:210 [1] misc/socket.cc:397 NCCL WARN Net : connecting to address  with family 7\n"
		"n1:200:210 [1] NCCL INFO bootstrap.cc:256 -> 3\n"
		"n1:200:210 [1] NCCL INFO init.cc:516 -> 3\n"
		"n1:200:210 [1] NCCL INFO group.cc:64 -> 3 [Async thread]\n"
		"n2:300:310 [0] NCCL INFO net.cc:55 -> 2\n";
	struct nicfit_verify *v = from_text("traces", t);
	size_t i;
	int n3 = 0, n2 = 0, warn = 0;

	(void)state;
	for (i = 0; i < v->findings.n; i++) {
		const struct nicfit_finding *f = &v->findings.v[i];

		if (!strcmp(f->code, "nccl-warn"))
			warn++;
		if (strcmp(f->code, "nccl-error"))
			continue;
		if (strstr(f->message, "result 3 is ncclInternalError")) {
			n3++;
			assert_non_null(strstr(f->message, "5 trace lines (lines 1-6)"));
			assert_non_null(strstr(f->message, "in 2 processes (n1 pid 100 [5], n1 pid 200 [1])"));
			assert_non_null(strstr(f->message, "the first, line 1:"));
		} else if (strstr(f->message, "result 2 is ncclSystemError")) {
			n2++;
			assert_non_null(strstr(f->message, "line 7: "));
			assert_non_null(strstr(f->message, "(one trace line, in n2 pid 300 [0])"));
		}
	}
	assert_int_equal(n3, 1);
	assert_int_equal(n2, 1);
	assert_int_equal(warn, 1);
	nicfit_verify_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(era_2_3),
		cmocka_unit_test(era_2_4),
		cmocka_unit_test(era_2_3_ib_ports),
		cmocka_unit_test(era_2_5_per_gpu),
		cmocka_unit_test(era_2_7_to_2_2x),
		cmocka_unit_test(host_names),
		cmocka_unit_test(rccl_log),
		cmocka_unit_test(socket_gdr_line),
		cmocka_unit_test(nodes_and_hosts),
		cmocka_unit_test(separate_jobs),
		cmocka_unit_test(glued_records),
		cmocka_unit_test(mixed_link_layers),
		cmocka_unit_test(wc_statuses),
		cmocka_unit_test(async_events),
		cmocka_unit_test(result_traces),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
