/* internal.h -- helpers shared by the libvproc sources.  Not installed. */
#ifndef VPROC_INTERNAL_H
#define VPROC_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "planner.h"

/* calloc with an overflow check on n * size. */
static inline void *vproc_calloc(size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		return NULL;
	return calloc(n ? n : 1, size);
}

/* idx[k] = the index of the k-th smallest t (ties: lower index first). */
vproc_status vproc_sort_indices(size_t n, const double *t, size_t *idx);

#endif
