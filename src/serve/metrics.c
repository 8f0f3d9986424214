/*
 * metrics.c - GET /metrics: what the server has done since it started, in
 * Prometheus's text exposition format (0.0.4, the library's writer,
 * nicfit/prom.h), for a Prometheus scrape: requests by status class,
 * those ended by their CPU budget, connections the connection table cut
 * (503 at a limit or stopping, 408 late or with a slow body), and the
 * answer cache's hits, misses, evictions, entries and bytes with its
 * bounds, so that its hit rate can be graphed (rate of hits over rate of
 * hits and misses) rather than read from the access log.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "serve_int.h"
#include "nicfit/prom.h"

#define METRICS_MAX ((size_t)64 * 1024)

static void counter(struct nicfit_buf *b, const char *name, const char *help, double v)
{
	nicfit_prom_family(b, name, "counter", help);
	nicfit_prom_sample(b, name, v, NULL);
}

static void gauge(struct nicfit_buf *b, const char *name, const char *help, double v)
{
	nicfit_prom_family(b, name, "gauge", help);
	nicfit_prom_sample(b, name, v, NULL);
}

static void requests(struct nicfit_buf *b, struct server *s)
{
	static const char *const cls[] = { NULL, "1xx", "2xx", "3xx", "4xx", "5xx" };
	int i;

	nicfit_prom_family(b, "nicfit_serve_requests_total", "counter",
			   "Requests answered, by status class (as the access log writes them: "
			   "499, a client gone before its answer, is 4xx).");
	for (i = 1; i <= 5; i++)
		nicfit_prom_sample(b, "nicfit_serve_requests_total",
				   (double)atomic_load(&s->requests[i]), "class", cls[i], NULL);
	counter(b, "nicfit_serve_cpu_budget_ends_total", "Requests ended by their CPU budget "
		"(--cpu-budget), answered 413.", (double)atomic_load(&s->budget_ends));
}

static void cuts(struct nicfit_buf *b, struct server *s)
{
	unsigned long long busy, late, slow;

	pthread_mutex_lock(&s->guard.lock);
	busy = s->guard.cut_busy;
	late = s->guard.cut_late;
	slow = s->guard.cut_slow;
	pthread_mutex_unlock(&s->guard.lock);
	nicfit_prom_family(b, "nicfit_serve_connections_cut_total", "counter",
			   "Connections the connection table answered and closed before their "
			   "request was whole: busy (503, gave way at a limit, or stopping), "
			   "late (408, --timeout), slow_body (408, a body under 500 bytes a "
			   "second).");
	nicfit_prom_sample(b, "nicfit_serve_connections_cut_total", (double)busy, "reason", "busy",
			   NULL);
	nicfit_prom_sample(b, "nicfit_serve_connections_cut_total", (double)late, "reason", "late",
			   NULL);
	nicfit_prom_sample(b, "nicfit_serve_connections_cut_total", (double)slow, "reason",
			   "slow_body", NULL);
}

static void cache(struct nicfit_buf *b, struct server *s)
{
	struct serve_cache_counts c;

	serve_cache_counts(&s->cache, &c);
	counter(b, "nicfit_serve_cache_hits_total", "Spec requests answered from the answer "
		"cache.", (double)c.hits);
	counter(b, "nicfit_serve_cache_misses_total", "Spec requests the answer cache did not "
		"hold (worked out, then kept).", (double)(c.lookups - c.hits));
	counter(b, "nicfit_serve_cache_evictions_total", "Answers dropped, least recently used "
		"first, to keep the cache within its bounds.", (double)c.evictions);
	gauge(b, "nicfit_serve_cache_entries", "Answers the cache holds.", (double)c.entries);
	gauge(b, "nicfit_serve_cache_max_entries", "Answers the cache may hold (0: no cache).",
	      (double)c.max_entries);
	gauge(b, "nicfit_serve_cache_bytes", "Bytes of the answers and keys the cache holds.",
	      (double)c.bytes);
	gauge(b, "nicfit_serve_cache_max_bytes", "Bytes the cache may hold (--cache MiB; 0: no "
	      "cache).", (double)c.max_bytes);
}

enum MHD_Result serve_handle_metrics(struct request *rq)
{
	struct nicfit_buf b;

	nicfit_buf_init(&b, METRICS_MAX);
	requests(&b, rq->srv);
	cuts(&b, rq->srv);
	cache(&b, rq->srv);
	if (nicfit_buf_error(&b)) {
		nicfit_buf_release(&b);
		return serve_reply_error(rq, 500, "internal", "out of memory writing the metrics");
	}
	return serve_reply_buf(rq, 200, "text/plain; version=0.0.4; charset=utf-8", &b);
}
