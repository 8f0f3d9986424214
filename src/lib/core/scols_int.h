/*
 * scols_int.h - the libsmartcols functions the table writer calls, reached
 * through dynlib_scols.c so that libsmartcols is opened only when a text
 * table is printed. Each behaves as libsmartcols' function of that name
 * without the nicfit__ prefix.
 */
#ifndef NICFIT_SCOLS_INT_H
#define NICFIT_SCOLS_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "scols_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include <libsmartcols.h>

#include "nicfit/error.h"

/* Open libsmartcols (once): 0, or NICFIT_E_IO naming the library and its package. */
int nicfit__scols_load(struct nicfit_error *err);

struct libscols_table *nicfit__scols_new_table(void);
void nicfit__scols_unref_table(struct libscols_table *tb);
struct libscols_column *nicfit__scols_table_new_column(struct libscols_table *tb,
						       const char *name, double whint, int flags);
struct libscols_line *nicfit__scols_table_new_line(struct libscols_table *tb,
						   struct libscols_line *parent);
int nicfit__scols_line_set_data(struct libscols_line *ln, size_t n, const char *data);
size_t nicfit__scols_column_get_width(const struct libscols_column *cl);
int nicfit__scols_column_set_wrapfunc(
	struct libscols_column *cl,
	size_t (*wrap_chunksize)(const struct libscols_column *, const char *, void *),
	char *(*wrap_nextchunk)(const struct libscols_column *, char *, void *), void *userdata);
int nicfit__scols_table_enable_noheadings(struct libscols_table *tb, int enable);
int nicfit__scols_table_enable_raw(struct libscols_table *tb, int enable);
int nicfit__scols_table_enable_noencoding(struct libscols_table *tb, int enable);
int nicfit__scols_table_set_column_separator(struct libscols_table *tb, const char *sep);
int nicfit__scols_table_set_termforce(struct libscols_table *tb, int force);
int nicfit__scols_table_set_termwidth(struct libscols_table *tb, size_t width);
int nicfit__scols_print_table_to_string(struct libscols_table *tb, char **data);

#endif
