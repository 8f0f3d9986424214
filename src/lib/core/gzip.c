/*
 * gzip.c - what a gzip file says it holds (its trailer's ISIZE, and
 * whether it is one member, so that ISIZE is the whole file's) and what
 * it holds when inflated, measured in memory and stopped at a bound (see
 * core/gzip_int.h). Inflating is libarchive's gzip filter with its raw
 * format, which reads every member in turn.
 */
#include <string.h>

#define NICFIT_ARCHIVE_CALLS
#include "core/archive_int.h"
#include "core/gzip_int.h"

int nicfit__gz_magic(const void *data, size_t len)
{
	const unsigned char *p = data;

	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

void nicfit__gz_claim_of(const void *gz, size_t len, struct nicfit__gz_claim *cl)
{
	const unsigned char *p = gz;
	size_t i;

	cl->isize = 0;
	cl->single = 0;
	if (len < 18)
		return;
	cl->isize = (size_t)p[len - 4] | (size_t)p[len - 3] << 8 | (size_t)p[len - 2] << 16 |
		    (size_t)p[len - 1] << 24;
	/* a member header: 1f 8b, deflate (8), no reserved flag bit */
	for (i = 10; i + 4 <= len - 8; i++) {
		const unsigned char *h = memchr(p + i, 0x1f, len - 8 - i);

		if (!h || (size_t)(h - p) + 4 > len - 8)
			break;
		i = (size_t)(h - p);
		if (h[1] == 0x8b && h[2] == 8 && !(h[3] & 0xe0))
			return;
	}
	cl->single = 1;
}

int nicfit__gz_measure(const void *gz, size_t len, size_t stop, size_t *inflated)
{
	struct archive *a;
	struct archive_entry *en;
	const void *buf;
	size_t n;
	la_int64_t off;
	int r, rc = nicfit__arc_load(NULL);

	*inflated = 0;
	if (rc)
		return rc;
	a = archive_read_new();
	if (!a)
		return NICFIT_E_NOMEM;
	archive_read_support_filter_gzip(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, gz, len) != ARCHIVE_OK ||
	    archive_read_next_header(a, &en) != ARCHIVE_OK) {
		archive_read_free(a);
		return 1;
	}
	while ((r = archive_read_data_block(a, &buf, &n, &off)) == ARCHIVE_OK) {
		*inflated += n;
		if (*inflated > stop)
			break;
	}
	archive_read_free(a);
	return r == ARCHIVE_OK || r == ARCHIVE_EOF ? 0 : 1;
}
