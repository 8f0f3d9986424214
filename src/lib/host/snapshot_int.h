/*
 * snapshot_int.h - what the snapshot module's files share. Internal to
 * libnicfit.
 *
 * snapshot.c owns the libarchive function table, loaded on first use, and
 * the test of whether a path names an archive; snapshot_take.c (taking a
 * snapshot) and snapshot_extract.c (reading an archive back) use them,
 * and neither uses the other.
 *
 * The bounds of nicfit_snapshot_extract() are a struct, so that the unit
 * tests and the fuzz harness can prove each bound with a small archive
 * instead of a 512 MiB one. The libarchive table is seen only by a file
 * that defines NICFIT_SNAPSHOT_LIBARCHIVE before including this header:
 * that file then calls libarchive's functions through the table under
 * their own names, while the tests, which link libarchive itself and
 * include this header for the bounds, keep the real functions.
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
};

/* nicfit_snapshot_extract() with other bounds (NULL: the public ones). */
int nicfit__snapshot_extract_limited(const char *archive, const struct nicfit__snapshot_limits *lim,
				     char **tmpdir, char **root, struct nicfit_error *err);
/*
 * nicfit_snapshot_extract() of a bundle that need not be a sysfs snapshot
 * (a sosreport or supportconfig archive read by the dump reader): no sys/
 * inside is no error, and *root is then the top of what was unpacked.
 */
int nicfit__snapshot_extract_tree(const char *archive, char **tmpdir, char **root,
				  struct nicfit_error *err);

/*
 * A path nicfit_snapshot_remove_pending() removes on a signal until it is
 * dropped: an unpacked tree, an archive being written (snapshot_extract.c).
 */
void nicfit__snapshot_pending_add(const char *path);
void nicfit__snapshot_pending_drop(const char *path);

#ifdef NICFIT_SNAPSHOT_LIBARCHIVE

#include <archive.h>
#include <archive_entry.h>

/*
 * libarchive, loaded on first use (see nicfit/dynlib.h): its functions are
 * called through this table, under their own names. snapshot.c defines
 * the table and the list of symbols that fills it.
 */
struct nicfit__snapshot_arc_table {
	__typeof__(archive_entry_filetype) *entry_filetype;
	__typeof__(archive_entry_free) *entry_free;
	__typeof__(archive_entry_hardlink) *entry_hardlink;
	__typeof__(archive_entry_new) *entry_new;
	__typeof__(archive_entry_pathname) *entry_pathname;
	__typeof__(archive_entry_set_filetype) *entry_set_filetype;
	__typeof__(archive_entry_set_mtime) *entry_set_mtime;
	__typeof__(archive_entry_set_pathname) *entry_set_pathname;
	__typeof__(archive_entry_set_perm) *entry_set_perm;
	__typeof__(archive_entry_set_size) *entry_set_size;
	__typeof__(archive_entry_set_symlink) *entry_set_symlink;
	__typeof__(archive_entry_size) *entry_size;
	__typeof__(archive_error_string) *error_string;
	__typeof__(archive_read_data_block) *read_data_block;
	__typeof__(archive_read_free) *read_free;
	__typeof__(archive_read_new) *read_new;
	__typeof__(archive_read_next_header) *read_next_header;
	__typeof__(archive_read_open_filename) *read_open_filename;
	__typeof__(archive_read_support_filter_bzip2) *read_support_filter_bzip2;
	__typeof__(archive_read_support_filter_gzip) *read_support_filter_gzip;
	__typeof__(archive_read_support_filter_xz) *read_support_filter_xz;
	__typeof__(archive_read_support_filter_zstd) *read_support_filter_zstd;
	__typeof__(archive_read_support_format_raw) *read_support_format_raw;
	__typeof__(archive_read_support_format_tar) *read_support_format_tar;
	__typeof__(archive_write_add_filter_bzip2) *write_add_filter_bzip2;
	__typeof__(archive_write_add_filter_gzip) *write_add_filter_gzip;
	__typeof__(archive_write_add_filter_xz) *write_add_filter_xz;
	__typeof__(archive_write_add_filter_zstd) *write_add_filter_zstd;
	__typeof__(archive_write_close) *write_close;
	__typeof__(archive_write_data) *write_data;
	__typeof__(archive_write_data_block) *write_data_block;
	__typeof__(archive_write_disk_new) *write_disk_new;
	__typeof__(archive_write_disk_set_options) *write_disk_set_options;
	__typeof__(archive_write_finish_entry) *write_finish_entry;
	__typeof__(archive_write_free) *write_free;
	__typeof__(archive_write_header) *write_header;
	__typeof__(archive_write_new) *write_new;
	__typeof__(archive_write_open_fd) *write_open_fd;
	__typeof__(archive_write_set_format_pax_restricted) *write_set_format_pax_restricted;
};

extern struct nicfit__snapshot_arc_table nicfit__snapshot_arc;

/* Load libarchive into nicfit__snapshot_arc once: 0, or NICFIT_E_IO (nicfit_dynlib_load). */
int nicfit__snapshot_arc_load(struct nicfit_error *err);

#define archive_entry_filetype (*nicfit__snapshot_arc.entry_filetype)
#define archive_entry_free (*nicfit__snapshot_arc.entry_free)
#define archive_entry_hardlink (*nicfit__snapshot_arc.entry_hardlink)
#define archive_entry_new (*nicfit__snapshot_arc.entry_new)
#define archive_entry_pathname (*nicfit__snapshot_arc.entry_pathname)
#define archive_entry_set_filetype (*nicfit__snapshot_arc.entry_set_filetype)
#define archive_entry_set_mtime (*nicfit__snapshot_arc.entry_set_mtime)
#define archive_entry_set_pathname (*nicfit__snapshot_arc.entry_set_pathname)
#define archive_entry_set_perm (*nicfit__snapshot_arc.entry_set_perm)
#define archive_entry_set_size (*nicfit__snapshot_arc.entry_set_size)
#define archive_entry_set_symlink (*nicfit__snapshot_arc.entry_set_symlink)
#define archive_entry_size (*nicfit__snapshot_arc.entry_size)
#define archive_error_string (*nicfit__snapshot_arc.error_string)
#define archive_read_data_block (*nicfit__snapshot_arc.read_data_block)
#define archive_read_free (*nicfit__snapshot_arc.read_free)
#define archive_read_new (*nicfit__snapshot_arc.read_new)
#define archive_read_next_header (*nicfit__snapshot_arc.read_next_header)
#define archive_read_open_filename (*nicfit__snapshot_arc.read_open_filename)
#define archive_read_support_filter_bzip2 (*nicfit__snapshot_arc.read_support_filter_bzip2)
#define archive_read_support_filter_gzip (*nicfit__snapshot_arc.read_support_filter_gzip)
#define archive_read_support_filter_xz (*nicfit__snapshot_arc.read_support_filter_xz)
#define archive_read_support_filter_zstd (*nicfit__snapshot_arc.read_support_filter_zstd)
#define archive_read_support_format_raw (*nicfit__snapshot_arc.read_support_format_raw)
#define archive_read_support_format_tar (*nicfit__snapshot_arc.read_support_format_tar)
#define archive_write_add_filter_bzip2 (*nicfit__snapshot_arc.write_add_filter_bzip2)
#define archive_write_add_filter_gzip (*nicfit__snapshot_arc.write_add_filter_gzip)
#define archive_write_add_filter_xz (*nicfit__snapshot_arc.write_add_filter_xz)
#define archive_write_add_filter_zstd (*nicfit__snapshot_arc.write_add_filter_zstd)
#define archive_write_close (*nicfit__snapshot_arc.write_close)
#define archive_write_data (*nicfit__snapshot_arc.write_data)
#define archive_write_data_block (*nicfit__snapshot_arc.write_data_block)
#define archive_write_disk_new (*nicfit__snapshot_arc.write_disk_new)
#define archive_write_disk_set_options (*nicfit__snapshot_arc.write_disk_set_options)
#define archive_write_finish_entry (*nicfit__snapshot_arc.write_finish_entry)
#define archive_write_free (*nicfit__snapshot_arc.write_free)
#define archive_write_header (*nicfit__snapshot_arc.write_header)
#define archive_write_new (*nicfit__snapshot_arc.write_new)
#define archive_write_open_fd (*nicfit__snapshot_arc.write_open_fd)
#define archive_write_set_format_pax_restricted \
	(*nicfit__snapshot_arc.write_set_format_pax_restricted)

#endif /* NICFIT_SNAPSHOT_LIBARCHIVE */

#endif
