/*
 * qr_time.c -- see qr_time.h.
 */
#include "qr_time.h"
#include "vsim.h"

static size_t rows_from(const vproc_lu_platform *pl, size_t lo, size_t p)
{
	return vproc_cyclic_owned_from(lo, pl->n, pl->b, p, pl->P);
}

/* PDGEQR2 on process column qk: the panel of kb columns from global row
 * and column lo, on process row pk, column by column with the column's
 * messages booked (on a bus they queue behind the other columns'
 * updates): PDLARFG's alpha from the diagonal's row (DGEBS2D 'Columnwise'
 * ' ': MPI_Bcast); PDNRM2's 1-tree of (scale, ssq) to process row 0 and
 * row 0's broadcast of them (pdnrm2_.c, as pdamax_.c); then, but for the
 * panel's last column, PDLARF: w = C^T v (DGEMV), summed down the column
 * (DGSUM2D 'Columnwise' ' ' with RDEST -1: MPI_Allreduce, which the
 * runtime sends to row 0 and back; in the last block row, whose rows are
 * all on row pk, RDEST is pk: MPI_Reduce), C -= tau v w^T (DGER). */
static void qr_panel(vproc_vsim *s, size_t lo, size_t kb, size_t pk, size_t qk)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q;
	int last = lo + pl->b >= pl->n;
	for (size_t j = 0; j < kb; j++) {
		double rest = (double)(kb - j - 1);
		vproc_vsim_bcast(s, qk, Q, P, pk, 8.0);
		vproc_vsim_tree(s, qk, Q, P, 16.0);
		vproc_vsim_bcast(s, qk, Q, P, 0, 16.0);
		if (rest == 0)
			continue;
		for (size_t p = 0; p < P; p++)
			vproc_vsim_compute(s, p * Q + qk, 2.0 * (double)rows_from(pl, lo + j, p) * rest);
		if (last)
			vproc_vsim_reduce(s, qk, Q, P, pk, 8.0 * rest);
		else
			vproc_vsim_allreduce(s, qk, Q, P, 8.0 * rest);
		for (size_t p = 0; p < P; p++)
			vproc_vsim_compute(s, p * Q + qk, 2.0 * (double)rows_from(pl, lo + j, p) * rest);
	}
}

/* PDLARFT (forward, columnwise) of the panel at lo on process column qk:
 * V^T V by DGEMVs, its k (k - 1) / 2 words summed down the column to T's
 * row pk (DGSUM2D 'Columnwise' ' ': MPI_Reduce), T built there by k - 1
 * DTRMVs of order i (i^2 flops each). */
static void qr_larft(vproc_vsim *s, size_t lo, size_t kb, size_t pk, size_t qk)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q;
	double k = (double)kb;
	for (size_t p = 0; p < P; p++)
		vproc_vsim_compute(s, p * Q + qk, (double)rows_from(pl, lo, p) * k * (k - 1.0));
	vproc_vsim_reduce(s, qk, Q, P, pk, 4.0 * k * (k - 1.0));
	vproc_vsim_compute(s, pk * Q + qk, (k - 1.0) * k * (2.0 * k - 1.0) / 6.0);
}

/* PDLARFB's broadcasts along the process rows: V along every row by the
 * increasing ring (PDGEQRF sets 'I-ring' rowwise), and T's triangle,
 * k (k + 1) / 2 words (DTRBS2D sends the triangle alone), right behind
 * it along row pk: each process forwards V, then T, before it updates
 * (booking all of V's ring before T's would queue T behind every hop of
 * V on a bus). */
static void qr_rings(vproc_vsim *s, size_t lo, size_t kb, size_t pk, size_t qk)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q;
	double k = (double)kb;
	for (size_t p = 0; p < P; p++) {
		double v = 8.0 * (double)rows_from(pl, lo, p) * k;
		for (size_t h = 0; h + 1 < Q; h++) {
			size_t from = p * Q + (qk + h) % Q, to = p * Q + (qk + h + 1) % Q;
			vproc_vsim_message(s, from, to, v);
			if (p == pk)
				vproc_vsim_message(s, from, to, 4.0 * k * (k + 1.0));
		}
	}
}

/* PDLARFB on process column q's columns from lo2: W = C^T V (DGEMM),
 * summed down the column to T's row pk (DGSUM2D 'Columnwise' ' ':
 * MPI_Reduce), times T there (DTRMM), back down the column (' ':
 * MPI_Bcast), C -= V W^T (DGEMM). */
static void qr_larfb(vproc_vsim *s, size_t lo, size_t kb, size_t pk, size_t q)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q;
	double k = (double)kb, cols = (double)vproc_cyclic_owned_from(lo + kb, pl->n, pl->b, q, Q);
	if (cols == 0)
		return;
	for (size_t p = 0; p < P; p++)
		vproc_vsim_compute(s, p * Q + q, 2.0 * (double)rows_from(pl, lo, p) * cols * k);
	vproc_vsim_reduce(s, q, Q, P, pk, 8.0 * cols * k);
	vproc_vsim_compute(s, pk * Q + q, cols * k * k);
	vproc_vsim_bcast(s, q, Q, P, pk, 8.0 * cols * k);
	for (size_t p = 0; p < P; p++)
		vproc_vsim_compute(s, p * Q + q, 2.0 * (double)rows_from(pl, lo, p) * cols * k);
}

/* T, then the block reflector of the panel at lo (kb columns, on process
 * column qk, T on process row pk) applied to the columns from lo + kb
 * (PDGEQRF calls PDLARFT and PDLARFB only when columns remain). */
static void qr_update(vproc_vsim *s, size_t lo, size_t kb, size_t pk, size_t qk)
{
	qr_larft(s, lo, kb, pk, qk);
	qr_rings(s, lo, kb, pk, qk);
	for (size_t q = 0; q < s->pl->Q; q++)
		qr_larfb(s, lo, kb, pk, q);
}

/* Step k: the panel, then (when columns remain) T and the update. */
static void qr_step(vproc_vsim *s, size_t k, size_t lo, size_t kb)
{
	qr_panel(s, lo, kb, k % s->pl->P, k % s->pl->Q);
	if (lo + kb < s->pl->n)
		qr_update(s, lo, kb, k % s->pl->P, k % s->pl->Q);
}

/* hl-driver's timed region before the steps: the barrier lets the ranks
 * go, then PDGEQRF's PCHK1MAT (GLOBCHK). */
static void qr_begin(vproc_vsim *s)
{
	vproc_vsim_timer_start(s);
	vproc_vsim_globchk(s);
}

vproc_status vproc_qr_time(const vproc_lu_platform *pl, vproc_lu_seconds *out)
{
	return vproc_vsim_play(pl, qr_begin, qr_step, vproc_vsim_timer_stop, out);
}
