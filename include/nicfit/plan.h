/*
 * nicfit/plan.h - what network an AI server or cluster needs, and why.
 *
 * nicfit_plan() turns a request (server, GPUs, model, workload, cluster
 * size, optional what-if parts) into decisions: whether the model fits one
 * server, whether a back-end RDMA fabric is needed, which front-end ports
 * and back-end card, in which slot on which socket, which fabric and
 * cables, what it costs, and the estimates behind it. Every decision is
 * recorded with its rule id and a sentence with the numbers used; every
 * warning is a finding with a severity. It is a pure function of the
 * request and the catalog: nothing is printed.
 *
 * The result, struct nicfit_plan, is the caller's (it is large: allocate
 * it, do not put it on the stack). nicfit_plan() fills it and it then owns
 * the memory of its findings, decisions, cables and bill of materials,
 * which nicfit_plan_release() frees; the struct stays reusable for another
 * nicfit_plan(). Its other
 * pointers (server, cards, GPU, model) point into the catalog and live as
 * long as the catalog; the what-if cards decoded from a part number live
 * in the struct itself.
 *
 *	struct nicfit_plan *p = calloc(1, sizeof(*p));
 *
 *	if (!nicfit_plan(cat, &in, p, &err))
 *		nicfit_plan_render(e, p);
 *	nicfit_plan_release(p);
 *	free(p);
 *
 * nicfit_plan_run() is the spec-in, document-out form used by the CLI and
 * by POST /api/plan (same keys as the CLI's long options, '_' for '-').
 */
#ifndef NICFIT_PLAN_H
#define NICFIT_PLAN_H

#include "nicfit/catalog.h"
#include "nicfit/ckpt.h"
#include "nicfit/emit.h"
#include "nicfit/error.h"
#include "nicfit/finding.h"
#include "nicfit/llm.h"
#include "nicfit/partno.h"
#include "nicfit/perf.h"
#include "nicfit/serving.h"
#include "nicfit/spec.h"
#include "nicfit/step.h"
#include "nicfit/topo.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nicfit_workload {
	NICFIT_WL_INFERENCE,            /* one model per server (or split if it must) */
	NICFIT_WL_REPLICATED,           /* independent replicas behind a load balancer */
	NICFIT_WL_MULTINODE_INFERENCE,  /* one model split across servers */
	NICFIT_WL_TRAINING,
	NICFIT_WL_FINETUNING,
	NICFIT_WL_RDMA_STORAGE
};

enum nicfit_fabric { NICFIT_FABRIC_AUTO, NICFIT_FABRIC_ROCE, NICFIT_FABRIC_IB };


const char *nicfit_workload_name(enum nicfit_workload w);
int nicfit_workload_parse(const char *s, enum nicfit_workload *out, struct nicfit_error *err);

#define NICFIT_PLAN_MAX_GPUS 16
/* Back-end cards per server: one per GPU at most (a rail per GPU). */
#define NICFIT_PLAN_MAX_CARDS NICFIT_PLAN_MAX_GPUS

/* The request, normalised (catalog entries resolved, defaults filled). */
struct nicfit_plan_input {
	const struct nicfit_server *server;
	int servers;                    /* >= 1 */
	const struct nicfit_gpu *gpu;   /* NULL: no GPU given */
	int gpus_per_server;
	const struct nicfit_model *model; /* NULL when params or weights given */
	double params;                  /* parameters (from the model or --params) */
	double weights_gb;              /* > 0 when the user gave the weights' size */
	enum nicfit_precision precision;
	long context, concurrency;
	double tokens_per_s;            /* per request, for the serving traffic */
	enum nicfit_workload workload;
	int workload_given;
	const char *backend_nic;        /* what-if part (catalog id or OPN), or NULL */
	const char *frontend_nic;
	double backend_gbps;            /* target; 0 = what the slot can feed */
	int backend_cards;              /* back-end cards per server; 0 = choose */
	enum nicfit_fabric fabric;
	double storage_gbps;            /* 0 = storage keeps up */
	int storage_nics;               /* storage/in-band NICs per server; -1 = the vendor's slots */
	double reloads_per_day;
	const struct nicfit_switch *sw; /* back-end switch, or NULL */
	int explain;
	int installed_cards;            /* backend_nic cards each server already has */
	const char *installed_slot;     /* the slots they sit in, comma-separated, or NULL */
	const char *installed_fe_slot;  /* the slot where the frontend_nic card already sits
					 * (one per server), or NULL: none installed */
	int backend_slot_pin;           /* --backend-slot: 1 + the slot index, 0 = none */
	int frontend_slot_pin;          /* --frontend-slot: 1 + the slot index, 0 = none */
	const char *riser_config;       /* --riser-config: the id of one of the server's riser
					 * configurations, or NULL: the plan picks one */
	struct nicfit_pcie_params pcie;
	struct nicfit_link_params link;
	struct nicfit_llm_params llm;
	struct nicfit_allreduce_params ar;
	double rack_cable_m;            /* length of an in-rack link */
	int backend_size_traffic;       /* --backend-size traffic: the cheapest speed that hides it */
	enum nicfit_dp dp;              /* --parallel: data parallelism of training */
	double batch_tokens;            /* --batch-tokens: tokens per step, 0 = tokens_per_gpu each */
	struct nicfit_step_params step; /* MFU, overlap, ... (--assume) */
	int racks;                      /* --racks: whole racks of a rack-scale server, 0 = not given */
	int spectrum_x;                 /* --fabric spectrum-x: RoCE on Spectrum-X, SuperNICs only */
	/*
	 * Disaggregated serving (plan_serving.c): --disaggregated, prompt and
	 * output lengths, a target (--requests-per-s, 0 = none; --ttft-ms,
	 * --tpot-ms), the prefill pool if given (0 = chosen), KV offload.
	 */
	int disagg;
	double prompt_tokens, output_tokens, requests_per_s, ttft_s, tpot_s;
	int prefill_servers;
	enum nicfit_kv_offload kv_offload;
	/* each pool's instance as given (--prefill-gpus, -tp, -pp, -ep; --decode-...; 0 = choose) */
	struct nicfit_serving_shape pool_given[2];
	enum nicfit_kv_over kv_over;    /* --kv-over */
	int kv_over_auto;               /* storage, chosen by --kv-over auto (nicfit_plan's 2nd pass) */
	double kv_backend_s;            /* 2nd pass: one request's cache over the 1st pass's back end */
	struct nicfit_serving_params serving;
	/* Training checkpoints (plan_ckpt.c): --checkpoint-every (s, 0 = none), -stall, -state. */
	double ckpt_every_s, ckpt_stall_s;
	int ckpt_async;                 /* --checkpoint-async: copy to host, write behind training */
	enum nicfit_ckpt_state ckpt_state;
	struct nicfit_ckpt_params ckpt;
};

struct nicfit_plan_line {
	char id[64];        /* catalog id, or "" for a generic item */
	char part[64];      /* what to order */
	char description[200];
	char role[16];      /* "backend", "frontend", "oob", "switch" */
	int qty;
	int priced;
	double unit_usd, total_usd;
	char prices_as_of[16];
	char source[160];
	int included;       /* ships with the server (a DGX's ConnectX-7s): nothing to buy */
};

struct nicfit_plan_cable {
	char link[24];      /* "backend", "frontend", "oob" */
	char id[64];        /* catalog id or "" */
	char part[64];
	char description[200];
	char ends[64];      /* "QSFP28 - QSFP28" */
	double length_m;
	int qty;
	const struct nicfit_cable *cable; /* the catalog's entry (id), NULL for none */
};

struct nicfit_plan_slotuse {
	char slot[32];
	int socket;
	int gen, width;
	char what[96];      /* "GPU 0 (NVIDIA A40)", "back-end NIC MCX556A-ECAT" */
};

struct nicfit_plan_estimate {
	char label[64];     /* "100G RoCE v2 (this plan)" */
	double gbps;        /* per-node network rate used */
	double seconds;
	char algorithm[8];  /* NCCL's algorithm for the exchange at that rate: "ring", "tree" */
};

/*
 * Fixed because bounded by the request: slots hold at most
 * NICFIT_PLAN_MAX_GPUS + NICFIT_PLAN_MAX_CARDS placements, estimates at
 * most the plan's own back end and three alternatives (R9).
 */
#define NICFIT_PLAN_MAX_SLOTS 40
#define NICFIT_PLAN_MAX_STORAGE 4
#define NICFIT_PLAN_MAX_ESTIMATES 8

struct nicfit_plan {
	struct nicfit_plan_input in;
	char verdict[1024];

	/* model fit (R1) */
	int fit_known;
	struct nicfit_fit fit;          /* on one server's GPUs */
	double train_state_gb;          /* training/fine-tuning state, 0 otherwise */
	int adapters;                   /* adapter fine-tuning (LoRA/QLoRA) of a quantised base */
	int fits_one_server;
	int gpus_needed, servers_needed;
	double weights_only_gb;         /* weights when no GPU was given (fit not checked) */
	int gpus_placed;                /* GPUs the server's slots hold (<= gpus_per_server) */
	int buildable;                  /* 0 when a critical finding says the plan cannot be built */

	/* back end (R2, R5-R7) */
	int backend_needed;
	int domain_only;                /* R2: the whole job is one rack-scale NVLink domain
					 * (NVL72 rack, NVL36x2 unit), so no back end */
	int be_integrated;              /* the GPUs' own scale-out ports are the back end (Intel
					 * Gaudi 3): no back-end card (be_nic NULL) */
	enum nicfit_fabric fabric;      /* AUTO resolved to ROCE or IB when needed */
	const struct nicfit_nic *be_nic;
	const struct nicfit_nic *be_passed; /* a card past its driver support that would have
					     * moved more than be_nic, passed over (R5) */
	double be_passed_gbps;          /* what it would have moved per card */
	struct nicfit_card be_card;
	char be_part[64];
	int be_cards;                   /* cards per server */
	int be_ports;                   /* ports used per card */
	double be_target_gbps;
	double be_port_gbps;            /* nominal port speed */
	double be_effective_gbps;       /* per card, after slot and protocol */
	double be_node_gbps;            /* all cards of a node */
	double be_pcie_gbps;
	const char *be_limited_by;      /* "pcie" or "ports" */
	int be_slots[NICFIT_PLAN_MAX_CARDS]; /* index into server->slots, -1 none */
	int gpu_slots[NICFIT_PLAN_MAX_GPUS];
	int gpus_local;                 /* GPUs sharing a socket with a back-end card */
	int gpus_near;                  /* GPUs with a back-end card at PIX or PXB */
	int rails;                      /* back-end rails per node: cards when rail-optimized, else 0 */
	/*
	 * Each placed GPU's back-end card (index into be_slots, -1 none) and
	 * the PCIe path class between them (enum nicfit_path, from the slot
	 * map: PIX under one switch, PHB on one socket, SYS across sockets).
	 */
	int pair_card[NICFIT_PLAN_MAX_GPUS];
	enum nicfit_path pair_path[NICFIT_PLAN_MAX_GPUS];
	int back_to_back;               /* two servers cabled without a switch */
	int spectrum_x;                 /* the back end is Spectrum-X: asked, or a Spectrum-4 800G
					 * switch with SuperNICs (plan_spectrumx.c) */

	/* front end (R3) and OOB (R4) */
	int fe_onboard;
	const struct nicfit_onboard *fe_ob;
	const struct nicfit_nic *fe_nic;
	int fe_slot;                    /* an add-in front-end card's slot, -1 none */
	const struct nicfit_nic *fe_ocp; /* the OCP NIC 3.0 card R6 moved the front end to, the
					 * GPUs and back-end cards having taken every PCIe slot
					 * R3's card fits (fe_nic is then this card), or NULL */
	int fe_installed;               /* the front-end card is the one installed in the
					 * host (installed_fe_slot; moved if fe_slot is another
					 * slot): not in the bill of materials */
	double fe_port_gbps;
	double fe_goodput_gbps;
	double load_bytes;              /* what one server loads */
	double load_s;                  /* load_bytes over the front end */
	double serving_mbps;            /* token streams of all requests */
	int fe_suggest_25g;
	double oob_gbps;

	/* storage and in-band NICs (R3, plan_storage.c) */
	const struct nicfit_nic *st_nic;  /* NULL when none */
	int st_cards;                   /* per server */
	int st_slots[NICFIT_PLAN_MAX_STORAGE];
	double st_port_gbps;
	double st_effective_gbps;       /* one used port in its slot */
	double st_node_gbps;            /* all used ports, bonded, TCP goodput */
	int load_over_storage;          /* load_s is over the storage NICs, not the front end */

	/* parts, cables, costs (R8, R10) */
	struct nicfit_plan_slotuse slots[NICFIT_PLAN_MAX_SLOTS];
	int nslots;
	struct nicfit_plan_cable *cables; /* grows: a fabric has as many cable kinds as it needs */
	size_t ncables, alloc_cables;
	struct nicfit_plan_line *bom;
	size_t nbom, alloc_bom;
	double total_usd;
	char prices_as_of[16];

	/* estimates (R9) */
	double grad_gb;                 /* gradients (bf16) exchanged per training step, GB */
	/*
	 * What the step-time rows time, per server per step: the step
	 * model's traffic (the same bytes the Network line and JSON step
	 * carry, 1.5 x for ZeRO-3) when it is known, else a DDP ring of the
	 * gradients; est_traffic names it ("data parallel (ZeRO-3/FSDP)"),
	 * NULL for the latter.
	 */
	double est_bytes_gb;
	const char *est_traffic;
	struct nicfit_plan_estimate est[NICFIT_PLAN_MAX_ESTIMATES];
	int nest;

	/*
	 * The job's step (plan_traffic.c): compute and what crosses the
	 * network per server, known when a back end carries a training
	 * step or a split model's tokens and the GPU's peak is in the
	 * catalog; over the plan's back end once R5 chose it.
	 */
	int traffic_known;
	struct nicfit_step step;
	struct nicfit_step_job step_job;
	int step_be_known;
	struct nicfit_step_time step_be;
	char step_algorithm[8];         /* the gradient all-reduce's NCCL algorithm over the back end */
	struct nicfit_layout layout;    /* an inference split's layout (R1), gpus 0 when none */

	/*
	 * Replicas before splits (R2, plan_replicas.c): multi-node inference
	 * of a model that fits one server. fit_times is how many times one
	 * server's usable memory holds the model; the decode throughput of
	 * the servers as replicas and as the split the plan builds, at the
	 * same requests in flight (tokens/s, 0 when the step is not known),
	 * and the one server's decode step both are worked out from.
	 */
	int replicas_first;
	int replicas;                   /* how many: the servers, or per NVLink domain x domains */
	int replicas_domain;            /* each replica spans trays of one NVLink domain (NVL72) */
	double replicas_fit_times;
	double replicas_tok_s, split_tok_s;
	double replicas_step_s;

	/*
	 * The riser configuration planned with (R6, plan_riser.c), NULL for a
	 * server with one slot map; in.server then points at riser_view, the
	 * catalog server with that configuration's slots only.
	 */
	const struct nicfit_riser_config *riser;
	const struct nicfit_server *riser_of; /* the catalog's server, all configurations */
	int riser_fits;                 /* the configuration holds the GPUs asked for */
	struct nicfit_server riser_view;

	/* a what-if card the catalog lacks, decoded from its part number */
	struct nicfit_part rule_part[2];      /* [0] back end, [1] front end */
	struct nicfit_nic rule_nic[2];

	/*
	 * What the rules found (severity INFO to CRITICAL, a registered code,
	 * a message and usually a fix; no device) and what they decided (rule
	 * id "R0".."R11", applied or only considered, the text with the
	 * numbers), in the order the rules ran. The renderers show findings
	 * worst first.
	 */
	struct nicfit_findings findings;
	struct nicfit_findings decisions;
	/*
	 * A Socket Direct back-end card (R6): its PCIe links (2; 1 for any
	 * other card) and, per card, the slot of its auxiliary card (index
	 * into server->slots, -1 none: no free slot on another socket); each
	 * placed GPU's nearer half (the main or the auxiliary card's slot).
	 */
	int be_sd_links;
	const struct nicfit_nic *be_sd_nic; /* the Socket Direct card --backend-nic names, or NULL */
	int be_aux_slots[NICFIT_PLAN_MAX_CARDS];
	int pair_slot[NICFIT_PLAN_MAX_GPUS];
	/*
	 * A converged front end (R3): requests, model downloads, storage and
	 * in-band management share the storage/in-band NICs' bonded ports, as
	 * NVIDIA's DGX and HGX designs build it; no separate front-end link.
	 */
	int fe_converged;
	double fe_node_gbps;            /* the converged ports together, nominal */

	/* disaggregated serving (R9, plan_serving.c), known when asked and worked out */
	int serving_known;
	struct nicfit_serving serving;
	double serving_host_gbs;        /* one server's GPU-to-host link, GB/s (offload cpu) */
	int kv_storage;                 /* the KV cache goes over the storage/in-band NICs */
	int kv_storage_fits;            /* --kv-over auto: it would, within kv_storage_share and TTFT */
	double kv_backend_request_s;    /* one request's cache over the back end (the trade-off) */
	/* a training checkpoint (R3, R9, plan_ckpt.c), known when asked */
	int ckpt_known;
	struct nicfit_ckpt ckpt;
	struct nicfit_ckpt_job ckpt_job;
};

/*
 * Read a request into in, resolving ids in cat. Errors: NICFIT_E_USAGE
 * (NICFIT_E_DATA when the spec came from JSON) for bad values or unknown
 * settings, NICFIT_E_NOTFOUND for unknown ids (with a suggestion).
 */
int nicfit_plan_input_from_spec(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
				struct nicfit_plan_input *in, struct nicfit_error *err);

/*
 * Plan. out is filled completely, whatever it held before (release it
 * first if it holds a plan). Errors: NICFIT_E_USAGE (no server),
 * NICFIT_E_NOMEM; on error out holds nothing to free (releasing it is
 * harmless).
 */
int nicfit_plan(const struct nicfit_catalog *cat, const struct nicfit_plan_input *in,
		struct nicfit_plan *out, struct nicfit_error *err);

/* Free what a plan holds (findings, decisions, cables, BOM); p stays usable. */
void nicfit_plan_release(struct nicfit_plan *p);

/*
 * Render a plan: text report (verdict first), JSON ("nicfit.plan.v1"),
 * Markdown, CSV (the bill of materials), or SVG (the server's slots).
 */
void nicfit_plan_render(struct nicfit_emit *e, const struct nicfit_plan *p);

/* Spec in, document out: input_from_spec + plan + render. */
int nicfit_plan_run(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
		    struct nicfit_emit *e, struct nicfit_error *err);
/*
 * The same, and *worst gets the plan's worst finding (NICFIT_SEV_NONE
 * when it returns an error): the CLI's exit status, as audit's, is 2 for
 * a critical finding (a plan that cannot be built as asked), 1 for a
 * warning, 0 otherwise (nicfit_plan_exit_code()).
 */
int nicfit_plan_run_judged(const struct nicfit_catalog *cat, struct nicfit_spec *spec,
			   struct nicfit_emit *e, enum nicfit_severity *worst,
			   struct nicfit_error *err);
/* 2 for a critical finding, 1 for a warning, else 0. */
int nicfit_plan_exit_code(enum nicfit_severity worst);

/*
 * The expectation of `verify --plan SPEC`: read the plan spec at path
 * ("-": standard input), plan it, and fill x from the plan's back end:
 * its link (the card's InfiniBand rate, else its port rate), servers,
 * GPUs per server, rails, a PCIe-limited rail's share, the worst
 * GPU-to-NIC path of the placement. Fields x already holds are kept;
 * x->source becomes "the plan (--plan)". Errors: those of
 * nicfit_read_file, nicfit_spec_parse_json, nicfit_plan_input_from_spec
 * and nicfit_plan; NICFIT_E_DATA when the plan needs no back end.
 */
struct nicfit_verify_expect;
int nicfit_plan_verify_expect(const struct nicfit_catalog *cat, const char *path,
			      struct nicfit_verify_expect *x, struct nicfit_error *err);

/* The named example requests (`plan --example NAME`), NULL-terminated. */
struct nicfit_plan_example {
	const char *name;
	const char *title;
	const char *const *pairs; /* key, value, key, value, ..., NULL */
};
extern const struct nicfit_plan_example nicfit_plan_examples[];

#ifdef __cplusplus
}
#endif

#endif
