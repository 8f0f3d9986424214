/*
 * prom.c - the Prometheus text exposition writer (prom_int.h, and
 * nicfit/prom.h for the programs): family headers, samples, and the
 * escaping of label values and help text. It knows the format, not what
 * is put in it; the renderers are audit/audit_prom.c, fleet/fleet_prom.c
 * and serve's GET /metrics (src/serve/metrics.c).
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "core/prom_int.h"
#include "nicfit/prom.h"
#include "core/text_int.h"

/*
 * The exposition format escapes backslash and line feed in HELP text, and
 * backslash, double quote and line feed in label values. The text escaper
 * runs first, so no line feed is left to escape, and every backslash it
 * introduced is escaped again here: the value a scraper decodes is the
 * visible \xNN form, not the raw byte.
 */
static void escape(struct nicfit_buf *b, const char *s, int quote)
{
	struct nicfit_buf t;
	size_t i;

	nicfit_buf_init(&t, 0);
	nicfit__text_escape_n(&t, s, strlen(s), 0);
	if (nicfit_buf_error(&t)) {
		if (!b->err)
			b->err = nicfit_buf_error(&t); /* b's error is as sticky as t's */
		nicfit_buf_release(&t);
		return;
	}
	for (i = 0; i < t.len; i++) {
		char ch = t.data[i];

		if (ch == '\\')
			nicfit_buf_puts(b, "\\\\");
		else if (ch == '"' && quote)
			nicfit_buf_puts(b, "\\\"");
		else if (ch == '\n')
			nicfit_buf_puts(b, "\\n");
		else
			nicfit_buf_addch(b, ch);
	}
	nicfit_buf_release(&t);
}

void nicfit__prom_label_value(struct nicfit_buf *b, const char *s)
{
	escape(b, s, 1);
}

void nicfit__prom_family(struct nicfit_buf *b, const char *name, const char *type,
			 const char *help)
{
	nicfit_buf_addf(b, "# HELP %s ", name);
	escape(b, help, 0);
	nicfit_buf_addf(b, "\n# TYPE %s %s\n", name, type);
}

static void vsample(struct nicfit_buf *b, const char *name, double v, va_list ap)
{
	const char *k;
	int n = 0;

	nicfit_buf_puts(b, name);
	while ((k = va_arg(ap, const char *)) != NULL) {
		const char *val = va_arg(ap, const char *);

		if (!val || !*val)
			continue;
		nicfit_buf_addf(b, "%s%s=\"", n++ ? "," : "{", k);
		nicfit__prom_label_value(b, val);
		nicfit_buf_addch(b, '"');
	}
	if (n)
		nicfit_buf_addch(b, '}');
	if (!isfinite(v))
		nicfit_buf_puts(b, " NaN\n");
	else if ((v == floor(v) || fabs(v) >= 1e6) && fabs(v) < 1e15)
		nicfit_buf_addf(b, " %.0f\n", v); /* rates: whole bytes per second */
	else
		nicfit_buf_addf(b, " %.10g\n", v);
}

void nicfit__prom_sample(struct nicfit_buf *b, const char *name, double v, ...)
{
	va_list ap;

	va_start(ap, v);
	vsample(b, name, v, ap);
	va_end(ap);
}

void nicfit_prom_family(struct nicfit_buf *b, const char *name, const char *type,
			const char *help)
{
	nicfit__prom_family(b, name, type, help);
}

void nicfit_prom_sample(struct nicfit_buf *b, const char *name, double v, ...)
{
	va_list ap;

	va_start(ap, v);
	vsample(b, name, v, ap);
	va_end(ap);
}
