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
 */
#include "core.h"

static vr_rank *slot;         /* this rank's, NULL: no segment, no account */
static int inside;            /* in an MPI call */
static unsigned long long mark, compute_ns, wait_ns;

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
	mark = t;
}

void vr_account_init(void *rank_slot)
{
	slot = rank_slot;
	inside = 1;   /* still in MPI_Init: vr_exit ends it */
	mark = clock_ns();
}

void vr_account_enter(void)
{
	if (slot == NULL || inside)
		return;   /* nested: the outer call's boundary counts */
	close_interval();
	inside = 1;
}

void vr_account_exit(void)
{
	if (slot == NULL || !inside)
		return;
	close_interval();
	inside = 0;
}

void vr_account_finalize(void)
{
	if (slot == NULL)
		return;
	close_interval();
	slot->compute_ns = compute_ns;
	slot->wait_ns = wait_ns;
	atomic_store(&slot->accounted, 1);   /* after the figures: hetlaunch reads both */
	slot = NULL;
}
