/*
 * test_emit_json.c - the emitter writes JSON itself, byte for byte as
 * jansson's json_dumps() lays out the same values (the documents' format
 * since the first release): numbers, escapes, UTF-8, malformed bytes,
 * nesting, empty containers and tables, compact and indented; and it
 * refuses what the tree refused.
 */
#include "unit.h"

#include <jansson.h>
#include <sys/mman.h>
#include <unistd.h>

#include "nicfit/buf.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"

#include "out/emit_int.h"

static char *finish(struct nicfit_emit *e)
{
	struct nicfit_buf out;
	char *s;

	nicfit_buf_init(&out, 0);
	assert_int_equal(nicfit_emit_finish(e, &out), 0);
	s = nicfit_buf_detach(&out, NULL);
	nicfit_emit_free(e);
	return s;
}

/* json_dumps()'s text, with DEL escaped as the emitter escapes it (jansson leaves it raw) */
static char *dumps(json_t *v, int pretty)
{
	char *s = json_dumps(v, JSON_REAL_PRECISION(15) | (pretty ? JSON_INDENT(2) : JSON_COMPACT));
	char *t = malloc(6 * strlen(s) + 2);
	size_t i, n = 0;

	assert_non_null(t);
	for (i = 0; s[i]; i++) {
		if (s[i] == 0x7f) {
			memcpy(t + n, "\\u007F", 6);
			n += 6;
		} else {
			t[n++] = s[i];
		}
	}
	t[n++] = '\n';
	t[n] = '\0';
	free(s);
	json_decref(v);
	return t;
}

/* DEL is escaped wherever it sits, in values and keys: no raw control byte reaches a terminal */
static void del_escaped(void **state)
{
	static const char *const s[] = { "\x7f", "a\x7f", "abcdefg\x7f", "abcdefghijklmno\x7fp",
		"abcdefghijklmnopqrstuvwxyz\x7f", "\x1b[31m\x7f\xe2\x80\xae" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
		char *x;

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "v", s[i]);
		nicfit_emit_int(e, s[i], 1);
		nicfit_emit_end_object(e);
		x = finish(e);
		assert_null(strchr(x, 0x7f));
		assert_non_null(strstr(x, "\\u007F"));
		free(x);
	}
}

static void numbers_as_jansson(void **state)
{
	static const double v[] = { 0, -0.0, 1, -1, 0.1, 0.5, 2.5, 1e-4, 3e-4, 12.3456789,
		123456789012.0, 1e11, 1.5e11, 9.99e14, 1e15, 1e16, 1.234e20, -7.5e22, 1e300,
		100, 400, 0.3333333, 1 / 3.0, 2.0 / 3, 1e-3, 65536.0001, 3.14159, 96.96969,
		/* those that round to a zero of either sign, and halves */
		4e-5, -4e-5, 5e-5, -5e-5, 1e-9, -1e-9, 4.9999999e-5, -4.9999999e-5, 0.00015, -2.00005,
		0.49999999999999994, -0.49999999999999994, 9999999999.99995, -9999999999.99995 };
	size_t i;
	int pretty;

	(void)state;
	for (pretty = 0; pretty < 2; pretty++) {
		struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, pretty ? NICFIT_EMIT_PRETTY : 0, 0);
		json_t *a = json_array();
		char *x, *y;

		nicfit_emit_begin_array(e, NULL);
		for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			nicfit_emit_number(e, NULL, v[i]);
			json_array_append_new(a, json_real(nicfit_round4(v[i])));
			nicfit_emit_int(e, NULL, (long long)i * 1000003 - 3);
			json_array_append_new(a, json_integer((json_int_t)i * 1000003 - 3));
		}
		nicfit_emit_number(e, NULL, NAN);
		json_array_append_new(a, json_null());
		nicfit_emit_int(e, NULL, -9223372036854775807LL - 1);
		json_array_append_new(a, json_integer(-9223372036854775807LL - 1));
		nicfit_emit_end_array(e);
		x = finish(e);
		y = dumps(a, pretty);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
}

/* Many values of every magnitude, rounded as the emitter rounds them and not. */
static void random_numbers_as_jansson(void **state)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	json_t *a = json_array();
	unsigned long long x = 16;
	char *s, *t, text[64];
	int i;

	(void)state;
	nicfit_emit_begin_array(e, NULL);
	for (i = 0; i < 20000; i++) {
		double mag, v;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		mag = pow(10, (double)((x >> 33) % 24) - 8);
		v = (double)(x >> 11) / 9007199254740992.0 * mag * ((x >> 7) & 1 ? -1 : 1);
		if (i % 3 == 0)
			v = (double)(long long)(v * 100) / 100;
		else if (i % 3 == 1 && fabs(v) < 1e17)
			v = floor(v); /* whole numbers, of up to 17 digits */
		nicfit_emit_number(e, NULL, v);
		json_array_append_new(a, json_real(nicfit_round4(v)));
	}
	snprintf(text, sizeof(text), "[%.17g, 0.1, 1e-5, 123456.78901]", 1 / 7.0);
	nicfit_emit_json_text(e, NULL, text);
	json_array_append_new(a, json_loads(text, 0, NULL));
	nicfit_emit_end_array(e);
	s = finish(e);
	t = dumps(a, 0);
	assert_string_equal(s, t);
	free(s);
	free(t);
}

static void strings_as_jansson(void **state)
{
	char all[128];
	static const char *const s[] = { "", "plain", "quote \" and \\ back", "tab\tnl\ncr\r",
		"\x01\x1f\x7f", "sl/ash", "caf\xc3\xa9", "\xe2\x80\xae bidi", "\xf0\x9f\x98\x80",
		"\xe2\x80\xa8 ls", "</script>" };
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	json_t *o = json_object();
	char key[16], *x, *y;
	size_t i;

	(void)state;
	for (i = 1; i < sizeof(all); i++)
		all[i - 1] = (char)i;
	all[sizeof(all) - 1] = '\0';
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "all", all);
	json_object_set_new(o, "all", json_string(all));
	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		snprintf(key, sizeof(key), "k\"%zu", i);
		nicfit_emit_string(e, key, s[i]);
		json_object_set_new(o, key, json_string(s[i]));
	}
	nicfit_emit_string(e, "none", NULL);
	json_object_set_new(o, "none", json_null());
	nicfit_emit_end_object(e);
	x = finish(e);
	y = dumps(o, 0);
	assert_string_equal(x, y);
	free(x);
	free(y);
}

/* Malformed UTF-8 is written with its bad bytes visible, never refused. */
static void malformed_utf8_kept(void **state)
{
	static const char *const bad[] = { "Lat\xe9n", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"\xe2\x82", "ok\xff" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
		json_error_t jerr;
		json_t *back;
		char *x;

		assert_null(json_string(bad[i]));
		nicfit_emit_string(e, NULL, bad[i]);
		x = finish(e);
		back = json_loads(x, JSON_DECODE_ANY, &jerr);
		assert_non_null(back);
		assert_non_null(strstr(json_string_value(back), "\\x"));
		json_decref(back);
		free(x);
	}
}

static void nesting_and_tables_as_jansson(void **state)
{
	static const struct nicfit_column cols[] = { { "a", "A", 0 }, { "b", "B", 1 } };
	int pretty;

	(void)state;
	for (pretty = 0; pretty < 2; pretty++) {
		struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, pretty ? NICFIT_EMIT_PRETTY : 0, 0);
		json_t *o = json_object(), *rows = json_array(), *r;
		char *x, *y;
		int i;

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "schema", "nicfit.test.v1");
		nicfit_emit_begin_object(e, "empty");
		nicfit_emit_end_object(e);
		nicfit_emit_begin_array(e, "none");
		nicfit_emit_end_array(e);
		nicfit_emit_table_begin(e, "rows", cols, 2);
		for (i = 0; i < 3; i++) {
			nicfit_emit_cell_string(e, i ? "x" : NULL);
			nicfit_emit_cell_number(e, i * 1.25, 2);
			r = json_object();
			json_object_set_new(r, "a", i ? json_string("x") : json_null());
			json_object_set_new(r, "b", json_real(i * 1.25));
			json_array_append_new(rows, r);
		}
		nicfit_emit_table_end(e);
		nicfit_emit_json_text(e, "text", "{\"z\": [1, 2.50, {\"y\": null}], \"w\": \"v\\u00e9\"}");
		nicfit_emit_bool(e, "yes", 1);
		nicfit_emit_end_object(e);
		json_object_set_new(o, "schema", json_string("nicfit.test.v1"));
		json_object_set_new(o, "empty", json_object());
		json_object_set_new(o, "none", json_array());
		json_object_set_new(o, "rows", rows);
		json_object_set_new(o, "text", json_loads("{\"z\": [1, 2.50, {\"y\": null}], "
							  "\"w\": \"v\\u00e9\"}", 0, NULL));
		json_object_set_new(o, "yes", json_true());
		x = finish(e);
		y = dumps(o, pretty);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
}

/* One document of every kind of value, the quick way and the general (keys of 1 to 20 bytes). */
static void limit_doc(struct nicfit_emit *e)
{
	static const char *const keys[] = { "a", "bc", "def", "ghij", "klmno", "pqrstuvw",
					    "xyz_0123456789ab", "a_key_of_20_bytes___" };
	size_t i;

	nicfit_emit_begin_object(e, NULL);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		nicfit_emit_begin_object(e, keys[i]);
		nicfit_emit_string(e, "s", "plain text of some length");
		nicfit_emit_string(e, "q", "a \"quoted\" one");
		nicfit_emit_int(e, "i", -1234567890123LL);
		nicfit_emit_number(e, "n", 3.14159);
		nicfit_emit_number(e, "z", -0.00001);
		nicfit_emit_null(e, "u");
		nicfit_emit_bool(e, "t", 1);
		nicfit_emit_bool(e, "f", 0);
		nicfit_emit_begin_array(e, "arr");
		nicfit_emit_string(e, NULL, keys[i]);
		nicfit_emit_int(e, NULL, (long long)i);
		nicfit_emit_number(e, NULL, 1.5);
		nicfit_emit_null(e, NULL);
		nicfit_emit_end_array(e);
		nicfit_emit_int(e, "i", 7); /* given twice: replaces the first */
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_object(e);
}

/*
 * Under a limit, a document is whole or refused, at every limit around
 * its length, and nothing is written past the limit: the quick way checks
 * its room as the general way does. A document fits from some limit on
 * (its length, or a little more while a repeated key's new value is
 * written at the end before it moves over the old one), and every larger
 * limit gives the same bytes.
 */
static void limits_at_every_size(void **state)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	size_t max, len, fits = 0;
	char *whole;

	(void)state;
	limit_doc(e);
	whole = finish(e);
	len = strlen(whole) - 1; /* without finish()'s newline */
	for (max = 1; max <= len + 40; max++) {
		struct nicfit_buf out;
		int rc;

		e = nicfit_emit_new(NICFIT_FMT_JSON, 0, max);
		limit_doc(e);
		assert_true(e->text.len <= max);
		nicfit_buf_init(&out, 0);
		rc = nicfit_emit_finish(e, &out);
		if (rc == 0) {
			assert_string_equal(out.data, whole);
			if (!fits)
				fits = max;
		} else {
			assert_int_equal(fits, 0); /* refused only below the first limit that fits */
		}
		nicfit_buf_release(&out);
		nicfit_emit_free(e);
	}
	assert_true(fits >= len && fits <= len + 16);
	free(whole);
}

/*
 * A text table with names in UTF-8 is laid out (libsmartcols measured
 * them in the "C" locale and looped for ever), fitted to a width and not;
 * without a UTF-8 locale its bytes past 0x7f come as \xNN.
 */
static void text_tables_take_utf8(void **state)
{
	static const struct nicfit_column cols[] = { { "id", "id", 0 }, { "name", "name", 0 },
						     { "n", "count", 1 } };
	/* an em dash, N with tilde, u and e with acute */
	static const char *const text[] = {
		"x710-utf",
		"Intel X710 \xe2\x80\x94 \xc3\x91" "and\xc3\xba" " caf\xc3\xa9 with a name long enough "
		"to be wrapped at forty columns",
		"2", "plain", "ascii only", "10" };
	static const unsigned widths[] = { 0, 40, 80 };
	char *cells[6];
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++)
		assert_non_null(cells[i] = strdup(text[i]));
	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		struct nicfit_emit_view v = { widths[i], 0, 0, NULL };
		struct nicfit_buf out;

		nicfit_buf_init(&out, 0);
		assert_int_equal(nicfit__table_text(&out, cols, 3, cells, 2, &v, "", ""), 0);
		assert_non_null(strstr(out.data, "\xc3\x91" "and\xc3\xba"));
		assert_non_null(strstr(out.data, "plain"));
		nicfit_buf_release(&out);
		nicfit_buf_init(&out, 0);
		assert_int_equal(nicfit__table_text_in(&out, cols, 3, cells, 2, &v, "", "",
						       "no-such-locale"), 0);
		assert_null(strstr(out.data, "\xc3\x91"));
		assert_non_null(strstr(out.data, "\\xc3\\x91" "and\\xc3\\xba"));
		nicfit_buf_release(&out);
	}
	for (i = 0; i < 6; i++)
		free(cells[i]);
}

/*
 * A table whose long words leave no room (help findings at 80 columns: a
 * 27-column code beside a 38-column "(host.gpudirect.nvidia_driver_version)")
 * fits the width by breaking those words after their punctuation: no line
 * is wider, no break character is left in the output, and the pieces put
 * together are the word.
 */
static void text_tables_break_long_words(void **state)
{
	static const struct nicfit_column cols[] = { { "code", "code", 0 }, { "sev", "severity", 0 },
						     { "eng", "engines", 0 }, { "meaning", "meaning", 0 } };
	static const char *const text[] = {
		"cluster-breakout-unverified", "warning", "plan, cluster",
		"hosts run different drivers (host.gpudirect.nvidia_driver_version) on one fabric",
		"x", "info", "audit", "short" };
	struct nicfit_emit_view v = { 80, 0, 0, NULL };
	struct nicfit_buf out;
	char *cells[8], *line, *save = NULL, joined[256] = "";
	size_t i;

	(void)state;
	for (i = 0; i < 8; i++)
		assert_non_null(cells[i] = strdup(text[i]));
	nicfit_buf_init(&out, 0);
	assert_int_equal(nicfit__table_text(&out, cols, 4, cells, 2, &v, "", ""), 0);
	assert_null(strstr(out.data, "\xe2\x80\x8b"));
	for (line = strtok_r(out.data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *m = line + (strlen(line) > 50 ? 50 : strlen(line));

		if (strlen(line) > 80)
			fail_msg("a line of %zu columns: %s", strlen(line), line);
		while (*m == ' ')
			m++;
		strncat(joined, m, sizeof(joined) - strlen(joined) - 1);
	}
	assert_non_null(strstr(joined, "(host.gpudirect.nvidia_driver_version)"));
	nicfit_buf_release(&out);
	for (i = 0; i < 8; i++)
		free(cells[i]);
}

/*
 * A key the compiler knows (a literal: the _h calls, hashed while
 * compiling) and the same key from outside (the _k calls, hashed as they
 * run) are one key: given twice in either order, at every length the
 * hash reads differently (1 to 16 bytes, and 17, which the _h calls do not
 * take), the second value replaces the first, as jansson's objects do.
 * Were the two hashes apart, the duplicate would be written twice.
 */
static void literal_keys_meet_outside_keys(void **state)
{
	int order;

	(void)state;
	assert_true(NICFIT__EMIT_KEY_LIT("abcd", 4));
	assert_false(NICFIT__EMIT_KEY_LIT("a\"b", 3));
	assert_false(NICFIT__EMIT_KEY_LIT("a\\b", 3));
	assert_false(NICFIT__EMIT_KEY_LIT("a\tb", 3));
	assert_false(NICFIT__EMIT_KEY_LIT("abcdefghijklmnopq", 17));
	for (order = 0; order < 2; order++) {
		struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
		json_t *o = json_object();
		char outside[32], *x, *y;

		nicfit_emit_begin_object(e, NULL);
		/* the literal, then the same key from a buffer, or the other way */
#define LIT(i, k)                                                                      \
	do {                                                                           \
		snprintf(outside, sizeof(outside), "%s", k);                           \
		if (order) {                                                           \
			nicfit_emit_int_k(e, outside, strlen(outside), (i) * 10);      \
			nicfit_emit_int(e, k, (i) * 10 + 1);                           \
		} else {                                                               \
			nicfit_emit_int(e, k, (i) * 10);                               \
			nicfit_emit_int_k(e, outside, strlen(outside), (i) * 10 + 1);  \
		}                                                                      \
		json_object_set_new(o, k, json_integer((i) * 10 + 1));                 \
	} while (0)
		LIT(0, "a");
		LIT(1, "ab");
		LIT(2, "abc");
		LIT(3, "abcd");
		LIT(4, "abcde");
		LIT(5, "abcdef");
		LIT(6, "abcdefg");
		LIT(7, "abcdefgh");
		LIT(8, "abcdefghi");
		LIT(9, "abcdefghij");
		LIT(10, "abcdefghijk");
		LIT(11, "abcdefghijkl");
		LIT(12, "abcdefghijklm");
		LIT(13, "abcdefghijklmn");
		LIT(14, "abcdefghijklmno");
		LIT(15, "abcdefghijklmnop");
		LIT(16, "abcdefghijklmnopq");
#undef LIT
		/* nested: an object's literal key and an array's outside one under it */
		nicfit_emit_begin_object(e, "nested");
		nicfit_emit_string(e, "gpu", "first");
		nicfit_emit_string_k(e, "gpu", 3, "second");
		nicfit_emit_end_object(e);
		nicfit_emit_end_object(e);
		{
			json_t *n = json_object();

			json_object_set_new(n, "gpu", json_string("second"));
			json_object_set_new(o, "nested", n);
		}
		x = finish(e);
		y = dumps(o, 0); /* takes o */
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
}

/* A key given twice replaces the first value where it stands, as in a jansson object. */
static void duplicate_keys_replace(void **state)
{
	int pretty;

	(void)state;
	for (pretty = 0; pretty < 2; pretty++) {
		struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, pretty ? NICFIT_EMIT_PRETTY : 0, 0);
		json_t *o = json_object(), *in = json_object(), *arr = json_array();
		char *x, *y;

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "a", "first");
		nicfit_emit_int(e, "b", 1);
		nicfit_emit_begin_object(e, "c");
		nicfit_emit_int(e, "x", 1);
		nicfit_emit_int(e, "x", 22);
		nicfit_emit_end_object(e);
		nicfit_emit_begin_array(e, "a");
		nicfit_emit_string(e, NULL, "second, longer than the first");
		nicfit_emit_end_array(e);
		nicfit_emit_null(e, "b");
		nicfit_emit_bool(e, "d", 0);
		nicfit_emit_end_object(e);
		json_array_append_new(arr, json_string("second, longer than the first"));
		json_object_set_new(o, "a", json_string("first"));
		json_object_set_new(o, "b", json_integer(1));
		json_object_set_new(in, "x", json_integer(1));
		json_object_set_new(in, "x", json_integer(22));
		json_object_set_new(o, "c", in);
		json_object_set_new(o, "a", arr);
		json_object_set_new(o, "b", json_null());
		json_object_set_new(o, "d", json_false());
		x = finish(e);
		y = dumps(o, pretty);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
}

/* key number n of keys_as_jansson: n letters, none plain_byte[] refuses */
static void nth_key(char *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		k[i] = (char)('a' + (i * 5 + n) % 26);
	k[n] = '\0';
}

/*
 * Keys as jansson writes them, where the emitter copies, checks and hashes
 * a key in one pass when the document has room for it: each ASCII byte as
 * a key of its own, keys of every length to 300 (the longer ones outgrow
 * the room left and take the general way, at every fill of the buffer),
 * and keys given again (short and long, nested and at the top level),
 * which replace the first value where it stands; compact and indented.
 */
static void keys_as_jansson(void **state)
{
	int pretty, c;

	(void)state;
	for (pretty = 0; pretty < 2; pretty++) {
		struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, pretty ? NICFIT_EMIT_PRETTY : 0, 0);
		json_t *o = json_object(), *in = json_object();
		char k[320], *x, *y;
		size_t n;

		nicfit_emit_begin_object(e, NULL);
		for (c = 1; c < 0x80; c++) {
			k[0] = (char)c;
			k[1] = '\0';
			nicfit_emit_int(e, k, c);
			json_object_set_new(o, k, json_integer(c));
		}
		nicfit_emit_begin_object(e, "nested");
		for (n = 1; n <= 300; n++) {
			nth_key(k, n);
			nicfit_emit_int(e, k, (long long)n);
			json_object_set_new(in, k, json_integer((json_int_t)n));
			if (n % 7 == 0) {
				nth_key(k, n / 2 + 1);
				nicfit_emit_string(e, k, "again");
				json_object_set_new(in, k, json_string("again"));
			}
		}
		nicfit_emit_end_object(e);
		json_object_set_new(o, "nested", in);
		nicfit_emit_string(e, "A", "given again after a nested object");
		json_object_set_new(o, "A", json_string("given again after a nested object"));
		nicfit_emit_end_object(e);
		x = finish(e);
		y = dumps(o, pretty);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
}

/* Misuse still fails the document: a keyless member, a second root, an unclosed container. */
static void misuse_refused(void **state)
{
	struct nicfit_emit *e;
	struct nicfit_buf out;

	(void)state;
	nicfit_buf_init(&out, 0);
	e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_int(e, NULL, 1);
	nicfit_emit_end_object(e);
	assert_int_equal(nicfit_emit_finish(e, &out), NICFIT_E_INTERNAL);
	nicfit_emit_free(e);
	e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	nicfit_emit_int(e, NULL, 1);
	nicfit_emit_int(e, NULL, 2);
	assert_int_equal(nicfit_emit_finish(e, &out), NICFIT_E_INTERNAL);
	nicfit_emit_free(e);
	e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	nicfit_emit_begin_array(e, NULL);
	assert_int_equal(nicfit_emit_finish(e, &out), NICFIT_E_INTERNAL);
	nicfit_emit_free(e);
	e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	assert_int_equal(nicfit_emit_finish(e, &out), NICFIT_E_INTERNAL);
	nicfit_emit_free(e);
	assert_int_equal(out.len, 0);
	nicfit_buf_release(&out);
}

/*
 * Strings and keys of every length to 80 with one byte to escape (or a
 * two-byte UTF-8 letter, or none) at every position: the plain-ASCII
 * check reads them in words and in 16-byte blocks, the last ones
 * overlapping, and must see that byte wherever it sits. The string is
 * an object's second member, so that it takes the quick way (the first
 * member of a new emitter's object takes the general one, which makes
 * room for the members).
 */
static void escapes_at_every_position(void **state)
{
	static const char *const odd[] = { "", "\"", "\\", "\n", "\x01", "\x1f", "\x7f", "\xc3\xa9", "~" };
	size_t n, at, k;

	(void)state;
	for (n = 1; n <= 80; n++)
		for (at = 0; at < n; at++)
			for (k = 0; k < sizeof(odd) / sizeof(odd[0]); k++) {
				struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
				json_t *o = json_object();
				char v[96], *x, *y;
				size_t i, len = 0;

				for (i = 0; i < n; i++) {
					if (i == at) {
						memcpy(v + len, odd[k], strlen(odd[k]));
						len += strlen(odd[k]);
					} else {
						v[len++] = (char)('a' + (i * 7) % 26);
					}
				}
				v[len] = '\0';
				nicfit_emit_begin_object(e, NULL);
				nicfit_emit_int(e, "first", 1);
				nicfit_emit_string(e, "v", v);
				nicfit_emit_int(e, v, (long long)n);
				nicfit_emit_end_object(e);
				json_object_set_new(o, "first", json_integer(1));
				json_object_set_new(o, "v", json_string(v));
				json_object_set_new(o, v, json_integer((json_int_t)n));
				x = finish(e);
				y = dumps(o, 0);
				assert_string_equal(x, y);
				free(x);
				free(y);
			}
}

/*
 * A string that ends just before an unmapped page is read without a fault
 * and written whole, at every length up to 80 and every place its NUL
 * can take in the last 16 bytes: the one-pass copy reads 16 bytes at a
 * time and must not cross into a page the string does not reach.
 */
static void strings_at_page_end(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	size_t n, i;

	(void)state;
	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + page, (size_t)page, PROT_NONE), 0);
	for (n = 0; n <= 80; n++) {
		char *v = m + page - 1 - n, *x, want[256];
		struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);

		for (i = 0; i < n; i++)
			v[i] = (char)('a' + (i * 5) % 26);
		v[n] = '\0';
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "v", v);
		nicfit_emit_begin_array(e, "a");
		nicfit_emit_string(e, NULL, v);
		nicfit_emit_end_array(e);
		nicfit_emit_end_object(e);
		x = finish(e);
		snprintf(want, sizeof(want), "{\"v\":\"%s\",\"a\":[\"%s\"]}\n", v, v);
		assert_string_equal(x, want);
		free(x);
	}
	munmap(m, (size_t)page * 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers_as_jansson),
		cmocka_unit_test(random_numbers_as_jansson),
		cmocka_unit_test(escapes_at_every_position),
		cmocka_unit_test(strings_as_jansson),
		cmocka_unit_test(strings_at_page_end),
		cmocka_unit_test(del_escaped),
		cmocka_unit_test(malformed_utf8_kept),
		cmocka_unit_test(nesting_and_tables_as_jansson),
		cmocka_unit_test(duplicate_keys_replace),
		cmocka_unit_test(literal_keys_meet_outside_keys),
		cmocka_unit_test(limits_at_every_size),
		cmocka_unit_test(text_tables_take_utf8),
		cmocka_unit_test(text_tables_break_long_words),
		cmocka_unit_test(keys_as_jansson),
		cmocka_unit_test(misuse_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
