/*
 * mmm_internal.h -- helpers shared by the partition algorithms of vproc/planner/mmm/.
 */
#ifndef VPROC_MMM_INTERNAL_H
#define VPROC_MMM_INTERNAL_H

#include "mmm.h"

/* Allocate out->rect [p], out->node [2p-1], out->col_count [p] (zeroed). */
vproc_status mmm_partition_alloc(size_t p, vproc_mmm_partition *out);

/* Append a node; returns its index. */
size_t mmm_node_add(vproc_mmm_partition *part, vproc_mmm_kind kind, size_t machine,
                    size_t first, size_t second, double area);

/* Lay the tree out from node `root` in the rectangle (x, y, w, h): the
 * rectangles in tree order, then part->cost. */
void mmm_place(vproc_mmm_partition *part, size_t root);

/* Indices 0..p-1 sorted by s ascending, ties by index. */
vproc_status mmm_sort_ascending(size_t p, const double *s, size_t *idx);

/* Are the areas valid (finite > 0, summing to 1 within 1e-9)? */
vproc_status mmm_check_areas(size_t p, const double *s);

#endif
