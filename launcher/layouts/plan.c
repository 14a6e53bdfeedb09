/*
 * plan.c -- machines -> plan: through the configuration's layout row
 * (layout.h).  Nothing here knows a layout.
 */
#include "plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "lu_predict.h"

/* The seconds to expect, network included ("nothing says how
 * many seconds to expect"), when the emulated speeds are given: K is then
 * known before the run (emulation.c). */
static void predict_seconds(const hl_config *cfg, hl_plan *plan)
{
	double K = hl_config_emulation_K(cfg);
	if (!cfg->emulate || !(cfg->emu.mflops > 0) || !(K > 0) || !cfg->layout->predicted_time)
		return;
	hl_ranks r = { 0 };
	if (hl_ranks_from_plan(plan, &r) < 0)
		return;
	int cheap = hl_seconds_affordable(cfg, r.nranks);
	hl_ranks_free(&r);
	if (!cheap)
		return;   /* run.c still predicts the job's time */
	for (int b = 0; b < 2; b++) {
		if (plan->seconds[b] > 0)
			continue;   /* the layout's plan predicted it (layout_1d.c's order) */
		double t = cfg->layout->predicted_time(plan, b) / K;
		plan->seconds[b] = t > 0 && t < HUGE_VAL ? t : 0.0;
	}
}

int hl_plan_build(const hl_config *cfg, diag *d, hl_plan *plan)
{
	memset(plan, 0, sizeof *plan);
	plan->cfg = cfg;
	/* A refused plan leaves nothing to free, whatever the row had
	 * allocated when it refused (layout 2d returns at each refusal; found
	 * by make fuzz: a 2 x 3 grid with max_procs: 1 leaked). */
	if (cfg->layout->plan(cfg, d, plan) < 0) {
		hl_plan_free(plan);
		return -1;
	}
	predict_seconds(cfg, plan);
	return 0;
}

void hl_plan_free(hl_plan *plan)
{
	if (plan->cfg && plan->cfg->layout->free_plan)
		plan->cfg->layout->free_plan(plan);
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
	return plan->cfg->layout->ranks(plan, r);
}

int hl_ranks_cyclic(const hl_plan *plan, hl_ranks *r)
{
	return plan->cfg->layout->ranks_baseline(plan, r);
}

void hl_ranks_free(hl_ranks *r)
{
	free(r->machine);
	r->machine = NULL;
	r->nranks = 0;
}
