/*
 * plan_ckpt.c - R3 and R9 for training checkpoints: the bytes a save
 * writes (full state or weights, sharded or from one replica), how long
 * it takes on the storage NICs the plan chose (R3) and the storage nodes'
 * ceiling, and the storage rate per server a save interval and a stall
 * budget need (nicfit/ckpt.h; docs/reference/storage-checkpoints.md).
 * Asked with --checkpoint-every or --checkpoint-stall; --checkpoint-async
 * makes the stall the copy to host memory and the storage write a task
 * to finish before the next save.
 */
#include <math.h>
#include <string.h>

#include "nicfit/ckpt.h"
#include "nicfit/pcie.h"
#include "nicfit/units.h"
#include "core/num_int.h"
#include "plan/plan_int.h"

/* One GPU's link to host memory, GB/s: its PCIe link as calc pcie works it out (0: unknown). */
static double gpu_host_gbs(const struct nicfit_plan *p)
{
	const struct nicfit_gpu *g = p->in.gpu;
	struct nicfit_pcie_result r;

	if (!g || g->pcie_gen < 1 || g->pcie_width < 1 ||
	    nicfit_pcie_calc(g->pcie_gen, g->pcie_width, &p->in.pcie, &r, NULL))
		return 0;
	return r.effective_gbps / 8;
}

/* The checkpoint job of the plan's training. */
static void ckpt_job(const struct nicfit_plan *p, struct nicfit_ckpt_job *j)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_step_job *s = &p->step_job;
	int gpn = s->gpus_per_node > 0 ? s->gpus_per_node : in->gpus_per_server;
	int mp = (s->tp > 0 ? s->tp : 1) * (s->pp > 0 ? s->pp : 1);

	memset(j, 0, sizeof(*j));
	j->params = in->params;
	j->state = in->ckpt_state;
	j->weight_bytes = p->fit_known && p->fit.bits_per_param > 0 ? p->fit.bits_per_param / 8 : 2;
	j->nodes = in->servers;
	j->gpus_per_node = gpn;
	j->model_nodes = gpn > 0 && mp > gpn ? mp / gpn : 1;
	if (j->model_nodes > j->nodes)
		j->model_nodes = j->nodes;
	/* ZeRO and FSDP shard the state: every rank writes its own (DCP, Megatron dist-ckpt) */
	j->sharded = !p->traffic_known || p->step.dp != NICFIT_DP_DDP;
	j->node_gbps = p->st_node_gbps > 0 ? p->st_node_gbps : p->fe_goodput_gbps;
	j->every_s = in->ckpt_every_s;
	j->stall_s = in->ckpt_stall_s;
	j->async = in->ckpt_async;
	j->host_gbs = gpu_host_gbs(p);
}

/* checkpoint-stall for an asynchronous save: the copy outlasts the budget, or the write the interval. */
static void ckpt_find_async(struct nicfit_plan *p)
{
	const struct nicfit_ckpt *c = &p->ckpt;
	char b1[32], b2[32], b3[32];

	if (c->stall_s > p->in.ckpt_stall_s && p->in.ckpt_stall_s > 0)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_CHECKPOINT_STALL,
				  "allow a longer stall (--checkpoint-stall) or shard the checkpoint "
				  "over more servers; the copy runs at --assume ckpt_host_gbs=",
				  "An asynchronous save stalls training %s to copy %s a server to host "
				  "memory at %.1f GB/s, over the %s budget.",
				  nicfit_fmt_seconds(c->stall_s, b1, sizeof(b1)),
				  nicfit_fmt_bytes(c->node_bytes, b2, sizeof(b2)), c->copy_gbs,
				  nicfit_fmt_seconds(p->in.ckpt_stall_s, b3, sizeof(b3)));
	if (p->in.ckpt_every_s > 0 && c->save_s > p->in.ckpt_every_s)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_CHECKPOINT_STALL,
				  "size the storage network for the write (--storage-nics), or save "
				  "less often (--checkpoint-every)",
				  "An asynchronous save's write takes %s, longer than the %s between "
				  "saves: each writing server needs %.1f Gb/s to storage to finish in time.",
				  nicfit_fmt_seconds(c->save_s, b1, sizeof(b1)),
				  nicfit_fmt_seconds(p->in.ckpt_every_s, b2, sizeof(b2)),
				  c->need_node_gbps);
}

/* checkpoint-stall: the save is longer than its budget; the storage ports a server needs. */
static void ckpt_find(struct nicfit_plan *p)
{
	const struct nicfit_ckpt *c = &p->ckpt;
	double port = p->st_port_gbps > 0 ? p->st_port_gbps * 0.9 : 0;
	char b1[32], b2[32], b3[32], ports[120];

	if (c->within)
		return;
	if (p->in.ckpt_async) {
		ckpt_find_async(p);
		return;
	}
	ports[0] = '\0';
	if (port > 0)
		plan_fmt(ports, sizeof(ports), ": %.0f storage ports of %.0f G a server at 90%% goodput",
			 ceil(c->need_node_gbps / port), p->st_port_gbps);
	nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_CHECKPOINT_STALL,
			  "size the storage network for the save (--storage-nics), shard the "
			  "checkpoint or write it asynchronously, or allow a longer stall "
			  "(--checkpoint-stall)",
			  "A checkpoint save takes %s (%s a writer at %.1f GB/s, %s), over the %s "
			  "stall budget: each of the %d writing servers needs %.1f Gb/s to storage%s%s.",
			  nicfit_fmt_seconds(c->save_s, b1, sizeof(b1)),
			  nicfit_fmt_bytes(c->node_bytes, b2, sizeof(b2)), c->node_gbs, c->limited_by,
			  nicfit_fmt_seconds(p->in.ckpt_stall_s, b3, sizeof(b3)), c->writers,
			  c->need_node_gbps, ports,
			  c->need_node_gbps / 8 > p->in.ckpt.node_gbs ? ", beyond the node ceiling "
			  "assumed (--assume ckpt_node_gbs=)" : "");
}

/* R9: a training checkpoint on the plan's storage network. */
void nicfit__plan_checkpoint(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	struct nicfit_ckpt *c = &p->ckpt;
	char b1[32], b2[32], b3[32], b4[32], every[96];

	if (!nicfit__plan_is_training(in->workload) || !(in->ckpt_every_s > 0 || in->ckpt_stall_s > 0))
		return;
	ckpt_job(p, &p->ckpt_job);
	if (nicfit_ckpt_calc(&p->ckpt_job, &in->ckpt, c, NULL)) {
		plan_decide(&p->decisions, "R9", 0,
			    "Checkpoint: not worked out (the model's parameter count is not known).");
		return;
	}
	p->ckpt_known = 1;
	every[0] = '\0';
	if (in->ckpt_every_s > 0)
		plan_fmt(every, sizeof(every), "; one every %s stalls training %.2f%% of the time",
			 nicfit_fmt_seconds(in->ckpt_every_s, b4, sizeof(b4)), c->share * 100);
	plan_decide(&p->decisions, "R9", 1,
		    "Checkpoint (%s): %.4g parameters x %g B = %s, %s by %d server%s (%s a server), "
		    "at %.1f GB/s a server (%s) = %s a %s%s.",
		    in->ckpt_state == NICFIT_CKPT_FULL ? "weights and optimizer state, "
		    "--assume ckpt_state_bytes=" : "weights only", p->ckpt_job.params,
		    c->bytes_per_param, nicfit_fmt_bytes(c->bytes, b1, sizeof(b1)),
		    p->ckpt_job.sharded ? "sharded: written" : "not sharded: written by one replica,",
		    c->writers, c->writers == 1 ? "" : "s",
		    nicfit_fmt_bytes(c->node_bytes, b2, sizeof(b2)), c->node_gbs, c->limited_by,
		    nicfit_fmt_seconds(c->save_s, b3, sizeof(b3)),
		    in->ckpt_async ? "write behind training" : "synchronous save",
		    in->ckpt_async ? "" : every);
	if (in->ckpt_async)
		plan_decide(&p->decisions, "R9", 1,
			    "Asynchronous save (PyTorch DCP async_save, Megatron-LM/NeMo async): each "
			    "server's %s is first copied to host memory by its %d GPUs at %.1f GB/s "
			    "(--assume ckpt_host_gbs=, else each GPU's PCIe link) in %s, the stall%s; "
			    "the write then runs behind training and must finish before the next save.",
			    nicfit_fmt_bytes(c->node_bytes, b1, sizeof(b1)), p->ckpt_job.gpus_per_node,
			    c->copy_gbs, nicfit_fmt_seconds(c->copy_s, b2, sizeof(b2)), every);
	if (in->ckpt_async && in->ckpt_every_s > 0)
		plan_decide(&p->decisions, "R3", 1,
			    "Storage network for asynchronous checkpoints: the write of one save within "
			    "the %s until the next needs %.1f Gb/s to storage from each writing server "
			    "(%.1f GB/s from all %d), against %.1f Gb/s planned.",
			    nicfit_fmt_seconds(in->ckpt_every_s, b1, sizeof(b1)), c->need_node_gbps,
			    c->need_system_gbs, c->writers, p->ckpt_job.node_gbps);
	else if (!in->ckpt_async && in->ckpt_stall_s > 0)
		plan_decide(&p->decisions, "R3", 1,
			    "Storage network for checkpoints: a save within %s needs %.1f Gb/s to "
			    "storage from each writing server (%.1f GB/s from all %d), against %.1f "
			    "Gb/s planned.", nicfit_fmt_seconds(in->ckpt_stall_s, b1, sizeof(b1)),
			    c->need_node_gbps, c->need_system_gbs, c->writers,
			    p->ckpt_job.node_gbps);
	ckpt_find(p);
}

/* plan JSON "checkpoint" (docs/json-plan.md): null unless asked. */
void nicfit__plan_ckpt_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_ckpt *c = &p->ckpt;

	if (!p->ckpt_known) {
		nicfit_emit_null(e, "checkpoint");
		return;
	}
	nicfit_emit_begin_object(e, "checkpoint");
	nicfit_emit_string(e, "state", nicfit_ckpt_state_name(p->in.ckpt_state));
	nicfit_emit_number(e, "bytes_per_param", c->bytes_per_param);
	nicfit_emit_number(e, "bytes", c->bytes);
	nicfit_emit_bool(e, "sharded", p->ckpt_job.sharded);
	nicfit_emit_int(e, "writers", c->writers);
	nicfit_emit_number(e, "bytes_per_writer", c->node_bytes);
	nicfit_emit_number(e, "writer_gbs", c->node_gbs);
	nicfit_emit_string(e, "limited_by", c->limited_by);
	nicfit_emit_number(e, "save_s", c->save_s);
	nicfit_emit_bool(e, "async", p->in.ckpt_async);
	if (p->in.ckpt_async) {
		nicfit_emit_number(e, "host_copy_s", c->copy_s);
		nicfit_emit_number(e, "host_copy_gbs", c->copy_gbs);
	} else {
		nicfit_emit_null(e, "host_copy_s");
		nicfit_emit_null(e, "host_copy_gbs");
	}
	nicfit_emit_number(e, "stall_s", c->stall_s);
	if (p->in.ckpt_every_s > 0) {
		nicfit_emit_number(e, "every_s", p->in.ckpt_every_s);
		nicfit_emit_number(e, "stall_share", c->share);
	} else {
		nicfit_emit_null(e, "every_s");
		nicfit_emit_null(e, "stall_share");
	}
	if (p->in.ckpt_stall_s > 0 || (p->in.ckpt_async && p->in.ckpt_every_s > 0)) {
		if (p->in.ckpt_stall_s > 0)
			nicfit_emit_number(e, "stall_budget_s", p->in.ckpt_stall_s);
		else
			nicfit_emit_null(e, "stall_budget_s");
		nicfit_emit_number(e, "need_writer_gbps", c->need_node_gbps);
		nicfit_emit_number(e, "need_system_gbs", c->need_system_gbs);
	} else {
		nicfit_emit_null(e, "stall_budget_s");
		nicfit_emit_null(e, "need_writer_gbps");
		nicfit_emit_null(e, "need_system_gbs");
	}
	nicfit_emit_bool(e, "within_budget", c->within);
	nicfit_param_emit(e, "assumptions", nicfit_ckpt_param_table, nicfit_ckpt_param_count,
			  &p->in.ckpt);
	nicfit_emit_end_object(e);
}
