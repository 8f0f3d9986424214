/*
 * gpu_stack.c - the multi-node software of each GPU maker, as its own
 * documents name it (core/gpu_stack_int.h). A table, not a rule: the
 * engines read it to name the right library, test, variable and command.
 * It is not a catalog entry because users cannot change what a maker's
 * software is called; it cites its sources instead.
 *
 * Sources, for every string below:
 * - NVIDIA: NCCL's environment variables page (NCCL_DEBUG,
 *   NCCL_NET_GDR_LEVEL), nccl-tests' README (all_reduce_perf), the GPU
 *   Operator's "GPUDirect RDMA and GPUDirect Storage" (nvidia-peermem,
 *   DMA-BUF), nvidia-smi's manual (topo -m); docs/reference/topology.md.
 * - AMD: RCCL's "RCCL environment variables" (NCCL_DEBUG is RCCL's debug
 *   switch; ROCm/rccl docs/api-reference/env-variables.rst), rccl-tests
 *   (ROCm/rccl-tests, all_reduce_perf), RCCL's net_ib.cc, which enables
 *   GPUDirect RDMA when /sys/kernel/mm/memory_peers/amdkfd/version exists
 *   (the amdgpu driver's peer-memory client) or the kernel offers DMA-BUF,
 *   and logs "Found /sys/kernel/mm/memory_peers/amdkfd/version"; the ROCm
 *   SMI manual (rocm-smi --showtopo); AMD's ROCm cluster networking guides
 *   (ROCm/gpu-cluster-networking). RCCL's documentation does not list
 *   NCCL_NET_GDR_LEVEL, so none is printed for AMD.
 * - Intel Gaudi: the Intel Gaudi documentation's HCCL pages and the
 *   hccl_demo benchmark (github.com/HabanaAI/hccl_demo); Gaudi moves its
 *   own memory over its on-package RoCE ports, so it has no peer-memory
 *   client for a NIC to use and no GPUDirect variable.
 */
#include "core/gpu_stack_int.h"

#include <string.h>
#include <strings.h>

static const struct nicfit__gpu_stack stacks[] = {
	{
		NICFIT_MAKER_NVIDIA, "NVIDIA", "NCCL", "nccl-tests", "NVLink",
		"nvidia-peermem", "lsmod | grep -e nvidia_peermem -e nv_peer_mem",
		"NCCL_DEBUG=INFO prints 'GPU Direct RDMA Enabled'", "NCCL_NET_GDR_LEVEL",
		"NCCL_DEBUG=INFO", "nvidia-smi topo -m",
		"NCCL environment variables; nccl-tests; NVIDIA GPU Operator, GPUDirect RDMA; "
		"nvidia-smi(1); docs/reference/topology.md",
	},
	{
		NICFIT_MAKER_AMD, "AMD", "RCCL", "rccl-tests", "Infinity Fabric (xGMI)",
		"the amdgpu driver's peer memory (amdkfd)",
		"ls /sys/kernel/mm/memory_peers/amdkfd/version",
		"NCCL_DEBUG=INFO (RCCL's log switch) prints 'GPU Direct RDMA Enabled' and "
		"'Found /sys/kernel/mm/memory_peers/amdkfd/version'", NULL,
		"NCCL_DEBUG=INFO", "rocm-smi --showtopo",
		"ROCm/rccl docs/api-reference/env-variables.rst; RCCL src/transport/net_ib.cc; "
		"ROCm/rccl-tests; ROCm SMI (rocm-smi --showtopo); ROCm/gpu-cluster-networking",
	},
	{
		NICFIT_MAKER_GAUDI, "Intel Gaudi", "HCCL", "hccl_demo",
		"RoCE scale-up", NULL, NULL, NULL, NULL, NULL, NULL,
		"Intel Gaudi documentation, HCCL; github.com/HabanaAI/hccl_demo",
	},
};

const struct nicfit__gpu_stack *nicfit__gpu_stack_of(const char *vendor, const char *name)
{
	if (vendor && !strcasecmp(vendor, "AMD"))
		return &stacks[NICFIT_MAKER_AMD];
	if (vendor && (!strcasecmp(vendor, "Intel") || !strcasecmp(vendor, "Habana")) &&
	    name && strstr(name, "Gaudi"))
		return &stacks[NICFIT_MAKER_GAUDI];
	return &stacks[NICFIT_MAKER_NVIDIA];
}

const struct nicfit__gpu_stack *nicfit__gpu_stack_by_pci(unsigned pci_vendor)
{
	switch (pci_vendor) {
	case 0x10de:
		return &stacks[NICFIT_MAKER_NVIDIA];
	case 0x1002:
		return &stacks[NICFIT_MAKER_AMD];
	case 0x1da3:
		return &stacks[NICFIT_MAKER_GAUDI];
	default:
		return NULL;
	}
}
