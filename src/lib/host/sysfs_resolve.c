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

#include "core/fmt_int.h"
#include "host/sysfs_int.h"

/* Links followed in one resolution before it is a loop (the kernel's limit). */
#define MAX_HOPS 40

/* A path component of this many bytes or more is no name (Linux's NAME_MAX is 255). */
#define COMP_MAX 256

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
 * path ("" for the root itself). Returns a status and sets *errnum. The
 * path still to walk is rest from offset rp: a component is passed by
 * moving rp, not by moving the rest, and a link's target is put in front
 * of what remains.
 */
static enum nicfit_sysfs_status resolve(struct nicfit_sysfs *fs, const char *path,
					char *out, size_t cap, int *errnum)
{
	char rest[2 * NICFIT_SYSFS_PATH_MAX], link[NICFIT_SYSFS_PATH_MAX];
	char cur[NICFIT_SYSFS_PATH_MAX];
	size_t curlen = 0, rp = 0, rlen = strlen(path);
	int hops = 0;

	*errnum = 0;
	cur[0] = '\0';
	if (rlen >= sizeof(rest))
		return NICFIT_SYSFS_TOO_BIG;
	memcpy(rest, path, rlen + 1);
	while (rp < rlen) {
		const char *c = rest + rp;
		const char *slash = memchr(c, '/', rlen - rp);
		size_t n = slash ? (size_t)(slash - c) : rlen - rp;
		size_t save = curlen, tail, need;
		ssize_t ln;

		if (n >= COMP_MAX)
			return NICFIT_SYSFS_TOO_BIG;
		rp += n + (slash != NULL);
		if (!n || (n == 1 && c[0] == '.'))
			continue;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
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
		memcpy(cur + curlen, c, n);
		curlen += n;
		cur[curlen] = '\0';
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
		tail = rlen - rp;
		need = (size_t)ln + (tail ? 1 : 0) + tail;
		if (need >= sizeof(rest))
			return NICFIT_SYSFS_TOO_BIG;
		memmove(rest + (need - tail), rest + rp, tail + 1);
		memcpy(rest, link, (size_t)ln);
		if (tail)
			rest[ln] = '/';
		rlen = need;
		rp = 0;
	}
	if (curlen + 1 > cap)
		return NICFIT_SYSFS_TOO_BIG;
	memcpy(out, cur, curlen + 1);
	return NICFIT_SYSFS_OK;
}

/*
 * A kept path has two slots in the index, by two parts of its hash: it is
 * put in the first that is free (else the first), and found in either.
 * Two kept paths whose slots are all taken keep the later one findable;
 * the earlier is then opened again when asked for, which costs an open,
 * never a wrong answer.
 */
static unsigned dir_slot(size_t h, int second)
{
	return (unsigned)(second ? h / NICFIT_SYSFS_DIR_INDEX : h) & (NICFIT_SYSFS_DIR_INDEX - 1);
}

/* The kept directory that the index holds for path (p bytes, hashing to h), or NULL. */
static struct sysfs_dir *dir_indexed(struct nicfit_sysfs *fs, const char *path, size_t p,
				     size_t h)
{
	int second;

	for (second = 0; second < 2; second++) {
		unsigned k = fs->dirix[dir_slot(h, second)];
		struct sysfs_dir *c;

		if (!k)
			continue;
		c = &fs->dirs[k - 1];
		if (c->fd >= 0 && c->hash == h && c->len == p && !memcmp(c->path, path, p))
			return c;
	}
	return NULL;
}

/*
 * The kept directory whose path is dir (n bytes, hashing to h), or NULL:
 * the last one used, else the one the index names.
 */
static struct sysfs_dir *dir_find(struct nicfit_sysfs *fs, const char *dir, size_t n, size_t h)
{
	struct sysfs_dir *c = &fs->dirs[fs->dirlast];

	if (c->fd >= 0 && c->len == n && !memcmp(c->path, dir, n))
		return c; /* the usual case: the directory of the last open */
	c = dir_indexed(fs, dir, n, h);
	if (c)
		fs->dirlast = (unsigned)(c - fs->dirs);
	return c;
}

/*
 * The longest kept directory that the index finds among the ancestors of
 * dir (n bytes), or NULL; *at gets the offset in dir of the first
 * component below it.
 */
static struct sysfs_dir *dir_ancestor(struct nicfit_sysfs *fs, const char *dir, size_t n,
				      size_t *at)
{
	size_t p = n;

	/* each ancestor by the index, the longest first: a look-up a level */
	while (p-- > 1) {
		struct sysfs_dir *c;

		if (dir[p] != '/')
			continue;
		c = dir_indexed(fs, dir, p, nicfit__sysfs_path_hash(dir, p));
		if (c) {
			*at = p + 1;
			return c;
		}
	}
	return NULL;
}

/*
 * Open the components of dir from offset at below the directory dfd,
 * each a real directory (no link, no "." or ".."): the same directory the
 * full resolution would reach. -1 when one is not, and the caller takes
 * the full way.
 */
static int open_below(const struct nicfit_sysfs *fs, int dfd, const char *dir, size_t n,
		      size_t at)
{
	int cur = dfd;

#ifdef SYS_openat2
	/* the kernel walks the rest in one call, refusing any link on the way */
	if (fs->use_openat2 && n - at < NICFIT_SYSFS_PATH_MAX) {
		struct open_how how;
		char rest[NICFIT_SYSFS_PATH_MAX];

		memcpy(rest, dir + at, n - at);
		rest[n - at] = '\0';
		memset(&how, 0, sizeof(how));
		how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
		return (int)syscall(SYS_openat2, dfd, rest, &how, sizeof(how));
	}
#else
	(void)fs;
#endif
	while (at < n) {
		char comp[256];
		size_t len = 0;
		int next;

		while (at + len < n && dir[at + len] != '/')
			len++;
		if (!len || len >= sizeof(comp) || (comp[0] = dir[at]) == '.')
			next = -1; /* "", ".", "..", or a hidden name: leave it to the resolver */
		else {
			memcpy(comp, dir + at, len);
			comp[len] = '\0';
			next = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (cur != dfd)
			close(cur);
		if (next < 0)
			return -1;
		cur = next;
		at += len + 1;
	}
	return cur;
}

/* A directory too long for the kept ones: the one slot for those. */
static int long_dir_fd(struct nicfit_sysfs *fs, const char *dir, size_t n, int *errnum)
{
	int fd;

	if (fs->longfd >= 0 && fs->longlen == n && !memcmp(fs->longdir, dir, n))
		return fs->longfd;
	if (n >= NICFIT_SYSFS_PATH_MAX) {
		*errnum = ENAMETOOLONG;
		return -1;
	}
	memcpy(fs->longdir, dir, n);
	fs->longdir[n] = '\0';
	fd = nicfit__sysfs_open_full(fs, fs->longdir, O_PATH | O_DIRECTORY | O_CLOEXEC, errnum);
	if (fs->longfd >= 0)
		close(fs->longfd);
	fs->longfd = fd;
	fs->longlen = fd >= 0 ? n : 0;
	return fd;
}

/* Open dir (n bytes, not kept) as nicfit__sysfs_dir_fd() does; -1 with *errnum set. */
static int dir_open(struct nicfit_sysfs *fs, const char *dir, size_t n, int *errnum)
{
	struct sysfs_dir *c;
	size_t at = 0;
	int fd = -1;

	/*
	 * With openat2() the kernel walks the whole path in the one call it
	 * would make from a kept ancestor: finding that ancestor (a compare of
	 * every kept path) is only worth it where the resolver runs here.
	 */
	c = fs->use_openat2 ? NULL : dir_ancestor(fs, dir, n, &at);
	if (c) {
		/*
		 * an ancestor that opens its subdirectories is asked again (a
		 * bridge's directory, for each of a thousand VFs below it): the
		 * clock's hand gives it its second chance
		 */
		c->uses = 1;
		fd = open_below(fs, c->fd, dir, n, at);
	} else if (!fs->use_openat2) {
		/*
		 * None kept: the parent is, from now on (its other children are
		 * likely next, a bridge's VFs one after the other), and this
		 * directory one openat() below it, not a readlink of every
		 * component on the way.
		 */
		size_t p = n;
		int e;

		while (p && dir[p - 1] != '/')
			p--;
		if (p > 1) {
			int pfd = nicfit__sysfs_dir_fd(fs, dir, p - 1, &e);

			if (pfd >= 0)
				fd = open_below(fs, pfd, dir, n, p);
		}
	}
	if (fd < 0) {
		char path[NICFIT_SYSFS_PATH_MAX];

		memcpy(path, dir, n);
		path[n] = '\0';
		fd = nicfit__sysfs_open_full(fs, n ? path : ".", O_PATH | O_DIRECTORY | O_CLOEXEC,
					     errnum);
	}
	return fd;
}

/*
 * Keep fd, dir's (n bytes, hashing to h), in place of one not asked for
 * again since the clock's hand last passed it (a second chance for the
 * others, whose mark the hand clears): discovery's passes each sweep the
 * functions in order, and a directory that a later pass came back to
 * outlasts those met once. The hand moves a slot or two a miss, no
 * search of the kept ones.
 */
static void dir_keep(struct nicfit_sysfs *fs, const char *dir, size_t n, size_t h, int fd)
{
	struct sysfs_dir *old;
	unsigned slot;
	size_t i;

	if (fs->dirsfilled < NICFIT_SYSFS_DIR_CACHE) {
		old = &fs->dirs[fs->dirsfilled++]; /* not full yet: the next slot */
	} else {
		for (i = 0;; i++) {
			old = &fs->dirs[fs->dirhand];
			fs->dirhand = (fs->dirhand + 1) % NICFIT_SYSFS_DIR_CACHE;
			if (old->fd < 0 || !old->uses || i >= NICFIT_SYSFS_DIR_CACHE)
				break;
			old->uses = 0;
		}
	}
	if (old->fd >= 0) {
		int second;

		close(old->fd);
		for (second = 0; second < 2; second++)
			if (fs->dirix[dir_slot(old->hash, second)] == (unsigned char)(old - fs->dirs + 1))
				fs->dirix[dir_slot(old->hash, second)] = 0;
	}
	slot = dir_slot(h, 0);
	if (fs->dirix[slot] && !fs->dirix[dir_slot(h, 1)])
		slot = dir_slot(h, 1);
	fs->dirix[slot] = (unsigned char)(old - fs->dirs + 1);
	old->fd = fd;
	old->used = ++fs->dirclock;
	old->uses = 0;
	fs->dirlast = (unsigned)(old - fs->dirs);
	old->len = n;
	old->hash = h;
	memcpy(old->path, dir, n);
	old->path[n] = '\0';
}

int nicfit__sysfs_dir_fd(struct nicfit_sysfs *fs, const char *dir, size_t n, int *errnum)
{
	struct sysfs_dir *c = &fs->dirs[fs->dirlast];
	size_t h;
	int fd;

	/* the usual case, the directory of the last open, needs no hash */
	if (c->fd >= 0 && c->len == n && !memcmp(c->path, dir, n)) {
		c->used = ++fs->dirclock;
		return c->fd;
	}
	h = nicfit__sysfs_path_hash(dir, n);
	c = dir_find(fs, dir, n, h);

	if (c) {
		c->used = ++fs->dirclock;
		c->uses = 1;
		return c->fd;
	}
	if (n >= NICFIT_SYSFS_DIR_PATH)
		return long_dir_fd(fs, dir, n, errnum);
	fd = dir_open(fs, dir, n, errnum);
	if (fd >= 0)
		dir_keep(fs, dir, n, h, fd);
	return fd;
}

void nicfit__sysfs_dirs_release(struct nicfit_sysfs *fs)
{
	size_t i;

	for (i = 0; i < NICFIT_SYSFS_DIR_CACHE; i++) {
		if (fs->dirs[i].fd >= 0)
			close(fs->dirs[i].fd);
		fs->dirs[i].fd = -1;
	}
	if (fs->longfd >= 0)
		close(fs->longfd);
	fs->longfd = -1;
}

/*
 * Open path inside the root; on failure returns -1 with *errnum set.
 * Discovery reads many files of one directory in a row, so directories
 * are kept open (nicfit__sysfs_dir_fd) and files are opened relative to
 * them: one path component to look up instead of ten. The last component
 * is opened with O_NOFOLLOW there; a link takes the full, link-following
 * way.
 */
int nicfit__sysfs_open_in_root(struct nicfit_sysfs *fs, const char *path, int flags,
			       int *errnum)
{
	const char *slash;
	int fd, dfd;

	while (*path == '/')
		path++;
	slash = strrchr(path, '/');
	if ((flags & O_PATH) || !slash || !slash[1] || !strcmp(slash + 1, "..") ||
	    !strcmp(slash + 1, ".") || (size_t)(slash - path) >= NICFIT_SYSFS_PATH_MAX)
		return nicfit__sysfs_open_full(fs, path, flags, errnum);
	dfd = nicfit__sysfs_dir_fd(fs, path, (size_t)(slash - path), errnum);
	if (dfd < 0)
		return -1;
	fd = openat(dfd, slash + 1, flags | O_NOFOLLOW);
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
	else if (st == NICFIT_SYSFS_MISSING)
		nicfit__sysfs_record_missing(fs, path);
	return st;
}
