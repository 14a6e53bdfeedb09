/*
 * test_vclock.c -- the virtual clock's arithmetic (vproc/model/calendar.c, issue
 * 16): contention on a port and on a bus, siblings sharing a processor,
 * message stamps; the bounds of booking in virtual-time order
 * (vproc/model/order_bounds.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/model.h"

enum { CAP = 16 };

static vproc_calendar cal_new(vproc_interval *buf, size_t cap)
{
	vproc_calendar c = { 0, 0, buf, cap };
	return c;
}

/* Two siblings ready at once with 1000 ns each: the processor does 2000 ns
 * of work, whoever books first ends at 1000, the other at 2000. */
static void siblings_share_processor(void **state)
{
	(void)state;
	vproc_interval b[CAP];
	vproc_calendar c = cal_new(b, CAP);
	assert_int_equal(vproc_cal_compute(&c, 100, 1000), 1100);
	assert_int_equal(vproc_cal_compute(&c, 100, 1000), 2100);
	assert_int_equal(c.n, 1);   /* merged: [100, 2100) */
	assert_int_equal(b[0].start, 100);
	assert_int_equal(b[0].end, 2100);
	/* a lone sibling later has the whole machine */
	assert_int_equal(vproc_cal_compute(&c, 5000, 10), 5010);
}

/* Bookings come in real order, not virtual order: a sibling that is behind
 * in virtual time still finds the processor free before the others'
 * work, and work that straddles a busy interval is split around it. */
static void out_of_order_fills_gaps(void **state)
{
	(void)state;
	vproc_interval b[CAP];
	vproc_calendar c = cal_new(b, CAP);
	assert_int_equal(vproc_cal_compute(&c, 1000, 500), 1500);   /* [1000,1500) */
	assert_int_equal(vproc_cal_compute(&c, 0, 300), 300);       /* before it: free */
	/* 900 ns from 200: [300,1000) is free (700), then after 1500: 200 more */
	assert_int_equal(vproc_cal_compute(&c, 200, 900), 1700);
	assert_int_equal(c.n, 1);
	assert_int_equal(b[0].start, 0);
	assert_int_equal(b[0].end, 1700);
	/* the total busy time is the sum of the work, whatever the order */
	vproc_interval b2[CAP];
	vproc_calendar c2 = cal_new(b2, CAP);
	vproc_cal_compute(&c2, 200, 900);
	vproc_cal_compute(&c2, 0, 300);
	vproc_cal_compute(&c2, 1000, 500);
	assert_int_equal(c2.n, 1);
	assert_int_equal(b2[0].end - b2[0].start, 1700);
}

/* One port (003 s2.2): two messages of one machine at the same time go
 * out one after the other; the latency is the wire's and does not hold
 * the port. */
static void port_contention(void **state)
{
	(void)state;
	vproc_interval b[CAP];
	vproc_calendar port = cal_new(b, CAP);
	unsigned long long free1, free2;
	/* 1250 bytes at 1.25e6 B/s (10 Mb/s) = 1 ms; latency 100 us */
	unsigned long long a1 = vproc_vclock_message(&port, 0, 100000, 1.25e6, 1250, &free1);
	unsigned long long a2 = vproc_vclock_message(&port, 0, 100000, 1.25e6, 1250, &free2);
	assert_int_equal(free1, 1000000);
	assert_int_equal(a1, 1100000);
	assert_int_equal(free2, 2000000);
	assert_int_equal(a2, 2100000);
	/* a message is one piece: a gap too short for it is skipped */
	vproc_interval b3[CAP];
	vproc_calendar p3 = cal_new(b3, CAP);
	assert_int_equal(vproc_cal_transfer(&p3, 0, 100), 0);       /* [0,100) */
	assert_int_equal(vproc_cal_transfer(&p3, 150, 100), 150);   /* [150,250) */
	assert_int_equal(vproc_cal_transfer(&p3, 50, 60), 250);     /* 100..150 too short */
	assert_int_equal(vproc_cal_transfer(&p3, 50, 50), 100);     /* fits exactly */
}

/* Switch against bus (000 s5): on a switch each machine has its port, on
 * a bus all machines share one, so three machines sending at once finish
 * at 1x each on a switch and at 1x, 2x, 3x on the bus. */
static void bus_contention(void **state)
{
	(void)state;
	vproc_interval pb[3][CAP], bb[CAP];
	vproc_calendar ports[3], bus = cal_new(bb, CAP);
	unsigned long long f;
	for (int m = 0; m < 3; m++) {
		ports[m] = cal_new(pb[m], CAP);
		assert_int_equal(vproc_vclock_message(&ports[m], 0, 0, 1e6, 1000, &f), 1000000);
	}
	for (int m = 0; m < 3; m++)
		assert_int_equal(vproc_vclock_message(&bus, 0, 0, 1e6, 1000, &f),
		                 (unsigned long long)(m + 1) * 1000000);
}

/* The stamp: arrival = send + bytes / bandwidth + latency; the receiver's
 * clock is the later of its own and the arrival. */
static void message_stamps(void **state)
{
	(void)state;
	unsigned long long f;
	/* 25 MB/s (200 Mb/s), 60 us: 8 kB at t = 1 ms arrives at 1 ms + 327.68 us + 60 us */
	unsigned long long a = vproc_vclock_message(NULL, 1000000, 60000, 25e6, 8192, &f);
	assert_int_equal(f, 1000000 + 327680);
	assert_int_equal(a, 1000000 + 327680 + 60000);
	assert_int_equal(vproc_vclock_receive(0, a), a);          /* the receiver waits */
	assert_int_equal(vproc_vclock_receive(5000000, a), 5000000); /* it was later already */
	/* no bandwidth: only the latency */
	assert_int_equal(vproc_vclock_message(NULL, 7, 3, 0.0, 1 << 20, &f), 10);
	assert_int_equal(f, 7);
}

/* Forgetting the past keeps the calendar small; a full calendar drops its
 * earliest interval (counted), never the later ones. */
static void forget_and_overflow(void **state)
{
	(void)state;
	vproc_interval b[4];
	vproc_calendar c = cal_new(b, 4);
	for (unsigned long long k = 0; k < 4; k++)
		vproc_cal_transfer(&c, k * 100, 10);
	assert_int_equal(c.n, 4);
	vproc_cal_forget(&c, 110);    /* [0,10) and [100,110) end by then */
	assert_int_equal(c.n, 2);
	assert_int_equal(b[0].start, 200);
	vproc_cal_transfer(&c, 400, 10);
	vproc_cal_transfer(&c, 500, 10);
	vproc_cal_transfer(&c, 600, 10);   /* full: [200,210) goes */
	assert_int_equal(c.n, 4);
	assert_int_equal(c.dropped, 1);
	assert_int_equal(b[0].start, 300);
	assert_int_equal(b[3].start, 600);
}

/* ---- booking in virtual-time order (vproc/model/order_bounds.c) ---------------------- */

#define RUN(v) { (v), VPROC_NEVER, 0, 0 }
#define BLOCKED(v, w) { (v), (w), 1, 0 }

static int past_at(const vproc_order_rank *s, int n, int me, int r, unsigned long long t, int tie)
{
	vproc_event g = vproc_order_horizon(s, n, me);
	return vproc_order_past(s, r, g, (vproc_event){ t, tie });
}

/* A running rank holds back every booking after its clock; at the same
 * time the lower rank goes first. */
static void running_ranks_by_clock_then_rank(void **state)
{
	(void)state;
	vproc_order_rank s[3] = { RUN(100), RUN(200), RUN(200) };
	assert_false(past_at(s, 3, 1, 0, 200, 1));   /* 0 is at 100 < 200 */
	assert_true(past_at(s, 3, 0, 1, 100, 0));    /* 1 is at 200 > 100 */
	assert_true(past_at(s, 3, 1, 2, 200, 1));    /* tie: 2 > 1 */
	assert_false(past_at(s, 3, 2, 1, 200, 2));   /* tie: 1 < 2 goes first */
	s[0].done = 1;
	assert_true(past_at(s, 3, 1, 0, 200, 1));    /* finished: never books */
}

/* A rank blocked in a receive with nothing it matches pending wakes only
 * on a message not sent yet: after the others' clocks, so it holds no one
 * back below them, however low its own clock; a matching pending message
 * that arrives earlier than the booking does hold it. */
static void blocked_rank_bounded_by_its_messages(void **state)
{
	(void)state;
	vproc_order_rank s[3] = { BLOCKED(10, VPROC_NEVER), RUN(500), RUN(300) };
	assert_true(past_at(s, 3, 2, 0, 300, 2));    /* wakes >= 500 (rank 1) */
	assert_false(past_at(s, 3, 2, 0, 600, 2));   /* rank 1 may wake it at 500 */
	s[0].wake = 250;                              /* its message is pending */
	assert_false(past_at(s, 3, 2, 0, 300, 2));
	assert_true(past_at(s, 3, 2, 0, 200, 2));
	/* every other rank blocked with nothing pending: nothing can happen */
	vproc_order_rank t[3] = { BLOCKED(10, VPROC_NEVER), BLOCKED(20, VPROC_NEVER), RUN(900) };
	assert_true(past_at(t, 3, 2, 0, 900, 2));
	assert_int_equal(vproc_order_horizon(t, 3, 2).t, VPROC_NEVER);
}

/* The case that hung the LU before events carried their rank: ranks 2 and 4
 * at 1000 want to book, rank 0 is blocked with nothing pending.  Rank 0
 * can only be woken by rank 4's message (after rank 4's event (1000, 4)),
 * so for rank 2 it is past; for rank 4 it is bounded by rank 2's event
 * (1000, 2) and holds it, as rank 2 does: rank 2 goes first. */
static void blocked_rank_woken_after_its_waker(void **state)
{
	(void)state;
	vproc_order_rank s[5] = { BLOCKED(500, VPROC_NEVER), RUN(5000), RUN(1000), RUN(5000), RUN(1000) };
	assert_true(past_at(s, 5, 2, 0, 1000, 2));
	assert_true(past_at(s, 5, 2, 4, 1000, 2));
	assert_false(past_at(s, 5, 4, 0, 1000, 4));
	assert_false(past_at(s, 5, 4, 2, 1000, 4));
}

/* A wildcard receive's candidate (arrival 700 from rank 1): a rank whose
 * bound is rank 1's own event does not steal it; a rank that can still
 * send earlier, or at 700 from a lower rank, does. */
static void wildcard_candidate(void **state)
{
	(void)state;
	vproc_order_rank s[4] = { BLOCKED(100, 700), RUN(700), BLOCKED(50, VPROC_NEVER), RUN(900) };
	vproc_event g = vproc_order_horizon(s, 4, 0);
	vproc_event cand = { 700, 1 };
	assert_true(vproc_order_past(s, 2, g, cand));    /* woken by rank 1 at >= 700 */
	assert_true(vproc_order_past(s, 3, g, cand));
	s[3].vt = 650;
	g = vproc_order_horizon(s, 4, 0);
	assert_false(vproc_order_past(s, 3, g, cand));   /* may send at 650 */
	s[3].vt = 700;
	vproc_order_rank t[4] = { BLOCKED(100, 700), RUN(700), RUN(700), RUN(900) };
	g = vproc_order_horizon(t, 4, 0);
	vproc_event cand2 = { 700, 2 };
	assert_false(vproc_order_past(t, 1, g, cand2));  /* rank 1 may send at (700, 1) */
}

/* Whom a rank that waits for r sleeps on: r while it runs or while its
 * own message or clock bounds it; the horizon's rank when r can only be
 * woken by a message not sent yet. */
static void blocker_is_who_moves_the_bound(void **state)
{
	(void)state;
	vproc_order_rank s[4] = { BLOCKED(100, VPROC_NEVER), RUN(700), BLOCKED(50, 300), RUN(900) };
	vproc_event g = vproc_order_horizon(s, 4, 3);
	assert_int_equal(g.rank, 2);                               /* its pending 300 */
	assert_int_equal(vproc_order_blocker(s, 4, 1, g), 1);      /* running */
	assert_int_equal(vproc_order_blocker(s, 4, 2, g), 2);      /* its own message */
	assert_int_equal(vproc_order_blocker(s, 4, 0, g), 2);      /* woken after rank 2 */
	s[0].vt = 400;                                             /* its clock bounds it */
	assert_int_equal(vproc_order_blocker(s, 4, 0, g), 0);
	s[1].done = 1;
	assert_int_equal(vproc_order_blocker(s, 4, 1, g), 1);
}

/* When a wait ends (vproc_wait_wake): every pattern needs a message, so
 * the latest of each pattern's earliest match; never while one has none
 * (the earliest over all made a Waitall with two of its three
 * messages look awake); wildcards match any source or tag of their
 * channel; a message matching two patterns counts for both (early, not
 * late); no pattern, never. */
static void wait_ends_when_every_receive_has_its_message(void **state)
{
	(void)state;
	vproc_pattern pat[3] = { { 2, 0, 0 }, { 2, 1, 0 }, { 2, 2, 0 } };
	vproc_pending pend[4] = { { 400, 2, 1, 0, 0 }, { 200, 2, 2, 0, 0 },
	                          { 100, 3, 0, 0, 0 }, { 300, 2, 1, 0, 0 } };
	/* from 0 only on channel 3: the first receive has nothing */
	assert_true(vproc_wait_wake(pat, 3, pend, 4) == VPROC_NEVER);
	pend[2].chan = 2;                                     /* now it has, at 100 */
	assert_true(vproc_wait_wake(pat, 3, pend, 4) == 300); /* max(100, min(400, 300), 200) */
	assert_true(vproc_wait_wake(pat, 1, pend, 4) == 100);
	vproc_pattern any = { 2, -1, -1 }, tag1 = { 2, -1, 1 };
	assert_true(vproc_wait_wake(&any, 1, pend, 4) == 100);
	assert_true(vproc_wait_wake(&tag1, 1, pend, 4) == VPROC_NEVER);
	vproc_pattern twice[2] = { { 2, 1, 0 }, { 2, 1, 0 } };
	assert_true(vproc_wait_wake(twice, 2, pend, 4) == 300);   /* one message, both: early */
	assert_true(vproc_wait_wake(pat, 0, pend, 4) == VPROC_NEVER);
	assert_true(vproc_wait_wake(pat, 3, pend, 0) == VPROC_NEVER);
	/* an any-of wait (Waitany): the first receive to have a message */
	pend[2].chan = 3;
	assert_true(vproc_wait_wake_any(pat, 3, pend, 4) == 200);   /* from 2, before 1's 300 */
	pend[2].chan = 2;
	assert_true(vproc_wait_wake_any(pat, 3, pend, 4) == 100);
	assert_true(vproc_wait_wake_any(&tag1, 1, pend, 4) == VPROC_NEVER);
	assert_true(vproc_wait_wake_any(pat, 0, pend, 4) == VPROC_NEVER);
}

/* The same over messages kept in pieces (the runtime's list, then its
 * pool's chunks): any split of the messages gives the one-piece answer,
 * for every prefix of the patterns, both kinds of wait. */
static void wait_over_pieces_is_wait_over_all(void **state)
{
	(void)state;
	vproc_pattern pat[4] = { { 2, 0, 0 }, { 2, 1, 0 }, { 2, -1, 7 }, { 2, 2, -1 } };
	vproc_pending pend[6] = { { 400, 2, 1, 0, 0 }, { 200, 2, 2, 0, 0 }, { 100, 2, 0, 0, 0 },
	                          { 300, 2, 1, 0, 0 }, { 50, 3, 1, 0, 0 }, { 250, 2, 5, 7, 0 } };
	for (uint32_t np = 0; np <= 4; np++)
		for (uint32_t cut = 0; cut <= 6; cut++)
			for (int any = 0; any <= 1; any++) {
				unsigned long long first[4] = { VPROC_NEVER, VPROC_NEVER, VPROC_NEVER,
				                                VPROC_NEVER };
				vproc_wait_first(pat, np, pend, cut, first);
				vproc_wait_first(pat, np, pend + cut, 6 - cut, first);
				unsigned long long whole = any ? vproc_wait_wake_any(pat, np, pend, 6)
				                               : vproc_wait_wake(pat, np, pend, 6);
				assert_true(vproc_wait_join(first, np, any) == whole);
			}
	unsigned long long first[4] = { VPROC_NEVER, VPROC_NEVER, VPROC_NEVER, VPROC_NEVER };
	vproc_wait_first(pat, 4, pend, 6, first);
	assert_true(vproc_wait_join(first, 4, 0) == 300);   /* max(100, 300, 250, 200) */
	assert_true(vproc_wait_join(first, 4, 1) == 100);
	pend[5].stag = 6;                                    /* tag 7 has none now */
	assert_true(vproc_wait_wake(pat, 4, pend, 6) == VPROC_NEVER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(siblings_share_processor),
		cmocka_unit_test(out_of_order_fills_gaps),
		cmocka_unit_test(port_contention),
		cmocka_unit_test(bus_contention),
		cmocka_unit_test(message_stamps),
		cmocka_unit_test(forget_and_overflow),
		cmocka_unit_test(running_ranks_by_clock_then_rank),
		cmocka_unit_test(blocked_rank_bounded_by_its_messages),
		cmocka_unit_test(blocked_rank_woken_after_its_waker),
		cmocka_unit_test(wildcard_candidate),
		cmocka_unit_test(blocker_is_who_moves_the_bound),
		cmocka_unit_test(wait_ends_when_every_receive_has_its_message),
		cmocka_unit_test(wait_over_pieces_is_wait_over_all),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
