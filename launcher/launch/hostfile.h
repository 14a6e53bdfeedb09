/*
 * hostfile.h -- the plan as the launchers read it: one MPI rank per entry,
 * in rank order (hl_ranks: BLACS row-major), each rank on its machine's
 * `host`.  The heterogeneous mapping only exists if the launcher starts
 * rank k where the plan put it; each format below is the one way we know
 * to make that launcher do so (README "Host files", hetlaunch(1) HOSTFILE).
 */
#ifndef HL_HOSTFILE_H
#define HL_HOSTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "util/diag.h"
#include "layouts/plan.h"

typedef enum {
	/* MPICH Hydra `-f`: "host:k" per run of consecutive ranks on one host.
	 * Hydra merges a line only with the one above it, so an interleaved
	 * order keeps the rank order but makes every line its own "node". */
	HL_HOSTS_MPICH,
	/* MPICH Hydra `-f` for use with `-rankmap`: each host once, "host:k"
	 * with k its number of ranks, in order of first appearance. */
	HL_HOSTS_MPICH_GROUPED,
	/* The `-rankmap` argument for the grouped list: one 0-based line
	 * (node) index per rank, comma separated, on one line. */
	HL_HOSTS_MPICH_RANKMAP,
	/* Open MPI rankfile: "rank K=host slot=S" (hl_hostfile_print). */
	HL_HOSTS_OPENMPI,
	/* Open MPI host file for `--map-by seq`: one host per rank. */
	HL_HOSTS_OPENMPI_SEQ,
	/* SLURM_HOSTFILE for `srun --distribution=arbitrary`: one host per rank. */
	HL_HOSTS_SLURM
} hl_hosts_format;

/* For usage messages. */
#define HL_HOSTS_FORMATS "mpich, mpich-grouped, mpich-rankmap, openmpi, openmpi-seq, slurm"

/* group[m]: the number of machine m's host, 0, 1, ... in order of first
 * appearance in the machine list (equal `host` strings are one host).
 * Returns the number of hosts, or (size_t)-1 when out of memory. */
size_t hl_host_groups(const hl_config *cfg, size_t *group);

/* Returns 0 and sets *fmt, or -1 if name is not one of HL_HOSTS_FORMATS. */
int hl_hosts_format_parse(const char *name, hl_hosts_format *fmt);
const char *hl_hosts_format_name(hl_hosts_format fmt);

/*
 * hl_hostfile_check -- can fmt express the hosts of these ranks?  The MPICH
 * formats cannot hold a host with ':' (Hydra reads what follows as the
 * process count).  Returns 0, or -1 with every offending machine reported
 * in d at its place in the machine list (exit status 2).  Call it before
 * hl_hostfile_print/_write: they write hosts as they are.
 */
int hl_hostfile_check(hl_hosts_format fmt, const hl_config *cfg, const hl_ranks *r, diag *d);

/*
 * hl_hostfile_print -- write the file (or, for HL_HOSTS_MPICH_RANKMAP, the
 * argument) to out.  Openmpi slots: the machines that share a host are that
 * host's processors 0, 1, ... in machine-list order (a `count: k` entry is
 * k of them); every rank of a machine is bound to that machine's slot, as
 * the processes of one machine share its processor (paper 002 s2.3: "B PVM
 * processes which we allocate to the p physical processors").
 * Returns 0, or -1 when out of memory or out reports a write error.
 */
int hl_hostfile_print(FILE *out, hl_hosts_format fmt, const hl_config *cfg,
                      const hl_ranks *r);

/* hl_hostfile_print into path, atomically (hl_write_atomic).  Returns 0, or
 * -1 with a message naming path in err. */
int hl_hostfile_write(const char *path, hl_hosts_format fmt, const hl_config *cfg,
                      const hl_ranks *r, char *err, size_t errlen);

/* The same into an output the user named (-o): hl_write_output, so a
 * device or a FIFO is written in place.  0, -1 (write failed) or -2
 * (path refused, nothing written). */
int hl_hostfile_output(const char *path, hl_hosts_format fmt, const hl_config *cfg,
                       const hl_ranks *r, char *err, size_t errlen);

/*
 * hl_hostfile_split_hosts -- the number of hosts that the plain mpich file
 * lists on more than one run of lines.  Hydra (through MPICH 4.x) makes each
 * such run a separate node: node-aware collectives and MPI_COMM_TYPE_SHARED
 * see the pieces, not the host, and `-bind-to` binds per line, so the ranks
 * of one host end up on the same cores.  0 means the plain file is exact.
 * Returns (size_t)-1 when out of memory.
 */
size_t hl_hostfile_split_hosts(const hl_config *cfg, const hl_ranks *r);

/*
 * hl_hydra_rankmap -- the value of Hydra's `-rankmap` for the
 * HL_HOSTS_MPICH_GROUPED list: "n0,n1,...", n_k the 0-based line of rank k's
 * host in that list.  Malloc'd, no newline; NULL when out of memory.
 * Only Hydra with `-rankmap` (hl_hydra_has_rankmap) understands it.
 */
char *hl_hydra_rankmap(const hl_config *cfg, const hl_ranks *r);

/*
 * hl_hydra_has_rankmap -- run `MPIEXEC -help` (fork + execvp, no shell,
 * stdin from /dev/null, stdout and stderr through one pipe, killed after
 * HL_HELP_TIMEOUT_MS) and look for "-rankmap" in what it prints.
 * Returns 1 if it is there, 0 if not, -1 if MPIEXEC could not be run or
 * did not finish in time.
 */
#define HL_HELP_TIMEOUT_MS 5000
int hl_hydra_has_rankmap(const char *mpiexec);

/*
 * hl_bind_list -- the launcher's option value that binds every rank to its
 * machine's CPUs: a machine owns `cores` CPUs of its host (1 by default),
 * the machines that share a host owning consecutive CPUs in machine-list
 * order (the rankfile's slots).  srun and Hydra take ONE list, applied on
 * every node by the rank's local index there, so the ranks of every node
 * must agree with it.
 *   style     HL_BIND_SRUN: "map_cpu:0,1,..." (one CPU each) or
 *             "mask_cpu:0x3,0xc,..." (several); HL_BIND_HYDRA:
 *             "user:0,1,..." or "user:0+1,2+3,..." (-bind-to's value)
 *   per_line  1: Hydra's nodes are the plain mpich file's lines (it starts
 *             a proxy per line); 0: hosts (srun, Hydra with -rankmap)
 *   out       malloc'd value, or NULL
 * Returns 0 (*out set), 1 (nothing to bind: every host of the plan is one
 * machine of one core), -2 (two nodes need different lists: not bindable
 * by this launcher) or -1 (out of memory).
 */
typedef enum { HL_BIND_SRUN, HL_BIND_HYDRA } hl_bind_style;

/*
 * hl_hydra_mapping_len -- the length of the node map Hydra gives the ranks
 * (PMI_process_mapping, MPICH 4.0's encoding) for these ranks: per_line 1
 * with the plain mpich file (a node per line), 0 with the grouped list and
 * -rankmap (a node per host).  Hydra drops a map longer than
 * HL_HYDRA_MAPPING_MAX.  (size_t)-1 when out of memory.
 */
#define HL_HYDRA_MAPPING_MAX 1024
size_t hl_hydra_mapping_len(const hl_config *cfg, const hl_ranks *r, int per_line);

/* The warning for a map over HL_HYDRA_MAPPING_MAX bytes, on err (one line;
 * nothing when it fits). */
void hl_hydra_mapping_warn(FILE *err, const hl_config *cfg, const hl_ranks *r, int per_line);
int hl_bind_list(const hl_config *cfg, const hl_ranks *r, hl_bind_style style, int per_line,
                 char **out);

#endif
