/*
 * dump_fixture.h - what the tests of pasted dumps share: a text read as
 * one paste, modelled and judged (judge, done), the PCI function the model
 * put an RDMA device on (on) and the reader's record of one (rec).
 * Include it after unit.h.
 */
#ifndef NICFIT_DUMP_FIXTURE_H
#define NICFIT_DUMP_FIXTURE_H

#include <string.h>

#include "dump/dump_int.h"
#include "nicfit/audit.h"

struct run {
	struct nicfit_dump *d;
	struct nicfit_topo *t;
	struct nicfit_audit *a;
};

/* text read as the paste "paste", modelled and judged. */
static inline void judge(struct run *r, const char *text)
{
	struct nicfit_error err;

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&r->d), 0);
	assert_int_equal(nicfit_dump_add_text(r->d, "paste", text, strlen(text), &err), 0);
	assert_int_equal(nicfit_dump_topo(r->d, &r->t, &err), 0);
	assert_int_equal(nicfit_audit_judge(r->t, NULL, NULL, &r->a, &err), 0);
	assert_int_equal(nicfit_dump_judge(r->d, r->a, &err), 0);
}

static inline void done(struct run *r)
{
	nicfit_audit_free(r->a);
	nicfit_topo_free(r->t);
	nicfit_dump_free(r->d);
}

/* The BDF the model put RDMA device name on, "" when none. */
static inline const char *on(const struct run *r, const char *name)
{
	int i;

	for (i = 0; i < r->t->nrdma; i++)
		if (!strcmp(r->t->rdma[i].name, name))
			return r->t->rdma[i].pci >= 0 ? r->t->pci[r->t->rdma[i].pci].bdf : "";
	return "";
}

/* The reader's record of RDMA device name; fails the test when none. */
static inline const struct dump_rdma *rec(const struct run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->d->nrdma; i++)
		if (!strcmp(r->d->rdma[i].name, name))
			return &r->d->rdma[i];
	fail_msg("no record of %s", name);
	return NULL;
}

#endif
