/*
 * trace.h -- the run directory's trace.json: every rank's timeline of
 * compute and wait (the runtime's own accounting, vproc/runtime/core/
 * trace.c), merged from the part files the ranks leave in the run
 * directory into one Chrome trace-event document (Perfetto,
 * chrome://tracing; doc/format.md "trace.json").
 */
#ifndef HL_TRACE_H
#define HL_TRACE_H

#include <stddef.h>

#include "config/config.h"
#include "util/json.h"

typedef struct {
	int written;               /* trace.json was written */
	size_t ranks;              /* ranks with a timeline */
	size_t unfinalized;        /* of those, left at exit without MPI_Finalize */
	size_t events, segments, merged;
	double resolution_us;      /* the coarsest rank's */
} hl_trace_info;

/* Remove the part files an earlier run left in dir (trace-RANK.part): the
 * runtime creates its own with O_EXCL. */
void hl_trace_clean(const char *dir);

/* trace.json in dir from the parts of ranks 0..nranks-1 (rank k on machine
 * rank_machine[k] of cfg), written atomically, whatever ranks left one;
 * then the parts are removed.  0, or -1 with err. */
int hl_trace_write(const char *dir, const hl_config *cfg, const size_t *rank_machine,
                   size_t nranks, hl_trace_info *info, char *err, size_t errlen);

/* report.json's trace: {file, ranks, events, ...}, or null. */
void hl_trace_report(jw *w, const hl_trace_info *info);

#endif
