/*
 * fleet_prom.c - the analysed fleet as Prometheus metrics (nicfit/ops.h):
 * one series per host for what a dashboard of the cluster shows (the
 * host's status, how many anomalies name it, whether its audit came back)
 * and the fleet's totals. A head node writes it for its node_exporter's
 * textfile collector after gathering the audits; the host names are label
 * values, escaped by prom.c. The text, JSON, Markdown and CSV views are
 * fleet_render.c.
 */
#include "fleet/fleet_int.h"
#include "core/prom_int.h"
#include "nicfit/fleet.h"
#include "nicfit/ops.h"

static int host_status(enum nicfit_severity s)
{
	return s == NICFIT_SEV_CRITICAL ? 2 : s == NICFIT_SEV_WARNING ? 1 : 0;
}

static void hosts(struct nicfit_buf *b, const struct nicfit_fleet *fl)
{
	size_t i, n = nicfit_fleet_nhosts(fl) + nicfit_fleet_nabsent(fl);

	nicfit__prom_family(b, "nicfit_fleet_host_audited", "gauge",
			    "1 when the host's audit was read, 0 when it sent nothing usable.");
	for (i = 0; i < n; i++)
		nicfit__prom_sample(b, "nicfit_fleet_host_audited", nicfit_fleet_host(fl, i)->audited,
				    "host", nicfit_fleet_host_name(fl, i), NULL);
	nicfit__prom_family(b, "nicfit_fleet_host_status", "gauge",
			    "The host's status: 0 clean, 1 warnings, 2 critical, from its own "
			    "findings and the anomalies that name it.");
	for (i = 0; i < n; i++)
		nicfit__prom_sample(b, "nicfit_fleet_host_status",
				    host_status(nicfit_fleet_host(fl, i)->status),
				    "host", nicfit_fleet_host_name(fl, i), NULL);
	nicfit__prom_family(b, "nicfit_fleet_host_anomalies", "gauge",
			    "Anomalies that name the host: where it differs from its peers.");
	for (i = 0; i < n; i++)
		nicfit__prom_sample(b, "nicfit_fleet_host_anomalies",
				    (double)nicfit_fleet_host(fl, i)->nanomalies,
				    "host", nicfit_fleet_host_name(fl, i), NULL);
}

static void totals(struct nicfit_buf *b, const struct nicfit_fleet *fl,
		   const struct nicfit_ops_run *run)
{
	static const enum nicfit_severity sev[] = { NICFIT_SEV_CRITICAL, NICFIT_SEV_WARNING,
						    NICFIT_SEV_INFO };
	size_t i, k, nx = nicfit_fleet_nanomalies(fl);

	nicfit__prom_family(b, "nicfit_fleet_hosts", "gauge", "Hosts whose audit was read.");
	nicfit__prom_sample(b, "nicfit_fleet_hosts", (double)nicfit_fleet_nhosts(fl), NULL);
	nicfit__prom_family(b, "nicfit_fleet_hosts_absent", "gauge",
			    "Hosts expected or seen whose audit could not be used.");
	nicfit__prom_sample(b, "nicfit_fleet_hosts_absent", (double)nicfit_fleet_nabsent(fl), NULL);
	nicfit__prom_family(b, "nicfit_fleet_groups", "gauge",
			    "Groups of hosts with the same hardware signature.");
	nicfit__prom_sample(b, "nicfit_fleet_groups", (double)nicfit_fleet_ngroups(fl), NULL);
	nicfit__prom_family(b, "nicfit_fleet_anomalies", "gauge", "Anomalies by severity.");
	for (k = 0; k < sizeof(sev) / sizeof(sev[0]); k++) {
		size_t n = 0;

		for (i = 0; i < nx; i++)
			n += nicfit_fleet_anomaly(fl, i)->severity == sev[k];
		nicfit__prom_sample(b, "nicfit_fleet_anomalies", (double)n,
				    "severity", nicfit_severity_name(sev[k]), NULL);
	}
	nicfit__prom_family(b, "nicfit_fleet_status", "gauge",
			    "The fleet's exit status: 0 clean, 1 warnings, 2 critical.");
	nicfit__prom_sample(b, "nicfit_fleet_status", nicfit_fleet_exit_status(fl), NULL);
	if (run && run->duration_s >= 0) {
		nicfit__prom_family(b, "nicfit_fleet_duration_seconds", "gauge",
				    "How long reading and comparing the audits took.");
		nicfit__prom_sample(b, "nicfit_fleet_duration_seconds", run->duration_s, NULL);
	}
	if (run && run->end_time_s >= 0) {
		nicfit__prom_family(b, "nicfit_fleet_last_run_timestamp_seconds", "gauge",
				    "When the last comparison ended, in seconds since the Unix epoch.");
		nicfit__prom_sample(b, "nicfit_fleet_last_run_timestamp_seconds", run->end_time_s,
				    NULL);
	}
}

int nicfit_fleet_render_prom(const struct nicfit_fleet *fl, const struct nicfit_ops_run *run,
			     struct nicfit_buf *out)
{
	if (!fl->analyzed)
		return NICFIT_E_USAGE;
	totals(out, fl, run);
	hosts(out, fl);
	return nicfit_buf_error(out);
}
