/*
 * test_verify_launch.c - the run's ranks and nodes from a launcher line
 * pasted beside an nccl-tests table or an NCCL log (Open MPI and MPICH
 * mpirun, Slurm srun, torchrun, deepspeed, each with the options its docs
 * give), from a ring line that lists every rank, and never from a guess.
 */
#include "unit.h"

#include "nicfit/file.h"
#include "nicfit/verify.h"

#define HEADER "#       size         count      type   redop    root     time   algbw   busbw " \
	"#wrong     time   algbw   busbw #wrong\n"
#define ROW "  8589934592    2147483648     float     sum      -1    10000  858.99 1610.6      0" \
	"    10000  858.99  1610.6      0\n"

static struct nicfit_verify *from_text(const char *text)
{
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_error err;

	assert_non_null(v);
	nicfit_error_clear(&err);
	if (nicfit_verify_add_text(v, "t", text, strlen(text), &err))
		fail_msg("%s", err.msg);
	assert_int_equal(v->ndocs, 1);
	return v;
}

/* The table's ranks, nodes and where they came from, under launcher line cmd. */
static void table(const char *cmd, int ranks, int nodes, const char *rfrom, const char *nfrom)
{
	char text[1024];
	struct nicfit_verify *v;
	const struct nicfit_nccl_tests *t;

	snprintf(text, sizeof(text), "%s\n%s%s", cmd, HEADER, ROW);
	v = from_text(text);
	assert_int_equal(v->docs[0].kind, NICFIT_VERIFY_NCCL_TESTS);
	t = &v->docs[0].u.t;
	if (t->nranks != ranks || t->nodes != nodes)
		fail_msg("%s: %d ranks on %d nodes, want %d on %d", cmd, t->nranks, t->nodes, ranks,
			 nodes);
	if (rfrom)
		assert_string_equal(t->ranks_from, rfrom);
	else
		assert_null(t->ranks_from);
	if (nfrom)
		assert_string_equal(t->nodes_from, nfrom);
	else
		assert_null(t->nodes_from);
	nicfit_verify_free(v);
}

static void mpirun_forms(void **state)
{
	(void)state;
	table("$ mpirun -np 16 -H a:8,b:8 -x NCCL_DEBUG=INFO ./build/all_reduce_perf -b 8 -e 8G -g 1",
	      16, 2, "launcher", "launcher");
	/* no -np: a process a slot */
	table("mpirun --host a:8,b:8 ./all_reduce_perf", 16, 2, "launcher", "launcher");
	table("mpirun -np 16 --npernode 8 --hostfile hosts ./all_reduce_perf", 16, 2, "launcher",
	      "launcher");
	table("mpirun -np 16 -N 8 ./all_reduce_perf", 16, 2, "launcher", "launcher");
	table("mpirun -np 16 --map-by ppr:4:node ./all_reduce_perf", 16, 4, "launcher", "launcher");
	table("mpiexec -n 4 -ppn 2 ./all_reduce_perf", 4, 2, "launcher", "launcher");
	/* nccl-tests: ranks = processes x -t x -g */
	table("mpirun -np 2 -N 1 ./build/all_reduce_perf -b 8 -e 8G -g 8", 16, 2, "launcher",
	      "launcher");
	table("mpirun -np 2 ./build/all_reduce_perf -t 2 -g 4", 16, 0, "launcher", NULL);
	/* a hostfile or -np alone says nothing about the nodes */
	table("mpirun --hostfile hosts.txt -np 16 ./all_reduce_perf", 16, 0, "launcher", NULL);
	table("mpirun.mpich -np 16 -env A=b ./build/all_reduce_perf -g 1", 16, 0, "launcher", NULL);
	/* fewer processes than the slots listed: which hosts ran is the mapper's */
	table("mpirun -np 8 -H a:8,b:8 ./all_reduce_perf", 8, 0, "launcher", NULL);
}

static void other_launchers(void **state)
{
	(void)state;
	table("srun -N 2 --ntasks-per-node=8 ./all_reduce_perf -g 1", 16, 2, "launcher", "launcher");
	table("srun --nodes=2 -n 16 ./all_reduce_perf", 16, 2, "launcher", "launcher");
	table("srun -n 8 --ntasks-per-node=4 ./all_reduce_perf", 8, 2, "launcher", "launcher");
	/* a range of nodes is not a count (the row's busbw/algbw, 1.875, tells 16 ranks) */
	table("srun -N 2-4 -n 16 ./all_reduce_perf", 16, 0, "launcher", NULL);
	/* Slurm host lists: counted, ranges, several items and brackets, -N first */
	table("srun -w gpu[01-02] --ntasks-per-node=8 ./all_reduce_perf -g 1", 16, 2, "launcher",
	      "launcher");
	table("srun --nodelist=r[1-2]-n[01-02] -n 16 ./all_reduce_perf", 16, 4, "launcher",
	      "launcher");
	table("srun --nodelist gpu[1,3],login7 -n 16 ./all_reduce_perf", 16, 3, "launcher",
	      "launcher");
	table("srun -N 2 -w gpu[01-04] -n 16 ./all_reduce_perf", 16, 2, "launcher", "launcher");
	/* a malformed list tells nothing */
	table("srun -w gpu[04-01] -n 16 ./all_reduce_perf", 16, 0, "launcher", NULL);
	table("srun -w gpu[01-02 -n 16 ./all_reduce_perf", 16, 0, "launcher", NULL);
	table("torchrun --nnodes 2 --nproc_per_node 8 bench.py", 16, 2, "launcher", "launcher");
	table("torchrun --nnodes=2 --nproc-per-node=8 bench.py", 16, 2, "launcher", "launcher");
	table("torchrun --nnodes=1:2 --nproc_per_node=8 bench.py", 16, 0, "bus factor", NULL);
	table("python -m torch.distributed.run --nnodes 2 --nproc_per_node 4 x.py", 8, 2, "launcher",
	      "launcher");
	table("deepspeed --num_nodes 2 --num_gpus 8 train.py", 16, 2, "launcher", "launcher");
	/* no launcher: busbw/algbw tells the ranks, nothing tells the nodes */
	table("./build/all_reduce_perf -b 8 -e 8G", 16, 0, "bus factor", NULL);
}

/* Rank lines win over the launcher: they list what ran */
static void rank_lines_win(void **state)
{
	struct nicfit_verify *v;
	const struct nicfit_nccl_tests *t;

	(void)state;
	v = from_text("mpirun -np 16 -H a:8,b:8 ./all_reduce_perf\n"
		      "#  Rank  0 Group  0 Pid 1 on a device  0 [0x18] NVIDIA H100 80GB HBM3\n"
		      "#  Rank  1 Group  0 Pid 2 on a device  1 [0x2a] NVIDIA H100 80GB HBM3\n"
		      HEADER ROW);
	t = &v->docs[0].u.t;
	assert_int_equal(t->nranks, 2);
	assert_int_equal(t->nodes, 1);
	assert_string_equal(t->ranks_from, "rank lines");
	assert_int_equal(t->launch.procs, 16);
	assert_int_equal(t->launch.line, 1);
	nicfit_verify_free(v);
}

static void log_ranks(void **state)
{
	struct nicfit_verify *v;
	const struct nicfit_nccl_log *g;

	(void)state;
	/* a whole ring: each of 0..15 once */
	v = from_text("a:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		      "a:1:9 [0] NCCL INFO Channel 00/02 :    0   7   6   5  12  11  10   9   8  15  14"
		      "  13   4   3   2   1\n");
	g = &v->docs[0].u.log;
	assert_int_equal(g->nranks, 16);
	assert_string_equal(g->ranks_from, "ring");
	nicfit_verify_free(v);
	/* 20 ranks or more: dumpLine() may have cut the line */
	v = from_text("a:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
		      "a:1:9 [0] NCCL INFO Channel 00/02 :    0   1   2   3   4   5   6   7   8   9  10"
		      "  11  12  13  14  15  16  17  18  19\n");
	assert_int_equal(v->docs[0].u.log.nranks, 0);
	nicfit_verify_free(v);
	/* a rank missing is not a whole ring */
	v = from_text("a:1:1 [0] NCCL INFO Channel 00/02 :    0   1   3\n");
	assert_int_equal(v->docs[0].u.log.nranks, 0);
	nicfit_verify_free(v);
	/* the launcher's processes when the log prints no rank count */
	v = from_text("srun --mpi=pmi2 -n 8 --ntasks-per-node=4 ./all_reduce_perf\n"
		      "a:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n");
	g = &v->docs[0].u.log;
	assert_int_equal(g->nranks, 8);
	assert_string_equal(g->ranks_from, "launcher");
	assert_int_equal(g->launch.nodes, 2);
	assert_string_equal(g->launch.tool, "srun");
	nicfit_verify_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mpirun_forms),
		cmocka_unit_test(other_launchers),
		cmocka_unit_test(rank_lines_win),
		cmocka_unit_test(log_ranks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
