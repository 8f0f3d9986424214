/*
 * fuzz_catalog.c - catalog files: the validator, and an overlay on the
 * default catalog (which must stay usable whether or not it succeeds).
 */
#include <stdint.h>
#include <stdlib.h>

#include "nicfit/catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nicfit_catalog *cat;
	struct nicfit_error errs[8], err;
	size_t total, n;

	if (nicfit_catalog_new(&cat, NULL))
		abort();
	n = nicfit_catalog_check(cat, "fuzz", (const char *)data, size, errs, 8, &total);
	nicfit_error_clear(&err);
	if (nicfit_catalog_overlay(cat, "fuzz", (const char *)data, size, &err) == 0 && n)
		abort(); /* the loader accepted what the checker refused */
	if (!nicfit_catalog_find_nic(cat, "mcx556a-ecat", "x", NULL) && n)
		abort(); /* a refused overlay must leave the catalog as it was */
	nicfit_catalog_free(cat);
	return 0;
}
