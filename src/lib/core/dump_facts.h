/*
 * dump_facts.h - the facts a dump reading leaves: the records of each text
 * (PCI functions, nvidia-smi's matrix, RDMA devices, NUMA nodes, kernel log
 * lines, interfaces, XML documents), each with the file and line it came
 * from, and the lookups on them.
 *
 * The dump reader (dump/) fills them and judges nothing; the audit
 * (audit/audit_dump.c) reads them to judge a dump: where a finding's facts
 * came from, what the dumps could not support. So this header, unlike
 * dump/dump_int.h (the parsers' own declarations), is for the engines
 * after dump/ in the folder order: it lives with the library-wide headers
 * in core/, and is not public.
 */
#ifndef NICFIT_DUMP_FACTS_H
#define NICFIT_DUMP_FACTS_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "dump_facts.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include "nicfit/dump.h"

#define DUMP_MAX_FNS NICFIT_TOPO_MAX_PCI
#define DUMP_MAX_SMI 64  /* GPUs or NICs in one nvidia-smi topo -m */
#define DUMP_MAX_CPUS 8192 /* CPU numbers a per-CPU listing may name */
#define DUMP_MAX_SOCKET 4095
#define DUMP_MAX_KMSG 256  /* kernel log lines kept */
#define DUMP_MAX_PROBLEMS NICFIT_SYSFS_MAX_PROBLEMS /* read problems kept (all counted) */

/* One text, as given. */
struct dump_text {
	char *name;
	char *text;
	size_t len;
};

/* Where a fact came from: text index and 1-based line. */
struct dump_at {
	int text, line;
};

/*
 * A value a line gave that could not be read (a link speed of "-8GT/s", a
 * NUMA node past any machine's, an XML busid that is no PCI address): the
 * value is left unknown and the audit's read_problems name the line.
 */
struct dump_problem {
	struct dump_at at;
	char what[160];           /* what could not be read, quoting the value */
};

/* One PCI function as the dumps describe it; every field has a flag or -1. */
struct dump_fn {
	unsigned domain, bus, dev, fn;
	char bdf[16];
	struct dump_at at;        /* its -vvv block, plain line or tree line */
	int from_block;           /* an lspci -v block described it */
	unsigned have;            /* NICFIT_HAVE_* */
	unsigned class_code, vendor, device, subvendor, subdevice;
	char name[160];           /* lspci's vendor and device name */
	int numa;
	int secondary, subordinate; /* bridges, -1 unknown */
	double cap_gts, sta_gts;
	int cap_w, sta_w;
	int downgraded;           /* LnkSta said "(downgraded)" */
	int caps_denied;          /* Capabilities: <access denied> */
	int cfg_pcie;
	int port_type;            /* enum nicfit_port_type, NICFIT_PORT_UNKNOWN */
	int driver_known;         /* the listing was made with -k */
	char driver[48];
	char slot[32];
	int sriov_total, sriov_num;
	int is_vf;
	char vpd_name[128], vpd_part[40];
	int vpd;                  /* a VPD capability was listed */
	int acs;
	unsigned acs_ctrl;
	int mps, mps_cap, mrrs;
	int tree_bus_known;       /* the tree placed it on its bus */
	int ids_by_name;          /* lspci -tv's name gave its IDs (the built-in table) */
	int ids_alike;            /* ... one of that many IDs of the name, all rows alike (the first
				     taken); or, ids_by_name 0, that many IDs that differ: not judged */
	int from_xml;             /* an hwloc or NCCL XML element described it */
	char parent[16];          /* XML: the enclosing function's BDF, "" none */
	int parent_nccl;          /* parent came from NCCL's nesting (no downstream ports) */
	char dsn[17];             /* Device Serial Number capability, 16 hex digits; "" none */
};

/* nvidia-smi topo -m, as printed. */
struct dump_smi {
	int present;
	struct dump_at at;        /* its header line */
	int ngpus, nnics;
	char nic[DUMP_MAX_SMI][64];     /* "mlx5_0" (legend) or the column header, whole (63 bytes) */
	char cell[DUMP_MAX_SMI][DUMP_MAX_SMI][8]; /* GPU row, NIC column: "PIX", "SYS" */
	char gcell[DUMP_MAX_SMI][DUMP_MAX_SMI][8]; /* GPU row, GPU column: "X", "NV18", "PXB" */
	int row_line[DUMP_MAX_SMI];     /* line of each GPU row, 0 not read */
	int legend;               /* the NIC legend was there */
	char nic_col[DUMP_MAX_SMI][64]; /* the column as headed: "NIC0" or "mlx5_0" */
	int aff_cols;             /* affinity columns headed: CPU, NUMA, GPU NUMA ID (0-3) */
	char cpu_aff[DUMP_MAX_SMI][64]; /* a GPU row's CPU Affinity, "" unknown */
	char numa_aff[DUMP_MAX_SMI][32]; /* its NUMA Affinity, "" unknown */
	int row_cut;              /* 1 + the GPU row the text ends in, 0 none */
	int headerless;           /* rows without the header row: columns inferred (dump_smi.c) */
	int legend_only;          /* a NIC Legend with no matrix above it */
	int nraw[DUMP_MAX_SMI];   /* headerless: cells of each GPU row, before the split */
	char raw[DUMP_MAX_SMI][2 * DUMP_MAX_SMI][8];
	char raw_aff[DUMP_MAX_SMI][2][64];
	int nic_join[DUMP_MAX_SMI];     /* how each column's device was placed (enum dump_join) */
};

/* One RDMA port of ibv_devinfo. */
struct dump_rport {
	int num, state, phys;     /* -1 unknown */
	int width;                /* active_width lanes, 0 unknown */
	double lane_gbps;         /* active_speed, 0 unknown */
	char link_layer[16];
	int ibstat_rate;          /* ibstat's "Rate:" (Gb/s, no width), 0 none */
	int gids;                 /* show_gids listed this port's GIDs */
	int ngids, ngid_v1, ngid_v2, ngid_v2_routable, gid_v2_index;
	unsigned char gid_seen[32]; /* GID indices counted (a table pasted twice counts once) */
	unsigned char gid_v1[32]; /* of them, RoCE v1 GIDs */
	unsigned char gid_ll[32]; /* of them, link-local (fe80::/10) */
	/*
	 * The port read more than once (a paste of several runs of one
	 * command, or of several tools): state and phys are the last
	 * reading's; when a later reading differed, first_* hold the reading
	 * before the first change and changes counts the changes.
	 */
	struct dump_at state_at;  /* the line of the last reading's state */
	struct dump_at prev_at;   /* the reading's before it */
	int readings;             /* state lines read */
	int changes, reading_changed;
	int first_state, first_phys;
	struct dump_at first_at;
};

/*
 * How an RDMA device was tied to its PCI function (dump_build.c), best
 * first: ibdev2netdev -v names the function; ethtool -i's bus-info names
 * the function of the device's interface; sys_image_guid names the card
 * of a device tied by either (the functions of one card share it: a
 * dual-port card is two RDMA devices), node GUID order then the function;
 * nvidia-smi topo -m's cells from the GPUs to the legend's device, when one
 * function of the tree (or one card's, in name order) has those classes
 * (dump_join.c); the name's number as the N-th Mellanox function in PCI order (mlx5_ib's
 * probe order), a guess the audit says is one.
 */
enum dump_join {
	DUMP_JOIN_NONE, DUMP_JOIN_IBDEV, DUMP_JOIN_ETHTOOL, DUMP_JOIN_SIBLING, DUMP_JOIN_MATRIX,
	DUMP_JOIN_ORDER,
	DUMP_JOIN_FWGUID          /* evidence, tried after ethtool: MFT's Base GUID (dump_mlxfw.c) */
};

/* One RDMA device of ibv_devinfo or ibdev2netdev. */
struct dump_rdma {
	char name[64];
	char bdf[16];             /* ibdev2netdev -v, "" unknown */
	char node_guid[17], sys_guid[17]; /* ibv_devinfo or ibstat, 16 hex digits; "" unknown */
	int guid_conflict;        /* a later block of the name gave another node GUID: two hosts */
	int join;                 /* enum dump_join: how the build tied it */
	int name_cut;             /* the name was longer than 63 bytes: 1 cut, 2 cut and said */
	char joined_bdf[16];      /* the function it was tied to, "" none */
	struct dump_at at;
	int from_ibv;             /* ibv_devinfo or ibstat gave its ports */
	int from_ibstat;
	int from_ibstatus;         /* ibstatus (infiniband-diags) gave its ports */
	int from_rdmatool;         /* iproute2's `rdma link` gave its ports */
	int gids;                 /* show_gids listed some of its ports */
	char fw[64], board[64], ca_type[32];
	int part_id;              /* ibv_devinfo's vendor_part_id (4129), ibstat's CA type (MT4129); 0 unknown */
	struct dump_rport ports[NICFIT_TOPO_MAX_PORTS];
	int nports;
	char netdev[NICFIT_TOPO_MAX_PORTS][64];
	char netdev_state[NICFIT_TOPO_MAX_PORTS][12]; /* ibdev2netdev's "(Up)", "" none */
};

/*
 * One port line of iblinkinfo (infiniband-diags): a port of a node the
 * subnet discovery reached and the far end of its link (dump_iblink.c).
 */
struct dump_iblink {
	struct dump_at at;
	char node[64];            /* the node's description: "teaker-4 HCA-1", "MF0;sw1:MQM8700/U1" */
	char guid[17];            /* a switch's GUID (its header) or a CA port's GUID, "" */
	int is_switch;            /* 1 switch, 0 CA or router, -1 not said (-l prints no header) */
	int lid, port;
	int state, phys;          /* the kernel's numbers: 1 Down .. 4 Active; 1 Sleep .. 7 PhyTest */
	int width;                /* 1, 2, 4, 8, 12; 0 unknown (a port without link) */
	double lane_gbps;         /* a lane's speed: 10.0, 25.78125, 53.125 Gbps; 0 unknown */
	char speed[16];           /* the same as printed ("10.0"), "" unknown */
	int fdr10;                /* "10.0 Gbps (FDR10)" */
	int rlid, rport;          /* the far end; -1 none */
	char remote[64];          /* its node's description, "" none */
	int could_width;          /* "Could be 4X": both ends support that width, 0 not said */
	char could_speed[32];     /* "Could be 25.78125 Gbps", "Could be FDR10": "" not said */
};

/*
 * One adapter as MFT's `mlxfwmanager --query` (or mlxup, which prints the
 * same blocks) or flint/mstflint's `q` lists it (dump_mlxfw.c). The
 * firmware tools name one device per card: the PCI device name is a
 * function ("d2:00.0"), an mst device ("/dev/mst/mt4119_pciconf0", which
 * `mst status` ties to a function) or, for flint, whatever -d was given
 * on the prompt line (an RDMA device such as "mlx5_0").
 */
enum dump_fw_tool { DUMP_FW_MLXFWMANAGER = 1, DUMP_FW_FLINT };
enum dump_fw_bdf { DUMP_FW_BDF_NONE, DUMP_FW_BDF_NAMED, DUMP_FW_BDF_MST, DUMP_FW_BDF_VPD };
struct dump_fwdev {
	struct dump_at at;        /* its "Device #N:" or "Image type:" line */
	int tool;                 /* enum dump_fw_tool */
	char type[32];            /* Device Type: "ConnectX6DX" */
	char part[48];            /* Part Number: "MCX623106AN-CDA_Ax" */
	char desc[160];           /* Description (mlxfwmanager) */
	char psid[24];            /* "MT_0000000359" */
	char pci[64];             /* PCI Device Name, or flint's -d; "" unknown */
	char base_guid[17];       /* 16 hex digits, "" none (Ethernet-only switches print none) */
	char base_mac[17];        /* hex digits as printed (12, or 16 on a switch), "" none */
	char port_guid[2][17];    /* ConnectX-3: Port1 GUID, Port2 GUID instead of a Base GUID */
	char fw[24], fw_avail[24], fw_running[24]; /* Versions: FW, its Available, FW (Running) */
	char pxe[24], uefi[24];
	char status[48];          /* "Update required", "Up to date", "No matching image found" */
	char bdf[16];             /* the function it names, "" unknown (dump_build.c) */
	int bdf_how;              /* enum dump_fw_bdf */
	int versions;             /* parser state: inside Versions: */
};

/*
 * One port as MFT's mlxlink (mstflint's mstlink) reports it (dump_mlxfw.c):
 * its sections "Operational Info", "Supported Info", "Troubleshooting
 * Info" and, with -c, "Physical Counters and BER Info", each line
 * "Key<blanks>: Value" (values coloured on a terminal).
 */
struct dump_mlxlink {
	struct dump_at at;        /* its "Operational Info" line */
	char dev[64];             /* mlxlink -d DEV on the prompt line above, "" none */
	int port;                 /* -p N there, 0 not said */
	char state[24], phys[40]; /* "Active", "LinkUp"; "" not read */
	char speed[24];           /* "25GbE", "200G", "IB-EDR"; "" not read */
	int width;                /* Width: "4x" -> 4; 0 unknown */
	char fec[48];
	char enabled[200];        /* Enabled Link Speed's list, as printed in its parentheses */
	char cable[200];          /* Supported Cable Speed's list */
	int opcode;               /* Troubleshooting Info's Status Opcode, -1 not read */
	char recommendation[160];
	long long eff_errors, link_down; /* -1 not read */
	double eff_ber, raw_ber;  /* -1 not read ("15E-255" is 1.5e-254 as mlxlink prints it) */
	int section;              /* parser state: the section being read */
};

/* One `mst status` device: its mst path and the function behind it. */
struct dump_mst {
	char path[64];            /* "/dev/mst/mt4119_pciconf0" as printed */
	char bdf[16];
	struct dump_at at;
};

/* One NUMA node of numactl -H or lscpu. */
struct dump_node {
	int id;
	struct dump_at at;        /* the line that listed its CPUs (or first named it) */
	int have_cpus;            /* a CPU list was given (it may be empty) */
	char cpulist[512];        /* "0-11,24-35"; "" unknown or too long */
	int first_cpu;            /* its lowest CPU, -1 none or unknown */
	int socket, sock_cpu;     /* from lscpu -e/-p: the socket of its lowest CPU listed */
	int dist_id[NICFIT_TOPO_MAX_NUMA], dist[NICFIT_TOPO_MAX_NUMA]; /* numactl's row */
	int ndist;
};

/* One kernel log line the audit judges. */
enum { DUMP_KMSG_PCIE_LIMITED = 1, DUMP_KMSG_MODULE };
struct dump_kmsg {
	int kind;
	struct dump_at at;
	char bdf[16];             /* the device the line is about, "" unnamed */
	char limit_bdf[16];       /* PCIE_LIMITED: the narrowest link's port, "" unnamed */
	double avail_gbps, cap_gbps;
	char speed[24], cap_speed[24]; /* "8.0 GT/s PCIe" */
	int width, cap_width;
	char text[160];           /* MODULE: the driver's words, kmsg's \xHH decoded */
};

/* One network interface as ip link (-j) and ethtool -i describe it. */
struct dump_net {
	char name[64];
	struct dump_at at;        /* its ip link entry, else its ethtool -i block */
	int from_link;            /* ip link gave it */
	int mtu;                  /* 0 unknown */
	char operstate[16];       /* lower case as sysfs writes it: "up", "down"; "" unknown */
	int carrier;              /* 1, 0, -1 unknown */
	int type;                 /* ARPHRD: 1 ether, 32 infiniband, 772 loopback; -1 unknown */
	int is_virtual;           /* loopback, a link to a parent ("eth0.10@eth0"), no bus-info */
	int ethtool;              /* an ethtool -i block described it */
	long speed_mbps;          /* ethtool IF's "Speed: 100000Mb/s"; 0 unknown */
	char driver[48], fw[64], bdf[16];
};

/* What numactl -H, lscpu and /proc/cpuinfo said. */
struct dump_cpu {
	struct dump_node node[NICFIT_TOPO_MAX_NUMA];
	int nnodes;
	int sockets;              /* lscpu Socket(s), 0 unknown */
	struct dump_at sockets_at;
	int nodes_count;          /* lscpu NUMA node(s) or numactl available:, 0 unknown */
	struct dump_at nodes_at;
	short *cpu_sock;          /* DUMP_MAX_CPUS sockets by CPU, -1 unknown; NULL none */
	int any_cpuinfo;
	int mode, cur_cpu;        /* parser state */
	int col_cpu, col_node, col_sock;
	int dist_ids[NICFIT_TOPO_MAX_NUMA], ndist_ids;
};

/*
 * ACSCtl: lines with no lspci header above them (`lspci -vvv | grep
 * ACSCtl`): the grep drops the addresses, so the bits are known and the
 * ports they belong to are not. And setpci -v's lines on the ACS control
 * word, which name their functions.
 */
struct dump_acs {
	int n;                    /* ACSCtl lines read */
	int redirect;             /* of them and of setpci's, with ReqRedir+ or CmpltRedir+ */
	struct dump_at first, first_redirect;
	int setpci;               /* setpci -v lines giving a function's ACS control word */
	int written;              /* of them, writes (the value the command set) */
	int cut;                  /* setpci lines cut before their value */
	struct dump_at first_setpci;
	char redirect_bdf[16];    /* setpci: the first function redirecting, "" none */
};

/*
 * NCCL_IB_GID_INDEX set in the paste: an export or env line, a launcher's
 * "-x NCCL_IB_GID_INDEX=3", NCCL's own "NCCL_IB_GID_INDEX set by
 * environment to 3." (dump_net.c).
 */
struct dump_gid_env {
	int n;                    /* settings read */
	int index;                /* the first one's value */
	int conflict;             /* a later one set another value */
	struct dump_at at;
};

struct nicfit_dump {
	struct dump_text *texts;
	size_t ntexts, alloc_texts, bytes;
	struct dump_fn *fns;
	size_t nfns, alloc_fns;
	unsigned formats;
	int any_k, any_root, any_denied, any_nonroot_block; /* across -vvv listings */
	int lspci_v_level;        /* 1 -v, 2 -vv or more; 0 none */
	int saw_lnk;              /* some block had LnkCap or LnkSta */
	struct dump_smi smi;
	char gpu_bdf[DUMP_MAX_SMI][16]; /* GPU index -> BDF, "" unknown */
	struct dump_at gpu_at[DUMP_MAX_SMI];
	int gpu_map;              /* a listing gave GPU bus ids */
	struct dump_rdma *rdma;
	size_t nrdma, alloc_rdma;
	struct dump_rdma *ibv_cur; /* the open hca_id: block */
	struct dump_cpu cpu;
	struct dump_kmsg *kmsg;
	size_t nkmsg, alloc_kmsg;
	struct dump_xml *xml;     /* dump_xml.c's documents, NULL none */
	struct dump_net *net;
	size_t nnet, alloc_net;
	int net_mode;             /* the open block of dump_net.c (its enum) */
	struct dump_rdma *net_rdma; /* its ibstat CA */
	int net_port;             /* its ibstat port, -1 none */
	struct dump_net *net_cur; /* its ethtool -i or ip link interface */
	char ethtool_hint[64];    /* "ethtool -i IF" seen on a prompt line */
	char kernel[128], hostname[256]; /* uname -a */
	struct dump_at kernel_at;
	struct dump_acs acs;      /* ACSCtl: lines without a block */
	struct dump_gid_env gid_env; /* NCCL_IB_GID_INDEX as the paste sets it */
	struct dump_iblink *iblinks; /* iblinkinfo's port lines */
	size_t niblinks, alloc_iblinks, iblinks_dropped;
	char iblink_node[64], iblink_guid[17]; /* the open node header of iblinkinfo */
	int iblink_switch, iblink_open;
	struct dump_fwdev *fwdevs; /* mlxfwmanager and flint q (dump_mlxfw.c) */
	size_t nfwdevs, alloc_fwdevs;
	size_t fw_open;           /* 1 + the block being read, 0 none */
	char fw_hint[64];         /* flint -d DEV q seen on a prompt line: the next block's device */
	struct dump_at fw_dev_at; /* a "Device #N:" line whose block has not begun, line 0 none */
	struct dump_mlxlink *links; /* mlxlink's ports */
	size_t nlinks, alloc_links;
	size_t link_open;         /* 1 + the port being read, 0 none */
	char link_hint[64];       /* mlxlink -d DEV on a prompt line */
	int link_hint_port;
	struct dump_mst *mst;     /* mst status (-v) rows */
	size_t nmst, alloc_mst;
	int mst_open;             /* 1 + the plain mst status row whose address line may follow */
	struct dump_problem problems[DUMP_MAX_PROBLEMS];
	size_t nproblems;         /* all met, kept or not */
	int nmangled;             /* lines skipped as prompts or wrapped text */
	int limit;                /* a record limit was hit */
	int oom;
	size_t inflated;          /* bytes decompressed for this reader, every walk together
				   * (dump_path.c: NICFIT_DUMP_MAX_INFLATE) */
	struct dump_fn_index *by_bdf; /* nicfit__dump_find's sorted index, NULL none */
};

/* The functions sorted by address, rebuilt when a function is added. */
struct dump_fn_key {
	const char *bdf;
	size_t i;
};

struct dump_fn_index {
	struct dump_fn_key *keys;
	size_t n, alloc;
	const struct dump_fn *fns; /* the array the keys point into */
	/*
	 * The parent bridge of each bus (dump_build.c's bus_parent), made once
	 * the functions are in address order: for each domain that has
	 * bridges, ascending in dom, the bridge (an index into fns, or -1)
	 * whose range holds each bus most narrowly. bus_fns NULL: not made.
	 */
	unsigned *dom;
	int (*bus)[256];
	size_t ndom;
	const struct dump_fn *bus_fns;
	size_t bus_n;
	/*
	 * nicfit__dump_fn's hash of addresses while the dumps are read
	 * (dump_text.c): slot = 1 + an index into fns, 0 empty; the first
	 * `hashed` functions are in it.
	 */
	size_t *slots, nslots, hashed;
};

/* ---- dump_xml.c's documents ------------------------------------------------ */

#define DUMP_XML_MAX_DOCS 16

/* One XML document of a text. */
struct dump_xml_doc {
	int kind;                 /* NICFIT_DUMP_HWLOC, NICFIT_DUMP_NCCL; 0 unread */
	struct dump_at at;        /* its first line */
	int end_line;
	int damaged;
	char why[320];            /* not_checked's reason when damaged */
};

/* An interface an XML document names at a PCI function. */
struct dump_xml_net {
	char name[64];
	char bdf[16];
	struct dump_at at;
};

struct dump_xml {
	struct dump_xml_doc doc[DUMP_XML_MAX_DOCS];
	int ndocs;
	struct dump_xml_net *net;
	size_t nnet, alloc_net;
	int port_states;          /* hwloc gave some RDMA port's state */
	int link_gbs;             /* hwloc gave pci_link_speed (GB/s) */
	int link_nccl;            /* NCCL gave link_speed */
	int nvlink;               /* NCCL listed <nvlink> */
	int class_only;           /* NCCL gave some <pci> no vendor or device */
	char hostname[256], sys_vendor[128], product[128], kernel[128]; /* hwloc's Machine infos */
	char smi_why[480];        /* audit_dump.c: the smi_topo note when it has counts */
};

/* ---- lookups on the records ---------------------------------------------- */

/* The socket of node n; -1 unknown; *by_count set when read from lscpu's counts alone. */
int nicfit__dump_node_socket(const struct nicfit_dump *d, const struct dump_node *n,
			     int *by_count);
/* The i-th (check, why) the XML documents could not support; 0 past the last. */
int nicfit__dump_xml_lack(const struct nicfit_dump *d, int i, const char **check,
			  const char **why);
/* Where the dumps described RDMA device or interface name; 0 when they did not. */
int nicfit__dump_net_at(const struct nicfit_dump *d, const char *name, struct dump_at *at);
/* Whether f is placed by NCCL's nesting alone (no lspci bus range places it). */
int nicfit__dump_nccl_placed(const struct nicfit_dump *d, const struct dump_fn *f);
/* The record of a BDF, or NULL. */
const struct dump_fn *nicfit__dump_find(const struct nicfit_dump *d, const char *bdf);
/* An RDMA device name (mlx5_N) to its topo function by PCI order: -1 unknown. */
int nicfit__dump_name_pci(const struct nicfit_topo *t, const char *name);
/* Whether a model function is a NIC physical function (of that vendor, 0 any); a GPU. */
int nicfit__dump_nic_fn(const struct nicfit_pcidev *p, unsigned vendor);
int nicfit__dump_gpu_fn(const struct nicfit_pcidev *p);
/* The function nvidia-smi topo -m's column for that device fits (dump_join.c), or -1. */
int nicfit__dump_matrix_pci(const struct nicfit_dump *d, const struct nicfit_topo *t,
			    const char *name);
/* GPU index to topo function; *assumed set when taken from PCI order. */
int nicfit__dump_gpu_pci(const struct nicfit_dump *d, const struct nicfit_topo *t, int k,
			 int *assumed);

/*
 * The kernel's names of an RDMA port's state (NOP .. ACTIVE_DEFER) and
 * physical state (Sleep .. Phy Test), as sysfs prints them; "" for a value
 * out of range (dump/dump_rdma.c).
 */
const char *nicfit__dump_port_state_name(int st);
const char *nicfit__dump_phys_state_name(int st);
/*
 * A port's state (field 0) or physical state (field 1) as one reading at
 * the line at gives it: set, and a change from an earlier reading counted
 * (dump/dump_rdma.c).
 */
void nicfit__dump_port_read(struct dump_rport *pt, int field, int value, struct dump_at at);
/*
 * An iblinkinfo link's generation ("EDR", "FDR10"), *lane its nominal
 * lane rate (25 for EDR's 25.78125 Gbps signalling, as ibstatus's "100
 * Gb/sec (4X EDR)" counts it); NULL and 0 for a speed no generation has.
 */
const char *nicfit__dump_iblink_generation(const struct dump_iblink *l, double *lane);
/* A node GUID read for r (16 hex digits): kept, or a conflict with the one it has noted. */
void nicfit__dump_node_guid(struct dump_rdma *r, const char *guid);

#endif
