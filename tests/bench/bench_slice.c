/*
 * bench_slice.c -- `make bench`: time to plan a slice of B = 10^6 virtual
 * processes over p = 1000 machines (target: under 0.5 s on a 2-core
 * machine), and the other 1D planner paths at the same scale.  Prints the
 * best and the median of several runs; a missed target is reported beside
 * the load (a shared machine's timing), and only a failed plan exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

#include "planner/planner.h"

#define RUNS 7

static void report(const char *what, double *s)
{
	double median = bench_median(s, RUNS);
	printf("%-48s best %8.4f s   median %8.4f s\n", what, s[0], median);
}

int main(void)
{
	const size_t p = 1000, B = 1000000;
	double *t = malloc(p * sizeof *t);
	size_t *c = malloc(p * sizeof *c);
	if (!t || !c)
		return 1;
	srand(1);
	for (size_t i = 0; i < p; i++)   /* speeds spread over 1..10, as in a mixed NOW */
		t[i] = 1.0 + 9.0 * (double)rand() / RAND_MAX;

	double slice[RUNS], chunks[RUNS], lu[RUNS], choose[RUNS];
	for (int r = 0; r < RUNS; r++) {
		vproc_slice s;
		double t0 = bench_now();
		if (vproc_slice_build(p, t, B, VPROC_SLICE_PLAIN, &s) != VPROC_OK)
			return 1;
		slice[r] = bench_now() - t0;

		double x;
		t0 = bench_now();
		if (vproc_lu_predict(p, t, B, s.pattern, B, &x) != VPROC_OK)
			return 1;
		lu[r] = bench_now() - t0;
		vproc_slice_free(&s);

		t0 = bench_now();
		if (vproc_chunks_optimal(p, t, 1000000000, c) != VPROC_OK)
			return 1;
		chunks[r] = bench_now() - t0;

		size_t b;
		t0 = bench_now();
		if (vproc_choose_B(p, t, B, 0.10, VPROC_SLICE_PLAIN, &b) != VPROC_OK)
			return 1;
		choose[r] = bench_now() - t0;
	}
	printf("1D planner, p = %zu machines, cycle times uniform in [1, 10], %d runs\n", p, RUNS);
	report("slice B = 10^6 (000 s3.3-3.4, heap)", slice);
	report("step-by-step LU prediction, M = 10^6 blocks", lu);
	report("Alg 3.1, M = 10^9 chunks", chunks);
	report("choose B, cap 10^6", choose);
	printf("target: slice under 0.5 s: %s (load %s)\n",
	       slice[RUNS / 2] < 0.5 ? "met" : "MISSED", bench_load());
	free(t);
	free(c);
	return 0;
}
