/*
 * audit_plan.c - the host against a plan made for it (see nicfit/audit.h,
 * nicfit_audit_check_plan): the plan says what the workload needs on this
 * server; the audit says what the server has and what its PCIe paths let
 * it deliver.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/finding_int.h"
#include "nicfit/audit.h"
#include "nicfit/plan.h"

#define S_PLAN "nicfit plan on this host (docs/rules.md)"

/*
 * The host's back end is "slower than planned" below BACKEND_SHORT of the
 * plan's per-server rate. The host's figure is its RDMA cards' port rates,
 * or what PCIe delivers where a card's path is narrower than its ports
 * (the PCIe model's goodput); a few percent below the plan is that model's
 * overhead, a tenth short is a different build.
 */
#define BACKEND_SHORT 0.9
/*
 * The front end is slower than planned below FRONTEND_MEETS of the plan's
 * port rate: both are nominal port rates, so only rounding is forgiven.
 */
#define FRONTEND_MEETS 0.98

static int append(struct nicfit_audit *a, enum nicfit_severity sev, enum nicfit__code code,
		  const char *fix, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Add a plan-* finding about the whole host. Returns 0 or NICFIT_E_NOMEM. */
static int append(struct nicfit_audit *a, enum nicfit_severity sev, enum nicfit__code code,
		  const char *fix, const char *fmt, ...)
{
	struct nicfit_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = nicfit__vfind(&a->findings, sev, code, "host", fmt, ap);
	va_end(ap);
	if (!f)
		return NICFIT_E_NOMEM;
	f->source = S_PLAN;
	return nicfit__finding_fix(&a->findings, f, "%s", fix);
}

/* The host's back end: RDMA cards at what their paths carry, and their fabric. */
static double host_backend(const struct nicfit_audit *a, char *fabric, size_t n)
{
	const struct nicfit_topo *t = a->topo;
	double sum = 0;
	int i, k, ib = 0, eth = 0;

	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];
		double card;

		if (d->kind != NICFIT_DEV_NIC || !d->card_lead || t->pci[d->pci].physfn >= 0)
			continue;
		for (k = i; k < a->ndevs && a->devs[k].kind == NICFIT_DEV_NIC &&
			    t->pci[a->devs[k].pci].domain == t->pci[d->pci].domain &&
			    t->pci[a->devs[k].pci].bus == t->pci[d->pci].bus &&
			    t->pci[a->devs[k].pci].dev == t->pci[d->pci].dev; k++)
			if (a->devs[k].rdma)
				break;
		if (k >= a->ndevs || !a->devs[k].rdma || a->devs[k].kind != NICFIT_DEV_NIC ||
		    t->pci[a->devs[k].pci].bus != t->pci[d->pci].bus ||
		    t->pci[a->devs[k].pci].dev != t->pci[d->pci].dev)
			continue;
		card = d->card_ports * d->port_gbps;
		if (d->card_limited_by && d->supply_gbps > 0 && d->supply_gbps < card)
			card = d->supply_gbps;
		sum += card;
	}
	for (i = 0; i < t->nrdma; i++)
		for (k = 0; k < t->rdma[i].nports; k++) {
			if (t->rdma[i].pci < 0)
				continue;
			if (!strcmp(t->rdma[i].ports[k].link_layer, "InfiniBand"))
				ib = 1;
			else if (!strcmp(t->rdma[i].ports[k].link_layer, "Ethernet"))
				eth = 1;
		}
	snprintf(fabric, n, "%s", ib && eth ? "both" : ib ? "infiniband" : eth ? "roce" : "");
	return sum;
}

static double host_frontend(const struct nicfit_audit *a)
{
	double best = 0;
	int i;

	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];

		if (d->kind == NICFIT_DEV_NIC && d->card_lead && !d->rdma && d->port_gbps > best)
			best = d->port_gbps;
	}
	return best;
}

/*
 * The rules, all about the whole host (device "host", source the plan):
 * plan-backend-missing when the workload needs a back end and the host
 * has no RDMA NIC at all (critical: the plan cannot run here; when the
 * plan could place no card in the host either, it says so instead of
 * naming "0 x" of nothing);
 * plan-backend-slower when its RDMA cards deliver clearly less than the
 * plan gives each server, and plan-fabric-differs when they run the other
 * fabric (warnings: it runs, not as planned; either fabric works if the
 * whole cluster uses it); plan-backend-not-needed when the host has RDMA
 * cards the workload does not need (a note); plan-frontend-slower when
 * its fastest non-RDMA port is slower than the plan's front-end port (a
 * warning), unless the plan's front end is converged onto its RDMA
 * storage/in-band NICs (a DGX or HGX node), where no non-RDMA port carries
 * it. `matches` says that none of them rose above a note.
 */
/* The host's GPUs with an RDMA NIC at PIX/PXB, and the RDMA NICs that close to a GPU. */
static void host_near(const struct nicfit_audit *a, int *gpus, int *nics)
{
	int i, k;

	*gpus = 0;
	*nics = 0;
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];

		if ((d->kind == NICFIT_DEV_GPU || d->kind == NICFIT_DEV_ACCEL) && d->best_nic >= 0 &&
		    d->best_path <= NICFIT_PATH_PXB)
			(*gpus)++;
		if (d->kind != NICFIT_DEV_NIC || !d->rdma)
			continue;
		for (k = 0; k < a->npairs; k++)
			if (a->pairs[k].nic == i && a->pairs[k].path <= NICFIT_PATH_PXB)
				break;
		*nics += k < a->npairs;
	}
}

/*
 * --plan, the rails (plan-rails-short): a plan for a baseboard node gives
 * every GPU its own back-end NIC under the GPU's PCIe switch (PIX/PXB,
 * where NCCL uses GPUDirect RDMA by default, and one rail per GPU). A host
 * where fewer GPUs have such a NIC, or fewer such NICs exist than the plan
 * pairs, sends those GPUs' traffic through the CPU or onto a shared NIC:
 * a warning, since the job runs, slower.
 */
static int check_rails(struct nicfit_audit *a, const struct nicfit_plan *p)
{
	struct nicfit_audit_plan *q = &a->plan;
	int have;

	q->gpus_near = p->backend_needed ? p->gpus_near : 0;
	host_near(a, &q->host_gpus_near, &q->host_nics_near);
	have = q->host_gpus_near < q->host_nics_near ? q->host_gpus_near : q->host_nics_near;
	if (!q->gpus_near || have >= q->gpus_near)
		return 0;
	return append(a, NICFIT_SEV_WARNING, NICFIT_CODE_PLAN_RAILS_SHORT,
		      "Put one RDMA NIC under each GPU's PCIe switch (the baseboard's compute-NIC "
		      "positions), then check the pairs with `nvidia-smi topo -m` (PIX or PXB).",
		      "The plan gives %d GPU%s each a back-end NIC under its own PCIe switch (PIX/PXB%s); "
		      "on this host %d GPU%s such a NIC, and %d RDMA NIC%s that close to a GPU.",
		      q->gpus_near, q->gpus_near == 1 ? "" : "s",
		      p->rails ? ", one rail each" : "", q->host_gpus_near,
		      q->host_gpus_near == 1 ? " has" : "s have", q->host_nics_near,
		      q->host_nics_near == 1 ? " sits" : "s sit");
}

int nicfit_audit_check_plan(struct nicfit_audit *a, const struct nicfit_plan *p,
			    struct nicfit_error *err)
{
	struct nicfit_audit_plan *q = &a->plan;
	char fix[512];
	size_t before = nicfit_findings_count(&a->findings, NICFIT_SEV_WARNING) +
			nicfit_findings_count(&a->findings, NICFIT_SEV_CRITICAL);
	int rc = 0;

	memset(q, 0, sizeof(*q));
	q->checked = 1;
	snprintf(q->workload, sizeof(q->workload), "%s", nicfit_workload_name(p->in.workload));
	snprintf(q->verdict, sizeof(q->verdict), "%s", p->verdict);
	q->backend_needed = p->backend_needed;
	snprintf(q->fabric, sizeof(q->fabric), "%s", !p->backend_needed ? "" :
		 p->fabric == NICFIT_FABRIC_IB ? "infiniband" : "roce");
	snprintf(q->backend_part, sizeof(q->backend_part), "%s", p->backend_needed ? p->be_part : "");
	q->backend_cards = p->backend_needed ? p->be_cards : 0;
	q->backend_gbps = p->backend_needed ? p->be_node_gbps : 0;
	q->host_backend_gbps = host_backend(a, q->host_fabric, sizeof(q->host_fabric));
	q->frontend_gbps = p->fe_port_gbps;
	q->host_frontend_gbps = host_frontend(a);

	if (p->backend_needed && !a->nrdma_nics && a->nrdma_unknown) {
		/* whether its cards have RDMA is unknown (not_checked "rdma"): not judged */
	} else if (p->backend_needed && !a->nrdma_nics && !p->be_cards) {
		/* the plan placed no card: there is no "N x PART" to name */
		snprintf(fix, sizeof(fix), "Free a PCIe slot for an RDMA card (x16 on the GPUs' "
			 "socket), or give nicfit a catalog with a %s card that fits one of this "
			 "host's slots (--catalog); then `nicfit plan --from-host` lays it out.",
			 q->fabric);
		rc |= append(a, NICFIT_SEV_CRITICAL, NICFIT_CODE_PLAN_BACKEND_MISSING, fix,
			     "The plan for %s needs a back-end RDMA fabric (%s); this host has no "
			     "RDMA NIC, and no RDMA card of the catalog fits a free slot of it.",
			     q->workload, q->fabric);
	} else if (p->backend_needed && !a->nrdma_nics) {
		snprintf(fix, sizeof(fix), "Add %d x %s (%s) as the plan lays out: `nicfit plan "
			 "--from-host` shows the slot, cables and parts.", p->be_cards, p->be_part,
			 q->fabric);
		rc |= append(a, NICFIT_SEV_CRITICAL, NICFIT_CODE_PLAN_BACKEND_MISSING, fix,
			     "The plan for %s needs a back-end RDMA fabric (%s, %d x %s, ≈ %.0f Gb/s "
			     "per server); this host has no RDMA NIC.", q->workload, q->fabric,
			     p->be_cards, p->be_part, p->be_node_gbps);
	} else if (p->backend_needed && q->host_backend_gbps < BACKEND_SHORT * p->be_node_gbps) {
		snprintf(fix, sizeof(fix), "The plan's back end is %d x %s; see `nicfit plan "
			 "--from-host` for the slots that feed it.", p->be_cards, p->be_part);
		rc |= append(a, NICFIT_SEV_WARNING, NICFIT_CODE_PLAN_BACKEND_SLOWER, fix,
			     "The plan for %s gives each server ≈ %.0f Gb/s of back end; this host's "
			     "RDMA cards deliver ≈ %.0f Gb/s through their PCIe paths.", q->workload,
			     p->be_node_gbps, q->host_backend_gbps);
	}
	if (p->backend_needed && a->nrdma_nics && q->host_fabric[0] &&
	    strcmp(q->host_fabric, "both") && strcmp(q->host_fabric, q->fabric))
		rc |= append(a, NICFIT_SEV_WARNING, NICFIT_CODE_PLAN_FABRIC_DIFFERS,
			     "Either fabric works if the whole cluster uses it: switch the plan with "
			     "--fabric, or the VPI ports with mlxconfig LINK_TYPE_P1.",
			     "The plan chose %s; this host's RDMA ports run %s.", q->fabric,
			     q->host_fabric);
	if (!p->backend_needed && a->nrdma_nics)
		rc |= append(a, NICFIT_SEV_INFO, NICFIT_CODE_PLAN_BACKEND_NOT_NEEDED,
			     "Nothing to fix: keep them for other jobs, or leave them out of new builds.",
			     "The plan for %s needs no back-end fabric; this host's %d RDMA card%s "
			     "are not needed for it.", q->workload, a->nrdma_nics,
			     a->nrdma_nics == 1 ? "" : "s");
	if (!p->fe_converged && q->host_frontend_gbps > 0 &&
	    q->host_frontend_gbps < p->fe_port_gbps * FRONTEND_MEETS)
		rc |= append(a, NICFIT_SEV_WARNING, NICFIT_CODE_PLAN_FRONTEND_SLOWER,
			     "Use a front-end card (or onboard port) of the plan's speed.",
			     "The plan's front end is %.0f Gb/s per port; this host's fastest non-RDMA "
			     "port is %.0f Gb/s.", p->fe_port_gbps, q->host_frontend_gbps);
	if (p->backend_needed && a->nrdma_nics)
		rc |= check_rails(a, p);
	if (rc || nicfit__audit_settle(a))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	q->matches = nicfit_findings_count(&a->findings, NICFIT_SEV_WARNING) +
		     nicfit_findings_count(&a->findings, NICFIT_SEV_CRITICAL) == before;
	/* a back end was wanted and whether the host has one is unknown */
	if (q->matches && p->backend_needed && !a->nrdma_nics && a->nrdma_unknown)
		q->matches = -1;
	return 0;
}
