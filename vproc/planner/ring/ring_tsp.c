/*
 * ring_tsp.c -- the TSP-based heuristic of 004 s6.1: when every machine
 * takes part and T* binds, T = (W + H D)/sum 1/w (Eq 3), so the best ring
 * is a shortest Hamiltonian cycle under d (Prop 2) -- with the corrected,
 * symmetric weight d_ij = c_ij/w_i + c_ji/w_j (notes s4, ERROR 1).
 *
 * The paper used Lin-Kernighan; we use cheapest insertion from every start
 * (the growth loop of the greedy, run to the end) polished by 2-opt and
 * Or-opt on D.  Like the paper's, it never drops a machine.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/internal.h"
#include "ring_internal.h"

static double cycle_len(const vproc_ring_platform *pl, size_t q, const size_t *r)
{
	double s = 0.0;
	for (size_t k = 0; k < q; k++)
		s += vproc_ring_d(pl, r[k], r[(k + 1) % q]);
	return s;
}

/* 2-opt on a symmetric weight: reversing r[i..j] swaps edges
 * (r[i-1], r[i]) + (r[j], r[j+1]) for (r[i-1], r[j]) + (r[i], r[j+1]). */
static int improve_2opt(const vproc_ring_platform *pl, size_t p, size_t *r)
{
	for (size_t i = 1; i + 1 < p; i++)
		for (size_t j = i + 1; j < p; j++) {
			size_t a = r[i - 1], b = r[i], c = r[j], e = r[(j + 1) % p];
			if (e == a)
				continue;
			double gain = vproc_ring_d(pl, a, b) + vproc_ring_d(pl, c, e) -
			              vproc_ring_d(pl, a, c) - vproc_ring_d(pl, b, e);
			if (gain > 1e-12 * (1.0 + cycle_len(pl, p, r))) {
				for (size_t x = i, y = j; x < y; x++, y--) {
					size_t t = r[x];
					r[x] = r[y];
					r[y] = t;
				}
				return 1;
			}
		}
	return 0;
}

/* Or-opt: move one machine elsewhere when that shortens the cycle. */
static int improve_oropt(const vproc_ring_platform *pl, size_t p, size_t *r, size_t *tmp)
{
	double len = cycle_len(pl, p, r);
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j + 1 < p; j++) {
			if (j == i)
				continue;
			size_t m = 0;
			for (size_t k = 0; k < p; k++)
				if (k != i)
					tmp[m++] = r[k];
			memmove(tmp + j + 1, tmp + j, (m - j) * sizeof *tmp);
			tmp[j] = r[i];
			if (cycle_len(pl, p, tmp) < len - 1e-12 * (1.0 + len)) {
				memcpy(r, tmp, p * sizeof *r);
				return 1;
			}
		}
	return 0;
}

vproc_status vproc_ring_tsp(const vproc_ring_platform *pl, vproc_ring *out)
{
	memset(out, 0, sizeof *out);
	vproc_status st = vproc_ring_check(pl);
	if (st != VPROC_OK)
		return st;
	size_t p = pl->p;
	size_t *full = vproc_calloc(p, sizeof *full), *tmp = vproc_calloc(p, sizeof *tmp);
	size_t *best = vproc_calloc(p, sizeof *best);
	st = (full && tmp && best) ? VPROC_OK : VPROC_ENOMEM;
	double bestlen = INFINITY;
	for (size_t s = 0; s < p && st == VPROC_OK; s++) {
		size_t q;
		double T;
		st = vproc_ring_grow(pl, s, VPROC_RING_INSERT_DELTA, full, tmp, &q, &T);
		while (st == VPROC_OK && p >= 4 &&
		       (improve_2opt(pl, p, full) || improve_oropt(pl, p, full, tmp)))
			;
		double len = p >= 2 ? cycle_len(pl, p, full) : 0.0;
		if (st == VPROC_OK && len < bestlen) {
			bestlen = len;
			memcpy(best, full, p * sizeof *full);
		}
	}
	if (st == VPROC_OK && (st = vproc_ring_alloc(p, out)) == VPROC_OK &&
	    (st = vproc_ring_set(pl, p, best, out)) != VPROC_OK)
		vproc_ring_free(out);
	free(full);
	free(tmp);
	free(best);
	return st;
}
