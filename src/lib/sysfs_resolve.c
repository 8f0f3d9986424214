/*
 * sysfs_resolve.c - finding a path inside the root, as if the root were
 * "/" (see nicfit/sysfs.h).
 *
 * Every open goes through nicfit__sysfs_open_in_root(): openat2 with
 * RESOLVE_IN_ROOT when the kernel allows it (probed once, at open), else
 * our own resolver, which walks the path one component at a time with
 * readlinkat() on a prefix that is already free of links, so an absolute
 * link in a captured tree is taken relative to the tree and never to the
 * host. Reading what was opened is sysfs_read.c's business.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

/* O_PATH is behind _GNU_SOURCE in glibc's headers; the kernel flag is stable. */
#ifndef O_PATH
#define O_PATH __O_PATH
#endif

#include "sysfs_int.h"

/* Links followed in one resolution before it is a loop (the kernel's limit). */
#define MAX_HOPS 40

enum nicfit_sysfs_status nicfit__sysfs_status_of_errno(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR: return NICFIT_SYSFS_MISSING;
	case ELOOP: return NICFIT_SYSFS_LOOP;
	case ENAMETOOLONG: return NICFIT_SYSFS_TOO_BIG;
	case EISDIR: return NICFIT_SYSFS_NOT_FILE;
	default: return NICFIT_SYSFS_UNREADABLE;
	}
}

/*
 * Resolve path against the root, following links; out gets the canonical
 * path ("" for the root itself). Returns a status and sets *errnum.
 */
static enum nicfit_sysfs_status resolve(struct nicfit_sysfs *fs, const char *path,
					char *out, size_t cap, int *errnum)
{
	char rest[2 * NICFIT_SYSFS_PATH_MAX], link[NICFIT_SYSFS_PATH_MAX];
	char cur[NICFIT_SYSFS_PATH_MAX];
	size_t curlen = 0;
	int hops = 0;

	*errnum = 0;
	cur[0] = '\0';
	if (snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest))
		return NICFIT_SYSFS_TOO_BIG;
	while (rest[0]) {
		char comp[256];
		size_t n = strcspn(rest, "/");
		ssize_t ln;
		size_t save = curlen;

		if (n >= sizeof(comp))
			return NICFIT_SYSFS_TOO_BIG;
		memcpy(comp, rest, n);
		comp[n] = '\0';
		memmove(rest, rest + n + (rest[n] == '/'), strlen(rest + n + (rest[n] == '/')) + 1);
		if (!n || !strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			while (curlen && cur[curlen - 1] != '/')
				curlen--;
			if (curlen)
				curlen--;
			cur[curlen] = '\0';
			continue;
		}
		if (curlen + 1 + n + 1 > sizeof(cur))
			return NICFIT_SYSFS_TOO_BIG;
		if (curlen)
			cur[curlen++] = '/';
		memcpy(cur + curlen, comp, n + 1);
		curlen += n;
		ln = readlinkat(fs->rootfd, cur, link, sizeof(link) - 1);
		if (ln < 0) {
			if (errno == EINVAL)
				continue; /* exists, not a link */
			*errnum = errno;
			return nicfit__sysfs_status_of_errno(errno);
		}
		link[ln] = '\0';
		if (++hops > MAX_HOPS) {
			*errnum = ELOOP;
			return NICFIT_SYSFS_LOOP;
		}
		/* Replace the component by the target. */
		curlen = save;
		cur[curlen] = '\0';
		if (link[0] == '/') {
			curlen = 0;
			cur[0] = '\0';
		}
		{
			char tmp[2 * NICFIT_SYSFS_PATH_MAX];

			if (snprintf(tmp, sizeof(tmp), "%s%s%s", link, rest[0] ? "/" : "", rest) >=
			    (int)sizeof(tmp))
				return NICFIT_SYSFS_TOO_BIG;
			memcpy(rest, tmp, strlen(tmp) + 1);
		}
	}
	if (curlen + 1 > cap)
		return NICFIT_SYSFS_TOO_BIG;
	memcpy(out, cur, curlen + 1);
	return NICFIT_SYSFS_OK;
}

/*
 * Open path inside the root; on failure returns -1 with *errnum set.
 * Discovery reads many files of one directory in a row, so the directory
 * is kept open and its files are opened relative to it: one path
 * component to look up instead of ten. The last component is opened with
 * O_NOFOLLOW there; a link takes the full, link-following way.
 */
int nicfit__sysfs_open_in_root(struct nicfit_sysfs *fs, const char *path, int flags,
			       int *errnum)
{
	const char *slash;
	char dir[NICFIT_SYSFS_PATH_MAX];
	size_t n;
	int fd;

	while (*path == '/')
		path++;
	slash = strrchr(path, '/');
	if ((flags & O_PATH) || !slash || !slash[1] || !strcmp(slash + 1, "..") ||
	    !strcmp(slash + 1, ".") || (n = (size_t)(slash - path)) >= sizeof(dir))
		return nicfit__sysfs_open_full(fs, path, flags, errnum);
	memcpy(dir, path, n);
	dir[n] = '\0';
	if (fs->dirfd < 0 || strcmp(fs->dirpath, dir)) {
		int dfd = nicfit__sysfs_open_full(fs, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, errnum);

		if (dfd < 0)
			return -1;
		if (fs->dirfd >= 0)
			close(fs->dirfd);
		fs->dirfd = dfd;
		memcpy(fs->dirpath, dir, n + 1);
	}
	fd = openat(fs->dirfd, slash + 1, flags | O_NOFOLLOW);
	if (fd < 0 && errno == ELOOP)
		return nicfit__sysfs_open_full(fs, path, flags, errnum);
	if (fd < 0)
		*errnum = errno;
	return fd;
}

/* Open path inside the root, resolving every component. */
int nicfit__sysfs_open_full(struct nicfit_sysfs *fs, const char *path, int flags, int *errnum)
{
	char canon[NICFIT_SYSFS_PATH_MAX];
	enum nicfit_sysfs_status st;
	int fd;

	*errnum = 0;
	while (*path == '/')
		path++;
	if (!*path)
		path = ".";
#ifdef SYS_openat2
	if (fs->use_openat2) {
		struct open_how how;
		long r;

		memset(&how, 0, sizeof(how));
		how.flags = (unsigned long long)flags;
		how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
		r = syscall(SYS_openat2, fs->rootfd, path, &how, sizeof(how));
		if (r < 0)
			*errnum = errno;
		return (int)r;
	}
#endif
	st = resolve(fs, path, canon, sizeof(canon), errnum);
	if (st != NICFIT_SYSFS_OK) {
		if (!*errnum)
			*errnum = st == NICFIT_SYSFS_TOO_BIG ? ENAMETOOLONG : ENOENT;
		return -1;
	}
	fd = openat(fs->rootfd, canon[0] ? canon : ".", flags | O_NOFOLLOW);
	if (fd < 0)
		*errnum = errno;
	return fd;
}

enum nicfit_sysfs_status nicfit_sysfs_resolve(struct nicfit_sysfs *fs, const char *path,
					      char *out, size_t cap, unsigned flags)
{
	enum nicfit_sysfs_status st;
	int e;

	while (*path == '/')
		path++;
	st = resolve(fs, path, out, cap, &e);
	nicfit__sysfs_problem(fs, path, st, e, flags);
	if (st != NICFIT_SYSFS_OK && st != NICFIT_SYSFS_MISSING)
		nicfit__sysfs_record(fs, path, NICFIT_REC_FAILED, NULL, 0, st, e);
	return st;
}
