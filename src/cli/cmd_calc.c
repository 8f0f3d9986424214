/*
 * cmd_calc.c - `nicfit calc NAME --option value ...`: the options become a
 * spec and the library's calculator runs on it, exactly as the web API's
 * POST /api/calc/NAME does with a JSON body.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "nicfit/calc.h"

/* Options of calc that take no value. */
static const char *const calc_flags[] = { "sharp", "disaggregated", NULL };

int cmd_calc(struct cli *c, int argc, char **argv)
{
	struct nicfit_catalog *cat = NULL;
	struct nicfit_spec *spec;
	struct nicfit_error err;
	struct nicfit_emit *e;
	int rc;

	if (argc < 2) {
		cli_error(NICFIT_E_USAGE, "calc: which calculator? (pcie, link, nic, load, fit, allreduce, stream, step)");
		return cli_usage("calc");
	}
	if (!strcmp(argv[1], "--spec"))
		return cli_error(NICFIT_E_USAGE, "calc: name the calculator before --spec");
	spec = calloc(1, sizeof(*spec));
	if (!spec)
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	nicfit_spec_init(spec, "calc");
	rc = cli_args_to_spec(argc, argv, 2, calc_flags, spec, "calc");
	if (rc)
		goto out;
	if (!strcmp(argv[1], "nic") || !strcmp(argv[1], "fit") || !strcmp(argv[1], "step")) {
		cat = cli_catalog(c, &rc);
		if (!cat)
			goto out;
	}
	nicfit_error_clear(&err);
	e = cli_emitter(c);
	rc = nicfit_calc_run(cat, argv[1], spec, e, &err);
	rc = cli_emit_result(c, e, rc, &err);
out:
	nicfit_spec_release(spec);
	free(spec);
	return rc;
}
