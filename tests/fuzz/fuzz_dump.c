/*
 * fuzz_dump.c - pasted dumps (lspci -vvv and -t, nvidia-smi topo -m and
 * its GPU listings, in any mix): any bytes are read or refused with a
 * message, and a model built from them is judged and rendered, with the
 * dump's own comparison and notes, without a crash or a read past the
 * text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/audit.h"
#include "nicfit/dump.h"
#include "nicfit/emit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	struct nicfit_emit *e;
	char *copy = malloc(size ? size : 1); /* exact size: ASan sees a read past the end */

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	nicfit_error_clear(&err);
	if (nicfit_dump_new(&d)) {
		free(copy);
		return 0;
	}
	if (!nicfit_dump_add_text(d, "fuzz", copy, size, &err) && !nicfit_dump_topo(d, &t, &err) &&
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
	return 0;
}
