/*
 * core.h -- the core of the runtime (libhetlaunch-rt.so, loaded by
 * LD_PRELOAD into unmodified MPI programs): what the bindings
 * (../bindings/: the interposed MPI, BLAS and clock calls) call.  Nothing
 * here calls a binding: the core is compiled without ../bindings/ on its
 * include path.
 *
 *   state.c    the one state the files share: this rank's place in the
 *              segment (state.h, which also gives the order of calls)
 *   wake.c     futex sleep and wake-up of the ranks on this computer
 *   wait.c     cooperative waiting: test loops that yield, then nap
 *   comm.c     per-communicator state: the shadow communicator for our
 *              collectives, the world rank of each member
 *   emu.c      the emulated cluster: compute charged to a shared machine,
 *              sends delayed on a one-port network
 *   send.c     a send on the emulated network (the bindings' sends)
 *   vclock.c   emulate: {clock: virtual}: per-rank virtual clocks, message
 *              stamps
 *   vorder.c   booking in virtual-time order
 *   bsend.c    buffered standard sends under the virtual clock
 *   realtime.c the real clocks, for the runtime itself
 *   rank_host.c the rank's host, said at MPI_Init
 *   account.c  each rank's compute and wait seconds, for hetlaunch
 *   timeline.c each rank's timeline of them, for trace.json
 *   sections.c hpcc's sections: only those asked for (kernel: hpl)
 *   fold.c     compute: skip's folded memory
 */
#ifndef VR_CORE_H
#define VR_CORE_H

#include <mpi.h>
#include <stddef.h>

/* wait.c */
void vr_wait_init(void);                  /* at MPI_Init */
void vr_backoff(unsigned *iter);          /* after an unsuccessful test */
int vr_waitall(int n, MPI_Request *reqs, MPI_Status *statuses);
int vr_wait(MPI_Request *req, MPI_Status *status);
int vr_waitany(int n, MPI_Request *reqs, int *index, MPI_Status *status);
int vr_wait_peer(MPI_Request *req, MPI_Status *status, MPI_Comm comm, int peer);
/* Before a wait: a receive it waits for (virtual clock; vorder.c).  The
 * wait publishes them while blocked and forgets them when it returns. */
void vr_wait_expect(MPI_Comm comm, int source, int tag);
void vr_wait_expect_any(void);   /* the receives named end the wait one by one */
void vr_wait_expect_unknown(void);   /* a request no pattern can name */
void vr_wait_block(void);     /* for loops of their own (MPI_Probe) */
unsigned long vr_calls(void);   /* emu.c: the MPI calls entered so far */
void vr_wait_unblock(void);

/* comm.c */
MPI_Comm vr_shadow(MPI_Comm comm);          /* MPI_COMM_NULL on failure */
int vr_world_rank(MPI_Comm comm, int rank); /* -1 if unknown */
void vr_comm_forget(MPI_Comm comm);
/* The communicator of a user receive in flight (MPI_COMM_NULL if none). */
void vr_recv_posted(MPI_Request req, MPI_Comm comm, int source, int tag);
/* Its (comm, source, tag) without forgetting it: 0, or -1 if not a receive. */
int vr_recv_peek(MPI_Request req, MPI_Comm *comm, int *source, int *tag);
MPI_Comm vr_recv_done(MPI_Request req);

/* emu.c */
void vr_emu_init(void);
void vr_emu_finalize(void);
/* MPI_Finalize's entry, for hetlaunch to tell a rank that called it
 * from one that ended without it. */
void vr_emu_finalizing(void);
/* MPI_Abort's entry: the first rank's, its code and time, for hetlaunch
 * to name even when the MPI launcher's line about it is lost. */
void vr_emu_aborting(int code);
int vr_emulating(void);
/* The plan's machine of a world rank; -1 without a segment. */
int vr_machine_of(int world_rank);
/* A compute segment ends: the program entered the MPI call `call` (its
 * name, for the timeline and the stall watchdog's diagnosis, vorder.c's
 * vr_order_call); vr_enter() names the calling function. */
void vr_enter_call(const char *call);
#define vr_enter() vr_enter_call(__func__)
/* 1 in a thread other than the one that called MPI_Init (its calls are
 * not the rank's: account.c, emu.c). */
int vr_foreign_thread(void);
void vr_exit(void);                         /* a compute segment starts */
/* 1 when the message was stamped (the virtual clock, vr_vt_send) */
int vr_send_delay(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type);
/* network: links: after a receive from another machine, its cost to us. */
void vr_recv_delay(MPI_Comm comm, MPI_Status *st);
/* The flop model (blas.c): 1 and the machine's Mflop/s when emulating. */
int vr_flop_model(double *mflops);
/* emulate: {compute: skip}: the modelled BLAS are charged, not run. */
int vr_skip_compute(void);
/* fold.c (compute: skip): a large block on shared pages, or NULL (then
 * glibc's); caller: the allocation's return address (the MPI stack's
 * blocks are never folded).  vr_fold_free: 1 if p was folded (freed). */
void vr_fold_init(void *segment);   /* at MPI_Init, under compute: skip */
void *vr_fold_alloc(size_t bytes, const void *caller);
int vr_fold_free(void *p);
size_t vr_fold_size(const void *p);   /* 0: not folded */
/* The bytes [p, p + len) of one folded block, seen through a new folded
 * block (freed with free(*block)) without being copied; NULL if p is not
 * folded or no block could be had.  Counted in unpacked_bytes. */
void *vr_fold_alias(const void *p, size_t len, void **block);
int vr_fold_holds(const void *p, size_t len);   /* 1: inside one folded block */
void vr_fold_unpacked(size_t bytes);   /* counts bytes sent uncopied */
/* 1: [p, p + len) is folded data of a program that reads none it
 * receives (VR_FLAG_DATA_UNREAD): its values may go out as no bytes.
 * vr_fold_elided counts `bytes` of data so sent, in unpacked_bytes and
 * elided_bytes. */
int vr_fold_unread(const void *p, size_t len);
void vr_fold_elided(size_t bytes);
/* Book `flops` of work to this segment, in place of `cpu_ns` of CPU time. */
void vr_charge_flops(double flops, unsigned long long cpu_ns);
/* Virtual ns of compute the current segment charges besides its models
 * (a clock poll's tick, vclock.c). */
void vr_charge_ns(unsigned long long ns);
/* Wake-ups: after a message to dest was posted.  NULL when no segment. */
void vr_wake(MPI_Comm comm, int dest);
void vr_wake_rank(int world_rank);
/* A kick: dest may wait for our progress to finish a send of its own
 * (a large message's rendezvous); it is woken only if it sleeps in a wait
 * that may hold a send, never in a receive-only one (wait.c). */
void vr_kick(MPI_Comm comm, int dest);
/* vr_kick after dest's message was received: not a rank asleep in the
 * order's nap (wake.c). */
void vr_kick_matched(MPI_Comm comm, int dest);
/* This rank leaves (1) or takes again (0) its processor: the segment's
 * count of awake ranks (-1 without a segment), against this rank's
 * processors, says whether a wait is crowded (vproc_wait_step). */
void vr_asleep(int on);
int vr_awake_ranks(void);
int vr_cpus(void);
/* 1 if dest (a rank of comm) is known and not asleep, in a wait or in the
 * emulation's sleep that stands for its compute. */
int vr_peer_awake(MPI_Comm comm, int dest);
#include <stdatomic.h>
#include <stdint.h>
_Atomic uint32_t *vr_my_wake(void);
_Atomic uint32_t *vr_my_sleeping(void);
/* vr_wait_peer for a wait on receives only (MPI_Recv, our collectives'). */
int vr_wait_recv(MPI_Request *req, MPI_Status *status, MPI_Comm comm, int source);
void vr_futex_wake(_Atomic uint32_t *word);
/* Sleep on this rank's wake word while it still reads `seen`, at most *ts,
 * marked asleep (`why`: VR_ASLEEP...) and out of the awake count. */
struct timespec;
void vr_futex_sleep(uint32_t why, uint32_t seen, const struct timespec *ts);

/* send.c: a send on the emulated network (port, buffering, wake-up) of
 * the mode `start` (PMPI_Isend, PMPI_Irsend, PMPI_Issend) ... */
typedef int vr_start_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int vr_post_send(vr_start_fn *start, const void *buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm, MPI_Request *req);
/* ... PMPI_Isend's, what our collectives use */
int vr_isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm, MPI_Request *req);
/* A user's nonblocking send that was buffered gets a complete request. */
int vr_user_request(int rc, MPI_Request *req);

/* vclock.c */
int vr_virtual(void);
void vr_vt_init(void);   /* after emu.c filled vr_seg (state.h) */
void vr_vt_compute(unsigned long long work);   /* a segment's charged work */
/* Before a message leaves: book the network, send its stamp; 1 if it
 * was stamped (its receiver learns its bytes from the stamp). */
int vr_vt_send(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type);
/* After a receive completed: take its stamp, move the clock. */
void vr_vt_recv(MPI_Comm comm, MPI_Status *st);
unsigned long long vr_vt_ns(void);
/* A clock read of the program's (MPI_Wtime, the wall clocks): enters and
 * exits the runtime itself; a poll (the clock where the last read left
 * it) first charges a tick, so that reads are strictly monotonic. */
unsigned long long vr_vt_read(const char *call);
/* The time base of the wall clocks (realtime: CLOCK_REALTIME's, else
 * CLOCK_MONOTONIC's) that the virtual clock counts from. */
unsigned long long vr_vt_base_ns(int realtime);
/* realtime.c: the real clocks, for the runtime itself (clock_gettime is
 * interposed, bindings/clock.c). */
#include <time.h>
int vr_real_clock_gettime(clockid_t id, struct timespec *ts);

/* comm.c: the stamp channel of (comm, tag): 0, or -1 if comm has none.
 * A user communicator's is its duplicate made at creation; our shadow's
 * is the shadow itself at tag + VR_STAMP_TAG. */
#define VR_STAMP_TAG 1000
int vr_stamp_channel(MPI_Comm comm, int tag, MPI_Comm *sc, int *stag);
/* ... and its number, the same in every member (vorder.c; -1: the
 * communicator was not made through the interposed constructors). */
int vr_stamp_chan(MPI_Comm comm, int tag, MPI_Comm *sc, int *stag, int *chan);
/* The rank in comm of a world rank; -1 if not a member. */
int vr_comm_rank_of(MPI_Comm comm, int world);
const int *vr_comm_members(MPI_Comm comm, int *size);   /* NULL: every rank */
void vr_stamp_create(MPI_Comm comm);   /* collective over comm */

/* wait.c: under the virtual clock, a wait is the virtual time a receive
 * moved the clock by (vclock.c), not the real time spent waiting. */
void vr_wait_virtual(void);
void vr_wait_add(double seconds);

/* bsend.c: buffered standard sends under the virtual clock */
/* may_empty: the message is stamped, so folded data the program never
 * reads may go out as no bytes (vr_fold_unread) */
int vr_bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
             MPI_Request *req, int may_empty);
void vr_bsend_progress(void);
int vr_bsend_outstanding(void);   /* buffered sends MPI still holds */
/* every one MPI still holds, waited for by wait (vr_wait) */
int vr_bsend_flush(int (*wait)(MPI_Request *, MPI_Status *));
int vr_completed_request(MPI_Request *req);

/* vorder.c: booking in virtual-time order (14) */
#include "model/shm_layout.h"
/* This rank (vr_seg.world_rank) and the world ranks of its machine. */
void vr_order_init(const int *siblings, int nsiblings);
int vr_order_enabled(void);
/* Before booking at `ready` a calendar of the siblings (all: the bus). */
void vr_order_book(unsigned long long ready, int all);
void vr_order_sent(int dest_world, int chan, int stag, unsigned long long arrival);
void vr_order_received(int src_world, int chan, int stag, unsigned long long arrival);
void vr_order_block(const vr_pattern *pat, int npat, int any);
void vr_order_unblock(void);
void vr_order_done(void);
void vr_order_doing(int what);
void vr_order_computing(int yes);   /* emu.c: between MPI calls or not */
void vr_order_call(const char *name);   /* the call a rank is in, for the stall watchdog */
int vr_order_pick(int chan, int stag, const int *members, int nmembers, int *src_world,
                  int *stag_out, int *safe);
/* A poll at vt: 1 (a match arrives by vt: *src_world, *stag_out), 0 (none
 * can), -1 (not known yet). */
int vr_order_poll(int chan, int stag, int *src_world, int *stag_out, const int *members,
                  int nmembers, unsigned long long vt);
int vr_order_escape_due(unsigned long long *t0);   /* the escape's time came */
void vr_order_escaped(void);                        /* counts one */
void vr_order_nap(unsigned *iter);
int vr_order_pending_from(int src_world);   /* a message of src's registered for us */
void vr_order_moved(unsigned long long vt);   /* vclock.c: our clock moved */

/* placement.c: the rank's host on stderr (HETLAUNCH_PLACEMENT=1) */
void vr_placement_report(void);

/* Called on every MPI call from inside the runtime only: bound directly,
 * not through the PLT (a loop of MPI_Iprobe measured the difference). */
#define VR_INTERNAL __attribute__((visibility("hidden")))

/* account.c (called by emu.c): the rank's time outside and inside the MPI
 * calls, into its slot of the segment (a vr_rank) at MPI_Finalize. */
void vr_account_init(void *rank_slot);   /* inside MPI_Init; NULL: no segment */
VR_INTERNAL void vr_account_enter(const char *call); /* after the segment was charged */
VR_INTERNAL void vr_account_exit(void);
void vr_account_finalize(void);

/* trace.c (called by account.c): the rank's compute and wait segments, on
 * its clock, into DIR/trace-RANK.part (HETLAUNCH_TRACE=DIR) at the end. */
void vr_trace_init(int rank, int nranks);
int vr_trace_on(void);
VR_INTERNAL void vr_trace_segment(unsigned long long start, unsigned long long end, int wait,
                                  const char *call);
void vr_trace_finish(int finalized);   /* 0: at exit, without MPI_Finalize */

/* sections.c: hpcc's other benchmarks skipped (HETLAUNCH_HPCC_RUN) */
int vr_sections_on(void);
void vr_section_seen(const char *text, size_t len);   /* a write of the program's */
/* 1: refuse this allocation (rank 0 inside a section to skip). */
int vr_section_refuses(size_t bytes, const void *caller);

#endif
