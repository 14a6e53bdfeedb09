/*
 * account.c -- each rank's compute and wait seconds, handed to hetlaunch
 * through the shared segment at MPI_Finalize, so that report.json's
 * ranks[] and compare's balance picture (paper 000 s3: fast machines
 * waiting for slow ones) exist for any preloaded program, not only for
 * those that print hetlaunch-rank lines (hl-driver).
 *
 * Between MPI_Init and MPI_Finalize the rank is either inside an
 * interposed MPI call (wait: waiting and communicating) or outside one
 * (compute).  Both are read on the rank's own clock: the virtual clock
 * under emulate: {clock: virtual} (its compute charges move it outside,
 * its receives and sends inside), else CLOCK_MONOTONIC.  The boundary of
 * a call is taken after emu.c has charged the segment before it, so an
 * emulated compute's sleep (real clock) or booking (virtual clock) counts
 * as compute, siblings' share of the machine included, as hl-driver's own
 * lines count it.  compute + wait is then the rank's MPI_Init to
 * MPI_Finalize exactly.  The segment, not a file: nothing is left in the
 * run directory for the program to clobber, and hetlaunch reads it after
 * the job like the emulation's counters.
 *
 * The same boundaries are the rank's timeline (trace.c), which needs no
 * segment: the account runs when either wants it.  Only the thread that
 * initialised MPI is followed: under MPI_THREAD_MULTIPLE (not emulated)
 * another thread's calls would interleave its boundaries with ours.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "core.h"

static vr_rank *slot;         /* this rank's, NULL: no segment */
static int active;            /* counting: a slot or a timeline */
static int inside;            /* in an MPI call */
static const char *call;      /* which one, for the timeline */
static unsigned long long mark, compute_ns, wait_ns;
static pthread_t owner;       /* the thread that called MPI_Init */

static unsigned long long clock_ns(void)
{
	if (vr_virtual())
		return vr_vt_ns();
	struct timespec ts;
	vr_real_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* The time since the last boundary, to compute or to wait. */
static void close_interval(void)
{
	unsigned long long t = clock_ns(), d = t > mark ? t - mark : 0;
	if (inside)
		wait_ns += d;
	else
		compute_ns += d;
	vr_trace_segment(mark, mark + d, inside, call);
	mark = t;
}

static int followed(void)
{
	return active && pthread_equal(pthread_self(), owner);
}

static pid_t rank_pid;        /* a child the rank forked is not the rank */

/* A rank that leaves without MPI_Finalize still leaves its timeline. */
static void at_exit(void)
{
	if (!active || getpid() != rank_pid)
		return;
	close_interval();
	active = 0;
	vr_trace_finish(0);
}

void vr_account_init(void *rank_slot)
{
	slot = rank_slot;
	active = slot != NULL || vr_trace_on();
	if (!active)
		return;
	owner = pthread_self();
	inside = 1;   /* still in MPI_Init: vr_exit ends it */
	call = "MPI_Init";
	mark = clock_ns();
	rank_pid = getpid();
	atexit(at_exit);
}

void vr_account_enter(const char *what)
{
	if (!followed() || inside)
		return;   /* nested: the outer call's boundary counts */
	close_interval();
	inside = 1;
	call = what;
}

void vr_account_exit(void)
{
	if (!followed() || !inside)
		return;
	close_interval();
	inside = 0;
}

void vr_account_finalize(void)
{
	if (!active)
		return;
	close_interval();
	active = 0;
	vr_trace_finish(1);
	if (slot == NULL)
		return;
	slot->compute_ns = compute_ns;
	slot->wait_ns = wait_ns;
	atomic_store(&slot->accounted, 1);   /* after the figures: hetlaunch reads both */
	slot = NULL;
}
