/*
 * partno_int.h - what the part-number readers share (internal).
 *
 * nicfit_decode() (partno.c) normalises the text and hands it to the
 * readers: the ConnectX OPN rules (partno_cx.c: the shape of an OPN and
 * the whole reading; partno_cx_base.c: the base digits, by generation;
 * partno_cx_suffix.c: the letters and the suffix, position by position;
 * partno_cx_fam.c: the families),
 * the Intel adapter table (partno_intel.c), Broadcom NetXtreme-E adapter
 * names (partno_bcm.c) and the catalog
 * (partno_catalog.c). partno_render.c renders the result. The readers
 * write into one struct nicfit_part through the recorders below, which
 * keep every field bounded; nothing allocates.
 *
 * The recorders are called on nearly every line of the rules, so the
 * readers call them by short names (note(), pos(), bad() ...), macros for
 * the nicfit__part_* functions of partno_record.c: nothing unprefixed is
 * exported, and the rules stay as readable as the tables they encode.
 */
#ifndef NICFIT_PARTNO_INT_H
#define NICFIT_PARTNO_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "partno_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include "nicfit/catalog.h"
#include "nicfit/error.h"
#include "nicfit/partno.h"

struct intel_nic;

/* The text being decoded, for error messages. */
struct dec {
	struct nicfit_part *p;
	const char *s;     /* normalised text (upper case, trimmed) */
	char *buf;         /* where normalize() writes it, NICFIT_PART_MAX + 1 bytes */
	const struct intel_nic *intel; /* the Intel table row that matched */
	size_t len;
	long lead;         /* columns of leading space in the original text */
	struct nicfit_error *err;
};

/* ---- the recorders (partno_record.c) ------------------------------------ */

/* Copy s (NULL: "") into dst of n bytes, cut to fit. */
void nicfit__part_setstr(char *dst, size_t n, const char *s);
/* Add a note (once; the first NICFIT_PART_NOTES are kept). */
void nicfit__part_note(struct nicfit_part *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Add a position of the reading: the characters and what they mean. */
void nicfit__part_pos(struct nicfit_part *p, const char *chars, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same for a single character. */
void nicfit__part_pos_char(struct nicfit_part *p, char c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Mark field as resting on no primary source (once). */
void nicfit__part_unverified(struct nicfit_part *p, const char *field);
/*
 * Fail the reading at index `at` of the normalised text: NICFIT_E_DATA
 * with "'TEXT': why (at column N)", N counted in the text as given.
 */
int nicfit__part_bad(struct dec *d, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define setstr(dst, n, s) nicfit__part_setstr(dst, n, s)
#define note(...) nicfit__part_note(__VA_ARGS__)
#define pos(...) nicfit__part_pos(__VA_ARGS__)
#define pos_char(...) nicfit__part_pos_char(__VA_ARGS__)
#define unverified(p, field) nicfit__part_unverified(p, field)
#define bad(...) nicfit__part_bad(__VA_ARGS__)

/* ---- ConnectX (partno_cx*.c) -------------------------------------------- */

/*
 * A ConnectX family: what the generation and family digits select.
 * Maximum Ethernet rates from NVIDIA's MLNX_EN documentation
 * ("Uplink Speed" table); PCI IDs from docs/reference/nic-identity.md 3.1.
 */
struct cx_family {
	const char *name;      /* "ConnectX-6 Dx" */
	unsigned device;       /* PCI device ID, 0 when unknown */
	double max_gbps;       /* fastest Ethernet rate of the chip */
	const char *ib_letters;/* speed letters it may carry; "" = Ethernet only */
	const char *host_letters; /* host-interface letters seen */
	const char *driver;
};

enum cx_family_id {
	FAM_CX3, FAM_CX3PRO, FAM_CX4, FAM_CX4LX, FAM_CX5, FAM_CX5EX, FAM_CX6, FAM_CX6DX,
	FAM_CX6LX, FAM_CX6DE, FAM_CX7, FAM_COUNT
};

/* The families (partno_cx_fam.c); FAM(CX6DX) is the ConnectX-6 Dx. */
extern const struct cx_family nicfit__cx_fam[FAM_COUNT];
#define FAM(id) (&nicfit__cx_fam[FAM_##id])

/* Everything the rules read from an OPN, before it becomes a nicfit_part. */
struct opn {
	int gen;
	char digits[8];
	int ndigits;
	char letters[4];
	int nletters;
	char sfx[5];
	int nsfx;
	size_t at_digits, at_letters, at_sfx; /* indexes into the text */
	const struct cx_family *fam;
	int form_vpi;         /* the form digit says VPI (1), EN (0), either (-1) */
	int ocp;              /* 0 stand-up, 2 OCP 2.0, 3 OCP 3.0 */
	int ports;
	const char *cage;
	int width;
	int community;        /* a position was read from community data only */
};

/*
 * The readers return 0, or the error of nicfit__part_bad(); the ones that
 * cannot fail (an undecoded letter becomes a note) return nothing.
 */
/* A ConnectX OPN whose digits start at index i (3 after "MCX", 2 after "CX"). */
int nicfit__cx_decode(struct dec *d, size_t i);
/* A BlueField DPU OPN ("MBF..."): recognised, not decoded position by position. */
int nicfit__bf_decode(struct dec *d);

/* ConnectX-8 / BlueField-3 900- SKUs and model names (partno_sku.c): 0, <0, 1 not one. */
int nicfit__sku_decode(struct dec *d);

/* ---- LinkX cables and transceivers (partno_linkx.c) ---------------------- */

/* Read a LinkX OPN (MCP1600-C003): 0 decoded, <0 error, 1 not a LinkX OPN. */
int nicfit__linkx_decode(struct dec *d);
/* Fill p->cable from a catalog cable entry. */
void nicfit__linkx_from_catalog(struct nicfit_part *p, const struct nicfit_cable *c);
/* The catalog NICs and switches p's cable plugs into (p->cable.fits_*). */
void nicfit__linkx_fits(struct nicfit_part *p, const struct nicfit_catalog *cat);
/* The base digits of ConnectX-3, -4 and -5 (partno_cx_base.c). */
int nicfit__cx_base345(struct dec *d, struct opn *o);
/* The base digits of ConnectX-6 and the 6-digit ConnectX-7 (partno_cx_base.c). */
int nicfit__cx_base67(struct dec *d, struct opn *o);
/* The letters before the '-', then the four suffix letters (partno_cx_suffix.c). */
int nicfit__cx_letters(struct dec *d, struct opn *o);
int nicfit__cx_speed(struct dec *d, struct opn *o);
int nicfit__cx_host(struct dec *d, struct opn *o);
void nicfit__cx_option(struct dec *d, struct opn *o);
void nicfit__cx_bracket(struct dec *d, struct opn *o);

/* ---- Intel (partno_intel.c) --------------------------------------------- */

/* 0 when the text is an adapter of the table (d->intel set), 1 when not. */
int nicfit__intel_decode(struct dec *d);
/* partno_bcm.c: a Broadcom NetXtreme-E adapter (BCM957608-P2200G...); 1 when not one */
int nicfit__bcm_decode(struct dec *d);
/* An error naming the known adapters when the text starts with an Intel
 * controller name the table lacks; 1 when it does not. */
int nicfit__intel_family_error(struct dec *d);
/* The notes every reading of adapter n carries (RDMA, module coding...). */
void nicfit__intel_notes(struct nicfit_part *p, const struct intel_nic *n);

/* ---- the catalog (partno_catalog.c) ------------------------------------- */

/* Facts the rules and the catalog both give, for comparing them. */
struct facts {
	char family[32], protocol[8], cage[12], ib_rate[8], form_factor[16], bracket[24];
	int ports, pcie_gen, pcie_width, socket_direct;
	double port_gbps;
};

/* Keep what the rules read, before the catalog's facts replace it. */
void nicfit__part_take_facts(struct facts *f, const struct nicfit_part *p);
/* A note for each fact the rules (r) read differently from the catalog (p). */
void nicfit__part_compare(struct nicfit_part *p, const struct facts *r);
/* The catalog's facts about NIC n, or about an entry of another kind. */
void nicfit__part_fill_from_nic(struct nicfit_part *p, const struct nicfit_nic *n);
void nicfit__part_fill_from_entry(struct nicfit_part *p, const struct nicfit_entry *e,
				  enum nicfit_kind k);
/* The catalog NIC a firmware-tool string (OPN without its bracket, "_Ax") names. */
const struct nicfit_nic *nicfit__part_tool_match(const struct nicfit_catalog *cat,
						 struct nicfit_part *p, const char *s);

#endif
