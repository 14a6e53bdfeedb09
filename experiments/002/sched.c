/*
 * experiments/002/sched.c -- paper 002 s4: the three schedules
 * of the LU task graph (Fig 11) and their simulated times (Fig 12), with
 * vproc/planner/dense/taskgraph.h.  Both figures are lost from the text: ours are
 * printed, and the one claim the text makes about Fig 12 ("little benefit
 * to expect from the dynamic approach", "quite similar") is checked.
 */
#include <math.h>
#include <stdlib.h>

#include "planner/dense/taskgraph.h"
#include "harness.h"
#include "sched.h"

static const double T358[3] = { 3, 5, 8 };
static const char *SCHED_NAME[VPROC_TG_NSCHED] = { "static", "optimized", "dynamic" };

/* The model of 002 s4.3, as we read it: a column of a matrix of order n is
 * a task unit (b = 1, so "a matrix of size 20" is 20 column blocks), costs
 * are flops times the cycle time, and sending one element costs one time
 * unit ("the same value for the elemental computation and communication
 * times"). */
static vproc_tg paper_graph(size_t n)
{
	return (vproc_tg){ VPROC_TG_LU, n, 1, 1.0 };
}

/* B of "the static allocation of Section 2.2": the slice of Table 3. */
#define B_S22 10

/* Row k: the machine (1-based) of F(k), then of U(k, k+1..M-1). */
static void drawing(sbuf *md, const char *title, const vproc_tg_schedule *s, size_t M,
                    const vproc_tg_times *tm)
{
	sb_printf(md, "%s: makespan %.6g, %zu messages (%.6g elements)\n\n```\nk \\ j", title,
	          tm->makespan, tm->messages, tm->volume);
	for (size_t j = 0; j < M; j++)
		sb_printf(md, "%3zu", j);
	sb_printf(md, "\n");
	for (size_t k = 0; k < M; k++) {
		sb_printf(md, "%5zu", k);
		for (size_t j = 0; j < M; j++) {
			if (j < k)
				sb_printf(md, "   ");
			else
				sb_printf(md, "%3zu", s->machine[vproc_tg_id(M, k, j)] + 1);
		}
		sb_printf(md, "\n");
	}
	sb_printf(md, "```\n\n");
}

/* Beyond the paper: for B = 1..10, the incremental slice (s2.2) against
 * the best of all 3^B slices, both simulated, over the dynamic heuristic. */
static void optimal_slices(report *r, const vproc_tg *g, double dynamic)
{
	sb_printf(&r->md, "| B | incremental slice (s2.2) / dynamic | best of all 3^B slices / dynamic"
	                  " | best pattern |\n|---|---|---|---|\n");
	double inc[10], opt[10];
	for (size_t B = 1; B <= 10; B++) {
		vproc_slice sl;
		vproc_tg_schedule s;
		vproc_tg_times tm;
		size_t pat[10];
		must(vproc_slice_build(3, T358, B, VPROC_SLICE_PLAIN, &sl), "vproc_slice_build");
		must(vproc_tg_static(g, 3, sl.pattern, B, &s), "vproc_tg_static");
		must(vproc_tg_simulate(g, 3, T358, &s, &tm), "vproc_tg_simulate");
		vproc_tg_schedule_free(&s);
		vproc_slice_free(&sl);
		must(vproc_tg_optimal_slice(g, 3, T358, B, pat, &opt[B - 1]), "vproc_tg_optimal_slice");
		inc[B - 1] = tm.makespan / dynamic;
		opt[B - 1] /= dynamic;
		sb_printf(&r->md, "| %zu | %.4f | %.4f |", B, inc[B - 1], opt[B - 1]);
		for (size_t k = 0; k < B; k++)
			sb_printf(&r->md, " %zu", pat[k] + 1);
		sb_printf(&r->md, " |\n");
	}
	sb_printf(&r->md, "\n");
	add_ours(r, "B = 1..10: incremental slice / dynamic", jnums(inc, 10, 4));
	add_ours(r, "B = 1..10: best of all 3^B slices / dynamic", jnums(opt, 10, 4));
}

void id_002_fig11(report *r)
{
	const size_t M = 20;
	vproc_tg g = paper_graph(M);
	vproc_tg_schedule s[VPROC_TG_NSCHED];
	vproc_tg_times tm[VPROC_TG_NSCHED];
	must(vproc_tg_three(&g, 3, T358, B_S22, s, tm), "vproc_tg_three");
	static const char *titles[VPROC_TG_NSCHED] = {
		"Static slice of 002 s2.2 (B = 10, pattern 3 2 1 1 2 1 3 1 2 1)",
		"Optimized allocation of 002 s4.4 (B = 10, C starts at (2, 0, 0))",
		"Dynamic heuristic of 002 s4.3 (Maheswaran-Siegel, from the static slice)",
	};
	sb_printf(&r->md, "Machine (1: t = 3, 2: t = 5, 3: t = 8) of each task: row k is step k,"
	                  " its first entry the factor task F(k), the others the updates"
	                  " U(k, j).\n\n");
	for (int v = 0; v < VPROC_TG_NSCHED; v++) {
		drawing(&r->md, titles[v], &s[v], M, &tm[v]);
		char *l = fmt("%s: makespan, levels, load, messages", SCHED_NAME[v]);
		add_ours(r, l, fmt("[%.10g,%.10g,%.10g,%zu]", tm[v].makespan, tm[v].levels,
		                   tm[v].load, tm[v].messages));
		free(l);
		vproc_tg_schedule_free(&s[v]);
	}
	add_ours(r, "lower bound", jnum(vproc_tg_lower_bound(&g, 3, T358)));
	optimal_slices(r, &g, tm[VPROC_TG_DYNAMIC].makespan);
	note(r, "002 Fig 11 is lost from the text; these are our three allocations for 3 machines"
	        " of cycle times 3, 5, 8 and a matrix of 20 column blocks, LU in flops (b = 1)"
	        " and one time unit per element sent.  makespan: a task starts when its machine"
	        " is free and its inputs have arrived (s4.3's pct); levels: level-synchronous"
	        " steps; load: the busiest machine's compute plus the messages it receives"
	        " (s4.3's estimate).  As the text says of the optimized allocation, F(k) and"
	        " U(k-1,k) are all on machine 1 (column k moves to it and back).  Beyond the"
	        " paper, the table compares every static slice of B = 1..10 with the heuristic:"
	        " on 20 columns the heuristic is at least 12.6%% faster than the best of all 3^B"
	        " slices (59049 for B = 10), because on a small matrix the chain of factor tasks"
	        " and the last steps weigh, and no fixed owner of a column can follow them; the"
	        " incremental slice is within 0-10%% of that best slice (B = 8: 1.2465 against"
	        " 1.1398).  At n >= 1000 (002-fig12) the gap is gone.");
}

/* ---- Fig 12 ------------------------------------------------------------------ */

typedef struct {
	size_t n;
	vproc_tg_times tm[VPROC_TG_NSCHED];
	double bound, single;   /* the lower bound; the static slice of B = n */
} fig12_point;

static void fig12_at(size_t n, fig12_point *pt)
{
	vproc_tg g = paper_graph(n);
	pt->n = n;
	must(vproc_tg_three(&g, 3, T358, B_S22, NULL, pt->tm), "vproc_tg_three");
	pt->bound = vproc_tg_lower_bound(&g, 3, T358);
	vproc_tg_times one[VPROC_TG_NSCHED];
	must(vproc_tg_three(&g, 3, T358, n, NULL, one), "vproc_tg_three");
	pt->single = one[VPROC_TG_STATIC].makespan;
}

/* Beyond the paper (below): every static slice of B = 1..BMAX at n = 1000. */
enum { BMAX = 30 };
typedef struct {
	double times[BMAX], sbest;
	size_t bestB;
} fig12_slices;

typedef union {
	fig12_point pt;
	fig12_slices sl;
} fig12_slot;

/* ex_parallel's items (CI's time): 0 the slices at n = 1000,
 * then the points, the largest n first (the graph grows as n^2), so that
 * the costliest work starts at once. */
static void fig12_item(size_t i, void *slot, void *arg)
{
	const size_t *ns = arg;
	fig12_slot *o = slot;
	if (i == 0) {
		vproc_tg g = paper_graph(1000);
		must(vproc_tg_best_B(&g, 3, T358, BMAX, o->sl.times, &o->sl.bestB, &o->sl.sbest),
		     "vproc_tg_best_B");
	} else {
		fig12_at(ns[i - 1], &o->pt);
	}
}

void id_002_fig12(report *r)
{
	size_t step = r->quick ? 500 : 100, npts = 0, ns[11];
	fig12_point pts[11];
	fig12_slot slots[12];
	for (size_t n = 2000; n >= 1000; n -= step)
		ns[npts++] = n;
	ex_parallel(npts + 1, sizeof *slots, fig12_item, ns, slots);
	for (size_t a = 0; a < npts; a++)
		pts[a] = slots[npts - a].pt;
	const fig12_slices *sl = &slots[0].sl;
	sb_printf(&r->dat, "# n static optimized dynamic bound static_B=n"
	                   " load_static load_optimized load_dynamic (002 Fig 12)\n");
	sb_printf(&r->md, "| n | static (B=10) | optimized | dynamic | dynamic/static |"
	                  " static B=n | lower bound | load: static, optimized, dynamic |\n"
	                  "|---|---|---|---|---|---|---|---|\n");
	double worst = 0.0, best = INFINITY;
	for (size_t a = 0; a < npts; a++) {
		const fig12_point *p = &pts[a];
		double ms = p->tm[0].makespan, mo = p->tm[1].makespan, md = p->tm[2].makespan;
		sb_printf(&r->dat, "%zu %.6g %.6g %.6g %.6g %.6g %.6g %.6g %.6g\n", p->n, ms, mo, md,
		          p->bound, p->single, p->tm[0].load, p->tm[1].load, p->tm[2].load);
		sb_printf(&r->md, "| %zu | %.4g | %.4g | %.4g | %.3f | %.4g | %.4g | %.4g, %.4g, %.4g |\n",
		          p->n, ms, mo, md, md / ms, p->single, p->bound, p->tm[0].load,
		          p->tm[1].load, p->tm[2].load);
		worst = fmax(worst, md / ms);
		best = fmin(best, md / ms);
	}
	/* The paper's claim, as a number: the dynamic heuristic within 10% of
	 * the static slice at every size. */
	add(r, "dynamic / static, n = 1000..2000 (text: \"quite similar\", little benefit)",
	    fmt("\"within 10%%\""), fmt("[%.4f,%.4f]", best, worst), best > 0.9 && worst < 1.1);
	const fig12_point *last = &pts[npts - 1];
	add_ours(r, "n = 2000: dynamic / static slice of B = n (one slice, s2.3)",
	         jnum(last->tm[2].makespan / last->single));
	add_ours(r, "n = 2000: the paper's estimate (load), dynamic / static",
	         jnum(last->tm[2].load / last->tm[0].load));
	add_ours(r, "n = 2000: static, optimized, dynamic, bound",
	         fmt("[%.10g,%.10g,%.10g,%.10g]", last->tm[0].makespan, last->tm[1].makespan,
	             last->tm[2].makespan, last->bound));
	/* Beyond the paper: where a better static slice stops the heuristic
	 * from paying -- the least B whose slice is within 2% of it (n = 1000). */
	const double *times = sl->times;
	size_t within = 0;
	for (size_t b = BMAX; b-- > 0;)
		if (times[b] <= 1.02 * pts[0].tm[2].makespan)
			within = b + 1;
	sb_printf(&r->md, "\nn = 1000, static slice of B over the dynamic heuristic, B = 1..%d:", BMAX);
	for (size_t b = 0; b < BMAX; b++)
		sb_printf(&r->md, "%s %.3f", b ? "," : "", times[b] / pts[0].tm[2].makespan);
	sb_printf(&r->md, "; B = n: %.4f.\n", pts[0].single / pts[0].tm[2].makespan);
	add_ours(r, "n = 1000: best static slice, B <= 30: [B, makespan / dynamic]",
	         fmt("[%zu,%.4f]", sl->bestB, sl->sbest / pts[0].tm[2].makespan));
	add_ours(r, "n = 1000: the least B whose static slice is within 2% of the dynamic heuristic",
	         fmt("%zu", within));
	/* Where the heuristic stops paying: smaller matrices, the slice of B = n. */
	static const size_t small[6] = { 20, 50, 100, 200, 500, 1000 };
	double gap[6];
	sb_printf(&r->md, "\nSmaller matrices, the static slice of B = n over the dynamic heuristic:");
	for (size_t a = 0; a < 6; a++) {
		vproc_tg gs = paper_graph(small[a]);
		vproc_tg_times ts[VPROC_TG_NSCHED];
		must(vproc_tg_three(&gs, 3, T358, small[a], NULL, ts), "vproc_tg_three");
		gap[a] = ts[0].makespan / ts[2].makespan;
		sb_printf(&r->md, "%s n = %zu: %.4f", a ? "," : "", small[a], gap[a]);
	}
	sb_printf(&r->md, ".\n");
	add_ours(r, "static slice of B = n / dynamic, n = 20, 50, 100, 200, 500, 1000", jnums(gap, 6, 4));
	/* QR: the same graph, other durations (002 s4.1). */
	vproc_tg qr = { VPROC_TG_QR, pts[0].n, 1, 1.0 };
	vproc_tg_times tq[VPROC_TG_NSCHED];
	must(vproc_tg_three(&qr, 3, T358, B_S22, NULL, tq), "vproc_tg_three");
	add_ours(r, "QR, n = 1000: optimized / static, dynamic / static",
	         fmt("[%.4f,%.4f]", tq[1].makespan / tq[0].makespan, tq[2].makespan / tq[0].makespan));
	add_ours(r, "n = 2000: static / bound, dynamic / bound",
	         fmt("[%.4f,%.4f]", last->tm[0].makespan / last->bound,
	             last->tm[2].makespan / last->bound));
	note(r, "002 Fig 12's curves are lost from the text; its finding is checked: the dynamic"
	        " heuristic's simulated time against the static slice's.  Model as in 002-fig11"
	        " (t = 3, 5, 8; n columns; LU flops; one time unit per element sent; the static"
	        " slice of B = 10 as in s2.2).  Times are the dataflow makespan; the last column"
	        " is the paper's own estimate (each machine's compute plus what it receives, the"
	        " maximum).  Finding: the paper's holds.  The heuristic gains about 5%% over the"
	        " B = 10 slice, exactly that slice's imbalance (cost 1.6 per block against the"
	        " ideal 1/(1/3 + 1/5 + 1/8) = 1.55, 3%%, plus its end effects), and nothing"
	        " against the single slice of B = n (within 0.3%%, and both within 0.3%% of the"
	        " lower bound; small slices are not enough: the best B <= 30 is 1.7%% slower): what it wins is balance a better static slice also has.  By the"
	        " paper's own estimate (compute plus received messages) it even loses (about 3%%"
	        " worse), since it moves 4x more messages (002-fig11).  %s", r->quick ? "Quick mode: n = 1000, 1500, 2000." : "");
}
