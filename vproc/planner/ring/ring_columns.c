/*
 * ring_columns.c -- whole columns for a ring (notes s8): the rational
 * shares of 004 s2 rounded by the incremental argument of 000 s3.1 (Alg
 * 3.1).  Machine k holding n_k of N columns finishes an iteration at
 * f_k(n_k) = n_k w_k W/N + H C_k, increasing in n_k.  Giving each column
 * in turn to the machine whose finish time grows the least takes the N - q
 * smallest of the values f_k(2), f_k(3), ... (each machine's are
 * increasing), and an exchange argument (000 Prop 1) shows no split with
 * n_k >= 1 has a smaller maximum.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/internal.h"
#include "ring.h"

typedef struct {
	double key;   /* f_k(n_k + 1) */
	size_t pos;   /* ring position: the tie-break */
} item;

static int less(const item *a, const item *b)
{
	return a->key < b->key || (a->key == b->key && a->pos < b->pos);
}

static void sift(item *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && less(&h[l], &h[m]))
			m = l;
		if (r < n && less(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		item t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

vproc_status vproc_ring_columns(const vproc_ring_platform *pl, size_t q, const size_t *order,
                                size_t N, size_t *n, double *T_int)
{
	double T;
	vproc_status st = vproc_ring_time(pl, q, order, NULL, &T, NULL);
	if (st != VPROC_OK)
		return st;
	if (!n || !T_int || N < q)
		return VPROC_EINVAL;
	double *unit = vproc_calloc(q, sizeof *unit), *comm = vproc_calloc(q, sizeof *comm);
	item *h = vproc_calloc(q, sizeof *h);
	if (!unit || !comm || !h) {
		free(unit);
		free(comm);
		free(h);
		return VPROC_ENOMEM;
	}
	for (size_t k = 0; k < q; k++) {
		unit[k] = pl->w[order[k]] * pl->W / (double)N;
		comm[k] = q == 1 ? 0.0 : pl->H * vproc_ring_C(pl, q, order, k);
		n[k] = 1;
		/* multiply, do not accumulate: no rounding drift over N steps */
		h[k] = (item){ 2.0 * unit[k] + comm[k], k };
	}
	for (size_t i = q / 2; i-- > 0;)
		sift(h, q, i);
	for (size_t left = N - q; left > 0; left--) {
		size_t k = h[0].pos;
		n[k]++;
		h[0].key = (double)(n[k] + 1) * unit[k] + comm[k];
		sift(h, q, 0);
	}
	double mx = 0.0;
	for (size_t k = 0; k < q; k++)
		mx = fmax(mx, (double)n[k] * unit[k] + comm[k]);
	*T_int = mx;
	free(unit);
	free(comm);
	free(h);
	return VPROC_OK;
}
