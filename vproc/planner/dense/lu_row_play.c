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
 * three, or the pieces of one process), so memory stays O(Q).  The engine
 * (the order, the messages, the segments) is event_play.c's; the row's
 * pieces (the split and increasing rings, PDTRSM) serve lu_grid_play.c on
 * process row pk of a P x Q grid too: process (p, q) is p Q + q.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "lu_play.h"
#include "lu_row_play.h"

#define PB_NB VPROC_LU_PILAENV   /* PILAENV (lu_play.h) */

enum { PH_PANEL, PH_PIVOTS, PH_TRSM, PH_L21, PH_END };

static void add(vproc_eplay *e, size_t i, int kind, size_t peer, double amount)
{
	vproc_eplay_add(e, i, kind, peer, amount);
}

void vproc_lu_row_sring(vproc_eplay *e, size_t p, size_t q, size_t root, double bytes)
{
	size_t Q = e->pl->Q, half = Q / 2, d = (q + Q - root) % Q, i = p * Q + q, row = p * Q;
	if (Q < 2)
		return;
	if (d == 0) {
		add(e, i, VPROC_EP_SEND, row + (q + 1) % Q, bytes);
		if (Q >= 3)
			add(e, i, VPROC_EP_SEND, row + (q + Q - 1) % Q, bytes);
	} else if (d <= half) {
		add(e, i, VPROC_EP_RECV, row + (q + Q - 1) % Q, 0);
		if (d < half)
			add(e, i, VPROC_EP_SEND, row + (q + 1) % Q, bytes);
	} else {
		add(e, i, VPROC_EP_RECV, row + (q + 1) % Q, 0);
		if (d > half + 1)
			add(e, i, VPROC_EP_SEND, row + (q + Q - 1) % Q, bytes);
	}
}

/* (p, q)'s part of the increasing ring along its row (BI_IdringBS / BR,
 * step +1). */
static void iring(vproc_eplay *e, size_t p, size_t q, size_t root, double bytes)
{
	size_t Q = e->pl->Q, d = (q + Q - root) % Q, i = p * Q + q, row = p * Q;
	if (d > 0)
		add(e, i, VPROC_EP_RECV, row + (q + Q - 1) % Q, 0);
	if (d + 1 < Q)
		add(e, i, VPROC_EP_SEND, row + (q + 1) % Q, bytes);
}

static size_t cols_from(const vproc_lu_platform *pl, size_t lo, size_t q)
{
	return vproc_cyclic_owned_from(lo, pl->n, pl->b, q, pl->Q);
}

/* PB_CptrsmB's next message of the `left` columns still to go, in pieces
 * of nbb columns (about PILAENV), `group` of them at most: its columns,
 * and its pieces in *c. */
static size_t next_group(size_t group, size_t *left, size_t nbb, size_t *c)
{
	size_t w = 0;
	for (*c = 0; *c < group && *left > 0; (*c)++) {
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

/* Process x (not L11's owner): each message of its pieces to the owner,
 * then the solved pieces back before the next. */
static void pieces(vproc_eplay *e, size_t x, size_t root, size_t kb, size_t cols, size_t group)
{
	size_t nbb = piece_cols(cols), c;
	for (size_t left = cols; left > 0;) {
		size_t w = next_group(group, &left, nbb, &c);
		add(e, x, VPROC_EP_SEND, root, 8.0 * (double)kb * (double)w);
		add(e, x, VPROC_EP_RECV, root, 0);
	}
}

/* At L11's owner, the pieces of process x: each received, solved, and
 * sent back (its own solved in place); a message of c > 1 pieces adds the
 * c - 1 other round trips' latencies (lu_play.c, trsm_piece). */
static void serve(vproc_eplay *e, size_t x, size_t root, size_t kb, size_t cols, size_t group)
{
	const vproc_lu_platform *pl = e->pl;
	size_t nbb = piece_cols(cols), m = pl->machine[x], c;
	double lat = pl->bus ? pl->bus_latency_s : pl->latency_s ? pl->latency_s[m] : 0;
	for (size_t left = cols; left > 0;) {
		size_t w = next_group(group, &left, nbb, &c);
		double flops = (double)kb * (double)kb * (double)w;
		if (x == root) {
			add(e, root, VPROC_EP_COMPUTE, 0, flops);
			continue;
		}
		add(e, root, VPROC_EP_RECV, x, 0);
		add(e, root, VPROC_EP_COMPUTE, 0, flops);
		if (c > 1 && m != pl->machine[root])
			add(e, root, VPROC_EP_DELAY, 0, 2.0 * (double)(c - 1) * lat * 1e9);
		add(e, root, VPROC_EP_SEND, x, 8.0 * (double)kb * (double)w);
	}
}

/* PB_CptrsmAB on row p: L11 along the row from column qk, then (p, q)'s
 * solve of its columns, in PILAENV blocks (PB_CptrsmAB.c,
 * Left Lower: for each block of kbb <= PILAENV of L11's columns, the
 * kb - k rows below its top broadcast along the row, the block's solve
 * and the update of the rows below it, kbb^2 + 2 (kb - k - kbb) kbb flops
 * a column: kb^2 in all). */
static void trsm_ab(vproc_eplay *e, size_t p, size_t q, size_t lo2, size_t kb, size_t qk)
{
	const vproc_lu_platform *pl = e->pl;
	size_t i = p * pl->Q + q, step = PB_NB;
	double cols = (double)cols_from(pl, lo2, q);
	for (size_t k = 0; k < kb; k += step) {
		size_t kbb = kb - k < step ? kb - k : step, rows = kb - k;
		double bytes = 8.0 * (double)rows * (double)kbb;
		if (kb > PB_NB && pl->n - lo2 > PB_NB)
			iring(e, p, q, qk, bytes);
		else
			vproc_lu_row_sring(e, p, q, qk, bytes);
		double flops = (double)kbb * (double)kbb + 2.0 * (double)(rows - kbb) * (double)kbb;
		add(e, i, VPROC_EP_COMPUTE, 0, flops * cols);
	}
}

int vproc_lu_row_trsm(vproc_eplay *e, size_t p, size_t q, size_t lo2, size_t kb, size_t qk,
                      size_t group)
{
	const vproc_lu_platform *pl = e->pl;
	size_t Q = pl->Q, i = p * Q + q, root = p * Q + qk;
	vproc_ep_proc *pr = &e->proc[i];
	if (vproc_lu_trsm_ab(pl->P, Q, pl->b, kb, pl->n - lo2)) {
		trsm_ab(e, p, q, lo2, kb, qk);
		return 1;
	}
	if (q != qk) {
		pieces(e, i, root, kb, cols_from(pl, lo2, q), group);
		return 1;
	}
	size_t x = ((lo2 / pl->b) + pr->h) % Q;   /* from the owner of B's first column */
	serve(e, p * Q + x, root, kb, cols_from(pl, lo2, x), group);
	if (++pr->h == Q) {
		pr->h = 0;
		return 1;
	}
	return 0;
}

/* Expand q's next phase into its ops (event_play.h); 0 when its program
 * is over. */
static int expand(vproc_eplay *e, size_t q)
{
	const vproc_lu_platform *pl = e->pl;
	vproc_ep_proc *p = &e->proc[q];
	size_t lo = p->k * pl->b, qk = p->k % pl->Q, group = *(const size_t *)e->ctx;
	if (lo >= pl->n)
		return 0;
	size_t kb = pl->n - lo < pl->b ? pl->n - lo : pl->b, lo2 = lo + kb;
	switch (p->phase) {
	case PH_PANEL:
		if (q == qk)
			add(e, q, VPROC_EP_COMPUTE, 0, vproc_lu_panel_flops(pl, lo, kb, 0));
		p->phase = PH_PIVOTS;
		break;
	case PH_PIVOTS:
		vproc_lu_row_sring(e, 0, q, qk, 4.0 * (double)kb);
		p->phase = lo2 < pl->n ? PH_TRSM : PH_END;
		break;
	case PH_TRSM:
		if (vproc_lu_row_trsm(e, 0, q, lo2, kb, qk, group))
			p->phase = PH_L21;
		break;
	case PH_L21: {
		double rows = (double)(pl->n - lo2);
		vproc_lu_row_sring(e, 0, q, qk, 8.0 * rows * (double)kb);
		add(e, q, VPROC_EP_COMPUTE, 0, 2.0 * rows * (double)cols_from(pl, lo2, q) * (double)kb);
		p->phase = PH_END;
		break;
	}
	default:
		p->k++;
		p->phase = PH_PANEL;
	}
	return 1;
}

vproc_status vproc_lu_row_play_time(const vproc_lu_platform *pl, vproc_vsim_phase *begin,
                                    vproc_vsim_phase *end, vproc_lu_seconds *out)
{
	if (out == NULL || pl == NULL || pl->P != 1)
		return VPROC_EINVAL;
	size_t group = vproc_lu_piece_group(pl);
	vproc_eplay e;
	vproc_status st = vproc_eplay_init(&e, pl, expand, &group);
	return st != VPROC_OK ? st : vproc_eplay_time(&e, begin, end, out);
}
