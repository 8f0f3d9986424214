/*
 * complete.c - `nicfit completion bash|zsh|fish`: the shell completion
 * scripts, generated from the option tables (options.c) and the command
 * table, so that a new option is completed the day it exists. Values
 * that are fixed when nicfit is built (output formats, the article's
 * example names, finding codes) are written into the script; catalog ids
 * are asked of `nicfit catalog list KIND -j` when completing, so that a
 * user's --catalog overlay is not needed for the script to work.
 *
 * The generated scripts are committed under scripts/ and installed by
 * `make install`; tests/suites/options.sh checks they are what this file
 * writes today.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "nicfit/plan.h"

/*
 * The catalog ids a completion offers, from `catalog list KIND -o
 * id[,PCIe],name --raw` (the names' spaces come as \x20; a kind's title is a
 * line of one word): "KEY<TAB>ID<TAB>NAME" with KEY the name's first word
 * (its vendor), the PCIe generation and the name, so that sorting groups
 * servers and GPUs by vendor, then generation.
 */
#define ID_AWK_(BS) "NF > 1 { p = NF > 2 ? $2 : \"\"; n = $NF; gsub(/" BS "x20/, \" \", p); " \
	"gsub(/" BS "x20/, \" \", n); split(n, w, \" \"); " \
	"print w[1] \" \" p \" \" n \"\\t\" $1 \"\\t\" n (p == \"\" ? \"\" : \" (PCIe \" p \")\") }"
/* awk's /\\x20/, the backslash doubled again for fish's single quotes */
#define ID_AWK ID_AWK_("\\\\")
#define ID_AWK_FISH ID_AWK_("\\\\\\\\")

static const char *const format_names[] = {
	"text", "json", "md", "csv", "svg", "prom", "nhc", "nfd"
};

#define NFORMATS (sizeof(format_names) / sizeof(format_names[0]))

static const char *const catalog_kinds[] = {
	"nics", "cables", "switches", "servers", "gpus", "models", NULL
};

/* A catalog kind when `complete` is "@nics" and the like, else NULL. */
static const char *catalog_kind(const char *complete)
{
	size_t i;

	if (!complete || complete[0] != '@')
		return NULL;
	for (i = 0; catalog_kinds[i]; i++)
		if (!strcmp(complete + 1, catalog_kinds[i]))
			return catalog_kinds[i];
	return NULL;
}

/* The fixed words a value completes to ("@formats", "@examples", a list), into b. */
static void fixed_words(struct nicfit_buf *b, const char *complete, const char *cmd)
{
	size_t i;

	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
	if (!complete)
		return;
	if (!strcmp(complete, "@formats")) {
		const struct cli_command *c = cmd ? cli_find(cmd) : NULL;
		unsigned formats = c ? c->formats : FMT_ALL;

		for (i = 0; i < NFORMATS; i++)
			if (formats & FMT(i))
				nicfit_buf_addf(b, "%s%s", b->len ? " " : "", format_names[i]);
		if (formats & FMT_NCCL_TOPO)
			nicfit_buf_addf(b, " nccl-topo");
		if (formats & FMT_CATALOG)
			nicfit_buf_addf(b, " catalog");
	} else if (!strcmp(complete, "@examples")) {
		for (i = 0; nicfit_plan_examples[i].name; i++)
			nicfit_buf_addf(b, "%s%s", i ? " " : "", nicfit_plan_examples[i].name);
	} else if (!strcmp(complete, "@commands")) {
		const char *const *names = cli_command_names();

		for (i = 0; names[i]; i++)
			nicfit_buf_addf(b, "%s%s", i ? " " : "", names[i]);
	} else if (complete[0] != '@') {
		nicfit_buf_addf(b, "%s", complete);
	}
}

static int has_subs(const char *cmd)
{
	return cli_subcommands(cmd)[0] != NULL;
}

/* ---- bash ------------------------------------------------------------------- */

/* The shell words that complete a value or a positional argument. */
static void bash_action(FILE *f, const char *complete, const char *cmd, struct nicfit_buf *w)
{
	const char *kind = catalog_kind(complete);

	if (!strcmp(complete, "@file"))
		fputs("COMPREPLY=($(compgen -f -- \"$cur\"))", f);
	else if (!strcmp(complete, "@dir"))
		fputs("COMPREPLY=($(compgen -d -- \"$cur\"))", f);
	else if (kind)
		fprintf(f, "COMPREPLY=($(compgen -W \"$(_nicfit_ids %s)\" -- \"$cur\"))", kind);
	else if (!strcmp(complete, "@ids"))
		fputs("COMPREPLY=($(compgen -W \"$(_nicfit_ids)\" -- \"$cur\"))", f);
	else if (!strcmp(complete, "@codes"))
		fputs("COMPREPLY=($(compgen -W \"$(_nicfit_codes)\" -- \"$cur\"))", f);
	else {
		fixed_words(w, complete, cmd);
		fprintf(f, "COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))", w->data ? w->data : "");
	}
}

/* "--a --b ..." of a set (and the globals when `globals`). */
static void opt_words(struct nicfit_buf *b, const struct cli_optset *set)
{
	size_t i;

	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
	for (i = 0; set && i < set->nopts; i++)
		nicfit_buf_addf(b, "%s--%s%s", b->len ? " " : "", set->opts[i].name,
				set->opts[i].arg == optional_argument ? "=" : "");
}

/* The case pattern of a set: "calc:pcie" or "plan:*" (sub unused). */
static void bash_pattern(FILE *f, const struct cli_optset *set)
{
	if (set->sub)
		fprintf(f, "%s:%s", set->cmd, set->sub);
	else if (has_subs(set->cmd))
		fprintf(f, "%s:", set->cmd);
	else
		fprintf(f, "%s:*", set->cmd);
}

static void bash_values(FILE *f, const struct cli_optset *set, struct nicfit_buf *w)
{
	size_t i;

	for (i = 0; i < set->nopts; i++) {
		const struct cli_opt *o = &set->opts[i];

		if (o->arg == no_argument || !o->complete)
			continue;
		fputs("\t", f);
		bash_pattern(f, set);
		fprintf(f, ":--%s) ", o->name);
		bash_action(f, o->complete, set->cmd, w);
		fputs("; return ;;\n", f);
	}
}

static void write_bash(FILE *f)
{
	const struct cli_optset *sets = NULL, *g = cli_global_opts();
	struct nicfit_buf w, o;
	size_t i, n;

	nicfit_buf_init(&w, 0);
	nicfit_buf_init(&o, 0);
	sets = cli_optsets(&n);
	fputs("# bash completion for nicfit; written by `nicfit completion bash` from its\n"
	      "# option tables (install as bash-completion/completions/nicfit).\n"
	      "_nicfit_ids()\n{\n"
	      "\tnicfit catalog list $1 -o id,name --noheadings --raw 2>/dev/null | awk 'NF > 1 { print $1 }'\n"
	      "}\n\n_nicfit_codes()\n{\n"
	      "\tnicfit help findings -j 2>/dev/null | grep -o '\"code\":\"[^\"]*\"' | cut -d'\"' -f4\n"
	      "}\n\n_nicfit()\n{\n"
	      "\tlocal cur prev words cword\n"
	      "\t_init_completion 2>/dev/null || {\n"
	      "\t\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\t\twords=(\"${COMP_WORDS[@]}\")\n"
	      "\t\tcword=$COMP_CWORD\n"
	      "\t}\n"
	      "\tlocal cmd= sub= i\n"
	      "\t[ \"$prev\" = = ] && prev=${words[cword-2]}\n"
	      "\t[ \"$cur\" = = ] && cur=\n"
	      "\tfor ((i = 1; i < cword; i++)); do\n"
	      "\t\tcase ${words[i]} in\n"
	      "\t\t--format|--catalog) ((i++)) ;;\n"
	      "\t\t-*|=) ;;\n"
	      "\t\t*) if [ -z \"$cmd\" ]; then cmd=${words[i]}; elif [ -z \"$sub\" ]; then sub=${words[i]}; fi ;;\n"
	      "\t\tesac\n"
	      "\tdone\n"
	      "\tcase $prev in\n"
	      "\t--catalog) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
	      "\tesac\n"
	      "\tcase $cmd:$sub:$prev in\n", f);
	for (i = 0; i < n; i++)
		bash_values(f, &sets[i], &w);
	for (i = 0; i < n; i++) {
		if (sets[i].sub)
			continue;
		fprintf(f, "\t%s:*:--format) ", sets[i].cmd);
		bash_action(f, "@formats", sets[i].cmd, &w);
		fputs("; return ;;\n", f);
	}
	fputs("\tesac\n\tcase $cmd:$sub in\n\t:*)\n\t\t", f);
	opt_words(&o, g);
	fixed_words(&w, "@commands", NULL);
	fprintf(f, "COMPREPLY=($(compgen -W \"%s %s\" -- \"$cur\")) ;;\n", w.data, o.data);
	for (i = 0; i < n; i++) {
		const struct cli_optset *s = &sets[i];

		fputs("\t", f);
		bash_pattern(f, s);
		fputs(")\n", f);
		opt_words(&o, s);
		if (s->args && s->nopts) {
			fprintf(f, "\t\tcase $cur in\n\t\t-*) COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")) ;;\n"
				"\t\t*) ", o.data);
			bash_action(f, s->args, s->cmd, &w);
			fputs(" ;;\n\t\tesac ;;\n", f);
		} else if (s->args) {
			fputs("\t\t", f);
			bash_action(f, s->args, s->cmd, &w);
			fputs(" ;;\n", f);
		} else {
			fprintf(f, "\t\tCOMPREPLY=($(compgen -W \"%s\" -- \"$cur\")) ;;\n", o.data);
		}
	}
	fputs("\tesac\n}\ncomplete -F _nicfit nicfit\n", f);
	nicfit_buf_release(&w);
	nicfit_buf_release(&o);
}

/* ---- zsh -------------------------------------------------------------------- */

/* Text inside a single-quoted zsh word, without the brackets _arguments reads. */
static void zsh_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else if (*s == '[')
			fputc('(', f);
		else if (*s == ']')
			fputc(')', f);
		else if (*s == ':')
			fputs("\\:", f);
		else
			fputc(*s, f);
	}
}

static void zsh_action(FILE *f, const char *complete, const char *cmd, struct nicfit_buf *w)
{
	const char *kind = catalog_kind(complete);

	if (!complete)
		fputs(" ", f);
	else if (!strcmp(complete, "@file"))
		fputs("_files", f);
	else if (!strcmp(complete, "@dir"))
		fputs("_files -/", f);
	else if (kind)
		fprintf(f, "{_nicfit_ids %s}", kind);
	else if (!strcmp(complete, "@ids"))
		fputs("{_nicfit_ids}", f);
	else if (!strcmp(complete, "@codes"))
		fputs("{_nicfit_codes}", f);
	else {
		fixed_words(w, complete, cmd);
		fprintf(f, "(%s)", w->data ? w->data : "");
	}
}

static void zsh_opt(FILE *f, const struct cli_opt *o, const char *cmd, struct nicfit_buf *w)
{
	fputs("\t\t'", f);
	if (o->val > 0 && o->val < 256 && cmd == NULL)
		fprintf(f, "(-%c --%s)'{-%c,--%s}'", o->val, o->name, o->val, o->name);
	else
		fprintf(f, "--%s", o->name);
	if (o->arg == required_argument)
		fputc('=', f);
	else if (o->arg == optional_argument)
		fputs("=-", f);
	fputc('[', f);
	zsh_text(f, o->help);
	fputc(']', f);
	if (o->arg != no_argument) {
		fputs(o->arg == optional_argument ? "::" : ":", f);
		zsh_text(f, o->metavar ? o->metavar : "value");
		fputc(':', f);
		zsh_action(f, o->complete, cmd, w);
	}
	fputs("' \\\n", f);
}

static void zsh_set(FILE *f, const struct cli_optset *s, struct nicfit_buf *w)
{
	size_t i;

	fputs("\t\t_arguments -s \\\n", f);
	for (i = 0; i < s->nopts; i++)
		zsh_opt(f, &s->opts[i], s->cmd, w);
	if (s->args) {
		fputs("\t\t'*:argument:", f);
		zsh_action(f, s->args, s->cmd, w);
		fputs("' \\\n", f);
	}
	fputs("\t\t&& return ;;\n", f);
}

static void write_zsh(FILE *f)
{
	const struct cli_optset *sets, *g = cli_global_opts();
	const char *const *subs;
	struct nicfit_buf w;
	size_t i, j, n;

	nicfit_buf_init(&w, 0);
	sets = cli_optsets(&n);
	fputs("#compdef nicfit\n"
	      "# zsh completion for nicfit; written by `nicfit completion zsh` from its\n"
	      "# option tables (install as _nicfit in a directory of $fpath).\n\n"
	      "# catalog ids with their names, servers and GPUs grouped by vendor and PCIe generation\n"
	      "_nicfit_ids() {\n"
	      "\tlocal -a ids descs\n"
	      "\tlocal line cols=id,name\n"
	      "\tcase $1 in servers|gpus) cols=id,PCIe,name ;; esac\n"
	      "\tfor line in ${(f)\"$(nicfit catalog list $1 -o $cols --noheadings --raw 2>/dev/null |\n"
	      "\t\tawk '" ID_AWK "' | sort | cut -f2-)\"}; do\n"
	      "\t\tids+=(\"${line%%\t*}\")\n"
	      "\t\tdescs+=(\"${line%%\t*} -- ${line#*\t}\")\n"
	      "\tdone\n"
	      "\tcompadd -V catalog -l -d descs -a ids\n"
	      "}\n\n"
	      "_nicfit_codes() {\n"
	      "\tlocal -a codes\n"
	      "\tcodes=(${(f)\"$(nicfit help findings -j 2>/dev/null | grep -o '\"code\":\"[^\"]*\"' | cut -d'\"' -f4)\"})\n"
	      "\tcompadd -a codes\n"
	      "}\n\n"
	      "_nicfit() {\n"
	      "\tlocal curcontext=\"$curcontext\" state line\n"
	      "\ttypeset -A opt_args\n"
	      "\tlocal -a commands\n"
	      "\tcommands=(\n", f);
	{
		const char *const *names = cli_command_names();

		for (i = 0; names[i]; i++) {
			fprintf(f, "\t\t'%s:", names[i]);
			zsh_text(f, cli_find(names[i])->summary);
			fputs("'\n", f);
		}
	}
	fputs("\t)\n\t_arguments -C \\\n", f);
	for (i = 0; i < g->nopts; i++)
		zsh_opt(f, &g->opts[i], NULL, &w);
	fputs("\t\t'1:command:->command' \\\n\t\t'*::argument:->argument' && return\n"
	      "\tcase $state in\n"
	      "\tcommand) _describe -t commands 'nicfit command' commands ;;\n"
	      "\targument)\n\t\tcase $words[1] in\n", f);
	for (i = 0; i < n; i++) {
		const struct cli_optset *s = &sets[i];

		if (s->sub)
			continue;
		fprintf(f, "\t\t%s)\n", s->cmd);
		if (!has_subs(s->cmd)) {
			zsh_set(f, s, &w);
			continue;
		}
		subs = cli_subcommands(s->cmd);
		fputs("\t\tif (( CURRENT == 2 )); then\n\t\t\tcompadd", f);
		for (j = 0; subs[j]; j++)
			fprintf(f, " %s", subs[j]);
		fputs("\n\t\t\treturn\n\t\tfi\n\t\tshift words; (( CURRENT-- ))\n\t\tcase $words[1] in\n", f);
		for (j = 0; subs[j]; j++) {
			fprintf(f, "\t\t%s)\n", subs[j]);
			zsh_set(f, cli_optset_find(s->cmd, subs[j]), &w);
		}
		fputs("\t\tesac ;;\n", f);
	}
	fputs("\t\tesac ;;\n\tesac\n}\n\n_nicfit \"$@\"\n", f);
	nicfit_buf_release(&w);
}

/* ---- fish ------------------------------------------------------------------- */

static void fish_text(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* The -n condition of a set: its command seen, and its subcommand if any. */
static void fish_cond(FILE *f, const struct cli_optset *s)
{
	if (s->sub)
		fprintf(f, "-n '__fish_seen_subcommand_from %s; and __fish_seen_subcommand_from %s' ",
			s->cmd, s->sub);
	else
		fprintf(f, "-n '__fish_seen_subcommand_from %s' ", s->cmd);
}

static void fish_values(FILE *f, const char *complete, const char *cmd, struct nicfit_buf *w)
{
	const char *kind = catalog_kind(complete);

	if (!complete)
		fputs(" -x", f);
	else if (!strcmp(complete, "@file") || !strcmp(complete, "@dir"))
		fputs(" -r -F", f);
	else if (kind)
		fprintf(f, " -x -k -a '(__nicfit_ids %s)'", kind);
	else if (!strcmp(complete, "@ids"))
		fputs(" -x -a '(__nicfit_ids)'", f);
	else if (!strcmp(complete, "@codes"))
		fputs(" -x -a '(__nicfit_codes)'", f);
	else {
		fixed_words(w, complete, cmd);
		fputs(" -x -a ", f);
		fish_text(f, w->data ? w->data : "");
	}
}

static void fish_opt(FILE *f, const struct cli_optset *s, const struct cli_opt *o,
		     struct nicfit_buf *w)
{
	fputs("complete -c nicfit ", f);
	if (s)
		fish_cond(f, s);
	if (!s && o->val > 0 && o->val < 256)
		fprintf(f, "-s %c ", o->val);
	fprintf(f, "-l %s", o->name);
	if (o->arg != no_argument)
		fish_values(f, o->complete, s ? s->cmd : NULL, w);
	fputs(" -d ", f);
	fish_text(f, o->help);
	fputc('\n', f);
}

static void write_fish(FILE *f)
{
	const struct cli_optset *sets, *g = cli_global_opts();
	const char *const *names = cli_command_names(), *const *subs;
	struct nicfit_buf w;
	size_t i, j, n;

	nicfit_buf_init(&w, 0);
	sets = cli_optsets(&n);
	fputs("# fish completion for nicfit; written by `nicfit completion fish` from its\n"
	      "# option tables (install as fish/vendor_completions.d/nicfit.fish).\n"
	      "# catalog ids with their names, servers and GPUs grouped by vendor and PCIe generation\n"
	      "function __nicfit_ids\n"
	      "    set -l cols id,name\n"
	      "    contains -- \"$argv[1]\" servers gpus; and set cols id,PCIe,name\n"
	      "    nicfit catalog list $argv -o $cols --noheadings --raw 2>/dev/null |\n"
	      "        awk '" ID_AWK_FISH "' | sort | cut -f2-\n"
	      "end\n"
	      "function __nicfit_codes\n"
	      "    nicfit help findings -j 2>/dev/null | string match -r -a -g '\"code\":\"([^\"]*)\"'\n"
	      "end\n"
	      "complete -c nicfit -f\n", f);
	for (i = 0; names[i]; i++) {
		fprintf(f, "complete -c nicfit -n __fish_use_subcommand -a %s -d ", names[i]);
		fish_text(f, cli_find(names[i])->summary);
		fputc('\n', f);
	}
	for (i = 0; i < g->nopts; i++)
		fish_opt(f, NULL, &g->opts[i], &w);
	for (i = 0; i < n; i++) {
		const struct cli_optset *s = &sets[i];

		if (!s->sub && has_subs(s->cmd)) {
			subs = cli_subcommands(s->cmd);
			fprintf(f, "complete -c nicfit -n '__fish_seen_subcommand_from %s; and not "
				"__fish_seen_subcommand_from", s->cmd);
			for (j = 0; subs[j]; j++)
				fprintf(f, " %s", subs[j]);
			fputs("' -a ", f);
			fixed_words(&w, s->args, s->cmd);
			fish_text(f, w.data ? w.data : "");
			fputc('\n', f);
		} else if (s->args) {
			const char *kind = catalog_kind(s->args);

			fputs("complete -c nicfit ", f);
			fish_cond(f, s);
			if (!strcmp(s->args, "@file") || !strcmp(s->args, "@dir"))
				fputs("-F\n", f);
			else if (kind || !strcmp(s->args, "@ids"))
				fprintf(f, "-k -a '(__nicfit_ids%s%s)'\n", kind ? " " : "", kind ? kind : "");
			else {
				fixed_words(&w, s->args, s->cmd);
				fputs("-a ", f);
				fish_text(f, w.data ? w.data : "");
				fputc('\n', f);
			}
		}
		for (j = 0; j < s->nopts; j++)
			fish_opt(f, s, &s->opts[j], &w);
		if (!s->sub && s->nopts) {
			fputs("complete -c nicfit ", f);
			fish_cond(f, s);
			fputs("-l format", f);
			fish_values(f, "@formats", s->cmd, &w);
			fputs(" -d 'output format'\n", f);
		}
	}
	nicfit_buf_release(&w);
}

int cmd_completion(struct cli *c, int argc, char **argv)
{
	(void)c;
	if (argc != 2) {
		cli_error(NICFIT_E_USAGE, "completion: which shell? (bash, zsh or fish)");
		return cli_usage("completion");
	}
	if (!strcmp(argv[1], "bash"))
		write_bash(stdout);
	else if (!strcmp(argv[1], "zsh"))
		write_zsh(stdout);
	else if (!strcmp(argv[1], "fish"))
		write_fish(stdout);
	else
		return cli_error(NICFIT_E_USAGE, "completion: no script for '%.32s' (bash, zsh or fish)",
				 argv[1]);
	return 0;
}
