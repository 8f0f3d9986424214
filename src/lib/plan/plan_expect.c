/*
 * plan_expect.c - the expectation of `verify --plan SPEC` (see
 * nicfit/plan.h, nicfit_plan_verify_expect): what a plan's back end
 * should carry, for verify to compare measurements with.
 *
 * It reads a plan, and the planner comes after verify/ in the layering,
 * so it lives beside the planner and fills verify's expectation; verify
 * itself knows nothing of plans.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/file.h"
#include "nicfit/link.h"
#include "nicfit/plan.h"
#include "nicfit/verify.h"

/* What a plan gives: its back end, per server, over its servers. */
static int expect_from_plan(const struct nicfit_plan *pl, struct nicfit_verify_expect *x,
			    struct nicfit_error *err)
{
	char sp[32];
	int i, rc, worst = -1;

	if (!pl->backend_needed || !pl->be_cards)
		return nicfit_error_set(err, NICFIT_E_DATA, "verify: --plan: the plan needs no "
					"back-end fabric, so there is no network to measure against");
	if (pl->fabric == NICFIT_FABRIC_IB && pl->be_card.ib_rate)
		snprintf(sp, sizeof(sp), "%s", pl->be_card.ib_rate);
	else
		snprintf(sp, sizeof(sp), "%gGbE", pl->be_port_gbps);
	rc = nicfit_parse_speed(sp, "--plan", &x->link, err);
	if (rc)
		return rc;
	if (x->proto < 0)
		x->proto = pl->fabric == NICFIT_FABRIC_IB ? NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;
	if (!x->nodes)
		x->nodes = pl->in.servers > pl->servers_needed ? pl->in.servers : pl->servers_needed;
	if (!x->gpus_per_node)
		x->gpus_per_node = pl->in.gpus_per_server;
	if (!x->nics_per_node)
		x->nics_per_node = pl->be_cards * (pl->be_ports > 0 ? pl->be_ports : 1);
	if (pl->be_limited_by && !strcmp(pl->be_limited_by, "pcie") && pl->be_ports > 0)
		x->pcie_gbps = pl->be_effective_gbps / pl->be_ports;
	for (i = 0; i < pl->gpus_placed && i < NICFIT_PLAN_MAX_GPUS; i++) {
		if (pl->pair_card[i] < 0)
			continue;
		if ((int)pl->pair_path[i] > worst)
			worst = (int)pl->pair_path[i];
		x->gpus_without_gdr += pl->pair_path[i] > NICFIT_PATH_PXB;
	}
	if (worst >= 0)
		snprintf(x->path, sizeof(x->path), "%s", nicfit_path_name((enum nicfit_path)worst));
	x->source = "the plan (--plan)";
	return 0;
}

int nicfit_plan_verify_expect(const struct nicfit_catalog *cat, const char *path,
			      struct nicfit_verify_expect *x, struct nicfit_error *err)
{
	struct nicfit_spec *spec = calloc(1, sizeof(struct nicfit_spec));
	struct nicfit_plan *pl = calloc(1, sizeof(struct nicfit_plan));
	struct nicfit_plan_input in;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!spec || !pl) {
		rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		goto out;
	}
	rc = nicfit_read_file(path, NICFIT_SPEC_MAX_BYTES, &text, &len, err);
	if (rc)
		goto out;
	nicfit_spec_init(spec, strcmp(path, "-") ? path : "<stdin>");
	rc = nicfit_spec_parse_json(spec, text, len, err);
	if (!rc)
		rc = nicfit_plan_input_from_spec(cat, spec, &in, err);
	if (!rc)
		rc = nicfit_plan(cat, &in, pl, err);
	if (!rc)
		rc = expect_from_plan(pl, x, err);
	nicfit_spec_release(spec);
out:
	free(text);
	free(spec);
	if (pl)
		nicfit_plan_release(pl);
	free(pl);
	return rc;
}
