/*
 * fmt.c - snprintf() to the byte without printf's cost. A plan writes
 * some fifty sentences full of numbers (its decisions, findings, verdict
 * and labels), and glibc's vsnprintf spends most of a plan's time on
 * them: its set-up for every call and its exact, multi-precision float
 * conversion. nicfit__vfmt() writes the conversions the library uses
 * (%s, %c, %d/%i/%u with l, ll or z, %f and %g with a precision, %%)
 * directly, and hands the whole text to vsnprintf() when it meets any
 * other (a width, a flag, %e, %x ...) or a number whose rounding it could
 * get wrong, so that the bytes are always exactly vsnprintf's.
 *
 * The library's own texts (nicfit__fmt(), the findings' and decisions'
 * texts) are written by nicfit__vfmt_lit(), which reads each format once a
 * process into its runs and conversions and keeps that by the format's
 * address: a string literal, whose bytes never change. Later texts of the
 * same format copy each run by its length and convert each argument,
 * without looking for the '%' or reading the letters again.
 *
 * Floats: %.Nf rounds |v| x 10^N to an integer. The product is within
 * half an ulp of the exact one, so unless it lies that close to a .5 tie
 * (which glibc rounds on the exact binary value) its nearest integer is
 * glibc's; near a tie, past 2^53 or for N > 15 it falls back. %g is %f
 * with P - 1 - X decimals (X the exponent after rounding to P significant
 * digits), trailing zeros removed; the exponent form (X < -4 or X >= P)
 * is those P digits as d.ddd, zeros removed, then e+XX: with 10^|d| exact
 * up to 10^22, dividing instead of multiplying rounds just once too.
 */
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt_int.h"

struct out {
	char *d;
	size_t n;   /* the buffer's size */
	size_t len; /* what the whole text takes (written: the first n - 1 bytes) */
};

/*
 * Appends k bytes of s. Most pieces are a word or two (a run between
 * conversions, a name, a number): up to 16 bytes are copied as two words
 * (or halves, or bytes) that overlap, up to 64 as blocks of 16, not
 * through a call to memcpy().
 */
static inline void put(struct out *o, const char *s, size_t k)
{
	size_t len = o->len;

	if (o->n > len && k < o->n - len) {
		char *d = o->d + len;

		if (k > 64) {
			memcpy(d, s, k);
		} else if (k > 16) {
			/* a run of prose between conversions: blocks of 16, the last overlapping */
			size_t i;

			for (i = 0; i + 16 < k; i += 16)
				memcpy(d + i, s + i, 16);
			memcpy(d + k - 16, s + k - 16, 16);
		} else if (k >= 8) {
			memcpy(d, s, 8);
			memcpy(d + k - 8, s + k - 8, 8);
		} else if (k >= 4) {
			memcpy(d, s, 4);
			memcpy(d + k - 4, s + k - 4, 4);
		} else if (k) {
			d[0] = s[0];
			d[k / 2] = s[k / 2];
			d[k - 1] = s[k - 1];
		}
	} else if (len + 1 < o->n) {
		size_t room = o->n - 1 - len;

		memcpy(o->d + len, s, k < room ? k : room);
	}
	o->len = len + k;
}

static void put_u(struct out *o, unsigned long long u, int neg)
{
	char t[24], *q = nicfit__digits_back(t + sizeof(t), u);

	if (neg)
		*--q = '-';
	put(o, q, (size_t)(t + sizeof(t) - q));
}

/* The powers of ten a double holds exactly. */
static const double pow10_tab[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				    1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
#define POW10_MAX 22

/*
 * a (>= 0) x 10^d rounded to the nearest integer into *r, or -1 when
 * that may differ from rounding the exact product (a tie, too large).
 * A negative d divides by 10^-d: one rounding either way, as 10^|d| is
 * exact, so the same tie test holds.
 */
static int round_scaled(double a, int d, unsigned long long *r)
{
	double x, fl, fr;

	if (d < -POW10_MAX || d > POW10_MAX)
		return -1;
	x = d < 0 ? a / pow10_tab[-d] : a * pow10_tab[d];
	if (!(x < 9007199254740992.0))
		return -1;
	/* floor(x), 0 <= x < 2^53: the truncation is exact, without a call */
	fl = (double)(unsigned long long)x;
	fr = x - fl;
	if (fabs(fr - 0.5) <= x * 1e-15 + 1e-300)
		return -1;
	*r = (unsigned long long)fl + (fr > 0.5);
	return 0;
}

/*
 * r / 10^d with d decimals (none and no point when d is 0), after the
 * sign; strip drops the decimals' trailing zeros (and the point with the
 * last of them), as %g does.
 */
static void put_fixed(struct out *o, unsigned long long r, int d, int neg, int strip)
{
	char t[48], *q = t + sizeof(t);

	if (strip)
		while (d > 0 && r % 10 == 0) {
			r /= 10;
			d--;
		}
	if (d > 0) {
		int i;

		for (i = 0; i + 2 <= d; i += 2) {
			const char *dd = nicfit__digit_pairs + 2 * (r % 100);

			r /= 100;
			*--q = dd[1];
			*--q = dd[0];
		}
		if (i < d) {
			*--q = (char)('0' + r % 10);
			r /= 10;
		}
		*--q = '.';
	}
	q = nicfit__digits_back(q, r);
	if (neg)
		*--q = '-';
	put(o, q, (size_t)(t + sizeof(t) - q));
}

static int put_f(struct out *o, double v, int prec)
{
	unsigned long long r;

	if (!isfinite(v) || prec > 15 || round_scaled(fabs(v), prec, &r))
		return -1;
	put_fixed(o, r, prec, signbit(v) != 0, 0);
	return 0;
}

static int put_g(struct out *o, double v, int prec)
{
	double a = fabs(v);
	unsigned long long r;
	int x, tries;

	if (!isfinite(v))
		return -1;
	if (prec == 0)
		prec = 1;
	if (a == 0) {
		put(o, signbit(v) ? "-0" : "0", signbit(v) ? 2 : 1);
		return 0;
	}
	if (prec > 15 || !(a >= 1e-7) || !(a < 1e22))
		return -1;
	/* the decimal exponent from the exact powers (the loop below corrects it by one either way) */
	x = 0;
	if (a >= 1)
		while (x < POW10_MAX && pow10_tab[x + 1] <= a)
			x++;
	else
		while (x > -8 && a * pow10_tab[-x] < 1)
			x--;
	for (tries = 0; tries < 3; tries++) {
		if (round_scaled(a, prec - 1 - x, &r))
			return -1;
		if (r >= (unsigned long long)pow10_tab[prec])
			x++;
		else if (r < (unsigned long long)pow10_tab[prec - 1])
			x--;
		else
			break;
	}
	if (tries == 3)
		return -1;
	if (x >= -4 && x < prec) {
		put_fixed(o, r, prec - 1 - x, signbit(v) != 0, 1);
		return 0;
	}
	/* the exponent form: d.ddd (zeros stripped), 'e', its sign, two digits at least */
	put_fixed(o, r, prec - 1, signbit(v) != 0, 1);
	put(o, x < 0 ? "e-" : "e+", 2);
	if (x > -10 && x < 10)
		put(o, "0", 1);
	put_u(o, (unsigned long long)(x < 0 ? -x : x), 0);
	return 0;
}

/* A conversion, as its letters say (parse_spec()). */
struct spec {
	char conv;	  /* 's', 'c', 'd' (for 'i' too), 'u', 'f', 'g'; '%' for "%%"; 0: none */
	signed char lng;  /* 0, 1 for l, 2 for ll */
	signed char z;	  /* z: size_t */
	short prec;	  /* -1: none */
};

/*
 * The conversion whose letters begin at f (past its '%') into *sp: the
 * number of its letters, or 0 when it is one for vsnprintf (a width, a
 * flag, a conversion or a length that the writers below do not take).
 */
static size_t parse_spec(const char *f, struct spec *sp)
{
	const char *s = f;
	int prec = -1, lng = 0, z = 0;

	if (*f == '.') {
		f++;
		if (*f < '0' || *f > '9')
			return 0;
		prec = 0;
		while (*f >= '0' && *f <= '9' && prec < 100)
			prec = prec * 10 + (*f++ - '0');
	}
	if (*f == 'l') {
		lng = 1;
		if (*++f == 'l') {
			lng = 2;
			f++;
		}
	} else if (*f == 'z') {
		z = 1;
		f++;
	}
	switch (*f) {
	case 's':
	case 'f':
	case 'g':
		if (lng || z)
			return 0;
		break;
	case 'c':
		if (lng || z || prec >= 0)
			return 0;
		break;
	case 'd':
	case 'i':
	case 'u':
		if (prec >= 0)
			return 0;
		break;
	default:
		return 0;
	}
	sp->conv = *f == 'i' ? 'd' : *f;
	sp->lng = (signed char)lng;
	sp->z = (signed char)z;
	sp->prec = (short)prec;
	return (size_t)(f + 1 - s);
}

/* The conversion sp of the next argument; -1 when vsnprintf must write the text. */
static inline __attribute__((always_inline)) int run_spec(struct out *o, const struct spec *sp,
							  va_list *ap)
{
	int prec = sp->prec, lng = sp->lng, z = sp->z;

	switch (sp->conv) {
	case 's': {
		const char *s = va_arg(*ap, const char *);
		size_t k;

		if (!s)
			s = prec >= 0 && prec < 6 ? "" : "(null)";
		k = prec >= 0 ? strnlen(s, (size_t)prec) : nicfit__strlen(s);
		put(o, s, k);
		return 0;
	}
	case 'c': {
		char c = (char)va_arg(*ap, int);

		put(o, &c, 1);
		return 0;
	}
	case 'd': {
		long long v = z ? (long long)va_arg(*ap, ptrdiff_t) :
			      lng == 2 ? va_arg(*ap, long long) :
			      lng ? va_arg(*ap, long) : va_arg(*ap, int);

		put_u(o, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, v < 0);
		return 0;
	}
	case 'u': {
		unsigned long long v = z ? va_arg(*ap, size_t) :
				       lng == 2 ? va_arg(*ap, unsigned long long) :
				       lng ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned);

		put_u(o, v, 0);
		return 0;
	}
	case 'f':
		return put_f(o, va_arg(*ap, double), prec < 0 ? 6 : prec);
	case 'g':
		return put_g(o, va_arg(*ap, double), prec < 0 ? 6 : prec);
	default:
		return -1;
	}
}

/* One conversion at *pf (past its '%'); -1 when it is one for vsnprintf. */
static int convert(struct out *o, const char **pf, va_list *ap)
{
	struct spec sp;
	size_t k = parse_spec(*pf, &sp);

	if (!k)
		return -1;
	*pf += k;
	return run_spec(o, &sp, ap);
}

int nicfit__vfmt(char *d, size_t n, const char *fmt, va_list ap)
{
	struct out o = { d, n, 0 };
	const char *f = fmt;
	va_list cp;

	va_copy(cp, ap);
	while (*f) {
		const char *pct = nicfit__stop(f, '%');

		put(&o, f, (size_t)(pct - f));
		if (!*pct)
			break;
		f = pct + 1;
		if (*f == '%') {
			put(&o, "%", 1);
			f++;
			continue;
		}
		if (convert(&o, &f, &cp)) {
			int k;

			va_end(cp);
			k = vsnprintf(d, n, fmt, ap);
			return k;
		}
	}
	va_end(cp);
	if (n)
		d[o.len < n ? o.len : n - 1] = '\0';
	return o.len > 0x7fffffff ? -1 : (int)o.len;
}

/*
 * A format read once: the runs of its bytes between conversions and the
 * conversions themselves, so that writing it again copies each run by
 * its length and converts each argument without looking for the '%' or
 * reading the letters again. A plan writes some eighty texts from some
 * sixty formats, a few hundred runs and conversions, and looking for them
 * was a quarter of the formatter's work.
 */
struct seg {
	unsigned short lit; /* the format's bytes before the conversion, written as they are */
	unsigned char skip; /* the conversion's letters, its '%' among them */
	struct spec sp;	    /* sp.conv 0: the format ends after the run */
};

struct prog {
	const char *fmt; /* the format read (its address) */
	unsigned nseg;	 /* 0: a format the reading way writes (see compile()) */
	struct seg seg[];
};

#define PROG_SEGS 64u
#define PROG_LIT 65535u

/*
 * fmt read into a new program, or one of no segments for a format with a
 * conversion for vsnprintf, more than PROG_SEGS conversions or a run
 * longer than PROG_LIT bytes (which the reading way writes). NULL when
 * memory ran out.
 */
static struct prog *compile(const char *fmt)
{
	struct seg segs[PROG_SEGS];
	const char *f = fmt;
	unsigned n = 0;
	struct prog *p;

	for (;;) {
		const char *pct = nicfit__stop(f, '%');
		struct seg *g = &segs[n];
		size_t k = 0;

		if (n == PROG_SEGS || (size_t)(pct - f) > PROG_LIT) {
			n = 0;
			break;
		}
		g->lit = (unsigned short)(pct - f);
		memset(&g->sp, 0, sizeof(g->sp));
		n++;
		if (!*pct) {
			g->skip = 0;
			break;
		}
		if (pct[1] == '%') {
			g->sp.conv = '%';
			k = 1;
		} else if (!(k = parse_spec(pct + 1, &g->sp))) {
			n = 0;
			break;
		}
		g->skip = (unsigned char)(1 + k);
		f = pct + 1 + k;
	}
	p = malloc(sizeof(*p) + n * sizeof(p->seg[0]));
	if (!p)
		return NULL;
	p->fmt = fmt;
	p->nseg = n;
	if (n)
		memcpy(p->seg, segs, n * sizeof(segs[0]));
	return p;
}

/*
 * The programs of the formats written, by address: an open table of one
 * slot a hash, filled once (a format whose slot another holds is read
 * every time) and kept for the process, shared by serve's threads (a slot
 * is taken with a compare-and-swap and read with acquire: a program is
 * whole before it is seen). Some hundred formats, a few kB.
 */
#define PROGS 1024u
static _Atomic(struct prog *) progs[PROGS];

static const struct prog *prog_of(const char *fmt)
{
	_Atomic(struct prog *) *slot = &progs[((uint64_t)(uintptr_t)fmt * 0x9e3779b97f4a7c15ull) >> 54];
	struct prog *p = atomic_load_explicit(slot, memory_order_acquire), *mine;

	if (p)
		return p->fmt == fmt ? p : NULL;
	if (!(mine = compile(fmt)))
		return NULL;
	if (!atomic_compare_exchange_strong_explicit(slot, &p, mine, memory_order_acq_rel,
						     memory_order_acquire)) {
		free(mine);
		return p->fmt == fmt ? p : NULL;
	}
	return mine;
}

int nicfit__vfmt_lit(char *d, size_t n, const char *fmt, va_list ap)
{
	const struct prog *pg = prog_of(fmt);
	struct out o = { d, n, 0 };
	const struct seg *g;
	const char *p = fmt;
	va_list cp;

	if (!pg || !pg->nseg)
		return nicfit__vfmt(d, n, fmt, ap);
	va_copy(cp, ap);
	for (g = pg->seg;; g++) {
		put(&o, p, g->lit);
		if (!g->sp.conv)
			break;
		p += g->lit + g->skip;
		if (g->sp.conv == '%') {
			put(&o, "%", 1);
		} else if (run_spec(&o, &g->sp, &cp)) {
			va_end(cp);
			return vsnprintf(d, n, fmt, ap);
		}
	}
	va_end(cp);
	if (n)
		d[o.len < n ? o.len : n - 1] = '\0';
	return o.len > 0x7fffffff ? -1 : (int)o.len;
}

int nicfit__fmt(char *d, size_t n, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = nicfit__vfmt_lit(d, n, fmt, ap);
	va_end(ap);
	return k;
}

