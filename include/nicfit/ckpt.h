/*
 * nicfit/ckpt.h - what a training checkpoint writes, how long a save
 * takes on the storage network, and what storage bandwidth a save
 * interval and a stall budget need.
 *
 * Bytes per checkpoint: parameters x bytes per parameter of what is
 * saved. A resumable checkpoint of mixed-precision Adam holds the bf16
 * weights (2 B), the fp32 master weights (4 B) and Adam's two moments
 * (4 B each): 14 B a parameter (state_bytes; the gradients are not saved,
 * which is why it is 2 B less than the 16 B the GPUs hold while training,
 * Rajbhandari et al. 2020, section 3.1). A weights-only checkpoint (for
 * serving, or a run that restarts its optimizer) is the weights at their
 * precision.
 *
 * Who writes it: a sharded checkpoint (PyTorch Distributed Checkpoint,
 * Megatron-LM's distributed checkpointing, FSDP or ZeRO state dicts) has
 * every rank write its own shard, so every node writes 1/nodes of it; a
 * checkpoint that is not sharded is written by one data-parallel replica
 * (its TP x PP ranks), so the nodes of one replica write all of it.
 *
 * A synchronous save stalls the step for as long as the slowest writer
 * takes: its share over min(its storage NICs' goodput, a node's storage
 * ceiling), or the whole checkpoint over the storage system's aggregate
 * write rate when that is given and slower. The node ceiling defaults to
 * NVIDIA's DGX SuperPOD (DGX H100) storage guidance: a GDS-enabled
 * application should read "at over 40 GBps" on one node over the storage
 * fabric (docs/reference/storage-checkpoints.md).
 *
 * An asynchronous save (PyTorch DCP's async_save, Megatron-LM's and
 * NeMo's asynchronous checkpointing) first copies every rank's state to
 * host memory, and training goes on while that copy is written: the
 * stall is the device-to-host copy (a node's share over its GPUs' links
 * to host memory, host_gbs), and the write only has to finish before the
 * next save, so the storage rate a node needs is its share over the
 * interval rather than over the stall budget.
 */
#ifndef NICFIT_CKPT_H
#define NICFIT_CKPT_H

#include "nicfit/error.h"
#include "nicfit/param.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nicfit_ckpt_params {
	double state_bytes;   /* bytes per parameter of a checkpoint with optimizer state */
	double node_gbs;      /* one node's storage ceiling, GB/s */
	double system_gbs;    /* the storage system's aggregate write rate, GB/s; 0 = not a limit */
	double host_gbs;      /* one GPU's copy to host memory, GB/s; 0 = the job's host_gbs */
};

extern const struct nicfit_param nicfit_ckpt_param_table[];
extern const size_t nicfit_ckpt_param_count;
void nicfit_ckpt_params_default(struct nicfit_ckpt_params *p);

/* What is saved. */
enum nicfit_ckpt_state { NICFIT_CKPT_FULL, NICFIT_CKPT_WEIGHTS };

/* full (weights with optimizer state) or weights. */
int nicfit_ckpt_state_parse(const char *s, enum nicfit_ckpt_state *out, struct nicfit_error *err);
const char *nicfit_ckpt_state_name(enum nicfit_ckpt_state s);

struct nicfit_ckpt_job {
	double params;
	enum nicfit_ckpt_state state;
	double weight_bytes;  /* bytes per weight of a weights-only checkpoint */
	int nodes, gpus_per_node;
	int model_nodes;      /* nodes one replica (TP x PP) spans, >= 1 */
	int sharded;          /* every rank writes its shard */
	double node_gbps;     /* one node's storage-network goodput, Gb/s; 0 = unknown */
	double every_s;       /* the save interval, 0 = not given */
	double stall_s;       /* the stall budget of one save, 0 = not given */
	int async;            /* copy to host memory, write behind training */
	double host_gbs;      /* one GPU's link to host memory, GB/s (async; its PCIe link) */
};

struct nicfit_ckpt {
	double bytes_per_param;
	double bytes;         /* the whole checkpoint */
	int writers;          /* nodes that write */
	double node_bytes;    /* what one writer writes */
	double node_gbs;      /* one writer's rate: min(NICs, ceiling), GB/s */
	const char *limited_by; /* "storage NICs", "node ceiling", "storage system" */
	double save_s;        /* one save written to storage */
	double copy_s;        /* async: a node's share copied to host memory (0 when sync) */
	double copy_gbs;      /* async: one node's copy rate, all its GPUs */
	double stall_s;       /* what training waits for: copy_s (async) or save_s */
	double share;         /* stall_s / every_s, 0 without an interval */
	double need_node_gbps; /* per writer: to save within stall_s, or (async) within every_s */
	double need_system_gbs; /* all writers together, likewise */
	int within;           /* stall_s <= stall_s budget and (async) save_s <= every_s */
};

/*
 * Work it out. Errors: NICFIT_E_USAGE for a count out of range, a
 * stall budget longer than the interval, or an asynchronous save without
 * a host link rate.
 */
int nicfit_ckpt_calc(const struct nicfit_ckpt_job *j, const struct nicfit_ckpt_params *p,
		     struct nicfit_ckpt *out, struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
