/*
 * calc_int.h - what the calculators' files share (internal): the request
 * being read and its helpers (calc.c), and the step calculator
 * (calc_step.c), which nicfit_calc_run() in calc.c dispatches to.
 */
#ifndef NICFIT_CALC_INT_H
#define NICFIT_CALC_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "calc_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include "nicfit/calc.h"
#include "nicfit/link.h"
#include "nicfit/spec.h"

/* A request being read (see nicfit_reader in nicfit/spec.h). */
struct req {
	struct nicfit_reader rd;
	struct nicfit_spec *s;
	struct nicfit_error *err;
};

/* The option's name as the user wrote it (--gpus-per-node or gpus_per_node). */
const char *nicfit__calc_optname(struct req *r, const char *key);
/* Name the option in an error (nicfit_reader_fail). */
int nicfit__calc_fix(struct req *r, int rc);
int nicfit__calc_need(struct req *r, const char *key, const char **out);
int nicfit__calc_get_long(struct req *r, const char *key, long def, long min, long max,
			  long *out);
int nicfit__calc_get_double(struct req *r, const char *key, double def, double min, double max,
			    double *out);
/* A speed (required or not: then out->gbps stays 0). */
int nicfit__calc_get_speed(struct req *r, const char *key, int required, struct nicfit_speed *out);
int nicfit__calc_get_proto(struct req *r, enum nicfit_proto def, enum nicfit_proto *out);
/* Apply every "assume" pair to whichever set knows its name. */
int nicfit__calc_apply_assume(struct req *r, const struct nicfit_param_set *sets, size_t nsets);
/* A usage error for a setting the calculator does not know. */
int nicfit__calc_unused(struct req *r, const char *const *known);
/* Open the document: "schema": "nicfit.calc.<name>.v1". */
void nicfit__calc_header(struct nicfit_emit *e, const char *name);
/* The assumptions of tabs, in JSON and text. */
void nicfit__calc_assumptions(struct nicfit_emit *e, const struct nicfit_param_set *tabs, int ntabs);

/* calc_step.c: `calc step` */
int nicfit__calc_step(struct req *r, const struct nicfit_catalog *cat, struct nicfit_emit *e);

#endif
