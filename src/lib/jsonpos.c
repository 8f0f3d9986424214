/*
 * jsonpos.c - locate a value in JSON text by path (see jsonpos.h).
 *
 * A small recursive-descent walker over text that jansson has already
 * accepted; it only needs to skip values and compare keys, so it does not
 * decode escapes beyond what key comparison needs. Depth is capped.
 */
#include <stdlib.h>
#include <string.h>

#include "jsonpos.h"

#define MAX_DEPTH 64

struct walker {
	const char *s, *end, *p;
	long line, col;
};

static void adv(struct walker *w)
{
	if (w->p >= w->end)
		return;
	if (*w->p == '\n') {
		w->line++;
		w->col = 1;
	} else if (((unsigned char)*w->p & 0xC0) != 0x80) {
		w->col++;
	}
	w->p++;
}

static void ws(struct walker *w)
{
	while (w->p < w->end && (*w->p == ' ' || *w->p == '\t' || *w->p == '\n' || *w->p == '\r'))
		adv(w);
}

/* Skip a string at w->p ('"'); copy its raw bytes (up to n-1) into out. */
static int skip_string(struct walker *w, char *out, size_t n)
{
	size_t k = 0;

	if (w->p >= w->end || *w->p != '"')
		return -1;
	adv(w);
	while (w->p < w->end && *w->p != '"') {
		if (*w->p == '\\') {
			if (out && k + 1 < n)
				out[k++] = w->p[1];
			adv(w);
		} else if (out && k + 1 < n) {
			out[k++] = *w->p;
		}
		adv(w);
	}
	if (out)
		out[k] = '\0';
	if (w->p >= w->end)
		return -1;
	adv(w);
	return 0;
}

static int skip_value(struct walker *w, int depth);

static int skip_container(struct walker *w, int depth, char close)
{
	if (depth > MAX_DEPTH)
		return -1;
	adv(w);
	ws(w);
	if (w->p < w->end && *w->p == close) {
		adv(w);
		return 0;
	}
	for (;;) {
		ws(w);
		if (close == '}') {
			if (skip_string(w, NULL, 0))
				return -1;
			ws(w);
			if (w->p >= w->end || *w->p != ':')
				return -1;
			adv(w);
			ws(w);
		}
		if (skip_value(w, depth + 1))
			return -1;
		ws(w);
		if (w->p >= w->end)
			return -1;
		if (*w->p == ',') {
			adv(w);
			continue;
		}
		if (*w->p == close) {
			adv(w);
			return 0;
		}
		return -1;
	}
}

static int skip_value(struct walker *w, int depth)
{
	if (w->p >= w->end)
		return -1;
	switch (*w->p) {
	case '{': return skip_container(w, depth, '}');
	case '[': return skip_container(w, depth, ']');
	case '"': return skip_string(w, NULL, 0);
	default:
		while (w->p < w->end && !strchr(",]} \t\r\n", *w->p))
			adv(w);
		return 0;
	}
}

/* Walk into the member/element named by the next path component. */
static int descend(struct walker *w, const char *comp, size_t clen, int depth)
{
	char key[256];

	ws(w);
	if (w->p >= w->end)
		return -1;
	if (*w->p == '{') {
		adv(w);
		for (;;) {
			ws(w);
			if (w->p >= w->end || *w->p == '}')
				return -1;
			if (skip_string(w, key, sizeof(key)))
				return -1;
			ws(w);
			if (w->p >= w->end || *w->p != ':')
				return -1;
			adv(w);
			ws(w);
			if (strlen(key) == clen && !memcmp(key, comp, clen))
				return 0;
			if (skip_value(w, depth + 1))
				return -1;
			ws(w);
			if (w->p < w->end && *w->p == ',')
				adv(w);
		}
	}
	if (*w->p == '[') {
		char num[16];
		long idx, i;
		char *endp;

		if (clen == 0 || clen >= sizeof(num))
			return -1;
		memcpy(num, comp, clen);
		num[clen] = '\0';
		idx = strtol(num, &endp, 10);
		if (*endp || idx < 0)
			return -1;
		adv(w);
		for (i = 0;; i++) {
			ws(w);
			if (w->p >= w->end || *w->p == ']')
				return -1;
			if (i == idx)
				return 0;
			if (skip_value(w, depth + 1))
				return -1;
			ws(w);
			if (w->p < w->end && *w->p == ',')
				adv(w);
		}
	}
	return -1;
}

int nicfit_json_locate(const char *text, size_t len, const char *path,
		       long *line, long *col)
{
	struct walker w = { text, text + len, text, 1, 1 };
	const char *c = path;
	int depth = 0;

	*line = *col = 0;
	while (*c == '/') {
		const char *next = strchr(c + 1, '/');
		size_t clen = next ? (size_t)(next - c - 1) : strlen(c + 1);

		if (++depth > MAX_DEPTH || descend(&w, c + 1, clen, depth))
			return -1;
		c += 1 + clen;
	}
	ws(&w);
	*line = w.line;
	*col = w.col;
	return 0;
}
