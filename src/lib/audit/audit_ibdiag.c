/*
 * audit_ibdiag.c - what a paste shows of the InfiniBand fabric and of a
 * port read more than once, judged as printed:
 *
 * - iblinkinfo's links (dump/dump_iblink.c): a link that runs below what
 *   both its ends support, as iblinkinfo itself says it ("Could be 4X",
 *   infiniband-diags' get_max_msg(): the widest width and fastest speed
 *   both ports list as supported, against the active ones), is a link that
 *   trained down: a warning, once per link (iblinkinfo prints a link from
 *   both ends). A port left at Initialize or Armed is one the subnet
 *   manager has not brought up (ib-no-subnet-manager). Ports without link
 *   are listed per node: on a switch that is an unused port as often as a
 *   fault (info); on a host's adapter a warning.
 * - a port whose state changed between two readings in one paste (ibstat,
 *   ibv_devinfo, `rdma link`, ibstatus run again): the link went down or
 *   retrained in between, which is what breaks a job's connections; both
 *   readings are named. Readings of one name with two node GUIDs come from
 *   two hosts and are not compared.
 *
 * The links are kept for the renderers: JSON "ib_links", a text table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/dump_facts.h"
#include "core/finding_int.h"
#include "nicfit/emit.h"

#define S_IBLINK "iblinkinfo (rdma-core infiniband-diags/iblinkinfo.c: print_port(); " \
	"\"Could be\" from ibdiag_common.c get_max_msg())"
#define S_PORT_READ "the port's state and physical state as ibstat, ibv_devinfo, ibstatus or " \
	"`rdma link` printed them, each reading with its line"

struct nicfit_audit_ibdiag {
	struct dump_iblink *links;
	size_t n, dropped;
	char name[160];           /* the text the links came from */
};

size_t nicfit__audit_ibdiag_count(const struct nicfit_audit_ibdiag *ib)
{
	return ib ? ib->n : 0;
}

void nicfit__audit_ibdiag_free(struct nicfit_audit_ibdiag *ib)
{
	if (!ib)
		return;
	free(ib->links);
	free(ib);
}

/* ---- a port read twice ------------------------------------------------------- */

static void state_words(char *out, size_t n, int state, int phys)
{
	const char *ph = nicfit__dump_phys_state_name(phys);

	if (*ph)
		snprintf(out, n, "%s (%s)", nicfit__dump_port_state_name(state), ph);
	else
		snprintf(out, n, "%s", nicfit__dump_port_state_name(state));
}

/* rdma-port-state-changed for each port whose readings differ. Returns ports judged, -1 OOM. */
static int judge_changes(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	size_t i;
	int k, judged = 0;

	for (i = 0; i < d->nrdma; i++) {
		const struct dump_rdma *x = &d->rdma[i];

		for (k = 0; k < x->nports && !x->guid_conflict; k++) {
			const struct dump_rport *p = &x->ports[k];
			char was[64], now[64];
			struct nicfit_finding *f;

			if (!p->changes)
				continue;
			judged++;
			state_words(was, sizeof(was), p->first_state, p->first_phys);
			state_words(now, sizeof(now), p->state, p->phys);
			f = nicfit__find(&a->findings, NICFIT_SEV_WARNING,
					 NICFIT_CODE_RDMA_PORT_STATE_CHANGED,
					 x->name[0] ? x->name : "(unnamed RDMA device)",
					 "%s port %d reads %s at %s:%d and %s at %s:%d (%d readings, %d "
					 "change%s): the port's link went down or retrained between the "
					 "readings, and a link that changes state drops the connections "
					 "over it (a job's queue pairs fail or hang). The paste does not "
					 "say which host each reading is from: readings of two hosts' "
					 "devices of one name differ too.",
					 x->name[0] ? x->name : "(unnamed RDMA device)", p->num, was,
					 d->texts[p->first_at.text].name, p->first_at.line, now,
					 d->texts[p->state_at.text].name, p->state_at.line, p->readings,
					 p->changes, p->changes == 1 ? "" : "s");
			if (!f || nicfit__finding_fix(&a->findings, f, "Read the port a few more "
						      "times over some minutes (`ibstat DEVICE` or "
						      "`rdma link show DEVICE/PORT`); if it keeps "
						      "changing, reseat or replace its cable or "
						      "transceiver and read the error counters of both "
						      "ends (`perfquery` on InfiniBand, `ethtool -S IF` "
						      "on Ethernet) and the kernel log's link messages."))
				return -1;
			f->source = S_PORT_READ;
		}
	}
	return judged;
}

/* ---- iblinkinfo -------------------------------------------------------------- */

/* How a finding names a link's node: a switch's or a host adapter's description. */
static void node_words(char *out, size_t n, const struct dump_iblink *l)
{
	snprintf(out, n, "%s\"%s\"", l->is_switch == 1 ? "switch " : l->is_switch == 0 ? "CA " : "",
		 l->node);
}

/* Whether link i is the far side of a link judged before it (iblinkinfo prints both). */
static int seen_before(const struct nicfit_audit_ibdiag *ib, size_t i)
{
	const struct dump_iblink *l = &ib->links[i];
	size_t k;

	for (k = 0; k < i; k++) {
		const struct dump_iblink *o = &ib->links[k];

		if (o->lid == l->rlid && o->port == l->rport && o->rlid == l->lid &&
		    o->rport == l->port && (o->could_width || o->could_speed[0]))
			return 1;
	}
	return 0;
}

static int judge_degraded(struct nicfit_audit *a, const struct nicfit_audit_ibdiag *ib, size_t i)
{
	const struct dump_iblink *l = &ib->links[i];
	char node[96], could[64], runs[64];
	const char *gen;
	double lane;
	struct nicfit_finding *f;

	node_words(node, sizeof(node), l);
	gen = nicfit__dump_iblink_generation(l, &lane);
	if (gen && l->width)
		snprintf(runs, sizeof(runs), "%dX %s Gbps (%s, %g Gb/s)", l->width, l->speed, gen,
			 l->width * lane);
	else
		snprintf(runs, sizeof(runs), "%dX %s Gbps", l->width, l->speed);
	if (l->could_width && l->could_speed[0])
		snprintf(could, sizeof(could), "%dX and %s", l->could_width, l->could_speed);
	else if (l->could_width)
		snprintf(could, sizeof(could), "%dX", l->could_width);
	else
		snprintf(could, sizeof(could), "%s", l->could_speed);
	f = nicfit__find(&a->findings, NICFIT_SEV_WARNING, NICFIT_CODE_IB_LINK_DEGRADED, l->node,
			 "%s port %d (LID %d) to \"%s\" port %d (LID %d) runs %s, and iblinkinfo "
			 "(%s:%d) says it could be %s: both ends support more, so the link "
			 "trained down%s.", node, l->port, l->lid, l->remote, l->rport, l->rlid,
			 runs, ib->name, l->at.line, could, l->could_width ?
			 " to fewer lanes (a lane that does not train: a damaged cable, a dirty "
			 "or loose connector, a failing transceiver)" :
			 " to a slower speed (a cable or transceiver not rated for the faster "
			 "one, or one that fails at it)");
	if (!f || nicfit__finding_fix(&a->findings, f, "Reseat the cable at both ends and "
				      "replace it (or its transceivers) if the link trains down "
				      "again; `ibportstate %d %d` (infiniband-diags) shows what the "
				      "port supports and has enabled, `perfquery -x %d %d` its "
				      "symbol and link-recovery error counters.", l->lid, l->port,
				      l->lid, l->port))
		return -1;
	f->source = S_IBLINK;
	return 0;
}

static void flush_run(char *out, size_t n, size_t *l, int first, int last)
{
	if (first < 0 || *l >= n)
		return;
	*l += (size_t)(last > first ? snprintf(out + *l, n - *l, "%s%d-%d", *l ? ", " : "", first,
					       last)
				    : snprintf(out + *l, n - *l, "%s%d", *l ? ", " : "", first));
}

/* "8, 10-13, 15": the Down ports of link at's node (physical state ph, -1 any); their count. */
static int port_list(const struct nicfit_audit_ibdiag *ib, size_t at, int ph, char *out,
		     size_t n)
{
	const struct dump_iblink *h = &ib->links[at];
	size_t i, l = 0;
	int count = 0, first = -1, last = -1;

	out[0] = '\0';
	for (i = at; i < ib->n; i++) {
		const struct dump_iblink *x = &ib->links[i];

		if (strcmp(x->node, h->node) || strcmp(x->guid, h->guid) || x->state != 1 ||
		    (ph >= 0 && x->phys != ph))
			continue;
		count++;
		if (first >= 0 && x->port == last + 1) {
			last = x->port;
			continue;
		}
		flush_run(out, n, &l, first, last);
		first = last = x->port;
	}
	flush_run(out, n, &l, first, last);
	return count;
}

/* Ports without link, one finding a node (its first such line). Returns -1 on OOM. */
static int judge_down(struct nicfit_audit *a, const struct nicfit_audit_ibdiag *ib, size_t i)
{
	const struct dump_iblink *l = &ib->links[i];
	char node[96], polling[256], disabled[256], other[256], what[800];
	size_t k, w = 0;
	int listed = 0, np, nd, no;
	struct nicfit_finding *f;

	for (k = 0; k < i; k++)
		if (ib->links[k].state == 1 && !strcmp(ib->links[k].node, l->node) &&
		    !strcmp(ib->links[k].guid, l->guid))
			return 0; /* the node's down ports were listed with its first */
	for (k = 0; k < ib->n; k++)
		listed += !strcmp(ib->links[k].node, l->node) && !strcmp(ib->links[k].guid, l->guid);
	np = port_list(ib, i, 2, polling, sizeof(polling));
	nd = port_list(ib, i, 3, disabled, sizeof(disabled));
	no = port_list(ib, i, -1, other, sizeof(other)) - np - nd;
	if (np)
		w += (size_t)snprintf(what + w, sizeof(what) - w, " Down/Polling (no cable, or the "
				      "far end is down or off): %s;", polling);
	if (nd && w < sizeof(what))
		w += (size_t)snprintf(what + w, sizeof(what) - w, " Down/Disabled (turned off by "
				      "the subnet manager or an administrator): %s;", disabled);
	if (no > 0 && w < sizeof(what))
		snprintf(what + w, sizeof(what) - w, " Down in another physical state: %d;", no);
	node_words(node, sizeof(node), l);
	f = nicfit__find(&a->findings, l->is_switch == 1 ? NICFIT_SEV_INFO : NICFIT_SEV_WARNING,
			 NICFIT_CODE_IB_PORT_NO_LINK, l->node, "%s has %d of the %d ports iblinkinfo "
			 "lists (%s:%d) without link:%s %s", node, np + nd + (no > 0 ? no : 0), listed,
			 ib->name, l->at.line, what, l->is_switch == 1 ?
			 "fine for ports left unused." : "a host adapter's port without link "
			 "carries no traffic.");
	if (!f || nicfit__finding_fix(&a->findings, f, "For a port that should carry a link: "
				      "check its cable and the device at the other end; "
				      "`ibportstate %d %d` (infiniband-diags) shows the port's "
				      "state and what it supports.", l->lid, l->port))
		return -1;
	f->source = S_IBLINK;
	return 0;
}

/* Initialize or Armed: up, but the subnet manager has not finished with it. */
static int judge_init(struct nicfit_audit *a, const struct nicfit_audit_ibdiag *ib, size_t i)
{
	const struct dump_iblink *l = &ib->links[i];
	char node[96];
	struct nicfit_finding *f;

	node_words(node, sizeof(node), l);
	f = nicfit__find(&a->findings, NICFIT_SEV_WARNING, NICFIT_CODE_IB_NO_SUBNET_MANAGER, l->node,
			 "%s port %d (LID %d) is %s in iblinkinfo (%s:%d): the link is up but the "
			 "subnet manager has not %s, so it passes no traffic.", node, l->port,
			 l->lid, l->state == 2 ? "Initialize" : "Armed", ib->name, l->at.line,
			 l->state == 2 ? "configured it" : "activated it");
	if (!f || nicfit__finding_fix(&a->findings, f, "Run a subnet manager on the fabric: "
				      "enable the switch's SM, or `systemctl start opensm` on one "
				      "host; `sminfo` says whether one answers."))
		return -1;
	f->source = S_IBLINK;
	return 0;
}

/* An ACTIVE link's rate (width x the generation's nominal lane rate), -1 unknown. */
static double active_rate(const struct dump_iblink *l)
{
	double lane;

	if (l->state != 4 || !l->width || !nicfit__dump_iblink_generation(l, &lane) || lane <= 0)
		return -1;
	return l->width * lane;
}

/* Whether active link l runs below rate mode with no "Could be" note (both ends at their best). */
static int below(const struct dump_iblink *l, double mode)
{
	double r = active_rate(l);

	return r > 0 && r < mode && !l->could_width && !l->could_speed[0];
}

/*
 * ib-link-below-fabric: links that run below the rate most of the
 * fabric's links run at, where iblinkinfo prints no "Could be": both ends
 * run the most they both support, so one end (an adapter or switch of an
 * older generation) caps the link. An info note, once for the fabric,
 * naming the links (each once, though iblinkinfo prints both ends).
 */
static int judge_below(struct nicfit_audit *a, const struct nicfit_audit_ibdiag *ib)
{
	double mode = -1;
	size_t i, k, l = 0;
	int best = 0, links = 0, active = 0;
	char list[1024] = "";
	struct nicfit_finding *f;

	for (i = 0; i < ib->n; i++) {
		double r = active_rate(&ib->links[i]);
		int c = 0;

		active += r > 0;
		for (k = 0; r > 0 && k < ib->n; k++)
			c += active_rate(&ib->links[k]) == r;
		if (c > best || (c == best && r > mode)) {
			best = c;
			mode = r;
		}
	}
	if (active < 3 || mode <= 0)
		return 0;
	for (i = 0; i < ib->n; i++) {
		const struct dump_iblink *x = &ib->links[i];
		const char *gen;
		double lane;

		if (!below(x, mode))
			continue;
		for (k = 0; k < i; k++) {
			const struct dump_iblink *o = &ib->links[k];

			if (below(o, mode) && o->lid == x->rlid && o->port == x->rport &&
			    o->rlid == x->lid && o->rport == x->port)
				break;
		}
		if (k < i)
			continue; /* its far end was listed */
		gen = nicfit__dump_iblink_generation(x, &lane);
		if (links++ < 8 && l < sizeof(list))
			l += (size_t)snprintf(list + l, sizeof(list) - l, "%s\"%s\" port %d (LID %d, "
					      "line %d) to \"%s\" port %d: %dX %s, %g Gb/s",
					      l ? "; " : "", x->node, x->port, x->lid, x->at.line,
					      x->remote, x->rport, x->width, gen ? gen : "?",
					      active_rate(x));
	}
	if (!links)
		return 0;
	f = nicfit__find(&a->findings, NICFIT_SEV_INFO, NICFIT_CODE_IB_LINK_BELOW_FABRIC, "fabric",
			 "%d link%s of iblinkinfo (%s) run%s below %g Gb/s, the rate %d of its %d "
			 "active port lines run at, and iblinkinfo prints no \"Could be\" for %s: "
			 "%s%s. Both ends run the most they both support, so one end (an adapter "
			 "or switch of an older generation) caps %s.", links, links == 1 ? "" : "s",
			 ib->name, links == 1 ? "s" : "", mode, best, active,
			 links == 1 ? "it" : "them", list, links > 8 ? "; ..." : "",
			 links == 1 ? "it" : "each");
	if (!f || nicfit__finding_fix(&a->findings, f, "Fine where that end was chosen so; "
				      "otherwise replace it with one of the fabric's generation "
				      "(`ibstat` on a host names its adapter's rate; "
				      "`ibportstate LID PORT` a port's supported speeds)."))
		return -1;
	f->source = S_IBLINK;
	return 0;
}

static int judge_links(struct nicfit_audit *a, const struct nicfit_audit_ibdiag *ib)
{
	size_t i;

	if (judge_below(a, ib))
		return -1;

	for (i = 0; i < ib->n; i++) {
		const struct dump_iblink *l = &ib->links[i];
		int rc = 0;

		if (l->state == 4 && (l->could_width > l->width || l->could_speed[0]) &&
		    !seen_before(ib, i))
			rc = judge_degraded(a, ib, i);
		else if (l->state == 1)
			rc = judge_down(a, ib, i);
		else if (l->state == 2 || l->state == 3)
			rc = judge_init(a, ib, i);
		if (rc)
			return -1;
	}
	return 0;
}

int nicfit__audit_ibdiag(const struct nicfit_dump *d, struct nicfit_audit *a,
			 struct nicfit_audit_ibdiag **out)
{
	struct nicfit_audit_ibdiag *ib;
	int changes = judge_changes(d, a);

	*out = NULL;
	if (changes < 0)
		return -1;
	if (!d->niblinks)
		return changes;
	ib = calloc(1, sizeof(*ib));
	if (!ib || !(ib->links = malloc(d->niblinks * sizeof(*ib->links)))) {
		free(ib);
		return -1;
	}
	memcpy(ib->links, d->iblinks, d->niblinks * sizeof(*ib->links));
	ib->n = d->niblinks;
	ib->dropped = d->iblinks_dropped;
	snprintf(ib->name, sizeof(ib->name), "%.150s", d->texts[d->iblinks[0].at.text].name);
	*out = ib;
	if (judge_links(a, ib))
		return -1;
	return changes + (int)ib->n;
}

/* ---- the links, as printed ---------------------------------------------------- */

static double link_rate(const struct dump_iblink *l, const char **gen)
{
	double lane;

	*gen = nicfit__dump_iblink_generation(l, &lane);
	return l->state == 4 && l->width && lane > 0 ? l->width * lane : -1;
}

void nicfit__audit_ibdiag_json(const struct nicfit_audit_ibdiag *ib, struct nicfit_emit *e)
{
	size_t i;

	nicfit_emit_begin_array(e, "ib_links");
	for (i = 0; ib && i < ib->n; i++) {
		const struct dump_iblink *l = &ib->links[i];
		const char *gen;
		double rate = link_rate(l, &gen);

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_stringf(e, "at", "%s:%d", ib->name, l->at.line);
		nicfit_emit_string(e, "node", l->node);
		if (l->is_switch < 0)
			nicfit_emit_null(e, "switch");
		else
			nicfit_emit_bool(e, "switch", l->is_switch);
		nicfit__audit_str_or_null(e, "guid", l->guid);
		nicfit_emit_int(e, "lid", l->lid);
		nicfit_emit_int(e, "port", l->port);
		nicfit__audit_str_or_null(e, "state", nicfit__dump_port_state_name(l->state));
		nicfit__audit_str_or_null(e, "phys_state", nicfit__dump_phys_state_name(l->phys));
		if (l->width)
			nicfit_emit_int(e, "width", l->width);
		else
			nicfit_emit_null(e, "width");
		if (l->lane_gbps > 0)
			nicfit_emit_number(e, "lane_gbps", l->lane_gbps);
		else
			nicfit_emit_null(e, "lane_gbps");
		nicfit__audit_str_or_null(e, "generation", l->lane_gbps > 0 ? gen : NULL);
		if (rate > 0)
			nicfit_emit_number(e, "rate_gbps", rate);
		else
			nicfit_emit_null(e, "rate_gbps");
		if (l->rlid >= 0) {
			nicfit_emit_begin_object(e, "remote");
			nicfit_emit_string(e, "node", l->remote);
			nicfit_emit_int(e, "lid", l->rlid);
			nicfit_emit_int(e, "port", l->rport);
			nicfit_emit_end_object(e);
		} else {
			nicfit_emit_null(e, "remote");
		}
		if (l->could_width)
			nicfit_emit_int(e, "could_be_width", l->could_width);
		else
			nicfit_emit_null(e, "could_be_width");
		nicfit__audit_str_or_null(e, "could_be_speed", l->could_speed);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static const struct nicfit_column link_cols[] = {
	{ "iblink_node", "node", 0 },
	{ "iblink_lid", "LID", 1 },
	{ "iblink_port", "port", 1 },
	{ "iblink_state", "state", 0 },
	{ "iblink_link", "link", 0 },
	{ "iblink_rate", "Gb/s", 1 },
	{ "iblink_remote", "far end (LID port)", 0 },
	{ "iblink_could", "could be", 0 },
};

void nicfit__audit_ibdiag_columns(struct nicfit_emit *e)
{
	nicfit_emit_columns(e, link_cols, (int)(sizeof(link_cols) / sizeof(link_cols[0])));
}

void nicfit__audit_ibdiag_text(const struct nicfit_audit_ibdiag *ib, struct nicfit_emit *e)
{
	size_t i;

	if (!ib || !ib->n)
		return;
	nicfit_emit_heading(e, "InfiniBand links as iblinkinfo printed them");
	nicfit_emit_table_begin(e, NULL, link_cols, (int)(sizeof(link_cols) / sizeof(link_cols[0])));
	for (i = 0; i < ib->n; i++) {
		const struct dump_iblink *l = &ib->links[i];
		const char *gen;
		double rate = link_rate(l, &gen);
		char buf[160];

		nicfit_emit_cell_string(e, l->node);
		nicfit_emit_cell_int(e, l->lid);
		nicfit_emit_cell_int(e, l->port);
		snprintf(buf, sizeof(buf), "%s/%s", nicfit__dump_port_state_name(l->state),
			 nicfit__dump_phys_state_name(l->phys));
		nicfit_emit_cell_string(e, buf);
		if (l->width && l->lane_gbps > 0) {
			snprintf(buf, sizeof(buf), "%dX %s Gbps%s%s", l->width, l->speed,
				 gen ? " " : "", gen ? gen : "");
			nicfit_emit_cell_string(e, buf);
		} else {
			nicfit_emit_cell_null(e, "-");
		}
		if (rate > 0)
			nicfit_emit_cell_number(e, rate, 0);
		else
			nicfit_emit_cell_null(e, "-");
		if (l->rlid >= 0) {
			snprintf(buf, sizeof(buf), "%s (%d %d)", l->remote, l->rlid, l->rport);
			nicfit_emit_cell_string(e, buf);
		} else {
			nicfit_emit_cell_null(e, "-");
		}
		if (l->could_width && l->could_speed[0])
			snprintf(buf, sizeof(buf), "%dX, %s", l->could_width, l->could_speed);
		else if (l->could_width)
			snprintf(buf, sizeof(buf), "%dX", l->could_width);
		else
			snprintf(buf, sizeof(buf), "%s", l->could_speed);
		if (buf[0])
			nicfit_emit_cell_string(e, buf);
		else
			nicfit_emit_cell_null(e, "-");
	}
	nicfit_emit_table_end(e);
	if (ib->dropped)
		nicfit_emit_printf(e, "  (%zu more port lines not kept)\n", ib->dropped);
}
