/*
 * accept_render.c - a runbook in text, JSON (nicfit.accept.v1,
 * docs/json-accept.md) and Markdown; judged, the report: the verdict,
 * the failing steps first with their causes and next command, then per
 * host and per rail, then every step. The bash script is accept_script.c.
 */
#include <stdio.h>
#include <string.h>

#include "accept/accept_int.h"

static const char *host_or_null(const struct nicfit_accept *a, int h)
{
	return h >= 0 ? a->hosts[h] : NULL;
}

/* ---- JSON ------------------------------------------------------------------- */

static void json_lines(struct nicfit_emit *e, const char *key, const char *text)
{
	const char *p = text;
	char line[1200];

	nicfit_emit_begin_array(e, key);
	while (p && *p) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) - 1 ? n :
							    sizeof(line) - 1), p);
		nicfit_emit_string(e, NULL, line);
		p = end ? end + 1 : NULL;
	}
	nicfit_emit_end_array(e);
}

static void json_system(struct nicfit_emit *e, const struct nicfit_accept *a)
{
	const struct nicfit_accept_system *sys = &a->sys;
	int i;

	nicfit_emit_begin_object(e, "system");
	nicfit_emit_string(e, "title", sys->title);
	nicfit_emit_string(e, "from", sys->from);
	nicfit_emit_int(e, "nodes", sys->nodes);
	nicfit_emit_begin_array(e, "hosts");
	for (i = 0; i < sys->nodes; i++)
		nicfit_emit_string(e, NULL, a->hosts[i]);
	nicfit_emit_end_array(e);
	nicfit_emit_int(e, "gpus_per_node", sys->gpus_per_node);
	nicfit_emit_string(e, "gpu", sys->gpu[0] ? sys->gpu : NULL);
	nicfit_emit_string(e, "gpu_vendor", sys->amd ? "AMD" : "NVIDIA");
	nicfit_emit_number(e, "nvlink_gbs", sys->nvlink_gbs);
	nicfit_emit_bool(e, "nvswitch", sys->nvswitch);
	nicfit_emit_int(e, "rails", sys->rails);
	nicfit_emit_begin_array(e, "hcas");
	for (i = 0; i < sys->rails; i++)
		nicfit_emit_string(e, NULL, sys->hca[i]);
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "rail_gpus");
	for (i = 0; i < sys->rails; i++)
		if (sys->rail_gpu[i] >= 0)
			nicfit_emit_int(e, NULL, sys->rail_gpu[i]);
		else
			nicfit_emit_null(e, NULL);
	nicfit_emit_end_array(e);
	nicfit_emit_bool(e, "hcas_assumed", sys->hca_assumed);
	nicfit_emit_number(e, "link_gbps", sys->link.gbps);
	if (sys->rails)
		nicfit_emit_string(e, "fabric", sys->ib ? "infiniband" : "roce");
	else
		nicfit_emit_null(e, "fabric");
	nicfit_emit_number(e, "rail_pcie_gbps", sys->rail_pcie_gbps);
	nicfit_emit_string(e, "rail_part", sys->rail_part[0] ? sys->rail_part : NULL);
	nicfit_emit_number(e, "frontend_gbps", sys->fe_port_gbps);
	nicfit_emit_number(e, "storage_gbps", sys->st_gbps);
	nicfit_emit_number(e, "gpu_pcie_gbps", sys->gpu_pcie_gbps);
	nicfit_emit_string(e, "launcher", sys->launcher == NICFIT_ACCEPT_SRUN ? "srun" : "mpirun");
	nicfit_emit_end_object(e);
}

static void json_step(struct nicfit_emit *e, const struct nicfit_accept *a,
		      const struct nicfit_accept_step *s)
{
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_int(e, "step", (long long)(s - a->steps) + 1);
	nicfit_emit_string(e, "name", s->name);
	nicfit_emit_string(e, "host", host_or_null(a, s->a));
	nicfit_emit_string(e, "peer", host_or_null(a, s->b));
	if (s->rail >= 0) {
		nicfit_emit_int(e, "rail", s->rail);
		nicfit_emit_string(e, "hca", a->sys.hca[s->rail]);
	} else {
		nicfit_emit_null(e, "rail");
		nicfit_emit_null(e, "hca");
	}
	if (s->gpu >= 0)
		nicfit_emit_int(e, "gpu", s->gpu);
	else
		nicfit_emit_null(e, "gpu");
	if (s->round > 0)
		nicfit_emit_int(e, "round", s->round);
	else
		nicfit_emit_null(e, "round");
	nicfit_emit_string(e, "server", s->server);
	nicfit_emit_string(e, "command", s->command);
	nicfit_emit_stringf(e, "result_file", "%s.txt", s->name);
	nicfit_emit_string(e, "status", nicfit_accept_status_name(s->status));
	if (s->measured_gbps >= 0) {
		nicfit_emit_number(e, "measured_gbps", s->measured_gbps);
		nicfit_emit_number(e, "ratio", s->ratio);
	} else {
		nicfit_emit_null(e, "measured_gbps");
		nicfit_emit_null(e, "ratio");
	}
	nicfit_emit_string(e, "what", s->what);
	json_lines(e, "causes", s->causes);
	nicfit_emit_string(e, "next", s->next);
	nicfit_emit_end_object(e);
}

static void json_stages(struct nicfit_emit *e, const struct nicfit_accept *a)
{
	size_t i, k;

	nicfit_emit_begin_array(e, "stages");
	for (i = 0; i < a->nstages; i++) {
		const struct nicfit_accept_stage *st = &a->stages[i];
		const struct nicfit_accept_band *b = &st->band;

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_int(e, "stage", (long long)i + 1);
		nicfit_emit_string(e, "kind", nicfit_accept_kind_name(st->kind));
		nicfit_emit_string(e, "title", st->title);
		nicfit_emit_string(e, "proves", st->proves);
		nicfit_emit_begin_object(e, "band");
		nicfit_emit_string(e, "measure", b->busbw ? "busbw" : "bandwidth");
		nicfit_emit_number(e, "ceiling_gbps", b->ceiling_gbps);
		nicfit_emit_number(e, "typical_gbps", b->typical_gbps);
		nicfit_emit_number(e, "broken_gbps", b->broken_gbps);
		if (b->nvls_gbps > 0)
			nicfit_emit_number(e, "nvls_gbps", b->nvls_gbps);
		else
			nicfit_emit_null(e, "nvls_gbps");
		nicfit_emit_string(e, "formula", b->formula);
		nicfit_emit_string(e, "lines", b->lines);
		nicfit_emit_string(e, "source", b->source);
		nicfit_emit_end_object(e);
		nicfit_emit_begin_array(e, "steps");
		for (k = 0; k < st->nsteps; k++)
			json_step(e, a, &a->steps[st->first + k]);
		nicfit_emit_end_array(e);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static void json_counts(struct nicfit_emit *e, const size_t c[5])
{
	nicfit_emit_int(e, "pass", (long long)c[NICFIT_ACCEPT_PASS]);
	nicfit_emit_int(e, "low", (long long)c[NICFIT_ACCEPT_LOW]);
	nicfit_emit_int(e, "broken", (long long)c[NICFIT_ACCEPT_BROKEN]);
	nicfit_emit_int(e, "missing", (long long)c[NICFIT_ACCEPT_MISSING]);
}

static const char *const fault_name[] = {
	[NICFIT_ACCEPT_FAULT_HOST] = "host",
	[NICFIT_ACCEPT_FAULT_ROUTE] = "route",
	[NICFIT_ACCEPT_FAULT_EITHER] = "either",
};

static void json_isolated(struct nicfit_emit *e, const struct nicfit_accept *a)
{
	size_t i;

	nicfit_emit_begin_array(e, "isolated");
	for (i = 0; i < a->nisolated; i++) {
		const struct nicfit_accept_isolated *x = &a->isolated[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_int(e, "rail", x->rail);
		nicfit_emit_string(e, "hca", a->sys.hca[x->rail]);
		nicfit_emit_string(e, "fault", fault_name[x->fault]);
		nicfit_emit_string(e, "host", host_or_null(a, x->host));
		nicfit_emit_string(e, "host_a", host_or_null(a, x->a));
		nicfit_emit_string(e, "host_b", host_or_null(a, x->b));
		nicfit_emit_int(e, "failed_pairs", x->failed);
		nicfit_emit_int(e, "pairs", x->pairs);
		if (x->round)
			nicfit_emit_int(e, "round", x->round);
		else
			nicfit_emit_null(e, "round");
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

/* The isolated faults as the report's lines. */
static void text_isolated(struct nicfit_emit *e, const struct nicfit_accept *a, int md)
{
	size_t i;

	for (i = 0; i < a->nisolated; i++) {
		const struct nicfit_accept_isolated *x = &a->isolated[i];
		const char *hca = a->sys.hca[x->rail];

		nicfit_emit_printf(e, "%sIsolated: rail %d (%s): ", md ? "- " : "", x->rail, hca);
		if (x->fault == NICFIT_ACCEPT_FAULT_HOST)
			nicfit_emit_printf(e, "%s, failing %d of its %d pairs: its port, cable or "
					   "GPUDirect path%s\n", a->hosts[x->host], x->failed,
					   x->pairs, x->round == 2 ? " (round 2, the bisection, "
					   "names it)" : x->round == 1 && a->npairs > 1 ?
					   (strcmp(a->pattern, "all pairs") ? " (round 1, the ring, "
					    "names it)" : " (all pairs name it)") : "");
		else if (x->fault == NICFIT_ACCEPT_FAULT_ROUTE)
			nicfit_emit_printf(e, "the route between %s and %s (a leaf or spine port on "
					   "it): both pass with other nodes%s\n", a->hosts[x->a],
					   a->hosts[x->b], x->round == 2 ? " (round 2, the bisection, "
					   "names it)" : "");
		else
			nicfit_emit_printf(e, "%s or %s, or the route between them: %s\n",
					   a->hosts[x->a], a->hosts[x->b], a->npairs == 1 ?
					   "one pair cannot tell its ends apart (test each against a "
					   "third node)" : "no other pair of theirs passed to tell them "
					   "apart (run the pairs the report lists as missing)");
	}
}

static void json_judgement(struct nicfit_emit *e, const struct nicfit_accept *a)
{
	size_t c[5];
	int i;

	if (!a->judged) {
		nicfit_emit_null(e, "judgement");
		return;
	}
	nicfit_emit_begin_object(e, "judgement");
	nicfit_emit_string(e, "results", a->results);
	nicfit_emit_int(e, "exit_status", nicfit_accept_exit_code(a));
	json_counts(e, a->counts);
	nicfit_emit_string(e, "odd_hosts", a->odd_hosts);
	json_isolated(e, a);
	nicfit_emit_begin_array(e, "hosts");
	for (i = 0; i < a->sys.nodes; i++) {
		nicfit__accept_host_counts(a, i, c);
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "host", a->hosts[i]);
		json_counts(e, c);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "rails");
	for (i = 0; i < a->sys.rails; i++) {
		nicfit__accept_rail_counts(a, i, c);
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_int(e, "rail", i);
		nicfit_emit_string(e, "hca", a->sys.hca[i]);
		json_counts(e, c);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
}

/* ---- text and Markdown ---------------------------------------------------------- */

static void text_system(struct nicfit_emit *e, const struct nicfit_accept *a)
{
	const struct nicfit_accept_system *sys = &a->sys;
	int i, md = nicfit_emit_format(e) == NICFIT_FMT_MD;
	const char *b = md ? "- **" : "", *eb = md ? "**" : "";
	char title[320];

	snprintf(title, sizeof(title), "Acceptance runbook: %s", sys->title);
	if (md)
		nicfit_emit_heading(e, title);
	else
		nicfit_emit_printf(e, "%s\n\n", title);
	nicfit_emit_printf(e, "%sNodes%s      %s", b, eb, a->hosts[0]);
	for (i = 1; i < sys->nodes && i < 4; i++)
		nicfit_emit_printf(e, ", %s", a->hosts[i]);
	if (sys->nodes > 4)
		nicfit_emit_printf(e, ", ... %s", a->hosts[sys->nodes - 1]);
	nicfit_emit_printf(e, " (%d node%s%s; two-node tests: %s, %zu pair%s)\n", sys->nodes,
			   sys->nodes == 1 ? "" : "s", !strcmp(sys->from, "host") ?
			   ", each built as the audited host" : "", a->pattern,
			   a->npairs, a->npairs == 1 ? "" : "s");
	if (a->rounds && a->sys.rails)
		nicfit_emit_printf(e, "%sRounds%s     %s\n", b, eb, a->rounds);
	if (sys->gpus_per_node)
		nicfit_emit_printf(e, "%sGPUs%s       %d x %s a node%s\n", b, eb, sys->gpus_per_node,
				   sys->gpu[0] ? sys->gpu : "GPU", sys->nvswitch ?
				   ", one NVSwitch domain" : "");
	if (sys->rails) {
		nicfit_emit_printf(e, "%sRails%s      %d a node, %.0fG %s%s%s:", b, eb, sys->rails,
				   sys->link.gbps, sys->ib ? "InfiniBand" : "RoCE v2",
				   sys->rail_part[0] ? ", " : "", sys->rail_part);
		for (i = 0; i < sys->rails; i++)
			if (sys->rail_gpu[i] >= 0)
				nicfit_emit_printf(e, " %s (GPU %d)", sys->hca[i], sys->rail_gpu[i]);
			else
				nicfit_emit_printf(e, " %s", sys->hca[i]);
		nicfit_emit_printf(e, "\n");
		if (sys->hca_assumed)
			nicfit_emit_printf(e, "%sdevice names assumed: the driver's PCI order; "
					   "check with ibdev2netdev and edit the commands\n",
					   md ? "- " : "           ");
	}
	if (sys->fe_port_gbps > 0)
		nicfit_emit_printf(e, "%sFront end%s  %g GbE%s%s\n", b, eb, sys->fe_port_gbps,
				   sys->fe_part[0] ? ", " : "", sys->fe_part);
}

static void text_band(struct nicfit_emit *e, const struct nicfit_accept_band *b, int md)
{
	const char *u = nicfit__accept_unit(b);
	const char *in = md ? "- **" : "  ", *out = md ? "**" : "";

	nicfit_emit_printf(e, "%sceiling%s  %.1f %s: %s\n", in, out,
			   nicfit__accept_shown(b, b->ceiling_gbps), u, b->formula);
	nicfit_emit_printf(e, "%spass%s     >= %.1f %s (typical); broken below %.1f %s (%s)\n", in,
			   out, nicfit__accept_shown(b, b->typical_gbps), u,
			   nicfit__accept_shown(b, b->broken_gbps), u, b->lines);
	if (b->nvls_gbps > 0)
		nicfit_emit_printf(e, "%sNVLS%s     up to %.1f %s where the NVSwitch reduces (NCCL "
				   "2.17 on, NVLink SHARP)\n", in, out,
				   nicfit__accept_shown(b, b->nvls_gbps), u);
	if (b->source)
		nicfit_emit_printf(e, "%ssource%s   %s\n", in, out, b->source);
}

static void text_step_cmds(struct nicfit_emit *e, const struct nicfit_accept *a,
			   const struct nicfit_accept_step *s, int md)
{
	const char *in = md ? "" : "        ";

	if (md)
		nicfit_emit_printf(e, "\n```\n");
	if (s->server)
		nicfit_emit_printf(e, "%son %s: %s &\n", in, a->hosts[s->a], s->server);
	if (s->b >= 0)
		nicfit_emit_printf(e, "%son %s: %s\n", in, a->hosts[s->b], s->command);
	else if (s->a >= 0)
		nicfit_emit_printf(e, "%son %s: %s\n", in, a->hosts[s->a], s->command);
	else
		nicfit_emit_printf(e, "%s%s\n", in, s->command);
	if (md)
		nicfit_emit_printf(e, "```\n");
}

static void text_runbook(struct nicfit_emit *e, const struct nicfit_accept *a)
{
	int md = nicfit_emit_format(e) == NICFIT_FMT_MD;
	size_t i, k;
	char title[200];

	for (i = 0; i < a->nstages; i++) {
		const struct nicfit_accept_stage *st = &a->stages[i];

		nicfit_emit_printf(e, "\n");
		snprintf(title, sizeof(title), "Stage %zu: %s (%zu step%s)", i + 1, st->title,
			 st->nsteps, st->nsteps == 1 ? "" : "s");
		if (md)
			nicfit_emit_heading(e, title);
		else
			nicfit_emit_printf(e, "%s%s%s\n", nicfit_emit_color(e, NICFIT_COLOR_BOLD),
					   title, nicfit_emit_color(e, NICFIT_COLOR_RESET));
		nicfit_emit_printf(e, "%sproves%s   %s\n", md ? "- **" : "  ", md ? "**" : "",
				   st->proves);
		text_band(e, &st->band, md);
		if (st->kind == NICFIT_ACCEPT_STORAGE)
			nicfit_emit_printf(e, "%sset%s      GDS_DIR to a directory on the storage under "
					   "test, as every node mounts it\n", md ? "- **" : "  ",
					   md ? "**" : "");
		if (md)
			nicfit_emit_printf(e, "\n");
		for (k = 0; k < st->nsteps; k++) {
			const struct nicfit_accept_step *s = &a->steps[st->first + k];

			if (s->round == 2 && (k == 0 || a->steps[st->first + k - 1].round != 2))
				nicfit_emit_printf(e, "%sround 2, bisection: each node with the node "
						   "half the ring away%s\n", md ? "*" : "  ",
						   md ? "*\n" : "");
			else if (s->round == 1 && k == 0 &&
				 a->steps[st->first + st->nsteps - 1].round == 2)
				nicfit_emit_printf(e, "%sround 1, ring: each node with the next%s\n",
						   md ? "*" : "  ", md ? "*\n" : "");
			if (md)
				nicfit_emit_printf(e, "Step %zu, output `%s.txt`:\n", st->first + k + 1,
						   s->name);
			else
				nicfit_emit_printf(e, "  %3zu  %s.txt\n", st->first + k + 1, s->name);
			text_step_cmds(e, a, s, md);
		}
	}
	nicfit_emit_printf(e, "\nThe script (--script) runs every step over ssh and keeps each "
			   "output; judge them with nicfit accept ... --results DIR.\n");
}

static void text_failing(struct nicfit_emit *e, const struct nicfit_accept *a,
			 const struct nicfit_accept_step *s)
{
	const struct nicfit_accept_band *b = &a->stages[s->stage].band;
	int md = nicfit_emit_format(e) == NICFIT_FMT_MD;
	const char *sub = md ? "  - " : "        ", *p = s->causes;

	if (md)
		nicfit_emit_printf(e, "- **%s** step %zu `%s`", nicfit_accept_status_name(s->status),
				   (size_t)(s - a->steps) + 1, s->name);
	else
		nicfit_emit_printf(e, "  %s%-7s%s %3zu  %s", nicfit_emit_color(e, s->status ==
				   NICFIT_ACCEPT_BROKEN ? NICFIT_COLOR_RED : NICFIT_COLOR_YELLOW),
				   nicfit_accept_status_name(s->status), nicfit_emit_color(e,
				   NICFIT_COLOR_RESET), (size_t)(s - a->steps) + 1, s->name);
	if (s->rail >= 0)
		nicfit_emit_printf(e, " (rail %d, %s)", s->rail, a->sys.hca[s->rail]);
	nicfit_emit_printf(e, "\n");
	if (s->measured_gbps >= 0)
		nicfit_emit_printf(e, "%s%.1f %s = %.0f %% of the %.1f ceiling (pass >= %.1f, "
				   "broken < %.1f): %s\n", sub, nicfit__accept_shown(b, s->measured_gbps),
				   nicfit__accept_unit(b), 100 * s->ratio,
				   nicfit__accept_shown(b, b->ceiling_gbps),
				   nicfit__accept_shown(b, b->typical_gbps),
				   nicfit__accept_shown(b, b->broken_gbps), s->what);
	else if (s->what)
		nicfit_emit_printf(e, "%s%s\n", sub, s->what);
	while (p && *p) {
		const char *end = strchr(p, '\n');
		int n = end ? (int)(end - p) : (int)strlen(p);

		nicfit_emit_printf(e, "%scause: %.*s\n", sub, n, p);
		p = end ? end + 1 : NULL;
	}
	if (s->next)
		nicfit_emit_printf(e, "%snext:  %s\n", sub, s->next);
}

static const struct nicfit_column count_cols[] = {
	{ "name", "HOST", 0 }, { "pass", "PASS", 1 }, { "low", "LOW", 1 },
	{ "broken", "BROKEN", 1 }, { "missing", "MISSING", 1 },
};

static void text_counts_row(struct nicfit_emit *e, const char *name, const size_t c[5])
{
	nicfit_emit_cell_string(e, name);
	nicfit_emit_cell_int(e, (long long)c[NICFIT_ACCEPT_PASS]);
	nicfit_emit_cell_int(e, (long long)c[NICFIT_ACCEPT_LOW]);
	nicfit_emit_cell_int(e, (long long)c[NICFIT_ACCEPT_BROKEN]);
	nicfit_emit_cell_int(e, (long long)c[NICFIT_ACCEPT_MISSING]);
}

static const struct nicfit_column rail_cols[] = {
	{ "name", "RAIL", 0 }, { "pass", "PASS", 1 }, { "low", "LOW", 1 },
	{ "broken", "BROKEN", 1 }, { "missing", "MISSING", 1 },
};

static void text_report(struct nicfit_emit *e, const struct nicfit_accept *a)
{
	size_t c[5], i, failing = 0;
	char name[64];
	int h, rc = nicfit_accept_exit_code(a), md = nicfit_emit_format(e) == NICFIT_FMT_MD;

	snprintf(name, sizeof(name), "%s", rc == 2 ? "BROKEN" : rc ? "NOT ACCEPTED" : "ACCEPTED");
	if (md) {
		char title[320];

		snprintf(title, sizeof(title), "Acceptance of %s: %s", a->sys.title, name);
		nicfit_emit_heading(e, title);
	} else {
		nicfit_emit_printf(e, "Acceptance of %s: %s ", a->sys.title, name);
	}
	nicfit_emit_printf(e, "(%zu pass, %zu low, %zu broken, %zu missing "
			   "of %zu steps; results %s)\n", a->counts[NICFIT_ACCEPT_PASS],
			   a->counts[NICFIT_ACCEPT_LOW], a->counts[NICFIT_ACCEPT_BROKEN],
			   a->counts[NICFIT_ACCEPT_MISSING], a->nsteps, a->results);
	if (md)
		nicfit_emit_printf(e, "\n");
	if (a->odd_hosts)
		nicfit_emit_printf(e, "%sOdd host out: %s (the most failing steps, in more than one "
				   "pair)\n", md ? "- " : "", a->odd_hosts);
	text_isolated(e, a, md);
	for (h = 0; h < a->sys.rails; h++) {
		nicfit__accept_rail_counts(a, h, c);
		if (c[NICFIT_ACCEPT_LOW] + c[NICFIT_ACCEPT_BROKEN])
			nicfit_emit_printf(e, "%sFailing rail: %d (%s), %zu of %zu steps low or "
					   "broken\n", md ? "- " : "", h, a->sys.hca[h], c[NICFIT_ACCEPT_LOW] +
					   c[NICFIT_ACCEPT_BROKEN], c[0] + c[1] + c[2] + c[3] + c[4]);
	}
	for (i = 0; i < a->nsteps; i++)
		failing += nicfit__accept_failed(&a->steps[i]);
	if (failing) {
		nicfit_emit_printf(e, "\n");
		nicfit_emit_heading(e, "Failing steps");
		for (i = 0; i < a->nsteps; i++)
			if (a->steps[i].status == NICFIT_ACCEPT_BROKEN)
				text_failing(e, a, &a->steps[i]);
		for (i = 0; i < a->nsteps; i++)
			if (a->steps[i].status == NICFIT_ACCEPT_LOW ||
			    a->steps[i].status == NICFIT_ACCEPT_MISSING)
				text_failing(e, a, &a->steps[i]);
	}
	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Per host");
	nicfit_emit_table_begin(e, NULL, count_cols, 5);
	for (h = 0; h < a->sys.nodes; h++) {
		nicfit__accept_host_counts(a, h, c);
		text_counts_row(e, a->hosts[h], c);
	}
	nicfit_emit_table_end(e);
	if (a->sys.rails) {
		nicfit_emit_printf(e, "\n");
		nicfit_emit_heading(e, "Per rail");
		nicfit_emit_table_begin(e, NULL, rail_cols, 5);
		for (h = 0; h < a->sys.rails; h++) {
			nicfit__accept_rail_counts(a, h, c);
			snprintf(name, sizeof(name), "%d %s", h, a->sys.hca[h]);
			text_counts_row(e, name, c);
		}
		nicfit_emit_table_end(e);
	}
	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Steps");
	for (i = 0; i < a->nsteps; i++) {
		const struct nicfit_accept_step *s = &a->steps[i];
		const struct nicfit_accept_band *b = &a->stages[s->stage].band;

		if (s->measured_gbps >= 0)
			nicfit_emit_printf(e, "%s%3zu  %-8s %s: %.1f of %.1f %s\n", md ? "- " : "  ", i + 1,
					   nicfit_accept_status_name(s->status), s->name,
					   nicfit__accept_shown(b, s->measured_gbps),
					   nicfit__accept_shown(b, b->ceiling_gbps),
					   nicfit__accept_unit(b));
		else
			nicfit_emit_printf(e, "%s%3zu  %-8s %s\n", md ? "- " : "  ", i + 1,
					   nicfit_accept_status_name(s->status), s->name);
	}
}

int nicfit_accept_render(const struct nicfit_accept *a, struct nicfit_emit *e)
{
	/* the judged report's tables, so that -o names the same columns either way */
	nicfit_emit_columns(e, count_cols, 5);
	nicfit_emit_columns(e, rail_cols, 5);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.accept.v1");
	json_system(e, a);
	nicfit_emit_begin_object(e, "pairs");
	nicfit_emit_string(e, "pattern", a->pattern);
	nicfit_emit_int(e, "count", (long long)a->npairs);
	nicfit_emit_string(e, "rounds", a->rounds);
	nicfit_emit_end_object(e);
	json_stages(e, a);
	json_judgement(e, a);
	/* the report's tables are the JSON's judgement: in JSON they are not shown again */
	if (a->judged && nicfit_emit_is_text(e))
		text_report(e, a);
	else {
		text_system(e, a);
		text_runbook(e, a);
	}
	nicfit_emit_end_object(e);
	return 0;
}
