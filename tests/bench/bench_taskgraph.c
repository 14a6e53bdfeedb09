/*
 * bench_taskgraph.c -- `make bench`: time to build and simulate the three
 * schedules of paper 002 s4 (vproc_tg_three) on the LU task graph of
 * 002-fig12's largest size, n = 2000 columns (2 001 000 tasks), t = 3, 5, 8,
 * and of `hetlaunch simulate` on 64 machines, M = 625 column blocks (n =
 * 20000, nb = 32).  Target: under 2 s of CPU each (so 002-fig12's eleven
 * sizes stay well under a minute); exits 1 if missed.  CPU time, not wall:
 * the machine is shared, and the simulator is one thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "planner/dense/taskgraph.h"

#define RUNS 3
#define TARGET 2.0

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double best_of(const vproc_tg *g, size_t p, const double *t, size_t B)
{
	double best = 1e30;
	for (int r = 0; r < RUNS; r++) {
		vproc_tg_times tm[VPROC_TG_NSCHED];
		double t0 = now();
		if (vproc_tg_three(g, p, t, B, NULL, tm) != VPROC_OK)
			return -1;
		double s = now() - t0;
		best = s < best ? s : best;
	}
	return best;
}

int main(void)
{
	const double t3[3] = { 3, 5, 8 };
	vproc_tg fig12 = { VPROC_TG_LU, 2000, 1, 1.0 };
	double a = best_of(&fig12, 3, t3, 10);
	double t64[64];
	srand(1);
	for (size_t i = 0; i < 64; i++)
		t64[i] = 1.0 + 9.0 * (double)rand() / RAND_MAX;
	vproc_tg big = { VPROC_TG_LU, 625, 32, 1.0 };
	double b = best_of(&big, 64, t64, 64);
	printf("%-56s best %8.4f s CPU\n", "vproc_tg_three, n = 2000, p = 3 (002-fig12)", a);
	printf("%-56s best %8.4f s CPU\n", "vproc_tg_three, M = 625, p = 64, B = 64", b);
	return a < 0 || b < 0 || a > TARGET || b > TARGET;
}
