/*
 * emit_int.h - the emitter's insides, shared by its files: emit.c (life,
 * text, fields, tables), emit_json.c (the JSON writer; the scalars' text
 * is emit_json_scalar.c's, behind emit_json_int.h) and emit_table.c (the
 * text table layout). Private to the library.
 */
#ifndef NICFIT_EMIT_INT_H
#define NICFIT_EMIT_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "emit_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include "nicfit/buf.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"

#include <stddef.h>
#include <string.h>
#include <stdint.h>

struct table {
	const struct nicfit_column *cols;
	int ncols;
	char **cells;  /* row-major, nrows * ncols strings */
	size_t ncells;
	size_t cap;
	int col;       /* next column of the current row */
	uint64_t hide; /* JSON: bit c, column c is not among those -o asked for */
};

/*
 * A member written into an open object: where it begins (its separator,
 * if any) and where its quoted key is. Its value follows the key and
 * ": " (":" compact) and ends where the next member begins, or, for the
 * last one, where the document ends.
 */
struct member {
	uint64_t hash;      /* of the key */
	size_t sep_at;      /* offset of the member's first byte (',' or the key) */
	size_t key_at;      /* offset of the quoted key in the document */
	size_t key_len;     /* its length, quotes included */
};

/*
 * An open JSON container. An object remembers its members so that a key
 * given twice replaces the first value where it stands, as a jansson
 * object did (the renderers rely on no such thing, but the documents are
 * the same bytes whatever they do).
 */
struct level {
	int object;    /* 1 object, 0 array */
	size_t n;      /* members written */
	uint64_t bloom[4];  /* objects: bits of the key hashes seen (256: an object has tens of keys) */
	struct member *m;   /* objects: the members, in order */
	size_t nm, am;
	size_t replacing;   /* 1 + the member the value being written replaces, or 0 */
	size_t vstart;      /* where that value's bytes begin */
};

/*
 * Where Markdown prose stands, as the renderer's own bytes (formats, and
 * nicfit_emit_raw()) have left it, so that an outside string is escaped
 * for the place it lands in (emit.c, md_escape()).
 */
struct md_state {
	int bol;    /* at the start of a line */
	int fence;  /* inside a ``` block */
	int span;   /* inside a `code span` of this line */
};

struct nicfit_emit {
	enum nicfit_format fmt;
	unsigned flags;
	struct nicfit_buf text;     /* the document: text, or JSON as it is written */
	struct level stack[NICFIT_EMIT_MAX_DEPTH];
	int depth;
	/*
	 * JSON: the innermost container when the quick way may write into it
	 * (compact, no table open), as an object or as an array; else NULL.
	 * nicfit__emit_quick_set() keeps them, wherever depth or in_table
	 * changes, so that a member tests one pointer for the four.
	 */
	struct level *qobj, *qarr;
	int has_root;       /* JSON: the top-level value is written */
	int table_depth;    /* JSON: depth of the open table's array */
	int err;            /* first misuse or allocation failure */
	int in_table;
	struct table t;
	struct md_state md;  /* MD: the prose's state */
	struct nicfit_emit_view view;
	char *columns;      /* the view's column list, owned */
	uint64_t columns_known;        /* bit k: the list's k-th name is a column declared */
	struct nicfit_buf column_names; /* the keys of the columns declared, ", " between */
	struct nicfit_buf prose;    /* TEXT with --raw or --noheadings: all but the tables' rows */
};

/* The most columns -o lists (and a text table shows). */
#define COLUMNS_MAX 64

/* Note the first misuse or allocation failure; later calls do nothing. */
static inline void nicfit__emit_fail(struct nicfit_emit *e, int code)
{
	if (!e->err)
		e->err = code;
}

static inline int nicfit__emit_is_json(const struct nicfit_emit *e)
{
	return e->fmt == NICFIT_FMT_JSON;
}

/* qobj and qarr for the depth, the flags and in_table as they are now. */
static inline void nicfit__emit_quick_set(struct nicfit_emit *e)
{
	struct level *l = e->depth && !(e->flags & NICFIT_EMIT_PRETTY) && !e->in_table ?
				  &e->stack[e->depth - 1] : NULL;

	e->qobj = l && l->object ? l : NULL;
	e->qarr = l && !l->object ? l : NULL;
}

/*
 * The JSON writer (emit_json.c), for the tables and fields of emit.c: a
 * container opened under key in the innermost one (arrays ignore the
 * key) or closed, and the scalar values.
 */
/* The JSON writers; klen is strlen(key) (key NULL: an array element, klen 0). */
#define KEYLEN(key) ((key) ? strlen(key) : 0)
void nicfit__json_open(struct nicfit_emit *e, const char *key, size_t klen, int object);
void nicfit__json_close(struct nicfit_emit *e, int object);
/* v: vlen bytes of JSON written as they are ("null", "true", "false") */
void nicfit__json_raw(struct nicfit_emit *e, const char *key, size_t klen, const char *v,
		      size_t vlen);
void nicfit__json_string(struct nicfit_emit *e, const char *key, size_t klen, const char *v);
void nicfit__json_int(struct nicfit_emit *e, const char *key, size_t klen, long long v);
void nicfit__json_number(struct nicfit_emit *e, const char *key, size_t klen, double v);

/*
 * Append the text table of nrows rows of cells (row-major, ncols a row)
 * to out as view v asks; bold/reset wrap the header line ("" without
 * colour). Returns 0 or NICFIT_E_NOMEM.
 */
/*
 * The columns of cols that list (-o's comma-separated names, any case)
 * asks for, in the list's order, into order[] (ncols entries); all of
 * them, in their own order, when list is empty or names none. Returns how many.
 */
int nicfit__columns_order(const struct nicfit_column *cols, int ncols, const char *list,
			  int *order);

int nicfit__table_text(struct nicfit_buf *out, const struct nicfit_column *cols, int ncols,
		       char *const *cells, size_t nrows, const struct nicfit_emit_view *v,
		       const char *bold, const char *reset);
/*
 * The same, laid out in the locale ctype names (nicfit__table_text():
 * "C.UTF-8"); where the C library has no such locale, every byte past
 * 0x7f of a cell is written as \xNN. For the tests.
 */
int nicfit__table_text_in(struct nicfit_buf *out, const struct nicfit_column *cols, int ncols,
			  char *const *cells, size_t nrows, const struct nicfit_emit_view *v,
			  const char *bold, const char *reset, const char *ctype);

#endif
