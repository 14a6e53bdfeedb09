/*
 * test_lu_play.c -- PDGETRF played out (vproc/planner/dense/lu_play.c) on cases
 * worked by hand: the split ring, PB_CptrsmB's round trips, the panel's
 * trees and PDLASWP down a process column, pdtrsm_'s choice.  Speeds 1 Mflop/s (one flop is one microsecond) unless said.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "planner/dense/lu_play.h"
#include "planner/dense/lu_solve.h"
#include "planner/dense/lu_timed_play.h"
#include "planner/dense/lu_time.h"
#include "planner/dense/vsim.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* n = 3, b = 1, a 1 x 3 row on three machines, latency L = 1 ms, infinite
 * bandwidth.  A panel of one column has no rank-1 update (DGER on kb - 1
 * = 0 columns): no flops.  Step 0: p0's panel; its pivots by the split
 * ring to p1 (right) and p2 (left), both at L; L11 the same way
 * (PB_CptrsmAB: 0.5 <= 2 x 2), p1 and p2 solve 1 each (the runtime
 * charges DTRSM m^2 n: L + 1); L21 the same way (arrives L), update
 * 2 x 2 x 1 = 4: L + 5.  Step 1: p1's panel (L + 5), pivots, L11 and L21
 * to p2 (2L + 5, solve 1, update 2: 2L + 8) and to p0 (no column left).
 * Step 2: p2's panel (2L + 8), its pivots to p0 and p1 at 3L + 8.
 * Busiest machine m2: 1 + 4 + 1 + 2 = 8. */
static void split_ring_on_a_row(void **state)
{
	(void)state;
	size_t mach[3] = { 0, 1, 2 };
	double mf[3] = { 1.0, 1.0, 1.0 }, lat[3] = { 1e-3, 1e-3, 1e-3 };
	vproc_lu_platform pl = { 3, 1, 1, 3, mach, 3, mf, lat, NULL, 0, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_lu_steps_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 3e-3 + 8e-6);
	NEAR(s.compute, 8e-6);
}

/* n = 128, b = 64, a 1 x 2 row, latency L = 1 ms, infinite bandwidth and
 * speed.  Step 0: pivots p0 -> p1 (L); PB_CptrsmB (64 x 32 = 2048 > 2 x 64
 * columns): p1's 64 columns in two pieces of 32, each to p0 and back
 * (2L, 3L; 4L, 5L); L21 p0 -> p1, sent at 4L (5L).  Step 1: p1's pivots to
 * p0: 6L.  The sum of phases sees two hops, 2L. */
static void trsm_b_round_trips(void **state)
{
	(void)state;
	size_t mach[2] = { 0, 1 };
	double mf[2] = { 1e12, 1e12 }, lat[2] = { 1e-3, 1e-3 };
	vproc_lu_platform pl = { 128, 64, 1, 2, mach, 2, mf, lat, NULL, 0, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_lu_steps_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 6e-3);
	assert_int_equal(vproc_lu_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 2e-3);
}

/* PB_CptrsmB's pieces booked c at a time keep every round trip's
 * latencies: on a 1 x 3 row of latency-only links (speed and bandwidth
 * infinite) grouped messages give the same total as one message a piece
 * (without the c - 1 pieces' 2 L a chain they would be short of it). */
static void trsm_b_grouped_pieces(void **state)
{
	(void)state;
	size_t mach[3] = { 0, 1, 2 };
	double mf[3] = { 1e12, 1e12, 1e12 }, lat[3] = { 1e-3, 1e-3, 1e-3 };
	vproc_lu_platform pl = { 1024, 64, 1, 3, mach, 3, mf, lat, NULL, 0, 0, 0, 0, 1 };
	vproc_lu_seconds one, grouped;
	assert_int_equal(vproc_lu_steps_time(&pl, &one), VPROC_OK);
	for (size_t c = 2; c <= 5; c++) {
		pl.piece_group = c;
		assert_int_equal(vproc_lu_steps_time(&pl, &grouped), VPROC_OK);
		NEAR(grouped.total, one.total);
	}
	/* and the play's own choice at this size books each piece */
	pl.piece_group = 0;
	assert_int_equal(vproc_lu_steps_time(&pl, &grouped), VPROC_OK);
	NEAR(grouped.total, one.total);
	assert_true(vproc_lu_play_events(&pl) > 0);
}

/* n = 2, b = 1, a 2 x 1 grid on two machines, L = 1 ms, infinite
 * bandwidth.  Step 0 (pk = 0): the panel's one column: PDAMAX's combine
 * p1 -> p0 (L), its result p0 -> p1 (2L) and the pivot row p0 -> p1
 * (2L), or with the pivot on p1 the exchange first (p0 has p1's row at
 * 3L) and then the row (4L): the pivot is row 0 or row 1, half each
 * (vproc_lu_pivots_on: 1 row below x 1/2), 3L; no rank-1 update (one
 * column).  PDLASWP: half a pivot across rows, one exchange (both send,
 * 4L) and no second latency (2 x 0.5 - 1 = 0); p0 solves 1 (4L + 1) and
 * sends U down (5L + 1); p1 updates 2 (5L + 3).  Step 1 (pk = 1): row 1
 * is the only one left, its own pivot: from the later clock the combine
 * and its result, 2L, no exchange, and no pivot row (no row below it:
 * the last panel's update is on row pk alone, PB_CInV.c), 7L + 3;
 * PDLASWP swaps nothing: 7L + 3 us.  Machine m1 computed 2, m0 1. */
static void panel_and_swaps_down_a_column(void **state)
{
	(void)state;
	size_t mach[2] = { 0, 1 };
	double mf[2] = { 1.0, 1.0 }, lat[2] = { 1e-3, 1e-3 };
	vproc_lu_platform pl = { 2, 1, 2, 1, mach, 2, mf, lat, NULL, 0, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_lu_steps_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 7e-3 + 3e-6);
	NEAR(s.compute, 2e-6);
}

/* n = 1, b = 1, a 4 x 1 grid on four machines, L = 1 ms, infinite
 * bandwidth: one column, the trees played (pdamax_.c's 1-tree, then
 * MPI_Bcast's binomial tree, as the runtime sends both).  The combine
 * 1 -> 0 and 3 -> 2 (L), 2 -> 0 (2L); the result 0 -> 1 and 0 -> 2
 * (3L), 2 -> 3 (4L): 4L (no pivot row to broadcast and no rank-1
 * update: no row below it).  The one row is its own pivot: no exchange
 * (in a panel before the last, with the pivot on p2, taken half the
 * column away, p0 would have p2's row at 4L and the row's broadcast would
 * end at 6L).  Three tree levels of depth log2 4 each would say 6L. */
static void panel_trees_down_four_machines(void **state)
{
	(void)state;
	size_t mach[4] = { 0, 1, 2, 3 };
	double mf[4] = { 1.0, 1.0, 1.0, 1.0 }, lat[4] = { 1e-3, 1e-3, 1e-3, 1e-3 };
	vproc_lu_platform pl = { 1, 1, 4, 1, mach, 4, mf, lat, NULL, 0, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_lu_steps_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 4e-3);
}

/* MPI_Bcast over four machines from 0, links of 1 MB/s and no latency, 1000
 * bytes (1 ms a send, the sender held until its bytes are out): as coll.c
 * sends it, the farthest child first: 0 -> 2 (1 ms), then 0 -> 1 and
 * 2 -> 3 (2 ms); all four are done at 2 ms.  Nearest first (0 -> 1, 0 -> 2,
 * then 2 -> 3) would have reached 3 at 3 ms. */
static void bcast_farthest_first(void **state)
{
	(void)state;
	size_t mach[4] = { 0, 1, 2, 3 };
	double mf[4] = { 1.0, 1.0, 1.0, 1.0 }, bw[4] = { 1e6, 1e6, 1e6, 1e6 };
	vproc_lu_platform pl = { 4, 1, 4, 1, mach, 4, mf, NULL, bw, 0, 0, 0, 0, 0 };
	vproc_vsim s;
	assert_int_equal(vproc_vsim_init(&s, &pl), VPROC_OK);
	vproc_vsim_bcast(&s, 0, 1, 4, 0, 1000.0);
	for (size_t p = 0; p < 4; p++)
		assert_int_equal(s.clock[p], 2000000);
	vproc_vsim_free(&s);
}

/* pdtrsm_.c, Left Lower No transpose, M = kb: on one process row
 * PB_CptrsmAB iff kb^2 / 2 <= 2 N; with two rows or more, AB. */
static void trsm_choice(void **state)
{
	(void)state;
	assert_int_equal(vproc_lu_trsm_ab(1, 16, 64, 64, 960), 0);
	assert_int_equal(vproc_lu_trsm_ab(1, 16, 64, 64, 1024), 1);
	assert_int_equal(vproc_lu_trsm_ab(1, 16, 32, 32, 255), 0);
	assert_int_equal(vproc_lu_trsm_ab(1, 16, 32, 32, 256), 1);
	assert_int_equal(vproc_lu_trsm_ab(2, 8, 64, 64, 64), 1);
}

/* The pivots expected across process rows, n = 4, b = 1, two process
 * rows (rows 0 and 2 on row 0): column 0's pivot is uniform over rows
 * 0..3, two of them (1, 3) on row 1: 2 / 4; column 1's over rows 1..3,
 * row 2 on row 0: 1 / 3; column 2's over rows 2, 3: 1 / 2; column 3 is
 * its own.  In all 4 / 3, where (P - 1) / P of 4 says 2.  And n = 256,
 * b = 32: 116.7 (the 2 x 4 emulation's PDLAPIV swapped 119 across rows). */
static void pivots_across_rows(void **state)
{
	(void)state;
	size_t mach[2] = { 0, 1 };
	double mf[2] = { 1.0, 1.0 };
	vproc_lu_platform pl = { 4, 1, 2, 1, mach, 2, mf, NULL, NULL, 0, 0, 0, 0, 0 };
	double all = 0;
	for (size_t lo = 0; lo < 4; lo++)
		all += vproc_lu_pivots_on(&pl, lo, 1, vproc_lu_pivot_weight(&pl, lo, 1), (lo + 1) % 2);
	NEAR(all, 4.0 / 3.0);
	pl.n = 256;
	pl.b = 32;
	all = 0;
	for (size_t lo = 0; lo < 256; lo += 32)
		all += vproc_lu_pivots_on(&pl, lo, 32, vproc_lu_pivot_weight(&pl, lo, 32),
		                          (lo / 32 + 1) % 2);
	assert_true(all > 116.6 && all < 116.8);
}

/* hl-driver's PDGETRS played from clocks at 0, n = 2, b = 1, L = 1 ms,
 * speed and bandwidth infinite.
 * A 1 x 2 row: PCHK2MAT's GLOBCHK, p0's broadcast (p1 at L), the
 * allreduce to p0 (2L) and back (p1 at 3L).  PDLAPIV swaps nothing (one
 * process row).  L (PB_CptrsmB, one logical block of 128 rows): p0
 * solves row 0; p0 updates the look-ahead window, row 1, and sends it to
 * p1, row 1's column (3L); p1 solves; the pieces summed into x's column
 * 0: p1 -> p0 (4L).  U: A's last column is on p1, so p0 sends x there
 * first (5L); p1 solves row 1, sends row 0's window to p0 (6L), p0
 * solves; the sum, p1 -> p0, arrives at 6L: p0 6L, p1 5L.
 * A 2 x 1 column: GLOBCHK as above (p0 2L, p1 3L).  PDLAPIV, block 0 on
 * p0: its pivots to p1 (3L); row 0's pivot is on p1 half the time
 * (1 row below of 2): one exchange (p0 has p1's entry at 4L, p1 p0's at
 * 3L).  Block 1 on p1: its pivots reach p0 at 4L; row 1 is its own
 * pivot.  L: p0 solves row 0 and rings it to p1 (5L); p1 updates and
 * solves row 1, rings it to p0 (6L).  U, backward, the decreasing ring:
 * p1 solves row 1, to p0 (still 6L); p0 solves row 0, to p1 (7L): p0
 * 6L, p1 7L.  One process column gathers nothing. */
static void getrs_by_hand(void **state)
{
	(void)state;
	size_t mach[2] = { 0, 1 };
	double mf[2] = { 1e12, 1e12 }, lat[2] = { 1e-3, 1e-3 };
	vproc_lu_platform row = { 2, 1, 1, 2, mach, 2, mf, lat, NULL, 0, 0, 0, 0, 0 };
	vproc_lu_platform col = { 2, 1, 2, 1, mach, 2, mf, lat, NULL, 0, 0, 0, 0, 0 };
	vproc_vsim s;
	assert_int_equal(vproc_vsim_init(&s, &row), VPROC_OK);
	vproc_lu_getrs(&s);
	assert_int_equal(s.clock[0], 6000000);
	assert_int_equal(s.clock[1], 5000000);
	vproc_vsim_free(&s);
	assert_int_equal(vproc_vsim_init(&s, &col), VPROC_OK);
	vproc_lu_getrs(&s);
	assert_int_equal(s.clock[0], 6000000);
	assert_int_equal(s.clock[1], 7000000);
	vproc_vsim_free(&s);
}

/* hl-driver's timed region, the 1 x 2 row above (n = 2, b = 1).  The
 * steps alone: step 0's pivots, L11 and L21 p0 -> p1 (L), step 1's
 * pivots p1 -> p0: 2L.  The region: the barrier lets p1 go at L;
 * PCHK1MAT's GLOBCHK, p0's broadcast (p1 at L), the allreduce (p0 2L,
 * p1 3L); the steps' three messages to p1 leave p0 at 2L (p1 3L), step
 * 1's pivots reach p0 at 4L; INFO's allreduce along the row (p0 4L, p1
 * 5L); PDGETRS as above from p0 4L, p1 5L: GLOBCHK (p0 6L, p1 7L), L's
 * window to p1 (7L) and its sum to p0 (8L), U's move of x to p1 (9L),
 * its window and sum to p0 (10L); the end's fan-in, p1 -> p0, at 10L. */
static void timed_region(void **state)
{
	(void)state;
	size_t mach[2] = { 0, 1 };
	double mf[2] = { 1e12, 1e12 }, lat[2] = { 1e-3, 1e-3 };
	vproc_lu_platform pl = { 2, 1, 1, 2, mach, 2, mf, lat, NULL, 0, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_lu_steps_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 2e-3);
	assert_int_equal(vproc_lu_play_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 10e-3);
}

/* One process: only the flops, as the runtime charges them: the
 * elimination's multiply-adds, 2 sum_{i < n} i^2 = (n - 1) n (2n - 1) / 3
 * = 143 640 200 at n = 600 (DGER, DTRSM and DGEMM share them out), and
 * DTRSM's diagonal, which the runtime charges too (m^2 n, not m (m - 1)
 * n): kb (n - lo2) a step, 32 x (568 + 536 + ... + 24) = 170 496. */
static void one_process(void **state)
{
	(void)state;
	size_t mach[1] = { 0 };
	double mf[1] = { 1.0 };
	vproc_lu_platform pl = { 600, 32, 1, 1, mach, 1, mf, NULL, NULL, 0, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_lu_steps_time(&pl, &s), VPROC_OK);
	assert_true(fabs(s.compute * 1e6 / (143640200.0 + 170496.0) - 1.0) < 1e-12);
	NEAR(s.total, s.compute);
	mach[0] = 1;
	assert_int_equal(vproc_lu_steps_time(&pl, &s), VPROC_EINVAL);
}

/* Two ranks on one machine (vproc/planner/dense/lu_row_play.c): a 1 x 4
 * row, n = 4, b = 1; p0 on m0, p1 and p3 on m1, p2 on m2.  m0 and m2
 * compute and send in no time; m1 at 0.1 Mflop/s (10 us a flop) behind a
 * port of 1 MB/s (1 us a byte); no latency.  Each message also costs the
 * runtime's 1 ns tick, left out below (a few ns in all).  Times in us;
 * a booking is made in virtual-time order on its machine, a process's
 * compute between two MPI calls as one segment when it makes the next.
 * Step 0 (split ring 0 -> 1 -> 2, 0 -> 3): p0's panel, pivots, L11 and
 * L21 (24 bytes) all leave at 0.  p3 solves its column, [0, 10), then
 * updates 6 flops, [10, 70).  p1, the forwarder, sends the pivots (4
 * bytes, port [0, 4)) and L11 (8 bytes, [4, 12)) to p2 first, so its
 * solve starts at 12, behind p3's update: [70, 80); L21 goes on to p2 at
 * [80, 104).  p1's update (step 1's panel of one column has no rank-1
 * update): [104, 164).  Step 1 (1 -> 2 -> 3, 1 -> 0; p1 has no column
 * left): pivots, L11 and L21 (16 bytes) to p2 and p0 on m1's port,
 * [164, 220): p3 has L11 from p2 at 180 and solves [180, 190), L21 at
 * 204, updates [204, 244).  Step 2 (2 -> 3 -> 0, 2 -> 1): p2 sends at
 * 204; p3 forwards the pivots [244, 248) and L11 [248, 256) to p0,
 * solves [256, 266), forwards L21 [266, 274), then updates [274, 294).
 * Step 3 (3 -> 0 -> 1, 3 -> 2): p3's pivots to p0 [294, 298) and to p2
 * [298, 302): 302 us.  m1 computed 22 flops, 220 us. */
static void forwarder_solves_behind_a_sibling(void **state)
{
	(void)state;
	size_t mach[4] = { 0, 1, 2, 1 };
	double mf[3] = { 1e12, 0.1, 1e12 }, bw[3] = { 0, 1e6, 0 };
	vproc_lu_platform pl = { 4, 1, 1, 4, mach, 3, mf, NULL, bw, 0, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_lu_steps_time(&pl, &s), VPROC_OK);
	assert_true(fabs(s.total - 302e-6) < 20e-9);
	NEAR(s.compute, 220e-6);
}

/* DGETF2's rank-1 updates, as the runtime charges them (DGER by 2 m n,
 * DSCAL and IDAMAX by CPU time only).  A 736 x 32 panel (1d, n = 2048,
 * nb = 32, step 41): 2 sum_{j < 32} (735 - j)(31 - j) = 2 (704 x 496 +
 * 10416) = 719 200 flops, what the emulator charged rank 41's DGETF2
 * (doc/design/predictions.md); counting the pivot's row and column
 * said 766 304.  On a 2 x 1 grid (n = 8, b = 2: process row 0 holds rows
 * 0, 1, 4, 5), the panel of rows 0-1: column 0's DGER on the rows below
 * row 0 and 1 column: 3 rows on process row 0 (6 flops), 4 on row 1 (8);
 * column 1's on no column. */
static void panel_rank_one_updates(void **state)
{
	(void)state;
	size_t mach[2] = { 0, 1 };
	double mf[2] = { 1.0, 1.0 };
	vproc_lu_platform row = { 2048, 32, 1, 1, mach, 1, mf, NULL, NULL, 0, 0, 0, 0, 0 };
	NEAR(vproc_lu_panel_flops(&row, 41 * 32, 32, 0), 719200.0);
	NEAR(vproc_lu_panel_flops(&row, 2047, 1, 0), 0.0);
	vproc_lu_platform col = { 8, 2, 2, 1, mach, 2, mf, NULL, NULL, 0, 0, 0, 0, 0 };
	NEAR(vproc_lu_dger_flops(&col, 0, 0, 2, 0), 6.0);
	NEAR(vproc_lu_dger_flops(&col, 0, 0, 2, 1), 8.0);
	NEAR(vproc_lu_dger_flops(&col, 0, 1, 2, 0), 0.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split_ring_on_a_row),
		cmocka_unit_test(trsm_b_round_trips),
		cmocka_unit_test(trsm_b_grouped_pieces),
		cmocka_unit_test(panel_and_swaps_down_a_column),
		cmocka_unit_test(panel_trees_down_four_machines),
		cmocka_unit_test(bcast_farthest_first),
		cmocka_unit_test(trsm_choice),
		cmocka_unit_test(pivots_across_rows),
		cmocka_unit_test(getrs_by_hand),
		cmocka_unit_test(timed_region),
		cmocka_unit_test(one_process),
		cmocka_unit_test(panel_rank_one_updates),
		cmocka_unit_test(forwarder_solves_behind_a_sibling),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
