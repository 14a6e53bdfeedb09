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

/* The seconds to expect, network included, when the speeds are known in
 * Mflop/s: emulated with emulate: mflops (K is then known before the run,
 * emulation.c), or a real cluster's mflops: per machine.  At the user's
 * full size: the models are closed-form per step (lu_predict.c). */
static void predict_seconds(const hl_config *cfg, hl_plan *plan)
{
	double K = hl_config_emulation_K(cfg);
	int emulated = cfg->emulate && cfg->emu.mflops > 0 && K > 0;
	/* a real cluster's seconds: the dense rows' model only */
	int real = !cfg->emulate && cfg->layout->predicted_time == hl_lu_predicted_time &&
	           hl_seconds_speeds(cfg) == HL_SPEEDS_REAL;
	if (!cfg->layout->predicted_time || !(emulated || real))
		return;
	for (int b = 0; b < 2; b++) {
		if (plan->seconds[b] > 0)
			continue;   /* the layout's plan predicted it (layout_1d.c's order) */
		double t = real ? hl_predicted_seconds(plan, b)
		                : cfg->layout->predicted_time(plan, b) / K;
		plan->seconds[b] = t > 0 && t < HUGE_VAL ? t : 0.0;
	}
	if (!(plan->seconds[0] > 0))
		plan->seconds_work[0] = hl_seconds_over_budget(plan, &plan->seconds_work[1]);
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
	free(plan->alike);
	free((void *)plan->pick);   /* after free_plan: plan->cfg lives in it */
	memset(plan, 0, sizeof *plan);
}
