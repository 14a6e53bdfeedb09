/*
 * planner.h -- the planning algorithms of hetlaunch (vproc/planner/).
 *
 * libvproc is pure: no I/O, no MPI, no exit().  Every fallible function
 * returns a vproc_status.  Arrays are owned by the caller unless a *_free
 * function says otherwise.
 *
 * Units: a cycle time t_i is the time processor i needs for one unit of work
 * (one chunk, i.e. the update of one column block).  All costs below are in
 * the units of t.
 *
 * Papers (../shared/papers):
 *   000  Beaumont et al., A Proposal for a Heterogeneous Cluster ScaLAPACK,
 *        IEEE TC 2001.
 *   002  Boudet, Rastello, Robert, LIP RR-1999-17.
 */
#ifndef VPROC_PLANNER_H
#define VPROC_PLANNER_H

#include <stddef.h>

#include "common/status.h"

/* ------------------------------------------------------------------------
 * chunks.c -- independent equal chunks (000 s3.1, Alg 3.1; 002 s2.1, Alg 2.1)
 * ------------------------------------------------------------------------ */

/*
 * vproc_chunks_init -- the initialisation step of Alg 3.1:
 *   c_i = floor( (1/t_i) / sum_k (1/t_k) * M ),  so that sum c_i <= M.
 *   p  [in]  number of processors, >= 1
 *   t  [in]  p cycle times, finite and > 0
 *   M  [in]  number of chunks
 *   c  [out] p counts
 */
vproc_status vproc_chunks_init(size_t p, const double *t, size_t M, size_t *c);

/*
 * vproc_chunks_complete -- the incrementation loop of Alg 3.1, in
 * O(p + k log p) for k increments with a binary heap: while sum c < M, give
 * one more chunk to the k minimising t_k (c_k + 1).  Ties go to the faster
 * processor, then to the lower index.
 *   c  [in,out] p counts with sum c <= M
 */
vproc_status vproc_chunks_complete(size_t p, const double *t, size_t M, size_t *c);

/*
 * vproc_chunks_optimal -- Alg 3.1 whole: init then complete.  O(p log p).
 * The result minimises max_i c_i t_i (Prop 1).
 */
vproc_status vproc_chunks_optimal(size_t p, const double *t, size_t M, size_t *c);

/* max_i c_i t_i: the time to process an allocation. */
double vproc_chunks_makespan(size_t p, const double *t, const size_t *c);

/* ------------------------------------------------------------------------
 * slice.c -- a slice of B virtual processes for LU/QR (000 s3.3-3.4,
 * 002 s2.2-2.3, optimized variant 002 s4.4)
 * ------------------------------------------------------------------------ */

enum {
	VPROC_SLICE_PLAIN = 0,
	/* 002 s4.4: start the incremental allocation from C = (2,0,...,0) on
	 * the fastest processor instead of C = (0,...,0). */
	VPROC_SLICE_OPTIMIZED = 1u << 0
};

typedef struct {
	size_t p;             /* processors (machines) */
	size_t B;             /* virtual processes in the slice */
	size_t *sigma;        /* [B] processor chosen for chunk s+1 (000 Table 2) */
	size_t *pattern;      /* [B] processor of virtual process k: sigma reversed */
	size_t *counts;       /* [p] virtual processes per processor */
	double *prefix_cost;  /* [B] cost of the allocation of s+1 chunks,
	                       *     max_i c_i t_i / (s+1) (000 Table 2 "Cost") */
	double cost;          /* prefix_cost[B-1]: steady-state cost per chunk */
} vproc_slice;

/*
 * vproc_pattern_group -- reorder a pattern (a slice's, or a panel's rows or
 * columns) so that equal entries are adjacent, machines in the order of
 * their first appearance: the same processes per machine, hence the same
 * balance for an operation whose work does not shrink (a product), with
 * each machine's processes next to each other in the rings of PBLAS
 * (pattern_group.c says why).
 *   p        [in]     entries are < p
 *   B        [in]     length
 *   pattern  [in,out] reordered in place
 * Returns VPROC_OK, VPROC_EINVAL (an entry >= p) or VPROC_ENOMEM.
 */
vproc_status vproc_pattern_group(size_t p, size_t B, size_t *pattern);

/*
 * vproc_slice_build -- the incremental ("dynamic programming") allocation of
 * 000 s3.3 in O(B log p) with a binary heap, reversed into a slice pattern
 * (000 s3.4).  The trailing s virtual processes of the pattern hold an
 * optimal allocation of s chunks for every s <= B (Prop 2).
 *   p, t   [in]  processors and their cycle times
 *   B      [in]  virtual processes, >= 1 (>= 2 with VPROC_SLICE_OPTIMIZED)
 *   flags  [in]  VPROC_SLICE_PLAIN or VPROC_SLICE_OPTIMIZED
 *   out    [out] filled on VPROC_OK; release with vproc_slice_free
 */
vproc_status vproc_slice_build(size_t p, const double *t, size_t B,
                               unsigned flags, vproc_slice *out);
void vproc_slice_free(vproc_slice *s);

/* Index of the fastest processor (smallest t; the first one on a tie). */
size_t vproc_fastest(size_t p, const double *t);

/* 1 / sum_i (1/t_i): the cost per chunk of a perfect balance (B = infinity). */
double vproc_cost_ideal(size_t p, const double *t);

/* max_i t_i / p: cyclic with one process per processor (002 Tables 4-5). */
double vproc_cost_cyclic(size_t p, const double *t);

/*
 * vproc_lu_predict -- step-by-step time of an LU (or QR) of M column blocks
 * distributed CYCLIC over a slice pattern (000 Fig 3 and Fig 5).  Block j
 * (0-based) belongs to virtual process j mod B, hence to processor
 * pattern[j mod B].  At step k (k = 0..M-2) the blocks k+1..M-1 are updated;
 * each of them holds M-k-1 b x b blocks below the diagonal band, so
 * processor i works t_i * (M-k-1) * n_i(k), with n_i(k) its column blocks
 * among k+1..M-1.  The step ends with the slowest processor, and the steps
 * add up.  Virtual processes of one processor share it, so their work adds.
 * Panel factorisations, an O(n^2 b) term, are left out, as in the papers.
 *   time  [out] the predicted time, in units of t times b x b block updates
 */
vproc_status vproc_lu_predict(size_t p, const double *t, size_t B,
                              const size_t *pattern, size_t M, double *time);

/*
 * vproc_choose_B -- the number of virtual processes when the user gave none.
 * Every extra process costs memory and management (002 s3 used B = 9 for
 * that reason), so take the smallest B whose steady-state cost is within
 * (1 + tol) of the ideal.  When no B <= cap gets there, take the B <= cap
 * of least cost (the smallest such B).  cap is clamped to >= 1.
 *   B  [out]
 */
vproc_status vproc_choose_B(size_t p, const double *t, size_t cap, double tol,
                            unsigned flags, size_t *B);
/* The same among B >= from (from > cap: B = from): a plan that leaves a
 * processor idle while it gives another two processes is slower than one
 * process per processor until B reaches the processors. */
vproc_status vproc_choose_B_from(size_t p, const double *t, size_t from, size_t cap,
                                 double tol, unsigned flags, size_t *B);

/* ------------------------------------------------------------------------
 * The 2D grid allocation problem (000 s4.3): machines arranged on a p x q
 * grid, machine (i,j) of cycle time t_ij gets r_i x c_j of the work.
 * Maximise (sum r)(sum c) subject to r_i c_j t_ij <= 1 (Obj_2).
 * Matrices are row-major: T[i*q + j].
 * ------------------------------------------------------------------------ */

/* grid_eval.c */

/* (sum r)(sum c). */
double vproc_grid_objective(size_t p, size_t q, const double *r, const double *c);

/* sum_ij 1/t_ij: the absolute bound on the objective (000 s4.3.4, Fig 12). */
double vproc_grid_bound(size_t n, const double *t);

/* max_ij r_i c_j t_ij: <= 1 (up to rounding) for a feasible solution. */
double vproc_grid_load(size_t p, size_t q, const double *T, const double *r,
                       const double *c);

/*
 * vproc_grid_normalize -- 000 s4.3.4 "Computing the r_i and c_j": divide each
 * c_j by the largest entry of column j of (r_i t_ij c_j), then each r_i by
 * the largest entry of row i.  Afterwards every row and every column has an
 * equality and all entries are <= 1.  r, c must be positive.
 */
vproc_status vproc_grid_normalize(size_t p, size_t q, const double *T, double *r, double *c);

/*
 * vproc_grid_improve -- the "correctness" argument of 000 s4.3.3 as an
 * algorithm: while the graph of equalities r_i c_j t_ij = 1 is not
 * connected, scale one component (rows up and columns down, or the reverse)
 * until a new equality appears, choosing the direction that increases the
 * objective.  Never decreases the objective; ends at a solution whose
 * equality graph is connected (a vertex of the feasible polyhedron).
 */
vproc_status vproc_grid_improve(size_t p, size_t q, const double *T, double *r, double *c);

/* grid_exact.c */

/*
 * vproc_grid_solve -- the optimal r, c for a fixed arrangement T.  The
 * optimum has a connected equality graph (000 s4.3.3), so it is reached by
 * adding rows and columns in alternating blocks, each new vertex taking the
 * tightest value its placed neighbours allow; we enumerate those block
 * sequences.  2 x 2 uses the closed form of 000 s4.3.3; a rank-1 T is solved
 * directly.  Exponential in p + q: meant for p + q <= 10 or so.
 *   obj [out] (sum r)(sum c)
 */
vproc_status vproc_grid_solve(size_t p, size_t q, const double *T, double *r, double *c,
                              double *obj);

/* The 2 x 2 closed form of 000 s4.3.3 (the best of r = t11/t21, t12/t22). */
vproc_status vproc_grid_solve_2x2(const double *T, double *r, double *c, double *obj);

/* 1 if T is rank 1 within relative tolerance tol (t_ij t_11 = t_i1 t_1j). */
int vproc_grid_is_rank1(size_t p, size_t q, const double *T, double tol);

typedef struct {
	size_t p, q;
	size_t *arr;    /* [p*q] index into t of the machine at (i,j), row-major */
	double *r;      /* [p] */
	double *c;      /* [q] */
	double obj;     /* (sum r)(sum c) */
	size_t visited; /* arrangements (exact) or iterations (heuristic) */
} vproc_grid;

vproc_status vproc_grid_init(vproc_grid *g, size_t p, size_t q);
void vproc_grid_free(vproc_grid *g);

/*
 * vproc_grid_exact -- the optimal arrangement of the p*q machines t[0..pq-1]
 * on a p x q grid, with its optimal r, c.  Searches the nondecreasing
 * arrangements only (Prop 3), each with vproc_grid_solve, skipping mirror
 * images on square grids and stopping early when the bound sum 1/t is met
 * (a rank-1 arrangement).
 */
vproc_status vproc_grid_exact(size_t p, size_t q, const double *t, vproc_grid *out);

/* grid_svd.c */

enum {
	VPROC_SVD_PAPER = 0,            /* 000 s4.3.4 exactly: last iterate */
	VPROC_SVD_KEEP_BEST = 1u << 0,  /* return the best iterate, not the last */
	VPROC_SVD_OPTIMAL_RC = 1u << 1, /* improve r, c of each arrangement (vproc_grid_improve,
	                                 * or vproc_grid_solve when p + q <= 8) */
	VPROC_SVD_LOCAL = 1u << 2,      /* then a local search over swaps of two machines */
	VPROC_SVD_BEST = VPROC_SVD_KEEP_BEST | VPROC_SVD_OPTIMAL_RC | VPROC_SVD_LOCAL
};

/*
 * vproc_grid_svd -- the heuristic of 000 s4.3.4: the sorted nondecreasing
 * arrangement; r, c from the rank-1 approximation of (1/t_ij) by LAPACK
 * dgesvd, normalised; iterative refinement (re-arrange the machines in the
 * order of 1/(r_i c_j)) until the arrangement repeats.
 *   trace     [out, optional] the objective after each step (trace_cap entries)
 *   steps     [out, optional] how many steps ran
 */
vproc_status vproc_grid_svd(size_t p, size_t q, const double *t, unsigned flags,
                            size_t max_iter, double *trace, size_t trace_cap,
                            size_t *steps, vproc_grid *out);

/* grid_shape.c -- which machines, on which p x q grid (000 s4.3.1: p x q <= n) */

typedef struct {
	size_t p, q;      /* the grid: the p*q fastest machines */
	double obj;       /* (sum r)(sum c) of its arrangement */
	double compute;   /* M^3 / (3 obj): the updates of an LU of M blocks */
	double comm;      /* beta M^2 (1/p + 1/q) / 2: its panel broadcasts */
	double time;      /* compute + comm */
} vproc_shape;

/*
 * vproc_grid_choose_shape -- the grid with the least predicted LU time over
 * every k <= n fastest machines and every p x q = k (p <= q).  A 1 x k grid
 * always balances perfectly, but every process then receives whole pivot
 * panels; a square grid receives 1/p + 1/q of them.  The model, in units of
 * cycle_time for an LU of M x M blocks: compute M^3 / (3 obj) (the
 * trailing updates, sum_k (M-k)^2, at the grid's rate obj), plus
 * communication beta M^2 (1/p + 1/q) / 2, beta the time to send one b x b
 * block.  Small grids (k <= 9) are arranged exactly, others by the
 * heuristic with all our refinements.  Up to 64 machines every k <= n is
 * tried; beyond, the whole list and the list without each of its slowest
 * classes of equal cycle times (up to 8), each with every p <= sqrt(k) and
 * q = floor(k / p), arranged by the heuristic without its local search.
 *   best [out]
 */
vproc_status vproc_grid_choose_shape(size_t n, const double *t, size_t M, double beta,
                                     vproc_shape *best);

/* panel.c -- the Bp x Bq block panel (000 s4.1.2, s4.2.2, Figs 6, 7, 9) */

typedef struct {
	size_t p, q;          /* the grid */
	size_t Bp, Bq;        /* virtual rows and columns of the panel */
	size_t *R;            /* [p] virtual rows of each grid row, sum Bp */
	size_t *C;            /* [q] virtual columns of each grid column, sum Bq */
	size_t *row_pattern;  /* [Bp] grid row of virtual row I */
	size_t *col_pattern;  /* [Bq] grid column of virtual column J */
	double load;          /* max_ij R_i C_j t_ij: the time of one panel */
	double efficiency;    /* (Bp Bq / load) / (sum r)(sum c): the integer
	                       * panel against the rational optimum */
} vproc_panel;

/*
 * vproc_panel_build -- turn rational shares r, c (normalised, as from
 * vproc_grid_*) into integers R, C with sum R = Bp, sum C = Bq, every share
 * >= 1, minimising the panel time max R_i C_j t_ij: start from the shares
 * rounded by largest remainder, then alternately re-solve the rows for
 * fixed C and the columns for fixed R (each a 1D problem of Alg 3.1 with the
 * row time max_j C_j t_ij) until neither improves.  Then order the virtual
 * rows (columns) by the 1D incremental allocation of 000 s4.2.2, each grid
 * row (column) acting as one processor of aggregated cycle time
 * 1 / sum_j (C_j / t_ij), with its count held to R_i (C_j), and reversed.
 *   Bp >= p, Bq >= q.
 */
vproc_status vproc_panel_build(size_t p, size_t q, const double *T, const double *r,
                               const double *c, size_t Bp, size_t Bq, vproc_panel *out);
void vproc_panel_free(vproc_panel *pn);

/*
 * vproc_panel_choose -- Bp, Bq when the user gave none.  Like B in 1D, every
 * virtual process costs memory and management, so take the smallest panel
 * (Bp Bq, then Bp + Bq) whose efficiency is at least 1 - tol; if none under
 * the caps does, the most efficient one.  Bp <= maxdim, Bq <= maxdim (the
 * matrix's block rows and columns), Bp Bq <= cap.
 */
vproc_status vproc_panel_choose(size_t p, size_t q, const double *T, const double *r,
                                const double *c, size_t cap, size_t maxdim, double tol,
                                size_t *Bp, size_t *Bq);

/*
 * vproc_kl_panel_time -- the heterogeneous block-cyclic distribution of
 * Kalinov and Lastovetsky (000 s4.1.2, Fig 8), as a predicted-cost baseline
 * only: it is not a grid (a processor may have two west neighbours), so
 * stock ScaLAPACK cannot run it.  Each grid column j shares the Bp panel
 * rows among its machines by Alg 3.1 (time tau_j = max_i n_ij t_ij), then
 * the columns share the Bq panel columns by Alg 3.1 on the tau_j.
 *   time [out] the panel time max_j C_j tau_j (divide by Bp Bq per block)
 */
vproc_status vproc_kl_panel_time(size_t p, size_t q, const double *T, size_t Bp, size_t Bq,
                                 double *time);

/* grid_deal.c -- alike hosts' machines on the grid (000 s4.3.1) */

typedef enum {
	VPROC_DEAL_EQUAL = 0,    /* dealt: every host the same sum */
	VPROC_DEAL_INDIVISIBLE,  /* the values' sum is not a multiple of the hosts */
	VPROC_DEAL_NO_SPLIT,     /* no split gives every host m slots and the same sum */
	VPROC_DEAL_BUDGET        /* none found within the search's budget */
} vproc_deal_result;

/*
 * vproc_grid_deal -- share n = k m slots of values v[0..n-1] among k hosts,
 * m slots each, so that every host's values sum to the same.  A slot is a
 * grid cell of one cycle time that the hosts' machines hold, its value the
 * processes R_i C_j of that cell (0: a machine left off the grid); the
 * grid's objective sees cells' cycle times only (000 s4.3.1), so any
 * such deal keeps R, C and the predicted time.  Each host's mix of values
 * is searched (hosts in nonincreasing order of their mixes, so no two
 * orders of one split are both tried), then a value's slots go to the
 * hosts in slot order, host 0 first.
 *   budget  the search's steps at most (0: a default of 10^6)
 *   host    [out, n] the host of each slot, when *res is VPROC_DEAL_EQUAL
 *   res     [out]
 */
vproc_status vproc_grid_deal(size_t k, size_t m, const size_t *v, size_t budget, size_t *host,
                             vproc_deal_result *res);

/*
 * vproc_slice_quota -- the incremental allocation of 000 s3.3 with the
 * counts fixed in advance: chunk s+1 goes to the processor of least
 * t_i (c_i + 1) among those below quota[i]; pattern is that reversed.
 * sum quota must equal B.  O(B p): panels are small.
 */
vproc_status vproc_slice_quota(size_t p, const double *t, const size_t *quota, size_t B,
                               size_t *pattern);

#endif /* VPROC_PLANNER_H */
