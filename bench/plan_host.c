/*
 * plan_host.c - one plan in process (bench/plan.sh): for each of the
 * named examples, the median microseconds of reading the request
 * (nicfit_plan_input_from_spec), planning (nicfit_plan) and rendering it
 * as JSON (nicfit_plan_render), over N runs, catalog loaded once.
 *
 *   plan_host [N [EXAMPLE]]
 *
 * With EXAMPLE, only that one (for a profile of one plan under callgrind).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/plan.h"
#include "nicfit/spec.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, i, x;
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	double *tin = calloc((size_t)n, sizeof(double)), *tplan = calloc((size_t)n, sizeof(double));
	double *tjson = calloc((size_t)n, sizeof(double));

	nicfit_error_clear(&err);
	if (!tin || !tplan || !tjson || n < 1 || nicfit_catalog_new(&cat, &err))
		return 70;
	printf("  %-12s %10s %10s %10s %10s\n", "example", "input us", "plan us", "json us",
	       "total us");
	for (x = 0; nicfit_plan_examples[x].name; x++) {
		if (argc > 2 && strcmp(argv[2], nicfit_plan_examples[x].name))
			continue;
		for (i = 0; i < n; i++) {
			struct nicfit_spec spec;
			struct nicfit_plan_input in;
			struct nicfit_plan plan;
			struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
			const char *const *p;
			double t0, t1, t2, t3;

			memset(&plan, 0, sizeof(plan));
			nicfit_spec_init(&spec, "example");
			for (p = nicfit_plan_examples[x].pairs; *p; p += 2)
				nicfit_spec_add(&spec, p[0], p[1], &err);
			t0 = now_us();
			if (nicfit_plan_input_from_spec(cat, &spec, &in, &err))
				return 65;
			t1 = now_us();
			if (nicfit_plan(cat, &in, &plan, &err))
				return 65;
			t2 = now_us();
			nicfit_plan_render(e, &plan);
			t3 = now_us();
			tin[i] = t1 - t0;
			tplan[i] = t2 - t1;
			tjson[i] = t3 - t2;
			nicfit_plan_release(&plan);
			nicfit_emit_free(e);
			nicfit_spec_release(&spec);
		}
		{
			double a = median(tin, n), b = median(tplan, n), c = median(tjson, n);

			printf("  %-12s %10.1f %10.1f %10.1f %10.1f\n", nicfit_plan_examples[x].name,
			       a, b, c, a + b + c);
		}
	}
	nicfit_catalog_free(cat);
	free(tin);
	free(tplan);
	free(tjson);
	return 0;
}
