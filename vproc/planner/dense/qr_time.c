/*
 * qr_time.c -- see qr_time.h.
 */
#include "qr_time.h"
#include "vsim.h"

/* PDGEQR2 on process column qk: the panel of kb columns from global row
 * and column lo. */
static void qr_panel(vproc_vsim *s, size_t lo, size_t kb, size_t qk)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q, n = pl->n, b = pl->b;
	for (size_t j = 0; j < kb; j++) {
		size_t rest = kb - j - 1, pj = ((lo + j) / b) % P;
		/* PDLARFG: the norm (a sum down the column) and beta back */
		vproc_vsim_reduce(s, qk, Q, P, pj, 8.0);
		vproc_vsim_bcast(s, qk, Q, P, pj, 8.0);
		if (rest == 0)
			continue;
		/* PDLARF: w = A^T v (DGEMV), summed down the column, A -= v w^T */
		for (size_t p = 0; p < P; p++)
			vproc_vsim_compute(s, p * Q + qk,
			                   2.0 * (double)vproc_cyclic_owned_from(lo + j, n, b, p, P) *
			                   (double)rest);
		vproc_vsim_reduce(s, qk, Q, P, pj, 8.0 * (double)rest);
		vproc_vsim_bcast(s, qk, Q, P, pj, 8.0 * (double)rest);
		for (size_t p = 0; p < P; p++)
			vproc_vsim_compute(s, p * Q + qk,
			                   2.0 * (double)vproc_cyclic_owned_from(lo + j, n, b, p, P) *
			                   (double)rest);
	}
}

/* PDLARFT and PDLARFB (PDGEQRF calls both only when columns remain):
 * form T, then apply the block reflector of the panel at lo (kb columns,
 * on process column qk, T on process row pk) to the columns from lo + kb. */
static void qr_update(vproc_vsim *s, size_t lo, size_t kb, size_t pk, size_t qk)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q, n = pl->n, b = pl->b, lo2 = lo + kb;
	double k = (double)kb;
	/* PDLARFT: V^T V by DGEMVs, one sum of T down the column */
	for (size_t p = 0; p < P; p++)
		vproc_vsim_compute(s, p * Q + qk,
		                   (double)vproc_cyclic_owned_from(lo, n, b, p, P) * k * k);
	vproc_vsim_reduce(s, qk, Q, P, pk, 8.0 * k * k);
	/* V along every process row, and T right behind it along row pk: each
	 * process forwards V, then T, before it updates (booking all of V's
	 * ring before T's would queue T behind every hop of V on a bus) */
	for (size_t p = 0; p < P; p++) {
		double v = 8.0 * (double)vproc_cyclic_owned_from(lo, n, b, p, P) * k;
		for (size_t h = 0; h + 1 < Q; h++) {
			size_t from = p * Q + (qk + h) % Q, to = p * Q + (qk + h + 1) % Q;
			vproc_vsim_message(s, from, to, v);
			if (p == pk)
				vproc_vsim_message(s, from, to, 8.0 * k * k);
		}
	}
	for (size_t q = 0; q < Q; q++) {
		double cols = (double)vproc_cyclic_owned_from(lo2, n, b, q, Q);
		if (cols == 0)
			continue;
		for (size_t p = 0; p < P; p++)   /* W = C^T V */
			vproc_vsim_compute(s, p * Q + q,
			                   2.0 * (double)vproc_cyclic_owned_from(lo, n, b, p, P) * cols * k);
		vproc_vsim_reduce(s, q, Q, P, pk, 8.0 * cols * k);
		vproc_vsim_compute(s, pk * Q + q, cols * k * k);   /* W T */
		vproc_vsim_bcast(s, q, Q, P, pk, 8.0 * cols * k);
		for (size_t p = 0; p < P; p++)   /* C -= V W^T */
			vproc_vsim_compute(s, p * Q + q,
			                   2.0 * (double)vproc_cyclic_owned_from(lo, n, b, p, P) * cols * k);
	}
}

/* Step k: the panel, then (when columns remain) T and the update. */
static void qr_step(vproc_vsim *s, size_t k, size_t lo, size_t kb)
{
	qr_panel(s, lo, kb, k % s->pl->Q);
	if (lo + kb < s->pl->n)
		qr_update(s, lo, kb, k % s->pl->P, k % s->pl->Q);
}

vproc_status vproc_qr_time(const vproc_lu_platform *pl, vproc_lu_seconds *out)
{
	return vproc_vsim_run(pl, qr_step, out);
}
