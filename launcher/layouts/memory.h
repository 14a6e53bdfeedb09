/*
 * memory.h -- what a plan needs in memory: bytes per process
 * from the kernel table's row (hl-driver's array sizes, or a stock
 * tester's fixed array), summed per machine over its virtual processes,
 * against the machine's memory_gb, or for this computer without it, its
 * MemAvailable.  A plan that does not fit is refused before anything
 * starts (exit 2, at the machine's line and column).
 */
#ifndef HL_MEMORY_H
#define HL_MEMORY_H

#include <stdio.h>

#include "util/diag.h"
#include "util/json.h"
#include "plan.h"

typedef struct {
	int known;            /* 0: the kernel does not say (exec) */
	size_t per_process;   /* the largest process's bytes */
	size_t *machine;      /* [nmachines] bytes of its processes, summed */
	size_t *procs;        /* [nmachines] its processes */
} hl_memory;

/* Of the plan's ranks (baseline: one process per machine).  Returns 0, or
 * -1 when out of memory.  Free with hl_memory_free. */
int hl_memory_of(const hl_plan *plan, int baseline, hl_memory *m);
void hl_memory_free(hl_memory *m);

/* Refuse (diag error at the machine, return -1) a plan that does not fit. */
int hl_memory_check(const hl_plan *plan, diag *d);

/* The plan's memory lines (text) and its "memory" member (JSON). */
void hl_memory_print_text(const hl_plan *plan, FILE *out);
void hl_memory_json(const hl_plan *plan, jw *w);

/* hl_plan_build at the n it plans for: under n: auto, the plan again at
 * the n chosen until it stays (cfg->n is set: the caller's own config).
 * What hostfile and simulate call (on failure d says why: exit 2). */
int hl_plan_build_n(const hl_config *cfg, diag *d, hl_plan *plan);

/* hl_plan_build_n, then hl_memory_check: what plan, run and compare call
 * (on failure the plan is freed and d says why: exit 2). */
int hl_plan_build_checked(const hl_config *cfg, diag *d, hl_plan *plan);

/* MemAvailable of /proc/meminfo in bytes; 0 if unknown. */
size_t hl_mem_available(void);

#endif
