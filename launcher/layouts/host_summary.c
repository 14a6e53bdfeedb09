/*
 * host_summary.c -- the plan's processes per host: what mpiexec starts on
 * each node, per core, the hosts left without a process and why, and why
 * two alike hosts (same cores, same speeds) get different counts and what
 * equal counts would cost.  The planners see machines (cores), not hosts:
 * these words are the bridge a user reads the plan by.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

extern const hl_layout_ops hl_layout_1d, hl_layout_2d;

typedef struct {
	const char *name;
	size_t first;        /* its first machine (config index) */
	size_t machines, cores, procs;
	size_t cmin, cmax;   /* processes per machine, least and most */
	double t;            /* the machines' cycle time; -1: unlike machines */
} host_row;

/* The hosts in list order of their first machine, counted from counts[];
 * hrow[i]: machine i's host. */
static size_t host_rows(const hl_config *cfg, const size_t *counts, host_row *h, size_t *hrow)
{
	size_t nh = 0;
	for (size_t i = 0; i < cfg->nmachines; i++) {
		const hl_machine *m = &cfg->machines[i];
		size_t k = 0;
		while (k < nh && strcmp(h[k].name, m->host) != 0)
			k++;
		if (k == nh)
			h[nh++] = (host_row){ m->host, i, 0, 0, 0, counts[i], counts[i], m->cycle_time };
		host_row *r = &h[k];
		hrow[i] = k;
		r->machines++;
		r->cores += m->cores ? m->cores : 1;
		r->procs += counts[i];
		r->cmin = counts[i] < r->cmin ? counts[i] : r->cmin;
		r->cmax = counts[i] > r->cmax ? counts[i] : r->cmax;
		if (r->t != m->cycle_time)
			r->t = -1.0;
	}
	return nh;
}

/* Alike hosts: as many machines and cores, of one and the same cycle time. */
static int alike(const host_row *a, const host_row *b)
{
	return a->machines == b->machines && a->cores == b->cores && a->t > 0 && a->t == b->t;
}

static void per_core(const host_row *r, char *buf, size_t len)
{
	if (r->machines != r->cores)   /* nodes given with cores: */
		snprintf(buf, len, "%.3g", (double)r->procs / (double)r->cores);
	else if (r->cmin == r->cmax)
		snprintf(buf, len, "%zu", r->cmin);
	else
		snprintf(buf, len, "%zu-%zu", r->cmin, r->cmax);
}

static void print_table(const hl_plan *pl, const host_row *h, size_t nh, size_t nranks,
                        FILE *out)
{
	size_t cores = 0;
	int w = 12;   /* the longest host name, for a runs' "a..b" label too */
	for (size_t k = 0; k < nh; k++) {
		cores += h[k].cores;
		w = (int)strlen(h[k].name) > w ? (int)strlen(h[k].name) : w;
	}
	fprintf(out, "\nProcesses per host (%zu ranks on %zu cores of %zu host%s):\n", nranks,
	        cores, nh, nh == 1 ? "" : "s");
	fprintf(out, "  %-*s %6s %12s %10s  %s\n", w, "host", "cores", "cycle_time", "processes",
	        "per core");
	for (size_t k = 0; k < nh; k++) {
		size_t run = 1;   /* alike hosts with equal counts: one line */
		while (hl_text_summarised(pl) && k + run < nh && alike(&h[k], &h[k + run]) &&
		       h[k + run].procs == h[k].procs && h[k + run].cmin == h[k].cmin &&
		       h[k + run].cmax == h[k].cmax)
			run++;
		char label[64], pc[32], t[32];
		if (run > 1)
			snprintf(label, sizeof label, "%s..%s", h[k].name, h[k + run - 1].name);
		else
			snprintf(label, sizeof label, "%s", h[k].name);
		per_core(&h[k], pc, sizeof pc);
		snprintf(t, sizeof t, h[k].t > 0 ? "%g" : "mixed", h[k].t);
		fprintf(out, "  %-*s %6zu %12s %10zu  %s%s\n", w, label, h[k].cores, t, h[k].procs, pc,
		        run > 1 ? "  (each)" : "");
		k += run - 1;
	}
}

/* Why the plan leaves a host without processes, in its layout's terms. */
static void print_dropped(const hl_plan *pl, const host_row *h, size_t nh, FILE *out)
{
	size_t n = 0;
	for (size_t k = 0; k < nh; k++)
		if (h[k].procs == 0)
			fprintf(out, "%s%s", n++ ? ", " : "  dropped (no process): ", h[k].name);
	if (n == 0)
		return;
	const hl_layout_ops *row = pl->cfg->layout;
	if (row == &hl_layout_1d)
		fprintf(out, "\n    one process on one of their cores would take longer per column "
		        "block than the\n    plan's slowest machine, max c_i t_i = %.6g "
		        "(the incremental allocation, 000 s3.3)\n", pl->hetero * (double)pl->B);
	else if (row == &hl_layout_2d)
		fprintf(out, "\n    the slowest machines, left off the %zu x %zu grid (its shape "
		        "chosen by predicted time, 000 s4)\n", pl->p, pl->q);
	else
		fprintf(out, "\n    this layout's plan gives their machines no process\n");
}

/*
 * Layout 1d: the cheapest equal counts on alike hosts at most this plan's
 * B (B <= M: adding is not always possible): each group's processes shared
 * out evenly, the remainder dropped (B' = B - remainders), each host's
 * share spread evenly over its machines.  Returns the time per column block
 * that gives, max c_i t_i / B', and the group shares in share[host].
 */
static double equal_cost_1d(const hl_plan *pl, const host_row *h, size_t nh, size_t *share)
{
	const hl_config *cfg = pl->cfg;
	double worst = 0.0;
	size_t B = pl->B;
	for (size_t i = 0; i < cfg->nmachines; i++)   /* the hosts not in a group */
		if ((double)pl->slice.counts[i] * cfg->machines[i].cycle_time > worst)
			worst = (double)pl->slice.counts[i] * cfg->machines[i].cycle_time;
	for (size_t k = 0; k < nh; k++) {
		size_t total = 0, g = 0, lead = k;
		for (size_t j = 0; j < nh; j++)
			if (alike(&h[k], &h[j])) {
				total += h[j].procs;
				g++;
				lead = j < lead ? j : lead;
			}
		share[k] = total / g;
		if (lead == k)
			B -= total - g * share[k];
	}
	for (size_t k = 0; k < nh; k++) {   /* the groups' own worst, recomputed */
		size_t per = (share[k] + h[k].machines - 1) / h[k].machines;
		if (h[k].t > 0 && (double)per * h[k].t > worst)
			worst = (double)per * h[k].t;
	}
	return B ? worst / (double)B : 0.0;
}

/* What the summary needs of the plan: its hosts, each machine's
 * processes and host. */
typedef struct {
	const hl_plan *pl;
	const host_row *h;
	size_t nh;
	const size_t *counts, *hrow;
} summary;

static void print_unequal_why(const hl_plan *pl, const host_row *h, size_t nh, FILE *out)
{
	const hl_layout_ops *row = pl->cfg->layout;
	if (row == &hl_layout_1d) {
		size_t *share = calloc(nh, sizeof *share);
		double eq = share ? equal_cost_1d(pl, h, nh, share) : 0.0;
		free(share);
		fprintf(out, "    why: the allocation (000 s3.3) gives each next process to the core "
		        "where (c+1) t is least;\n    alike cores tie and the ties go in list "
		        "order, so B = %zu does not fall evenly\n", pl->B);
		if (eq > 0)
			fprintf(out, "    cost of equal counts (each group's processes shared evenly, "
			        "the remainder dropped):\n    %.6g per column block, %.4f x this "
			        "plan's\n", eq, eq / pl->hetero);
	} else if (row == &hl_layout_2d) {
		fprintf(out, "    why: every machine of a grid row gets that row's R_i process rows, "
		        "rounded to integers\n    that sum to the panel's %zu (000 s4.3), and the "
		        "arrangement orders machines by speed,\n    not by host; other grids and "
		        "panels are not searched for equal counts\n", pl->panel.Bp);
	} else {
		fprintf(out, "    why: this layout plans machines, not hosts\n");
	}
}

/* Layout 2d's record of the group led by host k (alike_hosts.c). */
static const hl_alike *alike_record(const summary *S, size_t k)
{
	for (size_t a = 0; a < S->pl->nalike; a++)
		if (S->pl->alike[a].first == S->h[k].first)
			return &S->pl->alike[a];
	return NULL;
}

/* The processes of the cells that the group of host k holds, by value:
 * "4 x72, 3 x54, 2 x2" (largest first).  1 when a machine has none. */
static int print_cell_mix(const summary *S, size_t k, FILE *out)
{
	size_t top = SIZE_MAX;
	for (;;) {   /* the next value below top, and how many cells hold it */
		size_t v = 0, n = 0;
		int found = 0;
		for (size_t i = 0; i < S->pl->cfg->nmachines; i++) {
			size_t c = S->counts[i];
			if (!alike(&S->h[S->hrow[i]], &S->h[k]) || c >= top || (found && c < v))
				continue;
			n = found && c == v ? n + 1 : 1;
			v = c;
			found = 1;
		}
		if (!found)
			return top == 0;
		fprintf(out, "%s%zu x%zu", top == SIZE_MAX ? "" : ", ", v, n);
		top = v;
	}
}

/* Layout 2d: why the group led by host k keeps unequal counts. */
static void print_group_why_2d(const summary *S, size_t k, FILE *out)
{
	const hl_alike *rec = alike_record(S, k);
	size_t g = 0;
	for (size_t i = 0; i < S->nh; i++)
		g += alike(&S->h[i], &S->h[k]);
	if (rec == NULL || rec->hosts != g) {
		fprintf(out, "    their machines differ in a key the models read (cores, mflops, "
		        "network, memory_gb):\n    they cannot trade grid cells\n");
		return;
	}
	if (rec->res == VPROC_DEAL_EQUAL) {
		fprintf(out, "    equal counts (their grid cells traded, 000 s4.3.1) cost %.4f x this "
		        "plan's time\n    (LU step by step at the relative speeds): the plan keeps "
		        "the faster\n", S->pl->deal_cost);
		return;
	}
	fprintf(out, "    equal counts %s on this grid and panel: their %zu machines hold "
	        "cells of\n    ", rec->res == VPROC_DEAL_BUDGET ? "not found" : "impossible",
	        rec->hosts * S->h[k].machines);
	int off = print_cell_mix(S, k, out);
	fprintf(out, " processes%s, ", off ? " (0: left off the grid)" : "");
	if (rec->res == VPROC_DEAL_INDIVISIBLE)
		fprintf(out, "%zu in all,\n    not a multiple of %zu hosts\n", rec->procs,
		        rec->hosts);
	else
		fprintf(out, "and %s\n    gives every host %zu (%zu machines each)\n",
		        rec->res == VPROC_DEAL_BUDGET ? "within the search's budget no split"
		        : "no split of them", rec->procs / rec->hosts, S->h[k].machines);
}

/* Alike hosts given different counts: each such group named once, with
 * every host's count (layout 2d: with its own why), then the layout's why. */
static void print_unequal(const summary *S, FILE *out)
{
	const host_row *h = S->h;
	size_t nh = S->nh;
	int any = 0;
	for (size_t k = 0; k < nh; k++) {
		int leader = 1, unequal = 0;
		for (size_t i = 0; i < nh; i++) {
			leader &= !(i < k && alike(&h[i], &h[k]));
			unequal |= alike(&h[i], &h[k]) && h[i].procs != h[k].procs;
		}
		if (!leader || !unequal)
			continue;
		fprintf(out, "  alike hosts, unequal counts:");
		for (size_t i = k; i < nh; i++)
			if (alike(&h[i], &h[k]))
				fprintf(out, " %s %zu", h[i].name, h[i].procs);
		fputc('\n', out);
		if (S->pl->cfg->layout == &hl_layout_2d)
			print_group_why_2d(S, k, out);
		any = 1;
	}
	if (any)
		print_unequal_why(S->pl, h, nh, out);
}

/* The hosts alike to host k: all named up to four, else the first and
 * the last and how many. */
static void print_group(const summary *S, size_t k, FILE *out)
{
	size_t g = 0, last = k;
	for (size_t i = k; i < S->nh; i++)
		if (alike(&S->h[i], &S->h[k])) {
			g++;
			last = i;
		}
	if (g > 4) {
		fprintf(out, " %s..%s (%zu hosts)", S->h[k].name, S->h[last].name, g);
		return;
	}
	for (size_t i = k; i < S->nh; i++)
		if (alike(&S->h[i], &S->h[k]))
			fprintf(out, " %s", S->h[i].name);
}

/* Layout 2d: the groups whose cells were dealt to equal counts. */
static void print_dealt(const summary *S, FILE *out)
{
	const hl_plan *pl = S->pl;
	int any = 0;
	for (size_t k = 0; k < S->nh; k++) {
		const hl_alike *rec = alike_record(S, k);
		if (rec == NULL || !rec->dealt)
			continue;
		fprintf(out, "%s", any++ ? "," : "  alike hosts given equal counts:");
		print_group(S, k, out);
		fprintf(out, " %zu each", rec->procs / rec->hosts);
	}
	if (!any)
		return;
	fprintf(out, "\n    how: the arrangement orders machines by speed, not by host, but the "
	        "grid sees a\n    cell's cycle time only (000 s4.3.1): alike machines traded "
	        "cells, R_i, C_j and\n    the panel unchanged; ");
	if (pl->deal_cost > 0)
		fprintf(out, "equal counts cost %.4f x the speed-ordered plan's time\n    (LU step "
		        "by step at the relative speeds)\n", pl->deal_cost);
	else
		fprintf(out, "the grid's predicted time unchanged (no step-by-step model\n    for "
		        "this plan)\n");
}

void hl_host_summary_text(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	hl_ranks r = { 0 };
	size_t *counts = calloc(cfg->nmachines, sizeof *counts);
	size_t *hrow = calloc(cfg->nmachines, sizeof *hrow);
	host_row *h = calloc(cfg->nmachines, sizeof *h);
	if (counts && hrow && h && hl_ranks_from_plan(pl, &r) == 0) {
		for (size_t k = 0; k < r.nranks; k++)
			counts[r.machine[k]]++;
		size_t nh = host_rows(cfg, counts, h, hrow);
		summary S = { pl, h, nh, counts, hrow };
		if (nh < cfg->nmachines) {   /* a host per machine: the machine table says it */
			print_table(pl, h, nh, r.nranks, out);
			print_dropped(pl, h, nh, out);
			print_dealt(&S, out);
			print_unequal(&S, out);
		}
		hl_ranks_free(&r);
	}
	free(counts);
	free(hrow);
	free(h);
}
