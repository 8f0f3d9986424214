/*
 * fuzz_spec.c - the request reader: JSON bodies of --spec files and of
 * POST /api/plan, then the planner on whatever the reader accepted.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nicfit_catalog *cat;
	struct nicfit_spec *spec = calloc(1, sizeof(*spec));
	struct nicfit_error err;
	struct nicfit_emit *e;
	struct nicfit_buf out;

	if (!spec)
		return 0;
	if (!cat && nicfit_catalog_new(&cat, NULL))
		abort();
	nicfit_spec_init(spec, "fuzz");
	nicfit_error_clear(&err);
	if (!nicfit_spec_parse_json(spec, (const char *)data, size, &err)) {
		e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
		nicfit_buf_init(&out, 0);
		nicfit_error_clear(&err);
		if (!nicfit_plan_run(cat, spec, e, &err))
			nicfit_emit_finish(e, &out);
		else if (!err.msg[0])
			abort(); /* every error says something */
		nicfit_buf_release(&out);
		nicfit_emit_free(e);
	} else if (!err.msg[0]) {
		abort();
	}
	nicfit_spec_release(spec);
	free(spec);
	return 0;
}
