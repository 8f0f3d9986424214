/*
 * embedded.h - files compiled into the binary by tools/embed.c: the
 * default catalog (the JSON files in data/) and the web page's assets.
 */
#ifndef NICFIT_EMBEDDED_H
#define NICFIT_EMBEDDED_H

#include <stddef.h>

struct nicfit_blob {
	const char *name;  /* base file name, NULL ends the list */
	const char *data;  /* contents, NUL-terminated */
	size_t len;        /* bytes, not counting the NUL */
};

/* The JSON files of data/, in name order. */
extern const struct nicfit_blob nicfit_catalog_blobs[];

#endif
