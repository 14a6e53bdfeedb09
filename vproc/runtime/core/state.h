/*
 * state.h -- the one state the runtime's core shares: this rank's place
 * in the launcher's segment (model/shm_layout.h), filled once by emu.c at
 * MPI_Init, read by every core file.  Each file's own bookkeeping (the
 * calendars' locks, the wait's patterns, the timeline) stays in its file.
 *
 * The core's files call downwards only, in this order (bottom first;
 * HACKING.md, "The runtime's core"):
 *   state.c   this structure
 *   wake.c    futex sleep and wake-up of the ranks sharing the computer
 *   bsend.c   buffered sends: their list and progress
 *   vorder.c  booking in virtual-time order
 *   wait.c    cooperative waiting
 *   vclock.c  the virtual clocks, message stamps
 *   timeline.c, account.c   each rank's compute and wait, for hetlaunch
 *   emu.c     the emulated cluster: enters and leaves the MPI calls
 *   send.c    a send on the emulated network (the bindings' sends)
 * and beside them comm.c, fold.c, sections.c, rank_host.c, realtime.c,
 * which call none of the above.  bsend.c's wait at MPI_Finalize is
 * passed in (vr_bsend_flush(vr_wait)), not called upwards.
 */
#ifndef VR_STATE_H
#define VR_STATE_H

#include "model/shm_layout.h"

typedef struct {
	vr_shm *shm;            /* the segment; NULL: none (only cooperative waits) */
	vr_machine *machine;    /* this rank's machine in it */
	vr_rank *rank;          /* this rank's slot in it */
	int world_rank, world_size;
	int machine_index;      /* -1: no segment */
	int ncpu;               /* this rank's processors (vr_cpus) */
	int emulating;          /* shm && VR_FLAG_EMULATE */
	int virtual_clock;      /* emulate: {clock: virtual}, set by vr_vt_init */
} vr_state;

extern vr_state vr_seg;

#endif
