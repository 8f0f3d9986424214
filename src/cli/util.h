/*
 * util.h - CLI plumbing shared by several commands (util.c): the catalog
 * with the user's overlays, and "--key value" arguments as a request spec.
 */
#ifndef NICFIT_CLI_UTIL_H
#define NICFIT_CLI_UTIL_H

#include "cli.h"
#include "nicfit/spec.h"

/* The catalog: embedded data plus --catalog overlays; NULL after printing an error. */
struct nicfit_catalog *cli_catalog(struct cli *c, int *exit_code);
/* Free what c holds (the catalog, the output buffer). */
void cli_release(struct cli *c);

/*
 * Add argv[first..] ("--key value", "--key=value", or a bare "--flag" when
 * key is in flags) to spec. Returns 0, or an exit code after printing.
 */
int cli_args_to_spec(int argc, char **argv, int first, const char *const *flags,
		     struct nicfit_spec *spec, const char *cmd);

#endif
