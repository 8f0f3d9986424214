/*
 * cmd_snapshot.c - `nicfit snapshot DEST`: copy the sysfs files the audit
 * reads into a directory or an archive, for a support ticket or for
 * `nicfit audit --sysfs DEST` on another machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "util.h"
#include "nicfit/snapshot.h"

/*
 * A destination named like an archive nicfit does not write (out.zip,
 * out.gz) would otherwise become a directory of that name, silently: the
 * user asked for a file. The names are the usual suffixes of archives and
 * of compressed single files; a directory whose name has another dot in
 * it (snap.2026-12-01) is fine. Returns the suffix refused, or NULL.
 */
static const char *unknown_archive(const char *dest)
{
	static const char *const known[] = { ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz",
					     ".txz", ".tar.zst", ".tar", NULL };
	static const char *const refused[] = { ".zip", ".7z", ".rar", ".jar", ".cpio", ".iso",
					       ".ar", ".gz", ".bz2", ".xz", ".zst", ".lz",
					       ".lzma", ".lz4", ".lzo", ".z", ".tar.lz",
					       ".tar.lzma", ".tar.lz4", ".tlz", ".tzst", NULL };
	size_t n = strlen(dest), i, k;

	for (i = 0; known[i]; i++) {
		k = strlen(known[i]);
		if (n > k && !strcasecmp(dest + n - k, known[i]))
			return NULL;
	}
	for (i = 0; refused[i]; i++) {
		k = strlen(refused[i]);
		if (n > k && !strcasecmp(dest + n - k, refused[i]))
			return refused[i];
	}
	return NULL;
}

int cmd_snapshot(struct cli *c, int argc, char **argv)
{
	const char *root = getenv("NICFIT_SYSFS_ROOT"), *dest;
	int from_env = root && *root;
	struct nicfit_snapshot_result res;
	struct nicfit_error err;
	struct nicfit_emit *e;
	int ch, rc;

	nicfit_error_clear(&err);
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "snapshot")) != -1) {
		if (ch != CLI_OPT_SYSFS)
			return nicfit_exit_code(NICFIT_E_USAGE);
		root = optarg;
		from_env = 0;
	}
	if (argc - optind != 1) {
		cli_error(NICFIT_E_USAGE, "snapshot: give one destination (a new directory or FILE.tar.gz)");
		return cli_usage("snapshot");
	}
	dest = argv[optind];
	if (unknown_archive(dest))
		return cli_error(NICFIT_E_USAGE, "snapshot: '%.200s': nicfit writes a directory or a tar "
				 "archive (.tar, .tar.gz, .tgz, .tar.bz2, .tbz2, .tar.xz, .txz, "
				 ".tar.zst), not %s", dest, unknown_archive(dest));
	if (!root || !*root)
		root = "/";
	rc = nicfit_snapshot_take(root, dest, &res, &err);
	if (rc)
		return from_env && err.code == NICFIT_E_NOTFOUND ? cli_fail_env(&err, "NICFIT_SYSFS_ROOT")
								 : cli_fail(&err);
	e = cli_emitter(c);
	nicfit_snapshot_render(&res, root, dest, e);
	nicfit_snapshot_result_release(&res);
	return cli_emit_done(c, e);
}
