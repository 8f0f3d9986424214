/*
 * audit_gpu.c - GPU-NIC pairs and GPUDirect (see audit_int.h): the path
 * class of every GPU with every network card, as `nvidia-smi topo -m`
 * prints it (docs/reference/topology.md 2), whether NCCL would use GPUDirect
 * RDMA on it by default (topology.md 1.5), each GPU's nearest NIC; and
 * what stands between GPUs and NICs: distance, a card on the wrong
 * socket, the kernel module GPUDirect needs, ACS redirection in the
 * switches, an IOMMU that translates their DMA.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/gpu_stack_int.h"
#include "core/fmt_int.h"

/* ACS control: P2P Request Redirect (bit 2) and Completion Redirect (bit 3). */
#define ACS_CTRL_REDIRECT 0x000c

/* c->seen_link bits of this file: a port that redirects, and one reported. */
#define SEEN_ACS_REDIRECTS 2
#define SEEN_ACS_REPORTED 4

static int is_gpu(const struct nicfit_audit_dev *d)
{
	return d->kind == NICFIT_DEV_GPU || d->kind == NICFIT_DEV_ACCEL;
}

/* ---- pairs ------------------------------------------------------------------- */

/*
 * The same for an AMD Instinct GPU and RCCL, NCCL's fork for AMD GPUs,
 * which keeps its default reach (PXB) and its test of the kernel: the
 * amdgpu driver's peer-memory client, registered under memory_peers/amdkfd
 * (RCCL's net_ib.cc), or DMA-BUF, which is decided at run time. So a close
 * pair without the client is "kernel-support-unknown", never refused.
 */
static const char *gdr_reason_amd(const struct nicfit__audit_ctx *c,
				  const struct nicfit_audit_dev *nic, enum nicfit_path path)
{
	if (!nic->rdma)
		return "no-rdma";
	if (path > NICFIT_PATH_PXB)
		return "distance";
	return c->t->amdkfd_peer ? "ok" : "kernel-support-unknown";
}

/*
 * Whether NCCL uses GPUDirect RDMA on a pair by default (its
 * ncclTopoCheckGdr, docs/reference/topology.md 1.5): an NVIDIA GPU, an RDMA
 * NIC, a path no longer than PXB, and the kernel's peer-memory support.
 * The first condition that fails is the reason; a pair that meets the
 * others on a tree that cannot show the kernel's support (no sys/module)
 * is "kernel-support-unknown", and its default unknown.
 */
static const char *gdr_reason(const struct nicfit__audit_ctx *c,
			      const struct nicfit_audit_dev *g, const struct nicfit_audit_dev *nic,
			      enum nicfit_path path)
{
	if (nicfit__audit_amd_instinct(P(c, g->pci)))
		return gdr_reason_amd(c, nic, path);
	if (P(c, g->pci)->vendor != PCI_VENDOR_NVIDIA)
		return "not-nvidia";
	if (!nic->rdma)
		return "no-rdma";
	if (path > NICFIT_PATH_PXB)
		return "distance";
	if (c->a->gdr_kernel < 0)
		return "kernel-support-unknown";
	if (!c->a->gdr_kernel)
		return "no-kernel-support";
	return "ok";
}

void nicfit__audit_pairs(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;
	int i, j;
	size_t gpus = 0, nics = 0, n;

	for (i = 0; i < a->ndevs; i++) { /* every GPU with every NIC's physical function */
		gpus += is_gpu(&a->devs[i]) != 0;
		nics += a->devs[i].kind == NICFIT_DEV_NIC && P(c, a->devs[i].pci)->physfn < 0;
	}
	n = gpus * nics;
	a->pairs = calloc(n ? n : 1, sizeof(*a->pairs));
	if (!a->pairs) {
		c->oom = 1;
		return;
	}
	for (i = 0; i < a->ndevs; i++) {
		struct nicfit_audit_dev *g = &a->devs[i];

		if (!is_gpu(g))
			continue;
		for (j = 0; j < a->ndevs; j++) {
			struct nicfit_audit_dev *nic = &a->devs[j];
			struct nicfit_audit_pair *pr;

			if (nic->kind != NICFIT_DEV_NIC || P(c, nic->pci)->physfn >= 0)
				continue;
			pr = &a->pairs[a->npairs++];
			pr->gpu = i;
			pr->nic = j;
			pr->path = nicfit_topo_path(c->t, g->pci, nic->pci, &pr->locality_known,
						      &pr->lca_pci);
			pr->gdr_reason = gdr_reason(c, g, nic, pr->path);
			pr->gdr_default = !strcmp(pr->gdr_reason, "ok") ? 1
					  : !strcmp(pr->gdr_reason, "kernel-support-unknown") ? -1 : 0;
			/* nearest NIC: RDMA ones first when the host has any */
			if (a->nrdma_nics && !nic->rdma)
				continue;
			if (g->best_nic < 0 || pr->path < g->best_path) {
				g->best_nic = j;
				g->best_path = pr->path;
			}
		}
	}
}

/* ---- GPUs and their nearest NIC ------------------------------------------------ */

/*
 * gpu-nic-cross-socket where the sockets are unknown (a dump with lspci's
 * NUMA nodes and no lscpu, numactl or cpuinfo; a host whose CPU topology
 * is unreadable): SYS was judged from the NUMA nodes, which is what NCCL
 * judges by too, so the finding stands, said of the nodes and saying the
 * socket is unknown. Free slots are listed per socket, so none are named.
 * With no NUMA node either, it names neither.
 */
static void cross_node(struct nicfit__audit_ctx *c, int gi, const char *gdr)
{
	struct nicfit_audit *a = c->a;
	const struct nicfit_audit_dev *g = &a->devs[gi], *n = &a->devs[g->best_nic];
	const char *bdf = P(c, g->pci)->bdf;
	struct nicfit_finding *f;

	if (g->numa < 0 || n->numa < 0) {
		nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_GPU_NIC_CROSS_SOCKET, bdf,
				   S_TOPO_GDR, "Put an RDMA NIC under the GPU's host bridge or PCIe "
				   "switch.",
				   "%s's nearest RDMA NIC, %s, is SYS, so its traffic crosses the CPU "
				   "interconnect%s; their NUMA nodes and sockets are unknown.",
				   g->label, n->label, gdr);
		return;
	}
	f = nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_GPU_NIC_CROSS_SOCKET, bdf,
			       S_TOPO_GDR, NULL,
			       "%s (NUMA node %d) has no RDMA NIC on its NUMA node: the nearest, %s "
			       "(NUMA node %d), is SYS, so its traffic crosses the CPU interconnect "
			       "between the nodes%s; which sockets the nodes are on is unknown.", g->label,
			       g->numa, n->label, n->numa, gdr);
	if (f)
		nicfit__finding_fix(&a->findings, f,
				    "Put an RDMA NIC on NUMA node %d with the GPU, or move the GPU to "
				    "NUMA node %d.", g->numa, n->numa);
}

/*
 * gpu-nic-locality-unknown, gpu-nic-cross-socket, gpu-nic-no-gdr-path:
 * what the path from a GPU to its nearest RDMA NIC costs. SYS means its
 * network traffic crosses the inter-socket link and NCCL will not use
 * GPUDirect RDMA (a warning; the fix names free slots on both sockets);
 * PHB or NODE keeps it on the socket but through host memory (a note:
 * NCCL_NET_GDR_LEVEL may raise it). When the firmware gives no NUMA
 * locality, the class is a guess, and said to be one. The collective
 * library is the GPU maker's (core/gpu_stack_int.h): NCCL for NVIDIA,
 * RCCL for AMD Instinct, which keeps NCCL's PXB default but documents no
 * variable to widen it, so its fix names none. For another vendor's GPU
 * or accelerator (gdr_reason "not-nvidia") the findings say what the path
 * costs without naming a library, GPUDirect or its settings.
 */
static void rule_nearest_nic(struct nicfit__audit_ctx *c, int gi)
{
	struct nicfit_audit *a = c->a;
	const struct nicfit_audit_dev *g = &a->devs[gi], *n = &a->devs[g->best_nic];
	const char *bdf = P(c, g->pci)->bdf;
	struct nicfit_finding *f;
	const struct nicfit_pcidev *gp = P(c, g->pci);
	const struct nicfit__gpu_stack *st = gp->vendor == PCI_VENDOR_AMD_GPU &&
		!nicfit__audit_amd_instinct(gp) ? NULL : nicfit__gpu_stack_by_pci(gp->vendor);
	char fs1[256], fs2[256], gdr[64] = "";
	int j, known = 1, nv = st && st->maker == NICFIT_MAKER_NVIDIA;

	if (st && st->maker != NICFIT_MAKER_GAUDI)
		snprintf(gdr, sizeof(gdr), " and %s will not use GPUDirect RDMA", st->ccl);

	for (j = 0; j < a->npairs; j++)
		if (a->pairs[j].gpu == gi && a->pairs[j].nic == g->best_nic)
			known = a->pairs[j].locality_known;
	if (!known) {
		nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_GPU_NIC_LOCALITY_UNKNOWN, bdf,
				   S_TOPO_TRAPS, "See numa-locality-unknown.",
				   "%s and its nearest RDMA NIC %s hang off different host bridges and "
				   "the firmware gives no NUMA locality, so whether they share a socket "
				   "is unknown.", g->label, n->label);
	} else if (g->best_path == NICFIT_PATH_SYS && (g->socket < 0 || n->socket < 0)) {
		cross_node(c, gi, gdr);
	} else if (g->best_path == NICFIT_PATH_SYS) {
		f = nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_GPU_NIC_CROSS_SOCKET, bdf,
				       S_TOPO_GDR, NULL,
				       "%s (socket %d) has no RDMA NIC on its socket: the nearest, %s "
				       "(socket %d), is SYS, so its traffic crosses the inter-socket "
				       "link%s.", g->label, g->socket, n->label, n->socket, gdr);
		if (!f)
			return;
		nicfit__audit_free_slots(c, g->socket, 0, fs1, sizeof(fs1));
		nicfit__audit_free_slots(c, n->socket, 0, fs2, sizeof(fs2));
		nicfit__finding_fix(&a->findings, f,
				    "Put an RDMA NIC on socket %d with the GPU%s%s%s, or move the GPU "
				    "to socket %d%s%s%s.", g->socket, fs1[0] ? " (free slots: " : "",
				    fs1, fs1[0] ? ")" : "", n->socket,
				    fs2[0] ? " (free slots: " : "", fs2, fs2[0] ? ")" : "");
	} else if (g->best_path >= NICFIT_PATH_PHB && gdr[0] && !nv) {
		nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_GPU_NIC_NO_GDR_PATH, bdf,
				   S_TOPO_GDR,
				   "GPUDirect RDMA by default needs the GPU and NIC under one PCIe "
				   "switch (PIX or PXB): a server with switches that pair GPUs and NICs.",
				   "%s's nearest RDMA NIC, %s, is %s: %s moves its network data "
				   "through host memory instead of GPUDirect RDMA.", g->label, n->label,
				   nicfit_path_name(g->best_path), st->ccl);
	} else if (g->best_path >= NICFIT_PATH_PHB && !nv) {
		nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_GPU_NIC_NO_GDR_PATH, bdf,
				   S_TOPO_GDR,
				   "A peer-to-peer path to the NIC needs the device and the NIC under "
				   "one PCIe switch (PIX or PXB), if its software does RDMA from device "
				   "memory.",
				   "%s's nearest RDMA NIC, %s, is %s: its network data goes through "
				   "host memory, not peer to peer.", g->label, n->label,
				   nicfit_path_name(g->best_path));
	} else if (g->best_path >= NICFIT_PATH_PHB) {
		nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_GPU_NIC_NO_GDR_PATH, bdf,
				   S_TOPO_GDR,
				   "GPUDirect RDMA by default needs the GPU and NIC under one PCIe "
				   "switch (PIX or PXB): a server with switches that pair GPUs and NICs, "
				   "or set NCCL_NET_GDR_LEVEL=PHB if this platform's root complex "
				   "handles peer-to-peer well.",
				   "%s's nearest RDMA NIC, %s, is %s: NCCL moves its network data "
				   "through host memory instead of GPUDirect RDMA.", g->label, n->label,
				   nicfit_path_name(g->best_path));
	}
}

/*
 * nic-wrong-socket: an RDMA card sits on a socket with no GPU while the
 * GPUs sit on another: every byte it carries crosses the inter-socket
 * link. A warning; the fix names the free slots on the GPUs' socket.
 */
static void rule_nic_socket(struct nicfit__audit_ctx *c, const struct nicfit_audit_dev *n)
{
	struct nicfit_audit *a = c->a;
	struct nicfit_finding *f;
	int j, gpu_here = 0, s = -1;
	char fs[256];

	if (n->kind != NICFIT_DEV_NIC || !n->rdma || !n->card_lead || n->socket < 0)
		return;
	for (j = 0; j < a->ndevs; j++) {
		const struct nicfit_audit_dev *g = &a->devs[j];

		if (!is_gpu(g))
			continue;
		if (g->socket == n->socket)
			gpu_here = 1;
		else if (g->socket >= 0)
			s = g->socket;
	}
	if (gpu_here || s < 0)
		return;
	f = nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_NIC_WRONG_SOCKET,
			       P(c, n->pci)->bdf, S_TOPO_GDR, NULL,
			       "%s %s is on socket %d, the GPUs are on socket %d.", n->label,
			       n->name, n->socket, s);
	if (!f)
		return;
	nicfit__audit_free_slots(c, s, 0, fs, sizeof(fs));
	nicfit__finding_fix(&a->findings, f, "Move the card to a slot on socket %d%s%s%s.", s,
			    fs[0] ? " (free slots there: " : "", fs,
			    fs[0] ? "; check each slot's width against the card)" : "");
}

/*
 * Only on hosts with an RDMA NIC: without one there is no GPUDirect path
 * to judge (no-rdma-nic says so, audit_checks.c). Each GPU's nearest NIC
 * first, then the RDMA cards that sit away from every GPU.
 */
void nicfit__audit_judge_gpus(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;
	int i;

	if (!a->nrdma_nics)
		return;
	for (i = 0; i < a->ndevs; i++)
		if (is_gpu(&a->devs[i]) && a->devs[i].best_nic >= 0)
			rule_nearest_nic(c, i);
	for (i = 0; i < a->ndevs; i++)
		rule_nic_socket(c, &a->devs[i]);
}

/* ---- GPUDirect ----------------------------------------------------------------- */

/*
 * gdr-no-peermem: NVIDIA GPUs and RDMA NICs, but neither nvidia_peermem
 * nor nv_peer_mem is loaded (docs/reference/topology.md 1.1), so NCCL cannot
 * register GPU memory with the NIC the classic way. With a pair close
 * enough for GPUDirect by default (PXB or closer) that disables it: a
 * warning, or a note when the NVIDIA driver itself is known to be absent
 * (nothing runs yet). The driver counts as loaded when a GPU is bound to
 * it, whatever sys/module says. A capture without sys/module cannot show
 * whether nvidia_peermem is loaded: the finding then says it is unknown,
 * not that it is missing. With no close pair it matters only once
 * NCCL_NET_GDR_LEVEL is raised: a note. DMA-BUF, the module's successor,
 * is decided at run time and noted as not checked.
 */
/*
 * gdr-no-peermem for AMD Instinct GPUs: a GPU and an RDMA NIC close enough
 * for RCCL's default GPUDirect RDMA (PXB), but the amdgpu driver has not
 * registered its peer-memory client (memory_peers/amdkfd/version, where
 * RCCL's net_ib.cc looks). RCCL may still register GPU memory through
 * DMA-BUF, which is decided at run time, so it is a note, not a warning.
 * ROCm's amdgpu driver package (amdgpu-dkms) is the one that registers it.
 */
static void judge_gdr_amd(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;
	int i, close_pair = 0;

	for (i = 0; i < a->npairs; i++) {
		const struct nicfit_audit_pair *pr = &a->pairs[i];

		if (nicfit__audit_amd_instinct(P(c, a->devs[pr->gpu].pci)) &&
		    a->devs[pr->nic].rdma && pr->path <= NICFIT_PATH_PXB)
			close_pair = 1;
	}
	if (!close_pair || c->t->amdkfd_peer)
		return;
	nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_GDR_NO_PEERMEM, "host", S_GDR_AMD,
			   "Load the amdgpu driver of ROCm (the amdgpu-dkms package), which "
			   "registers the client, or check that DMA-BUF works: RCCL's log "
			   "(NCCL_DEBUG=INFO) then says 'GPU Direct RDMA Enabled'.",
			   "AMD GPUs and RDMA NICs are close enough for GPUDirect RDMA, but the "
			   "amdgpu driver's peer-memory client is not registered (no "
			   "memory_peers/amdkfd/version under /sys/kernel/mm, /sys/kernel or "
			   "/sys): RCCL then depends on DMA-BUF, decided at run time.");
}

void nicfit__audit_judge_gdr(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;
	const struct nicfit_topo *t = c->t;
	int i, close_pair = 0, nvidia = 0;

	judge_gdr_amd(c);
	for (i = 0; i < a->npairs; i++) {
		const struct nicfit_audit_pair *pr = &a->pairs[i];

		if (P(c, a->devs[pr->gpu].pci)->vendor == PCI_VENDOR_NVIDIA &&
		    a->devs[pr->nic].rdma) {
			nvidia = 1;
			if (pr->path <= NICFIT_PATH_PXB)
				close_pair = 1;
		}
	}
	if (!nvidia || a->gdr_kernel > 0)
		return;
	nicfit__audit_not_checked(c, "dma_buf",
				  "Whether GPUDirect RDMA can use DMA-BUF instead of nvidia_peermem "
				  "is decided at run time (NCCL calls ibv_reg_dmabuf_mr; the kernel "
				  "needs CONFIG_PCI_P2PDMA): sysfs does not show it.");
	if (!close_pair) {
		nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_GDR_NO_PEERMEM, "host",
				   S_GDR_KERNEL,
				   "`modprobe nvidia_peermem` (or rely on DMA-BUF) before setting "
				   "NCCL_NET_GDR_LEVEL=PHB.",
				   "%s No GPU-NIC pair here is close enough for NCCL's default "
				   "GPUDirect RDMA, but with NCCL_NET_GDR_LEVEL raised it would need "
				   "the module or DMA-BUF.", a->gdr_kernel < 0 ?
				   "Whether nvidia_peermem is loaded is unknown (this tree has no "
				   "sys/module), and nv_peer_mem is not in /sys/kernel/mm/memory_peers."
				   : "nvidia_peermem (or nv_peer_mem) is not loaded.");
		return;
	}
	if (a->gdr_kernel < 0) {
		nicfit__audit_find(c, t->nvidia_driver > 0 ? NICFIT_SEV_WARNING : NICFIT_SEV_INFO,
				   NICFIT_CODE_GDR_NO_PEERMEM, "host", S_GDR_KERNEL,
				   "On the host: `lsmod | grep -e nvidia_peermem -e nv_peer_mem`; "
				   "if neither is there, `modprobe nvidia_peermem` or rely on DMA-BUF.",
				   "GPUDirect RDMA may be disabled: GPU-NIC pairs are close enough for "
				   "it, nv_peer_mem is not in /sys/kernel/mm/memory_peers, and whether "
				   "nvidia_peermem is loaded is unknown (this tree has no sys/module)"
				   "%s.", t->nvidia_driver > 0 ? "" :
				   "; so is whether the NVIDIA driver is");
		return;
	}
	nicfit__audit_find(c, t->nvidia_driver ? NICFIT_SEV_WARNING : NICFIT_SEV_INFO,
			   NICFIT_CODE_GDR_NO_PEERMEM, "host", S_GDR_KERNEL,
			   "`modprobe nvidia_peermem` (and list it in /etc/modules-load.d/), or rely "
			   "on DMA-BUF (kernel with CONFIG_PCI_P2PDMA); NCCL's log then says 'GPU "
			   "Direct RDMA Enabled'.",
			   "GPUDirect RDMA is disabled: GPU-NIC pairs are close enough for it, but "
			   "neither nvidia_peermem (/sys/module/nvidia_peermem/version) nor "
			   "nv_peer_mem (/sys/kernel/mm/memory_peers/nv_mem/version) is loaded%s.",
			   t->nvidia_driver ? "" : " (the NVIDIA driver is not loaded either)");
}

/* Mark the ports that redirect peer-to-peer between the ends of close pairs. */
static void mark_acs(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;
	int i, k, e;

	for (i = 0; i < a->npairs; i++) {
		const struct nicfit_audit_pair *pr = &a->pairs[i];
		int ends[2];

		if (pr->path > NICFIT_PATH_PXB)
			continue;
		ends[0] = a->devs[pr->gpu].pci;
		ends[1] = a->devs[pr->nic].pci;
		for (e = 0; e < 2; e++) {
			int chain[2 * NICFIT_TOPO_MAX_DEPTH];
			int n = nicfit_topo_chain(c->t, ends[e], chain,
						  (int)(sizeof(chain) / sizeof(chain[0])));
			int below = 0;

			for (k = 0; k < n - 1; k++) {
				const struct nicfit_pcidev *b = P(c, chain[k]);

				if (chain[k] == pr->lca_pci)
					below = 1;
				else if (below && b->acs && (b->acs_ctrl & ACS_CTRL_REDIRECT))
					c->seen_link[chain[k]] |= SEEN_ACS_REDIRECTS;
			}
		}
	}
}

/* The GPU and RDMA NIC labels below port k, appended to devs. */
static void labels_below(const struct nicfit__audit_ctx *c, int k, char *devs, size_t n,
			 size_t *dl)
{
	const struct nicfit_audit *a = c->a;
	int i, j, m;

	for (i = 0; i < a->ndevs; i++) {
		int chain[2 * NICFIT_TOPO_MAX_DEPTH];

		if (a->devs[i].kind != NICFIT_DEV_GPU && !a->devs[i].rdma)
			continue;
		m = nicfit_topo_chain(c->t, a->devs[i].pci, chain,
				      (int)(sizeof(chain) / sizeof(chain[0])));
		for (j = 0; j < m; j++)
			if (chain[j] == k && *dl < n)
				*dl += (size_t)nicfit__fmt(devs + *dl, n - *dl, "%s%s", *dl ? ", " : "",
							a->devs[i].label);
	}
}

/* One acs-redirect finding: switch sw and its redirecting ports, first, then next[]. */
static void report_switch(struct nicfit__audit_ctx *c, int sw, int first, const int *next)
{
	const struct nicfit_topo *t = c->t;
	char ports[256], devs[256];
	size_t pl = 0, dl = 0;
	int k, n = 0;

	for (k = first; k >= 0; k = next[k]) {
		c->seen_link[k] |= SEEN_ACS_REPORTED;
		n++;
		if (pl < sizeof(ports))
			pl += (size_t)nicfit__fmt(ports + pl, sizeof(ports) - pl, "%s%s",
					       pl ? ", " : "", t->pci[k].bdf);
		labels_below(c, k, devs, sizeof(devs), &dl);
	}
	nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_ACS_REDIRECT, t->pci[sw].bdf, S_ACS,
			   "Disable ACS redirection on these switch ports (the BIOS 'ACS' "
			   "setting, or `setpci -s PORT ECAP_ACS+6.w=0000` until reboot); keep "
			   "the IOMMU off or in passthrough (iommu=pt) when you do.",
			   "Switch %s redirects peer-to-peer requests to the root complex on %d "
			   "port%s (%s: ACS ReqRedir/CmpltRedir): GPUDirect traffic between %s "
			   "goes up to the CPU instead of across the switch, which slows or "
			   "breaks it.", t->pci[sw].bdf, n, n == 1 ? "" : "s", ports, devs);
}

/*
 * acs-redirect: switch ports between a GPU and a NIC that share the
 * switch have ACS P2P Request/Completion Redirect on, so peer-to-peer
 * (GPUDirect) traffic goes up to the root complex instead of across the
 * switch, which slows it or breaks it (docs/reference/anchors.md 5.4). One
 * warning per switch, naming its redirecting ports and the devices below.
 * ACS is in extended config space: only seen as root.
 */
void nicfit__audit_judge_acs(struct nicfit__audit_ctx *c)
{
	const struct nicfit_topo *t = c->t;
	int k, m = 0, *ports_of, *next;

	mark_acs(c);
	/*
	 * The redirecting ports grouped by their switch in one pass: a parent's
	 * index is below its child's, so a list per switch built from the
	 * highest port down is in index order, and the switches are visited in
	 * index order as before, without comparing every function with every
	 * function.
	 */
	for (k = 0; k < t->npci; k++)
		m += (c->seen_link[k] & SEEN_ACS_REDIRECTS) && t->pci[k].parent >= 0;
	if (!m)
		return;
	ports_of = malloc((size_t)t->npci * sizeof(*ports_of));
	next = malloc((size_t)t->npci * sizeof(*next));
	if (!ports_of || !next) {
		free(ports_of);
		free(next);
		return;
	}
	for (k = 0; k < t->npci; k++)
		ports_of[k] = -1;
	for (k = t->npci - 1; k >= 0; k--) {
		int sw = t->pci[k].parent;

		if (sw < 0 || !(c->seen_link[k] & SEEN_ACS_REDIRECTS) ||
		    (c->seen_link[k] & SEEN_ACS_REPORTED))
			continue;
		next[k] = ports_of[sw];
		ports_of[sw] = k;
	}
	for (k = 0; k < t->npci; k++)
		if (ports_of[k] >= 0)
			report_switch(c, k, ports_of[k], next);
	free(ports_of);
	free(next);
}

/*
 * iommu-translated: GPUs or RDMA NICs whose IOMMU group translates DMA
 * (type DMA or DMA-FQ, not identity): GPUDirect and peer-to-peer traffic
 * then goes through the IOMMU (docs/reference/anchors.md 5.4). A note: it
 * works, and some hosts need the IOMMU; passthrough (iommu=pt) avoids it.
 */
void nicfit__audit_judge_iommu(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;
	char list[256];
	const char *type = NULL;
	size_t len = 0;
	int i, n = 0;

	list[0] = '\0';
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];
		const struct nicfit_pcidev *p = P(c, d->pci);

		if (d->kind != NICFIT_DEV_GPU && !(d->kind == NICFIT_DEV_NIC && d->rdma))
			continue;
		if (strncmp(p->iommu_type, "DMA", 3))
			continue;
		if (!type)
			type = p->iommu_type;
		n++;
		if (len < sizeof(list))
			len += (size_t)nicfit__fmt(list + len, sizeof(list) - len, "%s%s",
						len ? ", " : "", d->label);
	}
	if (n)
		nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_IOMMU_TRANSLATED, "host", S_ACS,
				   "For GPUDirect and peer-to-peer, boot with iommu=pt (passthrough) "
				   "or turn the IOMMU off in the BIOS if nothing needs it.",
				   "The IOMMU translates DMA for %s (group type %s): GPU peer-to-peer "
				   "and GPUDirect RDMA traffic goes through it.", list, type);
}
