/*
 * colplay.h -- PDGETF2's messages down the panel's process column
 * (lu_play.c), played on clocks alone (s->aux, one per process row) to
 * find the panel's communication time.  Its messages are a few words or a
 * row of the panel, so the ports' bookings are left out: a message
 * between machines arrives its sender's latency and bytes / bandwidth
 * after the sender's clock, one inside a machine at it.  The panel is
 * played in bulk: three columns from a common start give the first
 * column's time and the period of the others, so that a panel costs a
 * few column plays, not kb (a plan stays M P steps: column by column the
 * 22 x 16 grid of configs/today-cluster.yaml took 15 s to plan).  QR's
 * panel plays its columns with the bookings (qr_time.c: on a bus its
 * messages queue behind the other columns' updates).  Pure (vproc rules).
 */
#ifndef VPROC_DENSE_COLPLAY_H
#define VPROC_DENSE_COLPLAY_H

#include "vsim.h"

/* One message from process row a to row b of process column q. */
void vproc_col_send(vproc_vsim *s, size_t q, size_t a, size_t b, double bytes);

/* MPI_Bcast from row root over vproc_vsim_bcast's two-level tree (one
 * leader per machine, met in order from the root; free inside each
 * machine); on clocks without the sender's hold the sends' order does not
 * matter. */
void vproc_col_bcast(vproc_vsim *s, size_t q, size_t root, double bytes);

/* PBLAS's inlined 1-tree combine to process row 0 (pdamax_.c: row r
 * sends to r - k at the level k with r mod 2k = k), over the rows, not
 * the machines (vsim.h's vproc_vsim_tree, booked). */
void vproc_col_tree(vproc_vsim *s, size_t q, double bytes);

/* One column's messages, arg its own. */
typedef void vproc_col_fn(vproc_vsim *s, const void *arg);

/* The communication of a panel of kb columns, seconds: col(s, arg) played
 * three times from clocks at 0, the first as it is (it fills the
 * pipeline) and the last two's halved time for each of the kb - 1
 * others. */
double vproc_col_seconds(vproc_vsim *s, size_t kb, vproc_col_fn *col, const void *arg);

/* The same, and the first column's seconds in *first (lu_grid_play.c
 * books the first column's rank-1 update on its own). */
double vproc_col_parts(vproc_vsim *s, size_t kb, vproc_col_fn *col, const void *arg, double *first);

/* The processes of process column q start the panel together, at the
 * latest of their clocks, and pay `seconds` of it. */
void vproc_col_start(vproc_vsim *s, size_t q, double seconds);

#endif
