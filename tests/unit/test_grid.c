/*
 * test_grid.c -- the 2D grid allocation problem (000 s4.3) and the panel
 * (000 s4.1.2, s4.2.2): the paper's 3x3 example to the digit, Figs 6/7 and 9,
 * Table 3 (Fig 15), the 2x2 closed form and the exact search against an
 * independent brute force (the spanning trees of s4.3.3, over every
 * arrangement), and feasibility of every result.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "paper.h"
#include "planner/planner.h"

static const double t19[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

/* Every plan must be feasible (r_i c_j t_ij <= 1) and report (sum r)(sum c). */
static void assert_feasible(const vproc_grid *g, const double *t)
{
	double T[256];
	for (size_t x = 0; x < g->p * g->q; x++)
		T[x] = t[g->arr[x]];
	assert_true(vproc_grid_load(g->p, g->q, T, g->r, g->c) <= 1.0 + 1e-9);
	assert_true(fabs(vproc_grid_objective(g->p, g->q, g->r, g->c) - g->obj) <= 1e-12 * g->obj);
	/* a permutation of the machines */
	int seen[256] = { 0 };
	for (size_t x = 0; x < g->p * g->q; x++) {
		assert_true(g->arr[x] < g->p * g->q);
		assert_false(seen[g->arr[x]]++);
	}
}

/* 000 s4.3.4, first step on T = [1..9]: r, c, T_exe, 2.4322, T_opt. */
static void heuristic_first_step(void **state)
{
	(void)state;
	vproc_grid g;
	double trace[1];
	size_t steps;
	assert_int_equal(vproc_grid_svd(3, 3, t19, VPROC_SVD_PAPER, 1, trace, 1, &steps, &g),
	                 VPROC_OK);
	assert_int_equal(steps, 1);
	const double r[3] = { 1.1661, 0.3675, 0.2100 }, c[3] = { 0.6803, 0.4288, 0.2859 };
	for (int i = 0; i < 3; i++) {
		assert_printed(g.r[i], r[i], 4);
		assert_printed(g.c[i], c[i], 4);
	}
	const double texe[9] = { 0.7933, 1, 1, 1, 0.7879, 0.6303, 1, 0.7203, 0.5402 };
	const double topt[9] = { 1.2606, 2, 3, 4, 6.3464, 9.5195, 7, 11.1061, 16.6592 };
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			assert_printed(g.r[i] * g.c[j] * t19[g.arr[i * 3 + j]], texe[i * 3 + j], 4);
			assert_printed(1.0 / (g.r[i] * g.c[j]), topt[i * 3 + j], 4);
		}
	assert_printed(g.obj, 2.4322, 4);
	assert_printed(trace[0], 2.4322, 4);
	assert_feasible(&g, t19);
	vproc_grid_free(&g);
}

/* 000 s4.3.4: 2.4322, then 2.5065 with [[1,2,3],[4,5,7],[6,8,9]], converged
 * at 2.5889 with [[1,2,3],[4,6,8],[5,7,9]]. */
static void heuristic_converges(void **state)
{
	(void)state;
	vproc_grid g;
	double trace[10];
	size_t steps;
	assert_int_equal(vproc_grid_svd(3, 3, t19, VPROC_SVD_PAPER, 0, trace, 10, &steps, &g),
	                 VPROC_OK);
	assert_int_equal(steps, 3);
	assert_printed(trace[0], 2.4322, 4);
	assert_printed(trace[1], 2.5065, 4);
	assert_printed(trace[2], 2.5889, 4);
	assert_printed(g.obj, 2.5889, 4);
	const double arr[9] = { 1, 2, 3, 4, 6, 8, 5, 7, 9 };
	for (int k = 0; k < 9; k++)
		assert_true(t19[g.arr[k]] == arr[k]);
	assert_feasible(&g, t19);
	vproc_grid_free(&g);
	/* the second step's arrangement, from one step more */
	assert_int_equal(vproc_grid_svd(3, 3, t19, VPROC_SVD_PAPER, 2, trace, 10, &steps, &g),
	                 VPROC_OK);
	const double arr2[9] = { 1, 2, 3, 4, 5, 7, 6, 8, 9 };
	for (int k = 0; k < 9; k++)
		assert_true(t19[g.arr[k]] == arr2[k]);
	vproc_grid_free(&g);
}

/* The exact optimum of the 3x3 example is 2.6917; our heuristic reaches it. */
static void exact_3x3(void **state)
{
	(void)state;
	vproc_grid g;
	assert_int_equal(vproc_grid_exact(3, 3, t19, &g), VPROC_OK);
	assert_printed(g.obj, 2.6917, 4);
	assert_int_equal(g.visited, 21);   /* 42 tableaux, mirror images skipped */
	assert_feasible(&g, t19);
	double exact = g.obj;
	vproc_grid_free(&g);
	assert_int_equal(vproc_grid_svd(3, 3, t19, VPROC_SVD_BEST, 0, NULL, 0, NULL, &g), VPROC_OK);
	assert_true(g.obj >= exact * (1 - 1e-12));
	assert_feasible(&g, t19);
	vproc_grid_free(&g);
}

/* 000 s5.2, Fig 15: the nine processors of Table 3 by speed; the paper's
 * distribution updates 2318.44 elements per time step, against 9 x 128 =
 * 1152 for cyclic, a bound of 2.01.  We must reach at least 2318.44; the
 * exact optimum is higher. */
static void table3_fig15(void **state)
{
	(void)state;
	const double speed[9] = { 362, 357, 357, 305, 250, 134, 287, 284, 128 };
	double t[9];
	for (int k = 0; k < 9; k++)
		t[k] = 1.0 / speed[k];
	vproc_grid h, e;
	assert_int_equal(vproc_grid_svd(3, 3, t, VPROC_SVD_BEST, 0, NULL, 0, NULL, &h), VPROC_OK);
	assert_int_equal(vproc_grid_exact(3, 3, t, &e), VPROC_OK);
	assert_true(h.obj >= 2318.44);
	assert_true(e.obj > 2318.44);
	assert_true(e.obj >= h.obj * (1 - 1e-12));
	assert_true(e.obj <= vproc_grid_bound(9, t));
	assert_printed(2318.44 / (9 * 128.0), 2.01, 2);
	assert_feasible(&h, t);
	assert_feasible(&e, t);
	vproc_grid_free(&h);
	vproc_grid_free(&e);
}

/* ---- an independent brute force: the spanning trees of s4.3.3 -------- */

/* For a fixed arrangement: every set of p+q-1 edges of K_{p,q}; if it is a
 * spanning tree, propagate r_1 = 1 along its equalities, keep it if every
 * other constraint holds, and return the best objective. */
static double brute_trees(size_t p, size_t q, const double *T)
{
	size_t E = p * q, need = p + q - 1;
	double best = -1.0;
	for (unsigned mask = 0; mask < (1u << E); mask++) {
		if ((size_t)__builtin_popcount(mask) != need)
			continue;
		double r[4], c[4];
		int hr[4] = { 1, 0, 0, 0 }, hc[4] = { 0 };
		r[0] = 1.0;
		for (size_t round = 0; round < need; round++)
			for (size_t e = 0; e < E; e++) {
				if (!(mask >> e & 1u))
					continue;
				size_t i = e / q, j = e % q;
				if (hr[i] && !hc[j]) {
					c[j] = 1.0 / (r[i] * T[e]);
					hc[j] = 1;
				} else if (hc[j] && !hr[i]) {
					r[i] = 1.0 / (c[j] * T[e]);
					hr[i] = 1;
				}
			}
		int ok = 1;
		for (size_t i = 0; i < p; i++)
			ok &= hr[i];
		for (size_t j = 0; j < q; j++)
			ok &= hc[j];
		if (!ok)
			continue;   /* not spanning (a cycle used an edge twice) */
		for (size_t e = 0; e < E && ok; e++)
			ok = r[e / q] * c[e % q] * T[e] <= 1.0 + 1e-12;
		if (!ok)
			continue;
		double o = vproc_grid_objective(p, q, r, c);
		if (o > best)
			best = o;
	}
	return best;
}

/* Over all arrangements with the first row and first column increasing
 * (permuting rows or columns changes nothing). */
static double brute_all(size_t p, size_t q, const double *t)
{
	size_t n = p * q, perm[9];
	for (size_t k = 0; k < n; k++)
		perm[k] = k;
	double best = -1.0, T[9];
	/* Heap's algorithm would be shorter; next_permutation keeps it plain. */
	for (;;) {
		int canon = 1;
		for (size_t i = 1; i < p; i++)
			canon &= t[perm[i * q]] > t[perm[(i - 1) * q]] ||
			         (t[perm[i * q]] == t[perm[(i - 1) * q]] && perm[i * q] > perm[(i - 1) * q]);
		for (size_t j = 1; j < q; j++)
			canon &= t[perm[j]] > t[perm[j - 1]] ||
			         (t[perm[j]] == t[perm[j - 1]] && perm[j] > perm[j - 1]);
		if (canon) {
			for (size_t k = 0; k < n; k++)
				T[k] = t[perm[k]];
			double o = brute_trees(p, q, T);
			if (o > best)
				best = o;
		}
		size_t i = n - 1;
		while (i > 0 && perm[i - 1] > perm[i])
			i--;
		if (i == 0)
			break;
		size_t j = n - 1;
		while (perm[j] < perm[i - 1])
			j--;
		size_t x = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = x;
		for (size_t a = i, b = n - 1; a < b; a++, b--) {
			x = perm[a];
			perm[a] = perm[b];
			perm[b] = x;
		}
	}
	return best;
}

static double rnd(void) { return 0.05 + (double)rand() / RAND_MAX; }

/* The 2x2 closed form and the per-arrangement solver against the trees. */
static void solve_vs_trees(void **state)
{
	(void)state;
	srand(7);
	for (int trial = 0; trial < 300; trial++) {
		size_t p = 2 + (size_t)(trial % 2), q = 2 + (size_t)(trial % 3 == 0);
		double T[9], r[3], c[3], obj;
		for (size_t k = 0; k < p * q; k++)
			T[k] = trial % 5 ? rnd() : 1 + rand() % 6;   /* ties too */
		assert_int_equal(vproc_grid_solve(p, q, T, r, c, &obj), VPROC_OK);
		double ref = brute_trees(p, q, T);
		assert_true(fabs(obj - ref) <= 1e-9 * ref);
		assert_true(vproc_grid_load(p, q, T, r, c) <= 1 + 1e-9);
		if (p == 2 && q == 2) {
			double r2[2], c2[2], o2;
			assert_int_equal(vproc_grid_solve_2x2(T, r2, c2, &o2), VPROC_OK);
			assert_true(fabs(o2 - ref) <= 1e-9 * ref);
		}
		/* improve() never loses against its start, and stays feasible */
		double ri[3], ci[3];
		for (size_t i = 0; i < p; i++)
			ri[i] = rnd();
		for (size_t j = 0; j < q; j++)
			ci[j] = rnd();
		assert_int_equal(vproc_grid_normalize(p, q, T, ri, ci), VPROC_OK);
		double before = vproc_grid_objective(p, q, ri, ci);
		assert_int_equal(vproc_grid_improve(p, q, T, ri, ci), VPROC_OK);
		assert_true(vproc_grid_objective(p, q, ri, ci) >= before * (1 - 1e-12));
		assert_true(vproc_grid_load(p, q, T, ri, ci) <= 1 + 1e-9);
		assert_true(vproc_grid_objective(p, q, ri, ci) <= ref * (1 + 1e-9));
	}
}

/* The exact search against the brute force over every arrangement. */
static void exact_vs_brute(void **state)
{
	(void)state;
	srand(11);
	const size_t shapes[][2] = { { 2, 2 }, { 2, 3 }, { 3, 2 }, { 3, 3 } };
	for (int s = 0; s < 4; s++)
		for (int trial = 0; trial < (s == 3 ? 4 : 40); trial++) {
			size_t p = shapes[s][0], q = shapes[s][1];
			double t[9];
			for (size_t k = 0; k < p * q; k++)
				t[k] = trial % 4 ? rnd() : 1 + rand() % 4;
			vproc_grid g;
			assert_int_equal(vproc_grid_exact(p, q, t, &g), VPROC_OK);
			double ref = brute_all(p, q, t);
			assert_true(fabs(g.obj - ref) <= 1e-9 * ref);
			assert_feasible(&g, t);
			vproc_grid_free(&g);
			/* and every heuristic is feasible and below the optimum */
			for (unsigned f = 0; f <= VPROC_SVD_BEST; f++) {
				assert_int_equal(vproc_grid_svd(p, q, t, f, 0, NULL, 0, NULL, &g), VPROC_OK);
				assert_feasible(&g, t);
				assert_true(g.obj <= ref * (1 + 1e-9));
				vproc_grid_free(&g);
			}
		}
}

static void rank1(void **state)
{
	(void)state;
	const double T[4] = { 1, 2, 3, 6 }, U[4] = { 1, 2, 3, 5 };
	assert_true(vproc_grid_is_rank1(2, 2, T, 1e-12));
	assert_false(vproc_grid_is_rank1(2, 2, U, 1e-12));
	/* a rank-1 3x3 is solved perfectly: the bound is met */
	const double t[9] = { 1, 2, 4, 3, 6, 12, 5, 10, 20 };
	double r[3], c[3], obj;
	assert_int_equal(vproc_grid_solve(3, 3, t, r, c, &obj), VPROC_OK);
	assert_true(fabs(obj - vproc_grid_bound(9, t)) < 1e-12);
	vproc_grid g;
	assert_int_equal(vproc_grid_exact(3, 3, t, &g), VPROC_OK);
	assert_true(fabs(g.obj - vproc_grid_bound(9, t)) < 1e-12);
	vproc_grid_free(&g);
}

/* 000 Figs 6 and 7: [[1,2],[3,6]] with a 4 x 3 panel: r = (3,1), c = (2,1),
 * a perfect balance. */
static void panel_fig6(void **state)
{
	(void)state;
	const double T[4] = { 1, 2, 3, 6 };
	double r[2], c[2], obj;
	assert_int_equal(vproc_grid_solve(2, 2, T, r, c, &obj), VPROC_OK);
	vproc_panel pn;
	assert_int_equal(vproc_panel_build(2, 2, T, r, c, 4, 3, &pn), VPROC_OK);
	assert_int_equal(pn.R[0], 3);
	assert_int_equal(pn.R[1], 1);
	assert_int_equal(pn.C[0], 2);
	assert_int_equal(pn.C[1], 1);
	assert_true(pn.load == 6.0);
	assert_true(fabs(pn.efficiency - 1.0) < 1e-12);
	vproc_panel_free(&pn);
}

/* 000 Fig 9: [[1,2],[3,5]] with an 8 x 6 panel: (r1,r2) = (6,2),
 * (c1,c2) = (4,2), row pattern (1,2,1,1,1,2,1,1), column pattern
 * (1,2,1,1,2,1). */
static void panel_fig9(void **state)
{
	(void)state;
	const double T[4] = { 1, 2, 3, 5 };
	double r[2], c[2], obj;
	assert_int_equal(vproc_grid_solve(2, 2, T, r, c, &obj), VPROC_OK);
	vproc_panel pn;
	assert_int_equal(vproc_panel_build(2, 2, T, r, c, 8, 6, &pn), VPROC_OK);
	assert_int_equal(pn.R[0], 6);
	assert_int_equal(pn.R[1], 2);
	assert_int_equal(pn.C[0], 4);
	assert_int_equal(pn.C[1], 2);
	const size_t rows[8] = { 1, 2, 1, 1, 1, 2, 1, 1 }, cols[6] = { 1, 2, 1, 1, 2, 1 };
	for (int k = 0; k < 8; k++)
		assert_int_equal(pn.row_pattern[k] + 1, rows[k]);
	for (int k = 0; k < 6; k++)
		assert_int_equal(pn.col_pattern[k] + 1, cols[k]);
	vproc_panel_free(&pn);
	assert_int_equal(vproc_panel_build(2, 2, T, r, c, 1, 6, &pn), VPROC_EINVAL);
}

/* Kalinov-Lastovetsky (000 s4.1.2), derived by hand.  Fig 6's rank-1 grid
 * with a 4 x 3 panel: columns (1,3) and (2,6) split 4 rows as (3,1), times
 * 3 and 6; the columns split 3 as (2,1): panel time 6, like the grid.  On
 * [[1,2],[3,5]] with 8 x 6: column (1,3) -> (6,2), time 6; column (2,5) ->
 * (6,2), time 12; columns (4,2): panel time 24.  It never beats the
 * bound sum 1/t. */
static void kalinov_lastovetsky(void **state)
{
	(void)state;
	const double T6[4] = { 1, 2, 3, 6 }, T9[4] = { 1, 2, 3, 5 };
	double time;
	assert_int_equal(vproc_kl_panel_time(2, 2, T6, 4, 3, &time), VPROC_OK);
	assert_true(time == 6.0);
	assert_int_equal(vproc_kl_panel_time(2, 2, T9, 8, 6, &time), VPROC_OK);
	assert_true(time == 24.0);
	srand(5);
	for (int trial = 0; trial < 100; trial++) {
		double T[9];
		for (int k = 0; k < 9; k++)
			T[k] = rnd();
		size_t Bp = 3 + (size_t)(rand() % 10), Bq = 3 + (size_t)(rand() % 10);
		assert_int_equal(vproc_kl_panel_time(3, 3, T, Bp, Bq, &time), VPROC_OK);
		/* no distribution of Bp Bq blocks beats the perfect balance */
		assert_true((double)Bp * (double)Bq / time <= vproc_grid_bound(9, T) * (1 + 1e-12));
	}
}

/* The grid shape: with free communication a 1 x n row balances perfectly;
 * the papers' 3 x 3 wins on Table 3 once sending a block costs as much as
 * updating one on the fastest machine; with 7 equal machines and costly
 * communication, dropping one for a 2 x 3 grid pays (hand-computed for
 * M = 64: 1 x 7 = 64^3/21 + 10 * 64^2 * (1 + 1/7)/2 = 35889, 2 x 3 =
 * 64^3/18 + 10 * 64^2 * (1/2 + 1/3)/2 = 31630), while at beta = 1 the row
 * still wins (14824 against 16270). */
static void grid_shape(void **state)
{
	(void)state;
	const double speed[9] = { 362, 357, 357, 305, 250, 134, 287, 284, 128 };
	double t[9];
	for (int k = 0; k < 9; k++)
		t[k] = 1.0 / speed[k];
	vproc_shape s;
	assert_int_equal(vproc_grid_choose_shape(9, t, 64, 0.0, &s), VPROC_OK);
	assert_int_equal(s.p, 1);
	assert_int_equal(s.q, 9);
	assert_true(fabs(s.obj - vproc_grid_bound(9, t)) < 1e-9 * s.obj);
	assert_int_equal(vproc_grid_choose_shape(9, t, 64, 1.0 / 362, &s), VPROC_OK);
	assert_int_equal(s.p, 3);
	assert_int_equal(s.q, 3);
	const double same[7] = { 1, 1, 1, 1, 1, 1, 1 };
	assert_int_equal(vproc_grid_choose_shape(7, same, 64, 10.0, &s), VPROC_OK);
	assert_int_equal(s.p * 10 + s.q, 23);
	assert_printed(s.time, 31630, 0);
	assert_int_equal(vproc_grid_choose_shape(7, same, 64, 1.0, &s), VPROC_OK);
	assert_int_equal(s.p * 10 + s.q, 17);
	assert_printed(s.time, 14824, 0);
	assert_int_equal(vproc_grid_choose_shape(7, same, 64, -1.0, &s), VPROC_EINVAL);
}

/* A deal's hosts each hold m slots and the same sum. */
static void assert_dealt(size_t k, size_t m, const size_t *v, const size_t *host)
{
	size_t got[8] = { 0 }, sum[8] = { 0 };
	for (size_t s = 0; s < k * m; s++) {
		assert_true(host[s] < k);
		got[host[s]]++;
		sum[host[s]] += v[s];
	}
	for (size_t h = 0; h < k; h++) {
		assert_int_equal(got[h], m);
		assert_int_equal(sum[h], sum[0]);
	}
}

/* Whether some split of v into k hosts of m slots has equal sums: every
 * assignment of slots to hosts, counted in base k. */
static int brute_split(size_t k, size_t m, const size_t *v)
{
	size_t n = k * m, total = 1, host[16];
	for (size_t s = 0; s < n; s++)
		total *= k;
	for (size_t code = 0; code < total; code++) {
		for (size_t s = 0, c = code; s < n; s++, c /= k)
			host[s] = c % k;
		size_t got[4] = { 0 }, sum[4] = { 0 }, ok = 1;
		for (size_t s = 0; s < n; s++) {
			got[host[s]]++;
			sum[host[s]] += v[s];
		}
		for (size_t h = 0; h < k; h++)
			ok &= got[h] == m && sum[h] == sum[0];
		if (ok)
			return 1;
	}
	return 0;
}

/* vproc_grid_deal (000 s4.3.1): the department cluster's new nodes (72
 * cells of 4 processes, 54 of 3, 2 of 2 over two hosts of 64 cores: 227
 * each, by even shares); a split that even shares miss ({1,3} {2,2}); an
 * odd sum; no split; the budget; and every small case against brute force. */
static void grid_deal(void **state)
{
	(void)state;
	size_t v[128], host[128];
	vproc_deal_result res;
	for (size_t s = 0; s < 128; s++)
		v[s] = s < 72 ? 4 : s < 126 ? 3 : 2;
	assert_int_equal(vproc_grid_deal(2, 64, v, 0, host, &res), VPROC_OK);
	assert_int_equal(res, VPROC_DEAL_EQUAL);
	assert_dealt(2, 64, v, host);
	assert_int_equal(host[0], 0);   /* a value's slots to host 0 first */
	assert_int_equal(host[36], 1);
	const size_t odd[4] = { 1, 3, 2, 2 }, sum3[4] = { 1, 1, 1, 0 }, none[4] = { 4, 1, 1, 2 };
	assert_int_equal(vproc_grid_deal(2, 2, odd, 0, host, &res), VPROC_OK);
	assert_int_equal(res, VPROC_DEAL_EQUAL);
	assert_dealt(2, 2, odd, host);
	assert_int_equal(vproc_grid_deal(2, 2, sum3, 0, host, &res), VPROC_OK);
	assert_int_equal(res, VPROC_DEAL_INDIVISIBLE);
	assert_int_equal(vproc_grid_deal(2, 2, none, 0, host, &res), VPROC_OK);
	assert_int_equal(res, VPROC_DEAL_NO_SPLIT);
	assert_int_equal(vproc_grid_deal(2, 2, odd, 1, host, &res), VPROC_OK);
	assert_int_equal(res, VPROC_DEAL_BUDGET);
	assert_int_equal(vproc_grid_deal(0, 2, odd, 0, host, &res), VPROC_EINVAL);
	unsigned seed = 39;
	for (int trial = 0; trial < 400; trial++) {
		size_t k = 2 + trial % 2, m = 1 + (trial / 2) % 3;   /* at most 9 slots */
		for (size_t s = 0; s < k * m; s++) {
			seed = seed * 1103515245u + 12345u;
			v[s] = (seed >> 16) % 5;
		}
		assert_int_equal(vproc_grid_deal(k, m, v, 0, host, &res), VPROC_OK);
		assert_int_equal(res == VPROC_DEAL_EQUAL, brute_split(k, m, v));
		if (res == VPROC_DEAL_EQUAL)
			assert_dealt(k, m, v, host);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(heuristic_first_step),
		cmocka_unit_test(heuristic_converges),
		cmocka_unit_test(exact_3x3),
		cmocka_unit_test(table3_fig15),
		cmocka_unit_test(solve_vs_trees),
		cmocka_unit_test(exact_vs_brute),
		cmocka_unit_test(rank1),
		cmocka_unit_test(panel_fig6),
		cmocka_unit_test(panel_fig9),
		cmocka_unit_test(kalinov_lastovetsky),
		cmocka_unit_test(grid_shape),
		cmocka_unit_test(grid_deal),
	};
	return cmocka_run_group_tests_name("grid (000 s4.1-4.3)", tests, NULL, NULL);
}
