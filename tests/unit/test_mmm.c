/*
 * test_mmm.c -- rectangle partitions for the matrix product (paper 001;
 * notes ../shared/specs/001-mmm-partition.md s6): Table 1 cell by cell,
 * the toy and Fig 11 results, the s5.4 instance, the equal-area series,
 * p = 2, the non-convex cell of notes s2.7, invariances, the DP against a
 * brute force over every column partition, the exact guillotine search
 * against a geometric brute force over every tree, tilings, integer plans,
 * Prop 1, and the choice of machines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "planner/mmm/mmm.h"
#include "paper.h"
#include "rng.h"
#include "paper_001.h"

/* ---- helpers ------------------------------------------------------------ */

static uint64_t rng_state;
static double urand(double lo, double hi)
{
	return hl_rng_uniform(&rng_state, lo, hi);
}

static void assert_near(double x, double y, double tol)
{
	if (!(fabs(x - y) <= tol))
		fail_msg("%.15g != %.15g (tol %g)", x, y, tol);
}

/* Random areas from speeds U[1, 10]. */
static void random_areas(size_t p, double *s)
{
	double t[64];
	for (size_t i = 0; i < p; i++)
		t[i] = 1.0 / urand(1.0, 10.0);
	assert_int_equal(vproc_mmm_areas(p, t, s), VPROC_OK);
}

/* ---- Table 1 ----------------------------------------------------------- */

static void table1_all_36_cells(void **state)
{
	(void)state;
	double f[64];
	size_t cut[64], cells = 0;
	assert_int_equal(vproc_mmm_col_table(8, TOY, f, cut), VPROC_OK);
	for (size_t C = 1; C <= 8; C++)
		for (size_t q = 1; q <= 8; q++) {
			double x = f[(C - 1) * 8 + q - 1];
			if (q < C) {
				assert_true(isnan(x));
				continue;
			}
			assert_near(x, T1_F[C - 1][q - 1], 1e-9);
			assert_printed(x, T1_F[C - 1][q - 1], 2);
			if (C >= 2)
				assert_int_equal(cut[(C - 1) * 8 + q - 1], T1_CUT[C - 1][q - 1]);
			cells++;
		}
	assert_int_equal(cells, 36);
}

static void table1_result(void **state)
{
	(void)state;
	vproc_mmm_partition part;
	assert_int_equal(vproc_mmm_columns(8, TOY, &part), VPROC_OK);
	assert_near(part.cost, 5.4, 1e-12);
	assert_int_equal(part.ncols, 3);
	assert_int_equal(part.col_count[0], 4);
	assert_int_equal(part.col_count[1], 2);
	assert_int_equal(part.col_count[2], 2);
	static const double w[8] = { 0.2, 0.2, 0.2, 0.2, 0.4, 0.4, 0.4, 0.4 };
	static const double h[8] = { 0.1, 0.2, 0.3, 0.4, 0.5, 0.5, 0.5, 0.5 };
	for (size_t i = 0; i < 8; i++) {
		assert_int_equal(part.rect[i].machine, i);
		assert_near(part.rect[i].w, w[i], 1e-12);
		assert_near(part.rect[i].h, h[i], 1e-12);
	}
	assert_near(vproc_mmm_lower_bound(8, TOY), 5.316135, 5e-7);
	assert_near(part.cost / vproc_mmm_lower_bound(8, TOY), 1.01578, 5e-6);
	assert_true(vproc_mmm_tiles(8, part.rect, TOY, 1e-12));
	vproc_mmm_partition_free(&part);
}

/* ---- Fig 11 and s5.4 ----------------------------------------------------- */

static void fig11(void **state)
{
	(void)state;
	double s[7], f[49];
	size_t cut[49];
	assert_int_equal(vproc_mmm_areas(7, FIG11_T, s), VPROC_OK);
	static const double want_s[7] = { 0.02, 0.02, 0.1, 0.1, 0.18, 0.18, 0.4 };
	for (size_t i = 0; i < 7; i++)
		assert_near(s[i], want_s[i], 1e-15);
	vproc_mmm_partition part;
	assert_int_equal(vproc_mmm_columns(7, s, &part), VPROC_OK);
	assert_near(part.cost, 5.08, 1e-12);
	assert_printed(part.cost, 5.1, 1);
	assert_int_equal(part.ncols, 3);
	assert_int_equal(part.col_count[0], 4);
	assert_int_equal(part.col_count[1], 2);
	assert_int_equal(part.col_count[2], 1);
	assert_near(part.rect[0].w, 0.24, 1e-12);
	assert_near(part.rect[4].w, 0.36, 1e-12);
	assert_near(part.rect[6].w, 0.4, 1e-12);
	assert_near(vproc_mmm_lower_bound(7, s), 4.792564, 5e-7);
	assert_int_equal(vproc_mmm_col_table(7, s, f, cut), VPROC_OK);
	static const double fC[7] = { 8, 5.24, 5.08, 5.56, 6.24, 7.04, 8 };
	for (size_t C = 1; C <= 7; C++)
		assert_near(f[(C - 1) * 7 + 6], fC[C - 1], 1e-12);
	vproc_mmm_partition_free(&part);
	/* beyond the paper: the best guillotine partition (notes s5.3) */
	assert_int_equal(vproc_mmm_guillotine(7, s, &part), VPROC_OK);
	assert_near(part.cost, 4.833333, 5e-7);
	assert_true(part.exact);
	assert_true(vproc_mmm_tiles(7, part.rect, s, 1e-12));
	vproc_mmm_partition_free(&part);
}

static void s54(void **state)
{
	(void)state;
	vproc_mmm_partition part;
	assert_int_equal(vproc_mmm_columns(6, S54, &part), VPROC_OK);
	assert_near(part.cost, 5.0, 1e-12);
	assert_int_equal(part.ncols, 2);   /* C = 2 and C = 3 tie: the smaller */
	assert_near(vproc_mmm_lower_bound(6, S54), 4.186348, 5e-7);
	vproc_mmm_partition_free(&part);

	/* Fig 9 by hand: columns {B, B} | {B, B, [t|t]} */
	double w1 = 0.4976, w2 = 1 - w1, hb = 0.2488 / w2, ht = 0.0048 / w2;
	vproc_mmm_rect fig9[6] = {
		{ 0, 0, 0, w1, 0.5 },  { 1, 0, 0.5, w1, 0.5 },
		{ 2, w1, 0, w2, hb },  { 3, w1, hb, w2, hb },
		{ 4, w1, 2 * hb, w2 / 2, ht }, { 5, w1 + w2 / 2, 2 * hb, w2 / 2, ht },
	};
	assert_true(vproc_mmm_tiles(6, fig9, S54, 1e-12));
	assert_near(vproc_mmm_cost(6, fig9), 4.511954, 5e-7);
	/* the exact guillotine search finds it, and nothing better */
	assert_int_equal(vproc_mmm_guillotine(6, S54, &part), VPROC_OK);
	assert_near(part.cost, 4.511954, 5e-7);
	assert_true(vproc_mmm_tiles(6, part.rect, S54, 1e-12));
	vproc_mmm_partition_free(&part);
	/* partition: auto takes it */
	assert_int_equal(vproc_mmm_best(6, S54, &part), VPROC_OK);
	assert_int_equal(part.algorithm, VPROC_MMM_GUILLOTINE);
	vproc_mmm_partition_free(&part);
}

static void toy_guillotine(void **state)
{
	(void)state;
	vproc_mmm_partition part;
	assert_int_equal(vproc_mmm_guillotine(8, TOY, &part), VPROC_OK);
	assert_near(part.cost, 5.385520, 5e-7);
	assert_true(vproc_mmm_tiles(8, part.rect, TOY, 1e-12));
	vproc_mmm_partition_free(&part);
}

/* ---- series and small cases -------------------------------------------- */

static void equal_areas(void **state)
{
	(void)state;
	static const double want[12] = { 2, 3, 11.0 / 3, 4, 23.0 / 5, 5, 38.0 / 7, 23.0 / 4, 6,
	                                  32.0 / 5, 74.0 / 11, 7 };
	static const size_t cols[12] = { 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3 };
	for (size_t p = 1; p <= 12; p++) {
		double s[12];
		for (size_t i = 0; i < p; i++)
			s[i] = 1.0 / (double)p;
		vproc_mmm_partition part;
		assert_int_equal(vproc_mmm_columns(p, s, &part), VPROC_OK);
		assert_near(part.cost, want[p - 1], 1e-12);
		assert_int_equal(part.ncols, cols[p - 1]);
		double lb = vproc_mmm_lower_bound(p, s);
		if (p == 1 || p == 4 || p == 9)
			assert_near(part.cost, lb, 1e-12);
		else
			assert_true(part.cost > lb + 1e-6);
		assert_true(vproc_mmm_tiles(p, part.rect, s, 1e-12));
		vproc_mmm_partition_free(&part);
	}
}

static void two_processors_cost_3(void **state)
{
	(void)state;
	rng_state = 2;
	for (int k = 0; k < 200; k++) {
		double s[2];
		random_areas(2, s);
		vproc_mmm_partition part;
		assert_int_equal(vproc_mmm_columns(2, s, &part), VPROC_OK);
		assert_near(part.cost, 3.0, 1e-12);
		vproc_mmm_partition_free(&part);
	}
	double e[2] = { 1 - 1e-9, 1e-9 };
	vproc_mmm_partition part;
	assert_int_equal(vproc_mmm_columns(2, e, &part), VPROC_OK);
	assert_near(part.cost, 3.0, 1e-12);
	assert_true(vproc_mmm_lower_bound(2, e) < 2.0001);
	vproc_mmm_partition_free(&part);
}

/* Notes s2.7: g is not convex, yet f_2(6) = f_3(6) = 83/18. */
static void non_convex_cell(void **state)
{
	(void)state;
	double s[6] = { 4, 4, 8, 50, 50, 100 }, f[36];
	size_t cut[36];
	for (size_t i = 0; i < 6; i++)
		s[i] /= 216.0;
	assert_int_equal(vproc_mmm_col_table(6, s, f, cut), VPROC_OK);
	assert_near(f[1 * 6 + 5], 83.0 / 18, 1e-12);
	assert_near(f[2 * 6 + 5], 83.0 / 18, 1e-12);
	/* g(r) for C = 3, q = 6 (r = 1..4): 83/18, 523/108, 53/9, 62/9 */
	static const double g[4] = { 83.0 / 18, 523.0 / 108, 53.0 / 9, 62.0 / 9 };
	double pre[7] = { 0 };
	for (size_t q = 1; q <= 6; q++)
		pre[q] = pre[q - 1] + s[q - 1];
	for (size_t r = 1; r <= 4; r++)
		assert_near(1 + (double)r * (pre[6] - pre[6 - r]) + f[1 * 6 + 6 - r - 1], g[r - 1], 1e-12);
	assert_near(g[3] - 2 * g[2] + g[1], -0.046, 5e-4);   /* the second difference */
}

static void invariances(void **state)
{
	(void)state;
	rng_state = 8;
	for (int k = 0; k < 50; k++) {
		size_t p = 2 + (size_t)(urand(0, 10));
		double t[12], t2[12], s[12], s2[12];
		for (size_t i = 0; i < p; i++)
			t[i] = urand(0.1, 3);
		/* scaled and reversed */
		for (size_t i = 0; i < p; i++)
			t2[i] = 7.5 * t[p - 1 - i];
		assert_int_equal(vproc_mmm_areas(p, t, s), VPROC_OK);
		assert_int_equal(vproc_mmm_areas(p, t2, s2), VPROC_OK);
		vproc_mmm_partition a, b;
		assert_int_equal(vproc_mmm_columns(p, s, &a), VPROC_OK);
		assert_int_equal(vproc_mmm_columns(p, s2, &b), VPROC_OK);
		assert_near(a.cost, b.cost, 1e-12);
		vproc_mmm_partition_free(&a);
		vproc_mmm_partition_free(&b);
	}
}

/* ---- the DP against every column partition ------------------------------ */

/* The least cost over every set partition of s[0..p) into columns: each
 * block a column; order is irrelevant to the cost (restricted growth). */
static double brute_columns(size_t p, const double *s, size_t i, size_t *label, size_t nl)
{
	if (i == p) {
		double cost = 0.0;
		for (size_t c = 0; c < nl; c++) {
			double w = 0.0;
			size_t k = 0;
			for (size_t j = 0; j < p; j++)
				if (label[j] == c) {
					w += s[j];
					k++;
				}
			cost += 1.0 + (double)k * w;
		}
		return cost;
	}
	double best = INFINITY;
	for (size_t c = 0; c <= nl; c++) {
		label[i] = c;
		best = fmin(best, brute_columns(p, s, i + 1, label, c == nl ? nl + 1 : nl));
	}
	return best;
}

static void dp_against_brute_force(void **state)
{
	(void)state;
	rng_state = 1;
	for (int k = 0; k < 300; k++) {
		size_t p = 1 + (size_t)urand(0, 8);
		double s[8];
		size_t label[8];
		if (k % 2)
			random_areas(p, s);
		else {   /* log-uniform speeds 1..100: more spread */
			double t[8];
			for (size_t i = 0; i < p; i++)
				t[i] = pow(100.0, -urand(0, 1));
			assert_int_equal(vproc_mmm_areas(p, t, s), VPROC_OK);
		}
		vproc_mmm_partition part;
		assert_int_equal(vproc_mmm_columns(p, s, &part), VPROC_OK);
		assert_near(part.cost, brute_columns(p, s, 0, label, 0), 1e-12);
		assert_true(vproc_mmm_tiles(p, part.rect, s, 1e-12));
		vproc_mmm_partition_free(&part);
	}
}

/* ---- guillotine against every tree --------------------------------------- */

/* The least cost of cutting the w x h rectangle for the subset mask of s,
 * geometrically, over every split and direction. */
static double brute_tree(const double *s, unsigned mask, double w, double h)
{
	if ((mask & (mask - 1)) == 0)
		return w + h;
	double a = 0.0, best = INFINITY;
	for (unsigned i = 0; i < 32; i++)
		if (mask >> i & 1u)
			a += s[i];
	for (unsigned s1 = (mask - 1) & mask; s1; s1 = (s1 - 1) & mask) {
		double a1 = 0.0;
		for (unsigned i = 0; i < 32; i++)
			if (s1 >> i & 1u)
				a1 += s[i];
		double f = a1 / a;
		best = fmin(best, brute_tree(s, s1, w * f, h) + brute_tree(s, mask ^ s1, w * (1 - f), h));
		best = fmin(best, brute_tree(s, s1, w, h * f) + brute_tree(s, mask ^ s1, w, h * (1 - f)));
	}
	return best;
}

static void guillotine_against_brute_force(void **state)
{
	(void)state;
	rng_state = 3;
	for (int k = 0; k < 60; k++) {
		size_t p = 1 + (size_t)urand(0, 6);
		double s[6];
		random_areas(p, s);
		vproc_mmm_partition g, c;
		assert_int_equal(vproc_mmm_guillotine(p, s, &g), VPROC_OK);
		assert_int_equal(vproc_mmm_columns(p, s, &c), VPROC_OK);
		assert_near(g.cost, brute_tree(s, (1u << p) - 1, 1, 1), 1e-12);
		assert_true(g.cost <= c.cost + 1e-12);   /* columns are guillotine trees */
		assert_true(vproc_mmm_tiles(p, g.rect, s, 1e-12));
		vproc_mmm_partition_free(&g);
		vproc_mmm_partition_free(&c);
	}
}

/* Above VPROC_MMM_GUILLOTINE_MAX: the bisection still tiles, one rectangle
 * per machine, and auto is never worse than the columns. */
static void bisection_tiles(void **state)
{
	(void)state;
	rng_state = 4;
	for (size_t p = 11; p <= 64; p += 7) {
		double s[64];
		random_areas(p, s);
		vproc_mmm_partition g, b;
		assert_int_equal(vproc_mmm_guillotine(p, s, &g), VPROC_OK);
		assert_false(g.exact);
		assert_true(vproc_mmm_tiles(p, g.rect, s, 1e-9));
		assert_true(g.cost >= vproc_mmm_lower_bound(p, s) - 1e-12);
		assert_int_equal(vproc_mmm_best(p, s, &b), VPROC_OK);
		vproc_mmm_partition c;
		assert_int_equal(vproc_mmm_columns(p, s, &c), VPROC_OK);
		assert_true(b.cost <= c.cost + 1e-12);
		assert_true(b.cost <= g.cost + 1e-12);
		vproc_mmm_partition_free(&g);
		vproc_mmm_partition_free(&b);
		vproc_mmm_partition_free(&c);
	}
}

/* Prop 1: C^ / LB <= sqrt(r) (1 + 1/sqrt(p)), r = max s / min s. */
static void prop1(void **state)
{
	(void)state;
	rng_state = 5;
	for (int k = 0; k < 300; k++) {
		size_t p = 1 + (size_t)urand(0, 40);
		double s[40], lo = INFINITY, hi = 0;
		random_areas(p, s);
		for (size_t i = 0; i < p; i++) {
			lo = fmin(lo, s[i]);
			hi = fmax(hi, s[i]);
		}
		vproc_mmm_partition part;
		assert_int_equal(vproc_mmm_columns(p, s, &part), VPROC_OK);
		double lb = vproc_mmm_lower_bound(p, s);
		assert_true(part.cost >= lb - 1e-12);
		assert_true(part.cost / lb <= sqrt(hi / lo) * (1 + 1 / sqrt((double)p)) + 1e-12);
		vproc_mmm_partition_free(&part);
	}
}

/* vproc_mmm_columns stops the DP at C > the best cost so far (every column
 * costs more than 1): the same optimum as the full table. */
static void pruned_dp_is_exact(void **state)
{
	(void)state;
	rng_state = 9;
	static double f[120 * 120];
	static size_t cut[120 * 120];
	for (size_t p = 20; p <= 120; p += 50) {
		double s[120], ss[120];
		random_areas(p < 64 ? p : 64, s);
		if (p > 64) {   /* random_areas draws at most 64 */
			double t[120];
			for (size_t i = 0; i < p; i++)
				t[i] = 1 / urand(1, 10);
			assert_int_equal(vproc_mmm_areas(p, t, s), VPROC_OK);
		}
		memcpy(ss, s, p * sizeof *s);
		for (size_t i = 1; i < p; i++)   /* insertion sort, ascending */
			for (size_t k = i; k > 0 && ss[k - 1] > ss[k]; k--) {
				double x = ss[k];
				ss[k] = ss[k - 1];
				ss[k - 1] = x;
			}
		assert_int_equal(vproc_mmm_col_table(p, ss, f, cut), VPROC_OK);
		double best = INFINITY;
		for (size_t C = 1; C <= p; C++)
			best = fmin(best, f[(C - 1) * p + p - 1]);
		vproc_mmm_partition part;
		assert_int_equal(vproc_mmm_columns(p, s, &part), VPROC_OK);
		assert_near(part.cost, best, 1e-12);
		assert_true(vproc_mmm_tiles(p, part.rect, s, 1e-9));
		vproc_mmm_partition_free(&part);
	}
}

/* ---- integer plans -------------------------------------------------------- */

static void integer_plan_fig11(void **state)
{
	(void)state;
	double s[7];
	assert_int_equal(vproc_mmm_areas(7, FIG11_T, s), VPROC_OK);
	vproc_mmm_partition part;
	assert_int_equal(vproc_mmm_columns(7, s, &part), VPROC_OK);
	/* speeds (1,1,5,5,9,9,20): loads in units of the slowest's cycle time */
	struct { size_t nb; double load; size_t W[3]; size_t H[7]; } want[2] = {
		{ 20, 80.0 / 9, { 4, 8, 8 }, { 1, 1, 9, 9, 10, 10, 20 } },
		{ 40, 100.0 / 3, { 9, 15, 16 }, { 3, 3, 17, 17, 20, 20, 40 } },
	};
	for (size_t k = 0; k < 2; k++) {
		vproc_mmm_plan plan;
		assert_int_equal(vproc_mmm_blocks(&part, FIG11_T, want[k].nb, &plan), VPROC_OK);
		assert_near(plan.max_load, want[k].load, 1e-12);
		for (size_t i = 0; i < 7; i++)
			assert_int_equal(plan.blk[i].rows, want[k].H[i]);
		assert_int_equal(plan.blk[0].cols, want[k].W[0]);
		assert_int_equal(plan.blk[4].cols, want[k].W[1]);
		assert_int_equal(plan.blk[6].cols, want[k].W[2]);
		assert_true(vproc_mmm_blocks_tile(&plan));
		if (k == 0) {
			/* notes s6.10: sum (H + W) = 100, 1200 blocks = 9,830,400 bytes */
			assert_int_equal(plan.half_perimeter, 100);
			assert_near(vproc_mmm_bytes(&plan, 32), 9830400.0, 0.5);
		}
		vproc_mmm_plan_free(&plan);
	}
	vproc_mmm_plan plan;
	assert_int_equal(vproc_mmm_blocks(&part, FIG11_T, 3, &plan), VPROC_ERANGE);   /* 4 rows needed */
	vproc_mmm_partition_free(&part);
}

/* The least largest load for the column composition, by enumeration of
 * every height and width vector (small nb). */
static double brute_plan(const vproc_mmm_partition *part, const double *t, size_t nb)
{
	double m[8];
	size_t d = 0;
	for (size_t j = 0; j < part->ncols; j++) {
		double w[8];
		for (size_t k = 0; k < part->col_count[j]; k++)
			w[k] = t[part->rect[d + k].machine];
		/* at least one row each: nb - k rows distributed freely on top */
		size_t kk = part->col_count[j];
		double best = INFINITY;
		size_t c[8] = { 0 };
		for (;;) {   /* every c with sum c = nb - kk, odometer */
			size_t sum = 0;
			for (size_t i = 0; i < kk; i++)
				sum += c[i];
			if (sum == nb - kk) {
				double x = 0;
				for (size_t i = 0; i < kk; i++)
					x = fmax(x, w[i] * (double)(c[i] + 1));
				best = fmin(best, x);
			}
			size_t i = 0;
			while (i < kk && ++c[i] > nb - kk)
				c[i++] = 0;
			if (i == kk)
				break;
		}
		m[j] = best;
		d += kk;
	}
	double best = INFINITY;
	size_t W[8] = { 0 }, C = part->ncols;
	for (;;) {
		size_t sum = 0;
		for (size_t j = 0; j < C; j++)
			sum += W[j];
		if (sum == nb - C) {
			double x = 0;
			for (size_t j = 0; j < C; j++)
				x = fmax(x, m[j] * (double)(W[j] + 1));
			best = fmin(best, x);
		}
		size_t j = 0;
		while (j < C && ++W[j] > nb - C)
			W[j++] = 0;
		if (j == C)
			break;
	}
	return best;
}

static void integer_plans_random(void **state)
{
	(void)state;
	rng_state = 6;
	for (int k = 0; k < 80; k++) {
		size_t p = 1 + (size_t)urand(0, 6), nb = p + (size_t)urand(0, 8);
		double t[6], s[6];
		for (size_t i = 0; i < p; i++)
			t[i] = urand(0.1, 1);
		assert_int_equal(vproc_mmm_areas(p, t, s), VPROC_OK);
		vproc_mmm_partition c, g;
		vproc_mmm_plan pc, pg;
		assert_int_equal(vproc_mmm_columns(p, s, &c), VPROC_OK);
		assert_int_equal(vproc_mmm_guillotine(p, s, &g), VPROC_OK);
		assert_int_equal(vproc_mmm_blocks(&c, t, nb, &pc), VPROC_OK);
		assert_true(vproc_mmm_blocks_tile(&pc));
		assert_near(pc.max_load, brute_plan(&c, t, nb), 1e-12);
		/* a guillotine tree of p leaves fits in p x p blocks at worst */
		vproc_status st = vproc_mmm_blocks(&g, t, nb, &pg);
		if (st == VPROC_OK) {
			assert_true(vproc_mmm_blocks_tile(&pg));
			vproc_mmm_plan_free(&pg);
		} else {
			assert_int_equal(st, VPROC_ERANGE);
		}
		vproc_mmm_plan_free(&pc);
		vproc_mmm_partition_free(&c);
		vproc_mmm_partition_free(&g);
	}
}

/* ---- the choice of machines (notes s5.2) ----------------------------------- */

static void dropping_fig11(void **state)
{
	(void)state;
	/* the five fastest: C^ 5.08 -> 4.3958 */
	double t5[5] = { 1.0 / 5, 1.0 / 5, 1.0 / 9, 1.0 / 9, 1.0 / 20 }, s[5];
	assert_int_equal(vproc_mmm_areas(5, t5, s), VPROC_OK);
	vproc_mmm_partition part;
	assert_int_equal(vproc_mmm_columns(5, s, &part), VPROC_OK);
	assert_near(part.cost, 4.3958, 5e-5);
	vproc_mmm_partition_free(&part);

	vproc_mmm_choice keep, drop;
	/* communication dear: dropping pays and the prediction says so */
	assert_int_equal(vproc_mmm_select(7, FIG11_T, VPROC_MMM_COLUMNS, 40, 1.0, 0, &keep), VPROC_OK);
	assert_int_equal(vproc_mmm_select(7, FIG11_T, VPROC_MMM_COLUMNS, 40, 1.0, 1, &drop), VPROC_OK);
	assert_int_equal(keep.used, 7);
	assert_true(drop.used < 7);
	assert_true(drop.predicted < keep.predicted);
	assert_near(drop.predicted, drop.predicted_k[drop.used - 1], 0);
	for (size_t k = 0; k < 7; k++)
		assert_true(drop.predicted <= drop.predicted_k[k]);
	assert_near(keep.predicted, drop.predicted_k[6], 1e-9);
	/* the kept machines are the fastest */
	assert_int_equal(drop.machine[0], 6);
	assert_true(vproc_mmm_blocks_tile(&drop.plan));
	vproc_mmm_choice_free(&keep);
	vproc_mmm_choice_free(&drop);
	/* communication free: every machine stays */
	assert_int_equal(vproc_mmm_select(7, FIG11_T, -1, 40, 0.0, 1, &drop), VPROC_OK);
	assert_int_equal(drop.used, 7);
	vproc_mmm_choice_free(&drop);
}

/* A given column partition (Table 2's 6.4 one, notes s3) and its checks. */
static void fixed_columns(void **state)
{
	(void)state;
	double s[7];
	assert_int_equal(vproc_mmm_areas(7, FIG11_T, s), VPROC_OK);
	size_t idx[7] = { 2, 3, 0, 1, 6, 4, 5 }, count[5] = { 1, 1, 2, 1, 2 };
	vproc_mmm_partition part;
	assert_int_equal(vproc_mmm_columns_fixed(7, s, idx, 5, count, &part), VPROC_OK);
	assert_near(part.cost, 6.4, 1e-12);
	assert_false(part.exact);
	assert_true(vproc_mmm_tiles(7, part.rect, s, 1e-12));
	for (size_t i = 0; i < 7; i++)
		assert_int_equal(part.rect[i].machine, idx[i]);
	vproc_mmm_plan plan;
	assert_int_equal(vproc_mmm_blocks(&part, FIG11_T, 20, &plan), VPROC_OK);
	assert_true(vproc_mmm_blocks_tile(&plan));
	vproc_mmm_plan_free(&plan);
	vproc_mmm_partition_free(&part);
	size_t dup[7] = { 2, 2, 0, 1, 6, 4, 5 }, short_count[5] = { 1, 1, 2, 1, 1 };
	assert_int_equal(vproc_mmm_columns_fixed(7, s, dup, 5, count, &part), VPROC_EINVAL);
	assert_int_equal(vproc_mmm_columns_fixed(7, s, idx, 5, short_count, &part), VPROC_EINVAL);
}

static void bad_inputs(void **state)
{
	(void)state;
	vproc_mmm_partition part;
	double s[2] = { 0.5, 0.6 }, z[2] = { 1.0, 0.0 }, t[2] = { 1.0, -1.0 };
	assert_int_equal(vproc_mmm_columns(2, s, &part), VPROC_EINVAL);
	assert_int_equal(vproc_mmm_columns(2, z, &part), VPROC_EINVAL);
	assert_int_equal(vproc_mmm_columns(0, s, &part), VPROC_EINVAL);
	assert_int_equal(vproc_mmm_guillotine(2, s, &part), VPROC_EINVAL);
	assert_int_equal(vproc_mmm_areas(2, t, s), VPROC_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table1_all_36_cells),
		cmocka_unit_test(table1_result),
		cmocka_unit_test(fig11),
		cmocka_unit_test(s54),
		cmocka_unit_test(toy_guillotine),
		cmocka_unit_test(equal_areas),
		cmocka_unit_test(two_processors_cost_3),
		cmocka_unit_test(non_convex_cell),
		cmocka_unit_test(invariances),
		cmocka_unit_test(dp_against_brute_force),
		cmocka_unit_test(guillotine_against_brute_force),
		cmocka_unit_test(bisection_tiles),
		cmocka_unit_test(prop1),
		cmocka_unit_test(pruned_dp_is_exact),
		cmocka_unit_test(integer_plan_fig11),
		cmocka_unit_test(integer_plans_random),
		cmocka_unit_test(dropping_fig11),
		cmocka_unit_test(fixed_columns),
		cmocka_unit_test(bad_inputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
