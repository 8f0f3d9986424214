/*
 * cluster_bom.c - the cable lines sorted for people, and the bill of
 * materials: switches, the back-end NIC, then cables, optics and fibres
 * merged by part; priced from the catalog where it has a price, never
 * otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "cluster/cluster_int.h"

/* ---- cable lines ------------------------------------------------------------- */

static int type_rank(const char *t)
{
	static const char *const order[] = { "dac", "breakout-dac", "aoc", "breakout-aoc",
		"optic", "fiber", "rj45", "generic", NULL };
	int i;

	for (i = 0; order[i]; i++)
		if (!strcmp(order[i], t))
			return i;
	return i;
}

static int cable_cmp(const void *pa, const void *pb)
{
	const struct nicfit_cluster_cable *a = pa, *b = pb;
	int d;

	if (a->net != b->net)
		return (int)a->net - (int)b->net;
	if (a->level != b->level)
		return (int)a->level - (int)b->level;
	d = type_rank(a->type) - type_rank(b->type);
	if (d)
		return d;
	if (a->length_m != b->length_m)
		return a->length_m < b->length_m ? -1 : 1;
	return strcmp(a->part, b->part);
}

void nicfit__cluster_sort_list(struct nicfit_cluster_cable *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cable_cmp);
}

/* Sort the cable lines for people, keeping the kits pointing at their items. */
int nicfit__cluster_sort_cables(struct nicfit_cluster *c)
{
	struct nicfit_cluster_impl *im = c->impl;
	struct nicfit_cluster_cable *tmp;
	int *where;
	size_t i, k;

	if (c->ncables < 2)
		return 0;
	tmp = malloc(c->ncables * sizeof(*tmp));
	where = malloc(c->ncables * sizeof(*where));
	if (!tmp || !where) {
		free(tmp);
		free(where);
		return NICFIT_E_NOMEM;
	}
	memcpy(tmp, c->cables, c->ncables * sizeof(*tmp));
	qsort(c->cables, c->ncables, sizeof(*c->cables), cable_cmp);
	for (k = 0; k < c->ncables; k++) {
		size_t j;

		for (j = 0; j < c->ncables; j++)
			if (!cable_cmp(&tmp[k], &c->cables[j]))
				break;
		where[k] = (int)j;
	}
	for (i = 0; i < im->nkits; i++) {
		struct cl_kit *kt = &im->kits[i];

		if (im->classes[kt->cls].list != CL_LIST_MAIN)
			continue;
		kt->item_port = kt->item_port >= 0 ? where[kt->item_port] : -1;
		kt->item_leg = kt->item_leg >= 0 ? where[kt->item_leg] : -1;
		kt->item_fiber = kt->item_fiber >= 0 ? where[kt->item_fiber] : -1;
	}
	free(tmp);
	free(where);
	return 0;
}

/* ---- bill of materials ------------------------------------------------------- */

static int bom_add(struct nicfit_cluster *c, size_t *cap, const char *part, const char *desc,
		   long qty, const struct nicfit_entry *e)
{
	struct nicfit_cluster_bom_line *b;
	size_t i;

	if (qty <= 0)
		return 0;
	for (i = 0; i < c->nbom; i++)
		if (!strcmp(c->bom[i].part, part)) {
			c->bom[i].qty += qty;
			c->bom[i].total_usd = c->bom[i].priced ? c->bom[i].unit_usd * c->bom[i].qty : 0;
			return 0;
		}
	if (NICFIT_ALLOC_GROW(c->bom, c->nbom + 1, *cap))
		return NICFIT_E_NOMEM;
	b = &c->bom[c->nbom++];
	memset(b, 0, sizeof(*b));
	snprintf(b->part, sizeof(b->part), "%s", part);
	snprintf(b->description, sizeof(b->description), "%s", desc);
	b->qty = qty;
	if (e && e->priced) {
		b->priced = 1;
		b->unit_usd = e->price_usd;
		b->total_usd = e->price_usd * qty;
		b->prices_as_of = e->prices_as_of;
		b->source = e->price_source;
	}
	return 0;
}

/* Whether the back-end NIC is one the nodes' server (--server) is built with. */
static int builtin_nic(const struct nicfit_cluster *c)
{
	int i;

	if (!c->server)
		return 0;
	for (i = 0; i < c->server->nslots; i++)
		if (c->server->slots[i].role == NICFIT_SLOT_COMPUTE && c->server->slots[i].included &&
		    !strcmp(c->server->slots[i].included, c->nic->e.id))
			return 1;
	return 0;
}

int nicfit__cluster_bom(struct nicfit_cluster *c, struct nicfit_error *err)
{
	size_t cap = 0, i;
	int n, rc = 0;

	for (n = 0; n < NICFIT_NET_COUNT && !rc; n++) {
		const struct nicfit_cluster_net *nt = &c->net[n];
		long qty = 0;
		int t;

		if (!nt->enabled)
			continue;
		for (t = 0; t < NICFIT_TIER_COUNT; t++)
			qty += nt->tier[t].switches;
		if (nt->scheduled) {
			/* a scheduled fabric's spine tier is its cell switches */
			qty -= nt->tier[NICFIT_TIER_SPINE].switches;
			if (nt->tier[NICFIT_TIER_SPINE].switches)
				rc = bom_add(c, &cap, nt->fabric.id, nt->fabric.name,
					     nt->tier[NICFIT_TIER_SPINE].switches, &nt->fabric.cat->e);
			if (rc)
				break;
		}
		rc = bom_add(c, &cap, nt->sw.id, nt->sw.name, qty, nt->sw.cat ? &nt->sw.cat->e : NULL);
	}
	if (!rc && c->nic && builtin_nic(c)) {
		char desc[160];

		/* part of the server, bought with it: counted, never priced again */
		snprintf(desc, sizeof(desc), "%.120s - included with the server",
			 c->nic->e.name ? c->nic->e.name : c->nic->e.id);
		rc = bom_add(c, &cap, c->nic->e.id, desc, c->in.nodes * c->in.nics_per_node, NULL);
	} else if (!rc && c->nic) {
		rc = bom_add(c, &cap, c->nic->e.id, c->nic->e.name ? c->nic->e.name : c->nic->e.id,
			     c->in.nodes * c->in.nics_per_node, &c->nic->e);
	}
	for (i = 0; i < c->ncables && !rc; i++)
		rc = bom_add(c, &cap, c->cables[i].part, c->cables[i].description, c->cables[i].qty,
			     c->cables[i].cat ? &c->cables[i].cat->e : NULL);
	if (!rc && c->border.switches)
		rc = bom_add(c, &cap, c->net[NICFIT_NET_FRONTEND].sw.id,
			     c->net[NICFIT_NET_FRONTEND].sw.name, c->border.switches,
			     c->net[NICFIT_NET_FRONTEND].sw.cat ?
			     &c->net[NICFIT_NET_FRONTEND].sw.cat->e : NULL);
	for (i = 0; i < c->border.ncables && !rc; i++)
		rc = bom_add(c, &cap, c->border.cables[i].part, c->border.cables[i].description,
			     c->border.cables[i].qty,
			     c->border.cables[i].cat ? &c->border.cables[i].cat->e : NULL);
	if (!rc && c->storage.enabled)
		rc = bom_add(c, &cap, c->storage.sw.id, c->storage.sw.name,
			     c->storage.leaves + c->storage.spines,
			     c->storage.sw.cat ? &c->storage.sw.cat->e : NULL);
	for (i = 0; i < c->storage.ncables && !rc; i++)
		rc = bom_add(c, &cap, c->storage.cables[i].part, c->storage.cables[i].description,
			     c->storage.cables[i].qty,
			     c->storage.cables[i].cat ? &c->storage.cables[i].cat->e : NULL);
	if (rc)
		return nicfit_error_set(err, rc, "out of memory");
	c->total_usd = 0;
	c->prices_as_of[0] = '\0';
	for (i = 0; i < c->nbom; i++) {
		if (!c->bom[i].priced)
			continue;
		c->total_usd += c->bom[i].total_usd;
		if (c->bom[i].prices_as_of && strcmp(c->bom[i].prices_as_of, c->prices_as_of) > 0)
			snprintf(c->prices_as_of, sizeof(c->prices_as_of), "%s", c->bom[i].prices_as_of);
	}
	return 0;
}
