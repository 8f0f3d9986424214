/*
 * test_core.c - the shared pieces: error lines, the bounded buffer, the
 * emitter in its four formats, request specs from JSON, suggestions, the
 * directory lister.
 */
#include <errno.h>
#include <unistd.h>

#include "unit.h"

#include "core/jscan_int.h"
#include "core/spec_int.h"
#include "nicfit/buf.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "nicfit/file.h"
#include "nicfit/spec.h"

static void error_lines(void **state)
{
	struct nicfit_error e;
	char line[256];

	(void)state;
	nicfit_error_clear(&e);
	assert_int_equal(nicfit_error_at(&e, NICFIT_E_DATA, "f.json", 3, 7, "bad %s", "thing"),
			 NICFIT_E_DATA);
	nicfit_error_set(&e, NICFIT_E_USAGE, "second"); /* the first error wins */
	nicfit_error_line(&e, line, sizeof(line));
	assert_string_equal(line, "f.json:3:7: bad thing");
	assert_int_equal(nicfit_exit_code(e.code), 65);
	nicfit_error_clear(&e);
	nicfit_error_set(&e, NICFIT_E_USAGE, "two\nlines");
	nicfit_error_line(&e, line, sizeof(line));
	assert_string_equal(line, "two lines");
	assert_int_equal(nicfit_exit_code(NICFIT_E_NOTFOUND), 66);
	assert_int_equal(nicfit_exit_code(NICFIT_E_USAGE), 64);
	assert_int_equal(nicfit_exit_code(NICFIT_E_INTERNAL), 70);
	assert_int_equal(nicfit_exit_code(NICFIT_E_OUTPUT), 74);
	assert_string_equal(nicfit_strerror(NICFIT_E_OUTPUT), "output cannot be written");
	assert_int_equal(nicfit_error_set(NULL, NICFIT_E_DATA, "x"), NICFIT_E_DATA);
}

static void buffer_limits(void **state)
{
	struct nicfit_buf b;
	char *p;
	size_t n;
	int i;

	(void)state;
	nicfit_buf_init(&b, 10);
	assert_string_equal(b.data, "");
	nicfit_buf_puts(&b, "hello");
	nicfit_buf_addf(&b, "%d", 42);
	assert_string_equal(b.data, "hello42");
	nicfit_buf_puts(&b, "toolong");
	assert_int_equal(nicfit_buf_error(&b), NICFIT_E_LIMIT);
	nicfit_buf_puts(&b, "x"); /* sticky: ignored */
	assert_string_equal(b.data, "hello42");
	nicfit_buf_release(&b);
	nicfit_buf_init(&b, 0);
	for (i = 0; i < 1000; i++)
		nicfit_buf_addch(&b, 'a');
	p = nicfit_buf_detach(&b, &n);
	assert_int_equal(n, 1000);
	assert_int_equal(strlen(p), 1000);
	free(p);
	assert_int_equal(b.len, 0);
	nicfit_buf_release(&b);
}

static char *render(enum nicfit_format fmt)
{
	static const struct nicfit_column cols[] = { { "part", "part", 0 }, { "usd", "USD", 1 } };
	struct nicfit_emit *e = nicfit_emit_new(fmt, 0, 0);
	struct nicfit_buf out;

	nicfit_buf_init(&out, 0);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.test.v1");
	nicfit_emit_number(e, "gbps", 103.09963);
	nicfit_emit_number(e, "nan", NAN);
	nicfit_emit_printf(e, "Title\n");
	nicfit_emit_table_begin(e, "lines", cols, 2);
	nicfit_emit_cell_string(e, "MCX556A-ECAT");
	nicfit_emit_cell_number(e, 244.95, 2);
	nicfit_emit_cell_string(e, "a,\"quoted\"|cell");
	nicfit_emit_cell_null(e, "-");
	nicfit_emit_table_end(e);
	nicfit_emit_end_object(e);
	assert_int_equal(nicfit_emit_finish(e, &out), 0);
	nicfit_emit_free(e);
	return nicfit_buf_detach(&out, NULL);
}

static void emitter_formats(void **state)
{
	char *s;

	(void)state;
	s = render(NICFIT_FMT_JSON);
	assert_string_equal(s, "{\"schema\":\"nicfit.test.v1\",\"gbps\":103.0996,\"nan\":null,"
			       "\"lines\":[{\"part\":\"MCX556A-ECAT\",\"usd\":244.95},"
			       "{\"part\":\"a,\\\"quoted\\\"|cell\",\"usd\":null}]}\n");
	free(s);
	s = render(NICFIT_FMT_TEXT);
	assert_string_equal(s, "Title\n"
			       "  part                USD\n"
			       "  MCX556A-ECAT     244.95\n"
			       "  a,\"quoted\"|cell       -\n");
	free(s);
	s = render(NICFIT_FMT_CSV);
	/* RFC 4180 quoting, LF line ends, a missing value as an empty field */
	assert_string_equal(s, "part,usd\nMCX556A-ECAT,244.95\n\"a,\"\"quoted\"\"|cell\",\n");
	free(s);
	s = render(NICFIT_FMT_MD);
	assert_non_null(strstr(s, "| part | USD |\n|---|---:|\n| MCX556A-ECAT | 244.95 |\n"));
	assert_non_null(strstr(s, "a,\"quoted\"\\|cell"));
	free(s);
}

/* The field calls: one fact, a JSON member and its words in text. */
static char *render_fields(enum nicfit_format fmt)
{
	struct nicfit_emit *e = nicfit_emit_new(fmt, 0, 0);
	const char *volatile absent = NULL; /* a fact the result lacks, known only at run time */
	struct nicfit_buf out;

	nicfit_buf_init(&out, 0);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_field_string(e, "part", "%s:", "MCX623106AN-CDAT");
	nicfit_emit_field_int(e, "ports", " %d ports,", 2);
	nicfit_emit_field_double(e, "effective_gbps", " effective %.1f Gb/s\n", 196.87654321);
	nicfit_emit_field_string(e, "options", "  options %s\n", absent);
	nicfit_emit_begin_array(e, "notes");
	nicfit_emit_field_string(e, NULL, "  - %s\n", "first");
	nicfit_emit_field_string(e, NULL, "  - %s\n", "");
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
	assert_int_equal(nicfit_emit_finish(e, &out), 0);
	nicfit_emit_free(e);
	return nicfit_buf_detach(&out, NULL);
}

static void emitter_fields(void **state)
{
	char *s;

	(void)state;
	s = render_fields(NICFIT_FMT_JSON);
	assert_string_equal(s, "{\"part\":\"MCX623106AN-CDAT\",\"ports\":2,"
			       "\"effective_gbps\":196.8765,\"options\":null,"
			       "\"notes\":[\"first\",\"\"]}\n");
	free(s);
	s = render_fields(NICFIT_FMT_TEXT);
	assert_string_equal(s, "MCX623106AN-CDAT: 2 ports, effective 196.9 Gb/s\n"
			       "  - first\n"
			       "  - \n");
	free(s);
	s = render_fields(NICFIT_FMT_MD);
	assert_string_equal(s, "MCX623106AN-CDAT: 2 ports, effective 196.9 Gb/s\n"
			       "  - first\n"
			       "  - \n");
	free(s);
	s = render_fields(NICFIT_FMT_CSV);
	assert_string_equal(s, "");
	free(s);
}

/* Outside text in every format: escaped in text, MD and CSV, valid in JSON. */
static char *render_hostile(enum nicfit_format fmt, unsigned flags)
{
	static const char name[] = "ab\033]0;pwn\007c\xae\xc2\x9b" "d\xe2\x80\xae" "e\tf\ng";
	/* a column titled with a name too, as the audit's GPU-to-NIC table is */
	static const struct nicfit_column cols[] = { { "name", "name", 0 }, { "nic", name, 0 } };
	struct nicfit_emit *e = nicfit_emit_new(fmt, flags, 0);
	struct nicfit_buf out;

	nicfit_buf_init(&out, 0);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_heading(e, name);
	nicfit_emit_printf(e, "%s%s%s|%-3.1s|%5d|%zu|%%|%.*f\n",
			   nicfit_emit_color(e, NICFIT_COLOR_RED), name,
			   nicfit_emit_color(e, NICFIT_COLOR_RESET), "\033", 42, (size_t)7, 2, 1.5);
	nicfit_emit_printf(e, "%s", "\033[1m forged\n");
	nicfit_emit_field_string(e, "name", "%s\n", name);
	nicfit_emit_table_begin(e, "rows", cols, 2);
	nicfit_emit_cell_string(e, name);
	nicfit_emit_cell_int(e, 1);
	nicfit_emit_table_end(e);
	nicfit_emit_end_object(e);
	assert_int_equal(nicfit_emit_finish(e, &out), 0);
	nicfit_emit_free(e);
	return nicfit_buf_detach(&out, NULL);
}

static void emitter_escapes(void **state)
{
	static const char esc[] = "ab\\x1b]0;pwn\\x07c\\xae\\u009bd\\u202ee\\tf";
	/* Markdown writes the escapes' backslashes as \\, which it shows as one */
	static const char md_esc[] = "ab\\\\x1b]0;pwn\\\\x07c\\\\xae\\\\u009bd\\\\u202ee\\\\tf";
	enum nicfit_format fmts[] = { NICFIT_FMT_TEXT, NICFIT_FMT_MD, NICFIT_FMT_CSV };
	char *s;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		s = render_hostile(fmts[i], NICFIT_EMIT_COLOR);
		for (k = 0; s[k]; k++)
			if ((unsigned char)s[k] < 0x20 && s[k] != '\n' && s[k] != '\r')
				assert_true(fmts[i] == NICFIT_FMT_TEXT && s[k] == '\033' &&
					    (!strncmp(s + k, "\033[1;31m", 7) ||
					     !strncmp(s + k, "\033[1m", 4) ||
					     !strncmp(s + k, "\033[0m", 4)));
		assert_null(strstr(s, "\xc2\x9b"));
		assert_null(strstr(s, "\xe2\x80\xae"));
		assert_non_null(strstr(s, fmts[i] == NICFIT_FMT_MD ? md_esc : esc));
		if (fmts[i] == NICFIT_FMT_TEXT) {
			/* the emitter's colours stay; one a name holds does not */
			assert_non_null(strstr(s, "\033[1;31mab\\x1b"));
			assert_non_null(strstr(s, "\\ng\033[0m|\\x1b|   42|7|%|1.50\n"));
			assert_non_null(strstr(s, "\\x1b[1m forged\\n"));
		}
		free(s);
	}
	s = render_hostile(NICFIT_FMT_JSON, 0);
	/* jansson escapes controls; the Latin-1 byte becomes \xae */
	assert_non_null(strstr(s, "\"name\":\"ab\\u001B]0;pwn\\u0007c\\\\xae\xc2\x9b"
				  "d\xe2\x80\xae" "e\\tf\\ng\""));
	free(s);
}

/*
 * CSV: a text cell a spreadsheet would run (= + - @ first) gets a ' and
 * quotes; a number cell, negative or not, stays a number, and so does a
 * text cell that merely holds digits.
 */
static void emitter_csv_formulas(void **state)
{
	static const struct nicfit_column cols[] = { { "name", "name", 0 }, { "delta", "delta", 1 },
						     { "n", "n", 1 } };
	static const char *const names[] = { "=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)",
					     "\tx", "'quoted", "12", "a=b" };
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_CSV, 0, 0);
	struct nicfit_buf out;
	size_t i;
	char *s;

	(void)state;
	nicfit_buf_init(&out, 0);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_table_begin(e, NULL, cols, 3);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		nicfit_emit_cell_string(e, names[i]);
		nicfit_emit_cell_number(e, -3.5, 1);
		nicfit_emit_cell_int(e, -(long long)i);
	}
	nicfit_emit_table_end(e);
	nicfit_emit_end_object(e);
	assert_int_equal(nicfit_emit_finish(e, &out), 0);
	nicfit_emit_free(e);
	s = nicfit_buf_detach(&out, NULL);
	assert_string_equal(s, "name,delta,n\n"
			       "\"'=cmd|' /C calc'!A0\",-3.5,0\n"
			       "\"'+1+1\",-3.5,-1\n"
			       "\"'-2+3\",-3.5,-2\n"
			       "\"'@SUM(A1)\",-3.5,-3\n"
			       "\"'\\tx\",-3.5,-4\n"
			       "\"'quoted\",-3.5,-5\n"
			       "12,-3.5,-6\n"
			       "a=b,-3.5,-7\n");
	free(s);
}

/*
 * Markdown: outside text in a heading, in prose and in a cell cannot
 * become HTML, a link or a code span that runs into the renderer's text;
 * the renderer's own markup ("**" as an argument, its `spans` and ```
 * blocks) stays, and so does a span the string closes itself.
 */
static void emitter_md_markup(void **state)
{
	static const struct nicfit_column cols[] = { { "name", "a|b", 0 } };
	static const char html[] = "<script>x</script> & [l](http://x) \\";
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_MD, 0, 0);
	struct nicfit_buf out;
	char *s;

	(void)state;
	nicfit_buf_init(&out, 0);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_heading(e, "<b>h</b>");
	nicfit_emit_printf(e, "%sVerdict:%s %s\n", "**", "**", html);
	nicfit_emit_printf(e, "- `%s` %s\n", "a`b<c>", "run `ethtool -m IF` <now> `x");
	nicfit_emit_printf(e, "```\n%s\n```\n%s\n", "``` <i>", "<i>");
	nicfit_emit_table_begin(e, NULL, cols, 1);
	nicfit_emit_cell_string(e, html);
	nicfit_emit_cell_string(e, "#1 *x* `a|b` c|d");
	nicfit_emit_cell_string(e, "*bold*");
	nicfit_emit_table_end(e);
	nicfit_emit_end_object(e);
	assert_int_equal(nicfit_emit_finish(e, &out), 0);
	nicfit_emit_free(e);
	s = nicfit_buf_detach(&out, NULL);
	assert_string_equal(s, "## &lt;b&gt;h&lt;/b&gt;\n\n"
			       "**Verdict:** &lt;script&gt;x&lt;/script&gt; &amp; \\[l](http://x) \\\\\n"
			       "- `a\\x60b<c>` run `ethtool -m IF` &lt;now&gt; \\`x\n"
			       "```\n\\x60\\x60\\x60 <i>\n```\n&lt;i&gt;\n"
			       "| a\\|b |\n|---|\n"
			       "| &lt;script&gt;x&lt;/script&gt; &amp; \\[l](http://x) \\\\ |\n"
			       "| \\#1 *x* `a\\|b` c\\|d |\n"
			       "| \\*bold* |\n\n");
	free(s);
}

static void emitter_misuse(void **state)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	struct nicfit_buf out;

	(void)state;
	nicfit_buf_init(&out, 0);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_begin_array(e, "a");
	nicfit_emit_end_object(e); /* wrong closer */
	assert_int_equal(nicfit_emit_finish(e, &out), NICFIT_E_INTERNAL);
	nicfit_emit_free(e);
	nicfit_buf_release(&out);

	/* a second document at top level, and a member without a key: refused
	 * containers are not kept on the stack (ASan saw a use after free) */
	e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	nicfit_buf_init(&out, 0);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_end_object(e);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "k", "v");
	nicfit_emit_end_object(e);
	assert_int_equal(nicfit_emit_finish(e, &out), NICFIT_E_INTERNAL);
	nicfit_emit_free(e);
	nicfit_buf_release(&out);
	e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	nicfit_buf_init(&out, 0);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_begin_array(e, NULL);
	nicfit_emit_int(e, NULL, 1);
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
	assert_int_equal(nicfit_emit_finish(e, &out), NICFIT_E_INTERNAL);
	nicfit_emit_free(e);
	nicfit_buf_release(&out);
}

static void spec_from_json(void **state)
{
	static const char doc[] = "{\n  \"server\": \"r740xd\",\n  \"servers\": 2,\n"
				  "  \"explain\": true,\n  \"assume\": [\"mps=512\", \"mtu=9000\"],\n"
				  "  \"gpu\": null\n}";
	struct nicfit_spec *s = calloc(1, sizeof(*s));
	struct nicfit_error err;
	static const char *const known[] = { "server", "servers", "explain", "assume", NULL };

	(void)state;
	nicfit_spec_init(s, "req.json");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_spec_parse_json(s, doc, strlen(doc), &err), 0);
	assert_string_equal(nicfit_spec_get(s, "server"), "r740xd");
	assert_string_equal(nicfit_spec_get(s, "servers"), "2");
	assert_string_equal(nicfit_spec_get(s, "explain"), "true");
	assert_int_equal(nicfit_spec_count(s, "assume"), 2);
	assert_string_equal(nicfit_spec_get_nth(s, "assume", 1), "mtu=9000");
	assert_null(nicfit_spec_get(s, "gpu"));
	assert_int_equal(nicfit_spec_check_unused(s, known, &err), 0);
	/* an error about a value points at it in the file */
	nicfit_error_set(&err, NICFIT_E_USAGE, "'2': bad (at column 1)");
	nicfit_spec_locate_error(s, "servers", &err);
	assert_int_equal(err.code, NICFIT_E_DATA);
	assert_string_equal(err.input, "req.json");
	assert_int_equal(err.line, 3);
	assert_int_equal(err.col, 14);
	assert_string_equal(err.msg, "servers: '2': bad");
	nicfit_spec_release(s);
	free(s);
}

static void spec_rejects(void **state)
{
	static const char *const bad[] = { "[1,2]", "{\"a\":{\"b\":1}}", "{\"a\":1,\"a\":2}",
		"{\"a\":[[1]]}", "{", "", "\"x\"", NULL };
	struct nicfit_spec *s = calloc(1, sizeof(*s));
	struct nicfit_error err;
	static const char *const known[] = { "servers", NULL };
	int i;

	(void)state;
	for (i = 0; bad[i]; i++) {
		nicfit_spec_init(s, "x");
		nicfit_error_clear(&err);
		if (!nicfit_spec_parse_json(s, bad[i], strlen(bad[i]), &err))
			fail_msg("accepted %s", bad[i]);
		assert_int_equal(err.code, NICFIT_E_DATA);
		nicfit_spec_release(s);
	}
	nicfit_spec_init(s, "flags");
	nicfit_spec_add(s, "servrs", "2", &err);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_spec_check_unused(s, known, &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "did you mean 'servers'"));
	nicfit_spec_release(s);
	free(s);
}

/*
 * A request's limits hold as it is read: a body of 80,000 keys stops at
 * the 257th (its position named), the tokenizer having made no token past
 * it, whichever of the two readings takes it; a key given twice among 256
 * is found as it is among two.
 */
static void spec_limits_as_read(void **state)
{
	struct nicfit_spec *s = calloc(1, sizeof(*s));
	struct nicfit_error err, terr;
	struct jscan js;
	size_t cap = 80000 * 12 + 16, n = 0;
	char *doc = malloc(cap);
	int i, tree;

	(void)state;
	assert_non_null(doc);
	for (tree = 0; tree < 2; tree++) {
		n = 0;
		doc[n++] = '{';
		if (tree) /* an escaped key sends the request to the jansson reading */
			n += (size_t)snprintf(doc + n, cap - n, "\"\\u0061\":1,");
		for (i = 0; i < 80000; i++)
			n += (size_t)snprintf(doc + n, cap - n, "%s\"k%d\":1", i ? "," : "", i);
		doc[n++] = '}';
		nicfit_spec_init(s, "body");
		nicfit_error_clear(&err);
		assert_int_equal(nicfit_spec_parse_json(s, doc, n, &err), NICFIT_E_LIMIT);
		assert_int_equal(s->n, 0);
		assert_int_equal(err.line, 1);
		assert_true(err.col > 1000 && err.col < 3000);
		assert_non_null(strstr(err.msg, "more than 256 settings"));
		nicfit_spec_init(s, "body");
		nicfit_error_clear(&terr);
		assert_int_equal(nicfit__spec_parse_json_tree(s, doc, n, &terr), NICFIT_E_LIMIT);
		assert_string_equal(terr.msg, err.msg);
		assert_int_equal(terr.col, err.col);
	}
	nicfit__jscan_init(&js);
	js.max_count = 256;
	assert_int_equal(nicfit__jscan_parse(&js, doc, n), JSCAN_E_COUNT);
	assert_int_equal(js.ntok, 1 + 2 * 256);
	nicfit__jscan_release(&js);

	/* 256 keys, the last the same as the first: refused as a duplicate */
	n = 0;
	doc[n++] = '{';
	for (i = 0; i < 256; i++)
		n += (size_t)snprintf(doc + n, cap - n, "%s\"k%d\":1", i ? "," : "", i % 255);
	doc[n++] = '}';
	nicfit_spec_init(s, "body");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_spec_parse_json(s, doc, n, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "duplicate"));
	nicfit_spec_release(s);
	free(doc);
	free(s);
}

/*
 * Every value error names its own key and position: a value read after
 * another is blamed, not the one before it (a bad workload on line 3 was
 * reported at the GPU on line 2), the nth value of a repeated key is
 * blamed, not the last, and a value the JSON reader refuses has its place.
 */
static void spec_errors_own_key(void **state)
{
	static const char doc[] = "{\n  \"gpu\": \"a40\",\n  \"workload\": \"trainin\",\n"
				  "  \"assume\": [\"bad\",\n             \"mtu=9000\"],\n"
				  "  \"a/b~c\": 1\n}";
	static const char bad[] = "{\"a\": 1,\n \"b\": [2, {}]}";
	struct nicfit_spec *s = calloc(1, sizeof(*s));
	struct nicfit_reader r;
	struct nicfit_error err;

	(void)state;
	nicfit_spec_init(s, "req.json");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_spec_parse_json(s, doc, strlen(doc), &err), 0);
	nicfit_reader_init(&r, s, &err);
	assert_string_equal(nicfit_reader_get(&r, "gpu"), "a40");
	assert_string_equal(nicfit_reader_get(&r, "workload"), "trainin");
	nicfit_error_at(&err, NICFIT_E_USAGE, r.opt, 0, 0, "unknown workload");
	assert_int_equal(nicfit_reader_fail(&r, NICFIT_E_USAGE), NICFIT_E_USAGE);
	assert_int_equal(err.code, NICFIT_E_DATA);
	assert_string_equal(err.input, "req.json");
	assert_int_equal(err.line, 3);
	assert_int_equal(err.col, 15);
	assert_string_equal(err.msg, "workload: unknown workload");
	/* the first of two values, not the last */
	nicfit_error_clear(&err);
	assert_string_equal(nicfit_reader_get_nth(&r, "assume", 0), "bad");
	nicfit_error_at(&err, NICFIT_E_USAGE, r.opt, 0, 0, "no such assumption");
	nicfit_reader_fail(&r, NICFIT_E_USAGE);
	assert_int_equal(err.line, 4);
	assert_int_equal(err.col, 14);
	/* a key with '/' and '~' has a position too (RFC 6901 escapes) */
	nicfit_error_clear(&err);
	assert_string_equal(nicfit_reader_get(&r, "a/b~c"), "1");
	nicfit_error_at(&err, NICFIT_E_USAGE, r.opt, 0, 0, "bad");
	nicfit_reader_fail(&r, NICFIT_E_USAGE);
	assert_int_equal(err.line, 6);
	assert_int_equal(err.col, 12);
	/* an error the command raised later, named by option */
	nicfit_error_clear(&err);
	nicfit_error_at(&err, NICFIT_E_NOTFOUND, "--workload", 0, 0, "unknown");
	nicfit_spec_locate_option(s, &err);
	assert_int_equal(err.code, NICFIT_E_NOTFOUND);
	assert_int_equal(err.line, 3);
	assert_string_equal(err.msg, "workload: unknown");
	nicfit_spec_release(s);
	/* a value the reader refuses: its own place */
	nicfit_spec_init(s, "req.json");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_spec_parse_json(s, bad, strlen(bad), &err), NICFIT_E_DATA);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 11);
	assert_non_null(strstr(err.msg, "b[1]"));
	nicfit_spec_release(s);
	free(s);
}

/* Positions of values by path, as the spec and catalog readers report them. */
static void json_positions(void **state)
{
	static const char doc[] = "{\n  \"n\\u00e9\": 1,\n  \"nics\": [\n    {\"id\": \"x\"},\n"
				  "    {\"\\u00e9t\\u00e9\": \"\\u00e9\", \"id\": \"caf\xc3\xa9\", "
				  "\"gbps\": 25}\n  ]\n}\n";
	struct jscan js;
	long line, col;

	(void)state;
	nicfit__jscan_init(&js);
	assert_int_equal(nicfit__jscan_parse(&js, doc, strlen(doc)), 0);
	assert_int_equal(nicfit__jscan_locate(&js, "", &line, &col), 0);
	assert_int_equal(line, 1);
	assert_int_equal(col, 1);
	assert_int_equal(nicfit__jscan_locate(&js, "/nics", &line, &col), 0);
	assert_int_equal(line, 3);
	assert_int_equal(col, 11);
	/* a string is where its quote is; keys compare decoded */
	assert_int_equal(nicfit__jscan_locate(&js, "/nics/0/id", &line, &col), 0);
	assert_int_equal(line, 4);
	assert_int_equal(col, 12);
	assert_int_equal(nicfit__jscan_locate(&js, "/n\xc3\xa9", &line, &col), 0);
	assert_int_equal(line, 2);
	assert_int_equal(col, 14);
	/* columns count characters: the UTF-8 'é' before it is one */
	assert_int_equal(nicfit__jscan_locate(&js, "/nics/1/gbps", &line, &col), 0);
	assert_int_equal(line, 5);
	assert_int_equal(col, 55);
	assert_int_equal(nicfit__jscan_locate(&js, "/nics/2", &line, &col), -1);
	assert_int_equal(line, 0);
	assert_int_equal(col, 0);
	assert_int_equal(nicfit__jscan_locate(&js, "/nics/x", &line, &col), -1);
	assert_int_equal(nicfit__jscan_locate(&js, "/none", &line, &col), -1);
	assert_int_equal(nicfit__jscan_locate(&js, "/nics/0/id/1", &line, &col), -1);
	nicfit__jscan_release(&js);
}

/*
 * A column counts characters at every offset of a line of one- to
 * four-byte UTF-8 sequences, eight bytes at a time or one: the count a
 * byte loop makes, after a newline too.
 */
static void json_position_columns(void **state)
{
	char text[512];
	size_t n = 0, off;

	(void)state;
	text[n++] = '{';
	text[n++] = '\n';
	while (n + 16 < sizeof(text)) {
		static const char *const piece[] = { "a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80" };
		const char *q = piece[(n * 7 / 3) % 4];

		memcpy(text + n, q, strlen(q));
		n += strlen(q);
	}
	for (off = 0; off <= n; off++) {
		long line, col, want_line = 1, want_col = 1;
		size_t i;

		for (i = 0; i < off; i++) {
			if (text[i] == '\n') {
				want_line++;
				want_col = 1;
			} else if (((unsigned char)text[i] & 0xC0) != 0x80) {
				want_col++;
			}
		}
		nicfit__jscan_position(text, off, &line, &col);
		assert_int_equal(line, want_line);
		assert_int_equal(col, want_col);
	}
}

/* Deeper than the tokenizer's default, as jansson allows: positions all the same. */
static void json_positions_deep(void **state)
{
	char doc[2 * 100 + 16];
	struct jscan js;
	long line, col;
	int i;

	(void)state;
	memcpy(doc, "{\"a\":", 5);
	for (i = 0; i < 100; i++) {
		doc[5 + i] = '[';
		doc[105 + i] = ']';
	}
	memcpy(doc + 205, "}", 2);
	nicfit__jscan_init(&js);
	assert_int_equal(nicfit__jscan_parse(&js, doc, strlen(doc)), -1);
	assert_string_equal(js.err_msg, "nested too deeply");
	js.max_depth = 2048;
	assert_int_equal(nicfit__jscan_parse(&js, doc, strlen(doc)), 0);
	assert_int_equal(nicfit__jscan_locate(&js, "/a/0/0", &line, &col), 0);
	assert_int_equal(line, 1);
	assert_int_equal(col, 8);
	nicfit__jscan_release(&js);
}

/*
 * Strings are scanned 16 bytes a step: a byte that ends the plain run (the
 * quote, a backslash escape, a control byte, a UTF-8 sequence, bad UTF-8)
 * at every offset of the first, second and third block, and strings that
 * end within 16 bytes of the text, read the same as byte by byte.
 */
static void json_string_scan(void **state)
{
	struct jscan js;
	char doc[96], out[96];
	size_t at, n;

	(void)state;
	nicfit__jscan_init(&js);
	for (at = 0; at < 40; at++) {
		/* ["aaa...a"] with the quote after at bytes: the token is at bytes long */
		doc[0] = '[';
		doc[1] = '"';
		memset(doc + 2, 'a', at);
		memcpy(doc + 2 + at, "\"]", 3);
		n = strlen(doc);
		assert_int_equal(nicfit__jscan_parse(&js, doc, n), 0);
		assert_int_equal(js.tok[1].type, JS_STRING);
		assert_int_equal(js.tok[1].len, at);
		assert_int_equal(js.tok[1].escaped, 0);
		/* an escape there: decoded, the token marked escaped */
		memcpy(doc + 2 + at, "\\n\"]", 5);
		assert_int_equal(nicfit__jscan_parse(&js, doc, strlen(doc)), 0);
		assert_int_equal(js.tok[1].escaped, 1);
		assert_int_equal(nicfit__jscan_string(&js, 1, out, sizeof(out)), (int)at + 1);
		assert_int_equal(out[at], '\n');
		/* two-byte UTF-8 there ("\xc3\xa9"), then more plain bytes */
		memcpy(doc + 2 + at, "\xc3\xa9" "bc\"]", 7);
		assert_int_equal(nicfit__jscan_parse(&js, doc, strlen(doc)), 0);
		assert_int_equal(js.tok[1].len, at + 4);
		/* a control byte, a lone continuation byte, a DEL (allowed) */
		memcpy(doc + 2 + at, "\t\"]", 4);
		assert_int_equal(nicfit__jscan_parse(&js, doc, strlen(doc)), -1);
		assert_string_equal(js.err_msg, "control character in a string");
		assert_int_equal(js.err_off, 2 + at);
		memcpy(doc + 2 + at, "\x80\"]", 4);
		assert_int_equal(nicfit__jscan_parse(&js, doc, strlen(doc)), -1);
		assert_string_equal(js.err_msg, "invalid UTF-8 in a string");
		memcpy(doc + 2 + at, "\x7f\"]", 4);
		assert_int_equal(nicfit__jscan_parse(&js, doc, strlen(doc)), 0);
		/* the text ends inside the string: nothing past it is read */
		assert_int_equal(nicfit__jscan_parse(&js, doc, 2 + at), -1);
		assert_string_equal(js.err_msg, "unterminated string");
		assert_int_equal(js.err_off, 2 + at);
	}
	nicfit__jscan_release(&js);
}

/*
 * A number token's value is strtod()'s to the bit, the fast path's
 * (integers, decimals of up to 15 digits) as the rest: every decimal of
 * 1 to 15 digits with the point anywhere, from a fixed sequence, and the
 * edges (negative zero, 15 and 16 digits, an exponent).
 */
static void json_number_exact(void **state)
{
	static const char *const edges[] = { "-0", "-0.0", "0.1", "0.3", "16.0605", "9.4148",
		"0.000000000000001", "123456789012345", "1234567890123456", "999999999999999.9",
		"0.1234567890123456", "1e5", "-2.5E-3", "4503599627370497", NULL };
	struct jscan js;
	char doc[40];
	unsigned long x = 1;
	double v, want;
	int i, j, nd, at;

	(void)state;
	nicfit__jscan_init(&js);
	for (i = 0; i < 200000 + (int)(sizeof(edges) / sizeof(edges[0])) - 1; i++) {
		if (i < 200000) {
			char *q = doc;

			x = x * 6364136223846793005UL + 1442695040888963407UL;
			nd = 1 + (int)(x >> 33) % 15;
			at = (int)(x >> 45) % (nd + 1); /* digits before the point; nd: none */
			if (x >> 63)
				*q++ = '-';
			/* at digits before the point (the first not 0), or "0" */
			if (!at)
				*q++ = '0';
			for (j = 0; j < nd; j++) {
				int dg = (int)((x >> (j * 4 % 60)) % 10);

				if (j == at)
					*q++ = '.';
				*q++ = (char)('0' + (j == 0 && at > 1 && !dg ? 1 : dg));
			}
			*q = '\0';
		} else {
			snprintf(doc, sizeof(doc), "%s", edges[i - 200000]);
		}
		assert_int_equal(nicfit__jscan_parse(&js, doc, strlen(doc)), 0);
		assert_int_equal(nicfit__jscan_number(&js, 0, &v), 0);
		want = strtod(doc, NULL);
		if (memcmp(&v, &want, sizeof(v)))
			fail_msg("%s: %.17g, strtod() %.17g", doc, v, want);
	}
	nicfit__jscan_release(&js);
}

static void suggestions(void **state)
{
	static const char *const ids[] = { "r740xd", "r740", "dl380-gen10", "a40", "l40s", NULL };

	(void)state;
	assert_string_equal(nicfit_suggest("r740xdd", ids), "r740xd");
	assert_string_equal(nicfit_suggest("R740", ids), "r740");
	assert_string_equal(nicfit_suggest("dl380", ids), "dl380-gen10");
	assert_string_equal(nicfit_suggest("l40", ids), "l40s");
	assert_null(nicfit_suggest("zzzzzzzz", ids));
}

/* The directory lister: byte order, hidden names on request, its bound, its errors. */
static void dir_listing(void **state)
{
	static const char *const files[] = { "b.json", "a", ".hidden", "B", "c" };
	char dir[] = "/tmp/nicfit-dir-XXXXXX", path[64];
	char **names;
	size_t n, i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		f = fopen(path, "w");
		assert_non_null(f);
		fclose(f);
	}
	assert_int_equal(nicfit_dir_list(dir, 0, 16, &names, &n), 0);
	assert_int_equal(n, 5);
	assert_string_equal(names[0], ".hidden");
	assert_string_equal(names[1], "B");
	assert_string_equal(names[2], "a");
	assert_string_equal(names[3], "b.json");
	assert_string_equal(names[4], "c");
	nicfit_dir_names_free(names, n);
	assert_int_equal(nicfit_dir_list(dir, 1, 16, &names, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(names[0], "B");
	nicfit_dir_names_free(names, n);
	assert_int_equal(nicfit_dir_list(dir, 1, 3, &names, &n), NICFIT_E_LIMIT);
	assert_null(names);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
	assert_int_equal(nicfit_dir_list(dir, 0, 16, &names, &n), NICFIT_E_IO);
	assert_int_equal(errno, ENOENT);
	assert_null(names);
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(error_lines),
		cmocka_unit_test(buffer_limits),
		cmocka_unit_test(emitter_formats),
		cmocka_unit_test(emitter_fields),
		cmocka_unit_test(emitter_escapes),
		cmocka_unit_test(emitter_csv_formulas),
		cmocka_unit_test(emitter_md_markup),
		cmocka_unit_test(emitter_misuse),
		cmocka_unit_test(spec_from_json),
		cmocka_unit_test(spec_rejects),
		cmocka_unit_test(spec_limits_as_read),
		cmocka_unit_test(spec_errors_own_key),
		cmocka_unit_test(json_positions),
		cmocka_unit_test(json_position_columns),
		cmocka_unit_test(json_positions_deep),
		cmocka_unit_test(json_string_scan),
		cmocka_unit_test(json_number_exact),
		cmocka_unit_test(suggestions),
		cmocka_unit_test(dir_listing),
	};

	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
