/*
 * balance.h -- compare's balance.png: per machine, compute
 * against waiting, the cyclic run beside the plan, drawn by gnuplot.
 */
#ifndef HL_BALANCE_H
#define HL_BALANCE_H

#include <stddef.h>
#include <stdio.h>

#include "launch/run.h"

/* The bars of the picture: a bar per machine, or a bar per host when there
 * are more than HL_BALANCE_BY_HOST machines (a core per machine on a few
 * hundred cores). */
#define HL_BALANCE_BY_HOST 32

/* One run's per-rank times, as the bars read them. */
typedef struct {
	const size_t *machine;        /* [nranks] rank -> machine */
	const hl_rank_time *times;    /* [nranks] */
	size_t nranks;
} hl_balance_run;

typedef struct {
	/* "name:C/H", C and H the processes the cyclic and the planned run
	 * start there, "name:dropped" when the plan starts none; by host,
	 * "host[M]:C/H" with M its machines */
	char label[128];
	size_t procs[2];               /* [0] cyclic, [1] the plan */
	double compute[2], total[2];   /* mean per process (s); NaN with none */
} hl_balance_bar;

/*
 * hl_balance_bars -- the bars for run[0] (cyclic) and run[1] (the plan),
 * in machine-list order (hosts in order of first appearance).  *out is
 * malloc'd.  Returns the number of bars, or (size_t)-1 when out of memory.
 */
size_t hl_balance_bars(const hl_config *cfg, const hl_balance_run run[2], hl_balance_bar **out);

/*
 * hl_balance_png -- write balance.dat, balance.gp and balance.png into
 * dir from the per-rank times of both runs.  Returns 0 (msg: where the
 * PNG is), 1 when there is nothing to draw or gnuplot is missing, -1 when
 * it failed; msg says which, in one line for the user.
 */
int hl_balance_png(const char *dir, const hl_config *cfg, const hl_run *cyc, const hl_run *het,
                   char *msg, size_t len);

/* The gnuplot `set title` line of balance.png, in short lines (a line
 * longer than the picture is cut off on both sides). */
void hl_balance_gp_title(FILE *f, const hl_config *cfg);

/* compare's speedup per problem size (n may be a list): "sizes" =
 * [{n, cyclic, hetero, speedup}] in JSON, one line per size on f. */
#include <stdio.h>
#include "util/json.h"
/* Whether two runs' times are on the same clock (time_clock), and so
 * divide into a speedup. */
int hl_run_same_clock(const hl_run *a, const hl_run *b);
void hl_compare_sizes_json(jw *w, const hl_run *cyc, const hl_run *het);
void hl_compare_sizes_print(const hl_run *cyc, const hl_run *het, FILE *f);

#endif
