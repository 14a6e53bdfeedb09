/*
 * event_play.h -- processes' programs played event by event in the order
 * the runtime books (doc/design/virtual-clock.md, "Booking in virtual-time
 * order"; doc/design/predictions.md, "Ranks sharing a machine"): each
 * process of pl's P x Q grid (index p Q + q) runs its own program of
 * compute, sends, receives, delays and group synchronisations, expanded a
 * phase at a time by the caller's expand(); the process with the smallest
 * clock moves first, ties by index (vproc/model/order_bounds.c); its
 * compute between two MPI calls is one segment, booked on its machine's
 * processor when it reaches the next call; its sends book its machine's
 * port (or the bus) at its clock; a receive whose message is not sent yet
 * blocks it until the sender gets there; a message arrives at least 1 ns
 * after its sender's clock (the runtime's tick).  So every calendar is
 * booked in virtual-time order, as under the emulator.  lu_row_play.c
 * (one process row) and lu_grid_play.c (P > 1) write PDGETRF's programs.
 * Pure (vproc rules).
 */
#ifndef VPROC_DENSE_EVENT_PLAY_H
#define VPROC_DENSE_EVENT_PLAY_H

#include "vsim.h"

/* PORT: the process waits until its port could start a message of
 * `amount` bytes to peer (nothing booked, no message delivered): a phase
 * played in bulk (lu_grid_play.c's panel, whose time counts its messages)
 * still waits for its port behind a sibling's transfer booked before it. */
enum { VPROC_EP_COMPUTE, VPROC_EP_SEND, VPROC_EP_RECV, VPROC_EP_DELAY, VPROC_EP_SYNC,
       VPROC_EP_PORT };

typedef struct {
	int kind;
	size_t peer;     /* SEND, RECV, PORT: the other process; SYNC: the group's key */
	double amount;   /* flops, bytes, or ns (DELAY, SYNC) */
	size_t count;    /* SYNC: the group's members */
} vproc_ep_op;

/* The ops a process keeps beside its state: most phases have at most
 * these (a ring's receive and two sends, a tree's few), so the play reads
 * them where it reads the rest (a separate array a process made the 2D
 * play of 4096 processes wait on a cache miss at every move). */
#define VPROC_EP_INLINE 4

typedef struct {
	size_t n, next, cap;
	vproc_ep_op *op;   /* the ops of the phase it is in: in[], or big[] when more */
	vproc_ep_op in[VPROC_EP_INLINE];
	vproc_ep_op *big;  /* kept from phase to phase */
	size_t bigcap;
	size_t k;          /* the program's state: its step, */
	int phase;         /* the next phase to expand, */
	size_t h;          /* and a counter of the phase's own */
	double pending;    /* compute flops since its last MPI call */
	size_t waits;      /* blocked on a receive from this process, or SIZE_MAX */
	size_t mail, tail; /* its messages not received yet, oldest first */
	size_t in_sync;    /* blocked in a group synchronisation (its slot), or SIZE_MAX */
	double sync_delay; /* its own delay after the latest there, ns */
} vproc_ep_proc;

typedef struct vproc_eplay vproc_eplay;

/* Expand process i's next phase into its ops (vproc_eplay_add); 0 when
 * its program is over. */
typedef int vproc_ep_expand(vproc_eplay *e, size_t i);

typedef struct {
	unsigned long long arrival;
	size_t src, next;
} vproc_ep_msg;

typedef struct {
	unsigned long long t;
	size_t i;
} vproc_ep_key;

typedef struct {
	size_t key, need, arrived;
	size_t first;                /* its waiters, chained by sync_next */
	unsigned long long latest;   /* the latest clock of those come */
	int used;
} vproc_ep_sync;

struct vproc_eplay {
	vproc_vsim s;
	const vproc_lu_platform *pl;
	size_t np;
	vproc_ep_proc *proc;     /* [np] */
	vproc_ep_key *heap;      /* the processes free to move, by (clock, index) */
	size_t nheap;
	vproc_ep_msg *msg;
	size_t nmsg, capmsg, free_msg;
	vproc_ep_sync *sync;     /* the synchronisations under way */
	size_t nsync, capsync;
	size_t *sync_next;       /* [np] the next waiter of the same synchronisation */
	unsigned long long now;  /* the event played: nothing books before it */
	vproc_ep_expand *expand;
	void *ctx;               /* the caller's */
	int nomem;
};

/* VPROC_OK, VPROC_EINVAL (vproc_lu_platform_check), VPROC_ENOMEM. */
vproc_status vproc_eplay_init(vproc_eplay *e, const vproc_lu_platform *pl, vproc_ep_expand *expand,
                              void *ctx);
void vproc_eplay_free(vproc_eplay *e);

/* Process i's next op (to its current phase). */
void vproc_eplay_add(vproc_eplay *e, size_t i, int kind, size_t peer, double amount);

/* Process i waits for the `count` members of the synchronisation `key`
 * (each of them adds it, with the same key and count); the last to come
 * lets all go, each at the latest clock plus its own delay_ns.  A play's model of a
 * phase it does not play message by message (lu_grid_play.c). */
void vproc_eplay_sync(vproc_eplay *e, size_t i, size_t key, size_t count, double delay_ns);

/* Play every program to its end.  VPROC_OK, VPROC_ENOMEM, VPROC_EINVAL
 * (a receive or a synchronisation never matched: a bug of the programs). */
vproc_status vproc_eplay_run(vproc_eplay *e);

/* The plays' common end: begin's phase (may be NULL), every program to
 * its end, end's phase, then out's total, compute (the busiest machine)
 * and network; frees e whatever comes.  vproc_eplay_run's statuses. */
vproc_status vproc_eplay_time(vproc_eplay *e, vproc_vsim_phase *begin, vproc_vsim_phase *end,
                              vproc_lu_seconds *out);

#endif
