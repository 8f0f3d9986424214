/*
 * cmd_verify.c - `nicfit verify`: read nccl-tests, NCCL logs, perftest
 * and iperf3 output (and NCCL topology dumps), compare what was measured
 * with what the hardware should carry, name the likely causes.
 *
 *   nicfit verify [--nic PART | --link SPEED | --sysfs DIR | --dump PATH... | --plan SPEC]
 *                 [--proto tcp|roce|ib]
 *                 [--nodes N]
 *                 [--gpus-per-node G] [--nics-per-node K] [--low-ratio R]
 *                 [--far-ratio R] [--max-size BYTES] FILE... | -
 *
 * Exit status: 0 as expected, 1 low (or warnings), 2 far below or broken.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "nicfit/audit.h"
#include "nicfit/file.h"
#include "nicfit/host.h"
#include "nicfit/link.h"
#include "nicfit/plan.h"
#include "nicfit/units.h"
#include "nicfit/verify.h"

/* Dumps of the one host --dump takes, at most (a sosreport is one). */
#define VERIFY_MAX_DUMPS 16

/* The options of one `nicfit verify`: the expectation and where it comes from. */
struct verify_args {
	struct nicfit_verify_expect x;
	const char *nic, *sysfs, *plan;
	const char *dumps[VERIFY_MAX_DUMPS];
	int ndumps;
	int given;               /* the options give the expectation (--link, --nodes) */
	size_t max_size;         /* --max-size: the most bytes an input may hold, 0 any */
};

static int count_opt(const char *name, const char *s, int max, int *out)
{
	struct nicfit_error err;
	long v;

	nicfit_error_clear(&err);
	if (nicfit_parse_long(s, name, 1, max, &v, &err))
		return cli_fail(&err);
	*out = (int)v;
	return 0;
}

static int ratio_opt(const char *name, const char *s, double *out)
{
	struct nicfit_error err;

	nicfit_error_clear(&err);
	if (nicfit_parse_double(s, name, 0.01, 1.0, out, &err))
		return cli_fail(&err);
	return 0;
}

/* Each input read in one pass, mapped (no size limit but --max-size). */
static int read_inputs(struct nicfit_verify *v, int argc, char **argv, size_t max)
{
	struct nicfit_error err;
	int i, rc = 0;

	for (i = 0; i < argc && !rc; i++) {
		nicfit_error_clear(&err);
		if (nicfit_verify_add_file(v, argv[i], max, &err))
			rc = cli_fail(&err);
	}
	return rc;
}

/* --max-size BYTES: a size ("64MiB", "1GB") of bytes, not a parameter count. */
static int max_size_opt(const char *s, size_t *out)
{
	enum nicfit_size_kind kind;
	struct nicfit_error err;
	double d;

	nicfit_error_clear(&err);
	if (nicfit_parse_size(s, "--max-size", &d, &kind, &err))
		return cli_fail(&err);
	if (kind != NICFIT_SIZE_BYTES || d < 1 || d > 1e18)
		return cli_error(NICFIT_E_USAGE, "verify: --max-size %s: a size in bytes, as 64MiB "
				 "or 2GB", s);
	*out = (size_t)d;
	return 0;
}

/* One option of verify's into v. Returns 0 or an exit code after printing the error. */
static int verify_option(struct verify_args *v, int ch, const char *arg)
{
	struct nicfit_verify_expect *x = &v->x;
	struct nicfit_error err;
	enum nicfit_proto proto;

	nicfit_error_clear(&err);
	switch (ch) {
	case CLI_OPT_NIC:
		v->nic = arg;
		return 0;
	case CLI_OPT_LINK:
		v->given = 1;
		return nicfit_parse_speed(arg, "--link", &x->link, &err) ? cli_fail(&err) : 0;
	case CLI_OPT_PROTO:
		if (nicfit_proto_parse(arg, &proto, &err))
			return cli_fail(&err);
		x->proto = (int)proto;
		return 0;
	case CLI_OPT_NODES:
		v->given = 1;
		return count_opt("--nodes", arg, 100000, &x->nodes);
	case CLI_OPT_GPUS_PER_NODE:
		return count_opt("--gpus-per-node", arg, 1024, &x->gpus_per_node);
	case CLI_OPT_NICS_PER_NODE:
		return count_opt("--nics-per-node", arg, 1024, &x->nics_per_node);
	case CLI_OPT_LOW_RATIO:
		return ratio_opt("--low-ratio", arg, &x->low_ratio);
	case CLI_OPT_FAR_RATIO:
		return ratio_opt("--far-ratio", arg, &x->far_ratio);
	case CLI_OPT_PLAN:
		v->plan = arg;
		return 0;
	case CLI_OPT_DUMP:
		if (!*arg)
			return cli_error(NICFIT_E_USAGE, "verify: --dump: empty path");
		if (v->ndumps == VERIFY_MAX_DUMPS)
			return cli_error(NICFIT_E_USAGE, "verify: at most %d --dump",
					 VERIFY_MAX_DUMPS);
		v->dumps[v->ndumps++] = arg;
		return 0;
	case CLI_OPT_SYSFS:
		if (!*arg)
			return cli_error(NICFIT_E_USAGE, "verify: --sysfs: empty path");
		v->sysfs = arg;
		return 0;
	case CLI_OPT_MAX_SIZE:
		return max_size_opt(arg, &v->max_size);
	default:
		return nicfit_exit_code(NICFIT_E_USAGE);
	}
}

/* Read verify's options into v. Returns 0 or an exit code after printing the error. */
static int verify_options(struct verify_args *v, int argc, char **argv)
{
	int ch, rc;

	memset(v, 0, sizeof(*v));
	nicfit_verify_expect_init(&v->x);
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "verify")) != -1)
		if ((rc = verify_option(v, ch, optarg)) != 0)
			return rc;
	if (v->x.low_ratio > 0 && v->x.far_ratio > 0 && v->x.far_ratio > v->x.low_ratio)
		return cli_error(NICFIT_E_USAGE, "verify: --far-ratio %g is above --low-ratio %g",
				 v->x.far_ratio, v->x.low_ratio);
	if (optind >= argc) {
		cli_error(NICFIT_E_USAGE, "verify: no input (give FILE... or - for stdin)");
		return cli_usage("verify");
	}
	return 0;
}

/* The host (--sysfs or --dump) as the expectation, when the options give no link. */
static int expect_host(struct cli *c, struct verify_args *v)
{
	struct nicfit_host_request rq;
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	int rc;

	if (v->x.link.gbps > 0)
		return cli_error(NICFIT_E_USAGE, "verify: %s and --nic/--link both give the link; "
				 "choose one", v->sysfs ? "--sysfs" : "--dump");
	cat = cli_catalog(c, &rc);
	if (!cat)
		return rc;
	memset(&rq, 0, sizeof(rq));
	rq.root = v->sysfs;
	rq.dumps = v->dumps;
	rq.ndumps = v->ndumps;
	nicfit_error_clear(&err);
	return nicfit_audit_verify_expect(cat, &rq, &v->x, &err) ? cli_fail(&err) : 0;
}

/*
 * What the measurements are compared with: a card (--nic), a plan
 * (--plan), the host (--sysfs, --dump) or the options alone. Returns 0 or
 * an exit code after printing the error.
 */
static int expectation(struct cli *c, struct verify_args *v)
{
	struct nicfit_catalog *cat = NULL;
	struct nicfit_error err;
	int rc = 0;

	nicfit_error_clear(&err);
	if (v->nic) {
		if (v->x.link.gbps > 0)
			return cli_error(NICFIT_E_USAGE, "verify: --nic and --link both give the link; "
					 "choose one");
		cat = cli_catalog(c, &rc);
		if (!cat)
			return rc;
		if (nicfit_verify_expect_from_nic(cat, v->nic, &v->x, &err))
			return cli_fail(&err);
		v->given = 1;
	}
	if (v->sysfs && v->ndumps)
		return cli_error(NICFIT_E_USAGE, "verify: --sysfs and --dump both describe the "
				 "host; choose one");
	if (v->plan && (v->sysfs || v->ndumps || v->x.link.gbps > 0))
		return cli_error(NICFIT_E_USAGE, "verify: --plan gives the link; leave out --nic, "
				 "--link, --sysfs and --dump");
	if (v->plan) {
		cat = cli_catalog(c, &rc);
		if (!cat)
			return rc;
		return nicfit_plan_verify_expect(cat, v->plan, &v->x, &err) ? cli_fail(&err) : 0;
	}
	if (v->sysfs || v->ndumps)
		return expect_host(c, v);
	if (v->given)
		v->x.source = "the options";
	return 0;
}

/* Judge what was read and print the report; the exit status is the verdict's. */
static int report(struct cli *c, struct nicfit_verify *v, const struct nicfit_verify_expect *x)
{
	struct nicfit_error err;
	struct nicfit_emit *e;
	int rc;

	nicfit_error_clear(&err);
	if (nicfit_verify_judge(v, x, &err))
		return cli_fail(&err);
	e = cli_emitter(c);
	rc = nicfit_verify_render(v, e);
	if (rc) {
		nicfit_emit_free(e);
		return cli_error(rc, "verify: cannot render: %s", nicfit_strerror(rc));
	}
	rc = cli_emit_done(c, e);
	return rc ? rc : nicfit_verify_exit_code(v);
}

int cmd_verify(struct cli *c, int argc, char **argv)
{
	struct verify_args args;
	struct nicfit_verify *v;
	int rc;

	rc = verify_options(&args, argc, argv);
	if (!rc)
		rc = expectation(c, &args);
	if (rc)
		return rc;
	v = nicfit_verify_new();
	if (!v)
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	rc = read_inputs(v, argc - optind, argv + optind, args.max_size);
	if (!rc)
		rc = report(c, v, &args.x);
	nicfit_verify_free(v);
	return rc;
}
