/*
 * fleet_expect.c - `audit --expect AUDITS`: this host judged against what
 * its peers have, by the fleet's own comparison (nicfit/ops.h). A health
 * check on one node cannot see the fleet, but it can be given the fleet's
 * audits (a directory gathered earlier, a pdsh capture) or the audit of a
 * node known to be good: the host's audit joins them, the fleet is
 * analysed as `nicfit fleet` would, and every difference that names this
 * host becomes one of its findings. It is not a second comparison: the
 * attributes, majorities and severities are fleet_compare.c's and
 * fleet_groups.c's.
 */
#include <string.h>

#include "fleet/fleet_int.h"
#include "core/finding_int.h"
#include "nicfit/audit.h"
#include "nicfit/emit.h"
#include "nicfit/fleet.h"
#include "nicfit/ops.h"

#define SELF "(this host)" /* the name of a document that carries none */

static int render_json(const struct nicfit_audit *a, struct nicfit_buf *doc)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	int rc;

	if (!e)
		return NICFIT_E_NOMEM;
	rc = nicfit_audit_render(a, e);
	if (!rc)
		rc = nicfit_emit_finish(e, doc);
	nicfit_emit_free(e);
	return rc;
}

/* Index of the host called name, or (size_t)-1. */
static size_t host_index(const struct nicfit_fleet *fl, const char *name)
{
	size_t i, n = nicfit_fleet_nhosts(fl);

	for (i = 0; i < n; i++)
		if (!strcmp(nicfit_fleet_host_name(fl, i), name))
			return i;
	return (size_t)-1;
}

/*
 * Whether anomaly x counts against host h: it names h, and either a strict
 * majority holds another value, or no other host shares h's value (with a
 * single good node as the reference there is no majority, and h's value
 * differs from the reference's). The audit's own findings are already
 * h's findings and are not counted twice.
 */
static int fails(const struct nicfit_fleet_anomaly *x, size_t h)
{
	size_t i, j;
	int named = 0;

	if (x->attribute && !strcmp(x->attribute, "finding"))
		return 0;
	for (i = 0; i < x->nhosts && !named; i++)
		named = x->hosts[i] == h;
	if (!named)
		return 0;
	if (x->majority)
		return 1;
	for (i = 0; i < x->nvalues; i++)
		for (j = 0; j < x->values[i].count; j++)
			if (x->values[i].hosts[j] == h)
				return x->values[i].count == 1;
	return 1; /* named without a value of its own: a device it lacks or has extra */
}

static int add_findings(struct nicfit_audit *a, const struct nicfit_fleet *fl, size_t h,
			const char *ref, struct nicfit_error *err)
{
	size_t i, n = nicfit_fleet_nanomalies(fl);
	int rc;

	for (i = 0; i < n; i++) {
		const struct nicfit_fleet_anomaly *x = nicfit_fleet_anomaly(fl, i);
		struct nicfit_finding *f = NULL;

		if (!fails(x, h))
			continue;
		rc = nicfit__find_code(&a->findings, x->severity, x->code,
				       x->device ? x->device : "host", &f, "%s (against --expect %s)",
				       x->message, ref);
		if (!rc && f && nicfit__finding_fix(&a->findings, f,
						     "Make this host match its peers, or refresh "
						     "the reference audits if the fleet changed on "
						     "purpose."))
			rc = NICFIT_E_NOMEM;
		if (rc)
			return nicfit_error_at(err, rc, "--expect", 0, 0, "%s", nicfit_strerror(rc));
	}
	rc = nicfit_findings_sort(&a->findings);
	return rc ? nicfit_error_at(err, rc, "--expect", 0, 0, "%s", nicfit_strerror(rc)) : 0;
}

int nicfit_audit_expect_fleet(struct nicfit_audit *a, const char *ref, struct nicfit_error *err)
{
	struct nicfit_fleet *fl = NULL;
	struct nicfit_buf doc;
	const char *self = a->topo->hostname[0] ? a->topo->hostname : SELF;
	size_t before, h;
	int rc;

	nicfit_buf_init(&doc, 0);
	rc = render_json(a, &doc);
	if (rc)
		return nicfit_error_at(err, rc, "--expect", 0, 0, "%s", nicfit_strerror(rc));
	rc = nicfit_fleet_new(&fl, NULL);
	if (rc) {
		nicfit_buf_release(&doc);
		return nicfit_error_at(err, rc, "--expect", 0, 0, "%s", nicfit_strerror(rc));
	}
	rc = nicfit_fleet_add_path(fl, ref, err);
	if (rc)
		goto out;
	before = nicfit_fleet_nhosts(fl);
	if (!before) {
		rc = nicfit_error_at(err, NICFIT_E_DATA, ref, 0, 0,
				      "no nicfit audit in it (give a plan spec, or audits "
				      "as `nicfit fleet` reads them)");
		goto out;
	}
	rc = nicfit_fleet_begin(fl, SELF, SELF, err);
	if (!rc)
		rc = nicfit_fleet_feed(fl, doc.data, doc.len, err);
	if (!rc)
		rc = nicfit_fleet_end(fl, err);
	if (rc)
		goto out;
	if (nicfit_fleet_nhosts(fl) == before) {
		rc = nicfit_error_at(err, NICFIT_E_USAGE, ref, 0, 0,
				      "it holds an audit of this host (%s): the reference must be "
				      "other hosts' audits", self);
		goto out;
	}
	rc = nicfit_fleet_analyze(fl, NULL, err);
	if (rc)
		goto out;
	h = host_index(fl, self);
	if (h == (size_t)-1) {
		rc = nicfit_error_at(err, NICFIT_E_INTERNAL, ref, 0, 0,
				      "this host's audit was not read back");
		goto out;
	}
	rc = add_findings(a, fl, h, ref, err);
out:
	nicfit_fleet_free(fl);
	nicfit_buf_release(&doc);
	return rc;
}
