/*
 * accept_planfile.c - the system of a saved plan: the JSON `nicfit plan
 * -j` wrote (nicfit.plan.v1), read back.
 *
 * A saved plan's `input` object is the request after defaults, key for
 * key the keys plan reads, so it is made a request again: each scalar
 * becomes a pair at its own line and column (an error about a value points
 * into the file), `params` gets its unit back (the file holds a bare count;
 * the request reader wants "8.03B"), and nulls are left out as defaults.
 * The plan is then made again from that request and must choose the
 * back-end card the file names: a file written with another catalog (an
 * overlay, an older release) would otherwise be accepted as a system it
 * never described.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jscan_int.h"
#include "nicfit/spec.h"
#include "accept/accept_int.h"

/* Where token i stands in the file, as an error there. */
static int at_token(const struct jscan *js, const char *input, int i, int code,
		    const char *msg, const char *key, struct nicfit_error *err)
{
	const struct jscan_tok *t = &js->tok[i];
	long line, col;

	nicfit__jscan_position(js->text, t->start - (t->type == JS_STRING), &line, &col);
	return nicfit_error_at(err, code, input, line, col, "%s%s%s", key ? key : "",
			       key ? ": " : "", msg);
}

/* One member of input (key k, value k + 1) as a pair of spec, at its position. */
static int input_pair(const struct jscan *js, const char *input, int k, struct nicfit_spec *spec,
		      struct nicfit_error *err)
{
	const struct jscan_tok *v = &js->tok[k + 1];
	char key[64], val[NICFIT_SPEC_MAX_VALUE];
	long line, col;
	double d;

	if (nicfit__jscan_string(js, k, key, sizeof(key)) < 1)
		return at_token(js, input, k, NICFIT_E_DATA, "input: a key nicfit plan does not "
				"write", NULL, err);
	if (v->type == JS_NULL)
		return 0;
	if (v->type == JS_STRING) {
		if (nicfit__jscan_string(js, k + 1, val, sizeof(val)) < 0)
			return at_token(js, input, k + 1, NICFIT_E_DATA, "value too long", key, err);
	} else if (v->type == JS_NUMBER) {
		if (nicfit__jscan_number(js, k + 1, &d))
			return at_token(js, input, k + 1, NICFIT_E_DATA, "not a number", key, err);
		/* a parameter count is written bare; the request reader wants its unit */
		if (!strcmp(key, "params"))
			snprintf(val, sizeof(val), "%.15gB", d / 1e9);
		else
			snprintf(val, sizeof(val), "%.*s", (int)v->len, js->text + v->start);
	} else if (v->type == JS_TRUE || v->type == JS_FALSE) {
		snprintf(val, sizeof(val), "%s", v->type == JS_TRUE ? "true" : "false");
	} else {
		return at_token(js, input, k + 1, NICFIT_E_DATA, "expected a string, number or "
				"boolean, as nicfit plan -j writes", key, err);
	}
	if (nicfit_spec_add(spec, key, val, err))
		return err ? err->code : NICFIT_E_NOMEM;
	nicfit__jscan_position(js->text, v->start - (v->type == JS_STRING), &line, &col);
	spec->pairs[spec->n - 1].line = line;
	spec->pairs[spec->n - 1].col = col;
	return 0;
}

/*
 * The plan's request (its input object) into spec; *bought the back-end
 * card's part or "", *at where it stands (1:1 when absent).
 */
static int plan_request(struct jscan *js, const char *input, struct nicfit_spec *spec,
			char *bought, size_t bn, long at[2], struct nicfit_error *err)
{
	char schema[64] = "";
	int s, in, k, be, nic, part;

	if (js->tok[0].type != JS_OBJECT)
		return at_token(js, input, 0, NICFIT_E_DATA, "expected the JSON object nicfit "
				"plan -j writes", NULL, err);
	s = nicfit__jscan_get(js, 0, "schema");
	if (s < 0)
		return at_token(js, input, 0, NICFIT_E_DATA, "no schema: not a plan (nicfit plan "
				"-j writes nicfit.plan.v1)", NULL, err);
	if (nicfit__jscan_string(js, s, schema, sizeof(schema)) < 0 ||
	    strcmp(schema, "nicfit.plan.v1")) {
		char msg[128];

		snprintf(msg, sizeof(msg), "'%.40s' is not nicfit.plan.v1: not a plan nicfit plan "
			 "-j wrote", js->tok[s].type == JS_STRING ? schema : "?");
		return at_token(js, input, s, NICFIT_E_DATA, msg, "schema", err);
	}
	in = nicfit__jscan_get(js, 0, "input");
	if (in < 0 || js->tok[in].type != JS_OBJECT)
		return at_token(js, input, in < 0 ? 0 : in, NICFIT_E_DATA, "expected the plan's "
				"request as an object", "input", err);
	for (k = in + 1; k < (int)js->tok[in].next; k = (int)js->tok[k + 1].next) {
		int rc = input_pair(js, input, k, spec, err);

		if (rc)
			return rc;
	}
	bought[0] = '\0';
	be = nicfit__jscan_get(js, 0, "backend");
	nic = be >= 0 && js->tok[be].type == JS_OBJECT ? nicfit__jscan_get(js, be, "nic") : -1;
	part = nic >= 0 && js->tok[nic].type == JS_OBJECT ? nicfit__jscan_get(js, nic, "part") : -1;
	at[0] = at[1] = 1;
	if (part >= 0 && js->tok[part].type == JS_STRING) {
		if (nicfit__jscan_string(js, part, bought, bn) < 0)
			bought[0] = '\0';
		nicfit__jscan_position(js->text, js->tok[part].start - 1, &at[0], &at[1]);
	}
	return 0;
}

int nicfit_accept_system_from_plan_json(const struct nicfit_catalog *cat, const char *input,
					const char *text, size_t len,
					struct nicfit_accept_system *sys, struct nicfit_error *err)
{
	struct nicfit_spec *spec;
	struct jscan js;
	char bought[64];
	long line, col, at[2];
	int rc;

	memset(sys, 0, sizeof(*sys));
	if (len > NICFIT_SPEC_MAX_BYTES * 4u)
		return nicfit_error_at(err, NICFIT_E_LIMIT, input, 0, 0, "larger than %u bytes",
				       NICFIT_SPEC_MAX_BYTES * 4u);
	nicfit__jscan_init(&js);
	rc = nicfit__jscan_parse(&js, text, len);
	if (rc == -2) {
		nicfit__jscan_release(&js);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	if (rc) {
		nicfit__jscan_position(text, js.err_off, &line, &col);
		rc = nicfit_error_at(err, NICFIT_E_DATA, input, line, col, "%s (not the JSON "
				     "nicfit plan -j writes)", js.err_msg ? js.err_msg : "bad JSON");
		nicfit__jscan_release(&js);
		return rc;
	}
	spec = calloc(1, sizeof(*spec));
	if (!spec) {
		nicfit__jscan_release(&js);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	nicfit_spec_init(spec, input);
	spec->from_data = 1;
	rc = plan_request(&js, input, spec, bought, sizeof(bought), at, err);
	nicfit__jscan_release(&js);
	if (!rc) {
		rc = nicfit_accept_system_from_plan(cat, spec, sys, err);
		/* every setting came from the file: a bad one is bad data, as in a --spec file */
		if (rc == NICFIT_E_USAGE) {
			rc = NICFIT_E_DATA;
			if (err)
				err->code = rc;
		}
	}
	if (!rc && strcmp(bought, sys->rail_part))
		rc = nicfit_error_at(err, NICFIT_E_DATA, input, at[0], at[1], "the plan names back-end "
				     "card '%.40s', made again from its input it chooses '%.40s': "
				     "it was written with another catalog (give the same "
				     "--catalog)", bought[0] ? bought : "none",
				     sys->rail_part[0] ? sys->rail_part : "none");
	nicfit_spec_release(spec);
	free(spec);
	if (rc) {
		free(sys->hosts);
		sys->hosts = NULL;
	}
	return rc;
}
