/*
 * fuzz_dump_walk.c - the dump reader's path walk (dump_path.c): a
 * directory of files made from the input (fuzz_tree.h: an unpacked
 * sosreport, gzip logs among them), or, when the input is itself an
 * archive or a gzip file, that file, read as `audit --dump PATH` reads
 * it, then made into a host. Every refusal says something; the budgets
 * hold whatever the input (libFuzzer's -timeout finds a walk that does
 * not end).
 */
#include "fuzz_tree.h"

#include "nicfit/dump.h"
#include "nicfit/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *as_file(const uint8_t *data, size_t size)
{
	static char path[128];
	const char *root = fuzz_tree_root();
	int fd;

	if (!root)
		return NULL;
	/* a gzip stream or a tar, as a bundle is named */
	snprintf(path, sizeof(path), "%s/in%s", root,
		 size >= 2 && data[0] == 0x1f && data[1] == 0x8b ? ".gz" : ".tar");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return NULL;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;
	const char *path;
	int packed = (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) ||
		     (size > 262 && !memcmp(data + 257, "ustar", 5));

	path = packed ? as_file(data, size) : fuzz_tree_make(data, size);
	if (!path || nicfit_dump_new(&d))
		return 0;
	nicfit_error_clear(&err);
	if (nicfit_dump_add_path(d, path, &err)) {
		if (!err.msg[0])
			abort();
	} else {
		nicfit_error_clear(&err);
		if (nicfit_dump_topo(d, &t, &err) && !err.msg[0])
			abort();
		nicfit_topo_free(t);
	}
	nicfit_dump_free(d);
	return 0;
}
