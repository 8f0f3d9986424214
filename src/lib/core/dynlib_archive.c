/*
 * dynlib_archive.c - libarchive's function table (core/archive_int.h),
 * filled on first use by nicfit_dynlib_load(), so that a process that
 * reads and writes no archive never loads the library.
 */
#define NICFIT_ARCHIVE_CALLS
#include "core/archive_int.h"
#include "nicfit/dynlib.h"
#include "nicfit_sonames.h"

struct nicfit__arc_table nicfit__arc;

static const struct nicfit_dynsym arc_syms[] = {
	{ "archive_entry_filetype", (void **)&nicfit__arc.entry_filetype },
	{ "archive_entry_free", (void **)&nicfit__arc.entry_free },
	{ "archive_entry_hardlink", (void **)&nicfit__arc.entry_hardlink },
	{ "archive_entry_new", (void **)&nicfit__arc.entry_new },
	{ "archive_entry_pathname", (void **)&nicfit__arc.entry_pathname },
	{ "archive_entry_set_filetype", (void **)&nicfit__arc.entry_set_filetype },
	{ "archive_entry_set_mtime", (void **)&nicfit__arc.entry_set_mtime },
	{ "archive_entry_set_pathname", (void **)&nicfit__arc.entry_set_pathname },
	{ "archive_entry_set_perm", (void **)&nicfit__arc.entry_set_perm },
	{ "archive_entry_set_size", (void **)&nicfit__arc.entry_set_size },
	{ "archive_entry_set_symlink", (void **)&nicfit__arc.entry_set_symlink },
	{ "archive_entry_size", (void **)&nicfit__arc.entry_size },
	{ "archive_error_string", (void **)&nicfit__arc.error_string },
	{ "archive_read_data_block", (void **)&nicfit__arc.read_data_block },
	{ "archive_read_free", (void **)&nicfit__arc.read_free },
	{ "archive_read_new", (void **)&nicfit__arc.read_new },
	{ "archive_read_next_header", (void **)&nicfit__arc.read_next_header },
	{ "archive_read_open_filename", (void **)&nicfit__arc.read_open_filename },
	{ "archive_read_open_memory", (void **)&nicfit__arc.read_open_memory },
	{ "archive_read_support_filter_bzip2",
	  (void **)&nicfit__arc.read_support_filter_bzip2 },
	{ "archive_read_support_filter_gzip",
	  (void **)&nicfit__arc.read_support_filter_gzip },
	{ "archive_read_support_filter_xz", (void **)&nicfit__arc.read_support_filter_xz },
	{ "archive_read_support_filter_zstd",
	  (void **)&nicfit__arc.read_support_filter_zstd },
	{ "archive_read_support_format_raw",
	  (void **)&nicfit__arc.read_support_format_raw },
	{ "archive_read_support_format_tar",
	  (void **)&nicfit__arc.read_support_format_tar },
	{ "archive_write_add_filter_bzip2", (void **)&nicfit__arc.write_add_filter_bzip2 },
	{ "archive_write_add_filter_gzip", (void **)&nicfit__arc.write_add_filter_gzip },
	{ "archive_write_add_filter_xz", (void **)&nicfit__arc.write_add_filter_xz },
	{ "archive_write_add_filter_zstd", (void **)&nicfit__arc.write_add_filter_zstd },
	{ "archive_write_close", (void **)&nicfit__arc.write_close },
	{ "archive_write_data", (void **)&nicfit__arc.write_data },
	{ "archive_write_data_block", (void **)&nicfit__arc.write_data_block },
	{ "archive_write_disk_new", (void **)&nicfit__arc.write_disk_new },
	{ "archive_write_disk_set_options", (void **)&nicfit__arc.write_disk_set_options },
	{ "archive_write_finish_entry", (void **)&nicfit__arc.write_finish_entry },
	{ "archive_write_free", (void **)&nicfit__arc.write_free },
	{ "archive_write_header", (void **)&nicfit__arc.write_header },
	{ "archive_write_new", (void **)&nicfit__arc.write_new },
	{ "archive_write_open_fd", (void **)&nicfit__arc.write_open_fd },
	{ "archive_write_set_format_pax_restricted",
	  (void **)&nicfit__arc.write_set_format_pax_restricted }
};

static const char *const arc_sonames[] = { NICFIT_SONAME_ARCHIVE, NULL };

static struct nicfit_dynlib arc_lib = {
	"libarchive", arc_sonames, NICFIT_PACKAGE_ARCHIVE, arc_syms,
	sizeof(arc_syms) / sizeof(arc_syms[0]), 0, ""
};

int nicfit__arc_load(struct nicfit_error *err)
{
	return nicfit_dynlib_load(&arc_lib, err);
}
