/*
 * nicfit/param.h - named, overridable model assumptions.
 *
 * Every number a calculation assumes (PCIe max payload, MTU, usable share of
 * GPU memory, ...) is a double field of a params struct described by a table
 * of struct nicfit_param: its name, default, allowed range, unit, one-line
 * meaning and source. The same table sets defaults, applies user overrides
 * ("mps=512" from --assume), and lets renderers list the assumptions used.
 */
#ifndef NICFIT_PARAM_H
#define NICFIT_PARAM_H

#include <stddef.h>

#include "nicfit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nicfit_param {
	const char *name;   /* lowercase, e.g. "mps" */
	size_t offset;      /* offsetof(params struct, double field) */
	double def;         /* default value */
	double min, max;    /* allowed range, inclusive */
	const char *unit;   /* "B", "Gb/s", "" */
	const char *text;   /* what it means, one line */
	const char *source; /* where the default comes from */
};

/* Set every field of obj described by tab to its default. */
void nicfit_param_defaults(const struct nicfit_param *tab, size_t n, void *obj);

/* The field's current value. */
double nicfit_param_get(const struct nicfit_param *p, const void *obj);

/* Find a parameter by name (exact, case-insensitive); NULL if unknown. */
const struct nicfit_param *nicfit_param_find(const struct nicfit_param *tab,
					     size_t n, const char *name);

/*
 * Apply "name=value" to obj. Errors: NICFIT_E_USAGE for an unknown name
 * (the message lists the known ones), a malformed number, or a value out
 * of range. input names the option for the message, which names the
 * assumption too ("--assume: mps: '7': out of range (128 to 4096)").
 */
int nicfit_param_assign(const struct nicfit_param *tab, size_t n, void *obj,
			const char *assignment, const char *input,
			struct nicfit_error *err);

/* One params struct and the table that describes it. */
struct nicfit_param_set {
	const struct nicfit_param *tab;
	size_t n;
	void *obj;
};

/*
 * Apply "name=value" to the first of sets whose table knows the name. An
 * unknown name is reported by the first set, as nicfit_param_assign would.
 */
int nicfit_param_assign_any(const struct nicfit_param_set *sets, size_t nsets,
			    const char *assignment, const char *input,
			    struct nicfit_error *err);

struct nicfit_emit;

/*
 * Render the parameters of obj as assumptions: a JSON array under key of
 * {name, value, unit, meaning, source}, and in text one indented line per
 * parameter. Parameters whose value differs from the default are marked.
 */
void nicfit_param_emit(struct nicfit_emit *e, const char *key,
		       const struct nicfit_param *tab, size_t n, const void *obj);

#ifdef __cplusplus
}
#endif

#endif
