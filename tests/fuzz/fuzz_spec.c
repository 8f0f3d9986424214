/*
 * fuzz_spec.c - the request reader: JSON bodies of --spec files and of
 * POST /api/plan, then the planner on whatever the reader accepted. The
 * reader's flat path (tokens only) and its jansson path must read every
 * body alike: the same answer, error, pairs and positions.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/plan.h"
#include "core/spec_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The jansson path reads data as spec holds it (rc, err: what the reader said). */
static void same_as_tree(const struct nicfit_spec *spec, const uint8_t *data, size_t size,
			 int rc, const struct nicfit_error *err)
{
	struct nicfit_spec *tree = calloc(1, sizeof(*tree));
	struct nicfit_error terr;
	size_t i;

	if (!tree)
		return;
	nicfit_spec_init(tree, "fuzz");
	nicfit_error_clear(&terr);
	if (nicfit__spec_parse_json_tree(tree, (const char *)data, size, &terr) != rc ||
	    terr.code != err->code || strcmp(terr.msg, err->msg) || terr.line != err->line ||
	    terr.col != err->col || tree->n != spec->n || (!rc && tree->from_data != spec->from_data))
		abort();
	for (i = 0; i < spec->n; i++)
		if (strcmp(tree->pairs[i].key, spec->pairs[i].key) ||
		    strcmp(tree->pairs[i].value, spec->pairs[i].value) ||
		    tree->pairs[i].line != spec->pairs[i].line ||
		    tree->pairs[i].col != spec->pairs[i].col)
			abort();
	nicfit_spec_release(tree);
	free(tree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nicfit_catalog *cat;
	struct nicfit_spec *spec = calloc(1, sizeof(*spec));
	struct nicfit_error err;
	struct nicfit_emit *e;
	struct nicfit_buf out;
	int rc;

	if (!spec)
		return 0;
	if (!cat && nicfit_catalog_new(&cat, NULL))
		abort();
	nicfit_spec_init(spec, "fuzz");
	nicfit_error_clear(&err);
	rc = nicfit_spec_parse_json(spec, (const char *)data, size, &err);
	same_as_tree(spec, data, size, rc, &err);
	if (!rc) {
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
