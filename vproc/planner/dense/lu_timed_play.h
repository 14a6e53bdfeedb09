/*
 * lu_timed_play.h -- the predicted seconds of hl-driver's timed LU
 * (kernel lu): the play that fits the platform between the timed region's
 * begin and end.  A 1 x Q row (P = 1) is played event by event in the
 * runtime's order of bookings (lu_row_play.h); a P x Q grid too when
 * ranks share a machine and the play is small enough (lu_grid_play.h);
 * otherwise ring by ring (lu_play.h), which books the same with one rank
 * a machine, cheaper.  Pure (vproc rules).
 */
#ifndef VPROC_DENSE_LU_TIMED_PLAY_H
#define VPROC_DENSE_LU_TIMED_PLAY_H

#include "lu_time.h"

/* hl-driver's timed region of kernel lu (launcher/programs/driver.c):
 * its barriers (vsim.h's timer), PDGETRF (PCHK1MAT's GLOBCHK, the steps,
 * INFO's IGAMN2D along the rows) and PDGETRS (lu_solve.h). */
vproc_status vproc_lu_play_time(const vproc_lu_platform *pl, vproc_lu_seconds *out);

/* PDGETRF's steps alone, from clocks at 0 (the unit tests' hand-worked
 * cases). */
vproc_status vproc_lu_steps_time(const vproc_lu_platform *pl, vproc_lu_seconds *out);

/* A P x Q grid whose ranks share machines is played in the runtime's
 * order (lu_grid_play.h) up to these counted events (vproc_lu_play_events),
 * ring by ring above (lu_timed_play.c, grid_play). */
#define VPROC_LU_GRID_PLAY_EVENTS 5.0e6

/* About how many events (messages, bookings, flop terms) the play of pl
 * costs, PDGETRS's included, for the caller's budget (uses pl's n, b, P, Q only). */
double vproc_lu_play_events(const vproc_lu_platform *pl);

#endif
