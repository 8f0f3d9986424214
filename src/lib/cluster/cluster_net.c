/*
 * cluster_net.c - one network of a cluster before and after its tiers are
 * sized: the names of networks, tiers and link levels; the switch model
 * it uses (a catalog entry or a generic switch) and whether its ports
 * split across node ports; the set-up of a network from its input; what
 * is published of it once sized; and the numbering of its switches, which
 * the walk, the port map names and the diagram read.
 *
 * It is not the sizing itself (cluster_tiers.c) nor where switches stand
 * (cluster_place.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cluster/cluster_int.h"
#include "core/compat_int.h"
#include "core/num_int.h"

const char *nicfit_net_name(enum nicfit_net n)
{
	static const char *const names[] = { "backend", "frontend", "oob" };

	return (unsigned)n < NICFIT_NET_COUNT ? names[n] : "?";
}

const char *nicfit_tier_name(enum nicfit_tier t)
{
	static const char *const names[] = { "leaf", "spine", "core" };

	return (unsigned)t < NICFIT_TIER_COUNT ? names[t] : "?";
}

const char *nicfit_link_level_name(enum nicfit_link_level l)
{
	static const char *const names[] = { "host-leaf", "leaf-spine", "spine-core", "mgmt" };

	return (unsigned)l < NICFIT_LINK_LEVELS ? names[l] : "?";
}

/* ---- switches ---------------------------------------------------------------- */

int nicfit__cluster_rate_check(double gbps, const char *opt, struct nicfit_error *err)
{
	if (nicfit__usual_cage(gbps))
		return 0;
	return nicfit_error_at(err, NICFIT_E_USAGE, opt, 0, 0,
			       "%g Gb/s is not a port rate nicfit sizes links for: give an Ethernet "
			       "speed (1, 2.5, 5, 10, 25, 40, 50, 100, 200, 400, 800, 1600) or an "
			       "InfiniBand rate (QDR, FDR, EDR, HDR100, HDR, NDR200, NDR, XDR)", gbps);
}

const char *nicfit__cluster_switch_opt(enum nicfit_net n)
{
	static const char *const o[] = { "--switch", "--frontend-switch", "--oob-switch" };

	return o[n];
}

/*
 * The height of a catalog switch from its form field ("1U", "2U", a
 * chassis's "16U"): whole units from 1 to MAX_FORM_U, the tallest rack the
 * layout takes (rack_u). Anything else (no field) is placed as 1U, the
 * size of most fixed switches this sizer designs with.
 */
#define MAX_FORM_U 60

/*
 * A generic switch of up to GENERIC_1U_PORTS ports is taken as 1U, a
 * larger one as 2U: an assumption, as 64 ports fit 1U in the catalog's
 * QM9700 (32 twin-port OSFP cages) while 64 x 800G takes 2U (SN5600).
 */
#define GENERIC_1U_PORTS 64

/*
 * A port splits into at most MAX_SPLIT legs: QSFP-DD and OSFP cages carry
 * 8 electrical lanes and a leg takes at least one. 2x, 4x and 8x are the
 * splits switch vendors list; a generic switch is assumed to offer them.
 */
#define MAX_SPLIT 8

static int form_units(const char *form)
{
	char *end = NULL;
	long u = 0;

	if (form && form[0] >= '1' && form[0] <= '9')
		u = strtol(form, &end, 10);
	return u >= 1 && u <= MAX_FORM_U && end && !strcmp(end, "U") ? (int)u : 0;
}

int nicfit__cluster_switch_u(const struct nicfit_switch *s, int ports)
{
	if (s)
		return form_units(s->form) ? form_units(s->form) : 1;
	return ports > GENERIC_1U_PORTS ? 2 : 1;
}

static int resolve_switch(const struct nicfit_catalog *cat, enum nicfit_net n,
			  const struct nicfit_cluster_net_input *ni,
			  struct nicfit_cluster_switch *sw, struct nicfit_error *err)
{
	memset(sw, 0, sizeof(*sw));
	if (ni->switch_id) {
		const struct nicfit_switch *s = NULL;

		if (cat)
			s = nicfit_catalog_find_switch(cat, ni->switch_id, nicfit__cluster_switch_opt(n), err);
		if (!s)
			return err && err->code ? err->code :
				nicfit_error_at(err, NICFIT_E_NOTFOUND, nicfit__cluster_switch_opt(n), 0, 0,
						"unknown switch '%.64s'", ni->switch_id);
		/* the front end and the management network are Ethernet (nicfit-cluster(1)) */
		if (n != NICFIT_NET_BACKEND && s->fabric && !strcmp(s->fabric, "infiniband"))
			return nicfit_error_at(err, NICFIT_E_USAGE, nicfit__cluster_switch_opt(n), 0, 0,
					       "%s is an InfiniBand switch, and the %s network is "
					       "Ethernet: give an Ethernet switch (nicfit catalog list "
					       "switches)", s->e.id,
					       n == NICFIT_NET_FRONTEND ? "front-end" : "management (OOB)");
		sw->cat = s;
		snprintf(sw->id, sizeof(sw->id), "%s", s->e.id);
		snprintf(sw->name, sizeof(sw->name), "%s", s->e.name ? s->e.name : s->e.id);
		sw->ports = s->ports;
		sw->gbps = s->port_gbps;
		/* every catalog switch names its cage (catalog_check.c), as in storage_switch() */
		snprintf(sw->cage, sizeof(sw->cage), "%s", s->cage ? s->cage : "?");
		sw->max_logical = s->max_logical_ports;
		sw->per_cage = s->ports_per_cage > 1 ? s->ports_per_cage : 1;
		sw->height_u = nicfit__cluster_switch_u(s, sw->ports);
		/* a chassis is placed by its height: taken as 1U it would stack many to a rack */
		if (s->chassis && !form_units(s->form))
			return nicfit_error_at(err, NICFIT_E_DATA, nicfit__cluster_switch_opt(n), 0, 0,
					       "chassis '%s' gives no height in whole units (form, "
					       "\"10U\"): cannot place it", sw->id);
		if (sw->ports < 2 || sw->ports > NICFIT_CLUSTER_MAX_RADIX || sw->gbps <= 0)
			return nicfit_error_at(err, NICFIT_E_DATA, nicfit__cluster_switch_opt(n), 0, 0,
					       "switch '%s' has %d ports at %g Gb/s: cannot size with it",
					       sw->id, sw->ports, sw->gbps);
		return 0;
	}
	sw->ports = ni->radix;
	sw->gbps = ni->switch_gbps > 0 ? ni->switch_gbps : ni->link_gbps;
	if (nicfit__cluster_rate_check(sw->gbps, ni->switch_gbps > 0 ? "--switch-gbps" :
				       nicfit__cluster_rate_opt(n), err))
		return err ? err->code : NICFIT_E_USAGE;
	snprintf(sw->id, sizeof(sw->id), "generic-%dx%gg", sw->ports, sw->gbps);
	snprintf(sw->name, sizeof(sw->name), "%d-port %gG switch (generic)", sw->ports, sw->gbps);
	snprintf(sw->cage, sizeof(sw->cage), "%s", nicfit__usual_cage(sw->gbps));
	sw->per_cage = 1;
	sw->height_u = nicfit__cluster_switch_u(NULL, sw->ports);
	return 0;
}

/* ---- one network ------------------------------------------------------------- */

/*
 * The two ends of network n's host links as lanes (nicfit/compat.h): the
 * catalog switch or a generic one; the back end's catalog NIC, or a
 * generic node port that, given only a rate, takes the switch's lane rate
 * when the rate is a whole number of its lanes (a 200 Gb/s port on an NDR
 * switch is NDR200, on an HDR switch HDR), in a cage that has that port
 * type: the node cage is the port's, so that the cables named for it are
 * ones that exist (NDR200 is a QSFP112 or OSFP port, never a QSFP56 one).
 * A rate given by its InfiniBand name is that port type instead, the
 * switch's lanes notwithstanding: --nic-gbps HDR is 4 x 50G PAM4 in
 * QSFP56 on an NDR switch too, two to a QM9700 cage as an HDR card is,
 * not the four NDR200 ports a bare 200 is; a card run at a slower named
 * rate (HDR100 on an HDR card) takes that rate's lanes.
 */
static void node_and_switch_ports(struct nicfit_cluster *c, enum nicfit_net n, struct cl_net *cn)
{
	struct nicfit_cluster_net *nt = &c->net[n];
	const struct nicfit_cluster_net_input *ni = &c->in.net[n];
	struct nicfit_port ib;

	memset(&ib, 0, sizeof(ib));
	if (n == NICFIT_NET_BACKEND && ni->link_ib_lanes > 0) {
		ib.l.lanes = ni->link_ib_lanes;
		ib.l.lane_gbps = ni->link_ib_lane_gbps;
		ib.l.mod = nicfit_modulation_of(ib.l.lane_gbps);
	}
	if (nt->sw.cat)
		nicfit_port_of_switch(nt->sw.cat, &cn->sw_port);
	else
		/*
		 * a generic switch at an InfiniBand rate below EDR has that
		 * rate's QSFP+ lanes (QDR 4 x 8G, FDR 4 x 13.64G), as the
		 * node port has: one lane at the whole rate is no port
		 */
		nicfit_port_generic(nt->sw.cage, nt->sw.gbps, 1, nt->sw.per_cage,
				    ib.l.lanes > 0 && ib.l.lane_gbps < 25 - NICFIT_EPS ? &ib : NULL,
				    &cn->sw_port);
	if (n == NICFIT_NET_BACKEND && c->nic) {
		nicfit_port_of_nic(c->nic, &cn->node_port);
		/* the link may run a card slower than its top rate (--nic-gbps) */
		if (ni->link_gbps < cn->node_port.gbps - NICFIT_EPS) {
			struct nicfit_lanes l;

			if (ib.l.lanes > 0)
				cn->node_port.l = ib.l;
			else if (!nicfit_lanes_of(nt->node_cage, ni->link_gbps, &l))
				cn->node_port.l = l;
			cn->node_port.gbps = ni->link_gbps;
		}
		/* ports that share the node's twin-port cages: one module takes both */
		if (c->in.nic_ports_per_cage > 1) {
			cn->node_port.per_cage = c->in.nic_ports_per_cage;
			cn->node_port.finned = c->in.nic_cage_finned;
		}
	} else if (n == NICFIT_NET_FRONTEND && c->ns_nic &&
		   fabs(c->ns_nic->port_gbps - ni->link_gbps) < NICFIT_EPS) {
		/* the server's own north-south card (--server) at its own rate */
		nicfit_port_of_nic(c->ns_nic, &cn->node_port);
		snprintf(nt->node_cage, sizeof(nt->node_cage), "%s", cn->node_port.cage);
	} else if (n == NICFIT_NET_BACKEND && c->integrated && c->gpu && c->gpu->scaleout_cage) {
		/* the accelerators' own cages (integrated_ports): the catalog names them */
		nicfit_port_generic(c->gpu->scaleout_cage, ni->link_gbps, 0, 1, &cn->sw_port,
				    &cn->node_port);
		snprintf(nt->node_cage, sizeof(nt->node_cage), "%s", cn->node_port.cage);
	} else if (ib.l.lanes > 0) {
		/* InfiniBand below EDR (SDR to FDR) came in QSFP+ (QSFP) ports */
		nicfit_port_generic(ib.l.lane_gbps < 25 - NICFIT_EPS ? "QSFP+" : NULL, ni->link_gbps,
				    0, 1, &ib, &cn->node_port);
		if (cn->node_port.l.lanes != ib.l.lanes ||
		    fabs(cn->node_port.l.lane_gbps - ib.l.lane_gbps) > NICFIT_EPS)
			cn->node_port.l = ib.l;
		snprintf(cn->node_port.id, sizeof(cn->node_port.id), "%s %g Gb/s %s port",
			 ni->link_ib, ni->link_gbps, cn->node_port.cage);
		snprintf(nt->node_cage, sizeof(nt->node_cage), "%s", cn->node_port.cage);
	} else {
		nicfit_port_generic(NULL, ni->link_gbps, 0, 1, &cn->sw_port, &cn->node_port);
		snprintf(nt->node_cage, sizeof(nt->node_cage), "%s", cn->node_port.cage);
	}
}

/*
 * Switch ports one port split into b legs takes. A switch that limits
 * its logical ports to max_logical_ports gives each of its ports an equal
 * share of them (max_logical / ports); a split into more legs than that
 * share takes the shares of its neighbours, whose ports are then unusable.
 * Why: on Spectrum-1 (SN2700: 32 ports, 64 logical) each pair of modules
 * shares four local ports; a 4-way split takes all four and removes the
 * neighbour module's port (Linux mlxsw, spectrum.c mlxsw_sp_port_split(),
 * "Invalid split configuration" unless the cluster's other ports are
 * free), so 16 ports split 4 ways give the 64 logical ports, and a 2-way
 * split fits every port. Switches that list no limit: 1.
 */
int nicfit__cluster_split_stride(const struct nicfit_cluster_switch *sw, int b)
{
	int share;

	if (b <= 1 || sw->max_logical <= 0 || sw->ports <= 0)
		return 1;
	share = sw->max_logical / sw->ports;
	if (share < 1)
		share = 1;
	return b > share ? (b + share - 1) / share : 1;
}

const char *nicfit__cluster_rate_opt(enum nicfit_net n)
{
	static const char *const o[] = { "--nic-gbps", "--frontend-gbps", "--oob-switch" };

	return o[n];
}

/*
 * A scheduled fabric (catalog "scheduled"): its leaf serves the back end,
 * and its fabric ports go to the cell switch the catalog names; a cell
 * switch itself has no Ethernet host port and is never a leaf.
 */
static int scheduled_setup(const struct nicfit_catalog *cat, enum nicfit_net n,
			   struct nicfit_cluster_net *nt, struct nicfit_error *err)
{
	const struct nicfit_switch *s = nt->sw.cat, *f;
	struct nicfit_cluster_switch *fw = &nt->fabric;

	if (!s || !s->scheduled)
		return 0;
	if (!strcmp(s->scheduled, "fabric"))
		return nicfit_error_at(err, NICFIT_E_USAGE, nicfit__cluster_switch_opt(n), 0, 0,
				       "%s is a cell switch of a scheduled fabric: it joins leaves "
				       "and has no Ethernet port for a node; give its leaf (nicfit "
				       "catalog list switches)", s->e.id);
	if (n != NICFIT_NET_BACKEND)
		return nicfit_error_at(err, NICFIT_E_USAGE, nicfit__cluster_switch_opt(n), 0, 0,
				       "%s is the leaf of a scheduled fabric, sized for the back end "
				       "only: give a packet switch for the %s network", s->e.id,
				       nicfit_net_name(n));
	f = s->fabric_switch ? nicfit_catalog_find_switch(cat, s->fabric_switch,
							  nicfit__cluster_switch_opt(n), err) : NULL;
	if (!f || !f->scheduled || strcmp(f->scheduled, "fabric") || f->ports < 2 ||
	    f->ports > NICFIT_CLUSTER_MAX_RADIX || s->uplink_ports < 1)
		return nicfit_error_at(err, NICFIT_E_DATA, nicfit__cluster_switch_opt(n), 0, 0,
				       "%s: the catalog gives no usable fabric switch for its "
				       "fabric ports", s->e.id);
	nt->scheduled = 1;
	fw->cat = f;
	snprintf(fw->id, sizeof(fw->id), "%s", f->e.id);
	snprintf(fw->name, sizeof(fw->name), "%s", f->e.name ? f->e.name : f->e.id);
	fw->ports = f->ports;
	fw->gbps = f->port_gbps;
	snprintf(fw->cage, sizeof(fw->cage), "%s", f->cage ? f->cage : "?");
	fw->per_cage = 1;
	fw->height_u = nicfit__cluster_switch_u(f, f->ports);
	return 0;
}

int nicfit__cluster_net_setup(struct nicfit_cluster *c, enum nicfit_net n, struct leafdes *d,
			      struct nicfit_error *err)
{
	const struct nicfit_cluster_net_input *ni = &c->in.net[n];
	struct nicfit_cluster_net *nt = &c->net[n];
	struct cl_net *cn = &c->impl->net[n];
	const char *cage = NULL;
	int rc;

	nt->enabled = 1;
	nt->links_per_node = ni->links_per_node;
	nt->link_gbps = ni->link_gbps;
	nt->planes = n == NICFIT_NET_BACKEND ? ni->planes : 1;
	cn->kp = ni->links_per_node / nt->planes;
	rc = resolve_switch(c->impl->cat, n, ni, &nt->sw, err);
	if (!rc)
		rc = scheduled_setup(c->impl->cat, n, nt, err);
	if (rc)
		return rc;
	if (n == NICFIT_NET_BACKEND && c->nic)
		cage = c->nic->cage;
	if (n == NICFIT_NET_FRONTEND && c->ns_nic &&
	    fabs(c->ns_nic->port_gbps - ni->link_gbps) < NICFIT_EPS)
		cage = c->ns_nic->cage;
	if (!cage && nicfit__cluster_rate_check(ni->link_gbps, nicfit__cluster_rate_opt(n), err))
		return err ? err->code : NICFIT_E_USAGE;
	snprintf(nt->node_cage, sizeof(nt->node_cage), "%s",
		 cage ? cage : nicfit__usual_cage(ni->link_gbps));
	if (nt->sw.gbps < ni->link_gbps - NICFIT_EPS)
		return nicfit_error_at(err, NICFIT_E_USAGE, nicfit__cluster_rate_opt(n), 0, 0,
				       "%s: node ports at %g Gb/s are faster than the %s ports (%g Gb/s)",
				       nicfit_net_name(n), ni->link_gbps, nt->sw.id, nt->sw.gbps);
	d->ni = ni;
	d->sw = &nt->sw;
	d->b = 1;
	node_and_switch_ports(c, n, cn);
	nicfit_port_match(&cn->node_port, &cn->sw_port, ni->breakout, &nt->fit);
	if (nt->fit.kind == NICFIT_MATCH_DIRECT && nt->fit.per_port > 1 &&
	    nt->fit.per_port <= MAX_SPLIT)
		d->b = nt->fit.per_port;
	nt->breakout = d->b;
	d->stride = nicfit__cluster_split_stride(&nt->sw, d->b);
	nt->split_stride = d->stride;
	nt->port_gbps = ni->link_gbps * d->b;
	nt->rails = n == NICFIT_NET_FRONTEND ? ni->links_per_node :
		    ni->rail_optimized || ni->rail_only ? cn->kp : 1;
	nt->endpoints = c->in.nodes * ni->links_per_node;
	return 0;
}

void nicfit__cluster_net_publish(struct nicfit_cluster *c, enum nicfit_net n,
				 const struct leafdes *d)
{
	struct nicfit_cluster_net *nt = &c->net[n];
	struct cl_net *cn = &c->impl->net[n];
	int t;

	nt->tiers = cn->tiers;
	nt->endpoints_per_leaf = cn->elaf;
	nt->uplinks_per_leaf = cn->tiers > 1 ? cn->u : 0;
	nt->leaf_ratio = cn->tiers > 1 ? (double)cn->elaf * d->ni->link_gbps /
					 ((double)cn->u * (nt->scheduled ? nt->fabric.gbps : nt->sw.gbps)) : 1;
	nt->pods = cn->pods;
	nt->leaves_per_pod = cn->lpp;
	nt->spines_per_pod = cn->tiers == 3 || cn->rail_pods ? cn->spines : 0;
	nt->cores_per_group = cn->cg;
	nt->tier[NICFIT_TIER_LEAF].down = cn->down;
	nt->tier[NICFIT_TIER_LEAF].up = nt->uplinks_per_leaf;
	if (cn->tiers >= 2) {
		nt->tier[NICFIT_TIER_SPINE].down = cn->sdown;
		nt->tier[NICFIT_TIER_SPINE].up = cn->tiers == 3 ? cn->sup : 0;
	}
	if (cn->tiers == 3)
		nt->tier[NICFIT_TIER_CORE].down = (int)cdiv(cn->pods * cn->sup, cn->cg);
	cn->per_plane = 0;
	for (t = 0; t < NICFIT_TIER_COUNT; t++) {
		nt->tier[t].switches = cn->tier_sw[t] * nt->planes;
		cn->per_plane += cn->tier_sw[t];
		cn->digits[t] = digits(cn->tier_sw[t] > 0 ? cn->tier_sw[t] : 1);
		if (cn->digits[t] < 2)
			cn->digits[t] = 2;
	}
}

/* ---- switch numbering -------------------------------------------------------- */

void nicfit__cluster_switch_of(const struct nicfit_cluster *c, long s, enum nicfit_net *net,
			       int *plane, enum nicfit_tier *tier, long *idx)
{
	const struct nicfit_cluster_impl *im = c->impl;
	int n, t;

	for (n = NICFIT_NET_COUNT - 1; n >= 0; n--)
		if (c->net[n].enabled && im->net[n].per_plane > 0 && s >= im->net[n].base)
			break;
	if (n < 0)
		n = 0;
	*net = n;
	s -= im->net[n].base;
	*plane = (int)(s / im->net[n].per_plane);
	s %= im->net[n].per_plane;
	for (t = 0; t < NICFIT_TIER_COUNT - 1 && s >= im->net[n].tier_sw[t]; t++)
		s -= im->net[n].tier_sw[t];
	*tier = t;
	*idx = s;
}

long nicfit__cluster_switch_id(const struct nicfit_cluster *c, enum nicfit_net n, int plane,
			       enum nicfit_tier t, long idx)
{
	const struct cl_net *cn = &c->impl->net[n];
	long s = cn->base + plane * cn->per_plane + idx;
	int i;

	for (i = 0; i < (int)t; i++)
		s += cn->tier_sw[i];
	return c->in.nodes + s;
}
