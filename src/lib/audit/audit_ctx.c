/*
 * audit_ctx.c - what every pass of the audit uses: raising a finding,
 * noting a check that could not be made, and the look-ups in the host
 * model (a function's RDMA device, its interface, its card). No rule
 * lives here (see audit_int.h for the passes).
 */
#include <stdarg.h>
#include <string.h>

#include "core/alloc_int.h"
#include "audit/audit_int.h"
#include "core/fmt_int.h"

struct nicfit_finding *nicfit__audit_find(struct nicfit__audit_ctx *c,
					  enum nicfit_severity sev, enum nicfit__code code,
					  const char *device, const char *source, const char *fix,
					  const char *fmt, ...)
{
	struct nicfit_findings *fs = &c->a->findings;
	struct nicfit_finding *f;
	char text[512];
	va_list ap;
	int n;

	/*
	 * The message is written here by nicfit__vfmt (vsnprintf's bytes,
	 * without its set-up) and handed over whole; one that does not fit
	 * goes to the findings model with its format, as before.
	 */
	va_start(ap, fmt);
	n = nicfit__vfmt(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(text)) {
		f = nicfit__record_text(fs, sev, nicfit__code_name(code), device ? device : "host",
					text, (size_t)n);
	} else {
		va_start(ap, fmt);
		f = nicfit__vfind(fs, sev, code, device ? device : "host", fmt, ap);
		va_end(ap);
	}
	if (!f)
		return NULL;
	f->source = source;
	if (fix)
		nicfit__finding_fix(fs, f, "%s", fix);
	return f;
}

void nicfit__audit_not_checked(struct nicfit__audit_ctx *c, const char *check,
			       const char *why)
{
	struct nicfit_audit *a = c->a;
	size_t i;

	for (i = 0; i < a->nnot_checked; i++)
		if (!strcmp(a->not_checked[i].check, check))
			return;
	if (NICFIT_ALLOC_GROW(a->not_checked, a->nnot_checked + 1, a->not_checked_alloc)) {
		c->oom = 1;
		return;
	}
	a->not_checked[a->nnot_checked].check = check;
	a->not_checked[a->nnot_checked].why = why;
	a->nnot_checked++;
}

int nicfit__audit_rdma_of(const struct nicfit__audit_ctx *c, int pci)
{
	int i;

	for (i = 0; i < c->t->nrdma; i++)
		if (c->t->rdma[i].pci == pci)
			return i;
	return -1;
}

/*
 * An empty driver is "none bound" only where the tree shows drivers; a
 * capture without uevent files, driver links and sys/bus/pci/drivers
 * leaves it unknown.
 */
int nicfit__audit_driver_unknown(const struct nicfit__audit_ctx *c, int pci)
{
	return !P(c, pci)->driver[0] && !c->t->drivers_listed;
}

int nicfit__audit_first_netdev(const struct nicfit__audit_ctx *c, int pci)
{
	int i;

	for (i = 0; i < c->t->nnet; i++)
		if (c->t->net[i].pci == pci && !c->t->net[i].is_virtual)
			return i;
	return -1;
}

/*
 * No operstate file, or the kernel's "unknown", is no evidence either way:
 * only a carrier of 0 or an interface the kernel calls down has no link.
 */
int nicfit__audit_known_no_link(const struct nicfit_netdev *nd)
{
	if (nd->carrier >= 0)
		return nd->carrier == 0;
	return !strcmp(nd->operstate, "down") || !strcmp(nd->operstate, "lowerlayerdown");
}

int nicfit__audit_same_card(const struct nicfit_pcidev *a, const struct nicfit_pcidev *b)
{
	return a->domain == b->domain && a->bus == b->bus && a->dev == b->dev;
}

const char *nicfit__audit_rdma_count(const struct nicfit_audit *a, char *buf, size_t n)
{
	if (!a->nrdma_unknown)
		nicfit__fmt(buf, n, "%d RDMA", a->nrdma_nics);
	else if (!a->nrdma_nics && a->nrdma_unknown == a->nnics)
		nicfit__fmt(buf, n, "RDMA unknown");
	else
		nicfit__fmt(buf, n, "%d RDMA, %d unknown", a->nrdma_nics, a->nrdma_unknown);
	return buf;
}
