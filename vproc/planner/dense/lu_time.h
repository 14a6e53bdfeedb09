/*
 * lu_time.h -- the predicted seconds of ScaLAPACK's right-looking LU
 * (PDGETRF, no look-ahead) on a P x Q grid, CYCLIC(b) both ways, with the
 * network.  Each step k: the panel factorisation on process
 * column k mod Q (its flops, and per column a pivot search and a pivot-row
 * exchange down the column when P > 1), the broadcast of the panel along
 * the process rows, the row swaps (PDLASWP, one message per pivot across
 * process rows), the triangular solve of the block row on process row
 * k mod P and its broadcast down the columns, and the trailing update.
 * A machine's processes share it.
 * The solves and updates of different steps overlap across machines
 * (only the broadcasts order them), so they weigh as the busiest machine's
 * total; the panels, the pivots and the first hop of each broadcast (a
 * ring, BLACS's default for PDGETRF: the next process owns the next panel)
 * are on the critical path and add up.  The bytes are a bound of their
 * own: on a switch a machine sends what its processes send through its one
 * port, and the prediction is the larger of the two; on a bus every
 * machine's bytes share the medium (000 s5), the critical path's too, and
 * they add to the rest.
 * Since the played-out model (lu_play.h) predicts kernel: lu, this sum
 * predicts kernel: hpl only, whose look-ahead and 1ringM broadcast it fits
 * (doc/design/hpl-model.md); it misses PDGETRF's PB_CptrsmB and the
 * split ring's later hops (doc/design/predictions.md).
 * Pure (vproc rules).
 */
#ifndef VPROC_DENSE_LU_TIME_H
#define VPROC_DENSE_LU_TIME_H

#include <stddef.h>

#include "planner/planner.h"

typedef struct {
	size_t n, b;             /* order, block size */
	size_t P, Q;             /* the grid */
	const size_t *machine;   /* [P*Q] machine of process (p, q), row-major */
	size_t nmachines;
	const double *mflops;    /* [nmachines] speeds */
	const double *latency_s; /* [nmachines] per message sent (NULL: 0) */
	const double *bytes_per_s; /* [nmachines] of each port (NULL or <= 0: infinite) */
	int bus;                 /* one shared medium of bus_latency_s, bus_bytes_per_s */
	double bus_latency_s, bus_bytes_per_s;
	/* 1: HPL's pivoting (HPL_pdmxswp), the search, swap and broadcast of
	 * each column's pivot row in one binary exchange of 2 b + 4 words,
	 * log2 P steps; 0: ScaLAPACK's, a reduction and then a pivot-row
	 * exchange of b words, log2 P steps each (lu_time.c) */
	int combined_pivot;
	/* lu_play: how many of PB_CptrsmB's pieces one message books; 0: the
	 * play's choice (VPROC_LU_PLAY_PIECES) */
	size_t piece_group;
	/* lu_play with P > 1: 1 books ring by ring (lu_play.c's steps, as
	 * before lu_grid_play.c), for comparison; 0 in virtual-time order */
	int ring_play;
} vproc_lu_platform;

typedef struct {
	double total;            /* seconds */
	double compute;          /* of which: panel, solve and update flops */
	double network;          /* of which: broadcasts, pivots and swaps */
} vproc_lu_seconds;

/* Rows (or columns) of global index >= lo, of n, that process p of P owns
 * (CYCLIC(b), source 0). */
size_t vproc_cyclic_owned_from(size_t lo, size_t n, size_t b, size_t p, size_t P);

/* VPROC_OK when pl is usable: n, b, P, Q > 0, every process on a machine,
 * every speed positive and finite. */
vproc_status vproc_lu_platform_check(const vproc_lu_platform *pl);

vproc_status vproc_lu_time(const vproc_lu_platform *pl, vproc_lu_seconds *out);

#endif
