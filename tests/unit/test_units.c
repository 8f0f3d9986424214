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

/* Every unit form of docs/units.md: `b` a bit, `B` a byte, the words in any case. */
static void size_forms(void **state)
{
	static const struct { const char *text; double value; enum nicfit_size_kind kind; } ok[] = {
		{ "40GB", 40e9, NICFIT_SIZE_BYTES },
		{ "40 GB", 40e9, NICFIT_SIZE_BYTES },
		{ "40Gb", 5e9, NICFIT_SIZE_BYTES },
		{ "40Gbit", 5e9, NICFIT_SIZE_BYTES },
		{ "40gbit", 5e9, NICFIT_SIZE_BYTES },
		{ "40GBit", 5e9, NICFIT_SIZE_BYTES },
		{ "40Gbits", 5e9, NICFIT_SIZE_BYTES },
		{ "40GByte", 40e9, NICFIT_SIZE_BYTES },
		{ "40gbytes", 40e9, NICFIT_SIZE_BYTES },
		{ "40GiB", 40.0 * 1073741824.0, NICFIT_SIZE_BYTES },
		{ "40Gib", 5.0 * 1073741824.0, NICFIT_SIZE_BYTES },
		{ "40Gibit", 5.0 * 1073741824.0, NICFIT_SIZE_BYTES },
		{ "1kB", 1e3, NICFIT_SIZE_BYTES },
		{ "1KB", 1e3, NICFIT_SIZE_BYTES },
		{ "8kb", 1e3, NICFIT_SIZE_BYTES },
		{ "8Kb", 1e3, NICFIT_SIZE_BYTES },
		{ "1KiB", 1024, NICFIT_SIZE_BYTES },
		{ "1MB", 1e6, NICFIT_SIZE_BYTES },
		{ "8Mb", 1e6, NICFIT_SIZE_BYTES },
		{ "1MiB", 1048576, NICFIT_SIZE_BYTES },
		{ "1.5TB", 1.5e12, NICFIT_SIZE_BYTES },
		{ "8Tb", 1e12, NICFIT_SIZE_BYTES },
		{ "1TiB", 1099511627776.0, NICFIT_SIZE_BYTES },
		{ "1PB", 1e15, NICFIT_SIZE_BYTES },
		{ "1PiB", 1125899906842624.0, NICFIT_SIZE_BYTES },
		{ "40 bytes", 40, NICFIT_SIZE_BYTES },
		{ "64bit", 8, NICFIT_SIZE_BYTES },
		{ "70B", 70e9, NICFIT_SIZE_PARAMS },
		{ "8K", 8e3, NICFIT_SIZE_PARAMS },
		{ "8k", 8e3, NICFIT_SIZE_PARAMS },
		{ "7.5M", 7.5e6, NICFIT_SIZE_PARAMS },
		{ "7.5m", 7.5e6, NICFIT_SIZE_PARAMS },
		{ "1T", 1e12, NICFIT_SIZE_PARAMS },
	};
	/* refused, and the message names what to write instead */
	static const struct { const char *text; const char *says; } no[] = {
		{ "40gb", "40GB (gigabytes) or 40Gb (gigabits)" },
		{ "40mb", "40MB (megabytes) or 40Mb (megabits)" },
		{ "40tb", "40TB (terabytes) or 40Tb (terabits)" },
		{ "40gib", "40GiB (gibibytes) or 40Gib (gibibits)" },
		{ "70b", "B (billions of parameters, 70B) or bit" },
		{ "40G", "GB (gigabytes), Gb (gigabits) or B (billions of parameters)" },
		{ "40g", "GB (gigabytes), Gb (gigabits) or B (billions of parameters)" },
		{ "40GiG", "unknown unit" },
		{ "40GB/s", "a rate, not a size" },
		{ "40Gbps", "a rate, not a size" },
		{ "40GbE", "a rate, not a size" },
		{ "40XB", "unknown unit" },
		{ "40Gi", "unknown unit" },
	};
	struct nicfit_error err;
	enum nicfit_size_kind k;
	double v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		nicfit_error_clear(&err);
		if (nicfit_parse_size(ok[i].text, "--size", &v, &k, &err))
			fail_msg("'%s' refused: %s", ok[i].text, err.msg);
		if (fabs(v - ok[i].value) > ok[i].value * 1e-12 || k != ok[i].kind)
			fail_msg("'%s' read as %g (kind %d), not %g (kind %d)", ok[i].text, v, (int)k,
				 ok[i].value, (int)ok[i].kind);
	}
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		nicfit_error_clear(&err);
		if (!nicfit_parse_size(no[i].text, "--size", &v, &k, &err))
			fail_msg("'%s' accepted as %g", no[i].text, v);
		assert_int_equal(err.code, NICFIT_E_USAGE);
		if (!strstr(err.msg, no[i].says))
			fail_msg("'%s': message \"%s\" does not say \"%s\"", no[i].text, err.msg, no[i].says);
	}
}

static void speed_forms(void **state)
{
	static const struct { const char *text; double gbps; enum nicfit_speed_kind kind; } ok[] = {
		{ "10G", 10, NICFIT_SPEED_ANY },
		{ "10g", 10, NICFIT_SPEED_ANY },
		{ "10Gb", 10, NICFIT_SPEED_ANY },
		{ "10Gb/s", 10, NICFIT_SPEED_ANY },
		{ "10Gbps", 10, NICFIT_SPEED_ANY },
		{ "10GbPS", 10, NICFIT_SPEED_ANY },
		{ "10Gbit", 10, NICFIT_SPEED_ANY },
		{ "10Gbit/s", 10, NICFIT_SPEED_ANY },
		{ "10gbit/s", 10, NICFIT_SPEED_ANY },
		{ "10Gbits/s", 10, NICFIT_SPEED_ANY },
		{ "10 Gbit/s", 10, NICFIT_SPEED_ANY },
		{ "10GbE", 10, NICFIT_SPEED_ETH },
		{ "10gbe", 10, NICFIT_SPEED_ETH },
		{ "10GBE", 10, NICFIT_SPEED_ETH },
		{ "10GigE", 10, NICFIT_SPEED_ETH },
		{ "100M", 0.1, NICFIT_SPEED_ANY },
		{ "100Mb/s", 0.1, NICFIT_SPEED_ANY },
		{ "100Mbps", 0.1, NICFIT_SPEED_ANY },
		{ "100mbit", 0.1, NICFIT_SPEED_ANY },
		{ "1.6T", 1600, NICFIT_SPEED_ANY },
		{ "1.6Tb/s", 1600, NICFIT_SPEED_ANY },
		{ "1.6TbE", 1600, NICFIT_SPEED_ETH },
		{ "10Gibit/s", 10.73741824, NICFIT_SPEED_ANY },
	};
	static const struct { const char *text; const char *says; } no[] = {
		{ "25GB", "GB is bytes (a size); a network speed is in bits per second: "
			  "write 25G or 25Gb/s for 25 Gb/s, 200G for 25 GB/s" },
		{ "25GB/s", "GB/s is bytes per second" },
		{ "25GBps", "GBps is bytes per second" },
		{ "25GByte/s", "200G for 25 GB/s" },
		{ "25GiB/s", "214.748G for 25 GiB/s" },
		{ "25gbps", "25GB/s (gigabytes per second) or 25Gb/s (gigabits per second)" },
		{ "25gb/s", "25GB/s (gigabytes per second) or 25Gb/s (gigabits per second)" },
		{ "25GBPS", "25GB/s (gigabytes per second) or 25Gb/s (gigabits per second)" },
		{ "25gb", "25GB (gigabytes) or 25Gb (gigabits)" },
		{ "25mbps", "25MB/s (megabytes per second) or 25Mb/s (megabits per second)" },
		{ "25K", "unknown unit" },
		{ "25Gi", "unknown unit" },
		{ "25kb", "out of range" },
	};
	struct nicfit_error err;
	struct nicfit_speed sp;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		nicfit_error_clear(&err);
		if (nicfit_parse_speed(ok[i].text, "--speed", &sp, &err))
			fail_msg("'%s' refused: %s", ok[i].text, err.msg);
		if (fabs(sp.gbps - ok[i].gbps) > 1e-9 || sp.kind != ok[i].kind)
			fail_msg("'%s' read as %g Gb/s (kind %d), not %g (kind %d)", ok[i].text,
				 sp.gbps, (int)sp.kind, ok[i].gbps, (int)ok[i].kind);
	}
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		nicfit_error_clear(&err);
		if (!nicfit_parse_speed(no[i].text, "--speed", &sp, &err))
			fail_msg("'%s' accepted as %g Gb/s", no[i].text, sp.gbps);
		assert_int_equal(err.code, NICFIT_E_USAGE);
		assert_string_equal(err.input, "--speed");
		if (!strstr(err.msg, no[i].says))
			fail_msg("'%s': message \"%s\" does not say \"%s\"", no[i].text, err.msg, no[i].says);
	}
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
		cmocka_unit_test(size_forms),
		cmocka_unit_test(speed_forms),
		cmocka_unit_test(pcie_links),
		cmocka_unit_test(numbers),
	};

	return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
