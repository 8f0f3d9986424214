/*
 * replay.c - run a libFuzzer harness over its corpus without libFuzzer, so
 * that `make check` replays every saved input under the normal compiler
 * (and under ASan/UBSan with SANITIZE=1). Prints TAP: one line per file.
 *
 *   fuzz_NAME DIR_OR_FILE...
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int n;

static int one(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long len;

	if (!f) {
		printf("not ok %d - %s (cannot open)\n", ++n, path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(len > 0 ? (size_t)len : 1);
	if (!buf || (len > 0 && fread(buf, 1, (size_t)len, f) != (size_t)len)) {
		printf("not ok %d - %s (cannot read)\n", ++n, path);
		free(buf);
		fclose(f);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	printf("ok %d - %s\n", ++n, path);
	return 0;
}

static int walk(const char *path)
{
	struct stat st;
	struct dirent **names;
	int i, k, bad = 0;

	if (stat(path, &st)) {
		printf("not ok %d - %s (missing)\n", ++n, path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		return one(path);
	k = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < k; i++) {
		char p[4096];

		if (names[i]->d_name[0] != '.') {
			snprintf(p, sizeof(p), "%s/%s", path, names[i]->d_name);
			bad |= walk(p);
		}
		free(names[i]);
	}
	free(names);
	return bad;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	for (i = 1; i < argc; i++)
		bad |= walk(argv[i]);
	return bad;
}
