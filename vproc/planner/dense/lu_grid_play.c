/*
 * lu_grid_play.c -- see lu_grid_play.h.  Process (p, q)'s program, step k
 * of PDGETRF's loop (pdgetrf.f: columns lo = k nb on, kb of them, the
 * panel on process row pk = k mod P, column qk = k mod Q):
 *   PDGETF2 on column qk (pdgetf2.f: per column PDAMAX, PDSWAP, PDGER's
 *     pivot row down the column): in bulk phases (panel()), each the
 *     column's processes waiting for their ports and for each other, then
 *     paying a share of vproc_lu_panel_parts' communication and computing
 *     their share of the rank-1 updates;
 *   its pivots along row p by BLACS's split ring (IGEBS2D / IGEBR2D);
 *   PDLASWP, column q: row pk exchanges with each row holding some of the
 *     panel's pivots (vproc_lu_swap_chain: both send, then receive), and
 *     the chain's other latencies make its partners on other machines
 *     wait for each other (a synchronisation, each leaving at its own
 *     expected last exchange);
 *   PDTRSM on row pk (lu_row_play.h, as pdtrsm_ chooses; PB_CptrsmAB's L11
 *     in PILAENV blocks, each broadcast along the row and solved on its
 *     own: each block's solve can queue behind a sibling's update);
 *   PDGEMM (PB_CpgemmAB): L21 along row p by the split ring, U12 down
 *     column q (PDGETRF's column-wise ' ': MPI_Bcast, two levels as the
 *     runtime's coll.c sends it; the increasing ring when pdgemm_ forces
 *     its topologies, kb and n - lo2 above PILAENV), then the update.
 * Per column, its MPI_Bcast tree from a root and its PDLASWP chain of a
 * step are kept (caches below), so a step costs O(P Q) besides its events.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "event_play.h"
#include "lu_grid_play.h"
#include "lu_play.h"
#include "lu_row_play.h"

/* The panel in bulk phases (panel()): the first column's four message
 * phases, each waiting for the ports; the other columns in at most
 * PANEL_CHUNKS chunks, each waiting for the ports, then its rank-1
 * updates.  Synchronisation keys: KEYS a step, the swap chain's at 0 (+ q),
 * the first column's at 4..7, the chunks' at 8..8 + PANEL_CHUNKS - 1. */
#define PANEL_WAITS 4
#define PANEL_CHUNKS 16
#define KEYS 32

enum { PH_PANEL, PH_PIVOTS, PH_SWAPS, PH_TRSM, PH_L21, PH_END };

typedef struct {
	size_t group;            /* PB_CptrsmB's pieces a message (vproc_lu_piece_group) */
	size_t panel_k;          /* the step whose panel times are below */
	double panel_first_ns, panel_rest_ns;   /* its first column's communication, the others' */
	size_t w_k;              /* the step whose pivot weight is in w */
	double w;
	size_t *swap_k;          /* [Q] the step of column q's chain below */
	size_t *swap_m;          /* [Q] row pk's partners on other machines */
	double *swap_rest;       /* [Q] the chain's other latencies, ns */
	size_t *bc_root;         /* [Q] the root of column q's tree below */
	size_t *nlead;           /* [Q] */
	size_t *lead, *ilead;    /* [Q P] the leaders (rows) from the root; a row's index among them */
	size_t *order;           /* [Q P] the rows, machine by machine, each from the root */
	size_t *gstart, *gsize, *gidx;   /* [Q P] a row's machine's place in order, size, its index */
	size_t *mark, *cnt, *base;       /* [nmachines] scratch */
	size_t stamp;
} grid_ctx;

static size_t rows_from(const vproc_lu_platform *pl, size_t lo, size_t p)
{
	return vproc_cyclic_owned_from(lo, pl->n, pl->b, p, pl->P);
}

static size_t cols_from(const vproc_lu_platform *pl, size_t lo, size_t q)
{
	return vproc_cyclic_owned_from(lo, pl->n, pl->b, q, pl->Q);
}

/* ---- MPI_Bcast down column q ---- */

/* Column q's two-level tree from row root (coll.c, tree_make): the
 * leaders, the first met of each machine in cyclic order from the root,
 * and each machine's members in the same order, its leader first. */
static void tree_make(const vproc_lu_platform *pl, grid_ctx *g, size_t q, size_t root)
{
	size_t P = pl->P, Q = pl->Q, o = q * P, nl = 0, off = 0, st = ++g->stamp;
	for (size_t h = 0; h < P; h++) {
		size_t p = (root + h) % P, m = pl->machine[p * Q + q];
		g->ilead[o + p] = SIZE_MAX;
		if (g->mark[m] != st) {
			g->mark[m] = st;
			g->cnt[m] = 0;
			g->ilead[o + p] = nl;
			g->lead[o + nl++] = p;
		}
		g->gidx[o + p] = g->cnt[m]++;
	}
	for (size_t i = 0; i < nl; i++) {
		size_t m = pl->machine[g->lead[o + i] * Q + q];
		g->base[m] = off;
		off += g->cnt[m];
	}
	for (size_t p = 0; p < P; p++) {
		size_t m = pl->machine[p * Q + q];
		g->gstart[o + p] = g->base[m];
		g->gsize[o + p] = g->cnt[m];
		g->order[o + g->base[m] + g->gidx[o + p]] = p;
	}
	g->nlead[q] = nl;
	g->bc_root[q] = root;
}

/* The member `me` of list[0..n) (rows of column q) in coll.c's
 * bcast_list: it receives once from its parent, then sends to its
 * children, the farthest first. */
static void bcast_list(vproc_eplay *e, size_t q, const size_t *list, size_t n, size_t me,
                       double bytes)
{
	size_t Q = e->pl->Q, i = list[me] * Q + q, mask = 1;
	for (; mask < n; mask <<= 1)
		if (me & mask) {
			vproc_eplay_add(e, i, VPROC_EP_RECV, list[me - mask] * Q + q, 0);
			break;
		}
	for (mask >>= 1; mask > 0; mask >>= 1)
		if (me + mask < n)
			vproc_eplay_add(e, i, VPROC_EP_SEND, list[me + mask] * Q + q, bytes);
}

/* (p, q)'s part of MPI_Bcast down column q from row root: among the
 * machines' leaders, then inside its machine. */
static void col_bcast(vproc_eplay *e, grid_ctx *g, size_t p, size_t q, size_t root, double bytes)
{
	size_t o = q * e->pl->P;
	if (g->bc_root[q] != root)
		tree_make(e->pl, g, q, root);
	if (g->ilead[o + p] != SIZE_MAX)
		bcast_list(e, q, g->lead + o, g->nlead[q], g->ilead[o + p], bytes);
	bcast_list(e, q, g->order + o + g->gstart[o + p], g->gsize[o + p], g->gidx[o + p], bytes);
}

/* (p, q)'s part of the increasing ring down column q (BI_IdringBS / BR). */
static void col_ring(vproc_eplay *e, size_t p, size_t q, size_t root, double bytes)
{
	size_t P = e->pl->P, Q = e->pl->Q, d = (p + P - root) % P;
	if (d > 0)
		vproc_eplay_add(e, p * Q + q, VPROC_EP_RECV, (p + P - 1) % P * Q + q, 0);
	if (d + 1 < P)
		vproc_eplay_add(e, p * Q + q, VPROC_EP_SEND, (p + 1) % P * Q + q, bytes);
}

/* ---- PDLASWP down column q ---- */

static double weight(const vproc_lu_platform *pl, grid_ctx *g, size_t k, size_t lo, size_t kb)
{
	if (g->w_k != k) {
		g->w = vproc_lu_pivot_weight(pl, lo, kb);
		g->w_k = k;
	}
	return g->w;
}

/* Column q's passes over the pivots (lu_play.c, swaps: one per PDLASWP
 * call with columns in q) and each pass's row bytes. */
static double swap_calls(const vproc_lu_platform *pl, size_t lo, size_t kb, size_t q, double *row_bytes)
{
	double left = (double)vproc_cyclic_owned_from(0, lo, pl->b, q, pl->Q);
	double right = (double)cols_from(pl, lo + kb, q);
	double calls = (left > 0) + (right > 0);
	*row_bytes = calls > 0 ? 8.0 * (left + right) / calls : 0;
	return calls;
}

/* Column q's chain at step k: row pk's partners on other machines and the
 * chain's other latencies (vproc_lu_swap_chain, chain_rest). */
static void chain_plan(const vproc_lu_platform *pl, grid_ctx *g, size_t k, size_t q, double calls,
                       double w, size_t lo, size_t kb)
{
	size_t P = pl->P, Q = pl->Q, pk = k % P, a = pk * Q + q, m = 0;
	double n = 0, sq = 0;
	for (size_t h = 1; h < P; h++) {
		size_t x = (pk + h) % P * Q + q;
		double c = calls * vproc_lu_pivots_on(pl, lo, kb, w, (pk + h) % P);
		if (c <= 0 || pl->machine[x] == pl->machine[a])
			continue;
		m++;
		n += c;
		sq += c * c;
	}
	double rest = m ? (n * sqrt(2.0 / (n * n / sq + 1.0)) - 1.0) * vproc_vsim_latency(pl, pl->machine[a]) : 0;
	g->swap_k[q] = k;
	g->swap_m[q] = rest > 0 ? m : 0;
	g->swap_rest[q] = rest > 0 ? rest * 1e9 : 0;
}

/* (p, q)'s part of PDLASWP at step k: row pk exchanges with each row
 * holding pivots (both send, then receive), then the partners on other
 * machines wait for each other and the chain's other latencies: row pk
 * all of them, a partner with c of the pivots the expected place of its
 * last exchange in the chain, c / (c + 1) of it (the last of c uniform
 * places).  Let all go at the chain's end, the partners tied, and the
 * lowest rank moved first: on soak case 64 the column's U12 leader
 * (row pk + 1, the lowest) then had its L21 first through the siblings'
 * shared port, where the runtime's partners left PDLASWP some us apart. */
static void swaps(vproc_eplay *e, grid_ctx *g, size_t p, size_t q, size_t k, size_t lo, size_t kb)
{
	const vproc_lu_platform *pl = e->pl;
	size_t P = pl->P, Q = pl->Q, pk = k % P, a = pk * Q + q, i = p * Q + q;
	double row_bytes, calls = swap_calls(pl, lo, kb, q, &row_bytes);
	if (calls <= 0)
		return;
	double w = weight(pl, g, k, lo, kb);
	if (g->swap_k[q] != k)
		chain_plan(pl, g, k, q, calls, w, lo, kb);
	int member = p == pk;
	double share = 1.0;   /* of the chain's rest: row pk waits for all of it */
	for (size_t h = p == pk ? 1 : (p + P - pk) % P; h < P; h++) {
		size_t x = (pk + h) % P * Q + q;
		double c = calls * vproc_lu_pivots_on(pl, lo, kb, w, (pk + h) % P);
		if (c > 0) {
			vproc_eplay_add(e, i, VPROC_EP_SEND, p == pk ? x : a, row_bytes * c);
			vproc_eplay_add(e, i, VPROC_EP_RECV, p == pk ? x : a, 0);
			member |= pl->machine[x] != pl->machine[a];
			share = p == pk ? 1.0 : c / (c + 1.0);
		}
		if (p != pk)
			break;   /* x is (p, q) itself */
	}
	if (member && g->swap_m[q] > 0)
		vproc_eplay_sync(e, i, KEYS * k * Q + q, g->swap_m[q] + 1, share * g->swap_rest[q]);
}

/* ---- the program ---- */

/* The first process below (p, q) in its column, cyclically, on another
 * machine; (p, q) itself when there is none. */
static size_t other_machine(const vproc_lu_platform *pl, size_t p, size_t q)
{
	size_t P = pl->P, Q = pl->Q, m = pl->machine[p * Q + q];
	for (size_t h = 1; h < P; h++)
		if (pl->machine[(p + h) % P * Q + q] != m)
			return (p + h) % P * Q + q;
	return p * Q + q;
}

/* Column qk's panel at step k (PDGETF2), in bulk phases: per column the
 * runtime sends PDAMAX's combine and its broadcast, PDSWAP's exchange and
 * PDGER's pivot row, each message from its sender's port, then every
 * process updates its rows, on its machine's processor.  The play: the
 * column's processes wait for their ports and for each other, four times
 * a quarter of the first column's communication, then book that column's
 * rank-1 update; then the other kb - 1 columns in up to PANEL_CHUNKS
 * chunks alike (the ports, each other, the chunk's communication, its
 * updates).  A DGER waits there behind a sibling's update begun before
 * (the trace of 3 x 3 processes on 2 x 2 machines: step 2's first DGER
 * 416 us behind its sibling's PDGEMM, the column's others waiting in
 * PDAMAX), and a message behind a sibling's L21 or U12 on the port (soak
 * case 53: 1.5 ms, then again 0.6 ms, in the first column); in one bulk
 * phase both overlapped the column's communication (case 64 1.095, case
 * 53 1.043; with the chunks 0.998 and 1.006). */
static void panel(vproc_eplay *e, grid_ctx *g, size_t p, size_t k, size_t lo, size_t kb)
{
	const vproc_lu_platform *pl = e->pl;
	size_t P = pl->P, Q = pl->Q, qk = k % Q, i = p * Q + qk;
	if (g->panel_k != k) {
		double first, all = vproc_lu_panel_parts(&e->s, lo, kb, k % P, qk, &first);
		g->panel_first_ns = first * 1e9;
		g->panel_rest_ns = (all - first) * 1e9;
		g->panel_k = k;
	}
	double f0 = vproc_lu_dger_flops(pl, lo, 0, kb, p);
	double rest = vproc_lu_panel_flops(pl, lo, kb, p) - f0;
	size_t x = other_machine(pl, p, qk), chunks = kb - 1 < PANEL_CHUNKS ? kb - 1 : PANEL_CHUNKS;
	for (size_t w = 0; w < PANEL_WAITS; w++) {
		if (x != i)
			vproc_eplay_add(e, i, VPROC_EP_PORT, x, 16.0);
		vproc_eplay_sync(e, i, (KEYS * k + 4 + w) * Q + qk, P, g->panel_first_ns / PANEL_WAITS);
	}
	vproc_eplay_add(e, i, VPROC_EP_COMPUTE, 0, f0);
	for (size_t c = 0; c < chunks; c++) {
		if (x != i)
			vproc_eplay_add(e, i, VPROC_EP_PORT, x, 16.0);
		vproc_eplay_sync(e, i, (KEYS * k + 8 + c) * Q + qk, P, g->panel_rest_ns / (double)chunks);
		vproc_eplay_add(e, i, VPROC_EP_COMPUTE, 0, rest / (double)chunks);
	}
}

/* PDGEMM: L21 along row p, U12 down column q, (p, q)'s update. */
static void update(vproc_eplay *e, grid_ctx *g, size_t p, size_t q, size_t k, size_t lo2, size_t kb)
{
	const vproc_lu_platform *pl = e->pl;
	size_t pk = k % pl->P, qk = k % pl->Q;
	double rows = (double)rows_from(pl, lo2, p), cols = (double)cols_from(pl, lo2, q);
	vproc_lu_row_sring(e, p, q, qk, 8.0 * rows * (double)kb);
	if (kb > VPROC_LU_PILAENV && pl->n - lo2 > VPROC_LU_PILAENV)
		col_ring(e, p, q, pk, 8.0 * cols * (double)kb);
	else
		col_bcast(e, g, p, q, pk, 8.0 * cols * (double)kb);
	vproc_eplay_add(e, p * pl->Q + q, VPROC_EP_COMPUTE, 0, 2.0 * rows * cols * (double)kb);
}

/* Expand (p, q)'s next phase into its ops; 0 when its program is over. */
static int expand(vproc_eplay *e, size_t i)
{
	const vproc_lu_platform *pl = e->pl;
	grid_ctx *g = e->ctx;
	vproc_ep_proc *pr = &e->proc[i];
	size_t Q = pl->Q, p = i / Q, q = i % Q, k = pr->k, lo = k * pl->b;
	if (lo >= pl->n)
		return 0;
	size_t kb = pl->n - lo < pl->b ? pl->n - lo : pl->b, lo2 = lo + kb, pk = k % pl->P;
	switch (pr->phase) {
	case PH_PANEL:
		if (q == k % Q)
			panel(e, g, p, k, lo, kb);
		pr->phase = PH_PIVOTS;
		break;
	case PH_PIVOTS:
		vproc_lu_row_sring(e, p, q, k % Q, 4.0 * (double)kb);
		pr->phase = PH_SWAPS;
		break;
	case PH_SWAPS:
		swaps(e, g, p, q, k, lo, kb);
		pr->phase = lo2 < pl->n ? PH_TRSM : PH_END;
		break;
	case PH_TRSM:
		if (p != pk || vproc_lu_row_trsm(e, p, q, lo2, kb, k % Q, g->group))
			pr->phase = PH_L21;
		break;
	case PH_L21:
		update(e, g, p, q, k, lo2, kb);
		pr->phase = PH_END;
		break;
	default:
		pr->k++;
		pr->phase = PH_PANEL;
	}
	return 1;
}

static void ctx_free(grid_ctx *g)
{
	free(g->swap_k);
	free(g->swap_m);
	free(g->swap_rest);
	free(g->bc_root);
	free(g->nlead);
	free(g->lead);
	free(g->mark);
}

/* The caches, empty (no step, no root). */
static vproc_status ctx_init(grid_ctx *g, const vproc_lu_platform *pl)
{
	size_t P = pl->P, Q = pl->Q, nm = pl->nmachines;
	*g = (grid_ctx){ .group = vproc_lu_piece_group(pl), .panel_k = SIZE_MAX, .w_k = SIZE_MAX };
	g->swap_k = malloc(Q * sizeof *g->swap_k);
	g->swap_m = malloc(Q * sizeof *g->swap_m);
	g->swap_rest = malloc(Q * sizeof *g->swap_rest);
	g->bc_root = malloc(Q * sizeof *g->bc_root);
	g->nlead = malloc(Q * sizeof *g->nlead);
	g->lead = malloc(6 * P * Q * sizeof *g->lead);
	g->mark = calloc(3 * nm, sizeof *g->mark);
	if (!g->swap_k || !g->swap_m || !g->swap_rest || !g->bc_root || !g->nlead || !g->lead || !g->mark) {
		ctx_free(g);
		return VPROC_ENOMEM;
	}
	g->ilead = g->lead + P * Q;
	g->order = g->ilead + P * Q;
	g->gstart = g->order + P * Q;
	g->gsize = g->gstart + P * Q;
	g->gidx = g->gsize + P * Q;
	g->cnt = g->mark + nm;
	g->base = g->cnt + nm;
	for (size_t q = 0; q < Q; q++)
		g->swap_k[q] = g->bc_root[q] = SIZE_MAX;
	return VPROC_OK;
}

vproc_status vproc_lu_grid_play_time(const vproc_lu_platform *pl, vproc_vsim_phase *begin,
                                     vproc_vsim_phase *end, vproc_lu_seconds *out)
{
	if (out == NULL || pl == NULL || pl->P < 2 || vproc_lu_platform_check(pl) != VPROC_OK)
		return VPROC_EINVAL;
	grid_ctx g;
	vproc_eplay e;
	vproc_status st = ctx_init(&g, pl);
	if (st != VPROC_OK)
		return st;
	st = vproc_eplay_init(&e, pl, expand, &g);
	if (st == VPROC_OK)
		st = vproc_eplay_time(&e, begin, end, out);
	ctx_free(&g);
	return st;
}
