/*
 * cmd_catalog.c - `nicfit catalog list [KIND] | show ID | check FILE...`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "nicfit/catalog.h"
#include "nicfit/file.h"

#define MAX_PROBLEMS 200

/* What `catalog check` reads of one file: 64 MiB, four times a catalog's own limit. */
#define CHECK_MAX_BYTES ((size_t)64 << 20)

/* JSON: one file's result, a member of the document's "files" (json-catalog.md). */
static void check_json(struct nicfit_emit *e, const char *path, size_t total,
		       const struct nicfit_error *errs, size_t n)
{
	size_t i;

	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "file", path);
	nicfit_emit_bool(e, "valid", !n);
	nicfit_emit_int(e, "entries", (long long)total);
	nicfit_emit_int(e, "problems_total", (long long)n);
	nicfit_emit_begin_array(e, "problems");
	for (i = 0; i < n && i < MAX_PROBLEMS; i++) {
		nicfit_emit_begin_object(e, NULL);
		if (errs[i].line)
			nicfit_emit_int(e, "line", errs[i].line);
		else
			nicfit_emit_null(e, "line");
		if (errs[i].col)
			nicfit_emit_int(e, "column", errs[i].col);
		else
			nicfit_emit_null(e, "column");
		nicfit_emit_string(e, "message", errs[i].msg);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
}

static int check_file(struct cli *c, struct nicfit_emit *e, const char *path, int *bad)
{
	struct nicfit_error *errs, err;
	struct nicfit_catalog *base;
	size_t n, total, i, len = 0;
	char *text;
	int rc;

	nicfit_error_clear(&err);
	rc = nicfit_read_file(path, CHECK_MAX_BYTES, &text, &len, &err);
	if (rc == NICFIT_E_LIMIT)
		return cli_error(rc, "%s: larger than 64 MiB", path);
	if (rc)
		return cli_fail(&err);
	base = cli_catalog(c, &rc);
	if (!base) {
		free(text);
		return rc;
	}
	errs = calloc(MAX_PROBLEMS, sizeof(*errs));
	if (!errs) {
		free(text);
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	}
	n = nicfit_catalog_check(base, path, text, len, errs, MAX_PROBLEMS, &total);
	if (n)
		*bad = 1;
	if (e) {
		check_json(e, path, total, errs, n);
		free(errs);
		free(text);
		return 0;
	}
	for (i = 0; i < n && i < MAX_PROBLEMS; i++)
		cli_fail(&errs[i]);
	if (n > MAX_PROBLEMS)
		fprintf(stderr, "nicfit: %s: %zu more problems not shown\n", path, n - MAX_PROBLEMS);
	if (n) {
		*bad = 1;
	} else {
		nicfit_error_clear(&err);
		nicfit_buf_addf(&c->out, "%s: %zu entr%s, valid\n", path, total,
				total == 1 ? "y" : "ies");
	}
	free(errs);
	free(text);
	return 0;
}

int cmd_catalog(struct cli *c, int argc, char **argv)
{
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	struct nicfit_emit *e;
	enum nicfit_kind kind;
	int rc = 0, bad = 0, i;

	if (argc < 2) {
		cli_error(NICFIT_E_USAGE, "catalog: list, show or check?");
		return cli_usage("catalog");
	}
	nicfit_error_clear(&err);
	if (!strcmp(argv[1], "check")) {
		if (argc < 3) {
			cli_error(NICFIT_E_USAGE, "catalog check: which file?");
			return cli_usage("catalog");
		}
		e = NULL;
		if (c->fmt == NICFIT_FMT_JSON) {
			e = cli_emitter(c);
			nicfit_emit_begin_object(e, NULL);
			nicfit_emit_string(e, "schema", "nicfit.catalog.check.v1");
			nicfit_emit_begin_array(e, "files");
		}
		for (i = 2; i < argc; i++) {
			rc = check_file(c, e, argv[i], &bad);
			if (rc) {
				nicfit_emit_free(e);
				return rc;
			}
		}
		if (e) {
			nicfit_emit_end_array(e);
			nicfit_emit_bool(e, "valid", !bad);
			nicfit_emit_end_object(e);
			rc = cli_emit_done(c, e);
			if (rc)
				return rc;
		}
		return bad ? 65 : 0;
	}
	if (strcmp(argv[1], "list") && strcmp(argv[1], "show")) {
		cli_error(NICFIT_E_USAGE, "catalog: unknown subcommand '%.32s' (list, show, check)",
			  argv[1]);
		return cli_usage("catalog");
	}
	cat = cli_catalog(c, &rc);
	if (!cat)
		return rc;
	if (!strcmp(argv[1], "list")) {
		if (argc > 3)
			return cli_usage("catalog");
		if (argc == 3 && nicfit_kind_parse(argv[2], &kind, &err))
			return cli_fail(&err);
		e = cli_emitter(c);
		nicfit_catalog_render_list(e, cat, argc == 3 ? (int)kind : -1);
		return cli_emit_done(c, e);
	}
	if (argc != 3) {
		cli_error(NICFIT_E_USAGE, "catalog show: which id?");
		return cli_usage("catalog");
	}
	if (c->fmt == NICFIT_FMT_CSV)
		return cli_error(NICFIT_E_USAGE, "catalog show has no csv output (it prints text, json, md)");
	e = cli_emitter(c);
	if (nicfit_catalog_render_show(e, cat, argv[2], &err)) {
		nicfit_emit_free(e);
		return cli_fail(&err);
	}
	return cli_emit_done(c, e);
}
