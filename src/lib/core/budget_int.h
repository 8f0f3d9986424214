/*
 * budget_int.h - the count the library's costly paths make against the
 * calling thread's budget (nicfit/budget.h): one thread-local decrement,
 * and a call to the clock only every NICFIT_BUDGET_STRIDE counts.
 */
#ifndef NICFIT_BUDGET_INT_H
#define NICFIT_BUDGET_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "budget_int.h is internal to libnicfit: include nicfit/budget.h"
#endif

#include "nicfit/budget.h"

extern _Thread_local long nicfit__budget_left;

/* The slow path: 1 when the armed budget is spent, else 0 (the countdown restarts). */
int nicfit__budget_look(void);

/* Count one unit of work: nonzero once the calling thread's budget is spent. */
static inline int nicfit_budget_tick(void)
{
	return --nicfit__budget_left < 0 && nicfit__budget_look();
}

#endif
