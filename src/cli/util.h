/*
 * util.h - CLI helpers shared by several commands.
 */
#ifndef NICFIT_CLI_UTIL_H
#define NICFIT_CLI_UTIL_H

#include "cli.h"
#include "nicfit/spec.h"

void cli_release(struct cli *c);

/*
 * Add argv[first..] ("--key value", "--key=value", or a bare "--flag" when
 * key is in flags) to spec. Returns 0, or an exit code after printing.
 */
int cli_args_to_spec(int argc, char **argv, int first, const char *const *flags,
		     struct nicfit_spec *spec, const char *cmd);

#endif
