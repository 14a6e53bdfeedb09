/*
 * alike_hosts.c -- layout 2d: alike hosts' grid cells dealt so that each
 * host gets as many processes.  The arrangement places machines by speed,
 * not by host, so two identical nodes can hold cells of unequal R_i C_j;
 * the grid sees a cell's cycle time only (000 s4.3.1), so identical
 * machines can trade cells and R, C, the panel and its predicted time stay.
 * The split itself is vproc_grid_deal's; this file finds the groups, moves
 * the machines in plan->sel, and asks the seconds model at the relative
 * speeds whether the dealt plan is any slower (then it is undone).
 */
#define _GNU_SOURCE   /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "lu_predict.h"

/* Every key the planner and the models read of a machine, the same. */
static int same_machine(const hl_machine *a, const hl_machine *b)
{
	return a->cycle_time == b->cycle_time && a->cores == b->cores &&
	       a->mflops == b->mflops && a->emulate_mflops == b->emulate_mflops &&
	       a->latency_us == b->latency_us && a->bandwidth_mbps == b->bandwidth_mbps &&
	       a->memory_gb == b->memory_gb;
}

typedef struct {
	size_t first, n;   /* its first machine; its machines */
	size_t *idx;       /* [n] its machines, in list order */
	size_t procs;      /* processes of their cells */
	int uniform;       /* its machines all the same */
} host_cells;

static int by_host(const void *x, const void *y, void *arg)
{
	const hl_machine *m = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int c = strcmp(m[a].host, m[b].host);
	return c ? c : (a > b) - (a < b);
}

static int by_first(const void *x, const void *y)
{
	const host_cells *a = x, *b = y;
	return (a->first > b->first) - (a->first < b->first);
}

/* The hosts in list order of their first machine; ord[] the machines
 * sorted by host (each host's idx points into it). */
static size_t find_hosts(const hl_config *cfg, size_t *ord, host_cells *h)
{
	size_t N = cfg->nmachines, nh = 0;
	for (size_t i = 0; i < N; i++)
		ord[i] = i;
	qsort_r(ord, N, sizeof *ord, by_host, cfg->machines);
	for (size_t i = 0; i < N;) {
		size_t j = i;
		while (j < N && strcmp(cfg->machines[ord[i]].host, cfg->machines[ord[j]].host) == 0)
			j++;
		h[nh++] = (host_cells){ ord[i], j - i, ord + i, 0, 1 };
		i = j;
	}
	qsort(h, nh, sizeof *h, by_first);
	for (size_t k = 0; k < nh; k++)
		for (size_t i = 1; i < h[k].n; i++)
			h[k].uniform &= same_machine(&cfg->machines[h[k].idx[0]],
			                             &cfg->machines[h[k].idx[i]]);
	return nh;
}

/* val[k]: processes of sorted position k, R_i C_j of its cell (0 off the
 * grid); pos[i]: machine i's position in plan->sel. */
static void cell_values(const hl_plan *pl, size_t *val, size_t *pos)
{
	size_t N = pl->cfg->nmachines, q = pl->q;
	memset(val, 0, N * sizeof *val);
	for (size_t x = 0; x < pl->p * q; x++)
		val[pl->grid.arr[x]] = pl->panel.R[x / q] * pl->panel.C[x % q];
	for (size_t k = 0; k < N; k++)
		pos[pl->sel[k]] = k;
}

static int alike_host(const hl_config *cfg, const host_cells *a, const host_cells *b)
{
	return a->uniform && b->uniform && a->n == b->n &&
	       same_machine(&cfg->machines[a->idx[0]], &cfg->machines[b->idx[0]]);
}

static int cmp_size(size_t a, size_t b)
{
	return (a > b) - (a < b);
}

static int cmp_num(double a, double b)
{
	return (a > b) - (a < b);
}

/* Uniform hosts by their machines' keys, then list order: each group of
 * alike hosts is a run, its hosts in list order. */
static int by_kind(const void *x, const void *y, void *arg)
{
	const host_cells *h = ((const host_cells **)arg)[0];
	const hl_machine *ms = ((const hl_machine **)arg)[1];
	const host_cells *a = &h[*(const size_t *)x], *b = &h[*(const size_t *)y];
	const hl_machine *p = &ms[a->idx[0]], *q = &ms[b->idx[0]];
	int c = cmp_size(a->n, b->n) ? cmp_size(a->n, b->n) : cmp_num(p->cycle_time, q->cycle_time);
	c = c ? c : cmp_size(p->cores, q->cores);
	c = c ? c : cmp_num(p->mflops, q->mflops);
	c = c ? c : cmp_num(p->emulate_mflops, q->emulate_mflops);
	c = c ? c : cmp_num(p->latency_us, q->latency_us);
	c = c ? c : cmp_num(p->bandwidth_mbps, q->bandwidth_mbps);
	c = c ? c : cmp_num(p->memory_gb, q->memory_gb);
	return c ? c : cmp_size(a->first, b->first);
}

static int by_size(const void *x, const void *y)
{
	return cmp_size(*(const size_t *)x, *(const size_t *)y);
}

/* The group starting at kinds[k] (g[] its hosts, in list order) and its
 * slots, the members' positions ascending (runs stay tidy).  Returns its
 * size. */
static size_t gather(const hl_config *cfg, const host_cells *h, const size_t *kinds,
                     size_t nk, size_t k, size_t *g, const size_t *pos, size_t *slot)
{
	size_t ng = 0, ns = 0;
	for (size_t j = k; j < nk && alike_host(cfg, &h[kinds[k]], &h[kinds[j]]); j++) {
		g[ng++] = kinds[j];
		for (size_t i = 0; i < h[kinds[j]].n; i++)
			slot[ns++] = pos[h[kinds[j]].idx[i]];
	}
	qsort(slot, ns, sizeof *slot, by_size);
	return ng;
}

/* Deal one group's slots; record it when its counts were unequal. */
static int deal_group(hl_plan *pl, const host_cells *h, const size_t *g, size_t ng,
                      const size_t *slot, const size_t *val, size_t *v, size_t *who)
{
	size_t m = h[g[0]].n, ns = ng * m, total = 0;
	int unequal = 0;
	for (size_t s = 0; s < ns; s++) {
		v[s] = val[slot[s]];
		total += v[s];
	}
	for (size_t a = 1; a < ng; a++)
		unequal |= h[g[a]].procs != h[g[0]].procs;
	if (!unequal)
		return 0;
	hl_alike *rec = &pl->alike[pl->nalike++];
	*rec = (hl_alike){ h[g[0]].first, ng, total, VPROC_DEAL_BUDGET, 0 };
	if (vproc_grid_deal(ng, m, v, 0, who, &rec->res) != VPROC_OK)
		return -1;
	if (rec->res != VPROC_DEAL_EQUAL)
		return 0;
	size_t *next = calloc(ng, sizeof *next);   /* each host's next machine */
	if (next == NULL)
		return -1;
	for (size_t s = 0; s < ns; s++)
		pl->sel[slot[s]] = h[g[who[s]]].idx[next[who[s]]++];
	free(next);
	rec->dealt = 1;
	return 1;
}

/* Every group of two or more alike hosts dealt; 1 when one was. */
static int deal_all(hl_plan *pl, host_cells *h, size_t nh, size_t *work)
{
	const hl_config *cfg = pl->cfg;
	size_t N = cfg->nmachines, nk = 0;
	size_t *val = work, *pos = work + N, *slot = work + 2 * N, *v = work + 3 * N,
	       *who = work + 4 * N, *g = work + 5 * N, *kinds = work + 6 * N;
	cell_values(pl, val, pos);
	for (size_t k = 0; k < nh; k++) {
		for (size_t i = 0; i < h[k].n; i++)
			h[k].procs += val[pos[h[k].idx[i]]];
		if (h[k].uniform)
			kinds[nk++] = k;
	}
	const void *arg[2] = { h, cfg->machines };
	qsort_r(kinds, nk, sizeof *kinds, by_kind, arg);
	int any = 0;
	for (size_t k = 0; k < nk && any >= 0;) {
		size_t ng = gather(cfg, h, kinds, nk, k, g, pos, slot);
		int rc = ng > 1 ? deal_group(pl, h, g, ng, slot, val, v, who) : 0;
		any = rc < 0 ? -1 : any | rc;
		k += ng;
	}
	return any;
}

/* The dealt plan against the speed-ordered one (in keep[]) in the seconds
 * model at the relative speeds: slower is undone (the plan keeps the
 * faster; equal counts are then a cost the summary prints).  The kept
 * plan's time is plan_2d's lu_hetero, not run again. */
static void judge(hl_plan *pl, size_t *keep)
{
	size_t N = pl->cfg->nmachines;
	double dealt = hl_model_seconds(pl, 0, HL_SPEEDS_RELATIVE);
	size_t *mine = pl->sel;
	pl->sel = keep;
	double before = hl_model_seconds(pl, 0, HL_SPEEDS_RELATIVE);
	pl->sel = mine;
	if (!(dealt > 0 && before > 0))
		return;   /* no prediction: the grid's own model is unchanged */
	pl->deal_cost = dealt / before;
	int faster = dealt <= before * (1.0 + 1e-12);
	pl->lu_hetero = faster ? dealt : before;   /* plan_2d's */
	if (faster)
		return;
	memcpy(pl->sel, keep, N * sizeof *keep);
	for (size_t a = 0; a < pl->nalike; a++)
		pl->alike[a].dealt = 0;
}

int hl_alike_deal(hl_plan *pl, diag *d)
{
	size_t N = pl->cfg->nmachines;
	size_t *ord = malloc(N * sizeof *ord), *work = calloc(7 * N, sizeof *work),
	       *keep = malloc(N * sizeof *keep);
	host_cells *h = calloc(N, sizeof *h);
	pl->alike = calloc(N, sizeof *pl->alike);
	int rc = ord && work && keep && h && pl->alike ? 0 : -1;
	if (rc == 0) {
		memcpy(keep, pl->sel, N * sizeof *keep);
		size_t nh = find_hosts(pl->cfg, ord, h);
		rc = nh < N ? deal_all(pl, h, nh, work) : 0;
		if (rc > 0)
			judge(pl, keep);
	}
	free(ord);
	free(work);
	free(keep);
	free(h);
	if (rc < 0)
		diag_error(d, 0, 0, "out of memory");
	return rc < 0 ? -1 : 0;
}
