/*
 * plan.c - the decision system of `nicfit plan` (see nicfit/plan.h).
 *
 * The rules, in the order they run (docs/rules.md explains each; the
 * files that hold them are listed in plan_int.h):
 *   R0  the server: a generic profile is flagged
 *   R1  model fit: weights + KV cache (or training state) against one server
 *   R2  back end or not: only when one model or job spans servers, or RDMA storage
 *   R3  front end: onboard ports when they suffice; load time; serving traffic;
 *       storage/in-band NICs in the vendor's slots, the front end converged onto them
 *   R4  out-of-band management port
 *   R5  back-end card: RDMA only; the speed the slot can feed; cheapest that meets it
 *   R6  slots: GPUs first, then the card on the GPUs' socket
 *   R7  fabric: RoCE v2 with its switch checklist, or InfiniBand with a subnet manager
 *   R8  cables per link
 *   R9  estimates: gradient all-reduce per step, load time, serving bandwidth
 *   R10 bill of materials with sourced prices only
 *   R11 findings: what the user should know
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_int.h"

/* ---- the whole plan ----------------------------------------------------- */

_Static_assert(offsetof(struct nicfit_plan, rule_nic) ==
		       offsetof(struct nicfit_plan, rule_part) +
			       sizeof(((struct nicfit_plan *)0)->rule_part),
	       "nicfit_plan() clears all but rule_part, which rule_nic must follow");
_Static_assert(offsetof(struct nicfit_plan, slots) < offsetof(struct nicfit_plan, est) &&
		       offsetof(struct nicfit_plan, est) < offsetof(struct nicfit_plan, riser_view) &&
		       offsetof(struct nicfit_plan, riser_view) < offsetof(struct nicfit_plan, rule_part),
	       "plan_clear() skips slots, est, riser_view and rule_part in that order");

#define PLAN_END_OF(m) (offsetof(struct nicfit_plan, m) + sizeof(((struct nicfit_plan *)0)->m))

/* Bytes [from, to) of p zeroed. */
static void clear_range(struct nicfit_plan *p, size_t from, size_t to)
{
	memset((char *)p + from, 0, to - from);
}

/*
 * Everything zero but what is written whole before anything reads it: the
 * slot and estimate rows (each row is filled when nslots or nest counts
 * it), the riser view (make_view() copies the server into it when the
 * server has riser configurations, and nothing reads it otherwise), and
 * the two what-if part records (which nicfit_decode() fills whole, and
 * only for a card the catalog lacks): 42 kB of the plan's 47 are not
 * written twice; 5 kB are zeroed, where 14 kB were.
 */
static void plan_clear(struct nicfit_plan *p)
{
	clear_range(p, 0, offsetof(struct nicfit_plan, slots));
	clear_range(p, PLAN_END_OF(slots), offsetof(struct nicfit_plan, est));
	clear_range(p, PLAN_END_OF(est), offsetof(struct nicfit_plan, riser_view));
	clear_range(p, PLAN_END_OF(riser_view), offsetof(struct nicfit_plan, rule_part));
	clear_range(p, offsetof(struct nicfit_plan, rule_nic), sizeof(*p));
}

/* The plan, with ocp (or NULL) as the OCP front-end card R6 chose on a first pass. */
static int plan_once(const struct nicfit_catalog *cat, const struct nicfit_plan_input *in,
		     const struct nicfit_nic *ocp, struct nicfit_plan *p, struct nicfit_error *err)
{
	int i;

	plan_clear(p);
	p->in = *in;
	for (i = 0; i < NICFIT_PLAN_MAX_GPUS; i++)
		p->gpu_slots[i] = p->pair_card[i] = -1;
	for (i = 0; i < NICFIT_PLAN_MAX_CARDS; i++)
		p->be_slots[i] = p->be_aux_slots[i] = -1;
	for (i = 0; i < NICFIT_PLAN_MAX_GPUS; i++)
		p->pair_slot[i] = -1;
	p->be_sd_links = 1;
	p->fe_slot = -1;
	for (i = 0; i < NICFIT_PLAN_MAX_STORAGE; i++)
		p->st_slots[i] = -1;
	p->be_limited_by = "";
	p->fe_ocp = ocp;
	if (!in->server)
		return nicfit_error_set(err, NICFIT_E_USAGE, "no server");
	nicfit__plan_riser(p);
	/* R0: a generic profile's slot map is a guess at a typical server */
	if (in->server->generic)
		plan_decide(&p->decisions, "R0", 1,
			    "Server: %s - a generic profile, not a real model: check the "
			    "slot map against your server's manual.", in->server->e.name);
	nicfit__plan_rule_fit(p);
	nicfit__plan_rule_backend_needed(cat, p);
	nicfit__plan_explain_backend(p);
	nicfit__plan_rule_frontend(cat, p);
	nicfit__plan_socket_direct_asked(cat, p);
	nicfit__plan_riser_decide(p);
	nicfit__plan_find_baseboard_count(p);
	if (p->backend_needed)
		nicfit__plan_rule_backend(cat, p);
	else {
		nicfit__plan_place_gpus_only(p);
		nicfit__plan_builtin_idle_slots(cat, p);
	}
	nicfit__plan_rule_storage(cat, p);
	nicfit__plan_rule_converged(p);
	nicfit__plan_place_frontend(p);
	nicfit__plan_rule_slot_holds(p);
	nicfit__plan_fabric(p);
	nicfit__plan_cables(cat, p);
	nicfit__plan_estimates(p);
	nicfit__plan_serving(p);
	nicfit__plan_checkpoint(p);
	nicfit__plan_bom(cat, p);
	nicfit__plan_notes(p);
	nicfit__plan_fit_placed(p);
	nicfit__plan_replicas_first(p);
	nicfit__plan_verdict(p);
	nicfit__plan_replicas_verdict(p);
	nicfit__plan_serving_verdict(p);
	if (p->findings.oom || p->decisions.oom) {
		nicfit_plan_release(p);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	return 0;
}

/*
 * --kv-over auto found that a disaggregated plan's KV cache fits the
 * storage/in-band NICs and nothing else needs a back end
 * (plan_serving.c): the plan made again with the cache over them, so
 * that R2 plans no back end and every later rule follows (the seed's
 * rule: no back end where none is needed). The first pass's time for one
 * request over the back end is kept as the trade-off R9 names.
 */
static int plan_kv_storage(const struct nicfit_catalog *cat, const struct nicfit_plan_input *in,
			   struct nicfit_plan *p, struct nicfit_error *err)
{
	struct nicfit_plan_input again = *in;
	const struct nicfit_nic *ocp;
	int rc;

	again.kv_over = NICFIT_KV_OVER_STORAGE;
	again.kv_over_auto = 1;
	again.kv_backend_s = p->serving.kv_request_s;
	nicfit_plan_release(p);
	if ((rc = plan_once(cat, &again, NULL, p, err)) || !(ocp = nicfit__plan_frontend_ocp(cat, p)))
		return rc;
	nicfit_plan_release(p);
	return plan_once(cat, &again, ocp, p, err);
}

/*
 * The plan; made a second time, with the OCP card in the OCP slot, when
 * the GPUs and back-end cards left R3's front-end card no PCIe slot
 * (nicfit__plan_frontend_ocp(), plan_place.c): the front end's card, port
 * speed, load time, cables and bill of materials then all follow the card
 * the server can hold.
 */
int nicfit_plan(const struct nicfit_catalog *cat, const struct nicfit_plan_input *in,
		struct nicfit_plan *p, struct nicfit_error *err)
{
	const struct nicfit_nic *ocp;
	int rc = plan_once(cat, in, NULL, p, err);

	if (!rc && p->kv_storage_fits)
		return plan_kv_storage(cat, in, p, err);
	if (rc || !(ocp = nicfit__plan_frontend_ocp(cat, p)))
		return rc;
	nicfit_plan_release(p);
	return plan_once(cat, in, ocp, p, err);
}

/* ---- spec in, document out --------------------------------------------- */

int nicfit_plan_exit_code(enum nicfit_severity worst)
{
	return worst == NICFIT_SEV_CRITICAL ? 2 : worst == NICFIT_SEV_WARNING ? 1 : 0;
}

/*
 * --example NAME: the example's settings, then the spec's own (which
 * override them), run as one plan. "true" (a bare --example) is the
 * inference example.
 */
/* the spec's "example" pair, for its line and column */
static const struct nicfit_spec_pair *example_pair(const struct nicfit_spec *spec)
{
	size_t i;

	for (i = 0; i < spec->n; i++)
		if (!strcmp(spec->pairs[i].key, "example"))
			return &spec->pairs[i];
	return NULL;
}

static int run_example(const struct nicfit_catalog *cat, struct nicfit_spec *spec, const char *ex,
		       struct nicfit_emit *e, enum nicfit_severity *worst, struct nicfit_error *err)
{
	const struct nicfit_plan_example *x = NULL;
	struct nicfit_spec *merged;
	size_t i;
	int rc;

	if (!strcmp(ex, "true"))
		ex = "inference";
	for (i = 0; nicfit_plan_examples[i].name; i++)
		if (!strcmp(nicfit_plan_examples[i].name, ex))
			x = &nicfit_plan_examples[i];
	if (!x) {
		const struct nicfit_spec_pair *at = example_pair(spec);
		const char *names[16];

		for (i = 0; nicfit_plan_examples[i].name && i < 15; i++)
			names[i] = nicfit_plan_examples[i].name;
		names[i] = NULL;
		ex = nicfit_suggest(ex, names);
		return nicfit_error_at(err, spec->from_data ? NICFIT_E_DATA : NICFIT_E_USAGE,
				       spec->from_data ? spec->input : "--example",
				       at ? at->line : 0, at ? at->col : 0,
				       "%sno example by that name%s%s%s "
				       "(inference, replicas, training, capped, gen4, lab, x710, split)",
				       spec->from_data ? "example: " : "",
				       ex ? " (did you mean '" : "", ex ? ex : "", ex ? "'?)" : "");
	}
	merged = calloc(1, sizeof(*merged));
	if (!merged)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	nicfit_spec_init(merged, spec->input);
	merged->from_data = spec->from_data;
	rc = 0;
	for (i = 0; x->pairs[i] && !rc; i += 2)
		rc = nicfit_spec_add(merged, x->pairs[i], x->pairs[i + 1], err);
	for (i = 0; i < spec->n && !rc; i++)
		if (strcmp(spec->pairs[i].key, "example") &&
		    !(rc = nicfit_spec_add(merged, spec->pairs[i].key, spec->pairs[i].value, err))) {
			/* a file's or a body's value keeps its line and column for errors */
			merged->pairs[merged->n - 1].line = spec->pairs[i].line;
			merged->pairs[merged->n - 1].col = spec->pairs[i].col;
		}
	if (!rc)
		rc = nicfit_plan_run_judged(cat, merged, e, worst, err);
	nicfit_spec_release(merged);
	free(merged);
	return rc;
}

int nicfit_plan_run(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
		    struct nicfit_emit *e, struct nicfit_error *err)
{
	return nicfit_plan_run_judged(cat, spec, e, NULL, err);
}

int nicfit_plan_run_judged(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
			   struct nicfit_emit *e, enum nicfit_severity *worst,
			   struct nicfit_error *err)
{
	struct nicfit_plan_input in;
	struct nicfit_plan *p;
	const char *ex = nicfit_spec_get(spec, "example");
	int rc;

	if (ex)
		return run_example(cat, spec, ex, e, worst, err);
	if (worst)
		*worst = NICFIT_SEV_NONE;
	rc = nicfit_plan_input_from_spec(cat, spec, &in, err);
	if (rc)
		return rc;
	p = malloc(sizeof(*p));
	if (!p)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	rc = nicfit_plan(cat, &in, p, err);
	if (!rc)
		nicfit_plan_render(e, p);
	if (!rc && worst)
		*worst = nicfit_findings_worst(&p->findings);
	nicfit_plan_release(p);
	free(p);
	return rc;
}
