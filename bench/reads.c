/*
 * reads.c - the floor under `nicfit audit --sysfs DIR`: the bare reads of
 * what it reads, and nothing else.
 *
 *   reads list DIR         print what discovery reads in DIR, one a line:
 *                          "F path" a file read, "L path" a link read,
 *                          "D path" a directory listed (the snapshot
 *                          recorder's list, so a link met in a listing and a
 *                          file only tested for are in it too: a little more
 *                          than the audit itself reads); "M path" a path
 *                          looked for and not there (the open that failed)
 *   reads run DIR LIST     do those reads once: open/read/close each file,
 *                          readlink each link, open/getdents/close each
 *                          directory, open each missing path (and fail),
 *                          with plain syscalls on full paths (a whole
 *                          process, as the audit is one)
 *   reads time DIR LIST N  the same N times in one process: the mean
 *                          microseconds a pass
 *
 * bench/ratios.sh compiles it and prints the audit against it.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nicfit/error.h"
#include "nicfit/sysfs.h"
#include "nicfit/topo.h"

static int list(const char *dir)
{
	struct nicfit_sysfs *fs;
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;
	size_t i, n;

	nicfit_error_clear(&err);
	if (nicfit_sysfs_open(dir, &fs, &err) || nicfit_sysfs_record(fs, 2) ||
	    nicfit_topo_discover_fs(fs, &t, &err)) {
		fprintf(stderr, "reads: %s: %s\n", dir, err.msg);
		return 1;
	}
	n = nicfit_sysfs_rec_count(fs);
	for (i = 0; i < n; i++) {
		const struct nicfit_rec *r = nicfit_sysfs_rec(fs, i);
		static const char kind[] = { 'F', 'L', 'D', '?', 'M' };

		if (r->type != NICFIT_REC_FAILED)
			printf("%c %s\n", kind[r->type], r->path);
	}
	nicfit_topo_free(t);
	nicfit_sysfs_close(fs);
	return 0;
}

struct item {
	char kind;
	char *path; /* DIR/path */
};

static struct item *load(const char *dir, const char *file, size_t *n)
{
	struct item *v = NULL;
	size_t cnt = 0, cap = 0;
	char line[2048];
	FILE *f = fopen(file, "r");

	if (!f) {
		perror(file);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n");
		char *p;

		line[len] = '\0';
		if (len < 3 || line[1] != ' ')
			continue;
		if (cnt == cap) {
			struct item *nv = realloc(v, (cap = cap ? cap * 2 : 256) * sizeof(*v));

			if (!nv)
				exit(1);
			v = nv;
		}
		p = malloc(strlen(dir) + len + 2);
		if (!p)
			exit(1);
		sprintf(p, "%s/%s", dir, line + 2);
		v[cnt].kind = line[0];
		v[cnt++].path = p;
	}
	fclose(f);
	*n = cnt;
	return v;
}

/*
 * One pass: every read of the list. Returns the bytes read (so nothing is
 * optimised away). Never inlined: callgrind counts it by name.
 */
#ifdef __GNUC__
__attribute__((noinline))
#endif
static size_t pass(const struct item *v, size_t n)
{
	char buf[4096];
	size_t i, total = 0;

	for (i = 0; i < n; i++) {
		ssize_t r;
		int fd;

		switch (v[i].kind) {
		case 'F':
			fd = open(v[i].path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
			if (fd < 0)
				break;
			r = read(fd, buf, sizeof(buf));
			total += r > 0 ? (size_t)r : 0;
			close(fd);
			break;
		case 'L':
			r = readlink(v[i].path, buf, sizeof(buf));
			total += r > 0 ? (size_t)r : 0;
			break;
		case 'M':
			fd = open(v[i].path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
			if (fd >= 0)
				close(fd);
			total += fd < 0;
			break;
		case 'D': {
			DIR *d = opendir(v[i].path);
			struct dirent *e;

			if (!d)
				break;
			while ((e = readdir(d)))
				total++;
			closedir(d);
			break;
		}
		default:
			break;
		}
	}
	return total;
}

int main(int argc, char **argv)
{
	struct item *v;
	size_t n, k, f = 0, l = 0, d = 0, m = 0;
	long runs, i;
	struct timespec a, b;

	if (argc == 3 && !strcmp(argv[1], "list"))
		return list(argv[2]);
	if (argc < 4 || (strcmp(argv[1], "run") && strcmp(argv[1], "time"))) {
		fprintf(stderr, "usage: reads list DIR | reads run DIR LIST | reads time DIR LIST N\n");
		return 64;
	}
	v = load(argv[2], argv[3], &n);
	if (!v)
		return 66;
	if (!strcmp(argv[1], "run"))
		return pass(v, n) ? 0 : 1;
	runs = argc > 4 ? strtol(argv[4], NULL, 10) : 100;
	if (runs < 1)
		runs = 1;
	for (k = 0; k < n; k++) {
		f += v[k].kind == 'F';
		l += v[k].kind == 'L';
		d += v[k].kind == 'D';
		m += v[k].kind == 'M';
	}
	pass(v, n); /* warm the caches as the audit's runs are */
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < runs; i++)
		pass(v, n);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.0f %zu %zu %zu %zu\n",
	       ((b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3) / (double)runs, f, l,
	       d, m);
	return 0;
}
