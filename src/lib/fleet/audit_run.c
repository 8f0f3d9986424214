/*
 * audit_run.c - an audit request run from its sources to the judged host
 * (see nicfit/audit.h, nicfit_audit_run): open the host, judge it, and
 * when asked judge it against a plan made for it (--plan) and against
 * the audits of its peers (--expect). What `nicfit audit` and serve's
 * audit do between reading their options and rendering.
 *
 * It lives in fleet/, not audit/, by the layering rule: a file goes in the
 * lowest folder that can hold everything it calls, and --expect compares
 * the host with a fleet's audits (nicfit_audit_expect_fleet, fleet/),
 * which comes after the audit.
 *
 * It composes the engines; the rules are theirs (audit_*.c, the dump's
 * findings, the planner). It renders nothing but the final document.
 */
#include <stdlib.h>
#include <string.h>

#include "nicfit/audit.h"
#include "nicfit/dump.h"
#include "nicfit/emit.h"
#include "nicfit/file.h"
#include "nicfit/host.h"
#include "nicfit/ops.h"
#include "nicfit/plan.h"
#include "nicfit/spec.h"

/*
 * --plan FILE: plan the request in FILE (plan's JSON spec) with this host
 * as the server, then judge the host against it. The host joins the
 * catalog, which moves catalog entries, so the audit is run again after.
 */
static int check_plan(struct nicfit_catalog *cat, const struct nicfit_audit_request *req,
		      const struct nicfit_topo *topo, struct nicfit_audit **a,
		      struct nicfit_error *err)
{
	struct nicfit_spec *spec = calloc(1, sizeof(struct nicfit_spec));
	struct nicfit_plan *plan = calloc(1, sizeof(struct nicfit_plan));
	const char *path = req->plan_spec;
	struct nicfit_plan_input in;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!spec || !plan) {
		rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		goto out;
	}
	rc = nicfit_read_file(path, NICFIT_SPEC_MAX_BYTES, &text, &len, err);
	if (rc)
		goto out;
	nicfit_spec_init(spec, strcmp(path, "-") ? path : "<stdin>");
	rc = nicfit_spec_parse_json(spec, text, len, err);
	if (!rc)
		rc = nicfit_audit_host_into_spec(cat, *a, spec, err);
	if (rc)
		goto out_spec;
	nicfit_audit_free(*a);
	*a = NULL;
	rc = nicfit_audit_judge(topo, cat, &req->opts, a, err);
	if (!rc)
		rc = nicfit_plan_input_from_spec(cat, spec, &in, err);
	if (!rc)
		rc = nicfit_plan(cat, &in, plan, err);
	if (!rc)
		rc = nicfit_audit_check_plan(*a, plan, err);
out_spec:
	nicfit_spec_release(spec);
out:
	free(text);
	free(spec);
	if (plan)
		nicfit_plan_release(plan);
	free(plan);
	return rc;
}

int nicfit_audit_run_host(struct nicfit_catalog *cat, const struct nicfit_audit_request *req,
			  const struct nicfit_host *host, struct nicfit_audit **out,
			  struct nicfit_error *err)
{
	struct nicfit_audit *a = NULL;
	int rc;

	*out = NULL;
	rc = nicfit_audit_judge(host->topo, cat, &req->opts, &a, err);
	if (!rc && req->plan_spec)
		rc = check_plan(cat, req, host->topo, &a, err);
	if (!rc && host->dump)
		rc = nicfit_dump_judge(host->dump, a, err);
	if (!rc && req->expect)
		rc = nicfit_audit_expect_fleet(a, req->expect, err);
	if (rc) {
		nicfit_audit_free(a);
		return rc;
	}
	*out = a;
	return 0;
}

int nicfit_audit_run(struct nicfit_catalog *cat, const struct nicfit_audit_request *req,
		     struct nicfit_emit *e, int *status, struct nicfit_error *err)
{
	struct nicfit_host *host;
	struct nicfit_audit *a = NULL;
	int rc;

	rc = nicfit_host_open(&req->host, &host, err);
	if (rc)
		return rc;
	rc = nicfit_audit_run_host(cat, req, host, &a, err);
	if (!rc) {
		rc = nicfit_audit_render(a, e);
		if (rc)
			nicfit_error_set(err, rc, "cannot render the audit: %s", nicfit_strerror(rc));
	}
	if (!rc && status)
		*status = nicfit_audit_exit_code(a);
	nicfit_audit_free(a);
	nicfit_host_close(host);
	return rc;
}
