/*
 * host.c - this host as the server of a plan (see host.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host.h"
#include "nicfit/snapshot.h"
#include "nicfit/topo.h"

int cli_host_into_spec(struct nicfit_catalog *cat, const struct nicfit_audit *a,
		       struct nicfit_spec *spec)
{
	struct nicfit_host_server *h;
	struct nicfit_error err;
	char *json, n[16], gpu[64];
	int i, rc = 0, this_host;

	nicfit_error_clear(&err);
	/*
	 * A virtual machine's slots and NICs are the hypervisor's: a plan for
	 * it would have the user buy cards nobody can install there (with
	 * --server the plan is for that server, and the VM's GPUs only count).
	 */
	if (a->topo->is_virtual && !nicfit_spec_count(spec, "server"))
		return cli_error(NICFIT_E_DATA, "%s: this host is a virtual machine (%s): its PCIe "
				 "slots and NICs are the hypervisor's, so there is no card to plan "
				 "for it; plan the physical server instead (--server ID, see `nicfit "
				 "catalog list servers`)", a->topo->root, a->topo->virtual_why);
	json = nicfit_audit_host_catalog_json(a, "this-host");
	h = malloc(sizeof(*h));
	if (!json || !h) {
		free(json);
		free(h);
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	}
	/* read the audit before the overlay: it moves the catalog's entries */
	nicfit_audit_host_server(a, h);
	gpu[0] = '\0';
	for (i = 0; i < h->ngpus; i++)
		if (h->gpus[i].catalog_id) {
			snprintf(gpu, sizeof(gpu), "%s", h->gpus[i].catalog_id);
			break;
		}
	if (nicfit_catalog_overlay(cat, "this host", json, strlen(json), &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	/* the slots are this host's only when it is the server planned (not --plan's catalog one) */
	this_host = !nicfit_spec_count(spec, "server") ||
		    !strcmp(nicfit_spec_get(spec, "server"), "this-host");
	if (!nicfit_spec_count(spec, "server") && nicfit_spec_add(spec, "server", "this-host", &err))
		rc = cli_fail(&err);
	if (!rc && gpu[0] && !nicfit_spec_count(spec, "gpu") &&
	    nicfit_spec_add(spec, "gpu", gpu, &err))
		rc = cli_fail(&err);
	/* the RDMA card the host already has: plan with it unless told otherwise */
	if (!rc && !nicfit_spec_count(spec, "backend_nic")) {
		const struct nicfit_host_nic *first = NULL;
		int cards = 0;
		char slots[1024];
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
			/* every slot one of them sits in: the plan keeps each where it is */
			if (x->slot >= 0 && len + strlen(h->slot_names[x->slot]) + 2 < sizeof(slots))
				len += (size_t)snprintf(slots + len, sizeof(slots) - len, "%s%s",
							len ? "," : "", h->slot_names[x->slot]);
		}
		if (first) {
			snprintf(n, sizeof(n), "%d", cards);
			if (nicfit_spec_add(spec, "backend_nic", first->part, &err) ||
			    nicfit_spec_add(spec, "installed_backend_cards", n, &err) ||
			    (slots[0] && nicfit_spec_add(spec, "installed_backend_slot", slots, &err)))
				rc = cli_fail(&err);
		}
	}
	/*
	 * The front-end card the host already has, in a slot: the fastest of
	 * its cards the catalog knows at 10 Gb/s or more that is not of the
	 * back end's part (an X710, or the ConnectX an HGX node has for storage
	 * and the front end), unless an onboard port of that speed serves (the
	 * plan uses onboard ports first) or a front-end card was asked for.
	 */
	if (!rc && !nicfit_spec_count(spec, "frontend_nic") &&
	    !nicfit_spec_count(spec, "installed_frontend_slot") && this_host) {
		const struct nicfit_host_nic *fe = NULL;
		const char *be_part = nicfit_spec_get(spec, "backend_nic");
		int onboard = 0;

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
		    (nicfit_spec_add(spec, "frontend_nic", fe->cat_nic->e.id, &err) ||
		     nicfit_spec_add(spec, "installed_frontend_slot", h->slot_names[fe->slot],
				     &err)))
			rc = cli_fail(&err);
	}
	/* a count without a model means nothing to plan: only with a known GPU */
	if (!rc && h->ngpus && nicfit_spec_count(spec, "gpu") &&
	    !nicfit_spec_count(spec, "gpus_per_server")) {
		snprintf(n, sizeof(n), "%d", h->ngpus);
		if (nicfit_spec_add(spec, "gpus_per_server", n, &err))
			rc = cli_fail(&err);
	}
out:
	free(json);
	free(h);
	return rc;
}

void cli_host_name_archive(struct nicfit_error *err, const char *tree, const char *archive)
{
	size_t n = strlen(tree);

	if (!strncmp(err->input, tree, n) && (!err->input[n] || err->input[n] == '/'))
		snprintf(err->input, sizeof(err->input), "%s", archive);
}

int cli_host_audit(struct nicfit_catalog *cat, const char *root, struct nicfit_topo **topo,
		   struct nicfit_audit **audit)
{
	struct nicfit_error err;
	char *tmpdir = NULL, *tmproot = NULL;
	int rc;

	*topo = NULL;
	*audit = NULL;
	nicfit_error_clear(&err);
	if (!root || !*root)
		root = "/";
	if (nicfit_snapshot_is_archive(root)) {
		if (nicfit_snapshot_extract(root, &tmpdir, &tmproot, &err))
			return cli_fail(&err);
		rc = nicfit_topo_discover(tmproot, topo, &err);
		if (rc)
			cli_host_name_archive(&err, tmproot, root);
		nicfit_snapshot_remove_tree(tmpdir);
		free(tmpdir);
		free(tmproot);
	} else {
		rc = nicfit_topo_discover(root, topo, &err);
	}
	if (!rc)
		rc = nicfit_audit_judge(*topo, cat, NULL, audit, &err);
	if (rc) {
		nicfit_topo_free(*topo);
		*topo = NULL;
		return cli_fail(&err);
	}
	return 0;
}
