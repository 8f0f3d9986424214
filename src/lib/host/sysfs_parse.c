/*
 * sysfs_parse.c - the pure parsers of sysfs strings (see "pure parsers"
 * in nicfit/sysfs.h): link speeds, hex IDs, CPU lists and masks, InfiniBand rates,
 * states and GIDs, PCI addresses.
 *
 * They never touch the filesystem, so they are tested and fuzzed on
 * their own (tests/fuzz/fuzz_sysfs.c). Each is strict: the whole string,
 * the kernel's formats only, bounded digit counts. Plain decimal integers
 * are not here: they go through the one integer core in units.c
 * (nicfit_parse_dec).
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nicfit/sysfs.h"
#include "nicfit/units.h"

/*
 * Bounds on what the kernel prints, so that junk is MALFORMED and never a
 * huge number: a speed or rate has a few digits and a decimal or two
 * (12 in all is far more); no PCIe generation signals above 1024 GT/s
 * (Gen 6 is 64); no InfiniBand port reaches 100 Tb/s; a CPU or node
 * number is below 1 << 22 (the kernel's NR_CPUS is at most 1 << 13);
 * a lane count or port state has at most 3 digits.
 */
#define DECIMAL_DIGITS_MAX 12
#define LINK_GTS_MAX 1024
#define IB_RATE_GBPS_MAX 100000
/*
 * Line coding takes at most 20% of an InfiniBand lane (8b/10b); a named
 * lane rate further than 25% below the printed figure, or above it by
 * more than the kernel's rounding (it prints whole Gb/s, "56" for FDR's
 * 54.5 of data on 56.25 signalled), means name and number disagree, and
 * the printed figure is kept.
 */
#define IB_CODING_LOSS_MAX 0.25
#define IB_RATE_ROUNDING 0.01
#define CPULIST_MAX (1L << 22)
#define SMALL_DIGITS_MAX 3

/*
 * A hex digit's value, -1 for any other byte: one load from a table (a
 * host's GID tables alone are thousands of digits).
 */
#define H_16(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
static const signed char hex_tab[256] = {
	H_16(-1), H_16(-1), H_16(-1),
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,         /* '0'..'9' */
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 'A'..'F' */
	H_16(-1),
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 'a'..'f' */
	H_16(-1),
	H_16(-1), H_16(-1), H_16(-1), H_16(-1), H_16(-1), H_16(-1), H_16(-1), H_16(-1)
};
#undef H_16

static inline int hexval(int c)
{
	return hex_tab[(unsigned char)c];
}

/* Scan "digits[.digits]" at *pp into *v (at most DECIMAL_DIGITS_MAX digits in all). */
static int scan_decimal(const char **pp, double *v)
{
	const char *p = *pp;
	double x = 0, scale = 1;
	int digits = 0;

	while (*p >= '0' && *p <= '9') {
		if (++digits > DECIMAL_DIGITS_MAX)
			return -1;
		x = x * 10 + (*p++ - '0');
	}
	if (!digits)
		return -1;
	if (*p == '.') {
		int frac = 0;

		p++;
		while (*p >= '0' && *p <= '9') {
			if (++digits > DECIMAL_DIGITS_MAX)
				return -1;
			scale /= 10;
			x += (*p++ - '0') * scale;
			frac++;
		}
		if (!frac)
			return -1;
	}
	*v = x;
	*pp = p;
	return 0;
}

int nicfit_parse_link_speed(const char *s, double *gts)
{
	const char *p = s;
	double v;

	*gts = 0;
	if (!*s || !strcmp(s, "Unknown") || !strcmp(s, "Unknown speed"))
		return 1;
	if (scan_decimal(&p, &v))
		return -1;
	if (strncmp(p, " GT/s", 5))
		return -1;
	p += 5;
	if (!strcmp(p, " PCIe"))
		p += 5;
	if (*p || !(v > 0) || v > LINK_GTS_MAX)
		return -1;
	*gts = v;
	return 0;
}

int nicfit_parse_hex_id(const char *s, unsigned long *out)
{
	unsigned long v = 0;
	int n = 0;

	*out = 0;
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	for (s += 2; *s; s++) {
		int h = hexval((unsigned char)*s);

		if (h < 0 || ++n > 8)
			return -1;
		v = v << 4 | (unsigned long)h;
	}
	if (!n)
		return -1;
	*out = v;
	return 0;
}

/* Scan a member number at *pp. */
static int scan_member(const char **pp, long *v)
{
	const char *p = *pp;
	long x = 0;
	int n = 0;

	while (*p >= '0' && *p <= '9') {
		x = x * 10 + (*p++ - '0');
		if (++n > 8 || x > CPULIST_MAX)
			return -1;
	}
	if (!n)
		return -1;
	*v = x;
	*pp = p;
	return 0;
}

int nicfit_parse_cpulist(const char *s, unsigned long *count, long *first)
{
	const char *p = s;
	unsigned long c = 0;
	long lo = -1;

	*count = 0;
	*first = -1;
	if (!*p)
		return 0;
	for (;;) {
		long a, b;

		if (scan_member(&p, &a))
			return -1;
		b = a;
		if (*p == '-') {
			p++;
			if (scan_member(&p, &b) || b < a)
				return -1;
		}
		c += (unsigned long)(b - a + 1);
		if (lo < 0 || a < lo)
			lo = a;
		if (!*p)
			break;
		if (*p != ',')
			return -1;
		p++;
	}
	*count = c;
	*first = lo;
	return 0;
}

int nicfit_cpulist_has(const char *s, long n)
{
	const char *p = s;

	while (*p) {
		long a, b;

		if (scan_member(&p, &a))
			return 0;
		b = a;
		if (*p == '-') {
			p++;
			if (scan_member(&p, &b))
				return 0;
		}
		if (n >= a && n <= b)
			return 1;
		if (*p != ',')
			return 0;
		p++;
	}
	return 0;
}

/* Append the range lo-hi to the list at out (len bytes used of cap); -1 when it does not fit. */
static int list_put(char *out, size_t cap, size_t *len, long lo, long hi)
{
	int k = lo == hi ? snprintf(out + *len, cap - *len, "%s%ld", *len ? "," : "", lo)
			 : snprintf(out + *len, cap - *len, "%s%ld-%ld", *len ? "," : "", lo, hi);

	if (k < 0 || (size_t)k >= cap - *len)
		return -1;
	*len += (size_t)k;
	return 0;
}

/*
 * Whether s is a mask as the kernel prints it: words of 1 to 8 hex digits
 * joined by single commas, with no CPU numbered above CPULIST_MAX + 31.
 */
static int mask_ok(const char *s)
{
	long words = 1;
	int digits = 0;

	for (; *s; s++) {
		if (*s == ',') {
			if (!digits || words++ * 32 > CPULIST_MAX)
				return 0;
			digits = 0;
		} else if (hexval((unsigned char)*s) < 0 || ++digits > 8) {
			return 0;
		}
	}
	return digits > 0;
}

int nicfit_parse_cpumask(const char *s, char *list, size_t cap)
{
	const char *end = s + strlen(s), *w;
	size_t len = 0;
	long bit = 0, lo = -1;

	if (cap)
		list[0] = '\0';
	if (!mask_ok(s))
		return -1;
	if (!cap)
		return -2;
	/* the lowest word is the last: walk the words from the end */
	for (;;) {
		unsigned long v = 0;
		int i;

		for (w = end; w > s && w[-1] != ','; w--)
			;
		for (i = 0; w + i < end; i++)
			v = v << 4 | (unsigned long)hexval((unsigned char)w[i]);
		for (i = 0; i < 32; i++, bit++) {
			if (v >> i & 1) {
				if (lo < 0)
					lo = bit;
			} else if (lo >= 0) {
				if (list_put(list, cap, &len, lo, bit - 1))
					goto full;
				lo = -1;
			}
		}
		if (w == s)
			break;
		end = w - 1;
	}
	if (lo >= 0 && list_put(list, cap, &len, lo, bit - 1))
		goto full;
	return 0;
full:
	list[0] = '\0';
	return -2;
}

int nicfit_parse_ib_rate(const char *s, struct nicfit_ib_rate *r)
{
	struct nicfit_speed lane;
	const char *p = s;
	double v;
	long w = 0;
	int n = 0;

	memset(r, 0, sizeof(*r));
	if (scan_decimal(&p, &v) || strncmp(p, " Gb/sec (", 9))
		return -1;
	p += 9;
	while (*p >= '0' && *p <= '9') {
		w = w * 10 + (*p++ - '0');
		if (++n > SMALL_DIGITS_MAX)
			return -1;
	}
	if (!n || w < 1 || *p++ != 'X')
		return -1;
	if (*p == ' ') {
		size_t k = 0;

		p++;
		while (isalnum((unsigned char)*p)) {
			if (k + 1 >= sizeof(r->speed))
				return -1;
			r->speed[k++] = *p++;
		}
		if (!k)
			return -1;
		r->speed[k] = '\0';
	}
	if (strcmp(p, ")") || v > IB_RATE_GBPS_MAX)
		return -1;
	r->gbps = v;
	r->width = (int)w;
	/* the lane's data rate by its name (no name is SDR); a name nicfit lacks keeps v */
	r->data_gbps = v;
	if (!nicfit_ib_rate(r->speed[0] ? r->speed : "SDR", &lane)) {
		double data = lane.ib_lane_gbps * (double)w;

		if (data <= v * (1 + IB_RATE_ROUNDING) && data >= v * (1 - IB_CODING_LOSS_MAX))
			r->data_gbps = data;
	}
	return 0;
}

int nicfit_parse_ib_state(const char *s, int *num, char *name, size_t cap)
{
	const char *p = s;
	long v = 0;
	int n = 0;
	size_t len;

	*num = -1;
	if (cap)
		name[0] = '\0';
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		if (++n > SMALL_DIGITS_MAX)
			return -1;
	}
	if (!n || p[0] != ':' || p[1] != ' ')
		return -1;
	p += 2;
	len = strlen(p);
	if (!len || len + 1 > cap)
		return -1;
	for (n = 0; p[n]; n++)
		if (!isprint((unsigned char)p[n]))
			return -1;
	memcpy(name, p, len + 1);
	*num = (int)v;
	return 0;
}

int nicfit_parse_gid(const char *s, uint8_t gid[16])
{
	int g, k;

	for (g = 0; g < 8; g++) {
		unsigned v = 0;

		for (k = 0; k < 4; k++) {
			int h = hexval((unsigned char)*s++);

			if (h < 0)
				return -1;
			v = v << 4 | (unsigned)h;
		}
		gid[2 * g] = (uint8_t)(v >> 8);
		gid[2 * g + 1] = (uint8_t)v;
		if (g < 7 && *s++ != ':')
			return -1;
	}
	return *s ? -1 : 0;
}

enum nicfit_gid_type nicfit_parse_gid_type(const char *s)
{
	if (!strcmp(s, "IB/RoCE v1"))
		return NICFIT_GID_IB_ROCE1;
	if (!strcmp(s, "RoCE v2"))
		return NICFIT_GID_ROCE2;
	return NICFIT_GID_UNKNOWN;
}

/* Scan exactly min..max hex digits at *pp. */
static int scan_hex(const char **pp, int min, int max, unsigned *v)
{
	const char *p = *pp;
	unsigned x = 0;
	int n = 0;

	while (hexval((unsigned char)*p) >= 0) {
		if (++n > max)
			return -1;
		x = x << 4 | (unsigned)hexval((unsigned char)*p++);
	}
	if (n < min)
		return -1;
	*v = x;
	*pp = p;
	return 0;
}

int nicfit_parse_pci_addr(const char *s, unsigned *domain, unsigned *bus,
			  unsigned *dev, unsigned *fn)
{
	const char *p = s;
	unsigned d, b, v, f = 0;

	if (scan_hex(&p, 4, 8, &d) || *p++ != ':' || scan_hex(&p, 2, 2, &b) || *p++ != ':' ||
	    scan_hex(&p, 2, 2, &v) || v > 0x1f)
		return -1;
	if (fn) {
		if (*p++ != '.' || scan_hex(&p, 1, 1, &f) || f > 7)
			return -1;
	}
	if (*p)
		return -1;
	*domain = d;
	*bus = b;
	*dev = v;
	if (fn)
		*fn = f;
	return 0;
}
