/*
 * test_accept.c - the acceptance runbook: its stages and pairs for a plan,
 * its bands against the link formula and verify's own ceiling, the result
 * sets of tests/fixtures/accept judged (one passes, one names node03 and
 * rail 1), names that cannot go in a command line refused, and the
 * script's comment kept to printable ASCII.
 */
#include "unit.h"

#include <unistd.h>

#include "nicfit/accept.h"
#include "nicfit/catalog.h"
#include "nicfit/file.h"
#include "nicfit/emit.h"
#include "nicfit/link.h"
#include "nicfit/plan.h"
#include "nicfit/spec.h"
#include "nicfit/verify.h"

static struct nicfit_catalog *cat;

static int setup(void **state)
{
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	return nicfit_catalog_new(&cat, &err);
}

static int teardown(void **state)
{
	(void)state;
	nicfit_catalog_free(cat);
	return 0;
}

/* The runbook of plan's training example with up to two more keys; --read when want_read. */
static int want_read;

static struct nicfit_accept *training(const char *k1, const char *v1, const char *k2,
				      const char *v2)
{
	struct nicfit_accept_system sys;
	struct nicfit_accept *a = NULL;
	struct nicfit_spec spec;
	struct nicfit_error err;

	nicfit_error_clear(&err);
	nicfit_spec_init(&spec, "test");
	assert_int_equal(nicfit_spec_add(&spec, "example", "training", &err), 0);
	if (k1)
		assert_int_equal(nicfit_spec_add(&spec, k1, v1, &err), 0);
	if (k2)
		assert_int_equal(nicfit_spec_add(&spec, k2, v2, &err), 0);
	assert_int_equal(nicfit_accept_system_from_plan(cat, &spec, &sys, &err), 0);
	assert_int_equal(nicfit_accept_default_hosts(&sys, &err), 0);
	sys.read = want_read;
	assert_int_equal(nicfit_accept_new(&sys, &a, &err), 0);
	free(sys.hosts);
	nicfit_spec_release(&spec);
	return a;
}

static const struct nicfit_accept_stage *stage_of(const struct nicfit_accept *a,
						   enum nicfit_accept_kind k)
{
	size_t i;

	for (i = 0; i < a->nstages; i++)
		if (a->stages[i].kind == k)
			return &a->stages[i];
	return NULL;
}

/* The article's two servers: one rail, no NVLink switch, the front end; read only asked. */
static void training_stages(void **state)
{
	struct nicfit_accept *a = training(NULL, NULL, NULL, NULL);
	const struct nicfit_accept_stage *w;

	(void)state;
	assert_int_equal(a->sys.nodes, 2);
	assert_int_equal(a->sys.rails, 1);
	assert_string_equal(a->sys.hca[0], "mlx5_0");
	assert_null(stage_of(a, NICFIT_ACCEPT_NVLINK));
	assert_null(stage_of(a, NICFIT_ACCEPT_RAIL_READ));
	w = stage_of(a, NICFIT_ACCEPT_RAIL_WRITE);
	assert_non_null(w);
	assert_int_equal(w->nsteps, 1);
	assert_string_equal(a->steps[w->first].name, "rail-write-node01-node02-r0");
	assert_non_null(strstr(a->steps[w->first].command, "--use_cuda=0 node01"));
	assert_non_null(stage_of(a, NICFIT_ACCEPT_ALLREDUCE));
	assert_non_null(stage_of(a, NICFIT_ACCEPT_FRONTEND));
	nicfit_accept_free(a);
	want_read = 1;
	a = training(NULL, NULL, NULL, NULL);
	want_read = 0;
	assert_non_null(stage_of(a, NICFIT_ACCEPT_RAIL_READ));
	assert_string_equal(a->steps[stage_of(a, NICFIT_ACCEPT_RAIL_READ)->first].name,
			    "rail-read-node01-node02-r0");
	nicfit_accept_free(a);
}

/* Bands: the link formula's goodput, typical and broken at verify's thresholds. */
static void bands_follow_the_formula(void **state)
{
	struct nicfit_accept *a = training("backend_cards", "2", NULL, NULL);
	const struct nicfit_accept_stage *w = stage_of(a, NICFIT_ACCEPT_RAIL_WRITE);
	const struct nicfit_accept_stage *r = stage_of(a, NICFIT_ACCEPT_ALLREDUCE);
	struct nicfit_link_params lp;
	struct nicfit_link_result lr;
	struct nicfit_speed sp;

	(void)state;
	assert_int_equal(nicfit_parse_speed("100GbE", "t", &sp, NULL), 0);
	nicfit_link_params_default(&lp);
	assert_int_equal(nicfit_link_calc(&sp, NICFIT_PROTO_ROCE, &lp, &lr, NULL), 0);
	assert_near(w->band.ceiling_gbps, lr.goodput_gbps, 1e-9);
	assert_near(w->band.typical_gbps, NICFIT_VERIFY_LOW_RATIO * lr.goodput_gbps, 1e-9);
	assert_near(w->band.broken_gbps, NICFIT_VERIFY_FAR_RATIO * lr.goodput_gbps, 1e-9);
	assert_near(r->band.ceiling_gbps, 2 * lr.goodput_gbps, 1e-9);
	assert_int_equal(r->band.busbw, 1);
	nicfit_accept_free(a);
}

/* Two nodes one pair; up to eight all pairs; more a ring, then a bisection round. */
static void pair_patterns(void **state)
{
	static const struct {
		const char *servers;
		size_t pairs;
		const char *pattern;
	} c[] = { { "2", 1, "one pair" }, { "5", 10, "all pairs" }, { "8", 28, "all pairs" },
		  { "9", 9 + 5, "ring, then bisection" }, { "32", 32 + 16, "ring, then bisection" } };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct nicfit_accept *a = training("servers", c[i].servers, NULL, NULL);
		const struct nicfit_accept_stage *w = stage_of(a, NICFIT_ACCEPT_RAIL_WRITE);

		assert_int_equal(a->npairs, c[i].pairs);
		assert_string_equal(a->pattern, c[i].pattern);
		assert_int_equal(w->nsteps, c[i].pairs * (size_t)a->sys.rails);
		if (a->sys.nodes > 8) {
			/* the last ring pair closes the ring; the first bisection pair is half away */
			const struct nicfit_accept_step *s = &a->steps[w->first + (size_t)a->sys.nodes *
								       (size_t)a->sys.rails - 1];

			assert_int_equal(s->round, 1);
			assert_int_equal(s->a, a->sys.nodes - 1);
			assert_int_equal(s->b, 0);
			s++;
			assert_int_equal(s->round, 2);
			assert_int_equal(s->a, 0);
			assert_int_equal(s->b, a->sys.nodes / 2);
			assert_non_null(strstr(a->rounds, "round 2, the bisection"));
		} else {
			assert_int_equal(a->steps[w->first].round, 1);
		}
		nicfit_accept_free(a);
	}
}

/* Copy file from into dir/name.txt. */
static void put(const char *dir, const char *name, const char *from)
{
	struct nicfit_error err;
	char path[512];
	char *text;
	size_t len;
	FILE *f;

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_read_file(from, 1 << 20, &text, &len, &err), 0);
	snprintf(path, sizeof(path), "%s/%s.txt", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	free(text);
}

/*
 * Ten nodes (a ring and a bisection round), every rail-write step given a
 * result: a passing one, except where bad() says the step fails (the
 * perftest#234 output without its figure). Returns the judged runbook.
 */
static struct nicfit_accept *ring_judged(int (*bad)(const struct nicfit_accept *,
						    const struct nicfit_accept_step *))
{
	struct nicfit_accept *a = training("backend_cards", "2", "servers", "10");
	const struct nicfit_accept_stage *w = stage_of(a, NICFIT_ACCEPT_RAIL_WRITE);
	struct nicfit_error err;
	char dir[] = "/tmp/nicfit-accept-ring-XXXXXX", path[600];
	size_t k;

	assert_non_null(mkdtemp(dir));
	for (k = 0; k < w->nsteps; k++) {
		const struct nicfit_accept_step *s = &a->steps[w->first + k];

		put(dir, s->name, bad(a, s) ? "tests/fixtures/accept/training-rail/"
		    "rail-write-node01-node03-r1.txt" : "tests/fixtures/accept/training-pass/"
		    "rail-write-node01-node02-r0.txt");
	}
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_judge(a, dir, NULL, &err), 0);
	for (k = 0; k < w->nsteps; k++) {
		snprintf(path, sizeof(path), "%s/%s.txt", dir, a->steps[w->first + k].name);
		assert_int_equal(unlink(path), 0);
	}
	assert_int_equal(rmdir(dir), 0);
	return a;
}

/* node06's rail 1 (index 5): its port is bad, in every pair it is in. */
static int node06_rail1(const struct nicfit_accept *a, const struct nicfit_accept_step *s)
{
	(void)a;
	return s->rail == 1 && (s->a == 5 || s->b == 5);
}

/* Rail 0 between node03 and node04 alone: the route between them. */
static int route_03_04(const struct nicfit_accept *a, const struct nicfit_accept_step *s)
{
	(void)a;
	return s->rail == 0 && s->a == 2 && s->b == 3;
}

/* node08's rail 0 fails in one ring pair and in its bisection pair: round 2 names it. */
static int node08_round2(const struct nicfit_accept *a, const struct nicfit_accept_step *s)
{
	(void)a;
	return s->rail == 0 && ((s->a == 7 && s->b == 8) || (s->round == 2 && (s->a == 7 ||
										  s->b == 7)));
}

/* The ring and the bisection round put a fault on a host, a route, or round 2's host. */
static void ring_isolates(void **state)
{
	struct nicfit_accept *a;

	(void)state;
	a = ring_judged(node06_rail1);
	assert_int_equal(a->nisolated, 1);
	assert_int_equal(a->isolated[0].fault, NICFIT_ACCEPT_FAULT_HOST);
	assert_int_equal(a->isolated[0].host, 5);
	assert_int_equal(a->isolated[0].rail, 1);
	assert_int_equal(a->isolated[0].failed, 3);
	assert_int_equal(a->isolated[0].pairs, 3);
	assert_int_equal(a->isolated[0].round, 1);
	assert_string_equal(a->odd_hosts, "node06");
	nicfit_accept_free(a);

	a = ring_judged(route_03_04);
	assert_int_equal(a->nisolated, 1);
	assert_int_equal(a->isolated[0].fault, NICFIT_ACCEPT_FAULT_ROUTE);
	assert_int_equal(a->isolated[0].a, 2);
	assert_int_equal(a->isolated[0].b, 3);
	assert_int_equal(a->isolated[0].round, 2);
	assert_null(a->odd_hosts);
	nicfit_accept_free(a);

	a = ring_judged(node08_round2);
	assert_int_equal(a->nisolated, 1);
	assert_int_equal(a->isolated[0].fault, NICFIT_ACCEPT_FAULT_HOST);
	assert_int_equal(a->isolated[0].host, 7);
	assert_int_equal(a->isolated[0].failed, 2);
	assert_int_equal(a->isolated[0].pairs, 3);
	assert_int_equal(a->isolated[0].round, 2);
	nicfit_accept_free(a);
}

/* The judged figure is verify's, and the ceiling the band's: verify agrees with it. */
static void pass_set(void **state)
{
	struct nicfit_accept *a = training("backend_cards", "2", NULL, NULL);
	struct nicfit_error err;
	size_t i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_judge(a, "tests/fixtures/accept/training-pass", NULL, &err),
			 0);
	assert_int_equal(nicfit_accept_exit_code(a), 0);
	assert_int_equal(a->counts[NICFIT_ACCEPT_PASS], a->nsteps);
	assert_null(a->odd_hosts);
	for (i = 0; i < a->nsteps; i++) {
		const struct nicfit_accept_step *s = &a->steps[i];

		assert_true(s->measured_gbps > 0);
		assert_near(s->ratio * a->stages[s->stage].band.ceiling_gbps, s->measured_gbps, 1e-9);
	}
	/* DeepOps' ib_write_bw: 92.40 Gb/s */
	assert_near(a->steps[0].measured_gbps, 92.40, 1e-9);
	nicfit_accept_free(a);
}

/* Rail 1 of node03 fails with both its partners: node03 is named, rail 1 counted. */
static void failing_rail_set(void **state)
{
	struct nicfit_accept *a = training("backend_cards", "2", "servers", "3");
	struct nicfit_error err;
	size_t i, broken = 0;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_judge(a, "tests/fixtures/accept/training-rail", NULL, &err),
			 0);
	assert_int_equal(nicfit_accept_exit_code(a), 2);
	assert_non_null(a->odd_hosts);
	assert_string_equal(a->odd_hosts, "node03");
	for (i = 0; i < a->nsteps; i++)
		if (a->steps[i].status == NICFIT_ACCEPT_BROKEN) {
			assert_int_equal(a->steps[i].rail, 1);
			assert_non_null(a->steps[i].next);
			broken++;
		}
	assert_int_equal(broken, 2);
	assert_int_equal(a->counts[NICFIT_ACCEPT_MISSING], 1);
	assert_int_equal(a->nisolated, 1);
	assert_int_equal(a->isolated[0].fault, NICFIT_ACCEPT_FAULT_HOST);
	assert_int_equal(a->isolated[0].host, 2);
	assert_int_equal(a->isolated[0].rail, 1);
	nicfit_accept_free(a);
}

/* A host's audit findings join a failing step's causes when they name its card, GPU or host. */
static void audit_causes(void **state)
{
	static const char causes[] =
		"mlx5_1 nic-pcie-downgraded: mlx5_1 trained at x8 of x16\n"
		"mlx5_0 nic-port-down: mlx5_0 port 1 is down\n"
		"host gdr-no-module: no nvidia_peermem\n";
	struct nicfit_accept *a = training("backend_cards", "2", "servers", "3");
	struct nicfit_error err;
	size_t i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_judge(a, "tests/fixtures/accept/training-rail", causes, &err),
			 0);
	for (i = 0; i < a->nsteps; i++) {
		const struct nicfit_accept_step *s = &a->steps[i];

		if (s->status != NICFIT_ACCEPT_BROKEN)
			continue;
		assert_non_null(s->causes);
		assert_non_null(strstr(s->causes, "audit mlx5_1 nic-pcie-downgraded"));
		assert_non_null(strstr(s->causes, "audit host gdr-no-module"));
		assert_null(strstr(s->causes, "mlx5_0 nic-port-down"));
	}
	/* a passing step gets none */
	assert_null(a->steps[0].causes);
	nicfit_accept_free(a);
}

/* A DGX plan's storage stage: gdsio's READ line read, a WRITE-only output has no figure. */
static void gdsio_steps(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "2", "gpu",
					   "h100-sxm5-80gb", "gpus_per_server", "8", "model",
					   "llama-3-70b", "workload", "training", NULL };
	struct nicfit_accept_system sys;
	struct nicfit_accept *a = NULL;
	struct nicfit_spec spec;
	struct nicfit_error err;
	size_t i, seen = 0;

	(void)state;
	nicfit_error_clear(&err);
	nicfit_spec_init(&spec, "test");
	for (i = 0; kv[i]; i += 2)
		assert_int_equal(nicfit_spec_add(&spec, kv[i], kv[i + 1], &err), 0);
	assert_int_equal(nicfit_accept_system_from_plan(cat, &spec, &sys, &err), 0);
	assert_true(sys.st_gbps > 0);
	assert_int_equal(nicfit_accept_default_hosts(&sys, &err), 0);
	assert_int_equal(nicfit_accept_new(&sys, &a, &err), 0);
	assert_int_equal(nicfit_accept_judge(a, "tests/fixtures/accept/dgx-gdsio", NULL, &err), 0);
	for (i = 0; i < a->nsteps; i++) {
		const struct nicfit_accept_step *s = &a->steps[i];

		if (!strcmp(s->name, "storage-node01")) {
			/*
			 * 6.524658 GiB/s into one GPU from two NVMe drives: above the
			 * GPU's share of two 200G storage ports (376.6 / 8 = 47.1
			 * Gb/s), far below what the ports carry for the node
			 */
			const struct nicfit_accept_band *b = &a->stages[s->stage].band;

			assert_near(s->measured_gbps, 6.524658 * 1073741824.0 * 8 / 1e9, 1e-6);
			assert_near(b->typical_gbps, sys.st_gbps / 8, 1e-9);
			assert_near(b->broken_gbps, sys.st_gbps / 16, 1e-9);
			assert_true(b->ceiling_gbps <= sys.st_gbps);
			assert_true(sys.gpu_pcie_gbps > 0);
			assert_int_equal(s->status, NICFIT_ACCEPT_PASS);
			seen++;
		} else if (!strcmp(s->name, "storage-node02")) {
			assert_int_equal(s->status, NICFIT_ACCEPT_BROKEN);
			assert_true(s->measured_gbps < 0);
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	nicfit_accept_free(a);
	free(sys.hosts);
	nicfit_spec_release(&spec);
}

/*
 * A rail's write step whose output is another perftest (Nebius' ib_send_bw
 * on H100 NDR, 353.53 Gb/s): no figure for the step, the test it holds named.
 */
static void send_for_write(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "2", "gpu",
					   "h100-sxm5-80gb", "gpus_per_server", "8", "model",
					   "llama-3-70b", "workload", "training", "fabric",
					   "infiniband", NULL };
	struct nicfit_accept_system sys;
	struct nicfit_accept *a = NULL;
	struct nicfit_spec spec;
	struct nicfit_error err;
	size_t i, seen = 0;

	(void)state;
	nicfit_error_clear(&err);
	nicfit_spec_init(&spec, "test");
	for (i = 0; kv[i]; i += 2)
		assert_int_equal(nicfit_spec_add(&spec, kv[i], kv[i + 1], &err), 0);
	assert_int_equal(nicfit_accept_system_from_plan(cat, &spec, &sys, &err), 0);
	assert_int_equal(nicfit_accept_default_hosts(&sys, &err), 0);
	assert_int_equal(nicfit_accept_new(&sys, &a, &err), 0);
	assert_int_equal(nicfit_accept_judge(a, "tests/fixtures/accept/dgx-send", NULL, &err), 0);
	for (i = 0; i < a->nsteps; i++) {
		const struct nicfit_accept_step *s = &a->steps[i];

		if (strcmp(s->name, "rail-write-node01-node02-r0"))
			continue;
		assert_int_equal(s->status, NICFIT_ACCEPT_BROKEN);
		assert_true(s->measured_gbps < 0);
		assert_non_null(strstr(s->what, "no RDMA_Write bandwidth result"));
		assert_non_null(strstr(s->what, "Send BW Test"));
		seen++;
	}
	assert_int_equal(seen, 1);
	nicfit_accept_free(a);
	free(sys.hosts);
	nicfit_spec_release(&spec);
}

static void bad_inputs(void **state)
{
	struct nicfit_accept *a = training(NULL, NULL, NULL, NULL);
	struct nicfit_accept_system sys;
	struct nicfit_error err;

	(void)state;
	memset(&sys, 0, sizeof(sys));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_set_hosts(&sys, "gpu01,gpu;rm", &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "gpu;rm"));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_set_hosts(&sys, "gpu[01-02],gpu01", &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "twice"));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_set_hosts(&sys, "gpu[01-03]", &err), 0);
	assert_int_equal(sys.nodes, 3);
	assert_string_equal(sys.hosts[2], "gpu03");
	free(sys.hosts);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_judge(a, "tests/fixtures/accept/no-such-dir", NULL, &err),
			 NICFIT_E_NOTFOUND);
	nicfit_accept_free(a);
}

/* The title, which may carry a host's name, reaches the script's comment as printable ASCII. */
static void script_comment(void **state)
{
	struct nicfit_accept *a = training(NULL, NULL, NULL, NULL);
	struct nicfit_buf b;
	size_t i;

	(void)state;
	snprintf(a->sys.title, sizeof(a->sys.title), "host\nrm -rf /\x1b[31m");
	nicfit_buf_init(&b, 0);
	assert_int_equal(nicfit_accept_script(a, &b), 0);
	assert_non_null(strstr(b.data, "# Acceptance runbook: host?rm -rf /?[31m\n"));
	for (i = 0; i < b.len; i++)
		assert_true(b.data[i] == '\n' || (b.data[i] >= ' ' && b.data[i] <= '~'));
	nicfit_buf_release(&b);
	nicfit_accept_free(a);
}

/* The JSON plan -j writes for plan's training example with one more key (k NULL: none). */
static char *plan_json(const char *k, const char *v, size_t *len)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	struct nicfit_spec spec;
	struct nicfit_error err;
	struct nicfit_buf b;

	nicfit_error_clear(&err);
	nicfit_spec_init(&spec, "test");
	assert_int_equal(nicfit_spec_add(&spec, "example", "training", &err), 0);
	if (k)
		assert_int_equal(nicfit_spec_add(&spec, k, v, &err), 0);
	assert_int_equal(nicfit_plan_run(cat, &spec, e, &err), 0);
	nicfit_buf_init(&b, 0);
	assert_int_equal(nicfit_emit_finish(e, &b), 0);
	nicfit_emit_free(e);
	nicfit_spec_release(&spec);
	return nicfit_buf_detach(&b, len);
}

/* text with the first "from" replaced by "to" (a copy). */
static char *edited(const char *text, const char *from, const char *to)
{
	const char *p = strstr(text, from);
	char *out;
	size_t n;

	assert_non_null(p);
	n = strlen(text) + strlen(to) + 1;
	out = malloc(n);
	assert_non_null(out);
	snprintf(out, n, "%.*s%s%s", (int)(p - text), text, to, p + strlen(from));
	return out;
}

/* err as the one line the CLI prints. */
static const char *err_line(const struct nicfit_error *err)
{
	static char line[1024];

	nicfit_error_line(err, line, sizeof(line));
	return line;
}

/*
 * A saved plan (plan -j's JSON) is the same system as the request it was
 * made from, its bare parameter count included; another document, bad
 * JSON, a value of the wrong type and a card the catalog would not choose
 * are data errors with their line and column.
 */
static void saved_plan(void **state)
{
	struct nicfit_accept_system sys, want;
	struct nicfit_spec spec;
	struct nicfit_error err;
	size_t len;
	char *text = plan_json("params", "13B", &len), *bad;

	(void)state;
	nicfit_error_clear(&err);
	assert_non_null(strstr(text, "\"params\":13000000000"));
	assert_int_equal(nicfit_accept_system_from_plan_json(cat, "p.json", text, len, &sys, &err), 0);
	nicfit_spec_init(&spec, "test");
	assert_int_equal(nicfit_spec_add(&spec, "example", "training", &err), 0);
	assert_int_equal(nicfit_spec_add(&spec, "params", "13B", &err), 0);
	assert_int_equal(nicfit_accept_system_from_plan(cat, &spec, &want, &err), 0);
	nicfit_spec_release(&spec);
	assert_int_equal(sys.nodes, want.nodes);
	assert_int_equal(sys.rails, want.rails);
	assert_int_equal(sys.gpus_per_node, want.gpus_per_node);
	assert_string_equal(sys.rail_part, want.rail_part);
	assert_string_equal(sys.hca[0], want.hca[0]);
	assert_true(sys.link.gbps == want.link.gbps);
	assert_true(sys.fe_port_gbps == want.fe_port_gbps);
	free(sys.hosts);
	free(want.hosts);

	assert_int_equal(nicfit_accept_system_from_plan_json(cat, "p.json", text, len - 2, &sys,
							     &err), NICFIT_E_DATA);
	assert_non_null(strstr(err_line(&err), "p.json:"));
	assert_non_null(strstr(err_line(&err), "not the JSON nicfit plan -j writes"));
	nicfit_error_clear(&err);
	bad = edited(text, "nicfit.plan.v1", "nicfit.audit.v1");
	assert_int_equal(nicfit_accept_system_from_plan_json(cat, "a.json", bad, strlen(bad), &sys,
							     &err), NICFIT_E_DATA);
	assert_non_null(strstr(err_line(&err), "a.json:1:11: schema: 'nicfit.audit.v1'"));
	free(bad);
	nicfit_error_clear(&err);
	bad = edited(text, "\"servers\":2", "\"servers\":[2]");
	assert_int_equal(nicfit_accept_system_from_plan_json(cat, "s.json", bad, strlen(bad), &sys,
							     &err), NICFIT_E_DATA);
	assert_non_null(strstr(err_line(&err), "s.json:"));
	assert_non_null(strstr(err_line(&err), "servers: expected a string, number or boolean"));
	free(bad);
	nicfit_error_clear(&err);
	bad = edited(text, "\"servers\":2", "\"servers\":\"two\"");
	assert_int_equal(nicfit_accept_system_from_plan_json(cat, "t.json", bad, strlen(bad), &sys,
							     &err), NICFIT_E_DATA);
	assert_non_null(strstr(err_line(&err), "t.json:"));
	assert_non_null(strstr(err_line(&err), "servers: 'two'"));
	free(bad);
	nicfit_error_clear(&err);
	bad = edited(text, "\"part\":\"MCX556A-ECAT\",\"name\"", "\"part\":\"MCX75310AAS-NEAT\",\"name\"");
	assert_int_equal(nicfit_accept_system_from_plan_json(cat, "c.json", bad, strlen(bad), &sys,
							     &err), NICFIT_E_DATA);
	assert_non_null(strstr(err_line(&err), "another catalog"));
	assert_null(sys.hosts);
	free(bad);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_system_from_plan_json(cat, "e.json", "[]", 2, &sys, &err),
			 NICFIT_E_DATA);
	assert_non_null(strstr(err_line(&err), "e.json:1:1: "));
	free(text);
}

/* Outputs uploaded in a body are judged as the folder they came from; other shapes are refused. */
static void uploaded_results(void **state)
{
	static const char *const files[] = { "allreduce", "frontend-node01-node02",
					     "rail-write-node01-node02-r0",
					     "rail-write-node01-node02-r1" };
	static const char twice[] = "{\"spec\": {\"example\": \"training\"}, \"results\": "
				    "{\"a.txt\": \"x\", \"a\": \"y\"}}";
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_TEXT, 0, 0);
	struct nicfit_error err;
	struct nicfit_buf body, out;
	size_t i, k;
	int status = -1;

	(void)state;
	nicfit_buf_init(&body, 0);
	nicfit_buf_puts(&body, "{\"spec\": {\"example\": \"training\", \"backend_cards\": 2}, "
			"\"results\": {");
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[256], *text;
		size_t len;

		nicfit_error_clear(&err);
		snprintf(path, sizeof(path), "tests/fixtures/accept/training-pass/%s.txt", files[i]);
		assert_int_equal(nicfit_read_file(path, 1 << 20, &text, &len, &err), 0);
		nicfit_buf_addf(&body, "%s\"%s%s\": \"", i ? ", " : "", files[i], i % 2 ? ".txt" : "");
		for (k = 0; k < len; k++)
			if (text[k] == '"' || text[k] == '\\')
				nicfit_buf_addf(&body, "\\%c", text[k]);
			else if ((unsigned char)text[k] < 0x20)
				nicfit_buf_addf(&body, "\\u%04x", (unsigned char)text[k]);
			else
				nicfit_buf_addf(&body, "%c", text[k]);
		nicfit_buf_puts(&body, "\"");
		free(text);
	}
	nicfit_buf_puts(&body, "}}");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_run_results(cat, body.data, body.len, e, &status, &err), 0);
	assert_int_equal(status, 0);
	nicfit_buf_init(&out, 0);
	assert_int_equal(nicfit_emit_finish(e, &out), 0);
	assert_non_null(strstr(out.data, "ACCEPTED (4 pass, 0 low, 0 broken, 0 missing of 4 steps; "
			       "results uploaded, 4 files)"));
	nicfit_buf_release(&out);
	nicfit_buf_release(&body);
	nicfit_emit_free(e);

	e = nicfit_emit_new(NICFIT_FMT_TEXT, 0, 0);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_run_results(cat, twice, strlen(twice), e, &status, &err),
			 NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "a.txt given twice"));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_accept_run_results(cat, "{\"results\": {}}", 15, e, &status,
						   &err), NICFIT_E_DATA);
	assert_non_null(strstr(err_line(&err), "request body:1:1: spec:"));
	nicfit_emit_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(training_stages),
		cmocka_unit_test(bands_follow_the_formula),
		cmocka_unit_test(pair_patterns),
		cmocka_unit_test(pass_set),
		cmocka_unit_test(failing_rail_set),
		cmocka_unit_test(ring_isolates),
		cmocka_unit_test(audit_causes),
		cmocka_unit_test(gdsio_steps),
		cmocka_unit_test(send_for_write),
		cmocka_unit_test(bad_inputs),
		cmocka_unit_test(script_comment),
		cmocka_unit_test(saved_plan),
		cmocka_unit_test(uploaded_results),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
