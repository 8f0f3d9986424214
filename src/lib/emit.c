/*
 * emit.c - the one printer (see nicfit/emit.h).
 *
 * JSON values go into a jansson tree held on a small stack of open
 * containers; text goes straight into a nicfit_buf. Tables keep their cells
 * as strings until the table ends, when column widths are known.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "alloc_int.h"
#include "emit_int.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "svg_int.h"

struct table {
	const struct nicfit_column *cols;
	int ncols;
	char **cells;  /* row-major, nrows * ncols strings */
	size_t ncells;
	size_t cap;
	json_t *arr;   /* JSON: the array of row objects */
	json_t *row;   /* JSON: the row being filled */
	int col;       /* next column of the current row */
};

struct nicfit_emit {
	enum nicfit_format fmt;
	unsigned flags;
	struct nicfit_buf text;
	json_t *root;
	json_t *stack[NICFIT_EMIT_MAX_DEPTH];
	const char *keys[NICFIT_EMIT_MAX_DEPTH];
	int depth;
	int err;            /* first misuse or allocation failure */
	int in_table;
	struct table t;
	struct nicfit_emit_view view;
	char *columns;      /* the view's column list, owned */
};

double nicfit_round4(double v)
{
	if (!isfinite(v))
		return v;
	if (fabs(v) >= 1e11)
		return v;
	return round(v * 1e4) / 1e4;
}

struct nicfit_emit *nicfit_emit_new(enum nicfit_format fmt, unsigned flags,
				    size_t max)
{
	struct nicfit_emit *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->fmt = fmt;
	e->flags = flags;
	if (fmt == NICFIT_FMT_MD)
		e->flags &= ~NICFIT_EMIT_COLOR;
	nicfit_buf_init(&e->text, max);
	return e;
}

static void table_clear(struct table *t)
{
	size_t i;

	for (i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	json_decref(t->row);
	json_decref(t->arr);
	memset(t, 0, sizeof(*t));
}

void nicfit_emit_free(struct nicfit_emit *e)
{
	if (!e)
		return;
	table_clear(&e->t);
	json_decref(e->root);
	nicfit_buf_release(&e->text);
	free(e->columns);
	free(e);
}

enum nicfit_format nicfit_emit_format(const struct nicfit_emit *e)
{
	return e->fmt;
}

int nicfit_emit_set_view(struct nicfit_emit *e, const struct nicfit_emit_view *v)
{
	char *cols = v->columns ? strdup(v->columns) : NULL;

	if (v->columns && !cols)
		return NICFIT_E_NOMEM;
	free(e->columns);
	e->view = *v;
	e->columns = cols;
	e->view.columns = cols;
	return 0;
}

unsigned nicfit_emit_width(const struct nicfit_emit *e)
{
	return e->view.width;
}

int nicfit_emit_is_text(const struct nicfit_emit *e)
{
	return e->fmt == NICFIT_FMT_TEXT || e->fmt == NICFIT_FMT_MD;
}

static int is_json(const struct nicfit_emit *e)
{
	return e->fmt == NICFIT_FMT_JSON;
}

static void fail(struct nicfit_emit *e, int code)
{
	if (!e->err)
		e->err = code;
}

/* ---- escaping what came from outside ------------------------------- */

static int is_ansi(const char *s);

/*
 * A JSON string of v: jansson refuses malformed UTF-8, which Linux allows
 * in every name it reports (a Latin-1 DMI vendor, a netdev name), so such
 * bytes become \xNN rather than the whole document failing.
 */
static json_t *jstr(const char *v)
{
	struct nicfit_buf t;
	json_t *j;

	if (!v)
		return json_null();
	j = json_string(v);
	if (j)
		return j;
	nicfit_buf_init(&t, 0);
	nicfit__text_escape_n(&t, v, strlen(v), NICFIT__ESC_BYTES);
	j = nicfit_buf_error(&t) || !t.data ? NULL : json_string(t.data);
	nicfit_buf_release(&t);
	return j;
}

/*
 * Append v, escaped, or the colour it is. A string argument of the text
 * calls is one line of a value, so its newlines are escaped too, but for
 * an argument that is nothing but line breaks (a renderer's "\n" chosen
 * at run time, as in md ? "\n" : "").
 */
static void escaped(struct nicfit_buf *b, const char *v, unsigned flags)
{
	size_t n = strlen(v);

	if (is_ansi(v) || strspn(v, "\n") == n)
		nicfit_buf_add(b, v, n);
	else
		nicfit__text_escape_n(b, v, n, flags);
}

/*
 * A %s conversion: at most prec bytes of v (prec < 0: all), escaped, then
 * padded as spec (the conversion without its precision) says.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void conv_s(struct nicfit_buf *b, const char *spec, const char *v, int prec)
{
	struct nicfit_buf t;
	size_t n;

	if (!v)
		v = "(null)";
	if (prec < 0 && !strcmp(spec, "%s")) {
		escaped(b, v, 0);
		return;
	}
	n = strlen(v);
	if (prec >= 0 && (size_t)prec < n)
		n = (size_t)prec;
	nicfit_buf_init(&t, 0);
	if (is_ansi(v) || strspn(v, "\n") == strlen(v))
		nicfit_buf_add(&t, v, n);
	else
		nicfit__text_escape_n(&t, v, n, 0);
	nicfit_buf_addf(b, spec, t.data ? t.data : "");
	nicfit_buf_release(&t);
}

/*
 * nicfit_buf_vaddf() with every %s argument escaped: the format is taken
 * apart conversion by conversion (flags, width and precision, * included,
 * and C11's length modifiers) and each is printed with its own argument.
 * %n is not supported and prints nothing.
 */
void nicfit_escaped_vaddf(struct nicfit_buf *b, const char *fmt, va_list ap)
{
	va_list aq;

	va_copy(aq, ap);
	while (*fmt) {
		const char *p = strchr(fmt, '%');
		char spec[48], lm[3] = "";
		size_t q = 0, dot;
		int n, prec = -1;

		if (!p) {
			nicfit_buf_puts(b, fmt);
			break;
		}
		nicfit_buf_add(b, fmt, (size_t)(p - fmt));
		p++;
		if (*p == '%') {
			nicfit_buf_addch(b, '%');
			fmt = p + 1;
			continue;
		}
		spec[q++] = '%';
		while (*p && strchr("-+ #0", *p) && q < 8)
			spec[q++] = *p++;
		if (*p == '*') {
			n = va_arg(aq, int);
			q += (size_t)snprintf(spec + q, sizeof(spec) - q, "%d", n);
			p++;
		}
		while (isdigit((unsigned char)*p) && q < 20)
			spec[q++] = *p++;
		dot = q;
		if (*p == '.') {
			p++;
			if (*p == '*') {
				prec = va_arg(aq, int);
				if (prec >= 0)
					q += (size_t)snprintf(spec + q, sizeof(spec) - q, ".%d", prec);
				p++;
			} else {
				spec[q++] = '.';
				prec = 0;
				while (isdigit((unsigned char)*p) && q < 32) {
					prec = prec * 10 + (*p - '0');
					spec[q++] = *p++;
				}
			}
		}
		while (*p && strchr("hljztL", *p) && strlen(lm) < 2) {
			lm[strlen(lm)] = *p;
			spec[q++] = *p++;
		}
		if (!*p)
			break;
		spec[q++] = *p;
		spec[q] = '\0';
		switch (*p++) {
		case 'd': case 'i':
			if (!strcmp(lm, "ll") || !strcmp(lm, "j"))
				nicfit_buf_addf(b, spec, va_arg(aq, long long));
			else if (!strcmp(lm, "l") || !strcmp(lm, "z") || !strcmp(lm, "t"))
				nicfit_buf_addf(b, spec, va_arg(aq, long));
			else
				nicfit_buf_addf(b, spec, va_arg(aq, int));
			break;
		case 'u': case 'o': case 'x': case 'X':
			if (!strcmp(lm, "ll") || !strcmp(lm, "j"))
				nicfit_buf_addf(b, spec, va_arg(aq, unsigned long long));
			else if (!strcmp(lm, "l") || !strcmp(lm, "z") || !strcmp(lm, "t"))
				nicfit_buf_addf(b, spec, va_arg(aq, unsigned long));
			else
				nicfit_buf_addf(b, spec, va_arg(aq, unsigned));
			break;
		case 'c':
			nicfit_buf_addf(b, spec, va_arg(aq, int));
			break;
		case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
			if (lm[0] == 'L')
				nicfit_buf_addf(b, spec, va_arg(aq, long double));
			else
				nicfit_buf_addf(b, spec, va_arg(aq, double));
			break;
		case 's':
			/* the precision bounds the argument, not its escaped form */
			memcpy(spec + dot, "s", 2);
			conv_s(b, spec, va_arg(aq, const char *), prec);
			break;
		case 'p':
			nicfit_buf_addf(b, spec, va_arg(aq, void *));
			break;
		default:
			/* %n or an unknown conversion: nothing can be printed safely */
			va_end(aq);
			return;
		}
		fmt = p;
	}
	va_end(aq);
}
#pragma GCC diagnostic pop

/*
 * Attach v (a new reference, stolen) under key in the innermost container.
 * Returns 0, or -1 when v was refused (and its reference dropped).
 */
static int attach(struct nicfit_emit *e, const char *key, json_t *v)
{
	json_t *top;

	if (!v) {
		fail(e, NICFIT_E_NOMEM);
		return -1;
	}
	if (e->depth == 0) {
		/* A bare value at top level becomes the root only once. */
		if (e->root || key) {
			json_decref(v);
			fail(e, NICFIT_E_INTERNAL);
			return -1;
		}
		e->root = v;
		return 0;
	}
	top = e->stack[e->depth - 1];
	if (json_is_object(top)) {
		/* json_object_set_new drops v's reference when it fails */
		if (!key) {
			json_decref(v);
			fail(e, NICFIT_E_INTERNAL);
			return -1;
		}
		if (json_object_set_new(top, key, v)) {
			fail(e, NICFIT_E_INTERNAL);
			return -1;
		}
	} else if (json_array_append_new(top, v)) {
		fail(e, NICFIT_E_NOMEM);
		return -1;
	}
	return 0;
}

static void push(struct nicfit_emit *e, const char *key, json_t *c)
{
	if (!c) {
		fail(e, NICFIT_E_NOMEM);
		return;
	}
	if (e->depth >= NICFIT_EMIT_MAX_DEPTH) {
		json_decref(c);
		fail(e, NICFIT_E_INTERNAL);
		return;
	}
	/* the stack holds a borrowed reference: the container owns c once attached */
	json_incref(c);
	if (attach(e, key, c)) {
		/* refused: attach dropped the reference it was given; drop ours */
		json_decref(c);
		return;
	}
	e->keys[e->depth] = key;
	e->stack[e->depth++] = c;
	json_decref(c);
}

static void pop(struct nicfit_emit *e, int want_object)
{
	if (e->depth == 0 ||
	    !!json_is_object(e->stack[e->depth - 1]) != !!want_object) {
		fail(e, NICFIT_E_INTERNAL);
		return;
	}
	e->depth--;
}

void nicfit_emit_begin_object(struct nicfit_emit *e, const char *key)
{
	if (is_json(e))
		push(e, key, json_object());
}

void nicfit_emit_end_object(struct nicfit_emit *e)
{
	if (is_json(e))
		pop(e, 1);
}

void nicfit_emit_begin_array(struct nicfit_emit *e, const char *key)
{
	if (is_json(e))
		push(e, key, json_array());
}

void nicfit_emit_end_array(struct nicfit_emit *e)
{
	if (is_json(e))
		pop(e, 0);
}

void nicfit_emit_string(struct nicfit_emit *e, const char *key, const char *v)
{
	if (!is_json(e))
		return;
	attach(e, key, jstr(v));
}

void nicfit_emit_stringf(struct nicfit_emit *e, const char *key,
			 const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;

	if (!is_json(e))
		return;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	attach(e, key, jstr(tmp));
}

void nicfit_emit_int(struct nicfit_emit *e, const char *key, long long v)
{
	if (is_json(e))
		attach(e, key, json_integer(v));
}

static json_t *num(double v)
{
	if (!isfinite(v))
		return json_null();
	return json_real(nicfit_round4(v));
}

void nicfit_emit_number(struct nicfit_emit *e, const char *key, double v)
{
	if (is_json(e))
		attach(e, key, num(v));
}

void nicfit_emit_bool(struct nicfit_emit *e, const char *key, int v)
{
	if (is_json(e))
		attach(e, key, json_boolean(v));
}

void nicfit_emit_null(struct nicfit_emit *e, const char *key)
{
	if (is_json(e))
		attach(e, key, json_null());
}

void nicfit_emit_json_text(struct nicfit_emit *e, const char *key, const char *json)
{
	json_error_t jerr;

	if (!is_json(e))
		return;
	attach(e, key, json_loads(json, JSON_DECODE_ANY, &jerr));
}

void nicfit_emit_printf(struct nicfit_emit *e, const char *fmt, ...)
{
	va_list ap;

	if (!nicfit_emit_is_text(e))
		return;
	va_start(ap, fmt);
	nicfit_escaped_vaddf(&e->text, fmt, ap);
	va_end(ap);
}

void nicfit_emit_heading(struct nicfit_emit *e, const char *title)
{
	if (e->fmt == NICFIT_FMT_MD) {
		nicfit_buf_puts(&e->text, "## ");
		escaped(&e->text, title, 0);
		nicfit_buf_puts(&e->text, "\n\n");
	} else if (e->fmt == NICFIT_FMT_TEXT) {
		nicfit_buf_puts(&e->text, nicfit_emit_color(e, NICFIT_COLOR_BOLD));
		escaped(&e->text, title, 0);
		nicfit_buf_puts(&e->text, nicfit_emit_color(e, NICFIT_COLOR_RESET));
		nicfit_buf_addch(&e->text, '\n');
	}
}

/* The ANSI sequences, by enum nicfit_color; escaped_vaddf() knows them by address. */
static const char *const ansi[] = {
	[NICFIT_COLOR_RESET] = "\033[0m",
	[NICFIT_COLOR_BOLD] = "\033[1m",
	[NICFIT_COLOR_RED] = "\033[1;31m",
	[NICFIT_COLOR_YELLOW] = "\033[33m",
	[NICFIT_COLOR_GREEN] = "\033[32m",
	[NICFIT_COLOR_BLUE] = "\033[34m",
	[NICFIT_COLOR_DIM] = "\033[2m",
};

const char *nicfit_emit_color(const struct nicfit_emit *e, enum nicfit_color c)
{
	if (e->fmt != NICFIT_FMT_TEXT || !(e->flags & NICFIT_EMIT_COLOR))
		return "";
	if ((unsigned)c >= sizeof(ansi) / sizeof(ansi[0]))
		return "";
	return ansi[c];
}

static int is_ansi(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(ansi) / sizeof(ansi[0]); i++)
		if (s == ansi[i])
			return 1;
	return 0;
}

void nicfit_emit_raw(struct nicfit_emit *e, const char *s, size_t n)
{
	if (!is_json(e))
		nicfit_buf_add(&e->text, s, n);
}

/* ---- fields: one fact, a JSON member and its words in text ------------- */

/* The text of a field: fmt with the arguments after it, in TEXT and MD. */
static void field_text(struct nicfit_emit *e, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void field_text(struct nicfit_emit *e, const char *fmt, va_list ap)
{
	if (nicfit_emit_is_text(e))
		nicfit_escaped_vaddf(&e->text, fmt, ap);
}

void nicfit_emit_field_string(struct nicfit_emit *e, const char *key, const char *fmt, ...)
{
	const char *v;
	va_list ap;

	va_start(ap, fmt);
	v = va_arg(ap, const char *);
	va_end(ap);
	if (is_json(e)) {
		attach(e, key, jstr(v));
		return;
	}
	if (!v)
		return;
	va_start(ap, fmt);
	field_text(e, fmt, ap);
	va_end(ap);
}

void nicfit_emit_field_int(struct nicfit_emit *e, const char *key, const char *fmt, ...)
{
	va_list ap;
	int v;

	va_start(ap, fmt);
	v = va_arg(ap, int);
	if (is_json(e))
		attach(e, key, json_integer(v));
	va_end(ap);
	va_start(ap, fmt);
	field_text(e, fmt, ap);
	va_end(ap);
}

void nicfit_emit_field_double(struct nicfit_emit *e, const char *key, const char *fmt, ...)
{
	va_list ap;
	double v;

	va_start(ap, fmt);
	v = va_arg(ap, double);
	if (is_json(e))
		attach(e, key, num(v));
	va_end(ap);
	va_start(ap, fmt);
	field_text(e, fmt, ap);
	va_end(ap);
}

/* ---- tables ---------------------------------------------------------- */

void nicfit_emit_table_begin(struct nicfit_emit *e, const char *key,
			     const struct nicfit_column *cols, int ncols)
{
	if (e->in_table || ncols <= 0) {
		fail(e, NICFIT_E_INTERNAL);
		return;
	}
	table_clear(&e->t);
	e->in_table = 1;
	e->t.cols = cols;
	e->t.ncols = ncols;
	if (is_json(e)) {
		e->t.arr = json_array();
		if (!e->t.arr)
			fail(e, NICFIT_E_NOMEM);
		/* Attach now so the table sits where it was begun. */
		json_incref(e->t.arr);
		attach(e, key, e->t.arr);
	}
}

static void cell(struct nicfit_emit *e, char *shown, json_t *v)
{
	struct table *t = &e->t;

	if (!e->in_table) {
		free(shown);
		json_decref(v);
		fail(e, NICFIT_E_INTERNAL);
		return;
	}
	if (is_json(e)) {
		free(shown);
		if (!t->row)
			t->row = json_object();
		if (!t->row || !v ||
		    json_object_set_new(t->row, t->cols[t->col].key, v))
			fail(e, NICFIT_E_NOMEM);
	} else {
		json_decref(v);
		if (!shown) {
			fail(e, NICFIT_E_NOMEM);
		} else if (NICFIT_ALLOC_GROW(t->cells, t->ncells + 1, t->cap)) {
			free(shown);
			fail(e, NICFIT_E_NOMEM);
		} else {
			t->cells[t->ncells++] = shown;
		}
	}
	if (++t->col == t->ncols) {
		t->col = 0;
		if (t->row) {
			if (json_array_append_new(t->arr, t->row))
				fail(e, NICFIT_E_NOMEM);
			t->row = NULL;
		}
	}
}

/* A cell's shown text: v escaped whole (a cell is one line), malloc'ed. */
static char *shown(const char *v)
{
	struct nicfit_buf t;

	nicfit_buf_init(&t, 0);
	nicfit__text_escape_n(&t, v ? v : "", v ? strlen(v) : 0, 0);
	if (nicfit_buf_error(&t)) {
		nicfit_buf_release(&t);
		return NULL;
	}
	return nicfit_buf_detach(&t, NULL);
}

void nicfit_emit_cell_string(struct nicfit_emit *e, const char *v)
{
	cell(e, is_json(e) ? NULL : shown(v), is_json(e) ? jstr(v) : NULL);
}

void nicfit_emit_cell_int(struct nicfit_emit *e, long long v)
{
	cell(e, is_json(e) ? NULL : nicfit__strfmt("%lld", v),
	     is_json(e) ? json_integer(v) : NULL);
}

void nicfit_emit_cell_number(struct nicfit_emit *e, double v, int decimals)
{
	if (decimals < 0 || decimals > 9)
		decimals = 2;
	if (!isfinite(v)) {
		nicfit_emit_cell_null(e, "-");
		return;
	}
	cell(e, is_json(e) ? NULL : nicfit__strfmt("%.*f", decimals, v),
	     is_json(e) ? num(v) : NULL);
}

/*
 * A missing value: JSON null; in CSV an empty field, whatever the text
 * shows for it ("-", "virtual"), so that every command's CSV marks a
 * missing value the same way and a spreadsheet reads it as blank
 * (docs/formats.md).
 */
void nicfit_emit_cell_null(struct nicfit_emit *e, const char *text)
{
	if (e->fmt == NICFIT_FMT_CSV)
		text = "";
	cell(e, is_json(e) ? NULL : shown(text), is_json(e) ? json_null() : NULL);
}

/* A column's header: its title, or its key when it has none. */
static const char *title(const struct nicfit_column *c)
{
	return c->title ? c->title : c->key ? c->key : "";
}

static void csv_field(struct nicfit_buf *b, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		nicfit_buf_puts(b, s);
		return;
	}
	nicfit_buf_addch(b, '"');
	for (; *s; s++) {
		if (*s == '"')
			nicfit_buf_addch(b, '"');
		nicfit_buf_addch(b, *s);
	}
	nicfit_buf_addch(b, '"');
}

static void md_field(struct nicfit_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			nicfit_buf_addch(b, '\\');
		nicfit_buf_addch(b, *s == '\n' ? ' ' : *s);
	}
}

static void table_text(struct nicfit_emit *e)
{
	struct table *t = &e->t;
	int rc = nicfit__table_text(&e->text, t->cols, t->ncols, t->cells,
				    t->ncells / (size_t)t->ncols, &e->view,
				    nicfit_emit_color(e, NICFIT_COLOR_BOLD),
				    nicfit_emit_color(e, NICFIT_COLOR_RESET));

	if (rc)
		fail(e, rc);
}

static void table_md(struct nicfit_emit *e)
{
	struct table *t = &e->t;
	size_t nrows = t->ncells / (size_t)t->ncols, r;
	int c;

	nicfit_buf_puts(&e->text, "|");
	for (c = 0; c < t->ncols; c++) {
		nicfit_buf_addch(&e->text, ' ');
		md_field(&e->text, title(&t->cols[c]));
		nicfit_buf_puts(&e->text, " |");
	}
	nicfit_buf_puts(&e->text, "\n|");
	for (c = 0; c < t->ncols; c++)
		nicfit_buf_puts(&e->text, t->cols[c].right ? "---:|" : "---|");
	nicfit_buf_addch(&e->text, '\n');
	for (r = 0; r < nrows; r++) {
		nicfit_buf_puts(&e->text, "|");
		for (c = 0; c < t->ncols; c++) {
			nicfit_buf_addch(&e->text, ' ');
			md_field(&e->text, t->cells[r * (size_t)t->ncols + (size_t)c]);
			nicfit_buf_puts(&e->text, " |");
		}
		nicfit_buf_addch(&e->text, '\n');
	}
	nicfit_buf_addch(&e->text, '\n');
}

/*
 * CSV as RFC 4180 writes it (a header row of the columns' JSON keys, in
 * the text table's order; a field with a comma, a double quote or a line
 * break double-quoted, its quotes doubled) but with LF line ends, as Unix
 * tools read and write them; a missing value is an empty field
 * (nicfit_emit_cell_null). docs/formats.md describes the convention.
 */
static void table_csv(struct nicfit_emit *e)
{
	struct table *t = &e->t;
	size_t nrows = t->ncells / (size_t)t->ncols, r;
	int c;

	for (c = 0; c < t->ncols && !e->view.noheadings; c++) {
		if (c)
			nicfit_buf_addch(&e->text, ',');
		csv_field(&e->text, t->cols[c].key ? t->cols[c].key : title(&t->cols[c]));
		if (c + 1 == t->ncols)
			nicfit_buf_addch(&e->text, '\n');
	}
	for (r = 0; r < nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			if (c)
				nicfit_buf_addch(&e->text, ',');
			csv_field(&e->text, t->cells[r * (size_t)t->ncols + (size_t)c]);
		}
		nicfit_buf_addch(&e->text, '\n');
	}
}

void nicfit_emit_table_end(struct nicfit_emit *e)
{
	if (!e->in_table || e->t.col != 0) {
		fail(e, NICFIT_E_INTERNAL);
	} else if (e->fmt == NICFIT_FMT_TEXT) {
		table_text(e);
	} else if (e->fmt == NICFIT_FMT_MD) {
		table_md(e);
	} else if (e->fmt == NICFIT_FMT_CSV) {
		table_csv(e);
	}
	e->in_table = 0;
	table_clear(&e->t);
}

int nicfit_emit_finish(struct nicfit_emit *e, struct nicfit_buf *out)
{
	char *s;

	if (e->in_table || e->depth != 0)
		fail(e, NICFIT_E_INTERNAL);
	if (e->err)
		return e->err;
	if (nicfit_buf_error(&e->text))
		return nicfit_buf_error(&e->text);
	if (!is_json(e)) {
		nicfit_buf_add(out, e->text.data, e->text.len);
		return nicfit_buf_error(out);
	}
	if (!e->root)
		return NICFIT_E_INTERNAL;
	s = json_dumps(e->root, JSON_REAL_PRECISION(15) |
				   ((e->flags & NICFIT_EMIT_PRETTY) ? JSON_INDENT(2) : JSON_COMPACT));
	if (!s)
		return NICFIT_E_NOMEM;
	nicfit_buf_puts(out, s);
	nicfit_buf_addch(out, '\n');
	free(s);
	return nicfit_buf_error(out);
}
