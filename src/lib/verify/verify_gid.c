/*
 * verify_gid.c - NCCL's per-QP connection lines and what they say about
 * RoCE addressing: the GID each net device connects with (an IPv4
 * address, a link-local or another IPv6 address), the GID index, the path
 * MTU, and the RoCE version the user asked for. NCCL prints one line per
 * queue pair when NCCL_DEBUG_SUBSYS includes NET; the formats, from
 * NCCL's src/transport/net_ib.cc (src/transport/net_ib/connect.cc from
 * 2.29):
 *
 *   2.7-2.18   "NET/IB: Dev %d Port %d qpn %d mtu %d GID %ld (%lX/%lX)"
 *              ("... mtu %d LID %d" on InfiniBand)
 *   2.19       "NET/IB: Dev %d Port %d qpn %d mtu %d query_ece={...} GID %ld (%lX/%lX)"
 *   2.20-2.26  "NET/IB: %s %d IbDev %d Port %d qpn %d mtu %d query_ece={...} GID %ld
 *              (%lX/%lX) fifoRkey=0x%x fifoLkey=0x%x" (%s "NCCL Dev" or "NCCL MergedDev")
 *   2.27-2.29  the same without query_ece (ctsFifoRkey from 2.29)
 *   2.30       "NET/IB: %s: %s %d IbDev %d Port %d qp_num %d mtu %d GID %ld (%lX/%lX) ..."
 *
 * The two hex numbers are the GID's subnet prefix and interface id as
 * 64-bit integers read from the 16 bytes in network order: on the
 * little-endian hosts NCCL runs on, byte-reversed ("80FE/..." is
 * fe80::/64).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/finding_int.h"
#include "nicfit/buf.h"
#include "nicfit/link.h"
#include "verify/verify_int.h"

/* Net devices kept per log (hosts x devices); a log of 64 hosts x 8 rails fits. */
#define MAX_QP_DEVS 1024
/* enum ibv_mtu (libibverbs verbs.h): 1 = 256 ... 5 = 4096, the largest. */
#define IBV_MTU_MAX 5

int nicfit__ibv_mtu_bytes(int mtu)
{
	return mtu >= 1 && mtu <= IBV_MTU_MAX ? 128 << mtu : 0;
}

/* An unsigned hex number of 1-16 digits at p; NULL when none. */
static const char *hex64(const char *p, uint64_t *out)
{
	int n = 0;

	*out = 0;
	for (;; p++, n++) {
		int c = *p, v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (v < 0)
			break;
		if (n == 16)
			return NULL;
		*out = *out << 4 | (uint64_t)v;
	}
	return n ? p : NULL;
}

static enum nicfit_gid_kind classify(const unsigned char *g)
{
	static const unsigned char zero[16];

	if (!memcmp(g, zero, 16))
		return NICFIT_GID_ZERO;
	/* NCCL's own test (linkLocalGid): the first 64 bits are fe80:0:0:0 */
	if (g[0] == 0xfe && g[1] == 0x80 && !memcmp(g + 2, zero, 6))
		return NICFIT_GID_LINK_LOCAL;
	if (!memcmp(g, zero, 10) && g[10] == 0xff && g[11] == 0xff)
		return NICFIT_GID_IPV4;
	return NICFIT_GID_IPV6;
}

static void put64(unsigned char *g, uint64_t x, int little)
{
	int k;

	for (k = 0; k < 8; k++)
		g[k] = (unsigned char)(x >> (little ? 8 * k : 8 * (7 - k)));
}

/*
 * The GID from the printed halves: read as a little-endian host printed
 * them, unless only the big-endian reading is an address a GID table
 * holds (a link-local or IPv4 entry).
 */
static void gid_decode(uint64_t spn, uint64_t iid, unsigned char *g, enum nicfit_gid_kind *kind)
{
	unsigned char be[16];
	enum nicfit_gid_kind kb;

	put64(g, spn, 1);
	put64(g + 8, iid, 1);
	*kind = classify(g);
	if (*kind != NICFIT_GID_IPV6)
		return;
	put64(be, spn, 0);
	put64(be + 8, iid, 0);
	kb = classify(be);
	if (kb == NICFIT_GID_LINK_LOCAL || kb == NICFIT_GID_IPV4) {
		memcpy(g, be, 16);
		*kind = kb;
	}
}

size_t nicfit__gid_text(const struct nicfit_nccl_qp *q, char *out, size_t size)
{
	const unsigned char *g = q->gid;
	int n;

	if (q->gid_kind == NICFIT_GID_NONE) {
		out[0] = '\0';
		return 0;
	}
	if (q->gid_kind == NICFIT_GID_IPV4)
		n = snprintf(out, size, "::ffff:%u.%u.%u.%u", g[12], g[13], g[14], g[15]);
	else /* as show_gids prints it: eight groups of four digits */
		n = snprintf(out, size, "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:"
			     "%02x%02x:%02x%02x", g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7],
			     g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
	return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

const char *nicfit_gid_kind_name(enum nicfit_gid_kind k)
{
	switch (k) {
	case NICFIT_GID_IPV4:
		return "ipv4";
	case NICFIT_GID_LINK_LOCAL:
		return "link-local";
	case NICFIT_GID_IPV6:
		return "ipv6";
	case NICFIT_GID_ZERO:
		return "zero";
	default:
		return NULL;
	}
}

/* The number after the first of the labels found in m, or -1. */
static long after(const char *m, const char *const *labels, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *p = strstr(m, labels[i]);

		if (p)
			return nicfit__vint(p + strlen(labels[i]), NULL);
	}
	return -1;
}

static struct nicfit_nccl_qp *qp_slot(struct nicfit_nccl_log *g, const char *host, int dev,
				      int ibdev, int port, int *oom)
{
	struct nicfit_nccl_qp *q;
	size_t i;

	for (i = 0; i < g->nqps; i++) {
		q = &g->qps[i];
		if (q->dev == dev && q->ibdev == ibdev && q->port == port && !strcmp(q->host, host))
			return q;
	}
	if (g->nqps >= MAX_QP_DEVS)
		return NULL;
	if (NICFIT_ALLOC_GROW(g->qps, g->nqps + 1, g->qps_alloc)) {
		*oom = 1;
		return NULL;
	}
	q = &g->qps[g->nqps++];
	memset(q, 0, sizeof(*q));
	nicfit__vcopy(q->host, sizeof(q->host), host, (size_t)-1);
	q->dev = dev;
	q->ibdev = ibdev;
	q->port = port;
	q->gid_index = -1;
	return q;
}

int nicfit__verify_read_qp(struct nicfit_nccl_log *g, const char *prefix, size_t plen,
			   const char *m, long line)
{
	static const char *const devl[] = { "NCCL Dev ", "NCCL MergedDev ", ": Dev " };
	static const char *const ibdevl[] = { "IbDev ", "IBDev " };
	static const char *const portl[] = { " Port " };
	const char *mtu = strstr(m, " mtu "), *gid = strstr(m, " GID "), *lid = strstr(m, " LID ");
	char host[64] = "";
	struct nicfit_nccl_qp *q;
	long dev, ibdev, port, mv;
	int oom = 0;

	if (!mtu || (!gid && !lid) || (!strstr(m, " qpn ") && !strstr(m, " qp_num ")))
		return 0;
	if (plen && strcspn(prefix, ":") < plen)
		nicfit__vcopy(host, sizeof(host), prefix, strcspn(prefix, ":"));
	dev = after(m, devl, 3);
	ibdev = after(m, ibdevl, 2);
	port = after(m, portl, 1);
	mv = nicfit__vint(mtu + 5, NULL);
	q = qp_slot(g, host, dev >= 0 && dev < 4096 ? (int)dev : -1,
		    ibdev >= 0 && ibdev < 4096 ? (int)ibdev : -1,
		    port > 0 && port < 256 ? (int)port : -1, &oom);
	if (!q)
		return oom ? -1 : 0;
	if (q->nlines++)
		return 0;
	q->line = line;
	q->mtu = mv >= 1 && mv <= IBV_MTU_MAX ? (int)mv : 0;
	if (lid && (!gid || lid < gid)) {
		q->ib = 1;
		return 0;
	}
	{
		char *end;
		long idx = strtol(gid + 5, &end, 10);
		uint64_t spn, iid;
		const char *p = end;

		if (end == gid + 5 || idx < 0 || idx > 65535)
			return 0;
		q->gid_index = idx;
		if (strncmp(p, " (", 2) || !(p = hex64(p + 2, &spn)) || *p != '/' ||
		    !(p = hex64(p + 1, &iid)) || *p != ')')
			return 0;
		gid_decode(spn, iid, q->gid, &q->gid_kind);
	}
	return 0;
}

/* ---- judging ----------------------------------------------------------------- */

/* NCCL chooses the GID itself from 2.21 on (NCCL_IB_GID_INDEX -1, ncclIbGetGidIndex); 0 before. */
#define GID_AUTO_SINCE_MAJOR 2
#define GID_AUTO_SINCE_MINOR 21

/* 1 NCCL 2.21 or later, 0 older, -1 unknown. */
static int gid_auto(const struct nicfit_nccl_log *g)
{
	int maj, min;

	if (sscanf(g->version, "%d.%d", &maj, &min) != 2)
		return -1;
	return maj > GID_AUTO_SINCE_MAJOR || (maj == GID_AUTO_SINCE_MAJOR && min >= GID_AUTO_SINCE_MINOR);
}

/* "NCCL Dev 1 (mlx5_1 port 1)": the device as the log names it. */
static void dev_name(const struct nicfit_nccl_log *g, const struct nicfit_nccl_qp *q, char *out,
		     size_t size)
{
	int hi = q->ibdev >= 0 ? q->ibdev : q->dev;
	const char *hca = hi >= 0 && (size_t)hi < g->nhcas && g->hcas[hi].name[0] ?
			  g->hcas[hi].name : NULL;
	char port[16] = "";

	if (q->port > 0)
		snprintf(port, sizeof(port), "port %d", q->port);
	if (hca || port[0])
		snprintf(out, size, "NCCL Dev %d (%s%s%s)", q->dev, hca ? hca : "",
			 hca && port[0] ? " " : "", port);
	else
		snprintf(out, size, "NCCL Dev %d", q->dev);
}

/* The first device of another index that connects with an IPv4 GID, or NULL. */
static const struct nicfit_nccl_qp *ipv4_peer(const struct nicfit_nccl_log *g, int dev)
{
	size_t i;

	for (i = 0; i < g->nqps; i++)
		if (g->qps[i].gid_kind == NICFIT_GID_IPV4 && g->qps[i].dev != dev)
			return &g->qps[i];
	return NULL;
}

/*
 * A link-local GID (fe80::/64) on a RoCE device. Why: RoCE v2 carries
 * the GID as the packet's IP address, and a link-local address is never
 * forwarded by a router, so queue pairs between hosts in different
 * subnets or VLANs cannot connect (NCCL's maintainer: "the link-local
 * address so it isn't properly routed and fails", NVIDIA/nccl#769); NCCL
 * itself skips such GIDs when it chooses (validGid() in connect.cc). On
 * one flat Ethernet segment it works, so this is a warning; the errors it
 * causes are ibv_modify_qp failures and retry-exceeded completions
 * (status 12). One finding per device index, over the hosts that show it.
 */
static int judge_link_local(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	const struct nicfit_nccl_kv *gi = nicfit__venv(g, "NCCL_IB_GID_INDEX");
	size_t i, j;

	for (i = 0; i < g->nqps; i++) {
		const struct nicfit_nccl_qp *q = &g->qps[i], *p4;
		struct nicfit_finding *f;
		struct nicfit_buf b;
		char name[96], gt[48], pt[48];
		size_t hosts = 1;
		int seen = 0, au = gid_auto(g);

		if (q->gid_kind != NICFIT_GID_LINK_LOCAL || q->ib)
			continue;
		for (j = 0; j < i; j++)
			seen |= g->qps[j].dev == q->dev && g->qps[j].gid_kind == NICFIT_GID_LINK_LOCAL;
		if (seen)
			continue;
		for (j = i + 1; j < g->nqps; j++)
			hosts += g->qps[j].dev == q->dev && g->qps[j].gid_kind == NICFIT_GID_LINK_LOCAL;
		dev_name(g, q, name, sizeof(name));
		nicfit__gid_text(q, gt, sizeof(gt));
		nicfit_buf_init(&b, 0);
		nicfit_buf_addf(&b, "%s: %s connects its queue pairs with the link-local GID %s (GID "
				"index %ld%s%zu host%s): a link-local address is never routed, so RoCE "
				"between hosts in different subnets or VLANs cannot connect", d->input,
				name, gt, q->gid_index, ", on ", hosts, hosts == 1 ? "" : "s");
		nicfit__vquote(&b, d, q->line);
		p4 = ipv4_peer(g, q->dev);
		if (p4 && nicfit__gid_text(p4, pt, sizeof(pt)))
			nicfit_buf_addf(&b, "; NCCL Dev %d uses the IPv4 GID %s (index %ld)", p4->dev, pt,
					p4->gid_index);
		f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_NCCL_GID_LINK_LOCAL,
				 NULL, "%s", b.data ? b.data : "");
		nicfit_buf_reset(&b);
		nicfit_buf_puts(&b, "Likely causes, most likely first:");
		if (gi) {
			nicfit_buf_addf(&b, " 1) NCCL_IB_GID_INDEX=%s, set by the user, points at the "
					"link-local entry", gi->value);
			nicfit__vquote(&b, d, gi->line);
			nicfit_buf_puts(&b, ": set it to the index show_gids lists for the port's IPv4 "
					"address with VER v2, or, with NCCL 2.21 or later, unset it and "
					"NCCL picks a routable RoCE v2 GID itself.");
		} else if (au == 0) {
			nicfit_buf_addf(&b, " 1) NCCL %s uses GID index 0 unless NCCL_IB_GID_INDEX is "
					"set: set NCCL_IB_GID_INDEX to the index show_gids lists for the "
					"port's IPv4 address with VER v2, or use NCCL 2.21 or later, which "
					"chooses it.", g->version);
		} else if (au > 0) {
			nicfit_buf_puts(&b, " 1) the port's netdev has no routable address, so NCCL "
					"found no other GID (show_gids lists only fe80 entries for it): "
					"give the netdev its fabric IP address, or leave the HCA out with "
					"NCCL_IB_HCA.");
		} else {
			nicfit_buf_puts(&b, " 1) NCCL before 2.21 uses GID index 0 unless "
					"NCCL_IB_GID_INDEX is set (set it to the index show_gids lists for "
					"the port's IPv4 address with VER v2); from 2.21 NCCL picks a "
					"routable GID when the port has one, so the port's netdev has no "
					"routable address: give it its fabric IP address, or leave the HCA "
					"out with NCCL_IB_HCA.");
		}
		nicfit_buf_puts(&b, " 2) NCCL_IB_ADDR_FAMILY (AF_INET by default) or NCCL_IB_ADDR_RANGE "
				"excludes the address the port has: set them to the fabric's family "
				"and subnet. A flat Ethernet segment between the hosts carries "
				"link-local RoCE; anything routed does not.");
		if (f && nicfit__finding_fix(&v->findings, f, "%s", b.data ? b.data : ""))
			f = NULL;
		nicfit_buf_release(&b);
		if (!f)
			return NICFIT_E_NOMEM;
	}
	return 0;
}

/*
 * NCCL_IB_ROCE_VERSION_NUM=1. Why: RoCE v1 is an Ethernet frame of its
 * own ethertype (0x8915) and stays inside one broadcast domain; only RoCE
 * v2 (UDP/IP, port 4791) crosses a router (Red Hat's "Configuring RoCE").
 * NCCL's default is 2 (IbRoceVersionNum in net_ib/connect.cc, read from
 * 2.21 on when it chooses the GID), so 1 was asked for: on a routed fabric
 * the queue pairs never connect.
 */
static int judge_roce_v1(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	const struct nicfit_nccl_kv *rv = nicfit__venv(g, "NCCL_IB_ROCE_VERSION_NUM");
	struct nicfit_finding *f;
	struct nicfit_buf b;

	if (!rv || strcmp(rv->value, "1"))
		return 0;
	nicfit_buf_init(&b, 0);
	nicfit_buf_addf(&b, "%s: NCCL_IB_ROCE_VERSION_NUM=1 makes NCCL choose RoCE v1 GIDs", d->input);
	nicfit__vquote(&b, d, rv->line);
	nicfit_buf_puts(&b, ": RoCE v1 frames stay in one Ethernet broadcast domain, so on a routed "
			"fabric the queue pairs between hosts never connect");
	if (gid_auto(g) == 0)
		nicfit_buf_addf(&b, " (NCCL %s does not read it: it uses NCCL_IB_GID_INDEX, 0 by "
				"default)", g->version);
	f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_NCCL_ROCE_V1, NULL, "%s",
			 b.data ? b.data : "");
	nicfit_buf_release(&b);
	if (!f || nicfit__finding_fix(&v->findings, f, "Unset NCCL_IB_ROCE_VERSION_NUM (NCCL's "
				      "default is 2, RoCE v2 over UDP/IP), unless every host shares "
				      "one Ethernet segment and the switches carry only RoCE v1."))
		return NICFIT_E_NOMEM;
	return 0;
}

/* The fraction of the line a RoCE or IB packet of mtu bytes carries (nicfit's link model). */
static double mtu_efficiency(int ib, double mtu)
{
	struct nicfit_link_params lp;
	struct nicfit_link_result r;
	/* any rate: the fraction depends only on the packet */
	struct nicfit_speed sp = { .gbps = 100, .kind = NICFIT_SPEED_ANY };

	nicfit_link_params_default(&lp);
	lp.rdma_mtu = mtu;
	if (nicfit_link_calc(&sp, ib ? NICFIT_PROTO_IB : NICFIT_PROTO_ROCE, &lp, &r, NULL))
		return 0;
	return r.efficiency;
}

/*
 * A path MTU below 4096 bytes. Why: NCCL sets each queue pair's MTU to
 * the port's active MTU (connect.cc: "devInfo->mtu = portAttr.active_mtu"),
 * and on RoCE the active MTU is the largest IB MTU that fits the netdev's
 * MTU: the default 1500 gives 1024; NVIDIA's guidance is a port MTU of
 * 4200 for 4096 (quoted in NVIDIA/dgx-spark-playbooks#103, where jumbo
 * frames gave about 5 % more busbw). Smaller packets carry more header per
 * byte and more packets per second: a warning on RoCE. On InfiniBand the
 * subnet manager's partition MTU sets it and the header is small (26
 * bytes): information. One finding per device index.
 */
static int judge_mtu(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	size_t i, j;

	for (i = 0; i < g->nqps; i++) {
		const struct nicfit_nccl_qp *q = &g->qps[i];
		struct nicfit_finding *f;
		struct nicfit_buf b;
		char name[96];
		int seen = 0, bytes = nicfit__ibv_mtu_bytes(q->mtu), full = nicfit__ibv_mtu_bytes(IBV_MTU_MAX);
		double e, ef;

		if (!bytes || q->mtu >= IBV_MTU_MAX)
			continue;
		for (j = 0; j < i; j++)
			seen |= g->qps[j].dev == q->dev && g->qps[j].mtu > 0 && g->qps[j].mtu < IBV_MTU_MAX;
		if (seen)
			continue;
		e = mtu_efficiency(q->ib, bytes);
		ef = mtu_efficiency(q->ib, full);
		dev_name(g, q, name, sizeof(name));
		nicfit_buf_init(&b, 0);
		nicfit_buf_addf(&b, "%s: %s runs its queue pairs at a %d-byte path MTU (mtu %d), not "
				"%d: each packet carries %.4f of the line instead of %.4f (%.1f %% "
				"less)", d->input, name, bytes, q->mtu, full, e, ef,
				ef > 0 ? 100 * (1 - e / ef) : 0);
		nicfit__vquote(&b, d, q->line);
		f = nicfit__find(&v->findings, q->ib ? NICFIT_SEV_INFO : NICFIT_SEV_WARNING,
				 NICFIT_CODE_VERIFY_NCCL_MTU_LOW, NULL, "%s", b.data ? b.data : "");
		nicfit_buf_release(&b);
		if (!f || nicfit__finding_fix(&v->findings, f, q->ib ?
				"The subnet manager's partition MTU sets it: set the partition's mtu "
				"to 4096 where every switch and HCA supports it (ibv_devinfo shows "
				"active_mtu per port)." :
				"Raise the netdev's MTU to 4200 or more (ip link set dev <netdev> mtu "
				"9000) on every host and the switch ports between them; ibv_devinfo "
				"then shows active_mtu 4096 (5)."))
			return NICFIT_E_NOMEM;
	}
	return 0;
}

int nicfit__verify_gid_causes(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	int rc = judge_link_local(v, d);

	if (!rc)
		rc = judge_roce_v1(v, d);
	if (!rc)
		rc = judge_mtu(v, d);
	return rc;
}
