/*
 * pciids_int.h - names for PCI devices: a built-in table of the GPUs,
 * network chips and bridges that matter to an AI server, and pci.ids
 * (parts/pciids.c). Library-wide, in core/: discovery, the dump reader
 * and the audit name devices with it.
 *
 * The built-in table comes from docs/reference/nic-identity.md section 3 and
 * docs/reference/topology.md (each row names its source). It is kept because
 * distributions ship old pci.ids files (Debian 12's is from 2023 and has
 * no L40S, H200 or ConnectX-9). Besides a name, a row says what kind of
 * function it is (GPU, NIC, virtual function, flash-recovery mode, PCIe
 * switch, chipset-internal bridge) and, for NIC chips, the fastest port
 * the family supports: an upper bound, used only when the exact card is
 * unknown.
 *
 * pci.ids (/usr/share/misc/pci.ids, /usr/share/hwdata/pci.ids) is read
 * once per batch of queries, only for devices the table lacks.
 *
 * Shape: the table's rows and names are static and live as long as the
 * program; a pci.ids look-up fills the caller's array of queries with
 * copies of the names, and keeps nothing.
 */
#ifndef NICFIT_PCIIDS_INT_H
#define NICFIT_PCIIDS_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "pciids_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include "nicfit/error.h"

#define NICFIT_PCIID_GPU 0x01u        /* compute GPU */
#define NICFIT_PCIID_NIC 0x02u        /* network controller (physical function) */
#define NICFIT_PCIID_VF 0x04u         /* SR-IOV virtual function */
#define NICFIT_PCIID_RECOVERY 0x08u   /* flash-recovery ID: the card has no working firmware */
#define NICFIT_PCIID_SWITCH 0x10u     /* PCIe switch port */
#define NICFIT_PCIID_INTERNAL 0x20u   /* chipset-integrated function with a nominal link */
#define NICFIT_PCIID_INTBRIDGE 0x40u  /* chipset-internal bridge above such functions */
#define NICFIT_PCIID_BASET 0x80u      /* twisted-pair (BASE-T) ports: no pluggable module */

/* RDMA the chip family can do (as nicfit/catalog.h NICFIT_RDMA_*). */
#define NICFIT_PCIID_ROCE 0x1u
#define NICFIT_PCIID_IB 0x2u
#define NICFIT_PCIID_IWARP 0x4u

struct nicfit_pci_id {
	unsigned vendor, device;
	const char *name;        /* "NVIDIA A100 PCIe 80GB", "ConnectX-6 Dx" */
	unsigned flags;          /* NICFIT_PCIID_* */
	double max_port_gbps;    /* NIC families: fastest Ethernet/IB port rate, 0 unknown */
	unsigned rdma;           /* NICFIT_PCIID_ROCE | IB | IWARP */
	const char *source;      /* reference section */
};

/* The built-in row for vendor:device, or NULL. */
const struct nicfit_pci_id *nicfit__pci_id_find(unsigned vendor, unsigned device);

/*
 * The card's name when one chip is sold as cards that differ only in port
 * count and each port is a function (8086:15ff: X710-T2L with 2, X710-T4L
 * with 4); NULL when functions does not tell.
 */
const char *nicfit__pci_id_card_name(unsigned vendor, unsigned device, int functions);

/*
 * The built-in row of vendor whose name is the n bytes at name, with or
 * without the short vendor name before it ("RTX 6000 Ada Generation",
 * "ConnectX-7": the bracketed part of a pci.ids name as lspci -tv prints
 * it); NULL when no row, or several IDs, have that name.
 */
const struct nicfit_pci_id *nicfit__pci_id_by_name(unsigned vendor, const char *name, size_t n);

/*
 * Every built-in row of vendor with that name (as above): how many there
 * are, the first max of them in out (pci.ids names 10de:20b1 and 10de:20f1
 * both "A100 PCIe 40GB").
 */
int nicfit__pci_ids_by_name(unsigned vendor, const char *name, size_t n,
			    const struct nicfit_pci_id **out, int max);

/* Short vendor name ("NVIDIA", "Mellanox", "Intel", "ASPEED"), or NULL. */
const char *nicfit__pci_vendor_name(unsigned vendor);

/* 1 for vendors whose class-0x03 functions are BMC/server VGA (ASPEED, Matrox). */
int nicfit__pci_vendor_is_bmc_vga(unsigned vendor);


/* A pci.ids look-up: fill vendor and device names for each query. */
struct nicfit_pciids_query {
	unsigned vendor, device;
	char vendor_name[96];    /* "" when not found */
	char device_name[160];   /* "" when not found */
};

/*
 * Scan pci.ids at path (NULL: the usual places) once and answer all n
 * queries. Only a regular file is read (a FIFO or device named as path
 * is refused at once, "not a regular file"), up to 64 MiB. Errors:
 * NICFIT_E_NOTFOUND when there is no file (the queries are left empty),
 * NICFIT_E_IO, NICFIT_E_LIMIT.
 */
int nicfit__pciids_lookup(const char *path, struct nicfit_pciids_query *q, size_t n,
			 struct nicfit_error *err);

#endif
