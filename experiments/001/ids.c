/*
 * experiments/001/ids.c -- the deterministic ids of paper 001 (Beaumont,
 * Boudet, Rastello, Robert, *Matrix-Matrix Multiplication on Heterogeneous
 * Platforms*, LIP RR-2000-02): Table 1 cell by cell, the Fig 11 platform,
 * the s5.4 instance, Fig 7 (cost over the lower bound for p = 1..40) and
 * what hetlaunch adds (guillotine partitions, machine dropping, integer
 * plans).  The checked notes ../shared/specs/001-mmm-partition.md ("notes")
 * say where the paper is garbled; values the paper does not print are
 * compared with the notes' and labelled so.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "planner/mmm/mmm.h"
#include "paper_001.h"
#include "rng.h"

static double cost_of(size_t p, const double *s, int guillotine, size_t *ncols, size_t *count)
{
	vproc_mmm_partition part;
	must(guillotine ? vproc_mmm_guillotine(p, s, &part) : vproc_mmm_columns(p, s, &part),
	     "vproc_mmm partition");
	double c = part.cost;
	if (ncols)
		*ncols = part.ncols;
	if (count)
		memcpy(count, part.col_count, part.ncols * sizeof *count);
	vproc_mmm_partition_free(&part);
	return c;
}

/* ---- 001-table1 (s5.1) ------------------------------------------------------ */

static void id_001_table1(report *r)
{
	double f[64];
	size_t cut[64], good = 0;
	must(vproc_mmm_col_table(8, TOY, f, cut), "vproc_mmm_col_table");
	sb_printf(&r->md, "| C \\ q | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |\n|---|---|---|---|---|---|---|---|---|\n");
	for (size_t C = 1; C <= 8; C++) {
		sb_printf(&r->md, "| %zu |", C);
		for (size_t q = 1; q <= 8; q++) {
			if (q < C) {
				sb_printf(&r->md, " |");
				continue;
			}
			double x = f[(C - 1) * 8 + q - 1];
			size_t k = cut[(C - 1) * 8 + q - 1];
			int ok = matches_printed(x, T1_F[C - 1][q - 1], 2) && k == T1_CUT[C - 1][q - 1];
			good += ok;
			sb_printf(&r->md, " %.4g/%zu |", x, k);
			add(r, fmt("f_%zu(%zu) / cut", C, q),
			    fmt("\"%g/%zu\"", T1_F[C - 1][q - 1], T1_CUT[C - 1][q - 1]),
			    fmt("\"%.10g/%zu\"", x, k), ok);
		}
		sb_printf(&r->md, "\n");
	}
	size_t ncols, count[8];
	double c = cost_of(8, TOY, 0, &ncols, count);
	add_num(r, "result: C^ = min_C f_C(8)", 5.4, 2, c);
	add(r, "columns k (paper: C = 3, k = (4, 2, 2))", jsizes((size_t[]){ 4, 2, 2 }, 3, 0),
	    jsizes(count, ncols, 0), ncols == 3 && count[0] == 4 && count[1] == 2 && count[2] == 2);
	add_num(r, "lower bound 2 sum sqrt(s_i) (notes s2)", 5.316135, 6,
	        vproc_mmm_lower_bound(8, TOY));
	note(r, "All 36 cells of Table 1 (f_C(q)/cut), %zu of 36 match to the printed digit with "
	        "the printed cut. Ties: r scanned upward, a later r kept only when better by "
	        "1e-12 relative (notes s2.6): f_4(8) = 5.92 is reached by cut 7 and 6, the paper "
	        "prints 7. The DP uses the sum of the last r sorted areas (Table 1's caption), "
	        "not the garbled '1 + S x r' of the extracted pseudo-code.", good);
}

/* ---- 001-fig11 (s6.1) --------------------------------------------------------- */

static void id_001_fig11(report *r)
{
	double s[7], f[49];
	size_t cut[49], ncols, count[7];
	must(vproc_mmm_areas(7, FIG11_T, s), "vproc_mmm_areas");
	add(r, "areas s_i from cycle times (1,1,1/5,1/5,1/9,1/9,1/20)",
	    fmt("[0.02,0.02,0.1,0.1,0.18,0.18,0.4]"), jnums(s, 7, -1),
	    printed_all(s, (double[]){ 0.02, 0.02, 0.1, 0.1, 0.18, 0.18, 0.4 }, 7, 2));
	double c = cost_of(7, s, 0, &ncols, count);
	add_num(r, "C^ (Fig 11 prints 5.1)", 5.1, 1, c);
	add_num(r, "C^ exactly (notes s3)", 5.08, 2, c);
	add(r, "columns k (notes: (4, 2, 1))", jsizes((size_t[]){ 4, 2, 1 }, 3, 0),
	    jsizes(count, ncols, 0), ncols == 3 && count[0] == 4 && count[1] == 2 && count[2] == 1);
	vproc_mmm_partition part;
	must(vproc_mmm_columns(7, s, &part), "vproc_mmm_columns");
	double wd[3] = { part.rect[0].w, part.rect[4].w, part.rect[6].w };
	add(r, "column widths (notes: 0.24, 0.36, 0.4)", jnums((double[]){ 0.24, 0.36, 0.4 }, 3, 2),
	    jnums(wd, 3, -1), printed_all(wd, (double[]){ 0.24, 0.36, 0.4 }, 3, 2));
	add_num(r, "lower bound (notes)", 4.792564, 6, vproc_mmm_lower_bound(7, s));
	must(vproc_mmm_col_table(7, s, f, cut), "vproc_mmm_col_table");
	double fc[7];
	for (size_t C = 0; C < 7; C++)
		fc[C] = f[C * 7 + 6];
	static const double want[7] = { 8, 5.24, 5.08, 5.56, 6.24, 7.04, 8 };
	add(r, "f_C(7), C = 1..7 (notes)", jnums(want, 7, 2), jnums(fc, 7, -1),
	    printed_all(fc, want, 7, 2));
	vproc_mmm_plan plan;
	must(vproc_mmm_blocks(&part, FIG11_T, 20, &plan), "vproc_mmm_blocks");
	add_num(r, "integer plan n/nb = 20: largest load (notes s5.1: 80/9)", 8.889, 3, plan.max_load);
	add_num(r, "integer plan n/nb = 20: bytes received, nb = 32 (notes s6.10)", 9830400, 0,
	        vproc_mmm_bytes(&plan, 32));
	vproc_mmm_plan_free(&plan);
	vproc_mmm_partition_free(&part);
	note(r, "The fraction reading of the cycle times is right (t = (1,1,5,5,9,9,20) would "
	        "give 4.7547). 5.08 prints as 5.1. The other reading of the areas is in the notes.");
}

/* ---- 001-s54 (s5.4, Figs 8-10) -------------------------------------------------- */

static void id_001_s54(report *r)
{
	size_t ncols, count[6];
	double c = cost_of(6, S54, 0, &ncols, count);
	add_num(r, "Fig 8: column optimum", 5, 0, c);
	add(r, "columns (ties C = 2 and C = 3: the smaller)", fmt("null"), jsizes(count, ncols, 0), -1);
	add_num(r, "Fig 9: the best recursive partition", 4.51, 2, cost_of(6, S54, 1, NULL, NULL));
	add_num(r, "lower bound 2 sum sqrt(s_i) (the paper's 'LB = 4.19')", 4.19, 2,
	        vproc_mmm_lower_bound(6, S54));
	double t[6] = { 1, 1, 1, 1, 100, 100 }, s[6];
	must(vproc_mmm_areas(6, t, s), "vproc_mmm_areas");
	add_num(r, "from t = (1,1,1,1,100,100): lower bound (notes)", 4.189539, 6,
	        vproc_mmm_lower_bound(6, s));
	add_num(r, "from t: recursive (notes)", 4.512389, 6, cost_of(6, s, 1, NULL, NULL));
	add(r, "Fig 10: optimal over all rectangle partitions = 4.19", fmt("4.19"),
	    fmt("\"not reachable: the best pinwheel costs 4 + 3 sqrt(0.0048) = %.4f\"",
	        4 + 3 * sqrt(0.0048)), -1);
	note(r, "Literal areas 4 x 0.2488 + 2 x 0.0024 (the extraction prints one value short; "
	        "they sum to 1). The paper's 4.19 for Fig 10 equals the lower bound, which no "
	        "partition reaches here: in a pinwheel the four outer half-perimeters sum to 4 "
	        "(notes s3), so 4.19 is not tested as a cost. '16%%' is (5 - 4.19)/5.");
}

/* ---- 001-fig7 (s5.3) ------------------------------------------------------------ */

static uint64_t rng;
static double urand(void)
{
	return hl_rng_unit(&rng);
}

/* Mean and minimum of C^/LB over n instances of p machines; speeds U[1,10]
 * (logu = 0) or log-uniform on [1, 100] (logu = 1). */
static void ratio_stats(size_t p, size_t n, int logu, double *mean, double *min)
{
	double t[40], s[40], sum = 0, lo = INFINITY;
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < p; i++)
			t[i] = 1.0 / (logu ? pow(100.0, urand()) : 1.0 + 9.0 * urand());
		must(vproc_mmm_areas(p, t, s), "vproc_mmm_areas");
		double x = cost_of(p, s, 0, NULL, NULL) / vproc_mmm_lower_bound(p, s);
		sum += x;
		lo = fmin(lo, x);
	}
	*mean = sum / (double)n;
	*min = lo;
}

static void id_001_fig7(report *r)
{
	size_t n = r->quick ? 200 : 4000;
	double m[2][41], lo[2][41];
	rng = 7;
	sb_printf(&r->dat, "# p mean(U[1,10]) min(U[1,10]) mean(logU[1,100]) min(logU[1,100]) "
	                   "(001 Fig 7, %zu instances per p)\n", n);
	for (size_t p = 1; p <= 40; p++) {
		for (int d = 0; d < 2; d++)
			ratio_stats(p, n, d, &m[d][p], &lo[d][p]);
		sb_printf(&r->dat, "%zu %.6f %.6f %.6f %.6f\n", p, m[0][p], lo[0][p], m[1][p], lo[1][p]);
	}
	add_num(r, "p = 1: mean ratio (exactly 1)", 1, 6, m[0][1]);
	add_num(r, "p = 2: minimum >= 3/(2 sqrt 2) = 1.06066 (every p = 2 costs 3)", 1.06,
	        2, fmin(lo[0][2], lo[1][2]));
	add_num(r, "U[1,10], p = 2: mean (notes)", 1.08, 2, m[0][2]);
	add_num(r, "U[1,10], p = 40: mean (notes)", 1.00, 2, m[0][40]);
	add_num(r, "log-uniform [1,100], p = 2: mean (notes)", 1.14, 2, m[1][2]);
	add_num(r, "log-uniform [1,100], p = 40: mean (notes)", 1.02, 2, m[1][40]);
	sb_printf(&r->md, "![001 Fig 7](001-fig7.png)\n");
	note(r, "Fig 7's curve is lost and the paper does not state its distribution (it draws "
	        "2,000,000 instances per p). We draw %zu per p with a fixed seed, speeds uniform on "
	        "[1, 10] and log-uniform on [1, 100] (the notes' values: 1.0814 / 1.0042 and "
	        "1.1424 / 1.0152 for p = 2 / 40, compared at 2 decimals since ours is a sample). "
	        "The ratio falls towards 1 as p grows, as in Fig 7.", n);
}

/* ---- 001-beyond --------------------------------------------------------------- */

/* Largest remainder of x[0..k) * total, summing to total, each at least 1. */
static void largest_remainder(size_t k, const double *x, size_t total, size_t *out)
{
	size_t sum = 0;
	double rem[8];
	for (size_t i = 0; i < k; i++) {
		out[i] = (size_t)floor(x[i] * (double)total);
		out[i] = out[i] ? out[i] : 1;
		rem[i] = x[i] * (double)total - floor(x[i] * (double)total);
		sum += out[i];
	}
	while (sum < total) {
		size_t b = 0;
		for (size_t i = 1; i < k; i++)
			if (rem[i] > rem[b])
				b = i;
		out[b]++;
		rem[b] = -1;
		sum++;
	}
}

/* Fig 11 at nb blocks: naive rounding of widths and heights (notes s5.1). */
static double naive_fig11(size_t nb)
{
	static const double wcol[3] = { 0.24, 0.36, 0.4 };
	static const double h1[4] = { 1.0 / 12, 1.0 / 12, 5.0 / 12, 5.0 / 12 }, h2[2] = { .5, .5 };
	static const double sp[7] = { 1, 1, 5, 5, 9, 9, 20 };
	size_t W[3], H1[4], H2[2];
	largest_remainder(3, wcol, nb, W);
	largest_remainder(4, h1, nb, H1);
	largest_remainder(2, h2, nb, H2);
	double load = 0;
	for (size_t i = 0; i < 4; i++)
		load = fmax(load, (double)(W[0] * H1[i]) / sp[i]);
	for (size_t i = 0; i < 2; i++)
		load = fmax(load, (double)(W[1] * H2[i]) / sp[4 + i]);
	return fmax(load, (double)(W[2] * nb) / sp[6]);
}

static void id_001_beyond(report *r)
{
	double s[7];
	must(vproc_mmm_areas(7, FIG11_T, s), "vproc_mmm_areas");
	add_num(r, "Fig 11: guillotine exact (notes s5.3) vs columns 5.08", 4.833333, 6,
	        cost_of(7, s, 1, NULL, NULL));
	add_num(r, "toy (Table 1): guillotine exact vs columns 5.4", 5.385520, 6,
	        cost_of(8, TOY, 1, NULL, NULL));
	add_num(r, "s5.4: guillotine exact vs columns 5", 4.511954, 6, cost_of(6, S54, 1, NULL, NULL));
	double t5[5] = { 1.0 / 5, 1.0 / 5, 1.0 / 9, 1.0 / 9, 1.0 / 20 }, s5[5];
	must(vproc_mmm_areas(5, t5, s5), "vproc_mmm_areas");
	add_num(r, "Fig 11 without the two speed-1 machines: C^ (notes s5.2)", 4.3958, 4,
	        cost_of(5, s5, 0, NULL, NULL));
	add_num(r, "Fig 11, n/nb = 20: largest load, largest-remainder rounding (notes)", 10, 0,
	        naive_fig11(20));
	add_num(r, "Fig 11, n/nb = 40: largest load, largest-remainder rounding (notes)", 34, 0,
	        naive_fig11(40));
	vproc_mmm_partition part;
	vproc_mmm_plan plan;
	must(vproc_mmm_columns(7, s, &part), "vproc_mmm_columns");
	must(vproc_mmm_blocks(&part, FIG11_T, 40, &plan), "vproc_mmm_blocks");
	add_num(r, "Fig 11, n/nb = 40: largest load, hetlaunch's plan (notes: 100/3)", 33.333, 3,
	        plan.max_load);
	vproc_mmm_plan_free(&plan);
	vproc_mmm_partition_free(&part);
	/* choice of machines on Fig 11 at n/nb = 40 as comm_cost grows */
	const double betas[4] = { 0.05, 0.5, 2, 8 };
	for (int k = 0; k < 4; k++) {
		vproc_mmm_choice all, drop;
		must(vproc_mmm_select(7, FIG11_T, VPROC_MMM_COLUMNS, 40, betas[k], 0, &all), "select");
		must(vproc_mmm_select(7, FIG11_T, VPROC_MMM_COLUMNS, 40, betas[k], 1, &drop), "select");
		add_ours(r, fmt("Fig 11, n/nb = 40, comm_cost %g: predicted time all 7 / best k", betas[k]),
		         fmt("\"%.6g / %.6g (k = %zu)\"", all.predicted, drop.predicted, drop.used));
		vproc_mmm_choice_free(&all);
		vproc_mmm_choice_free(&drop);
	}
	/* no constant below 2 for the column DP (notes s5.4) */
	size_t m = 100, p = m + 2;
	double *w = malloc(p * sizeof *w), a = 0.01, eps = 1e-9;
	if (!w)
		die("out of memory", "");
	w[0] = 1 - a - (double)m * eps;
	w[1] = a;
	for (size_t i = 2; i < p; i++)
		w[i] = eps;
	double cc = cost_of(p, w, 0, NULL, NULL), lb = vproc_mmm_lower_bound(p, w);
	add_num(r, "s = (1-a-m eps, a, eps x 100), a = 0.01, eps = 1e-9: columns C^ (notes s5.4)", 4.0, 1, cc);
	add_num(r, "the same: lower bound (notes)", 2.1963, 4, lb);
	add_ours(r, "the same: guillotine (bisection, p = 102)", jnum(cost_of(p, w, 1, NULL, NULL)));
	free(w);
	/* random instances: columns against guillotine */
	rng = 11;
	size_t n = r->quick ? 100 : 500, better = 0;
	double gain = 0;
	for (size_t k = 0; k < n; k++) {
		size_t pp = 2 + (size_t)(urand() * 7);   /* 2..8: the exact search, fast */
		double t[10], ss[10];
		for (size_t i = 0; i < pp; i++)
			t[i] = 1.0 / pow(100.0, urand());
		must(vproc_mmm_areas(pp, t, ss), "vproc_mmm_areas");
		double c = cost_of(pp, ss, 0, NULL, NULL), g = cost_of(pp, ss, 1, NULL, NULL);
		better += g < c - 1e-12;
		gain += (c - g) / c;
	}
	add_ours(r, fmt("%zu random instances, p = 2..8, log-uniform speeds: guillotine strictly "
	                "better / mean gain", n), fmt("\"%zu / %.4f%%\"", better, 100 * gain / (double)n));
	note(r, "Beyond the paper (notes s5): the exact guillotine search (convex hulls of "
	        "(alpha, beta) per subset, p <= 10), dropping the slowest machines when the "
	        "predicted time n/nb (max t H W + comm_cost (sum (H + W) - 2 n/nb)) falls, and "
	        "integer plans by 000 Alg 3.1 per column and across columns (exact min-max for "
	        "the column composition) against largest-remainder rounding.");
}

static const struct idspec IDS[] = {
	{ "001-table1", "001 Table 1: the column DP on the toy instance, all 36 cells", 0,
	  id_001_table1 },
	{ "001-fig11", "001 Fig 11: the seven-workstation platform, C^ = 5.08 (printed 5.1)", 0,
	  id_001_fig11 },
	{ "001-s54", "001 s5.4: columns 5, recursive 4.51, lower bound 4.19", 0, id_001_s54 },
	{ "001-fig7", "001 Fig 7: cost over the lower bound, p = 1..40, random instances", 0,
	  id_001_fig7 },
	{ "001-beyond", "001 beyond: guillotine partitions, machine dropping, integer plans", 0,
	  id_001_beyond },
};

const ex_paper EX_PAPER_001 = { "001", IDS, sizeof IDS / sizeof IDS[0], NULL };
