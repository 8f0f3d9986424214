/*
 * fuzz_audit_tree.c - the audit of a whole sysfs tree: a tree made from
 * the input (fuzz_tree.h) checked as a snapshot (nicfit_snapshot_check),
 * discovered and judged, then rendered in every format. Whatever the tree
 * holds, discovery ends with a model or an error that says something, and
 * a judged host always renders.
 */
#include "fuzz_tree.h"

#include "nicfit/audit.h"
#include "nicfit/emit.h"
#include "nicfit/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum nicfit_format fmts[] = { NICFIT_FMT_TEXT, NICFIT_FMT_JSON,
						   NICFIT_FMT_MD };
	const char *root = fuzz_tree_make(data, size);
	struct nicfit_topo *t = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	char why[256];
	size_t i;

	if (!root)
		return 0;
	nicfit_error_clear(&err);
	if (nicfit_snapshot_check(root, "fuzz", 0, why, sizeof(why), &err)) {
		if (!err.msg[0])
			abort();
		return 0;
	}
	nicfit_error_clear(&err);
	if (nicfit_topo_discover(root, &t, &err)) {
		if (!err.msg[0])
			abort();
		return 0;
	}
	nicfit_error_clear(&err);
	if (!nicfit_audit_judge(t, NULL, NULL, &a, &err)) {
		for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
			struct nicfit_emit *e = nicfit_emit_new(fmts[i], 0, 0);
			struct nicfit_buf out;

			if (!e)
				continue;
			nicfit_buf_init(&out, 0);
			if (nicfit_audit_render(a, e) || nicfit_emit_finish(e, &out))
				abort();
			nicfit_buf_release(&out);
			nicfit_emit_free(e);
		}
		nicfit_audit_free(a);
	} else if (!err.msg[0]) {
		abort();
	}
	nicfit_topo_free(t);
	return 0;
}
