/*
 * nicfit/pcie.h - what a PCIe link can carry.
 *
 * The model (docs/reference/bandwidth.md section 1) works up from the lane rate:
 *
 *   raw        = GT/s x lanes x line coding (8b/10b, 128b/130b, Gen6 FLIT)
 *   write path = raw x P/(P + framing + 4DW header + DLLP) x (1 - SKP share)
 *                with P = max payload size (MPS): device-to-memory DMA
 *   read path  = the same with P = read completion size and a 3DW header:
 *                memory-to-device DMA, data returned as completions
 *   effective  = min(write, read) x implementation factor
 *
 * A NIC that sends and receives at once needs both paths, so `effective`
 * is what it can move in each direction. Every constant is a named
 * assumption (nicfit_pcie_params) and can be overridden.
 */
#ifndef NICFIT_PCIE_H
#define NICFIT_PCIE_H

#include <stddef.h>

#include "nicfit/error.h"
#include "nicfit/param.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nicfit_pcie_params {
	double mps;          /* max payload size of a posted write, bytes */
	double read_cpl;     /* data bytes carried by one read completion */
	double hdr_write;    /* header of a memory-write TLP (4DW, 64-bit) */
	double hdr_cpl;      /* header of a completion TLP (3DW) */
	double framing;      /* STP/sequence + LCRC per TLP (0 in Gen6 FLIT mode) */
	double dllp;         /* ACK/UpdateFC DLLP bytes per TLP on the same link */
	double skp_share;    /* share of link time taken by SKP ordered sets */
	double impl_factor;  /* device/root-complex efficiency, 1 = ideal */
};

extern const struct nicfit_param nicfit_pcie_param_table[];
extern const size_t nicfit_pcie_param_count;

struct nicfit_pcie_result {
	int gen;               /* 1..6 */
	int width;             /* lanes */
	double gts;            /* transfer rate per lane, GT/s */
	double encoding;       /* line-coding efficiency */
	double signal_gbps;    /* gts x width */
	double raw_gbps;       /* after line coding, per direction */
	double write_eff;      /* write-path packet efficiency (0..1) */
	double read_eff;       /* read-path packet efficiency (0..1) */
	double write_gbps;     /* posted writes, device to memory */
	double read_gbps;      /* DMA reads, memory to device */
	double effective_gbps; /* min(write, read) x impl_factor */
};

void nicfit_pcie_params_default(struct nicfit_pcie_params *p);

/* GT/s of generation gen (2.5, 5, 8, 16, 32, 64), or 0 if out of range. */
double nicfit_pcie_gts(int gen);

/* Generation for a GT/s value (8 -> 3); 0 when it matches none. */
int nicfit_pcie_gen_from_gts(double gts);

/*
 * Compute the link's rates. gen 1..6, width 1..32. Returns 0, or
 * NICFIT_E_USAGE for a generation or width out of range.
 */
int nicfit_pcie_calc(int gen, int width, const struct nicfit_pcie_params *p,
		     struct nicfit_pcie_result *r, struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
