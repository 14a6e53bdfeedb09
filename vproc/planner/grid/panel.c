/*
 * panel.c -- from rational shares to a Bp x Bq panel of virtual processes
 * (000 s4.1.2 and s4.2.2).
 *
 * Grid row i gets R_i of the Bp virtual rows and grid column j gets C_j of
 * the Bq virtual columns, so machine (i,j) runs R_i x C_j virtual processes
 * and every process still talks to one row and one column only.  Stock
 * CYCLIC(b) ScaLAPACK on the Bp x Bq BLACS grid then deals the panel over
 * the matrix.  For LU and QR the order of the virtual rows and columns
 * matters as much as their number, as in 1D: the trailing ones must stay
 * balanced while the matrix shrinks.
 */
#include <string.h>

#include "planner/internal.h"

void vproc_panel_free(vproc_panel *pn)
{
	if (pn == NULL)
		return;
	free(pn->R);
	free(pn->C);
	free(pn->row_pattern);
	free(pn->col_pattern);
	memset(pn, 0, sizeof *pn);
}

vproc_status vproc_slice_quota(size_t p, const double *t, const size_t *quota, size_t B,
                               size_t *pattern)
{
	vproc_status st = vproc_check_times(p, t);
	if (st != VPROC_OK || quota == NULL || pattern == NULL)
		return VPROC_EINVAL;
	size_t sum = 0;
	for (size_t i = 0; i < p; i++)
		sum += quota[i];
	if (sum != B)
		return VPROC_EINVAL;
	size_t *cnt = vproc_calloc(p, sizeof *cnt);
	if (cnt == NULL)
		return VPROC_ENOMEM;
	for (size_t s = 0; s < B; s++) {
		size_t best = p;
		for (size_t i = 0; i < p; i++) {
			if (cnt[i] == quota[i])
				continue;
			if (best == p)
				best = i;
			else {
				double x = t[i] * (double)(cnt[i] + 1), y = t[best] * (double)(cnt[best] + 1);
				/* same tie-break as the heap: time, then speed, then index */
				if (x < y || (x == y && t[i] < t[best]))
					best = i;
			}
		}
		cnt[best]++;
		pattern[B - 1 - s] = best;   /* reversed: 000 s3.4 */
	}
	free(cnt);
	return VPROC_OK;
}

/* Largest-remainder rounding of the shares x[0..n-1] to integers >= 1
 * summing to B (B >= n). */
static void round_shares(size_t n, const double *x, size_t B, size_t *out, double *frac)
{
	double sx = 0.0;
	for (size_t i = 0; i < n; i++)
		sx += x[i];
	size_t used = 0;
	for (size_t i = 0; i < n; i++) {
		double want = x[i] / sx * (double)(B - n);   /* one each is reserved */
		out[i] = 1 + (size_t)floor(want);
		frac[i] = want - floor(want);
		used += out[i];
	}
	while (used < B) {
		size_t k = 0;
		for (size_t i = 1; i < n; i++)
			if (frac[i] > frac[k])
				k = i;
		out[k]++;
		frac[k] = -1.0;
		used++;
	}
}

static double panel_load(size_t p, size_t q, const double *T, const size_t *R, const size_t *C)
{
	double m = 0.0;
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j < q; j++) {
			double x = (double)R[i] * (double)C[j] * T[i * q + j];
			if (x > m)
				m = x;
		}
	return m;
}

/* t of line k against line l of the other side: row k, column l when
 * rows is set, else column k, row l.  Lets one loop serve both axes. */
static double cell(const double *T, size_t q, int rows, size_t k, size_t l)
{
	return rows ? T[k * q + l] : T[l * q + k];
}

/* The best shares of one side for the other side fixed: a 1D problem
 * (Alg 3.1) where line k costs max over the other side of share * t. */
static vproc_status resolve_side(size_t p, size_t q, const double *T, int rows,
                                 const size_t *other, size_t B, size_t *out, double *tau)
{
	size_t n = rows ? p : q, m = rows ? q : p;
	for (size_t k = 0; k < n; k++) {
		double x = 0.0;
		for (size_t l = 0; l < m; l++) {
			double t = cell(T, q, rows, k, l);
			if ((double)other[l] * t > x)
				x = (double)other[l] * t;
		}
		tau[k] = x;
		out[k] = 1;
	}
	return vproc_chunks_complete(n, tau, B, out);
}

/* 000 s4.2.2: a grid line works like its virtual processes on the other
 * side's machines together, i.e. one processor of cycle time
 * 1 / sum_l (share_l / t_kl) (Fig 9: 3/20 and 5/17). */
static void aggregate_side(size_t p, size_t q, const double *T, int rows,
                           const size_t *other, double *agg)
{
	size_t n = rows ? p : q, m = rows ? q : p;
	for (size_t k = 0; k < n; k++) {
		double s = 0.0;
		for (size_t l = 0; l < m; l++)
			s += (double)other[l] / cell(T, q, rows, k, l);
		agg[k] = 1.0 / s;
	}
}

vproc_status vproc_panel_build(size_t p, size_t q, const double *T, const double *r,
                               const double *c, size_t Bp, size_t Bq, vproc_panel *out)
{
	if (out == NULL)
		return VPROC_EINVAL;
	memset(out, 0, sizeof *out);
	if (p == 0 || q == 0 || Bp < p || Bq < q || r == NULL || c == NULL)
		return VPROC_EINVAL;
	vproc_status st = vproc_check_times(p * q, T);
	if (st != VPROC_OK)
		return st;
	out->p = p;
	out->q = q;
	out->Bp = Bp;
	out->Bq = Bq;
	out->R = vproc_calloc(p, sizeof *out->R);
	out->C = vproc_calloc(q, sizeof *out->C);
	out->row_pattern = vproc_calloc(Bp, sizeof *out->row_pattern);
	out->col_pattern = vproc_calloc(Bq, sizeof *out->col_pattern);
	size_t n = p > q ? p : q;
	double *tmp = vproc_calloc(n, sizeof *tmp);
	size_t *R2 = vproc_calloc(p, sizeof *R2), *C2 = vproc_calloc(q, sizeof *C2);
	if (!out->R || !out->C || !out->row_pattern || !out->col_pattern || !tmp || !R2 || !C2) {
		st = VPROC_ENOMEM;
		goto out;
	}
	round_shares(p, r, Bp, out->R, tmp);
	round_shares(q, c, Bq, out->C, tmp);
	out->load = panel_load(p, q, T, out->R, out->C);
	/* Coordinate descent: each half-step is optimal for its side, so the
	 * load never grows; stop when a round no longer lowers it. */
	for (int round = 0; round < 100; round++) {
		st = resolve_side(p, q, T, 1, out->C, Bp, R2, tmp);
		if (st != VPROC_OK)
			goto out;
		st = resolve_side(p, q, T, 0, R2, Bq, C2, tmp);
		if (st != VPROC_OK)
			goto out;
		double load = panel_load(p, q, T, R2, C2);
		if (!(load < out->load * (1.0 - 1e-12)))
			break;
		out->load = load;
		memcpy(out->R, R2, p * sizeof *R2);
		memcpy(out->C, C2, q * sizeof *C2);
	}
	double obj = vproc_grid_objective(p, q, r, c) / vproc_grid_load(p, q, T, r, c);
	out->efficiency = (double)Bp * (double)Bq / out->load / obj;

	/* Order rows and columns by the 1D incremental allocation over the
	 * aggregated cycle times, counts held to R and C. */
	double *agg = vproc_calloc(n, sizeof *agg);
	if (agg == NULL) {
		st = VPROC_ENOMEM;
		goto out;
	}
	aggregate_side(p, q, T, 0, out->R, agg);
	st = vproc_slice_quota(q, agg, out->C, Bq, out->col_pattern);
	if (st == VPROC_OK) {
		aggregate_side(p, q, T, 1, out->C, agg);
		st = vproc_slice_quota(p, agg, out->R, Bp, out->row_pattern);
	}
	free(agg);
out:
	free(tmp);
	free(R2);
	free(C2);
	if (st != VPROC_OK)
		vproc_panel_free(out);
	return st;
}

vproc_status vproc_panel_choose(size_t p, size_t q, const double *T, const double *r,
                                const double *c, size_t cap, size_t maxdim, double tol,
                                size_t *Bp, size_t *Bq)
{
	if (Bp == NULL || Bq == NULL || !isfinite(tol) || tol < 0.0 || p * q > cap ||
	    p > maxdim || q > maxdim)
		return VPROC_EINVAL;
	size_t best_p = 0, best_q = 0;
	double best_eff = -1.0;
	int best_ok = 0;
	/* Once a panel is good enough, a larger one can never be better: the
	 * search stops there instead of trying every Bp Bq <= cap (max_procs
	 * 10^5 took minutes; the choice is the same). */
	for (size_t bp = p; bp <= maxdim && bp * q <= cap; bp++) {
		if (best_ok && bp * q > best_p * best_q)
			break;
		for (size_t bq = q; bq <= maxdim && bp * bq <= cap; bq++) {
			if (best_ok && bp * bq > best_p * best_q)
				break;
			vproc_panel pn;
			vproc_status st = vproc_panel_build(p, q, T, r, c, bp, bq, &pn);
			if (st != VPROC_OK)
				return st;
			double eff = pn.efficiency;
			vproc_panel_free(&pn);
			int ok = eff >= 1.0 - tol;
			int better;
			if (ok != best_ok)
				better = ok;
			else if (ok)   /* both good enough: the smaller panel */
				better = bp * bq < best_p * best_q ||
				         (bp * bq == best_p * best_q && bp + bq < best_p + best_q);
			else
				better = eff > best_eff * (1.0 + 1e-12);
			if (best_p == 0 || better) {
				best_p = bp;
				best_q = bq;
				best_eff = eff;
				best_ok = ok;
			}
		}
	}
	*Bp = best_p;
	*Bq = best_q;
	return VPROC_OK;
}

vproc_status vproc_kl_panel_time(size_t p, size_t q, const double *T, size_t Bp, size_t Bq,
                                 double *time)
{
	if (time == NULL || p == 0 || q == 0)
		return VPROC_EINVAL;
	vproc_status st = vproc_check_times(p * q, T);
	if (st != VPROC_OK)
		return st;
	double *col = vproc_calloc(p, sizeof *col), *tau = vproc_calloc(q, sizeof *tau);
	size_t *n = vproc_calloc(p > q ? p : q, sizeof *n);
	if (!col || !tau || !n) {
		st = VPROC_ENOMEM;
		goto out;
	}
	/* 1D inside each column, then 1D across the columns, each column
	 * weighted by its own best time (000 s4.1.2). */
	for (size_t j = 0; j < q && st == VPROC_OK; j++) {
		for (size_t i = 0; i < p; i++)
			col[i] = T[i * q + j];
		st = vproc_chunks_optimal(p, col, Bp, n);
		tau[j] = vproc_chunks_makespan(p, col, n);
	}
	if (st != VPROC_OK)
		goto out;
	/* tau_j can be 0 only when Bp is 0; Alg 3.1 needs positive times. */
	for (size_t j = 0; j < q; j++)
		if (!(tau[j] > 0.0)) {
			st = VPROC_EINVAL;
			goto out;
		}
	st = vproc_chunks_optimal(q, tau, Bq, n);
	if (st == VPROC_OK)
		*time = vproc_chunks_makespan(q, tau, n);
out:
	free(col);
	free(tau);
	free(n);
	return st;
}
