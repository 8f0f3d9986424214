/*
 * fuzz_dcb.c - DCB netlink replies and the snapshot's nicfit-dcb/ files:
 * any bytes are refused or read within their length, and what is read is
 * a PFC setting of at most eight priorities.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/dcb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nicfit_pfc p;
	unsigned char *copy = malloc(size ? size : 1);
	char *s = malloc(size + 1);
	char out[64];

	if (!copy || !s) {
		free(copy);
		free(s);
		return 0;
	}
	memcpy(copy, data, size);
	if (!nicfit_dcb_parse_reply(copy, size, &p) && p.state == NICFIT_PFC_READ &&
	    (p.pfc_cap > 255 || p.pfc_en > 255))
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	if (!nicfit_dcb_parse_file(s, &p)) {
		struct nicfit_pfc q;

		if (nicfit_dcb_format(&p, out, sizeof(out)) || nicfit_dcb_parse_file(out, &q) ||
		    q.state != p.state || q.pfc_en != (p.pfc_en & 0xff))
			abort();
	}
	free(copy);
	free(s);
	return 0;
}
