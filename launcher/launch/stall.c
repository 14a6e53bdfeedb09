/*
 * stall.c -- the stall watchdog of the virtual clock (emulation.h,
 * hl_emu_watch).
 *
 * Why: under clock: virtual a job whose ordering lets no rank go
 * (virtual-clock.md, "A full pending list") printed the same progress
 * line every 10 s until its timeout, and looked like a slow one.  Nothing
 * of the emulation moves then: no rank's clock, no rank computing, no
 * rank finishing.  After HL_EMU_STALL_S of wall time like that (emulate:
 * stall_timeout_s, HETLAUNCH_STALL_S) the job is ended, with what each
 * rank was doing, read from the segment: the call it is in (vr_shm.call),
 * what it waits for (its published receives, vr_order.pat; a booking in
 * virtual-time order, vr_order.doing) and whom the order has it sleep on
 * (the waiters bits: vorder.c, notify and horizon_rose).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulation.h"
#include "model/shm_layout.h"

/* The emulation moved since the last look: a clock, a rank that finished,
 * a rank blocking or taking a message (its ver), or a rank computing (it
 * will come back, however long it takes here).  A stalled ordering changes
 * none of them: its naps only look, and the escape's picks of the issue's
 * 96-rank stall sent messages (order_epoch moved, not counted here) but
 * moved no clock and no ver.  Once every rank is past its last booking,
 * what is left (MPI_Finalize) is MPI's own, not the order's. */
static int moving(hl_emu *e, const vr_shm *s)
{
	unsigned long long sig = 0;
	int computing = 0;
	uint32_t done = 0;
	for (uint32_t r = 0; r < s->nranks; r++) {
		int fin = atomic_load(&s->ranks[r].finalized);
		sig += atomic_load(&s->rank_vt[r]) + (unsigned)fin + atomic_load(&s->order[r].ver);
		done += fin || atomic_load(&s->order[r].done);
		computing |= atomic_load(&s->order[r].computing) && !atomic_load(&s->order[r].done);
	}
	int moved = sig != e->stall_sig || computing || done == s->nranks;
	e->stall_sig = sig;
	return moved;
}

/* "from 12 tag 7", "from any source, any tag" */
static void pattern_text(char *b, size_t n, const vr_pattern *p)
{
	char src[32], tag[32];
	snprintf(src, sizeof src, p->src < 0 ? "any source" : "rank %d", p->src);
	snprintf(tag, sizeof tag, p->stag < 0 ? "any tag" : "tag %d", p->stag);
	snprintf(b, n, "from %s, %s", src, tag);
}

/* What rank r waits for inside its call. */
static void waits_for(FILE *f, const vr_shm *s, uint32_t r)
{
	const vr_order *o = &s->order[r];
	if (atomic_load(&o->doing) == 1) {
		fputs("waits to book its processor, port or the bus in virtual-time order", f);
		return;
	}
	if (atomic_load(&o->doing) == 2) {
		fputs("waits for requests with no receive it could name (sends, or an unstamped "
		      "communicator)", f);
		return;
	}
	if (!atomic_load(&o->blocked)) {
		fputs("waits inside MPI (no receive published)", f);
		return;
	}
	uint32_t npat = o->npat < VR_WAIT_PATTERNS ? o->npat : VR_WAIT_PATTERNS;
	fprintf(f, "waits for %s", npat > 1 ? (o->any ? "any of: " : "all of: ") : "a message ");
	/* the stamp channel (vorder.c) names the communicator: not the user's */
	for (uint32_t k = 0; k < npat; k++) {
		char b[96];
		pattern_text(b, sizeof b, &o->pat[k]);
		fprintf(f, "%s%s", k ? "; " : "", b);
	}
	if (npat == 1 && o->pat[0].src < 0)
		fputs(" (a wildcard receive: taken once no rank can send an earlier one)", f);
	uint32_t pending = o->npending + s->spill[r].n;
	if (pending)
		fprintf(f, ", %u other message%s pending for it", pending, pending > 1 ? "s" : "");
}

/* Whom the order has rank r sleep on: the ranks whose waiters hold its
 * bit, and the horizon (every other rank's bound).  Without the times
 * they must pass, which differ from rank to rank: lines group. */
static void sleeps_on(FILE *f, const vr_shm *s, uint32_t r)
{
	uint64_t bit = 1ull << (r % 64);
	int any = 0;
	for (uint32_t q = 0; q < s->nranks; q++)
		if (atomic_load(&s->order[q].waiters[r / 64]) & bit)
			fprintf(f, "%s%u", any++ ? ", " : "; the order has it wait for rank ", q);
	if (atomic_load(&s->hwaiters[r / 64]) & bit)
		fputs(any ? " and for the horizon (every other rank's bound)"
		          : "; the order has it wait for the horizon (every other rank's bound)", f);
}

/* One rank's line, but its number and clock: ranks with the same line
 * are grouped. */
static char *rank_state(const vr_shm *s, uint32_t r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (f == NULL)
		return NULL;
	const vr_order *o = &s->order[r];
	char call[VR_CALL_NAME + 1];
	memcpy(call, s->call[r], VR_CALL_NAME);
	call[VR_CALL_NAME] = '\0';
	if (atomic_load(&o->done) || atomic_load(&s->ranks[r].finalized))
		fputs("finished (MPI_Finalize)", f);
	else if (atomic_load(&o->computing))
		fprintf(f, "computing (after %s)", call[0] ? call : "MPI_Init");
	else {
		fprintf(f, "in %s: ", call[0] ? call : "an MPI call");
		waits_for(f, s, r);
		sleeps_on(f, s, r);
	}
	if (atomic_load(&o->overflow))
		fputs(" [its pending messages overflowed the segment's pool]", f);
	fclose(f);
	return text;
}

/* "0-3,7" into f: the ranks of one group, in order. */
static void rank_list(FILE *f, const uint32_t *rk, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && rk[j + 1] == rk[j] + 1)
			j++;
		fprintf(f, i ? ",%u" : "%u", rk[i]);
		if (j > i)
			fprintf(f, "-%u", rk[j]);
		i = j + 1;
	}
}

/* The ranks whose state is line[r0]'s, from r0 on; marks them taken. */
static void group_line(FILE *f, const vr_shm *s, char **line, char *taken, uint32_t r0,
                       uint32_t *rk)
{
	size_t n = 0;
	unsigned long long lo = ~0ull, hi = 0;
	for (uint32_t r = r0; r < s->nranks; r++) {
		if (taken[r] || strcmp(line[r], line[r0]) != 0)
			continue;
		taken[r] = 1;
		rk[n++] = r;
		unsigned long long t = atomic_load(&s->rank_vt[r]);
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	fprintf(f, "hetlaunch: stalled: rank%s ", n > 1 ? "s" : "");
	rank_list(f, rk, n);
	fprintf(f, " (virtual time %.9f s", (double)lo * 1e-9);
	if (hi > lo)
		fprintf(f, " to %.9f s", (double)hi * 1e-9);
	fprintf(f, "): %s\n", line[r0]);
}

/* The diagnosis: a headline, then one line per group of ranks. */
static char *diagnosis(const hl_emu *e, const vr_shm *s)
{
	uint32_t n = s->nranks;
	char **line = calloc(n, sizeof *line), *taken = calloc(n, 1), *text = NULL;
	uint32_t *rk = calloc(n, sizeof *rk);
	size_t len = 0;
	FILE *f = line && taken && rk ? open_memstream(&text, &len) : NULL;
	if (f != NULL) {
		fprintf(f, "hetlaunch: stalled: no rank's virtual time moved and no rank computed for "
		        "%.0f s of wall time; ending the job (emulate: stall_timeout_s, "
		        "HETLAUNCH_STALL_S)\n", e->stall_s);
		for (uint32_t r = 0; r < n; r++)
			line[r] = rank_state(s, r);
		for (uint32_t r = 0; r < n; r++)
			if (!taken[r] && line[r])
				group_line(f, s, line, taken, r, rk);
		fclose(f);
	}
	for (uint32_t r = 0; line && r < n; r++)
		free(line[r]);
	free(line);
	free(taken);
	free(rk);
	return text ? text : strdup("hetlaunch: stalled: ending the job\n");
}

double hl_emu_stall_s(double configured)
{
	const char *v = getenv("HETLAUNCH_STALL_S");   /* doc/format.md */
	double s = v ? strtod(v, NULL) : 0;
	return s > 0 ? s : configured > 0 ? configured : HL_EMU_STALL_S;
}

char *hl_emu_watch(void *ctx, double elapsed)
{
	hl_emu *e = ctx;
	const vr_shm *s = e->shm;
	if (e->progress_lines)
		hl_emu_progress(e, elapsed);
	if (s == NULL || e->stall_s <= 0 || (size_t)atomic_load(&s->attached) < s->nranks)
		return NULL;   /* still starting: MPI_Init is not ours to judge */
	if (moving(e, s) || e->stall_since == 0) {
		e->stall_since = elapsed;
		return NULL;
	}
	if (elapsed - e->stall_since < e->stall_s)
		return NULL;
	return diagnosis(e, s);
}
