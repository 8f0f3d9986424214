/*
 * accept_band.c - what each stage of a runbook should measure: the
 * ceiling from the formulas nicfit already has (physics/link.c for a
 * link's goodput, nccl-tests' busbw definition for a ring), the typical
 * line at or above which a step passes and the broken line below which
 * something is broken, each with where it comes from. No figure here
 * belongs to a product: every one is a formula of the system's parts, and
 * the two empirical factors (NVLink's ring efficiency and NVLS's gain)
 * carry the NVIDIA statement they come from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/num_int.h"
#include "nicfit/link.h"
#include "nicfit/verify.h"
#include "accept/accept_int.h"

/*
 * NVIDIA's figures for NVLink on 8 x H100 (Sylvain Jeaugey, NCCL's
 * maintainer, NVIDIA/nccl-tests#212, 2024-05-06): "450GB/s is the line
 * rate. With the protocol overhead (~20%) NCCL can get an effective
 * NVLink bandwidth of 370GB/s" (a ring's busbw), and with NVLink SHARP
 * "On 8 GPUs, you should reach a peak busBw of ~480GB/s". The runbook
 * takes them as ratios to the line rate, so that a GPU's own NVLink
 * (data/gpus.json nvlink_gbs) scales them: the ring's efficiency is what
 * good hardware reaches (shown beside the ceiling), NVLS's gain the figure
 * a switch with SHARP reaches on 8 GPUs (shown, not required: NVLS needs
 * third-generation NVSwitch). The typical line is verify's 0.80 of the
 * line rate, as for a NIC: NVIDIA's "~370" is an approximate figure of
 * healthy nodes (a healthy 8 x H100 ring measures 368.6 GB/s, published
 * in togethercomputer/together-nccl-tests), so a pass line exactly at it
 * would fail good nodes.
 */
#define NVLINK_RING_EFFICIENCY (370.0 / 450.0)
#define NVLS_GAIN_8GPU (480.0 / 450.0)
#define NVLINK_SOURCE "NVIDIA/nccl-tests#212 (NVIDIA, 2024-05-06): 450 GB/s line rate, " \
	"~370 GB/s ring busbw, ~480 GB/s busbw with NVLS on 8 x H100"

/*
 * NVIDIA's figure for a NIC (Sylvain Jeaugey, NVIDIA/nccl-tests#119,
 * 2022-11-17): "We usually consider 24GB/s is the peak performance per
 * 200G NIC (12 GB/s for 100G NICs)", 96 % of the line rate, and
 * (AddyLaddy, NVIDIA/nccl-tests#290, 2025-03-03) "For NDR @ 400Gbps you
 * should see 46-48GB/s per NIC", 92-96 %. The ceiling is the link
 * formula's goodput (header efficiency at the MTU), which sits just above
 * them; the sources say that is what good hardware reaches, and the
 * typical line (0.80) leaves their margin twice over.
 */
#define NIC_SOURCE "NVIDIA/nccl-tests#119 (NVIDIA, 2022-11-17): ~12 GB/s busbw per 100G " \
	"NIC, ~24 GB/s per 200G NIC is the peak; NVIDIA/nccl-tests#290 (NVIDIA, 2025-03-03): " \
	"46-48 GB/s per NDR 400G NIC"
#define VERIFY_LINES "verify's thresholds (docs/json-verify.md): typical 0.80, broken 0.50 " \
	"of the ceiling"
#define NVLINK_LINES "typical: verify's 0.80 of the line rate, under NVIDIA's approximate " \
	"ring figure (370/450 = 0.82); broken: under 0.50, the traffic is not on NVLink " \
	"(verify-nvlink-far-below)"

/* The link result of the rails (RDMA) or of a front-end port (TCP). */
static int link_of(const struct nicfit_speed *sp, enum nicfit_proto proto,
		   struct nicfit_link_result *lr)
{
	struct nicfit_link_params lp;

	memset(lr, 0, sizeof(*lr));
	nicfit_link_params_default(&lp);
	return nicfit_link_calc(sp, proto, &lp, lr, NULL);
}

double nicfit__accept_rail_goodput(const struct nicfit_accept_system *sys)
{
	struct nicfit_link_result lr;

	if (sys->link.gbps <= 0 ||
	    link_of(&sys->link, sys->ib ? NICFIT_PROTO_IB : NICFIT_PROTO_ROCE, &lr))
		return 0;
	if (sys->rail_pcie_gbps > 0 && sys->rail_pcie_gbps < lr.goodput_gbps)
		return sys->rail_pcie_gbps;
	return lr.goodput_gbps;
}

/* "NDR InfiniBand at 4096-byte MTU: 0.9xxx x 400.0 Gb/s = ... Gb/s" into *f. */
static char *rail_formula(const struct nicfit_accept_system *sys, double *nic)
{
	struct nicfit_link_result lr;
	char name[48];

	*nic = nicfit__accept_rail_goodput(sys);
	if (*nic <= 0 || link_of(&sys->link, sys->ib ? NICFIT_PROTO_IB : NICFIT_PROTO_ROCE, &lr))
		return NULL;
	if (lr.ib_name[0])
		snprintf(name, sizeof(name), "%s InfiniBand", lr.ib_name);
	else
		snprintf(name, sizeof(name), "%.0fG RoCE v2", sys->link.gbps);
	return nicfit__strfmt("%s at %.0f-byte MTU: %.4f x %.1f Gb/s = %.1f Gb/s%s", name,
			      lr.payload_bytes, lr.efficiency, lr.line_gbps, lr.goodput_gbps,
			      *nic + NICFIT_EPS < lr.goodput_gbps ?
			      ", capped by the card's PCIe share" : "");
}

static int band_rail(const struct nicfit_accept_system *sys, struct nicfit_accept_band *b)
{
	double nic;

	b->formula = rail_formula(sys, &nic);
	if (!b->formula)
		return NICFIT_E_NOMEM;
	if (sys->rail_pcie_gbps > 0 && sys->rail_pcie_gbps < nic + NICFIT_EPS) {
		char *f = nicfit__strfmt("%s -> %.1f Gb/s", b->formula, nic);

		free(b->formula);
		b->formula = f;
		if (!f)
			return NICFIT_E_NOMEM;
	}
	b->ceiling_gbps = nic;
	b->source = NIC_SOURCE;
	return 0;
}

static int band_allreduce(const struct nicfit_accept_system *sys, struct nicfit_accept_band *b)
{
	double nic;
	char *one = rail_formula(sys, &nic);

	if (!one)
		return NICFIT_E_NOMEM;
	b->ceiling_gbps = sys->rails * nic;
	b->busbw = 1;
	b->formula = nicfit__strfmt("%d rail%s x %.1f Gb/s (%s) = %.1f Gb/s = %.1f GB/s busbw "
				    "(a ring over %d nodes; busbw = algbw x 2(n-1)/n)", sys->rails,
				    sys->rails == 1 ? "" : "s", nic, one, b->ceiling_gbps,
				    b->ceiling_gbps / 8, sys->nodes);
	free(one);
	b->source = NIC_SOURCE;
	return b->formula ? 0 : NICFIT_E_NOMEM;
}

static int band_nvlink(const struct nicfit_accept_system *sys, struct nicfit_accept_band *b)
{
	double one = sys->nvlink_gbs / 2;

	b->busbw = 1;
	b->ceiling_gbps = one * 8;
	if (sys->gpus_per_node == 8)
		b->nvls_gbps = b->ceiling_gbps * NVLS_GAIN_8GPU;
	b->formula = nicfit__strfmt("NVLink %.0f GB/s a GPU, both directions (%s) / 2 = %.1f GB/s "
				    "one direction: a ring's busbw over NVSwitch; NVIDIA's ring reaches "
				    "x 370/450 = %.1f GB/s%s%.1f%s", sys->nvlink_gbs, sys->gpu_source, one,
				    one * NVLINK_RING_EFFICIENCY,
				    b->nvls_gbps > 0 ? "; with NVLS (NVLink SHARP) on 8 GPUs x "
				    "480/450 = " : "", b->nvls_gbps / 8,
				    b->nvls_gbps > 0 ? " GB/s" : "");
	b->lines = NVLINK_LINES;
	b->source = NVLINK_SOURCE;
	return b->formula ? 0 : NICFIT_E_NOMEM;
}

static int band_frontend(const struct nicfit_accept_system *sys, struct nicfit_accept_band *b)
{
	struct nicfit_link_result lr;
	struct nicfit_speed sp;
	char s[32];

	snprintf(s, sizeof(s), "%gGbE", sys->fe_port_gbps);
	if (nicfit_parse_speed(s, "front end", &sp, NULL) || link_of(&sp, NICFIT_PROTO_TCP, &lr))
		return NICFIT_E_INTERNAL;
	b->ceiling_gbps = lr.goodput_gbps;
	b->formula = nicfit__strfmt("%.0fG TCP at %.0f-byte payload per frame: %.4f x %.1f Gb/s = "
				    "%.1f Gb/s (one port: iperf3 between two hosts takes one link)",
				    sys->fe_port_gbps, lr.payload_bytes, lr.efficiency,
				    lr.line_gbps, lr.goodput_gbps);
	return b->formula ? 0 : NICFIT_E_NOMEM;
}

/*
 * GPUDirect Storage on one GPU (gdsio -d 0): the step reads into one GPU,
 * so its ceiling is the narrower of that GPU's own PCIe link (the pcie
 * formula, catalog generation and width) and the node's storage ports as
 * the plan counts them (their TCP goodput, bonded: R3's figure). The
 * node's storage figure is for all its GPUs at once (NVIDIA's storage
 * guidance is per node): each GPU's share of it is what a GPU gets when
 * every GPU reads together, and a GPU reading alone through a sound path
 * reaches at least that share. So the typical line is the share and the
 * broken line half of it; a GPU above its share and below the ceiling
 * passes (one GPU with 8 threads rarely fills a node's ports).
 */
#define STORAGE_LINES "typical: the GPU's share of the node's storage ports (ports / GPUs " \
	"of the node: what each GPU gets when all read at once); broken: under half that share"

static int band_storage(const struct nicfit_accept_system *sys, struct nicfit_accept_band *b)
{
	int gpus = sys->gpus_per_node > 0 ? sys->gpus_per_node : 1;
	double share = sys->st_gbps / gpus, gib = 1e9 / 8 / (1024.0 * 1024 * 1024);
	char path[160];

	path[0] = 0;
	b->ceiling_gbps = sys->st_gbps;
	if (sys->gpu_pcie_gbps > 0) {
		snprintf(path, sizeof(path), "min(the GPU's PCIe Gen%d x%d link %.1f Gb/s, ",
			 sys->gpu_pcie_gen, sys->gpu_pcie_width, sys->gpu_pcie_gbps);
		if (sys->gpu_pcie_gbps < b->ceiling_gbps)
			b->ceiling_gbps = sys->gpu_pcie_gbps;
	}
	b->typical_gbps = share;
	b->broken_gbps = share / 2;
	b->lines = STORAGE_LINES;
	b->formula = nicfit__strfmt("one GPU's read: %sthe storage ports of a node (%s) %.1f Gb/s of "
				    "goodput, as the plan counts them%s = %.1f Gb/s = %.2f GiB/s as "
				    "gdsio prints it; the GPU's share: %.1f Gb/s / %d GPUs = %.1f "
				    "Gb/s = %.2f GiB/s",
				    path, sys->st_part[0] ? sys->st_part : "storage NICs",
				    sys->st_gbps, path[0] ? ")" : "", b->ceiling_gbps,
				    b->ceiling_gbps * gib, sys->st_gbps, gpus, share, share * gib);
	b->source = "NVIDIA GPUDirect Storage Benchmarking and Configuration Guide, section 3 "
		    "(docs.nvidia.com/gpudirect-storage/configuration-guide): gdsio -w 8 -i 1M -x 0 "
		    "-I 0";
	return b->formula ? 0 : NICFIT_E_NOMEM;
}

int nicfit__accept_band(const struct nicfit_accept_system *sys, struct nicfit_accept_stage *st)
{
	struct nicfit_accept_band *b = &st->band;
	int rc;

	memset(b, 0, sizeof(*b));
	switch (st->kind) {
	case NICFIT_ACCEPT_NVLINK:
		rc = band_nvlink(sys, b);
		break;
	case NICFIT_ACCEPT_RAIL_WRITE:
	case NICFIT_ACCEPT_RAIL_READ:
		rc = band_rail(sys, b);
		break;
	case NICFIT_ACCEPT_ALLREDUCE:
		rc = band_allreduce(sys, b);
		break;
	case NICFIT_ACCEPT_FRONTEND:
		rc = band_frontend(sys, b);
		break;
	case NICFIT_ACCEPT_STORAGE:
		rc = band_storage(sys, b);
		break;
	default:
		return NICFIT_E_INTERNAL;
	}
	if (rc)
		return rc;
	if (!b->typical_gbps)
		b->typical_gbps = b->ceiling_gbps * NICFIT_VERIFY_LOW_RATIO;
	if (!b->broken_gbps)
		b->broken_gbps = b->ceiling_gbps * NICFIT_VERIFY_FAR_RATIO;
	if (!b->lines)
		b->lines = VERIFY_LINES;
	return 0;
}

double nicfit__accept_shown(const struct nicfit_accept_band *b, double gbps)
{
	return b->busbw ? gbps / 8 : gbps;
}

const char *nicfit__accept_unit(const struct nicfit_accept_band *b)
{
	return b->busbw ? "GB/s busbw" : "Gb/s";
}
