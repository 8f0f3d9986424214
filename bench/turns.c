/*
 * turns.c - the wall time of K whole processes, run in turn, as min and
 * median (not mean: one slow run on a shared machine moves a mean).
 *
 *   turns N [NAME=VALUE...] CMD A... -- [NAME=VALUE...] CMD B... [-- ...]
 *
 * runs A, B, ... in turn N times over after two warm-up rounds (stdin,
 * stdout and stderr on /dev/null) and prints, for each command, its
 * minimum and median microseconds: "minA medA minB medB ...". As
 * bench/pair.c (whose start and clock it shares): posix_spawn() and
 * clock_gettime() around waitpid(), NAME=VALUE words added to that
 * command's environment; a command that cannot be started is an error, a
 * non-zero exit is not. bench/floor.sh uses it with the audit, the floor
 * under it (bench/reads.c) and lstopo.
 */
#define _POSIX_C_SOURCE 200809L
#define BENCH_PROG "turns"
#include "spawn.h"
#define MAX_CMDS 8

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
	struct cmd c[MAX_CMDS];
	posix_spawn_file_actions_t fa;
	double *t[MAX_CMDS];
	long n, i;
	int k = 0, a, from = 2, j;
	char *end;

	if (argc < 3)
		goto usage;
	n = strtol(argv[1], &end, 10);
	if (*end || n < 1 || n > 100000)
		goto usage;
	for (a = 2; a <= argc; a++) {
		if (a < argc && strcmp(argv[a], "--") != 0)
			continue;
		if (k == MAX_CMDS || a == from || cmd_init(&c[k], argv + from, a - from))
			goto usage;
		t[k] = calloc((size_t)n, sizeof(double));
		if (!t[k])
			return 1;
		k++;
		from = a + 1;
	}
	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) ||
	    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) ||
	    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0))
		return 1;
	for (i = -2; i < n; i++)
		for (j = 0; j < k; j++) {
			double x = run(&c[j], &fa);

			if (x < 0)
				return 1;
			if (i >= 0)
				t[j][i] = x;
		}
	for (j = 0; j < k; j++) {
		qsort(t[j], (size_t)n, sizeof(double), cmp_double);
		printf("%s%.0f %.0f", j ? " " : "", t[j][0],
		       n % 2 ? t[j][n / 2] : (t[j][n / 2 - 1] + t[j][n / 2]) / 2);
	}
	putchar('\n');
	return 0;
usage:
	fputs("usage: turns N [NAME=VALUE...] CMD A... [-- [NAME=VALUE...] CMD B...]...\n", stderr);
	return 64;
}
