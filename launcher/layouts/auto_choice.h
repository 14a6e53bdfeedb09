/*
 * auto_choice.h -- which plan `layout: auto` keeps (layout_auto.c) from the
 * predicted times of its 1d and 2d plans, and on what model it compared
 * them.  Pure: the unit tests check every case without planning.
 */
#ifndef HL_AUTO_CHOICE_H
#define HL_AUTO_CHOICE_H

/* Within this ratio the two are a tie and 1d is kept: a slice needs no
 * grid (doc/format.md, "layout: auto"). */
#define HL_AUTO_TIE 1.005

typedef enum {
	HL_AUTO_BY_MODEL,    /* both by the kernel's own model */
	HL_AUTO_BY_PHASES,   /* one's own model over the planning budget: both
	                      * by the sum of phases */
	HL_AUTO_ONE,         /* one predicted (the other not planned, or no
	                      * model): that one kept; 1d when neither */
	HL_AUTO_UNCOMPARED,  /* one's own model and a sum of phases over the
	                      * budget: not compared, 2d kept */
} hl_auto_basis;

/* [0] the 1d plan, [1] the 2d plan. */
typedef struct {
	int planned[2];      /* the plan was made */
	double own[2];       /* its time by the kernel's own model (0: none) */
	int over[2];         /* no own time: that model is over the budget */
	double phases[2];    /* by the sum of phases (0: none, or not run) */
} hl_auto_times;

/* 1 when the sum of phases decides: both planned, and one lacks its own
 * time because that model is over the planning budget. */
int hl_auto_needs_phases(const hl_auto_times *t);

/* 1 to keep the 2d plan, 0 the 1d; *basis says on what. */
int hl_auto_choose(const hl_auto_times *t, hl_auto_basis *basis);

#endif
