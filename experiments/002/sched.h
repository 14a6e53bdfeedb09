/* experiments/002/sched.h -- the ids of 002 s4 (sched.c), listed in ids.c. */
#ifndef EX_002_SCHED_H
#define EX_002_SCHED_H

#include "harness.h"

void id_002_fig11(report *r);
void id_002_fig12(report *r);

#endif
