/*
 * taskgraph.c -- the LU/QR task graph of paper 002 s4.1 (Fig 10), its task
 * and message costs, the simulator of a schedule and the lower bound
 * (taskgraph.h).  The schedules themselves are in schedule.c.
 */
#include <math.h>
#include <string.h>

#include "planner/internal.h"
#include "taskgraph.h"

size_t vproc_tg_ntasks(size_t M)
{
	if (M > 0 && M + 1 > SIZE_MAX / M)
		return 0;
	return M * (M + 1) / 2;
}

/* Tasks before step k: M + (M-1) + ... + (M-k+1). */
static size_t step_offset(size_t M, size_t k)
{
	return k * M - k * (k - 1) / 2;
}

size_t vproc_tg_id(size_t M, size_t k, size_t j)
{
	return step_offset(M, k) + (j - k);
}

void vproc_tg_task(size_t M, size_t id, size_t *k, size_t *j)
{
	/* The largest k with step_offset(k) <= id: the root of the quadratic,
	 * then corrected for rounding. */
	double m = (double)M + 0.5;
	double r = m - sqrt(m * m - 2.0 * (double)id);
	size_t s = r > 0 ? (size_t)r : 0;
	if (s >= M)
		s = M - 1;
	while (s > 0 && step_offset(M, s) > id)
		s--;
	while (s + 1 < M && step_offset(M, s + 1) <= id)
		s++;
	*k = s;
	*j = s + (id - step_offset(M, s));
}

double vproc_tg_work(const vproc_tg *g, size_t k, size_t j)
{
	double b = (double)g->b, m = (double)(g->M - k) * b, b3 = b * b * b;
	switch (g->kind) {
	case VPROC_TG_UPDATES:
		return j == k ? 0.0 : (double)(g->M - k - 1);
	case VPROC_TG_LU:
		return j == k ? m * b * b - b3 / 3.0 : b3 + 2.0 * (m - b) * b * b;
	case VPROC_TG_QR:
		return j == k ? 2.0 * m * b * b - 2.0 * b3 / 3.0 : 4.0 * m * b * b;
	}
	return 0.0;
}

/* The data of one message into step k: the trailing M-k blocks of a
 * column block (the pivot panel, or the column block being updated). */
static double volume(const vproc_tg *g, size_t k)
{
	double blocks = (double)(g->M - k);
	return g->kind == VPROC_TG_UPDATES ? blocks : blocks * (double)g->b * (double)g->b;
}

double vproc_tg_comm(const vproc_tg *g, size_t k)
{
	return g->beta * volume(g, k);
}

static vproc_status check_graph(const vproc_tg *g, size_t p, const double *t)
{
	if (g == NULL || g->M == 0 || vproc_tg_ntasks(g->M) == 0 ||
	    (g->kind != VPROC_TG_UPDATES && g->b == 0) || g->kind > VPROC_TG_QR ||
	    !isfinite(g->beta) || g->beta < 0.0)
		return VPROC_EINVAL;
	return vproc_check_times(p, t);
}

vproc_status vproc_tg_check(const vproc_tg *g, size_t p, const double *t)
{
	return check_graph(g, p, t);
}

void vproc_tg_schedule_free(vproc_tg_schedule *s)
{
	if (s == NULL)
		return;
	free(s->machine);
	free(s->order);
	memset(s, 0, sizeof *s);
}

/* The predecessors of task (k, j): at most two ids, returned in q. */
static size_t preds(size_t M, size_t k, size_t j, size_t q[2])
{
	size_t n = 0;
	if (j == k) {
		if (k > 0)
			q[n++] = vproc_tg_id(M, k - 1, k);
	} else {
		q[n++] = vproc_tg_id(M, k, k);
		if (k > 0)
			q[n++] = vproc_tg_id(M, k - 1, j);
	}
	return n;
}

/* Everything the two passes of vproc_tg_simulate share. */
typedef struct {
	const vproc_tg *g;
	const double *t;
	const vproc_tg_schedule *s;
	size_t p;
	double *fin;          /* [ntasks] */
	double *avail;        /* [p] */
	double *recv;         /* [p] message time received */
	double *comp;         /* [p] compute */
	size_t *lastpiv;      /* [p] 1 + the last step whose pivot was counted */
	unsigned char *done;  /* [ntasks] */
} sim;

/* The messages into a task on machine m: counted once per (pivot, machine). */
static void count_messages(sim *x, size_t k, size_t j, size_t m, vproc_tg_times *out)
{
	size_t q[2], n = preds(x->g->M, k, j, q);
	for (size_t a = 0; a < n; a++) {
		if (x->s->machine[q[a]] == m)
			continue;
		int pivot = j != k && a == 0;
		if (pivot && x->lastpiv[m] == k + 1)
			continue;
		if (pivot)
			x->lastpiv[m] = k + 1;
		out->volume += volume(x->g, k);
		out->messages++;
		x->recv[m] += vproc_tg_comm(x->g, k);
	}
}

/* The dataflow pass (002 s4.3's pct); checks that the order is a level-by-
 * level topological order of every task. */
static vproc_status dataflow(sim *x, vproc_tg_times *out)
{
	size_t M = x->g->M, T = x->s->ntasks, level = 0;
	double end = 0.0;
	for (size_t a = 0; a < T; a++) {
		size_t id = x->s->order[a], k, j, q[2];
		if (id >= T || x->done[id] || x->s->machine[id] >= x->p)
			return VPROC_EINVAL;
		vproc_tg_task(M, id, &k, &j);
		size_t lv = j == k ? 2 * k : 2 * k + 1;
		if (lv < level)
			return VPROC_EINVAL;
		level = lv;
		size_t m = x->s->machine[id], n = preds(M, k, j, q);
		double dr = 0.0;
		for (size_t b = 0; b < n; b++) {
			if (!x->done[q[b]])
				return VPROC_EINVAL;
			double c = x->s->machine[q[b]] == m ? 0.0 : vproc_tg_comm(x->g, k);
			dr = fmax(dr, x->fin[q[b]] + c);
		}
		double w = vproc_tg_work(x->g, k, j) * x->t[m];
		x->fin[id] = fmax(x->avail[m], dr) + w;
		x->avail[m] = x->fin[id];
		x->comp[m] += w;
		x->done[id] = 1;
		end = fmax(end, x->fin[id]);
		count_messages(x, k, j, m, out);
	}
	out->makespan = end;
	return VPROC_OK;
}

/* The level-synchronous pass: a level starts when the previous one has
 * ended; a task that needs a message waits for it from the level's start. */
static void synchronous(sim *x, vproc_tg_times *out)
{
	size_t M = x->g->M, T = x->s->ntasks, level = 0;
	double start = 0.0, end = 0.0;
	for (size_t i = 0; i < x->p; i++)
		x->avail[i] = 0.0;
	for (size_t a = 0; a < T; a++) {
		size_t id = x->s->order[a], k, j, q[2];
		vproc_tg_task(M, id, &k, &j);
		size_t lv = j == k ? 2 * k : 2 * k + 1;
		if (lv != level) {
			level = lv;
			start = end;
		}
		size_t m = x->s->machine[id], n = preds(M, k, j, q);
		double ready = start;
		for (size_t b = 0; b < n; b++)
			if (x->s->machine[q[b]] != m)
				ready = start + vproc_tg_comm(x->g, k);
		double f = fmax(fmax(x->avail[m], start), ready) + vproc_tg_work(x->g, k, j) * x->t[m];
		x->avail[m] = f;
		end = fmax(end, f);
	}
	out->levels = end;
}

vproc_status vproc_tg_simulate(const vproc_tg *g, size_t p, const double *t,
                               const vproc_tg_schedule *s, vproc_tg_times *out)
{
	vproc_status st = check_graph(g, p, t);
	if (st != VPROC_OK)
		return st;
	if (s == NULL || out == NULL || s->machine == NULL || s->order == NULL ||
	    s->ntasks != vproc_tg_ntasks(g->M))
		return VPROC_EINVAL;
	memset(out, 0, sizeof *out);
	sim x = { .g = g, .t = t, .s = s, .p = p };
	x.fin = vproc_calloc(s->ntasks, sizeof *x.fin);
	x.done = vproc_calloc(s->ntasks, 1);
	x.avail = vproc_calloc(p, sizeof *x.avail);
	x.recv = vproc_calloc(p, sizeof *x.recv);
	x.comp = vproc_calloc(p, sizeof *x.comp);
	x.lastpiv = vproc_calloc(p, sizeof *x.lastpiv);
	st = VPROC_ENOMEM;
	if (x.fin && x.done && x.avail && x.recv && x.comp && x.lastpiv)
		st = dataflow(&x, out);
	if (st == VPROC_OK) {
		synchronous(&x, out);
		for (size_t i = 0; i < p; i++) {
			out->load = fmax(out->load, x.comp[i] + x.recv[i]);
			out->compute = fmax(out->compute, x.comp[i]);
		}
	}
	free(x.fin);
	free(x.done);
	free(x.avail);
	free(x.recv);
	free(x.comp);
	free(x.lastpiv);
	return st;
}

double vproc_tg_lower_bound(const vproc_tg *g, size_t p, const double *t)
{
	if (check_graph(g, p, t) != VPROC_OK)
		return 0.0;
	size_t M = g->M;
	double tmin = t[vproc_fastest(p, t)], ideal = vproc_cost_ideal(p, t);
	/* after = the work of every task after F(k): the updates of steps >= k
	 * (U(k,j) does not depend on j) and the factor tasks of steps > k. */
	double after = 0.0;
	for (size_t k = 0; k < M; k++)
		after += (double)(M - k - 1) * vproc_tg_work(g, k, k + 1) +
		         (k > 0 ? vproc_tg_work(g, k, k) : 0.0);
	double chain = 0.0, best = 0.0;
	for (size_t k = 0; k < M; k++) {
		chain += vproc_tg_work(g, k, k);
		best = fmax(best, tmin * chain + ideal * after);
		if (k + 1 < M) {
			double u = vproc_tg_work(g, k, k + 1);
			after -= (double)(M - k - 1) * u + vproc_tg_work(g, k + 1, k + 1);
			chain += u;
		}
	}
	return best;
}
