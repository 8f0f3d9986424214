/*
 * nicfit/ops.h - the audit and the fleet in the formats the systems admins
 * already run read: the Prometheus text exposition (node_exporter's
 * textfile collector, a Prometheus scrape), LBNL NHC's health-check
 * lines, and Kubernetes Node Feature Discovery's feature file.
 *
 * None of these is a view of a document built by the emitter: each is a
 * line format of its own, with its own quoting rules, written into a
 * nicfit_buf. Outside text (host names, device names, messages) goes
 * through the library's one escaper before the format's own quoting.
 *
 * Versions followed: Prometheus text exposition format 0.0.4 and the
 * metric and label naming practices of prometheus.io (base units: bytes
 * per second, seconds; "_info" for metadata; gauges for what an audit
 * measures now); LBNL NHC 1.4.3 (a check prints its failure through
 * die(): "ERROR:  nhc:  Health check failed:  MESSAGE", and a non-zero
 * status fails the node); Node Feature Discovery 0.16's local feature
 * files (features.d: "name=value" lines, name prefixed with a domain;
 * the "# +expiry-time=" directive of 0.14 and later).
 */
#ifndef NICFIT_OPS_H
#define NICFIT_OPS_H

#include "nicfit/buf.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nicfit_audit;
struct nicfit_fleet;

/* What the caller knows about the run itself (the library reads no clock). */
struct nicfit_ops_run {
	double duration_s;       /* how long discovery and judging took; < 0 unknown */
	double end_time_s;       /* when the run ended, seconds since the Unix epoch; < 0 unknown */
	double expiry_s;         /* NFD: the labels hold this long after end_time_s; <= 0 for ever */
};

/*
 * The audit as Prometheus metrics: per device the PCIe link now and
 * capable, the path's rate as negotiated and as capable; per GPU-NIC
 * pair the path class and whether GPUDirect RDMA is NCCL's default; per
 * RDMA port its state and rate; the findings by code and severity; the
 * run's duration and end time. run may be NULL. Metric names are listed
 * in docs/ops.md. Returns 0 or out's error (NICFIT_E_NOMEM, _LIMIT).
 */
int nicfit_audit_render_prom(const struct nicfit_audit *a, const struct nicfit_ops_run *run,
			     struct nicfit_buf *out);

/*
 * The analysed fleet as Prometheus metrics, one series per host: its
 * status, the anomalies naming it, whether its audit was read; and the
 * fleet's hosts, groups and anomalies by severity. Returns 0,
 * NICFIT_E_USAGE when nicfit_fleet_analyze has not run, or out's error.
 */
int nicfit_fleet_render_prom(const struct nicfit_fleet *fl, const struct nicfit_ops_run *run,
			     struct nicfit_buf *out);

/*
 * Judge a against its peers: ref names audits as `nicfit fleet` reads
 * them (a file, a pdsh/clush capture, a directory of them), the fleet's
 * or one known-good node's. a's own audit joins them, the fleet is
 * analysed, and each anomaly that names this host becomes a finding of a
 * (the fleet's code and severity, the fleet's message): where a strict
 * majority holds another value, or, without one, where no other host
 * shares this host's value. The audit's own findings are not added
 * twice. Errors: those of nicfit_fleet_add_path; NICFIT_E_DATA when ref
 * holds no audit; NICFIT_E_USAGE when it holds this host's own audit
 * (the same host name); NICFIT_E_NOMEM.
 */
int nicfit_audit_expect_fleet(struct nicfit_audit *a, const char *ref, struct nicfit_error *err);

/*
 * The audit as NHC failure lines: one line "CODE DEVICE: MESSAGE" per
 * finding from min_sev up that is not ignored (warnings and critical
 * findings when min_sev is NICFIT_SEV_WARNING), nothing when there is
 * none. The line holds no newline of its own: NHC's die() takes it as
 * one message. Returns 0 or out's error; *failures gets the number of
 * lines (the caller's exit status is non-zero when it is).
 */
int nicfit_audit_render_nhc(const struct nicfit_audit *a, int min_sev, struct nicfit_buf *out,
			    size_t *failures);

/*
 * The audit as an NFD local feature file: "nicfit.io/NAME=VALUE" lines
 * (gdr-ready, rdma-rate-gbps, rails, ...; docs/ops.md lists them) whose
 * values follow Kubernetes' label value syntax (63 characters at most,
 * alphanumerics, '-', '_' and '.', starting and ending alphanumeric).
 * With run's end time and a positive expiry_s, the file opens with NFD's
 * directive "# +expiry-time=YYYY-MM-DDTHH:MM:SSZ" (RFC 3339, UTC; NFD 0.14
 * and later drop the labels after it, older releases read a comment), so
 * that labels a node no longer refreshes (the DaemonSet removed, the audit
 * failing) do not stay on it for ever. run may be NULL (no directive).
 * Returns 0 or out's error.
 */
int nicfit_audit_render_nfd(const struct nicfit_audit *a, const struct nicfit_ops_run *run,
			    struct nicfit_buf *out);

#ifdef __cplusplus
}
#endif

#endif
