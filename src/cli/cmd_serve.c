/*
 * cmd_serve.c - `nicfit serve`: the web configurator and JSON API on
 * 127.0.0.1:8080 (or --bind/--port), running until SIGINT or SIGTERM.
 * The catalog (embedded data plus --catalog overlays) is loaded once
 * here; the server only reads it. A snapshot archive given to --sysfs
 * (with --allow-audit) is opened once here too (nicfit_host_open), before
 * the server starts, so that a bad archive is refused at start-up; each
 * GET /api/audit then reads the unpacked tree, which is removed when the
 * server stops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "../serve/serve.h"
#include "nicfit/host.h"
#include "nicfit/snapshot.h"
#include "nicfit/units.h"
#include "nicfit/dynlib.h"
#include "nicfit_sonames.h"

/* nicfit serve opens libmicrohttpd (src/serve/mhd.c): declared for packaging (nicfit/dynlib.h). */
NICFIT_DLOPEN_NOTE(note_mhd, "[{\"feature\":\"serve\",\"description\":\"the web "
		   "configurator (nicfit serve)\",\"priority\":\"recommended\",\"soname\":[\""
		   NICFIT_SONAME_MHD "\"]}]");

static int number(const char *v, const char *opt, long min, long max, unsigned *out)
{
	struct nicfit_error err;
	long n;

	nicfit_error_clear(&err);
	if (nicfit_parse_long(v, opt, min, max, &n, &err))
		return cli_fail(&err);
	*out = (unsigned)n;
	return 0;
}

/* One option of serve's into o. Returns 0 or an exit code after printing the error. */
static int serve_option(struct serve_options *o, int ch, const char *arg)
{
	switch (ch) {
	case CLI_OPT_PORT:
		return number(arg, "--port", 0, 65535, &o->port);
	case CLI_OPT_BIND:
		o->bind = arg;
		return 0;
	case CLI_OPT_ALLOW_AUDIT:
		o->allow_audit = 1;
		return 0;
	case CLI_OPT_THREADS:
		return number(arg, "--threads", 1, 64, &o->threads);
	case CLI_OPT_MAX_CONN:
		return number(arg, "--max-connections", 1, 65536, &o->max_connections);
	case CLI_OPT_MAX_PER_IP:
		return number(arg, "--max-per-ip", 1, 65536, &o->max_per_ip);
	case CLI_OPT_TIMEOUT:
		return number(arg, "--timeout", 1, 3600, &o->timeout_s);
	case CLI_OPT_CPU_BUDGET:
		return number(arg, "--cpu-budget", 0, 3600000, &o->cpu_budget_ms);
	case CLI_OPT_CACHE:
		return number(arg, "--cache", 0, 65536, &o->cache_mb);
	case CLI_OPT_LOG:
		o->log = 1;
		return 0;
	case CLI_OPT_SYSFS:
		o->sysfs_root = arg;
		return 0;
	default:
		return nicfit_exit_code(NICFIT_E_USAGE);
	}
}

int cmd_serve(struct cli *c, int argc, char **argv)
{
	struct nicfit_host *host = NULL;
	struct serve_options o;
	struct nicfit_error err;
	int ch, rc = 0;

	serve_options_init(&o);
	o.sysfs_root = getenv("NICFIT_SYSFS_ROOT");
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "serve")) != -1)
		if ((rc = serve_option(&o, ch, optarg)) != 0)
			return rc;
	if (optind < argc) {
		cli_error(NICFIT_E_USAGE, "serve: unexpected argument '%.64s'", argv[optind]);
		return cli_usage("serve");
	}
	if (o.sysfs_root && *o.sysfs_root && strcmp(o.sysfs_root, "/") && !o.allow_audit)
		cli_warn("serve: --sysfs is only read by GET /api/audit, which --allow-audit turns on");
	if (c->fmt_given)
		cli_warn("serve: --json/--format do not apply: each request picks its format");
	o.cat = cli_catalog(c, &rc);
	if (!o.cat)
		return rc;
	nicfit_error_clear(&err);
	if (o.allow_audit && o.sysfs_root && nicfit_snapshot_is_archive(o.sysfs_root)) {
		struct nicfit_host_request rq = { 0 };

		rq.root = o.sysfs_root;
		if (nicfit_host_open(&rq, &host, &err))
			return cli_fail(&err);
		o.sysfs_root = host->tmproot;
	}
	rc = serve_run(&o, &err) ? cli_fail(&err) : 0;
	nicfit_host_close(host);
	return rc;
}
