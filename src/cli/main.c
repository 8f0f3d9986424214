/*
 * main.c - the nicfit command line's entry point: the global options
 * (wherever they stand), picking the command from the table (commands.c),
 * and the one place where output reaches stdout.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "output.h"
#include "util.h"
#include "nicfit/snapshot.h"
#include "nicfit/version.h"

static int set_format(struct cli *c, const char *v)
{
	static const struct { const char *n; enum nicfit_format f; } t[] = {
		{ "text", NICFIT_FMT_TEXT }, { "json", NICFIT_FMT_JSON },
		{ "md", NICFIT_FMT_MD }, { "markdown", NICFIT_FMT_MD },
		{ "csv", NICFIT_FMT_CSV }, { "svg", NICFIT_FMT_SVG },
		{ "prom", NICFIT_FMT_PROM }, { "nhc", NICFIT_FMT_NHC }, { "nfd", NICFIT_FMT_NFD },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(v, t[i].n)) {
			c->fmt = t[i].f;
			c->fmt_given = 1;
			c->nccl_topo = 0;
			c->host_catalog = 0;
			return 0;
		}
	if (!strcmp(v, "nccl-topo") || !strcmp(v, "catalog")) {
		c->fmt = NICFIT_FMT_TEXT;
		c->fmt_given = 1;
		c->nccl_topo = v[0] == 'n';
		c->host_catalog = v[0] == 'c';
		return 0;
	}
	return cli_error(NICFIT_E_USAGE, "--format '%.32s': use text, json, md, csv, svg, prom, nhc, nfd, nccl-topo or catalog",
			 v);
}

/*
 * Take the global options out of argv wherever they stand (before or after
 * the command), so "nicfit calc pcie --gen 3 --width 16 -j" works. Stops
 * at "--". Returns 0 or an exit code; *argcp is updated.
 */
static int take_globals(struct cli *c, int *argcp, char **argv)
{
	int argc = *argcp, i, o = 1, color = -1;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = NULL;

		if (!strcmp(a, "--")) {
			for (; i < argc; i++)
				argv[o++] = argv[i];
			break;
		}
		if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			c->fmt = NICFIT_FMT_JSON;
			c->fmt_given = 1;
		} else if (!strcmp(a, "-p") || !strcmp(a, "--pretty")) {
			c->emit_flags |= NICFIT_EMIT_PRETTY;
		} else if (!strcmp(a, "-jp") || !strcmp(a, "-pj")) {
			c->fmt = NICFIT_FMT_JSON;
			c->fmt_given = 1;
			c->emit_flags |= NICFIT_EMIT_PRETTY;
		} else if (!strcmp(a, "--no-color")) {
			color = 0;
		} else if (!strcmp(a, "--color")) {
			color = 1;
		} else if (!strncmp(a, "--color=", 8)) {
			color = !strcmp(a + 8, "always") ? 1 : !strcmp(a + 8, "never") ? 0 :
				!strcmp(a + 8, "auto") ? -1 : -2;
			if (color == -2)
				return cli_error(NICFIT_E_USAGE, "--color '%.32s': use auto, always or never",
						 a + 8);
		} else if (!strcmp(a, "--noheadings")) {
			c->view.noheadings = 1;
		} else if (!strcmp(a, "--raw")) {
			c->view.raw = 1;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--columns") || !strncmp(a, "--columns=", 10)) {
			/* "-o" is 3 bytes: only "--columns=" has a tenth */
			v = a[1] == '-' && a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : NULL);
			if (!v || !*v)
				return cli_error(NICFIT_E_USAGE, "%s needs a list of columns (-o part,qty)",
						 a[1] == 'o' ? "-o" : "--columns");
			c->view.columns = v;
		} else if (!strcmp(a, "--format") || !strncmp(a, "--format=", 9)) {
			v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
			if (!v)
				return cli_error(NICFIT_E_USAGE, "--format needs a value");
			if (set_format(c, v))
				return nicfit_exit_code(NICFIT_E_USAGE);
		} else if (!strcmp(a, "--catalog") || !strncmp(a, "--catalog=", 10)) {
			v = a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : NULL);
			if (!v)
				return cli_error(NICFIT_E_USAGE, "--catalog needs a file");
			if (c->ncatalogs == CLI_MAX_CATALOGS)
				return cli_error(NICFIT_E_USAGE, "at most %d --catalog files",
						 CLI_MAX_CATALOGS);
			c->catalogs[c->ncatalogs++] = v;
		} else {
			argv[o++] = argv[i];
		}
	}
	argv[o] = NULL;
	*argcp = o;
	/* auto: a terminal that can show colour, and no NO_COLOR (no-color.org);
	 * --color=always is the user's explicit wish and wins over NO_COLOR */
	if (color < 0) {
		c->color_auto = 1;
		color = cli_color_for(STDOUT_FILENO);
	}
	if (color)
		c->emit_flags |= NICFIT_EMIT_COLOR;
	return 0;
}

int cli_color_for(int fd)
{
	const char *term = getenv("TERM"), *no = getenv("NO_COLOR");

	return isatty(fd) && !(no && *no) && !(term && !strcmp(term, "dumb"));
}

/* "--help" or "-h" anywhere before "--": `nicfit calc pcie --help` is help too. */
static int wants_help(int argc, char **argv)
{
	int i;

	for (i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

/*
 * The commands that hand "--key value" pairs to the library (plan,
 * cluster, calc NAME, decode) have their options checked against the
 * table here, so that a mistyped one is named as typed, with the nearest
 * option, before the library sees it as an unknown setting.
 */
static int check_spec_args(const struct cli_command *cmd, int argc, char **argv)
{
	static const char *const checked[] = { "plan", "cluster", "decode", NULL };
	const struct cli_optset *set = NULL;
	size_t i;

	if (!strcmp(cmd->name, "calc")) {
		if (argc > 1)
			set = cli_optset_find("calc", argv[1]);
		return set ? cli_check_args(set, argc, argv, 2) : 0;
	}
	for (i = 0; checked[i]; i++)
		if (!strcmp(cmd->name, checked[i]))
			set = cli_optset_find(cmd->name, NULL);
	return set ? cli_check_args(set, argc, argv, 1) : 0;
}

/*
 * ^C, SIGTERM and SIGHUP first remove the trees archives were unpacked
 * into (an audit of a 100,000-entry archive stopped midway left them all
 * in $TMPDIR), then end the process as the signal would have: the handler
 * runs once (SA_RESETHAND) and raises the signal again, which takes its
 * default action when the handler returns, so the exit status still names
 * the signal. A signal the parent ignores (nohup, a background job of a
 * shell without job control) stays ignored.
 */
static void on_signal(int sig)
{
	int e = errno;

	nicfit_snapshot_remove_pending();
	cli_out_remove_pending();
	raise(sig);
	errno = e;
}

static void clean_up_on_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

int main(int argc, char **argv)
{
	struct cli c;
	const struct cli_command *cmd;
	int rc;

	memset(&c, 0, sizeof(c));
	c.fmt = NICFIT_FMT_TEXT;
	nicfit_buf_init(&c.out, 0);
	cli_usage_init(cli_find);
	rc = take_globals(&c, &argc, argv);
	if (rc)
		return rc;
	if (argc < 2) {
		cli_print_overview(stderr);
		return nicfit_exit_code(NICFIT_E_USAGE);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") || !strcmp(argv[1], "version")) {
		printf("nicfit %s\n", NICFIT_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		c.view.width = cli_term_width(STDOUT_FILENO);
		rc = cli_help_out(&c, NULL, NULL);
		goto out;
	}
	if (argv[1][0] == '-') {
		const char *near = cli_opt_suggest(cli_global_opts(), argv[1]);

		if (near && strcmp(near, argv[1]))
			cli_error(NICFIT_E_USAGE, "unknown option '%.64s' (did you mean '%s'?)",
				  argv[1], near);
		else
			cli_error(NICFIT_E_USAGE, "unknown option '%.64s' (see 'nicfit help')",
				  argv[1]);
		return nicfit_exit_code(NICFIT_E_USAGE);
	}
	cmd = cli_find(argv[1]);
	if (!cmd) {
		const char *near = cli_command_suggest(argv[1]);

		if (near)
			cli_error(NICFIT_E_USAGE, "'%.64s' is not a nicfit command (did you mean "
				  "'%s'?)", argv[1], near);
		else
			cli_error(NICFIT_E_USAGE, "'%.64s' is not a nicfit command (see 'nicfit help')",
				  argv[1]);
		return nicfit_exit_code(NICFIT_E_USAGE);
	}
	if (wants_help(argc, argv)) {
		c.view.width = cli_term_width(STDOUT_FILENO);
		rc = cli_help_out(&c, cmd, argc > 2 && argv[2][0] != '-' ? argv[2] : NULL);
		goto out;
	}
	rc = check_spec_args(cmd, argc - 1, argv + 1);
	if (rc)
		return rc;
	rc = cli_check_format(&c, cmd->name, cmd->formats);
	if (rc) {
		cli_release(&c);
		return rc;
	}
	c.view.width = c.fmt == NICFIT_FMT_TEXT ? cli_term_width(STDOUT_FILENO) : 0;
	clean_up_on_signals();
	rc = cmd->fn(&c, argc - 1, argv + 1);
out:
	if (c.out.len && c.view.width && cli_wrap(&c.out, c.view.width))
		rc = cli_error(NICFIT_E_NOMEM, "out of memory");
	if (c.out.len && cli_write_all(STDOUT_FILENO, c.out.data, c.out.len)) {
		if (errno != EPIPE)
			rc = cli_error(NICFIT_E_OUTPUT, "cannot write output: %s",
				       strerror(errno));
	}
	cli_release(&c);
	return rc;
}
