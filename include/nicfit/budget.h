/*
 * nicfit/budget.h - a CPU budget for the work of one thread, so that a
 * server can end a request that costs too much instead of letting it hold
 * a worker (and its other clients, and its stop) for as long as it runs.
 *
 * The library counts its work at a few places every costly path passes
 * (each append to an output buffer, each leaf of a cluster walk): a
 * thread-local countdown, and every NICFIT_BUDGET_STRIDE counts a look at
 * the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID). Once the budget is
 * spent every further count says so: output buffers refuse appends (their
 * error is NICFIT_E_LIMIT), walks return NICFIT_E_LIMIT, and the work
 * unwinds through its ordinary error paths, freeing what it holds. A
 * thread that has not armed a budget pays one decrement per count and
 * never reads the clock.
 *
 *	nicfit_budget_begin(1000);           (this thread: 1,000 ms of CPU)
 *	rc = nicfit_plan_run(cat, spec, e, &err);
 *	if (nicfit_budget_end())
 *		... over budget: answer that, not rc or the partial output ...
 *
 * nicfit_budget_cancel_all() spends the budget of every thread that has
 * one armed now (a server that is stopping), at their next look at the
 * clock.
 */
#ifndef NICFIT_BUDGET_H
#define NICFIT_BUDGET_H

#ifdef __cplusplus
extern "C" {
#endif

/* Counts between two looks at the CPU clock. */
#define NICFIT_BUDGET_STRIDE 1024

/* Arm the calling thread's budget: cpu_ms milliseconds of its CPU time from now. */
void nicfit_budget_begin(unsigned cpu_ms);
/* Disarm it; 1 if the budget was spent (or cancelled) while armed, else 0. */
int nicfit_budget_end(void);
/* Whether the calling thread's armed budget is spent. */
int nicfit_budget_spent(void);
/* How many counts the calling thread made since nicfit_budget_begin(). */
unsigned long long nicfit_budget_count(void);
/* Spend every armed budget (their threads see it within a stride). */
void nicfit_budget_cancel_all(void);

#ifdef __cplusplus
}
#endif

#endif
