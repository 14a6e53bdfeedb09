/*
 * taskgraph.h -- the task graph of a blocked LU or QR of M column blocks
 * (paper 002 s4.1, Fig 10) and a simulator of its schedules: the static
 * slice (002 s2.2), the optimized static allocation (002 s4.4) and the
 * level-by-level dynamic heuristic of Maheswaran and Siegel (002 s4.3).
 * Pure (vproc rules): no I/O, no MPI.
 *
 * The graph.  Step k = 0..M-1 has a factor task F(k) on column block k and
 * the update tasks U(k,j), j = k+1..M-1, of the trailing column blocks with
 * the pivot of step k.  Dependences: F(k) -> U(k,j) (the broadcast of the
 * pivot), U(k-1,j) -> U(k,j) and U(k-1,k) -> F(k) (vertical: the same
 * column block, one step later).  F(k) alone is level 2k, the updates of
 * step k are level 2k+1 (002 s4.1).  A task id is its position in the order
 * F(0), U(0,1..M-1), F(1), U(1,2..M-1), ...: a topological order.
 *
 * Costs.  A task of work w takes w t_i on machine i.  Every edge carries
 * the trailing part of one column block at the consumer's step k (the pivot
 * panel, or the column block being updated): (M-k) b x b blocks, sent in
 * beta per element (per block for VPROC_TG_UPDATES), only when producer and
 * consumer are on different machines (002 s4.3: c_ij = 0 on one machine).
 * A broadcast reaches every machine at once (no port contention): 002 s4.3's
 * model, where each transfer is priced alone.
 */
#ifndef VPROC_TASKGRAPH_H
#define VPROC_TASKGRAPH_H

#include <stddef.h>

#include "planner/planner.h"

typedef enum {
	/* vproc_lu_predict's model (000 Figs 3, 5): U(k,j) = M-k-1 block
	 * updates, F(k) = 0; beta is per b x b block. */
	VPROC_TG_UPDATES = 0,
	/* LU in flops, block width b: F(k) = getf2 of an m x b panel,
	 * m b^2 - b^3/3 with m = (M-k) b; U(k,j) = the TRSM b^3 and the GEMM
	 * 2 (m-b) b^2.  beta is per element. */
	VPROC_TG_LU = 1,
	/* QR (the same graph, other durations: 002 s4.1): F(k) = geqr2 of the
	 * panel, 2 m b^2 - 2 b^3/3; U(k,j) = applying its block reflector
	 * I - V T V^T to an m x b column block, 4 m b^2 (V^T C, then V (T W)). */
	VPROC_TG_QR = 2
} vproc_tg_kind;

typedef struct {
	vproc_tg_kind kind;
	size_t M;      /* column blocks, >= 1 */
	size_t b;      /* block width (LU, QR), >= 1; ignored by UPDATES */
	double beta;   /* time to move one element (one block for UPDATES); 0: free */
} vproc_tg;

/* VPROC_OK when the graph and the p cycle times t are valid. */
vproc_status vproc_tg_check(const vproc_tg *g, size_t p, const double *t);

/* M (M+1) / 2 tasks; 0 if that overflows. */
size_t vproc_tg_ntasks(size_t M);
/* The step k and column j of a task id (j == k: the factor task F(k)). */
void vproc_tg_task(size_t M, size_t id, size_t *k, size_t *j);
/* The id of task (k, j), j >= k. */
size_t vproc_tg_id(size_t M, size_t k, size_t j);
/* The work of task (k, j), in units of cycle_time. */
double vproc_tg_work(const vproc_tg *g, size_t k, size_t j);
/* The time of one message into a task of step k (between two machines). */
double vproc_tg_comm(const vproc_tg *g, size_t k);

/* A schedule: the machine of every task and the order in which tasks are
 * examined, level by level (each machine runs its tasks in that order). */
typedef struct {
	size_t ntasks;
	size_t *machine;   /* [ntasks] */
	size_t *order;     /* [ntasks] task ids, level by level */
} vproc_tg_schedule;

void vproc_tg_schedule_free(vproc_tg_schedule *s);

/*
 * vproc_tg_static -- the static slice (002 s2.2-2.3): column block j belongs
 * to pattern[j mod B], which runs every task on it (owner computes).
 *   p        [in]  machines
 *   pattern  [in]  B machine indices < p (vproc_slice.pattern)
 *   out      [out] release with vproc_tg_schedule_free
 */
vproc_status vproc_tg_static(const vproc_tg *g, size_t p, const size_t *pattern, size_t B,
                             vproc_tg_schedule *out);

/*
 * vproc_tg_optimized -- 002 s4.4: the slice of B built from C = (2,0,...,0)
 * (VPROC_SLICE_OPTIMIZED) owns the updates, and the fastest machine runs
 * every factor task F(k) and the update U(k-1,k) just before it, so that it
 * balances the updates of a level with the factor task of the next.  The
 * moved column block costs a message in and the pivot a broadcast out.
 *   B >= 2.
 */
vproc_status vproc_tg_optimized(const vproc_tg *g, size_t p, const double *t, size_t B,
                                vproc_tg_schedule *out);

/*
 * vproc_tg_dynamic -- the level-by-level heuristic of Maheswaran and Siegel
 * (002 s4.3).  Critical paths cp(s) = e(s, x) + max_succ (c + cp(succ)) by a
 * bottom-up pass on the initial mapping; then, level by level, the tasks in
 * decreasing cp (ties: lower column first) each go to the machine of least
 * partial completion time pct(s, x) = e(s, x) + max(A[x], dr(s)), dr the
 * arrival of its last input on x; A[x] = that pct.  Ties keep the machine of
 * the initial mapping, then the lower index.
 *   initial [in]  the initial mapping (a schedule on the same graph)
 */
vproc_status vproc_tg_dynamic(const vproc_tg *g, size_t p, const double *t,
                              const vproc_tg_schedule *initial, vproc_tg_schedule *out);

typedef struct {
	double makespan;   /* dataflow: a task starts when its machine is free
	                    * and its inputs have arrived (002 s4.3's pct) */
	double levels;     /* level-synchronous: a level starts when the one
	                    * before has ended (stock ScaLAPACK's steps) */
	double load;       /* max over machines of its compute plus the messages
	                    * it receives: 002 s4.3's "sum up all the costs ...
	                    * for every machine and keep the maximum" */
	double compute;    /* max over machines of its compute alone */
	double volume;     /* data moved between machines (elements; blocks for UPDATES) */
	size_t messages;   /* a pivot counts once per receiving machine */
} vproc_tg_times;

/* vproc_tg_simulate -- the times of a schedule (see vproc_tg_times). */
vproc_status vproc_tg_simulate(const vproc_tg *g, size_t p, const double *t,
                               const vproc_tg_schedule *s, vproc_tg_times *out);

/*
 * vproc_tg_lower_bound -- no schedule is faster, whatever its
 * communications: every update of a step >= k depends on F(k), which ends
 * no earlier than the chain F(0), U(0,1), F(1), ..., F(k) on the fastest
 * machine; the rest of the work then needs at least W / sum(1/t_i).  The
 * bound is the largest over k (k = 0: the work bound; k = M-1: the chain).
 */
double vproc_tg_lower_bound(const vproc_tg *g, size_t p, const double *t);

/*
 * vproc_tg_best_B -- the static slice of the least simulated makespan over
 * B = 1..Bmax (vproc_slice_build, plain): where a better static slice
 * stands against the dynamic heuristic.
 *   times [out, optional] Bmax makespans
 *   B, makespan [out] the best (the smallest B on a tie)
 */
vproc_status vproc_tg_best_B(const vproc_tg *g, size_t p, const double *t, size_t Bmax,
                             double *times, size_t *B, double *makespan);

/*
 * vproc_tg_optimal_slice -- the static slice of B of least simulated
 * makespan over all p^B patterns (beyond the paper: how far the incremental
 * slice, optimal for the step-by-step count of 000 Prop 2, is from the best
 * slice once panels and messages count).  VPROC_ERANGE if p^B exceeds
 * VPROC_TG_SEARCH_MAX.  Ties keep the first pattern in counting order.
 *   pattern  [out] B machine indices
 */
#define VPROC_TG_SEARCH_MAX 200000.0
vproc_status vproc_tg_optimal_slice(const vproc_tg *g, size_t p, const double *t, size_t B,
                                    size_t *pattern, double *makespan);

/* The three schedules of 002 s4, in this order. */
enum { VPROC_TG_STATIC, VPROC_TG_OPTIMIZED, VPROC_TG_DYNAMIC, VPROC_TG_NSCHED };

/*
 * vproc_tg_three -- the static slice of B (plain), the optimized allocation
 * (s4.4, with B >= 2), and the dynamic heuristic started from the static
 * slice (s4.3), each simulated.
 *   sched [out, optional] VPROC_TG_NSCHED schedules (free each one)
 *   times [out] VPROC_TG_NSCHED results
 */
vproc_status vproc_tg_three(const vproc_tg *g, size_t p, const double *t, size_t B,
                            vproc_tg_schedule *sched, vproc_tg_times *times);

#endif
