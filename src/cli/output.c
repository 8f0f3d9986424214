/*
 * output.c - `--output FILE`: the document written to a temporary file
 * beside FILE and renamed over it (output.h), as node_exporter's textfile
 * collector asks of the programs that feed it; and the one loop that
 * writes a whole buffer to a descriptor, which main() uses for stdout.
 */
#include <errno.h>
#include <fcntl.h>
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

int cli_write_atomic(const char *path, const struct nicfit_buf *data)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	char tmp[4096];
	int fd, e;

	if (!*path || (slash && !slash[1]))
		return cli_error(NICFIT_E_USAGE, "--output '%.200s': not a file name", path);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%.*s.%s.XXXXXX", (int)dirlen, path,
			     path + dirlen) >= sizeof(tmp))
		return cli_error(NICFIT_E_USAGE, "--output: path too long");
	fd = mkstemp(tmp);
	if (fd < 0)
		return cli_error(NICFIT_E_NOTFOUND, "--output %.200s: cannot create a file beside it: %s",
				 path, strerror(errno));
	if (fchmod(fd, 0644) || cli_write_all(fd, data->data, data->len) || fsync(fd)) {
		e = errno;
		close(fd);
		unlink(tmp);
		return cli_error(NICFIT_E_INTERNAL, "--output %.200s: %s", path, strerror(e));
	}
	if (close(fd) || rename(tmp, path)) {
		e = errno;
		unlink(tmp);
		return cli_error(NICFIT_E_NOTFOUND, "--output %.200s: %s", path, strerror(e));
	}
	return 0;
}
