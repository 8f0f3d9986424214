/*
 * nicfit/compat.h - whether a node port meets a switch port, and through
 * which cable, splitter or pair of optics: ports as lanes.
 *
 * A port is not a cage and a speed but a number of electrical lanes of a
 * given signalling rate (SerDes): HDR is 4 x 50G PAM4 in a QSFP56, EDR
 * 4 x 25G NRZ in a QSFP28, NDR 4 x 100G PAM4 and a Quantum-2 twin-port
 * OSFP cage 8 x 100G PAM4 (two NDR ports). A switch port runs its own
 * lane rate and, unless the catalog lists the rates it runs, any slower
 * one (an NDR cage runs HDR lanes, an HDR port EDR lanes); it splits into
 * legs of fewer lanes only in the split modes it lists. Two ends whose
 * lanes run at a common rate meet through copper (DAC, ACC) or an AOC;
 * two ends at the same port rate but different lane rates (400GbE as
 * 8 x 50G on a Spectrum-3 QSFP-DD, 4 x 100G on a ConnectX-7) meet only
 * through a pair of optics whose optical sides match (400GBASE-DR4 at
 * both ends), each optic's electrical side fitting its own cage. Facts and
 * sources: docs/catalog.md (lanes) and the catalog entries.
 *
 *	struct nicfit_port nic, sw;
 *	struct nicfit_port_match f;
 *
 *	nicfit_port_of_nic(cat_nic, &nic);
 *	nicfit_port_of_switch(cat_switch, &sw);
 *	nicfit_port_match(&nic, &sw, 1, &f);
 *	... f.kind, f.per_port, f.per_cage, f.why ...
 *
 * Shape: every struct here is caller-owned and holds no pointers it
 * frees; a port built from a catalog entry points into that entry and
 * lives as long as the catalog. Nothing here allocates or prints.
 */
#ifndef NICFIT_COMPAT_H
#define NICFIT_COMPAT_H

#include "nicfit/catalog.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nicfit_modulation { NICFIT_MOD_UNKNOWN, NICFIT_MOD_NRZ, NICFIT_MOD_PAM4 };

/* "NRZ", "PAM4", "?" */
const char *nicfit_modulation_name(enum nicfit_modulation m);
/* NRZ up to 25G lanes, PAM4 from 50G lanes (IEEE 802.3cd/ck, IBTA HDR/NDR). */
enum nicfit_modulation nicfit_modulation_of(double lane_gbps);

/* Lanes of one logical port. */
struct nicfit_lanes {
	int lanes;
	double lane_gbps;
	enum nicfit_modulation mod;
};

/*
 * The lanes of a port of `gbps` in `cage` as the Ethernet and InfiniBand
 * port types define them (QSFP28 100 = 4 x 25G NRZ, QSFP56 100 = HDR100
 * 2 x 50G PAM4, QSFP-DD 400 = 8 x 50G PAM4, OSFP 800 = 8 x 100G PAM4 ...).
 * Returns 0, or -1 (out zeroed) for a combination no standard defines.
 */
int nicfit_lanes_of(const char *cage, double gbps, struct nicfit_lanes *out);

#define NICFIT_PORT_MAX_SPLITS 8

/* One logical port: a NIC port, a switch port, or a generic one. */
struct nicfit_port {
	char id[48];            /* the part, for messages */
	char cage[16];
	int is_switch;
	int finned;             /* OSFP: 1 finned top (switch cages), 0 flat (NICs), -1 unknown */
	int per_cage;           /* logical ports per cage (twin-port OSFP 2) */
	double gbps;
	struct nicfit_lanes l;  /* native lanes of one logical port */
	double lane_rates[NICFIT_MAX_LIST]; /* rates it runs; none listed: any up to native */
	int nlane_rates;
	int split_legs[NICFIT_PORT_MAX_SPLITS]; /* split modes: legs of split_gbps each */
	double split_gbps[NICFIT_PORT_MAX_SPLITS];
	int nsplits;
	int any_split;          /* generic switch: 2, 4 and 8 legs assumed */
	int intel_coded;        /* takes only Intel-coded modules */
};

void nicfit_port_of_nic(const struct nicfit_nic *n, struct nicfit_port *p);
void nicfit_port_of_switch(const struct nicfit_switch *s, struct nicfit_port *p);
/*
 * A generic port of gbps in cage (NULL: the usual cage for that rate).
 * A generic node port whose rate is a whole number of the switch's lanes
 * (like, when not NULL) takes the switch's lane rate: a user who gives
 * only a rate is taken to mean the switch's own port type. With cage NULL
 * the port then gets a cage that has that type (200 Gb/s on NDR lanes is
 * NDR200, 2 x 100G in a QSFP112; 100 Gb/s on HDR lanes HDR100 in a
 * QSFP56); a cage given keeps its own lanes where it has a standard type
 * at that rate (a QSFP56 port of 200 Gb/s is HDR, 4 x 50G, on any switch).
 */
void nicfit_port_generic(const char *cage, double gbps, int is_switch, int per_cage,
			 const struct nicfit_port *like, struct nicfit_port *p);

/* Does port p run lanes of rate g (its own, a listed one, or any slower)? */
int nicfit_port_runs(const struct nicfit_port *p, double g);

enum nicfit_match_kind {
	NICFIT_MATCH_NONE,        /* no cable or optic joins them */
	NICFIT_MATCH_DIRECT,      /* a common lane rate: DAC, ACC, AOC or optics */
	NICFIT_MATCH_OPTICS       /* same port rate, different lanes: a pair of optics only */
};
const char *nicfit_match_kind_name(enum nicfit_match_kind k);

struct nicfit_port_match {
	enum nicfit_match_kind kind;
	int per_port;           /* node ports one switch port serves (1, or a split) */
	int per_cage;           /* node ports one switch cage serves */
	struct nicfit_lanes run;/* lanes one node port runs on the link */
	char why[240];          /* the arithmetic, or why they cannot meet */
};

/*
 * Whether node port n meets switch port s, split allowed or not. Fills f
 * and returns f->kind. A split needs the node's lanes to divide the switch
 * port's and the switch to list that split (legs x node rate); otherwise a
 * faster port serves one node port on the node's lanes.
 */
enum nicfit_match_kind nicfit_port_match(const struct nicfit_port *n, const struct nicfit_port *s,
				     int allow_split, struct nicfit_port_match *f);

/*
 * Lanes of a cable's end: 0 the end_a (or an optic's electrical side),
 * 1 the end_b (each leg of a splitter). From the entry's lanes_* and
 * serdes_gbps_* fields, else from its cage and rate.
 */
void nicfit_cable_end_lanes(const struct nicfit_cable *c, int end, struct nicfit_lanes *out);

/*
 * Does end `end` of cable c plug into host port p and run there? The cage
 * must take the module (QSFP modules fit QSFP-DD cages, SFP ones SFP
 * cages; QSFP112 and single-port flat-top OSFP modules are not for switch
 * cages; a twin-port finned OSFP end not for a NIC's flat-top cage), the
 * host must run the end's lane rate, an Intel-coded host needs an
 * Intel-coded end. Returns 1 or 0; why (may be NULL) says what failed.
 */
int nicfit_cable_end_fits(const struct nicfit_cable *c, int end, const struct nicfit_port *p,
			  char *why, size_t whylen);

/*
 * Does a module or cable end made for cage `end` go into a cage `port`, by
 * the cages alone? The same name, a QSFP module in a QSFP or QSFP-DD cage,
 * an SFP module in any SFP cage. Returns 1 or 0 (0 for NULL).
 */
int nicfit_cage_takes(const char *end, const char *port);

#ifdef __cplusplus
}
#endif

#endif
