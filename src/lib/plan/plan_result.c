/*
 * plan_result.c - the memory of a plan's result: recording the rules'
 * findings (nicfit__plan_find), growing its cables and bill of materials,
 * and releasing it all (nicfit_plan_release). The rules themselves are in
 * the other plan_*.c files.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "plan/plan_int.h"

struct nicfit_finding *nicfit__plan_find(struct nicfit_plan *p, enum nicfit_severity sev,
					 enum nicfit__code code, const char *fix,
					 const char *fmt, ...)
{
	struct nicfit_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = nicfit__plan_vfind(&p->findings, sev, code, fmt, ap);
	va_end(ap);
	if (f && fix && fix[0]) {
		/* the fix as it is, copied once: no format to read */
		if (!(f->fix = nicfit__findings_text(&p->findings, fix, strlen(fix))))
			return NULL;
	}
	return f;
}

struct nicfit_plan_cable *nicfit__plan_new_cable(struct nicfit_plan *p)
{
	if (p->findings.oom || NICFIT_ALLOC_GROW(p->cables, p->ncables + 1, p->alloc_cables)) {
		p->findings.oom = 1;
		return NULL;
	}
	memset(&p->cables[p->ncables], 0, sizeof(p->cables[0]));
	return &p->cables[p->ncables++];
}

struct nicfit_plan_line *nicfit__plan_new_line(struct nicfit_plan *p)
{
	if (p->findings.oom || NICFIT_ALLOC_GROW(p->bom, p->nbom + 1, p->alloc_bom)) {
		p->findings.oom = 1;
		return NULL;
	}
	memset(&p->bom[p->nbom], 0, sizeof(p->bom[0]));
	return &p->bom[p->nbom++];
}

void nicfit_plan_release(struct nicfit_plan *p)
{
	nicfit_findings_release(&p->findings);
	nicfit_findings_release(&p->decisions);
	free(p->cables);
	p->cables = NULL;
	p->ncables = p->alloc_cables = 0;
	free(p->bom);
	p->bom = NULL;
	p->nbom = p->alloc_bom = 0;
}
