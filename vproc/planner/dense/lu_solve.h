/*
 * lu_solve.h -- hl-driver's PDGETRS (TRANS = 'N', one right-hand side x,
 * n x 1 on process column 0), played on the virtual clock's arithmetic
 * (vsim.h) after lu_play.c's PDGETRF (doc/design/predictions.md,
 * "PDGETRS, played"): PCHK2MAT's GLOBCHK; PDLAPIV, per block of b rows
 * its pivots down the process columns and x's swaps across process rows
 * on column 0, one latency each; then the two PDTRSMs, which pdtrsm_.c
 * sends to PB_CptrsmB for N = 1 (nb > 2): per logical block of 2
 * PILAENV lcm(P, Q) rows PB_Cptrsm's pipeline, each b-block of x solved
 * by its owner and rung down its process column (increasing ring for L,
 * decreasing for U), the look-ahead rows' partial sums passed along the
 * process row to the next block's column; two latencies a block when
 * P, Q > 1.  Between logical blocks and at the end the scattered sums
 * meet along each process row (MPI_Reduce).  Pure (vproc rules).
 */
#ifndef VPROC_DENSE_LU_SOLVE_H
#define VPROC_DENSE_LU_SOLVE_H

#include "vsim.h"

/* PDGETRS on s's clocks, as the factorization left them. */
void vproc_lu_getrs(vproc_vsim *s);

/* About how many events vproc_lu_getrs books (lu_play.h's budget). */
double vproc_lu_getrs_events(const vproc_lu_platform *pl);

#endif
