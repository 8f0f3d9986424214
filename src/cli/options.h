/*
 * options.h - the option table of every command (options.c): the one
 * place that says which options a command takes, whether each takes a
 * value, what the value is called and how a shell completes it, and one
 * line of help. Everything a user sees about options comes from it: the
 * getopt_long arrays of the commands that parse with getopt, the check
 * of the commands that hand "--key value" pairs to the library (plan,
 * cluster, calc), "did you mean" for a mistyped option, the "Options:"
 * list of `nicfit help COMMAND`, and the bash, zsh and fish completion
 * scripts (`nicfit completion SHELL`). tests/suites/options.sh checks the
 * man pages and the usage synopses against it.
 */
#ifndef NICFIT_CLI_OPTIONS_H
#define NICFIT_CLI_OPTIONS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

/*
 * One option. `complete` says how a shell completes its value: "@file",
 * "@dir", "@nics" (and the other catalog kinds: "@cables", "@switches",
 * "@servers", "@gpus", "@models"), "@examples" (plan's example names),
 * "@codes" (finding codes), "@formats" (the command's output formats), or
 * a space-separated list of words; NULL for none.
 */
struct cli_opt {
	const char *name;      /* without the leading "--" */
	int val;               /* getopt_long's val for commands that use getopt */
	int arg;               /* no_argument, required_argument, optional_argument */
	const char *metavar;   /* the value's name in help: "DIR", "N", NULL */
	const char *complete;  /* see above */
	const char *help;      /* one line */
};

/* The options of a command, or of one subcommand (calc pcie, catalog list). */
struct cli_optset {
	const char *cmd;
	const char *sub;       /* NULL: the command itself */
	const struct cli_opt *opts;
	size_t nopts;
	const char *args;      /* how positional arguments complete ("@file"...), NULL none */
};

/* Every option set, in command order; *n gets how many. */
const struct cli_optset *cli_optsets(size_t *n);
/* The set of cmd (sub NULL: the command's own); NULL when there is none. */
const struct cli_optset *cli_optset_find(const char *cmd, const char *sub);
/* The subcommands of cmd in table order, NULL-terminated (static storage). */
const char *const *cli_subcommands(const char *cmd);
/* The global options (--json, --format...), in the same shape. */
const struct cli_optset *cli_global_opts(void);

/*
 * A getopt_long array for the set of cmd (NULL-terminated, static
 * storage, built on first use); NULL when cmd has no set.
 */
const struct option *cli_longopts(const char *cmd);

/*
 * Check the "--key[=value]" arguments argv[first..] of a command that
 * hands them to the library as a spec: an option the set does not list
 * is a usage error with the nearest name ("did you mean"), an option
 * without a value when it needs one likewise. Returns 0 or an exit code
 * after printing the error.
 */
int cli_check_args(const struct cli_optset *set, int argc, char **argv, int first);

/* "--name" of the option nearest to a mistyped one, or NULL. */
const char *cli_opt_suggest(const struct cli_optset *set, const char *typed);

/* Print the "Options:" list of set to f (nothing when it has none). */
void cli_print_options(const struct cli_optset *set, FILE *f);

#endif
