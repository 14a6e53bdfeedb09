/*
 * qr_time.h -- the predicted seconds of ScaLAPACK's QR factorization
 * (PDGEQRF, n x n, CYCLIC(b) both ways on a P x Q grid, no look-ahead) with
 * the network, on the platform type of lu_time.h, played out on
 * the virtual clock's arithmetic (vsim.h) like mm_time.c.
 *
 * Step k (000 s4.2: the panel, then the rank-b update, as LU): on process
 * column k mod Q, PDGEQR2 factors the panel column by column (per column
 * PDLARFG's alpha broadcast from the diagonal's row, PDNRM2's 1-tree of
 * the norm to process row 0 and its broadcast back, as PDAMAX's in LU;
 * then PDLARF's DGEMV, the sum of its kb - j - 1 words down the column
 * (MPI_Allreduce, or MPI_Reduce to the diagonal's row in the last block
 * row) and DGER), played in bulk like PDGETF2's (colplay.h); PDLARFT
 * forms T (DGEMVs, one sum of k (k - 1) / 2 words, DTRMVs); PDLARFB sends
 * V along every process row (an increasing ring: PDGEQRF sets 'I-ring'
 * rowwise) and T's triangle along process row k mod P, computes W = C^T V
 * (DGEMM), sums W down each process column to row k mod P (a reduction,
 * MPI_Reduce), multiplies it by T there, broadcasts it back down the
 * column (' ': MPI_Bcast) and updates C -= V W^T (DGEMM).  Around the
 * steps, hl-driver's timed region: its barriers and PCHK1MAT's GLOBCHK
 * (vsim.h).  The level-1 work (norms, scalings) is not charged,
 * as under cpu_time: false.  Pure (vproc rules).
 */
#ifndef VPROC_DENSE_QR_TIME_H
#define VPROC_DENSE_QR_TIME_H

#include "lu_time.h"

vproc_status vproc_qr_time(const vproc_lu_platform *pl, vproc_lu_seconds *out);

#endif
