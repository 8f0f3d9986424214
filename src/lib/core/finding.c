/*
 * finding.c - the findings model: the registry of codes, the recorder and
 * the registry's Markdown (nicfit/finding.h, finding_int.h).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/finding_int.h"
#include "core/fmt_int.h"
#include "nicfit/spec.h"

/* ---- the registry ---------------------------------------------------------- */

#define PLAN NICFIT_ENGINE_PLAN
#define CLUSTER NICFIT_ENGINE_CLUSTER
#define AUDIT NICFIT_ENGINE_AUDIT
#define FLEET NICFIT_ENGINE_FLEET
#define VERIFY NICFIT_ENGINE_VERIFY

static const struct nicfit_code_info registry[NICFIT__CODE_COUNT + 1] = {
#define NICFIT_CODE(id, code, sev, engines, meaning) \
	{ code, NICFIT_SEV_##sev, (engines), meaning },
#include "core/finding_codes.def"
#include "plan/plan_codes.def"
#include "cluster/cluster_codes.def"
#include "audit/audit_codes.def"
#include "fleet/fleet_codes.def"
#include "verify/verify_codes.def"
#undef NICFIT_CODE
	{ NULL, NICFIT_SEV_NONE, 0, NULL }
};

#undef PLAN
#undef CLUSTER
#undef AUDIT
#undef FLEET
#undef VERIFY

const struct nicfit_code_info *nicfit_codes(size_t *n)
{
	if (n)
		*n = NICFIT__CODE_COUNT;
	return registry;
}

const char *nicfit__code_name(enum nicfit__code code)
{
	return (unsigned)code < NICFIT__CODE_COUNT ? registry[code].code : "?";
}

/*
 * The registry's indexes sorted by code, then by index: a code that two
 * engines share (gpu-nic-cross-socket) is found at its first entry, as a
 * scan in registry order finds it. Sorted once a process (pthread_once:
 * serve's threads look codes up).
 */
static unsigned short by_code[NICFIT__CODE_COUNT];
static pthread_once_t by_code_once = PTHREAD_ONCE_INIT;

static int by_code_cmp(const void *a, const void *b)
{
	unsigned short x = *(const unsigned short *)a, y = *(const unsigned short *)b;
	int c = strcmp(registry[x].code, registry[y].code);

	return c ? c : (x > y) - (x < y);
}

static void sort_by_code(void)
{
	size_t i;

	for (i = 0; i < NICFIT__CODE_COUNT; i++)
		by_code[i] = (unsigned short)i;
	qsort(by_code, NICFIT__CODE_COUNT, sizeof(by_code[0]), by_code_cmp);
}

_Static_assert(NICFIT__CODE_COUNT <= 65535, "by_code holds registry indexes as unsigned short");

/* A code's first entry, by binary search of by_code (the first that is not less). */
const struct nicfit_code_info *nicfit_code_lookup(const char *code)
{
	size_t lo = 0, hi = NICFIT__CODE_COUNT;

	if (!code)
		return NULL;
	pthread_once(&by_code_once, sort_by_code);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(registry[by_code[mid]].code, code) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < NICFIT__CODE_COUNT && !strcmp(registry[by_code[lo]].code, code))
		return &registry[by_code[lo]];
	return NULL;
}

static const char *const sev_names[NICFIT_SEV_COUNT] = { "clean", "info", "warning",
							   "critical" };

const char *nicfit_severity_name(enum nicfit_severity s)
{
	return (unsigned)s < NICFIT_SEV_COUNT ? sev_names[s] : "?";
}

int nicfit_severity_parse(const char *s, enum nicfit_severity *out)
{
	int i;

	for (i = 0; i < NICFIT_SEV_COUNT; i++)
		if (!strcmp(s, sev_names[i])) {
			*out = (enum nicfit_severity)i;
			return 0;
		}
	return -1;
}

int nicfit_code_check_ignore(const char *pattern, unsigned engines, const char *input,
			     struct nicfit_error *err)
{
	const char *at = strchr(pattern, '@'), *near;
	const char *names[NICFIT__CODE_COUNT + 1];
	char code[64];
	size_t n = at ? (size_t)(at - pattern) : strlen(pattern), i, k = 0;

	if (n == 0 || n >= sizeof(code))
		return nicfit_error_at(err, NICFIT_E_USAGE, input, 0, 0,
				       "'%.64s' is not a finding code (CODE or CODE@DEVICE)",
				       pattern);
	memcpy(code, pattern, n);
	code[n] = '\0';
	for (i = 0; i < NICFIT__CODE_COUNT; i++) {
		if (!(registry[i].engines & engines))
			continue;
		if (!strcmp(registry[i].code, code))
			return 0;
		names[k++] = registry[i].code;
	}
	names[k] = NULL;
	near = nicfit_suggest(code, names);
	return nicfit_error_at(err, NICFIT_E_USAGE, input, 0, 0,
			       "unknown finding code '%s'%s%s%s", code,
			       near ? " (did you mean '" : "", near ? near : "",
			       near ? "'?)" : "");
}

/* ---- the recorder ---------------------------------------------------------- */

/*
 * The records' strings: blocks that each string is written into after
 * the one before, freed all at once with the list. A plan makes forty
 * texts and an audit a few hundred; a malloc() and a free() each cost
 * more than writing one.
 */
struct nicfit__texts {
	struct nicfit__texts *next; /* the block filled before this one */
	size_t used, cap;
	char data[];
};

#define TEXTS_FIRST 4096u
#define TEXTS_MOST (256u << 10)
#define TEXTS_SHORT 1024u /* room for nearly every text */

/* A new current block with room for need bytes at least. */
static struct nicfit__texts *texts_grow(struct nicfit_findings *fs, size_t need)
{
	size_t cap = fs->texts ? fs->texts->cap * 2 : TEXTS_FIRST;
	struct nicfit__texts *t;

	if (cap > TEXTS_MOST)
		cap = TEXTS_MOST;
	if (cap < need)
		cap = need;
	if (cap > SIZE_MAX - sizeof(*t) || !(t = malloc(sizeof(*t) + cap))) {
		fs->oom = 1;
		return NULL;
	}
	t->next = fs->texts;
	t->used = 0;
	t->cap = cap;
	fs->texts = t;
	return t;
}

char *nicfit__findings_text(struct nicfit_findings *fs, const char *s, size_t n)
{
	struct nicfit__texts *t = fs->texts;
	char *d;

	if (n >= SIZE_MAX / 2) {
		fs->oom = 1;
		return NULL;
	}
	if ((!t || t->cap - t->used <= n) && !(t = texts_grow(fs, n + 1)))
		return NULL;
	d = t->data + t->used;
	memcpy(d, s, n);
	d[n] = '\0';
	t->used += n + 1;
	return d;
}

char *nicfit__findings_vfmt(struct nicfit_findings *fs, const char *fmt, va_list ap)
{
	struct nicfit__texts *t = fs->texts;
	size_t room;
	va_list cp;
	char *d;
	int n;

	/*
	 * Written where it will stay when it fits what the block has left,
	 * else again in a new block: a block with less than a long
	 * paragraph's room left is left for a new one first, so that a text
	 * is written twice only when it is longer than that.
	 */
	if ((!t || t->cap - t->used < TEXTS_SHORT) && !(t = texts_grow(fs, TEXTS_SHORT)))
		return NULL;
	room = t->cap - t->used;
	va_copy(cp, ap);
	n = nicfit__vfmt_lit(t->data + t->used, room, fmt, cp);
	va_end(cp);
	if (n < 0) {
		fs->oom = 1;
		return NULL;
	}
	if ((size_t)n < room) {
		d = t->data + t->used;
		t->used += (size_t)n + 1;
		return d;
	}
	if (!(t = texts_grow(fs, (size_t)n + 1)))
		return NULL;
	d = t->data;
	nicfit__vfmt_lit(d, (size_t)n + 1, fmt, ap);
	t->used = (size_t)n + 1;
	return d;
}

void nicfit_findings_init(struct nicfit_findings *fs)
{
	memset(fs, 0, sizeof(*fs));
}

void nicfit_findings_release(struct nicfit_findings *fs)
{
	struct nicfit__texts *t = fs->texts, *next;

	for (; t; t = next) {
		next = t->next;
		free(t);
	}
	free(fs->v);
	nicfit_findings_init(fs);
}

#define RECORDS_FIRST 32u

/*
 * The next record, filled but for its message (device copied), not
 * counted yet: take() counts it with its message. NULL when memory ran
 * out (fs->oom is then set).
 */
static struct nicfit_finding *next_record(struct nicfit_findings *fs, enum nicfit_severity sev,
					  const char *code, const char *device)
{
	struct nicfit_finding *f;

	/*
	 * room for RECORDS_FIRST records at once (a plan makes some forty in
	 * two lists), then grown as every array is: no call while there is room
	 */
	if (fs->oom || (fs->n >= fs->alloc &&
			NICFIT_ALLOC_GROW(fs->v, fs->n < RECORDS_FIRST ? RECORDS_FIRST : fs->n + 1,
					  fs->alloc))) {
		fs->oom = 1;
		return NULL;
	}
	f = &fs->v[fs->n];
	memset(f, 0, sizeof(*f));
	f->severity = sev;
	f->code = code;
	if (device && !(f->device = nicfit__findings_text(fs, device, strlen(device))))
		return NULL;
	return f;
}

/* next_record()'s f, with message (one of fs's texts; NULL: memory ran out), counted. */
static struct nicfit_finding *take(struct nicfit_findings *fs, struct nicfit_finding *f,
				   char *message)
{
	if (!message) {
		fs->oom = 1;
		return NULL;
	}
	f->message = message;
	fs->n++;
	return f;
}

static struct nicfit_finding *push(struct nicfit_findings *fs, enum nicfit_severity sev,
				   const char *code, const char *device, const char *fmt,
				   va_list ap)
{
	struct nicfit_finding *f = next_record(fs, sev, code, device);

	return f ? take(fs, f, nicfit__findings_vfmt(fs, fmt, ap)) : NULL;
}

struct nicfit_finding *nicfit__record_text(struct nicfit_findings *fs, enum nicfit_severity sev,
					  const char *code, const char *device, const char *text,
					  size_t len)
{
	struct nicfit_finding *f = next_record(fs, sev, code, device);

	return f ? take(fs, f, nicfit__findings_text(fs, text, len)) : NULL;
}

char *nicfit__findings_fmt(struct nicfit_findings *fs, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = nicfit__findings_vfmt(fs, fmt, ap);
	va_end(ap);
	return s;
}

struct nicfit_finding *nicfit__vfind(struct nicfit_findings *fs, enum nicfit_severity sev,
				     enum nicfit__code code, const char *device,
				     const char *fmt, va_list ap)
{
	return push(fs, sev, nicfit__code_name(code), device, fmt, ap);
}

struct nicfit_finding *nicfit__find(struct nicfit_findings *fs, enum nicfit_severity sev,
				    enum nicfit__code code, const char *device,
				    const char *fmt, ...)
{
	struct nicfit_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = nicfit__vfind(fs, sev, code, device, fmt, ap);
	va_end(ap);
	return f;
}

int nicfit__find_code(struct nicfit_findings *fs, enum nicfit_severity sev, const char *code,
		      const char *device, struct nicfit_finding **out, const char *fmt, ...)
{
	const struct nicfit_code_info *ci = nicfit_code_lookup(code);
	struct nicfit_finding *f;
	va_list ap;

	if (out)
		*out = NULL;
	if (!ci)
		return NICFIT_E_INTERNAL;
	va_start(ap, fmt);
	f = push(fs, sev, ci->code, device, fmt, ap);
	va_end(ap);
	if (!f)
		return NICFIT_E_NOMEM;
	if (out)
		*out = f;
	return 0;
}

struct nicfit_finding *nicfit__vdecide(struct nicfit_findings *fs, const char *rule, int applied,
				       const char *fmt, va_list ap)
{
	struct nicfit_finding *f = push(fs, NICFIT_SEV_NONE, rule, NULL, fmt, ap);

	if (f)
		f->applied = applied;
	return f;
}

struct nicfit_finding *nicfit__decide(struct nicfit_findings *fs, const char *rule, int applied,
				      const char *fmt, ...)
{
	struct nicfit_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = nicfit__vdecide(fs, rule, applied, fmt, ap);
	va_end(ap);
	return f;
}

int nicfit__finding_fix(struct nicfit_findings *fs, struct nicfit_finding *f,
			const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = nicfit__findings_vfmt(fs, fmt, ap);
	va_end(ap);
	if (!s)
		return NICFIT_E_NOMEM;
	f->fix = s;
	return 0;
}

int nicfit__finding_append(struct nicfit_findings *fs, struct nicfit_finding *f,
			   const char *fmt, ...)
{
	va_list ap;
	char *more, *s;

	va_start(ap, fmt);
	more = nicfit__vstrfmt(fmt, ap);
	va_end(ap);
	/* the old message stays in its block until the list is released */
	s = more ? nicfit__findings_fmt(fs, "%s%s", f->message, more) : NULL;
	free(more);
	if (!s) {
		fs->oom = 1;
		return NICFIT_E_NOMEM;
	}
	f->message = s;
	return 0;
}

size_t nicfit_findings_count(const struct nicfit_findings *fs, enum nicfit_severity s)
{
	size_t i, n = 0;

	for (i = 0; i < fs->n; i++)
		if (fs->v[i].severity == s && s != NICFIT_SEV_NONE && !fs->v[i].ignored)
			n++;
	return n;
}

enum nicfit_severity nicfit_findings_worst(const struct nicfit_findings *fs)
{
	enum nicfit_severity w = NICFIT_SEV_NONE;
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (!fs->v[i].ignored && fs->v[i].severity > w)
			w = fs->v[i].severity;
	return w;
}

int nicfit_findings_sort(struct nicfit_findings *fs)
{
	struct nicfit_finding *out;
	size_t i, k = 0;
	int s;

	if (fs->n < 2)
		return 0;
	out = malloc(fs->n * sizeof(*out));
	if (!out) {
		fs->oom = 1;
		return NICFIT_E_NOMEM;
	}
	/* stable by construction: one pass per severity, worst first */
	for (s = NICFIT_SEV_COUNT - 1; s >= 0; s--)
		for (i = 0; i < fs->n; i++)
			if ((int)fs->v[i].severity == s)
				out[k++] = fs->v[i];
	memcpy(fs->v, out, fs->n * sizeof(*out));
	free(out);
	return 0;
}

/* ---- docs/findings.md ---------------------------------------------------- */

static void md_cell(struct nicfit_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			nicfit_buf_puts(b, "\\|");
		else
			nicfit_buf_addch(b, *s);
	}
}

int nicfit_codes_render_md(struct nicfit_buf *b)
{
	static const struct {
		unsigned bit;
		const char *name;
	} engines[] = { { NICFIT_ENGINE_PLAN, "plan" }, { NICFIT_ENGINE_CLUSTER, "cluster" },
			{ NICFIT_ENGINE_AUDIT, "audit" }, { NICFIT_ENGINE_FLEET, "fleet" },
			{ NICFIT_ENGINE_VERIFY, "verify" } };
	size_t i, e;

	nicfit_buf_puts(b,
		"# Finding codes\n\n"
		"Every code that `nicfit plan`, `cluster`, `audit`, `fleet` and `verify` can report, with the\n"
		"severity it usually has, the commands that raise it and what it means. Codes are\n"
		"stable: scripts may match them, and `--ignore CODE[@DEVICE]` takes them. A raise\n"
		"site may report a code at another severity when the numbers say so (the JSON\n"
		"`severity` field is the one to read).\n\n"
		"This file is generated from the registry in `src/lib/*_codes.def` and\n"
		"`src/lib/*/*_codes.def` (`make docs/findings.md`); `make check` fails when it\n"
		"differs.\n");
	for (e = 0; e < sizeof(engines) / sizeof(engines[0]); e++) {
		nicfit_buf_addf(b, "\n## %s\n\n| code | severity | also raised by | meaning |\n"
				   "|---|---|---|---|\n", engines[e].name);
		for (i = 0; i < NICFIT__CODE_COUNT; i++) {
			const struct nicfit_code_info *c = &registry[i];
			size_t o, first = 1;

			/* each code under the first engine that raises it */
			if (!(c->engines & engines[e].bit) ||
			    (c->engines & (engines[e].bit - 1)))
				continue;
			nicfit_buf_addf(b, "| `%s` | %s | ", c->code,
					nicfit_severity_name(c->severity));
			for (o = e + 1; o < sizeof(engines) / sizeof(engines[0]); o++)
				if (c->engines & engines[o].bit) {
					nicfit_buf_addf(b, "%s%s", first ? "" : ", ",
							engines[o].name);
					first = 0;
				}
			if (first)
				nicfit_buf_puts(b, "—");
			nicfit_buf_puts(b, " | ");
			md_cell(b, c->meaning);
			nicfit_buf_puts(b, " |\n");
		}
	}
	return nicfit_buf_error(b);
}
