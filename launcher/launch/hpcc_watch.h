/*
 * hpcc_watch.h -- when hpcc's HPL section began and ended, in the job's
 * wall time: hpccoutf.txt read as it grows (every poll of the job's
 * watch, spawn.h's progress), so that the report can split the job's wall
 * time into HPL's and the rest (the other benchmarks, hpcc's and MPI's
 * start and end).
 */
#ifndef HL_HPCC_WATCH_H
#define HL_HPCC_WATCH_H

#include <limits.h>
#include <sys/types.h>

typedef struct {
	char path[PATH_MAX];   /* the run directory's hpccoutf.txt */
	off_t offset;          /* read so far */
	char line[128];        /* the line read so far (longer ones: cut) */
	size_t len;
	double begin, end;     /* wall seconds into the job; < 0: not seen */
} hl_hpcc_watch;

void hl_hpcc_watch_init(hl_hpcc_watch *w, const char *run_dir);
/* Reads what hpcc added since the last call; elapsed: the job's seconds. */
void hl_hpcc_watch_poll(hl_hpcc_watch *w, double elapsed);
/* HPL's section in wall seconds: its end (or the job's, when the job
 * ended before HPL did) less its beginning; < 0 when it never began. */
double hl_hpcc_watch_hpl(const hl_hpcc_watch *w, double job_elapsed);

#endif
