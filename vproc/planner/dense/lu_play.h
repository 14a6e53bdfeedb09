/*
 * lu_play.h -- ScaLAPACK's PDGETRF played out on
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
 * Here: that ring-by-ring step, and the pieces the event plays
 * (lu_row_play.h, lu_grid_play.h) and PDGETRS (lu_solve.h) share; which
 * play times a platform is lu_timed_play.h's choice.
 * Pure (vproc rules).
 */
#ifndef VPROC_DENSE_LU_PLAY_H
#define VPROC_DENSE_LU_PLAY_H

#include "lu_time.h"
#include "vsim.h"


/* PILAENV: PBLAS's logical block size (PBLAS/SRC/pilaenv.f returns 32),
 * which decides PDTRSM's topologies, PB_CptrsmB's pieces and logical
 * blocks. */
#define VPROC_LU_PILAENV 32


/* PB_CptrsmB's pieces the play books one by one at most; beyond, one
 * message books several, their latencies kept (lu_play.c, piece_group). */
#define VPROC_LU_PLAY_PIECES 4.0e6

/* About how many events (messages, bookings, flop terms) PDGETRF's
 * steps cost in the plays (uses pl's n, b, P, Q only). */
double vproc_lu_steps_events(const vproc_lu_platform *pl);

/* Step k of PDGETRF's loop, ring by ring, on the panel of rows [lo, lo +
 * kb) (vsim.h's vproc_vsim_step). */
void vproc_lu_step(vproc_vsim *s, size_t k, size_t lo, size_t kb);

/* How many of them one message books (pl->piece_group, or the play's
 * choice); lu_row_play.c books them alike. */
size_t vproc_lu_piece_group(const vproc_lu_platform *pl);


/* The pivots of the panel at rows [lo, lo + kb) expected on process row x
 * (not the panel's) for a random matrix: partial pivoting takes the
 * largest of column K's entries in rows K..n-1, which are exchangeable,
 * so the pivot is uniform over them; x holds none of the panel's rows,
 * so the count is x's rows below the panel times w, the panel's weight,
 * the sum over its columns K of 1 / (n - K).  (P - 1) / P of them, taken
 * before, is too many near the end: on 2 x 4 at n = 256, nb = 32 the
 * emulation's PDLAPIV swapped 119 of 256 across rows (trace.json), 116.7
 * expected, (P - 1) / P 128 (LAPACK's DGETRF on hl-driver's matrix: 119). */
double vproc_lu_pivot_weight(const vproc_lu_platform *pl, size_t lo, size_t kb);
double vproc_lu_pivots_on(const vproc_lu_platform *pl, size_t lo, size_t kb, double w, size_t x);

/* The chain of PDSWAP exchanges in process column q between the panel's
 * process row pk (its rows [lo, lo + kb), w its vproc_lu_pivot_weight)
 * and the rows of its pivots, `calls` passes over them, each exchange
 * row_bytes each way (PDLASWP's calls in PDGETRF, PDLAPIV's one in
 * PDGETRS).  PDSWAP's exchange is one latency (both send, then receive),
 * and the swaps go in the pivots' order, the partners at random: pk
 * waits only for a partner it met shortly before (its message comes a
 * latency after pk's last one reached it).  With one partner each swap
 * costs a latency; with m alike, a long chain costs sqrt(2 / (m + 1))
 * latencies a swap (simulated: 0.80, 0.69, 0.50, 0.35, 0.19 at m = 2, 3,
 * 7, 16, 64; the emulation's PDLAPIV on 8 x 1, n = 512 to 2048, 0.54-0.56
 * with its blocks' starts).  Chained per partner instead, m of them cost
 * a latency a swap, and the blocks overlapped. */
void vproc_lu_swap_chain(vproc_vsim *s, size_t lo, size_t kb, double w, size_t pk, size_t q,
                         double calls, double row_bytes);

/* PDGETF2's communication down process column qk for the panel of rows
 * [lo, lo + kb) on process row pk, seconds: its columns' trees, swaps and
 * pivot rows played on s's aux clocks (colplay.h), the pivot's exchange
 * weighted by how often it lies on another process row. */
double vproc_lu_panel_seconds(vproc_vsim *s, size_t lo, size_t kb, size_t pk, size_t qk);

/* The same, and the first column's share in *first. */
double vproc_lu_panel_parts(vproc_vsim *s, size_t lo, size_t kb, size_t pk, size_t qk, double *first);

/* Column j's rank-1 update of the panel [lo, lo + kb) on process row p,
 * flops: DGER on the rows below the pivot (from lo + j + 1) and the kb -
 * j - 1 columns right of it (dgetf2.f, pdgetf2.f).  The emulator charges
 * DGER by these flops, and DSCAL, IDAMAX and DSWAP by CPU time only, so
 * they are not counted here; counting the pivot's row and column too
 * (rows from lo + j, kb - j columns) put 2 kb rows flops more on every
 * panel (4.7 us at step 41 of a 1d LU with B = M, n = 2048, nb = 32):
 * enough to flip which of two siblings got the processor first
 * (doc/design/predictions.md). */
double vproc_lu_dger_flops(const vproc_lu_platform *pl, size_t lo, size_t j, size_t kb, size_t p);

/* Their sum over the panel's kb columns on process row p. */
double vproc_lu_panel_flops(const vproc_lu_platform *pl, size_t lo, size_t kb, size_t p);

/* BLACS's split ring on row p of s's grid from column root (exposed for
 * the unit tests). */
void vproc_lu_sring(vproc_vsim *s, size_t p, size_t root, double bytes);

/* 1 when pdtrsm_ takes PB_CptrsmAB for PDGETRF's solve of kb rows and
 * ncols columns on a P x Q grid of block size b, 0 for PB_CptrsmB. */
int vproc_lu_trsm_ab(size_t P, size_t Q, size_t b, size_t kb, size_t ncols);

#endif
