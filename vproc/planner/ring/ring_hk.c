/*
 * ring_hk.c -- Held-Karp over every subset (notes s9.1, beyond the paper):
 * the least cycle through each subset S of the machines, which the paper's
 * per-q ILPs (004 s5.2) only give for the best S of each size, and which
 * PIP could not compute at all for Lyon q = 9..13 (004 Table 5).
 *
 * dp[S][j] = least length of a path that starts at lowest(S), visits every
 * machine of S once and ends at j (j in S, j != lowest(S) unless |S| = 1).
 * Extending by a machine k > lowest(S) keeps the start the lowest member, so
 * every cycle is counted once per orientation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/internal.h"
#include "ring.h"

static size_t lowest(unsigned long S)
{
	size_t i = 0;
	while (!(S >> i & 1ul))
		i++;
	return i;
}

/* Fill dp in increasing S: every S' = S + {k} is larger than S. */
static void hk_paths(size_t p, const double *e, double *dp)
{
	unsigned long full = 1ul << p;
	for (unsigned long S = 1; S < full; S++) {
		size_t s = lowest(S);
		if (S == 1ul << s)
			dp[S * p + s] = 0.0;
		for (size_t j = 0; j < p; j++) {
			double x = dp[S * p + j];
			if (!(S >> j & 1ul) || isinf(x))
				continue;
			for (size_t k = s + 1; k < p; k++) {
				if (S >> k & 1ul)
					continue;
				double *y = &dp[(S | 1ul << k) * p + k];
				double v = x + e[j * p + k];
				if (v < *y)
					*y = v;
			}
		}
	}
}

vproc_status vproc_ring_hk_build(size_t p, const double *e, vproc_ring_hk *out)
{
	memset(out, 0, sizeof *out);
	if (p < 2 || !e)
		return VPROC_EINVAL;
	if (p > VPROC_RING_EXACT_MAX)
		return VPROC_ERANGE;
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j < p; j++)
			if (i != j && !isfinite(e[i * p + j]))
				return VPROC_EINVAL;
	unsigned long full = 1ul << p;
	out->p = p;
	out->e = vproc_calloc(p * p, sizeof *out->e);
	out->dp = vproc_calloc((size_t)full * p, sizeof *out->dp);
	out->len = vproc_calloc((size_t)full, sizeof *out->len);
	if (!out->e || !out->dp || !out->len) {
		vproc_ring_hk_free(out);
		return VPROC_ENOMEM;
	}
	memcpy(out->e, e, p * p * sizeof *e);
	for (size_t x = 0; x < (size_t)full * p; x++)
		out->dp[x] = INFINITY;
	hk_paths(p, e, out->dp);
	out->len[0] = INFINITY;
	for (unsigned long S = 1; S < full; S++) {
		size_t s = lowest(S);
		if (S == 1ul << s) {
			out->len[S] = 0.0;
			continue;
		}
		double best = INFINITY;
		for (size_t j = s + 1; j < p; j++)
			if (S >> j & 1ul && out->dp[S * p + j] + e[j * p + s] < best)
				best = out->dp[S * p + j] + e[j * p + s];
		out->len[S] = best;
	}
	return VPROC_OK;
}

void vproc_ring_hk_free(vproc_ring_hk *hk)
{
	if (!hk)
		return;
	free(hk->e);
	free(hk->dp);
	free(hk->len);
	memset(hk, 0, sizeof *hk);
}

/* Walk the table back from the last machine of a least cycle of S. */
size_t vproc_ring_hk_cycle(const vproc_ring_hk *hk, unsigned long S, size_t *order)
{
	size_t p = hk->p, s = lowest(S), q = 0;
	for (unsigned long T = S; T; T &= T - 1)
		q++;
	order[0] = s;
	if (q == 1)
		return 1;
	size_t j = p;
	double best = INFINITY;
	for (size_t k = s + 1; k < p; k++)
		if (S >> k & 1ul && hk->dp[S * p + k] + hk->e[k * p + s] < best) {
			best = hk->dp[S * p + k] + hk->e[k * p + s];
			j = k;
		}
	unsigned long R = S;
	for (size_t pos = q - 1; pos > 0; pos--) {
		order[pos] = j;
		double target = hk->dp[R * p + j];
		R &= ~(1ul << j);
		size_t prev = s;
		if (pos > 1) {   /* the predecessor whose path reaches the target */
			double err = INFINITY;
			for (size_t k = s + 1; k < p; k++) {
				if (!(R >> k & 1ul))
					continue;
				double x = fabs(hk->dp[R * p + k] + hk->e[k * p + j] - target);
				if (x < err) {
					err = x;
					prev = k;
				}
			}
		}
		j = prev;
	}
	return q;
}
