/*
 * emit_json.c - the JSON half of the one printer (nicfit/emit.h): values
 * are written as they come, into the same nicfit_buf the text goes to,
 * with a small stack of open containers (what kind, how many members so
 * far, where each member's key and value are). The bytes are jansson's
 * json_dumps() layout (compact, or indented by 2, 15 significant digits),
 * which the documents have always had, so nothing builds a tree to print
 * it. What it is not: the text, Markdown and CSV output and the tables,
 * which are emit.c's (the tables call the writer below for their JSON
 * rows); the text of a scalar (a string checked, escaped and quoted, a
 * real's digits), which is emit_json_scalar.c's, the pieces the quick
 * paths inline in emit_json_int.h; and the parse of a document given as
 * text, which is jansson's.
 */
/* the one definition of the inline calls of nicfit/emit.h is compiled here */
#define NICFIT__EMIT_DEFINE 1

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/jansson_int.h"

#include "core/alloc_int.h"
#include "out/emit_int.h"
#include "out/emit_json_int.h"
#include "core/fmt_int.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "core/text_int.h"

static void json_indent(struct nicfit_emit *e, int depth)
{
	int i;

	if (!(e->flags & NICFIT_EMIT_PRETTY))
		return;
	nicfit__json_addch(&e->text, '\n');
	for (i = 0; i < depth; i++)
		nicfit__json_add(&e->text, "  ", 2);
}

/*
 * A key's hash, for the duplicate check only (equal hashes are compared
 * byte for byte): its length and its first and last eight bytes (fewer
 * for a shorter key), mixed by one multiplication, whose top bits depend
 * on all of them: the bloom filter takes its bit from the top eight. Keys
 * are ten bytes or so and a document has thousands: the hash must cost
 * next to nothing. nicfit/emit.h's NICFIT__EMIT_KEY_HASH() is the same
 * hash, which the inline calls work out for a literal key while
 * compiling (the _h calls): the two must agree (test_emit_json's
 * literal_keys_meet_outside_keys).
 */
static inline uint64_t key_hash_words(uint64_t a, uint64_t b, size_t n)
{
	return (a ^ (b << 7 | b >> 57) ^ (uint64_t)n << 48) * 0x9e3779b97f4a7c15ull;
}

/* The words key_hash_words() takes of a key: its first and last 8 bytes, or 4, or 3 of them. */
static inline __attribute__((always_inline)) void key_words(const char *k, size_t n, uint64_t *a,
							    uint64_t *b)
{
	*a = *b = 0;
	if (n >= 8) {
		memcpy(a, k, 8);
		memcpy(b, k + n - 8, 8);
	} else if (n >= 4) {
		uint32_t x, y;

		memcpy(&x, k, 4);
		memcpy(&y, k + n - 4, 4);
		*a = x;
		*b = y;
	} else if (n) {
		*a = (unsigned char)k[0] | (uint64_t)(unsigned char)k[n / 2] << 8 |
		     (uint64_t)(unsigned char)k[n - 1] << 16;
	}
}

static inline uint64_t key_hash(const char *k, size_t n)
{
	uint64_t a, b;

	key_words(k, n, &a, &b);
	return key_hash_words(a, b, n);
}

/* The bloom filter's word and bit for hash h. */
#define BLOOM_WORD(h) ((h) >> 62)
#define BLOOM_BIT(h) (1ull << (((h) >> 56) & 63))

/* The index + 1 of the member of l whose key is key (hash h), else 0. */
static size_t find_member(struct nicfit_emit *e, const struct level *l, const char *key,
			  size_t kn, int plain, uint64_t h)
{
	struct nicfit_buf q;
	size_t i, found = 0;

	if (!(l->bloom[BLOOM_WORD(h)] & BLOOM_BIT(h)))
		return 0;
	if (plain) {
		/* the key is written as it is, between its quotes */
		for (i = 0; i < l->nm; i++)
			if (l->m[i].hash == h && l->m[i].key_len == kn + 2 &&
			    !memcmp(e->text.data + l->m[i].key_at + 1, key, kn))
				return i + 1;
		return 0;
	}
	nicfit_buf_init(&q, 0);
	nicfit__json_quote(&q, key, kn);
	for (i = 0; i < l->nm && !found && !nicfit_buf_error(&q); i++)
		if (l->m[i].hash == h && l->m[i].key_len == q.len &&
		    !memcmp(e->text.data + l->m[i].key_at, q.data, q.len))
			found = i + 1;
	nicfit_buf_release(&q);
	return found;
}

/*
 * Copies key to d (room bytes at most) if it is plain (what nicfit__json_plain_ascii()
 * accepts: it is then written as it is) and hashes it; returns its length
 * (its hash in *hash), or SIZE_MAX when it is not plain or longer than
 * room. An object's key is ten bytes or so and a document has thousands:
 * one of 1 to 16 bytes is checked in one compare and copied as two words
 * that overlap (or halves, or bytes), without a loop or a call.
 */
static inline __attribute__((always_inline)) size_t key_copy(char *d, size_t room,
								     const char *key, size_t n,
								     uint64_t *hash)
{
	uint64_t x, y, w0, w1;

	if (n > room)
		return SIZE_MAX;
	if (n == 0 || n > 16) {
		if (!nicfit__json_plain_ascii(key, n))
			return SIZE_MAX;
		memcpy(d, key, n);
		*hash = key_hash(key, n);
		return n;
	}
	/* the key's bytes as key_hash() takes them; w0, w1 all of them, spaces (plain) besides */
	key_words(key, n, &x, &y);
	if (n >= 8) {
		w0 = x;
		w1 = y;
	} else {
		w0 = n >= 4 ? x | y << 32 : x | 0x2020202020000000ull;
		w1 = 0x2020202020202020ull;
	}
#ifdef __SSE2__
	if (nicfit__json_chunk_escapes(_mm_set_epi64x((long long)w1, (long long)w0)))
		return SIZE_MAX;
#else
	if (nicfit__json_word_escapes(w0) || nicfit__json_word_escapes(w1))
		return SIZE_MAX;
#endif
	if (n >= 8) {
		memcpy(d, &x, 8);
		memcpy(d + n - 8, &y, 8);
	} else if (n >= 4) {
		uint32_t a = (uint32_t)x, c = (uint32_t)y;

		memcpy(d, &a, 4);
		memcpy(d + n - 4, &c, 4);
	} else {
		d[0] = key[0];
		d[n / 2] = key[n / 2];
		d[n - 1] = key[n - 1];
	}
	*hash = key_hash_words(x, y, n);
	return n;
}

/*
 * member() for a plain key when the buffer has room for it: the key is
 * copied where it will stand (after the comma and the indent, which are
 * written once it is known to be new) and checked on the way, so that a
 * new member is written with no further call. Returns 1 when the member
 * is open (or its key was given before: then its value will replace the
 * first one's), 0 when the key is not plain or does not fit (member()
 * goes on the general way), -1 on failure.
 */
static inline __attribute__((always_inline)) int member_fast(struct nicfit_emit *e, struct level *l,
							       const char *key, size_t klen)
{
	struct nicfit_buf *b = &e->text;
	int pretty = (e->flags & NICFIT_EMIT_PRETTY) != 0;
	size_t sep = (l->n ? 1 : 0) + (pretty ? 1 + 2 * (size_t)e->depth : 0);
	size_t room, kn, dup, i;
	struct member *m;
	uint64_t h;
	char *p;

	if (b->err || !b->data)
		return 0;
	room = b->cap - b->len - 1;
	if (b->max - b->len < room)
		room = b->max - b->len;
	/* the separator, two quotes and ": " besides the key */
	if (room <= sep + 4)
		return 0;
	p = b->data + b->len;
	kn = key_copy(p + sep + 1, room - sep - 4, key, klen, &h);
	if (kn == SIZE_MAX)
		return 0;
	dup = (l->bloom[BLOOM_WORD(h)] & BLOOM_BIT(h)) ? find_member(e, l, key, kn, 1, h) : 0;
	if (dup) {
		/* nothing written: the copy lies past the end of the document */
		l->replacing = dup;
		l->vstart = b->len;
		return 1;
	}
	if (l->nm >= l->am && NICFIT_ALLOC_GROW(l->m, l->nm + 1, l->am)) {
		nicfit__emit_fail(e, NICFIT_E_NOMEM);
		return -1;
	}
	m = &l->m[l->nm++];
	m->sep_at = b->len;
	if (l->n++)
		*p++ = ',';
	if (pretty) {
		*p++ = '\n';
		for (i = 0; i < (size_t)e->depth; i++, p += 2)
			memcpy(p, "  ", 2);
	}
	m->hash = h;
	m->key_at = (size_t)(p - b->data);
	m->key_len = kn + 2;
	p[0] = '"';
	p[kn + 1] = '"';
	p += kn + 2;
	*p++ = ':';
	if (pretty)
		*p++ = ' ';
	*p = '\0';
	b->len = (size_t)(p - b->data);
	l->bloom[BLOOM_WORD(h)] |= BLOOM_BIT(h);
	return 1;
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
static int member_slow(struct nicfit_emit *e, struct level *l, const char *key, size_t klen);

static inline __attribute__((always_inline)) int member(struct nicfit_emit *e, const char *key,
							  size_t klen)
{
	struct level *l;
	int fast;

	if (e->depth == 0) {
		if (e->has_root || key) {
			nicfit__emit_fail(e, NICFIT_E_INTERNAL);
			return -1;
		}
		e->has_root = 1;
		return 0;
	}
	l = &e->stack[e->depth - 1];
	if (e->in_table && e->depth <= e->table_depth) {
		nicfit__emit_fail(e, NICFIT_E_INTERNAL);
		return -1;
	}
	if (!l->object) {
		if (l->n++)
			nicfit__json_addch(&e->text, ',');
		json_indent(e, e->depth);
		return 0;
	}
	/* a key must be UTF-8, as jansson's objects required */
	if (!key) {
		nicfit__emit_fail(e, NICFIT_E_INTERNAL);
		return -1;
	}
	fast = member_fast(e, l, key, klen);
	if (fast)
		return fast < 0 ? -1 : 0;
	return member_slow(e, l, key, klen);
}

/* member() for a key that is not plain ASCII or does not fit the buffer's room. */
static int member_slow(struct nicfit_emit *e, struct level *l, const char *key, size_t klen)
{
	uint64_t h;
	size_t dup, kn = klen;
	int plain;

	plain = nicfit__json_plain_ascii(key, kn);
	if (!plain && !nicfit__json_utf8_valid(key, kn)) {
		nicfit__emit_fail(e, NICFIT_E_INTERNAL);
		return -1;
	}
	h = key_hash(key, kn);
	dup = find_member(e, l, key, kn, plain, h);
	if (dup) {
		l->replacing = dup;
		l->vstart = e->text.len;
		return 0;
	}
	if (l->nm >= l->am && NICFIT_ALLOC_GROW(l->m, l->nm + 1, l->am)) {
		nicfit__emit_fail(e, NICFIT_E_NOMEM);
		return -1;
	}
	l->m[l->nm].sep_at = e->text.len;
	if (l->n++)
		nicfit__json_addch(&e->text, ',');
	json_indent(e, e->depth);
	l->bloom[BLOOM_WORD(h)] |= BLOOM_BIT(h);
	l->m[l->nm].hash = h;
	l->m[l->nm].key_at = e->text.len;
	if (plain)
		nicfit__json_plain_quote(&e->text, key, kn);
	else
		nicfit__json_quote(&e->text, key, kn);
	l->m[l->nm].key_len = e->text.len - l->m[l->nm].key_at;
	if (e->flags & NICFIT_EMIT_PRETTY)
		nicfit__json_add(&e->text, ": ", 2);
	else
		nicfit__json_addch(&e->text, ':');
	l->nm++;
	return 0;
}

/*
 * The value of a member whose key the object had already is written, at
 * the end of the document: move it over the value it replaces (which
 * ends where the next member begins, or where this value does when the
 * replaced member was the last).
 */
static void replace_value(struct nicfit_emit *e, struct level *l)
{
	struct member *old = &l->m[l->replacing - 1];
	size_t r = l->replacing - 1, vs, ve, nv, nt, k;
	char *tmp;
	long long delta;

	l->replacing = 0;
	if (nicfit_buf_error(&e->text))
		return;
	vs = old->key_at + old->key_len + ((e->flags & NICFIT_EMIT_PRETTY) ? 2 : 1);
	ve = r + 1 < l->nm ? l->m[r + 1].sep_at : l->vstart;
	/* document = ... old value ... tail | new value  ->  ... new value ... tail */
	nv = e->text.len - l->vstart;
	nt = l->vstart - ve;
	tmp = malloc(nv + nt + 1);
	if (!tmp) {
		nicfit__emit_fail(e, NICFIT_E_NOMEM);
		return;
	}
	memcpy(tmp, e->text.data + l->vstart, nv);
	memcpy(tmp + nv, e->text.data + ve, nt);
	nicfit_buf_truncate(&e->text, vs);
	nicfit_buf_add(&e->text, tmp, nv + nt);
	free(tmp);
	delta = (long long)nv - (long long)(ve - vs);
	for (k = r + 1; k < l->nm; k++) {
		l->m[k].key_at = (size_t)((long long)l->m[k].key_at + delta);
		l->m[k].sep_at = (size_t)((long long)l->m[k].sep_at + delta);
	}
}

/*
 * The quick way to an object's member, which nearly every member of a
 * document takes: compact JSON, the innermost container an object that no
 * table holds, a plain key of 1 to 16 bytes that the object's bloom filter
 * has not seen (so no earlier member has it), room in the member list and,
 * in the buffer, for the separator, the key, vroom bytes of value and the
 * NUL. quick_key() writes [,]"key": past the end of the document, counting
 * nothing, and returns where the value goes; NULL, nothing done, sends the
 * caller the general way (member()). The caller writes the value there and
 * quick_done() counts the member; a caller that finds it cannot write the
 * value (a string that needs escapes) goes the general way instead, which
 * writes over those bytes. The same key hash and member record as
 * member_fast(), so that later members find this one.
 */
struct quick {
	struct level *l;
	uint64_t h;
	size_t at;   /* where the member begins (its ',' or its key) */
	size_t klen;
};

/*
 * A key the compiler knows (the _h calls of nicfit/emit.h): 1 to 16 plain
 * bytes, and their hash. NULL where a writer takes a key from outside.
 */
struct lit {
	uint64_t hash;
};

/* A known key's bytes (1 to 16) copied to d, as two words that may overlap, or halves, or bytes. */
static inline __attribute__((always_inline)) void lit_copy(char *d, const char *key, size_t n)
{
	if (n >= 8) {
		uint64_t x, y;

		memcpy(&x, key, 8);
		memcpy(&y, key + n - 8, 8);
		memcpy(d, &x, 8);
		memcpy(d + n - 8, &y, 8);
	} else if (n >= 4) {
		uint32_t x, y;

		memcpy(&x, key, 4);
		memcpy(&y, key + n - 4, 4);
		memcpy(d, &x, 4);
		memcpy(d + n - 4, &y, 4);
	} else {
		d[0] = key[0];
		d[n / 2] = key[n / 2];
		d[n - 1] = key[n - 1];
	}
}

static inline __attribute__((always_inline)) char *quick_key(struct nicfit_emit *e,
							     const char *key, size_t klen,
							     const struct lit *lit, size_t vroom,
							     struct quick *q)
{
	struct nicfit_buf *b = &e->text;
	struct level *l;
	uint64_t h;
	char *p;

	/* a known key is 1 to 16 bytes: only an outside one is measured */
	l = e->qobj;
	if ((!lit && klen - 1 >= 16) || !l || b->err)
		return NULL;
	if (l->nm >= l->am || klen + vroom + 4 >= b->cap - b->len ||
	    klen + vroom + 4 > b->max - b->len)
		return NULL;
	p = b->data + b->len + (l->n ? 1 : 0);
	/* the key goes where it will stand; a key seen before leaves it there, uncounted */
	if (lit) {
		lit_copy(p + 1, key, klen);
		h = lit->hash;
	} else if (key_copy(p + 1, klen, key, klen, &h) == SIZE_MAX) {
		return NULL;
	}
	if (l->bloom[BLOOM_WORD(h)] & BLOOM_BIT(h))
		return NULL;
	q->l = l;
	q->h = h;
	q->at = b->len;
	if (l->n)
		p[-1] = ',';
	p[0] = '"';
	p[klen + 1] = '"';
	p[klen + 2] = ':';
	return p + klen + 3;
}

/*
 * The quick way to an array's element, on the same terms as quick_key():
 * writes the ',' before all but the first and returns where the value
 * goes (q->l is the array), or NULL for the general way.
 */
static inline __attribute__((always_inline)) char *quick_elem(struct nicfit_emit *e, size_t vroom,
							      struct quick *q)
{
	struct nicfit_buf *b = &e->text;
	struct level *l;
	char *p;

	l = e->qarr;
	if (!l || b->err || vroom + 2 >= b->cap - b->len || vroom + 1 > b->max - b->len)
		return NULL;
	q->l = l;
	p = b->data + b->len;
	if (l->n)
		*p++ = ',';
	return p;
}

/* quick_elem()'s element, whose value ends at end, counted. */
static inline __attribute__((always_inline)) void quick_elem_done(struct nicfit_emit *e,
								  const struct quick *q, char *end)
{
	q->l->n++;
	*end = '\0';
	e->text.len = (size_t)(end - e->text.data);
}

/* The member's key or element's separator, the quick way (quick_key(), quick_elem()). */
static inline __attribute__((always_inline)) char *quick_put(struct nicfit_emit *e,
							     const char *key, size_t klen,
							     const struct lit *lit, size_t vroom,
							     struct quick *q)
{
	if (key) {
		q->klen = klen;
		return quick_key(e, key, klen, lit, vroom, q);
	}
	q->klen = 0;
	return quick_elem(e, vroom, q);
}

/* quick_key()'s member, whose value ends at end, counted. */
static inline __attribute__((always_inline)) void quick_member_done(struct nicfit_emit *e,
								    const struct quick *q,
								    char *end)
{
	struct level *l = q->l;
	struct member *m = &l->m[l->nm++];

	m->hash = q->h;
	m->sep_at = q->at;
	m->key_at = q->at + (l->n ? 1 : 0);
	m->key_len = q->klen + 2;
	l->n++;
	l->bloom[BLOOM_WORD(q->h)] |= BLOOM_BIT(q->h);
	*end = '\0';
	e->text.len = (size_t)(end - e->text.data);
}

/* quick_put()'s member or element, whose value ends at end, counted. */
static inline __attribute__((always_inline)) void quick_done(struct nicfit_emit *e,
							     const struct quick *q, char *end)
{
	if (q->klen)
		quick_member_done(e, q, end);
	else
		quick_elem_done(e, q, end);
}

/*
 * The general way, out of line, for what quick_put() does not take: the
 * quick callers then need no registers saved.
 */
static __attribute__((noinline)) int member_general(struct nicfit_emit *e, const char *key,
						    size_t klen)
{
	return member(e, key, klen);
}

/*
 * n (<= 24) bytes from s to d a word at a time: s has 8 bytes to spare
 * past them and d room for 24.
 */
static inline void copy_words(char *d, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 8)
		memcpy(d + i, s + i, 8);
}

/* The value of the innermost container's last member is written. */
static inline void member_done(struct nicfit_emit *e)
{
	if (e->depth && e->stack[e->depth - 1].replacing)
		replace_value(e, &e->stack[e->depth - 1]);
}

/* A member whose value is v (vlen bytes of JSON), the general way. */
static __attribute__((noinline)) void raw_general(struct nicfit_emit *e, const char *key,
						  size_t klen, const char *v, size_t vlen)
{
	if (!member(e, key, klen)) {
		nicfit__json_add(&e->text, v, vlen);
		member_done(e);
	}
}

static inline __attribute__((always_inline)) void write_open(struct nicfit_emit *e,
							    const char *key, size_t klen,
							    const struct lit *lit, int object)
{
	struct quick q;
	char *p;

	if (e->depth >= NICFIT_EMIT_MAX_DEPTH) {
		nicfit__emit_fail(e, NICFIT_E_INTERNAL);
		return;
	}
	p = quick_put(e, key, klen, lit, 1, &q);
	if (p) {
		*p = object ? '{' : '[';
		quick_done(e, &q, p + 1);
	} else {
		if (member_general(e, key, klen))
			return;
		nicfit__json_addch(&e->text, object ? '{' : '[');
	}
	e->stack[e->depth].object = object;
	e->stack[e->depth].n = 0;
	e->stack[e->depth].nm = 0;
	e->stack[e->depth].replacing = 0;
	memset(e->stack[e->depth].bloom, 0, sizeof(e->stack[e->depth].bloom));
	e->depth++;
	nicfit__emit_quick_set(e);
}

void nicfit__json_open(struct nicfit_emit *e, const char *key, size_t klen, int object)
{
	write_open(e, key, klen, NULL, object);
}

/* Does -o's list name the member m (its key, any case)? */
static int asked(const struct nicfit_emit *e, const struct member *m)
{
	const char *key = e->text.data + m->key_at + 1, *p = e->columns;
	size_t klen = m->key_len - 2;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == klen && !strncasecmp(p, key, n))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

/*
 * -o in JSON: an object in an array (a row: a device, a finding, a BOM
 * line) keeps only the members the list names, when it has any of them;
 * other objects, and rows that have none of the names, are left whole.
 * The object's members are written from l->m[0].sep_at to end; the ones
 * kept are moved up, each with its separator.
 */
static void keep_asked_members(struct nicfit_emit *e, const struct level *l, size_t end)
{
	struct nicfit_buf *b = &e->text;
	size_t i, k = 0, to, nkeep = 0;
	char *tail;

	for (i = 0; i < l->nm; i++)
		nkeep += (size_t)asked(e, &l->m[i]);
	if (!nkeep || nkeep == l->nm || b->err)
		return;
	tail = malloc(end - l->m[0].sep_at + 1);
	if (!tail) {
		nicfit__emit_fail(e, NICFIT_E_NOMEM);
		return;
	}
	for (i = 0, to = 0; i < l->nm; i++) {
		size_t from = l->m[i].sep_at, until = i + 1 < l->nm ? l->m[i + 1].sep_at : end;

		if (!asked(e, &l->m[i]))
			continue;
		if (b->data[from] == ',')
			from++;
		if (k++)
			tail[to++] = ',';
		memcpy(tail + to, b->data + from, until - from);
		to += until - from;
	}
	memcpy(b->data + l->m[0].sep_at, tail, to);
	b->len = l->m[0].sep_at + to;
	b->data[b->len] = '\0';
	free(tail);
}

/*
 * The quick way to close a container, which nearly every close takes:
 * compact JSON, no -o list to apply, a container of the kind open and
 * room for the bracket. Returns 1 when closed, 0 (nothing done) for
 * nicfit__json_close().
 */
static inline __attribute__((always_inline)) int close_quick(struct nicfit_emit *e, int object)
{
	struct nicfit_buf *b = &e->text;
	struct level *up;

	if (e->depth == 0 || !e->stack[e->depth - 1].object != !object ||
	    (e->flags & NICFIT_EMIT_PRETTY) || (e->columns && *e->columns) || b->err ||
	    1 >= b->cap - b->len || b->len >= b->max)
		return 0;
	e->depth--;
	b->data[b->len++] = object ? '}' : ']';
	b->data[b->len] = '\0';
	up = e->depth ? &e->stack[e->depth - 1] : NULL;
	nicfit__emit_quick_set(e);
	if (up && up->replacing)
		replace_value(e, up);
	return 1;
}

void nicfit__json_close(struct nicfit_emit *e, int object)
{
	if (e->depth == 0 || !e->stack[e->depth - 1].object != !object) {
		nicfit__emit_fail(e, NICFIT_E_INTERNAL);
		return;
	}
	e->depth--;
	nicfit__emit_quick_set(e);
	if (object && e->columns && *e->columns && e->depth && !e->stack[e->depth - 1].object &&
	    e->stack[e->depth].nm)
		keep_asked_members(e, &e->stack[e->depth], e->text.len);
	if (e->stack[e->depth].n)
		json_indent(e, e->depth);
	nicfit__json_addch(&e->text, object ? '}' : ']');
	member_done(e);
}

static inline __attribute__((always_inline)) void write_raw(struct nicfit_emit *e,
							   const char *key, size_t klen,
							   const struct lit *lit, const char *v,
							   size_t vlen)
{
	struct quick q;
	char *p;

	/* null, true, false */
	if ((vlen == 4 || vlen == 5) && (p = quick_put(e, key, klen, lit, vlen, &q))) {
		memcpy(p, v, 4);
		if (vlen == 5)
			p[4] = v[4];
		quick_done(e, &q, p + vlen);
		return;
	}
	raw_general(e, key, klen, v, vlen);
}

void nicfit__json_raw(struct nicfit_emit *e, const char *key, size_t klen, const char *v,
		      size_t vlen)
{
	write_raw(e, key, klen, NULL, v, vlen);
}

/*
 * A string: null for NULL; malformed UTF-8, which Linux allows in every
 * name it reports (a Latin-1 DMI vendor, a netdev name), has those bytes
 * written as \xNN rather than the whole document failing.
 */
/* Bytes that are not UTF-8 written as \xNN (nicfit__text_escape_n), then quoted. */
static void escaped_bytes(struct nicfit_emit *e, const char *v, size_t n)
{
	struct nicfit_buf t;

	nicfit_buf_init(&t, 0);
	nicfit__text_escape_n(&t, v, n, NICFIT__ESC_BYTES);
	if (nicfit_buf_error(&t) || !t.data || !nicfit__json_utf8_valid(t.data, t.len))
		nicfit__emit_fail(e, NICFIT_E_NOMEM);
	else
		nicfit__json_quote(&e->text, t.data, t.len);
	nicfit_buf_release(&t);
}

static void string_general(struct nicfit_emit *e, const char *key, size_t klen, const char *v,
			   size_t n);

#if defined(__SSE2__) && !defined(NICFIT__STOP_PLAIN)
/*
 * The string v copied to d as its length is found, one pass where
 * strlen() and then the check and copy took two: 16 bytes at a time, each
 * block stored whole, until a block holds a byte JSON escapes, the NUL
 * among them (a control). d has room bytes; no block is stored past them
 * and the string must end before the last. Returns the length when the
 * byte found is the NUL (d then holds the string), or SIZE_MAX when the
 * string needs escapes, does not end within room, or the next block would
 * cross into another page (where a string that ended before it may not
 * be mapped): the caller then goes the two-pass way.
 */
static inline __attribute__((always_inline)) size_t plain_scan(char *d, const char *v,
								size_t room)
{
	/* the bytes to the end of v's page: a block that would cross it ends the loop */
	size_t i, page = 4096 - ((uintptr_t)v & 4095);

	if (room > page)
		room = page;
	for (i = 0; i + 16 <= room; i += 16) {
		__m128i x;
		unsigned m;

		x = _mm_loadu_si128((const __m128i *)(const void *)(v + i));
		_mm_storeu_si128((__m128i *)(void *)(d + i), x);
		/*
		 * x + 1 as signed bytes is below 0x21 for a control, DEL and
		 * every byte >= 0x80 (which wrap below zero): one compare
		 * for the three, then the quote and the backslash
		 */
		m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			_mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8(1)), _mm_set1_epi8(0x21)),
			_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
				     _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')))));
		if (m) {
			size_t at = i + (size_t)__builtin_ctz(m);

			return v[at] ? SIZE_MAX : at;
		}
	}
	return SIZE_MAX;
}
#endif

static inline __attribute__((always_inline)) void write_string(struct nicfit_emit *e,
							      const char *key, size_t klen,
							      const struct lit *lit, const char *v)
{
	struct quick q;
	size_t n;
	char *p;

	if (!v) {
		write_raw(e, key, klen, lit, "null", 4);
		return;
	}
#if defined(__SSE2__) && !defined(NICFIT__STOP_PLAIN)
	/* the key first, with room for a short value; the value's room is what the buffer has */
	p = quick_put(e, key, klen, lit, 32, &q);
	if (p) {
		/* the document may end at lim; the value's closing quote must fit before it */
		struct nicfit_buf *b = &e->text;
		size_t lim = b->cap - 1 < b->max ? b->cap - 1 : b->max;

		n = plain_scan(p + 1, v, lim - (size_t)(p + 1 - b->data));
		if (n != SIZE_MAX) {
			p[0] = '"';
			p[n + 1] = '"';
			quick_done(e, &q, p + n + 2);
			return;
		}
	}
#endif
	n = nicfit__strlen(v);
	p = quick_put(e, key, klen, lit, n + 2, &q);
	if (p && nicfit__json_plain_put(p + 1, v, n)) {
		p[0] = '"';
		p[n + 1] = '"';
		quick_done(e, &q, p + n + 2);
		return;
	}
	string_general(e, key, klen, v, n);
}

void nicfit__json_string(struct nicfit_emit *e, const char *key, size_t klen, const char *v)
{
	write_string(e, key, klen, NULL, v);
}

/* A string of n bytes, the general way. */
static __attribute__((noinline)) void string_general(struct nicfit_emit *e, const char *key,
						     size_t klen, const char *v, size_t n)
{
	int r;

	if (member(e, key, klen))
		return;
	r = nicfit__json_plain_copy(&e->text, v, n);
	if (r < 0 && nicfit__json_plain_ascii(v, n)) {
		nicfit__json_plain_quote(&e->text, v, n);
		r = 1;
	}
	if (r <= 0) {
		if (nicfit__json_utf8_valid(v, n))
			nicfit__json_quote(&e->text, v, n);
		else
			escaped_bytes(e, v, n);
	}
	member_done(e);
}

/* A value of n (<= 24) bytes of JSON at d, with 8 bytes to spare after them (copy_words()). */
static inline __attribute__((always_inline)) void put_short(struct nicfit_emit *e, const char *key,
							    size_t klen, const struct lit *lit,
							    const char *d, size_t n)
{
	struct quick q;
	char *p = quick_put(e, key, klen, lit, 24, &q);

	if (p) {
		copy_words(p, d, n);
		quick_done(e, &q, p + n);
		return;
	}
	raw_general(e, key, klen, d, n);
}

static inline __attribute__((always_inline)) void write_int(struct nicfit_emit *e,
							   const char *key, size_t klen,
							   const struct lit *lit, long long v)
{
	/* the digits end 8 bytes before the end of t: copy_words() may read past them */
	char t[32], *d = nicfit__json_int_text(t + 24, v);
	size_t n = (size_t)(t + 24 - d);

	put_short(e, key, klen, lit, d, n);
}

void nicfit__json_int(struct nicfit_emit *e, const char *key, size_t klen, long long v)
{
	write_int(e, key, klen, NULL, v);
}

/* A number of 1e10 or more, the general way. */
static __attribute__((noinline)) void number_general(struct nicfit_emit *e, const char *key,
						     size_t klen, double v)
{
	if (!member(e, key, klen)) {
		nicfit__json_real_out(&e->text, nicfit_round4(v));
		member_done(e);
	}
}

/* A number rounded to 4 decimals, null when not finite. */
static inline __attribute__((always_inline)) void write_number(struct nicfit_emit *e,
							      const char *key, size_t klen,
							      const struct lit *lit, double v)
{
	char t[40], *d;
	size_t n;

	if (!isfinite(v)) {
		write_raw(e, key, klen, lit, "null", 4);
		return;
	}
	if (!(fabs(v) < 1e10)) {
		number_general(e, key, klen, v);
		return;
	}
	/*
	 * nicfit__json_real_out(nicfit_round4(v)) with the rounding done once: for
	 * |v| < 1e10 the rounded value is k / 1e4, k = llround(v * 1e4)
	 * (round() and llround() both round halves away from zero), which
	 * json_real_fast() would write, or a zero with v's sign. The text ends
	 * 8 bytes before the end of t, for copy_words().
	 */
	{
		long long k = nicfit__round_half_away(v * 1e4);

		if (k) {
			d = nicfit__json_fixed4_text(t + 32, k);
		} else {
			d = t + 32 - (signbit(v) ? 4 : 3);
			memcpy(d, signbit(v) ? "-0.0" : "0.0", signbit(v) ? 4 : 3);
		}
	}
	n = (size_t)(t + 32 - d);
	put_short(e, key, klen, lit, d, n);
}

void nicfit__json_number(struct nicfit_emit *e, const char *key, size_t klen, double v)
{
	write_number(e, key, klen, NULL, v);
}

/* A parsed value (nicfit_emit_json_text) written like the rest. */
static void put_json(struct nicfit_emit *e, const char *key, json_t *v)
{
	size_t klen = KEYLEN(key);
	const char *k;
	json_t *x;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		nicfit__json_open(e, key, klen, 1);
		json_object_foreach(v, k, x)
			put_json(e, k, x);
		nicfit__json_close(e, 1);
		break;
	case JSON_ARRAY:
		nicfit__json_open(e, key, klen, 0);
		json_array_foreach(v, i, x)
			put_json(e, NULL, x);
		nicfit__json_close(e, 0);
		break;
	case JSON_STRING:
		if (!member(e, key, klen)) {
			nicfit__json_quote(&e->text, json_string_value(v), json_string_length(v));
			member_done(e);
		}
		break;
	case JSON_INTEGER:
		nicfit__json_int(e, key, klen, (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		if (!member(e, key, klen)) {
			nicfit__json_real_out(&e->text, json_real_value(v));
			member_done(e);
		}
		break;
	case JSON_TRUE: nicfit__json_raw(e, key, klen, "true", 4); break;
	case JSON_FALSE: nicfit__json_raw(e, key, klen, "false", 5); break;
	case JSON_NULL: nicfit__json_raw(e, key, klen, "null", 4); break;
	}
}

/*
 * The key-taking calls of nicfit/emit.h are inline there, passing the
 * key's length (worked out while compiling a call with a literal key):
 * this file holds their one definition (NICFIT__EMIT_DEFINE, above the
 * includes) for callers they are not inlined into, and the _k calls.
 */

/* An array's element (no key: the most common begin_*_k()) opened here, inline. */
void nicfit_emit_begin_object_k(struct nicfit_emit *e, const char *key, size_t klen)
{
	if (!nicfit__emit_is_json(e))
		return;
	if (key)
		nicfit__json_open(e, key, klen, 1);
	else
		write_open(e, NULL, 0, NULL, 1);
}

void nicfit_emit_end_object(struct nicfit_emit *e)
{
	if (nicfit__emit_is_json(e) && !close_quick(e, 1))
		nicfit__json_close(e, 1);
}

void nicfit_emit_begin_array_k(struct nicfit_emit *e, const char *key, size_t klen)
{
	if (!nicfit__emit_is_json(e))
		return;
	if (key)
		nicfit__json_open(e, key, klen, 0);
	else
		write_open(e, NULL, 0, NULL, 0);
}

void nicfit_emit_end_array(struct nicfit_emit *e)
{
	if (nicfit__emit_is_json(e) && !close_quick(e, 0))
		nicfit__json_close(e, 0);
}

void nicfit_emit_string_k(struct nicfit_emit *e, const char *key, size_t klen, const char *v)
{
	if (nicfit__emit_is_json(e))
		nicfit__json_string(e, key, klen, v);
}

void nicfit_emit_stringf(struct nicfit_emit *e, const char *key,
			 const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;

	if (!nicfit__emit_is_json(e))
		return;
	va_start(ap, fmt);
	nicfit__vfmt(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	nicfit__json_string(e, key, KEYLEN(key), tmp);
}

void nicfit_emit_int_k(struct nicfit_emit *e, const char *key, size_t klen, long long v)
{
	if (nicfit__emit_is_json(e))
		nicfit__json_int(e, key, klen, v);
}

void nicfit_emit_number_k(struct nicfit_emit *e, const char *key, size_t klen, double v)
{
	if (nicfit__emit_is_json(e))
		nicfit__json_number(e, key, klen, v);
}

void nicfit_emit_bool_k(struct nicfit_emit *e, const char *key, size_t klen, int v)
{
	if (nicfit__emit_is_json(e))
		nicfit__json_raw(e, key, klen, v ? "true" : "false", v ? 4 : 5);
}

void nicfit_emit_null_k(struct nicfit_emit *e, const char *key, size_t klen)
{
	if (nicfit__emit_is_json(e))
		nicfit__json_raw(e, key, klen, "null", 4);
}

/* The _h calls: a key the compiler knows, hashed while compiling (nicfit/emit.h). */
void nicfit_emit_begin_object_h(struct nicfit_emit *e, const char *key, size_t klen,
				uint64_t hash)
{
	struct lit lit = { hash };

	if (nicfit__emit_is_json(e))
		write_open(e, key, klen, &lit, 1);
}

void nicfit_emit_begin_array_h(struct nicfit_emit *e, const char *key, size_t klen,
			       uint64_t hash)
{
	struct lit lit = { hash };

	if (nicfit__emit_is_json(e))
		write_open(e, key, klen, &lit, 0);
}

void nicfit_emit_string_h(struct nicfit_emit *e, const char *key, size_t klen, uint64_t hash,
			  const char *v)
{
	struct lit lit = { hash };

	if (nicfit__emit_is_json(e))
		write_string(e, key, klen, &lit, v);
}

void nicfit_emit_int_h(struct nicfit_emit *e, const char *key, size_t klen, uint64_t hash,
		       long long v)
{
	struct lit lit = { hash };

	if (nicfit__emit_is_json(e))
		write_int(e, key, klen, &lit, v);
}

void nicfit_emit_number_h(struct nicfit_emit *e, const char *key, size_t klen, uint64_t hash,
			  double v)
{
	struct lit lit = { hash };

	if (nicfit__emit_is_json(e))
		write_number(e, key, klen, &lit, v);
}

void nicfit_emit_bool_h(struct nicfit_emit *e, const char *key, size_t klen, uint64_t hash,
			int v)
{
	struct lit lit = { hash };

	if (nicfit__emit_is_json(e))
		write_raw(e, key, klen, &lit, v ? "true" : "false", v ? 4 : 5);
}

void nicfit_emit_null_h(struct nicfit_emit *e, const char *key, size_t klen, uint64_t hash)
{
	struct lit lit = { hash };

	if (nicfit__emit_is_json(e))
		write_raw(e, key, klen, &lit, "null", 4);
}

void nicfit__emit_json_object(struct nicfit_emit *e, const char *key, json_t *o,
			      const char *skip)
{
	const char *k;
	json_t *x;

	if (!nicfit__emit_is_json(e))
		return;
	if (!json_is_object(o)) {
		put_json(e, key, o);
		return;
	}
	nicfit__json_open(e, key, KEYLEN(key), 1);
	json_object_foreach(o, k, x)
		if (!skip || strcmp(k, skip))
			put_json(e, k, x);
	nicfit__json_close(e, 1);
}

void nicfit_emit_json_text(struct nicfit_emit *e, const char *key, const char *json)
{
	json_error_t jerr;
	json_t *v;

	if (!nicfit__emit_is_json(e))
		return;
	v = json_loads(json, JSON_DECODE_ANY, &jerr);
	if (!v) {
		nicfit__emit_fail(e, NICFIT_E_NOMEM);
		return;
	}
	put_json(e, key, v);
	json_decref(v);
}
