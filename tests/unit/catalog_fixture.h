/*
 * catalog_fixture.h - the embedded catalog as a cmocka group fixture, for
 * the tests that plan, size or judge against it:
 *
 *	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
 *
 * and `cat` in the tests. Include it in one file of a test program.
 */
#ifndef NICFIT_CATALOG_FIXTURE_H
#define NICFIT_CATALOG_FIXTURE_H

#include "nicfit/catalog.h"
#include "nicfit/error.h"

static struct nicfit_catalog *cat;

static int catalog_setup(void **state)
{
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	return nicfit_catalog_new(&cat, &err);
}

static int catalog_teardown(void **state)
{
	(void)state;
	nicfit_catalog_free(cat);
	return 0;
}

#endif
