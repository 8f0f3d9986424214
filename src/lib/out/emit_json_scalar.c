/*
 * emit_json_scalar.c - the JSON text of one scalar, as jansson's
 * json_dumps() writes it, appended to a nicfit_buf: a string checked
 * (plain ASCII, well-formed UTF-8), escaped and quoted; a real in "%.15g"
 * with ".0" on a whole number and a bare exponent; nicfit_round4(). It
 * knows nothing of the emitter: not where a value goes in a document, its
 * key, its separator or indent, the open containers or a duplicate key,
 * which are emit_json.c's (the writer), its one caller. The pieces the
 * writer's hot paths inline (appends, the plain-ASCII test, digits) are
 * in emit_json_int.h; this file holds what is called out of line.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "out/emit_json_int.h"
#include "nicfit/buf.h"
#include "nicfit/emit.h"
#include "core/utf8.h"

/*
 * Is s printable ASCII that JSON takes as it is (no byte past 0x7f, no
 * control character, no '"' or '\\')? Eight bytes at a time, the last
 * eight overlapping the word before them rather than a byte loop: nearly
 * every key and value is, and is then valid UTF-8 and copied unescaped.
 */
int nicfit__json_plain_ascii(const char *s, size_t n)
{
	uint64_t x;
	size_t i;

#ifdef __SSE2__
	/* sixteen bytes at a time where the CPU has SSE2 (every x86-64): a decision is hundreds */
	if (n >= 16) {
		for (i = 0;; i += 16) {
			if (i + 16 > n)
				i = n - 16;
			if (nicfit__json_chunk_escapes(
				    _mm_loadu_si128((const __m128i *)(const void *)(s + i))))
				return 0;
			if (i + 16 >= n)
				return 1;
		}
	}
#endif
	if (n < 8) {
		for (i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];

			if (c >= 0x7f || c < 0x20 || c == '"' || c == '\\')
				return 0;
		}
		return 1;
	}
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&x, s + i, 8);
		if (nicfit__json_word_escapes(x))
			return 0;
	}
	if (i < n) {
		memcpy(&x, s + n - 8, 8);
		if (nicfit__json_word_escapes(x))
			return 0;
	}
	return 1;
}

/* A nicfit__json_plain_ascii() string, quoted. */
void nicfit__json_plain_quote(struct nicfit_buf *b, const char *s, size_t n)
{
	if (!b->err && n + 2 < b->cap - b->len && n + 2 <= b->max - b->len) {
		char *d = b->data + b->len;

		d[0] = '"';
		memcpy(d + 1, s, n);
		d[n + 1] = '"';
		d[n + 2] = '\0';
		b->len += n + 2;
		return;
	}
	nicfit_buf_addch(b, '"');
	nicfit_buf_add(b, s, n);
	nicfit_buf_addch(b, '"');
}

/*
 * s (n bytes) quoted at the end of the buffer if it is nicfit__json_plain_ascii() and
 * the buffer has room: 1 when written, 0 when it is not plain (nothing is
 * written), -1 when the buffer must grow first.
 */
int nicfit__json_plain_copy(struct nicfit_buf *b, const char *s, size_t n)
{
	char *d;

	if (b->err || !(n + 2 < b->cap - b->len && n + 2 <= b->max - b->len))
		return -1;
	d = b->data + b->len + 1;
	if (!nicfit__json_plain_put(d, s, n))
		return 0;
	d[-1] = '"';
	d[n] = '"';
	d[n + 1] = '\0';
	b->len += n + 2;
	return 1;
}

/*
 * (nicfit/emit.h) Here beside the JSON reals' text; its one caller in the
 * library is the number writer (emit_json.c).
 */
double nicfit_round4(double v)
{
	if (!isfinite(v))
		return v;
	if (fabs(v) >= 1e11)
		return v;
	return round(v * 1e4) / 1e4;
}

/* 1 when the n bytes at s are well-formed UTF-8 (core/utf8.h), as jansson requires. */
int nicfit__json_utf8_valid(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		k = nicfit__utf8_len((const unsigned char *)s + i, n - i, NULL);
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

/*
 * s (valid UTF-8) as a JSON string, escaped as json_dumps() escapes it,
 * and DEL too (\u007F), which jansson leaves raw: a name from a paste
 * puts no raw control byte on a terminal in any format.
 */
void nicfit__json_quote(struct nicfit_buf *b, const char *s, size_t n)
{
	size_t i, run = 0;

	if (nicfit__json_plain_ascii(s, n)) {
		nicfit__json_plain_quote(b, s, n);
		return;
	}
	nicfit_buf_addch(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char u[8];

		if (c != 0x7f && (c > '\\' || (c >= 0x20 && c != '"' && c != '\\')))
			continue;
		nicfit_buf_add(b, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		default:
			snprintf(u, sizeof(u), "\\u%04X", c);
			esc = u;
		}
		nicfit_buf_puts(b, esc);
	}
	nicfit_buf_add(b, s + run, n - run);
	nicfit_buf_addch(b, '"');
}

/*
 * A real as json_dumps() writes it with JSON_REAL_PRECISION(15): "%.15g",
 * ".0" added when that reads as an integer, and the exponent without
 * its '+' and leading zeros.
 */
/*
 * The value a whole number of ten-thousandths k / 1e4 (|k| < 1e14): what
 * "%.15g" writes is then exactly that decimal, shortest (the double lies
 * far closer to it than half a 15-digit step), which is written without
 * printf; so is a whole number of 10 to 15 digits. Returns 0 when v is
 * neither.
 */
static void put_fixed4(struct nicfit_buf *b, long long k);

static int json_real_fast(struct nicfit_buf *b, double v)
{
	char t[40], *p = t + sizeof(t);
	long long k;
	unsigned long long u;

	if (fabs(v) >= 1e10 && fabs(v) < 1e15 && v == floor(v)) {
		/* a whole number of at most 15 digits: "%.15g" writes its digits, then ".0" */
		u = (unsigned long long)fabs(v);
		*--p = '0';
		*--p = '.';
		do {
			*--p = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		if (v < 0)
			*--p = '-';
		nicfit__json_add(b, p, (size_t)(t + sizeof(t) - p));
		return 1;
	}
	if (!(fabs(v) < 1e10) || v == 0)
		return 0;
	k = nicfit__round_half_away(v * 1e4);
	if ((double)k / 1e4 != v)
		return 0;
	put_fixed4(b, k);
	return 1;
}

static void put_fixed4(struct nicfit_buf *b, long long k)
{
	char t[40], *p = nicfit__json_fixed4_text(t + sizeof(t), k);

	nicfit__json_add(b, p, (size_t)(t + sizeof(t) - p));
}

void nicfit__json_real_out(struct nicfit_buf *b, double v)
{
	char t[64], *x, *end;
	int n;

	if (json_real_fast(b, v))
		return;
	n = snprintf(t, sizeof(t), "%.15g", v);

	if (n < 0 || (size_t)n >= sizeof(t) - 3)
		return;
	if (!strchr(t, '.') && !strchr(t, 'e')) {
		t[n++] = '.';
		t[n++] = '0';
		t[n] = '\0';
	}
	x = strchr(t, 'e');
	if (x) {
		x++;
		end = x + 1;
		if (*x == '-')
			x++;
		while (*end == '0')
			end++;
		if (end != x)
			memmove(x, end, strlen(end) + 1);
	}
	nicfit_buf_puts(b, t);
}
