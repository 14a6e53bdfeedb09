/*
 * vproc.h -- the planning algorithms of hetlaunch.
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
#ifndef VPROC_H
#define VPROC_H

#include <stddef.h>

#define VPROC_VERSION "0.1.0"

typedef enum {
	VPROC_OK = 0,
	VPROC_EINVAL,  /* an argument is out of its domain (t <= 0, NaN, p == 0 ...) */
	VPROC_ENOMEM,  /* an allocation failed */
	VPROC_ERANGE   /* a size would overflow */
} vproc_status;

/* A static, human-readable description of a status. */
const char *vproc_strerror(vproc_status st);

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

#endif /* VPROC_H */
