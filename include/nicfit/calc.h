/*
 * nicfit/calc.h - run one calculator from a request and render its result.
 *
 * The eight calculators (pcie, link, nic, load, fit, allreduce, stream, step) take
 * their inputs as a struct nicfit_spec, so `nicfit calc pcie --gen 3
 * --width 16` and POST /api/calc/pcie {"gen": 3, "width": 16} run the same
 * code and give the same document ("schema": "nicfit.calc.<name>.v1").
 * Each accepts "assume" pairs ("mps=512") overriding its named assumptions.
 *
 * The calculators' arithmetic lives with its physics (nicfit_pcie_calc in
 * pcie.h, nicfit_link_calc in link.h, nicfit_calc_nic/_load/_allreduce in
 * perf.h, nicfit_calc_fit and nicfit_calc_stream in llm.h): plan's rules
 * call it directly.
 */
#ifndef NICFIT_CALC_H
#define NICFIT_CALC_H

#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "nicfit/llm.h"
#include "nicfit/spec.h"
#include "nicfit/step.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NULL-terminated list of calculator names. */
extern const char *const nicfit_calc_names[];

/*
 * Run calculator `name` on spec and render into e. cat supplies parts,
 * GPUs and models (may be NULL for calculators that need none). Errors:
 * NICFIT_E_USAGE (unknown calculator or setting, bad value; NICFIT_E_DATA
 * instead when spec came from JSON), NICFIT_E_NOTFOUND (unknown id).
 */
int nicfit_calc_run(const struct nicfit_catalog *cat, const char *name,
		    struct nicfit_spec *spec, struct nicfit_emit *e,
		    struct nicfit_error *err);

/*
 * Resolve a card for `calc nic` and plan: a catalog NIC id or part number,
 * or any part number the decoder understands. Fills card (strings live as
 * long as cat or are static) and, when known, *nic; a Socket Direct card
 * has pcie_links 2 and the lanes of each link. Returns 0 or an error.
 */
struct nicfit_card;
int nicfit_card_resolve(const struct nicfit_catalog *cat, const char *part,
			struct nicfit_card *card, const struct nicfit_nic **nic,
			struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
