/*
 * grid_shape.c -- choosing the grid: which machines, and p x q
 * (000 s4.3.1 "p x q <= n"; the 9-processor experiments of 000 s5 used
 * 3 x 3).  A prediction in the units of cycle_time, with a simple
 * communication term: see vproc_grid_choose_shape in vproc.h.
 */
#include <string.h>

#include "planner/internal.h"

#define SHAPE_MAX_N 64      /* every k and divisor: well under a second; beyond, shape_large */
#define SHAPE_EXACT_MAX 9   /* arrange exactly up to 3 x 3 */

/* One candidate p x q on the k = p q fastest machines (ts sorted). */
static vproc_status shape_eval(size_t p, size_t q, const double *ts, double m, double beta,
                               unsigned flags, vproc_shape *best)
{
	vproc_grid g;
	size_t k = p * q;
	vproc_status st = k <= SHAPE_EXACT_MAX ? vproc_grid_exact(p, q, ts, &g)
	                  : vproc_grid_svd(p, q, ts, flags, 0, NULL, 0, NULL, &g);
	if (st != VPROC_OK)
		return st;
	vproc_shape s;
	s.p = p;
	s.q = q;
	s.obj = g.obj;
	s.compute = m * m * m / (3.0 * g.obj);
	s.comm = beta * m * m * (1.0 / (double)p + 1.0 / (double)q) / 2.0;
	s.time = s.compute + s.comm;
	vproc_grid_free(&g);
	/* strictly better only: on a tie, fewer machines and a flatter grid
	 * (found first) win */
	if (s.time < best->time * (1.0 - 1e-12))
		*best = s;
	return VPROC_OK;
}

/* Up to SHAPE_MAX_N machines: every k and every p x q = k. */
static vproc_status shape_all(size_t n, const double *ts, double m, double beta,
                              vproc_shape *best)
{
	for (size_t k = 1; k <= n; k++)          /* the k fastest machines */
		for (size_t p = 1; p * p <= k; p++) {
			if (k % p)
				continue;
			vproc_status st = shape_eval(p, k / p, ts, m, beta, VPROC_SVD_BEST, best);
			if (st != VPROC_OK)
				return st;
		}
	return VPROC_OK;
}

/*
 * Beyond SHAPE_MAX_N machines the divisors of every k are too many to
 * arrange each (4096 machines: about 35 000 arrangements).  Leaving out a
 * machine pays only when it is slower than the rest, so the candidate
 * machine sets are the whole list and the list without each slowest class
 * of equal cycle times (a cluster has a few generations), at most
 * SHAPE_CLASSES of them; on each, every p <= sqrt(k) with the widest
 * q = floor(k / p) (p q <= k: the fewest machines left out for that p).
 * The heuristic runs without its local search (the arrangement of the
 * chosen shape gets it, layout 2d's plan).
 */
#define SHAPE_CLASSES 8
static vproc_status shape_large(size_t n, const double *ts, double m, double beta,
                                vproc_shape *best)
{
	size_t k = n;
	for (int c = 0; c < SHAPE_CLASSES && k > 0; c++) {
		for (size_t p = 1; p * p <= k; p++) {
			vproc_status st = shape_eval(p, k / p, ts, m, beta,
			                             VPROC_SVD_KEEP_BEST | VPROC_SVD_OPTIMAL_RC, best);
			if (st != VPROC_OK)
				return st;
		}
		double slowest = ts[k - 1];   /* drop the slowest class */
		while (k > 0 && ts[k - 1] == slowest)
			k--;
	}
	return VPROC_OK;
}

vproc_status vproc_grid_choose_shape(size_t n, const double *t, size_t M, double beta,
                                     vproc_shape *best)
{
	if (best == NULL || n == 0 || !isfinite(beta) || beta < 0.0)
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
	st = n <= SHAPE_MAX_N ? shape_all(n, ts, (double)M, beta, best)
	                      : shape_large(n, ts, (double)M, beta, best);
out:
	free(order);
	free(ts);
	return st;
}
