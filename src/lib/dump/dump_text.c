/*
 * dump_text.c - what the dump parsers share: hex numbers, PCI addresses
 * and escaped text as the tools print them, a line's leading blanks, the
 * record of a PCI function by address, and the read problems list. It
 * recognises no format (each parser does) and walks no text (dump.c does).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "dump/dump_int.h"

long nicfit__dump_hex(const char *s, int max, int exact, const char **end)
{
	long v = 0;
	int n = 0;

	while (n < max && s[n] && strchr("0123456789abcdefABCDEF", s[n])) {
		char ch = s[n];

		v = v * 16 + (ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
		n++;
	}
	if (!n || (exact && n != max))
		return -1;
	if (end)
		*end = s + n;
	return v;
}

void nicfit__dump_unescape(char *out, size_t n, const char *s, int pairs)
{
	size_t k = 0;

	while (*s && k + 1 < n) {
		long x;

		if (pairs && s[0] == '\\' && s[1] == '\\') {
			out[k++] = '\\';
			s += 2;
		} else if (s[0] == '\\' && s[1] == 'x' &&
			   (x = nicfit__dump_hex(s + 2, 2, 1, NULL)) >= 0) {
			if (x)
				out[k++] = (char)x;
			s += 4;
		} else {
			out[k++] = *s++;
		}
	}
	out[k] = '\0';
}

size_t nicfit__dump_bdf(const char *s, unsigned *dom, unsigned *bus, unsigned *dev,
			unsigned *fn)
{
	const char *p = s, *e;
	long a, b, c, f;

	a = nicfit__dump_hex(p, 8, 0, &e);
	if (a < 0 || *e != ':')
		return 0;
	p = e + 1;
	b = nicfit__dump_hex(p, 2, 1, &e);
	if (b < 0)
		return 0;
	if (*e == ':') { /* DDDD:BB:DD.F (nvidia-smi prints eight domain digits) */
		if (e - s < 7 || a > 0xfffff) /* VMD domains are 10000 and up */
			return 0;
		p = e + 1;
		c = nicfit__dump_hex(p, 2, 1, &e);
		if (c < 0 || *e != '.')
			return 0;
	} else if (*e == '.') { /* BB:DD.F */
		if (p - s != 3)
			return 0;
		c = b;
		b = a;
		a = 0;
	} else {
		return 0;
	}
	f = e[1] >= '0' && e[1] <= '7' ? e[1] - '0' : -1;
	if (f < 0 || c > 0x1f)
		return 0;
	*dom = (unsigned)a;
	*bus = (unsigned)b;
	*dev = (unsigned)c;
	*fn = (unsigned)f;
	return (size_t)(e + 2 - s);
}

void nicfit__dump_problem(struct nicfit_dump *d, struct dump_at at, const char *fmt, ...)
{
	va_list ap;

	if (d->nproblems < DUMP_MAX_PROBLEMS) {
		struct dump_problem *p = &d->problems[d->nproblems];

		p->at = at;
		va_start(ap, fmt);
		vsnprintf(p->what, sizeof(p->what), fmt, ap);
		va_end(ap);
	}
	d->nproblems++;
}

const char *nicfit__dump_skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static size_t addr_hash(unsigned dom, unsigned bus, unsigned dev, unsigned fn)
{
	size_t h = ((size_t)dom << 16 | (size_t)bus << 8 | (size_t)dev << 3 | fn) *
		   (size_t)0x9e3779b97f4a7c15ull;

	return h ^ h >> 29;
}

static int same_addr(const struct dump_fn *f, unsigned dom, unsigned bus, unsigned dev,
		     unsigned fn)
{
	return f->domain == dom && f->bus == bus && f->dev == dev && f->fn == fn;
}

/*
 * The functions' addresses hashed (struct dump_fn_index), so that a
 * listing's every line finds its function in constant time: the table is
 * kept at most half full, and made again when it would pass half or when
 * the functions have moved (nicfit__dump_build sorts them: hashed 0). A later
 * function of an address replaces an earlier one, as the last one listed
 * was found before. -1 when it cannot be made (the caller scans).
 */
static int hash_fns(struct nicfit_dump *d, struct dump_fn_index *x)
{
	size_t i, j, need = 64;

	while (need < 2 * (d->nfns + 1))
		need *= 2;
	if (need > x->nslots || !x->hashed) {
		size_t *s = calloc(need, sizeof(*s));

		if (!s)
			return -1;
		free(x->slots);
		x->slots = s;
		x->nslots = need;
		x->hashed = 0;
	}
	for (i = x->hashed; i < d->nfns; i++) {
		const struct dump_fn *f = &d->fns[i];

		for (j = addr_hash(f->domain, f->bus, f->dev, f->fn) & (x->nslots - 1);
		     x->slots[j] && !same_addr(&d->fns[x->slots[j] - 1], f->domain, f->bus, f->dev,
					       f->fn);
		     j = (j + 1) & (x->nslots - 1))
			;
		x->slots[j] = i + 1;
	}
	x->hashed = d->nfns;
	return 0;
}

/* The function listed last at this address, or NULL. */
static struct dump_fn *fn_at(struct nicfit_dump *d, unsigned dom, unsigned bus, unsigned dev,
			     unsigned fn)
{
	struct dump_fn_index *x = d->by_bdf;
	size_t i;

	if (!x || hash_fns(d, x)) {
		for (i = d->nfns; i-- > 0;)
			if (same_addr(&d->fns[i], dom, bus, dev, fn))
				return &d->fns[i];
		return NULL;
	}
	for (i = addr_hash(dom, bus, dev, fn) & (x->nslots - 1); x->slots[i];
	     i = (i + 1) & (x->nslots - 1))
		if (same_addr(&d->fns[x->slots[i] - 1], dom, bus, dev, fn))
			return &d->fns[x->slots[i] - 1];
	return NULL;
}

struct dump_fn *nicfit__dump_fn(struct nicfit_dump *d, unsigned dom, unsigned bus, unsigned dev,
				unsigned fn)
{
	struct dump_fn *f = fn_at(d, dom, bus, dev, fn);

	if (f)
		return f;
	if (d->nfns >= DUMP_MAX_FNS) {
		d->limit = 1;
		return NULL;
	}
	if (NICFIT_ALLOC_GROW(d->fns, d->nfns + 1, d->alloc_fns)) {
		d->oom = 1;
		return NULL;
	}
	f = &d->fns[d->nfns++];
	memset(f, 0, sizeof(*f));
	f->domain = dom;
	f->bus = bus;
	f->dev = dev;
	f->fn = fn;
	snprintf(f->bdf, sizeof(f->bdf), "%04x:%02x:%02x.%u", dom, bus, dev, fn);
	f->numa = -1;
	f->secondary = f->subordinate = -1;
	f->sriov_total = f->sriov_num = -1;
	return f;
}

int nicfit__dump_guid(const char *s, char out[17])
{
	int n = 0, zero = 1;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (n < 16) {
		if (*s == ':' && n && n % 4 == 0)
			s++;
		if (!*s || !strchr("0123456789abcdefABCDEF", *s))
			return -1;
		out[n] = (char)(*s | 0x20);
		zero &= *s == '0';
		n++;
		s++;
	}
	out[16] = '\0';
	if (*s && *s != ' ' && *s != '\t')
		return -1;
	return zero ? -1 : 0;
}
