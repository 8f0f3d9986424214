/*
 * plan_fmt.c - the planner's findings and decisions with their texts
 * written by nicfit__vfmt() (fmt.c), which is snprintf() to the byte at a
 * fraction of its cost.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_int.h"
#include "plan/plan_int.h"

/* nicfit__decide() with the text written by nicfit__vfmt(). */
struct nicfit_finding *nicfit__plan_decide(struct nicfit_findings *fs, const char *rule,
					   int applied, const char *fmt, ...)
{
	char small[1024], *text = small;
	struct nicfit_finding *f;
	va_list ap, cp;
	int k;

	va_start(ap, fmt);
	va_copy(cp, ap);
	k = nicfit__vfmt(small, sizeof(small), fmt, ap);
	if (k >= (int)sizeof(small)) {
		text = malloc((size_t)k + 1);
		if (text)
			nicfit__vfmt(text, (size_t)k + 1, fmt, cp);
	}
	va_end(cp);
	va_end(ap);
	if (k < 0 || !text) {
		fs->oom = 1;
		return NULL;
	}
	f = nicfit__record_text(fs, NICFIT_SEV_NONE, rule, NULL, text, (size_t)k);
	if (f)
		f->applied = applied;
	if (text != small)
		free(text);
	return f;
}

/* nicfit__vfind() with the text written by nicfit__vfmt(). */
struct nicfit_finding *nicfit__plan_vfind(struct nicfit_findings *fs, enum nicfit_severity sev,
					  enum nicfit__code code, const char *fmt, va_list ap)
{
	char small[1024], *text = small;
	struct nicfit_finding *f;
	va_list cp;
	int k;

	va_copy(cp, ap);
	k = nicfit__vfmt(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (k >= (int)sizeof(small)) {
		text = malloc((size_t)k + 1);
		if (text) {
			va_copy(cp, ap);
			nicfit__vfmt(text, (size_t)k + 1, fmt, cp);
			va_end(cp);
		}
	}
	if (k < 0 || !text) {
		fs->oom = 1;
		return NULL;
	}
	f = nicfit__record_text(fs, sev, nicfit__code_name(code), NULL, text, (size_t)k);
	if (text != small)
		free(text);
	return f;
}
