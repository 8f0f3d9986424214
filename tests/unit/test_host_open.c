/*
 * test_host_open.c - nicfit_host_open() reads a host however it is given:
 * a sysfs tree, a snapshot archive (unpacked for as long as the host is
 * open, named by the archive, removed on close), dump files and dump text;
 * a missing path is an error that leaves nothing. A tracer in the request
 * is told of each read of a tree or an unpacked archive, none of dumps,
 * each with what it was for. nicfit_audit_run() runs
 * an audit request to its document, as `nicfit audit --json` does.
 */
#include "unit.h"

#include <sys/stat.h>

#include "fixtures.h"
#include "nicfit/audit.h"
#include "nicfit/buf.h"
#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/host.h"
#include "nicfit/snapshot.h"

#define DUMP "tests/fixtures/dumps/public/club-3090-1229-topo-tree.txt"

static struct nicfit_catalog *cat;
static char tmp[256];

static int setup(void **state)
{
	struct nicfit_error err;

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/nicfit-test-host-XXXXXX");
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

static void directory(void **state)
{
	struct nicfit_host_request rq = { 0 };
	struct nicfit_host *h = NULL;
	struct nicfit_error err;
	char root[512];

	(void)state;
	nicfit_error_clear(&err);
	rq.root = fixture("hgx-h100", root, sizeof(root));
	assert_int_equal(nicfit_host_open(&rq, &h, &err), 0);
	assert_non_null(h);
	assert_non_null(h->topo);
	assert_true(h->topo->npci > 0);
	assert_null(h->dump);
	assert_null(h->tmpdir);
	assert_false(h->from_archive);
	assert_string_equal(h->topo->root, root);
	nicfit_host_close(h);
}

/* The archive's tree lives while the host is open; the model names the archive. */
static void archive(void **state)
{
	struct nicfit_host_request rq = { 0 };
	struct nicfit_snapshot_result res;
	struct nicfit_host *h = NULL;
	struct nicfit_error err;
	char root[512], arc[512], dir[512];
	struct stat st;

	(void)state;
	nicfit_error_clear(&err);
	snprintf(arc, sizeof(arc), "%s/host.tar.gz", tmp);
	assert_int_equal(nicfit_snapshot_take(fixture("hgx-h100", root, sizeof(root)), arc, &res,
					      &err), 0);
	nicfit_snapshot_result_release(&res);
	rq.root = arc;
	assert_int_equal(nicfit_host_open(&rq, &h, &err), 0);
	assert_true(h->from_archive);
	assert_non_null(h->tmpdir);
	assert_non_null(h->tmproot);
	assert_string_equal(h->topo->root, arc);
	assert_true(h->topo->npci > 0);
	snprintf(dir, sizeof(dir), "%s", h->tmpdir);
	assert_int_equal(stat(dir, &st), 0);
	nicfit_host_close(h);
	assert_int_not_equal(stat(dir, &st), 0);
}

/* What a tracer is told: reads, bytes, a config range and its reason, the paths' tree. */
struct traced {
	size_t n, bytes, ranges, uevents, abs;
};

static void count_read(void *ctx, int op, const char *path, size_t off, size_t len,
		       const char *why)
{
	struct traced *t = ctx;
	const char *w = nicfit_sysfs_read_why(op, path, why);

	(void)off;
	t->n++;
	t->bytes += len;
	assert_non_null(w);
	assert_true(*w != '\0');
	if (op == 'P' && why && !strcmp(w, why))
		t->ranges++;
	if (op == 'F' && strstr(path, "/uevent") && !strcmp(w, "class, IDs, subsystem IDs, driver"))
		t->uevents++;
	if (*path == '/')
		t->abs++;
}

static void traced(void **state)
{
	struct nicfit_host_request rq = { 0 };
	struct nicfit_snapshot_result res;
	struct traced dir = { 0 }, arc = { 0 }, dump = { 0 };
	const char *paths[] = { DUMP };
	struct nicfit_host *h = NULL;
	struct nicfit_error err;
	char root[512], path[512];

	(void)state;
	nicfit_error_clear(&err);
	rq.root = fixture("hgx-h100", root, sizeof(root));
	rq.trace = count_read;
	rq.trace_ctx = &dir;
	assert_int_equal(nicfit_host_open(&rq, &h, &err), 0);
	nicfit_host_close(h);
	assert_true(dir.n > (size_t)100);
	assert_true(dir.bytes > 0);
	assert_true(dir.ranges > 0);
	assert_true(dir.uevents > 0);
	assert_int_equal(dir.abs, 0);

	/* the archive's reads are the tree's, relative to the unpacked root */
	snprintf(path, sizeof(path), "%s/traced.tar.gz", tmp);
	assert_int_equal(nicfit_snapshot_take(root, path, &res, &err), 0);
	nicfit_snapshot_result_release(&res);
	rq.root = path;
	rq.trace_ctx = &arc;
	assert_int_equal(nicfit_host_open(&rq, &h, &err), 0);
	nicfit_host_close(h);
	assert_int_equal(arc.n, dir.n);
	assert_int_equal(arc.bytes, dir.bytes);

	/* dumps are text: no read of a tree to tell */
	rq.root = NULL;
	rq.dumps = paths;
	rq.ndumps = 1;
	rq.trace_ctx = &dump;
	assert_int_equal(nicfit_host_open(&rq, &h, &err), 0);
	nicfit_host_close(h);
	assert_int_equal(dump.n, 0);
}

/* An archive that is not one is refused, and the error names it. */
static void bad_archive(void **state)
{
	struct nicfit_host_request rq = { 0 };
	struct nicfit_host *h = (struct nicfit_host *)1;
	struct nicfit_error err;
	char arc[512];
	FILE *f;

	(void)state;
	nicfit_error_clear(&err);
	snprintf(arc, sizeof(arc), "%s/junk.tar.gz", tmp);
	f = fopen(arc, "w");
	assert_non_null(f);
	fputs("not an archive\n", f);
	fclose(f);
	rq.root = arc;
	assert_int_not_equal(nicfit_host_open(&rq, &h, &err), 0);
	assert_null(h);
	assert_non_null(strstr(err.input[0] ? err.input : err.msg, "junk.tar.gz"));
}

static void missing(void **state)
{
	struct nicfit_host_request rq = { 0 };
	struct nicfit_host *h = (struct nicfit_host *)1;
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	rq.root = "/nonexistent/nicfit-host";
	assert_int_not_equal(nicfit_host_open(&rq, &h, &err), 0);
	assert_null(h);
	assert_int_not_equal(err.code, 0);
	nicfit_host_close(NULL);
}

static void dumps(void **state)
{
	const char *paths[] = { DUMP };
	struct nicfit_host_request rq = { 0 };
	struct nicfit_host *h = NULL;
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	rq.dumps = paths;
	rq.ndumps = 1;
	rq.root = "/nonexistent"; /* dumps win over a root */
	assert_int_equal(nicfit_host_open(&rq, &h, &err), 0);
	assert_non_null(h->dump);
	assert_non_null(h->topo);
	assert_true(h->topo->npci > 0);
	assert_null(h->tmpdir);
	nicfit_host_close(h);

	/* a dump that is missing is an error */
	paths[0] = "/nonexistent/dump.txt";
	nicfit_error_clear(&err);
	assert_int_not_equal(nicfit_host_open(&rq, &h, &err), 0);
	assert_null(h);
}

/* Text in memory (a request body) reads as the same dump read from its file. */
static void dump_text(void **state)
{
	struct nicfit_host_request rq = { 0 };
	struct nicfit_host *h = NULL;
	struct nicfit_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	f = fopen(DUMP, "rb");
	assert_non_null(f);
	text = malloc(1 << 20);
	assert_non_null(text);
	len = fread(text, 1, 1 << 20, f);
	fclose(f);
	nicfit_error_clear(&err);
	rq.text = text;
	rq.text_len = len;
	rq.text_name = "body";
	assert_int_equal(nicfit_host_open(&rq, &h, &err), 0);
	assert_non_null(h->dump);
	assert_true(h->topo->npci > 0);
	nicfit_host_close(h);

	/* text with no PCI listing: the dump reader's error */
	rq.text = "hello\n";
	rq.text_len = 6;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_host_open(&rq, &h, &err), NICFIT_E_DATA);
	assert_null(h);
	free(text);
}

/* The document of nicfit_audit_run, or NULL with *rc set. */
static char *run(const struct nicfit_audit_request *rq, int *rc, int *status,
		 struct nicfit_error *err)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, NICFIT_EMIT_PRETTY, 0);
	struct nicfit_buf b;

	assert_non_null(e);
	nicfit_buf_init(&b, 0);
	*rc = nicfit_audit_run(cat, rq, e, status, err);
	if (*rc) {
		nicfit_emit_free(e);
		return NULL;
	}
	assert_int_equal(nicfit_emit_finish(e, &b), 0);
	nicfit_emit_free(e);
	return nicfit_buf_detach(&b, NULL);
}

static void audit_run(void **state)
{
	struct nicfit_audit_request rq;
	struct nicfit_host *h = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	char root[512], *doc;
	int rc, status = -1;

	(void)state;
	memset(&rq, 0, sizeof(rq));
	rq.host.root = fixture("hgx-h100", root, sizeof(root));
	nicfit_error_clear(&err);
	doc = run(&rq, &rc, &status, &err);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(doc, "\"nicfit.audit.v1\""));
	assert_true(status >= 0 && status <= 2);
	free(doc);

	/* the open-host form judges the same host to the same verdict */
	assert_int_equal(nicfit_host_open(&rq.host, &h, &err), 0);
	assert_int_equal(nicfit_audit_run_host(cat, &rq, h, &a, &err), 0);
	assert_int_equal(nicfit_audit_exit_code(a), status);
	nicfit_audit_free(a);
	nicfit_host_close(h);

	/* a plan file that is not there is the request's error, nothing rendered */
	rq.plan_spec = "/nonexistent/plan.json";
	nicfit_error_clear(&err);
	assert_null(run(&rq, &rc, NULL, &err));
	assert_int_equal(rc, NICFIT_E_NOTFOUND);

	/* a missing host likewise */
	rq.plan_spec = NULL;
	rq.host.root = "/nonexistent/nicfit-host";
	nicfit_error_clear(&err);
	assert_null(run(&rq, &rc, NULL, &err));
	assert_int_not_equal(rc, 0);
}

/* Dumps run through the dump's own findings too. */
static void audit_run_dump(void **state)
{
	const char *paths[] = { DUMP };
	struct nicfit_audit_request rq;
	struct nicfit_error err;
	char *doc;
	int rc, status = -1;

	(void)state;
	memset(&rq, 0, sizeof(rq));
	rq.host.dumps = paths;
	rq.host.ndumps = 1;
	nicfit_error_clear(&err);
	doc = run(&rq, &rc, &status, &err);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(doc, "\"nicfit.audit.v1\""));
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(directory),
		cmocka_unit_test(archive),
		cmocka_unit_test(traced),
		cmocka_unit_test(bad_archive),
		cmocka_unit_test(missing),
		cmocka_unit_test(dumps),
		cmocka_unit_test(dump_text),
		cmocka_unit_test(audit_run),
		cmocka_unit_test(audit_run_dump),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
