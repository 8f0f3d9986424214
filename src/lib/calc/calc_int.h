/*
 * calc_int.h - what the calculators' files share (internal): the request
 * being read and its helpers (calc_req.c), the --size of load and
 * allreduce (calc_size.c), the calculators nicfit_calc_run() in calc.c
 * dispatches to (calc_pcie.c, calc_link.c, calc_llm.c, calc_step.c), and
 * the Markdown answers (calc_md.c) they render with --format md.
 */
#ifndef NICFIT_CALC_INT_H
#define NICFIT_CALC_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "calc_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include "nicfit/calc.h"
#include "nicfit/link.h"
#include "nicfit/llm.h"
#include "nicfit/pcie.h"
#include "nicfit/perf.h"
#include "nicfit/spec.h"
#include "nicfit/step.h"

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
/* A flag: true, yes or 1; false, no or 0; absent is false. */
int nicfit__calc_get_bool(struct req *r, const char *key, int *out);
/* A speed (required or not: then out->gbps stays 0). */
int nicfit__calc_get_speed(struct req *r, const char *key, int required, struct nicfit_speed *out);
int nicfit__calc_get_proto(struct req *r, enum nicfit_proto def, enum nicfit_proto *out);
/*
 * A link: the speed of setting key (required or not) and "proto" over it,
 * by default InfiniBand for an InfiniBand rate and eth_def otherwise. A
 * pair that cannot be (nicfit_link_check: "--speed 25G --proto ib",
 * "--link HDR --proto roce") is a usage error naming the setting, the
 * value as typed and the protocol given, with what the protocol takes.
 */
int nicfit__calc_get_link(struct req *r, const char *key, int required, enum nicfit_proto eth_def,
			  struct nicfit_speed *sp, enum nicfit_proto *proto);
/* Apply every "assume" pair to whichever set knows its name. */
int nicfit__calc_apply_assume(struct req *r, const struct nicfit_param_set *sets, size_t nsets);
/* A usage error for a setting the calculator does not know. */
int nicfit__calc_unused(struct req *r, const char *const *known);
/* Open the document: "schema": "nicfit.calc.<name>.v1". */
void nicfit__calc_header(struct nicfit_emit *e, const char *name);
/* The assumptions of tabs, in JSON and text. */
void nicfit__calc_assumptions(struct nicfit_emit *e, const struct nicfit_param_set *tabs, int ntabs);

/*
 * A --size of calc load or allreduce: bytes ("40GB"), or a parameter count
 * ("70B") at --precision's bits per parameter, as calc fit counts them
 * (default bf16: 2 bytes, what checkpoints and gradients are kept in).
 */
struct nicfit__calc_size {
	double bytes;
	double params;               /* 0: the size was given in bytes */
	double bits;                 /* bits per parameter; 0 with bytes */
	enum nicfit_precision prec;
	struct nicfit_llm_params lp; /* int4's group layout */
};
/*
 * int4's bits per parameter depend on group_size, scale_bits and zero_bits,
 * the first rows of nicfit_llm_param_table: the assumptions a size in
 * int4 parameters lists (test_physics holds the rows to those names).
 */
#define NICFIT__CALC_INT4_PARAMS 3
/*
 * Read --size (setting key) and --precision into z. The bytes of a count
 * wait for nicfit__calc_size_bytes(), once the assumptions are applied.
 */
int nicfit__calc_size_get(struct req *r, const char *key, struct nicfit__calc_size *z);
/* The table a size adds to the assumptions (into *tab): 1 for a count in int4, else 0. */
int nicfit__calc_size_tabs(struct nicfit__calc_size *z, struct nicfit_param_set *tab);
/* Work out the bytes of a parameter count. */
void nicfit__calc_size_bytes(struct nicfit__calc_size *z);
/* The size's text: "140.0 GB", or "70B parameters x 16 bits (bf16) = 140.0 GB". */
const char *nicfit__calc_size_text(const struct nicfit__calc_size *z, char *out, size_t n);
/* The size's JSON fields: size_gb, and params, precision, bytes_per_param. */
void nicfit__calc_size_emit(struct nicfit_emit *e, const struct nicfit__calc_size *z);
/* The text line of a size given in parameters ("what": weights, gradients). */
void nicfit__calc_size_explain(struct nicfit_emit *e, const struct nicfit__calc_size *z,
			       const char *what);

/*
 * calc_serving.c: the pools of a disaggregated prefill step (calc step
 * --disaggregated): _read reads --output-tokens, --ttft-ms, --tpot-ms and
 * --requests-per-s, nicfit__calc_step_pools sizes them with the step's
 * job as each pool's instance (*known 0: not worked out); _emit writes
 * "pools" and its text lines.
 */
struct nicfit_serving;
struct nicfit_serving_ask;
struct nicfit_serving_params;
int nicfit__calc_step_pools_read(struct req *r, int disagg, struct nicfit_serving_ask *a);
int nicfit__calc_step_pools(struct req *r, const struct nicfit_step_job *j,
			    const struct nicfit_llm_params *lp, const struct nicfit_step_params *sp,
			    const struct nicfit_serving_params *svp, double prompt, double rail_gbps,
			    double latency_us, struct nicfit_serving *out, struct nicfit_serving_ask *a,
			    int *known);
void nicfit__calc_step_pools_emit(struct nicfit_emit *e, const struct nicfit_serving_ask *a,
				  const struct nicfit_serving *s, double pool_load, int known);

/* The assumptions, then the end of the document: every calculator's last calls. */
int nicfit__calc_done(struct nicfit_emit *e, const struct nicfit_param_set *tabs, int ntabs);

/*
 * calc_md.c: the Markdown answer. _title writes "# headline" and opens the
 * figures' table, _row adds a figure, _formula closes the table and opens
 * the formula's block, _end closes it; the _<calculator> functions write a
 * whole answer from that calculator's result.
 */
void nicfit__calc_md_title(struct nicfit_emit *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void nicfit__calc_md_row(struct nicfit_emit *e, const char *figure, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void nicfit__calc_md_formula(struct nicfit_emit *e);
void nicfit__calc_md_end(struct nicfit_emit *e);
void nicfit__calc_md_pcie(struct nicfit_emit *e, const struct nicfit_pcie_result *r,
			  const struct nicfit_pcie_params *pp);
void nicfit__calc_md_link(struct nicfit_emit *e, const struct nicfit_link_result *l);
void nicfit__calc_md_nic(struct nicfit_emit *e, const struct nicfit_nic_fit *r,
			 const struct nicfit_card *card, const struct nicfit_nic *nic,
			 const char *part, int gen, int width, enum nicfit_proto proto);
void nicfit__calc_md_load(struct nicfit_emit *e, const struct nicfit__calc_size *z,
			  const struct nicfit_load *r, double storage_gbps);
void nicfit__calc_md_allreduce(struct nicfit_emit *e, const struct nicfit__calc_size *z,
			       const struct nicfit_allreduce *r, int sharp);
void nicfit__calc_md_stream(struct nicfit_emit *e, double tps, long conc,
			    const struct nicfit_stream *r, const struct nicfit_stream_params *sp,
			    double link_gbps);

/* What `calc fit` shows in Markdown. */
struct nicfit__fit_md {
	const char *what;  /* the model's name, or its parameter count */
	const char *gpu;   /* the GPU's name, or "GPU" */
	enum nicfit_precision prec;
	double params;
	long context, concurrency;
	int ngpu;
	double gpu_util;
	const struct nicfit_fit *res;
	const struct nicfit_layout *lay;
};
void nicfit__calc_md_fit(struct nicfit_emit *e, const struct nicfit__fit_md *f);

/*
 * The calculators, each reading its settings from r and rendering into e:
 * calc_pcie.c (pcie, nic), calc_link.c (link, load, allreduce), calc_llm.c
 * (fit, stream), calc_step.c (step). cat supplies parts, GPUs and models.
 */
int nicfit__calc_run_pcie(struct req *r, struct nicfit_emit *e);
int nicfit__calc_run_nic(struct req *r, const struct nicfit_catalog *cat, struct nicfit_emit *e);
int nicfit__calc_run_link(struct req *r, struct nicfit_emit *e);
int nicfit__calc_run_load(struct req *r, struct nicfit_emit *e);
int nicfit__calc_run_allreduce(struct req *r, struct nicfit_emit *e);
int nicfit__calc_run_fit(struct req *r, const struct nicfit_catalog *cat, struct nicfit_emit *e);
int nicfit__calc_run_stream(struct req *r, struct nicfit_emit *e);
int nicfit__calc_run_step(struct req *r, const struct nicfit_catalog *cat, struct nicfit_emit *e);

#endif
