/*
 * assets.h - the web page's files, compiled into the binary by tools/embed.c
 * from src/serve/assets/ (the generated build/gen/assets_data.c).
 */
#ifndef NICFIT_SERVE_ASSETS_H
#define NICFIT_SERVE_ASSETS_H

#include <stddef.h>

struct nicfit_asset {
	const char *name;  /* base file name, NULL ends the list */
	const char *data;  /* contents, NUL-terminated */
	size_t len;        /* bytes, not counting the NUL */
};

/* The files of src/serve/assets/, in name order. */
extern const struct nicfit_asset nicfit_asset_blobs[];

#endif
