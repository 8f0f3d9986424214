/*
 * audit_host.c - in-process time of one audit of a sysfs tree: discovery,
 * judgement and the JSON report, repeated, without process start-up or the
 * catalog load (built once). Prints the best and the median per host in
 * microseconds:  audit_host DIR [RUNS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nicfit/audit.h"
#include "nicfit/buf.h"
#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/topo.h"

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

int main(int argc, char **argv)
{
	struct nicfit_catalog *cat;
	struct nicfit_audit_opts opts;
	struct nicfit_error err;
	long runs = argc > 2 ? strtol(argv[2], NULL, 10) : 200, i;
	double *t;

	if (argc < 2 || runs < 1 || runs > 100000) {
		fprintf(stderr, "usage: audit_host DIR [RUNS]\n");
		return 64;
	}
	t = malloc((size_t)runs * sizeof(*t));
	memset(&opts, 0, sizeof(opts));
	opts.pci_ids = 1; /* as the command does: names pci.ids has and the table lacks */
	nicfit_error_clear(&err);
	if (!t || nicfit_catalog_new(&cat, &err)) {
		fprintf(stderr, "audit_host: %s\n", err.msg);
		return 70;
	}
	for (i = 0; i < runs; i++) {
		struct nicfit_topo *topo;
		struct nicfit_audit *a;
		struct nicfit_emit *e;
		struct nicfit_buf b;
		double t0 = now_us();

		if (nicfit_topo_discover(argv[1], &topo, &err) ||
		    nicfit_audit_judge(topo, cat, &opts, &a, &err)) {
			fprintf(stderr, "audit_host: %s: %s\n", argv[1], err.msg);
			return 66;
		}
		e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
		nicfit_buf_init(&b, 0);
		nicfit_audit_render(a, e);
		nicfit_emit_finish(e, &b);
		t[i] = now_us() - t0;
		nicfit_emit_free(e);
		nicfit_buf_release(&b);
		nicfit_audit_free(a);
		nicfit_topo_free(topo);
	}
	qsort(t, (size_t)runs, sizeof(*t), cmp);
	printf("%.0f %.0f\n", t[0], t[runs / 2]);
	nicfit_catalog_free(cat);
	free(t);
	return 0;
}
