/*
 * vclock.c -- calendars of virtual busy time (see vclock.h).
 * Pure: no I/O, no clocks of its own.
 */
#include <math.h>
#include <string.h>

#include "model.h"

/* Insert [s, e) at position i (the intervals before it end at or before s,
 * those from i start at or after e), merging with touching neighbours.
 * A full calendar forgets its earliest interval first. */
static void cal_insert(vproc_calendar *c, size_t i, unsigned long long s, unsigned long long e)
{
	if (s >= e)
		return;
	int left = i > 0 && c->iv[i - 1].end == s;
	int right = i < c->n && c->iv[i].start == e;
	if (left && right) {
		c->iv[i - 1].end = c->iv[i].end;
		memmove(&c->iv[i], &c->iv[i + 1], (c->n - i - 1) * sizeof *c->iv);
		c->n--;
		return;
	}
	if (left) {
		c->iv[i - 1].end = e;
		return;
	}
	if (right) {
		c->iv[i].start = s;
		return;
	}
	if (c->n == c->cap) {
		if (c->cap == 0 || i == 0) {
			c->dropped++;   /* the booking itself is the earliest: not kept */
			return;
		}
		memmove(&c->iv[0], &c->iv[1], (c->n - 1) * sizeof *c->iv);
		c->n--;
		c->dropped++;
		i--;
	}
	memmove(&c->iv[i + 1], &c->iv[i], (c->n - i) * sizeof *c->iv);
	c->iv[i].start = s;
	c->iv[i].end = e;
	c->n++;
}

/* The first interval that ends after t. */
static size_t first_after(const vproc_calendar *c, unsigned long long t)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->iv[mid].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

unsigned long long vproc_cal_compute(vproc_calendar *c, unsigned long long ready,
                                     unsigned long long work)
{
	unsigned long long t = ready;
	size_t i = first_after(c, t);
	while (work > 0) {
		if (i < c->n && c->iv[i].start <= t) {
			t = c->iv[i].end;     /* busy: skip to its end */
			i++;
			continue;
		}
		/* free from t up to the next interval (or for ever) */
		unsigned long long gap_end = i < c->n ? c->iv[i].start : ~0ull;
		unsigned long long take = gap_end - t < work ? gap_end - t : work;
		cal_insert(c, i, t, t + take);
		t += take;
		work -= take;
		/* the piece merged into i-1 or i, or was inserted at i */
		i = first_after(c, t);
	}
	return t;
}

unsigned long long vproc_cal_transfer(vproc_calendar *c, unsigned long long ready,
                                      unsigned long long wire)
{
	unsigned long long t = ready;
	size_t i = first_after(c, t);
	for (;;) {
		if (i < c->n && c->iv[i].start <= t) {
			t = c->iv[i].end;
			i++;
			continue;
		}
		unsigned long long gap_end = i < c->n ? c->iv[i].start : ~0ull;
		if (gap_end - t >= wire) {
			cal_insert(c, i, t, t + wire);
			return t;
		}
		t = c->iv[i].end;
		i++;
	}
}

void vproc_cal_forget(vproc_calendar *c, unsigned long long horizon)
{
	size_t k = first_after(c, horizon);
	if (k == 0)
		return;
	memmove(&c->iv[0], &c->iv[k], (c->n - k) * sizeof *c->iv);
	c->n -= k;
}

unsigned long long vproc_vclock_message(vproc_calendar *port_cal, unsigned long long send,
                                        unsigned long long latency, double bytes_per_s,
                                        unsigned long long bytes,
                                        unsigned long long *sender_free)
{
	unsigned long long wire = 0;
	if (bytes_per_s > 0.0 && isfinite(bytes_per_s))
		wire = (unsigned long long)llround((double)bytes / bytes_per_s * 1e9);
	unsigned long long start = send;
	if (port_cal != NULL && wire > 0)
		start = vproc_cal_transfer(port_cal, send, wire);
	*sender_free = start + wire;
	return start + wire + latency;
}

unsigned long long vproc_vclock_receive(unsigned long long clock, unsigned long long arrival)
{
	return arrival > clock ? arrival : clock;
}
