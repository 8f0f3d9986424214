/*
 * assets.c - the page of `nicfit serve`: the files of src/serve/assets/,
 * compiled in by tools/embed.c (assets.h), each answered from one response
 * built at start and shared by every request, with an ETag so a browser
 * revalidates instead of fetching again. Assets are matched by exact name;
 * there is no file-system path.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "assets.h"
#include "serve_int.h"

static const char *asset_ctype(const char *name)
{
	static const struct { const char *ext, *type; } t[] = {
		{ ".html", "text/html; charset=utf-8" },
		{ ".css", "text/css; charset=utf-8" },
		{ ".js", "text/javascript; charset=utf-8" },
		{ ".svg", "image/svg+xml" },
		{ ".png", "image/png" },
		{ ".json", "application/json" },
		{ ".txt", "text/plain; charset=utf-8" },
	};
	const char *dot = strrchr(name, '.');
	size_t i;

	for (i = 0; dot && i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(dot, t[i].ext))
			return t[i].type;
	return "application/octet-stream";
}

int serve_assets_load(struct server *s, struct nicfit_error *err)
{
	const struct nicfit_asset *b;

	for (b = nicfit_asset_blobs; b->name; b++) {
		struct asset *a;
		unsigned long long h = 1469598103934665603ull;
		size_t i;

		if (s->nassets == MAX_ASSETS)
			return nicfit_error_set(err, NICFIT_E_INTERNAL, "more than %d page assets",
						MAX_ASSETS);
		a = &s->assets[s->nassets];
		for (i = 0; i < b->len; i++)
			h = (h ^ (unsigned char)b->data[i]) * 1099511628211ull;
		snprintf(a->etag, sizeof(a->etag), "\"%016llx\"", h);
		a->name = b->name;
		a->data = b->data;
		a->len = b->len;
		a->resp = MHD_create_response_from_buffer(b->len, (void *)(uintptr_t)b->data,
							  MHD_RESPMEM_PERSISTENT);
		if (!a->resp)
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		serve_add_headers(a->resp, asset_ctype(b->name), 1);
		MHD_add_response_header(a->resp, MHD_HTTP_HEADER_ETAG, a->etag);
		if (!strcmp(b->name, "index.html"))
			s->index = a;
		s->nassets++;
	}
	return 0;
}

void serve_assets_free(struct server *s)
{
	int i;

	for (i = 0; i < s->nassets; i++)
		MHD_destroy_response(s->assets[i].resp);
	s->nassets = 0;
}

struct asset *serve_match_asset(struct server *s, const char *url)
{
	int i;

	if (url[0] != '/' || strchr(url + 1, '/'))
		return NULL;
	for (i = 0; i < s->nassets; i++)
		if (!strcmp(url + 1, s->assets[i].name))
			return &s->assets[i];
	return NULL;
}

/* An embedded asset, answering 304 when the client has this version. */
enum MHD_Result serve_reply_asset(struct request *rq, struct asset *a)
{
	const char *inm = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND,
						      MHD_HTTP_HEADER_IF_NONE_MATCH);
	struct MHD_Response *r;
	enum MHD_Result ok;

	if (inm && strstr(inm, a->etag)) {
		r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
		if (!r)
			return MHD_NO;
		serve_add_headers(r, NULL, 1);
		MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, a->etag);
		return serve_queue(rq, MHD_HTTP_NOT_MODIFIED, r, 0);
	}
	ok = MHD_queue_response(rq->conn, MHD_HTTP_OK, a->resp);
	rq->answered = 1;
	rq->status = MHD_HTTP_OK;
	rq->bytes = a->len;
	return ok;
}

