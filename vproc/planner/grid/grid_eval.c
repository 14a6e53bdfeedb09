/*
 * grid_eval.c -- evaluating and improving r, c for a fixed arrangement of
 * machines on a p x q grid (000 s4.3.1, s4.3.3 "Correctness", s4.3.4).
 */
#include <string.h>

#include "planner/internal.h"

/* Two loads closer than this (relatively) count as an equality. */
#define EQ_TOL 1e-9

double vproc_grid_objective(size_t p, size_t q, const double *r, const double *c)
{
	double sr = 0.0, sc = 0.0;
	for (size_t i = 0; i < p; i++)
		sr += r[i];
	for (size_t j = 0; j < q; j++)
		sc += c[j];
	return sr * sc;
}

double vproc_grid_bound(size_t n, const double *t)
{
	double s = 0.0;
	for (size_t k = 0; k < n; k++)
		s += 1.0 / t[k];
	return s;
}

double vproc_grid_load(size_t p, size_t q, const double *T, const double *r, const double *c)
{
	double m = 0.0;
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j < q; j++) {
			double x = r[i] * c[j] * T[i * q + j];
			if (x > m)
				m = x;
		}
	return m;
}

static vproc_status check_rc(size_t p, size_t q, const double *T, const double *r,
                             const double *c)
{
	vproc_status st = vproc_check_times(p * q, T);
	if (st != VPROC_OK || q == 0 || r == NULL || c == NULL)
		return VPROC_EINVAL;
	for (size_t i = 0; i < p; i++)
		if (!isfinite(r[i]) || !(r[i] > 0.0))
			return VPROC_EINVAL;
	for (size_t j = 0; j < q; j++)
		if (!isfinite(c[j]) || !(c[j] > 0.0))
			return VPROC_EINVAL;
	return VPROC_OK;
}

vproc_status vproc_grid_normalize(size_t p, size_t q, const double *T, double *r, double *c)
{
	vproc_status st = check_rc(p, q, T, r, c);
	if (st != VPROC_OK)
		return st;
	/* First the columns, so that r_i t_ij c_j <= 1 everywhere ... */
	for (size_t j = 0; j < q; j++) {
		double m = 0.0;
		for (size_t i = 0; i < p; i++)
			if (r[i] * T[i * q + j] * c[j] > m)
				m = r[i] * T[i * q + j] * c[j];
		c[j] /= m;
	}
	/* ... then the rows, so that no row idles at every step. */
	for (size_t i = 0; i < p; i++) {
		double m = 0.0;
		for (size_t j = 0; j < q; j++)
			if (r[i] * T[i * q + j] * c[j] > m)
				m = r[i] * T[i * q + j] * c[j];
		r[i] /= m;
	}
	return VPROC_OK;
}

/* Union-find over the p + q vertices of the bipartite equality graph. */
static size_t find(size_t *up, size_t x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

vproc_status vproc_grid_improve(size_t p, size_t q, const double *T, double *r, double *c)
{
	vproc_status st = vproc_grid_normalize(p, q, T, r, c);
	if (st != VPROC_OK)
		return st;
	size_t *up = vproc_calloc(p + q, sizeof *up);
	if (up == NULL)
		return VPROC_ENOMEM;
	/* Each pass adds at least one equality between the component of r_1
	 * and the rest, so p + q passes reach a connected graph. */
	for (size_t pass = 0; pass < p + q; pass++) {
		for (size_t v = 0; v < p + q; v++)
			up[v] = v;
		for (size_t i = 0; i < p; i++)
			for (size_t j = 0; j < q; j++)
				if (r[i] * c[j] * T[i * q + j] >= 1.0 - EQ_TOL)
					up[find(up, i)] = find(up, p + j);
		size_t root = find(up, 0);
		double Ra = 0, Rb = 0, Ca = 0, Cb = 0;
		size_t nrb = 0, ncb = 0;
		for (size_t i = 0; i < p; i++) {
			if (find(up, i) == root)
				Ra += r[i];
			else {
				Rb += r[i];
				nrb++;
			}
		}
		for (size_t j = 0; j < q; j++) {
			if (find(up, p + j) == root)
				Ca += c[j];
			else {
				Cb += c[j];
				ncb++;
			}
		}
		if (nrb == 0 && ncb == 0)
			break;
		/* alpha_r: how far the outside rows can grow against the
		 * component's columns; alpha_c: the outside columns against the
		 * component's rows (000 s4.3.3). */
		double alpha_r = INFINITY, alpha_c = INFINITY;
		for (size_t i = 0; i < p; i++)
			for (size_t j = 0; j < q; j++) {
				int ia = find(up, i) == root, ja = find(up, p + j) == root;
				double x = 1.0 / (r[i] * c[j] * T[i * q + j]);
				if (!ia && ja && x < alpha_r)
					alpha_r = x;
				if (ia && !ja && x < alpha_c)
					alpha_c = x;
			}
		double lambda;
		if (ncb == 0)          /* only rows outside: grow them */
			lambda = alpha_r;
		else if (nrb == 0)     /* only columns outside: grow them */
			lambda = 1.0 / alpha_c;
		else                   /* f(l) = (l Rb + Ra)(Cb / l + Ca), f'(1) = Rb Ca - Ra Cb */
			lambda = Rb * Ca - Ra * Cb >= 0.0 ? alpha_r : 1.0 / alpha_c;
		if (!isfinite(lambda) || lambda <= 0.0)
			break;
		for (size_t i = 0; i < p; i++)
			if (find(up, i) != root)
				r[i] *= lambda;
		for (size_t j = 0; j < q; j++)
			if (find(up, p + j) != root)
				c[j] /= lambda;
	}
	free(up);
	/* Rounding can leave a load a hair above 1: renormalise. */
	return vproc_grid_normalize(p, q, T, r, c);
}
