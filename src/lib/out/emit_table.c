/*
 * emit_table.c - text tables, laid out by libsmartcols (util-linux's table
 * library, the one lsblk and findmnt print with): column widths, right
 * alignment of numbers, and, when the output has a width (a terminal),
 * fitting the table into it by wrapping the last column at word
 * boundaries and truncating the others as libsmartcols does. Without a
 * width (piped output) nothing is wrapped or cut. The view also selects
 * columns (`-o`), drops the header (`--noheadings`) and prints raw rows
 * (`--raw`: one space between cells, blanks inside a cell escaped as
 * \x20, so that `cut -d' '` and awk can split them, and so backslashes
 * as \x5c, which keeps that reversible).
 *
 * Cells arrive escaped by the one escaper (emit.c's shown()), so
 * libsmartcols's own encoding is off: left on, it escapes the backslash
 * of every \xHH again, and a card's ESC shows as \x5cx1b.
 *
 * Tables are indented by two spaces, as every text section is, except in
 * raw mode, whose lines are for programs.
 *
 * libsmartcols measures cells with mbrtowc() in the thread's LC_CTYPE.
 * nicfit never calls setlocale(), so that is "C", where every byte past
 * 0x7f is an encoding error, and libsmartcols 2.38 then loops for ever on
 * a cell holding a valid UTF-8 name ("Ñ", "—": the escaper keeps those).
 * A table is laid out in C.UTF-8, for this thread only (uselocale()); a C
 * library without that locale gets the cells with every byte past 0x7f
 * written as \xNN instead.
 */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libsmartcols.h>

#include "out/emit_int.h"
#include "nicfit/error.h"
#include "core/scols_int.h"



/* s with every byte past 0x7f as \xNN (malloc'ed; NULL: memory ran out). */
static char *ascii_only(const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0, i, k = 0;
	char *t;

	for (i = 0; s[i]; i++)
		n += (unsigned char)s[i] >= 0x80 ? 4 : 1;
	t = malloc(n + 1);
	if (!t)
		return NULL;
	for (i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x80) {
			t[k++] = '\\';
			t[k++] = 'x';
			t[k++] = hex[c >> 4];
			t[k++] = hex[c & 15];
		} else {
			t[k++] = (char)c;
		}
	}
	t[k] = '\0';
	return t;
}

/*
 * A break inside a word wider than its column: U+200B ZERO WIDTH SPACE,
 * put after the punctuation of such words only ("(host.gpudirect." |
 * "nvidia_driver_version)"), where word_next() may end a line, and taken
 * out of what is printed. Outside text cannot bring one in: the escaper
 * shows a zero-width character as \u200b.
 */
#define ZWSP "\xe2\x80\x8b"

static int is_zwsp(const char *p)
{
	return (unsigned char)p[0] == 0xe2 && (unsigned char)p[1] == 0x80 &&
	       (unsigned char)p[2] == 0x8b;
}

static int breaks_after(char c)
{
	return c && strchr("./_=,-:;", c) != NULL;
}

/* Display columns of UTF-8 text: code points, not bytes; a break takes none. */
static size_t cols_of(const char *s, size_t n)
{
	size_t w = 0, i;

	for (i = 0; i < n && s[i]; i++) {
		if (i + 2 < n && is_zwsp(s + i)) {
			i += 2;
			continue;
		}
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
	}
	return w;
}

/* The widest piece of s when a line may also end after the punctuation of a word. */
static size_t widest_piece(const char *s)
{
	size_t best = 0, w = 0;

	for (; *s; s++) {
		if (*s == ' ') {
			w = 0;
			continue;
		}
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
		if (w > best)
			best = w;
		if (breaks_after(*s) && s[1] && s[1] != ' ')
			w = 0;
	}
	return best;
}

/* s with a break after the punctuation of each word wider than width (malloc'ed). */
static char *with_breaks(const char *s, size_t width)
{
	size_t n = strlen(s), k = 0, i;
	char *t = malloc(n * 4 + 1);

	if (!t)
		return NULL;
	for (i = 0; i < n;) {
		size_t len = strcspn(s + i, " "), j, wide = cols_of(s + i, len) > width;

		for (j = 0; j < len; j++) {
			t[k++] = s[i + j];
			if (wide && breaks_after(s[i + j]) && j + 1 < len) {
				memcpy(t + k, ZWSP, 3);
				k += 3;
			}
		}
		i += len;
		while (i < n && s[i] == ' ')
			t[k++] = s[i++];
	}
	t[k] = '\0';
	return t;
}

/* The widest word (or piece of a word between breaks): a wrapped column is never narrower. */
static size_t word_chunk(const struct libscols_column *cl, const char *data, void *u)
{
	size_t best = 0;

	(void)cl;
	(void)u;
	while (data && *data) {
		size_t n = strcspn(data, " "), w, k;

		for (k = 0; k + 2 < n && !is_zwsp(data + k); k++)
			;
		if (k + 2 < n)
			n = k;
		w = cols_of(data, n);
		if (w > best)
			best = w;
		data += n;
		if (is_zwsp(data))
			data += 3;
		while (*data == ' ')
			data++;
	}
	return best;
}

/* End the current line of a wrapped cell at the last blank that fits. */
static char *word_next(const struct libscols_column *cl, char *data, void *u)
{
	size_t width = nicfit__scols_column_get_width(cl), w = 0;
	char *cut = NULL, *p;

	(void)u;
	if (!data || !width)
		return NULL;
	for (p = data; *p; p++) {
		if (is_zwsp(p)) {
			if (w <= width)
				cut = p;
			p += 2;
			continue;
		}
		if (((unsigned char)*p & 0xC0) != 0x80)
			w++;
		if (*p == ' ' && w <= width + 1)
			cut = p;
		if (w > width)
			break;
	}
	if (!*p || !cut)
		return NULL;
	if (is_zwsp(cut)) {
		*cut = '\0';
		return cut + 3;
	}
	*cut = '\0';
	for (p = cut + 1; *p == ' '; p++)
		;
	return *p ? p : NULL;
}

/* Does p[0..n) name column c, by its key or its title, in any case? */
static int names(const char *p, size_t n, const struct nicfit_column *c)
{
	return (c->key && strlen(c->key) == n && !strncasecmp(c->key, p, n)) ||
	       (c->title && strlen(c->title) == n && !strncasecmp(c->title, p, n));
}

/* Is column name (key or title) in the comma-separated list? Its position, or -1. */
static int wanted(const char *list, const struct nicfit_column *c)
{
	const char *p = list;
	int pos = 0;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (names(p, n, c))
			return pos;
		p += n;
		if (*p == ',')
			p++;
		pos++;
	}
	return -1;
}

int nicfit__columns_order(const struct nicfit_column *cols, int ncols, const char *list,
			  int *order)
{
	int c, n = 0, pos;

	if (list && *list) {
		/* the listed columns this table has, in the list's order */
		for (pos = 0; pos < COLUMNS_MAX; pos++)
			for (c = 0; c < ncols; c++)
				if (wanted(list, &cols[c]) == pos)
					order[n++] = c;
		if (n)
			return n;
	}
	for (c = 0; c < ncols; c++)
		order[c] = c;
	return ncols;
}

/* ---- checking -o against the columns a document can show ------------ */

/* Is key among the ", "-separated names of b already (any case)? */
static int listed(const struct nicfit_buf *b, const char *key)
{
	size_t n = strlen(key), at = 0;

	while (at < b->len) {
		size_t len = strcspn(b->data + at, ",");

		if (len == n && !strncasecmp(b->data + at, key, n))
			return 1;
		at += len + 2;
	}
	return 0;
}

/*
 * Every name of the view's list that a column of cols has is marked
 * known (a bit a position: the layout shows at most COLUMNS_MAX), and
 * each column's key is added to the names an error lists. Nothing is
 * kept without a list, so a document without -o pays one test a table.
 */
void nicfit_emit_columns(struct nicfit_emit *e, const struct nicfit_column *cols, int ncols)
{
	int c;

	if (!e->columns || !*e->columns)
		return;
	for (c = 0; c < ncols; c++) {
		const char *p = e->columns, *key = cols[c].key ? cols[c].key : cols[c].title;
		int pos;

		for (pos = 0; *p; pos++) {
			size_t n = strcspn(p, ",");

			if (pos < COLUMNS_MAX && names(p, n, &cols[c]))
				e->columns_known |= (uint64_t)1 << pos;
			p += n;
			if (*p == ',')
				p++;
		}
		if (key && *key && !listed(&e->column_names, key)) {
			if (e->column_names.len)
				nicfit_buf_puts(&e->column_names, ", ");
			nicfit_buf_puts(&e->column_names, key);
		}
	}
}

int nicfit_emit_check_columns(const struct nicfit_emit *e, struct nicfit_error *err)
{
	const char *p = e->columns;
	int pos;

	if (!p || !*p)
		return 0;
	if (nicfit_buf_error(&e->column_names))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	for (pos = 0; *p; pos++) {
		size_t n = strcspn(p, ",");

		if (pos >= COLUMNS_MAX)
			return nicfit_error_at(err, NICFIT_E_USAGE, "-o", 0, 0,
					       "more than %d columns", COLUMNS_MAX);
		if (!n)
			return nicfit_error_at(err, NICFIT_E_USAGE, "-o", 0, 0,
					       "an empty column name in '%.64s'", e->columns);
		if (!(e->columns_known & ((uint64_t)1 << pos))) {
			if (!e->column_names.len)
				return nicfit_error_at(err, NICFIT_E_USAGE, "-o", 0, 0,
						       "unknown column '%.*s': this command shows no "
						       "table", (int)(n > 64 ? 64 : n), p);
			return nicfit_error_at(err, NICFIT_E_USAGE, "-o", 0, 0,
					       "unknown column '%.*s' (columns: %s)",
					       (int)(n > 64 ? 64 : n), p, e->column_names.data);
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

/*
 * When the table is wider than `avail`, which columns wrap and at what
 * width (hint[k] > 0): the widest text columns, one after another, each
 * down to the room the others leave but never below its longest word, so
 * that a table that fits is printed as it is and ids are never cut.
 */
static void plan_widths(const struct nicfit_column *cols, char *const *cells, int ncols,
			size_t nrows, const int *order, int n, unsigned avail, int breaks,
			size_t *hint)
{
	size_t w[64], minw[64], piece[64], total = 0;
	size_t r;
	int k;

	for (k = 0; k < n && k < 64; k++) {
		const struct nicfit_column *c = &cols[order[k]];
		const char *t = c->title ? c->title : c->key ? c->key : "";

		w[k] = cols_of(t, strlen(t));
		minw[k] = word_chunk(NULL, t, NULL);
		piece[k] = minw[k];
		for (r = 0; r < nrows; r++) {
			const char *s = cells[r * (size_t)ncols + (size_t)order[k]];
			size_t cw = cols_of(s, strlen(s)), mw = word_chunk(NULL, s, NULL);
			size_t pw = breaks ? widest_piece(s) : mw;

			if (cw > w[k])
				w[k] = cw;
			if (mw > minw[k])
				minw[k] = mw;
			if (pw > piece[k])
				piece[k] = pw;
		}
		hint[k] = 0;
		total += w[k] + (k ? 2 : 0);
	}
	while (total > avail) {
		int best = -1, second = 0;

		for (k = 0; k < n && k < 64; k++)
			if (!cols[order[k]].right && !hint[k] && w[k] > minw[k] &&
			    (best < 0 || w[k] > w[best]))
				best = k;
		/* no column narrows to its longest word and the table still does not
		 * fit: the widest narrows further, its long words broken after their
		 * punctuation */
		for (k = 0; best < 0 && k < n && k < 64; k++)
			if (!cols[order[k]].right && (hint[k] ? hint[k] : w[k]) > piece[k])
				second = 1;
		if (second)
			for (k = 0; k < n && k < 64; k++) {
				size_t cur = hint[k] ? hint[k] : w[k];

				if (!cols[order[k]].right && cur > piece[k] &&
				    (best < 0 || cur > (hint[best] ? hint[best] : w[best])))
					best = k;
			}
		if (best < 0)
			return;
		{
			size_t cur = hint[best] ? hint[best] : w[best], low = second ? piece[best] : minw[best];
			size_t over = total - avail, to = cur > low + over ? cur - over : low;

			total -= cur - to;
			hint[best] = to;
		}
	}
}

static int layout(struct nicfit_buf *out, const struct nicfit_column *cols, int ncols,
		  char *const *cells, size_t nrows, const struct nicfit_emit_view *v,
		  const char *bold, const char *reset, int utf8);

int nicfit__table_text(struct nicfit_buf *out, const struct nicfit_column *cols, int ncols,
		       char *const *cells, size_t nrows, const struct nicfit_emit_view *v,
		       const char *bold, const char *reset)
{
	return nicfit__table_text_in(out, cols, ncols, cells, nrows, v, bold, reset, "C.UTF-8");
}

int nicfit__table_text_in(struct nicfit_buf *out, const struct nicfit_column *cols, int ncols,
			  char *const *cells, size_t nrows, const struct nicfit_emit_view *v,
			  const char *bold, const char *reset, const char *ctype)
{
	locale_t utf8 = newlocale(LC_CTYPE_MASK, ctype, (locale_t)0), old = (locale_t)0;
	size_t i, ncells = nrows * (size_t)(ncols > 0 ? ncols : 0);
	char **ascii = NULL;
	int rc = 0;

	if (utf8) {
		old = uselocale(utf8);
	} else {
		ascii = calloc(ncells ? ncells : 1, sizeof(*ascii));
		for (i = 0; ascii && i < ncells && !rc; i++)
			if (!(ascii[i] = ascii_only(cells[i])))
				rc = NICFIT_E_NOMEM;
		if (!ascii)
			rc = NICFIT_E_NOMEM;
	}
	if (!rc)
		rc = layout(out, cols, ncols, ascii ? ascii : cells, nrows, v, bold, reset, !ascii);
	if (utf8) {
		uselocale(old);
		freelocale(utf8);
	}
	for (i = 0; ascii && i < ncells; i++)
		free(ascii[i]);
	free(ascii);
	return rc;
}

/* The table laid out by libsmartcols, indented, its header in bold. */
/*
 * cells with breaks in the words wider than their column (with_breaks()),
 * into *marked (NULL where a cell is used as it is); NULL when none is needed.
 */
static char **break_long_words(char *const *cells, int ncols, size_t nrows, const int *order,
			       int n, const size_t *hint, int *rc)
{
	char **marked = NULL;
	size_t r;
	int k;

	for (k = 0; k < n && !*rc; k++) {
		for (r = 0; hint[k] && r < nrows && !*rc; r++) {
			size_t i = r * (size_t)ncols + (size_t)order[k];

			if (word_chunk(NULL, cells[i], NULL) <= hint[k])
				continue;
			if (!marked && !(marked = calloc(nrows * (size_t)ncols, sizeof(*marked))))
				*rc = NICFIT_E_NOMEM;
			else if (!marked[i] && !(marked[i] = with_breaks(cells[i], hint[k])))
				*rc = NICFIT_E_NOMEM;
		}
	}
	return marked;
}

static int layout(struct nicfit_buf *out, const struct nicfit_column *cols, int ncols,
		  char *const *cells, size_t nrows, const struct nicfit_emit_view *v,
		  const char *bold, const char *reset, int utf8)
{
	struct libscols_table *tb;
	int *order, n, k, rc = 0, fit;
	size_t hint[64];
	char *text = NULL, *p, **marked = NULL;
	size_t r;

	if (nicfit__scols_load(NULL))
		return NICFIT_E_IO; /* libsmartcols is not installed */
	tb = nicfit__scols_new_table();
	order = calloc((size_t)ncols, sizeof(*order));
	if (!tb || !order) {
		free(order);
		nicfit__scols_unref_table(tb);
		return NICFIT_E_NOMEM;
	}
	n = nicfit__columns_order(cols, ncols, v->columns, order);
	if (n > 64)
		n = 64;
	nicfit__scols_table_set_column_separator(tb, v->raw ? " " : "  ");
	nicfit__scols_table_enable_raw(tb, v->raw);
	nicfit__scols_table_enable_noencoding(tb, 1); /* cells come escaped (shown()): once is enough */
	nicfit__scols_table_enable_noheadings(tb, v->noheadings);
	fit = v->width > 2 && !v->raw;
	if (fit) {
		nicfit__scols_table_set_termwidth(tb, v->width - 2);
		nicfit__scols_table_set_termforce(tb, SCOLS_TERMFORCE_ALWAYS);
	} else {
		nicfit__scols_table_set_termforce(tb, SCOLS_TERMFORCE_NEVER);
	}
	if (fit) {
		plan_widths(cols, cells, ncols, nrows, order, n, v->width - 2, utf8, hint);
		marked = break_long_words(cells, ncols, nrows, order, n, hint, &rc);
	}
	for (k = 0; k < n && !rc; k++) {
		const struct nicfit_column *c = &cols[order[k]];
		int wrap = fit && hint[k] > 0;
		int flags = (c->right ? SCOLS_FL_RIGHT : 0) | (wrap ? SCOLS_FL_WRAP : 0);
		struct libscols_column *cl = nicfit__scols_table_new_column(
			tb, c->title ? c->title : c->key ? c->key : "", wrap ? (double)hint[k] : 0, flags);

		if (!cl)
			rc = NICFIT_E_NOMEM;
		else if (wrap && nicfit__scols_column_set_wrapfunc(cl, word_chunk, word_next, NULL))
			rc = NICFIT_E_NOMEM;
	}
	for (r = 0; r < nrows && !rc; r++) {
		struct libscols_line *ln = nicfit__scols_table_new_line(tb, NULL);

		for (k = 0; k < n && ln; k++) {
			size_t i = r * (size_t)ncols + (size_t)order[k];

			if (nicfit__scols_line_set_data(ln, (size_t)k, marked && marked[i] ? marked[i] : cells[i]))
				ln = NULL;
		}
		if (!ln)
			rc = NICFIT_E_NOMEM;
	}
	if (!rc && nicfit__scols_print_table_to_string(tb, &text))
		rc = NICFIT_E_NOMEM;
	/* Indent, bold the header, and drop the blanks libsmartcols pads with. */
	for (p = text, r = 0; !rc && p && *p; r++) {
		size_t len = strcspn(p, "\n"), end = len;

		while (end && p[end - 1] == ' ')
			end--;
		if (!v->raw)
			nicfit_buf_puts(out, "  ");
		if (r == 0 && !v->noheadings)
			nicfit_buf_puts(out, bold);
		for (k = 0; (size_t)k < end;) { /* the breaks that were not taken */
			size_t run = 0;

			while ((size_t)k + run < end && !((size_t)k + run + 2 < len && is_zwsp(p + k + run)))
				run++;
			nicfit_buf_add(out, p + k, run);
			k += (int)run;
			if ((size_t)k < end)
				k += 3;
		}
		if (r == 0 && !v->noheadings)
			nicfit_buf_puts(out, reset);
		nicfit_buf_addch(out, '\n');
		p += len;
		if (*p == '\n')
			p++;
	}
	free(text);
	for (r = 0; marked && r < nrows * (size_t)ncols; r++)
		free(marked[r]);
	free(marked);
	free(order);
	nicfit__scols_unref_table(tb);
	return rc;
}
