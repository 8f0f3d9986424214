/*
 * plan_int.h - what the parts of the planner share (internal).
 *
 * plan.c runs the rules in order, one file per group: plan_fit.c (R1,
 * R2), plan_frontend.c (R3, R4), plan_backend.c (R5) with plan_place.c
 * (R6, over the search of plan_search.c, the slot checks of plan_slot.c
 * and Socket Direct's pair of plan_sd.c; the front-end card's slot is
 * plan_frontend.c's), plan_fabric.c (R7, R8), plan_parts.c (R9-R11, the
 * verdict); plan_render.c and plan_svg.c render the result. Each
 * records into the plan through nicfit__plan_find() (plan_result.c) and
 * plan_decide() (nicfit__decide() with its text written by plan_fmt.c,
 * which also writes the plan's other texts: plan_fmt() for snprintf());
 * the request's helpers are in plan_input.c. Calls go from plan.c to the
 * rule files, from R5 to R6, and from every rule file to plan_result.c,
 * plan_fmt.c and plan_input.c: no cycle.
 */
#ifndef NICFIT_PLAN_INT_H
#define NICFIT_PLAN_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "plan_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "core/fmt_int.h"
#include "core/finding_int.h"
#include "core/gpu_stack_int.h"
#include "nicfit/plan.h"

/*
 * The catalog's NICs as the one array they are (catalog_int.h): walked by
 * index, not fetched one call at a time. *count gets how many.
 */
static inline const struct nicfit_nic *nicfit__plan_nics(const struct nicfit_catalog *catalog,
							 size_t *count)
{
	*count = nicfit_catalog_count(catalog, NICFIT_KIND_NIC);
	return *count ? nicfit_catalog_nic(catalog, 0) : NULL;
}

/*
 * The software of the plan's GPU maker (core/gpu_stack_int.h): the
 * collective library, GPUDirect path and tools every piece of advice
 * names. NVIDIA's when no GPU is given.
 */
static inline const struct nicfit__gpu_stack *nicfit__plan_stack(const struct nicfit_plan *p)
{
	const struct nicfit_gpu *g = p->in.gpu;

	return nicfit__gpu_stack_of(g ? g->vendor : NULL, g ? g->e.name : NULL);
}

/*
 * Raise a finding of the plan: sev, code, an optional fix (NULL or ""
 * for none) and the message. Returns the record (for a fix set later) or
 * NULL when memory ran out (p->findings.oom is then set, and the plan
 * fails with NICFIT_E_NOMEM).
 */
struct nicfit_finding *nicfit__plan_find(struct nicfit_plan *p, enum nicfit_severity sev,
					 enum nicfit__code code, const char *fix,
					 const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/*
 * A new, zeroed cable or bill-of-materials line at the end of the plan's
 * list, or NULL when memory ran out (p->findings.oom is then set, which
 * fails the plan, as for the findings).
 */
struct nicfit_plan_cable *nicfit__plan_new_cable(struct nicfit_plan *p);
struct nicfit_plan_line *nicfit__plan_new_line(struct nicfit_plan *p);

/* plan_input.c */
int nicfit__plan_is_training(enum nicfit_workload w);
/*
 * Accelerators with their own scale-out ports whose scale-up group is
 * smaller than the server (Intel's HL-338 PCIe cards: a top board joins 4
 * of 8): the groups of one server reach each other only over those ports.
 */
int nicfit__plan_scaleup_split(const struct nicfit_plan_input *in);
/* plan_rack.c: a rack-scale system (NVL72) as the unit */
int nicfit__plan_read_racks(struct nicfit_reader *r, struct nicfit_plan_input *in);
int nicfit__plan_racks(const struct nicfit_plan *p);
void nicfit__plan_rack_text(struct nicfit_emit *e, const struct nicfit_plan *p, const char *bold,
			    const char *reset);
void nicfit__plan_rack_json(struct nicfit_emit *e, const struct nicfit_plan *p);
int nicfit__plan_domain_trays(const struct nicfit_plan *p, int per_server);
int nicfit__plan_rule_domain_only(const struct nicfit_catalog *cat, struct nicfit_plan *p,
				  const char *what, int servers);
int nicfit__plan_split_domain(struct nicfit_plan *p, double pp, double toks);
int nicfit__plan_split_domain_only(const struct nicfit_catalog *cat, struct nicfit_plan *p,
				   const char *what);
int nicfit__plan_domain_replicas(const struct nicfit_plan *p, int k, int *largest, int *part);
int nicfit__plan_domain_step(struct nicfit_plan *p,
			     void (*split)(struct nicfit_plan *, struct nicfit_step_job *));

/* plan_spectrumx.c: Spectrum-X as the back-end fabric */
int nicfit__plan_spectrum_x_ok(const struct nicfit_plan *p, const struct nicfit_nic *n);
void nicfit__plan_rule_spectrum_x(struct nicfit_plan *p);

/* plan_builtin.c: the compute NICs a server is built with */
const struct nicfit_nic *nicfit__plan_builtin_nic(const struct nicfit_catalog *cat,
						  const struct nicfit_server *sv);
int nicfit__plan_builtin_count(const struct nicfit_server *sv);
int nicfit__plan_rule_builtin(struct nicfit_plan *p, const struct nicfit_nic *builtin,
			      const struct nicfit_nic *asked);
int nicfit__plan_builtin_fabric_ib(const struct nicfit_nic *builtin);
const struct nicfit_nic *nicfit__plan_builtin_idle(const struct nicfit_catalog *cat,
						   const struct nicfit_plan *p, int *per_server);
void nicfit__plan_builtin_idle_slots(const struct nicfit_catalog *cat, struct nicfit_plan *p);

/*
 * A what-if card (--backend-nic, --frontend-nic; which 0 or 1): the
 * catalog's, or else one decoded from its part number (held in
 * p->rule_part[which], p->rule_nic[which]). NULL with err set when
 * neither knows it.
 */
const struct nicfit_nic *nicfit__plan_whatif_card(const struct nicfit_catalog *cat,
						  struct nicfit_plan *p, int which,
						  const char *part, const char *what,
						  struct nicfit_error *err);

/* plan_fit.c: R1, R2 */
void nicfit__plan_rule_fit(struct nicfit_plan *p);
void nicfit__plan_rule_backend_needed(const struct nicfit_catalog *cat, struct nicfit_plan *p);
void nicfit__plan_explain_backend(struct nicfit_plan *p);
/* R1 again on the GPUs R6 placed, once placement is known */
void nicfit__plan_fit_placed(struct nicfit_plan *p);

/*
 * plan_replicas.c: R2's replicas before splits, once the split's step is
 * timed over the back end, and its sentence at the end of the verdict
 */
void nicfit__plan_replicas_first(struct nicfit_plan *p);
/* plan_serving.c: disaggregated serving (R2, R9); plan_ckpt.c: checkpoints (R3, R9) */
int nicfit__plan_read_serving(struct nicfit_reader *r, struct nicfit_plan_input *in);
int nicfit__plan_serving_backend(struct nicfit_plan *p);
void nicfit__plan_serving(struct nicfit_plan *p);
void nicfit__plan_serving_verdict(struct nicfit_plan *p);
void nicfit__plan_serving_text(struct nicfit_emit *e, const struct nicfit_plan *p);
void nicfit__plan_serving_json(struct nicfit_emit *e, const struct nicfit_plan *p);
void nicfit__plan_serving_input_json(struct nicfit_emit *e, const struct nicfit_plan_input *in);
void nicfit__plan_checkpoint(struct nicfit_plan *p);
void nicfit__plan_ckpt_json(struct nicfit_emit *e, const struct nicfit_plan *p);
void nicfit__plan_replicas_verdict(struct nicfit_plan *p);

/* plan_frontend.c: R3, R4 */
void nicfit__plan_rule_frontend(const struct nicfit_catalog *cat, struct nicfit_plan *p);

/*
 * Per-card rates within half a Gb/s are the same rate when placements or
 * cards are compared (R5, R6): below what the estimates print and what a
 * buyer would pay for.
 */
#define PLAN_SAME_RATE_GBPS 0.5
/*
 * A card in another slot, or another card, "gives the same speed" when
 * it moves 95% of what the plan's card moves where the plan put it: the
 * difference is then below what NCCL's own variance shows (R5, R6).
 */
#define PLAN_FULL_SPEED_SHARE 0.95
/*
 * The slowest port that serves as a front end on its own: 10GbE moves a
 * 70B model's 4-bit weights in well under a minute and the serving
 * traffic of hundreds of streams (kB/s each) in a fraction of a percent,
 * so an onboard 10GbE port makes a front-end card unnecessary (R3, and
 * R6's OCP front-end card, plan_place.c).
 */
#define PLAN_FRONTEND_MIN_GBPS 10.0

/* R6: plan_slot.c, plan_sd.c, plan_search.c, plan_place.c */
/* A placement of the GPUs and the back-end cards, and how good it is. */
struct plan_choice {
	int gpu_slots[NICFIT_PLAN_MAX_GPUS];
	int nic_slots[NICFIT_PLAN_MAX_CARDS];
	int ngpu_placed;
	double per_card;      /* effective Gb/s of the weakest card */
	int meets;
	int local;            /* GPUs sharing a socket with a card */
	int near;             /* GPUs with a card at PIX or PXB (under a shared PCIe switch) */
	int balance;          /* how far the cards' sockets are from the GPUs' (0: in proportion) */
	int role_miss;        /* cards in slots the vendor meant for something else */
	int pair_card[NICFIT_PLAN_MAX_GPUS];       /* each GPU's card (index into nic_slots) */
	enum nicfit_path pair_path[NICFIT_PLAN_MAX_GPUS];
	int gpu_sockets;      /* sockets the GPUs span: fewer keeps GPU peer traffic local */
	int waste;            /* slot lanes beyond the card's */
	int order;            /* sum of slot positions: follow the server's slot order */
	int valid;
	/*
	 * Socket Direct (sd_links 2): each card's auxiliary slot on another
	 * socket (-1: none free), how many cards lack one, and the half each
	 * GPU pairs with (its slot).
	 */
	int sd_links;
	int aux_slots[NICFIT_PLAN_MAX_CARDS];
	int aux_missing;
	int pair_slot[NICFIT_PLAN_MAX_GPUS];
};

/*
 * The PCIe path class between slots a and b of sv as the slot map tells
 * it (docs/rules.md, R6): PIX under one switch, PXB under switches joined
 * below the CPU (a cascade), PHB on one socket (separate root ports, or
 * switches on separate root ports: nvidia-smi says NODE when the root
 * ports are on different host bridges, which a slot map does not
 * record), SYS across sockets (plan_slot.c). nicfit__plan_switch_path():
 * the same for a socket and switch index (-1: a root port) each.
 */
enum nicfit_path nicfit__plan_path(const struct nicfit_server *sv, int a, int b);
enum nicfit_path nicfit__plan_switch_path(const struct nicfit_server *sv, int sock_a, int sw_a,
					  int sock_b, int sw_b);
/*
 * The narrowest link (lanes x GT/s) from switch w of sv to the CPU, its
 * own upstream link or one of a switch above it in a cascade: 1 with its
 * generation and width in *gen and *width, 0 when w is not a switch.
 */
int nicfit__plan_switch_uplink(const struct nicfit_server *sv, int w, int *gen, int *width);
/* The number of slots of sv the vendor meant for role r. */
int nicfit__plan_role_slots(const struct nicfit_server *sv, enum nicfit_slot_role r);

/*
 * What card c moves in slot s alone under the plan's protocol, ports
 * used; out (or NULL) gets the whole fit (plan_slot.c).
 */
double nicfit__plan_one_slot(const struct nicfit_plan *p, const struct nicfit_card *c,
			     const struct nicfit_slot *s, int ports, struct nicfit_nic_fit *out);
/*
 * What card c moves in slot s under the plan's protocol, ports used: the
 * plan's Socket Direct card with the auxiliary card placed beside it
 * (plan_sd.c).
 */
double nicfit__plan_card_in_slot(const struct nicfit_plan *p, const struct nicfit_card *c,
				 const struct nicfit_slot *s, int ports, struct nicfit_nic_fit *out);
/*
 * plan_sd.c: the Socket Direct card card is (the plan's back-end card
 * when --backend-nic names one; NULL otherwise), one half of it (its own
 * link's lanes, no ceiling of its own), and what the pair moves with its
 * main card in slot a and its auxiliary card in slot b (NULL: none).
 */
const struct nicfit_nic *nicfit__plan_sd_nic(const struct nicfit_plan *p,
					     const struct nicfit_card *card);
void nicfit__plan_sd_half(const struct nicfit_card *c, const struct nicfit_nic *n,
			  struct nicfit_card *half);
double nicfit__plan_sd_in_slots(const struct nicfit_plan *p, const struct nicfit_card *c,
				const struct nicfit_nic *n, const struct nicfit_slot *a,
				const struct nicfit_slot *b, int ports, struct nicfit_nic_fit *out);
/*
 * The best placement of the GPUs and ncards copies of card (its catalog
 * entry nic gives its size; NULL for none), need the per-card rate that
 * meets the target. Returns 0 if none, or when memory ran out
 * (p->findings.oom is then set). The searches are plan_search.c's.
 */
int nicfit__plan_search_place(struct nicfit_plan *p, const struct nicfit_card *card,
			      const struct nicfit_nic *nic, int ncards, double need,
			      struct plan_choice *out);
/*
 * The searches of one round of candidates (R5 trying the catalog's cards
 * one after another, with one plan): two cards that fit the same slots,
 * move the same in each and have as many lanes get the same placement, so
 * it is searched once. The caller keeps it for the round, n = 0 at first.
 */
#define PLAN_PLACE_MEMO 16
struct plan_place_memo {
	int n;
	struct {
		uint32_t fit;   /* the slots the card fits, a bit each */
		int width, ngpus, ncards, rc;
		double need;
		double eff[NICFIT_MAX_SLOTS];
		struct plan_choice out;
	} v[PLAN_PLACE_MEMO];
};
/* nicfit__plan_search_place(), answered from m when it was searched already. */
int nicfit__plan_search_place_memo(struct nicfit_plan *p, struct plan_place_memo *m,
				   const struct nicfit_card *card, const struct nicfit_nic *nic,
				   int ncards, double need, struct plan_choice *out);
/*
 * Whether some slot the card fits lets it move need (a placement meets
 * need only if its weakest card does, so none does when this is 0). For a
 * card that is not Socket Direct; cheaper than a search.
 */
int nicfit__plan_card_can_meet(const struct nicfit_plan *p, const struct nicfit_card *card,
			       const struct nicfit_nic *nic, double need);
/*
 * nicfit__plan_search_place() trying every placement, without the cut
 * that skips a slot while its twin is free (plan_search.c): the tests hold
 * the two to the same answer.
 */
int nicfit__plan_search_place_all(struct nicfit_plan *p, const struct nicfit_card *card,
				  const struct nicfit_nic *nic, int ncards, double need,
				  struct plan_choice *out);
/* Record a placement in p->slots, p->gpu_slots and p->be_slots. */
void nicfit__plan_record_slots(struct nicfit_plan *p, const struct plan_choice *c);
/* Place the GPUs alone (no back end) and say where. */
void nicfit__plan_place_gpus_only(struct nicfit_plan *p);
/* The best placement of the GPUs alone: 1, 0 when none, -1 when memory ran out. */
int nicfit__plan_search_gpus(const struct nicfit_plan *p, struct plan_choice *out);
/* How many of the GPUs asked the server holds with no card (-1: out of memory). */
int nicfit__plan_gpus_alone(const struct nicfit_plan *p);
/*
 * The same, worked out once for the calls that share *memo (which starts
 * at NICFIT__PLAN_UNKNOWN) while the GPUs and the server asked stay as
 * they are: R2 asks it twice.
 */
#define NICFIT__PLAN_UNKNOWN (-2)
int nicfit__plan_gpus_alone_memo(const struct nicfit_plan *p, int *memo);
/* R6's baseboard-partly-filled: fewer GPUs than a baseboard holds. */
void nicfit__plan_find_baseboard_count(struct nicfit_plan *p);
/* R6's too-many-gpus: the server holds room of the GPUs asked, whatever else it holds. */
void nicfit__plan_find_gpu_room(struct nicfit_plan *p, int room);
/* plan_storage.c: R3's storage and in-band NICs, after the placements */
void nicfit__plan_rule_storage(const struct nicfit_catalog *cat, struct nicfit_plan *p);
/* A catalog NIC as the card model perf.h computes with (plan_card.c). */
void nicfit__plan_fill_card(struct nicfit_card *c, const struct nicfit_nic *n);
/*
 * Can card c (catalog entry n: its form factor and slot width) go in slot
 * s (plan_slot.c)?
 */
int nicfit__plan_card_fits_slot(const struct nicfit_card *c, const struct nicfit_nic *n,
				const struct nicfit_slot *s);
/*
 * ", full height" (", full height, full length") for a form factor that
 * keeps a card out of low-profile (half-length) slots, ", double width"
 * for a dual-slot card, else "": for the messages that say a card has no
 * slot.
 */
const char *nicfit__plan_form_words(const struct nicfit_nic *n);
/* "socket 1", or the vendor's name for it ("socket 1 (CPU2)"), into b (plan_place.c). */
const char *nicfit__plan_sock_name(const struct nicfit_server *s, int socket, char *b, size_t n);
/*
 * The OCP front-end card to make the plan again with when the GPUs and
 * back-end cards left R3's card no slot and an OCP slot is free, or NULL
 * (plan_place.c).
 */
const struct nicfit_nic *nicfit__plan_frontend_ocp(const struct nicfit_catalog *cat,
						   const struct nicfit_plan *p);
/* plan_frontend.c: an add-in front-end card in a free slot, after the GPUs and back-end cards */
void nicfit__plan_place_frontend(struct nicfit_plan *p);
/* 1 when name is one of the comma-separated slot names of list (installed_backend_slot; plan_slot.c). */
int nicfit__plan_slot_listed(const char *list, const char *name);
/* R6: slot-holds-card for each slot a host's card sits in that the plan gives to another. */
void nicfit__plan_rule_slot_holds(struct nicfit_plan *p);
/* Say where the GPUs and cards went, and what the placement costs. */
void nicfit__plan_describe_placement(struct nicfit_plan *p, const struct plan_choice *c);

/*
 * R6, Socket Direct: note the Socket Direct card --backend-nic names
 * (p->be_sd_nic), so that its placement takes two slots on two sockets.
 */
void nicfit__plan_socket_direct_asked(const struct nicfit_catalog *cat, struct nicfit_plan *p);

/* plan_frontend.c: R3's converged front end, once the storage NICs have their slots */
void nicfit__plan_rule_converged(struct nicfit_plan *p);

/* plan_backend.c: R5 (and the fabric's choice, R7's first part) */
void nicfit__plan_rule_backend(const struct nicfit_catalog *cat, struct nicfit_plan *p);

/* plan_fabric.c: R7, R8 */
void nicfit__plan_fabric(struct nicfit_plan *p);
/* "mlxconfig -d <PCI address> set LINK_TYPE_P1=2 LINK_TYPE_P2=2": every port of the VPI card */
#define NICFIT__PLAN_LINK_TYPES_MAX 128
void nicfit__plan_link_types(const struct nicfit_plan *p, char *buf, size_t size);
void nicfit__plan_cables(const struct nicfit_catalog *cat, struct nicfit_plan *p);

/* plan_parts.c: R9-R11 and the verdict */
void nicfit__plan_estimates(struct nicfit_plan *p);
void nicfit__plan_bom(const struct nicfit_catalog *cat, struct nicfit_plan *p);
void nicfit__plan_notes(struct nicfit_plan *p);
void nicfit__plan_verdict(struct nicfit_plan *p);

/* plan_card.c: can a card of these RDMA kinds run the plan's fabric? */
int nicfit__plan_rdma_ok(const struct nicfit_plan *p, unsigned rdma);

/*
 * plan_traffic.c: the job's step (R9's model, used by R5). _traffic works
 * out compute and traffic after R2, on the GPUs a server holds (*alone:
 * nicfit__plan_gpus_alone_memo()'s memo, shared with R2's own count);
 * _traffic_placed works it out again when the back-end card R6 placed
 * left fewer (placed, beside the card in slot); _traffic_judge times it
 * over the back end R5 chose and says whether it hides (or what a
 * cheaper card would); _traffic_decide_gpus is R2's check that more GPUs in one server
 * would hold a model before it is split across servers.
 */
void nicfit__plan_traffic(struct nicfit_plan *p, int *alone);
void nicfit__plan_traffic_placed(struct nicfit_plan *p, int placed, const char *slot);
void nicfit__plan_traffic_judge(const struct nicfit_catalog *cat, struct nicfit_plan *p);
int nicfit__plan_add_gpus_first(struct nicfit_plan *p);
int nicfit__plan_gpu_room(const struct nicfit_plan *p);

/* "RoCE v1" for a back-end card whose generation has no RoCE v2 (ConnectX-3), else "RoCE v2". */
const char *nicfit__plan_roce_name(const struct nicfit_plan *p);

/*
 * snprintf(d, n, "%s", s) without the printf machinery (a plan copies
 * tens of names into its fixed fields): s cut to n - 1 bytes, NULL
 * written as glibc writes it.
 */
static inline void nicfit__plan_copy(char *d, size_t n, const char *s)
{
	size_t k;

	if (!n)
		return;
	if (!s)
		s = "(null)";
	k = strlen(s);
	if (k >= n)
		k = n - 1;
	memcpy(d, s, k);
	d[k] = '\0';
}

/*
 * A fixed buffer written piece by piece, cut as snprintf() cuts (to its
 * size - 1 bytes, always terminated): for the plan's texts made only of
 * strings and integers, which printf would parse its format for.
 */
struct plan_str {
	char *d;
	size_t n, len;
};

static inline void nicfit__plan_str_init(struct plan_str *s, char *d, size_t n)
{
	s->d = d;
	s->n = n;
	s->len = 0;
	if (n)
		d[0] = '\0';
}

static inline void nicfit__plan_str_add(struct plan_str *s, const char *t)
{
	size_t k;

	if (!t)
		t = "(null)";
	k = strlen(t);
	if (s->len + 1 >= s->n)
		return;
	if (k > s->n - 1 - s->len)
		k = s->n - 1 - s->len;
	memcpy(s->d + s->len, t, k);
	s->len += k;
	s->d[s->len] = '\0';
}

/* v as "%d" writes it. */
static inline void nicfit__plan_str_int(struct plan_str *s, long v)
{
	char t[24], *q = t + sizeof(t) - 1;
	unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;

	*q = '\0';
	do {
		*--q = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--q = '-';
	nicfit__plan_str_add(s, q);
}

/*
 * plan_fmt.c: nicfit__decide() / nicfit__vfind() with their text written by
 * fmt.c's nicfit__fmt() (snprintf() to the byte, cheaper), which the rule
 * files also write their other texts with.
 */
/* The names the rule files write them by (plan_fmt as long as snprintf, for the layout). */
#define plan_fmt nicfit__fmt
#define plan_decide nicfit__plan_decide
struct nicfit_finding *nicfit__plan_decide(struct nicfit_findings *fs, const char *rule,
					   int applied, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
struct nicfit_finding *nicfit__plan_vfind(struct nicfit_findings *fs, enum nicfit_severity sev,
					  enum nicfit__code code, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/*
 * plan_riser.c, R6: for a server with riser configurations, the one that
 * holds the GPUs asked for (or the one asked for); p->in.server becomes
 * p->riser_view, that configuration's slots, and the slot pins follow.
 */
void nicfit__plan_riser(struct nicfit_plan *p);
/* The decision that says which configuration and why, in its place among R6's. */
void nicfit__plan_riser_decide(struct nicfit_plan *p);

/* plan_svg.c: the plan as a picture of the server's slots (--format svg) */
void nicfit__plan_svg(struct nicfit_emit *e, const struct nicfit_plan *p);

#endif
