/*
 * memory.c -- the driver's local arrays (dense.h).  The sizes follow the
 * ScaLAPACK argument rules (ScaLAPACK Users' Guide, NUMROC and the LWORK
 * of each routine), the layout of paper 000 s2 (CYCLIC(nb) on a 2D grid,
 * every process holding NUMROC(n) x NUMROC(n) of each matrix).
 */
#include "dense.h"

#include <stdint.h>

size_t vproc_numroc(size_t n, size_t nb, size_t iproc, size_t nprocs)
{
	size_t nblocks = n / nb;
	size_t r = nblocks / nprocs * nb;
	size_t extra = nblocks % nprocs;
	if (iproc < extra)
		r += nb;
	else if (iproc == extra)
		r += n % nb;
	return r;
}

static size_t zmax(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* a * b + c with overflow to SIZE_MAX. */
static size_t muladd(size_t a, size_t b, size_t c)
{
	if (b && a > (SIZE_MAX - c) / b)
		return SIZE_MAX;
	return a * b + c;
}

vproc_status vproc_dense_layout(vproc_dense_kernel k, size_t n, size_t nb, size_t nprow,
                                size_t npcol, size_t prow, size_t pcol, vproc_dense_local *out)
{
	if (!out || n == 0 || nb == 0 || nprow == 0 || npcol == 0 || prow >= nprow ||
	    pcol >= npcol || k > VPROC_DENSE_MM)
		return VPROC_EINVAL;
	vproc_dense_local l = { 0 };
	l.mp = vproc_numroc(n, nb, prow, nprow);
	l.nq = vproc_numroc(n, nb, pcol, npcol);
	l.lld = zmax(1, l.mp);
	/* PDLANGE('I') needs Mp0 doubles: every kernel checks with it. */
	size_t lange = l.mp + nb;
	switch (k) {
	case VPROC_DENSE_LU:     /* A; b -> x, b again -> r */
		l.matrices = 1, l.vectors = 2, l.work = lange, l.ipiv = l.mp + nb;
		break;
	case VPROC_DENSE_CHOL:
		l.matrices = 1, l.vectors = 2, l.work = lange;
		break;
	case VPROC_DENSE_QR:     /* A, tau; PDGEQRF: NB (Mp0 + Nq0 + NB);
		                  * PDORMQR on an n x 1 C: (Mp0 + 1) NB + NB^2 */
		l.matrices = 1, l.vectors = 2;
		l.work = l.nq + zmax(zmax(nb * (l.mp + l.nq + nb), (l.mp + 1) * nb + nb * nb), lange);
		break;
	case VPROC_DENSE_MM:     /* A, B, C; x, B x, C x, A (B x) */
		l.matrices = 3, l.vectors = 4, l.work = lange;
		break;
	}
	size_t doubles = muladd(l.matrices, muladd(l.lld, l.nq, 0), 0);
	doubles = muladd(l.vectors, l.lld, doubles);
	doubles = muladd(1, l.work, doubles);
	size_t bytes = muladd(doubles, sizeof(double), 0);
	bytes = muladd(l.ipiv, sizeof(int), bytes);
	if (doubles == SIZE_MAX || bytes == SIZE_MAX)
		return VPROC_ERANGE;
	l.bytes = bytes;
	*out = l;
	return VPROC_OK;
}

size_t vproc_dense_bytes(vproc_dense_kernel k, size_t n, size_t nb, size_t nprow, size_t npcol)
{
	vproc_dense_local l;
	return vproc_dense_layout(k, n, nb, nprow, npcol, 0, 0, &l) == VPROC_OK ? l.bytes : 0;
}
