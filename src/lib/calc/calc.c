/*
 * calc.c - the eight calculators behind `nicfit calc` and /api/calc
 * (see nicfit/calc.h): their names and the dispatcher. Each calculator
 * reads its settings from a spec, calls the formula in pcie/link/perf/llm/
 * step, and renders the result with its assumptions, so that every number
 * shown can be traced; each lives in its own family's file (calc_pcie.c,
 * calc_link.c, calc_llm.c, calc_step.c) over the shared request helpers of
 * calc_req.c.
 */
#include <string.h>

#include "nicfit/calc.h"
#include "calc/calc_int.h"

const char *const nicfit_calc_names[] = {
	"pcie", "link", "nic", "load", "fit", "allreduce", "stream", "step", NULL
};

int nicfit_calc_run(const struct nicfit_catalog *cat, const char *name,
		    struct nicfit_spec *spec, struct nicfit_emit *e,
		    struct nicfit_error *err)
{
	struct req r;
	const char *near;

	memset(&r, 0, sizeof(r));
	r.s = spec;
	r.err = err;
	nicfit_reader_init(&r.rd, spec, err);
	if (!strcmp(name, "pcie"))
		return nicfit__calc_run_pcie(&r, e);
	if (!strcmp(name, "link"))
		return nicfit__calc_run_link(&r, e);
	if (!strcmp(name, "nic"))
		return nicfit__calc_run_nic(&r, cat, e);
	if (!strcmp(name, "load"))
		return nicfit__calc_run_load(&r, e);
	if (!strcmp(name, "fit"))
		return nicfit__calc_run_fit(&r, cat, e);
	if (!strcmp(name, "allreduce"))
		return nicfit__calc_run_allreduce(&r, e);
	if (!strcmp(name, "stream"))
		return nicfit__calc_run_stream(&r, e);
	if (!strcmp(name, "step"))
		return nicfit__calc_run_step(&r, cat, e);
	near = nicfit_suggest(name, nicfit_calc_names);
	if (near)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"no calculator '%.32s' (did you mean '%s'?)", name, near);
	return nicfit_error_set(err, NICFIT_E_USAGE,
				"no calculator '%.32s' (pcie, link, nic, load, fit, allreduce, stream, step)",
				name);
}
