/*
 * mm_time.c -- see mm_time.h.
 */
#include "mm_time.h"
#include "vsim.h"

/* Step k of the outer product. */
static void mm_step(vproc_vsim *sim, size_t k, size_t lo, size_t kbs)
{
	const vproc_lu_platform *pl = sim->pl;
	size_t P = pl->P, Q = pl->Q, n = pl->n, b = pl->b;
	double kb = (double)kbs;
	(void)lo;
	/* 000 s4.1.1: the column block of A along each process row, from
	 * process column k mod Q; the row block of B down each process
	 * column, from process row k mod P (rings, PDGEMM's topologies).
	 * The rings advance together, hop by hop: booking every hop of
	 * A's rings before B's would queue B behind all of them on a bus
	 * (Table 3's hetero 6 x 3 at n = 3000: 0.90 of the measured time
	 * instead of 0.98). */
	for (size_t h = 0; h + 1 < (P > Q ? P : Q); h++) {
		for (size_t p = 0; p < P && h + 1 < Q; p++)
			vproc_vsim_message(sim, p * Q + (k + h) % Q, p * Q + (k + h + 1) % Q,
			                   8.0 * (double)vproc_cyclic_owned_from(0, n, b, p, P) * kb);
		for (size_t q = 0; q < Q && h + 1 < P; q++)
			vproc_vsim_message(sim, ((k + h) % P) * Q + q, ((k + h + 1) % P) * Q + q,
			                   8.0 * kb * (double)vproc_cyclic_owned_from(0, n, b, q, Q));
	}
	/* the update: 2 rows x cols x kb flops on each process */
	for (size_t p = 0; p < P; p++)
		for (size_t q = 0; q < Q; q++)
			vproc_vsim_compute(sim, p * Q + q,
			                   2.0 * (double)vproc_cyclic_owned_from(0, n, b, p, P) *
			                   (double)vproc_cyclic_owned_from(0, n, b, q, Q) * kb);
}

vproc_status vproc_mm_time(const vproc_lu_platform *pl, vproc_lu_seconds *out)
{
	return vproc_vsim_run(pl, mm_step, out);
}
