/*
 * paper_001.h -- the data paper 001 prints (Beaumont, Boudet, Rastello,
 * Robert, *Matrix-Matrix Multiplication on Heterogeneous Platforms*; notes
 * ../shared/specs/001-mmm-partition.md), typed once for the unit tests
 * (test_mmm.c) and the experiments (experiments/001/ids.c).
 */
#ifndef TESTS_PAPER_001_H
#define TESTS_PAPER_001_H

#include <stddef.h>

/* Table 1's areas (s5.1). */
static const double TOY[8] = { 0.02, 0.04, 0.06, 0.08, 0.2, 0.2, 0.2, 0.2 };
/* Fig 11: relative cycle times (1, 1, 1/5, 1/5, 1/9, 1/9, 1/20) (notes s3). */
static const double FIG11_T[7] = { 1, 1, 1.0 / 5, 1.0 / 5, 1.0 / 9, 1.0 / 9, 1.0 / 20 };
/* s5.4, the literal areas 4 x 0.2488 + 2 x 0.0024 (notes s3). */
static const double S54[6] = { 0.2488, 0.2488, 0.2488, 0.2488, 0.0024, 0.0024 };

/* Table 1, f_C(q) / cut, as printed (rows C = 1..8, columns q = 1..8;
 * 0: empty). */
static const double T1_F[8][8] = {
	{ 1.02, 1.12, 1.36, 1.8, 3, 4.6, 6.6, 9 },
	{ 0, 2.06, 2.18, 2.4, 2.92, 3.6, 4.6, 5.8 },
	{ 0, 0, 3.12, 3.26, 3.6, 4.12, 4.72, 5.4 },
	{ 0, 0, 0, 4.2, 4.46, 4.8, 5.32, 5.92 },
	{ 0, 0, 0, 0, 5.4, 5.66, 6, 6.52 },
	{ 0, 0, 0, 0, 0, 6.6, 6.86, 7.2 },
	{ 0, 0, 0, 0, 0, 0, 7.8, 8.06 },
	{ 0, 0, 0, 0, 0, 0, 0, 9 },
};
static const size_t T1_CUT[8][8] = {
	{ 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 2, 2, 3, 4, 4, 5 },
	{ 0, 0, 2, 3, 4, 5, 5, 6 },
	{ 0, 0, 0, 3, 4, 5, 6, 7 },   /* f_4(8): cut 6 ties; the paper prints 7 */
	{ 0, 0, 0, 0, 4, 5, 6, 7 },
	{ 0, 0, 0, 0, 0, 5, 6, 7 },
	{ 0, 0, 0, 0, 0, 0, 6, 7 },
	{ 0, 0, 0, 0, 0, 0, 0, 7 },
};

#endif
