/*
 * fleet_compare.c - compare the hosts of one group, attribute by
 * attribute, and name the ones that differ (see nicfit/fleet.h for what is
 * compared, docs/json-fleet.md for the severities).
 *
 * Two passes over the group's attributes. The first keeps, per key, the
 * first value and whether any host disagrees; only keys that disagree are
 * gathered in the second pass, sorted, and tallied into an anomaly. A
 * group whose hosts agree costs one pass of array lookups. Groups are made
 * in fleet_groups.c; this file never looks across groups.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "fleet/fleet_int.h"
#include "nicfit/buf.h"

struct fl_gath {
	uint32_t key;
	uint32_t host;
	uint64_t v;
};

static int gath_cmp(const void *x, const void *y)
{
	const struct fl_gath *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->host < b->host ? -1 : a->host > b->host;
}

struct fl_tally {
	uint64_t v;
	size_t count;
	size_t off;           /* into the value-host scratch */
	double rank;
	int ranked;
};

/* ---- one key's values within a group ------------------------------------------------------- */

static uint32_t subject_of(struct fl_an *a, const struct fl_key *k, const struct fl_host *first)
{
	struct nicfit_fleet *fl = a->fl;
	const char *subj = fl_str(&fl->st, k->subject);
	const struct fl_dev *d;
	const char *bdf, *rest;

	switch (k->attr) {
	case FA_NUMA_COUNT:
	case FA_KERNEL:
	case FA_GPU_DRIVER:
	case FA_PRODUCT_FW:
	case FA_PEERMEM:
	case FA_GDR_KERNEL:
	case FA_IOMMU:
	case FA_PRIVILEGED:
		return nicfit__fleet_intern_fmt(a, "host");
	case FA_PAIR_PATH:
	case FA_PAIR_GDR:
		return nicfit__fleet_intern_fmt(a, "GPU %s", subj);
	case FA_FINDING:
		return k->dev ? k->dev : nicfit__fleet_intern_fmt(a, "host");
	case FA_NOTCHECKED:
		return nicfit__fleet_intern_fmt(a, "host");
	default:
		break;
	}
	d = nicfit__fleet_host_dev(fl, first, k->dev);
	bdf = fl_str(&fl->st, k->dev);
	rest = subj && bdf && !strncmp(subj, bdf, strlen(bdf)) ? subj + strlen(bdf) : "";
	return nicfit__fleet_intern_fmt(a, "%s %s%s", bdf ? bdf : "?",
					nicfit__fleet_dev_label(fl, d), rest);
}

static void tally_rank(struct fl_an *a, int attr, struct fl_tally *t)
{
	const struct fl_attr_def *def = &nicfit__fleet_attrs[attr];

	t->ranked = 0;
	if (!def->ordered)
		return;
	if (def->vk == FV_NUM) {
		t->rank = fl_as_double(t->v);
		t->ranked = 1;
	} else if (def->vk == FV_BOOL) {
		t->rank = (double)t->v;
		t->ranked = 1;
	} else if (def->vk == FV_STR && def->rank) {
		int r = def->rank(fl_str(&a->fl->st, (uint32_t)t->v));

		if (r >= 0) {
			t->rank = r;
			t->ranked = 1;
		}
	}
}

/*
 * A rate at this fraction of the reference or less is critical (attributes
 * with ratio set). Half is what a link trained at x8 instead of x16, one
 * PCIe generation down, or a 100G port on a 200G fabric costs: the device
 * moves half of what its peers do, and a job spread over the fleet runs at
 * the pace of its slowest host. A smaller loss is a warning.
 */
#define CRITICAL_FRACTION 0.5

/*
 * How bad is value `odd` against the reference value `ref` (the majority's,
 * or without one the best seen)? The severity goes by order where the
 * attribute has one:
 *   - better than the reference (a wider link, a port up where most are
 *     down) is info: worth knowing, nothing to fix on that host;
 *   - on a GPU or accelerator, link speed and width are info whatever they
 *     are: they drop when idle, so an audit at rest proves nothing;
 *   - a value with no rank ("unknown" operstate) differs without being
 *     known to be worse: at most a warning;
 *   - a rate at half the reference or less (ratio attributes) is critical:
 *     an x8 link where x16 is usual halves what the device can move;
 *   - anything else worse takes the attribute's own severity.
 */
static enum nicfit_severity severity(int attr, const struct fl_tally *odd,
				     const struct fl_tally *ref, int gpu)
{
	const struct fl_attr_def *def = &nicfit__fleet_attrs[attr];

	if (odd->ranked && ref->ranked && odd->rank > ref->rank)
		return NICFIT_SEV_INFO;
	if (gpu && def->gpu_info)
		return NICFIT_SEV_INFO;
	if (def->ordered && (!odd->ranked || !ref->ranked))
		return def->sev < NICFIT_SEV_WARNING ? def->sev : NICFIT_SEV_WARNING;
	if (def->ratio && odd->ranked && ref->ranked && ref->rank > 0 &&
	    odd->rank <= ref->rank * CRITICAL_FRACTION)
		return NICFIT_SEV_CRITICAL;
	return def->sev;
}

static int tally_by_count(const void *x, const void *y)
{
	const struct fl_tally *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->v < b->v ? -1 : a->v > b->v;
}

/* "x8 on 2 hosts, x4 on 1 host" for tallies [from, to). */
static void describe_values(struct fl_an *a, struct nicfit_buf *b, int attr, size_t from,
			    size_t to)
{
	size_t i;
	char tmp[256];

	for (i = from; i < to; i++)
		nicfit_buf_addf(b, "%s%s on %zu host%s", i > from ? ", " : "",
				nicfit__fleet_fmt_value(a->fl, attr, a->t[i].v, tmp, sizeof(tmp)),
				a->t[i].count, fl_plural(a->t[i].count));
}

/*
 * What the hosts of one key are compared with. A strict majority (more
 * than half of the hosts that report the value) is the reference: the
 * others are odd. A value that an audit does not give is not counted, so
 * a half-read fleet does not invent a minority. Without a majority (two
 * hosts that differ, a rollout half done) an ordered attribute still has
 * a best value, and the hosts below it are named; values that differ but
 * rank alike ("down" and "dormant") have no order after all. Returns 1
 * when t[0] is a majority, and sets *best to the best tally or -1.
 */
static int reference(struct fl_an *a, int attr, int *best)
{
	const struct fl_attr_def *def = &nicfit__fleet_attrs[attr];
	size_t i, total = 0;
	int all_ranked = 1;

	/* most common first; hosts stay with their tally through the offsets */
	qsort(a->t, a->nt, sizeof(*a->t), tally_by_count);
	for (i = 0; i < a->nt; i++) {
		tally_rank(a, attr, &a->t[i]);
		total += a->t[i].count;
		if (!a->t[i].ranked)
			all_ranked = 0;
	}
	*best = -1;
	if (a->t[0].count * 2 > total)
		return 1;
	if (!all_ranked || !def->ordered)
		return 0;
	*best = 0;
	for (i = 1; i < a->nt; i++)
		if (a->t[i].rank > a->t[*best].rank)
			*best = (int)i;
	for (i = 0; i < a->nt; i++)
		if (a->t[i].rank < a->t[*best].rank)
			break;
	if (i == a->nt)
		*best = -1;
	return 0;
}

/*
 * Name the odd hosts of x and return the anomaly's severity, the worst of
 * its odd values' (see severity()). With a majority the odd hosts are the
 * others; with only a best value, those below it. With neither there is
 * no order to go by and every host is in the dispute: the attribute's
 * severity, but never critical for an ordered one, since nobody is known
 * to be worse.
 */
static enum nicfit_severity name_odd_hosts(struct fl_an *a, struct fl_anom *x, int attr, int maj,
					   int best, int gpu)
{
	const struct fl_attr_def *def = &nicfit__fleet_attrs[attr];
	enum nicfit_severity sev = NICFIT_SEV_NONE;
	size_t i, j;

	for (i = 0; i < a->nt; i++) {
		enum nicfit_severity s = NICFIT_SEV_NONE;
		int named = 0;

		if (maj) {
			if (i > 0) {
				s = severity(attr, &a->t[i], &a->t[0], gpu);
				named = 1;
			}
		} else if (best >= 0) {
			if (a->t[i].rank < a->t[best].rank) {
				s = severity(attr, &a->t[i], &a->t[best], gpu);
				named = 1;
			}
		} else {
			s = gpu && def->gpu_info ? NICFIT_SEV_INFO : def->sev;
			if (def->ordered && s > NICFIT_SEV_WARNING)
				s = NICFIT_SEV_WARNING;
			named = 1;
		}
		if (s > sev)
			sev = s;
		if (named)
			for (j = 0; j < a->t[i].count; j++)
				nicfit__fleet_anom_host(a, x, a->vh[a->t[i].off + j]);
	}
	return sev;
}

/* x's values, its expected value and its message. */
static void value_message(struct fl_an *a, struct fl_anom *x, int attr, int maj, int gpu)
{
	struct nicfit_fleet *fl = a->fl;
	const struct fl_attr_def *def = &nicfit__fleet_attrs[attr];
	struct nicfit_buf b;
	char tmp[256];
	size_t i;

	for (i = 0; i < a->nt; i++)
		nicfit__fleet_anom_value(
			a, x,
			nicfit__fleet_intern_fmt(
				a, "%s",
				nicfit__fleet_fmt_value(fl, attr, a->t[i].v, tmp, sizeof(tmp))),
			a->vh + a->t[i].off, a->t[i].count, maj && i == 0);
	nicfit_buf_init(&b, FL_TEXT_MAX);
	nicfit_buf_addf(&b, "%s: %s ", fl_str(&fl->st, x->subject), def->what);
	if (maj) {
		nicfit_buf_puts(&b, "is ");
		describe_values(a, &b, attr, 1, a->nt);
		nicfit_buf_addf(&b, "; %s on the other %zu",
				nicfit__fleet_fmt_value(fl, attr, a->t[0].v, tmp, sizeof(tmp)),
				a->t[0].count);
		x->expected = nicfit__fleet_intern_fmt(a, "%s", tmp);
	} else {
		nicfit_buf_puts(&b, "differs, no majority: ");
		describe_values(a, &b, attr, 0, a->nt);
	}
	if (gpu && def->gpu_info)
		nicfit_buf_puts(&b, "; GPUs slow their links when idle: re-check under load");
	x->message = nicfit__fleet_intern_buf(a, &b);
	nicfit_buf_release(&b);
}

/* Values of one key: tallies in a->t, hosts in a->vh. Build its anomaly. */
static void value_anomaly(struct fl_an *a, int gi, uint32_t key, const struct fl_host *first)
{
	struct nicfit_fleet *fl = a->fl;
	const struct fl_key *k = &fl->keys[key];
	int attr = k->attr;
	const struct fl_attr_def *def = &nicfit__fleet_attrs[attr];
	int gpu = nicfit__fleet_is_gpu(fl, nicfit__fleet_host_dev(fl, first, k->dev));
	int maj, best;
	struct fl_anom *x;

	if (nicfit__fleet_ignored_code(a, def->code))
		return;
	maj = reference(a, attr, &best);
	x = nicfit__fleet_anom_new(a, attr, NICFIT_SEV_NONE, nicfit__fleet_code_id(a, def->code),
				   gi, k->dev);
	if (!x)
		return;
	x->subject = subject_of(a, k, first);
	x->majority = maj;
	x->sev = name_odd_hosts(a, x, attr, maj, best, gpu);
	value_message(a, x, attr, maj, gpu);
}

/*
 * A finding or not-checked item that some hosts of the group have and the
 * others (that could have said) do not. When most hosts have it, the odd
 * ones are those without it, and that is only info: a finding that went
 * away is seldom a problem. When a minority has it, they are odd, with the
 * finding's own severity (an item not checked is info). When exactly half
 * have it there is no majority, and the hosts that have it are named.
 */
static void presence_anomaly(struct fl_an *a, int gi, uint32_t key, const size_t *present,
			     size_t np, const size_t *absent, size_t na)
{
	struct nicfit_fleet *fl = a->fl;
	const struct fl_key *k = &fl->keys[key];
	int finding = k->attr == FA_FINDING;
	size_t known = np + na, i;
	enum nicfit_severity fsev =
		finding ? (k->sev ? (enum nicfit_severity)k->sev : NICFIT_SEV_INFO)
			: nicfit__fleet_attrs[k->attr].sev;
	const char *code = fl_str(&fl->st, k->code);
	const char *msg = fl_str(&fl->st, k->msg);
	const char *dev = fl_str(&fl->st, k->dev);
	uint32_t yes, no;
	struct fl_anom *x;
	struct nicfit_buf b;

	if (finding ? nicfit__fleet_ignored(a, code)
		    : nicfit__fleet_ignored_code(a, nicfit__fleet_attrs[k->attr].code))
		return;
	x = nicfit__fleet_anom_new(a, k->attr, NICFIT_SEV_NONE,
				   finding ? k->code : nicfit__fleet_code_id(a, NICFIT_CODE_NOT_CHECKED),
				   gi, k->dev);
	if (!x)
		return;
	x->subject = finding && k->dev ? k->dev : nicfit__fleet_intern0(&fl->st, "host");
	yes = nicfit__fleet_intern0(&fl->st, "present");
	no = nicfit__fleet_intern0(&fl->st, "absent");
	if (np * 2 > known) {
		/* most hosts have it: the odd ones are those without */
		x->sev = NICFIT_SEV_INFO;
		x->majority = 1;
		for (i = 0; i < na; i++)
			nicfit__fleet_anom_host(a, x, absent[i]);
		nicfit__fleet_anom_value(a, x, yes, present, np, 1);
		nicfit__fleet_anom_value(a, x, no, absent, na, 0);
		x->expected = yes;
	} else {
		x->sev = fsev;
		x->majority = np * 2 < known;
		for (i = 0; i < np; i++)
			nicfit__fleet_anom_host(a, x, present[i]);
		if (x->majority) {
			nicfit__fleet_anom_value(a, x, no, absent, na, 1);
			nicfit__fleet_anom_value(a, x, yes, present, np, 0);
			x->expected = no;
		} else {
			nicfit__fleet_anom_value(a, x, yes, present, np, 0);
			nicfit__fleet_anom_value(a, x, no, absent, na, 0);
		}
	}
	nicfit_buf_init(&b, FL_TEXT_MAX);
	if (finding)
		nicfit_buf_addf(&b, "%s%s%s finding %s on %zu of %zu hosts%s%s%s",
				dev ? dev : "", dev ? ": " : "", nicfit_severity_name(fsev),
				code, np, known, x->majority ? "" : " (no majority)",
				msg ? ": " : "", msg ? msg : "");
	else
		nicfit_buf_addf(&b, "host: '%s' not checked on %zu of %zu hosts%s%s%s", code, np,
				known, x->majority ? "" : " (no majority)", msg ? ": " : "",
				msg ? msg : "");
	x->message = nicfit__fleet_intern_buf(a, &b);
	nicfit_buf_release(&b);
}

static void add_common(struct fl_an *a, uint32_t key)
{
	struct nicfit_fleet *fl = a->fl;
	const struct fl_key *k = &fl->keys[key];
	struct nicfit_finding c;

	/* the record points into the string table, which outlives it */
	memset(&c, 0, sizeof(c));
	c.severity = k->sev ? (enum nicfit_severity)k->sev : NICFIT_SEV_INFO;
	c.code = fl_str(&fl->st, k->code);
	c.device = (char *)fl_str(&fl->st, k->dev);
	c.message = (char *)fl_str(&fl->st, k->msg);
	if (NICFIT_ALLOC_GROW(fl->commons, fl->ncommons + 1, fl->cap_commons))
		a->err = NICFIT_E_NOMEM;
	else
		fl->commons[fl->ncommons++] = c;
}

/* ---- one group ----------------------------------------------------------------------------- */

/* Hosts that an anomaly of `attr` on `dev` in this group already names. */
static void mark_named(struct fl_an *a, size_t from, int attr, uint32_t dev, uint8_t m)
{
	struct nicfit_fleet *fl = a->fl;
	size_t i, j;

	for (i = from; i < fl->nanoms; i++) {
		const struct fl_anom *x = &fl->anoms[i];

		if (x->attr != attr || x->dev != dev || x->dropped)
			continue;
		for (j = 0; j < x->nhosts; j++)
			a->mark[fl->ahosts[x->host_off + j]] = m;
	}
}

/* Gathered presences g[i..j) of a finding or not-checked key. */
static void presence(struct fl_an *a, int gi, uint32_t k, size_t i, size_t j, const size_t *hosts,
		     size_t n)
{
	struct nicfit_fleet *fl = a->fl;
	int attr = fl->keys[k].attr;
	size_t m, np;

	for (m = i; m < j; m++) {
		a->vh[a->nvh++] = a->g[m].host;
		a->mark[a->g[m].host] = 1;
	}
	np = a->nvh;
	for (m = 0; m < n; m++) {
		const struct fl_host *h = &fl->hosts[hosts[m]];
		int known = attr == FA_FINDING ? h->findings_known : h->notchecked_known;

		if (known && !a->mark[hosts[m]])
			a->vh[a->nvh++] = hosts[m];
	}
	for (m = i; m < j; m++)
		a->mark[a->g[m].host] = 0;
	presence_anomaly(a, gi, k, a->vh, np, a->vh + np, a->nvh - np);
}

/* Gathered values g[i..j) of one key (sorted by value) into tallies. */
static void tally_values(struct fl_an *a, size_t i, size_t j)
{
	size_t m;

	for (m = i; m < j; m++) {
		if (m == i || a->g[m].v != a->g[m - 1].v) {
			a->t[a->nt].v = a->g[m].v;
			a->t[a->nt].count = 0;
			a->t[a->nt].off = a->nvh;
			a->nt++;
		}
		a->t[a->nt - 1].count++;
		a->vh[a->nvh++] = a->g[m].host;
	}
}

/*
 * A slower path to the CPU is usually the device's own slower or narrower
 * link, already reported: path values are tallied without the hosts that
 * a link-width or link-speed anomaly of the same device names, so that
 * path-bandwidth remains for causes elsewhere (a bridge or switch above).
 */
static void path_values(struct fl_an *a, size_t from, uint32_t k, size_t i, size_t j)
{
	struct nicfit_fleet *fl = a->fl;
	uint32_t dev = fl->keys[k].dev;
	size_t m, w = i;

	mark_named(a, from, FA_CUR_WIDTH, dev, 1);
	mark_named(a, from, FA_CUR_GTS, dev, 1);
	for (m = i; m < j; m++)
		if (!a->mark[a->g[m].host])
			a->g[w++] = a->g[m];
	mark_named(a, from, FA_CUR_WIDTH, dev, 0);
	mark_named(a, from, FA_CUR_GTS, dev, 0);
	tally_values(a, i, w);
}

/*
 * The first pass: per key, the first value seen, how many hosts have it
 * (cnt) and whether any host disagrees (flags bit 2). A finding or
 * not-checked item also disagrees when fewer hosts have it than could have
 * said (the hosts whose audit lists findings at all); one that every such
 * host of a group of two or more has is a finding common to the group.
 */
static void first_pass(struct fl_an *a, const size_t *hosts, size_t n)
{
	struct nicfit_fleet *fl = a->fl;
	size_t i, j, known_f = 0, known_n = 0;

	a->ntouched = 0;
	for (i = 0; i < n; i++) {
		const struct fl_host *h = &fl->hosts[hosts[i]];

		known_f += h->findings_known;
		known_n += h->notchecked_known;
		for (j = 0; j < h->nattr; j++) {
			const struct fl_attr *at = &fl->attrs[h->attr_off + j];
			uint32_t k = at->key;

			if (a->last[k] == hosts[i] + 1)
				continue;
			a->last[k] = (uint32_t)hosts[i] + 1;
			if (!a->flags[k]) {
				a->flags[k] = 1;
				a->first[k] = at->v;
				a->cnt[k] = 1;
				a->touched[a->ntouched++] = k;
			} else {
				a->cnt[k]++;
				if (at->v != a->first[k])
					a->flags[k] |= 2;
			}
		}
	}
	for (i = 0; i < a->ntouched; i++) {
		uint32_t k = a->touched[i];
		int attr = fl->keys[k].attr;

		if (attr == FA_FINDING || attr == FA_NOTCHECKED) {
			size_t known = attr == FA_FINDING ? known_f : known_n;

			if (a->cnt[k] < known)
				a->flags[k] |= 2;
			else if (attr == FA_FINDING && n > 1)
				add_common(a, k);
		}
	}
}

/* The second pass: the values of the keys that differ, sorted by key and value. */
static void gather(struct fl_an *a, const size_t *hosts, size_t n)
{
	struct nicfit_fleet *fl = a->fl;
	size_t i, j;

	a->ng = 0;
	for (i = 0; i < n && !a->err; i++) {
		const struct fl_host *h = &fl->hosts[hosts[i]];

		for (j = 0; j < h->nattr; j++) {
			const struct fl_attr *at = &fl->attrs[h->attr_off + j];
			struct fl_gath g;

			if (!(a->flags[at->key] & 2) || a->last2[at->key] == hosts[i] + 1)
				continue;
			a->last2[at->key] = (uint32_t)hosts[i] + 1;
			g.key = at->key;
			g.host = (uint32_t)hosts[i];
			g.v = at->v;
			if (NICFIT_ALLOC_GROW(a->g, a->ng + 1, a->capg))
				a->err = NICFIT_E_NOMEM;
			else
				a->g[a->ng++] = g;
		}
	}
	if (a->ng)
		qsort(a->g, a->ng, sizeof(*a->g), gath_cmp);
}

void nicfit__fleet_compare_group(struct fl_an *a, int gi, const size_t *hosts, size_t n)
{
	struct nicfit_fleet *fl = a->fl;
	size_t i, j, from = fl->nanoms;
	const struct fl_host *first = &fl->hosts[hosts[0]];
	int pass;

	first_pass(a, hosts, n);
	gather(a, hosts, n);
	/* path keys last: they leave out hosts that their own link explains */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < a->ng && !a->err; i = j) {
			uint32_t k = a->g[i].key;
			int attr = fl->keys[k].attr;

			for (j = i; j < a->ng && a->g[j].key == k; j++)
				;
			if ((attr == FA_PATH) != (pass == 1))
				continue;
			a->nvh = 0;
			a->nt = 0;
			if (NICFIT_ALLOC_GROW(a->vh, n, a->capvh) ||
			    NICFIT_ALLOC_GROW(a->t, j - i + 1, a->capt)) {
				a->err = NICFIT_E_NOMEM;
				break;
			}
			if (attr == FA_FINDING || attr == FA_NOTCHECKED) {
				presence(a, gi, k, i, j, hosts, n);
				continue;
			}
			if (attr == FA_PATH)
				path_values(a, from, k, i, j);
			else
				tally_values(a, i, j);
			if (a->nt > 1)
				value_anomaly(a, gi, k, first);
		}
	}
	for (i = 0; i < a->ntouched; i++)
		a->flags[a->touched[i]] = 0;
}
