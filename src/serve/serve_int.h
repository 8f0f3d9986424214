/*
 * serve_int.h - what the files of the web server share, and nothing
 * cmd_serve.c needs: serve.h is the server's interface to the command line,
 * this header is private to the files of src/serve/.
 *
 * The server is cut along its concepts:
 *   mhd.c     libmicrohttpd, opened at run time, called through a table
 *   reply.c   answers: security headers, errors as JSON, ?format= emitters
 *   api.c     the route table and the handlers that call the library
 *   assets.c  the page's files, compiled in, answered with an ETag
 *   serve.c   the daemon: request checks and limits, libmicrohttpd's
 *             callbacks, start and stop
 * Each file calls only those above it in this list.
 */
#ifndef NICFIT_SERVE_INT_H
#define NICFIT_SERVE_INT_H

#include <pthread.h>
#include <stddef.h>
#include <time.h>

#include <microhttpd.h>

#include "serve.h"
#include "nicfit/buf.h"
#include "nicfit/emit.h"
#include "nicfit/spec.h"

/* ---- mhd.c: libmicrohttpd, loaded when `serve` starts ----------------- */

/*
 * libmicrohttpd's functions, looked up when `serve` starts (see
 * nicfit/dynlib.h), so the other commands do not pay for it. The macros
 * below let the server's files call them under their own names.
 */
struct serve_mhd {
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
};

/* Filled by serve_mhd_load(); read-only afterwards. */
extern struct serve_mhd serve_mhd;

/* Open libmicrohttpd and fill serve_mhd. 0, or an error in err. */
int serve_mhd_load(struct nicfit_error *err);

#define MHD_add_response_header (*serve_mhd.add_response_header)
#define MHD_create_response_from_buffer (*serve_mhd.create_response_from_buffer)
#define MHD_destroy_response (*serve_mhd.destroy_response)
#define MHD_get_connection_info (*serve_mhd.get_connection_info)
#define MHD_get_daemon_info (*serve_mhd.get_daemon_info)
#define MHD_lookup_connection_value (*serve_mhd.lookup_connection_value)
#define MHD_queue_response (*serve_mhd.queue_response)
#define MHD_quiesce_daemon (*serve_mhd.quiesce_daemon)
#define MHD_start_daemon (*serve_mhd.start_daemon)
#define MHD_stop_daemon (*serve_mhd.stop_daemon)

/* ---- the server and one request ------------------------------------------ */

#define M_GET 0x1u   /* GET, and HEAD with it */
#define M_POST 0x2u

#define R_SVG 0x1u   /* the route answers ?format=svg (a picture) */
#define R_AUDIT 0x2u /* only with --allow-audit */

#define MAX_ASSETS 32

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

/* ---- reply.c: answers ----------------------------------------------------- */

/*
 * The headers every answer carries: Content-Type (unless ctype is NULL),
 * the security headers, and Cache-Control (no-cache for the page's files,
 * which are revalidated by ETag; no-store for the rest).
 */
void serve_add_headers(struct MHD_Response *r, const char *ctype, int cacheable);
/* Queue r with status, record it for the log, and drop our reference. */
enum MHD_Result serve_queue(struct request *rq, unsigned status, struct MHD_Response *r,
			    size_t bytes);
/* Send b (its contents are handed over) with the given status and type. */
enum MHD_Result serve_reply_buf(struct request *rq, unsigned status, const char *ctype,
				struct nicfit_buf *b);
/* {"error": msg, "code": code} with an HTTP status. */
enum MHD_Result serve_reply_error(struct request *rq, unsigned status, const char *code,
				  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A library error as an answer, with the HTTP status that fits its code. */
enum MHD_Result serve_reply_nicfit_error(struct request *rq, int rc,
					 const struct nicfit_error *err);
/*
 * The emitter for ?format= (json when absent) and ?pretty. NULL after
 * queueing the error answer (*ok has the result for libmicrohttpd).
 */
struct nicfit_emit *serve_request_emitter(struct request *rq, enum MHD_Result *ok);
/* Finish e into an answer (200) and free it. */
enum MHD_Result serve_reply_emit(struct request *rq, struct nicfit_emit *e);

/* ---- api.c: the routes ---------------------------------------------------- */

/* The route for url, with *rest the part after a prefix route; NULL: none. */
const struct route *serve_match_route(const char *url, const char **rest);

/* ---- assets.c: the page ---------------------------------------------------- */

/* Build one shared response per compiled-in file; index.html is s->index. */
int serve_assets_load(struct server *s, struct nicfit_error *err);
void serve_assets_free(struct server *s);
/* The asset named by url ("/app.js"), or NULL. */
struct asset *serve_match_asset(struct server *s, const char *url);
/* An embedded asset, answering 304 when the client has this version. */
enum MHD_Result serve_reply_asset(struct request *rq, struct asset *a);

#endif
