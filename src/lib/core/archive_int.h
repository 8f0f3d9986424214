/*
 * archive_int.h - libarchive, opened on first use (nicfit/dynlib.h), for
 * every file of the library that reads or writes an archive: snapshots
 * taken and unpacked (host/snapshot_*.c), bundles the dump reader opens
 * (dump/dump_path.c) and gzip files measured in memory (core/gzip.c).
 * Library-wide, like the other optional libraries' forwarders (xml_int.h,
 * scols_int.h, jansson_int.h).
 *
 * The table is seen only by a file that defines NICFIT_ARCHIVE_CALLS
 * before including this header: that file then calls libarchive's
 * functions through the table under their own names, while the tests,
 * which link libarchive itself and include the snapshot header for its
 * bounds, keep the real functions.
 */
#ifndef NICFIT_ARCHIVE_INT_H
#define NICFIT_ARCHIVE_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "archive_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include "nicfit/error.h"

#ifdef NICFIT_ARCHIVE_CALLS

#include <archive.h>
#include <archive_entry.h>

/*
 * libarchive, loaded on first use (see nicfit/dynlib.h): its functions are
 * called through this table, under their own names. dynlib_archive.c
 * defines the table and the list of symbols that fills it.
 */
struct nicfit__arc_table {
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
	__typeof__(archive_read_open_memory) *read_open_memory;
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

extern struct nicfit__arc_table nicfit__arc;

/* Load libarchive into nicfit__arc once: 0, or NICFIT_E_IO (nicfit_dynlib_load). */
int nicfit__arc_load(struct nicfit_error *err);

#define archive_entry_filetype (*nicfit__arc.entry_filetype)
#define archive_entry_free (*nicfit__arc.entry_free)
#define archive_entry_hardlink (*nicfit__arc.entry_hardlink)
#define archive_entry_new (*nicfit__arc.entry_new)
#define archive_entry_pathname (*nicfit__arc.entry_pathname)
#define archive_entry_set_filetype (*nicfit__arc.entry_set_filetype)
#define archive_entry_set_mtime (*nicfit__arc.entry_set_mtime)
#define archive_entry_set_pathname (*nicfit__arc.entry_set_pathname)
#define archive_entry_set_perm (*nicfit__arc.entry_set_perm)
#define archive_entry_set_size (*nicfit__arc.entry_set_size)
#define archive_entry_set_symlink (*nicfit__arc.entry_set_symlink)
#define archive_entry_size (*nicfit__arc.entry_size)
#define archive_error_string (*nicfit__arc.error_string)
#define archive_read_data_block (*nicfit__arc.read_data_block)
#define archive_read_free (*nicfit__arc.read_free)
#define archive_read_new (*nicfit__arc.read_new)
#define archive_read_next_header (*nicfit__arc.read_next_header)
#define archive_read_open_filename (*nicfit__arc.read_open_filename)
#define archive_read_open_memory (*nicfit__arc.read_open_memory)
#define archive_read_support_filter_bzip2 (*nicfit__arc.read_support_filter_bzip2)
#define archive_read_support_filter_gzip (*nicfit__arc.read_support_filter_gzip)
#define archive_read_support_filter_xz (*nicfit__arc.read_support_filter_xz)
#define archive_read_support_filter_zstd (*nicfit__arc.read_support_filter_zstd)
#define archive_read_support_format_raw (*nicfit__arc.read_support_format_raw)
#define archive_read_support_format_tar (*nicfit__arc.read_support_format_tar)
#define archive_write_add_filter_bzip2 (*nicfit__arc.write_add_filter_bzip2)
#define archive_write_add_filter_gzip (*nicfit__arc.write_add_filter_gzip)
#define archive_write_add_filter_xz (*nicfit__arc.write_add_filter_xz)
#define archive_write_add_filter_zstd (*nicfit__arc.write_add_filter_zstd)
#define archive_write_close (*nicfit__arc.write_close)
#define archive_write_data (*nicfit__arc.write_data)
#define archive_write_data_block (*nicfit__arc.write_data_block)
#define archive_write_disk_new (*nicfit__arc.write_disk_new)
#define archive_write_disk_set_options (*nicfit__arc.write_disk_set_options)
#define archive_write_finish_entry (*nicfit__arc.write_finish_entry)
#define archive_write_free (*nicfit__arc.write_free)
#define archive_write_header (*nicfit__arc.write_header)
#define archive_write_new (*nicfit__arc.write_new)
#define archive_write_open_fd (*nicfit__arc.write_open_fd)
#define archive_write_set_format_pax_restricted \
	(*nicfit__arc.write_set_format_pax_restricted)

#endif /* NICFIT_ARCHIVE_CALLS */

#endif
