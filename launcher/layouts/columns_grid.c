/*
 * columns_grid.c -- paper 000's 2D panel plan as a matrix-product partition,
 * beside layout columns' rectangles (`plan` and `compare` report
 * it).  Machine (i, j) of a p x q grid owns R_i of the Bp panel rows and C_j
 * of the Bq panel columns, the panel repeated over the n/nb x n/nb block
 * matrix (000 s4.1.2).  Gather grid row i's block rows together and grid
 * column j's block columns together: every machine then owns one H_i x W_j
 * rectangle, and the product (an outer product over k) moves exactly what
 * it moved before.  So the rectangle model of 001 s3 applies unchanged:
 * C^ = sum_ij (h_i + w_j) = p + q, a column partition of q equal-count
 * columns whose row cuts line up (notes s4).  The plan itself is layout
 * 2d's: we call its row, we do not redo it.
 */
#include <stdlib.h>
#include <string.h>

#include "columns_grid.h"
#include "util/diag.h"
#include "layout.h"
#include "plan.h"

void hl_columns_grid_free(hl_columns_grid *g)
{
	vproc_mmm_plan_free(&g->plan);
	free(g->left_out);
	memset(g, 0, sizeof *g);
}

/* Blocks of the n/nb block rows (columns) that fall to each grid row
 * (column) when the panel's pattern repeats: count[pattern[k % B]]. */
static void tally(size_t N, size_t B, const size_t *pattern, size_t *count)
{
	for (size_t k = 0; k < N; k++)
		count[pattern[k % B]]++;
}

/* The rectangles, grid column by grid column, each top to bottom (the order
 * layout columns gives its ranks). */
static int grid_rects(const hl_plan *p2, const size_t *H, const size_t *W, size_t N,
                      vproc_mmm_plan *out)
{
	size_t p = p2->p, q = p2->q;
	*out = (vproc_mmm_plan){ .p = p * q, .nb = N };
	out->blk = calloc(p * q, sizeof *out->blk);
	if (!out->blk)
		return -1;
	size_t col = 0, k = 0;
	for (size_t j = 0; j < q; col += W[j], j++) {
		size_t row = 0;
		for (size_t i = 0; i < p; row += H[i], i++, k++) {
			size_t m = hl_plan_at(p2, i, j);
			out->blk[k] = (vproc_mmm_block){ .machine = m, .row = row, .col = col,
			                                 .rows = H[i], .cols = W[j] };
			double load = p2->t[m] * (double)H[i] * (double)W[j];
			if (load > out->max_load)
				out->max_load = load;
			out->half_perimeter += H[i] + W[j];
		}
	}
	return 0;
}

static int from_plan(const hl_plan *p2, size_t N, double beta, hl_columns_grid *g)
{
	size_t *H = calloc(p2->p, sizeof *H), *W = calloc(p2->q, sizeof *W);
	g->left_out = calloc(p2->dropped ? p2->dropped : 1, sizeof *g->left_out);
	int rc = H && W && g->left_out ? 0 : -1;
	if (rc == 0) {
		tally(N, p2->panel.Bp, p2->panel.row_pattern, H);
		tally(N, p2->panel.Bq, p2->panel.col_pattern, W);
		rc = grid_rects(p2, H, W, N, &g->plan);
	}
	free(H);
	free(W);
	if (rc < 0)
		return -1;
	g->p = p2->p;
	g->q = p2->q;
	g->Bp = p2->panel.Bp;
	g->Bq = p2->panel.Bq;
	g->dropped = p2->dropped;
	for (size_t k = 0; k < p2->dropped; k++)
		g->left_out[k] = p2->sel[p2->p * p2->q + k];
	g->cost = (double)(p2->p + p2->q);
	g->predicted = vproc_mmm_predict(&g->plan, beta);
	return 0;
}

int hl_columns_grid_plan(const hl_config *cfg, double beta, hl_columns_grid *out)
{
	memset(out, 0, sizeof *out);
	/* layout 2d's own choices: nothing of this file's 2d keys applies
	 * (they are refused under layout: columns), so every one is "omitted". */
	hl_config c2 = *cfg;
	c2.layout = hl_layout_find("2d");
	c2.layout_cfg = NULL;
	c2.grid[0] = c2.grid[1] = 0;
	c2.panel[0] = c2.panel[1] = 0;
	c2.arrangement = HL_ARR_AUTO;
	if (!c2.layout)
		return 1;
	diag d;
	diag_init(&d, cfg->file);
	hl_plan p2;
	int rc = hl_plan_build(&c2, &d, &p2) < 0 ? 1 : 0;
	diag_free(&d);
	if (rc == 0) {
		if (from_plan(&p2, cfg->n / cfg->nb, beta, out) < 0) {
			hl_columns_grid_free(out);
			rc = -1;
		}
		hl_plan_free(&p2);
	}
	return rc;
}
