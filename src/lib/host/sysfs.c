/*
 * sysfs.c - opening and closing a sysfs root (see nicfit/sysfs.h); the
 * problems met while reading it are kept by sysfs_problem.c.
 *
 * The reading itself is in sysfs_read.c, path resolution inside the root
 * in sysfs_resolve.c, the snapshot recorder in sysfs_record.c and the
 * parsers of sysfs strings in sysfs_parse.c (sysfs_int.h says how they
 * fit). This file owns the handle: it opens the root directory, probes
 * once whether the kernel confines lookups to it (openat2 with
 * RESOLVE_IN_ROOT). The helpers the readers call back (the problems list)
 * are not here, so that no reader calls into the file that opens it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

#include "host/sysfs_int.h"

/* ---- opening -------------------------------------------------------------- */

static int probe_openat2(int rootfd)
{
#ifdef SYS_openat2
	struct open_how how;
	long fd;

	memset(&how, 0, sizeof(how));
	how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
	fd = syscall(SYS_openat2, rootfd, ".", &how, sizeof(how));
	if (fd < 0)
		return 0;
	close((int)fd);
	return 1;
#else
	(void)rootfd;
	return 0;
#endif
}

int nicfit_sysfs_open(const char *root, struct nicfit_sysfs **out,
		      struct nicfit_error *err)
{
	struct nicfit_sysfs *fs;
	struct stat st;
	size_t i;
	int fd;

	*out = NULL;
	if (!root || !*root)
		root = "/";
	if (strlen(root) >= NICFIT_SYSFS_PATH_MAX)
		return nicfit_error_at(err, NICFIT_E_USAGE, "--sysfs", 0, 0, "path too long");
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return nicfit_error_at(err, e == ENOENT ? NICFIT_E_NOTFOUND : NICFIT_E_IO, root,
				       0, 0, "%s", e == ENOTDIR ? "not a directory" : strerror(e));
	}
	if (fstatat(fd, "sys", &st, 0) || !S_ISDIR(st.st_mode)) {
		close(fd);
		return nicfit_error_at(err, NICFIT_E_NOTFOUND, root, 0, 0,
				       "no sys/ directory here (give the directory that contains sys/, "
				       "as for lstopo -i or HWLOC_FSROOT)");
	}
	/*
	 * Every field is set here but the kept problems and the directories'
	 * paths, which are written before they are read: zeroing those 10 KiB
	 * cost more than the rest of opening the root.
	 */
	fs = malloc(sizeof(*fs));
	if (!fs) {
		close(fd);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	fs->rootfd = fd;
	memcpy(fs->root, root, strlen(root) + 1);
	fs->live = !strcmp(root, "/");
	fs->use_openat2 = probe_openat2(fd);
	fs->nproblems = 0;
	fs->recording = 0;
	fs->recs = NULL;
	fs->nrecs = fs->allocrecs = 0;
	fs->hash = NULL;
	fs->hashcap = 0;
	for (i = 0; i < NICFIT_SYSFS_DIR_CACHE; i++) {
		fs->dirs[i].fd = -1;
		fs->dirs[i].used = 0;
		fs->dirs[i].uses = 0;
		fs->dirs[i].len = 0;
		fs->dirs[i].hash = 0;
		fs->dirs[i].path[0] = '\0';
	}
	fs->longfd = -1;
	fs->longlen = 0;
	fs->dirclock = 0;
	fs->dirsfilled = 0;
	fs->dirhand = 0;
	fs->dirlast = 0;
	memset(fs->dirix, 0, sizeof(fs->dirix));
	fs->trace = NULL;
	fs->trace_ctx = NULL;
	fs->config_dwords = 0;
	*out = fs;
	return 0;
}

void nicfit_sysfs_close(struct nicfit_sysfs *fs)
{
	size_t i;

	if (!fs)
		return;
	close(fs->rootfd);
	nicfit__sysfs_dirs_release(fs);
	for (i = 0; i < fs->nproblems && i < NICFIT_SYSFS_MAX_PROBLEMS; i++)
		free(fs->problems[i].path);
	nicfit__sysfs_records_release(fs);
	free(fs);
}

void nicfit_sysfs_trace(struct nicfit_sysfs *fs, nicfit_sysfs_trace_fn fn, void *ctx)
{
	fs->trace = fn;
	fs->trace_ctx = ctx;
}

/* The facts each file of discovery's is read for, by its name. */
const char *nicfit_sysfs_read_why(int op, const char *path, const char *why)
{
	static const struct {
		const char *name, *why;
	} tab[] = {
		{ "devices", "the PCI functions (bus listing) or a class's devices" },
		{ "uevent", "class, IDs, subsystem IDs, driver" },
		{ "numa_node", "NUMA node" },
		{ "local_cpulist", "NUMA node from the local CPUs" },
		{ "local_cpus", "NUMA node from the local CPUs" },
		{ "current_link_speed",
		  "link: config has no PCIe capability, or the kernel's text for a register value" },
		{ "current_link_width", "link: config here has no PCIe capability" },
		{ "max_link_speed",
		  "link: config has no PCIe capability, or the kernel's text for a register value" },
		{ "max_link_width", "link: config here has no PCIe capability" },
		{ "secondary_bus_number", "the bus below a bridge (slots)" },
		{ "sriov_totalvfs", "SR-IOV capable" },
		{ "sriov_numvfs", "SR-IOV: VFs enabled" },
		{ "physfn", "a VF's PF" },
		{ "driver", "the bound driver" },
		{ "iommu_group", "the IOMMU group" },
		{ "vpd", "the card's part number (VPD)" },
		{ "address", "a slot's address" },
		{ "max_bus_speed", "a slot's speed" },
		{ "cpulist", "a NUMA node's CPUs" },
		{ "distance", "NUMA distances" },
		{ "hostname", "the host's name" },
		{ "osrelease", "the kernel release" },
		{ "sys_vendor", "the server's maker (DMI)" },
		{ "product_name", "the server's model (DMI)" },
		{ "state", "an RDMA port's state" },
		{ "phys_state", "an RDMA port's physical state" },
		{ "rate", "an RDMA port's rate" },
		{ "link_layer", "an RDMA port's link layer (InfiniBand or Ethernet)" },
		{ "node_type", "an RDMA device's node type" },
		{ "hca_type", "an RDMA device's HCA type" },
		{ "fw_ver", "an RDMA device's firmware version" },
		{ "board_id", "an RDMA device's board ID (PSID)" },
		{ "operstate", "a network interface's state" },
		{ "carrier", "a network interface's carrier" },
		{ "speed", "a network interface's link speed" },
		{ "mtu", "a network interface's MTU" },
		{ "type", "a network interface's type" },
	};
	const char *b = strrchr(path, '/');
	size_t i;

	if (why)
		return why;
	if (strstr(path, "/gid_attrs/types/"))
		return "a GID's type (RoCE v1 or v2)";
	if (strstr(path, "/gids/"))
		return "a GID (a RoCE port's address)";
	b = b ? b + 1 : path;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(b, tab[i].name))
			return tab[i].why;
	return op == 'D' ? "what the directory holds" : op == 'M' ? "whether it is there"
						       : "host, network or RDMA fact";
}

int nicfit_sysfs_recording_whole(const struct nicfit_sysfs *fs)
{
	return fs->recording == 1;
}

const char *nicfit_sysfs_root(const struct nicfit_sysfs *fs)
{
	return fs->root;
}

int nicfit_sysfs_is_live(const struct nicfit_sysfs *fs)
{
	return fs->live;
}
