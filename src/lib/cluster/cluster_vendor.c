/*
 * cluster_vendor.c - what each vendor documents for RoCE on an Ethernet
 * back end, beyond the generic checklist of cluster_explain.c (PFC on the
 * RoCE priority, ECN for DCQCN, DSCP trust, MTU 9000): the switch
 * operating system's own switch for RoCE, and the NIC's own RoCE profile
 * or transport. It records decisions only ("cluster.roce"); it judges
 * nothing and raises no finding. Only vendors whose documents nicfit cites
 * are named; any other switch or NIC gets the generic checklist alone.
 *
 * Sources:
 * - AMD ROCm, "RDMA over Converged Ethernet Configuration Guide"
 *   (ROCm/gpu-cluster-networking): Dell SONiC switches take `roce enable`
 *   in configuration mode (then a reboot when prompted); Arista EOS
 *   carries RoCE by default and needs PFC enabled for the RoCE traffic
 *   class on each port; Broadcom Thor2 NICs need RDMA on in NVM
 *   (`niccli -i <index> nvm -setoption support_rdma -value 1 -scope 0`)
 *   and mark RoCE v2 with DSCP 26 on priority 3 (PFC on) and CNPs with
 *   DSCP 48 on priority 7 (`niccli -dev <index> get_qos`), as Broadcom's
 *   "BCM957608 Ethernet Networking Guide for AMD Instinct MI300X GPU
 *   Clusters" recommends.
 * - AMD Pensando Pollara 400 product page (the first UEC-ready AI NIC) and
 *   AMD's Hot Chips 2025 presentation as reported: its Ultra Ethernet
 *   transport sprays packets over every path, accepts them out of order
 *   and retransmits selectively; towards other NICs it runs RoCE v2.
 */
#include <string.h>

#include "cluster/cluster_int.h"
#include "core/finding_int.h"
#include "core/gpu_stack_int.h"

/*
 * The back end on the accelerators' own ports (cluster.c's
 * integrated_ports(), Intel Gaudi "Network Configuration"): what the node
 * brings out, and the library and test that run over it.
 */
void nicfit__cluster_explain_integrated(struct nicfit_cluster *c)
{
	const struct nicfit_gpu *g = c->gpu;
	const struct nicfit__gpu_stack *st = nicfit__gpu_stack_of(g->vendor, g->e.name);
	const struct nicfit_cluster_net *be = &c->net[NICFIT_NET_BACKEND];

	nicfit__decide(&c->decisions, "cluster.integrated", 1,
		       "back end: %s scales out over its own ports, no NIC cards: %d GPUs x %d x %g "
		       "GbE = %d ports per node, %d to each %s cage: %d x %g Gb/s node links; a "
		       "switch port takes a whole cage%s. %s runs the collectives over them (test "
		       "with %s)", g->e.name, c->in.gpus_per_node, g->scaleout_ports,
		       g->scaleout_gbps, c->in.gpus_per_node * g->scaleout_ports,
		       g->scaleout_per_cage, g->scaleout_cage ? g->scaleout_cage : "node",
		       be->links_per_node, be->link_gbps,
		       be->breakout > 1 ? ", split across the node's cages" : "", st->ccl, st->tests);
}

static void switch_roce(struct nicfit_cluster *c, const struct nicfit_switch *s)
{
	if (!strcmp(s->vendor, "Dell"))
		nicfit__decide(&c->decisions, "cluster.roce", 1,
			       "back end: %s runs Dell SONiC: turn RoCE on with `roce enable` in "
			       "configuration mode, reboot "
			       "when prompted, and name ports the standard extended way "
			       "(`interface-naming standard extended`) so Eth1/N matches the panel",
			       c->net[NICFIT_NET_BACKEND].sw.id);
	else if (!strcmp(s->vendor, "Arista"))
		nicfit__decide(&c->decisions, "cluster.roce", 1,
			       "back end: %s runs Arista EOS, which carries RoCE by default: enable "
			       "PFC for the RoCE traffic class on every port that carries it%s",
			       c->net[NICFIT_NET_BACKEND].sw.id, c->net[NICFIT_NET_BACKEND].scheduled &&
			       c->net[NICFIT_NET_BACKEND].tiers > 1 ?
			       " (its node ports: the fabric ports carry cells, not Ethernet)" : "");
}

static void nic_roce(struct nicfit_cluster *c, const struct nicfit_nic *n)
{
	const char *part = n->part ? n->part : n->e.id;

	if (n->family && !strncmp(n->family, "Broadcom BCM576", 15))
		nicfit__decide(&c->decisions, "cluster.roce", 1,
			       "back end: %s (Broadcom Thor2): turn RDMA on in the card's NVM (`niccli "
			       "-i INDEX nvm -setoption support_rdma -value 1 -scope 0`); its RoCE "
			       "profile marks RoCE v2 DSCP 26 on priority 3 with PFC and CNPs DSCP 48 "
			       "on priority 7 (check with `niccli -dev INDEX get_qos`): map the same "
			       "DSCPs to the same priorities on the switch", part);
	else if (n->family && !strcmp(n->family, "AMD Pensando"))
		nicfit__decide(&c->decisions, "cluster.roce", 1,
			       "back end: %s is UEC-ready: between Pollara cards its Ultra Ethernet "
			       "transport sprays packets over every path, takes them out of order and "
			       "retransmits only what was lost, so it leans less on a lossless fabric; "
			       "towards other NICs it runs RoCE v2, so keep PFC and ECN as above until "
			       "every endpoint is a Pollara", part);
}

void nicfit__cluster_vendor_roce(struct nicfit_cluster *c)
{
	const struct nicfit_switch *s = c->net[NICFIT_NET_BACKEND].sw.cat;

	if (s && s->vendor)
		switch_roce(c, s);
	if (c->nic)
		nic_roce(c, c->nic);
}
