/*
 * page.c - the configurator page as the server sends it: index.html with
 * the tab of the address shown and, for a shared link (/plan?server=...,
 * /cluster?..., /decode?part=..., /calc?calc=pcie&...), the answer already
 * in it, so the link opens with JavaScript off (in a ticket viewer, a
 * text browser, a locked-down laptop) as well as on. The script replaces
 * this answer with its own rendering of the JSON document; what the
 * server writes is the command line's text report under its first
 * paragraph as a heading, every byte of it HTML-escaped. Requests run
 * through the same library functions as the API's (api.c passes them in).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve_int.h"
#include "nicfit/calc.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "nicfit/plan.h"
#include "nicfit/spec.h"

#define PAGE_MAX ((size_t)16 << 20) /* the largest page with an answer in it */

/* Text as HTML character data or an attribute value: the five specials. */
static void html_escape(struct nicfit_buf *b, const char *s, size_t n)
{
	size_t i, from = 0;

	for (i = 0; i < n; i++) {
		const char *ent;

		switch (s[i]) {
		case '&': ent = "&amp;"; break;
		case '<': ent = "&lt;"; break;
		case '>': ent = "&gt;"; break;
		case '"': ent = "&quot;"; break;
		case '\'': ent = "&#39;"; break;
		default: continue;
		}
		nicfit_buf_add(b, s + from, i - from);
		nicfit_buf_puts(b, ent);
		from = i + 1;
	}
	nicfit_buf_add(b, s + from, n - from);
}

/* ---- the link's settings as a spec --------------------------------------- */

struct query {
	struct nicfit_spec *spec;
	const char *tab;
	const char *calc;      /* ?calc= on the calculators tab */
	const char *example;   /* ?example= on the plan tab */
	const char *part;      /* ?part= on the decode tab */
	int n;                 /* settings seen, empty ones left out */
	int rc;
	struct nicfit_error *err;
};

static void query_pair(struct query *q, const char *key, const char *value)
{
	if (!key || !value || !*value || q->rc)
		return;
	q->n++;
	if (!strcmp(q->tab, "calc") && !strcmp(key, "calc"))
		q->calc = value;
	else if (!strcmp(q->tab, "plan") && !strcmp(key, "example"))
		q->example = value;
	else if (!strcmp(q->tab, "decode") && !strcmp(key, "part"))
		q->part = value;
	else if (!strcmp(key, "format") || !strcmp(key, "pretty"))
		; /* the API's own options, not settings */
	else
		q->rc = nicfit_spec_add(q->spec, key, value, q->err);
}

/* The example's settings that the link does not set itself. */
static int add_example(struct query *q, struct nicfit_spec *link)
{
	const struct nicfit_plan_example *x;
	size_t i;

	for (x = nicfit_plan_examples; x->name; x++)
		if (!strcmp(x->name, q->example))
			break;
	if (!x->name)
		return nicfit_error_at(q->err, NICFIT_E_NOTFOUND, "example", 0, 0,
				       "no example '%.64s' (see /api/plan/examples)", q->example);
	for (i = 0; x->pairs[i] && x->pairs[i + 1]; i += 2) {
		size_t k, set = 0;
		int rc;

		for (k = 0; k < link->n; k++)
			if (!strcmp(link->pairs[k].key, x->pairs[i]))
				set = 1;
		if (!set && (rc = nicfit_spec_add(q->spec, x->pairs[i], x->pairs[i + 1], q->err)))
			return rc;
	}
	return 0;
}

/* ---- the answer ----------------------------------------------------------- */

/* The text report: its first paragraph as the heading, the rest as it is. */
static void answer_html(struct nicfit_buf *b, const char *text, size_t len)
{
	const char *brk = NULL, *p;
	size_t head;

	for (p = text; p + 1 < text + len; p++)
		if (p[0] == '\n' && p[1] == '\n') {
			brk = p;
			break;
		}
	/* A report that opens with its command's name ("nicfit cluster") is headed by what follows. */
	if (len > 7 && !memcmp(text, "nicfit ", 7) && (p = memchr(text, '\n', len)) && (!brk || p < brk)) {
		len -= (size_t)(p + 1 - text);
		text = p + 1;
	}
	head = brk ? (size_t)(brk - text) : len;
	while (head && text[head - 1] == '\n')
		head--;
	nicfit_buf_puts(b, "<div class=\"served\"><div class=\"served-head\"><h2 class=\"headline\">");
	html_escape(b, text, head);
	nicfit_buf_puts(b, "</h2></div>");
	if (brk) {
		nicfit_buf_puts(b, "<section class=\"block\"><h3>The whole answer</h3><pre>");
		html_escape(b, brk + 2, len - (size_t)(brk + 2 - text));
		nicfit_buf_puts(b, "</pre></section>");
	}
	nicfit_buf_puts(b, "<p class=\"noscript-note\">This answer was written by the server; with "
			"JavaScript on, the page shows it with its tables and picture.</p></div>");
}

/* Append fmt with every %s argument made visible as the emitter does (controls, bidi marks). */
static void escaped_addf(struct nicfit_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nicfit_escaped_vaddf(b, fmt, ap);
	va_end(ap);
}

/* The error, which quotes the link's own values: made visible, then HTML-escaped. */
static void error_html(struct nicfit_buf *b, const struct nicfit_error *err, int rc)
{
	struct nicfit_buf shown;
	char line[1024];

	if (err->code || err->msg[0])
		nicfit_error_line(err, line, sizeof(line));
	else
		snprintf(line, sizeof(line), "%s", nicfit_strerror(rc));
	nicfit_buf_init(&shown, 0);
	escaped_addf(&shown, "%s", line);
	nicfit_buf_puts(b, "<div class=\"error\"><strong>Cannot answer: </strong>");
	if (shown.data)
		html_escape(b, shown.data, shown.len);
	nicfit_buf_puts(b, "</div>");
	nicfit_buf_release(&shown);
}

/*
 * The request the answer is for, as the link gave it (with an example's
 * settings): without the script the form's menus are empty and its
 * defaults show, so the page says in words what it answered.
 */
static void request_html(struct nicfit_buf *b, const struct query *q)
{
	struct nicfit_buf shown;
	size_t k;

	/* outside text: made visible by the one escaper, then HTML-escaped */
	nicfit_buf_init(&shown, 0);
	if (!strcmp(q->tab, "decode") && q->part)
		escaped_addf(&shown, "part = %s", q->part);
	else if (!strcmp(q->tab, "calc"))
		escaped_addf(&shown, "calculator = %s", q->calc ? q->calc : "pcie");
	for (k = 0; k < q->spec->n; k++)
		escaped_addf(&shown, "%s%s = %s", shown.len ? ", " : "", q->spec->pairs[k].key,
			     q->spec->pairs[k].value);
	nicfit_buf_puts(b, "<p class=\"request\"><strong>Answered for:</strong> ");
	if (shown.data)
		html_escape(b, shown.data, shown.len);
	nicfit_buf_puts(b, "</p>");
	nicfit_buf_release(&shown);
}

/* Run the link's request and write its answer (or its error) into b. */
static void render_answer(const struct serve_page *pg, struct query *q, struct nicfit_buf *b)
{
	const struct nicfit_catalog *cat = pg->cat;
	struct nicfit_error *err = q->err;
	struct nicfit_emit *e = NULL;
	struct nicfit_buf out;
	int rc = q->rc;

	nicfit_buf_init(&out, PAGE_MAX);
	if (!rc && q->example) {
		struct nicfit_spec *link = calloc(1, sizeof(*link));
		size_t k;

		rc = link ? 0 : NICFIT_E_NOMEM;
		if (link) {
			nicfit_spec_init(link, "link");
			for (k = 0; k < q->spec->n && !rc; k++)
				rc = nicfit_spec_add(link, q->spec->pairs[k].key, q->spec->pairs[k].value,
						     err);
			if (!rc)
				rc = add_example(q, link);
			nicfit_spec_release(link);
			free(link);
		}
	}
	if (!rc && pg->too_big && pg->too_big(q->spec, err))
		rc = err->code ? err->code : NICFIT_E_LIMIT;
	if (!rc) {
		e = nicfit_emit_new(NICFIT_FMT_TEXT, 0, PAGE_MAX);
		rc = e ? 0 : NICFIT_E_NOMEM;
	}
	if (!rc) {
		if (!strcmp(q->tab, "decode"))
			rc = pg->decode(cat, q->part ? q->part : "", e, err);
		else if (!strcmp(q->tab, "calc"))
			rc = nicfit_calc_run(cat, q->calc ? q->calc : "pcie", q->spec, e, err);
		else
			rc = pg->run(cat, q->spec, e, err);
	}
	if (!rc)
		rc = nicfit_emit_finish(e, &out);
	nicfit_emit_free(e);
	request_html(b, q);
	if (rc)
		error_html(b, err, rc);
	else
		answer_html(b, out.data ? out.data : "", out.len);
	nicfit_buf_release(&out);
}

/* ---- the page ---------------------------------------------------------- */

/* Copy up to the first `mark` in [*p, end) and skip it; 0 when it is not there. */
static int copy_to(struct nicfit_buf *b, const char **p, const char *end, const char *mark)
{
	size_t n = strlen(mark);
	const char *at;

	for (at = *p; at + n <= end; at++)
		if (!memcmp(at, mark, n))
			break;
	if (at + n > end)
		return 0;
	nicfit_buf_add(b, *p, (size_t)(at - *p));
	*p = at + n;
	return 1;
}

int serve_page_write(const struct serve_page *pg, const char *const *pairs, size_t npairs,
		     struct nicfit_buf *b)
{
	const char *end = pg->html + pg->len, *p = pg->html;
	char mark[64], tabmark[64], navmark[64];
	struct nicfit_spec *spec = calloc(1, sizeof(*spec));
	struct nicfit_error err;
	struct query q;
	size_t i;

	if (!spec)
		return NICFIT_E_NOMEM;
	nicfit_spec_init(spec, "link");
	spec->from_data = 1;
	nicfit_error_clear(&err);
	memset(&q, 0, sizeof(q));
	q.spec = spec;
	q.tab = pg->tab;
	q.err = &err;
	for (i = 0; i < npairs; i++)
		query_pair(&q, pairs[2 * i], pairs[2 * i + 1]);

	snprintf(tabmark, sizeof(tabmark), "<section id=\"tab-%s\" class=\"tab\" hidden>", pg->tab);
	snprintf(navmark, sizeof(navmark), "data-tab=\"%s\">", pg->tab);
	snprintf(mark, sizeof(mark), "<!--%s-answer-->", pg->tab);
	/* The address's tab marked in the navigation and shown without the script. */
	if (copy_to(b, &p, end, navmark))
		nicfit_buf_addf(b, "data-tab=\"%s\" aria-current=\"page\">", pg->tab);
	if (copy_to(b, &p, end, tabmark))
		nicfit_buf_addf(b, "<section id=\"tab-%s\" class=\"tab\">", pg->tab);
	if (copy_to(b, &p, end, mark) && q.n)
		render_answer(pg, &q, b);
	nicfit_buf_add(b, p, (size_t)(end - p));
	nicfit_spec_release(spec);
	free(spec);
	return nicfit_buf_error(b);
}

/* The link's settings, as libmicrohttpd hands them over (they live as long as the request). */
struct pairs {
	const char *kv[2 * SERVE_PAGE_MAX_PAIRS];
	size_t n;
};

static enum MHD_Result collect_pair(void *cls, enum MHD_ValueKind kind, const char *key,
				    const char *value)
{
	struct pairs *ps = cls;

	(void)kind;
	if (ps->n < SERVE_PAGE_MAX_PAIRS) {
		ps->kv[2 * ps->n] = key;
		ps->kv[2 * ps->n + 1] = value;
		ps->n++;
	}
	return MHD_YES;
}

enum MHD_Result serve_reply_page(struct request *rq, const struct serve_page *pg)
{
	struct pairs *ps = calloc(1, sizeof(*ps));
	struct nicfit_buf b;
	enum MHD_Result ok;
	int rc;

	if (!ps)
		return MHD_NO;
	MHD_get_connection_values(rq->conn, MHD_GET_ARGUMENT_KIND, collect_pair, ps);
	nicfit_buf_init(&b, PAGE_MAX);
	rc = serve_page_write(pg, ps->kv, ps->n, &b);
	free(ps);
	if (rc) {
		nicfit_buf_release(&b);
		return serve_reply_error(rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "internal",
					 "cannot write the page: %s", nicfit_strerror(rc));
	}
	ok = serve_reply_buf(rq, MHD_HTTP_OK, "text/html; charset=utf-8", &b);
	nicfit_buf_release(&b);
	return ok;
}
