/*
 * layout_2d.c -- the row of `layout: 2d` (paper 000 s4): a p x q grid of
 * machines, arranged and given rational shares r_i, c_j (s4.3), then a
 * Bp x Bq panel of virtual processes (s4.1-4.2) run as a Bp x Bq BLACS grid
 * by stock ScaLAPACK.  Keys grid, panel, arrangement, comm_cost.
 */
#define _GNU_SOURCE   /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "lu_predict.h"

size_t hl_plan_at(const hl_plan *plan, size_t i, size_t j)
{
	return plan->sel[plan->grid.arr[i * plan->q + j]];
}

/* ---- config ------------------------------------------------------------- */

#define HL_MAX_PANEL_PROCS 1000000

static int load_key_2d(hl_config *cfg, const char *key, const yt_node *v, diag *d)
{
	int e;
	if (strcmp(key, "grid") == 0)
		return hl_cfg_key(d, HL_KS_TOP, key, v, cfg->grid);
	if (strcmp(key, "panel") == 0)
		return hl_cfg_key(d, HL_KS_TOP, key, v, cfg->panel);
	if (strcmp(key, "comm_cost") == 0)
		return hl_cfg_key(d, HL_KS_TOP, key, v, &cfg->comm_cost);
	if (hl_cfg_key(d, HL_KS_TOP, key, v, &e) < 0)   /* arrangement */
		return -1;
	cfg->arrangement = (hl_arrangement)e;
	return 0;
}

/* Impossible shapes: a grid larger than the list, a panel smaller than the
 * grid or larger than the block matrix. */
static int check_2d(hl_config *cfg, const yt_node *root, diag *d)
{
	const yt_node *grid = hl_cfg_get(root, "grid"), *panel = hl_cfg_get(root, "panel");
	size_t M = hl_config_blocks(cfg);
	int rc = 0;
	if (grid) {
		size_t pq = cfg->grid[0] * cfg->grid[1];
		if (pq > cfg->nmachines) {
			diag_error(d, grid->line, grid->col,
			           "grid %zu x %zu needs %zu machines; the list has %zu",
			           cfg->grid[0], cfg->grid[1], pq, cfg->nmachines);
			rc = -1;
		}
		if (panel && (cfg->panel[0] < cfg->grid[0] || cfg->panel[1] < cfg->grid[1])) {
			diag_error(d, panel->line, panel->col,
			           "panel %zu x %zu is smaller than the grid %zu x %zu: every "
			           "grid row and column needs a virtual row and column",
			           cfg->panel[0], cfg->panel[1], cfg->grid[0], cfg->grid[1]);
			rc = -1;
		}
	}
	/* Bp x Bq is the number of processes: refused here, at its line, not as
	 * "out of memory" by the planner; the bound of max_procs. */
	if (panel && (double)cfg->panel[0] * (double)cfg->panel[1] > HL_MAX_PANEL_PROCS) {
		diag_error(d, panel->line, panel->col,
		           "panel %zu x %zu is %.0f processes, more than %d", cfg->panel[0],
		           cfg->panel[1], (double)cfg->panel[0] * (double)cfg->panel[1],
		           HL_MAX_PANEL_PROCS);
		rc = -1;
	} else if (panel && (cfg->panel[0] > M || cfg->panel[1] > M)) {
		diag_error(d, panel->line, panel->col,
		           "panel %zu x %zu exceeds the %zu x %zu blocks of n = %zu, nb = %zu",
		           cfg->panel[0], cfg->panel[1], M, M, cfg->n, cfg->nb);
		rc = -1;
	}
	return rc;
}

/* ---- plan ----------------------------------------------------------------- */

static int cmp_by_time(const void *x, const void *y, void *arg)
{
	const double *t = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	if (t[a] != t[b])
		return t[a] < t[b] ? -1 : 1;
	return (a > b) - (a < b);
}

/* The machines by cycle time, ties in list order, so that the set left
 * out of a smaller grid is stable. */
static int sort_machines_2d(const hl_config *cfg, diag *d, hl_plan *plan)
{
	size_t N = cfg->nmachines;
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
	return 0;
}

/* p x q: grid: as given, else chosen (000 s4.3.1, vproc/planner/grid/grid_shape.c). */
static int choose_grid_2d(const hl_config *cfg, diag *d, hl_plan *plan)
{
	size_t N = cfg->nmachines;
	if (cfg->grid[0]) {
		plan->p = cfg->grid[0];
		plan->q = cfg->grid[1];
		return 0;
	}
	plan->beta = cfg->comm_cost > 0 ? cfg->comm_cost : plan->t[plan->sel[0]];
	vproc_status st = vproc_grid_choose_shape(N, plan->t, plan->M, plan->beta, &plan->shape);
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "cannot choose the grid: %s", vproc_strerror(st));
		return -1;
	}
	plan->p = plan->shape.p;
	plan->q = plan->shape.q;
	plan->grid_auto = 1;
	return 0;
}

/* The fastest p q machines arranged on the grid, exactly or by the
 * heuristic; T their cycle times in grid order. */
static int arrange_grid_2d(const hl_config *cfg, diag *d, hl_plan *plan)
{
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
	plan->dropped = cfg->nmachines - pq;

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
	return 0;
}

/* Bp x Bq: panel: as given, else the smallest whose efficiency is within
 * HL_B_TOLERANCE under max_procs (vproc_panel_choose). */
static int choose_panel_2d(const hl_config *cfg, diag *d, hl_plan *plan, size_t *Bp, size_t *Bq)
{
	size_t p = plan->p, q = plan->q, pq = p * q;
	*Bp = cfg->panel[0];
	*Bq = cfg->panel[1];
	if (*Bp == 0) {
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
		vproc_status st = vproc_panel_choose(p, q, plan->T, plan->grid.r, plan->grid.c, cap,
		                                     plan->M, HL_B_TOLERANCE, Bp, Bq);
		plan->panel_auto = 1;
		if (st != VPROC_OK) {
			diag_error(d, 0, 0, "cannot choose the panel: %s", vproc_strerror(st));
			return -1;
		}
	}
	if (*Bp < p || *Bq < q) {
		diag_error(d, 0, 0, "panel %zu x %zu is smaller than the chosen %zu x %zu grid: "
		           "every grid row and column needs a virtual row and column", *Bp, *Bq, p, q);
		return -1;
	}
	return 0;
}

/* The Bp x Bq panel over the grid; for a product its rows and columns
 * grouped by grid row and column, as the 1D slice (layout_1d.c): the
 * counts, hence the balance, are kept. */
static int build_panel_2d(const hl_config *cfg, diag *d, hl_plan *plan, size_t Bp, size_t Bq)
{
	size_t p = plan->p, q = plan->q;
	vproc_status st = vproc_panel_build(p, q, plan->T, plan->grid.r, plan->grid.c, Bp, Bq,
	                                    &plan->panel);
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "panel %zu x %zu: %s", Bp, Bq, vproc_strerror(st));
		return -1;
	}
	if (hl_kernel_row(hl_config_model(cfg), cfg->stock)->order_free) {
		if (vproc_pattern_group(p, Bp, plan->panel.row_pattern) != VPROC_OK ||
		    vproc_pattern_group(q, Bq, plan->panel.col_pattern) != VPROC_OK) {
			diag_error(d, 0, 0, "out of memory");
			return -1;
		}
		plan->grouped = 1;
	}
	return 0;
}

/* Per b x b block of the panel, in units of cycle_time: cyclic, ours and
 * the Kalinov-Lastovetsky baseline. */
static int costs_2d(diag *d, hl_plan *plan, size_t Bp, size_t Bq)
{
	size_t p = plan->p, q = plan->q;
	plan->cyclic = vproc_cost_cyclic(p * q, plan->tsel);
	plan->hetero = plan->panel.load / ((double)Bp * (double)Bq);
	double kl;
	vproc_status st = vproc_kl_panel_time(p, q, plan->T, Bp, Bq, &kl);
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "Kalinov-Lastovetsky baseline: %s", vproc_strerror(st));
		return -1;
	}
	plan->kl = kl / ((double)Bp * (double)Bq);
	return 0;
}

/* The 2D plan (000 s4): machines sorted, grid, arrangement, panel, costs,
 * alike hosts' cells dealt equally. */
static int plan_2d(const hl_config *cfg, diag *d, hl_plan *plan)
{
	plan->M = hl_config_blocks(cfg);
	size_t Bp, Bq;
	if (sort_machines_2d(cfg, d, plan) < 0 || choose_grid_2d(cfg, d, plan) < 0 ||
	    arrange_grid_2d(cfg, d, plan) < 0 || choose_panel_2d(cfg, d, plan, &Bp, &Bq) < 0 ||
	    build_panel_2d(cfg, d, plan, Bp, Bq) < 0 || costs_2d(d, plan, Bp, Bq) < 0 ||
	    hl_alike_deal(plan, d) < 0)
		return -1;
	/* The step-by-step LU of the panel and of its baseline: the seconds
	 * model at the relative speeds 1/t, no network (0 when too large). */
	if (!(plan->lu_hetero > 0))   /* else alike_hosts.c ran it */
		plan->lu_hetero = hl_model_seconds(plan, 0, HL_SPEEDS_RELATIVE);
	plan->lu_cyclic = hl_model_seconds(plan, 1, HL_SPEEDS_RELATIVE);
	return 0;
}


/* ---- ranks ---------------------------------------------------------------- */

/* Rank I*Bq + J is virtual process (I, J) of the panel (BLACS row-major). */
static int ranks_2d(const hl_plan *plan, hl_ranks *r)
{
	memset(r, 0, sizeof *r);
	r->nprow = plan->panel.Bp;
	r->npcol = plan->panel.Bq;
	r->nranks = r->nprow * r->npcol;
	r->machine = calloc(r->nranks, sizeof *r->machine);
	if (r->machine == NULL)
		return -1;
	for (size_t I = 0; I < r->nprow; I++)
		for (size_t J = 0; J < r->npcol; J++)
			r->machine[I * r->npcol + J] =
				hl_plan_at(plan, plan->panel.row_pattern[I], plan->panel.col_pattern[J]);
	return 0;
}

/* What a user would run without us: one process per machine of the plan's
 * grid (the slowest may have been left out), row-major in list order. */
static int ranks_2d_baseline(const hl_plan *plan, hl_ranks *r)
{
	memset(r, 0, sizeof *r);
	r->nprow = plan->p;
	r->npcol = plan->q;
	r->nranks = r->nprow * r->npcol;
	r->machine = calloc(r->nranks, sizeof *r->machine);
	if (r->machine == NULL)
		return -1;
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

/* The steady state per block update (000 s4.2). */
static double speedup_2d(const hl_plan *plan)
{
	double s;
	hl_dense_speedup(plan, &s);
	return s;
}

static const char *model_2d(const hl_plan *plan)
{
	double s;
	return hl_dense_model_name(hl_dense_speedup(plan, &s));
}

/* ---- words ------------------------------------------------------------------ */

/* Panels larger than this are summarised in the text output. */
#define SHOW_PANEL 40

static void print_arrangement_runs(const hl_plan *pl, FILE *out);
static void print_arrangement(const hl_plan *pl, FILE *out, int w);
static void print_rest_2d(const hl_plan *pl, FILE *out, int w);

static void text_2d(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	const vproc_panel *pn = &pl->panel;
	size_t p = pl->p, q = pl->q;
	int w = hl_plan_name_width(cfg);

	hl_layout_text_title(pl, out);
	fprintf(out, "layout 2d: a %zu x %zu grid of machines (%s), arrangement %s (%s)\n", p, q,
	        pl->grid_auto ? "chosen by predicted LU time" : "given",
	        pl->method, hl_arrangement_name(cfg->arrangement));
	if (pl->grid_auto)
		fprintf(out, "grid prediction for M = %zu: compute M^3/(3 obj) = %.6g + "
		        "communication %.6g M^2 (1/p + 1/q)/2 = %.6g, in cycle_time units\n",
		        pl->M, pl->shape.compute, pl->beta, pl->shape.comm);
	fprintf(out, "panel %zu x %zu virtual processes (", pn->Bp, pn->Bq);
	if (!pl->panel_auto)
		fputs("given", out);
	else if (pn->efficiency >= 1.0 - HL_B_TOLERANCE)
		fputs("chosen: the smallest within 10% of the rational optimum", out);
	else   /* what was achieved, not the target missed */
		fprintf(out, "chosen: the best up to max_procs = %zu, efficiency %.2f; none is "
		        "within 10%%", cfg->max_procs, pn->efficiency);
	fputs(")\n", out);
	fprintf(out, "kernel %s, n = %zu, nb = %zu: M = %zu block rows and columns, "
	            "BLACS grid %zu x %zu\n", hl_kernel_name(cfg->kernel), cfg->n, cfg->nb,
	        pl->M, pn->Bp, pn->Bq);
	if (pl->dropped) {
		fprintf(out, "left out (the slowest, the grid has %zu places):", p * q);
		int sum = hl_text_summarised(pl);
		for (size_t k = p * q; k < cfg->nmachines;) {
			size_t run = sum ? hl_text_run(cfg, pl->sel, cfg->nmachines, k, NULL) : 1;
			char label[160];
			hl_text_run_label(cfg, pl->sel[k], pl->sel[k + run - 1], label, sizeof label);
			fprintf(out, " %s", label);
			k += run;
		}
		fputc('\n', out);
	}

	if (hl_text_summarised(pl))
		print_arrangement_runs(pl, out);
	else
		print_arrangement(pl, out, w);
	print_rest_2d(pl, out, w);
}

/* The arrangement of a large grid: per grid row, its runs of one entry's
 * identical machines (plan --full prints the whole table). */
static void print_arrangement_runs(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	size_t q = pl->q;
	size_t *row = malloc(q * sizeof *row);
	if (row == NULL)
		return;
	fprintf(out, "\nArrangement (000 s4.3), each grid row's machines in runs of one entry "
	        "(plan --full: the table):\n");
	for (size_t i = 0; i < pl->p; i++) {
		for (size_t j = 0; j < q; j++)
			row[j] = hl_plan_at(pl, i, j);
		fprintf(out, "  row %-4zu r_i %-10.6g R_i %-4zu", i, pl->grid.r[i], pl->panel.R[i]);
		for (size_t j = 0; j < q;) {
			size_t run = hl_text_run(cfg, row, q, j, NULL);
			char label[160];
			hl_text_run_label(cfg, row[j], row[j + run - 1], label, sizeof label);
			fprintf(out, " %s%s (t %.6g)", j ? "| " : "", label, pl->T[i * q + j]);
			j += run;
		}
		fputc('\n', out);
	}
	fprintf(out, "  columns:");
	for (size_t j = 0; j < q;) {
		size_t k = j + 1;
		while (k < q && pl->grid.c[k] == pl->grid.c[j] && pl->panel.C[k] == pl->panel.C[j])
			k++;
		fprintf(out, " %zu-%zu: c_j %.6g, C_j %zu;", j, k - 1, pl->grid.c[j], pl->panel.C[j]);
		j = k;
	}
	fputc('\n', out);
	free(row);
}

static void print_arrangement(const hl_plan *pl, FILE *out, int w)
{
	const hl_config *cfg = pl->cfg;
	const vproc_panel *pn = &pl->panel;
	size_t p = pl->p, q = pl->q;
	fprintf(out, "\nArrangement, cycle times and shares (000 s4.3):\n");
	fprintf(out, "  %*s", 8, "");
	for (size_t j = 0; j < q; j++)
		fprintf(out, "  %*s", w, "");
	fprintf(out, "  %10s  %5s\n", "r_i", "R_i");
	for (size_t i = 0; i < p; i++) {
		fprintf(out, "  row %-4zu", i);
		for (size_t j = 0; j < q; j++)
			fprintf(out, "  %-*s", w, cfg->machines[hl_plan_at(pl, i, j)].name);
		fprintf(out, "  %10.6g  %5zu\n", pl->grid.r[i], pn->R[i]);
		fprintf(out, "  %8s", "");
		for (size_t j = 0; j < q; j++)
			fprintf(out, "  %*.6g", w, pl->T[i * q + j]);
		fputc('\n', out);
	}
	fprintf(out, "  %-8s", "c_j");
	for (size_t j = 0; j < q; j++)
		fprintf(out, "  %*.6g", w, pl->grid.c[j]);
	fprintf(out, "\n  %-8s", "C_j");
	for (size_t j = 0; j < q; j++)
		fprintf(out, "  %*zu", w, pn->C[j]);
	fputc('\n', out);
}

static void print_rest_2d(const hl_plan *pl, FILE *out, int w)
{
	const hl_config *cfg = pl->cfg;
	const vproc_panel *pn = &pl->panel;
	size_t p = pl->p, q = pl->q;
	double obj = vproc_grid_objective(p, q, pl->grid.r, pl->grid.c);
	fprintf(out, "\n  objective (sum r)(sum c)          %12.6g\n", obj);
	fprintf(out, "  bound sum 1/t                      %12.6g  (objective = %.4f of it)\n",
	        pl->bound, obj / pl->bound);
	fprintf(out, "  integer panel efficiency           %12.4f  (Bp Bq / max R_i C_j t_ij, "
	        "over the objective)\n", pn->efficiency);

	if (hl_text_summarised(pl)) {
		fprintf(out, "\nThe panel is %zu x %zu: plan --full or --json for its ranks.\n",
		        pn->Bp, pn->Bq);
	} else if (pl->full || (pn->Bp <= SHOW_PANEL && pn->Bq <= SHOW_PANEL)) {
		fprintf(out, "\nThe panel: machine of virtual process (I, J), MPI rank I*%zu + J "
		        "(000 Figs 7, 9):\n", pn->Bq);
		fprintf(out, "  %5s", "");
		for (size_t J = 0; J < pn->Bq; J++)
			fprintf(out, " %-*zu", J + 1 < pn->Bq ? w : 0, J);
		fputc('\n', out);
		for (size_t I = 0; I < pn->Bp; I++) {
			fprintf(out, "  %5zu", I);
			for (size_t J = 0; J < pn->Bq; J++)
				fprintf(out, " %-*s", J + 1 < pn->Bq ? w : 0,
				        cfg->machines[hl_plan_at(pl, pn->row_pattern[I],
				                                 pn->col_pattern[J])].name);
			fputc('\n', out);
		}
	} else {
		fprintf(out, "\nThe panel is %zu x %zu: see --json for the ranks.\n", pn->Bp, pn->Bq);
	}
	fprintf(out, "  row pattern (grid row of virtual row 0..%zu):", pn->Bp - 1);
	for (size_t I = 0; I < pn->Bp; I++)
		fprintf(out, " %zu", pn->row_pattern[I]);
	fprintf(out, "\n  col pattern (grid column of virtual column 0..%zu):", pn->Bq - 1);
	for (size_t J = 0; J < pn->Bq; J++)
		fprintf(out, " %zu", pn->col_pattern[J]);
	fputc('\n', out);
	if (pl->grouped)
		fprintf(out, "  (grouped: a product's blocks all stay to the end, so the order keeps "
		        "the balance\n  and PBLAS's rings cross machines once per grid row or column)\n");

	char plan_label[64], cyclic_label[64];
	snprintf(plan_label, sizeof plan_label, "this plan (%zu x %zu panel)", pn->Bp, pn->Bq);
	snprintf(cyclic_label, sizeof cyclic_label, "cyclic, %zu x %zu, 1 per machine", p, q);
	hl_layout_text_predicted(pl, &(hl_layout_labels){
		.unit = "b x b block update", .ideal = "ideal balance, all machines",
		.plan = plan_label, .cyclic = cyclic_label }, out);
	fprintf(out, "  %-32s %12.6g  %.2f x ideal  (not a grid: stock ScaLAPACK "
	        "cannot run it)\n", "Kalinov-Lastovetsky, same panel", pl->kl, pl->kl / pl->ideal);
}

/* The BLACS grid's ranks, row-major, each with its machine. */
static void json_2d_ranks(const hl_plan *pl, jw *w)
{
	const vproc_panel *pn = &pl->panel;
	jw_key(w, "nprow"); jw_uint(w, pn->Bp);
	jw_key(w, "npcol"); jw_uint(w, pn->Bq);
	jw_key(w, "ranks");
	jw_arr(w);
	for (size_t I = 0; I < pn->Bp; I++)
		for (size_t J = 0; J < pn->Bq; J++) {
			const hl_machine *m =
				&pl->cfg->machines[hl_plan_at(pl, pn->row_pattern[I], pn->col_pattern[J])];
			hl_layout_json_rank_open(w, I * pn->Bq + J, m);
			jw_key(w, "prow"); jw_uint(w, I);
			jw_key(w, "pcol"); jw_uint(w, J);
			jw_end(w);
		}
	jw_end(w);
}

/* The p x q grid of machines: its choice, arrangement, r and c (000 s4.1). */
static void json_2d_grid(const hl_plan *pl, jw *w)
{
	const hl_config *cfg = pl->cfg;
	size_t p = pl->p, q = pl->q;
	jw_key(w, "grid");
	jw_obj(w);
	jw_key(w, "p"); jw_uint(w, p);
	jw_key(w, "q"); jw_uint(w, q);
	jw_key(w, "chosen"); jw_bool(w, pl->grid_auto);
	jw_key(w, "method"); jw_str(w, pl->method);
	if (pl->grid_auto) {
		jw_key(w, "prediction");
		jw_obj(w);
		jw_key(w, "comm_cost"); jw_num(w, pl->beta);
		jw_key(w, "compute"); jw_num(w, pl->shape.compute);
		jw_key(w, "comm"); jw_num(w, pl->shape.comm);
		jw_key(w, "time"); jw_num(w, pl->shape.time);
		jw_end(w);
	}
	jw_key(w, "arrangement");
	jw_arr(w);
	for (size_t i = 0; i < p; i++) {
		jw_arr_inline(w);
		for (size_t j = 0; j < q; j++)
			jw_str(w, cfg->machines[hl_plan_at(pl, i, j)].name);
		jw_end(w);
	}
	jw_end(w);
	jw_key(w, "r");
	jw_num_array(w, pl->grid.r, p);
	jw_key(w, "c");
	jw_num_array(w, pl->grid.c, q);
	jw_key(w, "objective"); jw_num(w, vproc_grid_objective(p, q, pl->grid.r, pl->grid.c));
	jw_key(w, "bound"); jw_num(w, pl->bound);
	jw_key(w, "dropped");
	jw_arr_inline(w);
	for (size_t k = p * q; k < cfg->nmachines; k++)
		jw_str(w, cfg->machines[pl->sel[k]].name);
	jw_end(w);
	jw_end(w);
}

/* The Bp x Bq panel of virtual processes over the grid (000 s4.2). */
static void json_2d_panel(const hl_plan *pl, jw *w)
{
	const vproc_panel *pn = &pl->panel;
	jw_key(w, "panel");
	jw_obj(w);
	jw_key(w, "Bp"); jw_uint(w, pn->Bp);
	jw_key(w, "Bq"); jw_uint(w, pn->Bq);
	jw_key(w, "chosen"); jw_bool(w, pl->panel_auto);
	jw_key(w, "R");
	jw_uint_array(w, pn->R, pl->p);
	jw_key(w, "C");
	jw_uint_array(w, pn->C, pl->q);
	jw_key(w, "grouped"); jw_bool(w, pl->grouped);
	jw_key(w, "row_pattern");
	jw_uint_array(w, pn->row_pattern, pn->Bp);
	jw_key(w, "col_pattern");
	jw_uint_array(w, pn->col_pattern, pn->Bq);
	jw_key(w, "load"); jw_num(w, pn->load);
	jw_key(w, "efficiency"); jw_num(w, pn->efficiency);
	jw_end(w);
}

static void json_2d(const hl_plan *pl, jw *w)
{
	json_2d_ranks(pl, w);
	json_2d_grid(pl, w);
	json_2d_panel(pl, w);
	hl_layout_json_predicted_open(pl, w);
	jw_key(w, "kalinov_lastovetsky"); jw_num(w, pl->kl);
	jw_end(w);
}


const hl_layout_ops hl_layout_2d = {
	.name = "2d",
	.what = "a p x q grid of machines and a Bp x Bq panel of virtual processes (000 s4)",
	.load_key = load_key_2d,
	.check = check_2d,
	.plan = plan_2d,
	.print_text = text_2d,
	.print_json = json_2d,
	.ranks = ranks_2d,
	.ranks_baseline = ranks_2d_baseline,
	.predicted_speedup = speedup_2d,
	.predicted_time = hl_lu_predicted_time,   /* seconds, network included */
	.speedup_model = model_2d,
};
