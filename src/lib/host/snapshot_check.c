/*
 * snapshot_check.c - is a snapshot whole (nicfit_snapshot_check; see
 * nicfit/snapshot.h)? The manifest is the last thing a snapshot writes
 * (snapshot_take.c), so it is checked first: a tree still marked partial
 * is refused, one with its manifest is counted against it, and an archive
 * without one is said to be unverifiable.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jscan_int.h"
#include "nicfit/file.h"
#include "nicfit/snapshot.h"

#define MANIFEST_NAME "nicfit-snapshot.json"
#define PARTIAL_NAME "nicfit-snapshot.partial"
/* a manifest lists the paths that could not be read: a few hundred at most */
#define MANIFEST_MAX ((size_t)16 << 20)

struct counts {
	size_t files, links, dirs, entries;
	int over;                 /* past the entry or depth bound: counting stopped */
};

/* Count what is under the directory open at fd (closed here), without following links. */
static void count_dir(int fd, int depth, struct counts *c)
{
	struct dirent *de;
	DIR *d = fdopendir(fd);

	if (!d) {
		close(fd);
		return;
	}
	while (!c->over && (de = readdir(d)) != NULL) {
		struct stat sb;
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (++c->entries > NICFIT_SNAPSHOT_MAX_ENTRIES) {
			c->over = 1;
			break;
		}
		if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISLNK(sb.st_mode)) {
			c->links++;
		} else if (S_ISREG(sb.st_mode)) {
			c->files++;
		} else if (S_ISDIR(sb.st_mode)) {
			c->dirs++;
			if (depth >= NICFIT_SNAPSHOT_MAX_DEPTH) {
				c->over = 1;
				break;
			}
			sub = openat(dirfd(d), de->d_name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				count_dir(sub, depth + 1, c);
		}
	}
	closedir(d);
}

/* The manifest's count named key, or -1 when it has none. */
static long listed(struct jscan *js, const char *key)
{
	double v;
	int i = nicfit__jscan_get(js, 0, key);

	if (i < 0 || nicfit__jscan_number(js, i, &v) || v < 0 || v > 1e9)
		return -1;
	return (long)v;
}

static int exists_at(const char *root, const char *name)
{
	char path[4096 + 64];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	return !lstat(path, &sb);
}

/* The tree against its manifest (text, len): 0, or NICFIT_E_DATA naming what is missing. */
static int check_counts(const char *root, const char *name, const char *text, size_t len,
			struct nicfit_error *err)
{
	struct counts c = { 0, 0, 0, 0, 0 };
	struct jscan js;
	long files, links, dirs;
	int fd;

	nicfit__jscan_init(&js);
	if (nicfit__jscan_parse(&js, text, len) || js.tok[0].type != JS_OBJECT) {
		nicfit__jscan_release(&js);
		return nicfit_error_at(err, NICFIT_E_DATA, name, 0, 0, "its manifest ("
				       MANIFEST_NAME ") is not a JSON object: the snapshot is "
				       "damaged; take it again");
	}
	files = listed(&js, "files");
	links = listed(&js, "links");
	dirs = listed(&js, "dirs");
	nicfit__jscan_release(&js);
	if (files < 0 || links < 0 || dirs < 0)
		return nicfit_error_at(err, NICFIT_E_DATA, name, 0, 0, "its manifest ("
				       MANIFEST_NAME ") has no files, links and dirs counts: the "
				       "snapshot is damaged; take it again");
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return nicfit_error_at(err, NICFIT_E_IO, name, 0, 0, "%s", strerror(errno));
	count_dir(fd, 0, &c);
	if (c.files)
		c.files--; /* the manifest is not part of the copy */
	if (!c.over && ((long)c.files < files || (long)c.links < links || (long)c.dirs < dirs))
		return nicfit_error_at(err, NICFIT_E_DATA, name, 0, 0, "incomplete snapshot: its "
				       "manifest lists %ld files, %ld links and %ld directories, it "
				       "holds %zu, %zu and %zu (cut or interrupted); take it again",
				       files, links, dirs, c.files, c.links, c.dirs);
	return 0;
}

int nicfit_snapshot_check(const char *root, const char *name, int archive, char *why,
			  size_t n, struct nicfit_error *err)
{
	char path[4096 + 64];
	char *text;
	size_t len;
	int rc;

	if (n)
		why[0] = '\0';
	if (exists_at(root, PARTIAL_NAME))
		return nicfit_error_at(err, NICFIT_E_DATA, name, 0, 0, "an interrupted snapshot ("
				       PARTIAL_NAME " is there, its manifest " MANIFEST_NAME
				       " is not): take it again");
	if (!exists_at(root, MANIFEST_NAME)) {
		if (archive && n)
			snprintf(why, n, "The archive holds no " MANIFEST_NAME " manifest, which "
				 "nicfit snapshot writes last: it may have been cut short (or packed "
				 "by another tool), and what is missing cannot be told.");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/" MANIFEST_NAME, root);
	rc = nicfit_read_file(path, MANIFEST_MAX, &text, &len, err);
	if (rc) {
		if (err)
			snprintf(err->input, sizeof(err->input), "%s", name);
		return rc;
	}
	rc = check_counts(root, name, text, len, err);
	free(text);
	return rc;
}
