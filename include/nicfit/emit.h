/*
 * nicfit/emit.h - the one printer: text, JSON, Markdown and CSV into a buffer.
 *
 * A renderer takes a result struct and an emitter and describes the result
 * once: JSON structure and values with the value calls, human prose with the
 * text calls, and tables with the table calls, which all four formats render
 * (aligned columns, a JSON array of objects, a Markdown table, CSV rows).
 * Value calls are ignored by the text formats and text calls by JSON and
 * CSV, so one renderer serves every format without branching. Nothing is
 * printed: nicfit_emit_finish() appends the document to a nicfit_buf, which
 * the CLI writes to stdout and the web server sends as a response body.
 *
 * JSON is built in memory and dumped once, so it is always well formed.
 * Numbers are plain JSON numbers rounded to 4 decimals; NaN and infinities
 * become null. Nesting is capped at NICFIT_EMIT_MAX_DEPTH.
 */
#ifndef NICFIT_EMIT_H
#define NICFIT_EMIT_H

#include <stddef.h>

#include "nicfit/buf.h"

enum nicfit_format {
	NICFIT_FMT_TEXT,
	NICFIT_FMT_JSON,
	NICFIT_FMT_MD,
	NICFIT_FMT_CSV,
	NICFIT_FMT_SVG
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

/* A table column: key names the JSON/CSV field, title the text header. */
struct nicfit_column {
	const char *key;
	const char *title;
	int right; /* right-align in text (numbers) */
};

/*
 * Create an emitter. max bounds the text written (0 = default). Returns
 * NULL only when out of memory.
 */
struct nicfit_emit *nicfit_emit_new(enum nicfit_format fmt, unsigned flags,
				    size_t max);
void nicfit_emit_free(struct nicfit_emit *e);

enum nicfit_format nicfit_emit_format(const struct nicfit_emit *e);
/* True for TEXT and MD, the formats that show prose. */
int nicfit_emit_is_text(const struct nicfit_emit *e);

/*
 * Append the finished document to out (JSON gets a final newline).
 * Returns 0, or NICFIT_E_INTERNAL for unbalanced nesting or a misuse
 * recorded earlier, or NICFIT_E_NOMEM / NICFIT_E_LIMIT.
 */
int nicfit_emit_finish(struct nicfit_emit *e, struct nicfit_buf *out);

/* JSON structure and values (key is NULL inside arrays). */
void nicfit_emit_begin_object(struct nicfit_emit *e, const char *key);
void nicfit_emit_end_object(struct nicfit_emit *e);
void nicfit_emit_begin_array(struct nicfit_emit *e, const char *key);
void nicfit_emit_end_array(struct nicfit_emit *e);
void nicfit_emit_string(struct nicfit_emit *e, const char *key, const char *v);
void nicfit_emit_stringf(struct nicfit_emit *e, const char *key,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void nicfit_emit_int(struct nicfit_emit *e, const char *key, long long v);
void nicfit_emit_number(struct nicfit_emit *e, const char *key, double v);
void nicfit_emit_bool(struct nicfit_emit *e, const char *key, int v);
void nicfit_emit_null(struct nicfit_emit *e, const char *key);
/* Attach a JSON value given as text (already valid JSON, e.g. a catalog entry). */
void nicfit_emit_json_text(struct nicfit_emit *e, const char *key, const char *json);

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
 * column has a cell. Text tables are indented by two spaces.
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

/* Round v to 4 decimals, as every JSON number is. */
double nicfit_round4(double v);

#endif
