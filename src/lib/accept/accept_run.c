/*
 * accept_run.c - nicfit_accept_run(): a plan request in, its acceptance
 * runbook out, the spec-in, document-out form POST /api/accept answers
 * with (the same keys as plan's, and the runbook's own: hosts, launcher,
 * read). A host's runbook is the command line's alone: the server reads
 * no host but the one --allow-audit names, and judges no results
 * directory.
 */
#include <stdlib.h>
#include <string.h>

#include "nicfit/accept.h"
#include "nicfit/catalog.h"
#include "accept/accept_int.h"

/* The runbook's own keys, taken (and marked used) before the plan reads the rest. */
static int own_keys(struct nicfit_spec *spec, const char **hosts, struct nicfit_accept_system *sys,
		    struct nicfit_error *err)
{
	const char *launcher = nicfit_spec_get(spec, "launcher");
	const char *read = nicfit_spec_get(spec, "read");

	*hosts = nicfit_spec_get(spec, "hosts");
	if (launcher && strcmp(launcher, "mpirun") && strcmp(launcher, "srun")) {
		nicfit_error_set(err, NICFIT_E_USAGE, "'%.32s' is not mpirun or srun", launcher);
		nicfit_spec_locate_error(spec, "launcher", err);
		return err ? err->code : NICFIT_E_USAGE;
	}
	if (read && strcmp(read, "true") && strcmp(read, "false")) {
		nicfit_error_set(err, NICFIT_E_USAGE, "'%.32s' is not true or false", read);
		nicfit_spec_locate_error(spec, "read", err);
		return err ? err->code : NICFIT_E_USAGE;
	}
	sys->launcher = launcher && !strcmp(launcher, "srun") ? NICFIT_ACCEPT_SRUN :
			NICFIT_ACCEPT_MPIRUN;
	sys->read = read && !strcmp(read, "true");
	return 0;
}

/* The host list, its error pointed at the spec's "hosts" key (a body's line and column). */
static int hosts_at_key(struct nicfit_spec *spec, struct nicfit_accept_system *sys,
			const char *hosts, struct nicfit_error *err)
{
	struct nicfit_error e2;
	const char *m;
	int rc;

	nicfit_error_clear(&e2);
	rc = nicfit_accept_set_hosts(sys, hosts, &e2);
	if (!rc || rc == NICFIT_E_NOMEM)
		return rc ? nicfit_error_set(err, rc, "out of memory") : 0;
	m = strncmp(e2.msg, "--hosts: ", 9) ? e2.msg : e2.msg + 9;
	nicfit_error_set(err, rc, "%s", m);
	nicfit_spec_locate_error(spec, "hosts", err);
	return err ? err->code : rc;
}

int nicfit_accept_run(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
		      struct nicfit_emit *e, struct nicfit_error *err)
{
	struct nicfit_accept_system sys, own;
	struct nicfit_accept *a = NULL;
	const char *hosts = NULL;
	int rc;

	memset(&own, 0, sizeof(own));
	rc = own_keys(spec, &hosts, &own, err);
	if (rc)
		return rc;
	rc = nicfit_accept_system_from_plan(cat, spec, &sys, err);
	if (rc)
		return rc;
	sys.launcher = own.launcher;
	sys.read = own.read;
	rc = hosts ? hosts_at_key(spec, &sys, hosts, err) : nicfit_accept_default_hosts(&sys, err);
	if (!rc)
		rc = nicfit_accept_new(&sys, &a, err);
	if (!rc)
		rc = nicfit_accept_render(a, e);
	nicfit_accept_free(a);
	free(sys.hosts);
	return rc;
}
