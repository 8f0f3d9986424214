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
	int nccl_topo;                 /* --format nccl-topo (audit only; fmt stays TEXT) */
};

/* Output formats a command can print (bits of 1 << enum nicfit_format). */
#define FMT(f) (1u << (f))
#define FMT_TEXTUAL (FMT(NICFIT_FMT_TEXT) | FMT(NICFIT_FMT_JSON) | FMT(NICFIT_FMT_MD))
#define FMT_TABLES (FMT_TEXTUAL | FMT(NICFIT_FMT_CSV))
#define FMT_ALL (FMT_TABLES | FMT(NICFIT_FMT_SVG))
/* --format nccl-topo: an NCCL_TOPO_FILE XML, written by the CLI, not an emitter format */
#define FMT_NCCL_TOPO (1u << 16)

/* A command: name matched exactly, handler, one-line summary, usage text. */
struct cli_command {
	const char *name;
	int (*fn)(struct cli *c, int argc, char **argv);
	const char *summary;
	const char *usage;
	unsigned formats;  /* what --format may ask of it */
};

/* ---- usage.c: errors, usage, options, the result ---------------------- */

/* Print "nicfit: <message>" to stderr and return the exit code for code. */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print err as one line ("nicfit: file:line:col: msg"); return its exit code. */
int cli_fail(const struct nicfit_error *err);
/* "nicfit: warning: ..." on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A new emitter in the chosen format (exits 70 when out of memory). */
struct nicfit_emit *cli_emitter(struct cli *c);
/* Finish e into c->out and free it; returns 0 or an exit code. */
int cli_emit_done(struct cli *c, struct nicfit_emit *e);
/*
 * Finish a command that rendered into e with status rc: on success as
 * cli_emit_done(), on failure free e and report err (cli_fail()).
 */
int cli_emit_result(struct cli *c, struct nicfit_emit *e, int rc, const struct nicfit_error *err);

/*
 * getopt_long over a command's options; returns the option's val, -1 at
 * the end, or '?' after printing a usage error. `name` is the command.
 */
int cli_getopt(int argc, char **argv, const char *shortopts,
	       const struct option *longopts, const char *name);
/* Print "usage: ..." for command `name` to stderr; returns 64. */
int cli_usage(const char *name);
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
void cli_print_help(const struct cli_command *cmd);
/*
 * 0 when formats (FMT() bits) hold the one the user asked for, or none was
 * asked; else prints "NAME has no FMT output (it prints ...)" and returns 64.
 */
int cli_check_format(const struct cli *c, const char *name, unsigned formats);

/* The handlers (cmd_*.c), known only to the table. */
int cmd_audit(struct cli *c, int argc, char **argv);
int cmd_calc(struct cli *c, int argc, char **argv);
int cmd_catalog(struct cli *c, int argc, char **argv);
int cmd_cluster(struct cli *c, int argc, char **argv);
int cmd_decode(struct cli *c, int argc, char **argv);
int cmd_fleet(struct cli *c, int argc, char **argv);
int cmd_plan(struct cli *c, int argc, char **argv);
int cmd_serve(struct cli *c, int argc, char **argv);
int cmd_snapshot(struct cli *c, int argc, char **argv);
int cmd_verify(struct cli *c, int argc, char **argv);

#endif
