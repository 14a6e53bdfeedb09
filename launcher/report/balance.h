/*
 * balance.h -- compare's balance.png: per machine, compute
 * against waiting, the cyclic run beside the plan, drawn by gnuplot.
 */
#ifndef HL_BALANCE_H
#define HL_BALANCE_H

#include <stddef.h>

#include "run.h"

/*
 * hl_balance_png -- write balance.dat, balance.gp and balance.png into
 * dir from the per-rank times of both runs.  Returns 0 (msg: where the
 * PNG is), 1 when there is nothing to draw or gnuplot is missing, -1 when
 * it failed; msg says which, in one line for the user.
 */
int hl_balance_png(const char *dir, const hl_config *cfg, const hl_run *cyc, const hl_run *het,
                   char *msg, size_t len);

/* compare's speedup per problem size (n may be a list): "sizes" =
 * [{n, cyclic, hetero, speedup}] in JSON, one line per size on f. */
#include <stdio.h>
#include "json.h"
void hl_compare_sizes_json(jw *w, const hl_run *cyc, const hl_run *het);
void hl_compare_sizes_print(const hl_run *cyc, const hl_run *het, FILE *f);

#endif
