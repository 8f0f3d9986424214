/*
 * dump_dmesg.c - kernel log lines in a dump (see dump_int.h): the PCI
 * core's bandwidth report and the NIC drivers' module errors.
 *
 * When a PCIe link trains below what the device and its port can do, the
 * kernel's pcie_print_link_status() (drivers/pci/pci.c) logs "A Gb/s
 * available PCIe bandwidth, limited by SPEED xW link at BDF (capable of C
 * Gb/s with SPEED xW link)": the one place a dump without lspci -vvv as
 * root says that a link is short, and which link. ixgbe and i40e log that
 * they refuse an unsupported SFP/QSFP module, and mlx5_core logs "Port
 * module event[error]: module N, STATUS, ERROR" for a cable or module
 * fault: a port that carries nothing whatever the PCI tree says. Lines are
 * found by those phrases wherever they sit (after a dmesg timestamp, a
 * syslog prefix or journalctl's), and each keeps its line for the finding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "dump/dump_int.h"
#include "nicfit/units.h"

static const char LIMITED[] = " available PCIe bandwidth, limited by ";

/* The first full "DDDD:BB:DD.F" in s (before stop, when given): its start, or NULL. */
static const char *find_bdf(const char *s, const char *stop, char *out, size_t n)
{
	unsigned dom, bus, dev, fn;

	for (; *s && (!stop || s < stop); s++) {
		size_t k;

		if (!((s[0] >= '0' && s[0] <= '9') || (s[0] >= 'a' && s[0] <= 'f')))
			continue;
		k = nicfit__dump_bdf(s, &dom, &bus, &dev, &fn);
		if (k == 12 && s[4] == ':') {
			snprintf(out, n, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
			return s;
		}
	}
	return NULL;
}

static struct dump_kmsg *new_msg(struct nicfit_dump *d, int kind, struct dump_at at)
{
	struct dump_kmsg *m;

	if (d->nkmsg >= DUMP_MAX_KMSG)
		return NULL;
	if (NICFIT_ALLOC_GROW(d->kmsg, d->nkmsg + 1, d->alloc_kmsg)) {
		d->oom = 1;
		return NULL;
	}
	m = &d->kmsg[d->nkmsg++];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->at = at;
	return m;
}

/* "SPEED xW link": the speed text before " x" and the width; the end, or NULL. */
static const char *speed_width(const char *s, char *speed, size_t n, int *width)
{
	const char *x = strstr(s, " x");
	long w;
	const char *e;

	if (!x || (size_t)(x - s) >= n || x == s)
		return NULL;
	if (nicfit_scan_dec(x + 2, 1, 32, &w, &e) != NICFIT_DEC_OK || strncmp(e, " link", 5))
		return NULL;
	memcpy(speed, s, (size_t)(x - s));
	speed[x - s] = '\0';
	*width = (int)w;
	return e + 5;
}

/* The decimal Gb/s figure that ends just before end ("63.008"), or 0. */
static double gbps_before(const char *line, const char *end)
{
	const char *p = end;

	while (p > line && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'))
		p--;
	return p < end ? strtod(p, NULL) : 0;
}

static int limited_line(struct nicfit_dump *d, const char *line, const char *hit,
			struct dump_at at)
{
	struct dump_kmsg *m;
	const char *gb = hit - 5, *s, *c;

	if (hit - line < 6 || strncmp(gb, " Gb/s", 5))
		return 0;
	m = new_msg(d, DUMP_KMSG_PCIE_LIMITED, at);
	if (!m)
		return 1;
	find_bdf(line, gb, m->bdf, sizeof(m->bdf));
	m->avail_gbps = gbps_before(line, gb);
	s = speed_width(hit + strlen(LIMITED), m->speed, sizeof(m->speed), &m->width);
	if (s && !strncmp(s, " at ", 4))
		find_bdf(s + 4, s + 4 + 12, m->limit_bdf, sizeof(m->limit_bdf));
	c = s ? strstr(s, "(capable of ") : NULL;
	if (c) {
		const char *w = strstr(c, " Gb/s with ");

		m->cap_gbps = w ? gbps_before(c, w) : 0;
		if (w && !speed_width(w + 11, m->cap_speed, sizeof(m->cap_speed), &m->cap_width))
			m->cap_speed[0] = '\0';
	}
	return 1;
}

/* Module errors: ixgbe/i40e "unsupported SFP..." and mlx5 "Port module event[error]:". */
static int module_line(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	static const char *const marks[] = { "unsupported SFP", "unsupported module type",
					     "Port module event[error]: " };
	struct dump_kmsg *m;
	const char *hit = NULL, *from;
	size_t i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]) && !hit; i++)
		hit = strstr(line, marks[i]);
	if (!hit)
		return 0;
	m = new_msg(d, DUMP_KMSG_MODULE, at);
	if (!m)
		return 1;
	from = find_bdf(line, hit, m->bdf, sizeof(m->bdf));
	if (from) {
		from += 12;
		while (*from == ':' || *from == ' ')
			from++;
	} else {
		from = hit;
	}
	nicfit__dump_unescape(m->text, sizeof(m->text), from, 0);
	return 1;
}

int nicfit__dump_kmsg_line(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	const char *hit = strstr(line, LIMITED);

	if (hit && limited_line(d, line, hit, at))
		return 1;
	return module_line(d, line, at);
}
