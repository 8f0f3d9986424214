/*
 * plan_riser.c - R6, the riser configuration: a server whose slot map
 * depends on the risers ordered with it (Dell's R740xd configuration 4
 * for double-width GPUs or 6 for single-width ones; an R750xa's GPU
 * risers) holds each configuration in the catalog, and the plan picks
 * the one that holds the GPUs asked for, or says that none does and
 * which holds the most. The rest of the plan sees only the slots of the
 * configuration picked (p->riser_view).
 */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "plan/plan_int.h"

/* Is slot s there in riser configuration k? */
static int in_config(const struct nicfit_slot *s, int k)
{
	return !s->configs || (s->configs & (1u << k));
}

/*
 * The GPUs of kind g that configuration k of sv holds: its slots that take
 * one (a double-width GPU needs a double-width slot), at most the vendor's
 * maximum for the configuration when it gives one.
 */
static int config_room(const struct nicfit_server *sv, int k, const struct nicfit_gpu *g)
{
	const struct nicfit_riser_config *r = &sv->risers[k];
	int i, n = 0, cap;

	for (i = 0; i < sv->nslots; i++) {
		const struct nicfit_slot *s = &sv->slots[i];

		if (in_config(s, k) && (s->gpu == NICFIT_GPU_DOUBLE ||
					(s->gpu == NICFIT_GPU_SINGLE && !g->double_width)))
			n++;
	}
	cap = g->double_width ? r->max_gpus_double : r->max_gpus_single;
	return cap > 0 && cap < n ? cap : n;
}

/* Does configuration k have a slot named like slot `pin - 1` of sv (0: no pin)? */
static int has_pin(const struct nicfit_server *sv, int k, int pin)
{
	int i;

	if (pin <= 0)
		return 1;
	for (i = 0; i < sv->nslots; i++)
		if (in_config(&sv->slots[i], k) &&
		    !strcasecmp(sv->slots[i].name, sv->slots[pin - 1].name))
			return 1;
	return 0;
}

/* A pin by slot index of sv as an index of the view (by name), 0 when gone. */
static int remap_pin(const struct nicfit_server *sv, const struct nicfit_server *view, int pin)
{
	int i;

	for (i = 0; pin > 0 && i < view->nslots; i++)
		if (!strcasecmp(view->slots[i].name, sv->slots[pin - 1].name))
			return i + 1;
	return 0;
}

/*
 * out: sv with only the slots of configuration k, and its GPU maxima.
 * The slot map is copied slot by slot, not whole and then again: its
 * rows past nslots are never read.
 */
static void make_view(const struct nicfit_server *sv, int k, struct nicfit_server *out)
{
	int i;

	memcpy(out, sv, offsetof(struct nicfit_server, slots));
	memcpy(&out->nslots, &sv->nslots,
	       sizeof(*sv) - offsetof(struct nicfit_server, nslots));
	out->nslots = 0;
	for (i = 0; i < sv->nslots; i++)
		if (in_config(&sv->slots[i], k))
			out->slots[out->nslots++] = sv->slots[i];
	if (sv->risers[k].max_gpus_double || sv->risers[k].max_gpus_single) {
		out->max_gpus_double = sv->risers[k].max_gpus_double;
		out->max_gpus_single = sv->risers[k].max_gpus_single;
	}
}

/*
 * The configuration to plan with: the one asked for; else, with GPUs, the
 * first (in the catalog's order) that holds them and the slots pinned,
 * or the one that holds the most; else the first, the vendor's default.
 */
static int pick(const struct nicfit_plan *p, const struct nicfit_server *sv, int *fits)
{
	const struct nicfit_plan_input *in = &p->in;
	int k, best = 0, room, best_room = -1;

	*fits = 1;
	for (k = 0; in->riser_config && k < sv->nrisers; k++)
		if (!strcasecmp(sv->risers[k].id, in->riser_config))
			return k;
	if (!in->gpu || in->gpus_per_server < 1)
		return 0;
	for (k = 0; k < sv->nrisers; k++) {
		if (!has_pin(sv, k, in->backend_slot_pin) || !has_pin(sv, k, in->frontend_slot_pin))
			continue;
		room = config_room(sv, k, in->gpu);
		if (room >= in->gpus_per_server)
			return k;
		if (room > best_room) {
			best_room = room;
			best = k;
		}
	}
	*fits = 0;
	return best;
}

/* The other configurations and the GPUs each holds, for the decision's text. */
static void others(const struct nicfit_server *sv, int k, const struct nicfit_gpu *g,
		   char *b, size_t n)
{
	size_t len = 0;
	int j;

	b[0] = '\0';
	for (j = 0; j < sv->nrisers && len + 1 < n; j++) {
		if (j == k)
			continue;
		if (g)
			len += (size_t)plan_fmt(b + len, n - len, "%s%s holds %d", len ? "; " : "",
					sv->risers[j].name, config_room(sv, j, g));
		else
			len += (size_t)plan_fmt(b + len, n - len, "%s%s", len ? "; " : "", sv->risers[j].name);
	}
}

void nicfit__plan_riser(struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	int k;

	if (!sv || sv->nrisers < 1)
		return;
	k = pick(p, sv, &p->riser_fits);
	make_view(sv, k, &p->riser_view);
	p->riser = &sv->risers[k];
	p->riser_of = sv;
	p->in.backend_slot_pin = remap_pin(sv, &p->riser_view, p->in.backend_slot_pin);
	p->in.frontend_slot_pin = remap_pin(sv, &p->riser_view, p->in.frontend_slot_pin);
	p->in.server = &p->riser_view;
}

void nicfit__plan_riser_decide(struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->riser_of;
	const struct nicfit_gpu *g = p->in.gpu;
	char rest[400];
	int k, fits = p->riser_fits, room;

	if (!sv || !p->riser)
		return;
	k = (int)(p->riser - sv->risers);
	others(sv, k, g, rest, sizeof(rest));
	room = g ? config_room(sv, k, g) : 0;
	if (p->in.riser_config && g)
		plan_decide(&p->decisions, "R6", 1,
			    "Risers: %s, as asked (--riser-config %s): %d %s-width GPU slot%s. The "
			    "others: %s.", sv->risers[k].name, sv->risers[k].id, room,
			    g->double_width ? "double" : "single", room == 1 ? "" : "s",
			    rest[0] ? rest : "none");
	else if (p->in.riser_config)
		plan_decide(&p->decisions, "R6", 1, "Risers: %s, as asked (--riser-config %s). The "
			    "others: %s.", sv->risers[k].name, sv->risers[k].id, rest[0] ? rest : "none");
	else if (!g || p->in.gpus_per_server < 1)
		plan_decide(&p->decisions, "R6", 1,
			    "Risers: %s, the first the catalog lists (no GPUs asked for to choose "
			    "by; --riser-config picks another). The others: %s.", sv->risers[k].name,
			    rest[0] ? rest : "none");
	else if (fits)
		plan_decide(&p->decisions, "R6", 1,
			    "Risers: %s holds the %d %s GPU%s asked for (%d %s-width GPU slot%s): "
			    "order the server with it. The others: %s.", sv->risers[k].name,
			    p->in.gpus_per_server, g->e.name, p->in.gpus_per_server == 1 ? "" : "s",
			    room, g->double_width ? "double" : "single", room == 1 ? "" : "s",
			    rest[0] ? rest : "none");
	else
		plan_decide(&p->decisions, "R6", 1,
			    "Risers: none of the server's riser configurations holds %d %s GPUs; %s "
			    "holds the most (%d), planned with it. The others: %s.",
			    p->in.gpus_per_server, g->e.name, sv->risers[k].name, room,
			    rest[0] ? rest : "none");
}
