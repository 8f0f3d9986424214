/*
 * host.h - this host (or a sysfs snapshot) as the server of a plan: used by
 * `plan --from-host` and `audit --plan`.
 */
#ifndef NICFIT_CLI_HOST_H
#define NICFIT_CLI_HOST_H

#include "cli.h"
#include "nicfit/audit.h"
#include "nicfit/catalog.h"
#include "nicfit/spec.h"

/*
 * Add the audited host to cat as catalog server "this-host" and make it the
 * plan's server unless spec names one; also the host's GPU model and count
 * when spec gives none and the catalog knows the GPU. A virtual machine is
 * refused (exit 65) unless spec names the server: its slots are not real.
 * Returns 0 or an exit code after printing the error.
 */
int cli_host_into_spec(struct nicfit_catalog *cat, const struct nicfit_audit *a,
		       struct nicfit_spec *spec);

/*
 * Discover and audit root ("/" when NULL or empty; a snapshot archive is
 * unpacked) for planning. On success *topo and *audit are set (free them
 * with nicfit_audit_free and nicfit_topo_free). Returns 0 or an exit code.
 */
int cli_host_audit(struct nicfit_catalog *cat, const char *root, struct nicfit_topo **topo,
		   struct nicfit_audit **audit);

/*
 * An error that names tree, the directory archive was unpacked into (or a
 * path inside it), names archive instead: the user gave the archive, and
 * the tree is gone by the time the error is read.
 */
void cli_host_name_archive(struct nicfit_error *err, const char *tree, const char *archive);

#endif
