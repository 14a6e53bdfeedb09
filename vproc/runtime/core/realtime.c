/*
 * realtime.c -- the real clocks, for the runtime itself: clock_gettime is
 * interposed (bindings/clock.c) and, under the virtual clock, answers the
 * program with its virtual time; the runtime's deadlines, CPU times and
 * escapes must see the real one.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <time.h>

#include "core.h"

typedef int clock_gettime_fn(clockid_t, struct timespec *);

static clock_gettime_fn *real_clock_gettime(void)
{
	static clock_gettime_fn *f;
	if (f == NULL) {
		void *s = dlsym(RTLD_NEXT, "clock_gettime");
		memcpy(&f, &s, sizeof f);
	}
	return f;
}

int vr_real_clock_gettime(clockid_t id, struct timespec *ts)
{
	return real_clock_gettime()(id, ts);
}
