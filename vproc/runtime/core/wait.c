/*
 * wait.c -- cooperative waiting.
 *
 * Why: MPICH's ch4:ucx device busy-polls inside every blocking call.  The
 * method of the papers puts several processes on one machine (000 s3,
 * 002 s2); the 1999 PVM processes blocked in the kernel and left the
 * processor to their siblings, a spinning process does not.  So every
 * blocking call becomes its nonblocking form plus this loop, which polls a
 * few times (a message in flight is usually there within microseconds),
 * then yields, then naps with a growing sleep, never above VR_NAP_MAX_NS
 * so that a message is noticed within that long.  Measured on 2 cores,
 * xdlu 3x3 n = 900 (tests/bench/bench_runtime.sh, HETLAUNCH_WAIT): yields
 * before the naps beat naps alone (0.30 s against 0.76 s), and shorter
 * naps (8 us) made it worse (3.3 s): they wake the sleepers so often that
 * the ranks with work lose the processor.  With more awake ranks than
 * processors (a crowded wait: 3x3 on 2 cores; never under the virtual
 * clock, see vr_backoff_wake) the steps change, see vproc/model/wait_step.c.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/futex.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "model/model.h"
#include "state.h"

/* The back-off; HETLAUNCH_WAIT="spins,yields,nap_min_ns,nap_max_ns" and
 * an optional ",peer_yields" override it (for measuring, see
 * tests/bench/bench_runtime.sh and tests/bench/bench_dense.sh). */
static vproc_wait_policy policy = {
	.spins = 32,          /* plain polls */
	.yields = 96,         /* polls with sched_yield() between them */
	.peer_yields = 1000,  /* crowded: yields while the peer is awake (wait_step.c) */
};
static long VR_NAP_MIN_NS = 2000;
static long VR_NAP_MAX_NS = 64000;    /* about the latency of Fast Ethernet */

void vr_wait_init(void)
{
	/* With hetlaunch's segment (all ranks on this computer) a sender wakes
	 * its receiver, so waiting can go to sleep at once and stay asleep
	 * until woken or 200 us have passed (for what no one announces).
	 * Measured on 2 cores, xdlu 3x3 n = 900 (tests/bench/bench_runtime.sh):
	 * 0.27-0.28 s, against 0.55-0.63 s for the back-off below. */
	if (getenv("HETLAUNCH_SHM") != NULL) {
		policy.spins = 16;
		policy.yields = 0;
		VR_NAP_MIN_NS = VR_NAP_MAX_NS = 200000;
	}
	const char *e = getenv("HETLAUNCH_WAIT");
	if (e) {
		unsigned s, y, py;
		long a, b;
		int got = sscanf(e, "%u,%u,%ld,%ld,%u", &s, &y, &a, &b, &py);
		if (got >= 4 && a > 0 && b >= a) {
			policy.spins = s;
			policy.yields = y;
			VR_NAP_MIN_NS = a;
			VR_NAP_MAX_NS = b;
			if (got == 5)
				policy.peer_yields = py;
		}
	}
	/* A nap is only short if the kernel does not round it up: the
	 * default timer slack (50 us) would make every nap that long. */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
}

/* Under the virtual clock a wait's real length changes no time, and with
 * 96 ranks on 2 cores the 200 us naps woke each blocked rank 5000 times a
 * second for nothing (1.2 million time-outs in a 96-rank LU of
 * n = 2048); senders wake their receivers, the nap only bounds what no
 * one announces: 1 ms, longer at scale (wait_step.c). */
static long virtual_nap_ns(void)
{
	return vproc_wait_virtual_nap_ns(vr_seg.world_size);
}

/* The peer a wait depends on, kicked before each sleep (see vr_wait_peer). */
static MPI_Comm kick_comm = MPI_COMM_NULL;
static int kick_peer = -1;
/* The wait holds receives only (vr_wait_recv): no kick needs to wake it. */
static int wait_recv_only;

/* In this wait (vproc_wait_step), zeroed when the wait starts: a peer
 * yield leaves *iter at 0, so zeroing on *iter == 0 never let the count
 * reach its cap and a crowded wait yielded while its peer computed. */
static unsigned peer_yields;

/* Under the virtual clock every stamped message is registered with its
 * receiver before it leaves (vorder.c): a peer with nothing registered
 * for us has not sent what we wait for, and its progress cannot bring it;
 * the send will wake us (vr_post_send).  Kicked before every sleep of
 * every receive, a ring's ranks woke one another up the ring for nothing
 * (virtual-clock.md, "Why 512 ranks crawl"). */
static int nexpect, expect_bad;   /* what the wait publishes (below) */
static int peer_has_sent(void)
{
	if (!vr_virtual() || nexpect == 0 || expect_bad)
		return 1;
	return vr_order_pending_from(vr_world_rank(kick_comm, kick_peer));
}

/* One step of the back-off after an unsuccessful test; *iter counts them.
 * Measured, driver LU n = 3000, 3x3 on 2 cores (tests/bench/bench_dense.sh):
 * crowded waits that yield to an awake peer, and kicks that spare
 * receive-only sleepers, took 5.58 s against 6.09 s and 4.67 against
 * 5.38 s (medians of 6 and 3, alternating with the old runtime); the
 * ratio to 1x2 went from 1.57-1.66 to 1.42-1.54 (medians of 5). */
static void vr_backoff_wake(unsigned *iter, uint32_t *seen_wake)
{
	/* The peer is looked up only for a crowded wait: not on the polls of
	 * an uncrowded one.  The virtual clock's waits end in virtual-time
	 * order (vorder.c), whose naps keep the ranks off the processors:
	 * they keep their polls.  Measured, 64 machines and 96 ranks under the
	 * virtual clock (BENCH_VCLOCK_ONLY=2 bash tests/bench/bench_vclock.sh,
	 * alternating): 105.0 and 102.0 s of wall time with the polls, 109.9
	 * and 110.8 s with crowded waits skipping them. */
	int crowded = !vr_virtual() && vproc_wait_crowded(vr_awake_ranks(), vr_cpus());
	int peer_awake = crowded && kick_peer >= 0 &&
	                 vr_peer_awake(kick_comm, kick_peer);
	switch (vproc_wait_step(&policy, *iter, peer_yields, crowded, peer_awake)) {
	case VPROC_WAIT_POLL:
		(*iter)++;
		return;
	case VPROC_WAIT_PEER_YIELD:
		peer_yields++;
		sched_yield();
		return;
	case VPROC_WAIT_YIELD:
		(*iter)++;
		sched_yield();
		return;
	case VPROC_WAIT_SLEEP:
		break;
	}
	unsigned k = vproc_wait_nap_index(&policy, (*iter)++);
	long ns = VR_NAP_MIN_NS;
	while (k-- > 0 && ns < VR_NAP_MAX_NS)
		ns *= 2;
	if (ns > VR_NAP_MAX_NS)
		ns = VR_NAP_MAX_NS;
	struct timespec ts = { 0, ns };
	_Atomic uint32_t *w = vr_my_wake();
	if (w == NULL || seen_wake == NULL) {
		nanosleep(&ts, NULL);
		return;
	}
	if (vr_virtual() && ns < virtual_nap_ns())
		ts.tv_nsec = virtual_nap_ns();
	/* With a segment, sleep on our wake word instead: a rank that posts
	 * a message to us wakes us at once (vr_wake), and the nap length
	 * stays the bound for what no one announces (a send's completion).
	 * Before it, a receive kicks its sender (which may wait in a send);
	 * a send wakes its receiver even in a receive-only wait: a message
	 * sent in fragments (no single copy between the processes) needs the
	 * receiver to drain them, and no MPI call announces them (hence the
	 * kicks). */
	if (kick_peer >= 0 && !wait_recv_only)
		vr_wake(kick_comm, kick_peer);
	else if (kick_peer >= 0 && peer_has_sent())
		vr_kick(kick_comm, kick_peer);
	/* A receive-only wait with buffered sends of ours out (bsend.c) still
	 * needs their receivers' kicks: our progress completes them. */
	int recv_only = wait_recv_only && !vr_bsend_outstanding();
	vr_futex_sleep(recv_only ? VR_ASLEEP : VR_ASLEEP | VR_ASLEEP_SEND, *seen_wake, &ts);
	/* Woken, or the word moved while we slept (a wake-up or a kick: each
	 * announces something to test): poll again before the next sleep.  Under
	 * MPICH the message a sender announced is not always there at the
	 * wake-up's first test (it was some microseconds later); with one
	 * test, the receiver slept again and the message waited for the
	 * nap's end.  Three ranks of one machine passing a token took 1.05 ms
	 * a hop (1 ms naps), 33 us with the polls; Open MPI 2 us either way
	 * (virtual-clock.md, "Case 79 crawled"). */
	uint32_t now = atomic_load(w);
	if (now != *seen_wake)
		*iter = 0;
	*seen_wake = now;
}

/*
 * The seconds this rank spent blocked in MPI calls, for the program's own
 * report (per-rank compute and wait, launcher/programs/hlmpi.c looks
 * this up with dlsym).  Counted from the first unsuccessful test of a
 * wait to its completion, so a message already there costs no clock read.
 */
static double vr_waited;
static int vr_waited_is_virtual;

void vr_wait_virtual(void)
{
	vr_waited_is_virtual = 1;
}

void vr_wait_add(double seconds)
{
	vr_waited += seconds;
}

double hetlaunch_wait_seconds(void);
double hetlaunch_wait_seconds(void)
{
	return vr_waited;
}

static double vr_now(void)
{
	struct timespec ts;
	vr_real_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* End of a wait that started to back off at *t0 (0: it never did). */
static void vr_waited_since(double t0)
{
	if (t0 > 0 && !vr_waited_is_virtual)
		vr_waited += vr_now() - t0;
}

void vr_backoff(unsigned *iter)
{
	/* MPI_Probe's loop: a back-off step stands for its own duration. */
	double t0 = vr_now();
	vr_backoff_wake(iter, NULL);
	vr_waited_since(t0);
}

/* ---- what a wait waits for (vorder.c) ------------------------------------
 * Under the virtual clock a rank blocked in receives publishes their
 * (channel, source, tag) patterns, so that it holds no one back while
 * their messages are not all pending for it.  Each pattern needs its own
 * message (vproc_wait_wake): the callers name the receives of a wait that
 * ends when all of them have completed (MPI_Wait, Waitall, Sendrecv, Recv,
 * the collectives' receives); an any-of wait (Waitany) names its receives
 * as such (vr_wait_expect_any: the first message ends it), and only if all
 * its requests are receives.  A wait with a receive they could not name (a communicator
 * without stamps), or with none (only sends, which end without a
 * message), publishes nothing: its bound stays the rank's clock. */
static vr_pattern expect[VR_WAIT_PATTERNS];
static int expect_any;

/* An any-of wait (Waitany on receives only): the first message ends it. */
void vr_wait_expect_any(void)
{
	expect_any = 1;
}

void vr_wait_expect_unknown(void)
{
	expect_bad = 1;
}

void vr_wait_expect(MPI_Comm comm, int source, int tag)
{
	if (!vr_virtual())
		return;
	MPI_Comm sc;
	int stag, chan;
	if (nexpect == VR_WAIT_PATTERNS || source == MPI_PROC_NULL ||
	    vr_stamp_chan(comm, tag == MPI_ANY_TAG ? 0 : tag, &sc, &stag, &chan) < 0 || chan < 0) {
		expect_bad = 1;
		return;
	}
	int w = source == MPI_ANY_SOURCE ? -1 : vr_world_rank(comm, source);
	if (source != MPI_ANY_SOURCE && w < 0) {
		expect_bad = 1;
		return;
	}
	expect[nexpect++] = (vr_pattern){ chan, w, tag == MPI_ANY_TAG ? -1 : stag };
}

static void expect_block(void)
{
	if (nexpect > 0 && !expect_bad)
		vr_order_block(expect, nexpect, expect_any);
	else if (vr_virtual())
		vr_order_doing(2);
}

static void expect_end(void)
{
	if (vr_virtual())
		vr_order_doing(0);
	if (nexpect > 0 && !expect_bad)
		vr_order_unblock();
	nexpect = 0;
	expect_bad = 0;
	expect_any = 0;
}

void vr_wait_block(void)
{
	expect_block();
}

void vr_wait_unblock(void)
{
	expect_end();
}

/* What a cooperative wait tests, with one of MPI's test calls. */
typedef enum { WAIT_ONE, WAIT_ALL, WAIT_ANY } wait_kind;
typedef struct {
	wait_kind kind;
	int n;
	MPI_Request *reqs;
	MPI_Status *status;   /* WAIT_ALL: the statuses array */
	int *index;           /* WAIT_ANY's */
} wait_reqs;

static int test_reqs(const wait_reqs *r, int *flag)
{
	switch (r->kind) {
	case WAIT_ONE:
		return PMPI_Test(r->reqs, flag, r->status);
	case WAIT_ANY:
		return PMPI_Testany(r->n, r->reqs, r->index, flag, r->status);
	default:
		return PMPI_Testall(r->n, r->reqs, flag, r->status);
	}
}

/* The one loop of Wait, Waitall and Waitany: test, then back off (yield,
 * nap, or sleep until woken: vr_backoff_wake); the time from the first
 * unsuccessful test is the rank's wait.  The wake word is read before each
 * test, so that a message announced between the test and the sleep makes
 * the sleep return at once. */
static int wait_loop(const wait_reqs *r)
{
	peer_yields = 0;
	unsigned iter = 0;
	double t0 = 0;
	_Atomic uint32_t *w = vr_my_wake();
	uint32_t seen = w ? atomic_load(w) : 0;
	for (;;) {
		int flag = 0;
		int rc = test_reqs(r, &flag);
		if (rc != MPI_SUCCESS || flag) {
			vr_waited_since(t0);
			expect_end();
			return rc;
		}
		if (t0 == 0)
			t0 = vr_now(), expect_block();
		vr_backoff_wake(&iter, w ? &seen : NULL);
	}
}

int vr_waitall(int n, MPI_Request *reqs, MPI_Status *statuses)
{
	wait_reqs r = { WAIT_ALL, n, reqs, statuses, NULL };
	return wait_loop(&r);
}

/*
 * vr_wait_peer -- vr_wait for a request whose completion also needs `peer`
 * (a rank of comm) to make progress: a large message's sender must answer
 * the receiver's request to send (UCX rendezvous), and neither side's MPI
 * calls announce that.  Before each sleep the waiter wakes the peer if it
 * sleeps, so that it tests its requests once; a peer that computes is not
 * disturbed.
 */
int vr_wait_peer(MPI_Request *req, MPI_Status *status, MPI_Comm comm, int peer)
{
	kick_comm = comm;
	kick_peer = peer == MPI_ANY_SOURCE || peer == MPI_PROC_NULL ? -1 : peer;
	int rc = vr_wait(req, status);
	kick_peer = -1;
	return rc;
}

int vr_wait_recv(MPI_Request *req, MPI_Status *status, MPI_Comm comm, int source)
{
	wait_recv_only = 1;
	int rc = vr_wait_peer(req, status, comm, source);
	wait_recv_only = 0;
	return rc;
}

int vr_wait(MPI_Request *req, MPI_Status *status)
{
	wait_reqs r = { WAIT_ONE, 1, req, status, NULL };
	return wait_loop(&r);
}

/* MPI_Waitany: an any-of wait publishes no receive (see above), so the
 * rank's bound stays its clock; the wait marks it inside MPI, so that
 * the order's escape may run (a rank left marked computing held a sibling
 * that waited for its clock for ever: hpcc's MPIRandomAccess). */
int vr_waitany(int n, MPI_Request *reqs, int *index, MPI_Status *status)
{
	wait_reqs r = { WAIT_ANY, n, reqs, status, index };
	return wait_loop(&r);
}
