/*
 * bench_mmm.c -- `make bench`: the rectangle partitions of paper 001.
 * Targets: the column DP (001 s5.1, O(p^3)) for p = 1000 under 1 s, and the
 * exact guillotine search for p = 10 (3^10 splits over convex hulls) under
 * 5 s.  Prints the best and the median of several runs; exits 1 on a miss.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

#include "planner/mmm/mmm.h"

#define RUNS 5

static double report(const char *what, double *s)
{
	double median = bench_median(s, RUNS);
	printf("%-52s best %8.4f s   median %8.4f s\n", what, s[0], median);
	return median;
}

/* speeds uniform in [1, 10] */
static int areas(size_t p, double *s)
{
	double *t = malloc(p * sizeof *t);
	if (!t)
		return -1;
	for (size_t i = 0; i < p; i++)
		t[i] = 1.0 / (1.0 + 9.0 * (double)rand() / RAND_MAX);
	int rc = vproc_mmm_areas(p, t, s) == VPROC_OK ? 0 : -1;
	free(t);
	return rc;
}

int main(void)
{
	srand(1);
	double s1000[1000], s10[10], col[RUNS], gui[RUNS], c1000 = 0, g10 = 0;
	if (areas(1000, s1000) < 0 || areas(10, s10) < 0)
		return 1;
	for (int r = 0; r < RUNS; r++) {
		vproc_mmm_partition part;
		double t0 = bench_now();
		if (vproc_mmm_columns(1000, s1000, &part) != VPROC_OK)
			return 1;
		col[r] = bench_now() - t0;
		c1000 = part.cost / vproc_mmm_lower_bound(1000, s1000);
		vproc_mmm_partition_free(&part);
		t0 = bench_now();
		if (vproc_mmm_guillotine(10, s10, &part) != VPROC_OK)
			return 1;
		gui[r] = bench_now() - t0;
		g10 = part.cost / vproc_mmm_lower_bound(10, s10);
		vproc_mmm_partition_free(&part);
	}
	printf("rectangle partitions (001), speeds uniform in [1, 10], %d runs\n", RUNS);
	double a = report("column DP, p = 1000 (s5.1, C <= best cost)", col);
	double b = report("exact guillotine, p = 10 (3^10 splits)", gui);
	printf("cost / lower bound: columns p = 1000 %.6f, guillotine p = 10 %.6f\n", c1000, g10);
	int ok = a < 1.0 && b < 5.0;
	printf("targets: column DP p = 1000 under 1 s: %s; guillotine p = 10 under 5 s: %s\n",
	       a < 1.0 ? "met" : "MISSED", b < 5.0 ? "met" : "MISSED");
	return ok ? 0 : 1;
}
