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
	struct nicfit_audit_opts ao;
	struct nicfit_catalog *cat;
	struct nicfit_dump *d = NULL;
	struct nicfit_topo *t = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_emit *e;
	int rc;

	memset(&ao, 0, sizeof(ao));
	ao.pci_ids = 1;
	if (nicfit_dump_new(&d))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	rc = nicfit_dump_add_path(d, path, err);
	if (!rc)
		rc = nicfit_dump_topo(d, &t, err);
	if (!rc) {
		cat = cli_catalog(c, &rc);
		if (!cat)
			rc = nicfit_error_set(err, NICFIT_E_DATA, "fleet: the catalog cannot be read");
		else
			rc = nicfit_audit_judge(t, cat, &ao, &a, err);
	}
	if (!rc)
		rc = nicfit_dump_judge(d, a, err);
	if (!rc) {
		e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
		rc = !e ? nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory") :
		     nicfit_audit_render(a, e) || nicfit_emit_finish(e, out) ?
		     nicfit_error_set(err, NICFIT_E_NOMEM, "%s: cannot render the audit", path) : 0;
		nicfit_emit_free(e);
	}
	nicfit_audit_free(a);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
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
		if (!rc && snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name) >=
		    (int)sizeof(path))
			rc = nicfit_error_at(err, NICFIT_E_USAGE, dir, 0, 0, "path too long");
		nicfit_buf_reset(&doc);
		if (!rc)
			rc = audit_dump(c, path, &doc, err);
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
		struct nicfit_ops_run run;

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

int cmd_fleet(struct cli *c, int argc, char **argv)
{
	struct nicfit_fleet_limits lim;
	struct nicfit_fleet_opts o;
	struct nicfit_fleet *fl = NULL;
	struct nicfit_error err;
	const char *ignore[MAX_IGNORE + 1], *output = NULL;
	double t0 = now_s(CLOCK_MONOTONIC);
	int nignore = 0, strict = 0, ch, i, rc, ndumps = 0;
	const char *dumps[MAX_IGNORE];
	struct cli_input *in;
	struct cli_out out;
	size_t nin = 0;
	unsigned flags = 0;
	long mb;

	memset(&lim, 0, sizeof(lim));
	memset(&o, 0, sizeof(o));
	nicfit_error_clear(&err);
	optind = 0;
	while ((ch = cli_getopt(argc, argv, "fleet")) != -1) {
		switch (ch) {
		case CLI_OPT_EXPECT:
			o.expect = optarg;
			break;
		case CLI_OPT_IGNORE:
			if (add_ignores(optarg, ignore, &nignore))
				return 64;
			break;
		case CLI_OPT_STRICT:
			strict = 1;
			break;
		case CLI_OPT_ALL_HOSTS:
			flags |= NICFIT_FLEET_ALL_HOSTS;
			break;
		case CLI_OPT_OUTPUT:
			output = optarg;
			break;
		case CLI_OPT_DUMPS:
			if (ndumps == MAX_IGNORE)
				return cli_error(NICFIT_E_USAGE, "fleet: at most %d --dumps", MAX_IGNORE);
			dumps[ndumps++] = optarg;
			break;
		case CLI_OPT_MAX_DOC:
			if (nicfit_parse_long(optarg, "--max-doc-mb", 1, 4095, &mb, &err))
				return cli_fail(&err);
			lim.max_doc_bytes = (size_t)mb << 20;
			break;
		default:
			return 64;
		}
	}
	ignore[nignore] = NULL;
	o.ignore = nignore ? ignore : NULL;
	if (c->fmt == NICFIT_FMT_SVG)
		return cli_error(NICFIT_E_USAGE, "fleet: no SVG output (use text, json, md or csv)");
	if (optind >= argc && !ndumps && isatty(STDIN_FILENO)) {
		cli_error(NICFIT_E_USAGE, "fleet: give audit files, a directory, or - for standard input");
		return cli_usage("fleet");
	}
	/* the audits read must not be replaced, and a bad destination is refused before them */
	in = calloc((size_t)(ndumps + argc - optind + c->ncatalogs) + 1, sizeof(*in));
	if (!in)
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	for (i = 0; i < ndumps; i++)
		in[nin++] = (struct cli_input){ "--dumps", dumps[i], CLI_LISTS_ALL };
	for (i = optind; i < argc; i++)
		in[nin++] = (struct cli_input){ "", argv[i], CLI_LISTS_JSON };
	for (i = 0; i < c->ncatalogs; i++)
		in[nin++] = (struct cli_input){ "--catalog", c->catalogs[i], CLI_LISTS_NONE };
	rc = cli_output_open(c, &out, output, in, nin);
	free(in);
	if (rc)
		return rc;
	if (nicfit_fleet_new(&fl, &lim)) {
		rc = cli_error(NICFIT_E_NOMEM, "out of memory");
		goto out;
	}
	rc = 0;
	for (i = 0; i < ndumps && !rc; i++)
		rc = add_dump_hosts(c, fl, dumps[i], &err);
	if (!rc && optind >= argc && !ndumps) {
		rc = nicfit_fleet_add_fd(fl, STDIN_FILENO, "-", &err);
	} else {
		for (i = optind; i < argc && !rc; i++) {
			if (!strcmp(argv[i], "-"))
				rc = nicfit_fleet_add_fd(fl, STDIN_FILENO, "-", &err);
			else
				rc = nicfit_fleet_add_path(fl, argv[i], &err);
		}
	}
	print_problems(fl);
	if (rc) {
		rc = cli_fail(&err);
		goto out;
	}
	if (strict && nicfit_fleet_nproblems_total(fl)) {
		rc = cli_error(NICFIT_E_DATA, "fleet: %zu input problem%s and --strict",
			       nicfit_fleet_nproblems_total(fl),
			       nicfit_fleet_nproblems_total(fl) == 1 ? "" : "s");
		goto out;
	}
	if (nicfit_fleet_analyze(fl, &o, &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	rc = report(c, fl, flags, t0);
	if (!rc)
		rc = nicfit_fleet_exit_status(fl);
out:
	nicfit_fleet_free(fl);
	return cli_output_close(c, &out, rc);
}
