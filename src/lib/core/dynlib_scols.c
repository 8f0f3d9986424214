/*
 * dynlib_scols.c - libsmartcols, opened on first use (see nicfit/dynlib.h).
 *
 * Why: only text tables (src/lib/emit_table.c) use libsmartcols, but
 * linked it cost every process about 200,000 instructions of loading and
 * relocation (callgrind, an empty program with and without -lsmartcols),
 * a third of `nicfit --version` and paid by every JSON, CSV and
 * Prometheus run that prints no table. So the functions the table writer
 * calls are reached through nicfit__scols_* (scols_int.h), each
 * forwarding to libsmartcols.so.1, opened with dlopen() on first use.
 * The writer calls nicfit__scols_load() first and fails with NICFIT_E_IO
 * when the library is missing.
 */
#include <stddef.h>

#include <libsmartcols/libsmartcols.h>

#include "nicfit/dynlib.h"
#include "nicfit_sonames.h"
#include "core/scols_int.h"

typedef size_t (*chunksize_fn)(const struct libscols_column *, const char *, void *);
typedef char *(*nextchunk_fn)(const struct libscols_column *, char *, void *);

static struct {
	struct libscols_table *(*new_table)(void);
	void (*unref_table)(struct libscols_table *);
	struct libscols_column *(*new_column)(struct libscols_table *, const char *, double, int);
	struct libscols_line *(*new_line)(struct libscols_table *, struct libscols_line *);
	int (*line_set_data)(struct libscols_line *, size_t, const char *);
	size_t (*column_get_width)(const struct libscols_column *);
	int (*column_set_wrapfunc)(struct libscols_column *, chunksize_fn, nextchunk_fn, void *);
	int (*enable_noheadings)(struct libscols_table *, int);
	int (*enable_raw)(struct libscols_table *, int);
	int (*enable_noencoding)(struct libscols_table *, int);
	int (*set_column_separator)(struct libscols_table *, const char *);
	int (*set_termforce)(struct libscols_table *, int);
	int (*set_termwidth)(struct libscols_table *, size_t);
	int (*print_table_to_string)(struct libscols_table *, char **);
} sc;

static const struct nicfit_dynsym sc_syms[] = {
	{ "scols_new_table", (void **)&sc.new_table },
	{ "scols_unref_table", (void **)&sc.unref_table },
	{ "scols_table_new_column", (void **)&sc.new_column },
	{ "scols_table_new_line", (void **)&sc.new_line },
	{ "scols_line_set_data", (void **)&sc.line_set_data },
	{ "scols_column_get_width", (void **)&sc.column_get_width },
	{ "scols_column_set_wrapfunc", (void **)&sc.column_set_wrapfunc },
	{ "scols_table_enable_noheadings", (void **)&sc.enable_noheadings },
	{ "scols_table_enable_raw", (void **)&sc.enable_raw },
	{ "scols_table_enable_noencoding", (void **)&sc.enable_noencoding },
	{ "scols_table_set_column_separator", (void **)&sc.set_column_separator },
	{ "scols_table_set_termforce", (void **)&sc.set_termforce },
	{ "scols_table_set_termwidth", (void **)&sc.set_termwidth },
	{ "scols_print_table_to_string", (void **)&sc.print_table_to_string }
};

static const char *const sc_sonames[] = { NICFIT_SONAME_SMARTCOLS, NULL };

static struct nicfit_dynlib sc_lib = {
	"libsmartcols", sc_sonames, NICFIT_PACKAGE_SMARTCOLS, sc_syms,
	sizeof(sc_syms) / sizeof(sc_syms[0]), 0, ""
};

int nicfit__scols_load(struct nicfit_error *err)
{
	return nicfit_dynlib_load(&sc_lib, err);
}

/* Is libsmartcols loaded (opening it the first time)? */
static int ready(void)
{
	return nicfit_dynlib_load(&sc_lib, NULL) == 0;
}

struct libscols_table *nicfit__scols_new_table(void)
{
	return ready() ? sc.new_table() : NULL;
}

/*
 * The rest are reached only with a table nicfit__scols_new_table() made, so the
 * library is loaded by then; each still checks, so none calls a NULL slot.
 */
void nicfit__scols_unref_table(struct libscols_table *tb)
{
	if (ready())
		sc.unref_table(tb);
}

struct libscols_column *nicfit__scols_table_new_column(struct libscols_table *tb, const char *name,
					       double whint, int flags)
{
	return ready() ? sc.new_column(tb, name, whint, flags) : NULL;
}

struct libscols_line *nicfit__scols_table_new_line(struct libscols_table *tb,
					   struct libscols_line *parent)
{
	return ready() ? sc.new_line(tb, parent) : NULL;
}

int nicfit__scols_line_set_data(struct libscols_line *ln, size_t n, const char *data)
{
	return ready() ? sc.line_set_data(ln, n, data) : -1;
}

size_t nicfit__scols_column_get_width(const struct libscols_column *cl)
{
	return ready() ? sc.column_get_width(cl) : 0;
}

int nicfit__scols_column_set_wrapfunc(struct libscols_column *cl, chunksize_fn wrap_chunksize,
			      nextchunk_fn wrap_nextchunk, void *userdata)
{
	return ready() ? sc.column_set_wrapfunc(cl, wrap_chunksize, wrap_nextchunk, userdata) : -1;
}

int nicfit__scols_table_enable_noheadings(struct libscols_table *tb, int enable)
{
	return ready() ? sc.enable_noheadings(tb, enable) : -1;
}

int nicfit__scols_table_enable_raw(struct libscols_table *tb, int enable)
{
	return ready() ? sc.enable_raw(tb, enable) : -1;
}

int nicfit__scols_table_enable_noencoding(struct libscols_table *tb, int enable)
{
	return ready() ? sc.enable_noencoding(tb, enable) : -1;
}

int nicfit__scols_table_set_column_separator(struct libscols_table *tb, const char *sep)
{
	return ready() ? sc.set_column_separator(tb, sep) : -1;
}

int nicfit__scols_table_set_termforce(struct libscols_table *tb, int force)
{
	return ready() ? sc.set_termforce(tb, force) : -1;
}

int nicfit__scols_table_set_termwidth(struct libscols_table *tb, size_t width)
{
	return ready() ? sc.set_termwidth(tb, width) : -1;
}

int nicfit__scols_print_table_to_string(struct libscols_table *tb, char **data)
{
	return ready() ? sc.print_table_to_string(tb, data) : -1;
}
