/*
 * dump_path.c - the inputs of nicfit_dump_add_path (see nicfit/dump.h):
 * standard input, a text file, a directory walked in name order (a
 * sosreport or a supportconfig unpacked), or a tar archive unpacked by
 * the snapshot reader, with its bounds, into a temporary directory that
 * is walked and removed. Files over NICFIT_DUMP_MAX_FILE and files with a
 * NUL byte near the start (binaries, compressed logs) are passed over in
 * a walk; named on their own they are an error.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc_int.h"
#include "dump_int.h"
#include "nicfit/file.h"
#include "nicfit/snapshot.h"

#define WALK_MAX_DEPTH 16
#define SNIFF_BYTES 4096

/* What a file starts with, as archives and compressors mark themselves. */
static int looks_packed(const char *text, size_t len)
{
	static const struct {
		const char *magic;
		size_t n;
	} m[] = {
		{ "\x1f\x8b", 2 }, { "\xfd" "7zXZ", 5 }, { "BZh", 3 }, { "\x28\xb5\x2f\xfd", 4 },
	};
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (len >= m[i].n && !memcmp(text, m[i].magic, m[i].n))
			return 1;
	return len > 262 && !memcmp(text + 257, "ustar", 5);
}

static int has_nul(const char *text, size_t len)
{
	return memchr(text, '\0', len < SNIFF_BYTES ? len : SNIFF_BYTES) != NULL;
}

struct walk_ctx {
	struct nicfit_dump *d;
	size_t files;
	struct nicfit_error *err;
};

static int walk_dir(struct walk_ctx *w, const char *dir, const char *name, int depth);

static int walk_entry(struct walk_ctx *w, const char *path, const char *name, int depth)
{
	struct stat sb;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (lstat(path, &sb))
		return 0; /* gone while walking, or unreadable: nothing to read */
	if (S_ISDIR(sb.st_mode))
		return walk_dir(w, path, name, depth + 1);
	if (!S_ISREG(sb.st_mode) || (size_t)sb.st_size > NICFIT_DUMP_MAX_FILE || !sb.st_size)
		return 0;
	if (++w->files > NICFIT_DUMP_MAX_FILES)
		return nicfit_error_at(w->err, NICFIT_E_LIMIT, name, 0, 0, "more than %d files",
				       NICFIT_DUMP_MAX_FILES);
	if (nicfit_read_file(path, NICFIT_DUMP_MAX_FILE, &text, &len, NULL))
		return 0;
	rc = has_nul(text, len) || looks_packed(text, len) ? 0 :
	     nicfit_dump_add_text(w->d, name, text, len, w->err);
	free(text);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read every file under dir, in name order; name is dir as errors and citations say it. */
static int walk_dir(struct walk_ctx *w, const char *dir, const char *name, int depth)
{
	DIR *dh;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;
	int rc = 0;

	if (depth > WALK_MAX_DEPTH)
		return 0;
	dh = opendir(dir);
	if (!dh)
		return depth ? 0 : nicfit_error_at(w->err, NICFIT_E_IO, name, 0, 0, "%s",
						   strerror(errno));
	while (!rc && (de = readdir(dh))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n >= NICFIT_DUMP_MAX_FILES) {
			rc = nicfit_error_at(w->err, NICFIT_E_LIMIT, name, 0, 0,
					     "more than %d entries", NICFIT_DUMP_MAX_FILES);
			break;
		}
		if (NICFIT_ALLOC_GROW(names, n + 1, alloc)) {
			rc = nicfit_error_set(w->err, NICFIT_E_NOMEM, "out of memory");
			break;
		}
		names[n] = strdup(de->d_name);
		if (!names[n])
			rc = nicfit_error_set(w->err, NICFIT_E_NOMEM, "out of memory");
		else
			n++;
	}
	closedir(dh);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		size_t lp = strlen(dir) + strlen(names[i]) + 2, ln = strlen(name) + strlen(names[i]) + 2;
		char *p = malloc(lp), *q = malloc(ln);

		if (!rc && (!p || !q))
			rc = nicfit_error_set(w->err, NICFIT_E_NOMEM, "out of memory");
		if (!rc) {
			snprintf(p, lp, "%s/%s", dir, names[i]);
			snprintf(q, ln, "%s/%s", name, names[i]);
			rc = walk_entry(w, p, q, depth);
		}
		free(p);
		free(q);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* A name that says tar archive (what nicfit_snapshot_extract reads). */
static int archive_name(const char *path)
{
	static const char *const sfx[] = { ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz",
					   ".txz", ".tar.zst", ".tar" };
	size_t n = strlen(path), i;

	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++)
		if (n > strlen(sfx[i]) && !strcmp(path + n - strlen(sfx[i]), sfx[i]))
			return 1;
	return 0;
}

static int add_archive(struct nicfit_dump *d, const char *path, struct nicfit_error *err)
{
	struct walk_ctx w = { d, 0, err };
	char *tmpdir = NULL, *root = NULL;
	int rc = nicfit_snapshot_extract(path, &tmpdir, &root, err);

	if (rc)
		return rc;
	rc = walk_dir(&w, tmpdir, path, 0);
	nicfit_snapshot_remove_tree(tmpdir);
	free(tmpdir);
	free(root);
	return rc;
}

int nicfit_dump_add_path(struct nicfit_dump *d, const char *path, struct nicfit_error *err)
{
	struct walk_ctx w = { d, 0, err };
	struct stat sb;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (strcmp(path, "-")) {
		if (stat(path, &sb))
			return nicfit_error_at(err, errno == ENOENT ? NICFIT_E_NOTFOUND : NICFIT_E_IO,
					       path, 0, 0, "%s", strerror(errno));
		if (S_ISDIR(sb.st_mode))
			return walk_dir(&w, path, path, 0);
		if (archive_name(path))
			return add_archive(d, path, err);
	}
	rc = nicfit_read_file(path, NICFIT_DUMP_MAX_FILE, &text, &len, err);
	if (rc)
		return rc;
	if (strcmp(path, "-") && looks_packed(text, len)) {
		free(text);
		return add_archive(d, path, err);
	}
	if (has_nul(text, len))
		rc = nicfit_error_at(err, NICFIT_E_DATA, strcmp(path, "-") ? path : "<stdin>", 0, 0,
				     "binary data, not a text dump (a compressed log: gunzip it "
				     "first)");
	else
		rc = nicfit_dump_add_text(d, strcmp(path, "-") ? path : "<stdin>", text, len, err);
	free(text);
	return rc;
}
