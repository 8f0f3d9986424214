/*
 * node_kind.c - the networks a node of a given kind gets by default
 * (core/node_kind_int.h): `nicfit cluster` sizes its networks from them
 * and `nicfit plan` judges a node's north-south against them, so the two
 * commands cannot drift apart on what an HGX/DGX node is built with.
 */
#include <string.h>

#include "nicfit/catalog.h"
#include "core/node_kind_int.h"

/*
 * The north-south rate of a baseboard node: NVIDIA's HGX enterprise
 * reference architecture ("Network Logical Architecture",
 * https://docs.nvidia.com/enterprise-reference-architectures/
 * hgx-ai-factory-h100-h200-b200/latest/network-logical-architecture.html)
 * connects each H100, H200 and B200 node to the storage and in-band
 * network with two 200GbE ports to two switches. A B300 node, whose
 * compute NICs are 800G ConnectX-8, has two 400GbE ports there: the DGX
 * B300's two BlueField-3 storage and in-band cards run up to 400GbE each
 * (docs/reference/baseboard-servers.md, from NVIDIA's DGX B300 user
 * guide, BasePOD and SuperPOD documents). The B300
 * class is told by its back-end rate, not by a GPU name, so a catalog
 * GPU added later is sized by what its node carries.
 */
#define NS_GBPS 200
#define NS_GBPS_800G 400
#define BACKEND_800G 800

void nicfit_node_kind(const struct nicfit_gpu *gpu, int gpus_per_node, double backend_gbps,
		      struct nicfit_node_kind *k)
{
	memset(k, 0, sizeof(*k));
	if (gpus_per_node != NICFIT_BASEBOARD_GPUS)
		return;
	/* a PCIe card, or a rack-scale GPU whose NVLink domain spans trays */
	if (gpu && (!gpu->baseboard || gpu->nvlink_domain > NICFIT_BASEBOARD_GPUS))
		return;
	/*
	 * The defaults are NVIDIA's design for its own baseboards: an AMD
	 * Instinct or Intel Gaudi node keeps the sizer's general defaults
	 * rather than be told it follows an NVIDIA reference architecture.
	 */
	if (gpu && gpu->vendor && strcmp(gpu->vendor, "NVIDIA"))
		return;
	k->baseboard = 1;
	k->rail_optimized = 1;
	k->ns_links = 2;
	k->ns_switches = 2;
	k->ns_gbps = backend_gbps >= BACKEND_800G ? NS_GBPS_800G : NS_GBPS;
	k->storage_dual_homed = 1;
	k->source = backend_gbps >= BACKEND_800G ?
		    "NVIDIA's DGX/HGX B300 design" :
		    "NVIDIA's HGX H100/H200/B200 reference architecture";
}
