/*
 * partno_sku.c - NVIDIA's 900-... SKUs and model names of the ConnectX-8
 * SuperNICs and BlueField-3 DPUs, from a table: these numbers follow no
 * position rules nicfit knows, so each SKU (its first fourteen
 * characters, "900-9D3B6-00CV") or model name ("B3220") is a row with
 * the facts NVIDIA's tables give for it.
 *
 * Sources: the BlueField-3 rows, NVIDIA DOCA Installation Guide for Linux
 * v2.9.0, "Supported Platforms" (SKU, PSID and description of every
 * BlueField-3 DPU); the ConnectX-8 rows, the NVIDIA ConnectX-8 SuperNIC
 * User Manual, "Supported Interfaces" (C8240/C8220 and C8180 SKUs, PCIe
 * Gen6 x16 edge connector, QSFP112 or OSFP cages) and the ConnectX-8
 * firmware release notes 40.44.0208 (800Gb/s XDR, or 2 x 400GbE); the
 * BlueField-3 SuperNIC rows (B3140H, B3220L), the BlueField-3 Networking
 * Platform User Guide, "Port Configurations", which gives their OPNs and
 * not their ports: those are read from NVIDIA's model names (B3 1 40: one
 * 400G port) and marked unverified. A fact no NVIDIA page gives is
 * marked unverified.
 *
 * It is not the OPN reader (partno_cx*.c) and not the catalog.
 */
#include <stdio.h>
#include <string.h>

#include "parts/partno_int.h"

#define DOCA_SRC "NVIDIA DOCA Installation Guide for Linux v2.9.0, Supported Platforms " \
	"(https://docs.nvidia.com/doca/archive/2-9-0/NVIDIA+DOCA+Installation+Guide+for+Linux)"
#define BF3_PORTS_SRC "NVIDIA BlueField-3 Networking Platform User Guide, Port Configurations " \
	"(B3140H and B3220L models and OPNs) (https://docs.nvidia.com/networking/display/bf3dpu/port-configurations)"
#define CX8_SRC "NVIDIA ConnectX-8 SuperNIC User Manual, Supported Interfaces " \
	"(https://docs.nvidia.com/networking/display/connectx8supernic/supported+interfaces); " \
	"ConnectX-8 firmware release notes 40.44.0208 " \
	"(https://docs.nvidia.com/networking/display/connectx8firmwarev40440208/changes+and+new+features)"

struct sku {
	const char *sku;        /* first 14 characters of the 900- SKU */
	const char *model;      /* "B3220", "C8240" */
	const char *family;
	int dpu;
	int ports;
	const char *cage;
	double gbps;
	const char *ib_rate;
	int gen, width;
	int crypto;             /* 1, 0, -1 not stated */
	const char *unverified; /* a field no NVIDIA page confirms, or NULL */
	const char *note;
	const char *source;     /* NULL: the family's NVIDIA table; else a secondary source,
				 * every port and PCIe fact then unverified */
};

/*
 * The BlueField-3 B3220SH: no NVIDIA table nicfit read lists it or its SKU.
 * Its description, as NVIDIA's product descriptions word it, is quoted in
 * a public BlueField resource table (a Go test of model lookups, which
 * cites NVIDIA's BlueField-3 DPU controller guide for 16 Arm cores and
 * 48 GB); it is read by model name only.
 */
#define B3220SH_SRC "secondary (unverified): NVIDIA's description 'BlueField-3 B3220SH " \
	"E-Series FHHL Storage Controller, 200GbE (default mode) / NDR200 IB, Dual-port QSFP112, " \
	"PCIe Gen5.0 x16 with x16 PCIe extension option, 16 Arm cores, 48GB on-board DDR, " \
	"integrated BMC' as a public BlueField model table quotes it, citing " \
	"https://docs.nvidia.com/networking/display/bf3dpucontroller"


static const struct sku skus[] = {
	{ "900-9X81Q-00CN", "C8240", "ConnectX-8 SuperNIC", 0, 2, "QSFP112", 400, "NDR", 6, 16, -1,
	  "port_gbps", "Socket Direct / Multi-Host through a PCIe extension card (MCIO).", NULL },
	{ "900-9X81Q-00CV", "C8220", "ConnectX-8 SuperNIC", 0, 2, "QSFP112", 200, "NDR200", 6, 16, -1,
	  "port_gbps", "Socket Direct / Multi-Host through a PCIe extension card (MCIO).", NULL },
	{ "900-9X81E-00EX", "C8180", "ConnectX-8 SuperNIC", 0, 1, "OSFP", 800, "XDR", 6, 16, -1, NULL,
	  "800Gb/s is XDR InfiniBand; on Ethernet the port runs 2 x 400GbE (800GbE is not "
	  "supported on a single port).", NULL },
	{ "900-9D3B6-00CV", "B3220", "BlueField-3", 1, 2, "QSFP112", 200, "NDR200", 5, 16, 1, NULL,
	  "P-Series FHHL; 16 Arm cores, 32 GB DDR; x16 PCIe extension option.", NULL },
	{ "900-9D3B6-00SV", "B3220", "BlueField-3", 1, 2, "QSFP112", 200, "NDR200", 5, 16, 0, NULL,
	  "P-Series FHHL; 16 Arm cores, 32 GB DDR; x16 PCIe extension option.", NULL },
	{ "900-9D3B6-00CN", "B3240", "BlueField-3", 1, 2, "QSFP112", 400, "NDR", 5, 16, 1, NULL,
	  "P-Series dual-slot FHHL; 16 Arm cores, 32 GB DDR.", NULL },
	{ "900-9D3B6-00SN", "B3240", "BlueField-3", 1, 2, "QSFP112", 400, "NDR", 5, 16, 0, NULL,
	  "P-Series dual-slot FHHL; 16 Arm cores, 32 GB DDR.", NULL },
	{ "900-9D3B6-00CC", "B3210", "BlueField-3", 1, 2, "QSFP112", 100, "HDR100", 5, 16, 1, NULL,
	  "P-Series FHHL; 16 Arm cores, 32 GB DDR.", NULL },
	{ "900-9D3B6-00SC", "B3210", "BlueField-3", 1, 2, "QSFP112", 100, "HDR100", 5, 16, 0, NULL,
	  "P-Series FHHL; 16 Arm cores, 32 GB DDR.", NULL },
	{ "900-9D3B4-00CC", "B3210L", "BlueField-3", 1, 2, "QSFP112", 100, "HDR100", 4, 16, 1, NULL,
	  "E-Series FHHL; 8 Arm cores, 16 GB DDR.", NULL },
	{ "900-9D3B4-00SC", "B3210L", "BlueField-3", 1, 2, "QSFP112", 100, "HDR100", 4, 16, 0, NULL,
	  "E-Series FHHL; 8 Arm cores, 16 GB DDR.", NULL },
	{ "900-9D3B4-00PN", "B3140L", "BlueField-3", 1, 1, "QSFP112", 400, "NDR", 5, 16, -1, NULL,
	  "E-Series FHHL; 8 Arm cores, 16 GB DDR.", NULL },
	{ "900-9D3D4-00EN", "B3140H", "BlueField-3 SuperNIC", 0, 1, "QSFP112", 400, "NDR", 5, 16, -1,
	  "port_gbps", "The east-west SuperNIC of Spectrum-X, one per GPU; one 400G port and half "
	  "height read from the model name (UNVERIFIED).", NULL },
	{ "900-9D3D4-00NN", "B3140H", "BlueField-3 SuperNIC", 0, 1, "QSFP112", 400, "NDR", 5, 16, -1,
	  "port_gbps", "The east-west SuperNIC of Spectrum-X, one per GPU; one 400G port and half "
	  "height read from the model name (UNVERIFIED).", NULL },
	{ "900-9D3B4-00CV", "B3220L", "BlueField-3 SuperNIC", 0, 2, "QSFP112", 200, "NDR200", 5, 16, -1,
	  "port_gbps", "Two 200G ports read from the model name, as the B3220 DPU's (UNVERIFIED).", NULL },
	{ "900-9D3B4-00SV", "B3220L", "BlueField-3 SuperNIC", 0, 2, "QSFP112", 200, "NDR200", 5, 16, -1,
	  "port_gbps", "Two 200G ports read from the model name, as the B3220 DPU's (UNVERIFIED).", NULL },
	{ NULL, "B3220SH", "BlueField-3", 1, 2, "QSFP112", 200, "NDR200", 5, 16, -1, "ports",
	  "E-Series FHHL storage controller, self-hosted: its 16 Arm cores (48 GB DDR) are the PCIe "
	  "root complex of the devices behind it, with no x86 host; not a SuperNIC, and not an "
	  "east-west NIC for GPU servers. No SKU found: give the model name.", B3220SH_SRC },
};

static void fill(struct nicfit_part *p, const struct sku *k, int by_model)
{
	p->kind = k->dpu ? NICFIT_PART_DPU : NICFIT_PART_NIC;
	setstr(p->vendor, sizeof(p->vendor), "NVIDIA");
	setstr(p->family, sizeof(p->family), k->family);
	setstr(p->protocol, sizeof(p->protocol), "VPI");
	p->ports = k->ports;
	setstr(p->cage, sizeof(p->cage), k->cage);
	p->port_gbps = k->gbps;
	setstr(p->ib_rate, sizeof(p->ib_rate), k->ib_rate);
	p->pcie_gen = k->gen;
	p->pcie_width = k->width;
	p->crypto = by_model ? -1 : k->crypto;
	p->rdma = NICFIT_RDMA_ROCE | NICFIT_RDMA_IB;
	/* a BlueField SuperNIC is half height when its model name ends in H (B3140H) */
	setstr(p->form_factor, sizeof(p->form_factor),
	       k->dpu || (!strncmp(k->family, "BlueField", 9) &&
			  k->model[strlen(k->model) - 1] != 'H') ? "pcie-fhhl" : "pcie-hhhl");
	setstr(p->driver, sizeof(p->driver), "mlx5_core");
	setstr(p->source, sizeof(p->source), k->source ? k->source : k->dpu ? DOCA_SRC :
	       !strncmp(k->family, "BlueField", 9) ? BF3_PORTS_SRC : CX8_SRC);
	if (k->source) {
		unverified(p, "port_gbps");
		unverified(p, "pcie_gen");
	}
	snprintf(p->name, sizeof(p->name), "NVIDIA %s %s%s", k->family, k->model,
		 k->dpu ? " DPU" : "");
	if (k->unverified)
		unverified(p, k->unverified);
	note(p, "%s", k->note);
	if (by_model && k->sku)
		note(p, "A model name covers several SKUs (crypto enabled or not): give the 900-... "
			"SKU for those facts.");
}

/*
 * Read a ConnectX-8 SuperNIC or BlueField-3 SKU ("900-9D3B6-00CV-AA0") or
 * model name ("B3220"): 0 decoded, <0 error, 1 neither.
 */
int nicfit__sku_decode(struct dec *d)
{
	const char *s = d->s;
	size_t i;

	if (!strncmp(s, "900-", 4)) {
		for (i = 0; i < sizeof(skus) / sizeof(skus[0]); i++)
			if (skus[i].sku && !strncmp(s, skus[i].sku, 14) && (!s[14] || s[14] == '-')) {
				fill(d->p, &skus[i], 0);
				pos(d->p, skus[i].sku, "%s %s SKU", skus[i].family, skus[i].model);
				if (s[14])
					pos(d->p, s + 14, "revision / packaging suffix, not decoded");
				return 0;
			}
		return 1;
	}
	for (i = 0; i < sizeof(skus) / sizeof(skus[0]); i++)
		if (!strcmp(s, skus[i].model)) {
			fill(d->p, &skus[i], 1);
			pos(d->p, skus[i].model, "%s model name", skus[i].family);
			return 0;
		}
	return 1;
}
