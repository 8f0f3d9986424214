/*
 * plan_result.c - the memory of a plan's result: recording the rules'
 * findings (nicfit__plan_find) and releasing them (nicfit_plan_release).
 * The rules themselves are in plan.c and plan_parts.c.
 */
#include <stdarg.h>

#include "plan_int.h"

struct nicfit_finding *nicfit__plan_find(struct nicfit_plan *p, enum nicfit_severity sev,
					 enum nicfit__code code, const char *fix,
					 const char *fmt, ...)
{
	struct nicfit_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = nicfit__vfind(&p->findings, sev, code, NULL, fmt, ap);
	va_end(ap);
	if (f && fix && fix[0] && nicfit__finding_fix(&p->findings, f, "%s", fix))
		return NULL;
	return f;
}

void nicfit_plan_release(struct nicfit_plan *p)
{
	nicfit_findings_release(&p->findings);
	nicfit_findings_release(&p->decisions);
}
