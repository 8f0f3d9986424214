/*
 * topo_net.c - the devices that carry traffic: network interfaces
 * (sys/class/net), RDMA devices and their ports (sys/class/infiniband),
 * and the PFC settings of the interfaces that run RoCE.
 *
 * A class device is tied to its PCI function by its canonical path: the
 * function whose directory is the longest prefix of it (topo_pci.c's
 * index), so a netdev below a VF or a representor lands on the right
 * function. Virtual interfaces (bridges, bonds, veth) are kept, marked.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_int.h"
#include "core/fmt_int.h"
#include "nicfit/units.h"
#include "host/topo_int.h"

#define Q NICFIT_SYSFS_QUIET

/*
 * GIDs of a RoCE port: one per IP address of the interface (and per RoCE
 * version), packed from index 0 but with holes when addresses go away.
 * The scan reads at most MAX_GID_SCAN entries and stops after
 * GID_EMPTY_RUN empty ones in a row, which no real table has between two
 * used entries, so a 256-entry all-zero table costs 32 reads, not 256.
 */
#define MAX_GID_SCAN 256
#define GID_EMPTY_RUN 32
/*
 * Plausibility bounds: an ARPHRD type is 16 bits; no link MTU reaches
 * 1 MiB (the kernel caps most at 64 KiB); speed is in Mb/s, and 100 Tb/s
 * is far beyond any port; an IB port number is 8 bits.
 */
#define ARPHRD_LIMIT 65536
#define MTU_LIMIT (1 << 20)
#define SPEED_MBPS_MAX 100000000L
#define IB_PORT_MAX 255

/* ---- class devices to functions ------------------------------------------- */

/*
 * "dir/sub/k" into out, as nicfit__fmt(out, cap, "%s/%s/%d", ...) writes
 * it (which it calls when the path does not fit): the GID files of a port
 * are a few hundred paths that differ only in k.
 */
static void path_num(char *out, size_t cap, const char *dir, const char *sub, int k)
{
	char num[16], *q = num + sizeof(num);
	size_t a = strlen(dir), b = strlen(sub), c;
	unsigned u = (unsigned)k;

	if (k < 0) {
		nicfit__fmt(out, cap, "%s/%s/%d", dir, sub, k);
		return;
	}
	do {
		*--q = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	c = (size_t)(num + sizeof(num) - q);
	if (a + 1 + b + 1 + c >= cap) {
		nicfit__fmt(out, cap, "%s/%s/%d", dir, sub, k);
		return;
	}
	memcpy(out, dir, a);
	out[a] = '/';
	memcpy(out + a + 1, sub, b);
	out[a + 1 + b] = '/';
	memcpy(out + a + 2 + b, q, c);
	out[a + 2 + b + c] = '\0';
}

/* The function whose path is the longest prefix of path (a class device). */
static int owner_of(struct disc *d, const char *path)
{
	return nicfit__topo_find_prefix(d, path);
}

static int class_link(struct disc *d, const char *cls, const char *name, char *canon, size_t cap)
{
	char path[TOPO_PATH_MAX], link[TOPO_PATH_MAX], dir[TOPO_PATH_MAX];

	nicfit__fmt(dir, sizeof(dir), "sys/class/%s", cls);
	nicfit__topo_pathf(path, sizeof(path), dir, name);
	if (nicfit_sysfs_readlink(d->fs, path, link, sizeof(link), 0) != NICFIT_SYSFS_OK)
		return -1;
	return nicfit__path_join(canon, cap, dir, link);
}

/* ---- network interfaces ----------------------------------------------------- */

void nicfit__topo_read_net(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	struct nicfit_dirent *ents;
	size_t n, i;

	if (nicfit_sysfs_list(d->fs, "sys/class/net", &ents, &n, 0) != NICFIT_SYSFS_OK)
		return;
	for (i = 0; i < n && !d->rc; i++) {
		char canon[TOPO_PATH_MAX], path[TOPO_PATH_MAX], s[64];
		struct nicfit_netdev *nd;
		enum nicfit_sysfs_status st;
		long v;
		int idx;

		if (ents[i].type != NICFIT_DT_LINK || class_link(d, "net", ents[i].name, canon,
								   sizeof(canon)))
			continue;
		idx = nicfit_topo_add_netdev(t, ents[i].name, owner_of(d, canon));
		if (idx < 0) {
			nicfit__topo_fail(d, NICFIT_E_LIMIT, "too many network interfaces");
			break;
		}
		nd = &t->net[idx];
		if (!strncmp(canon, "sys/devices/virtual/", 20)) {
			nd->is_virtual = 1;
			continue;
		}
		nicfit__topo_pathf(path, sizeof(path), canon, "type");
		st = nicfit_sysfs_read_long(d->fs, path, &v, 0);
		if (st == NICFIT_SYSFS_LOOP || st == NICFIT_SYSFS_MISSING) {
			t->nnet--; /* a link that leads nowhere names no interface */
			continue;
		}
		if (st == NICFIT_SYSFS_OK && v >= 0 && v < ARPHRD_LIMIT)
			nd->type = (int)v;
		nicfit__topo_pathf(path, sizeof(path), canon, "mtu");
		if (nicfit_sysfs_read_long(d->fs, path, &v, 0) == NICFIT_SYSFS_OK && v > 0 &&
		    v < MTU_LIMIT)
			nd->mtu = (int)v;
		nicfit__topo_pathf(path, sizeof(path), canon, "operstate");
		nicfit_sysfs_read_str(d->fs, path, nd->operstate, sizeof(nd->operstate), 0);
		/* speed and carrier fail with EINVAL while the interface is down */
		nicfit__topo_pathf(path, sizeof(path), canon, "carrier");
		if (nicfit_sysfs_read_long(d->fs, path, &v, Q) == NICFIT_SYSFS_OK)
			nd->carrier = v ? 1 : 0;
		nicfit__topo_pathf(path, sizeof(path), canon, "speed");
		if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), Q) == NICFIT_SYSFS_OK &&
		    !nicfit_parse_dec(s, -1, SPEED_MBPS_MAX, &v))
			nd->speed_mbps = v > 0 ? v : -1;
	}
	free(ents);
}

/* ---- RDMA devices and ports ------------------------------------------------- */

static int link_local(const uint8_t g[16])
{
	return g[0] == 0xfe && (g[1] & 0xc0) == 0x80;
}

static void read_port(struct disc *d, const char *dev, const char *num, struct nicfit_rdma_port *pt)
{
	char dir[TOPO_PATH_MAX], path[TOPO_PATH_MAX], s[128];
	long v;
	int empty = 0, k;

	nicfit__fmt(dir, sizeof(dir), "%s/ports/%s", dev, num);
	pt->num = nicfit_parse_dec(num, 0, IB_PORT_MAX, &v) ? 0 : (int)v;
	pt->state = pt->phys_state = -1;
	pt->gid_v2_index = -1;
	nicfit__topo_pathf(path, sizeof(path), dir, "state");
	if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), 0) == NICFIT_SYSFS_OK &&
	    nicfit_parse_ib_state(s, &pt->state, pt->state_name, sizeof(pt->state_name)))
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
	nicfit__topo_pathf(path, sizeof(path), dir, "phys_state");
	if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), 0) == NICFIT_SYSFS_OK &&
	    nicfit_parse_ib_state(s, &pt->phys_state, pt->phys_name, sizeof(pt->phys_name)))
		nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
	nicfit__topo_pathf(path, sizeof(path), dir, "rate");
	if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), Q) == NICFIT_SYSFS_OK) {
		if (nicfit_parse_ib_rate(s, &pt->rate))
			nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		else
			pt->have_rate = 1;
	}
	nicfit__topo_pathf(path, sizeof(path), dir, "link_layer");
	nicfit_sysfs_read_str(d->fs, path, pt->link_layer, sizeof(pt->link_layer), 0);
	/* An Ethernet port's rate names IB speeds for Ethernet ones: no IB line coding. */
	if (pt->have_rate && strcmp(pt->link_layer, "InfiniBand"))
		pt->rate.data_gbps = pt->rate.gbps;
	/* GIDs: InfiniBand needs only GID 0; RoCE ports carry one per address. */
	for (k = 0; k < MAX_GID_SCAN && empty < GID_EMPTY_RUN; k++) {
		uint8_t g[16];
		int zero = 1, j;

		path_num(path, sizeof(path), dir, "gids", k);
		if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), Q) != NICFIT_SYSFS_OK)
			break;
		if (nicfit_parse_gid(s, g)) {
			nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
			empty++;
			continue;
		}
		for (j = 0; j < 16; j++)
			zero &= !g[j];
		if (zero) {
			empty++;
			continue;
		}
		empty = 0;
		pt->ngids++;
		if (strcmp(pt->link_layer, "Ethernet"))
			break;
		path_num(path, sizeof(path), dir, "gid_attrs/types", k);
		if (nicfit_sysfs_read_str(d->fs, path, s, sizeof(s), Q) == NICFIT_SYSFS_OK) {
			enum nicfit_gid_type ty = nicfit_parse_gid_type(s);

			pt->gid_types_known = 1;
			if (ty == NICFIT_GID_IB_ROCE1) {
				pt->ngid_v1++;
			} else if (ty == NICFIT_GID_ROCE2) {
				pt->ngid_v2++;
				if (!link_local(g)) {
					pt->ngid_v2_routable++;
					if (pt->gid_v2_index < 0)
						pt->gid_v2_index = k;
				}
			} else {
				nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
			}
		}
	}
}

void nicfit__topo_read_rdma(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	struct nicfit_dirent *ents, *ports;
	size_t n, np, i, j;

	if (nicfit_sysfs_list(d->fs, "sys/class/infiniband", &ents, &n, 0) != NICFIT_SYSFS_OK)
		return;
	t->rdma_listed = 1;
	for (i = 0; i < n && !d->rc; i++) {
		char canon[TOPO_PATH_MAX], path[TOPO_PATH_MAX], dir[TOPO_PATH_MAX];
		struct nicfit_rdmadev *r;
		int idx;

		if (ents[i].type != NICFIT_DT_LINK || class_link(d, "infiniband", ents[i].name, canon,
								   sizeof(canon)))
			continue;
		idx = nicfit_topo_add_rdma(t, ents[i].name,
					   strncmp(canon, "sys/devices/virtual/", 20) ?
					   owner_of(d, canon) : -1);
		if (idx < 0) {
			nicfit__topo_fail(d, NICFIT_E_LIMIT, "too many RDMA devices");
			break;
		}
		r = &t->rdma[idx];
		nicfit__topo_copy(dir, sizeof(dir), canon);
		nicfit__topo_pathf(path, sizeof(path), dir, "node_type");
		nicfit_sysfs_read_str(d->fs, path, r->node_type, sizeof(r->node_type), Q);
		nicfit__topo_pathf(path, sizeof(path), dir, "hca_type");
		nicfit_sysfs_read_str(d->fs, path, r->hca_type, sizeof(r->hca_type), Q);
		nicfit__topo_pathf(path, sizeof(path), dir, "fw_ver");
		nicfit_sysfs_read_str(d->fs, path, r->fw_ver, sizeof(r->fw_ver), Q);
		nicfit__topo_pathf(path, sizeof(path), dir, "board_id");
		nicfit_sysfs_read_str(d->fs, path, r->board_id, sizeof(r->board_id), Q);
		nicfit__topo_pathf(path, sizeof(path), dir, "ports");
		if (nicfit_sysfs_list(d->fs, path, &ports, &np, 0) != NICFIT_SYSFS_OK)
			continue;
		for (j = 0; j < np && r->nports < NICFIT_TOPO_MAX_PORTS; j++) {
			long v;

			if (nicfit_parse_dec(ports[j].name, 0, IB_PORT_MAX, &v))
				continue;
			read_port(d, dir, ports[j].name, &r->ports[r->nports++]);
		}
		free(ports);
	}
	free(ents);
}

/* ---- PFC -------------------------------------------------------------------- */

/*
 * PFC of the interfaces of RoCE ports: DCB netlink on the live host (the
 * answer is recorded for snapshots), a snapshot's nicfit-dcb/IFNAME file
 * otherwise.
 */
void nicfit__topo_read_pfc(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	int i, k, j;

	for (i = 0; i < t->nnet; i++) {
		struct nicfit_netdev *nd = &t->net[i];
		char path[TOPO_PATH_MAX], text[64];
		int roce = 0;

		if (nd->pci < 0 || nd->is_virtual)
			continue;
		for (k = 0; k < t->nrdma && !roce; k++)
			if (t->rdma[k].pci == nd->pci)
				for (j = 0; j < t->rdma[k].nports; j++)
					roce |= !strcmp(t->rdma[k].ports[j].link_layer, "Ethernet");
		if (!roce)
			continue;
		nicfit__fmt(path, sizeof(path), "nicfit-dcb/%s", nd->name);
		if (t->live) {
			struct nicfit_error e;

			nicfit_error_clear(&e);
			if (!nicfit_dcb_pfc(nd->name, &nd->pfc, &e) &&
			    !nicfit_dcb_format(&nd->pfc, text, sizeof(text)))
				nicfit_sysfs_record_data(d->fs, path, text, strlen(text));
		} else if (nicfit_sysfs_read_str(d->fs, path, text, sizeof(text), Q) == NICFIT_SYSFS_OK &&
			   nicfit_dcb_parse_file(text, &nd->pfc)) {
			nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
		}
	}
}
