/*
 * fleet_render.c - the fleet report: text (verdict, groups, one line per
 * anomaly naming the hosts, findings common to a group), JSON
 * (nicfit.fleet.v1), Markdown for tickets, and CSV (the anomaly table).
 *
 * Host lists are folded as pdsh and clush write them ("gpu[001-004]"), so a
 * line can be pasted into `pdsh -w`; text and Markdown shorten long lists
 * ("and 37 more") unless NICFIT_FLEET_ALL_HOSTS is given, JSON never does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"
#include "nicfit/buf.h"
#include "nicfit/emit.h"

#define SHOWN_HOSTS 8

/* The text report's severity words: nicfit_severity_name() in capitals. */
static const char *upper(enum nicfit_severity sev)
{
	switch (sev) {
	case NICFIT_SEV_CRITICAL: return "CRITICAL";
	case NICFIT_SEV_WARNING: return "WARNING";
	case NICFIT_SEV_INFO: return "INFO";
	default: return "CLEAN";
	}
}

/* Fold hosts (indices) into b; max 0 = all. */
static void fold(const struct nicfit_fleet *fl, const size_t *hosts, size_t n, size_t max,
		 struct nicfit_buf *b)
{
	const char **names;
	size_t i;

	if (!n)
		return;
	names = malloc(n * sizeof(*names));
	if (!names) {
		b->err = b->err ? b->err : NICFIT_E_NOMEM;
		return;
	}
	for (i = 0; i < n; i++)
		names[i] = nicfit_fleet_host_name(fl, hosts[i]);
	nicfit_hostlist_fold(names, n, max, b);
	free(names);
}

struct totals {
	size_t hosts, clean, warning, critical, absent, named;
	size_t by_sev[NICFIT_SEV_COUNT];
};

static void count(const struct nicfit_fleet *fl, struct totals *t)
{
	size_t i, nall = fl->nhosts + fl->nabsent;

	memset(t, 0, sizeof(*t));
	t->hosts = nall;
	t->absent = fl->nabsent;
	for (i = 0; i < nall; i++) {
		enum nicfit_severity st = fl->pub_hosts[i].status;

		t->named += fl->pub_hosts[i].nanomalies > 0;
		if (st == NICFIT_SEV_CRITICAL)
			t->critical++;
		else if (st == NICFIT_SEV_WARNING)
			t->warning++;
		else
			t->clean++;
	}
	for (i = 0; i < fl->nanoms_pub; i++)
		t->by_sev[fl->pub_anoms[i].severity % NICFIT_SEV_COUNT]++;
}

static const char *worst_name(const struct nicfit_fleet *fl)
{
	int x = nicfit_fleet_exit_status(fl);

	return x == 2 ? "critical" : x == 1 ? "warning" : "clean";
}

/* ---- JSON ------------------------------------------------------------------------ */

static void json_hosts(struct nicfit_emit *e, const struct nicfit_fleet *fl, const char *key,
		       const size_t *hosts, size_t n)
{
	size_t i;

	nicfit_emit_begin_array(e, key);
	for (i = 0; i < n; i++)
		nicfit_emit_string(e, NULL, nicfit_fleet_host_name(fl, hosts[i]));
	nicfit_emit_end_array(e);
}

static void json_folded(struct nicfit_emit *e, const struct nicfit_fleet *fl, const char *key,
			const size_t *hosts, size_t n)
{
	struct nicfit_buf b;

	nicfit_buf_init(&b, 0);
	fold(fl, hosts, n, 0, &b);
	nicfit_emit_string(e, key, b.data);
	nicfit_buf_release(&b);
}

static const char *problem_kind(enum nicfit_fleet_problem_kind k)
{
	return k == NICFIT_FLEET_UNREADABLE ? "unreadable" :
	       k == NICFIT_FLEET_DUPLICATE ? "duplicate" : "ignored";
}

static void json_summary(struct nicfit_emit *e, const struct nicfit_fleet *fl)
{
	struct totals t;

	count(fl, &t);
	nicfit_emit_int(e, "hosts", (long long)t.hosts);
	nicfit_emit_string(e, "worst", worst_name(fl));
	nicfit_emit_int(e, "exit_status", nicfit_fleet_exit_status(fl));
	nicfit_emit_begin_object(e, "summary");
	nicfit_emit_int(e, "hosts", (long long)t.hosts);
	nicfit_emit_int(e, "audited", (long long)fl->nhosts);
	nicfit_emit_int(e, "without_audit", (long long)fl->nabsent);
	if (fl->nexpected)
		nicfit_emit_int(e, "expected", (long long)fl->nexpected);
	else
		nicfit_emit_null(e, "expected");
	nicfit_emit_int(e, "groups", (long long)fl->ngroups);
	nicfit_emit_int(e, "clean", (long long)t.clean);
	nicfit_emit_int(e, "warning", (long long)t.warning);
	nicfit_emit_int(e, "critical", (long long)t.critical);
	nicfit_emit_int(e, "anomalies", (long long)fl->nanoms_pub);
	nicfit_emit_begin_object(e, "anomalies_by_severity");
	nicfit_emit_int(e, "critical", (long long)t.by_sev[NICFIT_SEV_CRITICAL]);
	nicfit_emit_int(e, "warning", (long long)t.by_sev[NICFIT_SEV_WARNING]);
	nicfit_emit_int(e, "info", (long long)t.by_sev[NICFIT_SEV_INFO]);
	nicfit_emit_end_object(e);
	nicfit_emit_int(e, "documents", (long long)fl->ndocs);
	nicfit_emit_int(e, "unreadable", (long long)fl->nunreadable);
	nicfit_emit_int(e, "duplicates", (long long)fl->nduplicates);
	nicfit_emit_int(e, "ignored_lines", (long long)fl->nignored);
	nicfit_emit_end_object(e);
}

static void json_groups(struct nicfit_emit *e, const struct nicfit_fleet *fl)
{
	size_t i, j;

	nicfit_emit_begin_array(e, "groups");
	for (i = 0; i < fl->ngroups; i++) {
		const struct nicfit_fleet_group *g = &fl->groups[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_int(e, "group", (long long)i + 1);
		nicfit_emit_string(e, "signature", g->signature);
		nicfit_emit_string(e, "label", g->label);
		nicfit_emit_string(e, "product", g->product);
		json_hosts(e, fl, "hosts", g->hosts, g->nhosts);
		nicfit_emit_int(e, "clean", (long long)g->clean);
		nicfit_emit_int(e, "warning", (long long)g->warning);
		nicfit_emit_int(e, "critical", (long long)g->critical);
		nicfit_emit_begin_array(e, "common_findings");
		for (j = 0; j < g->ncommon; j++) {
			nicfit_emit_begin_object(e, NULL);
			nicfit_emit_string(e, "severity",
					   nicfit_severity_name(g->common[j].severity));
			nicfit_emit_string(e, "code", g->common[j].code);
			nicfit_emit_string(e, "device", g->common[j].device);
			nicfit_emit_string(e, "message", g->common[j].message);
			nicfit_emit_end_object(e);
		}
		nicfit_emit_end_array(e);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static void json_anomalies(struct nicfit_emit *e, const struct nicfit_fleet *fl)
{
	size_t i, j;

	nicfit_emit_begin_array(e, "anomalies");
	for (i = 0; i < fl->nanoms_pub; i++) {
		const struct nicfit_fleet_anomaly *x = &fl->pub_anoms[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "severity", nicfit_severity_name(x->severity));
		nicfit_emit_string(e, "code", x->code);
		nicfit_emit_string(e, "attribute", x->attribute);
		if (x->group >= 0)
			nicfit_emit_int(e, "group", x->group + 1);
		else
			nicfit_emit_null(e, "group");
		nicfit_emit_string(e, "device", x->device);
		nicfit_emit_string(e, "subject", x->subject);
		json_hosts(e, fl, "hosts", x->hosts, x->nhosts);
		json_folded(e, fl, "hosts_folded", x->hosts, x->nhosts);
		nicfit_emit_bool(e, "majority", x->majority);
		nicfit_emit_string(e, "expected", x->expected);
		nicfit_emit_begin_array(e, "values");
		for (j = 0; j < x->nvalues; j++) {
			const struct nicfit_fleet_value *v = &x->values[j];

			nicfit_emit_begin_object(e, NULL);
			nicfit_emit_string(e, "value", v->value);
			nicfit_emit_int(e, "count", (long long)v->count);
			nicfit_emit_bool(e, "majority", v->majority);
			if (!v->majority)
				json_hosts(e, fl, "hosts", v->hosts, v->count);
			nicfit_emit_end_object(e);
		}
		nicfit_emit_end_array(e);
		nicfit_emit_string(e, "message", x->message);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static void json_host_status(struct nicfit_emit *e, const struct nicfit_fleet *fl)
{
	size_t i;

	nicfit_emit_begin_array(e, "host_status");
	for (i = 0; i < fl->nhosts + fl->nabsent; i++) {
		const struct nicfit_fleet_host *h = &fl->pub_hosts[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "host", h->name);
		nicfit_emit_bool(e, "audited", h->audited);
		if (h->group >= 0)
			nicfit_emit_int(e, "group", h->group + 1);
		else
			nicfit_emit_null(e, "group");
		nicfit_emit_string(e, "status", nicfit_severity_name(h->status));
		nicfit_emit_string(e, "findings", h->audited ? nicfit_severity_name(h->own) : NULL);
		nicfit_emit_int(e, "anomalies", (long long)h->nanomalies);
		nicfit_emit_string(e, "reported_host", h->reported);
		nicfit_emit_string(e, "input", h->input);
		if (h->audited)
			nicfit_emit_int(e, "line", h->line);
		else
			nicfit_emit_null(e, "line");
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static void json_problems(struct nicfit_emit *e, const struct nicfit_fleet *fl)
{
	size_t i;

	nicfit_emit_begin_array(e, "problems");
	for (i = 0; i < fl->nproblems; i++) {
		const struct nicfit_fleet_problem *p = &fl->problems[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "kind", problem_kind(p->kind));
		nicfit_emit_string(e, "host", p->host);
		nicfit_emit_string(e, "input", p->where.input);
		nicfit_emit_int(e, "line", p->where.line);
		nicfit_emit_int(e, "col", p->where.col);
		nicfit_emit_string(e, "message", p->where.msg);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_int(e, "problems_total", (long long)fl->problems_total);
}

static void emit_json(struct nicfit_emit *e, const struct nicfit_fleet *fl)
{
	json_summary(e, fl);
	json_groups(e, fl);
	json_anomalies(e, fl);
	json_host_status(e, fl);
	json_problems(e, fl);
}

/* ---- text, Markdown, CSV ----------------------------------------------------------- */

static const struct nicfit_column group_cols[] = {
	{ "group", "group", 1 },     { "hosts", "hosts", 1 },
	{ "clean", "clean", 1 },     { "warning", "warning", 1 },
	{ "critical", "critical", 1 }, { "hardware", "hardware", 0 },
};

static const struct nicfit_column anomaly_cols[] = {
	{ "severity", "severity", 0 }, { "code", "code", 0 }, { "group", "group", 0 },
	{ "hosts", "hosts", 0 },       { "what", "what", 0 },
};

static void anomaly_table(struct nicfit_emit *e, const struct nicfit_fleet *fl, size_t max)
{
	size_t i;
	struct nicfit_buf b;

	nicfit_buf_init(&b, 0);
	nicfit_emit_table_begin(e, "anomalies", anomaly_cols, 5);
	for (i = 0; i < fl->nanoms_pub; i++) {
		const struct nicfit_fleet_anomaly *x = &fl->pub_anoms[i];
		char grp[16];

		nicfit_buf_reset(&b);
		fold(fl, x->hosts, x->nhosts, max, &b);
		if (x->group >= 0)
			snprintf(grp, sizeof(grp), "%d", x->group + 1);
		else
			snprintf(grp, sizeof(grp), "%s", nicfit_emit_format(e) == NICFIT_FMT_CSV ? "" : "-");
		nicfit_emit_cell_string(e, nicfit_emit_format(e) == NICFIT_FMT_CSV
						   ? nicfit_severity_name(x->severity)
						   : upper(x->severity));
		nicfit_emit_cell_string(e, x->code);
		nicfit_emit_cell_string(e, grp);
		nicfit_emit_cell_string(e, b.len ? b.data : "-");
		nicfit_emit_cell_string(e, x->message);
	}
	nicfit_emit_table_end(e);
	nicfit_buf_release(&b);
}

/* The verdict: hosts by status, anomalies by severity, and what the input held. */
static void text_verdict(struct nicfit_emit *e, const struct nicfit_fleet *fl, int md)
{
	const char *bold = nicfit_emit_color(e, NICFIT_COLOR_BOLD);
	const char *reset = nicfit_emit_color(e, NICFIT_COLOR_RESET);
	const char *red = nicfit_emit_color(e, NICFIT_COLOR_RED);
	const char *yellow = nicfit_emit_color(e, NICFIT_COLOR_YELLOW);
	const char *green = nicfit_emit_color(e, NICFIT_COLOR_GREEN);
	struct totals t;

	count(fl, &t);
	if (md)
		nicfit_emit_printf(e,
				   "# nicfit fleet: %zu host%s in %zu group%s\n\n**%zu critical, "
				   "%zu warning, %zu clean**\n",
				   t.hosts, fl_plural(t.hosts), fl->ngroups, fl_plural(fl->ngroups),
				   t.critical, t.warning, t.clean);
	else
		nicfit_emit_printf(e,
				   "%sFleet of %zu host%s in %zu group%s: %s%zu critical%s, %s%zu "
				   "warning%s, %s%zu clean%s%s\n",
				   bold, t.hosts, fl_plural(t.hosts), fl->ngroups,
				   fl_plural(fl->ngroups), t.critical ? red : "", t.critical,
				   t.critical ? reset : "", t.warning ? yellow : "", t.warning,
				   t.warning ? reset : "", green, t.clean, reset, reset);
	if (fl->nanoms_pub)
		nicfit_emit_printf(e, "%s%zu anomal%s name%s %zu host%s: %zu critical, %zu warning, "
				   "%zu info\n", md ? "\n" : "", fl->nanoms_pub,
				   fl->nanoms_pub == 1 ? "y" : "ies", fl->nanoms_pub == 1 ? "s" : "",
				   t.named, fl_plural(t.named),
				   t.by_sev[NICFIT_SEV_CRITICAL], t.by_sev[NICFIT_SEV_WARNING],
				   t.by_sev[NICFIT_SEV_INFO]);
	else
		nicfit_emit_printf(e, "%sNo odd ones out: the hosts of every group agree.\n",
				   md ? "\n" : "");
	if (fl->nabsent || fl->nunreadable || fl->nduplicates) {
		nicfit_emit_printf(e, "%sInput: %zu document%s read, %zu unreadable, %zu duplicate%s",
				   md ? "\n" : "", fl->ndocs, fl_plural(fl->ndocs), fl->nunreadable,
				   fl->nduplicates, fl_plural(fl->nduplicates));
		if (fl->nexpected)
			nicfit_emit_printf(e, ", %zu expected", fl->nexpected);
		nicfit_emit_printf(e, "%s\n", md || !fl->problems_total ? "" : " (problems on stderr)");
	}
	nicfit_emit_printf(e, "\n");
}

/* The groups table. Returns how many common findings the groups hold. */
static size_t text_groups(struct nicfit_emit *e, const struct nicfit_fleet *fl, int md)
{
	size_t i, ncommon = 0;

	nicfit_emit_heading(e, "Groups (same server model, GPUs and NICs in the same slots)");
	nicfit_emit_table_begin(e, "groups", group_cols, 6);
	for (i = 0; i < fl->ngroups; i++) {
		const struct nicfit_fleet_group *g = &fl->groups[i];

		nicfit_emit_cell_int(e, (long long)i + 1);
		nicfit_emit_cell_int(e, (long long)g->nhosts);
		nicfit_emit_cell_int(e, (long long)g->clean);
		nicfit_emit_cell_int(e, (long long)g->warning);
		nicfit_emit_cell_int(e, (long long)g->critical);
		nicfit_emit_cell_string(e, g->label);
		ncommon += g->ncommon;
	}
	nicfit_emit_table_end(e);
	for (i = 0; i < fl->ngroups; i++)
		if (fl->groups[i].nhosts == 1)
			break;
	if (i < fl->ngroups)
		nicfit_emit_printf(e, "%sA group of one host has nothing to compare within; it is "
				   "compared with its server model's main group when there is one.\n%s",
				   md ? "" : "  ", md ? "\n" : "");
	if (!md)
		nicfit_emit_printf(e, "\n");
	return ncommon;
}

static void text_common(struct nicfit_emit *e, const struct nicfit_fleet *fl, int md)
{
	size_t i, j;

	nicfit_emit_heading(e, "Findings every host of a group reported");
	for (i = 0; i < fl->ngroups; i++) {
		const struct nicfit_fleet_group *g = &fl->groups[i];

		for (j = 0; j < g->ncommon; j++) {
			const struct nicfit_finding *c = &g->common[j];
			/* host-wide findings name the device "host" */
			const char *dev = c->device && strcmp(c->device, "host") ? c->device : NULL;

			if (md)
				nicfit_emit_printf(e, "- group %zu (%zu hosts): **%s** `%s`%s%s: %s\n",
						   i + 1, g->nhosts,
						   nicfit_severity_name(c->severity), c->code,
						   dev ? " on " : "", dev ? dev : "",
						   c->message ? c->message : "");
			else
				nicfit_emit_printf(e, "  group %zu, all %zu hosts: %-8s %s%s%s: %s\n",
						   i + 1, g->nhosts, upper(c->severity), c->code,
						   dev ? " " : "", dev ? dev : "",
						   c->message ? c->message : "");
		}
	}
	nicfit_emit_printf(e, "\n");
}

static void md_problems(struct nicfit_emit *e, const struct nicfit_fleet *fl)
{
	size_t i;

	nicfit_emit_heading(e, "Input problems");
	for (i = 0; i < fl->nproblems; i++) {
		char line[1024];

		nicfit_error_line(&fl->problems[i].where, line, sizeof(line));
		nicfit_emit_printf(e, "- %s: `%s`\n", problem_kind(fl->problems[i].kind), line);
	}
	if (fl->problems_total > fl->nproblems)
		nicfit_emit_printf(e, "- and %zu more\n", fl->problems_total - fl->nproblems);
	nicfit_emit_printf(e, "\n");
}

/* The hosts any anomaly names, folded: a list to paste into pdsh -w. */
static void text_odd_hosts(struct nicfit_emit *e, const struct nicfit_fleet *fl, size_t max)
{
	size_t *odd = malloc((fl->nhosts + fl->nabsent + 1) * sizeof(*odd)), n = 0, i;
	struct nicfit_buf b;

	if (!odd)
		return;
	for (i = 0; i < fl->nhosts + fl->nabsent; i++)
		if (fl->pub_hosts[i].nanomalies)
			odd[n++] = i;
	if (n) {
		nicfit_buf_init(&b, 0);
		fold(fl, odd, n, max, &b);
		nicfit_emit_printf(e, "Odd hosts (named by an anomaly): %s\n", b.data);
		nicfit_buf_release(&b);
	}
	free(odd);
}

static void emit_text(struct nicfit_emit *e, const struct nicfit_fleet *fl, unsigned flags)
{
	int md = nicfit_emit_format(e) == NICFIT_FMT_MD;
	size_t max = (flags & NICFIT_FLEET_ALL_HOSTS) ? 0 : SHOWN_HOSTS;
	size_t ncommon;

	text_verdict(e, fl, md);
	ncommon = text_groups(e, fl, md);
	if (fl->nanoms_pub) {
		nicfit_emit_heading(e, "Anomalies");
		anomaly_table(e, fl, max);
		if (!md)
			nicfit_emit_printf(e, "\n");
	}
	if (ncommon)
		text_common(e, fl, md);
	if (md && fl->nproblems)
		md_problems(e, fl);
	if (!md)
		text_odd_hosts(e, fl, max);
}

int nicfit_fleet_render(struct nicfit_emit *e, const struct nicfit_fleet *fl, unsigned flags)
{
	if (!fl->analyzed)
		return NICFIT_E_USAGE;
	/* what -o may name, in every format, whether the fleet has anomalies or not */
	nicfit_emit_columns(e, group_cols, (int)(sizeof(group_cols) / sizeof(group_cols[0])));
	nicfit_emit_columns(e, anomaly_cols, (int)(sizeof(anomaly_cols) / sizeof(anomaly_cols[0])));
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.fleet.v1");
	switch (nicfit_emit_format(e)) {
	case NICFIT_FMT_JSON:
		emit_json(e, fl);
		break;
	case NICFIT_FMT_CSV:
		anomaly_table(e, fl, 0);
		break;
	case NICFIT_FMT_SVG:
		nicfit_emit_end_object(e);
		return NICFIT_E_USAGE;
	default:
		emit_text(e, fl, flags);
		break;
	}
	nicfit_emit_end_object(e);
	return 0;
}
