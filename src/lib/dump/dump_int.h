/*
 * dump_int.h - what the dump reader's files share (not public).
 *
 * dump.c keeps the texts and walks them line by line, handing each line to
 * the parser whose format it has the shape of (dump_lspci.c: lspci -vvv
 * blocks and plain lspci lines; dump_tree.c: lspci -t; dump_smi.c:
 * nvidia-smi topo -m and the GPU bus-id listings; dump_rdma.c: ibv_devinfo
 * and ibdev2netdev; dump_mlxfw.c: mlxfwmanager, flint q, mst status and
 * mlxlink; dump_cpu.c: numactl -H, lscpu and /proc/cpuinfo;
 * dump_dmesg.c: kernel log lines; dump_net.c: ibstat, show_gids, ip link,
 * ethtool -i, uname -a), with the helpers they share in dump_text.c. The
 * parsers fill the records of dump_facts.h; dump_build.c turns them into a struct
 * nicfit_topo, and the audit (audit/audit_dump.c) judges the records and
 * that model. dump_path.c reads files, directories, standard input and
 * archives into texts.
 */
#ifndef NICFIT_DUMP_INT_H
#define NICFIT_DUMP_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "dump_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include "core/dump_facts.h"

/* ---- dump_text.c: records and text ------------------------------------ */

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
/*
 * A GUID as ibv_devinfo ("b83f:d203:00aa:0010") or ibstat ("0xb83fd20300aa0010")
 * prints it, into 16 lower-case hex digits; -1 for anything else or all zeros
 * (a virtual function's sys_image_guid), out then undefined.
 */
int nicfit__dump_guid(const char *s, char out[17]);
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
/* Read an ACSCtl: line (s, blanks skipped) that no lspci header precedes, as a grep prints it. */
void nicfit__dump_acs_orphan(struct nicfit_dump *d, const char *s, struct dump_at at);
/* A line of setpci -v on a function's ACS capability ("BDF (ecap 000d @2a0) @2a6 0000"); 1 when it was one. */
int nicfit__dump_acs_setpci(struct nicfit_dump *d, const char *line, struct dump_at at);
/* The vendor ID of an lspci name ("NVIDIA Corporation ..."), 0 unknown; *len its vendor part. */
unsigned nicfit__dump_vendor_of_name(const char *name, size_t *len);
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
/*
 * The text ends in the matrix, at line last: a GPU row there may be cut
 * inside its last cell, so its affinity is unknown (its cells are kept).
 */
void nicfit__dump_smi_cut(struct nicfit_dump *d, struct dump_at last);
/* A row of a matrix pasted without its header row; 0 when line is none. */
int nicfit__dump_smi_bare_row(struct nicfit_dump *d, const char *line, struct dump_at at);
/* Split a headerless matrix's rows into GPU and NIC columns (at the end of its text). */
void nicfit__dump_smi_finish(struct nicfit_dump *d);
/* A GPU bus-id line of nvidia-smi, -q or --query-gpu; 1 when it was one. */
int nicfit__dump_smi_gpu_line(struct nicfit_dump *d, const char *line, struct dump_at at,
			      int *q_index);

/* ---- dump_rdma.c --------------------------------------------------------- */

/* The record of an RDMA device, made when new; NULL when out of room or memory. */
struct dump_rdma *nicfit__dump_rdma_of(struct nicfit_dump *d, const char *name, size_t n);
/* Record once, at the line that named it, that r's name was cut to fit (name_cut 1 -> 2). */
void nicfit__dump_name_cut(struct nicfit_dump *d, struct dump_rdma *r, struct dump_at at);
/* Port num of a record, added (state unknown) when new; NULL past NICFIT_TOPO_MAX_PORTS. */
struct dump_rport *nicfit__dump_rport(struct dump_rdma *r, int num);
/* "hca_id:\tmlx5_0" opens a block of ibv_devinfo; its indented lines follow. */
void nicfit__dump_ibv_start(struct nicfit_dump *d, const char *line, struct dump_at at);
void nicfit__dump_ibv_line(struct nicfit_dump *d, const char *line, struct dump_at at);
/*
 * An indented "port:   1" line outside any hca_id: block (s, blanks
 * skipped) opens a block of a device the paste does not name; 1 when it did.
 */
int nicfit__dump_ibv_orphan(struct nicfit_dump *d, const char *s, struct dump_at at);
/* "Infiniband device 'mlx5_0' port 1 status:" of ibstatus; 1 when it was one. */
int nicfit__dump_ibstatus_start(struct nicfit_dump *d, const char *line, struct dump_at at);
/* "link mlx5_0/1 ... state ACTIVE physical_state LINK_UP" of `rdma link`; 1 when it was one. */
int nicfit__dump_rdmatool_line(struct nicfit_dump *d, const char *line, struct dump_at at);
/* A row of MFT's `mst status -v`; 1 when it was one. */
int nicfit__dump_mst_line(struct nicfit_dump *d, const char *line, struct dump_at at);
/* A line of ibdev2netdev (-v); 1 when it was one. */
int nicfit__dump_ibdev_line(struct nicfit_dump *d, const char *line, struct dump_at at);
/* A record's firmware, board id and ports into the model's device. */
void nicfit__dump_rdma_ports(const struct dump_rdma *r, struct nicfit_rdmadev *out);

/* ---- dump_iblink.c ------------------------------------------------------ */

/*
 * A line of iblinkinfo: a node header ("Switch: 0xGUID DESC:", "CA: DESC:")
 * or a port's line ("... ==( 4X 25.78125 Gbps Active/  LinkUp)==> ...").
 * 1 when it was one; any other line closes the open header.
 */
int nicfit__dump_iblink_line(struct nicfit_dump *d, const char *line, struct dump_at at);

/* ---- dump_mlxfw.c ------------------------------------------------------- */

/*
 * A line of mlxfwmanager --query (mlxup), flint/mstflint q, mst status or
 * mlxlink; 1 when it was one. A prompt line's "flint -d DEV q" is noted for the
 * block below it (0: the line is left to the other parsers).
 */
int nicfit__dump_fw_line(struct nicfit_dump *d, const char *line, struct dump_at at);
/* The end of a text: no block stays open. */
void nicfit__dump_fw_end(struct nicfit_dump *d);
/* An mst device and its function (bdf "" when not yet read), kept or updated. */
void nicfit__dump_mst_add(struct nicfit_dump *d, const char *path, const char *bdf,
			  struct dump_at at);
/* The function `mst status` gives an mst device (by its last path part), or NULL. */
const char *nicfit__dump_mst_bdf(const struct nicfit_dump *d, const char *path);
/* Each adapter's function (struct dump_fwdev's bdf), once the functions are read and sorted. */
void nicfit__dump_fw_resolve(struct nicfit_dump *d);

/* ---- dump_cpu.c --------------------------------------------------------- */

/* A line of numactl -H, lscpu (-e, -p) or /proc/cpuinfo; 1 when it was one. */
int nicfit__dump_cpu_line(struct nicfit_dump *d, const char *line, struct dump_at at);
/* A blank line or a new text: the open table ends. */
void nicfit__dump_cpu_break(struct nicfit_dump *d);

/* ---- dump_dmesg.c ------------------------------------------------------- */

/* A kernel log line: PCIe bandwidth limited, or a module error; 1 when it was one. */
int nicfit__dump_kmsg_line(struct nicfit_dump *d, const char *line, struct dump_at at);

/* ---- dump_xml.c ---------------------------------------------------------- */
/*
 * hwloc and NCCL topology XML: when a line opens a document, the walk hands
 * dump_xml.c the text from there; libxml2 reads the document whole and its
 * elements become the records above (functions, NUMA nodes, RDMA devices,
 * GPU indices) and the interfaces below, each at its element's line.
 */

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
/*
 * A line no parser took: a prompt's "ethtool -i IF" names the next block;
 * an NCCL_IB_GID_INDEX setting is kept (d->gid_env).
 */
void nicfit__dump_net_hint(struct nicfit_dump *d, const char *line, struct dump_at at);
/* ip -j link at the start of a line: bytes taken (0 none); *lines set to the lines they span. */
size_t nicfit__dump_net_json(struct nicfit_dump *d, const char *s, size_t len, struct dump_at at,
			     int *lines);
/* ethtool -i's drivers into the records of their functions (before the build). */
void nicfit__dump_net_fns(struct nicfit_dump *d);
/* The interfaces, kernel and host name into the model. Errors: NICFIT_E_NOMEM. */
int nicfit__dump_net_build(const struct nicfit_dump *d, struct nicfit_topo *t);

/* ---- dump_build.c -------------------------------------------------------- */

int nicfit__dump_build(struct nicfit_dump *d, struct nicfit_topo **out,
		       struct nicfit_error *err);

#endif
