/*
 * lu_play.h -- the predicted seconds of ScaLAPACK's PDGETRF played out on
 * the virtual clock's arithmetic (vsim.h), message by message, in each
 * process's program order, with the BLACS topologies the routines really
 * use (doc/design/predictions.md, "Which is right"): per step PDGETF2 on
 * the panel's process column and its pivots along the rows by the split
 * ring; PDLASWP; PDTRSM as pdtrsm_.c chooses it (PB_CptrsmAB: L11 along
 * the row by an increasing ring, or PB_CptrsmB: on a single process row,
 * every piece of the block row to L11's owner and back, which makes the
 * step wait for the slowest process of the row); PDGEMM's L21 along the
 * rows by the split ring and U down the columns by MPI_Bcast, or by the
 * increasing ring pdgemm_ forces when nb > PILAENV, then the update.  No look-ahead: PDGETRF has none.  The sum of phases in
 * lu_time.h (first hop only, no PB_CptrsmB) stays for kernel: hpl.
 * A 1 x Q row (P = 1) is played event by event instead, in the runtime's
 * order of bookings (lu_row_play.h).
 * Pure (vproc rules).
 */
#ifndef VPROC_DENSE_LU_PLAY_H
#define VPROC_DENSE_LU_PLAY_H

#include "lu_time.h"
#include "vsim.h"

vproc_status vproc_lu_play_time(const vproc_lu_platform *pl, vproc_lu_seconds *out);

/* PB_CptrsmB's pieces the play books one by one at most; beyond, one
 * message books several, their latencies kept (lu_play.c, piece_group). */
#define VPROC_LU_PLAY_PIECES 4.0e6

/* How many of them one message books (pl->piece_group, or the play's
 * choice); lu_row_play.c books them alike. */
size_t vproc_lu_piece_group(const vproc_lu_platform *pl);

/* About how many events (messages, bookings, flop terms) the play of pl
 * costs, for the caller's budget (uses pl's n, b, P, Q only). */
double vproc_lu_play_events(const vproc_lu_platform *pl);

/* The topologies, on row p of s's grid from column root (exposed for the
 * unit tests). */
void vproc_lu_sring(vproc_vsim *s, size_t p, size_t root, double bytes);
void vproc_lu_iring(vproc_vsim *s, size_t p, size_t root, double bytes);

/* 1 when pdtrsm_ takes PB_CptrsmAB for PDGETRF's solve of kb rows and
 * ncols columns on a P x Q grid of block size b, 0 for PB_CptrsmB. */
int vproc_lu_trsm_ab(size_t P, size_t Q, size_t b, size_t kb, size_t ncols);

#endif
