/*
 * nicfit/prom.h - Prometheus's text exposition format (0.0.4, what
 * Prometheus scrapes and node_exporter's textfile collector reads),
 * written into a nicfit_buf: a metric family's "# HELP" and "# TYPE"
 * lines, then its samples. The audit's and the fleet's `--format prom`
 * and `nicfit serve`'s GET /metrics are written with it.
 *
 *	nicfit_prom_family(&b, "nicfit_serve_requests_total", "counter",
 *			   "Requests answered, by status class.");
 *	nicfit_prom_sample(&b, "nicfit_serve_requests_total", 12, "class", "2xx", NULL);
 *
 * Label values are escaped (control bytes, broken UTF-8 and bidi marks
 * shown as \xNN or \uNNNN, then backslash, double quote and line feed as
 * the format asks); metric and label names are the caller's fixed
 * strings, never built from input. A family's samples must follow its
 * header with no other family between.
 */
#ifndef NICFIT_PROM_H
#define NICFIT_PROM_H

#include "nicfit/buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "# HELP name help" and "# TYPE name type" (counter, gauge, ...). */
void nicfit_prom_family(struct nicfit_buf *b, const char *name, const char *type,
			const char *help);

/*
 * One sample: name, the labels as (name, value) pairs ending with NULL
 * (a NULL or empty value leaves its label out), then the value; one that
 * is not finite is written NaN.
 */
void nicfit_prom_sample(struct nicfit_buf *b, const char *name, double v, ...)
	__attribute__((sentinel));

#ifdef __cplusplus
}
#endif

#endif
