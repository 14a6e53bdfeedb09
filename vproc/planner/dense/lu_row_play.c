/*
 * lu_row_play.c -- see lu_row_play.h.  Process q's program, step k of
 * PDGETRF's loop (pdgetrf.f: columns lo = k nb on, kb = min(nb, n - lo)
 * of them, the panel on process column qk = k mod Q):
 *   PDGETF2: with one process row DGETF2 on qk alone (pdgetf2.f), no MPI
 *     call, so its flops join qk's compute segment of the update before;
 *   its pivots along the row by BLACS's split ring (IGEBS2D / IGEBR2D,
 *     BI_SringBS / BI_SringBR);
 *   PDLASWP: local on one process row, nothing booked;
 *   PDTRSM as pdtrsm_ chooses (vproc_lu_trsm_ab): PB_CptrsmAB, L11 along
 *     the row (the increasing ring pdtrsm_ forces above PILAENV, else the
 *     split ring), then each process solves its columns; or PB_CptrsmB,
 *     each process's block row in pieces of about PILAENV columns to
 *     qk, which solves each and sends it back, process after process;
 *   PDGEMM (PB_CpgemmAB): L21 along the row by the split ring, then each
 *     process's update (U12 stays where it is: one process row).
 * A phase's ops are expanded when the process reaches it (at most a ring's
 * three, or the pieces of one process), so memory stays O(Q).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "lu_play.h"
#include "lu_row_play.h"
#include "vsim.h"

#define PB_NB VPROC_LU_PILAENV   /* PILAENV (lu_play.h) */

enum { OP_COMPUTE, OP_SEND, OP_RECV, OP_DELAY };
enum { PH_PANEL, PH_PIVOTS, PH_TRSM, PH_L21, PH_END };

typedef struct {
	int kind;
	size_t peer;
	double amount;   /* flops, bytes, or ns (OP_DELAY) */
} row_op;

typedef struct {
	row_op *op;      /* the ops of the phase it is in */
	size_t n, next, cap;
	size_t k;        /* its step */
	int phase;       /* the next phase to expand */
	size_t h;        /* PB_CptrsmB at qk: the next process served */
	double pending;  /* compute flops since its last MPI call */
	size_t waits;    /* blocked on a receive from this process, or SIZE_MAX */
	size_t mail, tail;   /* its messages not received yet, oldest first */
} row_proc;

typedef struct {
	unsigned long long arrival;
	size_t src, next;
} row_msg;

typedef struct {
	unsigned long long t;
	size_t q;
} row_key;

typedef struct {
	vproc_vsim s;
	const vproc_lu_platform *pl;
	row_proc *proc;          /* [Q] */
	row_key *heap;           /* the processes free to move, by (clock, rank) */
	size_t nheap;
	row_msg *msg;
	size_t nmsg, capmsg, free_msg;
	size_t group;            /* PB_CptrsmB's pieces one message books */
	unsigned long long now;  /* the event played: nothing books before it */
	int nomem;
} row_play;

/* ---- the order: smallest clock first, ties by rank ---- */

/* The heap keeps each process's clock with it (the clock of a process in
 * the heap does not move): a comparison reads no other memory. */
static int earlier(row_key a, row_key b)
{
	return a.t < b.t || (a.t == b.t && a.q < b.q);
}

static void heap_push(row_play *r, size_t q)
{
	row_key k = { r->s.clock[q], q };
	size_t i = r->nheap++;
	while (i > 0 && earlier(k, r->heap[(i - 1) / 2])) {
		r->heap[i] = r->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	r->heap[i] = k;
}

static size_t heap_pop(row_play *r)
{
	size_t top = r->heap[0].q, i = 0;
	row_key last = r->heap[--r->nheap];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= r->nheap)
			break;
		if (c + 1 < r->nheap && earlier(r->heap[c + 1], r->heap[c]))
			c++;
		if (!earlier(r->heap[c], last))
			break;
		r->heap[i] = r->heap[c];
		i = c;
	}
	if (r->nheap > 0)
		r->heap[i] = last;
	return top;
}

/* Is q, at its clock now, still ahead of every process in the heap? */
static int first(const row_play *r, size_t q)
{
	row_key k = { r->s.clock[q], q };
	return r->nheap == 0 || earlier(k, r->heap[0]);
}

/* ---- the programs ---- */

/* arr, *cap elements of `size` bytes and full, doubled (first when empty):
 * the new array, or NULL with arr and *cap as they were and r->nomem set. */
static void *grow(row_play *r, void *arr, size_t *cap, size_t size, size_t first)
{
	size_t n = *cap ? 2 * *cap : first;
	void *a = realloc(arr, n * size);
	if (a == NULL)
		r->nomem = 1;
	else
		*cap = n;
	return a;
}

static void add(row_play *r, row_proc *p, int kind, size_t peer, double amount)
{
	if (p->n == p->cap) {
		row_op *op = grow(r, p->op, &p->cap, sizeof *op, 8);
		if (op == NULL)
			return;
		p->op = op;
	}
	p->op[p->n++] = (row_op){ kind, peer, amount };
}

/* q's part of the split ring (BI_SringBS / BR) from root: the root sends
 * right, then left; up to Q / 2 away the processes forward to their right,
 * beyond Q / 2 + 1 to their left (lu_play.c, vproc_lu_sring). */
static void sring(row_play *r, size_t q, size_t root, double bytes)
{
	size_t Q = r->pl->Q, half = Q / 2, d = (q + Q - root) % Q;
	row_proc *p = &r->proc[q];
	if (Q < 2)
		return;
	if (d == 0) {
		add(r, p, OP_SEND, (q + 1) % Q, bytes);
		if (Q >= 3)
			add(r, p, OP_SEND, (q + Q - 1) % Q, bytes);
	} else if (d <= half) {
		add(r, p, OP_RECV, (q + Q - 1) % Q, 0);
		if (d < half)
			add(r, p, OP_SEND, (q + 1) % Q, bytes);
	} else {
		add(r, p, OP_RECV, (q + 1) % Q, 0);
		if (d > half + 1)
			add(r, p, OP_SEND, (q + Q - 1) % Q, bytes);
	}
}

/* q's part of the increasing ring (BI_IdringBS / BR, step +1). */
static void iring(row_play *r, size_t q, size_t root, double bytes)
{
	size_t Q = r->pl->Q, d = (q + Q - root) % Q;
	row_proc *p = &r->proc[q];
	if (d > 0)
		add(r, p, OP_RECV, (q + Q - 1) % Q, 0);
	if (d + 1 < Q)
		add(r, p, OP_SEND, (q + 1) % Q, bytes);
}

static size_t cols_from(const vproc_lu_platform *pl, size_t lo, size_t q)
{
	return vproc_cyclic_owned_from(lo, pl->n, pl->b, q, pl->Q);
}

/* PB_CptrsmB's next message of the `left` columns still to go, in pieces
 * of nbb columns (about PILAENV), r->group of them at most: its columns,
 * and its pieces in *c. */
static size_t next_group(const row_play *r, size_t *left, size_t nbb, size_t *c)
{
	size_t w = 0;
	for (*c = 0; *c < r->group && *left > 0; (*c)++) {
		size_t piece = nbb < *left ? nbb : *left;
		w += piece;
		*left -= piece;
	}
	return w;
}

static size_t piece_cols(size_t cols)
{
	return cols ? cols / ((cols - 1) / PB_NB + 1) : 0;
}

/* Process q (not L11's owner): each message of its pieces to the owner,
 * then the solved pieces back before the next. */
static void pieces(row_play *r, size_t q, size_t root, size_t kb, size_t cols)
{
	size_t nbb = piece_cols(cols), c;
	for (size_t left = cols; left > 0;) {
		size_t w = next_group(r, &left, nbb, &c);
		add(r, &r->proc[q], OP_SEND, root, 8.0 * (double)kb * (double)w);
		add(r, &r->proc[q], OP_RECV, root, 0);
	}
}

/* At L11's owner, the pieces of process x: each received, solved, and
 * sent back (its own solved in place); a message of c > 1 pieces adds the
 * c - 1 other round trips' latencies (lu_play.c, trsm_piece). */
static void serve(row_play *r, size_t x, size_t root, size_t kb, size_t cols)
{
	const vproc_lu_platform *pl = r->pl;
	size_t nbb = piece_cols(cols), m = pl->machine[x], c;
	row_proc *p = &r->proc[root];
	double lat = pl->bus ? pl->bus_latency_s : pl->latency_s ? pl->latency_s[m] : 0;
	for (size_t left = cols; left > 0;) {
		size_t w = next_group(r, &left, nbb, &c);
		double flops = (double)kb * (double)kb * (double)w;
		if (x == root) {
			add(r, p, OP_COMPUTE, 0, flops);
			continue;
		}
		add(r, p, OP_RECV, x, 0);
		add(r, p, OP_COMPUTE, 0, flops);
		if (c > 1 && m != pl->machine[root])
			add(r, p, OP_DELAY, 0, 2.0 * (double)(c - 1) * lat * 1e9);
		add(r, p, OP_SEND, x, 8.0 * (double)kb * (double)w);
	}
}

/* PDTRSM's part of q in step k. */
static void trsm(row_play *r, size_t q, size_t lo2, size_t kb, size_t qk)
{
	const vproc_lu_platform *pl = r->pl;
	row_proc *p = &r->proc[q];
	if (vproc_lu_trsm_ab(1, pl->Q, pl->b, kb, pl->n - lo2)) {
		double bytes = 8.0 * (double)kb * (double)kb;
		if (kb > PB_NB && pl->n - lo2 > PB_NB)
			iring(r, q, qk, bytes);
		else
			sring(r, q, qk, bytes);
		add(r, p, OP_COMPUTE, 0, (double)kb * (double)kb * (double)cols_from(pl, lo2, q));
		p->phase = PH_L21;
		return;
	}
	if (q != qk) {
		pieces(r, q, qk, kb, cols_from(pl, lo2, q));
		p->phase = PH_L21;
		return;
	}
	size_t x = ((lo2 / pl->b) + p->h) % pl->Q;   /* from the owner of B's first column */
	serve(r, x, qk, kb, cols_from(pl, lo2, x));
	if (++p->h == pl->Q) {
		p->h = 0;
		p->phase = PH_L21;
	}
}

/* DGETF2's rank-1 updates on rows x kb. */
static double panel_flops(size_t rows, size_t kb)
{
	double flops = 0;
	for (size_t j = 0; j < kb; j++)
		flops += 2.0 * (double)(rows - j) * (double)(kb - j);
	return flops;
}

/* Expand q's next phase into its ops; 0 when its program is over. */
static int expand(row_play *r, size_t q)
{
	const vproc_lu_platform *pl = r->pl;
	row_proc *p = &r->proc[q];
	p->n = p->next = 0;
	while (p->n == 0 && !r->nomem) {
		size_t lo = p->k * pl->b, qk = p->k % pl->Q;
		if (lo >= pl->n)
			return 0;
		size_t kb = pl->n - lo < pl->b ? pl->n - lo : pl->b, lo2 = lo + kb;
		switch (p->phase) {
		case PH_PANEL:
			if (q == qk)
				add(r, p, OP_COMPUTE, 0, panel_flops(pl->n - lo, kb));
			p->phase = PH_PIVOTS;
			break;
		case PH_PIVOTS:
			sring(r, q, qk, 4.0 * (double)kb);
			p->phase = lo2 < pl->n ? PH_TRSM : PH_END;
			break;
		case PH_TRSM:
			trsm(r, q, lo2, kb, qk);
			break;
		case PH_L21: {
			double rows = (double)(pl->n - lo2);
			sring(r, q, qk, 8.0 * rows * (double)kb);
			add(r, p, OP_COMPUTE, 0, 2.0 * rows * (double)cols_from(pl, lo2, q) * (double)kb);
			p->phase = PH_END;
			break;
		}
		default:
			p->k++;
			p->phase = PH_PANEL;
		}
	}
	return !r->nomem;
}

/* ---- the messages ---- */

static void mail_put(row_play *r, size_t to, size_t from, unsigned long long arrival)
{
	if (r->free_msg == SIZE_MAX) {
		if (r->nmsg == r->capmsg) {
			row_msg *m = grow(r, r->msg, &r->capmsg, sizeof *m, 64);
			if (m == NULL)
				return;
			r->msg = m;
		}
		r->free_msg = r->nmsg++;
		r->msg[r->free_msg].next = SIZE_MAX;
	}
	size_t i = r->free_msg;
	r->free_msg = r->msg[i].next;
	r->msg[i] = (row_msg){ arrival, from, SIZE_MAX };
	row_proc *p = &r->proc[to];
	if (p->mail == SIZE_MAX)
		p->mail = i;
	else
		r->msg[p->tail].next = i;
	p->tail = i;
}

/* The oldest message to q from `from`, taken out: its arrival, or 0 with
 * *found 0. */
static unsigned long long mail_take(row_play *r, size_t q, size_t from, int *found)
{
	row_proc *p = &r->proc[q];
	size_t prev = SIZE_MAX;
	for (size_t i = p->mail; i != SIZE_MAX; prev = i, i = r->msg[i].next) {
		if (r->msg[i].src != from)
			continue;
		if (prev == SIZE_MAX)
			p->mail = r->msg[i].next;
		else
			r->msg[prev].next = r->msg[i].next;
		if (p->tail == i)
			p->tail = prev;
		unsigned long long t = r->msg[i].arrival;
		r->msg[i].next = r->free_msg;
		r->free_msg = i;
		*found = 1;
		return t;
	}
	*found = 0;
	return 0;
}

/* A full calendar forgets what ends before the event played (the runtime
 * does so at half its size: vproc/runtime/core/vclock.c, book). */
static void room(vproc_calendar *c, unsigned long long now)
{
	if (c->n > c->cap / 2)
		vproc_cal_forget(c, now);
}

/* q's message to `to`: arrives at least 1 ns after q's clock, between
 * siblings too (the runtime's tick, vclock.c send_time); a receiver
 * blocked on it moves on. */
static void send(row_play *r, size_t q, size_t to, double bytes)
{
	const vproc_lu_platform *pl = r->pl;
	room(pl->bus ? &r->s.wire[0] : &r->s.wire[pl->machine[q]], r->now);
	unsigned long long t = vproc_vsim_send(&r->s, q, to, bytes);
	if (t <= r->s.clock[q])
		t = r->s.clock[q] + 1;
	row_proc *p = &r->proc[to];
	if (p->waits != q) {
		mail_put(r, to, q, t);
		return;
	}
	p->waits = SIZE_MAX;
	p->next++;
	r->s.clock[to] = vproc_vclock_receive(r->s.clock[to], t);
	heap_push(r, to);
}

/* ---- playing ---- */

/* Book q's compute since its last MPI call, as one segment from its clock. */
static void flush(row_play *r, size_t q)
{
	room(&r->s.cpu[r->pl->machine[q]], r->now);
	vproc_vsim_compute(&r->s, q, r->proc[q].pending);
	r->proc[q].pending = 0;
}

/* q's MPI call: its compute since the last one booked first (then the
 * call waits for its turn at the new clock), else the call itself.
 * 0 when q blocks on a receive whose message is not sent yet. */
static int act(row_play *r, size_t q, const row_op *op)
{
	row_proc *p = &r->proc[q];
	unsigned long long *clock = &r->s.clock[q];
	if (p->pending > 0) {
		flush(r, q);
		return 1;
	}
	if (op->kind == OP_RECV) {
		int found;
		unsigned long long t = mail_take(r, q, op->peer, &found);
		if (!found) {
			p->waits = op->peer;
			return 0;
		}
		*clock = vproc_vclock_receive(*clock, t);
	} else if (op->kind == OP_SEND) {
		send(r, q, op->peer, op->amount);
	} else {
		*clock += (unsigned long long)llround(op->amount);
	}
	p->next++;
	return 1;
}

/* q moves until it blocks, ends, or is no longer the earliest. */
static void move(row_play *r, size_t q)
{
	row_proc *p = &r->proc[q];
	for (;;) {
		if (p->next == p->n && !expand(r, q)) {
			if (p->pending > 0)
				flush(r, q);
			return;
		}
		const row_op *op = &p->op[p->next];
		if (op->kind == OP_COMPUTE) {
			p->pending += op->amount;
			p->next++;
			continue;
		}
		unsigned long long was = r->s.clock[q];
		if (!act(r, q, op) || r->nomem)
			return;
		if (r->s.clock[q] != was && !first(r, q)) {
			heap_push(r, q);
			return;
		}
	}
}

static vproc_status play(row_play *r)
{
	size_t Q = r->pl->Q;
	for (size_t q = 0; q < Q; q++) {
		r->proc[q].waits = r->proc[q].mail = r->proc[q].tail = SIZE_MAX;
		heap_push(r, q);
	}
	while (r->nheap > 0 && !r->nomem) {
		size_t q = heap_pop(r);
		r->now = r->s.clock[q];
		move(r, q);
	}
	if (r->nomem)
		return VPROC_ENOMEM;
	for (size_t q = 0; q < Q; q++)
		if (r->proc[q].waits != SIZE_MAX)
			return VPROC_EINVAL;   /* a receive never matched: a bug of the programs */
	return VPROC_OK;
}

vproc_status vproc_lu_row_play_time(const vproc_lu_platform *pl, vproc_vsim_phase *begin,
                                    vproc_vsim_phase *end, vproc_lu_seconds *out)
{
	if (out == NULL || pl == NULL || pl->P != 1)
		return VPROC_EINVAL;
	row_play r = { .pl = pl, .free_msg = SIZE_MAX, .group = vproc_lu_piece_group(pl) };
	vproc_status st = vproc_vsim_init(&r.s, pl);
	if (st != VPROC_OK)
		return st;
	r.proc = calloc(pl->Q, sizeof *r.proc);
	r.heap = calloc(pl->Q, sizeof *r.heap);
	if (r.proc && r.heap && begin)
		begin(&r.s);
	st = r.proc && r.heap ? play(&r) : VPROC_ENOMEM;
	if (st == VPROC_OK && end)
		end(&r.s);
	if (st == VPROC_OK) {
		out->total = vproc_vsim_last(&r.s);
		out->compute = vproc_vsim_busiest(&r.s);
		out->network = out->total - out->compute;
	}
	for (size_t q = 0; r.proc && q < pl->Q; q++)
		free(r.proc[q].op);
	free(r.proc);
	free(r.heap);
	free(r.msg);
	vproc_vsim_free(&r.s);
	return st;
}
