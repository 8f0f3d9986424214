/*
 * fuzz_sysfs.c - every parser of sysfs strings on the same bytes: link
 * speeds, hex IDs, decimals, CPU lists, InfiniBand rates and states, GIDs
 * and their types, PCI addresses. Results must keep their contracts (a
 * parsed speed is positive and finite, a parsed CPU list counts what it
 * names, a CPU mask is good or bad whatever the room for its list, a
 * parsed rate has a width), and nothing may read past the string.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/sysfs.h"
#include "nicfit/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	struct nicfit_ib_rate r;
	unsigned long ul, cnt;
	unsigned a, b, c, d;
	uint8_t gid[16];
	const char *end;
	char name[32];
	double g;
	long l, first;
	int n;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	n = nicfit_parse_link_speed(s, &g);
	if (n == 0 && !(g > 0 && isfinite(g) && g <= 1024))
		abort();
	if (n != 0 && g != 0)
		abort();
	if (!nicfit_parse_hex_id(s, &ul) && ul > 0xffffffffUL)
		abort();
	if (!nicfit_parse_dec(s, -5, 5, &l) && (l < -5 || l > 5))
		abort();
	{
		/* the core: a value only on OK, and end past at least one digit then */
		enum nicfit_dec_status ds = nicfit_scan_dec(s, -5, 5, &l, &end);

		if (ds == NICFIT_DEC_OK && (l < -5 || l > 5 || end <= s))
			abort();
		if (ds != NICFIT_DEC_OK && l != 0)
			abort();
		if (ds == NICFIT_DEC_NONE && end != s)
			abort();
	}
	if (!nicfit_parse_cpulist(s, &cnt, &first)) {
		if ((cnt == 0) != (first < 0))
			abort();
		if (first >= 0 && !nicfit_cpulist_has(s, first))
			abort();
	}
	{
		/*
		 * a mask read is a CPU list that parses; a mask is well formed or not
		 * whatever the room for its list (-2 only of a good one), and a
		 * failure leaves the list empty
		 */
		char list[64], wide[4096];
		int m = nicfit_parse_cpumask(s, list, sizeof(list));
		int w = nicfit_parse_cpumask(s, wide, sizeof(wide));

		if (!m && nicfit_parse_cpulist(list, &cnt, &first))
			abort();
		if (m < -2 || m > 0 || w < -2 || w > 0 || (m == -1) != (w == -1))
			abort();
		if ((m && list[0]) || (w && wide[0]) || (!m && (w || strcmp(list, wide))))
			abort();
	}
	if (!nicfit_parse_ib_rate(s, &r) && (r.width < 1 || !(r.gbps >= 0) || strlen(r.speed) >= 8))
		abort();
	if (!nicfit_parse_ib_state(s, &n, name, sizeof(name)) && (n < 0 || !name[0]))
		abort();
	nicfit_parse_gid(s, gid);
	nicfit_parse_gid_type(s);
	if (!nicfit_parse_pci_addr(s, &a, &b, &c, &d) && (b > 0xff || c > 0x1f || d > 7))
		abort();
	nicfit_parse_pci_addr(s, &a, &b, &c, NULL);
	free(s);
	return 0;
}
