/*
 * verify_doc.c - the verify object and its documents: making and freeing
 * them, a new document for a parser to fill, and the names of the kinds
 * and verdicts. It parses and judges nothing (verify.c recognises inputs,
 * each kind's file parses it, verify_judge.c judges).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/alloc_int.h"
#include "verify/verify_int.h"

const char *nicfit_verify_kind_name(enum nicfit_verify_kind k)
{
	static const char *const names[] = { "nccl-tests", "nccl-log", "perftest", "iperf3",
					     "nccl-topo", "iperf2" };

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

const char *nicfit_verdict_name(enum nicfit_verify_verdict v)
{
	static const char *const names[] = { "not judged", "as expected", "low", "far below",
					     "above line rate" };

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

void nicfit_verify_expect_init(struct nicfit_verify_expect *x)
{
	memset(x, 0, sizeof(*x));
	x->proto = -1;
}

struct nicfit_verify *nicfit_verify_new(void)
{
	struct nicfit_verify *v = calloc(1, sizeof(*v));

	if (v) {
		nicfit_findings_init(&v->findings);
		nicfit_verify_expect_init(&v->expect);
	}
	return v;
}

void nicfit__verify_doc_release(struct nicfit_verify_doc *d)
{
	size_t i;

	if (d->kind == NICFIT_VERIFY_NCCL_TESTS) {
		free(d->u.t.rows);
	} else if (d->kind == NICFIT_VERIFY_NCCL_LOG) {
		free(d->u.log.hcas);
		free(d->u.log.gdr_gpus);
		free(d->u.log.qps);
		for (i = 0; i < d->u.log.nenv; i++) {
			free(d->u.log.env[i].name);
			free(d->u.log.env[i].value);
		}
		free(d->u.log.env);
		for (i = 0; i < d->u.log.nwarns; i++)
			free(d->u.log.warns[i].text);
		free(d->u.log.warns);
	}
	free(d->input);
	free(d->what);
	free(d->arith);
}

void nicfit_verify_free(struct nicfit_verify *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->ndocs; i++)
		nicfit__verify_doc_release(&v->docs[i]);
	free(v->docs);
	for (i = 0; i < v->ntexts; i++)
		nicfit__verify_text_free(v->texts[i]);
	free(v->texts);
	nicfit_findings_release(&v->findings);
	free(v);
}

struct nicfit_verify_doc *nicfit__verify_doc_add(struct nicfit_verify *v,
						 enum nicfit_verify_kind k, const char *name)
{
	struct nicfit_verify_doc *d;

	if (NICFIT_ALLOC_GROW(v->docs, v->ndocs + 1, v->alloc))
		return NULL;
	d = &v->docs[v->ndocs];
	memset(d, 0, sizeof(*d));
	d->kind = k;
	d->measured_gbps = d->expected_gbps = -1;
	d->input = nicfit__vstrdup(name);
	if (!d->input)
		return NULL;
	v->ndocs++;
	return d;
}

void nicfit__verify_doc_init(struct nicfit_verify_doc *d, enum nicfit_verify_kind k)
{
	memset(d, 0, sizeof(*d));
	d->kind = k;
	d->measured_gbps = d->expected_gbps = -1;
}

int nicfit__verify_doc_put(struct nicfit_verify *v, struct nicfit_verify_doc *d, const char *name,
			   int rc)
{
	char *input = NULL;

	if (!rc && v && (NICFIT_ALLOC_GROW(v->docs, v->ndocs + 1, v->alloc) ||
			 !(input = nicfit__vstrdup(name))))
		rc = NICFIT_E_NOMEM;
	if (rc || !v) {
		nicfit__verify_doc_release(d);
		return rc;
	}
	d->input = input;
	v->docs[v->ndocs++] = *d;
	return 0;
}

void nicfit__verify_text_free(struct nicfit_verify_text *t)
{
	if (!t)
		return;
	free(t->copy);
	if (t->map)
		munmap(t->map, t->map_len);
	free(t->marks);
	free(t);
}
