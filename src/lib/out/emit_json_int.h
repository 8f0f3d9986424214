/*
 * emit_json_int.h - the JSON text of scalars, shared by the writer
 * (emit_json.c: containers, members, where each value goes) and the
 * scalars' out-of-line text (emit_json_scalar.c: strings escaped and
 * quoted, reals as json_dumps() writes them). The appends and tests a
 * document makes thousands of times (a quote, a key, a plain string, an
 * integer's digits) are static inline here, so that the writer's quick
 * paths keep them inline; the rest is declared at the end. Nothing here
 * knows the emitter's state. Private to out/.
 */
#ifndef NICFIT_EMIT_JSON_INT_H
#define NICFIT_EMIT_JSON_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "emit_json_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "nicfit/buf.h"
#include "core/fmt_int.h"

/*
 * Appends to the document, inline: a JSON document is thousands of short
 * pieces (a quote, a comma, a key), so each goes straight in while the
 * buffer has room and only growing goes through nicfit_buf_add().
 */
static inline void nicfit__json_add(struct nicfit_buf *b, const char *s, size_t n)
{
	if (!b->err && n < b->cap - b->len && n <= b->max - b->len) {
		memcpy(b->data + b->len, s, n);
		b->len += n;
		b->data[b->len] = '\0';
	} else {
		nicfit_buf_add(b, s, n);
	}
}

static inline void nicfit__json_addch(struct nicfit_buf *b, char c)
{
	if (!b->err && 1 < b->cap - b->len && b->len < b->max) {
		b->data[b->len++] = c;
		b->data[b->len] = '\0';
	} else {
		nicfit_buf_add(b, &c, 1);
	}
}

/* Does the word x (8 bytes of a string) hold a byte JSON escapes or >= 0x80? */
static inline int nicfit__json_word_escapes(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t q = x ^ (ones * '"'), bs = x ^ (ones * '\\'), del = x ^ (ones * 0x7f);

	/* a byte >= 0x80, < 0x20, equal to '"', to '\\' or to DEL */
	return ((x | ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((bs - ones) & ~bs) |
		 ((del - ones) & ~del)) & high) != 0;
}

#ifdef __SSE2__
/*
 * Does v (16 bytes of a string) hold a byte JSON escapes or >= 0x80? As
 * signed bytes, v + 1 is below 0x21 for a control, for DEL and for every
 * byte >= 0x80 (which wrap below zero): one compare finds the three, two
 * more the quote and the backslash.
 */
static inline int nicfit__json_chunk_escapes(__m128i v)
{
	return _mm_movemask_epi8(_mm_or_si128(
		       _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(1)), _mm_set1_epi8(0x21)),
		       _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
				    _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))))) != 0;
}
#endif

/*
 * s (n bytes) copied to d if it is nicfit__json_plain_ascii(), checked as it is copied
 * (one pass where checking, then copying took two): 1 when written, 0
 * when it is not plain (d holds some of it then). d has room for n bytes
 * and 16 more are not needed: the last chunk overlaps the one before.
 */
static inline __attribute__((always_inline)) int nicfit__json_plain_put(char *d, const char *s,
								      size_t n)
{
	size_t i;

#ifdef __SSE2__
	if (n >= 16) {
		for (i = 0;; i += 16) {
			__m128i v;

			if (i + 16 > n)
				i = n - 16;
			v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
			if (nicfit__json_chunk_escapes(v))
				return 0;
			_mm_storeu_si128((__m128i *)(void *)(d + i), v);
			if (i + 16 >= n)
				break;
		}
	} else
#endif
	if (n >= 8) {
		uint64_t x, y;

		memcpy(&x, s, 8);
		memcpy(&y, s + n - 8, 8);
		if (nicfit__json_word_escapes(x) || nicfit__json_word_escapes(y))
			return 0;
		memcpy(d, &x, 8);
		memcpy(d + n - 8, &y, 8);
	} else {
		for (i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];

			if (c >= 0x7f || c < 0x20 || c == '"' || c == '\\')
				return 0;
			d[i] = (char)c;
		}
	}
	return 1;
}

/*
 * llround(x) for |x| < 2^52, without the call: x minus its truncation is
 * exact there, so comparing it with one half rounds halves away from zero
 * as llround() does.
 */
static inline long long nicfit__round_half_away(double x)
{
	long long t = (long long)x;
	double f = x - (double)t;

	if (f >= 0.5)
		t++;
	else if (f <= -0.5)
		t--;
	return t;
}

/*
 * k / 1e4 (k not 0) as "%.15g" writes it, ".0" added to a whole number,
 * ending at end (written backwards); returns where it begins.
 */
static inline char *nicfit__json_fixed4_text(char *end, long long k)
{
	char *p = end;
	unsigned long long u, ip, fr;
	int d, neg;

	neg = k < 0;
	u = neg ? (unsigned long long)-k : (unsigned long long)k;
	ip = u / 10000;
	fr = u % 10000;
	d = 4;
	while (fr && fr % 10 == 0) {
		fr /= 10;
		d--;
	}
	if (!fr) {
		*--p = '0';
	} else {
		/* d decimals, their leading zeros written */
		for (; d >= 2; d -= 2) {
			const char *dd = nicfit__digit_pairs + 2 * (fr % 100);

			fr /= 100;
			*--p = dd[1];
			*--p = dd[0];
		}
		if (d)
			*--p = (char)('0' + fr % 10);
	}
	*--p = '.';
	p = nicfit__digits_back(p, ip);
	if (neg)
		*--p = '-';
	return p;
}

/* v in decimal, ending at end (written backwards); returns where it begins. */
static inline char *nicfit__json_int_text(char *end, long long v)
{
	char *q = nicfit__digits_back(
		end, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);

	if (v < 0)
		*--q = '-';
	return q;
}

/*
 * emit_json_scalar.c. s, n: n bytes of a string (not NUL-terminated); b:
 * the document, appended to (a failure is the buffer's sticky error).
 */
/* 1 when s is printable ASCII that JSON takes as it is, else 0 */
int nicfit__json_plain_ascii(const char *s, size_t n);
/* a nicfit__json_plain_ascii() string, quoted */
void nicfit__json_plain_quote(struct nicfit_buf *b, const char *s, size_t n);
/* s quoted if plain and the buffer has room: 1 written, 0 not plain, -1 no room (nothing done) */
int nicfit__json_plain_copy(struct nicfit_buf *b, const char *s, size_t n);
/* 1 when s is well-formed UTF-8, else 0 */
int nicfit__json_utf8_valid(const char *s, size_t n);
/* s (valid UTF-8) quoted and escaped as json_dumps() does */
void nicfit__json_quote(struct nicfit_buf *b, const char *s, size_t n);
/* v (finite) as json_dumps() writes a real with JSON_REAL_PRECISION(15) */
void nicfit__json_real_out(struct nicfit_buf *b, double v);

#endif
