/*
 * test_integer.c - the one integer core (nicfit_scan_dec) and its two
 * conventions: nicfit_parse_dec for what the kernel writes, and
 * nicfit_parse_long for what users type, with its messages.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"

#include "nicfit/units.h"

static void core(void **state)
{
	static const char *const none[] = { "", "-", "+", "+5", " 5", "x", "-x", ".5", "--1" };
	const char *end;
	char buf[32];
	size_t i;
	long v;

	(void)state;
	snprintf(buf, sizeof(buf), "%ld", LONG_MAX);
	assert_int_equal(nicfit_scan_dec(buf, LONG_MIN, LONG_MAX, &v, &end), NICFIT_DEC_OK);
	assert_true(v == LONG_MAX);
	assert_true(*end == '\0');
	snprintf(buf, sizeof(buf), "%ld", LONG_MIN);
	assert_int_equal(nicfit_scan_dec(buf, LONG_MIN, LONG_MAX, &v, &end), NICFIT_DEC_OK);
	assert_true(v == LONG_MIN);
	/* one past either end of a long */
	snprintf(buf, sizeof(buf), "%lu", (unsigned long)LONG_MAX + 1);
	assert_int_equal(nicfit_scan_dec(buf, LONG_MIN, LONG_MAX, &v, &end), NICFIT_DEC_RANGE);
	assert_true(v == 0 && *end == '\0');
	snprintf(buf, sizeof(buf), "-%lu", (unsigned long)LONG_MAX + 2);
	assert_int_equal(nicfit_scan_dec(buf, LONG_MIN, LONG_MAX, &v, &end), NICFIT_DEC_RANGE);
	assert_int_equal(nicfit_scan_dec("99999999999999999999999", 0, 10, &v, &end),
			 NICFIT_DEC_RANGE);
	/* leading zeros are digits like any other, not an overflow */
	assert_int_equal(nicfit_scan_dec("000000000000000000000042", 0, 100, &v, &end),
			 NICFIT_DEC_OK);
	assert_int_equal(v, 42);
	/* the range is inclusive */
	assert_int_equal(nicfit_scan_dec("-1", -1, 10, &v, &end), NICFIT_DEC_OK);
	assert_int_equal(nicfit_scan_dec("10", -1, 10, &v, &end), NICFIT_DEC_OK);
	assert_int_equal(nicfit_scan_dec("11", -1, 10, &v, &end), NICFIT_DEC_RANGE);
	assert_int_equal(nicfit_scan_dec("-2", -1, 10, &v, &end), NICFIT_DEC_RANGE);
	/* no digits: end stays at the start */
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		assert_int_equal(nicfit_scan_dec(none[i], -100, 100, &v, &end), NICFIT_DEC_NONE);
		assert_true(end == none[i]);
	}
	/* the digits end where anything else starts */
	assert_int_equal(nicfit_scan_dec("12x", 0, 100, &v, &end), NICFIT_DEC_OK);
	assert_int_equal(v, 12);
	assert_string_equal(end, "x");
	assert_int_equal(nicfit_scan_dec("7 ", 0, 100, &v, &end), NICFIT_DEC_OK);
	assert_string_equal(end, " ");
}

static void quiet(void **state)
{
	static const char *const bad[] = { "", "-", "+1", " 1", "1 ", "1\n", "0x10", "1.0",
					   "1e3", "11" };
	size_t i;
	long v;

	(void)state;
	assert_int_equal(nicfit_parse_dec("-1", -1, 10, &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(nicfit_parse_dec("0", 0, 0, &v), 0);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 7;
		assert_int_equal(nicfit_parse_dec(bad[i], -5, 10, &v), -1);
		assert_int_equal(v, 0);
	}
}

/* nicfit_parse_long(s) fails with message msg (the error's text). */
static void refused(const char *s, long min, long max, const char *msg)
{
	struct nicfit_error err;
	long v = 99;

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_parse_long(s, "--n", min, max, &v, &err), NICFIT_E_USAGE);
	assert_int_equal(v, 99);
	if (strcmp(err.msg, msg)) {
		fprintf(stderr, "'%s': got \"%s\", want \"%s\"\n", s, err.msg, msg);
		fail();
	}
}

static void typed(void **state)
{
	struct nicfit_error err;
	char buf[32], want[96];
	long v;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_parse_long(" 42 ", "--n", 0, 100, &v, &err), 0);
	assert_int_equal(v, 42);
	assert_int_equal(nicfit_parse_long("+8", "--n", 0, 100, &v, &err), 0);
	assert_int_equal(v, 8);
	assert_int_equal(nicfit_parse_long("\t-3", "--n", -5, 5, &v, &err), 0);
	assert_int_equal(v, -3);
	snprintf(buf, sizeof(buf), "%ld", LONG_MIN);
	assert_int_equal(nicfit_parse_long(buf, "--n", LONG_MIN, LONG_MAX, &v, &err), 0);
	assert_true(v == LONG_MIN);
	snprintf(buf, sizeof(buf), "%ld", LONG_MAX);
	assert_int_equal(nicfit_parse_long(buf, "--n", LONG_MIN, LONG_MAX, &v, &err), 0);
	assert_true(v == LONG_MAX);

	refused("", 0, 10, "'': expected an integer (at column 1)");
	refused("   ", 0, 10, "'   ': expected an integer (at column 4)");
	refused("-", 0, 10, "'-': expected an integer (at column 1)");
	refused("+", 0, 10, "'+': expected an integer (at column 1)");
	refused(" +-5", -10, 10, "' +-5': expected an integer (at column 2)");
	refused("two", 0, 10, "'two': expected an integer (at column 1)");
	refused("4 2", 0, 10, "'4 2': unexpected text after the number (at column 3)");
	refused("12abc", 0, 100, "'12abc': unexpected text after the number (at column 3)");
	refused("2.5", 0, 10, "'2.5': expected a whole number (at column 1)");
	refused("-.5", -10, 10, "'-.5': expected a whole number (at column 1)");
	refused("2.0", 0, 10, "'2.0': expected a whole number (at column 1)");
	refused("1e3", 0, 10000, "'1e3': expected a whole number (at column 1)");
	refused("2.5x", 0, 10, "'2.5x': unexpected text after the number (at column 4)");
	refused("11", 0, 10, "'11': out of range (0 to 10)");
	refused("-5", 0, 10, "'-5': out of range (0 to 10)");
	refused("99999999999999999999", 1, 100000,
		"'99999999999999999999': out of range (1 to 100000)");
	snprintf(buf, sizeof(buf), "%lu", (unsigned long)LONG_MAX + 1);
	snprintf(want, sizeof(want), "'%s': out of range (%ld to %ld)", buf, LONG_MIN, LONG_MAX);
	refused(buf, LONG_MIN, LONG_MAX, want);
	snprintf(buf, sizeof(buf), "-%lu", (unsigned long)LONG_MAX + 2);
	snprintf(want, sizeof(want), "'%s': out of range (%ld to %ld)", buf, LONG_MIN, LONG_MAX);
	refused(buf, LONG_MIN, LONG_MAX, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(core),
		cmocka_unit_test(quiet),
		cmocka_unit_test(typed),
	};

	return cmocka_run_group_tests_name("integer", tests, NULL, NULL);
}
