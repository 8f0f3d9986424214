/*
 * test_physics.c - the bandwidth and memory models against the values
 * derived in docs/reference/bandwidth.md and servers-gpus-models.md.
 */
#include "unit.h"

#include "nicfit/calc.h"
#include "nicfit/link.h"
#include "nicfit/llm.h"
#include "nicfit/pcie.h"
#include "nicfit/perf.h"
#include "nicfit/units.h"

static void pcie_raw_rates(void **state)
{
	static const struct { int gen, width; double raw; } t[] = {
		{ 1, 16, 32.0 }, { 2, 16, 64.0 }, { 3, 1, 7.877 }, { 3, 8, 63.0 }, { 3, 16, 126.03 },
		{ 4, 16, 252.06 }, { 5, 16, 504.12 }, { 6, 16, 944.0 },
	};
	struct nicfit_pcie_params p;
	struct nicfit_pcie_result r;
	size_t i;

	(void)state;
	nicfit_pcie_params_default(&p);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(nicfit_pcie_calc(t[i].gen, t[i].width, &p, &r, NULL), 0);
		assert_near(r.raw_gbps, t[i].raw, 0.05);
		assert_true(r.effective_gbps < r.raw_gbps);
		assert_true(r.effective_gbps <= r.write_gbps && r.effective_gbps <= r.read_gbps);
	}
}

static void pcie_packet_efficiency(void **state)
{
	struct nicfit_pcie_params p;
	struct nicfit_pcie_result r;

	(void)state;
	nicfit_pcie_params_default(&p);
	/* Intel AN 708: 256 B payload, 20 B of 3DW overhead -> 92.8 % */
	p.hdr_write = 12;
	p.dllp = 0;
	p.skp_share = 0;
	assert_int_equal(nicfit_pcie_calc(3, 16, &p, &r, NULL), 0);
	assert_near(r.write_eff, 256.0 / 276.0, 1e-9);
	/* a bigger MPS is never slower */
	nicfit_pcie_params_default(&p);
	{
		double last = 0;
		int mps;

		for (mps = 128; mps <= 4096; mps *= 2) {
			p.mps = mps;
			nicfit_pcie_calc(4, 16, &p, &r, NULL);
			assert_true(r.write_gbps >= last);
			last = r.write_gbps;
		}
	}
	/* the article's claim: Gen3 x16 caps a 200G card near 100G */
	nicfit_pcie_params_default(&p);
	nicfit_pcie_calc(3, 16, &p, &r, NULL);
	assert_true(r.effective_gbps > 95 && r.effective_gbps < 115);
	/* ... and Gen4 x16 feeds it */
	nicfit_pcie_calc(4, 16, &p, &r, NULL);
	assert_true(r.effective_gbps > 196);
	assert_int_not_equal(nicfit_pcie_calc(7, 16, &p, &r, NULL), 0);
	assert_int_not_equal(nicfit_pcie_calc(3, 0, &p, &r, NULL), 0);
}

static double goodput(const char *speed, enum nicfit_proto proto, double mtu)
{
	struct nicfit_link_params lp;
	struct nicfit_link_result r;
	struct nicfit_speed sp;

	nicfit_link_params_default(&lp);
	if (mtu > 0) {
		lp.mtu = mtu;
		if (mtu <= 4096)
			lp.rdma_mtu = mtu;
	}
	if (nicfit_parse_speed(speed, "x", &sp, NULL) || nicfit_link_calc(&sp, proto, &lp, &r, NULL))
		return -1;
	return r.goodput_gbps;
}

static void link_goodput(void **state)
{
	(void)state;
	/* bandwidth.md 2.2: TCP ceilings */
	assert_near(goodput("10G", NICFIT_PROTO_TCP, 1500), 9.415, 0.005);
	assert_near(goodput("10G", NICFIT_PROTO_TCP, 9000), 9.90, 0.01);
	assert_near(goodput("25G", NICFIT_PROTO_TCP, 1500), 23.54, 0.01);
	assert_near(goodput("100G", NICFIT_PROTO_TCP, 1500), 94.15, 0.01);
	/* 2.3: RoCE v2 at 4096 -> 98.04 % */
	assert_near(goodput("100G", NICFIT_PROTO_ROCE, -1), 98.04, 0.01);
	assert_near(goodput("400G", NICFIT_PROTO_ROCE, -1), 392.15, 0.05);
	assert_near(goodput("100G", NICFIT_PROTO_ROCE, 2048), 96.15, 0.05);
	/* 3.2: InfiniBand, 26 B per packet */
	assert_near(goodput("EDR", NICFIT_PROTO_IB, -1), 99.37, 0.01);
	assert_near(goodput("FDR", NICFIT_PROTO_IB, -1), 54.545 * 4096 / 4122, 0.01);
	assert_near(goodput("100G", NICFIT_PROTO_IB, -1), 99.37, 0.01); /* 100G with ib = EDR */
	/* wrong technology for the protocol */
	assert_true(goodput("EDR", NICFIT_PROTO_TCP, -1) < 0);
	assert_true(goodput("100GbE", NICFIT_PROTO_IB, -1) < 0);
	assert_true(goodput("30G", NICFIT_PROTO_IB, -1) < 0);
}

/*
 * An InfiniBand rate given for TCP or RoCE is refused with an Ethernet
 * speed to give instead: an IEEE rate of the same generation, never a
 * figure worked out from the InfiniBand one (FDR's 54.5455G runs nowhere).
 * The suggestion works where the rate did not.
 */
static void ib_rate_suggests_ethernet(void **state)
{
	static const char *const ib[] = { "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR100",
		"HDR", "NDR200", "NDR", "XDR", "1x EDR" };
	static const double eth[] = { 10, 25, 40, 50, 100, 200, 400, 800 };
	struct nicfit_link_params lp;
	struct nicfit_link_result r;
	struct nicfit_speed sp;
	struct nicfit_error err;
	size_t i, k;

	(void)state;
	nicfit_link_params_default(&lp);
	for (i = 0; i < sizeof(ib) / sizeof(ib[0]); i++) {
		const char *at;
		char speed[16], with_unit[24];
		double g;
		int standard = 0;

		nicfit_error_clear(&err);
		assert_int_equal(nicfit_parse_speed(ib[i], "x", &sp, NULL), 0);
		assert_int_equal(nicfit_link_calc(&sp, NICFIT_PROTO_TCP, &lp, &r, &err), NICFIT_E_USAGE);
		at = strstr(err.msg, "such as ");
		assert_non_null(at);
		assert_int_equal(sscanf(at, "such as %15[0-9.]G for tcp", speed), 1);
		assert_int_equal(nicfit_parse_double(speed, "x", 0, 1e6, &g, NULL), 0);
		for (k = 0; k < sizeof(eth) / sizeof(eth[0]); k++)
			standard += g == eth[k];
		if (!standard)
			fail_msg("%s: suggests %s, not an Ethernet rate", ib[i], err.msg);
		snprintf(with_unit, sizeof(with_unit), "%sG", speed);
		assert_int_equal(nicfit_parse_speed(with_unit, "x", &sp, NULL), 0);
		assert_int_equal(nicfit_link_calc(&sp, NICFIT_PROTO_TCP, &lp, &r, NULL), 0);
	}
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_parse_speed("FDR", "x", &sp, NULL), 0);
	assert_int_not_equal(nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &lp, &r, &err), 0);
	assert_string_equal(err.msg, "FDR is an InfiniBand rate, and roce runs over Ethernet: give an "
			    "Ethernet speed such as 40G (G, GbE, Gb/s or Mb/s)");
}

/*
 * A speed InfiniBand cannot run at ("25G", "100GbE") is refused with what
 * it takes: every rate name and every figure the message lists works
 * where the speed did not, and every rate name nicfit knows is listed.
 */
static void ib_refusal_lists_what_works(void **state)
{
	static const char *const bad[] = { "25G", "300G", "100GbE", "1.6T" };
	struct nicfit_link_params lp;
	struct nicfit_link_result r;
	struct nicfit_speed sp;
	struct nicfit_error err;
	size_t i, k, listed;

	(void)state;
	nicfit_link_params_default(&lp);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char list[512], *tok, *save = NULL;

		nicfit_error_clear(&err);
		assert_int_equal(nicfit_parse_speed(bad[i], "x", &sp, NULL), 0);
		assert_int_equal(nicfit_link_check(&sp, NICFIT_PROTO_IB, &err), NICFIT_E_USAGE);
		assert_int_equal(nicfit_link_calc(&sp, NICFIT_PROTO_IB, &lp, &r, NULL), NICFIT_E_USAGE);
		assert_non_null(strstr(err.msg, "a rate ("));
		for (k = 0; nicfit_ib_rate_name(k); k++)
			assert_non_null(strstr(err.msg, nicfit_ib_rate_name(k)));
		snprintf(list, sizeof(list), "%s", strstr(err.msg, "a rate (") + 8);
		listed = 0;
		for (tok = strtok_r(list, ",()", &save); tok; tok = strtok_r(NULL, ",()", &save)) {
			while (*tok == ' ')
				tok++;
			if (!*tok || !strcmp(tok, "or a 4x rate's speed "))
				continue;
			listed++;
			if (nicfit_parse_speed(tok, "x", &sp, NULL) ||
			    nicfit_link_calc(&sp, NICFIT_PROTO_IB, &lp, &r, NULL))
				fail_msg("%s: the message offers '%s', which InfiniBand refuses", bad[i],
					 tok);
		}
		assert_true(listed >= 2 * k - 3); /* the names, and a figure for most of them */
	}
}

static void nic_in_slot(void **state)
{
	struct nicfit_card cx6 = { .pcie_gen = 4, .pcie_width = 16, .ports = 1, .port_gbps = 200,
				   .ib_rate = "HDR", .rdma = 3, .vpi = 1 };
	struct nicfit_card cx5 = { .pcie_gen = 3, .pcie_width = 16, .ports = 2, .port_gbps = 100,
				   .ib_rate = "EDR", .rdma = 3, .vpi = 1 };
	struct nicfit_card e810 = { .pcie_gen = 4, .pcie_width = 16, .ports = 2, .port_gbps = 100,
				    .rdma = 1, .card_gbps = 100 };
	struct nicfit_pcie_params pp;
	struct nicfit_link_params lp;
	struct nicfit_nic_fit f;

	(void)state;
	nicfit_pcie_params_default(&pp);
	nicfit_link_params_default(&lp);
	assert_int_equal(nicfit_calc_nic(&cx6, 3, 16, 0, NICFIT_PROTO_ROCE, &pp, &lp, &f, NULL), 0);
	assert_string_equal(f.limited_by, "pcie");
	assert_int_equal(f.link_gen, 3);
	assert_true(f.effective_gbps < 115 && f.idle_gbps > 80);
	assert_int_equal(nicfit_calc_nic(&cx6, 4, 16, 0, NICFIT_PROTO_ROCE, &pp, &lp, &f, NULL), 0);
	assert_string_equal(f.limited_by, "ports");
	/* one 100G port fits Gen3 x16; two share it */
	assert_int_equal(nicfit_calc_nic(&cx5, 3, 16, 1, NICFIT_PROTO_IB, &pp, &lp, &f, NULL), 0);
	assert_string_equal(f.limited_by, "ports");
	assert_int_equal(nicfit_calc_nic(&cx5, 3, 16, 2, NICFIT_PROTO_IB, &pp, &lp, &f, NULL), 0);
	assert_string_equal(f.limited_by, "pcie");
	assert_true(f.per_port_gbps < 60);
	/* an x16 card in an x8 slot trains at x8 */
	assert_int_equal(nicfit_calc_nic(&cx5, 3, 8, 1, NICFIT_PROTO_ROCE, &pp, &lp, &f, NULL), 0);
	assert_int_equal(f.link_width, 8);
	assert_true(f.effective_gbps < 60);
	assert_int_not_equal(nicfit_calc_nic(&cx5, 3, 16, 3, NICFIT_PROTO_ROCE, &pp, &lp, &f, NULL), 0);
	/* a card whose own total is below its ports' sum */
	assert_int_equal(nicfit_calc_nic(&e810, 4, 16, 0, NICFIT_PROTO_ROCE, &pp, &lp, &f, NULL), 0);
	assert_string_equal(f.limited_by, "card");
	assert_near(f.effective_gbps, 98.04, 0.05);
}

/*
 * A Socket Direct card (MCX654106A-HCAT: two Gen4 x16 links, a main and
 * an auxiliary card) with each link in a Gen3 x16 slot: both links feed
 * the ports, 2 x 103.1 = 206.2 Gb/s, as plan counts it (test_plan's
 * socket_direct_two_slots), not the 103.1 of one x16 link; an x8 slot
 * narrows each link.
 */
static void nic_socket_direct_links(void **state)
{
	struct nicfit_card sd = { .pcie_gen = 4, .pcie_width = 16, .ports = 2, .port_gbps = 200,
				  .ib_rate = "HDR", .rdma = 3, .vpi = 1, .pcie_links = 2 };
	struct nicfit_card one = sd;
	struct nicfit_pcie_params pp;
	struct nicfit_link_params lp;
	struct nicfit_nic_fit f, g;

	(void)state;
	one.pcie_links = 0;
	nicfit_pcie_params_default(&pp);
	nicfit_link_params_default(&lp);
	assert_int_equal(nicfit_calc_nic(&one, 3, 16, 0, NICFIT_PROTO_ROCE, &pp, &lp, &g, NULL), 0);
	assert_int_equal(g.links, 1);
	assert_near(g.pcie_gbps, 103.1, 0.05);
	assert_int_equal(nicfit_calc_nic(&sd, 3, 16, 0, NICFIT_PROTO_ROCE, &pp, &lp, &f, NULL), 0);
	assert_int_equal(f.links, 2);
	assert_int_equal(f.link_gen, 3);
	assert_int_equal(f.link_width, 32);
	assert_near(f.pcie_gbps, 2 * g.pcie_gbps, 1e-9);
	assert_near(f.pcie_gbps, 206.2, 0.05);
	assert_near(f.effective_gbps, 206.2, 0.05);
	assert_string_equal(f.limited_by, "pcie");
	assert_int_equal(nicfit_calc_nic(&sd, 3, 8, 0, NICFIT_PROTO_ROCE, &pp, &lp, &f, NULL), 0);
	assert_int_equal(f.link_width, 16);
	assert_near(f.pcie_gbps, g.pcie_gbps, 1e-9);
}

/*
 * calc load and allreduce list int4's group layout as the first
 * NICFIT__CALC_INT4_PARAMS (3) rows of the LLM table (calc_int.h) when a
 * size in int4 parameters is given: those rows must stay these three.
 */
static void llm_int4_rows(void **state)
{
	static const char *const rows[] = { "group_size", "scale_bits", "zero_bits" };
	size_t i;

	(void)state;
	assert_true(nicfit_llm_param_count >= 3);
	for (i = 0; i < 3; i++)
		assert_string_equal(nicfit_llm_param_table[i].name, rows[i]);
}

static void load_and_allreduce(void **state)
{
	struct nicfit_link_params lp;
	struct nicfit_allreduce_params ap;
	struct nicfit_allreduce ar;
	struct nicfit_load ld;
	struct nicfit_speed sp;

	(void)state;
	nicfit_link_params_default(&lp);
	nicfit_allreduce_params_default(&ap);
	nicfit_parse_speed("10G", "x", &sp, NULL);
	/* the article: 40 GB over 10GbE in about 35-40 s (34 s at the TCP ceiling) */
	assert_int_equal(nicfit_calc_load(40e9, &sp, NICFIT_PROTO_TCP, 0, &lp, &ld, NULL), 0);
	assert_true(ld.seconds > 33 && ld.seconds < 41);
	assert_string_equal(ld.bottleneck, "network");
	assert_int_equal(nicfit_calc_load(40e9, &sp, NICFIT_PROTO_TCP, 2.4, &lp, &ld, NULL), 0);
	assert_string_equal(ld.bottleneck, "storage"); /* NFS at 300 MB/s */
	assert_near(ld.seconds, 40e9 * 8 / 2.4e9, 1e-6);
	/* ring factor 2(n-1)/n and busbw = link rate for big buffers */
	nicfit_parse_speed("100G", "x", &sp, NULL);
	assert_int_equal(nicfit_calc_allreduce(16e9, 2, 1, &sp, NICFIT_PROTO_ROCE, 0, &lp, &ap, &ar, NULL), 0);
	assert_near(ar.factor, 1.0, 1e-12);
	assert_near(ar.busbw_gbps, 98.04, 0.1);
	assert_int_equal(nicfit_calc_allreduce(16e9, 8, 1, &sp, NICFIT_PROTO_ROCE, 0, &lp, &ap, &ar, NULL), 0);
	assert_near(ar.factor, 1.75, 1e-12);
	assert_int_not_equal(nicfit_calc_allreduce(16e9, 1, 1, &sp, NICFIT_PROTO_ROCE, 0, &lp, &ap, &ar, NULL), 0);
}

static void model_memory(void **state)
{
	/* Llama 3 70B: 80 layers, 8 KV heads, 128 head dim -> 320 KiB per token */
	struct nicfit_arch l70 = { 70553706496.0, 0, 80, 8192, 64, 8, 128, 128256, 0, 0, 0 };
	struct nicfit_arch ds = { 671026419200.0, 0, 61, 7168, 128, 128, 128, 129280, 512, 64, 0 };
	struct nicfit_llm_params p;
	struct nicfit_fit f;

	(void)state;
	nicfit_llm_params_default(&p);
	assert_int_equal(nicfit_calc_fit(&l70, NICFIT_PREC_BF16, 1, 1, 1, 80, &p, &f, NULL), 0);
	assert_near(f.kv_bytes_per_token, 327680, 1e-6);
	assert_near(f.weights_gb, 141.1, 0.1);
	/* 4-bit: 4 + 20/128 bits for the linear layers */
	assert_near(nicfit_bits_per_param(NICFIT_PREC_INT4, &p), 4.15625, 1e-9);
	assert_int_equal(nicfit_calc_fit(&l70, NICFIT_PREC_INT4, 4096, 1, 1, 48, &p, &f, NULL), 0);
	assert_true(f.fits); /* the article: one 48 GB A40 runs 70B at 4-bit */
	assert_int_equal(nicfit_calc_fit(&l70, NICFIT_PREC_FP16, 4096, 1, 2, 48, &p, &f, NULL), 0);
	assert_false(f.fits); /* ...and 16-bit does not fit two */
	assert_true(f.gpus_needed >= 3);
	/* MLA: (512 + 64) x 61 layers x 2 B */
	assert_int_equal(nicfit_calc_fit(&ds, NICFIT_PREC_FP8, 1, 1, 8, 141, &p, &f, NULL), 0);
	assert_near(f.kv_bytes_per_token, 576.0 * 61 * 2, 1e-6);
	assert_int_not_equal(nicfit_calc_fit(&l70, NICFIT_PREC_FP8, 1, 1, 0, 48, &p, &f, NULL), 0);
	l70.params = 0;
	assert_int_not_equal(nicfit_calc_fit(&l70, NICFIT_PREC_FP8, 1, 1, 1, 48, &p, &f, NULL), 0);
}

static void stream_traffic(void **state)
{
	struct nicfit_stream_params p;
	struct nicfit_stream s;

	(void)state;
	nicfit_stream_params_default(&p);
	/* 1,000 streams at 50 tokens/s: ~0.13-0.17 Gb/s (bandwidth.md 6) */
	assert_int_equal(nicfit_calc_stream(50, 1000, 10, &p, &s, NULL), 0);
	assert_true(s.total_mbps > 130 && s.total_mbps < 170);
	assert_true(s.link_share < 0.02);
	assert_int_not_equal(nicfit_calc_stream(0, 1, 10, &p, &s, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pcie_raw_rates),
		cmocka_unit_test(pcie_packet_efficiency),
		cmocka_unit_test(link_goodput),
		cmocka_unit_test(ib_rate_suggests_ethernet),
		cmocka_unit_test(ib_refusal_lists_what_works),
		cmocka_unit_test(nic_in_slot),
		cmocka_unit_test(nic_socket_direct_links),
		cmocka_unit_test(load_and_allreduce),
		cmocka_unit_test(llm_int4_rows),
		cmocka_unit_test(model_memory),
		cmocka_unit_test(stream_traffic),
	};

	return cmocka_run_group_tests_name("physics", tests, NULL, NULL);
}
