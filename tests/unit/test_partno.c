/*
 * test_partno.c - the part-number decoder, table-driven: every OPN row of
 * docs/reference/nic-identity.md 1.7 and every adapter row of 2.1 decoded by the
 * rules alone (no catalog), OPNs that are not in the catalog, firmware-tool
 * spellings, inputs that are not part numbers, the catalog path, the
 * rendered JSON document and the card handed to calc nic.
 */
#include "unit.h"

#include <jansson.h>

#include "nicfit/calc.h"
#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/partno.h"
#include "nicfit/perf.h"

struct want {
	const char *part;
	const char *family, *protocol;
	int ports;
	const char *cage;
	double gbps;
	const char *ib;           /* "" for none */
	int gen, gen_min, width;
	const char *form;
	const char *bracket;      /* NULL: not checked */
	int socket_direct;
	unsigned pci_device;      /* 0: not checked */
	int crypto, secure_boot;  /* -2: not checked */
};

#define NC -2

/* docs/reference/nic-identity.md 1.7 "Known OPNs (decoded)", read by the rules alone */
static const struct want table_17[] = {
	{ "MCX4121A-ACAT", "ConnectX-4 Lx", "EN", 2, "SFP28", 25, "", 3, 0, 8, "pcie-hhhl", "tall", 0, 0x1015, -1, -1 },
	{ "MCX4121A-XCAT", "ConnectX-4 Lx", "EN", 2, "SFP28", 10, "", 3, 0, 8, "pcie-hhhl", "tall", 0, 0x1015, NC, NC },
	{ "MCX4421A-ACQN", "ConnectX-4 Lx", "EN", 2, "SFP28", 25, "", 3, 0, 8, "ocp2", "none", 0, 0x1015, NC, NC },
	{ "MCX416A-CCAT", "ConnectX-4", "EN", 2, "QSFP28", 100, "", 3, 0, 16, "pcie-hhhl", "tall", 0, 0x1013, NC, NC },
	{ "MCX512A-ACAT", "ConnectX-5", "EN", 2, "SFP28", 25, "", 3, 0, 8, "pcie-hhhl", "tall", 0, 0x1017, NC, NC },
	{ "MCX515A-CCAT", "ConnectX-5", "EN", 1, "QSFP28", 100, "", 3, 0, 16, "pcie-hhhl", "tall", 0, 0x1017, NC, NC },
	{ "MCX516A-CCAT", "ConnectX-5", "EN", 2, "QSFP28", 100, "", 3, 0, 16, "pcie-hhhl", "tall", 0, 0x1017, NC, NC },
	{ "MCX516A-CDAT", "ConnectX-5 Ex", "EN", 2, "QSFP28", 100, "", 4, 0, 16, "pcie-hhhl", "tall", 0, 0x1019, NC, NC },
	{ "MCX555A-ECAT", "ConnectX-5", "VPI", 1, "QSFP28", 100, "EDR", 3, 0, 16, "pcie-hhhl", "tall", 0, 0x1017, NC, NC },
	{ "MCX556A-ECAT", "ConnectX-5", "VPI", 2, "QSFP28", 100, "EDR", 3, 0, 16, "pcie-hhhl", "tall", 0, 0x1017, NC, NC },
	{ "MCX556A-EDAT", "ConnectX-5 Ex", "VPI", 2, "QSFP28", 100, "EDR", 4, 0, 16, "pcie-hhhl", "tall", 0, 0x1019, NC, NC },
	{ "MCX653105A-HDAT", "ConnectX-6", "VPI", 1, "QSFP56", 200, "HDR", 4, 3, 16, "pcie-hhhl", "tall", 0, 0x101b, -1, -1 },
	{ "MCX653106A-HDAT", "ConnectX-6", "VPI", 2, "QSFP56", 200, "HDR", 4, 3, 16, "pcie-hhhl", "tall", 0, 0x101b, NC, NC },
	{ "MCX654106A-HCAT", "ConnectX-6", "VPI", 2, "QSFP56", 200, "HDR", 4, 3, 16, "pcie-hhhl", "tall", 1, 0x101b, NC, NC },
	{ "MCX613106A-VDAT", "ConnectX-6", "EN", 2, "QSFP56", 200, "", 4, 3, 16, "pcie-hhhl", NULL, 0, 0x101b, NC, NC },
	{ "MCX623106AN-CDAT", "ConnectX-6 Dx", "EN", 2, "QSFP56", 100, "", 4, 3, 16, "pcie-hhhl", "tall", 0, 0x101d, 0, 0 },
	{ "MCX623106AC-CDAT", "ConnectX-6 Dx", "EN", 2, "QSFP56", 100, "", 4, 3, 16, "pcie-hhhl", "tall", 0, 0x101d, 1, 1 },
	{ "MCX631102AN-ADAT", "ConnectX-6 Lx", "EN", 2, "SFP28", 25, "", 4, 0, 8, "pcie-hhhl", "tall", 0, 0x101f, 0, 0 },
	{ "MCX75310AAS-NEAT", "ConnectX-7", "VPI", 1, "OSFP", 400, "NDR", 5, 0, 16, "pcie-hhhl", "tall", 0, 0x1021, 0, 1 },
	{ "MCX755106AS-HEAT", "ConnectX-7", "VPI", 2, "QSFP112", 200, "NDR200", 5, 0, 16, "pcie-hhhl", "tall", 0, 0x1021, 0, 1 },
	{ "MCX354A-FCBT", "ConnectX-3", "VPI", 2, "QSFP+", 40, "FDR", 3, 0, 8, "pcie-hhhl", "tall", 0, 0x1003, NC, NC },
};

/* docs/reference/nic-identity.md 2.1 "Adapter table" */
static const struct want table_21[] = {
	{ "X710-DA2", "Intel X710", "EN", 2, "SFP+", 10, "", 3, 0, 8, "pcie-hhhl", NULL, 0, 0x1572, NC, NC },
	{ "X710-DA4", "Intel X710", "EN", 4, "SFP+", 10, "", 3, 0, 8, "pcie-hhhl", NULL, 0, 0x1572, NC, NC },
	{ "X710-T4L", "Intel X710", "EN", 4, "RJ45", 10, "", 3, 0, 8, "pcie-hhhl", NULL, 0, 0x15ff, NC, NC },
	{ "X710-T4", "Intel X710", "EN", 4, "RJ45", 10, "", 3, 0, 8, "pcie-hhhl", NULL, 0, 0x1589, NC, NC },
	{ "XL710-QDA2", "Intel XL710", "EN", 2, "QSFP+", 40, "", 3, 0, 8, "pcie-hhhl", NULL, 0, 0x1583, NC, NC },
	{ "XXV710-DA2", "Intel XXV710", "EN", 2, "SFP28", 25, "", 3, 0, 8, "pcie-hhhl", NULL, 0, 0x158b, NC, NC },
	{ "X550-T2", "Intel X550", "EN", 2, "RJ45", 10, "", 3, 0, 4, "pcie-hhhl", NULL, 0, 0x1563, NC, NC },
	{ "E810-XXVDA2", "Intel E810", "EN", 2, "SFP28", 25, "", 4, 0, 8, "pcie-hhhl", NULL, 0, 0x159b, NC, NC },
	{ "E810-CQDA2", "Intel E810", "EN", 2, "QSFP28", 100, "", 4, 0, 16, "pcie-hhhl", NULL, 0, 0x1592, NC, NC },
};

/* OPNs that are not in reference 1.7 (and not in the catalog): rules only */
static const struct want table_rule[] = {
	{ "MCX623106AE-CDAT", "ConnectX-6 Dx", "EN", 2, "QSFP56", 100, "", 4, 3, 16, "pcie-hhhl", "tall", 0, 0x101d, 1, 0 },
	{ "MCX623106AS-CDAT", "ConnectX-6 Dx", "EN", 2, "QSFP56", 100, "", 4, 3, 16, "pcie-hhhl", "tall", 0, 0x101d, 0, 1 },
	{ "MCX4111A-ACAT", "ConnectX-4 Lx", "EN", 1, "SFP28", 25, "", 3, 0, 8, "pcie-hhhl", "tall", 0, 0x1015, NC, NC },
	{ "MCX4131A-GCAT", "ConnectX-4 Lx", "EN", 1, "QSFP28", 50, "", 3, 0, 8, "pcie-hhhl", "tall", 0, 0x1015, NC, NC },
	{ "MCX4431M-GCAN", "ConnectX-4 Lx", "EN", 1, "QSFP28", 50, "", 3, 0, 8, "ocp2", "none", 0, 0x1015, NC, NC },
	{ "MCX455A-FCAT", "ConnectX-4", "VPI", 1, "QSFP28", 40, "FDR", 3, 0, 16, "pcie-hhhl", "tall", 0, 0x1013, NC, NC },
	{ "MCX454A-FCAT", "ConnectX-4", "VPI", 2, "QSFP28", 40, "FDR", 3, 0, 8, "pcie-hhhl", "tall", 0, 0x1013, NC, NC },
	{ "MCX512F-ACAT", "ConnectX-5", "EN", 2, "SFP28", 25, "", 3, 0, 16, "pcie-hhhl", "tall", 0, 0x1017, NC, NC },
	{ "MCX512A-ADAT", "ConnectX-5 Ex", "EN", 2, "SFP28", 25, "", 4, 0, 8, "pcie-hhhl", "tall", 0, 0x1019, NC, NC },
	{ "MCX542B-ACAN", "ConnectX-5", "EN", 2, "SFP28", 25, "", 3, 0, 8, "ocp2", "none", 0, 0x1017, NC, NC },
	{ "MCX562A-ACAI", "ConnectX-5", "EN", 2, "SFP28", 25, "", 3, 0, 16, "ocp3", "ocp3-internal-lock", 0, 0x1017, NC, NC },
	{ "MCX566A-CDAB", "ConnectX-5 Ex", "EN", 2, "QSFP28", 100, "", 4, 0, 16, "ocp3", "ocp3-pull-tab", 0, 0x1019, NC, NC },
	{ "MCX545B-ECAN", "ConnectX-5", "VPI", 1, "QSFP28", 100, "EDR", 3, 0, 16, "ocp2", "none", 0, 0x1017, NC, NC },
	{ "MCX556M-ECAT-S25", "ConnectX-5", "VPI", 2, "QSFP28", 100, "EDR", 3, 0, 8, "pcie-hhhl", "tall", 1, 0x1017, NC, NC },
	{ "MCX653106A-ECAT", "ConnectX-6", "VPI", 2, "QSFP56", 100, "HDR100", 4, 3, 16, "pcie-hhhl", "tall", 0, 0x101b, NC, NC },
	{ "MCX651105A-EDAT", "ConnectX-6", "VPI", 1, "QSFP56", 100, "HDR100", 4, 3, 8, "pcie-hhhl", "tall", 0, 0x101b, NC, NC },
	{ "MCX653105A-EFAT", "ConnectX-6", "VPI", 1, "QSFP56", 100, "HDR100", 4, 3, 8, "pcie-hhhl", "tall", 1, 0x101b, NC, NC },
	{ "MCX653435A-HDAE", "ConnectX-6", "VPI", 1, "QSFP56", 200, "HDR", 4, 3, 16, "ocp3", "ocp3-ejector", 0, 0x101b, NC, NC },
	{ "MCX623102AN-GDAT", "ConnectX-6 Dx", "EN", 2, "SFP56", 50, "", 4, 3, 16, "pcie-hhhl", "tall", 0, 0x101d, 0, 0 },
	{ "MCX623405AN-CDAN", "ConnectX-6 Dx", "EN", 1, "QSFP56", 100, "", 4, 3, 16, "ocp2", "none", 0, 0x101d, 0, 0 },
	{ "MCX623432AN-ADAB", "ConnectX-6 Dx", "EN", 2, "SFP28", 25, "", 4, 3, 16, "ocp3", "ocp3-pull-tab", 0, 0x101d, 0, 0 },
	{ "MCX621102AN-ADAT", "ConnectX-6 Dx", "EN", 2, "SFP28", 25, "", 4, 3, 8, "pcie-hhhl", "tall", 0, 0x101d, NC, NC },
	{ "MCX631435AN-GDAB", "ConnectX-6 Lx", "EN", 1, "QSFP28", 50, "", 4, 0, 8, "ocp3", "ocp3-pull-tab", 0, 0x101f, NC, NC },
	{ "MCX713106AS-VEAT", "ConnectX-7", "EN", 2, "QSFP112", 200, "", 5, 0, 16, "pcie-hhhl", "tall", 0, 0x1021, 0, 1 },
	{ "MCX713104AS-ADAT", "ConnectX-7", "EN", 4, "SFP56", 25, "", 4, 0, 16, "pcie-hhhl", "tall", 0, 0x1021, NC, NC },
	{ "MCX75343AMC-NEAC", "ConnectX-7", "VPI", 1, "OSFP", 400, "NDR", 5, 0, 16, "ocp3", "", 0, 0x1021, 1, 1 },
	{ "MCX75511BAN-NEAT", "ConnectX-7", "VPI", 2, "OSFP", 400, "NDR", 5, 0, 16, "pcie-hhhl", "tall", 0, 0x1021, 0, 0 },
	{ "MCX314A-BCCT", "ConnectX-3 Pro", "EN", 2, "QSFP+", 40, "", 3, 0, 8, "pcie-hhhl", "tall", 0, 0x1007, NC, NC },
	{ "MCX353A-QCBT", "ConnectX-3", "VPI", 1, "QSFP+", 10, "QDR", 3, 0, 8, "pcie-hhhl", "tall", 0, 0x1003, NC, NC },
	/* spellings: lower case, spaces, newline, tool tails, Intel codes */
	{ "  mcx4121a-acat\n", "ConnectX-4 Lx", "EN", 2, "SFP28", 25, "", 3, 0, 8, "pcie-hhhl", "tall", 0, 0x1015, NC, NC },
	{ "MCX623106AN-CDA_Ax", "ConnectX-6 Dx", "EN", 2, "QSFP56", 100, "", 4, 3, 16, "pcie-hhhl", "", 0, 0x101d, 0, 0 },
	{ "MCX354A-FCC_Ax", "ConnectX-3 Pro", "VPI", 2, "QSFP+", 40, "FDR", 3, 0, 8, "pcie-hhhl", "", 0, 0x1007, NC, NC },
	{ "X710DA2", "Intel X710", "EN", 2, "SFP+", 10, "", 3, 0, 8, "pcie-hhhl", NULL, 0, 0x1572, NC, NC },
	{ "intel x710-da4", "Intel X710", "EN", 4, "SFP+", 10, "", 3, 0, 8, "pcie-hhhl", NULL, 0, 0x1572, NC, NC },
	{ "E810-CQDA1", "Intel E810", "EN", 1, "QSFP28", 100, "", 4, 0, 16, "pcie-hhhl", NULL, 0, 0x1592, NC, NC },
	{ "XL710-QDA1", "Intel XL710", "EN", 1, "QSFP+", 40, "", 3, 0, 8, "pcie-hhhl", NULL, 0, 0x1584, NC, NC },
};

static int has_note(const struct nicfit_part *p, const char *needle)
{
	int i;

	for (i = 0; i < p->nnotes; i++)
		if (strstr(p->notes[i], needle))
			return 1;
	return 0;
}

static void check_one(const struct want *w, const struct nicfit_part *p)
{
	if (strcmp(p->family, w->family))
		fail_msg("%s: family '%s', expected '%s'", w->part, p->family, w->family);
	if (strcmp(p->protocol, w->protocol))
		fail_msg("%s: protocol '%s', expected '%s'", w->part, p->protocol, w->protocol);
	if (p->ports != w->ports)
		fail_msg("%s: ports %d, expected %d", w->part, p->ports, w->ports);
	if (strcmp(p->cage, w->cage))
		fail_msg("%s: cage '%s', expected '%s'", w->part, p->cage, w->cage);
	if (p->port_gbps != w->gbps)
		fail_msg("%s: port_gbps %g, expected %g", w->part, p->port_gbps, w->gbps);
	if (strcmp(p->ib_rate, w->ib))
		fail_msg("%s: ib_rate '%s', expected '%s'", w->part, p->ib_rate, w->ib);
	if (p->pcie_gen != w->gen || p->pcie_gen_min != w->gen_min)
		fail_msg("%s: PCIe gen %d (min %d), expected %d (min %d)", w->part, p->pcie_gen,
			 p->pcie_gen_min, w->gen, w->gen_min);
	if (p->pcie_width != w->width)
		fail_msg("%s: width %d, expected %d", w->part, p->pcie_width, w->width);
	if (strcmp(p->form_factor, w->form))
		fail_msg("%s: form '%s', expected '%s'", w->part, p->form_factor, w->form);
	if (w->bracket && strcmp(p->bracket, w->bracket))
		fail_msg("%s: bracket '%s', expected '%s'", w->part, p->bracket, w->bracket);
	if (p->socket_direct != w->socket_direct)
		fail_msg("%s: socket_direct %d, expected %d", w->part, p->socket_direct,
			 w->socket_direct);
	if (w->pci_device && p->pci_device != w->pci_device)
		fail_msg("%s: PCI device %04x, expected %04x", w->part, p->pci_device,
			 w->pci_device);
	if (w->crypto != NC && (p->crypto != w->crypto || p->secure_boot != w->secure_boot))
		fail_msg("%s: crypto %d secure boot %d, expected %d %d", w->part, p->crypto,
			 p->secure_boot, w->crypto, w->secure_boot);
	/* what every NIC reading has */
	if (p->confidence != NICFIT_CONF_RULE)
		fail_msg("%s: confidence is not 'rule'", w->part);
	if (p->nreading < 3)
		fail_msg("%s: only %d reading positions", w->part, p->nreading);
	if (!p->summary[0] || !p->source[0])
		fail_msg("%s: no summary or source", w->part);
	if (p->nslots < 1)
		fail_msg("%s: no slot estimate", w->part);
	if (!strcmp(p->vendor, "Intel") ? (p->rdma != 0) != !strncmp(w->part, "E810", 4) :
	    !(p->rdma & NICFIT_RDMA_ROCE))
		fail_msg("%s: rdma bits %u", w->part, p->rdma);
	if (!strcmp(p->protocol, "VPI") && !(p->rdma & NICFIT_RDMA_IB))
		fail_msg("%s: VPI without InfiniBand RDMA", w->part);
}

static void run_table(const struct want *t, size_t n)
{
	struct nicfit_part p;
	struct nicfit_error err;
	size_t i;

	for (i = 0; i < n; i++) {
		nicfit_error_clear(&err);
		if (nicfit_decode(NULL, t[i].part, &p, &err))
			fail_msg("%s: %s", t[i].part, err.msg);
		check_one(&t[i], &p);
	}
}

static void reference_opns(void **state)
{
	(void)state;
	run_table(table_17, sizeof(table_17) / sizeof(table_17[0]));
}

static void reference_intel(void **state)
{
	(void)state;
	run_table(table_21, sizeof(table_21) / sizeof(table_21[0]));
}

static void rule_only_opns(void **state)
{
	(void)state;
	run_table(table_rule, sizeof(table_rule) / sizeof(table_rule[0]));
}

/* Caveats the rules must state. */
static void notes(void **state)
{
	struct nicfit_part p;
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "MCX623106AN-CDA_Ax", &p, &err), 0);
	assert_true(has_note(&p, "without its bracket letter"));
	assert_string_equal(p.part, "MCX623106AN-CDA");
	assert_int_equal(nicfit_decode(NULL, "MCX654106A-HCAT", &p, &err), 0);
	assert_true(has_note(&p, "letter C does not strictly mean PCIe 3.0"));
	assert_int_equal(nicfit_decode(NULL, "MCX713106AS-VEAT", &p, &err), 0);
	assert_true(has_note(&p, "community data"));
	assert_int_equal(nicfit_decode(NULL, "X710-DA2", &p, &err), 0);
	assert_true(has_note(&p, "Intel-coded"));
	assert_true(has_note(&p, "No RDMA"));
	assert_int_equal(p.rdma, 0);
	assert_int_equal(nicfit_decode(NULL, "E810-XXVDA2", &p, &err), 0);
	assert_int_equal(p.rdma, NICFIT_RDMA_IWARP | NICFIT_RDMA_ROCE);
	assert_int_equal(nicfit_decode(NULL, "X710-T4L", &p, &err), 0);
	assert_false(has_note(&p, "Intel-coded")); /* RJ45: no modules */
	assert_int_equal(nicfit_decode(NULL, "MBF2H332A-AEEOT", &p, &err), 0);
	assert_int_equal(p.kind, NICFIT_PART_DPU);
	assert_string_equal(p.family, "BlueField-2");
	assert_true(has_note(&p, "BlueField"));
	assert_int_equal(p.ports, 0);
	assert_int_equal(nicfit_decode(NULL, "MCX556A", &p, &err), 0);
	assert_true(has_note(&p, "No suffix"));
	assert_int_equal(p.port_gbps, 0);
	assert_int_equal(nicfit_decode(NULL, "MCX4121A-ACAZ", &p, &err), 0);
	assert_true(has_note(&p, "Bracket letter 'Z'"));
	assert_int_equal(nicfit_decode(NULL, "X710-DA2BLK", &p, &err), 0);
	assert_string_equal(p.part, "X710-DA2");
}

/* The reading of one OPN, position by position. */
static void reading(void **state)
{
	static const char *const chars[] = { "MCX", "6", "5", "3", "1", "0", "5", "A", "-",
		"H", "D", "A", "T" };
	struct nicfit_part p;
	struct nicfit_error err;
	size_t i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "MCX653105A-HDAT", &p, &err), 0);
	assert_int_equal(p.nreading, (int)(sizeof(chars) / sizeof(chars[0])));
	for (i = 0; i < sizeof(chars) / sizeof(chars[0]); i++)
		assert_string_equal(p.reading[i].chars, chars[i]);
	assert_non_null(strstr(p.reading[9].meaning, "HDR"));
	assert_non_null(strstr(p.reading[12].meaning, "tall"));
	assert_string_equal(p.summary, "ConnectX-6 VPI, 1 x QSFP56, HDR InfiniBand or 200GbE, "
				       "PCIe 3.0/4.0 x16, tall bracket");
}

struct bad {
	const char *text;
	const char *why;   /* substring of the message */
	long col;          /* expected column, 0 = none */
};

static const struct bad bads[] = {
	{ "", "empty", 0 },
	{ "   \n", "empty", 0 },
	{ "hello", "not a part number", 1 },
	{ "MCX", "generation digit is missing", 4 },
	{ "MCX9999999999999-ZZZZ", "13 digits", 4 },
	{ "MCX4121A-VCAT", "faster than any ConnectX-4 Lx", 10 },
	{ "MCX4121A-QCAT", "not a ConnectX-4 Lx rate", 10 },
	{ "MCX512A-CCAT", "does not fit SFP28", 9 },
	{ "MCX4121A-GCAT", "does not fit SFP28", 10 },
	{ "MCX9121A-ACAT", "no ConnectX generation '9'", 4 },
	{ "MCX2121A-ACAT", "ConnectX-1/-2", 4 },
	{ "MCX8121A-ACAT", "ConnectX-8", 4 },
	{ "MCX416A-CCAT-", "after '-'", 14 },
	{ "MCX416A-CCATX", "expected 4 letters", 9 },
	{ "MCX416A-CC", "expected 4 letters", 9 },
	{ "MCX4121AACAT", "missing", 8 },
	{ "MCX416A-CCAT junk", "unexpected ' '", 13 },
	{ "MCX416A-C1AT", "expected a letter", 10 },
	{ "MCX556A-EEAT", "host-interface letter E", 10 },
	{ "MCX653105A-HEAT", "host-interface letter E", 13 },
	{ "MCX75310AAS-FEAT", "not a ConnectX-7 rate", 13 },
	{ "MCX716106AS-CEAT", "host digit '6'", 6 },
	{ "MCX623106ANQ-CDAT", "letters before", 10 },
	{ "MCX47", "have 3 (or 4 for Lx) digits", 4 },
	{ "MCX4121", "variant letter", 8 },
	{ "MCX416A-CCAT_", "after '_'", 14 },
	{ "X710-DA3", "not an Intel X710 adapter", 5 },
	{ "X722-DA2", "C620", 1 },
	{ "900-9X4B0-0053-0T1", "900-", 1 },
	{ "MCX416A\x01-CCAT", "byte 0x01", 8 },
	{ "MCX\xff", "byte 0xff", 4 },
	{ "MCX416A-CCAT!", "character 0x21", 13 },
	{ "MBFX", "BlueField generation", 4 },
	{ "  MCX9", "no ConnectX generation", 6 },
};

static void not_part_numbers(void **state)
{
	struct nicfit_part p;
	struct nicfit_error err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		nicfit_error_clear(&err);
		if (nicfit_decode(NULL, bads[i].text, &p, &err) != NICFIT_E_DATA)
			fail_msg("'%s' was accepted", bads[i].text);
		if (err.code != NICFIT_E_DATA || strcmp(err.input, "part"))
			fail_msg("'%s': code %d input '%s'", bads[i].text, err.code, err.input);
		if (!strstr(err.msg, bads[i].why))
			fail_msg("'%s': message '%s' lacks '%s'", bads[i].text, err.msg, bads[i].why);
		if (err.col != bads[i].col)
			fail_msg("'%s': column %ld, expected %ld (%s)", bads[i].text, err.col,
				 bads[i].col, err.msg);
		if (bads[i].col && !strstr(err.msg, "column"))
			fail_msg("'%s': message names no column: %s", bads[i].text, err.msg);
		if (p.part[0] || p.nnotes || p.nreading)
			fail_msg("'%s': the result is not empty after an error", bads[i].text);
	}
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, NULL, &p, &err), NICFIT_E_DATA);
}

/*
 * LinkX cable and transceiver OPNs by rule (the four, and more):
 * type, cage per end, legs, length or reach, and the catalog parts the
 * ends fit. Sources: the family rows of partno_linkx.c.
 */
static const struct linkx_want {
	const char *part, *type, *end_a, *end_b;
	int legs;
	double gbps, length_m, reach_m;
	const char *fits_nic, *fits_switch;   /* one id that must be listed, or NULL */
	const char *not_switch;               /* one id that must not be */
} linkx[] = {
	{ "MCP1600-C003", "dac", "QSFP28", "QSFP28", 1, 100, 3, 0, "mcx516a-ccat", "sn2100", "qm9700" },
	{ "MFA1A00-C010", "aoc", "QSFP28", "QSFP28", 1, 100, 10, 0, "mcx516a-ccat", "sn2700", NULL },
	{ "MMA1B00-C100D", "optic", "QSFP28", "MPO-12", 1, 100, 0, 100, "mcx516a-ccat", "sn2100", NULL },
	{ "MCP4Y10-N002", "dac", "OSFP", "OSFP", 1, 800, 2, 0, NULL, "qm9700", "sn4700" },
	{ "MCP7Y00-N01A", "breakout-dac", "OSFP", "OSFP", 2, 800, 1.5, 0, "mcx75310aas-neat", "sn5600", NULL },
	{ "MCP7Y60-H002", "breakout-dac", "OSFP", "QSFP56", 2, 400, 2, 0, "mcx653105a-hdat", "qm9700", NULL },
	{ "MCP7Y70-H001", "breakout-dac", "OSFP", "QSFP56", 4, 400, 1, 0, NULL, "qm9700", NULL },
	{ "MFS1S50-V010E", "breakout-aoc", "QSFP56", "QSFP56", 2, 200, 10, 0, NULL, "sn3700", NULL },
	{ "MMS4X00-NS400", "optic", "OSFP", "MPO-12", 1, 400, 0, 100, "mcx75310aas-neat", NULL, "qm9700" },
	{ "MMS4X00-NS", "optic", "OSFP", "MPO-12", 2, 800, 0, 100, NULL, "qm9700", NULL },
	{ "MCA4J80-N005", "acc", "OSFP", "OSFP", 1, 800, 5, 0, NULL, "qm9700", "sn5600" },
	{ "980-9I601-00N004", "dac", "OSFP", "OSFP", 1, 800, 4, 0, NULL, "qm9700", NULL },
};

static int listed(char (*ids)[24], int n, const char *id)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(ids[i], id))
			return 1;
	return 0;
}

static void linkx_opns(void **state)
{
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	struct nicfit_part p;
	size_t i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	for (i = 0; i < sizeof(linkx) / sizeof(linkx[0]); i++) {
		const struct linkx_want *w = &linkx[i];
		const struct nicfit_part_cable *k = &p.cable;

		nicfit_error_clear(&err);
		if (nicfit_decode(cat, w->part, &p, &err))
			fail_msg("%s: %s", w->part, err.msg);
		if (!k->is_cable || strcmp(k->type, w->type) || strcmp(k->end_a, w->end_a) ||
		    strcmp(k->end_b, w->end_b) || k->legs != w->legs || fabs(k->gbps - w->gbps) > 1e-9 ||
		    fabs(k->length_m - w->length_m) > 1e-9 || fabs(k->reach_m - w->reach_m) > 1e-9)
			fail_msg("%s: %s %s-%s x%d %g G %g m reach %g", w->part, k->type, k->end_a,
				 k->end_b, k->legs, k->gbps, k->length_m, k->reach_m);
		if (!p.catalog_id[0])
			assert_int_equal(p.confidence, NICFIT_CONF_RULE);
		if (w->fits_nic && !listed((char (*)[24])k->fits_nics, k->nfits_nics, w->fits_nic))
			fail_msg("%s: %s not among the NICs it fits", w->part, w->fits_nic);
		if (w->fits_switch &&
		    !listed((char (*)[24])k->fits_switches, k->nfits_switches, w->fits_switch))
			fail_msg("%s: %s not among the switches it fits", w->part, w->fits_switch);
		if (w->not_switch &&
		    listed((char (*)[24])k->fits_switches, k->nfits_switches, w->not_switch))
			fail_msg("%s: listed as fitting %s", w->part, w->not_switch);
	}
	/* MCA4J80 -FLT: flat tops at both ends (liquid-cooled switches), no air-cooled cage */
	assert_int_equal(nicfit_decode(cat, "MCA4J80-N003-FLT", &p, &err), 0);
	assert_string_equal(p.cable.top_a, "flat");
	assert_string_equal(p.cable.top_b, "flat");
	assert_int_equal(p.cable.nfits_switches, 0);
	/* a flat-top OSFP NIC takes no twin-port finned end; no NIC takes MCP4Y10 */
	assert_int_equal(nicfit_decode(cat, "MCP4Y10-N002", &p, &err), 0);
	assert_int_equal(p.cable.nfits_nics, 0);
	/* not a rate letter, no length */
	assert_int_equal(nicfit_decode(cat, "MCP1600-Q003", &p, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "rate letter"));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(cat, "MCP1600-C", &p, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "length"));
	nicfit_catalog_free(cat);
}

/*
 * Three facts the decoder had wrong (issue 12): the E810-CQDA2 moves about
 * 100 Gb/s over both ports together (as calc nic has it), the MCX545B is
 * PCIe 3.0 x16, the MCX311A x4.
 */
static void corrected_facts(void **state)
{
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	struct nicfit_part p;
	int i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	assert_int_equal(nicfit_decode(cat, "E810-CQDA2", &p, &err), 0);
	assert_true(p.nslots > 0);
	for (i = 0; i < p.nslots; i++)
		assert_true(p.slots[i].effective_gbps <= 100 + 1e-9);
	assert_int_equal(nicfit_decode(NULL, "E810-CQDA2", &p, &err), 0);
	assert_near(p.card_gbps, 100, 1e-9);
	assert_true(p.slots[0].effective_gbps <= 100 + 1e-9);
	assert_int_equal(nicfit_decode(NULL, "MCX545B-ECAN", &p, &err), 0);
	assert_int_equal(p.pcie_width, 16);
	assert_int_equal(nicfit_decode(NULL, "MCX542B-ACAN", &p, &err), 0);
	assert_int_equal(p.pcie_width, 8);
	assert_int_equal(nicfit_decode(NULL, "MCX311A-XCAT", &p, &err), 0);
	assert_int_equal(p.pcie_width, 4);
	assert_int_equal(nicfit_decode(NULL, "MCX312A-XCBT", &p, &err), 0);
	assert_int_equal(p.pcie_width, 8);
	nicfit_catalog_free(cat);
}

/*
 * Every BlueField-3 OPN nicfit's table holds decodes, with an ordering
 * suffix as NVIDIA prints it: DPUs (B3210, B3210L, B3220, B3240, B3140L,
 * crypto on C, off on S) and SuperNICs (B3140H, B3220L), family, ports,
 * rate, PCIe generation and crypto as the DOCA and BlueField-3 user-guide
 * tables give them (src/lib/parts/partno_sku.c).
 */
static void bluefield3_every_sku(void **state)
{
	static const struct {
		const char *opn, *family;
		int ports;
		double gbps;
		int gen, crypto;
	} t[] = {
		{ "900-9D3B6-00CV-AA0", "BlueField-3", 2, 200, 5, 1 },
		{ "900-9D3B6-00SV-AA0", "BlueField-3", 2, 200, 5, 0 },
		{ "900-9D3B6-00CN-AB0", "BlueField-3", 2, 400, 5, 1 },
		{ "900-9D3B6-00SN-AB0", "BlueField-3", 2, 400, 5, 0 },
		{ "900-9D3B6-00CC-AA0", "BlueField-3", 2, 100, 5, 1 },
		{ "900-9D3B6-00SC-AA0", "BlueField-3", 2, 100, 5, 0 },
		{ "900-9D3B4-00CC-EA0", "BlueField-3", 2, 100, 4, 1 },
		{ "900-9D3B4-00SC-EA0", "BlueField-3", 2, 100, 4, 0 },
		{ "900-9D3B4-00PN-EA0", "BlueField-3", 1, 400, 5, -1 },
		{ "900-9D3D4-00EN-HA0", "BlueField-3 SuperNIC", 1, 400, 5, -1 },
		{ "900-9D3D4-00NN-HA0", "BlueField-3 SuperNIC", 1, 400, 5, -1 },
		{ "900-9D3B4-00CV-EA0", "BlueField-3 SuperNIC", 2, 200, 5, -1 },
		{ "900-9D3B4-00SV-EA0", "BlueField-3 SuperNIC", 2, 200, 5, -1 },
	};
	struct nicfit_error err;
	struct nicfit_part p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		nicfit_error_clear(&err);
		if (nicfit_decode(NULL, t[i].opn, &p, &err))
			fail_msg("%s: %s", t[i].opn, err.msg);
		if (strcmp(p.family, t[i].family) || p.ports != t[i].ports ||
		    p.port_gbps != t[i].gbps || p.pcie_gen != t[i].gen || p.crypto != t[i].crypto)
			fail_msg("%s: %s, %d ports of %g, Gen%d, crypto %d", t[i].opn, p.family,
				 p.ports, p.port_gbps, p.pcie_gen, p.crypto);
		assert_string_equal(p.cage, "QSFP112");
	}
}

/* ConnectX-8 SuperNIC and BlueField-3 SKUs and model names (partno_sku.c sources). */
static void supernic_skus(void **state)
{
	struct nicfit_error err;
	struct nicfit_part p;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "900-9X81E-00EX-ST0", &p, &err), 0);
	assert_string_equal(p.family, "ConnectX-8 SuperNIC");
	assert_int_equal(p.kind, NICFIT_PART_NIC);
	assert_string_equal(p.cage, "OSFP");
	assert_string_equal(p.ib_rate, "XDR");
	assert_int_equal(p.pcie_gen, 6);
	assert_int_equal(p.pcie_width, 16);
	assert_int_equal(p.slots[1].gen, 5);
	assert_non_null(strstr(p.summary, "2 x 400GbE"));
	assert_int_equal(nicfit_decode(NULL, "900-9X81Q-00CN-ST0", &p, &err), 0);
	assert_int_equal(p.ports, 2);
	assert_string_equal(p.cage, "QSFP112");
	assert_int_equal(nicfit_decode(NULL, "900-9D3B6-00CV-AAH", &p, &err), 0);
	assert_int_equal(p.kind, NICFIT_PART_DPU);
	assert_string_equal(p.family, "BlueField-3");
	assert_int_equal(p.ports, 2);
	assert_near(p.port_gbps, 200, 1e-9);
	assert_string_equal(p.ib_rate, "NDR200");
	assert_int_equal(p.pcie_gen, 5);
	assert_int_equal(p.crypto, 1);
	assert_int_equal(nicfit_decode(NULL, "900-9D3B6-00SV-AA0", &p, &err), 0);
	assert_int_equal(p.crypto, 0);
	assert_int_equal(nicfit_decode(NULL, "B3240", &p, &err), 0);
	assert_near(p.port_gbps, 400, 1e-9);
	assert_int_equal(p.crypto, -1);
	assert_int_equal(nicfit_decode(NULL, "900-9D3B6-00ZZ", &p, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "not in nicfit's table"));
	/* the B3220SH storage controller: model name only, from a secondary source */
	assert_int_equal(nicfit_decode(NULL, "B3220SH", &p, &err), 0);
	assert_int_equal(p.kind, NICFIT_PART_DPU);
	assert_int_equal(p.ports, 2);
	assert_near(p.port_gbps, 200, 1e-9);
	assert_non_null(strstr(p.source, "secondary"));
	assert_true(p.nunverified >= 3);
	assert_null(strstr(p.notes[0], "give the 900-"));
}

/* RDMA by generation: ConnectX-3 RoCE v1 only, Pro v2; MLNX_OFED 4.9 LTS the last stack. */

static void roce_generation(void **state)
{
	struct nicfit_error err;
	struct nicfit_part p;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "MCX354A-FCBT", &p, &err), 0);
	assert_true(has_note(&p, "RoCE v1 only"));
	assert_true(has_note(&p, "MLNX_OFED 4.9 LTS"));
	assert_int_equal(nicfit_decode(NULL, "MCX312B-XCCT", &p, &err), 0);
	assert_string_equal(p.family, "ConnectX-3 Pro");
	assert_true(has_note(&p, "RoCE v1 and RoCE v2"));
	assert_int_equal(nicfit_decode(NULL, "MCX4121A-ACAT", &p, &err), 0);
	assert_false(has_note(&p, "RoCE v1"));
	/* the facts the planner takes from the parts layer */
	assert_true(nicfit_family_roce_v1_only("ConnectX-3"));
	assert_false(nicfit_family_roce_v1_only("ConnectX-3 Pro"));
	assert_false(nicfit_family_roce_v1_only("ConnectX-4 Lx"));
	assert_false(nicfit_family_roce_v1_only(NULL));
	assert_true(nicfit_family_past_driver_support("ConnectX-3"));
	assert_true(nicfit_family_past_driver_support("ConnectX-3 Pro"));
	assert_false(nicfit_family_past_driver_support("ConnectX-4"));
	assert_false(nicfit_family_past_driver_support(NULL));
}

/* Broadcom NetXtreme-E adapter names: controller, form, ports, rate; errors at their column. */
static void broadcom_adapters(void **state)
{
	struct nicfit_error err;
	struct nicfit_part p;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "bcm957608-p1400gdf00", &p, &err), 0);
	assert_string_equal(p.family, "Broadcom BCM57608");
	assert_int_equal(p.ports, 1);
	assert_true(p.port_gbps == 400);
	assert_int_equal(p.pcie_gen, 5);
	assert_int_equal(p.pci_device, 0x1760);
	assert_string_equal(p.form_factor, "pcie-hhhl");
	assert_int_equal(p.confidence, NICFIT_CONF_RULE);
	assert_true(p.rdma & NICFIT_RDMA_ROCE);
	assert_true(has_note(&p, "support_rdma"));
	assert_int_equal(nicfit_decode(NULL, "BCM957608-N2200G", &p, &err), 0);
	assert_string_equal(p.form_factor, "ocp3");
	assert_int_equal(p.ports, 2);
	assert_true(p.port_gbps == 200);
	assert_true(has_note(&p, "single-port mode"));
	assert_int_equal(nicfit_decode(NULL, "BCM957508-P2100G", &p, &err), 0);
	assert_string_equal(p.cage, "QSFP56");
	assert_int_equal(p.pcie_gen, 4);
	/* a rate past the controller, a missing dash, a wrong form letter */
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "BCM957508-P1400G", &p, &err), NICFIT_E_DATA);
	assert_int_equal(err.col, 11);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "BCM957608P2200G", &p, &err), NICFIT_E_DATA);
	assert_int_equal(err.col, 10);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "BCM957608-X2200G", &p, &err), NICFIT_E_DATA);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "BCM957608-", &p, &err), NICFIT_E_DATA);
}

/* Hostile sizes: bounded work, a clear message. */
static void huge_inputs(void **state)
{
	size_t n = 200 * 1024, i;
	char *big = malloc(n + 1);
	struct nicfit_part p;
	struct nicfit_error err;

	(void)state;
	assert_non_null(big);
	memset(big, 'A', n);
	big[n] = '\0';
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, big, &p, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "more than 4096 characters"));
	memcpy(big, "MCX4121A-ACAT", 13);
	for (i = 13; i < n; i++)
		big[i] = ' ';
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, big, &p, &err), NICFIT_E_DATA);
	big[100] = '\0';
	nicfit_error_clear(&err); /* 13 characters and spaces: fine */
	assert_int_equal(nicfit_decode(NULL, big, &p, &err), 0);
	memset(big, 'A', 60);
	big[60] = '\0';
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, big, &p, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "too long for a part number (60 characters"));
	assert_int_equal(err.col, NICFIT_PART_MAX + 1);
	free(big);
}

/* With the catalog: its facts win, the article's parts say "catalog". */
static void with_catalog(void **state)
{
	static const char *const named[] = { "MCX556A-ECAT", "MCX4121A-ACAT", "MCX653105A-HDAT",
		"X710-DA2", "mcx556a-ecat", "x710da2" };
	struct nicfit_catalog *cat;
	struct nicfit_part p;
	struct nicfit_error err;
	size_t i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		nicfit_error_clear(&err);
		if (nicfit_decode(cat, named[i], &p, &err))
			fail_msg("%s: %s", named[i], err.msg);
		if (p.confidence != NICFIT_CONF_CATALOG || !p.catalog_id[0])
			fail_msg("%s: not found in the catalog", named[i]);
		if (!p.source[0] || !p.name[0])
			fail_msg("%s: catalog source or name missing", named[i]);
		if (p.nreading < 3)
			fail_msg("%s: the rules' reading is missing", named[i]);
	}
	/* not in the catalog: still decodes, by rule */
	assert_int_equal(nicfit_decode(cat, "MCX623106AE-CDAT", &p, &err), 0);
	assert_int_equal(p.confidence, NICFIT_CONF_RULE);
	assert_string_equal(p.catalog_id, "");
	/* the rules do not know how many slots a card takes; the catalog does */
	assert_string_equal(p.slot_width, "");
	assert_int_equal(nicfit_decode(cat, "MCX556A-ECAT", &p, &err), 0);
	assert_string_equal(p.slot_width, "single");
	assert_null(strstr(p.summary, "dual-slot"));
	assert_int_equal(nicfit_decode(cat, "900-9D3B6-00CN-AB0", &p, &err), 0);
	assert_string_equal(p.slot_width, "double");
	assert_non_null(strstr(p.summary, ", dual-slot"));
	assert_int_equal(nicfit_decode(cat, "900-9D3B6-00CV-AA0", &p, &err), 0);
	assert_string_equal(p.slot_width, "single");
	/* an OCP card has no PCIe slot width */
	assert_int_equal(nicfit_decode(cat, "MCX4421A-ACQN", &p, &err), 0);
	assert_string_equal(p.form_factor, "ocp2");
	assert_string_equal(p.slot_width, "");
	/* a firmware-tool string finds the catalog part by all but the bracket letter */
	assert_int_equal(nicfit_decode(cat, "mcx556a-eca_ax", &p, &err), 0);
	assert_int_equal(p.confidence, NICFIT_CONF_CATALOG);
	assert_string_equal(p.catalog_id, "mcx556a-ecat");
	assert_true(has_note(&p, "drop the bracket letter"));
	/* a typo gets a suggestion */
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(cat, "mcx556a-ecatt", &p, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "did you mean 'mcx556a-ecat'?"));
	nicfit_catalog_free(cat);
}

/* Where the catalog and the rules disagree, a note says so; the catalog wins. */
static void disagreement(void **state)
{
	static const char overlay[] =
		"{ \"schema\": \"nicfit.catalog.v1\", \"nics\": [ {"
		"\"id\": \"mcx4111a-acat\", \"name\": \"test entry\", \"part\": \"MCX4111A-ACAT\","
		"\"vendor\": \"NVIDIA\", \"family\": \"ConnectX-4 Lx\", \"protocol\": \"EN\","
		"\"ports\": 2, \"cage\": \"SFP28\", \"port_gbps\": 25, \"speeds_gbps\": [25],"
		"\"ib_rate\": null, \"pcie_gen\": 3, \"pcie_width\": 8, \"rdma\": [\"roce\"],"
		"\"vpi\": false, \"pci\": {\"vendor\": \"15b3\", \"device\": \"1015\"},"
		"\"form_factor\": \"pcie-hhhl\", \"source\": \"a test\" } ] }";
	struct nicfit_catalog *cat;
	struct nicfit_part p;
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new_empty(&cat, &err), 0);
	if (nicfit_catalog_overlay(cat, "test", overlay, sizeof(overlay) - 1, &err))
		fail_msg("overlay: %s", err.msg);
	assert_int_equal(nicfit_decode(cat, "MCX4111A-ACAT", &p, &err), 0);
	assert_int_equal(p.confidence, NICFIT_CONF_CATALOG);
	assert_int_equal(p.ports, 2);
	assert_true(has_note(&p, "rules read ports as 1; the catalog says 2"));
	assert_string_equal(p.source, "a test");
	nicfit_catalog_free(cat);
}

/* Every ConnectX and Intel NIC in the embedded catalog reads the same by rule. */
static void catalog_agrees_with_rules(void **state)
{
	struct nicfit_catalog *cat;
	struct nicfit_part p;
	struct nicfit_error err;
	size_t i, n, checked = 0;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	n = nicfit_catalog_count(cat, NICFIT_KIND_NIC);
	for (i = 0; i < n; i++) {
		const struct nicfit_nic *nic = nicfit_catalog_nic(cat, i);
		int k;

		if (!nic->part || (strncmp(nic->part, "MCX", 3) && strcmp(nic->vendor, "Intel")))
			continue;
		nicfit_error_clear(&err);
		if (nicfit_decode(cat, nic->part, &p, &err))
			fail_msg("%s: %s", nic->part, err.msg);
		for (k = 0; k < p.nnotes; k++)
			if (strstr(p.notes[k], "rules read") || strstr(p.notes[k], "cannot read"))
				fail_msg("%s: %s", nic->part, p.notes[k]);
		checked++;
	}
	assert_true(checked > 0 || n == 0);
	nicfit_catalog_free(cat);
}

static int part_unverified(const struct nicfit_part *p, const char *field)
{
	int i;

	for (i = 0; i < p->nunverified; i++)
		if (!strcmp(p->unverified[i], field))
			return 1;
	return 0;
}

/*
 * A ConnectX-6 moves about 200 Gb/s over all its ports (Lenovo LP1195,
 * nic-identity.md 1.7): every dual-port HDR or 200GbE ConnectX-6 of the
 * catalog has card_gbps 200, unverified, and the rules give the same to
 * any such part they read, so decode, calc nic and plan stop at 200 on
 * both; single-port cards and the ConnectX-6 Dx keep none.
 */
static void cx6_card_total(void **state)
{
	static const char *const none[] = { "MCX653105A-HDAT", "MCX623106AN-CDAT", "MCX631102AN-ADAT" };
	struct nicfit_catalog *cat;
	struct nicfit_part p;
	struct nicfit_error err;
	struct nicfit_card card;
	struct nicfit_pcie_params pp;
	struct nicfit_link_params lp;
	struct nicfit_nic_fit f;
	size_t i, n, checked = 0;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "MCX653436A-HDAI", &p, &err), 0);
	assert_near(p.card_gbps, 200, 1e-9);
	assert_true(part_unverified(&p, "card_gbps"));
	assert_true(has_note(&p, "across all its ports together"));
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		assert_int_equal(nicfit_decode(NULL, none[i], &p, &err), 0);
		if (p.card_gbps != 0)
			fail_msg("%s: card_gbps %g", none[i], p.card_gbps);
	}
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	n = nicfit_catalog_count(cat, NICFIT_KIND_NIC);
	for (i = 0; i < n; i++) {
		const struct nicfit_nic *nic = nicfit_catalog_nic(cat, i);

		if (strcmp(nic->family, "ConnectX-6") || nic->ports * nic->port_gbps <= 200)
			continue;
		if (nic->card_gbps != 200 || !nicfit_entry_unverified(&nic->e, "card_gbps"))
			fail_msg("%s: card_gbps %g, unverified %d", nic->e.id, nic->card_gbps,
				 nicfit_entry_unverified(&nic->e, "card_gbps"));
		nicfit_error_clear(&err);
		assert_int_equal(nicfit_decode(NULL, nic->part, &p, &err), 0);
		if (p.card_gbps != nic->card_gbps)
			fail_msg("%s: the rules read card_gbps %g", nic->part, p.card_gbps);
		checked++;
	}
	assert_int_equal(checked, 3);
	/* calc nic: two HDR ports in a Gen4 x16 slot stop at the card's 200 */
	nicfit_pcie_params_default(&pp);
	nicfit_link_params_default(&lp);
	assert_int_equal(nicfit_card_resolve(cat, "mcx653106a-hdat", &card, NULL, &err), 0);
	assert_int_equal(nicfit_calc_nic(&card, 4, 16, 0, NICFIT_PROTO_ROCE, &pp, &lp, &f, &err), 0);
	assert_string_equal(f.limited_by, "card");
	assert_near(f.effective_gbps, 196.07, 0.01);
	nicfit_catalog_free(cat);
}

/* The document: schema, required fields and their JSON types. */
static void json_document(void **state)
{
	static const struct { const char *key; int type; } req[] = {
		{ "schema", JSON_STRING }, { "part", JSON_STRING }, { "vendor", JSON_STRING },
		{ "family", JSON_STRING }, { "protocol", JSON_STRING }, { "ports", JSON_INTEGER },
		{ "cage", JSON_STRING }, { "port_gbps", JSON_REAL }, { "ib_rate", JSON_NULL },
		{ "pcie_gen", JSON_INTEGER }, { "pcie_width", JSON_INTEGER }, { "rdma", JSON_TRUE },
		{ "form_factor", JSON_STRING }, { "notes", JSON_ARRAY }, { "confidence", JSON_STRING },
		{ "reading", JSON_ARRAY }, { "slots", JSON_ARRAY }, { "summary", JSON_STRING },
		{ "pci", JSON_OBJECT }, { "rdma_kinds", JSON_ARRAY }, { "crypto", JSON_TRUE },
		{ "secure_boot", JSON_FALSE },
	};
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	struct nicfit_part p;
	struct nicfit_error err;
	struct nicfit_buf out;
	json_error_t jerr;
	json_t *doc, *v, *slot;
	size_t i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "MCX623106AE-CDAT", &p, &err), 0);
	nicfit_decode_render(e, &p);
	nicfit_buf_init(&out, 0);
	assert_int_equal(nicfit_emit_finish(e, &out), 0);
	nicfit_emit_free(e);
	doc = json_loads(out.data, 0, &jerr);
	assert_non_null(doc);
	for (i = 0; i < sizeof(req) / sizeof(req[0]); i++) {
		v = json_object_get(doc, req[i].key);
		if (!v)
			fail_msg("no '%s'", req[i].key);
		if ((int)json_typeof(v) != req[i].type &&
		    !(req[i].type == JSON_REAL && json_is_number(v)))
			fail_msg("'%s' has JSON type %d, expected %d", req[i].key,
				 (int)json_typeof(v), req[i].type);
	}
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "nicfit.decode.v1");
	assert_string_equal(json_string_value(json_object_get(doc, "confidence")), "rule");
	assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "pci"),
							       "device")), "101d");
	v = json_object_get(doc, "reading");
	assert_string_equal(json_string_value(json_object_get(json_array_get(v, 0), "chars")),
			    "MCX");
	/* planning: computed by nicfit_calc_nic; a Gen3 x16 slot caps 2 x 100G */
	v = json_object_get(doc, "slots");
	assert_int_equal(json_array_size(v), 2);
	slot = json_array_get(v, 1);
	assert_string_equal(json_string_value(json_object_get(slot, "slot")), "gen3x16");
	assert_string_equal(json_string_value(json_object_get(slot, "limited_by")), "pcie");
	json_decref(doc);
	nicfit_buf_release(&out);
}

/* The planning numbers are nicfit_calc_nic's, not a copy of them. */
static void slots_match_calc(void **state)
{
	struct nicfit_pcie_params pp;
	struct nicfit_link_params lp;
	struct nicfit_nic_fit r;
	struct nicfit_card card;
	struct nicfit_part p;
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_decode(NULL, "MCX653105A-HDAT", &p, &err), 0);
	assert_int_equal(nicfit_part_card(&p, &card), 0);
	assert_int_equal(card.ports, 1);
	assert_int_equal(card.pcie_gen, 4);
	assert_string_equal(card.ib_rate, "HDR");
	nicfit_pcie_params_default(&pp);
	nicfit_link_params_default(&lp);
	assert_int_equal(nicfit_calc_nic(&card, 3, 16, 0, NICFIT_PROTO_ROCE, &pp, &lp, &r, &err), 0);
	assert_int_equal(p.nslots, 2);
	assert_int_equal(p.slots[1].gen, 3);
	assert_near(p.slots[1].effective_gbps, r.effective_gbps, 1e-9);
	assert_string_equal(p.slots[1].limited_by, "pcie");
	assert_string_equal(p.slots[0].limited_by, "ports");
	/* a DPU has no card */
	assert_int_equal(nicfit_decode(NULL, "MBF2H332A-AEEOT", &p, &err), 0);
	assert_int_equal(nicfit_part_card(&p, &card), NICFIT_E_DATA);
	assert_int_equal(p.nslots, 0);
}

/* calc nic --part takes any OPN the decoder reads. */
static void card_resolve(void **state)
{
	struct nicfit_catalog *cat;
	const struct nicfit_nic *nic = NULL;
	struct nicfit_card card;
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	assert_int_equal(nicfit_card_resolve(cat, "MCX623106AE-CDAT", &card, &nic, &err), 0);
	assert_null(nic);
	assert_int_equal(card.ports, 2);
	assert_int_equal(card.pcie_width, 16);
	assert_int_equal(nicfit_card_resolve(cat, "MCX556A-ECAT", &card, &nic, &err), 0);
	assert_non_null(nic);
	assert_int_equal(nicfit_card_resolve(NULL, "MCX4111A-ACAT", &card, &nic, &err), 0);
	assert_int_equal(card.ports, 1);
	assert_near(card.port_gbps, 25, 1e-9);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_card_resolve(cat, "hello", &card, &nic, &err), NICFIT_E_DATA);
	assert_string_equal(err.input, "--part");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_card_resolve(cat, "MBF2H332A-AEEOT", &card, &nic, &err),
			 NICFIT_E_DATA);
	nicfit_catalog_free(cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reference_opns),
		cmocka_unit_test(reference_intel),
		cmocka_unit_test(rule_only_opns),
		cmocka_unit_test(notes),
		cmocka_unit_test(cx6_card_total),
		cmocka_unit_test(reading),
		cmocka_unit_test(not_part_numbers),
		cmocka_unit_test(linkx_opns),
		cmocka_unit_test(corrected_facts),
		cmocka_unit_test(supernic_skus),
		cmocka_unit_test(bluefield3_every_sku),
		cmocka_unit_test(roce_generation),
		cmocka_unit_test(broadcom_adapters),
		cmocka_unit_test(huge_inputs),
		cmocka_unit_test(with_catalog),
		cmocka_unit_test(disagreement),
		cmocka_unit_test(catalog_agrees_with_rules),
		cmocka_unit_test(json_document),
		cmocka_unit_test(slots_match_calc),
		cmocka_unit_test(card_resolve),
	};

	return cmocka_run_group_tests_name("partno", tests, NULL, NULL);
}
