/*
 * embedded_int.h - the default catalog (the JSON files in data/),
 * compiled into the library by tools/catgen.c: the typed views, ready at
 * start-up, and the JSON text they came from, parsed only when an entry
 * is wanted as JSON or an overlay merges into it.
 *
 * Shape: static, read-only data that lives as long as the program.
 */
#ifndef NICFIT_EMBEDDED_INT_H
#define NICFIT_EMBEDDED_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "embedded_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include "nicfit/catalog.h"

struct nicfit_blob {
	const char *name;  /* base file name, NULL ends the list */
	const char *data;  /* contents, NUL-terminated */
	size_t len;        /* bytes, not counting the NUL */
	unsigned kinds;    /* bit k: the file has entries of enum nicfit_kind k */
};

/* The JSON files of data/, in name order. */
extern const struct nicfit_blob nicfit_catalog_blobs[];

/* One kind of the compiled catalog: the views in id order, and their ids. */
struct nicfit__compiled_kind {
	const void *views;         /* const struct nicfit_nic[] ... */
	size_t n;
	const char *const *ids;    /* n ids, then NULL */
};

/* The default catalog as built from data/ (index: enum nicfit_kind). */
extern const struct nicfit__compiled_kind nicfit__catalog_compiled[NICFIT_KIND_COUNT];

#endif
