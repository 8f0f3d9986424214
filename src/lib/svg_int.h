/*
 * svg_int.h - writing SVG (and any XML) text: the one escaper.
 *
 * The pictures of plan, cluster and audit put names that came from the
 * outside world (sysfs names, VPD strings, catalog overlays, host names)
 * into SVG text and attributes. Everything that is not the renderer's own
 * markup goes through nicfit__xml_escape(): the specials of XML text and
 * double-quoted attributes (& < > ") become entities, and the bytes that
 * XML 1.0 cannot carry (C0 controls but tab, newline and carriage return;
 * DEL; malformed UTF-8) become U+FFFD, so a hostile name can neither
 * break the markup nor make the file unreadable.
 *
 *	nicfit__svg_text(b, "Mellanox <ConnectX-6>", "x=\"%.1f\" y=\"%.1f\"", x, y);
 *
 * writes <text x="10.0" y="20.0">Mellanox &lt;ConnectX-6&gt;</text>.
 * Internal to libnicfit.
 */
#ifndef NICFIT_SVG_INT_H
#define NICFIT_SVG_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "svg_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include "nicfit/buf.h"

/* Append s (NUL-terminated), escaped for XML text and attribute values. */
void nicfit__xml_escape(struct nicfit_buf *b, const char *s);
/* The same for the n bytes at s. */
void nicfit__xml_escape_n(struct nicfit_buf *b, const char *s, size_t n);

/*
 * Append <text ATTRS>TEXT</text>: attrs is a printf format for the
 * element's attributes (the renderer's own markup, not escaped), text is
 * escaped. No newline is added.
 */
void nicfit__svg_text(struct nicfit_buf *b, const char *text, const char *attrs, ...)
	__attribute__((format(printf, 3, 4)));

#endif
