/*
 * dump_path.c - the inputs of nicfit_dump_add_path (see nicfit/dump.h):
 * standard input, a text file, a directory walked in name order (a
 * sosreport or a supportconfig unpacked), or a tar archive unpacked by
 * the snapshot reader, with its bounds, into a temporary directory that
 * is walked and removed. Files over NICFIT_DUMP_MAX_FILE and files with a
 * NUL byte near the start (binaries) are passed over in a walk; named on
 * their own they are an error.
 *
 * A gzip file that is not a tar inside is text compressed whole:
 * nvidia-bug-report.sh writes nvidia-bug-report.log.gz as one gzip member
 * per section, appended, and libarchive's gzip filter (with its raw
 * format) reads every member in turn. It is read into memory up to
 * NICFIT_DUMP_MAX_FILE bytes uncompressed, the bound of any text file;
 * a tar inside goes to the snapshot reader as before.
 *
 * What a gzip file says it holds (ISIZE, its last four bytes) is checked
 * before and while it is inflated: a file of one member (no second gzip
 * header in it) that says more than the bound is not inflated at all, and
 * one that inflates past what it says has a forged trailer and is refused
 * at that block, naming it, instead of being inflated to the bound.
 *
 * One reader decompresses at most NICFIT_DUMP_MAX_INFLATE bytes in all,
 * and one walk spends at most NICFIT_DUMP_MAX_CPU_S seconds of this
 * thread's CPU: past either the walk is refused, not read in part (a
 * tar.gz of 4,000 small gzip bombs inflated 16 MiB each, 122 s of CPU).
 * In a tar archive the same budget is applied while it is read, before
 * anything is unpacked (nicfit_snapshot_extract_bundle measures each gzip
 * file inside): a forged size or a spent budget is refused at its entry.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define NICFIT_ARCHIVE_CALLS
#include "core/archive_int.h"
#include "core/alloc_int.h"
#include "core/gzip_int.h"
#include "dump/dump_int.h"
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

static int is_tar(const char *text, size_t len)
{
	return len > 262 && !memcmp(text + 257, "ustar", 5);
}

#define GZ_SPENT 1      /* gunzip(): the reader's budget is spent */
#define GZ_FORGED 2     /* gunzip(): the file inflates past the size it states */

/* Refuse, before inflating, a one-member file that says it holds more than the bounds. */
static int gz_claim_check(struct nicfit_dump *d, const struct nicfit__gz_claim *cl, const char *name,
			  int *spent, struct nicfit_error *err)
{
	if (!cl || !cl->single)
		return 0;
	if (cl->isize > NICFIT_DUMP_MAX_INFLATE - d->inflated) {
		*spent = GZ_SPENT;
		return nicfit_error_at(err, NICFIT_E_LIMIT, name, 0, 0, "says it holds %zu MiB, more "
				       "than the %zu MiB left to decompress; refused before inflating",
				       cl->isize >> 20, (NICFIT_DUMP_MAX_INFLATE - d->inflated) >> 20);
	}
	if (cl->isize > NICFIT_DUMP_MAX_FILE)
		return nicfit_error_at(err, NICFIT_E_LIMIT, name, 0, 0, "more than %zu MiB "
				       "uncompressed (as its gzip trailer says)", NICFIT_DUMP_MAX_FILE >> 20);
	return 0;
}

/*
 * The uncompressed bytes of the gzip file at path (every member), into a
 * new *out; cl (or NULL) is what the file says it holds. Errors:
 * NICFIT_E_DATA (damaged, or a forged size: *spent GZ_FORGED),
 * NICFIT_E_LIMIT (more than NICFIT_DUMP_MAX_FILE uncompressed, or the
 * reader's budget: *spent GZ_SPENT), NICFIT_E_IO (no libarchive),
 * NICFIT_E_NOMEM.
 */
static int gunzip(struct nicfit_dump *d, const char *path, const char *name,
		  const struct nicfit__gz_claim *cl, char **out, size_t *len, int *spent,
		  struct nicfit_error *err)
{
	struct archive *a;
	struct archive_entry *en;
	const void *buf;
	size_t n, alloc = 0;
	la_int64_t off;
	char *text = NULL;
	int r, rc = nicfit__arc_load(err);

	*out = NULL;
	*len = 0;
	*spent = 0;
	if (!rc)
		rc = gz_claim_check(d, cl, name, spent, err);
	if (rc)
		return rc;
	a = archive_read_new();
	if (!a)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	archive_read_support_filter_gzip(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK ||
	    archive_read_next_header(a, &en) != ARCHIVE_OK)
		rc = nicfit_error_at(err, NICFIT_E_DATA, name, 0, 0, "not a readable gzip file");
	while (!rc && (r = archive_read_data_block(a, &buf, &n, &off)) == ARCHIVE_OK) {
		if (n > NICFIT_DUMP_MAX_INFLATE - d->inflated) {
			d->inflated = NICFIT_DUMP_MAX_INFLATE;
			*spent = 1;
			rc = nicfit_error_at(err, NICFIT_E_LIMIT, name, 0, 0, "more than %zu MiB "
					     "decompressed in all (the gzip files read so far); "
					     "refused", NICFIT_DUMP_MAX_INFLATE >> 20);
			break;
		}
		d->inflated += n;
		if (cl && cl->single && n > cl->isize - *len) {
			*spent = GZ_FORGED;
			rc = nicfit_error_at(err, NICFIT_E_DATA, name, 0, 0, "inflates past the %zu "
					     "bytes its gzip trailer says it holds (a forged size, "
					     "or 4 GiB and more); refused", cl->isize);
		} else if (n > NICFIT_DUMP_MAX_FILE - *len) {
			rc = nicfit_error_at(err, NICFIT_E_LIMIT, name, 0, 0, "more than %zu MiB "
					     "uncompressed", NICFIT_DUMP_MAX_FILE >> 20);
		} else if (NICFIT_ALLOC_GROW(text, *len + n + 1, alloc)) {
			rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		} else {
			memcpy(text + *len, buf, n);
			*len += n;
		}
	}
	if (!rc && r != ARCHIVE_EOF)
		rc = nicfit_error_at(err, NICFIT_E_DATA, name, 0, 0, "damaged gzip data: %s",
				     archive_error_string(a) ? archive_error_string(a) : "?");
	archive_read_free(a);
	if (rc) {
		free(text);
		*len = 0;
		return rc;
	}
	*out = text;
	return 0;
}

/* A gzip text (not a tar inside) into the reader; *tar set when it is a tar instead. */
static int add_gzip_text(struct nicfit_dump *d, const char *path, const char *name,
			 const struct nicfit__gz_claim *cl, int *tar, struct nicfit_error *err)
{
	char *text;
	size_t len;
	int spent, rc = gunzip(d, path, name, cl, &text, &len, &spent, err);

	*tar = 0;
	if (rc)
		return rc;
	if (is_tar(text, len))
		*tar = 1;
	else if (has_nul(text, len) || looks_packed(text, len))
		rc = nicfit_error_at(err, NICFIT_E_DATA, name, 0, 0, "binary data inside the "
				     "gzip file, not a text dump");
	else
		rc = nicfit_dump_add_text(d, name, text, len, err);
	free(text);
	return rc;
}

struct walk_ctx {
	struct nicfit_dump *d;
	size_t files;
	struct nicfit_error *err;
	const char *top;          /* what the user gave, for a budget's refusal */
	struct timespec cpu0;     /* this thread's CPU time when the walk began */
};

/* This thread's CPU time in seconds (a server reads dumps on many threads). */
static double cpu_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void walk_start(struct walk_ctx *w, struct nicfit_dump *d, const char *top,
		       struct nicfit_error *err)
{
	memset(w, 0, sizeof(*w));
	w->d = d;
	w->err = err;
	w->top = top;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &w->cpu0);
}

/* 0, or NICFIT_E_LIMIT once the walk has spent its CPU budget. */
static int walk_budget(struct walk_ctx *w)
{
	double used = cpu_now() - ((double)w->cpu0.tv_sec + (double)w->cpu0.tv_nsec / 1e9);

	if (used <= NICFIT_DUMP_MAX_CPU_S)
		return 0;
	return nicfit_error_at(w->err, NICFIT_E_LIMIT, w->top, 0, 0, "more than %d s of CPU "
			       "reading it (after %zu files); refused", NICFIT_DUMP_MAX_CPU_S,
			       w->files);
}

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
	rc = walk_budget(w);
	if (rc)
		return rc;
	if (nicfit_read_file(path, NICFIT_DUMP_MAX_FILE, &text, &len, NULL))
		return 0;
	if (nicfit__gz_magic(text, len)) { /* a compressed log (nvidia-bug-report.log.gz): read when text */
		struct nicfit_error skip;
		struct nicfit__gz_claim cl;
		int spent;

		nicfit__gz_claim_of(text, len, &cl);
		free(text);
		nicfit_error_clear(&skip);
		rc = gunzip(w->d, path, name, &cl, &text, &len, &spent, &skip);
		if (rc == NICFIT_E_NOMEM)
			return nicfit_error_set(w->err, rc, "out of memory");
		if (spent == GZ_FORGED) { /* hostile, not damaged: the walk is refused */
			if (w->err)
				*w->err = skip;
			return rc;
		}
		if (spent) /* the reader's budget: refused, not read in part */
			return nicfit_error_at(w->err, NICFIT_E_LIMIT, w->top, 0, 0, "more than %zu "
					       "MiB decompressed from its gzip files (at %.200s, "
					       "file %zu); refused", NICFIT_DUMP_MAX_INFLATE >> 20,
					       name, w->files);
		if (rc)
			return 0; /* damaged, or over the bound: passed over, as a large file is */
	}
	rc = has_nul(text, len) || looks_packed(text, len) ? 0 :
	     nicfit_dump_add_text(w->d, name, text, len, w->err);
	free(text);
	return rc;
}

/* Read every file under dir, in name order; name is dir as errors and citations say it. */
static int walk_dir(struct walk_ctx *w, const char *dir, const char *name, int depth)
{
	char **names;
	size_t n, i;
	int rc;

	if (depth > WALK_MAX_DEPTH)
		return 0;
	rc = nicfit_dir_list(dir, 0, NICFIT_DUMP_MAX_FILES, &names, &n);
	if (rc == NICFIT_E_IO)
		return depth ? 0 : nicfit_error_at(w->err, NICFIT_E_IO, name, 0, 0, "%s",
						   strerror(errno));
	if (rc == NICFIT_E_LIMIT)
		return nicfit_error_at(w->err, NICFIT_E_LIMIT, name, 0, 0,
				       "more than %d entries", NICFIT_DUMP_MAX_FILES);
	if (rc)
		return nicfit_error_set(w->err, NICFIT_E_NOMEM, "out of memory");
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
	}
	nicfit_dir_names_free(names, n);
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
	struct walk_ctx w;
	char *tmpdir = NULL, *root = NULL;
	/* the snapshot reader's bounds; a supportconfig or sosreport need not hold sys/ */
	int rc = nicfit_snapshot_extract_bundle(path, &tmpdir, &root, err);

	if (rc)
		return rc;
	walk_start(&w, d, path, err);
	rc = walk_dir(&w, tmpdir, path, 0);
	nicfit_snapshot_remove_tree(tmpdir);
	free(tmpdir);
	free(root);
	return rc;
}

int nicfit_dump_add_path(struct nicfit_dump *d, const char *path, struct nicfit_error *err)
{
	struct walk_ctx w;
	struct stat sb;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (strcmp(path, "-")) {
		if (stat(path, &sb))
			return nicfit_error_at(err, errno == ENOENT ? NICFIT_E_NOTFOUND : NICFIT_E_IO,
					       path, 0, 0, "%s", strerror(errno));
		if (S_ISDIR(sb.st_mode)) {
			walk_start(&w, d, path, err);
			return walk_dir(&w, path, path, 0);
		}
		if (archive_name(path))
			return add_archive(d, path, err);
	}
	rc = nicfit_read_file(path, NICFIT_DUMP_MAX_FILE, &text, &len, err);
	if (rc)
		return rc;
	if (strcmp(path, "-") && nicfit__gz_magic(text, len)) {
		struct nicfit__gz_claim cl;
		int tar;

		nicfit__gz_claim_of(text, len, &cl);
		free(text);
		rc = add_gzip_text(d, path, path, &cl, &tar, err);
		return !rc && tar ? add_archive(d, path, err) : rc;
	}
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
