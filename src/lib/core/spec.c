/*
 * spec.c - requests as key/value pairs from flags or JSON (see nicfit/spec.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/jansson_int.h"

#include "core/fmt_int.h"
#include "core/jscan_int.h"
#include "nicfit/spec.h"
#include "core/spec_int.h"
#include "nicfit/units.h"

/*
 * Longest key whose position is looked up: the tokenizer compares keys of
 * up to 255 bytes (jscan.c), and no setting's name is near that long.
 */
#define SPEC_KEY_MAX 255

void nicfit_spec_init(struct nicfit_spec *s, const char *input)
{
	const char *name = input ? input : "spec";
	size_t k = strnlen(name, sizeof(s->input) - 1);

	s->n = 0;
	s->from_data = 0;
	/* snprintf("%s") without its set-up: a server starts a spec for every request */
	memcpy(s->input, name, k);
	s->input[k] = '\0';
}

void nicfit_spec_release(struct nicfit_spec *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->pairs[i].key);
		free(s->pairs[i].value);
	}
	s->n = 0;
}

int nicfit_spec_add(struct nicfit_spec *s, const char *key, const char *value,
		    struct nicfit_error *err)
{
	struct nicfit_spec_pair *p;
	char *k;

	if (s->n == NICFIT_SPEC_MAX_PAIRS)
		return nicfit_error_at(err, NICFIT_E_LIMIT, s->input, 0, 0,
				       "more than %d settings", NICFIT_SPEC_MAX_PAIRS);
	if (strlen(value) > NICFIT_SPEC_MAX_VALUE)
		return nicfit_error_at(err, NICFIT_E_LIMIT, s->input, 0, 0,
				       "value of '%.64s' is longer than %d bytes", key,
				       NICFIT_SPEC_MAX_VALUE);
	p = &s->pairs[s->n];
	p->key = strdup(key);
	p->value = strdup(value);
	p->used = 0;
	p->line = p->col = 0;
	if (!p->key || !p->value) {
		free(p->key);
		free(p->value);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	for (k = p->key; *k; k++)
		if (*k == '-')
			*k = '_';
	s->n++;
	return 0;
}

static int scalar_text(json_t *v, char *buf, size_t n)
{
	if (json_is_string(v)) {
		snprintf(buf, n, "%s", json_string_value(v));
		return 0;
	}
	if (json_is_integer(v)) {
		snprintf(buf, n, "%lld", (long long)json_integer_value(v));
		return 0;
	}
	if (json_is_real(v)) {
		snprintf(buf, n, "%.17g", json_real_value(v));
		return 0;
	}
	if (json_is_boolean(v)) {
		snprintf(buf, n, "%s", json_is_true(v) ? "true" : "false");
		return 0;
	}
	return -1;
}

/*
 * The JSON Pointer (RFC 6901) of member key, element idx when idx >= 0:
 * '~' written "~0" and '/' "~1", so that any key has a position. Returns
 * 0, or -1 when the path does not fit.
 */
static int pointer_of(const char *key, long idx, char *path, size_t n)
{
	size_t o = 0;
	int w;

	path[o++] = '/';
	for (; *key; key++) {
		if (o + 3 >= n)
			return -1;
		if (*key == '~' || *key == '/') {
			path[o++] = '~';
			path[o++] = *key == '~' ? '0' : '1';
		} else {
			path[o++] = *key;
		}
	}
	path[o] = '\0';
	if (idx < 0)
		return 0;
	w = snprintf(path + o, n - o, "/%ld", idx);
	return w > 0 && (size_t)w < n - o ? 0 : -1;
}

/*
 * Where the last value located stands: a request's values come in document
 * order (jansson keeps its members so), so that each is found by walking
 * on from the one before, and locating them all walks the text once.
 */
struct spec_pos {
	size_t at;
	long line, col;
};

/* Where member key (element idx when idx >= 0) stands in the text of js; 0:0 when unknown. */
static void position_of(const struct jscan *js, struct spec_pos *pc, const char *key, long idx,
			long *line, long *col)
{
	char path[2 * SPEC_KEY_MAX + 32];
	size_t off;
	int i;

	*line = *col = 0;
	if (pointer_of(key, idx, path, sizeof(path)) || (i = nicfit__jscan_find(js, path)) < 0)
		return;
	off = nicfit__jscan_offset(js, i);
	if (off < pc->at) {
		pc->at = 0;
		pc->line = pc->col = 1;
	}
	nicfit__jscan_advance(js->text, pc->at, off, &pc->line, &pc->col);
	pc->at = off;
	*line = pc->line;
	*col = pc->col;
}

/* Record where the value just added stood (its array element when idx >= 0). */
static void locate(struct nicfit_spec *s, const struct jscan *js, struct spec_pos *pc,
		   const char *key, long idx)
{
	struct nicfit_spec_pair *p = &s->pairs[s->n - 1];

	position_of(js, pc, key, idx, &p->line, &p->col);
}

void nicfit_spec_locate_error_nth(const struct nicfit_spec *s, const char *key, long nth,
				  struct nicfit_error *err)
{
	char msg[sizeof(err->msg)];
	const char *m;
	size_t i;
	long line = 0, col = 0, k = 0;

	if (!s->from_data || !err || !err->code)
		return;
	if (err->code == NICFIT_E_USAGE)
		err->code = NICFIT_E_DATA;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->pairs[i].key, key) && (nth < 0 || k++ == nth)) {
			line = s->pairs[i].line;
			col = s->pairs[i].col;
		}
	/* drop a " (at column N)" that refers to the value text: the position
	 * in the file replaces it */
	m = strstr(err->msg, " (at column ");
	snprintf(msg, sizeof(msg), "%s: %.*s%s", key, m ? (int)(m - err->msg) : (int)strlen(err->msg),
		 err->msg, m && strchr(m + 1, ')') ? strchr(m + 1, ')') + 1 : "");
	snprintf(err->msg, sizeof(err->msg), "%s", msg);
	snprintf(err->input, sizeof(err->input), "%s", s->input);
	err->line = line;
	err->col = col;
}

void nicfit_spec_locate_error(const struct nicfit_spec *s, const char *key,
			      struct nicfit_error *err)
{
	nicfit_spec_locate_error_nth(s, key, -1, err);
}

void nicfit_spec_locate_option(const struct nicfit_spec *s, struct nicfit_error *err)
{
	char key[SPEC_KEY_MAX + 1];
	size_t i, n;

	if (!s->from_data || !err || !err->code || strncmp(err->input, "--", 2))
		return;
	n = strlen(err->input + 2);
	if (n == 0 || n > SPEC_KEY_MAX)
		return;
	for (i = 0; i <= n; i++)
		key[i] = err->input[2 + i] == '-' ? '_' : err->input[2 + i];
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->pairs[i].key, key)) {
			nicfit_spec_locate_error(s, key, err);
			return;
		}
}

/*
 * A number token as scalar_text() writes the value jansson reads from it:
 * an integer (no '.', 'e' or 'E') through strtoll and "%lld", a real
 * through strtod and "%.17g". Returns -1 where jansson would refuse it
 * (an integer past long long, a real past double), so that jansson's own
 * error is the one given.
 */
static int number_text(const char *p, size_t len, char *buf, size_t n)
{
	char tmp[64], *end;
	size_t i;
	int real = 0;

	if (len >= sizeof(tmp))
		return -1;
	memcpy(tmp, p, len);
	tmp[len] = '\0';
	for (i = 0; i < len; i++)
		real |= tmp[i] == '.' || tmp[i] == 'e' || tmp[i] == 'E';
	errno = 0;
	if (real) {
		double d = strtod(tmp, &end);

		if (*end || isinf(d))
			return -1;
		snprintf(buf, n, "%.17g", d);
	} else {
		long long v = strtoll(tmp, &end, 10);
		int k;

		if (*end || errno == ERANGE)
			return -1;
		/* nicfit__fmt(): "%lld" without printf's set-up, a request's counts being integers */
		k = nicfit__fmt(buf, n, "%lld", v);
		if (k < 0 || (size_t)k >= n)
			return -1;
	}
	return 0;
}

/*
 * Tokenize a request with its limits, checked as the text is read: no
 * object or array in a request holds more than NICFIT_SPEC_MAX_PAIRS
 * members or elements (a request with more could not be taken anyway), so
 * a body of a million keys stops at the first one too many. Returns
 * jscan's result; JSCAN_E_COUNT with err set.
 */
static int tokenize(struct nicfit_spec *s, struct jscan *js, const char *text, size_t len,
		    struct nicfit_error *err)
{
	long line, col;
	int rc;

	nicfit__jscan_init(js);
	js->max_depth = JSON_PARSER_MAX_DEPTH;
	js->max_count = NICFIT_SPEC_MAX_PAIRS;
	rc = nicfit__jscan_parse(js, text, len);
	if (rc == JSCAN_E_COUNT) {
		nicfit__jscan_position(text, js->err_off, &line, &col);
		nicfit_error_at(err, NICFIT_E_LIMIT, s->input, line, col,
				"more than %d settings or values in one object or array",
				NICFIT_SPEC_MAX_PAIRS);
	}
	return rc;
}

/* FNV-1a of a key's bytes. */
static uint32_t key_hash(const char *p, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*p++) * 16777619u;
	return h;
}

/*
 * 1 when key token i was seen before in the table (size slots, a power of
 * two above twice the members), else 0 with i entered: one look-up per key
 * instead of a comparison with every key before it.
 */
static int key_seen(const struct jscan *js, uint32_t *table, uint32_t slots, uint32_t i)
{
	const struct jscan_tok *t = js->tok;
	uint32_t h = key_hash(js->text + t[i].start, t[i].len) & (slots - 1);

	for (; table[h]; h = (h + 1) & (slots - 1)) {
		uint32_t k = table[h] - 1;

		if (t[k].len == t[i].len && !memcmp(js->text + t[k].start, js->text + t[i].start, t[i].len))
			return 1;
	}
	table[h] = i + 1;
	return 0;
}

/*
 * The settings of a request tokenized by js, read without building a
 * jansson tree (a request is parsed on every POST, and the tree cost more
 * than the rest of reading it): a flat object of strings without escapes,
 * numbers, booleans, nulls and arrays of strings and numbers, keys
 * distinct, values that fit. Returns 1 with s filled exactly as the
 * jansson reading below fills it, or 0 (s untouched) for anything else,
 * which that reading then takes, errors and all.
 */
static int parse_flat(struct nicfit_spec *s, struct jscan *js)
{
	char key[SPEC_KEY_MAX + 1], buf[NICFIT_SPEC_MAX_VALUE + 2];
	uint32_t seen[4 * NICFIT_SPEC_MAX_PAIRS];
	const struct jscan_tok *t = js->tok;
	uint32_t i, k, end, ntok = js->ntok, n0 = (uint32_t)s->n;
	size_t at = 0, off;
	long line = 1, col = 1;

	if (!ntok || t[0].type != JS_OBJECT || t[0].count > 2 * NICFIT_SPEC_MAX_PAIRS)
		return 0;
	memset(seen, 0, sizeof(seen));
	/* first pass: the shape only, so that nothing is added unless all of it is taken */
	for (i = 1; i < ntok; i = t[i + 1].next) {
		const struct jscan_tok *v = &t[i + 1];

		if (t[i].escaped || t[i].len > SPEC_KEY_MAX || v->escaped)
			return 0;
		if (key_seen(js, seen, 4 * NICFIT_SPEC_MAX_PAIRS, i))
			return 0; /* jansson refuses a key given twice */
		if (memchr(js->text + t[i].start, '\0', t[i].len))
			return 0;
		if (v->type == JS_OBJECT)
			return 0;
		if (v->type == JS_ARRAY)
			for (k = i + 2, end = v->next; k < end; k = t[k].next)
				if ((t[k].type != JS_STRING && t[k].type != JS_NUMBER) || t[k].escaped ||
				    t[k].len > NICFIT_SPEC_MAX_VALUE)
					return 0;
		if (v->type == JS_STRING && v->len > NICFIT_SPEC_MAX_VALUE)
			return 0;
	}
	for (i = 1; i < ntok; i = t[i + 1].next) {
		const struct jscan_tok *v = &t[i + 1];
		long idx = -1;

		memcpy(key, js->text + t[i].start, t[i].len);
		key[t[i].len] = '\0';
		k = i + 1;
		end = v->next;
		if (v->type == JS_NULL)
			continue;
		if (v->type == JS_ARRAY) {
			k = i + 2;
			idx = 0;
		}
		for (; k < end; k = t[k].next, idx += idx >= 0) {
			const struct jscan_tok *x = &t[k];

			if (x->type == JS_STRING) {
				memcpy(buf, js->text + x->start, x->len);
				buf[x->len] = '\0';
			} else if (x->type == JS_NUMBER) {
				if (number_text(js->text + x->start, x->len, buf, sizeof(buf)))
					goto undo;
			} else {
				memcpy(buf, x->type == JS_TRUE ? "true" : "false",
				       x->type == JS_TRUE ? 5 : 6);
			}
			if (strlen(buf) > NICFIT_SPEC_MAX_VALUE || nicfit_spec_add(s, key, buf, NULL))
				goto undo;
			/*
			 * Where the value stands (its quote for a string), as
			 * locate() finds it by its path: the keys are distinct and
			 * the values come in document order, so the text is walked
			 * once.
			 */
			off = x->start - (x->type == JS_STRING);
			nicfit__jscan_advance(js->text, at, off, &line, &col);
			at = off;
			s->pairs[s->n - 1].line = line;
			s->pairs[s->n - 1].col = col;
			if (idx < 0)
				break;
		}
	}
	s->from_data = 1;
	return 1;
undo:
	while (s->n > n0) {
		s->n--;
		free(s->pairs[s->n].key);
		free(s->pairs[s->n].value);
	}
	return 0;
}

int nicfit_spec_parse_json(struct nicfit_spec *s, const char *text, size_t len,
			   struct nicfit_error *err)
{
	struct jscan js;
	int rc, flat;

	if (len > NICFIT_SPEC_MAX_BYTES)
		return nicfit__spec_parse_json_tree(s, text, len, err);
	rc = tokenize(s, &js, text, len, err);
	flat = !rc && parse_flat(s, &js);
	nicfit__jscan_release(&js);
	if (rc == JSCAN_E_COUNT)
		return NICFIT_E_LIMIT;
	return flat ? 0 : nicfit__spec_parse_json_tree(s, text, len, err);
}

/* One member of a request read through jansson: its pairs added and located. */
static int tree_member(struct nicfit_spec *s, const struct jscan *js, struct spec_pos *pc,
		       const char *key, json_t *v, struct nicfit_error *err)
{
	char buf[NICFIT_SPEC_MAX_VALUE + 2];
	long line, col;
	size_t i;
	int rc = 0;

	if (json_is_null(v))
		return 0;
	if (json_is_array(v)) {
		for (i = 0; i < json_array_size(v) && !rc; i++) {
			if (scalar_text(json_array_get(v, i), buf, sizeof(buf))) {
				position_of(js, pc, key, (long)i, &line, &col);
				return nicfit_error_at(err, NICFIT_E_DATA, s->input, line, col,
						       "%.64s[%zu]: expected a string or number", key,
						       i);
			}
			if (strlen(buf) > NICFIT_SPEC_MAX_VALUE) {
				position_of(js, pc, key, (long)i, &line, &col);
				return nicfit_error_at(err, NICFIT_E_LIMIT, s->input, line, col,
						       "%.64s[%zu]: value too long", key, i);
			}
			if (!(rc = nicfit_spec_add(s, key, buf, err)))
				locate(s, js, pc, key, (long)i);
		}
		return rc;
	}
	if (scalar_text(v, buf, sizeof(buf))) {
		position_of(js, pc, key, -1, &line, &col);
		return nicfit_error_at(err, NICFIT_E_DATA, s->input, line, col,
				       "%.64s: expected a string, number, boolean or array", key);
	}
	if (strlen(buf) > NICFIT_SPEC_MAX_VALUE) {
		position_of(js, pc, key, -1, &line, &col);
		return nicfit_error_at(err, NICFIT_E_LIMIT, s->input, line, col,
				       "%.64s: value longer than %d bytes", key, NICFIT_SPEC_MAX_VALUE);
	}
	if (!(rc = nicfit_spec_add(s, key, buf, err)))
		locate(s, js, pc, key, -1);
	return rc;
}

int nicfit__spec_parse_json_tree(struct nicfit_spec *s, const char *text, size_t len,
				 struct nicfit_error *err)
{
	struct spec_pos pc = {0, 1, 1};
	json_error_t jerr;
	struct jscan js;
	const char *key;
	json_t *root, *v;
	int rc = 0;

	if (len > NICFIT_SPEC_MAX_BYTES)
		return nicfit_error_at(err, NICFIT_E_LIMIT, s->input, 0, 0,
				       "larger than %u bytes", NICFIT_SPEC_MAX_BYTES);
	/*
	 * The tokens first, with the request's limits: positions come from
	 * them (a text they refuse has none, 0:0), and jansson never builds a
	 * tree of more members than a request may hold.
	 */
	rc = tokenize(s, &js, text, len, err);
	if (rc == JSCAN_E_COUNT) {
		nicfit__jscan_release(&js);
		return NICFIT_E_LIMIT;
	}
	if (rc)
		js.ntok = 0;
	rc = 0;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		nicfit__jscan_release(&js);
		return nicfit_error_at(err, NICFIT_E_DATA, s->input, jerr.line, jerr.column,
				       "%s", jerr.text);
	}
	if (!json_is_object(root)) {
		nicfit__jscan_release(&js);
		json_decref(root);
		return nicfit_error_at(err, NICFIT_E_DATA, s->input, 1, 1,
				       "expected a JSON object of settings");
	}
	s->from_data = 1;
	json_object_foreach(root, key, v) {
		if ((rc = tree_member(s, &js, &pc, key, v, err)))
			break;
	}
	nicfit__jscan_release(&js);
	json_decref(root);
	return rc;
}

const char *nicfit_spec_get(struct nicfit_spec *s, const char *key)
{
	const char *v = NULL;
	size_t i;

	/* the first byte first: a request is read a setting at a time, each against all pairs */
	for (i = 0; i < s->n; i++)
		if (s->pairs[i].key[0] == key[0] && !strcmp(s->pairs[i].key, key)) {
			s->pairs[i].used = 1;
			v = s->pairs[i].value;
		}
	return v;
}

size_t nicfit_spec_count(struct nicfit_spec *s, const char *key)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->pairs[i].key, key))
			n++;
	return n;
}

const char *nicfit_spec_get_nth(struct nicfit_spec *s, const char *key, size_t nth)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->pairs[i].key, key)) {
			s->pairs[i].used = 1;
			if (n++ == nth)
				return s->pairs[i].value;
		}
	return NULL;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[65], prev, tmp;

	if (la > 64 || lb > 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = tolower((unsigned char)a[i - 1]) !=
				      tolower((unsigned char)b[j - 1]);
			size_t best = prev + cost;

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

const char *nicfit_suggest(const char *word, const char *const *candidates)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, i, d, len = strlen(word), limit;

	if (!candidates)
		return NULL;
	/* A prefix of a real name is the best guess ("r740x" -> "r740xd"),
	 * when it is long enough to mean something or names only one. */
	if (len >= 3) {
		int matches = 0;

		for (i = 0; candidates[i]; i++)
			if (!strncasecmp(candidates[i], word, len)) {
				matches++;
				if (!best || strlen(candidates[i]) < strlen(best))
					best = candidates[i];
			}
		if (best && (matches == 1 || len >= 4))
			return best;
		best = NULL;
	}
	for (i = 0; candidates[i]; i++) {
		d = edit_distance(word, candidates[i]);
		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	limit = len / 3 > 2 ? len / 3 : 2;
	return best && best_d <= limit ? best : NULL;
}

int nicfit_spec_check_unused(const struct nicfit_spec *s, const char *const *known,
			     struct nicfit_error *err)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const char *near;

		if (s->pairs[i].used)
			continue;
		near = nicfit_suggest(s->pairs[i].key, known);
		/* in a JSON spec: the key's own position, and bad data (65) */
		if (near)
			return nicfit_error_at(err, s->from_data ? NICFIT_E_DATA : NICFIT_E_USAGE,
					       s->input, s->pairs[i].line, s->pairs[i].col,
					       "unknown setting '%.64s' (did you mean '%s'?)",
					       s->pairs[i].key, near);
		return nicfit_error_at(err, s->from_data ? NICFIT_E_DATA : NICFIT_E_USAGE, s->input,
				       s->pairs[i].line, s->pairs[i].col, "unknown setting '%.64s'",
				       s->pairs[i].key);
	}
	return 0;
}

void nicfit_reader_init(struct nicfit_reader *r, struct nicfit_spec *s, struct nicfit_error *err)
{
	r->s = s;
	r->err = err;
	r->key = NULL;
	r->opt[0] = '\0';
	r->nth = -1;
}

/* r->opt made the name of key as shown */
static void build_name(struct nicfit_reader *r, const char *key)
{
	size_t i = 0, k;

	/*
	 * "--" and the key with '-' for '_' on the command line, the key as
	 * it is in a request, cut to the buffer.
	 */
	if (!r->s->from_data) {
		r->opt[i++] = '-';
		r->opt[i++] = '-';
	}
	for (k = 0; key[k] && i < sizeof(r->opt) - 1; k++)
		r->opt[i++] = !r->s->from_data && key[k] == '_' ? '-' : key[k];
	r->opt[i] = '\0';
}

const char *nicfit_reader_opt(struct nicfit_reader *r, const char *key)
{
	r->key = key;
	r->nth = -1;
	build_name(r, key);
	return r->opt;
}

const char *nicfit_reader_name(struct nicfit_reader *r)
{
	if (r->key)
		build_name(r, r->key);
	return r->opt;
}

/*
 * The reads below only remember the key: its name is written out (a
 * loop over it) when something is to be said about it, which a request
 * read without a mistake never needs.
 */
const char *nicfit_reader_get(struct nicfit_reader *r, const char *key)
{
	r->key = key;
	r->nth = -1;
	return nicfit_spec_get(r->s, key);
}

const char *nicfit_reader_get_nth(struct nicfit_reader *r, const char *key, size_t i)
{
	r->key = key;
	r->nth = (long)i;
	return nicfit_spec_get_nth(r->s, key, i);
}

int nicfit_reader_fail(struct nicfit_reader *r, int rc)
{
	if (rc && r->s->from_data && r->err && r->err->code == rc && r->key)
		nicfit_spec_locate_error_nth(r->s, r->key, r->nth, r->err);
	else if (rc == NICFIT_E_USAGE && r->s->from_data && r->err && r->err->code == rc)
		r->err->code = NICFIT_E_DATA;
	return rc;
}

int nicfit_reader_need(struct nicfit_reader *r, const char *key, const char **out)
{
	const char *name;

	*out = nicfit_reader_get(r, key);
	if (*out)
		return 0;
	/* a missing setting has no position: the error names the input */
	name = nicfit_reader_opt(r, key);
	r->key = NULL;
	return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE, r->s->input, 0, 0,
						     "missing %s", name));
}

int nicfit_reader_long(struct nicfit_reader *r, const char *key, long def, long min, long max,
		       long *out)
{
	const char *v = nicfit_reader_get(r, key);

	*out = def;
	/* named only when it is wrong: the second parse says what is wrong with it */
	if (!v || !nicfit_parse_long(v, NULL, min, max, out, NULL))
		return 0;
	return nicfit_reader_fail(r, nicfit_parse_long(v, nicfit_reader_opt(r, key), min, max, out,
						       r->err));
}

int nicfit_reader_double(struct nicfit_reader *r, const char *key, double def, double min,
			 double max, double *out)
{
	const char *v = nicfit_reader_get(r, key);

	*out = def;
	if (!v || !nicfit_parse_double(v, NULL, min, max, out, NULL))
		return 0;
	return nicfit_reader_fail(r, nicfit_parse_double(v, nicfit_reader_opt(r, key), min, max,
							 out, r->err));
}
