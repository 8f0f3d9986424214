/*
 * fleet_anomaly.c - building anomalies: the record, the hosts it names and
 * the values it shows, and the words for values and devices that its
 * message uses. The analysis files (fleet_compare.c, fleet_groups.c,
 * fleet_analyze.c) decide what is odd; this file only records it, in the
 * fleet's arrays and string table, until the next analysis.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc_int.h"
#include "fleet/fleet_int.h"
#include "nicfit/buf.h"

const char *nicfit__fleet_fmt_value(struct nicfit_fleet *fl, int attr, uint64_t v, char *buf,
				    size_t n)
{
	double d = fl_as_double(v);

	switch (nicfit__fleet_attrs[attr].vk) {
	case FV_STR: {
		const char *s = fl_str(&fl->st, (uint32_t)v);

		snprintf(buf, n, "%s", s && *s ? s : "(empty)");
		return buf;
	}
	case FV_BOOL:
		snprintf(buf, n, "%s",
			 v ? (nicfit__fleet_attrs[attr].yes ? nicfit__fleet_attrs[attr].yes : "yes")
			   : (nicfit__fleet_attrs[attr].no ? nicfit__fleet_attrs[attr].no : "no"));
		return buf;
	case FV_PRESENT:
		snprintf(buf, n, "%s", v ? "present" : "absent");
		return buf;
	default:
		break;
	}
	switch (attr) {
	case FA_CUR_WIDTH:
	case FA_MAX_WIDTH:
		snprintf(buf, n, "x%g", d);
		break;
	case FA_CUR_GTS:
	case FA_MAX_GTS:
		snprintf(buf, n, "%g GT/s", d);
		break;
	case FA_PATH:
		snprintf(buf, n, "%.1f Gb/s", d);
		break;
	case FA_NET_SPEED:
		snprintf(buf, n, "%g Gb/s", d);
		break;
	case FA_MPS:
	case FA_MRRS:
		snprintf(buf, n, "%g bytes", d);
		break;
	default:
		snprintf(buf, n, "%g", d);
		break;
	}
	return buf;
}

uint32_t nicfit__fleet_intern_fmt(struct fl_an *a, const char *fmt, ...)
{
	struct nicfit_buf b;
	va_list ap;
	uint32_t id;

	nicfit_buf_init(&b, FL_TEXT_MAX);
	va_start(ap, fmt);
	nicfit_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	id = nicfit_buf_error(&b) == NICFIT_E_NOMEM
		     ? 0
		     : nicfit__fleet_intern(&a->fl->st, b.data, b.len);
	nicfit_buf_release(&b);
	if (!id)
		a->err = NICFIT_E_NOMEM;
	return id;
}

/* The string id of a registered code, as anomalies carry it. */
uint32_t nicfit__fleet_code_id(struct fl_an *a, enum nicfit__code code)
{
	uint32_t id = nicfit__fleet_intern0(&a->fl->st, nicfit__code_name(code));

	if (!id)
		a->err = NICFIT_E_NOMEM;
	return id;
}

uint32_t nicfit__fleet_intern_buf(struct fl_an *a, struct nicfit_buf *b)
{
	uint32_t id = nicfit_buf_error(b) == NICFIT_E_NOMEM
			      ? 0 : nicfit__fleet_intern(&a->fl->st, b->data, b->len);

	if (!id)
		a->err = NICFIT_E_NOMEM;
	return id;
}

/* The device at bdf in host h, or NULL. */
const struct fl_dev *nicfit__fleet_host_dev(const struct nicfit_fleet *fl, const struct fl_host *h,
					    uint32_t bdf)
{
	uint32_t i;

	for (i = 0; i < h->ndev; i++)
		if (fl->devs[h->dev_off + i].bdf == bdf)
			return &fl->devs[h->dev_off + i];
	return NULL;
}

const char *nicfit__fleet_dev_label(const struct nicfit_fleet *fl, const struct fl_dev *d)
{
	const char *n = d ? fl_str(&fl->st, d->name) : NULL;

	if (n && *n)
		return n;
	return d ? fl_str(&fl->st, d->model) : "";
}

int nicfit__fleet_is_gpu(const struct nicfit_fleet *fl, const struct fl_dev *d)
{
	const char *k = d ? fl_str(&fl->st, d->kind) : NULL;

	return k && (!strcmp(k, "gpu") || !strcmp(k, "accelerator"));
}

int nicfit__fleet_ignored(const struct fl_an *a, const char *code)
{
	const char *const *p;

	if (!a->o || !a->o->ignore || !code)
		return 0;
	for (p = a->o->ignore; *p; p++)
		if (!strcmp(*p, code))
			return 1;
	return 0;
}

int nicfit__fleet_ignored_code(const struct fl_an *a, enum nicfit__code code)
{
	return nicfit__fleet_ignored(a, nicfit__code_name(code));
}

/* Start an anomaly; hosts and values are added after it. */
struct fl_anom *nicfit__fleet_anom_new(struct fl_an *a, int attr, enum nicfit_severity sev,
				       uint32_t code, int group, uint32_t dev)
{
	struct nicfit_fleet *fl = a->fl;
	struct fl_anom *x;

	if (NICFIT_ALLOC_GROW(fl->anoms, fl->nanoms + 1, fl->cap_anoms)) {
		a->err = NICFIT_E_NOMEM;
		return NULL;
	}
	x = &fl->anoms[fl->nanoms++];
	memset(x, 0, sizeof(*x));
	x->attr = attr;
	x->sev = sev;
	x->code = code;
	x->attribute = attr >= 0 ? nicfit__fleet_attrs[attr].name : NULL;
	x->group = group;
	x->dev = dev;
	x->host_off = fl->nahosts;
	x->val_off = fl->navals;
	return x;
}

void nicfit__fleet_anom_host(struct fl_an *a, struct fl_anom *x, size_t h)
{
	struct nicfit_fleet *fl = a->fl;

	if (NICFIT_ALLOC_GROW(fl->ahosts, fl->nahosts + 1, fl->cap_ahosts)) {
		a->err = NICFIT_E_NOMEM;
		return;
	}
	fl->ahosts[fl->nahosts++] = h;
	x->nhosts++;
}

/* A value of x with its hosts (copied from hosts[0..n)). */
void nicfit__fleet_anom_value(struct fl_an *a, struct fl_anom *x, uint32_t shown,
			      const size_t *hosts, size_t n, int majority)
{
	struct nicfit_fleet *fl = a->fl;
	struct fl_value_int v;

	if (NICFIT_ALLOC_GROW(fl->ahosts, fl->nahosts + n, fl->cap_ahosts) ||
	    NICFIT_ALLOC_GROW(fl->avals, fl->navals + 1, fl->cap_avals)) {
		a->err = NICFIT_E_NOMEM;
		return;
	}
	v.shown = shown;
	v.count = n;
	v.host_off = fl->nahosts;
	v.majority = majority;
	memcpy(fl->ahosts + fl->nahosts, hosts, n * sizeof(size_t));
	fl->nahosts += n;
	fl->avals[fl->navals++] = v;
	x->nvals++;
}
