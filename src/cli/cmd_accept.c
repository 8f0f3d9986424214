/*
 * cmd_accept.c - `nicfit accept`: the acceptance runbook of a plan (its
 * spec file, an --example, or plan's own options) or of an audited host
 * (--sysfs, --dump, --from-host), as text, JSON, Markdown or a bash
 * script (--script); with --results DIR, the outputs the script kept,
 * judged.
 *
 *   nicfit accept [--spec FILE.json | --plan PLAN.json | --example=NAME | PLAN OPTIONS...]
 *                 [--sysfs DIR|FILE.tar.gz | --dump PATH... | --from-host]
 *                 [--hosts LIST | --nodes N] [--launcher mpirun|srun] [--read]
 *                 [--script | --results DIR]
 *
 * Exit status: the runbook 0; judged, 0 every step within band, 1 some
 * below typical or missing, 2 some below the broken line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "nicfit/accept.h"
#include "nicfit/file.h"
#include "nicfit/host.h"
#include "nicfit/plan.h"

#define ACCEPT_MAX_DUMPS 16

struct accept_args {
	const char *sysfs, *hosts, *results, *plan;
	const char *dumps[ACCEPT_MAX_DUMPS];
	int ndumps, from_host, nodes, script, read;
	enum nicfit_accept_launcher launcher;
};

static int read_spec(const char *path, struct nicfit_spec *spec)
{
	struct nicfit_error err;
	char *text;
	size_t len;
	int rc;

	nicfit_error_clear(&err);
	if (nicfit_read_file(path, NICFIT_SPEC_MAX_BYTES, &text, &len, &err))
		return cli_fail(&err);
	snprintf(spec->input, sizeof(spec->input), "%s", strcmp(path, "-") ? path : "<stdin>");
	rc = nicfit_spec_parse_json(spec, text, len, &err);
	free(text);
	return rc ? cli_fail(&err) : 0;
}

/* The value of option name at argv[*i] ("--name V" or "--name=V"), or NULL when not it. */
static const char *value_of(int argc, char **argv, int *i, const char *name, int *missing)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}

static int own_value(struct accept_args *g, const char *opt, const char *v,
		     struct nicfit_spec *spec)
{
	struct nicfit_error err;
	long n;

	nicfit_error_clear(&err);
	if (!*v)
		return cli_error(NICFIT_E_USAGE, "accept: %s: empty value", opt);
	if (!strcmp(opt, "--spec"))
		return read_spec(v, spec);
	if (!strcmp(opt, "--sysfs"))
		g->sysfs = v;
	else if (!strcmp(opt, "--hosts"))
		g->hosts = v;
	else if (!strcmp(opt, "--results"))
		g->results = v;
	else if (!strcmp(opt, "--plan"))
		g->plan = v;
	else if (!strcmp(opt, "--dump")) {
		if (g->ndumps == ACCEPT_MAX_DUMPS)
			return cli_error(NICFIT_E_USAGE, "accept: at most %d --dump",
					 ACCEPT_MAX_DUMPS);
		g->dumps[g->ndumps++] = v;
	} else if (!strcmp(opt, "--nodes")) {
		if (nicfit_parse_long(v, "--nodes", 1, NICFIT_ACCEPT_MAX_NODES, &n, &err))
			return cli_fail(&err);
		g->nodes = (int)n;
	} else if (!strcmp(opt, "--launcher")) {
		if (strcmp(v, "mpirun") && strcmp(v, "srun"))
			return cli_error(NICFIT_E_USAGE, "accept: --launcher: '%.32s' is not "
					 "mpirun or srun", v);
		g->launcher = strcmp(v, "srun") ? NICFIT_ACCEPT_MPIRUN : NICFIT_ACCEPT_SRUN;
	}
	return 0;
}

/*
 * Split accept's words: its own options into g (the spec file read
 * first, wherever it stands, as plan does), the rest, plan's options,
 * into rest. Returns 0 or an exit code after printing the error.
 */
static int accept_words(int argc, char **argv, struct accept_args *g, struct nicfit_spec *spec,
			char **rest, int *n)
{
	static const char *const own[] = { "--spec", "--sysfs", "--dump", "--hosts", "--nodes",
					   "--launcher", "--results", "--plan", NULL };
	int i, k, rc = 0;

	for (i = 1; i < argc && !rc; i++) {
		const char *v = NULL;
		int missing = 0;

		for (k = 0; own[k] && !v && !missing; k++)
			v = value_of(argc, argv, &i, own[k], &missing);
		if (missing)
			return cli_error(NICFIT_E_USAGE, "accept: %s needs a value", argv[i]);
		if (v)
			rc = own_value(g, own[k - 1], v, spec);
		else if (!strcmp(argv[i], "--from-host"))
			g->from_host = 1;
		else if (!strcmp(argv[i], "--script"))
			g->script = 1;
		else if (!strcmp(argv[i], "--read"))
			g->read = 1;
		else
			rest[(*n)++] = argv[i];
	}
	if (!rc && g->script && g->results)
		rc = cli_error(NICFIT_E_USAGE, "accept: --script writes the runbook, --results "
			       "judges it: choose one");
	if (!rc && !!g->sysfs + !!g->ndumps + g->from_host > 1)
		rc = cli_error(NICFIT_E_USAGE, "accept: --sysfs, --dump and --from-host each "
			       "name the host: choose one");
	if (!rc && (g->sysfs || g->ndumps || g->from_host) && *n)
		rc = cli_error(NICFIT_E_USAGE, "accept: %s is a plan's option; an audited host "
			       "is its own system", rest[0]);
	if (!rc && g->plan && (g->sysfs || g->ndumps || g->from_host))
		rc = cli_error(NICFIT_E_USAGE, "accept: --plan names a saved plan, --sysfs, --dump "
			       "and --from-host a host: choose one");
	if (!rc && g->plan && (*n || spec->n))
		rc = cli_error(NICFIT_E_USAGE, "accept: %s: the saved plan is the whole request; "
			       "plan again with it to change it", *n ? rest[0] : "--spec");
	return rc;
}

/* The system of a saved plan (plan -j's JSON). Returns 0 or an exit code. */
static int plan_file(const struct nicfit_catalog *cat, const char *path,
		     struct nicfit_accept_system *sys)
{
	struct nicfit_error err;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	char *text;
	size_t len;
	int rc;

	nicfit_error_clear(&err);
	if (nicfit_read_file(path, 4 * NICFIT_SPEC_MAX_BYTES, &text, &len, &err))
		return cli_fail(&err);
	rc = nicfit_accept_system_from_plan_json(cat, name, text, len, sys, &err);
	free(text);
	return rc ? cli_fail(&err) : 0;
}

/* The system: the host's, or the plan's. Returns 0 or an exit code. */
static int system_of(struct cli *c, struct accept_args *g, struct nicfit_spec *spec, int n,
		     char **rest, struct nicfit_accept_system *sys, char **causes)
{
	static const char *const flags[] = { "explain", "example", "disaggregated",
					     "checkpoint-async", NULL };
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	int rc = 0;

	cat = cli_catalog(c, &rc);
	if (!cat)
		return rc;
	nicfit_error_clear(&err);
	if (g->plan) {
		if (g->nodes)
			return cli_error(NICFIT_E_USAGE, "accept: --nodes counts copies of an "
					 "audited host; a saved plan has its servers");
		rc = plan_file(cat, g->plan, sys);
		if (rc)
			return rc;
	} else if (g->sysfs || g->ndumps || g->from_host) {
		struct nicfit_host_request rq;

		memset(&rq, 0, sizeof(rq));
		rq.root = g->sysfs ? g->sysfs : g->from_host ? getenv("NICFIT_SYSFS_ROOT") : NULL;
		rq.dumps = g->dumps;
		rq.ndumps = g->ndumps;
		if (nicfit_accept_system_from_host(cat, &rq, g->nodes, sys, causes, &err))
			return cli_fail(&err);
	} else {
		if (g->nodes)
			return cli_error(NICFIT_E_USAGE, "accept: --nodes counts copies of an "
					 "audited host; a plan has its --servers");
		rc = cli_args_to_spec(n, rest, 0, flags, spec, "accept");
		if (rc)
			return rc;
		if (nicfit_accept_system_from_plan(cat, spec, sys, &err))
			return cli_fail(&err);
	}
	sys->launcher = g->launcher;
	sys->read = g->read;
	if (g->hosts)
		rc = nicfit_accept_set_hosts(sys, g->hosts, &err);
	else
		rc = nicfit_accept_default_hosts(sys, &err);
	return rc ? cli_fail(&err) : 0;
}

static int output(struct cli *c, struct accept_args *g, struct nicfit_accept *a,
		  const char *causes)
{
	struct nicfit_error err;
	struct nicfit_emit *e;
	int rc;

	nicfit_error_clear(&err);
	if (g->script) {
		if (c->fmt_given && c->fmt != NICFIT_FMT_TEXT)
			return cli_error(NICFIT_E_USAGE, "accept: --script writes bash; leave out "
					 "--format and -j");
		c->view.width = 0;
		return nicfit_accept_script(a, &c->out) ? cli_error(NICFIT_E_NOMEM, "out of "
								   "memory") : 0;
	}
	if (g->results && nicfit_accept_judge(a, g->results, causes, &err))
		return cli_fail(&err);
	e = cli_emitter(c);
	rc = nicfit_accept_render(a, e);
	rc = cli_emit_result(c, e, rc, &err);
	return rc ? rc : nicfit_accept_exit_code(a);
}

int cmd_accept(struct cli *c, int argc, char **argv)
{
	struct nicfit_accept_system sys;
	struct accept_args g;
	struct nicfit_accept *a = NULL;
	struct nicfit_spec *spec;
	struct nicfit_error err;
	char **rest, *causes = NULL;
	int rc, n = 0;

	memset(&g, 0, sizeof(g));
	memset(&sys, 0, sizeof(sys));
	spec = calloc(1, sizeof(*spec));
	rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!spec || !rest) {
		free(spec);
		free(rest);
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	}
	nicfit_spec_init(spec, "accept");
	rc = accept_words(argc, argv, &g, spec, rest, &n);
	if (!rc)
		rc = system_of(c, &g, spec, n, rest, &sys, &causes);
	nicfit_error_clear(&err);
	if (!rc && nicfit_accept_new(&sys, &a, &err))
		rc = cli_fail(&err);
	if (!rc)
		rc = output(c, &g, a, causes);
	nicfit_accept_free(a);
	free(sys.hosts);
	free(causes);
	nicfit_spec_release(spec);
	free(spec);
	free(rest);
	return rc;
}
