/*
 * audit_int.h - what the audit's source files share (not public).
 */
#ifndef NICFIT_AUDIT_INT_H
#define NICFIT_AUDIT_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "audit_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include "nicfit/audit.h"

/*
 * After findings were added: mark those an --ignore pattern matches and
 * sort the list, worst first (stable). Returns 0 or NICFIT_E_NOMEM (the
 * list ran out of memory while it was filled).
 */
int nicfit__audit_settle(struct nicfit_audit *a);
/* How many findings --ignore matched (shown, not counted). */
size_t nicfit__audit_nignored(const struct nicfit_audit *a);

/* The SVG picture of the host (audit_svg.c). */
int nicfit__audit_render_svg(const struct nicfit_audit *a, struct nicfit_emit *e);

#endif
