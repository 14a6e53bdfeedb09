/*
 * plan_print.c -- plan -> words: the table of `hetlaunch plan` and the plan
 * document of ../shared/INTERFACE.md.  Nothing is computed here.
 */
#include <string.h>

#include "json.h"
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

void hl_plan_print_text(const hl_plan *pl, FILE *out)
{
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
	jw_arr_inline(&w);
	for (size_t k = 0; k < pl->B; k++)
		jw_num(&w, s->prefix_cost[k]);
	jw_end(&w);
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
	jw_end(&w);
	jw_done(&w);
}
