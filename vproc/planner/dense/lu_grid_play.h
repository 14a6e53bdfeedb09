/*
 * lu_grid_play.h -- PDGETRF on a P x Q grid (P > 1) played event by event,
 * in the order the runtime books (event_play.h; doc/design/predictions.md,
 * "Ranks sharing a machine in 2D"): every process (p, q) runs its own
 * program, step after step: the panel on process column qk (PDGETF2's
 * messages down the column in bulk phases, lu_play.c's column play cut
 * into the first column's four message phases and up to 16 chunks of the
 * others: each phase the column's processes wait for their ports and for
 * each other, pay its communication, compute its rank-1 updates), the
 * pivots along its row by the split ring,
 * PDLASWP's exchanges with row pk in its column (vproc_lu_swap_chain's
 * chain, its remaining latencies a synchronisation of the partners),
 * PDTRSM on row pk (lu_row_play.h; L11 in PILAENV blocks), L21 along its
 * row by the split ring,
 * U12 down its column (MPI_Bcast's two-level tree, or the increasing ring
 * pdgemm_ forces), its update.  Its compute between two MPI calls is one
 * segment on its machine's processor, its sends book its machine's port at
 * its clock, the process with the smallest clock first: so ranks sharing
 * a machine share its calendars in virtual-time order, as under the
 * emulator.  With one rank a machine it books what lu_play.c's ring-by-ring
 * play books (plus the runtime's 1 ns tick a message, and the panel's
 * slowest row's rank-1 updates of each phase), and lu_timed_play.c has such a
 * grid played ring by ring (lu_play.c).
 * Pure (vproc rules).
 */
#ifndef VPROC_DENSE_LU_GRID_PLAY_H
#define VPROC_DENSE_LU_GRID_PLAY_H

#include "lu_time.h"
#include "vsim.h"

/* The steps, between begin and end (NULL: none; lu_timed_play.c's timed region
 * of hl-driver) played on the same simulated processes.  VPROC_OK,
 * VPROC_EINVAL (pl->P < 2, or vproc_lu_platform_check), VPROC_ENOMEM. */
vproc_status vproc_lu_grid_play_time(const vproc_lu_platform *pl, vproc_vsim_phase *begin,
                                     vproc_vsim_phase *end, vproc_lu_seconds *out);

#endif
