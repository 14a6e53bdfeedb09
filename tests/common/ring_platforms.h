/*
 * ring_platforms.h -- the two platforms of paper 004 s6.3 (Tables 1-4), as
 * the checked notes (../shared/specs/004-slicering.md s6) rebuild them from
 * the extracted cells: Lyon (14 machines) and Strasbourg (13).  Cycle
 * times in s/Mflop, link costs in s per 1-Mbit message, row-major p x p.
 * Used by the tests, the bench and the experiments.
 */
#ifndef TESTS_RING_PLATFORMS_H
#define TESTS_RING_PLATFORMS_H

#include <stddef.h>

#define LYON_P 14
#define STRAS_P 13

/* Table 1. */
static const double lyon_w[LYON_P] = {
	.0291, .00874, .0206, .0451, .0206, .0291, .0206,
	.0206, .0206, .0206, .0206, .0206, .0206, .0206,
};

/* Table 2: classes A = {P0,P1,P5}, B = {P2,P3,P6,P7}, C = {P4,P8..P13}. */
static inline void lyon_links(double *c)
{
	static const int cls[LYON_P] = { 0, 0, 1, 1, 2, 0, 1, 1, 2, 2, 2, 2, 2, 2 };
	static const double t[3][3] = {
		{ .198, 1.702, .262 }, { 1.702, .248, .248 }, { .262, .248, .248 },
	};
	for (size_t i = 0; i < LYON_P; i++)
		for (size_t j = 0; j < LYON_P; j++)
			c[i * LYON_P + j] = i == j ? 0.0 : t[cls[i]][cls[j]];
}

/* Table 3. */
static const double stras_w[STRAS_P] = {
	.00874, .00874, .0102, .00728, .00728, .0262, .00583,
	.016, .00728, .00874, .0131, .00583, .0131,
};

/* Table 4, by the rules of notes s6: far machines (P5 P6 P7 P8 P12) cost
 * max(a_i, a_j) to anyone (a = 0 for near ones); P1-P9 .017; P1 and P9
 * .048 to every other near machine; the near block otherwise. */
static inline void stras_links(double *c)
{
	static const double a[STRAS_P] = { 0, 0, 0, 0, 0, .147, .151, .154, .147, 0, 0, 0, .151 };
	static const int near[6] = { 0, 2, 3, 4, 10, 11 };
	static const double blk[6][6] = {
		{ 0, .019, .017, .019, .017, .016 },
		{ .019, 0, .019, .019, .019, .019 },
		{ .017, .019, 0, .019, .017, .018 },
		{ .019, .019, .019, 0, .019, .019 },
		{ .017, .019, .017, .019, 0, .018 },
		{ .016, .019, .018, .019, .018, 0 },
	};
	for (size_t i = 0; i < STRAS_P; i++)
		for (size_t j = 0; j < STRAS_P; j++) {
			double x;
			if (i == j)
				x = 0.0;
			else if (a[i] > 0 || a[j] > 0)
				x = a[i] > a[j] ? a[i] : a[j];
			else if ((i == 1 && j == 9) || (i == 9 && j == 1))
				x = .017;
			else if (i == 1 || i == 9 || j == 1 || j == 9)
				x = .048;
			else {
				size_t bi = 0, bj = 0;
				for (size_t k = 0; k < 6; k++) {
					if ((size_t)near[k] == i)
						bi = k;
					if ((size_t)near[k] == j)
						bj = k;
				}
				x = blk[bi][bj];
			}
			c[i * STRAS_P + j] = x;
		}
}

#endif
