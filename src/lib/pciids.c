/*
 * pciids.c - the built-in PCI ID table and the pci.ids reader
 * (see pciids_int.h). The table's rows live in data/ids/pci.txt, which
 * cites docs/reference/nic-identity.md and docs/reference/topology.md by
 * section; the build compiles it into pciids_table.h.
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
 * pci.ids is about 1.4 MB today; a file past 64 MiB is not one. It is
 * searched through a window, never loaded whole, and only when a device
 * is not in the built-in table (audit_dev.c asks for those alone).
 */
#define PCIIDS_MAX_BYTES (64u << 20)

/*
 * The table, the short vendor names and the port-count card names, compiled
 * from data/ids/pci.txt by tools/idgen.c (rows cite docs/reference/ there).
 */
#include "pciids_table.h"

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

	/* most lines: devices of vendors nobody asked about, and subsystems */
	if (line[0] == '\t' && (!*in_vendor || (len > 1 && line[1] == '\t')))
		return;
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

/* Every query has its device name: the rest of the file cannot add one. */
static int all_answered(const struct nicfit_pciids_query *q, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!q[k].device_name[0])
			return 0;
	return 1;
}

/*
 * Is every unanswered query for a vendor before this one? pci.ids lists
 * its vendors in the order of their IDs ("Please keep sorted", its
 * header asks), so past the last vendor asked about nothing further can
 * answer: a device missing from the file is then not a scan of all of it.
 */
static int past_all(const struct nicfit_pciids_query *q, size_t n, unsigned vendor)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!q[k].device_name[0] && q[k].vendor >= vendor)
			return 0;
	return 1;
}

/*
 * Scan the open file fd through a window of PCIIDS_WINDOW bytes, line by
 * line, until the class list (which follows the devices), the end, the
 * moment every query is answered, or the first vendor after all those
 * still asked about; a line longer than the window is read
 * as its first PCIIDS_WINDOW bytes (scan_line keeps 511 of them anyway).
 */
#define PCIIDS_WINDOW 65536

static int scan_fd(int fd, const char *name, struct nicfit_pciids_query *q, size_t n,
		   struct nicfit_error *err)
{
	char *buf = malloc(PCIIDS_WINDOW);
	size_t have = 0, total = 0;
	unsigned vendor = 0;
	int in_vendor = 0, eof = 0, done = 0, skipping = 0;

	if (!buf)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	while (!done && !eof) {
		ssize_t r = read(fd, buf + have, PCIIDS_WINDOW - have);
		char *p = buf, *end;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return nicfit_error_at(err, NICFIT_E_IO, name, 0, 0, "%s", strerror(errno));
		}
		eof = r == 0;
		total += (size_t)r;
		if (total > PCIIDS_MAX_BYTES) {
			free(buf);
			return nicfit_error_at(err, NICFIT_E_LIMIT, name, 0, 0, "larger than %zu bytes",
					       (size_t)PCIIDS_MAX_BYTES);
		}
		have += (size_t)r;
		end = buf + have;
		while (p < end && !done) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t ll;

			if (skipping) {
				p = nl ? nl + 1 : end;
				skipping = !nl;
				continue;
			}
			if (!nl && !eof && (p > buf || have < PCIIDS_WINDOW))
				break; /* the rest of this line is still to come */
			ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
			if (ll >= 2 && p[0] == 'C' && p[1] == ' ')
				done = 1;
			else if (ll && p[0] != '#')
				scan_line(p, ll, q, n, &vendor, &in_vendor);
			if (!done && ll && p[0] != '\t' && p[0] != '#' &&
			    (all_answered(q, n) || past_all(q, n, vendor)))
				done = 1;
			skipping = !nl && !eof;
			p += nl ? ll + 1 : ll;
		}
		have = (size_t)(end - p);
		memmove(buf, p, have);
	}
	free(buf);
	return 0;
}

int nicfit__pciids_lookup(const char *path, struct nicfit_pciids_query *q, size_t n,
			 struct nicfit_error *err)
{
	static const char *const defaults[] = {
		"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids", "/usr/share/pci.ids", NULL
	};
	const char *name = path;
	int i, fd = -1, rc;
	size_t k;

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
	rc = scan_fd(fd, name, q, n, err);
	close(fd);
	return rc;
}
