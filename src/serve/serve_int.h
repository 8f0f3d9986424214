/*
 * serve_int.h - what the files of the web server share, and nothing
 * cmd_serve.c needs: serve.h is the server's interface to the command line,
 * this header is private to the files of src/serve/.
 *
 * The server is cut along its concepts:
 *   mhd.c     libmicrohttpd, opened at run time, called through a table
 *   http.c    decisions on a request's head (Host, framing, route, method),
 *             error bodies and log escaping, as functions over strings
 *   guard.c   the connection table: a deadline for receiving each request,
 *             limits answered with 503, slow clients cut off
 *   reply.c   answers: security headers, errors as JSON, ?format= emitters
 *   cache.c   answers kept for repeated requests, keyed by the canonical request
 *   page.c    the page, with the answer to a shared link written in
 *   accept_results.c  POST /api/accept/results: uploaded outputs judged
 *   metrics.c GET /metrics: the server's counts in Prometheus's text format
 *   api.c     the route table and the handlers that call the library
 *   assets.c  the page's files, compiled in, answered with an ETag
 *   serve.c   the daemon: request checks and limits, libmicrohttpd's
 *             callbacks, start and stop
 * Each file calls only those above it in this list (reply.c hands the
 * answers it queues to cache.c, which only keeps them).
 */
#ifndef NICFIT_SERVE_INT_H
#define NICFIT_SERVE_INT_H

#include <pthread.h>
#include <stdatomic.h>
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
	__typeof__(MHD_get_connection_values) *get_connection_values;
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
#define MHD_get_connection_values (*serve_mhd.get_connection_values)
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
	const char *data;      /* its bytes, compiled in */
	struct MHD_Response *resp; /* built once, shared by every request */
	char etag[24];         /* "\"hash\"" */
	size_t len;
};

/* ---- guard.c: the connection table ---------------------------------------- */

struct guard_conn;

struct guard {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	struct guard_conn *head, *tail;
	unsigned max_conn, max_per_ip;
	long long timeout_ms;      /* to receive a whole request */
	char *late_text, *busy_text; /* the 408 and 503 answers, whole */
	char *slow_text;           /* the 408 for a body below SERVE_MIN_BODY_RATE */
	int running, stop, closing;
	/* connections cut with each answer, under lock: 503 (no room, stopping), 408 late,
	 * 408 a slow body (GET /metrics reads them) */
	unsigned long long cut_busy, cut_late, cut_slow;
};

/*
 * The least a request body must arrive at, in bytes a second, once
 * SERVE_BODY_GRACE_MS have passed since its head (Apache's mod_reqtimeout
 * asks 500 by default): a body trickled in slower is answered 408, and at
 * a limit its connection is the first to make room for a newcomer.
 */
#define SERVE_MIN_BODY_RATE 500
#define SERVE_BODY_GRACE_MS 2000

#define SERVE_GUARD_GONE 1     /* the table answered and shut the connection */
#define SERVE_GUARD_OVER 2     /* no place, or stopping: answer 503 */

int serve_guard_start(struct guard *g, unsigned max_conn, unsigned max_per_ip, unsigned timeout_s,
		      struct nicfit_error *err);
void serve_guard_stop(struct guard *g);
/* Answer 503 to every connection still waiting for its request (stopping). */
void serve_guard_close_waiting(struct guard *g);
/* libmicrohttpd's MHD_OPTION_NOTIFY_CONNECTION callback; cls: the server. */
void serve_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
			enum MHD_ConnectionNotificationCode toe);
/* MHD_OPTION_URI_LOG_CALLBACK: remembers the raw request target. */
void *serve_guard_uri(void *cls, const char *uri, struct MHD_Connection *conn);
/* Whether the request target held no NUL byte (version: on_request's). */
int serve_guard_target_ok(struct MHD_Connection *conn, const char *version);
/* A request head arrived: 0, SERVE_GUARD_GONE (stop) or SERVE_GUARD_OVER (answer 503). */
int serve_guard_head(struct guard *g, struct MHD_Connection *conn);
/* The request is about to be answered: 0, SERVE_GUARD_GONE or SERVE_GUARD_OVER. */
int serve_guard_answering(struct guard *g, struct MHD_Connection *conn);
/* Whether the table answered the connection already. */
int serve_guard_gone(struct guard *g, struct MHD_Connection *conn);
/* The raw request target (query included) into out, cut to n; "" unknown. First call only. */
void serve_guard_copy_target(struct MHD_Connection *conn, char *out, size_t n);
/* n more bytes of the request body have arrived on conn (its data rate). */
void serve_guard_body(struct guard *g, struct MHD_Connection *conn, size_t n);
/* A request on the connection is done: the next one gets its own deadline. */
void serve_guard_done(struct guard *g, struct MHD_Connection *conn);

/* ---- cache.c: answers kept for repeated requests ------------------------ */

struct cache_entry;

/*
 * The answers of spec routes (POST /api/plan, /api/cluster, /api/accept,
 * /api/calc/NAME) kept by their canonical request: the route, ?format=,
 * ?pretty and the spec's settings sorted by name (so spacing, key order
 * and "8" against 8 do not matter). The catalog is fixed for the process,
 * so an answer never goes stale; the cache is bounded in entries and
 * bytes and drops the least recently used. One lock; the entries' answers
 * are libmicrohttpd responses shared by every request that hits them.
 */
struct serve_cache {
	pthread_mutex_t lock;
	struct cache_entry **slots;   /* hash table, chained */
	size_t nslots;
	struct cache_entry *lru_head, *lru_tail; /* most recent first */
	size_t bytes, max_bytes;
	unsigned entries, max_entries;
	unsigned long long hits, lookups;  /* under lock */
	unsigned long long evictions;      /* entries dropped to make room */
};

int serve_cache_init(struct serve_cache *c, size_t max_bytes, unsigned max_entries);
void serve_cache_free(struct serve_cache *c);
/*
 * Queue the kept answer for key on conn: 1 (its size in *bytes), or 0
 * when there is none (a miss). Counts the lookup either way.
 */
int serve_cache_answer(struct serve_cache *c, const char *key, size_t klen,
		       struct MHD_Connection *conn, size_t *bytes);
/* Keep r (the caller's reference to it) as key's answer of `bytes` bytes. */
void serve_cache_put(struct serve_cache *c, const char *key, size_t klen,
		     struct MHD_Response *r, size_t bytes);
/* Hits and lookups so far. */
void serve_cache_stats(struct serve_cache *c, unsigned long long *hits,
		       unsigned long long *lookups);
/* What GET /metrics shows of the cache, read at one time. */
struct serve_cache_counts {
	unsigned long long hits, lookups, evictions;
	size_t bytes, max_bytes;
	unsigned entries, max_entries;
};
void serve_cache_counts(struct serve_cache *c, struct serve_cache_counts *out);
/*
 * The canonical key of a spec request into b: route, rest, format,
 * pretty, then the settings sorted by key (values of one key in their
 * order). 0, or nonzero when it is over the key limit (not kept).
 */
int serve_cache_key(struct nicfit_buf *b, const char *route, const char *rest,
		    const char *format, const char *pretty, const struct nicfit_spec *spec);

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
	struct guard guard;
	struct serve_cache cache;
	/* GET /metrics's counts (metrics.c), kept by on_completed: requests by
	 * status class (status / 100; 499, a client gone, is 4xx) and those
	 * ended by their CPU budget */
	atomic_ullong requests[6];
	atomic_ullong budget_ends;
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
	char target[512];      /* the raw request target, query included, for the log */
	char version[12];
	char referer[256], agent[256];
	struct nicfit_buf body;
	size_t seen;           /* body bytes received, kept or not */
	int too_big;
	int nul_in_target;     /* a raw NUL byte in the request line's target */
	int answered;          /* a response is queued */
	unsigned status;
	size_t bytes;
	struct timespec t0;
	char *ckey;            /* the canonical request, for a cacheable one */
	size_t ckey_len;
	char cache;            /* for the log: 'H' hit, 'M' miss, 0 not cacheable */
	int over_budget;       /* ended by its CPU budget */
};

/* ---- metrics.c: GET /metrics --------------------------------------------- */

enum MHD_Result serve_handle_metrics(struct request *rq);

/* ---- http.c: decisions on a request's head, without a socket ------------- */

#define SERVE_MSG_MAX 768      /* longest error message, in bytes */

/* A request's head as the checks see it (serve_head_header fills it). */
struct serve_head {
	const char *method;
	const char *url;           /* the decoded path */
	const char *host;          /* the first Host header, or NULL */
	const char *content_type;
	const char *content_length; /* the first one */
	const char *transfer_encoding;
	unsigned nhost, nte;       /* how many Host and Transfer-Encoding headers */
	int cl_conflict;           /* Content-Length headers that disagree */
	int path_has_nul;          /* a raw NUL byte in the request target */
	int loopback;              /* bound to loopback: Host must name this machine */
	int allow_audit;
	size_t max_body;
	const struct route *(*match_route)(const char *url, const char **rest);
	int (*is_asset)(void *cls, const char *url); /* a page file; NULL: none */
	void *cls;
};

/* What serve_check_head() decided. */
struct serve_verdict {
	unsigned status;           /* the refusal's HTTP status; 0: go on */
	const char *code;          /* its code word ("usage", "host", ...) */
	unsigned allow;            /* 405: the methods allowed (M_GET, M_POST) */
	char msg[SERVE_MSG_MAX];
	const struct route *route; /* go on: the route, or NULL for an asset */
	const char *rest;          /* the path after a prefix route */
	int asset;
};

void serve_head_init(struct serve_head *h);
void serve_head_header(struct serve_head *h, const char *name, const char *value);
int serve_check_head(const struct serve_head *h, struct serve_verdict *v);
unsigned serve_method_bits(const char *method);
/* Percent-decode s in place, %00 kept as it is; the new length. */
size_t serve_unescape(char *s);
/* src as valid UTF-8 (bad bytes become U+FFFD), cut to cap bytes at a character. */
void serve_utf8_clean(char *dst, size_t cap, const char *src);
/* src for a log line: printable ASCII as is, other bytes and '\\' as \xHH. */
void serve_log_escape(char *dst, size_t cap, const char *src);
/* The error document {"error": msg, "code": code}, msg made valid UTF-8. */
int serve_error_body(struct nicfit_buf *out, const char *code, const char *msg);

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
/*
 * 413 for a request whose CPU budget (--cpu-budget, nicfit/budget.h) was
 * spent. serve_reply_buf() and the error answers call it themselves when
 * the budget of the request they answer is spent, whatever the handler
 * was about to answer (the partial document, or the error its work
 * unwound with).
 */
enum MHD_Result serve_reply_budget(struct request *rq);
/* {"error": msg, "code": code} with an HTTP status. */
enum MHD_Result serve_reply_error(struct request *rq, unsigned status, const char *code,
				  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* serve_check_head()'s refusal as an answer (with Allow: for a 405). */
enum MHD_Result serve_reply_verdict(struct request *rq, const struct serve_verdict *v);
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

/* accept_results.c: POST /api/accept/results, a runbook judged on uploaded outputs. */
enum MHD_Result serve_handle_accept_results(struct request *rq);

/* ---- page.c: the page, with a shared link's answer in it ---------------- */

/* What the page needs from api.c to answer a link of one tab. */
struct serve_page {
	const char *tab;            /* plan, cluster, decode, calc */
	const struct nicfit_catalog *cat;
	const char *html;           /* index.html */
	size_t len;
	spec_runner run;            /* plan and cluster */
	int (*decode)(const struct nicfit_catalog *cat, const char *part, struct nicfit_emit *e,
		      struct nicfit_error *err);
	/* Nonzero, with err filled, when the request is over the server's limits. */
	int (*too_big)(struct nicfit_spec *spec, struct nicfit_error *err);
};

#define SERVE_PAGE_MAX_PAIRS 256 /* settings read from one address; the spec takes fewer */

/*
 * Append to b index.html with the tab shown and, when the address has
 * settings (npairs key/value pairs, pairs[2i] and pairs[2i + 1]), their
 * answer. 0 or a nicfit status (the buffer's limit or memory).
 */
int serve_page_write(const struct serve_page *pg, const char *const *pairs, size_t npairs,
		     struct nicfit_buf *b);
/* The same, answered for a request with the address's settings. */
enum MHD_Result serve_reply_page(struct request *rq, const struct serve_page *pg);

/* ---- api.c: the routes ---------------------------------------------------- */

/* The page of tab (plan, cluster, decode, calc; "" is plan) as the server answers it. */
void serve_page_init(struct serve_page *pg, const char *tab, const struct nicfit_catalog *cat,
		     const char *html, size_t len);

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
