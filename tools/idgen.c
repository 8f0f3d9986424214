/*
 * idgen.c - compile the hardware identity tables of data/ids/ (build tool).
 *
 *   idgen pci data/ids/pci.txt OUT.h       the built-in PCI ID table, vendor
 *                                          names and port-count card names
 *   idgen intel data/ids/intel.txt OUT.h   the Intel adapter table
 *
 * The files are line-based text (their headers describe the columns; '#'
 * starts a comment line). OUT.h holds static C tables that pciids.c and
 * partno_intel.c include. Every problem is printed as file:line:col and
 * the exit status is 65: a bad field, a duplicate key, PCI rows out of
 * (vendor, device) order. Nothing is written then.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cstr.h"

#define MAX_TOK 16
#define MAX_ROWS 4096

struct line {
	const char *file;
	int no;
	char *text;              /* the whole line, for columns */
	char *tok[MAX_TOK];      /* the words before the first '|' */
	int ntok;
	char *part[3];           /* the '|'-separated texts after the words */
	int nparts;
};

static int problems;

static void problem(const struct line *l, const char *at, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d:%d: ", l->file, l->no, at ? (int)(at - l->text) + 1 : 1);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	problems++;
}

/* Split a line (modified in place; text keeps a copy for columns). */
static void split(struct line *l, char *s, char *copy)
{
	char *bar = strchr(s, '|');

	l->text = copy;
	l->ntok = l->nparts = 0;
	if (bar)
		*bar = '\0';
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (l->ntok < MAX_TOK)
			l->tok[l->ntok++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
	while (bar && l->nparts < 3) {
		char *p = bar + 1, *next = strchr(p, '|'), *e;

		if (next && l->nparts < 2)
			*next = '\0';
		else
			next = NULL;
		while (*p == ' ')
			p++;
		e = p + strlen(p);
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		l->part[l->nparts++] = p;
		bar = next;
	}
}

/* Where token t sits in the original line. */
static const char *col(const struct line *l, const char *t, const char *base)
{
	return l->text + (t - base);
}

static int hex4(const char *s, unsigned *v)
{
	char *end;
	unsigned long x;

	if (strlen(s) != 4 || !isxdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	x = strtoul(s, &end, 16);
	if (errno || *end)
		return -1;
	*v = (unsigned)x;
	return 0;
}

static int number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || *end || end == s || *v < 0 ? -1 : 0;
}

/* A '+'-joined set of names, as C flag names; -1 on an unknown name. */
static int flags(const char *s, const char *const *names, const char *const *cnames,
		 char *out, size_t cap)
{
	char buf[128];
	char *p, *save = NULL;
	size_t n = 0;

	out[0] = '\0';
	if (!strcmp(s, "-")) {
		snprintf(out, cap, "0");
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (p = strtok_r(buf, "+", &save); p; p = strtok_r(NULL, "+", &save)) {
		int i;

		for (i = 0; names[i] && strcmp(names[i], p); i++)
			;
		if (!names[i])
			return -1;
		n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%s", n ? " | " : "",
				      cnames[i]);
	}
	return n ? 0 : -1;
}

/* Read every non-comment line of path; calls row() for each. */
static int each_line(const char *path, void (*row)(struct line *, char *, void *), void *ctx)
{
	FILE *in = fopen(path, "r");
	char buf[2048], copy[2048];
	struct line l = { path, 0, NULL, { NULL }, 0, { NULL }, 0 };

	if (!in) {
		perror(path);
		return 66;
	}
	while (fgets(buf, sizeof(buf), in)) {
		size_t n = strlen(buf);

		l.no++;
		if (n && buf[n - 1] == '\n')
			buf[--n] = '\0';
		else if (!feof(in)) {
			problem(&l, NULL, "line longer than %zu bytes", sizeof(buf) - 2);
			break;
		}
		if (!n || buf[0] == '#')
			continue;
		memcpy(copy, buf, n + 1);
		split(&l, buf, copy);
		if (l.ntok)
			row(&l, buf, ctx);
	}
	fclose(in);
	return 0;
}

/* ---- pci.txt ------------------------------------------------------------- */

struct pci_ctx {
	FILE *out;               /* a memory stream: written to OUT.h only when clean */
	char *keys[64], *texts[64];   /* sources: key -> citation */
	int nsrc;
	unsigned last_v, last_d;
	int rows;
	char vendors[8192], cards[8192], macros[16384];
	size_t nv, nc, nm;
};

/*
 * Every physical NIC function of Mellanox (whose row names are unique
 * chip names) also gets its ID and port rate as macros
 * named after the row (NICFIT_PCIID_15B3_CONNECTX_6_DX and ..._GBPS), so
 * that tables elsewhere (the ConnectX families of partno_cx.c) take them
 * from here instead of a second copy.
 */
static void add_macro(struct pci_ctx *c, unsigned v, unsigned d, const char *name, double g)
{
	char m[128];
	size_t i, n = 0;

	for (i = 0; name[i] && n < sizeof(m) - 1; i++) {
		unsigned char ch = (unsigned char)name[i];

		m[n++] = isalnum(ch) ? (char)toupper(ch) : '_';
	}
	m[n] = '\0';
	c->nm += (size_t)snprintf(c->macros + c->nm, sizeof(c->macros) - c->nm,
				  "#define NICFIT_PCIID_%04X_%s 0x%04x\n"
				  "#define NICFIT_PCIID_%04X_%s_GBPS %g\n", v, m, d, v, m, g);
}

static void pci_row(struct line *l, char *base, void *vctx)
{
	static const char *const fn[] = { "gpu", "nic", "vf", "recovery", "switch", "internal",
		"intbridge", "baset", NULL };
	static const char *const fc[] = { "NICFIT_PCIID_GPU", "NICFIT_PCIID_NIC",
		"NICFIT_PCIID_VF", "NICFIT_PCIID_RECOVERY", "NICFIT_PCIID_SWITCH",
		"NICFIT_PCIID_INTERNAL", "NICFIT_PCIID_INTBRIDGE", "NICFIT_PCIID_BASET" };
	static const char *const rn[] = { "roce", "ib", "iwarp", NULL };
	static const char *const rc[] = { "NICFIT_PCIID_ROCE", "NICFIT_PCIID_IB",
		"NICFIT_PCIID_IWARP" };
	struct pci_ctx *c = vctx;
	char fl[256], rd[128];
	unsigned v, d;
	double g;
	int i;

	if (!strcmp(l->tok[0], "source")) {
		const char *text = l->ntok >= 3 ? l->text + (l->tok[2] - base) : NULL;

		if (l->ntok < 3 || c->nsrc == 64) {
			problem(l, NULL, "source needs a key and a text");
			return;
		}
		for (i = 0; i < c->nsrc; i++)
			if (!strcmp(c->keys[i], l->tok[1]))
				problem(l, col(l, l->tok[1], base), "duplicate source '%s'", l->tok[1]);
		c->keys[c->nsrc] = strdup(l->tok[1]);
		c->texts[c->nsrc++] = strdup(text);
		return;
	}
	if (!strcmp(l->tok[0], "vendor")) {
		if (l->ntok < 3 || hex4(l->tok[1], &v)) {
			problem(l, l->ntok > 1 ? col(l, l->tok[1], base) : NULL,
				"vendor needs a 4-digit hex ID and a name");
			return;
		}
		c->nv += (size_t)snprintf(c->vendors + c->nv, sizeof(c->vendors) - c->nv,
					  "\t{ 0x%04x, \"%s\" },\n", v,
					  l->text + (l->tok[2] - base));
		return;
	}
	if (!strcmp(l->tok[0], "card")) {
		if (l->ntok != 4 || l->nparts != 1 || hex4(l->tok[1], &v) || hex4(l->tok[2], &d) ||
		    atoi(l->tok[3]) < 1) {
			problem(l, NULL, "card needs VENDOR DEVICE FUNCTIONS | NAME");
			return;
		}
		c->nc += (size_t)snprintf(c->cards + c->nc, sizeof(c->cards) - c->nc,
					  "\t{ 0x%04x, 0x%04x, %d, \"%s\" },\n", v, d,
					  atoi(l->tok[3]), l->part[0]);
		return;
	}
	if (l->ntok != 6 || l->nparts != 1 || !l->part[0][0]) {
		problem(l, NULL, "a row is VENDOR DEVICE FLAGS GBPS RDMA SOURCE | NAME");
		return;
	}
	if (hex4(l->tok[0], &v))
		problem(l, col(l, l->tok[0], base), "vendor '%s' is not 4 hex digits", l->tok[0]);
	if (hex4(l->tok[1], &d))
		problem(l, col(l, l->tok[1], base), "device '%s' is not 4 hex digits", l->tok[1]);
	if (flags(l->tok[2], fn, fc, fl, sizeof(fl)))
		problem(l, col(l, l->tok[2], base), "unknown flags '%s'", l->tok[2]);
	if (number(l->tok[3], &g))
		problem(l, col(l, l->tok[3], base), "port rate '%s' is not a number", l->tok[3]);
	if (flags(l->tok[4], rn, rc, rd, sizeof(rd)))
		problem(l, col(l, l->tok[4], base), "unknown RDMA '%s'", l->tok[4]);
	for (i = 0; i < c->nsrc && strcmp(c->keys[i], l->tok[5]); i++)
		;
	if (i == c->nsrc)
		problem(l, col(l, l->tok[5], base), "no source '%s' (declare it with source KEY TEXT)",
			l->tok[5]);
	if (problems)
		return;
	if (c->rows && (v < c->last_v || (v == c->last_v && d <= c->last_d)))
		problem(l, col(l, l->tok[0], base), "%04x:%04x %s %04x:%04x: rows are sorted by "
			"vendor, then device, one row per ID", v, d,
			v == c->last_v && d == c->last_d ? "duplicates" : "comes after", c->last_v,
			c->last_d);
	c->last_v = v;
	c->last_d = d;
	c->rows++;
	if (v == 0x15b3 && !strcmp(fl, "NICFIT_PCIID_NIC"))
		add_macro(c, v, d, l->part[0], g);
	fprintf(c->out, "\t{ 0x%04x, 0x%04x, ", v, d);
	put_str(c->out, l->part[0]);
	fprintf(c->out, ", %s, %g, %s, ", fl, g, rd);
	put_str(c->out, c->texts[i]);
	fprintf(c->out, " },\n");
}

/* ---- intel.txt ----------------------------------------------------------- */

struct intel_ctx {
	FILE *out;
	char names[MAX_ROWS][24];
	int rows;
};

static void intel_row(struct line *l, char *base, void *vctx)
{
	static const char *const rn[] = { "iwarp", "roce", NULL };
	static const char *const rc[] = { "NICFIT_RDMA_IWARP", "NICFIT_RDMA_ROCE" };
	struct intel_ctx *c = vctx;
	char rd[128];
	unsigned d;
	double g;
	int i, k;

	if (l->ntok != 12 || l->nparts != 2 || !l->part[1][0]) {
		problem(l, NULL, "a row is NAME CTL CODE COUNT PORTS CAGE GBPS GEN WIDTH DEVICE RDMA "
			"DRIVER | UNVERIFIED | SOURCE");
		return;
	}
	if (strlen(l->tok[0]) >= sizeof(c->names[0]) || c->rows == MAX_ROWS) {
		problem(l, col(l, l->tok[0], base), "name too long");
		return;
	}
	for (i = 0; i < c->rows; i++)
		if (!strcmp(c->names[i], l->tok[0]))
			problem(l, col(l, l->tok[0], base), "duplicate adapter '%s'", l->tok[0]);
	for (k = 4; k <= 8; k++)
		if (k != 5 && (number(l->tok[k], &g) || g != (int)g))
			problem(l, col(l, l->tok[k], base), "'%s' is not a whole number", l->tok[k]);
	if (hex4(l->tok[9], &d))
		problem(l, col(l, l->tok[9], base), "device '%s' is not 4 hex digits", l->tok[9]);
	if (flags(l->tok[10], rn, rc, rd, sizeof(rd)))
		problem(l, col(l, l->tok[10], base), "unknown RDMA '%s'", l->tok[10]);
	if (problems)
		return;
	snprintf(c->names[c->rows++], sizeof(c->names[0]), "%s", l->tok[0]);
	fputs("\t{ ", c->out);
	for (k = 0; k < 4; k++) {
		put_str(c->out, l->tok[k]);
		fputs(", ", c->out);
	}
	fprintf(c->out, "%s, ", l->tok[4]);
	put_str(c->out, l->tok[5]);
	fprintf(c->out, ", %s, %s, %s, 0x%04x, %s, ", l->tok[6], l->tok[7], l->tok[8], d, rd);
	put_str(c->out, l->tok[11]);
	fputs(", ", c->out);
	put_str(c->out, l->part[0]);
	fputs(", ", c->out);
	put_str(c->out, l->part[1]);
	fputs(" },\n", c->out);
}

int main(int argc, char **argv)
{
	char *body = NULL;
	size_t blen = 0;
	FILE *mem, *out;
	int rc;

	if (argc != 4 || (strcmp(argv[1], "pci") && strcmp(argv[1], "intel"))) {
		fprintf(stderr, "usage: idgen pci|intel IN.txt OUT.h\n");
		return 64;
	}
	mem = open_memstream(&body, &blen);
	if (!mem)
		return 70;
	if (!strcmp(argv[1], "pci")) {
		struct pci_ctx *c = calloc(1, sizeof(*c));

		if (!c)
			return 70;
		c->out = mem;
		rc = each_line(argv[2], pci_row, c);
		fclose(mem);
		if (rc || problems)
			return rc ? rc : 65;
		out = fopen(argv[3], "w");
		if (!out)
			return 73;
		fprintf(out, "/* generated by tools/idgen.c from %s: do not edit */\n\n"
			     "/* Each Mellanox NIC chip's ID and fastest port. */\n%s\n"
			     "#ifndef NICFIT_PCIID_MACROS_ONLY\n"
			     "/* Sorted by vendor, then device (nicfit__pci_id_find bisects). */\n"
			     "static const struct nicfit_pci_id table[] = {\n%s};\n\n"
			     "static const struct {\n\tunsigned id;\n\tconst char *name;\n} vendors[] = {\n"
			     "%s};\n\n"
			     "/* Cards of one chip told apart by their port (function) count. */\n"
			     "static const struct {\n\tunsigned vendor, device;\n\tint functions;\n"
			     "\tconst char *name;\n} card_names[] = {\n%s};\n#endif\n",
			argv[2], c->macros, body, c->vendors, c->cards);
		free(c);
	} else {
		struct intel_ctx *c = calloc(1, sizeof(*c));

		if (!c)
			return 70;
		c->out = mem;
		rc = each_line(argv[2], intel_row, c);
		fclose(mem);
		if (rc || problems)
			return rc ? rc : 65;
		out = fopen(argv[3], "w");
		if (!out)
			return 73;
		fprintf(out, "/* generated by tools/idgen.c from %s: do not edit */\n\n"
			     "static const struct intel_nic intel[] = {\n%s};\n", argv[2], body);
		free(c);
	}
	free(body);
	if (fclose(out)) {
		perror(argv[3]);
		remove(argv[3]);
		return 74;
	}
	return 0;
}
