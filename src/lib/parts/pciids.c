/*
 * pciids.c - the built-in PCI ID table and the pci.ids reader
 * (see pciids_int.h). The table's rows live in data/ids/pci.txt, which
 * cites docs/reference/nic-identity.md and docs/reference/topology.md by
 * section; the build compiles it into pciids_table.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

#include "nicfit/file.h"
#include "core/pciids_int.h"

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

int nicfit__pci_ids_by_name(unsigned vendor, const char *name, size_t n,
			    const struct nicfit_pci_id **out, int max)
{
	const char *short_name = nicfit__pci_vendor_name(vendor);
	size_t i, sl = short_name ? strlen(short_name) : 0;
	int found = 0;

	for (i = 0; i < NTABLE && n; i++) {
		const char *row = table[i].name;

		if (table[i].vendor != vendor)
			continue;
		if (sl && !strncmp(row, short_name, sl) && row[sl] == ' ')
			row += sl + 1;
		if (strlen(row) != n || strncmp(row, name, n))
			continue;
		if (found < max)
			out[found] = &table[i];
		found++;
	}
	return found;
}

const struct nicfit_pci_id *nicfit__pci_id_by_name(unsigned vendor, const char *name, size_t n)
{
	const struct nicfit_pci_id *row;

	/* two IDs of one name: which is not known */
	return nicfit__pci_ids_by_name(vendor, name, n, &row, 1) == 1 ? row : NULL;
}

int nicfit__pci_vendor_is_bmc_vga(unsigned vendor)
{
	return vendor == 0x1a03 || vendor == 0x102b;
}

/* ---- pci.ids ---------------------------------------------------------------- */

/*
 * One more than the value of each byte as a hex digit, 0 for any other:
 * pci.ids is scanned line by line, and each line's ID is read through this.
 */
static const unsigned char hexval1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static inline int hex4(const char *s, unsigned *v)
{
	unsigned a = hexval1[(unsigned char)s[0]] - 1u, b = hexval1[(unsigned char)s[1]] - 1u;
	unsigned c = hexval1[(unsigned char)s[2]] - 1u, d = hexval1[(unsigned char)s[3]] - 1u;

	if ((a | b | c | d) > 15u)
		return -1; /* a byte that is no hex digit: its 0 became UINT_MAX */
	*v = a << 12 | b << 8 | c << 4 | d;
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

/* The name on a line from offset at, as read from its first 511 bytes. */
static void line_name(char *out, size_t cap, const char *line, size_t len, size_t at)
{
	char buf[512];

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	copy_name(out, cap, buf + at);
}

/*
 * One line of pci.ids (without its newline) against the queries; 1 when
 * it named a device asked about. *device gets the ID of a device line of
 * a vendor asked about.
 */
static int scan_line(const char *line, size_t len, struct nicfit_pciids_query *q, size_t n,
		     unsigned *vendor, int *in_vendor, long *device)
{
	unsigned v;
	size_t k;
	int named = 0;

	/* most lines: devices of vendors nobody asked about, and subsystems */
	if (line[0] == '\t' && (!*in_vendor || (len > 1 && line[1] == '\t')))
		return 0;
	if (line[0] != '\t') {
		*in_vendor = 0;
		if (len < 5 || hex4(line, &v) || line[4] != ' ')
			return 0;
		*vendor = v;
		for (k = 0; k < n; k++)
			if (q[k].vendor == v) {
				line_name(q[k].vendor_name, sizeof(q[k].vendor_name), line, len, 4);
				*in_vendor = 1;
			}
		return 0;
	}
	if (len < 6 || hex4(line + 1, &v) || line[5] != ' ')
		return 0;
	*device = v;
	for (k = 0; k < n; k++)
		if (q[k].vendor == *vendor && q[k].device == v) {
			line_name(q[k].device_name, sizeof(q[k].device_name), line, len, 5);
			named = 1;
		}
	return named;
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

/* The highest device ID still without a name (-1 when none is). */
static long max_unnamed(const struct nicfit_pciids_query *q, size_t n)
{
	long m = -1;
	size_t k;

	for (k = 0; k < n; k++)
		if (!q[k].device_name[0] && (long)q[k].device > m)
			m = (long)q[k].device;
	return m;
}

/*
 * The start of the first line in (p, end) that does not begin with a tab
 * (a vendor, a comment, the class list, a blank line), or NULL when the
 * window holds none whole enough to tell: a newline whose next byte is
 * not a tab. p starts a line. With SSE2 (every x86-64) sixteen bytes are
 * tested at a time; pci.ids's big sections (NVIDIA's is 110 KB, Intel's
 * 300 KB) are otherwise crossed a memchr() per line.
 */
static char *untabbed(char *p, char *end)
{
#if defined(__SSE2__) && defined(__GNUC__)
	const __m128i nlv = _mm_set1_epi8('\n'), tab = _mm_set1_epi8('\t');

	while (end - p >= 17) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_andnot_si128(_mm_cmpeq_epi8(b, tab), _mm_cmpeq_epi8(a, nlv)));

		if (m)
			return p + __builtin_ctz(m) + 1;
		p += 16;
	}
#endif
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl || nl + 1 >= end)
			return NULL;
		if (nl[1] != '\t')
			return nl + 1;
		p = nl + 1;
	}
	return NULL;
}

/*
 * From p, a line start, the end of the run of whole lines that begin
 * with a tab: the start of the first line that does not, or of a line the
 * window does not hold whole, or end.
 */
static char *tab_run_end(char *p, char *end)
{
	char *q;

	if (p >= end || p[0] != '\t')
		return p;
	q = untabbed(p, end);
	if (q)
		return q;
	for (q = end; q > p && q[-1] != '\n'; q--)
		;
	return q;
}

/*
 * Outside the sections of the vendors asked about, no device or subsystem
 * line can answer or stop the scan: from the line start p, the start of
 * the first line that does not begin with a tab (or that the window does
 * not hold whole, or end).
 */
static char *skip_tabbed(char *p, char *end)
{
	return tab_run_end(p, end);
}

/*
 * The first device line ("\tXXXX ") starting at or after m and before r,
 * r when none does; m need not start a line (p, before it, does).
 * Subsystem lines and lines that are no device line go by.
 */
static char *device_from(char *p, char *m, char *r, unsigned *id)
{
	char *l = m;

	if (l > p && l[-1] != '\n') {
		l = memchr(l, '\n', (size_t)(r - l));
		l = l ? l + 1 : r;
	}
	while (l < r) {
		char *nl = memchr(l, '\n', (size_t)(r - l));

		if (!nl)
			return r;
		if (l[1] != '\t' && nl - l >= 6 && !hex4(l + 1, id) && l[5] == ' ')
			return l;
		l = nl + 1;
	}
	return r;
}

/*
 * Inside the section of the one vendor asked about, the lines that can
 * neither answer nor stop the scan: subsystem lines, lines that are no
 * device line, and device lines whose ID is below lowest (devices are
 * listed sorted, and lowest is the least ID still asked about past those
 * read). From the line start p, the start of the first line that is none
 * of these (or the first that does not begin with a tab, or one the
 * window does not hold whole, or end): the scan reads that one as any
 * other, so this changes what is read by no line, only how fast the
 * lines before the devices asked about go by. The run of tabbed lines is
 * found first, so it is all this vendor's, and the first device at or
 * past lowest in it is then bisected, by byte offset, as the vendors are.
 */
static char *skip_below(char *p, char *end, unsigned lowest)
{
	char *r = tab_run_end(p, end), *lo = p, *hi = r;
	unsigned id;

	while (lo < hi) {
		char *m = lo + (hi - lo) / 2;
		char *d = device_from(p, m, r, &id);

		if (d == r || id >= lowest)
			hi = m;
		else
			lo = d + 1; /* every device before d is below lowest too */
	}
	return device_from(p, lo, r, &id);
}

/* The least device ID still without a name above after (0x10000 when none is). */
static unsigned next_lowest(const struct nicfit_pciids_query *q, size_t n, long after)
{
	unsigned m = 0x10000u;
	size_t k;

	for (k = 0; k < n; k++)
		if (!q[k].device_name[0] && (long)q[k].device > after && q[k].device < m)
			m = q[k].device;
	return m;
}

/*
 * Scan the open file fd through a window of PCIIDS_WINDOW bytes, line by
 * line, until the class list (which follows the devices), the end, the
 * moment every query is answered, or the first vendor after all those
 * still asked about; a line longer than the window is read
 * as its first PCIIDS_WINDOW bytes (scan_line keeps 511 of them anyway).
 * With one_vendor (every query is for one vendor, whose devices pci.ids
 * lists sorted by ID as it does its vendors), the scan also stops at the
 * first device past every one still asked about. The window is 16 KiB:
 * an audit scans once a process, and a fresh 64 KiB buffer's page faults
 * cost it more than the extra read() calls of a small one (the Tesla P100
 * of a 5-function tree, 110 KB into NVIDIA's section: 15-25 us less a whole
 * audit).
 */
#define PCIIDS_WINDOW 16384

static int scan_fd(int fd, const char *name, struct nicfit_pciids_query *q, size_t n,
		   int one_vendor, struct nicfit_error *err)
{
	long device = -1, maxdev = max_unnamed(q, n), lastdev = -1;
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
			char *nl;
			size_t ll;

			if (one_vendor && !skipping) {
				p = in_vendor ? skip_below(p, end, next_lowest(q, n, lastdev))
					      : skip_tabbed(p, end);
				if (p == end)
					break;
			}
			nl = memchr(p, '\n', (size_t)(end - p));
			if (skipping) {
				p = nl ? nl + 1 : end;
				skipping = !nl;
				continue;
			}
			if (!nl && !eof && (p > buf || have < PCIIDS_WINDOW))
				break; /* the rest of this line is still to come */
			ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
			if (nl && ll > 1 && p[0] == '\t' && p[1] == '\t') {
				p = nl + 1; /* a subsystem line: never an answer, never a stop */
				continue;
			}
			if (ll >= 2 && p[0] == 'C' && p[1] == ' ')
				done = 1;
			else if (ll && p[0] != '#' &&
				 scan_line(p, ll, q, n, &vendor, &in_vendor, &device) &&
				 (maxdev = max_unnamed(q, n)) < 0)
				done = 1; /* every query is answered: nothing later can add a name */
			else if (one_vendor && device >= 0 && device > maxdev)
				done = 1; /* devices are sorted too: the rest are past those asked */
			if (device >= 0)
				lastdev = device;
			else if (ll && p[0] != '\t' && p[0] != '#')
				lastdev = -1; /* a vendor line, or the class list */
			device = -1;
			if (!done && ll && p[0] != '\t' && p[0] != '#' &&
			    (all_answered(q, n) || past_all(q, n, vendor)))
				done = 1;
			skipping = !nl && !eof;
			p += nl ? ll + 1 : ll;
		}
		have = done ? 0 : (size_t)(end - p);
		memmove(buf, p, have);
	}
	free(buf);
	return 0;
}

/*
 * A big pci.ids (the distributions' is 1.4 MB, 36,000 lines) is not read
 * from its start: its vendors are sorted by ID, so a bisection over byte
 * offsets finds, for each vendor asked about, a line shortly before that
 * vendor's section, and the scan above starts there (same reading, same
 * stop rules, a few kilobytes instead of the file up to that vendor). A
 * small file is scanned whole, as before. Each probe reads forward from
 * its offset to the first vendor line (or the class list) within
 * PCIIDS_PROBE_MAX bytes; a probe that finds none, or a vendor at or past
 * the one sought, only narrows the upper bound, so the start chosen is
 * never past the vendor's section, whatever the file holds there.
 */
#define PCIIDS_BISECT_MIN (512u << 10)
#define PCIIDS_PROBE 4096
#define PCIIDS_PROBE_MAX (4u << 10)
#define PCIIDS_KEY_END 0x10000u /* the class list, or nothing found */

/*
 * Probe at off (< hi): the offset *at and vendor *key of the first vendor
 * line that starts at or after off and before hi, *key PCIIDS_KEY_END
 * when the class list comes first or none is found. -1 on a read error.
 */
static int probe(int fd, off_t off, off_t hi, unsigned *key, off_t *at)
{
	char buf[PCIIDS_PROBE];
	off_t pos = off ? off - 1 : 0; /* the file offset of buf[0] */
	int skip = off != 0;           /* from off - 1: a line starting at off counts */
	size_t scanned = 0;

	*key = PCIIDS_KEY_END;
	while (pos < hi && scanned < PCIIDS_PROBE_MAX) {
		ssize_t r = pread(fd, buf, sizeof(buf), pos);
		size_t got, ls = 0;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		got = (size_t)r;
		for (;;) {
			if (skip) {
				char *nl = memchr(buf + ls, '\n', got - ls);

				if (!nl) {
					ls = got;
					break;
				}
				ls = (size_t)(nl - buf) + 1;
				skip = 0;
			}
			/*
			 * ls starts a line. Device and subsystem lines go by
			 * at once: none is a vendor line, and returning at a
			 * later line start past hi returns what an earlier one
			 * would have (no key).
			 */
			while (ls < got && buf[ls] == '\t') {
				char *nl = memchr(buf + ls, '\n', got - ls);

				if (!nl)
					break;
				ls = (size_t)(nl - buf) + 1;
			}
			if (pos + (off_t)ls >= hi)
				return 0;
			if (got - ls < 6 && got == sizeof(buf))
				break; /* judge this line from a read that starts with it */
			if (got - ls >= 2 && buf[ls] == 'C' && buf[ls + 1] == ' ') {
				*at = pos + (off_t)ls;
				return 0;
			}
			if (got - ls >= 5 && buf[ls] != '\t' && !hex4(buf + ls, key) &&
			    buf[ls + 4] == ' ') {
				*at = pos + (off_t)ls;
				return 0;
			}
			*key = PCIIDS_KEY_END;
			skip = 1;
		}
		if (got < sizeof(buf))
			return 0; /* the end of the file */
		pos += (off_t)ls;
		scanned += ls;
	}
	return 0;
}

/* A line start at or before vendor's section in fd (size bytes); -1 on a read error. */
static off_t bisect_vendor(int fd, off_t size, unsigned vendor)
{
	off_t lo = 0, hi = size;

	while (hi - lo > PCIIDS_PROBE) {
		off_t mid = lo + (hi - lo) / 2, at = 0;
		unsigned key;

		if (probe(fd, mid, hi, &key, &at))
			return -1;
		if (key < vendor)
			lo = at;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Answer the queries vendor by vendor, each scan starting where the
 * bisection put it (the queries of one vendor are scanned together).
 */
static int lookup_bisect(int fd, off_t size, const char *name, struct nicfit_pciids_query *q,
			 size_t n, struct nicfit_error *err)
{
	struct nicfit_pciids_query *sub = malloc(n * sizeof(*sub));
	size_t k, j, m;
	int rc = 0;

	if (!sub)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	for (k = 0; k < n && !rc; k++) {
		off_t start;

		for (j = 0; j < k && q[j].vendor != q[k].vendor; j++)
			;
		if (j < k)
			continue; /* that vendor was answered with an earlier query */
		for (j = k, m = 0; j < n; j++)
			if (q[j].vendor == q[k].vendor)
				sub[m++] = q[j];
		start = bisect_vendor(fd, size, q[k].vendor);
		if (start < 0 || lseek(fd, start, SEEK_SET) < 0)
			rc = nicfit_error_at(err, NICFIT_E_IO, name, 0, 0, "%s", strerror(errno));
		else
			rc = scan_fd(fd, name, sub, m, 1, err);
		for (j = k, m = 0; !rc && j < n; j++)
			if (q[j].vendor == q[k].vendor)
				q[j] = sub[m++];
	}
	free(sub);
	return rc;
}

int nicfit__pciids_lookup(const char *path, struct nicfit_pciids_query *q, size_t n,
			 struct nicfit_error *err)
{
	static const char *const defaults[] = {
		"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids", "/usr/share/pci.ids", NULL
	};
	const char *name = path;
	struct stat sb;
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
	if (!fstat(fd, &sb) && sb.st_size >= (off_t)PCIIDS_BISECT_MIN &&
	    sb.st_size <= (off_t)PCIIDS_MAX_BYTES)
		rc = lookup_bisect(fd, sb.st_size, name, q, n, err);
	else
		rc = scan_fd(fd, name, q, n, 0, err);
	close(fd);
	return rc;
}
