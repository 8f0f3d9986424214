/*
 * cmd_cluster.c - `nicfit cluster --nodes N ...`: the options (and an
 * optional --spec FILE of the same settings in JSON) become a spec, the
 * library sizes the networks, and --port-map FILE.csv streams every link
 * to a temporary file that is renamed into place when complete (output.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "output.h"
#include "util.h"
#include "nicfit/cluster.h"
#include "nicfit/file.h"

static int read_spec_file(const char *path, struct nicfit_spec *spec)
{
	struct nicfit_error err;
	char *text;
	size_t n;
	int rc;

	nicfit_error_clear(&err);
	if (nicfit_read_file(path, NICFIT_SPEC_MAX_BYTES, &text, &n, &err))
		return cli_fail(&err);
	snprintf(spec->input, sizeof(spec->input), "%s", strcmp(path, "-") ? path : "<stdin>");
	rc = nicfit_spec_parse_json(spec, text, n, &err);
	free(text);
	return rc ? cli_fail(&err) : 0;
}

static int write_file(void *ctx, const char *p, size_t n)
{
	return cli_out_write(ctx, p, n);
}

/*
 * Stream the port map to path (output.h: a temporary file renamed over a
 * regular one, a device or FIFO written to), mode 0666 less the umask as
 * any new file.
 */
static int port_map(const struct nicfit_cluster *c, const char *path, long *rows)
{
	struct nicfit_error err;
	struct cli_out o;
	mode_t mask = umask(0);
	int rc;

	umask(mask);
	rc = cli_out_open(&o, "--port-map", path, 0666 & ~mask);
	if (rc)
		return rc;
	nicfit_error_clear(&err);
	rc = nicfit_cluster_write_port_map(c, write_file, &o, rows, &err);
	if (rc && !o.err) {
		cli_out_abort(&o);
		return cli_error(rc, "%s: %s", path, err.msg);
	}
	return cli_out_commit(&o);
}

/* An option nobody knows, caught before it swallows the next word as its value. */
static int unknown_option(const char *arg)
{
	char key[64], shown[64];
	const char *near;
	size_t i, len;

	if (strncmp(arg, "--", 2))
		return 0;
	arg += 2;
	len = strcspn(arg, "=");
	if (!len || len >= sizeof(key))
		return 0;
	for (i = 0; i < len; i++)
		key[i] = arg[i] == '-' ? '_' : arg[i];
	key[len] = '\0';
	for (i = 0; nicfit_cluster_spec_keys[i]; i++)
		if (!strcmp(key, nicfit_cluster_spec_keys[i]))
			return 0;
	near = nicfit_suggest(key, nicfit_cluster_spec_keys);
	if (!near)
		return cli_error(NICFIT_E_USAGE, "cluster: unknown option '--%.*s'", (int)len, arg);
	snprintf(shown, sizeof(shown), "%s", near);
	for (i = 0; shown[i]; i++)
		if (shown[i] == '_')
			shown[i] = '-';
	return cli_error(NICFIT_E_USAGE, "cluster: unknown option '--%.*s' (did you mean '--%s'?)",
			 (int)len, arg, shown);
}

/* The files cluster reads and writes, apart from its spec's options. */
struct cluster_files {
	const char *spec;        /* --spec */
	const char *map;         /* --port-map */
};

/*
 * Split cluster's words: --spec and --port-map into f, the spec's options
 * (and their values) into rest after rest[0]. Returns 0 or an exit code
 * after printing the error.
 */
static int cluster_words(int argc, char **argv, struct cluster_files *f, char **rest, int *nrest)
{
	int i, rc;

	for (i = 1; i < argc; i++) {
		const char **slot = !strcmp(argv[i], "--spec") ? &f->spec :
				    !strcmp(argv[i], "--port-map") ? &f->map : NULL;

		if (!strncmp(argv[i], "--spec=", 7)) {
			f->spec = argv[i] + 7;
		} else if (!strncmp(argv[i], "--port-map=", 11)) {
			f->map = argv[i] + 11;
		} else if (slot) {
			if (i + 1 >= argc)
				return cli_error(NICFIT_E_USAGE, "cluster: %s needs a file", argv[i]);
			*slot = argv[++i];
		} else {
			rc = unknown_option(argv[i]);
			if (rc)
				return rc;
			rest[(*nrest)++] = argv[i];
			/* skip the value of "--key value" */
			if (!strncmp(argv[i], "--", 2) && !strchr(argv[i], '=') && i + 1 < argc &&
			    strcmp(argv[i], "--rail-optimized") && strcmp(argv[i], "--rail-only") &&
			    strcmp(argv[i], "--no-rail-optimized") &&
			    strcmp(argv[i], "--no-frontend") && strcmp(argv[i], "--no-oob"))
				rest[(*nrest)++] = argv[++i];
		}
	}
	return 0;
}

/* --port-map FILE: a file, not standard output, and none of the inputs. */
static int check_map_file(struct cli *c, const struct cluster_files *f)
{
	struct cli_input inputs[1 + CLI_MAX_CATALOGS] = { { "--spec", NULL, CLI_LISTS_NONE } };
	int k;

	if (!f->map)
		return 0;
	if (!*f->map)
		return cli_error(NICFIT_E_USAGE, "cluster: --port-map needs a file");
	/* standard output carries the report, which names the map's file */
	if (!strcmp(f->map, "-"))
		return cli_error(NICFIT_E_USAGE, "cluster: --port-map -: standard output carries the "
				 "report; give the port map a file (or --json with \"port_map\": true "
				 "in --spec for the links inline)");
	inputs[0].path = f->spec;
	for (k = 0; k < c->ncatalogs; k++)
		inputs[1 + k] = (struct cli_input){ "--catalog", c->catalogs[k], CLI_LISTS_NONE };
	return cli_out_not_input("--port-map", f->map, inputs, 1 + (size_t)c->ncatalogs);
}

/* Size the cluster spec asks for into cl. Returns 0 or an exit code after printing the error. */
static int cluster_size(struct cli *c, struct nicfit_spec *spec, struct nicfit_cluster *cl,
			struct nicfit_cluster_render_opts *opts)
{
	struct nicfit_cluster_input in;
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	int rc;

	cat = cli_catalog(c, &rc);
	if (!cat)
		return rc;
	nicfit_error_clear(&err);
	rc = nicfit_cluster_input_from_spec(spec, &in, &opts->port_map_inline, &err);
	if (!rc)
		rc = nicfit_cluster_input_server(spec, cat, &in, &err);
	if (!rc) {
		nicfit_cluster_input_node_defaults(spec, cat, &in);
		rc = nicfit_cluster_size(&in, cat, cl, &err);
	}
	if (!rc)
		return 0;
	/* "--switch" from the sizing: in a --spec file, the "switch" key's position */
	nicfit_spec_locate_option(spec, &err);
	if (rc == NICFIT_E_USAGE && spec->from_data && err.code == rc)
		err.code = NICFIT_E_DATA;
	return cli_fail(&err);
}

int cmd_cluster(struct cli *c, int argc, char **argv)
{
	static const char *const flags[] = { "rail-optimized", "no-rail-optimized", "rail-only",
					     "no-frontend", "no-oob", NULL };
	struct nicfit_cluster_render_opts opts;
	struct cluster_files f = { NULL, NULL };
	struct nicfit_cluster cl;
	struct nicfit_spec *spec;
	struct nicfit_error err;
	struct nicfit_emit *e;
	char **rest;
	int nrest = 1, rc;

	memset(&opts, 0, sizeof(opts));
	memset(&cl, 0, sizeof(cl));
	rest = calloc((size_t)argc + 1, sizeof(*rest));
	spec = calloc(1, sizeof(*spec));
	if (!rest || !spec) {
		free(rest);
		free(spec);
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	}
	nicfit_spec_init(spec, "cluster");
	rest[0] = argv[0];
	rc = cluster_words(argc, argv, &f, rest, &nrest);
	if (!rc)
		rc = check_map_file(c, &f);
	if (!rc && f.spec)
		rc = read_spec_file(f.spec, spec);
	if (!rc)
		rc = cli_args_to_spec(nrest, rest, 1, flags, spec, "cluster");
	if (!rc)
		rc = cluster_size(c, spec, &cl, &opts);
	if (!rc && f.map) {
		rc = port_map(&cl, f.map, &opts.port_map_rows);
		opts.port_map_file = f.map;
		opts.port_map_inline = 0;
	}
	if (!rc) {
		nicfit_error_clear(&err);
		e = cli_emitter(c);
		rc = nicfit_cluster_render(&cl, &opts, e, &err);
		rc = cli_emit_result(c, e, rc, &err);
	}
	nicfit_cluster_release(&cl);
	nicfit_spec_release(spec);
	free(spec);
	free(rest);
	return rc;
}
