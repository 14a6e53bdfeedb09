/*
 * colplay.c -- see colplay.h.
 */
#include <math.h>

#include "colplay.h"

void vproc_col_send(vproc_vsim *s, size_t q, size_t a, size_t b, double bytes)
{
	const vproc_lu_platform *pl = s->pl;
	size_t ma = pl->machine[a * pl->Q + q], mb = pl->machine[b * pl->Q + q];
	unsigned long long t = s->aux[a];
	if (ma != mb) {
		double bw = pl->bus ? pl->bus_bytes_per_s : pl->bytes_per_s ? pl->bytes_per_s[ma] : 0;
		t += (unsigned long long)llround((vproc_vsim_latency(pl, ma) + (bw > 0 ? bytes / bw : 0)) * 1e9);
	}
	s->aux[b] = t > s->aux[b] ? t : s->aux[b];
}

void vproc_col_bcast(vproc_vsim *s, size_t q, size_t root, double bytes)
{
	size_t P = s->pl->P, Q = s->pl->Q, *lead = s->scratch, *lead_of = s->scratch + P * Q;
	size_t nl = vproc_vsim_leaders(s, q, Q, P, root, lead, lead_of);
	for (size_t i = 1; i < nl; i++)
		vproc_col_send(s, q, lead[i & (i - 1)] / Q, lead[i] / Q, bytes);
	for (size_t x = 0; x < P; x++) {
		size_t l = lead_of[s->pl->machine[x * Q + q]] / Q;
		s->aux[x] = s->aux[l] > s->aux[x] ? s->aux[l] : s->aux[x];
	}
}

void vproc_col_tree(vproc_vsim *s, size_t q, double bytes)
{
	size_t P = s->pl->P;
	for (size_t k = 1; k < P; k <<= 1)
		for (size_t r = k; r < P; r += 2 * k)
			vproc_col_send(s, q, r, r - k, bytes);
}

static unsigned long long col_last(const vproc_vsim *s)
{
	unsigned long long t = 0;
	for (size_t p = 0; p < s->pl->P; p++)
		t = s->aux[p] > t ? s->aux[p] : t;
	return t;
}

double vproc_col_seconds(vproc_vsim *s, size_t kb, vproc_col_fn *col, const void *arg)
{
	double first;
	return vproc_col_parts(s, kb, col, arg, &first);
}

double vproc_col_parts(vproc_vsim *s, size_t kb, vproc_col_fn *col, const void *arg, double *first)
{
	unsigned long long t1 = 0;
	for (size_t p = 0; p < s->pl->P; p++)
		s->aux[p] = 0;
	for (int j = 0; j < 3; j++) {
		col(s, arg);
		t1 = j == 0 ? col_last(s) : t1;
	}
	double period = (double)(col_last(s) - t1) / 2.0;
	*first = (double)t1 * 1e-9;
	return ((double)t1 + (double)(kb - 1) * period) * 1e-9;
}

void vproc_col_start(vproc_vsim *s, size_t q, double seconds)
{
	size_t P = s->pl->P, Q = s->pl->Q;
	unsigned long long t = 0;
	for (size_t p = 0; p < P; p++)
		t = s->clock[p * Q + q] > t ? s->clock[p * Q + q] : t;
	t += (unsigned long long)llround(seconds * 1e9);
	for (size_t p = 0; p < P; p++)
		s->clock[p * Q + q] = t;
}
