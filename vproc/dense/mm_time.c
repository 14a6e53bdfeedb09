/*
 * mm_time.c -- see mm_time.h.
 */
#include <math.h>
#include <stdlib.h>

#include "../vclock.h"
#include "mm_time.h"

#define MM_CAL_CAP 1024   /* intervals per calendar; the past is forgotten every step */

typedef struct {
	const vproc_lu_platform *pl;
	unsigned long long *clock;   /* [P*Q] each process's virtual clock, ns */
	vproc_calendar *cpu;         /* [nmachines] processors */
	vproc_calendar *wire;        /* [nmachines] ports, or [1] the bus */
} mm_sim;

/* One message of `bytes` from process s to process r: free inside a
 * machine (the runtime delivers it at the sender's clock); between
 * machines the sender's port or the bus is booked from the sender's clock,
 * the sender is held until the bytes are out, and the receiver's clock
 * moves to the arrival (vproc_vclock_message, as the emulation does). */
static void mm_message(mm_sim *sim, size_t s, size_t r, double bytes)
{
	const vproc_lu_platform *pl = sim->pl;
	size_t ms = pl->machine[s], mr = pl->machine[r];
	unsigned long long arrival = sim->clock[s];
	if (ms != mr && bytes > 0) {
		double lat = pl->bus ? pl->bus_latency_s : pl->latency_s ? pl->latency_s[ms] : 0;
		double bw = pl->bus ? pl->bus_bytes_per_s : pl->bytes_per_s ? pl->bytes_per_s[ms] : 0;
		vproc_calendar *cal = pl->bus ? &sim->wire[0] : &sim->wire[ms];
		arrival = vproc_vclock_message(cal, sim->clock[s], (unsigned long long)llround(lat * 1e9),
		                               bw, (unsigned long long)llround(bytes), &sim->clock[s]);
	}
	sim->clock[r] = vproc_vclock_receive(sim->clock[r], arrival);
}

/* A ring broadcast over `count` processes first + i * stride (i = 0 ..
 * count-1), from the one at index root, `bytes` per hop: each process
 * forwards to the next once it has the data (its clock). */
static void mm_ring(mm_sim *sim, size_t first, size_t stride, size_t count, size_t root,
                    double bytes)
{
	for (size_t h = 0; h + 1 < count; h++)
		mm_message(sim, first + ((root + h) % count) * stride,
		           first + ((root + h + 1) % count) * stride, bytes);
}

/* Step k's updates: process (p, q) multiplies its rows x kb block of A by
 * the kb x cols block of B, 2 rows cols kb flops on its machine's
 * processor.  Returns the flops per machine in work[]. */
static void mm_update(mm_sim *sim, size_t kb, double *work)
{
	const vproc_lu_platform *pl = sim->pl;
	for (size_t p = 0; p < pl->P; p++)
		for (size_t q = 0; q < pl->Q; q++) {
			size_t i = p * pl->Q + q, m = pl->machine[i];
			double f = 2.0 * (double)vproc_cyclic_owned_from(0, pl->n, pl->b, p, pl->P) *
			           (double)vproc_cyclic_owned_from(0, pl->n, pl->b, q, pl->Q) * (double)kb;
			work[m] += f;
			double ns = f / (pl->mflops[m] * 1e6) * 1e9;
			sim->clock[i] = vproc_cal_compute(&sim->cpu[m], sim->clock[i],
			                                  (unsigned long long)llround(ns));
		}
}

/* No booking is earlier than the earliest clock: forget what ends before. */
static void mm_forget(mm_sim *sim, size_t nproc, size_t ncal)
{
	unsigned long long t = sim->clock[0];
	for (size_t i = 1; i < nproc; i++)
		if (sim->clock[i] < t)
			t = sim->clock[i];
	for (size_t m = 0; m < ncal; m++) {
		vproc_cal_forget(&sim->cpu[m], t);
		vproc_cal_forget(&sim->wire[m], t);
	}
}

vproc_status vproc_mm_time(const vproc_lu_platform *pl, vproc_lu_seconds *out)
{
	if (out == NULL || vproc_lu_platform_check(pl) != VPROC_OK)
		return VPROC_EINVAL;
	size_t P = pl->P, Q = pl->Q, n = pl->n, b = pl->b, nm = pl->nmachines, np = P * Q;
	mm_sim sim = { pl, calloc(np, sizeof *sim.clock), calloc(2 * nm, sizeof *sim.cpu), NULL };
	vproc_interval *iv = calloc(2 * nm * MM_CAL_CAP, sizeof *iv);
	double *work = calloc(nm, sizeof *work);
	vproc_status st = VPROC_ENOMEM;
	if (sim.clock == NULL || sim.cpu == NULL || iv == NULL || work == NULL)
		goto done;
	sim.wire = sim.cpu + nm;
	for (size_t m = 0; m < 2 * nm; m++)
		sim.cpu[m] = (vproc_calendar){ 0, 0, iv + m * MM_CAL_CAP, MM_CAL_CAP };
	for (size_t k = 0; k * b < n; k++) {
		size_t kb = n - k * b < b ? n - k * b : b;
		/* 000 s4.1.1: the column block of A along each process row, from
		 * process column k mod Q; the row block of B down each process
		 * column, from process row k mod P */
		for (size_t p = 0; p < P; p++)
			mm_ring(&sim, p * Q, 1, Q, k % Q,
			        8.0 * (double)vproc_cyclic_owned_from(0, n, b, p, P) * (double)kb);
		for (size_t q = 0; q < Q; q++)
			mm_ring(&sim, q, Q, P, k % P,
			        8.0 * (double)kb * (double)vproc_cyclic_owned_from(0, n, b, q, Q));
		mm_update(&sim, kb, work);
		mm_forget(&sim, np, nm);
	}
	unsigned long long last = 0;
	for (size_t i = 0; i < np; i++)
		if (sim.clock[i] > last)
			last = sim.clock[i];
	double most = 0;
	for (size_t m = 0; m < nm; m++)
		if (work[m] / (pl->mflops[m] * 1e6) > most)
			most = work[m] / (pl->mflops[m] * 1e6);
	out->total = (double)last * 1e-9;
	out->compute = most;
	out->network = out->total - most;
	st = VPROC_OK;
done:
	free(sim.clock);
	free(sim.cpu);
	free(iv);
	free(work);
	return st;
}
