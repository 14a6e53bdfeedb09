/*
 * auto_choice.c -- see auto_choice.h.
 */
#include "auto_choice.h"

/* 2d only when faster by more than a tie. */
static int faster_2d(const double s[2])
{
	return s[0] / s[1] >= HL_AUTO_TIE;
}

int hl_auto_needs_phases(const hl_auto_times *t)
{
	return t->planned[0] && t->planned[1] && !(t->own[0] > 0 && t->own[1] > 0) &&
	       (t->over[0] || t->over[1]);
}

/* Over the budget is no verdict on a plan, only on its size: keeping the
 * one that happened to fit once picked a 1d plan predicted at 2518 s over
 * a 2d one at 38.8 s (doc/design/predictions.md, "The planning budget").
 * The sum of phases (lu_time.h) is the model both can afford; it misses
 * PDGETRF's PB_CptrsmB wait, which slows 1D plans most, so it errs
 * towards 1d.  When even it is over the budget, 2d is kept: the model's
 * work grows with the processes and the steps, and that is where 2D wins:
 * a process talks to its grid row and column (000 s4.1.2), while a
 * slice's panels and pivots go to every process (bench_plan's 4096
 * processors: 2d 38.8 s, 1d 2518 s). */
int hl_auto_choose(const hl_auto_times *t, hl_auto_basis *basis)
{
	if (t->own[0] > 0 && t->own[1] > 0) {
		*basis = HL_AUTO_BY_MODEL;
		return faster_2d(t->own);
	}
	if (!hl_auto_needs_phases(t)) {
		*basis = HL_AUTO_ONE;
		return t->own[1] > 0;
	}
	if (t->phases[0] > 0 && t->phases[1] > 0) {
		*basis = HL_AUTO_BY_PHASES;
		return faster_2d(t->phases);
	}
	*basis = HL_AUTO_UNCOMPARED;
	return 1;
}
