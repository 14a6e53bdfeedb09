/*
 * mmm.h -- matrix product C = A B on a heterogeneous rectangle partition
 * (paper 001: Beaumont, Boudet, Rastello, Robert, "Matrix-Matrix
 * Multiplication on Heterogeneous Platforms", LIP RR-2000-02; checked notes
 * ../shared/specs/001-mmm-partition.md, cited "notes sN").
 *
 * Model (001 s3).  p machines with cycle times t_i get one rectangle each of
 * the unit square, of area s_i = (1/t_i) / sum_j 1/t_j, so that every
 * machine computes for the same time.  Every step of the outer-product
 * algorithm sends each rectangle the pieces of A and B it lacks, whose
 * total is the sum of the half-perimeters C^ = sum_i (w_i + h_i) minus 2
 * (owners keep their own pieces).  Minimising C^ is NP-complete (Thm 1);
 * C^ >= 2 sum sqrt(s_i) (Lemma 1).
 *
 * Algorithms:
 *   vproc_mmm_columns      the optimal column-based tiling, s5.1 (exact DP,
 *                          O(p^3), deterministic ties: notes s2.6)
 *   vproc_mmm_guillotine   the optimal recursive (guillotine) partition,
 *                          exact for p <= VPROC_MMM_GUILLOTINE_MAX (beyond
 *                          the paper, notes s5.3); above, a bisection whose
 *                          parts of at most VPROC_MMM_GUILLOTINE_LEAF
 *                          machines are solved exactly
 *   vproc_mmm_blocks       the integer plan in nb x nb blocks (notes s5.1)
 *   vproc_mmm_select       the fastest k machines minimising the predicted
 *                          time (notes s5.2)
 *
 * Pure: no I/O, no MPI, no exit(); every fallible function returns a
 * vproc_status.
 */
#ifndef VPROC_MMM_H
#define VPROC_MMM_H

#include <stddef.h>

#include "planner/planner.h"

/* The exact guillotine search enumerates 3^p subset splits. */
#define VPROC_MMM_GUILLOTINE_MAX 10
/* The bisection solves parts of at most this many machines exactly. */
#define VPROC_MMM_GUILLOTINE_LEAF 8

/* One machine's rectangle of the unit square: x to the right, y down. */
typedef struct {
	size_t machine;    /* index into the caller's t[] / s[] */
	double x, y, w, h;
} vproc_mmm_rect;

/* A node of a guillotine tree (a column partition is one too: vertical cuts
 * between columns, horizontal cuts inside them). */
typedef enum { VPROC_MMM_LEAF, VPROC_MMM_VCUT, VPROC_MMM_HCUT } vproc_mmm_kind;
typedef struct {
	vproc_mmm_kind kind;
	size_t machine;    /* LEAF: the machine */
	size_t first, second; /* cuts: children (left/top, then right/bottom) */
	double area;       /* sum of the areas below */
} vproc_mmm_node;

typedef enum { VPROC_MMM_COLUMNS, VPROC_MMM_GUILLOTINE } vproc_mmm_algorithm;

typedef struct {
	size_t p;
	vproc_mmm_algorithm algorithm;
	int exact;              /* 1 when optimal for its algorithm's class */
	vproc_mmm_rect *rect;   /* [p] in partition order: a column partition
	                         * column by column, left to right, each top to
	                         * bottom; a guillotine one in tree order */
	double cost;            /* C^ = sum (w + h) */
	size_t ncols;           /* columns (COLUMNS); 0 for GUILLOTINE */
	size_t *col_count;      /* [p] machines per column, ncols used */
	vproc_mmm_node *node;   /* [2p-1] the tree; its root is the last node */
	size_t nnodes;
} vproc_mmm_partition;

void vproc_mmm_partition_free(vproc_mmm_partition *part);

/* s_i = (1/t_i) / sum_j 1/t_j (001 s3.1, (1) and (2)).  t finite > 0. */
vproc_status vproc_mmm_areas(size_t p, const double *t, double *s);

/* LB = 2 sum sqrt(s_i) (Lemma 1). */
double vproc_mmm_lower_bound(size_t p, const double *s);

/* Sum of the half-perimeters of p rectangles. */
double vproc_mmm_cost(size_t p, const vproc_mmm_rect *r);

/* 1 when the p rectangles tile the unit square (inside it, pairwise
 * disjoint interiors, areas summing to 1, all within tol) and rect i has
 * area s[r.machine] within tol; 0 otherwise. */
int vproc_mmm_tiles(size_t p, const vproc_mmm_rect *r, const double *s, double tol);

/* ------------------------------------------------------------------------
 * columns.c -- the optimal column-based tiling (001 s5.1, MMM-COL)
 * ------------------------------------------------------------------------ */

/*
 * vproc_mmm_col_table -- the DP of s5.1 on areas already sorted ascending:
 *   f_1(q) = 1 + q S(0,q];  f_C(q) = min_{1<=r<=q-C+1} 1 + r S(q-r,q] + f_{C-1}(q-r)
 *   p     [in]  >= 1
 *   s     [in]  p areas, ascending, finite > 0
 *   f     [out] p*p: f[(C-1)*p + q-1] for C <= q (NaN elsewhere)
 *   cut   [out] p*p: cut_C(q) = q - r_opt, the areas in the first C-1 columns
 * Ties: r scanned upward, a later r kept only when better by more than
 * 1e-12 relative (notes s2.6: Table 1 prints cut 7 for f_4(8)).
 */
vproc_status vproc_mmm_col_table(size_t p, const double *s, double *f, size_t *cut);

/*
 * vproc_mmm_columns -- the optimal column partition of areas s (any order,
 * summing to 1 within 1e-9): sorted ascending (ties by index), the DP, the
 * smallest optimal number of columns, the rectangles.  Column i holds a
 * contiguous run of the sorted areas, its width their sum.
 *   out [out] free with vproc_mmm_partition_free
 */
vproc_status vproc_mmm_columns(size_t p, const double *s, vproc_mmm_partition *out);

/* A given column partition (001 s6.1, Fig 12 and Table 2 compare several):
 * column j holds count[j] machines, taken in the order of idx[] (every
 * machine exactly once), top to bottom.  out->exact = 0. */
vproc_status vproc_mmm_columns_fixed(size_t p, const double *s, const size_t *idx, size_t ncols,
                                     const size_t *count, vproc_mmm_partition *out);

/* The cost of the column partition with ncols columns of count[j] areas
 * each, taken in the order of idx[] (a brute force's evaluator):
 * sum_j (1 + count[j] * width_j). */
double vproc_mmm_columns_cost(const double *s, const size_t *idx, size_t ncols,
                              const size_t *count);

/* ------------------------------------------------------------------------
 * guillotine.c -- recursive partitions (001 s5.4; notes s5.3)
 * ------------------------------------------------------------------------ */

/*
 * vproc_mmm_guillotine -- the best guillotine partition of the unit square:
 * exact (over every binary tree of cuts) for p <= VPROC_MMM_GUILLOTINE_MAX,
 * out->exact = 1; above, balanced bisection with exact parts, exact = 0.
 * Why exact is possible: for a fixed tree the cost of a w x h rectangle is
 * alpha w + beta h, so each subset keeps the lower-left convex hull of its
 * (alpha, beta) pairs, and the unit square takes the least alpha + beta.
 */
vproc_status vproc_mmm_guillotine(size_t p, const double *s, vproc_mmm_partition *out);

/* The better of the two (ties: columns): `partition: auto`. */
vproc_status vproc_mmm_best(size_t p, const double *s, vproc_mmm_partition *out);

/* ------------------------------------------------------------------------
 * blocks.c -- the integer plan in nb x nb blocks (notes s5.1)
 * ------------------------------------------------------------------------ */

typedef struct {
	size_t machine;
	size_t row, col;      /* first block row and column */
	size_t rows, cols;    /* H_i, W_i in blocks, >= 1 */
} vproc_mmm_block;

typedef struct {
	size_t p, nb;         /* nb: blocks per side (n / block size) */
	vproc_mmm_block *blk; /* [p] in the partition's order */
	double max_load;      /* max_i t_i H_i W_i: one step's compute, in units of t */
	size_t half_perimeter;/* sum_i (H_i + W_i) */
} vproc_mmm_plan;

void vproc_mmm_plan_free(vproc_mmm_plan *plan);

/*
 * vproc_mmm_blocks -- whole blocks for a partition of p machines with cycle
 * times t (indexed like part->rect[].machine), nb blocks a side.
 * A column partition keeps its columns: each column's heights minimise
 * max t_i H_i with every H_i >= 1 (000 Alg 3.1 from one block each), then
 * the widths minimise max_j W_j m_j the same way: together exactly the
 * least largest load for that column composition.  A guillotine tree cuts
 * its extents in proportion to the areas, rounded, each side keeping room
 * for one block per machine.  Needs nb >= rows and columns the tree
 * needs (VPROC_ERANGE otherwise: nb too small for p machines).
 */
vproc_status vproc_mmm_blocks(const vproc_mmm_partition *part, const double *t, size_t nb,
                              vproc_mmm_plan *out);

/* 1 when the blocks tile the nb x nb block matrix, each at least 1 x 1. */
int vproc_mmm_blocks_tile(const vproc_mmm_plan *plan);

/* ------------------------------------------------------------------------
 * select.c -- predicted time and the choice of machines (notes s4, s5.2)
 * ------------------------------------------------------------------------ */

/* T = nb [max_i t_i H_i W_i + beta (sum (H_i + W_i) - 2 nb)]: nb steps, each
 * one block update per owned block and beta per block received (notes s4,
 * "Cost model"). */
double vproc_mmm_predict(const vproc_mmm_plan *plan, double beta);

/* The bytes one product moves: 8 r^2 nb (sum (H + W) - 2 nb), r the block
 * order (notes s4, "Volume"). */
double vproc_mmm_bytes(const vproc_mmm_plan *plan, size_t r);

typedef struct {
	size_t used;             /* machines kept: the fastest `used` */
	size_t *machine;         /* [used] their indices into t, fastest first
	                          * (ties: smaller index) */
	vproc_mmm_partition part;/* over used machines; rect[].machine indexes t */
	vproc_mmm_plan plan;     /* blk[].machine indexes t */
	double predicted;        /* vproc_mmm_predict */
	double *predicted_k;     /* [p] the predicted time with the k+1 fastest
	                          * (INFINITY when nb is too small for them) */
} vproc_mmm_choice;

void vproc_mmm_choice_free(vproc_mmm_choice *c);

/*
 * vproc_mmm_select -- partition (alg: COLUMNS, GUILLOTINE, or -1 for the
 * better of both), block plan and prediction for the k fastest machines;
 * keeps every machine (drop = 0) or the k of least predicted time (drop =
 * 1; ties: more machines).
 */
vproc_status vproc_mmm_select(size_t p, const double *t, int alg, size_t nb, double beta,
                              int drop, vproc_mmm_choice *out);

#endif
