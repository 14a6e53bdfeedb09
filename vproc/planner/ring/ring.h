/*
 * ring.h -- SliceRing: which machines form a ring, in which order, and how
 * much of the data each holds, for an iterative computation (paper 004,
 * Legrand, Renard, Robert, Vivien, "Static load-balancing techniques for
 * iterative computations on heterogeneous clusters"; checked notes:
 * ../shared/specs/004-slicering.md, cited "notes sN").
 *
 * Model (004 s2, notes s1).  p machines; machine i processes W units of work
 * in W.w_i; sending H units from i to j costs H.c[i*p+j] (c need not be
 * symmetric; the diagonal is never read).  A ring of q machines
 * order[0..q-1] gives machine order[k] the share alpha of the work; every
 * iteration it computes alpha.W.w, then sends H to its successor and
 * receives H from its predecessor, both charged to it and not overlapped:
 *   C_i = c[i][succ] + c[i][pred]      (q = 2: C_i = 2 c[i][j])
 *   T_step = max_i ( alpha_i W w_i + H C_i )       (q = 1: T = W w_i)
 * The least T_step of a ring R over its shares is (notes s1)
 *   T_R = max(T*, H max_R C_i),  T* = (W + H sum_R C_i/w_i) / sum_R 1/w_i;
 * the paper's Eqs 2-3 assume T* binds.  sum_R C_i/w_i is the length D of
 * the ring under the symmetric edge weight d_ij = c_ij/w_i + c_ji/w_j (notes
 * s4, ERROR 1: not the paper's (c_ij + c_ji)/w_i).
 *
 * Solvers (all return a vproc_ring, the best ring found):
 *   vproc_ring_exact   Held-Karp over subsets, then the best subset with the
 *                      max term handled exactly (notes s9.1).  O(2^p p^2)
 *                      time and 2^p (p+1) doubles of memory: p = 14 takes
 *                      milliseconds, p = 18 about 45 MB and a fraction of a
 *                      second, p = 20 about 176 MB and seconds; refused
 *                      above VPROC_RING_EXACT_MAX = 20 (VPROC_ERANGE).
 *   vproc_ring_milp    one GLPK MILP over every q >= 2 (notes s4), with a
 *                      time limit; "optimal" only when GLPK proved it.
 *   vproc_ring_greedy  the insertion heuristic of 004 s6.2 (notes s5).
 *   vproc_ring_heuristic  multi-start greedy + local search, exact scoring.
 *   vproc_ring_tsp     004 s6.1: every machine, order by a TSP heuristic on d.
 */
#ifndef VPROC_RING_H
#define VPROC_RING_H

#include <stddef.h>

#include "planner/planner.h"

/* Largest p vproc_ring_exact / vproc_ring_hk_build accept. */
#define VPROC_RING_EXACT_MAX 20
/* The exact search's budget of search nodes (ring_exact.c): past it the
 * best ring found is returned with optimal = 0 and a proven lower bound,
 * so that no platform makes a plan run for minutes. */
#define VPROC_RING_EXACT_NODES 20000000ull

typedef struct {
	size_t p;          /* machines, >= 1 */
	const double *w;   /* [p] cycle times, finite > 0 */
	const double *c;   /* [p*p] c[i*p+j]: cost per unit of data i -> j,
	                    * finite >= 0 off the diagonal */
	double W;          /* work per iteration, finite > 0 */
	double H;          /* data sent to the successor per iteration, finite >= 0 */
} vproc_ring_platform;

typedef struct {
	size_t p;
	size_t q;          /* machines in the ring, 1..p */
	size_t *order;     /* [p] the ring order[0..q-1]; the rest: the dropped
	                    * machines, in increasing index */
	double *alpha;     /* [p] share of machine i (0 when dropped); sums to 1 */
	double T;          /* T_step of the ring with these shares */
	double D;          /* sum_R C_i / w_i (0 for q = 1) */
	double lower_bound;/* proven lower bound on the optimum (== T when optimal) */
	int optimal;       /* 1 when T is proven the optimum over every ring */
} vproc_ring;

/* A ring whose T is within this relative distance of a proven lower bound
 * is the optimum (GLPK's own objective tolerance, tol_obj). */
#define VPROC_RING_BOUND_TOL 1e-7

/* 1 when T reaches the proven lower bound lb > 0 within VPROC_RING_BOUND_TOL. */
int vproc_ring_at_bound(double T, double lb);

/* Allocate out->order and out->alpha for p machines (zeroed). */
vproc_status vproc_ring_alloc(size_t p, vproc_ring *out);
void vproc_ring_free(vproc_ring *r);

/* Check a platform: p >= 1, w finite > 0, c finite >= 0 off the diagonal,
 * W finite > 0, H finite >= 0.  VPROC_EINVAL otherwise. */
vproc_status vproc_ring_check(const vproc_ring_platform *pl);

/* ------------------------------------------------------------------------
 * ring_time.c -- the exact time of one ring (notes s1) and Prop 1 (s3)
 * ------------------------------------------------------------------------ */

/* d_ij = c_ij / w_i + c_ji / w_j: the symmetric edge weight (notes s4). */
double vproc_ring_d(const vproc_ring_platform *pl, size_t i, size_t j);

/* C_{order[k]} = c to the successor + c to the predecessor, in a ring of
 * q >= 2 (q = 2: twice the single link). */
double vproc_ring_C(const vproc_ring_platform *pl, size_t q, const size_t *order,
                    size_t k);

/*
 * vproc_ring_time -- the least T_step of the ring order[0..q-1] over its
 * shares, T_R = max(T*, H max C_i) (notes s1), and those shares.  When T*
 * binds, alpha_i = (T - H C_i)/(W w_i): every machine finishes at T.  When
 * the max term binds, the shares (T - H C_i)/(W w_i) sum to more than 1 and
 * are scaled down to sum 1: every machine still finishes by T.
 *   pl     [in]  the platform
 *   q      [in]  1..p distinct machines
 *   order  [in]  q machine indices
 *   alpha  [out] p shares indexed by machine (0 outside the ring); may be NULL
 *   T      [out] T_R
 *   D      [out] sum_R C_i/w_i; may be NULL
 */
vproc_status vproc_ring_time(const vproc_ring_platform *pl, size_t q, const size_t *order,
                             double *alpha, double *T, double *D);

/* Fill r (allocated for pl->p) with the ring order[0..q-1], its shares, T
 * and D; optimal = 0, lower_bound = 0; the dropped machines follow. */
vproc_status vproc_ring_set(const vproc_ring_platform *pl, size_t q, const size_t *order,
                            vproc_ring *r);

/*
 * vproc_ring_prop1 -- 004 Prop 1 (notes s2): with every link of cost c,
 * only q = 1 (the fastest machine) or q = p (every machine, any order,
 * alpha_i proportional to 1/w_i) can be optimal:
 *   T = min{ W w_min, W w_cumul + 2 H c },  w_cumul = 1 / sum 1/w_i.
 *   q          [out] 1 or p
 *   threshold  [out] the W/H up to which q = 1 is optimal,
 *                    2c/(w_min - w_cumul) (INFINITY when p = 1); may be NULL
 */
vproc_status vproc_ring_prop1(size_t p, const double *w, double c, double W, double H,
                              double *T, size_t *q, double *threshold);

/* ------------------------------------------------------------------------
 * ring_hk.c -- Held-Karp over every subset (notes s9.1)
 * ------------------------------------------------------------------------ */

typedef struct {
	size_t p;
	double *e;     /* [p*p] the edge weights the table was built on */
	double *dp;    /* [2^p * p] least path from lowest(S) through S ending at j */
	double *len;   /* [2^p] least cycle length over the rings of S (q >= 2);
	                * 0 for |S| = 1, INFINITY for S empty */
} vproc_ring_hk;

/*
 * vproc_ring_hk_build -- for every subset S of the p machines, the least
 * length of a cycle through S under the edge weights e (any e, symmetric or
 * not; e[i*p+j] is the edge i -> j), by Held-Karp with the cycle starting at
 * S's lowest member.  O(2^p p^2) time, 2^p (p+1) doubles.
 *   p    [in]  2..VPROC_RING_EXACT_MAX (VPROC_ERANGE above)
 *   e    [in]  p*p finite weights (diagonal ignored)
 *   out  [out] release with vproc_ring_hk_free
 */
vproc_status vproc_ring_hk_build(size_t p, const double *e, vproc_ring_hk *out);
void vproc_ring_hk_free(vproc_ring_hk *hk);

/* A cycle of length hk->len[S] through S: order[0..|S|-1], starting at the
 * lowest member.  Returns |S|. */
size_t vproc_ring_hk_cycle(const vproc_ring_hk *hk, unsigned long S, size_t *order);

/* ------------------------------------------------------------------------
 * ring_exact.c, ring_milp.c, ring_greedy.c, ring_tsp.c -- the solvers
 * ------------------------------------------------------------------------ */

/*
 * vproc_ring_exact -- the optimal ring (notes s9.1).  Held-Karp on d gives
 * D*(S) for every subset; (W + H D*(S))/sigma_S (sigma_S = sum_S 1/w) is a
 * lower bound of T over the rings of S, reached when its ring's max term
 * does not bind.  Subsets are taken in increasing bound; a subset whose
 * Held-Karp ring is bound by the max term gets a depth-first search over its
 * rings, pruned by the exact completion length from the table and by the
 * max term of the finished machines.  Subsets whose links alone exceed the
 * incumbent (max_i of the two cheapest links of i into S, times H) are
 * skipped.  out->optimal = 1, or, when the VPROC_RING_EXACT_NODES budget
 * runs out, 0 with out->lower_bound the least bound of the subsets left and
 * the better of the best ring found and vproc_ring_heuristic's.
 *   pl   [in]  pl->p <= VPROC_RING_EXACT_MAX (VPROC_ERANGE above)
 *   out  [out] allocated here; release with vproc_ring_free
 */
vproc_status vproc_ring_exact(const vproc_ring_platform *pl, vproc_ring *out);

/* vproc_ring_exact with the Held-Karp table of d already built (hk->p ==
 * pl->p, built on vproc_ring_d; NULL only when p = 1): the experiments
 * sweep W/H on one table. */
vproc_status vproc_ring_exact_hk(const vproc_ring_platform *pl, const vproc_ring_hk *hk,
                                 vproc_ring *out);

/*
 * vproc_ring_milp -- one GLPK MILP over every q >= 2 (notes s4): x_ij
 * binary (i != j: no self-loops, ERROR 2a), z_i in the ring, y_i the root of
 * the MTZ order u, alpha_i, and T >= W w_i alpha_i + H sum_j c_ij (x_ij +
 * x_ji); then the better of that and q = 1.  The ring found is re-timed with
 * vproc_ring_time.  GLPK's output is silenced.
 *   time_limit [in]  seconds (> 0); when GLPK stops on it with a feasible
 *                    ring, out->lower_bound is GLPK's best bound
 *                    (with q = 1's time) and out->optimal = 0 unless
 *                    the ring reaches it; VPROC_ERANGE if it found no ring
 *   out        [out] allocated here
 */
vproc_status vproc_ring_milp(const vproc_ring_platform *pl, double time_limit,
                             vproc_ring *out);

enum {
	VPROC_RING_INSERT_DELTA = 0, /* insertion cost: the increase of sum d (notes s5) */
	VPROC_RING_INSERT_TSTEP = 1  /* insertion cost: T_R of the enlarged ring */
};

/*
 * vproc_ring_greedy -- 004 s6.2 as fixed by notes s5.  The ring starts as
 * [start] (start = SIZE_MAX: the fastest machine, lowest index on a tie).
 * For r = 1..p-1, every machine k outside the ring and every consecutive
 * pair (j, l) of the ring is scored (insert = DELTA: d_jk + d_kl - d_jl,
 * for r = 1: d_sk + d_ks; insert = TSTEP: T_R of the enlarged ring); the
 * least score wins, ties to the lowest k, then the earliest position (the
 * pair at position m is (ring[m], ring[m+1 mod r])).  Scores within 1e-10
 * of the largest d (DELTA; 1e-12 W w_min for TSTEP) are ties, so that equal
 * links tie whatever the rounding.  The best T_R over all
 * r (q = 1 included) is returned.  O(p^3) for DELTA.
 */
vproc_status vproc_ring_greedy(const vproc_ring_platform *pl, size_t start, int insert,
                               vproc_ring *out);

/*
 * vproc_ring_heuristic -- vproc_ring_greedy from every start (both insert
 * rules), then a first-improvement local search on the best ring, every
 * move scored by the exact T_R: 2-opt (reverse a segment), move one machine
 * (Or-opt), add a dropped machine anywhere, drop a machine, swap a ring
 * machine for a dropped one.  A move is taken only when it lowers T by more
 * than 1e-12 relative.  Never worse than vproc_ring_greedy.
 */
vproc_status vproc_ring_heuristic(const vproc_ring_platform *pl, vproc_ring *out);

/*
 * vproc_ring_tsp -- 004 s6.1: every machine in the ring (q = p), ordered by
 * a TSP heuristic on the corrected d (cheapest insertion from every start,
 * then 2-opt and Or-opt on sum d), timed exactly.  Never drops a machine.
 */
vproc_status vproc_ring_tsp(const vproc_ring_platform *pl, vproc_ring *out);

/* ------------------------------------------------------------------------
 * ring_columns.c -- whole columns (notes s8, the exchange argument of
 * 000 Alg 3.1)
 * ------------------------------------------------------------------------ */

/*
 * vproc_ring_columns -- split N columns over the ring order[0..q-1]: each
 * machine gets one column, then each further column goes to the machine k
 * minimising (n_k + 1) w_k W/N + H C_k (ties: lower key, then the earlier
 * ring position), with a heap: O(q + N log q).  By the exchange argument of
 * 000 Alg 3.1 this minimises T_int = max_k n_k w_k W/N + H C_k over every
 * split with n_k >= 1.
 *   N      [in]  columns, >= q
 *   n      [out] q column counts, in ring order
 *   T_int  [out] max_k n_k w_k W/N + H C_k (q = 1: W w)
 */
vproc_status vproc_ring_columns(const vproc_ring_platform *pl, size_t q, const size_t *order,
                                size_t N, size_t *n, double *T_int);

#endif
