/*
 * nicfit/link.h - what a network link delivers to the application.
 *
 * Ethernet carries TCP or RoCE v2; InfiniBand carries RDMA natively. The
 * MAC (or IB data) rate is the nominal speed; goodput takes off the
 * per-packet headers at the given MTU (docs/reference/bandwidth.md 2-3):
 *
 *   TCP:  rate x (MTU - 40 - 12 x timestamps) / (MTU + 38 + 4 x vlan)
 *   RoCE: rate x M / (M + 82 + 4 x vlan)        M = RoCE path MTU
 *   IB:   rate x M / (M + 26)                    LRH+BTH+ICRC+VCRC
 */
#ifndef NICFIT_LINK_H
#define NICFIT_LINK_H

#include <stddef.h>

#include "nicfit/error.h"
#include "nicfit/param.h"
#include "nicfit/units.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nicfit_proto {
	NICFIT_PROTO_TCP,
	NICFIT_PROTO_ROCE,
	NICFIT_PROTO_IB
};

struct nicfit_link_params {
	double mtu;            /* Ethernet IP MTU for TCP */
	double rdma_mtu;       /* RoCE / InfiniBand path MTU */
	double tcp_timestamps; /* 1 when TCP timestamps are on (Linux default) */
	double vlan;           /* 1 when frames carry an 802.1Q tag */
	double impl_factor;    /* stack/NIC efficiency below the packet model */
};

extern const struct nicfit_param nicfit_link_param_table[];
extern const size_t nicfit_link_param_count;

struct nicfit_link_result {
	enum nicfit_proto proto;
	double line_gbps;      /* nominal data rate of the link */
	double payload_bytes;  /* application bytes per packet */
	double overhead_bytes; /* header, trailer and gap bytes per packet */
	double efficiency;     /* payload / (payload + overhead) */
	double goodput_gbps;   /* line x efficiency x impl_factor */
	char ib_name[8];       /* InfiniBand rate name, "" for Ethernet */
	int ib_lanes;
};

void nicfit_link_params_default(struct nicfit_link_params *p);

/* "tcp", "roce", "ib"/"infiniband" -> proto; returns 0 or NICFIT_E_USAGE. */
int nicfit_proto_parse(const char *s, enum nicfit_proto *out,
		       struct nicfit_error *err);
const char *nicfit_proto_name(enum nicfit_proto p);

/*
 * Whether proto can run at speed sp: 0, or NICFIT_E_USAGE with a message
 * that says why not and what it takes. An InfiniBand rate name ("HDR")
 * with TCP or RoCE is refused (they run over Ethernet), and so is an
 * Ethernet speed ("100GbE") or a bare figure no 4x InfiniBand rate runs at
 * ("25G") with IB; the message lists the rate names and the figures
 * accepted. A caller that knows where sp came from (an option, a setting)
 * puts that in front: the message names only the speed.
 */
int nicfit_link_check(const struct nicfit_speed *sp, enum nicfit_proto proto,
		      struct nicfit_error *err);

/*
 * Goodput of speed sp carrying proto, once nicfit_link_check() allows the
 * pair (its error is this one's); a bare "100G" with IB means the 4x rate
 * of that speed (EDR).
 */
int nicfit_link_calc(const struct nicfit_speed *sp, enum nicfit_proto proto,
		     const struct nicfit_link_params *p,
		     struct nicfit_link_result *r, struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
