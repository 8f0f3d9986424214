/*
 * output.c - the files commands write besides standard output (output.h):
 * `--output FILE` and `cluster --port-map FILE`, one way for both: a
 * regular file replaced by a temporary one renamed over it, a device or
 * FIFO written to as it is, a link followed to what it names; and the one
 * loop that writes a whole buffer to a descriptor, which main() uses for
 * stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"

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
		return out_error(o, NICFIT_E_IO, "a socket (nicfit writes files, devices and FIFOs)");
	o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (o->fd < 0) {
		if (errno == ENXIO && S_ISFIFO(type))
			return out_error(o, NICFIT_E_IO, "a FIFO that no process reads (start its "
					 "reader first)");
		return out_error(o, NICFIT_E_IO, strerror(errno));
	}
	if (fstat(o->fd, &sb) || S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode)) {
		close(o->fd);
		return 1;
	}
	flags = fcntl(o->fd, F_GETFL);
	if (flags < 0 || fcntl(o->fd, F_SETFL, flags & ~O_NONBLOCK)) {
		close(o->fd);
		return out_error(o, NICFIT_E_IO, strerror(errno));
	}
	o->tmp[0] = '\0';
	return 0;
}

/* The temporary file beside o->target, with mode. Returns 0 or an exit code. */
static int open_beside(struct cli_out *o, mode_t mode)
{
	const char *slash = strrchr(o->target, '/');
	size_t dirlen = slash ? (size_t)(slash - o->target) + 1 : 0;

	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.XXXXXX", (int)dirlen, o->target,
			     o->target + dirlen) >= sizeof(o->tmp))
		return out_error(o, NICFIT_E_USAGE, "path too long");
	o->fd = mkstemp(o->tmp);
	if (o->fd < 0) {
		char why[300];

		snprintf(why, sizeof(why), "cannot create a file beside it: %s", strerror(errno));
		return out_error(o, NICFIT_E_IO, why);
	}
	if (fchmod(o->fd, mode)) {
		int e = errno;

		cli_out_abort(o);
		return out_error(o, NICFIT_E_INTERNAL, strerror(e));
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
			return out_error(o, NICFIT_E_IO, strerror(errno));
	} else if (S_ISLNK(sb.st_mode)) {
		if (!exists)
			return out_error(o, NICFIT_E_IO, "a symbolic link to nothing (nicfit "
					 "creates no file through a link)");
		real = realpath(o->path, NULL);
		if (!real)
			return out_error(o, NICFIT_E_IO, strerror(errno));
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
	int rc, tries, exists = 0;
	struct stat sb;

	memset(o, 0, sizeof(*o));
	o->opt = opt;
	o->path = path;
	o->fd = -1;
	if (!*path || (slash && !slash[1]))
		return cli_error(NICFIT_E_USAGE, "%s '%.200s': not a file name", opt, path);
	/* twice at most: a device that became a regular file under us is replaced as one */
	for (tries = 0; tries < 2; tries++) {
		if (stat(path, &sb)) {
			if (errno != ENOENT)
				return out_error(o, NICFIT_E_IO, strerror(errno));
			break;
		}
		if (S_ISDIR(sb.st_mode))
			return out_error(o, NICFIT_E_IO, "a directory (give a file name)");
		if (S_ISREG(sb.st_mode)) {
			exists = 1;
			break;
		}
		rc = open_in_place(o, sb.st_mode);
		if (rc != 1)
			return rc;
	}
	if (tries == 2)
		return out_error(o, NICFIT_E_IO, "changed while it was being opened");
	rc = resolve_target(o, exists);
	return rc ? rc : open_beside(o, mode);
}

int cli_out_write(struct cli_out *o, const char *p, size_t n)
{
	if (!o->err && cli_write_all(o->fd, p, n))
		o->err = errno ? errno : EIO;
	return o->err ? -1 : 0;
}

int cli_out_commit(struct cli_out *o)
{
	int e = o->err;

	if (!e && o->tmp[0] && fsync(o->fd))
		e = errno;
	if (e) {
		cli_out_abort(o);
		return out_error(o, NICFIT_E_INTERNAL, strerror(e));
	}
	if (close(o->fd)) {
		e = errno;
		o->fd = -1;
		cli_out_abort(o);
		return out_error(o, o->tmp[0] ? NICFIT_E_IO : NICFIT_E_INTERNAL, strerror(e));
	}
	o->fd = -1;
	if (o->tmp[0] && rename(o->tmp, o->target)) {
		e = errno;
		cli_out_abort(o);
		return out_error(o, NICFIT_E_IO, strerror(e));
	}
	return 0;
}

void cli_out_abort(struct cli_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}

int cli_output(struct cli *c, const char *path)
{
	struct cli_out o;
	int rc;

	if (!strcmp(path, "-"))
		return 0;
	rc = cli_out_open(&o, "--output", path, 0644);
	if (!rc) {
		cli_out_write(&o, c->out.data, c->out.len);
		rc = cli_out_commit(&o);
	}
	nicfit_buf_reset(&c->out);
	return rc;
}
