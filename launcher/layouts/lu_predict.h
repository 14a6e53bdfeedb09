/*
 * lu_predict.h -- the predicted seconds of an LU, QR or MM job, network
 * included (doc/design/predictions.md): the predicted_time member of the 1d
 * and 2d layout rows (layout.h), from vproc/planner/dense/lu_play.c (kernel: lu),
 * lu_time.c (kernel: hpl), qr_time.c and mm_time.c, at the emulated
 * speeds, at a real cluster's (mflops: per
 * machine, latency_us and bandwidth_mbps), or at the relative speeds
 * 1/cycle_time without a network (the step-by-step balance alone).
 */
#ifndef HL_LU_PREDICT_H
#define HL_LU_PREDICT_H

#include "plan.h"

/* Which speeds the seconds model can run at for a config. */
typedef enum {
	HL_SPEEDS_NONE,       /* no model for the kernel, or no speed in Mflop/s */
	HL_SPEEDS_EMULATED,   /* emulate: with mflops (K known before the run) */
	HL_SPEEDS_REAL,       /* not emulated, every machine's mflops: given */
	HL_SPEEDS_RELATIVE,   /* 1/cycle_time, no network: any config */
} hl_speeds;

/* Which of the kernel's seconds models: its own (for kernel: lu the play,
 * lu_play.h), or the sum of phases (lu_time.h for lu and hpl; qr's and
 * mm's own), cheaper: what layout auto compares on when one layout's own
 * model is over the planning budget. */
typedef enum {
	HL_MODEL_OWN,
	HL_MODEL_PHASES,
} hl_seconds_model;

/* The speeds the config gives (NONE, EMULATED or REAL). */
hl_speeds hl_seconds_speeds(const hl_config *cfg);
/* 1 if those seconds include a network: emulated, or a real cluster's
 * latency_us or bandwidth_mbps given. */
int hl_seconds_network(const hl_config *cfg);

/* The plan's (baseline 0) or its baseline's predicted time at those
 * speeds, summed over the sizes (0: none, or too large to model). */
double hl_model_seconds(const hl_plan *plan, int baseline, hl_speeds how);
/* The same by the sum of phases (HL_MODEL_PHASES). */
double hl_model_seconds_phases(const hl_plan *plan, int baseline, hl_speeds how);

/* Emulated only: the job's predicted time times the emulation's K (run.c
 * divides by K); 0 otherwise. */
double hl_lu_predicted_time(const hl_plan *plan, int baseline);

/* The seconds at the config's own speeds (emulated or real; 0: none). */
double hl_predicted_seconds(const hl_plan *plan, int baseline);

/* 1 if the seconds models are cheap enough to run while planning (about a
 * second at most) for this config's sizes on an nprow x npcol grid. */
int hl_seconds_affordable(const hl_config *cfg, size_t nprow, size_t npcol);

/* The models' work for plan (events or steps, lu_predict.c) when it is
 * over the planning budget (then *budget), else 0. */
double hl_seconds_over_budget(const hl_plan *plan, double *budget);

/* Model which's work for plan, and its budget in *budget, whatever the
 * speeds (0 and 0: the kernel has no such model). */
double hl_model_work(const hl_plan *plan, hl_seconds_model which, double *budget);

/* Model which's name for cfg: "play" (kernel: lu's own, counted in
 * events), "phases" (a sum of phases, counted in steps), NULL: none. */
const char *hl_model_name(const hl_config *cfg, hl_seconds_model which);

/* Scales both planning budgets for the rest of the process by the factor
 * text spells (HETLAUNCH_PLAN_BUDGET, read by main.c): 0, or -1 when it
 * is not a finite number > 0 (the budgets then unchanged). */
int hl_seconds_budget_scale(const char *text);

#endif
