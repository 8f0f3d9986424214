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
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct cmd {
	char **argv;
	char **envp;
};

/* cmd_init: split "NAME=VALUE... CMD ARGS..." (argv[0..n)) into a command */
static int cmd_init(struct cmd *c, char **argv, int n)
{
	size_t ne = 0, i, k = 0;
	int a = 0;

	while (a < n && strchr(argv[a], '=') && argv[a][0] != '=' && argv[a][0] != '/')
		a++;
	if (a == n)
		return -1;
	while (environ[ne])
		ne++;
	c->envp = calloc(ne + (size_t)a + 1, sizeof *c->envp);
	c->argv = calloc((size_t)(n - a) + 1, sizeof *c->argv);
	if (!c->envp || !c->argv)
		return -1;
	for (i = 0; i < (size_t)a; i++)
		c->envp[k++] = argv[i];
	for (i = 0; i < ne; i++) {
		size_t j, len = strcspn(environ[i], "=");
		int shadowed = 0;

		for (j = 0; j < (size_t)a; j++)
			if (strncmp(argv[j], environ[i], len + 1) == 0)
				shadowed = 1;
		if (!shadowed)
			c->envp[k++] = environ[i];
	}
	for (i = 0; i < (size_t)(n - a); i++)
		c->argv[i] = argv[a + (int)i];
	return 0;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* run: one whole process of c; its wall time in microseconds, or -1 */
static double run(const struct cmd *c, const posix_spawn_file_actions_t *fa)
{
	pid_t pid;
	int st, rc;
	double t0 = now_us();

	rc = posix_spawnp(&pid, c->argv[0], fa, NULL, c->argv, c->envp);
	if (rc != 0) {
		fprintf(stderr, "turns: cannot start %s: %s\n", c->argv[0], strerror(rc));
		return -1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		fprintf(stderr, "turns: %s: not found\n", c->argv[0]);
		return -1;
	}
	return now_us() - t0;
}

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
