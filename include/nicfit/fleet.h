/*
 * nicfit/fleet.h - compare the audits of many hosts and name the odd ones.
 *
 * Clusters fail one node at a time: a NIC trained at x8 where its peers run
 * x16, a port left in InfiniBand mode, a GPU on the other socket after a
 * repair. nicfit does not run anything remotely; admins already gather
 * `nicfit audit --json` with pdsh, clush, Ansible or Slurm. This module
 * reads what those tools bring back and compares it.
 *
 * Result. nicfit_fleet_new() allocates a fleet, which owns everything it
 * reads and computes; nicfit_fleet_free() frees all of it. Input is fed in
 * (begin/feed/end, or the file helpers), then nicfit_fleet_analyze()
 * computes the result inside the fleet, read through the accessors below:
 * groups, anomalies, host statuses, and per group the findings every host
 * reported. An anomaly is a finding of the fleet's own (severity on the
 * one scale of nicfit/finding.h, a registered code, a message) that also
 * carries the hosts named and every value seen; a common finding is a
 * struct nicfit_finding. What the analysis accessors return, strings
 * included, lives until the next nicfit_fleet_analyze() or
 * nicfit_fleet_free(); once more input begins they return nothing until
 * the fleet is analysed again. An input problem lives until more input is
 * fed.
 *
 * Input. A fleet is fed streams (files, standard input, an HTTP body) and
 * finds the audit documents in them, whatever wrapped them:
 *   - plain JSON documents one after another, compact or pretty-printed;
 *   - "host: text" lines as pdsh and clush print them, one host's document
 *     spread over many lines and interleaved with other hosts' lines
 *     (reassembled per host), and "NN: text" lines of `srun --label`;
 *   - blocks under a "----- / hosts / -----" header (clush -b, dshbak -c)
 *     and under "host | CHANGED | rc=0 >>" (Ansible's ad-hoc output);
 *   - Ansible's JSON callback ({"plays":[{"tasks":[{"hosts":{...}}]}]}),
 *     whose per-host "stdout" holds the audit;
 *   - a directory: every regular file in it, in name order.
 * A document that is truncated, malformed or not an audit is not fatal: it
 * becomes a problem (input, line, column, host when known) and the rest is
 * read. A host read twice keeps its later document (a rerun appended to the
 * same capture is newer) and the earlier one is reported as a duplicate.
 *
 * Analysis. Hosts are grouped by hardware signature: the server model (DMI
 * product) when the audit gives it, and the GPUs, accelerators and NICs by
 * PCI ID and address. Within a group, every comparable attribute (per
 * device: link speed and width now and capable, path bandwidth, NUMA node,
 * part number, driver and firmware; per network port: netdev and RDMA
 * presence, state, rate, link layer, MTU; per GPU-NIC pair: path class and
 * the GPUDirect default; per host: NUMA node count, kernel, GPU driver, the
 * audit's findings and unchecked items) is tallied, and the hosts that
 * differ from a strict majority are named. When no value holds a strict
 * majority (two hosts that differ, a half-done rollout) the difference is
 * reported without calling anyone odd. A value that an audit does not give
 * is unknown and never counts as a difference. Groups of the same server
 * model (or of the same parts, when the model is unknown) are compared with
 * the model's majority group to catch missing, extra or moved devices.
 *
 * Severity. Each anomaly has one, on the scale every engine uses (see
 * docs/json-fleet.md for the table, docs/findings.md for the codes); a
 * host's status is the worst, from a warning up, of its own audit findings
 * and of the anomalies that name it; nicfit_fleet_exit_status() gives 0, 1
 * or 2 as audit does.
 *
 * Memory is bounded: each document, the documents still open at once and
 * the number of hosts have limits (struct nicfit_fleet_limits).
 */
#ifndef NICFIT_FLEET_H
#define NICFIT_FLEET_H

#include <stddef.h>

#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "nicfit/finding.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nicfit_fleet_limits {
	size_t max_doc_bytes;     /* one audit document (default 16 MiB) */
	size_t max_bundle_bytes;  /* one Ansible JSON document (default 1 GiB) */
	size_t max_open_bytes;    /* documents unfinished at once (default 1 GiB) */
	size_t max_hosts;         /* hosts in the fleet (default 100000) */
	size_t max_problems;      /* problems kept in detail (default 1000) */
};

#define NICFIT_FLEET_MAX_DOC_DEFAULT ((size_t)16 << 20)
#define NICFIT_FLEET_MAX_BUNDLE_DEFAULT ((size_t)1 << 30)
#define NICFIT_FLEET_MAX_OPEN_DEFAULT ((size_t)1 << 30)
#define NICFIT_FLEET_MAX_HOSTS_DEFAULT 100000
#define NICFIT_FLEET_MAX_PROBLEMS_DEFAULT 1000

/* An input problem: a document that could not be used, or a duplicate. */
enum nicfit_fleet_problem_kind {
	NICFIT_FLEET_UNREADABLE,  /* truncated, malformed, not an audit, no output */
	NICFIT_FLEET_DUPLICATE,   /* a host read again; the later document is kept */
	NICFIT_FLEET_IGNORED      /* text that is neither JSON nor a host line */
};

struct nicfit_fleet_problem {
	enum nicfit_fleet_problem_kind kind;
	const char *host;        /* the host concerned, NULL when unknown */
	struct nicfit_error where; /* input, line, col and a one-line message */
};

struct nicfit_fleet;

/*
 * A new, empty fleet. lim may be NULL (defaults); zero fields take their
 * default. Returns 0 or NICFIT_E_NOMEM.
 */
int nicfit_fleet_new(struct nicfit_fleet **out, const struct nicfit_fleet_limits *lim);
void nicfit_fleet_free(struct nicfit_fleet *fl);

/*
 * Feed one input stream in pieces of any size: begin, feed..., end.
 * name names the input in messages ("pdsh.out", "-" is shown as
 * "<stdin>"); fallback_host, when not NULL, names the host of a document
 * that carries no host name and no label (a file per host). Only one
 * stream is open at a time. Errors (fatal for the whole fleet):
 * NICFIT_E_LIMIT (too many hosts, too much unfinished text),
 * NICFIT_E_NOMEM, NICFIT_E_USAGE (calls out of order). Bad documents are
 * problems, not errors.
 */
int nicfit_fleet_begin(struct nicfit_fleet *fl, const char *name, const char *fallback_host,
		       struct nicfit_error *err);
int nicfit_fleet_feed(struct nicfit_fleet *fl, const void *data, size_t len,
		      struct nicfit_error *err);
int nicfit_fleet_end(struct nicfit_fleet *fl, struct nicfit_error *err);

/*
 * Read a file or every regular file of a directory (sorted by name; names
 * starting with '.' skipped). A file per host gets its name (without
 * ".json") as fallback host name. Errors: NICFIT_E_NOTFOUND, NICFIT_E_IO
 * (the path given; a file of a directory that cannot be read is that
 * host's unreadable problem instead), and those of nicfit_fleet_feed.
 */
int nicfit_fleet_add_path(struct nicfit_fleet *fl, const char *path, struct nicfit_error *err);

/*
 * A host whose audit could not be had at all (its dumps unreadable, its
 * file unreadable): an unreadable problem naming host, with why's input,
 * position and message, so that the host is in the report (and its exit
 * status: audit-unreadable) and the rest of the fleet is read. Not while
 * a stream is open (NICFIT_E_USAGE); NICFIT_E_NOMEM.
 */
int nicfit_fleet_add_unreadable(struct nicfit_fleet *fl, const char *host,
				const struct nicfit_error *why, struct nicfit_error *err);

/* Read an open file descriptor to its end as one input named name. */
int nicfit_fleet_add_fd(struct nicfit_fleet *fl, int fd, const char *name,
			struct nicfit_error *err);

/* Audits read so far (distinct hosts). */
size_t nicfit_fleet_nhosts(const struct nicfit_fleet *fl);

/*
 * Input problems so far, in the order found: at most max_problems are
 * kept; nicfit_fleet_nproblems_total() counts all of them.
 */
size_t nicfit_fleet_nproblems(const struct nicfit_fleet *fl);
size_t nicfit_fleet_nproblems_total(const struct nicfit_fleet *fl);
const struct nicfit_fleet_problem *nicfit_fleet_problem(const struct nicfit_fleet *fl, size_t i);

/* ---- analysis ------------------------------------------------------------ */

struct nicfit_fleet_opts {
	/*
	 * Hosts that should have answered: a count ("64"), or a host list in
	 * pdsh/clush syntax ("gpu[001-064],login1"). Hosts missing from the
	 * input become a critical "host-missing" anomaly. NULL: no check.
	 */
	const char *expect;
	/*
	 * Codes not to report (exact names): fleet's own, or a finding code of
	 * the hosts' audits. NULL-terminated, or NULL. Taken as given; a
	 * caller checks users' codes first with nicfit_code_check_ignore()
	 * (NICFIT_ENGINE_FLEET | NICFIT_ENGINE_AUDIT), as `nicfit fleet` does.
	 */
	const char *const *ignore;
};

/* A value and the hosts that have it, within one anomaly. */
struct nicfit_fleet_value {
	const char *value;       /* as shown ("x16", "NUMA 1", "absent") */
	size_t count;            /* hosts with this value */
	const size_t *hosts;     /* their indices (nicfit_fleet_host_name) */
	int majority;            /* this is the strict-majority value */
};

struct nicfit_fleet_anomaly {
	enum nicfit_severity severity; /* never NICFIT_SEV_NONE */
	const char *code;        /* fleet's ("link-width", "hardware-differs"), or a host's finding code */
	const char *attribute;   /* what was compared ("link.current_width", "finding") */
	int group;               /* 0-based group, -1 for the whole fleet */
	const char *device;      /* BDF or NULL */
	const char *subject;     /* "0000:31:00.0 ConnectX-6 Dx", "port 1", ... */
	int majority;            /* 1: the named hosts differ from a strict majority */
	const char *expected;    /* the majority value shown, NULL when none */
	size_t nhosts;           /* hosts named: the odd (or worse) ones */
	const size_t *hosts;
	size_t nvalues;          /* every value seen, majority first */
	const struct nicfit_fleet_value *values;
	const char *message;     /* one line, without the host names */
};

struct nicfit_fleet_group {
	const char *signature;   /* canonical: model + devices with PCI IDs and addresses */
	const char *label;       /* short: "PowerEdge R740xd: 2x NVIDIA A40, 1x ConnectX-6 Dx" */
	const char *product;     /* DMI product, NULL when unknown */
	size_t nhosts;
	const size_t *hosts;
	size_t clean, warning, critical; /* hosts by status (info-only hosts are clean) */
	/*
	 * Findings every host of the group reported: severity (the worst seen),
	 * the audit's code, device (NULL when it names none) and the first
	 * host's message; no fix or source. They point into the fleet's
	 * strings: read them, never pass them to nicfit_findings_release().
	 */
	size_t ncommon;
	const struct nicfit_finding *common;
};

struct nicfit_fleet_host {
	const char *name;        /* label (pdsh, clush, Ansible) or the audit's host */
	int audited;             /* 0: no usable audit (unreadable, or expected and silent) */
	const char *reported;    /* the host name inside the audit, NULL when none */
	const char *input;       /* where its audit was read */
	long line;
	int group;
	enum nicfit_severity status; /* worst of own findings and anomalies naming it */
	enum nicfit_severity own;    /* worst severity of its own findings (NONE: none) */
	size_t nanomalies;       /* anomalies that name it */
};

/*
 * Analyse what was read. Can be called again after more input. Results
 * live in fl until the next analysis or nicfit_fleet_free. Errors:
 * NICFIT_E_DATA when no audit was read, NICFIT_E_USAGE for a bad expect
 * list, NICFIT_E_NOMEM (also when memory ran out while the input's
 * problems were recorded: the result would miss them).
 */
int nicfit_fleet_analyze(struct nicfit_fleet *fl, const struct nicfit_fleet_opts *o,
			 struct nicfit_error *err);

/*
 * Hosts after analysis: indices [0, nicfit_fleet_nhosts) have audits; the
 * nicfit_fleet_nabsent() hosts after them have none (their audit could not
 * be read, or --expect named them and they sent nothing).
 */
size_t nicfit_fleet_nabsent(const struct nicfit_fleet *fl);
size_t nicfit_fleet_ngroups(const struct nicfit_fleet *fl);
const struct nicfit_fleet_group *nicfit_fleet_group(const struct nicfit_fleet *fl, size_t i);
size_t nicfit_fleet_nanomalies(const struct nicfit_fleet *fl);
const struct nicfit_fleet_anomaly *nicfit_fleet_anomaly(const struct nicfit_fleet *fl, size_t i);
const struct nicfit_fleet_host *nicfit_fleet_host(const struct nicfit_fleet *fl, size_t i);
const char *nicfit_fleet_host_name(const struct nicfit_fleet *fl, size_t i);

/* 0 clean, 1 worst is a warning, 2 something critical (hosts or anomalies). */
int nicfit_fleet_exit_status(const struct nicfit_fleet *fl);

/* Render flags. */
#define NICFIT_FLEET_ALL_HOSTS 0x1u /* text/MD: list every host, never "and N more" */

/*
 * Render the analysed fleet: text (summary, groups, one line per anomaly,
 * common findings, input problems), JSON (nicfit.fleet.v1), Markdown for
 * tickets, CSV (one row per anomaly). Returns 0 or NICFIT_E_USAGE when
 * nicfit_fleet_analyze has not run.
 */
int nicfit_fleet_render(struct nicfit_emit *e, const struct nicfit_fleet *fl, unsigned flags);

/* ---- host lists (pdsh / clush syntax) --------------------------------------- */

/*
 * Fold names into a host list: "gpu001,gpu002,gpu003,gpu007" becomes
 * "gpu[001-003,007]". Names keep their input order within each prefix; at
 * most max_names names are written (0: all), then " and N more". Appends
 * to out.
 */
struct nicfit_buf;
void nicfit_hostlist_fold(const char *const *names, size_t n, size_t max_names,
			  struct nicfit_buf *out);

/*
 * Expand a host list ("gpu[001-003,007],login[1-2]") calling fn for each
 * name. At most max names; more is NICFIT_E_LIMIT. Errors: NICFIT_E_USAGE
 * for a malformed list (message names the column).
 */
int nicfit_hostlist_expand(const char *list, size_t max,
			   int (*fn)(void *ctx, const char *name), void *ctx,
			   struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
