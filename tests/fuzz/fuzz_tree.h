/*
 * fuzz_tree.h - a directory tree made from a fuzzer's bytes, for the
 * harnesses of the readers that walk one (a sysfs tree, a directory of
 * dumps, a fleet's directory of audits). The input is entries separated
 * by a NUL byte: "path\ncontent" writes a file, "path\n->target" makes a
 * symbolic link, "path/" a directory. Paths are relative, with no ".."
 * (such entries are skipped), at most 32 levels; the tree lives in one
 * temporary directory per process, emptied for each input.
 */
#ifndef FUZZ_TREE_H
#define FUZZ_TREE_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicfit/snapshot.h"

#define FUZZ_TREE_MAX_ENTRIES 2000

static char fuzz_tree_dir[64];

static void fuzz_tree_cleanup(void)
{
	if (fuzz_tree_dir[0])
		nicfit_snapshot_remove_tree(fuzz_tree_dir);
}

/* The process's tree root (made once, removed at exit), or NULL. */
static const char *fuzz_tree_root(void)
{
	char *root = fuzz_tree_dir;

	if (!root[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(root, sizeof(fuzz_tree_dir), "%.40s/nicfit-fuzz-XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(root)) {
			root[0] = '\0';
			return NULL;
		}
		atexit(fuzz_tree_cleanup);
	}
	return root;
}

/* mkdir -p of path's parents under root. */
static void fuzz_tree_parents(const char *root, const char *path)
{
	char buf[4096];
	size_t i, n = strlen(root);

	if (n + 1 + strlen(path) >= sizeof(buf))
		return;
	memcpy(buf, root, n);
	buf[n++] = '/';
	for (i = 0; path[i]; i++) {
		if (path[i] == '/' && i) {
			buf[n + i] = '\0';
			mkdir(buf, 0755);
		}
		buf[n + i] = path[i];
	}
}

static int fuzz_tree_safe(const char *p)
{
	size_t depth = 0;

	if (!*p || *p == '/' || strlen(p) > 1024)
		return 0;
	while (*p) {
		size_t n = strcspn(p, "/");

		if ((n == 2 && p[0] == '.' && p[1] == '.') || ++depth > 32)
			return 0;
		p += n;
		while (*p == '/')
			p++;
	}
	return 1;
}

/*
 * Write the entries of data into the emptied tree; returns its root
 * ("dir" under the process's directory), or NULL.
 */
static const char *fuzz_tree_make(const uint8_t *data, size_t size)
{
	static char top[128];
	const char *root = fuzz_tree_root();
	size_t at = 0, entries = 0;

	if (!root)
		return NULL;
	snprintf(top, sizeof(top), "%s/t", root);
	nicfit_snapshot_remove_tree(top);
	if (mkdir(top, 0755))
		return NULL;
	while (at < size && entries++ < FUZZ_TREE_MAX_ENTRIES) {
		const uint8_t *end = memchr(data + at, '\0', size - at);
		size_t len = end ? (size_t)(end - (data + at)) : size - at;
		const char *e = (const char *)data + at, *nl = memchr(e, '\n', len);
		char path[1100], full[1300];
		size_t plen = nl ? (size_t)(nl - e) : len;

		at += len + 1;
		if (!plen || plen >= sizeof(path))
			continue;
		memcpy(path, e, plen);
		path[plen] = '\0';
		if (memchr(path, '\0', plen) || !fuzz_tree_safe(path))
			continue;
		fuzz_tree_parents(top, path);
		snprintf(full, sizeof(full), "%s/%s", top, path);
		if (path[plen - 1] == '/') {
			mkdir(full, 0755);
		} else if (nl && len - plen - 1 >= 2 && nl[1] == '-' && nl[2] == '>') {
			char target[1100];
			size_t tl = len - plen - 3;

			if (tl && tl < sizeof(target)) {
				memcpy(target, nl + 3, tl);
				target[tl] = '\0';
				if (!memchr(target, '\0', tl) && symlink(target, full)) {
					/* a name taken already: the first entry stays */
				}
			}
		} else {
			int fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);

			if (fd >= 0) {
				size_t cl = nl ? len - plen - 1 : 0;

				if (cl && write(fd, nl + 1, cl) != (ssize_t)cl) {
					/* a short write is a shorter file: still an input */
				}
				close(fd);
			}
		}
	}
	return top;
}

#endif
