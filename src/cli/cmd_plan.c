/*
 * cmd_plan.c - `nicfit plan [--spec FILE.json] [--option value]...`: the
 * options (and the spec file, which they override) become one spec that
 * the library plans with, as POST /api/plan does with its body.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "nicfit/audit.h"
#include "nicfit/file.h"
#include "nicfit/host.h"
#include "nicfit/plan.h"

/* A spec file is a small JSON object: 1 MiB is far more than any needs. */
#define MAX_SPEC_FILE NICFIT_SPEC_MAX_BYTES

/*
 * Read the spec file at path ("-": standard input) into spec. The two
 * errors users meet most keep their own words: a directory given for the
 * file, and a file over the limit.
 */
static int read_spec(const char *path, struct nicfit_spec *spec)
{
	struct nicfit_error err;
	char *text;
	size_t len;
	int rc;

	nicfit_error_clear(&err);
	if (nicfit_read_file(path, MAX_SPEC_FILE, &text, &len, &err)) {
		if (err.code == NICFIT_E_LIMIT)
			return cli_error(NICFIT_E_LIMIT, "%s: larger than 1 MiB", path);
		if (err.code == NICFIT_E_IO && !strcmp(err.msg, "is a directory"))
			return cli_error(NICFIT_E_IO, "%s: is a directory, not a spec file", path);
		return cli_fail(&err);
	}
	snprintf(spec->input, sizeof(spec->input), "%s", strcmp(path, "-") ? path : "<stdin>");
	rc = nicfit_spec_parse_json(spec, text, len, &err);
	free(text);
	return rc ? cli_fail(&err) : 0;
}

/*
 * Split plan's words: the spec file is read first, wherever --spec
 * stands, so that the other options override its keys; --from-host and
 * --sysfs ROOT make the host the server; the rest go to rest. Returns 0 or
 * an exit code after printing the error.
 */
static int plan_words(int argc, char **argv, struct nicfit_spec *spec, char **rest, int *n,
		      const char **host_root, int *from_host)
{
	int i, rc = 0;

	for (i = 1; i < argc && !rc; i++) {
		if (!strcmp(argv[i], "--spec")) {
			if (i + 1 >= argc)
				return cli_error(NICFIT_E_USAGE, "plan: --spec needs a file");
			rc = read_spec(argv[++i], spec);
		} else if (!strncmp(argv[i], "--spec=", 7)) {
			rc = read_spec(argv[i] + 7, spec);
		} else if (!strcmp(argv[i], "--from-host")) {
			*from_host = 1;
		} else if (!strcmp(argv[i], "--sysfs") && i + 1 < argc) {
			*host_root = argv[++i];
			*from_host = 1;
		} else if (!strncmp(argv[i], "--sysfs=", 8)) {
			*host_root = argv[i] + 8;
			*from_host = 1;
		} else {
			rest[(*n)++] = argv[i];
		}
	}
	return rc;
}

/*
 * --server FILE.json: a file that holds one server (`audit --format
 * catalog` writes one) is overlaid on the catalog and planned with, by its
 * id. A value with a '/' or ending in ".json" is a file: catalog ids have
 * neither a '/' nor, in the catalog's data, that ending.
 */
static int server_file(struct nicfit_catalog *cat, struct nicfit_spec *spec)
{
	const char *v = nicfit_spec_get(spec, "server");
	struct nicfit_error err;
	char id[64];
	size_t len = v ? strlen(v) : 0;

	if (!v || (!strchr(v, '/') && (len < 5 || strcmp(v + len - 5, ".json"))))
		return 0;
	nicfit_error_clear(&err);
	if (nicfit_catalog_overlay_server_file(cat, v, id, sizeof(id), &err) ||
	    nicfit_spec_add(spec, "server", id, &err))
		return cli_fail(&err);
	return 0;
}

int cmd_plan(struct cli *c, int argc, char **argv)
{
	static const char *const flags[] = { "explain", "example", "disaggregated",
					     "checkpoint-async", NULL };
	struct nicfit_catalog *cat;
	struct nicfit_spec *spec;
	struct nicfit_error err;
	struct nicfit_emit *e;
	enum nicfit_severity worst = NICFIT_SEV_NONE;
	const char *host_root = NULL;
	char **rest;
	int rc = 0, n = 0, from_host = 0;

	spec = calloc(1, sizeof(*spec));
	rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!spec || !rest) {
		free(spec);
		free(rest);
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	}
	nicfit_spec_init(spec, "plan");
	rc = plan_words(argc, argv, spec, rest, &n, &host_root, &from_host);
	if (!rc)
		rc = cli_args_to_spec(n, rest, 0, flags, spec, "plan");
	if (rc)
		goto out;
	cat = cli_catalog(c, &rc);
	if (!cat)
		goto out;
	rc = server_file(cat, spec);
	if (rc)
		goto out;
	nicfit_error_clear(&err);
	if (from_host) { /* this host (or a snapshot) is the server */
		struct nicfit_host_request rq = { 0 };

		rq.root = host_root ? host_root : getenv("NICFIT_SYSFS_ROOT");
		if (nicfit_audit_spec_from_host(cat, &rq, spec, &err)) {
			rc = !host_root && rq.root && *rq.root && err.code == NICFIT_E_NOTFOUND ?
				cli_fail_env(&err, "NICFIT_SYSFS_ROOT") : cli_fail(&err);
			goto out;
		}
	}
	e = cli_emitter(c);
	rc = nicfit_plan_run_judged(cat, spec, e, &worst, &err);
	rc = cli_emit_result(c, e, rc, &err);
	/* like audit: 2 when the plan cannot be built as asked, 1 for warnings */
	if (!rc)
		rc = nicfit_plan_exit_code(worst);
out:
	nicfit_spec_release(spec);
	free(spec);
	free(rest);
	return rc;
}
