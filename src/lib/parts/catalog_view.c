/*
 * catalog_view.c - the kinds of entry and the typed views of a catalog:
 * each kind's names, the compiled views made on first use, and reading
 * the views by index (count, entry, ids). It loads, checks and looks up
 * nothing (catalog.c, catalog_check.c, catalog_find.c do, through it), so
 * the checks can read a catalog that is being loaded without calling back
 * into the loader.
 */
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "parts/catalog_int.h"
#include "parts/embedded_int.h"
#include "nicfit/catalog.h"

/* ---- kinds --------------------------------------------------------------- */

static const char *const kind_names[NICFIT_KIND_COUNT] = {
	"nic", "cable", "switch", "server", "gpu", "model"
};
const char *const nicfit__catalog_kind_plurals[NICFIT_KIND_COUNT + 1] = {
	"nics", "cables", "switches", "servers", "gpus", "models", NULL
};

const char *nicfit_kind_name(enum nicfit_kind k)
{
	return (unsigned)k < NICFIT_KIND_COUNT ? kind_names[k] : "?";
}

const char *nicfit_kind_plural(enum nicfit_kind k)
{
	return (unsigned)k < NICFIT_KIND_COUNT ? nicfit__catalog_kind_plurals[k] : "?";
}

int nicfit_kind_parse(const char *s, enum nicfit_kind *out, struct nicfit_error *err)
{
	int k;

	for (k = 0; k < NICFIT_KIND_COUNT; k++)
		if (!strcasecmp(s, kind_names[k]) || !strcasecmp(s, nicfit__catalog_kind_plurals[k])) {
			*out = (enum nicfit_kind)k;
			return 0;
		}
	return nicfit_error_set(err, NICFIT_E_USAGE,
				"unknown kind '%.32s' (use nics, cables, switches, servers, gpus or models)",
				s);
}

/* ---- the typed views ---------------------------------------------------- */

const size_t nicfit__catalog_view_size[NICFIT_KIND_COUNT] = {
	sizeof(struct nicfit_nic), sizeof(struct nicfit_cable), sizeof(struct nicfit_switch),
	sizeof(struct nicfit_server), sizeof(struct nicfit_gpu), sizeof(struct nicfit_model)
};
#define view_size nicfit__catalog_view_size

/*
 * Make compiled kind k in its place: the views without strings copied in,
 * each string pointer stored from the pool, the ids taken from the views.
 * Runs once a process for each kind something uses (pthread_once: serve's
 * threads share the compiled kinds).
 */
static void make_kind(int k)
{
	const struct nicfit__compiled_kind *c = &nicfit__catalog_compiled[k];
	char *views = c->views;
	size_t i;

	if (!c->n)
		return;
	memcpy(views, c->init, c->n * view_size[k]);
	for (i = 0; i < c->nstrs; i++) {
		const char *s = nicfit__catalog_pool + c->strs[i].str;

		memcpy(views + c->strs[i].at, &s, sizeof(s));
	}
	for (i = 0; i < c->n; i++)
		c->ids[i] = ((const struct nicfit_entry *)(const void *)(views + i * view_size[k]))->id;
}

#define MAKER(k) static void make_##k(void) { make_kind(k); }
MAKER(0)
MAKER(1)
MAKER(2)
MAKER(3)
MAKER(4)
MAKER(5)
#undef MAKER
_Static_assert(NICFIT_KIND_COUNT == 6, "one maker a kind");
static void (*const makers[NICFIT_KIND_COUNT])(void) = {
	make_0, make_1, make_2, make_3, make_4, make_5
};
static pthread_once_t made[NICFIT_KIND_COUNT] = {
	PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
	PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT
};

static inline void ready(const struct nicfit_catalog *cat, int k)
{
	if (cat->k[k].compiled)
		pthread_once(&made[k], makers[k]);
}

const char *const *nicfit__catalog_ids(const struct nicfit_catalog *cat, enum nicfit_kind k)
{
	ready(cat, k);
	return cat->k[k].ids;
}

size_t nicfit_catalog_count(const struct nicfit_catalog *cat, enum nicfit_kind k)
{
	return (unsigned)k < NICFIT_KIND_COUNT ? cat->k[k].n : 0;
}

const struct nicfit_entry *nicfit_catalog_entry(const struct nicfit_catalog *cat,
						enum nicfit_kind k, size_t i)
{
	if ((unsigned)k >= NICFIT_KIND_COUNT || i >= cat->k[k].n)
		return NULL;
	ready(cat, k);
	return (const struct nicfit_entry *)(const void *)((const char *)cat->k[k].views +
							   i * view_size[k]);
}
