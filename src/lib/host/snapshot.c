/*
 * snapshot.c - what taking a snapshot and reading one back share (see
 * nicfit/snapshot.h): whether a path names an archive.
 *
 * Taking a snapshot is snapshot_take.c; unpacking an archive for offline
 * audit is snapshot_extract.c. Both reach libarchive through
 * core/archive_int.h; this file calls neither.
 */
#include <string.h>
#include <sys/stat.h>

#include "nicfit/snapshot.h"

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
