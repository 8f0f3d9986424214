/*
 * snapshot_render.c - the report of a snapshot taken (nicfit/snapshot.h):
 * what was written, from where, and what could not be read, through the
 * emitter (text, JSON "nicfit.snapshot.v1", Markdown), so that the CLI
 * only reads its options, takes the snapshot and writes this document.
 */
#include "nicfit/emit.h"
#include "nicfit/snapshot.h"

/* The JSON members: the counts and the paths that could not be read. */
static void render_json(const struct nicfit_snapshot_result *res, const char *root,
			const char *dest, struct nicfit_emit *e)
{
	size_t i;

	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.snapshot.v1");
	nicfit_emit_string(e, "source", root);
	nicfit_emit_string(e, "path", dest);
	nicfit_emit_string(e, "format", res->archive ? "archive" : "directory");
	nicfit_emit_int(e, "files", (long long)res->files);
	nicfit_emit_int(e, "links", (long long)res->links);
	nicfit_emit_int(e, "dirs", (long long)res->dirs);
	nicfit_emit_int(e, "bytes", (long long)res->bytes);
	nicfit_emit_bool(e, "privileged", res->privileged);
	nicfit_emit_int(e, "unreadable_total", (long long)res->nfailed);
	nicfit_emit_begin_array(e, "unreadable");
	for (i = 0; i < res->nfailed && i < NICFIT_SNAPSHOT_MAX_FAILURES; i++) {
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "path", res->failed[i].path);
		nicfit_emit_string(e, "problem", res->failed[i].why);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
}

int nicfit_snapshot_render(const struct nicfit_snapshot_result *res, const char *root,
			   const char *dest, struct nicfit_emit *e)
{
	size_t i;

	render_json(res, root, dest, e);
	nicfit_emit_printf(e, "Wrote %s: %zu files, %zu links, %zu directories (%zu bytes) from %s.\n",
			   dest, res->files, res->links, res->dirs, res->bytes, root);
	if (!res->privileged)
		nicfit_emit_printf(e, "Taken without root: config space is the first 64 bytes and VPD "
				   "is absent, as an unprivileged audit sees them.\n");
	if (res->nfailed) {
		nicfit_emit_printf(e, "%zu path%s could not be read and %s not in the copy:\n",
				   res->nfailed, res->nfailed == 1 ? "" : "s",
				   res->nfailed == 1 ? "is" : "are");
		for (i = 0; i < res->nfailed && i < NICFIT_SNAPSHOT_MAX_FAILURES; i++)
			nicfit_emit_printf(e, "  %s: %s\n", res->failed[i].path, res->failed[i].why);
	}
	nicfit_emit_printf(e, "Audit it anywhere with: nicfit audit --sysfs %s\n", dest);
	return 0;
}
