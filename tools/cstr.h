/*
 * cstr.h - what the build's generators (catgen.c, idgen.c) share: writing
 * a string as a C string literal. Header-only so that each tool stays one
 * file to compile.
 */
#ifndef NICFIT_TOOLS_CSTR_H
#define NICFIT_TOOLS_CSTR_H

#include <stdio.h>

/* s as a C literal: quotes, backslashes, '?' (trigraphs) and non-ASCII escaped; NULL as NULL. */
static void put_str(FILE *out, const char *s)
{
	if (!s) {
		fputs("NULL", out);
		return;
	}
	putc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\' || c == '?')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\%03o", c);
		else
			putc(c, out);
	}
	putc('"', out);
}

#endif
