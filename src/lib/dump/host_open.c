/*
 * host_open.c - open a host to read (see nicfit/host.h): a sysfs root, a
 * snapshot archive unpacked for the time the host is open, or dumps, each
 * made into the one topology model the engines read.
 *
 * It lives in dump/, not host/, by the layering rule: a file goes in the
 * lowest folder that can hold everything it calls, and opening dumps calls
 * the dump reader, which comes after host/. It composes the readers and
 * judges nothing; the audit, the planner and verify take the model from
 * here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/host.h"
#include "nicfit/snapshot.h"

/*
 * An error that names tree, the directory the archive was unpacked into
 * (or a path inside it), names archive instead: the user gave the
 * archive, and the tree is gone by the time the error is read.
 */
static void name_archive(struct nicfit_error *err, const char *tree, const char *archive)
{
	size_t n = strlen(tree);

	if (err && !strncmp(err->input, tree, n) && (!err->input[n] || err->input[n] == '/'))
		snprintf(err->input, sizeof(err->input), "%s", archive);
}

/* Discovery of the tree at root, its reads told to req's tracer if any. */
static int discover(const struct nicfit_host_request *req, const char *root,
		    struct nicfit_topo **topo, struct nicfit_error *err)
{
	struct nicfit_sysfs *fs;
	int rc;

	if (!req->trace)
		return nicfit_topo_discover(root, topo, err);
	rc = nicfit_sysfs_open(root, &fs, err);
	if (rc)
		return rc;
	nicfit_sysfs_trace(fs, req->trace, req->trace_ctx);
	rc = nicfit_topo_discover_fs(fs, topo, err);
	nicfit_sysfs_close(fs);
	return rc;
}

/*
 * A sysfs root, or an archive unpacked into h->tmpdir; the model keeps
 * root's name. A snapshot is checked whole before it is read
 * (nicfit_snapshot_check): one cut or interrupted is refused, an archive
 * without its manifest read with the reason it may not be whole.
 */
static int open_sysfs(struct nicfit_host *h, const struct nicfit_host_request *req,
		      const char *root, struct nicfit_error *err)
{
	char why[sizeof(h->topo->incomplete)];
	int rc;

	if (!nicfit_snapshot_is_archive(root)) {
		rc = strcmp(root, "/") ? nicfit_snapshot_check(root, root, 0, why, sizeof(why), err)
				       : 0;
		return rc ? rc : discover(req, root, &h->topo, err);
	}
	rc = nicfit_snapshot_extract(root, &h->tmpdir, &h->tmproot, err);
	if (rc)
		return rc;
	h->from_archive = 1;
	rc = nicfit_snapshot_check(h->tmproot, root, 1, why, sizeof(why), err);
	if (rc)
		return rc;
	rc = discover(req, h->tmproot, &h->topo, err);
	if (rc) {
		name_archive(err, h->tmproot, root);
		return rc;
	}
	snprintf(h->topo->root, sizeof(h->topo->root), "%s", root);
	snprintf(h->topo->incomplete, sizeof(h->topo->incomplete), "%s", why);
	return 0;
}

/* The dumps (paths, then the text in memory) read into one model. */
static int open_dumps(struct nicfit_host *h, const struct nicfit_host_request *req,
		      struct nicfit_error *err)
{
	int i, rc;

	if (req->ndumps > NICFIT_HOST_MAX_DUMPS)
		return nicfit_error_set(err, NICFIT_E_USAGE, "at most %d dumps",
					NICFIT_HOST_MAX_DUMPS);
	if (nicfit_dump_new(&h->dump))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	for (i = 0; i < req->ndumps; i++) {
		rc = nicfit_dump_add_path(h->dump, req->dumps[i], err);
		if (rc)
			return rc;
	}
	if (req->text) {
		rc = nicfit_dump_add_text(h->dump, req->text_name ? req->text_name : "<text>",
					  req->text, req->text_len, err);
		if (rc)
			return rc;
	}
	return nicfit_dump_topo(h->dump, &h->topo, err);
}

int nicfit_host_open(const struct nicfit_host_request *req, struct nicfit_host **out,
		     struct nicfit_error *err)
{
	struct nicfit_host *h;
	int rc;

	*out = NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	if (req->ndumps > 0 || req->text)
		rc = open_dumps(h, req, err);
	else
		rc = open_sysfs(h, req, req->root && *req->root ? req->root : "/", err);
	if (rc) {
		nicfit_host_close(h);
		return rc;
	}
	*out = h;
	return 0;
}

void nicfit_host_close(struct nicfit_host *h)
{
	if (!h)
		return;
	nicfit_topo_free(h->topo);
	nicfit_dump_free(h->dump);
	if (h->tmpdir)
		nicfit_snapshot_remove_tree(h->tmpdir);
	free(h->tmpdir);
	free(h->tmproot);
	free(h);
}
