/*
 * catalog_int.h - what the catalog's files share (internal).
 *
 * catalog.c keeps the entries (a jansson object per kind, id -> merged
 * entry) and the typed views built from them; catalog_check.c holds the
 * schema and checks documents against it; catalog_find.c looks entries
 * up. Only the store's layout and these few functions cross the files.
 */
#ifndef NICFIT_CATALOG_INT_H
#define NICFIT_CATALOG_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "catalog_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include <jansson.h>

#include "nicfit/catalog.h"
#include "nicfit/error.h"

#define CATALOG_MAX_BYTES (16u << 20)  /* one catalog document */
#define CATALOG_MAX_ENTRIES 4096       /* entries of one kind */
#define CATALOG_SCHEMA "nicfit.catalog.v1"

/* One kind of entry. */
struct kindstore {
	json_t *byid;       /* id -> merged entry object */
	void *views;        /* typed array, sorted by id */
	size_t n;
	const char **ids;   /* NULL-terminated, for suggestions */
};

struct nicfit_catalog {
	struct kindstore k[NICFIT_KIND_COUNT];
};

/* "nics", "cables", ... NULL-terminated, for suggestions (catalog.c). */
extern const char *const nicfit__catalog_kind_plurals[NICFIT_KIND_COUNT + 1];

/* Is id present in kind k of cat (NULL cat: no)? (catalog.c) */
int nicfit__catalog_has(const struct nicfit_catalog *cat, enum nicfit_kind k, const char *id);

/*
 * Check the parsed document root (text of len bytes, named input) before
 * it is merged into cat: entries whose id cat has are partial overrides.
 * Returns 0, or the code of the first problem, which *first gets with its
 * position (catalog_check.c).
 */
int nicfit__catalog_validate(const struct nicfit_catalog *cat, const char *input,
			     const char *text, size_t len, json_t *root,
			     struct nicfit_error *first);

#endif
