/*
 * measured.h -- the speeds a finished run measured (paper 002 s2.1, s4.5):
 * `hetlaunch calibrate --from RUNDIR` and `hetlaunch run --adapt K`.
 */
#ifndef HL_MEASURED_H
#define HL_MEASURED_H

#include <stddef.h>

#include "config/config.h"
#include "launch/run.h"

/* cycle_time of calibrate: milliseconds per DGEMM of order 500. */
#define HL_CAL_FLOPS (2.0 * 500 * 500 * 500)

/*
 * hl_measured_cycle_times -- each machine's cycle time (ms per DGEMM of
 * order 500) from the compute seconds of the ranks of a 1d LU or QR run
 * (or, with busy, from each machine's busy seconds):
 * rank k is virtual process k of the 1 x B slice and did the flops of its
 * column blocks (vproc/planner/dense: vproc_tg_column_work) at every size in ns;
 * the machine's estimate is the median over its ranks
 * (vproc_measured_times).  A machine the plan left out keeps its
 * configured cycle time, scaled like the measured ones.
 *   ms  [out] cfg->nmachines values
 * Returns 0, or -1 with the reason in err.
 */
int hl_measured_cycle_times(const hl_config *cfg, const size_t *ns, size_t nns, size_t nranks,
                            const size_t *rank_machine, const double *compute,
                            const double *busy, double *ms, char *err, size_t errlen);

/*
 * hl_measured_from_dir -- the same from a run directory's report.json.  An
 * emulated run's report books each machine's compute exactly (emulation.
 * machines[].compute_s): then machine i's time is that over its ranks'
 * work (vproc_measured_busy), and the ranks' own times are not needed.
 *   source [out, optional] which of the two was used, for the user
 */
int hl_measured_from_dir(const char *rundir, const hl_config *cfg, double *ms,
                         const char **source, char *err, size_t errlen);

/*
 * hl_calibrate_edit -- -o NEWFILE: cfg->file's text with each machine
 * entry's cycle_time (or speed) replaced by the measured ms (an entry of
 * count machines: their mean), everything else as it was (calibrate_edit.c).
 * Returns 0, -1 (exit 1) or -2 (NEWFILE refused: hl_write_output), with
 * the reason in err.
 */
int hl_calibrate_edit(const hl_config *cfg, const double *ms, const char *out, char *err,
                      size_t errlen);

/*
 * hl_measured_from_report -- what `calibrate --from RUNDIR [FILE]` reads:
 *   rundir [in]  a run directory holding report.json
 *   file   [in]  the machine list, or NULL for the one the report names
 *   cfg    [out] that machine list, loaded (hl_config_free it)
 *   ms     [out] its measured cycle times, one per machine (free it)
 *   source [out] which of the report's times were used, for the user
 * Returns 0, or the exit status with the message printed (nothing to free).
 */
int hl_measured_from_report(const char *rundir, const char *file, hl_config *cfg, double **ms,
                            const char **source);

#endif
