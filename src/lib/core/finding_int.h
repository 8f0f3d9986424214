/*
 * finding_int.h - raising findings and recording decisions inside the
 * library (the public model is nicfit/finding.h).
 *
 * Codes are raised by enum: NICFIT_CODE_NIC_PCIE_STARVED, one per line of
 * the registry files. The registry is an X-macro list split by engine, so
 * that each engine keeps its own codes beside its sources:
 *
 *	src/lib/finding_codes.def          codes raised by more than one engine
 *	src/lib/plan/plan_codes.def        ...and one file per engine
 *	src/lib/cluster/cluster_codes.def
 *	src/lib/audit/audit_codes.def
 *	src/lib/fleet/fleet_codes.def
 *	src/lib/verify/verify_codes.def
 *
 * Each line is
 *
 *	NICFIT_CODE(ID, "code", SEVERITY, ENGINES, "meaning")
 *
 * with SEVERITY one of INFO, WARNING, CRITICAL (the usual one; a raise
 * site may say another) and ENGINES a bit set of NICFIT_ENGINE_* without
 * the prefix, e.g. PLAN | AUDIT. A code raised that is not listed does not
 * compile; a listed code must be unique (test_finding checks) and
 * documented (docs/findings.md is generated from the list and checked).
 *
 * Internal to libnicfit.
 */
#ifndef NICFIT_FINDING_INT_H
#define NICFIT_FINDING_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "finding_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stdarg.h>

#include "nicfit/finding.h"

enum nicfit__code {
#define NICFIT_CODE(id, code, sev, engines, meaning) NICFIT_CODE_##id,
#include "core/finding_codes.def"
#include "plan/plan_codes.def"
#include "cluster/cluster_codes.def"
#include "audit/audit_codes.def"
#include "fleet/fleet_codes.def"
#include "verify/verify_codes.def"
#undef NICFIT_CODE
	NICFIT__CODE_COUNT
};

/* The registered string of a code ("nic-pcie-starved"). */
const char *nicfit__code_name(enum nicfit__code code);

/*
 * Add a finding: sev, the code, the device (NULL none; copied) and the
 * message (printf format). Returns the new record, to which a fix and a
 * source may be added, or NULL when memory ran out (fs->oom is then set,
 * and every later add fails too).
 */
struct nicfit_finding *nicfit__find(struct nicfit_findings *fs, enum nicfit_severity sev,
				    enum nicfit__code code, const char *device,
				    const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
struct nicfit_finding *nicfit__vfind(struct nicfit_findings *fs, enum nicfit_severity sev,
				     enum nicfit__code code, const char *device,
				     const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

/*
 * Add a finding whose code is a string: one that came from another
 * result (a plan's finding carried into an audit, a cluster's into a
 * plan). The code must be registered: an unregistered one is
 * NICFIT_E_INTERNAL (a bug), a lack of memory NICFIT_E_NOMEM. The record
 * is returned through *out (may be NULL).
 */
int nicfit__find_code(struct nicfit_findings *fs, enum nicfit_severity sev, const char *code,
		      const char *device, struct nicfit_finding **out, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * Add a record (a finding of registered code name code, or a decision of
 * rule id code, sev NICFIT_SEV_NONE) about device (NULL none; copied)
 * whose message is text, len bytes written already (copied): what
 * nicfit__find() and nicfit__decide() do with "%s", without measuring or
 * formatting it again. NULL when memory ran out (fs->oom is then set).
 */
struct nicfit_finding *nicfit__record_text(struct nicfit_findings *fs, enum nicfit_severity sev,
					  const char *code, const char *device, const char *text,
					  size_t len);

/* Record a decision: rule id (static storage), applied or only considered. */
struct nicfit_finding *nicfit__decide(struct nicfit_findings *fs, const char *rule, int applied,
				      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
struct nicfit_finding *nicfit__vdecide(struct nicfit_findings *fs, const char *rule, int applied,
				       const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/*
 * A string kept with fs's records (freed by nicfit_findings_release(),
 * never by itself): s's n bytes copied, or fmt written there. For a
 * record's device, message or fix. NULL when memory ran out (fs->oom is
 * then set).
 */
char *nicfit__findings_text(struct nicfit_findings *fs, const char *s, size_t n);
char *nicfit__findings_fmt(struct nicfit_findings *fs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *nicfit__findings_vfmt(struct nicfit_findings *fs, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Set (replace) the fix of f, a record of fs. Returns 0 or NICFIT_E_NOMEM. */
int nicfit__finding_fix(struct nicfit_findings *fs, struct nicfit_finding *f,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Append text to f's message (e.g. " (twice)"). Returns 0 or NICFIT_E_NOMEM. */
int nicfit__finding_append(struct nicfit_findings *fs, struct nicfit_finding *f,
			   const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
