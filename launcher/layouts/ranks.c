/*
 * ranks.c -- plan -> ranks: which machine each MPI rank runs on, through
 * the configuration's layout row (layout.h): the plan's, or the cyclic
 * baseline's (one process per machine).  Apart from plan.c, so that the
 * seconds models (lu_predict.c), which count a plan's ranks, and the plan
 * builder, which calls those models, do not call each other.
 */
#include <stdlib.h>

#include "layout.h"
#include "plan.h"

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
