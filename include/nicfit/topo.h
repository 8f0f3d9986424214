/*
 * nicfit/topo.h - the host as sysfs describes it: NUMA nodes, the PCI tree,
 * network interfaces, RDMA devices, and the kernel pieces GPUDirect needs.
 *
 * Discovery only reads (through nicfit/sysfs.h, so a captured tree reads
 * like the live one) and only records what it found; it judges nothing.
 * nicfit/audit.h judges this model, so every check can be tested on a
 * model built by hand (nicfit_topo_new and the add functions below).
 *
 * The PCI tree is built from the directory structure under sys/devices,
 * not from the /sys/bus/pci/devices listing, because some bridges are
 * absent from the listing (docs/reference/topology.md 3.2); functions found only
 * through the listing (a Hyper-V VMBus, a VMD domain) are added with their
 * parents. Each function keeps every value with a flag saying whether its
 * file was there, so "unknown" is never mistaken for zero.
 *
 * The result: nicfit_topo_discover() and nicfit_topo_new() allocate the
 * model, nicfit_topo_free() frees it and everything in it. Its arrays
 * (pci, net, rdma, ...) and strings are owned by it and live until then;
 * entries are referred to by index (parent, pci, hostbridge), never by
 * pointer, because the add functions may move an array as it grows. Read
 * problems are copied into it, so it outlives the sysfs handle it was
 * read from.
 */
#ifndef NICFIT_TOPO_H
#define NICFIT_TOPO_H

#include <stddef.h>

#include "nicfit/dcb.h"
#include "nicfit/error.h"
#include "nicfit/sysfs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NICFIT_TOPO_MAX_PCI 8192
#define NICFIT_TOPO_MAX_NET 4096
#define NICFIT_TOPO_MAX_RDMA 1024
#define NICFIT_TOPO_MAX_NUMA 64
#define NICFIT_TOPO_MAX_PORTS 8
#define NICFIT_TOPO_MAX_DEPTH 32

/* What a PCI function is, for the audit. */
enum nicfit_dev_kind {
	NICFIT_DEV_OTHER,
	NICFIT_DEV_BRIDGE,    /* PCI bridge / switch port (class 0x0604) */
	NICFIT_DEV_HOST,      /* host bridge function (class 0x0600) */
	NICFIT_DEV_GPU,       /* NVIDIA/AMD display, 3D or processing function */
	NICFIT_DEV_ACCEL,     /* other processing accelerator / co-processor (0x12, 0x0b40) */
	NICFIT_DEV_NIC,       /* network function (class 0x02, 0x0c06, or with a netdev/RDMA child) */
	NICFIT_DEV_DISPLAY,   /* VGA that is not a compute GPU (BMC, integrated graphics) */
	NICFIT_DEV_STORAGE,   /* class 0x01 */
	NICFIT_DEV_NVSWITCH   /* NVIDIA bridge-other function (class 0x0680) */
};

/* "other", "bridge", "host-bridge", "gpu", "accelerator", "nic", "display", ... */
const char *nicfit_dev_kind_name(enum nicfit_dev_kind k);

/* The PCIe port type (from config space when readable, else inferred). */
enum nicfit_port_type {
	NICFIT_PORT_UNKNOWN,
	NICFIT_PORT_ENDPOINT,
	NICFIT_PORT_LEGACY,       /* legacy endpoint, or a PCI device below a PCIe-to-PCI bridge */
	NICFIT_PORT_ROOT,         /* root port */
	NICFIT_PORT_UPSTREAM,     /* switch upstream port */
	NICFIT_PORT_DOWNSTREAM,   /* switch downstream port */
	NICFIT_PORT_PCIE_TO_PCI,
	NICFIT_PORT_RCIEP,        /* root-complex integrated endpoint: no link */
	NICFIT_PORT_RCEC
};

/* What became of a function's VPD (struct nicfit_pcidev.vpd_state). */
enum nicfit_vpd_state {
	NICFIT_VPD_NOT_TRIED,    /* not a card's first physical NIC function */
	NICFIT_VPD_READ,
	NICFIT_VPD_UNREADABLE,   /* the file is there but could not be read (not root) */
	NICFIT_VPD_MALFORMED,
	NICFIT_VPD_ABSENT        /* no vpd file, or an empty one */
};

/* Which files of a function were present and well formed. */
#define NICFIT_HAVE_CLASS 0x001u
#define NICFIT_HAVE_IDS 0x002u       /* vendor and device */
#define NICFIT_HAVE_SUBSYS 0x004u
#define NICFIT_HAVE_NUMA 0x008u
#define NICFIT_HAVE_CUR_SPEED 0x010u /* a known current_link_speed */
#define NICFIT_HAVE_CUR_WIDTH 0x020u
#define NICFIT_HAVE_MAX_SPEED 0x040u
#define NICFIT_HAVE_MAX_WIDTH 0x080u
#define NICFIT_HAVE_LINK_FILES 0x100u /* any *_link_* file existed (kernel >= 4.13) */
#define NICFIT_HAVE_SECBUS 0x200u

struct nicfit_pcidev {
	char bdf[16];            /* "0000:17:00.0" */
	unsigned domain, bus, dev, fn;
	char *path;              /* canonical root-relative directory */
	int parent;              /* parent function index; -1 right under a host bridge */
	int hostbridge;          /* index into topo->hb */
	int depth;               /* bridges above it within its host bridge */
	int in_bus_list;         /* listed in sys/bus/pci/devices */
	unsigned have;           /* NICFIT_HAVE_* */
	unsigned absent;         /* NICFIT_HAVE_CLASS, _IDS, _NUMA: those files do not exist
				  * (rather than being unreadable or malformed) */
	unsigned class_code;     /* 0x030200: class, subclass, prog-if */
	unsigned vendor, device, subvendor, subdevice;
	int numa_node;           /* -1 when unknown (file missing or -1) */
	double cur_gts, max_gts; /* GT/s per lane; 0 unknown */
	int cur_width, max_width;/* lanes; 0 unknown */
	char cur_speed_text[24]; /* the kernel's string, "" when absent */
	char max_speed_text[24];
	int secondary_bus;       /* bridges: first bus below; -1 unknown. Discovery reads it
				  * where the tree has slots (it places an empty one) and
				  * from the config header where it reads config */
	char driver[48];         /* bound driver; "" when none is bound, or when the tree
				  * cannot show drivers (topo->drivers_listed 0) */
	enum nicfit_dev_kind kind;
	enum nicfit_port_type port_type;
	int port_type_from_config;
	int physfn;              /* PF index when this is a VF, else -1 */
	int sriov_numvfs;        /* -1 when not SR-IOV capable */
	int sriov_totalvfs;
	char slot[32];           /* physical slot name, "" */
	char iommu_type[16];     /* iommu group type ("identity", "DMA", "DMA-FQ"), "" unknown */
	/* VPD, read for network function 0 only */
	int vpd_state;           /* enum nicfit_vpd_state */
	char vpd_part[40];       /* PN, trimmed */
	char vpd_name[128];      /* identifier string */
	char vpd_pcie[24];       /* V0 on Mellanox cards: "PCIeGen3 x16" */
	int vpd_checksum;        /* enum nicfit_vpd_checksum */
	/* config space beyond the first 64 bytes (root, or a capture made as root) */
	int cfg_len;             /* bytes of config read; 0 none */
	int cfg_pcie;            /* a PCIe capability was found */
	int mps, mps_cap, mrrs;  /* bytes; 0 unknown */
	int acs;                 /* an ACS capability was found */
	unsigned acs_ctrl;       /* ACS control register */
	int lnksta_gen, lnksta_width, lnkcap_gen, lnkcap_width; /* from config; 0 unknown */
	unsigned lnkcap2_speeds; /* Link Capabilities 2's Supported Link Speeds Vector
				  * (bits 1-7); 0 none, or capability version 1 */
	int probed;              /* discovery read the extras above (internal) */
};

struct nicfit_hostbridge {
	char name[32];           /* "pci0000:00" */
	char *path;
	int parent_pci;          /* a VMD-like function that hosts this domain, else -1 */
	int numa_node;           /* from its functions; -1 unknown */
};

struct nicfit_numa {
	int id;
	char cpulist[512];       /* "0-19,40-59" ("" none, or unknown: see cpus_known) */
	unsigned long ncpus;
	int cpus_known;          /* its CPUs were read (none: a memory-only node) */
	int package;             /* the physical_package_id of all its online CPUs; -1
				  * unknown, or a node over several packages */
	int distance[NICFIT_TOPO_MAX_NUMA]; /* SLIT row, by position in topo->numa */
	int ndistance;
};

struct nicfit_netdev {
	char name[64];
	int pci;                 /* function index, -1 for virtual interfaces */
	int type;                /* ARPHRD: 1 Ethernet, 32 InfiniBand; -1 unknown */
	long speed_mbps;         /* -1 unknown or no link */
	char operstate[16];      /* "up", "down", ... "" unknown */
	int mtu;                 /* 0 unknown */
	int carrier;             /* 1 link, 0 none, -1 unknown */
	int is_virtual;          /* under devices/virtual */
	struct nicfit_pfc pfc;   /* RoCE interfaces: PFC (live DCB netlink, or a snapshot's nicfit-dcb/) */
};

struct nicfit_rdma_port {
	int num;
	int state;               /* 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE; -1 unknown */
	char state_name[24];
	int phys_state;          /* 5 LinkUp, 2 Polling, 3 Disabled; -1 unknown */
	char phys_name[32];
	int have_rate;
	struct nicfit_ib_rate rate;
	char link_layer[16];     /* "InfiniBand", "Ethernet", "" */
	int ngids;               /* non-zero GID entries */
	int ngid_v1, ngid_v2;    /* by type (Ethernet ports) */
	int ngid_v2_routable;    /* RoCE v2 GIDs that are not link-local */
	int gid_v2_index;        /* lowest index of a routable RoCE v2 GID, -1 none */
	int gid_types_known;     /* gid_attrs/types existed */
};

struct nicfit_rdmadev {
	char name[64];           /* "mlx5_0" */
	int pci;                 /* function index, -1 (software RDMA: rxe, siw) */
	char node_type[32];      /* "1: CA" */
	char hca_type[32];       /* "MT4119" */
	char fw_ver[64];
	char board_id[64];       /* PSID on ConnectX: "MT_0000000008" */
	struct nicfit_rdma_port ports[NICFIT_TOPO_MAX_PORTS];
	int nports;
};

struct nicfit_pcislot {
	char name[32];
	unsigned domain, bus, dev;
	int pci;                 /* a function in the slot, -1 empty */
	int bridge;              /* the port above it (secondary bus = bus), -1 unknown */
	double max_gts;          /* max_bus_speed; 0 unknown */
};

struct nicfit_problem {
	char *path;              /* root-relative file; a dump's "FILE:LINE" */
	enum nicfit_sysfs_status st;
	int errnum;
	char *what;              /* a dump's line: what could not be read, in words (st and
				  * errnum unused); NULL for a sysfs file */
};

struct nicfit_topo {
	char root[NICFIT_SYSFS_PATH_MAX]; /* "/" or the --sysfs directory */
	int live;
	char hostname[256];      /* "" unknown */
	char sys_vendor[128];    /* DMI, "" unknown */
	char product[128];
	char kernel[128];        /* osrelease */
	int is_virtual;
	char virtual_why[128];   /* the evidence: "cpu flag hypervisor", "DMI: QEMU" */
	int privileged;          /* config space beyond 64 bytes was readable */
	int euid;                /* of the reading process (live) or -1 */

	/* Arrays: n* entries in use, alloc_* allocated (the add functions grow them). */
	struct nicfit_numa *numa;
	int nnuma;
	size_t alloc_numa;
	int numa_from_sysfs;     /* 0 when the node directory was missing (one assumed) */
	int npackages;           /* distinct physical packages; 0 unknown */

	struct nicfit_hostbridge *hb;
	int nhb;
	size_t alloc_hb;
	struct nicfit_pcidev *pci;
	int npci;
	size_t alloc_pci;
	int drivers_listed;      /* the tree shows drivers: it has sys/bus/pci/drivers, or a
				  * function has a uevent file or a driver link, so a function
				  * with driver "" has none bound; 0: a capture with none of
				  * them, whether drivers are bound is unknown */
	struct nicfit_netdev *net;
	int nnet;
	size_t alloc_net;
	struct nicfit_rdmadev *rdma;
	int nrdma;
	size_t alloc_rdma;
	int rdma_listed;         /* sys/class/infiniband exists (ib_core registers it), so a
				  * card missing there has no RDMA device; 0: no such directory
				  * (ib_core not loaded, or a capture that left it out) */
	struct nicfit_pcislot *slots;
	int nslots;
	size_t alloc_slots;

	/* GPUDirect RDMA kernel support (docs/reference/topology.md 1.1) */
	int nv_mem;              /* sys/kernel/mm/memory_peers/nv_mem/version */
	int nv_mem_nc;
	int modules_listed;      /* sys/module exists, so a module missing there is not loaded;
				  * 0: a capture without it, module state unknown */
	int nvidia_peermem;      /* sys/module/nvidia_peermem (0 also when !modules_listed) */
	int nv_peer_mem;         /* legacy sys/module/nv_peer_mem */
	int nvidia_driver;       /* 1: sys/module/nvidia or an NVIDIA function bound to
				  * "nvidia"; 0: neither, with sys/module listed; -1 unknown */
	char nvidia_version[32];
	int amdkfd_peer;         /* the amdgpu driver's peer-memory client is registered:
				  * memory_peers/amdkfd/version under sys/kernel/mm,
				  * sys/kernel or sys, where RCCL looks (net_ib.cc) */
	int iommu;               /* sys/class/iommu has members: 1, none: 0, unknown -1 */

	struct nicfit_problem *problems; /* read problems, as nicfit_sysfs kept them, or the
					  * dump reader's (problems_in_dump) */
	int nproblems;
	size_t problems_total;
	int problems_in_dump;    /* the problems are lines of a dump, not files of a tree */
	char incomplete[256];    /* why this snapshot may not be whole (an archive without its
				  * manifest: nicfit_snapshot_check), "" when it is or is a tree */
};

/*
 * Read the tree at root ("/" or NULL for this host, else a directory that
 * holds sys/) into a new model. Errors: those of nicfit_sysfs_open;
 * NICFIT_E_LIMIT when the tree exceeds the NICFIT_TOPO_MAX_* limits;
 * NICFIT_E_NOMEM. Unreadable files are not errors: they end up in
 * problems.
 */
int nicfit_topo_discover(const char *root, struct nicfit_topo **out,
			 struct nicfit_error *err);

/* The same on an open tree (a snapshot records what discovery reads). */
int nicfit_topo_discover_fs(struct nicfit_sysfs *fs, struct nicfit_topo **out,
			    struct nicfit_error *err);

void nicfit_topo_free(struct nicfit_topo *t);

/* Index of the function with that BDF, or -1. */
int nicfit_topo_find(const struct nicfit_topo *t, const char *bdf);

/*
 * The NUMA node a function is local to: its numa_node, or that of the
 * nearest parent or host bridge that has one, or the only node when the
 * host has exactly one. -1 when unknown.
 */
int nicfit_topo_numa_of(const struct nicfit_topo *t, int pci);

/*
 * What an RDMA port with a rate moves, in Gb/s: the data rate after line
 * coding (32 for InfiniBand 4X QDR, whose rate file says 40), or the
 * printed rate when that is all a model built by hand holds.
 */
double nicfit_rdma_port_gbps(const struct nicfit_rdma_port *pt);

/* The physical package (socket) of a NUMA node id; -1 unknown. */
int nicfit_topo_socket_of_node(const struct nicfit_topo *t, int node);

/*
 * The chain from the top of the function's domain down to it: out[0] is
 * the function right under the host bridge, out[n-1] is pci itself;
 * functions hosting nested domains (VMD) come first. Returns n (at most
 * max), 0 when pci is out of range.
 */
int nicfit_topo_chain(const struct nicfit_topo *t, int pci, int *out, int max);

/* Path classes, closest first (nvidia-smi's legend; NODE and PHB kept apart). */
enum nicfit_path { NICFIT_PATH_PIX, NICFIT_PATH_PXB, NICFIT_PATH_PHB, NICFIT_PATH_NODE,
		   NICFIT_PATH_SYS };
/* "PIX", "PXB", "PHB", "NODE", "SYS"; "SYS" for a value out of range. */
const char *nicfit_path_name(enum nicfit_path p);

/*
 * The path class between functions x and y of t, as `nvidia-smi topo -m`
 * names it (docs/reference/topology.md 2): PIX when both are at most two
 * functions below their lowest common bridge (one PCIe switch), PXB when
 * deeper, PHB when they meet only at the host bridge, NODE or SYS when on
 * different host bridges of one or two NUMA nodes. *known is set to 0 when
 * the NUMA nodes were needed and are unknown (NODE is then returned), and
 * *lca to the lowest common bridge, or -1.
 */
enum nicfit_path nicfit_topo_path(const struct nicfit_topo *t, int x, int y, int *known, int *lca);

/*
 * The host model t as an NCCL topology file (NCCL_TOPO_FILE), appended to
 * b: CPUs (NUMA nodes with their affinity), the PCI switches above GPUs
 * and RDMA NICs placed as NCCL places them, the NICs' nets with their
 * speeds (src/lib/host/topo_nccl.c has the format and its sources).
 * Returns nicfit_buf_error(b) or NICFIT_E_NOMEM.
 */
struct nicfit_buf;
int nicfit_nccl_topo_write(const struct nicfit_topo *t, struct nicfit_buf *b);

/* A one-word class name ("3D controller", "Ethernet", "bridge") for display. */
const char *nicfit_pci_class_name(unsigned class_code);

/* ---- building a model by hand (tests, tools) ------------------------------ */

struct nicfit_topo *nicfit_topo_new(void);
/* Add a host bridge; returns its index or -1 when out of memory. */
int nicfit_topo_add_hostbridge(struct nicfit_topo *t, const char *name, int numa_node);
/*
 * Add a function under parent (-1: directly under host bridge hb). Fields
 * beyond bdf/parent/hb start as unknown; fill them through the returned
 * index. Returns the index or -1.
 */
int nicfit_topo_add_pci(struct nicfit_topo *t, const char *bdf, int parent, int hb);
/* cpulist NULL: the node's CPUs are unknown ("" is a node without CPUs). */
int nicfit_topo_add_numa(struct nicfit_topo *t, int id, const char *cpulist, int package);
int nicfit_topo_add_netdev(struct nicfit_topo *t, const char *name, int pci);
int nicfit_topo_add_rdma(struct nicfit_topo *t, const char *name, int pci);
/*
 * After filling a hand-built model: classify functions (kind), infer port
 * types, and count packages, as discovery does at its end.
 */
void nicfit_topo_finish(struct nicfit_topo *t);

#ifdef __cplusplus
}
#endif

#endif
