/*
 * utf8.h - the one UTF-8 decoder: the length and code point of one
 * well-formed sequence.
 *
 * Well-formed is RFC 3629's and what jansson accepts: no overlong form,
 * no surrogate (U+D800-U+DFFF), nothing past U+10FFFF, no truncated
 * sequence. What a caller does with a byte that starts none is its own
 * policy: the escaper (core/text.c) writes it as \xNN, the JSON reader
 * (core/jscan.c) refuses the document, the JSON writer (out/emit_json.c,
 * its scalars' text out/emit_json_scalar.c) escapes the string first,
 * the server (src/serve/http.c) writes U+FFFD.
 *
 * Header-only and with no guard, so that src/serve, compiled as a client
 * of the public API, can use it too: tests/layers.allow sanctions it there.
 * It is not installed and not part of the API: the name keeps the
 * library's internal nicfit__ prefix. Inline, because the JSON writer
 * runs it over every byte of every string it is not sure of.
 */
#ifndef NICFIT_UTF8_H
#define NICFIT_UTF8_H

#include <stddef.h>

/*
 * The length (1 to 4) of the well-formed UTF-8 sequence at s, which has n
 * bytes left (n >= 1), or 0 when none starts there. With cp not NULL,
 * *cp gets the code point (set only when the length is not 0).
 */
static inline size_t nicfit__utf8_len(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0], v;
	size_t len, i;

	if (c < 0x80) {
		if (cp)
			*cp = c;
		return 1;
	}
	if (c < 0xc2 || c > 0xf4)
		return 0;
	len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	v = c & (0x7fu >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3fu);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) || (len == 3 && v < 0x800) ||
	    (len == 4 && v < 0x10000))
		return 0;
	if (cp)
		*cp = v;
	return len;
}

#endif
