/*
 * text.c - the one escaper of outside text, for the terminal, Markdown,
 * CSV, JSON, XML and the error messages (text_int.h). It decides how a
 * byte is shown; where the text goes (a table cell, an SVG element, a
 * JSON string) is the writers' (out/) business.
 */
#include <string.h>

#include "core/text_int.h"
#include "core/utf8.h"

/*
 * Code points that change how a terminal or a text view shows the text
 * around them without being seen themselves. The one list, for the
 * escaper here, the catalog's checks (catalog_check.c) and the fleet's
 * names (fleet_store.c):
 *
 *  - C1 controls U+0080-U+009F: CSI, OSC and the others have 8-bit forms;
 *  - the bidirectional formatting characters of Unicode UAX #9: ALM
 *    U+061C, LRM and RLM U+200E/U+200F, the embeddings and overrides
 *    U+202A-U+202E, the isolates U+2066-U+2069. They reorder what follows
 *    them (the "Trojan Source" attack, CVE-2021-42574): "mcx\u202e1m"
 *    shows as another part than its bytes;
 *  - the line and paragraph separators U+2028/U+2029, which break a line;
 *  - the zero-width and invisible format characters: ZWSP, ZWNJ, ZWJ
 *    U+200B-U+200D, the word joiner and invisible operators
 *    U+2060-U+2064, and U+FEFF (a byte order mark anywhere but the start
 *    of a file is a zero-width no-break space). Two names that differ
 *    only by one look the same and compare different;
 *  - the noncharacters U+FFFE/U+FFFF, which XML cannot carry.
 */
const char *nicfit__invisible_kind(unsigned cp)
{
	if (cp >= 0x80 && cp <= 0x9F)
		return "a C1 control character";
	if (cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
	    (cp >= 0x2066 && cp <= 0x2069))
		return "a bidirectional control character";
	if (cp == 0x2028 || cp == 0x2029)
		return "a line or paragraph separator";
	if ((cp >= 0x200B && cp <= 0x200D) || (cp >= 0x2060 && cp <= 0x2064) || cp == 0xFEFF)
		return "an invisible formatting character";
	if (cp == 0xFFFE || cp == 0xFFFF)
		return "a noncharacter";
	return NULL;
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
		if (xml && (p[i] == '\t' || p[i] == '\n')) {
			nicfit_buf_addch(b, p[i]);
			i++;
			continue;
		}
		if (xml) {
			const char *ent = p[i] == '&' ? "&amp;" : p[i] == '<' ? "&lt;" :
					  p[i] == '>' ? "&gt;" : p[i] == '"' ? "&quot;" :
					  /* a raw CR would move a terminal's cursor back over the line */
					  p[i] == '\r' ? "&#13;" : NULL;
			if (ent) {
				nicfit_buf_puts(b, ent);
				i++;
				continue;
			}
		}
		len = nicfit__utf8_len(p + i, n - i, &cp);
		if (!len) {
			nicfit_buf_addf(b, "\\x%02x", p[i]);
			i++;
		} else if (bytes || (len > 1 && !nicfit__invisible_kind(cp))) {
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
