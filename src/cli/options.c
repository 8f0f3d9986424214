/*
 * options.c - every command's options in one table (see options.h), and
 * what is derived from it: getopt_long arrays, the check of spec-style
 * arguments with "did you mean", and the "Options:" list of help.
 *
 * The getopt vals of audit, fleet, serve and snapshot are the constants
 * of cli.h (CLI_OPT_*), so that a handler's switch and this table cannot
 * drift apart silently: an option the table lacks is refused before the
 * handler sees it, and one the handler lacks reaches its default case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "nicfit/spec.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define REQ required_argument
#define NOARG no_argument
#define OPTARG optional_argument

static const struct cli_opt global_opts[] = {
	{ "json", 'j', NOARG, NULL, NULL, "print JSON (-j); -jp pretty-printed" },
	{ "pretty", 'p', NOARG, NULL, NULL, "indent JSON output" },
	{ "format", 0, REQ, "FMT", "@formats",
	  "text, json, md, csv, svg, prom, nhc, nfd, nccl-topo or catalog (what the command prints)" },
	{ "catalog", 0, REQ, "FILE", "@file", "overlay your own parts and prices (repeatable)" },
	{ "color", 0, OPTARG, "WHEN", "auto always never",
	  "colour: auto (a terminal, not TERM=dumb or NO_COLOR), always, never" },
	{ "no-color", 0, NOARG, NULL, NULL, "never colour the output (NO_COLOR does the same)" },
	{ "columns", 'o', REQ, "LIST", NULL,
	  "the columns tables show, in this order (-o part,qty), in text, CSV and JSON rows; an unknown one is an error" },
	{ "noheadings", 0, NOARG, NULL, NULL,
	  "text and CSV tables without their header line; text: only the rows on stdout, the rest on stderr" },
	{ "raw", 0, NOARG, NULL, NULL,
	  "text tables unaligned, one space between cells; only the rows on stdout, the rest on stderr" },
	{ "version", 'V', NOARG, NULL, NULL, "print the version and exit" },
	{ "help", 'h', NOARG, NULL, NULL, "show help (also after a command)" },
};

static const struct cli_opt audit_opts[] = {
	{ "sysfs", CLI_OPT_SYSFS, REQ, "DIR|FILE.tar.gz", "@file",
	  "audit a copy of sysfs (a directory holding sys/, or a snapshot archive)" },
	{ "all", CLI_OPT_ALL, NOARG, NULL, NULL, "list every PCI function, not only GPUs and NICs" },
	{ "ignore", CLI_OPT_IGNORE, REQ, "CODE[@DEVICE]", "@codes",
	  "leave a finding out (on one device with @DEVICE); repeatable" },
	{ "pci-ids", CLI_OPT_PCI_IDS, REQ, "FILE", "@file", "read device names from this pci.ids" },
	{ "no-pci-ids", CLI_OPT_NO_PCI_IDS, NOARG, NULL, NULL, "do not read pci.ids" },
	{ "assume", CLI_OPT_ASSUME, REQ, "NAME=VALUE", NULL, "change a PCIe assumption (see calc pcie)" },
	{ "plan", CLI_OPT_PLAN, REQ, "SPEC.json", "@file",
	  "judge the host against the plan for this request" },
	{ "dump", CLI_OPT_DUMP, REQ, "PATH", "@file",
	  "audit pasted lspci, nvidia-smi and ibv_devinfo output, or a sosreport" },
	{ "expect", CLI_OPT_EXPECT, REQ, "SPEC.json|AUDITS", "@file",
	  "what the host must have: a plan spec, or other hosts' audits (their majority)" },
	{ "output", CLI_OPT_OUTPUT, REQ, "FILE", "@file",
	  "write the report to FILE (a regular file replaced by rename; links, devices and "
	  "files with two names as nicfit-audit(1) says); - is stdout" },
	{ "nfd-expiry", CLI_OPT_NFD_EXPIRY, REQ, "S", NULL,
	  "--format nfd: NFD drops the labels S seconds after the audit (default 3600; 0 never)" },
	{ "trace-reads", CLI_OPT_TRACE_READS, NOARG, NULL, NULL,
	  "after the report, list on stderr each sysfs read: path, bytes, what it was for" },
};

static const struct cli_opt snapshot_opts[] = {
	{ "sysfs", CLI_OPT_SYSFS, REQ, "DIR", "@dir", "copy from this tree instead of the live /sys" },
};

static const struct cli_opt fleet_opts[] = {
	{ "expect", CLI_OPT_EXPECT, REQ, "N|HOSTLIST", NULL,
	  "the hosts that must be there (a count or a pdsh-style host list)" },
	{ "ignore", CLI_OPT_IGNORE, REQ, "CODE[,CODE]", "@codes", "leave these codes out; repeatable" },
	{ "all-hosts", CLI_OPT_ALL_HOSTS, NOARG, NULL, NULL, "list every host, not only the odd ones" },
	{ "strict", CLI_OPT_STRICT, NOARG, NULL, NULL, "treat unreadable input as critical" },
	{ "max-doc-mb", CLI_OPT_MAX_DOC, REQ, "N", NULL, "largest audit document to read (MiB)" },
	{ "dumps", CLI_OPT_DUMPS, REQ, "DIR", "@dir", "audit each host's dumps, an entry per host" },
	{ "output", CLI_OPT_OUTPUT, REQ, "FILE", "@file",
	  "write the report to FILE (a regular file replaced by rename; links, devices and "
	  "files with two names as nicfit-audit(1) says); - is stdout" },
};

static const struct cli_opt serve_opts[] = {
	{ "port", CLI_OPT_PORT, REQ, "P", NULL, "TCP port (default 8080; 0 takes any free port)" },
	{ "bind", CLI_OPT_BIND, REQ, "ADDR", NULL, "address to listen on (default 127.0.0.1)" },
	{ "allow-audit", CLI_OPT_ALLOW_AUDIT, NOARG, NULL, NULL, "answer GET /api/audit" },
	{ "sysfs", CLI_OPT_SYSFS, REQ, "DIR|FILE.tar.gz", "@file", "the tree /api/audit reads" },
	{ "log", CLI_OPT_LOG, NOARG, NULL, NULL, "log each request on stderr" },
	{ "threads", CLI_OPT_THREADS, REQ, "N", NULL, "worker threads" },
	{ "max-connections", CLI_OPT_MAX_CONN, REQ, "N", NULL, "connections at once" },
	{ "max-per-ip", CLI_OPT_MAX_PER_IP, REQ, "N", NULL, "connections at once from one address" },
	{ "timeout", CLI_OPT_TIMEOUT, REQ, "S", NULL, "seconds an idle or slow connection may take" },
	{ "cpu-budget", CLI_OPT_CPU_BUDGET, REQ, "MS", NULL,
	  "CPU milliseconds one request may use before it is ended with 413 (default 1000; 0 no limit)" },
	{ "cache", CLI_OPT_CACHE, REQ, "MB", NULL,
	  "memory for answers kept for repeated requests (default 32; 0 keeps none)" },
};

static const struct cli_opt verify_opts[] = {
	{ "nic", CLI_OPT_NIC, REQ, "PART", "@nics", "the back-end NIC the hosts have" },
	{ "link", CLI_OPT_LINK, REQ, "SPEED", NULL, "each NIC port's rate (100G, HDR, NDR...)" },
	{ "proto", CLI_OPT_PROTO, REQ, "P", "tcp roce ib", "what runs over the link" },
	{ "nodes", CLI_OPT_NODES, REQ, "N", NULL, "hosts in the run" },
	{ "gpus-per-node", CLI_OPT_GPUS_PER_NODE, REQ, "G", NULL, "GPUs per host" },
	{ "nics-per-node", CLI_OPT_NICS_PER_NODE, REQ, "K", NULL, "back-end NICs (rails) per host" },
	{ "low-ratio", CLI_OPT_LOW_RATIO, REQ, "X", NULL, "below X of the ceiling is low (default 0.80)" },
	{ "far-ratio", CLI_OPT_FAR_RATIO, REQ, "X", NULL,
	  "below X of the ceiling is far below (default 0.50)" },
	{ "sysfs", CLI_OPT_SYSFS, REQ, "DIR|FILE.tar.gz", "@file", "the ceiling from a host's snapshot" },
	{ "dump", CLI_OPT_DUMP, REQ, "PATH", "@file",
	  "the ceiling from a host's lspci/nvidia-smi/ibv_devinfo pastes; repeatable" },
	{ "plan", CLI_OPT_PLAN, REQ, "SPEC.json", "@file", "the ceiling from the plan for this request" },
	{ "max-size", CLI_OPT_MAX_SIZE, REQ, "BYTES", NULL,
	  "refuse an input larger than this (default: any size, read in one pass)" },
};

static const struct cli_opt accept_opts[] = {
	{ "spec", 0, REQ, "FILE.json", "@file", "the plan's request (plan's options override it)" },
	{ "example", 0, OPTARG, "NAME", "@examples", "one of plan's example requests" },
	{ "plan", 0, REQ, "PLAN.json", "@file", "a saved plan: the JSON nicfit plan -j wrote" },
	{ "sysfs", 0, REQ, "DIR|FILE.tar.gz", "@file", "an audited host (a snapshot) instead of a plan" },
	{ "dump", 0, REQ, "PATH", "@file", "an audited host from its pastes; repeatable" },
	{ "from-host", 0, NOARG, NULL, NULL, "this host, audited, instead of a plan" },
	{ "hosts", 0, REQ, "LIST", NULL, "the nodes' names (pdsh-style: gpu[01-32])" },
	{ "nodes", 0, REQ, "N", NULL, "copies of the audited host (default 2)" },
	{ "launcher", 0, REQ, "L", "mpirun srun", "what starts the all-reduce" },
	{ "read", 0, NOARG, NULL, NULL, "add ib_read_bw on each rail (storage initiators)" },
	{ "script", 0, NOARG, NULL, NULL, "write the runbook as a bash script" },
	{ "results", 0, REQ, "DIR", "@dir", "judge the outputs the script kept in DIR" },
};

static const struct cli_opt decode_opts[] = {
	{ "rules", 0, NOARG, NULL, NULL, "decode by the part-number rules alone, not the catalog" },
};

static const struct cli_opt plan_opts[] = {
	{ "spec", 0, REQ, "FILE.json", "@file", "read the request from a JSON object (options override it)" },
	{ "server", 0, REQ, "ID", "@servers", "the server model from the catalog" },
	{ "riser-config", 0, REQ, "ID", NULL, "the server's riser configuration (default: the one that holds the GPUs)" },
	{ "servers", 0, REQ, "N", NULL, "how many servers" },
	{ "racks", 0, REQ, "N", NULL, "or how many racks of a rack-scale system (NVL72)" },
	{ "gpu", 0, REQ, "ID", "@gpus", "the GPU model from the catalog" },
	{ "gpus-per-server", 0, REQ, "N", NULL, "GPUs in each server" },
	{ "model", 0, REQ, "ID", "@models", "the model to run, from the catalog" },
	{ "params", 0, REQ, "N", NULL, "or its size in parameters (70B, 8e9)" },
	{ "weights-gb", 0, REQ, "X", NULL, "or the size of its weights in GB" },
	{ "precision", 0, REQ, "P", "fp32 fp16 bf16 fp8 int8 int4", "weights' precision" },
	{ "context", 0, REQ, "T", NULL, "context length in tokens" },
	{ "concurrency", 0, REQ, "C", NULL, "requests served at once" },
	{ "tokens-per-s", 0, REQ, "T", NULL, "generated tokens per second the front end carries" },
	{ "workload", 0, REQ, "W",
	  "inference replicated-inference multi-node-inference training fine-tuning rdma-storage",
	  "what the servers do" },
	{ "backend-nic", 0, REQ, "PART", "@nics", "force the back-end card" },
	{ "frontend-nic", 0, REQ, "PART", "@nics", "force the front-end card" },
	{ "backend-gbps", 0, REQ, "N", NULL, "back-end bandwidth each server needs" },
	{ "backend-cards", 0, REQ, "N", NULL, "back-end cards per server" },
	{ "backend-slot", 0, REQ, "NAME", NULL, "put the back-end card in this slot" },
	{ "frontend-slot", 0, REQ, "NAME", NULL, "put the front-end card in this slot" },
	{ "storage-nics", 0, REQ, "N", NULL, "storage/in-band cards per server" },
	{ "backend-size", 0, REQ, "HOW", "port traffic",
	  "port: the fastest speed the slot feeds; traffic: the cheapest that hides the traffic" },
	{ "parallel", 0, REQ, "P", "auto ddp zero1 zero2 zero3 fsdp", "data parallelism of training" },
	{ "batch-tokens", 0, REQ, "N", NULL, "tokens in one global batch" },
	{ "disaggregated", 0, NOARG, NULL, NULL, "prefill and decode on separate pools of servers" },
	{ "prompt-tokens", 0, REQ, "T", NULL, "prompt length of a request (default: --context)" },
	{ "output-tokens", 0, REQ, "T", NULL, "tokens generated per request (default 1024)" },
	{ "requests-per-s", 0, REQ, "R", NULL, "target requests per second for the pools" },
	{ "ttft-ms", 0, REQ, "MS", NULL, "time-to-first-token target (default 2000)" },
	{ "tpot-ms", 0, REQ, "MS", NULL, "time-per-output-token target (default 200)" },
	{ "prefill-servers", 0, REQ, "N", NULL, "servers of the prefill pool (default: chosen)" },
	{ "prefill-gpus", 0, REQ, "N", NULL, "GPUs of one prefill instance (default: R1's)" },
	{ "prefill-tp", 0, REQ, "N", NULL, "tensor parallel of a prefill instance" },
	{ "prefill-pp", 0, REQ, "N", NULL, "pipeline parallel of a prefill instance" },
	{ "prefill-ep", 0, REQ, "N", NULL, "expert parallel of a prefill instance" },
	{ "decode-gpus", 0, REQ, "N", NULL, "GPUs of one decode instance (default: R1's)" },
	{ "decode-tp", 0, REQ, "N", NULL, "tensor parallel of a decode instance" },
	{ "decode-pp", 0, REQ, "N", NULL, "pipeline parallel of a decode instance" },
	{ "decode-ep", 0, REQ, "N", NULL, "expert parallel of a decode instance" },
	{ "kv-over", 0, REQ, "NICS", "auto backend storage",
	  "the NICs the KV cache crosses (auto: the storage NICs when it fits them)" },
	{ "kv-offload", 0, REQ, "TO", "none cpu storage", "where the KV cache is offloaded" },
	{ "checkpoint-every", 0, REQ, "MIN", NULL, "minutes between training checkpoints" },
	{ "checkpoint-stall", 0, REQ, "S", NULL, "seconds a checkpoint save may stall training" },
	{ "checkpoint-state", 0, REQ, "WHAT", "full weights", "what a checkpoint saves" },
	{ "checkpoint-async", 0, NOARG, NULL, NULL,
	  "saves copy to host memory and write behind training (PyTorch DCP async_save)" },
	{ "fabric", 0, REQ, "F", "auto roce spectrum-x infiniband", "the back-end fabric" },
	{ "switch", 0, REQ, "ID", "@switches", "the back-end switch from the catalog" },
	{ "storage-gbps", 0, REQ, "N", NULL, "storage bandwidth the weights load at" },
	{ "reloads-per-day", 0, REQ, "N", NULL, "how often the weights are loaded" },
	{ "assume", 0, REQ, "NAME=VALUE", NULL, "change an assumption (listed by --explain)" },
	{ "explain", 0, NOARG, NULL, NULL, "show every rule, formula and assumption" },
	{ "example", 0, OPTARG, "NAME", "@examples", "plan one of the article's examples (--example=NAME)" },
	{ "from-host", 0, NOARG, NULL, NULL, "plan with this host (as audit sees it) as the server" },
	{ "sysfs", 0, REQ, "DIR|FILE.tar.gz", "@file", "plan with a snapshot of a host as the server" },
};

static const struct cli_opt cluster_opts[] = {
	{ "nodes", 0, REQ, "N", NULL, "servers (or give --gpus or --racks)" },
	{ "server", 0, REQ, "ID", "@servers", "the nodes' server from the catalog: its GPUs and built-in NICs" },
	{ "racks", 0, REQ, "N", NULL, "or how many racks of a rack-scale --server (NVL72)" },
	{ "gpus", 0, REQ, "N", NULL, "GPUs in all (nodes = GPUs / GPUs per node)" },
	{ "gpus-per-node", 0, REQ, "G", NULL, "GPUs per server (default 8)" },
	{ "nics-per-node", 0, REQ, "K", NULL, "back-end NICs per server (default one per GPU)" },
	{ "nic-ports", 0, REQ, "P", NULL, "cabled ports per back-end NIC (default 1)" },
	{ "nic-gbps", 0, REQ, "S", NULL, "rate of a back-end port (100G, 400GbE, NDR...)" },
	{ "nic", 0, REQ, "PART", "@nics", "back-end NIC from the catalog" },
	{ "gpu", 0, REQ, "ID", "@gpus", "the nodes' GPU: its maker's collective library in the advice" },
	{ "switch", 0, REQ, "ID", "@switches", "back-end switch from the catalog" },
	{ "radix", 0, REQ, "R", NULL, "or a generic switch of R ports" },
	{ "switch-gbps", 0, REQ, "S", NULL, "the generic switch's port rate" },
	{ "rail-optimized", 0, NOARG, NULL, NULL, "link i of every node on rail i" },
	{ "no-rail-optimized", 0, NOARG, NULL, NULL, "no rails (an 8-GPU baseboard node has them by default)" },
	{ "rail-only", 0, NOARG, NULL, NULL, "one switch per rail, no spines" },
	{ "oversubscription", 0, REQ, "X", NULL, "leaf down:up bandwidth, X or A:B, 0.5 to 64 (default 1)" },
	{ "planes", 0, REQ, "P", NULL, "independent back-end fabrics" },
	{ "tiers", 0, REQ, "T", NULL, "use at least T tiers (1 to 3)" },
	{ "breakout", 0, REQ, "on|off", "on off", "split faster switch ports (default on)" },
	{ "nodes-per-rack", 0, REQ, "M", NULL, "servers per compute rack (default 4)" },
	{ "frontend", 0, REQ, "on|off", "on off", "the front-end network (default on)" },
	{ "no-frontend", 0, NOARG, NULL, NULL, "no front-end network" },
	{ "frontend-links", 0, REQ, "N", "1 2", "front-end links per node" },
	{ "frontend-gbps", 0, REQ, "S", NULL, "front-end link rate (default 25)" },
	{ "frontend-switch", 0, REQ, "ID", "@switches", "front-end switch from the catalog" },
	{ "frontend-radix", 0, REQ, "R", NULL, "or a generic front-end switch of R ports" },
	{ "frontend-oversubscription", 0, REQ, "X", NULL, "front-end leaf down:up bandwidth, X or A:B" },
	{ "oob", 0, REQ, "on|off", "on off", "the out-of-band management network (default on)" },
	{ "no-oob", 0, NOARG, NULL, NULL, "no OOB network" },
	{ "oob-switch", 0, REQ, "ID", "@switches", "OOB switch from the catalog" },
	{ "oob-radix", 0, REQ, "R", NULL, "or a generic OOB switch of R ports" },
	{ "oob-uplinks", 0, REQ, "U", NULL, "uplinks of each OOB leaf" },
	{ "frontend-uplinks", 0, REQ, "U", NULL,
	  "uplinks of each top front-end switch to a pair of border switches" },
	{ "storage-gbps", 0, REQ, "S", NULL, "storage bandwidth each node needs (Gb/s)" },
	{ "checkpoint-tb", 0, REQ, "TB", NULL, "a training checkpoint's size (plan's checkpoint.bytes)" },
	{ "checkpoint-stall", 0, REQ, "S", NULL, "seconds its save may take: sizes the storage network" },
	{ "storage-nodes", 0, REQ, "N", NULL, "storage servers on the storage fabric" },
	{ "storage-link-gbps", 0, REQ, "S", NULL, "rate of a storage port (default 200)" },
	{ "storage-switch", 0, REQ, "ID", "@switches", "storage switch from the catalog" },
	{ "storage-radix", 0, REQ, "R", NULL, "or a generic storage switch of R ports" },
	{ "storage-oversubscription", 0, REQ, "X", NULL, "storage leaf down:up bandwidth, X or A:B (default 1)" },
	{ "mgmt-ports", 0, REQ, "on|off", "on off", "cable every switch's management port" },
	{ "assume", 0, REQ, "NAME=VALUE", NULL, "change a layout assumption (rack_u, slack_m...)" },
	{ "spec", 0, REQ, "FILE.json", "@file", "read the settings from a JSON object" },
	{ "port-map", 0, REQ, "FILE.csv", "@file", "write every link to a CSV file" },
};

#define CALC_ASSUME { "assume", 0, REQ, "NAME=VALUE", NULL, "change an assumption (listed in the output)" }
#define CALC_PROTO(h) { "proto", 0, REQ, "P", "tcp roce ib", h }

static const struct cli_opt calc_pcie_opts[] = {
	{ "gen", 0, REQ, "G", "1 2 3 4 5 6", "PCIe generation" },
	{ "width", 0, REQ, "W", "1 2 4 8 16", "lanes" },
	{ "slot", 0, REQ, "genGxW", NULL, "or both as gen3x16" },
	{ "mps", 0, REQ, "B", "128 256 512", "MaxPayload in bytes" },
	CALC_ASSUME,
};

static const struct cli_opt calc_link_opts[] = {
	{ "speed", 0, REQ, "S", NULL, "link rate (25G, 100GbE, HDR, NDR...)" },
	CALC_PROTO("what runs over it"),
	{ "mtu", 0, REQ, "M", NULL, "MTU in bytes" },
	CALC_ASSUME,
};

static const struct cli_opt calc_nic_opts[] = {
	{ "part", 0, REQ, "PART", "@nics", "the card" },
	{ "slot", 0, REQ, "genGxW", NULL,
	  "the slot it sits in (gen3x16); a Socket Direct card: each of its links' slots" },
	{ "ports", 0, REQ, "N", NULL, "ports in use" },
	CALC_PROTO("what runs over it"),
	CALC_ASSUME,
};

static const struct cli_opt calc_load_opts[] = {
	{ "size", 0, REQ, "SIZE", NULL, "what is loaded (40GB, 70B parameters)" },
	{ "precision", 0, REQ, "P", "fp32 fp16 bf16 fp8 int8 int4",
	  "a SIZE in parameters: bytes of each (default bf16, 2 B)" },
	{ "link", 0, REQ, "SPEED", NULL, "the link it crosses" },
	{ "storage-gbps", 0, REQ, "N", NULL, "what the storage can give" },
	CALC_PROTO("what runs over it"),
	{ "mtu", 0, REQ, "M", NULL, "MTU in bytes" },
	CALC_ASSUME,
};

static const struct cli_opt calc_fit_opts[] = {
	{ "model", 0, REQ, "ID", "@models", "the model from the catalog" },
	{ "params", 0, REQ, "N", NULL, "or its size in parameters" },
	{ "precision", 0, REQ, "P", "fp32 fp16 bf16 fp8 int8 int4", "weights' precision" },
	{ "gpus", 0, REQ, "NxGPU", NULL, "the GPUs (2xa40)" },
	{ "context", 0, REQ, "T", NULL, "context length in tokens" },
	{ "concurrency", 0, REQ, "C", NULL, "requests at once" },
	{ "gpus-per-node", 0, REQ, "G", NULL, "GPUs per node, for the layout (default 8)" },
	CALC_ASSUME,
};

static const struct cli_opt calc_allreduce_opts[] = {
	{ "size", 0, REQ, "SIZE", NULL, "what is reduced (16GB, or 8B parameters)" },
	{ "precision", 0, REQ, "P", "fp32 fp16 bf16 fp8 int8 int4",
	  "a SIZE in parameters: bytes of each gradient (default bf16, 2 B)" },
	{ "nodes", 0, REQ, "N", NULL, "servers in the ring" },
	{ "link", 0, REQ, "SPEED", NULL, "each NIC's rate" },
	CALC_PROTO("the transport"),
	{ "nics-per-node", 0, REQ, "K", NULL, "back-end NICs per server" },
	{ "mtu", 0, REQ, "M", NULL, "MTU in bytes" },
	{ "sharp", 0, NOARG, NULL, NULL, "the InfiniBand switches reduce in the network (SHARP)" },
	CALC_ASSUME,
};

static const struct cli_opt calc_step_opts[] = {
	{ "model", 0, REQ, "ID", "@models", "the model from the catalog" },
	{ "params", 0, REQ, "N", NULL, "or its size in parameters" },
	{ "precision", 0, REQ, "P", "fp32 fp16 bf16 fp8 int8 int4", "weights' precision" },
	{ "gpu", 0, REQ, "ID", "@gpus", "the GPU model from the catalog" },
	{ "nodes", 0, REQ, "N", NULL, "servers" },
	{ "gpus-per-node", 0, REQ, "G", NULL, "GPUs per server" },
	{ "workload", 0, REQ, "W", "training fine-tuning inference decode prefill",
	  "what the step does" },
	{ "parallel", 0, REQ, "P", "auto ddp zero1 zero2 zero3 fsdp", "data parallelism" },
	{ "tp", 0, REQ, "T", NULL, "tensor-parallel degree" },
	{ "pp", 0, REQ, "P", NULL, "pipeline-parallel degree" },
	{ "ep", 0, REQ, "E", NULL, "expert-parallel degree" },
	{ "batch-tokens", 0, REQ, "N", NULL, "tokens in one global batch" },
	{ "concurrency", 0, REQ, "C", NULL, "requests decoded at once (inference)" },
	{ "context", 0, REQ, "T", NULL, "context length in tokens" },
	{ "tflops", 0, REQ, "X", NULL, "the GPU's dense TFLOPS when the catalog has none" },
	{ "link", 0, REQ, "SPEED", NULL, "each back-end NIC's rate" },
	CALC_PROTO("the transport"),
	{ "nics-per-node", 0, REQ, "K", NULL, "back-end NICs per server" },
	{ "disaggregated", 0, NOARG, NULL, NULL,
	  "prefill: the prompts' KV cache goes to other (decode) nodes" },
	{ "output-tokens", 0, REQ, "T", NULL, "disaggregated pools: tokens generated per request" },
	{ "requests-per-s", 0, REQ, "R", NULL, "disaggregated pools: target requests per second" },
	{ "ttft-ms", 0, REQ, "MS", NULL, "disaggregated pools: time-to-first-token target" },
	{ "tpot-ms", 0, REQ, "MS", NULL, "disaggregated pools: time-per-output-token target" },
	CALC_ASSUME,
};

static const struct cli_opt calc_stream_opts[] = {
	{ "tokens-per-s", 0, REQ, "T", NULL, "tokens per second generated" },
	{ "concurrency", 0, REQ, "C", NULL, "streams at once" },
	{ "link", 0, REQ, "SPEED", NULL, "the front-end link" },
	CALC_ASSUME,
};

#define SET(c, s, o, a) { c, s, o, N(o), a }
#define NONE(c, s, a) { c, s, NULL, 0, a }

static const struct cli_optset sets[] = {
	SET("accept", NULL, accept_opts, NULL),
	SET("audit", NULL, audit_opts, NULL),
	NONE("calc", NULL, "pcie link nic load fit allreduce step stream"),
	SET("calc", "pcie", calc_pcie_opts, NULL),
	SET("calc", "link", calc_link_opts, NULL),
	SET("calc", "nic", calc_nic_opts, NULL),
	SET("calc", "load", calc_load_opts, NULL),
	SET("calc", "fit", calc_fit_opts, NULL),
	SET("calc", "allreduce", calc_allreduce_opts, NULL),
	SET("calc", "step", calc_step_opts, NULL),
	SET("calc", "stream", calc_stream_opts, NULL),
	NONE("catalog", NULL, "list show check"),
	NONE("catalog", "list", "nics cables switches servers gpus models"),
	NONE("catalog", "show", "@ids"),
	NONE("catalog", "check", "@file"),
	SET("cluster", NULL, cluster_opts, NULL),
	SET("decode", NULL, decode_opts, "@ids"),
	SET("fleet", NULL, fleet_opts, "@file"),
	SET("plan", NULL, plan_opts, NULL),
	SET("serve", NULL, serve_opts, NULL),
	SET("snapshot", NULL, snapshot_opts, "@file"),
	SET("verify", NULL, verify_opts, "@file"),
	NONE("completion", NULL, "bash zsh fish"),
	NONE("help", NULL, "@commands"),
};

static const struct cli_optset globals = { "nicfit", NULL, global_opts, N(global_opts), "@commands" };

const struct cli_optset *cli_optsets(size_t *n)
{
	*n = N(sets);
	return sets;
}

const struct cli_optset *cli_global_opts(void)
{
	return &globals;
}

const struct cli_optset *cli_optset_find(const char *cmd, const char *sub)
{
	size_t i;

	for (i = 0; i < N(sets); i++)
		if (!strcmp(sets[i].cmd, cmd) &&
		    (sub ? sets[i].sub && !strcmp(sets[i].sub, sub) : !sets[i].sub))
			return &sets[i];
	return NULL;
}

const char *const *cli_subcommands(const char *cmd)
{
	static const char *subs[N(sets) + 1];
	size_t i, n = 0;

	for (i = 0; i < N(sets); i++)
		if (sets[i].sub && !strcmp(sets[i].cmd, cmd))
			subs[n++] = sets[i].sub;
	subs[n] = NULL;
	return subs;
}

const struct option *cli_longopts(const char *cmd)
{
	/* one array per set, filled on first use (the CLI is single-threaded) */
	static struct option built[N(sets)][80];
	static int ready[N(sets)];
	const struct cli_optset *set = cli_optset_find(cmd, NULL);
	size_t k, j;

	if (!set)
		return NULL;
	k = (size_t)(set - sets);
	if (!ready[k]) {
		for (j = 0; j < set->nopts && j + 1 < N(built[k]); j++) {
			built[k][j].name = set->opts[j].name;
			built[k][j].has_arg = set->opts[j].arg;
			built[k][j].flag = NULL;
			built[k][j].val = set->opts[j].val;
		}
		memset(&built[k][j], 0, sizeof(built[k][j]));
		ready[k] = 1;
	}
	return built[k];
}

static const struct cli_opt *find_opt(const struct cli_optset *set, const char *name, size_t len)
{
	size_t i;

	for (i = 0; set && i < set->nopts; i++)
		if (strlen(set->opts[i].name) == len && !strncmp(set->opts[i].name, name, len))
			return &set->opts[i];
	return NULL;
}

const char *cli_opt_suggest(const struct cli_optset *set, const char *typed)
{
	static char shown[72];
	const char *names[64 + 1], *near;
	char word[64];
	size_t i, n = 0;

	while (*typed == '-')
		typed++;
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(typed, "="), typed);
	for (i = 0; set && i < set->nopts && n < 64; i++)
		names[n++] = set->opts[i].name;
	names[n] = NULL;
	near = n ? nicfit_suggest(word, names) : NULL;
	if (!near)
		return NULL;
	snprintf(shown, sizeof(shown), "--%s", near);
	return shown;
}

static const char *set_name(const struct cli_optset *set, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s", set->cmd, set->sub ? " " : "", set->sub ? set->sub : "");
	return buf;
}

int cli_check_args(const struct cli_optset *set, int argc, char **argv, int first)
{
	char name[40];
	int i;

	for (i = first; i < argc; i++) {
		const char *a = argv[i], *near;
		const struct cli_opt *o;
		size_t len;

		if (a[0] != '-' || a[1] != '-' || !a[2])
			continue;  /* positional, or a value: the handler judges it */
		len = strcspn(a + 2, "=");
		o = find_opt(set, a + 2, len);
		if (!o) {
			near = cli_opt_suggest(set, a);
			if (near)
				return cli_error(NICFIT_E_USAGE, "%s: unknown option '%.*s' (did you mean '%s'?)",
						 set_name(set, name, sizeof(name)), (int)len + 2, a, near);
			cli_error(NICFIT_E_USAGE, "%s: unknown option '%.*s' (see 'nicfit help %s')",
				  set_name(set, name, sizeof(name)), (int)len + 2, a, set->cmd);
			return nicfit_exit_code(NICFIT_E_USAGE);
		}
		if (a[2 + len] == '=')
			continue;
		if (o->arg == REQ) {
			if (i + 1 >= argc)
				return cli_error(NICFIT_E_USAGE, "%s: --%s needs a value (%s)",
						 set_name(set, name, sizeof(name)), o->name, o->metavar);
			i++;
		} else if (o->arg == OPTARG && i + 1 < argc && argv[i + 1][0] != '-') {
			/* getopt's rule: an optional value is attached with '=' */
			return cli_error(NICFIT_E_USAGE, "%s: write --%s=%.32s (an optional value "
					 "takes '=')", set_name(set, name, sizeof(name)), o->name,
					 argv[i + 1]);
		}
	}
	return 0;
}

/* Print text from column `indent`, words wrapped before column 80. */
static void wrapped(FILE *f, const char *text, int indent, int col)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, " ");

		if (col > indent && col + 1 + (int)len > 79) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)len, p);
		col += (int)len;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

void cli_print_options(const struct cli_optset *set, FILE *f)
{
	size_t i;

	if (!set || !set->nopts)
		return;
	fprintf(f, "\nOptions%s%s:\n", set->sub ? " of " : "", set->sub ? set->sub : "");
	for (i = 0; i < set->nopts; i++) {
		const struct cli_opt *o = &set->opts[i];
		char lead[64];

		snprintf(lead, sizeof(lead), "--%s%s%s%s", o->name,
			 o->arg == OPTARG ? "[=" : o->metavar ? " " : "",
			 o->metavar ? o->metavar : "", o->arg == OPTARG ? "]" : "");
		if (strlen(lead) > 24) {
			fprintf(f, "  %s\n%28s", lead, "");
		} else {
			fprintf(f, "  %-24s  ", lead);
		}
		wrapped(f, o->help, 28, 28);
	}
}
