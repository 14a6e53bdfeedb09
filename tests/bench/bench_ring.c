/*
 * bench_ring.c -- `make bench`: the exact SliceRing solver (paper 004,
 * notes s9.1) on the 14-machine Lyon platform (target: under 2 s), over the
 * W/H of the paper's figures; also Strasbourg, the heuristics, and how the
 * exact solver grows with p (random asymmetric platforms, p = 16, 18, 20).
 * Prints the best and the median of several runs; exits 1 if Lyon misses 2 s.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

#include "planner/ring/ring.h"
#include "ring_platforms.h"

#define RUNS 5

typedef vproc_status (*solver)(const vproc_ring_platform *, vproc_ring *);

/* Best and median seconds of one solver call; -1 on failure. */
static double bench(const char *what, solver f, const vproc_ring_platform *pl, int runs)
{
	double s[RUNS], T = 0.0;
	for (int r = 0; r < runs; r++) {
		vproc_ring out;
		double t0 = bench_now();
		if (f(pl, &out) != VPROC_OK)
			return -1.0;
		s[r] = bench_now() - t0;
		T = out.T;
		vproc_ring_free(&out);
	}
	double median = bench_median(s, (size_t)runs);
	printf("%-44s best %8.4f s  median %8.4f s  (T = %.6f)\n", what, s[0], median, T);
	return s[0];
}

static uint64_t st = 12345;
static double urand(void)
{
	st ^= st << 13;
	st ^= st >> 7;
	st ^= st << 17;
	return (double)(st >> 11) / 9007199254740992.0;
}

int main(void)
{
	static double lc[LYON_P * LYON_P], sc[STRAS_P * STRAS_P];
	lyon_links(lc);
	stras_links(sc);
	char name[96];
	double worst = 0.0;
	const double ratios[4] = { 10, 50, 100, 300 };
	for (int k = 0; k < 4; k++) {
		vproc_ring_platform pl = { LYON_P, lyon_w, lc, ratios[k], 1.0 };
		snprintf(name, sizeof name, "exact, Lyon (p = 14), W/H = %g", ratios[k]);
		double t = bench(name, vproc_ring_exact, &pl, RUNS);
		if (t < 0)
			return 1;
		worst = t > worst ? t : worst;
	}
	vproc_ring_platform sp = { STRAS_P, stras_w, sc, 300.0, 1.0 };
	bench("exact, Strasbourg (p = 13), W/H = 300", vproc_ring_exact, &sp, RUNS);
	bench("heuristic, Strasbourg (p = 13), W/H = 300", vproc_ring_heuristic, &sp, RUNS);
	bench("tsp, Strasbourg (p = 13), W/H = 300", vproc_ring_tsp, &sp, RUNS);
	static double w[20], c[400];
	const size_t ps[3] = { 16, 18, 20 };
	for (int k = 0; k < 3; k++) {
		size_t p = ps[k];
		for (size_t i = 0; i < p; i++)
			w[i] = 1.0 + 9.0 * urand();
		for (size_t i = 0; i < p * p; i++)
			c[i] = 0.01 + urand();
		vproc_ring_platform pl = { p, w, c, 100.0, 1.0 };
		snprintf(name, sizeof name, "exact, random asymmetric, p = %zu", p);
		bench(name, vproc_ring_exact, &pl, p < 20 ? 3 : 1);
	}
	printf("exact on Lyon: worst best-of-%d %.4f s, target 2 s: %s\n", RUNS, worst,
	       worst < 2.0 ? "met" : "MISSED");
	return worst < 2.0 ? 0 : 1;
}
