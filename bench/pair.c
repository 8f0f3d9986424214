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
		fprintf(stderr, "pair: cannot start %s: %s\n", c->argv[0], strerror(rc));
		return -1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		fprintf(stderr, "pair: %s: not found\n", c->argv[0]);
		return -1;
	}
	return now_us() - t0;
}

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
