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
 * under the emulator.  vproc_lu_play_time calls it for P = 1, and
 * vproc_lu_play_events counts its events too (as many: a ring hop, a
 * segment, a piece each).
 * Pure (vproc rules).
 */
#ifndef VPROC_DENSE_LU_ROW_PLAY_H
#define VPROC_DENSE_LU_ROW_PLAY_H

#include "lu_time.h"
#include "vsim.h"

/* The steps, between begin and end (NULL: none; lu_play.c's timed region
 * of hl-driver) played on the same simulated processes.  VPROC_OK,
 * VPROC_EINVAL (pl->P != 1, or vproc_lu_platform_check), VPROC_ENOMEM. */
vproc_status vproc_lu_row_play_time(const vproc_lu_platform *pl, vproc_vsim_phase *begin,
                                    vproc_vsim_phase *end, vproc_lu_seconds *out);

#endif
