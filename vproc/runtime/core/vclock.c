/*
 * vclock.c -- emulate: {clock: virtual}: every rank keeps a
 * virtual clock, and nothing sleeps.
 *
 * Compute: the work of a segment (the same charge as the real-time
 * emulator: DGEMM by its flops, the rest by scaled CPU time, emu.c) is
 * booked on its machine's processor calendar from the rank's clock on
 * (vproc/model/calendar.c: siblings share the processor in virtual time), and the
 * clock moves to the end of the booking.
 *
 * Messages: before a message leaves, the sender books its port (or the
 * bus) in virtual time, moves its clock to the end of the transfer (the
 * one-port model holds the sender while the bytes go out, 003 s2.2) and
 * sends the arrival time -- send + bytes / bandwidth + latency, after the
 * contention -- as a stamp: one 8-byte message ahead of the data on a
 * duplicate of the communicator (same destination, same tag; for our own
 * collectives on the shadow communicator, tag + VR_STAMP_TAG), so that it
 * can never match a user's receive and pairs with its data by MPI's
 * non-overtaking rule.  When the data is in, the receiver takes the stamp
 * from (source, tag) of the status and moves its clock to
 * max(clock, arrival).  Messages between processes of one machine arrive
 * at the sender's clock.
 *
 * The clocks the program reads -- MPI_Wtime, clock_gettime on the wall
 * clocks and gettimeofday -- are the rank's virtual clock (the bindings:
 * p2p.c, clock.c).
 */
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "state.h"
#include "model/shm_layout.h"

static unsigned long long vt;       /* this rank's clock, ns since MPI_Init */
static int *siblings;               /* world ranks on my machine */
static int nsiblings;

unsigned long long vr_vt_ns(void)
{
	return vt;
}

static void publish(void)
{
	atomic_store_explicit(&vr_seg.shm->rank_vt[vr_seg.world_rank], vt, memory_order_relaxed);
	vr_order_moved(vt);   /* wake the ranks waiting for our clock (vorder.c) */
}

void vr_vt_init(void)
{
	int machine = vr_seg.machine_index;   /* emu.c's, in vr_seg */
	vt = 0;
	vr_seg.virtual_clock = 1;
	siblings = malloc(vr_seg.shm->nranks * sizeof *siblings);
	for (uint32_t r = 0; siblings && r < vr_seg.shm->nranks; r++)
		if (vr_seg.shm->rank_machine[r] == machine)
			siblings[nsiblings++] = (int)r;
	publish();
	vr_order_init(siblings, siblings ? nsiblings : 0);
	vr_wait_virtual();
}

/* ---- calendars in the segment ---------------------------------------- */

static void lock(_Atomic int *l)
{
	while (atomic_exchange_explicit(l, 1, memory_order_acquire))
		sched_yield();   /* the holder may be descheduled: 2 cores, many ranks */
}

static void unlock(_Atomic int *l)
{
	atomic_store_explicit(l, 0, memory_order_release);
}

/* The earliest clock of the ranks that may book this calendar. */
static unsigned long long horizon(int all)
{
	unsigned long long h = ~0ull;
	int n = all ? (int)vr_seg.shm->nranks : nsiblings;
	for (int k = 0; k < n; k++) {
		unsigned long long t = atomic_load_explicit(&vr_seg.shm->rank_vt[all ? k : siblings[k]],
		                                            memory_order_relaxed);
		if (t < h)
			h = t;
	}
	return h;
}

/* Book on a calendar of the segment: compute (split around busy time) or
 * a transfer (one piece).  Returns the end of the compute or the start of
 * the transfer. */
static unsigned long long book(_Atomic int *l, uint32_t *n, unsigned long long *dropped,
                               vproc_interval *iv, size_t cap, int all, int transfer,
                               unsigned long long ready, unsigned long long len)
{
	lock(l);
	vproc_calendar c = { *n, *dropped, iv, cap };
	if (c.n > cap / 2)
		vproc_cal_forget(&c, horizon(all));
	unsigned long long t = transfer ? vproc_cal_transfer(&c, ready, len)
	                                : vproc_cal_compute(&c, ready, len);
	*n = (uint32_t)c.n;
	*dropped = c.dropped;
	unlock(l);
	return t;
}

void vr_vt_compute(unsigned long long work)
{
	if (work == 0)
		return;
	vr_cal *c = &vr_seg.shm->cpu_cal[vr_seg.machine_index];
	vr_order_book(vt, 0);   /* in virtual-time order among the siblings */
	vt = book(&c->lock, &c->n, &c->dropped, c->iv, VR_CAL_CAP, 0, 0, vt, work);
	publish();
}

/* ---- messages -------------------------------------------------------- */

/* The arrival time of `bytes` sent now to world rank `w`; moves our clock
 * to the end of the transfer. */
static unsigned long long send_time(int w, unsigned long long bytes)
{
	/* Every message arrives at least 1 ns after its sender's clock, one
	 * between siblings too (1 ns is the clock's tick): then a rank whose
	 * bound is t sends nothing that arrives before t + 1, and two wildcard
	 * receivers whose pending messages arrive at the same t need not wait
	 * for each other (vorder.c, vr_order_pick). */
	int m = vr_seg.shm->rank_machine[w];
	if (m == vr_seg.machine_index)
		return vt + 1;
	vr_machine *me = &vr_seg.shm->machines[vr_seg.machine_index];
	unsigned long long arrival, free_at = vt;
	if (vr_seg.shm->flags & VR_FLAG_LINKS) {
		/* 004 s2: the pair's own link, no shared port */
		double ns = 0.0;
		if (vr_seg.machine_index < VR_MAX_LINKED && m < VR_MAX_LINKED)
			ns = (double)bytes * vr_seg.shm->link_ns_per_byte[vr_seg.machine_index * VR_MAX_LINKED + m];
		free_at = arrival = vt + (unsigned long long)(ns > 0 ? ns + 0.5 : 0);
	} else if (vr_seg.shm->flags & VR_FLAG_BUS) {
		vr_bus_cal *b = &vr_seg.shm->bus_cal;
		unsigned long long wire = vr_seg.shm->bus_bytes_per_s > 0
			? (unsigned long long)((double)bytes / vr_seg.shm->bus_bytes_per_s * 1e9 + 0.5) : 0;
		if (wire)
			vr_order_book(vt, 1);   /* every rank may book the bus */
		unsigned long long start = wire ? book(&b->lock, &b->n, &b->dropped, b->iv,
		                                       VR_BUS_CAL_CAP, 1, 1, vt, wire) : vt;
		free_at = start + wire;
		arrival = free_at + (unsigned long long)vr_seg.shm->bus_latency_ns;
	} else {
		vr_cal *p = &vr_seg.shm->port_cal[vr_seg.machine_index];
		unsigned long long wire = me->bytes_per_s > 0
			? (unsigned long long)((double)bytes / me->bytes_per_s * 1e9 + 0.5) : 0;
		if (wire)
			vr_order_book(vt, 0);
		unsigned long long start = wire ? book(&p->lock, &p->n, &p->dropped, p->iv,
		                                       VR_CAL_CAP, 0, 1, vt, wire) : vt;
		free_at = start + wire;
		arrival = free_at + (unsigned long long)me->latency_ns;
	}
	atomic_fetch_add(&me->messages, 1);
	atomic_fetch_add(&me->bytes, bytes);
	atomic_fetch_add(&me->wire_ns, free_at - vt);
	vt = free_at;
	publish();
	/* after the clock moved: with no latency the arrival would be the
	 * sender's new bound (zero latency_us, network: links) */
	return arrival > vt ? arrival : vt + 1;
}

int vr_vt_send(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type)
{
	if (dest == MPI_PROC_NULL)
		return 0;
	MPI_Comm sc;
	int stag, chan;
	int w = vr_world_rank(comm, dest);
	if (w < 0 || (unsigned)w >= vr_seg.shm->nranks || vr_stamp_chan(comm, tag, &sc, &stag, &chan) < 0) {
		atomic_fetch_add(&vr_seg.shm->unstamped, 1);
		return 0;
	}
	int tsize = 0;
	PMPI_Type_size(type, &tsize);
	unsigned long long bytes = count > 0 && tsize > 0 ? (unsigned long long)count * (unsigned)tsize : 0;
	/* the stamp: when the message arrives, and its bytes, which the
	 * message itself may not carry (bsend.c sends data no one reads
	 * empty, VR_FLAG_DATA_UNREAD) */
	unsigned long long stamp[2] = { send_time(w, bytes), bytes }, arrival = stamp[0];
	vr_order_sent(w, chan, stag, arrival);   /* before the stamp leaves (vorder.c) */
	/* Buffered, as the data (bsend.c): even 8 bytes can need the
	 * receiver's progress (UCX's first message to a peer, a full FIFO),
	 * and a receiver waiting for the order in vorder.c makes none, so a
	 * blocking stamp send held its sender, and the siblings that waited
	 * for its clock, until the escape (the 9-rank QR of
	 * tests/e2e/skip_test.sh: 5 to 72 escapes a run, once a time 6.5%
	 * off). */
	MPI_Request r;
	if (vr_bsend(stamp, 2, MPI_UNSIGNED_LONG_LONG, dest, stag, sc, &r, 0) == MPI_SUCCESS &&
	    r != MPI_REQUEST_NULL)
		vr_wait(&r, MPI_STATUS_IGNORE);   /* not buffered (no memory): sent */
	return 1;
}

/* A message sent empty (bsend.c) counts its bytes, as sent, in the
 * status the program gets.  (A receive posted for fewer bytes would have
 * failed with MPI_ERR_TRUNCATE had they been sent; hl-driver's never
 * are.) */
static void count_sent(MPI_Status *st, unsigned long long bytes)
{
	int n = 0;
	if (bytes > 0 && bytes <= INT_MAX && PMPI_Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS && n == 0)
		PMPI_Status_set_elements(st, MPI_BYTE, (int)bytes);
}

void vr_vt_recv(MPI_Comm comm, MPI_Status *st)
{
	if (st->MPI_SOURCE < 0 || st->MPI_SOURCE == MPI_PROC_NULL)
		return;
	MPI_Comm sc;
	int stag, chan;
	if (vr_stamp_chan(comm, st->MPI_TAG, &sc, &stag, &chan) < 0)
		return;
	unsigned long long stamp[2] = { 0, 0 };   /* arrival, bytes */
	PMPI_Recv(stamp, 2, MPI_UNSIGNED_LONG_LONG, st->MPI_SOURCE, stag, sc, MPI_STATUS_IGNORE);
	unsigned long long arrival = stamp[0];
	if (vr_seg.shm->flags & VR_FLAG_DATA_UNREAD)
		count_sent(st, stamp[1]);
	unsigned long long t = vproc_vclock_receive(vt, arrival);
	if (vr_seg.shm->flags & VR_FLAG_LINKS) {
		/* the receiver pays the link back (emu.c, network: links) */
		int w = vr_world_rank(comm, st->MPI_SOURCE);
		if (w >= 0 && (unsigned)w < vr_seg.shm->nranks && vr_seg.shm->rank_machine[w] != vr_seg.machine_index &&
		    vr_seg.machine_index < VR_MAX_LINKED && vr_seg.shm->rank_machine[w] < VR_MAX_LINKED)
			t += (unsigned long long)((double)stamp[1] * vr_seg.shm->link_ns_per_byte[
				vr_seg.machine_index * VR_MAX_LINKED + vr_seg.shm->rank_machine[w]] + 0.5);
	}
	if (t > vt)
		vr_wait_add((double)(t - vt) * 1e-9);
	vt = t;
	publish();
	/* after the clock moved: the entry kept our bound up to here */
	vr_order_received(vr_world_rank(comm, st->MPI_SOURCE), chan, stag, arrival);
}

/* The time base of the program's wall clocks (bindings/clock.c). */
unsigned long long vr_vt_base_ns(int realtime)
{
	return realtime ? vr_seg.shm->real_base_ns : vr_seg.shm->mono_base_ns;
}
