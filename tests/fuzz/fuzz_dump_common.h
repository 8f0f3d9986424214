/*
 * fuzz_dump_common.h - what every dump harness does with one text: add it
 * to a dump reader, build the model, judge it with the dump's comparison
 * and notes, and render the audit as JSON. The text is copied to a buffer
 * of its exact size, so ASan sees any read past its end. Included by
 * fuzz_dump*.c only.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/audit.h"
#include "nicfit/dump.h"
#include "nicfit/emit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* head (hn bytes, may be 0) then body (bn bytes), read as one pasted text */
static void fuzz_dump_text(const char *head, size_t hn, const uint8_t *body, size_t bn)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	struct nicfit_emit *e;
	size_t n = hn + bn;
	char *copy = malloc(n ? n : 1);

	if (!copy)
		return;
	if (hn)
		memcpy(copy, head, hn);
	if (bn)
		memcpy(copy + hn, body, bn);
	nicfit_error_clear(&err);
	if (nicfit_dump_new(&d)) {
		free(copy);
		return;
	}
	if (!nicfit_dump_add_text(d, "fuzz", copy, n, &err) && !nicfit_dump_topo(d, &t, &err) &&
	    !nicfit_audit_judge(t, NULL, NULL, &a, &err) && !nicfit_dump_judge(d, a, &err)) {
		e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
		if (e) {
			nicfit_audit_render(a, e);
			nicfit_emit_free(e);
		}
	}
	nicfit_audit_free(a);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
	free(copy);
}
