/*
 * plan.c -- machines -> plan: through the configuration's layout row
 * (layout.h).  Nothing here knows a layout.
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "layout.h"

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
