/*
 * lu_predict.c -- see lu_predict.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "config/config.h"
#include "planner/dense/lu_timed_play.h"
#include "planner/dense/lu_time.h"
#include "planner/dense/mm_time.h"
#include "planner/dense/qr_time.h"
#include "lu_predict.h"

typedef vproc_status (*seconds_fn)(const vproc_lu_platform *, vproc_lu_seconds *);

/* The kernels with a seconds model (vproc/planner/dense/), NULL for the others. */
static seconds_fn seconds_model(hl_kernel k)
{
	switch (k) {
	/* PDGETRF played out with its real topologies (lu_play.h): the sum
	 * of phases missed PB_CptrsmB's wait for the whole row, 1.7-4.6x on
	 * 1D plans with B near M (doc/design/predictions.md) */
	case HL_KERNEL_LU: return vproc_lu_play_time;
	/* HPL is right-looking LU on the same block-cyclic grid, its pivots
	 * in one exchange (model_sum); its look-ahead, broadcast and swap
	 * variants are not modelled (doc/design/hpl-model.md) */
	case HL_KERNEL_HPL: return vproc_lu_time;
	case HL_KERNEL_MM: return vproc_mm_time;
	case HL_KERNEL_QR: return vproc_qr_time;
	default: return NULL;
	}
}

/* The sum of phases of kernel k: for LU, lu_time.c, the play's cheaper
 * predecessor (it misses PB_CptrsmB's wait, doc/design/predictions.md);
 * the other kernels' models are sums of phases already. */
static seconds_fn phases_model(hl_kernel k)
{
	return k == HL_KERNEL_LU ? vproc_lu_time : seconds_model(k);
}

static seconds_fn model_of(const hl_config *cfg, hl_seconds_model which)
{
	hl_kernel k = hl_config_model(cfg);
	return which == HL_MODEL_PHASES ? phases_model(k) : seconds_model(k);
}

/* Every machine's real speed is given (mflops:, all or none). */
static int real_speeds(const hl_config *cfg)
{
	return cfg->nmachines > 0 && cfg->machines[0].mflops > 0;
}

hl_speeds hl_seconds_speeds(const hl_config *cfg)
{
	if (seconds_model(hl_config_model(cfg)) == NULL)
		return HL_SPEEDS_NONE;
	if (cfg->emulate)
		return cfg->emu.mflops > 0 && !cfg->emu.links ? HL_SPEEDS_EMULATED : HL_SPEEDS_NONE;
	return real_speeds(cfg) ? HL_SPEEDS_REAL : HL_SPEEDS_NONE;
}

int hl_seconds_network(const hl_config *cfg)
{
	hl_speeds s = hl_seconds_speeds(cfg);
	if (s == HL_SPEEDS_EMULATED)
		return 1;   /* the network is what is emulated, none included */
	if (s != HL_SPEEDS_REAL)
		return 0;
	if (cfg->latency_us > 0 || cfg->bandwidth_mbps > 0)
		return 1;
	for (size_t i = 0; i < cfg->nmachines; i++)
		if (cfg->machines[i].latency_us > 0 || cfg->machines[i].bandwidth_mbps > 0)
			return 1;
	return 0;
}

/* Machine i's speed, latency (s) and bandwidth (bytes/s) for the model:
 * emulated, real (mflops: and the top level's network), or relative
 * (1/cycle_time, no network: the step-by-step balance alone). */
static void machine_rates(const hl_config *cfg, hl_speeds how, size_t i, double *mf,
                          double *lat, double *bw)
{
	const hl_machine *m = &cfg->machines[i];
	double l = m->latency_us, b = m->bandwidth_mbps;
	*lat = *bw = 0.0;
	if (how == HL_SPEEDS_RELATIVE) {
		*mf = 1.0 / m->cycle_time;
		return;
	}
	if (how == HL_SPEEDS_EMULATED) {
		*mf = m->emulate_mflops > 0 ? m->emulate_mflops
		                            : hl_config_emulation_K(cfg) / m->cycle_time;
		l = l > 0 ? l : cfg->emu.latency_us;
		b = b > 0 ? b : cfg->emu.bandwidth_mbps;
	} else {
		*mf = m->mflops;
		l = l > 0 ? l : cfg->latency_us;
		b = b > 0 ? b : cfg->bandwidth_mbps;
	}
	*lat = l * 1e-6;
	*bw = b * 1e6 / 8.0;
}

/* Model fn over the config's sizes on ranks r, in seconds (0: none). */
static double model_sum(const hl_config *cfg, seconds_fn fn, hl_speeds how, const hl_ranks *r,
                        double *rates)
{
	size_t p = cfg->nmachines;
	double *mf = rates, *lat = rates + p, *bw = rates + 2 * p;
	for (size_t i = 0; i < p; i++)
		machine_rates(cfg, how, i, &mf[i], &lat[i], &bw[i]);
	int bus = how == HL_SPEEDS_EMULATED && cfg->emu.bus;
	vproc_lu_platform pl = { 0, cfg->nb, r->nprow, r->npcol, r->machine, p, mf, lat, bw,
	                         bus, bus ? cfg->emu.latency_us * 1e-6 : 0.0,
	                         bus ? cfg->emu.bandwidth_mbps * 1e6 / 8.0 : 0.0,
	                         cfg->kernel == HL_KERNEL_HPL,   /* HPL_pdmxswp */
	                         0,     /* PB_CptrsmB's pieces: the play's grouping */
	                         0 };   /* 2D: in virtual-time order (lu_grid_play.c) */
	double total = 0.0;
	for (size_t k = 0; k < cfg->nsizes; k++) {
		vproc_lu_seconds s;
		pl.n = cfg->sizes[k];
		if (fn(&pl, &s) != VPROC_OK)
			return 0.0;
		total += s.total;
	}
	return isfinite(total) ? total : 0.0;
}

/* The budgets of one model's run while planning: about half a second
 * each here (2 cores); a plan runs the models up to nine times
 * (layout_1d.c's order, plan.c's seconds and baseline's, layout_2d.c's
 * relative pair and alike_hosts.c's speed-ordered plan when it deals,
 * layout auto's both).  The phase sums (lu_time, qr_time,
 * mm_time) walk every step and, in it, every process and machine a few
 * times, QR's panels b times that: 1e8 such steps.  LU's play counts its
 * own events (lu_play.h), 25-60 ns each (60 when the calendars run full:
 * n = 400 000, nb = 64 on 384 ranks): 2.5e7, so that bench_plan's 2D
 * plan of 4096 processors (2.04e7 events with hl-driver's PDGETRS) keeps
 * its own seconds.  The loader lets n reach 10^7 with
 * nb = 1.  make fuzz's sanitizers are 10-15 times slower and give a case
 * 30 s: its build scales the budgets by HL_SECONDS_BUDGET_SCALE.  At run
 * time HETLAUNCH_PLAN_BUDGET scales them too (main.c): a user who can wait
 * gets seconds for a larger plan, and a test puts a small plan over the
 * budget without planning thousands of processes. */
#ifndef HL_SECONDS_BUDGET_SCALE
#define HL_SECONDS_BUDGET_SCALE 1.0
#endif
#define PHASES_BUDGET (1e8 * HL_SECONDS_BUDGET_SCALE)
#define PLAY_BUDGET (2.5e7 * HL_SECONDS_BUDGET_SCALE)

static double budget_scale = 1.0;   /* HETLAUNCH_PLAN_BUDGET */

int hl_seconds_budget_scale(const char *text)
{
	char *end;
	errno = 0;
	double f = strtod(text, &end);
	if (end == text || *end != '\0' || errno == ERANGE || !isfinite(f) || !(f > 0))
		return -1;
	budget_scale = f;
	return 0;
}

/* Model fn's work for the config's sizes on an nprow x npcol grid, and
 * its budget. */
static double seconds_work(const hl_config *cfg, seconds_fn fn, size_t nprow, size_t npcol,
                           double *budget)
{
	hl_kernel model = hl_config_model(cfg);
	int play = fn == vproc_lu_play_time;
	double work = 0.0;
	for (size_t k = 0; k < cfg->nsizes; k++) {
		vproc_lu_platform pl = { .n = cfg->sizes[k], .b = cfg->nb, .P = nprow, .Q = npcol };
		double M = cfg->nb ? (double)cfg->sizes[k] / (double)cfg->nb + 1.0 : 0.0;
		double panel = model == HL_KERNEL_QR ? (double)cfg->nb : 1.0;
		work += play ? vproc_lu_play_events(&pl)
		        : M * panel * (double)(nprow * npcol + cfg->nmachines) * 4.0;
	}
	*budget = (play ? PLAY_BUDGET : PHASES_BUDGET) * budget_scale;
	return work;
}

static int affordable(const hl_config *cfg, seconds_fn fn, size_t nprow, size_t npcol)
{
	double budget, work = seconds_work(cfg, fn, nprow, npcol, &budget);
	return work <= budget;
}

int hl_seconds_affordable(const hl_config *cfg, size_t nprow, size_t npcol)
{
	return affordable(cfg, model_of(cfg, HL_MODEL_OWN), nprow, npcol);
}

double hl_model_work(const hl_plan *plan, hl_seconds_model which, double *budget)
{
	seconds_fn fn = model_of(plan->cfg, which);
	hl_ranks r = { 0 };
	*budget = 0.0;
	if (fn == NULL || hl_ranks_from_plan(plan, &r) < 0)
		return 0.0;
	double work = seconds_work(plan->cfg, fn, r.nprow, r.npcol, budget);
	hl_ranks_free(&r);
	return work;
}

const char *hl_model_name(const hl_config *cfg, hl_seconds_model which)
{
	seconds_fn fn = model_of(cfg, which);
	return fn == vproc_lu_play_time ? "play" : fn ? "phases" : NULL;
}

double hl_seconds_over_budget(const hl_plan *plan, double *budget)
{
	*budget = 0.0;
	if (hl_seconds_speeds(plan->cfg) == HL_SPEEDS_NONE)
		return 0.0;
	double work = hl_model_work(plan, HL_MODEL_OWN, budget);
	return work > *budget ? work : 0.0;
}

/* Model fn's seconds of the plan (baseline 0) or of its baseline. */
static double plan_seconds(const hl_plan *plan, int baseline, hl_speeds how, seconds_fn fn)
{
	const hl_config *cfg = plan->cfg;
	if (how == HL_SPEEDS_NONE || fn == NULL)
		return 0.0;
	double *rates = calloc(3 * cfg->nmachines, sizeof *rates);
	hl_ranks r = { 0 };
	int rc = rates ? (baseline ? hl_ranks_cyclic(plan, &r) : hl_ranks_from_plan(plan, &r)) : -1;
	double t = rc < 0 || !affordable(cfg, fn, r.nprow, r.npcol) ? 0.0
	           : model_sum(cfg, fn, how, &r, rates);
	if (rc == 0)
		hl_ranks_free(&r);
	free(rates);
	return t;
}

double hl_model_seconds(const hl_plan *plan, int baseline, hl_speeds how)
{
	return plan_seconds(plan, baseline, how, model_of(plan->cfg, HL_MODEL_OWN));
}

double hl_model_seconds_phases(const hl_plan *plan, int baseline, hl_speeds how)
{
	return plan_seconds(plan, baseline, how, model_of(plan->cfg, HL_MODEL_PHASES));
}

double hl_lu_predicted_time(const hl_plan *plan, int baseline)
{
	const hl_config *cfg = plan->cfg;
	if (hl_seconds_speeds(cfg) != HL_SPEEDS_EMULATED)
		return 0.0;
	return hl_model_seconds(plan, baseline, HL_SPEEDS_EMULATED) * hl_config_emulation_K(cfg);
}

double hl_predicted_seconds(const hl_plan *plan, int baseline)
{
	return hl_model_seconds(plan, baseline, hl_seconds_speeds(plan->cfg));
}
