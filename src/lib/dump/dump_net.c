/*
 * dump_net.c - interfaces and ports as the usual commands print them (see
 * dump_int.h), read into the records the model is built from:
 *
 * - `ibstat` (infiniband-diags): "CA 'mlx5_0'" blocks with "CA type",
 *   "Firmware version" and "Port N:" sub-blocks ("State: Active",
 *   "Physical state: LinkUp", "Rate: 200", "Link layer: Ethernet").
 *   Rate is the port's total without its width or lane speed, so it is
 *   kept apart and not made a rate the audit computes with.
 * - `show_gids` (MLNX_OFED): the "DEV PORT INDEX GID IPv4 VER DEV" table,
 *   one row per GID, counted as discovery counts a port's gids/ and
 *   gid_attrs/types/ (RoCE v2, link-local or routable); its last column
 *   is the port's interface.
 * - `ip link` ("2: eth0: <FLAGS> mtu 1500 ... state UP ..." and its
 *   "link/ether" line) and `ip -j link` (JSON, one line or -p): name,
 *   MTU, operational state, carrier (LOWER_UP, NO-CARRIER), link type.
 * - `ethtool -i IF`: driver, firmware-version ("16.27.2008
 *   (MT_0000000012)": the PSID in parentheses is the board id) and
 *   bus-info, which places the interface on its PCI function. The block
 *   does not name IF: the prompt line before it ("# ethtool -i eth0"), a
 *   supportconfig "# /sbin/ethtool -i eth0" header or a sosreport file
 *   named ethtool_-i_eth0 does.
 * - `ethtool IF`: "Settings for IF:" with the negotiated "Speed:" and
 *   "Link detected:", the interface's speed and carrier as sysfs's
 *   speed and carrier files give them.
 * - `uname -a`: the kernel release and host name.
 *
 * An interface no bus-info places is put on a function by the RDMA
 * device whose interface it is (ibdev2netdev, show_gids), or by its
 * predictable name (systemd's enp<bus>s<slot>[f<fn>], bus and slot in
 * decimal) when the lspci listing has that function; otherwise on none.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "dump/dump_int.h"
#include "core/file_int.h"
#include "core/jscan_int.h"
#include "nicfit/sysfs.h"
#include "nicfit/units.h"

enum { NET_NONE, NET_IBSTAT, NET_GIDS, NET_LINK, NET_ETHTOOL, NET_SETTINGS };

#define ARPHRD_ETHER 1
#define ARPHRD_INFINIBAND 32
#define ARPHRD_LOOPBACK 772
#define MTU_MAX (1 << 20)  /* as discovery bounds a link MTU */
#define GID_INDEX_MAX 255  /* show_gids' INDEX: the table has at most 256 entries */

static size_t word(const char *s)
{
	size_t n = 0;

	while (s[n] && s[n] != ' ' && s[n] != '\t')
		n++;
	return n;
}

/* The record of an interface, made when new; NULL when out of room or memory. */
static struct dump_net *net_of(struct nicfit_dump *d, const char *name, size_t n,
			       struct dump_at at)
{
	struct dump_net *x;
	size_t i;

	if (!n || n >= sizeof(d->net[0].name))
		return NULL;
	for (i = 0; i < d->nnet; i++)
		if (strlen(d->net[i].name) == n && !strncmp(d->net[i].name, name, n))
			return &d->net[i];
	if (d->nnet >= NICFIT_TOPO_MAX_NET)
		return NULL;
	if (NICFIT_ALLOC_GROW(d->net, d->nnet + 1, d->alloc_net)) {
		d->oom = 1;
		return NULL;
	}
	x = &d->net[d->nnet++];
	memset(x, 0, sizeof(*x));
	snprintf(x->name, sizeof(x->name), "%.*s", (int)n, name);
	x->at = at;
	x->carrier = -1;
	x->type = -1;
	d->formats |= NICFIT_DUMP_NET;
	return x;
}

/* ---- ibstat --------------------------------------------------------------- */

/* ibstat's names (infiniband-diags' port state tables) to the kernel's numbers. */
static int ibstat_state(const char *s)
{
	static const char *const n[] = { "", "Down", "Initializing", "Armed", "Active" };
	int i;

	for (i = 1; i < 5; i++)
		if (!strcmp(s, n[i]))
			return i;
	return -1;
}

static int ibstat_phys(const char *s)
{
	static const char *const n[] = { "", "Sleep", "Polling", "Disabled",
					 "PortConfigurationTraining", "LinkUp",
					 "LinkErrorRecovery", "PhyTest" };
	int i;

	for (i = 1; i < 8; i++)
		if (!strcmp(s, n[i]))
			return i;
	return -1;
}

/* "Key: value" at s: the value, or NULL when s does not start with key. */
static const char *value_of(const char *s, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(s, key, n) || s[n] != ':')
		return NULL;
	return nicfit__dump_skip_blank(s + n + 1);
}

static void ibstat_start(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	const char *s = line + 4, *q = strchr(s, '\'');

	d->net_rdma = q ? nicfit__dump_rdma_of(d, s, (size_t)(q - s)) : NULL;
	d->net_port = -1;
	if (!d->net_rdma)
		return;
	if (d->net_rdma->name_cut == 1)
		nicfit__dump_name_cut(d, d->net_rdma, at);
	if (!d->net_rdma->at.line)
		d->net_rdma->at = at;
	d->net_rdma->from_ibv = d->net_rdma->from_ibstat = 1;
	d->formats |= NICFIT_DUMP_RDMA;
}

static void ibstat_line(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	struct dump_rdma *r = d->net_rdma;
	const char *s = nicfit__dump_skip_blank(line), *v, *e;
	struct dump_rport *pt = NULL;
	long num;
	int k;

	if (!r)
		return;
	for (k = 0; k < r->nports && d->net_port >= 0; k++)
		if (r->ports[k].num == d->net_port)
			pt = &r->ports[k];
	if ((v = value_of(s, "CA type")) && !r->ca_type[0]) {
		snprintf(r->ca_type, sizeof(r->ca_type), "%.*s", (int)word(v), v);
		if (!strncmp(v, "MT", 2) && nicfit_scan_dec(v + 2, 1, 65535, &num, &e) ==
		    NICFIT_DEC_OK && (!*e || *e == ' '))
			r->part_id = (int)num;
	}
	else if ((v = value_of(s, "Firmware version")) && !r->fw[0])
		snprintf(r->fw, sizeof(r->fw), "%.*s", (int)word(v), v);
	else if ((v = value_of(s, "Node GUID"))) {
		char g[17];

		if (!nicfit__dump_guid(v, g))
			nicfit__dump_node_guid(r, g);
	} else if ((v = value_of(s, "System image GUID")) && !r->sys_guid[0]) {
		if (nicfit__dump_guid(v, r->sys_guid))
			r->sys_guid[0] = '\0';
	} else if (!strncmp(s, "Port ", 5) &&
		 nicfit_scan_dec(s + 5, 1, 255, &num, &e) == NICFIT_DEC_OK && !strcmp(e, ":")) {
		d->net_port = nicfit__dump_rport(r, (int)num) ? (int)num : -1;
	} else if (pt && (v = value_of(s, "State"))) {
		nicfit__dump_port_read(pt, 0, ibstat_state(v), at);
	} else if (pt && (v = value_of(s, "Physical state"))) {
		nicfit__dump_port_read(pt, 1, ibstat_phys(v), at);
	} else if (pt && (v = value_of(s, "Rate")) &&
		   nicfit_scan_dec(v, 1, 100000, &num, &e) == NICFIT_DEC_OK) {
		pt->ibstat_rate = (int)num;
	} else if (pt && (v = value_of(s, "Link layer")) && !pt->link_layer[0]) {
		snprintf(pt->link_layer, sizeof(pt->link_layer), "%.*s", (int)word(v), v);
	}
}

/* ---- show_gids ------------------------------------------------------------- */

static int gids_header(const char *line)
{
	char buf[256], *tok[8];

	snprintf(buf, sizeof(buf), "%s", line);
	return nicfit__split_blanks(buf, tok, 8) >= 6 && !strcmp(tok[0], "DEV") &&
	       !strcmp(tok[1], "PORT") && !strcmp(tok[2], "INDEX") && !strcmp(tok[3], "GID");
}

static int link_local(const uint8_t g[16])
{
	return g[0] == 0xfe && (g[1] & 0xc0) == 0x80;
}

/* "mlx5_0 1 3 0000:...:0a98:000c 10.152.0.12 v2 net1" (the IPv4 column may be empty). */
static int gids_row(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	char buf[512], *tok[8];
	int n;
	long port, idx;
	const char *e;
	uint8_t g[16];
	struct dump_rdma *r;
	struct dump_rport *pt;
	const char *ver, *nd;

	snprintf(buf, sizeof(buf), "%s", line);
	n = nicfit__split_blanks(buf, tok, 8);
	if (n >= 1 && !strcmp(tok[0], "---"))
		return 1; /* the underline */
	if (n >= 1 && !strncmp(tok[0], "n_gids_found=", 13))
		return 1;
	if ((n != 6 && n != 7) || nicfit_scan_dec(tok[1], 1, 255, &port, &e) != NICFIT_DEC_OK ||
	    *e || nicfit_scan_dec(tok[2], 0, GID_INDEX_MAX, &idx, &e) != NICFIT_DEC_OK || *e ||
	    nicfit_parse_gid(tok[3], g))
		return 0;
	ver = tok[n - 2];
	nd = tok[n - 1];
	if (strcmp(ver, "v1") && strcmp(ver, "v2"))
		return 0;
	r = nicfit__dump_rdma_of(d, tok[0], strlen(tok[0]));
	if (r && r->name_cut == 1)
		nicfit__dump_name_cut(d, r, at);
	pt = r ? nicfit__dump_rport(r, (int)port) : NULL;
	if (!pt)
		return 1;
	if (!r->at.line)
		r->at = at;
	r->gids = pt->gids = 1;
	d->formats |= NICFIT_DUMP_RDMA;
	if (port <= NICFIT_TOPO_MAX_PORTS && !r->netdev[port - 1][0])
		snprintf(r->netdev[port - 1], sizeof(r->netdev[0]), "%s", nd);
	if (pt->gid_seen[idx / 8] & (1u << (idx % 8)))
		return 1;
	pt->gid_seen[idx / 8] |= (unsigned char)(1u << (idx % 8));
	pt->ngids++;
	if (link_local(g))
		pt->gid_ll[idx / 8] |= (unsigned char)(1u << (idx % 8));
	if (ver[1] == '1') {
		pt->gid_v1[idx / 8] |= (unsigned char)(1u << (idx % 8));
		pt->ngid_v1++;
	} else {
		pt->ngid_v2++;
		if (!link_local(g)) {
			pt->ngid_v2_routable++;
			if (pt->gid_v2_index < 0 || idx < pt->gid_v2_index)
				pt->gid_v2_index = (int)idx;
		}
	}
	return 1;
}

/* ---- ip link ---------------------------------------------------------------- */

static void set_state(struct dump_net *x, const char *st, size_t n)
{
	size_t i;

	if (n >= sizeof(x->operstate))
		return;
	for (i = 0; i < n; i++)
		x->operstate[i] = (char)tolower((unsigned char)st[i]);
	x->operstate[n] = '\0';
}

static int link_type(const char *s, size_t n)
{
	if (n == 5 && !strncmp(s, "ether", 5))
		return ARPHRD_ETHER;
	if (n == 10 && !strncmp(s, "infiniband", 10))
		return ARPHRD_INFINIBAND;
	if (n == 8 && !strncmp(s, "loopback", 8))
		return ARPHRD_LOOPBACK;
	return -1;
}

/* A flag of "<BROADCAST,MULTICAST,UP,LOWER_UP>" (flags between s and e). */
static int has_flag(const char *s, const char *e, const char *flag)
{
	size_t n = strlen(flag);

	while (s < e) {
		const char *c = memchr(s, ',', (size_t)(e - s));
		size_t k = c ? (size_t)(c - s) : (size_t)(e - s);

		if (k == n && !strncmp(s, flag, n))
			return 1;
		s += k + 1;
	}
	return 0;
}

/* Carrier as the kernel's carrier file has it: readable only while the interface is up. */
static int carrier_of(int up, int lower_up, int no_carrier)
{
	if (!up)
		return -1;
	return no_carrier ? 0 : lower_up ? 1 : -1;
}

/* "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode DEFAULT ..." */
static int link_start(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	const char *p = line, *name, *colon, *lt, *gt, *m, *e;
	struct dump_net *x;
	long v;
	size_t n;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == line || p[0] != ':' || p[1] != ' ')
		return 0;
	name = p + 2;
	colon = strstr(name, ": <");
	if (!colon || memchr(name, ' ', (size_t)(colon - name)) || !(gt = strchr(colon, '>')))
		return 0;
	lt = colon + 3;
	n = (size_t)(colon - name);
	m = memchr(name, '@', n); /* "eth0.10@eth0", "veth1@if5": a link to a parent */
	x = net_of(d, name, m ? (size_t)(m - name) : n, at);
	d->net_cur = x;
	if (!x)
		return 1;
	x->at = at;
	x->from_link = 1;
	x->is_virtual |= m != NULL;
	if ((m = strstr(gt, " mtu ")) &&
	    nicfit_scan_dec(m + 5, 1, MTU_MAX, &v, &e) == NICFIT_DEC_OK)
		x->mtu = (int)v;
	if ((m = strstr(gt, " state ")))
		set_state(x, m + 7, word(m + 7));
	x->carrier = carrier_of(has_flag(lt, gt, "UP"), has_flag(lt, gt, "LOWER_UP"),
				has_flag(lt, gt, "NO-CARRIER"));
	return 1;
}

static void link_line(struct nicfit_dump *d, const char *line)
{
	const char *s = nicfit__dump_skip_blank(line);
	struct dump_net *x = d->net_cur;

	if (x && !strncmp(s, "link/", 5)) {
		x->type = link_type(s + 5, word(s + 5));
		x->is_virtual |= x->type == ARPHRD_LOOPBACK;
	}
}

/* ip -j link: an array of objects with "ifname". */
static void json_one(struct nicfit_dump *d, struct jscan *js, int obj, struct dump_at at)
{
	char name[64], st[32], lt[32], fl[32];
	struct dump_net *x;
	double v;
	int i, k, f, up = 0, lower = 0, nocar = 0;

	i = nicfit__jscan_get(js, obj, "ifname");
	if (i < 0 || nicfit__jscan_string(js, i, name, sizeof(name)) <= 0)
		return;
	x = net_of(d, name, strlen(name), at);
	if (!x)
		return;
	x->at = at;
	x->from_link = 1;
	i = nicfit__jscan_get(js, obj, "mtu");
	if (i >= 0 && !nicfit__jscan_number(js, i, &v) && v >= 1 && v <= MTU_MAX)
		x->mtu = (int)v;
	i = nicfit__jscan_get(js, obj, "operstate");
	if (i >= 0 && nicfit__jscan_string(js, i, st, sizeof(st)) > 0)
		set_state(x, st, strlen(st));
	i = nicfit__jscan_get(js, obj, "link_type");
	if (i >= 0 && nicfit__jscan_string(js, i, lt, sizeof(lt)) > 0) {
		x->type = link_type(lt, strlen(lt));
		x->is_virtual |= x->type == ARPHRD_LOOPBACK;
	}
	x->is_virtual |= nicfit__jscan_get(js, obj, "link") >= 0 ||
			 nicfit__jscan_get(js, obj, "link_index") >= 0;
	f = nicfit__jscan_get(js, obj, "flags");
	if (f < 0 || js->tok[f].type != JS_ARRAY)
		return;
	for (k = f + 1; k < (int)js->tok[f].next; k = (int)js->tok[k].next) {
		if (nicfit__jscan_string(js, k, fl, sizeof(fl)) <= 0)
			continue;
		up |= !strcmp(fl, "UP");
		lower |= !strcmp(fl, "LOWER_UP");
		nocar |= !strcmp(fl, "NO-CARRIER");
	}
	x->carrier = carrier_of(up, lower, nocar);
}

size_t nicfit__dump_net_json(struct nicfit_dump *d, const char *s, size_t len, struct dump_at at,
			     int *lines)
{
	struct jscan js;
	size_t used = 0, i;
	int k, first;

	*lines = 0;
	if (!len || s[0] != '[')
		return 0;
	nicfit__jscan_init(&js);
	if (nicfit__jscan_parse_prefix(&js, s, len, &used) || js.tok[0].type != JS_ARRAY ||
	    !js.tok[0].count || (first = 1, js.tok[first].type != JS_OBJECT) ||
	    nicfit__jscan_get(&js, first, "ifname") < 0) {
		nicfit__jscan_release(&js);
		return 0;
	}
	for (k = 1; k < (int)js.tok[0].next; k = (int)js.tok[k].next) {
		struct dump_at o = at;

		if (js.tok[k].type != JS_OBJECT)
			continue;
		for (i = 0; i < js.tok[k].start; i++)
			o.line += s[i] == '\n';
		json_one(d, &js, k, o);
	}
	nicfit__jscan_release(&js);
	while (used && (s[used - 1] == ' ' || s[used - 1] == '\n' || s[used - 1] == '\r' ||
			s[used - 1] == '\t'))
		used--; /* the line break after the value ends the line as usual */
	for (i = 0; i < used; i++)
		*lines += s[i] == '\n';
	return used;
}

/* ---- ethtool -i -------------------------------------------------------------- */

/* NCCL_IB_GID_INDEX=N, or NCCL's "NCCL_IB_GID_INDEX set by environment to N." */
static void gid_env(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	const char *p = strstr(line, "NCCL_IB_GID_INDEX"), *e;
	long v;

	if (!p || (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
		return;
	p += 17;
	if (*p == '=')
		p++;
	else if (!strncmp(p, " set by environment to ", 23))
		p += 23;
	else
		return;
	if (*p == '"' || *p == '\'')
		p++;
	if (nicfit_scan_dec(p, 0, GID_INDEX_MAX, &v, &e) != NICFIT_DEC_OK ||
	    (*e && !strchr(" \t\"'.;", *e)))
		return; /* -1 (NCCL picks the GID), a variable, a value no table has */
	if (!d->gid_env.n) {
		d->gid_env.index = (int)v;
		d->gid_env.at = at;
	} else if (v != d->gid_env.index) {
		d->gid_env.conflict = 1;
	}
	d->gid_env.n++;
}

void nicfit__dump_net_hint(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	const char *p = strstr(line, "ethtool -i ");

	gid_env(d, line, at);
	if (!p)
		return;
	p = nicfit__dump_skip_blank(p + 11);
	snprintf(d->ethtool_hint, sizeof(d->ethtool_hint), "%.*s", (int)word(p), p);
}

/* The interface an ethtool -i block is about: the prompt's, else the file's name. */
static struct dump_net *ethtool_start(struct nicfit_dump *d, struct dump_at at)
{
	const char *tn = d->texts[at.text].name, *p = strstr(tn, "ethtool_-i_");
	char name[64];
	struct dump_net *x;

	if (d->ethtool_hint[0])
		snprintf(name, sizeof(name), "%s", d->ethtool_hint);
	else if (p && !strchr(p, '/'))
		snprintf(name, sizeof(name), "%s", p + 11);
	else
		return NULL;
	d->ethtool_hint[0] = '\0';
	x = net_of(d, name, strlen(name), at);
	if (x && !x->from_link)
		x->at = at;
	if (x)
		x->ethtool = 1;
	return x;
}

static int ethtool_line(struct nicfit_dump *d, const char *line)
{
	static const char *const keys[] = { "version", "expansion-rom-version",
					    "supports-statistics", "supports-test",
					    "supports-eeprom-access", "supports-register-dump",
					    "supports-priv-flags" };
	struct dump_net *x = d->net_cur;
	const char *v;
	size_t i;
	unsigned a, b, c, f;

	if ((v = value_of(line, "firmware-version"))) {
		if (x)
			snprintf(x->fw, sizeof(x->fw), "%s", v);
		return 1;
	}
	if ((v = value_of(line, "bus-info"))) {
		if (x && nicfit__dump_bdf(v, &a, &b, &c, &f) && !v[12])
			snprintf(x->bdf, sizeof(x->bdf), "%04x:%02x:%02x.%u", a, b, c, f);
		else if (x && !*v)
			x->is_virtual = 1; /* veth, bonding, bridges: no bus */
		return 1;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (value_of(line, keys[i]))
			return 1;
	return 0;
}

/*
 * `ethtool IF`: "Settings for IF:", then indented "Speed: 100000Mb/s"
 * ("Unknown!" with no link) and "Link detected: yes"; the link-mode
 * lists and the rest are skipped.
 */
static int settings_start(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	size_t n;

	if (strncmp(line, "Settings for ", 13))
		return 0;
	n = strlen(line + 13);
	if (n < 2 || line[13 + n - 1] != ':' || memchr(line + 13, ' ', n - 1))
		return 0;
	d->net_cur = net_of(d, line + 13, n - 1, at);
	return 1;
}

static void settings_line(struct nicfit_dump *d, const char *line)
{
	struct dump_net *x = d->net_cur;
	const char *s = nicfit__dump_skip_blank(line), *v, *e;
	long mbps;

	if (!x)
		return;
	if ((v = value_of(s, "Speed")) &&
	    nicfit_scan_dec(v, 1, 10000000, &mbps, &e) == NICFIT_DEC_OK && !strcmp(e, "Mb/s"))
		x->speed_mbps = mbps;
	else if ((v = value_of(s, "Link detected")) && (!strcmp(v, "yes") || !strcmp(v, "no")))
		x->carrier = !strcmp(v, "yes");
}

/* ---- uname -a ------------------------------------------------------------------ */

/*
 * "Linux host 5.15.0-91-generic #101-Ubuntu SMP ... x86_64 GNU/Linux", or
 * after "uname: " as nvidia-bug-report.sh's prologue writes it.
 */
static int uname_line(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	char buf[512], *tok[6];
	int n;

	if (!strncmp(line, "uname: ", 7))
		line += 7;
	if (strncmp(line, "Linux ", 6) || !strchr(line, '#'))
		return 0;
	snprintf(buf, sizeof(buf), "%s", line);
	n = nicfit__split_blanks(buf, tok, 6);
	if (n < 4 || tok[3][0] != '#' || !isdigit((unsigned char)tok[2][0]) ||
	    !strchr(tok[2], '.'))
		return 0;
	snprintf(d->hostname, sizeof(d->hostname), "%s", tok[1]);
	snprintf(d->kernel, sizeof(d->kernel), "%s", tok[2]);
	d->kernel_at = at;
	d->formats |= NICFIT_DUMP_HOST;
	return 1;
}

/* ---- the walk's hooks ------------------------------------------------------------ */

int nicfit__dump_net_start(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	const char *v;

	d->net_mode = NET_NONE;
	if (!strncmp(line, "CA '", 4)) {
		ibstat_start(d, line, at);
		d->net_mode = NET_IBSTAT;
	} else if (gids_header(line)) {
		d->net_mode = NET_GIDS;
	} else if (link_start(d, line, at)) {
		d->net_mode = NET_LINK;
	} else if (settings_start(d, line, at)) {
		d->net_mode = NET_SETTINGS;
	} else if ((v = value_of(line, "driver")) && *v && !strchr(v, ' ')) {
		d->net_cur = ethtool_start(d, at);
		if (d->net_cur)
			snprintf(d->net_cur->driver, sizeof(d->net_cur->driver), "%s", v);
		d->net_mode = NET_ETHTOOL;
	} else {
		return uname_line(d, line, at);
	}
	return 1;
}

int nicfit__dump_net_more(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	int indented = line[0] == ' ' || line[0] == '\t';

	switch (d->net_mode) {
	case NET_IBSTAT:
		if (!indented)
			return 0;
		ibstat_line(d, line, at);
		return 1;
	case NET_GIDS:
		return !indented && gids_row(d, line, at);
	case NET_LINK:
		if (!indented)
			return 0;
		link_line(d, line);
		return 1;
	case NET_ETHTOOL:
		return !indented && ethtool_line(d, line);
	case NET_SETTINGS:
		if (!indented)
			return 0;
		settings_line(d, line);
		return 1;
	default:
		return 0;
	}
}

/* ---- into the model ------------------------------------------------------------ */

void nicfit__dump_net_fns(struct nicfit_dump *d)
{
	size_t i, k;

	for (i = 0; i < d->nnet; i++) {
		const struct dump_net *x = &d->net[i];

		if (!x->bdf[0] || !x->driver[0])
			continue;
		for (k = 0; k < d->nfns; k++) {
			struct dump_fn *f = &d->fns[k];

			if (strcmp(f->bdf, x->bdf))
				continue;
			if (!f->driver[0])
				snprintf(f->driver, sizeof(f->driver), "%s", x->driver);
			f->driver_known = 1;
		}
	}
}

/* systemd's predictable name en[P<dom>]p<bus>s<slot>[f<fn>][np<port>|d<port>] to its function. */
static int name_pci(const struct nicfit_topo *t, const char *name)
{
	const char *p = name, *e;
	long dom = 0, bus, slot, fn = 0;
	char bdf[24];

	if (strncmp(p, "en", 2) && strncmp(p, "ib", 2))
		return -1;
	p += 2;
	if (*p == 'P') {
		if (nicfit_scan_dec(p + 1, 0, 0xffff, &dom, &e) != NICFIT_DEC_OK)
			return -1;
		p = e;
	}
	if (*p != 'p' || nicfit_scan_dec(p + 1, 0, 255, &bus, &e) != NICFIT_DEC_OK || *e != 's' ||
	    nicfit_scan_dec(e + 1, 0, 31, &slot, &e) != NICFIT_DEC_OK)
		return -1;
	p = e;
	if (*p == 'f') {
		if (nicfit_scan_dec(p + 1, 0, 7, &fn, &e) != NICFIT_DEC_OK)
			return -1;
		p = e;
	}
	if (*p && strncmp(p, "np", 2) && *p != 'd')
		return -1;
	snprintf(bdf, sizeof(bdf), "%04lx:%02lx:%02lx.%ld", dom, bus, slot, fn);
	return nicfit_topo_find(t, bdf);
}

/* ethtool's firmware-version "16.27.2008 (MT_0000000012)" onto the RDMA devices of its function. */
static void add_fw(struct nicfit_topo *t, int pci, const char *fw)
{
	const char *open = strchr(fw, '('), *close = open ? strchr(open, ')') : NULL;
	int i;

	for (i = 0; i < t->nrdma; i++) {
		struct nicfit_rdmadev *r = &t->rdma[i];

		if (r->pci != pci)
			continue;
		if (!r->fw_ver[0])
			snprintf(r->fw_ver, sizeof(r->fw_ver), "%.*s", (int)word(fw), fw);
		if (!r->board_id[0] && open && close && close > open + 1)
			snprintf(r->board_id, sizeof(r->board_id), "%.*s",
				 (int)(close - open - 1), open + 1);
	}
}

int nicfit__dump_net_build(const struct nicfit_dump *d, struct nicfit_topo *t)
{
	size_t k;

	if (d->kernel[0])
		snprintf(t->kernel, sizeof(t->kernel), "%s", d->kernel);
	if (d->hostname[0])
		snprintf(t->hostname, sizeof(t->hostname), "%s", d->hostname);
	for (k = 0; k < d->nnet; k++) {
		const struct dump_net *x = &d->net[k];
		int pci = x->bdf[0] ? nicfit_topo_find(t, x->bdf) : -1, i;
		struct nicfit_netdev *n;

		for (i = 0; i < t->nnet && strcmp(t->net[i].name, x->name); i++)
			;
		if (i == t->nnet) {
			if (pci < 0 && !x->is_virtual)
				pci = name_pci(t, x->name);
			i = nicfit_topo_add_netdev(t, x->name, pci);
			if (i < 0 && t->nnet < NICFIT_TOPO_MAX_NET)
				return NICFIT_E_NOMEM;
			if (i < 0)
				break;
		} else if (pci >= 0) {
			t->net[i].pci = pci;
		}
		n = &t->net[i];
		n->is_virtual = n->pci < 0 && x->is_virtual;
		if (x->mtu)
			n->mtu = x->mtu;
		if (x->type >= 0)
			n->type = x->type;
		if (x->operstate[0])
			snprintf(n->operstate, sizeof(n->operstate), "%s", x->operstate);
		if (x->carrier >= 0)
			n->carrier = x->carrier;
		if (x->speed_mbps > 0)
			n->speed_mbps = x->speed_mbps;
		if (x->fw[0] && n->pci >= 0)
			add_fw(t, n->pci, x->fw);
	}
	return 0;
}

int nicfit__dump_net_at(const struct nicfit_dump *d, const char *name, struct dump_at *at)
{
	size_t i;

	if (!name)
		return 0;
	for (i = 0; i < d->nrdma; i++)
		if (!strcmp(d->rdma[i].name, name) && d->rdma[i].at.line) {
			*at = d->rdma[i].at;
			return 1;
		}
	for (i = 0; i < d->nnet; i++)
		if (!strcmp(d->net[i].name, name) && d->net[i].at.line) {
			*at = d->net[i].at;
			return 1;
		}
	return 0;
}
