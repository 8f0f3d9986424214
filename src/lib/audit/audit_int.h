/*
 * audit_int.h - what the audit's source files share (not public).
 */
#ifndef NICFIT_AUDIT_INT_H
#define NICFIT_AUDIT_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "audit_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include "nicfit/audit.h"

/* Sort findings by severity, worst first, keeping their order otherwise. */
void nicfit_audit_sort_findings(struct nicfit_audit *a);
/* 1 when a --ignore pattern (CODE or CODE@DEVICE) matches f. */
int nicfit_audit_ignored(const struct nicfit_audit *a, const struct nicfit_audit_finding *f);

/* The SVG picture of the host (audit_svg.c). */
int nicfit_audit_render_svg(const struct nicfit_audit *a, struct nicfit_emit *e);

#endif
