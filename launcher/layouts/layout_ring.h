/*
 * layout_ring.h -- what `hetlaunch run` needs from layout: ring to start its
 * MPI program, lib/hetlaunch/hl-ring (launcher/programs/ring.c), and to read its
 * result.  Until kernels are rows of their own table, run.c calls these for
 * kernel: ring.
 */
#ifndef HL_LAYOUT_RING_H
#define HL_LAYOUT_RING_H

#include <stddef.h>

#include "plan.h"
#include "kernels/testers.h"

/* hl-ring's rows of the grid (the data of one column). */
#define HL_RING_ROWS 8

/*
 * hl_ring_args -- hl-ring's arguments after the program name: --columns
 * n_0,...  (the plan's whole columns in rank order, or for the baseline
 * every machine in list order with columns in proportion to speed, at least
 * one each), --rows, --iterations, --warmup 2, --mflop-per-column W/columns
 * (W in Mflop when cycle_time is in s/Mflop, as in the paper), --bytes
 * H x 125000 (H in Mbit).  *args: NULL-terminated, malloc'd strings (free
 * each, then the array).  0, or -1 when out of memory.
 */
int hl_ring_args(const hl_plan *plan, int baseline, char ***args, size_t *nargs);

/* The predicted time of one iteration, in the model's units (multiply by
 * 1/K for an emulated run): the plan's T_step, or the baseline's. */
double hl_ring_predicted(const hl_plan *plan, int baseline);

/* The link costs of layout: ring's links: (p x p, row-major, in time per
 * Mbit of H), or NULL for another layout. */
const double *hl_ring_links(const hl_config *cfg);

#endif
