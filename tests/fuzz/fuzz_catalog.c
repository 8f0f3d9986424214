/*
 * fuzz_catalog.c - catalog files: the validator, and an overlay on the
 * default catalog (which must stay usable whether or not it succeeds).
 *
 * Loading the default catalog costs far more than checking one input, so
 * it is loaded once and kept while overlays are refused (a refused overlay
 * leaves the catalog as it was, which the harness checks); it is loaded
 * again only after an overlay that succeeded changed it.
 */
#include <stdint.h>
#include <stdlib.h>

#include "nicfit/catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct nicfit_catalog *base;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nicfit_error errs[8], err;
	size_t total, n;

	if (!base && nicfit_catalog_new(&base, NULL))
		abort();
	n = nicfit_catalog_check(base, "fuzz", (const char *)data, size, errs, 8, &total);
	nicfit_error_clear(&err);
	if (nicfit_catalog_overlay(base, "fuzz", (const char *)data, size, &err) == 0) {
		if (n)
			abort(); /* the loader accepted what the checker refused */
		nicfit_catalog_free(base); /* changed: the next input gets a fresh one */
		base = NULL;
		return 0;
	}
	if (!nicfit_catalog_find_nic(base, "mcx556a-ecat", "x", NULL))
		abort(); /* a refused overlay must leave the catalog as it was */
	return 0;
}
