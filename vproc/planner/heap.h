/*
 * heap.h -- a binary min-heap of processors keyed by the time they would
 * reach with one more chunk, t_i (c_i + 1).  Internal to libvproc.
 *
 * Why a heap: Alg 3.1 and the incremental allocation of 000 s3.3 both pick,
 * at every step, the processor with the least t_i (c_i + 1).  A linear scan
 * makes that O(p) per step; the heap makes it O(log p) (000 footnotes 2, 3).
 */
#ifndef VPROC_HEAP_H
#define VPROC_HEAP_H

#include <stddef.h>

typedef struct {
	double key;  /* t_i * (c_i + 1) */
	double t;    /* t_i, the first tie-break: the faster processor wins */
	size_t idx;  /* i, the second tie-break: the lower index wins */
	size_t next; /* c_i + 1: the count the key stands for */
} vproc_heap_item;

typedef struct {
	vproc_heap_item *a;
	size_t n;
} vproc_heap;

/* Build a heap over the p processors with keys t_i (c_i + 1).  a has room
 * for p items and belongs to the caller. */
void vproc_heap_build(vproc_heap *h, vproc_heap_item *a, size_t p,
                      const double *t, const size_t *c);

/* Give one more chunk to the processor at the top: return its index and
 * advance its key by t_i.  The heap must not be empty. */
size_t vproc_heap_take(vproc_heap *h);

#endif
