/*
 * audit_internal.h - what the audit's source files share (not public).
 */
#ifndef NICFIT_AUDIT_INTERNAL_H
#define NICFIT_AUDIT_INTERNAL_H

#include "nicfit/audit.h"

/* The SVG picture of the host (audit_svg.c). */
int nicfit_audit_render_svg(const struct nicfit_audit *a, struct nicfit_emit *e);

#endif
