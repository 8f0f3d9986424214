/*
 * svg.c - the text element of the SVG renderers (svg_int.h); the escaping
 * of what it holds is core/text.c's.
 */
#include <stdarg.h>

#include "core/svg_int.h"

void nicfit__svg_text(struct nicfit_buf *b, const char *text, const char *attrs, ...)
{
	va_list ap;

	nicfit_buf_puts(b, "<text ");
	va_start(ap, attrs);
	nicfit_buf_vaddf(b, attrs, ap);
	va_end(ap);
	nicfit_buf_addch(b, '>');
	nicfit__xml_escape(b, text);
	nicfit_buf_puts(b, "</text>");
}
