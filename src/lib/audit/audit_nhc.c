/*
 * audit_nhc.c - the audit as LBNL NHC failure lines (nicfit/ops.h).
 *
 * NHC (github.com/mej/nhc, 1.4.3) runs check functions from
 * /etc/nhc/scripts/NAME.nhc; a check that fails calls `die 1 "MESSAGE"`,
 * which logs "Health check failed: MESSAGE" and, under Slurm, marks the
 * node offline with MESSAGE as the reason. So a failure is one line with
 * no newline inside, short words first: the finding's code and device,
 * then its message. A clean node prints nothing; the caller's exit status
 * says whether anything failed (scripts/nhc/nicfit.nhc turns the first
 * line into die's message). The other views of the findings are
 * audit_render.c.
 */
#include <stdarg.h>
#include <string.h>

#include "audit/audit_int.h"
#include "nicfit/audit.h"
#include "nicfit/emit.h"
#include "nicfit/ops.h"

/* An escaped, single-line copy of s: the escaper turns a newline into \n. */
static void line_text(struct nicfit_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void line_text(struct nicfit_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nicfit_escaped_vaddf(b, fmt, ap);
	va_end(ap);
}

int nicfit_audit_render_nhc(const struct nicfit_audit *a, int min_sev, struct nicfit_buf *out,
			    size_t *failures)
{
	size_t i, n = 0;

	for (i = 0; i < a->findings.n; i++) {
		const struct nicfit_finding *f = &a->findings.v[i];

		if (f->severity == NICFIT_SEV_NONE || (int)f->severity < min_sev || f->ignored)
			continue;
		line_text(out, "%s %s %s: %s", nicfit_severity_name(f->severity), f->code,
			  f->device ? f->device : "host", f->message ? f->message : "");
		nicfit_buf_addch(out, '\n');
		n++;
	}
	if (failures)
		*failures = n;
	return nicfit_buf_error(out);
}
