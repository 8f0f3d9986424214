/*
 * nicfit/catlist.h - the catalog as documents: a list of entries and one
 * entry in full.
 *
 * These are the renderers behind `nicfit catalog list [KIND]`, `nicfit
 * catalog show ID` and the web API's GET /api/catalog, /api/catalog/KIND
 * and /api/catalog/KIND/ID. The list is a table (kind, id, name, a
 * one-line summary built from the entry's specs, price and its date) so it
 * reads as aligned text, Markdown, CSV or a JSON array; the full entry is
 * the merged catalog object (defaults plus every overlay) as it is stored.
 * Neither changes the catalog, so several threads may render from one
 * catalog at once.
 *
 * Documents: "schema": "nicfit.catalog.list.v1" with `kind` (null for all)
 * and `entries` [{kind, id, name, summary, price_usd, prices_as_of}], and
 * "schema": "nicfit.catalog.show.v1" with `kind` and `entry` {...}.
 */
#ifndef NICFIT_CATLIST_H
#define NICFIT_CATLIST_H

#include <stddef.h>

#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"

/*
 * Write a one-line summary of entry i of kind k ("2 x 100 Gb/s QSFP28,
 * PCIe 3.0 x16, RDMA RoCE+IB") into out (size n, always NUL-terminated).
 * Returns out.
 */
char *nicfit_catalog_summary(const struct nicfit_catalog *cat, enum nicfit_kind k,
			     size_t i, char *out, size_t n);

/*
 * Render the entries of kind `kind` (or of every kind when all is 1) in id
 * order into e. Returns 0 (the emitter records its own failures).
 */
int nicfit_catalog_render_list(const struct nicfit_catalog *cat, int all,
			       enum nicfit_kind kind, struct nicfit_emit *e,
			       struct nicfit_error *err);

/*
 * Render one entry in full. kind may be NICFIT_KIND_COUNT to look the id
 * up in every kind. Errors: NICFIT_E_NOTFOUND ("unknown <kind> 'x' (did
 * you mean 'y'?)" when a kind is given), NICFIT_E_NOMEM.
 */
int nicfit_catalog_render_show(const struct nicfit_catalog *cat, enum nicfit_kind kind,
			       const char *id, struct nicfit_emit *e,
			       struct nicfit_error *err);

#endif
