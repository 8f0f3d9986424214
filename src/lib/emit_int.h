/*
 * emit_int.h - what emit.c hands to the text table layout (emit_table.c).
 * Private to the library.
 */
#ifndef NICFIT_EMIT_INT_H
#define NICFIT_EMIT_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "emit_int.h is private to libnicfit"
#endif

#include "nicfit/buf.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"

/*
 * Append the text table of nrows rows of cells (row-major, ncols a row)
 * to out as view v asks; bold/reset wrap the header line ("" without
 * colour). Returns 0 or NICFIT_E_NOMEM.
 */
int nicfit__table_text(struct nicfit_buf *out, const struct nicfit_column *cols, int ncols,
		       char *const *cells, size_t nrows, const struct nicfit_emit_view *v,
		       const char *bold, const char *reset);

#endif
