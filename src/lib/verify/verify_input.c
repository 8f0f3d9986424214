/*
 * verify_input.c - an input file as verify reads it: mapped read-only and
 * read in one pass whatever its size (the pass hands the pages it has
 * read back to the kernel), standard input or a pipe first copied to an
 * unnamed temporary file so that it is mapped too. It parses nothing
 * (verify.c does); it opens, checks the size against the caller's limit,
 * maps and hands the text over.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verify/verify_int.h"

/* What a pipe is read in. */
#define SPOOL_CHUNK ((size_t)1 << 16)

static int io_error(struct nicfit_error *err, const char *name, int e)
{
	return nicfit_error_at(err, e == ENOENT ? NICFIT_E_NOTFOUND : NICFIT_E_IO, name, 0, 0,
			       "%s", strerror(e));
}

static int too_large(struct nicfit_error *err, const char *name, size_t max)
{
	return nicfit_error_at(err, NICFIT_E_LIMIT, name, 0, 0,
			       "larger than %zu bytes (--max-size)", max);
}

/*
 * fd (a pipe, a terminal) copied to an unnamed temporary file, whose
 * descriptor is returned (-1, err set): written a chunk at a time, so that
 * memory stays flat, and no more than max bytes (0: no limit).
 */
static int spool(int fd, const char *name, size_t max, struct nicfit_error *err)
{
	FILE *f = tmpfile();
	char *buf = malloc(SPOOL_CHUNK);
	size_t total = 0;
	ssize_t n;
	int out = -1;

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		nicfit_error_set(err, f ? NICFIT_E_NOMEM : NICFIT_E_IO, "%s: %s", name,
				 f ? "out of memory" : "no temporary file to copy it to");
		return -1;
	}
	while ((n = read(fd, buf, SPOOL_CHUNK)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			io_error(err, name, errno);
			goto out;
		}
		total += (size_t)n;
		if (max && total > max) {
			too_large(err, name, max);
			goto out;
		}
		if (fwrite(buf, 1, (size_t)n, f) != (size_t)n) {
			io_error(err, name, errno);
			goto out;
		}
	}
	if (fflush(f)) {
		io_error(err, name, errno);
		goto out;
	}
	out = dup(fileno(f));
	if (out < 0)
		io_error(err, name, errno);
out:
	fclose(f);
	free(buf);
	return out;
}

int nicfit_verify_add_file(struct nicfit_verify *v, const char *path, size_t max,
			   struct nicfit_error *err)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct nicfit_verify_text *t;
	struct stat st;
	int fd, own = 0;

	if (!strcmp(path, "-")) {
		fd = STDIN_FILENO;
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return io_error(err, name, errno);
		own = 1;
	}
	if (fstat(fd, &st)) {
		int e = errno;

		if (own)
			close(fd);
		return io_error(err, name, e);
	}
	if (S_ISDIR(st.st_mode)) {
		if (own)
			close(fd);
		return nicfit_error_at(err, NICFIT_E_IO, name, 0, 0, "is a directory");
	}
	if (!S_ISREG(st.st_mode)) {
		int tmp = spool(fd, name, max, err);

		if (own)
			close(fd);
		if (tmp < 0)
			return err ? err->code : NICFIT_E_IO;
		fd = tmp;
		own = 1;
		if (fstat(fd, &st)) {
			close(fd);
			return io_error(err, name, errno);
		}
	}
	if (max && (size_t)st.st_size > max) {
		if (own)
			close(fd);
		return too_large(err, name, max);
	}
	if (!st.st_size) {
		if (own)
			close(fd);
		return nicfit_error_at(err, NICFIT_E_DATA, name, 0, 0, "empty input");
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		if (own)
			close(fd);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	t->map_len = (size_t)st.st_size;
	t->map = mmap(NULL, t->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (own)
		close(fd);
	if (t->map == MAP_FAILED) {
		int e = errno;

		free(t);
		return io_error(err, name, e);
	}
	t->text = t->map;
	t->len = t->map_len;
	return nicfit__verify_add_source(v, name, t, err);
}
