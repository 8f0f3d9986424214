/*
 * fuzz_verify_common.h - what every verify harness does with one input:
 * give it to one parser (or to the recogniser), judge it against an
 * expectation of two nodes of 400G rails, render text, Markdown and JSON,
 * and check what must hold whatever the bytes: the peak is a row, ratios
 * are finite, verdicts and exit codes in range, and no report holds a raw
 * control or a character that hides what a name is (fuzz_clean.h: host,
 * HCA and GPU names come from the paste). Included by fuzz_verify*.c only.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/emit.h"
#include "nicfit/verify.h"
#include "verify/verify_int.h"
#include "fuzz_clean.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef int (*verify_parser)(struct nicfit_verify *v, const char *name, const char *text,
			     size_t len, struct nicfit_error *err);

static void check(const struct nicfit_verify *v)
{
	size_t i;

	for (i = 0; i < v->ndocs; i++) {
		const struct nicfit_verify_doc *d = &v->docs[i];

		if (d->kind == NICFIT_VERIFY_NCCL_TESTS && d->u.t.nrows && d->u.t.peak >= d->u.t.nrows)
			abort();
		if (d->expected_gbps > 0 && d->measured_gbps >= 0 && !isfinite(d->ratio))
			abort();
		if ((unsigned)d->verdict > NICFIT_VERDICT_ABOVE_LINE)
			abort();
	}
	if (nicfit_verify_exit_code(v) < 0 || nicfit_verify_exit_code(v) > 3)
		abort();
}

static void render(const struct nicfit_verify *v, enum nicfit_format f)
{
	struct nicfit_emit *e = nicfit_emit_new(f, 0, 0);
	struct nicfit_buf b;

	if (!e)
		return;
	nicfit_buf_init(&b, 0);
	if (!nicfit_verify_render(v, e) && !nicfit_emit_finish(e, &b))
		fuzz_clean(b.data, b.len, f);
	nicfit_emit_free(e);
	nicfit_buf_release(&b);
}

static int run_one(verify_parser parse, const uint8_t *data, size_t size)
{
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_verify_expect x;
	struct nicfit_error err;
	int rc;

	if (!v)
		return 0;
	nicfit_error_clear(&err);
	rc = parse ? parse(v, "fuzz", (const char *)data, size, &err)
		   : nicfit_verify_add_text(v, "fuzz", (const char *)data, size, &err);
	if (!rc) {
		nicfit_verify_expect_init(&x);
		nicfit_parse_speed("NDR", "fuzz", &x.link, NULL);
		x.nodes = 2;
		x.gpus_per_node = 8;
		if (!nicfit_verify_judge(v, &x, &err)) {
			check(v);
			render(v, NICFIT_FMT_TEXT);
			render(v, NICFIT_FMT_MD);
			render(v, NICFIT_FMT_JSON);
		}
	} else if (err.code != rc) {
		abort();
	}
	nicfit_verify_free(v);
	return 0;
}
