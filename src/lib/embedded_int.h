/*
 * embedded_int.h - the default catalog (the JSON files in data/),
 * compiled into the library by tools/embed.c.
 *
 * Shape: static, read-only data that lives as long as the program.
 */
#ifndef NICFIT_EMBEDDED_INT_H
#define NICFIT_EMBEDDED_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "embedded_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

struct nicfit_blob {
	const char *name;  /* base file name, NULL ends the list */
	const char *data;  /* contents, NUL-terminated */
	size_t len;        /* bytes, not counting the NUL */
};

/* The JSON files of data/, in name order. */
extern const struct nicfit_blob nicfit_catalog_blobs[];

#endif
