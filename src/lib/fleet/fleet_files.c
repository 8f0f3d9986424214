/*
 * fleet_files.c - feed a fleet from files: a file descriptor read to its
 * end, a file (whose name, without ".json", names the host of a document
 * that names none), or a directory of *.json files in name order. Only
 * the public begin/feed/end calls are used; what the text holds is
 * fleet_stream.c's business.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fleet/fleet_int.h"
#include "nicfit/file.h"

#define READ_CHUNK ((size_t)1 << 20)

/* Read fd to its end as one input named name (host: the host a per-host file names). */
static int feed_fd(struct nicfit_fleet *fl, int fd, const char *name, const char *host,
		   struct nicfit_error *err)
{
	char *buf = malloc(READ_CHUNK);
	ssize_t r;
	int rc;

	if (!buf)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	rc = nicfit_fleet_begin(fl, name, host, err);
	while (!rc) {
		r = read(fd, buf, READ_CHUNK);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = nicfit_error_at(err, NICFIT_E_IO, name, 0, 0, "cannot read: %s",
					     strerror(errno));
			break;
		}
		if (r == 0)
			break;
		rc = nicfit_fleet_feed(fl, buf, (size_t)r, err);
	}
	if (fl->in.open) {
		if (rc)
			fl->in.open = 0;
		else
			rc = nicfit_fleet_end(fl, err);
	}
	free(buf);
	return rc;
}

int nicfit_fleet_add_fd(struct nicfit_fleet *fl, int fd, const char *name,
			struct nicfit_error *err)
{
	return feed_fd(fl, fd, name, NULL, err);
}

static int add_file(struct nicfit_fleet *fl, const char *path, const char *display,
		    struct nicfit_error *err)
{
	const char *base = strrchr(path, '/');
	char host[256];
	size_t n;
	int fd, rc;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	snprintf(host, sizeof(host), "%.*s", (int)n, base);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return nicfit_error_at(err, errno == ENOENT ? NICFIT_E_NOTFOUND : NICFIT_E_IO,
				       display, 0, 0, "%s", strerror(errno));
	rc = feed_fd(fl, fd, display, host, err);
	close(fd);
	return rc;
}

int nicfit_fleet_add_unreadable(struct nicfit_fleet *fl, const char *host,
				const struct nicfit_error *why, struct nicfit_error *err)
{
	if (fl->in.open)
		return nicfit_error_set(err, NICFIT_E_USAGE, "fleet: an input is open");
	nicfit__fleet_problem(fl, NICFIT_FLEET_UNREADABLE, host, why->input, why->line, why->col,
			      "%s",
			      why->msg[0] ? why->msg : nicfit_strerror(why->code));
	if (fl->oom)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	return 0;
}

/*
 * One file of a directory of audits: a file that cannot be opened or read
 * (permissions, an I/O error) is that host's problem, in the report and
 * the exit status, and the rest of the directory is read.
 */
static int add_dir_file(struct nicfit_fleet *fl, const char *full, const char *name,
			struct nicfit_error *err)
{
	struct nicfit_error one;
	char host[256];
	size_t n = strlen(name);
	int rc;

	nicfit_error_clear(&one);
	rc = add_file(fl, full, full, &one);
	if (rc != NICFIT_E_IO && rc != NICFIT_E_NOTFOUND) {
		if (rc && err)
			*err = one;
		return rc;
	}
	snprintf(host, sizeof(host), "%.*s", (int)(n > 5 ? n - 5 : n), name);
	return nicfit_fleet_add_unreadable(fl, host, &one, err);
}

static int is_json_name(const char *n)
{
	size_t len = strlen(n);

	return len > 5 && !strcmp(n + len - 5, ".json");
}

int nicfit_fleet_add_path(struct nicfit_fleet *fl, const char *path, struct nicfit_error *err)
{
	char **names;
	struct stat st;
	size_t k, i;
	int rc;

	if (stat(path, &st))
		return nicfit_error_at(err, errno == ENOENT ? NICFIT_E_NOTFOUND : NICFIT_E_IO, path,
				       0, 0, "%s", strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return add_file(fl, path, path, err);
	rc = nicfit_dir_list(path, 1, (size_t)-1, &names, &k);
	if (rc == NICFIT_E_NOMEM)
		return nicfit_error_set(err, rc, "out of memory");
	if (rc)
		return nicfit_error_at(err, NICFIT_E_IO, path, 0, 0, "cannot list: %s",
				       strerror(errno));
	for (i = 0; i < k; i++) {
		char full[4096];

		if (!rc) {
			snprintf(full, sizeof(full), "%s%s%s", path,
				 path[strlen(path) - 1] == '/' ? "" : "/", names[i]);
			/* a directory of audits: FILE.json, one host each (notes and the like skipped) */
			if (is_json_name(names[i]) && !stat(full, &st) && S_ISREG(st.st_mode))
				rc = add_dir_file(fl, full, names[i], err);
		}
	}
	nicfit_dir_names_free(names, k);
	return rc;
}
