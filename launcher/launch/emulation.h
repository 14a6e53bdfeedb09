/*
 * emulation.h -- the emulated cluster, seen from hetlaunch: the
 * speed of this computer, the speeds and network of the emulated machines,
 * and the shared-memory segment the ranks' runtime (libhetlaunch-rt.so) reads.
 * hetlaunch creates the segment before the job and removes it after, on
 * every exit path (hl_emu_destroy also runs from atexit).
 */
#ifndef HL_EMULATION_H
#define HL_EMULATION_H

#include <stddef.h>

#include "config/config.h"
#include "util/json.h"
#include "layouts/plan.h"
#include "kernels/testers.h"

/* This computer's speed on one core, Mflop/s: DGEMM of the shape of an
 * LU update (256 x 32 times 32 x 256). */
double hl_host_mflops(void);

typedef struct {
	char name[64];          /* the shm name, for HETLAUNCH_SHM */
	void *shm;              /* vr_shm, mapped */
	double host_mflops;
	unsigned cores;
	double K;               /* machine i runs at K / t_i Mflop/s */
	double *scale;          /* [nmachines] */
	size_t nmachines;
	int chosen;             /* K was chosen from the host's speed */
	double next_progress;   /* hl_emu_progress: the job's second of the last line */
	/* hl_emu_watch (stall.c), set before the job: */
	int progress_lines;     /* print hl_emu_progress's lines */
	double stall_s;         /* end the job after this long stalled; 0: never */
	double stall_since;     /* the job's second when the emulation last moved */
	unsigned long long stall_sig;   /* the clocks and finished ranks, then */
} hl_emu;

/*
 * hl_emu_create -- compute the speeds and create the segment for these
 * ranks.  Without emulate: the segment only carries the runtime's wake-ups
 * (all ranks on this computer), and host_mflops is not used.  host_mflops: this computer's (hl_host_mflops), measured once by
 * the caller so that two runs compare on the same footing.  Returns 0, or
 * -1 with a message in err (exit status 2 for a speed this computer cannot
 * emulate, 1 for a system error: *status says which).  After a failure e
 * may still hold memory: hl_emu_destroy(e) is safe and frees it.
 */
int hl_emu_create(const hl_config *cfg, const hl_ranks *r, double host_mflops, hl_emu *e,
                  int *status, char *err, size_t errlen);

/*
 * hl_emu_check -- hl_emu_create's refusals without its segment: too many
 * machines or ranks, or a speed this computer cannot emulate.  Nothing is
 * created, so a command can refuse before it writes anything.  Returns 0,
 * or the exit status (2, or 1 when out of memory) with a message in err.
 */
int hl_emu_check(const hl_config *cfg, size_t nranks, double host_mflops, char *err,
                 size_t errlen);

/* The counters, as the "emulation" object of report.json.  overrun_limit:
 * the fraction of booked compute above which the run is flagged. */
#define HL_OVERRUN_LIMIT 0.02
void hl_emu_report(const hl_emu *e, const hl_config *cfg, jw *w, int *flagged,
                   double *fraction);

/* The run's overruns: the fraction of the booked compute by which
 * segments ended late, and whether that is above HL_OVERRUN_LIMIT. */
void hl_emu_overruns(const hl_emu *e, double *fraction, int *flagged);
/* How many ranks the runtime attached to the segment (at MPI_Init). */
size_t hl_emu_attached(const hl_emu *e);
/* Why the runtime ended the job (a rank's MPI_Abort with its reason,
 * e.g. an MPI call from a second thread under emulation), or NULL. */
const char *hl_emu_refusal(const hl_emu *e);
/* The program's first MPI_Abort, as the runtime recorded it before MPI
 * ended the job (the launcher's line about it can be lost). */
typedef struct {
	int rank;               /* in MPI_COMM_WORLD */
	int code;               /* its error code */
	double at;              /* when: hl_now()'s clock (CLOCK_MONOTONIC) */
} hl_emu_abort;
/* 1 and *a when a rank called MPI_Abort under the runtime, else 0. */
int hl_emu_aborted(const hl_emu *e, hl_emu_abort *a);
/* How many ranks called MPI_Finalize under the runtime. */
size_t hl_emu_finalized(const hl_emu *e);
/* The ranks that called MPI_Init under the runtime but never
 * MPI_Finalize: how many, and their numbers in list ("1, 2", cut with
 * "..." when it would not fit). */
size_t hl_emu_unfinalized(const hl_emu *e, char *list, size_t len);
/* Each rank's compute and wait seconds from the runtime's account
 * (runtime/core/account.c), into t[0..nranks) for the ranks that reached
 * MPI_Finalize under it; returns how many did. */
size_t hl_emu_rank_times(const hl_emu *e, size_t nranks, hl_rank_time *t);

/* A one-line summary for the terminal. */
void hl_emu_print_speeds(const hl_emu *e, const hl_config *cfg);

/* Under the virtual clock, a hl_spawn_opts progress callback (ctx: the
 * hl_emu): every HL_EMU_PROGRESS_S of the job (HETLAUNCH_PROGRESS_S), once
 * every rank attached, a line on stderr with the slowest running rank's
 * virtual time. */
#define HL_EMU_PROGRESS_S 10.0
void hl_emu_progress(void *ctx, double elapsed);

/* Under the virtual clock, the hl_spawn_opts watch (ctx: the hl_emu):
 * the progress lines if progress_lines, and the stall watchdog
 * (stall.c): once every rank attached, when no rank's clock has moved,
 * none has finished and none has computed for stall_s seconds of wall
 * time, the diagnosis (each rank's call, what it waits for, its virtual
 * time; identical ranks grouped) that ends the job, malloc'd; else NULL.
 * HL_EMU_STALL_S by default (emulate: stall_timeout_s; HETLAUNCH_STALL_S
 * overrides both: hl_emu_stall_s). */
#define HL_EMU_STALL_S 60.0
char *hl_emu_watch(void *ctx, double elapsed);
double hl_emu_stall_s(double configured);

void hl_emu_destroy(hl_emu *e);

#endif
