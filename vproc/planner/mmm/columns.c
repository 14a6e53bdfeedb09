/*
 * columns.c -- the optimal column-based tiling MMM-COL (001 s5.1; notes s2).
 *
 * Some optimal column partition takes contiguous runs of the areas sorted
 * ascending (the "well-ordered" argument of s5.1), so a DP over prefixes
 * finds it: a column of width c holding k rectangles costs 1 + k c.  The
 * extracted pseudo-code's "1 + S x r" is garbled; the cost uses the sum of
 * the last r sorted areas, as Table 1's caption says (notes s2.3).  The plain
 * O(p^3) scan is kept: the paper's O(p^2 log p) dichotomy relies on a
 * convexity that does not hold (notes s2.7).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mmm_internal.h"

/* A later candidate wins only when better by more than this, relative:
 * the tie rules of notes s2.6 (smaller last column, fewer columns). */
#define MMM_TIE 1e-12

static int better(double x, double best)
{
	return isinf(best) ? x < best : x < best - MMM_TIE * fabs(best);
}

/* The cell f_C(q): the scan over r of s5.1, a later r kept only when better
 * by more than MMM_TIE relative. */
static double cell(const double *pre, const double *prev, size_t C, size_t q, size_t *cut)
{
	double best = INFINITY, thr = INFINITY;
	size_t bcut = 0;
	for (size_t r = 1; r <= q - C + 1; r++) {
		double v = 1.0 + (double)r * (pre[q] - pre[q - r]) + prev[q - r - 1];
		if (v < thr) {
			best = v;
			thr = v - MMM_TIE * fabs(v);
			bcut = q - r;
		}
	}
	*cut = bcut;
	return best;
}

/* The table for C = 1..Cmax, or, with prune, only while C can still beat the
 * best f_C(p) so far: every column costs more than 1, so f_C(q) > C, and
 * no C above the best cost can win (p = 1000 needs C <= 64, not 1000). */
static vproc_status col_dp(size_t p, const double *s, double *f, size_t *cut, int prune)
{
	if (p == 0 || !s || !f || !cut)
		return VPROC_EINVAL;
	double *pre = malloc((p + 1) * sizeof *pre);   /* pre[q] = S(0, q] */
	if (!pre)
		return VPROC_ENOMEM;
	pre[0] = 0.0;
	for (size_t q = 1; q <= p; q++)
		pre[q] = pre[q - 1] + s[q - 1];
	for (size_t k = 0; k < p * p; k++) {
		f[k] = NAN;
		cut[k] = 0;
	}
	for (size_t q = 1; q <= p; q++)
		f[q - 1] = 1.0 + (double)q * pre[q];
	double best = f[p - 1];
	for (size_t C = 2; C <= p && (!prune || (double)C <= best); C++) {
		const double *prev = f + (C - 2) * p;
		double *row = f + (C - 1) * p;
		for (size_t q = C; q <= p; q++)
			row[q - 1] = cell(pre, prev, C, q, &cut[(C - 1) * p + q - 1]);
		best = fmin(best, row[p - 1]);
	}
	free(pre);
	return VPROC_OK;
}

vproc_status vproc_mmm_col_table(size_t p, const double *s, double *f, size_t *cut)
{
	return col_dp(p, s, f, cut, 0);
}

double vproc_mmm_columns_cost(const double *s, const size_t *idx, size_t ncols,
                              const size_t *count)
{
	double cost = 0.0;
	size_t d = 0;
	for (size_t j = 0; j < ncols; j++) {
		double c = 0.0;
		for (size_t k = 0; k < count[j]; k++)
			c += s[idx[d + k]];
		d += count[j];
		cost += 1.0 + (double)count[j] * c;
	}
	return cost;
}

/* The tree of a column partition: a chain of vertical cuts between the
 * columns, a chain of horizontal cuts inside each (sorted order, top down). */
static size_t chain(vproc_mmm_partition *part, const double *s, const size_t *idx, size_t k,
                    vproc_mmm_kind kind, const size_t *count, size_t ncols)
{
	/* kind HCUT: the k areas idx[0..k-1] of one column; VCUT: ncols columns */
	size_t n = kind == VPROC_MMM_HCUT ? k : ncols;
	if (n == 0)
		return (size_t)-1;
	size_t *sub = malloc(n * sizeof *sub);
	double *area = malloc(n * sizeof *area);
	if (!sub || !area) {
		free(sub);
		free(area);
		return (size_t)-1;
	}
	size_t d = 0;
	for (size_t j = 0; j < n; j++) {
		if (kind == VPROC_MMM_HCUT) {
			area[j] = s[idx[j]];
			sub[j] = mmm_node_add(part, VPROC_MMM_LEAF, idx[j], 0, 0, area[j]);
		} else {
			sub[j] = chain(part, s, idx + d, count[j], VPROC_MMM_HCUT, NULL, 0);
			if (sub[j] == (size_t)-1) {
				free(sub);
				free(area);
				return (size_t)-1;
			}
			area[j] = part->node[sub[j]].area;
			d += count[j];
		}
	}
	/* right-nested: the last two first */
	size_t at = sub[n - 1];
	double a = area[n - 1];
	for (size_t j = n - 1; j-- > 0;) {
		a += area[j];
		at = mmm_node_add(part, kind, 0, sub[j], at, a);
	}
	free(sub);
	free(area);
	return at;
}

/* The areas of the partition in column order, and the root of its tree. */
static vproc_status build(size_t p, const double *s, const size_t *idx, vproc_mmm_partition *out)
{
	size_t root = chain(out, s, idx, 0, VPROC_MMM_VCUT, out->col_count, out->ncols);
	if (root == (size_t)-1)
		return VPROC_ENOMEM;
	(void)p;
	mmm_place(out, root);
	return VPROC_OK;
}

/* Trace back from (C, p): column C holds the last p - cut_C(p) areas. */
static void trace(size_t p, size_t C, const size_t *cut, size_t *count)
{
	size_t q = p;
	for (size_t c = C; c >= 2; c--) {
		size_t k = cut[(c - 1) * p + q - 1];
		count[c - 1] = q - k;
		q = k;
	}
	count[0] = q;
}

vproc_status vproc_mmm_columns(size_t p, const double *s, vproc_mmm_partition *out)
{
	vproc_status st = mmm_check_areas(p, s);
	if (st != VPROC_OK)
		return st;
	if (p > 100000)
		return VPROC_ERANGE;
	size_t *idx = malloc(p * sizeof *idx), *cut = malloc(p * p * sizeof *cut);
	double *ss = calloc(p, sizeof *ss), *f = malloc(p * p * sizeof *f);
	if (!idx || !cut || !ss || !f) {
		st = VPROC_ENOMEM;
		goto out;
	}
	mmm_sort_ascending(p, s, idx);
	for (size_t i = 0; i < p; i++)
		ss[i] = s[idx[i]];
	if ((st = col_dp(p, ss, f, cut, 1)) != VPROC_OK)
		goto out;
	size_t C = 1;
	for (size_t c = 2; c <= p && !isnan(f[(c - 1) * p + p - 1]); c++)
		if (better(f[(c - 1) * p + p - 1], f[(C - 1) * p + p - 1]))
			C = c;
	if ((st = mmm_partition_alloc(p, out)) != VPROC_OK)
		goto out;
	out->algorithm = VPROC_MMM_COLUMNS;
	out->exact = 1;
	out->ncols = C;
	trace(p, C, cut, out->col_count);
	if ((st = build(p, s, idx, out)) != VPROC_OK)
		vproc_mmm_partition_free(out);
out:
	free(idx);
	free(cut);
	free(ss);
	free(f);
	return st;
}

vproc_status vproc_mmm_columns_fixed(size_t p, const double *s, const size_t *idx, size_t ncols,
                                     const size_t *count, vproc_mmm_partition *out)
{
	vproc_status st = mmm_check_areas(p, s);
	if (st != VPROC_OK)
		return st;
	if (!idx || !count || ncols == 0 || ncols > p)
		return VPROC_EINVAL;
	size_t total = 0;
	unsigned char *seen = calloc(p, 1);
	if (!seen)
		return VPROC_ENOMEM;
	for (size_t j = 0; j < ncols; j++) {
		if (count[j] == 0)
			st = VPROC_EINVAL;
		total += count[j];
	}
	for (size_t i = 0; st == VPROC_OK && i < p && total == p; i++) {
		if (idx[i] >= p || seen[idx[i]])
			st = VPROC_EINVAL;
		else
			seen[idx[i]] = 1;
	}
	free(seen);
	if (st == VPROC_OK && total != p)
		st = VPROC_EINVAL;
	if (st == VPROC_OK && (st = mmm_partition_alloc(p, out)) == VPROC_OK) {
		out->algorithm = VPROC_MMM_COLUMNS;
		out->exact = 0;
		out->ncols = ncols;
		memcpy(out->col_count, count, ncols * sizeof *count);
		if ((st = build(p, s, idx, out)) != VPROC_OK)
			vproc_mmm_partition_free(out);
	}
	return st;
}
