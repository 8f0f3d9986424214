/*
 * audit_plan_host.c - this host (or a snapshot of it) as the server of a
 * plan (see nicfit/audit.h, nicfit_audit_host_into_spec): what
 * `plan --from-host` and `audit --plan` plan with.
 *
 * It is a planning policy, but it reads an audit (the host's cards, slots
 * and GPUs as the audit names them), and the audit comes after the planner
 * in the layering, so it lives here and calls the planner's spec, not the
 * other way round. It adds the host to the catalog and fills the spec; it
 * does not plan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nicfit/audit.h"
#include "nicfit/host.h"
#include "nicfit/spec.h"

/*
 * The RDMA card the host already has: plan with it unless told otherwise.
 * The first RDMA card with a part number names the part; every card of
 * that part counts, and every slot one of them sits in is kept, so the
 * plan leaves each where it is.
 */
static int add_backend(const struct nicfit_host_server *h, struct nicfit_spec *spec,
		       struct nicfit_error *err)
{
	const struct nicfit_host_nic *first = NULL;
	int i, cards = 0;
	char slots[1024], n[16];
	size_t len = 0;

	slots[0] = '\0';
	for (i = 0; i < h->nnics; i++) {
		const struct nicfit_host_nic *x = &h->nics[i];

		if (!x->rdma || !x->part[0])
			continue;
		if (!first)
			first = x;
		if (strcasecmp(x->part, first->part))
			continue;
		cards++;
		if (x->slot >= 0 && len + strlen(h->slot_names[x->slot]) + 2 < sizeof(slots))
			len += (size_t)snprintf(slots + len, sizeof(slots) - len, "%s%s",
						len ? "," : "", h->slot_names[x->slot]);
	}
	if (!first)
		return 0;
	snprintf(n, sizeof(n), "%d", cards);
	if (nicfit_spec_add(spec, "backend_nic", first->part, err) ||
	    nicfit_spec_add(spec, "installed_backend_cards", n, err) ||
	    (slots[0] && nicfit_spec_add(spec, "installed_backend_slot", slots, err)))
		return err && err->code ? err->code : NICFIT_E_INTERNAL;
	return 0;
}

/*
 * The front-end card the host already has, in a slot: the fastest of
 * its cards the catalog knows at 10 Gb/s or more that is not of the
 * back end's part (an X710, or the ConnectX an HGX node has for storage
 * and the front end), unless an onboard port of that speed serves (the
 * plan uses onboard ports first) or a front-end card was asked for.
 */
static int add_frontend(const struct nicfit_host_server *h, struct nicfit_spec *spec,
			struct nicfit_error *err)
{
	const struct nicfit_host_nic *fe = NULL;
	const char *be_part = nicfit_spec_get(spec, "backend_nic");
	int i, onboard = 0;

	for (i = 0; i < h->nnics; i++) {
		const struct nicfit_host_nic *x = &h->nics[i];

		if (x->slot < 0 && x->port_gbps >= 10)
			onboard = 1;
		/* not the back end's cards: any other the catalog knows, RDMA or not */
		if (x->slot < 0 || !x->cat_nic || x->port_gbps < 10 ||
		    (be_part && (!strcasecmp(x->part, be_part) ||
				 !strcasecmp(x->cat_nic->e.id, be_part))))
			continue;
		if (!fe || x->port_gbps > fe->port_gbps)
			fe = x;
	}
	if (fe && !onboard &&
	    (nicfit_spec_add(spec, "frontend_nic", fe->cat_nic->e.id, err) ||
	     nicfit_spec_add(spec, "installed_frontend_slot", h->slot_names[fe->slot], err)))
		return err && err->code ? err->code : NICFIT_E_INTERNAL;
	return 0;
}

/* The spec's keys that the host fills where the spec gives none. */
static int fill_spec(const struct nicfit_host_server *h, const char *gpu, int this_host,
		     struct nicfit_spec *spec, struct nicfit_error *err)
{
	char n[16];
	int rc;

	if (!nicfit_spec_count(spec, "server") &&
	    (rc = nicfit_spec_add(spec, "server", "this-host", err)) != 0)
		return rc;
	if (gpu[0] && !nicfit_spec_count(spec, "gpu") &&
	    (rc = nicfit_spec_add(spec, "gpu", gpu, err)) != 0)
		return rc;
	if (!nicfit_spec_count(spec, "backend_nic") && (rc = add_backend(h, spec, err)) != 0)
		return rc;
	if (!nicfit_spec_count(spec, "frontend_nic") &&
	    !nicfit_spec_count(spec, "installed_frontend_slot") && this_host &&
	    (rc = add_frontend(h, spec, err)) != 0)
		return rc;
	/* a count without a model means nothing to plan: only with a known GPU */
	if (h->ngpus && nicfit_spec_count(spec, "gpu") &&
	    !nicfit_spec_count(spec, "gpus_per_server")) {
		snprintf(n, sizeof(n), "%d", h->ngpus);
		return nicfit_spec_add(spec, "gpus_per_server", n, err);
	}
	return 0;
}

int nicfit_audit_host_into_spec(struct nicfit_catalog *cat, const struct nicfit_audit *a,
				struct nicfit_spec *spec, struct nicfit_error *err)
{
	struct nicfit_host_server *h;
	char *json, gpu[64];
	int i, rc, this_host;

	/*
	 * A virtual machine's slots and NICs are the hypervisor's: a plan for
	 * it would have the user buy cards nobody can install there (with
	 * --server the plan is for that server, and the VM's GPUs only count).
	 */
	if (a->topo->is_virtual && !nicfit_spec_count(spec, "server"))
		return nicfit_error_at(err, NICFIT_E_DATA, a->topo->root, 0, 0,
				       "this host is a virtual machine (%s): its PCIe slots and "
				       "NICs are the hypervisor's, so there is no card to plan for "
				       "it; plan the physical server instead (--server ID, see "
				       "`nicfit catalog list servers`)", a->topo->virtual_why);
	json = nicfit_audit_host_catalog_json(a, "this-host");
	h = malloc(sizeof(*h));
	if (!json || !h) {
		free(json);
		free(h);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	/* read the audit before the overlay: it moves the catalog's entries */
	nicfit_audit_host_server(a, h);
	gpu[0] = '\0';
	for (i = 0; i < h->ngpus; i++)
		if (h->gpus[i].catalog_id) {
			snprintf(gpu, sizeof(gpu), "%s", h->gpus[i].catalog_id);
			break;
		}
	rc = nicfit_catalog_overlay(cat, "this host", json, strlen(json), err);
	if (!rc) {
		/* the slots are this host's only when it is the server planned (not --plan's catalog one) */
		this_host = !nicfit_spec_count(spec, "server") ||
			    !strcmp(nicfit_spec_get(spec, "server"), "this-host");
		rc = fill_spec(h, gpu, this_host, spec, err);
	}
	free(json);
	free(h);
	return rc;
}

int nicfit_audit_spec_from_host(struct nicfit_catalog *cat, const struct nicfit_host_request *req,
				struct nicfit_spec *spec, struct nicfit_error *err)
{
	struct nicfit_host *host;
	struct nicfit_audit *a = NULL;
	int rc;

	rc = nicfit_host_open(req, &host, err);
	if (rc)
		return rc;
	rc = nicfit_audit_judge(host->topo, cat, NULL, &a, err);
	if (!rc)
		rc = nicfit_audit_host_into_spec(cat, a, spec, err);
	nicfit_audit_free(a);
	nicfit_host_close(host);
	return rc;
}
