/*
 * fuzz_fleet_dir.c - fleet directories: a directory of audit files made
 * from the input (fuzz_tree.h) read as `nicfit fleet DIR` reads it, and
 * each of its entries audited as `fleet --dumps DIR` audits them, an entry
 * that cannot be read becoming that host's problem
 * (nicfit_fleet_add_unreadable); then analysed and rendered. One bad
 * entry never ends the fleet: only running out of memory or a fleet limit
 * may.
 */
#include <dirent.h>

#include "fuzz_tree.h"

#include "nicfit/audit.h"
#include "nicfit/emit.h"
#include "nicfit/fleet.h"
#include "nicfit/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One --dumps entry: its audit as JSON into the fleet, or its problem. */
static int dumps_host(struct nicfit_fleet *fl, const char *path, const char *name)
{
	const char *paths[1] = { path };
	struct nicfit_host_request rq;
	struct nicfit_host *h = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error one, err;
	struct nicfit_emit *e;
	struct nicfit_buf out;
	int rc;

	memset(&rq, 0, sizeof(rq));
	rq.dumps = paths;
	rq.ndumps = 1;
	nicfit_error_clear(&one);
	nicfit_error_clear(&err);
	rc = nicfit_host_open(&rq, &h, &one);
	if (!rc)
		rc = nicfit_audit_judge(h->topo, NULL, NULL, &a, &one);
	if (rc) {
		nicfit_host_close(h);
		if (!one.msg[0])
			abort();
		return nicfit_fleet_add_unreadable(fl, name, &one, &err);
	}
	e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	nicfit_buf_init(&out, 0);
	if (e && !nicfit_audit_render(a, e) && !nicfit_emit_finish(e, &out) &&
	    !nicfit_fleet_begin(fl, path, name, &err)) {
		rc = nicfit_fleet_feed(fl, out.data, out.len, &err);
		rc = nicfit_fleet_end(fl, &err) || rc;
	}
	nicfit_buf_release(&out);
	nicfit_emit_free(e);
	nicfit_audit_free(a);
	nicfit_host_close(h);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *root = fuzz_tree_make(data, size);
	struct nicfit_fleet *fl;
	struct nicfit_fleet_opts o;
	struct nicfit_error err;
	struct dirent *de;
	DIR *dir;
	int n = 0;

	if (!root || nicfit_fleet_new(&fl, NULL))
		return 0;
	nicfit_error_clear(&err);
	if (nicfit_fleet_add_path(fl, root, &err) && err.code != NICFIT_E_LIMIT &&
	    err.code != NICFIT_E_NOMEM)
		abort(); /* a file of the directory that cannot be read is its host's problem */
	dir = opendir(root);
	while (dir && (de = readdir(dir)) != NULL && n++ < 8) {
		char path[1200];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, de->d_name);
		if (dumps_host(fl, path, de->d_name))
			break;
	}
	if (dir)
		closedir(dir);
	memset(&o, 0, sizeof(o));
	nicfit_error_clear(&err);
	if (!nicfit_fleet_analyze(fl, &o, &err)) {
		struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
		struct nicfit_buf out;

		nicfit_buf_init(&out, 0);
		if (e && (nicfit_fleet_render(e, fl, 0) || nicfit_emit_finish(e, &out)))
			abort();
		nicfit_buf_release(&out);
		nicfit_emit_free(e);
	}
	nicfit_fleet_free(fl);
	return 0;
}
