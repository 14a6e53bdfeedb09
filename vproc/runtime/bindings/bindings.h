/*
 * bindings.h -- the runtime's bindings: the interposed calls of the MPI
 * program (MPI, BLAS, the clocks, UCX's disconnect), each over the core
 * (core/core.h), which never calls back up.
 *
 *   p2p.c           point to point, init/finalize, MPI_Wtime
 *   coll.c          Bcast, Reduce, Allreduce, Barrier over point-to-point
 *   communicators.c the communicator constructors and MPI_Comm_free
 *   blas.c          DGEMM and the level-2/3 kernels charged by their flops
 *   pblas.c         PDNRM2: under compute: skip, no zero norm (no skipped reflector)
 *   clock.c         clock_gettime, gettimeofday under the virtual clock
 *   ucx.c           MPICH 4.0.2's finalize over UCX (MPICH build only)
 *   alloc.c         malloc: folded blocks (compute: skip), hpcc's skipped sections
 *   stdio.c         the program's writes, for hpcc's sections (core/sections.c)
 */
#ifndef VR_BINDINGS_H
#define VR_BINDINGS_H

#include "runtime/core/core.h"

/* coll.c: a cooperative barrier (MPI_Finalize, the constructors) */
int vr_barrier(MPI_Comm comm);
/* MPI_Sendrecv's work (p2p.c), for the collectives' exchanges too: *status
 * gets the receive's status once the wait has run. */
int vr_sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                int recvtag, MPI_Comm comm, MPI_Status *status);

#endif
