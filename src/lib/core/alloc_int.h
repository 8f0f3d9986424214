/*
 * alloc_int.h - growing arrays, the one way the library does it.
 *
 * Every array that grows as it is filled (findings, devices, tokens, BOM
 * lines...) goes through NICFIT_ALLOC_GROW, as git grows its arrays through
 * ALLOC_GROW: the capacity grows geometrically (by half, at least to the
 * count asked for), the size computation is checked for overflow, and a
 * failed allocation leaves the old array and its capacity untouched, so
 * the caller frees what it had and reports NICFIT_E_NOMEM.
 *
 *	if (NICFIT_ALLOC_GROW(list->v, list->n + 1, list->alloc))
 *		return NICFIT_E_NOMEM;
 *	list->v[list->n++] = item;
 *
 * The counts are size_t. Strings made from a format, of whatever length,
 * come from nicfit__strfmt(). Internal to libnicfit.
 */
#ifndef NICFIT_ALLOC_INT_H
#define NICFIT_ALLOC_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "alloc_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stdarg.h>
#include <stddef.h>

/*
 * Make *p hold at least need elements of elem bytes; *alloc is the number
 * it holds now (0 with *p NULL to start). New space is not cleared unless
 * zero is set. Returns 0, or NICFIT_E_NOMEM (nothing changed) when the
 * memory cannot be had or the size would overflow.
 */
int nicfit__grow(void **p, size_t *alloc, size_t need, size_t elem, int zero);

#define NICFIT_ALLOC_GROW(x, nr, alloc) \
	nicfit__grow((void **)&(x), &(alloc), (nr), sizeof(*(x)), 0)
/* The same, with the new elements zeroed. */
#define NICFIT_ALLOC_GROW_ZERO(x, nr, alloc) \
	nicfit__grow((void **)&(x), &(alloc), (nr), sizeof(*(x)), 1)

/* A new string (free() it) from a printf format, or NULL without memory. */
char *nicfit__strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *nicfit__vstrfmt(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
