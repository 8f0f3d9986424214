/*
 * param.c - named, overridable assumptions (see nicfit/param.h).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/buf.h"
#include "nicfit/emit.h"
#include "nicfit/param.h"
#include "nicfit/units.h"

static double *field(const struct nicfit_param *p, void *obj)
{
	return (double *)(void *)((char *)obj + p->offset);
}

void nicfit_param_defaults(const struct nicfit_param *tab, size_t n, void *obj)
{
	size_t i;

	for (i = 0; i < n; i++)
		*field(&tab[i], obj) = tab[i].def;
}

double nicfit_param_get(const struct nicfit_param *p, const void *obj)
{
	return *(const double *)(const void *)((const char *)obj + p->offset);
}

const struct nicfit_param *nicfit_param_find(const struct nicfit_param *tab,
					     size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(tab[i].name, name))
			return &tab[i];
	return NULL;
}

int nicfit_param_assign(const struct nicfit_param *tab, size_t n, void *obj,
			const char *assignment, const char *input,
			struct nicfit_error *err)
{
	const struct nicfit_param *p;
	const char *eq = strchr(assignment, '=');
	struct nicfit_error why;
	char name[48];
	size_t len, i;
	double v;
	int rc;

	if (!eq || eq == assignment)
		return nicfit_error_at(err, NICFIT_E_USAGE, input, 0, 0,
				       "expected NAME=VALUE, got '%.40s'", assignment);
	len = (size_t)(eq - assignment);
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, assignment, len);
	name[len] = '\0';
	p = nicfit_param_find(tab, n, name);
	if (!p) {
		struct nicfit_buf known;

		nicfit_buf_init(&known, 4096);
		for (i = 0; i < n; i++)
			nicfit_buf_addf(&known, "%s%s", i ? ", " : "", tab[i].name);
		rc = nicfit_error_at(err, NICFIT_E_USAGE, input, 0, 0,
				     "unknown assumption '%s' (known here: %s)",
				     name, known.data);
		nicfit_buf_release(&known);
		return rc;
	}
	/* the value's error names the assumption too: "--assume: mps: '7': out of range" */
	nicfit_error_clear(&why);
	rc = nicfit_parse_double(eq + 1, input, p->min, p->max, &v, &why);
	if (rc)
		return nicfit_error_at(err, rc, why.input, why.line, why.col, "%s: %s", p->name,
				       why.msg);
	*field(p, obj) = v;
	return 0;
}

int nicfit_param_assign_any(const struct nicfit_param_set *sets, size_t nsets,
			    const char *assignment, const char *input,
			    struct nicfit_error *err)
{
	char name[48];
	size_t len = strcspn(assignment, "="), i;

	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, assignment, len);
	name[len] = '\0';
	for (i = 0; i < nsets; i++)
		if (nicfit_param_find(sets[i].tab, sets[i].n, name))
			break;
	if (i == nsets)
		i = 0; /* the first set reports the unknown name */
	return nicfit_param_assign(sets[i].tab, sets[i].n, sets[i].obj, assignment,
				   input, err);
}

void nicfit_param_emit(struct nicfit_emit *e, const char *key,
		       const struct nicfit_param *tab, size_t n, const void *obj)
{
	size_t i;

	nicfit_emit_begin_array(e, key);
	for (i = 0; i < n; i++) {
		double v = nicfit_param_get(&tab[i], obj);
		int changed = v != tab[i].def;

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "name", tab[i].name);
		nicfit_emit_number(e, "value", v);
		/* a unitless parameter (a share, a factor) has unit null, not "" */
		nicfit_emit_string(e, "unit", tab[i].unit[0] ? tab[i].unit : NULL);
		nicfit_emit_string(e, "meaning", tab[i].text);
		nicfit_emit_string(e, "source", changed ? "set by the user" : tab[i].source);
		nicfit_emit_bool(e, "overridden", changed);
		nicfit_emit_end_object(e);
		nicfit_emit_printf(e, "  %-15s %g%s%s  %s%s\n", tab[i].name, v,
				   tab[i].unit[0] ? " " : "", tab[i].unit, tab[i].text,
				   changed ? " (set by you)" : "");
	}
	nicfit_emit_end_array(e);
}
