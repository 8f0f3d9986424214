/*
 * cmd_serve.c - `nicfit serve`: the web configurator and JSON API on
 * 127.0.0.1:8080 (or --bind/--port), running until SIGINT or SIGTERM.
 * The catalog (embedded data plus --catalog overlays) is loaded once
 * here; the server only reads it. A snapshot archive given to --sysfs
 * (with --allow-audit) is unpacked once here too, before the server
 * starts, so that a bad archive is refused at start-up; the unpacked tree
 * is removed when the server stops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "../serve/serve.h"
#include "nicfit/snapshot.h"
#include "nicfit/units.h"

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

int cmd_serve(struct cli *c, int argc, char **argv)
{
	struct serve_options o;
	struct nicfit_error err;
	char *tmpdir = NULL, *tmproot = NULL;
	int ch, rc = 0;

	serve_options_init(&o);
	o.sysfs_root = getenv("NICFIT_SYSFS_ROOT");
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "serve")) != -1) {
		switch (ch) {
		case CLI_OPT_PORT:
			rc = number(optarg, "--port", 0, 65535, &o.port);
			break;
		case CLI_OPT_BIND:
			o.bind = optarg;
			break;
		case CLI_OPT_ALLOW_AUDIT:
			o.allow_audit = 1;
			break;
		case CLI_OPT_THREADS:
			rc = number(optarg, "--threads", 1, 64, &o.threads);
			break;
		case CLI_OPT_MAX_CONN:
			rc = number(optarg, "--max-connections", 1, 65536, &o.max_connections);
			break;
		case CLI_OPT_MAX_PER_IP:
			rc = number(optarg, "--max-per-ip", 1, 65536, &o.max_per_ip);
			break;
		case CLI_OPT_TIMEOUT:
			rc = number(optarg, "--timeout", 1, 3600, &o.timeout_s);
			break;
		case CLI_OPT_LOG:
			o.log = 1;
			break;
		case CLI_OPT_SYSFS:
			o.sysfs_root = optarg;
			break;
		default:
			return 64;
		}
		if (rc)
			return rc;
	}
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
		if (nicfit_snapshot_extract(o.sysfs_root, &tmpdir, &tmproot, &err))
			return cli_fail(&err);
		o.sysfs_root = tmproot;
	}
	rc = serve_run(&o, &err) ? cli_fail(&err) : 0;
	if (tmpdir)
		nicfit_snapshot_remove_tree(tmpdir);
	free(tmpdir);
	free(tmproot);
	return rc;
}
