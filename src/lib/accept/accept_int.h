/*
 * accept_int.h - what the accept sources share (internal).
 *
 *   accept.c         the runbook: stages in burn-in order, their bands, their steps
 *   accept_band.c    each stage's band: the ceiling's formula, the typical and broken lines
 *   accept_cmd.c     a step's command line (text, or the script's with the tools' folders)
 *   accept_system.c  the system of a plan request or of an audited host; host lists
 *   accept_planfile.c the system of a saved plan (plan -j's JSON read back)
 *   accept_judge.c   a results directory read with verify's readers, steps judged
 *   accept_summary.c failing steps' causes and next commands; per-host and per-rail sums
 *   accept_render.c  text, JSON and Markdown
 *   accept_script.c  the bash script
 *   accept_run.c     spec in, runbook out (POST /api/accept)
 *
 * The runbook is built once from the system; judging fills the steps'
 * status; rendering reads both. No cycles: accept.c calls the band and
 * command builders, accept_judge.c the summary.
 */
#ifndef NICFIT_ACCEPT_INT_H
#define NICFIT_ACCEPT_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "accept_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include "nicfit/accept.h"
#include "nicfit/buf.h"

/*
 * Small clusters are tested in all pairs: each host meets every other,
 * so a bad port shows in all of its pairs and nowhere else. Above this
 * the pairs grow as N^2 (32 nodes: 496 pairs x 8 rails), and a ring
 * (each host with its two neighbours) isolates a host's fault in N pairs:
 * a host low in both its pairs is the host. A pair low alone leaves two
 * suspects (either end, or the route between them), which a second,
 * bisection round halves: each host with the host half the ring away
 * (ceil(N/2) pairs more), so each suspect meets a third host over other
 * switch ports.
 */
#define NICFIT__ACCEPT_ALL_PAIRS_MAX 8

/* GPUs a node the pairing of rails and GPUs tracks. */
#define NICFIT__ACCEPT_MAX_GPUS 64

/* Fill stage's band (formula heap-allocated). Returns 0, or NICFIT_E_NOMEM. */
int nicfit__accept_band(const struct nicfit_accept_system *sys, struct nicfit_accept_stage *st);

/* One NIC's goodput on the system's rails (Gb/s, after the PCIe share); 0 unknown. */
double nicfit__accept_rail_goodput(const struct nicfit_accept_system *sys);

/*
 * Append step s's command to b: the server's (server 1) or the measuring
 * one's. bindir is the folder the test binaries are named under ("" bare,
 * as the text shows them; "$TESTS/" in the script). ssh wraps each
 * command in the script; here it is the command as run on its host.
 */
void nicfit__accept_command(const struct nicfit_accept *a, const struct nicfit_accept_step *s,
			    int server, const char *bindir, struct nicfit_buf *b);

/* Name safe in a command line and a file name: letters, digits, '.', '-', '_'. */
int nicfit__accept_name_ok(const char *s);

/* One uploaded result: a step's name (without .txt) and its output. */
struct nicfit__accept_result {
	const char *name;
	const char *text;
	size_t len;
};

/*
 * Judge the runbook on results given in memory (r, sorted here), as
 * nicfit_accept_judge judges a directory's files; label names them in
 * the report. Errors: NICFIT_E_DATA for a name given twice, NOMEM.
 */
int nicfit__accept_judge_results(struct nicfit_accept *a, const char *label,
				 struct nicfit__accept_result *r, size_t n, struct nicfit_error *err);

/* accept_summary.c: causes and next command of every failing step; odd hosts. */
int nicfit__accept_summarise(struct nicfit_accept *a, const char *causes);
/* Where each rail's failing pairs put the fault (a->isolated). Returns 0 or NICFIT_E_NOMEM. */
int nicfit__accept_isolate(struct nicfit_accept *a);
/* Steps on host h (or on rail r, across every pair) by status, into counts[5]. */
void nicfit__accept_host_counts(const struct nicfit_accept *a, int h, size_t counts[5]);
void nicfit__accept_rail_counts(const struct nicfit_accept *a, int r, size_t counts[5]);
/* The step failed: low, broken or missing. */
int nicfit__accept_failed(const struct nicfit_accept_step *s);

/* The number shown for a figure: GB/s for busbw, Gb/s otherwise. */
double nicfit__accept_shown(const struct nicfit_accept_band *b, double gbps);
const char *nicfit__accept_unit(const struct nicfit_accept_band *b);

#endif
