/*
 * reply.c - the answers of `nicfit serve`: every response, page or API,
 * carries the same security headers; errors are {"error": "...", "code":
 * "..."} with the HTTP status that fits a library error; and a route's
 * document is written by an emitter in the format ?format= asks for. What
 * is answered where is api.c's and serve.c's business.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve_int.h"
#include "nicfit/budget.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"

#define OUT_MAX ((size_t)16 << 20) /* largest answer a renderer may write */

static const char security_csp[] =
	"default-src 'self'; img-src 'self' blob: data:; object-src 'none'; "
	"base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/* ---- responses ------------------------------------------------------- */

void serve_add_headers(struct MHD_Response *r, const char *ctype, int cacheable)
{
	if (ctype)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	MHD_add_response_header(r, "Content-Security-Policy", security_csp);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "X-Frame-Options", "DENY");
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(r, "Cross-Origin-Opener-Policy", "same-origin");
	MHD_add_response_header(r, "Cross-Origin-Resource-Policy", "same-origin");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
				cacheable ? "no-cache" : "no-store");
}

enum MHD_Result serve_queue(struct request *rq, unsigned status, struct MHD_Response *r,
			    size_t bytes)
{
	enum MHD_Result ok;

	if (!r)
		return MHD_NO;
	ok = MHD_queue_response(rq->conn, status, r);
	/* a cacheable request's answer is kept (cache.c holds our reference) */
	if (status == MHD_HTTP_OK && rq->ckey && ok == MHD_YES)
		serve_cache_put(&rq->srv->cache, rq->ckey, rq->ckey_len, r, bytes);
	else
		MHD_destroy_response(r);
	rq->answered = 1;
	rq->status = status;
	rq->bytes = bytes;
	return ok;
}

/* Send b (its contents are handed over) with the given status and type. */
enum MHD_Result serve_reply_buf(struct request *rq, unsigned status, const char *ctype,
				struct nicfit_buf *b)
{
	struct MHD_Response *r;
	size_t len;
	char *data;

	if (nicfit_budget_end()) {
		nicfit_buf_release(b);
		return serve_reply_budget(rq);
	}
	data = nicfit_buf_detach(b, &len);
	if (!data)
		return MHD_NO;
	r = MHD_create_response_from_buffer(len, data, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(data);
		return MHD_NO;
	}
	serve_add_headers(r, ctype, 0);
	return serve_queue(rq, status, r, len);
}

/* {"error": msg, "code": code} with an HTTP status; Allow: for a 405. */
static enum MHD_Result reply_error_allow(struct request *rq, unsigned status, const char *code,
					 const char *msg, const char *allow)
{
	struct MHD_Response *r;
	struct nicfit_buf out;
	size_t len;
	char *data;

	/* the request's work ended because its CPU budget was spent: say that */
	if (nicfit_budget_end())
		return serve_reply_budget(rq);
	nicfit_buf_init(&out, OUT_MAX);
	if (serve_error_body(&out, code, msg)) {
		nicfit_buf_release(&out);
		return MHD_NO;
	}
	data = nicfit_buf_detach(&out, &len);
	if (!data)
		return MHD_NO;
	r = MHD_create_response_from_buffer(len, data, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(data);
		return MHD_NO;
	}
	serve_add_headers(r, "application/json", 0);
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	if (status == MHD_HTTP_SERVICE_UNAVAILABLE) {
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	}
	return serve_queue(rq, status, r, len);
}

enum MHD_Result serve_reply_error(struct request *rq, unsigned status, const char *code,
				  const char *fmt, ...)
{
	char msg[SERVE_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return reply_error_allow(rq, status, code, msg, NULL);
}

enum MHD_Result serve_reply_budget(struct request *rq)
{
	nicfit_budget_end();
	rq->over_budget = 1;
	return serve_reply_error(rq, MHD_HTTP_CONTENT_TOO_LARGE, "limit",
				 "the request needs more than the server's %u ms of CPU (--cpu-budget); "
				 "run it with the command line, which has no such limit",
				 rq->srv->o->cpu_budget_ms);
}

enum MHD_Result serve_reply_verdict(struct request *rq, const struct serve_verdict *v)
{
	const char *allow = NULL;

	if (v->status == MHD_HTTP_METHOD_NOT_ALLOWED)
		allow = v->allow & M_POST ? "POST" : "GET, HEAD";
	return reply_error_allow(rq, v->status, v->code, v->msg, allow);
}

/* The HTTP status and code word for a library error. */
static unsigned http_status(int code, const char **word)
{
	switch (code) {
	case NICFIT_E_USAGE:
		*word = "usage";
		return MHD_HTTP_BAD_REQUEST;
	case NICFIT_E_DATA:
		*word = "data";
		return MHD_HTTP_BAD_REQUEST;
	case NICFIT_E_LIMIT:
		*word = "limit";
		return MHD_HTTP_BAD_REQUEST;
	case NICFIT_E_NOTFOUND:
		*word = "not_found";
		return MHD_HTTP_NOT_FOUND;
	case NICFIT_E_NOMEM:
		*word = "nomem";
		return MHD_HTTP_INTERNAL_SERVER_ERROR;
	default:
		*word = "internal";
		return MHD_HTTP_INTERNAL_SERVER_ERROR;
	}
}

enum MHD_Result serve_reply_nicfit_error(struct request *rq, int rc,
					 const struct nicfit_error *err)
{
	const char *word;
	unsigned status = http_status(err->code ? err->code : rc, &word);
	char line[1024];

	nicfit_error_line(err, line, sizeof(line));
	return serve_reply_error(rq, status, word, "%s", line);
}

/* ---- output format ---------------------------------------------------- */

static const char *query(struct request *rq, const char *key)
{
	return MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, key);
}

static const char *format_ctype(enum nicfit_format f)
{
	switch (f) {
	case NICFIT_FMT_TEXT:
		return "text/plain; charset=utf-8";
	case NICFIT_FMT_MD:
		return "text/markdown; charset=utf-8";
	case NICFIT_FMT_CSV:
		return "text/csv; charset=utf-8";
	case NICFIT_FMT_SVG:
		return "image/svg+xml";
	default:
		return "application/json";
	}
}

/*
 * The emitter for ?format= (json when absent) and ?pretty. NULL after
 * queueing the error answer (*ok has the result for libmicrohttpd).
 */
struct nicfit_emit *serve_request_emitter(struct request *rq, enum MHD_Result *ok)
{
	static const struct { const char *n; enum nicfit_format f; } t[] = {
		{ "json", NICFIT_FMT_JSON }, { "text", NICFIT_FMT_TEXT },
		{ "md", NICFIT_FMT_MD }, { "markdown", NICFIT_FMT_MD },
		{ "csv", NICFIT_FMT_CSV }, { "svg", NICFIT_FMT_SVG },
	};
	const char *v = query(rq, "format"), *p = query(rq, "pretty");
	enum nicfit_format f = NICFIT_FMT_JSON;
	unsigned flags = 0;
	struct nicfit_emit *e;
	size_t i;

	if (v) {
		for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
			if (!strcmp(v, t[i].n))
				break;
		if (i == sizeof(t) / sizeof(t[0])) {
			*ok = serve_reply_error(rq, MHD_HTTP_BAD_REQUEST, "usage",
						"format '%.32s': use json, text, md, csv%s", v,
						rq->route->flags & R_SVG ? " or svg" : "");
			return NULL;
		}
		f = t[i].f;
		if (f == NICFIT_FMT_SVG && !(rq->route->flags & R_SVG)) {
			*ok = serve_reply_error(rq, MHD_HTTP_BAD_REQUEST, "usage",
						"format svg: %s draws no picture; use json, text, md or csv",
						rq->path);
			return NULL;
		}
	}
	if (p && (!*p || !strcmp(p, "1") || !strcmp(p, "true")))
		flags |= NICFIT_EMIT_PRETTY;
	e = nicfit_emit_new(f, flags, OUT_MAX);
	if (!e)
		*ok = MHD_NO;
	return e;
}

/* Finish e into an answer (200) and free it. */
enum MHD_Result serve_reply_emit(struct request *rq, struct nicfit_emit *e)
{
	enum nicfit_format f = nicfit_emit_format(e);
	struct nicfit_buf out;
	int rc;

	nicfit_buf_init(&out, OUT_MAX);
	rc = nicfit_emit_finish(e, &out);
	nicfit_emit_free(e);
	if (rc) {
		nicfit_buf_release(&out);
		return serve_reply_error(rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "internal",
					 "cannot render the result: %s", nicfit_strerror(rc));
	}
	return serve_reply_buf(rq, MHD_HTTP_OK, format_ctype(f), &out);
}
