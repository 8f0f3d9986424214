/*
 * nicfit/emit.h - the one printer: text, JSON, Markdown and CSV into a buffer.
 *
 * A renderer takes a result struct and an emitter and describes the result
 * once. Nothing is printed: nicfit_emit_finish() appends the document to a
 * nicfit_buf, which the CLI writes to stdout and the web server sends as a
 * response body.
 *
 * The calls
 * ---------
 *
 *  - field calls carry one fact in every format, as iproute2's
 *    print_uint(PRINT_ANY, "mtu", "mtu %u ", v) does: the JSON key and
 *    the words the text formats make of the value, in one call, so the
 *    two cannot drift apart;
 *  - table calls give rows that all four formats render (aligned columns,
 *    a JSON array of objects, a Markdown table, CSV rows);
 *  - value calls build JSON structure and values that only JSON shows;
 *  - text calls write prose that only TEXT and MD show.
 *
 * Value calls are ignored by the text formats and text calls by JSON and
 * CSV, so a renderer serves every format without branching on it. Where
 * text and JSON show the same facts in the same order, the renderer uses
 * field and table calls, and then there is one renderer for every format
 * in the strict sense. Where they are two views of the result - a
 * sentence that puts several facts in another order than the JSON members
 * (decode's "In a Gen4 x16 slot: about 200 Gb/s ..."), a text summary of
 * a JSON document that can be loaded back (catalog list and show) - the
 * renderer writes each view with its own calls, next to each other; a
 * renderer whose JSON is another document altogether asks
 * nicfit_emit_format().
 *
 *	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_TEXT, 0, 0);
 *	struct nicfit_buf out;
 *
 *	nicfit_emit_begin_object(e, NULL);
 *	nicfit_emit_heading(e, "In a server");
 *	nicfit_emit_field_double(e, "effective_gbps", "  effective %.1f Gb/s\n", v);
 *	nicfit_emit_end_object(e);
 *	nicfit_buf_init(&out, 0);
 *	if (nicfit_emit_finish(e, &out))
 *		... out of memory, over the limit, or unbalanced calls ...
 *	nicfit_emit_free(e);
 *	... out.data is "In a server\n  effective 200.0 Gb/s\n";
 *	    as JSON: {"effective_gbps":200.0} ...
 *	nicfit_buf_release(&out);
 *
 * JSON is built in memory and dumped once, so it is always well formed.
 * Numbers are plain JSON numbers rounded to 4 decimals; NaN and infinities
 * become null. Nesting is capped at NICFIT_EMIT_MAX_DEPTH.
 *
 * Shape: the emitter is allocated by nicfit_emit_new() and freed by
 * nicfit_emit_free(); it copies every string it is given, so arguments
 * need to live only for the call. A misuse (unbalanced nesting, a key
 * where none belongs) or an allocation failure is sticky: later calls
 * are harmless and nicfit_emit_finish() reports it.
 */
#ifndef NICFIT_EMIT_H
#define NICFIT_EMIT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nicfit/buf.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nicfit_format {
	NICFIT_FMT_TEXT,
	NICFIT_FMT_JSON,
	NICFIT_FMT_MD,
	NICFIT_FMT_CSV,
	NICFIT_FMT_SVG,
	/*
	 * Line formats of other systems (nicfit/ops.h), written by their own
	 * renderers into a buffer: an emitter is never made in them.
	 */
	NICFIT_FMT_PROM,
	NICFIT_FMT_NHC,
	NICFIT_FMT_NFD
};

#define NICFIT_EMIT_PRETTY 0x1u /* indent JSON */
#define NICFIT_EMIT_COLOR 0x2u  /* ANSI colour in text (never in MD) */

#define NICFIT_EMIT_MAX_DEPTH 32

enum nicfit_color {
	NICFIT_COLOR_RESET,
	NICFIT_COLOR_BOLD,
	NICFIT_COLOR_RED,
	NICFIT_COLOR_YELLOW,
	NICFIT_COLOR_GREEN,
	NICFIT_COLOR_BLUE,
	NICFIT_COLOR_DIM
};

struct nicfit_emit;
struct nicfit_error;

/* A table column: key names the JSON/CSV field, title the text header. */
struct nicfit_column {
	const char *key;
	const char *title;
	int right; /* right-align in text (numbers) */
};

/*
 * How text tables and prose are laid out (nicfit_emit_set_view): the
 * width of the terminal the text goes to (0: not a terminal, nothing is
 * wrapped or cut), and what lsblk's -o, --noheadings and --raw ask of a
 * table. columns names the columns (by key or title, comma-separated,
 * any case) that tables show: text and CSV tables in that order, the rows
 * of a JSON table with those members only; a table that has none of them
 * is shown whole. Every name must be a column of a table the document can
 * show (nicfit_emit_check_columns).
 */
struct nicfit_emit_view {
	unsigned width;
	int noheadings;
	int raw;
	const char *columns;  /* NULL: every column; copied by the setter */
};

/*
 * Create an emitter. max bounds the text written (0 = default). Returns
 * NULL only when out of memory.
 */
struct nicfit_emit *nicfit_emit_new(enum nicfit_format fmt, unsigned flags,
				    size_t max);
void nicfit_emit_free(struct nicfit_emit *e);

enum nicfit_format nicfit_emit_format(const struct nicfit_emit *e);
/* Lay text out as v says (the default is all zero). Returns 0 or NICFIT_E_NOMEM. */
int nicfit_emit_set_view(struct nicfit_emit *e, const struct nicfit_emit_view *v);
/* The width prose is wrapped at: the view's, 0 for none. */
unsigned nicfit_emit_width(const struct nicfit_emit *e);
/*
 * In text with --raw or --noheadings (v.raw, v.noheadings) the document
 * is its tables' rows only, as lsblk -rn prints them; headings, fields and
 * prose are written here instead, for the caller to show apart (the CLI
 * writes them to standard error). Empty otherwise; valid until the
 * emitter is freed.
 */
const struct nicfit_buf *nicfit_emit_prose(const struct nicfit_emit *e);
/* True for TEXT and MD, the formats that show prose. */
int nicfit_emit_is_text(const struct nicfit_emit *e);

/*
 * Append the finished document to out (JSON gets a final newline).
 * Returns 0, or NICFIT_E_INTERNAL for unbalanced nesting or a misuse
 * recorded earlier, or NICFIT_E_NOMEM / NICFIT_E_LIMIT. Into an empty out
 * the document moves rather than being copied: the emitter holds none
 * after, and only nicfit_emit_free() may follow.
 */
int nicfit_emit_finish(struct nicfit_emit *e, struct nicfit_buf *out);

/*
 * JSON structure and values (key is NULL inside arrays). The _k calls
 * take the key's length too (klen = strlen(key); ignored when key is
 * NULL); the plain ones are inline here and pass it, which the compiler
 * works out while compiling a call with a literal key (a document has
 * thousands of keys, and measuring each was a good part of writing it).
 */
void nicfit_emit_begin_object_k(struct nicfit_emit *e, const char *key, size_t klen);
void nicfit_emit_end_object(struct nicfit_emit *e);
void nicfit_emit_begin_array_k(struct nicfit_emit *e, const char *key, size_t klen);
void nicfit_emit_end_array(struct nicfit_emit *e);
void nicfit_emit_string_k(struct nicfit_emit *e, const char *key, size_t klen, const char *v);
void nicfit_emit_stringf(struct nicfit_emit *e, const char *key,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void nicfit_emit_int_k(struct nicfit_emit *e, const char *key, size_t klen, long long v);
void nicfit_emit_number_k(struct nicfit_emit *e, const char *key, size_t klen, double v);
void nicfit_emit_bool_k(struct nicfit_emit *e, const char *key, size_t klen, int v);
void nicfit_emit_null_k(struct nicfit_emit *e, const char *key, size_t klen);

/*
 * The _h calls are the plain ones' for a key the compiler knows: a string
 * literal of 1 to 16 printable ASCII bytes that JSON takes as they are,
 * klen its length and hash NICFIT__EMIT_KEY_HASH() of it, both worked out
 * while compiling. The writer copies such a key without checking or
 * hashing it again; it still records it, so that a key given twice (a
 * literal's or one from outside, read from a file) replaces the first
 * value. Only the inline calls below make them.
 */
void nicfit_emit_begin_object_h(struct nicfit_emit *e, const char *key, size_t klen,
				uint64_t hash);
void nicfit_emit_begin_array_h(struct nicfit_emit *e, const char *key, size_t klen,
			       uint64_t hash);
void nicfit_emit_string_h(struct nicfit_emit *e, const char *key, size_t klen, uint64_t hash,
			  const char *v);
void nicfit_emit_int_h(struct nicfit_emit *e, const char *key, size_t klen, uint64_t hash,
		       long long v);
void nicfit_emit_number_h(struct nicfit_emit *e, const char *key, size_t klen, uint64_t hash,
			  double v);
void nicfit_emit_bool_h(struct nicfit_emit *e, const char *key, size_t klen, uint64_t hash,
			int v);
void nicfit_emit_null_h(struct nicfit_emit *e, const char *key, size_t klen, uint64_t hash);

void nicfit_emit_begin_object(struct nicfit_emit *e, const char *key);
void nicfit_emit_begin_array(struct nicfit_emit *e, const char *key);
void nicfit_emit_string(struct nicfit_emit *e, const char *key, const char *v);
void nicfit_emit_int(struct nicfit_emit *e, const char *key, long long v);
void nicfit_emit_number(struct nicfit_emit *e, const char *key, double v);
void nicfit_emit_bool(struct nicfit_emit *e, const char *key, int v);
void nicfit_emit_null(struct nicfit_emit *e, const char *key);

/*
 * The plain calls' bodies: for inlining only (GNU C, C++ too), every call
 * not inlined going to the library's one definition of each (the library
 * defines NICFIT__EMIT_DEFINE where it compiles them); a copy per
 * translation unit with another compiler.
 */
#if defined(NICFIT__EMIT_DEFINE)
#define NICFIT__EMIT_INLINE
#elif defined(__GNUC__)
#define NICFIT__EMIT_INLINE extern inline __attribute__((__gnu_inline__))
#else
#define NICFIT__EMIT_INLINE static inline
#endif
#define NICFIT__EMIT_KLEN(key) ((key) ? strlen(key) : 0)

/*
 * For a key the compiler knows, the hash the JSON writer keeps of every
 * key (emit_json.c, for the duplicate check): its length and its first
 * and last 8 bytes (or 4, or 3 of them) as little-endian words, mixed by
 * one multiplication. Macros, so that they are worked out while
 * compiling and never run; only the key of a call is read, and only its
 * first n bytes.
 */
#define NICFIT__KB(k, i) ((uint64_t)(unsigned char)(k)[i])
#define NICFIT__KW4(k, o) \
	(NICFIT__KB(k, o) | NICFIT__KB(k, (o) + 1) << 8 | NICFIT__KB(k, (o) + 2) << 16 | \
	 NICFIT__KB(k, (o) + 3) << 24)
#define NICFIT__KW8(k, o) (NICFIT__KW4(k, o) | NICFIT__KW4(k, (o) + 4) << 32)
#define NICFIT__KFIRST(k, n) \
	((n) >= 8 ? NICFIT__KW8(k, 0) : (n) >= 4 ? NICFIT__KW4(k, 0) : \
	 (NICFIT__KB(k, 0) | NICFIT__KB(k, (n) / 2) << 8 | NICFIT__KB(k, (n) - 1) << 16))
#define NICFIT__KLAST(k, n) \
	((n) >= 8 ? NICFIT__KW8(k, (n) - 8) : (n) >= 4 ? NICFIT__KW4(k, (n) - 4) : 0)
#define NICFIT__EMIT_KEY_HASH(k, n) \
	((NICFIT__KFIRST(k, n) ^ (NICFIT__KLAST(k, n) << 7 | NICFIT__KLAST(k, n) >> 57) ^ \
	  (uint64_t)(n) << 48) * 0x9e3779b97f4a7c15ull)
/* byte i of a key of n bytes is one JSON takes as it is (or past the end) */
#define NICFIT__KP(k, n, i) \
	((i) >= (n) || ((k)[i] >= 0x20 && (k)[i] < 0x7f && (k)[i] != '"' && (k)[i] != '\\'))
/* the key is 1 to 16 bytes that JSON takes as they are */
#define NICFIT__EMIT_KEY_LIT(k, n) \
	((k) && (n) >= 1 && (n) <= 16 && NICFIT__KP(k, n, 0) && NICFIT__KP(k, n, 1) && \
	 NICFIT__KP(k, n, 2) && NICFIT__KP(k, n, 3) && NICFIT__KP(k, n, 4) && NICFIT__KP(k, n, 5) && \
	 NICFIT__KP(k, n, 6) && NICFIT__KP(k, n, 7) && NICFIT__KP(k, n, 8) && NICFIT__KP(k, n, 9) && \
	 NICFIT__KP(k, n, 10) && NICFIT__KP(k, n, 11) && NICFIT__KP(k, n, 12) && \
	 NICFIT__KP(k, n, 13) && NICFIT__KP(k, n, 14) && NICFIT__KP(k, n, 15))

/*
 * A key the compiler knows: GNU C optimising (which works the macros out
 * for a literal), little-endian (the words' order), and not the library's
 * own definitions of the plain calls, which take every key. The hash is
 * asked of a key only once it is known to be such a literal: clang emits
 * the operand of __builtin_constant_p, and an array item's null key has
 * no bytes to read.
 */
#if defined(__GNUC__) && defined(__OPTIMIZE__) && !defined(NICFIT__EMIT_DEFINE) && \
	defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NICFIT__EMIT_LIT(key, klen) \
	(__builtin_constant_p(NICFIT__EMIT_KEY_LIT(key, klen)) && NICFIT__EMIT_KEY_LIT(key, klen) && \
	 __builtin_constant_p(NICFIT__EMIT_KEY_HASH(key, klen)))
#else
#define NICFIT__EMIT_LIT(key, klen) 0
#endif

/* A plain call: the _h one for a key the compiler knows, else the _k one. */
#define NICFIT__EMIT_CALL(name, e, key, v)                                                 \
	do {                                                                               \
		size_t klen_ = NICFIT__EMIT_KLEN(key);                                     \
		if (NICFIT__EMIT_LIT(key, klen_))                                          \
			name##_h(e, key, klen_, NICFIT__EMIT_KEY_HASH(key, klen_), v);     \
		else                                                                       \
			name##_k(e, key, klen_, v);                                        \
	} while (0)
#define NICFIT__EMIT_CALL0(name, e, key)                                                   \
	do {                                                                               \
		size_t klen_ = NICFIT__EMIT_KLEN(key);                                     \
		if (NICFIT__EMIT_LIT(key, klen_))                                          \
			name##_h(e, key, klen_, NICFIT__EMIT_KEY_HASH(key, klen_));        \
		else                                                                       \
			name##_k(e, key, klen_);                                           \
	} while (0)

NICFIT__EMIT_INLINE void nicfit_emit_begin_object(struct nicfit_emit *e, const char *key)
{
	NICFIT__EMIT_CALL0(nicfit_emit_begin_object, e, key);
}

NICFIT__EMIT_INLINE void nicfit_emit_begin_array(struct nicfit_emit *e, const char *key)
{
	NICFIT__EMIT_CALL0(nicfit_emit_begin_array, e, key);
}

NICFIT__EMIT_INLINE void nicfit_emit_string(struct nicfit_emit *e, const char *key, const char *v)
{
	NICFIT__EMIT_CALL(nicfit_emit_string, e, key, v);
}

NICFIT__EMIT_INLINE void nicfit_emit_int(struct nicfit_emit *e, const char *key, long long v)
{
	NICFIT__EMIT_CALL(nicfit_emit_int, e, key, v);
}

NICFIT__EMIT_INLINE void nicfit_emit_number(struct nicfit_emit *e, const char *key, double v)
{
	NICFIT__EMIT_CALL(nicfit_emit_number, e, key, v);
}

NICFIT__EMIT_INLINE void nicfit_emit_bool(struct nicfit_emit *e, const char *key, int v)
{
	NICFIT__EMIT_CALL(nicfit_emit_bool, e, key, v);
}

NICFIT__EMIT_INLINE void nicfit_emit_null(struct nicfit_emit *e, const char *key)
{
	NICFIT__EMIT_CALL0(nicfit_emit_null, e, key);
}
/* Attach a JSON value given as text (already valid JSON, e.g. a catalog entry). */
void nicfit_emit_json_text(struct nicfit_emit *e, const char *key, const char *json);

/*
 * Field calls: one fact in every format. In JSON, the member key (an
 * array element when key is NULL) with the value; in TEXT and MD, fmt
 * with the value (the words around it, and a newline where the fact ends
 * a line); in CSV nothing (CSV has only tables). The value is the one
 * argument after fmt, of the type the call names: const char * for
 * _string, int for _int, double for _double - the compiler checks it
 * against fmt. A NULL string is an absent fact: JSON null and no words.
 * Doubles are rounded in JSON as every number is; the text shows what
 * fmt asks for.
 */
void nicfit_emit_field_string(struct nicfit_emit *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void nicfit_emit_field_int(struct nicfit_emit *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void nicfit_emit_field_double(struct nicfit_emit *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prose for TEXT and MD. */
void nicfit_emit_printf(struct nicfit_emit *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A section title: a plain line in TEXT, "## title" in MD. */
void nicfit_emit_heading(struct nicfit_emit *e, const char *title);
/* The ANSI sequence for c when colour is on and the format is TEXT, else "". */
const char *nicfit_emit_color(const struct nicfit_emit *e, enum nicfit_color c);
/* Bytes appended as they are in every format but JSON (SVG documents). */
void nicfit_emit_raw(struct nicfit_emit *e, const char *s, size_t n);

/*
 * Tables. Cells are given row by row, left to right; a row ends when every
 * column has a cell. Text tables are indented by two spaces (but raw
 * ones) and laid out by libsmartcols as the view says. A cell's call is
 * its type: in CSV a string cell that begins as a formula would (= + - @)
 * is written "'=..." so that a spreadsheet shows it as text, and a number
 * cell never is, negative or not (docs/formats.md).
 */
void nicfit_emit_table_begin(struct nicfit_emit *e, const char *key,
			     const struct nicfit_column *cols, int ncols);
void nicfit_emit_cell_string(struct nicfit_emit *e, const char *v);
void nicfit_emit_cell_int(struct nicfit_emit *e, long long v);
/* A number shown with `decimals` decimals in text, MD and CSV. */
void nicfit_emit_cell_number(struct nicfit_emit *e, double v, int decimals);
/* JSON null; `shown` is what the text formats print (e.g. "-"). */
void nicfit_emit_cell_null(struct nicfit_emit *e, const char *shown);
void nicfit_emit_table_end(struct nicfit_emit *e);

/*
 * The columns the view may name. Which tables a document shows can depend
 * on its data (a table shown only when it has rows) and on the format
 * (JSON has its own members): so that a column list right on one host is
 * right on every host and in every format, a renderer declares the
 * columns of every text table it can show, whether it shows it this time
 * or not, in every format, after nicfit_emit_set_view(). A text table
 * begun is declared by its beginning too. Without a column list in the
 * view this costs one test.
 */
void nicfit_emit_columns(struct nicfit_emit *e, const struct nicfit_column *cols, int ncols);
/*
 * 0 when every name in the view's column list is a column declared so
 * far; else NICFIT_E_USAGE with err (input "-o") naming the first one
 * that is not and listing the keys of those declared. err may be NULL.
 */
int nicfit_emit_check_columns(const struct nicfit_emit *e, struct nicfit_error *err);

/*
 * Append fmt to b as nicfit_emit_printf() does: every %s argument escaped
 * (control bytes, malformed UTF-8, C1 controls and bidi overrides shown as
 * \xNN or \uNNNN, as ls and git show odd file names). For text that goes
 * elsewhere than a document, such as the CLI's error lines.
 */
void nicfit_escaped_vaddf(struct nicfit_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Round v to 4 decimals, as every JSON number is. */
double nicfit_round4(double v);

#ifdef __cplusplus
}
#endif

#endif
