/*
 * vorder.c -- emulate: {clock: virtual}: book the calendars in virtual-time
 * order, so that a run's times do not depend on how
 * this computer schedules the ranks.
 *
 * Why: a calendar (vproc/model/calendar.c) fills the earliest free time at or after
 * a booking's clock, but two bookings whose demands overlap in virtual time
 * are served in the order they reach it in real time; the lhpc LU spread by
 * 5% across three runs.  Conservative synchronisation, as in
 * parallel discrete-event simulation: a rank books at `ready` only when no
 * other rank that may book the same calendar can still book before it.
 *
 * The bound of a rank r, below which it will never book or send:
 *   - running: its clock vt_r (every booking and every send starts at or
 *     after it, and it never goes back);
 *   - blocked in receives (wait.c publishes the (channel, source, tag)
 *     patterns it waits for, each of which needs its message): only
 *     matching messages can wake it, so max(vt_r, min(W, G)), where W is
 *     when its pending messages end the wait (vproc_wait_wake: the latest
 *     of each pattern's earliest match; never while a pattern has none)
 *     and G bounds every message not sent yet: the smallest bound of the
 *     other ranks (a blocked rank's term: its own W), the booking rank
 *     itself excepted (what it sends comes after this booking).  Every
 *     message arrives at least 1 ns after its sender's clock (vclock.c,
 *     send_time), so a rank bounded by t sends nothing that arrives by t.  A pending message the blocked rank does not
 *     wait for (another tag) cannot wake it and does not hold anyone back.
 *   - past MPI_Finalize's last booking: infinite.
 * A rank books at `ready` when every rank that may book the calendar (the
 * siblings for a processor or a port, every rank for the bus) is past it:
 * bound > ready, or bound == ready and a higher rank (ties by rank).
 *
 * Pending messages: the sender registers (arrival, channel, source, tag) in
 * the receiver's slot before the stamp leaves; the receiver removes it
 * when it takes the stamp.  The bounds are read as one snapshot: the
 * clocks first (a clock read early is only lower), then the states; a
 * registration bumps an epoch, and a snapshot during which the epoch moved
 * is not used (its sender may have been read running before it sent and
 * blocked after).  Blocking, unblocking (its message was pending) and
 * finishing never lower a bound below what a snapshot may have read.
 *
 * Liveness: MPI can make a rank wait for another in ways the clocks do not
 * see (a synchronous send waits for its receive to be posted, a rank spins
 * in MPICH's Comm_dup for the other members), so when every rank has been
 * inside an MPI call for 100 ms of real time (5 ms a rank above 20 ranks;
 * HETLAUNCH_VORDER_ESCAPE_MS)
 * with the order still not allowing the booking, it goes ahead out of
 * order; such bookings are counted (report: emulation.out_of_order).
 *
 * Wildcard receives (MPI_Recv from MPI_ANY_SOURCE, p2p.c): the pending
 * message with the earliest arrival (ties: the lowest source), taken once
 * no other rank can still send a matching one that arrives before it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "state.h"
#include "model/shm_layout.h"
#include "model/model.h"

#define INF (~0ull)

typedef vproc_event event;

static int me = -1, nranks;
static int *siblings, nsiblings;
static long escape_ns = 100000000L;  /* HETLAUNCH_VORDER_ESCAPE_MS; see init */
static int enabled;
static _Atomic unsigned long long *epoch;
static int nwords;   /* of the waiters bit sets: (nranks + 63) / 64 */

void vr_order_init(const int *sib, int nsib)
{
	me = vr_seg.world_rank;
	nranks = (int)vr_seg.shm->nranks;
	siblings = (int *)sib;
	nsiblings = nsib;
	epoch = &vr_seg.shm->order_epoch;
	nwords = (nranks + 63) / 64;
	enabled = 1;
	const char *e = getenv("HETLAUNCH_VORDER");   /* "0": off, for measuring */
	if (e && e[0] == '0')
		enabled = 0;
	/* 100 ms, or 5 ms a rank when more: on 2 cores a rank of a large job
	 * can be runnable inside an MPI call, without a core, that long */
	if (nranks > 20)
		escape_ns = 5000000L * nranks;
	const char *m = getenv("HETLAUNCH_VORDER_ESCAPE_MS");
	if (m && atol(m) > 0)
		escape_ns = atol(m) * 1000000L;
}

/* HETLAUNCH_VORDER_STATS=1: what waiting for the order cost this rank,
 * printed to stderr (the run's log.txt) at MPI_Finalize; summed over the
 * ranks by tests/bench/bench_vclock.sh. */
static struct {
	unsigned long snapshots, naps, timeouts, picks, unsafe, bookings, booking_naps, wakes, maxpend;
} st;

static void bump(void)
{
	atomic_fetch_add_explicit(epoch, 1, memory_order_seq_cst);
}

static void lock(_Atomic int *l)
{
	while (atomic_exchange_explicit(l, 1, memory_order_acquire))
		sched_yield();
}

static void unlock(_Atomic int *l)
{
	atomic_store_explicit(l, 0, memory_order_release);
}

static unsigned long long real_ns(void)
{
	struct timespec ts;
	vr_real_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* ---- waking the ranks that wait for the order -----------------
 * A rank that waits for the order sleeps until the rank whose move can
 * raise the bound it waits for (vproc_order_blocker) moves: polling every
 * rank's state with naps took most of the processor with 96 ranks on 2
 * cores.  The waiter sets its need and its bit in the blocker's waiters,
 * then checks the blocker's ver again before sleeping; the blocker changes
 * its state, bumps ver, then reads waiters: one of the two sees the other. */

/* Our bound may have risen: wake our waiters (after our clock moved to vt:
 * those whose need it reached; all after a change of state). */
static void notify(unsigned long long vt, int all)
{
	vr_order *o = &vr_seg.shm->order[me];
	atomic_fetch_add(&o->ver, 1u);
	for (int k = 0; k < nwords; k++) {
		uint64_t bits = atomic_load(&o->waiters[k]);
		while (bits) {
			int b = __builtin_ctzll(bits), w = 64 * k + b;
			bits &= bits - 1;
			if (!all && atomic_load(&vr_seg.shm->order[w].need) > vt)
				continue;
			atomic_fetch_and(&o->waiters[k], ~(1ull << b));
			st.wakes++;
			vr_wake_rank(w);
		}
	}
}

/* ---- waiting for the horizon ----------------------------------------------
 * A rank held back by the horizon G (a blocked rank's bound is at most G:
 * vproc_order_blocker names G's rank) waited, until then, on that rank's
 * move; the next earliest rank then held it again, so with 96 ranks each
 * receive of a ring broadcast woke its receiver some 11 times, one
 * snapshot of every rank each.  Now it waits for G itself: every rise of
 * a term (a clock, a block, a message taken, the end) recomputes the two
 * earliest terms, a few cache lines, and wakes exactly the waiters whose
 * need G reaches (without their own term; a wake-up is a hint, the
 * waiter checks its snapshot again).  The mover writes its term, bumps
 * hver, then reads the waiters; a waiter sets its bit, then reads hver
 * again: one of the two sees the other. */

static void set_term(int r, unsigned long long t)
{
	atomic_store(&vr_seg.shm->term[r], t);
}

/* Rank r's pending messages a piece at a time (under its lock): its list,
 * then each chunk of the pool (vr_spill).  *it starts at -1. */
static const vr_pending *next_piece(int r, int32_t *it, uint32_t *n)
{
	if (*it < 0) {
		*it = vr_seg.shm->spill[r].head;
		*n = vr_seg.shm->order[r].npending;
		return vr_seg.shm->order[r].pending;
	}
	if (*it == 0)
		return NULL;
	const vr_chunk *c = &vr_seg.shm->pool[*it - 1];
	*it = c->next;
	*n = c->n;
	return c->e;
}

/* A blocked rank's term (vproc_order_horizon's own_wake): its wake-up,
 * not before its clock; never while a pattern has no message. */
static unsigned long long blocked_term(int r, unsigned long long vt)
{
	const vr_order *o = &vr_seg.shm->order[r];
	if (atomic_load(&o->overflow))
		return vt;
	unsigned long long first[VR_WAIT_PATTERNS];
	for (uint32_t j = 0; j < o->npat; j++)
		first[j] = INF;
	const vr_pending *p;
	uint32_t n;
	for (int32_t it = -1; (p = next_piece(r, &it, &n)) != NULL;)
		vproc_wait_first(o->pat, o->npat, p, n, first);
	unsigned long long w = vproc_wait_join(first, o->npat, (int)o->any);
	return w == INF ? INF : w > vt ? w : vt;
}

/* The earliest two terms, for G without any one rank. */
static void earliest_two(unsigned long long t[2], int r[2])
{
	t[0] = t[1] = INF;
	r[0] = r[1] = -1;
	for (int k = 0; k < nranks; k++) {
		unsigned long long x = atomic_load(&vr_seg.shm->term[k]);
		if (x < t[0])
			t[1] = t[0], r[1] = r[0], t[0] = x, r[0] = k;
		else if (x < t[1])
			t[1] = x, r[1] = k;
	}
}

/* G without rank w, from the two earliest terms. */
static event without(const unsigned long long t[2], const int r[2], int w)
{
	return r[0] == w ? (event){ t[1], r[1] } : (event){ t[0], r[0] };
}

/* G without us has reached need (a term rose since our snapshot). */
static int horizon_reached(event need)
{
	unsigned long long t[2];
	int r[2];
	earliest_two(t, r);
	return !vproc_event_before(without(t, r, me), need);
}

static void horizon_rose(void)
{
	atomic_fetch_add(&vr_seg.shm->hver, 1);
	uint64_t any = 0;
	for (int k = 0; k < nwords; k++)
		any |= atomic_load(&vr_seg.shm->hwaiters[k]);
	if (!any)
		return;
	unsigned long long t[2];
	int r[2];
	earliest_two(t, r);
	for (int k = 0; k < nwords; k++) {
		uint64_t bits = atomic_load(&vr_seg.shm->hwaiters[k]);
		while (bits) {
			int b = __builtin_ctzll(bits), w = 64 * k + b;
			bits &= bits - 1;
			event need = { atomic_load(&vr_seg.shm->order[w].hneed), atomic_load(&vr_seg.shm->order[w].hneed_rank) };
			if (vproc_event_before(without(t, r, w), need))
				continue;
			atomic_fetch_and(&vr_seg.shm->hwaiters[k], ~(1ull << b));
			st.wakes++;
			vr_wake_rank(w);
		}
	}
}

void vr_order_moved(unsigned long long vt)
{
	if (!enabled)
		return;
	vr_order *o = &vr_seg.shm->order[me];
	if (!atomic_load(&o->blocked)) {
		set_term(me, vt);
	} else {
		lock(&o->lock);
		set_term(me, atomic_load(&o->blocked) ? blocked_term(me, vt) : vt);
		unlock(&o->lock);
	}
	notify(vt, 0);
	horizon_rose();
}

/* ---- pending messages -----------------------------------------------------
 * Each rank's messages not yet received: its list in the segment, then
 * chunks of the segment's pool once the list is full.  A message left
 * out can end no wildcard receive (vr_order_pick sees only these) and
 * made its rank's bound its clock for the rest of the run: in a 96-rank
 * LU (1 x 96, one column block each), a rank that forwards every ring
 * broadcast had 150 messages pending for its successor, which waited
 * for another ring coming the other way, and no rank could go
 * (virtual-clock.md, "A full pending list"). */

static int32_t chunk_take(void)
{
	lock(&vr_seg.shm->pool_lock);
	int32_t i = vr_seg.shm->pool_free;
	if (i)
		vr_seg.shm->pool_free = vr_seg.shm->pool[i - 1].next;
	else if (vr_seg.shm->pool_top < VR_POOL_CHUNKS)
		i = (int32_t)++vr_seg.shm->pool_top;
	if (i && ++vr_seg.shm->pool_used > atomic_load(&vr_seg.shm->pool_peak))
		atomic_store(&vr_seg.shm->pool_peak, vr_seg.shm->pool_used);
	unlock(&vr_seg.shm->pool_lock);
	return i;
}

static void chunk_give(int32_t i)
{
	lock(&vr_seg.shm->pool_lock);
	vr_seg.shm->pool[i - 1].next = vr_seg.shm->pool_free;
	vr_seg.shm->pool_free = i;
	vr_seg.shm->pool_used--;
	unlock(&vr_seg.shm->pool_lock);
}

/* Appends to r's messages (under its lock): the list, else the newest
 * chunk, else a new one.  0 if the pool is exhausted. */
static int pending_add(int r, vr_pending p)
{
	vr_order *o = &vr_seg.shm->order[r];
	vr_spill *s = &vr_seg.shm->spill[r];
	if (o->npending < VR_PENDING_CAP) {
		o->pending[o->npending++] = p;
		return 1;
	}
	if (s->head == 0 || vr_seg.shm->pool[s->head - 1].n == VR_CHUNK) {
		int32_t i = chunk_take();
		if (i == 0)
			return 0;
		vr_seg.shm->pool[i - 1].next = s->head;   /* its entries are written as they come */
		vr_seg.shm->pool[i - 1].n = 0;
		s->head = i;
	}
	vr_chunk *c = &vr_seg.shm->pool[s->head - 1];
	c->e[c->n++] = p;
	s->n++;
	return 1;
}

/* Removes *at, one of r's messages (under its lock), by moving the last
 * one there: the newest chunk's last, or the list's. */
static void pending_remove(int r, vr_pending *at)
{
	vr_order *o = &vr_seg.shm->order[r];
	vr_spill *s = &vr_seg.shm->spill[r];
	if (s->head == 0) {
		*at = o->pending[--o->npending];
		return;
	}
	int32_t h = s->head;
	vr_chunk *c = &vr_seg.shm->pool[h - 1];
	*at = c->e[--c->n];
	s->n--;
	if (c->n == 0) {
		s->head = c->next;
		chunk_give(h);
	}
}

void vr_order_sent(int dest, int chan, int stag, unsigned long long arrival)
{
	if (!enabled || chan < 0 || dest < 0 || dest >= nranks)
		return;
	vr_order *o = &vr_seg.shm->order[dest];
	lock(&o->lock);
	if (!pending_add(dest, (vr_pending){ arrival, chan, me, stag, 0 }))
		atomic_fetch_add(&o->overflow, 1u);
	if (o->npending + vr_seg.shm->spill[dest].n > st.maxpend)
		st.maxpend = o->npending + vr_seg.shm->spill[dest].n;
	if (atomic_load(&o->blocked))
		set_term(dest, blocked_term(dest, atomic_load(&vr_seg.shm->rank_vt[dest])));
	unlock(&o->lock);
	bump();
	/* A wildcard receive may sleep with nothing pending: the send that
	 * follows wakes it (vr_post_send, after the data is posted).  Woken
	 * here too, it picked before the data was in and slept again, two
	 * wake-ups a ring hop (virtual-clock.md, "Why 512 ranks crawl"). */
}

void vr_order_received(int src, int chan, int stag, unsigned long long arrival)
{
	if (!enabled || chan < 0)
		return;
	vr_order *o = &vr_seg.shm->order[me];
	lock(&o->lock);
	vr_pending *p;
	uint32_t n;
	int found = 0;
	for (int32_t it = -1; !found && (p = (vr_pending *)next_piece(me, &it, &n)) != NULL;)
		for (uint32_t k = 0; k < n && !found; k++)
			if (p[k].src == src && p[k].chan == chan && p[k].stag == stag &&
			    p[k].arrival == arrival)
				pending_remove(me, &p[k]), found = 1;
	int blocked = atomic_load(&o->blocked);
	if (blocked)
		set_term(me, blocked_term(me, atomic_load(&vr_seg.shm->rank_vt[me])));
	unlock(&o->lock);
	if (blocked) {
		notify(INF, 1);   /* its wake-up may be later now (else: vt bounds us) */
		horizon_rose();
	}
}

/* ---- blocked ranks -------------------------------------------------------- */

void vr_order_block(const vr_pattern *pat, int npat, int any)
{
	if (!enabled || npat <= 0 || npat > VR_WAIT_PATTERNS)
		return;
	vr_order *o = &vr_seg.shm->order[me];
	lock(&o->lock);
	for (int k = 0; k < npat; k++)
		o->pat[k] = pat[k];
	o->npat = (uint32_t)npat;
	o->any = any != 0;
	atomic_store(&o->blocked, 1);
	set_term(me, blocked_term(me, atomic_load(&vr_seg.shm->rank_vt[me])));
	unlock(&o->lock);
	notify(INF, 1);
	horizon_rose();
}

void vr_order_unblock(void)
{
	if (!enabled)
		return;
	/* no notify: a blocked rank's bound is at least its clock, its
	 * bound now; under the lock, so that no sender sets a blocked term
	 * after ours */
	vr_order *o = &vr_seg.shm->order[me];
	lock(&o->lock);
	atomic_store(&o->blocked, 0);
	set_term(me, atomic_load(&vr_seg.shm->rank_vt[me]));
	unlock(&o->lock);
}

static void print_stats(void)
{
	const char *e = getenv("HETLAUNCH_VORDER_STATS");
	if (e == NULL || e[0] != '1')
		return;
	fprintf(stderr, "hetlaunch-vorder: rank %d snapshots %lu naps %lu timeouts %lu picks %lu "
	        "unsafe %lu bookings %lu booking_naps %lu wakes %lu maxpend %lu pool_peak %u\n", me,
	        st.snapshots, st.naps, st.timeouts, st.picks, st.unsafe, st.bookings, st.booking_naps,
	        st.wakes, st.maxpend, atomic_load(&vr_seg.shm->pool_peak));
}

void vr_order_done(void)
{
	if (vr_seg.shm != NULL && me >= 0) {
		atomic_store(&vr_seg.shm->order[me].done, 1);
		set_term(me, INF);
		print_stats();
		if (enabled) {
			notify(INF, 1);
			horizon_rose();
		}
	}
}

/* ---- one snapshot of every rank's bound -----------------------------------
 * The arithmetic is pure (vproc/model/order_bounds.c, tested in tests/unit/test_vclock.c). */

static vproc_order_rank *snap;
static uint32_t *vers;          /* each rank's ver, read before its state */
static uint32_t wake_seen;      /* our wake word, read before the snapshot */
static int blk = -2;            /* whom the last unsuccessful check waits on:
                                 * a rank, -1 anyone (a message to us), -2
                                 * no one (the snapshot was inconsistent) */
static unsigned long long blk_need;
static event blk_hneed;        /* for the horizon: till G (without us) is not before it */
static int blk_horizon;         /* blk is G's rank: wait for the horizon */
static int blk_rank;            /* the rank that was not past */
static unsigned long long hver_seen;  /* hver, read before the snapshot */

/* Reads every rank (the clocks first: a clock read earlier is lower, so
 * never too high) into snap and *G, the earliest event of a message not
 * sent yet, the calling rank's excepted.  Returns -1 if a registration
 * happened during the reading (the snapshot is then not used to go on). */
static int take_snapshot(event *G)
{
	if (snap == NULL && (snap = calloc((size_t)nranks, sizeof *snap)) == NULL)
		return -1;
	if (vers == NULL && (vers = calloc((size_t)nranks, sizeof *vers)) == NULL)
		return -1;
	st.snapshots++;
	wake_seen = atomic_load(&vr_seg.shm->ranks[me].wake);
	hver_seen = atomic_load(&vr_seg.shm->hver);
	for (int r = 0; r < nranks; r++)
		vers[r] = atomic_load(&vr_seg.shm->order[r].ver);
	unsigned long long e0 = atomic_load_explicit(epoch, memory_order_seq_cst);
	for (int r = 0; r < nranks; r++)
		snap[r].vt = atomic_load_explicit(&vr_seg.shm->rank_vt[r], memory_order_acquire);
	for (int r = 0; r < nranks; r++) {
		vr_order *o = &vr_seg.shm->order[r];
		vproc_order_rank *s = &snap[r];
		s->done = atomic_load(&o->done);
		s->blocked = 0;
		s->wake = INF;
		if (s->done || !atomic_load(&o->blocked))
			continue;   /* running: its clock bounds it (read before: lower) */
		/* its term, kept under its lock with its patterns and pending
		 * messages (blocked_term): the wake-up, lock-free.  Read before
		 * the term is written (just blocked), it is the clock: lower,
		 * so safe; a registration that lowers it bumps the epoch. */
		s->blocked = 1;
		s->wake = atomic_load(&vr_seg.shm->term[r]);
	}
	*G = vproc_order_horizon(snap, nranks, me);
	return atomic_load_explicit(epoch, memory_order_seq_cst) == e0 ? 0 : -1;
}

static int past(int r, event G, unsigned long long t, int tie)
{
	return vproc_order_past(snap, r, G, (event){ t, tie });
}

/* Not past: remember whom to sleep on. */
static int not_past(int r, event G, unsigned long long t, event need)
{
	blk_hneed = need;
	blk = vproc_order_blocker(snap, nranks, r, G);
	blk_horizon = blk != r;   /* held by G: wait for G itself */
	blk_rank = r;
	blk_need = t;
	return 0;
}

static int all_past(unsigned long long ready, int all)
{
	event G;
	blk = -2;
	if (take_snapshot(&G) < 0)
		return 0;
	int n = all ? nranks : nsiblings;
	for (int k = 0; k < n; k++) {
		int r = all ? k : siblings[k];
		if (r != me && !past(r, G, ready, me))
			return not_past(r, G, ready, (event){ ready, me });
	}
	return 1;
}

/* One step of waiting, after an unsuccessful check: sleep on our wake
 * word until blk moves (see notify) or the horizon reaches our need, or,
 * blk -1, until anyone wakes us (a message sent to us), at most
 * order_nap_ns() (idle_nap_ns() for a message): what no one announces
 * (the escape's clock) is seen that late.  A receiver of a large buffered
 * send of ours that needs our MPI progress kicks us (bsend.c).  An
 * inconsistent snapshot is taken again after a yield.  Measured on a
 * 96-rank LU (n = 2048, nb = 16) on 2 cores: 2 ms naps timed out 723,000
 * times, 10 ms ones 112,000, and the run's CPU time fell from 137 to 110 s
 * (naps of 10-640 us, no wake-ups: 168 s). */
#define VR_ORDER_NAP_NS 10000000L
/* Above 20 ranks the naps grow with the escape (5 ms a rank): a waiter is
 * woken by the rank it checked or by the horizon, and a rank with nothing
 * pending by the message's sender, so a nap's end is mostly for nothing,
 * a snapshot of every rank each.  192 ranks, LU n = 6144: 381,000
 * time-outs with naps of 10 and 50 ms, 27,000 with 50 and 500 ms, the
 * same times; naps stay well within the escape, which they must see. */
static long order_nap_ns(void)
{
	long ns = escape_ns / 10;
	return ns < VR_ORDER_NAP_NS ? VR_ORDER_NAP_NS : ns > 5 * VR_ORDER_NAP_NS ? 5 * VR_ORDER_NAP_NS : ns;
}

/* ... and with nothing pending for a wildcard receive */
static long idle_nap_ns(void)
{
	long ns = escape_ns / 2;
	return ns < 5 * VR_ORDER_NAP_NS ? 5 * VR_ORDER_NAP_NS : ns;
}

static void unregister(int r)
{
	uint64_t bit = 1ull << (me % 64);
	atomic_fetch_and(&vr_seg.shm->order[r].waiters[me / 64], ~bit);
	atomic_fetch_and(&vr_seg.shm->hwaiters[me / 64], ~bit);
}

/* Sleep until r moves or G reaches our need, whichever comes first (G
 * passing the need passes r too: every bound is at least G).  Returns 0
 * if either happened since the snapshot (then check again at once). */
static int registered(int r)
{
	uint64_t bit = 1ull << (me % 64);
	atomic_store(&vr_seg.shm->order[me].need, blk_need);
	atomic_store(&vr_seg.shm->order[me].hneed, blk_hneed.t);
	atomic_store(&vr_seg.shm->order[me].hneed_rank, blk_hneed.rank);
	atomic_fetch_or(&vr_seg.shm->order[r].waiters[me / 64], bit);
	atomic_fetch_or(&vr_seg.shm->hwaiters[me / 64], bit);
	if (atomic_load(&vr_seg.shm->order[r].ver) != vers[r] ||
	    (atomic_load(&vr_seg.shm->hver) != hver_seen && horizon_reached(blk_hneed))) {
		unregister(r);
		return 0;
	}
	return 1;
}


static void nap(unsigned *iter)
{
	(*iter)++;
	st.naps++;
	vr_bsend_progress();   /* our buffered sends move while we wait */
	if (blk == -2 || blk == me) {
		sched_yield();
		return;
	}
	if (blk >= 0 && !registered(blk_horizon ? blk_rank : blk))
		return;   /* it moved since the snapshot */
	long ns = blk < 0 ? idle_nap_ns() : order_nap_ns();
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
	/* VR_ASLEEP_SEND: the receiver of a buffered send of ours kicks us
	 * (vr_kick) when it needs our progress.  Naps cut to 1 ms while
	 * such sends were out (all the time, in a ring of large broadcasts)
	 * timed out 416,000 times in the 96-rank LU of bench_vclock.sh item
	 * 4; with the kicks alone it ran the same to the nanosecond. */
	/* ... only while we have such sends out (after the progress above),
	 * and not by a receiver whose receive is done (vr_kick_matched):
	 * our buffered sends complete at our next move. */
	uint32_t why = VR_ASLEEP | VR_ASLEEP_ORDER | (vr_bsend_outstanding() ? VR_ASLEEP_SEND : 0);
	unsigned long long t0 = real_ns();
	vr_futex_sleep(why, wake_seen, &ts);
	if (real_ns() - t0 >= (unsigned long long)ns)
		st.timeouts++;
	if (blk >= 0)
		unregister(blk_horizon ? blk_rank : blk);
}

/* The escape's clock runs only while every rank is inside an MPI call
 * (or done): while one computes, the run is moving and waiting for it is
 * the order, however long its compute takes on a loaded computer. */
static int someone_computing(void)
{
	for (int r = 0; r < nranks; r++)
		if (r != me && atomic_load_explicit(&vr_seg.shm->order[r].computing, memory_order_relaxed) &&
		    !atomic_load_explicit(&vr_seg.shm->order[r].done, memory_order_relaxed))
			return 1;
	return 0;
}

/* Any rank's ver (its clock, its state) or the epoch (a message sent)
 * moved since the last call: the run is moving.  With naps of 10 ms, the
 * computing flags alone, sampled at each wake-up, missed the computing in
 * between: a 96-rank LU escaped 54 times.  Every bump of a ver (notify)
 * comes with one of hver (horizon_rose), so hver stands for them all: two
 * words read, not every rank's at each turn of a wait. */
static int moved(void)
{
	static unsigned long long last = INF;
	unsigned long long sig = atomic_load(epoch) + atomic_load(&vr_seg.shm->hver);
	int m = sig != last;
	last = sig;
	return m;
}

void vr_order_computing(int yes)
{
	if (enabled)
		atomic_store_explicit(&vr_seg.shm->order[me].computing, yes, memory_order_relaxed);
}

/* Read /proc/PID/NAME into buf; 0 if it is not there (the rank is gone). */
static int read_proc(int pid, const char *name, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/%s", pid, name);
	int fd = pid > 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0;
}

/* 1 if rank r is runnable: not asleep in a wait, so it will move once it
 * has a processor.  Read from the kernel (/proc/PID/stat's state 'R'),
 * not from the segment: a rank preempted on a computer that other
 * programs load stays runnable for long. */
static int rank_runnable(int r)
{
	char buf[512];
	if (!read_proc(atomic_load(&vr_seg.shm->ranks[r].pid), "stat", buf, sizeof buf))
		return 0;
	char *end = strrchr(buf, ')');   /* the name may hold spaces and ')' */
	return end != NULL && end[1] == ' ' && end[2] == 'R';
}

/* The processor time rank r has had, in ns (/proc/PID/schedstat's first
 * field); 0 if unknown. */
static unsigned long long rank_run_ns(int r)
{
	char buf[128];
	int pid = atomic_load(&vr_seg.shm->ranks[r].pid);
	return read_proc(pid, "schedstat", buf, sizeof buf) ? strtoull(buf, NULL, 10) : 0;
}

/*
 * The escape is due after escape_ns of nothing moved when no other rank is
 * runnable: the job waits on itself in a way the clocks do not see.  While
 * one is, it is due once such a rank has had escape_ns of processor time
 * since (a rank spinning inside MPI for a message the clocks do not see:
 * about as soon), or after 100 escape_ns: on a computer other programs
 * load, a rank that only lacks a processor gets one, and its move comes.
 * With the rank waited on alone looked at (ten times escape_ns of wall
 * while it was runnable), case 49 of the soak (36 ranks, Open MPI) had
 * escapes in at least 3 of 20 runs at load 40-200 (other jobs'
 * emulations); the rank waited on was asleep, behind one that lacked a
 * processor.  Every rank looked at: 0 of 30 at load 19-165.  The scan
 * reads two files a rank, at most every escape_ns / 4.
 */
static struct {
	unsigned long long t0, next;   /* the wait the bases are of; next scan */
	unsigned long long *run0;      /* each rank's processor time then */
	int due;
} esc;

static int scan_says_due(unsigned long long e)
{
	int runnable = 0, spun = 0;
	for (int r = 0; r < nranks; r++) {
		if (r == me || atomic_load_explicit(&vr_seg.shm->order[r].done, memory_order_relaxed))
			continue;
		unsigned long long run = rank_run_ns(r);
		if (run < esc.run0[r])
			esc.run0[r] = run;
		if (rank_runnable(r)) {
			runnable = 1;
			spun |= run - esc.run0[r] >= e;
		}
	}
	return !runnable || spun;
}

static int escape_after(unsigned long long now, unsigned long long t0)
{
	unsigned long long waited = now - t0, e = (unsigned long long)escape_ns;
	if (waited <= e)
		return 0;
	if (waited > 100 * e || blk == me)
		return waited > 10 * e;   /* blk == me: held by the horizon at our own event */
	if (esc.run0 == NULL && (esc.run0 = calloc((size_t)nranks, sizeof *esc.run0)) == NULL)
		return 1;
	if (esc.t0 != t0) {   /* a new wait: its bases, and the first scan at once */
		esc.t0 = t0, esc.next = now;
		for (int r = 0; r < nranks; r++)
			esc.run0[r] = rank_run_ns(r);
	}
	if (now >= esc.next) {
		esc.due = scan_says_due(e);
		esc.next = now + e / 4;
	}
	return esc.due;
}

static void escaped(void)
{
	atomic_fetch_add(&vr_seg.shm->out_of_order, 1);
	if (getenv("HETLAUNCH_VORDER_DEBUG"))
		fprintf(stderr, "vorder: %d escaped: blk %d (rank %d, horizon %d)\n", me, blk, blk_rank,
		        blk_horizon);
}

/* HETLAUNCH_VORDER_DEBUG=1: a booking that has waited 1 s prints the
 * snapshot (every rank's clock, state, patterns and pending messages) and
 * the ranks it waits for to stderr, the run's log: how the cycles that
 * buffered sends and eager shadows removed were found. */
static void debug_escape(unsigned long long ready, int all)
{
	if (!getenv("HETLAUNCH_VORDER_DEBUG"))
		return;
	event G;
	int cons = take_snapshot(&G);
	fprintf(stderr, "vorder: %d at %llu all %d consistent %d G %llu/%d nsib %d\n", me, ready, all, cons, G.t, G.rank, nsiblings);
	for (int r = 0; r < nranks; r++) {
		vr_order *o = &vr_seg.shm->order[r];
		fprintf(stderr, "vorder: %d at %llu: rank %d machine %d vt %llu blocked %d doing %d npat %u pat0 %d/%d/%d npend %u",
		        me, ready, r, vr_seg.shm->rank_machine[r], snap[r].vt, snap[r].blocked, atomic_load(&o->doing),
		        o->npat, o->pat[0].chan, o->pat[0].src, o->pat[0].stag, o->npending + vr_seg.shm->spill[r].n);
		for (uint32_t k = 0; k < o->npending; k++)
			fprintf(stderr, " [%llu %d/%d/%d]", o->pending[k].arrival, o->pending[k].chan,
			        o->pending[k].src, o->pending[k].stag);
		fprintf(stderr, "\n");
	}
	int n = all ? nranks : nsiblings;
	for (int k = 0; k < n; k++) {
		int r = all ? k : siblings[k];
		if (r != me && !past(r, G, ready, me))
			fprintf(stderr, "vorder: %d at %llu waits for %d: vt %llu blocked %d wake %llu G %llu/%d doing %d\n",
			        me, ready, r, snap[r].vt, snap[r].blocked, snap[r].wake, G.t, G.rank,
			        atomic_load(&vr_seg.shm->order[r].doing));
	}
}

void vr_order_book(unsigned long long ready, int all)
{
	if (!enabled)
		return;
	if (!all && nsiblings <= 1)
		return;
	unsigned iter = 0;
	unsigned long long t0 = 0;
	st.bookings++;
	atomic_store(&vr_seg.shm->order[me].doing, 1);
	int dbg = 0;
	while (!all_past(ready, all)) {
		unsigned long long now = real_ns();
		int m = moved();
		if (m || t0 == 0 || someone_computing())
			t0 = now;
		else if (now - t0 > 1000000000ull && !dbg) {
			dbg = 1;
			debug_escape(ready, all);
		} else if (escape_after(now, t0)) {
			escaped();
			break;
		}
		st.booking_naps++;
		nap(&iter);
	}
	atomic_store(&vr_seg.shm->order[me].doing, 0);
}

/* For the stall watchdog (shm_layout.h): the call we are in, copied only
 * when it changes (a pointer compare per call). */
void vr_order_call(const char *name)
{
	static const char *last;
	if (vr_seg.shm == NULL || me < 0 || name == last)
		return;
	last = name;
	char *to = vr_seg.shm->call[me];
	size_t k = 0;
	for (; name[k] && k + 1 < VR_CALL_NAME; k++)
		to[k] = name[k];
	to[k] = '\0';
}

void vr_order_doing(int what)
{
	if (vr_seg.shm != NULL && me >= 0)
		atomic_store(&vr_seg.shm->order[me].doing, what);
}

/* ---- wildcard receives ---------------------------------------------------- */

int vr_order_enabled(void)
{
	return enabled;
}

/* The earliest matching pending message for us: its arrival (INF: none),
 * source and tag. */
static unsigned long long earliest_from(int chan, int src, int stag, int *bsrc, int *btag)
{
	vr_order *o = &vr_seg.shm->order[me];
	vr_pattern q = { chan, src, stag };
	unsigned long long best = INF;
	*bsrc = -1;
	lock(&o->lock);
	const vr_pending *p;
	uint32_t n;
	for (int32_t it = -1; (p = next_piece(me, &it, &n)) != NULL;)
		for (uint32_t k = 0; k < n; k++)
			if (vproc_pattern_matches(&q, &p[k]) &&
			    (p[k].arrival < best || (p[k].arrival == best && p[k].src < *bsrc))) {
				best = p[k].arrival;
				*bsrc = p[k].src;
				*btag = p[k].stag;
			}
	unlock(&o->lock);
	return best;
}

/* 1 if a message from world rank src is pending for us (registered by
 * its sender, not yet received), or if we cannot know: the order off, or
 * a registration lost to a full pool. */
int vr_order_pending_from(int src)
{
	if (!enabled)
		return 1;
	vr_order *o = &vr_seg.shm->order[me];
	int found = atomic_load(&o->overflow) != 0;
	lock(&o->lock);
	const vr_pending *p;
	uint32_t n;
	for (int32_t it = -1; !found && (p = next_piece(me, &it, &n)) != NULL;)
		for (uint32_t k = 0; k < n && !found; k++)
			found = p[k].src == src;
	unlock(&o->lock);
	return found;
}

static unsigned long long earliest(int chan, int stag, int *bsrc, int *btag)
{
	return earliest_from(chan, -1, stag, bsrc, btag);
}

/* The earliest matching pending message for us, and whether no other rank
 * (of the communicator, members; NULL: every rank) can still send one that
 * arrives before it.  Returns 1 (chosen, safe), 0 (not yet), -1 (nothing
 * pending). */
int vr_order_pick(int chan, int stag, const int *members, int nmembers, int *src, int *tag,
                  int *safe)
{
	event G;
	int bsrc = -1, btag = -1;
	blk = -1;   /* nothing pending: until a message is sent to us (vr_order_sent) */
	wake_seen = atomic_load(&vr_seg.shm->ranks[me].wake);
	if (earliest(chan, stag, &bsrc, &btag) == INF)
		return -1;   /* no snapshot needed */
	/* the snapshot before the pending list: a message registered after
	 * it has its sender excluded (chosen) or arrives after the chosen */
	blk = -2;
	int consistent = take_snapshot(&G) == 0;
	unsigned long long best = earliest(chan, stag, &bsrc, &btag);
	*src = bsrc;
	*tag = btag;
	*safe = consistent;
	st.picks++;
	/* only the communicator's members can send on its channel (their
	 * bounds hold what the others may make them do, through G).  A
	 * message arrives at least 1 ns after its sender's clock (vclock.c,
	 * send_time), so a rank whose bound is best or later cannot send one
	 * that arrives by best: it is past (best - 1, any rank).  Comparing
	 * with (best, bsrc) instead, two wildcard receivers whose matching
	 * messages arrive at the same best each waited for the other (bound
	 * best, a lower rank than bsrc) until the escape: 58 to 328 times a
	 * run in 000 Fig 17's 2D QR on Table 3. */
	int n = members ? nmembers : nranks;
	for (int k = 0; k < n && *safe; k++) {
		int r = members ? members[k] : k;
		if (r != me && r != bsrc && !past(r, G, best ? best - 1 : 0, nranks))
			*safe = not_past(r, G, best, (event){ best ? best - 1 : 0, nranks });
	}
	/* the chosen sender's next message comes after this one */
	if (!*safe)
		st.unsafe++;
	return 1;
}

int vr_order_escape_due(unsigned long long *t0)
{
	unsigned long long now = real_ns();
	int m = moved();
	if (m || *t0 == 0 || someone_computing()) {
		*t0 = now;
		return 0;
	}
	return escape_after(now, *t0);
}

void vr_order_escaped(void)
{
	escaped();
}

void vr_order_nap(unsigned *iter)
{
	nap(iter);
}

/*
 * A poll (MPI_Iprobe) at virtual time vt, from *srcp (a world rank; -1:
 * any member): 1 if a matching message pending for us arrives by vt (MPI
 * will show it; the earliest's source and tag in *srcp, *tagp), 0 if none can (every possible sender is past vt - 1: a
 * message arrives at least 1 ns after its sender's clock), -1 not yet
 * known (then vr_order_nap sleeps on the rank that holds it back).  The
 * answer depends on virtual time only, not on when MPI delivers.
 */
int vr_order_poll(int chan, int stag, int *srcp, int *tagp, const int *members, int nmembers,
                  unsigned long long vt)
{
	event G;
	int src = *srcp;
	blk = -2;
	if (take_snapshot(&G) < 0)
		return -1;
	if (earliest_from(chan, src, stag, srcp, tagp) <= vt)
		return 1;
	int n = src >= 0 ? 1 : members ? nmembers : nranks;
	for (int k = 0; k < n; k++) {
		int r = src >= 0 ? src : members ? members[k] : k;
		if (r != me && !past(r, G, vt ? vt - 1 : 0, nranks))
			return not_past(r, G, vt, (event){ vt ? vt - 1 : 0, nranks });
	}
	return 0;
}
