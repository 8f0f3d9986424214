/*
 * emit.c - the one printer (see nicfit/emit.h): the emitter's life, text
 * and Markdown with every outside string escaped, fields, and tables.
 *
 * Text goes straight into the document's buffer. Tables keep their text
 * cells as strings until the table ends, when column widths are known;
 * their JSON rows are written as they come. The JSON writer itself is
 * emit_json.c (the scalars' text emit_json_scalar.c); the text table
 * layout is emit_table.c.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "out/emit_int.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "core/text_int.h"

#define EMIT_FIRST_ROOM ((size_t)16384)

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
	e->md.bol = 1;
	nicfit_buf_init(&e->text, max);
	nicfit_buf_init(&e->column_names, 0);
	nicfit_buf_init(&e->prose, max);
	/*
	 * A document is kilobytes (a plan's JSON 10 to 15 kB): its buffer
	 * starts at 16 KiB, or the limit, rather than doubling up from nothing
	 * (and copying what it has at each step).
	 */
	nicfit_buf_reserve(&e->text, e->text.max - 1 < EMIT_FIRST_ROOM ? e->text.max - 1 : EMIT_FIRST_ROOM);
	return e;
}

static void table_clear(struct table *t)
{
	size_t i;

	for (i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

void nicfit_emit_free(struct nicfit_emit *e)
{
	int i;

	if (!e)
		return;
	table_clear(&e->t);
	for (i = 0; i < NICFIT_EMIT_MAX_DEPTH; i++)
		free(e->stack[i].m);
	nicfit_buf_release(&e->text);
	nicfit_buf_release(&e->column_names);
	nicfit_buf_release(&e->prose);
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
	e->columns_known = 0;
	nicfit_buf_release(&e->column_names);
	nicfit_buf_init(&e->column_names, 0);
	return 0;
}

unsigned nicfit_emit_width(const struct nicfit_emit *e)
{
	return e->view.width;
}

/*
 * Where prose goes: the document, or, in text with --raw or --noheadings
 * (whose output is rows for a program, as lsblk -rn's is), a buffer of its
 * own that the caller shows apart (nicfit_emit_prose).
 */
static struct nicfit_buf *prose_of(struct nicfit_emit *e)
{
	return e->fmt == NICFIT_FMT_TEXT && (e->view.raw || e->view.noheadings) ? &e->prose
										: &e->text;
}

const struct nicfit_buf *nicfit_emit_prose(const struct nicfit_emit *e)
{
	return &e->prose;
}

int nicfit_emit_is_text(const struct nicfit_emit *e)
{
	return e->fmt == NICFIT_FMT_TEXT || e->fmt == NICFIT_FMT_MD;
}

/* ---- escaping what came from outside ------------------------------- */

static int is_ansi(const char *s);

/*
 * Markdown: where an outside string lands. In prose and in a table cell
 * a renderer reads HTML and markup; inside code (a ``` block, a `span`)
 * it reads nothing but the backtick that ends it.
 */
enum md_where { MD_PROSE, MD_CELL, MD_CODE };

/*
 * Follow the renderer's own n bytes at s (a format's text, a raw write):
 * a line that begins with ``` opens or closes a block, a backtick outside
 * one opens or closes a span, which ends with its line (the renderers'
 * spans never cross one).
 */
static void md_track(struct md_state *m, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\n') {
			m->bol = 1;
			m->span = 0;
			continue;
		}
		if (m->bol && n - i >= 3 && !memcmp(s + i, "```", 3)) {
			m->fence = !m->fence;
			i += 2;
		} else if (s[i] == '`' && !m->fence) {
			m->span = !m->span;
		}
		m->bol = 0;
	}
}

/* The length of the run of backticks at s + i (of n bytes). */
static size_t ticks(const char *s, size_t n, size_t i)
{
	size_t k = i;

	while (k < n && s[k] == '`')
		k++;
	return k - i;
}

/*
 * Where the code span that the len backticks at s + i open ends: at the
 * next run of exactly len backticks, as CommonMark pairs them; 0 if none.
 */
static size_t span_end(const char *s, size_t n, size_t i, size_t len)
{
	size_t k = i + len;

	while (k < n) {
		const char *q = memchr(s + k, '`', n - k);
		size_t r;

		if (!q)
			return 0;
		k = (size_t)(q - s);
		r = ticks(s, n, k);
		if (r == len)
			return k;
		k += r;
	}
	return 0;
}

/*
 * Append the n bytes at s, outside text already through the escaper (so
 * no control byte), for Markdown at where. In prose and cells what a
 * renderer would read as HTML becomes plain: < > & as entities, so a tag
 * (<script>, <img onerror=...>) or an entity from outside shows as the
 * text it is; a [ (a link or an image) and a backslash (which would undo
 * an escape) get a backslash. In a cell, | (the column separator) does
 * too, and so does a # or * that begins the cell. A code span the string
 * opens and closes itself (a finding's fix: `ethtool -m IF`) stays a
 * span, as it is where the renderer shows everything as it is; a
 * backtick without its pair gets a backslash, so that no span runs on
 * into the renderer's text, where this escaping would be out of step.
 * Emphasis (* and _ inside a name) is left as it is: mlx5_0 renders as
 * it reads, and emphasis hides nothing. In code (a block or a span of
 * the renderer's) nothing is markup but the backtick that would end it,
 * written \x60, as the escaper writes a byte it will not show. The
 * renderer's own markup (its formats, and arguments such as "**" or "-")
 * is not outside text: only %s arguments, headings and cells come here.
 */
static void md_escape(struct nicfit_buf *b, const char *s, size_t n, enum md_where where)
{
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		const char *rep = NULL;
		char c = s[i];

		if (where == MD_CODE) {
			rep = c == '`' ? "\\x60" : NULL;
		} else if (c == '`') {
			size_t len = ticks(s, n, i), end = span_end(s, n, i, len);

			if (end) {
				/* the span as it is, but for a cell's separators */
				for (; i < end + len; i++)
					if (where == MD_CELL && s[i] == '|') {
						nicfit_buf_add(b, s + run, i - run);
						nicfit_buf_addch(b, '\\');
						run = i;
					}
				i--;
				continue;
			}
			rep = "\\";
		} else if (c == '&' || c == '<' || c == '>') {
			rep = c == '&' ? "&amp;" : c == '<' ? "&lt;" : "&gt;";
		} else if (c == '\\' || c == '[' ||
			   (where == MD_CELL && (c == '|' || (i == 0 && (c == '#' || c == '*'))))) {
			rep = "\\";
		}
		if (!rep)
			continue;
		nicfit_buf_add(b, s + run, i - run);
		nicfit_buf_puts(b, rep);
		/* a backslash goes before the byte; anything else replaces it */
		run = rep[0] == '\\' && !rep[1] ? i : i + 1;
	}
	nicfit_buf_add(b, s + run, n - run);
}

/*
 * Append the n bytes of an outside string at v: escaped, and for
 * Markdown (md non-NULL) escaped again for where the prose stands.
 */
static void outside(struct nicfit_buf *b, const char *v, size_t n, struct md_state *md)
{
	struct nicfit_buf t;

	if (!md) {
		nicfit__text_escape_n(b, v, n, 0);
		return;
	}
	nicfit_buf_init(&t, 0);
	nicfit__text_escape_n(&t, v, n, 0);
	md_escape(b, t.data ? t.data : "", t.len, md->fence || md->span ? MD_CODE : MD_PROSE);
	if (nicfit_buf_error(&t) && !b->err)
		b->err = nicfit_buf_error(&t);
	nicfit_buf_release(&t);
	if (n)
		md->bol = 0;
}

/*
 * Append v, escaped, or the colour it is. A string argument of the text
 * calls is one line of a value, so its newlines are escaped too, but for
 * an argument that is nothing but line breaks (a renderer's "\n" chosen
 * at run time, as in md ? "\n" : ""), which is the renderer's own.
 */
static void escaped(struct nicfit_buf *b, const char *v, struct md_state *md)
{
	size_t n = strlen(v);

	if (is_ansi(v) || strspn(v, "\n") == n) {
		nicfit_buf_add(b, v, n);
		if (md)
			md_track(md, v, n);
	} else {
		outside(b, v, n, md);
	}
}

/*
 * A %s conversion: at most prec bytes of v (prec < 0: all), escaped, then
 * padded as spec (the conversion without its precision) says.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void conv_s(struct nicfit_buf *b, const char *spec, const char *v, int prec,
		   struct md_state *md)
{
	struct nicfit_buf t;
	size_t n;

	if (!v)
		v = "(null)";
	if (prec < 0 && !strcmp(spec, "%s")) {
		escaped(b, v, md);
		return;
	}
	n = strlen(v);
	if (prec >= 0 && (size_t)prec < n)
		n = (size_t)prec;
	nicfit_buf_init(&t, 0);
	if (is_ansi(v) || strspn(v, "\n") == strlen(v)) {
		nicfit_buf_add(&t, v, n);
		if (md)
			md_track(md, v, n);
	} else {
		outside(&t, v, n, md);
	}
	nicfit_buf_addf(b, spec, t.data ? t.data : "");
	nicfit_buf_release(&t);
}

/* The renderer's own n bytes at s, followed in Markdown. */
static void own(struct nicfit_buf *b, const char *s, size_t n, struct md_state *md)
{
	nicfit_buf_add(b, s, n);
	if (md)
		md_track(md, s, n);
}

/*
 * One integer conversion of escaped_vaddf(): spec is the whole conversion,
 * lm its length modifier, which says the type the argument was passed as
 * (ll and j as long long, l, z and t as long, none as int).
 */
static void conv_int(struct nicfit_buf *b, const char *spec, const char *lm, int is_signed,
		     va_list *ap)
{
	int ll = !strcmp(lm, "ll") || !strcmp(lm, "j");
	int l = !strcmp(lm, "l") || !strcmp(lm, "z") || !strcmp(lm, "t");

	if (is_signed && ll)
		nicfit_buf_addf(b, spec, va_arg(*ap, long long));
	else if (is_signed && l)
		nicfit_buf_addf(b, spec, va_arg(*ap, long));
	else if (is_signed)
		nicfit_buf_addf(b, spec, va_arg(*ap, int));
	else if (ll)
		nicfit_buf_addf(b, spec, va_arg(*ap, unsigned long long));
	else if (l)
		nicfit_buf_addf(b, spec, va_arg(*ap, unsigned long));
	else
		nicfit_buf_addf(b, spec, va_arg(*ap, unsigned));
}

/*
 * nicfit_buf_vaddf() with every %s argument escaped: the format is taken
 * apart conversion by conversion (flags, width and precision, * included,
 * and C11's length modifiers) and each is printed with its own argument.
 * %n is not supported and prints nothing. md: Markdown's state, or NULL
 * for text.
 */
static void escaped_vaddf(struct nicfit_buf *b, const char *fmt, va_list ap,
			  struct md_state *md)
{
	va_list aq;

	va_copy(aq, ap);
	while (*fmt) {
		const char *p = strchr(fmt, '%');
		char spec[48], lm[3] = "";
		size_t q = 0, dot, at;
		int n, prec = -1;

		if (!p) {
			own(b, fmt, strlen(fmt), md);
			break;
		}
		own(b, fmt, (size_t)(p - fmt), md);
		p++;
		if (*p == '%') {
			own(b, "%", 1, md);
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
		at = b->len;
		switch (*p++) {
		case 'd': case 'i':
			conv_int(b, spec, lm, 1, &aq);
			break;
		case 'u': case 'o': case 'x': case 'X':
			conv_int(b, spec, lm, 0, &aq);
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
			conv_s(b, spec, va_arg(aq, const char *), prec, md);
			at = b->len;
			break;
		case 'p':
			nicfit_buf_addf(b, spec, va_arg(aq, void *));
			break;
		default:
			/* %n or an unknown conversion: nothing can be printed safely */
			va_end(aq);
			return;
		}
		/* a number, a character or a pointer is the renderer's own */
		if (md && b->len > at)
			md_track(md, b->data + at, b->len - at);
		fmt = p;
	}
	va_end(aq);
}
#pragma GCC diagnostic pop

void nicfit_escaped_vaddf(struct nicfit_buf *b, const char *fmt, va_list ap)
{
	escaped_vaddf(b, fmt, ap, NULL);
}

/* Markdown's state for e's prose, NULL in the other formats. */
static struct md_state *md_of(struct nicfit_emit *e)
{
	return e->fmt == NICFIT_FMT_MD ? &e->md : NULL;
}

void nicfit_emit_printf(struct nicfit_emit *e, const char *fmt, ...)
{
	va_list ap;

	if (!nicfit_emit_is_text(e))
		return;
	va_start(ap, fmt);
	escaped_vaddf(prose_of(e), fmt, ap, md_of(e));
	va_end(ap);
}

void nicfit_emit_heading(struct nicfit_emit *e, const char *title)
{
	if (e->fmt == NICFIT_FMT_MD) {
		own(&e->text, "## ", 3, &e->md);
		escaped(&e->text, title, &e->md);
		own(&e->text, "\n\n", 2, &e->md);
	} else if (e->fmt == NICFIT_FMT_TEXT) {
		struct nicfit_buf *b = prose_of(e);

		nicfit_buf_puts(b, nicfit_emit_color(e, NICFIT_COLOR_BOLD));
		escaped(b, title, NULL);
		nicfit_buf_puts(b, nicfit_emit_color(e, NICFIT_COLOR_RESET));
		nicfit_buf_addch(b, '\n');
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
	if (!nicfit__emit_is_json(e))
		own(e->fmt == NICFIT_FMT_CSV ? &e->text : prose_of(e), s, n, md_of(e));
}

/* ---- fields: one fact, a JSON member and its words in text ------------- */

/* The text of a field: fmt with the arguments after it, in TEXT and MD. */
static void field_text(struct nicfit_emit *e, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void field_text(struct nicfit_emit *e, const char *fmt, va_list ap)
{
	if (nicfit_emit_is_text(e))
		escaped_vaddf(prose_of(e), fmt, ap, md_of(e));
}

void nicfit_emit_field_string(struct nicfit_emit *e, const char *key, const char *fmt, ...)
{
	const char *v;
	va_list ap;

	va_start(ap, fmt);
	v = va_arg(ap, const char *);
	va_end(ap);
	if (nicfit__emit_is_json(e)) {
		nicfit__json_string(e, key, KEYLEN(key), v);
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
	if (nicfit__emit_is_json(e))
		nicfit__json_int(e, key, KEYLEN(key), v);
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
	if (nicfit__emit_is_json(e))
		nicfit__json_number(e, key, KEYLEN(key), v);
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
		nicfit__emit_fail(e, NICFIT_E_INTERNAL);
		return;
	}
	table_clear(&e->t);
	nicfit_emit_columns(e, cols, ncols); /* what -o may name (check_columns) */
	e->in_table = 1;
	nicfit__emit_quick_set(e);
	e->t.cols = cols;
	e->t.ncols = ncols;
	if (nicfit__emit_is_json(e) && e->columns && *e->columns) {
		/* -o: a row's members are the columns asked for (all when it names none of them) */
		int order[COLUMNS_MAX], n = nicfit__columns_order(cols, ncols < COLUMNS_MAX ? ncols : COLUMNS_MAX,
								   e->columns, order), k;

		e->t.hide = n < ncols ? ~(uint64_t)0 : 0;
		for (k = 0; k < n && e->t.hide; k++)
			e->t.hide &= ~((uint64_t)1 << order[k]);
	}
	if (nicfit__emit_is_json(e)) {
		/* the rows are written where the table was begun, as they come */
		e->table_depth = -1;
		nicfit__json_open(e, key, KEYLEN(key), 0);
		e->table_depth = e->depth;
	}
}

/*
 * JSON: the key of the next cell of a table, opening its row object at
 * the row's first cell; NULL (and the emitter failed) outside a table.
 */
static const char *cell_key(struct nicfit_emit *e)
{
	struct table *t = &e->t;

	if (!e->in_table || e->depth != e->table_depth + (t->col ? 1 : 0)) {
		nicfit__emit_fail(e, NICFIT_E_INTERNAL);
		return NULL;
	}
	if (!t->col) {
		e->table_depth = -1; /* the row is a member of the table's array */
		nicfit__json_open(e, NULL, 0, 1);
		e->table_depth = e->depth - 1;
	}
	if (!t->cols[t->col].key) {
		nicfit__emit_fail(e, NICFIT_E_NOMEM);
		return NULL;
	}
	return t->cols[t->col].key;
}

/* JSON: the current cell's column is one -o left out. */
static int hidden(const struct nicfit_emit *e)
{
	return e->t.col < 64 && (e->t.hide >> e->t.col & 1);
}

/* The cell is written: the next column, or the end of the row. */
static void cell_next(struct nicfit_emit *e)
{
	struct table *t = &e->t;

	if (++t->col == t->ncols) {
		t->col = 0;
		if (nicfit__emit_is_json(e))
			nicfit__json_close(e, 1);
	}
}

/* Text formats: keep the cell's shown text (taken over) until the table ends. */
static void cell(struct nicfit_emit *e, char *shown)
{
	struct table *t = &e->t;

	if (!e->in_table) {
		free(shown);
		nicfit__emit_fail(e, NICFIT_E_INTERNAL);
		return;
	}
	if (!shown) {
		nicfit__emit_fail(e, NICFIT_E_NOMEM);
	} else if (NICFIT_ALLOC_GROW(t->cells, t->ncells + 1, t->cap)) {
		free(shown);
		nicfit__emit_fail(e, NICFIT_E_NOMEM);
	} else {
		t->cells[t->ncells++] = shown;
	}
	cell_next(e);
}

/*
 * Whether a spreadsheet would take a CSV field beginning with c for a
 * formula and run it: = + - @, and tab and carriage return, which some
 * strip before they look (OWASP, "CSV Injection"). The escaper writes a
 * tab or CR as \t or \r, so only the first four reach here; the set
 * stays whole so that it holds whatever comes first.
 */
static int csv_formula_start(char c)
{
	return c && strchr("=+-@\t\r", c);
}

/*
 * A cell's shown text: v escaped whole (a cell is one line), malloc'ed.
 * A CSV text cell that a spreadsheet would run as a formula gets a '
 * before it (csv_field() then quotes it), which Excel, LibreOffice and
 * Google Sheets read as "text" and do not show: a name "=cmd|..." from a
 * catalog overlay, a netdev "=1+2" or a host name stays text. Only text
 * cells: a number cell (nicfit_emit_cell_int, _number) is the emitter's
 * own digits, and a negative number stays a number (docs/formats.md).
 */
static char *shown(const struct nicfit_emit *e, const char *v)
{
	struct nicfit_buf t;

	nicfit_buf_init(&t, 0);
	if (e->fmt == NICFIT_FMT_CSV && v && csv_formula_start(v[0]))
		nicfit_buf_addch(&t, '\'');
	nicfit__text_escape_n(&t, v ? v : "", v ? strlen(v) : 0, 0);
	if (nicfit_buf_error(&t)) {
		nicfit_buf_release(&t);
		return NULL;
	}
	return nicfit_buf_detach(&t, NULL);
}

void nicfit_emit_cell_string(struct nicfit_emit *e, const char *v)
{
	const char *key;

	if (!nicfit__emit_is_json(e)) {
		cell(e, shown(e, v));
	} else if ((key = cell_key(e))) {
		if (!hidden(e))
			nicfit__json_string(e, key, KEYLEN(key), v);
		cell_next(e);
	}
}

void nicfit_emit_cell_int(struct nicfit_emit *e, long long v)
{
	const char *key;

	if (!nicfit__emit_is_json(e)) {
		cell(e, nicfit__strfmt("%lld", v));
	} else if ((key = cell_key(e))) {
		if (!hidden(e))
			nicfit__json_int(e, key, KEYLEN(key), v);
		cell_next(e);
	}
}

void nicfit_emit_cell_number(struct nicfit_emit *e, double v, int decimals)
{
	const char *key;

	if (decimals < 0 || decimals > 9)
		decimals = 2;
	if (!isfinite(v)) {
		nicfit_emit_cell_null(e, "-");
	} else if (!nicfit__emit_is_json(e)) {
		cell(e, nicfit__strfmt("%.*f", decimals, v));
	} else if ((key = cell_key(e))) {
		if (!hidden(e))
			nicfit__json_number(e, key, KEYLEN(key), v);
		cell_next(e);
	}
}

/*
 * A missing value: JSON null; in CSV an empty field, whatever the text
 * shows for it ("-", "virtual"), so that every command's CSV marks a
 * missing value the same way and a spreadsheet reads it as blank
 * (docs/formats.md).
 */
void nicfit_emit_cell_null(struct nicfit_emit *e, const char *text)
{
	const char *key;

	if (e->fmt == NICFIT_FMT_CSV)
		text = "";  /* CSV: a missing value is an empty field */
	if (!nicfit__emit_is_json(e)) {
		cell(e, shown(e, text));
	} else if ((key = cell_key(e))) {
		if (!hidden(e))
			nicfit__json_raw(e, key, KEYLEN(key), "null", 4);
		cell_next(e);
	}
}

/* A column's header: its title, or its key when it has none. */
static const char *title(const struct nicfit_column *c)
{
	return c->title ? c->title : c->key ? c->key : "";
}

/*
 * One CSV field: as it is, or double-quoted (its quotes doubled) when it
 * holds a comma, a quote or a line break, or begins with the ' that
 * neutralises a formula (shown()), as OWASP has it.
 */
static void csv_field(struct nicfit_buf *b, const char *s)
{
	if (s[0] != '\'' && !strpbrk(s, ",\"\r\n")) {
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

/* A Markdown cell: s (escaped already) made plain for a table's row. */
static void md_field(struct nicfit_buf *b, const char *s)
{
	md_escape(b, s, strlen(s), MD_CELL);
}

/* Whether the escaper would change s: a control byte, DEL or a byte past ASCII. */
static int plain(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return 0;
	return 1;
}

static void cols_free(struct nicfit_column *cols, int n)
{
	int c;

	for (c = 0; c < n && cols; c++) {
		free((char *)cols[c].key);
		free((char *)cols[c].title);
	}
	free(cols);
}

/*
 * The columns with their keys and titles escaped, malloc'ed (cols_free),
 * or NULL when out of memory. A title can be outside text: the audit's
 * GPU-to-NIC table has a column per NIC, titled with its netdev or RDMA
 * device's name.
 */
static struct nicfit_column *cols_shown(const struct nicfit_emit *e,
					const struct nicfit_column *cols, int n)
{
	struct nicfit_column *v = calloc((size_t)n, sizeof(*v));
	int c;

	for (c = 0; c < n && v; c++) {
		v[c].right = cols[c].right;
		v[c].key = cols[c].key ? shown(e, cols[c].key) : NULL;
		v[c].title = cols[c].title ? shown(e, cols[c].title) : NULL;
		if ((cols[c].key && !v[c].key) || (cols[c].title && !v[c].title)) {
			cols_free(v, c + 1);
			return NULL;
		}
	}
	return v;
}

static void table_text(struct nicfit_emit *e)
{
	struct table *t = &e->t;
	struct nicfit_column *esc = NULL;
	int rc, c;

	for (c = 0; c < t->ncols; c++)
		if (!plain(t->cols[c].key) || !plain(t->cols[c].title))
			break;
	if (c < t->ncols && !(esc = cols_shown(e, t->cols, t->ncols))) {
		nicfit__emit_fail(e, NICFIT_E_NOMEM);
		return;
	}
	rc = nicfit__table_text(&e->text, esc ? esc : t->cols, t->ncols, t->cells,
				t->ncells / (size_t)t->ncols, &e->view,
				nicfit_emit_color(e, NICFIT_COLOR_BOLD),
				nicfit_emit_color(e, NICFIT_COLOR_RESET));
	cols_free(esc, t->ncols);
	if (rc)
		nicfit__emit_fail(e, rc);
}

/* A header's cell: s escaped as a cell is, then written by put (md_field, csv_field). */
static void header_cell(struct nicfit_emit *e, const char *s,
			void (*put)(struct nicfit_buf *, const char *))
{
	char *h = shown(e, s);

	if (!h) {
		nicfit__emit_fail(e, NICFIT_E_NOMEM);
		return;
	}
	put(&e->text, h);
	free(h);
}

static void table_md(struct nicfit_emit *e)
{
	struct table *t = &e->t;
	size_t nrows = t->ncells / (size_t)t->ncols, r;
	int c;

	nicfit_buf_puts(&e->text, "|");
	for (c = 0; c < t->ncols; c++) {
		nicfit_buf_addch(&e->text, ' ');
		header_cell(e, title(&t->cols[c]), md_field);
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
	int order[COLUMNS_MAX], n, k;

	/* the columns -o asks for, in its order, as the text table shows them */
	n = nicfit__columns_order(t->cols, t->ncols < COLUMNS_MAX ? t->ncols : COLUMNS_MAX,
				  e->columns, order);
	for (k = 0; k < n && !e->view.noheadings; k++) {
		const struct nicfit_column *c = &t->cols[order[k]];

		if (k)
			nicfit_buf_addch(&e->text, ',');
		header_cell(e, c->key ? c->key : title(c), csv_field);
		if (k + 1 == n)
			nicfit_buf_addch(&e->text, '\n');
	}
	for (r = 0; r < nrows; r++) {
		for (k = 0; k < n; k++) {
			if (k)
				nicfit_buf_addch(&e->text, ',');
			csv_field(&e->text, t->cells[r * (size_t)t->ncols + (size_t)order[k]]);
		}
		nicfit_buf_addch(&e->text, '\n');
	}
}

void nicfit_emit_table_end(struct nicfit_emit *e)
{
	if (!e->in_table || e->t.col != 0) {
		nicfit__emit_fail(e, NICFIT_E_INTERNAL);
	} else if (e->fmt == NICFIT_FMT_TEXT) {
		table_text(e);
	} else if (e->fmt == NICFIT_FMT_MD) {
		table_md(e);
	} else if (e->fmt == NICFIT_FMT_CSV) {
		table_csv(e);
	}
	e->in_table = 0;
	nicfit__emit_quick_set(e);
	if (nicfit__emit_is_json(e) && e->depth == e->table_depth)
		nicfit__json_close(e, 0);
	e->table_depth = 0;
	table_clear(&e->t);
}

int nicfit_emit_finish(struct nicfit_emit *e, struct nicfit_buf *out)
{
	if (e->in_table || e->depth != 0)
		nicfit__emit_fail(e, NICFIT_E_INTERNAL);
	if (e->err)
		return e->err;
	if (nicfit_buf_error(&e->text))
		return nicfit_buf_error(&e->text);
	if (nicfit_buf_error(&e->prose))
		return nicfit_buf_error(&e->prose);
	if (nicfit__emit_is_json(e) && !e->has_root)
		return NICFIT_E_INTERNAL;
	if (!out->len && !out->cap && !out->err && e->text.cap && e->text.len < out->max) {
		/* an empty out takes the document's memory: a copy of tens of kB saved */
		size_t max = out->max;

		*out = e->text;
		out->max = max;
		nicfit_buf_init(&e->text, e->text.max);
	} else {
		nicfit_buf_add(out, e->text.data, e->text.len);
	}
	if (nicfit__emit_is_json(e))
		nicfit_buf_addch(out, '\n');
	return nicfit_buf_error(out);
}
