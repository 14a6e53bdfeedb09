/*
 * layout_auto.c -- the row of `layout: auto`: a dispatcher over the rows
 * of layouts 1d (000 s3) and 2d (000 s4).  It plans both and keeps the one
 * predicted faster; the plan it returns IS that row's plan (its cfg a copy
 * of the file's with that row), so the files, the run and the report know
 * no third layout.  It takes the keys of both rows (B for the slice, grid
 * and panel for the grid: given, they bind the plan of that layout only).
 *
 * The comparison is in predicted seconds of the whole LU, step by step:
 * at the given speeds and network when there are some (emulated, or a real
 * cluster's mflops: with latency_us, bandwidth_mbps), else at the relative
 * speeds 1/cycle_time without a network.  Steady-state costs are no
 * yardstick here: 1d's is per column block, 2d's per b x b block, and
 * neither sees 1d's pivot broadcasts to every process.  When one plan's
 * own model is over the planning budget, both are compared on the sum of
 * phases, and 2d is kept when even that is over (auto_choice.c says why).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config/keys.h"
#include "auto_choice.h"
#include "layout.h"
#include "lu_predict.h"

extern const hl_layout_ops hl_layout_1d, hl_layout_2d;

struct hl_auto_pick {
	hl_config cfg;       /* the file's, with the chosen row */
	hl_auto_times t;     /* the 1d and the 2d plan's times (auto_choice.h) */
	hl_auto_basis basis; /* what they were compared on */
	double base;         /* ... of the one baseline, the kept plan's (0: none) */
	size_t base_grid[2]; /* its BLACS grid: one process per machine */
	int network;         /* the times include a network */
	int relative;        /* the times at the relative speeds 1/cycle_time */
	char why[3][200];    /* why the 1d, the 2d plan had no time by its own model,
	                      * and why the sum of phases did not compare them ("": none) */
};

/* ---- config: the keys of both rows ---------------------------------------- */

static int load_key_auto(hl_config *cfg, const char *key, const yt_node *v, diag *d)
{
	const hl_layout_ops *row = hl_key_of_layout(HL_KS_TOP, "1d", key) ? &hl_layout_1d : &hl_layout_2d;
	return row->load_key(cfg, key, v, d);
}

static int check_auto(hl_config *cfg, const yt_node *root, diag *d)
{
	int a = hl_layout_1d.check(cfg, root, d), b = hl_layout_2d.check(cfg, root, d);
	return a < 0 || b < 0 ? -1 : 0;
}

/* ---- plan ----------------------------------------------------------------- */

/* Reason k of pick->why. */
static void set_why(hl_auto_pick *pick, int k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(pick->why[k], sizeof pick->why[k], fmt, ap);
	va_end(ap);
}

/* 1 when model which of pl is over the planner's budget, its work then in
 * words in reason k. */
static int over_budget_why(const hl_plan *pl, hl_seconds_model which, hl_auto_pick *pick, int k)
{
	double budget, work = hl_model_work(pl, which, &budget);
	if (!(work > budget))
		return 0;
	int play = strcmp(hl_model_name(pl->cfg, which), "play") == 0;
	set_why(pick, k, "layout %s: the work of its %s, about %.3g %s, is over the planner's "
	        "budget of %.3g", pl->cfg->layout->name, play ? "LU play" : "sum of phases", work,
	        play ? "events" : "steps", budget);
	return 1;
}

/* Row's plan on copy, a copy of the file's config, and its time by the
 * kernel's own model into pick->t[k] (0 when it could not be planned or
 * predicted: the reason in why). */
static void plan_one(const hl_config *cfg, const hl_layout_ops *row, hl_config *copy,
                     hl_plan *pl, hl_auto_pick *pick, int k)
{
	*copy = *cfg;
	copy->layout = row;
	diag scratch;
	diag_init(&scratch, cfg->file);
	if (hl_plan_build(copy, &scratch, pl) < 0) {
		set_why(pick, k, "layout %s cannot be planned: %s", row->name,
		        scratch.count && scratch.msg[0] ? scratch.msg[0] : "?");
		memset(pl, 0, sizeof *pl);
		diag_free(&scratch);
		return;
	}
	diag_free(&scratch);
	pick->t.planned[k] = 1;
	double s = pick->relative ? hl_model_seconds(pl, 0, HL_SPEEDS_RELATIVE) : pl->seconds[0];
	pick->t.own[k] = s > 0 ? s : 0.0;
	if (s > 0)
		return;
	pick->t.over[k] = over_budget_why(pl, HL_MODEL_OWN, pick, k);
	if (!pick->t.over[k])
		set_why(pick, k, "layout %s: no prediction (%s, or too large to model)", row->name,
		        cfg->kernel == HL_KERNEL_EXEC && !cfg->model ? "kernel exec without model:"
		        : "no seconds model of this kernel");
}

/* Both plans by the sum of phases, the one over its own budget first:
 * when that one's is over too (always for kernels whose own model is a
 * sum of phases), the other's is not needed. */
static void phases_both(const hl_plan p[2], hl_auto_pick *pick)
{
	hl_speeds how = pick->relative ? HL_SPEEDS_RELATIVE : hl_seconds_speeds(p[0].cfg);
	int k = pick->t.over[1];
	for (int i = 0; i < 2; i++, k = !k) {
		pick->t.phases[k] = hl_model_seconds_phases(&p[k], 0, how);
		if (!(pick->t.phases[k] > 0)) {
			if (!over_budget_why(&p[k], HL_MODEL_PHASES, pick, 2))
				set_why(pick, 2, "layout %s: no sum of phases", p[k].cfg->layout->name);
			return;
		}
	}
}

/* Every speedup of the file is over one baseline, the kept plan's (what
 * compare runs), in the comparison's model: the 1d, the 2d and the final
 * line then agree. */
static void one_baseline(const hl_plan *plan, hl_auto_pick *pick)
{
	hl_ranks r = { 0 };
	if (hl_ranks_cyclic(plan, &r) == 0) {
		pick->base_grid[0] = r.nprow;
		pick->base_grid[1] = r.npcol;
		hl_ranks_free(&r);
	}
	pick->base = pick->relative ? hl_model_seconds(plan, 1, HL_SPEEDS_RELATIVE)
	                            : plan->seconds[1];
	if (!(pick->base > 0))
		pick->base = 0.0;
}

int hl_auto_speedup(const hl_plan *pl, double *speedup, int *network)
{
	const hl_auto_pick *a = pl->pick;
	if (a == NULL)
		return 0;
	double s = a->t.own[a->cfg.layout == &hl_layout_2d];
	if (!(a->base > 0 && s > 0))
		return 0;
	*speedup = a->base / s;
	*network = a->network;
	return 1;
}

static int plan_auto(const hl_config *cfg, diag *d, hl_plan *plan)
{
	hl_auto_pick *pick = calloc(1, sizeof *pick);
	hl_config *c2 = calloc(1, sizeof *c2);
	if (pick == NULL || c2 == NULL) {
		free(pick);
		free(c2);
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	pick->network = hl_seconds_network(cfg);
	pick->relative = !pick->network;
	hl_plan p[2];
	plan_one(cfg, &hl_layout_1d, &pick->cfg, &p[0], pick, 0);
	plan_one(cfg, &hl_layout_2d, c2, &p[1], pick, 1);
	if (hl_auto_needs_phases(&pick->t))
		phases_both(p, pick);
	int two = hl_auto_choose(&pick->t, &pick->basis);
	if (!two && p[0].cfg == NULL) {   /* neither could be planned: 1d's reason */
		hl_plan_free(&p[1]);
		free(c2);
		free(pick);
		return hl_layout_1d.plan(cfg, d, plan);
	}
	hl_plan_free(&p[!two]);
	if (two)
		pick->cfg = *c2;
	free(c2);
	*plan = p[two];
	plan->cfg = &pick->cfg;
	plan->pick = pick;
	one_baseline(plan, pick);
	return 0;
}

/* ---- words ------------------------------------------------------------------ */

/* The unit of the comparison's times: seconds only with real speeds. */
static const char *auto_unit(const hl_auto_pick *a)
{
	return a->network ? "s" : "Mflop at speed 1";
}

/* 1d's or 2d's line: its time and speedup, or that its own model was
 * over the budget. */
static void row_text(const hl_auto_pick *a, int k, FILE *out)
{
	const char *name = k ? "2d" : "1d";
	if (a->t.over[k]) {
		fprintf(out, "  %-9s %12s    over the planner's budget\n", name, "-");
		return;
	}
	if (!(a->t.own[k] > 0))
		return;
	fprintf(out, "  %-9s %12.4g %s", name, a->t.own[k], auto_unit(a));
	if (a->base > 0)
		fprintf(out, "  speedup %.2f over the baseline", a->base / a->t.own[k]);
	fputc('\n', out);
}

/* Which is faster by s, or a tie (auto_choice.h), on the model named. */
static void ratio_text(const double s[2], int two, const char *on, FILE *out)
{
	double r = two ? s[0] / s[1] : s[1] / s[0];
	if (r < HL_AUTO_TIE)
		fprintf(out, "  a tie%s: 1d kept (a slice needs no grid)\n", on);
	else
		fprintf(out, "  %s is %.2f x faster%s\n", two ? "2d" : "1d", r, on);
}

/* What decided, and why when it was not each plan's own model. */
static void verdict_text(const hl_auto_pick *a, int two, FILE *out)
{
	if (a->basis == HL_AUTO_BY_MODEL) {
		ratio_text(a->t.own, two, "", out);
		return;
	}
	for (int k = 0; k < 3; k++)
		if (a->why[k][0])
			fprintf(out, "  (%s)\n", a->why[k]);
	if (a->basis == HL_AUTO_BY_PHASES) {
		fprintf(out, "  compared on the sum of phases instead, a model both can afford "
		        "(lu_time.c):\n  1d %.4g %s, 2d %.4g %s\n", a->t.phases[0], auto_unit(a),
		        a->t.phases[1], auto_unit(a));
		ratio_text(a->t.phases, two, " on the sum of phases", out);
	} else if (a->basis == HL_AUTO_UNCOMPARED) {
		fprintf(out, "  not compared, even on the sum of phases: 2d kept, as a plan too large "
		        "to model\n  is where a grid beats a slice (000 s4.1.2)\n");
	}
}

void hl_auto_print_text(const hl_plan *pl, FILE *out)
{
	const hl_auto_pick *a = pl->pick;
	if (a == NULL)
		return;
	hl_kernel model = hl_config_model(&a->cfg);
	fprintf(out, "\nlayout: auto kept %s: the predicted time of the whole %s, step by step, %s\n",
	        a->cfg.layout->name, model == HL_KERNEL_QR ? "QR" : model == HL_KERNEL_MM ? "product" : "LU",
	        a->network ? "in seconds, network included"
	        : "at the relative speeds\n  1/cycle_time, no network given, in Mflop at speed 1 "
	          "(the time a machine of speed 1,\n  cycle_time 1, takes for 10^6 flop: not seconds)");
	if (a->base > 0)
		fprintf(out, "  %-9s %12.4g %s  (the one baseline: %s's, %zu x %zu, one process "
		        "per machine)\n", "baseline", a->base, auto_unit(a), a->cfg.layout->name,
		        a->base_grid[0], a->base_grid[1]);
	for (int k = 0; k < 2; k++)
		row_text(a, k, out);
	verdict_text(a, a->cfg.layout == &hl_layout_2d, out);
}

/* The model that decided: the kernel's own ("play", "phases"), the sum
 * of phases, or none (null). */
static void compared_on_json(const hl_auto_pick *a, jw *w)
{
	jw_key(w, "compared_on");
	if (a->basis == HL_AUTO_BY_MODEL)
		jw_str(w, hl_model_name(&a->cfg, HL_MODEL_OWN));
	else if (a->basis == HL_AUTO_BY_PHASES)
		jw_str(w, "phases");
	else
		jw_null(w);
	if (!hl_auto_needs_phases(&a->t))
		return;
	jw_key(w, "phases");
	jw_obj(w);
	jw_key(w, "1d"); a->t.phases[0] > 0 ? jw_num(w, a->t.phases[0]) : jw_null(w);
	jw_key(w, "2d"); a->t.phases[1] > 0 ? jw_num(w, a->t.phases[1]) : jw_null(w);
	jw_end(w);
}

/* The reasons, "; " between them (null: both compared by their own model). */
static void why_json(const hl_auto_pick *a, jw *w)
{
	char all[sizeof a->why + 8] = "";
	for (int k = 0; k < 3; k++)
		if (a->why[k][0])
			snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", all[0] ? "; " : "",
			         a->why[k]);
	jw_key(w, "why");
	a->basis == HL_AUTO_BY_MODEL ? jw_null(w) : jw_str(w, all);
}

void hl_auto_json(const hl_plan *pl, jw *w)
{
	const hl_auto_pick *a = pl->pick;
	if (a == NULL)
		return;
	jw_key(w, "layout_auto");
	jw_obj(w);
	jw_key(w, "chosen"); jw_str(w, a->cfg.layout->name);
	jw_key(w, "network"); jw_bool(w, a->network);
	jw_key(w, "units"); jw_str(w, a->network ? "s" : "relative");
	jw_key(w, "1d"); a->t.own[0] > 0 ? jw_num(w, a->t.own[0]) : jw_null(w);
	jw_key(w, "2d"); a->t.own[1] > 0 ? jw_num(w, a->t.own[1]) : jw_null(w);
	jw_key(w, "baseline"); a->base > 0 ? jw_num(w, a->base) : jw_null(w);
	compared_on_json(a, w);
	why_json(a, w);
	jw_end(w);
}

/* Never called on a plan (plan_auto returns the chosen row's); here so
 * that the row is whole. */
static void text_auto(const hl_plan *pl, FILE *out) { pl->cfg->layout->print_text(pl, out); }
static void json_auto(const hl_plan *pl, jw *w) { pl->cfg->layout->print_json(pl, w); }
static int ranks_auto(const hl_plan *pl, hl_ranks *r) { return pl->cfg->layout->ranks(pl, r); }
static int ranks_auto_baseline(const hl_plan *pl, hl_ranks *r)
{
	return pl->cfg->layout->ranks_baseline(pl, r);
}
static double speedup_auto(const hl_plan *pl) { return pl->cfg->layout->predicted_speedup(pl); }
static const char *model_auto(const hl_plan *pl) { return pl->cfg->layout->speedup_model(pl); }

const hl_layout_ops hl_layout_auto = {
	.name = "auto",
	.what = "1d or 2d, whichever is predicted faster (000 s3, s4)",
	.load_key = load_key_auto,
	.check = check_auto,
	.plan = plan_auto,
	.print_text = text_auto,
	.print_json = json_auto,
	.ranks = ranks_auto,
	.ranks_baseline = ranks_auto_baseline,
	.predicted_speedup = speedup_auto,
	.predicted_time = hl_lu_predicted_time,
	.speedup_model = model_auto,
};
