/*
 * vsim.c -- see vsim.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "vsim.h"

#define VSIM_CAL_CAP 1024   /* intervals per calendar; the past is forgotten every step */

vproc_status vproc_vsim_init(vproc_vsim *s, const vproc_lu_platform *pl)
{
	*s = (vproc_vsim){ 0 };
	if (vproc_lu_platform_check(pl) != VPROC_OK)
		return VPROC_EINVAL;
	size_t np = pl->P * pl->Q, nm = pl->nmachines;
	s->pl = pl;
	s->clock = calloc(np, sizeof *s->clock);
	s->cpu = calloc(2 * nm, sizeof *s->cpu);
	s->iv = calloc(2 * nm * VSIM_CAL_CAP, sizeof *s->iv);
	s->work = calloc(nm, sizeof *s->work);
	s->scratch = calloc(np + nm, sizeof *s->scratch);
	s->aux = calloc(np, sizeof *s->aux);
	if (!s->clock || !s->cpu || !s->iv || !s->work || !s->scratch || !s->aux) {
		vproc_vsim_free(s);
		return VPROC_ENOMEM;
	}
	s->wire = s->cpu + nm;
	for (size_t m = 0; m < 2 * nm; m++)
		s->cpu[m] = (vproc_calendar){ 0, 0, s->iv + m * VSIM_CAL_CAP, VSIM_CAL_CAP };
	return VPROC_OK;
}

void vproc_vsim_free(vproc_vsim *s)
{
	free(s->clock);
	free(s->cpu);
	free(s->iv);
	free(s->work);
	free(s->scratch);
	free(s->aux);
	*s = (vproc_vsim){ 0 };
}

double vproc_vsim_latency(const vproc_lu_platform *pl, size_t m)
{
	return pl->bus ? pl->bus_latency_s : pl->latency_s ? pl->latency_s[m] : 0;
}

unsigned long long vproc_vsim_send(vproc_vsim *s, size_t a, size_t b, double bytes)
{
	const vproc_lu_platform *pl = s->pl;
	size_t ma = pl->machine[a], mb = pl->machine[b];
	unsigned long long arrival = s->clock[a];
	if (ma != mb && bytes > 0) {
		double lat = vproc_vsim_latency(pl, ma);
		double bw = pl->bus ? pl->bus_bytes_per_s : pl->bytes_per_s ? pl->bytes_per_s[ma] : 0;
		vproc_calendar *cal = pl->bus ? &s->wire[0] : &s->wire[ma];
		arrival = vproc_vclock_message(cal, s->clock[a], (unsigned long long)llround(lat * 1e9),
		                               bw, (unsigned long long)llround(bytes), &s->clock[a]);
	}
	return arrival;
}

void vproc_vsim_message(vproc_vsim *s, size_t a, size_t b, double bytes)
{
	unsigned long long arrival = vproc_vsim_send(s, a, b, bytes);
	s->clock[b] = vproc_vclock_receive(s->clock[b], arrival);
}

void vproc_vsim_exchange(vproc_vsim *s, size_t a, size_t b, double bytes)
{
	unsigned long long b_sends = s->clock[b];
	vproc_vsim_message(s, a, b, bytes);
	unsigned long long b_got = s->clock[b];
	s->clock[b] = b_sends;
	vproc_vsim_message(s, b, a, bytes);
	s->clock[b] = b_got > s->clock[b] ? b_got : s->clock[b];
}

void vproc_vsim_ring(vproc_vsim *s, size_t first, size_t stride, size_t count, size_t root,
                     size_t step, double bytes)
{
	for (size_t d = 0; d + 1 < count; d++)
		vproc_vsim_message(s, first + (root + d * step) % count * stride,
		                   first + (root + (d + 1) * step) % count * stride, bytes);
}

/* Linear in count: lead_of marks the machines met (a search of lead[] made the 2D plays
 * of 4096 processors spend a tenth of their time here). */
size_t vproc_vsim_leaders(const vproc_vsim *s, size_t first, size_t stride, size_t count,
                          size_t root, size_t *lead, size_t *lead_of)
{
	const size_t *mach = s->pl->machine;
	size_t nl = 0;
	for (size_t h = 0; h < count; h++)
		lead_of[mach[first + h * stride]] = SIZE_MAX;
	for (size_t h = 0; h < count; h++) {
		size_t x = first + ((root + h) % count) * stride;
		if (lead_of[mach[x]] == SIZE_MAX) {
			lead_of[mach[x]] = x;
			lead[nl++] = x;
		}
	}
	return nl;
}

void vproc_vsim_bcast(vproc_vsim *s, size_t first, size_t stride, size_t count, size_t root,
                      double bytes)
{
	size_t *lead = s->scratch, *lead_of = s->scratch + s->pl->P * s->pl->Q;
	size_t nl = vproc_vsim_leaders(s, first, stride, count, root, lead, lead_of), top = 1;
	while (top < nl)
		top <<= 1;
	/* level by level from the widest: a leader has its copy before it
	 * sends, and sends to its children farthest first (coll.c's
	 * bcast_list, MPICH's binomial), each send holding its port */
	for (size_t mask = top >> 1; mask > 0; mask >>= 1)
		for (size_t i = 0; i + mask < nl; i += 2 * mask)
			vproc_vsim_message(s, lead[i], lead[i + mask], bytes);
	for (size_t h = 0; h < count; h++) {
		size_t x = first + h * stride, l = lead_of[s->pl->machine[x]];
		if (x != l)
			vproc_vsim_message(s, l, x, bytes);
	}
}

void vproc_vsim_reduce(vproc_vsim *s, size_t first, size_t stride, size_t count, size_t root,
                       double bytes)
{
	size_t *lead = s->scratch, *lead_of = s->scratch + s->pl->P * s->pl->Q;
	size_t nl = vproc_vsim_leaders(s, first, stride, count, root, lead, lead_of);
	for (size_t h = 0; h < count; h++) {
		size_t x = first + h * stride, l = lead_of[s->pl->machine[x]];
		if (x != l)
			vproc_vsim_message(s, x, l, bytes);
	}
	for (size_t i = nl; i-- > 1;)
		vproc_vsim_message(s, lead[i], lead[i & (i - 1)], bytes);
}

void vproc_vsim_allreduce(vproc_vsim *s, size_t first, size_t stride, size_t count, double bytes)
{
	vproc_vsim_reduce(s, first, stride, count, 0, bytes);
	vproc_vsim_bcast(s, first, stride, count, 0, bytes);
}

void vproc_vsim_globchk(vproc_vsim *s)
{
	size_t np = s->pl->P * s->pl->Q;
	vproc_vsim_bcast(s, 0, 1, np, 0, 4.0 * VPROC_VSIM_GLOBCHK_INTS);
	vproc_vsim_allreduce(s, 0, 1, np, 4.0);
}

void vproc_vsim_timer_start(vproc_vsim *s)
{
	vproc_vsim_bcast(s, 0, 1, s->pl->P * s->pl->Q, 0, VPROC_VSIM_EMPTY);
}

void vproc_vsim_timer_stop(vproc_vsim *s)
{
	vproc_vsim_reduce(s, 0, 1, s->pl->P * s->pl->Q, 0, VPROC_VSIM_EMPTY);
}

void vproc_vsim_tree(vproc_vsim *s, size_t first, size_t stride, size_t count, double bytes)
{
	for (size_t k = 1; k < count; k <<= 1)
		for (size_t r = k; r < count; r += 2 * k)
			vproc_vsim_message(s, first + r * stride, first + (r - k) * stride, bytes);
}

void vproc_vsim_compute(vproc_vsim *s, size_t i, double flops)
{
	size_t m = s->pl->machine[i];
	s->work[m] += flops;
	double ns = flops / (s->pl->mflops[m] * 1e6) * 1e9;
	s->clock[i] = vproc_cal_compute(&s->cpu[m], s->clock[i], (unsigned long long)llround(ns));
}

void vproc_vsim_forget(vproc_vsim *s)
{
	size_t np = s->pl->P * s->pl->Q;
	unsigned long long t = s->clock[0];
	for (size_t i = 1; i < np; i++)
		if (s->clock[i] < t)
			t = s->clock[i];
	for (size_t m = 0; m < 2 * s->pl->nmachines; m++)
		vproc_cal_forget(&s->cpu[m], t);
}

double vproc_vsim_last(const vproc_vsim *s)
{
	unsigned long long last = 0;
	for (size_t i = 0; i < s->pl->P * s->pl->Q; i++)
		if (s->clock[i] > last)
			last = s->clock[i];
	return (double)last * 1e-9;
}

double vproc_vsim_busiest(const vproc_vsim *s)
{
	double most = 0;
	for (size_t m = 0; m < s->pl->nmachines; m++)
		if (s->work[m] / (s->pl->mflops[m] * 1e6) > most)
			most = s->work[m] / (s->pl->mflops[m] * 1e6);
	return most;
}

vproc_status vproc_vsim_run(const vproc_lu_platform *pl, vproc_vsim_step *step,
                            vproc_lu_seconds *out)
{
	return vproc_vsim_play(pl, NULL, step, NULL, out);
}

vproc_status vproc_vsim_play(const vproc_lu_platform *pl, vproc_vsim_phase *begin,
                             vproc_vsim_step *step, vproc_vsim_phase *end, vproc_lu_seconds *out)
{
	vproc_vsim sim;
	if (out == NULL || step == NULL)
		return VPROC_EINVAL;
	vproc_status st = vproc_vsim_init(&sim, pl);
	if (st != VPROC_OK)
		return st;
	if (begin)
		begin(&sim);
	for (size_t k = 0; k * pl->b < pl->n; k++) {
		size_t lo = k * pl->b;
		step(&sim, k, lo, pl->n - lo < pl->b ? pl->n - lo : pl->b);
		vproc_vsim_forget(&sim);
	}
	if (end)
		end(&sim);
	out->total = vproc_vsim_last(&sim);
	out->compute = vproc_vsim_busiest(&sim);
	out->network = out->total - out->compute;
	vproc_vsim_free(&sim);
	return VPROC_OK;
}
