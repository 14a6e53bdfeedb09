/*
 * lu_predict.h -- the predicted seconds of an emulated LU, QR or MM job,
 * network included: the predicted_time member of the 1d and 2d
 * layout rows (layout.h), from vproc/dense/lu_time.c, qr_time.c and
 * mm_time.c.
 */
#ifndef HL_LU_PREDICT_H
#define HL_LU_PREDICT_H

#include "plan.h"

/* The job's predicted time times the emulation's K (run.c divides by K):
 * the sum over the sizes of the kernel's model at the emulated speeds and
 * network.  0 (no prediction) unless kernel lu, qr or mm is emulated with a given
 * emulate: mflops (K is then known before the run) on a switch or a bus. */
double hl_lu_predicted_time(const hl_plan *plan, int baseline);

/* The same in emulated seconds (0: no prediction). */
double hl_predicted_seconds(const hl_plan *plan, int baseline);

/* 1 if the seconds models are cheap enough to run while planning (about a
 * second at most) for this config's sizes on nranks processes. */
int hl_seconds_affordable(const hl_config *cfg, size_t nranks);

#endif
