/*
 * text_int.h - the one escaper of outside text (library-wide, core/text.c).
 *
 * Names from the outside world (sysfs names, VPD strings, DMI fields,
 * host names, catalog overlays) reach the terminal, Markdown, CSV, JSON
 * and the SVG pictures. Every byte of them that is not plain printable
 * text goes through nicfit__text_escape_n(), as ls and git quote file
 * names: a control byte becomes \t, \n, \r or \xNN, a byte that is not
 * part of well-formed UTF-8 becomes \xNN, and a code point that changes
 * how the rest of a line is shown without being seen (C1 controls, the
 * bidirectional overrides and isolates such as U+202E, the line
 * separators, zero-width characters such as U+200B and U+FEFF: the list
 * is nicfit__invisible_kind()'s) becomes \uNNNN. So a hostile name can
 * neither drive the terminal nor reorder or hide what it shows, and
 * still shows what it holds.
 * The emitter (out/emit.c) applies it to every string argument of the text
 * formats and to every table cell; JSON, which can carry any valid UTF-8,
 * only gets its malformed bytes escaped (NICFIT__ESC_BYTES).
 *
 * nicfit__xml_escape() is the same escaper for XML text and double-quoted
 * attributes: & < > " also become entities, so the markup cannot break.
 * The error messages (core/error.c) quote outside text through it too,
 * which is why it lives in core/ and not beside the writers.
 *
 * Internal to libnicfit.
 */
#ifndef NICFIT_TEXT_INT_H
#define NICFIT_TEXT_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "text_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include "nicfit/buf.h"

#define NICFIT__ESC_XML 0x1u   /* & < > " as entities, for XML (tab, newline, CR kept) */
#define NICFIT__ESC_BYTES 0x2u /* only malformed UTF-8 (JSON) */

/*
 * What code point cp is when it is one the escaper shows as \uNNNN ("a
 * bidirectional control character", "an invisible formatting character",
 * ...; a static string), or NULL when it is text to show as it is.
 */
const char *nicfit__invisible_kind(unsigned cp);

/* Append the n bytes at s, escaped as described above. */
void nicfit__text_escape_n(struct nicfit_buf *b, const char *s, size_t n, unsigned flags);

/* Append s (NUL-terminated), escaped for XML text and attribute values. */
void nicfit__xml_escape(struct nicfit_buf *b, const char *s);
/* The same for the n bytes at s. */
void nicfit__xml_escape_n(struct nicfit_buf *b, const char *s, size_t n);

#endif
