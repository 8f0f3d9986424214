/*
 * dump_iblink.c - iblinkinfo (infiniband-diags), every port of every node
 * the subnet discovery reached, read into the records of dump_facts.h (see
 * dump_int.h). The format is rdma-core's infiniband-diags/iblinkinfo.c,
 * print_node_header() and print_port():
 *
 *     Switch: 0x0002c902004b2678 Infiniscale-IV Mellanox Technologies:
 *                2    1[  ] ==( 4X          10.0 Gbps Active/  LinkUp)==>       3    1[  ] "teaker-11 HCA-1" ( )
 *                2    8[  ] ==(                Down/ Polling)==>             [  ] "" ( )
 *     CA: teaker-4 HCA-1:
 *           0xf45214030091b9f1      1    1[  ] ==( 4X          10.0 Gbps Active/  LinkUp)==>       2    9[  ] "..." ( )
 *
 * A node header ("Switch: GUID DESC:", "CA: DESC:", "Router: DESC:"),
 * then one line a port: a CA's port GUID, the LID (a switch's is its
 * port 0's), the port number with its external number in brackets, the
 * link in "==( ... )==>" (width, lane speed, state/physical state; a
 * port without link has only the states), then the far end's LID, port
 * and description, and in the last parentheses what the two ends could
 * run at when the link runs below it (get_max_msg() of ibdiag_common.c:
 * "Could be 4X", "Could be 25.78125 Gbps", "Could be FDR10"). With -l
 * (line mode) no header is printed: each line starts with the port's GUID
 * and the node's description in quotes, and the far end's GUID precedes
 * its LID. -p adds " (HOQ:n VL_Stall:n)" after the link; a port that no
 * far end answered reads "Port not available".
 *
 * The words are libibmad's (mad_dump_portstate, mad_dump_physportstate,
 * mad_dump_linkwidth, mad_dump_linkspeed and _linkspeedext): states Down,
 * Initialize, Armed, Active; physical states Sleep, Polling, Disabled,
 * PortConfigurationTraining, LinkUp, LinkErrorRecovery, PhyTest; widths
 * 1X, 2X, 4X, 8X, 12X; lane speeds 2.5, 5.0, 10.0, 14.0625, 25.78125,
 * 53.125, 106.25, 212.5 Gbps.
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc_int.h"
#include "dump/dump_int.h"
#include "nicfit/units.h"

#define IBLINK_MAX 8192 /* port lines kept: a 2,000-node fabric's */

static const char *skip(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static size_t word(const char *s)
{
	size_t n = 0;

	while (s[n] && s[n] != ' ' && s[n] != '\t')
		n++;
	return n;
}

/* "Down" .. "Active" to the kernel's numbers; -1 none. */
static int port_state(const char *s, size_t n)
{
	static const char *const t[] = { "NoChange", "Down", "Initialize", "Armed", "Active" };
	int i;

	for (i = 1; i < 5; i++)
		if (strlen(t[i]) == n && !strncmp(s, t[i], n))
			return i;
	return -1;
}

static int phys_state(const char *s, size_t n)
{
	static const char *const t[] = { "", "Sleep", "Polling", "Disabled",
					 "PortConfigurationTraining", "LinkUp",
					 "LinkErrorRecovery", "PhyTest" };
	int i;

	for (i = 1; i < 8; i++)
		if (strlen(t[i]) == n && !strncmp(s, t[i], n))
			return i;
	return -1;
}

/* "4X" -> 4 (1, 2, 4, 8, 12); 0 anything else. */
static int width_of(const char *s, size_t n)
{
	const char *e;
	long w;

	if (nicfit_scan_dec(s, 1, 12, &w, &e) != NICFIT_DEC_OK || *e != 'X' ||
	    (size_t)(e + 1 - s) != n || (w != 1 && w != 2 && w != 4 && w != 8 && w != 12))
		return 0;
	return (int)w;
}

/* "25.78125" -> 25.78125 (at most 6 decimals, no locale); -1 none. *end after it. */
static double number(const char *s, const char **end)
{
	long whole, frac = 0;
	const char *e;
	double scale = 1;

	if (nicfit_scan_dec(s, 0, 100000, &whole, &e) != NICFIT_DEC_OK)
		return -1;
	if (*e == '.') {
		const char *f = e + 1;

		if (nicfit_scan_dec(f, 0, 999999, &frac, &e) != NICFIT_DEC_OK || e - f > 6)
			return -1;
		while (f < e) {
			scale *= 10;
			f++;
		}
	}
	*end = e;
	return (double)whole + (double)frac / scale;
}

/* A node header: "Switch: 0xGUID DESC:", "CA: DESC:", "Router: DESC:"; 1 when it was one. */
static int header(struct nicfit_dump *d, const char *line)
{
	const char *s = line, *desc;
	size_t n;
	int sw = 0;

	if (!strncmp(s, "Switch: ", 8)) {
		sw = 1;
		s += 8;
	} else if (!strncmp(s, "CA: ", 4)) {
		s += 4;
	} else if (!strncmp(s, "Router: ", 8)) {
		s += 8;
	} else {
		return 0;
	}
	n = strlen(s);
	if (n < 2 || s[n - 1] != ':')
		return 0;
	d->iblink_guid[0] = '\0';
	desc = s;
	if (sw) {
		char g[17];

		if (strncmp(s, "0x", 2) || word(s) != 18 || nicfit__dump_guid(s, g))
			return 0;
		snprintf(d->iblink_guid, sizeof(d->iblink_guid), "%s", g);
		desc = skip(s + 18);
	}
	snprintf(d->iblink_node, sizeof(d->iblink_node), "%.*s",
		 (int)(n - 1 - (size_t)(desc - s)), desc);
	d->iblink_switch = sw;
	d->iblink_open = 1;
	return 1;
}

/* `"DESC"` at s into out (blanks nicfit pads with kept as printed, less the padding); the end. */
static const char *quoted(const char *s, char *out, size_t n)
{
	const char *q;

	if (*s != '"' || !(q = strchr(s + 1, '"')))
		return NULL;
	s = skip(s + 1); /* line mode pads the description to 30 columns */
	snprintf(out, n, "%.*s", (int)(q - s), s);
	return q + 1;
}

/* "LID PORT[EXT]" backwards from end (exclusive) within [from, end); 1 when read. */
static int lid_port(const char *from, const char *end, int *lid, int *port, const char **start)
{
	const char *p = end, *q, *e;
	long v;

	while (p > from && p[-1] != '[')
		p--;
	if (p == from)
		return 0;
	q = --p; /* at '[' */
	while (p > from && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == q || nicfit_scan_dec(p, 0, 255, &v, &e) != NICFIT_DEC_OK)
		return 0;
	*port = (int)v;
	q = p;
	while (q > from && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	p = q;
	while (p > from && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == q || nicfit_scan_dec(p, 0, 0xffff, &v, &e) != NICFIT_DEC_OK)
		return 0;
	*lid = (int)v;
	*start = p;
	return 1;
}

/* The link between "==(" and ")==>": width, lane speed, state/physical state. 1 when read. */
static int link_of(struct dump_iblink *l, const char *s)
{
	const char *slash = strchr(s, '/'), *st, *ph, *e;
	size_t n;

	if (!slash)
		return 0;
	e = slash;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--; /* "Active / LinkUp" */
	st = e;
	while (st > s && st[-1] != ' ' && st[-1] != '(' && st[-1] != '\t')
		st--;
	l->state = port_state(st, (size_t)(e - st));
	ph = skip(slash + 1);
	n = strcspn(ph, " )\t");
	l->phys = phys_state(ph, n);
	if (l->state < 0 || l->phys < 0)
		return 0;
	s = skip(s);
	if (s == st)
		return 1; /* a port without link: its states alone */
	l->width = width_of(s, word(s));
	s = skip(s + word(s));
	l->lane_gbps = number(s, &e);
	if (l->lane_gbps > 0 && !strncmp(e, " Gbps", 5)) {
		l->fdr10 = !strncmp(skip(e + 5), "(FDR10)", 7);
		snprintf(l->speed, sizeof(l->speed), "%.*s", (int)(e - s), s);
	} else {
		l->lane_gbps = 0;
	}
	return 1;
}

/* The far end, after ")==>": [0xGUID] LID PORT[EXT] "DESC" (MSGS); or a port without one. */
static void remote_of(struct dump_iblink *l, const char *s)
{
	const char *q = strchr(s, '"'), *start, *p, *c;

	if (!q)
		return;
	if (lid_port(s, q, &l->rlid, &l->rport, &start) && (p = quoted(q, l->remote,
								     sizeof(l->remote))) != NULL)
		s = p;
	else
		return;
	/* get_max_msg(): "(Could be 4X Could be 25.78125 Gbps)" */
	for (c = strstr(s, "Could be "); c; c = strstr(c, "Could be ")) {
		const char *v = c + 9, *next = strstr(v, "Could be ");
		size_t n = next ? (size_t)(next - v) : strcspn(v, ")");
		int w = width_of(v, word(v));

		while (n && (v[n - 1] == ' ' || v[n - 1] == ')'))
			n--;
		if (w)
			l->could_width = w;
		else if (n)
			snprintf(l->could_speed, sizeof(l->could_speed), "%.*s", (int)n, v);
		c = v;
	}
}

int nicfit__dump_iblink_line(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	const char *open = strstr(line, "==("), *close, *s = skip(line), *start;
	struct dump_iblink l;
	char g[17];

	if (!open) {
		d->iblink_open = header(d, line);
		return d->iblink_open;
	}
	close = strstr(open, "==>");
	if (!close)
		return 0;
	memset(&l, 0, sizeof(l));
	l.at = at;
	l.is_switch = -1;
	l.rlid = l.rport = -1;
	if (!lid_port(line, open, &l.lid, &l.port, &start))
		return 0;
	if (!strncmp(s, "0x", 2) && word(s) == 18 && !nicfit__dump_guid(s, g)) {
		snprintf(l.guid, sizeof(l.guid), "%s", g); /* a CA's port, or -l's first column */
		if (skip(s + 18)[0] == '"' && !quoted(skip(s + 18), l.node, sizeof(l.node)))
			return 0;
		if (l.node[0])
			d->iblink_open = 0; /* -l prints no headers: a node of its own */
	}
	if (!l.node[0] && d->iblink_open) { /* under a header */
		snprintf(l.node, sizeof(l.node), "%s", d->iblink_node);
		l.is_switch = d->iblink_switch;
		if (l.is_switch)
			snprintf(l.guid, sizeof(l.guid), "%s", d->iblink_guid);
	}
	if (!link_of(&l, open + 3))
		return 0;
	remote_of(&l, close + 3);
	d->formats |= NICFIT_DUMP_IBLINK;
	if (d->niblinks >= IBLINK_MAX) {
		d->iblinks_dropped++;
		return 1;
	}
	if (NICFIT_ALLOC_GROW(d->iblinks, d->niblinks + 1, d->alloc_iblinks)) {
		d->oom = 1;
		return 1;
	}
	d->iblinks[d->niblinks++] = l;
	return 1;
}

const char *nicfit__dump_iblink_generation(const struct dump_iblink *l, double *lane)
{
	static const struct {
		double printed, nominal;
		const char *name;
	} t[] = { { 2.5, 2.5, "SDR" }, { 5, 5, "DDR" }, { 10, 10, "QDR" }, { 14.0625, 14, "FDR" },
		  { 25.78125, 25, "EDR" }, { 53.125, 50, "HDR" }, { 106.25, 100, "NDR" },
		  { 212.5, 200, "XDR" } };
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (l->lane_gbps > t[i].printed - 0.01 && l->lane_gbps < t[i].printed + 0.01) {
			*lane = t[i].nominal;
			return l->fdr10 && i == 2 ? "FDR10" : t[i].name;
		}
	*lane = 0;
	return NULL;
}
