/*
 * emit.c - the one printer (see nicfit/emit.h).
 *
 * JSON is written as it comes, into the same nicfit_buf text goes to, with
 * a small stack of open containers (what kind, how many members so far);
 * the bytes are jansson's json_dumps() layout (compact, or indented by 2,
 * 15 significant digits), which the documents have always had, so
 * nothing builds a tree to print it. Text goes straight into the buffer
 * too. Tables keep their text cells as strings until the table ends, when
 * column widths are known; their JSON rows are written as they come.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "alloc_int.h"
#include "emit_int.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "svg_int.h"

struct table {
	const struct nicfit_column *cols;
	int ncols;
	char **cells;  /* row-major, nrows * ncols strings */
	size_t ncells;
	size_t cap;
	int col;       /* next column of the current row */
};

/* A member written into an open object: where its key and value are. */
struct member {
	uint64_t hash;      /* of the key */
	size_t key_at;      /* offset of the quoted key in the document */
	size_t key_len;     /* its length, quotes included */
	size_t vstart, vend; /* the value's bytes */
};

/*
 * An open JSON container. An object remembers its members so that a key
 * given twice replaces the first value where it stands, as a jansson
 * object did (the renderers rely on no such thing, but the documents are
 * the same bytes whatever they do).
 */
struct level {
	int object;    /* 1 object, 0 array */
	size_t n;      /* members written */
	uint64_t bloom[2];  /* objects: bits of the key hashes seen */
	struct member *m;   /* objects: the members, in order */
	size_t nm, am;
	size_t replacing;   /* 1 + the member the value being written replaces, or 0 */
	size_t vstart;      /* where that value's bytes begin */
};

struct nicfit_emit {
	enum nicfit_format fmt;
	unsigned flags;
	struct nicfit_buf text;     /* the document: text, or JSON as it is written */
	struct level stack[NICFIT_EMIT_MAX_DEPTH];
	int depth;
	int has_root;       /* JSON: the top-level value is written */
	int table_depth;    /* JSON: depth of the open table's array */
	int err;            /* first misuse or allocation failure */
	int in_table;
	struct table t;
	struct nicfit_emit_view view;
	char *columns;      /* the view's column list, owned */
};

double nicfit_round4(double v)
{
	if (!isfinite(v))
		return v;
	if (fabs(v) >= 1e11)
		return v;
	return round(v * 1e4) / 1e4;
}

struct nicfit_emit *nicfit_emit_new(enum nicfit_format fmt, unsigned flags,
				    size_t max)
{
	struct nicfit_emit *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->fmt = fmt;
	e->flags = flags;
	if (fmt == NICFIT_FMT_MD)
		e->flags &= ~NICFIT_EMIT_COLOR;
	nicfit_buf_init(&e->text, max);
	return e;
}

static void table_clear(struct table *t)
{
	size_t i;

	for (i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

void nicfit_emit_free(struct nicfit_emit *e)
{
	int i;

	if (!e)
		return;
	table_clear(&e->t);
	for (i = 0; i < NICFIT_EMIT_MAX_DEPTH; i++)
		free(e->stack[i].m);
	nicfit_buf_release(&e->text);
	free(e->columns);
	free(e);
}

enum nicfit_format nicfit_emit_format(const struct nicfit_emit *e)
{
	return e->fmt;
}

int nicfit_emit_set_view(struct nicfit_emit *e, const struct nicfit_emit_view *v)
{
	char *cols = v->columns ? strdup(v->columns) : NULL;

	if (v->columns && !cols)
		return NICFIT_E_NOMEM;
	free(e->columns);
	e->view = *v;
	e->columns = cols;
	e->view.columns = cols;
	return 0;
}

unsigned nicfit_emit_width(const struct nicfit_emit *e)
{
	return e->view.width;
}

int nicfit_emit_is_text(const struct nicfit_emit *e)
{
	return e->fmt == NICFIT_FMT_TEXT || e->fmt == NICFIT_FMT_MD;
}

static int is_json(const struct nicfit_emit *e)
{
	return e->fmt == NICFIT_FMT_JSON;
}

static void fail(struct nicfit_emit *e, int code)
{
	if (!e->err)
		e->err = code;
}

/* ---- escaping what came from outside ------------------------------- */

static int is_ansi(const char *s);

/*
 * Append v, escaped, or the colour it is. A string argument of the text
 * calls is one line of a value, so its newlines are escaped too, but for
 * an argument that is nothing but line breaks (a renderer's "\n" chosen
 * at run time, as in md ? "\n" : "").
 */
static void escaped(struct nicfit_buf *b, const char *v, unsigned flags)
{
	size_t n = strlen(v);

	if (is_ansi(v) || strspn(v, "\n") == n)
		nicfit_buf_add(b, v, n);
	else
		nicfit__text_escape_n(b, v, n, flags);
}

/*
 * A %s conversion: at most prec bytes of v (prec < 0: all), escaped, then
 * padded as spec (the conversion without its precision) says.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void conv_s(struct nicfit_buf *b, const char *spec, const char *v, int prec)
{
	struct nicfit_buf t;
	size_t n;

	if (!v)
		v = "(null)";
	if (prec < 0 && !strcmp(spec, "%s")) {
		escaped(b, v, 0);
		return;
	}
	n = strlen(v);
	if (prec >= 0 && (size_t)prec < n)
		n = (size_t)prec;
	nicfit_buf_init(&t, 0);
	if (is_ansi(v) || strspn(v, "\n") == strlen(v))
		nicfit_buf_add(&t, v, n);
	else
		nicfit__text_escape_n(&t, v, n, 0);
	nicfit_buf_addf(b, spec, t.data ? t.data : "");
	nicfit_buf_release(&t);
}

/*
 * nicfit_buf_vaddf() with every %s argument escaped: the format is taken
 * apart conversion by conversion (flags, width and precision, * included,
 * and C11's length modifiers) and each is printed with its own argument.
 * %n is not supported and prints nothing.
 */
void nicfit_escaped_vaddf(struct nicfit_buf *b, const char *fmt, va_list ap)
{
	va_list aq;

	va_copy(aq, ap);
	while (*fmt) {
		const char *p = strchr(fmt, '%');
		char spec[48], lm[3] = "";
		size_t q = 0, dot;
		int n, prec = -1;

		if (!p) {
			nicfit_buf_puts(b, fmt);
			break;
		}
		nicfit_buf_add(b, fmt, (size_t)(p - fmt));
		p++;
		if (*p == '%') {
			nicfit_buf_addch(b, '%');
			fmt = p + 1;
			continue;
		}
		spec[q++] = '%';
		while (*p && strchr("-+ #0", *p) && q < 8)
			spec[q++] = *p++;
		if (*p == '*') {
			n = va_arg(aq, int);
			q += (size_t)snprintf(spec + q, sizeof(spec) - q, "%d", n);
			p++;
		}
		while (isdigit((unsigned char)*p) && q < 20)
			spec[q++] = *p++;
		dot = q;
		if (*p == '.') {
			p++;
			if (*p == '*') {
				prec = va_arg(aq, int);
				if (prec >= 0)
					q += (size_t)snprintf(spec + q, sizeof(spec) - q, ".%d", prec);
				p++;
			} else {
				spec[q++] = '.';
				prec = 0;
				while (isdigit((unsigned char)*p) && q < 32) {
					prec = prec * 10 + (*p - '0');
					spec[q++] = *p++;
				}
			}
		}
		while (*p && strchr("hljztL", *p) && strlen(lm) < 2) {
			lm[strlen(lm)] = *p;
			spec[q++] = *p++;
		}
		if (!*p)
			break;
		spec[q++] = *p;
		spec[q] = '\0';
		switch (*p++) {
		case 'd': case 'i':
			if (!strcmp(lm, "ll") || !strcmp(lm, "j"))
				nicfit_buf_addf(b, spec, va_arg(aq, long long));
			else if (!strcmp(lm, "l") || !strcmp(lm, "z") || !strcmp(lm, "t"))
				nicfit_buf_addf(b, spec, va_arg(aq, long));
			else
				nicfit_buf_addf(b, spec, va_arg(aq, int));
			break;
		case 'u': case 'o': case 'x': case 'X':
			if (!strcmp(lm, "ll") || !strcmp(lm, "j"))
				nicfit_buf_addf(b, spec, va_arg(aq, unsigned long long));
			else if (!strcmp(lm, "l") || !strcmp(lm, "z") || !strcmp(lm, "t"))
				nicfit_buf_addf(b, spec, va_arg(aq, unsigned long));
			else
				nicfit_buf_addf(b, spec, va_arg(aq, unsigned));
			break;
		case 'c':
			nicfit_buf_addf(b, spec, va_arg(aq, int));
			break;
		case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
			if (lm[0] == 'L')
				nicfit_buf_addf(b, spec, va_arg(aq, long double));
			else
				nicfit_buf_addf(b, spec, va_arg(aq, double));
			break;
		case 's':
			/* the precision bounds the argument, not its escaped form */
			memcpy(spec + dot, "s", 2);
			conv_s(b, spec, va_arg(aq, const char *), prec);
			break;
		case 'p':
			nicfit_buf_addf(b, spec, va_arg(aq, void *));
			break;
		default:
			/* %n or an unknown conversion: nothing can be printed safely */
			va_end(aq);
			return;
		}
		fmt = p;
	}
	va_end(aq);
}
#pragma GCC diagnostic pop

/* ---- JSON, written as it comes --------------------------------------- */

/*
 * The length of the UTF-8 sequence at s (n bytes left) when it is one
 * jansson accepts (no overlong forms, surrogates or code points past
 * U+10FFFF), else 0.
 */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0], v;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	v = c & (0x7fu >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3fu);
	}
	if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) || (len == 3 && v < 0x800) ||
	    (len == 4 && v < 0x10000))
		return 0;
	return len;
}

static int utf8_valid(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		k = utf8_seq((const unsigned char *)s + i, n - i);
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

/* s (valid UTF-8) as a JSON string, escaped as json_dumps() escapes it. */
static void json_quote(struct nicfit_buf *b, const char *s, size_t n)
{
	size_t i, run = 0;

	nicfit_buf_addch(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char u[8];

		if (c > '\\' || (c >= 0x20 && c != '"' && c != '\\'))
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
 * printf. Returns 0 when v is not such a number.
 */
static int json_real_fast(struct nicfit_buf *b, double v)
{
	char t[40], *p = t + sizeof(t);
	long long k;
	unsigned long long u, ip, fr;
	int d, neg;

	if (!(fabs(v) < 1e10) || v == 0)
		return 0;
	k = llround(v * 1e4);
	if ((double)k / 1e4 != v)
		return 0;
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
		while (d--) {
			*--p = (char)('0' + fr % 10);
			fr /= 10;
		}
	}
	*--p = '.';
	do {
		*--p = (char)('0' + ip % 10);
		ip /= 10;
	} while (ip);
	if (neg)
		*--p = '-';
	nicfit_buf_add(b, p, (size_t)(t + sizeof(t) - p));
	return 1;
}

static void json_real_out(struct nicfit_buf *b, double v)
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

static void json_indent(struct nicfit_emit *e, int depth)
{
	int i;

	if (!(e->flags & NICFIT_EMIT_PRETTY))
		return;
	nicfit_buf_addch(&e->text, '\n');
	for (i = 0; i < depth; i++)
		nicfit_buf_add(&e->text, "  ", 2);
}

static uint64_t key_hash(const char *k)
{
	uint64_t h = 1469598103934665603ull;

	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 1099511628211ull;
	return h;
}

/* The index + 1 of the member of l whose key is key (hash h), else 0. */
static size_t find_member(struct nicfit_emit *e, const struct level *l, const char *key,
			  uint64_t h)
{
	struct nicfit_buf q;
	size_t i, found = 0;

	if (!(l->bloom[(h >> 6) & 1] & (1ull << (h & 63))))
		return 0;
	nicfit_buf_init(&q, 0);
	json_quote(&q, key, strlen(key));
	for (i = 0; i < l->nm && !found && !nicfit_buf_error(&q); i++)
		if (l->m[i].hash == h && l->m[i].key_len == q.len &&
		    !memcmp(e->text.data + l->m[i].key_at, q.data, q.len))
			found = i + 1;
	nicfit_buf_release(&q);
	return found;
}

/*
 * Open a member under key in the innermost container (arrays ignore the
 * key), or the top-level value. Returns 0, or -1 when the value does not
 * belong there (a second top-level value, a member of an object without
 * a key or with one that is not UTF-8, a value while a table is open in
 * the container). A key the object has already is not written again: the
 * value goes to the end for now, and member_done() moves it in place of
 * the first one.
 */
static int member(struct nicfit_emit *e, const char *key)
{
	struct level *l;
	uint64_t h;
	size_t dup;

	if (e->depth == 0) {
		if (e->has_root || key) {
			fail(e, NICFIT_E_INTERNAL);
			return -1;
		}
		e->has_root = 1;
		return 0;
	}
	l = &e->stack[e->depth - 1];
	/* a key must be UTF-8, as jansson's objects required */
	if ((l->object && (!key || !utf8_valid(key, strlen(key)))) ||
	    (e->in_table && e->depth <= e->table_depth)) {
		fail(e, NICFIT_E_INTERNAL);
		return -1;
	}
	if (!l->object) {
		if (l->n++)
			nicfit_buf_addch(&e->text, ',');
		json_indent(e, e->depth);
		return 0;
	}
	h = key_hash(key);
	dup = find_member(e, l, key, h);
	if (dup) {
		l->replacing = dup;
		l->vstart = e->text.len;
		return 0;
	}
	if (NICFIT_ALLOC_GROW(l->m, l->nm + 1, l->am)) {
		fail(e, NICFIT_E_NOMEM);
		return -1;
	}
	if (l->n++)
		nicfit_buf_addch(&e->text, ',');
	json_indent(e, e->depth);
	l->bloom[(h >> 6) & 1] |= 1ull << (h & 63);
	l->m[l->nm].hash = h;
	l->m[l->nm].key_at = e->text.len;
	json_quote(&e->text, key, strlen(key));
	l->m[l->nm].key_len = e->text.len - l->m[l->nm].key_at;
	nicfit_buf_puts(&e->text, (e->flags & NICFIT_EMIT_PRETTY) ? ": " : ":");
	l->m[l->nm].vstart = l->m[l->nm].vend = e->text.len;
	l->nm++;
	return 0;
}

/*
 * The value of the innermost container's last member is written: note
 * where it ends, or move it over the value it replaces.
 */
static void member_done(struct nicfit_emit *e)
{
	struct level *l;
	struct member *old;
	size_t nv, nt, k;
	char *tmp;
	long long delta;

	if (e->depth == 0 || !e->stack[e->depth - 1].object)
		return;
	l = &e->stack[e->depth - 1];
	if (!l->replacing) {
		if (l->nm)
			l->m[l->nm - 1].vend = e->text.len;
		return;
	}
	old = &l->m[l->replacing - 1];
	l->replacing = 0;
	if (nicfit_buf_error(&e->text))
		return;
	/* document = ... old value ... tail | new value  ->  ... new value ... tail */
	nv = e->text.len - l->vstart;
	nt = l->vstart - old->vend;
	tmp = malloc(nv + nt + 1);
	if (!tmp) {
		fail(e, NICFIT_E_NOMEM);
		return;
	}
	memcpy(tmp, e->text.data + l->vstart, nv);
	memcpy(tmp + nv, e->text.data + old->vend, nt);
	nicfit_buf_truncate(&e->text, old->vstart);
	nicfit_buf_add(&e->text, tmp, nv + nt);
	free(tmp);
	delta = (long long)nv - (long long)(old->vend - old->vstart);
	old->vend = old->vstart + nv;
	for (k = (size_t)(old - l->m) + 1; k < l->nm; k++) {
		l->m[k].key_at = (size_t)((long long)l->m[k].key_at + delta);
		l->m[k].vstart = (size_t)((long long)l->m[k].vstart + delta);
		l->m[k].vend = (size_t)((long long)l->m[k].vend + delta);
	}
}

static void open_container(struct nicfit_emit *e, const char *key, int object)
{
	if (e->depth >= NICFIT_EMIT_MAX_DEPTH) {
		fail(e, NICFIT_E_INTERNAL);
		return;
	}
	if (member(e, key))
		return;
	nicfit_buf_addch(&e->text, object ? '{' : '[');
	e->stack[e->depth].object = object;
	e->stack[e->depth].n = 0;
	e->stack[e->depth].nm = 0;
	e->stack[e->depth].replacing = 0;
	e->stack[e->depth].bloom[0] = e->stack[e->depth].bloom[1] = 0;
	e->depth++;
}

static void close_container(struct nicfit_emit *e, int object)
{
	if (e->depth == 0 || !e->stack[e->depth - 1].object != !object) {
		fail(e, NICFIT_E_INTERNAL);
		return;
	}
	e->depth--;
	if (e->stack[e->depth].n)
		json_indent(e, e->depth);
	nicfit_buf_addch(&e->text, object ? '}' : ']');
	member_done(e);
}

static void put_raw(struct nicfit_emit *e, const char *key, const char *v)
{
	if (!member(e, key)) {
		nicfit_buf_puts(&e->text, v);
		member_done(e);
	}
}

/*
 * A string: null for NULL; malformed UTF-8, which Linux allows in every
 * name it reports (a Latin-1 DMI vendor, a netdev name), has those bytes
 * written as \xNN rather than the whole document failing.
 */
static void put_string(struct nicfit_emit *e, const char *key, const char *v)
{
	struct nicfit_buf t;
	size_t n;

	if (!v) {
		put_raw(e, key, "null");
		return;
	}
	n = strlen(v);
	if (utf8_valid(v, n)) {
		if (!member(e, key)) {
			json_quote(&e->text, v, n);
			member_done(e);
		}
		return;
	}
	nicfit_buf_init(&t, 0);
	nicfit__text_escape_n(&t, v, n, NICFIT__ESC_BYTES);
	if (nicfit_buf_error(&t) || !t.data || !utf8_valid(t.data, t.len))
		fail(e, NICFIT_E_NOMEM);
	else if (!member(e, key)) {
		json_quote(&e->text, t.data, t.len);
		member_done(e);
	}
	nicfit_buf_release(&t);
}

static void put_int(struct nicfit_emit *e, const char *key, long long v)
{
	if (!member(e, key)) {
		nicfit_buf_addf(&e->text, "%lld", v);
		member_done(e);
	}
}

/* A number rounded to 4 decimals, null when not finite. */
static void put_number(struct nicfit_emit *e, const char *key, double v)
{
	if (!isfinite(v)) {
		put_raw(e, key, "null");
		return;
	}
	if (!member(e, key)) {
		json_real_out(&e->text, nicfit_round4(v));
		member_done(e);
	}
}

/* A parsed value (nicfit_emit_json_text) written like the rest. */
static void put_json(struct nicfit_emit *e, const char *key, json_t *v)
{
	const char *k;
	json_t *x;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		open_container(e, key, 1);
		json_object_foreach(v, k, x)
			put_json(e, k, x);
		close_container(e, 1);
		break;
	case JSON_ARRAY:
		open_container(e, key, 0);
		json_array_foreach(v, i, x)
			put_json(e, NULL, x);
		close_container(e, 0);
		break;
	case JSON_STRING:
		if (!member(e, key)) {
			json_quote(&e->text, json_string_value(v), json_string_length(v));
			member_done(e);
		}
		break;
	case JSON_INTEGER:
		put_int(e, key, (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		if (!member(e, key)) {
			json_real_out(&e->text, json_real_value(v));
			member_done(e);
		}
		break;
	case JSON_TRUE: put_raw(e, key, "true"); break;
	case JSON_FALSE: put_raw(e, key, "false"); break;
	case JSON_NULL: put_raw(e, key, "null"); break;
	}
}

void nicfit_emit_begin_object(struct nicfit_emit *e, const char *key)
{
	if (is_json(e))
		open_container(e, key, 1);
}

void nicfit_emit_end_object(struct nicfit_emit *e)
{
	if (is_json(e))
		close_container(e, 1);
}

void nicfit_emit_begin_array(struct nicfit_emit *e, const char *key)
{
	if (is_json(e))
		open_container(e, key, 0);
}

void nicfit_emit_end_array(struct nicfit_emit *e)
{
	if (is_json(e))
		close_container(e, 0);
}

void nicfit_emit_string(struct nicfit_emit *e, const char *key, const char *v)
{
	if (is_json(e))
		put_string(e, key, v);
}

void nicfit_emit_stringf(struct nicfit_emit *e, const char *key,
			 const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;

	if (!is_json(e))
		return;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	put_string(e, key, tmp);
}

void nicfit_emit_int(struct nicfit_emit *e, const char *key, long long v)
{
	if (is_json(e))
		put_int(e, key, v);
}

void nicfit_emit_number(struct nicfit_emit *e, const char *key, double v)
{
	if (is_json(e))
		put_number(e, key, v);
}

void nicfit_emit_bool(struct nicfit_emit *e, const char *key, int v)
{
	if (is_json(e))
		put_raw(e, key, v ? "true" : "false");
}

void nicfit_emit_null(struct nicfit_emit *e, const char *key)
{
	if (is_json(e))
		put_raw(e, key, "null");
}

void nicfit_emit_json_text(struct nicfit_emit *e, const char *key, const char *json)
{
	json_error_t jerr;
	json_t *v;

	if (!is_json(e))
		return;
	v = json_loads(json, JSON_DECODE_ANY, &jerr);
	if (!v) {
		fail(e, NICFIT_E_NOMEM);
		return;
	}
	put_json(e, key, v);
	json_decref(v);
}

void nicfit_emit_printf(struct nicfit_emit *e, const char *fmt, ...)
{
	va_list ap;

	if (!nicfit_emit_is_text(e))
		return;
	va_start(ap, fmt);
	nicfit_escaped_vaddf(&e->text, fmt, ap);
	va_end(ap);
}

void nicfit_emit_heading(struct nicfit_emit *e, const char *title)
{
	if (e->fmt == NICFIT_FMT_MD) {
		nicfit_buf_puts(&e->text, "## ");
		escaped(&e->text, title, 0);
		nicfit_buf_puts(&e->text, "\n\n");
	} else if (e->fmt == NICFIT_FMT_TEXT) {
		nicfit_buf_puts(&e->text, nicfit_emit_color(e, NICFIT_COLOR_BOLD));
		escaped(&e->text, title, 0);
		nicfit_buf_puts(&e->text, nicfit_emit_color(e, NICFIT_COLOR_RESET));
		nicfit_buf_addch(&e->text, '\n');
	}
}

/* The ANSI sequences, by enum nicfit_color; escaped_vaddf() knows them by address. */
static const char *const ansi[] = {
	[NICFIT_COLOR_RESET] = "\033[0m",
	[NICFIT_COLOR_BOLD] = "\033[1m",
	[NICFIT_COLOR_RED] = "\033[1;31m",
	[NICFIT_COLOR_YELLOW] = "\033[33m",
	[NICFIT_COLOR_GREEN] = "\033[32m",
	[NICFIT_COLOR_BLUE] = "\033[34m",
	[NICFIT_COLOR_DIM] = "\033[2m",
};

const char *nicfit_emit_color(const struct nicfit_emit *e, enum nicfit_color c)
{
	if (e->fmt != NICFIT_FMT_TEXT || !(e->flags & NICFIT_EMIT_COLOR))
		return "";
	if ((unsigned)c >= sizeof(ansi) / sizeof(ansi[0]))
		return "";
	return ansi[c];
}

static int is_ansi(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(ansi) / sizeof(ansi[0]); i++)
		if (s == ansi[i])
			return 1;
	return 0;
}

void nicfit_emit_raw(struct nicfit_emit *e, const char *s, size_t n)
{
	if (!is_json(e))
		nicfit_buf_add(&e->text, s, n);
}

/* ---- fields: one fact, a JSON member and its words in text ------------- */

/* The text of a field: fmt with the arguments after it, in TEXT and MD. */
static void field_text(struct nicfit_emit *e, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void field_text(struct nicfit_emit *e, const char *fmt, va_list ap)
{
	if (nicfit_emit_is_text(e))
		nicfit_escaped_vaddf(&e->text, fmt, ap);
}

void nicfit_emit_field_string(struct nicfit_emit *e, const char *key, const char *fmt, ...)
{
	const char *v;
	va_list ap;

	va_start(ap, fmt);
	v = va_arg(ap, const char *);
	va_end(ap);
	if (is_json(e)) {
		put_string(e, key, v);
		return;
	}
	if (!v)
		return;
	va_start(ap, fmt);
	field_text(e, fmt, ap);
	va_end(ap);
}

void nicfit_emit_field_int(struct nicfit_emit *e, const char *key, const char *fmt, ...)
{
	va_list ap;
	int v;

	va_start(ap, fmt);
	v = va_arg(ap, int);
	if (is_json(e))
		put_int(e, key, v);
	va_end(ap);
	va_start(ap, fmt);
	field_text(e, fmt, ap);
	va_end(ap);
}

void nicfit_emit_field_double(struct nicfit_emit *e, const char *key, const char *fmt, ...)
{
	va_list ap;
	double v;

	va_start(ap, fmt);
	v = va_arg(ap, double);
	if (is_json(e))
		put_number(e, key, v);
	va_end(ap);
	va_start(ap, fmt);
	field_text(e, fmt, ap);
	va_end(ap);
}

/* ---- tables ---------------------------------------------------------- */

void nicfit_emit_table_begin(struct nicfit_emit *e, const char *key,
			     const struct nicfit_column *cols, int ncols)
{
	if (e->in_table || ncols <= 0) {
		fail(e, NICFIT_E_INTERNAL);
		return;
	}
	table_clear(&e->t);
	e->in_table = 1;
	e->t.cols = cols;
	e->t.ncols = ncols;
	if (is_json(e)) {
		/* the rows are written where the table was begun, as they come */
		e->table_depth = -1;
		open_container(e, key, 0);
		e->table_depth = e->depth;
	}
}

/*
 * JSON: the key of the next cell of a table, opening its row object at
 * the row's first cell; NULL (and the emitter failed) outside a table.
 */
static const char *cell_key(struct nicfit_emit *e)
{
	struct table *t = &e->t;

	if (!e->in_table || e->depth != e->table_depth + (t->col ? 1 : 0)) {
		fail(e, NICFIT_E_INTERNAL);
		return NULL;
	}
	if (!t->col) {
		e->table_depth = -1; /* the row is a member of the table's array */
		open_container(e, NULL, 1);
		e->table_depth = e->depth - 1;
	}
	if (!t->cols[t->col].key) {
		fail(e, NICFIT_E_NOMEM);
		return NULL;
	}
	return t->cols[t->col].key;
}

/* The cell is written: the next column, or the end of the row. */
static void cell_next(struct nicfit_emit *e)
{
	struct table *t = &e->t;

	if (++t->col == t->ncols) {
		t->col = 0;
		if (is_json(e))
			close_container(e, 1);
	}
}

/* Text formats: keep the cell's shown text (taken over) until the table ends. */
static void cell(struct nicfit_emit *e, char *shown)
{
	struct table *t = &e->t;

	if (!e->in_table) {
		free(shown);
		fail(e, NICFIT_E_INTERNAL);
		return;
	}
	if (!shown) {
		fail(e, NICFIT_E_NOMEM);
	} else if (NICFIT_ALLOC_GROW(t->cells, t->ncells + 1, t->cap)) {
		free(shown);
		fail(e, NICFIT_E_NOMEM);
	} else {
		t->cells[t->ncells++] = shown;
	}
	cell_next(e);
}

/* A cell's shown text: v escaped whole (a cell is one line), malloc'ed. */
static char *shown(const char *v)
{
	struct nicfit_buf t;

	nicfit_buf_init(&t, 0);
	nicfit__text_escape_n(&t, v ? v : "", v ? strlen(v) : 0, 0);
	if (nicfit_buf_error(&t)) {
		nicfit_buf_release(&t);
		return NULL;
	}
	return nicfit_buf_detach(&t, NULL);
}

void nicfit_emit_cell_string(struct nicfit_emit *e, const char *v)
{
	const char *key;

	if (!is_json(e)) {
		cell(e, shown(v));
	} else if ((key = cell_key(e))) {
		put_string(e, key, v);
		cell_next(e);
	}
}

void nicfit_emit_cell_int(struct nicfit_emit *e, long long v)
{
	const char *key;

	if (!is_json(e)) {
		cell(e, nicfit__strfmt("%lld", v));
	} else if ((key = cell_key(e))) {
		put_int(e, key, v);
		cell_next(e);
	}
}

void nicfit_emit_cell_number(struct nicfit_emit *e, double v, int decimals)
{
	const char *key;

	if (decimals < 0 || decimals > 9)
		decimals = 2;
	if (!isfinite(v)) {
		nicfit_emit_cell_null(e, "-");
	} else if (!is_json(e)) {
		cell(e, nicfit__strfmt("%.*f", decimals, v));
	} else if ((key = cell_key(e))) {
		put_number(e, key, v);
		cell_next(e);
	}
}

/*
 * A missing value: JSON null; in CSV an empty field, whatever the text
 * shows for it ("-", "virtual"), so that every command's CSV marks a
 * missing value the same way and a spreadsheet reads it as blank
 * (docs/formats.md).
 */
void nicfit_emit_cell_null(struct nicfit_emit *e, const char *text)
{
	const char *key;

	if (e->fmt == NICFIT_FMT_CSV)
		text = "";  /* CSV: a missing value is an empty field */
	if (!is_json(e)) {
		cell(e, shown(text));
	} else if ((key = cell_key(e))) {
		put_raw(e, key, "null");
		cell_next(e);
	}
}

/* A column's header: its title, or its key when it has none. */
static const char *title(const struct nicfit_column *c)
{
	return c->title ? c->title : c->key ? c->key : "";
}

static void csv_field(struct nicfit_buf *b, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		nicfit_buf_puts(b, s);
		return;
	}
	nicfit_buf_addch(b, '"');
	for (; *s; s++) {
		if (*s == '"')
			nicfit_buf_addch(b, '"');
		nicfit_buf_addch(b, *s);
	}
	nicfit_buf_addch(b, '"');
}

static void md_field(struct nicfit_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			nicfit_buf_addch(b, '\\');
		nicfit_buf_addch(b, *s == '\n' ? ' ' : *s);
	}
}

static void table_text(struct nicfit_emit *e)
{
	struct table *t = &e->t;
	int rc = nicfit__table_text(&e->text, t->cols, t->ncols, t->cells,
				    t->ncells / (size_t)t->ncols, &e->view,
				    nicfit_emit_color(e, NICFIT_COLOR_BOLD),
				    nicfit_emit_color(e, NICFIT_COLOR_RESET));

	if (rc)
		fail(e, rc);
}

static void table_md(struct nicfit_emit *e)
{
	struct table *t = &e->t;
	size_t nrows = t->ncells / (size_t)t->ncols, r;
	int c;

	nicfit_buf_puts(&e->text, "|");
	for (c = 0; c < t->ncols; c++) {
		nicfit_buf_addch(&e->text, ' ');
		md_field(&e->text, title(&t->cols[c]));
		nicfit_buf_puts(&e->text, " |");
	}
	nicfit_buf_puts(&e->text, "\n|");
	for (c = 0; c < t->ncols; c++)
		nicfit_buf_puts(&e->text, t->cols[c].right ? "---:|" : "---|");
	nicfit_buf_addch(&e->text, '\n');
	for (r = 0; r < nrows; r++) {
		nicfit_buf_puts(&e->text, "|");
		for (c = 0; c < t->ncols; c++) {
			nicfit_buf_addch(&e->text, ' ');
			md_field(&e->text, t->cells[r * (size_t)t->ncols + (size_t)c]);
			nicfit_buf_puts(&e->text, " |");
		}
		nicfit_buf_addch(&e->text, '\n');
	}
	nicfit_buf_addch(&e->text, '\n');
}

/*
 * CSV as RFC 4180 writes it (a header row of the columns' JSON keys, in
 * the text table's order; a field with a comma, a double quote or a line
 * break double-quoted, its quotes doubled) but with LF line ends, as Unix
 * tools read and write them; a missing value is an empty field
 * (nicfit_emit_cell_null). docs/formats.md describes the convention.
 */
static void table_csv(struct nicfit_emit *e)
{
	struct table *t = &e->t;
	size_t nrows = t->ncells / (size_t)t->ncols, r;
	int c;

	for (c = 0; c < t->ncols && !e->view.noheadings; c++) {
		if (c)
			nicfit_buf_addch(&e->text, ',');
		csv_field(&e->text, t->cols[c].key ? t->cols[c].key : title(&t->cols[c]));
		if (c + 1 == t->ncols)
			nicfit_buf_addch(&e->text, '\n');
	}
	for (r = 0; r < nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			if (c)
				nicfit_buf_addch(&e->text, ',');
			csv_field(&e->text, t->cells[r * (size_t)t->ncols + (size_t)c]);
		}
		nicfit_buf_addch(&e->text, '\n');
	}
}

void nicfit_emit_table_end(struct nicfit_emit *e)
{
	if (!e->in_table || e->t.col != 0) {
		fail(e, NICFIT_E_INTERNAL);
	} else if (e->fmt == NICFIT_FMT_TEXT) {
		table_text(e);
	} else if (e->fmt == NICFIT_FMT_MD) {
		table_md(e);
	} else if (e->fmt == NICFIT_FMT_CSV) {
		table_csv(e);
	}
	e->in_table = 0;
	if (is_json(e) && e->depth == e->table_depth)
		close_container(e, 0);
	e->table_depth = 0;
	table_clear(&e->t);
}

int nicfit_emit_finish(struct nicfit_emit *e, struct nicfit_buf *out)
{
	if (e->in_table || e->depth != 0)
		fail(e, NICFIT_E_INTERNAL);
	if (e->err)
		return e->err;
	if (nicfit_buf_error(&e->text))
		return nicfit_buf_error(&e->text);
	if (is_json(e) && !e->has_root)
		return NICFIT_E_INTERNAL;
	nicfit_buf_add(out, e->text.data, e->text.len);
	if (is_json(e))
		nicfit_buf_addch(out, '\n');
	return nicfit_buf_error(out);
}
