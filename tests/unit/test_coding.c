/*
 * test_coding.c - the module-coding rule (core/coding_int.h) as a table:
 * every coding the catalog knows at every kind of end the cable choices
 * ask about (plan's NIC ends: Intel 700-series, NVIDIA back to back, no
 * known vendor; cluster's switch ends: NVIDIA, Arista, Dell, generic), and
 * the orderings the two choices rely on.
 */
#include "unit.h"

#include "core/coding_int.h"

struct row {
	const char *have, *want;
	int score;
};

static const struct row rows[] = {
	/* an Intel 700-series port: only Intel's coding links (i40e, nic-identity.md 2.3) */
	{ "intel", "intel", NICFIT_CODING_OWN },
	{ "intel/nvidia", "intel", NICFIT_CODING_GENERIC },
	{ "generic", "intel", NICFIT_CODING_REFUSED },
	{ NULL, "intel", NICFIT_CODING_REFUSED },
	{ "nvidia", "intel", NICFIT_CODING_REFUSED },
	{ "INTEL", "Intel", NICFIT_CODING_OWN },
	/* NVIDIA's ports: NICs back to back (plan) and Spectrum/Quantum switches (cluster) */
	{ "nvidia", "nvidia", NICFIT_CODING_OWN },
	{ "nvidia", "NVIDIA", NICFIT_CODING_OWN },
	{ "generic", "nvidia", NICFIT_CODING_GENERIC },
	{ NULL, "nvidia", NICFIT_CODING_GENERIC },
	{ "intel", "nvidia", NICFIT_CODING_NVIDIA },
	{ "intel/nvidia", "nvidia", NICFIT_CODING_NVIDIA },
	/* another vendor's switch: its own, generic, another's, NVIDIA's last */
	{ "generic", "arista", NICFIT_CODING_GENERIC },
	{ "generic", "Dell", NICFIT_CODING_GENERIC },
	{ "intel", "dell", NICFIT_CODING_OTHER },
	{ "nvidia", "dell", NICFIT_CODING_NVIDIA },
	{ "nvidia", "Arista", NICFIT_CODING_NVIDIA },
	{ "intel/nvidia", "arista", NICFIT_CODING_NVIDIA },
	{ "arista", "Arista", NICFIT_CODING_OWN },
	/* an end of no known vendor: generic or NVIDIA's, then Intel's */
	{ "generic", NULL, NICFIT_CODING_OWN },
	{ NULL, NULL, NICFIT_CODING_OWN },
	{ "nvidia", NULL, NICFIT_CODING_OWN },
	{ "intel", NULL, NICFIT_CODING_GENERIC },
	{ "intel/nvidia", NULL, NICFIT_CODING_GENERIC },
};

static void table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int got = nicfit__coding_score(rows[i].have, rows[i].want);

		if (got != rows[i].score)
			fail_msg("have %s at %s: %d, expected %d",
				 rows[i].have ? rows[i].have : "NULL",
				 rows[i].want ? rows[i].want : "NULL", got, rows[i].score);
	}
}

/*
 * The orderings the choices depend on: plan takes the lowest score at one
 * end; cluster sums the scores of a cable's switch ends, so a generic module
 * at both ends of an Arista link (1 + 1) must rank above an NVIDIA-coded one
 * at both (3 + 3), and a generic pair of optics above a mixed pair.
 */
static void orderings(void **state)
{
	static const char *const vendors[] = { "nvidia", "arista", "dell", "edgecore", NULL };
	size_t i;

	(void)state;
	/* at every switch the vendor's own coding wins, and generic beats NVIDIA's elsewhere */
	for (i = 0; vendors[i]; i++) {
		assert_int_equal(nicfit__coding_score(vendors[i], vendors[i]), NICFIT_CODING_OWN);
		assert_true(nicfit__coding_score("generic", vendors[i]) <
			    nicfit__coding_score("intel", vendors[i]));
		if (strcmp(vendors[i], "nvidia"))
			assert_true(nicfit__coding_score("generic", vendors[i]) +
				    nicfit__coding_score("generic", vendors[i]) <
				    nicfit__coding_score("nvidia", vendors[i]));
	}
	/* an Intel port: a mixed cable fits before any module coded for another vendor */
	assert_true(nicfit__coding_score("intel/nvidia", "intel") <
		    nicfit__coding_score("generic", "intel"));
	/* no known vendor: Intel's coding, meant for Intel ports, after the rest */
	assert_true(nicfit__coding_score("nvidia", NULL) < nicfit__coding_score("intel", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(orderings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
