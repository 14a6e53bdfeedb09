/*
 * report.h -- job -> report: report.json from what launch/ measured
 * (hl_run), and the predicted figures the reports quote.
 */
#ifndef HL_REPORT_H
#define HL_REPORT_H

#include "launch/run.h"
#include "util/json.h"

/* hl_run_job, then, for a job that ran (not a dry run, not refused),
 * report.json in its run directory (kept in run->report).  Failing to
 * write it fails a run that had not failed.  Returns the exit status. */
int hl_run_and_report(const hl_config *cfg, const hl_plan *plan, const hl_run_opts *o,
                      hl_run *run);

/* The report document of INTERFACE.md: the one written, or, for a run
 * that wrote none, what is known. */
void hl_run_report_json(jw *w, const hl_config *cfg, const hl_plan *plan, const hl_run *run);

/* The predicted speedup of the plan over one process per machine: the
 * step-by-step LU prediction for 1d, the steady state for 2d. */
double hl_predicted_speedup(const hl_plan *plan);
/* The model it comes from: "seconds", "step-by-step", "steady state" (layouts
 * 1d and 2d: the most faithful that applies), or "the layout's". */
const char *hl_predicted_speedup_model(const hl_plan *plan);

/* What to change when a run is flagged for overruns (one line, no period). */
void hl_overrun_advice(const hl_config *cfg, const hl_run *run, char *buf, size_t len);
/* compare: why its times are not the emulated cluster's, "" if they are. */
void hl_compare_flagged(const hl_run *cyc, const hl_run *het, char *buf, size_t len);

#endif
