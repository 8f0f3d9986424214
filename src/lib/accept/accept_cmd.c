/*
 * accept_cmd.c - the command line of each step, as its tool documents it:
 * nccl-tests (rccl-tests on AMD: the same binaries and flags, RCCL reads
 * the same NCCL_* variables), perftest, iperf3, and the launcher (Open
 * MPI's mpirun, Slurm's srun). Host and device names reach here checked
 * by nicfit__accept_name_ok(), so a command line needs no quoting but
 * srun's NCCL_IB_HCA='=...' (single quotes: the all-reduce runs where the
 * script does, never inside ssh's double quotes).
 *
 * The flags, and why:
 *  - all_reduce_perf -b 8 -e 8G -f 2: every size from 8 bytes to 8 GiB,
 *    doubling; NVIDIA reads busbw at 8G (NVIDIA/nccl#412) and sizes under
 *    1 GiB are latency (verify's plateau). -g G in one process inside a
 *    node, -g 1 a rank across nodes.
 *  - NCCL_ALGO=Ring across nodes: busbw then measures the rails (trees,
 *    NVLS and CollNet beat it and measure something else); NCCL_IB_HCA
 *    names the rails with '=' (exact names, NCCL's documented form), so a
 *    missing rail is an error, not a quiet fallback; NCCL_DEBUG=INFO puts
 *    NCCL's transport lines (GPUDirect, NET/IB or NET/Socket) beside the
 *    table for verify to read.
 *  - ib_write_bw/ib_read_bw -d HCA -s 1048576 -D 10 --report_gbits -F:
 *    one device, 1 MiB messages (above the 64 KiB that fill a link), ten
 *    seconds, Gb/s, no failure on a CPU frequency warning; --use_cuda=G
 *    (--use_rocm=G) from the rail's nearest GPU's memory, which is
 *    GPUDirect RDMA; -x 3 on RoCE, the RoCE v2 IPv4 GID index of a port
 *    with one address (show_gids names the index a port really has).
 *  - gdsio -D $GDS_DIR -d 0 -w 8 -s 1G -i 1M -x 0 -I 0 -T 30: NVIDIA's own
 *    example in its GPUDirect Storage guide (8 threads, 1 MiB reads, -x 0
 *    the GPUDirect path, -I 0 sequential read), for 30 seconds, into GPU 0,
 *    from the directory the user names on the storage under test; gdsio
 *    is where the CUDA toolkit installs it.
 *  - iperf3 -P 8 -t 20: parallel streams (one TCP stream is one sender
 *    thread, short of 40G and faster links), 20 seconds; -s -1 serves one
 *    test and exits.
 */
#include <stdio.h>
#include <string.h>

#include "accept/accept_int.h"

/* Parallel TCP streams of the front-end test (verify's iperf3-one-stream fix). */
#define IPERF3_STREAMS 8
#define IPERF3_SECONDS 20
#define GDSIO "/usr/local/cuda/gds/tools/gdsio"
#define GDSIO_SECONDS 30
#define PERFTEST_BYTES 1048576
#define PERFTEST_SECONDS 10
/* RoCE v2's GID index on a port with one IPv4 address (MLNX_OFED and rdma-core order). */
#define ROCE_GID_INDEX 3

int nicfit__accept_name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '-' || *s == '_'))
			return 0;
	return 1;
}

static void hca_list(const struct nicfit_accept_system *sys, struct nicfit_buf *b)
{
	int r;

	nicfit_buf_puts(b, "=");
	for (r = 0; r < sys->rails; r++)
		nicfit_buf_addf(b, "%s%s:1", r ? "," : "", sys->hca[r]);
}

static void allreduce(const struct nicfit_accept *a, const char *bindir, struct nicfit_buf *b)
{
	const struct nicfit_accept_system *sys = &a->sys;
	int i, g = sys->gpus_per_node > 0 ? sys->gpus_per_node : 1;

	if (sys->launcher == NICFIT_ACCEPT_SRUN) {
		/* quoted: a shell word that starts an assignment with "==" reads as a test */
		nicfit_buf_puts(b, "NCCL_IB_HCA='");
		hca_list(sys, b);
		nicfit_buf_addf(b, "' NCCL_ALGO=Ring NCCL_DEBUG=INFO srun -N %d --ntasks-per-node=%d "
				"--mpi=pmix --nodelist=", sys->nodes, g);
		for (i = 0; i < sys->nodes; i++)
			nicfit_buf_addf(b, "%s%s", i ? "," : "", a->hosts[i]);
	} else {
		nicfit_buf_addf(b, "mpirun -np %d -H ", sys->nodes * g);
		for (i = 0; i < sys->nodes; i++)
			nicfit_buf_addf(b, "%s%s:%d", i ? "," : "", a->hosts[i], g);
		nicfit_buf_puts(b, " --bind-to none -x NCCL_IB_HCA=");
		hca_list(sys, b);
		nicfit_buf_puts(b, " -x NCCL_ALGO=Ring -x NCCL_DEBUG=INFO");
	}
	nicfit_buf_addf(b, " %sall_reduce_perf -b 8 -e 8G -f 2 -g 1", bindir);
}

static void perftest(const struct nicfit_accept *a, const struct nicfit_accept_step *s,
		     const char *tool, int server, struct nicfit_buf *b)
{
	const struct nicfit_accept_system *sys = &a->sys;

	nicfit_buf_addf(b, "%s -d %s -F --report_gbits -s %d -D %d", tool, sys->hca[s->rail],
			PERFTEST_BYTES, PERFTEST_SECONDS);
	if (!sys->ib)
		nicfit_buf_addf(b, " -x %d", ROCE_GID_INDEX);
	if (s->gpu >= 0)
		nicfit_buf_addf(b, " --use_%s=%d", sys->amd ? "rocm" : "cuda", s->gpu);
	if (!server)
		nicfit_buf_addf(b, " %s", a->hosts[s->a]);
}

void nicfit__accept_command(const struct nicfit_accept *a, const struct nicfit_accept_step *s,
			    int server, const char *bindir, struct nicfit_buf *b)
{
	switch (a->stages[s->stage].kind) {
	case NICFIT_ACCEPT_NVLINK:
		nicfit_buf_addf(b, "%sall_reduce_perf -b 8 -e 8G -f 2 -g %d", bindir,
				a->sys.gpus_per_node);
		break;
	case NICFIT_ACCEPT_RAIL_WRITE:
		perftest(a, s, "ib_write_bw", server, b);
		break;
	case NICFIT_ACCEPT_RAIL_READ:
		perftest(a, s, "ib_read_bw", server, b);
		break;
	case NICFIT_ACCEPT_ALLREDUCE:
		allreduce(a, bindir, b);
		break;
	case NICFIT_ACCEPT_FRONTEND:
		if (server)
			nicfit_buf_puts(b, "iperf3 -s -1");
		else
			nicfit_buf_addf(b, "iperf3 -c %s -P %d -t %d", a->hosts[s->a],
					IPERF3_STREAMS, IPERF3_SECONDS);
		break;
	case NICFIT_ACCEPT_STORAGE:
		nicfit_buf_addf(b, GDSIO " -D $GDS_DIR -d 0 -w 8 -s 1G -i 1M -x 0 -I 0 -T %d",
				GDSIO_SECONDS);
		break;
	}
}
