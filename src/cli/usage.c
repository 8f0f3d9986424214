/*
 * usage.c - how a command talks to its user when something is wrong, and
 * how it hands its result over: git-style "nicfit: ..." errors and
 * warnings on stderr, the usage line of a command, option parsing with
 * those messages, and the emitter whose document main() writes to stdout.
 *
 * Every cmd_*.c depends on this file; it depends on no command. The usage
 * text of a command lives in the command table (commands.c), which knows
 * every handler, so main() hands the table's look-up to cli_usage_init()
 * rather than this file calling into the table.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"

/* Set once by main() before a command runs; only read afterwards. */
static const struct cli_command *(*usage_find)(const char *name);

void cli_usage_init(const struct cli_command *(*find)(const char *name))
{
	usage_find = find;
}

/* "nicfit: " lead, fmt with its string arguments escaped (they are often input), newline. */
static void say(const char *lead, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void say(const char *lead, const char *fmt, va_list ap)
{
	struct nicfit_buf b;

	nicfit_buf_init(&b, 0);
	nicfit_escaped_vaddf(&b, fmt, ap);
	fprintf(stderr, "%s%s\n", lead, b.data ? b.data : "");
	nicfit_buf_release(&b);
}

int cli_error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("nicfit: ", fmt, ap);
	va_end(ap);
	return nicfit_exit_code(code);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("nicfit: warning: ", fmt, ap);
	va_end(ap);
}

int cli_fail(const struct nicfit_error *err)
{
	char line[1024];

	nicfit_error_line(err, line, sizeof(line));
	fprintf(stderr, "nicfit: %s\n", line);
	return nicfit_exit_code(err->code ? err->code : NICFIT_E_INTERNAL);
}

int cli_fail_env(const struct nicfit_error *err, const char *var)
{
	char line[1024];

	nicfit_error_line(err, line, sizeof(line));
	fprintf(stderr, "nicfit: %s (from the environment): %s\n", var, line);
	return nicfit_exit_code(err->code ? err->code : NICFIT_E_INTERNAL);
}

struct nicfit_emit *cli_emitter(struct cli *c)
{
	struct nicfit_emit *e = nicfit_emit_new(c->fmt, c->emit_flags, 0);

	if (!e || nicfit_emit_set_view(e, &c->view)) {
		cli_error(NICFIT_E_NOMEM, "out of memory");
		exit(nicfit_exit_code(NICFIT_E_NOMEM));
	}
	return e;
}

/*
 * The document, once -o is known to name only columns its tables have: a
 * name that none has would otherwise be ignored, and a typo read as a
 * choice. The names are checked against every table the command can
 * show (nicfit_emit_columns), not the ones shown this time, so a column
 * list right on one host is right on all.
 */
int cli_emit_done(struct cli *c, struct nicfit_emit *e)
{
	struct nicfit_error err;
	char line[1024];
	int rc;

	nicfit_error_clear(&err);
	if (nicfit_emit_check_columns(e, &err)) {
		nicfit_emit_free(e);
		nicfit_error_line(&err, line, sizeof(line));
		return cli_error(err.code, "%s", line);
	}
	rc = nicfit_emit_finish(e, &c->out);
	/* --raw, --noheadings: standard output gets the rows, the rest goes to stderr */
	if (!rc && nicfit_emit_prose(e)->len)
		fwrite(nicfit_emit_prose(e)->data, 1, nicfit_emit_prose(e)->len, stderr);
	nicfit_emit_free(e);
	if (rc)
		return cli_error(rc, "cannot render the result: %s", nicfit_strerror(rc));
	return 0;
}

struct nicfit_emit *cli_columns_probe(struct cli *c, int *rc)
{
	struct nicfit_emit_view view = c->view;
	struct nicfit_emit *e;

	*rc = 0;
	if (!c->view.columns)
		return NULL;
	view.width = 0;
	e = nicfit_emit_new(NICFIT_FMT_TEXT, 0, 0);
	if (!e || nicfit_emit_set_view(e, &view)) {
		nicfit_emit_free(e);
		*rc = cli_error(NICFIT_E_NOMEM, "out of memory");
		return NULL;
	}
	return e;
}

int cli_columns_checked(struct nicfit_emit *e)
{
	struct nicfit_error err;
	char line[1024];
	int rc;

	nicfit_error_clear(&err);
	rc = nicfit_emit_check_columns(e, &err);
	nicfit_emit_free(e);
	if (!rc)
		return 0;
	nicfit_error_line(&err, line, sizeof(line));
	return cli_error(err.code, "%s", line);
}

int cli_emit_result(struct cli *c, struct nicfit_emit *e, int rc, const struct nicfit_error *err)
{
	if (rc) {
		nicfit_emit_free(e);
		return cli_fail(err);
	}
	return cli_emit_done(c, e);
}

/*
 * A command's usage text as git prints its own: "usage: " before the first
 * synopsis line, "   or: " before each further "nicfit ..." form, the
 * continuation lines of a form indented under it, and the prose after the
 * first blank line as written. The table's text is thus laid out once,
 * against the same left margin, and every line fits 80 columns.
 */
void cli_print_usage(FILE *f, const char *usage)
{
	const char *p = usage;
	int synopsis = 1, first = 1;

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n == 0)
			synopsis = 0;
		if (synopsis)
			fputs(first ? "usage: " : !strncmp(p, "nicfit ", 7) ? "   or: " : "       ", f);
		fwrite(p, 1, n, f);
		fputc('\n', f);
		first = 0;
		p += n;
		if (*p)
			p++;
	}
}

int cli_usage(const char *name)
{
	const struct cli_command *cmd = name && usage_find ? usage_find(name) : NULL;

	if (cmd)
		cli_print_usage(stderr, cmd->usage);
	else
		fprintf(stderr, "usage: nicfit [OPTIONS] COMMAND [ARGS]  (see 'nicfit help')\n");
	return nicfit_exit_code(NICFIT_E_USAGE);
}

int cli_getopt(int argc, char **argv, const char *name)
{
	const struct option *longopts = cli_longopts(name);
	const char *near;
	int ch;

	opterr = 0;
	ch = getopt_long(argc, argv, "", longopts, NULL);
	if (ch == '?' || ch == ':') {
		const char *typed = argv[optind - 1];

		if (optopt && optopt < 256 && ch == '?')
			cli_error(NICFIT_E_USAGE, "%s: unknown option '-%c'", name, optopt);
		else if (ch == '?' && typed && !optopt &&
			 (near = cli_opt_suggest(cli_optset_find(name, NULL), typed)))
			cli_error(NICFIT_E_USAGE, "%s: unknown option '%.64s' (did you mean '%s'?)",
				  name, typed, near);
		else if (ch == '?' && typed && !optopt)
			cli_error(NICFIT_E_USAGE, "%s: unknown option '%.64s'", name, typed);
		else
			cli_error(NICFIT_E_USAGE, "%s: option '%s' needs a value", name, typed);
		cli_usage(name);
		return '?';
	}
	return ch;
}
