/*
 * audit_verify_expect.c - the expectation of `verify --sysfs/--dump` (see
 * nicfit/audit.h, nicfit_audit_verify_expect): what a host's back end
 * should carry, for verify to compare measurements with.
 *
 * It takes the rails, their rate and the GPU-to-NIC paths from the host's
 * audit, and the audit comes after verify/ in the layering, so it lives
 * here and fills verify's expectation; verify itself knows nothing of
 * hosts' audits.
 */
#include <stdio.h>
#include <string.h>

#include "nicfit/audit.h"
#include "nicfit/host.h"
#include "nicfit/link.h"
#include "nicfit/units.h"
#include "nicfit/verify.h"

/* The back end's rails, their fastest port rate and the narrowest PCIe share. */
struct rails {
	double best;     /* fastest RDMA port, Gb/s */
	double pcie;     /* narrowest PCIe path per rail, Gb/s, 0 unknown */
	int k;           /* rails */
	int family_max;  /* cards taken at their family's fastest port */
	int ib;          /* a port runs InfiniBand */
};

/* A rail per ACTIVE port, as NCCL makes a net per active port; the card's PCIe path is shared. */
static void count_rails(const struct nicfit_topo *topo, const struct nicfit_audit *a,
			struct rails *r)
{
	int i;

	for (i = 0; i < a->ndevs; i++)
		if (a->devs[i].rdma && a->devs[i].card_lead && a->devs[i].port_gbps > r->best)
			r->best = a->devs[i].port_gbps;
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];
		int rails;

		if (!d->rdma || !d->card_lead || d->port_gbps < r->best)
			continue;
		rails = d->ports_up > 0 ? d->ports_up : 1;
		if (d->card_ports > 0 && rails > d->card_ports)
			rails = d->card_ports;
		r->k += rails;
		r->family_max += d->port_gbps_is_family_max;
		if (d->supply_gbps > 0 && (r->pcie <= 0 || d->supply_gbps / rails < r->pcie))
			r->pcie = d->supply_gbps / rails;
	}
	for (i = 0; i < topo->nrdma; i++)
		r->ib |= topo->rdma[i].nports &&
			 !strcmp(topo->rdma[i].ports[0].link_layer, "InfiniBand");
}

/* The rails' rate as a speed: an InfiniBand port names its rate (FDR, HDR100). */
static void rate_name(const struct nicfit_topo *topo, const struct rails *r, char *s, size_t n)
{
	int i;

	snprintf(s, n, r->ib ? "%gG" : "%gGbE", r->best);
	for (i = 0; r->ib && i < topo->nrdma; i++) {
		const struct nicfit_rdma_port *pt = &topo->rdma[i].ports[0];

		if (topo->rdma[i].nports && pt->have_rate && pt->rate.speed[0] &&
		    pt->rate.gbps + 0.5 >= r->best) {
			if (pt->rate.width == 2)
				snprintf(s, n, "%s%g", pt->rate.speed, pt->rate.gbps);
			else
				snprintf(s, n, "%s", pt->rate.speed);
			return;
		}
	}
}

/*
 * The host's back end as the expectation. The rails are the ACTIVE ports
 * of the RDMA cards at the fastest port rate (slower ones are a front end
 * or storage): NCCL's IB transport makes one net device per active port
 * (net_ib init.cc), so a dual-port card is two rails only when both ports
 * are cabled and up, and its PCIe path is shared between them. The link
 * is their rate, InfiniBand when a port runs it; the GPUs are the ranks
 * of a node, and the worst GPU-to-nearest-NIC path class says whether
 * GPUDirect RDMA is possible by default.
 */
static int expect_from_topo(const struct nicfit_topo *topo, const struct nicfit_audit *a,
			    const char *what, struct nicfit_verify_expect *x, int *family_max,
			    struct nicfit_error *err)
{
	struct rails r;
	int i, rc, worst = -1;
	char s[32];

	memset(&r, 0, sizeof(r));
	count_rails(topo, a, &r);
	*family_max = r.family_max;
	if (!r.k)
		return nicfit_error_set(err, NICFIT_E_DATA, "verify: %s: no RDMA NIC to take the "
					"link from%s", what, strncmp(what, "--dump", 6) ? "" :
					" (the dump names no RDMA device: add ibv_devinfo, "
					"ibdev2netdev or nvidia-smi topo -m output)");
	rate_name(topo, &r, s, sizeof(s));
	rc = nicfit_parse_speed(s, what, &x->link, err);
	if (rc)
		return rc;
	if (x->proto < 0)
		x->proto = r.ib ? NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;
	if (!x->nics_per_node)
		x->nics_per_node = r.k;
	if (!x->gpus_per_node && a->ngpus)
		x->gpus_per_node = a->ngpus;
	x->pcie_gbps = r.pcie;
	for (i = 0; i < a->ndevs; i++)
		if (a->devs[i].kind == NICFIT_DEV_GPU && a->devs[i].best_nic >= 0) {
			if ((int)a->devs[i].best_path > worst)
				worst = (int)a->devs[i].best_path;
			/* NCCL's default GDR level is PXB (docs/reference/topology.md) */
			x->gpus_without_gdr += a->devs[i].best_path > NICFIT_PATH_PXB;
		}
	if (worst >= 0)
		snprintf(x->path, sizeof(x->path), "%s", nicfit_path_name((enum nicfit_path)worst));
	return 0;
}

int nicfit_audit_verify_expect(const struct nicfit_catalog *cat,
			       const struct nicfit_host_request *req,
			       struct nicfit_verify_expect *x, struct nicfit_error *err)
{
	struct nicfit_host *host;
	struct nicfit_audit *a = NULL;
	struct nicfit_audit_opts ao;
	char what[320];
	int rc, family_max = 0, dumps = req->ndumps > 0;

	rc = nicfit_host_open(req, &host, err);
	if (rc)
		return rc;
	if (dumps)
		snprintf(what, sizeof(what), "--dump %s%s", req->dumps[0],
			 req->ndumps > 1 ? " ..." : "");
	else
		snprintf(what, sizeof(what), "--sysfs %s", req->root);
	memset(&ao, 0, sizeof(ao));
	rc = nicfit_audit_judge(host->topo, cat, &ao, &a, err);
	if (!rc)
		rc = expect_from_topo(host->topo, a, what, x, &family_max, err);
	/*
	 * Without a part number (VPD) or a port rate (ibv_devinfo -v) a card
	 * is known by its family alone, taken at the family's fastest port:
	 * the ceiling is then an upper bound, and the reader is told so.
	 */
	if (dumps)
		x->source = family_max ? "the host's dump (--dump; a card without part number or "
					 "port rate in it taken at its family's fastest port)"
				       : "the host's dump (--dump)";
	else
		x->source = "the host (--sysfs)";
	nicfit_audit_free(a);
	nicfit_host_close(host);
	return rc;
}
