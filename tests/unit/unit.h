/*
 * unit.h - what every cmocka unit test includes. Tests report in TAP
 * (CMOCKA_MESSAGE_OUTPUT=TAP is set by tests/run.sh) so that the runner
 * can add up one total.
 */
#ifndef NICFIT_UNIT_H
#define NICFIT_UNIT_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* |a - b| <= tol, with both numbers in the failure message. */
#define assert_near(a, b, tol) \
	do { \
		double a_ = (a), b_ = (b); \
		if (!(fabs(a_ - b_) <= (tol))) \
			fail_msg("%s = %.6g, expected %.6g +/- %g", #a, a_, b_, (double)(tol)); \
	} while (0)

#endif
