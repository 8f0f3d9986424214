/*
 * test_budget.c - the CPU budget of a thread's work (nicfit/budget.h):
 * spent budgets stop output buffers and cluster walks, an unarmed thread
 * is never stopped, and a cancel reaches every armed thread.
 */
#include <pthread.h>

#include "unit.h"
#include "nicfit/budget.h"
#include "nicfit/buf.h"
#include "nicfit/cluster.h"
#include "nicfit/catalog.h"
#include "nicfit/error.h"
#include "nicfit/spec.h"
#include "nicfit/emit.h"

/* Append until the buffer refuses; how many appends went in. */
static long appends_until_refused(struct nicfit_buf *b, long most)
{
	long i;

	for (i = 0; i < most; i++) {
		nicfit_buf_addch(b, 'x');
		if (nicfit_buf_error(b))
			return i;
	}
	return i;
}

static void unarmed_never_stops(void **state)
{
	struct nicfit_buf b;

	(void)state;
	nicfit_buf_init(&b, 0);
	assert_int_equal(appends_until_refused(&b, 100000), 100000);
	assert_int_equal(nicfit_budget_spent(), 0);
	assert_int_equal(nicfit_budget_end(), 0);
	nicfit_buf_release(&b);
}

/* A budget of 0 ms is spent at the first look at the clock: one stride of counts. */
static void spent_budget_stops_buffers(void **state)
{
	struct nicfit_buf b, after;
	long n;

	(void)state;
	nicfit_buf_init(&b, 0);
	nicfit_budget_begin(0);
	n = appends_until_refused(&b, 100000);
	assert_true(n >= NICFIT_BUDGET_STRIDE - 1 && n <= NICFIT_BUDGET_STRIDE);
	assert_int_equal(nicfit_buf_error(&b), NICFIT_E_LIMIT);
	assert_int_equal(nicfit_budget_spent(), 1);
	assert_true(nicfit_budget_count() >= NICFIT_BUDGET_STRIDE);
	assert_int_equal(nicfit_budget_end(), 1);
	/* disarmed: a new buffer takes appends again, and the end is said once */
	assert_int_equal(nicfit_budget_end(), 0);
	nicfit_buf_init(&after, 0);
	assert_int_equal(appends_until_refused(&after, 5000), 5000);
	nicfit_buf_release(&after);
	nicfit_buf_release(&b);
}

/* A generous budget is not spent by a little work. */
static void ample_budget_lets_work_finish(void **state)
{
	struct nicfit_buf b;

	(void)state;
	nicfit_buf_init(&b, 0);
	nicfit_budget_begin(60000);
	assert_int_equal(appends_until_refused(&b, 20000), 20000);
	assert_int_equal(nicfit_budget_end(), 0);
	nicfit_buf_release(&b);
}

/* A cluster sized under a spent budget ends with NICFIT_E_LIMIT, not an answer. */
static void cluster_walk_unwinds(void **state)
{
	struct nicfit_catalog *cat = NULL;
	struct nicfit_spec spec;
	struct nicfit_emit *e;
	struct nicfit_error err;
	int rc;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	nicfit_spec_init(&spec, "test");
	assert_int_equal(nicfit_spec_add(&spec, "nodes", "4096", &err), 0);
	e = nicfit_emit_new(NICFIT_FMT_CSV, 0, 0);
	nicfit_budget_begin(0);
	rc = nicfit_cluster_run(cat, &spec, e, &err);
	assert_int_equal(nicfit_budget_end(), 1);
	assert_int_equal(rc, NICFIT_E_LIMIT);
	nicfit_emit_free(e);
	nicfit_spec_release(&spec);
	nicfit_catalog_free(cat);
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int armed;

/* Armed for an hour, then counts until stopped. */
static void *worker(void *arg)
{
	struct nicfit_buf b;
	long *n = arg;

	nicfit_buf_init(&b, 0);
	nicfit_budget_begin(3600 * 1000);
	pthread_mutex_lock(&lock);
	armed = 1;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	while (!nicfit_buf_error(&b)) {
		nicfit_buf_addch(&b, 'x');
		if (b.len > 1 << 20)
			nicfit_buf_reset(&b);
	}
	*n = nicfit_budget_end();
	nicfit_buf_release(&b);
	return NULL;
}

static void cancel_reaches_armed_threads(void **state)
{
	pthread_t t;
	long ended = 0;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, worker, &ended), 0);
	pthread_mutex_lock(&lock);
	while (!armed)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	nicfit_budget_cancel_all();
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(ended, 1);
	/* this thread had none armed: nothing to end */
	assert_int_equal(nicfit_budget_end(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unarmed_never_stops),
		cmocka_unit_test(spent_budget_stops_buffers),
		cmocka_unit_test(ample_budget_lets_work_finish),
		cmocka_unit_test(cluster_walk_unwinds),
		cmocka_unit_test(cancel_reaches_armed_threads),
	};

	return cmocka_run_group_tests_name("budget", tests, NULL, NULL);
}
