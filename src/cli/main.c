/*
 * main.c - the nicfit command line's entry point: the global options
 * (wherever they stand), picking the command from the table (commands.c),
 * and the one place where output reaches stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "util.h"
#include "nicfit/version.h"

static int set_format(struct cli *c, const char *v)
{
	static const struct { const char *n; enum nicfit_format f; } t[] = {
		{ "text", NICFIT_FMT_TEXT }, { "json", NICFIT_FMT_JSON },
		{ "md", NICFIT_FMT_MD }, { "markdown", NICFIT_FMT_MD },
		{ "csv", NICFIT_FMT_CSV }, { "svg", NICFIT_FMT_SVG },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(v, t[i].n)) {
			c->fmt = t[i].f;
			c->fmt_given = 1;
			c->nccl_topo = 0;
			return 0;
		}
	if (!strcmp(v, "nccl-topo")) {
		c->fmt = NICFIT_FMT_TEXT;
		c->fmt_given = 1;
		c->nccl_topo = 1;
		return 0;
	}
	return cli_error(NICFIT_E_USAGE, "--format '%.32s': use text, json, md, csv, svg or nccl-topo",
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
		} else if (!strcmp(a, "--format") || !strncmp(a, "--format=", 9)) {
			v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
			if (!v)
				return cli_error(NICFIT_E_USAGE, "--format needs a value");
			if (set_format(c, v))
				return 64;
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
	if (color < 0)
		color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	else if (color > 0 && getenv("NO_COLOR"))
		color = 0;
	if (color)
		c->emit_flags |= NICFIT_EMIT_COLOR;
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
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
		return 64;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("nicfit %s\n", NICFIT_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_print_overview(stdout);
		return 0;
	}
	cmd = cli_find(argv[1]);
	if (!cmd) {
		cli_error(NICFIT_E_USAGE, "'%.64s' is not a nicfit command (see 'nicfit help')",
			  argv[1]);
		return 64;
	}
	if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		cli_print_help(cmd);
		return 0;
	}
	rc = cli_check_format(&c, cmd->name, cmd->formats);
	if (rc) {
		cli_release(&c);
		return rc;
	}
	rc = cmd->fn(&c, argc - 1, argv + 1);
	if (c.out.len && write_all(STDOUT_FILENO, c.out.data, c.out.len)) {
		if (errno != EPIPE)
			rc = cli_error(NICFIT_E_IO, "cannot write output: %s", strerror(errno));
	}
	cli_release(&c);
	return rc;
}
