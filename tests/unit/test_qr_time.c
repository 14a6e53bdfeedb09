/*
 * test_qr_time.c -- the predicted seconds of ScaLAPACK's QR with the
 * network (vproc/planner/dense/qr_time.c), on cases played out by hand.
 * Speeds 1 Mflop/s: one flop is one microsecond.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "planner/dense/qr_time.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* n = 2, b = 1, one process.  Step 0: the panel's one column has nothing
 * to its right; T of one column needs no DGEMV; W = C^T V: 2 x 2 x 1 x 1
 * = 4; W T: 1; C -= V W^T: 4.  Step 1: the last column, no update
 * (PDGEQRF forms no T for it): 9 flops.  Large n: 4/3 n^3 and the
 * O(n^2 b) of T and W T (7.7% more at n = 600, b = 32). */
static void one_process(void **state)
{
	(void)state;
	size_t mach[1] = { 0 };
	double mf[1] = { 1.0 };
	vproc_lu_platform pl = { 2, 1, 1, 1, mach, 1, mf, NULL, NULL, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_qr_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 9e-6);
	NEAR(s.compute, 9e-6);
	pl.n = 600;
	pl.b = 32;
	assert_int_equal(vproc_qr_time(&pl, &s), VPROC_OK);
	double f = 4.0 / 3.0 * 600.0 * 600.0 * 600.0;
	assert_true(s.compute * 1e6 > f && s.compute * 1e6 < 1.1 * f);
}

/* n = 4, b = 2, a 2 x 1 grid on two machines of a switch, latency L = 1 ms,
 * infinite bandwidth: p0 owns rows 0-1, p1 rows 2-3.  hl-driver's barrier
 * lets p1 go at L, PCHK1MAT's GLOBCHK (p0 2L, p1 3L).
 * Step 0 (pk = 0).  Column 0: PDLARFG's alpha p0 -> p1 (3L), PDNRM2's
 * 1-tree p1 -> p0 (4L) and row 0's broadcast (5L); PDLARF's DGEMV, 2 x 2
 * rows x 1 = 4 each (p0 4L + 4, p1 5L + 4), w summed to row 0 (6L + 4)
 * and back (7L + 4), DGER 4 each (p0 6L + 8, p1 7L + 8).  Column 1, the
 * last, no PDLARF: alpha, the tree to p0 (8L + 8), its broadcast (9L +
 * 8).  PDLARFT: 2 rows x 2 x 1 = 4 each, summed p1 -> p0 (10L + 12), a
 * DTRMV of order 1 (10L + 13).  PDLARFB on columns 2-3: W 2 x 2 x 2 x 2
 * = 16 each (p0 10L + 29, p1 9L + 28), summed to p0 (10L + 29), W T 2 x
 * 2 x 2 = 8 (10L + 37), back to p1 (11L + 37), C 16 each (p0 10L + 53,
 * p1 11L + 53).  Step 1 (pk = 1), the last block row, whose rows p1
 * holds, so PDLARF sums w to p1 alone.  Column 2: alpha and the tree to
 * p0 (12L + 53), its broadcast (13L + 53), p1's DGEMV 4 (13L + 57), p0's
 * w to p1 (13L + 53, no wait), DGER (13L + 61).  Column 3: alpha and the
 * tree to p0 (14L + 61), the broadcast (15L + 61).  The end's barrier:
 * p1 -> p0, 16L + 61 us.  Machine m0 computed 4 + 4 + 4 + 1 + 16 + 8 +
 * 16 = 53 us. */
static void reductions_down_a_column(void **state)
{
	(void)state;
	size_t mach[2] = { 0, 1 };
	double mf[2] = { 1.0, 1.0 }, lat[2] = { 1e-3, 1e-3 };
	vproc_lu_platform pl = { 4, 2, 2, 1, mach, 2, mf, lat, NULL, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_qr_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 16e-3 + 61e-6);
	NEAR(s.compute, 53e-6);
	/* on one machine the messages are free and the two take turns on its
	 * processor: 53 + 52 = 105 us */
	size_t one[2] = { 0, 0 };
	pl.machine = one;
	pl.nmachines = 1;
	assert_int_equal(vproc_qr_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 105e-6);
	NEAR(s.compute, 105e-6);
}

/* 1 x 3 on a bus: V goes along the row as a ring, each hop across machines
 * a message of the bus, so a slower bus costs more; one machine moves
 * nothing. */
static void panels_along_the_row(void **state)
{
	(void)state;
	size_t three[3] = { 0, 1, 2 }, one[3] = { 0, 0, 0 };
	double mf[3] = { 100.0, 100.0, 100.0 };
	vproc_lu_platform fast = { 320, 32, 1, 3, three, 3, mf, NULL, NULL, 1, 1e-4, 1e9, 0 };
	vproc_lu_platform slow = fast, alone = fast;
	slow.bus_bytes_per_s = 1e6;
	alone.machine = one;
	alone.nmachines = 1;
	vproc_lu_seconds f, s, a;
	assert_int_equal(vproc_qr_time(&fast, &f), VPROC_OK);
	assert_int_equal(vproc_qr_time(&slow, &s), VPROC_OK);
	assert_int_equal(vproc_qr_time(&alone, &a), VPROC_OK);
	assert_true(s.total > f.total + 0.1);
	NEAR(a.network, a.total - a.compute);
	assert_true(a.total >= a.compute - 1e-12);
}

static void refuses_bad_platforms(void **state)
{
	(void)state;
	size_t mach[1] = { 1 };
	double mf[1] = { 1.0 };
	vproc_lu_platform pl = { 64, 32, 1, 1, mach, 1, mf, NULL, NULL, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_qr_time(&pl, &s), VPROC_EINVAL);
	mach[0] = 0;
	assert_int_equal(vproc_qr_time(&pl, NULL), VPROC_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_process),
		cmocka_unit_test(reductions_down_a_column),
		cmocka_unit_test(panels_along_the_row),
		cmocka_unit_test(refuses_bad_platforms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
