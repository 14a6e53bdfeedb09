/*
 * ring_greedy.c -- the greedy heuristic of 004 s6.2: grow a ring from the
 * fastest machine by cheapest insertion and keep the best prefix.
 *
 * The paper does not define the insertion cost; the notes (s5) fix it as
 * the increase of D = sum_R C_i/w_i (Delta of sum d), which does not depend
 * on W/H, as Tables 5-6 require; VPROC_RING_INSERT_TSTEP scores by the
 * enlarged ring's T_R instead.  Every prefix ring is timed exactly (notes s1)
 * because "T_step may not vary monotonically with r" (004 s6.2).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/internal.h"
#include "ring_internal.h"

/* The score of inserting k after position m of ring[0..len-1]. */
static double insert_score(const vproc_ring_platform *pl, int insert, size_t *ring,
                           size_t len, size_t k, size_t m)
{
	if (insert == VPROC_RING_INSERT_DELTA) {
		size_t j = ring[m], l = ring[(m + 1) % len];
		if (len == 1)   /* the only pair is (s, s): the ring becomes s <-> k */
			return 2.0 * vproc_ring_d(pl, j, k);
		return vproc_ring_d(pl, j, k) + vproc_ring_d(pl, k, l) - vproc_ring_d(pl, j, l);
	}
	memmove(ring + m + 2, ring + m + 1, (len - m - 1) * sizeof *ring);
	ring[m + 1] = k;
	double T = INFINITY;
	(void)vproc_ring_time(pl, len + 1, ring, NULL, &T, NULL);
	memmove(ring + m + 1, ring + m + 2, (len - m - 1) * sizeof *ring);
	return T;
}

/* Scores closer than this are ties: equal links (Strasbourg's many .019)
 * give mathematically equal Delta that differ in the last bits, and the tie
 * rule must not depend on rounding. */
static double tie_eps(const vproc_ring_platform *pl, int insert)
{
	if (insert != VPROC_RING_INSERT_DELTA)
		return 1e-12 * pl->W * pl->w[vproc_fastest(pl->p, pl->w)];
	double m = 0.0;
	for (size_t i = 0; i < pl->p; i++)
		for (size_t j = i + 1; j < pl->p; j++)
			m = fmax(m, vproc_ring_d(pl, i, j));
	return 1e-10 * m;
}

vproc_status vproc_ring_grow(const vproc_ring_platform *pl, size_t start, int insert,
                             size_t *full, size_t *best, size_t *q, double *T)
{
	size_t p = pl->p;
	double eps = tie_eps(pl, insert);
	unsigned char *in = vproc_calloc(p, 1);
	if (!in)
		return VPROC_ENOMEM;
	full[0] = start;
	in[start] = 1;
	best[0] = start;
	*q = 1;
	*T = pl->W * pl->w[start];
	for (size_t len = 1; len < p; len++) {
		size_t bk = p, bm = 0;
		double bs = INFINITY;
		/* k ascending, then m ascending, strictly less by more than eps:
		 * ties to the lowest k, then the earliest position */
		for (size_t k = 0; k < p; k++) {
			if (in[k])
				continue;
			for (size_t m = 0; m < len; m++) {
				double s = insert_score(pl, insert, full, len, k, m);
				if (bk == p || s < bs - eps) {
					bs = s;
					bk = k;
					bm = m;
				}
			}
		}
		memmove(full + bm + 2, full + bm + 1, (len - bm - 1) * sizeof *full);
		full[bm + 1] = bk;
		in[bk] = 1;
		double t;
		vproc_status st = vproc_ring_time(pl, len + 1, full, NULL, &t, NULL);
		if (st != VPROC_OK) {
			free(in);
			return st;
		}
		if (t < *T) {
			*T = t;
			*q = len + 1;
			memcpy(best, full, (len + 1) * sizeof *full);
		}
	}
	free(in);
	return VPROC_OK;
}

vproc_status vproc_ring_greedy(const vproc_ring_platform *pl, size_t start, int insert,
                               vproc_ring *out)
{
	memset(out, 0, sizeof *out);
	vproc_status st = vproc_ring_check(pl);
	if (st != VPROC_OK)
		return st;
	if (start == (size_t)-1)
		start = vproc_fastest(pl->p, pl->w);
	if (start >= pl->p ||
	    (insert != VPROC_RING_INSERT_DELTA && insert != VPROC_RING_INSERT_TSTEP))
		return VPROC_EINVAL;
	if ((st = vproc_ring_alloc(pl->p, out)) != VPROC_OK)
		return st;
	size_t *full = vproc_calloc(pl->p, sizeof *full);
	size_t q = 1;
	double T;
	st = full ? vproc_ring_grow(pl, start, insert, full, out->order, &q, &T) : VPROC_ENOMEM;
	free(full);
	if (st == VPROC_OK)
		st = vproc_ring_set(pl, q, out->order, out);
	if (st != VPROC_OK)
		vproc_ring_free(out);
	return st;
}
