/*
 * fuzz_clean.h - what a rendered report must never hold, whatever bytes
 * the paste had: a raw C0 control other than newline and tab (CR too in
 * CSV, whose records end in CRLF), DEL, and, outside JSON (which carries
 * code points and escapes only what RFC 8259 asks), a C1 control, a bidi
 * control or a zero-width character, which would make a name show other
 * than its bytes (core/text.c's escaping, tests/suites/hostile.sh). Aborts
 * so that libFuzzer keeps the input. Included by fuzz_*.c only.
 */
#include <stdlib.h>
#include <string.h>

#include "nicfit/emit.h"

static void fuzz_clean(const char *s, size_t n, enum nicfit_format f)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned c = p[i];

		if ((c < 0x20 && c != '\n' && c != '\t' && !(c == '\r' && f == NICFIT_FMT_CSV)) ||
		    c == 0x7f)
			abort();
		if (f == NICFIT_FMT_JSON)
			continue;
		/* U+0080-U+009F */
		if (c == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)
			abort();
		/* U+061C, U+200B-U+200F, U+2028-U+202E, U+2060-U+2064, U+2066-U+2069, U+FEFF */
		if (c == 0xd8 && i + 1 < n && p[i + 1] == 0x9c)
			abort();
		if (c == 0xe2 && i + 2 < n && p[i + 1] == 0x80 &&
		    ((p[i + 2] >= 0x8b && p[i + 2] <= 0x8f) || (p[i + 2] >= 0xa8 && p[i + 2] <= 0xae)))
			abort();
		if (c == 0xe2 && i + 2 < n && p[i + 1] == 0x81 && p[i + 2] >= 0xa0 && p[i + 2] <= 0xa9 &&
		    p[i + 2] != 0xa5)
			abort();
		if (c == 0xef && i + 2 < n && p[i + 1] == 0xbb && p[i + 2] == 0xbf)
			abort();
	}
}
