/*
 * vorder.c -- the bounds of booking in virtual-time order (see
 * vclock.h and the runtime's vproc/runtime/core/vorder.c).  Pure: the
 * runtime takes a snapshot of every rank's state and asks these.
 */
#include "model.h"

int vproc_event_before(vproc_event a, vproc_event b)
{
	return a.t < b.t || (a.t == b.t && a.rank < b.rank);
}

int vproc_pattern_matches(const vproc_pattern *q, const vproc_pending *p)
{
	return q->chan == p->chan && (q->src < 0 || q->src == p->src) &&
	       (q->stag < 0 || q->stag == p->stag);
}

void vproc_wait_first(const vproc_pattern *pat, uint32_t npat, const vproc_pending *pend,
                      uint32_t npend, unsigned long long *first)
{
	for (uint32_t j = 0; j < npat; j++)
		for (uint32_t k = 0; k < npend; k++)
			if (vproc_pattern_matches(&pat[j], &pend[k]) && pend[k].arrival < first[j])
				first[j] = pend[k].arrival;
}

unsigned long long vproc_wait_join(const unsigned long long *first, uint32_t npat, int any)
{
	unsigned long long wake = any ? VPROC_NEVER : 0;
	for (uint32_t j = 0; j < npat; j++) {
		if (!any && first[j] == VPROC_NEVER)
			return VPROC_NEVER;
		if (any ? first[j] < wake : first[j] > wake)
			wake = first[j];
	}
	return npat ? wake : VPROC_NEVER;
}

/* All the messages in one piece.  More patterns than a wait publishes
 * (the runtime's VR_WAIT_PATTERNS) give 0: early, so only safe. */
static unsigned long long wake_of(const vproc_pattern *pat, uint32_t npat,
                                  const vproc_pending *pend, uint32_t npend, int any)
{
	unsigned long long first[VPROC_WAIT_PATTERNS_MAX];
	if (npat > VPROC_WAIT_PATTERNS_MAX)
		return 0;
	for (uint32_t j = 0; j < npat; j++)
		first[j] = VPROC_NEVER;
	vproc_wait_first(pat, npat, pend, npend, first);
	return vproc_wait_join(first, npat, any);
}

unsigned long long vproc_wait_wake(const vproc_pattern *pat, uint32_t npat,
                                   const vproc_pending *pend, uint32_t npend)
{
	return wake_of(pat, npat, pend, npend, 0);
}

unsigned long long vproc_wait_wake_any(const vproc_pattern *pat, uint32_t npat,
                                       const vproc_pending *pend, uint32_t npend)
{
	return wake_of(pat, npat, pend, npend, 1);
}

/* A blocked rank wakes when its pending messages end its wait
 * (vproc_wait_wake), not before its clock; without them it wakes only on a
 * message not sent yet. */
static vproc_event own_wake(const vproc_order_rank *s, int r)
{
	vproc_event e = { s->wake, r };
	if (s->wake != VPROC_NEVER && s->vt > s->wake)
		e.t = s->vt;
	return e;
}

vproc_event vproc_order_horizon(const vproc_order_rank *ranks, int n, int me)
{
	vproc_event g = { VPROC_NEVER, n };
	for (int r = 0; r < n; r++) {
		const vproc_order_rank *s = &ranks[r];
		if (r == me || s->done)
			continue;
		vproc_event term = s->blocked ? own_wake(s, r) : (vproc_event){ s->vt, r };
		if (vproc_event_before(term, g))
			g = term;
	}
	return g;
}

vproc_event vproc_order_bound(const vproc_order_rank *ranks, int r, vproc_event g)
{
	const vproc_order_rank *s = &ranks[r];
	vproc_event own = { s->vt, r };
	if (s->done)
		return (vproc_event){ VPROC_NEVER, r };
	if (!s->blocked)
		return own;
	vproc_event w = { s->wake, r };
	if (vproc_event_before(g, w))
		w = g;   /* woken by a message not sent yet: after its sender's event */
	return vproc_event_before(own, w) ? w : own;
}

int vproc_order_past(const vproc_order_rank *ranks, int r, vproc_event g, vproc_event e)
{
	return !vproc_event_before(vproc_order_bound(ranks, r, g), e);
}

int vproc_order_blocker(const vproc_order_rank *ranks, int n, int r, vproc_event g)
{
	const vproc_order_rank *s = &ranks[r];
	if (s->done || !s->blocked || g.rank < 0 || g.rank >= n)
		return r;
	vproc_event own = { s->vt, r }, w = { s->wake, r };
	/* the bound is g when g < w and own < g (vproc_order_bound) */
	return vproc_event_before(g, w) && vproc_event_before(own, g) ? g.rank : r;
}
