/*
 * nicfit/verify.h - reading what people measured (nccl-tests tables,
 * NCCL_DEBUG=INFO logs, perftest and iperf3 output, NCCL topology dumps)
 * and saying whether the network delivers what it should.
 *
 * An input is text; its kind is recognised by content, and one text may
 * hold several (an nccl-tests run with NCCL_DEBUG=INFO prints a log and a
 * table). Each recognised part becomes a struct nicfit_verify_doc. The
 * expectation comes from the caller (struct nicfit_verify_expect: nodes,
 * GPUs, NICs and their link) or, failing that, from what the log itself
 * names (the HCAs NCCL lists, the rate perftest was run on). The judgement
 * computes the ceiling with the link and perf modules (link goodput, the
 * ring all-reduce over the nodes' rails), the ratio measured / expected and
 * a verdict, and raises findings (the registry's verify codes) for causes,
 * each quoting the input line it rests on.
 *
 *	struct nicfit_verify *v = nicfit_verify_new();
 *	nicfit_verify_add_text(v, "run.log", text, len, &err);   (per input)
 *	nicfit_verify_judge(v, &expect, &err);
 *	nicfit_verify_render(v, e);
 *	rc = nicfit_verify_exit_code(v);
 *	nicfit_verify_free(v);
 *
 * The object owns everything it holds; pointers into it live until
 * nicfit_verify_free(). Texts are copied as far as they are kept (lines
 * quoted as evidence are copied, escaped only when rendered).
 */
#ifndef NICFIT_VERIFY_H
#define NICFIT_VERIFY_H

#include <stddef.h>

#include "nicfit/buf.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "nicfit/finding.h"
#include "nicfit/units.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The largest input nicfit_verify_add_text() is handed by the tests and
 * tools that read a whole file first. nicfit_verify_add_file() has no
 * limit but the caller's (verify --max-size): it maps the file and reads
 * it in one pass, with flat memory whatever its size.
 */
#define NICFIT_VERIFY_MAX_BYTES (64u << 20)
/* Lines between two of an input's line marks (the quoting of a line finds its way from one). */
#define NICFIT_VERIFY_MARK_LINES 1024

enum nicfit_verify_kind {
	NICFIT_VERIFY_NCCL_TESTS,   /* an nccl-tests table */
	NICFIT_VERIFY_NCCL_LOG,     /* NCCL INFO/WARN lines */
	NICFIT_VERIFY_PERFTEST,     /* ib_write_bw, ib_read_bw, ib_send_bw, ib_*_lat */
	NICFIT_VERIFY_IPERF3,       /* iperf3 text or --json */
	NICFIT_VERIFY_NCCL_TOPO,    /* an NCCL topology XML (NCCL_TOPO_DUMP_FILE) */
	NICFIT_VERIFY_IPERF2        /* iperf 2 text (u.ip, as iperf3) */
};

/* "nccl-tests", "nccl-log", "perftest", "iperf3", "nccl-topo", "iperf2". */
const char *nicfit_verify_kind_name(enum nicfit_verify_kind k);

enum nicfit_verify_verdict {
	NICFIT_VERDICT_NONE = 0,    /* nothing to compare with */
	NICFIT_VERDICT_OK,          /* as expected */
	NICFIT_VERDICT_LOW,
	NICFIT_VERDICT_FAR_BELOW,
	NICFIT_VERDICT_ABOVE_LINE   /* above what the links given can carry: input or expectation wrong */
};

/* "not judged", "as expected", "low", "far below", "above line rate". */
const char *nicfit_verdict_name(enum nicfit_verify_verdict v);

/* ---- launcher lines ---------------------------------------------------------- */

/*
 * What a launcher command pasted beside a run says about it: Open MPI and
 * MPICH mpirun/mpiexec (-np, -H/--host a:8,b:8, -N/--npernode, -ppn,
 * --map-by ppr:N:node, --hostfile), Slurm srun (-N, -n, --ntasks-per-node, -w),
 * torchrun (--nnodes, --nproc_per_node) and deepspeed (--num_nodes,
 * --num_gpus). The first such line of an input is kept; 0 is unknown.
 */
struct nicfit_launch {
	char tool[16];              /* "mpirun", "srun", "torchrun", "deepspeed", "" none */
	int procs;                  /* processes started (-np, -n, nodes x per node) */
	int nodes;                  /* nodes: hosts listed, -N, --nnodes, procs / per node */
	int per_node;               /* processes a node */
	int gpus_per_proc;          /* nccl-tests -t x -g on the same line, 1 when not given */
	int hostfile;               /* the hosts are in a file the paste does not show */
	long line;
};

/* ---- nccl-tests ------------------------------------------------------------ */

struct nicfit_nccl_row {
	double bytes;
	double count;
	char type[16], redop[16];
	double time_us[2];          /* [0] out-of-place, [1] in-place; < 0 absent */
	double algbw[2], busbw[2];  /* GB/s, as printed */
	long line;                  /* 1-based line of the row in its input */
};

struct nicfit_nccl_tests {
	char collective[32];        /* "all_reduce_perf" when the run names it, else "" */
	char op[16];                /* "allreduce", ..., "" when it cannot be told */
	int nranks;                 /* "#  Rank N" lines counted, 0 unknown */
	int nodes;                  /* distinct hosts among the ranks, 0 unknown */
	char gpu[64];               /* the device the first rank names */
	char version[32];           /* "2.19.3" from "NCCL version", or "" */
	struct nicfit_nccl_row *rows;
	size_t nrows, alloc;
	double avg_busbw;           /* "# Avg bus bandwidth", < 0 absent */
	long avg_line;
	int avg_ok;                 /* NCCL_TESTS_MIN_BW's check of it: 1 "OK", 0 "FAILED", -1 none */
	long wrong;                 /* sum of #wrong, or out-of-bounds count */
	long wrong_line;
	size_t peak;                /* row of the highest busbw */
	int peak_inplace;           /* the peak is the in-place column */
	int truncated;              /* no average line: the paste stops early */
	long header_line;
	double bus_factor;          /* nccl-tests' factor for op at nranks, 0 unknown */
	int jobs;                   /* > 1: a rank printed that often (separate jobs: no MPI), 0 one */
	long jobs_line;             /* the first rank line printed again */
	struct nicfit_launch launch;  /* the launcher line, tool "" none */
	const char *ranks_from;     /* "rank lines", "launcher", "bus factor", NULL unknown */
	const char *nodes_from;     /* "rank lines", "launcher", "ranks / per node", NULL unknown */
};

/* ---- NCCL INFO logs -------------------------------------------------------- */

struct nicfit_nccl_hca {
	char name[32];              /* "mlx5_0" */
	int port;                   /* 1, 0 unknown */
	char link[16];              /* "IB", "RoCE", "" */
	int gdr;                    /* 1 enabled, 0 disabled, -1 not said */
	char gdr_reason[48];        /* "no module", "distance 4 > 2", "" */
	long line, gdr_line;
};

/* What a queue pair's GID is (NCCL's per-QP "GID n (prefix/interface)" on RoCE). */
enum nicfit_gid_kind {
	NICFIT_GID_NONE,            /* no GID on the line: InfiniBand (LID) or not printed */
	NICFIT_GID_IPV4,            /* ::ffff:a.b.c.d, an IPv4 address (RoCE v2 routes it) */
	NICFIT_GID_LINK_LOCAL,      /* fe80::/64: never routed */
	NICFIT_GID_IPV6,            /* any other IPv6 address */
	NICFIT_GID_ZERO             /* all zero: an unconfigured table entry */
};

/*
 * One NCCL net device on one host, from NCCL's per-QP connection lines
 * ("NET/IB: NCCL Dev 0 IbDev 0 Port 1 qpn 1047 mtu 5 ... GID 0
 * (80FE/1A8A41FEFF21A75E)"; "... mtu 5 LID 37" on InfiniBand).
 */
struct nicfit_nccl_qp {
	char host[64];              /* the line's host prefix, "" when none */
	int dev, ibdev, port;       /* -1 when the line does not print it */
	int mtu;                    /* enum ibv_mtu as printed: 1=256 ... 5=4096; 0 not printed */
	int ib;                     /* the line gives a LID: an InfiniBand port */
	long gid_index;             /* -1 when there is no GID */
	unsigned char gid[16];      /* in network order */
	enum nicfit_gid_kind gid_kind;
	size_t nlines;              /* QP lines of this device and host */
	long line;                  /* the first */
};

/* "ipv4", "link-local", "ipv6", "zero"; NULL for NICFIT_GID_NONE. */
const char *nicfit_gid_kind_name(enum nicfit_gid_kind k);

struct nicfit_nccl_kv {
	char *name, *value;
	long line;
};

struct nicfit_nccl_note {
	char *text;                 /* the line, as read (prefix included) */
	long line;
};

/*
 * One "GPU Direct RDMA Disabled|Enabled for GPU g / HCA h (...)" line,
 * NCCL's per-GPU decision (2.3 to 2.26): the GPU as NCCL printed it
 * ("1b000", "0[0]", "3"), the HCA's index (-1 when 2.3 named it) or name.
 */
struct nicfit_nccl_gdr_gpu {
	char gpu[24];
	int hca;                    /* NCCL's net device, -1 unknown */
	char hca_name[32];          /* 2.3: "mlx5_0"; "" otherwise */
	int on;                     /* 1 enabled, 0 disabled */
	int distance, level;        /* "(distance 4 > 2)", -1 not printed */
	char reason[48];            /* "no module", "distance 4 > 2" */
	long line;
};

/*
 * NCCL 2.4's "CUDA Dev 0[0], IB NIC distance :  PIX NODE SYS SYS" (src/
 * transport/net.cc): one GPU's PCI path class to each net device, in the
 * order NCCL numbers them (its NET/IB "Using [0]... [1]..." list).
 */
#define NICFIT_NCCL_MAX_DIST 16
struct nicfit_nccl_nic_dist {
	char host[64];
	int gpu;                    /* the CUDA device */
	char paths[NICFIT_NCCL_MAX_DIST][8];  /* "PIX", "PXB", "PHB", "NODE", "SYS" */
	int npaths;
	long line;
};

struct nicfit_nccl_log {
	char version[32];           /* "2.21.5" */
	long version_line;
	int rccl;                   /* AMD's RCCL: "RCCL version", librccl, ROCr/HIP versions */
	long rccl_line;             /* the first line that shows it */
	char network[24];           /* "IB", "Socket", "IBext", "AWS Libfabric"...: "Using network X" */
	long network_line;
	char plugin[64];            /* "IBext" from "P2P plugin IBext", net plugin names */
	int ib_no_device;           /* "NET/IB : No device found." */
	long ib_no_device_line;
	int no_ibverbs;             /* "Failed to open libibverbs.so" */
	long no_ibverbs_line;
	int socket_used;            /* "NET/Socket : Using ..." or network Socket */
	long socket_line;
	char socket_ifs[128];       /* "ens3, ib0" */
	char bootstrap_if[32];      /* "ib0" from "Bootstrap : Using ib0:10.0.0.1<0>" */
	long bootstrap_line;
	int ofi;                    /* NET/OFI lines */
	long ofi_line;
	char ofi_provider[24];      /* "efa", "cxi", "verbs;ofi_rxm", "tcp": "Selected Provider is X" */
	char ofi_fabric[48];        /* "efa-direct", "10.201.0.0/16": ", fabric is Y" (1.14 on) */
	int ofi_nics;               /* "(found N nics)", 0 not said */
	long ofi_provider_line;
	int ofi_no_provider;        /* "NET/OFI No eligible providers were found" */
	long ofi_no_provider_line;
	int relaxed_ordering;       /* "[RO]" on the NET/IB line */
	struct nicfit_nccl_hca *hcas;
	size_t nhcas, hcas_alloc;
	size_t chan_net, chan_gdr;  /* channel connections via NET, and of them /GDRDMA */
	long chan_net_line, chan_nogdr_line;
	size_t chan_p2p, chan_shm, chan_nvls;
	long p2p_line, shm_line, nvls_line;
	int nrings, ntrees;         /* ring and tree lines of the first rank */
	int coll_channels;          /* "N coll channels", 0 unknown */
	long channels_line;
	int nranks;                 /* "nranks N", else a ring's ranks or the launcher's */
	const char *ranks_from;     /* "nranks", "ring", "launcher", NULL unknown */
	int ranks_at_least;         /* the highest rank a connection line names + 1, 0 none */
	struct nicfit_launch launch;  /* the launcher line, tool "" none */
	size_t nhosts;              /* distinct host prefixes */
	int nnodes;                 /* the most "nNodes N" of an init line (2.19 on), 0 not said */
	int local_ranks;            /* its "localRanks N", 0 not said */
	long nnodes_line;
	int jobs;                   /* rank-0 inits on distinct hosts when none spans nodes, else 0 */
	long jobs_line;             /* the second such init */
	int ib_mixed_links;         /* NET/IB lists both IB and RoCE ports */
	struct nicfit_nccl_nic_dist nic_dist[NICFIT_NCCL_MAX_DIST];  /* one a host and GPU */
	size_t nnic_dist;
	struct nicfit_nccl_gdr_gpu *gdr_gpus;   /* per-GPU GDR lines, one per GPU and HCA */
	size_t ngdr_gpus, gdr_gpus_alloc;
	struct nicfit_nccl_qp *qps;       /* per host and net device */
	size_t nqps, qps_alloc;
	struct nicfit_nccl_kv *env;
	size_t nenv, env_alloc;
	struct nicfit_nccl_note *warns;   /* WARN lines and error codes */
	size_t nwarns, warns_alloc;
	size_t nlines;              /* NCCL lines read */
};

/* ---- perftest and iperf3 --------------------------------------------------- */

struct nicfit_perftest {
	char test[48];              /* "RDMA_Write BW Test" */
	char device[32];
	char link_type[16];         /* "IB", "Ethernet" */
	int mtu, gid_index, qps;
	int latency;                /* a *_lat run */
	int gbits;                  /* BW in Gb/sec (else MB/sec) */
	double bytes;               /* the row with the best average */
	double bw_peak, bw_avg;     /* as printed */
	double bw_avg_gbps;         /* converted */
	double lat_typical_us, lat_avg_us, lat_max_us; /* a latency test's smallest message */
	long row_line;
	long cut_line;              /* a row cut short (a truncated paste) */
	size_t nrows;
	char gpu_mem[8];            /* "cuda", "rocm": --use_cuda/--use_rocm buffers, "" host memory */
	char gpu[64];               /* the GPU perftest names ("device name = [...]"), "" */
	int dmabuf;                 /* "using DMA-BUF for GPU buffer" */
	long gpu_line;              /* the line that shows GPU memory */
	long cpu_freq_line;         /* perftest's "CPU Frequency is not max" warning, 0 none */
};

struct nicfit_iperf3 {
	int json;
	char version[32];
	int streams;
	double duration_s;
	double sender_gbps, receiver_gbps;
	long retransmits;           /* -1 not reported */
	int retr_intervals;         /* 0: retransmits is the summary's; else summed over this many
				       interval lines of a run cut before its summary (partial) */
	long sum_line;              /* line of the summary (text) */
	char udp;                   /* a UDP test */
	int sum;                    /* [SUM] lines: more than one stream (streams 0: how many unknown) */
	int bidir;                  /* --bidir: sender_gbps is [TX-C], receiver_gbps [RX-C] */
	int intervals;              /* no summary: the figures are the mean of this many interval lines */
	int cut;                    /* --json: a fragment of the document (no "end") */
	/* UDP: the receiver's datagram report ("0.017 ms  0/893 (0%)"); datagrams 0 none */
	long lost, datagrams;       /* lost of total datagrams, summed over intervals without a summary */
	double jitter_ms;           /* the summary's, else the intervals' highest; < 0 not printed */
	long loss_line;             /* the line of the report read (the worst interval's) */
};

/* ---- NCCL topology XML ----------------------------------------------------- */

struct nicfit_nccl_topo {
	int version;
	int cpus, pci, gpus, nics, nets;   /* gpus, nics: <gpu>/<nic> or PCI classes */
	int gpu_class, nic_class;   /* <pci> of a GPU (0x0302, 0x0300) or NIC (0x0207, 0x0200) class */
	char first_net[32];
	int gdr_nets;               /* <net ... gdr="1"> */
	double net_speed_mbps;      /* the first net's speed attribute */
};

/* ---- one recognised part of an input -------------------------------------- */

struct nicfit_verify_doc {
	enum nicfit_verify_kind kind;
	char *input;                /* the file's name, "<stdin>" */
	const char *text;           /* the input's text (owned by the verify object) */
	size_t text_len;
	const struct nicfit_verify_text *src;   /* the input it was read from */
	union {
		struct nicfit_nccl_tests t;
		struct nicfit_nccl_log log;
		struct nicfit_perftest pt;
		struct nicfit_iperf3 ip;
		struct nicfit_nccl_topo topo;
	} u;
	/* the judgement (nicfit_verify_judge) */
	double measured_gbps;       /* Gb/s; < 0 none */
	double expected_gbps;       /* the ceiling; < 0 none */
	double ratio;
	enum nicfit_verify_verdict verdict;
	const char *verdict_code;   /* the finding that explains the verdict (above it), or NULL */
	char *what;                 /* "busbw at 8 GB", "BW average" */
	char *arith;                /* the ceiling's arithmetic, one line */
};

/* The expectation. Zero fields are unknown; judge fills them from the logs. */
struct nicfit_verify_expect {
	int nodes;
	int gpus_per_node;
	int nics_per_node;          /* rails per node; 0: one per GPU */
	struct nicfit_speed link;   /* one NIC's rate; gbps 0 unknown */
	int proto;                  /* enum nicfit_proto; -1: from the link's kind */
	double pcie_gbps;           /* a NIC's PCIe path when known (card in its slot), 0 none */
	const char *source;         /* "the options", "the host (--sysfs)": how it was given */
	char path[8];               /* the worst GPU-to-nearest-RDMA-NIC path ("PIX".."SYS"), "" unknown */
	int gpus_without_gdr;       /* GPUs whose nearest RDMA NIC NCCL uses without GDR by default */
	double low_ratio;           /* below: "low" (0: the default) */
	double far_ratio;           /* below: "far below" (0: the default) */
};

/* The verdict thresholds' defaults, fractions of the ceiling. */
#define NICFIT_VERIFY_LOW_RATIO 0.80
#define NICFIT_VERIFY_FAR_RATIO 0.50

void nicfit_verify_expect_init(struct nicfit_verify_expect *x);

/*
 * The expectation of `verify --nic PART`: the link of the card's fastest
 * port (a catalog NIC id or a part number the decoder reads), its
 * InfiniBand rate when it has one and x->proto is not TCP or RoCE.
 * Errors: those of nicfit_card_resolve and nicfit_parse_speed (named
 * "--nic"). The expectations from a host and from a plan are
 * nicfit_audit_verify_expect (nicfit/audit.h) and
 * nicfit_plan_verify_expect (nicfit/plan.h).
 */
struct nicfit_catalog;
int nicfit_verify_expect_from_nic(const struct nicfit_catalog *cat, const char *part,
				  struct nicfit_verify_expect *x, struct nicfit_error *err);

/*
 * One input as kept for quoting its lines: a copy (add_text) or the file
 * mapped read-only (add_file, whose pages are handed back to the kernel
 * as the pass goes by, so a quote reads them again), and the byte offset
 * of every NICFIT_VERIFY_MARK_LINES-th line (marks[k]: line 1 + k x
 * NICFIT_VERIFY_MARK_LINES), so that quoting a late line reads from the
 * mark before it, not from the start.
 */
struct nicfit_verify_text {
	const char *text;
	size_t len;
	char *copy;
	void *map;
	size_t map_len;
	size_t *marks;
	size_t nmarks, marks_alloc;
};

struct nicfit_verify {
	struct nicfit_verify_doc *docs;
	size_t ndocs, alloc;
	struct nicfit_verify_text **texts;   /* every input, for quoting its lines */
	size_t ntexts, texts_alloc;
	struct nicfit_verify_expect expect;   /* as used (after judge) */
	struct nicfit_findings findings;
	int judged;
};

struct nicfit_verify *nicfit_verify_new(void);
void nicfit_verify_free(struct nicfit_verify *v);

/*
 * Read one input (name for messages, text of len bytes). Every kind found
 * in it is added. Text of no known kind is NICFIT_E_DATA, "name: not an
 * nccl-tests, NCCL log, perftest or iperf3 output (line 1: ...)". An
 * iperf3 JSON document cut short is read as far as its start block goes
 * (u.ip.cut); one cut before its "version" is NICFIT_E_DATA with its line
 * and column.
 */
int nicfit_verify_add_text(struct nicfit_verify *v, const char *name, const char *text,
			   size_t len, struct nicfit_error *err);

/*
 * Read the file at path ("-": standard input, named "<stdin>"), as
 * nicfit_verify_add_text() reads a text, in one pass and with memory that
 * does not grow with its size: a regular file is mapped, anything else
 * (a pipe) copied to an unnamed temporary file first. max, when not 0, is
 * the most bytes taken: a larger input is NICFIT_E_LIMIT. A file that
 * cannot be opened or read is NICFIT_E_NOTFOUND or NICFIT_E_IO.
 */
int nicfit_verify_add_file(struct nicfit_verify *v, const char *path, size_t max,
			   struct nicfit_error *err);

/* Compute ceilings, verdicts and causes for every document read. */
int nicfit_verify_judge(struct nicfit_verify *v, const struct nicfit_verify_expect *x,
			struct nicfit_error *err);

/* Text, JSON (nicfit.verify.v1, docs/json-verify.md) or Markdown. */
int nicfit_verify_render(const struct nicfit_verify *v, struct nicfit_emit *e);

/*
 * 0 every measurement as expected, 1 low (or warnings), 2 far below or
 * broken, 3 nothing to judge: no finding above info and every input a
 * measurement left "not judged" (no ceiling, or no figure in it).
 */
int nicfit_verify_exit_code(const struct nicfit_verify *v);

/*
 * nccl-tests' bus-bandwidth factor (its doc/PERFORMANCE.md) for op
 * ("allreduce", "allgather", "reducescatter", "broadcast", "reduce",
 * "alltoall", "sendrecv") over n ranks; 0 for an unknown op or n < 1.
 */
double nicfit_nccl_bus_factor(const char *op, int n);

#ifdef __cplusplus
}
#endif

#endif
