/*
 * lu_timed_play.c -- see lu_timed_play.h.
 */
#include <stdlib.h>

#include "lu_grid_play.h"
#include "lu_play.h"
#include "lu_row_play.h"
#include "lu_solve.h"
#include "lu_timed_play.h"
#include "vsim.h"

double vproc_lu_play_events(const vproc_lu_platform *pl)
{
	/* the row and the grid plays book about as many (lu_row_play.h) */
	return vproc_lu_steps_events(pl) + vproc_lu_getrs_events(pl);
}

/* The timed region before PDGETRF's steps: the barrier lets the ranks
 * go, then PCHK1MAT's GLOBCHK. */
static void lu_begin(vproc_vsim *s)
{
	vproc_vsim_timer_start(s);
	vproc_vsim_globchk(s);
}

/* After them: PDGETRF agrees on INFO along each process row (IGAMN2D
 * 'Rowwise' ' ': MPI_Allreduce), hl-driver solves (PDGETRS), the end's
 * barrier. */
static void lu_end(vproc_vsim *s)
{
	for (size_t p = 0; p < s->pl->P; p++)
		vproc_vsim_allreduce(s, p * s->pl->Q, 1, s->pl->Q, 4.0);
	vproc_lu_getrs(s);
	vproc_vsim_timer_stop(s);
}

/* Does some machine hold two processes or more?  (-1: no memory.) */
static int shared(const vproc_lu_platform *pl)
{
	unsigned char *seen = calloc(pl->nmachines, 1);
	int two = 0;
	if (seen == NULL)
		return -1;
	for (size_t i = 0; i < pl->P * pl->Q && !two; i++) {
		size_t m = pl->machine[i];
		two = m < pl->nmachines && seen[m];
		if (m < pl->nmachines)
			seen[m] = 1;
	}
	free(seen);
	return two;
}

/* A grid (P > 1) is played in the runtime's order (lu_grid_play.h) when
 * ranks share a machine and the play is small enough; with one rank a
 * machine no calendar is shared and the ring-by-ring play books the same
 * (but the runtime's 1 ns tick a message), at a fifth of the cost; above
 * VPROC_LU_GRID_PLAY_EVENTS counted events the event play would cost 5 to
 * 9 times the ring play's (a cache miss a move: bench_plan's 2D plan of
 * 4096 processors took 21 s instead of 3.4 s, load 30-40), so the ring
 * play keeps the plan's cost bounded. */
static int grid_play(const vproc_lu_platform *pl)
{
	if (pl == NULL || pl->P < 2 || pl->ring_play || vproc_lu_platform_check(pl) != VPROC_OK)
		return 0;
	return vproc_lu_play_events(pl) <= VPROC_LU_GRID_PLAY_EVENTS && shared(pl) != 0;
}

vproc_status vproc_lu_play_time(const vproc_lu_platform *pl, vproc_lu_seconds *out)
{
	/* one process row: the runtime's order (lu_row_play.h) */
	if (pl != NULL && pl->P == 1)
		return vproc_lu_row_play_time(pl, lu_begin, lu_end, out);
	if (grid_play(pl))
		return vproc_lu_grid_play_time(pl, lu_begin, lu_end, out);
	return vproc_vsim_play(pl, lu_begin, vproc_lu_step, lu_end, out);
}

vproc_status vproc_lu_steps_time(const vproc_lu_platform *pl, vproc_lu_seconds *out)
{
	if (pl != NULL && pl->P == 1)
		return vproc_lu_row_play_time(pl, NULL, NULL, out);
	if (grid_play(pl))
		return vproc_lu_grid_play_time(pl, NULL, NULL, out);
	return vproc_vsim_run(pl, vproc_lu_step, out);
}
