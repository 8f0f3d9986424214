/*
 * test_snapshot.c - a snapshot holds exactly what the audit reads: the
 * audit of the copy (a directory, or an archive read back) equals the audit
 * of the original; damaged files are listed, not copied; archives with
 * unsafe paths are refused; an existing destination is never overwritten.
 * Hostile archives, built here with libarchive at test time: a streaming
 * zip named .tar.gz, content past the byte bound, too many entries, paths
 * nested too deep, gzip files inside a bundle that lie about their size or
 * spend its budget, read-only and mode-000 directories unpacked by a user
 * who is not root, non-archives; each is refused or unpacked and removed
 * with nothing left in $TMPDIR.
 */
#include "unit.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixtures.h"
#include "nicfit/audit.h"
#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/snapshot.h"
#include "nicfit/topo.h"
#include "host/snapshot_int.h"

static struct nicfit_catalog *cat;
static char tmp[256];

static int setup(void **state)
{
	struct nicfit_error err;

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/nicfit-test-snap-XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	nicfit_error_clear(&err);
	return nicfit_catalog_new(&cat, &err);
}

static int teardown(void **state)
{
	(void)state;
	nicfit_catalog_free(cat);
	return nicfit_snapshot_remove_tree(tmp);
}

/* The audit JSON of root, with the root itself blanked out, cut at key. */
static char *audit_json(const char *root, const char *cut)
{
	struct nicfit_topo *t = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	struct nicfit_emit *e;
	struct nicfit_buf b;
	char *p, *s;

	nicfit_error_clear(&err);
	if (nicfit_topo_discover(root, &t, &err))
		fail_msg("%s: %s", root, err.msg);
	snprintf(t->root, sizeof(t->root), "ROOT");
	if (nicfit_audit_judge(t, cat, NULL, &a, &err))
		fail_msg("audit: %s", err.msg);
	e = nicfit_emit_new(NICFIT_FMT_JSON, NICFIT_EMIT_PRETTY, 0);
	nicfit_buf_init(&b, 0);
	assert_int_equal(nicfit_audit_render(a, e), 0);
	assert_int_equal(nicfit_emit_finish(e, &b), 0);
	nicfit_emit_free(e);
	nicfit_audit_free(a);
	nicfit_topo_free(t);
	s = nicfit_buf_detach(&b, NULL);
	p = strstr(s, cut);
	if (p)
		*p = '\0';
	return s;
}

static void round_trip(void **state)
{
	static const char *const clean[] = { "epyc-gen4", "hgx-h100", "kvm-vm", "r740xd",
					     "x11-200g", "xenial-k44", NULL };
	int i;

	(void)state;
	for (i = 0; clean[i]; i++) {
		struct nicfit_snapshot_result res;
		struct nicfit_error err;
		char root[256], dir[512], arc[512], *tr, *tc, *ta, *unpacked;
		char *troot = NULL, *aroot = NULL;

		fixture(clean[i], root, sizeof(root));
		snprintf(dir, sizeof(dir), "%s/%s", tmp, clean[i]);
		snprintf(arc, sizeof(arc), "%s/%s.tar.gz", tmp, clean[i]);
		nicfit_error_clear(&err);
		if (nicfit_snapshot_take(root, dir, &res, &err))
			fail_msg("snapshot %s: %s", clean[i], err.msg);
		assert_int_equal(res.nfailed, 0);
		assert_true(res.files > 20);
		assert_true(res.links > 5);
		nicfit_snapshot_result_release(&res);
		if (nicfit_snapshot_take(root, arc, &res, &err))
			fail_msg("snapshot %s: %s", arc, err.msg);
		assert_true(res.archive);
		nicfit_snapshot_result_release(&res);
		if (nicfit_snapshot_extract(arc, &unpacked, &aroot, &err))
			fail_msg("extract %s: %s", arc, err.msg);
		troot = aroot;
		tr = audit_json(root, "\"read_problems_total\"");
		tc = audit_json(dir, "\"read_problems_total\"");
		ta = audit_json(troot, "\"read_problems_total\"");
		if (strcmp(tr, tc))
			fail_msg("%s: the audit of the directory copy differs", clean[i]);
		if (strcmp(tr, ta))
			fail_msg("%s: the audit of the archive differs", clean[i]);
		free(tr);
		free(tc);
		free(ta);
		nicfit_snapshot_remove_tree(unpacked);
		free(unpacked);
		free(aroot);
	}
}

static void damaged_source(void **state)
{
	struct nicfit_snapshot_result res;
	struct nicfit_error err;
	char root[256], dir[512];
	size_t i;
	int loop = 0, fifo = 0;

	(void)state;
	fixture("el7-v100", root, sizeof(root));
	snprintf(dir, sizeof(dir), "%s/el7", tmp);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_take(root, dir, &res, &err), 0);
	assert_int_equal(res.nfailed, 2);
	for (i = 0; i < res.nfailed; i++) {
		loop += strstr(res.failed[i].path, "loopdir") != NULL;
		fifo += strstr(res.failed[i].path, "numa_node") != NULL;
	}
	assert_int_equal(loop, 1);
	assert_int_equal(fifo, 1);
	nicfit_snapshot_result_release(&res);
	/* the copy's audit is the original's up to the findings (which count read problems) */
	{
		char *a = audit_json(root, "\"findings\""), *b = audit_json(dir, "\"findings\"");

		if (strcmp(a, b))
			fail_msg("el7-v100: the audit of the copy differs");
		free(a);
		free(b);
	}
	/* the manifest lists them too */
	{
		char path[600];
		FILE *f;
		char buf[4096];
		size_t n;

		snprintf(path, sizeof(path), "%s/nicfit-snapshot.json", dir);
		f = fopen(path, "r");
		assert_non_null(f);
		n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = '\0';
		fclose(f);
		assert_non_null(strstr(buf, "\"schema\": \"nicfit.snapshot.v1\""));
		assert_non_null(strstr(buf, "symbolic link loop"));
	}
	/* never over an existing destination */
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_take(root, dir, &res, &err), NICFIT_E_USAGE);
}

static void write_archive(const char *path, const char *entry, const char *target)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();

	archive_write_set_format_pax_restricted(a);
	archive_write_add_filter_gzip(a);
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	archive_entry_set_pathname(e, "x/sys/");
	archive_entry_set_filetype(e, AE_IFDIR);
	archive_entry_set_perm(e, 0755);
	archive_write_header(a, e);
	archive_entry_clear(e);
	archive_entry_set_pathname(e, entry);
	if (target) {
		archive_entry_set_filetype(e, AE_IFLNK);
		archive_entry_set_symlink(e, target);
	} else {
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_size(e, 2);
	}
	archive_entry_set_perm(e, 0644);
	archive_write_header(a, e);
	if (!target)
		archive_write_data(a, "x\n", 2);
	archive_entry_free(e);
	archive_write_close(a);
	archive_write_free(a);
}

static void unsafe_archives(void **state)
{
	struct nicfit_error err;
	char arc[512], *d = NULL, *r = NULL;

	(void)state;
	snprintf(arc, sizeof(arc), "%s/evil.tar.gz", tmp);
	write_archive(arc, "x/../../evil", NULL);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_extract(arc, &d, &r, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "unsafe"));
	assert_int_equal(access("/tmp/evil", F_OK), -1);
	unlink(arc);
	write_archive(arc, "/abs/path", NULL);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_extract(arc, &d, &r, &err), NICFIT_E_DATA);
	unlink(arc);
	/* a link may point anywhere, but nothing is written through it */
	write_archive(arc, "x/sys/class", "/etc");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_extract(arc, &d, &r, &err), 0);
	assert_non_null(strstr(r, "/x"));
	nicfit_snapshot_remove_tree(d);
	free(d);
	free(r);
	unlink(arc);
	/* not an archive, and no sys/ inside */
	snprintf(arc, sizeof(arc), "%s/plain.tar.gz", tmp);
	{
		FILE *f = fopen(arc, "w");

		fputs("not an archive\n", f);
		fclose(f);
	}
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_extract(arc, &d, &r, &err), NICFIT_E_DATA);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_extract("/nonexistent.tar.gz", &d, &r, &err),
			 NICFIT_E_NOTFOUND);
	assert_true(nicfit_snapshot_is_archive("a.tar.gz"));
	assert_true(nicfit_snapshot_is_archive("a.tgz"));
	assert_true(nicfit_snapshot_is_archive("gather.tar.bz2"));
	assert_false(nicfit_snapshot_is_archive("dir"));
	assert_false(nicfit_snapshot_is_archive(".tar"));
}

/* ---- hostile archives ---------------------------------------------------------- */

struct ent {
	const char *path;
	mode_t type;           /* AE_IFDIR, AE_IFREG, AE_IFLNK */
	mode_t perm;
	size_t size;           /* of a file: that many 'x' bytes */
	const char *target;    /* of a link */
};

/* An archive of format fmt (ARCHIVE_FORMAT_*), gzip-compressed, of ents. */
static void build(const char *path, int fmt, int declare_size, const struct ent *ents, size_t n)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	static char data[65536];
	size_t i;

	memset(data, 'x', sizeof(data));
	assert_int_equal(archive_write_set_format(a, fmt), ARCHIVE_OK);
	if (fmt != ARCHIVE_FORMAT_ZIP)
		archive_write_add_filter_gzip(a);
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	for (i = 0; i < n; i++) {
		size_t left = ents[i].size;

		archive_entry_clear(e);
		archive_entry_set_pathname(e, ents[i].path);
		archive_entry_set_filetype(e, ents[i].type);
		archive_entry_set_perm(e, ents[i].perm);
		if (ents[i].target)
			archive_entry_set_symlink(e, ents[i].target);
		if (ents[i].type == AE_IFREG && declare_size)
			archive_entry_set_size(e, (la_int64_t)ents[i].size);
		else if (ents[i].type == AE_IFREG)
			archive_entry_unset_size(e);
		assert_true(archive_write_header(a, e) >= ARCHIVE_WARN);
		while (left) {
			size_t k = left < sizeof(data) ? left : sizeof(data);

			assert_int_equal(archive_write_data(a, data, k), (la_ssize_t)k);
			left -= k;
		}
	}
	archive_entry_free(e);
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

/* A private $TMPDIR for extraction, so that what is left there can be seen. */
static char xtmp[600];
static char saved_tmpdir[600];

static void xtmp_begin(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(saved_tmpdir, sizeof(saved_tmpdir), "%s", t ? t : "");
	snprintf(xtmp, sizeof(xtmp), "%s/xtmp", tmp);
	mkdir(xtmp, 0777);
	chmod(xtmp, 0777);
	setenv("TMPDIR", xtmp, 1);
}

static int xtmp_empty(void)
{
	DIR *d = opendir(xtmp);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n == 0;
}

static void xtmp_end(void)
{
	if (saved_tmpdir[0])
		setenv("TMPDIR", saved_tmpdir, 1);
	else
		unsetenv("TMPDIR");
	nicfit_snapshot_remove_tree(xtmp);
}

/*
 * A zip written in streaming mode declares no sizes in its headers; the
 * old bound summed declared sizes, so a zip named .tar.gz unpacked any
 * amount. Zip is not a snapshot format: refused by content, nothing left.
 */
static void zip_named_tar_gz(void **state)
{
	static const struct ent ents[] = {
		{ "x/sys/", AE_IFDIR, 0755, 0, NULL },
		{ "x/sys/big", AE_IFREG, 0644, 3 << 20, NULL },
	};
	struct nicfit__snapshot_limits lim = { 1 << 20, 100, 64, 0, 0 };
	struct nicfit_error err;
	char arc[600], *d = NULL, *r = NULL;

	(void)state;
	xtmp_begin();
	snprintf(arc, sizeof(arc), "%s/stream.tar.gz", tmp);
	build(arc, ARCHIVE_FORMAT_ZIP, 0, ents, 2);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__snapshot_extract_limited(arc, &lim, &d, &r, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "not a snapshot archive"));
	assert_null(d);
	assert_true(xtmp_empty());
	unlink(arc);
	xtmp_end();
}

/* Past the byte bound: refused, and what was written is removed. */
static void bytes_written_bound(void **state)
{
	static const struct ent ents[] = {
		{ "x/sys/", AE_IFDIR, 0755, 0, NULL },
		{ "x/sys/a", AE_IFREG, 0644, 600, NULL },
		{ "x/sys/b", AE_IFREG, 0644, 600, NULL },
	};
	struct nicfit__snapshot_limits lim = { 1000, 100, 64, 0, 0 };
	struct nicfit_error err;
	char arc[600], *d = NULL, *r = NULL;

	(void)state;
	xtmp_begin();
	snprintf(arc, sizeof(arc), "%s/bytes.tar.gz", tmp);
	build(arc, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, 1, ents, 3);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__snapshot_extract_limited(arc, &lim, &d, &r, &err), NICFIT_E_LIMIT);
	assert_non_null(strstr(err.msg, "larger than a snapshot"));
	assert_true(xtmp_empty());
	/* within the bound it unpacks */
	lim.max_bytes = 1200;
	assert_int_equal(nicfit__snapshot_extract_limited(arc, &lim, &d, &r, &err), 0);
	assert_int_equal(nicfit_snapshot_remove_tree(d), 0);
	free(d);
	free(r);
	assert_true(xtmp_empty());
	unlink(arc);
	xtmp_end();
}

/* Empty entries cost an inode each: the count stops them early. */
static void entries_bound(void **state)
{
	struct ent ents[301];
	char names[300][32];
	struct nicfit__snapshot_limits lim = { 1 << 20, 200, 64, 0, 0 };
	struct nicfit_error err;
	char arc[600], *d = NULL, *r = NULL;
	size_t i;

	(void)state;
	ents[0] = (struct ent){ "x/sys/", AE_IFDIR, 0755, 0, NULL };
	for (i = 0; i < 300; i++) {
		snprintf(names[i], sizeof(names[i]), "x/sys/e%zu", i);
		ents[i + 1] = (struct ent){ names[i], AE_IFREG, 0644, 0, NULL };
	}
	xtmp_begin();
	snprintf(arc, sizeof(arc), "%s/entries.tar.gz", tmp);
	build(arc, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, 1, ents, 301);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__snapshot_extract_limited(arc, &lim, &d, &r, &err), NICFIT_E_LIMIT);
	assert_non_null(strstr(err.msg, "more than 200 entries"));
	assert_true(xtmp_empty());
	unlink(arc);
	xtmp_end();
	assert_true(NICFIT_SNAPSHOT_MAX_ENTRIES <= 100000);
}

/*
 * A gzip file of `zeros` zero bytes in out (members: 1, or 2 with a
 * 10-byte second member, so that its trailer states only that); forged:
 * its ISIZE says 1,000 bytes. Returns its length.
 */
static size_t gz_file(unsigned char *out, size_t cap, size_t zeros, int members, int forged)
{
	static unsigned char z[65536];
	size_t used = 0, total = 0;
	int m;

	for (m = 0; m < members; m++) {
		struct archive *a = archive_write_new();
		struct archive_entry *e = archive_entry_new();
		size_t left = m ? 10 : zeros;

		archive_write_set_format_raw(a);
		archive_write_add_filter_gzip(a);
		assert_int_equal(archive_write_open_memory(a, out + total, cap - total, &used),
				 ARCHIVE_OK);
		archive_entry_set_filetype(e, AE_IFREG);
		assert_true(archive_write_header(a, e) >= ARCHIVE_WARN);
		while (left) {
			size_t k = left < sizeof(z) ? left : sizeof(z);

			assert_int_equal(archive_write_data(a, z, k), (la_ssize_t)k);
			left -= k;
		}
		assert_int_equal(archive_write_close(a), ARCHIVE_OK);
		archive_write_free(a);
		archive_entry_free(e);
		total += used;
	}
	if (forged) {
		out[total - 4] = 1000 & 0xff;
		out[total - 3] = 1000 >> 8;
		out[total - 2] = out[total - 1] = 0;
	}
	return total;
}

/* A gzip-compressed tar of n copies of the gzip file gz, x/sys/log/gzK.gz. */
static void build_gz_bundle(const char *path, const unsigned char *gz, size_t len, int n)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	char name[64];
	int i;

	archive_write_set_format_pax_restricted(a);
	archive_write_add_filter_gzip(a);
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "x/sys/log/gz%d.gz", i);
		archive_entry_clear(e);
		archive_entry_set_pathname(e, name);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		archive_entry_set_size(e, (la_int64_t)len);
		assert_true(archive_write_header(a, e) >= ARCHIVE_WARN);
		assert_int_equal(archive_write_data(a, gz, len), (la_ssize_t)len);
	}
	archive_entry_free(e);
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

/*
 * A bundle's gzip files are measured while the archive is read, before
 * anything is written: a forged size is refused at its own entry, named;
 * files of two members (whose trailers state 10 bytes) spend the budget
 * by what they inflate to; honest files within it unpack.
 */
static void bundle_gzip_budget(void **state)
{
	/* budget 4 MiB, one file 1 MiB */
	struct nicfit__snapshot_limits lim = { 64 << 20, 1000, 64, 4 << 20, 1 << 20 };
	static unsigned char gz[1 << 16];
	struct nicfit_error err;
	char arc[600], *d = NULL, *r = NULL;
	size_t len;

	(void)state;
	xtmp_begin();
	snprintf(arc, sizeof(arc), "%s/bundle.tar.gz", tmp);
	/* forged: each says 1,000 bytes and holds 512 KiB */
	len = gz_file(gz, sizeof(gz), 512 << 10, 1, 1);
	build_gz_bundle(arc, gz, len, 3);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__snapshot_extract_limited(arc, &lim, &d, &r, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.input, "bundle.tar.gz/x/sys/log/gz0.gz"));
	assert_non_null(strstr(err.msg, "inflates past the 1000 bytes its gzip trailer says"));
	assert_null(d);
	assert_true(xtmp_empty());
	/* two members stating 10 bytes, holding 900 KiB: the fifth passes 4 MiB inflated */
	len = gz_file(gz, sizeof(gz), 900 << 10, 2, 0);
	build_gz_bundle(arc, gz, len, 8);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__snapshot_extract_limited(arc, &lim, &d, &r, &err), NICFIT_E_LIMIT);
	assert_non_null(strstr(err.msg, "more than 4 MiB decompressed from its gzip files "
				       "(refused after 5 entries)"));
	assert_true(xtmp_empty());
	/* the same four: within the budget, unpacked */
	build_gz_bundle(arc, gz, len, 4);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__snapshot_extract_limited(arc, &lim, &d, &r, &err), 0);
	assert_int_equal(nicfit_snapshot_remove_tree(d), 0);
	free(d);
	free(r);
	/* honest single members of 512 KiB: the ninth passes 4 MiB as they say */
	len = gz_file(gz, sizeof(gz), 512 << 10, 1, 0);
	build_gz_bundle(arc, gz, len, 12);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__snapshot_extract_limited(arc, &lim, &d, &r, &err), NICFIT_E_LIMIT);
	assert_non_null(strstr(err.msg, "as they say (refused after 9 entries)"));
	assert_true(xtmp_empty());
	/* without a gzip budget (a sysfs snapshot) nothing is measured */
	lim.max_inflate = 0;
	len = gz_file(gz, sizeof(gz), 512 << 10, 1, 1);
	build_gz_bundle(arc, gz, len, 3);
	assert_int_equal(nicfit__snapshot_extract_limited(arc, &lim, &d, &r, &err), 0);
	assert_int_equal(nicfit_snapshot_remove_tree(d), 0);
	free(d);
	free(r);
	unlink(arc);
	xtmp_end();
}

/* A path 300 levels deep: refused at the bound, nothing left behind. */
static void depth_bound(void **state)
{
	struct ent ents[2];
	struct nicfit_error err;
	char arc[600], deep[2048], *d = NULL, *r = NULL;
	size_t i, n = 0;

	(void)state;
	n += (size_t)snprintf(deep, sizeof(deep), "x/sys");
	for (i = 0; i < 300 && n + 4 < sizeof(deep); i++)
		n += (size_t)snprintf(deep + n, sizeof(deep) - n, "/d");
	snprintf(deep + n, sizeof(deep) - n, "/");
	ents[0] = (struct ent){ "x/sys/", AE_IFDIR, 0755, 0, NULL };
	ents[1] = (struct ent){ deep, AE_IFDIR, 0755, 0, NULL };
	xtmp_begin();
	snprintf(arc, sizeof(arc), "%s/deep.tar.gz", tmp);
	build(arc, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, 1, ents, 2);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_extract(arc, &d, &r, &err), NICFIT_E_LIMIT);
	assert_non_null(strstr(err.msg, "deeper"));
	assert_true(xtmp_empty());
	unlink(arc);
	xtmp_end();
}

/*
 * As a user who is not root (nobody, when the tests run as root): an
 * archive holding a mode-000 and a read-only directory with files in
 * them, once with a bad entry after them (the failure path) and once
 * without (the caller removes the tree). Nothing may be left in $TMPDIR.
 * Returns what the child found, as its exit status.
 */
static int modes_child(const char *bad, const char *good)
{
	struct nicfit_error err;
	char *d = NULL, *r = NULL;

	if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
		return 10;
	if (geteuid() == 0)
		return 11;
	nicfit_error_clear(&err);
	if (nicfit_snapshot_extract(bad, &d, &r, &err) != NICFIT_E_DATA)
		return 12;
	if (!xtmp_empty())
		return 13;
	if (nicfit_snapshot_extract(good, &d, &r, &err))
		return 14;
	if (nicfit_snapshot_remove_tree(d))
		return 15;
	free(d);
	free(r);
	return xtmp_empty() ? 0 : 16;
}

static void modes_as_non_root(void **state)
{
	static const struct ent ents[] = {
		{ "x/sys/", AE_IFDIR, 0755, 0, NULL },
		{ "x/sys/locked/", AE_IFDIR, 0000, 0, NULL },
		{ "x/sys/locked/f", AE_IFREG, 0000, 10, NULL },
		{ "x/sys/ro/", AE_IFDIR, 0555, 0, NULL },
		{ "x/sys/ro/f", AE_IFREG, 0444, 10, NULL },
		{ "x/../../escape", AE_IFREG, 0644, 1, NULL },
	};
	char bad[600], good[600];
	pid_t pid;
	int st = -1;

	(void)state;
	xtmp_begin();
	snprintf(bad, sizeof(bad), "%s/modes-bad.tar.gz", tmp);
	snprintf(good, sizeof(good), "%s/modes-good.tar.gz", tmp);
	build(bad, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, 1, ents, 6);
	build(good, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, 1, ents, 5);
	chmod(tmp, 0755);
	chmod(bad, 0644);
	chmod(good, 0644);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(modes_child(bad, good));
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	unlink(bad);
	unlink(good);
	xtmp_end();
}

/* Not archives: said so in nicfit's words, whatever the file is called. */
static void not_archives(void **state)
{
	static const char *const texts[] = {
		"not an archive\n", "/set type=file\n./sys type=dir\n", "PK\003\004 not really\n", NULL
	};
	struct nicfit_error err;
	char arc[600], *d = NULL, *r = NULL;
	int i;

	(void)state;
	xtmp_begin();
	snprintf(arc, sizeof(arc), "%s/input.zip", tmp);
	for (i = 0; texts[i]; i++) {
		FILE *f = fopen(arc, "w");

		assert_non_null(f);
		fputs(texts[i], f);
		fclose(f);
		assert_true(nicfit_snapshot_is_archive(arc));
		nicfit_error_clear(&err);
		assert_int_equal(nicfit_snapshot_extract(arc, &d, &r, &err), NICFIT_E_DATA);
		assert_non_null(strstr(err.msg, "not a snapshot archive"));
		assert_null(strstr(err.msg, "mtree"));
		assert_true(xtmp_empty());
	}
	unlink(arc);
	assert_false(nicfit_snapshot_is_archive(tmp));
	xtmp_end();
}

/* An archive that cannot be created: an error, and no handle left open (LSan). */
static void take_unwritable_archive(void **state)
{
	struct nicfit_snapshot_result res;
	struct nicfit_error err;
	char root[256];

	(void)state;
	fixture("kvm-vm", root, sizeof(root));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_take(root, "/nonexistent-dir/s.tar.gz", &res, &err),
			 NICFIT_E_IO);
	nicfit_snapshot_result_release(&res);
}

/*
 * What a signal handler calls: every unpacked tree not removed yet is
 * removed (the CLI's SIGINT/SIGTERM handler, then the signal); a tree
 * removed as usual is no longer held, so a later call touches nothing.
 * An archive is held while it is written (a partial archive is no
 * snapshot) and let go once whole, so a finished one stays; a path too
 * long for a slot is not held, as a name cut to fit could be another's.
 */
static void remove_pending_trees(void **state)
{
	struct nicfit_snapshot_result res;
	struct nicfit_error err;
	char root[256], arc[300], *dir1, *dir2, *r1, *r2;

	(void)state;
	fixture("kvm-vm", root, sizeof(root));
	snprintf(arc, sizeof(arc), "%s/pending.tar.gz", tmp);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_take(root, arc, &res, &err), 0);
	nicfit_snapshot_result_release(&res);
	assert_int_equal(nicfit_snapshot_remove_pending(), 0);
	assert_int_equal(access(arc, F_OK), 0);
	{
		char part[300], longp[5000];
		int fd;

		snprintf(part, sizeof(part), "%s/partial.tar.gz", tmp);
		fd = open(part, O_WRONLY | O_CREAT | O_EXCL, 0600);
		assert_true(fd >= 0);
		close(fd);
		nicfit__snapshot_pending_add(part);
		memset(longp, 'x', sizeof(longp) - 1);
		longp[sizeof(longp) - 1] = '\0';
		memcpy(longp, part, strlen(part)); /* starts with a real name, then no more room */
		nicfit__snapshot_pending_add(longp);
		assert_int_equal(nicfit_snapshot_remove_pending(), 0);
		assert_int_equal(access(part, F_OK), -1);
	}
	assert_int_equal(nicfit_snapshot_extract(arc, &dir1, &r1, &err), 0);
	assert_int_equal(nicfit_snapshot_extract(arc, &dir2, &r2, &err), 0);
	assert_int_equal(nicfit_snapshot_remove_tree(dir2), 0);
	assert_int_equal(mkdir(dir2, 0700), 0); /* the name again, now nobody's tree */
	assert_int_equal(access(dir1, F_OK), 0);
	assert_int_equal(nicfit_snapshot_remove_pending(), 0);
	assert_int_equal(access(dir1, F_OK), -1);
	assert_int_equal(access(dir2, F_OK), 0);
	assert_int_equal(rmdir(dir2), 0);
	assert_int_equal(nicfit_snapshot_remove_pending(), 0);
	free(dir1);
	free(r1);
	free(dir2);
	free(r2);
	unlink(arc);
}

/*
 * A destination that is a symbolic link is refused whatever it names (a
 * file to be, an archive, an empty directory), and so is one that exists
 * but for an empty directory: nothing is written through the link or
 * over the file. The man page: "An existing destination is never
 * overwritten".
 */
static void take_refuses_links(void **state)
{
	static const char *const names[] = { "l.tar.gz", "l.tar", "ldir", "lnew" };
	static const char *const targets[] = { "victim.tar.gz", "victim.tar", "empty", "nothing" };
	struct nicfit_snapshot_result res;
	struct nicfit_error err;
	char root[256], d[300], link[400], target[400];
	struct stat sb;
	size_t i;

	(void)state;
	fixture("kvm-vm", root, sizeof(root));
	snprintf(d, sizeof(d), "%s/dest", tmp);
	assert_int_equal(mkdir(d, 0755), 0);
	snprintf(target, sizeof(target), "%s/empty", d);
	assert_int_equal(mkdir(target, 0755), 0);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(link, sizeof(link), "%s/%s", d, names[i]);
		snprintf(target, sizeof(target), "%s/%s", d, targets[i]);
		assert_int_equal(symlink(target, link), 0);
		nicfit_error_clear(&err);
		assert_int_equal(nicfit_snapshot_take(root, link, &res, &err), NICFIT_E_USAGE);
		assert_string_equal(err.input, link);
		assert_non_null(strstr(err.msg, "symbolic link"));
		nicfit_snapshot_result_release(&res);
		assert_int_equal(lstat(link, &sb), 0);
		assert_true(S_ISLNK(sb.st_mode));
	}
	snprintf(target, sizeof(target), "%s/victim.tar.gz", d);
	assert_int_equal(access(target, F_OK), -1);
	snprintf(target, sizeof(target), "%s/nothing", d);
	assert_int_equal(access(target, F_OK), -1);
	snprintf(target, sizeof(target), "%s/empty", d);
	assert_int_equal(rmdir(target), 0); /* still empty */
	assert_int_equal(mkdir(target, 0755), 0);
	/* an existing file, as archive or directory name; an empty directory is taken */
	snprintf(target, sizeof(target), "%s/there.tar", d);
	close(open(target, O_WRONLY | O_CREAT, 0644));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_take(root, target, &res, &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "already exists"));
	assert_int_equal(stat(target, &sb), 0);
	assert_int_equal(sb.st_size, 0);
	nicfit_snapshot_result_release(&res);
	snprintf(target, sizeof(target), "%s/empty", d);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_snapshot_take(root, target, &res, &err), 0);
	nicfit_snapshot_result_release(&res);
}

/*
 * A sysfs name is any bytes: a tree whose names are not UTF-8 is written
 * to a .tar.gz (as raw pax names) and reads back with the same names.
 */
static void non_utf8_names(void **state)
{
	struct nicfit_snapshot_result res;
	struct nicfit_error err;
	char root[600], arc[600], p[1300], *d = NULL, *r = NULL;
	FILE *f;

	(void)state;
	snprintf(root, sizeof(root), "%s/raw", tmp);
	mkdir(root, 0755);
	snprintf(p, sizeof(p), "%s/sys", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/class", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/class/net", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/class/net/e\xff\xfe", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/class/net/e\xff\xfe/address", root);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("00:11:22:33:44:55\n", f);
	fclose(f);
	snprintf(arc, sizeof(arc), "%s/raw.tar.gz", tmp);
	nicfit_error_clear(&err);
	if (nicfit_snapshot_take(root, arc, &res, &err))
		fail_msg("snapshot: %s", err.msg);
	nicfit_snapshot_result_release(&res);
	if (nicfit_snapshot_extract(arc, &d, &r, &err))
		fail_msg("extract: %s", err.msg);
	snprintf(p, sizeof(p), "%s/sys/class/net/e\xff\xfe", r);
	assert_int_equal(access(p, F_OK), 0);
	nicfit_snapshot_remove_tree(d);
	free(d);
	free(r);
	unlink(arc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(damaged_source),
		cmocka_unit_test(unsafe_archives),
		cmocka_unit_test(zip_named_tar_gz),
		cmocka_unit_test(bytes_written_bound),
		cmocka_unit_test(entries_bound),
		cmocka_unit_test(bundle_gzip_budget),
		cmocka_unit_test(depth_bound),
		cmocka_unit_test(modes_as_non_root),
		cmocka_unit_test(not_archives),
		cmocka_unit_test(take_unwritable_archive),
		cmocka_unit_test(take_refuses_links),
		cmocka_unit_test(remove_pending_trees),
		cmocka_unit_test(non_utf8_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
