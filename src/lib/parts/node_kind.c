/*
 * node_kind.c - the networks a node of a given kind gets by default
 * (core/node_kind_int.h): `nicfit cluster` sizes its networks from them
 * and `nicfit plan` judges a node's north-south against them, so the two
 * commands cannot drift apart on what an HGX/DGX node is built with.
 */
#include <string.h>

#include "nicfit/catalog.h"
#include "nicfit/compat.h"
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

/* ---- the back-end switch ---------------------------------------------------- */

/*
 * Port, lane and cable speeds are catalog figures (25, 100, 53.125...):
 * two are the same speed within a hundredth of a Gb/s.
 */
#define SPEED_MATCH_GBPS 0.01

/* nicfit cluster assumes the same generic port for a rate given alone. */
void nicfit_node_kind_port(const struct nicfit_nic *nic, double gbps, const struct nicfit_port *sw,
			 struct nicfit_port *out)
{
	struct nicfit_lanes l;

	if (!nic) {
		nicfit_port_generic(NULL, gbps, 0, 1, sw, out);
		return;
	}
	nicfit_port_of_nic(nic, out);
	if (gbps < out->gbps - SPEED_MATCH_GBPS) {
		if (!nicfit_lanes_of(out->cage, gbps, &l))
			out->l = l;
		out->gbps = gbps;
	}
}

/*
 * A catalog switch for `links` server links of `gbps` each on `fabric`,
 * judged by what its ports take of the card's link as lanes (compat.c's
 * nicfit_port_match(), the rule nicfit cluster sizes with), not by its
 * rate alone: an NDR twin-port cage takes two HDR ports, not the four its
 * NDR200 split mode lists; a Spectrum-4 cage splits for a 400G
 * ConnectX-7, a Spectrum-3 QSFP-DD (8 x 50G) meets it only through a pair
 * of optics. The smallest switch that takes every link, one whose lanes
 * meet the card's directly first (copper or one AOC per link, as NVIDIA's
 * LinkX guides pair them), one that needs optics at both ends only when
 * none does; when none takes every link, the one that takes the most for
 * a leaf-spine fabric, direct before optics again. Between two that are
 * otherwise equal, the one the catalog lists PFC/ECN for: RoCE needs a
 * lossless fabric, and a switch whose lossless support no source confirms
 * (the Arista entries) would add a warning the equal NVIDIA one does not
 * need; on InfiniBand no switch carries the flag, so nothing changes there.
 * A scheduled fabric's leaf or cell switch is never picked: it is a design of
 * its own, which nicfit cluster --switch names; nor is a modular chassis
 * (catalog "chassis"), whose one frame would otherwise win over a handful of
 * fixed switches for any cluster its ports hold.
 * NULL when no catalog
 * switch of the fabric meets the card at all; *split gets the card ports
 * per switch port.
 */
static const struct nicfit_switch *pick_switch(const struct nicfit_catalog *cat,
					       const char *fabric, const struct nicfit_nic *nic,
					       double gbps, long links, int *split)
{
	const struct nicfit_switch *best = NULL, *largest = NULL;
	long best_ports = 0, largest_ports = 0;
	int best_split = 1, largest_split = 1;
	enum nicfit_match_kind best_kind = NICFIT_MATCH_NONE, largest_kind = NICFIT_MATCH_NONE;
	size_t i, count = nicfit_catalog_count(cat, NICFIT_KIND_SWITCH);

	for (i = 0; i < count; i++) {
		const struct nicfit_switch *s = nicfit_catalog_switch(cat, i);
		struct nicfit_port sp, np;
		struct nicfit_port_match m;
		long ports;

		/* a scheduled fabric and a chassis are designs of their own: cluster
		 * --switch names them */
		if (strcmp(s->fabric, fabric) || s->scheduled || s->chassis)
			continue;
		nicfit_port_of_switch(s, &sp);
		nicfit_node_kind_port(nic, gbps, &sp, &np);
		if (nicfit_port_match(&np, &sp, 1, &m) == NICFIT_MATCH_NONE)
			continue;
		ports = s->ports * m.per_port;
		if (s->max_logical_ports && ports > s->max_logical_ports)
			ports = s->max_logical_ports;
		/* direct before optics, then the most ports */
		if (!largest || m.kind < largest_kind ||
		    (m.kind == largest_kind && (ports > largest_ports ||
						(ports == largest_ports && s->lossless &&
						 !largest->lossless)))) {
			largest = s;
			largest_kind = m.kind;
			largest_ports = ports;
			largest_split = m.per_port;
		}
		if (ports < links)
			continue;
		/* direct before optics, then the fewest ports, the fewest legs per port, lossless */
		if (!best || m.kind < best_kind ||
		    (m.kind == best_kind &&
		     (ports < best_ports ||
		      (ports == best_ports && (m.per_port < best_split ||
					       (m.per_port == best_split && s->lossless &&
						!best->lossless)))))) {
			best = s;
			best_kind = m.kind;
			best_ports = ports;
			best_split = m.per_port;
		}
	}
	if (best) {
		*split = best_split;
		return best;
	}
	*split = largest_split;
	return largest;
}

/*
 * The switch of a rack-scale system's reference design (rack.fabric_switch)
 * when it runs the fabric and its ports take the card's link; NULL when
 * there is none, or it does not.
 */
static const struct nicfit_switch *design_switch(const struct nicfit_catalog *cat,
						 const struct nicfit_server *sv, const char *fabric,
						 const struct nicfit_nic *nic, double gbps, int *split)
{
	const struct nicfit_switch *s;
	struct nicfit_port sp, np;
	struct nicfit_port_match m;

	if (!sv || !sv->rack_trays || !sv->rack_fabric_switch)
		return NULL;
	s = nicfit_catalog_find_switch(cat, sv->rack_fabric_switch, NULL, NULL);
	if (!s || strcmp(s->fabric, fabric))
		return NULL;
	nicfit_port_of_switch(s, &sp);
	nicfit_node_kind_port(nic, gbps, &sp, &np);
	if (nicfit_port_match(&np, &sp, 1, &m) == NICFIT_MATCH_NONE)
		return NULL;
	*split = m.per_port;
	return s;
}

const struct nicfit_switch *nicfit_node_kind_switch(const struct nicfit_catalog *cat,
						    const struct nicfit_server *sv,
						    const char *fabric, const struct nicfit_nic *nic,
						    double gbps, long links, int *split)
{
	const struct nicfit_switch *s;

	*split = 1;
	if (!cat || !fabric)
		return NULL;
	s = design_switch(cat, sv, fabric, nic, gbps, split);
	return s ? s : pick_switch(cat, fabric, nic, gbps, links, split);
}

int nicfit_node_kind_builtin_ib(const struct nicfit_nic *builtin)
{
	return builtin && (builtin->rdma & NICFIT_RDMA_IB) && builtin->vendor &&
	       !strcmp(builtin->vendor, "NVIDIA");
}

static long gcd_l(long a, long b)
{
	while (b) {
		long r = a % b;

		a = b;
		b = r;
	}
	return a;
}

void nicfit_rack_domains(const struct nicfit_server *sv, const struct nicfit_gpu *gpu,
			 int gpus_per_tray, long trays, struct nicfit_rack_domains *d)
{
	int t;

	memset(d, 0, sizeof(*d));
	d->group_trays = 1;
	if (!sv || !gpu || sv->rack_trays < 1 || gpus_per_tray < 1 ||
	    gpu->nvlink_domain <= gpus_per_tray || gpu->nvlink_domain % gpus_per_tray)
		return;
	t = gpu->nvlink_domain / gpus_per_tray;
	if (t > sv->rack_trays)
		t = sv->rack_trays;
	if (t < 2)
		return;
	d->rack_trays = t;
	if (trays < 1)
		return;
	d->whole = trays / t;
	d->partial = (int)(trays % t);
	d->partial_gpus = d->partial * gpus_per_tray;
	if (trays < 2)
		return;
	d->largest_gpus = (int)(trays < t ? trays : t) * gpus_per_tray;
	d->group_trays = (int)(trays <= t ? trays : gcd_l(t, trays));
}
