/*
 * http.c - the decisions the server takes on a request's head, as plain
 * functions over strings: no libmicrohttpd call, no socket. serve.c feeds
 * them what libmicrohttpd parsed; tests/fuzz/fuzz_http.c feeds them what a
 * fuzzer wrote. Here: the Host check against DNS rebinding, the media type,
 * the framing of a body (Content-Length, Transfer-Encoding), the route and
 * its methods, the decoding of a path, the error body every refusal carries
 * and the escaping of what the log prints. Answering is reply.c's.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve_int.h"
#include "../lib/core/utf8.h"
#include "nicfit/emit.h"

/* ---- text from the client ------------------------------------------------ */

/*
 * Copy src into dst (cap bytes with the NUL) as valid UTF-8: a byte that
 * starts no valid sequence becomes U+FFFD, and a sequence that does not fit
 * is left out whole. The JSON writer refuses invalid UTF-8, and an error
 * that cannot be written used to drop the connection without an answer.
 */
void serve_utf8_clean(char *dst, size_t cap, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t n = strlen(src), w = 0, k;

	if (!cap)
		return;
	while (n) {
		k = nicfit__utf8_len(s, n, NULL);
		if (k) {
			if (w + k >= cap)
				break;
			memcpy(dst + w, s, k);
			w += k;
		} else {
			if (w + 3 >= cap)
				break;
			memcpy(dst + w, "\xef\xbf\xbd", 3);
			w += 3;
			k = 1;
		}
		s += k;
		n -= k;
	}
	dst[w] = '\0';
}

/*
 * A field as a log line may hold it: printable ASCII as it is, every
 * other byte (controls, %0a decoded to a newline, bytes over 0x7e), the
 * backslash and the double quote (which closes a Combined Log Format
 * field) as \xHH. A decoded newline used to start a forged log line.
 */
void serve_log_escape(char *dst, size_t cap, const char *src)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)src;
	size_t w = 0;

	if (!cap)
		return;
	for (; *s; s++) {
		if (*s >= 0x20 && *s < 0x7f && *s != '\\' && *s != '"') {
			if (w + 1 >= cap)
				break;
			dst[w++] = (char)*s;
		} else {
			if (w + 4 >= cap)
				break;
			dst[w++] = '\\';
			dst[w++] = 'x';
			dst[w++] = hex[*s >> 4];
			dst[w++] = hex[*s & 15];
		}
	}
	dst[w] = '\0';
}

/*
 * Percent-decoding of the path and query, as libmicrohttpd's own except
 * that %00 stays as it is: a decoded NUL would cut "/index.html%00.js"
 * short to "/index.html" behind the router's back.
 */
size_t serve_unescape(char *s)
{
	char *r = s, *w = s;

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

/* {"error": msg, "code": code} and a newline, msg made valid UTF-8 first. */
int serve_error_body(struct nicfit_buf *out, const char *code, const char *msg)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	char clean[SERVE_MSG_MAX];
	int rc;

	if (!e)
		return NICFIT_E_NOMEM;
	serve_utf8_clean(clean, sizeof(clean), msg);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "error", clean);
	nicfit_emit_string(e, "code", code);
	nicfit_emit_end_object(e);
	rc = nicfit_emit_finish(e, out);
	nicfit_emit_free(e);
	return rc;
}

/* ---- the head of a request ------------------------------------------------ */

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

unsigned serve_method_bits(const char *m)
{
	if (!strcmp(m, "GET") || !strcmp(m, "HEAD"))
		return M_GET;
	if (!strcmp(m, "POST"))
		return M_POST;
	return 0;
}

void serve_head_init(struct serve_head *h)
{
	memset(h, 0, sizeof(*h));
}

/*
 * Record one request header for the framing checks. Every Content-Length
 * must say the same number and Transfer-Encoding may appear once: a
 * request that two parsers could frame differently (request smuggling,
 * RFC 9112 section 6.3) is refused rather than guessed at.
 */
void serve_head_header(struct serve_head *h, const char *name, const char *value)
{
	if (!strcasecmp(name, "Host")) {
		h->nhost++;
		if (!h->host)
			h->host = value;
	} else if (!strcasecmp(name, "Content-Length")) {
		if (h->content_length && strcmp(h->content_length, value))
			h->cl_conflict = 1;
		if (!h->content_length)
			h->content_length = value;
	} else if (!strcasecmp(name, "Transfer-Encoding")) {
		h->nte++;
		if (!h->transfer_encoding)
			h->transfer_encoding = value;
	} else if (!strcasecmp(name, "Content-Type")) {
		if (!h->content_type)
			h->content_type = value;
	}
}

static int refuse(struct serve_verdict *v, unsigned status, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int refuse(struct serve_verdict *v, unsigned status, const char *code, const char *fmt, ...)
{
	va_list ap;

	v->status = status;
	v->code = code;
	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
	return 1;
}

/* A Content-Length is digits only, as RFC 9110 section 8.6 writes it. */
static int parse_length(const char *s, unsigned long long *n)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*n = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/*
 * Decide on a request's head before its body is read. 0 to go on (v->route
 * or v->asset says what answers), or 1 with the refusal in v: the status,
 * a code word and a message, and for 405 the methods allowed.
 */
int serve_check_head(const struct serve_head *h, struct serve_verdict *v)
{
	unsigned allowed;
	unsigned long long n = 0;

	memset(v, 0, sizeof(*v));
	if (h->path_has_nul)
		return refuse(v, 400, "usage", "a NUL byte in the request target");
	if (h->nhost > 1)
		return refuse(v, 400, "host", "more than one Host header (RFC 9112 section 3.2)");
	if (h->loopback && !host_ok(h->host))
		return refuse(v, 400, "host",
			      "Host '%.64s' is not this server (use 127.0.0.1 or localhost)",
			      h->host ? h->host : "");
	if (h->cl_conflict)
		return refuse(v, 400, "usage", "Content-Length given twice with different values");
	if (h->transfer_encoding && h->content_length)
		return refuse(v, 400, "usage",
			      "both Content-Length and Transfer-Encoding: send one of them");
	if (h->transfer_encoding && (h->nte > 1 || strcasecmp(h->transfer_encoding, "chunked")))
		return refuse(v, 501, "usage",
			      "Transfer-Encoding '%.32s' is not supported: send chunked or a "
			      "Content-Length", h->transfer_encoding);
	if (h->content_length && parse_length(h->content_length, &n))
		return refuse(v, 400, "usage", "bad Content-Length '%.32s'", h->content_length);
	v->route = h->match_route ? h->match_route(h->url, &v->rest) : NULL;
	if (!v->route) {
		v->asset = h->is_asset ? h->is_asset(h->cls, h->url) : 0;
		if (!v->asset)
			return refuse(v, 404, "not_found", "nothing at %.128s (the API is listed at /api)",
				      h->url);
		allowed = M_GET;
	} else {
		allowed = v->route->methods;
		if ((v->route->flags & R_AUDIT) && !h->allow_audit)
			return refuse(v, 404, "not_found",
				      "%.128s is off: start the server with --allow-audit to let it "
				      "inspect this host", h->url);
	}
	if (!(serve_method_bits(h->method) & allowed)) {
		v->allow = allowed;
		return refuse(v, 405, "method", "%.32s is not allowed here: use %s", h->method,
			      allowed & M_POST ? "POST" : "GET, HEAD");
	}
	if (serve_method_bits(h->method) != M_POST)
		return 0;
	if (n > h->max_body)
		return refuse(v, 413, "limit", "request body of %llu bytes is over the limit of %zu",
			      n, h->max_body);
	if (!n && !h->transfer_encoding)
		return 0;
	if (!h->content_type || !is_json_type(h->content_type))
		return refuse(v, 415, "media_type",
			      "send the request as Content-Type: application/json (got '%.64s')",
			      h->content_type ? h->content_type : "none");
	return 0;
}
