/*
 * openmpi.h -- `mpi: openmpi`: the stock testers of
 * libscalapack-openmpi, the runtime built against Open MPI's headers
 * (lib/hetlaunch/openmpi/libhetlaunch-rt.so), and the job started by Open MPI's mpirun with
 * the plan's rankfile.  `mpi: mpich` (the default) is run.c's Hydra
 * command as it always was.
 */
#ifndef HL_OPENMPI_H
#define HL_OPENMPI_H

#include <stddef.h>

#include "config/config.h"
#include "kernels/kernels.h"

typedef enum { HL_MPI_MPICH, HL_MPI_OPENMPI } hl_mpi;

/*
 * hl_openmpi_program -- the Open MPI build of a kernel's default program:
 * Debian's openmpi-tests tester for a stock one, lib/hetlaunch/openmpi/NAME
 * for one beside the binary (hl-driver, hl-ring).
 *   row   in   the kernel's row (kernels.h)
 *   out   out  its path
 * Returns 0, or -1 with the reason in err.
 */
int hl_openmpi_program(const hl_kernel_def *row, char *out, size_t len, char *err, size_t errlen);

/* The runtime under the install prefix: lib/hetlaunch/libhetlaunch-rt.so (MPICH) or
 * lib/hetlaunch/openmpi/libhetlaunch-rt.so. */
const char *hl_mpi_runtime(const hl_config *cfg);

/*
 * hl_openmpi_argv -- the mpirun command for the Hydra command run.c built.
 *   hydra     in   PREFIX... [-f FILE] -n N {-genv NAME VALUE} PROGRAM ARGS...
 *   nprefix   in   the words of PREFIX (the YAML's mpiexec:, or 1)
 *   cfg       in   mpiexec: replaces "mpirun" when given
 *   rankfile  in   the plan's `openmpi` rankfile, used when the Hydra command
 *                  had a host file (real hosts); without one (emulation) every
 *                  rank is on this computer: --oversubscribe --bind-to none
 *   argv      out  mpirun [--allow-run-as-root] -np N (--rankfile F | ...)
 *                  (in a Slurm allocation: --oversubscribe beside the rankfile,
 *                  and HETLAUNCH_PLACEMENT=slurm: each rank names its node)
 *                  --mca mpi_yield_when_idle 1 {-x NAME=VALUE} PROGRAM ARGS...
 *                  (NULL-terminated, malloc'd; hl_strv_free)
 * --allow-run-as-root only when hetlaunch runs as root (Open MPI refuses
 * root otherwise).  Returns 0, or -1 when out of memory or the command is
 * not of that form.
 */
int hl_openmpi_argv(char *const *hydra, size_t nprefix, const hl_config *cfg,
                    const char *rankfile, char ***argv);

/* Why an Open MPI job failed, from what mpirun printed: writes "a rank
 * called MPI_Abort: ...", "a rank died: ..." or "a rank failed, and Open
 * MPI lost its notice ..." and returns 1; else 0. */
int hl_openmpi_failure(const char *log, char *msg, size_t len);

/* mpirun's notice of an MPI_Abort in log ("MPI_ABORT was invoked on rank
 * R ..."), with the rank it names in *rank; NULL if there is none. */
const char *hl_openmpi_abort_line(const char *log, int *rank);

#endif
