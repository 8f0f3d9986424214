/*
 * calc_llm.c - the calculators of a model on GPUs: `calc fit` (does it fit
 * their memory, weights and KV cache, and in what layout) and `calc
 * stream` (what its tokens cost the front end). The formulas are
 * nicfit_calc_fit(), nicfit_layout_pick() and nicfit_calc_stream(); this
 * file reads the settings and shows the result.
 */
#include <stdio.h>
#include <string.h>

#include "nicfit/llm.h"
#include "nicfit/step.h"
#include "nicfit/units.h"
#include "calc/calc_int.h"
#include "core/gpu_stack_int.h"

/* ---- fit ----------------------------------------------------------------- */

static int parse_gpus(struct req *r, const struct nicfit_catalog *cat, const char *v,
		      int *count, const struct nicfit_gpu **gpu, double *mem_gib)
{
	const char *x = strchr(v, 'x');
	char name[72];
	long n = 1;
	int rc;

	if (!x)
		x = strchr(v, 'X');
	if (x && x != v) {
		char num[24];
		size_t len = (size_t)(x - v);

		if (len >= sizeof(num))
			len = sizeof(num) - 1;
		memcpy(num, v, len);
		num[len] = '\0';
		rc = nicfit__calc_fix(r, nicfit_parse_long(num, nicfit__calc_optname(r, "gpus"), 1, 100000, &n, r->err));
		if (rc)
			return rc;
		snprintf(name, sizeof(name), "%s", x + 1);
	} else {
		snprintf(name, sizeof(name), "%s", v);
	}
	*count = (int)n;
	*gpu = NULL;
	/* "2x48GiB" names memory instead of a model */
	if (name[0] >= '0' && name[0] <= '9') {
		enum nicfit_size_kind kind;
		double bytes;

		rc = nicfit__calc_fix(r, nicfit_parse_size(name, nicfit__calc_optname(r, "gpus"), &bytes, &kind, r->err));
		if (rc)
			return rc;
		*mem_gib = bytes / 1073741824.0;
		return 0;
	}
	if (!cat)
		return nicfit_error_set(r->err, NICFIT_E_INTERNAL, "no catalog");
	*gpu = nicfit_catalog_find_gpu(cat, name, nicfit__calc_optname(r, "gpus"), r->err);
	if (!*gpu)
		return r->err ? r->err->code : NICFIT_E_NOTFOUND;
	*mem_gib = (*gpu)->memory_gib;
	return 0;
}

/* `calc fit`: its settings, and what it works out from them. */
struct fit {
	const struct nicfit_model *model; /* NULL: --params alone */
	const struct nicfit_gpu *gpu;     /* NULL: the GPUs named by their memory */
	enum nicfit_precision prec;
	struct nicfit_arch arch;
	struct nicfit_llm_params lp;
	long context, conc, gpn;
	int ngpu;
	double mem;                       /* one GPU's memory, GiB */
	struct nicfit_fit res;
	struct nicfit_layout lay;         /* gpus 0: no layout */
};

/* The model: a catalog id, or a parameter count (which overrides the model's). */
static int fit_model(struct req *r, const struct nicfit_catalog *cat, struct fit *f)
{
	const char *mv = nicfit_spec_get(r->s, "model"), *pv = nicfit_spec_get(r->s, "params");
	int rc;

	if (!mv && !pv)
		return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, r->s->input, 0, 0,
					      "give %s or %s", nicfit__calc_optname(r, "model"),
					      r->s->from_data ? "params" : "--params"));
	if (mv) {
		f->model = nicfit_catalog_find_model(cat, mv, nicfit__calc_optname(r, "model"), r->err);
		if (!f->model)
			return r->err ? r->err->code : NICFIT_E_NOTFOUND;
		f->arch = f->model->arch;
	}
	if (pv) {
		enum nicfit_size_kind kind;
		double v;

		rc = nicfit__calc_fix(r, nicfit_parse_size(pv, nicfit__calc_optname(r, "params"), &v, &kind, r->err));
		if (rc)
			return rc;
		if (kind != NICFIT_SIZE_PARAMS)
			return nicfit__calc_fix(r, nicfit_error_at(r->err, NICFIT_E_USAGE, nicfit__calc_optname(r, "params"), 0, 0,
						      "'%s' is a size in bytes; give a parameter count such as 70B", pv));
		f->arch.params = v;
	}
	return 0;
}

/* The JSON fields of a fit: the model, the memory it needs and has, the layout. */
static void emit_fit(struct nicfit_emit *e, const struct fit *f)
{
	const struct nicfit_fit *res = &f->res;

	nicfit_emit_string(e, "model", f->model ? f->model->e.id : NULL);
	nicfit_emit_number(e, "params", f->arch.params);
	nicfit_emit_string(e, "precision", nicfit_precision_name(f->prec));
	nicfit_emit_number(e, "bits_per_param", res->bits_per_param);
	nicfit_emit_number(e, "weights_gb", res->weights_gb);
	nicfit_emit_number(e, "kv_bytes_per_token", res->kv_bytes_per_token);
	nicfit_emit_int(e, "context", f->context);
	nicfit_emit_int(e, "concurrency", f->conc);
	nicfit_emit_number(e, "kv_cache_gb", res->kv_cache_gb);
	nicfit_emit_number(e, "total_gb", res->total_gb);
	nicfit_emit_int(e, "gpus", f->ngpu);
	nicfit_emit_string(e, "gpu", f->gpu ? f->gpu->e.id : NULL);
	nicfit_emit_number(e, "gpu_memory_gb", res->gpu_gb);
	nicfit_emit_number(e, "capacity_gb", res->capacity_gb);
	nicfit_emit_bool(e, "fits", res->fits);
	nicfit_emit_int(e, "gpus_needed", res->gpus_needed);
	if (!f->lay.gpus) {
		nicfit_emit_null(e, "layout");
		return;
	}
	nicfit_emit_begin_object(e, "layout");
	nicfit_emit_int(e, "tp", f->lay.tp);
	nicfit_emit_int(e, "pp", f->lay.pp);
	nicfit_emit_int(e, "ep", f->lay.ep);
	nicfit_emit_int(e, "gpus", f->lay.gpus);
	nicfit_emit_int(e, "nodes", f->lay.nodes);
	nicfit_emit_int(e, "gpus_per_node", f->gpn);
	nicfit_emit_string(e, "name", f->lay.name);
	nicfit_emit_end_object(e);
}

/* calc fit in text. */
static void text_fit(struct nicfit_emit *e, const struct fit *f)
{
	const struct nicfit_fit *res = &f->res;
	const struct nicfit_layout *lay = &f->lay;
	/* the scale-up link by its maker's name: NVLink, Infinity Fabric (xGMI) */
	const char *domain = f->gpu && f->gpu->nvlink_domain ?
		nicfit__gpu_stack_of(f->gpu->vendor, f->gpu->e.name)->scaleup : NULL;
	char b[32];

	nicfit_emit_printf(e, "%s at %s on %d x %s: %s\n",
			   f->model ? f->model->e.name : nicfit_fmt_bytes(f->arch.params, b, sizeof(b)),
			   nicfit_precision_name(f->prec), f->ngpu,
			   f->gpu ? f->gpu->e.name : "GPU", res->fits ? "fits" : "does not fit");
	nicfit_emit_printf(e, "  weights    %7.1f GB  (%.2fe9 parameters x %.2f bits)\n",
			   res->weights_gb, f->arch.params / 1e9, res->bits_per_param);
	if (res->kv_known)
		nicfit_emit_printf(e, "  KV cache   %7.1f GB  (%.0f B/token x %ld tokens x %ld requests)\n",
				   res->kv_cache_gb, res->kv_bytes_per_token, f->context, f->conc);
	else
		nicfit_emit_printf(e, "  KV cache   unknown (give --model for the layer and head counts)\n");
	nicfit_emit_printf(e, "  total      %7.1f GB\n", res->total_gb);
	nicfit_emit_printf(e, "  capacity   %7.1f GB  (%d x %.1f GB x %.0f%% usable)\n",
			   res->capacity_gb, f->ngpu, res->gpu_gb, f->lp.gpu_util * 100);
	nicfit_emit_printf(e, "  needs      %d GPU%s of this kind\n", res->gpus_needed,
			   res->gpus_needed == 1 ? "" : "s");
	if (lay->gpus > 1 && f->arch.heads > 0)
		nicfit_emit_printf(e, "  layout     %s: %d GPUs (tensor parallel divides the %d "
				      "attention and %d KV heads%s%s%s; pipeline stages across nodes "
				      "of %ld)\n", lay->name, lay->gpus, f->arch.heads, f->arch.kv_heads,
				   domain ? " inside the " : "", domain ? domain : "",
				   domain ? " domain" : "", f->gpn);
	else if (lay->gpus > 1)
		nicfit_emit_printf(e, "  layout     %s: %d GPUs (the heads are unknown: tensor parallel "
				      "in powers of two inside nodes of %ld; give --model)\n",
				   lay->name, lay->gpus, f->gpn);
}

int nicfit__calc_run_fit(struct req *r, const struct nicfit_catalog *cat, struct nicfit_emit *e)
{
	static const char *const known[] = { "model", "params", "precision", "gpus", "context",
		"concurrency", "gpus_per_node", "assume", NULL };
	struct fit f;
	struct nicfit_param_set tabs[1] = { { nicfit_llm_param_table, nicfit_llm_param_count, &f.lp } };
	const char *prv = nicfit_spec_get(r->s, "precision"), *gv;
	int rc;
	char b[32];

	memset(&f, 0, sizeof(f));
	f.prec = NICFIT_PREC_BF16;
	f.ngpu = 1;
	nicfit_llm_params_default(&f.lp);
	if ((rc = fit_model(r, cat, &f)))
		return rc;
	if (prv && (rc = nicfit__calc_fix(r, nicfit_precision_parse(prv, &f.prec, r->err))))
		return rc;
	if ((rc = nicfit__calc_need(r, "gpus", &gv)) ||
	    (rc = parse_gpus(r, cat, gv, &f.ngpu, &f.gpu, &f.mem)) ||
	    (rc = nicfit__calc_get_long(r, "context", 4096, 0, 100000000, &f.context)) ||
	    (rc = nicfit__calc_get_long(r, "concurrency", 1, 0, 100000000, &f.conc)) ||
	    (rc = nicfit__calc_get_long(r, "gpus_per_node", nicfit_gpus_per_node(f.gpu), 1, 1024, &f.gpn)) ||
	    (rc = nicfit__calc_apply_assume(r, tabs, 1)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	rc = nicfit__calc_fix(r, nicfit_calc_fit(&f.arch, f.prec, f.context, f.conc, f.ngpu, f.mem,
						 &f.lp, &f.res, r->err));
	if (rc)
		return rc;
	/* a count no layout can take (beyond a million GPUs) leaves the layout null */
	if (nicfit_layout_pick(&f.arch, f.model ? f.model->experts : 0, f.res.gpus_needed, (int)f.gpn,
			       f.gpu ? f.gpu->nvlink_domain : 0, &f.lay, NULL))
		memset(&f.lay, 0, sizeof(f.lay));
	nicfit__calc_header(e, "fit");
	emit_fit(e, &f);
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		struct nicfit__fit_md m = {
			.what = f.model ? f.model->e.name : b,
			.gpu = f.gpu ? f.gpu->e.name : "GPU", .prec = f.prec, .params = f.arch.params,
			.context = f.context, .concurrency = f.conc, .ngpu = f.ngpu,
			.gpu_util = f.lp.gpu_util, .res = &f.res, .lay = &f.lay,
		};

		if (!f.model)
			snprintf(b, sizeof(b), "%gB parameters", f.arch.params / 1e9);
		nicfit__calc_md_fit(e, &m);
		return nicfit__calc_done(e, tabs, 1);
	}
	text_fit(e, &f);
	nicfit__calc_assumptions(e, tabs, 1);
	nicfit_emit_end_object(e);
	return 0;
}

/* ---- stream -------------------------------------------------------------- */

int nicfit__calc_run_stream(struct req *r, struct nicfit_emit *e)
{
	static const char *const known[] = { "tokens_per_s", "concurrency", "link", "assume", NULL };
	struct nicfit_stream_params sp;
	struct nicfit_stream res;
	struct nicfit_speed link;
	struct nicfit_param_set tabs[1] = { { nicfit_stream_param_table, nicfit_stream_param_count, &sp } };
	double tps;
	long conc;
	int rc;

	nicfit_stream_params_default(&sp);
	if ((rc = nicfit__calc_get_double(r, "tokens_per_s", 30, 0.001, 1e6, &tps)) ||
	    (rc = nicfit__calc_get_long(r, "concurrency", 1, 1, 100000000, &conc)) ||
	    (rc = nicfit__calc_get_speed(r, "link", 0, &link)) ||
	    (rc = nicfit__calc_apply_assume(r, tabs, 1)) || (rc = nicfit__calc_unused(r, known)))
		return rc;
	rc = nicfit__calc_fix(r, nicfit_calc_stream(tps, conc, link.gbps, &sp, &res, r->err));
	if (rc)
		return rc;
	nicfit__calc_header(e, "stream");
	nicfit_emit_number(e, "tokens_per_s", tps);
	nicfit_emit_int(e, "concurrency", conc);
	nicfit_emit_number(e, "bytes_per_token", res.bytes_per_token);
	nicfit_emit_number(e, "per_request_kBps", res.per_request_kbps);
	nicfit_emit_number(e, "total_mbps", res.total_mbps);
	if (link.gbps > 0)
		nicfit_emit_number(e, "link_share", res.link_share);
	else
		nicfit_emit_null(e, "link_share");
	if (nicfit_emit_format(e) == NICFIT_FMT_MD) {
		nicfit__calc_md_stream(e, tps, conc, &res, &sp, link.gbps);
		return nicfit__calc_done(e, tabs, 1);
	}
	nicfit_emit_printf(e, "Token streaming: %g tokens/s per request, %ld concurrent\n", tps, conc);
	nicfit_emit_printf(e, "  per token    %.0f B on the wire (%g B event + %g B framing)\n",
			   res.bytes_per_token, sp.event_bytes, sp.wire_bytes);
	nicfit_emit_printf(e, "  per request  %.1f kB/s\n", res.per_request_kbps);
	nicfit_emit_printf(e, "  all requests %.2f Mb/s", res.total_mbps);
	if (link.gbps > 0)
		nicfit_emit_printf(e, " = %.4f%% of %g Gb/s", res.link_share * 100, link.gbps);
	nicfit_emit_printf(e, "\n");
	nicfit__calc_assumptions(e, tabs, 1);
	nicfit_emit_end_object(e);
	return 0;
}
