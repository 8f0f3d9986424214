/*
 * sysfs_read.c - the readers of nicfit/sysfs.h: whole files (bounded),
 * one-line text, hex and decimal attributes, links, directory listings,
 * and the test that a path exists (which, for a snapshot, reads it too).
 *
 * Each reader opens through nicfit__sysfs_open_in_root() (so nothing
 * outside the root is ever read), tells the outcomes apart as the header
 * lists them, reports every failure but MISSING as a problem and, while a
 * snapshot is being taken, records what it read. Attributes are read
 * with read(2) on that descriptor into the caller's buffer, not with
 * nicfit_read_file(): a sysfs attribute is produced whole by the first
 * read (a second one may block or re-run the driver's handler), procfs
 * hands out a page per read, the bound is the attribute's and not an
 * input file's, and the path must stay inside the root.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* O_PATH is behind _GNU_SOURCE in glibc's headers; the kernel flag is stable. */
#ifndef O_PATH
#define O_PATH __O_PATH
#endif

#include "core/alloc_int.h"
#include "core/file_int.h"
#include "core/fmt_int.h"
#include "nicfit/units.h"
#include "host/sysfs_int.h"

int nicfit_sysfs_exists(struct nicfit_sysfs *fs, const char *path)
{
	int e, fd = nicfit__sysfs_open_in_root(fs, path, O_PATH | O_CLOEXEC, &e);
	struct stat sb;

	if (fd < 0) {
		if (nicfit__sysfs_status_of_errno(e) == NICFIT_SYSFS_MISSING) {
			nicfit__sysfs_trace(fs, 'M', path, 0, 0, NULL);
			nicfit__sysfs_record_missing(fs, path);
		}
		return 0;
	}
	nicfit__sysfs_trace(fs, 'T', path, 0, 0, NULL);
	/* A snapshot must hold what was only tested for, too. */
	if (fs->recording && !fstat(fd, &sb)) {
		while (*path == '/')
			path++;
		if (S_ISDIR(sb.st_mode)) {
			nicfit__sysfs_record(fs, path, NICFIT_REC_DIR, NULL, 0, NICFIT_SYSFS_OK, 0);
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
	paged = path[0] == 'p' && !strncmp(path, "proc/", 5);
	fd = nicfit__sysfs_open_in_root(fs, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, &e);
	if (fd < 0) {
		st = nicfit__sysfs_status_of_errno(e);
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
	nicfit__sysfs_problem(fs, path, st, e, flags);
	if (st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_TOO_BIG || st == NICFIT_SYSFS_MISSING)
		nicfit__sysfs_trace(fs, st == NICFIT_SYSFS_MISSING ? 'M' : 'F', path, 0, got, NULL);
	if (!fs->recording)
		return st;
	if (st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_TOO_BIG)
		nicfit__sysfs_record(fs, path, NICFIT_REC_FILE, buf, got, st, 0);
	else if (st != NICFIT_SYSFS_MISSING)
		nicfit__sysfs_record(fs, path, NICFIT_REC_FAILED, NULL, 0, st, e);
	else
		nicfit__sysfs_record_missing(fs, path);
	return st;
}

/*
 * Whether the eight bytes at p hold one below 0x20 (a tab or a newline
 * too: the byte loop tells those apart) or DEL: SWAR, as a value of a
 * sysfs file is checked byte by byte only where one is.
 */
static inline int ctl_in_word(const char *p)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t x, del;

	memcpy(&x, p, 8);
	del = x ^ (ones * 0x7f);
	/* a byte < 0x20 (of those < 0x80), or one equal to 0x7f */
	return ((((x - ones * 0x20) & ~x) | ((del - ones) & ~del)) & high) != 0;
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
	/*
	 * Kernels from about 2.6.23 until a 2011 fix end the node lists
	 * (node/online, possible, has_cpu, ...) with "\n\0": that NUL after
	 * the final newline is the kernel's format, not damage. Any other NUL
	 * still is.
	 */
	if (len >= 2 && buf[len - 1] == '\0' && buf[len - 2] == '\n')
		len--;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		len--;
	for (i = 0; i < len; i++) {
		unsigned char c;

		/* eight bytes at a time past those with no control byte and no DEL */
		while (i + 8 <= len && !ctl_in_word(buf + i))
			i += 8;
		if (i >= len)
			break;
		c = (unsigned char)buf[i];
		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
			nicfit__sysfs_problem(fs, path, NICFIT_SYSFS_MALFORMED, 0, flags);
			return NICFIT_SYSFS_MALFORMED;
		}
	}
	if (len + 1 > cap) {
		nicfit__sysfs_problem(fs, path, NICFIT_SYSFS_TOO_BIG, 0, flags);
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
		nicfit__sysfs_problem(fs, path, NICFIT_SYSFS_MALFORMED, 0, flags);
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
		nicfit__sysfs_problem(fs, path, NICFIT_SYSFS_MALFORMED, 0, flags);
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
	/* links come in runs from one directory (sys/bus/pci/devices): it is kept open */
	dfd = nicfit__sysfs_dir_fd(fs, dir, strlen(dir), &e);
	if (dfd < 0) {
		st = nicfit__sysfs_status_of_errno(e);
		goto out;
	}
	n = readlinkat(dfd, base, out, cap ? cap - 1 : 0);
	if (n < 0) {
		e = errno;
		st = e == EINVAL ? NICFIT_SYSFS_NOT_FILE : nicfit__sysfs_status_of_errno(e);
	} else if ((size_t)n >= cap - 1) {
		st = NICFIT_SYSFS_TOO_BIG;
		out[0] = '\0';
	} else {
		out[n] = '\0';
	}
out:
	nicfit__sysfs_problem(fs, path, st, e, flags);
	if (st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_MISSING)
		nicfit__sysfs_trace(fs, st == NICFIT_SYSFS_OK ? 'L' : 'M', path, 0, 0, NULL);
	if (st == NICFIT_SYSFS_OK)
		nicfit__sysfs_record(fs, path, NICFIT_REC_LINK, out, strlen(out), st, 0);
	else if (st != NICFIT_SYSFS_MISSING)
		nicfit__sysfs_record(fs, path, NICFIT_REC_FAILED, NULL, 0, st, e);
	else
		nicfit__sysfs_record_missing(fs, path);
	return st;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct nicfit_dirent *)a)->name,
		      ((const struct nicfit_dirent *)b)->name);
}

/*
 * An entry to sort: its name's first 16 bytes as two big-endian words,
 * zeros after the name's end, so that comparing the words orders as
 * strcmp() does; names equal that far are told by strcmp().
 */
struct sort_key {
	uint64_t hi, lo;
	const struct nicfit_dirent *e;
};

static uint64_t be_word(const unsigned char *b)
{
	uint64_t v = 0;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&v, b, 8);
	return __builtin_bswap64(v);
#else
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
#endif
}

static int key_before(const struct sort_key *a, const struct sort_key *b)
{
	if (a->hi != b->hi)
		return a->hi < b->hi;
	if (a->lo != b->lo)
		return a->lo < b->lo;
	return strcmp(a->e->name, b->e->name) < 0;
}

/*
 * Merge sort of k[0..n) by key_before, between k and tmp (n keys each),
 * stable; returns whichever of the two holds the sorted keys.
 */
static struct sort_key *sort_keys(struct sort_key *k, struct sort_key *tmp, size_t n)
{
	size_t w, i;

	for (w = 1; w < n; w *= 2) {
		struct sort_key *t;

		for (i = 0; i < n; i += 2 * w) {
			size_t a = i, mid = i + w < n ? i + w : n, b = mid;
			size_t end = i + 2 * w < n ? i + 2 * w : n, o = i;

			while (a < mid && b < end)
				tmp[o++] = key_before(&k[b], &k[a]) ? k[b++] : k[a++];
			while (a < mid)
				tmp[o++] = k[a++];
			while (b < end)
				tmp[o++] = k[b++];
		}
		t = k;
		k = tmp;
		tmp = t;
	}
	return k;
}

/*
 * Sort the n entries of *v by name. An entry is 260 bytes and a name is
 * a few: keys are sorted (a bus listing's thousands of addresses differ
 * in their first 16 bytes, so strcmp() is rarely asked), and the entries
 * moved once, into a new array. Returns -1 out of memory (*v then stays
 * unsorted).
 */
static int sort_dirents(struct nicfit_dirent **v, size_t n)
{
	struct sort_key *key, *tmp, *sorted;
	struct nicfit_dirent *out;
	size_t i;

	if (n < 2)
		return 0;
	key = malloc(2 * n * sizeof(*key));
	out = malloc(n * sizeof(*out));
	if (!key || !out) {
		free(key);
		free(out);
		return -1;
	}
	tmp = key + n;
	for (i = 0; i < n; i++) {
		unsigned char b[16] = { 0 };

		memcpy(b, (*v)[i].name, strnlen((*v)[i].name, sizeof(b)));
		key[i].hi = be_word(b);
		key[i].lo = be_word(b + 8);
		key[i].e = &(*v)[i];
	}
	sorted = sort_keys(key, tmp, n);
	for (i = 0; i < n; i++)
		out[i] = *sorted[i].e;
	free(key);
	free(*v);
	*v = out;
	return 0;
}

/* The type of entry name of the directory fd, itself (a link is a link); lstat when d_type is not filled. */
static enum nicfit_dirent_type dirent_type(int fd, const char *name, unsigned char d_type)
{
	struct stat sb;

	switch (d_type) {
	case DT_REG: return NICFIT_DT_FILE;
	case DT_DIR: return NICFIT_DT_DIR;
	case DT_LNK: return NICFIT_DT_LINK;
	case DT_UNKNOWN:
		if (fstatat(fd, name, &sb, AT_SYMLINK_NOFOLLOW))
			break;
		return S_ISREG(sb.st_mode) ? NICFIT_DT_FILE :
		       S_ISDIR(sb.st_mode) ? NICFIT_DT_DIR :
		       S_ISLNK(sb.st_mode) ? NICFIT_DT_LINK : NICFIT_DT_OTHER;
	default:
		break;
	}
	return NICFIT_DT_OTHER;
}

/*
 * While recording, a listing keeps its subdirectories and links too: a
 * snapshot must show that they exist (a device's ports/, a class link)
 * even when discovery reads nothing below them.
 */
static void record_child(struct nicfit_sysfs *fs, int fd, const char *path,
			 const char *name, enum nicfit_dirent_type t)
{
	char child[NICFIT_SYSFS_PATH_MAX], target[NICFIT_SYSFS_PATH_MAX];
	ssize_t ln;

	if (nicfit__fmt(child, sizeof(child), "%s%s%s", path, path[0] ? "/" : "", name) >=
	    (int)sizeof(child))
		return;
	if (t == NICFIT_DT_DIR) {
		nicfit__sysfs_record(fs, child, NICFIT_REC_DIR, NULL, 0, NICFIT_SYSFS_OK, 0);
		return;
	}
	ln = readlinkat(fd, name, target, sizeof(target) - 1);
	if (ln > 0) {
		target[ln] = '\0';
		nicfit__sysfs_record(fs, child, NICFIT_REC_LINK, target, (size_t)ln, NICFIT_SYSFS_OK,
				     0);
	}
}

/* What one listing has gathered so far. */
struct listing {
	struct nicfit_dirent *v;
	size_t cnt, alloc, seen;
};

/*
 * One entry of the directory fd (path) into l; NICFIT_SYSFS_OK to go on,
 * else the status the listing stops with.
 */
static enum nicfit_sysfs_status list_entry(struct nicfit_sysfs *fs, int fd, const char *path,
					   const char *name, unsigned char d_type, unsigned flags,
					   struct listing *l, int *e)
{
	enum nicfit_dirent_type t;
	size_t nlen;

	if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
		return NICFIT_SYSFS_OK;
	if (l->seen++ == NICFIT_SYSFS_MAX_DIRENTS)
		return NICFIT_SYSFS_TOO_BIG;
	t = dirent_type(fd, name, d_type);
	if (fs->recording && (t == NICFIT_DT_DIR || t == NICFIT_DT_LINK))
		record_child(fs, fd, path, name, t);
	if ((flags & NICFIT_SYSFS_SUBDIRS) && t != NICFIT_DT_DIR)
		return NICFIT_SYSFS_OK;
	if (NICFIT_ALLOC_GROW(l->v, l->cnt + 1, l->alloc)) {
		*e = ENOMEM;
		return NICFIT_SYSFS_UNREADABLE;
	}
	nlen = strnlen(name, sizeof(l->v[l->cnt].name) - 1);
	memcpy(l->v[l->cnt].name, name, nlen);
	l->v[l->cnt].name[nlen] = '\0';
	l->v[l->cnt].type = t;
	l->cnt++;
	return NICFIT_SYSFS_OK;
}

/*
 * The directory is read with getdents64(2) into a buffer here, not through
 * opendir(): a listing is a few dozen names, and a DIR costs an fcntl and
 * a 32 KiB allocation per directory.
 */
enum nicfit_sysfs_status nicfit_sysfs_list(struct nicfit_sysfs *fs, const char *path,
					   struct nicfit_dirent **ents, size_t *n,
					   unsigned flags)
{
	enum nicfit_sysfs_status st = NICFIT_SYSFS_OK;
	struct listing l = { NULL, 0, 0, 0 };
	char buf[8192];
	int fd, e = 0;

	*ents = NULL;
	*n = 0;
	while (*path == '/')
		path++;
	fd = nicfit__sysfs_open_in_root(fs, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, &e);
	if (fd < 0) {
		st = e == ENOTDIR && nicfit_sysfs_exists(fs, path) ? NICFIT_SYSFS_NOT_FILE
								    : nicfit__sysfs_status_of_errno(e);
		goto out;
	}
	while (st == NICFIT_SYSFS_OK) {
		long r = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		long off;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			st = NICFIT_SYSFS_UNREADABLE;
			break;
		}
		if (r == 0)
			break;
		for (off = 0; off < r && st == NICFIT_SYSFS_OK;) {
			const size_t at = offsetof(struct linux_dirent64, d_name);
			unsigned short reclen;
			unsigned char type;

			if ((size_t)(r - off) <= at)
				break; /* not a record the kernel writes */
			memcpy(&reclen, buf + off + offsetof(struct linux_dirent64, d_reclen),
			       sizeof(reclen));
			memcpy(&type, buf + off + offsetof(struct linux_dirent64, d_type), 1);
			if (reclen <= at || reclen > r - off)
				break;
			st = list_entry(fs, fd, path, buf + off + at, type, flags, &l, &e);
			off += reclen;
		}
	}
	close(fd);
	if (!(flags & NICFIT__SYSFS_UNSORTED) && sort_dirents(&l.v, l.cnt))
		qsort(l.v, l.cnt, sizeof(*l.v), cmp_entry); /* in place, without the pointers */
	*ents = l.v;
	*n = l.cnt;
out:
	nicfit__sysfs_problem(fs, path, st, e, flags);
	if (st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_TOO_BIG || st == NICFIT_SYSFS_MISSING)
		nicfit__sysfs_trace(fs, st == NICFIT_SYSFS_MISSING ? 'M' : 'D', path, 0, 0, NULL);
	if (st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_TOO_BIG)
		nicfit__sysfs_record(fs, path[0] ? path : ".", NICFIT_REC_DIR, NULL, 0, st, 0);
	else if (st != NICFIT_SYSFS_MISSING)
		nicfit__sysfs_record(fs, path, NICFIT_REC_FAILED, NULL, 0, st, e);
	else
		nicfit__sysfs_record_missing(fs, path);
	return st;
}

/* ---- parts of a binary attribute ------------------------------------------- */

enum nicfit_sysfs_status nicfit_sysfs_open_attr(struct nicfit_sysfs *fs, const char *path,
						int *fd, unsigned flags)
{
	enum nicfit_sysfs_status st = NICFIT_SYSFS_OK;
	int e = 0;

	while (*path == '/')
		path++;
	*fd = nicfit__sysfs_open_in_root(fs, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY,
					 &e);
	if (*fd < 0) {
		st = nicfit__sysfs_status_of_errno(e);
		if (st == NICFIT_SYSFS_MISSING)
			nicfit__sysfs_trace(fs, 'M', path, 0, 0, NULL);
	}
	nicfit__sysfs_problem(fs, path, st, e, flags);
	return st;
}

size_t nicfit_sysfs_pread(struct nicfit_sysfs *fs, int fd, const char *path, void *buf,
			  size_t len, size_t off, const char *why)
{
	ssize_t r;

	do
		r = pread(fd, buf, len, (off_t)off);
	while (r < 0 && errno == EINTR);
	if (r <= 0)
		return 0;
	while (*path == '/')
		path++;
	nicfit__sysfs_trace(fs, 'P', path, off, (size_t)r, why);
	return (size_t)r;
}

void nicfit_sysfs_close_attr(struct nicfit_sysfs *fs, int fd)
{
	(void)fs;
	if (fd >= 0)
		close(fd);
}
