/*
 * slurm.h -- `hetlaunch run` inside a Slurm allocation: the
 * ranks are started by srun, rank k on line k of the plan's `slurm` host
 * file (SLURM_HOSTFILE, --distribution=arbitrary), not by mpiexec.
 *
 * Why srun and not Hydra's `-launcher slurm`: with Debian's MPICH 4.0.2,
 * Hydra under Slurm starts its proxies with srun over the allocation's
 * node list and places the ranks in that list's order, whatever the -f host
 * file says (measured: n3:1 / n1:2 / n2:1 gave ranks on n1, n2, n2, n3).
 * srun with SLURM_HOSTFILE put every rank where the file says, and
 * MPICH's PMI client speaks Slurm's pmi2 plugin (srun --mpi=pmi2).
 */
#ifndef HL_SLURM_H
#define HL_SLURM_H

#include <stddef.h>

#include "config/config.h"

/* Launch through srun?  Yes inside an allocation (SLURM_JOB_ID set), for
 * real hosts (not emulate:), with MPICH (mpi: openmpi keeps mpirun and its
 * rankfile: untested under srun), when the machine list names no `mpiexec:`
 * (an explicit launcher is the user's choice) and HETLAUNCH_SLURM is not 0. */
int hl_slurm_wanted(const hl_config *cfg);

/*
 * hl_slurm_argv -- the srun command for the Hydra command hetlaunch built.
 *   hydra     in   mpiexec.hydra [-f FILE] -n N {-genv NAME VALUE} PROGRAM ARGS...
 *   hostfile  in   the plan's `slurm` host file (absolute path)
 *   cpu_bind  in   --cpu-bind's value (hl_bind_list's map_cpu:/mask_cpu:), or
 *                  NULL: no binding
 *   argv      out  srun --mpi=pmi2 --distribution=arbitrary --overcommit -n N
 *                  [--cpu-bind=...] --kill-on-bad-exit=1 --export=ALL[,LD_PRELOAD=...] PROGRAM ARGS...
 *   env       out  NAME=VALUE for the srun process: every -genv but LD_PRELOAD
 *                  (srun passes its environment on to the tasks; LD_PRELOAD
 *                  goes by --export, so that srun itself does not load the
 *                  runtime), and SLURM_HOSTFILE
 * Both NULL-terminated, malloc'd (free with hl_strv_free).  Returns 0, or -1
 * when out of memory or the Hydra command is not of that form.
 */
int hl_slurm_argv(char *const *hydra, const char *hostfile, const char *cpu_bind, char ***argv,
                  char ***env);

void hl_strv_free(char **v);

/*
 * hl_slurm_check_allocation -- inside an allocation (SLURM_JOB_NODELIST
 * set), for real hosts (not emulate:) and hetlaunch's launcher (no
 * mpiexec:, which may reach hosts outside it), every host the ranks run on
 * (machine[0..nranks) config indices) must be one of its nodes: `localhost`
 * is the node hetlaunch runs on.  Returns 0; 2 with the hosts missing (or
 * a node list it cannot read) in err; 1 when out of memory.
 */
int hl_slurm_check_allocation(const hl_config *cfg, const size_t *machine, size_t nranks,
                              char *err, size_t len);

/*
 * hl_slurm_cancelled -- the job was ended by Slurm (scancel, the time
 * limit): srun's "CANCELLED" line, or a SIGTERM to hetlaunch while in an
 * allocation.  Writes the message for the report and returns 1; else 0.
 */
int hl_slurm_cancelled(const char *log, int signal, char *msg, size_t len);

/*
 * hl_slurm_read_nodes -- the allocation's nodes, for the machine list's
 * node types (nodes.h's reader; ctx unused): SLURM_JOB_NODELIST (or, in a
 * heterogeneous job, every SLURM_JOB_NODELIST_HET_GROUP_K, K below
 * SLURM_HET_SIZE, which also gives each node its group) expanded by
 * hostlist.h, each node's features, partitions and CPUs from
 * `scontrol show node -o LIST` (argv, no shell).  0, or -1 with err.
 */
int hl_slurm_read_nodes(void *ctx, hl_nodes *out, char *err, size_t len);

/*
 * hl_slurm_het_refused -- a heterogeneous job (SLURM_HET_SIZE > 1) is
 * refused, with why in msg (1), else 0.  Measured with Slurm 22.05 and
 * MPICH 4.0.2 (pmi2) on tests/e2e/slurm's cluster: `srun --het-group=0,1`
 * starts one MPI_COMM_WORLD over the components and a gather passes, but
 * the step did not end after MPI_Finalize (killed after 30 s); and srun
 * with SLURM_HOSTFILE and --distribution=arbitrary, the only way to put
 * rank k on the plan's node, sees component 0 alone ("SLURM_JOB_NUM_NODES
 * environment variable conflicts with allocated node count (3 != 1)").
 */
int hl_slurm_het_refused(char *msg, size_t len);

#endif
