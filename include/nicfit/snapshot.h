/*
 * nicfit/snapshot.h - copy exactly what the audit reads, for offline audit.
 *
 * nicfit_snapshot_take() runs discovery (nicfit/topo.h) on a root with the
 * sysfs recorder on, then writes every file it read (the bytes it read),
 * every symbolic link it followed (as a link, target unchanged), and every
 * directory it listed, into a new directory or a .tar.gz archive. Paths
 * that could not be read are listed, not copied; nothing else is copied.
 * The copy is a filesystem root holding sys/ and proc/, so
 * `nicfit audit --sysfs COPY` reads it as it reads the host, and the audit
 * of the copy equals the audit of the host (only what could not be read at
 * all is missing, so read problems are not repeated). It holds no CPU
 * topology beyond what the audit reads, so it is not a full hwloc tree. A
 * nicfit-snapshot.json manifest at the top says where and when it was
 * taken and what could not be read.
 *
 * No root is needed: an unprivileged snapshot holds what an unprivileged
 * audit reads (config space is then 64 bytes, VPD absent).
 *
 * Archives are written and read with libarchive. Reading accepts what a
 * snapshot can be, recognized by content whatever the file is called: a
 * tar archive (ustar, pax or GNU), plain or compressed with gzip, bzip2,
 * xz or zstd (a hwloc-gather-topology .tar.bz2 too); anything else (zip,
 * cpio, 7z, ...) is refused as "not a snapshot archive". Reading refuses
 * absolute paths and "..", writes files, directories and links only, with
 * fixed modes (0644, 0755), and is bounded in the bytes it actually
 * writes, in entries and in depth; on any failure everything it wrote is
 * removed.
 *
 * The result of nicfit_snapshot_take() is a caller-owned struct that the
 * call fills (it need not be prepared); nicfit_snapshot_result_release()
 * frees the failure paths it holds and leaves it empty, ready for reuse.
 * nicfit_snapshot_extract() allocates the two strings it returns; the
 * caller frees them, and removes the directory, when done.
 */
#ifndef NICFIT_SNAPSHOT_H
#define NICFIT_SNAPSHOT_H

#include <stddef.h>

#include "nicfit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NICFIT_SNAPSHOT_MAX_FAILURES 64
/*
 * Bounds on an archive read back: file content actually written, entries
 * (headers of any type), and path components of one entry. A snapshot of
 * a large host holds a few thousand entries at most 20 levels deep; the
 * bounds leave a margin of more than ten times that.
 */
#define NICFIT_SNAPSHOT_MAX_BYTES ((size_t)512 << 20)
#define NICFIT_SNAPSHOT_MAX_ENTRIES 100000
#define NICFIT_SNAPSHOT_MAX_DEPTH 64

struct nicfit_snapshot_failure {
	char *path;
	const char *why;          /* static text */
};

struct nicfit_snapshot_result {
	size_t files, links, dirs;
	size_t bytes;             /* file content written */
	size_t nfailed;           /* paths that could not be read */
	struct nicfit_snapshot_failure failed[NICFIT_SNAPSHOT_MAX_FAILURES];
	int archive;              /* written as an archive */
	int privileged;           /* config space beyond 64 bytes was readable */
};

/*
 * 1 when path names an archive: by its name (.tar.gz, .tgz, .tar.bz2,
 * .tbz2, .tar.xz, .txz, .tar.zst, .tar), or, for a path that exists, by
 * not being a directory (extraction then judges its content).
 */
int nicfit_snapshot_is_archive(const char *path);

/*
 * Snapshot root (NULL or "/" for this host) into dest: a directory that
 * does not exist yet (or is empty), or an archive path; it is created
 * with O_EXCL (an archive) or opened with O_NOFOLLOW (a directory), so
 * nothing is written through a symbolic link. Errors: NICFIT_E_USAGE when
 * dest exists and is not an empty directory, or is a symbolic link
 * (whatever it names); NICFIT_E_IO when it cannot be written; those of
 * nicfit_topo_discover.
 */
int nicfit_snapshot_take(const char *root, const char *dest,
			 struct nicfit_snapshot_result *res, struct nicfit_error *err);
void nicfit_snapshot_result_release(struct nicfit_snapshot_result *res);

/*
 * The report of res, a snapshot of root written to dest, through e: text
 * for people, or the "nicfit.snapshot.v1" document (counts, format,
 * privileged, the paths that could not be read). Returns 0; the
 * emitter's sticky error says whether it was all written.
 */
struct nicfit_emit;
int nicfit_snapshot_render(const struct nicfit_snapshot_result *res, const char *root,
			   const char *dest, struct nicfit_emit *e);

/*
 * Unpack an archive into a new temporary directory (under $TMPDIR or
 * /tmp). *tmpdir gets that directory (remove it with
 * nicfit_snapshot_remove_tree, then free it) and *root the directory
 * inside it that holds sys/ (free it). Errors: NICFIT_E_NOTFOUND,
 * NICFIT_E_DATA (not a snapshot archive, unsafe paths, no sys/ inside),
 * NICFIT_E_LIMIT (over a bound above), NICFIT_E_IO. On an error nothing
 * is left in the temporary directory, and the directory is gone.
 */
int nicfit_snapshot_extract(const char *archive, char **tmpdir, char **root,
			    struct nicfit_error *err);

/*
 * nicfit_snapshot_extract() of a bundle that need not be a sysfs snapshot
 * (a sosreport or supportconfig archive, which the dump reader reads): the
 * same checks and bounds, but no sys/ inside is no error, and *root is
 * then the top of what was unpacked.
 */
int nicfit_snapshot_extract_bundle(const char *archive, char **tmpdir, char **root,
				   struct nicfit_error *err);

/*
 * Whether the snapshot tree at root, as name (the directory or archive the
 * user gave) says, is whole. The manifest is written last, so a snapshot
 * stopped half-way has none: a tree holding nicfit-snapshot.partial (a
 * snapshot being written, or one whose run was killed) is refused, and so
 * is one with fewer files, links or directories than its manifest lists
 * (NICFIT_E_DATA, naming what is missing: the copy was cut). A tree with
 * its manifest and every entry it lists is whole: 0, why "". Without a
 * manifest, an archive cannot be told from one cut short (or packed by
 * another tool): 0, and why says so, for the audit's critical
 * snapshot-incomplete finding. A directory without one is a sysfs tree
 * (the host's own, or a copy made otherwise): 0, why "". Entries are
 * counted up to NICFIT_SNAPSHOT_MAX_ENTRIES and NICFIT_SNAPSHOT_MAX_DEPTH.
 */
int nicfit_snapshot_check(const char *root, const char *name, int archive, char *why,
			  size_t n, struct nicfit_error *err);

/*
 * Remove a directory tree without following links. Returns 0 or -1.
 * Async-signal-safe (system calls only, nothing allocated).
 */
int nicfit_snapshot_remove_tree(const char *dir);

/*
 * Remove every tree nicfit_snapshot_extract() (or the dump reader, for a
 * sosreport archive) unpacked in this process that is not removed yet,
 * the one being unpacked included. Async-signal-safe: for the handler of
 * SIGINT or SIGTERM of a program, which then re-raises the signal (the
 * library installs no handler). Returns 0, or -1 when something could not
 * be removed.
 */
int nicfit_snapshot_remove_pending(void);

#ifdef __cplusplus
}
#endif

#endif
