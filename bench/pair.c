/*
 * pair.c - the wall time of two whole processes, run in turn.
 *
 *   pair N [NAME=VALUE...] CMD A... -- [NAME=VALUE...] CMD B...
 *
 * runs A, then B, N times over (A and B alternate, so load on the machine
 * weighs on both alike) after two warm-up pairs, each with stdin, stdout
 * and stderr on /dev/null, and prints the mean microseconds of A and of B:
 * "A B". NAME=VALUE words before a command are added to its environment,
 * so that no env(1) process is counted on one side only. A command that
 * cannot be started is an error (exit 1); one that exits non-zero is not
 * (the audit exits 1 when it finds a fault).
 *
 * Why not the shell: timing `$(date +%s%N)` around a command counts a fork
 * of the shell and most of a date(1) process into both sides, 1 to 2 ms
 * here, which pulls every ratio towards 1. posix_spawn() and
 * clock_gettime() around waitpid() count the process itself. hyperfine
 * does the same but runs one command's batch after the other's, not in
 * turn. bench/ratios.sh builds this and falls back to the shell loop
 * where it cannot.
 */
#define _POSIX_C_SOURCE 200809L
#define BENCH_PROG "pair"
#include "spawn.h"

int main(int argc, char **argv)
{
	struct cmd a, b;
	posix_spawn_file_actions_t fa;
	double ta = 0, tb = 0;
	long n, i;
	int sep;
	char *end;

	if (argc < 5)
		goto usage;
	n = strtol(argv[1], &end, 10);
	if (*end || n < 1 || n > 1000000)
		goto usage;
	for (sep = 2; sep < argc && strcmp(argv[sep], "--") != 0; sep++)
		;
	if (sep >= argc - 1 || cmd_init(&a, argv + 2, sep - 2) ||
	    cmd_init(&b, argv + sep + 1, argc - sep - 1))
		goto usage;
	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) ||
	    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) ||
	    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0))
		return 1;
	for (i = -2; i < n; i++) {
		double x = run(&a, &fa), y = run(&b, &fa);

		if (x < 0 || y < 0)
			return 1;
		if (i >= 0) {
			ta += x;
			tb += y;
		}
	}
	printf("%.0f %.0f\n", ta / (double)n, tb / (double)n);
	return 0;
usage:
	fputs("usage: pair N [NAME=VALUE...] CMD A... -- [NAME=VALUE...] CMD B...\n", stderr);
	return 64;
}
