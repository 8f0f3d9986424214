/*
 * cmd_audit.c - `nicfit audit`: read this host's sysfs (or a snapshot),
 * judge it, print the report. The exit status says the worst finding:
 * 0 clean, 1 warnings, 2 critical.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "host.h"
#include "util.h"
#include "nicfit/audit.h"
#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/file.h"
#include "nicfit/finding.h"
#include "nicfit/plan.h"
#include "nicfit/snapshot.h"
#include "nicfit/topo.h"
#include "nicfit/verify.h"

#define MAX_IGNORE 64

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

/* Print the report; the exit status is then the worst finding's. */
static int report(struct cli *c, const struct nicfit_audit *a)
{
	struct nicfit_emit *e = cli_emitter(c);
	int rc = nicfit_audit_render(a, e);

	if (rc) {
		nicfit_emit_free(e);
		return cli_error(rc, "audit: cannot render the report: %s", nicfit_strerror(rc));
	}
	rc = cli_emit_done(c, e);
	return rc ? rc : nicfit_audit_exit_code(a);
}

int cmd_audit(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sysfs", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "pci-ids", required_argument, NULL, 'P' },
		{ "no-pci-ids", no_argument, NULL, 'N' },
		{ "assume", required_argument, NULL, 'A' },
		{ "plan", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 }
	};
	const char *ignore[MAX_IGNORE], *root = getenv("NICFIT_SYSFS_ROOT"), *pciids = NULL;
	const char *plan_spec = NULL;
	struct nicfit_audit_opts ao;
	struct nicfit_pcie_params pp;
	struct nicfit_catalog *cat;
	struct nicfit_topo *topo = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	char *tmpdir = NULL, *tmproot = NULL;
	int ch, rc, nignore = 0, all = 0, no_pciids = 0;

	nicfit_error_clear(&err);
	nicfit_pcie_params_default(&pp);
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "", opts, "audit")) != -1) {
		switch (ch) {
		case 's':
			/* an empty --sysfs is a mistake (an unset variable), not the live host */
			if (!*optarg)
				return cli_error(NICFIT_E_USAGE, "audit: --sysfs: empty path "
						 "(leave the option out to audit this host)");
			root = optarg;
			break;
		case 'a':
			all = 1;
			break;
		case 'i':
			if (nignore == MAX_IGNORE)
				return cli_error(NICFIT_E_USAGE, "audit: at most %d --ignore", MAX_IGNORE);
			/* a mistyped code would silently ignore nothing */
			if (nicfit_code_check_ignore(optarg, NICFIT_ENGINE_AUDIT, "--ignore", &err))
				return cli_fail(&err);
			ignore[nignore++] = optarg;
			break;
		case 'P':
			pciids = optarg;
			break;
		case 'N':
			no_pciids = 1;
			break;
		case 'L':
			plan_spec = optarg;
			break;
		case 'A':
			if (nicfit_param_assign(nicfit_pcie_param_table, nicfit_pcie_param_count, &pp,
						optarg, "--assume", &err))
				return cli_fail(&err);
			break;
		default:
			return 64;
		}
	}
	if (optind < argc) {
		cli_error(NICFIT_E_USAGE, "audit: unexpected argument '%.64s'", argv[optind]);
		return cli_usage("audit");
	}
	rc = discover(root && *root ? root : "/", &topo, &tmpdir, &tmproot);
	if (rc)
		goto out;
	if (c->nccl_topo) {
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
	if (plan_spec) {
		rc = check_plan(cat, plan_spec, &a, topo, &ao);
		if (rc)
			goto out;
	}
	rc = report(c, a);
out:
	nicfit_audit_free(a);
	nicfit_topo_free(topo);
	if (tmpdir) {
		nicfit_snapshot_remove_tree(tmpdir);
		free(tmpdir);
	}
	free(tmproot);
	return rc;
}
