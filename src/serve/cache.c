/*
 * cache.c - answers kept for repeated requests (see serve_int.h).
 *
 * A chained hash table over the canonical request, and a list in order of
 * use: a hit moves its entry to the front, and an insertion that takes the
 * cache past its entries or bytes drops entries from the back. An entry
 * holds one reference to a libmicrohttpd response; a hit queues that same
 * response (libmicrohttpd counts the references of the connections that
 * send it), so dropping an entry while its answer is being sent only
 * drops the cache's reference.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serve_int.h"

#define CACHE_KEY_MAX ((size_t)64 * 1024) /* longer canonical requests are not kept */

struct cache_entry {
	struct cache_entry *next;            /* in its slot */
	struct cache_entry *newer, *older;   /* in order of use */
	struct MHD_Response *resp;
	uint64_t hash;
	size_t klen, bytes;                  /* bytes: the answer's, plus the key's */
	char key[];
};

static uint64_t hash_key(const char *k, size_t n)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)k[i];
		h *= 1099511628211ULL;
	}
	return h;
}

int serve_cache_init(struct serve_cache *c, size_t max_bytes, unsigned max_entries)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	c->max_bytes = max_bytes;
	c->max_entries = max_entries;
	if (!max_bytes || !max_entries)
		return 0;
	for (c->nslots = 64; c->nslots < (size_t)max_entries * 2; c->nslots *= 2) {
	}
	c->slots = calloc(c->nslots, sizeof(*c->slots));
	if (!c->slots) {
		c->nslots = 0;
		return -1;
	}
	return 0;
}

static void lru_unlink(struct serve_cache *c, struct cache_entry *e)
{
	if (e->newer)
		e->newer->older = e->older;
	else
		c->lru_head = e->older;
	if (e->older)
		e->older->newer = e->newer;
	else
		c->lru_tail = e->newer;
	e->newer = e->older = NULL;
}

static void lru_front(struct serve_cache *c, struct cache_entry *e)
{
	e->older = c->lru_head;
	e->newer = NULL;
	if (c->lru_head)
		c->lru_head->newer = e;
	c->lru_head = e;
	if (!c->lru_tail)
		c->lru_tail = e;
}

static struct cache_entry **slot_of(struct serve_cache *c, uint64_t h)
{
	return &c->slots[h & (c->nslots - 1)];
}

static struct cache_entry *find(struct serve_cache *c, const char *key, size_t klen, uint64_t h)
{
	struct cache_entry *e;

	for (e = *slot_of(c, h); e; e = e->next)
		if (e->hash == h && e->klen == klen && !memcmp(e->key, key, klen))
			return e;
	return NULL;
}

static void drop(struct serve_cache *c, struct cache_entry *e)
{
	struct cache_entry **pp = slot_of(c, e->hash);

	while (*pp != e)
		pp = &(*pp)->next;
	*pp = e->next;
	lru_unlink(c, e);
	c->bytes -= e->bytes;
	c->entries--;
	MHD_destroy_response(e->resp);
	free(e);
}

void serve_cache_free(struct serve_cache *c)
{
	while (c->lru_tail)
		drop(c, c->lru_tail);
	free(c->slots);
	c->slots = NULL;
	pthread_mutex_destroy(&c->lock);
}

int serve_cache_answer(struct serve_cache *c, const char *key, size_t klen,
		       struct MHD_Connection *conn, size_t *bytes)
{
	uint64_t h;
	struct cache_entry *e;
	int hit = 0;

	if (!c->slots)
		return 0;
	h = hash_key(key, klen);
	pthread_mutex_lock(&c->lock);
	c->lookups++;
	e = find(c, key, klen, h);
	/* queued under the lock, so that the entry cannot be dropped in between */
	if (e && MHD_queue_response(conn, MHD_HTTP_OK, e->resp) == MHD_YES) {
		c->hits++;
		lru_unlink(c, e);
		lru_front(c, e);
		*bytes = e->bytes - e->klen;
		hit = 1;
	}
	pthread_mutex_unlock(&c->lock);
	return hit;
}

void serve_cache_put(struct serve_cache *c, const char *key, size_t klen,
		     struct MHD_Response *r, size_t bytes)
{
	struct cache_entry *e;
	size_t total = bytes + klen;

	if (!c->slots || total > c->max_bytes / 4 || !(e = malloc(sizeof(*e) + klen))) {
		MHD_destroy_response(r);
		return;
	}
	e->resp = r;
	e->hash = hash_key(key, klen);
	e->klen = klen;
	e->bytes = total;
	memcpy(e->key, key, klen);
	pthread_mutex_lock(&c->lock);
	if (find(c, key, klen, e->hash)) {
		/* two requests missed at once: the first kept wins */
		pthread_mutex_unlock(&c->lock);
		MHD_destroy_response(r);
		free(e);
		return;
	}
	while (c->lru_tail && (c->entries + 1 > c->max_entries || c->bytes + total > c->max_bytes)) {
		drop(c, c->lru_tail);
		c->evictions++;
	}
	e->next = *slot_of(c, e->hash);
	*slot_of(c, e->hash) = e;
	lru_front(c, e);
	c->bytes += total;
	c->entries++;
	pthread_mutex_unlock(&c->lock);
}

void serve_cache_stats(struct serve_cache *c, unsigned long long *hits,
		       unsigned long long *lookups)
{
	pthread_mutex_lock(&c->lock);
	*hits = c->hits;
	*lookups = c->lookups;
	pthread_mutex_unlock(&c->lock);
}

void serve_cache_counts(struct serve_cache *c, struct serve_cache_counts *out)
{
	pthread_mutex_lock(&c->lock);
	out->hits = c->hits;
	out->lookups = c->lookups;
	out->evictions = c->evictions;
	out->bytes = c->bytes;
	out->max_bytes = c->slots ? c->max_bytes : 0;
	out->entries = c->entries;
	out->max_entries = c->slots ? c->max_entries : 0;
	pthread_mutex_unlock(&c->lock);
}

/* Order of settings in a key: by name, then as given (the values of one key keep their order). */
static int pair_cmp(const void *a, const void *b)
{
	const struct nicfit_spec_pair *const *x = a, *const *y = b;
	int d = strcmp((*x)->key, (*y)->key);

	if (d)
		return d;
	return *x < *y ? -1 : *x > *y;
}

/* A field of the key: its length then its bytes, so no text can stand for two fields. */
static void key_field(struct nicfit_buf *b, const char *s)
{
	size_t n = strlen(s);

	nicfit_buf_add(b, &n, sizeof(n));
	nicfit_buf_add(b, s, n);
}

int serve_cache_key(struct nicfit_buf *b, const char *route, const char *rest,
		    const char *format, const char *pretty, const struct nicfit_spec *spec)
{
	const struct nicfit_spec_pair *order[NICFIT_SPEC_MAX_PAIRS];
	size_t i;

	key_field(b, route);
	key_field(b, rest);
	key_field(b, format ? format : "");
	/* as serve_request_emitter() reads ?pretty: "", "1" and "true" indent, the rest not */
	key_field(b, pretty && (!*pretty || !strcmp(pretty, "1") || !strcmp(pretty, "true")) ? "1" : "0");
	for (i = 0; i < spec->n; i++)
		order[i] = &spec->pairs[i];
	qsort(order, spec->n, sizeof(order[0]), pair_cmp);
	for (i = 0; i < spec->n; i++) {
		key_field(b, order[i]->key);
		key_field(b, order[i]->value);
	}
	return nicfit_buf_error(b) || b->len > CACHE_KEY_MAX;
}
