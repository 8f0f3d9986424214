/*
 * audit_internal.h - what the audit's source files share (not public).
 */
#ifndef NICFIT_AUDIT_INTERNAL_H
#define NICFIT_AUDIT_INTERNAL_H

#include "nicfit/audit.h"

/* Sort findings by severity, worst first, keeping their order otherwise. */
void nicfit_audit_sort_findings(struct nicfit_audit *a);
/* 1 when a --ignore pattern (CODE or CODE@DEVICE) matches f. */
int nicfit_audit_ignored(const struct nicfit_audit *a, const struct nicfit_finding *f);

/* The SVG picture of the host (audit_svg.c). */
int nicfit_audit_render_svg(const struct nicfit_audit *a, struct nicfit_emit *e);

#endif
