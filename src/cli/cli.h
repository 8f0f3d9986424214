/*
 * cli.h - what the command handlers share: the parsed global options and
 * the output buffer (struct cli), git-style error reporting and option
 * parsing (usage.c), and the command table with its help (commands.c).
 * The catalog and the argument-to-spec helpers are in util.h. Internal to
 * the CLI; the library never sees it.
 */
#ifndef NICFIT_CLI_H
#define NICFIT_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "nicfit/buf.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"

#define CLI_MAX_CATALOGS 16

struct nicfit_catalog;

struct cli {
	enum nicfit_format fmt;        /* --format, -j */
	int fmt_given;                 /* the user chose a format */
	unsigned emit_flags;           /* NICFIT_EMIT_PRETTY, NICFIT_EMIT_COLOR */
	const char *catalogs[CLI_MAX_CATALOGS]; /* --catalog overlays, in order */
	int ncatalogs;
	struct nicfit_catalog *cat;    /* loaded on first cli_catalog() */
	struct nicfit_buf out;         /* what goes to stdout on success */
	struct nicfit_emit_view view;  /* terminal width, -o, --noheadings, --raw */
	int nccl_topo;                 /* --format nccl-topo (audit only; fmt stays TEXT) */
	int host_catalog;              /* --format catalog (audit only; fmt stays TEXT) */
	int color_auto;                /* no --color or --no-color: colour if the output shows it */
};

/* Output formats a command can print (bits of 1 << enum nicfit_format). */
#define FMT(f) (1u << (f))
#define FMT_TEXTUAL (FMT(NICFIT_FMT_TEXT) | FMT(NICFIT_FMT_JSON) | FMT(NICFIT_FMT_MD))
#define FMT_TABLES (FMT_TEXTUAL | FMT(NICFIT_FMT_CSV))
#define FMT_ALL (FMT_TABLES | FMT(NICFIT_FMT_SVG))
/* --format nccl-topo: an NCCL_TOPO_FILE XML, written by the CLI, not an emitter format */
#define FMT_NCCL_TOPO (1u << 16)
#define FMT_CATALOG (1u << 17)  /* audit --format catalog: the host as a catalog server */

/* A command: name matched exactly, handler, one-line summary, usage text. */
struct cli_command {
	const char *name;
	int (*fn)(struct cli *c, int argc, char **argv);
	const char *summary;
	const char *usage;
	unsigned formats;  /* what --format may ask of it */
};

/* ---- wrap.c: text for a terminal ----------------------------------------- */

/*
 * The width text is laid out for: COLUMNS when set, else the terminal's,
 * else 80, when fd is a terminal; 0 (no wrapping) when it is not.
 */
unsigned cli_term_width(int fd);
/*
 * Wrap every line of text in b that is wider than width display columns
 * at a blank (a word longer than the line is cut), the continuation
 * indented like the line and past a leading "- " bullet. ANSI colour
 * sequences take no columns. Returns 0 or NICFIT_E_NOMEM.
 */
int cli_wrap(struct nicfit_buf *b, unsigned width);
/*
 * Whether text written to fd is coloured when the user did not say
 * (main.c): a terminal, NO_COLOR unset or empty (no-color.org), TERM not
 * "dumb".
 */
int cli_color_for(int fd);

/* ---- usage.c: errors, usage, options, the result ---------------------- */

/* Print "nicfit: <message>" to stderr and return the exit code for code. */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print err as one line ("nicfit: file:line:col: msg"); return its exit code. */
int cli_fail(const struct nicfit_error *err);
/* The same for an error in what an environment variable named: "nicfit: VAR (from the environment): ..." */
int cli_fail_env(const struct nicfit_error *err, const char *var);
/* "nicfit: warning: ..." on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A new emitter in the chosen format (exits 70 when out of memory). */
struct nicfit_emit *cli_emitter(struct cli *c);
/* Finish e into c->out and free it; returns 0 or an exit code. */
int cli_emit_done(struct cli *c, struct nicfit_emit *e);
/*
 * -o for a format that shows no table (prom, nhc, nfd, nccl-topo): a text
 * emitter with the view, for the report to be rendered into only so that
 * cli_columns_checked() can check the names against its tables, as for
 * JSON, and a typo is an error in every format. NULL when no -o was given
 * (nothing to check); *rc is then 0, or 70 when out of memory.
 */
struct nicfit_emit *cli_columns_probe(struct cli *c, int *rc);
/* The check, after rendering into e; frees e. Returns 0 or an exit code. */
int cli_columns_checked(struct nicfit_emit *e);
/*
 * Finish a command that rendered into e with status rc: on success as
 * cli_emit_done(), on failure free e and report err (cli_fail()).
 */
int cli_emit_result(struct cli *c, struct nicfit_emit *e, int rc, const struct nicfit_error *err);

/*
 * The getopt vals of the options of the commands that parse with getopt
 * (audit, fleet, serve, snapshot); options.c's table maps names to them.
 */
enum cli_optval {
	CLI_OPT_SYSFS = 256, CLI_OPT_ALL, CLI_OPT_IGNORE, CLI_OPT_PCI_IDS, CLI_OPT_NO_PCI_IDS,
	CLI_OPT_ASSUME, CLI_OPT_PLAN, CLI_OPT_EXPECT, CLI_OPT_ALL_HOSTS, CLI_OPT_STRICT,
	CLI_OPT_MAX_DOC, CLI_OPT_PORT, CLI_OPT_BIND, CLI_OPT_ALLOW_AUDIT, CLI_OPT_LOG,
	CLI_OPT_THREADS, CLI_OPT_MAX_CONN, CLI_OPT_MAX_PER_IP, CLI_OPT_TIMEOUT, CLI_OPT_OUTPUT, CLI_OPT_DUMP, CLI_OPT_DUMPS, CLI_OPT_NIC, CLI_OPT_LINK,
	CLI_OPT_PROTO, CLI_OPT_NODES, CLI_OPT_GPUS_PER_NODE, CLI_OPT_NICS_PER_NODE, CLI_OPT_LOW_RATIO,
	CLI_OPT_FAR_RATIO, CLI_OPT_MAX_SIZE, CLI_OPT_NFD_EXPIRY, CLI_OPT_CPU_BUDGET, CLI_OPT_CACHE,
	CLI_OPT_TRACE_READS
};

/*
 * getopt_long over the options the table (options.c) lists for command
 * `name`; returns the option's val, -1 at the end, or '?' after printing
 * a usage error (with the nearest option's name for a mistyped one).
 */
int cli_getopt(int argc, char **argv, const char *name);
/* Print "usage: ..." for command `name` to stderr; returns 64. */
int cli_usage(const char *name);
/* A command's usage text, "usage: " and "   or: " before its synopsis lines. */
void cli_print_usage(FILE *f, const char *usage);
/*
 * Where cli_usage() finds a command's usage text: the table's look-up
 * (cli_find), given once by main() before any command runs. Until then,
 * and for a name it does not know, cli_usage() prints the general line.
 */
void cli_usage_init(const struct cli_command *(*find)(const char *name));

/* ---- commands.c: the command table and help ---------------------------- */

/* The command called name (matched exactly), or NULL. */
const struct cli_command *cli_find(const char *name);
/* The overview: version, global options, every command's summary. */
void cli_print_overview(FILE *f);
/* "nicfit NAME - SUMMARY" and the command's usage, on stdout. */
void cli_print_help(FILE *f, const struct cli_command *cmd, const char *sub);
/*
 * The help of cmd (sub: of that subcommand), or the overview when cmd is
 * NULL, into c->out, so that it reaches the terminal wrapped like any
 * output. Returns 0 or an exit code.
 */
int cli_help_out(struct cli *c, const struct cli_command *cmd, const char *sub);
/* The command nearest to a mistyped name ("did you mean"), or NULL. */
const char *cli_command_suggest(const char *typed);
/* The names of the commands, NULL-terminated, in table order. */
const char *const *cli_command_names(void);
/*
 * 0 when formats (FMT() bits) hold the one the user asked for, or none was
 * asked; else prints "NAME has no FMT output (it prints ...)" and returns 64.
 */
int cli_check_format(const struct cli *c, const char *name, unsigned formats);

/* The handlers (cmd_*.c), known only to the table. */
int cmd_accept(struct cli *c, int argc, char **argv);
int cmd_audit(struct cli *c, int argc, char **argv);
int cmd_calc(struct cli *c, int argc, char **argv);
int cmd_catalog(struct cli *c, int argc, char **argv);
int cmd_cluster(struct cli *c, int argc, char **argv);
int cmd_decode(struct cli *c, int argc, char **argv);
int cmd_fleet(struct cli *c, int argc, char **argv);
int cmd_plan(struct cli *c, int argc, char **argv);
int cmd_serve(struct cli *c, int argc, char **argv);
int cmd_snapshot(struct cli *c, int argc, char **argv);
int cmd_completion(struct cli *c, int argc, char **argv);
int cmd_verify(struct cli *c, int argc, char **argv);

#endif
