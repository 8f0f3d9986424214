/*
 * plan_fixture.h - a plan from key/value pairs against the embedded
 * catalog (catalog_fixture.h), for the test programs that plan:
 *
 *	static const char *const kv[] = { "server", "dgx-h100", "servers", "2", NULL };
 *	struct nicfit_plan *p = plan_of(kv);
 *
 * The request is read as `nicfit plan --spec` reads one; an input or plan
 * error fails the test. The caller frees the plan.
 */
#ifndef NICFIT_PLAN_FIXTURE_H
#define NICFIT_PLAN_FIXTURE_H

#include <stdlib.h>

#include "nicfit/plan.h"
#include "nicfit/spec.h"

#include "catalog_fixture.h"

static struct nicfit_plan *plan_of(const char *const *kv)
{
	struct nicfit_spec *spec = calloc(1, sizeof(*spec));
	struct nicfit_plan *p = calloc(1, sizeof(*p));
	struct nicfit_plan_input in;
	struct nicfit_error err;
	int i;

	assert_non_null(spec);
	assert_non_null(p);
	nicfit_spec_init(spec, "test");
	nicfit_error_clear(&err);
	for (i = 0; kv[i]; i += 2)
		assert_int_equal(nicfit_spec_add(spec, kv[i], kv[i + 1], &err), 0);
	if (nicfit_plan_input_from_spec(cat, spec, &in, &err))
		fail_msg("input: %s", err.msg);
	if (nicfit_plan(cat, &in, p, &err))
		fail_msg("plan: %s", err.msg);
	nicfit_spec_release(spec);
	free(spec);
	return p;
}

#endif
