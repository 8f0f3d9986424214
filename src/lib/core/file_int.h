/*
 * file_int.h - path and text helpers the library's readers of trees and
 * pasted text share.
 *
 * Internal to libnicfit; the public reader is in nicfit/file.h.
 */
#ifndef NICFIT_FILE_INT_H
#define NICFIT_FILE_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "file_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>
#include <stdint.h>

/*
 * The records getdents64(2) fills: the fixed head, then the name with its
 * NUL. Only its layout is used: the fields are copied out of the buffer by
 * their offsets (sysfs_read.c's listings, snapshot_extract.c's removal).
 */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Join dir and a link target lexically, as the kernel would resolve a
 * relative symlink inside a tree whose root is "": "sys/bus/pci/devices"
 * and "../../../devices/pci0000:00" give "sys/devices/pci0000:00". An
 * absolute target starts again from the root; "." and empty components
 * are dropped; ".." above the root stays at the root. The result has no
 * leading or trailing '/'. Returns 0, or -1 when it does not fit in cap.
 */
int nicfit__path_join(char *out, size_t cap, const char *dir, const char *target);

/*
 * Split line in place into at most max tokens separated by blanks and
 * tabs (each token NUL-terminated); tok[] gets pointers into line.
 * Returns the count.
 */
int nicfit__split_blanks(char *line, char **tok, int max);

#endif
