/*
 * nicfit/catalog.h - the parts nicfit plans with, and their sources.
 *
 * A catalog is the embedded default data (the JSON files in data/, see
 * docs/catalog.md) with any number of user overlays on top: an overlay
 * entry whose id exists replaces it field by field, a new id is added.
 * Every entry carries a source, the fields that are unverified, and a
 * price only when one is sourced. Look-ups ignore case; a failed look-up
 * suggests the nearest id.
 *
 * Kinds and entries
 * -----------------
 * Six kinds (enum nicfit_kind), each a typed view (struct nicfit_nic ...)
 * that starts with the struct nicfit_entry every entry has.
 *
 * Loading and checking
 * --------------------
 * nicfit_catalog_new() loads the embedded data; nicfit_catalog_overlay()
 * and _overlay_file() merge a user's document, all or nothing;
 * nicfit_catalog_check() reports every problem of a document without
 * loading it (`nicfit catalog check`).
 *
 * Look-ups
 * --------
 * nicfit_catalog_<kind>(cat, i) by index (in id order),
 * nicfit_catalog_find_<kind>(cat, id, what, err) by id or part number,
 * with "did you mean" in err, nicfit_catalog_find_nic_pci() by PCI ID,
 * nicfit_catalog_lookup() in any kind.
 *
 *	struct nicfit_catalog *cat;
 *	const struct nicfit_nic *nic;
 *
 *	if (nicfit_catalog_new(&cat, &err) ||
 *	    (user && nicfit_catalog_overlay_file(cat, user, &err)))
 *		return ...;                  (err: "mine.json:12:5: ...")
 *	nic = nicfit_catalog_find_nic(cat, "MCX653106A-HDAT", "--nic", &err);
 *	if (!nic)
 *		return ...;                  (err: "unknown nic ... did you mean")
 *	... nic->ports, nic->port_gbps, nic->e.source ...
 *	nicfit_catalog_free(cat);
 *
 * Shape: nicfit_catalog_new() and _new_empty() allocate the catalog,
 * nicfit_catalog_free() frees it. It owns every entry and string it
 * hands out; they stay valid until the next successful overlay (which
 * rebuilds the views) or nicfit_catalog_free(), whichever comes first; a
 * failed overlay changes nothing. nicfit_catalog_entry_json() returns a
 * new string the caller free()s. Nothing here prints.
 */
#ifndef NICFIT_CATALOG_H
#define NICFIT_CATALOG_H

#include <stddef.h>

#include "nicfit/error.h"
#include "nicfit/llm.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nicfit_kind {
	NICFIT_KIND_NIC,
	NICFIT_KIND_CABLE,
	NICFIT_KIND_SWITCH,
	NICFIT_KIND_SERVER,
	NICFIT_KIND_GPU,
	NICFIT_KIND_MODEL,
	NICFIT_KIND_COUNT
};

/* "nic", "cable", ... and the JSON array names "nics", "cables", ... */
const char *nicfit_kind_name(enum nicfit_kind k);
const char *nicfit_kind_plural(enum nicfit_kind k);
/* Parse "nic", "nics", "NIC" ...; returns 0 or NICFIT_E_USAGE. */
int nicfit_kind_parse(const char *s, enum nicfit_kind *out, struct nicfit_error *err);

#define NICFIT_MAX_LIST 16

/* What every entry has. */
struct nicfit_entry {
	const char *id;
	const char *name;
	const char *source;
	const char *unverified[NICFIT_MAX_LIST]; /* field names */
	int nunverified;
	const char *notes[NICFIT_MAX_LIST];
	int nnotes;
	int priced;                 /* price_usd present */
	double price_usd;
	const char *prices_as_of;   /* "2026-10-30" */
	const char *price_source;
	const char *origin;         /* file the entry (last) came from */
};

/* 1 when field (e.g. "pcie_gen") is listed as unverified. */
int nicfit_entry_unverified(const struct nicfit_entry *e, const char *field);

#define NICFIT_RDMA_ROCE 0x1u
#define NICFIT_RDMA_IB 0x2u
#define NICFIT_RDMA_IWARP 0x4u

#define NICFIT_ROLE_FRONTEND 0x1u
#define NICFIT_ROLE_BACKEND 0x2u
#define NICFIT_ROLE_STORAGE 0x4u

#define NICFIT_MAX_PORT_MODES 4

struct nicfit_nic {
	struct nicfit_entry e;
	const char *part, *vendor, *family, *protocol, *cage;
	const char *ib_rate;      /* NULL when the card has no InfiniBand */
	const char *form_factor, *bracket, *driver, *module_coding;
	int ports;
	double port_gbps;
	double speeds_gbps[NICFIT_MAX_LIST];
	int nspeeds;
	int pcie_gen, pcie_width, pcie_gen_min; /* gen_min 0 when not given */
	double card_gbps;         /* the most all ports move together, 0 = their sum */
	int socket_direct, vpi;
	unsigned rdma;            /* NICFIT_RDMA_* bits */
	unsigned roles;           /* NICFIT_ROLE_* bits */
	unsigned pci_vendor, pci_device;
	unsigned subsys[NICFIT_MAX_LIST][2];
	int nsubsys;
	const char *psids[NICFIT_MAX_LIST]; /* firmware PSIDs (board_id): "MT_0000000834" */
	int npsids;
	int lanes;                /* electrical lanes per port, 0 = from cage and rate */
	double lane_gbps;         /* signalling rate per lane, 0 = from cage and rate */
	/*
	 * A Socket Direct card: its PCIe links (the main card's and the
	 * auxiliary card's, one per CPU socket) and each link's lanes; 0 when
	 * not socket_direct.
	 */
	int sd_links, sd_width;
	/*
	 * Socket Direct is an option, not the card itself ("socket_direct_option"):
	 * a ConnectX-8 takes a second x16 link from the other socket through
	 * NVIDIA's PCIe auxiliary kit when its host asks for it (calc nic with
	 * two --slot values); sd_links and sd_width then describe that form.
	 */
	int sd_option;
	int supernic;             /* a SuperNIC (Spectrum-X: reorders per-packet routed RoCE) */
	unsigned gpudirect;       /* NICFIT_GDR_* bits: GPUDirect RDMA paths its vendor documents */
	const char *gpudirect_source; /* where they are documented, NULL when none is */
	int double_width;         /* a dual-slot card ("slot_width": "double") */
	/*
	 * The card's port modes ("port_modes"), where its ports cannot all run
	 * at port_gbps at once: port_modes[i] is {ports, gbps}, that many ports
	 * cabled at that rate each (Thor2: {2, 200} and {1, 400}); nport_modes
	 * 0 when every port runs at port_gbps. nicfit_nic_port_gbps() reads it.
	 */
	unsigned port_modes[NICFIT_MAX_PORT_MODES][2];
	int nport_modes;
};

/*
 * The rate each port of n runs at when `ports` of them are cabled: the
 * fastest of its port modes that takes that many ports, port_gbps for a
 * card without modes, 0 when no mode takes that many (more ports than
 * the card can run at once).
 */
double nicfit_nic_port_gbps(const struct nicfit_nic *n, int ports);

/* How a NIC registers GPU memory for GPUDirect RDMA, as its vendor documents it. */
#define NICFIT_GDR_DMABUF 0x1u  /* the Linux DMA-BUF interface */
#define NICFIT_GDR_PEERMEM 0x2u /* NVIDIA's nvidia-peermem kernel module (peer memory) */

enum nicfit_cable_type {
	NICFIT_CABLE_DAC,
	NICFIT_CABLE_AOC,
	NICFIT_CABLE_OPTIC,
	NICFIT_CABLE_BREAKOUT_DAC,
	NICFIT_CABLE_BREAKOUT_AOC,
	NICFIT_CABLE_RJ45
};
const char *nicfit_cable_type_name(enum nicfit_cable_type t);

struct nicfit_cable {
	struct nicfit_entry e;
	const char *part;         /* NULL for generic items */
	enum nicfit_cable_type type;
	double gbps;              /* rate of the fast end */
	const char *end_a, *end_b;
	int split;                /* legs at end_b */
	double lane_gbps;         /* rate of one leg */
	double length_m;          /* < 0 for optics */
	double max_length_m;
	const char *medium, *fiber, *standard, *coding;
	int lanes_a, lanes_b;     /* electrical lanes per end (end b: per leg), 0 = derived */
	double serdes_gbps_a, serdes_gbps_b; /* rate per lane at each end, 0 = derived */
	const char *top_a, *top_b; /* OSFP ends: "flat" or "finned", NULL = derived */
	const char *fabric;       /* "infiniband" or "ethernet" when sold for one only, else NULL */
};

struct nicfit_switch {
	struct nicfit_entry e;
	const char *vendor, *fabric, *cage, *form;
	int ports;
	double port_gbps;
	const char *breakout[NICFIT_MAX_LIST]; /* "4x25" */
	int nbreakout;
	int max_logical_ports;    /* 0 when not given */
	int lossless, subnet_manager;
	int ports_per_cage;       /* logical ports per cage (twin-port OSFP: 2), default 1 */
	int uplink_ports;         /* separate uplink group (0 = none; all ports alike) */
	double uplink_gbps;
	const char *uplink_cage;
	const char *uplink_breakout[NICFIT_MAX_LIST];
	int nuplink_breakout;
	int lanes_per_port;       /* electrical lanes of one logical port, 0 = derived */
	double lane_gbps;         /* native SerDes rate per lane, 0 = derived */
	double lane_rates[NICFIT_MAX_LIST]; /* lane rates the ports run; none = up to native */
	int nlane_rates;
	/*
	 * A scheduled (VOQ, cell) fabric: "leaf" for a packet switch whose
	 * uplink_ports are fabric links to cell switches, "fabric" for such a
	 * cell switch (no Ethernet host ports); NULL for a packet switch.
	 * fabric_switch: the cell switch a leaf's fabric links go to.
	 */
	const char *scheduled, *fabric_switch;
	/*
	 * A modular chassis (line cards in a frame, such as the Arista
	 * 7800R4): never picked automatically, only named (cluster --switch).
	 */
	int chassis;
};

#define NICFIT_MAX_SLOTS 32

/* NICFIT_GPU_BASEBOARD: a position on an SXM/OAM baseboard, for baseboard GPUs only. */
enum nicfit_gpu_fit { NICFIT_GPU_NONE, NICFIT_GPU_SINGLE, NICFIT_GPU_DOUBLE,
		      NICFIT_GPU_BASEBOARD };

/* What the vendor intends a slot for ("role"); ANY when it does not say. */
enum nicfit_slot_role { NICFIT_SLOT_ANY, NICFIT_SLOT_COMPUTE, NICFIT_SLOT_STORAGE,
			NICFIT_SLOT_FRONTEND, NICFIT_SLOT_GPU };

struct nicfit_slot {
	const char *name, *riser, *kind; /* kind: "pcie", "ocp3", "baseboard", ... */
	int gen, width, connector_width;
	int full_height, full_length;
	int socket;
	enum nicfit_gpu_fit gpu;
	enum nicfit_slot_role role;
	int pcie_switch;          /* index into the server's switches, -1 on a root port */
	const char *included;     /* catalog NIC id the server ships in this slot, or NULL */
	const char *shared_cage;  /* the chassis cage its port comes out at, shared by the slots
				   * that name it (a twin-port OSFP cage), or NULL: its own */
	const char *cage_top;     /* that cage's top, "flat" or "finned"; NULL without one */
	const char *holds;        /* what a host read by nicfit audit has in it now
				   * ("ConnectX-4 (0000:81:00.0)"), or NULL */
	int double_room;          /* a dual-slot card fits ("card_width" double, or gpu double) */
	unsigned configs;         /* bit i: the slot is there in riser configuration i of the
				   * server; 0: in every configuration ("configs" absent) */
};

/*
 * A PCIe switch of a server: its upstream port's socket and link, and
 * what that port hangs off: a CPU root port (upstream 0), or a downstream
 * port of another switch of the server, a cascade (upstream: 1 + that
 * switch's index in switches; 1-based so that a zeroed switch is on a
 * root port).
 */
struct nicfit_pcie_switch {
	const char *id;
	int socket, gen, width;
	int upstream;
};
#define NICFIT_MAX_PCIE_SWITCHES 32

/*
 * One riser configuration of a server whose slot map depends on the risers
 * ordered (Dell's R740xd configuration 4 or 6, an R750xa's GPU risers): the
 * slots that name it in "configs" are its slots, with those that name none.
 */
struct nicfit_riser_config {
	const char *id;           /* "4", "gpu" */
	const char *name;         /* what to order: "riser configuration 4 (risers 1A, 2A, 3A)" */
	int max_gpus_double, max_gpus_single; /* the vendor's limits, 0 when not given */
};
#define NICFIT_MAX_RISER_CONFIGS 8

struct nicfit_onboard {
	const char *name, *kind, *nic, *cage, *description;
	int ports;
	double port_gbps;
	int socket;               /* -1 when not given */
	unsigned rdma;
};

struct nicfit_server {
	struct nicfit_entry e;
	const char *vendor, *form, *cpu;
	int sockets, pcie_gen, generic;
	struct nicfit_slot slots[NICFIT_MAX_SLOTS];
	int nslots;
	struct nicfit_onboard onboard[8];
	int nonboard;
	const char *oob_name, *oob_cage;
	double oob_gbps;
	int max_gpus_double, max_gpus_single; /* 0 when not given */
	struct nicfit_pcie_switch switches[NICFIT_MAX_PCIE_SWITCHES];
	int nswitches;
	const char *baseboard_gpu; /* GPU id the baseboard carries, NULL for none */
	/*
	 * A rack-scale system (GB200/GB300 NVL72): the server is one compute
	 * tray and a rack holds rack_trays of them around one NVLink domain,
	 * with rack_switch_trays NVLink switch trays and rack_mgmt_switches
	 * management switches; rack_kw its power as the source gives it and
	 * rack_cooling "liquid" or "air". rack_trays is 0 for a plain server.
	 */
	int rack_trays, rack_switch_trays, rack_mgmt_switches;
	int rack_racks;           /* physical racks one such unit spans (GB200 NVL36x2: 2), 1 */
	/*
	 * The compute fabric of the reference design the rack is built to:
	 * the catalog switch it names (NULL: none; the plan's and cluster's
	 * choice then) and the racks of one scalable unit (0: none given),
	 * past which the design adds a third tier (docs/catalog.md "rack").
	 */
	const char *rack_fabric_switch;
	int rack_su_racks;
	/*
	 * What else stands in each physical rack, in units (0: not given):
	 * the height of one NVLink switch tray and of one management switch,
	 * and the power shelves and the height of one. Cluster counts them,
	 * with the trays, in the room a compute rack has left on top.
	 */
	int rack_switch_tray_u, rack_mgmt_switch_u, rack_power_shelves, rack_power_shelf_u;
	double rack_kw;
	const char *rack_cooling;
	struct nicfit_riser_config risers[NICFIT_MAX_RISER_CONFIGS];
	int nrisers;              /* 0: one slot map, whatever the risers */
};

struct nicfit_gpu {
	struct nicfit_entry e;
	const char *vendor, *memory_type;
	double memory_gib, mem_bw_gbs, tdp_w;
	int pcie_gen, pcie_width;
	int double_width;
	int baseboard;            /* an SXM/OAM module: baseboard positions only */
	int nvlink_domain;        /* GPUs one NVLink/xGMI domain joins, 0 when none */
	double nvlink_gbs;        /* 0 when none */
	double fp16_tflops;       /* 0 when unknown */
	int no_bf16;              /* its tensor cores take FP16 but not BF16 (Volta, Turing) */
	double fp8_tflops;        /* dense FP8 tensor TFLOP/s, 0 when none or unknown */
	unsigned pci_vendor, pci_device;
	/*
	 * Scale-out ports on the accelerator's own package (Intel Gaudi 3:
	 * 3 x 200 GbE RoCE), which leave the server at its cages, several
	 * ports a cage; 0 when scale-out goes through NIC cards.
	 */
	int scaleout_ports;
	double scaleout_gbps;
	const char *scaleout_cage;  /* the server's cage they leave at ("OSFP") */
	int scaleout_per_cage;      /* ports of these accelerators one such cage carries */
};

struct nicfit_model {
	struct nicfit_entry e;
	const char *family, *native_precision;
	struct nicfit_arch arch;
	long context_max;
	int experts, experts_active;
	int moe_layers;           /* layers with routed experts (0: all, when experts > 0) */
};

struct nicfit_catalog;

/* The embedded default catalog. */
int nicfit_catalog_new(struct nicfit_catalog **out, struct nicfit_error *err);
/* An empty catalog (tests, or a user who wants only their own file). */
int nicfit_catalog_new_empty(struct nicfit_catalog **out, struct nicfit_error *err);
void nicfit_catalog_free(struct nicfit_catalog *cat);

/*
 * Overlay a catalog document (text of len bytes, named `input` in errors).
 * On error the catalog is unchanged. Errors: NICFIT_E_DATA with
 * input:line:col for malformed JSON or an entry that breaks the schema.
 */
int nicfit_catalog_overlay(struct nicfit_catalog *cat, const char *input,
			   const char *text, size_t len, struct nicfit_error *err);
/* The same from a file; NICFIT_E_NOTFOUND / NICFIT_E_IO when unreadable. */
int nicfit_catalog_overlay_file(struct nicfit_catalog *cat, const char *path,
				struct nicfit_error *err);
/*
 * The same for a file that holds exactly one server (`plan --server
 * FILE.json`, what `audit --format catalog` writes): id (n bytes) gets that
 * server's id. NICFIT_E_DATA when the file holds no server or several.
 */
int nicfit_catalog_overlay_server_file(struct nicfit_catalog *cat, const char *path,
				       char *id, size_t n, struct nicfit_error *err);

/*
 * Validate a catalog document without loading it: every problem, up to
 * max, goes into errs (each with input:line:col). Entries whose id exists
 * in base (may be NULL) are partial overrides and need no required
 * fields. Returns the number of problems (0 = valid; counting beyond max);
 * *total gets the number of entries checked.
 */
size_t nicfit_catalog_check(const struct nicfit_catalog *base, const char *input,
			    const char *text, size_t len,
			    struct nicfit_error *errs, size_t max, size_t *total);

size_t nicfit_catalog_count(const struct nicfit_catalog *cat, enum nicfit_kind k);
/* The i-th entry's common part (0 <= i < count), in id order. */
const struct nicfit_entry *nicfit_catalog_entry(const struct nicfit_catalog *cat,
						enum nicfit_kind k, size_t i);

const struct nicfit_nic *nicfit_catalog_nic(const struct nicfit_catalog *cat, size_t i);
const struct nicfit_cable *nicfit_catalog_cable(const struct nicfit_catalog *cat, size_t i);
const struct nicfit_switch *nicfit_catalog_switch(const struct nicfit_catalog *cat, size_t i);
/*
 * The cables that are not optics (DACs, AOCs, breakouts, RJ45 patch
 * cords) joining cages a and b, either way round, in the catalog's order:
 * *n of them from *out, valid until the catalog changes or is freed. An
 * index by the pair of ends, made on first use (safe across threads).
 * Returns 0, or -1 when memory ran out for the index (walk every cable
 * then).
 */
int nicfit_catalog_cables_between(const struct nicfit_catalog *cat, const char *a, const char *b,
				  const struct nicfit_cable *const **out, size_t *n);
const struct nicfit_server *nicfit_catalog_server(const struct nicfit_catalog *cat, size_t i);
const struct nicfit_gpu *nicfit_catalog_gpu(const struct nicfit_catalog *cat, size_t i);
const struct nicfit_model *nicfit_catalog_model(const struct nicfit_catalog *cat, size_t i);

/*
 * Find by id, ignoring case (and, for parts, the vendor part number).
 * NULL when absent; then err says "unknown <kind> 'x' (did you mean 'y'?)"
 * with NICFIT_E_NOTFOUND and input = `what` (e.g. "--server").
 */
const struct nicfit_nic *nicfit_catalog_find_nic(const struct nicfit_catalog *cat,
						 const char *id, const char *what,
						 struct nicfit_error *err);
const struct nicfit_cable *nicfit_catalog_find_cable(const struct nicfit_catalog *cat,
						     const char *id, const char *what,
						     struct nicfit_error *err);
const struct nicfit_switch *nicfit_catalog_find_switch(const struct nicfit_catalog *cat,
						       const char *id, const char *what,
						       struct nicfit_error *err);
const struct nicfit_server *nicfit_catalog_find_server(const struct nicfit_catalog *cat,
						       const char *id, const char *what,
						       struct nicfit_error *err);
const struct nicfit_gpu *nicfit_catalog_find_gpu(const struct nicfit_catalog *cat,
						 const char *id, const char *what,
						 struct nicfit_error *err);
const struct nicfit_model *nicfit_catalog_find_model(const struct nicfit_catalog *cat,
						     const char *id, const char *what,
						     struct nicfit_error *err);

/*
 * The NIC whose firmware PSID (the board_id an RDMA device shows every
 * user, "MT_0000000834") is psid; NULL when no entry lists it.
 */
const struct nicfit_nic *nicfit_catalog_find_nic_psid(const struct nicfit_catalog *cat,
						      const char *psid);

/* Look an entry up by id in any kind; NULL when absent (no error). */
const struct nicfit_entry *nicfit_catalog_lookup(const struct nicfit_catalog *cat,
						 const char *id, enum nicfit_kind *kind);

/* NIC whose PCI vendor/device (and subsystem, when it matches) is given; NULL if none. */
const struct nicfit_nic *nicfit_catalog_find_nic_pci(const struct nicfit_catalog *cat,
						     unsigned vendor, unsigned device,
						     unsigned subvendor, unsigned subdevice);

/* The merged JSON text of one entry (for `catalog show --json`); caller frees. */
char *nicfit_catalog_entry_json(const struct nicfit_catalog *cat, enum nicfit_kind k,
				const char *id, int pretty);

struct nicfit_emit;

/*
 * Render the catalog (or one kind of it, kind < 0 for all) for `catalog
 * list`: text tables of the key facts per kind, or in JSON a catalog
 * document ({"schema": "nicfit.catalog.v1", "nics": [...], ...}) holding
 * the full entries, which can be edited and loaded back with --catalog.
 */
void nicfit_catalog_render_list(struct nicfit_emit *e, const struct nicfit_catalog *cat,
				int kind);

/*
 * Render one entry for `catalog show`: every field in text, the entry
 * object in JSON (with "kind" added). Returns 0 or NICFIT_E_NOTFOUND
 * (with a suggestion in err).
 */
int nicfit_catalog_render_show(struct nicfit_emit *e, const struct nicfit_catalog *cat,
			       const char *id, struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
