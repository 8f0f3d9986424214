/*
 * calc_size.c - the --size of calc load and calc allreduce: bytes ("40GB")
 * or a parameter count ("70B") at --precision's bits per parameter, read,
 * turned into bytes once the assumptions are known, and shown (the JSON
 * fields, the text line, the Markdown figure's words).
 */
#include <stdio.h>
#include <string.h>

#include "nicfit/llm.h"
#include "nicfit/units.h"
#include "calc/calc_int.h"

/*
 * --size in bytes, or as a parameter count ("70B", as help says) at
 * --precision (default bf16). The bytes of a count are worked out by
 * size_bytes() once the assumptions are applied: int4's depend on them.
 * A --precision beside a size in bytes is refused rather than ignored.
 */
int nicfit__calc_size_get(struct req *r, const char *key, struct nicfit__calc_size *z)
{
	enum nicfit_size_kind kind;
	const char *v, *pv = nicfit_spec_get(r->s, "precision");
	int rc = nicfit__calc_need(r, key, &v);

	memset(z, 0, sizeof(*z));
	nicfit_llm_params_default(&z->lp);
	z->prec = NICFIT_PREC_BF16;
	if (rc)
		return rc;
	rc = nicfit__calc_fix(r, nicfit_parse_size(v, nicfit__calc_optname(r, key), &z->bytes, &kind,
						   r->err));
	if (rc)
		return rc;
	if (pv && (rc = nicfit__calc_fix(r, nicfit_precision_parse(pv, &z->prec, r->err))))
		return rc;
	if (kind == NICFIT_SIZE_BYTES) {
		if (pv)
			return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						      nicfit__calc_optname(r, "precision"), 0, 0,
						      "'%.32s' is a size in bytes; a precision applies "
						      "only to a parameter count such as 70B", v));
		return 0;
	}
	z->params = z->bytes;
	z->bytes = 0;
	return 0;
}

/* The tables a size adds to the assumptions: int4's group layout for a count in int4. */
int nicfit__calc_size_tabs(struct nicfit__calc_size *z, struct nicfit_param_set *tab)
{
	if (!z->params || z->prec != NICFIT_PREC_INT4)
		return 0;
	tab->tab = nicfit_llm_param_table;
	tab->n = NICFIT__CALC_INT4_PARAMS;
	tab->obj = &z->lp;
	return 1;
}

void nicfit__calc_size_bytes(struct nicfit__calc_size *z)
{
	if (!z->params)
		return;
	z->bits = nicfit_bits_per_param(z->prec, &z->lp);
	z->bytes = z->params * z->bits / 8;
}

const char *nicfit__calc_size_text(const struct nicfit__calc_size *z, char *out, size_t n)
{
	char b[32];

	nicfit_fmt_bytes(z->bytes, b, sizeof(b));
	if (z->params)
		snprintf(out, n, "%gB parameters x %g bits (%s) = %s", z->params / 1e9, z->bits,
			 nicfit_precision_name(z->prec), b);
	else
		snprintf(out, n, "%s", b);
	return out;
}

/* The size's fields: size_gb, and params, precision, bytes_per_param (null for bytes). */
void nicfit__calc_size_emit(struct nicfit_emit *e, const struct nicfit__calc_size *z)
{
	nicfit_emit_number(e, "size_gb", z->bytes / 1e9);
	if (z->params) {
		nicfit_emit_number(e, "params", z->params);
		nicfit_emit_string(e, "precision", nicfit_precision_name(z->prec));
		nicfit_emit_number(e, "bytes_per_param", z->bits / 8);
	} else {
		nicfit_emit_null(e, "params");
		nicfit_emit_null(e, "precision");
		nicfit_emit_null(e, "bytes_per_param");
	}
}

/* A size given in parameters: how it became bytes, and how to change that. */
void nicfit__calc_size_explain(struct nicfit_emit *e, const struct nicfit__calc_size *z,
			       const char *what)
{
	char t[96];

	if (z->params)
		nicfit_emit_printf(e, "  size        %s: %s (set with --precision)\n", what,
				   nicfit__calc_size_text(z, t, sizeof(t)));
}
