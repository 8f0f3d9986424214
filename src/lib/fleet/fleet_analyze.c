/*
 * fleet_analyze.c - the analysis of a whole fleet (nicfit_fleet_analyze):
 * group the hosts, compare each group within and with the groups built
 * alike, add the hosts that sent no usable audit, and publish the results
 * in the order users read them (worst first).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "fleet/fleet_int.h"

void nicfit__fleet_results_release(struct nicfit_fleet *fl)
{
	free(fl->anoms);
	free(fl->ahosts);
	free(fl->avals);
	free(fl->pub_anoms);
	free(fl->pub_vals);
	free(fl->groups);
	free(fl->group_hosts);
	free(fl->commons);
	free(fl->pub_hosts);
	free(fl->absent);
	fl->absent = NULL;
	fl->nabsent = fl->cap_absent = fl->nunnamed = fl->nexpected = fl->nmissing_unnamed = 0;
	fl->anoms = NULL;
	fl->ahosts = NULL;
	fl->avals = NULL;
	fl->pub_anoms = NULL;
	fl->pub_vals = NULL;
	fl->groups = NULL;
	fl->group_hosts = NULL;
	fl->commons = NULL;
	fl->pub_hosts = NULL;
	fl->nanoms = fl->cap_anoms = fl->nahosts = fl->cap_ahosts = 0;
	fl->navals = fl->cap_avals = fl->ngroups = fl->ncommons = fl->cap_commons = 0;
	fl->analyzed = 0;
}

/* ---- hosts without audits ------------------------------------------------------------------ */

static int absent_add(struct fl_an *a, uint32_t name)
{
	struct nicfit_fleet *fl = a->fl;
	size_t i;

	if (nicfit__fleet_host_index(fl, name) >= 0)
		return 0;
	for (i = 0; i < fl->nabsent; i++)
		if (fl->absent[i] == name)
			return 0;
	if (NICFIT_ALLOC_GROW(fl->absent, fl->nabsent + 1, fl->cap_absent)) {
		a->err = NICFIT_E_NOMEM;
		return -1;
	}
	fl->absent[fl->nabsent++] = name;
	return 1;
}

struct expect_ctx {
	struct fl_an *a;
	size_t n;
};

static int expect_one(void *ctx, const char *name)
{
	struct expect_ctx *e = ctx;
	char clean[300];
	uint32_t id;

	snprintf(clean, sizeof(clean), "%s", name);
	nicfit__fleet_sanitize(clean);
	id = nicfit__fleet_intern0(&e->a->fl->st, clean);

	e->n++;
	if (!id) {
		e->a->err = NICFIT_E_NOMEM;
		return -1;
	}
	return absent_add(e->a, id) < 0 ? -1 : 0;
}

/*
 * Hosts whose audit could not be used (truncated, malformed, not an
 * audit, no output) are one warning: the fleet was measured without them,
 * so its verdict may be too kind, but nothing is known to be wrong with
 * them. Documents that name no host are counted in the message.
 */
static int unreadable_anomaly(struct fl_an *a)
{
	struct nicfit_fleet *fl = a->fl;
	size_t i, nunread;
	struct fl_anom *x;

	for (i = 0; i < fl->nproblem_hosts; i++)
		if (absent_add(a, fl->problem_hosts[i]) < 0)
			return NICFIT_E_NOMEM;
	nunread = fl->nabsent;
	fl->nunnamed = fl->nunreadable > fl->nproblem_hosts ? fl->nunreadable - fl->nproblem_hosts
							     : 0;
	if ((!nunread && !fl->nunnamed) ||
	    nicfit__fleet_ignored_code(a, NICFIT_CODE_AUDIT_UNREADABLE))
		return 0;
	x = nicfit__fleet_anom_new(a, -1, NICFIT_SEV_WARNING,
				   nicfit__fleet_code_id(a, NICFIT_CODE_AUDIT_UNREADABLE), -1, 0);
	if (!x)
		return NICFIT_E_NOMEM;
	x->attribute = "audit";
	x->subject = nicfit__fleet_intern0(&fl->st, "audit");
	x->majority = 1;
	for (i = 0; i < nunread; i++)
		nicfit__fleet_anom_host(a, x, fl->nhosts + i);
	if (fl->nunnamed && nunread)
		x->message = nicfit__fleet_intern_fmt(a,
						      "no usable audit (truncated, malformed or no "
						      "output), and %zu document%s without a host "
						      "name; see the input problems",
						      fl->nunnamed, fl_plural(fl->nunnamed));
	else if (fl->nunnamed)
		x->message = nicfit__fleet_intern_fmt(a, "%zu document%s without a host name could "
						      "not be read; see the input problems",
						      fl->nunnamed, fl_plural(fl->nunnamed));
	else
		x->message = nicfit__fleet_intern_fmt(a, "no usable audit (truncated, malformed or "
						      "no output); see the input problems");
	return 0;
}

/* The host-missing anomaly, its hosts and message left to the caller. */
static struct fl_anom *missing_anomaly(struct fl_an *a)
{
	struct fl_anom *x =
		nicfit__fleet_anom_new(a, -1, NICFIT_SEV_CRITICAL,
				       nicfit__fleet_code_id(a, NICFIT_CODE_HOST_MISSING), -1, 0);

	if (x) {
		x->attribute = "hosts";
		x->subject = nicfit__fleet_intern0(&a->fl->st, "fleet");
		x->majority = 1;
	}
	return x;
}

/*
 * --expect: hosts that should have answered. A host that sent nothing at
 * all is critical: whatever broke it (down, unreachable, the audit never
 * ran) keeps it out of the cluster, and nothing about it was checked. A
 * count can only say how many are missing; a host list names them.
 */
static int expect_hosts(struct fl_an *a, struct nicfit_error *err)
{
	struct nicfit_fleet *fl = a->fl;
	const char *e = a->o->expect;
	struct expect_ctx ec;
	struct fl_anom *x;
	size_t i, k = 0, before = fl->nabsent;
	int rc;

	while (e[k] >= '0' && e[k] <= '9')
		k++;
	if (k && !e[k]) {
		unsigned long long want = strtoull(e, NULL, 10);
		size_t have = fl->nhosts + fl->nabsent;

		fl->nexpected = (size_t)want;
		if (want <= have || nicfit__fleet_ignored_code(a, NICFIT_CODE_HOST_MISSING))
			return a->err;
		fl->nmissing_unnamed = (size_t)want - have;
		x = missing_anomaly(a);
		if (!x)
			return NICFIT_E_NOMEM;
		x->message = nicfit__fleet_intern_fmt(a,
						      "%llu hosts expected, %zu answered: %zu sent "
						      "nothing (give --expect a host list to name "
						      "them)",
						      want, have, fl->nmissing_unnamed);
		return a->err;
	}
	ec.a = a;
	ec.n = 0;
	rc = nicfit_hostlist_expand(e, fl->lim.max_hosts, expect_one, &ec, err);
	if (rc && err && !a->err)
		snprintf(err->input, sizeof(err->input), "--expect");
	if (rc)
		return a->err ? a->err : rc;
	fl->nexpected = ec.n;
	if (fl->nabsent > before && !nicfit__fleet_ignored_code(a, NICFIT_CODE_HOST_MISSING)) {
		x = missing_anomaly(a);
		if (!x)
			return NICFIT_E_NOMEM;
		for (i = before; i < fl->nabsent; i++)
			nicfit__fleet_anom_host(a, x, fl->nhosts + i);
		x->message = nicfit__fleet_intern_fmt(a,
						      "expected but sent nothing (%zu of %zu "
						      "expected hosts)",
						      fl->nabsent - before, ec.n);
	}
	return a->err;
}

static int absent_hosts(struct fl_an *a, struct nicfit_error *err)
{
	int rc = unreadable_anomaly(a);

	if (rc || !a->o || !a->o->expect)
		return rc;
	return expect_hosts(a, err);
}

/* ---- the whole fleet ----------------------------------------------------------------------- */

struct anom_order {
	enum nicfit_severity sev;
	int group;
	const char *code, *subject;
	size_t idx;
};

static int anom_order_cmp(const void *x, const void *y)
{
	const struct anom_order *a = x, *b = y;
	int c;

	if (a->sev != b->sev)
		return a->sev > b->sev ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	c = strcmp(a->code, b->code);
	if (c)
		return c;
	c = strcmp(a->subject, b->subject);
	return c ? c : (a->idx < b->idx ? -1 : a->idx > b->idx);
}

static int common_cmp(const void *x, const void *y)
{
	const struct nicfit_finding *a = x, *b = y;
	int c;

	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	c = strcmp(a->code, b->code);
	if (c)
		return c;
	return strcmp(a->device ? a->device : "", b->device ? b->device : "");
}

/*
 * A host's status before the anomalies: the worst of its own audit's
 * findings, but only from a warning up. An info finding is a fact, not a
 * problem, and a fleet of hosts that each have one is a clean fleet.
 */
static void publish_hosts(struct nicfit_fleet *fl)
{
	size_t i;

	for (i = 0; i < fl->nhosts; i++) {
		struct nicfit_fleet_host *h = &fl->pub_hosts[i];
		const struct fl_host *fh = &fl->hosts[i];

		h->name = fl_str(&fl->st, fh->name);
		h->audited = 1;
		h->reported = fh->reported ? fl_str(&fl->st, fh->reported) : NULL;
		h->input = fl_str(&fl->st, fh->input);
		h->line = fh->line;
		h->group = fh->group;
		h->own = fh->own;
		h->status = fh->own >= NICFIT_SEV_WARNING ? fh->own : NICFIT_SEV_NONE;
	}
	for (i = 0; i < fl->nabsent; i++) {
		struct nicfit_fleet_host *h = &fl->pub_hosts[fl->nhosts + i];

		/* status from the anomalies that name it (unless --ignore'd) */
		h->name = fl_str(&fl->st, fl->absent[i]);
		h->group = -1;
		h->status = NICFIT_SEV_NONE;
	}
}

/*
 * The anomalies worst first (then by group, code and subject), and the
 * hosts they name: an anomaly from a warning up raises the status of each
 * host it names to its own severity, as the host's own findings do.
 */
static void publish_anomalies(struct nicfit_fleet *fl, struct anom_order *ord, size_t n)
{
	size_t i, j;

	for (i = 0, j = 0; i < fl->nanoms; i++) {
		const struct fl_anom *x = &fl->anoms[i];

		if (x->dropped)
			continue;
		ord[j].sev = x->sev;
		ord[j].group = x->group;
		ord[j].code = fl_str(&fl->st, x->code);
		ord[j].subject = x->subject ? fl_str(&fl->st, x->subject) : "";
		ord[j].idx = i;
		j++;
	}
	qsort(ord, n, sizeof(*ord), anom_order_cmp);
	for (i = 0; i < n; i++) {
		const struct fl_anom *x = &fl->anoms[ord[i].idx];
		struct nicfit_fleet_anomaly *p = &fl->pub_anoms[i];

		p->severity = x->sev;
		p->code = fl_str(&fl->st, x->code);
		p->attribute = x->attribute;
		p->group = x->group;
		p->device = x->dev ? fl_str(&fl->st, x->dev) : NULL;
		p->subject = x->subject ? fl_str(&fl->st, x->subject) : NULL;
		p->majority = x->majority;
		p->expected = x->expected ? fl_str(&fl->st, x->expected) : NULL;
		p->nhosts = x->nhosts;
		p->hosts = x->nhosts ? fl->ahosts + x->host_off : NULL;
		p->nvalues = x->nvals;
		p->values = x->nvals ? fl->pub_vals + x->val_off : NULL;
		p->message = x->message ? fl_str(&fl->st, x->message) : "";
		for (j = 0; j < x->nhosts; j++) {
			struct nicfit_fleet_host *h = &fl->pub_hosts[p->hosts[j]];

			h->nanomalies++;
			if (x->sev >= NICFIT_SEV_WARNING && x->sev > h->status)
				h->status = x->sev;
		}
	}
	fl->nanoms_pub = n;
}

/* The groups, their common findings sorted, and their hosts counted by status. */
static void publish_groups(struct nicfit_fleet *fl, const struct fl_grp *groups, size_t ng)
{
	size_t i, j;

	for (i = 0; i < ng; i++) {
		struct nicfit_fleet_group *g = &fl->groups[i];

		g->signature = fl_str(&fl->st, groups[i].sig);
		g->label = fl_str(&fl->st, groups[i].label);
		g->product = groups[i].product ? fl_str(&fl->st, groups[i].product) : NULL;
		g->nhosts = groups[i].n;
		g->hosts = fl->group_hosts + groups[i].off;
		g->ncommon = groups[i].ncommon;
		g->common = fl->commons ? fl->commons + groups[i].coff : NULL;
		if (groups[i].ncommon)
			qsort(fl->commons + groups[i].coff, groups[i].ncommon, sizeof(*fl->commons),
			      common_cmp);
		for (j = 0; j < g->nhosts; j++) {
			enum nicfit_severity st = fl->pub_hosts[g->hosts[j]].status;

			if (st == NICFIT_SEV_CRITICAL)
				g->critical++;
			else if (st == NICFIT_SEV_WARNING)
				g->warning++;
			else
				g->clean++;
		}
	}
	fl->ngroups = ng;
}

static int publish(struct fl_an *a, struct fl_grp *groups, size_t ng)
{
	struct nicfit_fleet *fl = a->fl;
	struct anom_order *ord;
	size_t i, n = 0, nall = fl->nhosts + fl->nabsent;

	for (i = 0; i < fl->nanoms; i++)
		n += !fl->anoms[i].dropped;
	ord = calloc(n ? n : 1, sizeof(*ord));
	fl->pub_anoms = calloc(n ? n : 1, sizeof(*fl->pub_anoms));
	fl->pub_vals = calloc(fl->navals ? fl->navals : 1, sizeof(*fl->pub_vals));
	fl->pub_hosts = calloc(nall ? nall : 1, sizeof(*fl->pub_hosts));
	fl->groups = calloc(ng ? ng : 1, sizeof(*fl->groups));
	if (!ord || !fl->pub_anoms || !fl->pub_vals || !fl->pub_hosts || !fl->groups) {
		free(ord);
		return NICFIT_E_NOMEM;
	}
	for (i = 0; i < fl->navals; i++) {
		const struct fl_value_int *v = &fl->avals[i];

		fl->pub_vals[i].value = fl_str(&fl->st, v->shown);
		fl->pub_vals[i].count = v->count;
		fl->pub_vals[i].hosts = fl->ahosts + v->host_off;
		fl->pub_vals[i].majority = v->majority;
	}
	publish_hosts(fl);
	publish_anomalies(fl, ord, n);
	free(ord);
	publish_groups(fl, groups, ng);
	return 0;
}

/* The working arrays, by key and by host. Returns 0 or NICFIT_E_NOMEM. */
static int an_init(struct fl_an *a, struct nicfit_fleet *fl, const struct nicfit_fleet_opts *o)
{
	memset(a, 0, sizeof(*a));
	a->fl = fl;
	a->o = o;
	a->first = calloc(fl->nkeys, sizeof(*a->first));
	a->cnt = calloc(fl->nkeys, sizeof(*a->cnt));
	a->last = calloc(fl->nkeys, sizeof(*a->last));
	a->last2 = calloc(fl->nkeys, sizeof(*a->last2));
	a->flags = calloc(fl->nkeys, 1);
	a->touched = calloc(fl->nkeys ? fl->nkeys : 1, sizeof(*a->touched));
	a->mark = calloc(fl->nhosts + 1, 1);
	if ((fl->nkeys && (!a->first || !a->cnt || !a->last || !a->last2 || !a->flags)) ||
	    !a->touched || !a->mark)
		return NICFIT_E_NOMEM;
	return 0;
}

static void an_release(struct fl_an *a)
{
	free(a->first);
	free(a->cnt);
	free(a->last);
	free(a->last2);
	free(a->flags);
	free(a->touched);
	free(a->mark);
	free(a->g);
	free(a->vh);
	free(a->t);
}

int nicfit_fleet_analyze(struct nicfit_fleet *fl, const struct nicfit_fleet_opts *o,
			 struct nicfit_error *err)
{
	struct fl_an a;
	struct fl_grp *groups = NULL;
	size_t i, ng = 0;
	int rc;

	if (fl->in.open)
		return nicfit_error_set(err, NICFIT_E_USAGE, "fleet: analyse after the input ends");
	nicfit__fleet_results_release(fl);
	if (fl->oom)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	if (!fl->nhosts)
		return nicfit_error_set(err, NICFIT_E_DATA, "no audit document could be read%s",
					fl->problems_total ? " (see the problems above)" : "");
	rc = an_init(&a, fl, o);
	if (!rc)
		rc = nicfit__fleet_make_groups(&a, &groups, &ng);
	if (rc)
		goto out;
	for (i = 0; i < ng && !a.err; i++) {
		groups[i].coff = fl->ncommons;
		nicfit__fleet_compare_group(&a, (int)i, fl->group_hosts + groups[i].off,
					    groups[i].n);
		groups[i].ncommon = fl->ncommons - groups[i].coff;
	}
	if (!a.err)
		nicfit__fleet_compare_families(&a, groups, ng);
	if (!a.err) {
		rc = absent_hosts(&a, err);
		if (rc)
			goto out;
	}
	if (a.err) {
		rc = a.err;
		goto out;
	}
	rc = publish(&a, groups, ng);
	if (!rc)
		fl->analyzed = 1;
out:
	if (rc == NICFIT_E_NOMEM)
		nicfit_error_set(err, rc, "out of memory");
	an_release(&a);
	free(groups);
	return rc;
}
