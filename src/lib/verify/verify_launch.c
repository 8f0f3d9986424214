/*
 * verify_launch.c - a launcher's command line pasted beside a run: how many
 * processes on how many nodes.
 *
 * The options read, each as its tool documents it:
 *
 *   Open MPI mpirun (docs.open-mpi.org, mpirun(1)): -c/-n/-np/--np N
 *     processes; -H/--host a,b or a:8,b:8 (slots a host); -N N and
 *     --npernode N processes a node; --map-by ppr:N:node; --hostfile,
 *     --machinefile (hosts in a file). Without -np, a process a slot.
 *   MPICH mpiexec/Hydra: -n/-np N, -hosts a:8,b:8, -ppn N, -f FILE.
 *   Slurm srun (slurm.schedmd.com/srun.html): -N/--nodes N (a range
 *     "2-4" is left unknown), -n/--ntasks N, --ntasks-per-node N,
 *     -w/--nodelist gpu[01-04] (its hosts, when -N does not say).
 *   torchrun and python -m torch.distributed.run/launch (PyTorch docs):
 *     --nnodes N (MIN:MAX left unknown), --nproc_per_node/--nproc-per-node N.
 *   deepspeed: --num_nodes N, --num_gpus N (a node), -H/--hostfile FILE.
 *   nccl-tests on the same line (its README): -t/--nthreads N threads a
 *     process and -g/--ngpus N GPUs a thread, so nranks = processes x t x g.
 *
 * Nothing is guessed: a count is kept only where the line states it or it
 * follows exactly (processes = nodes x per node; nodes = processes / per
 * node when it divides; a host list whose every host names its slots).
 */
#include <stdlib.h>
#include <string.h>

#include "verify/verify_int.h"

#define MAX_TOK 64
#define TOK_LEN 256

enum tool { T_NONE, T_MPI, T_SRUN, T_TORCH, T_DEEPSPEED };

static enum tool tool_of(const char *w)
{
	const char *b = strrchr(w, '/');

	b = b ? b + 1 : w;
	if (!strncmp(b, "mpirun", 6) || !strncmp(b, "mpiexec", 7) || !strcmp(b, "orterun") ||
	    !strcmp(b, "prterun"))
		return T_MPI;
	if (!strcmp(b, "srun"))
		return T_SRUN;
	if (!strcmp(b, "torchrun") || !strcmp(b, "torch.distributed.run") ||
	    !strcmp(b, "torch.distributed.launch"))
		return T_TORCH;
	if (!strcmp(b, "deepspeed"))
		return T_DEEPSPEED;
	return T_NONE;
}

/* A positive count, the whole of s; 0 when not one. */
static int count(const char *s)
{
	const char *end;
	long n;

	if (!s)
		return 0;
	n = nicfit__vint(s, &end);
	return n > 0 && n < 10000000 && *end == '\0' ? (int)n : 0;
}

/* "a:8,b:8" or "a,b": the distinct hosts and, when every host names its slots, their sum. */
static void host_list(struct nicfit_launch *L, const char *s, int *slots)
{
	char names[64][64], num[16];
	int n = 0, sum = 0, all = 1, i, sl;

	while (*s) {
		size_t k = strcspn(s, ","), c = strcspn(s, ":,");

		sl = 0;
		if (c < k) {
			nicfit__vcopy(num, sizeof(num), s + c + 1, k - c - 1);
			sl = count(num);
		}
		if (c > 0 && c < 64 && n < 64) {
			nicfit__vcopy(names[n], sizeof(names[n]), s, c);
			for (i = 0; i < n && strcmp(names[i], names[n]); i++)
				;
			if (i == n)
				n++;
		}
		if (sl > 0)
			sum += sl;
		else
			all = 0;
		s += k;
		if (*s == ',')
			s++;
	}
	if (n > 0)
		L->nodes = n;
	*slots = all && n ? sum : 0;
}

/*
 * The hosts of a Slurm host list, "gpu[01-04,07],login1" or
 * "r[1-2]-n[01-04]" (slurm.schedmd.com/srun.html, -w/--nodelist): the sum
 * over its items of the product of each bracket's count of numbers; 0 when
 * the list is malformed or past MAX_LIST_HOSTS. The library's expander,
 * nicfit_hostlist_expand(), is fleet's, a layer above verify (HACKING.md
 * 1.1), and only the count is needed here, so the list is counted without
 * being expanded.
 */
#define MAX_LIST_HOSTS 1000000

static long bracket_count(const char *p, const char *close)
{
	long n = 0;

	while (p < close) {
		const char *e;
		long lo = nicfit__vint(p, &e), hi = lo;

		if (lo < 0)
			return 0;
		if (*e == '-') {
			hi = nicfit__vint(e + 1, &e);
			if (hi < lo)
				return 0;
		}
		if (e != close && *e != ',')
			return 0;
		n += hi - lo + 1;
		if (n > MAX_LIST_HOSTS)
			return 0;
		p = e == close ? e : e + 1;
	}
	return n;
}

static int slurm_list_count(const char *s)
{
	long total = 0, item = 1;
	int named = 0;

	for (;;) {
		if (*s == '[') {
			const char *close = strchr(s, ']');
			long k = close ? bracket_count(s + 1, close) : 0;

			if (!k || item * k > MAX_LIST_HOSTS)
				return 0;
			item *= k;
			named = 1;
			s = close + 1;
		} else if (*s == ',' || !*s) {
			if (!named)
				return 0;
			total += item;
			if (total > MAX_LIST_HOSTS)
				return 0;
			if (!*s)
				return (int)total;
			item = 1;
			named = 0;
			s++;
		} else if (*s == ']' || *s == ' ') {
			return 0;
		} else {
			named = 1;
			s++;
		}
	}
}

/* "--opt=value" or "--opt value": the value of option o at w[*i], advancing *i; NULL not o. */
static const char *opt(char w[][TOK_LEN], int nw, int *i, const char *o)
{
	size_t n = strlen(o);

	if (strncmp(w[*i], o, n))
		return NULL;
	if (w[*i][n] == '=')
		return w[*i] + n + 1;
	if (w[*i][n] || *i + 1 >= nw)
		return NULL;
	return w[++*i];
}

static int opt_any(char w[][TOK_LEN], int nw, int *i, const char *const *os, const char **v)
{
	for (; *os; os++)
		if ((*v = opt(w, nw, i, *os)) != NULL)
			return 1;
	return 0;
}

static const char *const MPI_NP[] = { "-np", "--np", "-n", "--n", "-c", NULL };
static const char *const MPI_HOST[] = { "-H", "-host", "--host", "-hosts", NULL };
static const char *const MPI_PPN[] = { "-N", "-npernode", "--npernode", "-ppn", NULL };
static const char *const MPI_FILE[] = { "-hostfile", "--hostfile", "-machinefile",
					"--machinefile", "-f", "--default-hostfile", NULL };
static const char *const SRUN_N[] = { "-N", "--nodes", NULL };
static const char *const SRUN_NP[] = { "-n", "--ntasks", NULL };
static const char *const SRUN_PPN[] = { "--ntasks-per-node", NULL };
static const char *const SRUN_LIST[] = { "-w", "--nodelist", NULL };
static const char *const TORCH_N[] = { "--nnodes", NULL };
static const char *const TORCH_PPN[] = { "--nproc_per_node", "--nproc-per-node", NULL };
static const char *const DS_N[] = { "--num_nodes", NULL };
static const char *const DS_PPN[] = { "--num_gpus", NULL };
static const char *const DS_FILE[] = { "-H", "--hostfile", NULL };

/*
 * One launcher option at w[*i]; slots is a host list's sum of slots,
 * listed the hosts of srun's -w/--nodelist.
 */
static void read_opt(struct nicfit_launch *L, enum tool t, char w[][TOK_LEN], int nw, int *i,
		     int *slots, int *listed)
{
	const char *v;

	if (t == T_MPI) {
		if (opt_any(w, nw, i, MPI_NP, &v))
			L->procs = count(v);
		else if (opt_any(w, nw, i, MPI_HOST, &v))
			host_list(L, v, slots);
		else if (opt_any(w, nw, i, MPI_PPN, &v))
			L->per_node = count(v);
		else if (opt_any(w, nw, i, MPI_FILE, &v))
			L->hostfile = 1;
		else if ((v = opt(w, nw, i, "--map-by")) != NULL || (v = opt(w, nw, i, "-map-by")))
			if (!strncmp(v, "ppr:", 4) && strstr(v + 4, ":node")) {
				char num[16];

				nicfit__vcopy(num, sizeof(num), v + 4, strcspn(v + 4, ":"));
				L->per_node = count(num);
			}
	} else if (t == T_SRUN) {
		if (opt_any(w, nw, i, SRUN_N, &v))
			L->nodes = count(v);
		else if (opt_any(w, nw, i, SRUN_NP, &v))
			L->procs = count(v);
		else if (opt_any(w, nw, i, SRUN_PPN, &v))
			L->per_node = count(v);
		else if (opt_any(w, nw, i, SRUN_LIST, &v))
			*listed = slurm_list_count(v);
	} else if (t == T_TORCH) {
		if (opt_any(w, nw, i, TORCH_N, &v))
			L->nodes = count(v);
		else if (opt_any(w, nw, i, TORCH_PPN, &v))
			L->per_node = count(v);
	} else if (t == T_DEEPSPEED) {
		if (opt_any(w, nw, i, DS_N, &v))
			L->nodes = count(v);
		else if (opt_any(w, nw, i, DS_PPN, &v))
			L->per_node = count(v);
		else if (opt_any(w, nw, i, DS_FILE, &v))
			L->hostfile = 1;
	}
}

/* nccl-tests' -t/--nthreads and -g/--ngpus after its binary: ranks a process. */
static int gpus_per_proc(char w[][TOK_LEN], int nw, int from)
{
	static const char *const T[] = { "-t", "--nthreads", NULL };
	static const char *const G[] = { "-g", "--ngpus", NULL };
	int i, th = 1, g = 1, n;
	const char *v;

	for (i = from; i < nw; i++) {
		if (opt_any(w, nw, &i, T, &v) && (n = count(v)) > 0)
			th = n;
		else if (opt_any(w, nw, &i, G, &v) && (n = count(v)) > 0)
			g = n;
	}
	return th * g;
}

static const char *const TOOL_NAME[] = { "", "mpirun", "srun", "torchrun", "deepspeed" };

int nicfit__vlaunch_maybe(const char *line)
{
	/* mpirun, orterun, prterun, srun, torchrun, torch.distributed.run; the others */
	return strstr(line, "run") || strstr(line, "mpiexec") || strstr(line, "launch") ||
	       strstr(line, "deepspeed");
}

void nicfit__verify_launch_line(struct nicfit_launch *L, const char *line, long lineno)
{
	char w[MAX_TOK][TOK_LEN];
	struct nicfit_launch x;
	enum tool t = T_NONE;
	int nw = 0, i, start = -1, slots = 0, listed = 0;
	const char *p = line;

	if (L->tool[0])
		return;
	while (*p && nw < MAX_TOK) {
		size_t n;

		p += strspn(p, " \t`'\"$>");
		n = strcspn(p, " \t`'\"");
		if (!n)
			break;
		nicfit__vcopy(w[nw++], TOK_LEN, p, n);
		p += n;
	}
	for (i = 0; i < nw && start < 0; i++)
		if ((t = tool_of(w[i])) != T_NONE)
			start = i + 1;
	if (start < 0)
		return;
	memset(&x, 0, sizeof(x));
	x.gpus_per_proc = 1;
	for (i = start; i < nw; i++) {
		if (strstr(w[i], "_perf")) {
			x.gpus_per_proc = gpus_per_proc(w, nw, i + 1);
			break;
		}
		read_opt(&x, t, w, nw, &i, &slots, &listed);
	}
	/* srun -N wins over its list: Slurm adds nodes to a shorter list to make -N */
	if (!x.nodes && listed)
		x.nodes = listed;
	if (!x.procs && slots)
		x.procs = slots;
	if (x.procs && slots && x.procs != slots)
		x.nodes = 0;        /* fewer processes than slots: which hosts ran is the mapper's */
	if (!x.procs && x.nodes && x.per_node)
		x.procs = x.nodes * x.per_node;
	if (!x.nodes && x.procs && x.per_node && x.procs % x.per_node == 0)
		x.nodes = x.procs / x.per_node;
	nicfit__vcopy(x.tool, sizeof(x.tool), TOOL_NAME[t], (size_t)-1);
	x.line = lineno;
	*L = x;
}
