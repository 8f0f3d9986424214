/*
 * cmd_audit.c - `nicfit audit`: read this host's sysfs (or a snapshot),
 * judge it, print the report. The exit status says the worst finding:
 * 0 clean, 1 warnings, 2 critical.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "host.h"
#include "output.h"
#include "util.h"
#include "nicfit/audit.h"
#include "nicfit/catalog.h"
#include "nicfit/dump.h"
#include "nicfit/emit.h"
#include "nicfit/file.h"
#include "nicfit/finding.h"
#include "nicfit/ops.h"
#include "nicfit/plan.h"
#include "nicfit/snapshot.h"
#include "nicfit/topo.h"
#include "nicfit/verify.h"

#define MAX_IGNORE 64
#define MAX_DUMPS 64

/*
 * audit --plan FILE: plan the request in FILE (plan's JSON spec) with this
 * host as the server, then judge the host against it. The host joins the
 * catalog, which moves catalog entries, so the audit is run again after.
 */
static int check_plan(struct nicfit_catalog *cat, const char *path, struct nicfit_audit **a,
		      const struct nicfit_topo *topo, const struct nicfit_audit_opts *ao)
{
	struct nicfit_spec *spec = calloc(1, sizeof(struct nicfit_spec));
	struct nicfit_plan *plan = calloc(1, sizeof(struct nicfit_plan));
	struct nicfit_plan_input in;
	struct nicfit_error err;
	char *text = NULL;
	size_t len = 0;
	int rc = 0;

	nicfit_error_clear(&err);
	if (!spec || !plan) {
		rc = cli_error(NICFIT_E_NOMEM, "out of memory");
		goto out;
	}
	if (nicfit_read_file(path, NICFIT_SPEC_MAX_BYTES, &text, &len, &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	nicfit_spec_init(spec, strcmp(path, "-") ? path : "<stdin>");
	if (nicfit_spec_parse_json(spec, text, len, &err)) {
		rc = cli_fail(&err);
		goto out_spec;
	}
	rc = cli_host_into_spec(cat, *a, spec);
	if (rc)
		goto out_spec;
	nicfit_audit_free(*a);
	*a = NULL;
	if (nicfit_audit_judge(topo, cat, ao, a, &err) ||
	    nicfit_plan_input_from_spec(cat, spec, &in, &err) || nicfit_plan(cat, &in, plan, &err) ||
	    nicfit_audit_check_plan(*a, plan, &err))
		rc = cli_fail(&err);
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

/*
 * Read the model of root: a sysfs tree, or a snapshot archive unpacked
 * into *tmpdir (the caller removes it). The model keeps the archive's name
 * as its root. Returns 0 or an exit code after printing the error.
 */
static int discover(const char *root, struct nicfit_topo **topo, char **tmpdir,
		    char **tmproot)
{
	struct nicfit_error err;
	int rc;

	nicfit_error_clear(&err);
	if (nicfit_snapshot_is_archive(root)) {
		if (nicfit_snapshot_extract(root, tmpdir, tmproot, &err))
			return cli_fail(&err);
		rc = nicfit_topo_discover(*tmproot, topo, &err);
		if (!rc)
			snprintf((*topo)->root, sizeof((*topo)->root), "%s", root);
		else
			cli_host_name_archive(&err, *tmproot, root);
	} else {
		rc = nicfit_topo_discover(root, topo, &err);
	}
	return rc ? cli_fail(&err) : 0;
}

/*
 * --format nccl-topo: the host as an NCCL_TOPO_FILE. It describes the
 * host, it judges nothing, so it exits 0 whatever the findings.
 */
static int write_nccl_topo(struct cli *c, const struct nicfit_topo *topo)
{
	int rc = nicfit_nccl_topo_write(topo, &c->out);

	return rc ? cli_error(rc, "audit: cannot write the topology: %s", nicfit_strerror(rc)) : 0;
}

/*
 * audit --dump PATH...: read the dumps (files, directories, archives, "-")
 * into a host model. Returns 0 or an exit code after printing the error.
 */
static int read_dumps(const char *const *paths, int n, struct nicfit_dump **dump,
		      struct nicfit_topo **topo)
{
	struct nicfit_error err;
	int i;

	nicfit_error_clear(&err);
	if (nicfit_dump_new(dump))
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	for (i = 0; i < n; i++)
		if (nicfit_dump_add_path(*dump, paths[i], &err))
			return cli_fail(&err);
	return nicfit_dump_topo(*dump, topo, &err) ? cli_fail(&err) : 0;
}

/* Seconds on clock, as a double. */
static double now_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * --expect FILE|DIR: audits (a directory, or a file that holds a
 * nicfit.audit.v1 document, as `nicfit fleet` reads them) or a plan spec.
 * Only the first 64 KiB are looked at: a capture of many hosts can be
 * large, and its first document says what it is.
 */
static int expect_is_audits(const char *path)
{
	struct stat st;
	char head[65536];
	size_t n;
	FILE *f;

	if (!strcmp(path, "-"))
		return 0;
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return 1;
	f = fopen(path, "rb");
	if (!f)
		return 0; /* the spec reader reports it */
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = '\0';
	return strstr(head, "\"nicfit.audit.v1\"") != NULL;
}

/* -o for a format that shows no table, checked against the text report's (cli.h). */
static int check_columns(struct cli *c, const struct nicfit_audit *a)
{
	int rc;
	struct nicfit_emit *e = cli_columns_probe(c, &rc);

	if (!e)
		return rc;
	rc = nicfit_audit_render(a, e);
	if (rc) {
		nicfit_emit_free(e);
		return cli_error(rc, "audit: cannot render the report: %s", nicfit_strerror(rc));
	}
	return cli_columns_checked(e);
}

/*
 * The line formats of other systems (nicfit/ops.h). NHC's exit status is
 * its own: 1 when a line was printed (a check that failed), else 0; the
 * others keep the audit's (0, 1, 2).
 */
static int report_ops(struct cli *c, const struct nicfit_audit *a,
		      const struct nicfit_ops_run *run)
{
	size_t failures = 0;
	int rc = check_columns(c, a);

	if (rc)
		return rc;
	if (c->fmt == NICFIT_FMT_PROM)
		rc = nicfit_audit_render_prom(a, run, &c->out);
	else if (c->fmt == NICFIT_FMT_NFD)
		rc = nicfit_audit_render_nfd(a, &c->out);
	else
		rc = nicfit_audit_render_nhc(a, NICFIT_SEV_WARNING, &c->out, &failures);
	if (rc)
		return cli_error(rc, "audit: cannot render the report: %s", nicfit_strerror(rc));
	if (c->fmt == NICFIT_FMT_NHC)
		return failures ? 1 : 0;
	return nicfit_audit_exit_code(a);
}

/* Print the report; the exit status is then the worst finding's. */
static int report(struct cli *c, const struct nicfit_audit *a, const struct nicfit_ops_run *run)
{
	struct nicfit_emit *e;
	int rc;

	if (c->fmt == NICFIT_FMT_PROM || c->fmt == NICFIT_FMT_NHC || c->fmt == NICFIT_FMT_NFD)
		return report_ops(c, a, run);
	e = cli_emitter(c);
	rc = nicfit_audit_render(a, e);
	if (rc) {
		nicfit_emit_free(e);
		return cli_error(rc, "audit: cannot render the report: %s", nicfit_strerror(rc));
	}
	rc = cli_emit_done(c, e);
	return rc ? rc : nicfit_audit_exit_code(a);
}

/*
 * The files the audit reads, which --output must not replace: the tree
 * (an archive), the dumps, the plan or expectation, pci.ids, overlays.
 */
static size_t audit_inputs(const struct cli *c, struct cli_input *in, const char *root,
			   const char *const *dumps, int ndumps, const char *plan_spec,
			   const char *expect, const char *pciids)
{
	size_t n = 0;
	int i;

	in[n++] = (struct cli_input){ "--sysfs", root, CLI_LISTS_NONE };
	for (i = 0; i < ndumps; i++)
		in[n++] = (struct cli_input){ "--dump", dumps[i], CLI_LISTS_ALL };
	in[n++] = (struct cli_input){ "--plan", plan_spec, CLI_LISTS_NONE };
	in[n++] = (struct cli_input){ "--expect", expect, CLI_LISTS_JSON };
	in[n++] = (struct cli_input){ "--pci-ids", pciids, CLI_LISTS_NONE };
	for (i = 0; i < c->ncatalogs; i++)
		in[n++] = (struct cli_input){ "--catalog", c->catalogs[i], CLI_LISTS_NONE };
	return n;
}

int cmd_audit(struct cli *c, int argc, char **argv)
{
	const char *ignore[MAX_IGNORE], *root = getenv("NICFIT_SYSFS_ROOT"), *pciids = NULL;
	const char *plan_spec = NULL, *expect = NULL, *output = NULL;
	struct nicfit_ops_run run = { -1, -1 };
	double t0 = now_s(CLOCK_MONOTONIC);
	const char *dumps[MAX_DUMPS];
	struct nicfit_dump *dump = NULL;
	int ndumps = 0, sysfs_given = 0;
	struct nicfit_audit_opts ao;
	struct nicfit_pcie_params pp;
	struct nicfit_catalog *cat;
	struct nicfit_topo *topo = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	char *tmpdir = NULL, *tmproot = NULL;
	struct cli_input in[MAX_DUMPS + 4 + CLI_MAX_CATALOGS];
	struct cli_out out;
	int ch, rc, nignore = 0, all = 0, no_pciids = 0;

	nicfit_error_clear(&err);
	nicfit_pcie_params_default(&pp);
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "audit")) != -1) {
		switch (ch) {
		case CLI_OPT_SYSFS:
			/* an empty --sysfs is a mistake (an unset variable), not the live host */
			if (!*optarg)
				return cli_error(NICFIT_E_USAGE, "audit: --sysfs: empty path "
						 "(leave the option out to audit this host)");
			root = optarg;
			sysfs_given = 1;
			break;
		case CLI_OPT_DUMP:
			if (ndumps == MAX_DUMPS)
				return cli_error(NICFIT_E_USAGE, "audit: at most %d dumps", MAX_DUMPS);
			dumps[ndumps++] = optarg;
			break;
		case CLI_OPT_ALL:
			all = 1;
			break;
		case CLI_OPT_IGNORE:
			if (nignore == MAX_IGNORE)
				return cli_error(NICFIT_E_USAGE, "audit: at most %d --ignore", MAX_IGNORE);
			/* a mistyped code would silently ignore nothing */
			if (nicfit_code_check_ignore(optarg, NICFIT_ENGINE_AUDIT, "--ignore", &err))
				return cli_fail(&err);
			ignore[nignore++] = optarg;
			break;
		case CLI_OPT_PCI_IDS:
			pciids = optarg;
			break;
		case CLI_OPT_NO_PCI_IDS:
			no_pciids = 1;
			break;
		case CLI_OPT_PLAN:
			plan_spec = optarg;
			break;
		case CLI_OPT_EXPECT:
			expect = optarg;
			break;
		case CLI_OPT_OUTPUT:
			output = optarg;
			break;
		case CLI_OPT_ASSUME:
			if (nicfit_param_assign(nicfit_pcie_param_table, nicfit_pcie_param_count, &pp,
						optarg, "--assume", &err))
				return cli_fail(&err);
			break;
		default:
			return 64;
		}
	}
	/* audit --dump a.txt b.txt: the words after the options are more dumps */
	while (ndumps && optind < argc && ndumps < MAX_DUMPS)
		dumps[ndumps++] = argv[optind++];
	if (optind < argc) {
		cli_error(NICFIT_E_USAGE, "audit: unexpected argument '%.64s'", argv[optind]);
		return cli_usage("audit");
	}
	if (expect && !expect_is_audits(expect)) {
		if (plan_spec)
			return cli_error(NICFIT_E_USAGE, "audit: --plan and --expect SPEC: give one "
					 "plan (--expect also takes audits)");
		plan_spec = expect;
		expect = NULL;
	}
	if (ndumps && sysfs_given)
		return cli_error(NICFIT_E_USAGE, "audit: --dump and --sysfs: give one of them");
	/* a destination that cannot be written is refused before the host is read */
	rc = cli_output_open(c, &out, output,
			     in, audit_inputs(c, in, ndumps ? NULL : root, dumps, ndumps,
					      plan_spec, expect, pciids));
	if (rc)
		return rc;
	if (ndumps)
		rc = read_dumps(dumps, ndumps, &dump, &topo);
	else
		rc = discover(root && *root ? root : "/", &topo, &tmpdir, &tmproot);
	if (rc)
		goto out;
	if (c->nccl_topo && !c->view.columns) {
		rc = write_nccl_topo(c, topo);
		goto out;
	}
	cat = cli_catalog(c, &rc);
	if (!cat)
		goto out;
	memset(&ao, 0, sizeof(ao));
	ao.ignore = ignore;
	ao.nignore = nignore;
	ao.all = all;
	ao.pcie = &pp;
	ao.pci_ids = !no_pciids;
	ao.pci_ids_path = pciids;
	rc = nicfit_audit_judge(topo, cat, &ao, &a, &err);
	if (rc) {
		rc = cli_fail(&err);
		goto out;
	}
	if (c->nccl_topo) {
		rc = check_columns(c, a);
		if (!rc)
			rc = write_nccl_topo(c, topo);
		goto out;
	}
	if (plan_spec) {
		rc = check_plan(cat, plan_spec, &a, topo, &ao);
		if (rc)
			goto out;
	}
	if (dump && nicfit_dump_judge(dump, a, &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	if (expect && nicfit_audit_expect_fleet(a, expect, &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	run.duration_s = now_s(CLOCK_MONOTONIC) - t0;
	run.end_time_s = now_s(CLOCK_REALTIME);
	rc = report(c, a, &run);
out:
	rc = cli_output_close(c, &out, rc);
	nicfit_audit_free(a);
	nicfit_dump_free(dump);
	nicfit_topo_free(topo);
	if (tmpdir) {
		nicfit_snapshot_remove_tree(tmpdir);
		free(tmpdir);
	}
	free(tmproot);
	return rc;
}
