/*
 * fuzz_vpd.c - PCI VPD images: any bytes parse or fail with a message,
 * never read past the image, and keep what they return bounded and
 * NUL-terminated.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/vpd_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nicfit_vpd *v = malloc(sizeof(*v));
	struct nicfit_error err;
	uint8_t *copy;
	int rc, i;

	if (!v)
		return 0;
	/* an exact-size copy, so reading past the end is caught by ASan */
	copy = malloc(size ? size : 1);
	if (!copy) {
		free(v);
		return 0;
	}
	memcpy(copy, data, size);
	nicfit_error_clear(&err);
	rc = nicfit__vpd_parse(copy, size, v, &err);
	if (rc && !err.msg[0])
		abort();
	if (!rc && (!v->end || v->size > size))
		abort();
	if (v->nkw < 0 || v->nkw > NICFIT_VPD_MAX_KEYWORDS || strlen(v->name) >= sizeof(v->name))
		abort();
	for (i = 0; i < v->nkw; i++)
		if (strlen(v->kw[i].value) >= sizeof(v->kw[i].value) || strlen(v->kw[i].key) != 2)
			abort();
	nicfit__vpd_get(v, "PN");
	free(copy);
	free(v);
	return 0;
}
