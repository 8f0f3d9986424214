/*
 * link.c - Ethernet/TCP, RoCE v2 and InfiniBand goodput (see nicfit/link.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/link.h"
#include "nicfit/units.h"

/* A speed given names a rate of the table when it is within 0.01 Gb/s of it. */
#define SPEED_MATCH_GBPS 0.01

#define P(f) offsetof(struct nicfit_link_params, f)

const struct nicfit_param nicfit_link_param_table[] = {
	{ "mtu", P(mtu), 1500, 576, 9216, "B",
	  "Ethernet IP MTU for TCP traffic", "Linux default; 9000 with jumbo frames" },
	{ "rdma_mtu", P(rdma_mtu), 4096, 256, 4096, "B",
	  "RoCE/InfiniBand path MTU (RoCE 4096 needs Ethernet MTU >= 4200)",
	  "IB MTU sizes 256..4096; docs/reference/bandwidth.md 2.3, 3.2" },
	{ "tcp_timestamps", P(tcp_timestamps), 1, 0, 1, "",
	  "TCP timestamp option on (12 B per segment)", "Linux default (net.ipv4.tcp_timestamps=1)" },
	{ "vlan", P(vlan), 0, 0, 1, "", "802.1Q tag on every frame (4 B)", "IEEE 802.1Q" },
	{ "link_factor", P(impl_factor), 1.0, 0.1, 1.0, "",
	  "host stack and NIC efficiency below the packet model (1 = none assumed)",
	  "no fitted constant: override with measurements" },
};

const size_t nicfit_link_param_count =
	sizeof(nicfit_link_param_table) / sizeof(nicfit_link_param_table[0]);

void nicfit_link_params_default(struct nicfit_link_params *p)
{
	nicfit_param_defaults(nicfit_link_param_table, nicfit_link_param_count, p);
}

int nicfit_proto_parse(const char *s, enum nicfit_proto *out,
		       struct nicfit_error *err)
{
	if (!strcasecmp(s, "tcp") || !strcasecmp(s, "ethernet") || !strcasecmp(s, "eth"))
		*out = NICFIT_PROTO_TCP;
	else if (!strcasecmp(s, "roce") || !strcasecmp(s, "rocev2") || !strcasecmp(s, "roce2"))
		*out = NICFIT_PROTO_ROCE;
	else if (!strcasecmp(s, "ib") || !strcasecmp(s, "infiniband"))
		*out = NICFIT_PROTO_IB;
	else
		return nicfit_error_at(err, NICFIT_E_USAGE, "--proto", 0, 0,
				       "unknown protocol '%.32s' (use tcp, roce or ib)", s);
	return 0;
}

const char *nicfit_proto_name(enum nicfit_proto p)
{
	switch (p) {
	case NICFIT_PROTO_TCP: return "tcp";
	case NICFIT_PROTO_ROCE: return "roce";
	case NICFIT_PROTO_IB: return "ib";
	}
	return "?";
}

/*
 * The 4x InfiniBand rates by the figure a bare speed gives: the data rate
 * (EDR 100, FDR 54.5) and, for the rates before EDR, the signalling rate
 * people also quote (SDR 10, QDR 40, FDR 56). Only the data rates are
 * offered in messages ("listed"): the others are accepted, not advertised.
 */
static const struct ib_figure {
	double g;
	const char *name;
	int listed;
} ib_figures[] = {
	{ 8, "SDR", 1 }, { 10, "SDR", 0 }, { 16, "DDR", 1 }, { 20, "DDR", 0 },
	{ 32, "QDR", 1 }, { 40, "QDR", 0 }, { 54.5454, "FDR", 1 }, { 56, "FDR", 0 },
	{ 100, "EDR", 1 }, { 200, "HDR", 1 }, { 400, "NDR", 1 }, { 800, "XDR", 1 },
};

/* The 4x InfiniBand rate whose nominal speed is gbps. */
static int ib_for_speed(double gbps, struct nicfit_speed *out)
{
	size_t i;

	for (i = 0; i < sizeof(ib_figures) / sizeof(ib_figures[0]); i++)
		if (fabs(ib_figures[i].g - gbps) < SPEED_MATCH_GBPS)
			return nicfit_ib_rate(ib_figures[i].name, out);
	return NICFIT_E_NOTFOUND;
}

/*
 * What an InfiniBand link's speed may be, for the messages that refuse
 * one: "a rate (SDR, DDR, ..., XDR) or a 4x rate's speed (8G, ..., 800G)",
 * the names from the rate table (units.c), the figures from ib_figures.
 */
static void ib_accepted(char *out, size_t n)
{
	size_t i, k;
	const char *name;

	k = (size_t)snprintf(out, n, "a rate (");
	for (i = 0; (name = nicfit_ib_rate_name(i)) && k < n; i++)
		k += (size_t)snprintf(out + k, n - k, "%s%s", i ? ", " : "", name);
	if (k < n)
		k += (size_t)snprintf(out + k, n - k, ") or a 4x rate's speed (");
	for (i = 0; i < sizeof(ib_figures) / sizeof(ib_figures[0]) && k < n; i++)
		if (ib_figures[i].listed)
			k += (size_t)snprintf(out + k, n - k, "%s%.4gG", i ? ", " : "",
					      ib_figures[i].g);
	if (k < n)
		snprintf(out + k, n - k, ")");
}

/*
 * The Ethernet speed a port of an InfiniBand rate's generation runs, for
 * the error that asks for one: the IEEE rate at the same lanes and lane
 * speed (EDR's 4 x 25G is 100GbE, HDR's 4 x 50G PAM4 200GbE, NDR 400GbE,
 * XDR 800GbE; QDR and FDR10 ports run 40GbE, SDR and DDR ones 10GbE). FDR's
 * 14 Gb/s lanes have no IEEE rate: VPI ports of that generation run 40GbE
 * or NVIDIA's own 56GbE (docs/reference/nic-identity.md, speed letter F),
 * and the standard one is offered. A computed figure such as FDR's
 * 54.5 Gb/s of data is never offered: no Ethernet runs at it.
 */
static double eth_for_ib(const char *ib_name)
{
	static const struct { const char *ib; double eth; } m[] = {
		{ "SDR", 10 }, { "DDR", 10 }, { "QDR", 40 }, { "FDR10", 40 }, { "FDR", 40 },
		{ "EDR", 100 }, { "HDR100", 100 }, { "HDR", 200 }, { "NDR200", 200 },
		{ "NDR", 400 }, { "XDR", 800 },
	};
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (!strcasecmp(m[i].ib, ib_name))
			return m[i].eth;
	return 100;
}

int nicfit_link_check(const struct nicfit_speed *sp, enum nicfit_proto proto,
		      struct nicfit_error *err)
{
	struct nicfit_speed ib;
	char ok[200];

	if (proto == NICFIT_PROTO_IB && sp->kind == NICFIT_SPEED_ETH) {
		ib_accepted(ok, sizeof(ok));
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"%g GbE is an Ethernet speed; InfiniBand takes %s", sp->gbps, ok);
	}
	if (proto == NICFIT_PROTO_IB && sp->kind == NICFIT_SPEED_ANY && ib_for_speed(sp->gbps, &ib)) {
		ib_accepted(ok, sizeof(ok));
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"no InfiniBand rate runs at %g Gb/s; give %s", sp->gbps, ok);
	}
	if (proto != NICFIT_PROTO_IB && sp->kind == NICFIT_SPEED_IB)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"%s is an InfiniBand rate, and %s runs over Ethernet: give an "
					"Ethernet speed such as %gG (G, GbE, Gb/s or Mb/s)",
					sp->ib_name, nicfit_proto_name(proto), eth_for_ib(sp->ib_name));
	return 0;
}

int nicfit_link_calc(const struct nicfit_speed *sp, enum nicfit_proto proto,
		     const struct nicfit_link_params *p,
		     struct nicfit_link_result *r, struct nicfit_error *err)
{
	struct nicfit_speed ib;
	double vlan = p->vlan ? 4 : 0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->proto = proto;
	if ((rc = nicfit_link_check(sp, proto, err)))
		return rc;
	if (proto == NICFIT_PROTO_IB) {
		ib = *sp;
		if (sp->kind == NICFIT_SPEED_ANY)
			ib_for_speed(sp->gbps, &ib);
		snprintf(r->ib_name, sizeof(r->ib_name), "%s", ib.ib_name);
		r->ib_lanes = ib.ib_lanes;
		r->line_gbps = ib.gbps;
		r->payload_bytes = p->rdma_mtu;
		r->overhead_bytes = 8 + 12 + 4 + 2; /* LRH, BTH, ICRC, VCRC */
	} else {
		r->line_gbps = sp->gbps;
		if (proto == NICFIT_PROTO_TCP) {
			/* IPv4 20 + TCP 20 (+12 timestamps) inside the MTU;
			 * preamble/SFD 8 + MAC 14 + FCS 4 + IFG 12 outside. */
			r->payload_bytes = p->mtu - 40 - (p->tcp_timestamps ? 12 : 0);
			r->overhead_bytes = p->mtu - r->payload_bytes + 38 + vlan;
		} else {
			/* preamble 8, MAC 14, IPv4 20, UDP 8, BTH 12, ICRC 4,
			 * FCS 4, IFG 12 = 82 bytes around each RoCE payload. */
			r->payload_bytes = p->rdma_mtu;
			r->overhead_bytes = 82 + vlan;
		}
	}
	r->efficiency = r->payload_bytes / (r->payload_bytes + r->overhead_bytes);
	r->goodput_gbps = r->line_gbps * r->efficiency * p->impl_factor;
	return 0;
}
