/*
 * accept_system.c - what a runbook accepts: the system a plan bought, or
 * the one an audited host has, and the names of its nodes.
 *
 * From a plan the parts are known and the names are not: the RDMA
 * devices are named as their driver names them in PCI order (mlx5_0,
 * mlx5_1, ... for ConnectX), which is what a delivered server shows, and
 * the runbook says they are assumed. From a host both are read: the rails
 * are its RDMA cards at their fastest rate (what verify --sysfs takes),
 * each with the GPU nearest to it, and the audit's findings are kept as
 * the causes a failing step can rest on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/audit.h"
#include "nicfit/catalog.h"
#include "nicfit/fleet.h"
#include "nicfit/link.h"
#include "nicfit/pcie.h"
#include "nicfit/plan.h"
#include "nicfit/verify.h"
#include "accept/accept_int.h"

/* The RDMA device prefix each NIC driver registers (rdma-core providers' names). */
static const struct {
	const char *driver, *prefix;
} rdma_names[] = {
	{ "mlx5_core", "mlx5_" }, { "mlx4_core", "mlx4_" }, { "bnxt_en", "bnxt_re" },
	{ "ice", "irdma" },       { "i40e", "irdma" },      { "qede", "qedr" },
};

static const char *rdma_prefix(const struct nicfit_nic *n)
{
	size_t i;

	for (i = 0; n && n->driver && i < sizeof(rdma_names) / sizeof(rdma_names[0]); i++)
		if (!strcmp(n->driver, rdma_names[i].driver))
			return rdma_names[i].prefix;
	return NULL;
}

static void gpu_of(const struct nicfit_gpu *g, int per_node, struct nicfit_accept_system *sys)
{
	snprintf(sys->gpu, sizeof(sys->gpu), "%s", g->e.name);
	sys->amd = g->vendor && !strcmp(g->vendor, "AMD");
	sys->nvlink_gbs = g->nvlink_gbs;
	sys->nvswitch = g->vendor && !strcmp(g->vendor, "NVIDIA") && g->nvlink_domain >= per_node &&
			g->nvlink_gbs > 0;
	snprintf(sys->gpu_source, sizeof(sys->gpu_source), "catalog %s", g->e.id);
	/* the GPU's own link: what a GPUDirect Storage read into it can cross */
	if (g->pcie_gen > 0 && g->pcie_width > 0) {
		struct nicfit_pcie_params pp;
		struct nicfit_pcie_result pr;

		nicfit_pcie_params_default(&pp);
		if (!nicfit_pcie_calc(g->pcie_gen, g->pcie_width, &pp, &pr, NULL)) {
			sys->gpu_pcie_gbps = pr.effective_gbps;
			sys->gpu_pcie_gen = g->pcie_gen;
			sys->gpu_pcie_width = g->pcie_width;
		}
	}
}

/* The back end of a plan: rails, their rate and names, each rail's GPU. */
static int plan_rails(const struct nicfit_plan *pl, struct nicfit_accept_system *sys,
		      struct nicfit_error *err)
{
	const char *prefix = rdma_prefix(pl->be_nic);
	int ports = pl->be_ports > 0 ? pl->be_ports : 1, r, g;
	char sp[32];

	if (!pl->backend_needed || !pl->be_cards || !pl->be_nic)
		return 0;
	if (!prefix)
		return nicfit_error_set(err, NICFIT_E_DATA, "accept: the plan's back-end card %s "
					"has driver '%s', whose RDMA device names nicfit does not "
					"know", pl->be_part, pl->be_nic->driver ? pl->be_nic->driver :
					"(none)");
	sys->rails = pl->be_cards * ports;
	if (sys->rails > NICFIT_ACCEPT_MAX_RAILS)
		sys->rails = NICFIT_ACCEPT_MAX_RAILS;
	sys->ib = pl->fabric == NICFIT_FABRIC_IB;
	if (sys->ib && pl->be_card.ib_rate)
		snprintf(sp, sizeof(sp), "%s", pl->be_card.ib_rate);
	else
		snprintf(sp, sizeof(sp), "%gGbE", pl->be_port_gbps);
	if (nicfit_parse_speed(sp, "the plan's back end", &sys->link, err))
		return NICFIT_E_DATA;
	if (pl->be_limited_by && !strcmp(pl->be_limited_by, "pcie"))
		sys->rail_pcie_gbps = pl->be_effective_gbps / ports;
	snprintf(sys->rail_part, sizeof(sys->rail_part), "%s", pl->be_part);
	sys->hca_assumed = 1;
	for (r = 0; r < sys->rails; r++) {
		int nth = 0;

		snprintf(sys->hca[r], sizeof(sys->hca[r]), "%s%d", prefix, r);
		sys->rail_gpu[r] = -1;
		/* the port-th GPU the card serves, else its first */
		for (g = 0; g < pl->gpus_placed && g < NICFIT_PLAN_MAX_GPUS; g++)
			if (pl->pair_card[g] == r / ports) {
				if (sys->rail_gpu[r] < 0 || nth == r % ports)
					sys->rail_gpu[r] = g;
				nth++;
			}
	}
	return 0;
}

/*
 * An --example request as plan runs it: the example's pairs first, the
 * spec's others after (they override). A bare --example is "inference".
 */
static int example_spec(const struct nicfit_spec *spec, const char *ex,
			struct nicfit_spec *merged, struct nicfit_error *err)
{
	const struct nicfit_plan_example *x = NULL;
	size_t i;
	int rc = 0;

	if (!strcmp(ex, "true"))
		ex = "inference";
	for (i = 0; nicfit_plan_examples[i].name; i++)
		if (!strcmp(nicfit_plan_examples[i].name, ex))
			x = &nicfit_plan_examples[i];
	if (!x)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--example", 0, 0, "no example by "
				       "that name (see nicfit help plan)");
	nicfit_spec_init(merged, spec->input);
	for (i = 0; x->pairs[i] && !rc; i += 2)
		rc = nicfit_spec_add(merged, x->pairs[i], x->pairs[i + 1], err);
	/* the runbook's own keys (hosts, launcher, read) were taken already */
	for (i = 0; i < spec->n && !rc; i++)
		if (strcmp(spec->pairs[i].key, "example") && !spec->pairs[i].used &&
		    !(rc = nicfit_spec_add(merged, spec->pairs[i].key, spec->pairs[i].value, err))) {
			/* a body's or a file's value keeps its line and column for errors */
			merged->pairs[merged->n - 1].line = spec->pairs[i].line;
			merged->pairs[merged->n - 1].col = spec->pairs[i].col;
		}
	merged->from_data = spec->from_data;
	return rc;
}

int nicfit_accept_system_from_plan(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
				   struct nicfit_accept_system *sys, struct nicfit_error *err)
{
	struct nicfit_plan *pl = calloc(1, sizeof(*pl));
	struct nicfit_spec *merged = NULL;
	const char *ex = nicfit_spec_get(spec, "example");
	struct nicfit_plan_input in;
	int rc = 0;

	memset(sys, 0, sizeof(*sys));
	if (!pl)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	if (ex) {
		merged = calloc(1, sizeof(*merged));
		rc = merged ? example_spec(spec, ex, merged, err) :
		     nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		spec = merged;
	}
	if (!rc)
		rc = nicfit_plan_input_from_spec(cat, spec, &in, err);
	if (!rc)
		rc = nicfit_plan(cat, &in, pl, err);
	if (rc)
		goto out;
	sys->from = "plan";
	sys->nodes = pl->in.servers > pl->servers_needed ? pl->in.servers : pl->servers_needed;
	/* no count: --hosts may name more or fewer nodes; the runbook says how many */
	snprintf(sys->title, sizeof(sys->title), "%s (plan)", pl->in.server->e.name);
	sys->gpus_per_node = pl->in.gpus_per_server;
	if (pl->in.gpu)
		gpu_of(pl->in.gpu, sys->gpus_per_node, sys);
	rc = plan_rails(pl, sys, err);
	if (rc)
		goto out;
	if (pl->st_nic && pl->st_node_gbps > 0) {
		sys->st_gbps = pl->st_node_gbps;
		snprintf(sys->st_part, sizeof(sys->st_part), "%d x %s", pl->st_cards, pl->st_nic->part);
	}
	/* a converged front end (DGX, HGX) is the storage/in-band ports: one of them */
	sys->fe_port_gbps = pl->fe_converged ? pl->st_port_gbps : pl->fe_port_gbps;
	if (pl->fe_converged && pl->st_nic)
		snprintf(sys->fe_part, sizeof(sys->fe_part), "%s (storage and in-band, converged)",
			 pl->st_nic->part);
	else if (pl->fe_onboard && pl->fe_ob)
		snprintf(sys->fe_part, sizeof(sys->fe_part), "onboard %s", pl->fe_ob->name);
	else if (pl->fe_nic)
		snprintf(sys->fe_part, sizeof(sys->fe_part), "%s", pl->fe_nic->part);
out:
	if (merged)
		nicfit_spec_release(merged);
	free(merged);
	nicfit_plan_release(pl);
	free(pl);
	return rc;
}

/* ---- a host ------------------------------------------------------------------ */

/* The catalog GPU of a PCI function, NULL when none matches its IDs. */
static const struct nicfit_gpu *catalog_gpu(const struct nicfit_catalog *cat,
					    const struct nicfit_pcidev *p)
{
	size_t i, n = nicfit_catalog_count(cat, NICFIT_KIND_GPU);

	for (i = 0; i < n; i++) {
		const struct nicfit_gpu *g = nicfit_catalog_gpu(cat, i);

		if (g->pci_vendor == p->vendor && g->pci_device == p->device)
			return g;
	}
	return NULL;
}

/* The audit's findings at warning and above, one a line: "device code: message". */
static char *audit_causes(const struct nicfit_audit *a)
{
	struct nicfit_buf b;
	size_t i;

	nicfit_buf_init(&b, 0);
	for (i = 0; i < a->findings.n; i++) {
		const struct nicfit_finding *f = &a->findings.v[i];

		if (f->severity >= NICFIT_SEV_WARNING && !f->ignored)
			nicfit_buf_addf(&b, "%s %s: %s\n", f->device ? f->device : "host", f->code,
					f->message);
	}
	if (nicfit_buf_error(&b) || !b.len) {
		nicfit_buf_release(&b);
		return NULL;
	}
	return nicfit_buf_detach(&b, NULL);
}

/*
 * The GPU a rail serves: of the GPUs nearest to its card (the audit's
 * pairs, the shortest PCIe path first), the first no earlier rail took,
 * so that two GPUs and two cards under one switch pair one to one, as
 * NCCL pairs them; the nearest one when all are taken. Its number is its
 * place among the GPUs in PCI order (CUDA's order for GPUs of one kind);
 * *dev gets its index in a->devs, -1 none.
 */
static int rail_gpu(const struct nicfit_audit *a, int nic, const unsigned char *taken, int *dev)
{
	int p, best = -1, best_free = -1, gi, g, bdev = -1, fdev = -1;
	enum nicfit_path bp = NICFIT_PATH_SYS, bf = NICFIT_PATH_SYS;

	for (p = 0; p < a->npairs; p++) {
		const struct nicfit_audit_pair *q = &a->pairs[p];

		if (q->nic != nic)
			continue;
		for (g = 0, gi = 0; g < q->gpu; g++)
			gi += a->devs[g].kind == NICFIT_DEV_GPU;
		if (best < 0 || q->path < bp) {
			best = gi;
			bp = q->path;
			bdev = q->gpu;
		}
		if (gi < NICFIT__ACCEPT_MAX_GPUS && !taken[gi] && (best_free < 0 || q->path < bf)) {
			best_free = gi;
			bf = q->path;
			fdev = q->gpu;
		}
	}
	*dev = best_free >= 0 && bf == bp ? fdev : bdev;
	return best_free >= 0 && bf == bp ? best_free : best;
}

/* The rails: the RDMA cards at the fastest port rate, their GPUs; the front end. */
static int host_rails(const struct nicfit_audit *a, struct nicfit_accept_system *sys,
		      struct nicfit_error *err)
{
	unsigned char taken[NICFIT__ACCEPT_MAX_GPUS] = { 0 };
	double best = 0, fe = 0;
	int i, g;

	for (i = 0; i < a->ndevs; i++)
		if (a->devs[i].rdma && a->devs[i].card_lead && a->devs[i].port_gbps > best)
			best = a->devs[i].port_gbps;
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];
		int r = sys->rails;

		if (d->kind != NICFIT_DEV_NIC || !d->card_lead)
			continue;
		if (!d->rdma || d->port_gbps < best) {
			if (d->port_gbps > fe)
				fe = d->port_gbps;
			continue;
		}
		if (r == NICFIT_ACCEPT_MAX_RAILS)
			continue;
		if (!nicfit__accept_name_ok(d->label))
			return nicfit_error_set(err, NICFIT_E_DATA, "accept: RDMA device name "
						"'%.32s' cannot go in a command line (letters, "
						"digits, '.', '-', '_')", d->label);
		snprintf(sys->hca[r], sizeof(sys->hca[r]), "%s", d->label);
		sys->rail_gpu[r] = rail_gpu(a, i, taken, &g);
		if (sys->rail_gpu[r] >= 0 && sys->rail_gpu[r] < NICFIT__ACCEPT_MAX_GPUS)
			taken[sys->rail_gpu[r]] = 1;
		snprintf(sys->rail_bdf[r], sizeof(sys->rail_bdf[r]), "%s", a->topo->pci[d->pci].bdf);
		if (g >= 0)
			snprintf(sys->rail_gpu_bdf[r], sizeof(sys->rail_gpu_bdf[r]), "%s",
				 a->topo->pci[a->devs[g].pci].bdf);
		if (!r && d->part[0])
			snprintf(sys->rail_part, sizeof(sys->rail_part), "%s", d->part);
		sys->rails++;
	}
	sys->fe_port_gbps = fe;
	return 0;
}

static int host_gpus(const struct nicfit_catalog *cat, const struct nicfit_audit *a,
		     struct nicfit_accept_system *sys)
{
	int i;

	sys->gpus_per_node = a->ngpus;
	for (i = 0; i < a->ndevs; i++)
		if (a->devs[i].kind == NICFIT_DEV_GPU) {
			const struct nicfit_gpu *g = catalog_gpu(cat, &a->topo->pci[a->devs[i].pci]);

			if (g)
				gpu_of(g, a->ngpus, sys);
			else
				snprintf(sys->gpu, sizeof(sys->gpu), "%.95s", a->devs[i].name);
			return 0;
		}
	return 0;
}

int nicfit_accept_system_from_host(const struct nicfit_catalog *cat,
				   const struct nicfit_host_request *req, int nodes,
				   struct nicfit_accept_system *sys, char **causes,
				   struct nicfit_error *err)
{
	struct nicfit_verify_expect x;
	struct nicfit_audit_opts ao;
	struct nicfit_audit *a = NULL;
	struct nicfit_host *host;
	int rc;

	memset(sys, 0, sizeof(*sys));
	*causes = NULL;
	rc = nicfit_host_open(req, &host, err);
	if (rc)
		return rc;
	memset(&ao, 0, sizeof(ao));
	rc = nicfit_audit_judge(host->topo, cat, &ao, &a, err);
	if (!rc)
		rc = host_rails(a, sys, err);
	if (!rc)
		rc = host_gpus(cat, a, sys);
	if (!rc && !a->ngpus)
		rc = nicfit_error_set(err, NICFIT_E_DATA, "accept: the host has no GPU to test");
	if (rc)
		goto out;
	sys->from = "host";
	sys->nodes = nodes >= 2 ? nodes : 2;
	snprintf(sys->title, sizeof(sys->title), "host %.64s (%d GPU%s, %d rail%s; audited)",
		 host->topo->hostname[0] ? host->topo->hostname : "(unnamed)", a->ngpus,
		 a->ngpus == 1 ? "" : "s", sys->rails, sys->rails == 1 ? "" : "s");
	*causes = audit_causes(a);
	/* the rails' rate, protocol and PCIe share as verify --sysfs takes them */
	if (sys->rails) {
		nicfit_verify_expect_init(&x);
		rc = nicfit_audit_verify_expect(cat, req, &x, err);
		sys->link = x.link;
		sys->ib = x.proto == NICFIT_PROTO_IB;
		sys->rail_pcie_gbps = x.pcie_gbps;
	}
out:
	nicfit_audit_free(a);
	nicfit_host_close(host);
	return rc;
}

/* ---- host names -------------------------------------------------------------- */

struct names {
	char (*v)[NICFIT_ACCEPT_NAME_MAX];
	int n;
	int rc;                     /* the name refused (the host list reports any refusal as
				     * an internal error; the message is ours) */
	struct nicfit_error *err;
};

static int add_name(void *ctx, const char *name)
{
	struct names *nm = ctx;

	if (!nicfit__accept_name_ok(name) || strlen(name) >= NICFIT_ACCEPT_NAME_MAX)
		return nm->rc = nicfit_error_set(nm->err, NICFIT_E_USAGE, "--hosts: '%.64s' is not a host "
					"name (up to %d letters, digits, '.', '-', '_')", name,
					NICFIT_ACCEPT_NAME_MAX - 1);
	if (nm->v)
		snprintf(nm->v[nm->n], NICFIT_ACCEPT_NAME_MAX, "%s", name);
	nm->n++;
	return 0;
}

int nicfit_accept_set_hosts(struct nicfit_accept_system *sys, const char *list,
			    struct nicfit_error *err)
{
	struct names nm = { NULL, 0, 0, err };
	int rc, i, j;

	rc = nicfit_hostlist_expand(list, NICFIT_ACCEPT_MAX_NODES, add_name, &nm, err);
	if (rc)
		return nm.rc ? nm.rc : rc;
	if (!nm.n)
		return nicfit_error_set(err, NICFIT_E_USAGE, "--hosts: no host named");
	nm.v = calloc((size_t)nm.n, sizeof(*nm.v));
	if (!nm.v)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	nm.n = 0;
	rc = nicfit_hostlist_expand(list, NICFIT_ACCEPT_MAX_NODES, add_name, &nm, err);
	for (i = 0; !rc && i < nm.n; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(nm.v[i], nm.v[j])) {
				rc = nicfit_error_set(err, NICFIT_E_USAGE, "--hosts: %s is named "
						      "twice", nm.v[i]);
				break;
			}
	if (rc) {
		free(nm.v);
		return rc;
	}
	free(sys->hosts);
	sys->hosts = nm.v;
	sys->nodes = nm.n;
	return 0;
}

int nicfit_accept_default_hosts(struct nicfit_accept_system *sys, struct nicfit_error *err)
{
	int i;

	if (sys->nodes < 1 || sys->nodes > NICFIT_ACCEPT_MAX_NODES)
		return nicfit_error_set(err, NICFIT_E_USAGE, "accept: %d nodes: give 1 to %d",
					sys->nodes, NICFIT_ACCEPT_MAX_NODES);
	free(sys->hosts);
	sys->hosts = calloc((size_t)sys->nodes, sizeof(*sys->hosts));
	if (!sys->hosts)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	for (i = 0; i < sys->nodes; i++)
		snprintf(sys->hosts[i], NICFIT_ACCEPT_NAME_MAX, "node%02d", i + 1);
	return 0;
}
