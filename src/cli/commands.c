/*
 * commands.c - the command table (matched exactly, as git's commands[]):
 * each command's name, handler, one-line summary, usage text and the
 * output formats it prints; and the help generated from that table.
 *
 * This is the one file that knows every cmd_*.c handler. The handlers
 * themselves depend only on usage.c and util.c, so there is no cycle
 * between the table and the commands it lists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "nicfit/spec.h"
#include "nicfit/finding.h"
#include "nicfit/version.h"

static int cmd_help(struct cli *c, int argc, char **argv);

static const struct cli_command commands[] = {
	{ "accept", cmd_accept,
	  "day-1 acceptance runbook of a plan or host, with expected numbers; results judged",
	  "nicfit accept [--spec FILE.json | --plan PLAN.json | --example=NAME |\n"
	  "               PLAN OPTIONS...]\n"
	  "              [--sysfs DIR|FILE.tar.gz | --dump PATH... | --from-host]\n"
	  "              [--hosts LIST | --nodes N] [--launcher mpirun|srun] [--read]\n"
	  "              [--script | --results DIR]\n"
	  "\n"
	  "Writes the tests a delivered system must pass, in order: NVLink inside each\n"
	  "node (all_reduce_perf), each rail between pairs of nodes from GPU memory\n"
	  "(ib_write_bw --use_cuda; --read adds ib_read_bw), the all-reduce over every\n"
	  "node and rail (mpirun or srun, NCCL_ALGO=Ring), the front end (iperf3 -P).\n"
	  "Each stage has its ceiling, typical and broken lines with their formula and\n"
	  "source. The system is a plan (plan's options, --spec, --example, or --plan:\n"
	  "the JSON nicfit plan -j saved, planned again from its input) or an audited\n"
	  "host (--sysfs, --dump, --from-host; --nodes copies of it). Pairs: all pairs up\n"
	  "to 8 nodes, else a ring and a bisection round; the judged report names the\n"
	  "host or route each rail's failures isolate. --script writes it as a bash\n"
	  "script whose outputs --results DIR judges: exit status 0 all within band, 1\n"
	  "some below typical or missing, 2 some below the broken line.",
	  FMT_TEXTUAL },
	{ "audit", cmd_audit,
	  "check this host, a capture or a dump for GPU and NIC link faults",
	  "nicfit audit [--sysfs DIR|FILE.tar.gz | --dump PATH...] [--all]\n"
	  "             [--ignore CODE[@DEVICE]]... [--pci-ids FILE | --no-pci-ids]\n"
	  "             [--assume NAME=VALUE]... [--plan SPEC.json]\n"
	  "             [--expect SPEC.json|AUDITS] [--output FILE] [--nfd-expiry S]\n"
	  "             [--trace-reads]\n"
	  "\n"
	  "Reads sysfs (never needs root; as root it also checks ACS, MaxPayload and\n"
	  "MaxReadReq). --sysfs takes a directory that holds sys/ (NICFIT_SYSFS_ROOT too)\n"
	  "or a snapshot archive. --all lists every PCI function. Exit status: 0 clean, 1\n"
	  "warnings, 2 critical findings. --format svg draws the host. --plan judges the\n"
	  "host against `nicfit plan` for the request in SPEC.json (plan's --spec format).\n"
	  "--dump reads pasted output instead (lspci, nvidia-smi, ibv_devinfo, ibstat, ip\n"
	  "link, lscpu, hwloc or NCCL XML ...; see nicfit-audit(1)): files, a directory, a\n"
	  "sosreport or supportconfig archive, an nvidia-bug-report.log.gz, or - for\n"
	  "standard input. --expect takes a plan spec, or audits of other hosts (a file,\n"
	  "capture or directory as fleet reads them): where this host differs from their\n"
	  "majority is a finding. --format prom (Prometheus), nhc (LBNL NHC: a line per\n"
	  "failure, exit 1) and nfd (Node Feature Discovery labels, dropped --nfd-expiry S\n"
	  "seconds later, default 3600); --output FILE writes\n"
	  "atomically (temp + rename). --format nccl-topo writes an NCCL_TOPO_FILE XML of\n"
	  "the host instead; --format catalog the host as a catalog server entry (slots,\n"
	  "sockets, PCIe switches, onboard ports) that plan --server FILE.json plans with.\n"
	  "--trace-reads lists on stderr, after the report, every sysfs read: op, path,\n"
	  "bytes, what it was for; then the count (the report is unchanged).",
	  FMT_ALL | FMT(NICFIT_FMT_PROM) | FMT(NICFIT_FMT_NHC) | FMT(NICFIT_FMT_NFD) | FMT_NCCL_TOPO |
	  FMT_CATALOG },
	{ "calc", cmd_calc,
	  "plan's formulas: pcie link nic load fit allreduce stream step",
	  "nicfit calc pcie --gen G --width W [--mps B] [--assume NAME=VALUE]...\n"
	  "nicfit calc link --speed S [--proto tcp|roce|ib] [--mtu M]\n"
	  "nicfit calc nic --part PART --slot genGxW [--slot genGxW] [--ports N]\n"
	  "                [--proto tcp|roce|ib]   (--slot twice: Socket Direct's two links)\n"
	  "nicfit calc load --size SIZE [--precision P] --link SPEED\n"
	  "                 [--storage-gbps N] [--proto tcp|roce|ib]\n"
	  "nicfit calc fit (--model ID | --params N) --precision P --gpus NxGPU\n"
	  "                [--context T] [--concurrency C] [--gpus-per-node N]\n"
	  "nicfit calc allreduce --size SIZE [--precision P] --nodes N --link SPEED\n"
	  "                [--proto roce|ib|tcp] [--nics-per-node K] [--sharp]\n"
	  "nicfit calc step (--model ID | --params N) --gpu ID [--nodes N]\n"
	  "                [--gpus-per-node G] [--precision P]\n"
	  "                [--workload training|fine-tuning|inference|prefill]\n"
	  "                [--parallel auto|ddp|zero1|zero2|zero3|fsdp] [--tp T]\n"
	  "                [--pp P] [--ep E] [--batch-tokens N] [--concurrency C]\n"
	  "                [--context T] [--tflops X]\n"
	  "                [--disaggregated [--output-tokens T] [--requests-per-s R]\n"
	  "                 [--ttft-ms MS] [--tpot-ms MS]]\n"
	  "                [--link SPEED [--proto roce|ib|tcp] [--nics-per-node K]]\n"
	  "nicfit calc stream --tokens-per-s T [--concurrency C] [--link SPEED]\n"
	  "\n"
	  "Sizes: 40GB, 40GiB, or 70B (parameters; load and allreduce count --precision's\n"
	  "bytes for each, bf16's 2 unless told). Speeds: 10G, 25GbE, 100Gb/s, EDR, HDR,\n"
	  "NDR. Every assumption is listed in the output and can be changed with --assume\n"
	  "NAME=VALUE.",
	  FMT_TEXTUAL },
	{ "catalog", cmd_catalog, "list | show ID | check FILE: the parts nicfit plans with",
	  "nicfit catalog list [nics|cables|switches|servers|gpus|models]\n"
	  "nicfit catalog show ID\n"
	  "nicfit catalog check FILE...\n"
	  "\n"
	  "The default catalog is built in; --catalog FILE overlays your own entries and\n"
	  "prices (same id: fields replaced; new id: added). 'catalog list -j' prints a\n"
	  "file you can edit.",
	  FMT_TABLES },
	{ "cluster", cmd_cluster,
	  "switches, tiers, ports, cables and BOM for N servers",
	  "nicfit cluster (--nodes N | --gpus N | --server ID --racks N)\n"
	  "               [--server ID] [--gpus-per-node G]\n"
	  "               [--nics-per-node K] [--nic-ports P] [--nic-gbps S]\n"
	  "               [--nic PART] [--gpu ID]\n"
	  "               [--switch ID | --radix R [--switch-gbps S]]\n"
	  "               [--rail-optimized | --no-rail-optimized | --rail-only]\n"
	  "               [--oversubscription X] [--planes P] [--tiers T] [--breakout on|off]\n"
	  "               [--nodes-per-rack M] [--frontend on|off | --no-frontend]\n"
	  "               [--frontend-links 1|2] [--frontend-gbps S]\n"
	  "               [--frontend-switch ID | --frontend-radix R]\n"
	  "               [--frontend-oversubscription X] [--frontend-uplinks U]\n"
	  "               [--oob on|off | --no-oob]\n"
	  "               [--oob-switch ID | --oob-radix R] [--oob-uplinks U]\n"
	  "               [--mgmt-ports on|off]\n"
	  "               [--storage-gbps S --storage-nodes N\n"
	  "                [--storage-link-gbps S]\n"
	  "                [--storage-switch ID | --storage-radix R]\n"
	  "                [--storage-oversubscription X]\n"
	  "                [--checkpoint-tb TB --checkpoint-stall S]]\n"
	  "               [--assume NAME=VALUE]... [--spec FILE.json]\n"
	  "               [--port-map FILE.csv]\n"
	  "\n"
	  "Back end: K NICs per node (default: one per GPU) of P cabled ports, one to three\n"
	  "tiers of leaf, spine and core switches; --planes splits every node's ports over\n"
	  "independent fabrics. --server takes a catalog server's GPUs, built-in NICs and\n"
	  "north-south cards; --racks N counts whole racks of a rack-scale one (NVL72).\n"
	  "--format svg draws the fabric; --format csv prints the BOM.\n"
	  "Layout assumptions (rack_u, node_u, rack_pitch_m, row_pitch_m, racks_per_row,\n"
	  "switches_per_rack, slack_m, ...) set cable lengths; see 'man nicfit-cluster'.",
	  FMT_ALL },
	{ "decode", cmd_decode,
	  "explain a part number (ConnectX OPN, Intel adapter, catalog SKU)",
	  "nicfit decode [--rules] PART... | -\n"
	  "\n"
	  "  PART: a ConnectX OPN (MCX653105A-HDAT), an Intel adapter (X710-DA2) or a\n"
	  "  catalog id; '-' reads one per line from stdin; --rules ignores the catalog",
	  FMT_TABLES },
	{ "fleet", cmd_fleet,
	  "compare many hosts' audits and name the odd ones out",
	  "nicfit fleet [--expect N|HOSTLIST] [--ignore CODE[,CODE]]...\n"
	  "             [--all-hosts] [--strict] [--max-doc-mb N] [--dumps DIR]...\n"
	  "             [--output FILE] [FILE... | DIR | -]\n"
	  "\n"
	  "Reads `nicfit audit --json` documents: files, a directory of *.json, or one\n"
	  "stream as pdsh/clush ('host: ' lines), clush -b, srun --label or Ansible\n"
	  "(ad-hoc, or the json/jsonl callbacks) print it. Hosts are grouped by server\n"
	  "model, GPUs and NICs; within a group the hosts that differ from the majority are\n"
	  "named. Exit status: 0 clean, 1 warnings, 2 critical. --dumps DIR audits pasted\n"
	  "dumps instead, one entry of DIR per host (a directory of its lspci/nvidia-smi\n"
	  "output, or one file).\n"
	  "  pdsh -w 'gpu[01-64]' nicfit audit --json | nicfit fleet -\n"
	  "  srun -N 64 --ntasks-per-node=1 --label nicfit audit --json | nicfit fleet -\n"
	  "--format prom writes Prometheus metrics per host; --output FILE writes\n"
	  "atomically.",
	  FMT_TABLES | FMT(NICFIT_FMT_PROM) },
	{ "plan", cmd_plan,
	  "the network, NICs, slots, cables and BOM a server needs, and why",
	  "nicfit plan [--spec FILE.json] [--server ID] [--riser-config ID]\n"
	  "            [--servers N | --racks N] [--gpu ID] [--gpus-per-server N]\n"
	  "            [--model ID | --params N | --weights-gb X]\n"
	  "            [--precision fp16|bf16|fp8|int8|int4] [--context T]\n"
	  "            [--concurrency C]\n"
	  "            [--workload inference|replicated-inference|\n"
	  "                        multi-node-inference|training|fine-tuning|\n"
	  "                        rdma-storage]\n"
	  "            [--backend-nic PART] [--frontend-nic PART] [--backend-gbps N]\n"
	  "            [--backend-cards N] [--fabric auto|roce|spectrum-x|infiniband]\n"
	  "            [--switch ID] [--backend-slot NAME] [--frontend-slot NAME]\n"
	  "            [--storage-nics N] [--storage-gbps N] [--reloads-per-day N]\n"
	  "            [--tokens-per-s T] [--backend-size port|traffic]\n"
	  "            [--parallel auto|ddp|zero1|zero2|zero3|fsdp]\n"
	  "            [--batch-tokens N] [--assume NAME=VALUE]... [--explain]\n"
	  "            [--disaggregated [--prompt-tokens T] [--output-tokens T]\n"
	  "             [--requests-per-s R] [--ttft-ms MS] [--tpot-ms MS]\n"
	  "             [--prefill-servers N] [--kv-offload none|cpu|storage]\n"
	  "             [--prefill-gpus N] [--prefill-tp N] [--prefill-pp N] [--prefill-ep N]\n"
	  "             [--decode-gpus N] [--decode-tp N] [--decode-pp N] [--decode-ep N]\n"
	  "             [--kv-over auto|backend|storage]]\n"
	  "            [--checkpoint-every MIN] [--checkpoint-stall S]\n"
	  "            [--checkpoint-state full|weights] [--checkpoint-async]\n"
	  "            [--example[=NAME]] [--from-host | --sysfs DIR|FILE.tar.gz]\n"
	  "\n"
	  "--disaggregated plans prefill and decode pools on separate servers, each with\n"
	  "its own instance (--prefill-*, --decode-*), and the KV cache each request\n"
	  "moves between them, over the storage NICs when it fits them and no other GPU\n"
	  "traffic crosses servers, else over a back end (--kv-over); --checkpoint-*\n"
	  "size a training checkpoint's save on the storage network.\n"
	  "--from-host plans with this host (as nicfit audit sees it) as the server,\n"
	  "--sysfs with a snapshot of one. Examples from the reference article:\n"
	  "--example=inference, replicas, training, capped, gen4, lab, x710, split.\n"
	  "--format csv prints the bill of materials, md a ticket-ready report, svg the\n"
	  "server's slots.",
	  FMT_ALL },
	{ "serve", cmd_serve, "web configurator and JSON API on 127.0.0.1 (port option)",
	  "nicfit serve [--port P] [--bind ADDR]\n"
	  "             [--allow-audit [--sysfs DIR|FILE.tar.gz]] [--log]\n"
	  "             [--threads N] [--max-connections N] [--max-per-ip N]\n"
	  "             [--timeout S] [--cpu-budget MS] [--cache MB]\n"
	  "\n"
	  "Serves the page on http://127.0.0.1:8080/ and the API under /api (GET /api lists\n"
	  "it). --port 0 takes any free port; the address is printed on stderr. SIGINT or\n"
	  "SIGTERM stop the server after the requests in flight. --allow-audit answers GET\n"
	  "/api/audit with this host's audit (or of the tree --sysfs DIR names); without it\n"
	  "that route is off. A request past --cpu-budget of CPU is ended with 413;\n"
	  "answers to repeated plan, cluster, accept and calc requests are kept in --cache.",
	  FMT(NICFIT_FMT_TEXT) },
	{ "snapshot", cmd_snapshot,
	  "copy the sysfs files audit reads into a directory or a .tar.gz",
	  "nicfit snapshot [--sysfs DIR] DEST\n"
	  "\n"
	  "DEST is a new directory or an archive (FILE.tar.gz, .tar.xz, .tar.bz2, .tar).\n"
	  "Works without root and lists what it could not read. Audit the copy with nicfit\n"
	  "audit --sysfs DEST.",
	  FMT_TEXTUAL },
	{ "completion", cmd_completion, "bash | zsh | fish: the shell completion script",
	  "nicfit completion bash|zsh|fish\n"
	  "\n"
	  "Prints the completion script for the shell, generated from the option tables\n"
	  "that help and the option checks use: commands, subcommands, every option, and\n"
	  "values (formats, catalog ids, example names, finding codes). To load it:\n"
	  "  bash: source <(nicfit completion bash)\n"
	  "  zsh:  nicfit completion zsh > \"${fpath[1]}/_nicfit\"\n"
	  "  fish: nicfit completion fish > ~/.config/fish/completions/nicfit.fish",
	  FMT(NICFIT_FMT_TEXT) },
	/* any format here: cmd_help checks it against what the topic prints */
	{ "verify", cmd_verify,
	  "measured vs expected: nccl-tests, NCCL logs, perftest, iperf3",
	  "nicfit verify [--nic PART | --link SPEED | --sysfs DIR |--plan SPEC.json]\n"
	  "              [--proto tcp|roce|ib] [--nodes N] [--gpus-per-node G]\n"
	  "              [--nics-per-node K] [--low-ratio R] [--far-ratio R] FILE...\n"
	  "              | -\n"
	  "\n"
	  "Each input is recognised by content: an nccl-tests table (all_reduce_perf,\n"
	  "all_gather_perf, ...), an NCCL_DEBUG=INFO log, perftest (ib_write_bw,\n"
	  "ib_read_bw, ib_send_bw, ib_*_lat), iperf3 (text or --json) or an NCCL topology\n"
	  "dump. The ceiling comes from the link (--link or --nic; --sysfs takes the host's\n"
	  "RDMA cards, their PCIe paths and GPUs; --plan the back end nicfit plan chooses\n"
	  "for the request), the nodes and the NICs per node (default: what the log names,\n"
	  "else one per GPU). Verdict: as expected from --low-ratio (0.80) of the ceiling,\n"
	  "low from --far-ratio (0.50), far below under. Exit status: 0 as expected, 1 low\n"
	  "or warnings, 2 far below or broken.",
	  FMT_TEXTUAL },
	{ "help", cmd_help, "show help for nicfit or one command",
	  "nicfit help [COMMAND]\n"
	  "nicfit help findings\n"
	  "\n"
	  "'help findings' lists every finding code that plan, cluster, audit, fleet and\n"
	  "verify can report: its usual severity, the commands that raise it and what it\n"
	  "means. --ignore takes these codes. -j prints them as JSON, --format md as\n"
	  "docs/findings.md.",
	  FMT_ALL },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct cli_command *cli_find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

void cli_print_overview(FILE *f)
{
	size_t i;

	fprintf(f,
		"nicfit %s - what network an AI server or cluster needs, and whether\n"
		"the one it has is set up right.\n\n"
		"usage: nicfit [--json|-j] [--pretty|-p]\n"
		"              [--format text|json|md|csv|svg|prom|nhc|nfd|nccl-topo|catalog]\n"
		"              [--catalog FILE]... [--color[=auto|always|never] | --no-color]\n"
		"              [-o COLUMNS] [--noheadings] [--raw] COMMAND [ARGS]\n\n"
		"Commands:\n", NICFIT_VERSION);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'nicfit help COMMAND' shows a command's options; 'man nicfit' has the rest.\n"
		   "Exit codes: 0 ok (no problem found), 1 warnings, 2 critical findings, 3 nothing\n"
		   "to judge (audit, verify), 64 usage, 65 bad input data, 66 input not found,\n"
		   "70 internal error, 74 output not written.\n");
}

int cli_help_out(struct cli *c, const struct cli_command *cmd, const char *sub)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	if (cmd)
		cli_print_help(f, cmd, sub);
	else
		cli_print_overview(f);
	if (fclose(f)) {
		free(text);
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	}
	nicfit_buf_add(&c->out, text, len);
	free(text);
	return nicfit_buf_error(&c->out) ? cli_error(NICFIT_E_NOMEM, "out of memory") : 0;
}

const char *const *cli_command_names(void)
{
	static const char *names[NCOMMANDS + 1];
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	names[NCOMMANDS] = NULL;
	return names;
}

const char *cli_command_suggest(const char *typed)
{
	return nicfit_suggest(typed, cli_command_names());
}

/*
 * The command's summary and usage, then the options from the table: of
 * the subcommand when one is named (`nicfit help calc pcie`), else of the
 * command itself, else of each subcommand in turn.
 */
void cli_print_help(FILE *f, const struct cli_command *cmd, const char *sub)
{
	const struct cli_optset *set = sub ? cli_optset_find(cmd->name, sub) : NULL;
	const char *const *subs;
	size_t i;

	fprintf(f, "nicfit %s - %s\n\n", cmd->name, cmd->summary);
	cli_print_usage(f, cmd->usage);
	if (set) {
		cli_print_options(set, f);
		return;
	}
	cli_print_options(cli_optset_find(cmd->name, NULL), f);
	subs = cli_subcommands(cmd->name);
	for (i = 0; subs[i]; i++)
		cli_print_options(cli_optset_find(cmd->name, subs[i]), f);
}

int cli_check_format(const struct cli *c, const char *name, unsigned formats)
{
	static const char *const names[] = { "text", "json", "md", "csv", "svg", "prom", "nhc",
					     "nfd" };
	char can[96];
	size_t k = 0;
	int f;

	if (c->nccl_topo) {
		if (formats & FMT_NCCL_TOPO)
			return 0;
		return cli_error(NICFIT_E_USAGE, "%s has no nccl-topo output (audit writes it)", name);
	}
	if (c->host_catalog) {
		if (formats & FMT_CATALOG)
			return 0;
		return cli_error(NICFIT_E_USAGE, "%s has no catalog output (audit writes the host as a "
				 "server entry; catalog show --json prints an entry)", name);
	}
	if (!c->fmt_given || (formats & FMT(c->fmt)))
		return 0;
	can[0] = '\0';
	for (f = 0; f < (int)(sizeof(names) / sizeof(names[0])); f++)
		if (formats & FMT(f))
			k += (size_t)snprintf(can + k, sizeof(can) - k, "%s%s", k ? ", " : "",
					      names[f]);
	return cli_error(NICFIT_E_USAGE, "%s has no %s output (it prints %s)", name,
			 names[c->fmt], can);
}

/* ---- help findings: the registry of finding codes -------------------------- */

static const struct {
	unsigned bit;
	const char *name;
} engine_names[] = {
	{ NICFIT_ENGINE_PLAN, "plan" }, { NICFIT_ENGINE_CLUSTER, "cluster" },
	{ NICFIT_ENGINE_AUDIT, "audit" }, { NICFIT_ENGINE_FLEET, "fleet" },
	{ NICFIT_ENGINE_VERIFY, "verify" },
};

#define NENGINES (sizeof(engine_names) / sizeof(engine_names[0]))

static int by_code(const void *a, const void *b)
{
	const struct nicfit_code_info *x = *(const struct nicfit_code_info *const *)a;
	const struct nicfit_code_info *y = *(const struct nicfit_code_info *const *)b;

	return strcmp(x->code, y->code);
}

/* "plan, audit": the engines that raise a code, in the order plan, cluster, audit, fleet. */
static void engines_text(unsigned engines, char *out, size_t size)
{
	size_t i, k = 0;

	out[0] = '\0';
	for (i = 0; i < NENGINES; i++)
		if (engines & engine_names[i].bit && k < size)
			k += (size_t)snprintf(out + k, size - k, "%s%s", k ? ", " : "",
					      engine_names[i].name);
}

/*
 * The registry as a table (text) or a document (JSON, schema
 * nicfit.findings.v1), sorted by code so that the output does not depend
 * on the order the registry's files are listed in; Markdown is the
 * library's docs/findings.md, grouped by engine.
 */
static int help_findings(struct cli *c)
{
	static const struct nicfit_column cols[] = {
		{ "code", "code", 0 }, { "severity", "severity", 0 },
		{ "engines", "engines", 0 }, { "meaning", "meaning", 0 },
	};
	const struct nicfit_code_info *codes, **v;
	struct nicfit_emit *e;
	size_t i, j, n;

	if (c->fmt == NICFIT_FMT_MD) {
		int rc = nicfit_codes_render_md(&c->out);

		if (rc)
			return cli_error(rc, "cannot render the finding codes: %s",
					 nicfit_strerror(rc));
		return 0;
	}
	codes = nicfit_codes(&n);
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	for (i = 0; i < n; i++)
		v[i] = &codes[i];
	qsort(v, n, sizeof(*v), by_code);

	e = cli_emitter(c);
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.findings.v1");
	nicfit_emit_printf(e, "Finding codes (%zu): what plan, cluster, audit, fleet and verify report; "
			   "--ignore takes them.\n\n", n);
	nicfit_emit_begin_array(e, "codes");
	for (i = 0; i < n; i++) {
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "code", v[i]->code);
		nicfit_emit_string(e, "severity", nicfit_severity_name(v[i]->severity));
		nicfit_emit_begin_array(e, "engines");
		for (j = 0; j < NENGINES; j++)
			if (v[i]->engines & engine_names[j].bit)
				nicfit_emit_string(e, NULL, engine_names[j].name);
		nicfit_emit_end_array(e);
		nicfit_emit_string(e, "meaning", v[i]->meaning);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_columns(e, cols, 4); /* what -o may name, in JSON too */
	if (nicfit_emit_format(e) == NICFIT_FMT_TEXT) {
		nicfit_emit_table_begin(e, NULL, cols, 4);
		for (i = 0; i < n; i++) {
			char engines[64];

			engines_text(v[i]->engines, engines, sizeof(engines));
			nicfit_emit_cell_string(e, v[i]->code);
			nicfit_emit_cell_string(e, nicfit_severity_name(v[i]->severity));
			nicfit_emit_cell_string(e, engines);
			nicfit_emit_cell_string(e, v[i]->meaning);
		}
		nicfit_emit_table_end(e);
	}
	nicfit_emit_end_object(e);
	free(v);
	return cli_emit_done(c, e);
}

static int cmd_help(struct cli *c, int argc, char **argv)
{
	const struct cli_command *cmd;
	int rc;

	if (argc == 2 && !strcmp(argv[1], "findings")) {
		rc = cli_check_format(c, "help findings", FMT_TEXTUAL);
		return rc ? rc : help_findings(c);
	}
	rc = cli_check_format(c, "help", FMT(NICFIT_FMT_TEXT));
	if (rc)
		return rc;
	if (argc < 2) {
		return cli_help_out(c, NULL, NULL);
	}
	if (argc > 3)
		return cli_usage("help");
	cmd = cli_find(argv[1]);
	if (!cmd) {
		const char *near = cli_command_suggest(argv[1]);

		if (near)
			return cli_error(NICFIT_E_USAGE, "help: no command '%s' (did you mean '%s'?)",
					 argv[1], near);
		return cli_error(NICFIT_E_USAGE, "help: no command '%s' (see 'nicfit help')",
				 argv[1]);
	}
	if (argc == 3 && !cli_optset_find(cmd->name, argv[2]))
		return cli_error(NICFIT_E_USAGE, "help: %s has no subcommand '%s'", cmd->name,
				 argv[2]);
	return cli_help_out(c, cmd, argc == 3 ? argv[2] : NULL);
}
