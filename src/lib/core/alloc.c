/*
 * alloc.c - the array growth behind NICFIT_ALLOC_GROW and the formatted
 * strings of nicfit__strfmt (alloc_int.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "nicfit/error.h"
#include "core/fmt_int.h"

int nicfit__grow(void **p, size_t *alloc, size_t need, size_t elem, int zero)
{
	size_t cap = *alloc, want;
	void *q;

	if (need <= cap)
		return 0;
	if (!elem)
		return NICFIT_E_INTERNAL;
	/* git's alloc_nr: half as much again, plus a little, at least need */
	want = cap < (SIZE_MAX - 16) / 3 * 2 ? (cap + 16) * 3 / 2 : SIZE_MAX;
	if (want < need)
		want = need;
	if (want > SIZE_MAX / elem) {
		want = SIZE_MAX / elem;
		if (want < need)
			return NICFIT_E_NOMEM;
	}
	q = realloc(*p, want * elem);
	if (!q)
		return NICFIT_E_NOMEM;
	if (zero)
		memset((char *)q + cap * elem, 0, (want - cap) * elem);
	*p = q;
	*alloc = want;
	return 0;
}

/*
 * Most messages fit in a line or two: they are formatted once, into a
 * buffer on the stack, and copied; only a longer one is formatted again
 * into memory of its size (vsnprintf's cost is the formatting, not the
 * copy).
 */
/*
 * The formats that convert nothing: one "%s" (a text formatted already,
 * as every planner decision is) and a text without '%'. Their bytes are
 * the argument's or the format's, so they are copied without vsnprintf;
 * a null argument (glibc writes "(null)") goes the general way. Returns
 * 1 with *out set (NULL when out of memory), 0 for any other format.
 */
static int strfmt_copy(const char *fmt, va_list ap, char **out)
{
	va_list cp;
	const char *s;

	if (fmt[0] == '%' && fmt[1] == 's' && !fmt[2]) {
		va_copy(cp, ap);
		s = va_arg(cp, const char *);
		va_end(cp);
		if (!s)
			return 0;
	} else if (!strchr(fmt, '%')) {
		s = fmt;
	} else {
		return 0;
	}
	*out = strdup(s);
	return 1;
}

char *nicfit__vstrfmt(const char *fmt, va_list ap)
{
	char small[512];
	va_list cp;
	char *s;
	int n;

	if (strfmt_copy(fmt, ap, &s))
		return s;
	va_copy(cp, ap);
	n = nicfit__vfmt(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n < 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	if ((size_t)n < sizeof(small))
		memcpy(s, small, (size_t)n + 1);
	else
		nicfit__vfmt(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *nicfit__strfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = nicfit__vstrfmt(fmt, ap);
	va_end(ap);
	return s;
}
