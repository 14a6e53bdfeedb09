/*
 * lu_row_play.h -- PDGETRF on one process row (P = 1, a 1 x Q grid) played
 * event by event, in the order the runtime books (doc/design/predictions.md,
 * "Ranks sharing a machine in 1D"): every process runs its own program
 * (its sends, receives and compute segments, step after step) and the
 * process with the smallest clock moves first, ties by rank
 * (vproc/model/order_bounds.c); a process's compute between two MPI calls
 * is one segment, booked on its machine's processor when it reaches the
 * next call; its sends book its machine's port at its clock.  So siblings
 * on one machine share its processor and port in virtual-time order, as
 * under the emulator.  vproc_lu_play_time (lu_timed_play.h) calls it for P = 1, and
 * vproc_lu_play_events counts its events too (as many: a ring hop, a
 * segment, a piece each).
 * Pure (vproc rules).
 */
#ifndef VPROC_DENSE_LU_ROW_PLAY_H
#define VPROC_DENSE_LU_ROW_PLAY_H

#include "event_play.h"
#include "lu_time.h"
#include "vsim.h"

/* The steps, between begin and end (NULL: none; lu_play.c's timed region
 * of hl-driver) played on the same simulated processes.  VPROC_OK,
 * VPROC_EINVAL (pl->P != 1, or vproc_lu_platform_check), VPROC_ENOMEM. */
vproc_status vproc_lu_row_play_time(const vproc_lu_platform *pl, vproc_vsim_phase *begin,
                                    vproc_vsim_phase *end, vproc_lu_seconds *out);

/* The row's pieces, for process (p, q) of e's grid (index p Q + q):
 * its part of BLACS's split ring along row p from column root
 * (BI_SringBS / BR: the root sends right, then left; up to Q / 2 away the
 * processes forward to their right, beyond Q / 2 + 1 to their left;
 * lu_play.c, vproc_lu_sring); its part of PDTRSM on row p as pdtrsm_
 * chooses (L11's owner in column qk; PB_CptrsmB's pieces booked `group`
 * a message; PB_CptrsmAB's L11 in PILAENV blocks, each broadcast and
 * solved on its own): 1 when its part is all
 * expanded, 0 when L11's owner has more processes to serve (its h counts
 * them). */
void vproc_lu_row_sring(vproc_eplay *e, size_t p, size_t q, size_t root, double bytes);
int vproc_lu_row_trsm(vproc_eplay *e, size_t p, size_t q, size_t lo2, size_t kb, size_t qk,
                      size_t group);

#endif
