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
#include <stddef.h>
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
	const struct nicfit_catalog *cat;
	char count[16];        /* a baseboard's GPU count, as the form shows it */
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

/*
 * An example's settings under the link's own, into q->spec, once: the
 * form shows them and the answer is made with them (q->rc on error).
 */
static void merge_example(struct query *q)
{
	struct nicfit_spec *link;
	size_t k;
	int rc = 0;

	if (q->rc || !q->example)
		return;
	link = calloc(1, sizeof(*link));
	if (!link) {
		q->rc = NICFIT_E_NOMEM;
		return;
	}
	nicfit_spec_init(link, "link");
	for (k = 0; k < q->spec->n && !rc; k++)
		rc = nicfit_spec_add(link, q->spec->pairs[k].key, q->spec->pairs[k].value, q->err);
	if (!rc)
		rc = add_example(q, link);
	nicfit_spec_release(link);
	free(link);
	q->rc = rc;
}

/* ---- the form, filled in with the request ---------------------------------- */

/*
 * Without the script the form would show its defaults (and empty menus)
 * above an answer made for other settings: the server writes the link's
 * settings into the fields, as the script would set them.
 */

/* The first s in [p, end), or NULL. */
static const char *find_in(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	for (; p && p + n <= end; p++)
		if (*p == *s && !memcmp(p, s, n))
			return p;
	return NULL;
}

static const char *request_value(struct query *q, const char *key);

/*
 * A baseboard server's GPU and count, which the plan uses whatever the
 * form says (the script locks both fields to them): shown when the link
 * does not set them.
 */
static const char *baseboard_value(struct query *q, const char *key)
{
	const char *id = request_value(q, "server");
	const struct nicfit_server *sv = id && q->cat ? nicfit_catalog_find_server(q->cat, id, "server",
										 NULL) : NULL;
	int i, n = 0;

	if (!sv || !sv->baseboard_gpu)
		return NULL;
	if (!strcmp(key, "gpu"))
		return sv->baseboard_gpu;
	for (i = 0; i < sv->nslots; i++)
		n += sv->slots[i].gpu == NICFIT_GPU_BASEBOARD ||
		     (sv->slots[i].kind && !strcmp(sv->slots[i].kind, "baseboard"));
	if (!n)
		return NULL;
	snprintf(q->count, sizeof(q->count), "%d", n);
	return q->count;
}

/* The value the request gives the field key, or NULL (the spec's last value; nothing marked used). */
static const char *request_value(struct query *q, const char *key)
{
	const char *v = NULL;
	size_t k;

	if (!strcmp(key, "part") && !strcmp(q->tab, "decode"))
		return q->part;
	if (!strcmp(key, "calc") && !strcmp(q->tab, "calc"))
		return q->calc;
	if (!strcmp(key, "example") && !strcmp(q->tab, "plan"))
		return q->example;
	for (k = 0; k < q->spec->n; k++)
		if (!strcmp(q->spec->pairs[k].key, key))
			v = q->spec->pairs[k].value;
	if (!v && !strcmp(q->tab, "plan") && (!strcmp(key, "gpu") || !strcmp(key, "gpus_per_server")))
		v = baseboard_value(q, key);
	return v;
}

/* The value of attribute attr of the tag [t, e) into out (cap bytes); 0 when it has none. */
static int tag_attr(const char *t, const char *e, const char *attr, char *out, size_t cap)
{
	size_t n = strlen(attr);
	const char *p;

	for (p = t + 1; p + n + 2 < e; p++)
		if (p[-1] == ' ' && !memcmp(p, attr, n) && p[n] == '=' && p[n + 1] == '"') {
			const char *v = p + n + 2, *z = memchr(v, '"', (size_t)(e - v));

			if (!z || (size_t)(z - v) >= cap)
				return 0;
			memcpy(out, v, (size_t)(z - v));
			out[z - v] = '\0';
			return 1;
		}
	return 0;
}

/* Copy the tag [t, e) (e at its '>') without the boolean attribute word (" selected", " checked"). */
static void copy_without(struct nicfit_buf *b, const char *t, const char *e, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = t; p + n <= e; p++)
		if (!memcmp(p, word, n) && (p + n == e || p[n] == ' ' || p[n] == '>')) {
			nicfit_buf_add(b, t, (size_t)(p - t));
			t = p + n;
			break;
		}
	nicfit_buf_add(b, t, (size_t)(e - t));
}

/* An <input> tag [t, e] with the request's value v: value="v", or a box ticked when v is its value. */
static void fill_input(struct nicfit_buf *b, const char *t, const char *e, const char *v)
{
	char type[16], on[16];

	if (tag_attr(t, e, "type", type, sizeof(type)) && !strcmp(type, "checkbox")) {
		copy_without(b, t, e, " checked");
		if (tag_attr(t, e, "value", on, sizeof(on)) && !strcmp(on, v))
			nicfit_buf_puts(b, " checked");
		nicfit_buf_puts(b, ">");
		return;
	}
	/* the tag without its value="..." (the default), then the request's */
	{
		const char *a = NULL, *p, *z;

		for (p = t; p + 8 < e; p++)
			if (!memcmp(p, " value=\"", 8)) {
				a = p;
				break;
			}
		z = a ? memchr(a + 8, '"', (size_t)(e - a - 8)) : NULL;
		if (a && z) {
			nicfit_buf_add(b, t, (size_t)(a - t));
			nicfit_buf_add(b, z + 1, (size_t)(e - z - 1));
		} else {
			nicfit_buf_add(b, t, (size_t)(e - t));
		}
	}
	nicfit_buf_puts(b, " value=\"");
	html_escape(b, v, strlen(v));
	nicfit_buf_puts(b, "\">");
}

/*
 * A <select> [t, end) (end at its "</select>") with the request's value v
 * chosen: the option of that value selected and no other, or, for a menu
 * the script fills from the catalog (empty here), an option of v's own.
 */
static void fill_select(struct nicfit_buf *b, const char *t, const char *end, const char *v)
{
	const char *p = t, *o;
	int found = 0;

	while ((o = find_in(p + 1, end, "<option"))) {
		const char *gt = memchr(o, '>', (size_t)(end - o)), *close;
		char val[128];
		size_t len;

		if (!gt)
			break;
		nicfit_buf_add(b, p, (size_t)(o - p));
		if (!tag_attr(o, gt, "value", val, sizeof(val))) {
			/* <option>bf16</option>: the text is the value */
			close = find_in(gt, end, "</option>");
			len = close ? (size_t)(close - gt - 1) : 0;
			if (len >= sizeof(val))
				len = 0;
			memcpy(val, gt + 1, len);
			val[len] = '\0';
		}
		copy_without(b, o, gt, " selected");
		if (!found && !strcmp(val, v)) {
			nicfit_buf_puts(b, " selected");
			found = 1;
		}
		nicfit_buf_puts(b, ">");
		p = gt + 1;
	}
	nicfit_buf_add(b, p, (size_t)(end - p));
	if (!found) {
		nicfit_buf_puts(b, "<option value=\"");
		html_escape(b, v, strlen(v));
		nicfit_buf_puts(b, "\" selected>");
		html_escape(b, v, strlen(v));
		nicfit_buf_puts(b, "</option>");
	}
}

/* The form HTML [p, end) into b with the request's values in its fields. */
static void fill_form(struct nicfit_buf *b, const char *p, const char *end, struct query *q)
{
	while (p < end) {
		const char *t = p, *e, *v;
		char name[64];
		int sel;

		while (t < end && !(*t == '<' && ((t + 6 < end && !memcmp(t, "<input", 6)) ||
						 (t + 7 < end && !memcmp(t, "<select", 7)))))
			t++;
		nicfit_buf_add(b, p, (size_t)(t - p));
		if (t >= end || !(e = memchr(t, '>', (size_t)(end - t))))
			return;
		sel = t[1] == 's';
		v = NULL;
		if (tag_attr(t, e, "name", name, sizeof(name)))
			v = request_value(q, name);
		/* the plan's "Start from a case" menu shows the example the link names */
		else if (sel && tag_attr(t, e, "id", name, sizeof(name)) && !strcmp(name, "plan-examples"))
			v = request_value(q, "example");
		if (!v || !*v) {
			nicfit_buf_add(b, t, (size_t)(e + 1 - t));
			p = e + 1;
			continue;
		}
		if (!sel) {
			fill_input(b, t, e, v);
			p = e + 1;
			continue;
		}
		{
			const char *close = find_in(e, end, "</select>");

			if (!close)
				close = end;
			fill_select(b, t, close, v);
			p = close;
		}
	}
}

/* ---- the report's options as the page's fields ------------------------------ */

/*
 * The text report names settings as the command line does ("--backend-cards
 * 2", "leave out --gpu", "with --catalog"); on the page a setting is a
 * field of the form, so each option becomes the name of the field that
 * sets it, taken from the page's own form (the <label> around it), with
 * its value; one without a field becomes the key the address takes.
 */

/* The label of the field key in tab's form of the page html, into out; 0 when the form has none. */
static int field_label(const struct serve_page *pg, const char *tab, const char *key, char *out,
		       size_t cap)
{
	const char *end = pg->html + pg->len, *form, *stop, *at, *lab, *t;
	char mark[96];
	size_t n;

	snprintf(mark, sizeof(mark), "<form id=\"%s-form\"", tab);
	form = find_in(pg->html, end, mark);
	stop = form ? find_in(form, end, "</form>") : NULL;
	snprintf(mark, sizeof(mark), " name=\"%s\"", key);
	at = stop ? find_in(form, stop, mark) : NULL;
	if (!at)
		return 0;
	for (lab = at; lab > form && memcmp(lab, "<label", 6); lab--)
		;
	if (lab <= form)
		return 0;
	/* the text after <label ...>, or, for a box inside its label, the text after the box */
	t = memchr(lab, '>', (size_t)(at - lab));
	t = t ? t + 1 : at;
	while (t < at && (*t == ' ' || *t == '\n'))
		t++;
	if (t >= at || *t == '<')
		t = memchr(at, '>', (size_t)(stop - at)) ? (const char *)memchr(at, '>', (size_t)(stop - at)) + 1 : stop;
	while (t < stop && *t == ' ')
		t++;
	for (n = 0; t + n < stop && t[n] != '<' && t[n] != '\n' && n + 1 < cap; n++)
		out[n] = t[n];
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	return n > 0;
}

/*
 * Length of the option's value at s ("2", "infiniband", "mfu=", "ddp|zero1"),
 * 0 for none or a placeholder ("ID", consumed: *skip covers it), and none
 * when the next word is the sentence's ("give --backend-nic only for ...").
 */
static size_t option_value(const char *s, const char *end, size_t *skip)
{
	static const char *const words[] = { "only", "for", "to", "and", "or", "with", "instead", "if",
					     "in", "on", "the", "a", "an", "also", "picks", "lists", NULL };
	size_t n = 0, caps = 1, i;

	*skip = 0;
	if (s >= end || (*s != ' ' && *s != '=') || s + 1 >= end || s[1] == '-' ||
	    !((s[1] >= 'a' && s[1] <= 'z') || (s[1] >= 'A' && s[1] <= 'Z') || (s[1] >= '0' && s[1] <= '9')))
		return 0;
	for (s++; s + n < end && (strchr("._:|=-", s[n]) || (s[n] >= 'a' && s[n] <= 'z') ||
				  (s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= '0' && s[n] <= '9')); n++)
		caps &= s[n] >= 'A' && s[n] <= 'Z';
	while (n && (s[n - 1] == '.' || s[n - 1] == ':'))
		n--;
	for (i = 0; words[i]; i++)
		if (strlen(words[i]) == n && !memcmp(words[i], s, n))
			return 0;
	*skip = n + 1;
	return caps ? 0 : n;
}

/* One option at s ("--backend-cards 2", after "leave out " when leave) as the page says it, into o. */
static const char *option_words(const struct serve_page *pg, const char *tab, const char *s,
				const char *end, int leave, struct nicfit_buf *o)
{
	char key[48], label[96];
	size_t n = 0, skip, v;

	for (s += 2; s + n < end && n + 1 < sizeof(key) &&
		     ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '-'); n++)
		key[n] = s[n] == '-' ? '_' : s[n];
	key[n] = '\0';
	s += n;
	v = option_value(s, end, &skip);
	if (!strcmp(key, "catalog")) {
		nicfit_buf_puts(o, "a catalog file given to the server when it starts");
		return s + skip;
	}
	if (!strncmp(key, "no_", 3) && field_label(pg, tab, key + 3, label, sizeof(label))) {
		nicfit_buf_addf(o, "untick \"%s\"", label);
		return s;
	}
	if (field_label(pg, tab, key, label, sizeof(label))) {
		if (leave)
			nicfit_buf_addf(o, "leave \"%s\" empty", label);
		else if (v && !memchr(s + 1, '|', v) && s[v] != '=')
			nicfit_buf_addf(o, "\"%s\" = %.*s", label, (int)v, s + 1);
		else
			nicfit_buf_addf(o, "\"%s\"", label);
		return s + skip;
	}
	/* no field: the key the address takes ("parallel=… in the address (ddp|zero1|...)") */
	if (v && memchr(s + 1, '|', v))
		nicfit_buf_addf(o, "%s=… in the address (%.*s)", key, (int)v, s + 1);
	else
		nicfit_buf_addf(o, "%s=%.*s%s in the address", key, (int)v, s + 1,
				!v || s[v] == '=' ? "…" : "");
	return s + skip;
}

/* The text report [s, end) into o with its options as the page's fields. */
static void page_words(const struct serve_page *pg, const char *tab, const char *s, const char *end,
		       struct nicfit_buf *o)
{
	static const char *const tabs[][2] = { { "plan", "Plan" }, { "cluster", "Cluster" },
					       { "decode", "Decode a part" }, { "calc", "Calculators" } };

	while (s < end) {
		const char *t = s;
		const char *other = tab;
		int leave = 0;
		size_t k;

		while (t + 2 < end && !(t[0] == '-' && t[1] == '-' && t[2] >= 'a' && t[2] <= 'z' &&
					(t == s || !(t[-1] == '-' || (t[-1] >= 'a' && t[-1] <= 'z')))))
			t++;
		if (t + 2 >= end) {
			nicfit_buf_add(o, s, (size_t)(end - s));
			return;
		}
		/* "nicfit cluster --nodes N": the tab of that command, its options its fields */
		for (k = 0; k < sizeof(tabs) / sizeof(tabs[0]); k++) {
			size_t n = strlen(tabs[k][0]);

			if (t - s >= (ptrdiff_t)(n + 8) && !memcmp(t - n - 8, "nicfit ", 7) &&
			    !memcmp(t - n - 1, tabs[k][0], n) && t[-1] == ' ') {
				nicfit_buf_add(o, s, (size_t)(t - n - 8 - s));
				nicfit_buf_addf(o, "the %s tab of this page with ", tabs[k][1]);
				other = tabs[k][0];
				break;
			}
		}
		if (other == tab) {
			leave = t - s >= 10 && !memcmp(t - 10, "leave out ", 10);
			nicfit_buf_add(o, s, (size_t)(t - s - (leave ? 10 : 0)));
		}
		s = option_words(pg, other, t, end, leave, o);
		/* the command's further options: its other fields */
		while (other != tab && s + 3 < end && s[0] == ' ' && s[1] == '-' && s[2] == '-') {
			nicfit_buf_puts(o, " and ");
			s = option_words(pg, other, s + 1, end, 0, o);
		}
	}
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
		nicfit_buf_puts(b, "<section class=\"block\"><h3>The whole answer</h3><pre tabindex=\"0\">");
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
	if (rc) {
		error_html(b, err, rc);
	} else {
		struct nicfit_buf words;

		nicfit_buf_init(&words, PAGE_MAX);
		/* a part's notes name plan options ("give it with --frontend-nic"): the Plan tab's fields */
		if (out.data)
			page_words(pg, strcmp(q->tab, "decode") ? q->tab : "plan", out.data,
				   out.data + out.len, &words);
		answer_html(b, words.data ? words.data : "", words.len);
		nicfit_buf_release(&words);
	}
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
	q.cat = pg->cat;
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
	merge_example(&q);
	{
		const char *at = find_in(p, end, mark);

		/* the tab's form, with the link's settings in its fields */
		if (at && q.n) {
			fill_form(b, p, at, &q);
			p = at;
		}
	}
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
