/*
 * slice.c -- the slice of B virtual processes for LU and QR
 * (000 s3.2-3.4; 002 s2.2-2.3; the optimized variant of 002 s4.4).
 *
 * LU updates columns k+1..M at step k: the matrix shrinks, so a static
 * distribution must be balanced on every trailing set of column blocks, not
 * only on the whole.  The incremental allocation gives the s-th chunk to the
 * processor that keeps max c_i t_i / s least; it is optimal for every s
 * (Prop 2).  Reversing it (000 s3.4: chunk k goes to sigma(B-k+1)) puts the
 * allocation of s chunks on the trailing s blocks, which is exactly what
 * remains at each step.
 */
#include <string.h>

#include "planner/heap.h"
#include "planner/internal.h"

size_t vproc_fastest(size_t p, const double *t)
{
	size_t f = 0;
	for (size_t i = 1; i < p; i++)
		if (t[i] < t[f])
			f = i;
	return f;
}

double vproc_cost_ideal(size_t p, const double *t)
{
	double inv = 0.0;
	for (size_t i = 0; i < p; i++)
		inv += 1.0 / t[i];
	return 1.0 / inv;
}

double vproc_cost_cyclic(size_t p, const double *t)
{
	double m = 0.0;
	for (size_t i = 0; i < p; i++)
		if (t[i] > m)
			m = t[i];
	return m / (double)p;
}

void vproc_slice_free(vproc_slice *s)
{
	if (s == NULL)
		return;
	free(s->sigma);
	free(s->pattern);
	free(s->counts);
	free(s->prefix_cost);
	memset(s, 0, sizeof *s);
}

/*
 * The incremental allocation proper: sigma[s] is the processor that gets
 * chunk s+1, cost[s] the cost max c_i t_i / (s+1) after it, counts[i] the
 * final c_i.  With VPROC_SLICE_OPTIMIZED the first two chunks are the
 * fastest processor's (002 s4.4: it runs every factor task and the update
 * just before it), and the rest of the algorithm is unchanged.
 */
static vproc_status incremental(size_t p, const double *t, size_t B, unsigned flags,
                                size_t *sigma, double *cost, size_t *counts)
{
	memset(counts, 0, p * sizeof *counts);
	size_t s = 0;
	double makespan = 0.0;
	if (flags & VPROC_SLICE_OPTIMIZED) {
		size_t f = vproc_fastest(p, t);
		for (; s < 2; s++) {
			sigma[s] = f;
			counts[f]++;
			makespan = t[f] * (double)counts[f];
			cost[s] = makespan / (double)(s + 1);
		}
	}
	vproc_heap_item *items = vproc_calloc(p, sizeof *items);
	if (items == NULL)
		return VPROC_ENOMEM;
	vproc_heap h;
	vproc_heap_build(&h, items, p, t, counts);
	for (; s < B; s++) {
		/* Every candidate's cost is max(makespan, t_i (c_i+1)) / (s+1):
		 * the least t_i (c_i+1) is a least-cost choice. */
		size_t i = vproc_heap_take(&h);
		sigma[s] = i;
		counts[i]++;
		double x = t[i] * (double)counts[i];
		if (x > makespan)
			makespan = x;
		cost[s] = makespan / (double)(s + 1);
	}
	free(items);
	return VPROC_OK;
}

vproc_status vproc_slice_build(size_t p, const double *t, size_t B,
                               unsigned flags, vproc_slice *out)
{
	if (out == NULL)
		return VPROC_EINVAL;
	memset(out, 0, sizeof *out);
	vproc_status st = vproc_check_times(p, t);
	if (st != VPROC_OK)
		return st;
	if (B == 0 || (flags & ~(unsigned)VPROC_SLICE_OPTIMIZED) != 0 ||
	    ((flags & VPROC_SLICE_OPTIMIZED) && B < 2))
		return VPROC_EINVAL;
	out->p = p;
	out->B = B;
	out->sigma = vproc_calloc(B, sizeof *out->sigma);
	out->pattern = vproc_calloc(B, sizeof *out->pattern);
	out->counts = vproc_calloc(p, sizeof *out->counts);
	out->prefix_cost = vproc_calloc(B, sizeof *out->prefix_cost);
	if (!out->sigma || !out->pattern || !out->counts || !out->prefix_cost) {
		vproc_slice_free(out);
		return VPROC_ENOMEM;
	}
	st = incremental(p, t, B, flags, out->sigma, out->prefix_cost, out->counts);
	if (st != VPROC_OK) {
		vproc_slice_free(out);
		return st;
	}
	/* 000 s3.4: the k-th chunk of the slice goes to sigma(B - k + 1). */
	for (size_t k = 0; k < B; k++)
		out->pattern[k] = out->sigma[B - 1 - k];
	out->cost = out->prefix_cost[B - 1];
	return VPROC_OK;
}

vproc_status vproc_lu_predict(size_t p, const double *t, size_t B,
                              const size_t *pattern, size_t M, double *time)
{
	vproc_status st = vproc_check_times(p, t);
	if (st != VPROC_OK)
		return st;
	if (B == 0 || pattern == NULL || time == NULL)
		return VPROC_EINVAL;
	for (size_t k = 0; k < B; k++)
		if (pattern[k] >= p)
			return VPROC_EINVAL;
	size_t *n = vproc_calloc(p, sizeof *n);
	if (n == NULL)
		return VPROC_ENOMEM;
	/* Walk the steps backwards: the trailing set only grows, so each
	 * processor's share n_i and the slowest n_i t_i only grow too, and one
	 * running maximum gives every step in O(M) overall. */
	double total = 0.0, slowest = 0.0;
	for (size_t k = M; k-- > 1;) {
		/* step k-1 updates the blocks k..M-1; block k joins the set */
		size_t i = pattern[k % B];
		n[i]++;
		double w = t[i] * (double)n[i];
		if (w > slowest)
			slowest = w;
		total += slowest * (double)(M - k);
	}
	free(n);
	*time = total;
	return VPROC_OK;
}

/*
 * The index b of the B = b + 1 chosen among [lo - 1, cap): the smallest
 * within target that keeps every machine busy (want_all: no processor idle
 * while another runs two processes: 1 x 64 on a 256-core list was 3 x
 * ideal), else the smallest within target, else the least cost.  seen is
 * p zeroed-or-not scratch.
 */
static size_t pick_B(size_t p, const size_t *sigma, const double *cost, size_t *seen,
                     size_t lo, size_t cap, double target, int want_all)
{
	size_t used = 0, within = cap, best = lo - 1;
	memset(seen, 0, p * sizeof *seen);
	for (size_t b = 0; b < cap; b++) {
		used += seen[sigma[b]]++ == 0;
		if (b + 1 < lo)
			continue;
		if (cost[b] <= target && (!want_all || used == p))
			return b;
		if (cost[b] <= target && within == cap)
			within = b;
		if (cost[b] < cost[best])
			best = b;
	}
	return within < cap ? within : best;
}

vproc_status vproc_choose_B(size_t p, const double *t, size_t cap, double tol,
                            unsigned flags, size_t *B)
{
	return vproc_choose_B_from(p, t, 1, cap, tol, flags, B);
}

vproc_status vproc_choose_B_from(size_t p, const double *t, size_t from, size_t cap,
                                 double tol, unsigned flags, size_t *B)
{
	vproc_status st = vproc_check_times(p, t);
	if (st != VPROC_OK)
		return st;
	if (B == NULL || !isfinite(tol) || tol < 0.0)
		return VPROC_EINVAL;
	size_t lo = (flags & VPROC_SLICE_OPTIMIZED) ? 2 : 1;
	if (from > lo)
		lo = from;
	if (cap < lo)
		cap = lo;
	/* One incremental run gives the cost of every B <= cap at once,
	 * because the allocation for B chunks extends the one for B-1. */
	size_t *sigma = vproc_calloc(cap, sizeof *sigma);
	double *cost = vproc_calloc(cap, sizeof *cost);
	size_t *counts = vproc_calloc(p, sizeof *counts);
	if (!sigma || !cost || !counts) {
		st = VPROC_ENOMEM;
		goto out;
	}
	st = incremental(p, t, cap, flags, sigma, cost, counts);
	if (st != VPROC_OK)
		goto out;
	double target = vproc_cost_ideal(p, t) * (1.0 + tol);
	*B = pick_B(p, sigma, cost, counts, lo, cap, target, from >= p) + 1;
out:
	free(sigma);
	free(cost);
	free(counts);
	return st;
}
