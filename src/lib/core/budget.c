/*
 * budget.c - the CPU budget of one thread's work (see nicfit/budget.h).
 *
 * Everything is thread-local but the cancel generation: a thread arms its
 * own budget, counts against it and reads its own CPU clock, so workers
 * share no state but one counter that only the stopping thread writes.
 */
#include <limits.h>
#include <stdatomic.h>
#include <time.h>

#include "core/budget_int.h"

/* Unarmed: a countdown that never reaches 0 (2^63 counts). */
_Thread_local long nicfit__budget_left = LONG_MAX;

static _Thread_local int armed, spent;
static _Thread_local long long deadline_ns;
static _Thread_local unsigned long long strides;
static _Thread_local unsigned gen_seen;
static atomic_uint cancel_gen;

static long long cpu_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void nicfit_budget_begin(unsigned cpu_ms)
{
	armed = 1;
	spent = 0;
	strides = 0;
	gen_seen = atomic_load_explicit(&cancel_gen, memory_order_acquire);
	deadline_ns = cpu_now_ns() + (long long)cpu_ms * 1000000LL;
	nicfit__budget_left = NICFIT_BUDGET_STRIDE;
}

int nicfit_budget_end(void)
{
	int was = armed && spent;

	armed = 0;
	spent = 0;
	nicfit__budget_left = LONG_MAX;
	return was;
}

int nicfit_budget_spent(void)
{
	return armed && spent;
}

unsigned long long nicfit_budget_count(void)
{
	long left = nicfit__budget_left;

	if (!armed)
		return 0;
	return strides * NICFIT_BUDGET_STRIDE + (unsigned long long)(NICFIT_BUDGET_STRIDE -
								     (left > 0 ? left : 0));
}

void nicfit_budget_cancel_all(void)
{
	atomic_fetch_add_explicit(&cancel_gen, 1, memory_order_release);
}

int nicfit__budget_look(void)
{
	if (!armed) {
		nicfit__budget_left = LONG_MAX;
		return 0;
	}
	if (!spent) {
		strides++;
		if (atomic_load_explicit(&cancel_gen, memory_order_acquire) != gen_seen ||
		    cpu_now_ns() >= deadline_ns)
			spent = 1;
	}
	nicfit__budget_left = spent ? 0 : NICFIT_BUDGET_STRIDE;
	return spent;
}
