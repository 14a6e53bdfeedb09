/*
 * columns_grid.h -- layout columns' second comparison: the plan paper 000's
 * 2D planner (layout: 2d) makes for the same machines, read as a partition
 * of the matrix product (001 s4 and notes s4: a p x q grid is a column
 * partition of q columns whose row cuts line up).
 */
#ifndef HL_COLUMNS_GRID_H
#define HL_COLUMNS_GRID_H

#include "config/config.h"
#include "planner/mmm/mmm.h"

typedef struct {
	size_t p, q;            /* layout 2d's grid (its shape chosen by its LU model) */
	size_t Bp, Bq;          /* its panel, repeated cyclically over the block matrix */
	size_t dropped;         /* machines layout 2d leaves out (the slowest) */
	size_t *left_out;       /* [dropped] their config indices */
	double cost;            /* C^ in the unit square: p + q */
	vproc_mmm_plan plan;    /* one rectangle per grid machine, grid rows and
	                         * columns made contiguous (the product does not
	                         * care about the order of rows and columns) */
	double predicted;       /* vproc_mmm_predict(plan, beta) */
} hl_columns_grid;

/*
 * hl_columns_grid_plan -- call layout 2d's planner on cfg's machines (grid,
 * arrangement and panel chosen as `layout: 2d` chooses them when omitted,
 * comm_cost as given) and evaluate its block plan with the product's model
 * and beta.  Returns 0; 1 when layout 2d refuses these machines (more than
 * it arranges, too few blocks: out is then zeroed); -1 out of memory.
 */
int hl_columns_grid_plan(const hl_config *cfg, double beta, hl_columns_grid *out);
void hl_columns_grid_free(hl_columns_grid *g);

#endif
