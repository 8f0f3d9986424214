/*
 * fleet_attrs.c - what fleet compares: one line per attribute, with the
 * code it raises, the words its messages use, and the rule that decides
 * how bad a difference is (docs/json-fleet.md has the same table for
 * users). Reading the attributes out of an audit is fleet_audit.c's job,
 * deciding who is odd fleet_compare.c's; this file holds only the data.
 */
#include <string.h>

#include "fleet/fleet_int.h"

/*
 * Ranks for the ordered string values: a higher rank is better, and a
 * host below the majority (or, without one, below the best) is the odd
 * one, while one above it is only noted (info). -1 is a value with no
 * place in the order ("unknown", a state this nicfit does not know): it
 * differs, but is not known to be worse, so it is never critical.
 *
 * Interface state (rank_up): "up" is better than every way of not being
 * up (the kernel's operstate words, include/uapi/linux/if.h); they rank
 * alike, so two hosts that are down differently are not ordered.
 */
static int rank_up(const char *s)
{
	if (!strcmp(s, "up"))
		return 2;
	if (!strcmp(s, "down") || !strcmp(s, "lowerlayerdown") || !strcmp(s, "dormant") ||
	    !strcmp(s, "notpresent"))
		return 1;
	return -1;
}

/*
 * RDMA port state (rank_active): ACTIVE, the only state that carries
 * traffic, above the states of a port that is not there yet (the IB
 * spec's port states as rdma-core prints them).
 */
static int rank_active(const char *s)
{
	if (!strcmp(s, "ACTIVE"))
		return 2;
	if (!strcmp(s, "DOWN") || !strcmp(s, "INIT") || !strcmp(s, "ARMED") ||
	    !strcmp(s, "ACTIVE_DEFER"))
		return 1;
	return -1;
}

/*
 * GPU-NIC path class (rank_path), as `nvidia-smi topo -m` names it: the
 * fewer hops between a GPU and its NIC, the better GPUDirect RDMA runs.
 * PIX (at most one PCIe bridge between them) is best, SYS (across the CPUs' interconnect) worst.
 */
static int rank_path(const char *s)
{
	static const char *const order[] = { "SYS", "NODE", "PHB", "PXB", "PIX" };
	int i;

	for (i = 0; i < 5; i++)
		if (!strcmp(s, order[i]))
			return i + 1;
	return -1;
}

#define W NICFIT_SEV_WARNING
#define C NICFIT_SEV_CRITICAL
#define I NICFIT_SEV_INFO

/*
 * The columns: JSON attribute name, code, words for messages; the kind of
 * value; ordered (a higher number, rank or true is better), the rank of
 * string values; the severity when odd hosts are worse (or, unordered,
 * just differ); ratio (critical when a rate is half the majority's or less:
 * an x8 link where x16 is usual, a 100G port on a 200G fabric, a loss no
 * tuning recovers); gpu_info (a difference on a GPU or accelerator is only
 * info: they lower link speed and width when idle, so an audit taken at
 * rest is no evidence); the words for true and false.
 *
 * The severities follow what a difference costs a cluster job: a port
 * down, a device missing its netdev or RDMA device, or the wrong link
 * layer stops traffic (critical); versions, NUMA placement and settings
 * that differ make one host slower or behave differently (warning).
 */
const struct fl_attr_def nicfit__fleet_attrs[FA_COUNT] = {
	[FA_NUMA_COUNT] = { "numa_nodes", NICFIT_CODE_NUMA_NODES,
		"NUMA nodes", FV_NUM, 0, NULL, W, 0, 0, NULL, NULL },
	[FA_KERNEL] = { "kernel", NICFIT_CODE_KERNEL,
		"kernel", FV_STR, 0, NULL, W, 0, 0, NULL, NULL },
	[FA_GPU_DRIVER] = { "gpu_driver", NICFIT_CODE_GPU_DRIVER,
		"GPU driver", FV_STR, 0, NULL, W, 0, 0, NULL, NULL },
	[FA_PRODUCT_FW] = { "bios", NICFIT_CODE_BIOS,
		"BIOS", FV_STR, 0, NULL, W, 0, 0, NULL, NULL },
	[FA_PEERMEM] = { "gpudirect.nvidia_peermem", NICFIT_CODE_PEERMEM,
		"nvidia_peermem", FV_BOOL, 1, NULL, W, 0, 0, "loaded", "not loaded" },
	[FA_GDR_KERNEL] = { "gpudirect.kernel_support", NICFIT_CODE_GDR_KERNEL,
		"GPUDirect RDMA kernel support", FV_BOOL, 1, NULL, W, 0, 0, "present", "absent" },
	[FA_IOMMU] = { "iommu", NICFIT_CODE_IOMMU,
		"IOMMU", FV_BOOL, 0, NULL, W, 0, 0, "on", "off" },
	[FA_PRIVILEGED] = { "privileged", NICFIT_CODE_AUDIT_PRIVILEGES,
		"audit", FV_BOOL, 1, NULL, I, 0, 0,
		"run as root", "run without root (some checks skipped)" },
	[FA_NUMA] = { "numa_node", NICFIT_CODE_NUMA_NODE,
		"NUMA node", FV_NUM, 0, NULL, W, 0, 0, NULL, NULL },
	[FA_CUR_WIDTH] = { "link.current_width", NICFIT_CODE_LINK_WIDTH,
		"PCIe link width", FV_NUM, 1, NULL, W, 1, 0, NULL, NULL },
	[FA_CUR_GTS] = { "link.current_gts", NICFIT_CODE_LINK_SPEED,
		"PCIe link speed", FV_NUM, 1, NULL, W, 1, 1, NULL, NULL },
	[FA_MAX_WIDTH] = { "link.max_width", NICFIT_CODE_LINK_CAPABILITY,
		"PCIe width capability", FV_NUM, 1, NULL, W, 0, 0, NULL, NULL },
	[FA_MAX_GTS] = { "link.max_gts", NICFIT_CODE_LINK_CAPABILITY,
		"PCIe speed capability", FV_NUM, 1, NULL, W, 0, 0, NULL, NULL },
	[FA_PATH] = { "link.path_gbps", NICFIT_CODE_PATH_BANDWIDTH,
		"path to the CPU", FV_NUM, 1, NULL, W, 1, 1, NULL, NULL },
	[FA_PART] = { "part", NICFIT_CODE_PART_NUMBER,
		"part number", FV_STR, 0, NULL, W, 0, 0, NULL, NULL },
	[FA_DRIVER] = { "driver", NICFIT_CODE_DRIVER,
		"driver", FV_STR, 0, NULL, W, 0, 0, NULL, NULL },
	[FA_FW] = { "firmware", NICFIT_CODE_FIRMWARE,
		"firmware", FV_STR, 0, NULL, W, 0, 0, NULL, NULL },
	[FA_MPS] = { "config.mps", NICFIT_CODE_PCIE_MPS,
		"PCIe MaxPayload (bytes)", FV_NUM, 1, NULL, W, 0, 0, NULL, NULL },
	[FA_MRRS] = { "config.mrrs", NICFIT_CODE_PCIE_MRRS,
		"PCIe MaxReadReq (bytes)", FV_NUM, 1, NULL, W, 0, 0, NULL, NULL },
	[FA_NNET] = { "netdevs", NICFIT_CODE_NETDEV_MISSING,
		"network interfaces", FV_NUM, 1, NULL, C, 0, 0, NULL, NULL },
	[FA_NRDMA] = { "rdma", NICFIT_CODE_RDMA_MISSING,
		"RDMA devices", FV_NUM, 1, NULL, C, 0, 0, NULL, NULL },
	[FA_NET_STATE] = { "netdev.operstate", NICFIT_CODE_PORT_DOWN,
		"state", FV_STR, 1, rank_up, C, 0, 0, NULL, NULL },
	[FA_NET_SPEED] = { "netdev.speed_gbps", NICFIT_CODE_PORT_SPEED,
		"speed", FV_NUM, 1, NULL, W, 1, 0, NULL, NULL },
	[FA_NET_MTU] = { "netdev.mtu", NICFIT_CODE_MTU,
		"MTU", FV_NUM, 0, NULL, W, 0, 0, NULL, NULL },
	[FA_NET_PFC] = { "netdev.pfc", NICFIT_CODE_PFC,
		"PFC priorities", FV_STR, 0, NULL, W, 0, 0, NULL, NULL },
	[FA_PORT_STATE] = { "rdma.state", NICFIT_CODE_PORT_DOWN,
		"RDMA state", FV_STR, 1, rank_active, C, 0, 0, NULL, NULL },
	[FA_PORT_RATE] = { "rdma.rate_gbps", NICFIT_CODE_PORT_RATE,
		"RDMA rate", FV_NUM, 1, NULL, W, 1, 0, NULL, NULL },
	[FA_PORT_LAYER] = { "rdma.link_layer", NICFIT_CODE_LINK_LAYER,
		"link layer", FV_STR, 0, NULL, C, 0, 0, NULL, NULL },
	[FA_PAIR_PATH] = { "pair.path", NICFIT_CODE_PAIR_PATH,
		"path class", FV_STR, 1, rank_path, W, 0, 0, NULL, NULL },
	[FA_PAIR_GDR] = { "pair.gdr_default", NICFIT_CODE_GDR,
		"GPUDirect RDMA by default", FV_BOOL, 1, NULL, W, 0, 0, "yes", "no" },
	[FA_FINDING] = { "finding", NICFIT__CODE_COUNT,
		"finding", FV_PRESENT, 0, NULL, W, 0, 0, NULL, NULL },
	[FA_NOTCHECKED] = { "not_checked", NICFIT_CODE_NOT_CHECKED,
		"not checked", FV_PRESENT, 0, NULL, I, 0, 0, NULL, NULL },
};

#undef W
#undef C
#undef I
