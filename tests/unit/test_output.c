/*
 * test_output.c - the CLI's output writer (src/cli/output.c), as --output
 * and --port-map use it: a new or single-named file replaced atomically
 * with the old one's mode and owner, a file with other names written in
 * place and cut to length, a link followed to the file it names, standard
 * output written where it is (its append mode kept), a read-only file, a
 * directory, a missing directory and a link to nothing refused, an input
 * refused as the destination; a write that fails (/dev/full, a file size
 * limit) reported with the destination left as it was and no temporary
 * file left, nor after an error of the command or a signal. Everything
 * is made in a mkdtemp directory under /tmp.
 */
#include "unit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"

static char tmp[256];
static char said[2048]; /* the last line cli_error() printed */

/* The CLI's error printer (usage.c), kept here to check the line. */
int cli_error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(said, sizeof(said), fmt, ap);
	va_end(ap);
	return nicfit_exit_code(code);
}

/* main.c's colour rule; a test's files are never terminals. */
int cli_color_for(int fd)
{
	return isatty(fd);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/nicfit-test-output-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) ? -1 : 0;
}

static void path_of(char *p, size_t n, const char *name)
{
	snprintf(p, n, "%s/%s", tmp, name);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The whole file, in a static buffer ("" when it cannot be read). */
static const char *get(const char *path)
{
	static char b[8192];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	b[0] = '\0';
	if (f) {
		n = fread(b, 1, sizeof(b) - 1, f);
		fclose(f);
	}
	b[n] = '\0';
	return b;
}

/* How many entries of dir start with '.' (temporary files), "." and ".." aside. */
static int dot_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* Open, write text, commit; the exit code. */
static int write_to(const char *path, mode_t mode, const char *text)
{
	struct cli_out o;
	int rc = cli_out_open(&o, "--output", path, mode);

	if (rc)
		return rc;
	cli_out_write(&o, text, strlen(text));
	return cli_out_commit(&o);
}

static void new_file(void **state)
{
	char p[300];
	struct stat sb;

	(void)state;
	path_of(p, sizeof(p), "new.prom");
	assert_int_equal(write_to(p, 0644, "a 1\n"), 0);
	assert_string_equal(get(p), "a 1\n");
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0644);
	assert_int_equal(dot_files(tmp), 0);
	unlink(p);
}

/* A single-named file is replaced (a new inode), keeping its permission bits. */
static void replace_keeps_mode(void **state)
{
	struct stat before, after;
	char p[300];

	(void)state;
	path_of(p, sizeof(p), "mode.txt");
	put(p, "old content, longer than the new\n");
	assert_int_equal(chmod(p, 0640), 0);
	assert_int_equal(stat(p, &before), 0);
	assert_int_equal(write_to(p, 0644, "new\n"), 0);
	assert_string_equal(get(p), "new\n");
	assert_int_equal(stat(p, &after), 0);
	assert_int_equal(after.st_mode & 07777, 0640);
	assert_true(after.st_ino != before.st_ino);
	assert_int_equal(dot_files(tmp), 0);
	unlink(p);
}

/* As root, the replaced file keeps its owner and group. */
static void replace_keeps_owner(void **state)
{
	struct stat sb;
	char p[300];

	(void)state;
	if (geteuid() != 0)
		skip();
	path_of(p, sizeof(p), "owned.txt");
	put(p, "old\n");
	assert_int_equal(chown(p, 65534, 65534), 0);
	assert_int_equal(write_to(p, 0644, "new\n"), 0);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_uid, 65534);
	assert_int_equal(sb.st_gid, 65534);
	unlink(p);
}

/* Two names for one file: both see the new content, cut to its length. */
static void hard_links_in_place(void **state)
{
	struct stat before, after;
	char a[300], b[300];

	(void)state;
	path_of(a, sizeof(a), "a.prom");
	path_of(b, sizeof(b), "b.prom");
	put(a, "old content, longer than the new\n");
	assert_int_equal(link(a, b), 0);
	assert_int_equal(stat(a, &before), 0);
	assert_int_equal(write_to(a, 0644, "new\n"), 0);
	assert_string_equal(get(b), "new\n");
	assert_string_equal(get(a), "new\n");
	assert_int_equal(stat(a, &after), 0);
	assert_true(after.st_ino == before.st_ino);
	assert_int_equal(after.st_nlink, 2);
	assert_int_equal(dot_files(tmp), 0);
	unlink(a);
	unlink(b);
}

/* A link is followed: the file it names, in another directory, is replaced there. */
static void symlink_followed(void **state)
{
	char dir[300], target[300], ln[300], rel[320];
	struct stat sb;

	(void)state;
	path_of(dir, sizeof(dir), "elsewhere");
	assert_int_equal(mkdir(dir, 0755), 0);
	path_of(target, sizeof(target), "elsewhere/real.prom");
	path_of(ln, sizeof(ln), "link.prom");
	put(target, "old\n");
	assert_int_equal(chmod(target, 0600), 0);
	snprintf(rel, sizeof(rel), "elsewhere/real.prom");
	assert_int_equal(symlink(rel, ln), 0);
	assert_int_equal(write_to(ln, 0644, "new\n"), 0);
	assert_int_equal(lstat(ln, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_string_equal(get(target), "new\n");
	assert_int_equal(stat(target, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0600);
	assert_int_equal(dot_files(tmp), 0);
	assert_int_equal(dot_files(dir), 0);
	unlink(ln);
	unlink(target);
	rmdir(dir);
}

/* Refused, each with one line naming the path, exit 74: nothing made. */
static void refused(void **state)
{
	char dir[300], missing[300], dangling[300], fifo[300];

	(void)state;
	path_of(dir, sizeof(dir), "adir");
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(write_to(dir, 0644, "x"), 74);
	assert_non_null(strstr(said, dir));
	assert_non_null(strstr(said, "a directory"));

	path_of(missing, sizeof(missing), "no/such/dir/x.prom");
	assert_int_equal(write_to(missing, 0644, "x"), 74);
	assert_non_null(strstr(said, missing));
	assert_non_null(strstr(said, "No such file or directory"));

	path_of(dangling, sizeof(dangling), "dangling");
	assert_int_equal(symlink("nowhere", dangling), 0);
	assert_int_equal(write_to(dangling, 0644, "x"), 74);
	assert_non_null(strstr(said, "link to nothing"));

	path_of(fifo, sizeof(fifo), "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(write_to(fifo, 0644, "x"), 74);
	assert_non_null(strstr(said, "no process reads"));

	assert_int_equal(write_to("", 0644, "x"), 64);
	assert_int_equal(write_to("dir/", 0644, "x"), 64);
	assert_int_equal(dot_files(tmp), 0);
	assert_int_equal(dot_files(dir), 0);
	unlink(dangling);
	unlink(fifo);
	rmdir(dir);
}

/* /dev/full: the write error is reported (exit 74), naming the path and why. */
static void dev_full(void **state)
{
	(void)state;
	if (access("/dev/full", W_OK))
		skip();
	assert_int_equal(write_to("/dev/full", 0644, "x\n"), 74);
	assert_non_null(strstr(said, "--output /dev/full: cannot write: No space left on device"));
}

/*
 * A file size limit (ulimit -f) hit midway, in a child: the old file is
 * as it was, no temporary file is left, the error says so; the same for
 * a file written in place (two names), where room is reserved first.
 */
static int fsize_child(const char *single, const char *linked)
{
	struct rlimit rl = { 4096, 4096 };
	static char big[16384];
	struct cli_out o;

	memset(big, 'x', sizeof(big));
	if (setrlimit(RLIMIT_FSIZE, &rl))
		return 10;
	if (cli_out_open(&o, "--output", single, 0644))
		return 11;
	cli_out_write(&o, big, sizeof(big));
	if (cli_out_commit(&o) != 74 || !strstr(said, "File too large; the file is as it was"))
		return 12;
	if (strcmp(get(single), "old\n") || dot_files(tmp))
		return 13;
	if (cli_out_open(&o, "--output", linked, 0644))
		return 14;
	if (cli_out_reserve(&o, sizeof(big)) != -1)
		return 15;
	if (cli_out_commit(&o) != 74 || !strstr(said, "the file is as it was"))
		return 16;
	return strcmp(get(linked), "old\n") || dot_files(tmp) ? 17 : 0;
}

static void size_limit(void **state)
{
	char single[300], linked[300], other[300];
	pid_t pid;
	int st = -1;

	(void)state;
	path_of(single, sizeof(single), "limit.json");
	path_of(linked, sizeof(linked), "limit-a.json");
	path_of(other, sizeof(other), "limit-b.json");
	put(single, "old\n");
	put(linked, "old\n");
	assert_int_equal(link(linked, other), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);
		_exit(fsize_child(single, linked));
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_string_equal(get(other), "old\n");
	unlink(single);
	unlink(linked);
	unlink(other);
}

/* A read-only file is not replaced by a user who may not write it (rename would). */
static int readonly_child(const char *p)
{
	if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
		return 10;
	if (geteuid() == 0)
		return 11;
	if (write_to(p, 0644, "new\n") != 74 || !strstr(said, "Permission denied"))
		return 12;
	return strcmp(get(p), "old\n") || dot_files(tmp) ? 13 : 0;
}

static void readonly_refused(void **state)
{
	char p[300];
	pid_t pid;
	int st = -1;

	(void)state;
	path_of(p, sizeof(p), "ro.txt");
	put(p, "old\n");
	assert_int_equal(chmod(p, 0444), 0);
	assert_int_equal(chmod(tmp, 0777), 0);
	if (geteuid() == 0)
		assert_int_equal(chown(p, 0, 0), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(readonly_child(p));
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(chmod(tmp, 0700), 0);
	unlink(p);
}

/*
 * /dev/stdout, when standard output is a file opened for appending (a
 * shell's >>): written through that descriptor, so the file is added to,
 * not replaced.
 */
static int stdout_child(const char *p)
{
	int fd = open(p, O_WRONLY | O_APPEND);

	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		return 10;
	close(fd);
	if (write_to("/dev/stdout", 0644, "report\n"))
		return 11;
	return strcmp(get(p), "log\nreport\n") ? 12 : 0;
}

static void stdout_appended(void **state)
{
	struct stat before, after;
	char p[300];
	pid_t pid;
	int st = -1;

	(void)state;
	path_of(p, sizeof(p), "log");
	put(p, "log\n");
	assert_int_equal(stat(p, &before), 0);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(stdout_child(p));
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(stat(p, &after), 0);
	assert_true(after.st_ino == before.st_ino);
	assert_int_equal(dot_files(tmp), 0);
	unlink(p);
}

/* An input is refused as the destination, under any of its names; another file is not. */
static void input_refused(void **state)
{
	char spec[300], alias[300], other[300];
	struct cli_input in[3] = { { "--dump", NULL, CLI_LISTS_NONE },
				   { "--plan", spec, CLI_LISTS_NONE }, { "", other, CLI_LISTS_NONE } };

	(void)state;
	path_of(spec, sizeof(spec), "spec.json");
	path_of(alias, sizeof(alias), "alias.json");
	path_of(other, sizeof(other), "other.json");
	put(spec, "{}\n");
	put(other, "{}\n");
	assert_int_equal(symlink("spec.json", alias), 0);
	assert_int_equal(cli_out_not_input("--output", spec, in, 3), 64);
	assert_non_null(strstr(said, "the file --plan reads"));
	assert_int_equal(cli_out_not_input("--output", alias, in, 3), 64);
	assert_int_equal(cli_out_not_input("--output", other, in, 3), 64);
	assert_non_null(strstr(said, "one of the files read"));
	in[2].path = NULL;
	assert_int_equal(cli_out_not_input("--output", other, in, 3), 0);
	assert_int_equal(cli_out_not_input("--output", "-", in, 3), 0);
	unlink(spec);
	unlink(alias);
	unlink(other);
}

/*
 * A file a listed directory would take in next time is refused too: a
 * .json file in fleet's directory of audits (not a hidden one, nor
 * another name), any file at any depth under audit's --dump DIR; the
 * directories are compared by real path, so ".." does not hide it.
 */
static void listed_dir_refused(void **state)
{
	char dir[300], sub[300], out[400];
	struct cli_input in[1] = { { "", dir, CLI_LISTS_JSON } };

	(void)state;
	path_of(dir, sizeof(dir), "audits");
	path_of(sub, sizeof(sub), "audits/host");
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(out, sizeof(out), "%s/fleet.json", dir);
	assert_int_equal(cli_out_not_input("--output", out, in, 1), 64);
	assert_non_null(strstr(said, "which it reads"));
	snprintf(out, sizeof(out), "%s/host/../fleet.json", dir);
	assert_int_equal(cli_out_not_input("--output", out, in, 1), 64);
	snprintf(out, sizeof(out), "%s/fleet.txt", dir);
	assert_int_equal(cli_out_not_input("--output", out, in, 1), 0);
	snprintf(out, sizeof(out), "%s/.fleet.json", dir);
	assert_int_equal(cli_out_not_input("--output", out, in, 1), 0);
	snprintf(out, sizeof(out), "%s/fleet.json", sub);
	assert_int_equal(cli_out_not_input("--output", out, in, 1), 0);
	in[0].lists = CLI_LISTS_ALL;
	assert_int_equal(cli_out_not_input("--output", out, in, 1), 64);
	snprintf(out, sizeof(out), "%s/report.txt", tmp);
	assert_int_equal(cli_out_not_input("--output", out, in, 1), 0);
	in[0].lists = CLI_LISTS_NONE;
	snprintf(out, sizeof(out), "%s/fleet.json", dir);
	assert_int_equal(cli_out_not_input("--output", out, in, 1), 0);
	rmdir(sub);
	rmdir(dir);
}

/*
 * cli_output_open() / close(): the report goes to the file and c->out is
 * emptied; no file is made before the report is ready (a run killed while
 * it works leaves nothing); a command that failed (exit 65) leaves the old
 * file and no temporary one; "-" leaves c->out for standard output.
 */
static void command_output(void **state)
{
	struct cli c;
	struct cli_out o;
	char p[300];

	(void)state;
	memset(&c, 0, sizeof(c));
	nicfit_buf_init(&c.out, 0);
	path_of(p, sizeof(p), "report.txt");
	put(p, "old\n");
	assert_int_equal(cli_output_open(&c, &o, p, NULL, 0), 0);
	assert_int_equal(dot_files(tmp), 0);
	nicfit_buf_puts(&c.out, "half a report");
	assert_int_equal(cli_output_close(&c, &o, 65), 65);
	assert_string_equal(get(p), "old\n");
	assert_int_equal(dot_files(tmp), 0);

	nicfit_buf_reset(&c.out);
	assert_int_equal(cli_output_open(&c, &o, p, NULL, 0), 0);
	nicfit_buf_puts(&c.out, "report\n");
	assert_int_equal(cli_output_close(&c, &o, 2), 2);
	assert_string_equal(get(p), "report\n");
	assert_int_equal(c.out.len, 0);

	assert_int_equal(cli_output_open(&c, &o, "-", NULL, 0), 0);
	nicfit_buf_puts(&c.out, "to stdout\n");
	assert_int_equal(cli_output_close(&c, &o, 0), 0);
	assert_int_equal(c.out.len, strlen("to stdout\n"));
	nicfit_buf_release(&c.out);
	unlink(p);
}

/*
 * What a signal handler calls: the temporary file being written is
 * removed. Where the filesystem has O_TMPFILE the file being written has
 * no name at all, so there is nothing to remove (and nothing a kill leaves).
 */
static void signal_removes_temporary(void **state)
{
	struct cli_out o;
	char p[300];

	(void)state;
	path_of(p, sizeof(p), "sig.prom");
	assert_int_equal(cli_out_open(&o, "--output", p, 0644), 0);
	assert_int_equal(dot_files(tmp), 0);
	cli_out_write(&o, "a 1\n", 4);
	assert_true(dot_files(tmp) == (o.anon ? 0 : 1));
	cli_out_remove_pending();
	assert_int_equal(dot_files(tmp), 0);
	cli_out_abort(&o);
	assert_int_equal(access(p, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(new_file),
		cmocka_unit_test(replace_keeps_mode),
		cmocka_unit_test(replace_keeps_owner),
		cmocka_unit_test(hard_links_in_place),
		cmocka_unit_test(symlink_followed),
		cmocka_unit_test(refused),
		cmocka_unit_test(dev_full),
		cmocka_unit_test(size_limit),
		cmocka_unit_test(readonly_refused),
		cmocka_unit_test(stdout_appended),
		cmocka_unit_test(input_refused),
		cmocka_unit_test(listed_dir_refused),
		cmocka_unit_test(command_output),
		cmocka_unit_test(signal_removes_temporary),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
