/*
 * svg.c - the XML escaper and the text element of the SVG renderers
 * (svg_int.h).
 */
#include <stdarg.h>
#include <string.h>

#include "svg_int.h"

/* Length of the well-formed UTF-8 sequence at s (at most n bytes), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
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
	/* overlong forms, surrogates, beyond U+10FFFF; U+FFFE/FFFF are not XML */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
		return 0;
	return len;
}

void nicfit__xml_escape_n(struct nicfit_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		size_t run = i, len;

		/* copy plain bytes in runs */
		while (run < n && p[run] >= 0x20 && p[run] < 0x7F && p[run] != '&' &&
		       p[run] != '<' && p[run] != '>' && p[run] != '"')
			run++;
		if (run > i) {
			nicfit_buf_add(b, p + i, run - i);
			i = run;
			continue;
		}
		switch (p[i]) {
		case '&': nicfit_buf_puts(b, "&amp;"); i++; continue;
		case '<': nicfit_buf_puts(b, "&lt;"); i++; continue;
		case '>': nicfit_buf_puts(b, "&gt;"); i++; continue;
		case '"': nicfit_buf_puts(b, "&quot;"); i++; continue;
		case '\t': case '\n': case '\r': nicfit_buf_addch(b, p[i]); i++; continue;
		default: break;
		}
		len = p[i] >= 0x80 ? utf8_len(p + i, n - i) : 0;
		if (len) {
			nicfit_buf_add(b, p + i, len);
			i += len;
		} else {
			nicfit_buf_puts(b, "\xEF\xBF\xBD"); /* U+FFFD */
			i++;
		}
	}
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
