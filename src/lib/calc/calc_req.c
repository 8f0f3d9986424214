/*
 * calc_req.c - what every calculator shares: reading its settings from the
 * request (nicfit_reader: an error names the option as the user wrote it,
 * --gpus-per-node or gpus_per_node), applying the "assume" pairs, and the
 * document's frame (the schema line, the assumptions, the end). It knows
 * no calculator; each calculator's file calls it.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/link.h"
#include "nicfit/units.h"
#include "calc/calc_int.h"

const char *nicfit__calc_optname(struct req *r, const char *key)
{
	return nicfit_reader_opt(&r->rd, key);
}

int nicfit__calc_fix(struct req *r, int rc)
{
	return nicfit_reader_fail(&r->rd, rc);
}

int nicfit__calc_need(struct req *r, const char *key, const char **out)
{
	return nicfit_reader_need(&r->rd, key, out);
}

int nicfit__calc_get_long(struct req *r, const char *key, long def, long min, long max, long *out)
{
	return nicfit_reader_long(&r->rd, key, def, min, max, out);
}

int nicfit__calc_get_double(struct req *r, const char *key, double def, double min, double max,
		      double *out)
{
	return nicfit_reader_double(&r->rd, key, def, min, max, out);
}

int nicfit__calc_get_speed(struct req *r, const char *key, int required, struct nicfit_speed *out)
{
	const char *v = nicfit_spec_get(r->s, key);

	memset(out, 0, sizeof(*out));
	if (!v)
		return required ? nicfit__calc_need(r, key, &v) : 0;
	return nicfit__calc_fix(r, nicfit_parse_speed(v, nicfit__calc_optname(r, key), out, r->err));
}

int nicfit__calc_get_proto(struct req *r, enum nicfit_proto def, enum nicfit_proto *out)
{
	const char *v = nicfit_spec_get(r->s, "proto");

	*out = def;
	if (!v)
		return 0;
	nicfit__calc_optname(r, "proto"); /* an error points at this setting */
	return nicfit__calc_fix(r, nicfit_proto_parse(v, out, r->err));
}

int nicfit__calc_get_link(struct req *r, const char *key, int required, enum nicfit_proto eth_def,
			  struct nicfit_speed *sp, enum nicfit_proto *proto)
{
	struct nicfit_error why;
	const char *v, *pv;
	char popt[72];
	int rc;

	if ((rc = nicfit__calc_get_speed(r, key, required, sp)) ||
	    (rc = nicfit__calc_get_proto(r, sp->kind == NICFIT_SPEED_IB ? NICFIT_PROTO_IB : eth_def,
					 proto)))
		return rc;
	v = nicfit_spec_get(r->s, key);
	nicfit_error_clear(&why);
	if (!v || !nicfit_link_check(sp, *proto, &why))
		return 0;
	pv = nicfit_spec_get(r->s, "proto");
	snprintf(popt, sizeof(popt), "%s", nicfit__calc_optname(r, "proto"));
	/* the speed is what is wrong for the protocol: the error is the speed's */
	if (pv)
		rc = nicfit_error_at(r->err, why.code, nicfit__calc_optname(r, key), 0, 0,
				     "'%.32s' with %s %.16s: %s", v, popt, pv, why.msg);
	else
		rc = nicfit_error_at(r->err, why.code, nicfit__calc_optname(r, key), 0, 0,
				     "'%.32s': %s", v, why.msg);
	return nicfit__calc_fix(r, rc);
}

/* Apply every "assume" pair to whichever set knows its name. */
int nicfit__calc_apply_assume(struct req *r, const struct nicfit_param_set *sets, size_t nsets)
{
	size_t i, count = nicfit_spec_count(r->s, "assume");
	int rc;

	for (i = 0; i < count; i++) {
		rc = nicfit_param_assign_any(sets, nsets, nicfit_spec_get_nth(r->s, "assume", i),
					     nicfit__calc_optname(r, "assume"), r->err);
		if (rc)
			return nicfit__calc_fix(r, rc);
	}
	return 0;
}

int nicfit__calc_unused(struct req *r, const char *const *known)
{
	return nicfit_spec_check_unused(r->s, known, r->err);
}

void nicfit__calc_header(struct nicfit_emit *e, const char *name)
{
	char schema[64];

	snprintf(schema, sizeof(schema), "nicfit.calc.%s.v1", name);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", schema);
}

/* The assumptions as a Markdown table: JSON is never Markdown, so no values. */
static void md_assumptions(struct nicfit_emit *e, const struct nicfit_param_set *tabs, int ntabs)
{
	static const struct nicfit_column cols[] = {
		{ "name", "name", 0 }, { "value", "value", 1 }, { "meaning", "meaning", 0 },
	};
	char v[64];
	int t;

	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Assumptions");
	nicfit_emit_printf(e, "Change them with `--assume NAME=VALUE`.\n\n");
	nicfit_emit_table_begin(e, NULL, cols, 3);
	for (t = 0; t < ntabs; t++) {
		size_t i;

		for (i = 0; i < tabs[t].n; i++) {
			const struct nicfit_param *p = &tabs[t].tab[i];
			double x = nicfit_param_get(p, tabs[t].obj);

			snprintf(v, sizeof(v), "%g%s%s", x, p->unit[0] ? " " : "", p->unit);
			nicfit_emit_cell_string(e, p->name);
			nicfit_emit_cell_string(e, v);
			if (x != p->def) {
				char m[512];

				snprintf(m, sizeof(m), "%s (set by you)", p->text);
				nicfit_emit_cell_string(e, m);
			} else {
				nicfit_emit_cell_string(e, p->text);
			}
		}
	}
	nicfit_emit_table_end(e);
}

void nicfit__calc_assumptions(struct nicfit_emit *e, const struct nicfit_param_set *tabs, int ntabs)
{
	int t;

	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		md_assumptions(e, tabs, ntabs);
		return;
	}
	nicfit_emit_printf(e, "\nAssumptions (change with --assume NAME=VALUE):\n");
	nicfit_emit_begin_array(e, "assumptions");
	for (t = 0; t < ntabs; t++) {
		/* nested arrays would break the flat list: emit members inline */
		size_t i;

		for (i = 0; i < tabs[t].n; i++) {
			const struct nicfit_param *p = &tabs[t].tab[i];
			double v = nicfit_param_get(p, tabs[t].obj);
			int changed = v != p->def;

			nicfit_emit_begin_object(e, NULL);
			nicfit_emit_string(e, "name", p->name);
			nicfit_emit_number(e, "value", v);
			nicfit_emit_string(e, "unit", p->unit[0] ? p->unit : NULL);
			nicfit_emit_string(e, "meaning", p->text);
			nicfit_emit_string(e, "source", changed ? "set by the user" : p->source);
			nicfit_emit_end_object(e);
			nicfit_emit_printf(e, "  %-15s %g%s%s  %s%s\n", p->name, v,
					   p->unit[0] ? " " : "", p->unit, p->text,
					   changed ? " (set by you)" : "");
		}
	}
	nicfit_emit_end_array(e);
}

int nicfit__calc_done(struct nicfit_emit *e, const struct nicfit_param_set *tabs, int ntabs)
{
	nicfit__calc_assumptions(e, tabs, ntabs);
	nicfit_emit_end_object(e);
	return 0;
}

int nicfit__calc_get_bool(struct req *r, const char *key, int *out)
{
	const char *v = nicfit_spec_get(r->s, key);

	*out = 0;
	if (!v)
		return 0;
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcmp(v, "1")) {
		*out = 1;
		return 0;
	}
	if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcmp(v, "0"))
		return 0;
	return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, key), 0, 0,
				      "'%.32s': use true or false", v));
}
