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

#include "serve_int.h"

#define DISCARD_MAX 16             /* times max_body read and dropped before closing */

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

/* ---- request checks ---------------------------------------------------- */

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
	serve_add_headers(r, "application/json", 0);
	MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	return serve_queue(rq, MHD_HTTP_METHOD_NOT_ALLOWED, r, 0);
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
			return serve_reply_error(rq, MHD_HTTP_BAD_REQUEST, "host",
						 "Host '%.64s' is not this server (use 127.0.0.1 or localhost)",
						 host);
	}
	rq->route = serve_match_route(url, &rq->rest);
	if (!rq->route) {
		rq->asset = serve_match_asset(s, url);
		if (!rq->asset)
			return serve_reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
						 "nothing at %.128s (the API is listed at /api)", rq->path);
		allowed = M_GET;
	} else {
		allowed = rq->route->methods;
		if ((rq->route->flags & R_AUDIT) && !s->o->allow_audit)
			return serve_reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
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
			return serve_reply_error(rq, MHD_HTTP_BAD_REQUEST, "usage",
						 "bad Content-Length '%.32s'", cl);
		if (n > s->o->max_body)
			return serve_reply_error(rq, MHD_HTTP_CONTENT_TOO_LARGE, "limit",
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
		return serve_reply_error(rq, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, "media_type",
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
		return serve_reply_error(rq, MHD_HTTP_CONTENT_TOO_LARGE, "limit",
					 "request body is over the limit of %zu bytes", s->o->max_body);
	if (rq->asset)
		return serve_reply_asset(rq, rq->asset);
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

	rc = serve_mhd_load(err);
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
	rc = serve_assets_load(s, err);
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
	serve_assets_free(s);
out_free:
	pthread_mutex_destroy(&s->log_lock);
	pthread_mutex_destroy(&s->audit_lock);
	free(s);
	return rc;
}
