/*
 * plan_int.h - what the parts of the planner share (internal).
 *
 * plan.c runs the rules in order; each rule file records into the plan
 * through nicfit__plan_find() (plan_result.c) and nicfit__decide()
 * (finding_int.h), and the later rules (plan_parts.c) are called from
 * plan.c only.
 */
#ifndef NICFIT_PLAN_INT_H
#define NICFIT_PLAN_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "plan_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include "finding_int.h"
#include "nicfit/plan.h"

/*
 * Raise a finding of the plan: sev, code, an optional fix (NULL or ""
 * for none) and the message. Returns the record (for a fix set later) or
 * NULL when memory ran out (p->findings.oom is then set, and the plan
 * fails with NICFIT_E_NOMEM).
 */
struct nicfit_finding *nicfit__plan_find(struct nicfit_plan *p, enum nicfit_severity sev,
					 enum nicfit__code code, const char *fix,
					 const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* plan_parts.c */
void plan_fabric(struct nicfit_plan *p);
void plan_cables(const struct nicfit_catalog *cat, struct nicfit_plan *p);
void plan_estimates(struct nicfit_plan *p);
void plan_bom(const struct nicfit_catalog *cat, struct nicfit_plan *p);
void plan_notes(struct nicfit_plan *p);
void plan_verdict(struct nicfit_plan *p);

/*
 * The catalog cable for a link between cages a and b at gbps, at least
 * length_m long (0 = any), preferring DAC, then AOC, then optics, the coding
 * asked for ("intel", "nvidia", NULL), a sourced price, and the shortest
 * length. split > 1 asks for a breakout with that many legs. NULL if none.
 */
const struct nicfit_cable *plan_pick_cable(const struct nicfit_catalog *cat, const char *a,
					   const char *b, double gbps, int split,
					   double length_m, const char *coding);

#endif
