/*
 * nicfit/accept.h - the day-1 acceptance runbook of a delivered system, and
 * its results judged.
 *
 * A system is what a plan bought or what an audited host has: nodes, GPUs
 * a node, back-end rails (HCA, link, the GPU each rail serves), the front
 * end and the storage network. nicfit_accept_build() turns it into stages
 * in the order a burn-in runs them (NVLink inside each node, each rail
 * between pairs of nodes from GPU memory, the all-reduce over every node,
 * the front end, GPUDirect Storage), each stage with what it proves and
 * its band: the ceiling the formulas of physics/ and verify/ give, the
 * typical line (at or above it the step passes) and the broken line
 * (below it something is broken), each with its formula and the source of
 * any empirical factor. Each stage has steps: one command (or a server
 * and a client) on named hosts, writing one result file.
 *
 * nicfit_accept_judge() reads a results directory (the files the script
 * wrote, by step name) with verify's readers and judges every step
 * against its band; the report lists failing steps first with their
 * likeliest causes and the next command to run, and sums up per host and
 * per rail so that the odd host out is named.
 *
 *	struct nicfit_accept *a;
 *	nicfit_accept_new(&sys, &a, &err);          (the system, filled by the caller
 *	                                              or nicfit_accept_system_from_*)
 *	nicfit_accept_judge(a, "results/", &err);   (optional)
 *	nicfit_accept_render(a, e);  or  nicfit_accept_script(a, &buf);
 *	rc = nicfit_accept_exit_code(a);
 *	nicfit_accept_free(a);
 *
 * The runbook owns everything it holds (a copy of the system included);
 * pointers into it live until nicfit_accept_free().
 */
#ifndef NICFIT_ACCEPT_H
#define NICFIT_ACCEPT_H

#include <stddef.h>

#include "nicfit/buf.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "nicfit/host.h"
#include "nicfit/spec.h"
#include "nicfit/units.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nicfit_catalog;

/* Nodes a runbook covers at most, rails a node, and a name's length. */
#define NICFIT_ACCEPT_MAX_NODES 4096
#define NICFIT_ACCEPT_MAX_RAILS 16
#define NICFIT_ACCEPT_NAME_MAX 64

enum nicfit_accept_launcher { NICFIT_ACCEPT_MPIRUN, NICFIT_ACCEPT_SRUN };

/* What is being accepted. Zero fields are unknown (the stage that needs them is left out). */
struct nicfit_accept_system {
	char title[256];            /* "2 x Dell PowerEdge R740xd, plan ..." */
	const char *from;           /* "plan", "host" */
	int nodes;
	char (*hosts)[NICFIT_ACCEPT_NAME_MAX];  /* nodes names (owned by the caller until
						 * nicfit_accept_new copies them) */
	int gpus_per_node;
	char gpu[96];               /* the GPU's catalog name, "" unknown */
	int amd;                    /* AMD GPUs: rccl-tests, --use_rocm */
	double nvlink_gbs;          /* a GPU's NVLink, both directions, GB/s; 0 none */
	int nvswitch;               /* every GPU of a node in one NVLink switch domain */
	char gpu_source[96];        /* where nvlink_gbs comes from ("catalog h100-sxm5") */
	int rails;                  /* back-end NICs (ports in use) a node; 0 none */
	char hca[NICFIT_ACCEPT_MAX_RAILS][32];  /* each rail's RDMA device */
	int rail_gpu[NICFIT_ACCEPT_MAX_RAILS];  /* the GPU nearest each rail, -1 unknown */
	int hca_assumed;            /* HCA names are the driver's order, not read */
	char rail_bdf[NICFIT_ACCEPT_MAX_RAILS][16];     /* an audited host: each rail's card and */
	char rail_gpu_bdf[NICFIT_ACCEPT_MAX_RAILS][16]; /* GPU, as its findings name them; "" */
	struct nicfit_speed link;   /* one rail's rate */
	int ib;                     /* InfiniBand (else RoCE v2) */
	double rail_pcie_gbps;      /* a rail's PCIe share when narrower than its port, 0 none */
	char rail_part[64];         /* the back-end card, "" unknown */
	double fe_port_gbps;        /* the front-end port, 0 none */
	char fe_part[96];
	double st_gbps;             /* storage network a node (TCP goodput), 0 none */
	char st_part[96];
	double gpu_pcie_gbps;       /* a GPU's own PCIe link (effective, one direction), 0 unknown */
	int gpu_pcie_gen, gpu_pcie_width;
	enum nicfit_accept_launcher launcher;
	int read;                   /* add ib_read_bw on each rail of the first pair (--read) */
};

enum nicfit_accept_kind {
	NICFIT_ACCEPT_NVLINK,       /* all_reduce_perf on one node's GPUs */
	NICFIT_ACCEPT_RAIL_WRITE,   /* ib_write_bw, one rail between two nodes, GPU memory */
	NICFIT_ACCEPT_RAIL_READ,    /* ib_read_bw, the same, first pair only (sys.read) */
	NICFIT_ACCEPT_ALLREDUCE,    /* all_reduce_perf over every node, NCCL_ALGO=Ring */
	NICFIT_ACCEPT_FRONTEND,     /* iperf3 -P between two nodes */
	NICFIT_ACCEPT_STORAGE       /* gdsio, GPUDirect Storage read on one GPU */
};

/* "nvlink", "rail-write", "rail-read", "allreduce", "frontend", "storage". */
const char *nicfit_accept_kind_name(enum nicfit_accept_kind k);

enum nicfit_accept_status {
	NICFIT_ACCEPT_NOT_JUDGED = 0,   /* no results read */
	NICFIT_ACCEPT_PASS,             /* at or above the typical line */
	NICFIT_ACCEPT_LOW,              /* below typical, above broken */
	NICFIT_ACCEPT_BROKEN,           /* below the broken line, or no figure in the output */
	NICFIT_ACCEPT_MISSING           /* no result file */
};

/* "not judged", "pass", "low", "broken", "missing". */
const char *nicfit_accept_status_name(enum nicfit_accept_status s);

struct nicfit_accept_band {
	double ceiling_gbps;        /* what the hardware carries at most (the formula) */
	double typical_gbps;        /* at or above: within band */
	double broken_gbps;         /* below: something is broken */
	double nvls_gbps;           /* NVLink: what NVLS reaches (NVIDIA's figure scaled), 0 none */
	char *formula;              /* the ceiling's arithmetic */
	const char *lines;          /* where the typical and broken lines come from */
	const char *source;         /* the empirical factor's source, NULL none */
	int busbw;                  /* figures are nccl-tests busbw (shown in GB/s) */
};

struct nicfit_accept_stage {
	enum nicfit_accept_kind kind;
	const char *title;
	const char *proves;
	struct nicfit_accept_band band;
	size_t first, nsteps;       /* its steps in nicfit_accept.steps */
};

struct nicfit_accept_step {
	size_t stage;
	char name[160];             /* the result file's stem: "rail-write-node01-node02-r0" */
	int a, b;                   /* hosts (index), b -1: one host or the launcher */
	int rail, gpu;              /* -1 none */
	int round;                  /* a two-node step's round: 1 (all pairs, or the ring),
				     * 2 (the bisection round after a ring); 0 one host */
	char *server;               /* a pair's first command (on a), NULL none */
	char *command;              /* the command whose output is judged (on b, or a) */
	/* the judgement */
	enum nicfit_accept_status status;
	double measured_gbps;       /* < 0 none */
	double ratio;               /* measured / ceiling */
	char *what;                 /* what was measured ("peak busbw 46.1 GB/s ...") */
	char *causes;               /* likeliest causes, one per line, NULL none */
	char *next;                 /* the next command to run, NULL none */
};

/*
 * Where the pairs of one rail put a fault: a host that fails in two or
 * more of its pairs (its port, cable or GPUDirect path), the route
 * between two hosts that pass with every other, or a pair that cannot
 * be told apart (its other pairs not run, or one pair in all).
 */
enum nicfit_accept_fault {
	NICFIT_ACCEPT_FAULT_HOST,   /* host */
	NICFIT_ACCEPT_FAULT_ROUTE,  /* a and b: both pass their other pairs */
	NICFIT_ACCEPT_FAULT_EITHER  /* a or b: nothing tells them apart */
};

struct nicfit_accept_isolated {
	int rail;
	enum nicfit_accept_fault fault;
	int host;                   /* FAULT_HOST: the host; else -1 */
	int a, b;                   /* the pair (ROUTE, EITHER); -1 for HOST */
	int failed, pairs;          /* HOST: its failing pairs on the rail, of its pairs */
	int round;                  /* the round that names it (1, 2), 0 none */
};

struct nicfit_accept {
	struct nicfit_accept_system sys;
	char (*hosts)[NICFIT_ACCEPT_NAME_MAX];
	struct nicfit_accept_stage *stages;
	size_t nstages, stages_alloc;
	struct nicfit_accept_step *steps;
	size_t nsteps, steps_alloc;
	const char *pattern;        /* the pairs: "one pair", "all pairs", "ring, then bisection" */
	const char *rounds;         /* which round names the culprit, and how; NULL one round */
	size_t npairs;
	int judged;
	char *results;              /* the directory judged */
	size_t counts[5];           /* steps by status */
	char *odd_hosts;            /* hosts named by the per-host summary, NULL none */
	struct nicfit_accept_isolated *isolated;  /* each rail's fault, where the pairs isolate it */
	size_t nisolated;
	char *audit_causes;         /* the audit's findings a cause can rest on, NULL none */
};

/*
 * The system of a plan request: plan it and take its back end (card, port
 * rate or InfiniBand rate, cards per server, the GPU each card serves),
 * front end, storage ports and GPUs. HCA names are the ConnectX driver's
 * order (mlx5_0, mlx5_1, ... in PCI order; bnxt_re, irdma, qedr for
 * Broadcom, Intel and Marvell cards), marked assumed. An "example" key
 * is plan's --example. Errors: those of nicfit_plan_input_from_spec and
 * nicfit_plan; NICFIT_E_USAGE for an unknown example; NICFIT_E_DATA for a
 * back-end card whose driver's RDMA device names nicfit does not know.
 * The hosts are named by nicfit_accept_set_hosts or _default_hosts after,
 * and the caller frees sys->hosts with free().
 */
int nicfit_accept_system_from_plan(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
				   struct nicfit_accept_system *sys, struct nicfit_error *err);

/*
 * The system of a saved plan: text (len bytes) is the JSON `nicfit plan
 * -j` wrote (nicfit.plan.v1), input its name for errors. Its input object
 * is the request, planned again as nicfit_accept_system_from_plan does;
 * the plan made so must choose the back-end card the file names. Errors:
 * NICFIT_E_DATA at the file's line and column for bad JSON, another
 * document, a value of the wrong type, or a card the catalog no longer
 * chooses; NICFIT_E_LIMIT past 4 MiB; those of
 * nicfit_accept_system_from_plan.
 */
int nicfit_accept_system_from_plan_json(const struct nicfit_catalog *cat, const char *input,
					const char *text, size_t len,
					struct nicfit_accept_system *sys, struct nicfit_error *err);

/*
 * The system of an audited host: its RDMA cards at their fastest rate
 * (the rails, named as the host names them, each with its nearest GPU),
 * its GPUs, its fastest other NIC as the front end; nodes copies of it
 * (at least 2: the rail tests need a peer). Also the audit's findings a
 * failing step's cause can rest on (*causes, heap, NULL none). Errors:
 * those of nicfit_host_open and nicfit_audit_judge; NICFIT_E_DATA for a
 * host without RDMA NIC or GPU, or with a name that cannot go in a
 * command line.
 */
int nicfit_accept_system_from_host(const struct nicfit_catalog *cat,
				   const struct nicfit_host_request *req, int nodes,
				   struct nicfit_accept_system *sys, char **causes,
				   struct nicfit_error *err);

/*
 * Name the nodes from a host list ("gpu[01-32]", "a,b"): sys->nodes
 * becomes its length. Errors: NICFIT_E_USAGE for a malformed list or a
 * name with other characters than letters, digits, '.', '-' and '_'.
 */
int nicfit_accept_set_hosts(struct nicfit_accept_system *sys, const char *list,
			    struct nicfit_error *err);

/* Name the nodes node01 ... nodeNN when the caller named none. */
int nicfit_accept_default_hosts(struct nicfit_accept_system *sys, struct nicfit_error *err);

/* The runbook of sys (copied). Errors: NICFIT_E_DATA (nothing to test), NICFIT_E_NOMEM. */
int nicfit_accept_new(const struct nicfit_accept_system *sys, struct nicfit_accept **out,
		      struct nicfit_error *err);
void nicfit_accept_free(struct nicfit_accept *a);

/*
 * Judge the results in dir: each step's DIR/NAME.txt read by verify,
 * against the step's band. A file that is missing leaves its step
 * "missing"; one over NICFIT_VERIFY_MAX_BYTES or unreadable is an error
 * (NICFIT_E_LIMIT, NICFIT_E_IO) naming it; one verify recognises nothing
 * in makes its step "broken" (the tool failed). causes (may be NULL) is
 * the audit's findings to quote beside failing steps.
 */
int nicfit_accept_judge(struct nicfit_accept *a, const char *dir, const char *causes,
			struct nicfit_error *err);

/* Text, JSON (nicfit.accept.v1, docs/json-accept.md) or Markdown. */
int nicfit_accept_render(const struct nicfit_accept *a, struct nicfit_emit *e);

/* The runbook as a bash script: one command per step, output into a results directory. */
int nicfit_accept_script(const struct nicfit_accept *a, struct nicfit_buf *out);

/*
 * Spec in, document out (POST /api/accept): plan's keys and the
 * runbook's own, hosts (a host list), launcher ("mpirun", "srun") and
 * read (true, false); the runbook rendered into e. Errors: those of
 * nicfit_accept_system_from_plan, nicfit_accept_set_hosts and
 * nicfit_accept_new; a bad launcher or read value is NICFIT_E_DATA from
 * JSON (NICFIT_E_USAGE from flags) at its key.
 */
int nicfit_accept_run(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
		      struct nicfit_emit *e, struct nicfit_error *err);

/*
 * A runbook judged on uploaded outputs (POST /api/accept/results): body
 * (len bytes) is {"spec": {the keys of nicfit_accept_run}, "results":
 * {"NAME.txt": "the step's output", ...}}, each file named as the script
 * names it (".txt" may be left off); a step without its file is missing.
 * The judged report is rendered into e, *status gets what
 * nicfit_accept_exit_code() gives. Errors: NICFIT_E_DATA at the body's
 * line and column for another shape (other members, a file's output not a
 * string, a file given twice), the spec's and nicfit_accept_run's.
 */
int nicfit_accept_run_results(const struct nicfit_catalog *cat, const char *body, size_t len,
			      struct nicfit_emit *e, int *status, struct nicfit_error *err);

/* 0 every step within band, 1 some below typical or missing, 2 some broken; 0 unjudged. */
int nicfit_accept_exit_code(const struct nicfit_accept *a);

#ifdef __cplusplus
}
#endif

#endif
