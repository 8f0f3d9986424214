/*
 * gpu_stack_int.h - the software a GPU's maker ships for multi-node jobs:
 * its collective library, that library's test binaries, the way the GPU
 * driver lends its memory to an RDMA NIC (GPUDirect RDMA), the command that
 * prints its GPU-NIC topology. Defined by parts/gpu_stack.c, read by the
 * engines (plan, cluster, audit) so that every piece of advice names the
 * tool of the GPU it is about: NCCL and nvidia-peermem for NVIDIA, RCCL and
 * the amdgpu driver's peer memory for AMD Instinct, HCCL for Intel Gaudi.
 * A library-wide header, in core/. Internal to libnicfit.
 */
#ifndef NICFIT_GPU_STACK_INT_H
#define NICFIT_GPU_STACK_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "gpu_stack_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

enum nicfit__gpu_maker {
	NICFIT_MAKER_NVIDIA,
	NICFIT_MAKER_AMD,
	NICFIT_MAKER_GAUDI,     /* Intel Gaudi (Habana Labs) */
};

/*
 * One maker's stack. Every string is one a user can type or read in that
 * maker's current documentation (the source field names it); NULL where
 * the maker documents none, and the caller then says nothing rather than
 * borrow another maker's tool.
 */
struct nicfit__gpu_stack {
	enum nicfit__gpu_maker maker;
	const char *maker_name;  /* "NVIDIA", "AMD", "Intel Gaudi" */
	const char *ccl;         /* the collective library: "NCCL", "RCCL", "HCCL" */
	const char *tests;       /* its benchmark: "nccl-tests", "rccl-tests", "hccl_demo" */
	const char *scaleup;     /* the GPU-to-GPU link inside a node */
	const char *peer;        /* the GPU driver's peer-memory client for GPUDirect RDMA */
	const char *peer_check;  /* host command that shows the client is loaded */
	const char *gdr_log;     /* how the library's log says it uses GPUDirect RDMA */
	const char *gdr_level;   /* the variable that widens GPUDirect RDMA's reach, or NULL */
	const char *debug;       /* the variable that turns the library's INFO log on */
	const char *topo;        /* the command that prints the GPU-NIC matrix, or NULL */
	const char *source;      /* the documents behind the fields */
};

/*
 * The stack of a catalog GPU by its vendor and name ("AMD"; "Intel" or
 * "Habana" with "Gaudi" in the name); NVIDIA's for NULL or any other GPU,
 * the stack nicfit assumed before it knew others. Never NULL; the table is
 * static.
 */
const struct nicfit__gpu_stack *nicfit__gpu_stack_of(const char *vendor, const char *name);

/* The same for a PCI vendor ID (0x10de, 0x1002, 0x1da3); NULL for another. */
const struct nicfit__gpu_stack *nicfit__gpu_stack_by_pci(unsigned pci_vendor);

#endif
