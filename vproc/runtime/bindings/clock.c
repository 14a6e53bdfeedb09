/*
 * clock.c -- the clocks the program reads under emulate: {clock: virtual}
 *: clock_gettime on the wall clocks and gettimeofday are the
 * rank's virtual clock (core/vclock.c), except for calls from the MPI
 * library itself (and UCX, PMI, hwloc, this runtime), whose timeouts must
 * see real time (core/realtime.c).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "bindings.h"

typedef int gettimeofday_fn(struct timeval *, void *);

static gettimeofday_fn *real_gettimeofday(void)
{
	static gettimeofday_fn *f;
	if (f == NULL) {
		void *s = dlsym(RTLD_NEXT, "gettimeofday");
		memcpy(&f, &s, sizeof f);
	}
	return f;
}

/* Is a call from this address the program's (virtual time) or the MPI
 * stack's (real time)?  Cached by address. */
static int caller_is_program(const void *ret)
{
	enum { NCACHE = 64 };
	static const void *addr[NCACHE];
	static signed char verdict[NCACHE];
	unsigned h = (unsigned)(((uintptr_t)ret >> 2) % NCACHE);
	if (addr[h] == ret)
		return verdict[h];
	Dl_info info;
	int program = 1;
	if (dladdr(ret, &info) && info.dli_fname) {
		const char *b = strrchr(info.dli_fname, '/');
		b = b ? b + 1 : info.dli_fname;
		static const char *const mpi_stack[] = { "libmpi", "libuc", "libpmi", "libhwloc",
		                                         "libfabric", "libhetlaunch-rt", "libopen-",
		                                         "libpmix", "libevent", "ld-linux" };
		for (size_t k = 0; k < sizeof mpi_stack / sizeof *mpi_stack; k++)
			if (strncmp(b, mpi_stack[k], strlen(mpi_stack[k])) == 0)
				program = 0;
	}
	addr[h] = ret;
	verdict[h] = (signed char)program;
	return program;
}

static int wall_clock(clockid_t id)
{
	return id == CLOCK_REALTIME || id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW ||
	       id == CLOCK_REALTIME_COARSE || id == CLOCK_MONOTONIC_COARSE || id == CLOCK_BOOTTIME;
}

/* The virtual time of a wall clock, for a call from `ret`: 0, or -1 when
 * the caller is the MPI stack's and must read the real clock.  The MPI
 * stack's reads touch nothing: they come from inside an MPI call (Open
 * MPI's progress engine runs libevent, which reads CLOCK_MONOTONIC, inside
 * every PMPI_Test) or from its own threads, where charging a compute
 * segment booked the calendars, waited for the order and tested our
 * buffered sends (core/bsend.c) from inside PMPI_Test: MPI re-entered, and
 * the requests it freed were freed again.  A program's read charges the
 * compute so far first, as MPI_Wtime does (below); its look-up, cached by
 * address, costs a hash probe after the first. */
static int virtual_timespec(clockid_t id, struct timespec *ts, const void *ret, const char *call)
{
	static int inside;   /* a clock read while charging is the runtime's own */
	if (inside || !caller_is_program(ret))
		return -1;
	unsigned long long t;
	if (vr_foreign_thread()) {   /* a worker thread's read charges nothing */
		t = vr_vt_ns();
	} else {
		inside = 1;
		t = vr_vt_read(call);
		inside = 0;
	}
	t += vr_vt_base_ns(id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE);
	ts->tv_sec = (time_t)(t / 1000000000ull);
	ts->tv_nsec = (long)(t % 1000000000ull);
	return 0;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (vr_virtual() && wall_clock(id) && virtual_timespec(id, ts, __builtin_return_address(0), "clock_gettime") == 0)
		return 0;
	return vr_real_clock_gettime(id, ts);
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct timespec ts;
	if (vr_virtual() && virtual_timespec(CLOCK_REALTIME, &ts, __builtin_return_address(0), "gettimeofday") == 0) {
		tv->tv_sec = ts.tv_sec;
		tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
		if (tz)
			memset(tz, 0, 2 * sizeof(int));
		return 0;
	}
	return real_gettimeofday()(tv, tz);
}

/* MPI_Wtime: the same clock as the program's other reads. */
double MPI_Wtime(void)
{
	/* The testers time with MPI_Wtime (through BLACS dwalltime00): the
	 * compute before it must be charged before the clock is read.  A
	 * worker thread's read (MPI_THREAD_FUNNELED allows none, but timing
	 * from threads is common) charges nothing. */
	if (vr_foreign_thread())
		return vr_virtual() ? (double)vr_vt_ns() * 1e-9 : PMPI_Wtime();
	if (vr_virtual())
		return (double)vr_vt_read("MPI_Wtime") * 1e-9;
	vr_enter();
	double t = PMPI_Wtime();
	vr_exit();
	return t;
}
