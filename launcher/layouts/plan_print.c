/*
 * plan_print.c -- plan -> words: the table of `hetlaunch plan` and the plan
 * document of ../shared/INTERFACE.md.  The common keys are written here,
 * the rest by the layout's row (layout.h).  Nothing is computed here.
 */
#include <stdlib.h>
#include <string.h>

#include "util/hostlist.h"
#include "util/json.h"
#include "layout.h"
#include "lu_predict.h"
#include "memory.h"
#include "plan.h"

/* The predicted seconds (plan.c), when there are some. */
static void seconds_text(const hl_plan *pl, FILE *out)
{
	if (pl->seconds_work[0] > 0)
		fprintf(out, "\nPredicted seconds: not computed while planning: the model's work would "
		        "be about %.3g (the LU play's events, the other models' steps), over the "
		        "planner's budget of %.3g (a second or so; HETLAUNCH_PLAN_BUDGET=F scales it; "
		        "doc/design/predictions.md)\n",
		        pl->seconds_work[0], pl->seconds_work[1]);
	if (!(pl->seconds[0] > 0))
		return;
	fprintf(out, "\nPredicted seconds at the %s (doc/design/predictions.md):\n  this plan %.4g s",
	        pl->cfg->emulate ? "emulated speeds and network"
	        : hl_seconds_network(pl->cfg) ? "given Mflop/s and network"
	        : "given Mflop/s, no network given", pl->seconds[0]);
	if (pl->seconds[1] > 0)
		fprintf(out, ", the baseline %.4g s", pl->seconds[1]);
	if (pl->seconds[1] > 0 && !pl->cfg->layout->speedup_model)   /* else one line below */
		fprintf(out, ": speedup %.2f", pl->seconds[1] / pl->seconds[0]);
	fputc('\n', out);
}

/* Which nodes became which Slurm node type (config.h's types): the plan
 * is for those nodes, and a user reading it should see them. */
static void types_text(const hl_config *cfg, FILE *out)
{
	if (cfg->ntypes == 0)
		return;
	fprintf(out, "\nSlurm node types, from %s%s:\n", cfg->types_source,
	        cfg->types_by_count ? " (counts: the hosts are stand-ins)" : "");
	for (size_t i = 0; i < cfg->ntypes; i++) {
		const hl_slurm_type *t = &cfg->types[i];
		char *g = hl_hostlist_group(t->nodes, t->nnodes);
		fprintf(out, "  %s  %s ", t->name, hl_node_kind_name(t->kind));
		if (t->kind == HL_NT_HET_GROUP)
			fprintf(out, "%ld", t->het_group);
		else
			fputs(t->word, out);
		if (t->nnodes)
			fprintf(out, ": %zu node%s %s\n", t->nnodes, t->nnodes == 1 ? "" : "s",
			        g ? g : "");
		else
			fputs(": no node (optional: left out)\n", out);
		free(g);
	}
}

static void types_json(const hl_config *cfg, jw *w)
{
	if (cfg->ntypes == 0)
		return;
	jw_key(w, "slurm_types");
	jw_arr(w);
	for (size_t i = 0; i < cfg->ntypes; i++) {
		const hl_slurm_type *t = &cfg->types[i];
		jw_obj(w);
		jw_key(w, "name"); jw_str(w, t->name);
		jw_key(w, hl_node_kind_name(t->kind));
		if (t->kind == HL_NT_HET_GROUP)
			jw_uint(w, (size_t)t->het_group);
		else
			jw_str(w, t->word);
		jw_key(w, "nodes");
		jw_arr(w);
		for (size_t k = 0; k < t->nnodes; k++)
			jw_str(w, t->nodes[k]);
		jw_end(w);
		jw_end(w);
	}
	jw_end(w);
}

void hl_plan_print_text(const hl_plan *pl, FILE *out)
{
	pl->cfg->layout->print_text(pl, out);
	hl_host_summary_text(pl, out);
	hl_auto_print_text(pl, out);
	seconds_text(pl, out);
	if (pl->cfg->layout->speedup_model)
		hl_layout_text_speedup(pl, out);
	if (pl->cfg->n_auto)
		fprintf(out, "%s\n", pl->cfg->n_auto_why);
	hl_memory_print_text(pl, out);
	types_text(pl->cfg, out);
}

void hl_plan_print_json(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	jw w;
	jw_init(&w, out);
	jw_obj(&w);
	jw_key(&w, "hetlaunch"); jw_str(&w, VPROC_VERSION);
	jw_key(&w, "name"); jw_str(&w, cfg->name);
	jw_key(&w, "file"); jw_str(&w, cfg->file);
	jw_key(&w, "layout"); jw_str(&w, hl_layout_name(cfg->layout));
	jw_key(&w, "kernel"); jw_str(&w, hl_kernel_name(cfg->kernel));
	if (cfg->kernel == HL_KERNEL_EXEC) {   /* the algorithm the predictions follow */
		jw_key(&w, "model");
		jw_str(&w, cfg->model ? hl_kernel_name(hl_config_model(cfg)) : "none");
	}
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

	cfg->layout->print_json(pl, &w);
	hl_auto_json(pl, &w);
	if (cfg->layout->speedup_model)
		hl_layout_json_speedup(pl, &w);
	jw_key(&w, "predicted_seconds");
	if (pl->seconds[0] > 0) {
		jw_obj(&w);
		jw_key(&w, "plan"); jw_num(&w, pl->seconds[0]);
		jw_key(&w, "baseline");
		pl->seconds[1] > 0 ? jw_num(&w, pl->seconds[1]) : jw_null(&w);
		jw_end(&w);
	} else {
		jw_null(&w);
	}
	if (pl->seconds_work[0] > 0) {   /* why predicted_seconds is null */
		jw_key(&w, "predicted_seconds_skipped");
		jw_obj(&w);
		jw_key(&w, "work"); jw_num(&w, pl->seconds_work[0]);
		jw_key(&w, "budget"); jw_num(&w, pl->seconds_work[1]);
		jw_end(&w);
	}
	hl_memory_json(pl, &w);
	types_json(cfg, &w);
	jw_end(&w);
	jw_done(&w);
}
