/*
 * plan_int.h - what the parts of the planner share (internal).
 */
#ifndef NICFIT_PLAN_INT_H
#define NICFIT_PLAN_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "plan_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include "nicfit/plan.h"

void plan_decide(struct nicfit_plan *p, const char *rule, int applied, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void plan_find(struct nicfit_plan *p, enum nicfit_severity sev, const char *code,
	       const char *fix, const char *fmt, ...)
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
