/*
 * test_mm_time.c -- the predicted seconds of ScaLAPACK's matrix product
 * with the network (vproc/planner/dense/mm_time.c), on cases played out
 * by hand.  n = 64, b = 32 (two steps) throughout, speeds 1 Mflop/s, so one
 * update of r rows x c columns costs 2 r c 32 us.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "planner/dense/mm_time.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* One process: 2 n^3 flops at 1 Mflop/s, nothing on the network. */
static void one_process(void **state)
{
	(void)state;
	size_t mach[1] = { 0 };
	double mf[1] = { 1.0 };
	vproc_lu_platform pl = { 64, 32, 1, 1, mach, 1, mf, NULL, NULL, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_mm_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 2.0 * 64 * 64 * 64 * 1e-6);
	NEAR(s.compute, s.total);
	NEAR(s.network, 0.0);
}

/* 1 x 2 on two machines of a switch, latency L = 1 ms, 1e6 bytes/s: the A
 * block (64 x 32 doubles, w = 16384 us on the wire) goes from process 0 at
 * step 0 and from process 1 at step 1; an update is u = 2*64*32*32 us.
 * Step 0: p0 sends [0, w], p1 has it at w + L; both update: p0 w + u,
 * p1 w + L + u.  Step 1: p1 sends from w + L + u, p0 has it at
 * 2w + 2L + u and ends at 2w + 2L + 2u, the last clock. */
static void ring_on_a_switch(void **state)
{
	(void)state;
	size_t mach[2] = { 0, 1 };
	double mf[2] = { 1.0, 1.0 }, lat[2] = { 1e-3, 1e-3 }, bw[2] = { 1e6, 1e6 };
	vproc_lu_platform pl = { 64, 32, 1, 2, mach, 2, mf, lat, bw, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_mm_time(&pl, &s), VPROC_OK);
	double w = 8.0 * 64 * 32 / 1e6, u = 2.0 * 64 * 32 * 32 * 1e-6;
	NEAR(s.total, 2 * w + 2 * 1e-3 + 2 * u);
	NEAR(s.compute, 2 * u);
}

/* The same two processes on one machine: the messages are free and the
 * four updates take turns on its processor: 4 u. */
static void siblings_share_the_processor(void **state)
{
	(void)state;
	size_t mach[2] = { 0, 0 };
	double mf[1] = { 1.0 };
	vproc_lu_platform pl = { 64, 32, 1, 2, mach, 1, mf, NULL, NULL, 1, 1e-3, 1e6, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_mm_time(&pl, &s), VPROC_OK);
	double u = 2.0 * 64 * 32 * 32 * 1e-6;
	NEAR(s.total, 4 * u);
	NEAR(s.compute, 4 * u);
}

/* 2 x 2 on four machines of a bus (L = 1 ms, 1e6 bytes/s): every process
 * owns one 32 x 32 block of A, B and C, a message is w = 8192 us on the
 * bus, an update u = 2*32^3 us.  In order of the bookings:
 * step 0, A: (0,0) [0, w], (1,0) [w, 2w]; B: (0,0) [2w, 3w], (0,1) (clock
 * w + L) [3w, 4w]; clocks after the updates: (0,0) 3w + u, (0,1) 4w + u,
 * (1,0) 3w + L + u, (1,1) 4w + L + u.
 * step 1, A from column 1: (0,1) [4w + u, 5w + u], (1,1) [5w + u, 6w + u];
 * B from row 1: (1,0) (clock 6w + L + u) [6w + L + u, 7w + L + u], (1,1)
 * (clock 6w + u: the gap of L before is shorter than w) [7w + L + u,
 * 8w + L + u], so (0,1) has it at 8w + 2L + u and ends at 8w + 2L + 2u. */
static void contention_on_a_bus(void **state)
{
	(void)state;
	size_t mach[4] = { 0, 1, 2, 3 };
	double mf[4] = { 1.0, 1.0, 1.0, 1.0 };
	vproc_lu_platform pl = { 64, 32, 2, 2, mach, 4, mf, NULL, NULL, 1, 1e-3, 1e6, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_mm_time(&pl, &s), VPROC_OK);
	double w = 8.0 * 32 * 32 / 1e6, u = 2.0 * 32 * 32 * 32 * 1e-6;
	NEAR(s.total, 8 * w + 2 * 1e-3 + 2 * u);
	NEAR(s.compute, 2 * u);
	NEAR(s.network, 8 * w + 2 * 1e-3);
}

/* Large n on one process per machine of a 3 x 3 switch with fast links:
 * the busiest machine's 2 n^3 / 9 flops, and the network adds little. */
static void compute_bound_grid(void **state)
{
	(void)state;
	size_t mach[9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	double mf[9] = { 100, 100, 100, 100, 50, 100, 100, 100, 100 };
	double lat[9], bw[9];
	for (int i = 0; i < 9; i++) {
		lat[i] = 1e-6;
		bw[i] = 1e12;
	}
	vproc_lu_platform pl = { 960, 32, 3, 3, mach, 9, mf, lat, bw, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_mm_time(&pl, &s), VPROC_OK);
	NEAR(s.compute, 2.0 * 320 * 320 * 960 / 50e6);
	assert_true(s.total >= s.compute && s.total < s.compute * 1.01);
}

static void refuses_bad_platforms(void **state)
{
	(void)state;
	size_t mach[1] = { 0 };
	double mf[1] = { 0.0 };
	vproc_lu_platform pl = { 64, 32, 1, 1, mach, 1, mf, NULL, NULL, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_mm_time(&pl, &s), VPROC_EINVAL);
	mf[0] = 1.0;
	assert_int_equal(vproc_mm_time(&pl, NULL), VPROC_EINVAL);
	pl.n = 0;
	assert_int_equal(vproc_mm_time(&pl, &s), VPROC_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_process),
		cmocka_unit_test(ring_on_a_switch),
		cmocka_unit_test(siblings_share_the_processor),
		cmocka_unit_test(contention_on_a_bus),
		cmocka_unit_test(compute_bound_grid),
		cmocka_unit_test(refuses_bad_platforms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
