/*
 * test_finding.c - the findings model, the registry and the base helpers
 * every engine shares (array growth, the file reader, the path join, the
 * XML escaper).
 */
#include "unit.h"

#include <fcntl.h>
#include <unistd.h>

#include "core/alloc_int.h"
#include "core/file_int.h"
#include "core/finding_int.h"
#include "nicfit/file.h"
#include "core/svg_int.h"

static void registry_codes_are_unique_and_documented(void **state)
{
	const struct nicfit_code_info *c;
	size_t n, i, j;

	(void)state;
	c = nicfit_codes(&n);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		const char *s = c[i].code;

		assert_non_null(s);
		assert_true(strlen(s) > 2 && strlen(s) < 40);
		for (j = 0; s[j]; j++)
			if (!((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= '0' && s[j] <= '9') ||
			      s[j] == '-'))
				fail_msg("code '%s' has '%c'", s, s[j]);
		assert_true(c[i].severity >= NICFIT_SEV_INFO &&
			    c[i].severity <= NICFIT_SEV_CRITICAL);
		assert_true(c[i].engines && !(c[i].engines & ~NICFIT_ENGINE_ALL));
		assert_true(strlen(c[i].meaning) > 10);
		for (j = i + 1; j < n; j++)
			if (!strcmp(s, c[j].code))
				fail_msg("code '%s' is registered twice", s);
		assert_ptr_equal(nicfit_code_lookup(s), &c[i]);
		assert_string_equal(nicfit__code_name((enum nicfit__code)i), s);
	}
	assert_null(nicfit_code_lookup("no-such-code"));
}

/* docs/findings.md is what the registry says, byte for byte. */
static void findings_md_matches_registry(void **state)
{
	struct nicfit_error err;
	struct nicfit_buf b;
	char *text;
	size_t len;

	(void)state;
	nicfit_buf_init(&b, NICFIT_BUF_MAX_DEFAULT);
	assert_int_equal(nicfit_codes_render_md(&b), 0);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_read_file("docs/findings.md", 1 << 20, &text, &len, &err), 0);
	if (len != b.len || memcmp(text, b.data, len))
		fail_msg("docs/findings.md differs from the registry: run 'make docs/findings.md'");
	free(text);
	nicfit_buf_release(&b);
}

static void severity_scale(void **state)
{
	enum nicfit_severity s;

	(void)state;
	assert_string_equal(nicfit_severity_name(NICFIT_SEV_NONE), "clean");
	assert_string_equal(nicfit_severity_name(NICFIT_SEV_CRITICAL), "critical");
	assert_string_equal(nicfit_severity_name((enum nicfit_severity)9), "?");
	assert_int_equal(nicfit_severity_parse("warning", &s), 0);
	assert_int_equal(s, NICFIT_SEV_WARNING);
	assert_int_equal(nicfit_severity_parse("bad", &s), -1);
	assert_true(NICFIT_SEV_INFO < NICFIT_SEV_WARNING && NICFIT_SEV_WARNING < NICFIT_SEV_CRITICAL);
}

/* Nothing is dropped: a thousand findings of long text are all kept. */
static void recorder_keeps_everything(void **state)
{
	struct nicfit_findings fs = NICFIT_FINDINGS_INIT;
	struct nicfit_finding *f;
	char longtext[3000];
	int i;

	(void)state;
	memset(longtext, 'x', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	for (i = 0; i < 1000; i++) {
		f = nicfit__find(&fs, i % 2 ? NICFIT_SEV_INFO : NICFIT_SEV_CRITICAL,
				 NICFIT_CODE_GPU_NIC_CROSS_SOCKET, i % 3 ? "0000:17:00.0" : NULL,
				 "n=%d %s", i, longtext);
		assert_non_null(f);
		assert_int_equal(nicfit__finding_fix(&fs, f, "fix %d", i), 0);
	}
	assert_non_null(nicfit__decide(&fs, "R5", 1, "decided %d", 5));
	assert_int_equal(fs.n, 1001);
	assert_false(fs.oom);
	assert_int_equal(strlen(fs.v[999].message), strlen("n=999 ") + sizeof(longtext) - 1);
	assert_string_equal(fs.v[999].fix, "fix 999");
	assert_string_equal(fs.v[999].code, "gpu-nic-cross-socket");
	assert_null(fs.v[0].device);
	assert_string_equal(fs.v[1].device, "0000:17:00.0");
	assert_int_equal(nicfit_findings_count(&fs, NICFIT_SEV_CRITICAL), 500);
	assert_int_equal(nicfit_findings_count(&fs, NICFIT_SEV_NONE), 0);
	assert_int_equal(nicfit_findings_worst(&fs), NICFIT_SEV_CRITICAL);
	assert_int_equal(nicfit__finding_append(&fs, &fs.v[1000], " (%s)", "twice"), 0);
	assert_string_equal(fs.v[1000].message, "decided 5 (twice)");
	assert_string_equal(fs.v[1000].code, "R5");
	assert_int_equal(fs.v[1000].applied, 1);
	nicfit_findings_release(&fs);
	assert_int_equal(fs.n, 0);
	assert_null(fs.v);
}

/*
 * The records' strings share blocks: every text of every length around a
 * block's room (1 to 2,100 bytes, formatted or copied, devices, fixes
 * replaced, messages appended to) reads back as it was written after the
 * later ones filled the blocks past it, and the list is usable again after
 * it is released.
 */
static void recorder_texts_stay_whole(void **state)
{
	struct nicfit_findings fs = NICFIT_FINDINGS_INIT;
	char text[2200], want[2300];
	int round, i;

	(void)state;
	for (round = 0; round < 2; round++) {
		for (i = 0; i < 2100; i += 7) {
			struct nicfit_finding *f;

			memset(text, 'a' + i % 26, (size_t)i);
			text[i] = '\0';
			if (i % 2)
				f = nicfit__find(&fs, NICFIT_SEV_INFO, NICFIT_CODE_GPU_NIC_CROSS_SOCKET,
						 "dev", "%d:%s", i, text);
			else
				f = nicfit__record_text(&fs, NICFIT_SEV_NONE, "R1", text, text,
							(size_t)i);
			assert_non_null(f);
			assert_int_equal(nicfit__finding_fix(&fs, f, "old %d", i), 0);
			assert_int_equal(nicfit__finding_fix(&fs, f, "fix %d", i), 0);
			if (i % 5 == 0)
				assert_int_equal(nicfit__finding_append(&fs, f, "+%d", i), 0);
		}
		assert_false(fs.oom);
		for (i = 0; i < 2100; i += 7) {
			const struct nicfit_finding *f = &fs.v[i / 7];
			char fix[32];

			memset(text, 'a' + i % 26, (size_t)i);
			text[i] = '\0';
			if (i % 2)
				snprintf(want, sizeof(want), "%d:%s", i, text);
			else
				snprintf(want, sizeof(want), "%s", text);
			if (i % 5 == 0)
				snprintf(want + strlen(want), 16, "+%d", i);
			assert_string_equal(f->message, want);
			assert_string_equal(f->device, i % 2 ? "dev" : text);
			snprintf(fix, sizeof(fix), "fix %d", i);
			assert_string_equal(f->fix, fix);
		}
		nicfit_findings_release(&fs);
		assert_int_equal(fs.n, 0);
		assert_null(fs.texts);
	}
}

static void recorder_string_codes_and_sort(void **state)
{
	struct nicfit_findings fs = NICFIT_FINDINGS_INIT;
	struct nicfit_finding *f = NULL;

	(void)state;
	assert_int_equal(nicfit__find_code(&fs, NICFIT_SEV_INFO, "vpi-port-mode", NULL, &f,
					   "first"), 0);
	assert_non_null(f);
	assert_int_equal(nicfit__find_code(&fs, NICFIT_SEV_WARNING, "not-registered", NULL, NULL,
					   "x"), NICFIT_E_INTERNAL);
	nicfit__find(&fs, NICFIT_SEV_CRITICAL, NICFIT_CODE_GPU_NIC_CROSS_SOCKET, NULL, "second");
	nicfit__find(&fs, NICFIT_SEV_INFO, NICFIT_CODE_GPU_NIC_CROSS_SOCKET, NULL, "third");
	nicfit__find(&fs, NICFIT_SEV_WARNING, NICFIT_CODE_VPI_PORT_MODE, NULL, "fourth");
	fs.v[3].ignored = 1;
	assert_int_equal(nicfit_findings_count(&fs, NICFIT_SEV_WARNING), 0);
	assert_int_equal(nicfit_findings_sort(&fs), 0);
	assert_string_equal(fs.v[0].message, "second");
	assert_string_equal(fs.v[1].message, "fourth");
	assert_string_equal(fs.v[2].message, "first");
	assert_string_equal(fs.v[3].message, "third");
	nicfit_findings_release(&fs);
}

static void ignore_patterns_are_checked(void **state)
{
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_code_check_ignore("vpi-port-mode", NICFIT_ENGINE_AUDIT, "--ignore",
						  &err), 0);
	assert_int_equal(nicfit_code_check_ignore("vpi-port-mode@mlx5_0", NICFIT_ENGINE_AUDIT,
						  "--ignore", &err), 0);
	assert_int_equal(nicfit_code_check_ignore("vpi-port-mod", NICFIT_ENGINE_AUDIT, "--ignore",
						  &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "did you mean 'vpi-port-mode'"));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_code_check_ignore("@x", NICFIT_ENGINE_AUDIT, "--ignore", &err),
			 NICFIT_E_USAGE);
	nicfit_error_clear(&err);
	/* a code of another engine is not one this command can ignore */
	assert_int_equal(nicfit_code_check_ignore("vpi-port-mode", NICFIT_ENGINE_FLEET, "--ignore",
						  &err), NICFIT_E_USAGE);
}

struct item {
	int a;
	double b;
};

static void alloc_grow(void **state)
{
	struct item *v = NULL;
	size_t n = 0, alloc = 0, i;
	unsigned char *z = NULL;
	size_t zalloc = 0;

	(void)state;
	for (i = 0; i < 100000; i++) {
		assert_int_equal(NICFIT_ALLOC_GROW(v, n + 1, alloc), 0);
		v[n++] = (struct item){ (int)i, (double)i };
	}
	assert_true(alloc >= n);
	for (i = 0; i < n; i++)
		assert_int_equal(v[i].a, (int)i);
	free(v);
	assert_int_equal(NICFIT_ALLOC_GROW_ZERO(z, 1000, zalloc), 0);
	for (i = 0; i < zalloc; i++)
		assert_int_equal(z[i], 0);
	/* a size that cannot be had changes nothing */
	v = NULL;
	alloc = 0;
	assert_int_equal(NICFIT_ALLOC_GROW(v, SIZE_MAX / 2, alloc), NICFIT_E_NOMEM);
	assert_null(v);
	assert_int_equal(alloc, 0);
	free(z);
}

static void read_file_bounded(void **state)
{
	char path[] = "/tmp/nicfit-test-XXXXXX", *text;
	struct nicfit_error err;
	size_t len;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0123456789", 10), 10);
	close(fd);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_read_file(path, 10, &text, &len, &err), 0);
	assert_int_equal(len, 10);
	assert_string_equal(text, "0123456789");
	free(text);
	assert_int_equal(nicfit_read_file(path, 9, &text, &len, &err), NICFIT_E_LIMIT);
	assert_null(text);
	assert_non_null(strstr(err.msg, "larger than 9 bytes"));
	assert_string_equal(err.input, path);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_read_file(path, 0, &text, &len, &err), NICFIT_E_LIMIT);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_read_file("/tmp", 10, &text, &len, &err), NICFIT_E_IO);
	assert_string_equal(err.msg, "is a directory");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_read_file("/nonexistent/x", 10, &text, &len, &err),
			 NICFIT_E_NOTFOUND);
	unlink(path);
	/* an empty file is an empty string */
	memcpy(path + strlen(path) - 6, "XXXXXX", 6);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(nicfit_read_file(path, 10, &text, &len, &err), 0);
	assert_int_equal(len, 0);
	assert_string_equal(text, "");
	free(text);
	unlink(path);
}

static void path_join(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(nicfit__path_join(out, sizeof(out), "sys/bus/pci/devices",
					   "../../../devices/pci0000:00/0000:00:01.0"), 0);
	assert_string_equal(out, "sys/devices/pci0000:00/0000:00:01.0");
	assert_int_equal(nicfit__path_join(out, sizeof(out), "a/b", "/c/./d//e"), 0);
	assert_string_equal(out, "c/d/e");
	assert_int_equal(nicfit__path_join(out, sizeof(out), "a", "../../../x"), 0);
	assert_string_equal(out, "x");
	assert_int_equal(nicfit__path_join(out, sizeof(out), "", "y/"), 0);
	assert_string_equal(out, "y");
	assert_int_equal(nicfit__path_join(out, 4, "abc", "def"), -1);
}

static void xml_escape(void **state)
{
	struct nicfit_buf b;

	(void)state;
	nicfit_buf_init(&b, 4096);
	nicfit__xml_escape(&b, "a<b>&\"c' é\t");
	assert_string_equal(b.data, "a&lt;b&gt;&amp;&quot;c' é\t");
	nicfit_buf_reset(&b);
	/* controls and broken UTF-8 are shown escaped: the picture stays XML */
	nicfit__xml_escape_n(&b, "x\x01y\xff\xc3", 5);
	assert_string_equal(b.data, "x\\x01y\\xff\\xc3");
	nicfit_buf_reset(&b);
	nicfit__xml_escape(&b, "\xed\xa0\x80"); /* a surrogate */
	assert_string_equal(b.data, "\\xed\\xa0\\x80");
	nicfit_buf_reset(&b);
	/* tab and newline are XML's whitespace; a CR is a character reference, never a raw byte */
	nicfit__xml_escape(&b, "a\rb\nc\r\n");
	assert_string_equal(b.data, "a&#13;b\nc&#13;\n");
	nicfit_buf_reset(&b);
	/* a bidi override and a C1 control: valid XML, but they would hide text */
	nicfit__xml_escape(&b, "a\xe2\x80\xae" "b\xc2\x9b" "c\xef\xbf\xbe");
	assert_string_equal(b.data, "a\\u202eb\\u009bc\\ufffe");
	nicfit_buf_reset(&b);
	/* the other bidi controls and the zero-width characters, in text as in XML */
	nicfit__text_escape_n(&b, "\xd8\x9c" "1\xe2\x80\x8b" "2\xe2\x80\x8d" "3\xe2\x81\xa0"
			      "4\xef\xbb\xbf" "5\xe2\x81\xa9" "6\xe2\x80\x8f", 26, 0);
	assert_string_equal(b.data, "\\u061c1\\u200b2\\u200d3\\u20604\\ufeff5\\u20696\\u200f");
	nicfit_buf_reset(&b);
	/* what borders them is text: U+200A (hair space), U+2070, U+FEFE, Ñ */
	nicfit__text_escape_n(&b, "\xe2\x80\x8a\xe2\x81\xb0\xef\xbb\xbe\xc3\x91", 11, 0);
	assert_string_equal(b.data, "\xe2\x80\x8a\xe2\x81\xb0\xef\xbb\xbe\xc3\x91");
	nicfit_buf_reset(&b);
	nicfit__svg_text(&b, "<GPU0>", "x=\"%d\"", 3);
	assert_string_equal(b.data, "<text x=\"3\">&lt;GPU0&gt;</text>");
	nicfit_buf_release(&b);
}

/*
 * nicfit__strfmt copies a format that converts nothing ("%s", or no '%')
 * without vsnprintf: the bytes are vsnprintf's all the same, a null "%s"
 * included, and so are the formats beside them.
 */
static void strfmt_copies_plain(void **state)
{
	const char *volatile nothing = NULL;
	const char *cases[] = { "%s", "plain text, no conversion", "", "%%", "%s%s", "%s " };
	char big[3000];
	size_t i;

	(void)state;
	memset(big, 'b', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[4000], *got;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
		snprintf(want, sizeof(want), cases[i], big, "x");
		got = nicfit__strfmt(cases[i], big, "x");
#pragma GCC diagnostic pop
		assert_non_null(got);
		assert_string_equal(got, want);
		free(got);
	}
	{
		char want[64], *got;
		const char *null = nothing;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-overflow"
#pragma GCC diagnostic ignored "-Wformat-truncation"
		snprintf(want, sizeof(want), "%s", null);
		got = nicfit__strfmt("%s", null);
#pragma GCC diagnostic pop
		assert_non_null(got);
		assert_string_equal(got, want);
		free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(registry_codes_are_unique_and_documented),
		cmocka_unit_test(findings_md_matches_registry),
		cmocka_unit_test(severity_scale),
		cmocka_unit_test(recorder_keeps_everything),
		cmocka_unit_test(recorder_texts_stay_whole),
		cmocka_unit_test(recorder_string_codes_and_sort),
		cmocka_unit_test(ignore_patterns_are_checked),
		cmocka_unit_test(alloc_grow),
		cmocka_unit_test(read_file_bounded),
		cmocka_unit_test(path_join),
		cmocka_unit_test(xml_escape),
		cmocka_unit_test(strfmt_copies_plain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
