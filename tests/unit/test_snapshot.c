/*
 * test_snapshot.c - a snapshot holds exactly what the audit reads: the
 * audit of the copy (a directory, or an archive read back) equals the audit
 * of the original; damaged files are listed, not copied; archives with
 * unsafe paths are refused; an existing destination is never overwritten.
 */
#include "unit.h"

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include "fixtures.h"
#include "nicfit/audit.h"
#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/snapshot.h"
#include "nicfit/topo.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(damaged_source),
		cmocka_unit_test(unsafe_archives),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
