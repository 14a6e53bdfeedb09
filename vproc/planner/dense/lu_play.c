/*
 * lu_play.c -- see lu_play.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "colplay.h"
#include "lu_play.h"
#include "vsim.h"

/* Columns of global index >= lo that process column q owns. */
static size_t cols_from(const vproc_lu_platform *pl, size_t lo, size_t q)
{
	return vproc_cyclic_owned_from(lo, pl->n, pl->b, q, pl->Q);
}

static size_t rows_from(const vproc_lu_platform *pl, size_t lo, size_t p)
{
	return vproc_cyclic_owned_from(lo, pl->n, pl->b, p, pl->P);
}

double vproc_lu_dger_flops(const vproc_lu_platform *pl, size_t lo, size_t j, size_t kb, size_t p)
{
	if (j + 1 >= kb)
		return 0;
	return 2.0 * (double)rows_from(pl, lo + j + 1, p) * (double)(kb - j - 1);
}

double vproc_lu_panel_flops(const vproc_lu_platform *pl, size_t lo, size_t kb, size_t p)
{
	double flops = 0;
	for (size_t j = 0; j < kb; j++)
		flops += vproc_lu_dger_flops(pl, lo, j, kb, p);
	return flops;
}

double vproc_lu_pivot_weight(const vproc_lu_platform *pl, size_t lo, size_t kb)
{
	double w = 0;
	for (size_t K = lo; K < lo + kb && K < pl->n; K++)
		w += 1.0 / (double)(pl->n - K);
	return w;
}

double vproc_lu_pivots_on(const vproc_lu_platform *pl, size_t lo, size_t kb, double w, size_t x)
{
	return (double)rows_from(pl, lo + kb, x) * w;
}

/* BLACS's split ring (BI_SringBS, BI_SringBR) along process row p from
 * column root: the root sends to its right, then to its left; the processes
 * up to distance Q/2 forward to their right, those beyond Q/2 + 1 to their
 * left, each after it has the message. */
void vproc_lu_sring(vproc_vsim *s, size_t p, size_t root, double bytes)
{
	size_t Q = s->pl->Q, half = Q / 2, row = p * Q;
	if (Q < 2)
		return;
	for (size_t d = 0; d < half; d++)   /* right: d -> d + 1 */
		vproc_vsim_message(s, row + (root + d) % Q, row + (root + d + 1) % Q, bytes);
	if (Q < 3)
		return;
	vproc_vsim_message(s, row + root, row + (root + Q - 1) % Q, bytes);
	for (size_t d = Q - 1; d > half + 1; d--)   /* left: d -> d - 1 */
		vproc_vsim_message(s, row + (root + d) % Q, row + (root + d - 1) % Q, bytes);
}

/* One column of PDGETF2, played on clocks alone (colplay.h): PDAMAX's
 * inlined 1-tree combine to process row 0 and row 0's broadcast of
 * (value, index) (PBLAS pdamax_.c, default topologies); PDSWAP's
 * exchange of the kb-word row between row pk and the pivot's row piv
 * (both send, then receive); PDGER's pivot row from pk down the column
 * (PDGETRF sets the column-wise broadcast to ' ', MPI_Bcast), unless
 * the rows it updates are all on row pk: in the last panel PB_CInV.c
 * finds the pivot row where the update is and sends nothing (case 42's
 * column of 3 processes: 2 latencies a column there, 3 played before;
 * doc/design/predictions.md). */
typedef struct {
	size_t kb, pk, piv, qk;
	int alone;   /* the rows below the panel's pivots are all on row pk */
} lu_col;

static void col_play(vproc_vsim *s, const void *arg)
{
	const lu_col *c = arg;
	vproc_col_tree(s, c->qk, 16.0);
	vproc_col_bcast(s, c->qk, 0, 16.0);
	if (c->piv != c->pk) {
		unsigned long long a = s->aux[c->pk];
		vproc_col_send(s, c->qk, c->piv, c->pk, 8.0 * (double)c->kb);
		unsigned long long got = s->aux[c->pk];
		s->aux[c->pk] = a;
		vproc_col_send(s, c->qk, c->pk, c->piv, 8.0 * (double)c->kb);
		s->aux[c->pk] = got;
	}
	if (!c->alone)
		vproc_col_bcast(s, c->qk, c->pk, 4.0 * (double)c->kb);   /* the row's kb - j - 1 words, kb / 2 on average */
}

/* The fraction of the panel's pivots (rows [lo, lo + kb), process row
 * pk, column qk) expected on process rows of other machines than pk's
 * (vproc_lu_pivots_on): PDSWAP's exchange with a row on pk's own machine
 * costs the runtime a tick, not a latency. */
static double across(const vproc_lu_platform *pl, size_t lo, size_t kb, size_t pk, size_t qk)
{
	size_t Q = pl->Q, m = pl->machine[pk * Q + qk];
	double w = vproc_lu_pivot_weight(pl, lo, kb), c = 0;
	for (size_t h = 1; h < pl->P; h++) {
		size_t x = (pk + h) % pl->P;
		if (pl->machine[x * Q + qk] != m)
			c += vproc_lu_pivots_on(pl, lo, kb, w, x);
	}
	return c / (double)kb;
}

/* The exchange's partner: the first row from half the column away on
 * another machine than pk's (pk itself when there is none). */
static size_t partner(const vproc_lu_platform *pl, size_t pk, size_t qk)
{
	size_t P = pl->P, Q = pl->Q;
	for (size_t h = 0; h < P; h++) {
		size_t x = (pk + P / 2 + h) % P;
		if (pl->machine[x * Q + qk] != pl->machine[pk * Q + qk])
			return x;
	}
	return pk;
}

/* The kb columns' communication, seconds (vproc_col_seconds; lu_play.h): the times
 * with and without the pivot's exchange, weighted by how often the pivot
 * lies on another machine's process row (across()); the other row is
 * taken half the column away (partner()).  With 2 ranks of a column a
 * machine on alternate rows (a 2D panel's row pattern 1 0 1 0), the row
 * half the column away shares pk's machine: taking it made every swap
 * free, and the panel of n = 512, nb = 32 on 4 x 2 (4 machines) 2
 * latencies a column where the emulator's trace shows 2 to 4 (about 15
 * us at 5 us, the play 9.9). */
double vproc_lu_panel_seconds(vproc_vsim *s, size_t lo, size_t kb, size_t pk, size_t qk)
{
	double first;
	return vproc_lu_panel_parts(s, lo, kb, pk, qk, &first);
}

double vproc_lu_panel_parts(vproc_vsim *s, size_t lo, size_t kb, size_t pk, size_t qk, double *first)
{
	int alone = lo + kb >= s->pl->n;   /* the last panel: one row block */
	lu_col stay = { kb, pk, pk, qk, alone }, swap = { kb, pk, partner(s->pl, pk, qk), qk, alone };
	double x = across(s->pl, lo, kb, pk, qk), f0, f1;
	double t = (1.0 - x) * vproc_col_parts(s, kb, col_play, &stay, &f0) +
	           x * vproc_col_parts(s, kb, col_play, &swap, &f1);
	*first = (1.0 - x) * f0 + x * f1;
	return t;
}

/* PDGETF2 on process column qk, rows from lo, kb columns.  With P > 1,
 * per column: the pivot's search, its swap and the pivot row's broadcast
 * (col_play), each a synchronisation of the column: played in bulk (the
 * column's processes start together, pay col_seconds, then compute their
 * rank-1 updates) so that the model stays M P steps, not M b P (22 x 16
 * at n = 100 000 took 15 s to plan column by column; playing every
 * column's messages made configs/today-cluster.yaml's plan 5 times
 * slower).  Then the pivots along every row by PDGETRF's split ring
 * (IGEBS2D, 4 bytes a pivot). */
static void panel(vproc_vsim *s, size_t lo, size_t kb, size_t pk, size_t qk)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q;
	if (P > 1)
		vproc_col_start(s, qk, vproc_lu_panel_seconds(s, lo, kb, pk, qk));
	for (size_t p = 0; p < P; p++) {
		vproc_vsim_compute(s, p * Q + qk, vproc_lu_panel_flops(pl, lo, kb, p));
	}
	for (size_t p = 0; p < P; p++)
		vproc_lu_sring(s, p, qk, 4.0 * (double)kb);
}

/* The rest of a chain of n exchanges at process a, each latency lat,
 * with the m processes x of who[] (their c summing to n, their squares
 * to sq), whose first exchange with each is played: the others cost a
 * f(m') latencies each, m' = n^2 / sq the partners' effective number and
 * f(m) = sqrt(2 / (m + 1)) (vproc_lu_swap_chain); the partners end with a. */
static void chain_rest(vproc_vsim *s, size_t a, const size_t *who, size_t m, double n, double sq,
                       double lat)
{
	double rest = (n * sqrt(2.0 / (n * n / sq + 1.0)) - 1.0) * lat;
	if (rest <= 0)
		return;
	unsigned long long t = s->clock[a];
	for (size_t i = 0; i < m; i++)
		t = s->clock[who[i]] > t ? s->clock[who[i]] : t;
	t += (unsigned long long)llround(rest * 1e9);
	s->clock[a] = t;
	for (size_t i = 0; i < m; i++)
		s->clock[who[i]] = t;
}

void vproc_lu_swap_chain(vproc_vsim *s, size_t lo, size_t kb, double w, size_t pk, size_t q,
                         double calls, double row_bytes)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q, a = pk * Q + q, m = 0, *who = s->scratch;
	double n = 0, sq = 0;
	for (size_t h = 1; h < P; h++) {
		size_t x = (pk + h) % P * Q + q;
		double c = calls * vproc_lu_pivots_on(pl, lo, kb, w, (pk + h) % P);
		if (c <= 0)
			continue;
		vproc_vsim_exchange(s, a, x, row_bytes * c);
		if (pl->machine[x] == pl->machine[a])
			continue;   /* free inside a machine */
		who[m++] = x;
		n += c;
		sq += c * c;
	}
	if (m > 0)
		chain_rest(s, a, who, m, n, sq, vproc_vsim_latency(pl, pl->machine[a]));
}

/* PDLASWP (P > 1): its two calls, on the columns left of the panel and
 * those right of it; in each, every pivot on another process row than
 * the panel's swaps its row with row pk's in every process column that
 * owns some of the call's columns (pdswap_.c: a process column without
 * any returns).  So a process column's chain has a pass over the pivots
 * for each call it has columns in: none at all on step 0's panel
 * column, one on the first step's others (PDGETRF's first call has no
 * columns), two once both sides have some. */
static void swaps(vproc_vsim *s, size_t lo, size_t kb, size_t pk)
{
	const vproc_lu_platform *pl = s->pl;
	double w = vproc_lu_pivot_weight(pl, lo, kb);
	for (size_t q = 0; q < pl->Q; q++) {
		double left = (double)vproc_cyclic_owned_from(0, lo, pl->b, q, pl->Q);
		double right = (double)cols_from(pl, lo + kb, q);
		double calls = (left > 0) + (right > 0);
		if (calls > 0)
			vproc_lu_swap_chain(s, lo, kb, w, pk, q, calls, 8.0 * (left + right) / calls);
	}
}

/* pdtrsm_.c's choice for Left, Lower, No transpose, M = kb, N = ncols:
 * both operands communicated (PB_CptrsmAB) when ABestR <= 2 Best, else
 * only B (PB_CptrsmB). */
int vproc_lu_trsm_ab(size_t P, size_t Q, size_t b, size_t kb, size_t ncols)
{
	double m = (double)kb;
	double tmp1 = m, tmp4 = (double)vproc_cyclic_owned_from(0, ncols, b, 0, Q);
	if (P > 1)
		tmp1 = (double)vproc_cyclic_owned_from(0, kb, b, 0, P);
	double abest = m * ((Q == 1 ? 0.0 : tmp1 / 2.0) + (P == 1 ? 0.0 : tmp4));
	double itmp = (double)b;
	double best = (double)ncols * (ceil(m / itmp) * itmp * (P == 1 ? 0.0 : 1.0) +
	                               (Q == 1 ? 0.0 : 1.0));
	return abest <= 2.0 * best;
}

/* PB_CptrsmB's pieces over the whole factorization: about (n - lo) /
 * PILAENV + Q a step, n^2 / (2 b PILAENV) + M Q in all. */
static double trsm_pieces(const vproc_lu_platform *pl)
{
	double n = (double)pl->n, b = (double)pl->b, M = ceil(n / b);
	return n * n / (2.0 * b * VPROC_LU_PILAENV) + M * (double)pl->Q;
}

/* How many of PB_CptrsmB's pieces one message books: 1 (each piece on
 * its own) while the factorization has at most VPROC_LU_PLAY_PIECES of
 * them, else enough that it books about that many (a plan of n = 400 000,
 * nb = 64 on 384 ranks has 40 million, 1-2 s to play each). */
size_t vproc_lu_piece_group(const vproc_lu_platform *pl)
{
	if (pl->piece_group > 0)
		return pl->piece_group;
	double t = trsm_pieces(pl);
	return t > VPROC_LU_PLAY_PIECES ? (size_t)ceil(t / VPROC_LU_PLAY_PIECES) : 1;
}

/* One booked message of c pieces, w columns in all, from x to L11's owner
 * and back.  The pieces go one after another (the owner of a piece waits
 * for it before it sends the next), so a chain of c pieces pays c round
 * trips' latencies: the c - 1 not in the two messages are added at the
 * owner of L11, which makes x's return time the chain's, exactly when the
 * links are otherwise idle. */
static void trsm_piece(vproc_vsim *s, size_t x, size_t root, size_t kb, size_t w, size_t c)
{
	const vproc_lu_platform *pl = s->pl;
	double bytes = 8.0 * (double)kb * (double)w;
	if (x != root)
		vproc_vsim_message(s, x, root, bytes);
	vproc_vsim_compute(s, root, (double)kb * (double)kb * (double)w);
	size_t m = pl->machine[x];
	if (c > 1 && m != pl->machine[root]) {
		double extra = 2.0 * (double)(c - 1) * vproc_vsim_latency(pl, m);
		s->clock[root] += (unsigned long long)llround(extra * 1e9);
	}
	if (x != root)
		vproc_vsim_message(s, root, x, bytes);
}

/* PB_CptrsmB on a 1 x Q row: B's block row goes, process by process from
 * the owner of its first column, in pieces of about PILAENV columns to the
 * owner of L11 (column qk), which solves each and sends it back; the
 * owner of a piece waits for it before it sends the next.  So the solve
 * waits for every process of the row to be done with the step before. */
static void trsm_b(vproc_vsim *s, size_t lo2, size_t kb, size_t pk, size_t qk)
{
	const vproc_lu_platform *pl = s->pl;
	size_t Q = pl->Q, root = pk * Q + qk, g = vproc_lu_piece_group(pl);
	size_t first = (lo2 / pl->b) % Q;
	for (size_t h = 0; h < Q; h++) {
		size_t q = (first + h) % Q, cols = cols_from(pl, lo2, q), x = pk * Q + q;
		size_t nbb = cols ? cols / ((cols - 1) / VPROC_LU_PILAENV + 1) : 0;
		for (size_t left = cols; left > 0;) {
			size_t c = 0, w = 0;
			for (; c < g && left > 0; c++) {
				size_t piece = nbb < left ? nbb : left;
				w += piece;
				left -= piece;
			}
			trsm_piece(s, x, root, kb, w, c);
		}
	}
}

/* PB_CptrsmAB: L11 along row pk from column qk (an increasing ring when
 * pdtrsm_ forces the topology, M and N above PILAENV; else PDGETRF's split
 * ring), then every process of row pk solves its columns. */
static void trsm_ab(vproc_vsim *s, size_t lo2, size_t kb, size_t pk, size_t qk)
{
	const vproc_lu_platform *pl = s->pl;
	double bytes = 8.0 * (double)kb * (double)kb;
	if (kb > VPROC_LU_PILAENV && pl->n - lo2 > VPROC_LU_PILAENV)
		vproc_vsim_ring(s, pk * pl->Q, 1, pl->Q, qk, 1, bytes);
	else
		vproc_lu_sring(s, pk, qk, bytes);
	for (size_t q = 0; q < pl->Q; q++)
		vproc_vsim_compute(s, pk * pl->Q + q,
		                   (double)kb * (double)kb * (double)cols_from(pl, lo2, q));
}

/* PDGEMM (PB_CpgemmAB): L21 along every row by the split ring, U down
 * every column, then each process updates its rows x columns.  U goes by
 * PDGETRF's column-wise ' ' (MPI_Bcast) unless pdgemm_ forces its
 * topologies, when M, N and K all exceed PILAENV (ForceTop): then a
 * column-wise ' ' becomes the increasing ring (the row's S-ring stays).
 * With nb = 64 the trace shows U12 forwarded process by process down an
 * 8 x 1 column; with nb = 32 (K = 32) an MPI_Bcast. */
static void update(vproc_vsim *s, size_t lo2, size_t kb, size_t pk, size_t qk)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q;
	int ring = kb > VPROC_LU_PILAENV && pl->n - lo2 > VPROC_LU_PILAENV;
	for (size_t p = 0; p < P; p++)
		vproc_lu_sring(s, p, qk, 8.0 * (double)rows_from(pl, lo2, p) * (double)kb);
	for (size_t q = 0; q < Q && P > 1; q++) {
		double bytes = 8.0 * (double)cols_from(pl, lo2, q) * (double)kb;
		if (ring)
			vproc_vsim_ring(s, q, Q, P, pk, 1, bytes);
		else
			vproc_vsim_bcast(s, q, Q, P, pk, bytes);
	}
	for (size_t p = 0; p < P; p++)
		for (size_t q = 0; q < Q; q++)
			vproc_vsim_compute(s, p * Q + q, 2.0 * (double)rows_from(pl, lo2, p) *
			                                 (double)cols_from(pl, lo2, q) * (double)kb);
}

void vproc_lu_step(vproc_vsim *s, size_t k, size_t lo, size_t kb)
{
	const vproc_lu_platform *pl = s->pl;
	size_t pk = k % pl->P, qk = k % pl->Q, lo2 = lo + kb;
	panel(s, lo, kb, pk, qk);
	if (pl->P > 1)
		swaps(s, lo, kb, pk);
	if (lo2 >= pl->n)
		return;
	if (vproc_lu_trsm_ab(pl->P, pl->Q, pl->b, kb, pl->n - lo2))
		trsm_ab(s, lo2, kb, pk, qk);
	else
		trsm_b(s, lo2, kb, pk, qk);
	update(s, lo2, kb, pk, qk);
}

double vproc_lu_steps_events(const vproc_lu_platform *pl)
{
	double M = pl->b ? ceil((double)pl->n / (double)pl->b) : 0.0;
	double P = (double)pl->P, Q = (double)pl->Q, t = trsm_pieces(pl);
	/* a step: the panel's P rows of kb flop terms, its column play and
	 * P x Q ring hops, the swaps' 2 Q (P - 1), the update's 3 P Q; the
	 * solve's pieces three events each, grouped as piece_group() books
	 * them.  The column play
	 * (two times three columns of about 6 P clock updates, no calendar,
	 * a few ns each) counts as P events of 25-60 ns: counted as 24 P it
	 * put bench_plan's 2D plan of 4096 processors over the budget, and
	 * layout auto then kept a 1d plan predicted 65 times slower (2518 s
	 * against 38.8 s). */
	double pieces = t > VPROC_LU_PLAY_PIECES ? VPROC_LU_PLAY_PIECES + M * Q : t;
	double column_play = P > 1 ? P : 0.0;
	return M * (6.0 * P * Q + 2.0 * Q + column_play) + (double)pl->n * P + 3.0 * pieces;
}

