/*
 * dump_mlxfw.c - what NVIDIA's firmware tools (MFT and mstflint) print
 * about each adapter, read into the records of dump_facts.h (see
 * dump_int.h): `mlxfwmanager --query` (mlxup prints the same blocks),
 * flint's and mstflint's `q`, and `mst status`.
 *
 * mlxfwmanager, one block a card (mlxfwmanager's query output, as in the
 * MFT user manual and the pastes of tests/fixtures/pastes/):
 *
 *     Device #1:
 *     ----------
 *
 *       Device Type:      ConnectX6DX
 *       Part Number:      MCX623106AN-CDA_Ax
 *       Description:      ConnectX-6 Dx EN adapter card; 100GbE; ...
 *       PSID:             MT_0000000359
 *       PCI Device Name:  d2:00.0
 *       Base GUID:        08c0eb0300a27bc8
 *       Base MAC:         08c0eba27bc8
 *       Versions:         Current        Available
 *          FW             22.31.1014     22.33.1048
 *          PXE            3.6.0403       3.6.0502
 *
 *       Status:           Update required
 *
 * The PCI Device Name is a function or an mst device (/dev/mst/mtNNNN_
 * pciconfN, which `mst status` ties to its function); ConnectX-3 prints
 * "Port1 GUID:" and "Port2 GUID:" instead of a Base GUID, a switch a Base
 * MAC alone; "FW (Running)" follows FW when the flash holds an image the
 * card has not loaded yet.
 *
 * flint -d DEV q (mstflint the same) prints "Image type:" first, then
 * "FW Version:", "Rom Info:" (one "type=PXE version=..." per line), "Base
 * GUID:" and "Base MAC:" with the number of GUIDs after them, and "PSID:";
 * it names no device, so the device is the one -d named on the prompt
 * line above it, when the paste kept that line.
 *
 * `mst status` lists each mst device with the function behind it, on the
 * line below ("domain:bus:dev.fn=0000:06:00.0 addr.reg=88 ..."); `mst
 * status -v` on one row (dump_rdma.c reads it and records it here too).
 *
 * mlxlink -d DEV [-p N] (mstflint's mstlink) prints sections, each a
 * title, a rule of dashes and "Key<blanks>: Value" lines (mstflint
 * mlxlink/modules/mlxlink_commander.cpp, MlxlinkCmdPrint): "Operational
 * Info" (State, Physical state, Speed, Width, FEC, Loopback Mode, Auto
 * Negotiation), "Supported Info" (Enabled Link Speed and Supported Cable
 * Speed: a mask, then the speeds in parentheses), "Troubleshooting Info"
 * (Status Opcode, Recommendation) and with -c "Physical Counters and BER
 * Info" (Effective Physical Errors, Effective Physical BER, Raw Physical
 * BER as coefficient E- magnitude, Link Down Counter). On a terminal the
 * values are coloured: the escape sequences are dropped. Each "Operational
 * Info" opens a port; the device is the one -d named on the prompt line.
 *
 * Blank lines do not end a block (mlxfwmanager puts one before Status:,
 * mlxlink one between sections); a line that is none of the block's is
 * the end of it.
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/file_int.h"
#include "dump/dump_int.h"

#define MAX_FWDEVS 256 /* adapters kept; a host has a few dozen at most */
#define MAX_MST 512

/* The value after "Key:" at s (blanks skipped), or NULL when s does not start with key. */
static const char *after(const char *s, const char *key)
{
	size_t n = strlen(key);

	return strncmp(s, key, n) ? NULL : nicfit__dump_skip_blank(s + n);
}

/* Copy the first word of s into out. */
static void word_to(char *out, size_t n, const char *s)
{
	size_t l = strcspn(s, " \t");

	snprintf(out, n, "%.*s", (int)(l < n ? l : n - 1), s);
}

/*
 * "Key:" at the start of s: a capital, then letters, digits, blanks,
 * brackets up to the colon; a key the tools may add in a later version is
 * kept inside the block. lscpu's keys are not the tools' (a paste may put
 * lscpu right below a block, with no prompt line between): they end it.
 */
static int key_line(const char *s)
{
	static const char *const lscpu[] = { "Architecture:", "CPU", "Byte Order:", "Core",
					     "Thread", "Socket", "NUMA", "Vendor ID:", "Model",
					     "BIOS", "L1", "L2", "L3", "Flags:", "Stepping:",
					     "On-line", "Off-line", "Virtualization", "Hypervisor",
					     "Frequency", "Address sizes:", "Caches", "Vulnerabilit",
					     "Cluster", "Book", "Drawer", "Family", NULL };
	size_t i;

	for (i = 0; lscpu[i]; i++)
		if (!strncmp(s, lscpu[i], strlen(lscpu[i])))
			return 0;
	if (!(*s >= 'A' && *s <= 'Z'))
		return 0;
	for (i = 1; s[i] && i < 40; i++) {
		if (s[i] == ':')
			return 1;
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ()_-/#",
			    s[i]))
			return 0;
	}
	return 0;
}

static struct dump_fwdev *open_dev(struct nicfit_dump *d, int tool, struct dump_at at)
{
	struct dump_fwdev *x;

	if (d->nfwdevs >= MAX_FWDEVS)
		return NULL;
	if (NICFIT_ALLOC_GROW(d->fwdevs, d->nfwdevs + 1, d->alloc_fwdevs)) {
		d->oom = 1;
		return NULL;
	}
	x = &d->fwdevs[d->nfwdevs++];
	memset(x, 0, sizeof(*x));
	x->tool = tool;
	x->at = at;
	d->fw_open = d->nfwdevs;
	d->formats |= NICFIT_DUMP_MLXFW;
	return x;
}

/* A GUID or MAC as printed (hex digits, no separators), into out; "" when not one. */
static void hex_to(char *out, size_t n, const char *s, size_t min)
{
	size_t l = strspn(s, "0123456789abcdefABCDEF"), i;

	out[0] = '\0';
	if (l < min || l >= n || (s[l] && s[l] != ' ' && s[l] != '\t'))
		return;
	for (i = 0; i < l; i++)
		out[i] = (char)(s[i] | 0x20);
	out[l] = '\0';
	if (strspn(out, "0") == l)
		out[0] = '\0'; /* all zeros: no GUID */
}

/* One row under "Versions:": FW, FW (Running), PXE, UEFI, CLP ... with current and available. */
static int version_row(struct dump_fwdev *x, const char *s)
{
	char buf[160], *tok[6];
	int nt, running;

	snprintf(buf, sizeof(buf), "%s", s);
	nt = nicfit__split_blanks(buf, tok, 6);
	if (nt < 2 || strchr(tok[0], ':'))
		return 0;
	running = !strcmp(tok[0], "FW") && !strcmp(tok[1], "(Running)");
	if (running) {
		if (nt >= 3)
			snprintf(x->fw_running, sizeof(x->fw_running), "%s", tok[2]);
	} else if (!strcmp(tok[0], "FW")) {
		snprintf(x->fw, sizeof(x->fw), "%s", tok[1]);
		if (nt >= 3 && strcmp(tok[2], "N/A"))
			snprintf(x->fw_avail, sizeof(x->fw_avail), "%s", tok[2]);
	} else if (!strcmp(tok[0], "PXE")) {
		snprintf(x->pxe, sizeof(x->pxe), "%s", tok[1]);
	} else if (!strcmp(tok[0], "UEFI")) {
		snprintf(x->uefi, sizeof(x->uefi), "%s", tok[1]);
	} else if (tok[0][0] < 'A' || tok[0][0] > 'Z') {
		return 0; /* CLP, FCODE and the like are kept as read, but not a lower-case word */
	}
	return 1;
}

/* One line of an open mlxfwmanager block (blanks skipped); 0 when it is none of the block's. */
static int mlxfwmanager_line(struct nicfit_dump *d, struct dump_fwdev *x, const char *s)
{
	const char *v;

	if ((v = after(s, "Device Type:")))
		word_to(x->type, sizeof(x->type), v);
	else if ((v = after(s, "Part Number:")))
		word_to(x->part, sizeof(x->part), v);
	else if ((v = after(s, "Description:")))
		snprintf(x->desc, sizeof(x->desc), "%s", v);
	else if ((v = after(s, "PSID:")))
		word_to(x->psid, sizeof(x->psid), v);
	else if ((v = after(s, "PCI Device Name:")))
		word_to(x->pci, sizeof(x->pci), v);
	else if ((v = after(s, "Base GUID:")))
		hex_to(x->base_guid, sizeof(x->base_guid), v, 16);
	else if ((v = after(s, "Base MAC:")))
		hex_to(x->base_mac, sizeof(x->base_mac), v, 12);
	else if ((v = after(s, "Port1 GUID:")))
		hex_to(x->port_guid[0], sizeof(x->port_guid[0]), v, 16);
	else if ((v = after(s, "Port2 GUID:")))
		hex_to(x->port_guid[1], sizeof(x->port_guid[1]), v, 16);
	else if (after(s, "Versions:"))
		x->versions = 1;
	else if ((v = after(s, "Status:"))) {
		snprintf(x->status, sizeof(x->status), "%s", v);
		d->fw_open = 0; /* the block's last line */
	} else if (x->versions && version_row(x, s))
		;
	else
		return key_line(s); /* a line of a version the reader does not know (Port1 MAC:) */
	return 1;
}

/* "type=PXE version=3.6.102 cpu=AMD64" of flint's Rom Info: the PXE and UEFI versions. */
static void rom_info(struct dump_fwdev *x, const char *s)
{
	const char *v = strstr(s, "version=");

	if (!v)
		return;
	if (!strncmp(s, "type=PXE ", 9))
		word_to(x->pxe, sizeof(x->pxe), v + 8);
	else if (!strncmp(s, "type=UEFI ", 10))
		word_to(x->uefi, sizeof(x->uefi), v + 8);
}

/* One line of an open flint q block (blanks skipped); 0 when it is none of the block's. */
static int flint_line(struct dump_fwdev *x, const char *s)
{
	const char *v;

	if ((v = after(s, "FW Version(Running):")))
		word_to(x->fw_running, sizeof(x->fw_running), v);
	else if ((v = after(s, "FW Version:")))
		word_to(x->fw, sizeof(x->fw), v);
	else if ((v = after(s, "PSID:")))
		word_to(x->psid, sizeof(x->psid), v);
	else if ((v = after(s, "Base GUID:")))
		hex_to(x->base_guid, sizeof(x->base_guid), v, 16);
	else if ((v = after(s, "Base MAC:")))
		hex_to(x->base_mac, sizeof(x->base_mac), v, 12);
	else if ((v = after(s, "Rom Info:")))
		rom_info(x, v);
	else if (!strncmp(s, "type=", 5))
		rom_info(x, s);
	else
		return key_line(s);
	return 1;
}

/* "... flint -d DEV q" or "mstflint -d DEV query" on a prompt line: DEV names the next block. */
static void flint_hint(struct nicfit_dump *d, const char *s)
{
	const char *p = strstr(s, "flint ");
	char buf[256], *tok[8];
	int nt, i;

	if (!p)
		return;
	snprintf(buf, sizeof(buf), "%s", p);
	nt = nicfit__split_blanks(buf, tok, 8);
	for (i = 1; i + 2 < nt; i++)
		if (!strcmp(tok[i], "-d") &&
		    (!strcmp(tok[i + 2], "q") || !strcmp(tok[i + 2], "query")))
			snprintf(d->fw_hint, sizeof(d->fw_hint), "%s", tok[i + 1]);
}

void nicfit__dump_mst_add(struct nicfit_dump *d, const char *path, const char *bdf,
			  struct dump_at at)
{
	struct dump_mst *m;
	size_t i;

	for (i = 0; i < d->nmst; i++)
		if (!strcmp(d->mst[i].path, path)) {
			if (bdf[0])
				snprintf(d->mst[i].bdf, sizeof(d->mst[i].bdf), "%s", bdf);
			d->mst_open = (int)i + 1;
			return;
		}
	if (d->nmst >= MAX_MST)
		return;
	if (NICFIT_ALLOC_GROW(d->mst, d->nmst + 1, d->alloc_mst)) {
		d->oom = 1;
		return;
	}
	m = &d->mst[d->nmst++];
	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s", path);
	snprintf(m->bdf, sizeof(m->bdf), "%s", bdf);
	m->at = at;
	d->mst_open = (int)d->nmst;
	d->formats |= NICFIT_DUMP_MLXFW;
}

/* The part after the last '/' ("mt4119_pciconf0"), as WinMFT prints the name alone. */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

const char *nicfit__dump_mst_bdf(const struct nicfit_dump *d, const char *path)
{
	size_t i;

	for (i = 0; path[0] && i < d->nmst; i++)
		if (d->mst[i].bdf[0] && !strcmp(base_name(d->mst[i].path), base_name(path)))
			return d->mst[i].bdf;
	return NULL;
}

/*
 * `mst status`: "/dev/mst/mt4115_pciconf0   - PCI configuration cycles
 * access." then, indented, "domain:bus:dev.fn=0000:06:00.0 addr.reg=88".
 */
static int mst_plain(struct nicfit_dump *d, int indented, const char *s, struct dump_at at)
{
	unsigned a, b, c, f;
	char bdf[16], path[64];
	size_t n;

	if (!indented && !strncmp(s, "/dev/mst/", 9) && strstr(s, " - ")) {
		word_to(path, sizeof(path), s);
		nicfit__dump_mst_add(d, path, "", at);
		return 1;
	}
	if (!indented || !d->mst_open || strncmp(s, "domain:bus:dev.fn=", 18))
		return 0;
	n = nicfit__dump_bdf(s + 18, &a, &b, &c, &f);
	if (n && (!s[18 + n] || s[18 + n] == ' ')) {
		snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%u", a, b, c, f);
		snprintf(d->mst[d->mst_open - 1].bdf, sizeof(d->mst[0].bdf), "%s", bdf);
	}
	d->mst_open = 0;
	return 1;
}

/* ---- mlxlink ------------------------------------------------------------ */

#define MAX_LINKS 512

static const char *const link_section[] = {
	"Operational Info", "Supported Info", "Troubleshooting Info",
	"Physical Counters and BER Info", "Module Info", "Tool Information", "Port Info",
	"FEC Capability Info", "Eye Opening Info", "Transmitter Info", "Device Info", NULL
};
enum { LS_OPER = 1, LS_SUPPORTED, LS_TROUBLE, LS_BER };

/* The section a title line names (1 + its index), 0 none. */
static int section_of(const char *s)
{
	int i;

	for (i = 0; link_section[i]; i++)
		if (!strcmp(s, link_section[i]))
			return i + 1;
	return 0;
}

/* s without terminal escape sequences (CSI "ESC [ ... letter") and surrounding blanks. */
static void no_colour(char *out, size_t n, const char *s)
{
	size_t k = 0;

	while (*s && k + 1 < n) {
		if (*s == '\033' && s[1] == '[') {
			s += 2;
			while (*s && !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
				s++;
			if (*s)
				s++;
			continue;
		}
		out[k++] = *s++;
	}
	while (k && (out[k - 1] == ' ' || out[k - 1] == '\t'))
		k--;
	out[k] = '\0';
}

/* "1.5E-254" or "15E-255" (mlxlink prints coefficient E- magnitude): the number; -1 none. */
static double ber_value(const char *s)
{
	double coef = 0, scale = 1;
	int mag = 0, digits = 0, frac = 0;

	for (; (*s >= '0' && *s <= '9') || (*s == '.' && !frac); s++) {
		if (*s == '.') {
			frac = 1;
			continue;
		}
		coef = coef * 10 + (*s - '0');
		if (frac)
			scale *= 10;
		digits++;
	}
	if (!digits || (*s != 'E' && *s != 'e') || s[1] != '-')
		return -1;
	for (s += 2; *s >= '0' && *s <= '9' && mag < 10000; s++)
		mag = mag * 10 + (*s - '0');
	if (*s)
		return -1;
	coef /= scale;
	while (mag-- > 0 && coef > 0)
		coef /= 10;
	return coef;
}

static long long count_value(const char *s)
{
	long long v = 0;
	size_t n = strspn(s, "0123456789");

	if (!n || s[n] || n > 18)
		return -1;
	while (*s)
		v = v * 10 + (*s++ - '0');
	return v;
}

/* The speeds in the parentheses of "0x000017f2 (200G,100G_2X,...)", into out. */
static void speed_list(char *out, size_t n, const char *v)
{
	const char *o = strchr(v, '('), *c = o ? strrchr(o, ')') : NULL;

	if (o && c)
		snprintf(out, n, "%.*s", (int)(c - o - 1), o + 1);
}

/* One "Key : Value" line of the open port's section; 0 when the line is not one. */
static int link_field(struct dump_mlxlink *x, const char *s)
{
	const char *colon = strstr(s, " :");
	char key[64], val[256];
	size_t kl;

	if (!colon)
		return 0;
	kl = (size_t)(colon - s);
	while (kl && (s[kl - 1] == ' ' || s[kl - 1] == '\t'))
		kl--;
	if (!kl || kl >= sizeof(key))
		return 0;
	snprintf(key, sizeof(key), "%.*s", (int)kl, s);
	no_colour(val, sizeof(val), nicfit__dump_skip_blank(colon + 2));
	if (x->section == LS_OPER) {
		if (!strcmp(key, "State"))
			snprintf(x->state, sizeof(x->state), "%s", val);
		else if (!strcmp(key, "Physical state"))
			snprintf(x->phys, sizeof(x->phys), "%s", val);
		else if (!strcmp(key, "Speed"))
			snprintf(x->speed, sizeof(x->speed), "%s", val);
		else if (!strcmp(key, "Width"))
			x->width = val[0] >= '1' && val[0] <= '9' && (val[1] == 'x' || val[1] == 'X')
				   ? val[0] - '0' : (val[0] == '1' && val[1] >= '0' && val[1] <= '9' &&
						     (val[2] == 'x' || val[2] == 'X'))
				   ? 10 + val[1] - '0' : 0;
		else if (!strcmp(key, "FEC"))
			snprintf(x->fec, sizeof(x->fec), "%s", val);
	} else if (x->section == LS_SUPPORTED) {
		if (!strncmp(key, "Enabled Link Speed", 18))
			speed_list(x->enabled, sizeof(x->enabled), val);
		else if (!strncmp(key, "Supported Cable Speed", 21))
			speed_list(x->cable, sizeof(x->cable), val);
	} else if (x->section == LS_TROUBLE) {
		if (!strcmp(key, "Status Opcode"))
			x->opcode = (int)count_value(val);
		else if (!strcmp(key, "Recommendation"))
			snprintf(x->recommendation, sizeof(x->recommendation), "%s", val);
	} else if (x->section == LS_BER) {
		if (!strcmp(key, "Effective Physical Errors"))
			x->eff_errors = count_value(val);
		else if (!strcmp(key, "Effective Physical BER"))
			x->eff_ber = ber_value(val);
		else if (!strcmp(key, "Raw Physical BER"))
			x->raw_ber = ber_value(val);
		else if (!strcmp(key, "Link Down Counter"))
			x->link_down = count_value(val);
	}
	return 1;
}

/* "... mlxlink -d DEV [-p N] ..." on a prompt line: DEV and N name the next report. */
static void mlxlink_hint(struct nicfit_dump *d, const char *s)
{
	const char *p = strstr(s, "mlxlink ");
	char buf[256], *tok[12];
	int nt, i;

	if (!p)
		p = strstr(s, "mstlink ");
	if (!p)
		return;
	snprintf(buf, sizeof(buf), "%s", p);
	nt = nicfit__split_blanks(buf, tok, 12);
	d->link_hint[0] = '\0';
	d->link_hint_port = 0;
	for (i = 1; i + 1 < nt; i++) {
		if (!strcmp(tok[i], "-d") || !strcmp(tok[i], "--device"))
			snprintf(d->link_hint, sizeof(d->link_hint), "%s", tok[i + 1]);
		else if ((!strcmp(tok[i], "-p") || !strcmp(tok[i], "--port")) &&
			 tok[i + 1][0] >= '1' && tok[i + 1][0] <= '9' && strlen(tok[i + 1]) < 4)
			d->link_hint_port = (int)count_value(tok[i + 1]);
	}
}

static struct dump_mlxlink *open_link(struct nicfit_dump *d, struct dump_at at)
{
	struct dump_mlxlink *x;

	if (d->nlinks >= MAX_LINKS)
		return NULL;
	if (NICFIT_ALLOC_GROW(d->links, d->nlinks + 1, d->alloc_links)) {
		d->oom = 1;
		return NULL;
	}
	x = &d->links[d->nlinks++];
	memset(x, 0, sizeof(*x));
	x->at = at;
	x->opcode = -1;
	x->eff_errors = x->link_down = -1;
	x->eff_ber = x->raw_ber = -1;
	x->section = LS_OPER;
	snprintf(x->dev, sizeof(x->dev), "%s", d->link_hint);
	x->port = d->link_hint_port;
	d->link_hint[0] = '\0';
	d->link_hint_port = 0;
	d->link_open = d->nlinks;
	d->formats |= NICFIT_DUMP_MLXLINK;
	return x;
}

/* A line of an mlxlink report (blanks skipped); 1 when it was one. */
static int mlxlink_line(struct nicfit_dump *d, const char *s, struct dump_at at)
{
	struct dump_mlxlink *x = d->link_open ? &d->links[d->link_open - 1] : NULL;
	int sec = section_of(s);

	if (sec == LS_OPER) {
		open_link(d, at);
		return 1;
	}
	if (x && sec) {
		x->section = sec;
		return 1;
	}
	if (x && strspn(s, "-") == strlen(s))
		return 1;
	if (x && link_field(x, s))
		return 1;
	d->link_open = 0;
	mlxlink_hint(d, s);
	return 0;
}

/* "Device #12:" of mlxfwmanager (and of mlxconfig, whose block the reader leaves alone). */
static int device_header(const char *s)
{
	size_t n;

	if (strncmp(s, "Device #", 8))
		return 0;
	n = strspn(s + 8, "0123456789");
	return n && n < 5 && s[8 + n] == ':' && !s[9 + n];
}

/*
 * A line Markdown made bold ("**FW Version:   16.28.2006**", the poster
 * marking the value they ask about): the line without its asterisks.
 */
static const char *unbold(const char *s, char *buf, size_t n)
{
	size_t l;

	if (strncmp(s, "**", 2))
		return s;
	snprintf(buf, n, "%s", s + 2);
	l = strlen(buf);
	if (l >= 2 && !strcmp(buf + l - 2, "**"))
		buf[l - 2] = '\0';
	return buf;
}

int nicfit__dump_fw_line(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	char buf[4096];
	const char *s = unbold(nicfit__dump_skip_blank(line), buf, sizeof(buf));
	int indented = nicfit__dump_skip_blank(line) != line;
	struct dump_fwdev *x = d->fw_open ? &d->fwdevs[d->fw_open - 1] : NULL;

	if (device_header(s)) {
		d->fw_open = 0;
		d->fw_dev_at = at;
		return 1;
	}
	if ((x || d->fw_dev_at.line) && strspn(s, "-") == strlen(s))
		return 1; /* the rule under "Device #N:", or the one after the last block */
	if (!strncmp(s, "Device Type:", 12)) { /* mlxfwmanager's block begins */
		x = open_dev(d, DUMP_FW_MLXFWMANAGER, d->fw_dev_at.line ? d->fw_dev_at : at);
		d->fw_dev_at.line = 0;
		return x ? mlxfwmanager_line(d, x, s) : 1;
	}
	d->fw_dev_at.line = 0;
	if (!indented && !strncmp(s, "Image type:", 11)) { /* flint q's block begins */
		x = open_dev(d, DUMP_FW_FLINT, at);
		if (x && d->fw_hint[0])
			snprintf(x->pci, sizeof(x->pci), "%s", d->fw_hint);
		d->fw_hint[0] = '\0';
		return 1;
	}
	if (x && (x->tool == DUMP_FW_MLXFWMANAGER ? mlxfwmanager_line(d, x, s)
						  : flint_line(x, s)))
		return 1;
	d->fw_open = 0;
	if (mlxlink_line(d, s, at))
		return 1;
	if (mst_plain(d, indented, s, at))
		return 1;
	d->mst_open = 0;
	flint_hint(d, s);
	return 0;
}

void nicfit__dump_fw_end(struct nicfit_dump *d)
{
	d->fw_open = 0;
	d->link_open = 0;
	d->link_hint[0] = '\0';
	d->mst_open = 0;
	d->fw_dev_at.line = 0;
	d->fw_hint[0] = '\0';
}

/*
 * The OPN a firmware tool prints against a VPD part number: the tools drop
 * the bracket letter and add a hardware-revision tag ("MCX623106AN-CDA_Ax"
 * for the card whose VPD says "MCX623106AN-CDAT", docs/reference's
 * nic-identity.md 1.1), so the tool's part up to its first '_' must be the
 * VPD's, or the VPD's without its last character.
 */
static int same_part(const char *tool, const char *vpd)
{
	size_t n = strcspn(tool, "_"), v = strlen(vpd);

	if (n < 6 || !v)
		return 0;
	return (v == n || v == n + 1) && !strncmp(tool, vpd, n);
}

/*
 * The function each adapter names: its PCI Device Name when that is an
 * address; the mst device's function in `mst status`; else the one card
 * of the listing whose VPD part number is the adapter's, when no other
 * adapter of the paste has that part number (two cards of one OPN cannot
 * be told apart by it). A card's first function stands for it.
 */
void nicfit__dump_fw_resolve(struct nicfit_dump *d)
{
	size_t i, k;

	for (i = 0; i < d->nfwdevs; i++) {
		struct dump_fwdev *x = &d->fwdevs[i];
		unsigned a, b, c, f;
		size_t n = nicfit__dump_bdf(x->pci, &a, &b, &c, &f);
		const char *m;
		const struct dump_fn *card = NULL;
		int cards = 0, twins = 0;

		x->bdf[0] = '\0';
		x->bdf_how = DUMP_FW_BDF_NONE;
		if (n && !x->pci[n]) {
			snprintf(x->bdf, sizeof(x->bdf), "%04x:%02x:%02x.%u", a, b, c, f);
			x->bdf_how = DUMP_FW_BDF_NAMED;
			continue;
		}
		if ((m = nicfit__dump_mst_bdf(d, x->pci))) {
			snprintf(x->bdf, sizeof(x->bdf), "%s", m);
			x->bdf_how = DUMP_FW_BDF_MST;
			continue;
		}
		for (k = 0; k < d->nfwdevs; k++)
			twins += k != i && x->part[0] && !strcmp(d->fwdevs[k].part, x->part);
		for (k = 0; !twins && x->part[0] && k < d->nfns; k++) {
			const struct dump_fn *fn = &d->fns[k];

			if (!same_part(x->part, fn->vpd_part) || fn->is_vf)
				continue;
			if (!card) {
				card = fn;
				cards = 1;
			} else if ((fn->domain == card->domain && fn->bus == card->bus &&
				    fn->dev == card->dev) || (fn->dsn[0] && !strcmp(fn->dsn, card->dsn))) {
				/* one card: one slot, or one Device Serial Number (dump_lspci.c) */
				if (fn->fn < card->fn)
					card = fn;
			} else {
				cards++;
			}
		}
		if (cards == 1) {
			snprintf(x->bdf, sizeof(x->bdf), "%s", card->bdf);
			x->bdf_how = DUMP_FW_BDF_VPD;
		}
	}
}
