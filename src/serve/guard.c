/*
 * guard.c - the server's table of open connections, kept beside
 * libmicrohttpd's: it bounds the time a client has to send a whole request
 * and it answers the clients the limits turn away.
 *
 * libmicrohttpd's --timeout counts idleness only, so a client sending one
 * byte a second holds a connection forever, and its connection limits close
 * the extra sockets without a word. Here, every connection starts with a
 * deadline of --timeout seconds to deliver its request, head and body; a
 * watchdog thread answers those past it with 408 and shuts their socket
 * (libmicrohttpd then closes it as a client that left). When the server, or
 * one address, is at its limit, a newcomer is let in over it (libmicrohttpd
 * is given room for that): when its request head arrives, the oldest
 * connection still waiting for a head makes room (it is answered 503), and
 * without one the newcomer is answered 503; a newcomer that sends no head
 * within GRACE_MS is answered 503 too; a connection whose body arrives
 * slower than SERVE_MIN_BODY_RATE is answered 408, and makes room first.
 * So a slow client gives way to one that asks, and every client turned
 * away is told so (503 with Retry-After). A connection whose request
 * is in the handler is never touched: the table only writes to a socket
 * while libmicrohttpd reads from it, and under the lock that the request
 * path takes before it answers.
 */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "serve_int.h"

#define WATCH_MS 100 /* how often the watchdog looks; a deadline is late by at most this */
/*
 * How long a connection let in past a limit has to send its request head
 * before it is answered 503: a client that means to ask sends it within a
 * round trip or two, and the place it would take is someone's slow one.
 */
#define GRACE_MS 1000

struct guard_conn {
	struct guard_conn *prev, *next;  /* oldest first */
	int fd;
	struct sockaddr_storage addr;
	long long since_ms;              /* waiting for a request since */
	long long deadline_ms;           /* the request must be in by then */
	int waiting;                     /* no answer under way: the table may cut it */
	int cut;                         /* answered here and shut */
	int over;                        /* let in past a limit, holding no place yet */
	int head;                        /* its request head has arrived */
	long long head_ms;               /* when */
	size_t body;                     /* body bytes since then */
	const char *target;              /* the raw request target, in libmicrohttpd's buffer */
	size_t target_len;               /* up to its first NUL */
	char raw[512];                   /* a copy, query included, for the log (cut to fit) */
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)(const void *)a)->sin_addr,
			       &((const struct sockaddr_in *)(const void *)b)->sin_addr,
			       sizeof(struct in_addr));
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)(const void *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return 0;
}

/* One whole HTTP answer, written straight to a socket libmicrohttpd is reading. */
static char *raw_answer(unsigned status, const char *reason, const char *code, const char *msg)
{
	struct nicfit_buf body, out;
	char *text;
	size_t len;

	nicfit_buf_init(&body, 4096);
	nicfit_buf_init(&out, 8192);
	if (serve_error_body(&body, code, msg)) {
		nicfit_buf_release(&body);
		return NULL;
	}
	nicfit_buf_addf(&out, "HTTP/1.1 %u %s\r\nContent-Type: application/json\r\n"
			"Content-Length: %zu\r\nConnection: close\r\nCache-Control: no-store\r\n"
			"X-Content-Type-Options: nosniff\r\n%s\r\n", status, reason, body.len,
			status == 503 ? "Retry-After: 1\r\n" : "");
	nicfit_buf_add(&out, body.data, body.len);
	nicfit_buf_release(&body);
	text = nicfit_buf_detach(&out, &len);
	return text;
}

/* Answer c with text (one of g's) and shut its socket both ways; the lock is held. */
static void cut(struct guard *g, struct guard_conn *c, const char *text)
{
	size_t len = strlen(text), off = 0;
	ssize_t k;

	while (off < len) {
		k = send(c->fd, text + off, len - off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (k <= 0)
			break;
		off += (size_t)k;
	}
	shutdown(c->fd, SHUT_RDWR);
	c->cut = 1;
	c->waiting = 0;
	if (text == g->busy_text)
		g->cut_busy++;
	else if (text == g->late_text)
		g->cut_late++;
	else
		g->cut_slow++;
}

/*
 * Whether c's body, if it is sending one, keeps up SERVE_MIN_BODY_RATE
 * since its head arrived (grace: the first SERVE_BODY_GRACE_MS are free).
 */
static int body_rate_ok(const struct guard_conn *c, long long t, long long grace)
{
	long long since = t - c->head_ms;

	if (!c->head || since <= grace)
		return 1;
	return (long long)c->body * 1000 >= SERVE_MIN_BODY_RATE * (since - grace);
}

static void *watch(void *arg)
{
	struct guard *g = arg;
	struct guard_conn *c;
	struct timespec ts;

	pthread_mutex_lock(&g->lock);
	while (!g->stop) {
		long long t = now_ms();

		for (c = g->head; c; c = c->next) {
			if (!c->waiting || c->cut)
				continue;
			if (g->closing || (c->over && t >= c->since_ms + GRACE_MS))
				cut(g, c, g->busy_text);
			else if (t >= c->deadline_ms)
				cut(g, c, g->late_text);
			else if (!body_rate_ok(c, t, SERVE_BODY_GRACE_MS))
				cut(g, c, g->slow_text);
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += WATCH_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&g->wake, &g->lock, &ts);
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

int serve_guard_start(struct guard *g, unsigned max_conn, unsigned max_per_ip, unsigned timeout_s,
		      struct nicfit_error *err)
{
	char msg[160];

	memset(g, 0, sizeof(*g));
	g->max_conn = max_conn;
	g->max_per_ip = max_per_ip;
	g->timeout_ms = (long long)timeout_s * 1000;
	snprintf(msg, sizeof(msg), "the request did not arrive whole within %u s (--timeout)",
		 timeout_s);
	g->late_text = raw_answer(408, "Request Timeout", "timeout", msg);
	g->busy_text = raw_answer(503, "Service Unavailable", "busy",
				  "the server is at its connection limit or stopping: try again");
	snprintf(msg, sizeof(msg), "the request body arrived slower than %d bytes a second",
		 SERVE_MIN_BODY_RATE);
	g->slow_text = raw_answer(408, "Request Timeout", "timeout", msg);
	if (!g->late_text || !g->busy_text || !g->slow_text) {
		free(g->late_text);
		free(g->busy_text);
		free(g->slow_text);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->wake, NULL);
	if (pthread_create(&g->thread, NULL, watch, g)) {
		pthread_mutex_destroy(&g->lock);
		pthread_cond_destroy(&g->wake);
		free(g->late_text);
		free(g->busy_text);
		free(g->slow_text);
		return nicfit_error_set(err, NICFIT_E_INTERNAL, "cannot start the watchdog thread");
	}
	g->running = 1;
	return 0;
}

void serve_guard_stop(struct guard *g)
{
	if (!g->running)
		return;
	pthread_mutex_lock(&g->lock);
	g->stop = 1;
	pthread_cond_signal(&g->wake);
	pthread_mutex_unlock(&g->lock);
	pthread_join(g->thread, NULL);
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->wake);
	free(g->late_text);
	free(g->busy_text);
	free(g->slow_text);
	g->running = 0;
}

/* Stopping: answer 503 to every connection still waiting for its request. */
void serve_guard_close_waiting(struct guard *g)
{
	pthread_mutex_lock(&g->lock);
	g->closing = 1;
	pthread_cond_signal(&g->wake);
	pthread_mutex_unlock(&g->lock);
}

/* Connections that hold a place (not over, not cut): in all and from addr. */
static void count(struct guard *g, const struct sockaddr_storage *addr, unsigned *total,
		  unsigned *same)
{
	struct guard_conn *p;

	*total = *same = 0;
	for (p = g->head; p; p = p->next) {
		if (p->cut || p->over)
			continue;
		(*total)++;
		if (same_addr(&p->addr, addr))
			(*same)++;
	}
}

/*
 * A new connection: it holds a place if there is one; past a limit it is
 * let in "over", to be given a place when its request head arrives (see
 * serve_guard_head), or answered 503 after GRACE_MS without one.
 */
static struct guard_conn *conn_open(struct guard *g, struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci;
	struct guard_conn *c = calloc(1, sizeof(*c));
	unsigned total, same;

	if (!c)
		return NULL;
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	c->fd = ci ? ci->connect_fd : -1;
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (ci && ci->client_addr) {
		size_t n = ci->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
								  : sizeof(struct sockaddr_in);
		memcpy(&c->addr, ci->client_addr, n);
	}
	c->waiting = 1;
	pthread_mutex_lock(&g->lock);
	c->since_ms = now_ms();
	c->deadline_ms = c->since_ms + g->timeout_ms;
	count(g, &c->addr, &total, &same);
	c->over = total >= g->max_conn || same >= g->max_per_ip;
	c->prev = g->tail;
	if (g->tail)
		g->tail->next = c;
	else
		g->head = c;
	g->tail = c;
	pthread_mutex_unlock(&g->lock);
	return c;
}

static void conn_close(struct guard *g, struct guard_conn *c)
{
	pthread_mutex_lock(&g->lock);
	if (c->prev)
		c->prev->next = c->next;
	else
		g->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		g->tail = c->prev;
	pthread_mutex_unlock(&g->lock);
	free(c);
}

void serve_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
			enum MHD_ConnectionNotificationCode toe)
{
	struct server *s = cls;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED)
		*socket_context = conn_open(&s->guard, conn);
	else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context)
		conn_close(&s->guard, *socket_context);
}

static struct guard_conn *conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/*
 * Who gives way to c at a limit (from c's address when by_addr): the
 * oldest connection still waiting for its request head, else the one whose
 * body arrives slowest of those below SERVE_MIN_BODY_RATE (no grace: a body
 * that trickles from its first byte is no request being sent). NULL: none.
 */
static struct guard_conn *make_room(struct guard *g, const struct guard_conn *c, int by_addr)
{
	struct guard_conn *p, *slow = NULL;
	long long t = now_ms();

	for (p = g->head; p; p = p->next) {
		if (!p->waiting || p->cut || p->over || p == c ||
		    (by_addr && !same_addr(&p->addr, &c->addr)))
			continue;
		if (!p->head)
			return p;
		if (!body_rate_ok(p, t, 0) &&
		    (!slow || (long long)p->body * (t - slow->head_ms + 1) <
			      (long long)slow->body * (t - p->head_ms + 1)))
			slow = p;
	}
	return slow;
}

/*
 * The head of a request has arrived on conn. A connection let in over a
 * limit takes the place of the oldest one still waiting for its head (from
 * the same address, when that address is at its limit), which is answered
 * 503: a slow client gives way to one that asks. 0 to go on,
 * SERVE_GUARD_GONE (the table answered it: stop) or SERVE_GUARD_OVER
 * (no place: answer 503).
 */
int serve_guard_head(struct guard *g, struct MHD_Connection *conn)
{
	struct guard_conn *c = conn_of(conn), *victim = NULL;
	unsigned total, same;
	int rc = 0;

	if (!c)
		return 0;
	pthread_mutex_lock(&g->lock);
	if (c->cut) {
		rc = SERVE_GUARD_GONE;
	} else {
		c->head = 1;
		c->head_ms = now_ms();
		c->body = 0;
		if (c->over) {
			count(g, &c->addr, &total, &same);
			if (total < g->max_conn && same < g->max_per_ip) {
				c->over = 0;
			} else {
				int by_addr = same >= g->max_per_ip;

				victim = make_room(g, c, by_addr);
				if (victim) {
					cut(g, victim, g->busy_text);
					c->over = 0;
				} else {
					c->waiting = 0;
					rc = SERVE_GUARD_OVER;
				}
			}
		}
	}
	pthread_mutex_unlock(&g->lock);
	return rc;
}

/*
 * The request on conn is about to be answered: from now on the table
 * leaves its socket alone. SERVE_GUARD_GONE: the table already answered
 * it (stop, it is shut); SERVE_GUARD_OVER: answer it 503; else 0.
 */
int serve_guard_answering(struct guard *g, struct MHD_Connection *conn)
{
	struct guard_conn *c = conn_of(conn);
	int rc = 0;

	if (!c)
		return 0;
	pthread_mutex_lock(&g->lock);
	if (c->cut)
		rc = SERVE_GUARD_GONE;
	else if (g->closing)
		rc = SERVE_GUARD_OVER;
	c->waiting = 0;
	pthread_mutex_unlock(&g->lock);
	return rc;
}

/* Whether the table answered conn already (a body still arriving: stop reading). */
int serve_guard_gone(struct guard *g, struct MHD_Connection *conn)
{
	struct guard_conn *c = conn_of(conn);
	int rc;

	if (!c)
		return 0;
	pthread_mutex_lock(&g->lock);
	rc = c->cut;
	pthread_mutex_unlock(&g->lock);
	return rc;
}

void serve_guard_body(struct guard *g, struct MHD_Connection *conn, size_t n)
{
	struct guard_conn *c = conn_of(conn);

	if (!c)
		return;
	pthread_mutex_lock(&g->lock);
	c->body += n;
	pthread_mutex_unlock(&g->lock);
}

/* A request is done; the next one on this connection gets a deadline of its own. */
void serve_guard_done(struct guard *g, struct MHD_Connection *conn)
{
	struct guard_conn *c = conn_of(conn);

	if (!c)
		return;
	pthread_mutex_lock(&g->lock);
	if (!c->cut) {
		c->waiting = 1;
		c->head = 0;
		c->since_ms = now_ms();
		c->deadline_ms = c->since_ms + g->timeout_ms;
	}
	pthread_mutex_unlock(&g->lock);
}

/*
 * libmicrohttpd's MHD_OPTION_URI_LOG_CALLBACK: the raw request target,
 * before decoding, remembered so that serve_guard_target_ok() can see a NUL
 * byte inside it. Returns NULL (no request context yet).
 */
void *serve_guard_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
	struct guard_conn *c = conn_of(conn);

	(void)cls;
	if (c && uri) {
		c->target = uri;
		c->target_len = strlen(uri);
		/* libmicrohttpd cuts the query off in its buffer later: copied now */
		memcpy(c->raw, uri, c->target_len < sizeof(c->raw) ? c->target_len + 1 : sizeof(c->raw));
		c->raw[sizeof(c->raw) - 1] = '\0';
	}
	return NULL;
}

void serve_guard_copy_target(struct MHD_Connection *conn, char *out, size_t n)
{
	struct guard_conn *c = conn_of(conn);
	size_t k;

	if (!n)
		return;
	k = c ? strnlen(c->raw, n - 1) : 0;
	if (k)
		memcpy(out, c->raw, k);
	out[k] = '\0';
}

/*
 * Whether the request line held its target whole. libmicrohttpd reads the
 * line by its length but hands the target on as a C string, so a raw NUL
 * in it ("GET /index.html\0.js") cuts the path short unseen; the version
 * follows the target in the same buffer, and between the target's first
 * NUL and the version there may be only the one NUL libmicrohttpd wrote
 * and the blanks that separated them.
 */
int serve_guard_target_ok(struct MHD_Connection *conn, const char *version)
{
	struct guard_conn *c = conn_of(conn);
	const char *p, *end;
	int nuls = 0;

	if (!c || !c->target || !version || version <= c->target)
		return 1;
	end = version;
	p = c->target + c->target_len;
	if ((size_t)(end - p) > 64)
		return 0;
	for (; p < end; p++) {
		if (*p == '\0')
			nuls++;
		else if (*p != ' ' && *p != '\t')
			return 0;
	}
	return nuls <= 1;
}
