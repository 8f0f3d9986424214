/*
 * output.c - the files commands write besides standard output (output.h):
 * `--output FILE` and `cluster --port-map FILE`, one way for both: a
 * regular file replaced by a temporary one renamed over it (or written
 * in place when it has other names), a device, FIFO or standard stream
 * written to as it is, a link followed to what it names; and the one
 * loop that writes a whole buffer to a descriptor, which main() uses for
 * stdout.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"

/* O_TMPFILE is behind _GNU_SOURCE in glibc's headers; the kernel flag is stable (Linux 3.11). */
#if !defined(O_TMPFILE) && defined(__O_TMPFILE)
#define O_TMPFILE __O_TMPFILE
#endif

/* The temporary file a signal must remove: set while one exists. */
static char pending_tmp[4096];
static volatile sig_atomic_t pending;

int cli_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int out_error(const struct cli_out *o, int code, const char *why)
{
	return cli_error(code, "%s %.200s: %s", o->opt, o->path, why);
}

static int out_errno(const struct cli_out *o, int code, const char *what, int e)
{
	char why[300];

	snprintf(why, sizeof(why), "%s: %s", what, strerror(e));
	return out_error(o, code, why);
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * 1 when the file at path (existing or not) is one that listing directory
 * dir as `lists` says would read: dir and path's directory are compared
 * by their real paths, so links and ".." do not hide it.
 */
static int listed_in(const char *path, const char *dir, enum cli_lists lists)
{
	char parent[PATH_MAX], real_dir[PATH_MAX], real_parent[PATH_MAX];
	const char *base = strrchr(path, '/');
	size_t n, len;

	if (lists == CLI_LISTS_NONE || !realpath(dir, real_dir))
		return 0;
	if (!base) {
		base = path;
		snprintf(parent, sizeof(parent), ".");
	} else {
		n = (size_t)(base - path);
		if (n >= sizeof(parent))
			return 0;
		memcpy(parent, path, n);
		parent[n ? n : 1] = '\0';
		if (!n)
			parent[0] = '/';
		base++;
	}
	if (!realpath(parent, real_parent))
		return 0;
	if (lists == CLI_LISTS_JSON) {
		len = strlen(base);
		return !strcmp(real_parent, real_dir) && base[0] != '.' && len > 5 &&
		       !strcmp(base + len - 5, ".json");
	}
	n = strlen(real_dir);
	return !strncmp(real_parent, real_dir, n) &&
	       (real_parent[n] == '\0' || real_parent[n] == '/' || !strcmp(real_dir, "/"));
}

int cli_out_not_input(const char *opt, const char *path, const struct cli_input *in, size_t n)
{
	struct stat out, st;
	size_t i;

	if (!path || !strcmp(path, "-"))
		return 0;
	for (i = 0; i < n; i++) {
		if (!in[i].path || !strcmp(in[i].path, "-") || stat(in[i].path, &st) ||
		    !S_ISDIR(st.st_mode) || !listed_in(path, in[i].path, in[i].lists))
			continue;
		return cli_error(NICFIT_E_USAGE, "%s %.200s: in %s%s%.200s, which it reads: the "
				 "next run would take the report for an input (give a name "
				 "outside it)", opt, path, in[i].opt && *in[i].opt ? in[i].opt : "",
				 in[i].opt && *in[i].opt ? " " : "", in[i].path);
	}
	if (stat(path, &out) || !S_ISREG(out.st_mode))
		return 0;
	for (i = 0; i < n; i++) {
		if (!in[i].path || !strcmp(in[i].path, "-") || stat(in[i].path, &st) ||
		    !same_file(&st, &out))
			continue;
		if (in[i].opt && *in[i].opt)
			return cli_error(NICFIT_E_USAGE, "%s %.200s: the file %s reads (give "
					 "another name)", opt, path, in[i].opt);
		return cli_error(NICFIT_E_USAGE, "%s %.200s: one of the files read (give "
				 "another name)", opt, path);
	}
	return 0;
}

/*
 * This process's standard output or error when path names it (stdout
 * redirected to path, /dev/stdout, /dev/fd/2): its descriptor, or -1.
 */
static int standard_stream(const struct stat *sb)
{
	static const int fds[] = { STDOUT_FILENO, STDERR_FILENO };
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (!fstat(fds[i], &st) && same_file(&st, sb))
			return fds[i];
	return -1;
}

/* Write through a duplicate of standard output or error, where it is. */
static int open_stream(struct cli_out *o, int fd)
{
	o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (o->fd < 0)
		return out_error(o, NICFIT_E_OUTPUT, strerror(errno));
	o->tmp[0] = '\0';
	return 0;
}

/*
 * A device or a FIFO, written to where it is. O_NONBLOCK makes the open
 * of a FIFO that nobody reads fail (ENXIO) instead of waiting for a
 * reader; it is cleared once open, so that the writes wait for a slow
 * reader as they would on a pipe. Returns 0, 1 when the name turned into
 * a regular file since it was looked at (the caller replaces it), or an
 * exit code.
 */
static int open_in_place(struct cli_out *o, mode_t type)
{
	struct stat sb;
	int flags;

	if (S_ISSOCK(type))
		return out_error(o, NICFIT_E_OUTPUT, "a socket (nicfit writes files, devices and FIFOs)");
	o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (o->fd < 0) {
		if (errno == ENXIO && S_ISFIFO(type))
			return out_error(o, NICFIT_E_OUTPUT, "a FIFO that no process reads (start its "
					 "reader first)");
		return out_error(o, NICFIT_E_OUTPUT, strerror(errno));
	}
	if (fstat(o->fd, &sb) || S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode)) {
		close(o->fd);
		o->fd = -1;
		return 1;
	}
	flags = fcntl(o->fd, F_GETFL);
	if (flags < 0 || fcntl(o->fd, F_SETFL, flags & ~O_NONBLOCK)) {
		close(o->fd);
		o->fd = -1;
		return out_error(o, NICFIT_E_OUTPUT, strerror(errno));
	}
	o->tmp[0] = '\0';
	return 0;
}

/*
 * A regular file with other names (hard links), overwritten where it is
 * so that they all see the new content; cut to length at commit. Not
 * truncated on open: a write that fails at once leaves it as it was.
 */
static int open_file_in_place(struct cli_out *o, const struct stat *sb)
{
	struct stat st;

	o->fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0)
		return out_error(o, NICFIT_E_OUTPUT, strerror(errno));
	if (fstat(o->fd, &st) || !S_ISREG(st.st_mode) || !same_file(&st, sb)) {
		close(o->fd);
		o->fd = -1;
		return out_error(o, NICFIT_E_OUTPUT, "changed while it was being opened");
	}
	o->tmp[0] = '\0';
	o->in_place = 1;
	return 0;
}

/* The directory part of o->target, with its trailing '/' ("" for the current one). */
static size_t dir_len(const struct cli_out *o)
{
	const char *slash = strrchr(o->target, '/');

	return slash ? (size_t)(slash - o->target) + 1 : 0;
}

static int cannot_create(struct cli_out *o, int e)
{
	size_t dirlen = dir_len(o);
	char what[300];

	snprintf(what, sizeof(what), "cannot create a file in %.*s", dirlen ?
		 (int)(dirlen > 1 ? dirlen - 1 : dirlen) : 1, dirlen ? o->target : ".");
	return out_errno(o, NICFIT_E_OUTPUT, what, e);
}

/*
 * The prefix of this target's temporary names, ".NAME.nicfit-", into buf
 * (with the directory when full). Returns 0, or -1 when it does not fit.
 */
static int tmp_prefix(const struct cli_out *o, int full, char *buf, size_t n)
{
	size_t dirlen = dir_len(o);

	return (size_t)snprintf(buf, n, "%.*s.%s.nicfit-", full ? (int)dirlen : 0, o->target,
				o->target + dirlen) >= n ? -1 : 0;
}

/*
 * Remove the temporary names of this target that a killed run left: those
 * whose process is gone (kill(2) says ESRCH). Another run writing the same
 * file keeps its own. Bounded: a directory of a million names is listed
 * no further than 100,000 entries.
 */
static void remove_stale(const struct cli_out *o)
{
	size_t dirlen = dir_len(o), plen, seen = 0;
	char dir[4096], prefix[512], path[4096 + 512];
	struct dirent *de;
	DIR *d;

	if (tmp_prefix(o, 0, prefix, sizeof(prefix)))
		return;
	plen = strlen(prefix);
	snprintf(dir, sizeof(dir), "%.*s", dirlen ? (int)dirlen : 1, dirlen ? o->target : ".");
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL && ++seen <= 100000) {
		char *end;
		long pid;

		if (strncmp(de->d_name, prefix, plen))
			continue;
		pid = strtol(de->d_name + plen, &end, 10);
		if (end == de->d_name + plen || *end != '.' || pid <= 0 || pid > INT_MAX ||
		    pid == (long)getpid() || !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) < sizeof(path))
			unlink(path);
	}
	closedir(d);
}

/*
 * A new file beside o->target, to be made once the document is ready
 * (open_beside_now): mode for a new file, the old file's permission bits
 * (and owner and group, where this process may set them: root may,
 * another user may set a group of theirs) when old is given. Whether the
 * directory takes a new file is checked now, so that a destination that
 * cannot be written is refused before the work. Returns 0 or an exit code.
 */
static int open_beside(struct cli_out *o, mode_t mode, const struct stat *old)
{
	size_t dirlen = dir_len(o);
	char dir[4096], prefix[512];

	if (tmp_prefix(o, 1, prefix, sizeof(prefix)) ||
	    strlen(prefix) + 24 >= sizeof(o->tmp))
		return out_error(o, NICFIT_E_USAGE, "path too long");
	snprintf(dir, sizeof(dir), "%.*s", dirlen ? (int)dirlen : 1, dirlen ? o->target : ".");
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS))
		return cannot_create(o, errno);
	o->deferred = 1;
	o->mode = mode;
	o->has_old = old != NULL;
	if (old)
		o->old = *old;
	return 0;
}

/* Give the new file at o->fd its owner, group and mode. 0 or an errno. */
static int set_owner_mode(struct cli_out *o)
{
	const struct stat *old = o->has_old ? &o->old : NULL;
	mode_t mode = o->mode;

	if (old) {
		if ((old->st_uid != geteuid() || old->st_gid != getegid()) &&
		    fchown(o->fd, old->st_uid, old->st_gid) && old->st_gid != getegid() &&
		    fchown(o->fd, (uid_t)-1, old->st_gid)) {
			/* not ours to give: the new file is this user's, as a new file is */
		}
		mode = old->st_mode & 0777;
	}
	return fchmod(o->fd, mode) ? errno : 0;
}

/*
 * Make the file open_beside() prepared: without a name (O_TMPFILE) where
 * the filesystem and /proc allow linking it in later, else under a
 * temporary name that a signal removes. Returns 0 or an exit code.
 */
static int open_beside_now(struct cli_out *o)
{
	size_t dirlen = dir_len(o);
	char dir[4096];
	int e;

	o->deferred = 0;
	remove_stale(o);
	snprintf(dir, sizeof(dir), "%.*s", dirlen ? (int)dirlen : 1, dirlen ? o->target : ".");
	o->fd = -1;
#ifdef O_TMPFILE
	if (!access("/proc/self/fd", X_OK))
		o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#endif
	if (o->fd >= 0) {
		o->anon = 1;
		o->tmp[0] = '\0';
	} else {
		if (tmp_prefix(o, 1, o->tmp, sizeof(o->tmp)) ||
		    (size_t)snprintf(o->tmp + strlen(o->tmp), sizeof(o->tmp) - strlen(o->tmp),
				     "%ld.XXXXXX", (long)getpid()) >= sizeof(o->tmp) - strlen(o->tmp)) {
			o->tmp[0] = '\0';
			return out_error(o, NICFIT_E_USAGE, "path too long");
		}
		o->fd = mkstemp(o->tmp);
		if (o->fd < 0) {
			e = errno;
			o->tmp[0] = '\0';
			return cannot_create(o, e);
		}
		memcpy(pending_tmp, o->tmp, sizeof(pending_tmp));
		pending = 1;
		if (fcntl(o->fd, F_SETFD, FD_CLOEXEC)) {
			e = errno;
			cli_out_abort(o);
			return out_error(o, NICFIT_E_INTERNAL, strerror(e));
		}
	}
	e = set_owner_mode(o);
	if (e) {
		cli_out_abort(o);
		return out_error(o, NICFIT_E_INTERNAL, strerror(e));
	}
	return 0;
}

/* The made file, before its first byte. 0, or -1 with o->err set (its message printed). */
static int ensure_open(struct cli_out *o)
{
	if (!o->deferred)
		return 0;
	if (open_beside_now(o)) {
		o->err = -1;
		return -1;
	}
	return 0;
}

/*
 * Name the O_TMPFILE file: under the target's own name when there is
 * none yet (linkat never replaces), else under a temporary name renamed
 * over it. Returns 0 or an errno.
 */
static int link_anon(struct cli_out *o)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	if (!o->existed && !linkat(AT_FDCWD, proc, AT_FDCWD, o->target, AT_SYMLINK_FOLLOW))
		return 0;
	if (!o->existed && errno != EEXIST)
		return errno;
	if (tmp_prefix(o, 1, o->tmp, sizeof(o->tmp)))
		return ENAMETOOLONG;
	snprintf(o->tmp + strlen(o->tmp), sizeof(o->tmp) - strlen(o->tmp), "%ld.%lx",
		 (long)getpid(), (unsigned long)o->fd);
	memcpy(pending_tmp, o->tmp, sizeof(pending_tmp));
	pending = 1;
	if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW)) {
		int e = errno;

		pending = 0;
		o->tmp[0] = '\0';
		return e;
	}
	return 0;
}

/*
 * Where the temporary file goes: beside the file a link names (followed
 * to the end, so that the link stays and the file is replaced), or
 * beside path itself. Returns 0 or an exit code.
 */
static int resolve_target(struct cli_out *o, int exists)
{
	struct stat sb;
	char *real;

	if (lstat(o->path, &sb)) {
		if (exists || errno != ENOENT)
			return out_error(o, NICFIT_E_OUTPUT, strerror(errno));
	} else if (S_ISLNK(sb.st_mode)) {
		if (!exists)
			return out_error(o, NICFIT_E_OUTPUT, "a symbolic link to nothing (nicfit "
					 "creates no file through a link)");
		real = realpath(o->path, NULL);
		if (!real)
			return out_error(o, NICFIT_E_OUTPUT, strerror(errno));
		if ((size_t)snprintf(o->target, sizeof(o->target), "%s", real) >=
		    sizeof(o->target)) {
			free(real);
			return out_error(o, NICFIT_E_USAGE, "path too long");
		}
		free(real);
		return 0;
	}
	if ((size_t)snprintf(o->target, sizeof(o->target), "%s", o->path) >= sizeof(o->target))
		return out_error(o, NICFIT_E_USAGE, "path too long");
	return 0;
}

int cli_out_open(struct cli_out *o, const char *opt, const char *path, mode_t mode)
{
	const char *slash = strrchr(path, '/');
	int rc, fd, tries, exists = 0;
	struct stat sb;

	memset(o, 0, sizeof(*o));
	o->opt = opt;
	o->path = path;
	o->fd = -1;
	if (!*path || (slash && !slash[1]))
		return cli_error(NICFIT_E_USAGE, "%s '%.200s': not a file name", opt, path);
	/* a write past ulimit -f fails with EFBIG, so the temporary file is removed */
	signal(SIGXFSZ, SIG_IGN);
	/* twice at most: a device that became a regular file under us is replaced as one */
	for (tries = 0; tries < 2; tries++) {
		if (stat(path, &sb)) {
			if (errno != ENOENT)
				return out_error(o, NICFIT_E_OUTPUT, strerror(errno));
			break;
		}
		if (S_ISDIR(sb.st_mode))
			return out_error(o, NICFIT_E_OUTPUT, "a directory (give a file name)");
		fd = standard_stream(&sb);
		if (fd >= 0)
			return open_stream(o, fd);
		if (S_ISREG(sb.st_mode)) {
			exists = 1;
			break;
		}
		rc = open_in_place(o, sb.st_mode);
		if (rc != 1)
			return rc;
	}
	if (tries == 2)
		return out_error(o, NICFIT_E_OUTPUT, "changed while it was being opened");
	rc = resolve_target(o, exists);
	if (rc)
		return rc;
	if (!exists)
		return open_beside(o, mode, NULL);
	o->existed = 1;
	/* a rename would replace a file its owner made read-only; a shell's > would not */
	if (faccessat(AT_FDCWD, o->target, W_OK, AT_EACCESS))
		return out_error(o, NICFIT_E_OUTPUT, strerror(errno));
	return sb.st_nlink > 1 ? open_file_in_place(o, &sb) : open_beside(o, mode, &sb);
}

int cli_out_reserve(struct cli_out *o, size_t n)
{
	struct stat sb;
	int e;

	if (ensure_open(o))
		return -1;
	if (o->err || !n || (!o->tmp[0] && !o->in_place && !o->anon) || fstat(o->fd, &sb) ||
	    !S_ISREG(sb.st_mode) || n > (size_t)LONG_MAX - o->written)
		return o->err ? -1 : 0;
	e = posix_fallocate(o->fd, (off_t)o->written, (off_t)n);
	/* EINVAL, EOPNOTSUPP: a filesystem that reserves nothing; the writes will tell */
	if (e == ENOSPC || e == EFBIG || e == EDQUOT || e == EIO) {
		o->err = e;
		return -1;
	}
	return 0;
}

int cli_out_write(struct cli_out *o, const char *p, size_t n)
{
	if (!o->err && !ensure_open(o)) {
		if (cli_write_all(o->fd, p, n))
			o->err = errno ? errno : EIO;
		else
			o->written += n;
	}
	return o->err ? -1 : 0;
}

/* The directory a renamed file is in, flushed so that the rename is on the disk too. */
static void sync_dir(const char *target)
{
	const char *slash = strrchr(target, '/');
	char dir[4096];
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == target)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - target), target);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		/* the file is in place whatever this says; some filesystems cannot sync a dir */
		if (fsync(fd)) {
		}
		close(fd);
	}
}

/* A failed write's message: what happened to the destination. */
static int write_failed(struct cli_out *o, const char *what, int e)
{
	int made = o->tmp[0] || o->anon;
	const char *left = o->in_place && o->written ? "; the file is left partly written" :
			   o->in_place || (made && o->existed) ? "; the file is as it was" :
			   made ? "; no file was made" : "";
	char why[300];

	cli_out_abort(o);
	snprintf(why, sizeof(why), "%s: %s%s", what, strerror(e), left);
	return out_error(o, NICFIT_E_OUTPUT, why);
}

int cli_out_commit(struct cli_out *o)
{
	int e = o->err;

	if (e < 0) { /* the file could not be made: said already */
		cli_out_abort(o);
		return nicfit_exit_code(NICFIT_E_OUTPUT);
	}
	if (!e && ensure_open(o)) {
		cli_out_abort(o);
		return nicfit_exit_code(NICFIT_E_OUTPUT);
	}
	if (e)
		return write_failed(o, "cannot write", e);
	if (o->in_place && ftruncate(o->fd, (off_t)o->written))
		return write_failed(o, "cannot cut it to length", errno);
	if ((o->tmp[0] || o->in_place || o->anon) && fsync(o->fd))
		return write_failed(o, "cannot flush it to disk", errno);
	if (o->anon && (e = link_anon(o)) != 0)
		return write_failed(o, "cannot name it", e);
	if (close(o->fd)) {
		e = errno;
		o->fd = -1;
		return write_failed(o, "cannot write", e);
	}
	o->fd = -1;
	if (o->tmp[0]) {
		if (rename(o->tmp, o->target)) {
			e = errno;
			cli_out_abort(o);
			return out_error(o, NICFIT_E_OUTPUT, strerror(e));
		}
		pending = 0;
		o->tmp[0] = '\0';
	}
	if (o->tmp[0] || o->anon || !o->in_place)
		sync_dir(o->target);
	return 0;
}

void cli_out_abort(struct cli_out *o)
{
	if (o->fd >= 0)
		close(o->fd); /* an O_TMPFILE file goes with its last descriptor */
	o->fd = -1;
	o->deferred = 0;
	if (o->tmp[0]) {
		unlink(o->tmp);
		pending = 0;
	}
	o->tmp[0] = '\0';
}

void cli_out_remove_pending(void)
{
	if (pending)
		unlink(pending_tmp);
	pending = 0;
}

int cli_output_open(struct cli *c, struct cli_out *o, const char *path,
		    const struct cli_input *in, size_t nin)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (!path || !strcmp(path, "-"))
		return 0;
	rc = cli_out_not_input("--output", path, in, nin);
	if (!rc)
		rc = cli_out_open(o, "--output", path, 0644);
	if (rc)
		return rc;
	/* laid out for where it goes: a file gets no colour and no terminal width */
	if (c->color_auto) {
		c->emit_flags &= ~NICFIT_EMIT_COLOR;
		if (cli_color_for(o->fd))
			c->emit_flags |= NICFIT_EMIT_COLOR;
	}
	if (c->fmt == NICFIT_FMT_TEXT)
		c->view.width = cli_term_width(o->fd);
	return 0;
}

int cli_output_close(struct cli *c, struct cli_out *o, int rc)
{
	int code;

	if (o->fd < 0 && !o->deferred)
		return rc;
	if (rc < 0 || rc > 2) {
		cli_out_abort(o);
		return rc;
	}
	if (c->out.len && c->view.width && cli_wrap(&c->out, c->view.width)) {
		cli_out_abort(o);
		nicfit_buf_reset(&c->out);
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	}
	if (!cli_out_reserve(o, c->out.len))
		cli_out_write(o, c->out.data, c->out.len);
	nicfit_buf_reset(&c->out);
	code = cli_out_commit(o);
	return code ? code : rc;
}
