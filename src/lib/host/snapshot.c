/*
 * snapshot.c - what taking a snapshot and reading one back share (see
 * nicfit/snapshot.h): the libarchive function table, loaded on first use,
 * and whether a path names an archive.
 *
 * Taking a snapshot is snapshot_take.c; unpacking an archive for offline
 * audit is snapshot_extract.c. Both reach libarchive through the table
 * defined here (declared in snapshot_int.h); this file calls neither.
 */
#include <string.h>
#include <sys/stat.h>

#define NICFIT_SNAPSHOT_LIBARCHIVE
#include "host/snapshot_int.h"
#include "nicfit/dynlib.h"
#include "nicfit/snapshot.h"

struct nicfit__snapshot_arc_table nicfit__snapshot_arc;

static const struct nicfit_dynsym arc_syms[] = {
	{ "archive_entry_filetype", (void **)&nicfit__snapshot_arc.entry_filetype },
	{ "archive_entry_free", (void **)&nicfit__snapshot_arc.entry_free },
	{ "archive_entry_hardlink", (void **)&nicfit__snapshot_arc.entry_hardlink },
	{ "archive_entry_new", (void **)&nicfit__snapshot_arc.entry_new },
	{ "archive_entry_pathname", (void **)&nicfit__snapshot_arc.entry_pathname },
	{ "archive_entry_set_filetype", (void **)&nicfit__snapshot_arc.entry_set_filetype },
	{ "archive_entry_set_mtime", (void **)&nicfit__snapshot_arc.entry_set_mtime },
	{ "archive_entry_set_pathname", (void **)&nicfit__snapshot_arc.entry_set_pathname },
	{ "archive_entry_set_perm", (void **)&nicfit__snapshot_arc.entry_set_perm },
	{ "archive_entry_set_size", (void **)&nicfit__snapshot_arc.entry_set_size },
	{ "archive_entry_set_symlink", (void **)&nicfit__snapshot_arc.entry_set_symlink },
	{ "archive_entry_size", (void **)&nicfit__snapshot_arc.entry_size },
	{ "archive_error_string", (void **)&nicfit__snapshot_arc.error_string },
	{ "archive_read_data_block", (void **)&nicfit__snapshot_arc.read_data_block },
	{ "archive_read_free", (void **)&nicfit__snapshot_arc.read_free },
	{ "archive_read_new", (void **)&nicfit__snapshot_arc.read_new },
	{ "archive_read_next_header", (void **)&nicfit__snapshot_arc.read_next_header },
	{ "archive_read_open_filename", (void **)&nicfit__snapshot_arc.read_open_filename },
	{ "archive_read_support_filter_bzip2",
	  (void **)&nicfit__snapshot_arc.read_support_filter_bzip2 },
	{ "archive_read_support_filter_gzip",
	  (void **)&nicfit__snapshot_arc.read_support_filter_gzip },
	{ "archive_read_support_filter_xz", (void **)&nicfit__snapshot_arc.read_support_filter_xz },
	{ "archive_read_support_filter_zstd",
	  (void **)&nicfit__snapshot_arc.read_support_filter_zstd },
	{ "archive_read_support_format_raw",
	  (void **)&nicfit__snapshot_arc.read_support_format_raw },
	{ "archive_read_support_format_tar",
	  (void **)&nicfit__snapshot_arc.read_support_format_tar },
	{ "archive_write_add_filter_bzip2", (void **)&nicfit__snapshot_arc.write_add_filter_bzip2 },
	{ "archive_write_add_filter_gzip", (void **)&nicfit__snapshot_arc.write_add_filter_gzip },
	{ "archive_write_add_filter_xz", (void **)&nicfit__snapshot_arc.write_add_filter_xz },
	{ "archive_write_add_filter_zstd", (void **)&nicfit__snapshot_arc.write_add_filter_zstd },
	{ "archive_write_close", (void **)&nicfit__snapshot_arc.write_close },
	{ "archive_write_data", (void **)&nicfit__snapshot_arc.write_data },
	{ "archive_write_data_block", (void **)&nicfit__snapshot_arc.write_data_block },
	{ "archive_write_disk_new", (void **)&nicfit__snapshot_arc.write_disk_new },
	{ "archive_write_disk_set_options", (void **)&nicfit__snapshot_arc.write_disk_set_options },
	{ "archive_write_finish_entry", (void **)&nicfit__snapshot_arc.write_finish_entry },
	{ "archive_write_free", (void **)&nicfit__snapshot_arc.write_free },
	{ "archive_write_header", (void **)&nicfit__snapshot_arc.write_header },
	{ "archive_write_new", (void **)&nicfit__snapshot_arc.write_new },
	{ "archive_write_open_fd", (void **)&nicfit__snapshot_arc.write_open_fd },
	{ "archive_write_set_format_pax_restricted",
	  (void **)&nicfit__snapshot_arc.write_set_format_pax_restricted }
};

static const char *const arc_sonames[] = { "libarchive.so.13", "libarchive.so", NULL };

static struct nicfit_dynlib arc_lib = {
	"libarchive", arc_sonames, "libarchive13", arc_syms,
	sizeof(arc_syms) / sizeof(arc_syms[0]), 0, ""
};

int nicfit__snapshot_arc_load(struct nicfit_error *err)
{
	return nicfit_dynlib_load(&arc_lib, err);
}

int nicfit_snapshot_is_archive(const char *path)
{
	static const char *const ext[] = { ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz",
					   ".txz", ".tar.zst", ".tar", NULL };
	size_t n = strlen(path), e;
	struct stat sb;
	int i;

	for (i = 0; ext[i]; i++) {
		e = strlen(ext[i]);
		if (n > e && !strcmp(path + n - e, ext[i]))
			return 1;
	}
	/*
	 * Any other file that is not a directory is read as an archive too,
	 * and refused by its content when it is not one (a .zip says so,
	 * instead of "not a directory" from the tree reader).
	 */
	return !stat(path, &sb) && !S_ISDIR(sb.st_mode);
}
