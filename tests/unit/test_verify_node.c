/*
 * test_verify_node.c - a single-node all-reduce judged against its GPUs'
 * NVLink from the catalog (nvlink_gbs / 2 a ring's busbw over NVSwitch,
 * x 2(n-1)/n with NVLS), never against a network link; a GPU without
 * NVLink or not in the catalog is not judged, and says why.
 */
#include "unit.h"

#include "nicfit/file.h"
#include "nicfit/finding.h"
#include "nicfit/units.h"
#include "nicfit/verify.h"

static struct nicfit_verify *run(const char *gpu, double busbw, const char *link)
{
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_verify_expect x;
	struct nicfit_error err;
	char text[4096];
	size_t n = 0;
	int r;

	assert_non_null(v);
	for (r = 0; r < 8; r++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "#  Rank %2d Group  0 Pid %d on "
				      "node1 device  %d [0x%02x] %s\n", r, 100 + r, r, 16 + r, gpu);
	snprintf(text + n, sizeof(text) - n,
		 "#       size         count      type   redop    root     time   algbw   busbw "
		 "#wrong     time   algbw   busbw #wrong\n"
		 "  8589934592    2147483648     float     sum      -1  42946.2  %.2f  %.2f     0"
		 "  42902.8  %.2f  %.2f      0\n"
		 "# Avg bus bandwidth    : %.2f \n", busbw / 1.75, busbw, busbw / 1.75, busbw, busbw);
	nicfit_error_clear(&err);
	if (nicfit_verify_add_text(v, "t", text, strlen(text), &err))
		fail_msg("%s", err.msg);
	nicfit_verify_expect_init(&x);
	if (link)
		assert_int_equal(nicfit_parse_speed(link, "t", &x.link, NULL), 0);
	if (nicfit_verify_judge(v, &x, &err))
		fail_msg("%s", err.msg);
	return v;
}

static int has(const struct nicfit_verify *v, const char *code)
{
	size_t i;

	for (i = 0; i < v->findings.n; i++)
		if (!strcmp(v->findings.v[i].code, code))
			return 1;
	return 0;
}

static void h100_nvswitch(void **state)
{
	struct nicfit_verify *v;

	(void)state;
	/* 375 of 450 GB/s: a healthy ring */
	v = run("NVIDIA H100 80GB HBM3", 375.41, NULL);
	assert_int_equal(v->docs[0].verdict, NICFIT_VERDICT_OK);
	assert_true(v->docs[0].expected_gbps > 3599 && v->docs[0].expected_gbps < 3601);
	nicfit_verify_free(v);
	/* above the ring's 450: NVLS, said so */
	v = run("NVIDIA H100 80GB HBM3", 480.0, NULL);
	assert_int_equal(v->docs[0].verdict, NICFIT_VERDICT_OK);
	assert_true(has(v, "verify-above-ring"));
	nicfit_verify_free(v);
	/* under half: the traffic is not on NVLink */
	v = run("NVIDIA H100 80GB HBM3", 21.0, NULL);
	assert_int_equal(v->docs[0].verdict, NICFIT_VERDICT_FAR_BELOW);
	assert_true(has(v, "verify-nvlink-far-below"));
	nicfit_verify_free(v);
	/* above even NVLS's 787.5: cannot be */
	v = run("NVIDIA H100 80GB HBM3", 900.0, NULL);
	assert_int_equal(v->docs[0].verdict, NICFIT_VERDICT_ABOVE_LINE);
	nicfit_verify_free(v);
}

static void never_a_network_link(void **state)
{
	struct nicfit_verify *v;

	(void)state;
	/* --link 100G: a single node is still judged against NVLink, not 100 Gb/s */
	v = run("NVIDIA H100 80GB HBM3", 375.41, "100G");
	assert_int_equal(v->docs[0].verdict, NICFIT_VERDICT_OK);
	assert_true(v->docs[0].expected_gbps > 3599);
	nicfit_verify_free(v);
	/* no NVLink or not in the catalog: not judged, and why */
	v = run("NVIDIA GeForce RTX 4090", 20.0, "100G");
	assert_int_equal(v->docs[0].verdict, NICFIT_VERDICT_NONE);
	assert_true(has(v, "verify-single-node"));
	assert_false(has(v, "verify-no-expectation"));
	nicfit_verify_free(v);
	/* Infinity Fabric is point to point, no switch: no one link bounds a ring */
	v = run("AMD Instinct MI300X", 300.0, NULL);
	assert_int_equal(v->docs[0].verdict, NICFIT_VERDICT_NONE);
	assert_true(has(v, "verify-single-node"));
	nicfit_verify_free(v);
	v = run("NVIDIA L40S", 20.0, NULL);
	assert_int_equal(v->docs[0].verdict, NICFIT_VERDICT_NONE);
	assert_true(has(v, "verify-single-node"));
	nicfit_verify_free(v);
}

/* One rank (nccl-tests#287): said in the singular, and still not judged. */
static void one_rank(void **state)
{
	static const char text[] =
		"#  Rank  0 Group  0 Pid 2181762 on   GENOA-01 device  0 [0x01] NVIDIA GeForce RTX 5090\n"
		"#       size         count      type   redop    root     time   algbw   busbw "
		"#wrong     time   algbw   busbw #wrong\n"
		"    33554432       8388608     float    none      -1    19.56  1715.44    0.00      0"
		"     0.78  43046.10    0.00    N/A\n";
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_verify_expect x;
	struct nicfit_error err;
	size_t i;
	int seen = 0;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_verify_add_text(v, "t", text, strlen(text), &err), 0);
	nicfit_verify_expect_init(&x);
	assert_int_equal(nicfit_verify_judge(v, &x, &err), 0);
	assert_int_equal(v->docs[0].verdict, NICFIT_VERDICT_NONE);
	for (i = 0; i < v->findings.n; i++)
		if (!strcmp(v->findings.v[i].code, "verify-single-node")) {
			seen = 1;
			assert_non_null(strstr(v->findings.v[i].message, ": 1 rank on one node"));
		}
	assert_true(seen);
	nicfit_verify_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(h100_nvswitch),
		cmocka_unit_test(never_a_network_link),
		cmocka_unit_test(one_rank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
