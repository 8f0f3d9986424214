/*
 * sysfs_record.c - the recorder behind `nicfit snapshot` (see "recording
 * what was read" in nicfit/sysfs.h).
 *
 * While recording is on, every reader hands what it read to
 * nicfit__sysfs_record(): the bytes of a file, the target of a link, a
 * directory listed, a path that failed. Each path is kept once, the first
 * time, in the order met (parents are met before their files), with a
 * hash index so that discovery's tens of thousands of reads stay linear.
 * The recorder does not read anything itself.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "host/sysfs_int.h"

/* The index starts with room for this many records; it doubles after. */
#define REC_HASH_MIN 1024

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603ull & SIZE_MAX;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (1099511628211ull & SIZE_MAX);
	return h;
}

static int rehash(struct nicfit_sysfs *fs, size_t cap)
{
	size_t *h = calloc(cap, sizeof(*h)), i;

	if (!h)
		return -1;
	for (i = 0; i < fs->nrecs; i++) {
		size_t k = hash_str(fs->recs[i].path) & (cap - 1);

		while (h[k])
			k = (k + 1) & (cap - 1);
		h[k] = i + 1;
	}
	free(fs->hash);
	fs->hash = h;
	fs->hashcap = cap;
	return 0;
}

/* The slot for path: *found set when it is already recorded. */
static size_t *rec_slot(struct nicfit_sysfs *fs, const char *path, int *found)
{
	size_t k = hash_str(path) & (fs->hashcap - 1);

	*found = 0;
	while (fs->hash[k]) {
		if (!strcmp(fs->recs[fs->hash[k] - 1].path, path)) {
			*found = 1;
			break;
		}
		k = (k + 1) & (fs->hashcap - 1);
	}
	return &fs->hash[k];
}

void nicfit__sysfs_record(struct nicfit_sysfs *fs, const char *path, enum nicfit_rec_type type,
			  const void *data, size_t len, enum nicfit_sysfs_status st, int errnum)
{
	struct nicfit_rec *r;
	size_t *slot;
	int found;

	if (!fs->recording)
		return;
	if ((fs->nrecs + 1) * 2 > fs->hashcap &&
	    rehash(fs, fs->hashcap ? fs->hashcap * 2 : REC_HASH_MIN))
		return;
	slot = rec_slot(fs, path, &found);
	if (found)
		return;
	if (NICFIT_ALLOC_GROW(fs->recs, fs->nrecs + 1, fs->allocrecs))
		return;
	r = &fs->recs[fs->nrecs];
	memset(r, 0, sizeof(*r));
	r->path = strdup(path);
	if (!r->path)
		return;
	r->type = type;
	r->st = st;
	r->errnum = errnum;
	if (data && (len || type == NICFIT_REC_LINK)) {
		r->data = malloc(len + 1);
		if (!r->data) {
			free(r->path);
			return;
		}
		memcpy(r->data, data, len);
		r->data[len] = '\0';
		r->len = len;
	}
	*slot = ++fs->nrecs;
}

void nicfit__sysfs_record_missing(struct nicfit_sysfs *fs, const char *path)
{
	while (*path == '/')
		path++;
	if (fs->recording == 2)
		nicfit__sysfs_record(fs, path, NICFIT_REC_MISSING, NULL, 0, NICFIT_SYSFS_MISSING,
				     ENOENT);
}

int nicfit_sysfs_record(struct nicfit_sysfs *fs, int on)
{
	if (on && !fs->hash && rehash(fs, REC_HASH_MIN))
		return NICFIT_E_NOMEM;
	fs->recording = on;
	return 0;
}

void nicfit_sysfs_record_data(struct nicfit_sysfs *fs, const char *path, const void *data,
			      size_t len)
{
	while (*path == '/')
		path++;
	nicfit__sysfs_record(fs, path, NICFIT_REC_FILE, data, len, NICFIT_SYSFS_OK, 0);
}

size_t nicfit_sysfs_rec_count(const struct nicfit_sysfs *fs)
{
	return fs->nrecs;
}

const struct nicfit_rec *nicfit_sysfs_rec(const struct nicfit_sysfs *fs, size_t i)
{
	return i < fs->nrecs ? &fs->recs[i] : NULL;
}

void nicfit__sysfs_records_release(struct nicfit_sysfs *fs)
{
	size_t i;

	for (i = 0; i < fs->nrecs; i++) {
		free(fs->recs[i].path);
		free(fs->recs[i].data);
	}
	free(fs->recs);
	free(fs->hash);
	fs->recs = NULL;
	fs->hash = NULL;
	fs->nrecs = fs->allocrecs = fs->hashcap = 0;
}
