/*
 * audit_nfd.c - the audit as a Kubernetes Node Feature Discovery local
 * feature file (nicfit/ops.h): what a scheduler needs to place a job that
 * wants GPUDirect RDMA or a given back-end rate on a node that has it.
 *
 * NFD's local source (node-feature-discovery 0.16, "Feature files" in its
 * customization guide) reads every file in
 * /etc/kubernetes/node-feature-discovery/features.d/ whose name does not
 * start with a dot, one "name=value" per line, '#' lines being comments;
 * a name with a domain prefix ("nicfit.io/") becomes that label as it
 * is. nfd-master (0.13 on) writes labels of any namespace but
 * kubernetes.io's; releases before it need `extraLabelNs: ["nicfit.io"]`
 * in nfd-master's configuration (docs/ops.md).
 * Label values must be Kubernetes label values: 63 characters at most,
 * [A-Za-z0-9] at both ends, '-', '_' and '.' inside. Every value here is
 * one of a few words or a number, built by this file, never outside text.
 *
 * Labels of a node nobody refreshes would stay for ever: NFD 0.14 added
 * the directive "# +expiry-time=<RFC 3339 time>" (source/local/local.go,
 * parseDirectives; docs/usage/customization-guide.md), after which the
 * local source ignores the lines that follow it, so the file begins with
 * it when the caller says how long the labels hold. Releases before 0.14
 * read it as a comment.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "audit/audit_int.h"
#include "nicfit/audit.h"
#include "nicfit/ops.h"

/*
 * Whether devs[d] is at PIX or PXB to some GPU: a NIC that GPU uses
 * without crossing the host bridge, one rail of a rail-optimized host
 * (docs/reference/topology.md 2).
 */
static int near_gpu(const struct nicfit_audit *a, int d)
{
	int i;

	for (i = 0; i < a->npairs; i++)
		if (a->pairs[i].nic == d && a->pairs[i].path <= NICFIT_PATH_PXB)
			return 1;
	return 0;
}

static int any_near(const struct nicfit_audit *a)
{
	int i;

	for (i = 0; i < a->npairs; i++)
		if (a->pairs[i].path <= NICFIT_PATH_PXB)
			return 1;
	return 0;
}

static int port_active(const struct nicfit_rdma_port *pt)
{
	return pt->state == 4 || pt->state == 5; /* ACTIVE, ACTIVE_DEFER */
}

/*
 * The rails: RDMA physical functions with an active port that are at PIX
 * or PXB to a GPU, or every one of them when no NIC is that close to a
 * GPU (a host without GPUs, or one whose NICs all hang off the host
 * bridge). The rate is the slowest active port of the rails, the link
 * layers are theirs.
 */
static void rails(const struct nicfit_audit *a, int *nrails, double *slowest, const char **layer)
{
	const struct nicfit_topo *t = a->topo;
	int d, i, k, ib = 0, eth = 0, near = any_near(a);

	*nrails = 0;
	*slowest = -1;
	for (d = 0; d < a->ndevs; d++) {
		int up = 0;

		if (a->devs[d].kind != NICFIT_DEV_NIC || t->pci[a->devs[d].pci].physfn >= 0)
			continue;
		if (near && !near_gpu(a, d))
			continue;
		for (i = 0; i < t->nrdma; i++) {
			if (t->rdma[i].pci != a->devs[d].pci)
				continue;
			for (k = 0; k < t->rdma[i].nports; k++) {
				const struct nicfit_rdma_port *pt = &t->rdma[i].ports[k];
				double g;

				if (!port_active(pt))
					continue;
				up = 1;
				if (!strcmp(pt->link_layer, "InfiniBand"))
					ib = 1;
				else if (!strcmp(pt->link_layer, "Ethernet"))
					eth = 1;
				g = pt->have_rate ? nicfit_rdma_port_gbps(pt) : -1;
				if (g > 0 && (*slowest < 0 || g < *slowest))
					*slowest = g;
			}
		}
		*nrails += up;
	}
	*layer = ib && eth ? "mixed" : ib ? "infiniband" : eth ? "ethernet" : NULL;
}

/* The farthest of the GPUs' nearest NICs: the path every GPU can at least get. */
static const char *worst_gpu_path(const struct nicfit_audit *a)
{
	int i, worst = -1;

	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];

		if (d->kind != NICFIT_DEV_GPU || d->best_nic < 0)
			continue;
		if ((int)d->best_path > worst)
			worst = (int)d->best_path;
	}
	return worst < 0 ? NULL : nicfit_path_name((enum nicfit_path)worst);
}

/*
 * Whether every GPU has a NIC it would use GPUDirect RDMA with by default:
 * 1, 0, or -1 when that hangs on kernel support the tree cannot show (a
 * GPU whose best pair is unknown and none of whose pairs is known to work).
 */
static int gdr_ready(const struct nicfit_audit *a)
{
	int i, gpus = 0, unknown = 0;

	for (i = 0; i < a->ndevs; i++) {
		int j, best = 0;

		if (a->devs[i].kind != NICFIT_DEV_GPU)
			continue;
		gpus++;
		for (j = 0; j < a->npairs && best != 1; j++)
			if (a->pairs[j].gpu == i && a->pairs[j].gdr_default)
				best = a->pairs[j].gdr_default;
		if (!best)
			return 0;
		unknown |= best < 0;
	}
	return unknown ? -1 : gpus > 0;
}

/* "# +expiry-time=2026-12-07T15:00:00Z": when the labels stop holding, if run says. */
static void expiry(const struct nicfit_ops_run *run, struct nicfit_buf *out)
{
	double at;
	time_t t;
	struct tm tm;
	char when[32];

	if (!run || run->end_time_s < 0 || !(run->expiry_s > 0))
		return;
	at = floor(run->end_time_s + run->expiry_s);
	if (!(at < 253402300800.0)) /* past 9999-12-31: RFC 3339 has four digits */
		return;
	t = (time_t)at;
	if (!gmtime_r(&t, &tm) || !strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return;
	nicfit_buf_addf(out, "# +expiry-time=%s\n", when);
}

int nicfit_audit_render_nfd(const struct nicfit_audit *a, const struct nicfit_ops_run *run,
			    struct nicfit_buf *out)
{
	static const char *const status[] = { "clean", "warning", "critical" };
	const char *layer, *path = worst_gpu_path(a);
	double slowest;
	int nrails, gdr, st = nicfit_audit_exit_code(a);

	rails(a, &nrails, &slowest, &layer);
	nicfit_buf_puts(out, "# nicfit audit: Node Feature Discovery local feature file\n");
	expiry(run, out);
	nicfit_buf_addf(out, "nicfit.io/gpus=%d\n", a->ngpus);
	if (!a->nrdma_unknown) /* a label says what is known: none when it is not */
		nicfit_buf_addf(out, "nicfit.io/rdma-nics=%d\n", a->nrdma_nics);
	nicfit_buf_addf(out, "nicfit.io/rails=%d\n", nrails);
	if (slowest > 0)
		nicfit_buf_addf(out, "nicfit.io/rdma-rate-gbps=%.0f\n", floor(slowest + 0.5));
	if (layer)
		nicfit_buf_addf(out, "nicfit.io/rdma-link-layer=%s\n", layer);
	gdr = gdr_ready(a);
	if (gdr >= 0)
		nicfit_buf_addf(out, "nicfit.io/gdr-ready=%s\n", gdr ? "true" : "false");
	if (path)
		nicfit_buf_addf(out, "nicfit.io/gpu-nic-path=%s\n", path);
	nicfit_buf_addf(out, "nicfit.io/audit-status=%s\n", status[st >= 0 && st <= 2 ? st : 2]);
	return nicfit_buf_error(out);
}
