/*
 * snapshot.c - copy what discovery read into a directory or an archive,
 * and unpack archives for offline audit (see nicfit/snapshot.h).
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
#include <time.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "file_int.h"
#include "snapshot_int.h"
#include "nicfit/buf.h"
#include "nicfit/dynlib.h"
#include "nicfit/snapshot.h"
#include "nicfit/sysfs.h"
#include "nicfit/topo.h"
#include "nicfit/version.h"

/*
 * libarchive, loaded on first use (see nicfit/dynlib.h): its functions are
 * called through this table, under their own names.
 */
static struct {
	__typeof__(archive_entry_filetype) *entry_filetype;
	__typeof__(archive_entry_free) *entry_free;
	__typeof__(archive_entry_hardlink) *entry_hardlink;
	__typeof__(archive_entry_new) *entry_new;
	__typeof__(archive_entry_pathname) *entry_pathname;
	__typeof__(archive_entry_set_filetype) *entry_set_filetype;
	__typeof__(archive_entry_set_mtime) *entry_set_mtime;
	__typeof__(archive_entry_set_pathname) *entry_set_pathname;
	__typeof__(archive_entry_set_perm) *entry_set_perm;
	__typeof__(archive_entry_set_size) *entry_set_size;
	__typeof__(archive_entry_set_symlink) *entry_set_symlink;
	__typeof__(archive_entry_size) *entry_size;
	__typeof__(archive_error_string) *error_string;
	__typeof__(archive_read_data_block) *read_data_block;
	__typeof__(archive_read_free) *read_free;
	__typeof__(archive_read_new) *read_new;
	__typeof__(archive_read_next_header) *read_next_header;
	__typeof__(archive_read_open_filename) *read_open_filename;
	__typeof__(archive_read_support_filter_bzip2) *read_support_filter_bzip2;
	__typeof__(archive_read_support_filter_gzip) *read_support_filter_gzip;
	__typeof__(archive_read_support_filter_xz) *read_support_filter_xz;
	__typeof__(archive_read_support_filter_zstd) *read_support_filter_zstd;
	__typeof__(archive_read_support_format_tar) *read_support_format_tar;
	__typeof__(archive_write_add_filter_bzip2) *write_add_filter_bzip2;
	__typeof__(archive_write_add_filter_gzip) *write_add_filter_gzip;
	__typeof__(archive_write_add_filter_xz) *write_add_filter_xz;
	__typeof__(archive_write_add_filter_zstd) *write_add_filter_zstd;
	__typeof__(archive_write_close) *write_close;
	__typeof__(archive_write_data) *write_data;
	__typeof__(archive_write_data_block) *write_data_block;
	__typeof__(archive_write_disk_new) *write_disk_new;
	__typeof__(archive_write_disk_set_options) *write_disk_set_options;
	__typeof__(archive_write_finish_entry) *write_finish_entry;
	__typeof__(archive_write_free) *write_free;
	__typeof__(archive_write_header) *write_header;
	__typeof__(archive_write_new) *write_new;
	__typeof__(archive_write_open_filename) *write_open_filename;
	__typeof__(archive_write_set_format_pax_restricted) *write_set_format_pax_restricted;
} arc;

static const struct nicfit_dynsym arc_syms[] = {
	{ "archive_entry_filetype", (void **)&arc.entry_filetype },
	{ "archive_entry_free", (void **)&arc.entry_free },
	{ "archive_entry_hardlink", (void **)&arc.entry_hardlink },
	{ "archive_entry_new", (void **)&arc.entry_new },
	{ "archive_entry_pathname", (void **)&arc.entry_pathname },
	{ "archive_entry_set_filetype", (void **)&arc.entry_set_filetype },
	{ "archive_entry_set_mtime", (void **)&arc.entry_set_mtime },
	{ "archive_entry_set_pathname", (void **)&arc.entry_set_pathname },
	{ "archive_entry_set_perm", (void **)&arc.entry_set_perm },
	{ "archive_entry_set_size", (void **)&arc.entry_set_size },
	{ "archive_entry_set_symlink", (void **)&arc.entry_set_symlink },
	{ "archive_entry_size", (void **)&arc.entry_size },
	{ "archive_error_string", (void **)&arc.error_string },
	{ "archive_read_data_block", (void **)&arc.read_data_block },
	{ "archive_read_free", (void **)&arc.read_free },
	{ "archive_read_new", (void **)&arc.read_new },
	{ "archive_read_next_header", (void **)&arc.read_next_header },
	{ "archive_read_open_filename", (void **)&arc.read_open_filename },
	{ "archive_read_support_filter_bzip2", (void **)&arc.read_support_filter_bzip2 },
	{ "archive_read_support_filter_gzip", (void **)&arc.read_support_filter_gzip },
	{ "archive_read_support_filter_xz", (void **)&arc.read_support_filter_xz },
	{ "archive_read_support_filter_zstd", (void **)&arc.read_support_filter_zstd },
	{ "archive_read_support_format_tar", (void **)&arc.read_support_format_tar },
	{ "archive_write_add_filter_bzip2", (void **)&arc.write_add_filter_bzip2 },
	{ "archive_write_add_filter_gzip", (void **)&arc.write_add_filter_gzip },
	{ "archive_write_add_filter_xz", (void **)&arc.write_add_filter_xz },
	{ "archive_write_add_filter_zstd", (void **)&arc.write_add_filter_zstd },
	{ "archive_write_close", (void **)&arc.write_close },
	{ "archive_write_data", (void **)&arc.write_data },
	{ "archive_write_data_block", (void **)&arc.write_data_block },
	{ "archive_write_disk_new", (void **)&arc.write_disk_new },
	{ "archive_write_disk_set_options", (void **)&arc.write_disk_set_options },
	{ "archive_write_finish_entry", (void **)&arc.write_finish_entry },
	{ "archive_write_free", (void **)&arc.write_free },
	{ "archive_write_header", (void **)&arc.write_header },
	{ "archive_write_new", (void **)&arc.write_new },
	{ "archive_write_open_filename", (void **)&arc.write_open_filename },
	{ "archive_write_set_format_pax_restricted", (void **)&arc.write_set_format_pax_restricted }
};

static const char *const arc_sonames[] = { "libarchive.so.13", "libarchive.so", NULL };

static struct nicfit_dynlib arc_lib = {
	"libarchive", arc_sonames, "libarchive13", arc_syms,
	sizeof(arc_syms) / sizeof(arc_syms[0]), 0, ""
};

#define archive_entry_filetype (*arc.entry_filetype)
#define archive_entry_free (*arc.entry_free)
#define archive_entry_hardlink (*arc.entry_hardlink)
#define archive_entry_new (*arc.entry_new)
#define archive_entry_pathname (*arc.entry_pathname)
#define archive_entry_set_filetype (*arc.entry_set_filetype)
#define archive_entry_set_mtime (*arc.entry_set_mtime)
#define archive_entry_set_pathname (*arc.entry_set_pathname)
#define archive_entry_set_perm (*arc.entry_set_perm)
#define archive_entry_set_size (*arc.entry_set_size)
#define archive_entry_set_symlink (*arc.entry_set_symlink)
#define archive_entry_size (*arc.entry_size)
#define archive_error_string (*arc.error_string)
#define archive_read_data_block (*arc.read_data_block)
#define archive_read_free (*arc.read_free)
#define archive_read_new (*arc.read_new)
#define archive_read_next_header (*arc.read_next_header)
#define archive_read_open_filename (*arc.read_open_filename)
#define archive_read_support_filter_bzip2 (*arc.read_support_filter_bzip2)
#define archive_read_support_filter_gzip (*arc.read_support_filter_gzip)
#define archive_read_support_filter_xz (*arc.read_support_filter_xz)
#define archive_read_support_filter_zstd (*arc.read_support_filter_zstd)
#define archive_read_support_format_tar (*arc.read_support_format_tar)
#define archive_write_add_filter_bzip2 (*arc.write_add_filter_bzip2)
#define archive_write_add_filter_gzip (*arc.write_add_filter_gzip)
#define archive_write_add_filter_xz (*arc.write_add_filter_xz)
#define archive_write_add_filter_zstd (*arc.write_add_filter_zstd)
#define archive_write_close (*arc.write_close)
#define archive_write_data (*arc.write_data)
#define archive_write_data_block (*arc.write_data_block)
#define archive_write_disk_new (*arc.write_disk_new)
#define archive_write_disk_set_options (*arc.write_disk_set_options)
#define archive_write_finish_entry (*arc.write_finish_entry)
#define archive_write_free (*arc.write_free)
#define archive_write_header (*arc.write_header)
#define archive_write_new (*arc.write_new)
#define archive_write_open_filename (*arc.write_open_filename)
#define archive_write_set_format_pax_restricted (*arc.write_set_format_pax_restricted)

#define P_MAX NICFIT_SYSFS_PATH_MAX
#define MAX_HOPS 40

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

int nicfit_snapshot_is_archive(const char *path)
{
	static const char *const ext[] = { ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz",
					   ".txz", ".tar.zst", ".tar", NULL };
	size_t n = strlen(path), e;
	struct stat sb;
	int i;

	for (i = 0; ext[i]; i++) {
		e = strlen(ext[i]);
		if (n > e && !strcmp(path + n - e, ext[i]))
			return 1;
	}
	/*
	 * Any other file that is not a directory is read as an archive too,
	 * and refused by its content when it is not one (a .zip says so,
	 * instead of "not a directory" from the tree reader).
	 */
	return !stat(path, &sb) && !S_ISDIR(sb.st_mode);
}

static int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int empty = 1;

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
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

int nicfit_snapshot_take(const char *root, const char *dest,
			 struct nicfit_snapshot_result *res, struct nicfit_error *err)
{
	struct nicfit_sysfs *fs;
	struct nicfit_topo *topo = NULL;
	struct sink k;
	struct stat sb;
	size_t i, n;
	int rc, srcfd;

	memset(res, 0, sizeof(*res));
	memset(&k, 0, sizeof(k));
	k.dirfd = -1;
	k.res = res;
	k.now = time(NULL);
	if (!root || !*root)
		root = "/";
	res->archive = nicfit_snapshot_is_archive(dest);
	if (!stat(dest, &sb) && (res->archive || !S_ISDIR(sb.st_mode) || !dir_is_empty(dest)))
		return nicfit_error_at(err, NICFIT_E_USAGE, dest, 0, 0,
				       "already exists; give a new directory or archive name");
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
		rc = nicfit_dynlib_load(&arc_lib, err);
		if (rc)
			goto out_src;
		archive_prefix(dest, k.prefix, sizeof(k.prefix));
		k.ar = archive_write_new();
		if (!k.ar || archive_write_set_format_pax_restricted(k.ar) != ARCHIVE_OK ||
		    add_filter(k.ar, dest) != ARCHIVE_OK ||
		    archive_write_open_filename(k.ar, dest) != ARCHIVE_OK) {
			rc = nicfit_error_at(err, NICFIT_E_IO, dest, 0, 0, "%s",
					     k.ar ? archive_error_string(k.ar) : "out of memory");
			if (k.ar)
				archive_write_free(k.ar);
			goto out_src;
		}
		ar_entry(&k, "", AE_IFDIR, 0755, NULL, 0, NULL);
	} else {
		if (mkdir(dest, 0755) && errno != EEXIST) {
			rc = nicfit_error_at(err, NICFIT_E_IO, dest, 0, 0, "%s", strerror(errno));
			goto out_src;
		}
		k.dirfd = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (k.dirfd < 0) {
			rc = nicfit_error_at(err, NICFIT_E_IO, dest, 0, 0, "%s", strerror(errno));
			goto out_src;
		}
	}
	n = nicfit_sysfs_rec_count(fs);
	for (i = 0; i < n && !k.err; i++) {
		const struct nicfit_rec *r = nicfit_sysfs_rec(fs, i);

		if (r->type == NICFIT_REC_FAILED) {
			if (res->nfailed < NICFIT_SNAPSHOT_MAX_FAILURES) {
				res->failed[res->nfailed].path = strdup(r->path);
				res->failed[res->nfailed].why = nicfit_sysfs_problem_text(r->st, r->errnum);
			}
			res->nfailed++;
			continue;
		}
		write_record(&k, srcfd, r);
	}
	if (!k.err)
		manifest(&k, root, fs);
	if (k.ar) {
		if (archive_write_close(k.ar) != ARCHIVE_OK)
			sink_fail(&k, EIO);
		archive_write_free(k.ar);
	}
	if (k.err) {
		rc = nicfit_error_at(err, NICFIT_E_IO, dest, 0, 0, "cannot write: %s", strerror(k.err));
		if (k.ar)
			unlink(dest); /* a partial archive is no snapshot */
	}
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

/* ---- reading archives back ---------------------------------------------------- */

/*
 * Remove name under dfd. A directory is first made u+rwx: an archive may
 * hold a read-only or mode-000 directory, which its owner can empty only
 * after that (root needs no such step, everyone else does). The depth
 * bound is above any depth extraction writes (NICFIT_SNAPSHOT_MAX_DEPTH).
 */
static int rm_at(int dfd, const char *name, int depth)
{
	struct stat sb;
	int rc = 0;

	if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW))
		return -1;
	if (S_ISDIR(sb.st_mode)) {
		struct dirent *de;
		DIR *d;
		int fd;

		if (depth > 4 * NICFIT_SNAPSHOT_MAX_DEPTH)
			return -1;
		if ((sb.st_mode & 0700) != 0700)
			fchmodat(dfd, name, (sb.st_mode & 07777) | 0700, 0);
		fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -1;
		d = fdopendir(fd);
		if (!d) {
			close(fd);
			return -1;
		}
		while ((de = readdir(d)) != NULL)
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
			    rm_at(dirfd(d), de->d_name, depth + 1))
				rc = -1;
		closedir(d);
		return unlinkat(dfd, name, AT_REMOVEDIR) ? -1 : rc;
	}
	return unlinkat(dfd, name, 0);
}

int nicfit_snapshot_remove_tree(const char *dir)
{
	return rm_at(AT_FDCWD, dir, 0);
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

static int extract_all(struct xstate *x, struct nicfit_error *err)
{
	struct archive_entry *en;
	int rc, r;

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

int nicfit__snapshot_extract_limited(const char *archive, const struct nicfit__snapshot_limits *lim,
				     char **tmpdir, char **root, struct nicfit_error *err)
{
	static const struct nicfit__snapshot_limits dflt = {
		NICFIT_SNAPSHOT_MAX_BYTES, NICFIT_SNAPSHOT_MAX_ENTRIES, NICFIT_SNAPSHOT_MAX_DEPTH
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
	rc = nicfit_dynlib_load(&arc_lib, err);
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
		if (!*root)
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

int nicfit_snapshot_extract(const char *archive, char **tmpdir, char **root,
			    struct nicfit_error *err)
{
	return nicfit__snapshot_extract_limited(archive, NULL, tmpdir, root, err);
}
