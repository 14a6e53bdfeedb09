/*
 * placement.h -- placement verified, not assumed: every rank
 * of a run reports where it runs (vproc/runtime/core/rank_host.c prints a
 * tagged line at MPI_Init); this module reads those lines from the job's
 * log and matches each against the host the plan gave the rank.
 */
#ifndef HL_PLACEMENT_H
#define HL_PLACEMENT_H

#include <stddef.h>

#include "config/config.h"
#include "util/json.h"
#include "layouts/plan.h"

/* What one rank said about itself. */
typedef struct {
	int reported;            /* its line was in the log */
	int ok;                  /* 1: on the host the plan gave it, 0: elsewhere, -1: cannot tell */
	char host[256];          /* gethostname() */
	char node[128];          /* the Slurm node name, "-" outside Slurm */
	char addrs[1024];        /* its IPv4 addresses but 127.0.0.1, comma separated, or "-" */
} hl_seen;

typedef enum {
	HL_PLACE_UNCHECKED,      /* the ranks were not asked (no runtime preloaded) */
	HL_PLACE_VERIFIED,       /* every rank reported, each on its plan's host */
	HL_PLACE_WRONG,          /* some rank runs elsewhere */
	HL_PLACE_INCOMPLETE      /* none wrong, but some ranks did not report, or cannot be told */
} hl_place_status;

typedef struct {
	size_t nranks;
	const char **want;       /* [nranks] the plan's host of rank k (strings of the config) */
	int here_only;           /* emulation: every rank belongs on this computer */
	char here[256];          /* this computer's hostname */
	hl_seen *seen;           /* [nranks] */
	size_t nwrong, nmissing, nunknown;
	hl_place_status status;
} hl_placement;

/*
 * hl_placement_init -- the expected host of each rank.
 *   p          out  (free with hl_placement_free)
 *   cfg, r     in   the machines and the ranks of the run
 *   here_only  in   every rank runs on this computer whatever its host says (emulation)
 * Returns 0, or -1 when out of memory.
 */
int hl_placement_init(hl_placement *p, const hl_config *cfg, const hl_ranks *r, int here_only);

/*
 * hl_placement_check -- read the ranks' lines from the job's log and set
 * p->seen, p->nwrong, p->nmissing and p->status (never UNCHECKED).
 */
void hl_placement_check(hl_placement *p, const char *log);

/*
 * hl_host_is -- does a rank that saw itself as `s` run on `want`?  1 when
 * want names it: its hostname (or the short form of one of the two), its
 * Slurm node name, one of its addresses, a name that resolves to one of its
 * addresses, or -- for localhost, 127.0.0.1 and `here` -- this computer.
 * -1 when we cannot tell: want is a name that is not the rank's hostname,
 * the rank reported no Slurm node, and want does not resolve here.  0 else.
 */
int hl_host_is(const char *want, const hl_seen *s, const char *here);

/* "verified (N ranks)", "rank 2 ran on X, the plan says Y; ...", ... */
void hl_placement_text(const hl_placement *p, char *buf, size_t len);

/* The report's "placement" (INTERFACE.md): unchecked, verified, wrong or incomplete. */
const char *hl_placement_status_name(hl_place_status st);

/* The report's "placement_ranks": [{rank, plan, reported, host, node, addrs, ok}]. */
void hl_placement_json(jw *w, const hl_placement *p);

void hl_placement_free(hl_placement *p);

#endif
