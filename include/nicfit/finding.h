/*
 * nicfit/finding.h - what every engine reports: findings and decisions,
 * on one severity scale, with every code in one registry.
 *
 * plan, cluster, audit and fleet each end in a list of records. A finding
 * is a problem or a fact worth knowing: a severity, a code from the
 * registry ("nic-pcie-starved"), optionally the device it is about, a
 * message in plain words with the numbers, a fix, and the source of the
 * rule. A decision is what a rule decided: the rule id ("R5", "C2") and
 * its text, with severity NICFIT_SEV_NONE. Both live in a struct
 * nicfit_findings, which grows as needed: nothing is dropped. When memory
 * runs out the list remembers it (oom), and the engine reports
 * NICFIT_E_NOMEM rather than a shorter list.
 *
 * The registry lists every code any engine can raise, with its default
 * severity, the engines that raise it and a one-line meaning. It is the
 * table of record behind docs/findings.md (nicfit_codes_render_md() writes
 * it; a test checks the file), `nicfit help findings`, and the check of
 * --ignore arguments. Inside the library codes are raised by enum
 * (src/lib/core/finding_int.h), so a code that is not registered does not
 * compile.
 *
 *	struct nicfit_findings fs = NICFIT_FINDINGS_INIT;
 *	...engine adds findings and decisions...
 *	for (i = 0; i < fs.n; i++)
 *		if (fs.v[i].severity == NICFIT_SEV_CRITICAL) ...
 *	nicfit_findings_release(&fs);
 */
#ifndef NICFIT_FINDING_H
#define NICFIT_FINDING_H

#include <stddef.h>

#include "nicfit/buf.h"
#include "nicfit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One scale for every engine, worst last. */
enum nicfit_severity {
	NICFIT_SEV_NONE = 0,     /* a decision; a host or group with no finding ("clean") */
	NICFIT_SEV_INFO = 1,
	NICFIT_SEV_WARNING = 2,
	NICFIT_SEV_CRITICAL = 3
};
#define NICFIT_SEV_COUNT 4

/* "clean", "info", "warning", "critical"; "?" out of range. */
const char *nicfit_severity_name(enum nicfit_severity s);
/* The inverse of nicfit_severity_name. Returns 0 or -1. */
int nicfit_severity_parse(const char *s, enum nicfit_severity *out);

/* The engines, as a bit set (who raises a code). */
#define NICFIT_ENGINE_PLAN 0x1u
#define NICFIT_ENGINE_CLUSTER 0x2u
#define NICFIT_ENGINE_AUDIT 0x4u
#define NICFIT_ENGINE_FLEET 0x8u
#define NICFIT_ENGINE_VERIFY 0x10u
#define NICFIT_ENGINE_ALL 0x1Fu

struct nicfit_finding {
	enum nicfit_severity severity; /* NICFIT_SEV_NONE for a decision */
	const char *code;        /* finding: registered code; decision: rule id (static) */
	char *device;            /* what it is about (BDF, port, switch), NULL none */
	char *message;           /* one paragraph, plain words, with the numbers */
	char *fix;               /* what to do, NULL none */
	const char *source;      /* where the rule or fact comes from, NULL none */
	int applied;             /* decisions: the rule decided something (else: considered) */
	int ignored;             /* matched an --ignore pattern: shown, not counted */
};

struct nicfit__texts;

/*
 * The records' strings (device, message, fix) are the list's: they are
 * kept in a few large blocks (texts) that nicfit_findings_release() frees
 * at once, and nothing else frees them.
 */
struct nicfit_findings {
	struct nicfit_finding *v; /* in the order they were made (see _sort) */
	size_t n, alloc;
	int oom;                 /* sticky: an add ran out of memory, the list is short */
	struct nicfit__texts *texts; /* the records' strings (finding.c) */
};

#define NICFIT_FINDINGS_INIT { NULL, 0, 0, 0, NULL }

void nicfit_findings_init(struct nicfit_findings *fs);
/* Free the records' strings and the array; fs is empty and usable again. */
void nicfit_findings_release(struct nicfit_findings *fs);

/* Findings (decisions left out) of severity s that no --ignore matched. */
size_t nicfit_findings_count(const struct nicfit_findings *fs, enum nicfit_severity s);
/* The worst severity among the counted findings (NICFIT_SEV_NONE: none). */
enum nicfit_severity nicfit_findings_worst(const struct nicfit_findings *fs);
/* Reorder: worst first, records of one severity in the order they were made. */
int nicfit_findings_sort(struct nicfit_findings *fs);

/* ---- the registry --------------------------------------------------------- */

struct nicfit_code_info {
	const char *code;              /* "nic-pcie-starved" */
	enum nicfit_severity severity; /* as it is usually raised */
	unsigned engines;              /* NICFIT_ENGINE_* that raise it */
	const char *meaning;           /* one line */
};

/* Every registered code, in the registry's order; *n gets the count. */
const struct nicfit_code_info *nicfit_codes(size_t *n);
/* The entry for code, or NULL. */
const struct nicfit_code_info *nicfit_code_lookup(const char *code);

/*
 * Check an --ignore argument for the engines given: "CODE" or
 * "CODE@DEVICE", CODE a registered code that one of them raises. An
 * unknown code is NICFIT_E_USAGE, "unknown finding code 'x'" with the
 * nearest registered one as "did you mean".
 */
int nicfit_code_check_ignore(const char *pattern, unsigned engines, const char *input,
			     struct nicfit_error *err);

/* The registry as Markdown: docs/findings.md. Returns nicfit_buf_error(b). */
int nicfit_codes_render_md(struct nicfit_buf *b);

#ifdef __cplusplus
}
#endif

#endif
