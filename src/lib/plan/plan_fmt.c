/*
 * plan_fmt.c - the planner's findings and decisions: their texts written
 * by nicfit__vfmt() (fmt.c), which is snprintf() to the byte at a
 * fraction of its cost, straight into the blocks the list keeps its
 * strings in (nicfit__findings_vfmt()).
 */
#include <stdarg.h>
#include <stddef.h>

#include "plan/plan_int.h"

struct nicfit_finding *nicfit__plan_decide(struct nicfit_findings *fs, const char *rule,
					   int applied, const char *fmt, ...)
{
	struct nicfit_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = nicfit__vdecide(fs, rule, applied, fmt, ap);
	va_end(ap);
	return f;
}

struct nicfit_finding *nicfit__plan_vfind(struct nicfit_findings *fs, enum nicfit_severity sev,
					  enum nicfit__code code, const char *fmt, va_list ap)
{
	return nicfit__vfind(fs, sev, code, NULL, fmt, ap);
}
