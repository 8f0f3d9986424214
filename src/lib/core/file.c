/*
 * file.c - the bounded whole-file reader (nicfit/file.h), the lexical
 * path join of the tree readers and the blank splitter of the text
 * readers (file_int.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file_int.h"
#include "nicfit/file.h"

int nicfit_read_fd(int fd, const char *name, size_t max, char **out, size_t *len,
		   struct nicfit_error *err)
{
	size_t n = 0, cap = 0;
	struct stat st;
	char *buf = NULL;

	*out = NULL;
	*len = 0;
	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return nicfit_error_at(err, NICFIT_E_IO, name, 0, 0, "is a directory");
		/* a regular file says its size: read it in one go when it fits */
		if (S_ISREG(st.st_mode) && st.st_size > 0 && (size_t)st.st_size <= max)
			cap = (size_t)st.st_size + 1;
	}
	if (!cap)
		cap = max < 65536 ? max + 2 : 65536;
	for (;;) {
		ssize_t r;

		if (buf && n + 1 >= cap) {
			size_t want;
			char one, *p;

			if (n > max)
				break;
			/* full: a file that fit exactly ends here, without a copy */
			r = read(fd, &one, 1);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				if (r < 0) {
					free(buf);
					return nicfit_error_at(err, NICFIT_E_IO, name, 0, 0, "%s",
							       strerror(errno));
				}
				break;
			}
			want = cap > max / 2 ? max + 2 : cap * 2;
			p = realloc(buf, want);
			if (!p) {
				free(buf);
				return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
			}
			buf = p;
			cap = want;
			buf[n++] = one;
			continue;
		} else if (!buf) {
			buf = malloc(cap);
			if (!buf)
				return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		}
		r = read(fd, buf + n, cap - 1 - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return nicfit_error_at(err, NICFIT_E_IO, name, 0, 0, "%s", strerror(errno));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		free(buf);
		return nicfit_error_at(err, NICFIT_E_LIMIT, name, 0, 0, "larger than %zu bytes",
				       max);
	}
	if (!buf) {
		buf = malloc(1);
		if (!buf)
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int nicfit_read_file(const char *path, size_t max, char **out, size_t *len,
		     struct nicfit_error *err)
{
	int fd, rc;

	*out = NULL;
	*len = 0;
	if (!strcmp(path, "-"))
		return nicfit_read_fd(STDIN_FILENO, "<stdin>", max, out, len, err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return nicfit_error_at(err, errno == ENOENT ? NICFIT_E_NOTFOUND : NICFIT_E_IO,
				       path, 0, 0, "%s", strerror(errno));
	rc = nicfit_read_fd(fd, path, max, out, len, err);
	close(fd);
	return rc;
}

int nicfit__path_join(char *out, size_t cap, const char *dir, const char *target)
{
	const char *parts[2];
	size_t len = 0;
	int k;

	if (!cap)
		return -1;
	out[0] = '\0';
	/* an absolute target starts from the root: the directory is dropped */
	parts[0] = target[0] == '/' ? "" : dir;
	parts[1] = target;
	for (k = 0; k < 2; k++) {
		const char *s = parts[k];

		while (*s) {
			const char *slash = strchr(s, '/');
			size_t n = slash ? (size_t)(slash - s) : strlen(s);

			if (n == 2 && s[0] == '.' && s[1] == '.') {
				while (len && out[len - 1] != '/')
					len--;
				if (len)
					len--;
				out[len] = '\0';
			} else if (n && !(n == 1 && s[0] == '.')) {
				if (len + (len != 0) + n + 1 > cap)
					return -1;
				if (len)
					out[len++] = '/';
				memcpy(out + len, s, n);
				len += n;
				out[len] = '\0';
			}
			s += n;
			if (*s == '/')
				s++;
		}
	}
	return 0;
}

int nicfit__split_blanks(char *line, char **tok, int max)
{
	int n = 0;
	char *p = line;

	while (*p && n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}
