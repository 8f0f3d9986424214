/*
 * nicfit/dump.h - the host as the dumps people paste or attach describe
 * it: `lspci -vvv` and `-tv`, `nvidia-smi topo -m`, the RDMA and network
 * tools, the CPU listings, kernel log lines, hwloc and NCCL topology XML
 * (the full list below), read into the host model that sysfs discovery builds
 * (nicfit/topo.h), so that the audit (nicfit/audit.h) judges a support
 * ticket's paste as it judges a live host.
 *
 * Formats are recognised by content, not by file name, line by line, so
 * one paste may hold several of them one after another; shell prompts,
 * `[sudo] password` lines, lines a mail client wrapped and sections that
 * are missing are tolerated. Nothing the text does not say is invented:
 * a value it lacks stays unknown in the model (its NICFIT_HAVE_* flag
 * clear), and nicfit_dump_judge() lists in the audit's not_checked what
 * could not be judged for that reason.
 *
 * What is read, by format:
 * - lspci -vvv (with or without -nn, -D, -k, -s, as root or not): each
 *   function's address, class, IDs (with -nn), NUMA node, LnkCap/LnkSta,
 *   bridge bus ranges (from which the tree is rebuilt), kernel driver
 *   (-k), Physical Slot, SR-IOV, VPD, ACS control bits, MaxPayload and
 *   MaxReadReq.
 * - lspci -tv / -tvnn: the tree, which places functions a partial -vvv
 *   leaves out and gives bridges their secondary bus ranges.
 * - nvidia-smi topo -m: the driver's own GPU-NIC and GPU-GPU path classes,
 *   kept to be compared cell by cell with the ones the audit derives (NV#
 *   cells are NVLink, which the PCI tree does not show) (the NIC names
 *   it lists become the model's RDMA devices).
 * - nvidia-smi (the table), nvidia-smi -q and `--query-gpu=index,pci.bus_id`:
 *   GPU index to PCI address.
 * - ibv_devinfo (-v): RDMA devices, firmware, board id, and each port's
 *   state, physical state, width and speed (-v) and link layer;
 *   ibdev2netdev (-v): the device's PCI function (-v) and interfaces;
 *   ibstat: CA type, firmware, each port's state, physical state and link
 *   layer; show_gids: each port's GIDs (RoCE v1/v2, routable) and interface.
 * - ip link and ip -j link: interfaces, MTU, state, carrier, link type;
 *   ethtool -i IF: driver, firmware and the PCI function (bus-info);
 *   uname -a: kernel release and host name.
 * - numactl -H, lscpu (plain, -e, -p) and /proc/cpuinfo: the NUMA nodes,
 *   their CPUs and distances, and the socket of each node (that of its
 *   lowest CPU; from lscpu's counts alone only when there is one socket,
 *   or as many sockets as nodes with CPUs).
 * - hwloc XML (lstopo --of xml, hwloc-gather-topology; formats 1, 2 and
 *   3): packages and NUMA nodes with their CPUs, the PCI tree with bridge
 *   bus ranges, IDs and class, each function's NUMA node, and the OS
 *   devices under functions (interfaces, RDMA devices and their ports'
 *   states, NVML GPU indices).
 * - NCCL's topology XML (NCCL_TOPO_DUMP_FILE, NCCL_TOPO_FILE): NUMA nodes
 *   with their CPUs, the nested PCI switches and devices, GPU indices and
 *   NICs' nets (RDMA devices or interfaces).
 *
 * The result: nicfit_dump_new() allocates a reader that keeps every text
 * added to it (and the names given for them); nicfit_dump_topo() builds a
 * new model the caller frees with nicfit_topo_free(); nicfit_dump_judge()
 * adds to an audit of that model; nicfit_dump_free() frees the reader.
 * Keep the reader alive while the audit is rendered: findings point at no
 * memory of it, but the not_checked reasons are its static text.
 */
#ifndef NICFIT_DUMP_H
#define NICFIT_DUMP_H

#include <stddef.h>

#include "nicfit/error.h"
#include "nicfit/topo.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nicfit_audit;
struct nicfit_dump;

/* Bounds on what one reader takes: bytes of all texts, files of a directory walk. */
#define NICFIT_DUMP_MAX_BYTES ((size_t)64 << 20)
#define NICFIT_DUMP_MAX_FILE ((size_t)16 << 20)
#define NICFIT_DUMP_MAX_FILES 20000
/*
 * Budgets of one reader across all it is given: bytes decompressed from
 * gzip files (nvidia-bug-report.log.gz, the logs of a sosreport), counted
 * as inflated whether or not the text is kept, and CPU seconds spent in a
 * directory or archive walk. A walk past either is refused (NICFIT_E_LIMIT)
 * rather than read in part: a tar.gz of 4,000 gzip bombs stops at the
 * eighth, not after two minutes of inflating.
 */
#define NICFIT_DUMP_MAX_INFLATE ((size_t)128 << 20)
#define NICFIT_DUMP_MAX_CPU_S 10

/* What a text was recognised as (bits of nicfit_dump_formats). */
#define NICFIT_DUMP_LSPCI_V 0x01u      /* lspci -v/-vv/-vvv blocks */
#define NICFIT_DUMP_LSPCI 0x02u        /* plain lspci lines (one per function) */
#define NICFIT_DUMP_LSPCI_TREE 0x04u   /* lspci -t */
#define NICFIT_DUMP_SMI_TOPO 0x08u     /* nvidia-smi topo -m */
#define NICFIT_DUMP_SMI_GPUS 0x10u     /* nvidia-smi, -q, --query-gpu with bus ids */
#define NICFIT_DUMP_RDMA 0x20u         /* ibv_devinfo (-v), ibdev2netdev (-v) */
#define NICFIT_DUMP_CPU 0x40u          /* numactl -H, lscpu (-e, -p), /proc/cpuinfo */
#define NICFIT_DUMP_NET 0x100u         /* ip link, ip -j link, ethtool -i */
#define NICFIT_DUMP_HOST 0x200u        /* uname -a */
#define NICFIT_DUMP_ACS 0x400u         /* ACSCtl: lines outside an lspci block (lspci -vvv | grep ACSCtl) */
#define NICFIT_DUMP_IBLINK 0x800u      /* iblinkinfo (infiniband-diags): the fabric's links */
#define NICFIT_DUMP_MLXFW 0x1000u      /* MFT: mlxfwmanager --query, mlxup, flint/mstflint q, mst status */
#define NICFIT_DUMP_MLXLINK 0x2000u    /* MFT: mlxlink (mstlink) port reports */
#define NICFIT_DUMP_HWLOC 0x10000u     /* hwloc XML (lstopo --of xml), v1, v2 and v3 */
#define NICFIT_DUMP_NCCL 0x20000u      /* NCCL topology XML (NCCL_TOPO_DUMP_FILE) */

int nicfit_dump_new(struct nicfit_dump **out);
void nicfit_dump_free(struct nicfit_dump *d);

/*
 * Add one text under name (used in provenance and errors). The text is
 * copied. Errors: NICFIT_E_LIMIT past NICFIT_DUMP_MAX_BYTES, NICFIT_E_NOMEM.
 * Text that holds nothing recognised is no error here (see nicfit_dump_topo).
 */
int nicfit_dump_add_text(struct nicfit_dump *d, const char *name, const char *text, size_t len,
			 struct nicfit_error *err);

/*
 * Add what path holds: "-" (standard input), a file, a gzip-compressed
 * text file (nvidia-bug-report.log.gz: every member, up to
 * NICFIT_DUMP_MAX_FILE uncompressed), a directory (walked, every regular
 * file read, gzip-compressed text too; a sosreport or supportconfig
 * unpacked), or an archive (tar in any compression nicfit_snapshot_extract
 * reads: a sosreport .tar.xz, a supportconfig .txz; no sys/ needed),
 * unpacked with the snapshot reader's bounds into a temporary directory
 * that is removed again.
 * Errors: NICFIT_E_NOTFOUND, NICFIT_E_IO, NICFIT_E_LIMIT, NICFIT_E_DATA (a
 * damaged archive), NICFIT_E_NOMEM.
 */
int nicfit_dump_add_path(struct nicfit_dump *d, const char *path, struct nicfit_error *err);

/*
 * Build the host model from everything added. Errors: NICFIT_E_DATA when
 * no text held a recognised PCI listing (lspci -vvv, lspci or lspci -t):
 * the error names the inputs; NICFIT_E_LIMIT past NICFIT_TOPO_MAX_PCI;
 * NICFIT_E_NOMEM. The model's root is "dump:" and the first input's name.
 */
int nicfit_dump_topo(struct nicfit_dump *d, struct nicfit_topo **out, struct nicfit_error *err);

/* NICFIT_DUMP_* bits of what the texts held. */
unsigned nicfit_dump_formats(const struct nicfit_dump *d);

/*
 * After nicfit_audit_judge() on the model nicfit_dump_topo() built: add
 * the dump's own findings (nvidia-smi's GPU-NIC and PCIe GPU-GPU path
 * classes against the audit's, cell by cell: dump-topo-mismatch; dump-topo-agrees as a note when all
 * agree), say in every finding about a device from which file and line
 * its facts came, drop findings that rest on what the dump does not carry
 * (no driver bound, when lspci ran without -k), and put in not_checked
 * what the dump lacks, with why. Errors: NICFIT_E_NOMEM.
 */
int nicfit_dump_judge(const struct nicfit_dump *d, struct nicfit_audit *a,
		      struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
