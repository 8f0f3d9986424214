/*
 * gzip_int.h - what a gzip file says it holds and what it really holds,
 * for the readers that take gzip files from outside: the dump walk
 * (dump/dump_path.c) and a bundle's unpacking (host/snapshot_extract.c),
 * which measures each gzip file inside before anything is written.
 *
 * Internal to libnicfit.
 */
#ifndef NICFIT_GZIP_INT_H
#define NICFIT_GZIP_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "gzip_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

/* What a gzip file says of itself, read from its compressed bytes. */
struct nicfit__gz_claim {
	size_t isize;   /* its last member's ISIZE: the whole file's size when single */
	int single;     /* no second member header: ISIZE is the whole file's */
};

/* Is it gzip: its first two bytes. */
int nicfit__gz_magic(const void *data, size_t len);

/* Fill cl from the compressed bytes of a whole gzip file (isize 0 when under 18 bytes). */
void nicfit__gz_claim_of(const void *gz, size_t len, struct nicfit__gz_claim *cl);

/*
 * Inflate the gzip file gz[0..len) in memory (every member), keeping
 * nothing, until its end or until the bytes inflated pass stop (at the
 * block that passes it): *inflated is what was inflated, which may be
 * stop plus one block. Returns 0, 1 when the data is damaged (*inflated
 * what came before), or NICFIT_E_NOMEM / NICFIT_E_IO (no libarchive).
 */
int nicfit__gz_measure(const void *gz, size_t len, size_t stop, size_t *inflated);

#endif
