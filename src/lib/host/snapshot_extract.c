/*
 * snapshot_extract.c - reading a snapshot back: unpack an archive into a
 * new directory under $TMPDIR for offline audit, within bounds on entries,
 * bytes written and path depth, and remove that directory again on any
 * failure (nicfit_snapshot_extract, nicfit_snapshot_remove_tree, and
 * nicfit_snapshot_remove_pending for a signal handler; see
 * nicfit/snapshot.h). Taking a snapshot is snapshot_take.c; the libarchive
 * table is snapshot.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/file_int.h"
#include "core/gzip_int.h"
#define NICFIT_ARCHIVE_CALLS
#include "core/archive_int.h"
#include "host/snapshot_int.h"
#include "nicfit/snapshot.h"
#include "nicfit/sysfs.h"

#define P_MAX NICFIT_SYSFS_PATH_MAX

/* ---- reading archives back ---------------------------------------------------- */

/*
 * The trees unpacked in this process and not removed yet, so that
 * nicfit_snapshot_remove_pending() can remove them from a signal handler:
 * an audit of an archive interrupted by ^C or SIGTERM left its unpacked
 * tree behind (up to 100,000 entries). A slot goes FREE -> FILLING (its
 * path being copied, invisible to the handler) -> HELD, and back to FREE
 * only once the tree is gone, so a handler that interrupts a removal
 * finishes it. A process holds one or two trees at a time (an audit of an
 * archive and of a sosreport); a tree beyond the slots is still removed
 * as usual, only not on a signal. snapshot_take.c holds an archive being
 * written there too, until it is whole. This is the one piece of
 * process-wide state in the library: a signal is process-wide.
 */
#define PENDING_MAX 8
enum { PENDING_FREE, PENDING_FILLING, PENDING_HELD };

static struct {
	atomic_int state;
	char path[P_MAX];
} pending[PENDING_MAX];

void nicfit__snapshot_pending_add(const char *path)
{
	int i, want;

	/* a name cut to fit could be another file's: such a path is left out */
	if (strlen(path) >= sizeof(pending[0].path))
		return;
	for (i = 0; i < PENDING_MAX; i++) {
		want = PENDING_FREE;
		if (atomic_compare_exchange_strong(&pending[i].state, &want, PENDING_FILLING)) {
			snprintf(pending[i].path, sizeof(pending[i].path), "%s", path);
			atomic_store(&pending[i].state, PENDING_HELD);
			return;
		}
	}
}

void nicfit__snapshot_pending_drop(const char *path)
{
	int i;

	for (i = 0; i < PENDING_MAX; i++)
		if (atomic_load(&pending[i].state) == PENDING_HELD && !strcmp(pending[i].path, path))
			atomic_store(&pending[i].state, PENDING_FREE);
}

/*
 * Remove name under dfd. A directory is first made u+rwx: an archive may
 * hold a read-only or mode-000 directory, which its owner can empty only
 * after that (root needs no such step, everyone else does). The depth
 * bound is above any depth extraction writes (NICFIT_SNAPSHOT_MAX_DEPTH).
 *
 * Only system calls, each async-signal-safe, and a buffer on the stack: no
 * DIR, which allocates, so that a signal handler may call this. A
 * directory is read again from its start after a pass that removed
 * something, until a pass finds nothing left to remove.
 */
static int rm_at(int dfd, const char *name, int depth)
{
	const size_t at = offsetof(struct linux_dirent64, d_name);
	char buf[1024];
	struct stat sb;
	int fd, rc, removed;
	long r, off;

	if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW))
		return -1;
	if (!S_ISDIR(sb.st_mode))
		return unlinkat(dfd, name, 0);
	if (depth > 4 * NICFIT_SNAPSHOT_MAX_DEPTH)
		return -1;
	if ((sb.st_mode & 0700) != 0700)
		fchmodat(dfd, name, (sb.st_mode & 07777) | 0700, 0);
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do {
		rc = 0;
		removed = 0;
		while ((r = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0 ||
		       (r < 0 && errno == EINTR)) {
			for (off = 0; r > 0 && (size_t)(r - off) > at;) {
				unsigned short reclen;
				const char *n = buf + off + at;

				memcpy(&reclen, buf + off + offsetof(struct linux_dirent64, d_reclen),
				       sizeof(reclen));
				if (reclen <= at || reclen > r - off)
					break;
				off += reclen;
				if (!strcmp(n, ".") || !strcmp(n, ".."))
					continue;
				if (rm_at(fd, n, depth + 1))
					rc = -1;
				else
					removed = 1;
			}
		}
		if (r < 0)
			rc = -1;
	} while (removed && lseek(fd, 0, SEEK_SET) == 0);
	close(fd);
	return unlinkat(dfd, name, AT_REMOVEDIR) ? -1 : rc;
}

int nicfit_snapshot_remove_tree(const char *dir)
{
	int rc = rm_at(AT_FDCWD, dir, 0);

	nicfit__snapshot_pending_drop(dir);
	return rc;
}

int nicfit_snapshot_remove_pending(void)
{
	int i, rc = 0;

	for (i = 0; i < PENDING_MAX; i++)
		if (atomic_load(&pending[i].state) == PENDING_HELD &&
		    rm_at(AT_FDCWD, pending[i].path, 0) && errno != ENOENT)
			rc = -1;
	return rc;
}

/* The directory under base (depth <= 2) that holds sys/; malloc'd or NULL. */
static char *find_root(const char *base)
{
	char path[P_MAX];
	struct stat sb;
	DIR *d;
	struct dirent *de;
	char *found = NULL;

	snprintf(path, sizeof(path), "%s/sys", base);
	if (!lstat(path, &sb) && S_ISDIR(sb.st_mode))
		return strdup(base);
	d = opendir(base);
	if (!d)
		return NULL;
	while (!found && (de = readdir(d)) != NULL) {
		char sub[P_MAX];

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", base, de->d_name) >= (int)sizeof(sub))
			continue;
		if (lstat(sub, &sb) || !S_ISDIR(sb.st_mode))
			continue;
		snprintf(path, sizeof(path), "%s/sys", sub);
		if (!lstat(path, &sb) && S_ISDIR(sb.st_mode))
			found = strdup(sub);
	}
	closedir(d);
	return found;
}

static int unsafe_path(const char *p)
{
	if (!p || !*p || *p == '/')
		return 1;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return 1;
		p += n;
		while (*p == '/')
			p++;
	}
	return 0;
}

/* Path components of p that name something ("." and empty ones do not). */
static size_t path_depth(const char *p)
{
	size_t depth = 0;

	while (*p) {
		size_t n = strcspn(p, "/");

		if (n && !(n == 1 && p[0] == '.'))
			depth++;
		p += n;
		while (*p == '/')
			p++;
	}
	return depth;
}

/* What a snapshot archive may be, for the message that refuses the rest. */
#define SNAPSHOT_FORMATS "a tar archive, plain or compressed with gzip, bzip2, xz or zstd"

struct xstate {
	struct archive *in, *out;
	const char *archive, *templ;
	const struct nicfit__snapshot_limits *lim;
	size_t entries, bytes;
	size_t stated;               /* the ISIZEs of the gzip files read so far */
	size_t inflated;             /* what they inflated to when measured */
};

static int over_limit(struct xstate *x, int entries, struct nicfit_error *err)
{
	if (entries)
		return nicfit_error_at(err, NICFIT_E_LIMIT, x->archive, 0, 0,
				       "larger than a snapshot can be (more than %zu entries)",
				       x->lim->max_entries);
	return nicfit_error_at(err, NICFIT_E_LIMIT, x->archive, 0, 0,
			       "larger than a snapshot can be (more than %zu MiB of file content; "
			       "refused after %zu entries)",
			       x->lim->max_bytes >> 20, x->entries);
}

/*
 * Copy one file's data, counting the bytes that are actually written: a
 * header's declared size is only a claim (a streaming format leaves it
 * unknown), so the bound holds on what reaches the disk, and on how far
 * into the file a block lands (a sparse entry could make a huge file).
 */
static int copy_data(struct xstate *x, struct nicfit_error *err)
{
	const void *buf;
	size_t len;
	la_int64_t off;
	int r;

	while ((r = archive_read_data_block(x->in, &buf, &len, &off)) == ARCHIVE_OK) {
		if (off < 0 || (size_t)off > x->lim->max_bytes ||
		    len > x->lim->max_bytes - (size_t)off || len > x->lim->max_bytes - x->bytes)
			return over_limit(x, 0, err);
		x->bytes += len;
		if (archive_write_data_block(x->out, buf, len, off) != ARCHIVE_OK)
			return nicfit_error_at(err, NICFIT_E_IO, x->archive, 0, 0, "cannot unpack: %s",
					       archive_error_string(x->out));
	}
	if (r != ARCHIVE_EOF)
		return nicfit_error_at(err, NICFIT_E_DATA, x->archive, 0, 0, "%s",
				       archive_error_string(x->in));
	return 0;
}

/*
 * Write one entry of the archive in under templ: files, directories and
 * symbolic links only (no devices, FIFOs or hard links), no path that is
 * absolute, climbs with ".." or nests deeper than the bound, and with the
 * modes a snapshot needs rather than the archive's (a mode-000 directory
 * would make the tree impossible to fill or remove for anyone but root).
 * Returns 0 or a negative status.
 */
static int extract_entry(struct xstate *x, struct archive_entry *en, struct nicfit_error *err)
{
	mode_t type = archive_entry_filetype(en);
	const char *name = archive_entry_pathname(en);
	la_int64_t size = archive_entry_size(en);
	char full[2 * P_MAX], path[2 * P_MAX];
	int rc;

	if (type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
		return 0;
	if (archive_entry_hardlink(en))
		return 0;
	if (unsafe_path(name))
		return nicfit_error_at(err, NICFIT_E_DATA, x->archive, 0, 0,
				       "unsafe path '%.200s' (absolute or with ..)", name ? name : "");
	/* a copy: setting the pathname below frees the entry's own */
	if (snprintf(path, sizeof(path), "%s", name) >= (int)sizeof(path))
		return 0;
	if (path_depth(path) > x->lim->max_depth)
		return nicfit_error_at(err, NICFIT_E_LIMIT, x->archive, 0, 0,
				       "a path nests deeper than a snapshot can (%zu levels)",
				       x->lim->max_depth);
	if (type == AE_IFREG && size > 0 && (size_t)size > x->lim->max_bytes - x->bytes)
		return over_limit(x, 0, err);
	if (snprintf(full, sizeof(full), "%s/%s", x->templ, path) >= (int)sizeof(full))
		return 0;
	archive_entry_set_pathname(en, full);
	archive_entry_set_perm(en, type == AE_IFDIR ? 0755 : type == AE_IFLNK ? 0777 : 0644);
	if (archive_write_header(x->out, en) != ARCHIVE_OK)
		return nicfit_error_at(err, NICFIT_E_DATA, x->archive, 0, 0, "%.200s: %s", path,
				       archive_error_string(x->out));
	if (type == AE_IFREG) {
		rc = copy_data(x, err);
		if (rc)
			return rc;
	}
	if (archive_write_finish_entry(x->out) < ARCHIVE_WARN)
		return nicfit_error_at(err, NICFIT_E_IO, x->archive, 0, 0, "cannot unpack: %s",
				       archive_error_string(x->out));
	return 0;
}

/*
 * Only what a snapshot can be: tar (ustar, pax, GNU), alone or through
 * gzip, bzip2, xz or zstd, recognized by content whatever the name. A
 * filter libarchive cannot run in process falls back to the external
 * program (ARCHIVE_WARN), which is still that format.
 */
static int open_archive(struct xstate *x, struct nicfit_error *err)
{
	archive_read_support_format_tar(x->in);
	archive_read_support_filter_gzip(x->in);
	archive_read_support_filter_bzip2(x->in);
	archive_read_support_filter_xz(x->in);
	archive_read_support_filter_zstd(x->in);
	archive_write_disk_set_options(x->out, ARCHIVE_EXTRACT_SECURE_SYMLINKS |
					       ARCHIVE_EXTRACT_SECURE_NODOTDOT);
	if (archive_read_open_filename(x->in, x->archive, 65536) != ARCHIVE_OK)
		return nicfit_error_at(err, NICFIT_E_DATA, x->archive, 0, 0,
				       "not a snapshot archive (nicfit reads " SNAPSHOT_FORMATS ")");
	return 0;
}

/*
 * A bundle's gzip file, entry n, whose data comes next in a (first block
 * buf[0..len)): read whole when the walk could read it (up to
 * max_gzip_file compressed), then what it says it holds is added to the
 * stated total and what it really holds is measured against the running
 * total of inflated bytes, so that the archive's budget holds while it is
 * read: a bomb that says it is small (a forged ISIZE) is refused at its
 * own entry, named, not after the archive is unpacked. A file that says
 * it holds more than the walk reads (one member over max_gzip_file) is
 * not inflated: the walk passes it over unread. Damaged data is left to
 * the walk, which passes it over too.
 */
static int scan_gzip(struct xstate *x, struct archive *a, struct archive_entry *en, size_t n,
		     const void *buf, size_t len, struct nicfit_error *err)
{
	la_int64_t size = archive_entry_size(en), off;
	struct nicfit__gz_claim cl;
	size_t have = 0, got, stop;
	unsigned char *gz;
	int r, rc = 0;

	if (size <= 0 || (size_t)size > x->lim->max_gzip_file || !nicfit__gz_magic(buf, len))
		return 0;
	gz = malloc((size_t)size);
	if (!gz)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	do {
		if (len > (size_t)size - have)
			len = (size_t)size - have;
		memcpy(gz + have, buf, len);
		have += len;
	} while ((r = archive_read_data_block(a, &buf, &len, &off)) == ARCHIVE_OK);
	nicfit__gz_claim_of(gz, have, &cl);
	x->stated += cl.isize;
	if (x->stated > x->lim->max_inflate) {
		free(gz);
		return nicfit_error_at(err, NICFIT_E_LIMIT, x->archive, 0, 0, "more than %zu MiB "
				       "decompressed from its gzip files, as they say (refused "
				       "after %zu entries)", x->lim->max_inflate >> 20, n);
	}
	if (cl.single && cl.isize > x->lim->max_gzip_file) {
		free(gz);
		return 0;
	}
	stop = cl.single ? cl.isize : x->lim->max_gzip_file;
	if (stop > x->lim->max_inflate - x->inflated)
		stop = x->lim->max_inflate - x->inflated;
	r = nicfit__gz_measure(gz, have, stop, &got);
	free(gz);
	if (r < 0)
		return nicfit_error_set(err, r, "out of memory");
	if (got > x->lim->max_inflate - x->inflated)
		rc = nicfit_error_at(err, NICFIT_E_LIMIT, x->archive, 0, 0, "more than %zu MiB "
				     "decompressed from its gzip files (refused after %zu entries)",
				     x->lim->max_inflate >> 20, n);
	else if (cl.single && got > cl.isize) {
		const char *path = archive_entry_pathname(en);
		char name[sizeof(err->input)];

		snprintf(name, sizeof(name), "%s/%s", x->archive, path ? path : "?");
		rc = nicfit_error_at(err, NICFIT_E_DATA, name, 0, 0, "inflates past the %zu bytes "
				     "its gzip trailer says it holds (a forged size, or 4 GiB and "
				     "more); refused", cl.isize);
	}
	x->inflated += got;
	return rc;
}

/*
 * Read the archive once before anything is written, stopping at the
 * first entry past a bound: entries counted, file content summed as the
 * headers state it (a refusal then costs reading headers, not writing
 * and removing a hundred thousand files, or decompressing gigabytes of
 * an entry that will be refused anyway), and in a bundle each gzip file
 * measured (scan_gzip). A read error here is left to the pass that
 * extracts, which words it.
 */
static int scan_archive(struct xstate *x, struct nicfit_error *err)
{
	struct archive *a = archive_read_new();
	struct archive_entry *en;
	const void *buf;
	size_t n = 0, bytes = 0, len;
	la_int64_t size, off;
	int r, rc = 0;

	if (!a)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	archive_read_support_format_tar(a);
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_bzip2(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_zstd(a);
	if (archive_read_open_filename(a, x->archive, 65536) == ARCHIVE_OK)
		while (!rc && ((r = archive_read_next_header(a, &en)) == ARCHIVE_OK ||
			       r == ARCHIVE_WARN)) {
			x->entries = ++n;
			size = archive_entry_size(en);
			if (n > x->lim->max_entries) {
				rc = over_limit(x, 1, err);
				break;
			}
			if (size <= 0)
				continue;
			if ((size_t)size > x->lim->max_bytes - bytes) {
				rc = over_limit(x, 0, err);
				break;
			}
			bytes += (size_t)size;
			if (x->lim->max_inflate && archive_entry_filetype(en) == AE_IFREG &&
			    !archive_entry_hardlink(en) &&
			    archive_read_data_block(a, &buf, &len, &off) == ARCHIVE_OK)
				rc = scan_gzip(x, a, en, n, buf, len, err);
		}
	archive_read_free(a);
	x->entries = 0;
	return rc;
}

static int extract_all(struct xstate *x, struct nicfit_error *err)
{
	struct archive_entry *en;
	int rc, r;

	rc = scan_archive(x, err);
	if (rc)
		return rc;
	rc = open_archive(x, err);
	if (rc)
		return rc;
	while ((r = archive_read_next_header(x->in, &en)) == ARCHIVE_OK ||
	       r == ARCHIVE_WARN) {
		if (++x->entries > x->lim->max_entries)
			return over_limit(x, 1, err);
		rc = extract_entry(x, en, err);
		if (rc)
			return rc;
	}
	if (r == ARCHIVE_EOF)
		return 0;
	if (x->entries == 0)
		return nicfit_error_at(err, NICFIT_E_DATA, x->archive, 0, 0,
				       "not a snapshot archive (nicfit reads " SNAPSHOT_FORMATS ")");
	return nicfit_error_at(err, NICFIT_E_DATA, x->archive, 0, 0, "%s",
			       archive_error_string(x->in));
}

static int extract_into(const char *archive, const struct nicfit__snapshot_limits *lim,
			int any_tree, char **tmpdir, char **root, struct nicfit_error *err)
{
	static const struct nicfit__snapshot_limits dflt = {
		NICFIT_SNAPSHOT_MAX_BYTES, NICFIT_SNAPSHOT_MAX_ENTRIES, NICFIT_SNAPSHOT_MAX_DEPTH, 0, 0
	};
	const char *tmp = getenv("TMPDIR");
	struct xstate x;
	char templ[P_MAX];
	struct stat sb;
	int rc = 0;

	*tmpdir = *root = NULL;
	memset(&x, 0, sizeof(x));
	x.archive = archive;
	x.templ = templ;
	x.lim = lim ? lim : &dflt;
	rc = nicfit__arc_load(err);
	if (rc)
		return rc;
	if (stat(archive, &sb))
		return nicfit_error_at(err, errno == ENOENT ? NICFIT_E_NOTFOUND : NICFIT_E_IO, archive,
				       0, 0, "%s", strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return nicfit_error_at(err, NICFIT_E_DATA, archive, 0, 0,
				       "not a snapshot archive (not a regular file)");
	if (access(archive, R_OK))
		return nicfit_error_at(err, NICFIT_E_IO, archive, 0, 0, "%s", strerror(errno));
	if (snprintf(templ, sizeof(templ), "%s/nicfit-snapshot-XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
	    (int)sizeof(templ))
		return nicfit_error_at(err, NICFIT_E_IO, tmp, 0, 0, "TMPDIR is too long");
	if (!mkdtemp(templ))
		return nicfit_error_at(err, NICFIT_E_IO, templ, 0, 0, "%s", strerror(errno));
	nicfit__snapshot_pending_add(templ);
	x.in = archive_read_new();
	x.out = archive_write_disk_new();
	if (!x.in || !x.out)
		rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	else
		rc = extract_all(&x, err);
	if (x.in)
		archive_read_free(x.in);
	if (x.out)
		archive_write_free(x.out);
	if (!rc) {
		*root = find_root(templ);
		if (!*root && any_tree && !(*root = strdup(templ)))
			rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		else if (!*root)
			rc = nicfit_error_at(err, NICFIT_E_DATA, archive, 0, 0,
					     "holds no sys/ directory (not a sysfs snapshot)");
	}
	if (!rc) {
		*tmpdir = strdup(templ);
		if (!*tmpdir)
			rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	if (rc) {
		free(*root);
		*root = NULL;
		nicfit_snapshot_remove_tree(templ);
	}
	return rc;
}

int nicfit__snapshot_extract_limited(const char *archive, const struct nicfit__snapshot_limits *lim,
				     char **tmpdir, char **root, struct nicfit_error *err)
{
	return extract_into(archive, lim, 0, tmpdir, root, err);
}

int nicfit_snapshot_extract_bundle(const char *archive, char **tmpdir, char **root,
				   struct nicfit_error *err)
{
	/*
	 * The dump reader's budget (NICFIT_DUMP_MAX_INFLATE, 128 MiB) on what
	 * the bundle's gzip files say they hold and on what they inflate to,
	 * and its bound on one file (NICFIT_DUMP_MAX_FILE, 16 MiB), checked
	 * as the archive is read, before anything is written: a bundle of
	 * gzip bombs, forged sizes or not, is refused at the entry that
	 * spends the budget (the walk still counts what it inflates).
	 */
	static const struct nicfit__snapshot_limits bundle = {
		NICFIT_SNAPSHOT_MAX_BYTES, NICFIT_SNAPSHOT_MAX_ENTRIES, NICFIT_SNAPSHOT_MAX_DEPTH,
		(size_t)128 << 20, (size_t)16 << 20
	};

	return extract_into(archive, &bundle, 1, tmpdir, root, err);
}

int nicfit_snapshot_extract(const char *archive, char **tmpdir, char **root,
			    struct nicfit_error *err)
{
	return nicfit__snapshot_extract_limited(archive, NULL, tmpdir, root, err);
}
