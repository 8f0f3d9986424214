/*
 * audit_int.h - what the audit's source files share (not public).
 *
 * nicfit_audit_judge() (audit.c) runs the passes in order over one
 * judging context: choose and name the devices (audit_dev.c); the PCIe
 * path of each and its config space (audit_link.c); what each network
 * card needs against what its path gives (audit_card.c); RDMA ports
 * (audit_rdma.c); GPU-NIC pairs, GPUDirect, ACS and the IOMMU
 * (audit_gpu.c); host-wide checks and what could not be checked
 * (audit_checks.c). Every pass raises findings and notes through
 * audit_ctx.c, which also holds the look-ups in the model they all use.
 * The files depend on each other in that order only: a pass uses
 * audit_ctx.c and the passes before it, never one after it.
 *
 * audit_plan.c compares the result with a plan, audit_render.c and
 * audit_svg.c print it, audit_host.c describes the host for planning;
 * audit_prom.c, audit_nhc.c and audit_nfd.c write it for Prometheus, NHC
 * and Node Feature Discovery (nicfit/ops.h).
 */
#ifndef NICFIT_AUDIT_INT_H
#define NICFIT_AUDIT_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "audit_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include "core/finding_int.h"
#include "nicfit/audit.h"
#include "nicfit/emit.h"

/* A JSON string member, or null when v is NULL or empty (unknown, never ""). */
static inline void nicfit__audit_str_or_null(struct nicfit_emit *e, const char *key, const char *v)
{
	if (v && *v)
		nicfit_emit_string(e, key, v);
	else
		nicfit_emit_null(e, key);
}

/* A table cell: the text, or "-" when v is NULL or empty. */
static inline void nicfit__audit_cell(struct nicfit_emit *e, const char *v)
{
	if (v && *v)
		nicfit_emit_cell_string(e, v);
	else
		nicfit_emit_cell_null(e, "-");
}

/* Where the rules come from (the `source` of each finding). */
#define S_TOPO_GDR "docs/reference/topology.md 1.5 (NCCL ncclTopoCheckGdr)"
#define S_TOPO_TRAPS "docs/reference/topology.md 6"
#define S_TOPO_VM "docs/reference/topology.md 3.2"
#define S_PCIE "docs/reference/bandwidth.md 1 (PCIe model, nicfit calc pcie)"
#define S_ROCE_MTU "docs/reference/bandwidth.md 2.3 (RoCE v2 headers)"
#define S_NIC_PCIE "docs/reference/anchors.md 5.1-5.2; NVIDIA/nccl#452"
#define S_NIC_TUNING "docs/reference/anchors.md 1.6 (NIC configuration operator)"
#define S_ROCE "docs/reference/anchors.md 5.6-5.7"
#define S_VPI "docs/reference/anchors.md 1.5, 5.9 (mlxconfig LINK_TYPE_P1)"
#define S_GDR_KERNEL "docs/reference/topology.md 1.1 (NCCL net_ib/gdr.cc)"
#define S_GDR_AMD "RCCL src/transport/net_ib.cc (memory_peers/amdkfd); ROCm install guide (amdgpu-dkms)"
#define S_ACS "docs/reference/anchors.md 5.4"
#define S_SEED "docs/reference/seed-article.md; docs/rules.md"
#define S_X710 "docs/reference/nic-identity.md 2.3; docs/reference/anchors.md 5.8"
#define S_IDS "docs/reference/nic-identity.md 3"

/* PCI vendor IDs the rules ask about. */
#define PCI_VENDOR_NVIDIA 0x10de
#define PCI_VENDOR_AMD_GPU 0x1002

/*
 * An AMD Instinct data-center GPU, the kind RCCL runs on: AMD/ATI's vendor
 * ID with the class of a compute part, "Processing accelerators" (0x12,
 * MI300X and later) or "Display controller" (0x0380, MI200); a Radeon
 * display card (VGA, 0x0300) is not one.
 */
static inline int nicfit__audit_amd_instinct(const struct nicfit_pcidev *p)
{
	return p->vendor == PCI_VENDOR_AMD_GPU &&
	       ((p->class_code >> 8) == 0x0380 || (p->class_code >> 16) == 0x12);
}

/* IB port states as sysfs numbers them (ports/N/state: "4: ACTIVE"). */
#define IB_PORT_DOWN 1
#define IB_PORT_INIT 2
#define IB_PORT_ACTIVE 4

/*
 * Two rates within RATE_SLACK_GBPS are the same rate. Rates are computed
 * along different routes (the device's own link, a bridge's, the card
 * model) and printed as whole Gb/s, so a difference below a hundredth of
 * a Gb/s is rounding, not a narrower link.
 */
#define RATE_SLACK_GBPS 0.01

/* The state of one judgement, shared by every pass. */
struct nicfit__audit_ctx {
	struct nicfit_audit *a;
	const struct nicfit_topo *t;
	const struct nicfit_catalog *cat;
	const struct nicfit_audit_opts *o;
	int *dev_of;      /* topo index -> devs index, -1 */
	const int *card_fns; /* topo index -> physical functions of its card with its IDs
			      * (audit_dev.c, while devices are chosen) */
	int oom;          /* an allocation failed (besides the findings list's own) */
	char *seen_link;  /* per topo index: 1 link reported (audit_link.c), 2|4 ACS (audit_gpu.c) */
	int rdma_unknown; /* an RDMA-capable card's RDMA driver may or may not be loaded: the
			   * tree has neither sys/module nor sys/class/infiniband (audit_card.c) */
	int drivers_unknown; /* a GPU or NIC shows no driver in a tree that cannot show drivers
			      * (topo->drivers_listed 0): no-driver findings left out */
};

/* The topo function at index i. */
#define P(c, i) (&(c)->t->pci[(i)])

/* ---- audit_ctx.c: raising findings, look-ups in the model ---------------- */

/*
 * Raise a finding: device NULL is "host", fix may be NULL (a fix built
 * from a format is set with nicfit__finding_fix on the record returned).
 * Returns the record, or NULL when memory ran out: the findings list
 * remembers that (oom), and the judgement reports it at the end.
 */
struct nicfit_finding *nicfit__audit_find(struct nicfit__audit_ctx *c,
					  enum nicfit_severity sev, enum nicfit__code code,
					  const char *device, const char *source, const char *fix,
					  const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* Note a check that could not be made (once per check; static text). */
void nicfit__audit_not_checked(struct nicfit__audit_ctx *c, const char *check,
			       const char *why);
/* A read problem in words: a dump line's own text, else the sysfs status's (audit_checks.c). */
const char *nicfit__audit_problem_text(const struct nicfit_problem *p);
/* The RDMA device of a function, or -1. */
int nicfit__audit_rdma_of(const struct nicfit__audit_ctx *c, int pci);
/* 1 when function pci shows no driver and the tree cannot show drivers (audit_ctx.c) */
int nicfit__audit_driver_unknown(const struct nicfit__audit_ctx *c, int pci);
/* 1 when whether function pci has an RDMA device cannot be told (audit_card.c) */
int nicfit__audit_rdma_unknown(const struct nicfit__audit_ctx *c, int pci);
/* "N RDMA", "RDMA unknown" or "N RDMA, M unknown": the header's count of RDMA cards */
const char *nicfit__audit_rdma_count(const struct nicfit_audit *a, char *buf, size_t n);
/* The first non-virtual network interface of a function, or -1. */
int nicfit__audit_first_netdev(const struct nicfit__audit_ctx *c, int pci);
/*
 * Whether an interface is known to have no link: carrier 0, or, where the
 * carrier cannot be read, operstate "down" or "lowerlayerdown".
 */
int nicfit__audit_known_no_link(const struct nicfit_netdev *nd);
/* 1 when two functions are on one card (same domain, bus and device). */
int nicfit__audit_same_card(const struct nicfit_pcidev *a, const struct nicfit_pcidev *b);

/* ---- audit_dev.c: the devices judged ---------------------------------- */

/* Fill a->devs (chosen, in PCI order, labelled and named) and c->dev_of. */
int nicfit__audit_choose_devices(struct nicfit__audit_ctx *c);
/*
 * A BDF as lspci prints it: without the domain when that is 0000
 * ("17:00.0"), whole otherwise ("0001:17:00.0", a VMD's "10000:01:00.0").
 */
const char *nicfit__audit_short_bdf(const char *bdf);

/* ---- audit_link.c: PCIe links ------------------------------------------ */

/* Effective (and raw) rate of a link in Gb/s; -1 when unknown. */
double nicfit__audit_rate(const struct nicfit__audit_ctx *c, double gts, int width,
			  double *raw);
/* "Gen3 x16", "Gen3", "x8" or "unknown" into buf. */
const char *nicfit__audit_genw(char *buf, size_t n, double gts, int width);
/*
 * The free slots on socket s whose bridge can run at least min_gbps of raw
 * PCIe (0: every free slot), as "5 (Gen3 x8), 7 (Gen3 x8)"; "" when none.
 */
void nicfit__audit_free_slots(const struct nicfit__audit_ctx *c, int s, double min_gbps,
			      char *out, size_t n);
/* A device's PCIe path and the findings about its links. */
void nicfit__audit_judge_link(struct nicfit__audit_ctx *c, struct nicfit_audit_dev *d);
/* A bridge's link figures, without judging them (audit_link.c). */
void nicfit__audit_measure_link(struct nicfit__audit_ctx *c, struct nicfit_audit_dev *d);
/* MaxPayload and MaxReadReq of network cards (root only). */
void nicfit__audit_judge_config(struct nicfit__audit_ctx *c);

/* ---- audit_card.c: network cards --------------------------------------- */

/* The card whose first function is devs[di]: its ports against its path. */
void nicfit__audit_judge_card(struct nicfit__audit_ctx *c, int di);
/* Ports of a NIC function running below the card's rate. */
void nicfit__audit_judge_port_speed(struct nicfit__audit_ctx *c,
				    const struct nicfit_audit_dev *d);

/* ---- audit_rdma.c: RDMA ports ------------------------------------------ */

void nicfit__audit_judge_rdma(struct nicfit__audit_ctx *c);

/* ---- audit_gpu.c: GPU-NIC pairs and GPUDirect -------------------------- */

/* Fill a->pairs and each GPU's nearest NIC. */
void nicfit__audit_pairs(struct nicfit__audit_ctx *c);
void nicfit__audit_judge_gpus(struct nicfit__audit_ctx *c);
void nicfit__audit_judge_gdr(struct nicfit__audit_ctx *c);
void nicfit__audit_judge_acs(struct nicfit__audit_ctx *c);
void nicfit__audit_judge_iommu(struct nicfit__audit_ctx *c);

/* ---- audit_checks.c: host-wide ----------------------------------------- */

void nicfit__audit_judge_host(struct nicfit__audit_ctx *c);

/* ---- audit.c: the result ----------------------------------------------- */

/*
 * After findings were added: mark those an --ignore pattern matches and
 * sort the list, worst first (stable). Returns 0 or NICFIT_E_NOMEM (the
 * list ran out of memory while it was filled).
 */
int nicfit__audit_settle(struct nicfit_audit *a);

/*
 * audit_paste.c: judge what a dump shows outside the PCI model (a topo -m
 * matrix with no lspci listing, RDMA devices no function carries, ACSCtl
 * lines without addresses), note what it cannot support, and set
 * a->from_dump and a->nothing_to_judge. 0 or NICFIT_E_NOMEM.
 */
struct nicfit_dump;
int nicfit__audit_paste(const struct nicfit_dump *d, struct nicfit_audit *a);
/* The paste's facts outside the PCI model: JSON "matrix" and "rdma_devices"; text tables. */
struct nicfit_emit;
void nicfit__audit_paste_json(const struct nicfit_audit *a, struct nicfit_emit *e);
void nicfit__audit_paste_text(const struct nicfit_audit *a, struct nicfit_emit *e);
void nicfit__audit_paste_columns(struct nicfit_emit *e);
/* With no device of the model: "8 GPUs, 4 NICs in nvidia-smi topo -m" into out; 0 none. */
int nicfit__audit_paste_counts(const struct nicfit_audit *a, char *out, size_t n);
void nicfit__audit_paste_free(struct nicfit_audit_paste *p);
/* A buffer that lives as long as a (for a not_checked reason worded at run time); NULL none. */
char *nicfit__audit_paste_text_buf(struct nicfit_audit *a, size_t *n);
/*
 * How RDMA device name was tied to its PCI function: "sysfs" (a live host
 * or snapshot), "ibdev2netdev", "ethtool", "sys_image_guid" or "name_order"
 * (a guess). NULL for a device of the dumps tied to none.
 */
const char *nicfit__audit_paste_join(const struct nicfit_audit *a, const char *name);
/*
 * audit_ibdiag.c: iblinkinfo's links (trained down, without link, not
 * brought up by a subnet manager) and ports whose state changed between
 * two readings of a paste; *out the links kept for the renderers (NULL
 * none). Returns links and ports judged, -1 out of memory.
 */
struct nicfit_audit_ibdiag;
int nicfit__audit_ibdiag(const struct nicfit_dump *d, struct nicfit_audit *a,
			 struct nicfit_audit_ibdiag **out);
/* JSON "ib_links" (an empty array for none), the text table, its CSV columns. */
void nicfit__audit_ibdiag_json(const struct nicfit_audit_ibdiag *ib, struct nicfit_emit *e);
void nicfit__audit_ibdiag_text(const struct nicfit_audit_ibdiag *ib, struct nicfit_emit *e);
void nicfit__audit_ibdiag_columns(struct nicfit_emit *e);
void nicfit__audit_ibdiag_free(struct nicfit_audit_ibdiag *ib);
/* The iblinkinfo port lines kept (0 for none). */
size_t nicfit__audit_ibdiag_count(const struct nicfit_audit_ibdiag *ib);
/*
 * audit_mft.c: the adapters of mlxfwmanager and flint q, kept with the
 * RDMA devices of their Base GUID, and mlxlink's ports, judged
 * (nic-port-slow, link-ber-high, link-down-counted); *out what the
 * renderers show (NULL none). Returns ports judged, -1 out of memory.
 */
struct nicfit_audit_mft;
int nicfit__audit_mft(const struct nicfit_dump *d, struct nicfit_audit *a,
		      struct nicfit_audit_mft **out);
/* JSON "adapters" and "mlxlink_ports" (empty arrays for none), the text tables, CSV columns. */
void nicfit__audit_mft_json(const struct nicfit_audit_mft *m, struct nicfit_emit *e);
void nicfit__audit_mft_text(const struct nicfit_audit_mft *m, struct nicfit_emit *e);
void nicfit__audit_mft_columns(struct nicfit_emit *e);
/* "N mlxlink ports, N adapters in mlxfwmanager or flint" into out (", " first when sep); length. */
size_t nicfit__audit_mft_counts(const struct nicfit_audit_mft *m, char *out, size_t n, int sep);
void nicfit__audit_mft_free(struct nicfit_audit_mft *m);
/* How many findings --ignore matched (shown, not counted). */
size_t nicfit__audit_nignored(const struct nicfit_audit *a);

/* ---- audit_svg.c ------------------------------------------------------- */

/* The SVG picture of the host. */
int nicfit__audit_render_svg(const struct nicfit_audit *a, struct nicfit_emit *e);

#endif
