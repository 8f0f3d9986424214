/*
 * jscan.c - the strict JSON tokenizer (see jscan_int.h).
 *
 * A recursive-descent parser over a byte range. Strings are scanned 16
 * bytes at a time (SSE2; 4 at a time without it) by a loop that stops
 * only at a quote, a backslash, a control byte or a non-ASCII byte (then
 * UTF-8 is checked), which keeps the common case at memchr speed. Depth
 * is capped, so the recursion is bounded.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/alloc_int.h"
#include "core/jscan_int.h"
#include "core/utf8.h"

struct ctx {
	struct jscan *s;
	const unsigned char *p;   /* next byte */
	const unsigned char *beg;
	const unsigned char *end;
	int nomem;
	int toomany;              /* a container past max_count stopped the parse */
};

void nicfit__jscan_init(struct jscan *s)
{
	memset(s, 0, sizeof(*s));
}

void nicfit__jscan_release(struct jscan *s)
{
	free(s->tok);
	nicfit__jscan_init(s);
}

static int fail(struct ctx *c, const unsigned char *at, const char *msg)
{
	if (!c->s->err_msg) {
		c->s->err_msg = msg;
		c->s->err_off = (size_t)(at - c->beg);
	}
	return -1;
}

/* Room for one more token (out of line: the array is reused from document to document). */
static __attribute__((noinline)) int grow_tokens(struct ctx *c)
{
	struct jscan *s = c->s;

	/* ntok stays below UINT32_MAX: every token takes a byte of a text
	 * shorter than 4 GiB */
	if (NICFIT_ALLOC_GROW(s->tok, (size_t)s->ntok + 1, s->cap)) {
		c->nomem = 1;
		return -1;
	}
	return 0;
}

/* A new token, inline: a document has one for every few bytes. */
static inline __attribute__((always_inline)) int new_tok(struct ctx *c, int type,
							  const unsigned char *at)
{
	struct jscan *s = c->s;
	struct jscan_tok *t;

	if ((size_t)s->ntok >= s->cap && grow_tokens(c))
		return -1;
	t = &s->tok[s->ntok];
	t->type = (unsigned char)type;
	t->escaped = 0;
	t->start = (uint32_t)(at - c->beg);
	t->len = 0;
	t->next = s->ntok + 1;
	t->count = 0;
	return (int)s->ntok++;
}

/* Whitespace skipped; a byte above ' ' is none, which is one compare where there is none. */
static inline void skip_ws(struct ctx *c)
{
	while (c->p < c->end && *c->p <= ' ' &&
	       (*c->p == ' ' || *c->p == '\n' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static long hex4(const unsigned char *p, const unsigned char *end)
{
	long v = 0;
	int i;

	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		int h = hexval(p[i]);

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* 1 for bytes a string holds as they are: printable ASCII but '"' and '\\'. */
static const unsigned char plain_byte[256] = {
#define R4(x) x, x, x, x
#define R16(x) R4(x), R4(x), R4(x), R4(x)
	R16(0), R16(0),                           /* 0x00-0x1f */
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x20-0x2f, '"' */
	R16(1), R16(1),                           /* 0x30-0x4f */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, /* 0x50-0x5f, '\\' */
	R16(1), R16(1),                           /* 0x60-0x7f */
#undef R16
#undef R4
};

/*
 * The first byte at or after q, before end, that is not plain_byte: a
 * quote, a backslash, a control byte or a non-ASCII byte; end if none.
 * With SSE2, 16 bytes a step: a signed compare below 0x20 takes the
 * control bytes and the bytes from 0x80 (negative as signed) together.
 * Every load lies wholly before end, so nothing past the text is read and
 * no checker of memory has anything to report; the last bytes are taken
 * one at a time.
 */
static inline const unsigned char *string_stop(const unsigned char *q, const unsigned char *end)
{
#ifdef __SSE2__
	const __m128i lo = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"');
	const __m128i bs = _mm_set1_epi8('\\');

	while (end - q >= 16) {
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)q);
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmplt_epi8(b, lo),
				     _mm_or_si128(_mm_cmpeq_epi8(b, quote), _mm_cmpeq_epi8(b, bs))));

		if (m)
			return q + __builtin_ctz(m);
		q += 16;
	}
#else
	while (end - q >= 4 && plain_byte[q[0]] && plain_byte[q[1]] && plain_byte[q[2]] &&
	       plain_byte[q[3]])
		q += 4;
#endif
	while (q < end && plain_byte[*q])
		q++;
	return q;
}

/* fail(), for a caller that returns a pointer. */
static const unsigned char *fail_null(struct ctx *c, const unsigned char *at, const char *msg)
{
	fail(c, at, msg);
	return NULL;
}

/*
 * The rest of a string from q, where string_stop() found a byte that is
 * not plain: escapes are checked, UTF-8 is validated. Returns the closing
 * quote, or NULL after fail(); *escaped is set for a backslash escape.
 */
static __attribute__((noinline)) const unsigned char *string_rest(struct ctx *c,
								  const unsigned char *q,
								  int *escaped)
{
	for (;;) {
		if (q >= c->end)
			return fail_null(c, c->end, "unterminated string");
		if (*q == '"')
			return q;
		if (*q < 0x20)
			return fail_null(c, q, "control character in a string");
		if (*q >= 0x80) {
			int n = (int)nicfit__utf8_len(q, (size_t)(c->end - q), NULL);

			if (!n)
				return fail_null(c, q, "invalid UTF-8 in a string");
			q = string_stop(q + n, c->end);
			continue;
		}
		/* backslash */
		*escaped = 1;
		if (q + 1 >= c->end)
			return fail_null(c, c->end, "unterminated string");
		switch (q[1]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
			q += 2;
			break;
		case 'u': {
			long u = hex4(q + 2, c->end);

			if (u < 0)
				return fail_null(c, q, "bad \\u escape");
			if (u == 0)
				return fail_null(c, q, "\\u0000 is not allowed in a string");
			if (u >= 0xDC00 && u <= 0xDFFF)
				return fail_null(c, q, "lone low surrogate in a \\u escape");
			if (u >= 0xD800 && u <= 0xDBFF) {
				long lo;

				if (c->end - q < 12 || q[6] != '\\' || q[7] != 'u')
					return fail_null(c, q, "high surrogate without its low half");
				lo = hex4(q + 8, c->end);
				if (lo < 0xDC00 || lo > 0xDFFF)
					return fail_null(c, q, "high surrogate without its low half");
				q += 12;
			} else {
				q += 6;
			}
			break;
		}
		default:
			return fail_null(c, q, "bad escape in a string");
		}
		q = string_stop(q, c->end);
	}
}

/*
 * A string: the common one, plain bytes up to its quote, is one
 * string_stop(); the token is written once, whole, when its end is known.
 */
static inline __attribute__((always_inline)) int parse_string(struct ctx *c)
{
	const unsigned char *s0 = c->p + 1, *q = string_stop(s0, c->end);
	int escaped = 0, t;
	struct jscan_tok *tk;

	if (q >= c->end || *q != '"') {
		q = string_rest(c, q, &escaped);
		if (!q)
			return -1;
	}
	t = new_tok(c, JS_STRING, s0);
	if (t < 0)
		return -1;
	tk = &c->s->tok[t];
	tk->len = (uint32_t)(q - s0);
	tk->escaped = (unsigned char)escaped;
	c->p = q + 1;
	return t;
}

static int parse_number(struct ctx *c)
{
	const unsigned char *q = c->p;
	int t;

	if (q < c->end && *q == '-')
		q++;
	if (q >= c->end || *q < '0' || *q > '9')
		return fail(c, q, "bad number");
	if (*q == '0') {
		q++;
	} else {
		while (q < c->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < c->end && *q == '.') {
		q++;
		if (q >= c->end || *q < '0' || *q > '9')
			return fail(c, q, "bad number: digits must follow '.'");
		while (q < c->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < c->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < c->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= c->end || *q < '0' || *q > '9')
			return fail(c, q, "bad number: digits must follow the exponent");
		while (q < c->end && *q >= '0' && *q <= '9')
			q++;
	}
	t = new_tok(c, JS_NUMBER, c->p);
	if (t < 0)
		return -1;
	c->s->tok[t].len = (uint32_t)(q - c->p);
	c->p = q;
	return t;
}

/* true, false or null: n is strlen(word), known where it is called, so the compare is inline. */
static inline __attribute__((always_inline)) int parse_literal(struct ctx *c, const char *word,
							       size_t n, int type)
{
	int t;

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n))
		return fail(c, c->p, "unexpected character (not a JSON value)");
	t = new_tok(c, type, c->p);
	if (t < 0)
		return -1;
	c->s->tok[t].len = (uint32_t)n;
	c->p += n;
	return t;
}

static inline __attribute__((always_inline)) int parse_value(struct ctx *c, int depth);

static int parse_container(struct ctx *c, int depth, int object)
{
	int t = new_tok(c, object ? JS_OBJECT : JS_ARRAY, c->p);
	/* 0 is no limit; a container holds fewer than UINT32_MAX values (one byte each) */
	uint32_t count = 0, max_count = c->s->max_count ? c->s->max_count : UINT32_MAX;
	unsigned char close = object ? '}' : ']';

	if (t < 0)
		return -1;
	if ((unsigned)depth >= (c->s->max_depth ? c->s->max_depth : JSCAN_MAX_DEPTH))
		return fail(c, c->p, "nested too deeply");
	c->p++;
	skip_ws(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		goto done;
	}
	for (;;) {
		if (count == max_count) {
			/* a limit checked as the text is read: nothing past it is looked at */
			skip_ws(c);
			c->toomany = 1;
			return fail(c, c->p, object ? "too many members" : "too many elements");
		}
		if (object) {
			skip_ws(c);
			if (c->p >= c->end)
				return fail(c, c->end, "document ends inside an object");
			if (*c->p != '"')
				return fail(c, c->p, "expected a member name in quotes");
			if (parse_string(c) < 0)
				return -1;
			skip_ws(c);
			if (c->p >= c->end)
				return fail(c, c->end, "document ends inside an object");
			if (*c->p != ':')
				return fail(c, c->p, "expected ':' after a member name");
			c->p++;
		}
		if (parse_value(c, depth + 1) < 0)
			return -1;
		count++;
		skip_ws(c);
		if (c->p >= c->end)
			return fail(c, c->end, object ? "document ends inside an object"
						       : "document ends inside an array");
		if (*c->p == ',') {
			c->p++;
			continue;
		}
		if (*c->p == close) {
			c->p++;
			break;
		}
		return fail(c, c->p, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
done:
	c->s->tok[t].count = count;
	c->s->tok[t].next = c->s->ntok;
	c->s->tok[t].len = (uint32_t)(c->p - (c->beg + c->s->tok[t].start));
	return t;
}

static inline __attribute__((always_inline)) int parse_value(struct ctx *c, int depth)
{
	skip_ws(c);
	if (c->p >= c->end)
		return fail(c, c->end, "document ends where a value should be");
	switch (*c->p) {
	case '{':
		return parse_container(c, depth, 1);
	case '[':
		return parse_container(c, depth, 0);
	case '"':
		return parse_string(c);
	case 't':
		return parse_literal(c, "true", 4, JS_TRUE);
	case 'f':
		return parse_literal(c, "false", 5, JS_FALSE);
	case 'n':
		return parse_literal(c, "null", 4, JS_NULL);
	default:
		if (*c->p == '-' || (*c->p >= '0' && *c->p <= '9'))
			return parse_number(c);
		return fail(c, c->p, "unexpected character (not a JSON value)");
	}
}

static int parse(struct jscan *s, const char *text, size_t len, size_t *used)
{
	struct ctx c;

	s->ntok = 0;
	s->err_msg = NULL;
	s->err_off = 0;
	s->text = text;
	s->textlen = len;
	s->hint_obj = UINT32_MAX;
	s->hint_key = 0;
	memset(&c, 0, sizeof(c));
	c.s = s;
	c.beg = c.p = (const unsigned char *)text;
	c.end = c.beg + len;
	if (len >= UINT32_MAX) {
		fail(&c, c.beg, "document of 4 GiB or more");
		return -1;
	}
	if (parse_value(&c, 0) < 0)
		return c.nomem ? -2 : c.toomany ? JSCAN_E_COUNT : -1;
	skip_ws(&c);
	if (used) {
		*used = (size_t)(c.p - c.beg);
		s->textlen = *used;
	} else if (c.p != c.end) {
		fail(&c, c.p, "text after the end of the document");
		return -1;
	}
	return 0;
}

int nicfit__jscan_parse(struct jscan *s, const char *text, size_t len)
{
	return parse(s, text, len, NULL);
}

int nicfit__jscan_parse_prefix(struct jscan *s, const char *text, size_t len, size_t *used)
{
	return parse(s, text, len, used);
}

int nicfit__jscan_key_is(const struct jscan *s, int k, const char *key)
{
	const struct jscan_tok *t = &s->tok[k];
	char tmp[256];

	if (!t->escaped)
		return strlen(key) == t->len && !memcmp(s->text + t->start, key, t->len);
	if (nicfit__jscan_string(s, k, tmp, sizeof(tmp)) < 0)
		return 0;
	return !strcmp(tmp, key);
}

static int key_matches(const struct jscan *s, uint32_t i, const char *key, size_t klen)
{
	const struct jscan_tok *t = &s->tok[i];

	return t->escaped ? nicfit__jscan_key_is(s, (int)i, key)
			  : (t->len == klen && !memcmp(s->text + t->start, key, klen));
}

int nicfit__jscan_get(struct jscan *s, int obj, const char *key)
{
	uint32_t i, end, first, start;
	size_t klen = strlen(key);

	if (obj < 0 || (uint32_t)obj >= s->ntok || s->tok[obj].type != JS_OBJECT)
		return -1;
	first = (uint32_t)obj + 1;
	end = s->tok[obj].next;
	start = s->hint_obj == (uint32_t)obj && s->hint_key < end ? s->hint_key : first;
	for (i = start; i < end; i = s->tok[i + 1].next)
		if (key_matches(s, i, key, klen))
			goto found;
	for (i = first; i < start; i = s->tok[i + 1].next)
		if (key_matches(s, i, key, klen))
			goto found;
	return -1;
found:
	s->hint_obj = (uint32_t)obj;
	s->hint_key = s->tok[i + 1].next;
	return (int)i + 1;
}

static size_t put_utf8(char *o, unsigned long cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

int nicfit__jscan_string(const struct jscan *s, int i, char *out, size_t n)
{
	const struct jscan_tok *t;
	const unsigned char *p, *end;
	size_t o = 0;

	if (i < 0 || (uint32_t)i >= s->ntok || s->tok[i].type != JS_STRING || !n)
		return -1;
	t = &s->tok[i];
	p = (const unsigned char *)s->text + t->start;
	end = p + t->len;
	if (!t->escaped) {
		if (t->len >= n)
			return -1;
		memcpy(out, p, t->len);
		out[t->len] = '\0';
		return (int)t->len;
	}
	while (p < end) {
		unsigned long cp;

		if (o + 5 > n)
			return -1;
		if (*p != '\\') {
			out[o++] = (char)*p++;
			continue;
		}
		switch (p[1]) {
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'n': cp = '\n'; break;
		case 'r': cp = '\r'; break;
		case 't': cp = '\t'; break;
		case 'u':
			cp = (unsigned long)hex4(p + 2, end);
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				cp = 0x10000 + ((cp - 0xD800) << 10) +
				     ((unsigned long)hex4(p + 8, end) - 0xDC00);
				p += 6;
			}
			p += 4;
			break;
		default: cp = p[1]; break;
		}
		p += 2;
		o += put_utf8(out + o, cp);
	}
	if (o >= n)
		return -1;
	out[o] = '\0';
	return (int)o;
}

int nicfit__jscan_number(const struct jscan *s, int i, double *v)
{
	const struct jscan_tok *t;
	const char *p;
	char tmp[64], *endp;
	uint32_t k;
	double d = 0;
	int neg = 0;

	if (i < 0 || (uint32_t)i >= s->ntok || s->tok[i].type != JS_NUMBER)
		return -1;
	t = &s->tok[i];
	p = s->text + t->start;
	/*
	 * Fast path: a short integer, or a decimal of at most 15 digits in all
	 * ("16.0605", "0.9"). The digits make an integer below 2^53 and the
	 * power of ten they are divided by is at most 10^15, both exact in a
	 * double, so the one division rounds as strtod() does (Clinger's fast
	 * path); an exponent or more digits go to strtod().
	 */
	if (t->len < 17) {
		static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
						1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
		uint32_t dot = 0, digits = 0;

		k = 0;
		if (p[0] == '-') {
			neg = 1;
			k = 1;
		}
		for (; k < t->len; k++) {
			if (p[k] >= '0' && p[k] <= '9') {
				d = d * 10 + (p[k] - '0');
				digits++;
			} else if (p[k] == '.' && !dot) {
				dot = k;
			} else {
				break;
			}
		}
		if (k == t->len && digits <= 15) {
			if (dot)
				d /= pow10[t->len - 1 - dot];
			*v = neg ? -d : d;
			return 0;
		}
	}
	if (t->len >= sizeof(tmp))
		return -1;
	memcpy(tmp, p, t->len);
	tmp[t->len] = '\0';
	errno = 0;
	d = strtod(tmp, &endp);
	if (*endp || !isfinite(d))
		return -1;
	*v = d;
	return 0;
}

void nicfit__jscan_advance(const char *text, size_t from, size_t off, long *line, long *col)
{
	const char *p = text + from, *end = text + off, *nl;
	long l = *line, c = *col;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		l++;
		c = 1;
		p = nl + 1;
	}
	/*
	 * Columns count characters, as editors do: every byte but UTF-8
	 * continuation bytes (10xxxxxx), counted eight at a time (a request is
	 * one long line, and every value read from it is located).
	 */
	c += end - p;
	for (; end - p >= 8; p += 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		c -= __builtin_popcountll(w & ~(w << 1) & 0x8080808080808080ull);
	}
	for (; p < end; p++)
		c -= ((unsigned char)*p & 0xC0) == 0x80;
	*line = l;
	*col = c;
}

void nicfit__jscan_position(const char *text, size_t off, long *line, long *col)
{
	*line = *col = 1;
	nicfit__jscan_advance(text, 0, off, line, col);
}

/* The value of path component comp (clen bytes) in container token i, or -1. */
static int path_step(const struct jscan *s, uint32_t i, const char *comp, size_t clen)
{
	char key[256];
	uint32_t k, n, end = s->tok[i].next;
	unsigned long idx = 0;
	size_t d;

	if (s->tok[i].type == JS_OBJECT) {
		size_t o = 0;

		/* RFC 6901: "~1" stands for '/', "~0" for '~' */
		for (d = 0; d < clen; d++) {
			if (o + 1 >= sizeof(key))
				return -1;
			if (comp[d] == '~' && d + 1 < clen && (comp[d + 1] == '0' || comp[d + 1] == '1'))
				key[o++] = comp[++d] == '0' ? '~' : '/';
			else
				key[o++] = comp[d];
		}
		key[o] = '\0';
		/* the first member of that name, as a reader that stops there sees it */
		for (k = i + 1; k < end; k = s->tok[k + 1].next)
			if (nicfit__jscan_key_is(s, (int)k, key))
				return (int)k + 1;
		return -1;
	}
	if (s->tok[i].type != JS_ARRAY || clen == 0 || clen > 9)
		return -1;
	for (d = 0; d < clen; d++) {
		if (comp[d] < '0' || comp[d] > '9')
			return -1;
		idx = idx * 10 + (unsigned long)(comp[d] - '0');
	}
	if (idx >= s->tok[i].count)
		return -1;
	for (k = i + 1, n = 0; n < idx; n++)
		k = s->tok[k].next;
	return (int)k;
}

int nicfit__jscan_find(const struct jscan *s, const char *path)
{
	const char *c = path;
	uint32_t i = 0;

	if (!s->ntok)
		return -1;
	while (*c == '/') {
		const char *next = strchr(c + 1, '/');
		size_t clen = next ? (size_t)(next - c - 1) : strlen(c + 1);
		int v;

		v = path_step(s, i, c + 1, clen);
		if (v < 0)
			return -1;
		i = (uint32_t)v;
		c += 1 + clen;
	}
	return (int)i;
}

size_t nicfit__jscan_offset(const struct jscan *s, int i)
{
	/* a string token starts after its opening quote; the value starts at it */
	return s->tok[i].start - (s->tok[i].type == JS_STRING);
}

int nicfit__jscan_locate(const struct jscan *s, const char *path, long *line, long *col)
{
	int i = nicfit__jscan_find(s, path);

	*line = *col = 0;
	if (i < 0)
		return -1;
	nicfit__jscan_position(s->text, nicfit__jscan_offset(s, i), line, col);
	return 0;
}
