/*
 * cmd_fleet.c - `nicfit fleet [FILE... | DIR | -]`: read the audits that
 * pdsh, clush, Ansible or Slurm gathered, compare them, name the odd hosts.
 * Input problems (a truncated document, a host read twice) go to stderr,
 * one line each; the report goes to stdout; the exit status is the worst
 * severity (0, 1, 2) as for audit.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "util.h"
#include "nicfit/audit.h"
#include "nicfit/buf.h"
#include "nicfit/dump.h"
#include "nicfit/emit.h"
#include "nicfit/fleet.h"
#include "nicfit/host.h"
#include "nicfit/ops.h"
#include "nicfit/units.h"

#define MAX_IGNORE 64

/*
 * Split "a,b,c" into ignore[] (pointers into the modified argument). Each
 * must be a registered code that fleet reports: its own anomaly codes or
 * an audit's finding code (a finding some hosts have and others not).
 */
static int add_ignores(char *arg, const char **ignore, int *n)
{
	struct nicfit_error err;
	char *p = arg, *comma;

	for (;;) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (*p) {
			nicfit_error_clear(&err);
			if (nicfit_code_check_ignore(p, NICFIT_ENGINE_FLEET | NICFIT_ENGINE_AUDIT,
						     "--ignore", &err))
				return cli_fail(&err);
			if (*n >= MAX_IGNORE)
				return cli_error(NICFIT_E_USAGE, "fleet: at most %d --ignore codes",
						 MAX_IGNORE);
			ignore[(*n)++] = p;
		}
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* One host's dumps (a directory or a file) audited into a JSON document in out. */
static int audit_dump(struct cli *c, const char *path, struct nicfit_buf *out,
		      struct nicfit_error *err)
{
	struct nicfit_audit_request rq;
	struct nicfit_catalog *cat;
	struct nicfit_host *h = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_emit *e;
	int rc;

	memset(&rq, 0, sizeof(rq));
	rq.opts.pci_ids = 1;
	rq.host.dumps = &path;
	rq.host.ndumps = 1;
	rc = nicfit_host_open(&rq.host, &h, err);
	if (!rc) {
		cat = cli_catalog(c, &rc);
		if (!cat)
			rc = nicfit_error_set(err, NICFIT_E_DATA, "fleet: the catalog cannot be read");
		else
			rc = nicfit_audit_run_host(cat, &rq, h, &a, err);
	}
	if (!rc) {
		e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
		rc = !e ? nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory") :
		     nicfit_audit_render(a, e) || nicfit_emit_finish(e, out) ?
		     nicfit_error_set(err, NICFIT_E_NOMEM, "%s: cannot render the audit", path) : 0;
		nicfit_emit_free(e);
	}
	nicfit_audit_free(a);
	nicfit_host_close(h);
	return rc;
}

static int not_hidden(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

/*
 * fleet --dumps DIR: DIR holds one entry per host, a directory of its
 * dumps or one pasted file, read as `audit --dump ENTRY` reads it; its
 * audit joins the fleet under the entry's name (the dumps carry none).
 */
static int add_dump_hosts(struct cli *c, struct nicfit_fleet *fl, const char *dir,
			  struct nicfit_error *err)
{
	struct dirent **ents = NULL;
	struct nicfit_buf doc;
	char path[4096];
	int n = scandir(dir, &ents, not_hidden, alphasort), i, rc = 0;

	if (n < 0)
		return nicfit_error_at(err, NICFIT_E_NOTFOUND, dir, 0, 0,
				       "not a readable directory of dumps");
	nicfit_buf_init(&doc, (size_t)64 << 20);
	for (i = 0; i < n; i++) {
		struct nicfit_error one;
		int hrc = 0;

		if (!rc && snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name) >=
		    (int)sizeof(path))
			rc = nicfit_error_at(err, NICFIT_E_USAGE, dir, 0, 0, "path too long");
		nicfit_buf_reset(&doc);
		nicfit_error_clear(&one);
		if (!rc)
			hrc = audit_dump(c, path, &doc, &one);
		/* one host's dumps that cannot be read are its problem, not the fleet's end */
		if (!rc && hrc == NICFIT_E_NOMEM)
			rc = nicfit_error_set(err, hrc, "out of memory");
		else if (!rc && hrc) {
			size_t k = strlen(path);

			/* the entry as the problem's input, said once */
			if (!one.input[0]) {
				if (!strncmp(one.msg, path, k) && !strncmp(one.msg + k, ": ", 2))
					memmove(one.msg, one.msg + k + 2, strlen(one.msg + k + 2) + 1);
				snprintf(one.input, sizeof(one.input), "%s", path);
			}
			rc = nicfit_fleet_add_unreadable(fl, ents[i]->d_name, &one, err);
			free(ents[i]);
			continue;
		}
		if (!rc)
			rc = nicfit_fleet_begin(fl, path, ents[i]->d_name, err);
		if (!rc)
			rc = nicfit_fleet_feed(fl, doc.data, doc.len, err);
		if (!rc)
			rc = nicfit_fleet_end(fl, err);
		free(ents[i]);
	}
	free(ents);
	nicfit_buf_release(&doc);
	return rc;
}

static void print_problems(const struct nicfit_fleet *fl)
{
	size_t i, n = nicfit_fleet_nproblems(fl), total = nicfit_fleet_nproblems_total(fl);
	char line[1024];

	for (i = 0; i < n; i++) {
		const struct nicfit_fleet_problem *p = nicfit_fleet_problem(fl, i);

		nicfit_error_line(&p->where, line, sizeof(line));
		fprintf(stderr, "nicfit: %s%s\n",
			p->kind == NICFIT_FLEET_UNREADABLE ? "" : "warning: ", line);
	}
	if (total > n)
		fprintf(stderr, "nicfit: %zu more input problems not shown\n", total - n);
}

static double now_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* -o with --format prom, which shows no table, checked against the text report's (cli.h). */
static int check_columns(struct cli *c, const struct nicfit_fleet *fl, unsigned flags)
{
	int rc;
	struct nicfit_emit *e = cli_columns_probe(c, &rc);

	if (!e)
		return rc;
	nicfit_fleet_render(e, fl, flags);
	return cli_columns_checked(e);
}

/* The analysed fleet in the chosen format, to stdout or --output's file. */
static int report(struct cli *c, const struct nicfit_fleet *fl, unsigned flags, double t0)
{
	struct nicfit_emit *e;
	int rc;

	if (c->fmt == NICFIT_FMT_PROM) {
		struct nicfit_ops_run run = { -1, -1, 0 };

		rc = check_columns(c, fl, flags);
		if (rc)
			return rc;
		run.duration_s = now_s(CLOCK_MONOTONIC) - t0;
		run.end_time_s = now_s(CLOCK_REALTIME);
		rc = nicfit_fleet_render_prom(fl, &run, &c->out);
		if (rc)
			return cli_error(rc, "fleet: cannot render the report: %s",
					 nicfit_strerror(rc));
		return 0;
	}
	e = cli_emitter(c);
	nicfit_fleet_render(e, fl, flags);
	return cli_emit_done(c, e);
}

/* The options of one `nicfit fleet`. */
struct fleet_args {
	struct nicfit_fleet_limits lim;
	struct nicfit_fleet_opts o;
	const char *ignore[MAX_IGNORE + 1];
	const char *dumps[MAX_IGNORE];
	const char *output;
	int nignore, ndumps, strict;
	unsigned flags;
};

/* One option of fleet's into x. Returns 0 or an exit code after printing the error. */
static int fleet_option(struct fleet_args *x, int ch, char *arg)
{
	struct nicfit_error err;
	long mb;

	nicfit_error_clear(&err);
	switch (ch) {
	case CLI_OPT_EXPECT:
		x->o.expect = arg;
		return 0;
	case CLI_OPT_IGNORE:
		return add_ignores(arg, x->ignore, &x->nignore) ?
		       nicfit_exit_code(NICFIT_E_USAGE) : 0;
	case CLI_OPT_STRICT:
		x->strict = 1;
		return 0;
	case CLI_OPT_ALL_HOSTS:
		x->flags |= NICFIT_FLEET_ALL_HOSTS;
		return 0;
	case CLI_OPT_OUTPUT:
		x->output = arg;
		return 0;
	case CLI_OPT_DUMPS:
		if (x->ndumps == MAX_IGNORE)
			return cli_error(NICFIT_E_USAGE, "fleet: at most %d --dumps", MAX_IGNORE);
		x->dumps[x->ndumps++] = arg;
		return 0;
	case CLI_OPT_MAX_DOC:
		if (nicfit_parse_long(arg, "--max-doc-mb", 1, 4095, &mb, &err))
			return cli_fail(&err);
		x->lim.max_doc_bytes = (size_t)mb << 20;
		return 0;
	default:
		return nicfit_exit_code(NICFIT_E_USAGE);
	}
}

/* Read fleet's options into x. Returns 0 or an exit code after printing the error. */
static int fleet_options(struct cli *c, struct fleet_args *x, int argc, char **argv)
{
	int ch, rc;

	memset(x, 0, sizeof(*x));
	optind = 0;
	while ((ch = cli_getopt(argc, argv, "fleet")) != -1)
		if ((rc = fleet_option(x, ch, optarg)) != 0)
			return rc;
	x->ignore[x->nignore] = NULL;
	x->o.ignore = x->nignore ? x->ignore : NULL;
	if (c->fmt == NICFIT_FMT_SVG)
		return cli_error(NICFIT_E_USAGE, "fleet: no SVG output (use text, json, md or csv)");
	if (optind >= argc && !x->ndumps && isatty(STDIN_FILENO)) {
		cli_error(NICFIT_E_USAGE, "fleet: give audit files, a directory, or - for standard input");
		return cli_usage("fleet");
	}
	return 0;
}

/* The audits read must not be replaced, and a bad destination is refused before them. */
static int fleet_output_open(struct cli *c, const struct fleet_args *x, int argc, char **argv,
			     struct cli_out *out)
{
	struct cli_input *in;
	size_t nin = 0;
	int i, rc;

	in = calloc((size_t)(x->ndumps + argc - optind + c->ncatalogs) + 1, sizeof(*in));
	if (!in)
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	for (i = 0; i < x->ndumps; i++)
		in[nin++] = (struct cli_input){ "--dumps", x->dumps[i], CLI_LISTS_ALL };
	for (i = optind; i < argc; i++)
		in[nin++] = (struct cli_input){ "", argv[i], CLI_LISTS_JSON };
	for (i = 0; i < c->ncatalogs; i++)
		in[nin++] = (struct cli_input){ "--catalog", c->catalogs[i], CLI_LISTS_NONE };
	rc = cli_output_open(c, out, x->output, in, nin);
	free(in);
	return rc;
}

/* Read the dumps' hosts and the audits (standard input when none is named) into fl. */
static int fleet_read(struct cli *c, struct nicfit_fleet *fl, const struct fleet_args *x,
		      int argc, char **argv, struct nicfit_error *err)
{
	int i, rc = 0;

	for (i = 0; i < x->ndumps && !rc; i++)
		rc = add_dump_hosts(c, fl, x->dumps[i], err);
	if (!rc && optind >= argc && !x->ndumps)
		return nicfit_fleet_add_fd(fl, STDIN_FILENO, "-", err);
	for (i = optind; i < argc && !rc; i++) {
		if (!strcmp(argv[i], "-"))
			rc = nicfit_fleet_add_fd(fl, STDIN_FILENO, "-", err);
		else
			rc = nicfit_fleet_add_path(fl, argv[i], err);
	}
	return rc;
}

int cmd_fleet(struct cli *c, int argc, char **argv)
{
	double t0 = now_s(CLOCK_MONOTONIC);
	struct nicfit_fleet *fl = NULL;
	struct nicfit_error err;
	struct fleet_args x;
	struct cli_out out;
	int rc;

	rc = fleet_options(c, &x, argc, argv);
	if (!rc)
		rc = fleet_output_open(c, &x, argc, argv, &out);
	if (rc)
		return rc;
	nicfit_error_clear(&err);
	if (nicfit_fleet_new(&fl, &x.lim)) {
		rc = cli_error(NICFIT_E_NOMEM, "out of memory");
		goto out;
	}
	rc = fleet_read(c, fl, &x, argc, argv, &err);
	print_problems(fl);
	if (rc) {
		rc = cli_fail(&err);
		goto out;
	}
	if (x.strict && nicfit_fleet_nproblems_total(fl)) {
		rc = cli_error(NICFIT_E_DATA, "fleet: %zu input problem%s and --strict",
			       nicfit_fleet_nproblems_total(fl),
			       nicfit_fleet_nproblems_total(fl) == 1 ? "" : "s");
		goto out;
	}
	if (nicfit_fleet_analyze(fl, &x.o, &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	rc = report(c, fl, x.flags, t0);
	if (!rc)
		rc = nicfit_fleet_exit_status(fl);
out:
	nicfit_fleet_free(fl);
	return cli_output_close(c, &out, rc);
}
