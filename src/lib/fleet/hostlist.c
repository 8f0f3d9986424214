/*
 * hostlist.c - host lists as pdsh and clush write them: "gpu[001-064]".
 *
 * Folding groups names by what surrounds their last run of digits and
 * writes the numbers as ranges; zero-padded numbers (a leading 0) only fold
 * with numbers of the same width, unpadded ones fold across widths, so
 * "gpu001..gpu128" is "gpu[001-128]" and "n1..n16" is "n[1-16]".
 * Expanding is the inverse, with the padding of the lower bound.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/buf.h"
#include "nicfit/error.h"
#include "nicfit/fleet.h"

#define MAX_NAME 255
#define MAX_DIGITS 18

struct ent {
	const char *name;
	size_t plen;          /* prefix: name[0..plen) */
	size_t dlen;          /* digits: name[plen..plen+dlen), 0 when none */
	const char *suffix;   /* after the digits */
	unsigned long long num;
	int cls;              /* width class: dlen when padded, 0 otherwise */
};

static int cmp_str(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	if (c)
		return c;
	return na < nb ? -1 : na > nb;
}

static int cmp_base(const struct ent *a, const struct ent *b)
{
	int c = cmp_str(a->name, a->plen, b->name, b->plen);

	if (c)
		return c;
	c = strcmp(a->suffix, b->suffix);
	if (c)
		return c;
	if ((a->dlen == 0) != (b->dlen == 0))
		return a->dlen == 0 ? -1 : 1;
	return 0;
}

static int cmp_width(const void *x, const void *y)
{
	const struct ent *a = x, *b = y;
	int c = cmp_base(a, b);

	if (c)
		return c;
	if (a->dlen != b->dlen)
		return a->dlen < b->dlen ? -1 : 1;
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int cmp_class(const void *x, const void *y)
{
	const struct ent *a = x, *b = y;
	int c = cmp_base(a, b);

	if (c)
		return c;
	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void parse_ent(struct ent *e, const char *name)
{
	size_t n = strlen(name), end = n, start;

	e->name = name;
	while (end && !isdigit((unsigned char)name[end - 1]))
		end--;
	start = end;
	while (start && isdigit((unsigned char)name[start - 1]))
		start--;
	e->num = 0;
	e->cls = 0;
	if (end == start || end - start > MAX_DIGITS) {
		e->plen = n;
		e->dlen = 0;
		e->suffix = name + n;
		return;
	}
	e->plen = start;
	e->dlen = end - start;
	e->suffix = name + end;
	for (; start < end; start++)
		e->num = e->num * 10 + (unsigned long long)(name[start] - '0');
}

static int same_run(const struct ent *a, const struct ent *b)
{
	return a->dlen && b->dlen && !cmp_base(a, b) && a->cls == b->cls;
}

void nicfit_hostlist_fold(const char *const *names, size_t n, size_t max_names,
			  struct nicfit_buf *out)
{
	struct ent *e;
	size_t i, j, k, items = 0, written = 0, first = 1, total;

	if (!n)
		return;
	e = malloc(n * sizeof(*e));
	if (!e) {
		out->err = out->err ? out->err : NICFIT_E_NOMEM;
		return;
	}
	for (i = 0; i < n; i++)
		parse_ent(&e[i], names[i]);
	/* width classes: a bucket with a zero-padded member keeps its width */
	qsort(e, n, sizeof(*e), cmp_width);
	for (i = 0; i < n; i = j) {
		int padded = 0;

		for (j = i; j < n && e[j].dlen && !cmp_base(&e[i], &e[j]) && e[j].dlen == e[i].dlen;
		     j++)
			if (e[j].dlen > 1 && e[j].name[e[j].plen] == '0')
				padded = 1;
		if (j == i)
			j = i + 1;
		for (k = i; k < j; k++)
			e[k].cls = padded ? (int)e[k].dlen : 0;
	}
	qsort(e, n, sizeof(*e), cmp_class);
	/* drop duplicates */
	for (i = 0, j = 0; i < n; i++)
		if (!j || strcmp(e[j - 1].name, e[i].name))
			e[j++] = e[i];
	total = j;
	for (i = 0; i < total; i = j) {
		for (j = i + 1; j < total && same_run(&e[i], &e[j]); j++)
			;
		if (max_names && items >= max_names)
			break;
		if (!first)
			nicfit_buf_addch(out, ',');
		first = 0;
		if (j - i == 1) {
			nicfit_buf_puts(out, e[i].name);
			items++;
			written++;
			continue;
		}
		nicfit_buf_add(out, e[i].name, e[i].plen);
		nicfit_buf_addch(out, '[');
		for (k = i; k < j;) {
			size_t r = k;
			int w = e[k].cls ? e[k].cls : 0;

			while (r + 1 < j && e[r + 1].num == e[r].num + 1)
				r++;
			if (k > i)
				nicfit_buf_addch(out, ',');
			if (r > k)
				nicfit_buf_addf(out, "%0*llu-%0*llu", w, e[k].num, w, e[r].num);
			else
				nicfit_buf_addf(out, "%0*llu", w, e[k].num);
			written += r - k + 1;
			k = r + 1;
			if (max_names && ++items >= max_names && k < j)
				break;
		}
		nicfit_buf_addch(out, ']');
		nicfit_buf_puts(out, e[i].suffix);
	}
	if (written < total)
		nicfit_buf_addf(out, " and %zu more", total - written);
	free(e);
}

/* ---- expansion --------------------------------------------------------------------- */

struct expand {
	size_t max, count;
	int (*fn)(void *ctx, const char *name);
	void *ctx;
	struct nicfit_error *err;
	const char *list;
};

static int bad(struct expand *x, const char *at, const char *why)
{
	return nicfit_error_at(x->err, NICFIT_E_USAGE, "host list", 1, (long)(at - x->list) + 1,
			       "%s", why);
}

/* Expand item[0..n) after the text already in name[0..len). */
static int expand_item(struct expand *x, char *name, size_t len, const char *s, size_t n)
{
	const char *open = memchr(s, '[', n), *close, *p;
	size_t pre;

	if (!open) {
		if (memchr(s, ']', n))
			return bad(x, memchr(s, ']', n), "']' without '['");
		if (len + n > MAX_NAME)
			return bad(x, s, "host name longer than 255 characters");
		memcpy(name + len, s, n);
		name[len + n] = '\0';
		if (len + n == 0)
			return bad(x, s, "empty host name");
		if (++x->count > x->max)
			return nicfit_error_set(x->err, NICFIT_E_LIMIT,
						"host list: more than %zu hosts", x->max);
		return x->fn(x->ctx, name) ? NICFIT_E_INTERNAL : 0;
	}
	pre = (size_t)(open - s);
	if (memchr(s, ']', pre))
		return bad(x, memchr(s, ']', pre), "']' without '['");
	close = memchr(open, ']', n - pre);
	if (!close)
		return bad(x, open, "'[' without ']'");
	if (len + pre > MAX_NAME)
		return bad(x, s, "host name longer than 255 characters");
	memcpy(name + len, s, pre);
	for (p = open + 1; p < close;) {
		const char *a = p, *dash = NULL, *e;
		unsigned long long lo = 0, hi, v;
		size_t wlo, width;
		int rc;

		while (p < close && *p != ',')
			p++;
		e = p;
		if (p < close)
			p++;
		for (dash = a; dash < e && *dash != '-'; dash++)
			;
		wlo = (size_t)(dash - a);
		if (!wlo || wlo > MAX_DIGITS)
			return bad(x, a, "a range needs numbers: [1-4] or [01,03]");
		for (v = 0; a + v < dash; v++)
			if (!isdigit((unsigned char)a[v]))
				return bad(x, a + v, "a range needs numbers: [1-4] or [01,03]");
		for (v = 0; v < wlo; v++)
			lo = lo * 10 + (unsigned long long)(a[v] - '0');
		hi = lo;
		if (dash < e) {
			const char *b = dash + 1;

			if (b == e || (size_t)(e - b) > MAX_DIGITS)
				return bad(x, b, "a range needs numbers: [1-4] or [01,03]");
			hi = 0;
			for (; b < e; b++) {
				if (!isdigit((unsigned char)*b))
					return bad(x, b, "a range needs numbers: [1-4] or [01,03]");
				hi = hi * 10 + (unsigned long long)(*b - '0');
			}
			if (hi < lo)
				return bad(x, dash, "range goes backwards");
		}
		if (hi - lo >= x->max)
			return nicfit_error_set(x->err, NICFIT_E_LIMIT,
						"host list: more than %zu hosts", x->max);
		width = (wlo > 1 && a[0] == '0') ? wlo : 0;
		for (v = lo; v <= hi; v++) {
			char num[32];
			int k = snprintf(num, sizeof(num), "%0*llu", (int)width, v);

			if (len + pre + (size_t)k > MAX_NAME)
				return bad(x, a, "host name longer than 255 characters");
			memcpy(name + len + pre, num, (size_t)k);
			rc = expand_item(x, name, len + pre + (size_t)k, close + 1,
					 n - (size_t)(close + 1 - s));
			if (rc)
				return rc;
		}
	}
	return 0;
}

int nicfit_hostlist_expand(const char *list, size_t max,
			   int (*fn)(void *ctx, const char *name), void *ctx,
			   struct nicfit_error *err)
{
	struct expand x;
	char name[MAX_NAME + 32];
	const char *p = list, *start;
	int depth, rc;

	x.max = max ? max : (size_t)-1;
	x.count = 0;
	x.fn = fn;
	x.ctx = ctx;
	x.err = err;
	x.list = list;
	while (*p) {
		start = p;
		depth = 0;
		while (*p && (depth || *p != ',')) {
			if (*p == '[')
				depth++;
			else if (*p == ']')
				depth--;
			if (isspace((unsigned char)*p))
				return bad(&x, p, "spaces in a host list");
			p++;
		}
		rc = expand_item(&x, name, 0, start, (size_t)(p - start));
		if (rc)
			return rc;
		if (*p == ',') {
			p++;
			if (!*p)
				return bad(&x, p, "host list ends with ','");
		}
	}
	if (!x.count)
		return bad(&x, list, "empty host list");
	return 0;
}
