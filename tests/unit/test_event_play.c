/*
 * test_event_play.c -- the event play (vproc/planner/dense/event_play.c):
 * bookings in virtual-time order on a shared machine, the group
 * synchronisations; and PDGETRF's 2D play in that order
 * (lu_grid_play.c) against the ring-by-ring one (lu_play.c).  Speeds 1
 * Mflop/s (one flop is one microsecond) unless said; times in us.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "planner/dense/event_play.h"
#include "planner/dense/lu_grid_play.h"
#include "planner/dense/lu_play.h"
#include "planner/dense/lu_timed_play.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* Programs of one phase each, written by the tests: ops[i][0..nops[i]). */
typedef struct {
	const vproc_ep_op *ops[3];
	size_t nops[3];
} programs;

static int expand(vproc_eplay *e, size_t i)
{
	const programs *pr = e->ctx;
	if (e->proc[i].phase++ > 0)
		return 0;
	for (size_t j = 0; j < pr->nops[i]; j++) {
		const vproc_ep_op *o = &pr->ops[i][j];
		if (o->kind == VPROC_EP_SYNC)
			vproc_eplay_sync(e, i, o->peer, o->count, o->amount);
		else
			vproc_eplay_add(e, i, o->kind, o->peer, o->amount);
	}
	return 1;
}

static void play(const size_t *mach, size_t nm, const programs *pr, unsigned long long *clock)
{
	double mf[3] = { 1.0, 1.0, 1.0 };
	vproc_lu_platform pl = { 1, 1, 1, 3, mach, nm, mf, NULL, NULL, 0, 0, 0, 0, 0, 0 };
	vproc_eplay e;
	assert_int_equal(vproc_eplay_init(&e, &pl, expand, (void *)pr), VPROC_OK);
	assert_int_equal(vproc_eplay_run(&e), VPROC_OK);
	for (size_t i = 0; i < 3; i++)
		clock[i] = e.s.clock[i];
	vproc_eplay_free(&e);
}

/* p0 on m0, p1 and p2 on m1, no latency, infinite bandwidth.  p0 computes
 * 10 and sends to p1; p1 receives, computes 5; p2 computes 100.  Played
 * in virtual-time order: p0's segment [0, 10) is booked when it reaches
 * its send, p2's [0, 100) when its program ends (both at clock 0, p1
 * blocked in its receive); p0's message reaches p1 at 10.001 (the
 * runtime's 1 ns tick), and p1's 5 fill m1 after p2's: [100, 105).
 * Booked in program order instead (p1 before p2), p1 would end at 15.001
 * and p2 at 105.001. */
static void sibling_booked_in_time_order(void **state)
{
	(void)state;
	size_t mach[3] = { 0, 1, 1 };
	vproc_ep_op p0[] = { { VPROC_EP_COMPUTE, 0, 10, 0 }, { VPROC_EP_SEND, 1, 8, 0 } };
	vproc_ep_op p1[] = { { VPROC_EP_RECV, 0, 0, 0 }, { VPROC_EP_COMPUTE, 0, 5, 0 } };
	vproc_ep_op p2[] = { { VPROC_EP_COMPUTE, 0, 100, 0 } };
	programs pr = { { p0, p1, p2 }, { 2, 2, 1 } };
	unsigned long long c[3];
	play(mach, 2, &pr, c);
	assert_int_equal(c[0], 10000);
	assert_int_equal(c[1], 105000);
	assert_int_equal(c[2], 100000);
}

/* Three machines; p0, p1, p2 compute 3, 5, 1, then synchronise (key 7,
 * three members, 2 us): all leave at the latest, 5, plus 2 = 7, and
 * compute 1 more: 8. */
static void synchronisation_waits_for_the_latest(void **state)
{
	(void)state;
	size_t mach[3] = { 0, 1, 2 };
	vproc_ep_op p0[] = { { VPROC_EP_COMPUTE, 0, 3, 0 }, { VPROC_EP_SYNC, 7, 2000, 3 },
	                     { VPROC_EP_COMPUTE, 0, 1, 0 } };
	vproc_ep_op p1[] = { { VPROC_EP_COMPUTE, 0, 5, 0 }, { VPROC_EP_SYNC, 7, 2000, 3 },
	                     { VPROC_EP_COMPUTE, 0, 1, 0 } };
	vproc_ep_op p2[] = { { VPROC_EP_COMPUTE, 0, 1, 0 }, { VPROC_EP_SYNC, 7, 2000, 3 },
	                     { VPROC_EP_COMPUTE, 0, 1, 0 } };
	programs pr = { { p0, p1, p2 }, { 3, 3, 3 } };
	unsigned long long c[3];
	play(mach, 3, &pr, c);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(c[i], 8000);
}

/* p1 and p2 on m1, whose port sends 1 MB/s (1 us a byte); p0 on m0.  p2
 * sends 1000 bytes to p0 at 0 (m1's port [0, 1000), p2 held to 1000),
 * then computes 1.  p0 computes 3, p1 computes 5 ([0, 5) on m1) and waits
 * for the port for a message of 1000 bytes (PORT: the first gap of 1000
 * us from 5 on starts at 1000; nothing booked); p0 and p1 synchronise
 * (2 us): 1000 + 2 = 1002.  p2 computes [1000, 1001) on m1; p0 and p1 compute 1 each: 1003.
 * Without the port's wait they would leave at 5 + 2 and end at 8. */
static void port_wait_before_a_synchronisation(void **state)
{
	(void)state;
	size_t mach[3] = { 0, 1, 1 };
	double mf[2] = { 1.0, 1.0 }, bw[2] = { 1e6, 1e6 };
	vproc_lu_platform pl = { 1, 1, 1, 3, mach, 2, mf, NULL, bw, 0, 0, 0, 0, 0, 0 };
	vproc_ep_op p0[] = { { VPROC_EP_COMPUTE, 0, 3, 0 }, { VPROC_EP_SYNC, 7, 2000, 2 },
	                     { VPROC_EP_COMPUTE, 0, 1, 0 } };
	vproc_ep_op p1[] = { { VPROC_EP_COMPUTE, 0, 5, 0 }, { VPROC_EP_PORT, 0, 1000, 0 },
	                     { VPROC_EP_SYNC, 7, 2000, 2 }, { VPROC_EP_COMPUTE, 0, 1, 0 } };
	vproc_ep_op p2[] = { { VPROC_EP_SEND, 0, 1000, 0 }, { VPROC_EP_COMPUTE, 0, 1, 0 } };
	programs pr = { { p0, p1, p2 }, { 3, 4, 2 } };
	vproc_eplay e;
	assert_int_equal(vproc_eplay_init(&e, &pl, expand, &pr), VPROC_OK);
	assert_int_equal(vproc_eplay_run(&e), VPROC_OK);
	assert_int_equal(e.s.clock[0], 1003000);
	assert_int_equal(e.s.clock[1], 1003000);
	assert_int_equal(e.s.clock[2], 1001000);
	vproc_eplay_free(&e);
}

/* A synchronisation one member never reaches is the programs' bug. */
static void unmatched_synchronisation(void **state)
{
	(void)state;
	size_t mach[3] = { 0, 1, 2 };
	vproc_ep_op p0[] = { { VPROC_EP_SYNC, 7, 0, 3 } };
	programs pr = { { p0, p0, NULL }, { 1, 1, 0 } };
	double mf[3] = { 1.0, 1.0, 1.0 };
	vproc_lu_platform pl = { 1, 1, 1, 3, mach, 3, mf, NULL, NULL, 0, 0, 0, 0, 0, 0 };
	vproc_eplay e;
	assert_int_equal(vproc_eplay_init(&e, &pl, expand, &pr), VPROC_OK);
	assert_int_equal(vproc_eplay_run(&e), VPROC_EINVAL);
	vproc_eplay_free(&e);
}

/* With one rank a machine no calendar is shared: the 2D play in the
 * runtime's order books what the ring-by-ring play books, plus the 1 ns
 * tick of each message and the rounding of merged segments (a few ns
 * here), on 2 x 2 grids of four machines
 * (latency 1 ms, 100 MB/s, speeds 1e6 Mflop/s: the panel's first column's
 * rank-1 update, booked on its own and waited for by the whole column,
 * adds the slowest row's to each step, nothing here). */
static void grid_one_rank_a_machine(void **state)
{
	(void)state;
	size_t mach[4] = { 0, 1, 2, 3 };
	double mf[4] = { 1e6, 2e6, 0.5e6, 1e6 }, lat[4] = { 1e-3, 1e-3, 1e-3, 1e-3 };
	double bw[4] = { 1e8, 1e8, 1e8, 1e8 };
	for (size_t n = 2; n <= 12; n += 5) {
		vproc_lu_platform pl = { n, 2, 2, 2, mach, 4, mf, lat, bw, 0, 0, 0, 0, 0, 1 };
		vproc_lu_seconds ring, ev;
		assert_int_equal(vproc_lu_steps_time(&pl, &ring), VPROC_OK);
		assert_int_equal(vproc_lu_grid_play_time(&pl, NULL, NULL, &ev), VPROC_OK);
		assert_true(fabs(ev.total - ring.total) < 100e-9);
		NEAR(ev.compute, ring.compute);
	}
}

/* n = 4, b = 1, a 2 x 2 grid: row 0 (p0, p1) on m0 at 0.5 Mflop/s (2 us
 * a flop), row 1 (p2, p3) on m1 at 1 Mflop/s; no latency, infinite
 * bandwidth (each message the 1 ns tick).  A panel of one column has no
 * rank-1 update (DGER on 0 columns).  Step 0: the pivots and L11 arrive
 * at 0.001; row 0 solves, p0 1 flop [0.001, 2.001) and p1 2 flops behind
 * it on m0 [2.001, 6.001); U12 down the columns; the updates: p2 4 flops
 * [2.002, 6.002) and p3 8 [6.002, 14.002) on m1, p0 2 [6.001, 10.001) and
 * p1 4 [10.001, 18.001) on m0.  Step 1 (column 1, p1 and p3, from
 * 18.001): row 1 solves, p3 [18.002, 19.002) and p2 behind it [19.002,
 * 20.002); U12 reaches p1 at 19.003 and p0 at 20.003, so in virtual-time
 * order p1 updates first, [19.003, 23.003), and p0 behind it [23.003,
 * 27.003); p3 [20.002, 22.002), p2 [22.002, 24.002).  Step 2 (column 0
 * from 27.003): p1 solves its column 3 [27.005, 29.005), p3 updates the
 * last entry [29.006, 31.006).  Step 3: p3's pivots to p2 and p1's to p0
 * at 31.007 us.  The ring-by-ring play books step by step, the lower
 * index first: p0's step-1 update [20, 24) ahead of p1's [24, 28), so
 * p1's step-2 solve [28, 30) and p3's update [30, 32): 32 us.  28
 * us of flops on m0 either way (p0 2 + 4 + 4, p1 4 + 8 + 4 + 2; m1 20). */
static void grid_two_ranks_a_machine(void **state)
{
	(void)state;
	size_t mach[4] = { 0, 0, 1, 1 };
	double mf[2] = { 0.5, 1.0 }, lat[2] = { 0, 0 };
	vproc_lu_platform pl = { 4, 1, 2, 2, mach, 2, mf, lat, NULL, 0, 0, 0, 0, 0, 0 };
	vproc_lu_seconds s;
	assert_int_equal(vproc_lu_steps_time(&pl, &s), VPROC_OK);
	assert_true(fabs(s.total - 31.007e-6) < 1e-12);
	NEAR(s.compute, 28e-6);
	pl.ring_play = 1;
	assert_int_equal(vproc_lu_steps_time(&pl, &s), VPROC_OK);
	NEAR(s.total, 32e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sibling_booked_in_time_order),
		cmocka_unit_test(synchronisation_waits_for_the_latest),
		cmocka_unit_test(port_wait_before_a_synchronisation),
		cmocka_unit_test(unmatched_synchronisation),
		cmocka_unit_test(grid_one_rank_a_machine),
		cmocka_unit_test(grid_two_ranks_a_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
