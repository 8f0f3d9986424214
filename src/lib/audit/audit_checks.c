/*
 * audit_checks.c - host-wide checks (see audit_int.h): a virtual machine,
 * GPUs without a driver, firmware without NUMA locality, GPUs without any
 * RDMA NIC, the Intel 700-series module trap, files that could not be
 * read; and the list of what sysfs cannot tell (not_checked), each with
 * the command that can.
 */
#include <stdio.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/fmt_int.h"
#include "core/pciids_int.h"

/* What the walk over the devices saw, for the host-wide rules. */
struct seen {
	int any_link;            /* a device has link files */
	int linked;              /* a device's link files report a speed */
	int nvidia;              /* NVIDIA functions */
	int amd_gpus;            /* AMD Instinct GPUs (vendor 1002) */
	int mlx_nics, bcm_nics;  /* NVIDIA (Mellanox) and Broadcom network functions */
	int vpd_hidden;          /* a NIC's VPD was unreadable */
	int roce;                /* RoCE ports: 1 PFC read, 2 PFC unknown (bits) */
};

/*
 * host-virtual: on a virtual machine PCIe links and NUMA locality are the
 * hypervisor's inventions (docs/reference/topology.md 3.2), so link findings
 * are skipped (audit_link.c) and this note says why.
 */
static void rule_virtual(struct nicfit__audit_ctx *c)
{
	if (!c->t->is_virtual)
		return;
	nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_HOST_VIRTUAL, "host", S_TOPO_VM,
			   "Judge links and locality on the physical host; on a cloud VM give NCCL "
			   "the provider's topology file (NCCL_TOPO_FILE).",
			   "This is a virtual machine (%s): PCIe links and NUMA locality are the "
			   "hypervisor's, not the hardware's, so link findings are skipped.",
			   c->t->virtual_why);
}

/*
 * gpu-no-driver, numa-locality-unknown: a GPU with no driver bound cannot
 * be used (a warning); in a tree that cannot show drivers nothing is said
 * but not_checked "drivers". GPUs and NICs with numa_node -1 (or no numa_node
 * file) on a host of several NUMA nodes leave NCCL unable to tell their
 * socket, so it may pick a far NIC (docs/reference/topology.md 6): one
 * warning naming them all (numa_unknown).
 * The walk also gathers what the not-checked notes depend on.
 */
/* Append a device's label to a list of them ("GPU0, mlx5_0"). */
static void list_add(char *list, size_t n, size_t *len, const char *label)
{
	if (*len < n)
		*len += (size_t)nicfit__fmt(list + *len, n - *len, "%s%s", *len ? ", " : "", label);
}

/*
 * numa-locality-unknown, said of what the tree shows: numa_node -1 is the
 * firmware's (no SRAT proximity for the device); a function without a
 * numa_node file at all is a capture that left it out (a kernel for a
 * multi-node host always has the file), so the firmware is not blamed for
 * it and the fix asks for the file first.
 */
static void numa_unknown(struct nicfit__audit_ctx *c, const char *fw, const char *nofile)
{
	const struct nicfit_topo *t = c->t;

	if (!fw[0])
		nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_NUMA_LOCALITY_UNKNOWN, "host",
				   S_TOPO_TRAPS,
				   "Take the capture again with the devices' numa_node files "
				   "(`nicfit snapshot` copies them), or run the audit on the host.",
				   "%s %s no numa_node file in this tree, and no local_cpulist or "
				   "local_cpus that places %s, on a host with %d NUMA nodes: which "
				   "socket %s on is unknown.", nofile, strchr(nofile, ',') ? "have" : "has",
				   strchr(nofile, ',') ? "them" : "it", t->nnuma,
				   strchr(nofile, ',') ? "they are" : "it is");
	else
		nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_NUMA_LOCALITY_UNKNOWN, "host",
				   S_TOPO_TRAPS,
				   "Enable NUMA / ACPI SRAT in the BIOS (and sub-NUMA clustering "
				   "consistently), update the firmware; until then pin NCCL with "
				   "NCCL_TOPO_FILE.",
				   "The firmware gives no NUMA locality (numa_node -1) for %s%s%s%s on a "
				   "host with %d NUMA nodes: NCCL cannot tell which socket they belong "
				   "to.", fw, nofile[0] ? ", and " : "", nofile,
				   nofile[0] ? (strchr(nofile, ',') ? " have no numa_node file"
						: " has no numa_node file") : "", t->nnuma);
}

static void rule_devices(struct nicfit__audit_ctx *c, struct seen *s)
{
	struct nicfit_audit *a = c->a;
	const struct nicfit_topo *t = c->t;
	int i, unknown = 0;
	char list[256], nofile[256];
	size_t len = 0, nlen = 0;

	list[0] = '\0';
	nofile[0] = '\0';
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];
		const struct nicfit_pcidev *p = P(c, d->pci);

		if (d->kind != NICFIT_DEV_GPU && d->kind != NICFIT_DEV_NIC &&
		    d->kind != NICFIT_DEV_ACCEL)
			continue;
		if (p->have & NICFIT_HAVE_LINK_FILES)
			s->any_link = 1;
		if (p->have & (NICFIT_HAVE_CUR_SPEED | NICFIT_HAVE_MAX_SPEED))
			s->linked = 1;
		if (p->vendor == PCI_VENDOR_NVIDIA)
			s->nvidia++;
		if (nicfit__audit_amd_instinct(p) && d->kind != NICFIT_DEV_NIC)
			s->amd_gpus++;
		if (d->kind == NICFIT_DEV_NIC && p->vendor == 0x15b3)
			s->mlx_nics++;
		if (d->kind == NICFIT_DEV_NIC && p->vendor == 0x14e4)
			s->bcm_nics++;
		if (d->kind == NICFIT_DEV_NIC && p->vpd_state == 2)
			s->vpd_hidden = 1;
		if (d->kind == NICFIT_DEV_GPU && !p->driver[0] && p->physfn < 0 &&
		    nicfit__audit_driver_unknown(c, d->pci))
			c->drivers_unknown = 1;
		else if (d->kind == NICFIT_DEV_GPU && !p->driver[0] && p->physfn < 0)
			nicfit__audit_find(c, NICFIT_SEV_WARNING, NICFIT_CODE_GPU_NO_DRIVER, p->bdf,
					   NULL, nicfit__audit_amd_instinct(p) ?
					   "Install the GPU driver (for AMD Instinct: amdgpu from ROCm, "
					   "the amdgpu-dkms package, whose peer memory serves GPUDirect "
					   "RDMA)." :
					   "Install the GPU driver (for NVIDIA: the datacenter driver, "
					   "with nvidia_peermem for GPUDirect RDMA).",
					   "%s %s has no driver bound.", d->label, d->name);
		if (t->nnuma > 1 && d->numa < 0) {
			unknown++;
			if (p->absent & NICFIT_HAVE_NUMA)
				list_add(nofile, sizeof(nofile), &nlen, d->label);
			else
				list_add(list, sizeof(list), &len, d->label);
		}
	}
	if (unknown && !t->is_virtual)
		numa_unknown(c, list, nofile);
}

/* Whether RoCE ports had their PFC read (bit 1) or not (bit 2). */
static int roce_pfc(const struct nicfit__audit_ctx *c)
{
	const struct nicfit_topo *t = c->t;
	int i, k, nd, roce = 0;

	for (i = 0; i < t->nrdma; i++)
		for (k = 0; k < t->rdma[i].nports; k++)
			if (!strcmp(t->rdma[i].ports[k].link_layer, "Ethernet")) {
				nd = t->rdma[i].pci >= 0 ? nicfit__audit_first_netdev(c, t->rdma[i].pci)
							 : -1;
				roce |= nd >= 0 && t->net[nd].pfc.state == NICFIT_PFC_READ ? 1 : 2;
			}
	return roce;
}

/*
 * no-rdma-nic: GPUs and NICs but no RDMA NIC. One server's inference
 * needs only a front-end network; training or a model split across
 * servers needs a back end (the project's premise: docs/rules.md R2). A note,
 * and none where a card that can do RDMA might have it (the tree cannot
 * show its RDMA driver: not_checked "rdma").
 */
static void rule_no_rdma(struct nicfit__audit_ctx *c)
{
	struct nicfit_audit *a = c->a;

	if (!((a->ngpus || a->naccels) && a->nnics && !a->nrdma_nics) || c->rdma_unknown)
		return;
	nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_NO_RDMA_NIC, "host", S_SEED,
			   "For training or a model split across servers add a back-end RDMA NIC "
			   "(RoCE v2 on a lossless switch, or InfiniBand) on the GPUs' socket: "
			   "`nicfit plan` sizes it.",
			   "No RDMA NIC: fine for inference on one server (a front-end network is "
			   "enough), not for jobs that span servers.");
}

/*
 * intel-700-no-link: an Intel 700-series port (driver i40e) known to have
 * no link. Its firmware refuses modules and DACs that are not Intel-coded
 * (docs/reference/nic-identity.md 2.3), which looks exactly like no cable: a
 * note pointing at the kernel log line that tells them apart. Not for
 * BASE-T ports (X710-T, X722 10GBASE-T): an RJ45 port takes no module, so
 * there is no coding to refuse.
 */
static void rule_intel_700(struct nicfit__audit_ctx *c)
{
	const struct nicfit_topo *t = c->t;
	int i;

	for (i = 0; i < t->nnet; i++) {
		const struct nicfit_netdev *nd = &t->net[i];
		const struct nicfit_pci_id *id;

		if (nd->pci < 0 || nd->is_virtual || strcmp(P(c, nd->pci)->driver, "i40e") ||
		    !nicfit__audit_known_no_link(nd))
			continue;
		id = nicfit__pci_id_find(P(c, nd->pci)->vendor, P(c, nd->pci)->device);
		if (id && (id->flags & NICFIT_PCIID_BASET))
			continue;
		nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_INTEL_700_NO_LINK, nd->name,
				   S_X710,
				   "If a module or DAC is plugged in: `dmesg | grep -i 'unsupported "
				   "SFP'`; 700-series firmware only links with Intel-coded optics and "
				   "DACs.",
				   "%s (Intel 700-series, driver i40e) has no link.", nd->name);
	}
}

const char *nicfit__audit_problem_text(const struct nicfit_problem *p)
{
	return p->what ? p->what : nicfit_sysfs_problem_text(p->st, p->errnum);
}

/*
 * sysfs-read-problems: files under the root that could not be read or
 * parsed, or lines of a dump whose values could not be read (a link speed
 * of "-8GT/s", an XML element whose busid is no PCI address). The audit
 * goes on with what it read, so the report says how much it missed (the
 * JSON lists the files or lines): a note. A dump's fix is the listing
 * taken again, not a snapshot.
 */
static void rule_read_problems(struct nicfit__audit_ctx *c)
{
	const struct nicfit_topo *t = c->t;
	const char *first = t->nproblems ? t->problems[0].path : "?";
	const char *what = t->nproblems ? nicfit__audit_problem_text(&t->problems[0]) : "?";

	if (!t->problems_total)
		return;
	if (t->problems_in_dump)
		nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_SYSFS_READ_PROBLEMS, "host",
				   NULL, "See read_problems in the JSON output; take the listing "
				   "again on the host (`sudo lspci -vvv -nn -D -k`, or NCCL's or "
				   "hwloc's XML), or check that the paste was not cut or edited.",
				   "%zu value%s of the dump could not be read (first: %s, %s); the "
				   "audit used what it could read.", t->problems_total,
				   t->problems_total == 1 ? "" : "s", first, what);
	else
		nicfit__audit_find(c, NICFIT_SEV_INFO, NICFIT_CODE_SYSFS_READ_PROBLEMS, "host",
				   NULL, "See read_problems in the JSON output; a damaged snapshot "
				   "should be taken again with `nicfit snapshot`.",
				   "%zu file%s could not be read or parsed (first: %s, %s); the audit "
				   "used what it could read.", t->problems_total,
				   t->problems_total == 1 ? "" : "s", first, what);
}

/*
 * snapshot-incomplete: an archive without the manifest nicfit snapshot
 * writes last may be cut at an entry boundary, which reads as a smaller,
 * healthy host (a cut .tar read "0 GPUs, 0 NICs: clean"). Critical, so
 * that such an audit is never taken for a clean one.
 */
static void rule_snapshot_incomplete(struct nicfit__audit_ctx *c)
{
	if (!c->t->incomplete[0])
		return;
	nicfit__audit_find(c, NICFIT_SEV_CRITICAL, NICFIT_CODE_SNAPSHOT_INCOMPLETE, "host", NULL,
			   "Take the snapshot again with `nicfit snapshot` and audit the archive it "
			   "writes; to audit a tree packed by another tool as it is, unpack it and "
			   "give the directory to --sysfs.",
			   "%s The audit below covers only what the archive holds.",
			   c->t->incomplete);
}

/* What sysfs cannot tell on this host, with what can. */
static void note_not_checked(struct nicfit__audit_ctx *c, const struct seen *s)
{
	struct nicfit_audit *a = c->a;
	const struct nicfit_topo *t = c->t;

	if (t->is_virtual)
		nicfit__audit_not_checked(c, "pcie_links", "The hypervisor's virtual PCIe ports "
					  "report link figures of its own choosing; check links on "
					  "the physical host.");
	else if (a->ndevs && !s->any_link)
		nicfit__audit_not_checked(c, "pcie_links", "This kernel has no current_link_*/"
					  "max_link_* files (added in Linux 4.13): link speeds and "
					  "widths are unknown. As root, `lspci -vv` shows "
					  "LnkCap/LnkSta.");
	else if (a->ndevs && !s->linked)
		nicfit__audit_not_checked(c, "pcie_links", "The link files report no speed "
					  "('Unknown').");
	if (c->drivers_unknown)
		nicfit__audit_not_checked(c, "drivers", "This tree has no sys/bus/pci/drivers, and "
					  "its PCI functions have neither uevent files nor driver "
					  "links (a copy that left them out), so whether GPUs and "
					  "NICs have a driver bound is unknown. On the host: `lspci "
					  "-k` names each device's driver ('Kernel driver in use').");
	if (!t->privileged && (a->ngpus || a->nnics)) {
		nicfit__audit_not_checked(c, "acs", "ACS redirection on the bridges between GPUs "
					  "and NICs lives in PCIe extended config space, which only "
					  "root can read (sysfs gives other users 64 bytes): run "
					  "`sudo nicfit audit`.");
		nicfit__audit_not_checked(c, "mps_mrrs", "MaxPayload and MaxReadReq are in PCIe "
					  "config space (root only): run `sudo nicfit audit`.");
	}
	if ((s->roce & 2) && (s->mlx_nics || !s->bcm_nics))
		nicfit__audit_not_checked(c, "pfc_ecn", "Lossless RoCE (PFC on the RoCE priority, "
					  "ECN) is NIC QoS and switch configuration that sysfs does "
					  "not show; nicfit asks the kernel's DCB interface on the live "
					  "host (a snapshot keeps its answer), and the driver here did "
					  "not tell: check with `mlnx_qos -i IF` or `dcb pfc show dev "
					  "IF`, and on the switch.");
	else if (s->roce & 2)
		/* Broadcom's own tool, as AMD's ROCm RoCE guide uses it on Thor2 */
		nicfit__audit_not_checked(c, "pfc_ecn", "Lossless RoCE (PFC on the RoCE priority, "
					  "ECN) is NIC QoS and switch configuration that sysfs does "
					  "not show; nicfit asks the kernel's DCB interface on the live "
					  "host (a snapshot keeps its answer), and the driver here did "
					  "not tell: check with `niccli -dev INDEX get_qos` (Broadcom: "
					  "PFC on priority 3, RoCE DSCP 26, CNP DSCP 48) or `dcb pfc "
					  "show dev IF`, and on the switch.");
	else if (s->roce)
		nicfit__audit_not_checked(c, "ecn", "PFC was read from the NIC; ECN marking and the "
					  "switches' lossless settings are not visible from the host: "
					  "check the switch (PFC and ECN on the RoCE priority).");
	if (s->nvidia >= 2 && a->ngpus >= 2)
		nicfit__audit_not_checked(c, "nvlink", "NVLink and NVSwitch connections are known "
					  "only to the NVIDIA driver (NVML): see `nvidia-smi topo -m` "
					  "and `nvidia-smi nvlink -s`.");
	if (s->amd_gpus >= 2)
		nicfit__audit_not_checked(c, "xgmi", "AMD Infinity Fabric (xGMI) links between the "
					  "GPUs, and the GPU-NIC matrix as ROCm sees it, are known only "
					  "to the amdgpu driver: cross-check the paths above with "
					  "`rocm-smi --showtopo`.");
	if (s->vpd_hidden)
		nicfit__audit_not_checked(c, "vpd", "Part numbers in VPD are readable only by root "
					  "on most kernels: cards were named from PCI IDs and "
					  "firmware PSIDs.");
	if (c->rdma_unknown)
		nicfit__audit_not_checked(c, "rdma", "This tree has neither sys/module nor "
					  "sys/class/infiniband, so whether the RDMA drivers (mlx5_ib, "
					  "irdma, bnxt_re) are loaded is unknown: cards that can do "
					  "RDMA were not judged to have it or not. On the host: `rdma "
					  "link`, or `lsmod | grep -e _ib -e irdma -e bnxt_re`.");
	if (a->nnics)
		nicfit__audit_not_checked(c, "transceivers", "Cable and module types and their "
					  "temperatures need ethtool's module EEPROM interface "
					  "(`ethtool -m IF`), not sysfs.");
}

/*
 * The host-wide rules, in the order their findings are listed, then the
 * checks sysfs cannot make (after the passes, so that the list keeps the
 * order of the report: GPUDirect's dma_buf first).
 */
void nicfit__audit_judge_host(struct nicfit__audit_ctx *c)
{
	struct seen s;

	memset(&s, 0, sizeof(s));
	rule_virtual(c);
	rule_devices(c, &s);
	s.roce = roce_pfc(c);
	rule_no_rdma(c);
	rule_intel_700(c);
	rule_read_problems(c);
	rule_snapshot_incomplete(c);
	note_not_checked(c, &s);
}
