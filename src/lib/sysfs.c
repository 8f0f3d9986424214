/*
 * sysfs.c - root-relative reads with strict typed readers, a recorder for
 * snapshots, and the parsers of sysfs strings (see nicfit/sysfs.h).
 *
 * Every open goes through open_in_root(): openat2(RESOLVE_IN_ROOT) when the
 * kernel allows it (probed once), else our own resolver, which walks the
 * path one component at a time with readlinkat() on a prefix that is
 * already free of links, so an absolute link in a captured tree is taken
 * relative to the tree and never to the host.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

#include "nicfit/sysfs.h"
#include "nicfit/units.h"

#define MAX_HOPS 40
#define REC_HASH_MIN 1024

struct problem {
	char *path;
	enum nicfit_sysfs_status st;
	int errnum;
};

struct nicfit_sysfs {
	int rootfd;
	int live;
	int use_openat2;
	char root[NICFIT_SYSFS_PATH_MAX];
	struct problem problems[NICFIT_SYSFS_MAX_PROBLEMS];
	size_t nproblems;       /* all met, kept or not */
	int recording;
	struct nicfit_rec *recs;
	size_t nrecs, caprecs;
	size_t *hash;           /* open addressing: index + 1 into recs, 0 = empty */
	size_t hashcap;
	int dirfd;              /* the last directory readlink() opened, or -1 */
	char dirpath[NICFIT_SYSFS_PATH_MAX];
};

const char *nicfit_sysfs_status_name(enum nicfit_sysfs_status st)
{
	switch (st) {
	case NICFIT_SYSFS_OK: return "ok";
	case NICFIT_SYSFS_MISSING: return "missing";
	case NICFIT_SYSFS_UNREADABLE: return "unreadable";
	case NICFIT_SYSFS_LOOP: return "symlink loop";
	case NICFIT_SYSFS_NOT_FILE: return "not a regular file";
	case NICFIT_SYSFS_MALFORMED: return "malformed";
	case NICFIT_SYSFS_TOO_BIG: return "too large";
	}
	return "?";
}

const char *nicfit_sysfs_problem_text(enum nicfit_sysfs_status st, int errnum)
{
	switch (st) {
	case NICFIT_SYSFS_UNREADABLE:
		switch (errnum) {
		case EACCES:
		case EPERM: return "permission denied";
		case EINVAL: return "the kernel refused the read (EINVAL)";
		case EIO: return "I/O error";
		case ENODEV:
		case ENXIO: return "device gone or not ready";
		case ETIMEDOUT: return "read timed out";
		default: return "cannot be read";
		}
	case NICFIT_SYSFS_LOOP: return "symbolic link loop";
	case NICFIT_SYSFS_NOT_FILE:
		return errnum == EINVAL ? "not a symbolic link" : "not a regular file";
	case NICFIT_SYSFS_MALFORMED: return "unexpected content (binary data or bad format)";
	case NICFIT_SYSFS_TOO_BIG: return "larger than expected";
	default: return nicfit_sysfs_status_name(st);
	}
}

/* ---- opening -------------------------------------------------------------- */

static int probe_openat2(int rootfd)
{
#ifdef SYS_openat2
	struct open_how how;
	long fd;

	memset(&how, 0, sizeof(how));
	how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
	fd = syscall(SYS_openat2, rootfd, ".", &how, sizeof(how));
	if (fd < 0)
		return 0;
	close((int)fd);
	return 1;
#else
	(void)rootfd;
	return 0;
#endif
}

int nicfit_sysfs_open(const char *root, struct nicfit_sysfs **out,
		      struct nicfit_error *err)
{
	struct nicfit_sysfs *fs;
	struct stat st;
	int fd;

	*out = NULL;
	if (!root || !*root)
		root = "/";
	if (strlen(root) >= NICFIT_SYSFS_PATH_MAX)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--sysfs", 0, 0, "path too long");
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return nicfit_error_at(err, e == ENOENT ? NICFIT_E_NOTFOUND : NICFIT_E_IO, root,
				       0, 0, "%s", e == ENOTDIR ? "not a directory" : strerror(e));
	}
	if (fstatat(fd, "sys", &st, 0) || !S_ISDIR(st.st_mode)) {
		close(fd);
		return nicfit_error_at(err, NICFIT_E_NOTFOUND, root, 0, 0,
				       "no sys/ directory here (give the directory that contains sys/, "
				       "as for lstopo -i or HWLOC_FSROOT)");
	}
	fs = calloc(1, sizeof(*fs));
	if (!fs) {
		close(fd);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	fs->rootfd = fd;
	snprintf(fs->root, sizeof(fs->root), "%s", root);
	fs->live = !strcmp(root, "/");
	fs->use_openat2 = probe_openat2(fd);
	fs->dirfd = -1;
	*out = fs;
	return 0;
}

static void rec_free(struct nicfit_rec *r)
{
	free(r->path);
	free(r->data);
}

void nicfit_sysfs_close(struct nicfit_sysfs *fs)
{
	size_t i;

	if (!fs)
		return;
	close(fs->rootfd);
	if (fs->dirfd >= 0)
		close(fs->dirfd);
	for (i = 0; i < fs->nproblems && i < NICFIT_SYSFS_MAX_PROBLEMS; i++)
		free(fs->problems[i].path);
	for (i = 0; i < fs->nrecs; i++)
		rec_free(&fs->recs[i]);
	free(fs->recs);
	free(fs->hash);
	free(fs);
}

const char *nicfit_sysfs_root(const struct nicfit_sysfs *fs)
{
	return fs->root;
}

int nicfit_sysfs_is_live(const struct nicfit_sysfs *fs)
{
	return fs->live;
}

/* ---- problems and records ------------------------------------------------- */

static void problem(struct nicfit_sysfs *fs, const char *path,
		    enum nicfit_sysfs_status st, int errnum, unsigned flags)
{
	if (st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_MISSING || (flags & NICFIT_SYSFS_QUIET))
		return;
	if (fs->nproblems < NICFIT_SYSFS_MAX_PROBLEMS) {
		struct problem *p = &fs->problems[fs->nproblems];

		p->path = strdup(path);
		p->st = st;
		p->errnum = errnum;
	}
	fs->nproblems++;
}

void nicfit_sysfs_report(struct nicfit_sysfs *fs, const char *path,
			 enum nicfit_sysfs_status st, int errnum, unsigned flags)
{
	while (*path == '/')
		path++;
	problem(fs, path, st, errnum, flags);
}

size_t nicfit_sysfs_problem_count(const struct nicfit_sysfs *fs)
{
	return fs->nproblems;
}

void nicfit_sysfs_problem(const struct nicfit_sysfs *fs, size_t i, const char **path,
			  enum nicfit_sysfs_status *st, int *errnum)
{
	const struct problem *p = &fs->problems[i];

	*path = p->path ? p->path : "?";
	*st = p->st;
	*errnum = p->errnum;
}

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603ull & SIZE_MAX;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (1099511628211ull & SIZE_MAX);
	return h;
}

static int rehash(struct nicfit_sysfs *fs, size_t cap)
{
	size_t *h = calloc(cap, sizeof(*h)), i;

	if (!h)
		return -1;
	for (i = 0; i < fs->nrecs; i++) {
		size_t k = hash_str(fs->recs[i].path) & (cap - 1);

		while (h[k])
			k = (k + 1) & (cap - 1);
		h[k] = i + 1;
	}
	free(fs->hash);
	fs->hash = h;
	fs->hashcap = cap;
	return 0;
}

/* The slot for path: *found set when it is already recorded. */
static size_t *rec_slot(struct nicfit_sysfs *fs, const char *path, int *found)
{
	size_t k = hash_str(path) & (fs->hashcap - 1);

	*found = 0;
	while (fs->hash[k]) {
		if (!strcmp(fs->recs[fs->hash[k] - 1].path, path)) {
			*found = 1;
			break;
		}
		k = (k + 1) & (fs->hashcap - 1);
	}
	return &fs->hash[k];
}

static void record(struct nicfit_sysfs *fs, const char *path, enum nicfit_rec_type type,
		   const void *data, size_t len, enum nicfit_sysfs_status st, int errnum)
{
	struct nicfit_rec *r;
	size_t *slot;
	int found;

	if (!fs->recording)
		return;
	if ((fs->nrecs + 1) * 2 > fs->hashcap &&
	    rehash(fs, fs->hashcap ? fs->hashcap * 2 : REC_HASH_MIN))
		return;
	slot = rec_slot(fs, path, &found);
	if (found)
		return;
	if (fs->nrecs == fs->caprecs) {
		size_t cap = fs->caprecs ? fs->caprecs * 2 : 256;
		struct nicfit_rec *p = realloc(fs->recs, cap * sizeof(*p));

		if (!p)
			return;
		fs->recs = p;
		fs->caprecs = cap;
	}
	r = &fs->recs[fs->nrecs];
	memset(r, 0, sizeof(*r));
	r->path = strdup(path);
	if (!r->path)
		return;
	r->type = type;
	r->st = st;
	r->errnum = errnum;
	if (data && (len || type == NICFIT_REC_LINK)) {
		r->data = malloc(len + 1);
		if (!r->data) {
			free(r->path);
			return;
		}
		memcpy(r->data, data, len);
		r->data[len] = '\0';
		r->len = len;
	}
	*slot = ++fs->nrecs;
}

int nicfit_sysfs_record(struct nicfit_sysfs *fs, int on)
{
	if (on && !fs->hash && rehash(fs, REC_HASH_MIN))
		return NICFIT_E_NOMEM;
	fs->recording = on;
	return 0;
}

void nicfit_sysfs_record_data(struct nicfit_sysfs *fs, const char *path, const void *data,
			      size_t len)
{
	while (*path == '/')
		path++;
	record(fs, path, NICFIT_REC_FILE, data, len, NICFIT_SYSFS_OK, 0);
}

size_t nicfit_sysfs_rec_count(const struct nicfit_sysfs *fs)
{
	return fs->nrecs;
}

const struct nicfit_rec *nicfit_sysfs_rec(const struct nicfit_sysfs *fs, size_t i)
{
	return i < fs->nrecs ? &fs->recs[i] : NULL;
}

/* ---- resolving ------------------------------------------------------------ */

static enum nicfit_sysfs_status status_of_errno(int e)
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
			return status_of_errno(errno);
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

static int open_full(struct nicfit_sysfs *fs, const char *path, int flags, int *errnum);

/*
 * Open path inside the root; on failure returns -1 with *errnum set.
 * Discovery reads many files of one directory in a row, so the directory
 * is kept open and its files are opened relative to it: one path
 * component to look up instead of ten. The last component is opened with
 * O_NOFOLLOW there; a link takes the full, link-following way.
 */
static int open_in_root(struct nicfit_sysfs *fs, const char *path, int flags, int *errnum)
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
		return open_full(fs, path, flags, errnum);
	memcpy(dir, path, n);
	dir[n] = '\0';
	if (fs->dirfd < 0 || strcmp(fs->dirpath, dir)) {
		int dfd = open_full(fs, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, errnum);

		if (dfd < 0)
			return -1;
		if (fs->dirfd >= 0)
			close(fs->dirfd);
		fs->dirfd = dfd;
		memcpy(fs->dirpath, dir, n + 1);
	}
	fd = openat(fs->dirfd, slash + 1, flags | O_NOFOLLOW);
	if (fd < 0 && errno == ELOOP)
		return open_full(fs, path, flags, errnum);
	if (fd < 0)
		*errnum = errno;
	return fd;
}

/* Open path inside the root, resolving every component. */
static int open_full(struct nicfit_sysfs *fs, const char *path, int flags, int *errnum)
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
	problem(fs, path, st, e, flags);
	if (st != NICFIT_SYSFS_OK && st != NICFIT_SYSFS_MISSING)
		record(fs, path, NICFIT_REC_FAILED, NULL, 0, st, e);
	return st;
}

int nicfit_sysfs_exists(struct nicfit_sysfs *fs, const char *path)
{
	int e, fd = open_in_root(fs, path, O_PATH | O_CLOEXEC, &e);
	struct stat sb;

	if (fd < 0)
		return 0;
	/* A snapshot must hold what was only tested for, too. */
	if (fs->recording && !fstat(fd, &sb)) {
		while (*path == '/')
			path++;
		if (S_ISDIR(sb.st_mode)) {
			record(fs, path, NICFIT_REC_DIR, NULL, 0, NICFIT_SYSFS_OK, 0);
		} else if (S_ISREG(sb.st_mode)) {
			char buf[NICFIT_SYSFS_TEXT_MAX];
			size_t len;

			close(fd);
			nicfit_sysfs_read(fs, path, buf, sizeof(buf), &len, NICFIT_SYSFS_QUIET);
			return 1;
		}
	}
	close(fd);
	return 1;
}

/* ---- reading -------------------------------------------------------------- */

enum nicfit_sysfs_status nicfit_sysfs_read(struct nicfit_sysfs *fs, const char *path,
					   void *buf, size_t cap, size_t *len,
					   unsigned flags)
{
	enum nicfit_sysfs_status st = NICFIT_SYSFS_OK;
	struct stat sb;
	size_t got = 0;
	int fd, e = 0, paged;

	*len = 0;
	while (*path == '/')
		path++;
	/* procfs hands out a page per read; sysfs and ordinary files all at once */
	paged = !strncmp(path, "proc/", 5);
	fd = open_in_root(fs, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, &e);
	if (fd < 0) {
		st = status_of_errno(e);
		goto out;
	}
	for (;;) {
		ssize_t r;

		if (got == cap) {
			char extra;

			r = read(fd, &extra, 1);
			if (r > 0)
				st = NICFIT_SYSFS_TOO_BIG;
			break;
		}
		r = read(fd, (char *)buf + got, cap - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			st = e == EISDIR ? NICFIT_SYSFS_NOT_FILE : NICFIT_SYSFS_UNREADABLE;
			break;
		}
		if (r == 0)
			break;
		got += (size_t)r;
		if (!paged && got < cap)
			break; /* a short read of a sysfs attribute is the end */
	}
	/*
	 * Nothing read: an empty file, or a FIFO or device where a file
	 * should be. Only then is the extra fstat() worth it.
	 */
	if (st == NICFIT_SYSFS_OK && !got && !fstat(fd, &sb) && !S_ISREG(sb.st_mode)) {
		e = S_ISDIR(sb.st_mode) ? EISDIR : 0;
		st = NICFIT_SYSFS_NOT_FILE;
	}
	*len = got;
	close(fd);
out:
	problem(fs, path, st, e, flags);
	if (st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_TOO_BIG)
		record(fs, path, NICFIT_REC_FILE, buf, got, st, 0);
	else if (st != NICFIT_SYSFS_MISSING)
		record(fs, path, NICFIT_REC_FAILED, NULL, 0, st, e);
	return st;
}

enum nicfit_sysfs_status nicfit_sysfs_read_str(struct nicfit_sysfs *fs, const char *path,
					       char *out, size_t cap, unsigned flags)
{
	char buf[NICFIT_SYSFS_TEXT_MAX];
	enum nicfit_sysfs_status st;
	size_t len, i;

	if (cap)
		out[0] = '\0';
	st = nicfit_sysfs_read(fs, path, buf, sizeof(buf), &len, flags);
	if (st != NICFIT_SYSFS_OK)
		return st;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		len--;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
			problem(fs, path, NICFIT_SYSFS_MALFORMED, 0, flags);
			return NICFIT_SYSFS_MALFORMED;
		}
	}
	if (len + 1 > cap) {
		problem(fs, path, NICFIT_SYSFS_TOO_BIG, 0, flags);
		return NICFIT_SYSFS_TOO_BIG;
	}
	memcpy(out, buf, len);
	out[len] = '\0';
	return NICFIT_SYSFS_OK;
}

enum nicfit_sysfs_status nicfit_sysfs_read_hex(struct nicfit_sysfs *fs, const char *path,
					       unsigned long *out, unsigned flags)
{
	char s[64];
	enum nicfit_sysfs_status st = nicfit_sysfs_read_str(fs, path, s, sizeof(s), flags);

	*out = 0;
	if (st != NICFIT_SYSFS_OK)
		return st;
	if (nicfit_parse_hex_id(s, out)) {
		problem(fs, path, NICFIT_SYSFS_MALFORMED, 0, flags);
		return NICFIT_SYSFS_MALFORMED;
	}
	return NICFIT_SYSFS_OK;
}

enum nicfit_sysfs_status nicfit_sysfs_read_long(struct nicfit_sysfs *fs, const char *path,
						long *out, unsigned flags)
{
	char s[64];
	enum nicfit_sysfs_status st = nicfit_sysfs_read_str(fs, path, s, sizeof(s), flags);

	*out = 0;
	if (st != NICFIT_SYSFS_OK)
		return st;
	if (nicfit_parse_dec(s, LONG_MIN, LONG_MAX, out)) {
		problem(fs, path, NICFIT_SYSFS_MALFORMED, 0, flags);
		return NICFIT_SYSFS_MALFORMED;
	}
	return NICFIT_SYSFS_OK;
}

enum nicfit_sysfs_status nicfit_sysfs_readlink(struct nicfit_sysfs *fs, const char *path,
					       char *out, size_t cap, unsigned flags)
{
	enum nicfit_sysfs_status st = NICFIT_SYSFS_OK;
	char dir[NICFIT_SYSFS_PATH_MAX];
	const char *base, *slash;
	int dfd, e = 0;
	ssize_t n;

	if (cap)
		out[0] = '\0';
	while (*path == '/')
		path++;
	slash = strrchr(path, '/');
	base = slash ? slash + 1 : path;
	if (slash) {
		if ((size_t)(slash - path) >= sizeof(dir)) {
			st = NICFIT_SYSFS_TOO_BIG;
			goto out;
		}
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	} else {
		dir[0] = '\0';
	}
	/* links come in runs from one directory (sys/bus/pci/devices): keep it open */
	if (fs->dirfd >= 0 && !strcmp(fs->dirpath, dir)) {
		dfd = fs->dirfd;
	} else {
		dfd = open_full(fs, dir[0] ? dir : ".", O_PATH | O_DIRECTORY | O_CLOEXEC, &e);
		if (dfd < 0) {
			st = status_of_errno(e);
			goto out;
		}
		if (fs->dirfd >= 0)
			close(fs->dirfd);
		fs->dirfd = dfd;
		snprintf(fs->dirpath, sizeof(fs->dirpath), "%s", dir);
	}
	n = readlinkat(dfd, base, out, cap ? cap - 1 : 0);
	if (n < 0) {
		e = errno;
		st = e == EINVAL ? NICFIT_SYSFS_NOT_FILE : status_of_errno(e);
	} else if ((size_t)n >= cap - 1) {
		st = NICFIT_SYSFS_TOO_BIG;
		out[0] = '\0';
	} else {
		out[n] = '\0';
	}
out:
	problem(fs, path, st, e, flags);
	if (st == NICFIT_SYSFS_OK)
		record(fs, path, NICFIT_REC_LINK, out, strlen(out), st, 0);
	else if (st != NICFIT_SYSFS_MISSING)
		record(fs, path, NICFIT_REC_FAILED, NULL, 0, st, e);
	return st;
}

static int cmp_dirent(const void *a, const void *b)
{
	return strcmp(((const struct nicfit_dirent *)a)->name,
		      ((const struct nicfit_dirent *)b)->name);
}

enum nicfit_sysfs_status nicfit_sysfs_list(struct nicfit_sysfs *fs, const char *path,
					   struct nicfit_dirent **ents, size_t *n,
					   unsigned flags)
{
	enum nicfit_sysfs_status st = NICFIT_SYSFS_OK;
	struct nicfit_dirent *v = NULL;
	size_t cnt = 0, cap = 0;
	struct dirent *d;
	DIR *dir;
	int fd, e = 0;

	*ents = NULL;
	*n = 0;
	while (*path == '/')
		path++;
	fd = open_in_root(fs, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, &e);
	if (fd < 0) {
		st = e == ENOTDIR && nicfit_sysfs_exists(fs, path) ? NICFIT_SYSFS_NOT_FILE
								    : status_of_errno(e);
		goto out;
	}
	dir = fdopendir(fd);
	if (!dir) {
		e = errno;
		close(fd);
		st = NICFIT_SYSFS_UNREADABLE;
		goto out;
	}
	for (;;) {
		enum nicfit_dirent_type t = NICFIT_DT_OTHER;

		errno = 0;
		d = readdir(dir);
		if (!d) {
			if (errno) {
				e = errno;
				st = NICFIT_SYSFS_UNREADABLE;
			}
			break;
		}
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (cnt == NICFIT_SYSFS_MAX_DIRENTS) {
			st = NICFIT_SYSFS_TOO_BIG;
			break;
		}
		if (cnt == cap) {
			size_t nc = cap ? cap * 2 : 32;
			struct nicfit_dirent *p = realloc(v, nc * sizeof(*p));

			if (!p) {
				e = ENOMEM;
				st = NICFIT_SYSFS_UNREADABLE;
				break;
			}
			v = p;
			cap = nc;
		}
		switch (d->d_type) {
		case DT_REG: t = NICFIT_DT_FILE; break;
		case DT_DIR: t = NICFIT_DT_DIR; break;
		case DT_LNK: t = NICFIT_DT_LINK; break;
		case DT_UNKNOWN: {
			struct stat sb;

			if (!fstatat(dirfd(dir), d->d_name, &sb, AT_SYMLINK_NOFOLLOW))
				t = S_ISREG(sb.st_mode) ? NICFIT_DT_FILE :
				    S_ISDIR(sb.st_mode) ? NICFIT_DT_DIR :
				    S_ISLNK(sb.st_mode) ? NICFIT_DT_LINK : NICFIT_DT_OTHER;
			break;
		}
		default: break;
		}
		snprintf(v[cnt].name, sizeof(v[cnt].name), "%s", d->d_name);
		v[cnt].type = t;
		cnt++;
		if (fs->recording && (t == NICFIT_DT_DIR || t == NICFIT_DT_LINK)) {
			char child[NICFIT_SYSFS_PATH_MAX], target[NICFIT_SYSFS_PATH_MAX];
			ssize_t ln;

			if (snprintf(child, sizeof(child), "%s%s%s", path, path[0] ? "/" : "",
				     d->d_name) >= (int)sizeof(child))
				continue;
			if (t == NICFIT_DT_DIR) {
				record(fs, child, NICFIT_REC_DIR, NULL, 0, NICFIT_SYSFS_OK, 0);
			} else {
				ln = readlinkat(dirfd(dir), d->d_name, target, sizeof(target) - 1);
				if (ln > 0) {
					target[ln] = '\0';
					record(fs, child, NICFIT_REC_LINK, target, (size_t)ln,
					       NICFIT_SYSFS_OK, 0);
				}
			}
		}
	}
	closedir(dir);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_dirent);
	*ents = v;
	*n = cnt;
out:
	problem(fs, path, st, e, flags);
	if (st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_TOO_BIG)
		record(fs, path[0] ? path : ".", NICFIT_REC_DIR, NULL, 0, st, 0);
	else if (st != NICFIT_SYSFS_MISSING)
		record(fs, path, NICFIT_REC_FAILED, NULL, 0, st, e);
	return st;
}

/* ---- parsers -------------------------------------------------------------- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Scan "digits[.digits]" at *pp into *v (at most 12 digits in all). */
static int scan_decimal(const char **pp, double *v)
{
	const char *p = *pp;
	double x = 0, scale = 1;
	int digits = 0;

	while (*p >= '0' && *p <= '9') {
		if (++digits > 12)
			return -1;
		x = x * 10 + (*p++ - '0');
	}
	if (!digits)
		return -1;
	if (*p == '.') {
		int frac = 0;

		p++;
		while (*p >= '0' && *p <= '9') {
			if (++digits > 12)
				return -1;
			scale /= 10;
			x += (*p++ - '0') * scale;
			frac++;
		}
		if (!frac)
			return -1;
	}
	*v = x;
	*pp = p;
	return 0;
}

int nicfit_parse_link_speed(const char *s, double *gts)
{
	const char *p = s;
	double v;

	*gts = 0;
	if (!*s || !strcmp(s, "Unknown") || !strcmp(s, "Unknown speed"))
		return 1;
	if (scan_decimal(&p, &v))
		return -1;
	if (strncmp(p, " GT/s", 5))
		return -1;
	p += 5;
	if (!strcmp(p, " PCIe"))
		p += 5;
	if (*p || !(v > 0) || v > 1024)
		return -1;
	*gts = v;
	return 0;
}

int nicfit_parse_hex_id(const char *s, unsigned long *out)
{
	unsigned long v = 0;
	int n = 0;

	*out = 0;
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	for (s += 2; *s; s++) {
		int h = hexval((unsigned char)*s);

		if (h < 0 || ++n > 8)
			return -1;
		v = v << 4 | (unsigned long)h;
	}
	if (!n)
		return -1;
	*out = v;
	return 0;
}

#define CPULIST_MAX (1L << 22)

/* Scan a member number at *pp. */
static int scan_member(const char **pp, long *v)
{
	const char *p = *pp;
	long x = 0;
	int n = 0;

	while (*p >= '0' && *p <= '9') {
		x = x * 10 + (*p++ - '0');
		if (++n > 8 || x > CPULIST_MAX)
			return -1;
	}
	if (!n)
		return -1;
	*v = x;
	*pp = p;
	return 0;
}

int nicfit_parse_cpulist(const char *s, unsigned long *count, long *first)
{
	const char *p = s;
	unsigned long c = 0;
	long lo = -1;

	*count = 0;
	*first = -1;
	if (!*p)
		return 0;
	for (;;) {
		long a, b;

		if (scan_member(&p, &a))
			return -1;
		b = a;
		if (*p == '-') {
			p++;
			if (scan_member(&p, &b) || b < a)
				return -1;
		}
		c += (unsigned long)(b - a + 1);
		if (lo < 0 || a < lo)
			lo = a;
		if (!*p)
			break;
		if (*p != ',')
			return -1;
		p++;
	}
	*count = c;
	*first = lo;
	return 0;
}

int nicfit_cpulist_has(const char *s, long n)
{
	const char *p = s;

	while (*p) {
		long a, b;

		if (scan_member(&p, &a))
			return 0;
		b = a;
		if (*p == '-') {
			p++;
			if (scan_member(&p, &b))
				return 0;
		}
		if (n >= a && n <= b)
			return 1;
		if (*p != ',')
			return 0;
		p++;
	}
	return 0;
}

int nicfit_parse_ib_rate(const char *s, struct nicfit_ib_rate *r)
{
	const char *p = s;
	double v;
	long w = 0;
	int n = 0;

	memset(r, 0, sizeof(*r));
	if (scan_decimal(&p, &v) || strncmp(p, " Gb/sec (", 9))
		return -1;
	p += 9;
	while (*p >= '0' && *p <= '9') {
		w = w * 10 + (*p++ - '0');
		if (++n > 3)
			return -1;
	}
	if (!n || w < 1 || *p++ != 'X')
		return -1;
	if (*p == ' ') {
		size_t k = 0;

		p++;
		while (isalnum((unsigned char)*p)) {
			if (k + 1 >= sizeof(r->speed))
				return -1;
			r->speed[k++] = *p++;
		}
		if (!k)
			return -1;
		r->speed[k] = '\0';
	}
	if (strcmp(p, ")") || v > 100000)
		return -1;
	r->gbps = v;
	r->width = (int)w;
	return 0;
}

int nicfit_parse_ib_state(const char *s, int *num, char *name, size_t cap)
{
	const char *p = s;
	long v = 0;
	int n = 0;
	size_t len;

	*num = -1;
	if (cap)
		name[0] = '\0';
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		if (++n > 3)
			return -1;
	}
	if (!n || p[0] != ':' || p[1] != ' ')
		return -1;
	p += 2;
	len = strlen(p);
	if (!len || len + 1 > cap)
		return -1;
	for (n = 0; p[n]; n++)
		if (!isprint((unsigned char)p[n]))
			return -1;
	memcpy(name, p, len + 1);
	*num = (int)v;
	return 0;
}

int nicfit_parse_gid(const char *s, uint8_t gid[16])
{
	int g, k;

	for (g = 0; g < 8; g++) {
		unsigned v = 0;

		for (k = 0; k < 4; k++) {
			int h = hexval((unsigned char)*s++);

			if (h < 0)
				return -1;
			v = v << 4 | (unsigned)h;
		}
		gid[2 * g] = (uint8_t)(v >> 8);
		gid[2 * g + 1] = (uint8_t)v;
		if (g < 7 && *s++ != ':')
			return -1;
	}
	return *s ? -1 : 0;
}

enum nicfit_gid_type nicfit_parse_gid_type(const char *s)
{
	if (!strcmp(s, "IB/RoCE v1"))
		return NICFIT_GID_IB_ROCE1;
	if (!strcmp(s, "RoCE v2"))
		return NICFIT_GID_ROCE2;
	return NICFIT_GID_UNKNOWN;
}

/* Scan exactly min..max hex digits at *pp. */
static int scan_hex(const char **pp, int min, int max, unsigned *v)
{
	const char *p = *pp;
	unsigned x = 0;
	int n = 0;

	while (hexval((unsigned char)*p) >= 0) {
		if (++n > max)
			return -1;
		x = x << 4 | (unsigned)hexval((unsigned char)*p++);
	}
	if (n < min)
		return -1;
	*v = x;
	*pp = p;
	return 0;
}

int nicfit_parse_pci_addr(const char *s, unsigned *domain, unsigned *bus,
			  unsigned *dev, unsigned *fn)
{
	const char *p = s;
	unsigned d, b, v, f = 0;

	if (scan_hex(&p, 4, 8, &d) || *p++ != ':' || scan_hex(&p, 2, 2, &b) || *p++ != ':' ||
	    scan_hex(&p, 2, 2, &v) || v > 0x1f)
		return -1;
	if (fn) {
		if (*p++ != '.' || scan_hex(&p, 1, 1, &f) || f > 7)
			return -1;
	}
	if (*p)
		return -1;
	*domain = d;
	*bus = b;
	*dev = v;
	if (fn)
		*fn = f;
	return 0;
}
