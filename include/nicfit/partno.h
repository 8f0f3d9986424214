/*
 * nicfit/partno.h - what a network-adapter part number says.
 *
 * nicfit_decode() explains a part number a person copied from a quote, a
 * box label, `lspci -vv` (the VPD [PN] field) or `mlxfwmanager`:
 *
 *   - NVIDIA/Mellanox ConnectX ordering part numbers (OPNs), ConnectX-3 to
 *     ConnectX-7, read position by position with the rules of
 *     docs/reference/nic-identity.md section 1 ("MCX 6 5 3 1 0 5 A - H D A T"),
 *     so that an OPN that is not in the catalog still decodes;
 *   - NVIDIA LinkX cable and transceiver OPNs (MCP, MCA, MFA, MFS, MMA,
 *     MMS ...) by rule: type, rate, cage per end, splitter legs, length or
 *     reach, and the catalog NICs and switches each end plugs into;
 *   - Intel Ethernet adapter names (X710-DA2, E810-CQDA2, ...) from a table
 *     of the adapters nicfit knows (docs/reference/nic-identity.md section 2);
 *   - any id or part number of the catalog (a BlueField DPU OPN, a
 *     Broadcom SKU, a cable) - then the catalog's facts are the answer.
 *
 * The catalog is asked first: when it has the part, its facts win and
 * confidence is NICFIT_CONF_CATALOG; the rules still run, and where they
 * read a fact differently a note says so. Otherwise the facts come from
 * the rules alone (NICFIT_CONF_RULE) and every rule that rests on
 * community data only says so in a note.
 *
 * Everything is in fixed-size fields of struct nicfit_part: decoding
 * allocates nothing and does bounded work on any input (the text is
 * measured once, at most NICFIT_PART_SCAN_MAX bytes of it, and rejected
 * when longer than NICFIT_PART_MAX). It never prints.
 *
 *	struct nicfit_part part;
 *
 *	if (nicfit_decode(cat, "MCX623106AN-CDAT", &part, &err))
 *		return ...;            (err: "'...': why (at column N)")
 *	nicfit_decode_render(e, &part);
 *
 * Shape: struct nicfit_part is the caller's and holds copies of
 * everything (nothing points into the catalog or the text), so it
 * outlives both; there is nothing to free. The only pointer in it,
 * slots[].limited_by, is a static string.
 */
#ifndef NICFIT_PARTNO_H
#define NICFIT_PARTNO_H

#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "nicfit/perf.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NICFIT_PART_MAX 48          /* longest part number accepted */
#define NICFIT_PART_SCAN_MAX 4096   /* bytes looked at before giving up */
#define NICFIT_PART_NOTES 24
#define NICFIT_PART_NOTE_LEN 240
#define NICFIT_PART_READING 20
#define NICFIT_PART_SLOTS 4

/* Where the facts came from. */
enum nicfit_confidence {
	NICFIT_CONF_RULE,     /* decoded by the part-number rules only */
	NICFIT_CONF_CATALOG   /* the catalog has the part; its facts win */
};

/* What kind of thing the part number names. */
enum nicfit_part_kind {
	NICFIT_PART_NIC,      /* a network adapter */
	NICFIT_PART_DPU,      /* a BlueField DPU (recognised, not decoded) */
	NICFIT_PART_OTHER     /* a catalog entry that is not a NIC (cable, switch) */
};

/* One position of the part number and what it means. */
struct nicfit_part_pos {
	char chars[16];       /* the characters as written ("MCX", "6", "A") */
	char meaning[112];    /* "ConnectX-6 generation" */
};

/* The card in one kind of slot, by nicfit_calc_nic() with default assumptions. */
struct nicfit_part_slot {
	int gen, width;       /* the slot */
	int links;            /* 2 for a Socket Direct card: two such slots */
	int link_gen, link_width; /* what the link trains to */
	double ports_gbps;    /* all ports' goodput */
	double pcie_gbps;     /* what the link moves each way */
	double effective_gbps;
	const char *limited_by; /* "pcie" or "ports" (static) */
};

/*
 * Room for the catalog parts a cable fits: every NIC and switch of the
 * embedded catalog that takes a 100G QSFP28 DAC fits, with room to spare.
 */
#define NICFIT_PART_FITS 96

/* A cable or transceiver: its ends, and the catalog parts it fits. */
struct nicfit_part_cable {
	int is_cable;         /* 1 when the part is a cable or transceiver */
	char type[16];        /* "dac", "acc", "aoc", "optic", "breakout-dac", ... */
	char end_a[12];       /* cage of the fast end ("OSFP") */
	char end_b[16];       /* cage of the other end(s), or an optic's fibre connector */
	int legs;             /* ends at end_b (2 or 4 for a splitter) */
	double gbps;          /* rate of end_a */
	double leg_gbps;      /* rate of each leg */
	int lanes_a, lanes_b; /* electrical lanes at each end (end b: per leg) */
	double serdes_a, serdes_b; /* their rate */
	char top_a[8], top_b[8]; /* OSFP ends: "flat" or "finned"; "" otherwise */
	double length_m;      /* 0 for a transceiver */
	double reach_m;       /* a transceiver's reach; 0 when not stated */
	char medium[8];       /* "copper", "fiber" */
	char fiber[4];        /* "MMF", "SMF", "" */
	char fits_nics[NICFIT_PART_FITS][24];     /* catalog NIC ids it plugs into */
	int nfits_nics;
	char fits_switches[NICFIT_PART_FITS][24]; /* catalog switch ids */
	int nfits_switches;
};

/* The decoded facts. Unknown numbers are 0, unknown strings "". */
struct nicfit_part {
	char input[NICFIT_PART_MAX + 1]; /* the text, trimmed and upper-cased */
	char part[NICFIT_PART_MAX + 1];  /* the part number (catalog spelling when known) */
	enum nicfit_part_kind kind;
	enum nicfit_confidence confidence;
	enum nicfit_kind catalog_kind;   /* kind of the catalog entry, when one matched */
	char catalog_id[64];             /* "" when the catalog lacks the part */
	char name[160];                  /* the catalog's name, or one built from the facts */
	char source[1024];               /* where the facts come from (cut at 1023 bytes) */
	char vendor[16];                 /* "NVIDIA", "Intel" */
	char family[32];                 /* "ConnectX-6 Dx", "Intel X710" */
	char protocol[8];                /* "EN", "VPI", "IB" */
	int ports;
	char cage[12];                   /* "QSFP56", "SFP+", "RJ45" */
	double port_gbps;                /* fastest Ethernet rate of one port */
	char ib_rate[8];                 /* "EDR", "HDR100"; "" when none */
	int pcie_gen, pcie_gen_min;      /* gen_min 0 when only one is given */
	int pcie_width;                  /* lanes (a Socket Direct card: per card) */
	double card_gbps;                /* the most all ports move together; 0 = their sum */
	int socket_direct;               /* the card spans two sockets (two x8 or x16 links) */
	int socket_direct_option;        /* Socket Direct is an option (ConnectX-8's auxiliary PCIe kit) */
	int multi_host;                  /* OCP Multi-Host variant */
	unsigned rdma;                   /* NICFIT_RDMA_* bits; 0 = no RDMA */
	char form_factor[16];            /* "pcie-hhhl", "ocp2", "ocp3" */
	char bracket[24];                /* "tall", "short", "none", "ocp3-pull-tab"; "" unknown */
	char slot_width[8];              /* a PCIe card's: "single", "double" (catalog); "" unknown */
	int crypto, secure_boot;         /* 1 yes, 0 no, -1 not stated by the part number */
	char options[96];                /* "UEFI enabled", "host management"; "" standard */
	char driver[16];                 /* Linux driver ("mlx5_core", "i40e") */
	unsigned pci_vendor, pci_device; /* 0 when unknown */
	char unverified[8][24];          /* fields not confirmed by a primary source */
	int nunverified;
	struct nicfit_part_pos reading[NICFIT_PART_READING];
	int nreading;
	char notes[NICFIT_PART_NOTES][NICFIT_PART_NOTE_LEN];
	int nnotes;
	struct nicfit_part_slot slots[NICFIT_PART_SLOTS];
	int nslots;
	char summary[256];               /* one line: family, ports, speed, PCIe */
	struct nicfit_part_cable cable;  /* cables and transceivers */
};

/*
 * Decode text (a NUL-terminated string; spaces around it, lower case and a
 * trailing newline are accepted) into *out. cat may be NULL: rules only.
 * Returns 0, or NICFIT_E_DATA when text is not a part number nicfit can
 * read - err then says what was wrong and at which column ("input" is
 * "part"). *out is always initialised; on error its fields are empty.
 */
int nicfit_decode(const struct nicfit_catalog *cat, const char *text,
		  struct nicfit_part *out, struct nicfit_error *err);

/*
 * Render one decoded part as a "nicfit.decode.v1" document: JSON fields
 * (docs/json-decode.md) and the text/Markdown explanation.
 */
void nicfit_decode_render(struct nicfit_emit *e, const struct nicfit_part *p);

/*
 * The card p describes, for nicfit_calc_nic(): ports, port rate, PCIe
 * generation and width, InfiniBand rate (a static string). Returns 0, or
 * NICFIT_E_DATA when p lacks one of those (a DPU, a cable).
 */
int nicfit_part_card(const struct nicfit_part *p, struct nicfit_card *card);

/*
 * RDMA by ConnectX generation, from the card's family name ("ConnectX-3",
 * "ConnectX-3 Pro"; NULL or any other family: neither). A plain
 * ConnectX-3 does RoCE v1 only; ConnectX-3 and ConnectX-3 Pro are past
 * NVIDIA's driver stack (MLNX_OFED 4.9 LTS is the last that supports
 * them). The sources are in partno.c.
 */
int nicfit_family_roce_v1_only(const char *family);
int nicfit_family_past_driver_support(const char *family);

/* "rule" or "catalog". */
const char *nicfit_confidence_name(enum nicfit_confidence c);

#ifdef __cplusplus
}
#endif

#endif
