/*
 * pblas.c -- the PBLAS calls whose results steer ScaLAPACK's control flow,
 * under emulate: {compute: skip}.
 *
 * Why: under compute: skip the matrices hold whatever the folded pages
 * hold (fold.c: many blocks share them, and a send from folded memory
 * carries the sender's pages as they are when MPI reads them), so a value
 * that decides how much work follows makes the run's virtual time depend
 * on the real-time order of the ranks' writes.  PDLARFG takes the unit
 * matrix (tau = 0) for a column whose norm is 0, and PDLARF then skips
 * the reflector's DGEMV, DGSUM2D and DGER (pdlarf.f: TAULOC.NE.ZERO): QR
 * of 7 ranks, n = 2454, nb = 85 gave 3.407753, 3.407762 and 3.407764 s
 * on three runs (soak seed 1, case 11), 3.412108 s every time with the
 * BLAS run.  A real matrix of a factorization has no zero column below
 * the diagonal (the model and a run with compute: run apply every
 * reflector), so under skip a zero norm reads as 1: every reflector is
 * applied, as on the user's matrix.  PDNRM2 runs as it is (its messages
 * are the run's); only its result is changed, and only when it is 0.
 * pdlarfg_ calls pdnrm2_ through the PLT (libscalapack's JUMP_SLOT
 * relocation), so the preload sees it.
 *
 * PDAMAX picks LU's pivots (pdgetf2.f): its index decides whether PDSWAP
 * and PDLASWP exchange rows between process rows, and a zero maximum
 * skips the swap.  Under skip IDAMAX reads the folded pages, so the
 * pivots, and with them the messages of a grid with P > 1, followed the
 * ranks' real-time order: a 1 x 6-machine 2D LU of 36 ranks (soak seed
 * 1, case 49) once gave 11.003277 s, then 11.003332 s.  PDAMAX runs as it
 * is (its 1-tree combine and broadcast do not depend on the values,
 * pdamax_.c with the default topology), then every caller in the
 * vector's scope is given the same pivot: a nonzero maximum at a row
 * drawn from a hash of the call's arguments, uniform over the rows left,
 * as the planner's model expects of a random matrix (doc/design/
 * predictions.md, the pivots across process rows).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "bindings.h"

typedef void pdnrm2_fn(const int *, double *, const double *, const int *, const int *,
                       const int *, const int *);
void pdnrm2_(const int *n, double *norm2, const double *x, const int *ix, const int *jx,
             const int *descx, const int *incx);
void pdnrm2_(const int *n, double *norm2, const double *x, const int *ix, const int *jx,
             const int *descx, const int *incx)
{
	static pdnrm2_fn *f;
	if (f == NULL) {
		void *sym = dlsym(RTLD_NEXT, "pdnrm2_");
		memcpy(&f, &sym, sizeof f);
	}
	f(n, norm2, x, ix, jx, descx, incx);
	if (vr_skip_compute() && *norm2 == 0.0)
		*norm2 = 1.0;
}

/* splitmix64's finalizer: a well-mixed 64-bit value of the call's place */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The global index, among the n entries from (ix, jx) along the vector,
 * that stands for the pivot of a random matrix: the same on every rank,
 * every run. */
static int pivot_of_place(int n, int ix, int jx, int along_rows)
{
	uint64_t key = ((uint64_t)(uint32_t)ix << 32) ^ (uint32_t)jx;
	int first = along_rows ? jx : ix;
	return first + (int)(mix64(key ^ ((uint64_t)(uint32_t)n << 17)) % (uint64_t)n);
}

typedef void pdamax_fn(const int *, double *, int *, const double *, const int *, const int *,
                       const int *, const int *);
void pdamax_(const int *n, double *amax, int *indx, const double *x, const int *ix,
             const int *jx, const int *descx, const int *incx);
void pdamax_(const int *n, double *amax, int *indx, const double *x, const int *ix,
             const int *jx, const int *descx, const int *incx)
{
	static pdamax_fn *f;
	if (f == NULL) {
		void *sym = dlsym(RTLD_NEXT, "pdamax_");
		memcpy(&f, &sym, sizeof f);
	}
	f(n, amax, indx, x, ix, jx, descx, incx);
	if (!vr_skip_compute() || *n <= 0)
		return;
	/* INCX = M_ (descx[2]) is a row vector, along the columns */
	*amax = 1.0;
	*indx = pivot_of_place(*n, *ix, *jx, *incx == descx[2] && *incx != 1);
}
