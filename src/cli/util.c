/*
 * util.c - shared CLI plumbing: the catalog with the user's overlays, and
 * turning "--key value" arguments into a request spec.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "nicfit/catalog.h"

struct nicfit_catalog *cli_catalog(struct cli *c, int *exit_code)
{
	struct nicfit_error err;
	int i, rc;

	if (c->cat)
		return c->cat;
	nicfit_error_clear(&err);
	rc = nicfit_catalog_new(&c->cat, &err);
	if (rc) {
		*exit_code = cli_fail(&err);
		return NULL;
	}
	for (i = 0; i < c->ncatalogs; i++) {
		rc = nicfit_catalog_overlay_file(c->cat, c->catalogs[i], &err);
		if (rc) {
			*exit_code = cli_fail(&err);
			return NULL;
		}
	}
	return c->cat;
}

void cli_release(struct cli *c)
{
	nicfit_catalog_free(c->cat);
	c->cat = NULL;
	nicfit_buf_release(&c->out);
}

static int is_flag(const char *name, const char *const *flags)
{
	for (; flags && *flags; flags++)
		if (!strcmp(name, *flags))
			return 1;
	return 0;
}

int cli_args_to_spec(int argc, char **argv, int first, const char *const *flags,
		     struct nicfit_spec *spec, const char *cmd)
{
	struct nicfit_error err;
	int i;

	nicfit_error_clear(&err);
	for (i = first; i < argc; i++) {
		const char *a = argv[i], *eq;
		char key[64];
		size_t len;

		if (a[0] != '-' || a[1] != '-' || !a[2]) {
			cli_error(NICFIT_E_USAGE, "%s: unexpected argument '%.64s'", cmd, a);
			return cli_usage(cmd);
		}
		a += 2;
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		if (len >= sizeof(key))
			return cli_error(NICFIT_E_USAGE, "%s: option name too long", cmd);
		memcpy(key, a, len);
		key[len] = '\0';
		if (is_flag(key, flags)) {
			/* a flag may carry a value only as --flag=value */
			if (nicfit_spec_add(spec, key, eq ? eq + 1 : "true", &err))
				return cli_fail(&err);
			continue;
		}
		if (!eq && i + 1 >= argc) {
			cli_error(NICFIT_E_USAGE, "%s: --%s needs a value, or is not an option of %s "
				  "(see 'nicfit help %s')", cmd, key, cmd, cmd);
			return nicfit_exit_code(NICFIT_E_USAGE);
		}
		if (nicfit_spec_add(spec, key, eq ? eq + 1 : argv[++i], &err))
			return cli_fail(&err);
	}
	return 0;
}
