/*
 * model.h -- the emulation model (vproc/model/): the arithmetic of the
 * emulated cluster, of cooperative waiting and of the virtual clock: an emulated
 * run in which every rank keeps its own clock, advanced by the compute it
 * is charged and by the messages it receives, so that nothing sleeps and a
 * run's times do not depend on what else this computer does.
 *
 * A calendar is the busy time of one shared resource in virtual time: a
 * machine's processor (its virtual processes share it, 000 s2), a
 * machine's port (the one-port model, 003 s2.2) or the shared bus (000 s5).
 * It is a sorted array of disjoint busy intervals [start, end) in ns.
 * A booking fills the earliest free time at or after its own clock, so a
 * booking that comes late still finds the gaps the others left.  The
 * runtime makes bookings come in virtual-time order (vproc_order_* below),
 * which decides the share-out of overlapping demands;
 * out of order (its real-time escape), only that share-out changes, not
 * the total busy time.
 *
 * Pure: the runtime (vproc/runtime/core/vclock.c) keeps the calendars in shared
 * memory under a lock.
 */
#ifndef VPROC_MODEL_H
#define VPROC_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

typedef struct {
	unsigned long long start, end;   /* [start, end), ns of virtual time */
} vproc_interval;

typedef struct {
	size_t n;                        /* intervals in use, sorted, disjoint */
	size_t dropped;                  /* intervals lost to a full calendar */
	vproc_interval *iv;              /* [cap] */
	size_t cap;
} vproc_calendar;

/*
 * vproc_cal_compute -- book `work` ns of a processor from `ready` on,
 * preemptively: the work fills the free gaps after `ready` (a processor
 * time-slices its processes).  Returns when the work ends.
 *   cal    [in,out] the machine's calendar
 *   ready  [in]     the booking process's clock
 *   work   [in]     its charged compute, ns (0: returns ready)
 */
unsigned long long vproc_cal_compute(vproc_calendar *cal, unsigned long long ready,
                                     unsigned long long work);

/*
 * vproc_cal_transfer -- book `wire` ns of a port or bus in one piece (a
 * message goes out contiguously): the earliest gap at or after `ready`
 * that holds it.  Returns the start of the transfer.
 */
unsigned long long vproc_cal_transfer(vproc_calendar *cal, unsigned long long ready,
                                      unsigned long long wire);

/* Forget the intervals that end at or before `horizon` (no process can book
 * before its own clock, and none of them is earlier than `horizon`). */
void vproc_cal_forget(vproc_calendar *cal, unsigned long long horizon);

/*
 * vproc_vclock_message -- one message between two machines:
 *   port_cal [in,out] the sender's port, or the bus (NULL: no contention)
 *   send     [in]     the sender's clock when it sends
 *   latency  [in]     ns, of the wire (not of the port: the next message
 *                     may leave before this one arrives)
 *   bytes_per_s [in]  the port's bandwidth; <= 0: infinite
 *   bytes    [in]     the message size
 *   sender_free [out] when the sender's port is done (its clock after a
 *                     send: the one-port model holds the sender while the
 *                     bytes go out)
 * Returns the arrival time: start + bytes / bandwidth + latency.
 */
unsigned long long vproc_vclock_message(vproc_calendar *port_cal, unsigned long long send,
                                        unsigned long long latency, double bytes_per_s,
                                        unsigned long long bytes,
                                        unsigned long long *sender_free);

/* The receiver's clock after the message is in: max(clock, arrival). */
unsigned long long vproc_vclock_receive(unsigned long long clock, unsigned long long arrival);

/*
 * Booking in virtual-time order (vproc/model/order_bounds.c; the runtime's
 * vproc/runtime/core/vorder.c keeps the states in shared memory).  An event is a
 * virtual time and the rank whose event it is: events at one time go by
 * rank.  A rank books a calendar at (ready, me) only when every rank that
 * may book it is past that event.
 */
typedef struct {
	unsigned long long t;
	int rank;
} vproc_event;

typedef struct {
	unsigned long long vt;    /* its clock: it books and sends at or after it */
	unsigned long long wake;  /* blocked: when the pending messages its wait
	                           * matches can end it (vproc_wait_wake), or
	                           * ~0ull if they cannot */
	int blocked;              /* waiting in receives: only messages end it */
	int done;                 /* past its last booking */
} vproc_order_rank;

#define VPROC_NEVER (~0ull)

/* A message registered as pending in its receiver's slot (the runtime's
 * shared segment: vproc/model/shm_layout.h), and a receive a blocked
 * rank waits for (src, stag: -1 for any). */
typedef struct {
	unsigned long long arrival;
	int32_t chan;        /* the stamp channel (the same in every member) */
	int32_t src;         /* world rank of the sender */
	int32_t stag;        /* the stamp's tag */
	int32_t pad;
} vproc_pending;
typedef struct {
	int32_t chan, src, stag;
} vproc_pattern;

/* Does pending message p match receive q? */
int vproc_pattern_matches(const vproc_pattern *q, const vproc_pending *p);

/*
 * vproc_wait_wake -- when a blocked rank's wait can end, from the messages
 * pending for it.  Every receive the wait names needs its message (the
 * runtime publishes these patterns for MPI_Wait, Waitall, Sendrecv, Recv
 * and the collectives' receives; an any-of wait has its own, below), so: the latest
 * over the patterns of each one's earliest matching arrival; VPROC_NEVER
 * while a pattern has none, or with no pattern.  A message matching two
 * patterns counts for both: the result may come out early, never late (a
 * bound too low only holds the others back; one too high would break the
 * order).  The earliest over all the patterns made a Waitall
 * with two of its three messages pending look awake at its clock, and
 * hl-mmm's runs escaped the order 50-400 times each.
 */
unsigned long long vproc_wait_wake(const vproc_pattern *pat, uint32_t npat,
                                   const vproc_pending *pend, uint32_t npend);

/*
 * vproc_wait_wake_any -- the same for an any-of wait (MPI_Waitany on
 * receives only): the first of its receives to have a message ends it, so
 * the earliest matching arrival over all the patterns; VPROC_NEVER while
 * none has one, or with no pattern.
 */
unsigned long long vproc_wait_wake_any(const vproc_pattern *pat, uint32_t npat,
                                       const vproc_pending *pend, uint32_t npend);

/*
 * The same over pending messages kept in pieces (the runtime's list and
 * its pool's chunks): vproc_wait_first lowers first[j] to the earliest
 * arrival in pend matching pat[j] (first[] starts at VPROC_NEVER), and
 * vproc_wait_join gives the wake-up from them: their latest (any: their
 * earliest); VPROC_NEVER while one is (any: all are), or with no pattern.
 * A wait publishes at most VPROC_WAIT_PATTERNS_MAX patterns (the two above
 * give 0, early, with more).
 */
#define VPROC_WAIT_PATTERNS_MAX 64
void vproc_wait_first(const vproc_pattern *pat, uint32_t npat, const vproc_pending *pend,
                      uint32_t npend, unsigned long long *first);
unsigned long long vproc_wait_join(const unsigned long long *first, uint32_t npat, int any);

/* a before b: earlier, or at the same time by a lower rank */
int vproc_event_before(vproc_event a, vproc_event b);

/* The earliest event of a message not sent yet: the running ranks' clocks
 * and the blocked ranks' matching pending arrivals, rank `me` excepted (what
 * it sends comes after the event it is deciding).  {VPROC_NEVER, n} if
 * nothing can happen. */
vproc_event vproc_order_horizon(const vproc_order_rank *ranks, int n, int me);

/* The earliest event rank r may still have: its clock while it runs; when
 * blocked, its wake-up -- the earlier of its matching pending messages and
 * the horizon g -- but not before its clock; never when done. */
vproc_event vproc_order_bound(const vproc_order_rank *ranks, int r, vproc_event g);

/* Can rank r no longer do anything before event e?  (A bound equal to e is
 * e's own rank's event: what follows from it comes after.) */
int vproc_order_past(const vproc_order_rank *ranks, int r, vproc_event g, vproc_event e);

/* The rank whose next move can raise r's bound: r itself while it runs or
 * while its own clock or a pending message bounds it; the horizon's rank
 * when the horizon does.  A rank waiting for r to be past an event sleeps
 * until that rank moves (woken, not polling). */
int vproc_order_blocker(const vproc_order_rank *ranks, int n, int r, vproc_event g);

/* ------------------------------------------------------------------------
 * emulate.c -- the arithmetic of the emulated cluster.  Times are
 * integer nanoseconds on one clock (CLOCK_MONOTONIC in the runtime), so that
 * the shared state can be updated with one compare-and-swap.
 * ------------------------------------------------------------------------ */

/*
 * A machine is one processor (000 s2: "each processor P_i"); its virtual
 * processes share it.  vproc_emu_charge books `work` ns of its time for a
 * compute segment that became ready at `ready`: the machine serves its
 * processes one at a time, in the order they ask (first come, first
 * served), so siblings' compute serializes and a lone sibling gets the
 * whole machine.
 *   busy_until [in]  when the machine finishes what it has already booked
 *   ready      [in]  when the segment could start (its process left MPI)
 *   work       [in]  its emulated duration: CPU time x the machine's scale
 *   returns    the segment's end; the caller stores it as the new busy_until
 */
unsigned long long vproc_emu_charge(unsigned long long busy_until, unsigned long long ready,
                                    unsigned long long work);

/* Emulated duration of a compute segment: cpu_ns x scale, rounded. */
unsigned long long vproc_emu_work(unsigned long long cpu_ns, double scale);

/*
 * The one-port model (003 s2.2): a machine's port sends one message at a
 * time; a message of `bytes` occupies it for bytes/bandwidth and arrives a
 * latency later.  With a shared bus (000 s5: a 100 Mb/s hub) every port is
 * the same port.
 *   port_free  [in]  when the port (or the bus) finishes its booked messages
 *   now        [in]  when the message is posted
 *   latency_ns [in]  >= 0
 *   bytes_per_s [in] > 0; 0 means infinite (a free network)
 *   free_out   [out] the port's new port_free
 *   returns    the arrival time of the message
 */
unsigned long long vproc_emu_send(unsigned long long port_free, unsigned long long now,
                                  unsigned long long latency_ns, double bytes_per_s,
                                  unsigned long long bytes, unsigned long long *free_out);

/*
 * The emulated speeds ("absolute speed"): machine i runs at
 * K / t_i Mflop/s.  With mflops_ref > 0, a machine of cycle time t_ref runs
 * at mflops_ref (K = mflops_ref t_ref).  Otherwise K is the largest value
 * with which the whole cluster asks at most half of this computer
 * (sum_i K / t_i <= host_mflops x cores / 2) and no machine asks more than
 * a quarter of a core (K / t_i <= host_mflops / 4).
 *   scale [out] p factors: emulated seconds per CPU second of this host,
 *               host_mflops t_i / K
 *   K     [out] the constant chosen
 * VPROC_EINVAL if a machine would be faster than this host (scale < 1):
 * one process cannot run faster than the core it runs on.
 */
vproc_status vproc_emu_speeds(size_t p, const double *t, double host_mflops, unsigned cores,
                              double mflops_ref, double t_ref, double *scale, double *K);

/* ------------------------------------------------------------------------
 * wait_step.c -- cooperative waiting's choice after an unsuccessful test
 *, for the runtime's blocking calls.
 * ------------------------------------------------------------------------ */

typedef enum {
	VPROC_WAIT_POLL,        /* test again at once */
	VPROC_WAIT_YIELD,       /* yield the processor, then test */
	VPROC_WAIT_PEER_YIELD,  /* the same, counted as a yield to the peer */
	VPROC_WAIT_SLEEP        /* sleep until woken or the nap ends */
} vproc_wait_action;

typedef struct {
	unsigned spins;         /* polls first, while not crowded */
	unsigned yields;        /* then yields, while not crowded */
	unsigned peer_yields;   /* crowded: yields at most, while the peer is awake */
} vproc_wait_policy;

/*
 * Crowded: more awake processes than processors.
 *   awake [in] processes of this computer not asleep; < 0 unknown (never
 *              crowded)
 *   cpus  [in] this computer's processors; 0 unknown (never crowded)
 */
int vproc_wait_crowded(int awake, int cpus);

/*
 * The action of a wait's next step.  Crowded (vproc_wait_crowded): no
 * polls and no plain yields, only yields while the awaited peer is awake,
 * up to pol->peer_yields.
 *   steps       [in] unsuccessful tests so far in this wait, peer yields not
 *                    counted
 *   peer_yields [in] peer yields so far in this wait
 *   crowded     [in] vproc_wait_crowded's answer
 *   peer_awake  [in] 1 if the peer the wait depends on is known and awake
 *                    (read only when crowded)
 */
vproc_wait_action vproc_wait_step(const vproc_wait_policy *pol, unsigned steps,
                                  unsigned peer_yields, int crowded, int peer_awake);

/* The sleep's length index: 0 for the first sleep after the polls and
 * yields, growing by one every 4 steps (the caller doubles its nap). */
unsigned vproc_wait_nap_index(const vproc_wait_policy *pol, unsigned steps);

/* Under the virtual clock, the shortest sleep of a wait in a job of
 * nranks ranks: 1 ms per 16 ranks, at least 1 ms, at most 10 ms. */
long vproc_wait_virtual_nap_ns(int nranks);

#endif /* VPROC_MODEL_H */
