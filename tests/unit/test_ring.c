/*
 * test_ring.c -- SliceRing (paper 004; notes ../shared/specs/004-slicering.md):
 * the exact time of a ring, Prop 1, the Held-Karp table (notes A2, A4),
 * the exact solver (A3) against a brute force over every subset and order
 * on random asymmetric platforms (and the MILP on the same ones), the
 * heuristics (A5) never below it, the invariances, the counterexample of
 * notes s4 (A6) and whole columns against a brute force.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "paper.h"
#include "rng.h"
#include "planner/ring/ring.h"
#include "ring_platforms.h"

/* ---- helpers ------------------------------------------------------------ */

static uint64_t rng_state;
static double urand(double lo, double hi)
{
	return hl_rng_uniform(&rng_state, lo, hi);
}

static void assert_rel(double x, double y, double tol)
{
	if (!(fabs(x - y) <= tol * fmax(1.0, fabs(y))))
		fail_msg("%.12g != %.12g (tol %g)", x, y, tol);
}

/* Lyon or Strasbourg with W = w_over_h, H = 1. */
typedef struct {
	double c[LYON_P * LYON_P];
	vproc_ring_platform pl;
} platform;

static void lyon(platform *x, double W)
{
	lyon_links(x->c);
	x->pl = (vproc_ring_platform){ LYON_P, lyon_w, x->c, W, 1.0 };
}

static void stras(platform *x, double W)
{
	stras_links(x->c);
	x->pl = (vproc_ring_platform){ STRAS_P, stras_w, x->c, W, 1.0 };
}

/*
 * The time of a ring by bisection on T, independent of the closed form of
 * notes s1: T is feasible iff every machine can pay its links (T >= H C_i)
 * and the shares (T - H C_i)/(W w_i) cover the work.
 */
static double time_bisect(const vproc_ring_platform *pl, size_t q, const size_t *r)
{
	if (q == 1)
		return pl->W * pl->w[r[0]];
	double C[32], lo = 0.0, hi = 0.0;
	for (size_t k = 0; k < q; k++) {
		C[k] = pl->c[r[k] * pl->p + r[(k + 1) % q]] + pl->c[r[k] * pl->p + r[(k + q - 1) % q]];
		lo = fmax(lo, pl->H * C[k]);
		hi = fmax(hi, pl->H * C[k] + pl->W * pl->w[r[k]]);
	}
	for (int it = 0; it < 200; it++) {
		double mid = 0.5 * (lo + hi), s = 0.0;
		for (size_t k = 0; k < q; k++)
			s += (mid - pl->H * C[k]) / (pl->W * pl->w[r[k]]);
		if (s >= 1.0)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* The least T over every subset and every order (first = lowest member). */
static void brute_rec(const vproc_ring_platform *pl, size_t *r, size_t q, size_t want,
                      unsigned used, double *best)
{
	if (q == want) {
		double T = time_bisect(pl, q, r);
		if (T < *best)
			*best = T;
		return;
	}
	for (size_t k = r[0] + 1; k < pl->p; k++)
		if (!(used >> k & 1u)) {
			r[q] = k;
			brute_rec(pl, r, q + 1, want, used | 1u << k, best);
		}
}

static double brute_force(const vproc_ring_platform *pl)
{
	double best = INFINITY;
	size_t r[16];
	for (size_t want = 1; want <= pl->p; want++)
		for (size_t s = 0; s < pl->p; s++) {
			r[0] = s;
			brute_rec(pl, r, 1, want, 1u << s, &best);
		}
	return best;
}

/* A random asymmetric platform: speeds over 1..10, each direction of each
 * link independently over 0.01..10 (so the max term often binds). */
static void random_platform(size_t p, double *w, double *c, vproc_ring_platform *pl)
{
	for (size_t i = 0; i < p; i++)
		w[i] = urand(1.0, 10.0);
	for (size_t i = 0; i < p * p; i++)
		c[i] = urand(0.01, 10.0);
	for (size_t i = 0; i < p; i++)
		c[i * p + i] = 0.0;
	static const double Ws[4] = { 1.0, 10.0, 100.0, 1000.0 };
	*pl = (vproc_ring_platform){ p, w, c, Ws[(size_t)urand(0.0, 3.999)], 1.0 };
}

/* Held-Karp on the corrected d of a platform. */
static void hk_of(const vproc_ring_platform *pl, vproc_ring_hk *hk)
{
	size_t p = pl->p;
	double d[LYON_P * LYON_P];
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j < p; j++)
			d[i * p + j] = i == j ? 0.0 : vproc_ring_d(pl, i, j);
	assert_int_equal(vproc_ring_hk_build(p, d, hk), VPROC_OK);
}

/* min over |S| = q of hk->len[S]. */
static double min_len(const vproc_ring_hk *hk, size_t q)
{
	double best = INFINITY;
	for (unsigned long S = 1; S < 1ul << hk->p; S++)
		if ((size_t)__builtin_popcountl(S) == q && hk->len[S] < best)
			best = hk->len[S];
	return best;
}

/* ---- the time of one ring (notes s1) ---------------------------------- */

static void ring_time_rules(void **state)
{
	(void)state;
	platform x;
	lyon(&x, 100.0);
	size_t order[LYON_P];
	for (size_t i = 0; i < LYON_P; i++)
		order[i] = i;
	/* notes s1: all 14 in list order, W = 100: T* gives alpha_5 < 0, and
	 * T = 1.964 is P5's links, 0.262 + 1.702. */
	double alpha[LYON_P], T, D;
	assert_int_equal(vproc_ring_time(&x.pl, LYON_P, order, alpha, &T, &D), VPROC_OK);
	assert_rel(T, 0.262 + 1.702, 1e-12);
	assert_rel(T, time_bisect(&x.pl, LYON_P, order), 1e-9);
	double s = 0.0;
	for (size_t i = 0; i < LYON_P; i++) {
		assert_true(alpha[i] >= 0.0);
		/* every machine finishes by T */
		assert_true(alpha[i] * 100.0 * lyon_w[i] + vproc_ring_C(&x.pl, LYON_P, order, i) <=
		            T * (1 + 1e-12));
		s += alpha[i];
	}
	assert_rel(s, 1.0, 1e-12);
	/* q = 1: no links; q = 2: each pays its single link twice */
	assert_int_equal(vproc_ring_time(&x.pl, 1, order + 3, alpha, &T, &D), VPROC_OK);
	assert_true(T == 100.0 * .0451 && D == 0.0 && alpha[3] == 1.0);
	size_t two[2] = { 1, 2 };   /* A-B: 1.702 each way */
	assert_int_equal(vproc_ring_time(&x.pl, 2, two, alpha, &T, &D), VPROC_OK);
	assert_rel(vproc_ring_C(&x.pl, 2, two, 0), 2 * 1.702, 1e-15);
	double tstar = (100.0 + 2 * 1.702 / .00874 + 2 * 1.702 / .0206) / (1 / .00874 + 1 / .0206);
	assert_rel(T, fmax(tstar, 2 * 1.702), 1e-12);
	/* when T* binds, every machine finishes exactly at T */
	x.pl.W = 1000.0;
	assert_int_equal(vproc_ring_time(&x.pl, 2, two, alpha, &T, &D), VPROC_OK);
	assert_rel(alpha[1] * 1000.0 * .00874 + 2 * 1.702, T, 1e-12);
	assert_rel(alpha[2] * 1000.0 * .0206 + 2 * 1.702, T, 1e-12);
	/* bad rings */
	size_t dup[2] = { 1, 1 }, out[1] = { 14 };
	assert_int_equal(vproc_ring_time(&x.pl, 2, dup, alpha, &T, &D), VPROC_EINVAL);
	assert_int_equal(vproc_ring_time(&x.pl, 1, out, alpha, &T, &D), VPROC_EINVAL);
	assert_int_equal(vproc_ring_time(&x.pl, 0, order, alpha, &T, &D), VPROC_EINVAL);
}

static void bad_platforms(void **state)
{
	(void)state;
	platform x;
	lyon(&x, 100.0);
	vproc_ring r;
	x.pl.W = 0.0;
	assert_int_equal(vproc_ring_exact(&x.pl, &r), VPROC_EINVAL);
	x.pl.W = 100.0;
	x.pl.H = -1.0;
	assert_int_equal(vproc_ring_greedy(&x.pl, (size_t)-1, 0, &r), VPROC_EINVAL);
	x.pl.H = 1.0;
	x.c[1] = NAN;
	assert_int_equal(vproc_ring_heuristic(&x.pl, &r), VPROC_EINVAL);
	x.c[1] = -0.5;
	assert_int_equal(vproc_ring_milp(&x.pl, 1.0, &r), VPROC_EINVAL);
	x.c[1] = 0.198;
	assert_int_equal(vproc_ring_milp(&x.pl, 0.0, &r), VPROC_EINVAL);
	assert_int_equal(vproc_ring_greedy(&x.pl, 14, 0, &r), VPROC_EINVAL);
	static double w[21], c[21 * 21];
	for (size_t i = 0; i < 21; i++)
		w[i] = 1.0;
	vproc_ring_platform big = { 21, w, c, 1.0, 1.0 };
	assert_int_equal(vproc_ring_exact(&big, &r), VPROC_ERANGE);
	assert_int_equal(vproc_ring_exact_hk(&x.pl, NULL, &r), VPROC_EINVAL);   /* no table */
}

/* A MILP stopped on its time limit whose ring reaches the proven bound is
 * optimal: Lyon with H = 10 is best on P1 alone (T = 0.874), and GLPK, cut
 * off after 20-90 ms here, proves a bound of exactly that.  The time limits
 * sweep that window; whatever the computer's speed, a ring at its bound
 * must be called optimal, and an optimal one has lower_bound == T. */
static void milp_at_bound(void **state)
{
	(void)state;
	platform x;
	lyon(&x, 100.0);
	x.pl.H = 10.0;
	for (int ms = 10; ms <= 120; ms += 10) {
		vproc_ring r;
		if (vproc_ring_milp(&x.pl, ms * 1e-3, &r) != VPROC_OK)
			continue;   /* no ring yet at this limit */
		assert_rel(r.T, 0.874, 1e-9);
		if (r.lower_bound >= r.T * (1 - 1e-9) || r.optimal)
			assert_true(r.optimal && r.lower_bound == r.T);
		vproc_ring_free(&r);
	}
}

/* ---- Prop 1 (notes s2, A1) -------------------------------------------- */

static void prop1(void **state)
{
	(void)state;
	double T, th;
	size_t q;
	assert_rel(1.0 / vproc_cost_ideal(LYON_P, lyon_w), 690.754841, 1e-9);
	assert_int_equal(vproc_ring_prop1(LYON_P, lyon_w, .248, 100, 1, &T, &q, &th), VPROC_OK);
	assert_printed(th, 68.016871, 6);
	assert_rel(T, 0.640769, 1e-6);
	assert_int_equal(q, 14);
	assert_int_equal(vproc_ring_prop1(LYON_P, lyon_w, .248, 10, 1, &T, &q, NULL), VPROC_OK);
	assert_rel(T, 0.0874, 1e-12);
	assert_int_equal(q, 1);
	assert_int_equal(vproc_ring_prop1(STRAS_P, stras_w, .048, 100, 1, &T, &q, &th), VPROC_OK);
	assert_printed(th, 18.676188, 6);
	assert_rel(T, 0.164976, 1e-6);
	/* the exact solver agrees on homogeneous links, on both sides of the
	 * threshold, with any ring of all machines */
	for (int plat = 0; plat < 2; plat++) {
		size_t p = plat ? STRAS_P : LYON_P;
		const double *w = plat ? stras_w : lyon_w;
		double c = plat ? .048 : .248, cc[LYON_P * LYON_P];
		for (size_t i = 0; i < p * p; i++)
			cc[i] = c;
		assert_int_equal(vproc_ring_prop1(p, w, c, 1, 1, &T, &q, &th), VPROC_OK);
		const double ratios[4] = { 0.5, 0.999, 1.001, 3.0 };
		for (int k = 0; k < 4; k++) {
			double W = th * ratios[k];
			vproc_ring_platform pl = { p, w, cc, W, 1.0 };
			vproc_ring r;
			assert_int_equal(vproc_ring_prop1(p, w, c, W, 1, &T, &q, NULL), VPROC_OK);
			assert_int_equal(vproc_ring_exact(&pl, &r), VPROC_OK);
			assert_rel(r.T, T, 1e-12);
			assert_int_equal(r.q, q);
			assert_int_equal(q, k < 2 ? 1 : p);
			if (q == p)   /* alpha_i proportional to 1/w_i */
				for (size_t i = 0; i < p; i++)
					assert_rel(r.alpha[i], vproc_cost_ideal(p, w) / w[i], 1e-12);
			vproc_ring_free(&r);
		}
	}
}

/* ---- Held-Karp: A2 (correct d), A4 (the paper's runs, d^run) ---------- */

static void a2_min_sum_d(void **state)
{
	(void)state;
	static const double lyon_row[13] = { 27.2165, 57.0520, 78.5192, 92.1275, 116.2051,
	                                      140.2828, 164.3605, 188.4381, 212.5158, 236.5935,
	                                      260.6712, 284.7488, 330.0577 };
	static const double stras_row[12] = { 6.4856, 10.5926, 15.2629, 20.4827, 26.1429,
	                                      40.4137, 46.0739, 76.1797, 96.2313, 119.2847,
	                                      159.6693, 211.4703 };
	platform x;
	vproc_ring_hk hk;
	lyon(&x, 1.0);
	hk_of(&x.pl, &hk);
	for (size_t q = 2; q <= LYON_P; q++)
		assert_true(fabs(min_len(&hk, q) - lyon_row[q - 2]) < 1e-4);
	vproc_ring_hk_free(&hk);
	stras(&x, 1.0);
	hk_of(&x.pl, &hk);
	for (size_t q = 2; q <= STRAS_P; q++)
		assert_true(fabs(min_len(&hk, q) - stras_row[q - 2]) < 1e-4);
	/* the cycle the table hands back has the table's length */
	size_t r[STRAS_P];
	unsigned long S = (1ul << STRAS_P) - 1;
	assert_int_equal(vproc_ring_hk_cycle(&hk, S, r), STRAS_P);
	double D;
	assert_int_equal(vproc_ring_time(&x.pl, STRAS_P, r, NULL, &D, &D), VPROC_OK);
	assert_rel(D, hk.len[S], 1e-12);
	vproc_ring_hk_free(&hk);
}

/* notes s7: the paper's tables are 6000 x the least sum of
 * d^run_ij = w_i (1/c_ij + 1/c_ji) (both tables inverted). */
static void a4_inverted_data(void **state)
{
	(void)state;
	static const double lyon_row[12] = { 880.1, 557.3, 1230.5, 907.7, 2077.2, 3074.0,
	                                     4070.7, 5067.5, 6064.3, 7061.1, 8057.8, 9054.6 };
	static const double stras_row[11] = { 1517.8, 2112.1, 3137.4, 3731.7, 4951.4, 5659.5,
	                                      7351.3, 8508.5, 10200.4, 12253.4, 14780.4 };
	for (int plat = 0; plat < 2; plat++) {
		platform x;
		if (plat)
			stras(&x, 1.0);
		else
			lyon(&x, 1.0);
		size_t p = x.pl.p;
		double e[LYON_P * LYON_P];
		for (size_t i = 0; i < p; i++)
			for (size_t j = 0; j < p; j++)
				e[i * p + j] = i == j ? 0.0 : x.pl.w[i] * (1 / x.c[i * p + j] + 1 / x.c[j * p + i]);
		vproc_ring_hk hk;
		assert_int_equal(vproc_ring_hk_build(p, e, &hk), VPROC_OK);
		for (size_t q = 3; q <= p; q++) {
			double want = plat ? stras_row[q - 3] : lyon_row[q - 3];
			assert_true(fabs(6000.0 * min_len(&hk, q) - want) <= 0.1);
		}
		vproc_ring_hk_free(&hk);
	}
}

/* ---- the exact solver: A3 --------------------------------------------- */

static void a3_lyon(void **state)
{
	(void)state;
	platform x;
	vproc_ring r;
	lyon(&x, 100.0);
	assert_int_equal(vproc_ring_exact(&x.pl, &r), VPROC_OK);
	assert_printed(r.T, 0.622591, 6);
	assert_int_equal(r.q, 14);
	assert_printed(r.alpha[1], .25926, 5);
	assert_printed(r.alpha[3], .02807, 5);
	assert_true(r.optimal && r.lower_bound == r.T);
	vproc_ring_free(&r);
	/* q = 1 up to W/H = 65.524086, then 14 */
	const double W[2] = { 65.5240, 65.5242 };
	for (int k = 0; k < 2; k++) {
		lyon(&x, W[k]);
		assert_int_equal(vproc_ring_exact(&x.pl, &r), VPROC_OK);
		assert_int_equal(r.q, k ? 14 : 1);
		vproc_ring_free(&r);
	}
}

static void a3_strasbourg(void **state)
{
	(void)state;
	platform x;
	vproc_ring r;
	stras(&x, 20.0);
	assert_int_equal(vproc_ring_exact(&x.pl, &r), VPROC_OK);
	assert_printed(r.T, 0.062776, 6);
	assert_int_equal(r.q, 6);
	static const size_t ring[6] = { 0, 3, 10, 4, 2, 11 };
	static const double alpha[6] = { .17034, .19764, .10220, .17016, .12145, .23821 };
	for (size_t k = 0; k < 6; k++)   /* the machines and their shares */
		assert_printed(r.alpha[ring[k]], alpha[k], 5);
	vproc_ring_free(&r);
	const double Ws[2] = { 50, 300 }, Ts[2] = { 0.099674, 0.352794 };
	for (int k = 0; k < 2; k++) {
		stras(&x, Ws[k]);
		assert_int_equal(vproc_ring_exact(&x.pl, &r), VPROC_OK);
		assert_printed(r.T, Ts[k], 6);
		vproc_ring_free(&r);
	}
	/* breakpoints: 1 up to 7.957520, 6 up to 37.878355, 8 up to
	 * 282.026605, then 13 */
	const double W[6] = { 7.9575, 7.9576, 37.8783, 37.8784, 282.0265, 282.0267 };
	const size_t q[6] = { 1, 6, 6, 8, 8, 13 };
	for (int k = 0; k < 6; k++) {
		stras(&x, W[k]);
		assert_int_equal(vproc_ring_exact(&x.pl, &r), VPROC_OK);
		assert_int_equal(r.q, q[k]);
		vproc_ring_free(&r);
	}
}

/* ---- brute force, MILP, heuristics on random asymmetric platforms ---- */

#define NRANDOM 240

static void exact_vs_brute_force(void **state)
{
	(void)state;
	rng_state = 20261123;
	int dp_alone_wrong = 0;
	for (int n = 0; n < NRANDOM; n++) {
		size_t p = 2 + (size_t)n % 7;   /* 2..8 */
		double w[8], c[64];
		vproc_ring_platform pl;
		random_platform(p, w, c, &pl);
		double bf = brute_force(&pl);
		vproc_ring r, mi;
		assert_int_equal(vproc_ring_exact(&pl, &r), VPROC_OK);
		assert_rel(r.T, bf, 1e-9);
		assert_rel(time_bisect(&pl, r.q, r.order), r.T, 1e-9);
		/* the MILP on the same instances: proven, and the same optimum */
		assert_int_equal(vproc_ring_milp(&pl, 60.0, &mi), VPROC_OK);
		assert_true(mi.optimal);
		assert_rel(mi.T, bf, 1e-6);
		assert_true(mi.lower_bound <= mi.T);
		vproc_ring_free(&mi);
		/* the DP alone: the least T over the least-D ring of every subset */
		vproc_ring_hk hk;
		hk_of(&pl, &hk);
		double dp = pl.W * w[vproc_fastest(p, w)];
		for (unsigned long S = 3; S < 1ul << p; S++) {
			if (!(S & (S - 1)))
				continue;
			size_t o[8], m = vproc_ring_hk_cycle(&hk, S, o);
			double T, D;
			assert_int_equal(vproc_ring_time(&pl, m, o, NULL, &T, &D), VPROC_OK);
			assert_rel(D, hk.len[S], 1e-12);
			dp = fmin(dp, T);
		}
		vproc_ring_hk_free(&hk);
		dp_alone_wrong += dp > bf * (1 + 1e-9);
		vproc_ring_free(&r);
	}
	/* the instances exercise the case the DP alone gets wrong (notes s9.1) */
	print_message("DP alone wrong on %d of %d\n", dp_alone_wrong, NRANDOM);
	assert_true(dp_alone_wrong > 0);
}

/* The MILP equals the brute force on the random instances above. */
static void milp_equals_exact(void **state)
{
	(void)state;
	/* notes A7: the one-shot MILP reproduces A3 at W/H = 20 and 50 */
	platform x;
	const double Ws[2] = { 20, 50 }, Ts[2] = { 0.062776, 0.099674 };
	for (int k = 0; k < 2; k++) {
		vproc_ring m;
		stras(&x, Ws[k]);
		assert_int_equal(vproc_ring_milp(&x.pl, 120.0, &m), VPROC_OK);
		assert_true(m.optimal);
		assert_printed(m.T, Ts[k], 6);
		vproc_ring_free(&m);
	}
}

/* A too short time limit on a hard instance: honest about what it knows. */
static void milp_time_limit(void **state)
{
	(void)state;
	platform x;
	vproc_ring m, e;
	stras(&x, 300.0);
	assert_int_equal(vproc_ring_exact(&x.pl, &e), VPROC_OK);
	vproc_status st = vproc_ring_milp(&x.pl, 0.05, &m);
	if (st == VPROC_ERANGE) {
		/* stopped before it found a ring: nothing claimed (a loaded
		 * machine takes this branch; e must be freed here too) */
		vproc_ring_free(&e);
		return;
	}
	assert_int_equal(st, VPROC_OK);
	assert_true(m.T >= e.T * (1 - 1e-9));
	assert_true(m.lower_bound <= e.T * (1 + 1e-9));
	if (!m.optimal)
		assert_true(m.lower_bound < m.T);
	vproc_ring_free(&m);
	vproc_ring_free(&e);
}

static void heuristics_never_below_exact(void **state)
{
	(void)state;
	rng_state = 99;
	int heur_exact = 0;
	for (int n = 0; n < NRANDOM; n++) {
		size_t p = 2 + (size_t)n % 7;
		double w[8], c[64];
		vproc_ring_platform pl;
		random_platform(p, w, c, &pl);
		vproc_ring e, g, gt, h, t;
		assert_int_equal(vproc_ring_exact(&pl, &e), VPROC_OK);
		assert_int_equal(vproc_ring_greedy(&pl, (size_t)-1, VPROC_RING_INSERT_DELTA, &g), VPROC_OK);
		assert_int_equal(vproc_ring_greedy(&pl, (size_t)-1, VPROC_RING_INSERT_TSTEP, &gt), VPROC_OK);
		assert_int_equal(vproc_ring_heuristic(&pl, &h), VPROC_OK);
		assert_int_equal(vproc_ring_tsp(&pl, &t), VPROC_OK);
		double lo = e.T * (1 - 1e-12);
		assert_true(g.T >= lo && gt.T >= lo && h.T >= lo && t.T >= lo);
		assert_true(h.T <= g.T && h.T <= gt.T);
		assert_int_equal(t.q, p);
		assert_false(g.optimal || h.optimal || t.optimal);
		heur_exact += h.T <= e.T * (1 + 1e-9);
		vproc_ring_free(&e);
		vproc_ring_free(&g);
		vproc_ring_free(&gt);
		vproc_ring_free(&h);
		vproc_ring_free(&t);
	}
	print_message("multi-start + local search exact on %d of %d\n", heur_exact, NRANDOM);
}

/* ---- A5, A6 ------------------------------------------------------------ */

static void a5_greedy(void **state)
{
	(void)state;
	platform x;
	vproc_ring g, e, h;
	const double Ws[6] = { 10, 20, 50, 100, 200, 300 };
	for (int k = 0; k < 6; k++) {   /* Lyon: greedy is exact */
		lyon(&x, Ws[k]);
		assert_int_equal(vproc_ring_exact(&x.pl, &e), VPROC_OK);
		assert_int_equal(vproc_ring_greedy(&x.pl, (size_t)-1, VPROC_RING_INSERT_DELTA, &g),
		                 VPROC_OK);
		assert_rel(g.T, e.T, 1e-12);
		vproc_ring_free(&e);
		vproc_ring_free(&g);
	}
	stras(&x, 50.0);
	/* P6 and P11 tie at .00583: the lowest index starts, and never beats
	 * P6 alone, 50 x .00583 */
	assert_int_equal(vproc_ring_greedy(&x.pl, (size_t)-1, VPROC_RING_INSERT_DELTA, &g), VPROC_OK);
	assert_int_equal(g.q, 1);
	assert_int_equal(g.order[0], 6);
	assert_rel(g.T, 0.2915, 1e-12);
	vproc_ring_free(&g);
	assert_int_equal(vproc_ring_greedy(&x.pl, 11, VPROC_RING_INSERT_DELTA, &g), VPROC_OK);
	assert_printed(g.T, 0.100858, 6);
	vproc_ring_free(&g);
	assert_int_equal(vproc_ring_heuristic(&x.pl, &h), VPROC_OK);
	assert_printed(h.T, 0.099674, 6);
	vproc_ring_free(&h);
}

/* notes s4 ERROR 1: the paper's d_ij = (c_ij + c_ji)/w_i picks (0,2,3,1),
 * whose true D is 9.7333; the optimum is (0,2,1,3), 9.65. */
static void a6_counterexample(void **state)
{
	(void)state;
	static const double w[4] = { 1, 4, 3, 5 };
	static const double c[16] = { 0, 4, 1, 3, 4, 0, 5, 4, 1, 5, 0, 3, 3, 4, 3, 0 };
	vproc_ring_platform pl = { 4, w, c, 1000.0, 1.0 };
	double paper_d[16];
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < 4; j++)
			paper_d[i * 4 + j] = i == j ? 0 : (c[i * 4 + j] + c[j * 4 + i]) / w[i];
	vproc_ring_hk hk;
	assert_int_equal(vproc_ring_hk_build(4, paper_d, &hk), VPROC_OK);
	size_t r[4];
	assert_int_equal(vproc_ring_hk_cycle(&hk, 15, r), 4);
	vproc_ring_hk_free(&hk);
	/* (0,2,3,1) or its reverse (0,1,3,2) */
	assert_true((r[1] == 2 && r[2] == 3 && r[3] == 1) || (r[1] == 1 && r[2] == 3 && r[3] == 2));
	double T, D;
	assert_int_equal(vproc_ring_time(&pl, 4, r, NULL, &T, &D), VPROC_OK);
	assert_printed(D, 9.7333, 4);
	vproc_ring e;
	assert_int_equal(vproc_ring_exact(&pl, &e), VPROC_OK);
	assert_int_equal(e.q, 4);
	assert_rel(e.D, 9.65, 1e-12);
	assert_true(e.T < T);
	assert_true(e.order[2] == 1 || e.order[2] == 3);   /* 0,2,1,3 up to orientation */
	vproc_ring_free(&e);
}

/* ---- invariances --------------------------------------------------------- */

static void invariances(void **state)
{
	(void)state;
	rng_state = 4242;
	for (int n = 0; n < 40; n++) {
		size_t p = 3 + (size_t)n % 6;
		double w[8], c[64], w2[8], c2[64];
		vproc_ring_platform pl;
		random_platform(p, w, c, &pl);
		vproc_ring e, f;
		assert_int_equal(vproc_ring_exact(&pl, &e), VPROC_OK);
		/* w x a, W / a: the same time */
		double a = urand(0.1, 10.0), b = urand(0.1, 10.0);
		for (size_t i = 0; i < p; i++)
			w2[i] = w[i] * a;
		vproc_ring_platform q1 = { p, w2, c, pl.W / a, pl.H };
		assert_int_equal(vproc_ring_exact(&q1, &f), VPROC_OK);
		assert_rel(f.T, e.T, 1e-9);
		vproc_ring_free(&f);
		/* c x b, H / b: the same time */
		for (size_t i = 0; i < p * p; i++)
			c2[i] = c[i] * b;
		vproc_ring_platform q2 = { p, w, c2, pl.W, pl.H / b };
		assert_int_equal(vproc_ring_exact(&q2, &f), VPROC_OK);
		assert_rel(f.T, e.T, 1e-9);
		vproc_ring_free(&f);
		/* machines renumbered by a random permutation pi (machine i of
		 * the new list is machine pi[i] of the old): the same time and q */
		size_t pi[8];
		for (size_t i = 0; i < p; i++)
			pi[i] = i;
		for (size_t i = p - 1; i > 0; i--) {   /* Fisher-Yates */
			size_t j = (size_t)urand(0.0, (double)i + 0.999999), t = pi[i];
			pi[i] = pi[j];
			pi[j] = t;
		}
		for (size_t i = 0; i < p; i++) {
			w2[i] = w[pi[i]];
			for (size_t j = 0; j < p; j++)
				c2[i * p + j] = c[pi[i] * p + pi[j]];
		}
		vproc_ring_platform q3 = { p, w2, c2, pl.W, pl.H };
		assert_int_equal(vproc_ring_exact(&q3, &f), VPROC_OK);
		assert_rel(f.T, e.T, 1e-9);
		assert_int_equal(f.q, e.q);
		vproc_ring_free(&f);
		/* the rotated shares: the same ring read backwards has the same time */
		size_t rev[8];
		for (size_t k = 0; k < e.q; k++)
			rev[k] = e.order[e.q - 1 - k];
		double T;
		assert_int_equal(vproc_ring_time(&pl, e.q, rev, NULL, &T, NULL), VPROC_OK);
		assert_rel(T, e.T, 1e-12);
		vproc_ring_free(&e);
	}
}

/* ---- whole columns ------------------------------------------------------- */

static double cols_brute(const double *unit, const double *comm, size_t q, size_t k,
                         size_t left, double sofar)
{
	if (k == q - 1)
		return fmax(sofar, (double)left * unit[k] + comm[k]);
	double best = INFINITY;
	for (size_t n = 1; n + (q - 1 - k) <= left; n++)
		best = fmin(best, cols_brute(unit, comm, q, k + 1, left - n,
		                             fmax(sofar, (double)n * unit[k] + comm[k])));
	return best;
}

static void columns(void **state)
{
	(void)state;
	rng_state = 31337;
	for (int n = 0; n < 200; n++) {
		size_t p = 2 + (size_t)n % 4;
		double w[8], c[64];
		vproc_ring_platform pl;
		random_platform(p, w, c, &pl);
		size_t order[8];
		for (size_t i = 0; i < p; i++)
			order[i] = p - 1 - i;
		size_t N = p + (size_t)urand(0.0, 14.0), cnt[8];
		double Tint, T;
		assert_int_equal(vproc_ring_columns(&pl, p, order, N, cnt, &Tint), VPROC_OK);
		size_t s = 0;
		double unit[8], comm[8];
		for (size_t k = 0; k < p; k++) {
			assert_true(cnt[k] >= 1);
			s += cnt[k];
			unit[k] = w[order[k]] * pl.W / (double)N;
			comm[k] = pl.H * vproc_ring_C(&pl, p, order, k);
		}
		assert_int_equal(s, N);
		assert_rel(Tint, cols_brute(unit, comm, p, 0, N, 0.0), 1e-12);
		assert_int_equal(vproc_ring_time(&pl, p, order, NULL, &T, NULL), VPROC_OK);
		assert_true(Tint >= T * (1 - 1e-12));
	}
	/* Lyon's optimal ring at W/H = 100 on 10000 columns: close to T */
	platform x;
	vproc_ring r;
	lyon(&x, 100.0);
	assert_int_equal(vproc_ring_exact(&x.pl, &r), VPROC_OK);
	size_t cnt[LYON_P];
	double Tint;
	assert_int_equal(vproc_ring_columns(&x.pl, r.q, r.order, 10000, cnt, &Tint), VPROC_OK);
	assert_true(Tint >= r.T && Tint <= r.T + 100.0 * .0451 / 10000);
	assert_int_equal(vproc_ring_columns(&x.pl, r.q, r.order, 3, cnt, &Tint), VPROC_EINVAL);
	vproc_ring_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ring_time_rules),
		cmocka_unit_test(bad_platforms),
		cmocka_unit_test(prop1),
		cmocka_unit_test(a2_min_sum_d),
		cmocka_unit_test(a4_inverted_data),
		cmocka_unit_test(a3_lyon),
		cmocka_unit_test(a3_strasbourg),
		cmocka_unit_test(exact_vs_brute_force),
		cmocka_unit_test(milp_equals_exact),
		cmocka_unit_test(milp_time_limit),
		cmocka_unit_test(heuristics_never_below_exact),
		cmocka_unit_test(a5_greedy),
		cmocka_unit_test(a6_counterexample),
		cmocka_unit_test(invariances),
		cmocka_unit_test(columns),
		cmocka_unit_test(milp_at_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
