/*
 * serve.c - the HTTP side of `nicfit serve` (see serve.h).
 *
 * libmicrohttpd calls on_request() several times per request: once when
 * the headers are in (where the route, method, Host, Content-Type and
 * Content-Length are checked, so a bad request is refused before its body
 * is read), once per piece of body (kept up to max_body, then counted and
 * dropped), and once at the end, where the route's handler runs the
 * library function and queues the answer. Every answer, page or API,
 * carries the same security headers; errors are {"error": "...", "code":
 * "..."} with the HTTP status that fits.
 *
 * Routes are one table: a path (a prefix when it ends in '/'), the methods,
 * a handler, and for spec routes the library function that runs the spec.
 * Page assets are the files of src/serve/assets/ compiled in by
 * tools/embed.c, matched by exact name; there is no file-system path.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "assets.h"
#include "serve.h"
#include "nicfit/calc.h"
#include "nicfit/catalog.h"
#include "nicfit/audit.h"
#include "nicfit/cluster.h"
#include "nicfit/dynlib.h"
#include "nicfit/emit.h"
#include "nicfit/partno.h"
#include "nicfit/plan.h"
#include "nicfit/spec.h"
#include "nicfit/topo.h"
#include "nicfit/version.h"

/*
 * libmicrohttpd, loaded when `serve` starts (see nicfit/dynlib.h), so the
 * other commands do not pay for it: its functions are called through this
 * table, under their own names.
 */
static struct {
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_get_connection_info) *get_connection_info;
	__typeof__(MHD_get_daemon_info) *get_daemon_info;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_quiesce_daemon) *quiesce_daemon;
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
} mhd;

static const struct nicfit_dynsym mhd_syms[] = {
	{ "MHD_add_response_header", (void **)&mhd.add_response_header },
	{ "MHD_create_response_from_buffer", (void **)&mhd.create_response_from_buffer },
	{ "MHD_destroy_response", (void **)&mhd.destroy_response },
	{ "MHD_get_connection_info", (void **)&mhd.get_connection_info },
	{ "MHD_get_daemon_info", (void **)&mhd.get_daemon_info },
	{ "MHD_lookup_connection_value", (void **)&mhd.lookup_connection_value },
	{ "MHD_queue_response", (void **)&mhd.queue_response },
	{ "MHD_quiesce_daemon", (void **)&mhd.quiesce_daemon },
	{ "MHD_start_daemon", (void **)&mhd.start_daemon },
	{ "MHD_stop_daemon", (void **)&mhd.stop_daemon }
};

static const char *const mhd_sonames[] = { "libmicrohttpd.so.12", "libmicrohttpd.so", NULL };

static struct nicfit_dynlib mhd_lib = {
	"libmicrohttpd", mhd_sonames, "libmicrohttpd12", mhd_syms,
	sizeof(mhd_syms) / sizeof(mhd_syms[0]), 0, ""
};

#define MHD_add_response_header (*mhd.add_response_header)
#define MHD_create_response_from_buffer (*mhd.create_response_from_buffer)
#define MHD_destroy_response (*mhd.destroy_response)
#define MHD_get_connection_info (*mhd.get_connection_info)
#define MHD_get_daemon_info (*mhd.get_daemon_info)
#define MHD_lookup_connection_value (*mhd.lookup_connection_value)
#define MHD_queue_response (*mhd.queue_response)
#define MHD_quiesce_daemon (*mhd.quiesce_daemon)
#define MHD_start_daemon (*mhd.start_daemon)
#define MHD_stop_daemon (*mhd.stop_daemon)



#define M_GET 0x1u   /* GET, and HEAD with it */
#define M_POST 0x2u

#define R_SVG 0x1u   /* the route answers ?format=svg (a picture) */
#define R_AUDIT 0x2u /* only with --allow-audit */

#define MAX_ASSETS 32
#define OUT_MAX ((size_t)16 << 20) /* largest answer a renderer may write */
#define DISCARD_MAX 16             /* times max_body read and dropped before closing */

static const char security_csp[] =
	"default-src 'self'; img-src 'self' blob: data:; object-src 'none'; "
	"base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

struct server;
struct request;

typedef int (*spec_runner)(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
			   struct nicfit_emit *e, struct nicfit_error *err);

struct route {
	const char *path;      /* exact path, or a prefix when it ends in '/' */
	const char *shown;     /* as GET /api lists it ("/api/calc/NAME"); NULL: path */
	unsigned methods;      /* M_GET, M_POST */
	enum MHD_Result (*handle)(struct request *rq);
	spec_runner run;       /* handle_spec: the library function */
	unsigned flags;        /* R_SVG, R_AUDIT */
	const char *about;     /* one line for GET /api */
};

struct asset {
	const char *name;      /* "app.js" */
	struct MHD_Response *resp; /* built once, shared by every request */
	char etag[24];         /* "\"hash\"" */
	size_t len;
};

struct server {
	const struct serve_options *o;
	struct MHD_Daemon *d;
	int loopback;          /* bound to a loopback address: check Host */
	struct asset assets[MAX_ASSETS];
	int nassets;
	struct asset *index;   /* index.html, also answers the tab paths */
	pthread_mutex_t log_lock;
	pthread_mutex_t audit_lock; /* one audit at a time: each walks all of sysfs */
	char last_log[256];    /* libmicrohttpd's last message (start errors) */
};

struct request {
	struct server *srv;
	struct MHD_Connection *conn;
	const struct route *route;
	const char *rest;      /* the path after a prefix route */
	struct asset *asset;   /* a page asset instead of a route */
	unsigned method;       /* M_GET, M_POST, 0 for any other */
	char method_name[12];
	char path[200];        /* for the log */
	struct nicfit_buf body;
	size_t seen;           /* body bytes received, kept or not */
	int too_big;
	int answered;          /* a response is queued */
	unsigned status;
	size_t bytes;
	struct timespec t0;
};

static enum MHD_Result handle_index(struct request *rq);
static enum MHD_Result handle_spec(struct request *rq);
static enum MHD_Result handle_examples(struct request *rq);
static enum MHD_Result handle_decode(struct request *rq);
static enum MHD_Result handle_audit(struct request *rq);
static enum MHD_Result handle_calc(struct request *rq);
static enum MHD_Result handle_catalog(struct request *rq);
static enum MHD_Result handle_page(struct request *rq);

/* The API. Adding a route is adding a line. */
static const struct route routes[] = {
	{ "/api", NULL, M_GET, handle_index, NULL, 0, "this list" },
	{ "/api/plan", NULL, M_POST, handle_spec, nicfit_plan_run, R_SVG,
	  "plan a server or cluster (body: the plan spec, as plan --spec)" },
	{ "/api/plan/examples", NULL, M_GET, handle_examples, NULL, 0, "the named example plans" },
	{ "/api/cluster", NULL, M_POST, handle_spec, nicfit_cluster_run, R_SVG,
	  "switches, tiers, cables and BOM for N nodes (body: the cluster spec)" },
	{ "/api/decode/", "/api/decode/PART", M_GET, handle_decode, NULL, 0, "explain a part number (as decode --json)" },
	{ "/api/audit", NULL, M_GET, handle_audit, NULL, R_AUDIT | R_SVG, "this host's audit (as audit --json)" },
	{ "/api/calc/", "/api/calc/NAME", M_POST, handle_calc, NULL, 0,
	  "run calculator NAME (pcie, link, nic, load, fit, allreduce, stream) on a JSON spec" },
	{ "/api/catalog", NULL, M_GET, handle_catalog, NULL, 0, "the whole catalog (as nicfit catalog list --json)" },
	{ "/api/catalog/", "/api/catalog/KIND[/ID]", M_GET, handle_catalog, NULL, 0,
	  "KIND: the entries of one kind; KIND/ID: one entry (as catalog show)" },
	{ "/", NULL, M_GET, handle_page, NULL, 0, "the configurator page" },
	{ "/plan", NULL, M_GET, handle_page, NULL, 0, "the page, plan tab" },
	{ "/cluster", NULL, M_GET, handle_page, NULL, 0, "the page, cluster tab" },
	{ "/decode", NULL, M_GET, handle_page, NULL, 0, "the page, decode tab" },
	{ "/calc", NULL, M_GET, handle_page, NULL, 0, "the page, calculators tab" },
};

#define NROUTES (sizeof(routes) / sizeof(routes[0]))

void serve_options_init(struct serve_options *o)
{
	memset(o, 0, sizeof(*o));
	o->bind = "127.0.0.1";
	o->port = SERVE_DEFAULT_PORT;
	o->max_connections = 512;
	o->max_per_ip = 384;
	o->timeout_s = 10;
	o->max_body = SERVE_MAX_BODY;
}

/* ---- responses ------------------------------------------------------- */

static void add_headers(struct MHD_Response *r, const char *ctype, int cacheable)
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

static enum MHD_Result queue(struct request *rq, unsigned status, struct MHD_Response *r,
			     size_t bytes)
{
	enum MHD_Result ok;

	if (!r)
		return MHD_NO;
	ok = MHD_queue_response(rq->conn, status, r);
	MHD_destroy_response(r);
	rq->answered = 1;
	rq->status = status;
	rq->bytes = bytes;
	return ok;
}

/* Send b (its contents are handed over) with the given status and type. */
static enum MHD_Result reply_buf(struct request *rq, unsigned status, const char *ctype,
				 struct nicfit_buf *b)
{
	struct MHD_Response *r;
	size_t len;
	char *data = nicfit_buf_detach(b, &len);

	if (!data)
		return MHD_NO;
	r = MHD_create_response_from_buffer(len, data, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(data);
		return MHD_NO;
	}
	add_headers(r, ctype, 0);
	return queue(rq, status, r, len);
}

/* {"error": msg, "code": code} with an HTTP status. */
static enum MHD_Result reply_error(struct request *rq, unsigned status, const char *code,
				   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static enum MHD_Result reply_error(struct request *rq, unsigned status, const char *code,
				   const char *fmt, ...)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	struct nicfit_buf out;
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	nicfit_buf_init(&out, OUT_MAX);
	if (!e)
		return MHD_NO;
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "error", msg);
	nicfit_emit_string(e, "code", code);
	nicfit_emit_end_object(e);
	if (nicfit_emit_finish(e, &out)) {
		nicfit_emit_free(e);
		nicfit_buf_release(&out);
		return MHD_NO;
	}
	nicfit_emit_free(e);
	return reply_buf(rq, status, "application/json", &out);
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

static enum MHD_Result reply_nicfit_error(struct request *rq, int rc,
					  const struct nicfit_error *err)
{
	const char *word;
	unsigned status = http_status(err->code ? err->code : rc, &word);
	char line[1024];

	nicfit_error_line(err, line, sizeof(line));
	return reply_error(rq, status, word, "%s", line);
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
static struct nicfit_emit *request_emitter(struct request *rq, enum MHD_Result *ok)
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
			*ok = reply_error(rq, MHD_HTTP_BAD_REQUEST, "usage",
					  "format '%.32s': use json, text, md, csv%s", v,
					  rq->route->flags & R_SVG ? " or svg" : "");
			return NULL;
		}
		f = t[i].f;
		if (f == NICFIT_FMT_SVG && !(rq->route->flags & R_SVG)) {
			*ok = reply_error(rq, MHD_HTTP_BAD_REQUEST, "usage",
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
static enum MHD_Result reply_emit(struct request *rq, struct nicfit_emit *e)
{
	enum nicfit_format f = nicfit_emit_format(e);
	struct nicfit_buf out;
	int rc;

	nicfit_buf_init(&out, OUT_MAX);
	rc = nicfit_emit_finish(e, &out);
	nicfit_emit_free(e);
	if (rc) {
		nicfit_buf_release(&out);
		return reply_error(rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "internal",
				   "cannot render the result: %s", nicfit_strerror(rc));
	}
	return reply_buf(rq, MHD_HTTP_OK, format_ctype(f), &out);
}

/* ---- handlers --------------------------------------------------------- */

static enum MHD_Result handle_index(struct request *rq)
{
	static const struct nicfit_column cols[] = {
		{ "method", "method", 0 }, { "path", "path", 0 }, { "about", "about", 0 },
	};
	enum MHD_Result ok = MHD_NO;
	struct nicfit_emit *e = request_emitter(rq, &ok);
	size_t i;

	if (!e)
		return ok;
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.api.v1");
	nicfit_emit_string(e, "version", NICFIT_VERSION);
	nicfit_emit_printf(e, "nicfit %s web API\n", NICFIT_VERSION);
	nicfit_emit_table_begin(e, "routes", cols, 3);
	for (i = 0; i < NROUTES; i++) {
		const struct route *r = &routes[i];

		if (strncmp(r->path, "/api", 4))
			continue;
		if ((r->flags & R_AUDIT) && !rq->srv->o->allow_audit)
			continue;
		nicfit_emit_cell_string(e, r->methods & M_POST ? "POST" : "GET");
		nicfit_emit_cell_string(e, r->shown ? r->shown : r->path);
		nicfit_emit_cell_string(e, r->about);
	}
	nicfit_emit_table_end(e);
	nicfit_emit_end_object(e);
	return reply_emit(rq, e);
}

/* The plan examples, each with its request, so the page can link them. */
static enum MHD_Result handle_examples(struct request *rq)
{
	enum MHD_Result ok = MHD_NO;
	struct nicfit_emit *e = request_emitter(rq, &ok);
	const struct nicfit_plan_example *x;
	size_t i;

	if (!e)
		return ok;
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.plan.examples.v1");
	nicfit_emit_begin_array(e, "examples");
	for (x = nicfit_plan_examples; x->name; x++) {
		nicfit_emit_printf(e, "%-10s %s\n", x->name, x->title);
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "name", x->name);
		nicfit_emit_string(e, "title", x->title);
		nicfit_emit_begin_object(e, "spec");
		for (i = 0; x->pairs[i] && x->pairs[i + 1]; i += 2)
			nicfit_emit_string(e, x->pairs[i], x->pairs[i + 1]);
		nicfit_emit_end_object(e);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
	return reply_emit(rq, e);
}

static enum MHD_Result handle_decode(struct request *rq)
{
	enum MHD_Result ok = MHD_NO;
	struct nicfit_part *part;
	struct nicfit_error err;
	struct nicfit_emit *e;
	int rc;

	part = calloc(1, sizeof(*part));
	if (!part)
		return MHD_NO;
	nicfit_error_clear(&err);
	rc = nicfit_decode(rq->srv->o->cat, rq->rest, part, &err);
	if (rc) {
		ok = reply_nicfit_error(rq, rc, &err);
		goto out;
	}
	e = request_emitter(rq, &ok);
	if (!e)
		goto out;
	nicfit_decode_render(e, part);
	ok = reply_emit(rq, e);
out:
	free(part);
	return ok;
}

/*
 * This host's audit, as `nicfit audit --json` (the sysfs root is
 * --sysfs DIR, else NICFIT_SYSFS_ROOT, else "/"). Findings are part of the
 * document: the answer is 200 whatever they say.
 */
static enum MHD_Result handle_audit(struct request *rq)
{
	const char *root = rq->srv->o->sysfs_root;
	struct nicfit_topo *topo = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_audit_opts ao;
	struct nicfit_error err;
	struct nicfit_emit *e;
	enum MHD_Result ok = MHD_NO;
	int rc;

	nicfit_error_clear(&err);
	memset(&ao, 0, sizeof(ao));
	pthread_mutex_lock(&rq->srv->audit_lock);
	rc = nicfit_topo_discover(root && *root ? root : "/", &topo, &err);
	if (!rc)
		rc = nicfit_audit_judge(topo, rq->srv->o->cat, &ao, &a, &err);
	if (rc) {
		ok = reply_nicfit_error(rq, rc, &err);
		goto out;
	}
	nicfit_audit_name_from_pciids(a, NULL, NULL);
	e = request_emitter(rq, &ok);
	if (!e)
		goto out;
	rc = nicfit_audit_render(a, e);
	if (rc) {
		nicfit_emit_free(e);
		ok = reply_error(rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "internal",
				 "cannot render the audit: %s", nicfit_strerror(rc));
		goto out;
	}
	ok = reply_emit(rq, e);
out:
	nicfit_audit_free(a);
	nicfit_topo_free(topo);
	pthread_mutex_unlock(&rq->srv->audit_lock);
	return ok;
}

/* Parse the body into a new spec; NULL after queueing the error. */
static struct nicfit_spec *request_spec(struct request *rq, enum MHD_Result *ok)
{
	struct nicfit_spec *spec = calloc(1, sizeof(*spec));
	struct nicfit_error err;
	int rc;

	if (!spec) {
		*ok = MHD_NO;
		return NULL;
	}
	nicfit_spec_init(spec, "body");
	spec->from_data = 1;
	if (!rq->body.len)
		return spec;
	nicfit_error_clear(&err);
	rc = nicfit_spec_parse_json(spec, rq->body.data, rq->body.len, &err);
	if (!rc)
		return spec;
	if (rc == NICFIT_E_LIMIT && err.code == NICFIT_E_LIMIT) {
		char line[1024];

		nicfit_error_line(&err, line, sizeof(line));
		*ok = reply_error(rq, MHD_HTTP_CONTENT_TOO_LARGE, "limit", "%s", line);
	} else {
		*ok = reply_nicfit_error(rq, rc, &err);
	}
	nicfit_spec_release(spec);
	free(spec);
	return NULL;
}

/* Run the spec through run (or calculator calc) and answer the document. */
static enum MHD_Result run_spec(struct request *rq, spec_runner run, const char *calc)
{
	enum MHD_Result ok = MHD_NO;
	struct nicfit_spec *spec;
	struct nicfit_emit *e;
	struct nicfit_error err;
	int rc;

	spec = request_spec(rq, &ok);
	if (!spec)
		return ok;
	e = request_emitter(rq, &ok);
	if (!e)
		goto out;
	nicfit_error_clear(&err);
	rc = run ? run(rq->srv->o->cat, spec, e, &err)
		 : nicfit_calc_run(rq->srv->o->cat, calc, spec, e, &err);
	if (rc) {
		nicfit_emit_free(e);
		ok = reply_nicfit_error(rq, rc, &err);
		goto out;
	}
	ok = reply_emit(rq, e);
out:
	nicfit_spec_release(spec);
	free(spec);
	return ok;
}

static enum MHD_Result handle_spec(struct request *rq)
{
	return run_spec(rq, rq->route->run, NULL);
}

static enum MHD_Result handle_calc(struct request *rq)
{
	const char *hint;
	size_t i;

	for (i = 0; nicfit_calc_names[i]; i++)
		if (!strcmp(rq->rest, nicfit_calc_names[i]))
			return run_spec(rq, NULL, nicfit_calc_names[i]);
	hint = nicfit_suggest(rq->rest, nicfit_calc_names);
	if (hint)
		return reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
				   "no calculator '%.64s' (did you mean '%s'?)", rq->rest, hint);
	return reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
			   "no calculator '%.64s' (pcie, link, nic, load, fit, allreduce, stream)",
			   rq->rest);
}

static enum MHD_Result handle_catalog(struct request *rq)
{
	enum MHD_Result ok = MHD_NO;
	struct nicfit_error err;
	struct nicfit_emit *e;
	enum nicfit_kind kind;
	char kname[32];
	const char *slash = strchr(rq->rest, '/');
	size_t klen = slash ? (size_t)(slash - rq->rest) : strlen(rq->rest);
	int rc;

	nicfit_error_clear(&err);
	if (*rq->rest) {
		if (klen >= sizeof(kname) || (slash && (!slash[1] || strchr(slash + 1, '/'))))
			return reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
					   "no such path %.128s (use /api/catalog/KIND or /api/catalog/KIND/ID)",
					   rq->path);
		memcpy(kname, rq->rest, klen);
		kname[klen] = '\0';
		if (nicfit_kind_parse(kname, &kind, &err))
			return reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
					   "no catalog kind '%.32s' (nics, cables, switches, servers, gpus, models)",
					   kname);
	}
	if (slash) {
		enum nicfit_kind found;

		if (!nicfit_catalog_lookup(rq->srv->o->cat, slash + 1, &found) || found != kind) {
			nicfit_error_at(&err, NICFIT_E_NOTFOUND, "catalog", 0, 0,
					"no %s '%.64s' (see /api/catalog/%s)", nicfit_kind_name(kind),
					slash + 1, nicfit_kind_plural(kind));
			return reply_nicfit_error(rq, NICFIT_E_NOTFOUND, &err);
		}
	}
	e = request_emitter(rq, &ok);
	if (!e)
		return ok;
	rc = 0;
	if (!*rq->rest)
		nicfit_catalog_render_list(e, rq->srv->o->cat, -1);
	else if (!slash)
		nicfit_catalog_render_list(e, rq->srv->o->cat, (int)kind);
	else
		rc = nicfit_catalog_render_show(e, rq->srv->o->cat, slash + 1, &err);
	if (rc) {
		nicfit_emit_free(e);
		return reply_nicfit_error(rq, rc, &err);
	}
	return reply_emit(rq, e);
}

/* An embedded asset, answering 304 when the client has this version. */
static enum MHD_Result reply_asset(struct request *rq, struct asset *a)
{
	const char *inm = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND,
						      MHD_HTTP_HEADER_IF_NONE_MATCH);
	struct MHD_Response *r;
	enum MHD_Result ok;

	if (inm && strstr(inm, a->etag)) {
		r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
		if (!r)
			return MHD_NO;
		add_headers(r, NULL, 1);
		MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, a->etag);
		return queue(rq, MHD_HTTP_NOT_MODIFIED, r, 0);
	}
	ok = MHD_queue_response(rq->conn, MHD_HTTP_OK, a->resp);
	rq->answered = 1;
	rq->status = MHD_HTTP_OK;
	rq->bytes = a->len;
	return ok;
}

static enum MHD_Result handle_page(struct request *rq)
{
	if (!rq->srv->index)
		return reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
				   "this build has no page; the API is under /api");
	return reply_asset(rq, rq->srv->index);
}

/* ---- request checks ---------------------------------------------------- */

static const struct route *match_route(const char *url, const char **rest)
{
	size_t i;

	for (i = 0; i < NROUTES; i++) {
		const char *p = routes[i].path;
		size_t n = strlen(p);

		if (n > 1 && p[n - 1] == '/') {
			if (!strncmp(url, p, n) && url[n]) {
				*rest = url + n;
				return &routes[i];
			}
		} else if (!strcmp(url, p)) {
			*rest = "";
			return &routes[i];
		}
	}
	return NULL;
}

static struct asset *match_asset(struct server *s, const char *url)
{
	int i;

	if (url[0] != '/' || strchr(url + 1, '/'))
		return NULL;
	for (i = 0; i < s->nassets; i++)
		if (!strcmp(url + 1, s->assets[i].name))
			return &s->assets[i];
	return NULL;
}

/*
 * With a loopback bind, a Host header must name this machine: a page on
 * another site whose name was re-pointed at 127.0.0.1 (DNS rebinding)
 * sends its own name and is refused.
 */
static int host_ok(const char *host)
{
	char name[128];
	const char *end;
	size_t n;
	struct in_addr a4;

	if (!host)
		return 1; /* HTTP/1.0 */
	if (host[0] == '[') {
		end = strchr(host, ']');
		if (!end)
			return 0;
		n = (size_t)(end - host - 1);
		if (n >= sizeof(name))
			return 0;
		memcpy(name, host + 1, n);
		name[n] = '\0';
		return !strcmp(name, "::1") && (!end[1] || end[1] == ':');
	}
	end = strchr(host, ':');
	n = end ? (size_t)(end - host) : strlen(host);
	if (n >= sizeof(name))
		return 0;
	memcpy(name, host, n);
	name[n] = '\0';
	if (!strcasecmp(name, "localhost"))
		return 1;
	if (inet_pton(AF_INET, name, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	return 0;
}

/* "application/json", optionally with parameters ("; charset=utf-8"). */
static int is_json_type(const char *ct)
{
	size_t n = strlen("application/json");

	while (*ct == ' ' || *ct == '\t')
		ct++;
	if (strncasecmp(ct, "application/json", n))
		return 0;
	ct += n;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	return !*ct || *ct == ';';
}

static unsigned method_bits(const char *m)
{
	if (!strcmp(m, MHD_HTTP_METHOD_GET) || !strcmp(m, MHD_HTTP_METHOD_HEAD))
		return M_GET;
	if (!strcmp(m, MHD_HTTP_METHOD_POST))
		return M_POST;
	return 0;
}

static enum MHD_Result reply_405(struct request *rq, unsigned allowed)
{
	struct MHD_Response *r;
	struct nicfit_buf out;
	const char *allow = allowed & M_POST ? "POST" : "GET, HEAD";

	nicfit_buf_init(&out, 1024);
	nicfit_buf_addf(&out, "{\"error\": \"%s is not allowed here: use %s\", \"code\": \"method\"}\n",
			rq->method_name, allow);
	if (nicfit_buf_error(&out)) {
		nicfit_buf_release(&out);
		return MHD_NO;
	}
	r = MHD_create_response_from_buffer(out.len, out.data, MHD_RESPMEM_MUST_COPY);
	nicfit_buf_release(&out);
	if (!r)
		return MHD_NO;
	add_headers(r, "application/json", 0);
	MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	return queue(rq, MHD_HTTP_METHOD_NOT_ALLOWED, r, 0);
}

/*
 * First call, headers only: find the route and refuse what can be refused
 * before the body arrives. Returns MHD_YES with nothing queued to go on.
 */
static enum MHD_Result begin(struct request *rq, const char *url)
{
	struct server *s = rq->srv;
	const char *host, *ct, *cl, *te;
	unsigned allowed;

	if (s->loopback) {
		host = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
		if (!host_ok(host))
			return reply_error(rq, MHD_HTTP_BAD_REQUEST, "host",
					   "Host '%.64s' is not this server (use 127.0.0.1 or localhost)",
					   host);
	}
	rq->route = match_route(url, &rq->rest);
	if (!rq->route) {
		rq->asset = match_asset(s, url);
		if (!rq->asset)
			return reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
					   "nothing at %.128s (the API is listed at /api)", rq->path);
		allowed = M_GET;
	} else {
		allowed = rq->route->methods;
		if ((rq->route->flags & R_AUDIT) && !s->o->allow_audit)
			return reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
					   "%s is off: start the server with --allow-audit to "
					   "let it inspect this host", rq->path);
	}
	if (!(rq->method & allowed))
		return reply_405(rq, allowed);
	if (rq->method != M_POST)
		return MHD_YES;
	cl = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_CONTENT_LENGTH);
	te = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_TRANSFER_ENCODING);
	if (cl) {
		char *end;
		unsigned long long n;

		errno = 0;
		n = strtoull(cl, &end, 10);
		if (errno || end == cl || *end)
			return reply_error(rq, MHD_HTTP_BAD_REQUEST, "usage",
					   "bad Content-Length '%.32s'", cl);
		if (n > s->o->max_body)
			return reply_error(rq, MHD_HTTP_CONTENT_TOO_LARGE, "limit",
					   "request body of %llu bytes is over the limit of %zu",
					   n, s->o->max_body);
		if (!n && !te)
			return MHD_YES;
	} else if (!te) {
		return MHD_YES;
	}
	ct = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_CONTENT_TYPE);
	if (!ct || !is_json_type(ct))
		return reply_error(rq, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, "media_type",
				   "send the request as Content-Type: application/json (got '%.64s')",
				   ct ? ct : "none");
	return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_size, void **con_cls)
{
	struct server *s = cls;
	struct request *rq = *con_cls;

	(void)version;
	if (!rq) {
		rq = calloc(1, sizeof(*rq));
		if (!rq)
			return MHD_NO;
		*con_cls = rq;
		rq->srv = s;
		rq->conn = conn;
		clock_gettime(CLOCK_MONOTONIC, &rq->t0);
		nicfit_buf_init(&rq->body, s->o->max_body);
		snprintf(rq->method_name, sizeof(rq->method_name), "%s", method);
		snprintf(rq->path, sizeof(rq->path), "%s", url);
		rq->method = method_bits(method);
		return begin(rq, url);
	}
	if (*upload_size) {
		rq->seen += *upload_size;
		if (!rq->answered && !rq->too_big) {
			nicfit_buf_add(&rq->body, upload_data, *upload_size);
			if (nicfit_buf_error(&rq->body)) {
				rq->too_big = 1;
				nicfit_buf_release(&rq->body);
			}
		}
		*upload_size = 0;
		/* A client streaming a chunked body without end gets cut off. */
		return rq->seen / DISCARD_MAX > s->o->max_body ? MHD_NO : MHD_YES;
	}
	if (rq->answered)
		return MHD_YES;
	if (rq->too_big)
		return reply_error(rq, MHD_HTTP_CONTENT_TOO_LARGE, "limit",
				   "request body is over the limit of %zu bytes", s->o->max_body);
	if (rq->asset)
		return reply_asset(rq, rq->asset);
	return rq->route->handle(rq);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct server *s = cls;
	struct request *rq = *con_cls;

	if (!rq)
		return;
	if (s->o->log) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		char ip[INET6_ADDRSTRLEN] = "?";
		struct timespec t1;
		double ms;

		if (ci && ci->client_addr) {
			if (ci->client_addr->sa_family == AF_INET)
				inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)
						     ci->client_addr)->sin_addr, ip, sizeof(ip));
			else if (ci->client_addr->sa_family == AF_INET6)
				inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)
						      ci->client_addr)->sin6_addr, ip, sizeof(ip));
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (double)(t1.tv_sec - rq->t0.tv_sec) * 1e3 +
		     (double)(t1.tv_nsec - rq->t0.tv_nsec) / 1e6;
		fprintf(stderr, "%s %s %s %u %zu %.2fms%s\n", ip, rq->method_name, rq->path,
			rq->status, rq->bytes, ms,
			toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? "" : " (aborted)");
	}
	nicfit_buf_release(&rq->body);
	free(rq);
	*con_cls = NULL;
}

/*
 * Percent-decoding of the path and query, as libmicrohttpd's own except
 * that %00 stays as it is: a decoded NUL would cut "/index.html%00.js"
 * short to "/index.html" behind the router's back.
 */
static size_t on_unescape(void *cls, struct MHD_Connection *conn, char *s)
{
	char *r = s, *w = s;

	(void)cls;
	(void)conn;
	while (*r) {
		if (r[0] == '%' && isxdigit((unsigned char)r[1]) && isxdigit((unsigned char)r[2]) &&
		    !(r[1] == '0' && r[2] == '0')) {
			char hex[3] = { r[1], r[2], '\0' };

			*w++ = (char)strtol(hex, NULL, 16);
			r += 3;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return (size_t)(w - s);
}

static void on_log(void *cls, const char *fmt, va_list ap)
{
	struct server *s = cls;
	char line[256];
	size_t n;

	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	pthread_mutex_lock(&s->log_lock);
	memcpy(s->last_log, line, n + 1);
	pthread_mutex_unlock(&s->log_lock);
	if (s->o->log)
		fprintf(stderr, "nicfit serve: %s\n", line);
}

/* ---- assets ------------------------------------------------------------ */

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

static int load_assets(struct server *s, struct nicfit_error *err)
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
		a->len = b->len;
		a->resp = MHD_create_response_from_buffer(b->len, (void *)(uintptr_t)b->data,
							  MHD_RESPMEM_PERSISTENT);
		if (!a->resp)
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		add_headers(a->resp, asset_ctype(b->name), 1);
		MHD_add_response_header(a->resp, MHD_HTTP_HEADER_ETAG, a->etag);
		if (!strcmp(b->name, "index.html"))
			s->index = a;
		s->nassets++;
	}
	return 0;
}

static void free_assets(struct server *s)
{
	int i;

	for (i = 0; i < s->nassets; i++)
		MHD_destroy_response(s->assets[i].resp);
	s->nassets = 0;
}

/* ---- start and stop ---------------------------------------------------- */

static int parse_bind(const char *addr, unsigned port, struct sockaddr_storage *ss,
		      int *v6, int *loopback, struct nicfit_error *err)
{
	struct sockaddr_in *a4 = (struct sockaddr_in *)(void *)ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)(void *)ss;

	memset(ss, 0, sizeof(*ss));
	if (!strcasecmp(addr, "localhost"))
		addr = "127.0.0.1";
	if (inet_pton(AF_INET, addr, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons((unsigned short)port);
		*v6 = 0;
		*loopback = (ntohl(a4->sin_addr.s_addr) >> 24) == 127;
		return 0;
	}
	if (inet_pton(AF_INET6, addr, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((unsigned short)port);
		*v6 = 1;
		*loopback = IN6_IS_ADDR_LOOPBACK(&a6->sin6_addr);
		return 0;
	}
	return nicfit_error_at(err, NICFIT_E_USAGE, "--bind", 0, 0,
			       "'%.64s' is not a numeric IPv4 or IPv6 address", addr);
}

static unsigned default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 2)
		return 2;
	return n > 16 ? 16 : (unsigned)n;
}

/* Stop accepting, give requests in flight a moment, then stop. */
static void shut_down(struct server *s)
{
	int i;

	MHD_quiesce_daemon(s->d);
	for (i = 0; i < 60; i++) {
		const union MHD_DaemonInfo *di =
			MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		if (!di || !di->num_connections)
			break;
		nanosleep(&ts, NULL);
	}
	MHD_stop_daemon(s->d);
	s->d = NULL;
}

int serve_run(const struct serve_options *o, struct nicfit_error *err)
{
	struct server *s;
	struct sockaddr_storage ss;
	sigset_t sigs, old;
	const union MHD_DaemonInfo *di;
	unsigned flags, port, threads;
	int v6 = 0, sig, rc;

	rc = nicfit_dynlib_load(&mhd_lib, err);
	if (rc)
		return rc;
	s = calloc(1, sizeof(*s));
	if (!s)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	s->o = o;
	pthread_mutex_init(&s->log_lock, NULL);
	pthread_mutex_init(&s->audit_lock, NULL);
	rc = parse_bind(o->bind, o->port, &ss, &v6, &s->loopback, err);
	if (rc)
		goto out_free;
	rc = load_assets(s, err);
	if (rc)
		goto out_assets;

	/* Workers inherit this mask, so only sigwait() below sees the signals. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	signal(SIGPIPE, SIG_IGN);

	threads = o->threads ? o->threads : default_threads();
	flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ERROR_LOG | MHD_USE_ITC;
	if (v6)
		flags |= MHD_USE_IPv6;
	s->d = MHD_start_daemon(flags, (uint16_t)o->port, NULL, NULL, on_request, s,
				MHD_OPTION_EXTERNAL_LOGGER, on_log, s,
				MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				MHD_OPTION_THREAD_POOL_SIZE, threads > 1 ? threads : 0u,
				MHD_OPTION_CONNECTION_LIMIT, o->max_connections,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, o->max_per_ip,
				MHD_OPTION_CONNECTION_TIMEOUT, o->timeout_s,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)64 * 1024,
				MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
				MHD_OPTION_STRICT_FOR_CLIENT, 1,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
				MHD_OPTION_UNESCAPE_CALLBACK, on_unescape, NULL,
				MHD_OPTION_END);
	if (!s->d) {
		rc = nicfit_error_at(err, NICFIT_E_IO, "--bind", 0, 0, "cannot listen on %s port %u: %s",
				     o->bind, o->port, s->last_log[0] ? s->last_log : "unknown error");
		goto out_mask;
	}
	di = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
	port = di ? di->port : o->port;
	fprintf(stderr, "nicfit serve: listening on http://%s%s%s:%u/\n", v6 ? "[" : "",
		strcasecmp(o->bind, "localhost") ? o->bind : "127.0.0.1", v6 ? "]" : "", port);
	if (!s->loopback)
		fprintf(stderr, "nicfit: warning: %s is not a loopback address: anyone who can "
				"reach it can use this server\n", o->bind);
	fflush(stderr);

	do {
		if (sigwait(&sigs, &sig))
			sig = SIGTERM;
	} while (sig != SIGINT && sig != SIGTERM);
	fprintf(stderr, "nicfit serve: %s, stopping\n", sig == SIGINT ? "interrupted" : "terminated");
	shut_down(s);
	rc = 0;
out_mask:
	pthread_sigmask(SIG_SETMASK, &old, NULL);
out_assets:
	free_assets(s);
out_free:
	pthread_mutex_destroy(&s->log_lock);
	pthread_mutex_destroy(&s->audit_lock);
	free(s);
	return rc;
}
