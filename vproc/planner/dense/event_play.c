/*
 * event_play.c -- see event_play.h.  The engine lu_row_play.c had for the
 * 1 x Q row, with the group synchronisations of the 2D play added.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "event_play.h"

/* ---- the order: smallest clock first, ties by index ---- */

/* The heap keeps each process's clock with it (the clock of a process in
 * the heap does not move): a comparison reads no other memory. */
static int earlier(vproc_ep_key a, vproc_ep_key b)
{
	return a.t < b.t || (a.t == b.t && a.i < b.i);
}

static void heap_push(vproc_eplay *e, size_t q)
{
	vproc_ep_key k = { e->s.clock[q], q };
	size_t i = e->nheap++;
	while (i > 0 && earlier(k, e->heap[(i - 1) / 2])) {
		e->heap[i] = e->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	e->heap[i] = k;
}

static size_t heap_pop(vproc_eplay *e)
{
	size_t top = e->heap[0].i, i = 0;
	vproc_ep_key last = e->heap[--e->nheap];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= e->nheap)
			break;
		if (c + 1 < e->nheap && earlier(e->heap[c + 1], e->heap[c]))
			c++;
		if (!earlier(e->heap[c], last))
			break;
		e->heap[i] = e->heap[c];
		i = c;
	}
	if (e->nheap > 0)
		e->heap[i] = last;
	return top;
}

/* Is q, at its clock now, still ahead of every process in the heap? */
static int first(const vproc_eplay *e, size_t q)
{
	vproc_ep_key k = { e->s.clock[q], q };
	return e->nheap == 0 || earlier(k, e->heap[0]);
}

/* ---- the programs ---- */

/* arr, *cap elements of `size` bytes and full, doubled (first when empty):
 * the new array, or NULL with arr and *cap as they were and e->nomem set. */
static void *grow(vproc_eplay *e, void *arr, size_t *cap, size_t size, size_t first)
{
	size_t n = *cap ? 2 * *cap : first;
	void *a = realloc(arr, n * size);
	if (a == NULL)
		e->nomem = 1;
	else
		*cap = n;
	return a;
}

static void add_op(vproc_eplay *e, size_t i, vproc_ep_op op)
{
	vproc_ep_proc *p = &e->proc[i];
	if (p->n == p->cap) {
		if (p->bigcap <= p->n) {
			vproc_ep_op *o = grow(e, p->big, &p->bigcap, sizeof *o, 2 * VPROC_EP_INLINE);
			if (o == NULL)
				return;
			p->big = o;
		}
		if (p->op == p->in)
			memcpy(p->big, p->in, sizeof p->in);
		p->op = p->big;
		p->cap = p->bigcap;
	}
	p->op[p->n++] = op;
}

void vproc_eplay_add(vproc_eplay *e, size_t i, int kind, size_t peer, double amount)
{
	add_op(e, i, (vproc_ep_op){ kind, peer, amount, 0 });
}

void vproc_eplay_sync(vproc_eplay *e, size_t i, size_t key, size_t count, double delay_ns)
{
	add_op(e, i, (vproc_ep_op){ VPROC_EP_SYNC, key, delay_ns, count });
}

/* Expand i's next phase (its op list emptied first). */
static int expand(vproc_eplay *e, size_t i)
{
	vproc_ep_proc *p = &e->proc[i];
	p->n = p->next = 0;
	p->op = p->in;
	p->cap = VPROC_EP_INLINE;
	while (p->n == 0 && !e->nomem)
		if (!e->expand(e, i))
			return 0;
	return !e->nomem;
}

/* ---- the messages ---- */

static void mail_put(vproc_eplay *e, size_t to, size_t from, unsigned long long arrival)
{
	if (e->free_msg == SIZE_MAX) {
		if (e->nmsg == e->capmsg) {
			vproc_ep_msg *m = grow(e, e->msg, &e->capmsg, sizeof *m, 64);
			if (m == NULL)
				return;
			e->msg = m;
		}
		e->free_msg = e->nmsg++;
		e->msg[e->free_msg].next = SIZE_MAX;
	}
	size_t i = e->free_msg;
	e->free_msg = e->msg[i].next;
	e->msg[i] = (vproc_ep_msg){ arrival, from, SIZE_MAX };
	vproc_ep_proc *p = &e->proc[to];
	if (p->mail == SIZE_MAX)
		p->mail = i;
	else
		e->msg[p->tail].next = i;
	p->tail = i;
}

/* The oldest message to q from `from`, taken out: its arrival, or 0 with
 * *found 0. */
static unsigned long long mail_take(vproc_eplay *e, size_t q, size_t from, int *found)
{
	vproc_ep_proc *p = &e->proc[q];
	size_t prev = SIZE_MAX;
	for (size_t i = p->mail; i != SIZE_MAX; prev = i, i = e->msg[i].next) {
		if (e->msg[i].src != from)
			continue;
		if (prev == SIZE_MAX)
			p->mail = e->msg[i].next;
		else
			e->msg[prev].next = e->msg[i].next;
		if (p->tail == i)
			p->tail = prev;
		unsigned long long t = e->msg[i].arrival;
		e->msg[i].next = e->free_msg;
		e->free_msg = i;
		*found = 1;
		return t;
	}
	*found = 0;
	return 0;
}

/* A calendar forgets what ends before the event played: nothing is booked
 * before it (every booking is at a clock of the process played, which is
 * the earliest), so what it forgets could not change any booking; a short
 * calendar keeps the bookings' searches short (the runtime forgets at half
 * its size: vproc/runtime/core/vclock.c, book; at half of 1024 here the 2D
 * play of 1024 processors spent a quarter of its time searching). */
static void room(vproc_calendar *c, unsigned long long now)
{
	if (c->n > 16)
		vproc_cal_forget(c, now);
}

/* q's message to `to`: arrives at least 1 ns after q's clock, between
 * siblings too (the runtime's tick, vclock.c send_time); a receiver
 * blocked on it moves on. */
static void send(vproc_eplay *e, size_t q, size_t to, double bytes)
{
	const vproc_lu_platform *pl = e->pl;
	room(pl->bus ? &e->s.wire[0] : &e->s.wire[pl->machine[q]], e->now);
	unsigned long long t = vproc_vsim_send(&e->s, q, to, bytes);
	if (t <= e->s.clock[q])
		t = e->s.clock[q] + 1;
	vproc_ep_proc *p = &e->proc[to];
	if (p->waits != q) {
		mail_put(e, to, q, t);
		return;
	}
	p->waits = SIZE_MAX;
	p->next++;
	e->s.clock[to] = vproc_vclock_receive(e->s.clock[to], t);
	heap_push(e, to);
}

/* The earliest time from `ready` on at which cal has a gap of `wire` ns
 * (vproc_cal_transfer's choice), nothing booked. */
static unsigned long long free_from(const vproc_calendar *cal, unsigned long long ready,
                                    unsigned long long wire)
{
	unsigned long long t = ready;
	for (size_t j = 0; j < cal->n; j++) {
		if (cal->iv[j].end <= t)
			continue;
		if (cal->iv[j].start >= t + wire)
			break;
		t = cal->iv[j].end;
	}
	return t;
}

/* q waits until its port (or the bus) could start a message of op's bytes
 * to op's peer; nothing is booked (the play's bulk phase counts its
 * messages' time, and booking them would hold q's own next send). */
static void port_wait(vproc_eplay *e, size_t q, const vproc_ep_op *op)
{
	const vproc_lu_platform *pl = e->pl;
	size_t m = pl->machine[q];
	double bw = pl->bus ? pl->bus_bytes_per_s : pl->bytes_per_s ? pl->bytes_per_s[m] : 0;
	if (m == pl->machine[op->peer] || bw <= 0)
		return;
	const vproc_calendar *cal = pl->bus ? &e->s.wire[0] : &e->s.wire[m];
	unsigned long long wire = (unsigned long long)llround(op->amount / bw * 1e9);
	e->s.clock[q] = free_from(cal, e->s.clock[q], wire);
}

/* ---- the synchronisations ---- */

/* The slot of the synchronisation `key`, opened when q is its first. */
static size_t sync_slot(vproc_eplay *e, const vproc_ep_op *op)
{
	size_t free_slot = SIZE_MAX;
	for (size_t j = 0; j < e->nsync; j++) {
		if (e->sync[j].used && e->sync[j].key == op->peer)
			return j;
		if (!e->sync[j].used && free_slot == SIZE_MAX)
			free_slot = j;
	}
	if (free_slot == SIZE_MAX) {
		if (e->nsync == e->capsync) {
			vproc_ep_sync *s = grow(e, e->sync, &e->capsync, sizeof *s, 16);
			if (s == NULL)
				return SIZE_MAX;
			e->sync = s;
		}
		free_slot = e->nsync++;
	}
	e->sync[free_slot] = (vproc_ep_sync){ op->peer, op->count, 0, SIZE_MAX, 0, 1 };
	return free_slot;
}

/* q comes to a synchronisation: 0 when it waits for the others; the last
 * lets all go (the waiters back in the heap), each at the latest clock
 * plus its own delay. */
static int sync_come(vproc_eplay *e, size_t q, const vproc_ep_op *op)
{
	size_t j = sync_slot(e, op);
	if (j == SIZE_MAX)
		return 0;
	vproc_ep_sync *s = &e->sync[j];
	unsigned long long c = e->s.clock[q];
	s->latest = c > s->latest ? c : s->latest;
	if (++s->arrived < s->need) {
		e->proc[q].in_sync = j;
		e->proc[q].sync_delay = op->amount;
		e->sync_next[q] = s->first;
		s->first = q;
		return 0;
	}
	for (size_t w = s->first; w != SIZE_MAX; w = e->sync_next[w]) {
		e->s.clock[w] = s->latest + (unsigned long long)llround(e->proc[w].sync_delay);
		e->proc[w].in_sync = SIZE_MAX;
		e->proc[w].next++;
		heap_push(e, w);
	}
	s->used = 0;
	e->s.clock[q] = s->latest + (unsigned long long)llround(op->amount);
	return 1;
}

/* ---- playing ---- */

/* Book q's compute since its last MPI call, as one segment from its clock. */
static void flush(vproc_eplay *e, size_t q)
{
	room(&e->s.cpu[e->pl->machine[q]], e->now);
	vproc_vsim_compute(&e->s, q, e->proc[q].pending);
	e->proc[q].pending = 0;
}

/* q's MPI call: its compute since the last one booked first (then the
 * call waits for its turn at the new clock), else the call itself.
 * 0 when q blocks on a receive whose message is not sent yet, or in a
 * synchronisation. */
static int act(vproc_eplay *e, size_t q, const vproc_ep_op *op)
{
	vproc_ep_proc *p = &e->proc[q];
	unsigned long long *clock = &e->s.clock[q];
	if (p->pending > 0) {
		flush(e, q);
		return 1;
	}
	if (op->kind == VPROC_EP_RECV) {
		int found;
		unsigned long long t = mail_take(e, q, op->peer, &found);
		if (!found) {
			p->waits = op->peer;
			return 0;
		}
		*clock = vproc_vclock_receive(*clock, t);
	} else if (op->kind == VPROC_EP_SEND) {
		send(e, q, op->peer, op->amount);
	} else if (op->kind == VPROC_EP_PORT) {
		port_wait(e, q, op);
	} else if (op->kind == VPROC_EP_SYNC) {
		if (!sync_come(e, q, op))
			return 0;
	} else {
		*clock += (unsigned long long)llround(op->amount);
	}
	p->next++;
	return 1;
}

/* q moves until it blocks, ends, or is no longer the earliest. */
static void move(vproc_eplay *e, size_t q)
{
	vproc_ep_proc *p = &e->proc[q];
	for (;;) {
		if (p->next == p->n && !expand(e, q)) {
			if (p->pending > 0)
				flush(e, q);
			return;
		}
		const vproc_ep_op *op = &p->op[p->next];
		if (op->kind == VPROC_EP_COMPUTE) {
			p->pending += op->amount;
			p->next++;
			continue;
		}
		unsigned long long was = e->s.clock[q];
		if (!act(e, q, op) || e->nomem)
			return;
		if (e->s.clock[q] != was && !first(e, q)) {
			heap_push(e, q);
			return;
		}
	}
}

vproc_status vproc_eplay_run(vproc_eplay *e)
{
	for (size_t q = 0; q < e->np; q++)
		heap_push(e, q);
	while (e->nheap > 0 && !e->nomem) {
		size_t q = heap_pop(e);
		e->now = e->s.clock[q];
		move(e, q);
	}
	if (e->nomem)
		return VPROC_ENOMEM;
	for (size_t q = 0; q < e->np; q++)
		if (e->proc[q].waits != SIZE_MAX || e->proc[q].in_sync != SIZE_MAX)
			return VPROC_EINVAL;   /* never matched: a bug of the programs */
	return VPROC_OK;
}

vproc_status vproc_eplay_init(vproc_eplay *e, const vproc_lu_platform *pl, vproc_ep_expand *program,
                              void *ctx)
{
	*e = (vproc_eplay){ .pl = pl, .free_msg = SIZE_MAX, .expand = program, .ctx = ctx };
	vproc_status st = vproc_vsim_init(&e->s, pl);
	if (st != VPROC_OK)
		return st;
	e->np = pl->P * pl->Q;
	e->proc = calloc(e->np, sizeof *e->proc);
	e->heap = calloc(e->np, sizeof *e->heap);
	e->sync_next = calloc(e->np, sizeof *e->sync_next);
	if (!e->proc || !e->heap || !e->sync_next) {
		vproc_eplay_free(e);
		return VPROC_ENOMEM;
	}
	for (size_t q = 0; q < e->np; q++) {
		vproc_ep_proc *p = &e->proc[q];
		p->waits = p->mail = p->tail = p->in_sync = SIZE_MAX;
		p->op = p->in;
		p->cap = VPROC_EP_INLINE;
	}
	return VPROC_OK;
}

void vproc_eplay_free(vproc_eplay *e)
{
	for (size_t q = 0; e->proc && q < e->np; q++)
		free(e->proc[q].big);
	free(e->proc);
	free(e->heap);
	free(e->sync_next);
	free(e->msg);
	free(e->sync);
	vproc_vsim_free(&e->s);
	*e = (vproc_eplay){ 0 };
}

vproc_status vproc_eplay_time(vproc_eplay *e, vproc_vsim_phase *begin, vproc_vsim_phase *end,
                              vproc_lu_seconds *out)
{
	if (begin)
		begin(&e->s);
	vproc_status st = vproc_eplay_run(e);
	if (st == VPROC_OK && end)
		end(&e->s);
	if (st == VPROC_OK) {
		out->total = vproc_vsim_last(&e->s);
		out->compute = vproc_vsim_busiest(&e->s);
		out->network = out->total - out->compute;
	}
	vproc_eplay_free(e);
	return st;
}
