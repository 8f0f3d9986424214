/*
 * fleet_store.c - what the fleet has read: the keys that attributes are
 * compared by, the hosts (one record each, a later document replacing an
 * earlier one of the same name), and the input problems. The input side
 * (fleet_stream.c, fleet_input.c, fleet_audit.c) fills it; the analysis
 * reads it. Lookups are open-addressing hash tables over string ids.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "fleet/fleet_int.h"
#include "core/jscan_int.h"
#include "core/text_int.h"
#include "core/utf8.h"

/* ---- keys ---------------------------------------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static int keys_rehash(struct nicfit_fleet *fl, size_t nslots)
{
	uint32_t *s = calloc(nslots, sizeof(*s));
	uint64_t *hk = calloc(nslots, sizeof(*hk));
	size_t i;

	if (!s || !hk) {
		free(s);
		free(hk);
		return -1;
	}
	for (i = 0; i < fl->nkeys; i++) {
		uint64_t k = ((uint64_t)fl->keys[i].attr << 32) | fl->keys[i].subject;
		size_t j = (size_t)mix64(k) & (nslots - 1);

		while (s[j])
			j = (j + 1) & (nslots - 1);
		s[j] = (uint32_t)i + 1;
		hk[j] = k;
	}
	free(fl->key_slots);
	free(fl->key_hk);
	fl->key_slots = s;
	fl->key_hk = hk;
	fl->nkey_slots = nslots;
	return 0;
}

int nicfit__fleet_key(struct nicfit_fleet *fl, int attr, uint32_t subject, uint32_t dev,
		      uint32_t *out)
{
	uint64_t k = ((uint64_t)attr << 32) | subject;
	size_t j;
	struct fl_key *nk;

	if (!fl->nkey_slots && keys_rehash(fl, 1024))
		return NICFIT_E_NOMEM;
	j = (size_t)mix64(k) & (fl->nkey_slots - 1);
	while (fl->key_slots[j]) {
		if (fl->key_hk[j] == k) {
			*out = fl->key_slots[j] - 1;
			return 0;
		}
		j = (j + 1) & (fl->nkey_slots - 1);
	}
	if (NICFIT_ALLOC_GROW(fl->keys, fl->nkeys + 1, fl->cap_keys))
		return NICFIT_E_NOMEM;
	nk = &fl->keys[fl->nkeys];
	memset(nk, 0, sizeof(*nk));
	nk->attr = (uint16_t)attr;
	nk->subject = subject;
	nk->dev = dev;
	fl->key_slots[j] = (uint32_t)fl->nkeys + 1;
	fl->key_hk[j] = k;
	*out = (uint32_t)fl->nkeys++;
	if (fl->nkeys * 2 > fl->nkey_slots && keys_rehash(fl, fl->nkey_slots * 2))
		return NICFIT_E_NOMEM;
	return 0;
}

/* ---- scratch, text from outside, problems -------------------------------------------------- */

char *nicfit__fleet_scratch(struct nicfit_fleet *fl, size_t n)
{
	return NICFIT_ALLOC_GROW(fl->scratch, n, fl->scratch_cap) ? NULL : fl->scratch;
}

/*
 * Code points that change how text around them is shown without being
 * seen (nicfit__invisible_kind(): C1 controls, the bidirectional
 * formatting characters, the zero-width ones). A host name holding U+202E
 * prints reversed from there on, so "gpu07<RLO>lo.x" reads as another
 * host, and one holding U+200B looks like a host it is not; none of them
 * belongs in a name, a path or a message. Every one of them is two or
 * three bytes long in UTF-8.
 */
static int invisible_control(const unsigned char *p, int n)
{
	unsigned c;

	if (n == 2)
		c = ((p[0] & 0x1fu) << 6) | (p[1] & 0x3fu);
	else if (n == 3)
		c = ((p[0] & 0x0fu) << 12) | ((p[1] & 0x3fu) << 6) | (p[2] & 0x3fu);
	else
		return 0;
	return nicfit__invisible_kind(c) != NULL;
}

void nicfit__fleet_sanitize(char *s)
{
	unsigned char *p = (unsigned char *)s, *w = p;

	while (*p) {
		int n;

		if (*p < 0x20 || *p == 0x7f) {
			*w++ = '?';
			p++;
			continue;
		}
		if (*p < 0x80) {
			*w++ = *p++;
			continue;
		}
		n = (int)nicfit__utf8_len(p, 4, NULL); /* a NUL stops it before the end */
		if (n && !invisible_control(p, n)) {
			memmove(w, p, (size_t)n);
			w += n;
			p += n;
		} else {
			*w++ = '?';
			p += n ? n : 1;
		}
	}
	*w = '\0';
}

void nicfit__fleet_problem(struct nicfit_fleet *fl, enum nicfit_fleet_problem_kind kind,
			   const char *host, const char *input, long line, long col,
			   const char *fmt, ...)
{
	struct nicfit_fleet_problem *p;
	va_list ap;

	fl->problems_total++;
	if (kind == NICFIT_FLEET_UNREADABLE) {
		fl->nunreadable++;
		if (host) {
			char clean[300];
			uint32_t id;

			snprintf(clean, sizeof(clean), "%s", host);
			nicfit__fleet_sanitize(clean);
			id = nicfit__fleet_intern0(&fl->st, clean);
			if (!id || NICFIT_ALLOC_GROW(fl->problem_hosts, fl->nproblem_hosts + 1,
						     fl->cap_problem_hosts))
				fl->oom = 1;
			else
				fl->problem_hosts[fl->nproblem_hosts++] = id;
		}
	} else if (kind == NICFIT_FLEET_DUPLICATE) {
		fl->nduplicates++;
	} else {
		fl->nignored++;
	}
	if (fl->nproblems >= fl->lim.max_problems)
		return; /* counted, not kept: nicfit_fleet_nproblems_total() says how many */
	if (NICFIT_ALLOC_GROW(fl->problems, fl->nproblems + 1, fl->cap_problems)) {
		fl->oom = 1;
		return;
	}
	p = &fl->problems[fl->nproblems];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->host = NULL;
	if (host) {
		size_t n = strlen(host);
		char *h = malloc(n + 1);

		if (!h) {
			fl->oom = 1;
			return;
		}
		memcpy(h, host, n + 1);
		nicfit__fleet_sanitize(h);
		p->host = h;
	}
	p->where.code = NICFIT_E_DATA;
	snprintf(p->where.input, sizeof(p->where.input), "%s", input ? input : "");
	nicfit__fleet_sanitize(p->where.input);
	p->where.line = line;
	p->where.col = col;
	va_start(ap, fmt);
	vsnprintf(p->where.msg, sizeof(p->where.msg), fmt, ap);
	va_end(ap);
	nicfit__fleet_sanitize(p->where.msg);
	fl->nproblems++;
}

/* ---- hosts --------------------------------------------------------------------------------- */

static int host_slots_rehash(struct nicfit_fleet *fl, size_t nslots)
{
	uint32_t *s = calloc(nslots, sizeof(*s));
	size_t i;

	if (!s)
		return -1;
	for (i = 0; i < fl->nhosts; i++) {
		size_t j = (size_t)mix64(fl->hosts[i].name) & (nslots - 1);

		while (s[j])
			j = (j + 1) & (nslots - 1);
		s[j] = (uint32_t)i + 1;
	}
	free(fl->host_slots);
	fl->host_slots = s;
	fl->nhost_slots = nslots;
	return 0;
}

/* ---- shared attribute and device lists ------------------------------------------------------ */

static uint64_t span_hash(const struct nicfit_fleet *fl, int devs, size_t off, size_t n)
{
	uint64_t h = mix64(n * 2 + (uint64_t)devs);
	size_t i;

	for (i = 0; i < n; i++) {
		if (devs) {
			const struct fl_dev *d = &fl->devs[off + i];

			h = mix64(h ^ ((uint64_t)d->bdf << 32 | d->kind));
			h = mix64(h ^ ((uint64_t)d->name << 32 | d->model) ^ d->sig);
		} else {
			h = mix64(h ^ fl->attrs[off + i].key);
			h = mix64(h ^ fl->attrs[off + i].v);
		}
	}
	return h;
}

/* Field by field: the structures have padding. */
static int span_same(const struct nicfit_fleet *fl, int devs, size_t a, size_t b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (devs) {
			const struct fl_dev *x = &fl->devs[a + i], *y = &fl->devs[b + i];

			if (x->bdf != y->bdf || x->kind != y->kind || x->name != y->name ||
			    x->model != y->model || x->sig != y->sig)
				return 0;
		} else if (fl->attrs[a + i].key != fl->attrs[b + i].key ||
			   fl->attrs[a + i].v != fl->attrs[b + i].v) {
			return 0;
		}
	}
	return 1;
}

static int span_slots_rehash(struct nicfit_fleet *fl, size_t nslots)
{
	uint32_t *s = calloc(nslots, sizeof(*s));
	size_t i;

	if (!s)
		return -1;
	for (i = 0; i < fl->nspans; i++) {
		size_t j = (size_t)fl->spans[i].hash & (nslots - 1);

		while (s[j])
			j = (j + 1) & (nslots - 1);
		s[j] = (uint32_t)i + 1;
	}
	free(fl->span_slots);
	fl->span_slots = s;
	fl->nspan_slots = nslots;
	return 0;
}

/*
 * The offset of the list that the last n attributes (devs: devices) read,
 * from off, make: an earlier host's equal list, and then the new copy is
 * dropped (it is at the end of the array), or this one, remembered for
 * the hosts to come. Without memory for the table a list is only not
 * shared.
 */
static size_t share(struct nicfit_fleet *fl, int devs, size_t off, size_t n)
{
	uint64_t h;
	size_t j;
	struct fl_span *sp;

	if (!n || (!fl->nspan_slots && span_slots_rehash(fl, 256)))
		return off;
	h = span_hash(fl, devs, off, n);
	j = (size_t)h & (fl->nspan_slots - 1);
	for (; fl->span_slots[j]; j = (j + 1) & (fl->nspan_slots - 1)) {
		sp = &fl->spans[fl->span_slots[j] - 1];
		if (sp->hash == h && sp->n == n && sp->devs == devs &&
		    span_same(fl, devs, sp->off, off, n)) {
			if (devs)
				fl->ndevs = off;
			else
				fl->nattrs = off;
			return sp->off;
		}
	}
	if (NICFIT_ALLOC_GROW(fl->spans, fl->nspans + 1, fl->cap_spans))
		return off;
	sp = &fl->spans[fl->nspans];
	sp->off = off;
	sp->n = (uint32_t)n;
	sp->devs = (uint8_t)devs;
	sp->hash = h;
	fl->span_slots[j] = (uint32_t)++fl->nspans;
	if (fl->nspans * 2 > fl->nspan_slots && span_slots_rehash(fl, fl->nspan_slots * 2)) {
		/* the table as it was: this list stays in the array, only not shared */
		fl->span_slots[j] = 0;
		fl->nspans--;
	}
	return off;
}

/* h's lists shared with the hosts read before it that have the same (share()). */
static void share_lists(struct nicfit_fleet *fl, struct fl_host *h)
{
	h->attr_off = share(fl, 0, h->attr_off, h->nattr);
	h->dev_off = share(fl, 1, h->dev_off, h->ndev);
}

int nicfit__fleet_host_commit(struct nicfit_fleet *fl, struct fl_host *h, size_t attr_mark,
			      size_t dev_mark, const char *origin_input, long origin_line,
			      struct nicfit_error *err)
{
	size_t j;
	struct fl_host *old;

	h->attr_off = attr_mark;
	h->nattr = (uint32_t)(fl->nattrs - attr_mark);
	h->dev_off = dev_mark;
	h->ndev = (uint32_t)(fl->ndevs - dev_mark);
	if (!fl->nhost_slots && host_slots_rehash(fl, 1024))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	j = (size_t)mix64(h->name) & (fl->nhost_slots - 1);
	while (fl->host_slots[j]) {
		old = &fl->hosts[fl->host_slots[j] - 1];
		if (old->name == h->name) {
			nicfit__fleet_problem(fl, NICFIT_FLEET_DUPLICATE, fl_str(&fl->st, h->name),
					      origin_input, origin_line, 0,
					      "host %s: audit read again (first at %s:%ld); the "
					      "later one is used",
					      fl_str(&fl->st, h->name), fl_str(&fl->st, old->input),
					      old->line);
			share_lists(fl, h);
			*old = *h;
			return 0;
		}
		j = (j + 1) & (fl->nhost_slots - 1);
	}
	if (fl->nhosts >= fl->lim.max_hosts)
		return nicfit_error_at(err, NICFIT_E_LIMIT, origin_input, origin_line, 0,
				       "more than %zu hosts (the fleet's limit)", fl->lim.max_hosts);
	if (NICFIT_ALLOC_GROW(fl->hosts, fl->nhosts + 1, fl->cap_hosts))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	share_lists(fl, h);
	fl->hosts[fl->nhosts++] = *h;
	fl->host_slots[j] = (uint32_t)fl->nhosts;
	if (fl->nhosts * 2 > fl->nhost_slots && host_slots_rehash(fl, fl->nhost_slots * 2))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	return 0;
}

long nicfit__fleet_host_index(const struct nicfit_fleet *fl, uint32_t name)
{
	size_t j;

	if (!fl->nhost_slots)
		return -1;
	j = (size_t)mix64(name) & (fl->nhost_slots - 1);
	while (fl->host_slots[j]) {
		if (fl->hosts[fl->host_slots[j] - 1].name == name)
			return (long)fl->host_slots[j] - 1;
		j = (j + 1) & (fl->nhost_slots - 1);
	}
	return -1;
}
