/*
 * accept_run.c - nicfit_accept_run(): a plan request in, its acceptance
 * runbook out, the spec-in, document-out form POST /api/accept answers
 * with (the same keys as plan's, and the runbook's own: hosts, launcher,
 * read); and nicfit_accept_run_results(), the same runbook judged on
 * outputs uploaded in the body (POST /api/accept/results). A host's
 * runbook is the command line's alone: the server reads no host but the
 * one --allow-audit names, and reads no directory of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "core/jscan_int.h"
#include "nicfit/accept.h"
#include "nicfit/catalog.h"
#include "accept/accept_int.h"

/* The runbook's own keys, taken (and marked used) before the plan reads the rest. */
static int own_keys(struct nicfit_spec *spec, const char **hosts, struct nicfit_accept_system *sys,
		    struct nicfit_error *err)
{
	const char *launcher = nicfit_spec_get(spec, "launcher");
	const char *read = nicfit_spec_get(spec, "read");

	*hosts = nicfit_spec_get(spec, "hosts");
	if (launcher && strcmp(launcher, "mpirun") && strcmp(launcher, "srun")) {
		nicfit_error_set(err, NICFIT_E_USAGE, "'%.32s' is not mpirun or srun", launcher);
		nicfit_spec_locate_error(spec, "launcher", err);
		return err ? err->code : NICFIT_E_USAGE;
	}
	if (read && strcmp(read, "true") && strcmp(read, "false")) {
		nicfit_error_set(err, NICFIT_E_USAGE, "'%.32s' is not true or false", read);
		nicfit_spec_locate_error(spec, "read", err);
		return err ? err->code : NICFIT_E_USAGE;
	}
	sys->launcher = launcher && !strcmp(launcher, "srun") ? NICFIT_ACCEPT_SRUN :
			NICFIT_ACCEPT_MPIRUN;
	sys->read = read && !strcmp(read, "true");
	return 0;
}

/* The host list, its error pointed at the spec's "hosts" key (a body's line and column). */
static int hosts_at_key(struct nicfit_spec *spec, struct nicfit_accept_system *sys,
			const char *hosts, struct nicfit_error *err)
{
	struct nicfit_error e2;
	const char *m;
	int rc;

	nicfit_error_clear(&e2);
	rc = nicfit_accept_set_hosts(sys, hosts, &e2);
	if (!rc || rc == NICFIT_E_NOMEM)
		return rc ? nicfit_error_set(err, rc, "out of memory") : 0;
	m = strncmp(e2.msg, "--hosts: ", 9) ? e2.msg : e2.msg + 9;
	nicfit_error_set(err, rc, "%s", m);
	nicfit_spec_locate_error(spec, "hosts", err);
	return err ? err->code : rc;
}

/* The runbook of a spec: plan's keys and the runbook's own. */
static int runbook_of(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
		      struct nicfit_accept **a, struct nicfit_error *err)
{
	struct nicfit_accept_system sys, own;
	const char *hosts = NULL;
	int rc;

	*a = NULL;
	memset(&own, 0, sizeof(own));
	rc = own_keys(spec, &hosts, &own, err);
	if (rc)
		return rc;
	rc = nicfit_accept_system_from_plan(cat, spec, &sys, err);
	if (rc)
		return rc;
	sys.launcher = own.launcher;
	sys.read = own.read;
	rc = hosts ? hosts_at_key(spec, &sys, hosts, err) : nicfit_accept_default_hosts(&sys, err);
	if (!rc)
		rc = nicfit_accept_new(&sys, a, err);
	free(sys.hosts);
	return rc;
}

int nicfit_accept_run(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
		      struct nicfit_emit *e, struct nicfit_error *err)
{
	struct nicfit_accept *a = NULL;
	int rc = runbook_of(cat, spec, &a, err);

	if (!rc)
		rc = nicfit_accept_render(a, e);
	nicfit_accept_free(a);
	return rc;
}

/* Where token i of the body stands, as an error there. */
static int body_error(const struct jscan *js, int i, const char *what, struct nicfit_error *err)
{
	long line, col;

	nicfit__jscan_position(js->text, js->tok[i].start - (js->tok[i].type == JS_STRING),
			       &line, &col);
	return nicfit_error_at(err, NICFIT_E_DATA, "request body", line, col, "%s", what);
}

/* The results object (token obj) as named outputs; *out heap, each text heap. */
static int body_results(const struct jscan *js, int obj, struct nicfit__accept_result **out,
			size_t *n, struct nicfit_error *err)
{
	const struct jscan_tok *t = js->tok;
	struct nicfit__accept_result *r;
	int k;

	*n = 0;
	*out = r = calloc(t[obj].count ? t[obj].count : 1, sizeof(*r));
	if (!r)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	for (k = obj + 1; k < (int)t[obj].next; k = (int)t[k + 1].next) {
		char *name = malloc(t[k].len + 1), *text;
		size_t nl;
		int dl;

		if (!name)
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		if (nicfit__jscan_string(js, k, name, t[k].len + 1) < 1) {
			free(name);
			return body_error(js, k, "results: a file name must be a non-empty string "
					  "without NUL", err);
		}
		nl = strlen(name);
		if (nl > 4 && !strcmp(name + nl - 4, ".txt"))
			name[nl - 4] = '\0';
		r[*n].name = name;
		(*n)++;
		if (t[k + 1].type != JS_STRING)
			return body_error(js, k + 1, "results: each file's output must be a string",
					  err);
		text = malloc(t[k + 1].len + 1);
		if (!text)
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		r[*n - 1].text = text;
		dl = nicfit__jscan_string(js, k + 1, text, t[k + 1].len + 1);
		if (dl < 0)
			return body_error(js, k + 1, "results: an output that cannot be read as text",
					  err);
		r[*n - 1].len = (size_t)dl;
	}
	return 0;
}

static void results_free(struct nicfit__accept_result *r, size_t n)
{
	size_t i;

	for (i = 0; r && i < n; i++) {
		free((char *)r[i].name);
		free((char *)r[i].text);
	}
	free(r);
}

/* The body's spec and results members, checked; -1 when absent. */
static int body_members(struct jscan *js, int *spec, int *results, struct nicfit_error *err)
{
	int k;

	if (js->tok[0].type != JS_OBJECT)
		return body_error(js, 0, "expected an object: {\"spec\": {...}, \"results\": "
				  "{\"NAME.txt\": \"output\", ...}}", err);
	for (k = 1; k < (int)js->tok[0].next; k = (int)js->tok[k + 1].next)
		if (!nicfit__jscan_key_is(js, k, "spec") && !nicfit__jscan_key_is(js, k, "results"))
			return body_error(js, k, "only spec and results belong here", err);
	*spec = nicfit__jscan_get(js, 0, "spec");
	*results = nicfit__jscan_get(js, 0, "results");
	if (*spec < 0 || js->tok[*spec].type != JS_OBJECT)
		return body_error(js, *spec < 0 ? 0 : *spec, "spec: the plan's request, an object, "
				  "is needed", err);
	if (*results < 0 || js->tok[*results].type != JS_OBJECT)
		return body_error(js, *results < 0 ? 0 : *results, "results: an object of file "
				  "names and outputs is needed", err);
	return 0;
}

int nicfit_accept_run_results(const struct nicfit_catalog *cat, const char *body, size_t len,
			      struct nicfit_emit *e, int *status, struct nicfit_error *err)
{
	struct nicfit__accept_result *r = NULL;
	struct nicfit_spec *spec = NULL;
	struct nicfit_accept *a = NULL;
	char label[64];
	int rc, so = -1, ro = -1;
	size_t n = 0;
	struct jscan js;

	*status = 0;
	nicfit__jscan_init(&js);
	rc = nicfit__jscan_parse(&js, body, len);
	if (rc) {
		long line, col;

		nicfit__jscan_position(body, js.err_off, &line, &col);
		rc = rc == -2 ? nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory") :
		     nicfit_error_at(err, NICFIT_E_DATA, "request body", line, col, "%s",
				     js.err_msg ? js.err_msg : "not JSON");
		goto out;
	}
	rc = body_members(&js, &so, &ro, err);
	if (!rc && !(spec = calloc(1, sizeof(*spec))))
		rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	if (!rc) {
		nicfit_spec_init(spec, "spec");
		rc = nicfit_spec_parse_json(spec, body + js.tok[so].start, js.tok[so].len, err);
	}
	if (!rc)
		rc = body_results(&js, ro, &r, &n, err);
	if (!rc)
		rc = runbook_of(cat, spec, &a, err);
	snprintf(label, sizeof(label), "uploaded, %zu file%s", n, n == 1 ? "" : "s");
	if (!rc)
		rc = nicfit__accept_judge_results(a, label, r, n, err);
	if (!rc) {
		rc = nicfit_accept_render(a, e);
		*status = nicfit_accept_exit_code(a);
	}
out:
	nicfit_accept_free(a);
	results_free(r, n);
	if (spec)
		nicfit_spec_release(spec);
	free(spec);
	nicfit__jscan_release(&js);
	return rc;
}
