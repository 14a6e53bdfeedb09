/*
 * ring_time.c -- the exact time of one ring (004 s2, Eq 1; notes s1) and
 * the homogeneous closed form (004 s3, Prop 1; notes s2).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/internal.h"
#include "ring.h"

vproc_status vproc_ring_alloc(size_t p, vproc_ring *out)
{
	memset(out, 0, sizeof *out);
	out->order = vproc_calloc(p, sizeof *out->order);
	out->alpha = vproc_calloc(p, sizeof *out->alpha);
	if (!out->order || !out->alpha) {
		vproc_ring_free(out);
		return VPROC_ENOMEM;
	}
	out->p = p;
	return VPROC_OK;
}

void vproc_ring_free(vproc_ring *r)
{
	if (!r)
		return;
	free(r->order);
	free(r->alpha);
	r->order = NULL;
	r->alpha = NULL;
}

vproc_status vproc_ring_check(const vproc_ring_platform *pl)
{
	if (!pl || vproc_check_times(pl->p, pl->w) != VPROC_OK || !pl->c)
		return VPROC_EINVAL;
	if (!isfinite(pl->W) || !(pl->W > 0.0) || !isfinite(pl->H) || !(pl->H >= 0.0))
		return VPROC_EINVAL;
	for (size_t i = 0; i < pl->p; i++)
		for (size_t j = 0; j < pl->p; j++)
			if (i != j && (!isfinite(pl->c[i * pl->p + j]) || !(pl->c[i * pl->p + j] >= 0.0)))
				return VPROC_EINVAL;
	return VPROC_OK;
}

double vproc_ring_d(const vproc_ring_platform *pl, size_t i, size_t j)
{
	return pl->c[i * pl->p + j] / pl->w[i] + pl->c[j * pl->p + i] / pl->w[j];
}

double vproc_ring_C(const vproc_ring_platform *pl, size_t q, const size_t *order, size_t k)
{
	size_t i = order[k];
	size_t succ = order[(k + 1) % q], pred = order[(k + q - 1) % q];
	return pl->c[i * pl->p + succ] + pl->c[i * pl->p + pred];
}

/* order[0..q-1]: distinct machines of the platform. */
static int valid_order(size_t p, size_t q, const size_t *order)
{
	if (q == 0 || q > p || !order)
		return 0;
	unsigned char *seen = vproc_calloc(p, 1);
	if (!seen)
		return -1;
	int ok = 1;
	for (size_t k = 0; k < q && ok; k++) {
		if (order[k] >= p || seen[order[k]])
			ok = 0;
		else
			seen[order[k]] = 1;
	}
	free(seen);
	return ok;
}

vproc_status vproc_ring_time(const vproc_ring_platform *pl, size_t q, const size_t *order,
                             double *alpha, double *T, double *D)
{
	vproc_status st = vproc_ring_check(pl);
	if (st != VPROC_OK || !T)
		return VPROC_EINVAL;
	int v = valid_order(pl->p, q, order);
	if (v < 0)
		return VPROC_ENOMEM;
	if (v == 0)
		return VPROC_EINVAL;
	if (alpha)
		memset(alpha, 0, pl->p * sizeof *alpha);
	if (q == 1) {   /* no neighbour, no communication (notes s1) */
		*T = pl->W * pl->w[order[0]];
		if (alpha)
			alpha[order[0]] = 1.0;
		if (D)
			*D = 0.0;
		return VPROC_OK;
	}
	double sum_cw = 0.0, sigma = 0.0, cmax = 0.0;
	for (size_t k = 0; k < q; k++) {
		double C = vproc_ring_C(pl, q, order, k), w = pl->w[order[k]];
		sum_cw += C / w;
		sigma += 1.0 / w;
		if (C > cmax)
			cmax = C;
	}
	double tstar = (pl->W + pl->H * sum_cw) / sigma;
	*T = fmax(tstar, pl->H * cmax);
	if (D)
		*D = sum_cw;
	if (!alpha)
		return VPROC_OK;
	/* Shares that make machine i finish at T; they sum to 1 when T* binds
	 * and to more when the max term does, then scaled down (all still
	 * finish by T). */
	double sum = 0.0;
	for (size_t k = 0; k < q; k++) {
		size_t i = order[k];
		double a = (*T - pl->H * vproc_ring_C(pl, q, order, k)) / (pl->W * pl->w[i]);
		alpha[i] = a > 0.0 ? a : 0.0;
		sum += alpha[i];
	}
	for (size_t k = 0; k < q; k++)
		alpha[order[k]] /= sum;
	return VPROC_OK;
}

vproc_status vproc_ring_set(const vproc_ring_platform *pl, size_t q, const size_t *order,
                            vproc_ring *r)
{
	size_t *tmp = vproc_calloc(q, sizeof *tmp);
	if (!tmp)
		return VPROC_ENOMEM;
	memcpy(tmp, order, q * sizeof *tmp);  /* order may alias r->order */
	vproc_status st = vproc_ring_time(pl, q, tmp, r->alpha, &r->T, &r->D);
	if (st == VPROC_OK) {
		memcpy(r->order, tmp, q * sizeof *tmp);
		r->q = q;
		size_t m = q;
		for (size_t i = 0; i < pl->p; i++) {
			int in = 0;
			for (size_t k = 0; k < q && !in; k++)
				in = tmp[k] == i;
			if (!in)
				r->order[m++] = i;
		}
		r->optimal = 0;
		r->lower_bound = 0.0;
	}
	free(tmp);
	return st;
}

vproc_status vproc_ring_prop1(size_t p, const double *w, double c, double W, double H,
                              double *T, size_t *q, double *threshold)
{
	if (vproc_check_times(p, w) != VPROC_OK || !T || !q)
		return VPROC_EINVAL;
	if (!isfinite(c) || !(c >= 0.0) || !isfinite(W) || !(W > 0.0) || !isfinite(H) ||
	    !(H >= 0.0))
		return VPROC_EINVAL;
	double wmin = w[vproc_fastest(p, w)], wcumul = vproc_cost_ideal(p, w);
	double alone = W * wmin, all = W * wcumul + 2.0 * H * c;
	/* Equal links make sum_R C_i/w_i = 2c sigma_R, so T_R = W/sigma_R + 2Hc:
	 * the most machines minimise it once any communication is paid. */
	if (p >= 2 && all < alone) {
		*T = all;
		*q = p;
	} else {
		*T = alone;
		*q = 1;
	}
	if (threshold)
		*threshold = p >= 2 ? 2.0 * c / (wmin - wcumul) : INFINITY;
	return VPROC_OK;
}
