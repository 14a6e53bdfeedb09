/*
 * plan_print.c -- plan -> words: the table of `hetlaunch plan` and the plan
 * document of ../shared/INTERFACE.md.  Nothing is computed here.
 */
#include <string.h>

#include "json.h"
#include "memory.h"
#include "plan.h"

/* Long slices are summarised: a table of 10^6 rows helps nobody. */
#define SHOW_ROWS 64

static int name_width(const hl_config *cfg)
{
	int w = 7;   /* "machine" */
	for (size_t i = 0; i < cfg->nmachines; i++) {
		int l = (int)strlen(cfg->machines[i].name);
		if (l > w)
			w = l;
	}
	return w;
}

static void print_machines(const hl_plan *pl, FILE *out, int w)
{
	const hl_config *cfg = pl->cfg;
	int hw = 4;
	for (size_t i = 0; i < cfg->nmachines; i++) {
		int l = (int)strlen(cfg->machines[i].host);
		if (l > hw)
			hw = l;
	}
	fprintf(out, "  %-*s  %-*s  %12s%s  %7s  %12s\n", w, "machine", hw, "host", "cycle_time",
	        cfg->by_speed ? "         speed" : "", "vprocs", "c*t");
	for (size_t i = 0; i < cfg->nmachines; i++) {
		const hl_machine *m = &cfg->machines[i];
		size_t c = pl->slice.counts[i];
		fprintf(out, "  %-*s  %-*s  %12.6g", w, m->name, hw, m->host, m->cycle_time);
		if (cfg->by_speed)
			fprintf(out, "  %12.6g", m->speed);
		fprintf(out, "  %7zu  %12.6g\n", c, (double)c * m->cycle_time);
	}
}

/* Panels larger than this are summarised in the text output. */
#define SHOW_PANEL 40

static void print_text_2d(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	const vproc_panel *pn = &pl->panel;
	size_t p = pl->p, q = pl->q;
	int w = name_width(cfg);

	fprintf(out, "hetlaunch plan: %s (%s)\n", cfg->name, cfg->file);
	fprintf(out, "layout 2d: a %zu x %zu grid of machines (%s), arrangement %s (%s)\n", p, q,
	        pl->grid_auto ? "chosen by predicted LU time" : "given",
	        pl->method, hl_arrangement_name(cfg->arrangement));
	if (pl->grid_auto)
		fprintf(out, "grid prediction for M = %zu: compute M^3/(3 obj) = %.6g + "
		        "communication %.6g M^2 (1/p + 1/q)/2 = %.6g, in cycle_time units\n",
		        pl->M, pl->shape.compute, pl->beta, pl->shape.comm);
	fprintf(out, "panel %zu x %zu virtual processes (%s)\n", pn->Bp, pn->Bq,
	        pl->panel_auto ? "chosen: the smallest within 10% of the rational optimum"
	                       : "given");
	fprintf(out, "kernel %s, n = %zu, nb = %zu: M = %zu block rows and columns, "
	            "BLACS grid %zu x %zu\n", hl_kernel_name(cfg->kernel), cfg->n, cfg->nb,
	        pl->M, pn->Bp, pn->Bq);
	if (pl->dropped) {
		fprintf(out, "left out (the slowest, the grid has %zu places):", p * q);
		for (size_t k = p * q; k < cfg->nmachines; k++)
			fprintf(out, " %s", cfg->machines[pl->sel[k]].name);
		fputc('\n', out);
	}

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

	double obj = vproc_grid_objective(p, q, pl->grid.r, pl->grid.c);
	fprintf(out, "\n  objective (sum r)(sum c)          %12.6g\n", obj);
	fprintf(out, "  bound sum 1/t                      %12.6g  (objective = %.4f of it)\n",
	        pl->bound, obj / pl->bound);
	fprintf(out, "  integer panel efficiency           %12.4f  (Bp Bq / max R_i C_j t_ij, "
	        "over the objective)\n", pn->efficiency);

	if (pn->Bp <= SHOW_PANEL && pn->Bq <= SHOW_PANEL) {
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

	fprintf(out, "\nPredicted time per b x b block update, in units of cycle_time:\n");
	fprintf(out, "  %-32s %12.6g\n", "ideal balance, all machines", pl->ideal);
	char label[64];
	snprintf(label, sizeof label, "this plan (%zu x %zu panel)", pn->Bp, pn->Bq);
	fprintf(out, "  %-32s %12.6g  %.2f x ideal\n", label, pl->hetero, pl->hetero / pl->ideal);
	snprintf(label, sizeof label, "cyclic, %zu x %zu, 1 per machine", p, q);
	fprintf(out, "  %-32s %12.6g  %.2f x ideal\n", label, pl->cyclic, pl->cyclic / pl->ideal);
	fprintf(out, "  %-32s %12.6g  %.2f x ideal  (not a grid: stock ScaLAPACK "
	        "cannot run it)\n", "Kalinov-Lastovetsky, same panel", pl->kl, pl->kl / pl->ideal);
	fprintf(out, "  predicted speedup over cyclic:   %12.2f  (bound %.2f)\n",
	        pl->cyclic / pl->hetero, pl->cyclic / pl->ideal);
}

void hl_plan_print_text(const hl_plan *pl, FILE *out)
{
	if (pl->cfg->layout == HL_LAYOUT_2D) {
		print_text_2d(pl, out);
		hl_memory_print_text(pl, out);
		return;
	}
	const hl_config *cfg = pl->cfg;
	const vproc_slice *s = &pl->slice;
	int w = name_width(cfg);

	fprintf(out, "hetlaunch plan: %s (%s)\n", cfg->name, cfg->file);
	fprintf(out, "layout 1d: a slice of B = %zu virtual processes (%s), allocation %s\n",
	        pl->B, pl->B_auto ? "chosen: the smallest B within 10% of the ideal" : "given",
	        hl_allocation_name(cfg->allocation));
	fprintf(out, "kernel %s, n = %zu, nb = %zu: M = %zu column blocks, grid 1 x %zu\n\n",
	        hl_kernel_name(cfg->kernel), cfg->n, cfg->nb, pl->M, pl->B);

	print_machines(pl, out, w);

	fprintf(out, "\nIncremental allocation (paper 000 s3.3): chunk s goes to\n");
	fprintf(out, "  %7s  %-*s  %12s\n", "s", w, "machine", "cost/chunk");
	size_t rows = pl->B <= SHOW_ROWS ? pl->B : SHOW_ROWS;
	for (size_t k = 0; k < rows; k++)
		fprintf(out, "  %7zu  %-*s  %12.6g\n", k + 1, w, cfg->machines[s->sigma[k]].name,
		        s->prefix_cost[k]);
	if (rows < pl->B)
		fprintf(out, "  %7s  (%zu more rows in --json)\n", "...", pl->B - rows);

	fprintf(out, "\nSlice pattern, the machine of virtual process 0..%zu "
	        "(the allocation reversed, 000 s3.4):\n", pl->B - 1);
	size_t col = 0;
	for (size_t k = 0; k < rows; k++) {
		const char *name = cfg->machines[s->pattern[k]].name;
		size_t l = strlen(name) + 1;
		if (col + l > 76) {
			fputc('\n', out);
			col = 0;
		}
		fprintf(out, "%s%s", col ? " " : "  ", name);
		col += l + (col ? 0 : 1);
	}
	if (rows < pl->B)
		fprintf(out, " ... (%zu more in --json)", pl->B - rows);
	fputc('\n', out);

	fprintf(out, "\nPredicted time per column block, in units of cycle_time:\n");
	fprintf(out, "  %-32s %12.6g\n", "ideal balance (B = infinity)", pl->ideal);
	char label[64];
	snprintf(label, sizeof label, "this plan (B = %zu)", pl->B);
	fprintf(out, "  %-32s %12.6g  %.2f x ideal\n", label, pl->hetero, pl->hetero / pl->ideal);
	snprintf(label, sizeof label, "cyclic, 1 process per machine");
	fprintf(out, "  %-32s %12.6g  %.2f x ideal\n", label, pl->cyclic, pl->cyclic / pl->ideal);
	fprintf(out, "  predicted speedup over cyclic:   %12.2f  (bound %.2f)\n",
	        pl->cyclic / pl->hetero, pl->cyclic / pl->ideal);

	fprintf(out, "\nLU of M = %zu column blocks, step by step (000 Fig 5), "
	        "in cycle_time x block updates:\n", pl->M);
	fprintf(out, "  %-32s %12.6g\n", "this plan", pl->lu_hetero);
	fprintf(out, "  %-32s %12.6g\n", "cyclic, 1 process per machine", pl->lu_cyclic);
	if (pl->lu_hetero > 0)
		fprintf(out, "  predicted speedup over cyclic:   %12.2f\n",
		        pl->lu_cyclic / pl->lu_hetero);
	hl_memory_print_text(pl, out);
}

static void json_2d(const hl_plan *pl, jw *w)
{
	const hl_config *cfg = pl->cfg;
	const vproc_panel *pn = &pl->panel;
	size_t p = pl->p, q = pl->q;
	jw_key(w, "nprow"); jw_uint(w, pn->Bp);
	jw_key(w, "npcol"); jw_uint(w, pn->Bq);
	jw_key(w, "ranks");
	jw_arr(w);
	for (size_t I = 0; I < pn->Bp; I++)
		for (size_t J = 0; J < pn->Bq; J++) {
			const hl_machine *m =
				&cfg->machines[hl_plan_at(pl, pn->row_pattern[I], pn->col_pattern[J])];
			jw_obj(w);
			jw_key(w, "rank"); jw_uint(w, I * pn->Bq + J);
			jw_key(w, "machine"); jw_str(w, m->name);
			jw_key(w, "host"); jw_str(w, m->host);
			jw_key(w, "prow"); jw_uint(w, I);
			jw_key(w, "pcol"); jw_uint(w, J);
			jw_end(w);
		}
	jw_end(w);
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
	jw_key(w, "panel");
	jw_obj(w);
	jw_key(w, "Bp"); jw_uint(w, pn->Bp);
	jw_key(w, "Bq"); jw_uint(w, pn->Bq);
	jw_key(w, "chosen"); jw_bool(w, pl->panel_auto);
	jw_key(w, "R");
	jw_uint_array(w, pn->R, p);
	jw_key(w, "C");
	jw_uint_array(w, pn->C, q);
	jw_key(w, "row_pattern");
	jw_uint_array(w, pn->row_pattern, pn->Bp);
	jw_key(w, "col_pattern");
	jw_uint_array(w, pn->col_pattern, pn->Bq);
	jw_key(w, "load"); jw_num(w, pn->load);
	jw_key(w, "efficiency"); jw_num(w, pn->efficiency);
	jw_end(w);
	jw_key(w, "predicted");
	jw_obj(w);
	jw_key(w, "ideal"); jw_num(w, pl->ideal);
	jw_key(w, "cyclic"); jw_num(w, pl->cyclic);
	jw_key(w, "hetero"); jw_num(w, pl->hetero);
	jw_key(w, "speedup"); jw_num(w, pl->cyclic / pl->hetero);
	jw_key(w, "kalinov_lastovetsky"); jw_num(w, pl->kl);
	jw_end(w);
}

void hl_plan_print_json(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	const vproc_slice *s = &pl->slice;
	jw w;
	jw_init(&w, out);
	jw_obj(&w);
	jw_key(&w, "hetlaunch"); jw_str(&w, VPROC_VERSION);
	jw_key(&w, "name"); jw_str(&w, cfg->name);
	jw_key(&w, "file"); jw_str(&w, cfg->file);
	jw_key(&w, "layout"); jw_str(&w, hl_layout_name(cfg->layout));
	jw_key(&w, "kernel"); jw_str(&w, hl_kernel_name(cfg->kernel));
	jw_key(&w, "n"); jw_uint(&w, cfg->n);
	jw_key(&w, "nb"); jw_uint(&w, cfg->nb);
	jw_key(&w, "M"); jw_uint(&w, pl->M);

	jw_key(&w, "machines");
	jw_arr(&w);
	for (size_t i = 0; i < cfg->nmachines; i++) {
		const hl_machine *m = &cfg->machines[i];
		jw_obj(&w);
		jw_key(&w, "name"); jw_str(&w, m->name);
		jw_key(&w, "host"); jw_str(&w, m->host);
		jw_key(&w, "cycle_time"); jw_num(&w, m->cycle_time);
		if (cfg->by_speed) {
			jw_key(&w, "speed");
			jw_num(&w, m->speed);
		}
		jw_end(&w);
	}
	jw_end(&w);

	if (cfg->layout == HL_LAYOUT_2D) {
		json_2d(pl, &w);
		hl_memory_json(pl, &w);
		jw_end(&w);
		jw_done(&w);
		return;
	}
	jw_key(&w, "nprow"); jw_uint(&w, 1);
	jw_key(&w, "npcol"); jw_uint(&w, pl->B);
	jw_key(&w, "ranks");
	jw_arr(&w);
	for (size_t k = 0; k < pl->B; k++) {
		jw_obj(&w);
		jw_key(&w, "rank"); jw_uint(&w, k);
		jw_key(&w, "machine"); jw_str(&w, cfg->machines[s->pattern[k]].name);
		jw_key(&w, "host"); jw_str(&w, cfg->machines[s->pattern[k]].host);
		jw_key(&w, "prow"); jw_uint(&w, 0);
		jw_key(&w, "pcol"); jw_uint(&w, k);
		jw_end(&w);
	}
	jw_end(&w);

	jw_key(&w, "B"); jw_uint(&w, pl->B);
	jw_key(&w, "B_chosen"); jw_bool(&w, pl->B_auto);
	jw_key(&w, "allocation"); jw_str(&w, hl_allocation_name(cfg->allocation));
	jw_key(&w, "pattern");
	jw_arr_inline(&w);
	for (size_t k = 0; k < pl->B; k++)
		jw_str(&w, cfg->machines[s->pattern[k]].name);
	jw_end(&w);
	jw_key(&w, "selected");
	jw_arr_inline(&w);
	for (size_t k = 0; k < pl->B; k++)
		jw_str(&w, cfg->machines[s->sigma[k]].name);
	jw_end(&w);
	jw_key(&w, "prefix_cost");
	jw_num_array(&w, s->prefix_cost, pl->B);
	jw_key(&w, "counts");
	jw_obj(&w);
	for (size_t i = 0; i < cfg->nmachines; i++) {
		jw_key(&w, cfg->machines[i].name);
		jw_uint(&w, s->counts[i]);
	}
	jw_end(&w);

	jw_key(&w, "predicted");
	jw_obj(&w);
	jw_key(&w, "ideal"); jw_num(&w, pl->ideal);
	jw_key(&w, "cyclic"); jw_num(&w, pl->cyclic);
	jw_key(&w, "hetero"); jw_num(&w, pl->hetero);
	jw_key(&w, "speedup"); jw_num(&w, pl->cyclic / pl->hetero);
	jw_key(&w, "lu");
	jw_obj(&w);
	jw_key(&w, "M"); jw_uint(&w, pl->M);
	jw_key(&w, "hetero"); jw_num(&w, pl->lu_hetero);
	jw_key(&w, "cyclic"); jw_num(&w, pl->lu_cyclic);
	jw_key(&w, "speedup");
	if (pl->lu_hetero > 0)
		jw_num(&w, pl->lu_cyclic / pl->lu_hetero);
	else
		jw_null(&w);
	jw_end(&w);
	jw_end(&w);
	hl_memory_json(pl, &w);
	jw_end(&w);
	jw_done(&w);
}
