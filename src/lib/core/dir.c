/*
 * dir.c - the one directory lister (nicfit/file.h): a directory's names,
 * sorted, for the readers that walk a tree of inputs in a stable order
 * (dump directories, fleet directories of audits). It opens nothing below
 * the directory and says nothing about what the names are; the sysfs
 * layer, which lists inside a root descriptor, has its own (sysfs_read.c).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "nicfit/file.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void nicfit_dir_names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int nicfit_dir_list(const char *dir, int skip_hidden, size_t max, char ***names, size_t *n)
{
	DIR *dh;
	struct dirent *de;
	char **v = NULL;
	size_t k = 0, alloc = 0;
	int rc = 0, e;

	*names = NULL;
	*n = 0;
	dh = opendir(dir);
	if (!dh)
		return NICFIT_E_IO;
	for (;;) {
		de = readdir(dh);
		if (!de)
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (skip_hidden && de->d_name[0] == '.')
			continue;
		if (k >= max) {
			rc = NICFIT_E_LIMIT;
			break;
		}
		if (NICFIT_ALLOC_GROW(v, k + 1, alloc)) {
			rc = NICFIT_E_NOMEM;
			break;
		}
		v[k] = strdup(de->d_name);
		if (!v[k]) {
			rc = NICFIT_E_NOMEM;
			break;
		}
		k++;
	}
	e = errno;
	closedir(dh);
	if (rc) {
		nicfit_dir_names_free(v, k);
		errno = e;
		return rc;
	}
	if (k)
		qsort(v, k, sizeof(*v), by_name);
	*names = v;
	*n = k;
	return 0;
}
