/*
 * cmd_audit.c - `nicfit audit`: read this host's sysfs (or a snapshot),
 * judge it, print the report. The exit status says the worst finding:
 * 0 clean, 1 warnings, 2 critical.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "output.h"
#include "util.h"
#include "nicfit/audit.h"
#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/finding.h"
#include "nicfit/host.h"
#include "nicfit/ops.h"
#include "nicfit/topo.h"
#include "nicfit/units.h"

#define MAX_IGNORE 64
#define MAX_DUMPS NICFIT_HOST_MAX_DUMPS

/* --trace-reads: the reads of sysfs, one a line, kept until the report is out. */
struct reads {
	struct nicfit_buf lines;
	size_t n, bytes;
};

/* The options of one `nicfit audit`, read into the request they make. */
struct audit_args {
	struct nicfit_audit_request rq;
	const char *ignore[MAX_IGNORE];
	const char *dumps[MAX_DUMPS];
	const char *root;        /* --sysfs, else NICFIT_SYSFS_ROOT */
	const char *output;      /* --output */
	struct nicfit_pcie_params pp;
	int sysfs_given;
	long nfd_expiry;         /* --nfd-expiry, seconds */
	struct reads reads;      /* --trace-reads: what was read */
};

static void reads_addf(struct nicfit_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void reads_addf(struct nicfit_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nicfit_escaped_vaddf(b, fmt, ap);
	va_end(ap);
}

/*
 * One read, as bench/reads.c `list` writes it (op, path, and for a range
 * of config space its offset and length), then the bytes it gave and what
 * it was for. The path is the tree's: escaped, as every name from outside.
 */
static void trace_read(void *ctx, int op, const char *path, size_t off, size_t len,
		       const char *why)
{
	struct reads *r = ctx;

	r->n++;
	r->bytes += len;
	reads_addf(&r->lines, "nicfit: read %c %s", op, path);
	if (op == 'P')
		nicfit_buf_addf(&r->lines, " %zu %zu", off, len);
	nicfit_buf_addf(&r->lines, "\t%zu bytes\t# %s\n", len, nicfit_sysfs_read_why(op, path, why));
}

/* The reads, then their count, on stderr; the report on stdout is already out. */
static void trace_print(const struct audit_args *x)
{
	struct reads *r = x->rq.host.trace_ctx;

	if (!r)
		return;
	fputs(r->lines.data, stderr);
	if (r->lines.err)
		fprintf(stderr, "nicfit: the list of reads stops at %zu bytes\n", r->lines.len);
	fprintf(stderr, "nicfit: %zu reads of sysfs, %zu bytes\n", r->n, r->bytes);
	nicfit_buf_release(&r->lines);
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
		rc = nicfit_audit_render_nfd(a, run, &c->out);
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
static size_t audit_inputs(const struct cli *c, struct cli_input *in, const struct audit_args *x)
{
	const struct nicfit_audit_request *rq = &x->rq;
	size_t n = 0;
	int i;

	in[n++] = (struct cli_input){ "--sysfs", rq->host.ndumps ? NULL : x->root,
				      CLI_LISTS_NONE };
	for (i = 0; i < rq->host.ndumps; i++)
		in[n++] = (struct cli_input){ "--dump", x->dumps[i], CLI_LISTS_ALL };
	in[n++] = (struct cli_input){ "--plan", rq->plan_spec, CLI_LISTS_NONE };
	in[n++] = (struct cli_input){ "--expect", rq->expect, CLI_LISTS_JSON };
	in[n++] = (struct cli_input){ "--pci-ids", rq->opts.pci_ids_path, CLI_LISTS_NONE };
	for (i = 0; i < c->ncatalogs; i++)
		in[n++] = (struct cli_input){ "--catalog", c->catalogs[i], CLI_LISTS_NONE };
	return n;
}

/* One option of audit's into x. Returns 0 or an exit code after printing the error. */
static int audit_option(struct audit_args *x, int ch, const char *arg)
{
	struct nicfit_audit_opts *o = &x->rq.opts;
	struct nicfit_error err;

	nicfit_error_clear(&err);
	switch (ch) {
	case CLI_OPT_SYSFS:
		/* an empty --sysfs is a mistake (an unset variable), not the live host */
		if (!*arg)
			return cli_error(NICFIT_E_USAGE, "audit: --sysfs: empty path "
					 "(leave the option out to audit this host)");
		x->root = arg;
		x->sysfs_given = 1;
		return 0;
	case CLI_OPT_DUMP:
		if (x->rq.host.ndumps == MAX_DUMPS)
			return cli_error(NICFIT_E_USAGE, "audit: at most %d dumps", MAX_DUMPS);
		x->dumps[x->rq.host.ndumps++] = arg;
		return 0;
	case CLI_OPT_ALL:
		o->all = 1;
		return 0;
	case CLI_OPT_IGNORE:
		if (o->nignore == MAX_IGNORE)
			return cli_error(NICFIT_E_USAGE, "audit: at most %d --ignore", MAX_IGNORE);
		/* a mistyped code would silently ignore nothing */
		if (nicfit_code_check_ignore(arg, NICFIT_ENGINE_AUDIT, "--ignore", &err))
			return cli_fail(&err);
		x->ignore[o->nignore++] = arg;
		return 0;
	case CLI_OPT_PCI_IDS:
		o->pci_ids_path = arg;
		return 0;
	case CLI_OPT_NO_PCI_IDS:
		o->pci_ids = 0;
		return 0;
	case CLI_OPT_PLAN:
		x->rq.plan_spec = arg;
		return 0;
	case CLI_OPT_EXPECT:
		x->rq.expect = arg;
		return 0;
	case CLI_OPT_OUTPUT:
		x->output = arg;
		return 0;
	case CLI_OPT_TRACE_READS:
		x->rq.host.trace = trace_read;
		x->rq.host.trace_ctx = &x->reads;
		return 0;
	case CLI_OPT_NFD_EXPIRY:
		/* a year at most: labels are a node's state, refreshed by the DaemonSet */
		if (nicfit_parse_long(arg, "--nfd-expiry", 0, 31536000, &x->nfd_expiry, &err))
			return cli_fail(&err);
		return 0;
	case CLI_OPT_ASSUME:
		if (nicfit_param_assign(nicfit_pcie_param_table, nicfit_pcie_param_count, &x->pp,
					arg, "--assume", &err))
			return cli_fail(&err);
		return 0;
	default:
		return nicfit_exit_code(NICFIT_E_USAGE);
	}
}

/*
 * Read audit's options into x and check how they go together: the words
 * after --dump's are more dumps, and --expect with a plan spec (not
 * audits) is --plan. Returns 0 or an exit code after printing the error.
 */
static int audit_options(struct audit_args *x, int argc, char **argv)
{
	struct nicfit_audit_request *rq = &x->rq;
	int ch, rc;

	memset(x, 0, sizeof(*x));
	nicfit_buf_init(&x->reads.lines, NICFIT_BUF_MAX_DEFAULT);
	x->nfd_expiry = 3600;
	x->root = getenv("NICFIT_SYSFS_ROOT");
	nicfit_pcie_params_default(&x->pp);
	rq->opts.ignore = x->ignore;
	rq->opts.pcie = &x->pp;
	rq->opts.pci_ids = 1;
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "audit")) != -1)
		if ((rc = audit_option(x, ch, optarg)) != 0)
			return rc;
	/* audit --dump a.txt b.txt: the words after the options are more dumps */
	while (rq->host.ndumps && optind < argc && rq->host.ndumps < MAX_DUMPS)
		x->dumps[rq->host.ndumps++] = argv[optind++];
	if (optind < argc) {
		cli_error(NICFIT_E_USAGE, "audit: unexpected argument '%.64s'", argv[optind]);
		return cli_usage("audit");
	}
	if (rq->expect && !expect_is_audits(rq->expect)) {
		if (rq->plan_spec)
			return cli_error(NICFIT_E_USAGE, "audit: --plan and --expect SPEC: give one "
					 "plan (--expect also takes audits)");
		rq->plan_spec = rq->expect;
		rq->expect = NULL;
	}
	if (rq->host.ndumps && x->sysfs_given)
		return cli_error(NICFIT_E_USAGE, "audit: --dump and --sysfs: give one of them");
	if (rq->host.ndumps && rq->host.trace)
		return cli_error(NICFIT_E_USAGE, "audit: --trace-reads lists reads of sysfs; "
				 "dumps are text, read whole");
	rq->host.dumps = x->dumps;
	rq->host.root = rq->host.ndumps ? NULL : x->root;
	return 0;
}

/*
 * --format nccl-topo with -o: the columns are checked against the audit's
 * tables (so the host is judged first), then the topology is written.
 */
static int nccl_topo_checked(struct cli *c, struct nicfit_catalog *cat,
			     const struct audit_args *x, const struct nicfit_host *host)
{
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	int rc;

	nicfit_error_clear(&err);
	if (nicfit_audit_judge(host->topo, cat, &x->rq.opts, &a, &err))
		return cli_fail(&err);
	rc = check_columns(c, a);
	if (!rc)
		rc = write_nccl_topo(c, host->topo);
	nicfit_audit_free(a);
	return rc;
}

/*
 * --format catalog: the host as a catalog document holding one server
 * (nicfit_audit_host_catalog_json), for `plan --server FILE.json`. It
 * describes the host, it judges nothing, so it exits 0 whatever the
 * findings. A virtual machine's slots are the hypervisor's: refused, as
 * plan --from-host refuses it. -o names columns of the audit's tables.
 */
static int write_host_catalog(struct cli *c, struct nicfit_catalog *cat,
			      const struct audit_args *x, const struct nicfit_host *host)
{
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	char *json;
	int rc;

	nicfit_error_clear(&err);
	if (host->topo->is_virtual)
		return cli_error(NICFIT_E_DATA, "audit: %s is a virtual machine (%s): its slots and "
				 "NICs are the hypervisor's, so it is no server to plan with",
				 host->topo->root, host->topo->virtual_why);
	if (nicfit_audit_judge(host->topo, cat, &x->rq.opts, &a, &err))
		return cli_fail(&err);
	/* -o is checked against the audit's tables, as for nccl-topo */
	rc = check_columns(c, a);
	json = rc ? NULL : nicfit_audit_host_catalog_json(a, NULL);
	nicfit_audit_free(a);
	if (rc)
		return rc;
	if (!json)
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	nicfit_buf_puts(&c->out, json);
	nicfit_buf_addch(&c->out, '\n');
	free(json);
	rc = c->out.err;
	return rc ? cli_error(rc, "audit: cannot write the server entry: %s", nicfit_strerror(rc)) : 0;
}

int cmd_audit(struct cli *c, int argc, char **argv)
{
	struct nicfit_ops_run run = { -1, -1, 0 };
	double t0 = now_s(CLOCK_MONOTONIC);
	struct cli_input in[MAX_DUMPS + 4 + CLI_MAX_CATALOGS];
	struct nicfit_host *host = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	struct audit_args x;
	struct cli_out out;
	int rc;

	rc = audit_options(&x, argc, argv);
	if (rc)
		return rc;
	/* a destination that cannot be written is refused before the host is read */
	rc = cli_output_open(c, &out, x.output, in, audit_inputs(c, in, &x));
	if (rc)
		return rc;
	nicfit_error_clear(&err);
	if (nicfit_host_open(&x.rq.host, &host, &err)) {
		/* a tree NICFIT_SYSFS_ROOT named: say so, the user did not type it */
		rc = !x.sysfs_given && !x.rq.host.ndumps && x.root && *x.root ?
			cli_fail_env(&err, "NICFIT_SYSFS_ROOT") : cli_fail(&err);
		goto out;
	}
	if (c->nccl_topo && !c->view.columns) {
		rc = write_nccl_topo(c, host->topo);
		goto out;
	}
	cat = cli_catalog(c, &rc);
	if (!cat)
		goto out;
	if (c->nccl_topo) {
		rc = nccl_topo_checked(c, cat, &x, host);
		goto out;
	}
	if (c->host_catalog) {
		rc = write_host_catalog(c, cat, &x, host);
		goto out;
	}
	if (nicfit_audit_run_host(cat, &x.rq, host, &a, &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	run.duration_s = now_s(CLOCK_MONOTONIC) - t0;
	run.end_time_s = now_s(CLOCK_REALTIME);
	run.expiry_s = (double)x.nfd_expiry;
	rc = report(c, a, &run);
out:
	rc = cli_output_close(c, &out, rc);
	trace_print(&x);
	nicfit_audit_free(a);
	nicfit_host_close(host);
	return rc;
}
