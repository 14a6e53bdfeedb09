/*
 * chunks.c -- M independent equal chunks on p processors of cycle times t_i
 * (000 s3.1, Alg 3.1 and Prop 1; 002 s2.1, Alg 2.1).
 *
 * The load of P_i should be inversely proportional to t_i.  The
 * initialisation rounds the proportional share down, which leaves at most
 * p chunks; each of those goes where it finishes first.  With a heap the
 * whole is O(p log p) (000 footnote 2).
 */
#include "planner/heap.h"
#include "planner/internal.h"

vproc_status vproc_chunks_init(size_t p, const double *t, size_t M, size_t *c)
{
	vproc_status st = vproc_check_times(p, t);
	if (st != VPROC_OK)
		return st;
	if (c == NULL)
		return VPROC_EINVAL;
	double inv = 0.0;
	for (size_t i = 0; i < p; i++)
		inv += 1.0 / t[i];
	size_t sum = 0;
	for (size_t i = 0; i < p; i++) {
		double share = (1.0 / t[i]) / inv * (double)M;
		size_t ci = (size_t)floor(share);
		/* Rounding can push a share a hair above its exact value; the
		 * invariant sum c <= M is what the proof of Prop 1 needs. */
		if (ci > M - sum)
			ci = M - sum;
		c[i] = ci;
		sum += ci;
	}
	return VPROC_OK;
}

vproc_status vproc_chunks_complete(size_t p, const double *t, size_t M, size_t *c)
{
	vproc_status st = vproc_check_times(p, t);
	if (st != VPROC_OK)
		return st;
	if (c == NULL)
		return VPROC_EINVAL;
	size_t sum = 0;
	for (size_t i = 0; i < p; i++) {
		if (c[i] > M - sum)
			return VPROC_EINVAL;   /* sum c > M: nothing to complete */
		sum += c[i];
	}
	if (sum == M)
		return VPROC_OK;
	vproc_heap_item *items = vproc_calloc(p, sizeof *items);
	if (items == NULL)
		return VPROC_ENOMEM;
	vproc_heap h;
	vproc_heap_build(&h, items, p, t, c);
	for (; sum < M; sum++)
		c[vproc_heap_take(&h)]++;
	free(items);
	return VPROC_OK;
}

vproc_status vproc_chunks_optimal(size_t p, const double *t, size_t M, size_t *c)
{
	vproc_status st = vproc_chunks_init(p, t, M, c);
	if (st != VPROC_OK)
		return st;
	return vproc_chunks_complete(p, t, M, c);
}

double vproc_chunks_makespan(size_t p, const double *t, const size_t *c)
{
	double m = 0.0;
	for (size_t i = 0; i < p; i++) {
		double x = (double)c[i] * t[i];
		if (x > m)
			m = x;
	}
	return m;
}
