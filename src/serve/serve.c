/*
 * serve.c - the daemon of `nicfit serve` (see serve.h): start and stop, the
 * checks and limits every request passes, and libmicrohttpd's callbacks.
 *
 * libmicrohttpd calls on_request() several times per request: once when
 * the headers are in (where the route, method, Host, Content-Type and
 * Content-Length are checked, so a bad request is refused before its body
 * is read), once per piece of body (kept up to max_body, then counted and
 * dropped), and once at the end, where the route's handler (api.c) runs
 * the library function and queues the answer (reply.c). Page assets are
 * assets.c's; libmicrohttpd itself is opened at run time (mhd.c).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "serve_int.h"
#include "nicfit/budget.h"

#define DISCARD_MAX 16             /* times max_body read and dropped before closing */
#define SHUTDOWN_WAIT_MS 2000      /* how long requests in flight may take to finish at stop */

/*
 * Connections libmicrohttpd accepts beyond --max-connections and
 * --max-per-ip, so that the table (guard.c) can let them in over the limit
 * and answer them, instead of libmicrohttpd closing them unanswered: as
 * many again, at least 64.
 */
static unsigned with_room(unsigned n)
{
	return n + (n > 64 ? n : 64);
}

/*
 * Descriptors for every connection libmicrohttpd may hold: the soft limit
 * raised to the hard one (1,024 by default would drop a burst of a
 * thousand connections before anyone could answer them).
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl)) {
			/* the limits stay as they were; the table still answers what it can */
		}
	}
}

void serve_options_init(struct serve_options *o)
{
	memset(o, 0, sizeof(*o));
	o->bind = "127.0.0.1";
	o->port = SERVE_DEFAULT_PORT;
	o->max_connections = 512;
	o->max_per_ip = 384;
	o->timeout_s = 10;
	o->max_body = SERVE_MAX_BODY;
	o->cpu_budget_ms = SERVE_CPU_BUDGET_MS;
	o->cache_mb = SERVE_CACHE_MB;
}

/* ---- request checks ---------------------------------------------------- */

static enum MHD_Result collect_header(void *cls, enum MHD_ValueKind kind, const char *key,
				      const char *value)
{
	(void)kind;
	if (key && value)
		serve_head_header(cls, key, value);
	return MHD_YES;
}

static int is_asset(void *cls, const char *url)
{
	return serve_match_asset(cls, url) != NULL;
}

/*
 * The table of connections (guard.c) may have answered this connection
 * already (its deadline passed) or marked it over the limits; say so, or
 * take the connection out of its hands before answering.
 */
static int answer_or_drop(struct request *rq, enum MHD_Result *ok)
{
	switch (serve_guard_answering(&rq->srv->guard, rq->conn)) {
	case SERVE_GUARD_GONE:
		*ok = MHD_NO;
		return 1;
	case SERVE_GUARD_OVER:
		*ok = serve_reply_error(rq, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
					"the server is at its connection limit or stopping: try again");
		return 1;
	default:
		return 0;
	}
}

/*
 * First call, headers only: find the route and refuse what can be refused
 * before the body arrives (http.c decides). Returns MHD_YES with nothing
 * queued to go on.
 */
static enum MHD_Result begin(struct request *rq, const char *url)
{
	struct server *s = rq->srv;
	struct serve_head h;
	struct serve_verdict *v;
	enum MHD_Result ok;

	serve_head_init(&h);
	h.method = rq->method_name;
	h.url = url;
	h.path_has_nul = rq->nul_in_target;
	h.loopback = s->loopback;
	h.allow_audit = s->o->allow_audit;
	h.max_body = s->o->max_body;
	h.match_route = serve_match_route;
	h.is_asset = is_asset;
	h.cls = s;
	MHD_get_connection_values(rq->conn, MHD_HEADER_KIND, collect_header, &h);
	v = malloc(sizeof(*v));
	if (!v)
		return MHD_NO;
	if (serve_check_head(&h, v)) {
		if (!answer_or_drop(rq, &ok))
			ok = serve_reply_verdict(rq, v);
		free(v);
		return ok;
	}
	rq->route = v->route;
	rq->rest = v->rest;
	if (!rq->route)
		rq->asset = serve_match_asset(s, url);
	free(v);
	return MHD_YES;
}

static enum MHD_Result add_header_size(void *cls, enum MHD_ValueKind kind, const char *key,
				       const char *value)
{
	size_t *n = cls;

	(void)kind;
	*n += strlen(key) + 2 + (value ? strlen(value) : 0) + 2;
	return MHD_YES;
}

/*
 * The bytes of the request line and headers as the client sent them
 * (give or take the spaces around each colon): what SERVE_MAX_HEADERS
 * limits.
 */
static size_t request_head_size(struct MHD_Connection *conn, const char *method,
				const char *url, const char *version)
{
	size_t n = strlen(method) + 1 + strlen(url) + 1 + strlen(version) + 2;

	MHD_get_connection_values(conn, MHD_HEADER_KIND, add_header_size, &n);
	return n + 2;
}

/* s into d (n bytes), cut to fit and NUL-terminated: snprintf("%s") without its set-up. */
static void copy_cut(char *d, size_t n, const char *s)
{
	size_t k = strnlen(s, n - 1);

	memcpy(d, s, k);
	d[k] = '\0';
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_size, void **con_cls)
{
	struct server *s = cls;
	struct request *rq = *con_cls;
	enum MHD_Result ok;

	if (!rq) {
		rq = calloc(1, sizeof(*rq));
		if (!rq)
			return MHD_NO;
		*con_cls = rq;
		rq->srv = s;
		rq->conn = conn;
		clock_gettime(CLOCK_MONOTONIC, &rq->t0);
		nicfit_buf_init(&rq->body, s->o->max_body);
		copy_cut(rq->method_name, sizeof(rq->method_name), method);
		copy_cut(rq->path, sizeof(rq->path), url);
		if (s->o->log) {
			const char *v;

			serve_guard_copy_target(conn, rq->target, sizeof(rq->target));
			copy_cut(rq->version, sizeof(rq->version), version ? version : "");
			v = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Referer");
			copy_cut(rq->referer, sizeof(rq->referer), v ? v : "");
			v = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "User-Agent");
			copy_cut(rq->agent, sizeof(rq->agent), v ? v : "");
		}
		rq->method = serve_method_bits(method);
		switch (serve_guard_head(&s->guard, conn)) {
		case SERVE_GUARD_GONE:
			return MHD_NO;
		case SERVE_GUARD_OVER:
			return serve_reply_error(rq, MHD_HTTP_SERVICE_UNAVAILABLE, "busy",
						 "the server is at its connection limit: try again");
		default:
			if (request_head_size(conn, method, url, version) > SERVE_MAX_HEADERS)
				return serve_reply_error(rq, MHD_HTTP_REQUEST_HEADER_FIELDS_TOO_LARGE,
							 "limit",
							 "request line and headers are over the limit of %zu bytes",
							 SERVE_MAX_HEADERS);
			rq->nul_in_target = !serve_guard_target_ok(conn, version);
			return begin(rq, url);
		}
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
		serve_guard_body(&s->guard, conn, *upload_size);
		*upload_size = 0;
		if (serve_guard_gone(&s->guard, conn))
			return MHD_NO;
		/* A client streaming a chunked body without end gets cut off. */
		return rq->seen / DISCARD_MAX > s->o->max_body ? MHD_NO : MHD_YES;
	}
	if (rq->answered)
		return MHD_YES;
	if (answer_or_drop(rq, &ok))
		return ok;
	if (rq->too_big)
		return serve_reply_error(rq, MHD_HTTP_CONTENT_TOO_LARGE, "limit",
					 "request body is over the limit of %zu bytes", s->o->max_body);
	if (rq->asset)
		return serve_reply_asset(rq, rq->asset);
	/*
	 * The handler's work counts against the request's CPU budget: past it
	 * the library unwinds and the answer is 413 (reply.c), so that one
	 * request cannot hold a worker, its other clients or the stop.
	 */
	if (s->o->cpu_budget_ms)
		nicfit_budget_begin(s->o->cpu_budget_ms);
	ok = rq->route->handle(rq);
	if (nicfit_budget_end() && !rq->answered)
		ok = serve_reply_budget(rq);
	return ok;
}

/* A field of a log line: its text escaped (serve_log_escape), "-" when empty. */
static const char *log_field(char *buf, size_t n, const char *s)
{
	if (!*s)
		return "-";
	serve_log_escape(buf, n, s);
	return buf;
}

/*
 * One line per request in the Combined Log Format, as Apache and nginx
 * write it: client, identity and user ("-"), [time], "request line",
 * status, bytes ("-" for none), "Referer", "User-Agent". Every field from
 * the client is escaped (no quote, backslash or control byte gets
 * through), so each line is one record. A request that ended before an
 * answer (the client left) is written with status 499, as nginx writes it.
 */
static void log_request(struct request *rq, struct MHD_Connection *conn,
			enum MHD_RequestTerminationCode toe)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	char ip[INET6_ADDRSTRLEN] = "-", method[4 * sizeof(rq->method_name)];
	char target[4 * sizeof(rq->target)], version[4 * sizeof(rq->version)];
	char referer[4 * sizeof(rq->referer)], agent[4 * sizeof(rq->agent)], when[40];
	char bytes[24], cache[64] = "";
	struct tm tm;
	time_t now = time(NULL);
	unsigned status = rq->status ? rq->status : 499;

	if (ci && ci->client_addr) {
		if (ci->client_addr->sa_family == AF_INET)
			inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)
					     ci->client_addr)->sin_addr, ip, sizeof(ip));
		else if (ci->client_addr->sa_family == AF_INET6)
			inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)
					      ci->client_addr)->sin6_addr, ip, sizeof(ip));
	}
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%d/%b/%Y:%H:%M:%S %z", &tm);
	if (rq->bytes && toe == MHD_REQUEST_TERMINATED_COMPLETED_OK)
		snprintf(bytes, sizeof(bytes), "%zu", rq->bytes);
	else
		snprintf(bytes, sizeof(bytes), "-");
	if (rq->cache) {
		unsigned long long hits, lookups;

		serve_cache_stats(&rq->srv->cache, &hits, &lookups);
		snprintf(cache, sizeof(cache), " cache=%s hits=%llu/%llu",
			 rq->cache == 'H' ? "HIT" : "MISS", hits, lookups);
	}
	fprintf(stderr, "%s - - [%s] \"%s %s %s\" %u %s \"%s\" \"%s\"%s\n", ip, when,
		log_field(method, sizeof(method), rq->method_name),
		log_field(target, sizeof(target), rq->target[0] ? rq->target : rq->path),
		log_field(version, sizeof(version), rq->version), status, bytes,
		log_field(referer, sizeof(referer), rq->referer),
		log_field(agent, sizeof(agent), rq->agent), cache);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct server *s = cls;
	struct request *rq = *con_cls;

	if (!rq)
		return;
	serve_guard_done(&s->guard, conn);
	atomic_fetch_add(&s->requests[rq->status >= 100 && rq->status < 600 ? rq->status / 100 : 4],
			 1);
	if (rq->over_budget)
		atomic_fetch_add(&s->budget_ends, 1);
	if (s->o->log)
		log_request(rq, conn, toe);
	nicfit_buf_release(&rq->body);
	free(rq->ckey);
	free(rq);
	*con_cls = NULL;
}

/* Percent-decoding that keeps %00 (http.c). */
static size_t on_unescape(void *cls, struct MHD_Connection *conn, char *str)
{
	(void)cls;
	(void)conn;
	return serve_unescape(str);
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

/*
 * Stop accepting, answer 503 to the connections still waiting for their
 * request (a slow client must not hold the stop up), give requests in
 * flight up to SHUTDOWN_WAIT_MS, then stop: within the 3 s the man page
 * promises, libmicrohttpd's own stop included.
 */
static void shut_down(struct server *s)
{
	int i;

	MHD_quiesce_daemon(s->d);
	serve_guard_close_waiting(&s->guard);
	/* requests in flight end at their next look at the clock (nicfit/budget.h) */
	nicfit_budget_cancel_all();
	for (i = 0; i < SHUTDOWN_WAIT_MS / 50; i++) {
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

/*
 * glibc's allocator, for a server whose every request allocates a few
 * blocks of 10 to 35 kB (the request's settings, the plan, the answer)
 * among a hundred small ones, and frees them all before the next: without
 * fast bins, such an allocation does not first consolidate the small
 * blocks just freed, and a trim threshold above what one request holds
 * keeps the heap from being given back and taken again between requests.
 * Memory stays flat either way (bench/serve.sh checks it).
 */
static void tune_malloc(void)
{
#if defined(__GLIBC__) && defined(M_MXFAST) && defined(M_TRIM_THRESHOLD)
	mallopt(M_MXFAST, 0);
	mallopt(M_TRIM_THRESHOLD, 32 << 20);
#endif
}

int serve_run(const struct serve_options *o, struct nicfit_error *err)
{
	struct server *s;
	struct sockaddr_storage ss;
	sigset_t sigs, old;
	const union MHD_DaemonInfo *di;
	unsigned flags, port, threads;
	int v6 = 0, sig, rc;

	rc = serve_mhd_load(err);
	if (rc)
		return rc;
	tune_malloc();
	raise_fd_limit();
	s = calloc(1, sizeof(*s));
	if (!s)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	s->o = o;
	pthread_mutex_init(&s->log_lock, NULL);
	pthread_mutex_init(&s->audit_lock, NULL);
	rc = parse_bind(o->bind, o->port, &ss, &v6, &s->loopback, err);
	if (rc)
		goto out_free;
	rc = serve_assets_load(s, err);
	if (rc)
		goto out_assets;
	if (serve_cache_init(&s->cache, (size_t)o->cache_mb << 20, SERVE_CACHE_ENTRIES)) {
		rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		goto out_cache;
	}

	/* Workers inherit this mask, so only sigwait() below sees the signals. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	signal(SIGPIPE, SIG_IGN);

	rc = serve_guard_start(&s->guard, o->max_connections, o->max_per_ip, o->timeout_s, err);
	if (rc)
		goto out_mask;
	/*
	 * The table's deadline (--timeout) answers 408; libmicrohttpd's idle
	 * timeout, a second later, only backs it up (it closes unanswered).
	 */
	threads = o->threads ? o->threads : default_threads();
	flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ERROR_LOG | MHD_USE_ITC;
	if (v6)
		flags |= MHD_USE_IPv6;
	s->d = MHD_start_daemon(flags, (uint16_t)o->port, NULL, NULL, on_request, s,
				MHD_OPTION_EXTERNAL_LOGGER, on_log, s,
				MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				MHD_OPTION_THREAD_POOL_SIZE, threads > 1 ? threads : 0u,
				/* the table (guard.c) holds both limits and answers past them;
				 * libmicrohttpd's only stop what it could not answer */
				MHD_OPTION_CONNECTION_LIMIT, with_room(o->max_connections),
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, with_room(o->max_connections),
				MHD_OPTION_NOTIFY_CONNECTION, serve_guard_notify, s,
				MHD_OPTION_URI_LOG_CALLBACK, serve_guard_uri, s,
				MHD_OPTION_CONNECTION_TIMEOUT, o->timeout_s + 1,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, SERVE_CONNECTION_MEMORY,
				MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
				MHD_OPTION_STRICT_FOR_CLIENT, 1,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
				MHD_OPTION_UNESCAPE_CALLBACK, on_unescape, NULL,
				MHD_OPTION_END);
	if (!s->d) {
		rc = nicfit_error_at(err, NICFIT_E_IO, "--bind", 0, 0, "cannot listen on %s port %u: %s",
				     o->bind, o->port, s->last_log[0] ? s->last_log : "unknown error");
		goto out_guard;
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
out_guard:
	serve_guard_stop(&s->guard);
out_mask:
	pthread_sigmask(SIG_SETMASK, &old, NULL);
out_cache:
	serve_cache_free(&s->cache);
out_assets:
	serve_assets_free(s);
out_free:
	pthread_mutex_destroy(&s->log_lock);
	pthread_mutex_destroy(&s->audit_lock);
	free(s);
	return rc;
}
