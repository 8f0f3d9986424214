/*
 * serve.h - the web configurator and JSON API behind `nicfit serve`.
 *
 * An HTTP server (libmicrohttpd, a fixed pool of worker threads) that
 * answers the same requests as the command line: POST /api/plan,
 * /api/cluster and /api/calc/NAME take the JSON document that `--spec`
 * takes, GET /api/decode/PART and /api/catalog[/KIND[/ID]] take their
 * argument from the path, and every answer is the document the CLI prints
 * with --json (or ?format=text|md|csv|svg). The page (HTML, CSS, JS) is
 * compiled into the binary; nothing is read from the file system.
 *
 * The catalog is loaded once before the server starts and only read while
 * it runs; each request gets its own spec, emitter and buffers, so the
 * workers share nothing that they write. Internal to the CLI binary: this
 * header is all that cmd_serve.c sees; the server's own files share
 * serve_int.h besides.
 */
#ifndef NICFIT_SERVE_H
#define NICFIT_SERVE_H

#include <stddef.h>

#include "nicfit/catalog.h"
#include "nicfit/error.h"

#define SERVE_DEFAULT_PORT 8080
#define SERVE_MAX_BODY ((size_t)1 << 20)   /* larger request bodies get 413 */
#define SERVE_MAX_CLUSTER_NODES 16384      /* larger clusters get 413 (api.c says why) */
/*
 * libmicrohttpd's memory for one connection: the request line and headers
 * are read into it and the answer's headers written there, and it is
 * cleared after every request, so its size is paid on each one (64 KiB
 * cost a POST /api/plan 98k instructions of memset, 32 KiB half that).
 * 32 KiB is libmicrohttpd's own default and holds the SERVE_MAX_HEADERS
 * of request headers (more than the 8 kB a header line may have in
 * nginx's and Apache httpd's defaults) twice over, with room for the
 * answer. tests/suites/serve.sh sends a 12 kB cookie.
 */
#define SERVE_CONNECTION_MEMORY ((size_t)32 * 1024)
/*
 * The request line and headers together (counted as sent, "Name: value"
 * plus CRLF) may have this many bytes; more get 431 with the JSON error
 * document. Why 15 KiB: libmicrohttpd 0.9.75 (Debian 12) copies a Cookie
 * header once more in the same memory, and when the request leaves too
 * little of it for the answer's headers it closes the connection without
 * an answer; at 15 KiB a request made of one cookie still leaves room for
 * the 431. Past what the memory holds at all libmicrohttpd answers 431
 * itself (its own HTML body); docs/nicfit-serve.1 lists the bands.
 */
#define SERVE_MAX_HEADERS ((size_t)15 * 1024)

struct serve_options {
	const char *bind;             /* numeric IPv4 or IPv6 address */
	unsigned port;                /* 0: any free port (printed at start) */
	unsigned threads;             /* worker threads; 0: one per CPU, 2..16 */
	unsigned max_connections;     /* open connections in all */
	unsigned max_per_ip;          /* open connections from one address */
	unsigned timeout_s;           /* idle connections are closed after this */
	size_t max_body;              /* request body limit in bytes */
	unsigned cpu_budget_ms;       /* CPU time one request may use (413 past it); 0: no limit */
	unsigned cache_mb;            /* memory for kept answers (MiB); 0: none kept */
	int allow_audit;              /* answer GET /api/audit (this host) */
	const char *sysfs_root;       /* what the audit reads: NULL or "/" for this host */
	int log;                      /* one line per request on stderr */
	const struct nicfit_catalog *cat; /* read-only while serving */
};

#define SERVE_CPU_BUDGET_MS 1000           /* default --cpu-budget */
#define SERVE_CACHE_MB 32                  /* default --cache */
#define SERVE_CACHE_ENTRIES 4096           /* answers kept at most, whatever their size */

/* The defaults: 127.0.0.1:8080, 512 connections, 10 s, 1 MB bodies, 1 s of CPU, 32 MiB cache. */
void serve_options_init(struct serve_options *o);

/*
 * Start the server, print "nicfit serve: listening on http://ADDR:PORT/"
 * on stderr, and answer requests until SIGINT or SIGTERM; then stop
 * accepting, let requests in flight finish (a few seconds at most), and
 * return 0. Errors (address in use, bad address): NICFIT_E_USAGE or
 * NICFIT_E_IO with a message in err.
 */
int serve_run(const struct serve_options *o, struct nicfit_error *err);

#endif
