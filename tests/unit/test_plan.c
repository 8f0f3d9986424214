/*
 * test_plan.c - the planner against the reference article's situations,
 * a table of the back-end rule, and properties that must hold for any
 * request: more servers never remove the back end of a training job, a
 * faster slot never yields a slower card, the BOM total is its lines' sum.
 */
#include "unit.h"

#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

#include "nicfit/catalog.h"
#include "nicfit/plan.h"

#include "plan_fixture.h"
#include "plan/plan_int.h"
#include "core/fmt_int.h"

static const struct nicfit_finding *finding(const struct nicfit_plan *p, const char *code)
{
	size_t i;

	for (i = 0; i < p->findings.n; i++)
		if (!strcmp(p->findings.v[i].code, code))
			return &p->findings.v[i];
	return NULL;
}

/* The last applied decision of rule whose text starts with start, NULL if none. */
static const struct nicfit_finding *decision(const struct nicfit_plan *p, const char *rule,
					     const char *start)
{
	const struct nicfit_finding *d = NULL;
	size_t i;

	for (i = 0; i < p->decisions.n; i++)
		if (!strcmp(p->decisions.v[i].code, rule) && p->decisions.v[i].applied &&
		    !strncmp(p->decisions.v[i].message, start, strlen(start)))
			d = &p->decisions.v[i];
	return d;
}

/* A plan from plan_of() is done with. */
static void done(struct nicfit_plan *p)
{
	nicfit_plan_release(p);
	free(p);
}

static const struct nicfit_plan_cable *cable(const struct nicfit_plan *p, const char *link)
{
	size_t i;

	for (i = 0; i < p->ncables; i++)
		if (!strcmp(p->cables[i].link, link))
			return &p->cables[i];
	return NULL;
}

static const struct nicfit_plan_line *line(const struct nicfit_plan *p, const char *part)
{
	size_t i;

	for (i = 0; i < p->nbom; i++)
		if (!strcasecmp(p->bom[i].part, part))
			return &p->bom[i];
	return NULL;
}

/* One R740xd, two A40s, a 70B model at 4-bit: no back end, onboard X710, 35-40 s load. */
static void article_single_server(void **state)
{
	static const char *const kv[] = { "server", "r740xd", "gpu", "a40", "gpus_per_server", "2",
		"model", "llama-3-70b", "precision", "int4", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_int_equal(p->backend_needed, 0);
	assert_true(p->fits_one_server);
	assert_true(p->fit.total_gb <= p->fit.gpu_gb * 0.9); /* one 48 GB A40 runs it */
	assert_int_equal(p->fe_onboard, 1);
	assert_near(p->fe_port_gbps, 10, 1e-9);
	assert_true(p->load_s > 30 && p->load_s < 40);
	assert_null(p->be_nic);
	assert_non_null(cable(p, "oob"));
	done(p);
}

/* 70B at 16 bits does not fit two A40s. */
static void article_16bit_does_not_fit(void **state)
{
	static const char *const kv[] = { "server", "r740xd", "gpu", "a40", "gpus_per_server", "2",
		"model", "llama-3-70b", "precision", "fp16", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_false(p->fits_one_server);
	assert_true(p->servers_needed >= 2);
	assert_non_null(finding(p, "not-enough-servers"));
	assert_int_equal(finding(p, "not-enough-servers")->severity, NICFIT_SEV_CRITICAL);
	done(p);
}

static void article_replicas(void **state)
{
	static const char *const kv[] = { "server", "r740xd", "servers", "8", "gpu", "a40",
		"gpus_per_server", "2", "model", "llama-3-70b", "precision", "int4", "workload",
		"replicated-inference", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_int_equal(p->backend_needed, 0);
	assert_null(line(p, "MCX556A-ECAT"));
	done(p);
}

/* Two R740xd training: MCX556A-ECAT at about 100 Gb/s with a QSFP28 DAC. */
static void article_two_node_training(void **state)
{
	static const char *const kv[] = { "server", "r740xd", "servers", "2", "gpu", "a40",
		"gpus_per_server", "2", "model", "llama-3-8b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_plan_cable *c;

	(void)state;
	assert_int_equal(p->backend_needed, 1);
	assert_string_equal(p->be_part, "MCX556A-ECAT");
	assert_true(p->be_effective_gbps > 90 && p->be_effective_gbps <= 100);
	assert_string_equal(p->be_limited_by, "ports");
	c = cable(p, "backend");
	assert_non_null(c);
	assert_non_null(strstr(c->ends, "QSFP28"));
	assert_int_equal(p->back_to_back, 1);
	assert_non_null(line(p, "MCX556A-ECAT"));
	assert_int_equal(line(p, "MCX556A-ECAT")->qty, 2);
	assert_near(line(p, "MCX556A-ECAT")->unit_usd, 244.95, 1e-9);
	assert_true(p->nest >= 2);
	done(p);
}

/* A 200G ConnectX-6 forced into a Gen3 slot is capped near 100G and flagged. */
static void article_capped(void **state)
{
	static const char *const kv[] = { "server", "r740xd", "servers", "2", "gpu", "a40",
		"gpus_per_server", "2", "workload", "training", "backend_nic", "mcx653105a-hdat", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_finding *f;

	(void)state;
	assert_string_equal(p->be_part, "MCX653105A-HDAT");
	assert_true(p->be_effective_gbps > 90 && p->be_effective_gbps < 115);
	assert_string_equal(p->be_limited_by, "pcie");
	f = finding(p, "backend-capped");
	assert_non_null(f);
	assert_non_null(strstr(f->fix, "MCX556A-ECAT"));
	done(p);
}

/*
 * A ConnectX-8 (Gen6) in a Gen5 host: over two x16 links, the second on
 * the other socket, when the target is its 800G port (784 Gb/s, as calc
 * nic gives with two --slot values); over one when 400 Gb/s is asked.
 */
static void cx8_socket_direct_in_gen5(void **state)
{
	static const char *const two[] = { "server", "dl380a-gen11", "servers", "2", "gpu",
		"h100-pcie", "gpus_per_server", "2", "workload", "training", "backend_nic",
		"900-9x81e-00ex-st0", NULL };
	static const char *const one[] = { "server", "dl380a-gen11", "servers", "2", "gpu",
		"h100-pcie", "gpus_per_server", "2", "workload", "training", "backend_nic",
		"900-9x81e-00ex-st0", "backend_gbps", "400", NULL };
	struct nicfit_plan *p = plan_of(two);
	size_t i;
	int m, a, kit = 0;

	(void)state;
	assert_non_null(p->be_sd_nic);
	m = p->be_slots[0];
	a = p->be_aux_slots[0];
	assert_true(m >= 0 && a >= 0);
	assert_int_not_equal(p->in.server->slots[m].socket, p->in.server->slots[a].socket);
	assert_true(p->be_effective_gbps > 780 && p->be_effective_gbps < 790);
	assert_non_null(decision(p, "R6", "Socket Direct option"));
	/* one auxiliary kit per card and server, unpriced, named by what it is */
	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].part, "pcie-aux-kit-cx8")) {
			kit = 1;
			assert_int_equal(p->bom[i].qty, 2);
			assert_false(p->bom[i].priced);
		}
	assert_true(kit);
	done(p);
	p = plan_of(one);
	assert_null(p->be_sd_nic);
	assert_true(p->be_effective_gbps > 410 && p->be_effective_gbps < 415);
	assert_non_null(decision(p, "R6", "Socket Direct option"));
	/* 412 Gb/s meets the 400 asked for: headroom, not backend-capped */
	assert_null(finding(p, "backend-capped"));
	assert_non_null(decision(p, "R5", "900-9X81E-00EX-ST0: PCIe Gen5 x16 feeds"));
	for (i = 0; i < p->nbom; i++)
		assert_string_not_equal(p->bom[i].part, "pcie-aux-kit-cx8");
	done(p);
}

/*
 * Gaudi 3 scales out over its own 24 x 200 GbE ports (three of each
 * accelerator's leave the box): eight servers of them train over those
 * ports, so the step table has a row for them (all 24 of a server's at
 * their RoCE v2 goodput), the Network line judges the step over them, and
 * the bill of materials holds the switch and the cables for the servers'
 * cages as nicfit cluster sizes them, with no NIC card bought.
 */
static void gaudi_own_ports_priced(void **state)
{
	static const char *const kv[] = { "server", "generic-gaudi3-8oam", "servers", "8",
		"model", "llama-3.1-405b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);
	size_t i;
	int sw = 0, backend = 0;

	(void)state;
	assert_true(p->be_integrated);
	assert_null(p->be_nic);
	assert_true(p->be_node_gbps > 4500 && p->be_node_gbps < 4800);
	assert_true(p->nest > 0);
	assert_non_null(strstr(p->est[0].label, "own 24 x 200G"));
	assert_true(p->step_be_known);
	for (i = 0; i < p->nbom; i++) {
		sw += !strcmp(p->bom[i].role, "switch");
		backend += !strcmp(p->bom[i].role, "backend");
		assert_false(p->bom[i].included);
	}
	assert_int_equal(sw, 1);
	assert_true(backend > 0);
	done(p);
}

/*
 * vpi-port-mode's fix names every port of the card, as R7's decision does:
 * mlxconfig sets LINK_TYPE_P1 and LINK_TYPE_P2 apart, so a fix naming P1
 * alone leaves the dual-port MCX556A-ECAT's second port in the other mode.
 * The single-port MCX653105A-HDAT has P1 only.
 */
static void vpi_fix_names_every_port(void **state)
{
	static const char *const two[] = { "server", "r740xd", "servers", "2", "gpu", "a40",
		"gpus_per_server", "2", "model", "llama-3-8b", "workload", "training", NULL };
	static const char *const one[] = { "server", "r740xd", "servers", "2", "gpu", "a40",
		"gpus_per_server", "2", "workload", "training", "backend_nic", "mcx653105a-hdat",
		"fabric", "infiniband", NULL };
	struct nicfit_plan *p = plan_of(two);
	const struct nicfit_finding *f;
	size_t k;
	int r7 = 0;

	(void)state;
	assert_string_equal(p->be_part, "MCX556A-ECAT");
	f = finding(p, "vpi-port-mode");
	assert_non_null(f);
	assert_string_equal(f->fix, "mlxconfig -d <PCI address> set LINK_TYPE_P1=2 LINK_TYPE_P2=2");
	for (k = 0; k < p->decisions.n; k++)
		r7 += strstr(p->decisions.v[k].message, f->fix) != NULL;
	assert_int_equal(r7, 1);
	done(p);
	p = plan_of(one);
	f = finding(p, "vpi-port-mode");
	assert_non_null(f);
	assert_string_equal(f->fix, "mlxconfig -d <PCI address> set LINK_TYPE_P1=1");
	done(p);
}

static void article_gen4_gets_200g(void **state)
{
	static const char *const kv[] = { "server", "generic-gen4", "servers", "2", "gpu", "l40s",
		"gpus_per_server", "2", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_near(p->be_port_gbps, 200, 1e-9);
	assert_true(p->be_effective_gbps > 180);
	done(p);
}

static void article_budget_lab(void **state)
{
	static const char *const kv[] = { "server", "r740xd", "servers", "2", "gpu", "a40",
		"gpus_per_server", "2", "workload", "fine-tuning", "backend_gbps", "25", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_string_equal(p->be_part, "MCX4121A-ACAT");
	assert_non_null(line(p, "MCP2M00-A001"));
	assert_near(line(p, "MCP2M00-A001")->unit_usd, 29.00, 1e-9);
	done(p);
}

static void article_x710_refused(void **state)
{
	static const char *const kv[] = { "server", "r740xd", "servers", "2", "gpu", "a40",
		"gpus_per_server", "2", "workload", "training", "backend_nic", "x710-da2", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_finding *f = finding(p, "backend-no-rdma");

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_CRITICAL);
	assert_non_null(p->be_nic);
	assert_true(p->be_nic->rdma != 0);
	done(p);
}

/* R2 as a table: workload x servers -> back end needed. */
static void rule_backend_table(void **state)
{
	static const struct { const char *wl; const char *servers; int want; } t[] = {
		{ "inference", "1", 0 }, { "inference", "4", 0 },
		{ "replicated-inference", "1", 0 }, { "replicated-inference", "16", 0 },
		{ "multi-node-inference", "1", 0 }, { "multi-node-inference", "2", 1 },
		{ "training", "1", 0 }, { "training", "2", 1 }, { "training", "32", 1 },
		{ "fine-tuning", "1", 0 }, { "fine-tuning", "3", 1 },
		{ "rdma-storage", "1", 1 }, { "rdma-storage", "4", 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *kv[] = { "server", "r740xd", "gpu", "a40", "gpus_per_server", "2",
			"model", "llama-3-8b", "workload", t[i].wl, "servers", t[i].servers, NULL };
		struct nicfit_plan *p = plan_of(kv);

		if (p->backend_needed != t[i].want)
			fail_msg("%s on %s servers: backend_needed %d, want %d", t[i].wl,
				 t[i].servers, p->backend_needed, t[i].want);
		done(p);
	}
}

/* Property: adding servers never removes the back end for training. */
static void prop_more_servers_keep_backend(void **state)
{
	static const char *const servers[] = { "r740xd", "r740", "dl380-gen10", "generic-gen3",
		"generic-gen4", "generic-gen5", NULL };
	int s, n;

	(void)state;
	for (s = 0; servers[s]; s++)
		for (n = 2; n <= 64; n *= 2) {
			char num[8];
			const char *kv[] = { "server", servers[s], "servers", num, "workload", "training",
				"model", "llama-3-8b", NULL };
			struct nicfit_plan *p;

			snprintf(num, sizeof(num), "%d", n);
			p = plan_of(kv);
			if (!p->backend_needed)
				fail_msg("%s x %d training: no back end", servers[s], n);
			done(p);
		}
}

/* Property: a faster slot never yields a slower card. */
static void prop_faster_slot_faster_card(void **state)
{
	static const char *const tmpl =
		"{\"schema\":\"nicfit.catalog.v1\",\"servers\":[{\"id\":\"one-slot\",\"name\":\"one slot\","
		"\"source\":\"test\",\"vendor\":\"test\",\"form\":\"2U\",\"sockets\":1,\"pcie_gen\":%d,"
		"\"slots\":[{\"name\":\"1\",\"gen\":%d,\"width\":%d,\"height\":\"full\",\"length\":\"full\","
		"\"socket\":0,\"gpu\":\"none\"}],\"onboard\":[],\"oob\":{\"name\":\"BMC\",\"gbps\":1,"
		"\"cage\":\"RJ45\"}}]}";
	static const int widths[] = { 8, 16 };
	double last_eff = 0, last_port = 0;
	int g, w;

	(void)state;
	for (w = 0; w < 2; w++) {
		last_eff = last_port = 0;
		for (g = 1; g <= 5; g++) {
			char doc[1024];
			struct nicfit_error err;
			const char *kv[] = { "server", "one-slot", "servers", "2", "workload", "training", NULL };
			struct nicfit_plan *p;

			snprintf(doc, sizeof(doc), tmpl, g, g, widths[w]);
			nicfit_error_clear(&err);
			if (nicfit_catalog_overlay(cat, "test", doc, strlen(doc), &err))
				fail_msg("overlay: %s", err.msg);
			p = plan_of(kv);
			if (!p->be_nic)
				fail_msg("gen%d x%d: no card", g, widths[w]);
			if (p->be_effective_gbps + 1e-6 < last_eff || p->be_port_gbps + 1e-6 < last_port)
				fail_msg("gen%d x%d: %.1f Gb/s on a %g G card after %.1f on %g G", g,
					 widths[w], p->be_effective_gbps, p->be_port_gbps, last_eff, last_port);
			last_eff = p->be_effective_gbps;
			last_port = p->be_port_gbps;
			done(p);
		}
	}
}

/* Property: the BOM total is the sum of its lines, for every example and sizes. */
static void prop_bom_total(void **state)
{
	int i, n;

	(void)state;
	for (i = 0; nicfit_plan_examples[i].name; i++)
		for (n = 1; n <= 8; n *= 2) {
			const char *kv[40];
			char num[8];
			int k = 0, j;
			size_t b;
			struct nicfit_plan *p;
			double sum = 0;

			for (j = 0; nicfit_plan_examples[i].pairs[j]; j += 2) {
				if (!strcmp(nicfit_plan_examples[i].pairs[j], "servers"))
					continue;
				kv[k++] = nicfit_plan_examples[i].pairs[j];
				kv[k++] = nicfit_plan_examples[i].pairs[j + 1];
			}
			snprintf(num, sizeof(num), "%d", n);
			kv[k++] = "servers";
			kv[k++] = num;
			kv[k] = NULL;
			p = plan_of(kv);
			for (b = 0; b < p->nbom; b++) {
				if (p->bom[b].priced)
					assert_near(p->bom[b].total_usd, p->bom[b].unit_usd * p->bom[b].qty, 1e-6);
				sum += p->bom[b].priced ? p->bom[b].total_usd : 0;
				assert_true(p->bom[b].qty > 0);
			}
			assert_near(p->total_usd, sum, 1e-6);
			done(p);
		}
}

/* Servers behind switches: the fabric comes from the cluster sizer. */
static void switched_backend(void **state)
{
	static const char *const small[] = { "server", "generic-gen4", "servers", "8", "gpu", "l40s",
		"gpus_per_server", "4", "workload", "training", "fabric", "infiniband", NULL };
	static const char *const big[] = { "server", "generic-gen4", "servers", "512", "gpu", "l40s",
		"gpus_per_server", "4", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(small);
	int switches = 0, fabric_decision = 0;
	size_t i, k;

	(void)state;
	assert_int_equal(p->back_to_back, 0);
	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].role, "switch")) {
			switches += p->bom[i].qty;
			assert_string_equal(p->bom[i].part, "qm8700"); /* 8 HDR links: one 40-port switch */
		}
	assert_int_equal(switches, 1);
	done(p);
	p = plan_of(big);
	for (k = 0; k < p->decisions.n; k++)
		if (strstr(p->decisions.v[k].message, "2 tiers"))
			fabric_decision = 1;
	assert_true(fabric_decision);
	switches = 0;
	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].role, "switch"))
			switches += p->bom[i].qty;
	assert_true(switches > 2);
	assert_non_null(cable(p, "backend-fabric"));
	done(p);
}

/*
 * The switch plan chooses takes the card's link as lanes, not by rate
 * alone: three servers of four 400G ConnectX-7 (OSFP, 4 x 100G PAM4) on
 * RoCE fit one 32-port Spectrum-3 SN4700 by rate, but its QSFP-DD cages
 * run 400GbE as 8 x 50G, so each link needs a pair of optics; a Spectrum-4
 * SN5600 splits each 8 x 100G cage into two of the card's ports (NVIDIA
 * MCP7Y00), cabled with one splitter DAC per two cards.
 */
static void switch_by_lanes(void **state)
{
	static const char *const kv[] = { "server", "generic-gen5", "servers", "3", "gpu",
		"h100-pcie", "gpus_per_server", "8", "workload", "training", "fabric", "roce",
		"backend_nic", "mcx75310aas-neat", "backend_cards", "4", NULL };
	struct nicfit_plan *p = plan_of(kv);
	int switches = 0;
	size_t i;

	(void)state;
	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].role, "switch")) {
			switches += p->bom[i].qty;
			assert_string_equal(p->bom[i].part, "sn5600");
		}
	assert_int_equal(switches, 1);
	for (i = 0; i < p->ncables; i++)
		if (!strncmp(p->cables[i].link, "backend", 7))
			assert_null(strstr(p->cables[i].ends, "MPO"));
	assert_non_null(line(p, "MCP7Y00-N003"));
	done(p);
}

/*
 * A modular chassis (catalog "chassis": the Arista 7804R4, 144 x 800G) is
 * never the automatic pick: 32 DGX H100 on Spectrum-X are planned on
 * 4 + 2 SN5600, not on one 7804R4 frame that holds every link.
 */
static void chassis_not_picked(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "32", "fabric",
		"spectrum-x", "workload", "training", "model", "llama-3.1-70b", NULL };
	struct nicfit_plan *p = plan_of(kv);
	int switches = 0;
	size_t i;

	(void)state;
	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].role, "switch")) {
			switches += p->bom[i].qty;
			assert_string_equal(p->bom[i].part, "sn5600");
		}
	assert_int_equal(switches, 6);
	done(p);
}

/*
 * A switch given with --switch is judged by lanes, as the automatic
 * choice is: a Quantum-2 QM9700 or QM9790 NDR cage runs EDR (4 x 25G NRZ)
 * one card port per switch port (NVIDIA Quantum-2 QM9700/QM9790 user
 * manual: NDR, HDR and EDR), so a ConnectX-5 EDR card is planned on it,
 * not refused because 400 Gb/s does not split to 100; a 400G ConnectX-7
 * is still refused on an HDR QM8700, with the lanes' reason.
 */
static void given_switch_by_lanes(void **state)
{
	static const char *const sws[] = { "qm9700", "qm9790" };
	static const char *const hdr[] = { "server", "generic-gen5", "servers", "4", "gpu",
		"l40s", "gpus_per_server", "4", "workload", "training", "fabric", "infiniband",
		"backend_nic", "mcx75310aas-neat", "switch", "qm8700", NULL };
	const struct nicfit_finding *f;
	size_t i, k;

	(void)state;
	for (k = 0; k < 2; k++) {
		const char *kv[] = { "server", "generic-gen4", "servers", "4", "gpu", "l40s",
			"gpus_per_server", "4", "workload", "training", "fabric", "infiniband",
			"backend_nic", "mcx556a-ecat", "switch", sws[k], NULL };
		struct nicfit_plan *p = plan_of(kv);
		int switches = 0;

		assert_null(finding(p, "switch-speed"));
		for (i = 0; i < p->nbom; i++)
			if (!strcmp(p->bom[i].role, "switch")) {
				switches += p->bom[i].qty;
				assert_string_equal(p->bom[i].part, sws[k]);
			}
		assert_int_equal(switches, 1);
		done(p);
	}
	{
		struct nicfit_plan *p = plan_of(hdr);

		f = finding(p, "switch-speed");
		assert_non_null(f);
		assert_int_equal(f->severity, NICFIT_SEV_CRITICAL);
		assert_non_null(strstr(f->message, "faster than qm8700 ports"));
		done(p);
	}
}

/*
 * Every finding of the named examples carries a code of the registry that
 * plan raises (docs/findings.md), every decision a rule id R0-R11, and
 * nothing is left unfixed by accident: a fix, when there is one, is text.
 */
static void codes_registered(void **state)
{
	size_t i, k;

	(void)state;
	for (i = 0; nicfit_plan_examples[i].name; i++) {
		struct nicfit_plan *p = plan_of(nicfit_plan_examples[i].pairs);

		for (k = 0; k < p->findings.n; k++) {
			const struct nicfit_finding *f = &p->findings.v[k];
			const struct nicfit_code_info *ci = nicfit_code_lookup(f->code);

			if (!ci || !(ci->engines & NICFIT_ENGINE_PLAN))
				fail_msg("%s: code '%s' is not a registered plan code",
					 nicfit_plan_examples[i].name, f->code);
			assert_true(f->severity >= NICFIT_SEV_INFO);
			assert_true(f->message && f->message[0]);
			assert_true(!f->fix || f->fix[0]);
		}
		for (k = 0; k < p->decisions.n; k++) {
			const char *r = p->decisions.v[k].code;
			char *end;
			long n = strtol(r + 1, &end, 10);

			assert_true(r[0] == 'R' && end > r + 1 && !*end && n >= 0 && n <= 11);
			assert_int_equal(p->decisions.v[k].severity, NICFIT_SEV_NONE);
		}
		done(p);
	}
}

static void bad_requests(void **state)
{
	static const char *const bad[][4] = {
		{ "server", "r999", NULL, NULL },
		{ "gpu", "a4000000", NULL, NULL },
		{ "servers", "0", NULL, NULL },
		{ "servers", "1e9", NULL, NULL },
		{ "workload", "trainng", NULL, NULL },
		{ "precision", "fp3", NULL, NULL },
		{ "params", "70GB", NULL, NULL },
		{ "context", "-1", NULL, NULL },
		{ "fabric", "token-ring", NULL, NULL },
		{ "gpus_per_servers", "2", NULL, NULL },
		{ "assume", "mps=7", NULL, NULL },
		{ "assume", "nope=1", NULL, NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct nicfit_spec *spec = calloc(1, sizeof(*spec));
		struct nicfit_plan_input in;
		struct nicfit_error err;

		nicfit_spec_init(spec, "test");
		nicfit_error_clear(&err);
		nicfit_spec_add(spec, bad[i][0], bad[i][1], &err);
		if (!nicfit_plan_input_from_spec(cat, spec, &in, &err))
			fail_msg("%s=%s accepted", bad[i][0], bad[i][1]);
		assert_true(err.code == NICFIT_E_USAGE || err.code == NICFIT_E_NOTFOUND);
		assert_true(strlen(err.msg) > 5);
		nicfit_spec_release(spec);
		free(spec);
	}
}

/*
 * A DGX H100 node, 32 of them training a 405B model: eight 400G cards,
 * one per GPU, each under its GPU's PCIe switch (PIX), so no gdr-level
 * advice; on InfiniBand the rail-optimized fabric is the SuperPOD
 * scalable unit's 8 leaf and 4 spine switches.
 */
static void dgx_rails(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "32",
		"model", "llama-3.1-405b", "workload", "training", "fabric", "infiniband", NULL };
	struct nicfit_plan *p = plan_of(kv);
	int seen[NICFIT_PLAN_MAX_CARDS] = { 0 };
	const struct nicfit_plan_line *sw;
	int i;

	(void)state;
	assert_string_equal(p->in.gpu->e.id, "h100-sxm5-80gb");
	assert_int_equal(p->in.gpus_per_server, 8);
	assert_int_equal(p->be_cards, 8);
	assert_int_equal(p->rails, 8);
	assert_int_equal(p->gpus_near, 8);
	assert_true(p->be_port_gbps == 400);
	for (i = 0; i < 8; i++) {
		assert_int_equal(p->pair_path[i], NICFIT_PATH_PIX);
		assert_true(p->pair_card[i] >= 0 && p->pair_card[i] < 8);
		seen[p->pair_card[i]]++;
	}
	for (i = 0; i < 8; i++)
		assert_int_equal(seen[i], 1);
	assert_null(finding(p, "gdr-level"));
	assert_null(finding(p, "gpu-nic-cross-socket"));
	sw = line(p, "QM9700");
	assert_non_null(sw);
	assert_int_equal(sw->qty, 12);
	assert_true(fabs(p->be_node_gbps - 8 * p->be_effective_gbps) < 0.01);
	done(p);
}

/*
 * Path classes over a cascade, as NCCL and nvidia-smi name them: a
 * server with, on socket 0, switch a on a root port, b and c cascaded
 * below a (d below b), e on another root port, and a root-port slot;
 * on socket 1 switch f. The narrowest link on a cascade's way to the
 * CPU is the uplink any switch below shares.
 */
static void cascade_path_classes(void **state)
{
	static const struct { int sock, sw; } at[] = {
		{ 0, 0 }, { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 0, -1 }, { 1, 5 },
	};
	struct nicfit_server *sv = calloc(1, sizeof(*sv));
	int i, gen = 0, width = 0;

	(void)state;
	assert_non_null(sv);
	sv->nswitches = 6;
	for (i = 0; i < 6; i++) {
		sv->switches[i].socket = i == 5;
		sv->switches[i].gen = 4;
		sv->switches[i].width = 16;
	}
	sv->switches[1].upstream = 1; /* b below a */
	sv->switches[2].upstream = 1; /* c below a */
	sv->switches[3].upstream = 2; /* d below b */
	sv->switches[1].width = 8;    /* b's uplink, the narrowest for d */
	sv->nslots = (int)(sizeof(at) / sizeof(at[0]));
	for (i = 0; i < sv->nslots; i++) {
		sv->slots[i].socket = at[i].sock;
		sv->slots[i].pcie_switch = at[i].sw;
	}
	assert_int_equal(nicfit__plan_path(sv, 0, 1), NICFIT_PATH_PIX); /* both on a */
	assert_int_equal(nicfit__plan_path(sv, 0, 2), NICFIT_PATH_PXB); /* a and b below it */
	assert_int_equal(nicfit__plan_path(sv, 2, 0), NICFIT_PATH_PXB);
	assert_int_equal(nicfit__plan_path(sv, 2, 3), NICFIT_PATH_PXB); /* b, c: siblings */
	assert_int_equal(nicfit__plan_path(sv, 4, 3), NICFIT_PATH_PXB); /* d, c: cousins */
	assert_int_equal(nicfit__plan_path(sv, 4, 0), NICFIT_PATH_PXB); /* two levels */
	assert_int_equal(nicfit__plan_path(sv, 4, 5), NICFIT_PATH_PHB); /* e: another root port */
	assert_int_equal(nicfit__plan_path(sv, 0, 5), NICFIT_PATH_PHB);
	assert_int_equal(nicfit__plan_path(sv, 2, 6), NICFIT_PATH_PHB); /* a root-port slot */
	assert_int_equal(nicfit__plan_path(sv, 0, 7), NICFIT_PATH_SYS);
	assert_true(nicfit__plan_switch_uplink(sv, 3, &gen, &width));
	assert_int_equal(width, 8);
	assert_int_equal(gen, 4);
	assert_true(nicfit__plan_switch_uplink(sv, 2, &gen, &width));
	assert_int_equal(width, 16);
	assert_false(nicfit__plan_switch_uplink(sv, -1, &gen, &width));
	/* a loop (catalog check refuses it) ends: no class joins what it does not */
	sv->switches[4].upstream = 6; /* e below f, f below e */
	sv->switches[5].upstream = 5;
	sv->switches[5].socket = 0;
	assert_int_equal(nicfit__plan_path(sv, 5, 0), NICFIT_PATH_PHB);
	assert_true(nicfit__plan_switch_uplink(sv, 4, &gen, &width));
	free(sv);
}

/*
 * The ESC8000 G4 as probed: GPUs in slots 8-20 on one switch, 72-84 and
 * the NIC's slot 68 on a second one cascaded below it. A back-end card in
 * slot 68 is PIX to four GPUs and PXB to the other four, never PHB.
 */
static void esc8000_g4_cascade(void **state)
{
	static const char *const kv[] = { "server", "esc8000-g4", "gpu", "v100-pcie-32gb",
		"gpus_per_server", "8", "servers", "2", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);
	int i, pix = 0, pxb = 0, nic_sw;

	(void)state;
	assert_int_equal(p->be_cards, 1);
	assert_string_equal(p->in.server->slots[p->be_slots[0]].name, "68");
	nic_sw = p->in.server->slots[p->be_slots[0]].pcie_switch;
	for (i = 0; i < 8; i++) {
		int g_sw = p->in.server->slots[p->gpu_slots[i]].pcie_switch;

		if (p->pair_path[i] == NICFIT_PATH_PIX) {
			pix++;
			assert_int_equal(g_sw, nic_sw);
		} else {
			assert_int_equal(p->pair_path[i], NICFIT_PATH_PXB);
			assert_int_equal(p->in.server->switches[nic_sw].upstream, g_sw + 1);
			pxb++;
		}
	}
	assert_int_equal(pix, 4);
	assert_int_equal(pxb, 4);
	assert_int_equal(p->gpus_near, 8);
	done(p);
}

/*
 * Words an AMD plan must never tell its reader: NVIDIA's tools and
 * drivers, and the NCCL variables RCCL does not read (NVLink SHARP,
 * multi-node NVLink, CUDA's cuMem, CollNet). NCCL_DEBUG and NCCL_IB_*
 * are RCCL's too (ROCm's RCCL environment variables page).
 */
static int has_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (; *s; s++)
		if (!strncasecmp(s, w, n))
			return 1;
	return 0;
}

static void no_nvidia_word(const char *what, const char *s)
{
	static const char *const words[] = { "nvidia", "cuda", "nvlink", "peermem", "nv_peer",
		"nccl-tests", "ncclNet", "NCCL_NVLS", "NCCL_MNNVL", "NCCL_CUMEM", "NCCL_COLLNET",
		"NCCL_NVB", "NCCL_P2P_NVL", "nvidia-smi" };
	size_t i;

	if (!s)
		return;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (has_word(s, words[i]))
			fail_msg("%s names %s: %s", what, words[i], s);
}

/*
 * 16 Supermicro AS-8125GS-TNMR2 with 8 x MI325X, training Llama 3.1 405B
 * over 8 x Pollara 400 on a Dell Z9864F-ON (Tomahawk 5):
 *   rails     8 compute NIC slots for 8 GPUs: 8 cards, one rail each (R5)
 *   pairs     the catalog's slot map puts GPUi and NICi on switch pexi
 *             (i = 0..7; 0-3 on socket 0, 4-7 on socket 1, after AMD's
 *             MI300X node topology): every GPU's card is PIX, card i
 *   rate      one 400G port of RoCE v2, 392.1 Gb/s (Gen5 x16 gives
 *             412.4): 8 x 392.15 = 3,137.2 Gb/s a server
 *   switch    16 x 8 = 128 node ports, a Z9864F-ON's 64 x 800G split
 *             2 x 400G takes 128: one switch
 *   R1        405.85e9 x 16 B = 6,493.7 GB of training state over
 *             256 GiB = 274.9 GB x 0.9 = 247.4 GB a GPU: 27 GPUs, 4 servers
 *   advice    RCCL's: the GPUDirect finding names DMA-BUF and amdkfd and
 *             RCCL's log; no finding, fix or decision names an NVIDIA
 *             tool or an NCCL-only variable; R5 cites AMD's MI3XX cluster
 *             design for the rails, not NVIDIA's reference architectures.
 */
static void amd_mi325x_pollara_16(void **state)
{
	static const char *const kv[] = { "server", "as-8125gs-tnmr2", "gpu", "mi325x",
		"servers", "16", "backend_nic", "pollara-400", "switch", "z9864f-on",
		"model", "llama-3.1-405b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_slot *slots;
	const struct nicfit_finding *f;
	const struct nicfit_plan_line *sw;
	char want[8];
	size_t k;
	int i;

	(void)state;
	slots = p->in.server->slots;
	assert_string_equal(p->in.gpu->e.id, "mi325x");
	assert_int_equal(p->in.gpus_per_server, 8);
	assert_string_equal(p->be_nic->e.id, "pollara-400");
	assert_int_equal(p->be_cards, 8);
	assert_int_equal(p->rails, 8);
	assert_int_equal(p->gpus_near, 8);
	assert_int_equal(p->gpus_local, 8);
	assert_true(p->be_port_gbps == 400);
	assert_near(p->be_effective_gbps, 392.15, 0.01);
	assert_near(p->be_node_gbps, 3137.19, 0.05);
	for (i = 0; i < 8; i++) {
		const struct nicfit_slot *g = &slots[p->gpu_slots[i]];
		const struct nicfit_slot *n;

		assert_int_equal(p->pair_card[i], i);
		n = &slots[p->be_slots[p->pair_card[i]]];
		snprintf(want, sizeof(want), "GPU%d", i);
		assert_string_equal(g->name, want);
		snprintf(want, sizeof(want), "NIC%d", i);
		assert_string_equal(n->name, want);
		assert_true(g->pcie_switch >= 0);
		assert_int_equal(n->pcie_switch, g->pcie_switch);
		assert_int_equal(n->socket, i < 4 ? 0 : 1);
		assert_int_equal(p->pair_path[i], NICFIT_PATH_PIX);
	}
	assert_near(p->train_state_gb, 6493.65, 0.01);
	assert_int_equal(p->gpus_needed, 27);
	assert_int_equal(p->servers_needed, 4);
	sw = line(p, "z9864f-on");
	assert_non_null(sw);
	assert_int_equal(sw->qty, 1);
	f = finding(p, "cluster-gpudirect");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "DMA-BUF"));
	assert_non_null(strstr(f->message, "amdkfd"));
	assert_non_null(strstr(f->message, "RCCL"));
	assert_null(finding(p, "gdr-level"));
	assert_null(finding(p, "gpu-nic-cross-socket"));
	assert_non_null(decision(p, "R5", "One back-end card per GPU"));
	assert_non_null(strstr(decision(p, "R5", "One back-end card per GPU")->message,
			       "AMD's cluster design for Instinct MI3XX"));
	for (k = 0; k < p->findings.n; k++) {
		no_nvidia_word(p->findings.v[k].code, p->findings.v[k].message);
		no_nvidia_word(p->findings.v[k].code, p->findings.v[k].fix);
	}
	for (k = 0; k < p->decisions.n; k++)
		no_nvidia_word(p->decisions.v[k].code, p->decisions.v[k].message);
	done(p);
}

/*
 * Two servers of Pollara 400 back to back: the GID to give NCCL_IB_GID_INDEX
 * (RCCL reads it too) is read from rdma-core's ibv_devinfo -v, never from
 * show_gids, a script of NVIDIA's MLNX_OFED for ConnectX cards; a ConnectX
 * pair still names show_gids.
 */
static void back_to_back_gid_tool(void **state)
{
	static const char *const amd[] = { "server", "as-8125gs-tnmr2", "gpu", "mi325x",
		"servers", "2", "backend_nic", "pollara-400", "model", "llama-3.1-70b",
		"workload", "training", NULL };
	static const char *const cx[] = { "server", "r740xd", "gpu", "a40", "gpus_per_server", "2",
		"servers", "2", "backend_nic", "mcx623106an-cdat", "fabric", "roce",
		"model", "llama-3-8b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(amd);
	const struct nicfit_finding *d;

	(void)state;
	d = decision(p, "R7", "Two servers back to back");
	assert_non_null(d);
	assert_non_null(strstr(d->message, "ibv_devinfo -v"));
	assert_null(strstr(d->message, "show_gids"));
	done(p);
	p = plan_of(cx);
	d = decision(p, "R7", "Two servers back to back");
	assert_non_null(d);
	assert_non_null(strstr(d->message, "show_gids"));
	done(p);
}

/*
 * Four 400G cards are timed as four. The step model shards the 70B's
 * state with ZeRO-3 (1.5 x a ring's bytes): 1.5 x 2 x 3/4 x 141.1 GB =
 * 317.5 GB per server, over 4 x 392.1 Gb/s = 1.62 s, not 6.5 s over one.
 */
static void step_time_all_cards(void **state)
{
	static const char *const kv[] = { "server", "generic-gen5", "servers", "4", "gpu", "h100-pcie",
		"gpus_per_server", "2", "backend_cards", "4", "model", "llama-3-70b",
		"workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_int_equal(p->be_cards, 4);
	assert_true(p->nest > 0);
	assert_true(fabs(p->est[0].gbps - 4 * p->be_effective_gbps) < 0.01);
	assert_string_equal(p->est_traffic, "data parallel (ZeRO-3/FSDP)");
	assert_true(p->est[0].seconds > 1.55 && p->est[0].seconds < 1.7);
	done(p);
}

/* 200 Gb/s per node in PCIe Gen3: two 100G cards, one per socket, not a capped 200G card. */
static void gen3_200g_two_cards(void **state)
{
	static const char *const kv[] = { "server", "r740xd", "servers", "2", "gpu", "a40",
		"gpus_per_server", "2", "backend_gbps", "200", "model", "llama-3-70b",
		"workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_server *sv = p->in.server;

	(void)state;
	assert_int_equal(p->be_cards, 2);
	assert_true(p->be_port_gbps == 100);
	assert_null(finding(p, "backend-capped"));
	assert_null(finding(p, "backend-below-target"));
	assert_int_not_equal(sv->slots[p->be_slots[0]].socket, sv->slots[p->be_slots[1]].socket);
	done(p);
}

/*
 * Four L4s and four cards in generic-gen5 (six x16 slots, four of them
 * GPU slots): every GPU keeps a slot, the cards take what is left; with
 * two cards they go one per socket, as the GPUs do.
 */
static void cards_beside_gpus(void **state)
{
	static const char *const kv4[] = { "server", "generic-gen5", "servers", "4", "gpu", "l4",
		"gpus_per_server", "4", "backend_cards", "4", "model", "llama-3-8b",
		"workload", "training", NULL };
	static const char *const kv2[] = { "server", "generic-gen5", "servers", "4", "gpu", "l4",
		"gpus_per_server", "4", "backend_cards", "2", "model", "llama-3-8b",
		"workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv4);
	int i, on0 = 0;

	(void)state;
	assert_null(finding(p, "no-slot-for-gpus"));
	for (i = 0; i < 4; i++)
		assert_true(p->gpu_slots[i] >= 0);
	assert_int_equal(p->be_cards, 4);
	done(p);
	p = plan_of(kv2);
	for (i = 0; i < 2; i++)
		on0 += p->in.server->slots[p->be_slots[i]].socket == 0;
	assert_int_equal(on0, 1);
	done(p);
}

/*
 * The same four cards must fit the x8 slots too: of the x8 RDMA cards a
 * ConnectX-3 (40GbE) would move the most, but its driver stack has ended,
 * so a supported 25G card is chosen and the ConnectX-3 is named as passed
 * over; asked for by name, it is taken, with backend-driver-ended.
 */
static void ended_card_passed_over(void **state)
{
	static const char *const kv[] = { "server", "generic-gen5", "servers", "4", "gpu", "l4",
		"gpus_per_server", "4", "backend_cards", "4", "model", "llama-3-8b",
		"workload", "training", NULL };
	static const char *const forced[] = { "server", "generic-gen5", "servers", "4",
		"gpu", "l4", "gpus_per_server", "4", "backend_cards", "4", "model", "llama-3-8b",
		"workload", "training", "backend_nic", "mcx354a-fcbt", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_non_null(p->be_nic);
	assert_false(nicfit_family_past_driver_support(p->be_nic->family));
	assert_int_equal(p->be_port_gbps, 25);
	assert_non_null(p->be_passed);
	assert_string_equal(p->be_passed->part, "MCX354A-FCBT");
	assert_true(p->be_passed_gbps > p->be_effective_gbps + 10);
	assert_null(finding(p, "backend-driver-ended"));
	done(p);
	p = plan_of(forced);
	assert_string_equal(p->be_part, "MCX354A-FCBT");
	assert_null(p->be_passed);
	assert_non_null(finding(p, "backend-driver-ended"));
	done(p);
}

/*
 * A front-end card the server already has (plan --from-host passes it as
 * frontend_nic with installed_frontend_slot): it stays in its slot and is
 * not bought again; when the GPUs need that slot, the plan moves it
 * (move-installed-card) and still does not buy it, as it is the same card.
 */
static void installed_frontend_card(void **state)
{
	static const char *const kv[] = { "server", "sys-221ge-nr", "gpu", "l4",
		"gpus_per_server", "2", "model", "llama-3-8b", "frontend_nic", "x710-da2",
		"installed_frontend_slot", "6", NULL };
	static const char *const taken[] = { "server", "sys-221ge-nr", "gpu", "h100-pcie",
		"gpus_per_server", "4", "model", "llama-3-70b", "frontend_nic", "x710-da2",
		"installed_frontend_slot", "1", NULL };
	static const char *const bought[] = { "server", "sys-221ge-nr", "gpu", "l4",
		"gpus_per_server", "2", "model", "llama-3-8b", "frontend_nic", "x710-da2", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_true(p->fe_slot >= 0);
	assert_string_equal(p->in.server->slots[p->fe_slot].name, "6");
	assert_int_equal(p->fe_installed, 1);
	assert_null(line(p, "X710-DA2"));
	assert_null(finding(p, "move-installed-card"));
	done(p);
	p = plan_of(taken);
	assert_true(p->fe_slot >= 0);
	assert_string_not_equal(p->in.server->slots[p->fe_slot].name, "1");
	assert_int_equal(p->fe_installed, 1);
	assert_null(line(p, "X710-DA2"));
	assert_non_null(finding(p, "move-installed-card"));
	assert_non_null(strstr(finding(p, "move-installed-card")->message,
			       "(slot 1: it holds a GPU)"));
	done(p);
	p = plan_of(bought);
	assert_int_equal(p->fe_installed, 0);
	assert_non_null(line(p, "X710-DA2"));
	done(p);
}

/* installed_backend_slot's list: whole names only, any position, nothing from NULL. */
static void slot_lists(void **state)
{
	(void)state;
	assert_true(nicfit__plan_slot_listed("0000:17:01.0", "0000:17:01.0"));
	assert_true(nicfit__plan_slot_listed("1,0000:17:01.0,3", "0000:17:01.0"));
	assert_true(nicfit__plan_slot_listed("1,2,3", "3"));
	assert_false(nicfit__plan_slot_listed("1,2,3", "4"));
	assert_false(nicfit__plan_slot_listed("10,20", "1"));
	assert_false(nicfit__plan_slot_listed("1,20", "2"));
	assert_false(nicfit__plan_slot_listed(NULL, "1"));
	assert_false(nicfit__plan_slot_listed("1", NULL));
	assert_false(nicfit__plan_slot_listed("", ""));
	assert_false(nicfit__plan_slot_listed(",", ""));
}

/*
 * 8 x H100 PCIe asked in a server with room for 4: the verdict says it
 * cannot be built, and the model's fit is judged on the 4 that fit
 * (309 GB < the 412 GB fp8 405B needs), not on the 8 asked.
 */
static void impossible_verdict(void **state)
{
	static const char *const kv[] = { "server", "sys-221ge-nr", "gpu", "h100-pcie",
		"gpus_per_server", "8", "model", "llama-3.1-405b", "precision", "fp8", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_non_null(finding(p, "too-many-gpus"));
	assert_int_equal(p->buildable, 0);
	assert_int_equal(p->gpus_placed, 4);
	assert_int_equal(p->fits_one_server, 0);
	assert_true(p->fit.capacity_gb < p->fit.total_gb);
	assert_true(!strncmp(p->verdict, "Cannot be built as asked: ", 26));
	assert_null(strstr(p->verdict, "fits its"));
	assert_int_equal(nicfit_plan_exit_code(nicfit_findings_worst(&p->findings)), 2);
	done(p);
}

/*
 * A plan that cannot be built as asked is timed as it can be built: 8 x
 * H100 PCIe asked of a SYS-221GE-NR (room for 4) over 4 servers compute
 * on 16 GPUs, not 32, and the training state's 84 GPUs are 21 servers of
 * 4, as model_fit says, not 11 of 8. A card that takes a GPU's slot
 * leaves 3 of 4 (6 GPUs over 2 servers); no GPU placed, no step.
 */
static void impossible_step(void **state)
{
	static const char *const kv[] = { "server", "sys-221ge-nr", "servers", "4", "gpu",
		"h100-pcie", "gpus_per_server", "8", "model", "llama-3.1-405b", "workload",
		"training", NULL };
	static const char *const card[] = { "server", "sys-221ge-nr", "servers", "2", "gpu",
		"h100-pcie", "gpus_per_server", "4", "model", "llama-3.1-70b", "workload",
		"training", "backend_nic", "900-9d3b6-00cn-ab0", NULL };
	static const char *const none[] = { "server", "dgx-h100", "gpu", "a40",
		"gpus_per_server", "2", "model", "llama-3-70b", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_finding *f;
	double tokens;

	(void)state;
	assert_int_equal(p->gpus_placed, 4);
	assert_int_equal(p->traffic_known, 1);
	assert_int_equal(p->step_job.gpus_per_node, 4);
	assert_int_equal(p->step.gpus, 16);
	assert_true(p->step.tokens == p->in.step.tokens_per_gpu * 16);
	assert_int_equal(p->servers_needed, 21);
	f = finding(p, "training-state-does-not-fit");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "(21 servers of the 4 a server holds)"));
	f = decision(p, "R9", "Compute per training step");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "over 16 x NVIDIA H100 PCIe 80GB (the 4 a server "
				      "holds, of the 8 asked)"));
	assert_int_equal(p->step_be_known, 1);
	assert_non_null(finding(p, "backend-stalls-gpus"));
	tokens = p->step.tokens;
	done(p);
	p = plan_of(card);
	assert_non_null(finding(p, "no-slot-for-gpus"));
	assert_int_equal(p->gpus_placed, 3);
	assert_int_equal(p->step_job.gpus_per_node, 3);
	assert_int_equal(p->step.gpus, 6);
	assert_true(p->step.tokens == p->in.step.tokens_per_gpu * 6);
	assert_non_null(decision(p, "R9", "Compute per training step, worked out again on the "
				 "GPUs placed"));
	assert_true(tokens > p->step.tokens);
	done(p);
	p = plan_of(none);
	assert_non_null(finding(p, "too-many-gpus"));
	assert_int_equal(p->traffic_known, 0);
	done(p);
}

/* An add-in front-end card gets a slot, or the plan says it has none. */
static void frontend_card_slot(void **state)
{
	static const char *const kv4[] = { "server", "sys-221ge-nr", "gpu", "h100-pcie",
		"gpus_per_server", "4", "model", "llama-3-70b", NULL };
	static const char *const kv7[] = { "server", "sys-221ge-nr", "gpu", "l4",
		"gpus_per_server", "7", "model", "llama-3-8b", NULL };
	struct nicfit_plan *p = plan_of(kv4);

	(void)state;
	assert_non_null(p->fe_nic);
	assert_int_equal(p->fe_onboard, 0);
	assert_true(p->fe_slot >= 0);
	assert_int_equal(p->in.server->slots[p->fe_slot].gpu != NICFIT_GPU_DOUBLE, 1);
	assert_int_equal(p->buildable, 1);
	done(p);
	p = plan_of(kv7);
	assert_int_equal(p->fe_slot, -1);
	assert_non_null(finding(p, "frontend-no-slot"));
	/* one server, no back end: the GPUs alone took the slots, and it says so */
	assert_non_null(strstr(finding(p, "frontend-no-slot")->message,
			       ": the GPUs take every slot it fits."));
	assert_int_equal(p->buildable, 0);
	done(p);
}

/*
 * A full-height card goes in a full-height slot only, a full-length one
 * in a full-length slot too: the R740xd's slot 6 is low profile and half
 * length, its slot 3 full height and half length, its slot 1 full both
 * ways. A front-end BlueField-3 B3240 (FHHL) pinned to slot 6 has no slot;
 * in slot 3 it is placed.
 */
static void card_height_and_length(void **state)
{
	static const char *const low[] = { "server", "r740xd", "model", "llama-3-8b",
		"frontend_nic", "900-9d3b6-00cv-aa0", "frontend_slot", "6", NULL };
	static const char *const tall[] = { "server", "r740xd", "model", "llama-3-8b",
		"frontend_nic", "900-9d3b6-00cv-aa0", "frontend_slot", "3", NULL };
	const struct nicfit_server *sv = nicfit_catalog_find_server(cat, "r740xd", NULL, NULL);
	const struct nicfit_slot *s1 = NULL, *s3 = NULL, *s6 = NULL;
	const struct nicfit_finding *f;
	struct nicfit_nic hhhl, fhhl, fhfl;
	struct nicfit_card c;
	struct nicfit_plan *p;
	int i;

	(void)state;
	assert_non_null(sv);
	for (i = 0; i < sv->nslots; i++) {
		if (!strcmp(sv->slots[i].name, "1"))
			s1 = &sv->slots[i];
		if (!strcmp(sv->slots[i].name, "3"))
			s3 = &sv->slots[i];
		if (!strcmp(sv->slots[i].name, "6"))
			s6 = &sv->slots[i];
	}
	assert_non_null(s1);
	assert_non_null(s3);
	assert_non_null(s6);
	assert_int_equal(s6->full_height, 0);
	assert_int_equal(s3->full_height && !s3->full_length, 1);
	assert_int_equal(s1->full_height && s1->full_length, 1);
	memset(&c, 0, sizeof(c));
	c.pcie_width = 8;
	memset(&hhhl, 0, sizeof(hhhl));
	fhhl = fhfl = hhhl;
	hhhl.form_factor = "pcie-hhhl";
	fhhl.form_factor = "pcie-fhhl";
	fhfl.form_factor = "pcie-fhfl";
	assert_int_equal(nicfit__plan_card_fits_slot(&c, &hhhl, s6), 1);
	assert_int_equal(nicfit__plan_card_fits_slot(&c, NULL, s6), 1);
	assert_int_equal(nicfit__plan_card_fits_slot(&c, &fhhl, s6), 0);
	assert_int_equal(nicfit__plan_card_fits_slot(&c, &fhhl, s3), 1);
	assert_int_equal(nicfit__plan_card_fits_slot(&c, &fhfl, s3), 0);
	assert_int_equal(nicfit__plan_card_fits_slot(&c, &fhfl, s1), 1);
	p = plan_of(low);
	assert_int_equal(p->fe_slot, -1);
	f = finding(p, "frontend-no-slot");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "(PCIe x16, full height)"));
	assert_non_null(strstr(f->message, "it is a PCIe x8 slot, low profile, half length."));
	assert_int_equal(p->buildable, 0);
	done(p);
	p = plan_of(tall);
	assert_true(p->fe_slot >= 0);
	assert_string_equal(p->in.server->slots[p->fe_slot].name, "3");
	assert_null(finding(p, "frontend-no-slot"));
	done(p);
}

/*
 * A dual-slot card (the BlueField-3 B3240) goes only where a double-width
 * card has room, or in the slot its server's vendor ships it in.
 */
static void card_double_width(void **state)
{
	static const char *const single[] = { "server", "r740xd", "model", "llama-3-8b",
		"frontend_nic", "900-9d3b6-00cn-ab0", "frontend_slot", "3", NULL };
	static const char *const dbl[] = { "server", "r740xd", "model", "llama-3-8b",
		"frontend_nic", "900-9d3b6-00cn-ab0", "frontend_slot", "1", NULL };
	static const char *const any[] = { "server", "r740xd", "model", "llama-3-8b",
		"frontend_nic", "900-9d3b6-00cn-ab0", NULL };
	static const char *const gpus[] = { "server", "sys-221ge-nr", "servers", "2",
		"gpu", "h100-pcie", "gpus_per_server", "4", "model", "llama-3.1-70b",
		"workload", "training", "backend_nic", "900-9d3b6-00cn-ab0", NULL };
	const struct nicfit_nic *b3240 = nicfit_catalog_find_nic(cat, "900-9d3b6-00cn-ab0", NULL, NULL);
	const struct nicfit_nic *b3220 = nicfit_catalog_find_nic(cat, "900-9d3b6-00cv-aa0", NULL, NULL);
	const struct nicfit_server *dgx = nicfit_catalog_find_server(cat, "dgx-b200", NULL, NULL);
	const struct nicfit_finding *f;
	struct nicfit_slot s;
	struct nicfit_card c;
	struct nicfit_plan *p;
	int i, included = 0;

	(void)state;
	assert_non_null(b3240);
	assert_non_null(b3220);
	assert_int_equal(b3240->double_width, 1);
	assert_int_equal(b3220->double_width, 0);
	memset(&c, 0, sizeof(c));
	c.pcie_width = 16;
	memset(&s, 0, sizeof(s));
	s.kind = "pcie";
	s.width = 16;
	s.full_height = s.full_length = 1;
	s.gpu = NICFIT_GPU_SINGLE;
	assert_int_equal(nicfit__plan_card_fits_slot(&c, b3220, &s), 1);
	assert_int_equal(nicfit__plan_card_fits_slot(&c, b3240, &s), 0);
	s.double_room = 1;
	assert_int_equal(nicfit__plan_card_fits_slot(&c, b3240, &s), 1);
	s.double_room = 0;
	s.gpu = NICFIT_GPU_NONE;
	s.included = "900-9d3b6-00cn-ab0";
	assert_int_equal(nicfit__plan_card_fits_slot(&c, b3240, &s), 1);
	s.included = "900-9d3b6-00cv-aa0";
	assert_int_equal(nicfit__plan_card_fits_slot(&c, b3240, &s), 0);

	assert_string_equal(nicfit__plan_form_words(b3240), ", full height, double width");
	assert_string_equal(nicfit__plan_form_words(b3220), ", full height");
	assert_string_equal(nicfit__plan_form_words(NULL), "");
	/* room for a dual-slot card, unless the catalog says: where a double-width GPU goes */
	{
		const struct nicfit_server *r = nicfit_catalog_find_server(cat, "r740xd", NULL, NULL);

		for (i = 0; i < r->nslots; i++)
			assert_int_equal(r->slots[i].double_room, r->slots[i].gpu == NICFIT_GPU_DOUBLE);
	}
	/* the DGX B200 ships its two in slots that take no GPU: they stay there */
	assert_non_null(dgx);
	for (i = 0; i < dgx->nslots; i++)
		if (dgx->slots[i].included && !strcmp(dgx->slots[i].included, b3240->e.id)) {
			assert_int_equal(nicfit__plan_card_fits_slot(&c, b3240, &dgx->slots[i]), 1);
			included++;
		}
	assert_int_equal(included, 2);
	p = plan_of(single);
	assert_int_equal(p->fe_slot, -1);
	f = finding(p, "frontend-no-slot");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "(PCIe x16, full height, double width)"));
	assert_non_null(strstr(f->message, "without room for a double-width card."));
	done(p);
	p = plan_of(dbl);
	assert_true(p->fe_slot >= 0);
	assert_string_equal(p->in.server->slots[p->fe_slot].name, "1");
	assert_null(finding(p, "frontend-no-slot"));
	done(p);
	/* unpinned, it takes a slot with room for it */
	p = plan_of(any);
	assert_true(p->fe_slot >= 0);
	assert_int_equal(p->in.server->slots[p->fe_slot].gpu, NICFIT_GPU_DOUBLE);
	done(p);
	/* as the back end beside four double-width GPUs: it costs one of their slots */
	p = plan_of(gpus);
	f = finding(p, "no-slot-for-gpus");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "(dual-slot:"));
	assert_non_null(strstr(f->fix, "a single-slot back-end card"));
	assert_int_equal(p->in.server->slots[p->be_slots[0]].gpu, NICFIT_GPU_DOUBLE);
	done(p);
}

/* --backend-slot pins the card; a slot name the server lacks is refused. */
static void pinned_backend_slot(void **state)
{
	static const char *const kv[] = { "server", "r740xd", "servers", "2", "gpu", "a40",
		"gpus_per_server", "2", "model", "llama-3-8b", "workload", "training",
		"backend_slot", "8", NULL };
	struct nicfit_plan *p = plan_of(kv);
	struct nicfit_spec *spec = calloc(1, sizeof(*spec));
	struct nicfit_plan_input in;
	struct nicfit_error err;

	(void)state;
	assert_string_equal(p->in.server->slots[p->be_slots[0]].name, "8");
	done(p);
	assert_non_null(spec);
	nicfit_spec_init(spec, "test");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_spec_add(spec, "server", "r740xd", &err), 0);
	assert_int_equal(nicfit_spec_add(spec, "backend_slot", "9", &err), 0);
	assert_int_equal(nicfit_plan_input_from_spec(cat, spec, &in, &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "no slot '9'"));
	nicfit_spec_release(spec);
	free(spec);
}

/*
 * A DGX H100's storage and in-band NICs: a dual-port card in each of the
 * vendor's two storage slots, one port each to two switches, the weights
 * loaded over them (2 x 200G, not the 10GbE LAN); --storage-nics 0 drops
 * them.
 */
static void dgx_storage(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "4",
		"model", "llama-3.1-405b", "workload", "training", NULL };
	static const char *const none[] = { "server", "dgx-h100", "servers", "4",
		"model", "llama-3.1-405b", "workload", "training", "storage_nics", "0", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_plan_line *l;
	const struct nicfit_plan_cable *c;
	double fe_load;

	(void)state;
	assert_non_null(p->st_nic);
	assert_int_equal(p->st_cards, 2);
	assert_true(p->st_nic->ports >= 2);
	assert_true(p->st_port_gbps == 200);
	assert_int_equal(p->load_over_storage, 1);
	assert_null(finding(p, "frontend-datasets"));
	l = line(p, p->st_nic->part);
	assert_non_null(l);
	assert_int_equal(l->qty, 8);
	c = cable(p, "storage");
	assert_non_null(c);
	assert_int_equal(c->qty, 8);
	fe_load = p->load_s;
	done(p);
	p = plan_of(none);
	assert_null(p->st_nic);
	assert_null(cable(p, "storage"));
	assert_true(p->load_s > 10 * fe_load);
	done(p);
}

/*
 * A Socket Direct card (MCX654106A-HCAT) in two R740xd Gen3 slots, one per
 * socket: each half trains at Gen3 x16, 8 GT/s x 16 x 128/130 = 126.0 Gb/s
 * raw and 103.1 Gb/s usable (the PCIe model's TLP overheads); the two
 * together carry 206.2 Gb/s, more than one 200GbE port's 196.1 Gb/s of
 * RoCE v2 payload, so the card runs at the port's rate, where one slot
 * would cap it at 103.1. Each GPU pairs with the half on its own socket.
 */
static void socket_direct_two_slots(void **state)
{
	static const char *const kv[] = { "server", "r740xd", "servers", "2", "gpu", "a40",
		"gpus_per_server", "2", "backend_nic", "mcx654106a-hcat", "model", "llama-3-70b",
		"workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_server *sv = p->in.server;
	int i;

	(void)state;
	assert_int_equal(p->be_cards, 1);
	assert_int_equal(p->be_sd_links, 2);
	assert_true(p->be_aux_slots[0] >= 0);
	assert_int_not_equal(sv->slots[p->be_slots[0]].socket, sv->slots[p->be_aux_slots[0]].socket);
	assert_true(fabs(p->be_pcie_gbps - 206.2) < 0.1);
	assert_true(fabs(p->be_effective_gbps - 196.1) < 0.1);
	assert_string_equal(p->be_limited_by, "ports");
	assert_null(finding(p, "socket-direct-one-slot"));
	assert_null(finding(p, "backend-capped"));
	assert_null(finding(p, "gpu-nic-cross-socket"));
	for (i = 0; i < 2; i++) {
		assert_true(p->pair_slot[i] >= 0);
		assert_int_equal(sv->slots[p->pair_slot[i]].socket, sv->slots[p->gpu_slots[i]].socket);
		assert_int_equal(p->pair_path[i], NICFIT_PATH_PHB);
	}
	/* the kit is one part: no harness line of its own */
	assert_int_equal(line(p, "MCX654106A-HCAT")->qty, 2);
	done(p);
}

/* With three A40s the R740xd has no free x16 slot on socket 1: one half, 103.1 Gb/s, a warning. */
static void socket_direct_one_slot(void **state)
{
	static const char *const kv[] = { "server", "r740xd", "servers", "2", "gpu", "a40",
		"gpus_per_server", "3", "backend_nic", "mcx654106a-hcat", "model", "llama-3-70b",
		"workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_finding *f;

	(void)state;
	assert_int_equal(p->be_sd_links, 2);
	assert_int_equal(p->be_aux_slots[0], -1);
	assert_true(fabs(p->be_effective_gbps - 103.1) < 0.1);
	f = finding(p, "socket-direct-one-slot");
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_WARNING);
	assert_non_null(strstr(f->message, "103.1 Gb/s"));
	done(p);
}

/*
 * Replicas before splits (R2, replicas-first): Llama 3 70B at bf16 asked
 * as multi-node inference on two DGX H100, 64 requests in flight:
 *   weights  70.55e9 x 2 B = 141.1 GB; with the KV cache of 64 x 4096
 *            tokens x 327,680 B/token (85.9 GB) 227.0 GB, against one
 *            server's 8 x 80 GiB x 0.9 = 618.5 GB: 2.7 times over
 *   replica  32 sequences on one DGX: max(2 x 70.55e9 x 32 / (8 x 989e12
 *            x 0.4) = 0.71 ms, 141.1 GB / 8 / 3350 GB/s = 5.27 ms) =
 *            5.27 ms a token: 64 / 5.27 ms = 12,155 tokens/s
 *   split    TP 8 x PP 2: two stages of 2.63 ms, plus the hop over the
 *            back end: 64 / (5.27 ms + comm) < 12,155 tokens/s
 * The plan keeps the back end asked, warns, and its verdict recommends
 * the replicas. Not raised where the model does not fit one server (the
 * article's split on two R740xd) or where replicas were asked.
 */
static void replicas_before_split(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "2",
		"model", "llama-3-70b", "precision", "bf16", "workload", "multi-node-inference",
		"concurrency", "64", NULL };
	static const char *const split[] = { "server", "r740xd", "servers", "2", "gpu", "a40",
		"gpus_per_server", "2", "model", "llama-3-70b", "precision", "bf16",
		"workload", "multi-node-inference", NULL };
	static const char *const rep[] = { "server", "dgx-h100", "servers", "2",
		"model", "llama-3-70b", "precision", "bf16", "workload", "replicated-inference", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_finding *f;

	(void)state;
	assert_int_equal(p->backend_needed, 1);
	assert_int_equal(p->replicas_first, 1);
	assert_true(fabs(p->fit.total_gb - 227.0) < 0.1);
	assert_true(fabs(p->replicas_fit_times - p->fit.capacity_gb / p->fit.total_gb) < 1e-9);
	assert_true(fabs(p->replicas_fit_times - 2.72) < 0.01);
	assert_true(fabs(p->replicas_step_s - 141.1 / 8 / 3350) < 1e-5);
	assert_true(fabs(p->replicas_tok_s - 64 / p->replicas_step_s) < 1e-6);
	assert_true(fabs(p->replicas_tok_s - 12155) < 5);
	assert_true(p->step_be_known);
	assert_true(fabs(p->split_tok_s - 64 / (p->replicas_step_s + p->step_be.comm_s)) < 1e-6);
	assert_true(p->split_tok_s < p->replicas_tok_s);
	f = finding(p, "replicas-first");
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_WARNING);
	assert_non_null(strstr(f->message, "2.7 times over"));
	assert_non_null(strstr(f->message, "TP 8 x PP 2 on 2 nodes"));
	assert_non_null(strstr(p->verdict, "nicfit recommends 2 replicas behind a load balancer"));
	assert_non_null(decision(p, "R2", "Replicas before splits"));
	done(p);
	p = plan_of(split);
	assert_int_equal(p->replicas_first, 0);
	assert_null(finding(p, "replicas-first"));
	assert_null(strstr(p->verdict, "recommends"));
	done(p);
	p = plan_of(rep);
	assert_int_equal(p->backend_needed, 0);
	assert_null(finding(p, "replicas-first"));
	done(p);
}

/*
 * A DGX's front end converges onto its storage/in-band NICs (NVIDIA's
 * BasePOD and HGX designs): no front-end link, 2 x 200 GbE bonded, and
 * the ConnectX-7s the DGX ships with are included, not bought. A
 * front-end card asked for keeps its own link.
 */
static void dgx_converged(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "2",
		"model", "llama-3.1-70b", "workload", "training", NULL };
	static const char *const card[] = { "server", "dgx-h100", "servers", "2",
		"model", "llama-3.1-70b", "workload", "training", "frontend_nic", "x710-da2", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_plan_line *l;
	size_t i;

	(void)state;
	assert_int_equal(p->fe_converged, 1);
	assert_true(p->fe_node_gbps == 400);
	assert_true(fabs(p->fe_goodput_gbps - p->st_node_gbps) < 1e-9);
	assert_null(cable(p, "frontend"));
	assert_non_null(cable(p, "storage"));
	l = line(p, "MCX75310AAS-NEAT");
	assert_non_null(l);
	assert_int_equal(l->included, 1);
	assert_int_equal(l->qty, 16);
	l = line(p, p->st_nic->part);
	assert_int_equal(l->included, 1);
	assert_int_equal(l->qty, 4);
	for (i = 0; i < p->nbom; i++)
		assert_false(p->bom[i].included && p->bom[i].total_usd != 0);
	assert_non_null(strstr(p->verdict, "Front end converged"));
	done(p);
	p = plan_of(card);
	assert_int_equal(p->fe_converged, 0);
	assert_non_null(cable(p, "frontend"));
	done(p);
}

/*
 * The plan's cheap writers (nicfit__plan_copy, nicfit__plan_str_*) give
 * snprintf's bytes, cut and terminated the same, for every buffer size.
 */
static void plan_str_is_snprintf(void **state)
{
	static const char *const words[] = { "", "a", "socket ", "GPU", " (", "NVIDIA A40",
					     "back-end NIC MCX556A-ECAT", NULL };
	static const long nums[] = { 0, 1, -1, 7, 10, -42, 123456789, -2147483648L };
	size_t n, w, k;

	(void)state;
	for (n = 0; n < 40; n++)
		for (w = 0; w < sizeof(words) / sizeof(words[0]); w++)
			for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
				char a[48], b[48];
				struct plan_str t;
				const char *x = words[w], *y = words[(w + 3) % 8];

				memset(a, 'z', sizeof(a));
				memset(b, 'z', sizeof(b));
				snprintf(a, n, "%s", x);
				nicfit__plan_copy(b, n, x);
				assert_memory_equal(a, b, sizeof(a));
				snprintf(a, n, "%s%ld(%s)%ld", x, nums[k], y, -nums[k]);
				nicfit__plan_str_init(&t, b, n);
				nicfit__plan_str_add(&t, x);
				nicfit__plan_str_int(&t, nums[k]);
				nicfit__plan_str_add(&t, "(");
				nicfit__plan_str_add(&t, y);
				nicfit__plan_str_add(&t, ")");
				nicfit__plan_str_int(&t, -nums[k]);
				assert_memory_equal(a, b, sizeof(a));
			}
}

/* A double of any magnitude the plans print, ties and edges included. */
static double some_double(unsigned *seed)
{
	static const double edge[] = { 0.0, -0.0, 0.5, 1.5, 2.5, 0.25, 0.125, 0.05, 0.15, 0.35,
				       12.5, 99999.95, 999999.5, 1e15, 9.999999e14, 1e-4, 9.9999e-5,
				       123456789012.345, 0.1, 1e-300, 4e18, 9007199254740993.0 };
	unsigned r = (*seed = *seed * 1103515245u + 12345u) >> 8;
	double m = (double)((*seed = *seed * 1103515245u + 12345u) >> 4) / 268435456.0;
	int e = (int)(r % 40) - 12;

	if (r % 7 == 0)
		return edge[r % (sizeof(edge) / sizeof(edge[0]))] * (r & 1024 ? -1 : 1);
	if (r % 5 == 0)
		return (double)(long)(m * 1e6) / (r % 3 == 0 ? 100 : 1000);
	return (r & 2048 ? -m : m) * pow(10, e);
}

/*
 * nicfit__fmt writes snprintf's bytes and returns its length for
 * every conversion the plans use, the ones it leaves to vsnprintf
 * (widths, flags, %e, %x) and every buffer size.
 */
static void plan_fmt_is_snprintf(void **state)
{
	static const char *const dfmt[] = { "%.0f", "%.1f", "%.2f", "%.3f", "%f", "%g", "%.3g",
					    "%.4g", "%.1g", "%.15g", "%.0g", "x%5.1f|", "%e",
					    "%.16f", "%.12g GB", "%gG cable", "%.2g", "%.6g" };
	static const size_t sizes[] = { 0, 1, 4, 16, 512 };
	unsigned seed = 1;
	int i, j, k;

	(void)state;
	for (i = 0; i < 12000; i++) {
		double v = some_double(&seed);

		for (j = 0; j < (int)(sizeof(dfmt) / sizeof(dfmt[0])); j++)
			for (k = 0; k < (int)(sizeof(sizes) / sizeof(sizes[0])); k++) {
				char a[600], b[600];
				int ra, rb;

				memset(a, 'z', sizeof(a));
				memset(b, 'z', sizeof(b));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
				ra = snprintf(a, sizes[k], dfmt[j], v);
				rb = nicfit__fmt(b, sizes[k], dfmt[j], v);
#pragma GCC diagnostic pop
				if (ra != rb || memcmp(a, b, sizeof(a)))
					fail_msg("%s of %.17g: '%.*s' (%d), not '%.*s' (%d)", dfmt[j], v,
						 (int)sizes[k], b, rb, (int)sizes[k], a, ra);
			}
	}
	for (k = 0; k < (int)(sizeof(sizes) / sizeof(sizes[0])); k++) {
		char a[600], b[600];
		const char *volatile nothing = NULL;
		const char *null = nothing;
		size_t z = 123456789;
		int ra, rb;

		memset(a, 'z', sizeof(a));
		memset(b, 'z', sizeof(b));
		ra = snprintf(a, sizes[k], "%s|%d|%i|%ld|%lld|%u|%zu|%c|%%|%.3s|%.2s|%s|%x|%-4d|%.40s",
			      "slot", -7, 42, -1234567890123L, 9000000000000000000LL, 4000000000u, z,
			      'Q', "abcdef", null, null, 255, 3, "short");
		rb = nicfit__fmt(b, sizes[k], "%s|%d|%i|%ld|%lld|%u|%zu|%c|%%|%.3s|%.2s|%s|%x|%-4d|%.40s",
				      "slot", -7, 42, -1234567890123L, 9000000000000000000LL, 4000000000u,
				      z, 'Q', "abcdef", null, null, 255, 3, "short");
		assert_int_equal(ra, rb);
		assert_memory_equal(a, b, sizeof(a));
		ra = snprintf(a, sizes[k], "%s %d GPUs, %.1f GB (%g Gb/s)", "R740xd", 2, 47.25, 96.0);
		rb = nicfit__fmt(b, sizes[k], "%s %d GPUs, %.1f GB (%g Gb/s)", "R740xd", 2, 47.25,
				      96.0);
		assert_int_equal(ra, rb);
		assert_memory_equal(a, b, sizeof(a));
	}
	/*
	 * formats that a kept reading does not hold (more conversions than
	 * its segments, a run longer than it counts) are read every time, to
	 * the same bytes; each format above was written thousands of times
	 * from its kept reading
	 */
	{
#define PCT10 "%%%%%%%%%%%%%%%%%%%%"
		static const char many[] = PCT10 PCT10 PCT10 PCT10 PCT10 PCT10 PCT10 "|%d";
		static char big[70001];
		char a[600], b[600];

		memset(big, 'a', sizeof(big) - 1);
		for (k = 0; k < (int)(sizeof(sizes) / sizeof(sizes[0])); k++) {
			memset(a, 'z', sizeof(a));
			memset(b, 'z', sizeof(b));
			assert_int_equal(snprintf(a, sizes[k], many, 7), nicfit__fmt(b, sizes[k], many, 7));
			assert_memory_equal(a, b, sizeof(a));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
			assert_int_equal(snprintf(a, sizes[k], big), nicfit__fmt(b, sizes[k], big));
#pragma GCC diagnostic pop
			assert_memory_equal(a, b, sizeof(a));
		}
#undef PCT10
	}
	/*
	 * pieces of every length from 0 to 140 bytes (copied as words, as
	 * 16-byte blocks up to 64, by memcpy() past that), cut at every
	 * buffer size around them
	 */
	for (i = 0; i <= 140; i++) {
		static const char text[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH"
					   "IJKLMNOPQRSTUVWXYZ)!@#$^&*(-=_+[]{};:,./<>?~"
					   "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH"
					   "ijklmnopqrst";
		char piece[160];

		memcpy(piece, text, (size_t)i);
		piece[i] = '\0';
		for (k = 0; k <= 2 * i + 16; k++) {
			char a[304], b[304];
			int ra, rb;

			memset(a, 'z', sizeof(a));
			memset(b, 'z', sizeof(b));
			ra = snprintf(a, (size_t)k, "<%s|%s>%d", piece, piece + i / 2, i);
			rb = nicfit__fmt(b, (size_t)k, "<%s|%s>%d", piece, piece + i / 2, i);
			assert_int_equal(ra, rb);
			assert_memory_equal(a, b, sizeof(a));
		}
	}
}

/* nicfit__vfmt(), which reads a format every time: for formats made at run time. */
static int vfmt_of(char *d, size_t n, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = nicfit__vfmt(d, n, fmt, ap);
	va_end(ap);
	return k;
}

/*
 * nicfit__stop() and nicfit__strlen() read whole aligned blocks around a
 * text: texts that end on the last byte of a page, before a page that
 * cannot be read, at every start, with the stop byte at every place, as
 * strchr() and strlen() find them; and a format that ends there (through
 * nicfit__vfmt(): a format made at run time), and a %s argument that
 * does, through nicfit__fmt().
 */
static void fmt_stops_at_page_ends(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	char *end;
	int len, at;

	(void)state;
	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + page, (size_t)page, PROT_NONE), 0);
	end = m + page - 1; /* the NUL of every text below */
	for (len = 0; len <= 70; len++) {
		char *s = end - len;

		memset(m, 'x', (size_t)page);
		*end = '\0';
		assert_int_equal(nicfit__strlen(s), (size_t)len);
		assert_ptr_equal(nicfit__stop(s, '%'), end);
		/* the text as a %s argument, copied as it is measured, at every buffer size */
		for (at = 0; at <= len + 20; at++) {
			char a[96], b[96];

			memset(a, 'z', sizeof(a));
			memset(b, 'z', sizeof(b));
			assert_int_equal(snprintf(a, (size_t)at, "[%s]", s),
					 nicfit__fmt(b, (size_t)at, "[%s]", s));
			assert_memory_equal(a, b, sizeof(a));
		}
		for (at = 0; at < len; at++) {
			s[at] = '%';
			assert_ptr_equal(nicfit__stop(s, '%'), s + at);
			assert_ptr_equal(nicfit__stop(s + at + 1, '%'), end);
			s[at] = 'x';
		}
		if (len >= 2) {
			char a[96], b[96];

			s[len - 2] = '%';
			s[len - 1] = 'd';
			memset(a, 'z', sizeof(a));
			memset(b, 'z', sizeof(b));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
			assert_int_equal(snprintf(a, sizeof(a), s, len), vfmt_of(b, sizeof(b), s, len));
#pragma GCC diagnostic pop
			assert_memory_equal(a, b, sizeof(a));
		}
	}
	munmap(m, (size_t)page * 2);
}

/* The planner's byte and second writers write units.c's bytes. */
/* units.c's labels as snprintf() writes them: the oracle for nicfit_fmt_bytes/seconds */
static void ref_bytes(double bytes, char *out, int n)
{
	static const char *u[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	int i = 0;

	while (fabs(bytes) >= 1000 && i < 5) {
		bytes /= 1000;
		i++;
	}
	snprintf(out, (size_t)n, i ? (fabs(bytes) < 10 ? "%.2f %s" : "%.1f %s") : "%.0f %s",
		 bytes, u[i]);
}

static void ref_seconds(double s, char *out, int n)
{
	if (!isfinite(s))
		snprintf(out, (size_t)n, "-");
	else if (s < 1e-3)
		snprintf(out, (size_t)n, "%.0f us", s * 1e6);
	else if (s < 1)
		snprintf(out, (size_t)n, "%.0f ms", s * 1e3);
	else if (s < 10)
		snprintf(out, (size_t)n, "%.1f s", s);
	else if (s < 120)
		snprintf(out, (size_t)n, "%.0f s", s);
	else if (s < 7200)
		snprintf(out, (size_t)n, "%.1f min", s / 60);
	else
		snprintf(out, (size_t)n, "%.1f h", s / 3600);
}

static void plan_units_are_units(void **state)
{
	static const int sizes[] = { 1, 5, 32 };
	unsigned seed = 7;
	int i, k;

	(void)state;
	for (i = 0; i < 20000; i++) {
		double v = some_double(&seed);

		if (i % 7 == 0)
			v = i % 2 ? INFINITY : NAN;
		for (k = 0; k < (int)(sizeof(sizes) / sizeof(sizes[0])); k++) {
			char a[40], b[40];

			memset(a, 'z', sizeof(a));
			memset(b, 'z', sizeof(b));
			ref_bytes(v, a, sizes[k]);
			nicfit_fmt_bytes(v, b, sizes[k]);
			if (memcmp(a, b, sizeof(a)))
				fail_msg("bytes of %.17g: '%.*s', not '%.*s'", v, sizes[k], b, sizes[k], a);
			memset(a, 'z', sizeof(a));
			memset(b, 'z', sizeof(b));
			ref_seconds(v, a, sizes[k]);
			nicfit_fmt_seconds(v, b, sizes[k]);
			if (memcmp(a, b, sizeof(a)))
				fail_msg("seconds of %.17g: '%.*s', not '%.*s'", v, sizes[k], b, sizes[k], a);
		}
	}
}

/* Two placements from the search are the same in every figure it reports. */
static void same_choice(const struct plan_choice *a, const struct plan_choice *b, int ncards,
			const char *what)
{
	int i;

	if (a->valid != b->valid || a->ngpu_placed != b->ngpu_placed || a->meets != b->meets ||
	    a->per_card != b->per_card || a->local != b->local || a->near != b->near ||
	    a->balance != b->balance || a->role_miss != b->role_miss ||
	    a->gpu_sockets != b->gpu_sockets || a->waste != b->waste || a->order != b->order)
		fail_msg("%s: the cut search's figures differ (order %d vs %d)", what, a->order,
			 b->order);
	for (i = 0; a->valid && i < a->ngpu_placed; i++)
		if (a->gpu_slots[i] != b->gpu_slots[i] || a->pair_card[i] != b->pair_card[i] ||
		    a->pair_path[i] != b->pair_path[i] || a->pair_slot[i] != b->pair_slot[i])
			fail_msg("%s: GPU %d goes to slot %d, not %d", what, i, a->gpu_slots[i],
				 b->gpu_slots[i]);
	for (i = 0; a->valid && i < ncards; i++)
		if (a->nic_slots[i] != b->nic_slots[i] || a->aux_slots[i] != b->aux_slots[i])
			fail_msg("%s: card %d goes to slot %d, not %d", what, i, a->nic_slots[i],
				 b->nic_slots[i]);
}

/*
 * The placement search skips a slot while its twin (a slot before it the
 * same in every figure) is free: on every server of the catalog, with
 * PCIe and baseboard GPUs, one to four cards of three kinds, targets met
 * and missed, a pinned slot and an installed card, it picks exactly the
 * placement that trying every one picks.
 */
static void place_cut_is_exhaustive(void **state)
{
	static const char *const gpus[] = { "a40", "l4", "h100-sxm5-80gb" };
	static const char *const nics[] = { "mcx653105a-hdat", "mcx4121a-acat", "mcx75310aas-neat" };
	static const int ngpus[] = { 0, 1, 2, 3, 4, 8 }, ncards[] = { 1, 2, 4 };
	static const double needs[] = { 0, 50, 90, 180, 1e6 };
	size_t sv, g, k, gi, ci, ni, nserv = nicfit_catalog_count(cat, NICFIT_KIND_SERVER);
	struct nicfit_plan *p = calloc(1, sizeof(*p));
	struct nicfit_error err;
	long searched = 0;

	(void)state;
	assert_non_null(p);
	nicfit_error_clear(&err);
	for (sv = 0; sv < nserv; sv++)
		for (g = 0; g < sizeof(gpus) / sizeof(gpus[0]); g++)
			for (k = 0; k < sizeof(nics) / sizeof(nics[0]); k++) {
				const struct nicfit_nic *n = nicfit_catalog_find_nic(cat, nics[k], "nic",
										     &err);
				struct nicfit_card card;
				int variant;

				assert_non_null(n);
				nicfit__plan_fill_card(&card, n);
				for (gi = 0; gi < sizeof(ngpus) / sizeof(ngpus[0]); gi++)
					for (ci = 0; ci < sizeof(ncards) / sizeof(ncards[0]); ci++)
						for (ni = 0; ni < sizeof(needs) / sizeof(needs[0]); ni++)
							for (variant = 0; variant < 3; variant++) {
								struct plan_choice cut, all;
								char what[160];
								int a, b;

								memset(p, 0, sizeof(*p));
								p->in.server = nicfit_catalog_server(cat, sv);
								p->in.gpu = nicfit_catalog_find_gpu(cat, gpus[g],
												    "gpu", &err);
								assert_non_null(p->in.gpu);
								p->in.gpus_per_server = ngpus[gi];
								p->fabric = NICFIT_FABRIC_ROCE;
								/* variant 1 pins the last slot, 2 has a card installed in the second */
								if (variant == 1)
									p->in.backend_slot_pin = p->in.server->nslots;
								if (variant == 2 && p->in.server->nslots > 1)
									p->in.installed_slot =
										p->in.server->slots[1].name;
								snprintf(what, sizeof(what), "%s, %d x %s, %d x %s, need %g, variant %d",
									 p->in.server->e.id, ngpus[gi], gpus[g],
									 ncards[ci], nics[k], needs[ni], variant);
								a = nicfit__plan_search_place(p, &card, n,
											      ncards[ci], needs[ni], &cut);
								b = nicfit__plan_search_place_all(p, &card, n,
												  ncards[ci], needs[ni], &all);
								if (a != b)
									fail_msg("%s: found %d, not %d", what, a, b);
								if (a)
									same_choice(&cut, &all, ncards[ci], what);
								/* no slot lets the card move need: no placement meets it */
								if (a && cut.meets &&
								    !nicfit__plan_card_can_meet(p, &card, n,
												needs[ni]))
									fail_msg("%s: meets, yet no slot can", what);
								searched++;
							}
			}
	assert_true(searched > 1000);
	free(p);
}

/*
 * Text from outside stays escaped in every format: a catalog overlay whose
 * card is named with a double quote and a backslash, planned as the
 * article's two-server training job, comes out as the name in JSON
 * (escaped, in the card, the BOM and the decision that quotes it), in the
 * text report (as it is: a terminal shows both) and in CSV (the field
 * quoted, its quote doubled). A control character in a name is refused
 * when the overlay is read, so that none reaches a document at all.
 */
static void overlay_name_escaped(void **state)
{
	static const char nic[] =
		"{\"schema\":\"nicfit.catalog.v1\",\"nics\":[{\"id\":\"test-quote-nic\","
		"\"name\":\"Test \\\"Q\\\" NIC, back\\\\slash\",\"part\":\"TQN-100\","
		"\"vendor\":\"NVIDIA\",\"family\":\"ConnectX-5\",\"protocol\":\"EN\",\"ports\":2,"
		"\"cage\":\"QSFP28\",\"port_gbps\":100,\"pcie_gen\":3,\"pcie_width\":16,"
		"\"rdma\":[\"roce\"],\"role\":[\"backend\"],\"vpi\":false,"
		"\"form_factor\":\"pcie-hhhl\",\"source\":\"test\"}]}";
	static const char bell[] =
		"{\"schema\":\"nicfit.catalog.v1\",\"nics\":[{\"id\":\"test-bell-nic\","
		"\"name\":\"bell \\u0007 NIC\",\"part\":\"TBN-100\",\"vendor\":\"NVIDIA\","
		"\"family\":\"ConnectX-5\",\"protocol\":\"EN\",\"ports\":2,\"cage\":\"QSFP28\","
		"\"port_gbps\":100,\"pcie_gen\":3,\"pcie_width\":16,\"rdma\":[\"roce\"],"
		"\"role\":[\"backend\"],\"vpi\":false,\"form_factor\":\"pcie-hhhl\","
		"\"source\":\"test\"}]}";
	static const char *const kv[] = { "server", "r740xd", "riser_config", "4", "servers", "2",
					  "gpu", "a40", "gpus_per_server", "2", "model",
					  "llama-3-8b", "workload", "training", "backend_nic",
					  "TQN-100", NULL };
	static const struct {
		enum nicfit_format fmt;
		const char *want[3];
	} outs[] = {
		{ NICFIT_FMT_JSON,
		  { "\"name\":\"Test \\\"Q\\\" NIC, back\\\\slash\"",
		    "\"description\":\"Test \\\"Q\\\" NIC, back\\\\slash\"",
		    "TQN-100 Test \\\"Q\\\" NIC, back\\\\slash (ConnectX-5)" } },
		{ NICFIT_FMT_TEXT,
		  { "TQN-100 Test \"Q\" NIC, back\\slash, 1 per server",
		    "TQN-100 Test \"Q\" NIC, back\\slash (ConnectX-5)", NULL } },
		{ NICFIT_FMT_CSV, { "TQN-100,\"Test \"\"Q\"\" NIC, back\\slash\",backend,2", NULL } },
	};
	struct nicfit_catalog *own;
	struct nicfit_spec spec;
	struct nicfit_plan_input in;
	struct nicfit_plan *p = calloc(1, sizeof(*p));
	struct nicfit_error err;
	size_t i, k;

	(void)state;
	assert_non_null(p);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&own, &err), 0);
	assert_int_equal(nicfit_catalog_overlay(own, "bell", bell, sizeof(bell) - 1, &err),
			 NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "control character"));
	nicfit_error_clear(&err);
	if (nicfit_catalog_overlay(own, "quote", nic, sizeof(nic) - 1, &err))
		fail_msg("overlay: %s", err.msg);
	nicfit_spec_init(&spec, "test");
	for (i = 0; kv[i]; i += 2)
		assert_int_equal(nicfit_spec_add(&spec, kv[i], kv[i + 1], &err), 0);
	if (nicfit_plan_input_from_spec(own, &spec, &in, &err) || nicfit_plan(own, &in, p, &err))
		fail_msg("plan: %s", err.msg);
	for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		struct nicfit_emit *e = nicfit_emit_new(outs[i].fmt, 0, 0);
		struct nicfit_buf out;

		assert_non_null(e);
		nicfit_buf_init(&out, 0);
		nicfit_plan_render(e, p);
		assert_int_equal(nicfit_emit_finish(e, &out), 0);
		for (k = 0; k < 3 && outs[i].want[k]; k++)
			if (!strstr(out.data, outs[i].want[k]))
				fail_msg("format %d: no '%s' in\n%s", (int)outs[i].fmt, outs[i].want[k],
					 out.data);
		/* the name as it is appears in no JSON and no CSV */
		if (outs[i].fmt != NICFIT_FMT_TEXT && strstr(out.data, "Test \"Q\" NIC"))
			fail_msg("format %d: the name unescaped", (int)outs[i].fmt);
		nicfit_buf_release(&out);
		nicfit_emit_free(e);
	}
	done(p);
	nicfit_spec_release(&spec);
	nicfit_catalog_free(own);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(article_single_server),
		cmocka_unit_test(article_16bit_does_not_fit),
		cmocka_unit_test(article_replicas),
		cmocka_unit_test(article_two_node_training),
		cmocka_unit_test(article_capped),
		cmocka_unit_test(cx8_socket_direct_in_gen5),
		cmocka_unit_test(gaudi_own_ports_priced),
		cmocka_unit_test(vpi_fix_names_every_port),
		cmocka_unit_test(article_gen4_gets_200g),
		cmocka_unit_test(article_budget_lab),
		cmocka_unit_test(article_x710_refused),
		cmocka_unit_test(rule_backend_table),
		cmocka_unit_test(prop_more_servers_keep_backend),
		cmocka_unit_test(prop_faster_slot_faster_card),
		cmocka_unit_test(prop_bom_total),
		cmocka_unit_test(switched_backend),
		cmocka_unit_test(switch_by_lanes),
		cmocka_unit_test(given_switch_by_lanes),
		cmocka_unit_test(codes_registered),
		cmocka_unit_test(bad_requests),
		cmocka_unit_test(dgx_rails),
		cmocka_unit_test(cascade_path_classes),
		cmocka_unit_test(esc8000_g4_cascade),
		cmocka_unit_test(amd_mi325x_pollara_16),
		cmocka_unit_test(back_to_back_gid_tool),
		cmocka_unit_test(replicas_before_split),
		cmocka_unit_test(step_time_all_cards),
		cmocka_unit_test(gen3_200g_two_cards),
		cmocka_unit_test(cards_beside_gpus),
		cmocka_unit_test(ended_card_passed_over),
		cmocka_unit_test(installed_frontend_card),
		cmocka_unit_test(slot_lists),
		cmocka_unit_test(impossible_verdict),
		cmocka_unit_test(impossible_step),
		cmocka_unit_test(overlay_name_escaped),
		cmocka_unit_test(frontend_card_slot),
		cmocka_unit_test(card_height_and_length),
		cmocka_unit_test(card_double_width),
		cmocka_unit_test(pinned_backend_slot),
		cmocka_unit_test(dgx_storage),
		cmocka_unit_test(socket_direct_two_slots),
		cmocka_unit_test(socket_direct_one_slot),
		cmocka_unit_test(dgx_converged),
		cmocka_unit_test(plan_str_is_snprintf),
		cmocka_unit_test(plan_fmt_is_snprintf),
		cmocka_unit_test(fmt_stops_at_page_ends),
		cmocka_unit_test(plan_units_are_units),
		cmocka_unit_test(place_cut_is_exhaustive),
		cmocka_unit_test(chassis_not_picked),
	};

	return cmocka_run_group_tests_name("plan", tests, catalog_setup, catalog_teardown);
}
