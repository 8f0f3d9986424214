/*
 * prom_int.h - the Prometheus text exposition format, written by hand
 * into a nicfit_buf (out/prom.c): the "# HELP" and "# TYPE" lines of a
 * metric family and its samples, with label values escaped. Library-wide,
 * in core/, for the audit's and the fleet's exposition.
 *
 * The format is Prometheus's text-based exposition format 0.0.4, the one
 * node_exporter's textfile collector reads: every sample of a family
 * follows the family's HELP and TYPE lines, label values are double-quoted
 * with backslash, double quote and line feed escaped as \\, \" and \n.
 * A label value that comes from the outside world (a host name, a PCI
 * name, a finding's device) first goes through the one escaper,
 * nicfit__text_escape_n() (core/text_int.h), so control bytes, broken UTF-8 and
 * bidi marks are shown as \xNN or \uNNNN and never reach a dashboard
 * raw; the exposition escaping is applied on top. What is not the
 * renderers' concern: metric names and label names are fixed strings
 * of the renderers, never built from input.
 *
 *	nicfit__prom_family(b, "nicfit_pcie_link_width", "gauge",
 *			    "Lanes the PCIe link negotiated.");
 *	nicfit__prom_sample(b, "nicfit_pcie_link_width", 16, "bdf", "0000:3b:00.0", NULL);
 *
 * Internal to libnicfit.
 */
#ifndef NICFIT_PROM_INT_H
#define NICFIT_PROM_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "prom_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include "nicfit/buf.h"

/* "# HELP name help" (help escaped as the format asks) and "# TYPE name type". */
void nicfit__prom_family(struct nicfit_buf *b, const char *name, const char *type,
			 const char *help);

/*
 * One sample: name, then the labels given as (name, value) pairs ending
 * with NULL, then the value. A NULL or empty label value leaves that
 * label out (unknown is absent, as in the JSON). A value that is not
 * finite is written as NaN, which the format allows; renderers leave an
 * unknown figure out instead.
 */
void nicfit__prom_sample(struct nicfit_buf *b, const char *name, double v, ...);

/* Append s as a label value's inside: escaped, without the quotes. */
void nicfit__prom_label_value(struct nicfit_buf *b, const char *s);

#endif
