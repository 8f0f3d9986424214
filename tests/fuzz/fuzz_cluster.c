/*
 * fuzz_cluster.c - a cluster request as the web API receives it: JSON
 * settings -> spec -> input -> sizing -> every renderer -> the port map.
 * Requests above a few thousand nodes are sized without rendering the
 * port map, so each input stays fast.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/cluster.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct nicfit_catalog *cat;

static int sink(void *ctx, const char *p, size_t n)
{
	size_t *total = ctx;

	(void)p;
	*total += n;
	return 0;
}

static int count(void *ctx, const struct nicfit_cluster_link *l)
{
	long *n = ctx;

	(void)l;
	(*n)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum nicfit_format fmts[] = { NICFIT_FMT_TEXT, NICFIT_FMT_JSON,
		NICFIT_FMT_MD, NICFIT_FMT_CSV, NICFIT_FMT_SVG };
	struct nicfit_spec *spec;
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	size_t i, bytes = 0;
	long rows = 0, links = 0;
	int inl = 0;

	if (!cat && nicfit_catalog_new(&cat, NULL))
		return 0;
	spec = calloc(1, sizeof(*spec));
	if (!spec)
		return 0;
	nicfit_spec_init(spec, "fuzz");
	nicfit_error_clear(&err);
	if (nicfit_spec_parse_json(spec, (const char *)data, size, &err) ||
	    nicfit_cluster_input_from_spec(spec, &in, &inl, &err) || in.nodes > 3000)
		goto out;
	if (nicfit_cluster_size(&in, cat, &c, &err))
		goto out;
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		struct nicfit_emit *e = nicfit_emit_new(fmts[i], 0, 0);
		struct nicfit_cluster_render_opts o = { NULL, 0, inl };
		struct nicfit_buf out;

		if (!e)
			continue;
		nicfit_buf_init(&out, 0);
		if (!nicfit_cluster_render(&c, &o, e, &err))
			nicfit_emit_finish(e, &out);
		nicfit_buf_release(&out);
		nicfit_emit_free(e);
	}
	nicfit_cluster_write_port_map(&c, sink, &bytes, &rows, &err);
	nicfit_cluster_walk(&c, count, &links);
	/* the port map holds every walked link, then the storage network's and the border's */
	if (c.storage.enabled)
		links += c.storage.host_links + c.storage.leaf_spine_links;
	links += c.border.map_rows;
	if (rows != links)
		abort();
	nicfit_cluster_release(&c);
out:
	nicfit_spec_release(spec);
	free(spec);
	return 0;
}
