/*
 * pciids.c - the built-in PCI ID table and the pci.ids reader
 * (see nicfit/pciids.h). Rows cite docs/reference/nic-identity.md (NI) and
 * docs/reference/topology.md (TO) by section.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicfit/file.h"
#include "pciids_int.h"

/*
 * pci.ids is about 1.4 MB today; a file past 64 MiB is not one (and must
 * not be read whole).
 */
#define PCIIDS_MAX_BYTES (64u << 20)

#define G NICFIT_PCIID_GPU
#define N NICFIT_PCIID_NIC
#define VF NICFIT_PCIID_VF
#define REC NICFIT_PCIID_RECOVERY
#define SW NICFIT_PCIID_SWITCH
#define IN NICFIT_PCIID_INTERNAL
#define IBR NICFIT_PCIID_INTBRIDGE
#define BT NICFIT_PCIID_BASET
#define R_E NICFIT_PCIID_ROCE
#define R_I NICFIT_PCIID_IB
#define R_W NICFIT_PCIID_IWARP

static const char S_GPU[] = "docs/reference/nic-identity.md 3.4 (pci.ids upstream)";
static const char S_MLX[] = "docs/reference/nic-identity.md 3.1; port rates docs/reference/anchors.md 7";
static const char S_INT[] = "docs/reference/nic-identity.md 2.1, 3.2";
static const char S_BCM[] = "docs/reference/nic-identity.md 3.3";
static const char S_TOP[] = "docs/reference/topology.md 1.7, 6";

/* Sorted by vendor, then device (nicfit__pci_id_find bisects). */
static const struct nicfit_pci_id table[] = {
	{ 0x1000, 0xc010, "Broadcom PCIe Gen4 switch", SW, 0, 0, S_TOP },
	{ 0x1000, 0xc030, "Broadcom PCIe Gen5 switch", SW, 0, 0, S_TOP },
	{ 0x1077, 0x7322, "QLogic True Scale InfiniBand HCA", N, 0, R_I, S_TOP },
	{ 0x10de, 0x1db1, "NVIDIA Tesla V100 SXM2", G, 0, 0, S_GPU },
	{ 0x10de, 0x1db4, "NVIDIA Tesla V100 PCIe 16GB", G, 0, 0, S_GPU },
	{ 0x10de, 0x1db5, "NVIDIA Tesla V100 SXM2", G, 0, 0, S_GPU },
	{ 0x10de, 0x1db6, "NVIDIA Tesla V100 PCIe 32GB", G, 0, 0, S_GPU },
	{ 0x10de, 0x1df6, "NVIDIA Tesla V100S PCIe", G, 0, 0, S_GPU },
	{ 0x10de, 0x1eb8, "NVIDIA Tesla T4", G, 0, 0, S_GPU },
	{ 0x10de, 0x20b0, "NVIDIA A100 SXM4 40GB", G, 0, 0, S_GPU },
	{ 0x10de, 0x20b1, "NVIDIA A100 PCIe 40GB", G, 0, 0, S_GPU },
	{ 0x10de, 0x20b2, "NVIDIA A100 SXM4 80GB", G, 0, 0, S_GPU },
	{ 0x10de, 0x20b5, "NVIDIA A100 PCIe 80GB", G, 0, 0, S_GPU },
	{ 0x10de, 0x20b7, "NVIDIA A30", G, 0, 0, S_GPU },
	{ 0x10de, 0x20f1, "NVIDIA A100 PCIe 40GB", G, 0, 0, S_GPU },
	{ 0x10de, 0x2230, "NVIDIA RTX A6000", G, 0, 0, S_GPU },
	{ 0x10de, 0x2235, "NVIDIA A40", G, 0, 0, S_GPU },
	{ 0x10de, 0x2236, "NVIDIA A10", G, 0, 0, S_GPU },
	{ 0x10de, 0x2237, "NVIDIA A10G", G, 0, 0, S_GPU },
	{ 0x10de, 0x2238, "NVIDIA A10M", G, 0, 0, S_GPU },
	{ 0x10de, 0x2321, "NVIDIA H100 NVL 94GB", G, 0, 0, S_GPU },
	{ 0x10de, 0x2330, "NVIDIA H100 SXM5 80GB", G, 0, 0, S_GPU },
	{ 0x10de, 0x2331, "NVIDIA H100 PCIe", G, 0, 0, S_GPU },
	{ 0x10de, 0x2335, "NVIDIA H200 SXM 141GB", G, 0, 0, S_GPU },
	{ 0x10de, 0x233b, "NVIDIA H200 NVL", G, 0, 0, S_GPU },
	{ 0x10de, 0x26b5, "NVIDIA L40", G, 0, 0, S_GPU },
	{ 0x10de, 0x26b9, "NVIDIA L40S", G, 0, 0, S_GPU },
	{ 0x10de, 0x27b8, "NVIDIA L4", G, 0, 0, S_GPU },
	{ 0x10de, 0x2901, "NVIDIA B200", G, 0, 0, S_GPU },
	{ 0x10de, 0x2909, "NVIDIA HGX B200", G, 0, 0, S_GPU },
	{ 0x10de, 0x2bb5, "NVIDIA RTX PRO 6000 Blackwell Server Edition", G, 0, 0, S_GPU },
	{ 0x14e4, 0x16d3, "Broadcom BCM574xx virtual function", N | VF, 0, R_E, S_BCM },
	{ 0x14e4, 0x16d7, "Broadcom BCM57414 NetXtreme-E 10/25G", N, 25, R_E, S_BCM },
	{ 0x14e4, 0x16dc, "Broadcom BCM574xx virtual function", N | VF, 0, R_E, S_BCM },
	{ 0x14e4, 0x1750, "Broadcom BCM57508 NetXtreme-E up to 200G", N, 200, R_E, S_BCM },
	{ 0x14e4, 0x1751, "Broadcom BCM57504 NetXtreme-E up to 100G", N, 100, R_E, S_BCM },
	{ 0x14e4, 0x1752, "Broadcom BCM57502 NetXtreme-E 10-50G", N, 50, R_E, S_BCM },
	{ 0x14e4, 0x1760, "Broadcom BCM57608 NetXtreme-E up to 400G", N, 400, R_E, S_BCM },
	{ 0x14e4, 0x1800, "Broadcom BCM57502 NPAR function", N, 50, R_E, S_BCM },
	{ 0x14e4, 0x1801, "Broadcom BCM57504 NPAR function", N, 100, R_E, S_BCM },
	{ 0x14e4, 0x1802, "Broadcom BCM57508 NPAR function", N, 200, R_E, S_BCM },
	{ 0x14e4, 0x1806, "Broadcom BCM5750X Ethernet virtual function", N | VF, 0, R_E, S_BCM },
	{ 0x14e4, 0x1807, "Broadcom BCM5750X RDMA virtual function", N | VF, 0, R_E, S_BCM },
	{ 0x15b3, 0x01f6, "ConnectX-3 in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x01f8, "ConnectX-3 Pro in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x0209, "ConnectX-4 in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x020b, "ConnectX-4 Lx in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x020d, "ConnectX-5 in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x020f, "ConnectX-6 in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x0210, "ConnectX-6 (secure) in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x0211, "BlueField in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x0212, "ConnectX-6 Dx in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x0213, "ConnectX-6 Dx in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x0214, "BlueField-2 in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x0215, "BlueField-2 in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x0216, "ConnectX-6 Lx in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x0217, "ConnectX-6 Lx in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x0218, "ConnectX-7 in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x0219, "ConnectX-7 in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x021e, "ConnectX-8 in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x021f, "ConnectX-8 in flash recovery mode", N | REC, 0, 0, S_MLX },
	{ 0x15b3, 0x1003, "ConnectX-3", N, 56, R_E | R_I, S_MLX },
	{ 0x15b3, 0x1004, "ConnectX-3 virtual function", N | VF, 0, R_E | R_I, S_MLX },
	{ 0x15b3, 0x1007, "ConnectX-3 Pro", N, 56, R_E | R_I, S_MLX },
	{ 0x15b3, 0x1011, "Connect-IB", N, 56, R_I, S_MLX },
	{ 0x15b3, 0x1012, "Connect-IB virtual function", N | VF, 0, R_I, S_MLX },
	{ 0x15b3, 0x1013, "ConnectX-4", N, 100, R_E | R_I, S_MLX },
	{ 0x15b3, 0x1014, "ConnectX-4 virtual function", N | VF, 0, R_E | R_I, S_MLX },
	{ 0x15b3, 0x1015, "ConnectX-4 Lx", N, 50, R_E, S_MLX },
	{ 0x15b3, 0x1016, "ConnectX-4 Lx virtual function", N | VF, 0, R_E, S_MLX },
	{ 0x15b3, 0x1017, "ConnectX-5", N, 100, R_E | R_I, S_MLX },
	{ 0x15b3, 0x1018, "ConnectX-5 virtual function", N | VF, 0, R_E | R_I, S_MLX },
	{ 0x15b3, 0x1019, "ConnectX-5 Ex", N, 100, R_E | R_I, S_MLX },
	{ 0x15b3, 0x101a, "ConnectX-5 Ex virtual function", N | VF, 0, R_E | R_I, S_MLX },
	{ 0x15b3, 0x101b, "ConnectX-6", N, 200, R_E | R_I, S_MLX },
	{ 0x15b3, 0x101c, "ConnectX-6 virtual function", N | VF, 0, R_E | R_I, S_MLX },
	{ 0x15b3, 0x101d, "ConnectX-6 Dx", N, 200, R_E, S_MLX },
	{ 0x15b3, 0x101e, "ConnectX virtual function (mlx5)", N | VF, 0, R_E | R_I, S_MLX },
	{ 0x15b3, 0x101f, "ConnectX-6 Lx", N, 50, R_E, S_MLX },
	{ 0x15b3, 0x1021, "ConnectX-7", N, 400, R_E | R_I, S_MLX },
	{ 0x15b3, 0x1023, "ConnectX-8", N, 800, R_E | R_I, S_MLX },
	{ 0x15b3, 0x1025, "ConnectX-9", N, 0, R_E | R_I, S_MLX },
	{ 0x15b3, 0x1027, "ConnectX-10", N, 0, R_E | R_I, S_MLX },
	{ 0x15b3, 0x1974, "ConnectX-5 PCIe bridge", SW, 0, 0, S_MLX },
	{ 0x15b3, 0x1976, "ConnectX-6 PCIe bridge", SW, 0, 0, S_MLX },
	{ 0x15b3, 0x1977, "ConnectX-6 Dx PCIe bridge", SW, 0, 0, S_MLX },
	{ 0x15b3, 0x1978, "BlueField-2 PCIe bridge", SW, 0, 0, S_MLX },
	{ 0x15b3, 0x1979, "ConnectX-7 PCIe bridge", SW, 0, 0, S_MLX },
	{ 0x15b3, 0x197b, "BlueField-3 PCIe bridge", SW, 0, 0, S_MLX },
	{ 0x15b3, 0xa2d2, "BlueField network controller", N, 0, R_E | R_I, S_MLX },
	{ 0x15b3, 0xa2d6, "BlueField-2 network controller", N, 0, R_E | R_I, S_MLX },
	{ 0x15b3, 0xa2dc, "BlueField-3 network controller", N, 400, R_E | R_I, S_MLX },
	{ 0x15b3, 0xa2df, "BlueField-4 network controller", N, 0, R_E | R_I, S_MLX },
	{ 0x8086, 0x101f, "Intel X710 5GBASE-T", N | BT, 5, 0, S_INT },
	{ 0x8086, 0x104e, "Intel X710 10GbE SFP+", N, 10, 0, S_INT },
	{ 0x8086, 0x104f, "Intel X710 10GbE backplane", N, 10, 0, S_INT },
	{ 0x8086, 0x154c, "Intel 700-series virtual function", N | VF, 0, 0, S_INT },
	{ 0x8086, 0x1563, "Intel X550 10GBASE-T", N, 10, 0, S_INT },
	{ 0x8086, 0x1564, "Intel X550 virtual function", N | VF, 0, 0, S_INT },
	{ 0x8086, 0x1565, "Intel X550 virtual function", N | VF, 0, 0, S_INT },
	{ 0x8086, 0x1572, "Intel X710 10GbE SFP+", N, 10, 0, S_INT },
	{ 0x8086, 0x1583, "Intel XL710 40GbE QSFP+", N, 40, 0, S_INT },
	{ 0x8086, 0x1584, "Intel XL710 40GbE QSFP+", N, 40, 0, S_INT },
	{ 0x8086, 0x1585, "Intel X710 10GbE QSFP+", N, 10, 0, S_INT },
	{ 0x8086, 0x1586, "Intel X710 10GBASE-T", N | BT, 10, 0, S_INT },
	{ 0x8086, 0x1589, "Intel X710 10GBASE-T4", N | BT, 10, 0, S_INT },
	{ 0x8086, 0x158a, "Intel XXV710 25GbE backplane", N, 25, 0, S_INT },
	{ 0x8086, 0x158b, "Intel XXV710 25GbE SFP28", N, 25, 0, S_INT },
	{ 0x8086, 0x1591, "Intel E810-C 100GbE backplane", N, 100, R_E | R_W, S_INT },
	{ 0x8086, 0x1592, "Intel E810-C 100GbE QSFP28", N, 100, R_E | R_W, S_INT },
	{ 0x8086, 0x1593, "Intel E810-C SFP", N, 25, R_E | R_W, S_INT },
	{ 0x8086, 0x1599, "Intel E810-XXV 25GbE backplane", N, 25, R_E | R_W, S_INT },
	{ 0x8086, 0x159a, "Intel E810-XXV 25GbE QSFP28", N, 25, R_E | R_W, S_INT },
	{ 0x8086, 0x159b, "Intel E810-XXV 25GbE SFP28", N, 25, R_E | R_W, S_INT },
	{ 0x8086, 0x15ff, "Intel X710-TL 10GBASE-T", N | BT, 10, 0, S_INT },
	{ 0x8086, 0x1889, "Intel E810 adaptive virtual function", N | VF, 0, R_E | R_W, S_INT },
	/* C62x "Lewisburg": integrated functions behind an internal bridge (TO 6, UNVERIFIED range). */
	{ 0x8086, 0x37c0, "Intel C62x internal bridge", IBR, 0, 0, S_TOP },
	{ 0x8086, 0x37cc, "Intel X722 10GbE (chipset)", N | IN, 10, R_W, S_INT },
	{ 0x8086, 0x37cd, "Intel X722 virtual function", N | VF | IN, 0, R_W, S_INT },
	{ 0x8086, 0x37ce, "Intel X722 10GbE backplane (chipset)", N | IN, 10, R_W, S_INT },
	{ 0x8086, 0x37cf, "Intel X722 10GbE QSFP+ (chipset)", N | IN, 10, R_W, S_INT },
	{ 0x8086, 0x37d0, "Intel X722 10GbE SFP+ (chipset)", N | IN, 10, R_W, S_INT },
	{ 0x8086, 0x37d1, "Intel X722 1GbE (chipset)", N | IN, 1, R_W, S_INT },
	{ 0x8086, 0x37d2, "Intel X722 10GBASE-T (chipset)", N | IN | BT, 10, R_W, S_INT },
	{ 0x8086, 0x37d3, "Intel X722 10GbE SFP+ (chipset)", N | IN, 10, R_W, S_INT },
	{ 0x8086, 0x37d4, "Intel X722 (chipset)", N | IN, 10, R_W, S_INT },
};

#define NTABLE (sizeof(table) / sizeof(table[0]))

static int cmp_id(unsigned v1, unsigned d1, unsigned v2, unsigned d2)
{
	if (v1 != v2)
		return v1 < v2 ? -1 : 1;
	if (d1 != d2)
		return d1 < d2 ? -1 : 1;
	return 0;
}

const struct nicfit_pci_id *nicfit__pci_id_find(unsigned vendor, unsigned device)
{
	size_t lo = 0, hi = NTABLE;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = cmp_id(vendor, device, table[mid].vendor, table[mid].device);

		if (!c)
			return &table[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static const struct {
	unsigned id;
	const char *name;
} vendors[] = {
	{ 0x1000, "Broadcom/LSI" }, { 0x1002, "AMD" }, { 0x1022, "AMD" },
	{ 0x102b, "Matrox" }, { 0x1077, "QLogic" }, { 0x10b5, "PLX" },
	{ 0x10de, "NVIDIA" }, { 0x1414, "Microsoft" }, { 0x14e4, "Broadcom" },
	{ 0x15ad, "VMware" }, { 0x15b3, "Mellanox" }, { 0x1a03, "ASPEED" },
	{ 0x1af4, "Red Hat (virtio)" }, { 0x1b36, "Red Hat (QEMU)" }, { 0x1d0f, "Amazon" },
	{ 0x8086, "Intel" },
};

/* Cards of one chip told apart by their port (function) count: NI 2.1. */
static const struct {
	unsigned vendor, device;
	int functions;
	const char *name;
} card_names[] = {
	{ 0x8086, 0x15ff, 2, "Intel X710-T2L 10GBASE-T" },
	{ 0x8086, 0x15ff, 4, "Intel X710-T4L 10GBASE-T" },
};

const char *nicfit__pci_id_card_name(unsigned vendor, unsigned device, int functions)
{
	size_t i;

	for (i = 0; i < sizeof(card_names) / sizeof(card_names[0]); i++)
		if (card_names[i].vendor == vendor && card_names[i].device == device &&
		    card_names[i].functions == functions)
			return card_names[i].name;
	return NULL;
}

const char *nicfit__pci_vendor_name(unsigned vendor)
{
	size_t i;

	for (i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
		if (vendors[i].id == vendor)
			return vendors[i].name;
	return NULL;
}

int nicfit__pci_vendor_is_bmc_vga(unsigned vendor)
{
	return vendor == 0x1a03 || vendor == 0x102b;
}

/* ---- pci.ids ---------------------------------------------------------------- */

static int hex4(const char *s, unsigned *v)
{
	unsigned x = 0;
	int i;

	for (i = 0; i < 4; i++) {
		int c = (unsigned char)s[i];

		if (!isxdigit(c))
			return -1;
		x = x << 4 | (unsigned)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
	}
	*v = x;
	return 0;
}

static void copy_name(char *out, size_t cap, const char *s)
{
	size_t n = strcspn(s, "\r\n");

	while (*s == ' ' && n) {
		s++;
		n--;
	}
	if (n >= cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/*
 * Open a pci.ids candidate without blocking (a FIFO has no writer) and
 * keep it only if it is a regular file: /dev/zero or a FIFO named by
 * --pci-ids would otherwise be read for ever. Returns the descriptor, or
 * -1 with errno set (EINVAL for a file that is not regular).
 */
static int open_pciids(const char *path)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* One line of pci.ids (without its newline) against the queries. */
static void scan_line(const char *line, size_t len, struct nicfit_pciids_query *q, size_t n,
		      unsigned *vendor, int *in_vendor)
{
	char buf[512];
	unsigned v;
	size_t k;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (buf[0] != '\t') {
		*in_vendor = 0;
		if (hex4(buf, &v) || buf[4] != ' ')
			return;
		*vendor = v;
		for (k = 0; k < n; k++)
			if (q[k].vendor == v) {
				copy_name(q[k].vendor_name, sizeof(q[k].vendor_name), buf + 4);
				*in_vendor = 1;
			}
		return;
	}
	if (!*in_vendor || buf[1] == '\t' || hex4(buf + 1, &v) || buf[5] != ' ')
		return;
	for (k = 0; k < n; k++)
		if (q[k].vendor == *vendor && q[k].device == v)
			copy_name(q[k].device_name, sizeof(q[k].device_name), buf + 5);
}

int nicfit__pciids_lookup(const char *path, struct nicfit_pciids_query *q, size_t n,
			 struct nicfit_error *err)
{
	static const char *const defaults[] = {
		"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids", "/usr/share/pci.ids", NULL
	};
	const char *name = path, *p, *end;
	unsigned vendor = 0;
	int in_vendor = 0, i, fd = -1, rc;
	char *text;
	size_t k, len;

	for (k = 0; k < n; k++)
		q[k].vendor_name[0] = q[k].device_name[0] = '\0';
	if (path) {
		fd = open_pciids(path);
		if (fd < 0)
			return nicfit_error_at(err, errno == ENOENT ? NICFIT_E_NOTFOUND : NICFIT_E_IO,
					       path, 0, 0, "%s", errno == EINVAL ?
					       "not a regular file" : strerror(errno));
	} else {
		for (i = 0; defaults[i] && fd < 0; i++) {
			fd = open_pciids(defaults[i]);
			name = defaults[i];
		}
		if (fd < 0)
			return nicfit_error_set(err, NICFIT_E_NOTFOUND, "no pci.ids file installed");
	}
	rc = nicfit_read_fd(fd, name, PCIIDS_MAX_BYTES, &text, &len, err);
	close(fd);
	if (rc)
		return rc;
	for (p = text, end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (ll >= 2 && p[0] == 'C' && p[1] == ' ')
			break; /* the class list follows the devices */
		if (ll && p[0] != '#')
			scan_line(p, ll, q, n, &vendor, &in_vendor);
		p += ll + 1;
	}
	free(text);
	return 0;
}
