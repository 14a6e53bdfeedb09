/*
 * blocks.c -- the integer plan: each rectangle in whole nb x nb blocks
 * (001 s3.3 only says "round up"; notes s5.1 show naive rounding is poor).
 *
 * Column partitions keep their column composition.  With the width W_j of
 * column j fixed, machine i of that column computes t_i H_i W_j per step,
 * so the heights that minimise the column's largest load do not depend on
 * W_j: they are 000 Alg 3.1's incremental allocation of nb rows, starting
 * from one row each (every machine keeps a block), giving m_j = max t_i H_i.
 * The widths then minimise max_j W_j m_j by the same allocation from one
 * column each.  Both greedy steps are exact for min-max, so the plan has
 * the least largest load for that composition (Fig 11, nb = 20: 80/9 with
 * widths 4, 8, 8; nb = 40: 100/3 with 9, 15, 16; notes s5.1).
 *
 * Guillotine trees cut each extent in proportion to the areas, rounded to
 * the nearest block, each side keeping room for one block per machine.
 */
#include <math.h>
#include <stdlib.h>

#include "mmm_internal.h"

void vproc_mmm_plan_free(vproc_mmm_plan *plan)
{
	if (plan) {
		free(plan->blk);
		plan->blk = NULL;
	}
}

/* Alg 3.1 from one each: c[0..k) >= 1 summing to M minimising max w_i c_i;
 * an increment goes to the least w_i (c_i + 1), ties to the earlier.
 * Returns the max.  Needs M >= k. */
static double incremental(size_t k, const double *w, size_t M, size_t *c)
{
	for (size_t i = 0; i < k; i++)
		c[i] = 1;
	for (size_t sum = k; sum < M; sum++) {
		size_t best = 0;
		for (size_t i = 1; i < k; i++)
			if (w[i] * (double)(c[i] + 1) < w[best] * (double)(c[best] + 1))
				best = i;
		c[best]++;
	}
	double m = 0.0;
	for (size_t i = 0; i < k; i++)
		m = fmax(m, w[i] * (double)c[i]);
	return m;
}

static vproc_status blocks_columns(const vproc_mmm_partition *part, const double *t, size_t nb,
                                   vproc_mmm_plan *out)
{
	size_t C = part->ncols, p = part->p;
	if (nb < C)
		return VPROC_ERANGE;
	for (size_t j = 0; j < C; j++)
		if (nb < part->col_count[j])
			return VPROC_ERANGE;
	double *w = malloc(p * sizeof *w), *m = calloc(C, sizeof *m);
	size_t *H = malloc(p * sizeof *H), *W = malloc(C * sizeof *W);
	if (!w || !m || !H || !W) {
		free(w);
		free(m);
		free(H);
		free(W);
		return VPROC_ENOMEM;
	}
	for (size_t i = 0; i < p; i++)
		w[i] = t[part->rect[i].machine];
	for (size_t j = 0, d = 0; j < C; d += part->col_count[j++])
		m[j] = incremental(part->col_count[j], w + d, nb, H + d);
	incremental(C, m, nb, W);
	size_t x = 0;
	for (size_t j = 0, d = 0; j < C; x += W[j], d += part->col_count[j++]) {
		size_t y = 0;
		for (size_t k = 0; k < part->col_count[j]; k++) {
			out->blk[d + k] = (vproc_mmm_block){ part->rect[d + k].machine, y, x, H[d + k], W[j] };
			y += H[d + k];
		}
	}
	free(w);
	free(m);
	free(H);
	free(W);
	return VPROC_OK;
}

/* The least width and height a subtree needs (one block per machine). */
static void need(const vproc_mmm_partition *part, size_t at, size_t *nw, size_t *nh)
{
	const vproc_mmm_node *n = &part->node[at];
	if (n->kind == VPROC_MMM_LEAF) {
		*nw = *nh = 1;
		return;
	}
	size_t w1, h1, w2, h2;
	need(part, n->first, &w1, &h1);
	need(part, n->second, &w2, &h2);
	if (n->kind == VPROC_MMM_VCUT) {
		*nw = w1 + w2;
		*nh = h1 > h2 ? h1 : h2;
	} else {
		*nw = w1 > w2 ? w1 : w2;
		*nh = h1 + h2;
	}
}

static void split_tree(const vproc_mmm_partition *part, size_t at, size_t row, size_t col,
                       size_t rows, size_t cols, vproc_mmm_plan *out, size_t *k)
{
	const vproc_mmm_node *n = &part->node[at];
	if (n->kind == VPROC_MMM_LEAF) {
		out->blk[(*k)++] = (vproc_mmm_block){ n->machine, row, col, rows, cols };
		return;
	}
	size_t w1, h1, w2, h2;
	need(part, n->first, &w1, &h1);
	need(part, n->second, &w2, &h2);
	int v = n->kind == VPROC_MMM_VCUT;
	size_t E = v ? cols : rows, lo = v ? w1 : h1, hi = E - (v ? w2 : h2);
	double ideal = (double)E * part->node[n->first].area / n->area;
	size_t e1 = (size_t)fmax(0.0, floor(ideal + 0.5));
	e1 = e1 < lo ? lo : e1 > hi ? hi : e1;
	if (v) {
		split_tree(part, n->first, row, col, rows, e1, out, k);
		split_tree(part, n->second, row, col + e1, rows, cols - e1, out, k);
	} else {
		split_tree(part, n->first, row, col, e1, cols, out, k);
		split_tree(part, n->second, row + e1, col, rows - e1, cols, out, k);
	}
}

vproc_status vproc_mmm_blocks(const vproc_mmm_partition *part, const double *t, size_t nb,
                              vproc_mmm_plan *out)
{
	if (!part || !t || !out || part->p == 0 || nb == 0)
		return VPROC_EINVAL;
	size_t p = part->p;
	*out = (vproc_mmm_plan){ .p = p, .nb = nb };
	out->blk = calloc(p, sizeof *out->blk);
	if (!out->blk)
		return VPROC_ENOMEM;
	vproc_status st = VPROC_OK;
	if (part->algorithm == VPROC_MMM_COLUMNS) {
		st = blocks_columns(part, t, nb, out);
	} else {
		size_t root = part->nnodes - 1, nw, nh, k = 0;
		need(part, root, &nw, &nh);
		if (nw > nb || nh > nb)
			st = VPROC_ERANGE;
		else
			split_tree(part, root, 0, 0, nb, nb, out, &k);
	}
	if (st != VPROC_OK) {
		vproc_mmm_plan_free(out);
		return st;
	}
	for (size_t i = 0; i < p; i++) {
		const vproc_mmm_block *b = &out->blk[i];
		out->max_load = fmax(out->max_load, t[b->machine] * (double)(b->rows * b->cols));
		out->half_perimeter += b->rows + b->cols;
	}
	return VPROC_OK;
}

int vproc_mmm_blocks_tile(const vproc_mmm_plan *plan)
{
	size_t area = 0;
	for (size_t i = 0; i < plan->p; i++) {
		const vproc_mmm_block *a = &plan->blk[i];
		if (a->rows == 0 || a->cols == 0 || a->row + a->rows > plan->nb ||
		    a->col + a->cols > plan->nb)
			return 0;
		area += a->rows * a->cols;
		for (size_t j = 0; j < i; j++) {
			const vproc_mmm_block *b = &plan->blk[j];
			if (a->row < b->row + b->rows && b->row < a->row + a->rows &&
			    a->col < b->col + b->cols && b->col < a->col + a->cols)
				return 0;
		}
	}
	return area == plan->nb * plan->nb;
}
