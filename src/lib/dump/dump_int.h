/*
 * dump_int.h - what the dump reader's files share (not public).
 *
 * dump.c keeps the texts and walks them line by line, handing each line to
 * the parser whose format it has the shape of (dump_lspci.c: lspci -vvv
 * blocks and plain lspci lines; dump_tree.c: lspci -t; dump_smi.c:
 * nvidia-smi topo -m and the GPU bus-id listings; dump_rdma.c: ibv_devinfo
 * and ibdev2netdev; dump_cpu.c: numactl -H, lscpu and /proc/cpuinfo;
 * dump_dmesg.c: kernel log lines; dump_net.c: ibstat, show_gids, ip link,
 * ethtool -i, uname -a). The parsers fill the
 * records below; dump_build.c turns them into a struct nicfit_topo;
 * dump_judge.c adds to the audit of that model. dump_path.c reads files,
 * directories, standard input and archives into texts.
 */
#ifndef NICFIT_DUMP_INT_H
#define NICFIT_DUMP_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "dump_int.h is internal to libnicfit: include the public headers in include/nicfit/"
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
	int from_xml;             /* an hwloc or NCCL XML element described it */
	char parent[16];          /* XML: the enclosing function's BDF, "" none */
	int parent_nccl;          /* parent came from NCCL's nesting (no downstream ports) */
};

/* nvidia-smi topo -m, as printed. */
struct dump_smi {
	int present;
	struct dump_at at;        /* its header line */
	int ngpus, nnics;
	char nic[DUMP_MAX_SMI][32];     /* "mlx5_0" (legend) or the column header */
	char cell[DUMP_MAX_SMI][DUMP_MAX_SMI][8]; /* GPU row, NIC column: "PIX", "SYS" */
	char gcell[DUMP_MAX_SMI][DUMP_MAX_SMI][8]; /* GPU row, GPU column: "X", "NV18", "PXB" */
	int row_line[DUMP_MAX_SMI];     /* line of each GPU row */
	int legend;               /* the NIC legend was there */
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
};

/* One RDMA device of ibv_devinfo or ibdev2netdev. */
struct dump_rdma {
	char name[64];
	char bdf[16];             /* ibdev2netdev -v, "" unknown */
	struct dump_at at;
	int from_ibv;             /* ibv_devinfo or ibstat gave its ports */
	int from_ibstat;
	int gids;                 /* show_gids listed some of its ports */
	char fw[64], board[64], ca_type[32];
	struct dump_rport ports[NICFIT_TOPO_MAX_PORTS];
	int nports;
	char netdev[NICFIT_TOPO_MAX_PORTS][64];
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
	struct dump_problem problems[DUMP_MAX_PROBLEMS];
	size_t nproblems;         /* all met, kept or not */
	int nmangled;             /* lines skipped as prompts or wrapped text */
	int limit;                /* a record limit was hit */
	int oom;
};

/* ---- dump.c: records ----------------------------------------------------- */

/* The record of bdf (domain optional: 0000), created when new; NULL on a bad address or OOM. */
struct dump_fn *nicfit__dump_fn(struct nicfit_dump *d, unsigned dom, unsigned bus, unsigned dev,
				unsigned fn);
/* Parse "[DDDD:]BB:DD.F" at s; returns characters used or 0. */
size_t nicfit__dump_bdf(const char *s, unsigned *dom, unsigned *bus, unsigned *dev,
			unsigned *fn);
/* The hex number at s of at most max digits (exactly max when exact); -1 none. */
long nicfit__dump_hex(const char *s, int max, int exact, const char **end);
/*
 * Text a tool escaped, back to its own bytes (at most n-1), so that the one
 * escaper at output quotes it once (left as written, an ESC would show as
 * \x5cx1b). \xHH is the byte (a NUL is dropped: C strings end there); with
 * pairs, a doubled backslash is one, as lspci prints VPD strings (pciutils
 * ls-vpd.c, print_vpd_string); without, as the kernel log writes its text
 * (/dev/kmsg escapes control bytes, bytes from 0x7f and the backslash itself
 * as \xHH: kernel/printk/printk.c, Documentation/ABI/testing/dev-kmsg). A
 * backslash that starts neither (a paste's own) is kept as it is.
 */
void nicfit__dump_unescape(char *out, size_t n, const char *s, int pairs);
/*
 * Record that the line at could not be read (what: a sentence quoting the
 * value, cut to fit). The first DUMP_MAX_PROBLEMS are kept, all counted.
 */
void nicfit__dump_problem(struct nicfit_dump *d, struct dump_at at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A line with leading blanks and a trailing '\r' removed, as a bounded copy. */
const char *nicfit__dump_skip_blank(const char *s);

/* ---- dump_lspci.c ------------------------------------------------------ */

/* Whether line starts an lspci function ("17:00.0 Class: ..."). */
int nicfit__dump_lspci_header(const char *line);
/* Read one header line into a new or merged record; returns it or NULL. */
struct dump_fn *nicfit__dump_lspci_line(struct nicfit_dump *d, const char *line,
					struct dump_at at);
/* Read one indented line of f's -v block (the line at). */
void nicfit__dump_lspci_detail(struct nicfit_dump *d, struct dump_fn *f, const char *line,
			       struct dump_at at);
/* Name to class code for lspci without -nn ("3D controller" -> 0x030200); 0 unknown. */
unsigned nicfit__dump_class_of_name(const char *name, size_t n);

/* ---- dump_tree.c --------------------------------------------------------- */

/* Whether a line has the shape of lspci -t output. */
int nicfit__dump_tree_line(const char *line);
/* Parser state for one tree (columns of the open buses). */
struct dump_tree {
	int ncol;
	int col[64];
	unsigned bus[64];
	unsigned domain;
};
void nicfit__dump_tree_read(struct nicfit_dump *d, struct dump_tree *st, const char *line,
			    struct dump_at at);

/* ---- dump_smi.c ---------------------------------------------------------- */

/* Whether a line is the header row of nvidia-smi topo -m. */
int nicfit__dump_smi_header(const char *line);
/* Read the header row; then each following row through _row until it returns 0. */
void nicfit__dump_smi_start(struct nicfit_dump *d, const char *line, struct dump_at at);
int nicfit__dump_smi_row(struct nicfit_dump *d, const char *line, struct dump_at at);
/* A GPU bus-id line of nvidia-smi, -q or --query-gpu; 1 when it was one. */
int nicfit__dump_smi_gpu_line(struct nicfit_dump *d, const char *line, struct dump_at at,
			      int *q_index);

/* ---- dump_rdma.c --------------------------------------------------------- */

/* The record of an RDMA device, made when new; NULL when out of room or memory. */
struct dump_rdma *nicfit__dump_rdma_of(struct nicfit_dump *d, const char *name, size_t n);
/* Port num of a record, added (state unknown) when new; NULL past NICFIT_TOPO_MAX_PORTS. */
struct dump_rport *nicfit__dump_rport(struct dump_rdma *r, int num);
/* "hca_id:\tmlx5_0" opens a block of ibv_devinfo; its indented lines follow. */
void nicfit__dump_ibv_start(struct nicfit_dump *d, const char *line, struct dump_at at);
void nicfit__dump_ibv_line(struct nicfit_dump *d, const char *line);
/* A line of ibdev2netdev (-v); 1 when it was one. */
int nicfit__dump_ibdev_line(struct nicfit_dump *d, const char *line, struct dump_at at);
/* A record's firmware, board id and ports into the model's device. */
void nicfit__dump_rdma_ports(const struct dump_rdma *r, struct nicfit_rdmadev *out);

/* ---- dump_cpu.c --------------------------------------------------------- */

/* A line of numactl -H, lscpu (-e, -p) or /proc/cpuinfo; 1 when it was one. */
int nicfit__dump_cpu_line(struct nicfit_dump *d, const char *line, struct dump_at at);
/* A blank line or a new text: the open table ends. */
void nicfit__dump_cpu_break(struct nicfit_dump *d);
/* The socket of node n; -1 unknown; *by_count set when read from lscpu's counts alone. */
int nicfit__dump_node_socket(const struct nicfit_dump *d, const struct dump_node *n,
			     int *by_count);

/* ---- dump_dmesg.c ------------------------------------------------------- */

/* A kernel log line: PCIe bandwidth limited, or a module error; 1 when it was one. */
int nicfit__dump_kmsg_line(struct nicfit_dump *d, const char *line, struct dump_at at);
/* Their findings: dump-pcie-limited, dump-module-error. Errors: NICFIT_E_NOMEM. */
int nicfit__dump_kmsg_judge(const struct nicfit_dump *d, struct nicfit_audit *a);

/* ---- dump_xml.c ---------------------------------------------------------- */
/*
 * hwloc and NCCL topology XML: when a line opens a document, the walk hands
 * dump_xml.c the text from there; libxml2 reads the document whole and its
 * elements become the records above (functions, NUMA nodes, RDMA devices,
 * GPU indices) and the interfaces below, each at its element's line.
 */

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
	char smi_why[480];        /* dump_judge.c: the smi_topo note when it has counts */
};

/* Whether a line opens an XML document (hwloc's <topology>, NCCL's <system>). */
int nicfit__dump_xml_start(const char *line);
/*
 * Read the document at byte pos of text ti (its first line is line):
 * returns the bytes it spans (to the end of its closing tag's line, or of
 * the text), 0 when it was not read (out of room; d->oom on memory).
 */
size_t nicfit__dump_xml_read(struct nicfit_dump *d, int ti, size_t pos, int line);
/* The interfaces the documents name, into the model. Errors: NICFIT_E_NOMEM. */
int nicfit__dump_xml_build(const struct nicfit_dump *d, struct nicfit_topo *t);
/* The i-th (check, why) the XML documents could not support; 0 past the last. */
int nicfit__dump_xml_lack(const struct nicfit_dump *d, int i, const char **check,
			  const char **why);
void nicfit__dump_xml_free(struct dump_xml *x);
/* Why the first damaged document was not read whole (a sentence naming FILE:LINE), or NULL. */
const char *nicfit__dump_xml_unread(const struct nicfit_dump *d);
/* dump_cpu.c's record by id, made when new; NULL when full. */
struct dump_node *nicfit__dump_node_of(struct nicfit_dump *d, long id, struct dump_at at);
/* ---- dump_net.c --------------------------------------------------------- */

/*
 * The first line of an ibstat CA, a show_gids table, an ip link entry, an
 * ethtool -i block or uname -a: 1 when it was one (its block is open).
 */
int nicfit__dump_net_start(struct nicfit_dump *d, const char *line, struct dump_at at);
/* A following line of the open block: 1 when it was one. */
int nicfit__dump_net_more(struct nicfit_dump *d, const char *line, struct dump_at at);
/* A line no parser took: a prompt's "ethtool -i IF" names the next block. */
void nicfit__dump_net_hint(struct nicfit_dump *d, const char *line);
/* ip -j link at the start of a line: bytes taken (0 none); *lines set to the lines they span. */
size_t nicfit__dump_net_json(struct nicfit_dump *d, const char *s, size_t len, struct dump_at at,
			     int *lines);
/* ethtool -i's drivers into the records of their functions (before the build). */
void nicfit__dump_net_fns(struct nicfit_dump *d);
/* The interfaces, kernel and host name into the model. Errors: NICFIT_E_NOMEM. */
int nicfit__dump_net_build(const struct nicfit_dump *d, struct nicfit_topo *t);
/* Where the dumps described RDMA device or interface name; 0 when they did not. */
int nicfit__dump_net_at(const struct nicfit_dump *d, const char *name, struct dump_at *at);
/* The checks the interfaces and ports lack, with why, into not_checked. */
int nicfit__dump_net_notes(const struct nicfit_dump *d, struct nicfit_audit *a);

/* ---- dump_judge.c -------------------------------------------------------- */

/* Put (check, why) in not_checked, replacing the why of a check already there (why: static text). */
int nicfit__dump_note(struct nicfit_audit *a, const char *check, const char *why);

/* ---- dump_build.c -------------------------------------------------------- */

int nicfit__dump_build(struct nicfit_dump *d, struct nicfit_topo **out,
		       struct nicfit_error *err);
/* The record of a BDF, or NULL. */
/* Whether f is placed by NCCL's nesting alone (no lspci bus range places it). */
int nicfit__dump_nccl_placed(const struct nicfit_dump *d, const struct dump_fn *f);
const struct dump_fn *nicfit__dump_find(const struct nicfit_dump *d, const char *bdf);
/* An RDMA device name (mlx5_N) to its topo function by PCI order: -1 unknown. */
int nicfit__dump_name_pci(const struct nicfit_topo *t, const char *name);
/* GPU index to topo function; *assumed set when taken from PCI order. */
int nicfit__dump_gpu_pci(const struct nicfit_dump *d, const struct nicfit_topo *t, int k,
			 int *assumed);

#endif
