/*
 * fleet_read.c - the members of an audit document become attributes: the
 * token helpers that fleet_audit.c shares, and the members of each device
 * (its link, PCIe settings, part, driver, firmware, netdevs and RDMA
 * ports).
 *
 * Lenient as a fleet must be (see fleet_audit.c): a member that is absent,
 * null or of another type is unknown and adds no attribute, so it never
 * makes a difference; numbers given as strings ("16") are read too.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "fleet/fleet_int.h"

/* ---- reading helpers --------------------------------------------------------------- */

/* Intern string token t; 0 when t is not a string. */
uint32_t nicfit__fleet_tok_sid(struct fl_actx *a, int t)
{
	const struct jscan_tok *k;
	uint32_t id;
	char *buf;
	int n;

	if (fl_tok_type(a, t) != JS_STRING)
		return 0;
	k = &a->js->tok[t];
	if (!k->escaped) {
		id = nicfit__fleet_intern(&a->fl->st, a->text + k->start, k->len);
	} else {
		buf = nicfit__fleet_scratch(a->fl, (size_t)k->len + 1);
		if (!buf) {
			a->err = NICFIT_E_NOMEM;
			return 0;
		}
		n = nicfit__jscan_string(a->js, t, buf, (size_t)k->len + 1);
		if (n < 0)
			return 0;
		id = nicfit__fleet_intern(&a->fl->st, buf, (size_t)n);
	}
	if (!id)
		a->err = NICFIT_E_NOMEM;
	return id;
}

uint32_t nicfit__fleet_get_sid(struct fl_actx *a, int obj, const char *key)
{
	return nicfit__fleet_tok_sid(a, nicfit__jscan_get(a->js, obj, key));
}

/* A number member; numbers given as strings ("16") are read too. */
static int get_num(struct fl_actx *a, int obj, const char *key, double *v)
{
	int t = nicfit__jscan_get(a->js, obj, key);
	char tmp[48], *end;
	int n;

	if (fl_tok_type(a, t) == JS_NUMBER)
		return nicfit__jscan_number(a->js, t, v) == 0;
	if (fl_tok_type(a, t) == JS_STRING) {
		n = nicfit__jscan_string(a->js, t, tmp, sizeof(tmp));
		if (n <= 0)
			return 0;
		*v = strtod(tmp, &end);
		return end != tmp && isfinite(*v);
	}
	return 0;
}

/*
 * What a number in an audit can be, per attribute: a value outside is not
 * a measurement (an audit edited by hand, or a broken one), and compared
 * or printed it would make an anomaly out of nothing ("x1e+308"). Such a
 * value is dropped, and said so as an input problem. The bounds are what
 * the hardware and kernel allow, with room: PCIe links are x1 to x32 at
 * up to 128 GT/s (PCIe 7.0) and carry at most ~4 Tb/s (x32 at 128 GT/s);
 * MaxPayload and MaxReadReq are at most 4096 bytes (PCIe base spec,
 * Device Control register; smaller values are only odd, not absurd, and
 * are left to the comparison); Linux numbers at most 1024 NUMA nodes
 * (CONFIG_NODES_SHIFT <= 10), -1 meaning none; an MTU is 68 (RFC 791's
 * minimum) to 65535 bytes; port rates stay under 10 Tb/s, above any
 * Ethernet or InfiniBand rate; a device has at most a few thousand
 * functions' interfaces (4096 here).
 */
static const struct { double lo, hi; } num_range[FA_COUNT] = {
	[FA_NUMA_COUNT] = { 0, 1024 },
	[FA_NUMA] = { -1, 1023 },
	[FA_CUR_WIDTH] = { 1, 32 },
	[FA_MAX_WIDTH] = { 1, 32 },
	[FA_CUR_GTS] = { 0, 128 },
	[FA_MAX_GTS] = { 0, 128 },
	[FA_PATH] = { 0, 4096 },
	[FA_MPS] = { 0, 4096 },
	[FA_MRRS] = { 0, 4096 },
	[FA_NNET] = { 0, 4096 },
	[FA_NRDMA] = { 0, 4096 },
	[FA_NET_SPEED] = { 0, 10000 },
	[FA_NET_MTU] = { 68, 65535 },
	[FA_PORT_RATE] = { 0, 10000 },
};

static int num_in_range(struct fl_actx *a, int attr, uint32_t subject, uint64_t bits)
{
	double v;

	if (nicfit__fleet_attrs[attr].vk != FV_NUM ||
	    (num_range[attr].lo == 0 && num_range[attr].hi == 0))
		return 1;
	memcpy(&v, &bits, sizeof(v));
	if (v >= num_range[attr].lo && v <= num_range[attr].hi)
		return 1;
	nicfit__fleet_problem(a->fl, NICFIT_FLEET_IGNORED, fl_str(&a->fl->st, a->h.name),
			      fl_str(&a->fl->st, a->h.input), a->h.line, 0,
			      "host %s: %s%s%s %g is outside %g..%g; ignored",
			      fl_str(&a->fl->st, a->h.name), nicfit__fleet_attrs[attr].name,
			      subject ? " of " : "", subject ? fl_str(&a->fl->st, subject) : "", v,
			      num_range[attr].lo, num_range[attr].hi);
	return 0;
}

void nicfit__fleet_add(struct fl_actx *a, int attr, uint32_t subject, uint32_t dev, uint64_t v)
{
	struct fl_attr at;

	if (a->err || !num_in_range(a, attr, subject, v))
		return;
	if (nicfit__fleet_key(a->fl, attr, subject, dev, &at.key)) {
		a->err = NICFIT_E_NOMEM;
		return;
	}
	at.v = v;
	if (NICFIT_ALLOC_GROW(a->fl->attrs, a->fl->nattrs + 1, a->fl->cap_attrs))
		a->err = NICFIT_E_NOMEM;
	else
		a->fl->attrs[a->fl->nattrs++] = at;
}

void nicfit__fleet_add_num(struct fl_actx *a, int attr, uint32_t subject, uint32_t dev, int obj,
			   const char *key)
{
	double v;

	if (get_num(a, obj, key, &v))
		nicfit__fleet_add(a, attr, subject, dev, fl_dbits(v));
}

void nicfit__fleet_add_str(struct fl_actx *a, int attr, uint32_t subject, uint32_t dev,
			   uint32_t sid)
{
	if (sid && sid != nicfit__fleet_intern0(&a->fl->st, ""))
		nicfit__fleet_add(a, attr, subject, dev, sid);
}

void nicfit__fleet_add_bool(struct fl_actx *a, int attr, int v)
{
	if (v >= 0)
		nicfit__fleet_add(a, attr, 0, 0, (uint64_t)v);
}

/* An interned "prefix SEP suffix". */
uint32_t nicfit__fleet_join(struct fl_actx *a, uint32_t x, const char *sep, const char *y)
{
	const char *xs = fl_str(&a->fl->st, x);
	size_t nx = strlen(xs), ns = strlen(sep), ny = strlen(y);
	char *buf = nicfit__fleet_scratch(a->fl, nx + ns + ny + 1);
	uint32_t id;

	if (!buf) {
		a->err = NICFIT_E_NOMEM;
		return 0;
	}
	memcpy(buf, xs, nx);
	memcpy(buf + nx, sep, ns);
	memcpy(buf + nx + ns, y, ny);
	id = nicfit__fleet_intern(&a->fl->st, buf, nx + ns + ny);
	if (!id)
		a->err = NICFIT_E_NOMEM;
	return id;
}

/* ---- devices ---------------------------------------------------------------------- */

/*
 * One pass over obj's members: out[i] is the value token of keys[i], or -1.
 * Cheaper than a lookup per key when an object has many members and some
 * looked-for keys are absent (each absent key would cost a full scan).
 * The keys are chained by length (head, next): a member is compared only
 * with the keys of its length, most often one or none. A member with an
 * escape in its name, or of 64 bytes or more, is compared with every key.
 */
#define MEMBERS_BY_LEN 64
#define MEMBERS_MAX_KEYS 32

void nicfit__fleet_members(struct fl_actx *a, int obj, const struct keydef *keys, int n, int *out)
{
	signed char head[MEMBERS_BY_LEN], next[MEMBERS_MAX_KEYS];
	uint32_t i, end;
	int k, chained = n <= MEMBERS_MAX_KEYS;

	memset(head, -1, sizeof(head));
	for (k = n - 1; k >= 0; k--) {
		out[k] = -1;
		if (chained && keys[k].n < MEMBERS_BY_LEN) {
			next[k] = head[keys[k].n];
			head[keys[k].n] = (signed char)k;
		}
	}
	if (fl_tok_type(a, obj) != JS_OBJECT)
		return;
	end = a->js->tok[obj].next;
	for (i = (uint32_t)obj + 1; i < end; i = a->js->tok[i + 1].next) {
		const struct jscan_tok *t = &a->js->tok[i];
		const char *name = a->text + t->start;

		if (chained && !t->escaped && t->len < MEMBERS_BY_LEN) {
			for (k = head[t->len]; k >= 0; k = next[k])
				if (out[k] < 0 && !memcmp(name, keys[k].k, t->len)) {
					out[k] = (int)i + 1;
					break;
				}
			continue;
		}
		for (k = 0; k < n; k++) {
			if (out[k] >= 0)
				continue;
			if (t->escaped ? nicfit__jscan_key_is(a->js, (int)i, keys[k].k)
				       : (t->len == keys[k].n && !memcmp(name, keys[k].k, keys[k].n))) {
				out[k] = (int)i + 1;
				break;
			}
		}
	}
}

/* Number token (or numeric string) t. */
static int tok_num(struct fl_actx *a, int t, double *v)
{
	char tmp[48], *end;
	int n;

	if (fl_tok_type(a, t) == JS_NUMBER)
		return nicfit__jscan_number(a->js, t, v) == 0;
	if (fl_tok_type(a, t) == JS_STRING) {
		n = nicfit__jscan_string(a->js, t, tmp, sizeof(tmp));
		if (n <= 0)
			return 0;
		*v = strtod(tmp, &end);
		return end != tmp && !*end && isfinite(*v);
	}
	return 0;
}

static void add_tnum(struct fl_actx *a, int attr, uint32_t subject, uint32_t dev, int t)
{
	double v;

	if (tok_num(a, t, &v))
		nicfit__fleet_add(a, attr, subject, dev, fl_dbits(v));
}

/*
 * The kinds that make a host's hardware signature: GPUs, accelerators and
 * NICs, what a cluster is built from. Bridges, disks and the rest vary with
 * firmware and options, and would split groups for no network reason.
 */
static int is_sig_kind(const char *k)
{
	return k && (!strcmp(k, "gpu") || !strcmp(k, "accelerator") || !strcmp(k, "nic"));
}

int nicfit__fleet_is_true(struct fl_actx *a, int obj, const char *key)
{
	return fl_tok_type(a, nicfit__jscan_get(a->js, obj, key)) == JS_TRUE;
}

enum { N_NAME, N_OPER, N_STATE, N_GBPS, N_MBPS, N_MTU, N_PFC, N_KEYS };
static const struct keydef netdev_keys[N_KEYS] = {
	KD("name"), KD("operstate"), KD("state"), KD("speed_gbps"), KD("speed_mbps"), KD("mtu"),
	KD("pfc"),
};

/* "3" or "3,4" or "none": the priorities with PFC on, when the audit could read them. */
static void read_pfc(struct fl_actx *a, int pfc, uint32_t subj, uint32_t bdf)
{
	static const struct keydef keys[2] = { KD("state"), KD("enabled_priorities") };
	int m[2];
	uint32_t i;
	char buf[64];
	size_t n = 0;
	const char *st;
	double v;

	nicfit__fleet_members(a, pfc, keys, 2, m);
	st = fl_str(&a->fl->st, nicfit__fleet_tok_sid(a, m[0]));
	if (!st || strcmp(st, "read") || fl_tok_type(a, m[1]) != JS_ARRAY)
		return;
	buf[0] = '\0';
	for (i = (uint32_t)m[1] + 1; i < a->js->tok[m[1]].next; i = a->js->tok[i].next)
		if (tok_num(a, (int)i, &v) && n + 8 < sizeof(buf))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%g", n ? "," : "", v);
	nicfit__fleet_add_str(a, FA_NET_PFC, subj, bdf,
			      nicfit__fleet_intern0(&a->fl->st, n ? buf : "none"));
}

static void read_netdevs(struct fl_actx *a, int arr, uint32_t bdf)
{
	uint32_t i, end;

	if (fl_tok_type(a, arr) != JS_ARRAY)
		return;
	nicfit__fleet_add(a, FA_NNET, bdf, bdf, fl_dbits(a->js->tok[arr].count));
	end = a->js->tok[arr].next;
	for (i = (uint32_t)arr + 1; i < end; i = a->js->tok[i].next) {
		int m[N_KEYS];
		uint32_t name, subj, st;
		double speed;

		if (fl_tok_type(a, (int)i) != JS_OBJECT)
			continue; /* a bare name: counted above, nothing more to compare */
		nicfit__fleet_members(a, (int)i, netdev_keys, N_KEYS, m);
		name = nicfit__fleet_tok_sid(a, m[N_NAME]);
		if (!name)
			continue;
		subj = nicfit__fleet_join(a, bdf, " ", fl_str(&a->fl->st, name));
		st = nicfit__fleet_tok_sid(a, m[N_OPER]);
		if (!st)
			st = nicfit__fleet_tok_sid(a, m[N_STATE]);
		nicfit__fleet_add_str(a, FA_NET_STATE, subj, bdf, st);
		if (tok_num(a, m[N_GBPS], &speed) && speed > 0)
			nicfit__fleet_add(a, FA_NET_SPEED, subj, bdf, fl_dbits(speed));
		else if (tok_num(a, m[N_MBPS], &speed) && speed > 0)
			nicfit__fleet_add(a, FA_NET_SPEED, subj, bdf, fl_dbits(speed / 1000));
		add_tnum(a, FA_NET_MTU, subj, bdf, m[N_MTU]);
		read_pfc(a, m[N_PFC], subj, bdf);
	}
}

/* "4: ACTIVE" -> "ACTIVE" */
static uint32_t state_name(struct fl_actx *a, uint32_t sid)
{
	const char *s = fl_str(&a->fl->st, sid), *c;

	if (!s)
		return 0;
	c = strchr(s, ':');
	if (c && c > s && isdigit((unsigned char)s[0])) {
		c++;
		while (*c == ' ')
			c++;
		sid = nicfit__fleet_intern0(&a->fl->st, c);
		if (!sid)
			a->err = NICFIT_E_NOMEM;
	}
	return sid;
}

enum { P_NAME, P_PORT, P_NUM, P_STATE, P_LAYER, P_GBPS, P_RATE, P_FW, P_FIRMWARE, P_PORTS,
       P_KEYS };
static const struct keydef port_keys[P_KEYS] = {
	KD("name"), KD("port"), KD("num"), KD("state"), KD("link_layer"), KD("rate_gbps"),
	KD("rate"), KD("fw_ver"), KD("firmware"), KD("ports"),
};

/* One RDMA port object: "port" (or "num"), state, rate, link layer. */
static void read_port(struct fl_actx *a, const int *m, uint32_t bdf, int idx)
{
	double num, rate;
	uint32_t subj;
	char sub[48];

	if (!tok_num(a, m[P_PORT], &num) && !tok_num(a, m[P_NUM], &num))
		return;
	if (idx)
		snprintf(sub, sizeof(sub), "rdma#%d port %g", idx, num);
	else
		snprintf(sub, sizeof(sub), "port %g", num);
	subj = nicfit__fleet_join(a, bdf, " ", sub);
	nicfit__fleet_add_str(a, FA_PORT_STATE, subj, bdf,
			      state_name(a, nicfit__fleet_tok_sid(a, m[P_STATE])));
	if (tok_num(a, m[P_GBPS], &rate) || tok_num(a, m[P_RATE], &rate))
		nicfit__fleet_add(a, FA_PORT_RATE, subj, bdf, fl_dbits(rate));
	nicfit__fleet_add_str(a, FA_PORT_LAYER, subj, bdf, nicfit__fleet_tok_sid(a, m[P_LAYER]));
}

#define MAX_RDMA_NAMES 16

/*
 * RDMA devices of a function: either one entry per port ({"name","port",
 * "state",...}, as nicfit audit writes them) or one per device with a
 * "ports" array. Counted by distinct name.
 */
static void read_rdma(struct fl_actx *a, int arr, uint32_t bdf, int have_fw)
{
	uint32_t i, end, names[MAX_RDMA_NAMES];
	int nnames = 0, k, idx;

	if (fl_tok_type(a, arr) != JS_ARRAY)
		return;
	end = a->js->tok[arr].next;
	for (i = (uint32_t)arr + 1; i < end; i = a->js->tok[i].next) {
		int m[P_KEYS];
		uint32_t name;

		if (fl_tok_type(a, (int)i) == JS_STRING) {
			name = nicfit__fleet_tok_sid(a, (int)i);
			m[P_PORTS] = -1;
		} else if (fl_tok_type(a, (int)i) == JS_OBJECT) {
			nicfit__fleet_members(a, (int)i, port_keys, P_KEYS, m);
			name = nicfit__fleet_tok_sid(a, m[P_NAME]);
		} else {
			continue;
		}
		for (k = 0; k < nnames; k++)
			if (names[k] == name)
				break;
		if (k == nnames && nnames < MAX_RDMA_NAMES)
			names[nnames++] = name;
		idx = k < MAX_RDMA_NAMES ? k : MAX_RDMA_NAMES - 1;
		if (fl_tok_type(a, (int)i) != JS_OBJECT)
			continue;
		if (!have_fw && idx == 0) {
			uint32_t fw = nicfit__fleet_tok_sid(a, m[P_FW]);

			if (!fw)
				fw = nicfit__fleet_tok_sid(a, m[P_FIRMWARE]);
			nicfit__fleet_add_str(a, FA_FW, bdf, bdf, fw);
			have_fw = fw != 0;
		}
		if (fl_tok_type(a, m[P_PORTS]) == JS_ARRAY) {
			uint32_t p, pend = a->js->tok[m[P_PORTS]].next;

			for (p = (uint32_t)m[P_PORTS] + 1; p < pend; p = a->js->tok[p].next) {
				int pm[P_KEYS];

				nicfit__fleet_members(a, (int)p, port_keys, P_KEYS, pm);
				read_port(a, pm, bdf, idx);
			}
		} else {
			read_port(a, m, bdf, idx);
		}
	}
	nicfit__fleet_add(a, FA_NRDMA, bdf, bdf, fl_dbits(nnames));
}

enum { D_BDF, D_KIND, D_VID, D_DID, D_NAME, D_NUMA, D_DRIVER, D_LINK, D_NETDEVS, D_RDMA,
       D_PART, D_PHYSFN, D_CONFIG, D_FIRMWARE, D_FWVER, D_VIRTFN, D_KEYS };
static const struct keydef dev_keys[D_KEYS] = {
	KD("bdf"), KD("kind"), KD("vendor_id"), KD("device_id"), KD("name"), KD("numa_node"),
	KD("driver"), KD("link"), KD("netdevs"), KD("rdma"), KD("part"), KD("physfn"),
	KD("config"), KD("firmware"), KD("fw_ver"), KD("virtfn"),
};

enum { L_CUR_GTS, L_CUR_WIDTH, L_MAX_GTS, L_MAX_WIDTH, L_PATH, L_KEYS };
static const struct keydef link_keys[L_KEYS] = {
	KD("current_gts"), KD("current_width"), KD("max_gts"), KD("max_width"), KD("path_gbps"),
};

/* A PCI ID token as four lowercase hex digits: "10de", "0x10DE" or 4318. */
/* v (<= 0xffff) as four lowercase hex digits, as "%04x" writes it. */
static void hex4(char out[8], unsigned long v)
{
	static const char digits[] = "0123456789abcdef";

	out[0] = digits[v >> 12 & 15];
	out[1] = digits[v >> 8 & 15];
	out[2] = digits[v >> 4 & 15];
	out[3] = digits[v & 15];
	out[4] = '\0';
}

static void pci_id_tok(struct fl_actx *a, int t, char out[8])
{
	char tmp[16], *end;
	const char *p = tmp;
	double d;
	unsigned long v;

	out[0] = '\0';
	if (fl_tok_type(a, t) == JS_NUMBER && !nicfit__jscan_number(a->js, t, &d) && d >= 0 &&
	    d <= 0xffff) {
		hex4(out, (unsigned long)d);
		return;
	}
	if (fl_tok_type(a, t) != JS_STRING || nicfit__jscan_string(a->js, t, tmp, sizeof(tmp)) <= 0)
		return;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	v = strtoul(p, &end, 16);
	if (end != p && !*end && v <= 0xffff)
		hex4(out, v);
}

void nicfit__fleet_read_device(struct fl_actx *a, int dev)
{
	struct nicfit_fleet *fl = a->fl;
	int m[D_KEYS], l[L_KEYS], c[2];
	static const struct keydef cfg_keys[2] = { KD("mps"), KD("mrrs") };
	char vid[8], did[8], model[16];
	struct fl_dev d;
	uint32_t bdf, fw;

	nicfit__fleet_members(a, dev, dev_keys, D_KEYS, m);
	bdf = nicfit__fleet_tok_sid(a, m[D_BDF]);
	if (!bdf)
		return;
	memset(&d, 0, sizeof(d));
	d.bdf = bdf;
	d.kind = nicfit__fleet_tok_sid(a, m[D_KIND]);
	d.name = nicfit__fleet_tok_sid(a, m[D_NAME]);
	pci_id_tok(a, m[D_VID], vid);
	pci_id_tok(a, m[D_DID], did);
	/* "%s:%s" of two ids of at most 4 bytes (or "?"), without a printf */
	{
		const char *x = vid[0] ? vid : "?", *y = did[0] ? did : "?";
		size_t nx = strlen(x), ny = strlen(y);

		memcpy(model, x, nx);
		model[nx] = ':';
		memcpy(model + nx + 1, y, ny + 1);
	}
	d.model = nicfit__fleet_intern0(&fl->st, model);
	/* virtual functions come and go with SR-IOV settings: not hardware */
	d.sig = is_sig_kind(fl_str(&fl->st, d.kind)) && fl_tok_type(a, m[D_VIRTFN]) != JS_TRUE &&
		fl_tok_type(a, m[D_PHYSFN]) != JS_STRING;
	if (!d.model || NICFIT_ALLOC_GROW(fl->devs, fl->ndevs + 1, fl->cap_devs)) {
		a->err = NICFIT_E_NOMEM;
		return;
	}
	fl->devs[fl->ndevs++] = d;
	add_tnum(a, FA_NUMA, bdf, bdf, m[D_NUMA]);
	nicfit__fleet_members(a, m[D_LINK], link_keys, L_KEYS, l);
	add_tnum(a, FA_CUR_WIDTH, bdf, bdf, l[L_CUR_WIDTH]);
	add_tnum(a, FA_CUR_GTS, bdf, bdf, l[L_CUR_GTS]);
	add_tnum(a, FA_MAX_WIDTH, bdf, bdf, l[L_MAX_WIDTH]);
	add_tnum(a, FA_MAX_GTS, bdf, bdf, l[L_MAX_GTS]);
	add_tnum(a, FA_PATH, bdf, bdf, l[L_PATH]);
	nicfit__fleet_members(a, m[D_CONFIG], cfg_keys, 2, c);
	add_tnum(a, FA_MPS, bdf, bdf, c[0]);
	add_tnum(a, FA_MRRS, bdf, bdf, c[1]);
	nicfit__fleet_add_str(a, FA_PART, bdf, bdf, nicfit__fleet_tok_sid(a, m[D_PART]));
	nicfit__fleet_add_str(a, FA_DRIVER, bdf, bdf, nicfit__fleet_tok_sid(a, m[D_DRIVER]));
	fw = nicfit__fleet_tok_sid(a, m[D_FIRMWARE]);
	if (!fw)
		fw = nicfit__fleet_tok_sid(a, m[D_FWVER]);
	nicfit__fleet_add_str(a, FA_FW, bdf, bdf, fw);
	read_netdevs(a, m[D_NETDEVS], bdf);
	read_rdma(a, m[D_RDMA], bdf, fw != 0);
}
