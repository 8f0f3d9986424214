/*
 * snapshot_take.c - taking a snapshot: record what discovery reads, then
 * copy exactly that into a directory or an archive, with a manifest
 * (nicfit_snapshot_take; see nicfit/snapshot.h). Reading an archive back
 * is snapshot_extract.c; the libarchive table is snapshot.c's.
 *
 * Writing walks each recorded path one component at a time in the source
 * tree: a component that is a symbolic link there is written as that link
 * and the walk continues at its target, so paths that were read through a
 * link (sys/class/dmi/id is one) come out with the same shape. Every path
 * is written once; parents come before children.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "core/file_int.h"
#define NICFIT_ARCHIVE_CALLS
#include "core/archive_int.h"
#include "host/snapshot_int.h"
#include "nicfit/buf.h"
#include "nicfit/snapshot.h"
#include "nicfit/sysfs.h"
#include "nicfit/topo.h"
#include "nicfit/version.h"

#define P_MAX NICFIT_SYSFS_PATH_MAX
#define MAX_HOPS 40
/* why a destination is refused (exit 64: nicfit_snapshot_take's NICFIT_E_USAGE) */
#define DEST_EXISTS "already exists; give a new directory or archive name"
#define DEST_LINK "is a symbolic link (a snapshot is never written through one); give a new " \
		  "directory or archive name"

/* ---- a set of written paths ---------------------------------------------------- */

struct pathset {
	char **v;
	size_t cap, n;
};

static size_t phash(const char *s)
{
	size_t h = 5381;

	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

/* 1 when added, 0 when already there, -1 out of memory. */
static int set_add(struct pathset *s, const char *path)
{
	size_t k, i;

	if ((s->n + 1) * 2 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		char **v = calloc(cap, sizeof(*v));

		if (!v)
			return -1;
		for (i = 0; i < s->cap; i++) {
			if (!s->v[i])
				continue;
			k = phash(s->v[i]) & (cap - 1);
			while (v[k])
				k = (k + 1) & (cap - 1);
			v[k] = s->v[i];
		}
		free(s->v);
		s->v = v;
		s->cap = cap;
	}
	k = phash(path) & (s->cap - 1);
	while (s->v[k]) {
		if (!strcmp(s->v[k], path))
			return 0;
		k = (k + 1) & (s->cap - 1);
	}
	s->v[k] = strdup(path);
	if (!s->v[k])
		return -1;
	s->n++;
	return 1;
}

static void set_free(struct pathset *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* ---- sinks: a directory or an archive ----------------------------------------- */

struct sink {
	int dirfd;                   /* directory sink */
	struct archive *ar;          /* archive sink */
	char prefix[256];            /* top directory inside the archive */
	time_t now;
	struct pathset done;
	struct nicfit_snapshot_result *res;
	int err;                     /* first errno */
};

static void sink_fail(struct sink *k, int e)
{
	if (!k->err)
		k->err = e ? e : EIO;
}

static void ar_entry(struct sink *k, const char *path, mode_t type, mode_t perm,
		     const void *data, size_t len, const char *target)
{
	struct archive_entry *en = archive_entry_new();
	char full[P_MAX + 300];

	if (!en) {
		sink_fail(k, ENOMEM);
		return;
	}
	snprintf(full, sizeof(full), "%s%s%s", k->prefix, path[0] ? "/" : "", path);
	archive_entry_set_pathname(en, full);
	archive_entry_set_filetype(en, type);
	archive_entry_set_perm(en, perm);
	archive_entry_set_mtime(en, k->now, 0);
	archive_entry_set_size(en, type == AE_IFREG ? (la_int64_t)len : 0);
	if (target)
		archive_entry_set_symlink(en, target);
	/*
	 * ARCHIVE_WARN: a name that is not valid in the locale's charset (a
	 * sysfs name is any bytes). The pax writer then stores it as raw bytes
	 * (hdrcharset=BINARY), which reads back unchanged: not an error.
	 */
	if (archive_write_header(k->ar, en) < ARCHIVE_WARN)
		sink_fail(k, EIO);
	else if (type == AE_IFREG && len && archive_write_data(k->ar, data, len) != (la_ssize_t)len)
		sink_fail(k, EIO);
	archive_entry_free(en);
}

static void put_dir(struct sink *k, const char *path)
{
	int r = set_add(&k->done, path);

	if (r <= 0) {
		if (r < 0)
			sink_fail(k, ENOMEM);
		return;
	}
	k->res->dirs++;
	if (k->ar)
		ar_entry(k, path, AE_IFDIR, 0755, NULL, 0, NULL);
	else if (mkdirat(k->dirfd, path, 0755) && errno != EEXIST)
		sink_fail(k, errno);
}

static void put_link(struct sink *k, const char *path, const char *target)
{
	int r = set_add(&k->done, path);

	if (r <= 0) {
		if (r < 0)
			sink_fail(k, ENOMEM);
		return;
	}
	k->res->links++;
	if (k->ar)
		ar_entry(k, path, AE_IFLNK, 0777, NULL, 0, target);
	else if (symlinkat(target, k->dirfd, path) && errno != EEXIST)
		sink_fail(k, errno);
}

static void put_file(struct sink *k, const char *path, const void *data, size_t len)
{
	int r = set_add(&k->done, path), fd;

	if (r <= 0) {
		if (r < 0)
			sink_fail(k, ENOMEM);
		return;
	}
	k->res->files++;
	k->res->bytes += len;
	if (k->ar) {
		ar_entry(k, path, AE_IFREG, 0644, data, len, NULL);
		return;
	}
	fd = openat(k->dirfd, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		sink_fail(k, errno);
		return;
	}
	while (len) {
		ssize_t w = write(fd, data, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			sink_fail(k, errno);
			break;
		}
		data = (const char *)data + w;
		len -= (size_t)w;
	}
	if (close(fd))
		sink_fail(k, errno);
}

/* ---- walking recorded paths through the source tree ---------------------------- */

/*
 * Where a walk continues after a link: the link's directory and its
 * target joined as the kernel resolves them (nicfit__path_join), then the
 * rest of the path below the link. rest is relative even when it starts
 * with '/' (an empty component, which the join drops anyway).
 */
static int join(const char *dir, const char *target, const char *rest, char *out, size_t cap)
{
	char at[3 * P_MAX];

	while (*rest == '/')
		rest++;
	if (nicfit__path_join(at, sizeof(at), dir, target))
		return -1;
	return nicfit__path_join(out, cap, at, rest);
}

/*
 * Make sure every directory and link leading to path exists in the sink.
 * *final gets the path with every link in its directory part followed;
 * returns 0, or -1 when the path cannot be walked.
 */
static int walk_parents(struct sink *k, int srcfd, const char *path, char *final, size_t cap)
{
	char cur[P_MAX], work[3 * P_MAX];
	int hops = 0;

	if (snprintf(work, sizeof(work), "%s", path) >= (int)sizeof(work))
		return -1;
again:
	cur[0] = '\0';
	{
		const char *p = work;

		for (;;) {
			size_t n = strcspn(p, "/");
			char tmp[P_MAX];
			struct stat sb;

			if (!p[n]) { /* last component: the caller writes it */
				if (snprintf(final, cap, "%s%s%.*s", cur, cur[0] ? "/" : "", (int)n, p) >=
				    (int)cap)
					return -1;
				return 0;
			}
			if (snprintf(tmp, sizeof(tmp), "%s%s%.*s", cur, cur[0] ? "/" : "", (int)n, p) >=
			    (int)sizeof(tmp))
				return -1;
			if (fstatat(srcfd, tmp, &sb, AT_SYMLINK_NOFOLLOW))
				return -1;
			if (S_ISLNK(sb.st_mode)) {
				char target[P_MAX], next[3 * P_MAX];
				ssize_t ln = readlinkat(srcfd, tmp, target, sizeof(target) - 1);

				if (ln <= 0 || ++hops > MAX_HOPS)
					return -1;
				target[ln] = '\0';
				put_link(k, tmp, target);
				if (join(cur, target, p + n + 1, next, sizeof(next)))
					return -1;
				memcpy(work, next, strlen(next) + 1);
				goto again;
			}
			put_dir(k, tmp);
			memcpy(cur, tmp, strlen(tmp) + 1);
			p += n + 1;
		}
	}
}

static void write_record(struct sink *k, int srcfd, const struct nicfit_rec *r)
{
	char final[P_MAX];

	if (r->type == NICFIT_REC_FAILED)
		return;
	if (!strcmp(r->path, ".") || !r->path[0])
		return;
	if (walk_parents(k, srcfd, r->path, final, sizeof(final)))
		return;
	switch (r->type) {
	case NICFIT_REC_DIR: {
		struct stat sb;

		/* a directory reached through a link is that link */
		if (!fstatat(srcfd, final, &sb, AT_SYMLINK_NOFOLLOW) && S_ISLNK(sb.st_mode)) {
			char target[P_MAX];
			ssize_t ln = readlinkat(srcfd, final, target, sizeof(target) - 1);

			if (ln > 0) {
				target[ln] = '\0';
				put_link(k, final, target);
				return;
			}
		}
		put_dir(k, final);
		break;
	}
	case NICFIT_REC_LINK:
		put_link(k, final, (const char *)r->data);
		break;
	case NICFIT_REC_FILE:
		put_file(k, final, r->data ? r->data : (const unsigned char *)"", r->len);
		break;
	default:
		break;
	}
}

static void manifest(struct sink *k, const char *root, struct nicfit_sysfs *fs)
{
	struct nicfit_buf b;
	char when[32];
	struct tm tm;
	size_t i, n = nicfit_sysfs_rec_count(fs), shown = 0;

	gmtime_r(&k->now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	nicfit_buf_init(&b, 0);
	nicfit_buf_addf(&b, "{\n  \"schema\": \"nicfit.snapshot.v1\",\n  \"nicfit_version\": \"%s\",\n"
			"  \"created_utc\": \"%s\",\n  \"source\": \"", NICFIT_VERSION, when);
	for (i = 0; root[i]; i++) {
		if (root[i] == '"' || root[i] == '\\')
			nicfit_buf_addch(&b, '\\');
		if ((unsigned char)root[i] >= 0x20)
			nicfit_buf_addch(&b, root[i]);
	}
	nicfit_buf_addf(&b, "\",\n  \"uid\": %ld,\n  \"privileged\": %s,\n  \"files\": %zu,\n"
			"  \"links\": %zu,\n  \"dirs\": %zu,\n  \"bytes\": %zu,\n  \"unreadable\": [",
			(long)geteuid(), k->res->privileged ? "true" : "false", k->res->files,
			k->res->links, k->res->dirs, k->res->bytes);
	for (i = 0; i < n; i++) {
		const struct nicfit_rec *r = nicfit_sysfs_rec(fs, i);
		const char *s;

		if (r->type != NICFIT_REC_FAILED)
			continue;
		nicfit_buf_addf(&b, "%s\n    {\"path\": \"", shown++ ? "," : "");
		for (s = r->path; *s; s++) {
			if (*s == '"' || *s == '\\')
				nicfit_buf_addch(&b, '\\');
			if ((unsigned char)*s >= 0x20)
				nicfit_buf_addch(&b, *s);
		}
		nicfit_buf_addf(&b, "\", \"problem\": \"%s\"}", nicfit_sysfs_problem_text(r->st, r->errnum));
	}
	nicfit_buf_addf(&b, "%s]\n}\n", shown ? "\n  " : "");
	if (!nicfit_buf_error(&b))
		put_file(k, "nicfit-snapshot.json", b.data, b.len);
	k->res->files--; /* the manifest is not part of the copy */
	k->res->bytes -= b.len;
	nicfit_buf_release(&b);
}

/* 1 when the directory open at fd holds nothing, else 0 (fd stays open). */
static int dir_is_empty(int fd)
{
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *d = dup >= 0 ? fdopendir(dup) : NULL;
	struct dirent *de;
	int empty = 1;

	if (!d) {
		if (dup >= 0)
			close(dup);
		return 0;
	}
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

/*
 * The temporary name beside dest, ".BASE.nicfit-PID.XXXXXX" (hidden, so
 * that nothing reads it as a snapshot), into out; its prefix up to the
 * PID's dot is *plen bytes of the base name. Returns 0, or -1 when it
 * does not fit.
 */
static int tmp_name(const char *dest, char *out, size_t cap, size_t *dirlen)
{
	const char *slash;
	size_t n = strlen(dest);

	while (n > 1 && dest[n - 1] == '/')
		n--;
	for (slash = dest + n; slash > dest && slash[-1] != '/'; slash--)
		;
	slash = slash > dest ? slash - 1 : NULL;
	*dirlen = slash ? (size_t)(slash - dest) + 1 : 0;
	return (size_t)snprintf(out, cap, "%.*s.%.*s.nicfit-%ld.XXXXXX", (int)*dirlen, dest,
				(int)(n - *dirlen), dest + *dirlen, (long)getpid()) >= cap ? -1 : 0;
}

/*
 * Remove what an earlier run killed while writing dest left beside it:
 * the temporary names of dest whose process is gone (kill(2) says
 * ESRCH). Another run's own are kept. At most 100,000 names are looked at.
 */
static void remove_stale(const char *dest)
{
	char tmpl[P_MAX + 64], dir[P_MAX], path[2 * P_MAX + 64], *pid_at;
	size_t dirlen, plen, seen = 0;
	struct dirent *de;
	DIR *d;

	if (tmp_name(dest, tmpl, sizeof(tmpl), &dirlen) || !(pid_at = strstr(tmpl + dirlen, ".nicfit-")))
		return;
	pid_at += strlen(".nicfit-");
	plen = (size_t)(pid_at - (tmpl + dirlen));
	snprintf(dir, sizeof(dir), "%.*s", dirlen ? (int)dirlen : 1, dirlen ? dest : ".");
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL && ++seen <= 100000) {
		char *end;
		long pid;

		if (strncmp(de->d_name, tmpl + dirlen, plen))
			continue;
		pid = strtol(de->d_name + plen, &end, 10);
		if (end == de->d_name + plen || *end != '.' || pid <= 0 || pid == (long)getpid() ||
		    !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) < sizeof(path))
			nicfit_snapshot_remove_tree(path);
	}
	closedir(d);
}

/* The marker a snapshot directory holds while it is written (removed last but one). */
#define PARTIAL_NAME "nicfit-snapshot.partial"

/*
 * The destination directory's stand-in, opened into *fd: a new temporary
 * directory beside dest (tmp, which a signal removes), holding the marker
 * PARTIAL_NAME, renamed to dest once whole (finish_dir). A run stopped
 * half-way leaves no dest, and its stand-in is refused by the audit
 * (nicfit_snapshot_check) and removed by the next run that writes dest.
 * The copy is written relative to the descriptor, so a name swapped for a
 * link afterwards changes nothing. Returns 0 or a negative status.
 */
static int open_dest_dir(const char *dest, char *tmp, size_t cap, int *fd,
			 struct nicfit_error *err)
{
	size_t dirlen;
	int m;

	remove_stale(dest);
	if (tmp_name(dest, tmp, cap, &dirlen))
		return nicfit_error_at(err, NICFIT_E_USAGE, dest, 0, 0, "path too long");
	if (!mkdtemp(tmp))
		return nicfit_error_at(err, NICFIT_E_IO, dest, 0, 0, "cannot make a directory "
				       "beside it: %s", strerror(errno));
	nicfit__snapshot_pending_add(tmp);
	if (chmod(tmp, 0755)) {
		/* mkdtemp's 0700 stays: the snapshot is then the owner's alone */
	}
	*fd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	m = *fd >= 0 ? openat(*fd, PARTIAL_NAME, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
	if (m < 0) {
		int e = errno;

		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		nicfit_snapshot_remove_tree(tmp);
		return nicfit_error_at(err, NICFIT_E_IO, dest, 0, 0, "%s", strerror(e));
	}
	close(m);
	return 0;
}

/*
 * The stand-in becomes dest: the marker removed, then renamed over the
 * name (nothing there, or the empty directory that was). 0 or an errno.
 */
static int finish_dir(int dirfd, const char *tmp, const char *dest)
{
	struct stat sb;

	if (unlinkat(dirfd, PARTIAL_NAME, 0) || fsync(dirfd))
		return errno;
	if (!lstat(dest, &sb) && !S_ISDIR(sb.st_mode))
		return EEXIST;
	if (rename(tmp, dest))
		return errno == ENOTEMPTY ? EEXIST : errno;
	return 0;
}

static mode_t current_umask(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

/*
 * The destination archive's stand-in, created here into *fd under a
 * temporary name beside dest (tmp), linked to dest once whole
 * (finish_archive): a run stopped half-way leaves no archive at dest, and
 * the next run that writes dest removes the stand-in. Returns 0 or a
 * negative status.
 */
static int open_dest_archive(const char *dest, char *tmp, size_t cap, int *fd,
			     struct nicfit_error *err)
{
	size_t dirlen;

	remove_stale(dest);
	if (tmp_name(dest, tmp, cap, &dirlen))
		return nicfit_error_at(err, NICFIT_E_USAGE, dest, 0, 0, "path too long");
	*fd = mkstemp(tmp);
	if (*fd < 0)
		return nicfit_error_at(err, NICFIT_E_IO, dest, 0, 0, "cannot make a file beside "
				       "it: %s", strerror(errno));
	/* a partial archive is no snapshot: ^C or SIGTERM removes it too */
	nicfit__snapshot_pending_add(tmp);
	if (fcntl(*fd, F_SETFD, FD_CLOEXEC) || fchmod(*fd, 0666 & ~current_umask())) {
		int e = errno;

		close(*fd);
		*fd = -1;
		unlink(tmp);
		nicfit__snapshot_pending_drop(tmp);
		return nicfit_error_at(err, NICFIT_E_IO, dest, 0, 0, "%s", strerror(e));
	}
	return 0;
}

/*
 * The whole archive under its name: link(2) refuses a name that came to
 * exist meanwhile (a link included), as O_EXCL did. 0 or an errno; the
 * stand-in is removed either way.
 */
static int finish_archive(const char *tmp, const char *dest)
{
	int e = link(tmp, dest) ? errno : 0;

	unlink(tmp);
	return e;
}

/*
 * Refuse at once a destination that is there, before discovery runs:
 * anything but an empty directory, and a link whatever it names. The
 * opens above check again when writing, as the name may change meanwhile.
 */
static int check_dest(const char *dest, int archive, struct nicfit_error *err)
{
	struct stat sb;
	int fd, empty;

	if (lstat(dest, &sb))
		return 0;
	if (S_ISLNK(sb.st_mode))
		return nicfit_error_at(err, NICFIT_E_USAGE, dest, 0, 0, "%s", DEST_LINK);
	if (archive || !S_ISDIR(sb.st_mode))
		return nicfit_error_at(err, NICFIT_E_USAGE, dest, 0, 0, "%s", DEST_EXISTS);
	fd = open(dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	empty = fd >= 0 && dir_is_empty(fd);
	if (fd >= 0)
		close(fd);
	return empty ? 0 : nicfit_error_at(err, NICFIT_E_USAGE, dest, 0, 0, "%s", DEST_EXISTS);
}

static int add_filter(struct archive *ar, const char *dest)
{
	size_t n = strlen(dest);

#define ENDS(x) (n > sizeof(x) - 1 && !strcmp(dest + n - (sizeof(x) - 1), x))
	if (ENDS(".tar.bz2") || ENDS(".tbz2"))
		return archive_write_add_filter_bzip2(ar);
	if (ENDS(".tar.xz") || ENDS(".txz"))
		return archive_write_add_filter_xz(ar);
	if (ENDS(".tar.zst"))
		return archive_write_add_filter_zstd(ar);
	if (ENDS(".tar"))
		return ARCHIVE_OK;
#undef ENDS
	return archive_write_add_filter_gzip(ar);
}

static void archive_prefix(const char *dest, char *out, size_t cap)
{
	const char *b = strrchr(dest, '/');
	size_t n;

	b = b ? b + 1 : dest;
	n = strlen(b);
	if (n > 7 && !strcmp(b + n - 7, ".tar.gz"))
		n -= 7;
	else if (n > 4 && !strcmp(b + n - 4, ".tgz"))
		n -= 4;
	else if (strstr(b, ".tar"))
		n = (size_t)(strstr(b, ".tar") - b);
	if (!n)
		snprintf(out, cap, "nicfit-snapshot");
	else
		snprintf(out, cap, "%.*s", (int)n, b);
}

/*
 * The archive sink: libarchive loaded, dest opened and its name kept for
 * removal if the snapshot stops half-way, the writer set to the filter the
 * name asks for, and the archive's root directory entry written.
 */
static int open_sink_archive(struct sink *k, const char *dest, char *tmp, size_t cap,
			     int *arfd, struct nicfit_error *err)
{
	int rc;

	rc = nicfit__arc_load(err);
	if (rc)
		return rc;
	archive_prefix(dest, k->prefix, sizeof(k->prefix));
	rc = open_dest_archive(dest, tmp, cap, arfd, err);
	if (rc)
		return rc;
	k->ar = archive_write_new();
	if (!k->ar || archive_write_set_format_pax_restricted(k->ar) != ARCHIVE_OK ||
	    add_filter(k->ar, dest) != ARCHIVE_OK ||
	    archive_write_open_fd(k->ar, *arfd) != ARCHIVE_OK) {
		rc = nicfit_error_at(err, NICFIT_E_IO, dest, 0, 0, "%s",
				     k->ar ? archive_error_string(k->ar) : "out of memory");
		if (k->ar)
			archive_write_free(k->ar);
		k->ar = NULL;
		close(*arfd);
		unlink(tmp);
		nicfit__snapshot_pending_drop(tmp);
		return rc;
	}
	ar_entry(k, "", AE_IFDIR, 0755, NULL, 0, NULL);
	return 0;
}

/* Each record into the sink; the ones that could not be read into res->failed. */
static void write_records(struct sink *k, int srcfd, struct nicfit_sysfs *fs,
			  struct nicfit_snapshot_result *res)
{
	size_t i, n = nicfit_sysfs_rec_count(fs);

	for (i = 0; i < n && !k->err; i++) {
		const struct nicfit_rec *r = nicfit_sysfs_rec(fs, i);

		if (r->type == NICFIT_REC_FAILED) {
			if (res->nfailed < NICFIT_SNAPSHOT_MAX_FAILURES) {
				res->failed[res->nfailed].path = strdup(r->path);
				res->failed[res->nfailed].why = nicfit_sysfs_problem_text(r->st, r->errnum);
			}
			res->nfailed++;
			continue;
		}
		write_record(k, srcfd, r);
	}
}

int nicfit_snapshot_take(const char *root, const char *dest,
			 struct nicfit_snapshot_result *res, struct nicfit_error *err)
{
	struct nicfit_sysfs *fs;
	struct nicfit_topo *topo = NULL;
	char tmp[P_MAX + 64];
	struct sink k;
	int rc, e, srcfd, arfd = -1;

	memset(res, 0, sizeof(*res));
	memset(&k, 0, sizeof(k));
	k.dirfd = -1;
	k.res = res;
	k.now = time(NULL);
	if (!root || !*root)
		root = "/";
	res->archive = nicfit_snapshot_is_archive(dest);
	rc = check_dest(dest, res->archive, err);
	if (rc)
		return rc;
	rc = nicfit_sysfs_open(root, &fs, err);
	if (rc)
		return rc;
	rc = nicfit_sysfs_record(fs, 1);
	if (rc) {
		nicfit_sysfs_close(fs);
		return nicfit_error_set(err, rc, "out of memory");
	}
	rc = nicfit_topo_discover_fs(fs, &topo, err);
	if (rc)
		goto out_fs;
	res->privileged = topo->privileged;
	nicfit_topo_free(topo);
	srcfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (srcfd < 0) {
		rc = nicfit_error_at(err, NICFIT_E_IO, root, 0, 0, "%s", strerror(errno));
		goto out_fs;
	}
	if (res->archive) {
		rc = open_sink_archive(&k, dest, tmp, sizeof(tmp), &arfd, err);
		if (rc)
			goto out_src;
	} else {
		rc = open_dest_dir(dest, tmp, sizeof(tmp), &k.dirfd, err);
		if (rc)
			goto out_src;
	}
	write_records(&k, srcfd, fs, res);
	/* the manifest last: a snapshot without it was cut or interrupted */
	if (!k.err)
		manifest(&k, root, fs);
	if (k.ar) {
		if (archive_write_close(k.ar) != ARCHIVE_OK)
			sink_fail(&k, EIO);
		archive_write_free(k.ar);
		/* archive_write_open_fd() leaves the descriptor to its owner */
		if (!k.err && fsync(arfd))
			sink_fail(&k, errno);
		if (close(arfd))
			sink_fail(&k, errno);
		if (!k.err && (e = finish_archive(tmp, dest)) != 0)
			sink_fail(&k, e);
	} else if (!k.err && (e = finish_dir(k.dirfd, tmp, dest)) != 0) {
		sink_fail(&k, e);
	}
	if (k.err == EEXIST)
		rc = nicfit_error_at(err, NICFIT_E_USAGE, dest, 0, 0, "%s", DEST_EXISTS);
	else if (k.err)
		rc = nicfit_error_at(err, NICFIT_E_IO, dest, 0, 0, "cannot write: %s", strerror(k.err));
	/* a partial snapshot is no snapshot: the stand-in goes */
	if (k.err)
		nicfit_snapshot_remove_tree(tmp);
	nicfit__snapshot_pending_drop(tmp);
	if (k.dirfd >= 0)
		close(k.dirfd);
out_src:
	close(srcfd);
out_fs:
	set_free(&k.done);
	nicfit_sysfs_close(fs);
	return rc;
}

void nicfit_snapshot_result_release(struct nicfit_snapshot_result *res)
{
	size_t i;

	for (i = 0; i < res->nfailed && i < NICFIT_SNAPSHOT_MAX_FAILURES; i++)
		free(res->failed[i].path);
	memset(res, 0, sizeof(*res));
}
