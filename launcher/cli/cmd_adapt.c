/*
 * adapt.c -- `hetlaunch run FILE --adapt K`: paper 002 s4.5's semi-static
 * strategy.  K phases of the same problem; phase 1 is planned on the YAML's
 * cycle times, every later phase on the speeds the phase before measured
 * (measured.h: the median over a machine's ranks of compute per flop).
 * The plan that changed is printed between phases, and report.json in the
 * output directory keeps every phase (plan, cycle times, time).
 *
 * The allocation is static within a phase and recomputed between phases;
 * each phase is a whole run (stock ScaLAPACK cannot move column blocks
 * during a factorization), so the redistribution 002 s4.5 mentions is a
 * fresh start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "launch/emulation.h"
#include "util/rundir.h"
#include "util/fsutil.h"
#include "util/json.h"
#include "layouts/layout.h"
#include "report/measured.h"
#include "layouts/memory.h"
#include "layouts/plan.h"
#include "report/report.h"
#include "cli.h"
#include "launch/run.h"

#define ADAPT_MAX 64

typedef struct {
	double *t;        /* [p] cycle times it was planned on */
	size_t B;
	size_t *counts;   /* [p] */
	size_t *pattern;  /* [B] */
	double time;      /* the run's time (s); 0 when it failed */
	int passed, rc;
	char dir[PATH_MAX];
} phase;

typedef struct {
	const hl_config *cfg;
	phase *ph;
	size_t n;
} adapt_doc;

/* The emulated speeds must not follow the new cycle times: pin each
 * machine's emulate_mflops to the speed phase 1 gives it. */
static int pin_emulation(hl_config *pc)
{
	if (!pc->emulate)
		return 0;
	double tref = pc->emu.cycle_time;   /* 0: the fastest machine's */
	if (tref <= 0)
		for (size_t i = 0; i < pc->nmachines; i++)
			if (tref <= 0 || pc->machines[i].cycle_time < tref)
				tref = pc->machines[i].cycle_time;
	for (size_t i = 0; i < pc->nmachines; i++) {
		hl_machine *m = &pc->machines[i];
		if (m->emulate_mflops > 0)
			continue;
		if (pc->emu.mflops <= 0) {
			fprintf(stderr, "hetlaunch: run --adapt: %s: emulated machine %s has no "
			        "emulate_mflops and emulate: has no mflops, so its speed would follow "
			        "the re-measured cycle times; give either\n", pc->file, m->name);
			return -1;
		}
		m->emulate_mflops = pc->emu.mflops * tref / m->cycle_time;
	}
	return 0;
}

static void keep_plan(const hl_config *pc, const hl_plan *plan, phase *ph)
{
	size_t p = pc->nmachines;
	ph->t = calloc(p, sizeof *ph->t);
	ph->counts = calloc(p, sizeof *ph->counts);
	ph->pattern = calloc(plan->B, sizeof *ph->pattern);
	ph->B = plan->B;
	for (size_t i = 0; ph->t && ph->counts && i < p; i++) {
		ph->t[i] = pc->machines[i].cycle_time;
		ph->counts[i] = plan->slice.counts[i];
	}
	if (ph->pattern)
		memcpy(ph->pattern, plan->slice.pattern, plan->B * sizeof *ph->pattern);
}

/* "fast 3 -> 4, slow 2 -> 1" and the patterns, or "unchanged". */
static void print_change(const hl_config *cfg, const phase *a, const phase *b, size_t k)
{
	fprintf(stderr, "hetlaunch: adapt: phase %zu plan, on the speeds phase %zu measured:", k + 1, k);
	int changed = a->B != b->B;
	for (size_t i = 0; i < cfg->nmachines; i++) {
		if (a->counts[i] != b->counts[i])
			changed = 1;
		fprintf(stderr, "%s %s %zu -> %zu", i ? "," : "", cfg->machines[i].name, a->counts[i],
		        b->counts[i]);
	}
	for (size_t v = 0; !changed && v < b->B; v++)
		changed = a->pattern[v] != b->pattern[v];
	fprintf(stderr, "%s\n  pattern:", changed ? "" : " (unchanged)");
	for (size_t v = 0; v < b->B; v++)
		fprintf(stderr, " %s", cfg->machines[b->pattern[v]].name);
	fprintf(stderr, "\n");
}

static void doc_json(jw *w, const adapt_doc *d)
{
	const hl_config *cfg = d->cfg;
	jw_obj(w);
	jw_key(w, "name"); jw_str(w, cfg->name);
	jw_key(w, "phases");
	jw_arr(w);
	for (size_t k = 0; k < d->n; k++) {
		const phase *ph = &d->ph[k];
		jw_obj(w);
		jw_key(w, "phase"); jw_uint(w, k + 1);
		jw_key(w, "dir"); jw_str(w, ph->dir);
		jw_key(w, "B"); jw_uint(w, ph->B);
		jw_key(w, "plan");
		jw_obj(w);
		for (size_t i = 0; i < cfg->nmachines; i++) {
			jw_key(w, cfg->machines[i].name); jw_uint(w, ph->counts[i]);
		}
		jw_end(w);
		jw_key(w, "cycle_times");
		jw_obj(w);
		for (size_t i = 0; i < cfg->nmachines; i++) {
			jw_key(w, cfg->machines[i].name); jw_num(w, ph->t[i]);
		}
		jw_end(w);
		jw_key(w, "time"); jw_num(w, ph->time);
		jw_key(w, "passed"); jw_bool(w, ph->passed);
		jw_end(w);
	}
	jw_end(w);
	double t1 = d->n ? d->ph[0].time : 0, tk = d->n ? d->ph[d->n - 1].time : 0;
	jw_key(w, "speedup"); jw_num(w, t1 > 0 && tk > 0 ? t1 / tk : 0.0);
	jw_end(w);
}

static int fill_doc(FILE *f, void *arg)
{
	jw w;
	jw_init(&w, f);
	doc_json(&w, arg);
	jw_done(&w);
	return 0;
}

/* One phase: plan pc, run it into dir/phaseK, measure the next cycle times. */
static int run_phase(hl_config *pc, const hl_run_opts *o0, const char *dir, size_t k, phase *ph,
                     double *ms)
{
	/* Before the plan: a directory that does not fit is refused, not cut. */
	if ((size_t)snprintf(ph->dir, sizeof ph->dir, "%s/phase%zu", dir, k + 1) >= sizeof ph->dir) {
		fprintf(stderr, "hetlaunch: adapt: the directory %.40s... is too long\n", dir);
		return 2;
	}
	diag d;
	diag_init(&d, pc->file);
	hl_plan plan;
	if (hl_plan_build_checked(pc, &d, &plan) < 0) {
		diag_print(&d, stderr);
		diag_free(&d);
		return 2;
	}
	keep_plan(pc, &plan, ph);
	hl_run_opts o = *o0;
	o.out_dir = ph->dir;
	hl_run run;
	int rc = hl_run_and_report(pc, &plan, &o, &run);
	ph->time = run.time;
	ph->passed = run.passed;
	char err[512];
	const char *source = NULL;
	if (rc == 0 && hl_measured_from_dir(run.dir, pc, ms, &source, err, sizeof err) < 0) {
		fprintf(stderr, "hetlaunch: adapt: phase %zu: %s\n", k + 1, err);
		rc = 1;
	}
	if (rc)
		fprintf(stderr, "hetlaunch: adapt: phase %zu failed: %s%s%s%s\n", k + 1,
		        run.error[0] ? run.error : "see log.txt", run.dir[0] ? " (" : "", run.dir,
		        run.dir[0] ? ")" : "");
	else
		fprintf(stderr, "hetlaunch: adapt: phase %zu: %.3f s, %s (%s); speeds from %s\n",
		        k + 1, run.time, run.passed ? "PASSED" : "FAILED", run.dir, source);
	hl_run_free(&run);
	hl_plan_free(&plan);
	diag_free(&d);
	return rc;
}

static void default_dir(const hl_config *cfg, char *dir, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	snprintf(dir, len, "runs/%s-%s-adapt", cfg->name, stamp);
}

static int adapt_loop(hl_config *pc, const hl_run_opts *o, size_t K, const char *dir,
                      adapt_doc *doc)
{
	double *ms = calloc(pc->nmachines, sizeof *ms);
	int rc = ms ? 0 : 1;
	for (size_t k = 0; k < K && rc == 0; k++) {
		rc = run_phase(pc, o, dir, k, &doc->ph[k], ms);
		doc->n = k + 1;
		if (k > 0)
			print_change(pc, &doc->ph[k - 1], &doc->ph[k], k);
		for (size_t i = 0; rc == 0 && i < pc->nmachines; i++) {
			pc->machines[i].cycle_time = ms[i];
			pc->machines[i].speed = 0;
		}
	}
	free(ms);
	return rc;
}

int hl_run_adapt(const hl_config *cfg, const hl_run_opts *o0, size_t K, int json)
{
	if (K < 1 || K > ADAPT_MAX || strcmp(hl_layout_name(cfg->layout), "1d") != 0 ||
	    (cfg->kernel != HL_KERNEL_LU && cfg->kernel != HL_KERNEL_QR) || o0->baseline ||
	    o0->dry_run) {
		fprintf(stderr, "hetlaunch: run --adapt: K in 1..%d, layout 1d with kernel lu or qr, "
		        "no --baseline, no --dry-run\n", ADAPT_MAX);
		return 2;
	}
	hl_config pc = *cfg;   /* the phases change only the cycle times */
	pc.machines = malloc(cfg->nmachines * sizeof *pc.machines);
	phase *ph = calloc(K, sizeof *ph);
	if (pc.machines == NULL || ph == NULL) {
		free(pc.machines);
		free(ph);
		return 1;
	}
	memcpy(pc.machines, cfg->machines, cfg->nmachines * sizeof *pc.machines);
	pc.by_speed = 0;
	int rc = pin_emulation(&pc) < 0 ? 2 : 0;
	char dir[PATH_MAX], err[512], path[PATH_MAX + 16];
	hl_run_opts o = *o0;   /* every phase on the same speeds; each checks its ranks */
	if (rc == 0 && (rc = hl_run_precheck(&pc, 0, &o, err, sizeof err)) != 0)
		fprintf(stderr, "hetlaunch: %s\n", err);
	if (o0->out_dir)
		snprintf(dir, sizeof dir, "%s", o0->out_dir);
	else
		default_dir(cfg, dir, sizeof dir);
	if (rc == 0 && hl_mkdir_p(dir, err, sizeof err) < 0) {
		fprintf(stderr, "hetlaunch: %s\n", err);
		rc = 1;
	}
	adapt_doc doc = { &pc, ph, 0 };
	if (rc == 0)
		rc = adapt_loop(&pc, &o, K, dir, &doc);
	snprintf(path, sizeof path, "%s/" HL_RD_REPORT, dir);
	if (doc.n > 0 && hl_write_atomic(path, fill_doc, &doc, err, sizeof err) < 0) {
		fprintf(stderr, "hetlaunch: %s\n", err);
		rc = rc ? rc : 1;
	}
	if (doc.n > 0 && json) {
		jw w;
		jw_init(&w, stdout);
		doc_json(&w, &doc);
		jw_done(&w);
	}
	if (doc.n > 1 && ph[0].time > 0 && ph[doc.n - 1].time > 0)
		fprintf(stderr, "hetlaunch: adapt: phase 1 %.3f s, phase %zu %.3f s: %.2fx (%s)\n",
		        ph[0].time, doc.n, ph[doc.n - 1].time, ph[0].time / ph[doc.n - 1].time, path);
	for (size_t k = 0; k < K; k++) {
		free(ph[k].t);
		free(ph[k].counts);
		free(ph[k].pattern);
	}
	free(ph);
	free(pc.machines);
	return rc;
}
