/*
 * plan_search.c - R6's search: a bounded exhaustive search over the
 * server's slots for the placement of the GPUs and the back-end cards
 * that feeds the cards best and keeps GPUs next to them (better() is the
 * order of placements). It records nothing in the plan: the placement
 * (plan_place.c) records and explains what it finds, and R5
 * (plan_backend.c) asks it for each candidate card.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/num_int.h"
#include "plan/plan_int.h"

/*
 * The search tries every set of GPU slots and, for each, every set of card
 * slots, up to this many evaluated placements. Real slot maps are far
 * below it (12 slots, 8 GPUs and 2 cards: 495 x 6 = 2,970 placements), so
 * it only bounds the time (well under a second) on absurd requests such
 * as 16 GPUs in a 32-slot map, where the best placement found so far is
 * kept.
 */
#define PLACE_SEARCH_BUDGET 2000000L
/*
 * An installed card's slot counts as this many slot positions earlier in
 * the server's order, so the card stays where it is unless another slot
 * wins on a criterion before the order (R6: "when nothing is gained").
 * Larger than any sum of slot positions.
 */
#define INSTALLED_SLOT_BONUS 1000

/*
 * R6's order of placements (docs/rules.md): the most GPUs placed (a plan
 * that drops a GPU is worse than any other), then (a Socket Direct card)
 * the most cards with their auxiliary card on another socket, then the card reaching the
 * target, then (when none reaches it) the faster card by more than
 * PLAN_SAME_RATE_GBPS, then the most GPUs with a card under their own
 * PCIe switch (PIX/PXB: NCCL's default GPUDirect RDMA reach), then the
 * most GPUs sharing a socket with a card (GPUDirect RDMA across the
 * inter-socket link loses bandwidth), then cards spread over the sockets
 * in proportion to the GPUs (four cards for GPUs on two sockets go 2 + 2,
 * not 3 + 1), then the fewest cards in slots the vendor meant for another
 * role (storage, front end), then the GPUs on the fewest sockets (their
 * peer traffic stays under one CPU), then the fewest slot lanes beyond
 * the card's, then the server's slot order (what the vendor's manual
 * fills first).
 */
static int better(const struct plan_choice *a, const struct plan_choice *b)
{
	if (!b->valid)
		return a->valid;
	if (a->ngpu_placed != b->ngpu_placed)
		return a->ngpu_placed > b->ngpu_placed;
	if (a->aux_missing != b->aux_missing)
		return a->aux_missing < b->aux_missing;
	if (a->meets != b->meets)
		return a->meets > b->meets;
	if (!a->meets && fabs(a->per_card - b->per_card) > PLAN_SAME_RATE_GBPS)
		return a->per_card > b->per_card;
	if (a->near != b->near)
		return a->near > b->near;
	if (a->local != b->local)
		return a->local > b->local;
	if (a->balance != b->balance)
		return a->balance < b->balance;
	if (a->role_miss != b->role_miss)
		return a->role_miss < b->role_miss;
	if (a->gpu_sockets != b->gpu_sockets)
		return a->gpu_sockets < b->gpu_sockets;
	if (a->waste != b->waste)
		return a->waste < b->waste;
	return a->order < b->order;
}

static int gpu_can_use(const struct nicfit_gpu *g, const struct nicfit_slot *s)
{
	if (g && g->baseboard)
		return s->gpu == NICFIT_GPU_BASEBOARD;
	if (s->gpu == NICFIT_GPU_DOUBLE)
		return 1;
	return s->gpu == NICFIT_GPU_SINGLE && g && !g->double_width;
}

struct search {
	const struct nicfit_plan *p;
	const struct nicfit_card *card;
	const struct nicfit_nic *nic; /* the card's catalog entry: its size, NULL for none */
	int ncards, ngpus;
	double need;          /* per-card effective needed to meet the target */
	const struct nicfit_nic *sd; /* a Socket Direct card: two slots per card, or NULL */
	struct nicfit_card half;     /* one of its halves, for the slot checks */
	int used[NICFIT_MAX_SLOTS];
	struct plan_choice cur, best;
	long budget;          /* evaluations left */
	/*
	 * What each slot is to this search, worked out once before it: the
	 * placements number in the thousands, the slots in the tens. fit: the
	 * card (or a Socket Direct half) goes in it; gpu: a GPU does;
	 * installed: it is the installed card's slot; eff: what the card moves
	 * there alone. A Socket Direct card's figures for a pair of slots
	 * (main, aux + 1; aux + 1 == 0 without one) are filled as they are
	 * first needed.
	 */
	unsigned char fit[NICFIT_MAX_SLOTS], gpu[NICFIT_MAX_SLOTS], installed[NICFIT_MAX_SLOTS];
	double eff[NICFIT_MAX_SLOTS];
	double (*sd_eff)[NICFIT_MAX_SLOTS + 1];
	unsigned char (*sd_known)[NICFIT_MAX_SLOTS + 1];
	/*
	 * The slot map's figures score() reads for every placement, copied
	 * out of the slots once: socket, PCIe switch, a slot meant for
	 * another role (1), the lanes beyond the card's. And, for each set of
	 * GPU slots (place_gpus() fills them before its card placements), the
	 * GPUs' sockets, how many sockets they span, their per-socket count
	 * and the sum of their slot positions.
	 */
	int sock[NICFIT_MAX_SLOTS], sw[NICFIT_MAX_SLOTS];
	/*
	 * Slot to slot: the slots' classes (those alike in socket and PCIe
	 * switch) and the path between each two classes.
	 */
	unsigned char pcls[NICFIT_MAX_SLOTS];
	unsigned char cpath[NICFIT_MAX_SLOTS][NICFIT_MAX_SLOTS];
	unsigned char miss[NICFIT_MAX_SLOTS];
	int waste[NICFIT_MAX_SLOTS];
	int gsock[NICFIT_PLAN_MAX_GPUS], gpu_sockets, gpu_order;
	int gcount[32];
	/*
	 * Twins, to search far fewer placements for the same winner (the
	 * first of the best, as trying every one finds it). ntwin[i]: the
	 * last slot before i that is the same as i to a card in every figure
	 * score() reads (-1: none). With the GPUs placed, a card in slot i
	 * while its twin is free scores lower than in the twin (the same in
	 * all but the slot order), so a card takes a slot only once its twin
	 * is taken. gtwin[i]: the same, also alike to a GPU: a GPU in i with
	 * its twin free scores lower than in the twin, or (a card in the twin)
	 * ties with the placement the other way round, which comes first; so,
	 * while gcut is set, a GPU takes a slot only after its twin holds a
	 * GPU, and only placements of all the GPUs count (search() runs again
	 * without gcut when none exists, for the best that places fewer).
	 * Not for a Socket Direct card (its pairs of slots are searched whole).
	 */
	int ntwin[NICFIT_MAX_SLOTS], gtwin[NICFIT_MAX_SLOTS];
	int gcut;
};

/* nicfit__plan_path(), found once per two classes of slot (S->cpath). */
static inline enum nicfit_path path_of(const struct search *S, int a, int b)
{
	return (enum nicfit_path)S->cpath[S->pcls[a]][S->pcls[b]];
}

/* What the search's card moves, main card in slot m, auxiliary card in a (-1: none). */
static double sd_pair_eff(struct search *S, int m, int a)
{
	const struct nicfit_server *sv = S->p->in.server;

	if (!S->sd_known[m][a + 1]) {
		S->sd_eff[m][a + 1] = nicfit__plan_sd_in_slots(S->p, S->card, S->sd, &sv->slots[m],
						  a >= 0 ? &sv->slots[a] : NULL, 1, NULL);
		S->sd_known[m][a + 1] = 1;
	}
	return S->sd_eff[m][a + 1];
}

/*
 * Pair each GPU with its closest card (the fewest GPUs already on it when
 * several are as close, so that one card per GPU pairs one to one), and
 * measure how the cards' sockets follow the GPUs' and how many cards sit
 * in slots meant for another role.
 */
static void pair_and_balance(const struct search *S, struct plan_choice *c)
{
	const struct nicfit_server *sv = S->p->in.server;
	int load[NICFIT_PLAN_MAX_CARDS] = { 0 };
	int i, j, so, halves = 0, halves_of = S->sd ? 2 : 1;

	c->near = 0;
	c->balance = 0;
	c->role_miss = 0;
	for (i = 0; i < c->ngpu_placed; i++) {
		int best = -1, bs = -1, h, g = c->gpu_slots[i];
		enum nicfit_path bp = NICFIT_PATH_SYS;

		for (j = 0; j < S->ncards; j++)
			for (h = 0; h < halves_of; h++) {
				int slot = h ? c->aux_slots[j] : c->nic_slots[j];
				enum nicfit_path pth;

				if (slot < 0)
					continue;
				pth = path_of(S, g, slot);
				if (best < 0 || pth < bp || (pth == bp && load[j] < load[best])) {
					best = j;
					bs = slot;
					bp = pth;
				}
			}
		c->pair_card[i] = best;
		c->pair_slot[i] = bs;
		c->pair_path[i] = bp;
		if (best >= 0) {
			load[best]++;
			c->near += bp <= NICFIT_PATH_PXB;
		}
	}
	for (j = 0; j < S->ncards; j++) {
		c->role_miss += S->miss[c->nic_slots[j]];
		if (S->sd && c->aux_slots[j] >= 0)
			c->role_miss += S->miss[c->aux_slots[j]];
		halves += 1 + (S->sd && c->aux_slots[j] >= 0);
	}
	if (!S->ncards || !c->ngpu_placed)
		return;
	/* a Socket Direct card counts on both sockets, one half on each */
	for (so = 0; so < sv->sockets && so < 32; so++) {
		int k = 0;

		for (j = 0; j < S->ncards; j++)
			k += (S->sock[c->nic_slots[j]] == so) +
			     (S->sd && c->aux_slots[j] >= 0 && S->sock[c->aux_slots[j]] == so);
		c->balance += abs(k * c->ngpu_placed - S->gcount[so] * halves);
	}
}

/* The GPU half of score(), once per set of GPU slots S->cur holds. */
static void gpus_chosen(struct search *S)
{
	const struct plan_choice *c = &S->cur;
	unsigned seen = 0;
	int i;

	S->gpu_sockets = 0;
	S->gpu_order = 0;
	memset(S->gcount, 0, sizeof(S->gcount));
	for (i = 0; i < c->ngpu_placed; i++) {
		int so = S->sock[c->gpu_slots[i]];

		S->gsock[i] = so;
		S->gpu_order += c->gpu_slots[i];
		if (so >= 0 && so < 32)
			S->gcount[so]++;
		if (!(seen & (1u << (so & 31)))) {
			seen |= 1u << (so & 31);
			S->gpu_sockets++;
		}
	}
}

/*
 * Score the complete placement S->cur (in place: the search sets only its
 * slots) and keep it if it is the best yet.
 */
static void score(struct search *S)
{
	struct plan_choice *c = &S->cur;
	double weakest = 1e18;
	int i, j;

	if (S->p->in.backend_slot_pin && S->ncards) {
		int pinned = 0;

		for (j = 0; j < S->ncards; j++)
			pinned |= c->nic_slots[j] == S->p->in.backend_slot_pin - 1;
		if (!pinned)
			return; /* --backend-slot: a card sits there, or the placement does not count */
	}
	c->local = 0;
	c->waste = 0;
	c->order = S->gpu_order;
	c->gpu_sockets = S->gpu_sockets;
	c->aux_missing = 0;
	c->sd_links = S->sd ? 2 : 1;
	for (j = 0; j < S->ncards; j++) {
		int m = c->nic_slots[j], a = S->sd ? c->aux_slots[j] : -1;
		double e = S->sd ? sd_pair_eff(S, m, a) : S->eff[m];

		if (e < weakest)
			weakest = e;
		c->waste += S->waste[m];
		c->order += m;
		if (S->installed[m])
			c->order -= INSTALLED_SLOT_BONUS;
		if (a >= 0) {
			c->waste += S->waste[a];
			c->order += a;
		}
		c->aux_missing += S->sd && a < 0;
	}
	for (i = 0; i < c->ngpu_placed; i++) {
		int gs = S->gsock[i];

		for (j = 0; j < S->ncards; j++)
			if (gs == S->sock[c->nic_slots[j]] ||
			    (S->sd && c->aux_slots[j] >= 0 && gs == S->sock[c->aux_slots[j]])) {
				c->local++;
				break;
			}
	}
	pair_and_balance(S, c);
	c->per_card = weakest;
	c->meets = weakest + NICFIT_EPS >= S->need;
	c->valid = 1;
	if (better(c, &S->best))
		S->best = *c;
}

static void eval_aux(struct search *S, int main, int k);

static void eval_nics(struct search *S, int from, int k)
{
	const struct nicfit_server *sv = S->p->in.server;
	int i;

	if (S->budget-- <= 0)
		return;
	if (k == S->ncards) {
		score(S);
		return;
	}
	for (i = from; i < sv->nslots; i++) {
		if (S->used[i] || !S->fit[i] || (S->ntwin[i] >= 0 && !S->used[S->ntwin[i]]))
			continue;
		S->used[i] = 1;
		S->cur.nic_slots[k] = i;
		S->cur.aux_slots[k] = -1;
		if (S->sd)
			eval_aux(S, i, k);
		else
			eval_nics(S, i + 1, k + 1);
		S->used[i] = 0;
	}
}

/*
 * A Socket Direct card's main card sits in slot main: its auxiliary card
 * goes in each free slot on another socket it fits, or (none free) nowhere.
 */
static void eval_aux(struct search *S, int main, int k)
{
	const struct nicfit_server *sv = S->p->in.server;
	int a, any = 0;

	for (a = 0; a < sv->nslots; a++) {
		if (S->used[a] || sv->slots[a].socket == sv->slots[main].socket ||
		    sv->slots[a].gpu == NICFIT_GPU_BASEBOARD || !S->fit[a])
			continue;
		any = 1;
		S->used[a] = 1;
		S->cur.aux_slots[k] = a;
		eval_nics(S, main + 1, k + 1);
		S->used[a] = 0;
	}
	S->cur.aux_slots[k] = -1;
	if (!any)
		eval_nics(S, main + 1, k + 1);
}

static void place_gpus(struct search *S, int from, int k)
{
	const struct nicfit_server *sv = S->p->in.server;
	int i, placed_any = 0;

	if (S->budget <= 0)
		return;
	if (k == S->ngpus) {
		S->cur.ngpu_placed = k;
		gpus_chosen(S);
		eval_nics(S, 0, 0);
		return;
	}
	for (i = from; i < sv->nslots; i++) {
		if (S->used[i] || !S->gpu[i])
			continue;
		placed_any = 1;
		if (S->gcut && S->gtwin[i] >= 0 && !S->used[S->gtwin[i]])
			continue;
		S->used[i] = 1;
		S->cur.gpu_slots[k] = i;
		place_gpus(S, i + 1, k + 1);
		S->used[i] = 0;
	}
	if (!placed_any && !S->gcut) {
		/* fewer GPU slots than GPUs: place what fits */
		S->cur.ngpu_placed = k;
		gpus_chosen(S);
		eval_nics(S, 0, 0);
	}
}

/* S->ntwin and S->gtwin (see struct search) from the figures copied out of the slots. */
static void twins(struct search *S, int cut)
{
	const struct nicfit_plan *p = S->p;
	int i, j, n = p->in.server->nslots < NICFIT_MAX_SLOTS ? p->in.server->nslots : NICFIT_MAX_SLOTS;
	int pin = p->in.backend_slot_pin - 1;

	for (i = 0; i < n; i++) {
		S->ntwin[i] = S->gtwin[i] = -1;
		if (!cut || S->sd || i == pin)
			continue;
		for (j = i - 1; j >= 0 && (S->ntwin[i] < 0 || S->gtwin[i] < 0); j--)
			if (j != pin && S->fit[j] == S->fit[i] && S->sock[j] == S->sock[i] &&
			    S->sw[j] == S->sw[i] && S->miss[j] == S->miss[i] &&
			    S->waste[j] == S->waste[i] && S->installed[j] == S->installed[i] &&
			    S->eff[j] == S->eff[i]) {
				if (S->ntwin[i] < 0)
					S->ntwin[i] = j;
				if (S->gtwin[i] < 0 && S->gpu[j] == S->gpu[i])
					S->gtwin[i] = j;
			}
	}
	S->gcut = cut && !S->sd;
}

/* The search memo's entry for S, or NULL; *fit is the key's slot mask. */
static int memo_find(const struct search *S, const struct plan_place_memo *m, uint32_t *fit)
{
	int i, k, n = S->p->in.server->nslots;

	*fit = 0;
	for (i = 0; i < n && i < NICFIT_MAX_SLOTS; i++)
		*fit |= (uint32_t)S->fit[i] << i;
	for (k = 0; k < m->n; k++)
		if (m->v[k].fit == *fit && m->v[k].width == S->card->pcie_width &&
		    m->v[k].ngpus == S->ngpus && m->v[k].ncards == S->ncards &&
		    m->v[k].need == S->need && !memcmp(m->v[k].eff, S->eff, sizeof(S->eff)))
			return k;
	return -1;
}

/*
 * The placements are searched from here: what only they read is set up
 * now. The path between two slots depends on their sockets and PCIe
 * switches only: found once per two of the few (socket, switch) the
 * slots sit on, where the slots number in the tens.
 */
static void path_classes(struct search *S, const struct nicfit_server *sv)
{
	int rep[NICFIT_MAX_SLOTS], nc = 0, i, j, a, b;
	int n = sv->nslots < NICFIT_MAX_SLOTS ? sv->nslots : NICFIT_MAX_SLOTS;

	for (i = 0; i < n; i++) {
		for (j = 0; j < nc; j++)
			if (sv->slots[rep[j]].socket == sv->slots[i].socket &&
			    sv->slots[rep[j]].pcie_switch == sv->slots[i].pcie_switch)
				break;
		if (j == nc)
			rep[nc++] = i;
		S->pcls[i] = (unsigned char)j;
	}
	for (a = 0; a < nc; a++)
		for (b = 0; b < nc; b++)
			S->cpath[a][b] = (unsigned char)nicfit__plan_path(sv, rep[a], rep[b]);
}

/* Keep a finished search's answer in the memo while it has room. */
static void memo_keep(const struct search *S, struct plan_place_memo *m, uint32_t fit, int ok)
{
	if (m->n >= PLAN_PLACE_MEMO)
		return;
	m->v[m->n].fit = fit;
	m->v[m->n].width = S->card->pcie_width;
	m->v[m->n].ngpus = S->ngpus;
	m->v[m->n].ncards = S->ncards;
	m->v[m->n].need = S->need;
	m->v[m->n].rc = ok;
	memcpy(m->v[m->n].eff, S->eff, sizeof(S->eff));
	m->v[m->n].out = S->best;
	m->n++;
}

/*
 * Run the search for ngpus GPUs and ncards copies of card. Returns 1, 0
 * when no placement exists, -1 when there was no memory for the search.
 */
static int search(const struct nicfit_plan *p, struct plan_place_memo *m,
		  const struct nicfit_card *card, const struct nicfit_nic *nic, int ngpus,
		  int ncards, double need, int cut, struct plan_choice *out)
{
	const struct nicfit_server *sv = p->in.server;
	struct search St, *S = &St;
	uint32_t fit = 0;
	int ok, i, hit = -1;

	/*
	 * On the stack and cleared where it is read before it is written:
	 * the search runs tens of times a plan, the slots number in the tens.
	 */
	memset(S->used, 0, sizeof(S->used));
	memset(S->fit, 0, sizeof(S->fit));
	memset(S->eff, 0, sizeof(S->eff));
	memset(&S->half, 0, sizeof(S->half));
	S->sd_eff = NULL;
	S->sd_known = NULL;
	S->p = p;
	S->card = card;
	S->nic = nic;
	S->ncards = ncards;
	S->ngpus = ngpus;
	S->need = need;
	S->sd = nicfit__plan_sd_nic(p, card);
	if (S->sd) {
		nicfit__plan_sd_half(card, S->sd, &S->half);
		S->sd_eff = calloc(NICFIT_MAX_SLOTS, sizeof(*S->sd_eff));
		S->sd_known = calloc(NICFIT_MAX_SLOTS, sizeof(*S->sd_known));
		if (!S->sd_eff || !S->sd_known) {
			free(S->sd_eff);
			free(S->sd_known);
			memset(out, 0, sizeof(*out));
			return -1;
		}
	}
	for (i = 0; i < sv->nslots && i < NICFIT_MAX_SLOTS; i++) {
		const struct nicfit_slot *s = &sv->slots[i];

		int w = S->sd ? S->half.pcie_width : card->pcie_width;

		S->fit[i] = (unsigned char)nicfit__plan_card_fits_slot(S->sd ? &S->half : card, nic, s);
		S->gpu[i] = (unsigned char)gpu_can_use(p->in.gpu, s);
		S->sock[i] = s->socket;
		S->sw[i] = s->pcie_switch;
		S->miss[i] = s->role != NICFIT_SLOT_ANY && s->role != NICFIT_SLOT_COMPUTE;
		S->waste[i] = s->width > w ? s->width - w : 0;
		S->installed[i] = (unsigned char)nicfit__plan_slot_listed(p->in.installed_slot, s->name);
		/* only the slots the card fits are ever scored */
		S->eff[i] = 0;
		if (!S->sd && S->fit[i]) {
			int j;

			/* what the card moves depends on the slot's generation and lanes only */
			for (j = 0; j < i; j++)
				if (S->fit[j] && sv->slots[j].gen == s->gen && sv->slots[j].width == s->width)
					break;
			S->eff[i] = j < i ? S->eff[j] : nicfit__plan_one_slot(p, card, s, 1, NULL);
		}
	}
	/* a Socket Direct card's figures are per pair of slots: it is searched each time */
	if (m && !S->sd)
		hit = memo_find(S, m, &fit);
	if (hit >= 0) {
		*out = m->v[hit].out;
		return m->v[hit].rc;
	}
	path_classes(S, sv);
	memset(&S->cur, 0, sizeof(S->cur));
	memset(&S->best, 0, sizeof(S->best));
	twins(S, cut);
	S->budget = PLACE_SEARCH_BUDGET;
	place_gpus(S, 0, 0);
	if (S->gcut && !S->best.valid) {
		/* no placement of all the GPUs: the best of those that place fewer */
		S->gcut = 0;
		S->budget = PLACE_SEARCH_BUDGET;
		place_gpus(S, 0, 0);
	}
	ok = S->best.valid;
	*out = S->best;
	if (m && !S->sd)
		memo_keep(S, m, fit, ok);
	free(S->sd_eff);
	free(S->sd_known);
	return ok;
}

int nicfit__plan_search_place(struct nicfit_plan *p, const struct nicfit_card *card,
			      const struct nicfit_nic *nic, int ncards, double need,
			      struct plan_choice *out)
{
	return nicfit__plan_search_place_memo(p, NULL, card, nic, ncards, need, out);
}

int nicfit__plan_search_place_memo(struct nicfit_plan *p, struct plan_place_memo *m,
				   const struct nicfit_card *card, const struct nicfit_nic *nic,
				   int ncards, double need, struct plan_choice *out)
{
	int rc = search(p, m, card, nic, p->in.gpu ? p->in.gpus_per_server : 0, ncards, need, 1,
			out);
	int j;

	if (rc < 0)
		p->findings.oom = 1;
	/* the plan's Socket Direct card: R5 reads the card's figures by its main slot */
	if (rc > 0 && nicfit__plan_sd_nic(p, card))
		for (j = 0; j < ncards && j < NICFIT_PLAN_MAX_CARDS; j++) {
			p->be_slots[j] = out->nic_slots[j];
			p->be_aux_slots[j] = out->aux_slots[j];
		}
	return rc > 0;
}

int nicfit__plan_card_can_meet(const struct nicfit_plan *p, const struct nicfit_card *card,
			       const struct nicfit_nic *nic, double need)
{
	const struct nicfit_server *sv = p->in.server;
	int i, j, n = sv->nslots < NICFIT_MAX_SLOTS ? sv->nslots : NICFIT_MAX_SLOTS;

	for (i = 0; i < n; i++) {
		const struct nicfit_slot *s = &sv->slots[i];

		if (!nicfit__plan_card_fits_slot(card, nic, s))
			continue;
		/* what the card moves depends on the slot's generation and lanes only */
		for (j = 0; j < i; j++)
			if (sv->slots[j].gen == s->gen && sv->slots[j].width == s->width &&
			    nicfit__plan_card_fits_slot(card, nic, &sv->slots[j]))
				break;
		if (j == i && nicfit__plan_one_slot(p, card, s, 1, NULL) + NICFIT_EPS >= need)
			return 1;
	}
	return 0;
}

int nicfit__plan_search_place_all(struct nicfit_plan *p, const struct nicfit_card *card,
				  const struct nicfit_nic *nic, int ncards, double need,
				  struct plan_choice *out)
{
	return search(p, NULL, card, nic, p->in.gpu ? p->in.gpus_per_server : 0, ncards, need,
		      0, out) > 0;
}

int nicfit__plan_search_gpus(const struct nicfit_plan *p, struct plan_choice *out)
{
	struct nicfit_card none;

	memset(&none, 0, sizeof(none));
	return search(p, NULL, &none, NULL, p->in.gpus_per_server, 0, 0, 1, out);
}

/*
 * How many of the GPUs asked for the server holds with no card at all
 * (its GPU-capable slots, or its baseboard positions); -1 when memory
 * ran out.
 */
int nicfit__plan_gpus_alone(const struct nicfit_plan *p)
{
	struct plan_choice c;

	if (!p->in.gpu || p->in.gpus_per_server < 1)
		return 0;
	if (nicfit__plan_search_gpus(p, &c) < 0)
		return -1;
	return c.ngpu_placed;
}

int nicfit__plan_gpus_alone_memo(const struct nicfit_plan *p, int *memo)
{
	if (*memo == NICFIT__PLAN_UNKNOWN)
		*memo = nicfit__plan_gpus_alone(p);
	return *memo;
}
