/*
 * wake.c -- the ranks sharing this computer sleep on a word of theirs in
 * the segment and are woken by who posts them a message (futex(2)): the
 * cooperative waits' (wait.c) and the virtual-time order's (vorder.c)
 * sleeps, and emu.c's.  The lowest layer of the core above its state
 * (state.h): it calls nothing of the core but comm.c's rank lookup.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "state.h"

_Atomic uint32_t *vr_my_wake(void)
{
	return vr_seg.rank ? &vr_seg.rank->wake : NULL;
}

_Atomic uint32_t *vr_my_sleeping(void)
{
	return vr_seg.rank ? &vr_seg.rank->sleeping : NULL;
}

/* Bump w's wake word, then futex-wake it if it sleeps in a way `asleep`
 * names.  The bump comes first so that a rank on its way to sleep (it
 * stores `sleeping`, then waits on the word it read before) sees it. */
static void bump_wake(int w, uint32_t asleep)
{
	if (vr_seg.shm == NULL || w < 0 || w >= vr_seg.world_size)
		return;
	vr_rank *r = &vr_seg.shm->ranks[w];
	atomic_fetch_add(&r->wake, 1u);
	if (atomic_load(&r->sleeping) & asleep)
		vr_futex_wake(&r->wake);
}

void vr_wake_rank(int w)
{
	bump_wake(w, VR_ASLEEP);
}

void vr_wake(MPI_Comm comm, int dest)
{
	if (vr_seg.shm == NULL || dest == MPI_PROC_NULL)
		return;
	vr_wake_rank(vr_world_rank(comm, dest));
}

/* The futex call, the costly part of a wake-up (a context switch, and on a
 * virtual machine an interrupt to a halted processor), is saved when the
 * rank sleeps in a receive-only wait: 3x3 driver LU n = 3000 kicked such
 * sleepers for every small message of its panels and swaps. */
void vr_kick(MPI_Comm comm, int dest)
{
	if (vr_seg.shm == NULL || dest == MPI_PROC_NULL)
		return;
	bump_wake(vr_world_rank(comm, dest), VR_ASLEEP_SEND);
}

/* After a receive completed: its sender's request can complete now, which
 * only a sender that waits for its own send needs to see.  A rank asleep
 * in the order's nap (VR_ASLEEP_ORDER) waits for no send: its buffered
 * ones complete at its next move.  Woken after every ring hop, it took a
 * snapshot of every rank and slept again (virtual-clock.md, "Why 512
 * ranks crawl"). */
void vr_kick_matched(MPI_Comm comm, int dest)
{
	if (vr_seg.shm == NULL || dest == MPI_PROC_NULL)
		return;
	int w = vr_world_rank(comm, dest);
	if (w < 0 || w >= vr_seg.world_size)
		return;
	vr_rank *r = &vr_seg.shm->ranks[w];
	atomic_fetch_add(&r->wake, 1u);
	uint32_t s = atomic_load(&r->sleeping);
	if ((s & VR_ASLEEP_SEND) && !(s & VR_ASLEEP_ORDER))
		vr_futex_wake(&r->wake);
}

int vr_peer_awake(MPI_Comm comm, int dest)
{
	if (vr_seg.shm == NULL || dest < 0)
		return 0;
	int w = vr_world_rank(comm, dest);
	return w >= 0 && w < vr_seg.world_size && atomic_load(&vr_seg.shm->ranks[w].sleeping) == 0;
}

/* Under the virtual clock no one reads the count (a wait is never
 * crowded there, wait.c), and the one word that every sleep and wake-up
 * of every rank wrote twice cost 2.5% of the CPU samples of the 256-rank
 * LU of bench_vclock.sh item 4 (virtual-clock.md, "Why 512 ranks crawl"). */
void vr_asleep(int on)
{
	if (vr_seg.shm != NULL && !vr_seg.virtual_clock)
		atomic_fetch_add(&vr_seg.shm->awake, on ? -1 : 1);
}

int vr_awake_ranks(void)
{
	return vr_seg.shm != NULL ? atomic_load(&vr_seg.shm->awake) : -1;
}

void vr_futex_sleep(uint32_t why, uint32_t seen, const struct timespec *ts)
{
	_Atomic uint32_t *w = vr_my_wake(), *sl = vr_my_sleeping();
	atomic_store(sl, why);
	vr_asleep(1);
	syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT, seen, ts, NULL, 0);
	vr_asleep(0);
	atomic_store(sl, 0u);
}

void vr_futex_wake(_Atomic uint32_t *word)
{
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, 1, NULL, NULL, 0);
}
