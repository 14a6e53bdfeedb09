/*
 * measured.h -- cycle times from a finished run (paper 002 s2.1 and s4.5:
 * "during the first phase we measure the actual performance of each
 * machine ... and we use these values to allocate chunks during the second
 * phase").  Pure (vproc rules): no I/O.
 */
#ifndef VPROC_MEASURED_H
#define VPROC_MEASURED_H

#include <stddef.h>

#include "taskgraph.h"

/* The work of column block j over the whole factorization: its updates
 * U(s, j), s < j, and its factor task F(j) (taskgraph.h's costs). */
double vproc_tg_column_work(const vproc_tg *g, size_t j);

/*
 * vproc_measured_times -- machine i's time per unit of work, from its
 * ranks' measured compute seconds and the work each rank did.  The ranks
 * of one machine share its processor (000 s2), served first come first
 * served (the emulation's vproc_emu_charge), so a rank's compute segment
 * also holds, on average, half of its c - 1 siblings' segments of the same
 * step: compute_r = work_r t_i (c + 1) / 2 when the c ranks do equal work.
 * Each rank gives one estimate, 2 compute_r / ((c + 1) work_r); the
 * machine's is their median, so one disturbed rank does not move it.
 *   p         [in]  machines
 *   nranks    [in]  ranks
 *   machine   [in]  nranks machine indices < p
 *   work      [in]  nranks works, >= 0 (a rank without work is skipped)
 *   compute   [in]  nranks seconds, finite (a rank with compute <= 0 is skipped)
 *   t         [out] p times per unit of work; 0 for a machine without an estimate
 * VPROC_EINVAL on a bad argument, VPROC_ENOMEM.
 */
vproc_status vproc_measured_times(size_t p, size_t nranks, const size_t *machine,
                                  const double *work, const double *compute, double *t);

/*
 * vproc_measured_busy -- machine i's time per unit of work from the time
 * its processor was busy (an emulated machine's booked compute, where
 * sharing is exact): busy_i / the work of its ranks.  0 for a machine
 * without ranks or without a busy time.
 */
vproc_status vproc_measured_busy(size_t p, size_t nranks, const size_t *machine,
                                 const double *work, const double *busy, double *t);

/*
 * vproc_measured_fill -- give the machines left without an estimate (0 in
 * t_new: the plan gave them no process) their old time scaled like the
 * others, old x the median of t_new / t_old over the measured machines.
 * VPROC_EINVAL if no machine was measured.
 */
vproc_status vproc_measured_fill(size_t p, const double *t_old, double *t_new);

#endif
