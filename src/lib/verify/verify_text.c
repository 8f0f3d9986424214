/*
 * verify_text.c - the text under every verify parser: lines, the tags
 * launchers put in front of them, tokens and numbers; and under every
 * judge: a document's line quoted as evidence, and a variable an NCCL log
 * echoed. No parser of a format and no rule lives here.
 */
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/buf.h"
#include "verify/verify_int.h"

void nicfit__vlines_init(struct nicfit__vlines *l, const char *text, size_t len)
{
	l->text = text;
	l->len = len;
	l->pos = 0;
	l->lineno = 0;
	l->buf[0] = '\0';
}

void nicfit__vlines_set(struct nicfit__vlines *l, const char *line, size_t n, long lineno)
{
	char *z;

	if (n > NICFIT__VLINE_MAX)
		n = NICFIT__VLINE_MAX;
	memcpy(l->buf, line, n);
	while (n && l->buf[n - 1] == '\r')
		n--;
	l->buf[n] = '\0';
	/* a NUL inside a line is a space, so that the line's text goes on past it */
	for (z = memchr(l->buf, '\0', n); z; z = memchr(z + 1, '\0', (size_t)(l->buf + n - z - 1)))
		*z = ' ';
	l->lineno = lineno;
}

int nicfit__vscan_next(struct nicfit__vlines *l, const char **line, size_t *n)
{
	const char *p, *nl;

	if (l->pos >= l->len)
		return 0;
	p = l->text + l->pos;
	nl = memchr(p, '\n', l->len - l->pos);
	*line = p;
	*n = nl ? (size_t)(nl - p) : l->len - l->pos;
	l->pos += *n + (nl != NULL);
	l->lineno++;
	return 1;
}

char *nicfit__vlines_next(struct nicfit__vlines *l)
{
	const char *line;
	size_t n;

	if (!nicfit__vscan_next(l, &line, &n))
		return NULL;
	nicfit__vlines_set(l, line, n, l->lineno);
	return l->buf;
}

/* "[1,0]<stdout>:" or "[1,0]<stderr>:" (Open MPI --tag-output). */
static char *skip_mpi_tag(char *p)
{
	char *q = p;

	if (*q != '[')
		return p;
	q++;
	while ((*q >= '0' && *q <= '9') || *q == ',')
		q++;
	if (*q != ']')
		return p;
	q++;
	if (!strncmp(q, "<stdout>:", 9) || !strncmp(q, "<stderr>:", 9))
		return q + 9;
	return p;
}

char *nicfit__vskip_tags(char *line)
{
	char *p = line;

	while (*p == ' ' || *p == '\t')
		p++;
	/* a Markdown quote ("> ", "> > "): no tool's line starts with '>' */
	while (*p == '>' && (p[1] == ' ' || p[1] == '\t' || p[1] == '>' || !p[1])) {
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	p = skip_mpi_tag(p);
	/* "[0] " from mpirun -l / srun --label style rank tags at the start */
	if (*p == '[') {
		char *q = p + 1;

		while (*q >= '0' && *q <= '9')
			q++;
		if (q > p + 1 && *q == ']' && (q[1] == ' ' || q[1] == '\t' || q[1] == '#'))
			p = q + 1;
	}
	return p;
}

void nicfit__vblank_rank_tags(char *line)
{
	char *p = line;

	while ((p = strchr(p, '[')) != NULL) {
		char *q = p + 1;

		while (*q >= '0' && *q <= '9')
			q++;
		if (q > p + 1 && *q == ']')
			memset(p, ' ', (size_t)(q - p + 1));
		p = q;
	}
}

int nicfit__vnum(const char *s, double *out)
{
	char *end;
	double d;

	if (!s || !*s || !((*s >= '0' && *s <= '9') || *s == '-' || *s == '.' || *s == '+'))
		return -1;
	errno = 0;
	d = strtod(s, &end);
	if (end == s || *end || errno == ERANGE || !isfinite(d))
		return -1;
	*out = d;
	return 0;
}

const char *nicfit__vmemmem(const char *s, size_t n, const char *needle, size_t k)
{
	const char *end = s + n, *p = s;

	if (!k)
		return s;
	while (end - p >= (ptrdiff_t)k && (p = memchr(p, needle[0], (size_t)(end - p) - k + 1))) {
		if (!memcmp(p + 1, needle + 1, k - 1))
			return p;
		p++;
	}
	return NULL;
}

int nicfit__vnum_any(const char *s, double *out)
{
	char *end;
	double d;

	if (!s || !*s)
		return -1;
	errno = 0;
	d = strtod(s, &end);
	if (end == s || *end)
		return -1;
	/* strtod's overflow is HUGE_VAL with ERANGE: a figure past any bound, as inf is */
	*out = d;
	return 0;
}

long nicfit__vint(const char *s, const char **end)
{
	long v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9') {
		if (end)
			*end = s;
		return -1;
	}
	while (*p >= '0' && *p <= '9') {
		if (v < 100000000000L)
			v = v * 10 + (*p - '0');
		p++;
	}
	if (end)
		*end = p;
	return v;
}

void nicfit__vcopy(char *dst, size_t size, const char *s, size_t n)
{
	size_t i;

	if (!size)
		return;
	for (i = 0; i + 1 < size && i < n && s[i]; i++)
		dst[i] = s[i];
	dst[i] = '\0';
}

int nicfit__vbound(struct nicfit_error *err, const char *name, long line, long col,
		   const char *what, double v, double max, const char *unit)
{
	if (v <= max && v >= -max)
		return 0;
	if (isnan(v))
		return nicfit_error_at(err, NICFIT_E_DATA, name, line, col, "%s nan is not a "
				       "measurement (not a number): the input is damaged", what);
	return nicfit_error_at(err, NICFIT_E_DATA, name, line, col, "%s %.6g%s%s is not a "
			       "measurement (above %g%s%s): the input is damaged", what, v,
			       unit[0] ? " " : "", unit, max, unit[0] ? " " : "", unit);
}

int nicfit__vnonneg(struct nicfit_error *err, const char *name, long line, long col,
		    const char *what, double v, const char *unit)
{
	if (v >= 0)
		return 0;
	return nicfit_error_at(err, NICFIT_E_DATA, name, line, col, "%s %.6g%s%s is not a "
			       "measurement (below 0): the input is damaged", what, v,
			       unit[0] ? " " : "", unit);
}

char *nicfit__vstrdup(const char *s)
{
	size_t n = strlen(s);
	char *d = malloc(n + 1);

	if (d)
		memcpy(d, s, n + 1);
	return d;
}

size_t nicfit__vline_at(const struct nicfit_verify_doc *d, long lineno, char *out, size_t size)
{
	const char *p = d->text, *end, *q;
	long n = 1;
	size_t k;

	out[0] = '\0';
	if (!p || lineno < 1)
		return 0;
	end = p + d->text_len; /* not before: a document without text has a NULL one */
	if (d->src && d->src->nmarks && d->src->text == d->text) {
		/* from the mark at or before the line, not from the start */
		size_t mk = (size_t)(lineno - 1) / NICFIT_VERIFY_MARK_LINES;

		if (mk >= d->src->nmarks)
			mk = d->src->nmarks - 1;
		p += d->src->marks[mk];
		n = (long)(mk * NICFIT_VERIFY_MARK_LINES) + 1;
	}
	while (n < lineno && p < end) {
		q = memchr(p, '\n', (size_t)(end - p));
		if (!q)
			return 0;
		p = q + 1;
		n++;
	}
	q = memchr(p, '\n', (size_t)(end - p));
	k = (size_t)((q ? q : end) - p);
	while (k && (p[k - 1] == '\r' || p[k - 1] == ' '))
		k--;
	while (k && (*p == ' ' || *p == '\t')) {
		p++;
		k--;
	}
	if (k > NICFIT__VQUOTE_MAX)
		k = NICFIT__VQUOTE_MAX;
	nicfit__vcopy(out, size, p, k);
	return k;
}

const struct nicfit_nccl_kv *nicfit__venv(const struct nicfit_nccl_log *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nenv; i++)
		if (!strcmp(g->env[i].name, name))
			return &g->env[i];
	return NULL;
}

void nicfit__vquote(struct nicfit_buf *b, const struct nicfit_verify_doc *d, long line)
{
	char q[NICFIT__VQUOTE_MAX + 1];

	if (line <= 0 || !nicfit__vline_at(d, line, q, sizeof(q)))
		return;
	nicfit_buf_addf(b, " (line %ld: \"%s\")", line, q);
}
