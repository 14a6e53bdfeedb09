/* sim.h -- the block-model engine shared by the schedulers of simulate.c,
 * sched_static.c and sched_dynamic.c.  Internal to libvproc. */
#ifndef VPROC_MW_SIM_H
#define VPROC_MW_SIM_H

#include "mw.h"

typedef struct {
	size_t i0, a, j0, b;
} mw_tile_t;

typedef struct {
	double c, w;        /* this worker's transfer and update times */
	mw_tile_t tile;     /* its current tile, when has_tile */
	int has_tile, used;
	size_t step;        /* steps of the tile sent so far */
	double busy;        /* end of its last update */
	double done[2];     /* when step k was computed, at [k % 2] */
	double cout_end;    /* end of its last C-out */
} mw_worker;

typedef struct {
	const vproc_mw_problem *pb;
	vproc_mw_trace *trace;
	size_t mu, sets, kw;  /* tile side, A/B sets, inner width of a step */
	int one_call;         /* a step is one BLAS call (BMM, OBMM) */
	size_t ntr, ntc;      /* tile rows and columns */
	size_t nsteps;        /* steps per tile */
	size_t next_tile;     /* dynamic schedulers: column-major cursor */
	mw_worker *wk;
	double port, makespan, port_busy;
	size_t moved, updates;
	size_t enrolled;      /* HoLM's P; p for the others */
} mw_engine;

void mw_tile(const mw_engine *e, size_t I, size_t J, mw_tile_t *tl);
double mw_ready(const mw_engine *e, size_t x, vproc_mw_opkind kind);
vproc_status mw_do(mw_engine *e, size_t x, vproc_mw_opkind kind);

vproc_status mw_run_static(mw_engine *e, vproc_mw_sched s);
vproc_status mw_run_minmin(mw_engine *e);
vproc_status mw_run_demand(mw_engine *e);

#endif
