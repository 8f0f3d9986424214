/*
 * units.c - strict parsers for sizes, speeds, PCIe links and numbers
 * (see nicfit/units.h). Nothing here uses strtol/strtod on unchecked text:
 * the number is first scanned by hand (digits, one point, an exponent),
 * so "inf", "nan", hex floats and trailing junk are all rejected with the
 * column where they start.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/fmt_int.h"
#include "nicfit/units.h"

#define MAX_NUMBER_TEXT 64

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/*
 * Scan a decimal number at *pp: [+-]digits[.digits][e[+-]digits]. On
 * success store it, advance *pp and return 0; else return -1 with *pp
 * unchanged.
 */
static int scan_number(const char **pp, double *out, int allow_sign)
{
	const char *p = *pp, *start = p;
	char tmp[MAX_NUMBER_TEXT];
	int digits = 0;
	size_t n;
	double v;

	if (allow_sign && (*p == '-' || *p == '+'))
		p++;
	while (isdigit((unsigned char)*p)) {
		p++;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			p++;
			digits++;
		}
	}
	if (!digits)
		return -1;
	if ((*p == 'e' || *p == 'E') &&
	    (isdigit((unsigned char)p[1]) ||
	     ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2])))) {
		p += 2;
		while (isdigit((unsigned char)*p))
			p++;
	}
	n = (size_t)(p - start);
	if (n >= sizeof(tmp))
		return -1;
	memcpy(tmp, start, n);
	tmp[n] = '\0';
	errno = 0;
	v = strtod(tmp, NULL);
	if (errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	*pp = p;
	return 0;
}

static long col_of(const char *s, const char *p)
{
	return (long)(p - s) + 1;
}

/* Show at most 40 bytes of user text in a message, printable only. */
static const char *shown(const char *s, char *buf, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n && s[i] && i < 40; i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	buf[i] = '\0';
	if (s[i] && i == 40 && n > 44) {
		buf[i] = '.'; buf[i + 1] = '.'; buf[i + 2] = '.'; buf[i + 3] = '\0';
	}
	return buf;
}

static int bad(struct nicfit_error *err, const char *input, const char *s,
	       const char *p, const char *why)
{
	char b[48];

	return nicfit_error_at(err, NICFIT_E_USAGE, input, 0, 0,
			       "'%s': %s (at column %ld)", shown(s, b, sizeof(b)),
			       why, col_of(s, p));
}

/*
 * Units as the networking world writes them: `b` is a bit and `B` a byte
 * (Gb, GB, Gbps, GB/s, Gbit, GiB, Gibit), the words bit and byte in any
 * case, the SI prefixes k, M, G, T, P (K for kilo too) and the binary ones
 * Ki, Mi, Gi, Ti, Pi. Where the case of a unit carries no information (all
 * lower case "gb", "mbps", "gib"; all capitals "GBPS") the unit reads two
 * ways and is refused with both readings named. docs/units.md is the table.
 */
enum unit_base {
	BASE_NONE,   /* a prefix alone: "10G", "70M" */
	BASE_BIT,    /* b, bit, bits */
	BASE_BYTE,   /* B, byte, bytes */
	BASE_EITHER, /* b or B, but the case says nothing: "gb", "GBPS" */
	BASE_ETH     /* GbE, GigE */
};

struct unit {
	char prefix;     /* 'k', 'M', 'G', 'T', 'P' as written, or 0 */
	int binary;      /* Ki, Mi, Gi... */
	double mult;     /* what the prefix multiplies by */
	enum unit_base base;
	int per_s;       /* "/s" or "ps" after the base */
	size_t len;      /* the unit's length in s */
};

static int ieq(const char *a, size_t n, const char *b)
{
	return strlen(b) == n && !strncasecmp(a, b, n);
}

/* Read the unit at u (len n). Returns 0, or -1 for a unit that is none of these. */
static int read_unit(const char *u, size_t n, struct unit *out)
{
	static const char prefixes[] = "kKmMgGtTpP";
	static const double si[] = { 1e3, 1e6, 1e9, 1e12, 1e15 };
	const char *r = u, *at;
	size_t k;

	memset(out, 0, sizeof(*out));
	out->len = n;
	out->mult = 1;
	if (n && (at = strchr(prefixes, u[0])) != NULL) {
		int i = (int)((at - prefixes) / 2);

		out->prefix = u[0];
		out->mult = si[i];
		r++;
		if (r < u + n && *r == 'i' && r + 1 < u + n && (r[1] == 'b' || r[1] == 'B')) {
			out->binary = 1;
			out->mult = pow(1024.0, i + 1);
			r++;
		}
	}
	k = n - (size_t)(r - u);
	if (out->prefix && ieq(u, n, "gige")) {
		out->base = BASE_ETH;
		return 0;
	}
	if (!k)
		return out->prefix ? 0 : -1;
	if (ieq(r, k, "bit") || ieq(r, k, "bits") || ieq(r, k, "bit/s") || ieq(r, k, "bits/s")) {
		out->base = BASE_BIT;
		out->per_s = k > 4;
		return 0;
	}
	if (ieq(r, k, "byte") || ieq(r, k, "bytes") || ieq(r, k, "byte/s") || ieq(r, k, "bytes/s")) {
		out->base = BASE_BYTE;
		out->per_s = k > 5;
		return 0;
	}
	if (out->prefix && !out->binary && ieq(r, k, "be")) {
		out->base = BASE_ETH;
		return 0;
	}
	if (r[0] != 'b' && r[0] != 'B')
		return -1;
	if (k == 3 && (!strncmp(r + 1, "/s", 2) || !strncasecmp(r + 1, "ps", 2)))
		out->per_s = 1;
	else if (k != 1)
		return -1;
	out->base = r[0] == 'b' ? BASE_BIT : BASE_BYTE;
	/* a lower-case prefix other than k (the SI kilo), or capitals throughout */
	if ((out->prefix && out->prefix != 'k' && islower((unsigned char)out->prefix)) ||
	    (out->per_s && r[0] == 'B' && r[1] == 'P'))
		out->base = BASE_EITHER;
	return 0;
}

/* "giga" for a prefix letter, "gibi" when binary. */
static const char *prefix_name(const struct unit *un)
{
	switch (un->prefix) {
	case 'k': case 'K': return un->binary ? "kibi" : "kilo";
	case 'm': case 'M': return un->binary ? "mebi" : "mega";
	case 'g': case 'G': return un->binary ? "gibi" : "giga";
	case 't': case 'T': return un->binary ? "tebi" : "tera";
	case 'p': case 'P': return un->binary ? "pebi" : "peta";
	default: return "";
	}
}

/* The prefix as the standard writes it: k, M, G, T, P (Ki, Mi, ...). */
static void prefix_std(const struct unit *un, char *out, size_t n)
{
	char c = un->prefix == 'K' || un->prefix == 'k' ? (un->binary ? 'K' : 'k')
		: (char)toupper((unsigned char)un->prefix);

	snprintf(out, n, "%s%s", c ? (char[2]){ c, 0 } : "", un->binary ? "i" : "");
}

/* "'40gb': 'gb' reads two ways: 40GB (gigabytes) or 40Gb (gigabits); write the one you mean" */
static int ambiguous(struct nicfit_error *err, const char *input, const char *s,
		     const char *num, size_t num_len, const char *unit, const struct unit *un)
{
	char why[200], p[4];

	prefix_std(un, p, sizeof(p));
	snprintf(why, sizeof(why), "'%.*s' reads two ways: %.*s%sB%s (%sbytes%s) or "
		 "%.*s%sb%s (%sbits%s); write the one you mean", (int)un->len, unit,
		 (int)num_len, num, p, un->per_s ? "/s" : "", prefix_name(un),
		 un->per_s ? " per second" : "", (int)num_len, num, p, un->per_s ? "/s" : "",
		 prefix_name(un), un->per_s ? " per second" : "");
	return bad(err, input, s, unit, why);
}

/* The unit at p: letters and '/', at most 15 bytes. Returns its length. */
static size_t unit_len(const char *p)
{
	size_t n;

	for (n = 0; (isalpha((unsigned char)p[n]) || p[n] == '/') && n < 15; n++)
		;
	return n;
}

int nicfit_parse_size(const char *s, const char *input, double *value,
		      enum nicfit_size_kind *kind, struct nicfit_error *err)
{
	const char *p = skip_space(s), *num = p, *unit;
	struct unit un;
	size_t n, num_len;
	double v;
	int params = 0;

	if (scan_number(&p, &v, 0))
		return bad(err, input, s, p, "expected a number such as 40GB, 40GiB or 70B");
	num_len = (size_t)(p - num);
	unit = p = skip_space(p);
	n = unit_len(p);
	if (!n)
		return bad(err, input, s, unit,
			   "needs a unit: GB, GiB (bytes), Gb (bits) or B (billions of parameters)");
	p = skip_space(p + n);
	if (*p)
		return bad(err, input, s, p, "unexpected text after the unit");
	if (n == 1 && (unit[0] == 'B' || unit[0] == 'b')) {
		if (unit[0] == 'b')
			return bad(err, input, s, unit, "'b' reads two ways: B (billions of "
				   "parameters, 70B) or bit; write the one you mean");
		un.mult = 1e9;
		params = 1;
	} else if (read_unit(unit, n, &un)) {
		return bad(err, input, s, unit, "unknown unit (bytes: kB, MB, GB, TB, KiB, MiB, "
			   "GiB, TiB; bits: Mb, Gb, Gbit, Gibit; parameter counts: K, M, B, T)");
	} else if (un.base == BASE_EITHER) {
		return ambiguous(err, input, s, num, num_len, unit, &un);
	} else if (un.per_s || un.base == BASE_ETH) {
		return bad(err, input, s, unit, "that is a rate, not a size (a size is GB, GiB or Gb)");
	} else if (un.base == BASE_NONE) {
		if (un.binary || !strchr("kKmMtT", un.prefix))
			return bad(err, input, s, unit, "ambiguous unit 'G': write GB (gigabytes), "
				   "Gb (gigabits) or B (billions of parameters)");
		params = 1;
	} else if (un.base == BASE_BIT) {
		un.mult /= 8;
	}
	v *= un.mult;
	if (!isfinite(v) || v <= 0 || v > 1e18)
		return bad(err, input, s, s, "out of range (must be above 0 and at most 1 EB)");
	*value = v;
	*kind = params ? NICFIT_SIZE_PARAMS : NICFIT_SIZE_BYTES;
	return 0;
}

struct ib_rate {
	const char *name;
	int lanes;
	double lane_gbps; /* data rate per lane after line coding */
};

/* Per-lane data rates: docs/reference/bandwidth.md section 3.1. */
static const struct ib_rate ib_rates[] = {
	{ "SDR", 4, 2.0 },
	{ "DDR", 4, 4.0 },
	{ "QDR", 4, 8.0 },
	{ "FDR10", 4, 10.0 },
	{ "FDR", 4, 14.0625 * 64.0 / 66.0 },
	{ "EDR", 4, 25.0 },
	{ "HDR100", 2, 50.0 },
	{ "HDR", 4, 50.0 },
	{ "NDR200", 2, 100.0 },
	{ "NDR", 4, 100.0 },
	{ "XDR", 4, 200.0 },
};

int nicfit_ib_rate(const char *name, struct nicfit_speed *out)
{
	size_t i;

	for (i = 0; i < sizeof(ib_rates) / sizeof(ib_rates[0]); i++) {
		if (strcasecmp(name, ib_rates[i].name))
			continue;
		memset(out, 0, sizeof(*out));
		out->kind = NICFIT_SPEED_IB;
		snprintf(out->ib_name, sizeof(out->ib_name), "%s", ib_rates[i].name);
		out->ib_lanes = ib_rates[i].lanes;
		out->ib_lane_gbps = ib_rates[i].lane_gbps;
		out->gbps = ib_rates[i].lanes * ib_rates[i].lane_gbps;
		return 0;
	}
	return NICFIT_E_NOTFOUND;
}

const char *nicfit_ib_rate_name(size_t i)
{
	return i < sizeof(ib_rates) / sizeof(ib_rates[0]) ? ib_rates[i].name : NULL;
}

int nicfit_parse_speed(const char *s, const char *input,
		       struct nicfit_speed *out, struct nicfit_error *err)
{
	const char *p = skip_space(s), *unit, *num;
	struct unit un;
	char u[16];
	size_t n, i, num_len;
	double v;
	int lanes = 0;

	memset(out, 0, sizeof(*out));
	/* "4x EDR", "4XEDR", "EDR" */
	if (isdigit((unsigned char)p[0]) && (p[1] == 'x' || p[1] == 'X') &&
	    isalpha((unsigned char)p[2 + strspn(p + 2, " ")])) {
		lanes = p[0] - '0';
		p = skip_space(p + 2);
	} else if (p[0] == '1' && p[1] == '2' && (p[2] == 'x' || p[2] == 'X')) {
		lanes = 12;
		p = skip_space(p + 3);
	}
	if (isalpha((unsigned char)*p)) {
		unit = p;
		for (n = 0; isalnum((unsigned char)p[n]) && n < sizeof(u) - 1; n++)
			u[n] = p[n];
		u[n] = '\0';
		if (nicfit_ib_rate(u, out)) {
			char why[200];
			size_t k = (size_t)snprintf(why, sizeof(why), "unknown speed (a figure with "
						    "a unit such as 10G, 25GbE or 100Gb/s, or an "
						    "InfiniBand rate: ");

			for (i = 0; nicfit_ib_rate_name(i) && k < sizeof(why); i++)
				k += (size_t)snprintf(why + k, sizeof(why) - k, "%s%s", i ? ", " : "",
						      nicfit_ib_rate_name(i));
			if (k < sizeof(why))
				snprintf(why + k, sizeof(why) - k, ")");
			return bad(err, input, s, unit, why);
		}
		p = skip_space(p + n);
		if (*p)
			return bad(err, input, s, p, "unexpected text after the speed");
		if (lanes) {
			if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 12)
				return bad(err, input, s, s, "InfiniBand width must be 1x, 2x, 4x, 8x or 12x");
			out->ib_lanes = lanes;
			out->gbps = lanes * out->ib_lane_gbps;
		}
		return 0;
	}
	if (lanes)
		return bad(err, input, s, p, "expected an InfiniBand rate after the width");
	num = p;
	if (scan_number(&p, &v, 0))
		return bad(err, input, s, p, "expected a speed such as 10G, 25GbE, 100Gb/s or EDR");
	num_len = (size_t)(p - num);
	unit = p = skip_space(p);
	n = unit_len(p);
	if (!n)
		return bad(err, input, s, unit, "needs a unit: G (Gb/s), GbE, Mb/s or an InfiniBand rate");
	p = skip_space(p + n);
	if (*p)
		return bad(err, input, s, p, "unexpected text after the unit");
	if (read_unit(unit, n, &un) || (un.base == BASE_NONE && (un.binary || !strchr("mMgGtT", un.prefix))))
		return bad(err, input, s, unit, "unknown unit (bits per second: G, Gb/s, Gbps, "
			   "Gbit/s, GbE, Mb/s, Tb/s)");
	if (un.base == BASE_EITHER)
		return ambiguous(err, input, s, num, num_len, unit, &un);
	if (un.base == BASE_BYTE) {
		char why[200], pre[4];

		prefix_std(&un, pre, sizeof(pre));
		snprintf(why, sizeof(why), "%.*s is bytes%s; a network speed is in bits per "
			 "second: write %.*sG or %.*sGb/s for %.*s Gb/s, %gG for %.*s %sB/s",
			 (int)n, unit, un.per_s ? " per second" : " (a size)", (int)num_len, num,
			 (int)num_len, num, (int)num_len, num, v * un.mult * 8 / 1e9, (int)num_len,
			 num, pre);
		return bad(err, input, s, unit, why);
	}
	v *= un.mult / 1e9;
	if (!(v >= 0.001) || v > 100000)
		return bad(err, input, s, s, "out of range (1 Mb/s to 100 Tb/s)");
	out->gbps = v;
	out->kind = un.base == BASE_ETH ? NICFIT_SPEED_ETH : NICFIT_SPEED_ANY;
	return 0;
}

int nicfit_parse_pcie(const char *s, const char *input, int *gen, int *width,
		      struct nicfit_error *err)
{
	const char *p = skip_space(s);
	double g;
	long w = 0;

	if (!strncasecmp(p, "pcie", 4)) {
		p = skip_space(p + 4);
		if (*p == '-')
			p++;
	}
	if (!strncasecmp(p, "gen", 3))
		p = skip_space(p + 3);
	else if (*p == 'g' || *p == 'G')
		p++;
	if (scan_number(&p, &g, 0))
		return bad(err, input, s, p, "expected a PCIe link such as gen3x16");
	if (g != floor(g) || g < 1 || g > 6)
		return bad(err, input, s, s, "PCIe generation must be 1 to 6");
	p = skip_space(p);
	if (*p == 'x' || *p == 'X') {
		const char *q = p + 1;
		char *end;

		if (!isdigit((unsigned char)*q))
			return bad(err, input, s, q, "expected a lane count after 'x'");
		errno = 0;
		w = strtol(q, &end, 10);
		if (errno || end == q)
			return bad(err, input, s, q, "bad lane count");
		p = skip_space(end);
		if (w != 1 && w != 2 && w != 4 && w != 8 && w != 12 && w != 16 && w != 32)
			return bad(err, input, s, q, "PCIe width must be x1, x2, x4, x8, x12, x16 or x32");
	}
	if (*p)
		return bad(err, input, s, p, "unexpected text in the PCIe link");
	*gen = (int)g;
	*width = (int)w;
	return 0;
}

/* ---- integers ------------------------------------------------------------ */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

enum nicfit_dec_status nicfit_scan_dec(const char *s, long min, long max, long *out,
				       const char **end)
{
	const char *p = s;
	unsigned long v = 0, lim;
	int neg = *p == '-', over = 0;
	long r;

	*out = 0;
	*end = s;
	if (neg)
		p++;
	if (!is_digit(*p))
		return NICFIT_DEC_NONE;
	/* the magnitude of LONG_MIN is one more than LONG_MAX */
	lim = neg ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX;
	for (; is_digit(*p); p++) {
		unsigned long d = (unsigned long)(*p - '0');

		if (v > (lim - d) / 10)
			over = 1; /* keep going: *end is past every digit */
		else if (!over)
			v = v * 10 + d;
	}
	*end = p;
	if (over)
		return NICFIT_DEC_RANGE;
	r = !neg ? (long)v : v == lim ? LONG_MIN : -(long)v;
	if (r < min || r > max)
		return NICFIT_DEC_RANGE;
	*out = r;
	return NICFIT_DEC_OK;
}

int nicfit_parse_dec(const char *s, long min, long max, long *out)
{
	const char *end;

	if (nicfit_scan_dec(s, min, max, out, &end) != NICFIT_DEC_OK || *end) {
		*out = 0;
		return -1;
	}
	return 0;
}

/*
 * The end of a fraction or an exponent at p (".5", ".", "e3", "E-2"), or p
 * when none starts there. after_digits: digits came just before, so a bare
 * "." ends a number ("5."); without them a point needs a digit (".5").
 * parse_long uses it only to say why a number is refused: "2.5" is a
 * number that is not whole, "2x" is a number with text after it.
 */
static const char *skip_fraction(const char *p, int after_digits)
{
	const char *q = p;

	if (*q == '.') {
		if (!after_digits && !is_digit(q[1]))
			return p;
		for (q++; is_digit(*q); q++)
			;
	} else if (!after_digits) {
		return p;
	}
	if ((*q == 'e' || *q == 'E') &&
	    (is_digit(q[1]) || ((q[1] == '-' || q[1] == '+') && is_digit(q[2]))))
		for (q += 2; is_digit(*q); q++)
			;
	return q;
}

int nicfit_parse_long(const char *s, const char *input, long min, long max,
		      long *out, struct nicfit_error *err)
{
	const char *p = skip_space(s), *digits = p, *end, *frac;
	enum nicfit_dec_status st;
	long v;

	/* a user may write "+8"; the core takes the kernel's forms only */
	if (*p == '+' && is_digit(p[1]))
		digits = p + 1;
	st = nicfit_scan_dec(digits, min, max, &v, &end);
	if (st == NICFIT_DEC_NONE) /* perhaps ".5" or "-.5": a number, not whole */
		end = p + (*p == '+' || *p == '-');
	frac = skip_fraction(end, st != NICFIT_DEC_NONE);
	if (st == NICFIT_DEC_NONE && frac == end)
		return bad(err, input, s, p, "expected an integer");
	if (*skip_space(frac))
		return bad(err, input, s, skip_space(frac), "unexpected text after the number");
	if (frac != end)
		return bad(err, input, s, s, "expected a whole number");
	if (st == NICFIT_DEC_RANGE) {
		char b[48];

		return nicfit_error_at(err, NICFIT_E_USAGE, input, 0, 0,
				       "'%s': out of range (%ld to %ld)",
				       shown(s, b, sizeof(b)), min, max);
	}
	*out = v;
	return 0;
}

int nicfit_parse_double(const char *s, const char *input, double min,
			double max, double *out, struct nicfit_error *err)
{
	const char *p = skip_space(s);
	double v;

	if (scan_number(&p, &v, 1))
		return bad(err, input, s, p, "expected a number");
	if (*skip_space(p))
		return bad(err, input, s, skip_space(p), "unexpected text after the number");
	if (v < min || v > max) {
		char b[48];

		return nicfit_error_at(err, NICFIT_E_USAGE, input, 0, 0,
				       "'%s': out of range (%g to %g)",
				       shown(s, b, sizeof(b)), min, max);
	}
	*out = v;
	return 0;
}

char *nicfit_fmt_bytes(double bytes, char *out, int n)
{
	static const char *u[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	int i = 0;

	while (fabs(bytes) >= 1000 && i < 5) {
		bytes /= 1000;
		i++;
	}
	if (!i)
		nicfit__fmt(out, (size_t)n, "%.0f %s", bytes, u[i]);
	else if (fabs(bytes) < 10)
		nicfit__fmt(out, (size_t)n, "%.2f %s", bytes, u[i]);
	else
		nicfit__fmt(out, (size_t)n, "%.1f %s", bytes, u[i]);
	return out;
}

char *nicfit_fmt_seconds(double s, char *out, int n)
{
	if (!isfinite(s))
		nicfit__fmt(out, (size_t)n, "-");
	else if (s < 1e-3)
		nicfit__fmt(out, (size_t)n, "%.0f us", s * 1e6);
	else if (s < 1)
		nicfit__fmt(out, (size_t)n, "%.0f ms", s * 1e3);
	else if (s < 10)
		nicfit__fmt(out, (size_t)n, "%.1f s", s);
	else if (s < 120)
		nicfit__fmt(out, (size_t)n, "%.0f s", s);
	else if (s < 7200)
		nicfit__fmt(out, (size_t)n, "%.1f min", s / 60);
	else
		nicfit__fmt(out, (size_t)n, "%.1f h", s / 3600);
	return out;
}
