/*
 * fuzz_pciids.c - pci.ids files: any bytes are read without a crash or a
 * hang, every name comes back bounded and NUL-terminated, and a sorted
 * file answers alike whether it is scanned from its start or bisected.
 *
 * The input is written twice: as it is (small: scanned whole), and after
 * a sorted block of filler vendors that makes the file big enough to be
 * bisected. The queries are the vendors and devices the input's own lines
 * name, plus a few fixed ones. When the input is itself a sorted pci.ids
 * body for vendors above the filler's, both files must give the same
 * names.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/pciids_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NQ 8

static int hexv(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static unsigned hex4_at(const uint8_t *p, size_t left, int *ok)
{
	unsigned v = 0;
	int i;

	*ok = left >= 4;
	for (i = 0; *ok && i < 4; i++) {
		int h = hexv(p[i]);

		if (h < 0)
			*ok = 0;
		else
			v = v << 4 | (unsigned)h;
	}
	return v;
}

/* Queries from the input: each vendor line's ID with the next device line's. */
static size_t queries(const uint8_t *d, size_t n, struct nicfit_pciids_query *q)
{
	size_t i = 0, k = 0;
	unsigned vendor = 0x4000;
	int ok;

	q[k].vendor = 0x4000, q[k++].device = 0x0001;
	q[k].vendor = 0xffff, q[k++].device = 0xffff;
	while (i < n && k < NQ) {
		if (d[i] != '\t') {
			unsigned v = hex4_at(d + i, n - i, &ok);

			if (ok)
				vendor = v;
		} else if (i + 1 < n && d[i + 1] != '\t') {
			unsigned v = hex4_at(d + i + 1, n - i - 1, &ok);

			if (ok) {
				q[k].vendor = vendor;
				q[k++].device = v;
			}
		}
		while (i < n && d[i] != '\n')
			i++;
		i++;
	}
	return k;
}

/* 1 when d is lines of vendors above the filler's, sorted, and of devices sorted within each. */
static int sorted_body(const uint8_t *d, size_t n)
{
	size_t i = 0;
	long lastv = 0x3fff, lastd = -1;
	int ok;

	while (i < n) {
		size_t e = i;

		while (e < n && d[e] != '\n')
			e++;
		if (e == n)
			return 0; /* the last line must end */
		if (d[i] == '\t' && e - i > 1 && d[i + 1] == '\t') {
			;
		} else if (d[i] == '\t') {
			long v = (long)hex4_at(d + i + 1, e - i - 1, &ok);

			if (!ok || e - i < 6 || d[i + 5] != ' ' || v <= lastd)
				return 0;
			lastd = v;
		} else {
			long v = (long)hex4_at(d + i, e - i, &ok);

			if (!ok || e - i < 5 || d[i + 4] != ' ' || v <= lastv)
				return 0;
			lastv = v;
			lastd = -1;
		}
		i = e + 1;
	}
	return 1;
}

static void check(const struct nicfit_pciids_query *q, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (strnlen(q[k].vendor_name, sizeof(q[k].vendor_name)) == sizeof(q[k].vendor_name) ||
		    strnlen(q[k].device_name, sizeof(q[k].device_name)) == sizeof(q[k].device_name))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nicfit_pciids_query a[NQ], b[NQ];
	struct nicfit_error err;
	char small[] = "/tmp/nicfit-fuzz-pciids-XXXXXX", big[] = "/tmp/nicfit-fuzz-pciids-XXXXXX";
	size_t n, k;
	FILE *f;
	int fd, v, ra, rb;

	memset(a, 0, sizeof(a));
	n = queries(data, size, a);
	memcpy(b, a, sizeof(a));
	fd = mkstemp(small);
	if (fd < 0)
		return 0;
	f = fdopen(fd, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
		unlink(small);
		return 0;
	}
	fd = mkstemp(big);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		unlink(small);
		return 0;
	}
	fprintf(f, "# filler\n");
	for (v = 1; v < 0x4000; v++) /* about 740 KB: past the 512 KiB that is bisected */
		fprintf(f, "%04x  Filler %d\n\t0001  Device\n\t\t%04x 0001  Sub\n", v, v, v);
	if (fwrite(data, 1, size, f) != size || fclose(f)) {
		unlink(small);
		unlink(big);
		return 0;
	}
	nicfit_error_clear(&err);
	ra = nicfit__pciids_lookup(small, a, n, &err);
	nicfit_error_clear(&err);
	rb = nicfit__pciids_lookup(big, b, n, &err);
	unlink(small);
	unlink(big);
	check(a, n);
	check(b, n);
	if (!ra && !rb && sorted_body(data, size) && !memchr(data, '\r', size) &&
	    !memchr(data, '\0', size))
		for (k = 0; k < n; k++)
			if (a[k].vendor >= 0x4000 &&
			    (strcmp(a[k].vendor_name, b[k].vendor_name) ||
			     strcmp(a[k].device_name, b[k].device_name)))
				abort();
	return 0;
}
