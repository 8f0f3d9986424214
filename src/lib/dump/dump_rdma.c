/*
 * dump_rdma.c - RDMA devices as rdma-core and MLNX_OFED print them (see
 * dump_int.h): `ibv_devinfo` and `ibv_devinfo -v` ("hca_id:" blocks with
 * "port:" sub-blocks: state, phys_state with -v, active_width and
 * active_speed with -v, link_layer) and `ibdev2netdev` ("mlx5_0 port 1
 * ==> ib0 (Up)"; with -v the line starts with the function's address,
 * which places the device on its PCI function for certain), `ibstatus`
 * ("Infiniband device 'mlx5_0' port 1 status:" blocks whose indented
 * lines are read as ibv_devinfo's: "state: 4: ACTIVE", "phys state: 5:
 * LinkUp", "rate: 100 Gb/sec (4X EDR)", "link_layer: Ethernet") and
 * iproute2's `rdma link` ("link mlx5_0/1 ... state ACTIVE physical_state
 * LINK_UP netdev p1p1", one port a line, no link layer or rate), and
 * MFT's `mst status -v` rows ("ConnectX7(rev:0) /dev/mst/mt4129_pciconf0
 * 41:00.0 mlx5_0 net-ibp65s0 0"), which tie each device to its function
 * as ibdev2netdev -v does.
 *
 * A port's rate is written as the kernel's rate file writes it ("100
 * Gb/sec (4X EDR)") and read by the sysfs parser, so a dump's port and a
 * live one are judged alike.
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/file_int.h"
#include "dump/dump_int.h"
#include "nicfit/units.h"

struct dump_rdma *nicfit__dump_rdma_of(struct nicfit_dump *d, const char *name, size_t n)
{
	struct dump_rdma *r;
	size_t i;

	int cut = n >= sizeof(d->rdma[0].name);

	if (!n)
		return NULL;
	if (cut) /* the kernel's names stop at 63 bytes (IB_DEVICE_NAME_MAX): kept cut, said so */
		n = sizeof(d->rdma[0].name) - 1;
	for (i = 0; i < d->nrdma; i++)
		if (strlen(d->rdma[i].name) == n && !strncmp(d->rdma[i].name, name, n))
			return &d->rdma[i];
	if (d->nrdma >= NICFIT_TOPO_MAX_RDMA)
		return NULL;
	if (NICFIT_ALLOC_GROW(d->rdma, d->nrdma + 1, d->alloc_rdma)) {
		d->oom = 1;
		return NULL;
	}
	r = &d->rdma[d->nrdma++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%.*s", (int)n, name);
	r->name_cut = cut;
	return r;
}

void nicfit__dump_name_cut(struct nicfit_dump *d, struct dump_rdma *r, struct dump_at at)
{
	nicfit__dump_problem(d, at, "RDMA device name \"%s...\" is longer than a kernel device "
			     "name can be (63 bytes): kept cut there", r->name);
	r->name_cut = 2;
}

static size_t word(const char *s)
{
	size_t n = 0;

	while (s[n] && s[n] != ' ' && s[n] != '\t')
		n++;
	return n;
}

struct dump_rport *nicfit__dump_rport(struct dump_rdma *r, int num)
{
	struct dump_rport *pt;
	int k;

	for (k = 0; k < r->nports; k++)
		if (r->ports[k].num == num)
			return &r->ports[k];
	if (r->nports >= NICFIT_TOPO_MAX_PORTS)
		return NULL;
	pt = &r->ports[r->nports++];
	memset(pt, 0, sizeof(*pt));
	pt->num = num;
	pt->state = pt->phys = -1;
	pt->gid_v2_index = -1;
	return pt;
}

void nicfit__dump_ibv_start(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	const char *s = nicfit__dump_skip_blank(line + 7);

	d->ibv_cur = nicfit__dump_rdma_of(d, s, word(s));
	if (d->ibv_cur && d->ibv_cur->name_cut == 1)
		nicfit__dump_name_cut(d, d->ibv_cur, at);
	if (d->ibv_cur) {
		d->ibv_cur->at = at;
		d->ibv_cur->from_ibv = 1;
		d->formats |= NICFIT_DUMP_RDMA;
	}
}

/*
 * A "port:" block of ibv_devinfo pasted without the "hca_id:" line above
 * it: a device of its own whose name the paste does not give (name "").
 * Its ports are read as any block's; it is tied to no PCI function.
 */
int nicfit__dump_ibv_orphan(struct nicfit_dump *d, const char *s, struct dump_at at)
{
	struct dump_rdma *r;
	const char *e;
	long v;

	if (strncmp(s, "port:", 5) ||
	    nicfit_scan_dec(nicfit__dump_skip_blank(s + 5), 1, 255, &v, &e) != NICFIT_DEC_OK || *e)
		return 0;
	if (d->nrdma >= NICFIT_TOPO_MAX_RDMA)
		return 1;
	if (NICFIT_ALLOC_GROW(d->rdma, d->nrdma + 1, d->alloc_rdma)) {
		d->oom = 1;
		return 1;
	}
	r = &d->rdma[d->nrdma++];
	memset(r, 0, sizeof(*r));
	r->at = at;
	r->from_ibv = 1;
	d->ibv_cur = r;
	d->formats |= NICFIT_DUMP_RDMA;
	nicfit__dump_ibv_line(d, s, at);
	return 1;
}

/* "PORT_ACTIVE (4)" or "LINK_UP (5)": the number in parentheses; -1 none. */
static int paren_num(const char *s)
{
	const char *p = strrchr(s, '('), *e;
	long v;

	if (!p || nicfit_scan_dec(p + 1, 0, 7, &v, &e) != NICFIT_DEC_OK || *e != ')')
		return -1;
	return (int)v;
}

/* ibstatus writes the kernel's sysfs text: "4: ACTIVE", "5: LinkUp"; -1 none. */
static int colon_num(const char *s)
{
	const char *e;
	long v;

	if (nicfit_scan_dec(s, 0, 7, &v, &e) != NICFIT_DEC_OK || *e != ':')
		return -1;
	return (int)v;
}

/* "state:" and "phys_state:" of ibv_devinfo, "state:" and "phys state:" of ibstatus. */
static int state_num(const char *v)
{
	int n = paren_num(v);

	return n >= 0 ? n : colon_num(nicfit__dump_skip_blank(v));
}

/* The kernel's names of port and physical states (ports/N/state, phys_state). */
const char *nicfit__dump_port_state_name(int st)
{
	static const char *const n[] = { "NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER" };

	return st >= 0 && st <= 5 ? n[st] : "";
}

const char *nicfit__dump_phys_state_name(int st)
{
	static const char *const n[] = { "", "Sleep", "Polling", "Disabled", "PortConfigurationTraining",
					 "LinkUp", "LinkErrorRecovery", "Phy Test" };

	return st >= 0 && st <= 7 ? n[st] : "";
}

void nicfit__dump_port_read(struct dump_rport *pt, int field, int value, struct dump_at at)
{
	int *cur = field ? &pt->phys : &pt->state;

	/* every tool prints a reading's state first, then (some) its physical state */
	if (!field) {
		pt->prev_at = pt->state_at;
		pt->state_at = at;
		pt->readings++;
		pt->reading_changed = 0;
	}
	if (*cur >= 0 && value >= 0 && value != *cur && !pt->reading_changed) {
		pt->reading_changed = 1; /* a reading that changes both states is one change */
		if (!pt->changes++) {
			pt->first_state = field ? pt->state : *cur;
			pt->first_phys = pt->phys;
			pt->first_at = pt->prev_at;
		}
	}
	*cur = value;
}

void nicfit__dump_node_guid(struct dump_rdma *r, const char *guid)
{
	if (!r->node_guid[0])
		snprintf(r->node_guid, sizeof(r->node_guid), "%s", guid);
	else if (strcmp(r->node_guid, guid))
		r->guid_conflict = 1;
}

/* InfiniBand lane rates (Gb/s as ibv_devinfo prints them) and their names. */
static const char *lane_name(double g)
{
	static const struct {
		double gbps;
		const char *name;
	} t[] = { { 2.5, "SDR" }, { 5, "DDR" }, { 10, "QDR" }, { 14, "FDR" }, { 25, "EDR" },
		  { 50, "HDR" }, { 100, "NDR" }, { 200, "XDR" } };
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (g > t[i].gbps - 0.1 && g < t[i].gbps + 0.1)
			return t[i].name;
	return NULL;
}

/* A port another listing gave first becomes the last, where the block's lines go. */
static void last_port(struct dump_rdma *r, struct dump_rport *pt)
{
	struct dump_rport tmp;

	if (!pt || pt == &r->ports[r->nports - 1])
		return;
	tmp = *pt;
	memmove(pt, pt + 1, (size_t)(&r->ports[r->nports - 1] - pt) * sizeof(*pt));
	r->ports[r->nports - 1] = tmp;
}

/*
 * ibstatus's "rate:", the kernel's rate file: "100 Gb/sec (4X EDR)", "2.5
 * Gb/sec (1X SDR)"; kept as width and lane rate when the lane is an
 * InfiniBand one, so the model reads it back as sysfs's text.
 */
static void rate_line(struct dump_rport *pt, const char *s)
{
	long whole, frac = 0, w;
	const char *e;
	double g;

	if (nicfit_scan_dec(s, 1, 100000, &whole, &e) != NICFIT_DEC_OK)
		return;
	if (*e == '.' && nicfit_scan_dec(e + 1, 0, 9, &frac, &e) != NICFIT_DEC_OK)
		return;
	if (strncmp(e, " Gb/sec (", 9) ||
	    nicfit_scan_dec(e + 9, 1, 32, &w, &e) != NICFIT_DEC_OK || *e != 'X')
		return;
	g = ((double)whole + (double)frac / 10.0) / (double)w;
	if (!lane_name(g))
		return;
	pt->width = (int)w;
	pt->lane_gbps = g;
}

int nicfit__dump_ibstatus_start(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	static const char head[] = "Infiniband device '";
	const char *s = line + sizeof(head) - 1, *q, *e;
	struct dump_rdma *r;
	long port;

	if (strncmp(line, head, sizeof(head) - 1) || !(q = strchr(s, '\'')) ||
	    strncmp(q, "' port ", 7) ||
	    nicfit_scan_dec(q + 7, 1, 255, &port, &e) != NICFIT_DEC_OK || strncmp(e, " status:", 8))
		return 0;
	r = nicfit__dump_rdma_of(d, s, (size_t)(q - s));
	d->ibv_cur = r;
	if (!r)
		return 1;
	if (r->name_cut == 1)
		nicfit__dump_name_cut(d, r, at);
	if (!r->at.line)
		r->at = at;
	r->from_ibv = r->from_ibstatus = 1;
	d->formats |= NICFIT_DUMP_RDMA;
	last_port(r, nicfit__dump_rport(r, (int)port));
	return 1;
}

/* iproute2's names of a port's physical state (rdma/link.c). */
static int rdmatool_phys(const char *s, size_t n)
{
	static const char *const t[] = { "", "SLEEP", "POLLING", "DISABLED",
					 "PORT_CONFIGURATION_TRAINING", "LINK_UP",
					 "LINK_ERROR_RECOVERY", "PHY_TEST" };
	int i;

	for (i = 1; i < 8; i++)
		if (strlen(t[i]) == n && !strncmp(s, t[i], n))
			return i;
	return -1;
}

static int rdmatool_state(const char *s, size_t n)
{
	int i;

	for (i = 1; i <= 5; i++)
		if (strlen(nicfit__dump_port_state_name(i)) == n &&
		    !strncmp(s, nicfit__dump_port_state_name(i), n))
			return i;
	return -1;
}

/* The words after "link NAME/PORT": "state X", "physical_state Y", "netdev Z". */
static void rdmatool_words(struct dump_rdma *r, struct dump_rport *pt, const char *s,
			   struct dump_at at)
{
	while (*(s = nicfit__dump_skip_blank(s))) {
		size_t k = word(s);
		const char *v = nicfit__dump_skip_blank(s + k);
		size_t n = word(v);

		if (k == 5 && !strncmp(s, "state", 5))
			nicfit__dump_port_read(pt, 0, rdmatool_state(v, n), at);
		else if (k == 14 && !strncmp(s, "physical_state", 14))
			nicfit__dump_port_read(pt, 1, rdmatool_phys(v, n), at);
		else if (k == 6 && !strncmp(s, "netdev", 6) && n && n < sizeof(r->netdev[0]))
			snprintf(r->netdev[pt->num - 1], sizeof(r->netdev[0]), "%.*s", (int)n, v);
		else
			n = 0; /* a word of its own ("subnet_prefix", a value): step one word */
		s = n ? v + n : s + k;
	}
}

int nicfit__dump_rdmatool_line(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	const char *s = line + 5, *slash, *e;
	struct dump_rdma *r;
	struct dump_rport *pt;
	size_t n;
	long port;

	if (strncmp(line, "link ", 5))
		return 0;
	n = word(s);
	slash = memchr(s, '/', n);
	if (!slash || slash == s ||
	    nicfit_scan_dec(slash + 1, 1, NICFIT_TOPO_MAX_PORTS, &port, &e) != NICFIT_DEC_OK ||
	    e != s + n)
		return 0;
	r = nicfit__dump_rdma_of(d, s, (size_t)(slash - s));
	if (!r)
		return 1;
	if (r->name_cut == 1)
		nicfit__dump_name_cut(d, r, at);
	if (!r->at.line)
		r->at = at;
	r->from_ibv = r->from_rdmatool = 1;
	d->formats |= NICFIT_DUMP_RDMA;
	pt = nicfit__dump_rport(r, (int)port);
	if (pt)
		rdmatool_words(r, pt, e, at);
	return 1;
}

/*
 * A row of `mst status -v`: the device type with its revision, the mst
 * device, the function, then the RDMA device and "net-IF" where a driver
 * made them (either may be missing), then the NUMA node.
 */
int nicfit__dump_mst_line(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	char buf[512], *tok[8];
	unsigned a, b, c, f;
	struct dump_rdma *r;
	size_t n;
	int k, nt;

	snprintf(buf, sizeof(buf), "%s", line);
	nt = nicfit__split_blanks(buf, tok, 8);
	if (nt < 4 || !strstr(tok[0], "(rev:") || strncmp(tok[1], "/dev/mst/", 9))
		return 0;
	n = nicfit__dump_bdf(tok[2], &a, &b, &c, &f);
	if (!n || tok[2][n])
		return 0;
	{
		char bdf[16];

		snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%u", a, b, c, f);
		nicfit__dump_mst_add(d, tok[1], bdf, at);
		d->mst_open = 0;
	}
	k = 3; /* no RDMA device ("net-IF" or the NUMA node next): no driver made one */
	if (!strncmp(tok[k], "net-", 4) || !strcmp(tok[k], "-") ||
	    (tok[k][0] >= '0' && tok[k][0] <= '9'))
		return 1;
	r = nicfit__dump_rdma_of(d, tok[k], strlen(tok[k]));
	if (!r)
		return 1;
	if (r->name_cut == 1)
		nicfit__dump_name_cut(d, r, at);
	snprintf(r->bdf, sizeof(r->bdf), "%04x:%02x:%02x.%u", a, b, c, f);
	if (!r->at.line)
		r->at = at;
	d->formats |= NICFIT_DUMP_RDMA;
	if (k + 1 < nt && !strncmp(tok[k + 1], "net-", 4) && tok[k + 1][4] && !r->netdev[0][0])
		snprintf(r->netdev[0], sizeof(r->netdev[0]), "%s", tok[k + 1] + 4);
	return 1;
}

void nicfit__dump_ibv_line(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	struct dump_rdma *r = d->ibv_cur;
	const char *s = nicfit__dump_skip_blank(line), *e;
	struct dump_rport *pt = r && r->nports ? &r->ports[r->nports - 1] : NULL;
	long v;

	if (!r)
		return;
	if (!strncmp(s, "fw_ver:", 7)) {
		s = nicfit__dump_skip_blank(s + 7);
		snprintf(r->fw, sizeof(r->fw), "%.*s", (int)word(s), s);
	} else if (!strncmp(s, "node_guid:", 10)) {
		char g[17];

		if (!nicfit__dump_guid(nicfit__dump_skip_blank(s + 10), g))
			nicfit__dump_node_guid(r, g);
	} else if (!strncmp(s, "sys_image_guid:", 15)) {
		if (nicfit__dump_guid(nicfit__dump_skip_blank(s + 15), r->sys_guid))
			r->sys_guid[0] = '\0';
	} else if (!strncmp(s, "vendor_part_id:", 15)) {
		if (nicfit_scan_dec(nicfit__dump_skip_blank(s + 15), 1, 65535, &v, &e) == NICFIT_DEC_OK)
			r->part_id = (int)v;
	} else if (!strncmp(s, "board_id:", 9)) {
		s = nicfit__dump_skip_blank(s + 9);
		snprintf(r->board, sizeof(r->board), "%.*s", (int)word(s), s);
	} else if (!strncmp(s, "port:", 5)) {
		if (nicfit_scan_dec(nicfit__dump_skip_blank(s + 5), 1, 255, &v, &e) == NICFIT_DEC_OK)
			pt = nicfit__dump_rport(r, (int)v);
		last_port(r, pt);
	} else if (pt && !strncmp(s, "state:", 6)) {
		nicfit__dump_port_read(pt, 0, state_num(s + 6), at);
	} else if (pt && (!strncmp(s, "phys_state:", 11) || !strncmp(s, "phys state:", 11))) {
		nicfit__dump_port_read(pt, 1, state_num(s + 11), at);
	} else if (pt && !strncmp(s, "rate:", 5)) {
		rate_line(pt, nicfit__dump_skip_blank(s + 5));
	} else if (pt && !strncmp(s, "link_layer:", 11)) {
		s = nicfit__dump_skip_blank(s + 11);
		snprintf(pt->link_layer, sizeof(pt->link_layer), "%.*s", (int)word(s), s);
	} else if (pt && !strncmp(s, "active_width:", 13)) {
		if (nicfit_scan_dec(nicfit__dump_skip_blank(s + 13), 1, 32, &v, &e) == NICFIT_DEC_OK &&
		    *e == 'X')
			pt->width = (int)v;
	} else if (pt && !strncmp(s, "active_speed:", 13)) {
		long whole, frac = 0;

		s = nicfit__dump_skip_blank(s + 13);
		if (nicfit_scan_dec(s, 0, 1000, &whole, &e) == NICFIT_DEC_OK) {
			if (*e == '.' && nicfit_scan_dec(e + 1, 0, 9, &frac, &e) != NICFIT_DEC_OK)
				frac = 0;
			if (!strncmp(e, " Gbps", 5))
				pt->lane_gbps = (double)whole + (double)frac / 10.0;
		}
	}
}

int nicfit__dump_ibdev_line(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	const char *s = line, *arrow = strstr(line, " ==> "), *p, *e;
	unsigned a, b, c, f;
	struct dump_rdma *r;
	char bdf[16] = "";
	size_t n;
	long port;

	if (!arrow || !strstr(line, " port "))
		return 0;
	n = nicfit__dump_bdf(s, &a, &b, &c, &f);
	if (n && s[n] == ' ') { /* ibdev2netdev -v */
		snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%u", a, b, c, f);
		s += n + 1;
	}
	r = nicfit__dump_rdma_of(d, s, word(s));
	if (!r)
		return 1;
	if (r->name_cut == 1)
		nicfit__dump_name_cut(d, r, at);
	if (bdf[0])
		snprintf(r->bdf, sizeof(r->bdf), "%s", bdf);
	if (!r->at.line)
		r->at = at;
	d->formats |= NICFIT_DUMP_RDMA;
	p = strstr(s, " port "); /* `| column -t` widens the blanks */
	if (p && nicfit_scan_dec(nicfit__dump_skip_blank(p + 6), 1, NICFIT_TOPO_MAX_PORTS, &port,
				 &e) == NICFIT_DEC_OK) {
		const char *nd = nicfit__dump_skip_blank(arrow + 5), *st;
		size_t w = word(nd);

		snprintf(r->netdev[port - 1], sizeof(r->netdev[0]), "%.*s", (int)w, nd);
		st = nicfit__dump_skip_blank(nd + w); /* "(Up)": the interface's state */
		if (*st == '(' && (e = strchr(st, ')')) && e - st > 1 && e - st < 12)
			snprintf(r->netdev_state[port - 1], sizeof(r->netdev_state[0]), "%.*s",
				 (int)(e - st - 1), st + 1);
	}
	return 1;
}

void nicfit__dump_rdma_ports(const struct dump_rdma *r, struct nicfit_rdmadev *out)
{
	int k;

	snprintf(out->fw_ver, sizeof(out->fw_ver), "%s", r->fw);
	snprintf(out->board_id, sizeof(out->board_id), "%s", r->board);
	snprintf(out->hca_type, sizeof(out->hca_type), "%s", r->ca_type);
	out->nports = r->nports;
	for (k = 0; k < r->nports; k++) {
		const struct dump_rport *pt = &r->ports[k];
		struct nicfit_rdma_port *o = &out->ports[k];
		const char *ln = lane_name(pt->lane_gbps);
		char rate[64];

		memset(o, 0, sizeof(*o));
		o->num = pt->num;
		o->state = pt->state;
		snprintf(o->state_name, sizeof(o->state_name), "%s", nicfit__dump_port_state_name(pt->state));
		o->phys_state = pt->phys;
		snprintf(o->phys_name, sizeof(o->phys_name), "%s", nicfit__dump_phys_state_name(pt->phys));
		snprintf(o->link_layer, sizeof(o->link_layer), "%s", pt->link_layer);
		o->gid_v2_index = -1;
		if (pt->gids) { /* show_gids: counted as discovery counts gids/ and gid_attrs/types/ */
			o->ngids = pt->ngids;
			o->ngid_v1 = pt->ngid_v1;
			o->ngid_v2 = pt->ngid_v2;
			o->ngid_v2_routable = pt->ngid_v2_routable;
			o->gid_v2_index = pt->gid_v2_index;
			o->gid_types_known = !strcmp(pt->link_layer, "Ethernet") || !pt->link_layer[0];
		}
		if (pt->width > 0 && ln) {
			snprintf(rate, sizeof(rate), "%g Gb/sec (%dX %s)", pt->width * pt->lane_gbps,
				 pt->width, ln);
			o->have_rate = nicfit_parse_ib_rate(rate, &o->rate) == 0;
		}
	}
}
