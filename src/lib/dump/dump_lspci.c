/*
 * dump_lspci.c - lspci's function lines and -v/-vv/-vvv blocks (see
 * dump_int.h). A function line is "[DDDD:]BB:DD.F CLASS[ [cccc]]: NAME[
 * [vvvv:dddd]][ (rev rr)][ (prog-if pp [...])]"; its block is the indented
 * lines that follow. Lines are read by their labels, whatever their depth
 * of indentation, because pastes turn tabs into spaces. Labels and layouts
 * are those of pciutils' ls-caps.c and lspci.c (3.x): "LnkCap:", "LnkSta:"
 * with "(downgraded)" since 3.6, "ACSCtl:", "Initial VFs:", "Kernel driver
 * in use:", and "Capabilities: <access denied>" when lspci runs as a user
 * that can read only the first 64 bytes of config space.
 *
 * Without -nn lspci prints names only: the class is then read from its
 * name (pci.ids' class names, which lspci prints), the vendor from a few
 * vendor names the audit asks about, and the device IDs stay unknown.
 */
#include <stdio.h>
#include <string.h>

#include "dump/dump_int.h"
#include "nicfit/units.h"

/* pci.ids class and subclass names, as lspci prints them, and their codes. */
static const struct {
	const char *name;
	unsigned code;
} class_names[] = {
	{ "Non-Volatile memory controller", 0x010802 },
	{ "RAID bus controller", 0x010400 },
	{ "SATA controller", 0x010601 },
	{ "Serial Attached SCSI controller", 0x010700 },
	{ "Mass storage controller", 0x018000 },
	{ "Ethernet controller", 0x020000 },
	{ "Infiniband controller", 0x020700 },
	{ "Fabric controller", 0x020800 },
	{ "Network controller", 0x028000 },
	{ "VGA compatible controller", 0x030000 },
	{ "3D controller", 0x030200 },
	{ "Display controller", 0x038000 },
	{ "Host bridge", 0x060000 },
	{ "ISA bridge", 0x060100 },
	{ "PCI bridge", 0x060400 },
	{ "Bridge", 0x068000 },
	{ "System peripheral", 0x088000 },
	{ "Co-processor", 0x0b4000 },
	{ "Processing accelerators", 0x120000 },
	{ "Non-Essential Instrumentation", 0x130000 },
	{ "Audio device", 0x040300 },
	{ "USB controller", 0x0c0300 },
	{ "SMBus", 0x0c0500 },
	{ "InfiniBand", 0x0c0600 },
};

/* pci.ids vendor names (their start, as lspci prints them) for the vendors the audit asks about. */
static const struct {
	const char *name;
	unsigned id;
} vendor_names[] = {
	{ "NVIDIA Corporation", 0x10de },
	{ "Mellanox Technologies", 0x15b3 },
	{ "Intel Corporation", 0x8086 },
	{ "Broadcom Inc. and subsidiaries", 0x14e4 },
	{ "Advanced Micro Devices, Inc. [AMD/ATI]", 0x1002 },
	{ "Advanced Micro Devices, Inc. [AMD]", 0x1022 },
	{ "PLX Technology", 0x10b5 },
	{ "Broadcom / LSI", 0x1000 },
};

unsigned nicfit__dump_vendor_of_name(const char *name, size_t *len)
{
	size_t i, n;

	for (i = 0; i < sizeof(vendor_names) / sizeof(vendor_names[0]); i++) {
		n = strlen(vendor_names[i].name);
		if (!strncmp(name, vendor_names[i].name, n) && name[n] == ' ') {
			*len = n;
			return vendor_names[i].id;
		}
	}
	return 0;
}

unsigned nicfit__dump_class_of_name(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(class_names) / sizeof(class_names[0]); i++)
		if (strlen(class_names[i].name) == n && !strncmp(class_names[i].name, name, n))
			return class_names[i].code;
	return 0;
}

int nicfit__dump_lspci_header(const char *line)
{
	unsigned a, b, c, f;
	size_t n = nicfit__dump_bdf(line, &a, &b, &c, &f);

	return n && line[n] == ' ' && strstr(line + n, ": ") != NULL;
}

/* The last "[hhhh:hhhh]" in s[0..n): its position, or NULL. */
static const char *last_ids(const char *s, size_t n, unsigned *v, unsigned *dv)
{
	size_t i;

	for (i = n; i-- > 0;) {
		long a, b;

		if (s[i] != '[' || i + 11 > n || s[i + 5] != ':' || s[i + 10] != ']')
			continue;
		a = nicfit__dump_hex(s + i + 1, 4, 1, NULL);
		b = nicfit__dump_hex(s + i + 6, 4, 1, NULL);
		if (a < 0 || b < 0)
			continue;
		*v = (unsigned)a;
		*dv = (unsigned)b;
		return s + i;
	}
	return NULL;
}

/* The name part of a function line: the class code from "[cccc]" or the class name. */
static void read_class(struct dump_fn *f, const char *cls, size_t n)
{
	unsigned code;

	if (n > 7 && cls[n - 1] == ']' && cls[n - 6] == '[' && cls[n - 7] == ' ' &&
	    nicfit__dump_hex(cls + n - 5, 4, 1, NULL) >= 0) {
		f->class_code = (unsigned)nicfit__dump_hex(cls + n - 5, 4, 1, NULL) << 8;
		f->have |= NICFIT_HAVE_CLASS;
		return;
	}
	code = nicfit__dump_class_of_name(cls, n);
	if (code) {
		f->class_code = code;
		f->have |= NICFIT_HAVE_CLASS;
	}
}

/*
 * `lspci -n` (and -vvn): "41:00.0 0207: 15b3:1021 (rev 01)", the class and
 * the IDs in hex and no names; 1 when the line was one.
 */
static int numeric_ids(struct dump_fn *f, const char *cls, size_t n, const char *rest)
{
	long c = n == 4 ? nicfit__dump_hex(cls, 4, 1, NULL) : -1, a, b;

	if (c < 0 || strnlen(rest, 9) < 9 || rest[4] != ':' || (rest[9] && rest[9] != ' ') ||
	    (a = nicfit__dump_hex(rest, 4, 1, NULL)) < 0 ||
	    (b = nicfit__dump_hex(rest + 5, 4, 1, NULL)) < 0)
		return 0;
	f->class_code = (unsigned)c << 8;
	f->vendor = (unsigned)a;
	f->device = (unsigned)b;
	f->have |= NICFIT_HAVE_CLASS | NICFIT_HAVE_IDS;
	return 1;
}

struct dump_fn *nicfit__dump_lspci_line(struct nicfit_dump *d, const char *line,
					struct dump_at at)
{
	unsigned dom, bus, dev, fn, v, dv;
	size_t n = nicfit__dump_bdf(line, &dom, &bus, &dev, &fn), i, len;
	const char *cls = line + n + 1, *colon = strstr(cls, ": "), *rest, *ids, *p;
	struct dump_fn *f = nicfit__dump_fn(d, dom, bus, dev, fn);

	if (!f || !colon)
		return f;
	if (!f->at.line || !f->from_block) {
		f->at = at;
	}
	read_class(f, cls, (size_t)(colon - cls));
	rest = colon + 2;
	len = strlen(rest);
	if (numeric_ids(f, cls, (size_t)(colon - cls), rest)) {
		d->formats |= NICFIT_DUMP_LSPCI;
		return f;
	}
	ids = last_ids(rest, len, &v, &dv);
	if (ids) {
		f->vendor = v;
		f->device = dv;
		f->have |= NICFIT_HAVE_IDS;
	} else if (!(f->have & NICFIT_HAVE_IDS)) {
		for (i = 0; i < sizeof(vendor_names) / sizeof(vendor_names[0]); i++)
			if (!strncmp(rest, vendor_names[i].name, strlen(vendor_names[i].name)))
				f->vendor = vendor_names[i].id;
	}
	p = strstr(rest, "(prog-if ");
	if (p && nicfit__dump_hex(p + 9, 2, 1, NULL) >= 0 && (f->have & NICFIT_HAVE_CLASS))
		f->class_code = (f->class_code & 0xffff00u) |
				(unsigned)nicfit__dump_hex(p + 9, 2, 1, NULL);
	n = ids ? (size_t)(ids - rest) : (p = strstr(rest, " (rev ")) ? (size_t)(p - rest) : len;
	while (n && rest[n - 1] == ' ')
		n--;
	snprintf(f->name, sizeof(f->name), "%.*s", (int)n, rest);
	f->is_vf = strstr(f->name, "Virtual Function") != NULL;
	d->formats |= NICFIT_DUMP_LSPCI;
	return f;
}

/* The decimal integer at s (no sign), in [0, max]: 0, or -1 none. */
static int scan(const char *s, long max, long *v, const char **end)
{
	return nicfit_scan_dec(s, 0, max, v, end) == NICFIT_DEC_OK ? 0 : -1;
}

/* The length of the value at s a read problem quotes: up to a ',' or a blank, at most 40. */
static int value_len(const char *s)
{
	size_t n = strcspn(s, ", \t");

	return n > 40 ? 40 : (int)n;
}

/*
 * The rates lspci names (pciutils ls-caps.c, link_speed): 2.5, 5, 8, 16,
 * 32, 64 and 128 GT/s; whole.frac is one of them.
 */
static int pcie_rate(long whole, long frac)
{
	static const long rate[] = { 5, 8, 16, 32, 64, 128 };
	size_t i;

	if (whole == 2 && frac == 5)
		return 1;
	for (i = 0; i < sizeof(rate) / sizeof(rate[0]); i++)
		if (whole == rate[i] && !frac)
			return 1;
	return 0;
}

/*
 * "Speed 16GT/s (downgraded), Width x16" -> GT/s and lanes (0 unknown).
 * lspci prints a speed code it does not know as "unknown" and the width
 * the hardware reports, x0 for a link that is down or not trained: both
 * stay unknown without a word. A speed that is none of the PCIe rates or
 * a width that is no whole number up to x32 ("-8GT/s", "7GT/s",
 * "1e308GT/s", "x-16", "x99999", "x1e308", never read as x1: no lspci
 * prints them; the paste was damaged or edited) is a read problem of the
 * line (lbl "LnkCap" or "LnkSta"), and the value stays unknown.
 */
static void read_link(struct nicfit_dump *d, struct dump_at at, const char *lbl, const char *s,
		      double *gts, int *w, int *down)
{
	const char *p = strstr(s, "Speed "), *e;
	long whole, frac = 0;
	int read = 0;

	/* lspci prints 2.5GT/s, 5GT/s, 8GT/s, 16GT/s, 32GT/s, 64GT/s ("unknown" otherwise) */
	if (p && scan(p + 6, 256, &whole, &e) == 0) {
		if (*e == '.' && scan(e + 1, 9, &frac, &e))
			frac = -1;
		if (frac >= 0 && !strncmp(e, "GT/s", 4) && pcie_rate(whole, frac)) {
			*gts = (double)whole + (double)frac / 10.0;
			read = 1;
		}
		read |= frac >= 0 && !strncmp(e, "Gb/s", 4); /* pciutils 2.x's unit: left unknown */
	}
	if (p && !read && strncmp(p + 6, "unknown", 7))
		nicfit__dump_problem(d, at, "%s: \"Speed %.*s\" is not a PCIe link speed", lbl,
				     value_len(p + 6), p + 6);
	p = strstr(s, "Width x");
	if (p && (scan(p + 7, 32, &whole, &e) || (*e && *e != ',' && *e != ' ')))
		nicfit__dump_problem(d, at, "%s: \"Width x%.*s\" is not a PCIe link width (x1 "
				     "to x32)", lbl, value_len(p + 7), p + 7);
	else if (p && whole > 0)
		*w = (int)whole;
	if (down && strstr(s, "downgraded"))
		*down = 1;
}

/* "MaxPayload 256 bytes" after label in s: bytes, 0 none. */
static int bytes_after(const char *s, const char *label)
{
	const char *p = strstr(s, label), *e;
	long v;

	if (!p || scan(p + strlen(label), 4096, &v, &e) || strncmp(e, " bytes", 6) || v <= 0)
		return 0;
	return (int)v;
}

/* The PCIe port type lspci names after "Express (vN) ". */
static int port_type_of(const char *s)
{
	static const struct {
		const char *name;
		int type;
	} t[] = {
		{ "Root Complex Integrated Endpoint", NICFIT_PORT_RCIEP },
		{ "Root Complex Event Collector", NICFIT_PORT_RCEC },
		{ "Legacy Endpoint", NICFIT_PORT_LEGACY },
		{ "Endpoint", NICFIT_PORT_ENDPOINT },
		{ "Root Port", NICFIT_PORT_ROOT },
		{ "Upstream Port", NICFIT_PORT_UPSTREAM },
		{ "Downstream Port", NICFIT_PORT_DOWNSTREAM },
		{ "PCI-Express to PCI", NICFIT_PORT_PCIE_TO_PCI },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strncmp(s, t[i].name, strlen(t[i].name)))
			return t[i].type;
	return NICFIT_PORT_UNKNOWN;
}

/* ACSCtl's flags, as ls-ecaps.c prints them in register order (bit 0 first). */
#define ACS_REQ_REDIR (1u << 2)
#define ACS_CMPLT_REDIR (1u << 3)
static unsigned acs_bits(const char *s)
{
	static const char *const flag[] = { "SrcValid", "TransBlk", "ReqRedir", "CmpltRedir",
					    "UpstreamFwd", "EgressCtrl", "DirectTrans" };
	unsigned v = 0, i;

	for (i = 0; i < sizeof(flag) / sizeof(flag[0]); i++) {
		const char *p = strstr(s, flag[i]);

		if (p && p[strlen(flag[i])] == '+')
			v |= 1u << i;
	}
	return v;
}

void nicfit__dump_acs_orphan(struct nicfit_dump *d, const char *s, struct dump_at at)
{
	unsigned bits = acs_bits(s);

	if (!d->acs.n)
		d->acs.first = at;
	d->acs.n++;
	if (bits & (ACS_REQ_REDIR | ACS_CMPLT_REDIR)) {
		if (!d->acs.redirect)
			d->acs.first_redirect = at;
		d->acs.redirect++;
	}
	d->formats |= NICFIT_DUMP_ACS;
}

/*
 * setpci -v on the ACS control register (ECAP_ACS+0x6.w, as the ACS script
 * of NCCL's troubleshooting guide runs it): "0000:00:07.1 (ecap 000d @2a0)
 * @2a6 = 0000" for a read, "... @2a6 0000" for a write (setpci.c's trace
 * prints the value written without " = "). Either way the value is the
 * register's after the command. A line cut before its value is counted and
 * not judged; a register other than the control word is not read.
 */
int nicfit__dump_acs_setpci(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	unsigned dom, bus, dev, fn;
	size_t n = nicfit__dump_bdf(line, &dom, &bus, &dev, &fn);
	const char *s = line + n, *e;
	long cap, reg, v;
	int write = 1;

	if (!n || strncmp(s, " (ecap 000d @", 13))
		return 0;
	if ((cap = nicfit__dump_hex(s + 13, 3, 0, &e)) < 0 || *e != ')')
		return 0;
	d->formats |= NICFIT_DUMP_ACS;
	s = nicfit__dump_skip_blank(e + 1);
	if (!*s || (*s == '@' && (reg = nicfit__dump_hex(s + 1, 3, 0, &e)) >= 0 && !*e)) {
		d->acs.cut++; /* the paste stops before the value */
		return 1;
	}
	if (*s != '@' || (reg = nicfit__dump_hex(s + 1, 3, 0, &e)) < 0 || *e != ' ')
		return 0;
	s = nicfit__dump_skip_blank(e);
	if (*s == '=') {
		write = 0;
		s = nicfit__dump_skip_blank(s + 1);
	}
	if ((v = nicfit__dump_hex(s, 4, 1, &e)) < 0 || *e)
		return 0;
	if (reg != cap + 6)
		return 1; /* the capability word or another register: no control bits */
	if (!d->acs.setpci)
		d->acs.first_setpci = at;
	d->acs.setpci++;
	d->acs.written += write;
	if ((unsigned)v & (ACS_REQ_REDIR | ACS_CMPLT_REDIR)) {
		if (!d->acs.redirect)
			d->acs.first_redirect = at;
		if (!d->acs.redirect_bdf[0])
			snprintf(d->acs.redirect_bdf, sizeof(d->acs.redirect_bdf),
				 "%04x:%02x:%02x.%u", dom, bus, dev, fn);
		d->acs.redirect++;
	}
	return 1;
}

static int long_after(const char *s, const char *label, long *v)
{
	const char *p = strstr(s, label), *e;

	return p ? scan(p + strlen(label), 65535, v, &e) : -1;
}

/*
 * The NUMA node after label: lspci prints one only where the kernel names
 * a node (not for -1, which stays unknown here too). A value that is no
 * node number, or one past the NICFIT_TOPO_MAX_NUMA nodes the model keeps
 * ("99999999999999999999", "-7"), is a read problem of the line.
 */
static void read_numa(struct nicfit_dump *d, struct dump_fn *f, const char *s,
		      const char *label, struct dump_at at)
{
	const char *p = strstr(s, label) + strlen(label), *e;
	long x;

	if (nicfit_scan_dec(p, -1, NICFIT_TOPO_MAX_NUMA - 1, &x, &e) == NICFIT_DEC_OK &&
	    (!*e || *e == ',' || *e == ' ')) {
		if (x >= 0) {
			f->numa = (int)x;
			f->have |= NICFIT_HAVE_NUMA;
		}
		return;
	}
	nicfit__dump_problem(d, at, "\"%s%.*s\" is not a NUMA node nicfit can hold (0 to %d)",
			     label[0] == ',' ? label + 2 : label, value_len(p), p,
			     NICFIT_TOPO_MAX_NUMA - 1);
}

/*
 * The Device Serial Number capability, as lspci prints it (pciutils
 * ls-ecaps.c, cap_dsn: eight bytes "b8-59-9f-03-00-a1-b2-c3", most
 * significant first), into 16 hex digits. Every function of a card
 * reports the card's one number, so it says which functions are one card
 * within one listing, even across buses (a Socket Direct card). It is
 * kept as that identity only: no public source the project found says
 * that a ConnectX card's DSN equals its node GUID or sys_image_guid (no
 * paste shows both for one card, and mlx5 does not read it to make
 * them), so it is not compared with ibv_devinfo's or MFT's GUIDs.
 */
static void read_dsn(struct dump_fn *f, const char *s)
{
	char out[17];
	int i;

	for (i = 0; i < 8; i++) {
		long b = nicfit__dump_hex(s + 3 * i, 2, 1, NULL);

		if (b < 0 || (i < 7 && s[3 * i + 2] != '-'))
			return;
		snprintf(out + 2 * i, 3, "%02lx", b);
	}
	if (s[23] && s[23] != ' ')
		return;
	if (strspn(out, "0") == 16)
		return;
	memcpy(f->dsn, out, sizeof(out));
}

static void read_caps(struct nicfit_dump *d, struct dump_fn *f, const char *s)
{
	const char *p;

	if (strstr(s, ": <")) { /* "<access denied>", or its start where a paste was cut */
		f->caps_denied = 1;
		d->any_denied = 1;
		return;
	}
	d->any_root = 1;
	p = strstr(s, "] Express ");
	if (p) {
		f->cfg_pcie = 1;
		p = strchr(p + 10, ')');
		f->port_type = port_type_of(p ? nicfit__dump_skip_blank(p + 1) : s);
	}
	if (strstr(s, "Vital Product Data"))
		f->vpd = 1;
	if (strstr(s, "Access Control Services"))
		f->acs = 1;
}

void nicfit__dump_lspci_detail(struct nicfit_dump *d, struct dump_fn *f, const char *line,
			       struct dump_at at)
{
	const char *s = nicfit__dump_skip_blank(line), *p;
	unsigned v, dv;
	long x;

	f->from_block = 1;
	d->formats |= NICFIT_DUMP_LSPCI_V;
	if (!strncmp(s, "Subsystem: ", 11)) {
		if (last_ids(s, strlen(s), &v, &dv)) {
			f->subvendor = v;
			f->subdevice = dv;
			f->have |= NICFIT_HAVE_SUBSYS;
		}
	} else if (!strncmp(s, "Physical Slot: ", 15)) {
		snprintf(f->slot, sizeof(f->slot), "%s", s + 15);
	} else if (!strncmp(s, "NUMA node: ", 11) ||
		   (!strncmp(s, "Flags: ", 7) && strstr(s, ", NUMA node "))) {
		/* -vv prints "NUMA node: 0" on its own line, -v at the end of "Flags:" */
		read_numa(d, f, s, s[0] == 'N' ? "NUMA node: " : ", NUMA node ", at);
	} else if (!strncmp(s, "Bus: primary=", 13)) {
		long a = -1, b = -1;

		p = strstr(s, "secondary=");
		a = p ? nicfit__dump_hex(p + 10, 2, 1, NULL) : -1;
		p = strstr(s, "subordinate=");
		b = p ? nicfit__dump_hex(p + 12, 2, 1, NULL) : -1;
		if (a >= 0 && b >= a) {
			f->secondary = (int)a;
			f->subordinate = (int)b;
			f->have |= NICFIT_HAVE_SECBUS;
		}
	} else if (!strncmp(s, "Control:", 8)) {
		if (d->lspci_v_level < 2)
			d->lspci_v_level = 2;
	} else if (!strncmp(s, "Capabilities:", 13)) {
		if (!d->lspci_v_level)
			d->lspci_v_level = 1;
		read_caps(d, f, s);
		if (strstr(s, "] Device Serial Number "))
			read_dsn(f, strstr(s, "] Device Serial Number ") + 23);
	} else if (!strncmp(s, "DevCap:", 7)) {
		f->mps_cap = bytes_after(s, "MaxPayload ");
	} else if (strstr(s, "MaxReadReq ") && strncmp(s, "DevCap", 6)) {
		f->mps = bytes_after(s, "MaxPayload ");
		f->mrrs = bytes_after(s, "MaxReadReq ");
	} else if (!strncmp(s, "LnkCap:", 7)) {
		read_link(d, at, "LnkCap", s, &f->cap_gts, &f->cap_w, NULL);
		d->saw_lnk = 1;
	} else if (!strncmp(s, "LnkSta:", 7)) {
		read_link(d, at, "LnkSta", s, &f->sta_gts, &f->sta_w, &f->downgraded);
		d->saw_lnk = 1;
	} else if (!strncmp(s, "ACSCtl:", 7)) {
		f->acs = 1;
		f->acs_ctrl = acs_bits(s);
	} else if (!strncmp(s, "Initial VFs:", 12)) {
		if (long_after(s, "Total VFs: ", &x) == 0 && x >= 0 && x < 65536)
			f->sriov_total = (int)x;
		if (long_after(s, "Number of VFs: ", &x) == 0 && x >= 0 && x < 65536)
			f->sriov_num = (int)x;
	} else if (!strncmp(s, "Product Name: ", 14)) {
		nicfit__dump_unescape(f->vpd_name, sizeof(f->vpd_name), s + 14, 1);
	} else if (!strncmp(s, "[PN] Part number: ", 18)) {
		nicfit__dump_unescape(f->vpd_part, sizeof(f->vpd_part), s + 18, 1);
	} else if (!strncmp(s, "Kernel driver in use: ", 22)) {
		snprintf(f->driver, sizeof(f->driver), "%s", s + 22);
		f->driver_known = 1;
	}
}
