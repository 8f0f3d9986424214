/*
 * verify_fixture.h - what the tests of verify's NCCL-log reading share:
 * a text read and judged with no expectation (from_text), its one NCCL
 * log (log_of), and its findings by code (find, count). Include it after
 * unit.h.
 */
#ifndef NICFIT_VERIFY_FIXTURE_H
#define NICFIT_VERIFY_FIXTURE_H

#include <string.h>

#include "nicfit/finding.h"
#include "nicfit/verify.h"

/* text read as input name and judged with an empty expectation. */
static inline struct nicfit_verify *from_text(const char *name, const char *text)
{
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_verify_expect x;
	struct nicfit_error err;

	assert_non_null(v);
	nicfit_error_clear(&err);
	if (nicfit_verify_add_text(v, name, text, strlen(text), &err))
		fail_msg("%s: %s", name, err.msg);
	nicfit_verify_expect_init(&x);
	if (nicfit_verify_judge(v, &x, &err))
		fail_msg("judge: %s", err.msg);
	return v;
}

/* The one document of v, which must be an NCCL log. */
static inline const struct nicfit_nccl_log *log_of(const struct nicfit_verify *v)
{
	assert_int_equal(v->ndocs, 1);
	assert_int_equal(v->docs[0].kind, NICFIT_VERIFY_NCCL_LOG);
	return &v->docs[0].u.log;
}

/* How many findings of v have code. */
static inline size_t count(const struct nicfit_verify *v, const char *code)
{
	size_t i, n = 0;

	for (i = 0; i < v->findings.n; i++)
		n += !strcmp(v->findings.v[i].code, code);
	return n;
}

/* The first finding of v with code, or NULL. */
static inline const struct nicfit_finding *find(const struct nicfit_verify *v, const char *code)
{
	size_t i;

	for (i = 0; i < v->findings.n; i++)
		if (!strcmp(v->findings.v[i].code, code))
			return &v->findings.v[i];
	return NULL;
}

#endif
