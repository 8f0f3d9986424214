/*
 * fleet_strtab.c - the fleet's interned strings.
 *
 * A fleet of 100,000 hosts repeats the same few thousand strings (BDFs,
 * model names, versions, state words) millions of times. Each is stored
 * once, in arena chunks that never move, and named by a 32-bit id: hosts
 * keep ids, comparing two values is comparing two integers, and the
 * strings live until the fleet is freed. This file knows nothing of hosts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "fleet/fleet_int.h"

#define FNV_OFF 2166136261u
#define FNV_PRIME 16777619u

uint32_t nicfit__fleet_hash(const char *s, size_t n)
{
	uint32_t h = FNV_OFF;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= FNV_PRIME;
	}
	return h;
}

void nicfit__fleet_strtab_release(struct fl_strtab *t)
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
	uint32_t h = nicfit__fleet_hash(s, len);
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
