/*
 * sched_static.c -- the round-robin schedulers of paper 003: HoLM (s5.1,
 * Alg 1: P workers chosen by s5.1's resource selection) and ORROML (s6.2:
 * the same on all p workers).
 *
 * Alg 1: for each group of P tile columns, for each tile row, a round:
 * send a C tile to each of the P workers, then for k = 1..t to each worker
 * in turn its B_kj then its A_ik, then take the C tiles back.  The paper
 * assumes P mu | s; when it does not, the last group is narrower and leaves
 * workers idle (notes s6.2), unless VPROC_MW_RAGGED_FILL lets a round take
 * the next P tiles of that order wherever they lie.
 */
#include "planner/internal.h"
#include "sim.h"

/* The P workers of HoLM, in the order they are served: 0..P-1 for
 * identical workers, the enrolment order of enrol.c otherwise (C traffic
 * ignored, as s5.1 does, so that identical workers give s5.1's P). */
static vproc_status choose(const mw_engine *e, vproc_mw_sched s, size_t *who, size_t *P)
{
	const vproc_mw_problem *pb = e->pb;
	size_t p = pb->p;
	int hetero = pb->ci || pb->wi || pb->mi;
	for (size_t x = 0; x < p; x++)
		who[x] = x;
	if (s == VPROC_MW_ORROML) {
		*P = p;
		return VPROC_OK;
	}
	if (!hetero) {
		*P = pb->P ? pb->P : vproc_mw_holm_workers(p, e->mu, pb->c, pb->w);
		return VPROC_OK;
	}
	double *c = vproc_calloc(3 * p, sizeof *c), rate;
	size_t *m = vproc_calloc(p, sizeof *m), n;
	vproc_status st = (c && m) ? VPROC_OK : VPROC_ENOMEM;
	for (size_t x = 0; st == VPROC_OK && x < p; x++) {
		c[x] = e->wk[x].c;
		c[p + x] = e->wk[x].w;
		m[x] = pb->mi ? pb->mi[x] : pb->m;
	}
	if (st == VPROC_OK)
		st = vproc_mw_enrol(p, c, c + p, m, 0, who, c + 2 * p, &n, &rate);
	if (st == VPROC_OK)
		*P = pb->P ? pb->P : n;
	free(c);
	free(m);
	return st;
}

/* One round: tiles[0..n-1] on workers who[0..n-1]. */
static vproc_status round_robin(mw_engine *e, const size_t *who, const mw_tile_t *tiles, size_t n)
{
	vproc_status st = VPROC_OK;
	for (size_t x = 0; x < n && st == VPROC_OK; x++) {
		e->wk[who[x]].tile = tiles[x];
		st = mw_do(e, who[x], VPROC_MW_OP_CIN);
	}
	for (size_t k = 0; k < e->nsteps; k++)
		for (size_t x = 0; x < n && st == VPROC_OK; x++)
			st = mw_do(e, who[x], VPROC_MW_OP_STEP);
	for (size_t x = 0; x < n && st == VPROC_OK; x++)
		st = mw_do(e, who[x], VPROC_MW_OP_COUT);
	return st;
}

/* Alg 1's tile order, cut into rounds: at each (group, tile row) without
 * the fill, every P tiles with it. */
static vproc_status rounds(mw_engine *e, const size_t *who, size_t P, mw_tile_t *buf)
{
	int fill = (e->pb->flags & VPROC_MW_RAGGED_FILL) != 0;
	vproc_status st = VPROC_OK;
	size_t n = 0;
	for (size_t g = 0; g < e->ntc && st == VPROC_OK; g += P) {
		for (size_t I = 0; I < e->ntr && st == VPROC_OK; I++) {
			for (size_t J = g; J < g + P && J < e->ntc && st == VPROC_OK; J++) {
				mw_tile(e, I, J, &buf[n++]);
				if (n == P) {
					st = round_robin(e, who, buf, n);
					n = 0;
				}
			}
			if (!fill && n > 0 && st == VPROC_OK) {
				st = round_robin(e, who, buf, n);
				n = 0;
			}
		}
	}
	if (st == VPROC_OK && n > 0)
		st = round_robin(e, who, buf, n);
	return st;
}

vproc_status mw_run_static(mw_engine *e, vproc_mw_sched s)
{
	size_t *who = vproc_calloc(e->pb->p, sizeof *who), P = 0;
	mw_tile_t *buf = vproc_calloc(e->pb->p, sizeof *buf);
	vproc_status st = (who && buf) ? VPROC_OK : VPROC_ENOMEM;
	if (st == VPROC_OK)
		st = choose(e, s, who, &P);
	if (st == VPROC_OK && P == 0)
		st = VPROC_EINVAL;
	e->enrolled = P;
	if (st == VPROC_OK)
		st = rounds(e, who, P, buf);
	free(who);
	free(buf);
	return st;
}
