/*
 * catalog_find.c - looking entries up: by index, by id or part number
 * (with a suggestion when there is none), by PCI ID (see
 * nicfit/catalog.h). One entry as JSON is in catalog.c, with the JSON.
 *
 * Look-ups bisect the typed views, which catalog.c keeps sorted by id
 * (the compiled ones are sorted by the generator). Ids are lowercase
 * (catalog_check.c refuses others), so a look-up that ignores case
 * lowercases the word once and compares exactly. Part numbers are few
 * and not sorted: they are walked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/jansson_int.h"

#include "parts/catalog_int.h"
#include "nicfit/catalog.h"
#include "nicfit/spec.h"

#define ACCESSOR(fn, type, kind) \
	const struct type *fn(const struct nicfit_catalog *cat, size_t i) \
	{ \
		return (const struct type *)(const void *)nicfit_catalog_entry(cat, kind, i); \
	}

ACCESSOR(nicfit_catalog_nic, nicfit_nic, NICFIT_KIND_NIC)
ACCESSOR(nicfit_catalog_cable, nicfit_cable, NICFIT_KIND_CABLE)
ACCESSOR(nicfit_catalog_switch, nicfit_switch, NICFIT_KIND_SWITCH)
ACCESSOR(nicfit_catalog_server, nicfit_server, NICFIT_KIND_SERVER)
ACCESSOR(nicfit_catalog_gpu, nicfit_gpu, NICFIT_KIND_GPU)
ACCESSOR(nicfit_catalog_model, nicfit_model, NICFIT_KIND_MODEL)

const struct nicfit_entry *nicfit__catalog_find_exact(const struct nicfit_catalog *cat,
						      enum nicfit_kind k, const char *id)
{
	size_t lo = 0, hi = cat->k[k].n;
	/* the ids in the views' order: the bisection reads no view but the one found */
	const char *const *ids = hi ? nicfit__catalog_ids(cat, k) : NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(id, ids[mid]);

		if (!c)
			return nicfit_catalog_entry(cat, k, mid);
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Ids are at most 63 characters (catalog_check.c): a longer word is none. */
#define ID_MAX 63

int nicfit__catalog_has(const struct nicfit_catalog *cat, enum nicfit_kind k, const char *id)
{
	return cat && nicfit__catalog_find_exact(cat, k, id) != NULL;
}

const struct nicfit_entry *nicfit__catalog_find(const struct nicfit_catalog *cat,
					       enum nicfit_kind k, const char *id)
{
	char low[ID_MAX + 1];
	size_t i, n = strlen(id);

	if (n <= ID_MAX) {
		const struct nicfit_entry *e;

		for (i = 0; i <= n; i++)
			low[i] = id[i] >= 'A' && id[i] <= 'Z' ? (char)(id[i] - 'A' + 'a') : id[i];
		e = nicfit__catalog_find_exact(cat, k, low);
		if (e)
			return e;
	}
	if (k == NICFIT_KIND_NIC || k == NICFIT_KIND_CABLE) {
		for (i = 0; i < cat->k[k].n; i++) {
			const struct nicfit_entry *e = nicfit_catalog_entry(cat, k, i);
			const char *part = k == NICFIT_KIND_NIC ?
				((const struct nicfit_nic *)(const void *)e)->part :
				((const struct nicfit_cable *)(const void *)e)->part;

			if (part && !strcasecmp(part, id))
				return e;
		}
	}
	return NULL;
}

static const struct nicfit_entry *find_or_fail(const struct nicfit_catalog *cat,
					       enum nicfit_kind k, const char *id,
					       const char *what, struct nicfit_error *err)
{
	const struct nicfit_entry *e = nicfit__catalog_find(cat, k, id);
	const char *near;

	if (e)
		return e;
	near = nicfit_suggest(id, nicfit__catalog_ids(cat, k));
	if (near)
		nicfit_error_at(err, NICFIT_E_NOTFOUND, what, 0, 0,
				"unknown %s '%.64s' (did you mean '%s'?)", nicfit_kind_name(k), id, near);
	else
		nicfit_error_at(err, NICFIT_E_NOTFOUND, what, 0, 0,
				"unknown %s '%.64s' (see 'nicfit catalog list %s')",
				nicfit_kind_name(k), id, nicfit_kind_plural(k));
	return NULL;
}

#define FINDER(fn, type, kind) \
	const struct type *fn(const struct nicfit_catalog *cat, const char *id, \
			      const char *what, struct nicfit_error *err) \
	{ \
		return (const struct type *)(const void *)find_or_fail(cat, kind, id, what, err); \
	}

FINDER(nicfit_catalog_find_nic, nicfit_nic, NICFIT_KIND_NIC)
FINDER(nicfit_catalog_find_cable, nicfit_cable, NICFIT_KIND_CABLE)
FINDER(nicfit_catalog_find_switch, nicfit_switch, NICFIT_KIND_SWITCH)
FINDER(nicfit_catalog_find_server, nicfit_server, NICFIT_KIND_SERVER)
FINDER(nicfit_catalog_find_gpu, nicfit_gpu, NICFIT_KIND_GPU)
FINDER(nicfit_catalog_find_model, nicfit_model, NICFIT_KIND_MODEL)

const struct nicfit_entry *nicfit_catalog_lookup(const struct nicfit_catalog *cat,
						 const char *id, enum nicfit_kind *kind)
{
	int k;

	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		const struct nicfit_entry *e = nicfit__catalog_find(cat, (enum nicfit_kind)k, id);

		if (e) {
			if (kind)
				*kind = (enum nicfit_kind)k;
			return e;
		}
	}
	return NULL;
}

const struct nicfit_nic *nicfit_catalog_find_nic_pci(const struct nicfit_catalog *cat,
						     unsigned vendor, unsigned device,
						     unsigned subvendor, unsigned subdevice)
{
	const struct nicfit_nic *any = NULL;
	size_t i;
	int s;

	for (i = 0; i < cat->k[NICFIT_KIND_NIC].n; i++) {
		const struct nicfit_nic *n = nicfit_catalog_nic(cat, i);

		if (n->pci_vendor != vendor || n->pci_device != device)
			continue;
		for (s = 0; s < n->nsubsys; s++)
			if (n->subsys[s][0] == subvendor && n->subsys[s][1] == subdevice)
				return n;
		if (!any)
			any = n;
	}
	(void)any; /* a device ID alone names a chip, not a card */
	return NULL;
}

const struct nicfit_nic *nicfit_catalog_find_nic_psid(const struct nicfit_catalog *cat,
						      const char *psid)
{
	size_t i;
	int k;

	if (!psid || !psid[0])
		return NULL;
	for (i = 0; i < cat->k[NICFIT_KIND_NIC].n; i++) {
		const struct nicfit_nic *n = nicfit_catalog_nic(cat, i);

		for (k = 0; k < n->npsids; k++)
			if (!strcmp(n->psids[k], psid))
				return n;
	}
	return NULL;
}

int nicfit_entry_unverified(const struct nicfit_entry *e, const char *field)
{
	int i;

	for (i = 0; i < e->nunverified; i++)
		if (!strcmp(e->unverified[i], field))
			return 1;
	return 0;
}

const char *nicfit_cable_type_name(enum nicfit_cable_type t)
{
	switch (t) {
	case NICFIT_CABLE_DAC: return "dac";
	case NICFIT_CABLE_AOC: return "aoc";
	case NICFIT_CABLE_OPTIC: return "optic";
	case NICFIT_CABLE_BREAKOUT_DAC: return "breakout-dac";
	case NICFIT_CABLE_BREAKOUT_AOC: return "breakout-aoc";
	case NICFIT_CABLE_RJ45: return "rj45";
	}
	return "?";
}

double nicfit_nic_port_gbps(const struct nicfit_nic *n, int ports)
{
	double best = 0;
	int i;

	if (!n->nport_modes)
		return ports <= n->ports ? n->port_gbps : 0;
	for (i = 0; i < n->nport_modes; i++)
		if ((int)n->port_modes[i][0] >= ports && n->port_modes[i][1] > best)
			best = n->port_modes[i][1];
	return best;
}

/* ---- cables by the cages they join ---------------------------------------- */

/* A cable's ends, the lesser (strcmp) first. */
static void ends_of(const char *a, const char *b, const char **lo, const char **hi)
{
	int c = strcmp(a, b);

	*lo = c <= 0 ? a : b;
	*hi = c <= 0 ? b : a;
}

static int ends_cmp(const void *x, const void *y)
{
	const struct nicfit_cable *a = *(const struct nicfit_cable *const *)x;
	const struct nicfit_cable *b = *(const struct nicfit_cable *const *)y;
	const char *alo, *ahi, *blo, *bhi;
	int c;

	ends_of(a->end_a, a->end_b, &alo, &ahi);
	ends_of(b->end_a, b->end_b, &blo, &bhi);
	if ((c = strcmp(alo, blo)) || (c = strcmp(ahi, bhi)))
		return c;
	/* one array: the address is the catalog's order */
	return (a > b) - (a < b);
}

/* The index of cat's cables by their ends; NULL when memory ran out. */
static struct nicfit__cable_ends *make_cable_ends(const struct nicfit_catalog *cat)
{
	size_t i, count = nicfit_catalog_count(cat, NICFIT_KIND_CABLE);
	struct nicfit__cable_ends *x = calloc(1, sizeof(*x));

	if (!x || !(x->v = malloc((count ? count : 1) * sizeof(*x->v))) ||
	    !(x->pair = malloc((count ? count : 1) * sizeof(*x->pair)))) {
		if (x)
			free(x->v);
		free(x);
		return NULL;
	}
	for (i = 0; i < count; i++) {
		const struct nicfit_cable *c = nicfit_catalog_cable(cat, i);

		if (c->type != NICFIT_CABLE_OPTIC && c->end_a && c->end_b)
			x->v[x->n++] = c;
	}
	qsort(x->v, x->n, sizeof(*x->v), ends_cmp);
	for (i = 0; i < x->n; i++) {
		struct nicfit__cable_pair *p = x->npairs ? &x->pair[x->npairs - 1] : NULL;
		const char *lo, *hi;

		ends_of(x->v[i]->end_a, x->v[i]->end_b, &lo, &hi);
		if (p && !strcmp(p->lo, lo) && !strcmp(p->hi, hi)) {
			p->n++;
			continue;
		}
		p = &x->pair[x->npairs++];
		p->lo = lo;
		p->hi = hi;
		p->at = i;
		p->n = 1;
	}
	return x;
}

int nicfit_catalog_cables_between(const struct nicfit_catalog *cat, const char *a,
				  const char *b, const struct nicfit_cable *const **out, size_t *n)
{
	struct nicfit_catalog *c = (struct nicfit_catalog *)(uintptr_t)cat;
	struct nicfit__cable_ends *x = atomic_load_explicit(&c->cable_ends, memory_order_acquire);
	const char *lo, *hi;
	size_t l, h;

	*out = NULL;
	*n = 0;
	if (!x) {
		/* the lock only to make it: serve's threads share the catalog */
		pthread_mutex_lock(&c->lazy);
		x = atomic_load_explicit(&c->cable_ends, memory_order_relaxed);
		if (!x && (x = make_cable_ends(cat)))
			atomic_store_explicit(&c->cable_ends, x, memory_order_release);
		pthread_mutex_unlock(&c->lazy);
		if (!x)
			return -1;
	}
	ends_of(a, b, &lo, &hi);
	/* the pair bisected: a score of pairs, each cable's ends compared once when made */
	for (l = 0, h = x->npairs; l < h;) {
		size_t m = l + (h - l) / 2;
		int d = strcmp(x->pair[m].lo, lo);

		if (!d)
			d = strcmp(x->pair[m].hi, hi);
		if (!d) {
			*out = x->v + x->pair[m].at;
			*n = x->pair[m].n;
			break;
		}
		if (d < 0)
			l = m + 1;
		else
			h = m;
	}
	return 0;
}

void nicfit__catalog_cable_ends_drop(struct nicfit_catalog *cat)
{
	struct nicfit__cable_ends *x = atomic_exchange(&cat->cable_ends, NULL);

	if (x) {
		free(x->v);
		free(x->pair);
		free(x);
	}
}
