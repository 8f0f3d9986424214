/*
 * test_sysfs.c - the root-relative layer and the sysfs string parsers:
 * missing is not malformed, junk and loops are survived and reported,
 * links stay inside the root, and every kernel format of a link speed parses.
 */
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicfit/sysfs.h"
#include "nicfit/units.h"

static char root[256];

static void put(const char *rel, const void *data, size_t n)
{
	char p[512], d[512], *s;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	snprintf(d, sizeof(d), "%s", p);
	s = strrchr(d, '/');
	*s = '\0';
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", d);
		assert_int_equal(system(cmd), 0);
	}
	f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

static void puts_file(const char *rel, const char *text)
{
	put(rel, text, strlen(text));
}

static void link_at(const char *target, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/nicfit-test-sysfs-XXXXXX");
	assert_non_null(mkdtemp(root));
	puts_file("sys/devices/pci0000:00/0000:00:01.0/vendor", "0x15b3\n");
	puts_file("sys/devices/pci0000:00/0000:00:01.0/device", "0xZZ\n");
	put("sys/devices/pci0000:00/0000:00:01.0/class", "\x00\x01\xff\n", 4);
	puts_file("sys/devices/pci0000:00/0000:00:01.0/numa_node", "-1\n");
	/* node lists as kernels ~2.6.23 to 2011 end them, and damage that looks alike */
	put("sys/devices/system/node/online", "0-3\n\0", 5);
	put("sys/devices/system/node/possible", "0-3\0\n", 5);
	put("sys/devices/system/node/has_cpu", "\n\0", 2);
	puts_file("sys/devices/pci0000:00/0000:00:01.0/current_link_speed", "8.0 GT/s PCIe\n");
	puts_file("sys/devices/pci0000:00/0000:00:01.0/max_link_width", "16 \n");
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sys/bus/pci/devices' '%s/sys/devices/pci0000:00/0000:00:01.0/adir' "
		 "'%s/sys/class/net'", root, root, root);
	assert_int_equal(system(cmd), 0);
	link_at("../../../devices/pci0000:00/0000:00:01.0", "sys/bus/pci/devices/0000:00:01.0");
	link_at("loop", "sys/devices/pci0000:00/0000:00:01.0/loop");
	/* an absolute link in a captured tree must resolve inside the tree */
	link_at("/sys/devices/pci0000:00/0000:00:01.0", "sys/class/net/abs");
	snprintf(cmd, sizeof(cmd), "mkfifo '%s/sys/devices/pci0000:00/0000:00:01.0/fifo'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void readers(void **state)
{
	struct nicfit_sysfs *fs;
	struct nicfit_error err;
	unsigned long v;
	long n;
	char s[64];

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_sysfs_open(root, &fs, &err), 0);
	assert_int_equal(nicfit_sysfs_read_hex(fs, "sys/bus/pci/devices/0000:00:01.0/vendor", &v, 0),
			 NICFIT_SYSFS_OK);
	assert_int_equal(v, 0x15b3);
	assert_int_equal(nicfit_sysfs_read_hex(fs, "sys/devices/pci0000:00/0000:00:01.0/device", &v, 0),
			 NICFIT_SYSFS_MALFORMED);
	assert_int_equal(nicfit_sysfs_read_str(fs, "sys/devices/pci0000:00/0000:00:01.0/class", s,
					       sizeof(s), 0), NICFIT_SYSFS_MALFORMED);
	assert_int_equal(nicfit_sysfs_read_long(fs, "sys/devices/pci0000:00/0000:00:01.0/numa_node",
						&n, 0), NICFIT_SYSFS_OK);
	assert_int_equal(n, -1);
	assert_int_equal(nicfit_sysfs_read_str(fs, "sys/devices/system/node/online", s, sizeof(s), 0),
			 NICFIT_SYSFS_OK);
	assert_string_equal(s, "0-3");
	assert_int_equal(nicfit_sysfs_read_str(fs, "sys/devices/system/node/possible", s, sizeof(s),
					       0), NICFIT_SYSFS_MALFORMED);
	assert_int_equal(nicfit_sysfs_read_str(fs, "sys/devices/system/node/has_cpu", s, sizeof(s), 0),
			 NICFIT_SYSFS_OK);
	assert_string_equal(s, "");
	assert_int_equal(nicfit_sysfs_read_long(fs, "sys/devices/pci0000:00/0000:00:01.0/max_link_width",
						&n, 0), NICFIT_SYSFS_OK);
	assert_int_equal(n, 16);
	assert_int_equal(nicfit_sysfs_read_str(fs, "sys/devices/pci0000:00/0000:00:01.0/nothing", s,
					       sizeof(s), 0), NICFIT_SYSFS_MISSING);
	assert_int_equal(nicfit_sysfs_read_str(fs, "sys/devices/pci0000:00/0000:00:01.0/loop/x", s,
					       sizeof(s), 0), NICFIT_SYSFS_LOOP);
	assert_int_equal(nicfit_sysfs_read_str(fs, "sys/devices/pci0000:00/0000:00:01.0/fifo", s,
					       sizeof(s), 0), NICFIT_SYSFS_NOT_FILE);
	assert_int_equal(nicfit_sysfs_read_str(fs, "sys/devices/pci0000:00/0000:00:01.0/adir", s,
					       sizeof(s), 0), NICFIT_SYSFS_NOT_FILE);
	/* the absolute link stays in the tree */
	assert_int_equal(nicfit_sysfs_read_hex(fs, "sys/class/net/abs/vendor", &v, 0), NICFIT_SYSFS_OK);
	assert_int_equal(v, 0x15b3);
	assert_int_equal(nicfit_sysfs_resolve(fs, "sys/class/net/abs", s, sizeof(s), 0),
			 NICFIT_SYSFS_OK);
	assert_string_equal(s, "sys/devices/pci0000:00/0000:00:01.0");
	assert_int_equal(nicfit_sysfs_readlink(fs, "sys/bus/pci/devices/0000:00:01.0", s, sizeof(s), 0),
			 NICFIT_SYSFS_OK);
	assert_string_equal(s, "../../../devices/pci0000:00/0000:00:01.0");
	assert_int_equal(nicfit_sysfs_readlink(fs, "sys/devices/pci0000:00/0000:00:01.0/vendor", s,
					       sizeof(s), 0), NICFIT_SYSFS_NOT_FILE);
	assert_true(nicfit_sysfs_exists(fs, "sys/bus/pci/devices/0000:00:01.0/vendor"));
	assert_false(nicfit_sysfs_exists(fs, "sys/bus/pci/devices/0000:00:02.0"));
	/* missing is never a problem; the rest are, once each */
	assert_int_equal(nicfit_sysfs_problem_count(fs), 7);
	{
		const char *p;
		enum nicfit_sysfs_status st;
		int e;

		nicfit_sysfs_problem(fs, 0, &p, &st, &e);
		assert_string_equal(p, "sys/devices/pci0000:00/0000:00:01.0/device");
		assert_int_equal(st, NICFIT_SYSFS_MALFORMED);
	}
	nicfit_sysfs_close(fs);
}

/* The file at path (made already) holds n bytes of data. */
static void rewrite(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

/*
 * A value holding a control byte or DEL anywhere is malformed, one with a
 * tab or a newline inside is not, at every position of values longer than
 * the eight bytes the reader checks at a time.
 */
static void control_bytes_anywhere(void **state)
{
	static const unsigned char odd[] = { 0x01, 0x1b, 0x1f, 0x7f, '\t', '\n', 0x80, 0xc3 };
	struct nicfit_sysfs *fs;
	struct nicfit_error err;
	size_t n, at, k;
	char s[128], v[64], path[512];

	(void)state;
	nicfit_error_clear(&err);
	put("sys/ctl/value", "x", 1);
	snprintf(path, sizeof(path), "%s/sys/ctl/value", root);
	assert_int_equal(nicfit_sysfs_open(root, &fs, &err), 0);
	for (n = 1; n <= 40; n += 3)
		for (at = 0; at + 1 < n; at++)
			for (k = 0; k < sizeof(odd); k++) {
				enum nicfit_sysfs_status want;
				size_t i;

				for (i = 0; i < n; i++)
					v[i] = (char)('a' + i % 26);
				v[at] = (char)odd[k];
				want = odd[k] < 0x20 && odd[k] != '\t' && odd[k] != '\n' ?
					       NICFIT_SYSFS_MALFORMED :
				       odd[k] == 0x7f ? NICFIT_SYSFS_MALFORMED : NICFIT_SYSFS_OK;
				rewrite(path, v, n);
				if (nicfit_sysfs_read_str(fs, "sys/ctl/value", s, sizeof(s), 0) != want)
					fail_msg("%zu bytes, 0x%02x at %zu: not read as it should be", n,
						 odd[k], at);
			}
	nicfit_sysfs_close(fs);
}

/*
 * A listing comes in strcmp() order: names that tie in the 16 bytes the
 * sort compares as words and differ after, a name that is a prefix of
 * another, bytes above 0x7f, and more names than one getdents() holds.
 */
static void list_order(void **state)
{
	static const char *const names[] = {
		"0123456789abcdefZ", "0123456789abcdefA", "0123456789abcdef", "0123456789abcde",
		"0123456789abcdefAA", "a", "ab", "aB", "B", "\xc3\xa9", "\x7f", "~", "0000:00:01.1",
		"0000:00:01.0", "0000:0a:00.0", "10000:00:00.0",
	};
	struct nicfit_sysfs *fs;
	struct nicfit_dirent *d;
	struct nicfit_error err;
	char path[512];
	size_t n, i;

	(void)state;
	puts_file("sys/order/0000:00:00.0", "1\n"); /* the directory */
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/sys/order/%s", root, names[i]);
		rewrite(path, "1\n", 2);
	}
	for (i = 0; i < 600; i++) {
		snprintf(path, sizeof(path), "%s/sys/order/0000:%02zx:%02zx.%zu", root,
			 i / 256 + 0x10, i % 256 / 8, i % 8);
		rewrite(path, "1\n", 2);
	}
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_sysfs_open(root, &fs, &err), 0);
	assert_int_equal(nicfit_sysfs_list(fs, "sys/order", &d, &n, 0), NICFIT_SYSFS_OK);
	assert_int_equal(n, 1 + sizeof(names) / sizeof(names[0]) + 600);
	for (i = 1; i < n; i++)
		if (strcmp(d[i - 1].name, d[i].name) >= 0)
			fail_msg("\"%s\" before \"%s\"", d[i - 1].name, d[i].name);
	free(d);
	nicfit_sysfs_close(fs);
}

static void quiet_and_list(void **state)
{
	struct nicfit_sysfs *fs;
	struct nicfit_dirent *d;
	struct nicfit_error err;
	size_t n, i;
	char s[16];

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_sysfs_open(root, &fs, &err), 0);
	assert_int_equal(nicfit_sysfs_read_str(fs, "sys/devices/pci0000:00/0000:00:01.0/fifo", s,
					       sizeof(s), NICFIT_SYSFS_QUIET), NICFIT_SYSFS_NOT_FILE);
	assert_int_equal(nicfit_sysfs_problem_count(fs), 0);
	assert_int_equal(nicfit_sysfs_list(fs, "sys/devices/pci0000:00/0000:00:01.0", &d, &n, 0),
			 NICFIT_SYSFS_OK);
	assert_true(n >= 8);
	assert_string_equal(d[0].name, "adir");
	assert_int_equal(d[0].type, NICFIT_DT_DIR);
	for (i = 1; i < n; i++)
		assert_true(strcmp(d[i - 1].name, d[i].name) < 0);
	free(d);
	/* subdirectories only: not the files, the FIFO or the links */
	assert_int_equal(nicfit_sysfs_list(fs, "sys/devices/pci0000:00/0000:00:01.0", &d, &n,
					   NICFIT_SYSFS_SUBDIRS), NICFIT_SYSFS_OK);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].name, "adir");
	free(d);
	assert_int_equal(nicfit_sysfs_list(fs, "sys/nope", &d, &n, 0), NICFIT_SYSFS_MISSING);
	assert_int_equal(nicfit_sysfs_list(fs, "sys/devices/pci0000:00/0000:00:01.0/vendor", &d, &n, 0),
			 NICFIT_SYSFS_NOT_FILE);
	/* a string longer than the caller's buffer */
	assert_int_equal(nicfit_sysfs_read_str(fs, "sys/devices/pci0000:00/0000:00:01.0/current_link_speed",
					       s, 4, 0), NICFIT_SYSFS_TOO_BIG);
	nicfit_sysfs_close(fs);
}

/*
 * Directories are kept open and their subdirectories reached from them:
 * the same answers as resolving each path, through links (a link below a
 * kept directory is resolved inside the root), ".." and more directories
 * than are kept.
 */
static void kept_directories(void **state)
{
	struct nicfit_sysfs *fs;
	struct nicfit_error err;
	struct nicfit_dirent *d;
	size_t n;
	long v;
	int k;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_sysfs_open(root, &fs, &err), 0);
	for (k = 0; k < 3; k++) {
		assert_int_equal(nicfit_sysfs_list(fs, "sys/bus/pci/devices", &d, &n, 0),
				 NICFIT_SYSFS_OK);
		free(d);
		/* below a kept directory, through the link 0000:00:01.0 */
		assert_int_equal(nicfit_sysfs_read_long(fs,
				 "sys/bus/pci/devices/0000:00:01.0/numa_node", &v, 0), NICFIT_SYSFS_OK);
		assert_int_equal(v, -1);
		assert_int_equal(nicfit_sysfs_list(fs, "sys/bus/pci/devices/0000:00:01.0/adir", &d,
						   &n, 0), NICFIT_SYSFS_OK);
		free(d);
		assert_int_equal(nicfit_sysfs_read_long(fs,
				 "sys/devices/pci0000:00/0000:00:01.0/adir/../numa_node", &v, 0),
				 NICFIT_SYSFS_OK);
		assert_int_equal(v, -1);
		/* an absolute link below a kept directory stays inside the root */
		assert_int_equal(nicfit_sysfs_read_long(fs, "sys/class/net/abs/numa_node", &v, 0),
				 NICFIT_SYSFS_OK);
		assert_int_equal(v, -1);
		assert_int_equal(nicfit_sysfs_read_long(fs, "sys/devices/system/node/nope/x", &v,
							NICFIT_SYSFS_QUIET), NICFIT_SYSFS_MISSING);
		/* more directories than are kept push the first ones out */
		assert_int_equal(nicfit_sysfs_read_long(fs, "sys/devices/system/node/online", &v,
							NICFIT_SYSFS_QUIET), NICFIT_SYSFS_MALFORMED);
		assert_int_equal(nicfit_sysfs_list(fs, "sys/devices/pci0000:00", &d, &n, 0),
				 NICFIT_SYSFS_OK);
		free(d);
		assert_int_equal(nicfit_sysfs_list(fs, "sys/class/net", &d, &n, 0), NICFIT_SYSFS_OK);
		free(d);
		assert_int_equal(nicfit_sysfs_list(fs, "sys", &d, &n, 0), NICFIT_SYSFS_OK);
		free(d);
		assert_int_equal(nicfit_sysfs_list(fs, "sys/devices", &d, &n, 0), NICFIT_SYSFS_OK);
		free(d);
		assert_int_equal(nicfit_sysfs_list(fs, "sys/bus", &d, &n, 0), NICFIT_SYSFS_OK);
		free(d);
		assert_int_equal(nicfit_sysfs_list(fs, "sys/bus/pci", &d, &n, 0), NICFIT_SYSFS_OK);
		free(d);
	}
	nicfit_sysfs_close(fs);
}

/*
 * Directories longer than a kept path (256 bytes) take a slot of their
 * own, and sweeps over more directories than are kept still read each
 * file right, again and again.
 */
static void long_and_many_directories(void **state)
{
	struct nicfit_sysfs *fs;
	struct nicfit_error err;
	char a[400], b[400], path[450], want[16];
	long v;
	int k, i;

	(void)state;
	snprintf(a, sizeof(a), "sys/deep");
	while (strlen(a) < 300)
		memcpy(a + strlen(a), "/0000:00:01.0", sizeof("/0000:00:01.0"));
	snprintf(b, sizeof(b), "%s/0000:00:02.0", a);
	snprintf(path, sizeof(path), "%s/numa_node", a);
	puts_file(path, "3\n");
	snprintf(path, sizeof(path), "%s/numa_node", b);
	puts_file(path, "4\n");
	for (i = 0; i < 200; i++) {
		snprintf(path, sizeof(path), "sys/many/d%03d/numa_node", i);
		snprintf(want, sizeof(want), "%d\n", i);
		puts_file(path, want);
	}
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_sysfs_open(root, &fs, &err), 0);
	for (k = 0; k < 3; k++) {
		snprintf(path, sizeof(path), "%s/numa_node", a);
		assert_int_equal(nicfit_sysfs_read_long(fs, path, &v, 0), NICFIT_SYSFS_OK);
		assert_int_equal(v, 3);
		snprintf(path, sizeof(path), "%s/numa_node", b);
		assert_int_equal(nicfit_sysfs_read_long(fs, path, &v, 0), NICFIT_SYSFS_OK);
		assert_int_equal(v, 4);
		for (i = 0; i < 200; i++) {
			snprintf(path, sizeof(path), "sys/many/d%03d/numa_node", i);
			assert_int_equal(nicfit_sysfs_read_long(fs, path, &v, 0), NICFIT_SYSFS_OK);
			assert_int_equal(v, i);
		}
	}
	nicfit_sysfs_close(fs);
}

static void open_errors(void **state)
{
	struct nicfit_sysfs *fs;
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_sysfs_open("/nonexistent/nicfit", &fs, &err), NICFIT_E_NOTFOUND);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_sysfs_open("/tmp", &fs, &err), NICFIT_E_NOTFOUND);
	assert_non_null(strstr(err.msg, "sys/"));
}

static void recorder(void **state)
{
	struct nicfit_sysfs *fs;
	struct nicfit_error err;
	unsigned long v;
	size_t i, n;
	int files = 0, links = 0, failed = 0;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_sysfs_open(root, &fs, &err), 0);
	assert_int_equal(nicfit_sysfs_record(fs, 1), 0);
	nicfit_sysfs_read_hex(fs, "sys/bus/pci/devices/0000:00:01.0/vendor", &v, 0);
	nicfit_sysfs_read_hex(fs, "sys/bus/pci/devices/0000:00:01.0/vendor", &v, 0);
	{
		char s[64];

		nicfit_sysfs_readlink(fs, "sys/bus/pci/devices/0000:00:01.0", s, sizeof(s), 0);
		nicfit_sysfs_read_str(fs, "sys/devices/pci0000:00/0000:00:01.0/loop/x", s, sizeof(s), 0);
		nicfit_sysfs_read_str(fs, "sys/devices/pci0000:00/0000:00:01.0/nothing", s, sizeof(s), 0);
	}
	n = nicfit_sysfs_rec_count(fs);
	for (i = 0; i < n; i++) {
		const struct nicfit_rec *r = nicfit_sysfs_rec(fs, i);

		files += r->type == NICFIT_REC_FILE;
		links += r->type == NICFIT_REC_LINK;
		failed += r->type == NICFIT_REC_FAILED;
		if (r->type == NICFIT_REC_FILE) {
			assert_int_equal(r->len, 7);
			assert_memory_equal(r->data, "0x15b3\n", 7);
		}
	}
	assert_int_equal(files, 1);   /* read twice, kept once */
	assert_int_equal(links, 1);
	assert_int_equal(failed, 1);  /* the loop; the missing file is not recorded */
	nicfit_sysfs_close(fs);
}

/*
 * Recording with 2 also keeps what was looked for and not there (a file,
 * a directory listed, a path tested for), once each and after what was
 * read; with 1 none of it is kept.
 */
static void recorder_missing(void **state)
{
	struct nicfit_sysfs *fs;
	struct nicfit_error err;
	struct nicfit_dirent *ents;
	size_t i, n, ne;
	int on, missing, files;

	(void)state;
	for (on = 1; on <= 2; on++) {
		char s[64];
		unsigned long v;

		nicfit_error_clear(&err);
		assert_int_equal(nicfit_sysfs_open(root, &fs, &err), 0);
		assert_int_equal(nicfit_sysfs_record(fs, on), 0);
		nicfit_sysfs_read_hex(fs, "sys/bus/pci/devices/0000:00:01.0/vendor", &v, 0);
		nicfit_sysfs_read_str(fs, "sys/devices/pci0000:00/0000:00:01.0/nothing", s, sizeof(s),
				      0);
		nicfit_sysfs_read_str(fs, "/sys/devices/pci0000:00/0000:00:01.0/nothing", s, sizeof(s),
				      0);
		assert_int_equal(nicfit_sysfs_list(fs, "sys/class/nothing", &ents, &ne, 0),
				 NICFIT_SYSFS_MISSING);
		assert_false(nicfit_sysfs_exists(fs, "sys/module/nothing"));
		missing = files = 0;
		n = nicfit_sysfs_rec_count(fs);
		for (i = 0; i < n; i++) {
			const struct nicfit_rec *r = nicfit_sysfs_rec(fs, i);

			files += r->type == NICFIT_REC_FILE;
			if (r->type == NICFIT_REC_MISSING) {
				missing++;
				assert_int_equal(r->st, NICFIT_SYSFS_MISSING);
				assert_true(r->path[0] != '/');
				assert_true(i > 0); /* after the file read first */
			}
		}
		assert_int_equal(files, 1);
		assert_int_equal(missing, on == 2 ? 3 : 0); /* the file kept once */
		nicfit_sysfs_close(fs);
	}
}

static void link_speeds(void **state)
{
	static const struct { const char *s; int rc; double gts; } t[] = {
		{ "2.5 GT/s", 0, 2.5 }, { "5 GT/s", 0, 5 }, { "8 GT/s", 0, 8 }, { "16 GT/s", 0, 16 },
		{ "2.5 GT/s PCIe", 0, 2.5 }, { "5.0 GT/s PCIe", 0, 5 }, { "8.0 GT/s PCIe", 0, 8 },
		{ "16.0 GT/s PCIe", 0, 16 }, { "32.0 GT/s PCIe", 0, 32 }, { "64.0 GT/s PCIe", 0, 64 },
		{ "Unknown", 1, 0 }, { "Unknown speed", 1, 0 }, { "", 1, 0 },
		{ "8.0 GT/s PCIe extra", -1, 0 }, { "8.0GT/s", -1, 0 }, { "-8 GT/s", -1, 0 },
		{ "0 GT/s", -1, 0 }, { "8. GT/s", -1, 0 }, { "GT/s", -1, 0 }, { "nan GT/s", -1, 0 },
		{ "1e3 GT/s", -1, 0 }, { "8.0 GT/s  PCIe", -1, 0 }, { "unknown", -1, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		double g = -1;
		int rc = nicfit_parse_link_speed(t[i].s, &g);

		if (rc != t[i].rc)
			fail_msg("'%s': rc %d, expected %d", t[i].s, rc, t[i].rc);
		assert_near(g, t[i].gts, 1e-9);
	}
}

static void numbers(void **state)
{
	unsigned long v;
	long n;

	(void)state;
	assert_int_equal(nicfit_parse_hex_id("0x030200", &v), 0);
	assert_int_equal(v, 0x030200);
	assert_int_equal(nicfit_parse_hex_id("0X15B3", &v), 0);
	assert_int_equal(v, 0x15b3);
	assert_int_equal(nicfit_parse_hex_id("15b3", &v), -1);
	assert_int_equal(nicfit_parse_hex_id("0x", &v), -1);
	assert_int_equal(nicfit_parse_hex_id("0x123456789", &v), -1);
	assert_int_equal(nicfit_parse_hex_id("0x12 ", &v), -1);
	assert_int_equal(nicfit_parse_dec("-1", -1, 10, &n), 0);
	assert_int_equal(n, -1);
	assert_int_equal(nicfit_parse_dec("11", -1, 10, &n), -1);
	assert_int_equal(nicfit_parse_dec("9223372036854775808", 0, 9223372036854775807L, &n), -1);
	assert_int_equal(nicfit_parse_dec("-", -5, 5, &n), -1);
	assert_int_equal(nicfit_parse_dec("", -5, 5, &n), -1);
}

static void cpulists(void **state)
{
	unsigned long c;
	long f;

	(void)state;
	assert_int_equal(nicfit_parse_cpulist("0-7,16-23", &c, &f), 0);
	assert_int_equal(c, 16);
	assert_int_equal(f, 0);
	assert_int_equal(nicfit_parse_cpulist("8", &c, &f), 0);
	assert_int_equal(c, 1);
	assert_int_equal(f, 8);
	assert_int_equal(nicfit_parse_cpulist("", &c, &f), 0);
	assert_int_equal(c, 0);
	assert_int_equal(f, -1);
	assert_int_equal(nicfit_parse_cpulist("7-0", &c, &f), -1);
	assert_int_equal(nicfit_parse_cpulist("0-", &c, &f), -1);
	assert_int_equal(nicfit_parse_cpulist("0,,1", &c, &f), -1);
	assert_int_equal(nicfit_parse_cpulist("0-99999999", &c, &f), -1);
	assert_true(nicfit_cpulist_has("0-7,16-23", 17));
	assert_false(nicfit_cpulist_has("0-7,16-23", 8));
}

/* Old kernels give a node's and a package's CPUs only as masks: the highest word first. */
static void cpumasks(void **state)
{
	char l[64];

	(void)state;
	assert_int_equal(nicfit_parse_cpumask("00000000,000000ff", l, sizeof(l)), 0);
	assert_string_equal(l, "0-7");
	assert_int_equal(nicfit_parse_cpumask("000000f0,00000001", l, sizeof(l)), 0);
	assert_string_equal(l, "0,36-39");
	assert_int_equal(nicfit_parse_cpumask("80000000,80000000", l, sizeof(l)), 0);
	assert_string_equal(l, "31,63");
	assert_int_equal(nicfit_parse_cpumask("00000001,ffffffff", l, sizeof(l)), 0);
	assert_string_equal(l, "0-32");
	assert_int_equal(nicfit_parse_cpumask("aa", l, sizeof(l)), 0);
	assert_string_equal(l, "1,3,5,7");
	assert_int_equal(nicfit_parse_cpumask("00000000", l, sizeof(l)), 0);
	assert_string_equal(l, "");
	assert_int_equal(nicfit_parse_cpumask("", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask("ff,", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask(",ff", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask("ff,,ff", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask("0x0000ff", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask("1ffffffff", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask("0000 00ff", l, sizeof(l)), -1);
	/* a list that does not fit is refused whole, and told apart from a bad mask */
	assert_int_equal(nicfit_parse_cpumask("55555555", l, 8), -2);
	assert_string_equal(l, "");
	assert_int_equal(nicfit_parse_cpumask("5555555g", l, 8), -1);
	assert_int_equal(nicfit_parse_cpumask("zz,55555555", l, 8), -1);
	assert_int_equal(nicfit_parse_cpumask("ff", l, 0), -2);
	assert_int_equal(nicfit_parse_cpumask("", l, 0), -1);
}

/*
 * local_cpus as PCI functions show it (any number of words, the first
 * often shorter: "0000,000000ff,ffffffff"), and what no kernel writes.
 */
static void cpumasks_odd(void **state)
{
	char l[64], *big;
	size_t i, n;

	(void)state;
	assert_int_equal(nicfit_parse_cpumask("0000,000000ff,ffffffff", l, sizeof(l)), 0);
	assert_string_equal(l, "0-39");
	assert_int_equal(nicfit_parse_cpumask("0000ffff,0000ffff", l, sizeof(l)), 0);
	assert_string_equal(l, "0-15,32-47");
	assert_int_equal(nicfit_parse_cpumask("FFFF0000,00000000", l, sizeof(l)), 0);
	assert_string_equal(l, "48-63");
	/* all zero, in any number of words: no CPU */
	assert_int_equal(nicfit_parse_cpumask("00000000,00000000,0", l, sizeof(l)), 0);
	assert_string_equal(l, "");
	/* what sysfs reading strips, and what no kernel prints */
	assert_int_equal(nicfit_parse_cpumask("000000ff\n", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask("0x000000ff", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask("0x", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask("ff,0x000000ff", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask("-1", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask(" ff", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask(",", l, sizeof(l)), -1);
	assert_int_equal(nicfit_parse_cpumask("0-7", l, sizeof(l)), -1);
	assert_string_equal(l, "");
	/* 8192 CPUs (256 words), the top one set: the list names CPU 8191 */
	n = 8 + 255 * 9;
	big = malloc(n + 1);
	assert_non_null(big);
	memcpy(big, "80000000", 8);
	for (i = 0; i < 255; i++)
		memcpy(big + 8 + i * 9, ",00000000", 9);
	big[n] = '\0';
	assert_int_equal(nicfit_parse_cpumask(big, l, sizeof(l)), 0);
	assert_string_equal(l, "8191");
	free(big);
	/* words past CPU 1<<22 are refused, not walked */
	n = 140000 * 2;
	big = malloc(n);
	assert_non_null(big);
	for (i = 0; i < n; i += 2) {
		big[i] = '1';
		big[i + 1] = ',';
	}
	big[n - 1] = '\0';
	assert_int_equal(nicfit_parse_cpumask(big, l, sizeof(l)), -1);
	/* within the limit, every word's CPU 0: far too long a list for l */
	big[2 * 100000 - 1] = '\0';
	assert_int_equal(nicfit_parse_cpumask(big, l, sizeof(l)), -2);
	free(big);
}

static void ib_strings(void **state)
{
	struct nicfit_ib_rate r;
	uint8_t g[16];
	char name[32];
	int num;

	(void)state;
	assert_int_equal(nicfit_parse_ib_rate("100 Gb/sec (4X EDR)", &r), 0);
	assert_near(r.gbps, 100, 0);
	assert_int_equal(r.width, 4);
	assert_string_equal(r.speed, "EDR");
	assert_near(r.data_gbps, 100, 1e-9);
	assert_int_equal(nicfit_parse_ib_rate("56 Gb/sec (4X FDR)", &r), 0);
	assert_near(r.data_gbps, 4 * 14.0625 * 64 / 66, 1e-9);
	assert_int_equal(nicfit_parse_ib_rate("2.5 Gb/sec (1X)", &r), 0);
	assert_near(r.gbps, 2.5, 1e-9);
	assert_near(r.data_gbps, 2.0, 1e-9);
	assert_string_equal(r.speed, "");
	/* SDR, DDR and QDR print the signalling rate; 8b/10b leaves 80% of it */
	assert_int_equal(nicfit_parse_ib_rate("40 Gb/sec (4X QDR)", &r), 0);
	assert_near(r.gbps, 40, 1e-9);
	assert_near(r.data_gbps, 32, 1e-9);
	assert_int_equal(nicfit_parse_ib_rate("20 Gb/sec (4X DDR)", &r), 0);
	assert_near(r.data_gbps, 16, 1e-9);
	assert_int_equal(nicfit_parse_ib_rate("10 Gb/sec (4X)", &r), 0);
	assert_near(r.data_gbps, 8, 1e-9);
	assert_int_equal(nicfit_parse_ib_rate("40 Gb/sec (4X FDR10)", &r), 0);
	assert_near(r.data_gbps, 40, 1e-9);
	assert_int_equal(nicfit_parse_ib_rate("200 Gb/sec (2X NDR)", &r), 0);
	assert_near(r.data_gbps, 200, 1e-9);
	/* a name that does not fit the number keeps the number */
	assert_int_equal(nicfit_parse_ib_rate("100 Gb/sec (4X QDR)", &r), 0);
	assert_near(r.data_gbps, 100, 1e-9);
	assert_int_equal(nicfit_parse_ib_rate("400 Gb/sec (4X NDR)", &r), 0);
	assert_int_equal(nicfit_parse_ib_rate("100 Gb/sec (4X EDR", &r), -1);
	assert_int_equal(nicfit_parse_ib_rate("100 Gb/s (4X EDR)", &r), -1);
	assert_int_equal(nicfit_parse_ib_rate("100 Gb/sec (X EDR)", &r), -1);
	assert_int_equal(nicfit_parse_ib_state("4: ACTIVE", &num, name, sizeof(name)), 0);
	assert_int_equal(num, 4);
	assert_string_equal(name, "ACTIVE");
	assert_int_equal(nicfit_parse_ib_state("5: LinkUp", &num, name, sizeof(name)), 0);
	assert_int_equal(nicfit_parse_ib_state("ACTIVE", &num, name, sizeof(name)), -1);
	assert_int_equal(nicfit_parse_ib_state("4:ACTIVE", &num, name, sizeof(name)), -1);
	assert_int_equal(nicfit_parse_gid("fe80:0000:0000:0000:0202:c9ff:fe00:0001", g), 0);
	assert_int_equal(g[0], 0xfe);
	assert_int_equal(g[15], 0x01);
	assert_int_equal(nicfit_parse_gid("fe80:0000:0000:0000:0202:c9ff:fe00:001", g), -1);
	assert_int_equal(nicfit_parse_gid("fe80:0000:0000:0000:0202:c9ff:fe00:0001:", g), -1);
	assert_int_equal(nicfit_parse_gid_type("RoCE v2"), NICFIT_GID_ROCE2);
	assert_int_equal(nicfit_parse_gid_type("IB/RoCE v1"), NICFIT_GID_IB_ROCE1);
	assert_int_equal(nicfit_parse_gid_type("RoCE v3"), NICFIT_GID_UNKNOWN);
}

static void pci_addresses(void **state)
{
	unsigned d, b, v, f;

	(void)state;
	assert_int_equal(nicfit_parse_pci_addr("0000:3b:00.1", &d, &b, &v, &f), 0);
	assert_int_equal(b, 0x3b);
	assert_int_equal(f, 1);
	assert_int_equal(nicfit_parse_pci_addr("10000:01:00.0", &d, &b, &v, &f), 0);
	assert_int_equal(d, 0x10000);
	assert_int_equal(nicfit_parse_pci_addr("0000:3b:00", &d, &b, &v, NULL), 0);
	assert_int_equal(nicfit_parse_pci_addr("0000:3b:00", &d, &b, &v, &f), -1);
	assert_int_equal(nicfit_parse_pci_addr("0000:3b:20.0", &d, &b, &v, &f), -1);
	assert_int_equal(nicfit_parse_pci_addr("0000:3b:00.8", &d, &b, &v, &f), -1);
	assert_int_equal(nicfit_parse_pci_addr("000:3b:00.0", &d, &b, &v, &f), -1);
	assert_int_equal(nicfit_parse_pci_addr("pci0000:00", &d, &b, &v, &f), -1);
}

/* What a trace sees: one line a read, its kind and, for a part, where and why. */
struct traced {
	char ops[16];
	size_t n, off[16], len[16];
	char why[16][64];
};

static void trace_cb(void *ctx, int op, const char *path, size_t off, size_t len,
		     const char *why)
{
	struct traced *t = ctx;

	(void)path;
	if (t->n >= sizeof(t->ops) - 1)
		return;
	t->ops[t->n] = (char)op;
	t->off[t->n] = off;
	t->len[t->n] = len;
	snprintf(t->why[t->n], sizeof(t->why[0]), "%s", why ? why : "");
	t->n++;
}

static void attr_parts_and_trace(void **state)
{
	struct nicfit_sysfs *fs;
	struct nicfit_error err;
	struct traced t;
	unsigned char hdr[64], buf[68];
	long v;
	int fd;

	(void)state;
	memset(&t, 0, sizeof(t));
	memset(hdr, 0xab, sizeof(hdr));
	put("sys/devices/pci0000:00/0000:00:01.0/config", hdr, sizeof(hdr));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_sysfs_open(root, &fs, &err), 0);
	nicfit_sysfs_trace(fs, trace_cb, &t);
	assert_int_equal(nicfit_sysfs_open_attr(fs, "sys/devices/pci0000:00/0000:00:01.0/config",
						&fd, 0), NICFIT_SYSFS_OK);
	/* the 64 bytes an unprivileged reader gets: what is there, then nothing */
	assert_int_equal(nicfit_sysfs_pread(fs, fd, "sys/devices/pci0000:00/0000:00:01.0/config",
					    buf, sizeof(buf), 0, "header"), 64);
	assert_int_equal(buf[63], 0xab);
	assert_int_equal(nicfit_sysfs_pread(fs, fd, "sys/devices/pci0000:00/0000:00:01.0/config",
					    buf, 4, 0x100, "hop"), 0);
	assert_int_equal(nicfit_sysfs_pread(fs, fd, "sys/devices/pci0000:00/0000:00:01.0/config",
					    buf, 4, 0x3c, "last dword"), 4);
	nicfit_sysfs_close_attr(fs, fd);
	assert_int_equal(nicfit_sysfs_open_attr(fs, "sys/devices/pci0000:00/0000:00:01.0/nope",
						&fd, NICFIT_SYSFS_QUIET), NICFIT_SYSFS_MISSING);
	assert_int_equal(nicfit_sysfs_read_long(fs, "sys/devices/pci0000:00/0000:00:01.0/numa_node",
						&v, 0), NICFIT_SYSFS_OK);
	nicfit_sysfs_close(fs);
	/* a read that returned nothing is not a read of anything */
	assert_string_equal(t.ops, "PPMF");
	assert_int_equal(t.off[0], 0);
	assert_int_equal(t.len[0], 64);
	assert_string_equal(t.why[0], "header");
	assert_int_equal(t.off[1], 0x3c);
	assert_int_equal(t.len[1], 4);
	assert_string_equal(t.why[1], "last dword");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(readers, setup, teardown),
		cmocka_unit_test_setup_teardown(control_bytes_anywhere, setup, teardown),
		cmocka_unit_test_setup_teardown(quiet_and_list, setup, teardown),
		cmocka_unit_test_setup_teardown(list_order, setup, teardown),
		cmocka_unit_test_setup_teardown(kept_directories, setup, teardown),
		cmocka_unit_test_setup_teardown(long_and_many_directories, setup, teardown),
		cmocka_unit_test_setup_teardown(attr_parts_and_trace, setup, teardown),
		cmocka_unit_test(open_errors),
		cmocka_unit_test_setup_teardown(recorder, setup, teardown),
		cmocka_unit_test_setup_teardown(recorder_missing, setup, teardown),
		cmocka_unit_test(link_speeds),
		cmocka_unit_test(numbers),
		cmocka_unit_test(cpulists),
		cmocka_unit_test(cpumasks),
		cmocka_unit_test(cpumasks_odd),
		cmocka_unit_test(ib_strings),
		cmocka_unit_test(pci_addresses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
