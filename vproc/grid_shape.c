/*
 * grid_shape.c -- choosing the grid: which machines, and p x q
 * (000 s4.3.1 "p x q <= n"; the 9-processor experiments of 000 s5 used
 * 3 x 3).  A prediction in the units of cycle_time, with a simple
 * communication term: see vproc_grid_choose_shape in vproc.h.
 */
#include <string.h>

#include "internal.h"

#define SHAPE_MAX_N 64      /* k * divisors * heuristic stays well under a second */
#define SHAPE_EXACT_MAX 9   /* arrange exactly up to 3 x 3 */

vproc_status vproc_grid_choose_shape(size_t n, const double *t, size_t M, double beta,
                                     vproc_shape *best)
{
	if (best == NULL || n == 0 || n > SHAPE_MAX_N || !isfinite(beta) || beta < 0.0)
		return VPROC_EINVAL;
	vproc_status st = vproc_check_times(n, t);
	if (st != VPROC_OK)
		return st;
	size_t *order = vproc_calloc(n, sizeof *order);
	double *ts = vproc_calloc(n, sizeof *ts);
	if (!order || !ts) {
		st = VPROC_ENOMEM;
		goto out;
	}
	st = vproc_sort_indices(n, t, order);
	if (st != VPROC_OK)
		goto out;
	for (size_t k = 0; k < n; k++)
		ts[k] = t[order[k]];
	memset(best, 0, sizeof *best);
	best->time = INFINITY;
	double m = (double)M;
	for (size_t k = 1; k <= n; k++)          /* the k fastest machines */
		for (size_t p = 1; p * p <= k; p++) {
			if (k % p)
				continue;
			size_t q = k / p;
			vproc_grid g;
			st = k <= SHAPE_EXACT_MAX ? vproc_grid_exact(p, q, ts, &g)
			                          : vproc_grid_svd(p, q, ts, VPROC_SVD_BEST, 0, NULL, 0,
			                                           NULL, &g);
			if (st != VPROC_OK)
				goto out;
			vproc_shape s;
			s.p = p;
			s.q = q;
			s.obj = g.obj;
			s.compute = m * m * m / (3.0 * g.obj);
			s.comm = beta * m * m * (1.0 / (double)p + 1.0 / (double)q) / 2.0;
			s.time = s.compute + s.comm;
			vproc_grid_free(&g);
			/* strictly better only: on a tie, fewer machines and a
			 * flatter grid (found first) win */
			if (s.time < best->time * (1.0 - 1e-12))
				*best = s;
		}
out:
	free(order);
	free(ts);
	return st;
}
