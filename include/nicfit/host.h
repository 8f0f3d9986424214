/*
 * nicfit/host.h - open a host to read: one call for every way a command
 * names a machine.
 *
 * A host is given as a sysfs root (the live host's "/" or a copy of one),
 * as a snapshot archive that `nicfit snapshot` wrote (unpacked into a
 * temporary directory that the host object owns), or as the pasted output
 * of lspci, nvidia-smi, ibv_devinfo and their like (dump files, directories,
 * archives, "-" for standard input, or text already in memory). Whatever
 * the source, the result is the one topology model (nicfit/topo.h) the
 * engines read, and, for dumps, the dump reader that built it (its facts
 * are judged by the audit, nicfit_dump_judge). `audit`, `plan --from-host`,
 * `verify --sysfs/--dump` and `serve --sysfs` all open hosts here, so an
 * archive is accepted wherever a directory is.
 *
 * This module reads and judges nothing else: it does not audit.
 *
 * Ownership: nicfit_host_open() allocates the host; nicfit_host_close()
 * frees the model and the dump reader and removes the unpacked tree. While
 * the tree exists it is registered for nicfit_snapshot_remove_pending(), so
 * a program's SIGINT handler can remove it. A host is not shared between
 * threads while it is being opened or closed; once open, its model is only
 * read.
 */
#ifndef NICFIT_HOST_H
#define NICFIT_HOST_H

#include <stddef.h>

#include "nicfit/dump.h"
#include "nicfit/error.h"
#include "nicfit/topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many dump paths in one request (a sosreport is one). */
#define NICFIT_HOST_MAX_DUMPS 64

/*
 * Where the host is read from: dumps when ndumps or text is given, else
 * root. The strings are the caller's and are only read during the call.
 */
struct nicfit_host_request {
	const char *root;               /* sysfs root or snapshot archive; NULL or "": "/" */
	const char *const *dumps;       /* dump paths (files, directories, archives, "-") */
	int ndumps;
	const char *text;               /* dump text in memory (a request body), or NULL */
	size_t text_len;
	const char *text_name;          /* its name in errors; NULL: "<text>" */
	nicfit_sysfs_trace_fn trace;    /* told of each read of a sysfs tree (not of
					 * dumps), as nicfit_sysfs_trace; or NULL */
	void *trace_ctx;
};

/* An open host; read its fields, free it with nicfit_host_close(). */
struct nicfit_host {
	struct nicfit_topo *topo;       /* the model; its root names what the user gave
					 * (the archive, not the temporary tree) */
	struct nicfit_dump *dump;       /* the reader that built topo, NULL for sysfs */
	int from_archive;               /* root was a snapshot archive */
	char *tmpdir;                   /* the unpacked archive, removed on close; else NULL */
	char *tmproot;                  /* the sysfs root inside tmpdir; else NULL */
};

/*
 * Read the host req names into a new *out (NULL on error). A snapshot
 * archive (nicfit_snapshot_is_archive) is unpacked and discovered; an
 * error about a path inside the unpacked tree names the archive instead,
 * since the tree is gone when the error is read. Errors: those of
 * nicfit_topo_discover, nicfit_snapshot_extract, nicfit_dump_add_path and
 * nicfit_dump_topo; NICFIT_E_USAGE for more than NICFIT_HOST_MAX_DUMPS
 * dumps; NICFIT_E_NOMEM ("out of memory").
 */
int nicfit_host_open(const struct nicfit_host_request *req, struct nicfit_host **out,
		     struct nicfit_error *err);

/* Free h and remove its unpacked tree, if any. h may be NULL. */
void nicfit_host_close(struct nicfit_host *h);

#ifdef __cplusplus
}
#endif

#endif
