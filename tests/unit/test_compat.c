/*
 * test_compat.c - the compatibility rule (nicfit/compat.h) as a table:
 * which NIC port meets which switch port, how many per port and per
 * cage, and which cable or optic ends fit which cage, each row with the
 * public source of its fact. Parts are the embedded catalog's, so the
 * table also checks the catalog's lane facts.
 */
#include "unit.h"

#include "nicfit/catalog.h"
#include "nicfit/compat.h"

struct row {
	const char *nic;          /* catalog NIC id, or NULL for a generic port */
	const char *cage;         /* generic port: its cage */
	double gbps;              /* generic port: its rate */
	const char *sw;
	int split;                /* splitting allowed */
	enum nicfit_match_kind kind;
	int per_port, per_cage;
	const char *source;
};

static const struct row ports[] = {
	/* HDR on NDR: a Quantum-2 twin-port cage runs 8 x 50G PAM4, two HDR ports */
	{ "mcx653105a-hdat", NULL, 0, "qm9700", 1, NICFIT_MATCH_DIRECT, 1, 2,
	  "NVIDIA MCP7Y60-Hxxx specifications: twin-port OSFP to 2x 200G QSFP56 (4 x 50G PAM4)" },
	/* NDR200: 2 x 100G PAM4 legs, four per cage */
	{ "mcx755106as-heat", NULL, 0, "qm9700", 1, NICFIT_MATCH_DIRECT, 2, 4,
	  "NVIDIA MCP7Y50/MCP7Y40 use cases: 1:4 splits, 2 channels x 100G-PAM4" },
	{ NULL, "OSFP", 200, "qm9700", 1, NICFIT_MATCH_DIRECT, 2, 4,
	  "NVIDIA MCP7Y50-Nxxx use cases: 200G OSFP ConnectX-7 on a Quantum-2 cage" },
	/* HDR100: 2 x 50G PAM4 legs, from HDR100 NICs only */
	{ NULL, "QSFP56", 100, "qm8700", 1, NICFIT_MATCH_DIRECT, 2, 2,
	  "NVIDIA MCP7Y70-Hxxx specifications: HDR100 ends of 2 x 50G PAM4" },
	{ NULL, "QSFP56", 100, "qm9700", 1, NICFIT_MATCH_DIRECT, 2, 4,
	  "NVIDIA MCP7Y70-Hxxx: twin-port OSFP to 4x 100G QSFP56 (HDR100)" },
	/* EDR on HDR: 4 x 25G NRZ takes a whole port, no split */
	{ "mcx556a-ecat", NULL, 0, "qm8700", 1, NICFIT_MATCH_DIRECT, 1, 1,
	  "IBTA EDR is 4 x 25G; the HDR100 split needs 2 x 50G PAM4 legs (MCP7Y70)" },
	{ "mcx556a-ecat", NULL, 0, "sb7800", 1, NICFIT_MATCH_DIRECT, 1, 1,
	  "IBTA EDR 4 x 25G on an EDR switch" },
	/* 400GbE ConnectX-7 (4 x 100G) to Spectrum-3 (8 x 50G): optics only */
	{ "mcx75310aas-neat", NULL, 0, "sn4700", 1, NICFIT_MATCH_OPTICS, 1, 1,
	  "IEEE 802.3ck 400GBASE-CR4 vs 802.3bs/cd 400G over 8 x 50G: no common lane rate" },
	/* 400GbE ConnectX-7 to Spectrum-4: two per 800G OSFP cage */
	{ "mcx75310aas-neat", NULL, 0, "sn5600", 1, NICFIT_MATCH_DIRECT, 2, 2,
	  "NVIDIA MCP7Y00-Nxxx use cases: Spectrum-4 twin-port cage to two 400G ConnectX-7" },
	/* 100G QSFP28 to 4 x 25G SFP28 */
	{ "mcx4121a-acat", NULL, 0, "sn2100", 1, NICFIT_MATCH_DIRECT, 4, 4,
	  "IEEE 802.3bj 100GBASE-CR4 is 4 x 25G lanes; 802.3by 25GBASE-CR one of them" },
	{ "mcx4121a-acat", NULL, 0, "sn2100", 0, NICFIT_MATCH_DIRECT, 1, 1,
	  "splitting off: one node port per switch port" },
	/* an HDR100 card runs EDR lanes on an EDR switch */
	{ "mcx623106an-cdat", NULL, 0, "sb7800", 1, NICFIT_MATCH_DIRECT, 1, 1,
	  "IEEE 802.3bj 100GBASE-CR4: 100G as 4 x 25G" },
	/* Arista on Broadcom: Tomahawk 5 cages of 8 x 100G, Tomahawk 4 cages of 8 x 50G */
	{ "mcx75310aas-neat", NULL, 0, "dcs-7060x6-64pe", 1, NICFIT_MATCH_DIRECT, 2, 2,
	  "SONiC device/arista/x86_64-arista_7060x6_64pe/platform.json: 8 lanes, 2x400G and 8x100G" },
	{ "mcx75310aas-neat", NULL, 0, "dcs-7060dx5-64s", 1, NICFIT_MATCH_OPTICS, 1, 1,
	  "SONiC x86_64-arista_7060dx5_64s/platform.json: 8 lanes, 8x50G at most; CX-7 is 4 x 100G" },
	{ "mcx613106a-vdat", NULL, 0, "dcs-7060dx5-64s", 1, NICFIT_MATCH_DIRECT, 2, 2,
	  "SONiC x86_64-arista_7060dx5_64s/platform.json: 2x200G; 200GBASE-CR4 is 4 x 50G" },
	{ "mcx4121a-acat", NULL, 0, "dcs-7060dx5-64s", 1, NICFIT_MATCH_DIRECT, 8, 8,
	  "SONiC x86_64-arista_7060dx5_64s/platform.json: 8x50G[40G,25G,10G], eight 25G legs" },
	/* a 400G NIC cannot run on a 200G port */
	{ "mcx75310aas-neat", NULL, 0, "qm8700", 1, NICFIT_MATCH_NONE, 0, 0,
	  "IBTA: NDR is faster than an HDR port" },
};

static struct nicfit_catalog *load(void)
{
	struct nicfit_catalog *cat = NULL;
	struct nicfit_error err;

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	return cat;
}

static void nic_port(const struct nicfit_catalog *cat, const char *id, struct nicfit_port *p)
{
	const struct nicfit_nic *n = nicfit_catalog_find_nic(cat, id, "test", NULL);

	if (!n)
		fail_msg("no NIC %s in the catalog", id);
	nicfit_port_of_nic(n, p);
}

static void sw_port(const struct nicfit_catalog *cat, const char *id, struct nicfit_port *p)
{
	const struct nicfit_switch *s = nicfit_catalog_find_switch(cat, id, "test", NULL);

	if (!s)
		fail_msg("no switch %s in the catalog", id);
	nicfit_port_of_switch(s, p);
}

static void port_table(void **state)
{
	struct nicfit_catalog *cat = load();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ports) / sizeof(ports[0]); i++) {
		const struct row *r = &ports[i];
		struct nicfit_port n, s;
		struct nicfit_port_match m;

		sw_port(cat, r->sw, &s);
		if (r->nic)
			nic_port(cat, r->nic, &n);
		else
			nicfit_port_generic(r->cage, r->gbps, 0, 1, NULL, &n);
		nicfit_port_match(&n, &s, r->split, &m);
		if (m.kind != r->kind || (r->kind != NICFIT_MATCH_NONE &&
					  (m.per_port != r->per_port || m.per_cage != r->per_cage)))
			fail_msg("row %zu (%s %s on %s): %s %d/port %d/cage, expected %s %d %d [%s]: %s",
				 i, r->nic ? r->nic : r->cage, r->nic ? "" : "generic", r->sw,
				 nicfit_match_kind_name(m.kind), m.per_port, m.per_cage,
				 nicfit_match_kind_name(r->kind), r->per_port, r->per_cage, r->source,
				 m.why);
		assert_true(m.why[0] != 0);
	}
	nicfit_catalog_free(cat);
}

struct end_row {
	const char *cable;
	int end;                  /* 0 end_a (an optic's electrical side), 1 end_b */
	const char *host;         /* NIC or switch id */
	int is_switch;
	int fits;
	const char *source;
};

static const struct end_row ends[] = {
	{ "optic-qsfp112-400g-dr4", 0, "sn4700", 1, 0,
	  "NVIDIA MMA1Z00-NS400 / MMS4X00-NS400: QSFP112 are not for use in switches" },
	{ "dac-qsfp112-400g-1m", 0, "sn4700", 1, 0,
	  "NVIDIA MMA1Z00-NS400: QSFP112 are not for use in switches" },
	{ "optic-qsfpdd-400g-dr4", 0, "sn4700", 1, 1,
	  "IEEE 802.3bs 400GBASE-DR4; QSFP-DD MSA 8 x 50G electrical" },
	{ "optic-qsfp112-400g-dr4", 0, "dcs-7060dx5-64s", 1, 0,
	  "NVIDIA MMA1Z00-NS400: QSFP112 are not for switches; the 7060DX5 cage is QSFP-DD (netbox)" },
	{ "optic-qsfpdd-400g-dr4", 0, "dcs-7060dx5-64s", 1, 1,
	  "IEEE 802.3bs 400GBASE-DR4 in a QSFP-DD cage of 8 x 50G (SONiC platform.json)" },
	{ "mms4x00-ns400", 0, "mcx75310aas-neat", 0, 1,
	  "NVIDIA MMS4X00-NS400: single-port flat-top OSFP DR4 for ConnectX-7" },
	{ "mms4x00-ns400", 0, "sn5600", 1, 0,
	  "NVIDIA MMA4Z00-NS400: single-port OSFP are not for use in switches" },
	/* a generic switch's OSFP cage (top not known) still refuses a flat-top NIC module */
	{ "mma4z00-ns400", 0, "generic 400 OSFP", 1, 0,
	  "NVIDIA MMA4Z00-NS400 connectivity scenarios: single port OSFP are not for use in "
	  "switches (flat top for the ConnectX-7 cage)" },
	{ "mms4x00-ns400", 0, "generic 400 OSFP", 1, 0,
	  "NVIDIA MMS4X00-NS400 overview: for ConnectX-7/OSFP cards, a twin-port MMS4X00-NS in "
	  "the switch" },
	{ "mma4z00-ns400", 0, "mcx75310aas-neat", 0, 1,
	  "NVIDIA MMA4Z00-NS400: inserted into ConnectX-7/OSFP network cards" },
	{ "optic-osfp-400g-sr4", 0, "generic 400 OSFP", 1, 1,
	  "IEEE 802.3bs 400GBASE-SR4 OSFP module, top not given: a generic cage is not judged" },
	{ "mms4x00-ns", 0, "qm9700", 1, 1,
	  "NVIDIA MMS4X00-NS: twin-port finned OSFP for Quantum-2 / Spectrum-4" },
	{ "mms4x00-ns", 0, "mcx75310aas-neat", 0, 0,
	  "NVIDIA MMS4X00-NS: the twin-port finned module is for switch cages" },
	{ "mcp7y00-n001", 0, "sn5600", 1, 1, "NVIDIA MCP7Y00-Nxxx: finned twin-port end" },
	{ "mcp7y00-n001", 1, "mcx75310aas-neat", 0, 1, "NVIDIA MCP7Y00-Nxxx: flat 400G OSFP ends" },
	{ "mcp7y60-h001", 0, "qm9700", 1, 1, "NVIDIA MCP7Y60-Hxxx: 8 x 50G PAM4 twin-port end" },
	{ "mcp7y60-h001", 1, "mcx653105a-hdat", 0, 1, "NVIDIA MCP7Y60-Hxxx: QSFP56 HDR ends" },
	{ "mcp7y70-h001", 1, "mcx556a-ecat", 0, 0,
	  "NVIDIA MCP7Y70-Hxxx: 2 x 50G PAM4 legs; a QSFP28 EDR card runs 25G NRZ lanes" },
	{ "mcp7f00-a002r30n", 0, "sn2100", 1, 1, "IEEE 802.3bj: QSFP28 4 x 25G" },
	{ "mcp7f00-a002r30n", 1, "mcx4121a-acat", 0, 1, "IEEE 802.3by: SFP28 25G" },
	/* Intel 700-series ports take Intel-coded modules only */
	{ "dac-sfpp-10g-1m", 0, "x710-da2", 0, 0,
	  "Intel Ethernet 700 series: unsupported SFP+ module type with other codings" },
	{ "dac-sfpp-10g-intel-1m", 0, "x710-da2", 0, 1, "Intel-coded SFP+ DAC" },
	{ "dac-sfpp-10g-intel-nvidia-1m", 0, "x710-da2", 0, 1,
	  "DAC coded for Intel at this end (and NVIDIA at the other)" },
	/* a 100G QSFP28 DAC in a ConnectX-6 Dx QSFP56 100GbE cage: 4 x 25G lanes in a 4-lane cage */
	{ "dac-qsfp28-100g-1m", 0, "mcx623106an-cdat", 0, 1, "IEEE 802.3bj 100GBASE-CR4" },
};

static void end_table(void **state)
{
	struct nicfit_catalog *cat = load();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		const struct end_row *r = &ends[i];
		const struct nicfit_cable *c = nicfit_catalog_find_cable(cat, r->cable, "test", NULL);
		struct nicfit_port p;
		char why[200];
		int got;

		if (!c)
			fail_msg("no cable %s in the catalog", r->cable);
		if (!strncmp(r->host, "generic ", 8))
			nicfit_port_generic("OSFP", strtod(r->host + 8, NULL), r->is_switch, 1, NULL,
					    &p);
		else if (r->is_switch)
			sw_port(cat, r->host, &p);
		else
			nic_port(cat, r->host, &p);
		got = nicfit_cable_end_fits(c, r->end, &p, why, sizeof(why));
		if (got != r->fits)
			fail_msg("row %zu: %s end %d in %s: %d, expected %d [%s] (%s)", i, r->cable,
				 r->end, r->host, got, r->fits, r->source, why);
		if (!got)
			assert_true(why[0] != 0);
	}
	nicfit_catalog_free(cat);
}

static void lane_types(void **state)
{
	struct nicfit_lanes l;

	(void)state;
	assert_int_equal(nicfit_lanes_of("QSFP28", 100, &l), 0);
	assert_int_equal(l.lanes, 4);
	assert_near(l.lane_gbps, 25, 1e-9);
	assert_int_equal(l.mod, NICFIT_MOD_NRZ);
	assert_int_equal(nicfit_lanes_of("QSFP56", 200, &l), 0);
	assert_int_equal(l.lanes, 4);
	assert_int_equal(l.mod, NICFIT_MOD_PAM4);
	assert_int_equal(nicfit_lanes_of("QSFP-DD", 400, &l), 0);
	assert_int_equal(l.lanes, 8);
	assert_near(l.lane_gbps, 50, 1e-9);
	assert_int_equal(nicfit_lanes_of("OSFP", 400, &l), 0);
	assert_int_equal(l.lanes, 4);
	assert_near(l.lane_gbps, 100, 1e-9);
	assert_int_equal(nicfit_lanes_of("QSFP28", 400, &l), -1);
	assert_int_equal(nicfit_lanes_of(NULL, 100, &l), -1);
	assert_string_equal(nicfit_modulation_name(nicfit_modulation_of(53.125)), "PAM4");
}

/* A generic node port given only a rate takes the switch's own port type, in a cage
 * that has it; a cage given keeps its own lanes. */
struct generic_row {
	const char *cage;         /* given, or NULL */
	double gbps;
	const char *sw;
	const char *want_cage;
	int lanes;
	double lane_gbps;
	int per_port, per_cage;
	const char *source;
};

static const struct generic_row generics[] = {
	{ NULL, 200, "qm9700", "QSFP112", 2, 100, 2, 4,
	  "NVIDIA MCP7Y40-Nxxx: twin-port OSFP to 4x 200G QSFP112 (NDR200, 2 x 100G PAM4)" },
	{ "QSFP56", 200, "qm9700", "QSFP56", 4, 50, 1, 2,
	  "NVIDIA MCP7Y60-Hxxx: a QSFP56 200G end is HDR, 4 x 50G, two per twin-port cage" },
	{ NULL, 100, "qm8700", "QSFP56", 2, 50, 2, 2,
	  "NVIDIA MCP7H50/MCP7Y70: HDR100 ends are QSFP56, 2 x 50G PAM4" },
	{ NULL, 50, "sn2700", "QSFP28", 2, 25, 2, 2,
	  "50G as 2 x 25G NRZ is a QSFP28 port (SFP56 is 1 x 50G PAM4); the catalog's 2x50 split" },
	{ NULL, 25, "sn2700", "SFP28", 1, 25, 4, 4,
	  "IEEE 802.3by 25GBASE-CR: one 25G lane of a QSFP28 port" },
	{ NULL, 400, "qm9700", "OSFP", 4, 100, 1, 2,
	  "IBTA NDR: 4 x 100G PAM4, an OSFP ConnectX-7 port" },
};

static void generic_types(void **state)
{
	struct nicfit_catalog *cat = load();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(generics) / sizeof(generics[0]); i++) {
		const struct generic_row *r = &generics[i];
		struct nicfit_port n, s;
		struct nicfit_port_match m;
		struct nicfit_lanes t;

		sw_port(cat, r->sw, &s);
		nicfit_port_generic(r->cage, r->gbps, 0, 1, &s, &n);
		nicfit_port_match(&n, &s, 1, &m);
		if (strcmp(n.cage, r->want_cage) || n.l.lanes != r->lanes ||
		    fabs(n.l.lane_gbps - r->lane_gbps) > 1e-9 || m.per_port != r->per_port ||
		    m.per_cage != r->per_cage)
			fail_msg("row %zu (%g Gb/s %s on %s): %s %d x %gG, %d/port %d/cage; expected "
				 "%s %d x %gG, %d %d [%s]", i, r->gbps, r->cage ? r->cage : "(no cage)",
				 r->sw, n.cage, n.l.lanes, n.l.lane_gbps, m.per_port, m.per_cage,
				 r->want_cage, r->lanes, r->lane_gbps, r->per_port, r->per_cage,
				 r->source);
		/* the port is a type its cage has, as the standards' table says */
		assert_int_equal(nicfit_lanes_of(n.cage, r->gbps, &t), 0);
		assert_int_equal(t.lanes, n.l.lanes);
		assert_true(fabs(t.lane_gbps - n.l.lane_gbps) < 1e-9);
	}
	nicfit_catalog_free(cat);
}

/*
 * A DGX H100 cage: two ConnectX-7 ports (MCX75310AAS-NEAT's lanes) share
 * one flat-top twin-port OSFP cage. It takes a flat-top twin-port module,
 * not a single-port one, not a finned one, not a single-port DAC; a
 * finned switch cage does not take the flat twin-port module (NVIDIA
 * LinkX "Connectors and Cages": single-port 400G OSFP devices cannot be
 * used in twin-port cages; finned twin-port OSFP for switches, flat for
 * the DGX H100 GPU links).
 */
static void twin_node_cage(void **state)
{
	static const struct { const char *cable; int end, fits; } rows[] = {
		{ "mma4z00-ns-flt", 0, 1 },
		{ "mma4z00-ns400", 0, 0 },
		{ "mms4x00-ns400", 0, 0 },
		{ "mma4z00-ns", 0, 0 },
		{ "dac-osfp-400g-1m", 0, 0 },
		{ "mcp7y00-n001", 1, 0 },
	};
	struct nicfit_catalog *cat = load();
	struct nicfit_port p, single, sw;
	size_t i;

	(void)state;
	nic_port(cat, "mcx75310aas-neat", &p);
	single = p;
	p.per_cage = 2;
	p.finned = 0;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct nicfit_cable *c = nicfit_catalog_find_cable(cat, rows[i].cable, "test",
									  NULL);
		char why[200];
		int got;

		if (!c)
			fail_msg("no cable %s in the catalog", rows[i].cable);
		got = nicfit_cable_end_fits(c, rows[i].end, &p, why, sizeof(why));
		if (got != rows[i].fits)
			fail_msg("%s end %d in a twin-port flat cage: %d, expected %d (%s)",
				 rows[i].cable, rows[i].end, got, rows[i].fits, why);
	}
	/* the same module neither in a card's own single-port cage nor in a switch */
	sw_port(cat, "qm9700", &sw);
	assert_int_equal(nicfit_cable_end_fits(nicfit_catalog_find_cable(cat, "mma4z00-ns-flt",
									 "test", NULL), 0, &sw, NULL, 0), 0);
	assert_int_equal(nicfit_cable_end_fits(nicfit_catalog_find_cable(cat, "mma4z00-ns400",
									 "test", NULL), 0, &single, NULL, 0), 1);
	nicfit_catalog_free(cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lane_types),
		cmocka_unit_test(port_table),
		cmocka_unit_test(end_table),
		cmocka_unit_test(generic_types),
		cmocka_unit_test(twin_node_cage),
	};

	return cmocka_run_group_tests_name("compat", tests, NULL, NULL);
}
