/*
 * reads.c - the floor under `nicfit audit --sysfs DIR`: the reads its
 * facts need, once each, and nothing else.
 *
 *   reads list DIR          what discovery reads in DIR, deduplicated, in
 *                           the order first read, with why (the facts it
 *                           holds), one a line: "F path" a file read
 *                           whole, "P path OFF LEN" LEN bytes at OFF of a
 *                           binary attribute (config space), "L path" a
 *                           link read, "D path" a directory listed, "T
 *                           path" a path only tested for, "M path" one
 *                           looked for and not there; then "# why"
 *   reads run DIR LIST      do those reads once, as a process that knows
 *                           the list would: each directory that holds an
 *                           item opened once (O_PATH) and kept, each item
 *                           opened relative to it (the audit's relative
 *                           opens), a file read with one read, a range
 *                           with one pread on the attribute's descriptor
 *                           (opened once for its ranges), a listing read
 *                           to its end; prints the syscalls made: the
 *                           minimal count for the audit's facts
 *   reads time DIR LIST N   the same N times in one process: the mean
 *                           microseconds a pass, and the syscalls a pass
 *
 * bench/floor.sh times `reads run` against the audit and lstopo, and
 * tests/suites/reads.sh holds the audit's syscalls to 1.1x its count.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "nicfit/error.h"
#include "nicfit/sysfs.h"
#include "nicfit/topo.h"

/* ---- list ------------------------------------------------------------------- */

struct seen {
	char **keys;
	size_t cap, n;
};

static size_t hash_str(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* 1 when key was not seen before (and keeps it). */
static int first_time(struct seen *s, const char *key)
{
	size_t k, i;

	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		char **v = calloc(cap, sizeof(*v));

		if (!v)
			exit(70);
		for (i = 0; i < s->cap; i++)
			if (s->keys[i]) {
				for (k = hash_str(s->keys[i]) & (cap - 1); v[k]; k = (k + 1) & (cap - 1))
					;
				v[k] = s->keys[i];
			}
		free(s->keys);
		s->keys = v;
		s->cap = cap;
	}
	for (k = hash_str(key) & (s->cap - 1); s->keys[k]; k = (k + 1) & (s->cap - 1))
		if (!strcmp(s->keys[k], key))
			return 0;
	s->keys[k] = strdup(key);
	if (!s->keys[k])
		exit(70);
	s->n++;
	return 1;
}

static void trace(void *ctx, int op, const char *path, size_t off, size_t len, const char *why)
{
	char key[2048];

	if (op == 'P')
		snprintf(key, sizeof(key), "P %s %zu %zu", path, off, len);
	else
		snprintf(key, sizeof(key), "%c %s", op, path);
	if (first_time(ctx, key))
		printf("%s\t# %s\n", key, nicfit_sysfs_read_why(op, path, why));
}

static int list(const char *dir)
{
	struct nicfit_sysfs *fs;
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;
	struct seen s = { NULL, 0, 0 };

	nicfit_error_clear(&err);
	if (nicfit_sysfs_open(dir, &fs, &err)) {
		fprintf(stderr, "reads: %s: %s\n", dir, err.msg);
		return 1;
	}
	nicfit_sysfs_trace(fs, trace, &s);
	if (nicfit_topo_discover_fs(fs, &t, &err)) {
		fprintf(stderr, "reads: %s: %s\n", dir, err.msg);
		return 1;
	}
	nicfit_topo_free(t);
	nicfit_sysfs_close(fs);
	return 0;
}

/* ---- run ---------------------------------------------------------------------- */

struct item {
	char kind;
	char *dir;         /* DIR/parent */
	const char *base;  /* the last component */
	char *path;        /* DIR/path */
	long off, len;     /* P */
	int d;             /* index into the directories */
};

static char **dirs;
static size_t ndirs;
static long nsys; /* syscalls made by pass() */

/* The index of directory dir in dirs[], ndirs when it is new (a hash: lists run to 30,000 items). */
static size_t dir_index(const char *dir)
{
	static size_t *slot, cap; /* index + 1 into dirs, 0 empty */
	size_t k, i;

	if (2 * (ndirs + 1) > cap) {
		size_t nc = cap ? 2 * cap : 4096;
		size_t *v = calloc(nc, sizeof(*v));

		if (!v)
			exit(70);
		for (i = 0; i < ndirs; i++) {
			for (k = hash_str(dirs[i]) & (nc - 1); v[k]; k = (k + 1) & (nc - 1))
				;
			v[k] = i + 1;
		}
		free(slot);
		slot = v;
		cap = nc;
	}
	for (k = hash_str(dir) & (cap - 1); slot[k]; k = (k + 1) & (cap - 1))
		if (!strcmp(dirs[slot[k] - 1], dir))
			return slot[k] - 1;
	slot[k] = ndirs + 1; /* the caller appends it as dirs[ndirs] */
	return ndirs;
}

static struct item *load(const char *root, const char *file, size_t *n)
{
	struct item *v = NULL;
	size_t cnt = 0, cap = 0, i;
	char line[4096];
	FILE *f = fopen(file, "r");

	if (!f) {
		perror(file);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p, *slash, *hash = strstr(line, "\t#");
		struct item *it;

		if (hash)
			*hash = '\0';
		line[strcspn(line, "\n")] = '\0';
		if (strlen(line) < 3 || line[1] != ' ')
			continue;
		if (cnt == cap) {
			struct item *nv = realloc(v, (cap = cap ? cap * 2 : 256) * sizeof(*v));

			if (!nv)
				exit(70);
			v = nv;
		}
		it = &v[cnt++];
		it->kind = line[0];
		it->off = it->len = 0;
		if (it->kind == 'P') {
			char *sp = strrchr(line, ' ');

			it->len = strtol(sp + 1, NULL, 10);
			*sp = '\0';
			sp = strrchr(line, ' ');
			it->off = strtol(sp + 1, NULL, 10);
			*sp = '\0';
		}
		p = malloc(strlen(root) + strlen(line) + 2);
		if (!p)
			exit(70);
		sprintf(p, "%s/%s", root, line + 2);
		it->path = p;
		it->dir = strdup(p);
		if (!it->dir)
			exit(70);
		slash = strrchr(it->dir, '/');
		*slash = '\0';
		it->base = p + (slash - it->dir) + 1;
		i = dir_index(it->dir);
		if (i == ndirs) {
			char **nd = realloc(dirs, (ndirs + 1) * sizeof(*dirs));

			if (!nd)
				exit(70);
			dirs = nd;
			dirs[ndirs++] = it->dir;
		}
		it->d = (int)i;
	}
	fclose(f);
	*n = cnt;
	return v;
}

#define SYS(x) (nsys++, (x))

/*
 * One pass: every read of the list. Returns the bytes read (so nothing is
 * optimised away). Never inlined: callgrind counts it by name.
 */
#ifdef __GNUC__
__attribute__((noinline))
#endif
static size_t pass(const struct item *v, size_t n, int *dfd)
{
	char buf[8192];
	const char *attr = NULL;
	size_t i, total = 0;
	int afd = -1;

	for (i = 0; i < ndirs; i++)
		dfd[i] = -2; /* not opened yet */
	for (i = 0; i < n; i++) {
		const struct item *it = &v[i];
		ssize_t r;
		int fd, *d = &dfd[it->d];

		if (*d == -2)
			*d = SYS(open(it->dir, O_PATH | O_DIRECTORY | O_CLOEXEC));
		if (*d < 0) {
			total++; /* the directory is not there: the item neither */
			continue;
		}
		if (it->kind != 'P' && afd >= 0) {
			SYS(close(afd));
			afd = -1;
		}
		switch (it->kind) {
		case 'F':
			fd = SYS(openat(*d, it->base, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
			if (fd < 0)
				break;
			r = SYS(read(fd, buf, sizeof(buf)));
			total += r > 0 ? (size_t)r : 0;
			SYS(close(fd));
			break;
		case 'P':
			if (afd < 0 || strcmp(attr, it->path)) {
				if (afd >= 0)
					SYS(close(afd));
				afd = SYS(openat(*d, it->base, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
				attr = it->path;
			}
			if (afd >= 0) {
				r = SYS(pread(afd, buf, (size_t)it->len, it->off));
				total += r > 0 ? (size_t)r : 0;
			}
			break;
		case 'L':
			r = SYS(readlinkat(*d, it->base, buf, sizeof(buf)));
			total += r > 0 ? (size_t)r : 0;
			break;
		case 'T':
			fd = SYS(openat(*d, it->base, O_PATH | O_CLOEXEC));
			if (fd >= 0)
				SYS(close(fd));
			total += fd >= 0;
			break;
		case 'M':
			fd = SYS(openat(*d, it->base, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
			if (fd >= 0)
				SYS(close(fd));
			total += fd < 0;
			break;
		case 'D':
			fd = SYS(openat(*d, it->base, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
			if (fd < 0)
				break;
			while ((r = SYS(syscall(SYS_getdents64, fd, buf, sizeof(buf)))) > 0)
				total += (size_t)r;
			SYS(close(fd));
			break;
		default:
			break;
		}
	}
	if (afd >= 0)
		SYS(close(afd));
	for (i = 0; i < ndirs; i++)
		if (dfd[i] >= 0)
			SYS(close(dfd[i]));
	return total;
}

int main(int argc, char **argv)
{
	struct item *v;
	size_t n;
	long runs, i;
	struct timespec a, b;
	int *dfd;

	if (argc == 3 && !strcmp(argv[1], "list"))
		return list(argv[2]);
	if (argc < 4 || (strcmp(argv[1], "run") && strcmp(argv[1], "time"))) {
		fprintf(stderr, "usage: reads list DIR | reads run DIR LIST | reads time DIR LIST N\n");
		return 64;
	}
	v = load(argv[2], argv[3], &n);
	if (!v)
		return 66;
	dfd = malloc((ndirs + 1) * sizeof(*dfd));
	if (!dfd)
		return 70;
	if (!strcmp(argv[1], "run")) {
		pass(v, n, dfd);
		printf("%ld\n", nsys);
		return 0;
	}
	runs = argc > 4 ? strtol(argv[4], NULL, 10) : 100;
	if (runs < 1)
		runs = 1;
	pass(v, n, dfd); /* warm the caches as the audit's runs are */
	nsys = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < runs; i++)
		pass(v, n, dfd);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.0f %ld\n", ((b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3) / (double)runs,
	       nsys / runs);
	return 0;
}
