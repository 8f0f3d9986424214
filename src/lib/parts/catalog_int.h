/*
 * catalog_int.h - what the catalog's files share (internal).
 *
 * catalog.c keeps the typed views of the entries and, once something
 * needs them, the entries as jansson objects (one object per kind, id ->
 * merged entry); catalog_check.c holds the schema and checks documents
 * against it; catalog_find.c looks entries up. Only the store's layout,
 * the layout tables of the views and these few functions cross the files.
 *
 * The default catalog is compiled: tools/catgen.c loads the files of data/
 * through this very loader at build time and writes the views it built as
 * C initializers (build/gen/catalog_data.c), walking the layout tables
 * below. A kind's jansson objects are made from the embedded JSON only
 * when a look-up needs the entry as JSON or an overlay merges into it.
 */
#ifndef NICFIT_CATALOG_INT_H
#define NICFIT_CATALOG_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "catalog_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "core/jansson_int.h"

#include "nicfit/catalog.h"
#include "nicfit/error.h"

#define CATALOG_MAX_BYTES (16u << 20)  /* one catalog document */
#define CATALOG_MAX_ENTRIES 4096       /* entries of one kind */
#define CATALOG_SCHEMA "nicfit.catalog.v1"

/* One kind of entry. */
struct kindstore {
	json_t *byid;       /* id -> merged entry object; NULL until needed (compiled) */
	const void *views;  /* typed array, sorted by id */
	size_t n;
	const char *const *ids; /* NULL-terminated, for suggestions */
	void *own_views;    /* views and ids when built at run time (else compiled, static) */
	const char **own_ids;
	int compiled;       /* views and ids are the compiled kind's, made on first use */
};

/*
 * The cables that are not optics, by the pair of cages they join
 * (catalog_find.c): v in the order of their ends (strcmp(), the lesser
 * end first), in the catalog's order within a pair; pair[i] the i-th
 * pair of ends, whose cables are v[pair[i].at] on, pair[i].n of them.
 */
struct nicfit__cable_pair {
	const char *lo, *hi;
	size_t at, n;
};

struct nicfit__cable_ends {
	const struct nicfit_cable **v;
	struct nicfit__cable_pair *pair;
	size_t n, npairs;
};

struct nicfit_catalog {
	struct kindstore k[NICFIT_KIND_COUNT];
	pthread_mutex_t lazy; /* held while a kind's JSON or the cable index is made */
	/* made on first use (under lazy), dropped when the cables change */
	struct nicfit__cable_ends *_Atomic cable_ends;
};

/*
 * The layout of a typed view, one row per member: what the generator
 * writes as a C initializer and what test_compiled compares. A row's
 * member is an array when size holds more than one element; cols > 1
 * makes it an array of rows of cols elements (subsys[16][2]).
 */
enum nicfit__ftype {
	NICFIT__F_STR,      /* const char * */
	NICFIT__F_INT,      /* int, or an enum */
	NICFIT__F_UINT,     /* unsigned */
	NICFIT__F_LONG,     /* long */
	NICFIT__F_DBL,      /* double */
	NICFIT__F_STRUCT    /* a struct laid out by sub */
};

struct nicfit__field {
	const char *member;           /* the C member's name */
	size_t off, size;             /* offsetof and sizeof the member */
	enum nicfit__ftype type;      /* of one element */
	int array;                    /* the member is an array */
	size_t cols;                  /* elements per row of a 2-D array, else 1 */
	const struct nicfit__field *sub; /* NICFIT__F_STRUCT: its layout, ended by member NULL */
	size_t sub_size;              /* NICFIT__F_STRUCT: sizeof the struct */
};

/* The layout of each kind's view, ended by a row with member NULL (catalog.c). */
extern const struct nicfit__field *const nicfit__catalog_layout[NICFIT_KIND_COUNT];
/* sizeof each kind's view (catalog_view.c). */
extern const size_t nicfit__catalog_view_size[NICFIT_KIND_COUNT];

/* "nics", "cables", ... NULL-terminated, for suggestions (catalog_view.c). */
extern const char *const nicfit__catalog_kind_plurals[NICFIT_KIND_COUNT + 1];

/* Kind k's ids, NULL-terminated, for suggestions (catalog_view.c). */
const char *const *nicfit__catalog_ids(const struct nicfit_catalog *cat, enum nicfit_kind k);

/* The entry with exactly this id in kind k, or NULL (catalog_find.c: bisects). */
const struct nicfit_entry *nicfit__catalog_find_exact(const struct nicfit_catalog *cat,
						      enum nicfit_kind k, const char *id);

/*
 * Kind k's entries as jansson objects (id -> merged entry), made from the
 * embedded JSON on first use; NULL when memory ran out (catalog.c).
 */
json_t *nicfit__catalog_json(const struct nicfit_catalog *cat, enum nicfit_kind k);

/* Drop the cable index (the cables changed): catalog_find.c. */
void nicfit__catalog_cable_ends_drop(struct nicfit_catalog *cat);

/* Is id present in kind k of cat (NULL cat: no)? (catalog_find.c) */
int nicfit__catalog_has(const struct nicfit_catalog *cat, enum nicfit_kind k, const char *id);

/*
 * The entry of kind k whose id is id in any case, or (NICs and cables)
 * whose part number is; NULL when none (catalog_find.c).
 */
const struct nicfit_entry *nicfit__catalog_find(const struct nicfit_catalog *cat,
						enum nicfit_kind k, const char *id);

/*
 * Check the parsed document root (text of len bytes, named input) before
 * it is merged into cat: entries whose id cat has are partial overrides.
 * Returns 0, or the code of the first problem, which *first gets with its
 * position (catalog_check.c).
 */
int nicfit__catalog_validate(const struct nicfit_catalog *cat, const char *input,
			     const char *text, size_t len, json_t *root,
			     struct nicfit_error *first);

/*
 * The slot map checks of the server entry e at JSON path epath (its
 * switches, cascades, sockets, generations, riser configurations and
 * shared cages; catalog_slots.c): report(ctx, path, message) for each
 * problem. partial: e overrides a base entry, whose switches a slot may
 * name when e gives none.
 */
typedef void (*nicfit__catalog_report)(void *ctx, const char *path, const char *msg);
void nicfit__catalog_check_slots(json_t *e, const char *epath, int partial,
				 nicfit__catalog_report report, void *ctx);

#endif
