/*
 * sysfs_problem.c - the problems met while reading a sysfs root (see
 * nicfit/sysfs.h): their names and sentences, and the list every reader
 * reports into (the first NICFIT_SYSFS_MAX_PROBLEMS kept, all counted).
 * It reads nothing itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/sysfs_int.h"

const char *nicfit_sysfs_status_name(enum nicfit_sysfs_status st)
{
	switch (st) {
	case NICFIT_SYSFS_OK: return "ok";
	case NICFIT_SYSFS_MISSING: return "missing";
	case NICFIT_SYSFS_UNREADABLE: return "unreadable";
	case NICFIT_SYSFS_LOOP: return "symlink loop";
	case NICFIT_SYSFS_NOT_FILE: return "not a regular file";
	case NICFIT_SYSFS_MALFORMED: return "malformed";
	case NICFIT_SYSFS_TOO_BIG: return "too large";
	}
	return "?";
}

const char *nicfit_sysfs_problem_text(enum nicfit_sysfs_status st, int errnum)
{
	switch (st) {
	case NICFIT_SYSFS_UNREADABLE:
		switch (errnum) {
		case EACCES:
		case EPERM: return "permission denied";
		case EINVAL: return "the kernel refused the read (EINVAL)";
		case EIO: return "I/O error";
		case ENODEV:
		case ENXIO: return "device gone or not ready";
		case ETIMEDOUT: return "read timed out";
		default: return "cannot be read";
		}
	case NICFIT_SYSFS_LOOP: return "symbolic link loop";
	case NICFIT_SYSFS_NOT_FILE:
		return errnum == EINVAL ? "not a symbolic link" : "not a regular file";
	case NICFIT_SYSFS_MALFORMED: return "unexpected content (binary data or bad format)";
	case NICFIT_SYSFS_TOO_BIG: return "larger than expected";
	default: return nicfit_sysfs_status_name(st);
	}
}

/* ---- problems ------------------------------------------------------------- */

void nicfit__sysfs_problem(struct nicfit_sysfs *fs, const char *path,
			   enum nicfit_sysfs_status st, int errnum, unsigned flags)
{
	if (st == NICFIT_SYSFS_OK || st == NICFIT_SYSFS_MISSING || (flags & NICFIT_SYSFS_QUIET))
		return;
	if (fs->nproblems < NICFIT_SYSFS_MAX_PROBLEMS) {
		struct sysfs_problem *p = &fs->problems[fs->nproblems];

		p->path = strdup(path);
		p->st = st;
		p->errnum = errnum;
	}
	fs->nproblems++;
}

void nicfit_sysfs_report(struct nicfit_sysfs *fs, const char *path,
			 enum nicfit_sysfs_status st, int errnum, unsigned flags)
{
	while (*path == '/')
		path++;
	nicfit__sysfs_problem(fs, path, st, errnum, flags);
}

size_t nicfit_sysfs_problem_count(const struct nicfit_sysfs *fs)
{
	return fs->nproblems;
}

void nicfit_sysfs_problem(const struct nicfit_sysfs *fs, size_t i, const char **path,
			  enum nicfit_sysfs_status *st, int *errnum)
{
	const struct sysfs_problem *p = &fs->problems[i];

	*path = p->path ? p->path : "?";
	*st = p->st;
	*errnum = p->errnum;
}
