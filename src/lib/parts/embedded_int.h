/*
 * embedded_int.h - the default catalog (the JSON files in data/),
 * compiled into the library by tools/catgen.c: the typed views, with no
 * parse and no relocation (each kind is made from read-only tables on
 * first use), and the JSON text they came from, parsed only when an entry
 * is wanted as JSON or an overlay merges into it.
 *
 * Shape: static data that lives as long as the program; the views are
 * written once, on first use, and read-only after.
 */
#ifndef NICFIT_EMBEDDED_INT_H
#define NICFIT_EMBEDDED_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "embedded_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>
#include <stdint.h>

#include "nicfit/catalog.h"

struct nicfit_blob {
	const char *name;  /* base file name, NULL ends the list */
	const char *data;  /* contents, NUL-terminated */
	size_t len;        /* bytes, not counting the NUL */
	unsigned kinds;    /* bit k: the file has entries of enum nicfit_kind k */
};

/* The JSON files of data/, in name order. */
extern const struct nicfit_blob nicfit__catalog_blobs[];

/* A string member of a compiled view: where it is, and its text. */
struct nicfit__strref {
	uint32_t at;   /* byte offset of the pointer in the kind's array of views */
	uint32_t str;  /* offset of the text in nicfit__catalog_pool */
};

/*
 * One kind of the compiled catalog. The views are made the first time
 * the kind is used (catalog.c): init copied into views, then a pointer
 * into the pool stored at each strs row, then ids filled. So the tables
 * of the program file hold no addresses: loading it relocates nothing of
 * the catalog, and a process touches only the kinds it uses.
 */
struct nicfit__compiled_kind {
	void *views;                       /* n views (struct nicfit_nic ...), made on first use */
	const void *init;                  /* the same views with every string pointer NULL */
	size_t n;
	const char **ids;                  /* n ids, then NULL, made with the views */
	const struct nicfit__strref *strs; /* nstrs rows */
	size_t nstrs;
};

/* The default catalog as built from data/ (index: enum nicfit_kind). */
extern const struct nicfit__compiled_kind nicfit__catalog_compiled[NICFIT_KIND_COUNT];

/* Every string of the compiled views, each ended by its NUL. */
extern const char nicfit__catalog_pool[];

#endif
