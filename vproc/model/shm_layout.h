/*
 * shm_layout.h -- the shared-memory segment of an emulated run.
 *
 * hetlaunch creates it (shm_open, named in HETLAUNCH_SHM), fills the
 * machines and the rank -> machine table, starts the job, reads the
 * counters back into report.json and unlinks it on every exit path.  The
 * ranks' runtime (libhetlaunch-rt.so, LD_PRELOAD) maps it and updates the clocks
 * with lock-free atomics, so siblings on one machine serialize their
 * compute and share its port.
 *
 * All times are CLOCK_MONOTONIC nanoseconds.
 */
#ifndef VR_SHM_LAYOUT_H
#define VR_SHM_LAYOUT_H

#include <stdatomic.h>
#include <stdint.h>

#include "model.h"

#define VR_SHM_MAGIC   0x68657476u   /* "hetv" */
#define VR_SHM_VERSION 15u
#define VR_MAX_MACHINES 256
#define VR_MAX_RANKS    1024
#define VR_MAX_LINKED   64     /* machines of a network: links */
/* Folding (core/fold.c, emulate: {compute: skip}): an allocation of
 * HETLAUNCH_FOLD_MIN bytes or more (default VR_FOLD_MIN_DEFAULT) maps the
 * rank's one shared buffer of VR_FOLD_CHUNK bytes, a mapping per chunk.
 * hetlaunch's memory check counts what that costs (layouts/memory.c). */
#define VR_FOLD_CHUNK       ((size_t)2 << 20)
#define VR_FOLD_MIN_DEFAULT ((size_t)1 << 20)
#define VR_FOLD_MIN_LEAST   ((size_t)4096)

#define VR_FLAG_BUS      1u   /* one shared medium (000 s5: a 100 Mb/s hub) */
#define VR_FLAG_EMULATE  2u   /* charge compute and network; otherwise the
                               * segment only carries the wake-ups */
#define VR_FLAG_LINKS    4u   /* per-pair link costs (004 s2): the sender pays
                               * link[i][j] per byte, the receiver link[j][i] */
#define VR_FLAG_VIRTUAL  8u   /* emulate: {clock: virtual}: per-rank
                               * virtual clocks, calendars below, no sleeping */

#define VR_FLAG_FLOPS_ONLY 16u /* cpu_time: false: the CPU time outside the
                               * modelled BLAS is not charged */

#define VR_FLAG_SKIP    32u  /* compute: skip: the interposed BLAS are charged,
                               * not run; large allocations folded (fold.c) */

#define VR_FLAG_DATA_UNREAD 64u /* with VR_FLAG_SKIP: the program reads no value
                               * of a large message (hl-driver, kernels.h's
                               * data_unread): buffered sends from folded
                               * memory go out empty (bsend.c) */

/* A calendar of virtual busy time (vproc/model/model.h), under a spin lock. */
#define VR_CAL_CAP 64
#define VR_BUS_CAL_CAP 1024
typedef struct {
	_Atomic int lock;
	uint32_t n;
	unsigned long long dropped;
	vproc_interval iv[VR_CAL_CAP];
} vr_cal;
typedef struct {
	_Atomic int lock;
	uint32_t n;
	unsigned long long dropped;
	vproc_interval iv[VR_BUS_CAL_CAP];
} vr_bus_cal;

/* vorder.c: a message whose stamp is on its way to a rank, registered by
 * its sender before the stamp leaves and removed by the receiver when it
 * takes the stamp; and what a rank blocked in a receive waits for.  The
 * messages beyond a rank's VR_PENDING_CAP go to the pool's chunks
 * (vr_spill, below). */
#define VR_PENDING_CAP 128
#define VR_WAIT_PATTERNS 8
typedef vproc_pending vr_pending;   /* vproc/model/model.h */
typedef vproc_pattern vr_pattern;
typedef struct {
	_Atomic int lock;
	uint32_t npending;
	_Atomic uint32_t overflow;   /* pending entries lost to a full pool */
	_Atomic int blocked;         /* 1: in a wait that only messages matching
	                              * each of pat[0..npat) can end */
	_Atomic int done;            /* past its last booking (MPI_Finalize) */
	_Atomic int doing;           /* for HETLAUNCH_VORDER_DEBUG: 1 ordering,
	                              * 2 a wait with no receive named */
	_Atomic int computing;       /* between two MPI calls (emu.c): it will
	                              * come back, nothing is stuck */
	uint32_t npat;
	uint32_t any;                /* 1: any of the patterns ends the wait (Waitany) */
	/* Waiting for the order woken, not polling: a rank that
	 * waits for this one's bound to rise sets its bit in waiters and its
	 * need; this rank bumps ver and wakes them when the bound may have
	 * risen (a state change: all; its clock: those whose need it passed). */
	_Atomic uint32_t ver;
	_Atomic unsigned long long need;         /* the time it waits for */
	_Atomic uint64_t waiters[VR_MAX_RANKS / 64];
	_Atomic unsigned long long hneed;        /* waiting for the horizon: till it */
	_Atomic int hneed_rank;                  /* is not before (hneed, hneed_rank) */
	vr_pattern pat[VR_WAIT_PATTERNS];
	vr_pending pending[VR_PENDING_CAP];
} vr_order;

/* The pool's chunks of pending messages (vr_shm.pool) and each rank's
 * chain of them, newest first; indices are + 1, 0 for none. */
#define VR_CALL_NAME 24     /* vr_shm.call: "MPI_Recv" */
#define VR_CHUNK 64
#define VR_POOL_CHUNKS 8192     /* 524,288 messages, 12 MiB */
typedef struct {
	int32_t next;           /* the chunk taken before this one */
	uint32_t n;
	vr_pending e[VR_CHUNK];
} vr_chunk;
typedef struct {
	int32_t head;           /* the newest chunk: the only one not full */
	uint32_t n;             /* messages in the chunks */
} vr_spill;

typedef struct {
	double scale;           /* emulated seconds per CPU second of this host */
	double mflops;          /* its speed: DGEMM is charged by its flops at this */
	double latency_ns;      /* of a message leaving this machine */
	double bytes_per_s;     /* of its port; 0 = free network */
	_Atomic unsigned long long busy_until;  /* the processor */
	_Atomic unsigned long long port_free;   /* the port (one-port model) */
	/* counters */
	_Atomic unsigned long long work_ns;     /* emulated compute booked */
	_Atomic unsigned long long overruns;    /* segments that ended late */
	_Atomic unsigned long long overrun_ns;  /* by how much, in total */
	_Atomic unsigned long long messages;    /* sent off the machine */
	_Atomic unsigned long long bytes;
	_Atomic unsigned long long wire_ns;     /* emulated sending time */
	_Atomic unsigned long long cpu_work_ns; /* the part of work_ns charged by
	                                         * CPU time (the rest: flop models) */
} vr_machine;

typedef struct {
	/* Wake-ups (wait.c): a sender bumps the receiver's wake word after
	 * posting a message, and wakes it if it sleeps on it (futex).
	 * sleeping: 0 awake; VR_ASLEEP on the wake word, | VR_ASLEEP_SEND
	 * when the wait may need a peer's progress for a send of its own (a
	 * kick, wait.c, wakes only those); VR_ASLEEP_EMU in the emulation's
	 * compute sleep. */
	_Atomic uint32_t wake;
	_Atomic uint32_t sleeping;
	_Atomic unsigned long long cpu_ns;      /* CPU time between MPI calls */
	_Atomic unsigned long long work_ns;     /* its emulated duration */
	_Atomic int pid;
	_Atomic int finalized;
	/* MPI_Finalize was called: set on entry, before its barrier, which a
	 * rank whose peers ended without finalizing may never leave. */
	_Atomic int finalize_called;
	/* account.c: ns between MPI_Init and MPI_Finalize outside the MPI
	 * calls and inside them, on the rank's clock (virtual or monotonic);
	 * written once at MPI_Finalize, then accounted = 1. */
	unsigned long long compute_ns, wait_ns;
	_Atomic int accounted;
} vr_rank;
#define VR_ASLEEP      1u   /* on its wake word (futex) */
#define VR_ASLEEP_SEND 2u
#define VR_ASLEEP_EMU  4u   /* in the emulation's compute sleep: no futex to
                             * wake, but not awake for a crowded waiter */
#define VR_ASLEEP_ORDER 8u  /* with VR_ASLEEP: in vorder.c's nap, which waits
                             * for no send of its own (vr_kick_matched) */

typedef struct {
	uint32_t magic, version;
	uint32_t nmachines, nranks;
	uint32_t flags;
	uint32_t pad;
	double bus_latency_ns, bus_bytes_per_s;
	unsigned long long slack_ns;            /* lateness that is not an overrun */
	_Atomic unsigned long long bus_free;
	_Atomic int attached;                   /* ranks that mapped the segment */
	_Atomic int awake;                      /* of those, the ones not asleep
	                                         * (futex or emulated compute):
	                                         * wait.c spins only if each has
	                                         * a processor */
	int32_t rank_machine[VR_MAX_RANKS];
	vr_machine machines[VR_MAX_MACHINES];
	vr_rank ranks[VR_MAX_RANKS];
	/* VR_FLAG_LINKS: ns per byte from machine i to machine j, [i * VR_MAX_LINKED + j] */
	double link_ns_per_byte[VR_MAX_LINKED * VR_MAX_LINKED];
	/* VR_FLAG_VIRTUAL.  Every rank's clock, ns since its
	 * MPI_Init, published for the calendars' horizon (no rank books before
	 * its own clock, so what ends before every clock is forgotten). */
	_Atomic unsigned long long rank_vt[VR_MAX_RANKS];
	_Atomic unsigned long long unstamped;   /* messages with no clock (see vclock.c) */
	unsigned long long real_base_ns;        /* CLOCK_REALTIME at virtual 0 */
	unsigned long long mono_base_ns;        /* CLOCK_MONOTONIC at virtual 0 */
	vr_bus_cal bus_cal;
	vr_cal cpu_cal[VR_MAX_MACHINES];        /* each machine's processor */
	vr_cal port_cal[VR_MAX_MACHINES];       /* each machine's port */
	/* Booking in virtual-time order (vorder.c): what each rank may still
	 * do, and the escapes that booked out of order. */
	_Atomic unsigned long long out_of_order;
	_Atomic unsigned long long order_epoch;  /* bumped when a bound may drop */
	vr_order order[VR_MAX_RANKS];
	/* Waiting for the horizon (vorder.c): each rank's term in it (its
	 * clock running, its wake-up blocked, never once done), kept by the
	 * rank and by its senders; the ranks that wait for the horizon to
	 * reach their hneed; hver, bumped by every rise of a term. */
	_Atomic unsigned long long term[VR_MAX_RANKS];
	_Atomic uint64_t hwaiters[VR_MAX_RANKS / 64];
	_Atomic unsigned long long hver;
	/* VR_FLAG_SKIP (fold.c): bytes of large allocations folded onto shared
	 * pages, live now and at most at once over the job, and how many */
	_Atomic unsigned long long folded_live;
	_Atomic unsigned long long folded_peak;
	_Atomic unsigned long long folded_count;
	_Atomic unsigned long long folded_reused;   /* of those, served by a freed
	                                             * block still mapped */
	_Atomic unsigned long long unpacked_bytes;  /* sent from folded memory
	                                             * without a copy (bsend.c) */
	_Atomic unsigned long long elided_bytes;    /* of those, not sent at all
	                                             * (VR_FLAG_DATA_UNREAD) */
	/* ---- why the runtime ended the job (emu.c) ------------------------
	 * The first rank to end it (MPI_Abort) writes its reason here before:
	 * its stderr line can be lost when mpiexec kills the job first. */
	_Atomic int refused;                        /* 1: refusal[] is set */
	char refusal[256];
	/* ---- The program's first MPI_Abort (bindings/init.c) ----------------
	 * Which rank called it, with which code and when, written before
	 * PMPI_Abort: mpiexec can kill the ranks before the line MPI prints
	 * about it reaches the log.  The first caller wins: aborted goes 0 ->
	 * 2 (writing) -> 1 (the fields are set). */
	_Atomic int aborted;
	int32_t abort_rank;                         /* in MPI_COMM_WORLD */
	int32_t abort_code;                         /* its error code */
	unsigned long long abort_ns;                /* CLOCK_MONOTONIC */
	/* ---- Pending messages beyond a rank's list (vorder.c) ----------------
	 * A rank's messages not yet received that do not fit its list
	 * (VR_PENDING_CAP) are chained in chunks of this pool, under the
	 * rank's order lock; a chunk is taken and given back under pool_lock.
	 * Never lost while the pool lasts: a lost one can end no wildcard
	 * receive and makes its rank's bound its clock (virtual-clock.md,
	 * "A full pending list").  Pages are touched only when used. */
	vr_spill spill[VR_MAX_RANKS];
	_Atomic int pool_lock;
	int32_t pool_free;                      /* a given-back chunk + 1; 0 none */
	uint32_t pool_top;                      /* chunks ever taken */
	_Atomic uint32_t pool_peak;             /* chunks in use at most at once */
	uint32_t pool_used;
	vr_chunk pool[VR_POOL_CHUNKS];
	/* ---- The stall watchdog (hetlaunch's emulation.c) -------------------
	 * The interposed call each rank is in (or was last in: order[r].computing
	 * says it left), for the diagnosis of a stalled run; what it waits for
	 * is in order[r] already.  Written when the call changes. */
	char call[VR_MAX_RANKS][VR_CALL_NAME];
} vr_shm;

#endif
