/*
 * fuzz_page.c - the page the server writes for a shared link (src/serve/
 * page.c), without a socket. The first byte picks the tab (plan, cluster,
 * decode, calc); the rest is the link's query, split at '&' (and NUL) into
 * pairs and at the first '=' into key and value, as libmicrohttpd hands
 * them over after decoding. Checks that the answer the server wrote into
 * the page holds only the page's own markup: every '<' opens one of its
 * tags, every '&' one of its entities, and no control byte but newline.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/serve/serve_int.h"
#include "../../src/serve/assets.h"
#include "nicfit/catalog.h"

/* How many times c occurs, and how many "</option>", in [p, end). */
static void count_form(const char *p, const char *end, size_t *lt, size_t *gt, size_t *opts)
{
	*lt = *gt = *opts = 0;
	for (; p < end; p++) {
		*lt += *p == '<';
		*gt += *p == '>';
		*opts += (size_t)(end - p) >= 9 && !memcmp(p, "</option>", 9);
	}
}

/* The [start, end) of tab's <form> in page, or 0. */
static int form_of(const char *page, size_t len, const char *tab, const char **start, const char **end)
{
	char open[64];
	const char *stop = page + len, *p, *q;

	snprintf(open, sizeof(open), "<form id=\"%s-form\"", tab);
	p = strstr(page, open);
	q = p ? strstr(p, "</form>") : NULL;
	if (!p || !q || q > stop)
		return 0;
	*start = p;
	*end = q;
	return 1;
}

/*
 * The tab's form with the link's values written into its fields: no
 * markup but the page's own, and an option of its own for a value a menu
 * lacks (two '<' and two '>' each): a value that broke out of its
 * attribute would add more.
 */
static void check_form(const char *page, size_t len, const char *html, size_t hlen, const char *tab)
{
	const char *a, *b, *c, *d;
	size_t lt, gt, opts, lt0, gt0, opts0;

	if (!form_of(page, len, tab, &a, &b) || !form_of(html, hlen, tab, &c, &d))
		abort(); /* the page lost its form */
	count_form(a, b, &lt, &gt, &opts);
	count_form(c, d, &lt0, &gt0, &opts0);
	if (opts < opts0 || lt - lt0 != 2 * (opts - opts0) || gt - gt0 != 2 * (opts - opts0))
		abort(); /* markup in the form that is not the page's own */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const tags[] = {
	"<div class=\"served\">", "<div class=\"served-head\">", "<h2 class=\"headline\">", "</h2>",
	"</div>", "<section class=\"block\">", "<h3>", "</h3>", "<pre tabindex=\"0\">", "</pre>", "</section>",
	"<p class=\"noscript-note\">", "</p>", "<div class=\"error\">", "<strong>", "</strong>",
	"<p class=\"request\">", NULL,
};
static const char *const entities[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;", NULL };

static int starts_one(const char *p, const char *end, const char *const *list)
{
	size_t i;

	for (i = 0; list[i]; i++) {
		size_t n = strlen(list[i]);

		if ((size_t)(end - p) >= n && !memcmp(p, list[i], n))
			return 1;
	}
	return 0;
}

static void check_answer(const char *page, size_t len, const char *tab)
{
	char open[64];
	const char *start, *end, *p, *stop = page + len;

	snprintf(open, sizeof(open), "id=\"%s-result\"", tab);
	start = strstr(page, open);
	if (!start || !(start = strchr(start, '>')))
		abort(); /* the page lost its result box */
	start++;
	end = strstr(start, "</div>\n  </section>");
	if (!end || end > stop)
		abort();
	for (p = start; p < end; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c < 0x20 && c != '\n') || c == 0x7f)
			abort(); /* a control byte reached the page */
		if (c == '<' && !starts_one(p, end, tags))
			abort(); /* markup that is not the page's own */
		if (c == '&' && !starts_one(p, end, entities))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const tabs[] = { "plan", "cluster", "decode", "calc" };
	static struct nicfit_catalog *cat;
	const struct nicfit_asset *a;
	const char *kv[2 * SERVE_PAGE_MAX_PAIRS];
	struct serve_page pg;
	struct nicfit_buf out;
	size_t n = 0, i;
	char *q;

	if (!size || size > 4096)
		return 0;
	if (!cat && nicfit_catalog_new(&cat, NULL))
		abort();
	for (a = nicfit_asset_blobs; a->name && strcmp(a->name, "index.html"); a++)
		;
	if (!a->name)
		abort();
	q = malloc(size);
	if (!q)
		return 0;
	memcpy(q, data + 1, size - 1);
	q[size - 1] = '\0';
	for (i = 0; i < size - 1; i++)
		if (q[i] == '&')
			q[i] = '\0';
	for (i = 0; i < size - 1;) {
		char *seg = q + i, *eq;
		size_t len = strlen(seg);

		i += len + 1;
		if (!len || n == SERVE_PAGE_MAX_PAIRS)
			continue;
		eq = strchr(seg, '=');
		if (eq)
			*eq = '\0';
		kv[2 * n] = seg;
		kv[2 * n + 1] = eq ? eq + 1 : "";
		n++;
	}
	serve_page_init(&pg, tabs[data[0] % 4], cat, a->data, a->len);
	nicfit_buf_init(&out, 0);
	if (!serve_page_write(&pg, kv, n, &out) && out.data) {
		check_answer(out.data, out.len, pg.tab);
		check_form(out.data, out.len, a->data, a->len, pg.tab);
	}
	nicfit_buf_release(&out);
	free(q);
	return 0;
}
