/*
 * audit_prom.c - the audit as Prometheus metrics (nicfit/ops.h), for
 * node_exporter's textfile collector: what an admin graphs and alerts on
 * (a link that trained below what both ends can do, a GPU whose nearest
 * NIC is across the socket link, an RDMA port that is down, the findings)
 * as gauges. The writer of the format is prom.c; the text, JSON and
 * other views of the same result are audit_render.c.
 *
 * Metric names follow prometheus.io's naming practice: the "nicfit_"
 * prefix, base units in the name (rates in bytes per second, even where
 * network people say bits: the practice asks for bytes; times in
 * seconds), "_info" for metadata with the value 1, and a state set (one
 * series per class, 1 for the one that holds) for the path class, so
 * that a query can select `path="SYS"` without knowing its number.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/prom_int.h"
#include "nicfit/audit.h"
#include "nicfit/ops.h"
#include "nicfit/version.h"

#define GBPS_TO_BYTES (1e9 / 8) /* the audit's Gb/s (1e9 bit/s) as bytes per second */

static const struct nicfit_pcidev *PD(const struct nicfit_audit *a, int i)
{
	return &a->topo->pci[a->devs[i].pci];
}

/* The devices that have link figures, the ones the link metrics describe. */
static int has_link(const struct nicfit_audit *a, int i)
{
	return a->devs[i].link.known;
}

/* A per-device family: value(i) for each device with a link, when it is known (>= 0). */
static void dev_family(struct nicfit_buf *b, const struct nicfit_audit *a, const char *name,
		       const char *help, double (*value)(const struct nicfit_audit *, int))
{
	int i, any = 0;

	for (i = 0; i < a->ndevs; i++)
		if (has_link(a, i) && value(a, i) >= 0)
			any = 1;
	if (!any)
		return;
	nicfit__prom_family(b, name, "gauge", help);
	for (i = 0; i < a->ndevs; i++) {
		double v;

		if (!has_link(a, i))
			continue;
		v = value(a, i);
		if (v >= 0 && isfinite(v))
			nicfit__prom_sample(b, name, v, "bdf", PD(a, i)->bdf,
					    "device", a->devs[i].label, NULL);
	}
}

static double cur_width(const struct nicfit_audit *a, int i)
{
	return PD(a, i)->cur_width > 0 ? PD(a, i)->cur_width : -1;
}

static double max_width(const struct nicfit_audit *a, int i)
{
	return PD(a, i)->max_width > 0 ? PD(a, i)->max_width : -1;
}

static double cur_speed(const struct nicfit_audit *a, int i)
{
	return PD(a, i)->cur_gts > 0 ? PD(a, i)->cur_gts * 1e9 : -1;
}

static double max_speed(const struct nicfit_audit *a, int i)
{
	return PD(a, i)->max_gts > 0 ? PD(a, i)->max_gts * 1e9 : -1;
}

static double path_now(const struct nicfit_audit *a, int i)
{
	double g = a->devs[i].link.path_gbps;

	return g > 0 ? g * GBPS_TO_BYTES : -1;
}

static double path_max(const struct nicfit_audit *a, int i)
{
	double g = a->devs[i].link.path_max_gbps;

	return g > 0 ? g * GBPS_TO_BYTES : -1;
}

static void devices(struct nicfit_buf *b, const struct nicfit_audit *a)
{
	char numa[16];
	int i;

	nicfit__prom_family(b, "nicfit_device_info", "gauge",
			    "A device the audit describes: its kind, name, part number and NUMA node.");
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];

		if (d->numa >= 0)
			snprintf(numa, sizeof(numa), "%d", d->numa);
		else
			numa[0] = '\0';
		nicfit__prom_sample(b, "nicfit_device_info", 1, "bdf", PD(a, i)->bdf,
				    "device", d->label, "kind", nicfit_dev_kind_name(d->kind),
				    "name", d->name, "part", d->part, "numa_node", numa, NULL);
	}
	dev_family(b, a, "nicfit_pcie_link_width", "Lanes the device's PCIe link negotiated.",
		   cur_width);
	dev_family(b, a, "nicfit_pcie_link_max_width", "Lanes the device's PCIe link can use.",
		   max_width);
	dev_family(b, a, "nicfit_pcie_link_speed_transfers_per_second",
		   "Transfer rate per lane the device's PCIe link negotiated.", cur_speed);
	dev_family(b, a, "nicfit_pcie_link_max_speed_transfers_per_second",
		   "Transfer rate per lane the device's PCIe link can reach.", max_speed);
	dev_family(b, a, "nicfit_pcie_path_bytes_per_second",
		   "What the narrowest PCIe link between the device and the CPU carries per "
		   "direction as negotiated, after packet overhead.", path_now);
	dev_family(b, a, "nicfit_pcie_path_max_bytes_per_second",
		   "What the narrowest PCIe link on the device's path would carry if every link "
		   "ran at what both its ends can do.", path_max);
}

static void pairs(struct nicfit_buf *b, const struct nicfit_audit *a)
{
	static const enum nicfit_path cls[] = { NICFIT_PATH_PIX, NICFIT_PATH_PXB, NICFIT_PATH_PHB,
						NICFIT_PATH_NODE, NICFIT_PATH_SYS };
	int i;
	size_t k;

	if (!a->npairs)
		return;
	nicfit__prom_family(b, "nicfit_gpu_nic_path", "gauge",
			    "The PCIe path class between a GPU and a NIC as nvidia-smi topo -m names "
			    "it: 1 for the class that holds, 0 for the others.");
	for (i = 0; i < a->npairs; i++) {
		const struct nicfit_audit_pair *p = &a->pairs[i];

		for (k = 0; k < sizeof(cls) / sizeof(cls[0]); k++)
			nicfit__prom_sample(b, "nicfit_gpu_nic_path", p->path == cls[k],
					    "gpu", PD(a, p->gpu)->bdf, "nic", PD(a, p->nic)->bdf,
					    "path", nicfit_path_name(cls[k]), NULL);
	}
	/* a pair whose answer hangs on unknown kernel support has no sample */
	for (i = 0; i < a->npairs && a->pairs[i].gdr_default < 0; i++)
		;
	if (i == a->npairs)
		return;
	nicfit__prom_family(b, "nicfit_gpudirect_rdma_ready", "gauge",
			    "1 when NCCL would use GPUDirect RDMA between the GPU and the NIC by "
			    "default (close enough on PCIe, RDMA and kernel support present).");
	for (i = 0; i < a->npairs; i++) {
		const struct nicfit_audit_pair *p = &a->pairs[i];

		if (p->gdr_default < 0)
			continue;
		nicfit__prom_sample(b, "nicfit_gpudirect_rdma_ready", p->gdr_default,
				    "gpu", PD(a, p->gpu)->bdf, "nic", PD(a, p->nic)->bdf,
				    "reason", p->gdr_reason, NULL);
	}
}

static void rdma(struct nicfit_buf *b, const struct nicfit_audit *a)
{
	const struct nicfit_topo *t = a->topo;
	char port[16];
	int i, k, rated = 0;

	if (!t->nrdma)
		return;
	nicfit__prom_family(b, "nicfit_rdma_port_state", "gauge",
			    "An RDMA port's logical state as the kernel numbers it: 1 DOWN, 2 INIT, "
			    "3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER.");
	for (i = 0; i < t->nrdma; i++)
		for (k = 0; k < t->rdma[i].nports; k++) {
			const struct nicfit_rdma_port *pt = &t->rdma[i].ports[k];

			if (pt->have_rate)
				rated = 1;
			if (pt->state < 0)
				continue;
			snprintf(port, sizeof(port), "%d", pt->num);
			nicfit__prom_sample(b, "nicfit_rdma_port_state", pt->state,
					    "rdma_device", t->rdma[i].name, "port", port,
					    "link_layer", pt->link_layer, NULL);
		}
	if (!rated)
		return;
	nicfit__prom_family(b, "nicfit_rdma_port_rate_bytes_per_second", "gauge",
			    "The data rate an RDMA port's link runs at, after line coding.");
	for (i = 0; i < t->nrdma; i++)
		for (k = 0; k < t->rdma[i].nports; k++) {
			const struct nicfit_rdma_port *pt = &t->rdma[i].ports[k];

			if (!pt->have_rate)
				continue;
			snprintf(port, sizeof(port), "%d", pt->num);
			nicfit__prom_sample(b, "nicfit_rdma_port_rate_bytes_per_second",
					    nicfit_rdma_port_gbps(pt) * GBPS_TO_BYTES,
					    "rdma_device", t->rdma[i].name, "port", port,
					    "link_layer", pt->link_layer, NULL);
		}
}

/* The findings, by code and severity: one series per pair that occurs. */
static void findings(struct nicfit_buf *b, const struct nicfit_audit *a)
{
	static const enum nicfit_severity sev[] = { NICFIT_SEV_CRITICAL, NICFIT_SEV_WARNING,
						    NICFIT_SEV_INFO };
	const struct nicfit_findings *fs = &a->findings;
	size_t i, j, k;

	nicfit__prom_family(b, "nicfit_audit_findings", "gauge",
			    "Findings of the last audit by severity, those --ignore left out not "
			    "counted.");
	for (k = 0; k < sizeof(sev) / sizeof(sev[0]); k++)
		nicfit__prom_sample(b, "nicfit_audit_findings", (double)nicfit_findings_count(fs, sev[k]),
				    "severity", nicfit_severity_name(sev[k]), NULL);
	nicfit__prom_family(b, "nicfit_audit_findings_by_code", "gauge",
			    "Findings of the last audit by code and severity, ignored ones left out.");
	for (i = 0; i < fs->n; i++) {
		const struct nicfit_finding *f = &fs->v[i];
		size_t n = 0;
		int seen = 0;

		if (f->severity == NICFIT_SEV_NONE || f->ignored)
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = fs->v[j].severity == f->severity && !fs->v[j].ignored &&
			       !strcmp(fs->v[j].code, f->code);
		if (seen)
			continue;
		for (j = i; j < fs->n; j++)
			if (fs->v[j].severity == f->severity && !fs->v[j].ignored &&
			    !strcmp(fs->v[j].code, f->code))
				n++;
		nicfit__prom_sample(b, "nicfit_audit_findings_by_code", (double)n, "code", f->code,
				    "severity", nicfit_severity_name(f->severity), NULL);
	}
}

static void host(struct nicfit_buf *b, const struct nicfit_audit *a,
		 const struct nicfit_ops_run *run)
{
	const struct nicfit_topo *t = a->topo;

	nicfit__prom_family(b, "nicfit_audit_info", "gauge",
			    "The audited host as it describes itself, and the nicfit that audited it.");
	nicfit__prom_sample(b, "nicfit_audit_info", 1, "version", NICFIT_VERSION,
			    "host", t->hostname, "vendor", t->sys_vendor, "product", t->product,
			    "kernel", t->kernel, NULL);
	nicfit__prom_family(b, "nicfit_audit_status", "gauge",
			    "The audit's exit status: 0 clean, 1 warnings, 2 critical findings.");
	nicfit__prom_sample(b, "nicfit_audit_status", nicfit_audit_exit_code(a), NULL);
	if (a->gdr_kernel >= 0) {
		nicfit__prom_family(b, "nicfit_gpudirect_kernel_support", "gauge",
				    "1 when a GPUDirect RDMA kernel module (nvidia_peermem, "
				    "nv_peer_mem) is loaded.");
		nicfit__prom_sample(b, "nicfit_gpudirect_kernel_support", a->gdr_kernel, NULL);
	}
	if (run && run->duration_s >= 0) {
		nicfit__prom_family(b, "nicfit_audit_duration_seconds", "gauge",
				    "How long the last audit took to read and judge the host.");
		nicfit__prom_sample(b, "nicfit_audit_duration_seconds", run->duration_s, NULL);
	}
	if (run && run->end_time_s >= 0) {
		nicfit__prom_family(b, "nicfit_audit_last_run_timestamp_seconds", "gauge",
				    "When the last audit ended, in seconds since the Unix epoch.");
		nicfit__prom_sample(b, "nicfit_audit_last_run_timestamp_seconds", run->end_time_s,
				    NULL);
	}
}

int nicfit_audit_render_prom(const struct nicfit_audit *a, const struct nicfit_ops_run *run,
			     struct nicfit_buf *out)
{
	host(out, a, run);
	devices(out, a);
	pairs(out, a);
	rdma(out, a);
	findings(out, a);
	return nicfit_buf_error(out);
}
