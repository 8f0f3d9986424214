/*
 * dump_tree.c - lspci -t, -tv and -tvnn (see dump_int.h). pciutils'
 * ls-tree.c draws each bus as a column: a root bus as "[DDDD:BB]" (or
 * "[BB]" in old versions), each device on it as "DD.F" after "+-" or "\-"
 * in the bus's column, a bridge's buses as "-[SS]" or "-[SS-EE]" right
 * after it, and the devices below a bridge further right, on its line and
 * on the lines after it. So the bus of a device is that of the nearest
 * bus opened to its left: the parser keeps the open buses as a stack of
 * (column, bus) and pops those at or right of each new device's column.
 * -v adds the name after two spaces, -nn the IDs in brackets.
 */
#include <stdio.h>
#include <string.h>

#include "dump/dump_int.h"

int nicfit__dump_tree_line(const char *line)
{
	const char *s = line;

	while (*s == ' ' || *s == '|')
		s++;
	if (!strncmp(s, "-[", 2) || !strncmp(s, "-+-[", 4))
		return strchr(s, ']') != NULL;
	if (!strncmp(s, "+-", 2) || !strncmp(s, "\\-", 2))
		return s[2] == '[' || (nicfit__dump_hex(s + 2, 2, 1, NULL) >= 0 && s[4] == '.');
	return 0;
}

static void push(struct dump_tree *st, int col, unsigned bus)
{
	if (st->ncol >= (int)(sizeof(st->col) / sizeof(st->col[0])))
		return;
	st->col[st->ncol] = col;
	st->bus[st->ncol] = bus;
	st->ncol++;
}

static void pop_to(struct dump_tree *st, int col)
{
	while (st->ncol && st->col[st->ncol - 1] >= col)
		st->ncol--;
}

/* A root bus "[DDDD:BB]" or "[BB]" at s[0] ('['); returns its length or 0. */
static size_t root_bus(const char *s, unsigned *dom, unsigned *bus)
{
	const char *e;
	long a = nicfit__dump_hex(s + 1, 5, 0, &e), b;

	if (a >= 0 && e - s >= 5 && *e == ':') {
		b = nicfit__dump_hex(e + 1, 2, 1, &e);
		if (b < 0 || *e != ']')
			return 0;
		*dom = (unsigned)a;
		*bus = (unsigned)b;
		return (size_t)(e + 1 - s);
	}
	b = nicfit__dump_hex(s + 1, 2, 1, &e);
	if (b < 0 || *e != ']')
		return 0;
	*dom = 0;
	*bus = (unsigned)b;
	return (size_t)(e + 1 - s);
}

/* The name after a leaf device ("  NVIDIA Corporation ... [10de:20b0]"). */
static void leaf_name(struct dump_fn *f, const char *s)
{
	size_t n = strlen(s);
	long v, dv;

	if (!(f->have & NICFIT_HAVE_IDS) && n >= 11 && s[n - 1] == ']' && s[n - 6] == ':' &&
	    s[n - 11] == '[' && (v = nicfit__dump_hex(s + n - 10, 4, 1, NULL)) >= 0 &&
	    (dv = nicfit__dump_hex(s + n - 5, 4, 1, NULL)) >= 0) {
		f->vendor = (unsigned)v;
		f->device = (unsigned)dv;
		f->have |= NICFIT_HAVE_IDS;
		n -= 11;
		while (n && s[n - 1] == ' ')
			n--;
	}
	if (!f->name[0])
		snprintf(f->name, sizeof(f->name), "%.*s", (int)n, s);
}

void nicfit__dump_tree_read(struct nicfit_dump *d, struct dump_tree *st, const char *line,
			    struct dump_at at)
{
	const char *s = line;
	struct dump_fn *last = NULL;

	d->formats |= NICFIT_DUMP_LSPCI_TREE;
	while (*s) {
		unsigned dom, bus;
		long dv, fn, sec, sub;
		const char *e;
		size_t n;

		if (*s == '[' && (s == line || s[-1] == '-') && (n = root_bus(s, &dom, &bus))) {
			pop_to(st, (int)(s - line));
			st->domain = dom;
			push(st, (int)(s - line), bus);
			s += n;
			continue;
		}
		if ((s > line && s[-1] == '-') && (dv = nicfit__dump_hex(s, 2, 1, &e)) >= 0 &&
		    *e == '.' && e[1] >= '0' && e[1] <= '7' && st->ncol) {
			int col = (int)(s - line);

			fn = e[1] - '0';
			pop_to(st, col);
			if (!st->ncol)
				return;
			last = nicfit__dump_fn(d, st->domain, st->bus[st->ncol - 1], (unsigned)dv,
					       (unsigned)fn);
			if (!last)
				return;
			last->tree_bus_known = 1;
			if (!last->at.line)
				last->at = at;
			s = e + 2;
			if (!strncmp(s, "-[", 2) && (sec = nicfit__dump_hex(s + 2, 2, 1, &e)) >= 0) {
				sub = sec;
				if (*e == '-')
					sub = nicfit__dump_hex(e + 1, 2, 1, &e);
				if (sub >= sec && *e == ']') {
					if (!(last->have & NICFIT_HAVE_SECBUS)) {
						last->secondary = (int)sec;
						last->subordinate = (int)sub;
						last->have |= NICFIT_HAVE_SECBUS;
					}
					if (!(last->have & NICFIT_HAVE_CLASS)) {
						/* only a bridge has buses below it */
						last->class_code = 0x060400;
						last->have |= NICFIT_HAVE_CLASS;
					}
					push(st, col, (unsigned)sec);
					s = e + 1;
				}
			}
			continue;
		}
		if (s[0] == ' ' && s[1] == ' ' && last) {
			leaf_name(last, nicfit__dump_skip_blank(s));
			return;
		}
		s++;
	}
}
