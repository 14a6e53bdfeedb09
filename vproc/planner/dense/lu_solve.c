/*
 * lu_solve.c -- see lu_solve.h.
 */
#include <math.h>

#include "lu_play.h"
#include "lu_solve.h"

static size_t rows_in(const vproc_lu_platform *pl, size_t lo, size_t hi, size_t p)
{
	return vproc_cyclic_owned_from(lo, hi, pl->b, p, pl->P);
}

static size_t cols_in(const vproc_lu_platform *pl, size_t lo, size_t hi, size_t q)
{
	return vproc_cyclic_owned_from(lo, hi, pl->b, q, pl->Q);
}

/* PDLAPIV (PDLAPV2, forward, row pivots): per block of b rows, its
 * process row pk broadcasts the block's pivots down each process column
 * (IGEBS2D 'Columnwise' ' ': MPI_Bcast); then each pivot on another
 * process row swaps x's two entries (PDSWAP of two one-element rows on
 * x's process column 0: both owners send, then receive, pdswap_.c), a
 * chain at pk (vproc_lu_swap_chain).  The other process columns only
 * receive the pivots, then wait in PDTRSM for column 0: off the path,
 * left out. */
static void lapiv(vproc_vsim *s)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q;
	for (size_t lo = 0; lo < pl->n && P > 1; lo += pl->b) {
		size_t kb = pl->n - lo < pl->b ? pl->n - lo : pl->b, pk = lo / pl->b % P;
		vproc_vsim_bcast(s, 0, Q, P, pk, 4.0 * (double)kb);
		vproc_lu_swap_chain(s, lo, kb, vproc_lu_pivot_weight(pl, lo, kb), pk, 0, 1.0, 8.0);
	}
}

/* One b-block of x in PB_Cptrsm, cut to its logical block: rows [a, e),
 * on process row r and process column c. */
typedef struct {
	size_t a, e, r, c;
} piece;

/* One call of PB_Cptrsm: the logical block [lo, hi), solved forward (L)
 * or backward (up, U). */
typedef struct {
	vproc_vsim *s;
	size_t lo, hi;
	int up;
} block;

/* The piece after `done` rows of the block, in the solve's order. */
static piece next_piece(const block *k, size_t done)
{
	size_t b = k->s->pl->b, a, e;
	if (k->up) {
		e = k->hi - done;
		a = (e - 1) / b * b > k->lo ? (e - 1) / b * b : k->lo;
	} else {
		a = k->lo + done;
		e = (a / b + 1) * b < k->hi ? (a / b + 1) * b : k->hi;
	}
	return (piece){ a, e, a / b % k->s->pl->P, a / b % k->s->pl->Q };
}

/* The block's rows still to solve after piece x: PB_Cptrsm's look-ahead
 * window, the next (max(Q, 2) - 1) b rows, whose partial sums go on to
 * the next piece's column, is [s[0], s[1]); the rest, updated where they
 * are, [s[2], s[3]). */
static void ahead(const block *k, const piece *x, size_t s[4])
{
	size_t Q = k->s->pl->Q, n1 = ((Q > 2 ? Q : 2) - 1) * k->s->pl->b;
	if (k->up) {
		size_t w0 = x->a - k->lo > n1 ? x->a - n1 : k->lo;
		s[0] = w0, s[1] = x->a, s[2] = k->lo, s[3] = w0;
	} else {
		size_t w1 = k->hi - x->e > n1 ? x->e + n1 : k->hi;
		s[0] = x->e, s[1] = w1, s[2] = w1, s[3] = k->hi;
	}
}

/* The previous piece's column updates its rows of the window by that
 * piece (DGEMM) and, the column changing, sends them along each process
 * row to the new piece's column (PB_Cptrsm: "send partial updated result
 * to current column"). */
static void pass_window(const block *k, const piece *prev, const piece *cur)
{
	const vproc_lu_platform *pl = k->s->pl;
	size_t s[4], Q = pl->Q;
	ahead(k, prev, s);
	for (size_t p = 0; p < pl->P; p++) {
		double w = (double)rows_in(pl, s[0], s[1], p);
		if (w == 0)
			continue;
		vproc_vsim_compute(k->s, p * Q + prev->c, 2.0 * w * (double)(prev->e - prev->a));
		if (prev->c != cur->c)
			vproc_vsim_message(k->s, p * Q + prev->c, p * Q + cur->c, 8.0 * w);
	}
}

/* The piece's owner solves it (DTRSM, kb^2 flops) and rings it down its
 * process column: pdtrsm_ sets the column broadcast to the increasing
 * ring for L, the decreasing one for U, so that the next piece's row
 * gets it first. */
static void solve_piece(const block *k, const piece *x)
{
	const vproc_lu_platform *pl = k->s->pl;
	double kb = (double)(x->e - x->a);
	vproc_vsim_compute(k->s, x->r * pl->Q + x->c, kb * kb);
	if (pl->P > 1)
		vproc_vsim_ring(k->s, x->c, pl->Q, pl->P, x->r, k->up ? pl->P - 1 : 1, 8.0 * kb);
}

/* Then the previous piece's column updates the rest of its rows. */
static void finish_update(const block *k, const piece *prev)
{
	const vproc_lu_platform *pl = k->s->pl;
	size_t s[4];
	ahead(k, prev, s);
	for (size_t p = 0; p < pl->P; p++)
		vproc_vsim_compute(k->s, p * pl->Q + prev->c,
		                   2.0 * (double)rows_in(pl, s[2], s[3], p) * (double)(prev->e - prev->a));
}

/* PB_Cptrsm over the logical block, piece by piece: on its critical
 * path each piece waits for the previous one's first ring hop and for
 * the window sent along the new piece's row, two latencies when P and Q
 * exceed 1. */
static void ptrsm(const block *k)
{
	piece prev = { 0, 0, 0, 0 }, cur;
	for (size_t done = 0; done < k->hi - k->lo; done += cur.e - cur.a) {
		cur = next_piece(k, done);
		if (done > 0)
			pass_window(k, &prev, &cur);
		solve_piece(k, &cur);
		if (done > 0)
			finish_update(k, &prev);
		prev = cur;
	}
}

/* PB_CptrsmB between logical blocks: every process updates its rows of
 * the next block [nlo, nhi) by its columns of this one, the sums meet
 * along each process row at the column of the next block's first piece
 * (DGSUM2D ROW ' ': MPI_Reduce; none on one process column, where x is
 * whole), then it updates its other rows. */
static void between(const block *k, size_t nlo, size_t nhi)
{
	const vproc_lu_platform *pl = k->s->pl;
	size_t P = pl->P, Q = pl->Q, root = (k->up ? nhi - 1 : nlo) / pl->b % Q;
	for (size_t p = 0; p < P; p++) {
		double next = (double)rows_in(pl, nlo, nhi, p);
		double rest = (double)(k->up ? rows_in(pl, 0, nlo, p) : rows_in(pl, nhi, pl->n, p));
		for (size_t q = 0; q < Q; q++)
			vproc_vsim_compute(k->s, p * Q + q, 2.0 * next * (double)cols_in(pl, k->lo, k->hi, q));
		if (Q > 1 && next > 0)
			vproc_vsim_reduce(k->s, p * Q, 1, Q, root, 8.0 * next);
		for (size_t q = 0; q < Q; q++)
			vproc_vsim_compute(k->s, p * Q + q, 2.0 * rest * (double)cols_in(pl, k->lo, k->hi, q));
	}
}

/* PB_CInOutV2 before U, when A's last column is not on x's column 0:
 * each process row's part of x to process column q (Cgesd2d). */
static void to_column(vproc_vsim *s, size_t q)
{
	const vproc_lu_platform *pl = s->pl;
	for (size_t p = 0; p < pl->P; p++)
		vproc_vsim_message(s, p * pl->Q, p * pl->Q + q, 8.0 * (double)rows_in(pl, 0, pl->n, p));
}

/* PB_CptrsmB's last DGSUM2D: the pieces scattered over the process
 * columns summed along each process row into x's column 0 (MPI_Reduce). */
static void gather(vproc_vsim *s)
{
	const vproc_lu_platform *pl = s->pl;
	for (size_t p = 0; p < pl->P; p++) {
		double rows = (double)rows_in(pl, 0, pl->n, p);
		if (rows > 0)
			vproc_vsim_reduce(s, p * pl->Q, 1, pl->Q, 0, 8.0 * rows);
	}
}

static size_t lcm(size_t a, size_t b)
{
	size_t x = a, y = b;
	while (y) {
		size_t t = x % y;
		x = y;
		y = t;
	}
	return a / x * b;
}

/* One PDTRSM of PDGETRS (Left, No transpose, M = n, N = 1): pdtrsm_.c
 * takes PB_CptrsmB (only x moves; its cost test ABestR <= 2 Best fails
 * for N = 1 whenever P Q > 1 and nb > 2), which solves x's logical
 * blocks of 2 PILAENV lcm(P, Q) rows in the solve's order.  On one
 * process, a local DTRSM (n^2 flops). */
static void trsv(vproc_vsim *s, int up)
{
	const vproc_lu_platform *pl = s->pl;
	size_t n = pl->n, span = 2 * VPROC_LU_PILAENV * lcm(pl->P, pl->Q);
	size_t nblk = (n + span - 1) / span;
	if (pl->P * pl->Q == 1) {
		vproc_vsim_compute(s, 0, (double)n * (double)n);
		return;
	}
	if (up && (n - 1) / pl->b % pl->Q != 0)
		to_column(s, (n - 1) / pl->b % pl->Q);
	for (size_t i = 0; i < nblk; i++) {
		size_t j = up ? nblk - 1 - i : i, nj = up ? j - 1 : j + 1;
		block k = { s, j * span, (j + 1) * span < n ? (j + 1) * span : n, up };
		ptrsm(&k);
		if (i + 1 < nblk)
			between(&k, nj * span, (nj + 1) * span < n ? (nj + 1) * span : n);
		vproc_vsim_forget(s);
	}
	if (pl->Q > 1)
		gather(s);
}

void vproc_lu_getrs(vproc_vsim *s)
{
	vproc_vsim_globchk(s);   /* PCHK2MAT */
	lapiv(s);
	vproc_vsim_forget(s);
	trsv(s, 0);
	trsv(s, 1);
}

double vproc_lu_getrs_events(const vproc_lu_platform *pl)
{
	double P = (double)pl->P, PQ = P * (double)pl->Q;
	double M = (double)((pl->n + pl->b - 1) / pl->b);
	double span = 2.0 * VPROC_LU_PILAENV * (double)lcm(pl->P, pl->Q);
	double blocks = ceil((double)pl->n / span);
	/* PDLAPIV's broadcast and exchanges a block; per piece of each
	 * solve the window's P updates and messages, the solve, its ring,
	 * the P finishing updates; between blocks and at the end 3 P Q */
	return 3.0 * P * M + 2.0 * ((M + blocks) * (4.0 * P + 1.0) + 3.0 * PQ * blocks) + 3.0 * PQ;
}
