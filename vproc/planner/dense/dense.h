/*
 * dense.h -- what hetlaunch's ScaLAPACK driver (launcher/programs/driver.c)
 * allocates, so that the planner can show it and refuse a plan
 * that does not fit, and the driver prints the same figure before it
 * allocates.  Pure (vproc rules): no I/O, no MPI.
 */
#ifndef VPROC_DENSE_H
#define VPROC_DENSE_H

#include <stddef.h>

#include "planner/planner.h"

typedef enum {
	VPROC_DENSE_LU,     /* PDGETRF + PDGETRS */
	VPROC_DENSE_QR,     /* PDGEQRF (+ PDORMQR, PDTRSM for the check) */
	VPROC_DENSE_CHOL,   /* PDPOTRF + PDPOTRS */
	VPROC_DENSE_MM      /* PDGEMM */
} vproc_dense_kernel;

/* The driver's local arrays on process (prow, pcol) of an nprow x npcol
 * grid, CYCLIC(nb) both ways, source process (0, 0). */
typedef struct {
	size_t mp, nq;      /* local rows and columns of an n x n matrix (NUMROC) */
	size_t lld;         /* leading dimension: max(1, mp) */
	size_t matrices;    /* n x n operands: 1 (lu, qr, chol) or 3 (mm) */
	size_t vectors;     /* n x 1 operands, mp doubles each */
	size_t work;        /* doubles of workspace (PDLANGE, PDGEQRF, PDORMQR) */
	size_t ipiv;        /* INTEGERs of pivots (lu: mp + nb) */
	size_t bytes;       /* all of it */
} vproc_dense_local;

/*
 * vproc_dense_layout -- the arrays above.
 *   k             [in]  the kernel
 *   n, nb         [in]  order and block size, >= 1
 *   nprow, npcol  [in]  the grid, >= 1
 *   prow, pcol    [in]  the process, < nprow, < npcol
 *   out           [out]
 * VPROC_EINVAL on a bad argument, VPROC_ERANGE if the bytes overflow.
 */
vproc_status vproc_dense_layout(vproc_dense_kernel k, size_t n, size_t nb, size_t nprow,
                                size_t npcol, size_t prow, size_t pcol, vproc_dense_local *out);

/* The bytes of process (0, 0), which holds the most (NUMROC gives the
 * extra blocks to the first processes): what every process must be able
 * to allocate.  0 on a bad argument or overflow. */
/* ScaLAPACK's NUMROC with source process 0: how many of n rows (columns)
 * in blocks of nb process iproc of nprocs holds; in size_t for bytes. */
size_t vproc_numroc(size_t n, size_t nb, size_t iproc, size_t nprocs);
size_t vproc_dense_bytes(vproc_dense_kernel k, size_t n, size_t nb, size_t nprow, size_t npcol);

#endif
