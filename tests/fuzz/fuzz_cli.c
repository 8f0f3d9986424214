/*
 * fuzz_cli.c - the command line's parser: the global options wherever
 * they stand (main.c's take_globals), the command's name and "did you
 * mean", --help anywhere, the table check of spec-style options
 * (plan, cluster, calc NAME, decode), --format against the command's
 * formats, getopt over the table for audit, fleet, serve and snapshot,
 * and "--key value" pairs into a spec as plan and cluster hand them on.
 * Nothing is run: no command reads a file or opens a socket.
 *
 * Input: the arguments after "nicfit", separated by NUL bytes (at most
 * 64). The CLI's own error lines go to /dev/null, not to the fuzzer's
 * stderr.
 */
#define main nicfit_cli_main
#include "../../src/cli/main.c"
#undef main

#include <stdint.h>

#include "nicfit/spec.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The options of the command as the command itself reads them. */
static void command_options(const struct cli_command *cmd, int argc, char **argv)
{
	static const char *const getopt_cmds[] = { "audit", "fleet", "serve", "snapshot", NULL };
	struct nicfit_spec *spec;
	size_t i;
	int first = 1;

	for (i = 0; getopt_cmds[i]; i++)
		if (!strcmp(cmd->name, getopt_cmds[i])) {
			optind = 0; /* glibc: start again, permutation state included */
			while (cli_getopt(argc, argv, cmd->name) != -1) {
			}
			return;
		}
	if (strcmp(cmd->name, "plan") && strcmp(cmd->name, "cluster") && strcmp(cmd->name, "calc"))
		return;
	if (!strcmp(cmd->name, "calc"))
		first = 2;
	spec = malloc(sizeof(*spec));
	if (!spec)
		return;
	nicfit_spec_init(spec, "flags");
	cli_args_to_spec(argc, argv, first, NULL, spec, cmd->name);
	nicfit_spec_release(spec);
	free(spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *quiet;
	char *buf, *argv[MAX_ARGS + 2];
	const struct cli_command *cmd;
	struct cli c;
	size_t i, start = 0;
	int argc = 0, rc;

	if (!quiet) {
		quiet = fopen("/dev/null", "w");
		if (quiet)
			stderr = quiet;
	}
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = (char *)"nicfit";
	for (i = 0; i <= size && argc <= MAX_ARGS; i++)
		if (i == size || !buf[i]) {
			argv[argc++] = buf + start;
			start = i + 1;
		}
	argv[argc] = NULL;

	memset(&c, 0, sizeof(c));
	c.fmt = NICFIT_FMT_TEXT;
	nicfit_buf_init(&c.out, 0);
	cli_usage_init(cli_find);
	rc = take_globals(&c, &argc, argv);
	if (!rc && argc >= 2) {
		if (argv[1][0] == '-') {
			cli_opt_suggest(cli_global_opts(), argv[1]);
		} else if (!(cmd = cli_find(argv[1]))) {
			cli_command_suggest(argv[1]);
		} else if (!wants_help(argc, argv)) {
			rc = check_spec_args(cmd, argc - 1, argv + 1);
			if (!rc)
				rc = cli_check_format(&c, cmd->name, cmd->formats);
			if (!rc)
				command_options(cmd, argc - 1, argv + 1);
		}
	}
	cli_release(&c);
	free(buf);
	return 0;
}
