/*
 * lu_time.c -- see lu_time.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lu_time.h"

/* Indices of [0, x) that process p of P owns under CYCLIC(b): whole
 * cycles of b P, then what of the last one falls in p's block. */
static size_t cyclic_owned_below(size_t x, size_t b, size_t p, size_t P)
{
	size_t cycle = b * P, r = x % cycle, start = p * b;
	size_t part = r > start ? r - start : 0;
	return x / cycle * b + (part < b ? part : b);
}

/* In closed form: the models call it for every process at every step, and
 * a walk over the blocks made them M^2 P Q (n = 100 000 on 720 processes
 * took seconds). */
size_t vproc_cyclic_owned_from(size_t lo, size_t n, size_t b, size_t p, size_t P)
{
	if (lo >= n)
		return 0;
	return cyclic_owned_below(n, b, p, P) - cyclic_owned_below(lo, b, p, P);
}

typedef struct {
	const vproc_lu_platform *pl;
	double *work;     /* [nmachines] flops of the phase */
	double *bytes;    /* [nmachines] bytes sent in the phase */
	double *msgs;     /* [nmachines] messages sent */
	size_t *scratch;  /* [nmachines] */
} phase;

static void phase_clear(phase *ph)
{
	size_t m = ph->pl->nmachines;
	memset(ph->work, 0, m * sizeof *ph->work);
	memset(ph->bytes, 0, m * sizeof *ph->bytes);
	memset(ph->msgs, 0, m * sizeof *ph->msgs);
}

/* The phase's compute: its busiest machine. */
static double phase_compute(const phase *ph)
{
	double t = 0;
	for (size_t m = 0; m < ph->pl->nmachines; m++) {
		double s = ph->work[m] / (ph->pl->mflops[m] * 1e6);
		if (s > t)
			t = s;
	}
	return t;
}

/* The phase's network: `chain` messages in a row (a ring's hops) pay
 * their latency; the bytes go out through each machine's port, or all
 * through the bus. */
static double phase_network(const phase *ph, double chain)
{
	const vproc_lu_platform *pl = ph->pl;
	double t = 0, all = 0, lat = 0;
	for (size_t m = 0; m < pl->nmachines; m++) {
		double l = pl->bus ? pl->bus_latency_s : pl->latency_s ? pl->latency_s[m] : 0;
		if (ph->msgs[m] > 0 && l > lat)
			lat = l;
		if (pl->bus) {
			all += ph->bytes[m];
		} else {
			double bw = pl->bytes_per_s ? pl->bytes_per_s[m] : 0;
			double s = bw > 0 ? ph->bytes[m] / bw : 0;
			if (s > t)
				t = s;
		}
	}
	if (pl->bus)
		t = pl->bus_bytes_per_s > 0 ? all / pl->bus_bytes_per_s : 0;
	return t + chain * lat;
}

/* A ring broadcast from process `root` over the `count` processes
 * procs[0..count-1] (in ring order from the root), `bytes` each hop: the
 * hops between machines are booked on their sender's machine.  Returns
 * the time of the first hop (0 when it stays on one machine): the next
 * process of the ring owns the next panel (or block row), and the others
 * update while the broadcast goes on. */
static double ring(phase *ph, const size_t *procs, size_t count, size_t root, double bytes)
{
	const vproc_lu_platform *pl = ph->pl;
	const size_t *mach = pl->machine;
	double first = 0;
	for (size_t h = 0; h + 1 < count; h++) {
		size_t a = procs[(root + h) % count], b = procs[(root + h + 1) % count];
		if (mach[a] == mach[b] || bytes <= 0)
			continue;
		ph->bytes[mach[a]] += bytes;
		ph->msgs[mach[a]] += 1;
		if (h == 0) {
			size_t m = mach[a];
			/* on a bus the bytes are counted with all the others */
			double lat = pl->bus ? pl->bus_latency_s : pl->latency_s ? pl->latency_s[m] : 0;
			double bw = pl->bus ? 0 : pl->bytes_per_s ? pl->bytes_per_s[m] : 0;
			first = lat + (bw > 0 ? bytes / bw : 0);
		}
	}
	return first;
}

/* A broadcast by MPI_Bcast from process `root` over procs[0..count-1]:
 * PDGETRF's columnwise topology is ' ', which BLACS hands to MPI_Bcast,
 * and MPICH on a cluster (and the runtime, vproc/runtime/bindings/coll.c) sends it
 * in two levels: a binomial tree over one leader per machine, then inside
 * each machine.  So the bytes cross once per other machine of the column,
 * each booked on its sender's machine (the leader's parent in the tree),
 * whatever the order of the process rows.  Returns the time of one hop
 * (0 when the column is on one machine), as ring() does. */
static double tree(phase *ph, const size_t *procs, size_t count, size_t root, double bytes)
{
	const vproc_lu_platform *pl = ph->pl;
	const size_t *mach = pl->machine;
	size_t nlead = 0;
	size_t *lead = ph->scratch;   /* the leaders' machines, root's first */
	for (size_t h = 0; h < count; h++) {
		size_t m = mach[procs[(root + h) % count]], seen = 0;
		for (size_t j = 0; j < nlead && !seen; j++)
			seen = lead[j] == m;
		if (!seen)
			lead[nlead++] = m;
	}
	if (nlead < 2 || bytes <= 0)
		return 0;
	for (size_t i = 1; i < nlead; i++) {
		size_t from = lead[i & (i - 1)];   /* the binomial parent */
		ph->bytes[from] += bytes;
		ph->msgs[from] += 1;
	}
	size_t m = lead[0];
	double lat = pl->bus ? pl->bus_latency_s : pl->latency_s ? pl->latency_s[m] : 0;
	double bw = pl->bus ? 0 : pl->bytes_per_s ? pl->bytes_per_s[m] : 0;
	return lat + (bw > 0 ? bytes / bw : 0);
}

/* The phase's bytes, added to each port's (or the bus's) total time:
 * the network's throughput bound, which overlaps the compute. */
static void accumulate(const phase *ph, double *port, double *bus_s)
{
	const vproc_lu_platform *pl = ph->pl;
	for (size_t m = 0; m < pl->nmachines; m++) {
		if (pl->bus) {
			if (pl->bus_bytes_per_s > 0)
				*bus_s += ph->bytes[m] / pl->bus_bytes_per_s;
			continue;
		}
		double bw = pl->bytes_per_s ? pl->bytes_per_s[m] : 0;
		if (bw > 0)
			port[m] += ph->bytes[m] / bw;
	}
}

/* Does process column c (by_col) or row c span two machines? */
static int spans_machines(const vproc_lu_platform *pl, size_t c, int by_col)
{
	size_t cnt = by_col ? pl->P : pl->Q;
	for (size_t i = 1; i < cnt; i++) {
		size_t a = by_col ? 0 * pl->Q + c : c * pl->Q, x = by_col ? i * pl->Q + c : c * pl->Q + i;
		if (pl->machine[a] != pl->machine[x])
			return 1;
	}
	return 0;
}

/* One message of `bytes` on the slowest link of the platform. */
static double slowest_link(const vproc_lu_platform *pl, double bytes)
{
	if (pl->bus)
		return pl->bus_latency_s + (pl->bus_bytes_per_s > 0 ? bytes / pl->bus_bytes_per_s : 0);
	double t = 0;
	for (size_t m = 0; m < pl->nmachines; m++) {
		double bw = pl->bytes_per_s ? pl->bytes_per_s[m] : 0;
		double s = (pl->latency_s ? pl->latency_s[m] : 0) + (bw > 0 ? bytes / bw : 0);
		if (s > t)
			t = s;
	}
	return t;
}

vproc_status vproc_lu_platform_check(const vproc_lu_platform *pl)
{
	if (pl == NULL || pl->n == 0 || pl->b == 0 || pl->P == 0 || pl->Q == 0 ||
	    pl->machine == NULL || pl->mflops == NULL || pl->nmachines == 0)
		return VPROC_EINVAL;
	for (size_t i = 0; i < pl->P * pl->Q; i++)
		if (pl->machine[i] >= pl->nmachines)
			return VPROC_EINVAL;
	for (size_t m = 0; m < pl->nmachines; m++)
		if (!(pl->mflops[m] > 0) || !isfinite(pl->mflops[m]))
			return VPROC_EINVAL;
	return VPROC_OK;
}

/* What vproc_lu_time adds up over the steps (lu_time.h). */
typedef struct {
	phase ph;
	size_t *line;     /* [max(P, Q)] the processes of one grid row or column */
	double *busy;     /* [nmachines] each machine's solves and updates, s */
	double *port;     /* [nmachines] each port's sending time, s */
	double bus_s;     /* the bus's */
	double comp, net; /* the critical path's compute and network, s */
} lu_sum;

/* The sums, zero, and their buffers: one block of 5 x nmachines doubles. */
static vproc_status lu_sum_alloc(lu_sum *s, const vproc_lu_platform *pl)
{
	size_t nm = pl->nmachines;
	double *buf = calloc(5 * nm, sizeof *buf);
	size_t *line = malloc((pl->Q > pl->P ? pl->Q : pl->P) * sizeof *line);
	size_t *scratch = malloc(nm * sizeof *scratch);
	if (buf == NULL || line == NULL || scratch == NULL) {
		free(buf);
		free(line);
		free(scratch);
		return VPROC_ENOMEM;
	}
	*s = (lu_sum){ { pl, buf, buf + nm, buf + 2 * nm, scratch }, line, buf + 3 * nm,
	               buf + 4 * nm, 0, 0, 0 };
	return VPROC_OK;
}

/* The buffers back: work is the start of lu_sum_alloc's block. */
static void lu_sum_free(lu_sum *s)
{
	free(s->ph.work);
	free(s->line);
	free(s->ph.scratch);
}

/* The phase's flops into each machine's busy time: solves and updates
 * overlap across steps, so they are summed per machine, not per step. */
static void book_busy(lu_sum *s)
{
	const vproc_lu_platform *pl = s->ph.pl;
	for (size_t m = 0; m < pl->nmachines; m++)
		s->busy[m] += s->ph.work[m] / (pl->mflops[m] * 1e6);
}

/* The panel's pivots down its process column, per column, log2 P steps
 * each, latency bound: the pivot (a reduction) and the pivot row (kb
 * words) one after the other; or HPL's binary exchange doing both at once
 * (HPL_pdmxswp: 2 kb + 4 words, half the steps; HPL's defaults on 2 x 2
 * and 2 x 4 grids took 0.70-0.90 of the two-step prediction, 0.93-1.05 of
 * this one at n >= 640: doc/design/hpl-model.md). */
static double pivots(const vproc_lu_platform *pl, size_t kb, size_t P)
{
	double steps = ceil(log2((double)P));
	if (pl->combined_pivot)
		return (double)kb * steps * slowest_link(pl, 8.0 * (2.0 * (double)kb + 4.0));
	return (double)kb * 2.0 * steps * slowest_link(pl, 8.0 * (double)kb);
}

/* The panel, (n - lo) x kb on process column qk: its flops, and its
 * pivots down the column, on the critical path. */
static void panel_factor(lu_sum *s, size_t lo, size_t kb, size_t qk)
{
	const vproc_lu_platform *pl = s->ph.pl;
	size_t P = pl->P, Q = pl->Q;
	phase_clear(&s->ph);
	for (size_t p = 0; p < P; p++) {
		double rows = (double)vproc_cyclic_owned_from(lo, pl->n, pl->b, p, P);
		s->ph.work[pl->machine[p * Q + qk]] += rows * (double)kb * (double)kb;
	}
	s->comp += phase_compute(&s->ph);
	if (P > 1 && spans_machines(pl, qk, 1))
		s->net += pivots(pl, kb, P);
}

/* A broadcast in each process row (down_cols 0: the panel, a ring from
 * column root) or down each process column (1: the block row, MPI_Bcast's
 * tree from row root), of the line's rows (columns) of index >= from,
 * kb words each: the slowest first hop joins the critical path. */
static void broadcast_lines(lu_sum *s, int down_cols, size_t root, size_t from, size_t kb)
{
	const vproc_lu_platform *pl = s->ph.pl;
	size_t nlines = down_cols ? pl->Q : pl->P, len = down_cols ? pl->P : pl->Q;
	double first = 0;
	phase_clear(&s->ph);
	for (size_t i = 0; i < nlines; i++) {
		for (size_t j = 0; j < len; j++)
			s->line[j] = down_cols ? j * pl->Q + i : i * pl->Q + j;
		double owned = (double)vproc_cyclic_owned_from(from, pl->n, pl->b, i, nlines);
		double bytes = 8.0 * owned * (double)kb;
		double h = down_cols ? tree(&s->ph, s->line, len, root, bytes)
		                     : ring(&s->ph, s->line, len, root, bytes);
		if (h > first)
			first = h;
	}
	s->net += first;
	accumulate(&s->ph, s->port, &s->bus_s);
}

/* Row swaps (PDLASWP), P > 1: kb pivots, (P-1)/P of them across process
 * rows, each a row segment of the process's trailing columns both ways;
 * their latencies are on the critical path. */
static void row_swaps(lu_sum *s, size_t lo2, size_t kb)
{
	const vproc_lu_platform *pl = s->ph.pl;
	size_t P = pl->P, Q = pl->Q;
	phase_clear(&s->ph);
	double cross = (double)kb * (double)(P - 1) / (double)P;
	for (size_t p = 0; p < P; p++)
		for (size_t q = 0; q < Q; q++) {
			double cols = (double)vproc_cyclic_owned_from(lo2, pl->n, pl->b, q, Q);
			size_t a = pl->machine[p * Q + q], o = pl->machine[((p + 1) % P) * Q + q];
			if (a == o || cols == 0)
				continue;
			s->ph.bytes[a] += 8.0 * cols * cross / (double)P * 2.0;
			s->ph.msgs[a] += cross;
		}
	s->net += phase_network(&s->ph, cross) - phase_network(&s->ph, 0.0);   /* the latencies */
	accumulate(&s->ph, s->port, &s->bus_s);
}

/* The block row's triangular solve on process row pk. */
static void block_row_solve(lu_sum *s, size_t lo2, size_t kb, size_t pk)
{
	const vproc_lu_platform *pl = s->ph.pl;
	phase_clear(&s->ph);
	for (size_t q = 0; q < pl->Q; q++) {
		double cols = (double)vproc_cyclic_owned_from(lo2, pl->n, pl->b, q, pl->Q);
		s->ph.work[pl->machine[pk * pl->Q + q]] += (double)kb * (double)kb * cols;
	}
	book_busy(s);
}

/* The trailing update: 2 rows x cols x kb per process. */
static void trailing_update(lu_sum *s, size_t lo2, size_t kb)
{
	const vproc_lu_platform *pl = s->ph.pl;
	size_t P = pl->P, Q = pl->Q;
	phase_clear(&s->ph);
	for (size_t p = 0; p < P; p++)
		for (size_t q = 0; q < Q; q++)
			s->ph.work[pl->machine[p * Q + q]] +=
				2.0 * (double)vproc_cyclic_owned_from(lo2, pl->n, pl->b, p, P) *
				(double)vproc_cyclic_owned_from(lo2, pl->n, pl->b, q, Q) * (double)kb;
	book_busy(s);
}

/* Step k of PDGETRF, in lu_time.h's order; 0 after the last panel. */
static int lu_step(lu_sum *s, size_t k)
{
	const vproc_lu_platform *pl = s->ph.pl;
	size_t lo = k * pl->b, kb = pl->n - lo < pl->b ? pl->n - lo : pl->b, lo2 = lo + kb;
	size_t pk = k % pl->P, qk = k % pl->Q;
	panel_factor(s, lo, kb, qk);
	broadcast_lines(s, 0, qk, lo, kb);
	if (lo2 >= pl->n)
		return 0;
	if (pl->P > 1)
		row_swaps(s, lo2, kb);
	block_row_solve(s, lo2, kb, pk);
	if (pl->P > 1)
		broadcast_lines(s, 1, pk, lo2, kb);
	trailing_update(s, lo2, kb);
	return 1;
}

/* The prediction from the sums over the steps. */
static void lu_seconds(const lu_sum *s, vproc_lu_seconds *out)
{
	const vproc_lu_platform *pl = s->ph.pl;
	/* The solves and updates of different steps overlap across machines
	 * (only the broadcasts order them): they weigh as the busiest
	 * machine's total, not as the sum of each step's slowest machine. */
	double most = 0;
	for (size_t m = 0; m < pl->nmachines; m++)
		if (s->busy[m] > most)
			most = s->busy[m];
	double comp = s->comp + most;
	/* The network's throughput bound: the busiest port, or the bus. */
	double wire = s->bus_s;
	for (size_t m = 0; m < pl->nmachines; m++)
		if (s->port[m] > wire)
			wire = s->port[m];
	out->compute = comp;
	/* On a switch the ports' bytes overlap the compute (the larger of the
	 * two bounds); on a bus every byte, the critical path's too, queues on
	 * the one medium, and the bytes add (Table 3 on its 100 Mb/s bus: the
	 * larger of the two was half of the measured time). */
	if (pl->bus)
		out->total = comp + s->net + s->bus_s;
	else
		out->total = comp + s->net > wire ? comp + s->net : wire;
	out->network = out->total - comp;
}

vproc_status vproc_lu_time(const vproc_lu_platform *pl, vproc_lu_seconds *out)
{
	if (out == NULL || vproc_lu_platform_check(pl) != VPROC_OK)
		return VPROC_EINVAL;
	lu_sum s;
	if (lu_sum_alloc(&s, pl) != VPROC_OK)
		return VPROC_ENOMEM;
	for (size_t k = 0; k * pl->b < pl->n; k++)
		if (!lu_step(&s, k))
			break;
	lu_seconds(&s, out);
	lu_sum_free(&s);
	return VPROC_OK;
}
