/*
 * lu_play.c -- see lu_play.h.
 */
#include <math.h>
#include <stdint.h>

#include "lu_play.h"
#include "lu_row_play.h"
#include "vsim.h"

/* PILAENV: PBLAS's logical block size (PBLAS/SRC/pilaenv.f returns 32),
 * which decides PDTRSM's topologies and PB_CptrsmB's pieces. */
#define PB_NB 32

/* Columns of global index >= lo that process column q owns. */
static size_t cols_from(const vproc_lu_platform *pl, size_t lo, size_t q)
{
	return vproc_cyclic_owned_from(lo, pl->n, pl->b, q, pl->Q);
}

static size_t rows_from(const vproc_lu_platform *pl, size_t lo, size_t p)
{
	return vproc_cyclic_owned_from(lo, pl->n, pl->b, p, pl->P);
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

/* BLACS's increasing ring (BI_IdringBS/BR, step +1) along row p. */
void vproc_lu_iring(vproc_vsim *s, size_t p, size_t root, double bytes)
{
	size_t Q = s->pl->Q, row = p * Q;
	for (size_t d = 0; d + 1 < Q; d++)
		vproc_vsim_message(s, row + (root + d) % Q, row + (root + d + 1) % Q, bytes);
}

/* Machine m's latency to the network, seconds (the bus's when shared). */
static double latency_of(const vproc_lu_platform *pl, size_t m)
{
	return pl->bus ? pl->bus_latency_s : pl->latency_s ? pl->latency_s[m] : 0;
}

/* PDGETF2's messages down process column qk, played on clocks alone
 * (s->aux, one per process row) to find the panel's communication time:
 * they are 16 bytes or a row of kb words, so the ports' bookings are left
 * out.
 * One message: b no earlier than a's clock plus the hop, 0 inside a
 * machine. */
static void col_send(vproc_vsim *s, size_t qk, size_t a, size_t b, double bytes)
{
	const vproc_lu_platform *pl = s->pl;
	size_t ma = pl->machine[a * pl->Q + qk], mb = pl->machine[b * pl->Q + qk];
	unsigned long long t = s->aux[a];
	if (ma != mb) {
		double bw = pl->bus ? pl->bus_bytes_per_s : pl->bytes_per_s ? pl->bytes_per_s[ma] : 0;
		t += (unsigned long long)llround((latency_of(pl, ma) + (bw > 0 ? bytes / bw : 0)) * 1e9);
	}
	s->aux[b] = t > s->aux[b] ? t : s->aux[b];
}

/* MPI_Bcast down the column from row r over vproc_vsim_bcast's tree (one
 * leader per machine, met in order from the root, then free inside each
 * machine); on clocks without the sender's hold the sends' order does not
 * matter. */
static void col_bcast(vproc_vsim *s, size_t qk, size_t r, double bytes)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q, *lead = s->scratch, *lead_of = s->scratch + P * Q;
	size_t nl = vproc_vsim_leaders(s, qk, Q, P, r, lead, lead_of);
	for (size_t i = 1; i < nl; i++)
		col_send(s, qk, lead[i & (i - 1)] / Q, lead[i] / Q, bytes);
	for (size_t x = 0; x < P; x++) {
		size_t l = lead_of[pl->machine[x * Q + qk]] / Q;
		s->aux[x] = s->aux[l] > s->aux[x] ? s->aux[l] : s->aux[x];
	}
}

/* One column of PDGETF2: PDAMAX's inlined 1-tree combine to process row
 * 0 and row 0's broadcast of (value, index) (PBLAS pdamax_.c, default
 * topologies); PDSWAP's exchange of the kb-word row between row pk and
 * the pivot's row piv (both send, then receive); PDGER's pivot row from
 * pk down the column (PDGETRF sets the column-wise broadcast to ' ',
 * MPI_Bcast). */
static void col_play(vproc_vsim *s, size_t kb, size_t pk, size_t piv, size_t qk)
{
	size_t P = s->pl->P;
	for (size_t k = 1; k < P; k <<= 1)
		for (size_t r = k; r < P; r += 2 * k)
			col_send(s, qk, r, r - k, 16.0);
	col_bcast(s, qk, 0, 16.0);
	if (piv != pk) {
		unsigned long long a = s->aux[pk];
		col_send(s, qk, piv, pk, 8.0 * (double)kb);
		unsigned long long got = s->aux[pk];
		s->aux[pk] = a;
		col_send(s, qk, pk, piv, 8.0 * (double)kb);
		s->aux[pk] = got;
	}
	col_bcast(s, qk, pk, 4.0 * (double)kb);   /* the row's kb - j - 1 words, kb / 2 on average */
}

static unsigned long long col_last(const vproc_vsim *s)
{
	unsigned long long t = 0;
	for (size_t p = 0; p < s->pl->P; p++)
		t = s->aux[p] > t ? s->aux[p] : t;
	return t;
}

/* The kb columns' communication, seconds: three columns played from a
 * common start, the first as it is (it fills the pipeline: a column's
 * combine starts where the last broadcast reached first) and the last
 * two's halved time for each of the kb - 1 others.  The pivot lies in
 * another process row (P - 1) / P of the time for a random matrix: the
 * times with and without the exchange, weighted so; the other row is
 * taken half the column away. */
static double col_seconds(vproc_vsim *s, size_t kb, size_t pk, size_t qk)
{
	size_t P = s->pl->P;
	double t[2];
	for (int swap = 0; swap < 2; swap++) {
		unsigned long long first = 0;
		for (size_t p = 0; p < P; p++)
			s->aux[p] = 0;
		for (int j = 0; j < 3; j++) {
			col_play(s, kb, pk, swap ? (pk + P / 2) % P : pk, qk);
			first = j == 0 ? col_last(s) : first;
		}
		double period = (double)(col_last(s) - first) / 2.0;
		t[swap] = ((double)first + (double)(kb - 1) * period) * 1e-9;
	}
	return (t[0] + (double)(P - 1) * t[1]) / (double)P;
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
	if (P > 1) {
		double comm = col_seconds(s, kb, pk, qk);
		unsigned long long t = 0;
		for (size_t p = 0; p < P; p++)
			t = s->clock[p * Q + qk] > t ? s->clock[p * Q + qk] : t;
		t += (unsigned long long)llround(comm * 1e9);
		for (size_t p = 0; p < P; p++)
			s->clock[p * Q + qk] = t;
	}
	for (size_t p = 0; p < P; p++) {
		double flops = 0;   /* the rank-1 updates, summed (arithmetic only) */
		for (size_t j = 0; j < kb; j++)
			flops += 2.0 * (double)rows_from(pl, lo + j, p) * (double)(kb - j);
		vproc_vsim_compute(s, p * Q + qk, flops);
	}
	for (size_t p = 0; p < P; p++)
		vproc_lu_sring(s, p, qk, 4.0 * (double)kb);
}

/* PDLASWP (P > 1), both calls: in every process column, each of the kb
 * pivots swaps a row of the process's other columns between row pk and
 * another process row, (P - 1) / P of them across rows for a random
 * matrix; two latencies a pivot (the two calls, each PDSWAP's exchange
 * one latency: both send, then receive) and its row's bytes once (the
 * two calls split the columns).  Each other row's exchanges are booked
 * as one exchange of their bytes, and the latencies of the rest added
 * to the later of the two, where both then are (each exchange waits for
 * the later one's send). */
static void swaps(vproc_vsim *s, size_t kb, size_t pk, size_t qk)
{
	const vproc_lu_platform *pl = s->pl;
	size_t P = pl->P, Q = pl->Q;
	for (size_t q = 0; q < Q; q++) {
		double cols = (double)cols_from(pl, 0, q) - (q == qk ? (double)kb : 0.0);
		for (size_t h = 1; h < P && cols > 0; h++) {
			size_t a = pk * Q + q, b = ((pk + h) % P) * Q + q;
			double c = (double)(kb / P + ((h - 1) < kb % P));
			if (c == 0)
				continue;
			vproc_vsim_exchange(s, a, b, 8.0 * cols * c);
			size_t m = pl->machine[a];
			if (m == pl->machine[b])
				continue;
			unsigned long long t = s->clock[a] > s->clock[b] ? s->clock[a] : s->clock[b];
			t += (unsigned long long)llround((2.0 * c - 1.0) * latency_of(pl, m) * 1e9);
			s->clock[a] = s->clock[b] = t;
		}
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
	return n * n / (2.0 * b * PB_NB) + M * (double)pl->Q;
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
		double extra = 2.0 * (double)(c - 1) * latency_of(pl, m);
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
		size_t nbb = cols ? cols / ((cols - 1) / PB_NB + 1) : 0;
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
	if (kb > PB_NB && pl->n - lo2 > PB_NB)
		vproc_lu_iring(s, pk, qk, bytes);
	else
		vproc_lu_sring(s, pk, qk, bytes);
	for (size_t q = 0; q < pl->Q; q++)
		vproc_vsim_compute(s, pk * pl->Q + q,
		                   (double)kb * (double)kb * (double)cols_from(pl, lo2, q));
}

/* BLACS's increasing ring (BI_IdringBS/BR, step +1) down column q from
 * row root: each process forwards after it has the message. */
static void col_iring(vproc_vsim *s, size_t q, size_t root, double bytes)
{
	size_t P = s->pl->P, Q = s->pl->Q;
	for (size_t d = 0; d + 1 < P; d++)
		vproc_vsim_message(s, ((root + d) % P) * Q + q, ((root + d + 1) % P) * Q + q, bytes);
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
	int ring = kb > PB_NB && pl->n - lo2 > PB_NB;
	for (size_t p = 0; p < P; p++)
		vproc_lu_sring(s, p, qk, 8.0 * (double)rows_from(pl, lo2, p) * (double)kb);
	for (size_t q = 0; q < Q && P > 1; q++) {
		double bytes = 8.0 * (double)cols_from(pl, lo2, q) * (double)kb;
		if (ring)
			col_iring(s, q, pk, bytes);
		else
			vproc_vsim_bcast(s, q, Q, P, pk, bytes);
	}
	for (size_t p = 0; p < P; p++)
		for (size_t q = 0; q < Q; q++)
			vproc_vsim_compute(s, p * Q + q, 2.0 * (double)rows_from(pl, lo2, p) *
			                                 (double)cols_from(pl, lo2, q) * (double)kb);
}

/* Step k of PDGETRF's loop. */
static void lu_step(vproc_vsim *s, size_t k, size_t lo, size_t kb)
{
	const vproc_lu_platform *pl = s->pl;
	size_t pk = k % pl->P, qk = k % pl->Q, lo2 = lo + kb;
	panel(s, lo, kb, pk, qk);
	if (pl->P > 1)
		swaps(s, kb, pk, qk);
	if (lo2 >= pl->n)
		return;
	if (vproc_lu_trsm_ab(pl->P, pl->Q, pl->b, kb, pl->n - lo2))
		trsm_ab(s, lo2, kb, pk, qk);
	else
		trsm_b(s, lo2, kb, pk, qk);
	update(s, lo2, kb, pk, qk);
}

double vproc_lu_play_events(const vproc_lu_platform *pl)
{
	double M = pl->b ? ceil((double)pl->n / (double)pl->b) : 0.0;
	double P = (double)pl->P, Q = (double)pl->Q, t = trsm_pieces(pl);
	/* a step: the panel's P rows of kb flop terms, its column play and
	 * P x Q ring hops, the swaps' 2 Q (P - 1), the update's 3 P Q; the
	 * solve's pieces three events each, grouped as piece_group() books
	 * them.  The column play (two times three columns of about 6 P clock
	 * updates, no calendar, a few ns each) counts as P events of 25-60
	 * ns: counted as 24 P it put bench_plan's 2D plan of 4096 processors
	 * over the budget, and layout auto then kept a 1d plan predicted 65
	 * times slower (2518 s against 38.8 s). */
	double pieces = t > VPROC_LU_PLAY_PIECES ? VPROC_LU_PLAY_PIECES + M * Q : t;
	double column_play = P > 1 ? P : 0.0;
	return M * (6.0 * P * Q + 2.0 * Q + column_play) + (double)pl->n * P + 3.0 * pieces;
}

vproc_status vproc_lu_play_time(const vproc_lu_platform *pl, vproc_lu_seconds *out)
{
	if (pl != NULL && pl->P == 1)
		return vproc_lu_row_play_time(pl, out);   /* the runtime's order (lu_row_play.h) */
	return vproc_vsim_run(pl, lu_step, out);
}
