/*
 * svg.c - the one escaper of outside text (for the terminal, Markdown, CSV,
 * JSON and XML) and the text element of the SVG renderers (svg_int.h).
 */
#include <stdarg.h>
#include <string.h>

#include "svg_int.h"

/*
 * Length of the well-formed UTF-8 sequence at s (at most n bytes), 0 if
 * none; *cp gets the code point.
 */
static size_t utf8_len(const unsigned char *s, size_t n, unsigned *cpp)
{
	size_t len, i;
	unsigned cp;

	if (s[0] < 0x80) {
		*cpp = s[0];
		return 1;
	}
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		len = 2;
		cp = s[0] & 0x1Fu;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		len = 3;
		cp = s[0] & 0x0Fu;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		len = 4;
		cp = s[0] & 0x07u;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3Fu);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	*cpp = cp;
	return len;
}

/*
 * Code points that change how a terminal or a text view shows what follows
 * without being seen: C1 controls (CSI, OSC and the others have 8-bit
 * forms), the bidirectional marks, embeddings, overrides and isolates
 * (Unicode UAX #9; the "Trojan Source" attack, CVE-2021-42574), the line
 * and paragraph separators, and the noncharacters U+FFFE/U+FFFF that XML
 * cannot carry.
 */
static int invisible(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
	       (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0xFFFE || cp == 0xFFFF;
}

/* The visible form of a control byte: \t, \n, \r or \xNN. */
static void escape_control(struct nicfit_buf *b, unsigned char c)
{
	switch (c) {
	case '\t': nicfit_buf_puts(b, "\\t"); break;
	case '\n': nicfit_buf_puts(b, "\\n"); break;
	case '\r': nicfit_buf_puts(b, "\\r"); break;
	default: nicfit_buf_addf(b, "\\x%02x", c); break;
	}
}

void nicfit__text_escape_n(struct nicfit_buf *b, const char *s, size_t n, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	int xml = !!(flags & NICFIT__ESC_XML), bytes = !!(flags & NICFIT__ESC_BYTES);
	size_t i = 0;

	while (i < n) {
		size_t run = i, len;
		unsigned cp = 0;

		/* copy plain bytes in runs */
		while (run < n && p[run] >= 0x20 && p[run] < 0x7F &&
		       !(xml && (p[run] == '&' || p[run] == '<' || p[run] == '>' || p[run] == '"')))
			run++;
		if (run > i) {
			nicfit_buf_add(b, p + i, run - i);
			i = run;
			continue;
		}
		if (xml && (p[i] == '\t' || p[i] == '\n' || p[i] == '\r')) {
			nicfit_buf_addch(b, p[i]);
			i++;
			continue;
		}
		if (xml) {
			const char *ent = p[i] == '&' ? "&amp;" : p[i] == '<' ? "&lt;" :
					  p[i] == '>' ? "&gt;" : p[i] == '"' ? "&quot;" : NULL;
			if (ent) {
				nicfit_buf_puts(b, ent);
				i++;
				continue;
			}
		}
		len = utf8_len(p + i, n - i, &cp);
		if (!len) {
			nicfit_buf_addf(b, "\\x%02x", p[i]);
			i++;
		} else if (bytes || (len > 1 && !invisible(cp))) {
			nicfit_buf_add(b, p + i, len);
			i += len;
		} else if (len == 1) {
			escape_control(b, p[i]);
			i++;
		} else {
			nicfit_buf_addf(b, "\\u%04x", cp);
			i += len;
		}
	}
}

void nicfit__xml_escape_n(struct nicfit_buf *b, const char *s, size_t n)
{
	nicfit__text_escape_n(b, s, n, NICFIT__ESC_XML);
}

void nicfit__xml_escape(struct nicfit_buf *b, const char *s)
{
	nicfit__xml_escape_n(b, s, strlen(s));
}

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
