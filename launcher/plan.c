#define _GNU_SOURCE   /* qsort_r */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

size_t hl_plan_at(const hl_plan *plan, size_t i, size_t j)
{
	return plan->sel[plan->grid.arr[i * plan->q + j]];
}

static int cmp_by_time(const void *x, const void *y, void *arg)
{
	const double *t = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	if (t[a] != t[b])
		return t[a] < t[b] ? -1 : 1;
	return (a > b) - (a < b);
}

static int plan_2d(const hl_config *cfg, diag *d, hl_plan *plan)
{
	size_t N = cfg->nmachines;
	plan->M = hl_config_blocks(cfg);
	/* The machines by cycle time, ties in list order, so that the set left
	 * out of a smaller grid is stable. */
	plan->t = malloc(N * sizeof *plan->t);
	plan->sel = malloc(N * sizeof *plan->sel);
	if (!plan->t || !plan->sel) {
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < N; k++) {
		plan->t[k] = cfg->machines[k].cycle_time;
		plan->sel[k] = k;
	}
	qsort_r(plan->sel, N, sizeof *plan->sel, cmp_by_time, plan->t);
	plan->ideal = vproc_cost_ideal(N, plan->t);

	if (cfg->grid[0]) {
		plan->p = cfg->grid[0];
		plan->q = cfg->grid[1];
	} else {
		if (N > HL_SHAPE_MAX) {
			diag_error(d, 0, 0, "%zu machines: hetlaunch chooses the grid for at most %d; "
			           "give grid: [p, q]", N, HL_SHAPE_MAX);
			return -1;
		}
		plan->beta = cfg->comm_cost > 0 ? cfg->comm_cost : plan->t[plan->sel[0]];
		vproc_status st = vproc_grid_choose_shape(N, plan->t, plan->M, plan->beta,
		                                          &plan->shape);
		if (st != VPROC_OK) {
			diag_error(d, 0, 0, "cannot choose the grid: %s", vproc_strerror(st));
			return -1;
		}
		plan->p = plan->shape.p;
		plan->q = plan->shape.q;
		plan->grid_auto = 1;
	}
	size_t p = plan->p, q = plan->q, pq = p * q;
	/* Resource selection: a grid smaller than the list keeps the fastest. */
	plan->tsel = malloc(pq * sizeof *plan->tsel);
	plan->T = malloc(pq * sizeof *plan->T);
	if (!plan->tsel || !plan->T) {
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < pq; k++)
		plan->tsel[k] = plan->t[plan->sel[k]];
	plan->dropped = N - pq;

	vproc_status st;
	int exact = cfg->arrangement == HL_ARR_EXACT ||
	            (cfg->arrangement == HL_ARR_AUTO && pq <= HL_EXACT_MAX);
	/* 4 x 4 takes 0.4 s, 4 x 5 six minutes (make bench; bench_grid --big). */
	if (exact && pq > 20) {
		diag_error(d, 0, 0, "arrangement: exact searches grids of at most 20 machines "
		           "(4 x 5 takes minutes); this one is %zu x %zu: use arrangement: "
		           "heuristic", p, q);
		return -1;
	}
	if (exact) {
		plan->method = "exact";
		st = vproc_grid_exact(p, q, plan->tsel, &plan->grid);
	} else {
		plan->method = "heuristic";
		st = vproc_grid_svd(p, q, plan->tsel, VPROC_SVD_BEST, 0, NULL, 0, NULL, &plan->grid);
	}
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "2D planning failed: %s", vproc_strerror(st));
		return -1;
	}
	for (size_t x = 0; x < pq; x++)
		plan->T[x] = plan->tsel[plan->grid.arr[x]];
	plan->bound = vproc_grid_bound(pq, plan->tsel);

	size_t Bp = cfg->panel[0], Bq = cfg->panel[1];
	if (Bp == 0) {
		size_t cap = cfg->max_procs;
		if (cap < pq) {
			diag_error(d, 0, 0, "max_procs = %zu is smaller than the %zu x %zu grid", cap, p, q);
			return -1;
		}
		if (plan->M < p || plan->M < q) {
			diag_error(d, 0, 0, "n = %zu, nb = %zu gives %zu block rows, fewer than the "
			           "%zu x %zu grid needs", cfg->n, cfg->nb, plan->M, p, q);
			return -1;
		}
		st = vproc_panel_choose(p, q, plan->T, plan->grid.r, plan->grid.c, cap, plan->M,
		                        HL_B_TOLERANCE, &Bp, &Bq);
		plan->panel_auto = 1;
		if (st != VPROC_OK) {
			diag_error(d, 0, 0, "cannot choose the panel: %s", vproc_strerror(st));
			return -1;
		}
	}
	if (Bp < p || Bq < q) {
		diag_error(d, 0, 0, "panel %zu x %zu is smaller than the chosen %zu x %zu grid: "
		           "every grid row and column needs a virtual row and column", Bp, Bq, p, q);
		return -1;
	}
	st = vproc_panel_build(p, q, plan->T, plan->grid.r, plan->grid.c, Bp, Bq, &plan->panel);
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "panel %zu x %zu: %s", Bp, Bq, vproc_strerror(st));
		return -1;
	}
	/* Per b x b block of the panel, in units of cycle_time. */
	plan->cyclic = vproc_cost_cyclic(pq, plan->tsel);
	plan->hetero = plan->panel.load / ((double)Bp * (double)Bq);
	double kl;
	st = vproc_kl_panel_time(p, q, plan->T, Bp, Bq, &kl);
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "Kalinov-Lastovetsky baseline: %s", vproc_strerror(st));
		return -1;
	}
	plan->kl = kl / ((double)Bp * (double)Bq);
	return 0;
}

int hl_plan_build(const hl_config *cfg, diag *d, hl_plan *plan)
{
	memset(plan, 0, sizeof *plan);
	plan->cfg = cfg;
	if (cfg->layout == HL_LAYOUT_2D)
		return plan_2d(cfg, d, plan);
	size_t p = cfg->nmachines;
	plan->t = malloc(p * sizeof *plan->t);
	if (plan->t == NULL)
		goto oom;
	for (size_t i = 0; i < p; i++)
		plan->t[i] = cfg->machines[i].cycle_time;
	unsigned flags = cfg->allocation == HL_ALLOC_OPTIMIZED ? VPROC_SLICE_OPTIMIZED
	                                                       : VPROC_SLICE_PLAIN;
	plan->M = hl_config_blocks(cfg);
	plan->B = cfg->B;
	if (plan->B == 0) {
		/* More processes than column blocks would leave some idle. */
		size_t cap = cfg->max_procs < plan->M ? cfg->max_procs : plan->M;
		vproc_status st = vproc_choose_B(p, plan->t, cap, HL_B_TOLERANCE, flags, &plan->B);
		if (st != VPROC_OK) {
			diag_error(d, 0, 0, "cannot choose B: %s", vproc_strerror(st));
			return -1;
		}
		plan->B_auto = 1;
	}
	vproc_status st = vproc_slice_build(p, plan->t, plan->B, flags, &plan->slice);
	if (st == VPROC_OK)
		st = vproc_lu_predict(p, plan->t, plan->B, plan->slice.pattern, plan->M,
		                      &plan->lu_hetero);
	if (st == VPROC_OK) {
		/* Cyclic: virtual process k is machine k, one each, in list order. */
		size_t *ident = malloc(p * sizeof *ident);
		if (ident == NULL)
			goto oom;
		for (size_t i = 0; i < p; i++)
			ident[i] = i;
		st = vproc_lu_predict(p, plan->t, p, ident, plan->M, &plan->lu_cyclic);
		free(ident);
	}
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "planning failed: %s", vproc_strerror(st));
		return -1;
	}
	plan->ideal = vproc_cost_ideal(p, plan->t);
	plan->cyclic = vproc_cost_cyclic(p, plan->t);
	plan->hetero = plan->slice.cost;
	return 0;
oom:
	diag_error(d, 0, 0, "out of memory");
	return -1;
}

void hl_plan_free(hl_plan *plan)
{
	vproc_slice_free(&plan->slice);
	vproc_grid_free(&plan->grid);
	vproc_panel_free(&plan->panel);
	free(plan->t);
	free(plan->sel);
	free(plan->tsel);
	free(plan->T);
	memset(plan, 0, sizeof *plan);
}

int hl_ranks_from_plan(const hl_plan *plan, hl_ranks *r)
{
	const hl_config *cfg = plan->cfg;
	memset(r, 0, sizeof *r);
	if (cfg->layout == HL_LAYOUT_2D) {
		r->nprow = plan->panel.Bp;
		r->npcol = plan->panel.Bq;
	} else {
		r->nprow = 1;
		r->npcol = plan->B;
	}
	r->nranks = r->nprow * r->npcol;
	r->machine = calloc(r->nranks, sizeof *r->machine);
	if (r->machine == NULL)
		return -1;
	for (size_t I = 0; I < r->nprow; I++)
		for (size_t J = 0; J < r->npcol; J++)
			r->machine[I * r->npcol + J] =
				cfg->layout == HL_LAYOUT_2D
					? hl_plan_at(plan, plan->panel.row_pattern[I],
					             plan->panel.col_pattern[J])
					: plan->slice.pattern[J];
	return 0;
}

/* What a user would run without us: one process per machine, in the order
 * of the machine list.  In 2d the machines are those of the plan's grid
 * (the slowest may have been left out), row-major in list order. */
int hl_ranks_cyclic(const hl_plan *plan, hl_ranks *r)
{
	const hl_config *cfg = plan->cfg;
	memset(r, 0, sizeof *r);
	if (cfg->layout == HL_LAYOUT_2D) {
		r->nprow = plan->p;
		r->npcol = plan->q;
	} else {
		r->nprow = 1;
		r->npcol = cfg->nmachines;
	}
	r->nranks = r->nprow * r->npcol;
	r->machine = calloc(r->nranks, sizeof *r->machine);
	if (r->machine == NULL)
		return -1;
	if (cfg->layout == HL_LAYOUT_1D) {
		for (size_t k = 0; k < r->nranks; k++)
			r->machine[k] = k;
		return 0;
	}
	/* plan->sel[0 .. p*q-1] are the grid's machines; list order = sorted
	 * config indices. */
	for (size_t k = 0; k < r->nranks; k++)
		r->machine[k] = plan->sel[k];
	for (size_t k = 1; k < r->nranks; k++)
		for (size_t j = k; j > 0 && r->machine[j - 1] > r->machine[j]; j--) {
			size_t t = r->machine[j];
			r->machine[j] = r->machine[j - 1];
			r->machine[j - 1] = t;
		}
	return 0;
}

void hl_ranks_free(hl_ranks *r)
{
	free(r->machine);
	r->machine = NULL;
	r->nranks = 0;
}
