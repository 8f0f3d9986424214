/*
 * snapshot_int.h - what the snapshot module's files share. Internal to
 * libnicfit.
 *
 * snapshot.c owns the test of whether a path names an archive;
 * snapshot_take.c (taking a snapshot) and snapshot_extract.c (reading an
 * archive back) use it, and neither uses the other. libarchive itself is
 * reached through core/archive_int.h.
 *
 * The bounds of nicfit_snapshot_extract() are a struct, so that the unit
 * tests and the fuzz harness can prove each bound with a small archive
 * instead of a 512 MiB one.
 */
#ifndef NICFIT_SNAPSHOT_INT_H
#define NICFIT_SNAPSHOT_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "snapshot_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include "nicfit/error.h"

struct nicfit__snapshot_limits {
	size_t max_bytes;    /* file content actually written, all entries together */
	size_t max_entries;  /* headers read, whatever they hold */
	size_t max_depth;    /* path components of one entry */
	size_t max_inflate;  /* gzip files inside, all together, by the size each says it
			      * inflates to (its ISIZE) and by what it inflates to when
			      * measured; 0: no bound, none measured */
	size_t max_gzip_file; /* one gzip file measured: its compressed bytes, and what a
			       * file of many members is inflated to (more is not read) */
};

/* nicfit_snapshot_extract() with other bounds (NULL: the public ones). */
int nicfit__snapshot_extract_limited(const char *archive, const struct nicfit__snapshot_limits *lim,
				     char **tmpdir, char **root, struct nicfit_error *err);
/*
 * A path nicfit_snapshot_remove_pending() removes on a signal until it is
 * dropped: an unpacked tree, an archive being written (snapshot_extract.c).
 */
void nicfit__snapshot_pending_add(const char *path);
void nicfit__snapshot_pending_drop(const char *path);

#endif
