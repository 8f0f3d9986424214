/*
 * fleet.c - the fleet: hosts reduced to attributes, grouped by hardware
 * signature, and compared value by value (see nicfit/fleet.h).
 *
 * Analysis is two passes over each group's attributes. The first keeps, per
 * key, the first value and whether any host disagrees; only keys that
 * disagree are gathered in the second pass, sorted, and tallied into an
 * anomaly. A fleet whose hosts agree costs one pass of array lookups.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_int.h"
#include "fleet_int.h"
#include "jscan_int.h"
#include "nicfit/buf.h"

#define FNV_OFF 2166136261u
#define FNV_PRIME 16777619u

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = FNV_OFF;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= FNV_PRIME;
	}
	return h;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* ---- string table ------------------------------------------------------------ */

static void strtab_free(struct fl_strtab *t)
{
	size_t i;

	for (i = 0; i < t->nchunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->slots);
	free(t->ent);
	memset(t, 0, sizeof(*t));
}

static char *arena_alloc(struct fl_strtab *t, size_t n)
{
	char *p;

	if (t->chunk_cap - t->chunk_used < n) {
		size_t sz = n > 65536 ? n : 65536;

		if (NICFIT_ALLOC_GROW(t->chunks, t->nchunks + 1, t->chunks_cap))
			return NULL;
		t->chunk = malloc(sz);
		if (!t->chunk) {
			t->chunk_cap = t->chunk_used = 0;
			return NULL;
		}
		t->chunks[t->nchunks++] = t->chunk;
		t->chunk_cap = sz;
		t->chunk_used = 0;
	}
	p = t->chunk + t->chunk_used;
	t->chunk_used += n;
	return p;
}

static int strtab_rehash(struct fl_strtab *t, size_t nslots)
{
	uint32_t *s = calloc(nslots, sizeof(*s));
	size_t i;

	if (!s)
		return -1;
	for (i = 1; i < t->n; i++) {
		size_t j = t->ent[i].hash & (nslots - 1);

		while (s[j])
			j = (j + 1) & (nslots - 1);
		s[j] = (uint32_t)i;
	}
	free(t->slots);
	t->slots = s;
	t->nslots = nslots;
	return 0;
}

uint32_t nicfit__fleet_intern(struct fl_strtab *t, const char *s, size_t len)
{
	uint32_t h = hash_bytes(s, len);
	size_t j;
	char *copy;

	if (!t->n) {
		if (NICFIT_ALLOC_GROW_ZERO(t->ent, 1024, t->alloc) || strtab_rehash(t, 4096))
			return 0;
		t->n = 1; /* id 0, "no string" */
	}
	j = h & (t->nslots - 1);
	while (t->slots[j]) {
		uint32_t id = t->slots[j];

		if (t->ent[id].hash == h && t->ent[id].len == len && !memcmp(t->ent[id].s, s, len))
			return id;
		j = (j + 1) & (t->nslots - 1);
	}
	if (len >= UINT32_MAX || t->n >= UINT32_MAX - 1)
		return 0;
	if (NICFIT_ALLOC_GROW(t->ent, t->n + 1, t->alloc))
		return 0;
	copy = arena_alloc(t, len + 1);
	if (!copy)
		return 0;
	memcpy(copy, s, len);
	copy[len] = '\0';
	t->ent[t->n].s = copy;
	t->ent[t->n].hash = h;
	t->ent[t->n].len = (uint32_t)len;
	t->slots[j] = (uint32_t)t->n;
	t->n++;
	if (t->n * 2 > t->nslots && strtab_rehash(t, t->nslots * 2))
		return 0;
	return (uint32_t)(t->n - 1);
}

uint32_t nicfit__fleet_intern0(struct fl_strtab *t, const char *s)
{
	return s ? nicfit__fleet_intern(t, s, strlen(s)) : 0;
}

/* ---- keys --------------------------------------------------------------------- */

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

/* ---- the fleet object ----------------------------------------------------------- */

static size_t or_default(size_t v, size_t d)
{
	return v ? v : d;
}

int nicfit_fleet_new(struct nicfit_fleet **out, const struct nicfit_fleet_limits *lim)
{
	struct nicfit_fleet *fl = calloc(1, sizeof(*fl));

	*out = NULL;
	if (!fl)
		return NICFIT_E_NOMEM;
	if (lim)
		fl->lim = *lim;
	fl->lim.max_doc_bytes = or_default(fl->lim.max_doc_bytes, NICFIT_FLEET_MAX_DOC_DEFAULT);
	fl->lim.max_bundle_bytes = or_default(fl->lim.max_bundle_bytes,
					      NICFIT_FLEET_MAX_BUNDLE_DEFAULT);
	fl->lim.max_open_bytes = or_default(fl->lim.max_open_bytes, NICFIT_FLEET_MAX_OPEN_DEFAULT);
	fl->lim.max_hosts = or_default(fl->lim.max_hosts, NICFIT_FLEET_MAX_HOSTS_DEFAULT);
	fl->lim.max_problems = or_default(fl->lim.max_problems,
					  NICFIT_FLEET_MAX_PROBLEMS_DEFAULT);
	jscan_init(&fl->js);
	if (!nicfit__fleet_intern0(&fl->st, "")) {
		/* id of "" is never 0; a 0 means the table could not start */
		nicfit_fleet_free(fl);
		return NICFIT_E_NOMEM;
	}
	*out = fl;
	return 0;
}

static void results_free(struct nicfit_fleet *fl)
{
	free(fl->anoms);
	free(fl->ahosts);
	free(fl->avals);
	free(fl->pub_anoms);
	free(fl->pub_vals);
	free(fl->groups);
	free(fl->group_hosts);
	free(fl->commons);
	free(fl->pub_hosts);
	free(fl->absent);
	fl->absent = NULL;
	fl->nabsent = fl->cap_absent = fl->nunnamed = fl->nexpected = fl->nmissing_unnamed = 0;
	fl->anoms = NULL;
	fl->ahosts = NULL;
	fl->avals = NULL;
	fl->pub_anoms = NULL;
	fl->pub_vals = NULL;
	fl->groups = NULL;
	fl->group_hosts = NULL;
	fl->commons = NULL;
	fl->pub_hosts = NULL;
	fl->nanoms = fl->cap_anoms = fl->nahosts = fl->cap_ahosts = 0;
	fl->navals = fl->cap_avals = fl->ngroups = fl->ncommons = fl->cap_commons = 0;
	fl->analyzed = 0;
}

void nicfit_fleet_free(struct nicfit_fleet *fl)
{
	size_t i;

	if (!fl)
		return;
	nicfit__fleet_input_release(fl);
	results_free(fl);
	for (i = 0; i < fl->nproblems; i++)
		free((char *)fl->problems[i].host);
	free(fl->problems);
	free(fl->problem_hosts);
	free(fl->hosts);
	free(fl->host_slots);
	free(fl->attrs);
	free(fl->devs);
	free(fl->keys);
	free(fl->key_hk);
	free(fl->key_slots);
	free(fl->scratch);
	jscan_release(&fl->js);
	strtab_free(&fl->st);
	free(fl);
}

char *nicfit__fleet_scratch(struct nicfit_fleet *fl, size_t n)
{
	return NICFIT_ALLOC_GROW(fl->scratch, n, fl->scratch_cap) ? NULL : fl->scratch;
}

size_t nicfit_fleet_nhosts(const struct nicfit_fleet *fl)
{
	return fl->nhosts;
}

size_t nicfit_fleet_nproblems(const struct nicfit_fleet *fl)
{
	return fl->nproblems;
}

size_t nicfit_fleet_nproblems_total(const struct nicfit_fleet *fl)
{
	return fl->problems_total;
}

const struct nicfit_fleet_problem *nicfit_fleet_problem(const struct nicfit_fleet *fl, size_t i)
{
	return i < fl->nproblems ? &fl->problems[i] : NULL;
}

void nicfit__fleet_sanitize(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (*p) {
		int n;

		if (*p < 0x20 || *p == 0x7f) {
			*p++ = '?';
			continue;
		}
		if (*p < 0x80) {
			p++;
			continue;
		}
		n = jscan_utf8_len(p, p + 4); /* a NUL stops it before the end */
		if (n) {
			p += n;
		} else {
			*p++ = '?';
		}
	}
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
			/* without memory the host is only left out of audit-unreadable */
			if (id && !NICFIT_ALLOC_GROW(fl->problem_hosts, fl->nproblem_hosts + 1,
						     fl->cap_problem_hosts))
				fl->problem_hosts[fl->nproblem_hosts++] = id;
		}
	} else if (kind == NICFIT_FLEET_DUPLICATE) {
		fl->nduplicates++;
	} else {
		fl->nignored++;
	}
	if (fl->nproblems >= fl->lim.max_problems ||
	    NICFIT_ALLOC_GROW(fl->problems, fl->nproblems + 1, fl->cap_problems))
		return;
	p = &fl->problems[fl->nproblems];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->host = NULL;
	if (host) {
		size_t n = strlen(host);
		char *h = malloc(n + 1);

		if (h) {
			memcpy(h, host, n + 1);
			nicfit__fleet_sanitize(h);
			p->host = h;
		}
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

/* ---- hosts ------------------------------------------------------------------------ */

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
			nicfit__fleet_problem(fl, NICFIT_FLEET_DUPLICATE, fl_str(&fl->st, h->name), origin_input,
				   origin_line, 0,
				   "host %s: audit read again (first at %s:%ld); the later one is used",
				   fl_str(&fl->st, h->name), fl_str(&fl->st, old->input), old->line);
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
	fl->hosts[fl->nhosts++] = *h;
	fl->host_slots[j] = (uint32_t)fl->nhosts;
	if (fl->nhosts * 2 > fl->nhost_slots && host_slots_rehash(fl, fl->nhost_slots * 2))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	return 0;
}

/* ---- analysis: helpers ------------------------------------------------------------ */

struct gath {
	uint32_t key;
	uint32_t host;
	uint64_t v;
};

static int gath_cmp(const void *x, const void *y)
{
	const struct gath *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->host < b->host ? -1 : a->host > b->host;
}

struct tally {
	uint64_t v;
	size_t count;
	size_t off;           /* into the value-host scratch */
	double rank;
	int ranked;
};

/* The analysis's working state. */
struct an {
	struct nicfit_fleet *fl;
	const struct nicfit_fleet_opts *o;
	uint64_t *first;
	uint32_t *cnt, *last, *last2;
	uint8_t *flags;
	uint32_t *touched;
	size_t ntouched;
	struct gath *g;
	size_t ng, capg;
	size_t *vh;            /* hosts of the tallies being built */
	size_t nvh, capvh;
	struct tally *t;
	size_t nt, capt;
	uint8_t *mark;         /* per host */
	int err;
};

static double as_double(uint64_t v)
{
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

static const char *fmt_value(struct nicfit_fleet *fl, int attr, uint64_t v, char *buf, size_t n)
{
	double d = as_double(v);

	switch (nicfit__fleet_attrs[attr].vk) {
	case FV_STR: {
		const char *s = fl_str(&fl->st, (uint32_t)v);

		snprintf(buf, n, "%s", s && *s ? s : "(empty)");
		return buf;
	}
	case FV_BOOL:
		snprintf(buf, n, "%s", v ? (nicfit__fleet_attrs[attr].yes ? nicfit__fleet_attrs[attr].yes : "yes")
					 : (nicfit__fleet_attrs[attr].no ? nicfit__fleet_attrs[attr].no : "no"));
		return buf;
	case FV_PRESENT:
		snprintf(buf, n, "%s", v ? "present" : "absent");
		return buf;
	default:
		break;
	}
	switch (attr) {
	case FA_CUR_WIDTH:
	case FA_MAX_WIDTH:
		snprintf(buf, n, "x%g", d);
		break;
	case FA_CUR_GTS:
	case FA_MAX_GTS:
		snprintf(buf, n, "%g GT/s", d);
		break;
	case FA_PATH:
		snprintf(buf, n, "%.1f Gb/s", d);
		break;
	case FA_NET_SPEED:
		snprintf(buf, n, "%g Gb/s", d);
		break;
	case FA_MPS:
	case FA_MRRS:
		snprintf(buf, n, "%g bytes", d);
		break;
	default:
		snprintf(buf, n, "%g", d);
		break;
	}
	return buf;
}

static uint32_t intern_fmt(struct an *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static uint32_t intern_fmt(struct an *a, const char *fmt, ...)
{
	struct nicfit_buf b;
	va_list ap;
	uint32_t id;

	nicfit_buf_init(&b, 1 << 16);
	va_start(ap, fmt);
	nicfit_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	id = nicfit_buf_error(&b) == NICFIT_E_NOMEM ? 0 : nicfit__fleet_intern(&a->fl->st, b.data, b.len);
	nicfit_buf_release(&b);
	if (!id)
		a->err = NICFIT_E_NOMEM;
	return id;
}

/* The string id of a registered code, as anomalies carry it. */
static uint32_t code_id(struct an *a, enum nicfit__code code)
{
	uint32_t id = nicfit__fleet_intern0(&a->fl->st, nicfit__code_name(code));

	if (!id)
		a->err = NICFIT_E_NOMEM;
	return id;
}

static uint32_t intern_buf(struct an *a, struct nicfit_buf *b)
{
	uint32_t id = nicfit_buf_error(b) == NICFIT_E_NOMEM
			      ? 0 : nicfit__fleet_intern(&a->fl->st, b->data, b->len);

	if (!id)
		a->err = NICFIT_E_NOMEM;
	return id;
}

/* The device at bdf in host h, or NULL. */
static const struct fl_dev *host_dev(const struct nicfit_fleet *fl, const struct fl_host *h,
				     uint32_t bdf)
{
	uint32_t i;

	for (i = 0; i < h->ndev; i++)
		if (fl->devs[h->dev_off + i].bdf == bdf)
			return &fl->devs[h->dev_off + i];
	return NULL;
}

static const char *dev_label(const struct nicfit_fleet *fl, const struct fl_dev *d)
{
	const char *n = d ? fl_str(&fl->st, d->name) : NULL;

	if (n && *n)
		return n;
	return d ? fl_str(&fl->st, d->model) : "";
}

static int is_gpu_kind(const struct nicfit_fleet *fl, const struct fl_dev *d)
{
	const char *k = d ? fl_str(&fl->st, d->kind) : NULL;

	return k && (!strcmp(k, "gpu") || !strcmp(k, "accelerator"));
}

static int ignored(const struct an *a, const char *code)
{
	const char *const *p;

	if (!a->o || !a->o->ignore || !code)
		return 0;
	for (p = a->o->ignore; *p; p++)
		if (!strcmp(*p, code))
			return 1;
	return 0;
}

/* Start an anomaly; hosts and values are added after it. */
static struct fl_anom *anom_new(struct an *a, int attr, enum nicfit_severity sev, uint32_t code,
				int group, uint32_t dev)
{
	struct nicfit_fleet *fl = a->fl;
	struct fl_anom *x;

	if (NICFIT_ALLOC_GROW(fl->anoms, fl->nanoms + 1, fl->cap_anoms)) {
		a->err = NICFIT_E_NOMEM;
		return NULL;
	}
	x = &fl->anoms[fl->nanoms++];
	memset(x, 0, sizeof(*x));
	x->attr = attr;
	x->sev = sev;
	x->code = code;
	x->attribute = attr >= 0 ? nicfit__fleet_attrs[attr].name : NULL;
	x->group = group;
	x->dev = dev;
	x->host_off = fl->nahosts;
	x->val_off = fl->navals;
	return x;
}

static void anom_host(struct an *a, struct fl_anom *x, size_t h)
{
	struct nicfit_fleet *fl = a->fl;

	if (NICFIT_ALLOC_GROW(fl->ahosts, fl->nahosts + 1, fl->cap_ahosts)) {
		a->err = NICFIT_E_NOMEM;
		return;
	}
	fl->ahosts[fl->nahosts++] = h;
	x->nhosts++;
}

/* A value of x with its hosts (copied from hosts[0..n)). */
static void anom_value(struct an *a, struct fl_anom *x, uint32_t shown, const size_t *hosts,
		       size_t n, int majority)
{
	struct nicfit_fleet *fl = a->fl;
	struct fl_value_int v;

	if (NICFIT_ALLOC_GROW(fl->ahosts, fl->nahosts + n, fl->cap_ahosts) ||
	    NICFIT_ALLOC_GROW(fl->avals, fl->navals + 1, fl->cap_avals)) {
		a->err = NICFIT_E_NOMEM;
		return;
	}
	v.shown = shown;
	v.count = n;
	v.host_off = fl->nahosts;
	v.majority = majority;
	memcpy(fl->ahosts + fl->nahosts, hosts, n * sizeof(size_t));
	fl->nahosts += n;
	fl->avals[fl->navals++] = v;
	x->nvals++;
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* ---- analysis: one key's values within a group ---------------------------------------- */

static uint32_t subject_of(struct an *a, const struct fl_key *k, const struct fl_host *first)
{
	struct nicfit_fleet *fl = a->fl;
	const char *subj = fl_str(&fl->st, k->subject);
	const struct fl_dev *d;
	const char *bdf, *rest;

	switch (k->attr) {
	case FA_NUMA_COUNT:
	case FA_KERNEL:
	case FA_GPU_DRIVER:
	case FA_PRODUCT_FW:
	case FA_PEERMEM:
	case FA_GDR_KERNEL:
	case FA_IOMMU:
	case FA_PRIVILEGED:
		return intern_fmt(a, "host");
	case FA_PAIR_PATH:
	case FA_PAIR_GDR:
		return intern_fmt(a, "GPU %s", subj);
	case FA_FINDING:
		return k->dev ? k->dev : intern_fmt(a, "host");
	case FA_NOTCHECKED:
		return intern_fmt(a, "host");
	default:
		break;
	}
	d = host_dev(fl, first, k->dev);
	bdf = fl_str(&fl->st, k->dev);
	rest = subj && bdf && !strncmp(subj, bdf, strlen(bdf)) ? subj + strlen(bdf) : "";
	return intern_fmt(a, "%s %s%s", bdf ? bdf : "?", dev_label(fl, d), rest);
}

static void tally_rank(struct an *a, int attr, struct tally *t)
{
	const struct fl_attr_def *def = &nicfit__fleet_attrs[attr];

	t->ranked = 0;
	if (!def->ordered)
		return;
	if (def->vk == FV_NUM) {
		t->rank = as_double(t->v);
		t->ranked = 1;
	} else if (def->vk == FV_BOOL) {
		t->rank = (double)t->v;
		t->ranked = 1;
	} else if (def->vk == FV_STR && def->rank) {
		int r = def->rank(fl_str(&a->fl->st, (uint32_t)t->v));

		if (r >= 0) {
			t->rank = r;
			t->ranked = 1;
		}
	}
}

/* Severity of value `odd` against reference `ref`. */
static enum nicfit_severity severity(int attr, const struct tally *odd, const struct tally *ref,
				     int gpu)
{
	const struct fl_attr_def *def = &nicfit__fleet_attrs[attr];

	if (odd->ranked && ref->ranked && odd->rank > ref->rank)
		return NICFIT_SEV_INFO;
	if (gpu && def->gpu_info)
		return NICFIT_SEV_INFO;
	/* an unranked value ("unknown" operstate) differs, but is not known to be worse */
	if (def->ordered && (!odd->ranked || !ref->ranked))
		return def->sev < NICFIT_SEV_WARNING ? def->sev : NICFIT_SEV_WARNING;
	if (def->ratio && odd->ranked && ref->ranked && ref->rank > 0 &&
	    odd->rank <= ref->rank / 2)
		return NICFIT_SEV_CRITICAL;
	return def->sev;
}

static int tally_by_count(const void *x, const void *y)
{
	const struct tally *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->v < b->v ? -1 : a->v > b->v;
}

/* "x8 on 2 hosts, x4 on 1 host" for tallies [from, to). */
static void describe_values(struct an *a, struct nicfit_buf *b, int attr, size_t from,
			    size_t to)
{
	size_t i;
	char tmp[256];

	for (i = from; i < to; i++)
		nicfit_buf_addf(b, "%s%s on %zu host%s", i > from ? ", " : "",
				fmt_value(a->fl, attr, a->t[i].v, tmp, sizeof(tmp)), a->t[i].count,
				plural(a->t[i].count));
}

/* Values of one key: tallies in a->t, hosts in a->vh. Build its anomaly. */
static void value_anomaly(struct an *a, int gi, uint32_t key, const struct fl_host *first)
{
	struct nicfit_fleet *fl = a->fl;
	const struct fl_key *k = &fl->keys[key];
	int attr = k->attr;
	const struct fl_attr_def *def = &nicfit__fleet_attrs[attr];
	int gpu = is_gpu_kind(fl, host_dev(fl, first, k->dev));
	size_t i, j, total = 0;
	enum nicfit_severity sev = NICFIT_SEV_NONE;
	int maj = -1, best = -1, all_ranked = 1;
	struct fl_anom *x;
	struct nicfit_buf b;
	char tmp[256];
	uint32_t subject;

	if (ignored(a, nicfit__code_name(def->code)))
		return;
	/* most common first; hosts stay with their tally through the offsets */
	qsort(a->t, a->nt, sizeof(*a->t), tally_by_count);
	for (i = 0; i < a->nt; i++) {
		tally_rank(a, attr, &a->t[i]);
		total += a->t[i].count;
		if (!a->t[i].ranked)
			all_ranked = 0;
	}
	if (a->t[0].count * 2 > total)
		maj = 0;
	if (maj < 0 && all_ranked && def->ordered) {
		best = 0;
		for (i = 1; i < a->nt; i++)
			if (a->t[i].rank > a->t[best].rank)
				best = (int)i;
		/* values that differ but rank alike ("down", "dormant"): no order after all */
		for (i = 0; i < a->nt; i++)
			if (a->t[i].rank < a->t[best].rank)
				break;
		if (i == a->nt)
			best = -1;
	}
	x = anom_new(a, attr, NICFIT_SEV_NONE, code_id(a, def->code), gi, k->dev);
	if (!x)
		return;
	subject = subject_of(a, k, first);
	x->subject = subject;
	x->majority = maj == 0;
	for (i = 0; i < a->nt; i++) {
		enum nicfit_severity s = NICFIT_SEV_NONE;
		int named = 0;

		if (maj == 0) {
			if (i > 0) {
				s = severity(attr, &a->t[i], &a->t[0], gpu);
				named = 1;
			}
		} else if (best >= 0) {
			if (a->t[i].rank < a->t[best].rank) {
				s = severity(attr, &a->t[i], &a->t[best], gpu);
				named = 1;
			}
		} else {
			/* no order to go by: every host is in the dispute */
			s = gpu && def->gpu_info ? NICFIT_SEV_INFO : def->sev;
			if (def->ordered && s > NICFIT_SEV_WARNING)
				s = NICFIT_SEV_WARNING;
			named = 1;
		}
		if (s > sev)
			sev = s;
		if (named)
			for (j = 0; j < a->t[i].count; j++)
				anom_host(a, x, a->vh[a->t[i].off + j]);
	}
	for (i = 0; i < a->nt; i++)
		anom_value(a, x, intern_fmt(a, "%s", fmt_value(fl, attr, a->t[i].v, tmp, sizeof(tmp))),
			   a->vh + a->t[i].off, a->t[i].count, maj == 0 && i == 0);
	x->sev = sev;
	nicfit_buf_init(&b, 1 << 16);
	nicfit_buf_addf(&b, "%s: %s ", fl_str(&fl->st, subject), def->what);
	if (maj == 0) {
		nicfit_buf_puts(&b, "is ");
		describe_values(a, &b, attr, 1, a->nt);
		nicfit_buf_addf(&b, "; %s on the other %zu",
				fmt_value(fl, attr, a->t[0].v, tmp, sizeof(tmp)), a->t[0].count);
		x->expected = intern_fmt(a, "%s", tmp);
	} else {
		nicfit_buf_puts(&b, "differs, no majority: ");
		describe_values(a, &b, attr, 0, a->nt);
	}
	if (gpu && def->gpu_info)
		nicfit_buf_puts(&b, "; GPUs slow their links when idle: re-check under load");
	x->message = intern_buf(a, &b);
	nicfit_buf_release(&b);
}

/* A finding or not-checked item that some hosts of the group have. */
static void presence_anomaly(struct an *a, int gi, uint32_t key, const size_t *present,
			     size_t np, const size_t *absent, size_t na)
{
	struct nicfit_fleet *fl = a->fl;
	const struct fl_key *k = &fl->keys[key];
	size_t known = np + na, i;
	enum nicfit_severity fsev = k->attr == FA_FINDING
					    ? (k->sev ? (enum nicfit_severity)k->sev : NICFIT_SEV_INFO)
					    : nicfit__fleet_attrs[k->attr].sev;
	const char *code = fl_str(&fl->st, k->code);
	const char *msg = fl_str(&fl->st, k->msg);
	const char *dev = fl_str(&fl->st, k->dev);
	struct fl_anom *x;
	struct nicfit_buf b;
	enum nicfit_severity sev;

	if (ignored(a, k->attr == FA_FINDING ? code
					     : nicfit__code_name(nicfit__fleet_attrs[k->attr].code)))
		return;
	x = anom_new(a, k->attr, NICFIT_SEV_NONE,
		     k->attr == FA_FINDING ? k->code
					   : code_id(a, NICFIT_CODE_NOT_CHECKED),
		     gi, k->dev);
	if (!x)
		return;
	x->subject = k->attr == FA_FINDING && k->dev ? k->dev : nicfit__fleet_intern0(&fl->st, "host");
	nicfit_buf_init(&b, 1 << 16);
	if (np * 2 > known) {
		/* most hosts have it: the odd ones are those without */
		sev = NICFIT_SEV_INFO;
		x->majority = 1;
		for (i = 0; i < na; i++)
			anom_host(a, x, absent[i]);
		anom_value(a, x, nicfit__fleet_intern0(&fl->st, "present"), present, np, 1);
		anom_value(a, x, nicfit__fleet_intern0(&fl->st, "absent"), absent, na, 0);
		x->expected = nicfit__fleet_intern0(&fl->st, "present");
	} else {
		sev = fsev;
		x->majority = np * 2 < known;
		for (i = 0; i < np; i++)
			anom_host(a, x, present[i]);
		if (x->majority) {
			anom_value(a, x, nicfit__fleet_intern0(&fl->st, "absent"), absent, na, 1);
			anom_value(a, x, nicfit__fleet_intern0(&fl->st, "present"), present, np, 0);
			x->expected = nicfit__fleet_intern0(&fl->st, "absent");
		} else {
			anom_value(a, x, nicfit__fleet_intern0(&fl->st, "present"), present, np, 0);
			anom_value(a, x, nicfit__fleet_intern0(&fl->st, "absent"), absent, na, 0);
		}
	}
	x->sev = sev;
	if (k->attr == FA_FINDING)
		nicfit_buf_addf(&b, "%s%s%s finding %s on %zu of %zu hosts%s%s%s",
				dev ? dev : "", dev ? ": " : "", nicfit_severity_name(fsev),
				code, np, known, x->majority ? "" : " (no majority)",
				msg ? ": " : "", msg ? msg : "");
	else
		nicfit_buf_addf(&b, "host: '%s' not checked on %zu of %zu hosts%s%s%s", code, np,
				known, x->majority ? "" : " (no majority)", msg ? ": " : "",
				msg ? msg : "");
	x->message = intern_buf(a, &b);
	nicfit_buf_release(&b);
}

static void add_common(struct an *a, uint32_t key)
{
	struct nicfit_fleet *fl = a->fl;
	const struct fl_key *k = &fl->keys[key];
	struct nicfit_finding c;

	/* the record points into the string table, which outlives it */
	memset(&c, 0, sizeof(c));
	c.severity = k->sev ? (enum nicfit_severity)k->sev : NICFIT_SEV_INFO;
	c.code = fl_str(&fl->st, k->code);
	c.device = (char *)fl_str(&fl->st, k->dev);
	c.message = (char *)fl_str(&fl->st, k->msg);
	if (NICFIT_ALLOC_GROW(fl->commons, fl->ncommons + 1, fl->cap_commons))
		a->err = NICFIT_E_NOMEM;
	else
		fl->commons[fl->ncommons++] = c;
}

/* ---- analysis: one group ---------------------------------------------------------------- */

/* Hosts that an anomaly of `attr` on `dev` in this group already names. */
static void mark_named(struct an *a, size_t from, int attr, uint32_t dev, uint8_t m)
{
	struct nicfit_fleet *fl = a->fl;
	size_t i, j;

	for (i = from; i < fl->nanoms; i++) {
		const struct fl_anom *x = &fl->anoms[i];

		if (x->attr != attr || x->dev != dev || x->dropped)
			continue;
		for (j = 0; j < x->nhosts; j++)
			a->mark[fl->ahosts[x->host_off + j]] = m;
	}
}

/* Gathered presences g[i..j) of a finding or not-checked key. */
static void presence(struct an *a, int gi, uint32_t k, size_t i, size_t j, const size_t *hosts,
		     size_t n)
{
	struct nicfit_fleet *fl = a->fl;
	int attr = fl->keys[k].attr;
	size_t m, np;

	for (m = i; m < j; m++) {
		a->vh[a->nvh++] = a->g[m].host;
		a->mark[a->g[m].host] = 1;
	}
	np = a->nvh;
	for (m = 0; m < n; m++) {
		const struct fl_host *h = &fl->hosts[hosts[m]];
		int known = attr == FA_FINDING ? h->findings_known : h->notchecked_known;

		if (known && !a->mark[hosts[m]])
			a->vh[a->nvh++] = hosts[m];
	}
	for (m = i; m < j; m++)
		a->mark[a->g[m].host] = 0;
	presence_anomaly(a, gi, k, a->vh, np, a->vh + np, a->nvh - np);
}

/* Gathered values g[i..j) of one key (sorted by value) into tallies. */
static void tally_values(struct an *a, size_t i, size_t j)
{
	size_t m;

	for (m = i; m < j; m++) {
		if (m == i || a->g[m].v != a->g[m - 1].v) {
			a->t[a->nt].v = a->g[m].v;
			a->t[a->nt].count = 0;
			a->t[a->nt].off = a->nvh;
			a->nt++;
		}
		a->t[a->nt - 1].count++;
		a->vh[a->nvh++] = a->g[m].host;
	}
}

/*
 * A slower path to the CPU is usually the device's own slower or narrower
 * link, already reported: path values are tallied without the hosts that
 * a link-width or link-speed anomaly of the same device names, so that
 * path-bandwidth remains for causes elsewhere (a bridge or switch above).
 */
static void path_values(struct an *a, size_t from, uint32_t k, size_t i, size_t j)
{
	struct nicfit_fleet *fl = a->fl;
	uint32_t dev = fl->keys[k].dev;
	size_t m, w = i;

	mark_named(a, from, FA_CUR_WIDTH, dev, 1);
	mark_named(a, from, FA_CUR_GTS, dev, 1);
	for (m = i; m < j; m++)
		if (!a->mark[a->g[m].host])
			a->g[w++] = a->g[m];
	mark_named(a, from, FA_CUR_WIDTH, dev, 0);
	mark_named(a, from, FA_CUR_GTS, dev, 0);
	tally_values(a, i, w);
}

static void analyze_group(struct an *a, int gi, const size_t *hosts, size_t n)
{
	struct nicfit_fleet *fl = a->fl;
	size_t i, j, known_f = 0, known_n = 0, from = fl->nanoms;
	const struct fl_host *first = &fl->hosts[hosts[0]];
	int pass;

	a->ntouched = 0;
	for (i = 0; i < n; i++) {
		const struct fl_host *h = &fl->hosts[hosts[i]];

		known_f += h->findings_known;
		known_n += h->notchecked_known;
		for (j = 0; j < h->nattr; j++) {
			const struct fl_attr *at = &fl->attrs[h->attr_off + j];
			uint32_t k = at->key;

			if (a->last[k] == hosts[i] + 1)
				continue;
			a->last[k] = (uint32_t)hosts[i] + 1;
			if (!a->flags[k]) {
				a->flags[k] = 1;
				a->first[k] = at->v;
				a->cnt[k] = 1;
				a->touched[a->ntouched++] = k;
			} else {
				a->cnt[k]++;
				if (at->v != a->first[k])
					a->flags[k] |= 2;
			}
		}
	}
	for (i = 0; i < a->ntouched; i++) {
		uint32_t k = a->touched[i];
		int attr = fl->keys[k].attr;

		if (attr == FA_FINDING || attr == FA_NOTCHECKED) {
			size_t known = attr == FA_FINDING ? known_f : known_n;

			if (a->cnt[k] < known)
				a->flags[k] |= 2;
			else if (attr == FA_FINDING && n > 1)
				add_common(a, k);
		}
	}
	/* gather the values of the keys that differ */
	a->ng = 0;
	for (i = 0; i < n && !a->err; i++) {
		const struct fl_host *h = &fl->hosts[hosts[i]];

		for (j = 0; j < h->nattr; j++) {
			const struct fl_attr *at = &fl->attrs[h->attr_off + j];
			struct gath g;

			if (!(a->flags[at->key] & 2) || a->last2[at->key] == hosts[i] + 1)
				continue;
			a->last2[at->key] = (uint32_t)hosts[i] + 1;
			g.key = at->key;
			g.host = (uint32_t)hosts[i];
			g.v = at->v;
			if (NICFIT_ALLOC_GROW(a->g, a->ng + 1, a->capg))
				a->err = NICFIT_E_NOMEM;
			else
				a->g[a->ng++] = g;
		}
	}
	if (a->ng)
		qsort(a->g, a->ng, sizeof(*a->g), gath_cmp);
	/* path keys last: they leave out hosts that their own link explains */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < a->ng && !a->err; i = j) {
			uint32_t k = a->g[i].key;
			int attr = fl->keys[k].attr;

			for (j = i; j < a->ng && a->g[j].key == k; j++)
				;
			if ((attr == FA_PATH) != (pass == 1))
				continue;
			a->nvh = 0;
			a->nt = 0;
			if (NICFIT_ALLOC_GROW(a->vh, n, a->capvh) ||
			    NICFIT_ALLOC_GROW(a->t, j - i + 1, a->capt)) {
				a->err = NICFIT_E_NOMEM;
				break;
			}
			if (attr == FA_FINDING || attr == FA_NOTCHECKED) {
				presence(a, gi, k, i, j, hosts, n);
				continue;
			}
			if (attr == FA_PATH) {
				path_values(a, from, k, i, j);
			} else {
				tally_values(a, i, j);
			}
			if (a->nt > 1)
				value_anomaly(a, gi, k, first);
		}
	}
	for (i = 0; i < a->ntouched; i++)
		a->flags[a->touched[i]] = 0;
}

/* ---- analysis: groups and hardware --------------------------------------------------- */

struct grp {
	uint32_t sig, label, product;
	const char *label_s, *sig_s; /* for sorting */
	size_t off, n;        /* into fl->group_hosts */
	size_t coff, ncommon; /* into fl->commons */
	size_t nsig;          /* signature devices */
	uint32_t gpus[16], nics[16]; /* distinct models (string ids), sorted */
	int ngpus, nnics;
	int cluster;          /* groups meant to be built alike share one */
};

struct sig_ent {
	uint32_t sig;
	size_t host;
};

static int sig_ent_cmp(const void *x, const void *y)
{
	const struct sig_ent *a = x, *b = y;

	if (a->sig != b->sig)
		return a->sig < b->sig ? -1 : 1;
	return a->host < b->host ? -1 : a->host > b->host;
}

static int grp_cmp(const void *x, const void *y)
{
	const struct grp *a = x, *b = y;
	int c;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	c = strcmp(a->label_s, b->label_s);
	return c ? c : strcmp(a->sig_s, b->sig_s);
}

static int kind_order(const char *k)
{
	if (!k)
		return 3;
	if (!strcmp(k, "gpu"))
		return 0;
	if (!strcmp(k, "accelerator"))
		return 1;
	if (!strcmp(k, "nic"))
		return 2;
	return 3;
}

struct model_count {
	const char *kind, *name, *model;
	size_t n;
};

static int mc_cmp(const void *x, const void *y)
{
	const struct model_count *a = x, *b = y;
	int c = kind_order(a->kind) - kind_order(b->kind);

	if (c)
		return c;
	c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->model, b->model);
}

/* Count the host's signature devices by model. Returns how many entries. */
static size_t model_counts(const struct nicfit_fleet *fl, const struct fl_host *h,
			   struct model_count *mc, size_t max)
{
	size_t n = 0, i, j;

	for (i = 0; i < h->ndev; i++) {
		const struct fl_dev *d = &fl->devs[h->dev_off + i];

		if (!d->sig)
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(mc[j].model, fl_str(&fl->st, d->model)))
				break;
		if (j == n) {
			if (n == max)
				continue;
			mc[n].kind = fl_str(&fl->st, d->kind);
			mc[n].name = dev_label(fl, d);
			mc[n].model = fl_str(&fl->st, d->model);
			mc[n].n = 0;
			n++;
		}
		mc[j].n++;
	}
	qsort(mc, n, sizeof(*mc), mc_cmp);
	return n;
}

#define MAX_MODELS 64

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

static void group_names(struct an *a, struct grp *g)
{
	struct nicfit_fleet *fl = a->fl;
	const struct fl_host *h = &fl->hosts[fl->group_hosts[g->off]];
	struct model_count mc[MAX_MODELS];
	size_t n = model_counts(fl, h, mc, MAX_MODELS), i;
	struct nicfit_buf b;

	g->ngpus = g->nnics = 0;
	g->sig = h->sig;
	g->product = h->product;
	g->nsig = 0;
	for (i = 0; i < h->ndev; i++)
		g->nsig += fl->devs[h->dev_off + i].sig;
	nicfit_buf_init(&b, 1 << 16);
	nicfit_buf_puts(&b, h->product ? fl_str(&fl->st, h->product) : "unknown model");
	for (i = 0; i < n; i++) {
		uint32_t id = nicfit__fleet_intern0(&fl->st, mc[i].model);

		nicfit_buf_addf(&b, "%s%zux %s", i ? ", " : ": ", mc[i].n, mc[i].name);
		if (kind_order(mc[i].kind) < 2 && g->ngpus < 16)
			g->gpus[g->ngpus++] = id;
		else if (kind_order(mc[i].kind) == 2 && g->nnics < 16)
			g->nics[g->nnics++] = id;
	}
	qsort(g->gpus, (size_t)g->ngpus, sizeof(uint32_t), u32_cmp);
	qsort(g->nics, (size_t)g->nnics, sizeof(uint32_t), u32_cmp);
	if (!n)
		nicfit_buf_puts(&b, ": no GPU or NIC");
	g->label = intern_buf(a, &b);
	nicfit_buf_release(&b);
	g->label_s = fl_str(&fl->st, g->label);
	g->sig_s = fl_str(&fl->st, g->sig);
}

struct hwdiff {
	const struct fl_dev *r, *g; /* r only: missing; g only: extra; both: changed */
	int paired;
};

#define MAX_DIFF_SHOWN 6

/* Compare group g with the reference group r of the same model. */
static void hardware_anomaly(struct an *a, const struct grp *groups, int gi, int ri,
			     int strict, size_t family_hosts)
{
	struct nicfit_fleet *fl = a->fl;
	const struct grp *g = &groups[gi], *r = &groups[ri];
	const struct fl_host *hg = &fl->hosts[fl->group_hosts[g->off]];
	const struct fl_host *hr = &fl->hosts[fl->group_hosts[r->off]];
	struct hwdiff *d;
	size_t nd = 0, i = 0, j = 0, k, shown = 0;
	int missing = 0, sev;
	struct fl_anom *x;
	struct nicfit_buf b;

	if (ignored(a, nicfit__code_name(NICFIT_CODE_HARDWARE_DIFFERS)))
		return;
	d = calloc((size_t)hg->ndev + hr->ndev + 1, sizeof(*d));
	if (!d) {
		a->err = NICFIT_E_NOMEM;
		return;
	}
	/* both device lists are sorted by BDF */
	while (i < hr->ndev || j < hg->ndev) {
		const struct fl_dev *dr = i < hr->ndev ? &fl->devs[hr->dev_off + i] : NULL;
		const struct fl_dev *dg = j < hg->ndev ? &fl->devs[hg->dev_off + j] : NULL;
		int c;

		if (dr && !dr->sig) {
			i++;
			continue;
		}
		if (dg && !dg->sig) {
			j++;
			continue;
		}
		c = !dr ? 1 : !dg ? -1 : strcmp(fl_str(&fl->st, dr->bdf), fl_str(&fl->st, dg->bdf));
		if (c < 0) {
			d[nd].r = dr;
			d[nd++].g = NULL;
			i++;
		} else if (c > 0) {
			d[nd].r = NULL;
			d[nd++].g = dg;
			j++;
		} else {
			if (dr->model != dg->model) {
				d[nd].r = dr;
				d[nd++].g = dg;
			}
			i++;
			j++;
		}
	}
	/* a device missing here and an extra one of the same model there: moved */
	for (i = 0; i < nd; i++) {
		if (!d[i].r || d[i].g || d[i].paired)
			continue;
		for (k = 0; k < nd; k++)
			if (!d[k].r && d[k].g && !d[k].paired && d[k].g->model == d[i].r->model) {
				d[i].paired = 1;
				d[k].paired = 2;
				d[i].g = d[k].g;
				break;
			}
		if (!d[i].paired)
			missing = 1;
	}
	sev = missing ? NICFIT_SEV_CRITICAL : NICFIT_SEV_WARNING;
	x = anom_new(a, -1, sev, code_id(a, NICFIT_CODE_HARDWARE_DIFFERS), gi, 0);
	if (!x) {
		free(d);
		return;
	}
	x->attribute = "hardware";
	x->majority = strict;
	x->subject = nicfit__fleet_intern0(&fl->st, "hardware");
	x->expected = r->label;
	for (i = 0; i < g->n; i++)
		anom_host(a, x, fl->group_hosts[g->off + i]);
	anom_value(a, x, r->label, fl->group_hosts + r->off, r->n, strict);
	anom_value(a, x, g->label, fl->group_hosts + g->off, g->n, 0);
	nicfit_buf_init(&b, 1 << 16);
	if (strict)
		nicfit_buf_addf(&b, "hardware differs from the %zu other %s host%s (group %d): ",
				r->n, r->product ? fl_str(&fl->st, r->product) : "alike",
				plural(r->n), ri + 1);
	else
		nicfit_buf_addf(&b, "hardware differs, no majority among the %zu %s hosts; "
				"compared with group %d: ", family_hosts,
				r->product ? fl_str(&fl->st, r->product) : "alike", ri + 1);
	for (i = 0; i < nd; i++) {
		const char *sep = shown ? "; " : "";

		if (d[i].paired == 2)
			continue;
		if (shown == MAX_DIFF_SHOWN) {
			shown++;
			nicfit_buf_puts(&b, "; more differences");
			break;
		}
		shown++;
		if (d[i].r && d[i].g && d[i].paired)
			nicfit_buf_addf(&b, "%s%s at %s instead of %s", sep, dev_label(fl, d[i].g),
					fl_str(&fl->st, d[i].g->bdf), fl_str(&fl->st, d[i].r->bdf));
		else if (d[i].r && d[i].g)
			nicfit_buf_addf(&b, "%s%s holds %s instead of %s", sep,
					fl_str(&fl->st, d[i].g->bdf), dev_label(fl, d[i].g),
					dev_label(fl, d[i].r));
		else if (d[i].r)
			nicfit_buf_addf(&b, "%sno %s at %s", sep, dev_label(fl, d[i].r),
					fl_str(&fl->st, d[i].r->bdf));
		else
			nicfit_buf_addf(&b, "%sextra %s at %s", sep, dev_label(fl, d[i].g),
					fl_str(&fl->st, d[i].g->bdf));
	}
	if (!nd)
		nicfit_buf_puts(&b, "the same devices, but the server model or vendor differs");
	x->message = intern_buf(a, &b);
	nicfit_buf_release(&b);
	free(d);
}

/* Sorted set a[0..na) within b[0..nb). */
static int subset(const uint32_t *a, int na, const uint32_t *b, int nb)
{
	int i = 0, j = 0;

	while (i < na && j < nb) {
		if (a[i] == b[j])
			i++;
		j++;
	}
	return i == na;
}

/*
 * Groups meant to be built alike: the same server model (or both unknown),
 * and one's GPU and accelerator models all found in the other's (counts may
 * differ: a GPU that fell off the bus is what we look for). A DMI product
 * alone is too coarse ("Super Server"). A group without GPUs is alike only
 * when its NIC models are the same too, so a CPU-only box of the same
 * model is not taken for a GPU server that lost its GPUs.
 */
static int alike(const struct grp *x, const struct grp *y)
{
	if (x->product != y->product)
		return 0;
	if (!subset(x->gpus, x->ngpus, y->gpus, y->ngpus) &&
	    !subset(y->gpus, y->ngpus, x->gpus, x->ngpus))
		return 0;
	if (!x->ngpus || !y->ngpus)
		return x->nnics == y->nnics && !memcmp(x->nics, y->nics, sizeof(uint32_t) * (size_t)x->nnics);
	return 1;
}

static int cluster_root(struct grp *g, int i)
{
	while (g[i].cluster != i) {
		g[i].cluster = g[g[i].cluster].cluster;
		i = g[i].cluster;
	}
	return i;
}

/* Groups built alike are compared with their cluster's largest group. */
static void compare_families(struct an *a, struct grp *groups, size_t ng)
{
	size_t i, j, total;
	int ref;

	for (i = 0; i < ng; i++)
		groups[i].cluster = (int)i;
	for (i = 0; i < ng; i++)
		for (j = i + 1; j < ng; j++)
			if (alike(&groups[i], &groups[j])) {
				int ri = cluster_root(groups, (int)i), rj = cluster_root(groups, (int)j);

				/* groups are sorted by size: keep the larger (earlier) as root */
				if (ri < rj)
					groups[rj].cluster = ri;
				else if (rj < ri)
					groups[ri].cluster = rj;
			}
	for (i = 0; i < ng; i++)
		groups[i].cluster = cluster_root(groups, (int)i);
	for (i = 0; i < ng; i++) {
		if (groups[i].cluster != (int)i)
			continue;
		total = 0;
		ref = (int)i; /* the root is the cluster's largest group */
		for (j = i; j < ng; j++)
			if (groups[j].cluster == (int)i)
				total += groups[j].n;
		if (total == groups[i].n)
			continue;
		if (groups[i].n * 2 <= total) {
			/* no majority: compare with the group that has the most devices */
			for (j = i; j < ng; j++)
				if (groups[j].cluster == (int)i && groups[j].nsig > groups[ref].nsig)
					ref = (int)j;
		}
		for (j = i; j < ng && !a->err; j++)
			if (groups[j].cluster == (int)i && (int)j != ref)
				hardware_anomaly(a, groups, (int)j, ref, groups[i].n * 2 > total,
						 total);
	}
}

/* ---- analysis: hosts without audits ------------------------------------------------- */

static long host_index(const struct nicfit_fleet *fl, uint32_t name)
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

static int absent_add(struct an *a, uint32_t name)
{
	struct nicfit_fleet *fl = a->fl;
	size_t i;

	if (host_index(fl, name) >= 0)
		return 0;
	for (i = 0; i < fl->nabsent; i++)
		if (fl->absent[i] == name)
			return 0;
	if (NICFIT_ALLOC_GROW(fl->absent, fl->nabsent + 1, fl->cap_absent)) {
		a->err = NICFIT_E_NOMEM;
		return -1;
	}
	fl->absent[fl->nabsent++] = name;
	return 1;
}

struct expect_ctx {
	struct an *a;
	size_t n;
};

static int expect_one(void *ctx, const char *name)
{
	struct expect_ctx *e = ctx;
	char clean[300];
	uint32_t id;

	snprintf(clean, sizeof(clean), "%s", name);
	nicfit__fleet_sanitize(clean);
	id = nicfit__fleet_intern0(&e->a->fl->st, clean);

	e->n++;
	if (!id) {
		e->a->err = NICFIT_E_NOMEM;
		return -1;
	}
	return absent_add(e->a, id) < 0 ? -1 : 0;
}

static int absent_hosts(struct an *a, struct nicfit_error *err)
{
	struct nicfit_fleet *fl = a->fl;
	size_t i, nunread;
	struct fl_anom *x;
	int rc;

	for (i = 0; i < fl->nproblem_hosts; i++)
		if (absent_add(a, fl->problem_hosts[i]) < 0)
			return NICFIT_E_NOMEM;
	nunread = fl->nabsent;
	fl->nunnamed = fl->nunreadable > fl->nproblem_hosts ? fl->nunreadable - fl->nproblem_hosts
							     : 0;
	if ((nunread || fl->nunnamed) && !ignored(a, nicfit__code_name(NICFIT_CODE_AUDIT_UNREADABLE))) {
		x = anom_new(a, -1, NICFIT_SEV_WARNING,
			     code_id(a, NICFIT_CODE_AUDIT_UNREADABLE), -1, 0);
		if (!x)
			return NICFIT_E_NOMEM;
		x->attribute = "audit";
		x->subject = nicfit__fleet_intern0(&fl->st, "audit");
		x->majority = 1;
		for (i = 0; i < nunread; i++)
			anom_host(a, x, fl->nhosts + i);
		if (fl->nunnamed && nunread)
			x->message = intern_fmt(a, "no usable audit (truncated, malformed or no "
					       "output), and %zu document%s without a host name; "
					       "see the input problems", fl->nunnamed,
					       plural(fl->nunnamed));
		else if (fl->nunnamed)
			x->message = intern_fmt(a, "%zu document%s without a host name could not be "
					       "read; see the input problems", fl->nunnamed,
					       plural(fl->nunnamed));
		else
			x->message = intern_fmt(a, "no usable audit (truncated, malformed or no "
					       "output); see the input problems");
	}
	if (!a->o || !a->o->expect)
		return 0;
	{
		const char *e = a->o->expect;
		size_t k = 0;

		while (e[k] >= '0' && e[k] <= '9')
			k++;
		if (k && !e[k]) {
			unsigned long long want = strtoull(e, NULL, 10);
			size_t have = fl->nhosts + fl->nabsent;

			fl->nexpected = (size_t)want;
			if (want > have && !ignored(a, nicfit__code_name(NICFIT_CODE_HOST_MISSING))) {
				fl->nmissing_unnamed = (size_t)want - have;
				x = anom_new(a, -1, NICFIT_SEV_CRITICAL,
					     code_id(a, NICFIT_CODE_HOST_MISSING),
					     -1, 0);
				if (!x)
					return NICFIT_E_NOMEM;
				x->attribute = "hosts";
				x->subject = nicfit__fleet_intern0(&fl->st, "fleet");
				x->majority = 1;
				x->message = intern_fmt(a, "%llu hosts expected, %zu answered: %zu sent "
						       "nothing (give --expect a host list to name "
						       "them)", want, have, fl->nmissing_unnamed);
			}
			return a->err;
		}
	}
	{
		struct expect_ctx ec;
		size_t before = fl->nabsent;

		ec.a = a;
		ec.n = 0;
		rc = nicfit_hostlist_expand(a->o->expect, fl->lim.max_hosts, expect_one, &ec, err);
		if (rc && err && !a->err)
			snprintf(err->input, sizeof(err->input), "--expect");
		if (rc)
			return a->err ? a->err : rc;
		fl->nexpected = ec.n;
		if (fl->nabsent > before && !ignored(a, nicfit__code_name(NICFIT_CODE_HOST_MISSING))) {
			x = anom_new(a, -1, NICFIT_SEV_CRITICAL,
				     code_id(a, NICFIT_CODE_HOST_MISSING), -1, 0);
			if (!x)
				return NICFIT_E_NOMEM;
			x->attribute = "hosts";
			x->subject = nicfit__fleet_intern0(&fl->st, "fleet");
			x->majority = 1;
			for (i = before; i < fl->nabsent; i++)
				anom_host(a, x, fl->nhosts + i);
			x->message = intern_fmt(a, "expected but sent nothing (%zu of %zu expected "
					       "hosts)", fl->nabsent - before, ec.n);
		}
	}
	return a->err;
}

/* ---- analysis: the whole fleet ------------------------------------------------------------ */

struct anom_order {
	enum nicfit_severity sev;
	int group;
	const char *code, *subject;
	size_t idx;
};

static int anom_order_cmp(const void *x, const void *y)
{
	const struct anom_order *a = x, *b = y;
	int c;

	if (a->sev != b->sev)
		return a->sev > b->sev ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	c = strcmp(a->code, b->code);
	if (c)
		return c;
	c = strcmp(a->subject, b->subject);
	return c ? c : (a->idx < b->idx ? -1 : a->idx > b->idx);
}

static int common_cmp(const void *x, const void *y)
{
	const struct nicfit_finding *a = x, *b = y;
	int c;

	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	c = strcmp(a->code, b->code);
	if (c)
		return c;
	return strcmp(a->device ? a->device : "", b->device ? b->device : "");
}

static int publish(struct an *a, struct grp *groups, size_t ng)
{
	struct nicfit_fleet *fl = a->fl;
	struct anom_order *ord;
	size_t i, j, n = 0, nall = fl->nhosts + fl->nabsent;

	for (i = 0; i < fl->nanoms; i++)
		n += !fl->anoms[i].dropped;
	ord = calloc(n ? n : 1, sizeof(*ord));
	fl->pub_anoms = calloc(n ? n : 1, sizeof(*fl->pub_anoms));
	fl->pub_vals = calloc(fl->navals ? fl->navals : 1, sizeof(*fl->pub_vals));
	fl->pub_hosts = calloc(nall ? nall : 1, sizeof(*fl->pub_hosts));
	fl->groups = calloc(ng ? ng : 1, sizeof(*fl->groups));
	if (!ord || !fl->pub_anoms || !fl->pub_vals || !fl->pub_hosts || !fl->groups) {
		free(ord);
		return NICFIT_E_NOMEM;
	}
	for (i = 0; i < fl->navals; i++) {
		const struct fl_value_int *v = &fl->avals[i];

		fl->pub_vals[i].value = fl_str(&fl->st, v->shown);
		fl->pub_vals[i].count = v->count;
		fl->pub_vals[i].hosts = fl->ahosts + v->host_off;
		fl->pub_vals[i].majority = v->majority;
	}
	for (i = 0, j = 0; i < fl->nanoms; i++) {
		const struct fl_anom *x = &fl->anoms[i];

		if (x->dropped)
			continue;
		ord[j].sev = x->sev;
		ord[j].group = x->group;
		ord[j].code = fl_str(&fl->st, x->code);
		ord[j].subject = x->subject ? fl_str(&fl->st, x->subject) : "";
		ord[j].idx = i;
		j++;
	}
	qsort(ord, n, sizeof(*ord), anom_order_cmp);
	/* host statuses: own findings, then every anomaly that names them */
	for (i = 0; i < fl->nhosts; i++) {
		struct nicfit_fleet_host *h = &fl->pub_hosts[i];
		const struct fl_host *fh = &fl->hosts[i];

		h->name = fl_str(&fl->st, fh->name);
		h->audited = 1;
		h->reported = fh->reported ? fl_str(&fl->st, fh->reported) : NULL;
		h->input = fl_str(&fl->st, fh->input);
		h->line = fh->line;
		h->group = fh->group;
		h->own = fh->own;
		h->status = fh->own >= NICFIT_SEV_WARNING ? fh->own : NICFIT_SEV_NONE;
	}
	for (i = 0; i < fl->nabsent; i++) {
		struct nicfit_fleet_host *h = &fl->pub_hosts[fl->nhosts + i];

		/* status from the anomalies that name it (unless --ignore'd) */
		h->name = fl_str(&fl->st, fl->absent[i]);
		h->group = -1;
		h->status = NICFIT_SEV_NONE;
	}
	for (i = 0; i < n; i++) {
		const struct fl_anom *x = &fl->anoms[ord[i].idx];
		struct nicfit_fleet_anomaly *p = &fl->pub_anoms[i];

		p->severity = x->sev;
		p->code = fl_str(&fl->st, x->code);
		p->attribute = x->attribute;
		p->group = x->group;
		p->device = x->dev ? fl_str(&fl->st, x->dev) : NULL;
		p->subject = x->subject ? fl_str(&fl->st, x->subject) : NULL;
		p->majority = x->majority;
		p->expected = x->expected ? fl_str(&fl->st, x->expected) : NULL;
		p->nhosts = x->nhosts;
		p->hosts = fl->ahosts + x->host_off;
		p->nvalues = x->nvals;
		p->values = fl->pub_vals + x->val_off;
		p->message = x->message ? fl_str(&fl->st, x->message) : "";
		for (j = 0; j < x->nhosts; j++) {
			struct nicfit_fleet_host *h = &fl->pub_hosts[p->hosts[j]];

			h->nanomalies++;
			if (x->sev >= NICFIT_SEV_WARNING && x->sev > h->status)
				h->status = x->sev;
		}
	}
	fl->nanoms_pub = n;
	free(ord);
	for (i = 0; i < ng; i++) {
		struct nicfit_fleet_group *g = &fl->groups[i];

		g->signature = fl_str(&fl->st, groups[i].sig);
		g->label = fl_str(&fl->st, groups[i].label);
		g->product = groups[i].product ? fl_str(&fl->st, groups[i].product) : NULL;
		g->nhosts = groups[i].n;
		g->hosts = fl->group_hosts + groups[i].off;
		g->ncommon = groups[i].ncommon;
		g->common = fl->commons ? fl->commons + groups[i].coff : NULL;
		if (groups[i].ncommon)
			qsort(fl->commons + groups[i].coff, groups[i].ncommon, sizeof(*fl->commons),
			      common_cmp);
		for (j = 0; j < g->nhosts; j++) {
			enum nicfit_severity st = fl->pub_hosts[g->hosts[j]].status;

			if (st == NICFIT_SEV_CRITICAL)
				g->critical++;
			else if (st == NICFIT_SEV_WARNING)
				g->warning++;
			else
				g->clean++;
		}
	}
	fl->ngroups = ng;
	return 0;
}

int nicfit_fleet_analyze(struct nicfit_fleet *fl, const struct nicfit_fleet_opts *o,
			 struct nicfit_error *err)
{
	struct an a;
	struct sig_ent *se = NULL;
	struct grp *groups = NULL;
	size_t i, j, ng = 0, capg = 0;
	int rc = 0;

	if (fl->in.open)
		return nicfit_error_set(err, NICFIT_E_USAGE, "fleet: analyse after the input ends");
	results_free(fl);
	if (!fl->nhosts)
		return nicfit_error_set(err, NICFIT_E_DATA, "no audit document could be read%s",
					fl->problems_total ? " (see the problems above)" : "");
	memset(&a, 0, sizeof(a));
	a.fl = fl;
	a.o = o;
	a.first = calloc(fl->nkeys, sizeof(*a.first));
	a.cnt = calloc(fl->nkeys, sizeof(*a.cnt));
	a.last = calloc(fl->nkeys, sizeof(*a.last));
	a.last2 = calloc(fl->nkeys, sizeof(*a.last2));
	a.flags = calloc(fl->nkeys, 1);
	a.touched = calloc(fl->nkeys ? fl->nkeys : 1, sizeof(*a.touched));
	a.mark = calloc(fl->nhosts + 1, 1);
	se = calloc(fl->nhosts, sizeof(*se));
	fl->group_hosts = calloc(fl->nhosts, sizeof(*fl->group_hosts));
	if ((fl->nkeys && (!a.first || !a.cnt || !a.last || !a.last2 || !a.flags)) ||
	    !a.touched || !a.mark || !se || !fl->group_hosts) {
		rc = NICFIT_E_NOMEM;
		goto out;
	}
	/* groups: hosts with the same signature, in input order within each */
	for (i = 0; i < fl->nhosts; i++) {
		se[i].sig = fl->hosts[i].sig;
		se[i].host = i;
	}
	qsort(se, fl->nhosts, sizeof(*se), sig_ent_cmp);
	for (i = 0; i < fl->nhosts; i = j) {
		struct grp g;

		for (j = i; j < fl->nhosts && se[j].sig == se[i].sig; j++)
			fl->group_hosts[j] = se[j].host;
		memset(&g, 0, sizeof(g));
		g.off = i;
		g.n = j - i;
		group_names(&a, &g);
		if (a.err || NICFIT_ALLOC_GROW(groups, ng + 1, capg)) {
			rc = NICFIT_E_NOMEM;
			goto out;
		}
		groups[ng++] = g;
	}
	qsort(groups, ng, sizeof(*groups), grp_cmp);
	for (i = 0; i < ng; i++) {
		for (j = 0; j < groups[i].n; j++)
			fl->hosts[fl->group_hosts[groups[i].off + j]].group = (int)i;
		/* labels shared by groups that differ only in slots: number the layouts */
		for (j = 0; j < i; j++)
			if (groups[j].label == groups[i].label) {
				groups[i].label = intern_fmt(&a, "%s (layout %zu)", groups[i].label_s,
							     i + 1);
				break;
			}
	}
	for (i = 0; i < ng && !a.err; i++) {
		groups[i].coff = fl->ncommons;
		analyze_group(&a, (int)i, fl->group_hosts + groups[i].off, groups[i].n);
		groups[i].ncommon = fl->ncommons - groups[i].coff;
	}
	if (!a.err)
		compare_families(&a, groups, ng);
	if (!a.err) {
		rc = absent_hosts(&a, err);
		if (rc)
			goto out;
	}
	if (a.err) {
		rc = a.err;
		goto out;
	}
	rc = publish(&a, groups, ng);
	if (!rc)
		fl->analyzed = 1;
out:
	if (rc == NICFIT_E_NOMEM)
		nicfit_error_set(err, rc, "out of memory");
	free(a.first);
	free(a.cnt);
	free(a.last);
	free(a.last2);
	free(a.flags);
	free(a.touched);
	free(a.mark);
	free(a.g);
	free(a.vh);
	free(a.t);
	free(se);
	free(groups);
	return rc;
}

/* ---- results ------------------------------------------------------------------------------- */

size_t nicfit_fleet_nabsent(const struct nicfit_fleet *fl)
{
	return fl->analyzed ? fl->nabsent : 0;
}

size_t nicfit_fleet_ngroups(const struct nicfit_fleet *fl)
{
	return fl->analyzed ? fl->ngroups : 0;
}

const struct nicfit_fleet_group *nicfit_fleet_group(const struct nicfit_fleet *fl, size_t i)
{
	return fl->analyzed && i < fl->ngroups ? &fl->groups[i] : NULL;
}

size_t nicfit_fleet_nanomalies(const struct nicfit_fleet *fl)
{
	return fl->analyzed ? fl->nanoms_pub : 0;
}

const struct nicfit_fleet_anomaly *nicfit_fleet_anomaly(const struct nicfit_fleet *fl, size_t i)
{
	return fl->analyzed && i < fl->nanoms_pub ? &fl->pub_anoms[i] : NULL;
}

const struct nicfit_fleet_host *nicfit_fleet_host(const struct nicfit_fleet *fl, size_t i)
{
	return fl->analyzed && i < fl->nhosts + fl->nabsent ? &fl->pub_hosts[i] : NULL;
}

const char *nicfit_fleet_host_name(const struct nicfit_fleet *fl, size_t i)
{
	const struct nicfit_fleet_host *h = nicfit_fleet_host(fl, i);

	return h ? h->name : NULL;
}

int nicfit_fleet_exit_status(const struct nicfit_fleet *fl)
{
	size_t i;
	enum nicfit_severity worst = NICFIT_SEV_NONE;

	if (!fl->analyzed)
		return 0;
	for (i = 0; i < fl->nhosts + fl->nabsent; i++)
		if (fl->pub_hosts[i].status > worst)
			worst = fl->pub_hosts[i].status;
	for (i = 0; i < fl->nanoms_pub; i++)
		if (fl->pub_anoms[i].severity > worst)
			worst = fl->pub_anoms[i].severity;
	return worst == NICFIT_SEV_CRITICAL ? 2 : worst == NICFIT_SEV_WARNING ? 1 : 0;
}
