/* test_units.c - the parsers users meet first: sizes, speeds, PCIe links. */
#include "unit.h"

#include "nicfit/units.h"

static void sizes(void **state)
{
	struct nicfit_error err;
	enum nicfit_size_kind k;
	double v;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_parse_size("40GB", "x", &v, &k, &err), 0);
	assert_near(v, 40e9, 1);
	assert_int_equal(k, NICFIT_SIZE_BYTES);
	assert_int_equal(nicfit_parse_size(" 40 GiB ", "x", &v, &k, &err), 0);
	assert_near(v, 40.0 * 1073741824.0, 1);
	assert_int_equal(nicfit_parse_size("70B", "x", &v, &k, &err), 0);
	assert_near(v, 70e9, 1);
	assert_int_equal(k, NICFIT_SIZE_PARAMS);
	assert_int_equal(nicfit_parse_size("7.5m", "x", &v, &k, &err), 0);
	assert_near(v, 7.5e6, 1e-3);
	assert_int_equal(nicfit_parse_size("1.5TB", "x", &v, &k, &err), 0);
	assert_near(v, 1.5e12, 1);
}

static void bad_sizes(void **state)
{
	static const char *const bad[] = { "", "GB", "40", "40G", "-1GB", "0GB", "nanGB",
		"infGB", "0x10GB", "40GB extra", "1e30GB", "40 XB", "4..0GB", NULL };
	struct nicfit_error err;
	enum nicfit_size_kind k;
	double v;
	int i;

	(void)state;
	for (i = 0; bad[i]; i++) {
		nicfit_error_clear(&err);
		if (nicfit_parse_size(bad[i], "--size", &v, &k, &err) == 0)
			fail_msg("'%s' was accepted", bad[i]);
		assert_int_equal(err.code, NICFIT_E_USAGE);
		assert_string_equal(err.input, "--size");
		assert_non_null(strstr(err.msg, "column"));
	}
}

static void speeds(void **state)
{
	struct nicfit_error err;
	struct nicfit_speed s;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_parse_speed("10G", "x", &s, &err), 0);
	assert_near(s.gbps, 10, 1e-9);
	assert_int_equal(nicfit_parse_speed("10GbE", "x", &s, &err), 0);
	assert_int_equal(s.kind, NICFIT_SPEED_ETH);
	assert_int_equal(nicfit_parse_speed("100Gb/s", "x", &s, &err), 0);
	assert_near(s.gbps, 100, 1e-9);
	assert_int_equal(nicfit_parse_speed("25Gbps", "x", &s, &err), 0);
	assert_near(s.gbps, 25, 1e-9);
	assert_int_equal(nicfit_parse_speed("100000Mb/s", "x", &s, &err), 0);
	assert_near(s.gbps, 100, 1e-9);
	assert_int_equal(nicfit_parse_speed("EDR", "x", &s, &err), 0);
	assert_int_equal(s.kind, NICFIT_SPEED_IB);
	assert_near(s.gbps, 100, 1e-9);
	assert_int_equal(nicfit_parse_speed("hdr", "x", &s, &err), 0);
	assert_near(s.gbps, 200, 1e-9);
	assert_int_equal(nicfit_parse_speed("HDR100", "x", &s, &err), 0);
	assert_near(s.gbps, 100, 1e-9);
	assert_int_equal(s.ib_lanes, 2);
	assert_int_equal(nicfit_parse_speed("NDR", "x", &s, &err), 0);
	assert_near(s.gbps, 400, 1e-9);
	assert_int_equal(nicfit_parse_speed("FDR", "x", &s, &err), 0);
	assert_near(s.gbps, 54.545, 0.001); /* 4 x 14.0625 x 64/66, not 56 */
	assert_int_equal(nicfit_parse_speed("1x EDR", "x", &s, &err), 0);
	assert_near(s.gbps, 25, 1e-9);
	nicfit_error_clear(&err);
	assert_int_not_equal(nicfit_parse_speed("10GB/s", "x", &s, &err), 0);
	nicfit_error_clear(&err);
	assert_int_not_equal(nicfit_parse_speed("EDRR", "x", &s, &err), 0);
	nicfit_error_clear(&err);
	assert_int_not_equal(nicfit_parse_speed("10", "x", &s, &err), 0);
	nicfit_error_clear(&err);
	assert_int_not_equal(nicfit_parse_speed("3x EDR", "x", &s, &err), 0);
}

static void pcie_links(void **state)
{
	struct nicfit_error err;
	int g, w;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_parse_pcie("gen3x16", "x", &g, &w, &err), 0);
	assert_int_equal(g, 3);
	assert_int_equal(w, 16);
	assert_int_equal(nicfit_parse_pcie("Gen4 x8", "x", &g, &w, &err), 0);
	assert_int_equal(g, 4);
	assert_int_equal(w, 8);
	assert_int_equal(nicfit_parse_pcie("PCIe 5.0 x16", "x", &g, &w, &err), 0);
	assert_int_equal(g, 5);
	assert_int_equal(nicfit_parse_pcie("gen3", "x", &g, &w, &err), 0);
	assert_int_equal(w, 0);
	nicfit_error_clear(&err);
	assert_int_not_equal(nicfit_parse_pcie("gen7x16", "x", &g, &w, &err), 0);
	nicfit_error_clear(&err);
	assert_int_not_equal(nicfit_parse_pcie("gen3x3", "x", &g, &w, &err), 0);
	nicfit_error_clear(&err);
	assert_int_not_equal(nicfit_parse_pcie("gen3.5x16", "x", &g, &w, &err), 0);
}

static void numbers(void **state)
{
	struct nicfit_error err;
	long l;
	double d;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_parse_long("42", "x", 0, 100, &l, &err), 0);
	assert_int_equal(l, 42);
	assert_int_not_equal(nicfit_parse_long("4.2", "x", 0, 100, &l, &err), 0);
	nicfit_error_clear(&err);
	assert_int_not_equal(nicfit_parse_long("999999999999999999999999", "x", 0, 100, &l, &err), 0);
	nicfit_error_clear(&err);
	assert_int_not_equal(nicfit_parse_long("-5", "x", 0, 100, &l, &err), 0);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_parse_double("0.9", "x", 0, 1, &d, &err), 0);
	assert_near(d, 0.9, 1e-12);
	assert_int_not_equal(nicfit_parse_double("nan", "x", 0, 1, &d, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes),
		cmocka_unit_test(bad_sizes),
		cmocka_unit_test(speeds),
		cmocka_unit_test(pcie_links),
		cmocka_unit_test(numbers),
	};

	return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
