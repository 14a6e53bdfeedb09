/*
 * bench.h -- what the `make bench` programs (tests/bench_*.c) share: a
 * monotonic clock, and the best and median of a few runs (the median, not
 * the mean, so that one run slowed by another process does not count).
 */
#ifndef HL_BENCH_H
#define HL_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Sorts s[0..runs) in place: s[0] is the best, the return the median. */
static inline double bench_median(double *s, size_t runs)
{
	qsort(s, runs, sizeof *s, bench_cmp);
	return s[runs / 2];
}

/* The 1-minute load average, to print beside a missed target: a target
 * is reported, not asserted (a shared machine's timing is noise). */
static inline const char *bench_load(void)
{
	static char buf[32] = "?";
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%31s", buf) != 1)
			buf[0] = '?', buf[1] = '\0';
		fclose(f);
	}
	return buf;
}

#endif
