/* toy.h -- state of the s3 toy model shared by toy.c, thrifty.c and
 * toy_exact.c.  Internal to libvproc. */
#ifndef VPROC_MW_TOY_H
#define VPROC_MW_TOY_H

#include "mw.h"

typedef struct {
	const vproc_mw_toy *in;
	size_t nf;       /* files: A_i is i, B_j is r + j */
	double port;     /* when the master's port is next free */
	double *arr;     /* arrival of file f on worker k at [k nf + f]; inf = not sent */
	size_t *owner;   /* worker of task (i, j) at [i s + j]; p = unassigned */
	double *X;       /* end of each worker's queue */
} mw_toy_state;

#define ARR(z, k, f) ((z)->arr[(k) * (z)->nf + (f)])

vproc_status mw_toy_check(const vproc_mw_toy *in, double *out);
vproc_status mw_toy_init(mw_toy_state *z, const vproc_mw_toy *in);
void mw_toy_free(mw_toy_state *z);
void mw_toy_send(mw_toy_state *z, size_t k, size_t f);
void mw_toy_run(mw_toy_state *z, size_t k, size_t i, size_t j);
double mw_toy_makespan(const mw_toy_state *z);

#endif
