/*
 * test_lu_time.c -- the predicted seconds of ScaLAPACK's LU with the
 * network (vproc/planner/dense/lu_time.c), on cases added up by hand.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "planner/dense/lu_time.h"

/* n = 2, b = 1, one process at 1 Mflop/s: step 0 panel 2 x 1 (2 flops),
 * solve 1 x 1 x 1 (1), update 2 x 1 x 1 x 1 (2); step 1 panel 1 (1):
 * 6 flops, 6 us; no network. */
static void one_process_by_hand(void **state)
{
	(void)state;
	size_t mach[1] = { 0 };
	double mf[1] = { 1.0 };
	vproc_lu_platform pl = { 2, 1, 1, 1, mach, 1, mf, NULL, NULL, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_lu_time(&pl, &s), VPROC_OK);
	assert_true(fabs(s.compute - 6e-6) < 1e-15);
	assert_true(s.network == 0.0);
	/* large n: about 2/3 n^3 flops */
	pl.n = 600;
	pl.b = 32;
	assert_int_equal(vproc_lu_time(&pl, &s), VPROC_OK);
	double f = 2.0 / 3.0 * 600.0 * 600.0 * 600.0;
	assert_true(fabs(s.compute * 1e6 - f) / f < 0.05);
}

/* 1 x 2 on two machines, latency L, infinite bandwidth, n = 4, b = 1:
 * the panel goes from its column to the other one each of the 4 steps,
 * one hop each: 4 L.  Both processes on one machine: no network. */
static void latency_of_the_row_broadcasts(void **state)
{
	(void)state;
	size_t mach[2] = { 0, 1 };
	double mf[2] = { 1.0, 1.0 }, lat[2] = { 1e-3, 1e-3 };
	vproc_lu_platform pl = { 4, 1, 1, 2, mach, 2, mf, lat, NULL, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_lu_time(&pl, &s), VPROC_OK);
	assert_true(fabs(s.network - 4e-3) < 1e-12);
	size_t same[2] = { 0, 0 };
	pl.machine = same;
	assert_int_equal(vproc_lu_time(&pl, &s), VPROC_OK);
	assert_true(s.network == 0.0);
}

/* Siblings share their machine: 1 x 2 on one machine takes as long as
 * 1 x 1 for the updates (the same flops on one processor). */
static void siblings_add_up(void **state)
{
	(void)state;
	size_t one[1] = { 0 }, two[2] = { 0, 0 };
	double mf[1] = { 100.0 };
	vproc_lu_platform a = { 256, 16, 1, 1, one, 1, mf, NULL, NULL, 0, 0, 0, 0 };
	vproc_lu_platform b = { 256, 16, 1, 2, two, 1, mf, NULL, NULL, 0, 0, 0, 0 };
	vproc_lu_seconds sa, sb;
	assert_int_equal(vproc_lu_time(&a, &sa), VPROC_OK);
	assert_int_equal(vproc_lu_time(&b, &sb), VPROC_OK);
	assert_true(fabs(sa.compute - sb.compute) / sa.compute < 1e-12);
}

/* Switch against bus: a ring over three machines, bandwidth only. */
static void bus_against_switch(void **state)
{
	(void)state;
	size_t mach[3] = { 0, 1, 2 };
	double mf[3] = { 1e3, 1e3, 1e3 }, bw[3] = { 1e6, 1e6, 1e6 };
	vproc_lu_platform pl = { 96, 32, 1, 3, mach, 3, mf, NULL, bw, 0, 0, 0, 0 };
	vproc_lu_seconds sw, bus;
	assert_int_equal(vproc_lu_time(&pl, &sw), VPROC_OK);
	pl.bus = 1;
	pl.bus_bytes_per_s = 1e6;
	assert_int_equal(vproc_lu_time(&pl, &bus), VPROC_OK);
	/* the panel of step k: (96 - 32k) x 32 doubles.  Switch: the first
	 * hop of each broadcast is on the critical path (the others overlap
	 * the update, and no port sends more than that).  Bus: both hops of
	 * every broadcast go through it, after the compute (they add). */
	double want = 0;
	for (int k = 0; k < 3; k++)
		want += 8.0 * (96 - 32 * k) * 32 / 1e6;
	assert_true(fabs(sw.network - want) < 1e-12);
	assert_true(fabs(bus.total - bus.compute - 2.0 * want) < 1e-12);
}

/* A 2 x 2 grid adds the column traffic: pivots, swaps and the block row. */
static void two_d_has_column_traffic(void **state)
{
	(void)state;
	size_t rows[4] = { 0, 1, 0, 1 }, cols[4] = { 0, 0, 1, 1 };
	double mf[2] = { 1e3, 1e3 }, lat[2] = { 1e-4, 1e-4 }, bw[2] = { 1e7, 1e7 };
	/* machines by process column: the columns never cross machines */
	vproc_lu_platform a = { 256, 32, 2, 2, rows, 2, mf, lat, bw, 0, 0, 0, 0 };
	/* machines by process row: pivots, swaps and U cross machines */
	vproc_lu_platform b = { 256, 32, 2, 2, cols, 2, mf, lat, bw, 0, 0, 0, 0 };
	vproc_lu_seconds sa, sb;
	assert_int_equal(vproc_lu_time(&a, &sa), VPROC_OK);
	assert_int_equal(vproc_lu_time(&b, &sb), VPROC_OK);
	assert_true(sa.network > 0 && sb.network > 0);
	assert_true(sa.network != sb.network);
	/* the same grid without a network: the column traffic is free */
	b.latency_s = NULL;
	b.bytes_per_s = NULL;
	assert_int_equal(vproc_lu_time(&b, &sb), VPROC_OK);
	assert_true(sb.network == 0.0);
	a.mflops = NULL;
	assert_int_equal(vproc_lu_time(&a, &sa), VPROC_EINVAL);
}

/* The block row goes down a process column by MPI_Bcast, in two levels
 * (vproc/runtime/bindings/coll.c, as MPICH on a cluster): once per other machine of
 * the column.  A 4 x 1 grid on two machines, interleaved (0 1 0 1),
 * against four machines: the same swaps, pivots and panel hops (every
 * neighbour differs in both), but the block row crosses the bus once a
 * step on two machines and three times on four: the difference is two
 * copies of it, 2 x 8 x (n - lo2) x b bytes over the steps but the last
 * (n = 256, b = 32: 2 x 8 x 32 x 896 bytes). */
static void column_broadcast_crosses_once_per_machine(void **state)
{
	(void)state;
	size_t two[4] = { 0, 1, 0, 1 }, four[4] = { 0, 1, 2, 3 };
	double mf[4] = { 1e3, 1e3, 1e3, 1e3 };
	vproc_lu_platform a = { 256, 32, 4, 1, two, 2, mf, NULL, NULL, 1, 1e-4, 1e7, 0 };
	vproc_lu_platform b = { 256, 32, 4, 1, four, 4, mf, NULL, NULL, 1, 1e-4, 1e7, 0 };
	vproc_lu_seconds sa, sb;
	assert_int_equal(vproc_lu_time(&a, &sa), VPROC_OK);
	assert_int_equal(vproc_lu_time(&b, &sb), VPROC_OK);
	assert_true(fabs(sb.network - sa.network - 2.0 * 8.0 * 32.0 * 896.0 / 1e7) < 1e-12);
}

/* HPL finds, swaps and broadcasts each column's pivot row in one binary
 * exchange (HPL_pdmxswp), ScaLAPACK in a reduction and then a row
 * exchange: on a 2 x 1 grid over two machines (log2 P = 1 step), latency
 * L, infinite bandwidth, n = 4, b = 1, the four panels' one column each
 * cost 2 L under ScaLAPACK and L under HPL; nothing else changes. */
static void hpl_pivots_in_one_exchange(void **state)
{
	(void)state;
	size_t mach[2] = { 0, 1 };
	double mf[2] = { 1.0, 1.0 }, lat[2] = { 1e-3, 1e-3 };
	vproc_lu_platform pl = { 4, 1, 2, 1, mach, 2, mf, lat, NULL, 0, 0, 0, 0 };
	vproc_lu_seconds lu, hpl;
	assert_int_equal(vproc_lu_time(&pl, &lu), VPROC_OK);
	pl.combined_pivot = 1;
	assert_int_equal(vproc_lu_time(&pl, &hpl), VPROC_OK);
	assert_true(fabs(lu.network - hpl.network - 4e-3) < 1e-12);
	assert_true(lu.compute == hpl.compute);
	/* both process rows on one machine: nothing crosses */
	size_t one[2] = { 0, 0 };
	pl.machine = one;
	assert_int_equal(vproc_lu_time(&pl, &hpl), VPROC_OK);
	assert_true(hpl.network == 0.0);
}

/* The closed form against a walk over every index. */
static void owned_from_is_a_count(void **state)
{
	(void)state;
	for (size_t n = 1; n <= 40; n += 3)
		for (size_t b = 1; b <= 5; b++)
			for (size_t P = 1; P <= 4; P++)
				for (size_t p = 0; p < P; p++)
					for (size_t lo = 0; lo <= n + 1; lo++) {
						size_t c = 0;
						for (size_t x = lo; x < n; x++)
							c += x / b % P == p;
						assert_int_equal(vproc_cyclic_owned_from(lo, n, b, p, P), c);
					}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(owned_from_is_a_count),
		cmocka_unit_test(one_process_by_hand),
		cmocka_unit_test(latency_of_the_row_broadcasts),
		cmocka_unit_test(siblings_add_up),
		cmocka_unit_test(bus_against_switch),
		cmocka_unit_test(two_d_has_column_traffic),
		cmocka_unit_test(column_broadcast_crosses_once_per_machine),
		cmocka_unit_test(hpl_pivots_in_one_exchange),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
