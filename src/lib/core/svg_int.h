/*
 * svg_int.h - writing SVG text, for the renderers' pictures (defined in
 * out/svg.c; library-wide, in core/, for the plan's, the cluster's and
 * the audit's SVG renderers).
 *
 *	nicfit__svg_text(b, "Mellanox <ConnectX-6>", "x=\"%.1f\" y=\"%.1f\"", x, y);
 *
 * writes <text x="10.0" y="20.0">Mellanox &lt;ConnectX-6&gt;</text>: the
 * text goes through the one escaper of outside text (core/text_int.h,
 * which this header includes for the renderers that escape by themselves).
 * Internal to libnicfit.
 */
#ifndef NICFIT_SVG_INT_H
#define NICFIT_SVG_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "svg_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include "nicfit/buf.h"
#include "core/text_int.h"

/*
 * Append <text ATTRS>TEXT</text>: attrs is a printf format for the
 * element's attributes (the renderer's own markup, not escaped), text is
 * escaped. No newline is added.
 */
void nicfit__svg_text(struct nicfit_buf *b, const char *text, const char *attrs, ...)
	__attribute__((format(printf, 3, 4)));

#endif
