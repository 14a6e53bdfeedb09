/*
 * mm_time.h -- the predicted seconds of ScaLAPACK's matrix product C = A B
 * (PDGEMM, n x n, CYCLIC(b) both ways on a P x Q grid) with the network
 *, on the platform type of lu_time.h.
 *
 * The algorithm is the outer product of 000 s2.3 and s4.1.1: at step k the
 * k-th column block of A goes along every process row, the k-th row block
 * of B down every process column, and every process updates its blocks of
 * C (2 rows x cols x b flops).  The broadcasts are rings in grid order from
 * the owner (BLACS's point-to-point topologies, which PDGEMM's broadcasts
 * take, not MPI_Bcast): a hop between two machines is one message.
 *
 * Unlike LU, the steps do not shrink and every process works at every step,
 * so no closed sum of phases fits: a process waits for its panels, and a
 * panel waits for the process that forwards it.  The model therefore plays
 * the steps out on the virtual clock's own arithmetic (vsim.h on
 * vproc/model/model.h), as the emulation charges them: each process keeps a
 * clock; a message between
 * machines books the sender's port (or the one bus) from the sender's clock
 * for bytes / bandwidth, holds the sender until it is out, and arrives
 * after the latency; a process forwards a panel when it has both the panel
 * and finished its previous update; an update books its machine's
 * processor calendar (the machine's processes share it).  The time is the
 * last clock.  Pure (vproc rules).
 */
#ifndef VPROC_DENSE_MM_TIME_H
#define VPROC_DENSE_MM_TIME_H

#include "lu_time.h"

/* C = A B of order pl->n on pl's grid: out->total the last process's clock,
 * out->compute the busiest machine's updates, out->network the rest. */
vproc_status vproc_mm_time(const vproc_lu_platform *pl, vproc_lu_seconds *out);

#endif
