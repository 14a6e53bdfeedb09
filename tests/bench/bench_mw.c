/*
 * bench_mw.c -- `make bench`: the block-model simulator of paper 003 on the
 * paper's largest configuration (Fig 7b: r = t = 200, s = 1600 blocks,
 * m = 10485 buffers, 8 workers, c = 4.096 ms, w = 0.07 c; notes s4), every
 * scheduler; target: under 2 s each.  The same target for the same sizes
 * with m = 45 (mu = 5: 12800 tiles, 2.6 million transfers, the stress
 * case).  Best of RUNS runs; exits 1 if a scheduler misses the target.
 */
#include <stdio.h>
#include <time.h>

#include "bench.h"

#include "planner/mw/mw.h"

#define RUNS 3
#define TARGET 2.0

static double best_of(const vproc_mw_problem *pb, vproc_mw_sched s, vproc_mw_result *o)
{
	double best = 1e30;
	for (int r = 0; r < RUNS; r++) {
		double t0 = bench_now();
		if (vproc_mw_simulate(pb, s, o, NULL) != VPROC_OK)
			return 1e30;
		double dt = bench_now() - t0;
		best = dt < best ? dt : best;
	}
	return best;
}

int main(void)
{
	const double c = 4.096e-3;
	vproc_mw_problem pb = { .r = 200, .t = 200, .s = 1600, .p = 8, .c = c, .w = 0.07 * c,
	                        .m = 10485 };
	int fail = 0;
	printf("bench_mw: r = t = 200, s = 1600 blocks, p = 8 (paper 003 Fig 7b), target %.1f s\n",
	       TARGET);
	for (int s = 0; s < VPROC_MW_NSCHED; s++) {
		vproc_mw_result o;
		double dt = best_of(&pb, (vproc_mw_sched)s, &o);
		int ok = dt < TARGET;
		fail |= !ok;
		printf("  m = 10485 %-7s %8.4f s  (makespan %.1f s, %zu blocks moved)  %s\n",
		       vproc_mw_sched_name((vproc_mw_sched)s), dt, o.makespan, o.blocks_moved,
		       ok ? "ok" : "MISSED");
	}
	pb.m = 45;
	for (int s = 0; s < VPROC_MW_NSCHED; s++) {
		vproc_mw_result o;
		double dt = best_of(&pb, (vproc_mw_sched)s, &o);
		int ok = dt < TARGET;
		fail |= !ok;
		printf("  m = 45    %-7s %8.4f s  (makespan %.1f s, mu %zu)  %s\n",
		       vproc_mw_sched_name((vproc_mw_sched)s), dt, o.makespan, o.mu, ok ? "ok" : "MISSED");
	}
	return fail;
}
