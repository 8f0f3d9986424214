/*
 * spawn.h - what bench/pair.c and bench/turns.c share: a command split from
 * "NAME=VALUE... CMD ARGS..." words, and one whole process of it timed by
 * clock_gettime() around posix_spawnp() and waitpid(). The including file
 * defines _POSIX_C_SOURCE before it and BENCH_PROG (its name, for errors).
 */
#ifndef BENCH_SPAWN_H
#define BENCH_SPAWN_H
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
		fprintf(stderr, "%s: cannot start %s: %s\n", BENCH_PROG, c->argv[0], strerror(rc));
		return -1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		fprintf(stderr, "%s: %s: not found\n", BENCH_PROG, c->argv[0]);
		return -1;
	}
	return now_us() - t0;
}


#endif
