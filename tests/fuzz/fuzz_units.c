/*
 * fuzz_units.c - the parsers of sizes, speeds, PCIe links and numbers.
 * Input: one string (NUL bytes end it).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	struct nicfit_error err;
	struct nicfit_speed sp;
	enum nicfit_size_kind k;
	double v;
	long l;
	int g, w;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	nicfit_error_clear(&err);
	if (!nicfit_parse_size(s, "x", &v, &k, &err) && !(v > 0 && isfinite(v)))
		abort();
	nicfit_error_clear(&err);
	if (!nicfit_parse_speed(s, "x", &sp, &err) && !(sp.gbps > 0 && isfinite(sp.gbps)))
		abort();
	nicfit_error_clear(&err);
	if (!nicfit_parse_pcie(s, "x", &g, &w, &err) && (g < 1 || g > 6 || w < 0 || w > 32))
		abort();
	nicfit_error_clear(&err);
	if (!nicfit_parse_long(s, "x", -1000, 1000, &l, &err) && (l < -1000 || l > 1000))
		abort();
	nicfit_error_clear(&err);
	if (!nicfit_parse_double(s, "x", 0, 1, &v, &err) && !(v >= 0 && v <= 1))
		abort();
	free(s);
	return 0;
}
