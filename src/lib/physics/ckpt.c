/*
 * ckpt.c - a training checkpoint's size, its writers and the time a save
 * takes on the storage network (see nicfit/ckpt.h; sources in
 * docs/reference/storage-checkpoints.md).
 */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "nicfit/ckpt.h"

#define P(f) offsetof(struct nicfit_ckpt_params, f)

const struct nicfit_param nicfit_ckpt_param_table[] = {
	{ "ckpt_state_bytes", P(state_bytes), 14, 2, 64, "B",
	  "bytes per parameter of a checkpoint with optimizer state: bf16 weights 2 + fp32 master 4 "
	  "+ Adam moments 4 + 4 (gradients are not saved)",
	  "Rajbhandari et al. 2020 (ZeRO), section 3.1: mixed-precision Adam keeps 2 + 2 + 12 bytes "
	  "a parameter, of which the checkpoint needs all but the fp16/bf16 gradients" },
	{ "ckpt_node_gbs", P(node_gbs), 40, 0.1, 1000, "GB/s",
	  "one node's storage ceiling (reads and writes over the storage fabric)",
	  "NVIDIA DGX SuperPOD reference architecture (DGX H100), Storage Architecture: a "
	  "GDS-enabled application should read at over 40 GBps on one node; writes are taken to "
	  "reach it at best" },
	{ "ckpt_system_gbs", P(system_gbs), 0, 0, 1e6, "GB/s",
	  "the storage system's aggregate write rate (0: it keeps up with every node)",
	  "the storage vendor's sizing for the cluster" },
	{ "ckpt_host_gbs", P(host_gbs), 0, 0, 10000, "GB/s",
	  "one GPU's copy of its checkpoint shard to host memory in an asynchronous save (0: its "
	  "PCIe link as calc pcie works it out)",
	  "PyTorch DCP async_save copies the state dict to CPU memory first (AsyncStager, the "
	  "Asynchronous Saving with DCP recipe); the copy runs over the GPU's host link" },
};

const size_t nicfit_ckpt_param_count =
	sizeof(nicfit_ckpt_param_table) / sizeof(nicfit_ckpt_param_table[0]);

void nicfit_ckpt_params_default(struct nicfit_ckpt_params *p)
{
	nicfit_param_defaults(nicfit_ckpt_param_table, nicfit_ckpt_param_count, p);
}

int nicfit_ckpt_state_parse(const char *s, enum nicfit_ckpt_state *out, struct nicfit_error *err)
{
	if (!strcasecmp(s, "full") || !strcasecmp(s, "optimizer"))
		return *out = NICFIT_CKPT_FULL, 0;
	if (!strcasecmp(s, "weights"))
		return *out = NICFIT_CKPT_WEIGHTS, 0;
	return nicfit_error_set(err, NICFIT_E_USAGE, "'%.32s': use full or weights", s);
}

const char *nicfit_ckpt_state_name(enum nicfit_ckpt_state s)
{
	return s == NICFIT_CKPT_WEIGHTS ? "weights" : "full";
}

int nicfit_ckpt_calc(const struct nicfit_ckpt_job *j, const struct nicfit_ckpt_params *p,
		     struct nicfit_ckpt *out, struct nicfit_error *err)
{
	double nic_gbs, rate;

	memset(out, 0, sizeof(*out));
	if (!(j->params >= 1e6) || j->params > 1e14 || j->nodes < 1 || j->nodes > 100000 ||
	    j->model_nodes < 1 || j->model_nodes > j->nodes || j->node_gbps < 0 ||
	    j->every_s < 0 || j->stall_s < 0 || j->gpus_per_node < 1)
		return nicfit_error_set(err, NICFIT_E_USAGE, "checkpoint job out of range");
	if (j->async && !(p->host_gbs > 0) && !(j->host_gbs > 0))
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"an asynchronous save needs the GPUs' link to host memory "
					"(ckpt_host_gbs)");
	if (j->every_s > 0 && j->stall_s > j->every_s)
		return nicfit_error_set(err, NICFIT_E_USAGE,
					"a stall budget of %g s is longer than the %g s between saves",
					j->stall_s, j->every_s);
	out->bytes_per_param = j->state == NICFIT_CKPT_WEIGHTS ? j->weight_bytes : p->state_bytes;
	out->bytes = j->params * out->bytes_per_param;
	out->writers = j->sharded ? j->nodes : j->model_nodes;
	out->node_bytes = out->bytes / out->writers;
	nic_gbs = j->node_gbps / 8;
	out->node_gbs = p->node_gbs;
	out->limited_by = "node ceiling";
	if (nic_gbs > 0 && nic_gbs < p->node_gbs) {
		out->node_gbs = nic_gbs;
		out->limited_by = "storage NICs";
	}
	out->save_s = out->node_bytes / (out->node_gbs * 1e9);
	rate = out->node_gbs * out->writers;
	if (p->system_gbs > 0 && p->system_gbs < rate) {
		out->save_s = out->bytes / (p->system_gbs * 1e9);
		out->limited_by = "storage system";
	}
	out->stall_s = out->save_s;
	if (j->async) {
		/* the writers' GPUs copy their shards to host memory at once; the write runs behind */
		out->copy_gbs = (p->host_gbs > 0 ? p->host_gbs : j->host_gbs) * j->gpus_per_node;
		out->copy_s = out->node_bytes / (out->copy_gbs * 1e9);
		out->stall_s = out->copy_s;
	}
	out->share = j->every_s > 0 ? out->stall_s / j->every_s : 0;
	out->within = 1;
	if (j->async && j->every_s > 0) {
		/* the write must finish before the next save starts */
		out->need_node_gbps = out->node_bytes * 8 / j->every_s / 1e9;
		out->need_system_gbs = out->bytes / j->every_s / 1e9;
		out->within = out->save_s <= j->every_s;
	} else if (!j->async && j->stall_s > 0) {
		out->need_node_gbps = out->node_bytes * 8 / j->stall_s / 1e9;
		out->need_system_gbs = out->bytes / j->stall_s / 1e9;
	}
	if (j->stall_s > 0 && out->stall_s > j->stall_s)
		out->within = 0;
	return 0;
}
