/*
 * test_vpd.c - PCI VPD: the MCX4121A-ACAT image rebuilt in
 * docs/reference/nic-identity.md 4.5 (lspci decodes it to the real card's text),
 * the checksum rule, and damaged images.
 */
#include "unit.h"

#include "host/vpd_int.h"

static const uint8_t cx4lx[] = {
	0x82, 0x1d, 0x00, 0x43, 0x58, 0x34, 0x31, 0x32, 0x31, 0x41, 0x20, 0x2d, 0x20, 0x43, 0x6f, 0x6e,
	0x6e, 0x65, 0x63, 0x74, 0x58, 0x2d, 0x34, 0x20, 0x4c, 0x58, 0x20, 0x53, 0x46, 0x50, 0x32, 0x38,
	0x90, 0x52, 0x00, 0x50, 0x4e, 0x15, 0x4d, 0x43, 0x58, 0x34, 0x31, 0x32, 0x31, 0x41, 0x2d, 0x41,
	0x43, 0x41, 0x54, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x45, 0x43, 0x02, 0x41, 0x46,
	0x53, 0x4e, 0x18, 0x4d, 0x54, 0x31, 0x38, 0x34, 0x34, 0x4b, 0x31, 0x39, 0x36, 0x33, 0x36, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x56, 0x30, 0x13, 0x50, 0x43,
	0x49, 0x65, 0x47, 0x65, 0x6e, 0x33, 0x20, 0x78, 0x38, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x52, 0x56, 0x01, 0x1a, 0x78,
};

static void real_image(void **state)
{
	struct nicfit_vpd v;
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(sizeof(cx4lx), 118);
	assert_int_equal(nicfit__vpd_parse(cx4lx, sizeof(cx4lx), &v, &err), 0);
	assert_string_equal(v.name, "CX4121A - ConnectX-4 LX SFP28");
	assert_string_equal(nicfit__vpd_get(&v, "PN"), "MCX4121A-ACAT");
	assert_string_equal(nicfit__vpd_get(&v, "EC"), "AF");
	assert_string_equal(nicfit__vpd_get(&v, "SN"), "MT1844K19636");
	assert_string_equal(nicfit__vpd_get(&v, "V0"), "PCIeGen3 x8");
	assert_null(nicfit__vpd_get(&v, "V2"));
	assert_int_equal(v.checksum, NICFIT_VPD_CSUM_GOOD);
	assert_int_equal(v.rv_reserved, 0);
	assert_int_equal(v.nkw, 5);
	assert_true(v.end);
	assert_int_equal(v.size, 118);
}

static void bad_checksum(void **state)
{
	uint8_t b[sizeof(cx4lx)];
	struct nicfit_vpd v;

	(void)state;
	memcpy(b, cx4lx, sizeof(b));
	b[5] ^= 1; /* one byte of the product name */
	assert_int_equal(nicfit__vpd_parse(b, sizeof(b), &v, NULL), 0);
	assert_int_equal(v.checksum, NICFIT_VPD_CSUM_BAD);
}

static void damaged(void **state)
{
	static const uint8_t ff[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t zero[8] = { 0 };
	struct nicfit_vpd v;
	struct nicfit_error err;
	size_t cut;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__vpd_parse(ff, sizeof(ff), &v, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "VPD offset 0"));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__vpd_parse(zero, sizeof(zero), &v, &err), NICFIT_E_DATA);
	assert_int_equal(nicfit__vpd_parse(cx4lx, 0, &v, NULL), NICFIT_E_DATA);
	/* every truncation fails cleanly, keeping what came before */
	for (cut = 1; cut < sizeof(cx4lx); cut++) {
		nicfit_error_clear(&err);
		assert_int_equal(nicfit__vpd_parse(cx4lx, cut, &v, &err), NICFIT_E_DATA);
		assert_true(err.msg[0] != '\0');
	}
	assert_int_equal(nicfit__vpd_parse(cx4lx, sizeof(cx4lx) - 1, &v, NULL), NICFIT_E_DATA);
	assert_string_equal(nicfit__vpd_get(&v, "PN"), "MCX4121A-ACAT");
}

static void rw_section_and_binary(void **state)
{
	/* ID "X", RO {PN "A", RV}, RW {YA "tag", RW 3 free}, end */
	uint8_t b[] = {
		0x82, 0x01, 0x00, 'X',
		0x90, 0x08, 0x00, 'P', 'N', 0x01, 'A', 'R', 'V', 0x01, 0x00,
		0x91, 0x0c, 0x00, 'Y', 'A', 0x03, 't', 'a', 'g', 'R', 'W', 0x03, 0x00, 0x01, 0x02,
		0x78,
	};
	struct nicfit_vpd v;
	unsigned sum = 0;
	int i;

	(void)state;
	for (i = 0; i < 14; i++)
		sum += b[i];
	b[14] = (uint8_t)(256 - (sum & 0xff));
	assert_int_equal(nicfit__vpd_parse(b, sizeof(b), &v, NULL), 0);
	assert_int_equal(v.checksum, NICFIT_VPD_CSUM_GOOD);
	assert_string_equal(nicfit__vpd_get(&v, "YA"), "tag");
	assert_null(nicfit__vpd_get(&v, "RW")); /* binary filler */
	assert_int_equal(v.kw[2].rw, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_image),
		cmocka_unit_test(bad_checksum),
		cmocka_unit_test(damaged),
		cmocka_unit_test(rw_section_and_binary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
