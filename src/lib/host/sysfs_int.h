/*
 * sysfs_int.h - what the files of the sysfs layer share (not public).
 *
 * The layer is nicfit/sysfs.h; its files are cut by concept: sysfs.c
 * opens and closes a root; sysfs_problem.c keeps the problems met;
 * sysfs_resolve.c finds a path
 * inside the root (links followed as if the root were "/"); sysfs_read.c
 * holds the typed readers, the directory lister and the existence test;
 * sysfs_record.c is the recorder behind snapshots; sysfs_parse.c holds
 * the pure parsers of sysfs strings. Every reader ends in the same two
 * calls: nicfit__sysfs_problem() for what went wrong and
 * nicfit__sysfs_record() for what a snapshot must hold. Calls go one way
 * only: sysfs.c uses sysfs_resolve.c and sysfs_record.c to close a root,
 * sysfs_read.c uses sysfs_resolve.c, and the readers use sysfs_problem.c
 * and sysfs_record.c, which call none of them.
 */
#ifndef NICFIT_SYSFS_INT_H
#define NICFIT_SYSFS_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "sysfs_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nicfit/sysfs.h"

/* One kept problem (the first NICFIT_SYSFS_MAX_PROBLEMS are kept). */
struct sysfs_problem {
	char *path;             /* root-relative, malloc'd */
	enum nicfit_sysfs_status st;
	int errnum;
};

/*
 * Discovery reads a device's files, then its net/ or infiniband/ ports,
 * then the next device's: a few directories kept open (as the caller
 * named them, links inside resolved) let most opens be one openat() of a
 * file name, and a subdirectory of a kept one is reached by opening its
 * remaining components (one openat2() that refuses links, where the
 * kernel has it), not by resolving the path again. A host's later passes
 * (classification's config reads, class devices, the links) come back
 * to the functions' directories: 128 kept cover an 8-GPU host's (hgx-h100
 * opens 154 directories), so each is opened about once. A kept path has
 * 256 bytes (a function 8 bridges deep and a class directory below it
 * need under 200): the entries fit in 9 pages; a longer directory takes
 * the one slot kept for those (longdir).
 */
#define NICFIT_SYSFS_DIR_CACHE 128
#define NICFIT_SYSFS_DIR_INDEX 1024 /* a power of two, 8 times the cache's size */
#define NICFIT_SYSFS_DIR_PATH 256

struct sysfs_dir {
	int fd;                 /* O_PATH, or -1 */
	unsigned used;          /* fs->dirclock at the last use */
	unsigned uses;          /* 1: found by a look-up since the clock's hand passed it */
	size_t len;
	size_t hash;            /* of path, so that a look-up compares few paths */
	char path[NICFIT_SYSFS_DIR_PATH];
};

struct nicfit_sysfs {
	int rootfd;
	int live;
	int use_openat2;        /* the kernel has openat2(RESOLVE_IN_ROOT) */
	char root[NICFIT_SYSFS_PATH_MAX];
	struct sysfs_problem problems[NICFIT_SYSFS_MAX_PROBLEMS];
	size_t nproblems;       /* all met, kept or not */
	int recording;
	struct nicfit_rec *recs;
	size_t nrecs, allocrecs;
	size_t *hash;           /* open addressing: index + 1 into recs, 0 = empty */
	size_t hashcap;
	struct sysfs_dir dirs[NICFIT_SYSFS_DIR_CACHE]; /* directories kept open */
	unsigned dirclock;      /* the use count that orders dirs[] for eviction */
	unsigned dirlast;       /* the index in dirs[] of the last one used */
	unsigned dirsfilled;    /* dirs[] below this index have been used */
	unsigned dirhand;       /* the clock's hand: the next of dirs[] to give way */
	/*
	 * a kept directory in one of its two slots by its path's hash
	 * (sysfs_resolve.c's dir_slot): index + 1 into dirs[], 0 none
	 */
	unsigned char dirix[NICFIT_SYSFS_DIR_INDEX];
	/* the last directory too long for dirs[] (-1 none) */
	int longfd;
	size_t longlen;
	char longdir[NICFIT_SYSFS_PATH_MAX];
	nicfit_sysfs_trace_fn trace;
	void *trace_ctx;
	/*
	 * 1: read config files by the registers used, as the kernel's (each
	 * dword a config cycle), even where they are plain copies, which
	 * discovery otherwise reads whole (topo_extras.c); tests set it
	 */
	int config_dwords;
};

/* Tell the tracer, if any, of one read (see nicfit_sysfs_trace). */
static inline void nicfit__sysfs_trace(struct nicfit_sysfs *fs, int op, const char *path,
				       size_t off, size_t len, const char *why)
{
	if (fs->trace)
		fs->trace(fs->trace_ctx, op, path, off, len, why);
}

/* murmur3's 64-bit finalizer: every bit of x moves about half of the result's */
static inline uint64_t nicfit__sysfs_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdu;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53u;
	return x ^ (x >> 33);
}

/*
 * A path's hash: its length and its last 16 bytes, where sysfs paths
 * differ (a function's address and its parent's, a port's name); a
 * look-up compares the whole path on a match. Two 8-byte words, not a
 * loop over the path: the prefixes of a path are looked up one by one
 * (the kept directories, discovery's index of functions), and a hash that
 * read them all would cost the square of a path's depth.
 */
static inline size_t nicfit__sysfs_path_hash(const char *s, size_t n)
{
	uint64_t a, b;

	if (n >= 16) {
		memcpy(&a, s + n - 16, 8);
		memcpy(&b, s + n - 8, 8);
	} else {
		unsigned char w[16] = { 0 };

		memcpy(w + 16 - n, s, n);
		memcpy(&a, w, 8);
		memcpy(&b, w + 8, 8);
	}
	return (size_t)nicfit__sysfs_mix(a ^ nicfit__sysfs_mix(b ^ n));
}

/*
 * nicfit_sysfs_list: the entries in the directory's own order, unsorted,
 * for a caller that keeps few of many and sorts those (topo_pci.c's walk
 * of a bridge with a thousand VFs below it).
 */
#define NICFIT__SYSFS_UNSORTED 0x100u

/*
 * Keep a problem with path unless st is OK or MISSING or flags has
 * NICFIT_SYSFS_QUIET (sysfs_problem.c).
 */
void nicfit__sysfs_problem(struct nicfit_sysfs *fs, const char *path,
			   enum nicfit_sysfs_status st, int errnum, unsigned flags);

/*
 * While recording, keep path once, the first time it is met, with a copy
 * of data (sysfs_record.c). Out of memory drops the record: a snapshot
 * then lacks that path, and discovery itself is unaffected.
 */
void nicfit__sysfs_record(struct nicfit_sysfs *fs, const char *path, enum nicfit_rec_type type,
			  const void *data, size_t len, enum nicfit_sysfs_status st, int errnum);
/* While recording with on = 2, keep path as looked for and not there. */
void nicfit__sysfs_record_missing(struct nicfit_sysfs *fs, const char *path);
/* Free every record and the index (at close). */
void nicfit__sysfs_records_release(struct nicfit_sysfs *fs);

/* The status an errno from open or readlink means (sysfs_resolve.c). */
enum nicfit_sysfs_status nicfit__sysfs_status_of_errno(int e);

/*
 * Open path inside the root with open(2) flags; -1 with *errnum set on
 * failure. open_in_root reuses the directory kept open in fs when the
 * path is in it (the common case: many files of one device in a row);
 * open_full resolves every component.
 */
int nicfit__sysfs_open_in_root(struct nicfit_sysfs *fs, const char *path, int flags,
			       int *errnum);
int nicfit__sysfs_open_full(struct nicfit_sysfs *fs, const char *path, int flags, int *errnum);
/*
 * A descriptor (O_PATH) of the directory dir (n bytes, root-relative),
 * kept open in fs and owned by it; -1 with *errnum set on failure.
 */
int nicfit__sysfs_dir_fd(struct nicfit_sysfs *fs, const char *dir, size_t n, int *errnum);
/* Forget every kept directory (at close). */
void nicfit__sysfs_dirs_release(struct nicfit_sysfs *fs);

#endif
