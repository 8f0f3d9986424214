/*
 * fleet.c - the fleet object: its making and freeing, and what callers
 * read of it (see nicfit/fleet.h). Reading input is fleet_stream.c's and
 * fleet_files.c's, analysis fleet_analyze.c's; this file only owns the
 * object and answers questions about what the last analysis published.
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"
#include "core/jscan_int.h"

/* ---- the fleet object ---------------------------------------------------------------------- */

static size_t or_default(size_t v, size_t d)
{
	return v ? v : d;
}

int nicfit_fleet_new(struct nicfit_fleet **out, const struct nicfit_fleet_limits *lim)
{
	struct nicfit_fleet *fl = calloc(1, sizeof(*fl));

	*out = NULL;
	if (!fl)
		return NICFIT_E_NOMEM;
	if (lim)
		fl->lim = *lim;
	fl->read_doc = nicfit__fleet_audit_doc;
	fl->lim.max_doc_bytes = or_default(fl->lim.max_doc_bytes, NICFIT_FLEET_MAX_DOC_DEFAULT);
	fl->lim.max_bundle_bytes = or_default(fl->lim.max_bundle_bytes,
					      NICFIT_FLEET_MAX_BUNDLE_DEFAULT);
	fl->lim.max_open_bytes = or_default(fl->lim.max_open_bytes, NICFIT_FLEET_MAX_OPEN_DEFAULT);
	fl->lim.max_hosts = or_default(fl->lim.max_hosts, NICFIT_FLEET_MAX_HOSTS_DEFAULT);
	fl->lim.max_problems = or_default(fl->lim.max_problems,
					  NICFIT_FLEET_MAX_PROBLEMS_DEFAULT);
	nicfit__jscan_init(&fl->js);
	if (!nicfit__fleet_intern0(&fl->st, "")) {
		/* id of "" is never 0; a 0 means the table could not start */
		nicfit_fleet_free(fl);
		return NICFIT_E_NOMEM;
	}
	*out = fl;
	return 0;
}

void nicfit_fleet_free(struct nicfit_fleet *fl)
{
	size_t i;

	if (!fl)
		return;
	nicfit__fleet_input_release(fl);
	nicfit__fleet_results_release(fl);
	for (i = 0; i < fl->nproblems; i++)
		free((char *)fl->problems[i].host);
	free(fl->problems);
	free(fl->problem_hosts);
	free(fl->hosts);
	free(fl->host_slots);
	free(fl->attrs);
	free(fl->devs);
	free(fl->spans);
	free(fl->span_slots);
	free(fl->keys);
	free(fl->key_hk);
	free(fl->key_slots);
	free(fl->scratch);
	nicfit__jscan_release(&fl->js);
	nicfit__fleet_strtab_release(&fl->st);
	free(fl);
}

size_t nicfit_fleet_nhosts(const struct nicfit_fleet *fl)
{
	return fl->nhosts;
}

size_t nicfit_fleet_nproblems(const struct nicfit_fleet *fl)
{
	return fl->nproblems;
}

size_t nicfit_fleet_nproblems_total(const struct nicfit_fleet *fl)
{
	return fl->problems_total;
}

const struct nicfit_fleet_problem *nicfit_fleet_problem(const struct nicfit_fleet *fl, size_t i)
{
	return i < fl->nproblems ? &fl->problems[i] : NULL;
}

/* ---- results ------------------------------------------------------------------------------- */

size_t nicfit_fleet_nabsent(const struct nicfit_fleet *fl)
{
	return fl->analyzed ? fl->nabsent : 0;
}

size_t nicfit_fleet_ngroups(const struct nicfit_fleet *fl)
{
	return fl->analyzed ? fl->ngroups : 0;
}

const struct nicfit_fleet_group *nicfit_fleet_group(const struct nicfit_fleet *fl, size_t i)
{
	return fl->analyzed && i < fl->ngroups ? &fl->groups[i] : NULL;
}

size_t nicfit_fleet_nanomalies(const struct nicfit_fleet *fl)
{
	return fl->analyzed ? fl->nanoms_pub : 0;
}

const struct nicfit_fleet_anomaly *nicfit_fleet_anomaly(const struct nicfit_fleet *fl, size_t i)
{
	return fl->analyzed && i < fl->nanoms_pub ? &fl->pub_anoms[i] : NULL;
}

const struct nicfit_fleet_host *nicfit_fleet_host(const struct nicfit_fleet *fl, size_t i)
{
	return fl->analyzed && i < fl->nhosts + fl->nabsent ? &fl->pub_hosts[i] : NULL;
}

const char *nicfit_fleet_host_name(const struct nicfit_fleet *fl, size_t i)
{
	const struct nicfit_fleet_host *h = nicfit_fleet_host(fl, i);

	return h ? h->name : NULL;
}

/*
 * The exit status, as audit's: the worst of every host's status and every
 * anomaly, so a script can tell a clean fleet (0) from one to look at (1)
 * and one with something broken (2). An info anomaly alone leaves it 0.
 */
int nicfit_fleet_exit_status(const struct nicfit_fleet *fl)
{
	size_t i;
	enum nicfit_severity worst = NICFIT_SEV_NONE;

	if (!fl->analyzed)
		return 0;
	for (i = 0; i < fl->nhosts + fl->nabsent; i++)
		if (fl->pub_hosts[i].status > worst)
			worst = fl->pub_hosts[i].status;
	for (i = 0; i < fl->nanoms_pub; i++)
		if (fl->pub_anoms[i].severity > worst)
			worst = fl->pub_anoms[i].severity;
	return worst == NICFIT_SEV_CRITICAL ? 2 : worst == NICFIT_SEV_WARNING ? 1 : 0;
}
