/*
 * cmd_decode.c - `nicfit decode PART...`: explain part numbers.
 *
 * Each PART (or each line of standard input for "-") is decoded by
 * nicfit_decode() against the catalog (or by the rules alone with
 * --rules) and rendered by nicfit_decode_render(). One part gives one
 * "nicfit.decode.v1" document; several give {"schema", "parts": [...]}
 * in which a part that could not be decoded is {"input", "error"}. Every
 * failure is also one line on stderr, and the exit status is that of the
 * first failure (65 for what is not a part number).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "nicfit/partno.h"

#define STDIN_MAX_PARTS 100000
#define LINE_MAX_BYTES 256

struct run {
	struct cli *c;
	const struct nicfit_catalog *cat;
	struct nicfit_emit *e;
	struct nicfit_part part;   /* reused for every part */
	int several;               /* render inside "parts" */
	int count;                 /* parts rendered or failed so far */
	int exit_code;             /* of the first failure */
};

static void failed(struct run *r, const char *input, const struct nicfit_error *err)
{
	char line[1024], shown[68];
	int code = cli_fail(err);
	size_t i;

	if (!r->exit_code)
		r->exit_code = code;
	if (!r->several)
		return;
	/* what was given, printable ASCII only and at most 64 bytes, for JSON */
	for (i = 0; input[i] && i < 64; i++)
		shown[i] = input[i] >= 0x20 && input[i] < 0x7f ? input[i] : '?';
	shown[i] = '\0';
	if (input[i])
		snprintf(shown + i, sizeof(shown) - i, "...");
	nicfit_error_line(err, line, sizeof(line));
	nicfit_emit_begin_object(r->e, NULL);
	nicfit_emit_string(r->e, "input", shown);
	nicfit_emit_string(r->e, "error", line);
	nicfit_emit_end_object(r->e);
}

/* Decode and render one part; name/line locate it in errors (line 0: argv). */
static void one(struct run *r, const char *text, const char *name, long line)
{
	struct nicfit_error err;

	nicfit_error_clear(&err);
	if (nicfit_decode(r->cat, text, &r->part, &err)) {
		if (name) {
			snprintf(err.input, sizeof(err.input), "%s", name);
			err.line = line;
		}
		failed(r, text, &err);
		r->count++;
		return;
	}
	if (r->count++ && nicfit_emit_is_text(r->e))
		nicfit_emit_printf(r->e, "\n");
	nicfit_decode_render(r->e, &r->part);
}

/*
 * Read one line of f into buf (n bytes; the newline is dropped). Returns
 * the line's full length, which may exceed what buf kept, or -1 at end of
 * input. *nul gets the 1-based column of the first NUL byte, 0 if none.
 */
static long read_line(FILE *f, char *buf, size_t n, long *nul)
{
	long len = 0;
	int ch;

	*nul = 0;
	while ((ch = getc(f)) != EOF && ch != '\n') {
		if (ch == '\0' && !*nul)
			*nul = len + 1;
		if ((size_t)len + 1 < n)
			buf[len] = (char)ch;
		len++;
	}
	if (ch == EOF && len == 0)
		return -1;
	buf[(size_t)len + 1 < n ? (size_t)len : n - 1] = '\0';
	return len;
}

static void stdin_error(struct run *r, long lineno, long col, const char *shown,
			int code, const char *msg)
{
	struct nicfit_error err;

	nicfit_error_clear(&err);
	nicfit_error_at(&err, code, "<stdin>", lineno, col, "%s", msg);
	failed(r, shown, &err);
	r->count++;
}

static int from_stdin(struct run *r)
{
	char buf[LINE_MAX_BYTES], msg[96];
	long lineno = 0, len, nul;

	while ((len = read_line(stdin, buf, sizeof(buf), &nul)) >= 0) {
		size_t i = 0;

		if (++lineno > STDIN_MAX_PARTS) {
			snprintf(msg, sizeof(msg), "more than %d lines; decode them in several runs",
				 STDIN_MAX_PARTS);
			stdin_error(r, lineno, 0, "", NICFIT_E_LIMIT, msg);
			break;
		}
		if (nul) {
			snprintf(msg, sizeof(msg), "not a part number: byte 0x00 at column %ld", nul);
			stdin_error(r, lineno, nul, buf, NICFIT_E_DATA, msg);
			continue;
		}
		if (len >= (long)sizeof(buf) - 1) {
			snprintf(msg, sizeof(msg), "a line of %ld bytes is not a part number", len);
			buf[40] = '\0';
			stdin_error(r, lineno, 0, buf, NICFIT_E_DATA, msg);
			continue;
		}
		while (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r')
			i++;
		if (buf[i] == '\0' || buf[i] == '#')
			continue;
		one(r, buf, "<stdin>", lineno);
	}
	if (ferror(stdin))
		return cli_error(NICFIT_E_IO, "decode: cannot read standard input");
	return 0;
}

/* What decode was asked: where the parts start, and how many of each kind. */
struct decode_args {
	int first;       /* argv index of the first part (argc: none) */
	int rules_only;  /* --rules: the OPN rules alone, no catalog */
	int nparts;      /* part numbers on the command line */
	int use_stdin;   /* '-' given */
};

/*
 * Read decode's options (--rules, --, then the parts) into x. Returns 0 or
 * an exit code after printing the error.
 */
static int decode_args(struct decode_args *x, int argc, char **argv)
{
	int i;

	x->first = 1;
	x->rules_only = x->nparts = x->use_stdin = 0;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			x->first = i + 1;
			break;
		}
		if (!strcmp(argv[i], "--rules")) {
			x->rules_only = 1;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			cli_error(NICFIT_E_USAGE, "decode: unknown option '%.64s'", argv[i]);
			return cli_usage("decode");
		}
		x->first = i;
		break;
	}
	if (i == argc)
		x->first = argc;
	for (i = x->first; i < argc; i++) {
		if (!strcmp(argv[i], "-"))
			x->use_stdin++;
		else
			x->nparts++;
	}
	if (x->use_stdin > 1)
		return cli_error(NICFIT_E_USAGE, "decode: '-' (standard input) given twice");
	if (!x->nparts && !x->use_stdin) {
		cli_error(NICFIT_E_USAGE, "decode: which part number? (e.g. MCX653105A-HDAT)");
		return cli_usage("decode");
	}
	return 0;
}

/* Decode every part asked, into one document when there are several. */
static int decode_all(struct run *r, int first, int argc, char **argv)
{
	int i, rc = 0;

	if (r->several) {
		nicfit_emit_begin_object(r->e, NULL);
		nicfit_emit_string(r->e, "schema", "nicfit.decode.v1");
		nicfit_emit_begin_array(r->e, "parts");
	}
	for (i = first; i < argc; i++) {
		if (!strcmp(argv[i], "-"))
			rc = from_stdin(r);
		else
			one(r, argv[i], NULL, 0);
		if (rc)
			break;
	}
	if (r->several) {
		nicfit_emit_end_array(r->e);
		nicfit_emit_end_object(r->e);
	}
	return rc;
}

int cmd_decode(struct cli *c, int argc, char **argv)
{
	struct decode_args x;
	struct run *r;
	int rc = decode_args(&x, argc, argv);

	if (rc)
		return rc;
	r = calloc(1, sizeof(*r));
	if (!r)
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	r->c = c;
	if (!x.rules_only) {
		r->cat = cli_catalog(c, &rc);
		if (!r->cat)
			goto out;
	}
	r->several = x.use_stdin || x.nparts > 1;
	r->e = cli_emitter(c);
	rc = decode_all(r, x.first, argc, argv);
	if (rc || (r->exit_code && !r->several))
		nicfit_emit_free(r->e);
	else
		rc = cli_emit_done(c, r->e);
	if (!rc)
		rc = r->exit_code;
out:
	free(r);
	return rc;
}
