/*
 * nicfit/audit.h - judge a host model: links, GPU-NIC paths, RDMA, GPUDirect.
 *
 * nicfit_audit_judge() is a pure function of a struct nicfit_topo (nicfit/
 * topo.h), the catalog and options: it reads no files. It decides, per
 * device, what the PCIe link negotiated against what both ends can do and
 * the narrowest link on the way to the CPU (naming the bridge that limits
 * it); per network card, whether PCIe can feed its ports (nicfit_calc_nic);
 * per GPU-NIC pair, the path class PIX, PXB, PHB, NODE or SYS as
 * `nvidia-smi topo -m` prints it (docs/reference/topology.md 2) and whether
 * NCCL would use GPUDirect RDMA by default (topology.md 1.5); per RDMA
 * port, state, rate, link layer and RoCE v2 GIDs. Every problem becomes a
 * finding (nicfit/finding.h) with a severity, a registered code, the
 * device, a message with the numbers and a fix; what sysfs cannot show (or
 * only root can read) is listed in not_checked with the reason.
 *
 * The result: nicfit_audit_judge() allocates a struct nicfit_audit and
 * everything it holds; nicfit_audit_free() frees it all. It points into
 * the topo it judged (a->topo, device indices, names) and into the catalog
 * (cat_nic): keep both alive, and the catalog unchanged (no overlay),
 * until nicfit_audit_free(). nicfit_audit_check_plan() and
 * nicfit_audit_name_from_pciids() add to the same result.
 *
 *	struct nicfit_audit *a;
 *
 *	if (nicfit_audit_judge(topo, cat, NULL, &a, &err))
 *		return err.code;
 *	...a->findings.v[i], nicfit_findings_count(&a->findings, NICFIT_SEV_WARNING)...
 *	nicfit_audit_free(a);
 *
 * The renderers print the result as text (an inventory, a matrix like
 * nvidia-smi topo -m, the findings), JSON ("nicfit.audit.v1", see
 * docs/json-audit.md), Markdown, CSV, or an SVG picture of the host.
 */
#ifndef NICFIT_AUDIT_H
#define NICFIT_AUDIT_H

#include "nicfit/catalog.h"
#include "nicfit/finding.h"
#include "nicfit/host.h"
#include "nicfit/pcie.h"
#include "nicfit/topo.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nicfit_emit;
struct nicfit_plan;
struct nicfit_spec;
struct nicfit_verify_expect;

/* A check the audit could not make, and why (both static text). */
struct nicfit_not_checked {
	const char *check;       /* "acs", "pfc_ecn", ... */
	const char *why;
};

/* The PCIe picture of one device. Rates are Gb/s per direction; < 0 unknown. */
struct nicfit_audit_link {
	int known;               /* the device has link figures at all */
	double cur_gts, max_gts; /* the device's own files (0 unknown) */
	int cur_width, max_width;
	double path_gbps;        /* effective rate of the narrowest link, as negotiated */
	double path_raw_gbps;    /* the same before packet overhead */
	double path_max_gbps;    /* narrowest link if every link ran at what both ends can */
	double own_max_gbps;     /* the device's own capability */
	int limit_pci;           /* topo index of the port above the limiting link, -1 none */
	int limit_gen, limit_width; /* that link, as it limits (negotiated or capable) */
	int idle;                /* a GPU downclocked: re-check under load */
	int nominal;             /* chipset-integrated: judged by the bridge uplink */
	int hops;                /* links on the path */
};

/* struct nicfit_audit_dev.ports_unknown */
#define NICFIT_PORTS_STATE_UNKNOWN 1
#define NICFIT_PORTS_RATE_UNKNOWN 2

struct nicfit_audit_dev {
	int pci;                 /* topo index */
	enum nicfit_dev_kind kind;
	char label[24];          /* "GPU0", "mlx5_0", "eno1" */
	char name[192];
	const char *name_source; /* "built-in", "catalog", "vpd", "pci.ids", "class" */
	char part[48];           /* ordering part number, "" unknown */
	const char *part_source; /* "vpd", "psid", "pci-subsystem" */
	const struct nicfit_nic *cat_nic;
	int numa;                /* -1 unknown */
	int socket;              /* -1 unknown */
	struct nicfit_audit_link link;
	int vfs;                 /* virtual functions under this PF */
	/* network cards (set on the card's first function) */
	int card_lead;
	int card_functions;
	int card_ports;
	double port_gbps;        /* nominal rate of one port */
	int port_gbps_is_family_max;
	int ports_up;
	double ports_now_gbps;   /* sum of negotiated rates of ports with link */
	int ports_unknown;       /* NICFIT_PORTS_STATE_UNKNOWN: a port's state (or a
				  * function's ports) could not be read; NICFIT_PORTS_RATE_UNKNOWN:
				  * a port with link has no rate. ports_up and ports_now_gbps
				  * count only what was */
	double demand_gbps;      /* goodput all ports could carry */
	double supply_gbps;      /* PCIe effective rate of the path */
	const char *card_limited_by; /* "pcie", "ports", NULL unknown */
	int rdma;                /* has an RDMA device */
	int rdma_unknown;        /* whether it has one is unknown: a card that can do RDMA,
				  * its driver bound, in a tree with neither sys/module nor
				  * sys/class/infiniband (rdma 0, "rdma": null in JSON) */
	/* GPUs */
	int best_nic;            /* index into devs of the nearest (RDMA) NIC, -1 none */
	enum nicfit_path best_path;
};

struct nicfit_audit_pair {
	int gpu, nic;            /* indices into devs */
	enum nicfit_path path;
	int locality_known;      /* 0 when NUMA locality is unknown (NODE assumed) */
	int gdr_default;         /* 1 yes, 0 no, -1 unknown (the kernel's support is unknown) */
	const char *gdr_reason;  /* "ok", "distance", "no-rdma", "no-kernel-support",
				  * "kernel-support-unknown", "not-nvidia" */
	int lca_pci;             /* lowest common bridge, -1 when only the host joins them */
};

/* What a plan for this host recommends, next to what the host has. */
struct nicfit_audit_plan {
	int checked;             /* nicfit_audit_check_plan() ran */
	char workload[32];
	char verdict[512];       /* the plan's verdict */
	int backend_needed;
	char fabric[16];         /* "roce", "infiniband", "" */
	char backend_part[64];   /* the plan's back-end card */
	int backend_cards;
	double backend_gbps;     /* the plan's per-server back-end rate */
	double host_backend_gbps;/* this host's RDMA cards, as their paths allow */
	char host_fabric[16];    /* "roce", "infiniband", "both", "" */
	double frontend_gbps;    /* the plan's front-end port */
	double host_frontend_gbps; /* this host's fastest non-RDMA port */
	int gpus_near;           /* the plan's GPUs with a back-end card at PIX/PXB */
	int host_gpus_near;      /* this host's GPUs with an RDMA NIC at PIX/PXB */
	int host_nics_near;      /* this host's RDMA NICs at PIX/PXB to some GPU */
	int matches;             /* no plan-* finding above info; -1 none, but the plan wants
				  * a back end and the host's RDMA is unknown (nrdma_unknown) */
};

struct nicfit_audit_paste; /* audit/audit_paste.c's */

struct nicfit_audit {
	const struct nicfit_topo *topo;
	const struct nicfit_catalog *cat; /* as given to nicfit_audit_judge (may be NULL) */
	struct nicfit_pcie_params pcie; /* the assumptions behind every rate */
	struct nicfit_audit_dev *devs;
	int ndevs;
	int ngpus, naccels, nnics, nrdma_nics, nsockets;
	int nrdma_unknown;       /* cards without an RDMA device of which a function's
				  * rdma_unknown is set: how many of them have RDMA is
				  * unknown ("rdma_nics": null) */
	struct nicfit_audit_pair *pairs;
	int npairs;
	/*
	 * Worst first, in the order they were made within a severity. Every
	 * finding has a device (a BDF, an RDMA or interface name, or "host"),
	 * a fix and a source; those matching --ignore are marked ignored.
	 * nicfit_findings_count() gives the verdict's counts.
	 */
	struct nicfit_findings findings;
	struct nicfit_not_checked *not_checked; /* each check once */
	size_t nnot_checked, not_checked_alloc;
	int gdr_kernel;          /* 1: nv_mem, nv_mem_nc or nvidia_peermem present; 0: none,
				  * with sys/module read; -1: unknown (no sys/module) */
	int all;                 /* devs holds every PCI function */
	struct nicfit_audit_plan plan;
	const char *const *ignore; /* the --ignore patterns (not owned) */
	int nignore;
	int from_dump;           /* judged from pasted text (nicfit_dump_judge): the verdict
				  * says what was not checked instead of "clean" */
	int nothing_to_judge;    /* a dump held nothing the checks apply to: exit 3 */
	struct nicfit_audit_paste *paste; /* a dump's facts outside the PCI model (nvidia-smi
					   * topo -m's matrix as printed, RDMA devices no
					   * PCI function carries); NULL none. Rendered as
					   * "matrix" and "rdma_devices" */
};

struct nicfit_audit_opts {
	const char *const *ignore; /* CODE or CODE@DEVICE to leave out of the verdict: codes
				    * audit raises (nicfit_audit_judge checks) */
	int nignore;
	int all;                   /* list every PCI function, not only GPUs and NICs */
	const struct nicfit_pcie_params *pcie; /* NULL: defaults */
	int pci_ids;               /* name what the built-in table and catalog miss from
				    * pci.ids before judging, so findings name devices as
				    * the device table does */
	const char *pci_ids_path;  /* with pci_ids: NULL for the usual places (none is
				    * fine); a file given that cannot be read is an error */
};

/*
 * Judge topo into a new *out. cat may be NULL (cards are then named from
 * the built-in table only). Errors: NICFIT_E_USAGE (an --ignore pattern
 * whose code audit does not raise; the error names "--ignore" and the
 * nearest code), NICFIT_E_NOMEM, and those of nicfit_audit_name_from_pciids
 * when opts->pci_ids_path names a file that cannot be read.
 */
int nicfit_audit_judge(const struct nicfit_topo *topo, const struct nicfit_catalog *cat,
		       const struct nicfit_audit_opts *opts, struct nicfit_audit **out,
		       struct nicfit_error *err);
void nicfit_audit_free(struct nicfit_audit *a);

/*
 * 0 no problem found (info only), 1 warnings, 2 critical findings (ignored
 * ones left out), 3 nothing to judge (a dump read but holding nothing the
 * checks apply to, and no finding).
 */
int nicfit_audit_exit_code(const struct nicfit_audit *a);

/*
 * Fill names of devices the built-in table and catalog did not name from
 * pci.ids (path NULL: the usual places). The only part that reads a file.
 * Returns 0 or the error of nicfit_pciids_lookup (names stay generic).
 */
int nicfit_audit_name_from_pciids(struct nicfit_audit *a, const char *path,
				  struct nicfit_error *err);

/* Render in the emitter's format (TEXT, JSON, MD, CSV or SVG). */
int nicfit_audit_render(const struct nicfit_audit *a, struct nicfit_emit *e);

/*
 * Compare the host with a plan made for it (the plan's server being this
 * host, see nicfit_audit_host_catalog_json): a back end the workload needs
 * and the host lacks, or one slower than planned, a different fabric, a
 * slower front end. Adds plan-* findings (counted like the others) and
 * fills a->plan. Errors: NICFIT_E_NOMEM.
 */
int nicfit_audit_check_plan(struct nicfit_audit *a, const struct nicfit_plan *p,
			    struct nicfit_error *err);

/* ---- the host as a server description, for planning ----------------------- */

struct nicfit_host_gpu {
	char bdf[16];
	const char *catalog_id;  /* catalog GPU id when known, else NULL */
	char name[192];
	int slot;                /* index into server.slots, -1 */
	int socket;
};

struct nicfit_host_nic {
	char bdf[16];
	char part[48];           /* "" unknown */
	const struct nicfit_nic *cat_nic;
	char name[192];
	int ports;
	double port_gbps;
	unsigned rdma;           /* NICFIT_RDMA_* from the ports seen and the card */
	int slot;                /* index into server.slots, -1 (onboard/unknown) */
	int socket;
};

#define NICFIT_HOST_MAX 64

/*
 * What planning needs to treat this host as the server: a struct
 * nicfit_server (slots with generation, width, socket and what occupies
 * them; onboard NICs that sit in no slot) plus the GPUs and NICs present.
 * Strings point into the audit (or its topo) and the catalog.
 */
struct nicfit_host_server {
	struct nicfit_server server;
	char id[64];             /* "host:<hostname>" */
	char name[256];
	char slot_names[NICFIT_MAX_SLOTS][32];
	char switch_names[NICFIT_MAX_PCIE_SWITCHES][16]; /* the top upstream port's BDF */
	char onboard_names[8][64];
	int slot_occupant[NICFIT_MAX_SLOTS]; /* devs index in the slot, -1 empty */
	struct nicfit_host_gpu gpus[NICFIT_HOST_MAX];
	int ngpus;
	struct nicfit_host_nic nics[NICFIT_HOST_MAX];
	int nnics;
};

/*
 * Describe the audited host. Slots come from /sys/bus/pci/slots when the
 * firmware lists them, else from the root and downstream ports that hold a
 * GPU or NIC. Never fails; fields stay empty where sysfs says nothing.
 */
void nicfit_audit_host_server(const struct nicfit_audit *a, struct nicfit_host_server *out);

/*
 * The same as a catalog overlay document (schema nicfit.catalog.v1, one
 * server entry with id `id`; NULL or "": "host-" and the host name in the
 * id alphabet), so that planning can use the host like any catalog
 * server: nicfit_catalog_overlay(cat, "host", text, ...), or `audit
 * --format catalog` then `plan --server FILE.json`. Returns
 * malloc'd text or NULL when out of memory. An overlay moves the
 * catalog's entries, and the audit points at them: run the audit again
 * (or at least do not read its cards' catalog entries) after overlaying.
 */
char *nicfit_audit_host_catalog_json(const struct nicfit_audit *a, const char *id);

/*
 * The host as the server of a plan (`plan --from-host`, `audit --plan`):
 * add the audited host to cat as catalog server "this-host" and make it
 * the plan's server unless spec names one; also the host's GPU model and
 * count when spec gives none and the catalog knows the GPU, and the
 * RDMA and front-end cards it already has, in their slots. Errors:
 * NICFIT_E_DATA for a virtual machine when spec names no server (its
 * slots are the hypervisor's; the error names the host's root), those of
 * nicfit_catalog_overlay and nicfit_spec_add, NICFIT_E_NOMEM. The overlay
 * moves the catalog's entries: a's card entries are stale after it.
 */
int nicfit_audit_host_into_spec(struct nicfit_catalog *cat, const struct nicfit_audit *a,
				struct nicfit_spec *spec, struct nicfit_error *err);

/*
 * Open the host req names (nicfit_host_open), audit it with the default
 * options and fill spec from it (nicfit_audit_host_into_spec); the host is
 * closed again. What `plan --from-host` and a server's plan of its own
 * host call. Errors: those of the two calls and of nicfit_audit_judge.
 */
int nicfit_audit_spec_from_host(struct nicfit_catalog *cat, const struct nicfit_host_request *req,
				struct nicfit_spec *spec, struct nicfit_error *err);

/*
 * The expectation of `verify --sysfs ROOT` or `verify --dump PATH...`:
 * open the host req names, audit it, and fill x from its back end: the
 * rails (a rail per active port of the RDMA cards at the fastest port
 * rate), their rate (an InfiniBand rate by name), the GPUs per node, the
 * narrowest PCIe share of a rail, the worst GPU-to-nearest-NIC path and
 * the GPUs without GPUDirect RDMA by default. Fields x already holds
 * (nics_per_node, gpus_per_node, proto) are kept; x->source says which
 * source it was. Errors: those of nicfit_host_open and nicfit_audit_judge;
 * NICFIT_E_DATA when the host has no RDMA NIC (the message names the
 * source as its option, "--sysfs ROOT", "--dump PATH").
 */
int nicfit_audit_verify_expect(const struct nicfit_catalog *cat,
			       const struct nicfit_host_request *req,
			       struct nicfit_verify_expect *x, struct nicfit_error *err);

/* ---- an audit request, from its sources to the document ------------------- */

/* What `nicfit audit` is asked; the strings are the caller's. */
struct nicfit_audit_request {
	struct nicfit_host_request host; /* where the host is read from */
	const char *plan_spec;   /* a plan spec (plan's JSON) to judge the host against, or
				  * NULL; "-" standard input */
	const char *expect;      /* audits (a nicfit.audit.v1 file or a directory of them)
				  * the host should match (nicfit_audit_expect_fleet), or NULL */
	struct nicfit_audit_opts opts; /* ignores, --all, PCIe parameters, pci.ids */
};

/*
 * Judge an open host as req asks into a new *out (NULL on error): the
 * audit, then the plan (the host joins cat as server "this-host", see
 * nicfit_audit_host_into_spec, and is judged again), the dump's own
 * findings when the host was read from dumps, and the fleet's
 * expectation. For callers that render in formats of their own (the
 * CLI's Prometheus, NHC and NFD lines). cat is changed by a plan's
 * overlay. Errors: those of each step; on error nothing is left to free.
 */
int nicfit_audit_run_host(struct nicfit_catalog *cat, const struct nicfit_audit_request *req,
			  const struct nicfit_host *host, struct nicfit_audit **out,
			  struct nicfit_error *err);

/*
 * Request in, document out, as nicfit_plan_run: open the host
 * (nicfit_host_open), run the request (nicfit_audit_run_host), render the
 * audit into e, close the host. *status (may be NULL) gets
 * nicfit_audit_exit_code's 0, 1 or 2. Usable from a server: it keeps no
 * state, but cat is changed by --plan (give each request its own catalog
 * then) and the live host's sysfs is read (serialise concurrent audits).
 * Errors: those of the two calls, or of rendering.
 */
int nicfit_audit_run(struct nicfit_catalog *cat, const struct nicfit_audit_request *req,
		     struct nicfit_emit *e, int *status, struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
