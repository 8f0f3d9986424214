/*
 * fuzz_http.c - the server's request layer without a socket: an input is a
 * request as a client sends it (request line, header lines, a blank line,
 * a body). The harness splits it as libmicrohttpd does, decodes the path
 * as the server does (src/serve/http.c), and runs the checks every request
 * passes (Host, framing, route, method, media type, limits), then checks
 * what the server would write: every refusal's body is one valid JSON
 * document holding its message, a log line holds no control byte, and an
 * accepted POST body goes to the spec parser the routes use.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/serve/serve_int.h"
#include "nicfit/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_HEADERS 64

static int fake_asset(void *cls, const char *url)
{
	static const char *const names[] = { "/app.js", "/app.css", "/favicon.svg", "/index.html" };
	size_t i;

	(void)cls;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(url, names[i]))
			return 1;
	return 0;
}

/* The next line of [*p, end), without its CR LF (or LF); NULL at the end. */
static char *next_line(char **p, char *end, size_t *len)
{
	char *s = *p, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	if (!nl)
		nl = end;
	*len = (size_t)(nl - s);
	if (*len && s[*len - 1] == '\r')
		(*len)--;
	*p = nl < end ? nl + 1 : end;
	s[*len] = '\0';
	return s;
}

static void check_error_body(const char *code, const char *msg)
{
	struct nicfit_buf out;
	json_error_t jerr;
	json_t *doc;

	nicfit_buf_init(&out, 1 << 20);
	if (serve_error_body(&out, code, msg))
		abort(); /* an error the server cannot write is a connection dropped unanswered */
	doc = json_loadb(out.data, out.len, 0, &jerr);
	if (!doc || !json_is_string(json_object_get(doc, "error")) ||
	    !json_is_string(json_object_get(doc, "code")))
		abort();
	json_decref(doc);
	nicfit_buf_release(&out);
}

static void check_log(const char *s)
{
	char line[4 * 200];
	const char *p;

	serve_log_escape(line, sizeof(line), s);
	for (p = line; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			abort(); /* a byte that could forge or garble a log line */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *p, *end, *line, *sp, *target, *q, *body = NULL;
	char path[4096];
	struct serve_head h;
	struct serve_verdict v;
	size_t len, n;
	int nh = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	p = buf;
	end = buf + size;
	serve_head_init(&h);
	h.loopback = size && (data[0] & 1);
	h.allow_audit = size > 1 && (data[1] & 1);
	h.max_body = SERVE_MAX_BODY;
	h.match_route = serve_match_route;
	h.is_asset = fake_asset;
	line = next_line(&p, end, &len);
	if (!line)
		goto out;
	/* METHOD SP target SP version, the target read by its length as libmicrohttpd reads it */
	sp = memchr(line, ' ', len);
	if (!sp)
		goto out;
	*sp = '\0';
	h.method = line;
	target = sp + 1;
	q = memchr(target, ' ', len - (size_t)(target - line));
	n = q ? (size_t)(q - target) : len - (size_t)(target - line);
	h.path_has_nul = memchr(target, '\0', n) != NULL;
	if (n >= sizeof(path))
		goto out;
	memcpy(path, target, n);
	path[n] = '\0';
	q = strchr(path, '?');
	if (q)
		*q = '\0';
	serve_unescape(path);
	h.url = path;
	while ((line = next_line(&p, end, &len)) != NULL) {
		char *colon, *value;

		if (!len) {
			body = p;
			break;
		}
		colon = memchr(line, ':', len);
		if (!colon || nh++ >= MAX_HEADERS)
			continue;
		*colon = '\0';
		value = colon + 1;
		while (*value == ' ' || *value == '\t')
			value++;
		serve_head_header(&h, line, value);
	}
	check_log(path);
	check_log(h.method);
	if (serve_check_head(&h, &v)) {
		if (v.status < 400 || v.status > 599 || !v.code)
			abort();
		check_error_body(v.code, v.msg);
		goto out;
	}
	if (!v.route && !v.asset)
		abort(); /* accepted, but nothing would answer */
	check_error_body("usage", path); /* the handlers put the path in their errors */
	if (v.route && (v.route->methods & M_POST) && body && body < end) {
		struct nicfit_spec spec;
		struct nicfit_error err;

		nicfit_spec_init(&spec, "body");
		nicfit_error_clear(&err);
		nicfit_spec_parse_json(&spec, body, (size_t)(end - body), &err);
		nicfit_spec_release(&spec);
	}
out:
	free(buf);
	return 0;
}
