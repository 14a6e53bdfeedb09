/* ring_internal.h -- helpers shared by the vproc/planner/ring/ sources.  Not installed. */
#ifndef VPROC_RING_INTERNAL_H
#define VPROC_RING_INTERNAL_H

#include "ring.h"

/*
 * vproc_ring_grow -- the growth loop of 004 s6.2 from start (see
 * vproc_ring_greedy for the scores and ties).
 *   full   [out] p: the ring after the last insertion (every machine)
 *   best   [out] p: the prefix ring of least T_R; *q its size, *T its T_R
 */
vproc_status vproc_ring_grow(const vproc_ring_platform *pl, size_t start, int insert,
                             size_t *full, size_t *best, size_t *q, double *T);

#endif
