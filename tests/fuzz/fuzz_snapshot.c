/*
 * fuzz_snapshot.c - snapshot archives read back for offline audit: any
 * bytes are unpacked or refused with a message, within the bounds, and
 * leave nothing behind: after every input the private $TMPDIR is empty
 * again (on success once the caller removes the tree). The bounds are
 * small (nicfit__snapshot_extract_limited) so that each input is cheap;
 * the code paths are those of the public bounds.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicfit/snapshot.h"
#include "host/snapshot_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char base[64], xtmp[96], input[96];

static void cleanup(void)
{
	unlink(input);
	rmdir(xtmp);
	rmdir(base);
}

static int setup(void)
{
	snprintf(base, sizeof(base), "/tmp/nicfit-fuzz-snapshot-XXXXXX");
	if (!mkdtemp(base))
		return -1;
	snprintf(xtmp, sizeof(xtmp), "%s/t", base);
	snprintf(input, sizeof(input), "%s/input.tar.gz", base);
	if (mkdir(xtmp, 0700))
		return -1;
	atexit(cleanup);
	return setenv("TMPDIR", xtmp, 1);
}

static int empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return !n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a bundle's bounds (gzip files inside measured), with less to write */
	static const struct nicfit__snapshot_limits lim = {
		(size_t)4 << 20, 2000, 64, (size_t)128 << 20, (size_t)16 << 20
	};
	struct nicfit_error err;
	char *tmpdir = NULL, *root = NULL;
	FILE *f;
	int rc;

	if (!base[0] && setup())
		abort();
	f = fopen(input, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	if (fclose(f))
		abort();
	nicfit_error_clear(&err);
	rc = nicfit__snapshot_extract_limited(input, &lim, &tmpdir, &root, &err);
	if (rc) {
		if (!err.msg[0] || tmpdir || root)
			abort();
	} else {
		if (!tmpdir || !root || strncmp(root, xtmp, strlen(xtmp)) ||
		    strncmp(root, tmpdir, strlen(tmpdir)))
			abort();
		if (nicfit_snapshot_remove_tree(tmpdir))
			abort();
		free(tmpdir);
		free(root);
	}
	if (!empty(xtmp))
		abort();
	unlink(input);
	return 0;
}
