/*
 * compat.c - ports as lanes, and the one rule that says whether a node
 * port meets a switch port and through what (nicfit/compat.h): the lanes
 * each port type has, ports built from catalog entries, the port-to-port
 * fit, and whether one end of a cable or optic plugs into and runs in a
 * given cage.
 *
 * It chooses no cable (the cluster's and plan's cable rules do, asking
 * this file what fits) and holds no part facts beyond the port types the
 * standards define; those are in the data files with their sources.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nicfit/compat.h"
#include "core/compat_int.h"
#include "core/num_int.h"

/*
 * Two lane rates are one rate within RATE_EPS Gb/s: catalog rates are
 * written with a few decimals at most, and ratios of them must come out
 * whole.
 */
#define RATE_EPS 1e-6

/* NRZ signalling reaches 25G lanes; 50G and faster lanes are PAM4 (IEEE 802.3cd, 802.3ck). */
#define NRZ_MAX_LANE_GBPS 25

const char *nicfit_modulation_name(enum nicfit_modulation m)
{
	return m == NICFIT_MOD_NRZ ? "NRZ" : m == NICFIT_MOD_PAM4 ? "PAM4" : "?";
}

enum nicfit_modulation nicfit_modulation_of(double lane_gbps)
{
	if (!(lane_gbps > 0))
		return NICFIT_MOD_UNKNOWN;
	return lane_gbps <= NRZ_MAX_LANE_GBPS + RATE_EPS ? NICFIT_MOD_NRZ : NICFIT_MOD_PAM4;
}

const char *nicfit_match_kind_name(enum nicfit_match_kind k)
{
	static const char *const n[] = { "none", "direct", "optics" };

	return (unsigned)k <= NICFIT_MATCH_OPTICS ? n[k] : "?";
}

/* ---- lanes of a port type ---------------------------------------------------- */

/*
 * The port types of IEEE 802.3 and the IBTA, by cage and rate: lanes of
 * one logical port and the rate of each. QSFP-DD and OSFP cages have 8
 * lanes: 400G there is 8 x 50G (400GBASE-CR8, Spectrum-3) unless the cage
 * is an OSFP, where NVIDIA's single-port 400G (NDR, ConnectX-7) is
 * 4 x 100G; 800G is 8 x 100G, a twin-port OSFP cage. Facts: IEEE 802.3bj
 * (100GBASE-CR4), 802.3by (25G), 802.3cd (50G PAM4 lanes), 802.3bs/cd
 * (200G/400G), 802.3ck (100G lanes); IBTA EDR/HDR/NDR lane rates; NVIDIA
 * LinkX splitter specifications (MCP7Y00/MCP7Y50/MCP7Y60/MCP7Y70).
 */
static const struct {
	const char *cage;
	double gbps;
	int lanes;
	double lane_gbps;
} port_types[] = {
	{ "RJ45", 1, 1, 1 }, { "RJ45", 10, 1, 10 },
	{ "SFP", 1, 1, 1 }, { "SFP+", 10, 1, 10 }, { "SFP28", 25, 1, 25 }, { "SFP28", 10, 1, 10 },
	{ "SFP56", 50, 1, 50 }, { "SFP112", 100, 1, 100 }, { "DSFP", 100, 2, 50 },
	{ "QSFP+", 40, 4, 10 }, { "QSFP+", 56, 4, 14 },
	{ "QSFP28", 100, 4, 25 }, { "QSFP28", 50, 2, 25 }, { "QSFP28", 40, 4, 10 },
	{ "QSFP56", 200, 4, 50 }, { "QSFP56", 100, 2, 50 }, { "QSFP56", 50, 1, 50 },
	{ "QSFP112", 400, 4, 100 }, { "QSFP112", 200, 2, 100 }, { "QSFP112", 100, 1, 100 },
	{ "QSFP-DD", 400, 8, 50 }, { "QSFP-DD", 800, 8, 100 }, { "QSFP-DD", 200, 4, 50 },
	{ "QSFP-DD", 100, 4, 25 },
	{ "OSFP", 800, 8, 100 }, { "OSFP", 400, 4, 100 }, { "OSFP", 200, 2, 100 },
	{ "OSFP", 1600, 8, 200 },
};

int nicfit_lanes_of(const char *cage, double gbps, struct nicfit_lanes *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!cage)
		return -1;
	for (i = 0; i < sizeof(port_types) / sizeof(port_types[0]); i++)
		if (!strcasecmp(port_types[i].cage, cage) && fabs(port_types[i].gbps - gbps) < RATE_EPS) {
			out->lanes = port_types[i].lanes;
			out->lane_gbps = port_types[i].lane_gbps;
			out->mod = nicfit_modulation_of(out->lane_gbps);
			return 0;
		}
	return -1;
}

/* The lanes of a port: given ones win; else the port type; else one lane at the port rate. */
static void lanes_or_derive(const char *cage, double gbps, int lanes, double lane_gbps,
			    struct nicfit_lanes *l)
{
	if (lanes > 0 && lane_gbps > 0) {
		l->lanes = lanes;
		l->lane_gbps = lane_gbps;
	} else if (lanes > 0) {
		l->lanes = lanes;
		l->lane_gbps = gbps / lanes;
	} else if (nicfit_lanes_of(cage, gbps, l)) {
		l->lanes = 1;
		l->lane_gbps = gbps;
	}
	l->mod = nicfit_modulation_of(l->lane_gbps);
}

/* ---- ports from the catalog -------------------------------------------------- */

static int is_osfp(const char *cage)
{
	return cage && !strcasecmp(cage, "OSFP");
}

void nicfit_port_of_nic(const struct nicfit_nic *n, struct nicfit_port *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->id, sizeof(p->id), "%s", n->part ? n->part : n->e.id);
	snprintf(p->cage, sizeof(p->cage), "%s", n->cage ? n->cage : "?");
	p->per_cage = 1;
	p->gbps = n->port_gbps;
	p->intel_coded = n->module_coding && !strcasecmp(n->module_coding, "intel");
	lanes_or_derive(n->cage, n->port_gbps, n->lanes, n->lane_gbps, &p->l);
}

/* The "NxG" split modes of a catalog switch. */
static void parse_splits(const struct nicfit_switch *s, struct nicfit_port *p)
{
	int i;

	for (i = 0; i < s->nbreakout && p->nsplits < NICFIT_PORT_MAX_SPLITS; i++) {
		const char *b = s->breakout[i], *x = strchr(b, 'x');
		char *end;
		long legs;
		double g;

		if (!x)
			continue;
		legs = strtol(b, &end, 10);
		if (end != x || legs < 2 || legs > 8)
			continue;
		g = strtod(x + 1, &end);
		if (*end || !(g > 0))
			continue;
		p->split_legs[p->nsplits] = (int)legs;
		p->split_gbps[p->nsplits++] = g;
	}
}

void nicfit_port_of_switch(const struct nicfit_switch *s, struct nicfit_port *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	snprintf(p->id, sizeof(p->id), "%s", s->e.id);
	snprintf(p->cage, sizeof(p->cage), "%s", s->cage ? s->cage : "?");
	p->is_switch = 1;
	p->finned = is_osfp(s->cage);
	p->per_cage = s->ports_per_cage > 1 ? s->ports_per_cage : 1;
	p->gbps = s->port_gbps;
	if (s->lanes_per_port > 0 || s->lane_gbps > 0) {
		lanes_or_derive(s->cage, s->port_gbps, s->lanes_per_port > 0 ? s->lanes_per_port :
				(int)lround(s->port_gbps / s->lane_gbps), s->lane_gbps, &p->l);
	} else if (p->per_cage > 1) {
		/* a twin-port cage: the cage's lanes shared by its logical ports */
		lanes_or_derive(s->cage, s->port_gbps * p->per_cage, 0, 0, &p->l);
		p->l.lanes /= p->per_cage;
		if (p->l.lanes < 1)
			p->l.lanes = 1;
	} else {
		lanes_or_derive(s->cage, s->port_gbps, 0, 0, &p->l);
	}
	for (i = 0; i < s->nlane_rates && i < NICFIT_MAX_LIST; i++)
		p->lane_rates[p->nlane_rates++] = s->lane_rates[i];
	parse_splits(s, p);
}

/* FDR's 54.5454... Gb/s is 54.55 as nicfit prints it; no two rates are this close */
#define CAGE_RATE_SLACK 0.006

/*
 * IEEE 802.3's rates (2.5GBASE-T and 5GBASE-T are RJ45 too) and
 * InfiniBand's QDR (4 x 8 Gb/s) and FDR (4 x 13.64 Gb/s), both QSFP+
 * (IBTA vol. 2).
 */
const char *nicfit__usual_cage(double gbps)
{
	static const struct { double g; const char *cage; } t[] = {
		{ 1, "RJ45" }, { 2.5, "RJ45" }, { 5, "RJ45" }, { 10, "SFP+" }, { 25, "SFP28" },
		{ 32, "QSFP+" }, { 40, "QSFP+" }, { 50, "SFP56" }, { 14.0625 * 64 / 66 * 4, "QSFP+" },
		{ 100, "QSFP28" }, { 200, "QSFP56" }, { 400, "OSFP" }, { 800, "OSFP" },
		{ 1600, "OSFP" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (fabs(t[i].g - gbps) < CAGE_RATE_SLACK)
			return t[i].cage;
	return NULL;
}

static const char *usual_cage(double gbps)
{
	const char *c = nicfit__usual_cage(gbps);

	return c ? c : "?";
}

/* Is (lanes x lane_gbps) the port type of gbps in cage, by the standards' table? */
static int cage_has_type(const char *cage, double gbps, int lanes, double lane_gbps)
{
	struct nicfit_lanes l;

	return !nicfit_lanes_of(cage, gbps, &l) && l.lanes == lanes &&
	       fabs(l.lane_gbps - lane_gbps) < RATE_EPS;
}

/*
 * The cage of a port of gbps as lanes x lane_gbps: the usual cage of that
 * rate when the type is its own, else the first QSFP-family cage that has
 * the type (the cage of most NICs at these rates: NDR200 2 x 100G on a
 * QSFP112 ConnectX-7, HDR100 2 x 50G on a QSFP56 card), else any cage
 * that has it; NULL when no standard port type is that.
 */
static const char *cage_of_type(double gbps, int lanes, double lane_gbps)
{
	const char *any = NULL;
	size_t i;

	if (cage_has_type(usual_cage(gbps), gbps, lanes, lane_gbps))
		return usual_cage(gbps);
	for (i = 0; i < sizeof(port_types) / sizeof(port_types[0]); i++) {
		if (fabs(port_types[i].gbps - gbps) > RATE_EPS || port_types[i].lanes != lanes ||
		    fabs(port_types[i].lane_gbps - lane_gbps) > RATE_EPS)
			continue;
		if (!strncasecmp(port_types[i].cage, "QSFP", 4))
			return port_types[i].cage;
		if (!any)
			any = port_types[i].cage;
	}
	return any;
}

/*
 * The switch's lanes for a generic node port of gbps, when its rate is a
 * whole number of them: the port then is that type, in a cage that has
 * it (the cage given, else one of that type, else the usual cage of the
 * rate). The cage must have that type or no standard type at that rate:
 * a QSFP56 port of 200 Gb/s is HDR whatever the switch runs. 0 and *cage
 * untouched when the switch's lanes give no such port.
 */
static int like_lanes(const struct nicfit_port *like, double gbps, const char **cage,
		      struct nicfit_lanes *l)
{
	double r = gbps / like->l.lane_gbps;
	long k = lround(r);
	const char *c = *cage;
	struct nicfit_lanes own;

	if (k < 1 || k > like->l.lanes || fabs(r - (double)k) >= RATE_EPS)
		return 0;
	if (!c)
		c = cage_of_type(gbps, (int)k, like->l.lane_gbps);
	if (!c)
		c = usual_cage(gbps);
	if (!nicfit_lanes_of(c, gbps, &own) && !cage_has_type(c, gbps, (int)k, like->l.lane_gbps))
		return 0;
	*cage = c;
	l->lanes = (int)k;
	l->lane_gbps = like->l.lane_gbps;
	l->mod = nicfit_modulation_of(l->lane_gbps);
	return 1;
}

void nicfit_port_generic(const char *cage, double gbps, int is_switch, int per_cage,
			 const struct nicfit_port *like, struct nicfit_port *p)
{
	struct nicfit_lanes l;
	int took = like && like->l.lane_gbps > 0 && like_lanes(like, gbps, &cage, &l);

	memset(p, 0, sizeof(*p));
	snprintf(p->cage, sizeof(p->cage), "%s", cage ? cage : usual_cage(gbps));
	snprintf(p->id, sizeof(p->id), "generic %g Gb/s %s", gbps, p->cage);
	p->is_switch = is_switch;
	/* a generic switch's OSFP cages may be either top: not judged */
	p->finned = is_switch ? -1 : 0;
	p->per_cage = per_cage > 1 ? per_cage : 1;
	p->gbps = gbps;
	p->any_split = is_switch;
	if (took) {
		p->l = l;
		return;
	}
	if (per_cage > 1) {
		lanes_or_derive(p->cage, gbps * per_cage, 0, 0, &p->l);
		p->l.lanes = p->l.lanes / per_cage > 0 ? p->l.lanes / per_cage : 1;
		return;
	}
	lanes_or_derive(p->cage, gbps, 0, 0, &p->l);
}

int nicfit_port_runs(const struct nicfit_port *p, double g)
{
	int i;

	if (p->nlane_rates == 0)
		return g <= p->l.lane_gbps + RATE_EPS;
	for (i = 0; i < p->nlane_rates; i++)
		if (fabs(p->lane_rates[i] - g) < RATE_EPS)
			return 1;
	return 0;
}

/*
 * Electrical lanes a cage wires: an SFP 1, a QSFP 4, a QSFP-DD or a
 * switch's OSFP 8; a NIC's OSFP cage the lanes of its port (ConnectX-7's
 * single-port OSFP is 4-channel, NVIDIA MMA4Z00-NS400 / MCP7Y00).
 */
static int cage_lanes(const struct nicfit_port *p)
{
	int f = p->cage[0] ? 0 : -1, own = p->l.lanes * p->per_cage;

	if (f < 0)
		return own;
	if (!strncasecmp(p->cage, "QSFP-DD", 7) || (is_osfp(p->cage) && p->is_switch))
		return own > 8 ? own : 8;
	if (!strncasecmp(p->cage, "QSFP", 4))
		return own > 4 ? own : 4;
	return own > 0 ? own : 1;
}

/* ---- the port-to-port fit ---------------------------------------------------- */

static int lists_split(const struct nicfit_port *s, int legs, double g)
{
	int i;

	if (s->any_split)
		return legs == 2 || legs == 4 || legs == 8;
	for (i = 0; i < s->nsplits; i++)
		if (s->split_legs[i] == legs && fabs(s->split_gbps[i] - g) < RATE_EPS)
			return 1;
	return 0;
}

/*
 * The rule (nicfit/compat.h): a common lane rate joins two ports through
 * copper or an AOC, with the node's lanes; the switch port's lanes give
 * one node port, or `legs` when its lanes divide by the node's and the
 * switch lists that split; a twin-port cage multiplies by its ports. With
 * no common lane rate the two ports still meet at one port rate through a
 * pair of optics that convert at each end. Anything else cannot meet.
 * Sources: NVIDIA MCP7Y60 (HDR 4 x 50G on a Quantum-2 twin-port cage, two
 * per cage), MCP7Y50/MCP7Y40 (NDR200 2 x 100G, four per cage), MCP7Y70 and
 * MCP7H50 (HDR100 2 x 50G legs), IEEE 802.3 port types.
 */
enum nicfit_match_kind nicfit_port_match(const struct nicfit_port *n, const struct nicfit_port *s,
				     int allow_split, struct nicfit_port_match *f)
{
	double g = n->l.lane_gbps;
	int legs = 1;

	memset(f, 0, sizeof(*f));
	f->run = n->l;
	if (n->gbps > s->gbps + RATE_EPS) {
		snprintf(f->why, sizeof(f->why),
			 "%s ports (%g Gb/s) are faster than %s ports (%g Gb/s)", n->id, n->gbps,
			 s->id, s->gbps);
		return f->kind = NICFIT_MATCH_NONE;
	}
	if (!(nicfit_port_runs(s, g) && n->l.lanes <= s->l.lanes)) {
		/* the node may run its port rate on the switch's slower lanes (HDR100 as EDR) */
		double r = n->gbps / s->l.lane_gbps;
		long k = lround(r);

		if (fabs(r - (double)k) < RATE_EPS && k >= 1 && k <= s->l.lanes &&
		    k <= cage_lanes(n) && s->l.lane_gbps <= g + RATE_EPS) {
			f->run.lanes = (int)k;
			f->run.lane_gbps = g = s->l.lane_gbps;
			f->run.mod = nicfit_modulation_of(g);
		}
	}
	if (nicfit_port_runs(s, g) && f->run.lanes <= s->l.lanes) {
		int nl = f->run.lanes;

		if (allow_split && s->l.lanes > nl && s->l.lanes % nl == 0 &&
		    lists_split(s, s->l.lanes / nl, n->gbps))
			legs = s->l.lanes / nl;
		f->kind = NICFIT_MATCH_DIRECT;
		f->per_port = legs;
		f->per_cage = legs * s->per_cage;
		snprintf(f->why, sizeof(f->why),
			 "%s: %d x %gG %s per port; %s: %d x %gG %s lanes per port, %d port%s per cage "
			 "-> %d per port, %d per cage",
			 n->id, nl, g, nicfit_modulation_name(f->run.mod), s->id, s->l.lanes,
			 s->l.lane_gbps, nicfit_modulation_name(s->l.mod), s->per_cage,
			 s->per_cage == 1 ? "" : "s", f->per_port, f->per_cage);
		return f->kind;
	}
	if (fabs(n->gbps - s->gbps) < RATE_EPS || (s->per_cage == 1 && n->gbps < s->gbps)) {
		f->kind = NICFIT_MATCH_OPTICS;
		f->per_port = 1;
		f->per_cage = s->per_cage;
		snprintf(f->why, sizeof(f->why),
			 "%s lanes (%d x %gG %s) do not run on %s (%d x %gG %s): copper cannot join them, "
			 "a pair of optics of one optical standard can",
			 n->id, n->l.lanes, g, nicfit_modulation_name(n->l.mod), s->id, s->l.lanes,
			 s->l.lane_gbps, nicfit_modulation_name(s->l.mod));
		return f->kind;
	}
	snprintf(f->why, sizeof(f->why),
		 "%s lanes (%d x %gG %s) do not run on %s (%d x %gG %s), and their port rates differ "
		 "(%g and %g Gb/s)", n->id, n->l.lanes, g, nicfit_modulation_name(n->l.mod), s->id,
		 s->l.lanes, s->l.lane_gbps, nicfit_modulation_name(s->l.mod), n->gbps, s->gbps);
	return f->kind = NICFIT_MATCH_NONE;
}

/* ---- one end of a cable ------------------------------------------------------ */

void nicfit_cable_end_lanes(const struct nicfit_cable *c, int end, struct nicfit_lanes *out)
{
	const char *cage = end ? c->end_b : c->end_a;
	double g = end ? c->lane_gbps : c->gbps;
	int lanes = end ? c->lanes_b : c->lanes_a;
	double serdes = end ? c->serdes_gbps_b : c->serdes_gbps_a;

	if (c->type == NICFIT_CABLE_OPTIC) {
		/* an optic has one electrical end, end_a; end_b is its fibre connector */
		cage = c->end_a;
		g = c->gbps;
		lanes = c->lanes_a;
		serdes = c->serdes_gbps_a;
	}
	memset(out, 0, sizeof(*out));
	lanes_or_derive(cage, g, lanes, serdes, out);
}

static int family(const char *cage)
{
	if (!cage)
		return 0;
	if (!strncasecmp(cage, "QSFP-DD", 7))
		return 3;
	if (!strncasecmp(cage, "QSFP", 4))
		return 2;
	if (!strncasecmp(cage, "SFP", 3))
		return 1;
	return 0;
}

int nicfit_cage_takes(const char *end, const char *port)
{
	int fe = family(end), fp = family(port);

	if (!end || !port)
		return 0;
	if (!strcasecmp(end, port))
		return 1;
	if (fe == 2 && (fp == 2 || fp == 3))
		return 1;
	return fe == 1 && fp == 1;
}

static int end_finned(const struct nicfit_cable *c, int end)
{
	const char *top = end ? c->top_b : c->top_a;

	if (top)
		return !strcasecmp(top, "finned");
	/* twin-port ends (a splitter's end a, an 800G module) are finned for switch cages */
	if (c->type == NICFIT_CABLE_OPTIC)
		return c->split > 1 || c->gbps > 400 + RATE_EPS;
	return end == 0 ? c->split > 1 || c->gbps > 400 + RATE_EPS : 0;
}

/*
 * An OSFP end its catalog entry marks flat-top is a NIC-side module and
 * never fits a switch cage, a generic switch's included (whose top is
 * otherwise not judged). Why: NVIDIA's single-port OSFP transceivers have
 * a flat top for the riding heat sink of the ConnectX-7 cage and "Single
 * port OSFP are not for use in switches"; switch cages take finned-top
 * twin-port modules (MMA4Z00-NS400 connectivity scenarios,
 * https://docs.nvidia.com/networking/display/MMA4Z00NS400T/Connectivity+Scenarios;
 * MMS4X00-NS400 overview, https://docs.nvidia.com/networking/display/mms4x00ns400/overview).
 */
static int nic_only(const struct nicfit_cable *c, int end)
{
	const char *top = end ? c->top_b : c->top_a;

	return top && !strcasecmp(top, "flat");
}

int nicfit_cable_end_fits(const struct nicfit_cable *c, int end, const struct nicfit_port *p,
			  char *why, size_t whylen)
{
	const char *cage = c->type == NICFIT_CABLE_OPTIC || !end ? c->end_a : c->end_b;
	struct nicfit_lanes l;
	char tmp[8];

	if (!why) {
		why = tmp;
		whylen = sizeof(tmp);
	}
	why[0] = 0;
	if (c->type == NICFIT_CABLE_OPTIC)
		end = 0;
	if (!nicfit_cage_takes(cage, p->cage)) {
		snprintf(why, whylen, "a %s end does not go into a %s cage", cage ? cage : "?", p->cage);
		return 0;
	}
	if (p->is_switch && cage && !strcasecmp(cage, "QSFP112")) {
		snprintf(why, whylen, "QSFP112 modules are not for switch cages");
		return 0;
	}
	if (is_osfp(cage) && p->is_switch && nic_only(c, end)) {
		snprintf(why, whylen, "%s is a flat-top single-port OSFP module for NICs, not for the "
			 "cages of %s", c->part ? c->part : c->e.id, p->id);
		return 0;
	}
	if (is_osfp(cage) && is_osfp(p->cage) && p->finned >= 0 && end_finned(c, end) != p->finned) {
		snprintf(why, whylen, "a %s-top OSFP end does not go into the %s-top cage of %s",
			 end_finned(c, end) ? "finned" : "flat", p->finned ? "finned" : "flat", p->id);
		return 0;
	}
	nicfit_cable_end_lanes(c, end, &l);
	/*
	 * A node cage two ports share (a DGX H100's twin-port OSFP) takes a
	 * twin-port end, never a single-port one: "single-port 400G OSFP
	 * devices cannot be used in twin-port cages" (NVIDIA LinkX, Connectors
	 * and Cages, https://docs.nvidia.com/networking/display/cableovpub/connectors+and+cages).
	 */
	if (is_osfp(cage) && is_osfp(p->cage) && !p->is_switch && p->per_cage > 1 &&
	    l.lanes < p->l.lanes * p->per_cage) {
		snprintf(why, whylen, "a single-port %d-lane OSFP end does not go into the twin-port "
			 "cage of %s", l.lanes, p->id);
		return 0;
	}
	if (!nicfit_port_runs(p, l.lane_gbps) || l.lanes > cage_lanes(p)) {
		snprintf(why, whylen, "its %d x %gG %s lanes do not run on %s (%d x %gG %s)", l.lanes,
			 l.lane_gbps, nicfit_modulation_name(l.mod), p->id, p->l.lanes, p->l.lane_gbps,
			 nicfit_modulation_name(p->l.mod));
		return 0;
	}
	if (p->intel_coded && !(c->coding && strstr(c->coding, "intel"))) {
		snprintf(why, whylen, "%s takes only Intel-coded modules", p->id);
		return 0;
	}
	return 1;
}
