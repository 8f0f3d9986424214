/*
 * plan_place.c - R6: where the GPUs and the back-end cards go. A bounded
 * exhaustive search over the server's slots finds the placement that
 * feeds the cards best and keeps GPUs next to them; the plan records it
 * and says why. Which card to place is R5 (plan_backend.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nicfit/buf.h"
#include "core/num_int.h"
#include "plan/plan_int.h"

/* ---- R6: slots ---------------------------------------------------------- */

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

/* 2 for a full-height, full-length card ("pcie-fhfl"), 1 full height only ("pcie-fhhl"), else 0 */
static int card_size(const struct nicfit_nic *n)
{
	const char *form = n ? n->form_factor : NULL;

	if (!form || form[0] != 'p' || strncmp(form, "pcie-fh", 7))
		return 0;
	return form[7] == 'f' ? 2 : 1;
}

static int card_fits_slot(const struct nicfit_card *c, const struct nicfit_nic *n,
			  const struct nicfit_slot *s)
{
	const char *form = n ? n->form_factor : NULL;
	int ocp = form && form[0] == 'o' && !strncmp(form, "ocp", 3), size;
	const char *k = s->kind;

	/* the first letter first: this runs for every slot of every search */
	if (ocp != (k && k[0] == 'o' && !strncmp(k, "ocp", 3)))
		return 0;
	if (k && ((k[0] == 'n' && !strcmp(k, "ndc")) || (k[0] == 'f' && !strcmp(k, "flexlom")) ||
		  (k[0] == 'b' && !strcmp(k, "baseboard"))))
		return 0;
	/* a full-height card ("pcie-fhhl", "pcie-fhfl") has no low-profile bracket */
	size = card_size(n);
	if ((size >= 1 && !s->full_height) || (size == 2 && !s->full_length))
		return 0;
	/*
	 * A dual-slot card needs the room of a double-width card (a slot that
	 * takes a double-width GPU, or one the catalog says has room), or the
	 * slot its vendor ships it in.
	 */
	if (n && n->double_width && !s->double_room &&
	    !(s->included && n->e.id && !strcmp(s->included, n->e.id)))
		return 0;
	return c->pcie_width <= (s->connector_width ? s->connector_width : s->width);
}

int nicfit__plan_card_fits_slot(const struct nicfit_card *c, const struct nicfit_nic *n,
				const struct nicfit_slot *s)
{
	return card_fits_slot(c, n, s);
}

const char *nicfit__plan_form_words(const struct nicfit_nic *n)
{
	static const char *const words[2][3] = {
		{ "", ", full height", ", full height, full length" },
		{ ", double width", ", full height, double width",
		  ", full height, full length, double width" },
	};

	return words[n && n->double_width][card_size(n)];
}

static double one_slot(const struct nicfit_plan *p, const struct nicfit_card *c,
		       const struct nicfit_slot *s, int ports, struct nicfit_nic_fit *out)
{
	struct nicfit_nic_fit f;
	enum nicfit_proto proto = p->fabric == NICFIT_FABRIC_IB && c->ib_rate ?
				  NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;

	if (nicfit_calc_nic(c, s->gen, s->width, ports, proto, &p->in.pcie, &p->in.link, &f, NULL))
		return 0;
	if (out)
		*out = f;
	return f.effective_gbps;
}

/* ---- Socket Direct ------------------------------------------------------ */

void nicfit__plan_socket_direct_asked(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_nic *n = p->in.backend_nic ?
				     nicfit_catalog_find_nic(cat, p->in.backend_nic, "--backend-nic", NULL) :
				     NULL;

	p->be_sd_nic = n && n->socket_direct ? n : NULL;
}

/*
 * The Socket Direct card card is, when it is the plan's back-end card
 * and --backend-nic named one (from the catalog, or decoded from its part
 * number); NULL for any other card.
 */
static const struct nicfit_nic *sd_nic(const struct nicfit_plan *p, const struct nicfit_card *card)
{
	if (card != &p->be_card || !p->in.backend_nic)
		return NULL;
	if (p->be_sd_nic)
		return p->be_sd_nic;
	if (p->rule_nic[0].part && p->rule_nic[0].socket_direct)
		return &p->rule_nic[0];
	return NULL;
}

/* One half of a Socket Direct card: its own PCIe link's lanes, no ceiling of its own. */
static void sd_half(const struct nicfit_card *c, const struct nicfit_nic *n, struct nicfit_card *half)
{
	*half = *c;
	half->pcie_width = n->sd_width > 0 ? n->sd_width : n->pcie_width;
	half->card_gbps = 0;
}

/*
 * What a Socket Direct card moves with its main card in slot a and its
 * auxiliary card in slot b (NULL: none): the ports' goodput, or the two
 * PCIe links together when they carry less (NVIDIA: two Gen3 x16 links
 * feed HDR 200Gb/s, which one cannot), or the card's own ceiling.
 */
static double sd_in_slots(const struct nicfit_plan *p, const struct nicfit_card *c,
			  const struct nicfit_nic *n, const struct nicfit_slot *a,
			  const struct nicfit_slot *b, int ports, struct nicfit_nic_fit *out)
{
	struct nicfit_nic_fit fa, fb;
	struct nicfit_card half;
	double pcie;

	memset(&fa, 0, sizeof(fa));
	memset(&fb, 0, sizeof(fb));
	sd_half(c, n, &half);
	if (!one_slot(p, &half, a, ports, &fa) && fa.ports_gbps <= 0)
		return 0;
	pcie = fa.pcie_gbps;
	if (b) {
		if (!one_slot(p, &half, b, ports, &fb) && fb.ports_gbps <= 0)
			return 0;
		pcie += fb.pcie_gbps;
		/* the two links as one: NVIDIA's manual has the card negotiate x32 */
		fa.links += fb.links;
		fa.link_width += fb.link_width;
		fa.pcie.width += fb.pcie.width;
		fa.pcie.signal_gbps += fb.pcie.signal_gbps;
		fa.pcie.raw_gbps += fb.pcie.raw_gbps;
		fa.pcie.write_gbps += fb.pcie.write_gbps;
		fa.pcie.read_gbps += fb.pcie.read_gbps;
		fa.pcie.effective_gbps += fb.pcie.effective_gbps;
	}
	fa.pcie_gbps = pcie;
	fa.idle_gbps = 0;
	if (pcie < fa.ports_gbps) {
		fa.effective_gbps = pcie;
		fa.limited_by = "pcie";
		fa.idle_gbps = fa.ports_gbps - pcie;
	} else {
		fa.effective_gbps = fa.ports_gbps;
		fa.limited_by = "ports";
	}
	if (c->card_gbps > 0 && c->card_gbps * fa.port.efficiency < fa.effective_gbps) {
		fa.effective_gbps = c->card_gbps * fa.port.efficiency;
		fa.limited_by = "card";
		fa.idle_gbps = fa.ports_gbps - fa.effective_gbps;
	}
	fa.per_port_gbps = fa.effective_gbps / (fa.ports_used ? fa.ports_used : 1);
	if (out)
		*out = fa;
	return fa.effective_gbps;
}

/*
 * What card c moves in slot s. The plan's Socket Direct card counts the
 * auxiliary card placed with its main card in s (p->be_aux_slots, kept
 * from the search), so R5's figures for the slot are the card's.
 */
double nicfit__plan_card_in_slot(const struct nicfit_plan *p, const struct nicfit_card *c,
				 const struct nicfit_slot *s, int ports, struct nicfit_nic_fit *out)
{
	const struct nicfit_server *sv = p->in.server;
	const struct nicfit_nic *n = sd_nic(p, c);
	int i, j;

	if (!n)
		return one_slot(p, c, s, ports, out);
	i = (int)(s - sv->slots);
	for (j = 0; j < NICFIT_PLAN_MAX_CARDS; j++)
		if (p->be_slots[j] == i && i >= 0 && i < sv->nslots)
			return sd_in_slots(p, c, n, s, p->be_aux_slots[j] >= 0 ?
					   &sv->slots[p->be_aux_slots[j]] : NULL, ports, out);
	return sd_in_slots(p, c, n, s, NULL, ports, out);
}

enum nicfit_path nicfit__plan_path(const struct nicfit_server *sv, int a, int b)
{
	const struct nicfit_slot *x = &sv->slots[a], *y = &sv->slots[b];

	if (x->socket != y->socket)
		return NICFIT_PATH_SYS;
	if (x->pcie_switch >= 0 && x->pcie_switch == y->pcie_switch)
		return NICFIT_PATH_PIX;
	return NICFIT_PATH_PHB;
}

int nicfit__plan_role_slots(const struct nicfit_server *sv, enum nicfit_slot_role r)
{
	int i, n = 0;

	for (i = 0; i < sv->nslots; i++)
		n += sv->slots[i].role == r;
	return n;
}

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

/* nicfit__plan_path() on the search's copy of the slot map. */
static inline enum nicfit_path path_of(const struct search *S, int a, int b)
{
	if (S->sock[a] != S->sock[b])
		return NICFIT_PATH_SYS;
	if (S->sw[a] >= 0 && S->sw[a] == S->sw[b])
		return NICFIT_PATH_PIX;
	return NICFIT_PATH_PHB;
}

/* What the search's card moves, main card in slot m, auxiliary card in a (-1: none). */
static double sd_pair_eff(struct search *S, int m, int a)
{
	const struct nicfit_server *sv = S->p->in.server;

	if (!S->sd_known[m][a + 1]) {
		S->sd_eff[m][a + 1] = sd_in_slots(S->p, S->card, S->sd, &sv->slots[m],
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
	S->sd = sd_nic(p, card);
	if (S->sd) {
		sd_half(card, S->sd, &S->half);
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

		S->fit[i] = (unsigned char)card_fits_slot(S->sd ? &S->half : card, nic, s);
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
			S->eff[i] = j < i ? S->eff[j] : one_slot(p, card, s, 1, NULL);
		}
	}
	/* a Socket Direct card's figures are per pair of slots: it is searched each time */
	if (m && !S->sd)
		hit = memo_find(S, m, &fit);
	if (hit >= 0) {
		*out = m->v[hit].out;
		return m->v[hit].rc;
	}
	/* the placements are searched from here: what only they read is set up now */
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
	if (m && !S->sd && m->n < PLAN_PLACE_MEMO) {
		m->v[m->n].fit = fit;
		m->v[m->n].width = card->pcie_width;
		m->v[m->n].ngpus = ngpus;
		m->v[m->n].ncards = ncards;
		m->v[m->n].need = need;
		m->v[m->n].rc = ok;
		memcpy(m->v[m->n].eff, S->eff, sizeof(S->eff));
		m->v[m->n].out = S->best;
		m->n++;
	}
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
	if (rc > 0 && sd_nic(p, card))
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

		if (!card_fits_slot(card, nic, s))
			continue;
		/* what the card moves depends on the slot's generation and lanes only */
		for (j = 0; j < i; j++)
			if (sv->slots[j].gen == s->gen && sv->slots[j].width == s->width &&
			    card_fits_slot(card, nic, &sv->slots[j]))
				break;
		if (j == i && one_slot(p, card, s, 1, NULL) + NICFIT_EPS >= need)
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

const char *nicfit__plan_sock_name(const struct nicfit_server *s, int socket, char *b, size_t n)
{
	struct plan_str t;
	const char *in = NULL;

	if (s->vendor && !strcasecmp(s->vendor, "Dell"))
		in = " (CPU";
	else if (s->vendor && (!strcasecmp(s->vendor, "HPE") || !strcasecmp(s->vendor, "HP")))
		in = " (processor ";
	/* "socket %d", then " (CPU%d)" or " (processor %d)" with socket + 1 */
	nicfit__plan_str_init(&t, b, n);
	nicfit__plan_str_add(&t, "socket ");
	nicfit__plan_str_int(&t, socket);
	if (in) {
		nicfit__plan_str_add(&t, in);
		nicfit__plan_str_int(&t, (long)socket + 1);
		nicfit__plan_str_add(&t, ")");
	}
	return b;
}

/* "GPU 0 in slot 1 (socket 0), GPU 1 in slot 3 (socket 1)" into b. */
static void gpu_list(const struct nicfit_server *sv, const struct plan_choice *c,
		     struct nicfit_buf *b)
{
	char sock[40];
	int i;

	for (i = 0; i < c->ngpu_placed; i++) {
		const struct nicfit_slot *s = &sv->slots[c->gpu_slots[i]];

		nicfit_buf_addf(b, "%sGPU %d in slot %s (%s)", i ? ", " : "", i, s->name,
				nicfit__plan_sock_name(sv, s->socket, sock, sizeof(sock)));
	}
}

static const char *gpu_slot_kind(const struct nicfit_gpu *g)
{
	return g->baseboard ? "baseboard positions" : g->double_width ? "double-width GPU slots" :
	       "single-width GPU slots";
}

void nicfit__plan_record_slots(struct nicfit_plan *p, const struct plan_choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	struct plan_str w;
	int i;

	p->nslots = 0;
	for (i = 0; i < NICFIT_PLAN_MAX_GPUS; i++)
		p->gpu_slots[i] = -1;
	for (i = 0; i < NICFIT_PLAN_MAX_CARDS; i++)
		p->be_slots[i] = p->be_aux_slots[i] = -1;
	p->be_sd_links = 1;
	for (i = 0; i < c->ngpu_placed && p->nslots < NICFIT_PLAN_MAX_SLOTS; i++) {
		const struct nicfit_slot *s = &sv->slots[c->gpu_slots[i]];
		struct nicfit_plan_slotuse *u = &p->slots[p->nslots++];

		p->gpu_slots[i] = c->gpu_slots[i];
		nicfit__plan_copy(u->slot, sizeof(u->slot), s->name);
		u->socket = s->socket;
		u->gen = s->gen;
		u->width = s->width;
		nicfit__plan_str_init(&w, u->what, sizeof(u->what));
		nicfit__plan_str_add(&w, "GPU ");
		nicfit__plan_str_int(&w, i);
		nicfit__plan_str_add(&w, " (");
		nicfit__plan_str_add(&w, p->in.gpu->e.name);
		nicfit__plan_str_add(&w, ")");
	}
	for (i = 0; i < NICFIT_PLAN_MAX_GPUS; i++) {
		p->pair_card[i] = p->pair_slot[i] = -1;
		p->pair_path[i] = NICFIT_PATH_SYS;
	}
	if (!p->backend_needed)
		return;
	p->gpus_near = c->near;
	for (i = 0; i < c->ngpu_placed; i++) {
		p->pair_card[i] = c->pair_card[i];
		p->pair_slot[i] = c->pair_slot[i];
		p->pair_path[i] = c->pair_path[i];
	}
	if (c->sd_links > 1)
		p->be_sd_links = c->sd_links;
	for (i = 0; i < p->be_cards && p->nslots < NICFIT_PLAN_MAX_SLOTS; i++) {
		const struct nicfit_slot *s = &sv->slots[c->nic_slots[i]];
		struct nicfit_plan_slotuse *u = &p->slots[p->nslots++];

		p->be_slots[i] = c->nic_slots[i];
		nicfit__plan_copy(u->slot, sizeof(u->slot), s->name);
		u->socket = s->socket;
		u->gen = s->gen;
		u->width = s->width;
		nicfit__plan_str_init(&w, u->what, sizeof(u->what));
		nicfit__plan_str_add(&w, "back-end NIC ");
		nicfit__plan_str_add(&w, p->be_part);
	}
	for (i = 0; c->sd_links > 1 && i < p->be_cards && p->nslots < NICFIT_PLAN_MAX_SLOTS; i++) {
		const struct nicfit_slot *s;
		struct nicfit_plan_slotuse *u;

		if (c->aux_slots[i] < 0)
			continue;
		s = &sv->slots[c->aux_slots[i]];
		u = &p->slots[p->nslots++];
		p->be_aux_slots[i] = c->aux_slots[i];
		nicfit__plan_copy(u->slot, sizeof(u->slot), s->name);
		u->socket = s->socket;
		u->gen = s->gen;
		u->width = s->width;
		plan_fmt(u->what, sizeof(u->what), "back-end NIC %s, Socket Direct auxiliary card",
			 p->be_part);
	}
}

/*
 * How many of the GPUs asked for the server holds with no card at all
 * (its GPU-capable slots, or its baseboard positions); -1 when memory
 * ran out.
 */
int nicfit__plan_gpus_alone(const struct nicfit_plan *p)
{
	struct nicfit_card none;
	struct plan_choice c;

	if (!p->in.gpu || p->in.gpus_per_server < 1)
		return 0;
	memset(&none, 0, sizeof(none));
	if (search(p, NULL, &none, NULL, p->in.gpus_per_server, 0, 0, 1, &c) < 0)
		return -1;
	return c.ngpu_placed;
}

/* Does the server carry GPUs on a baseboard (positions no PCIe GPU can take)? */
static int baseboard_positions(const struct nicfit_server *sv)
{
	int i, n = 0;

	for (i = 0; i < sv->nslots; i++)
		n += sv->slots[i].gpu == NICFIT_GPU_BASEBOARD;
	return n;
}

/*
 * R6, too-many-gpus: the server holds only room of the GPUs asked for,
 * whatever else goes in it. A PCIe GPU in a baseboard server (a DGX has
 * no slot for one) and a baseboard GPU in a PCIe server are said as such,
 * not as a count of slots.
 */
void nicfit__plan_find_gpu_room(struct nicfit_plan *p, int room)
{
	const struct nicfit_server *sv = p->in.server;
	const struct nicfit_gpu *g = p->in.gpu;
	int bb = baseboard_positions(sv);

	if (!room && bb && !g->baseboard) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_TOO_MANY_GPUS,
				  "leave out --gpu (the baseboard's GPUs are the default), or a server "
				  "with PCIe GPU slots",
				  "%s carries its GPUs on a baseboard (%d positions%s%s): it has no slot "
				  "for a PCIe GPU such as the %s.", sv->e.name, bb,
				  sv->baseboard_gpu ? ", --gpu " : "", sv->baseboard_gpu ? sv->baseboard_gpu : "",
				  g->e.name);
		return;
	}
	if (!room && g->baseboard) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_TOO_MANY_GPUS,
				  "a PCIe GPU, or a server with a GPU baseboard (nicfit catalog list "
				  "servers)",
				  "%s has no GPU baseboard: the %s is a baseboard module, not a PCIe card.",
				  sv->e.name, g->e.name);
		return;
	}
	nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_TOO_MANY_GPUS,
			  g->baseboard ? "fewer GPUs per server (--gpus-per-server), or another server" :
			  g->double_width ? "fewer GPUs per server (--gpus-per-server), single-width "
			  "GPUs, or another server" :
			  "fewer GPUs per server (--gpus-per-server), or another server",
			  "%s has room for %d %s GPU%s (%d asked), whatever else it holds.", sv->e.name,
			  room, g->baseboard ? "baseboard" : g->double_width ? "double-width" :
			  "single-width", room == 1 ? "" : "s", p->in.gpus_per_server);
}

/*
 * R6 without a back end: the GPUs still take GPU-capable slots (double-
 * width GPUs double-width slots), preferably on one socket; a server with
 * fewer such slots than GPUs cannot hold the request (critical).
 */
void nicfit__plan_place_gpus_only(struct nicfit_plan *p)
{
	struct nicfit_card none;
	struct plan_choice c;
	struct nicfit_buf gp;

	if (!p->in.gpu || p->in.gpus_per_server < 1)
		return;
	memset(&none, 0, sizeof(none));
	if (search(p, NULL, &none, NULL, p->in.gpus_per_server, 0, 0, 1, &c) < 0) {
		p->findings.oom = 1;
		return;
	}
	nicfit__plan_record_slots(p, &c);
	if (c.ngpu_placed) {
		nicfit_buf_init(&gp, 0);
		gpu_list(p->in.server, &c, &gp);
		plan_decide(&p->decisions, "R6", 1, "GPUs in %s: %s%s.",
			    gpu_slot_kind(p->in.gpu), gp.data,
			    c.ngpu_placed > 1 && c.gpu_sockets == 1 ?
			    " - all on one socket, so GPU-to-GPU traffic stays under one CPU" : "");
		if (nicfit_buf_error(&gp))
			p->decisions.oom = 1;
		nicfit_buf_release(&gp);
	}
	if (c.ngpu_placed < p->in.gpus_per_server)
		nicfit__plan_find_gpu_room(p, c.ngpu_placed);
}

/* Does slot i hold a GPU or a card of placement c? */
static int slot_taken(const struct nicfit_plan *p, const struct plan_choice *c, int i)
{
	int j;

	for (j = 0; j < c->ngpu_placed; j++)
		if (c->gpu_slots[j] == i)
			return 1;
	for (j = 0; j < p->be_cards; j++)
		if (c->nic_slots[j] == i || (c->sd_links > 1 && c->aux_slots[j] == i))
			return 1;
	return 0;
}

/* Has socket s a back-end card of placement c? */
static int socket_has_card(const struct nicfit_plan *p, const struct plan_choice *c, int s)
{
	int j;

	for (j = 0; j < p->be_cards; j++)
		if (p->in.server->slots[c->nic_slots[j]].socket == s ||
		    (c->sd_links > 1 && c->aux_slots[j] >= 0 &&
		     p->in.server->slots[c->aux_slots[j]].socket == s))
			return 1;
	return 0;
}

/*
 * A free slot where one more card would sit on a socket whose GPUs have
 * none, and move PLAN_FULL_SPEED_SHARE of what the plan's card does; -1
 * if there is none.
 */
static int slot_for_second_card(const struct nicfit_plan *p, const struct plan_choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	int i, j, other = -1;

	for (i = 0; i < sv->nslots && other < 0; i++) {
		if (slot_taken(p, c, i) ||
		    !card_fits_slot(&p->be_card, p->be_nic,
				    &sv->slots[i]))
			continue;
		for (j = 0; j < c->ngpu_placed; j++) {
			int gs = sv->slots[c->gpu_slots[j]].socket;

			if (!socket_has_card(p, c, gs) && sv->slots[i].socket == gs &&
			    nicfit__plan_card_in_slot(p, &p->be_card, &sv->slots[i], 1, NULL) >=
			    p->be_effective_gbps * PLAN_FULL_SPEED_SHARE)
				other = i;
		}
	}
	return other;
}

/*
 * R6, GPUs on another socket than any back-end card (docs/rules.md,
 * gpu-nic-cross-socket): their GPUDirect RDMA traffic crosses the CPUs'
 * interconnect (path SYS), where NCCL does not use GPUDirect RDMA and the
 * bandwidth drops, so it is a warning. The fix is a second card on that
 * socket when a free slot there can feed it at full speed, otherwise a
 * server (or a job layout) that keeps GPUs and card together.
 */
static void rule_cross_socket(struct nicfit_plan *p, const struct plan_choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	struct nicfit_finding *f;
	char sock[40];
	int i, nonlocal = 0, other;

	for (i = 0; i < c->ngpu_placed; i++)
		nonlocal += !socket_has_card(p, c, sv->slots[c->gpu_slots[i]].socket);
	if (!nonlocal || !c->ngpu_placed)
		return;
	other = slot_for_second_card(p, c);
	f = nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_GPU_NIC_CROSS_SOCKET,
			      other >= 0 ? NULL : "choose a server with a free x16 slot on each GPU "
			      "socket, or keep the GPUs of one job on one socket",
			      "%d of %d GPUs sit on another socket than the back-end card: their GPUDirect "
			      "RDMA traffic crosses the inter-socket link (path SYS), where NCCL does not use "
			      "GPUDirect RDMA and bandwidth drops.%s",
			      nonlocal, c->ngpu_placed,
			      other >= 0 ? "" : " No free slot on that socket can feed the card at full speed.");
	if (f && other >= 0)
		nicfit__finding_fix(&p->findings, f,
				    "add a second %s in slot %s (%s): one back-end card per GPU "
				    "socket (--backend-cards %d) keeps every GPU local and doubles "
				    "the node's back-end bandwidth",
				    p->be_part, sv->slots[other].name,
				    nicfit__plan_sock_name(sv, sv->slots[other].socket, sock, sizeof(sock)),
				    p->be_cards + 1);
}

/*
 * R6, GPU and card on one socket but separate root ports (gdr-level): the
 * PCIe path between them is PHB (or NODE on AMD EPYC), and NCCL uses
 * GPUDirect RDMA by default only up to PXB, a shared PCIe switch. The
 * level must be allowed explicitly for those pairs. Only where some
 * planned pair is PHB or NODE: a GPU under the same switch as its card
 * (PIX/PXB) needs nothing, and a SYS pair is gpu-nic-cross-socket's.
 * Advice, an info.
 */
static void rule_gdr_level(struct nicfit_plan *p, const struct plan_choice *c)
{
	int i, mid = 0;

	for (i = 0; i < c->ngpu_placed; i++)
		mid += c->pair_card[i] >= 0 && (c->pair_path[i] == NICFIT_PATH_PHB ||
						c->pair_path[i] == NICFIT_PATH_NODE);
	if (mid)
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_GDR_LEVEL,
				  "export NCCL_NET_GDR_LEVEL=PHB when GPU and NIC share a socket (NCCL has no "
				  "NODE level: two host bridges of one NUMA node are PHB to it, on AMD EPYC too); "
				  "check with NCCL_DEBUG=INFO that the log says 'GPU Direct RDMA Enabled'",
				  "GPU and back-end card sit on separate root ports of the same socket (path PHB or "
				  "NODE, no PCIe switch between them). NCCL uses GPUDirect RDMA by default only up to "
				  "PXB (a shared PCIe switch), so on this server it must be allowed explicitly.");
}

/*
 * R6, a Socket Direct card (docs/rules.md): its main card and its
 * auxiliary card (the harness between them carries the second PCIe link)
 * go in two slots on two CPU sockets, so each socket reaches the network
 * over its own x16 link and the card moves what both links carry: NVIDIA
 * sells MCX654106A-HCAT as the way to HDR 200Gb/s in Gen3 servers, whose
 * one x16 link carries about 103 Gb/s. With no free slot on another
 * socket only the main card's link is counted: a warning, since the plan
 * then buys a card for a speed it cannot reach.
 */
static void rule_socket_direct(struct nicfit_plan *p, const struct plan_choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	char s1[40], s2[40];
	int j;

	if (c->sd_links < 2)
		return;
	for (j = 0; j < p->be_cards; j++) {
		const struct nicfit_slot *m = &sv->slots[c->nic_slots[j]];
		const struct nicfit_slot *a = c->aux_slots[j] >= 0 ? &sv->slots[c->aux_slots[j]] : NULL;
		struct nicfit_nic_fit fm, fa;
		struct nicfit_card half;

		memset(&fm, 0, sizeof(fm));
		memset(&fa, 0, sizeof(fa));
		sd_half(&p->be_card, sd_nic(p, &p->be_card), &half);
		one_slot(p, &half, m, 1, &fm);
		if (!a) {
			nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_SOCKET_DIRECT_ONE_SLOT,
					  "a server with a free x16 slot on each CPU socket, or a single-slot "
					  "card for this server's PCIe generation",
					  "%s is a Socket Direct card (two PCIe x%d links, one per CPU socket) but "
					  "%s has no free slot on another socket for its auxiliary card: with the "
					  "main card alone in slot %s (%s) only its PCIe Gen%d x%d link is counted, "
					  "%.1f Gb/s.", p->be_part, half.pcie_width, sv->e.name, m->name,
					  nicfit__plan_sock_name(sv, m->socket, s1, sizeof(s1)), fm.link_gen, fm.link_width,
					  fm.pcie_gbps);
			continue;
		}
		one_slot(p, &half, a, 1, &fa);
		plan_decide(&p->decisions, "R6", 1,
			    "Socket Direct: %s's main card in slot %s (%s) and its auxiliary card in "
			    "slot %s (%s), joined by the harness: PCIe Gen%d x%d + Gen%d x%d = "
			    "%.1f + %.1f = %.1f Gb/s usable, each socket on its own link.", p->be_part,
			    m->name, nicfit__plan_sock_name(sv, m->socket, s1, sizeof(s1)), a->name,
			    nicfit__plan_sock_name(sv, a->socket, s2, sizeof(s2)), fm.link_gen, fm.link_width,
			    fa.link_gen, fa.link_width, fm.pcie_gbps, fa.pcie_gbps,
			    fm.pcie_gbps + fa.pcie_gbps);
	}
}

void nicfit__plan_describe_placement(struct nicfit_plan *p, const struct plan_choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	struct nicfit_buf gp;
	char sock[40];
	int i, j;

	if (c->ngpu_placed) {
		nicfit_buf_init(&gp, 0);
		gpu_list(sv, c, &gp);
		plan_decide(&p->decisions, "R6", 1,
			    "GPUs take their slots first (%s): %s.", gpu_slot_kind(p->in.gpu),
			    gp.data);
		if (nicfit_buf_error(&gp))
			p->decisions.oom = 1;
		nicfit_buf_release(&gp);
	}
	for (j = 0; j < p->be_cards; j++) {
		const struct nicfit_slot *s = &sv->slots[c->nic_slots[j]];
		int local = 0, near = -1;

		for (i = 0; i < c->ngpu_placed; i++) {
			int gs = sv->slots[c->gpu_slots[i]].socket;

			local += gs == s->socket || (c->sd_links > 1 && c->aux_slots[j] >= 0 &&
						     gs == sv->slots[c->aux_slots[j]].socket);
			if (near < 0 && c->pair_card[i] == j && c->pair_path[i] <= NICFIT_PATH_PXB)
				near = i;
		}
		if (near >= 0) {
			plan_decide(&p->decisions, "R6", 1,
				    "Back-end card %d in slot %s: PCIe Gen%d x%d, %s, under the PCIe "
				    "switch of GPU %d (slot %s, path %s), so its GPUDirect RDMA "
				    "traffic never reaches the CPU.", j, s->name, s->gen, s->width,
				    nicfit__plan_sock_name(sv, s->socket, sock, sizeof(sock)), near,
				    sv->slots[c->gpu_slots[near]].name,
				    nicfit_path_name(c->pair_path[near]));
			continue;
		}
		plan_decide(&p->decisions, "R6", 1,
			    "Back-end card%s in slot %s: PCIe Gen%d x%d, %s, %s%s.",
			    p->be_cards > 1 ? " (one of several)" : "", s->name, s->gen, s->width,
			    s->full_height ? "full height" : "low profile",
			    nicfit__plan_sock_name(sv, s->socket, sock, sizeof(sock)),
			    c->ngpu_placed == 0 ? "" : local == c->ngpu_placed ?
			    (c->sd_links > 1 && c->aux_slots[j] >= 0 ?
				" - with its auxiliary card, a half on every GPU's socket, so GPUDirect "
				"RDMA traffic stays off the inter-socket link" :
				" - the same socket as every GPU, so GPUDirect RDMA traffic stays off the "
				"inter-socket link") : local ? " - the same socket as some of the GPUs" :
			    " - no GPU on this socket");
	}
	rule_socket_direct(p, c);
	rule_cross_socket(p, c);
	rule_gdr_level(p, c);
}

int nicfit__plan_slot_listed(const char *list, const char *name)
{
	size_t n = name ? strlen(name) : 0;
	const char *s = list;

	while (s && n) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len == n && !memcmp(s, name, n))
			return 1;
		s = e ? e + 1 : NULL;
	}
	return 0;
}

/* 1 when slot use u is the card the host already has in that slot. */
static int installed_use(const struct nicfit_plan *p, const struct nicfit_plan_slotuse *u)
{
	const struct nicfit_plan_input *in = &p->in;

	if (!strncmp(u->what, "front-end", 9))
		return p->fe_installed && p->fe_slot >= 0 &&
		       !strcmp(in->server->slots[p->fe_slot].name, u->slot);
	if (!strncmp(u->what, "back-end", 8))
		return in->installed_cards > 0 && nicfit__plan_slot_listed(in->installed_slot, u->slot);
	return 0;
}

/*
 * R6, slot-holds-card: a server read from a host (plan --from-host) says
 * what each slot holds now; a GPU or card the plan puts in a slot that
 * holds another card means taking that card out, which the plan says
 * rather than leave to the bill of materials (a note: the card may be
 * spare, or the one the plan should have used had its part been known).
 */
void nicfit__plan_rule_slot_holds(struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	int k, i;

	for (k = 0; k < p->nslots; k++) {
		const struct nicfit_plan_slotuse *u = &p->slots[k];

		for (i = 0; i < sv->nslots && (!sv->slots[i].name ||
					       strcmp(sv->slots[i].name, u->slot)); i++)
			;
		if (i == sv->nslots || !sv->slots[i].holds || installed_use(p, u))
			continue;
		plan_decide(&p->decisions, "R6", 1, "Slot %s holds %s now: the plan puts %s there "
			    "in its place.", u->slot, sv->slots[i].holds, u->what);
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_SLOT_HOLDS_CARD,
				      "take it out for the plan's card, or, if it is the card the plan "
				      "needs, plan with it: --backend-nic PART (or --frontend-nic PART) "
				      "with its part number",
				      "Slot %s holds %s; the plan puts %s there.", u->slot,
				      sv->slots[i].holds, u->what);
	}
}
