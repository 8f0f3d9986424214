/*
 * accept_isolate.c - where a rail's failing pairs put the fault.
 *
 * Each rail is judged on its own (a node's rails are separate cables,
 * ports and switches). A node that fails in two or more of its pairs on
 * the rail, most of them, is the fault: its port, its cable or its
 * GPUDirect path; the round whose pairs reach two failures names it (in a
 * ring both neighbours' pairs fail, round 1; a fault that shows in one
 * ring pair and the bisection pair, round 2). A failing pair whose two
 * nodes each pass with another node is the route between them (a leaf or
 * spine port on it). A failing pair whose nodes have no passing pair
 * besides is either end or the route: nothing run tells them apart, and
 * the report says so instead of guessing.
 */
#include <stdlib.h>
#include <string.h>

#include "accept/accept_int.h"

struct tally {
	int pairs, failed, failed1, passed;
};

static int is_rail_write(const struct nicfit_accept *a, const struct nicfit_accept_step *s, int r)
{
	return a->stages[s->stage].kind == NICFIT_ACCEPT_RAIL_WRITE && s->rail == r &&
	       s->a >= 0 && s->b >= 0;
}

static int bad(const struct nicfit_accept_step *s)
{
	return s->status == NICFIT_ACCEPT_LOW || s->status == NICFIT_ACCEPT_BROKEN;
}

static void count(struct tally *t, const struct nicfit_accept_step *s)
{
	t->pairs++;
	t->failed += bad(s);
	t->failed1 += bad(s) && s->round == 1;
	t->passed += s->status == NICFIT_ACCEPT_PASS;
}

static int host_fault(const struct tally *t)
{
	return t->failed >= 2 && 2 * t->failed > t->pairs;
}

static int add(struct nicfit_accept *a, size_t *alloc, const struct nicfit_accept_isolated *x)
{
	if (a->nisolated == *alloc) {
		size_t n = *alloc ? 2 * *alloc : 8;
		struct nicfit_accept_isolated *p = realloc(a->isolated, n * sizeof(*p));

		if (!p)
			return NICFIT_E_NOMEM;
		a->isolated = p;
		*alloc = n;
	}
	a->isolated[a->nisolated++] = *x;
	return 0;
}

static int rail(struct nicfit_accept *a, int r, struct tally *t, size_t *alloc)
{
	struct nicfit_accept_isolated x;
	int h, rounds = 1, rc = 0;
	size_t i;

	memset(t, 0, (size_t)a->sys.nodes * sizeof(*t));
	for (i = 0; i < a->nsteps; i++) {
		const struct nicfit_accept_step *s = &a->steps[i];

		if (!is_rail_write(a, s, r) || s->status == NICFIT_ACCEPT_NOT_JUDGED)
			continue;
		count(&t[s->a], s);
		count(&t[s->b], s);
		if (s->round > rounds)
			rounds = s->round;
	}
	for (h = 0; h < a->sys.nodes && !rc; h++)
		if (host_fault(&t[h])) {
			memset(&x, 0, sizeof(x));
			x.rail = r;
			x.fault = NICFIT_ACCEPT_FAULT_HOST;
			x.host = h;
			x.a = x.b = -1;
			x.failed = t[h].failed;
			x.pairs = t[h].pairs;
			x.round = t[h].failed1 >= 2 ? 1 : rounds;
			rc = add(a, alloc, &x);
		}
	for (i = 0; i < a->nsteps && !rc; i++) {
		const struct nicfit_accept_step *s = &a->steps[i];

		if (!is_rail_write(a, s, r) || !bad(s) || host_fault(&t[s->a]) ||
		    host_fault(&t[s->b]))
			continue;
		memset(&x, 0, sizeof(x));
		x.rail = r;
		x.host = -1;
		x.a = s->a;
		x.b = s->b;
		x.failed = 1;
		x.pairs = 1;
		if (t[s->a].passed && t[s->b].passed) {
			x.fault = NICFIT_ACCEPT_FAULT_ROUTE;
			x.round = rounds;
		} else {
			x.fault = NICFIT_ACCEPT_FAULT_EITHER;
		}
		rc = add(a, alloc, &x);
	}
	return rc;
}

int nicfit__accept_isolate(struct nicfit_accept *a)
{
	struct tally *t;
	size_t alloc = 0;
	int r, rc = 0;

	free(a->isolated);
	a->isolated = NULL;
	a->nisolated = 0;
	if (a->sys.nodes < 2 || a->sys.rails < 1)
		return 0;
	t = calloc((size_t)a->sys.nodes, sizeof(*t));
	if (!t)
		return NICFIT_E_NOMEM;
	for (r = 0; r < a->sys.rails && !rc; r++)
		rc = rail(a, r, t, &alloc);
	free(t);
	return rc;
}
