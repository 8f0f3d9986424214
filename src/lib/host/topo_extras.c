/*
 * topo_extras.c - what only the audited devices need: the PCIe
 * capability and ACS in config space, VPD (the card's part number) and
 * the IOMMU group's type.
 *
 * These files are privileged or slow (config space beyond 64 bytes and
 * VPD need root, and VPD is fetched from the card's own storage through
 * config cycles), so they are read only for GPUs, accelerators, NICs and NVSwitches and
 * for the bridges above them, once classification has said which those
 * are, and VPD only for a card's first physical function.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>

#include "core/file_int.h"
#include "host/sysfs_int.h"
#include "host/topo_int.h"
#include "host/vpd_int.h"

#define Q NICFIT_SYSFS_QUIET

/*
 * Config space sizes (PCI and PCIe base specs): everyone may read the
 * 64-byte header, the capability list runs to 256 bytes, and extended
 * capabilities (ACS among them) to 4096, which only bridges need here.
 * A capability takes at least 4 bytes of the 192 after the header, so a
 * list longer than 48 loops; 128 extended ones are more than any device
 * has.
 */
#define CFG_HEADER_BYTES 64
#define CFG_STD_BYTES 256
#define CFG_EXT_BYTES 4096
#define CAP_LIST_MAX 48
#define EXT_CAP_LIST_MAX 128
#define PCIE_LNKCAP2 0x2c /* Link Capabilities 2, in the PCIe capability */
#define SYSFS_FS_MAGIC 0x62656572L /* SYSFS_MAGIC, include/uapi/linux/magic.h */

/* ---- config space ----------------------------------------------------------- */

static unsigned rd16(const unsigned char *c, int o)
{
	return (unsigned)c[o] | (unsigned)c[o + 1] << 8;
}

static unsigned long rd32(const unsigned char *c, int o)
{
	return (unsigned long)rd16(c, o) | (unsigned long)rd16(c, o + 2) << 16;
}

/* The PCIe capability's first 20 bytes at w: port type, MPS, MRRS, link. */
static void parse_pcie_cap(struct nicfit_pcidev *p, const unsigned char *w)
{
	unsigned flags = rd16(w, 2);
	unsigned devcap = (unsigned)rd32(w, 4);
	unsigned devctl = rd16(w, 8);
	unsigned long lnkcap = rd32(w, 0x0c);
	unsigned lnksta = rd16(w, 0x12);
	static const enum nicfit_port_type types[] = {
		NICFIT_PORT_ENDPOINT, NICFIT_PORT_LEGACY, NICFIT_PORT_UNKNOWN,
		NICFIT_PORT_UNKNOWN, NICFIT_PORT_ROOT, NICFIT_PORT_UPSTREAM,
		NICFIT_PORT_DOWNSTREAM, NICFIT_PORT_PCIE_TO_PCI, NICFIT_PORT_UNKNOWN,
		NICFIT_PORT_RCIEP, NICFIT_PORT_RCEC
	};
	unsigned ty = (flags >> 4) & 0xf;

	p->cfg_pcie = 1;
	if (ty < sizeof(types) / sizeof(types[0]) && types[ty] != NICFIT_PORT_UNKNOWN) {
		p->port_type = types[ty];
		p->port_type_from_config = 1;
	}
	p->mps_cap = 128 << (devcap & 7);
	p->mps = 128 << ((devctl >> 5) & 7);
	p->mrrs = 128 << ((devctl >> 12) & 7);
	p->lnkcap_gen = (int)(lnkcap & 0xf);
	p->lnkcap_width = (int)((lnkcap >> 4) & 0x3f);
	p->lnksta_gen = (int)(lnksta & 0xf);
	p->lnksta_width = (int)((lnksta >> 4) & 0x3f);
}

/*
 * The extended capabilities from 0x100, one header dword a hop, to ACS
 * (ID 0x000d) and its control register; the furthest byte read returned.
 */
static int read_acs(struct disc *d, struct nicfit_pcidev *p, int fd, const char *path, int end)
{
	unsigned char w[4];
	int ptr = 0x100, guard;

	for (guard = 0; ptr >= 0x100 && ptr + 8 <= CFG_EXT_BYTES && guard < EXT_CAP_LIST_MAX;
	     guard++) {
		unsigned long h;

		if (nicfit_sysfs_pread(d->fs, fd, path, w, 4, (size_t)ptr,
				       "extended capability hop (to ACS)") < 4)
			break;
		end = ptr + 4 > end ? ptr + 4 : end;
		h = rd32(w, 0);
		if (h == 0 || h == 0xffffffffUL)
			break;
		if ((h & 0xffff) == 0x000d) {
			if (nicfit_sysfs_pread(d->fs, fd, path, w, 4, (size_t)ptr + 4,
					       "ACS capability and control") == 4) {
				p->acs = 1;
				p->acs_ctrl = rd16(w, 2);
				end = ptr + 8 > end ? ptr + 8 : end;
			}
			break;
		}
		ptr = (int)((h >> 20) & 0xffc);
	}
	return end;
}

/*
 * Link Capabilities 2 (PCIe capability + 0x2c, capability version 2 on):
 * its Supported Link Speeds Vector is half of what the kernel's
 * max_link_speed says (pcie_get_speed_cap() in drivers/pci/pci.c reads it
 * and Link Capabilities), and one dword where the kernel reads two for
 * the file. A version 1 capability has none (the kernel reads it as 0).
 */
static void read_lnkcap2(struct disc *d, struct nicfit_pcidev *p, int fd, const char *path,
			 int cap, unsigned version, int *end)
{
	unsigned char w[4];

	if (version < 2 || cap + PCIE_LNKCAP2 + 4 > CFG_STD_BYTES ||
	    nicfit_sysfs_pread(d->fs, fd, path, w, 4, (size_t)cap + PCIE_LNKCAP2,
			       "PCIe capability: supported link speeds (max_link_speed)") < 4)
		return;
	p->lnkcap2_speeds = w[0] & 0xfe;
	*end = cap + PCIE_LNKCAP2 + 4 > *end ? cap + PCIE_LNKCAP2 + 4 : *end;
}

/* A bridge's secondary bus (type 1 header), where its file was not read. */
static void header_secbus(struct nicfit_pcidev *p, const unsigned char *c)
{
	if ((c[0x0e] & 0x7f) == 1 && !(p->have & NICFIT_HAVE_SECBUS) &&
	    ((p->class_code >> 8) == 0x0604 || (p->class_code >> 8) == 0x0609)) {
		p->secondary_bus = c[0x19];
		p->have |= NICFIT_HAVE_SECBUS;
	}
}

static void parse_config(struct nicfit_pcidev *p, const unsigned char *c, int len)
{
	int ptr, guard;

	p->cfg_len = len;
	if (len < CFG_HEADER_BYTES)
		return;
	header_secbus(p, c);
	if (!(rd16(c, 6) & 0x10))
		return;
	ptr = c[0x34] & 0xfc;
	for (guard = 0; ptr >= 0x40 && ptr + 0x14 <= len && guard < CAP_LIST_MAX; guard++) {
		if (c[ptr] == 0x10) {
			parse_pcie_cap(p, c + ptr);
			if ((c[ptr + 2] & 0xf) >= 2 && ptr + PCIE_LNKCAP2 + 4 <= len)
				p->lnkcap2_speeds = c[ptr + PCIE_LNKCAP2] & 0xfe;
			break;
		}
		ptr = c[ptr + 1] & 0xfc;
	}
	if (!p->cfg_pcie || len < 0x104)
		return;
	ptr = 0x100;
	for (guard = 0; ptr >= 0x100 && ptr + 8 <= len && guard < EXT_CAP_LIST_MAX; guard++) {
		unsigned long h = rd32(c, ptr);

		if (h == 0 || h == 0xffffffffUL)
			break;
		if ((h & 0xffff) == 0x000d) {
			p->acs = 1;
			p->acs_ctrl = rd16(c, ptr + 6);
			break;
		}
		ptr = (int)((h >> 20) & 0xffc);
	}
}

/*
 * Whether the tree's config files are plain copies (a capture, a snapshot
 * unpacked) rather than the kernel's, where each dword read is a config
 * cycle (pci_read_config() in drivers/pci/pci-sysfs.c): asked of the
 * first one opened, by its file system.
 */
static int config_is_copy(struct disc *d, int fd)
{
	struct statfs sf;

	if (!d->cfg_copy)
		d->cfg_copy = !d->fs->config_dwords && !fstatfs(fd, &sf) &&
			      (long)sf.f_type != SYSFS_FS_MAGIC ? 1 : 2;
	return d->cfg_copy == 1;
}

/*
 * A copy's config bytes cost nothing to read but the call: the header and
 * the capability list in one read of 256 bytes (64 where the copy was made
 * without root), then a bridge's extended capabilities by hops to ACS.
 */
static void read_config_copy(struct disc *d, struct nicfit_pcidev *p, int fd, const char *path)
{
	unsigned char c[CFG_STD_BYTES];
	size_t got;
	int end;

	got = nicfit_sysfs_pread(d->fs, fd, path, c, sizeof(c), 0,
				 "header and capabilities (a copy: one read)");
	if (got < CFG_HEADER_BYTES)
		return;
	if (got > CFG_HEADER_BYTES)
		d->t->privileged = 1;
	parse_config(p, c, (int)got);
	end = (int)got;
	if (p->cfg_pcie && p->kind == NICFIT_DEV_BRIDGE)
		end = read_acs(d, p, fd, path, end);
	p->cfg_len = end;
}

/*
 * Config space read by the registers used, as lspci and hwloc would not:
 * the 64-byte header (one read, all anyone may read; 4 more bytes tell
 * whether more is readable), one dword per capability hop to the PCIe
 * capability and its 20 bytes, and for bridges one dword per extended
 * capability hop to ACS and its control dword. What the whole-file
 * parser finds, with 30 to 40 dwords of config cycles on a live host
 * instead of 1024 for a bridge.
 */
static void read_config(struct disc *d, struct nicfit_pcidev *p)
{
	unsigned char c[CFG_HEADER_BYTES + 4], w[0x14];
	char path[TOPO_PATH_MAX];
	int fd, ptr, guard, end;
	size_t got;

	nicfit__topo_pathf(path, sizeof(path), p->path, "config");
	if (nicfit_sysfs_open_attr(d->fs, path, &fd, Q) != NICFIT_SYSFS_OK)
		return;
	if (config_is_copy(d, fd)) {
		read_config_copy(d, p, fd, path);
		goto done;
	}
	got = nicfit_sysfs_pread(d->fs, fd, path, c, sizeof(c), 0,
				 "header: IDs, class, status, capability pointer");
	if (got < CFG_HEADER_BYTES)
		goto done;
	end = (int)got;
	if (got > CFG_HEADER_BYTES)
		d->t->privileged = 1;
	header_secbus(p, c);
	if (!(rd16(c, 6) & 0x10) || got == CFG_HEADER_BYTES)
		goto out;
	ptr = c[0x34] & 0xfc;
	for (guard = 0; ptr >= 0x40 && ptr + 0x14 <= CFG_STD_BYTES && guard < CAP_LIST_MAX;
	     guard++) {
		if (nicfit_sysfs_pread(d->fs, fd, path, w, 4, (size_t)ptr,
				       "capability list hop") < 4)
			break;
		end = ptr + 4 > end ? ptr + 4 : end;
		if (w[0] == 0x10) {
			if (nicfit_sysfs_pread(d->fs, fd, path, w + 4, 0x10, (size_t)ptr + 4,
					       "PCIe capability: port type, MPS, MRRS, link") < 0x10)
				break;
			end = ptr + 0x14 > end ? ptr + 0x14 : end;
			parse_pcie_cap(p, w);
			read_lnkcap2(d, p, fd, path, ptr, w[2] & 0xf, &end);
			break;
		}
		ptr = w[1] & 0xfc;
	}
	if (p->cfg_pcie && p->kind == NICFIT_DEV_BRIDGE)
		end = read_acs(d, p, fd, path, end);
out:
	p->cfg_len = end;
done:
	nicfit_sysfs_close_attr(d->fs, fd);
}

/* ---- one device ------------------------------------------------------------- */

static void read_extras(struct disc *d, int idx, int want_vpd)
{
	struct nicfit_topo *t = d->t;
	struct nicfit_pcidev *p = &t->pci[idx];
	unsigned char buf[NICFIT_SYSFS_BIN_MAX];
	char path[TOPO_PATH_MAX], link[TOPO_PATH_MAX], canon[TOPO_PATH_MAX];
	size_t len;
	enum nicfit_sysfs_status st;

	if (p->probed && !want_vpd)
		return;
	if (!p->probed && nicfit_sysfs_recording_whole(d->fs)) {
		/* a snapshot keeps the bytes a later audit of it reads */
		size_t want = p->kind == NICFIT_DEV_BRIDGE ? CFG_EXT_BYTES : CFG_STD_BYTES;

		nicfit__topo_pathf(path, sizeof(path), p->path, "config");
		st = nicfit_sysfs_read(d->fs, path, buf, want, &len, Q);
		if ((st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_TOO_BIG) && len >= CFG_HEADER_BYTES) {
			parse_config(p, buf, (int)len);
			if (len > CFG_HEADER_BYTES)
				t->privileged = 1;
		}
	} else if (!p->probed) {
		read_config(d, p);
	}
	if (!p->probed && p->kind != NICFIT_DEV_BRIDGE) {
		nicfit__topo_pathf(path, sizeof(path), p->path, "iommu_group");
		if (nicfit_sysfs_readlink(d->fs, path, link, sizeof(link), 0) == NICFIT_SYSFS_OK &&
		    !nicfit__path_join(canon, sizeof(canon), p->path, link)) {
			char tp[TOPO_PATH_MAX];

			nicfit__topo_pathf(tp, sizeof(tp), canon, "type");
			nicfit_sysfs_read_str(d->fs, tp, p->iommu_type, sizeof(p->iommu_type), Q);
		}
	}
	p->probed = 1;
	if (want_vpd && !p->vpd_state) {
		nicfit__topo_pathf(path, sizeof(path), p->path, "vpd");
		st = nicfit_sysfs_read(d->fs, path, buf, sizeof(buf), &len, Q);
		if (st == NICFIT_SYSFS_MISSING) {
			p->vpd_state = NICFIT_VPD_ABSENT;
		} else if (st != NICFIT_SYSFS_OK) {
			p->vpd_state = NICFIT_VPD_UNREADABLE;
		} else {
			struct nicfit_vpd *v = malloc(sizeof(*v));
			struct nicfit_error e;
			const char *s;

			nicfit_error_clear(&e);
			if (!v) {
				p->vpd_state = NICFIT_VPD_UNREADABLE;
				return;
			}
			if (nicfit__vpd_parse(buf, len, v, &e) && !v->nkw) {
				p->vpd_state = len ? NICFIT_VPD_MALFORMED : NICFIT_VPD_ABSENT;
				if (len)
					nicfit_sysfs_report(d->fs, path, NICFIT_SYSFS_MALFORMED, 0, 0);
			} else {
				p->vpd_state = NICFIT_VPD_READ;
				nicfit__topo_copy(p->vpd_name, sizeof(p->vpd_name), v->name);
				s = nicfit__vpd_get(v, "PN");
				nicfit__topo_copy(p->vpd_part, sizeof(p->vpd_part), s ? s : "");
				s = nicfit__vpd_get(v, "V0");
				if (s && !strncmp(s, "PCIe", 4))
					nicfit__topo_copy(p->vpd_pcie, sizeof(p->vpd_pcie), s);
				p->vpd_checksum = (int)v->checksum;
			}
			free(v);
		}
	}
}

static int interesting(enum nicfit_dev_kind k)
{
	return k == NICFIT_DEV_GPU || k == NICFIT_DEV_ACCEL || k == NICFIT_DEV_NIC ||
	       k == NICFIT_DEV_NVSWITCH;
}

void nicfit__topo_read_extras(struct disc *d)
{
	struct nicfit_topo *t = d->t;
	int i, k, chain[2 * NICFIT_TOPO_MAX_DEPTH];

	for (i = 0; i < t->npci; i++) {
		struct nicfit_pcidev *p = &t->pci[i];
		int n, vpd;

		/* a VF's registers beyond its IDs are its PF's to set (SR-IOV) */
		if (!interesting(p->kind) || p->physfn >= 0)
			continue;
		vpd = p->kind == NICFIT_DEV_NIC && p->physfn < 0 && p->fn == 0;
		read_extras(d, i, vpd);
		n = nicfit_topo_chain(t, i, chain, (int)(sizeof(chain) / sizeof(chain[0])));
		for (k = 0; k < n - 1; k++)
			read_extras(d, chain[k], 0);
	}
}
