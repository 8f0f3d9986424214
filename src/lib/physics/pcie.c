/*
 * pcie.c - PCIe link throughput from first principles (see nicfit/pcie.h).
 */
#include <math.h>
#include <stddef.h>

#include "nicfit/pcie.h"

/* A transfer rate given (sysfs prints "8.0 GT/s") names a generation within 0.01 GT/s. */
#define GTS_MATCH 0.01

#define P(f) offsetof(struct nicfit_pcie_params, f)

const struct nicfit_param nicfit_pcie_param_table[] = {
	{ "mps", P(mps), 256, 128, 4096, "B",
	  "max payload size of posted writes, negotiated down the path",
	  "typical server BIOS value; docs/reference/bandwidth.md 1.3" },
	{ "read_cpl", P(read_cpl), 128, 32, 4096, "B",
	  "data per read completion: completers split reads at the 64/128 B read completion boundary",
	  "PCIe RCB; docs/reference/bandwidth.md 1.3 (64 B on some root complexes)" },
	{ "hdr_write", P(hdr_write), 16, 12, 16, "B",
	  "memory-write TLP header (4DW, 64-bit address)", "PCIe base spec; Intel AN 708" },
	{ "hdr_cpl", P(hdr_cpl), 12, 12, 16, "B",
	  "completion TLP header (3DW)", "PCIe base spec; Intel AN 708" },
	{ "framing", P(framing), 8, 0, 16, "B",
	  "per-TLP framing: STP token with sequence number (4) + LCRC (4); none in Gen6 FLIT mode",
	  "Intel AN 708 (20-24 B TLP overhead in total)" },
	{ "dllp", P(dllp), 8, 0, 64, "B",
	  "ACK/UpdateFC DLLP bytes per TLP sharing the link when traffic flows both ways",
	  "Xilinx UG962 budgeting rule: one 8-byte DLLP per TLP" },
	{ "skp_share", P(skp_share), 0.003, 0, 0.1, "",
	  "link time taken by SKP ordered sets", "Intel AN 708 (SKP every ~370 blocks)" },
	{ "pcie_factor", P(impl_factor), 1.0, 0.1, 1.0, "",
	  "device and root-complex efficiency below the packet model (1 = none assumed)",
	  "no fitted constant: override with measurements" },
};

const size_t nicfit_pcie_param_count =
	sizeof(nicfit_pcie_param_table) / sizeof(nicfit_pcie_param_table[0]);

void nicfit_pcie_params_default(struct nicfit_pcie_params *p)
{
	nicfit_param_defaults(nicfit_pcie_param_table, nicfit_pcie_param_count, p);
}

double nicfit_pcie_gts(int gen)
{
	static const double gts[] = { 0, 2.5, 5, 8, 16, 32, 64 };

	return gen >= 1 && gen <= 6 ? gts[gen] : 0;
}

int nicfit_pcie_gen_from_gts(double gts)
{
	int g;

	for (g = 1; g <= 6; g++)
		if (fabs(nicfit_pcie_gts(g) - gts) < GTS_MATCH)
			return g;
	return 0;
}

static double encoding(int gen)
{
	if (gen <= 2)
		return 8.0 / 10.0;
	if (gen <= 5)
		return 128.0 / 130.0;
	return 236.0 / 256.0; /* FLIT: TLP bytes per 256-byte FLIT */
}

int nicfit_pcie_calc(int gen, int width, const struct nicfit_pcie_params *p,
		     struct nicfit_pcie_result *r, struct nicfit_error *err)
{
	double framing, dllp, skp;

	if (gen < 1 || gen > 6)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"PCIe generation %d out of range (1 to 6)", gen);
	if (width < 1 || width > 32)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"PCIe width x%d out of range (x1 to x32)", width);
	r->gen = gen;
	r->width = width;
	r->gts = nicfit_pcie_gts(gen);
	r->encoding = encoding(gen);
	r->signal_gbps = r->gts * width;
	r->raw_gbps = r->signal_gbps * r->encoding;
	/* In FLIT mode CRC, sequence and DLLPs live in the FLIT itself. */
	framing = gen >= 6 ? 0 : p->framing;
	dllp = gen >= 6 ? 0 : p->dllp;
	skp = gen >= 6 ? 0 : p->skp_share;
	r->write_eff = p->mps / (p->mps + p->hdr_write + framing + dllp) * (1 - skp);
	r->read_eff = p->read_cpl / (p->read_cpl + p->hdr_cpl + framing + dllp) * (1 - skp);
	r->write_gbps = r->raw_gbps * r->write_eff;
	r->read_gbps = r->raw_gbps * r->read_eff;
	r->effective_gbps = fmin(r->write_gbps, r->read_gbps) * p->impl_factor;
	return 0;
}
