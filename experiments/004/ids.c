/*
 * experiments/004/ids.c -- the deterministic ids of paper 004 (Legrand,
 * Renard, Robert, Vivien, *Static load-balancing techniques for iterative
 * computations on heterogeneous clusters*): Prop 1 on both platforms,
 * Tables 5-6 (on the data as the paper must have used it, and on the
 * correct model), and Figs 4-5 (the optimal number of processors against
 * W/H).  The checked notes ../shared/specs/004-slicering.md ("notes") say
 * where the paper is wrong; values the paper does not print are compared
 * with the notes' and labelled so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "planner/ring/ring.h"
#include "ring_platforms.h"

typedef struct {
	const char *name;
	size_t p;
	const double *w;
	double c[LYON_P * LYON_P];
} platform;

static void get_platform(int stras, platform *pf)
{
	pf->name = stras ? "Strasbourg" : "Lyon";
	pf->p = stras ? STRAS_P : LYON_P;
	pf->w = stras ? stras_w : lyon_w;
	if (stras)
		stras_links(pf->c);
	else
		lyon_links(pf->c);
}

/* ---- 004-prop1: the homogeneous closed form (004 s3, notes s2, A1) ------- */

static void prop1_rows(report *r, int stras)
{
	platform pf;
	get_platform(stras, &pf);
	double c = stras ? .048 : .248, T, th, T2;
	size_t q;
	must(vproc_ring_prop1(pf.p, pf.w, c, 1, 1, &T, &q, &th), "vproc_ring_prop1");
	add_num(r, fmt("%s, c = %g: threshold W/H (notes A1)", pf.name, c),
	        stras ? 18.676188 : 68.016871, 6, th);
	const double Ws[2] = { 10, 100 };
	for (int k = stras; k < 2; k++) {
		must(vproc_ring_prop1(pf.p, pf.w, c, Ws[k], 1, &T, &q, NULL), "vproc_ring_prop1");
		double want = stras ? 0.164976 : k ? 0.640769 : 0.0874;
		add_num(r, fmt("%s, W = %g, H = 1: T_step (notes A1; q = %zu)", pf.name, Ws[k], q),
		        want, k ? 6 : 4, T);
	}
	/* The exact solver on the same homogeneous links agrees on both sides. */
	double cc[LYON_P * LYON_P];
	for (size_t i = 0; i < pf.p * pf.p; i++)
		cc[i] = c;
	int same = 1;
	for (int k = 0; k < 2; k++) {
		double W = th * (k ? 2.0 : 0.5);
		vproc_ring_platform pl = { pf.p, pf.w, cc, W, 1.0 };
		vproc_ring e;
		must(vproc_ring_exact(&pl, &e), "vproc_ring_exact");
		must(vproc_ring_prop1(pf.p, pf.w, c, W, 1, &T2, &q, NULL), "vproc_ring_prop1");
		same = same && fabs(e.T - T2) <= 1e-12 * T2 && e.q == q;
		vproc_ring_free(&e);
	}
	add(r, fmt("%s: the exact solver equals Prop 1 at W/H = threshold x 0.5 and x 2", pf.name),
	    fmt("true"), fmt(same ? "true" : "false"), same);
}

static void id_004_prop1(report *r)
{
	double s = 1.0 / vproc_cost_ideal(LYON_P, lyon_w);
	add_num(r, "Lyon: sum 1/w_i (notes A1)", 690.754841, 6, s);
	prop1_rows(r, 0);
	prop1_rows(r, 1);
	note(r, "004 Prop 1 prints no numbers: the reference values are the checked notes' "
	        "(../shared/specs/004-slicering.md A1), with every link at the platforms' most "
	        "common cost (Lyon .248, Strasbourg .048). T = min{W w_min, W w_cumul + 2Hc}.");
}

/* ---- 004-table5, 004-table6 (004 s6.3; notes s7) ------------------------- */

/* The inverted data the paper's runs used: d^run_ij = w_i (1/c_ij + 1/c_ji). */
static void drun(const platform *pf, double *e)
{
	size_t p = pf->p;
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j < p; j++)
			e[i * p + j] = i == j ? 0.0 : pf->w[i] * (1 / pf->c[i * p + j] + 1 / pf->c[j * p + i]);
}

/* min over |S| = q of the least cycle through S, for q = 2..p. */
static void min_per_q(const vproc_ring_hk *hk, double *best)
{
	for (size_t q = 0; q <= hk->p; q++)
		best[q] = INFINITY;
	for (unsigned long S = 1; S < 1ul << hk->p; S++) {
		size_t q = (size_t)__builtin_popcountl(S);
		if (q >= 2 && hk->len[S] < best[q])
			best[q] = hk->len[S];
	}
}

/* The greedy of notes s5 on any edge weights e (the cost of inserting k
 * between j and l: e_jk + e_kl - e_jl; ties within 1e-10 of the largest
 * weight to the lowest k, then the earliest position), from start; len[q]
 * is the length of the grown ring of q machines. */
static void greedy_lengths(size_t p, const double *e, size_t start, double *len)
{
	size_t ring[LYON_P], n = 1;
	unsigned char in[LYON_P] = { 0 };
	double emax = 0.0;
	for (size_t i = 0; i < p * p; i++)
		emax = fmax(emax, e[i]);
	ring[0] = start;
	in[start] = 1;
	for (; n < p; n++) {
		size_t bk = p, bm = 0;
		double bs = INFINITY;
		for (size_t k = 0; k < p; k++)
			for (size_t m = 0; m < n && !in[k]; m++) {
				size_t j = ring[m], l = ring[(m + 1) % n];
				double s = n == 1 ? e[j * p + k] + e[k * p + j]
				                  : e[j * p + k] + e[k * p + l] - e[j * p + l];
				if (bk == p || s < bs - 1e-10 * emax) {
					bs = s;
					bk = k;
					bm = m;
				}
			}
		memmove(ring + bm + 2, ring + bm + 1, (n - bm - 1) * sizeof *ring);
		ring[bm + 1] = bk;
		in[bk] = 1;
		double L = 0.0;
		for (size_t m = 0; m <= n; m++)
			L += e[ring[m] * p + ring[(m + 1) % (n + 1)]];
		len[n + 1] = L;
	}
}

static void table_rows(report *r, int stras)
{
	static const double lyon_g[12] = { 1202, 556, 1152, 906, 2240, 3238, 4236, 5234, 6232, 7230,
	                                   8228, 10077 };
	static const double lyon_pip[12] = { 878, 556, 1128, 906, 2075, 3071, 0, 0, 0, 0, 0, 9059 };
	static const double st_g[11] = { 1520, 2112, 3144, 3736, 4958, 5668, 7353, 8505, 10195,
	                                  12490, 15759 };
	static const double st_pip[11] = { 1517, 2109, 3141, 3733, 4955, 5660, 7348, 8500, 10188,
	                                   12235, 14757 };
	static const double a2_lyon[13] = { 27.2165, 57.0520, 78.5192, 92.1275, 116.2051, 140.2828,
	                                    164.3605, 188.4381, 212.5158, 236.5935, 260.6712,
	                                    284.7488, 330.0577 };
	static const double a2_st[12] = { 6.4856, 10.5926, 15.2629, 20.4827, 26.1429, 40.4137,
	                                  46.0739, 76.1797, 96.2313, 119.2847, 159.6693, 211.4703 };
	platform pf;
	get_platform(stras, &pf);
	size_t p = pf.p;
	const double *G = stras ? st_g : lyon_g, *PIP = stras ? st_pip : lyon_pip;
	double e[LYON_P * LYON_P], ex[LYON_P + 1], gr[LYON_P + 1], dc[LYON_P + 1];
	vproc_ring_hk hk;
	drun(&pf, e);
	must(vproc_ring_hk_build(p, e, &hk), "vproc_ring_hk_build");
	min_per_q(&hk, ex);
	vproc_ring_hk_free(&hk);
	greedy_lengths(p, e, vproc_fastest(p, pf.w), gr);
	/* The correct model: least sum d, d_ij = c_ij/w_i + c_ji/w_j (notes A2). */
	double d[LYON_P * LYON_P];
	vproc_ring_platform pl = { p, pf.w, pf.c, 1.0, 1.0 };
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j < p; j++)
			d[i * p + j] = i == j ? 0.0 : vproc_ring_d(&pl, i, j);
	must(vproc_ring_hk_build(p, d, &hk), "vproc_ring_hk_build");
	min_per_q(&hk, dc);
	vproc_ring_hk_free(&hk);
	sb_printf(&r->md, "| q | paper greedy | paper PIP | exact, d^run | vs PIP | greedy, d^run "
	          "| least sum d, correct d |\n|--:|--:|--:|--:|--:|--:|--:|\n");
	for (size_t q = 3; q <= p; q++) {
		double g = G[q - 3], pip = PIP[q - 3], x = 6000 * ex[q], y = 6000 * gr[q];
		char *ours = fmt("{\"exact_drun\":%.1f,\"greedy_drun\":%.1f}", x, y);
		if (pip > 0) {
			double dev = (x - pip) / pip;
			add(r, fmt("q = %zu: PIP (6000 x least sum d^run; within 0.3%%: %+.2f%%)", q,
			           100 * dev), fmt("{\"greedy\":%g,\"PIP\":%g}", g, pip), ours,
			    fabs(dev) <= 0.003);
		} else {
			add(r, fmt("q = %zu: PIP ran out of memory; ours", q), NULL, ours, -1);
		}
		char pb[32] = "out of memory", db[32] = "";
		if (pip > 0) {
			snprintf(pb, sizeof pb, "%g", pip);
			snprintf(db, sizeof db, "%+.2f%%", 100 * (x - pip) / pip);
		}
		sb_printf(&r->md, "| %zu | %g | %s | %.1f | %s | %.1f | %.4f |\n", q, g, pb, x, db, y,
		          dc[q]);
	}
	const double *a2 = stras ? a2_st : a2_lyon;
	int ok = 1;
	for (size_t q = 2; q <= p; q++)
		ok = ok && fabs(dc[q] - a2[q - 2]) < 1e-4;
	add(r, "correct model: least sum d per q = 2..p (notes A2, not in the paper)",
	    jnums(a2, p - 1, 4), jnums(dc + 2, p - 1, 4), ok);
}

static void id_004_table5(report *r)
{
	table_rows(r, 0);
	note(r, "No reading of the paper's d reproduces Tables 5-6 (notes s7): they are 6000 x the "
	        "least sum over a ring of q machines of d^run_ij = w_i (1/c_ij + 1/c_ji), the "
	        "paper's d on both tables inverted, which the exact Held-Karp table gives for every "
	        "q (also q = 9..13, where PIP ran out of memory). Every printed PIP cell is within "
	        "0.3%% except q = 5: 1230.5 is optimal on the printed data (glpsol proves it too, "
	        "notes s7), yet the paper prints 1128 (and greedy 1152), so its runs used other "
	        "data: an expected mismatch. The greedy rows cannot be matched exactly (the "
	        "insertion cost and ties are not given); ours grows by Delta of d^run from the "
	        "fastest machine. The last row is the correct model's objective (notes A2).");
}

static void id_004_table6(report *r)
{
	table_rows(r, 1);
	note(r, "As for Table 5: 6000 x the least sum of d^run_ij = w_i (1/c_ij + 1/c_ji) over "
	        "rings of q machines, exact by Held-Karp; every PIP cell within 0.3%%. The paper's "
	        "greedy row is not matched exactly (rules not given); the notes' greedy gives "
	        "7354.5 .. 15051.9 from q = 9, ours the same rules. The last row is the correct "
	        "model's least sum d (notes A2).");
}

/* ---- 004-fig4, 004-fig5: p_opt against W/H (004 s6.3; notes s9.1, A3) -- */

static size_t q_at(const platform *pf, const vproc_ring_hk *hk, double rho, double *T)
{
	vproc_ring_platform pl = { pf->p, pf->w, pf->c, rho, 1.0 };
	vproc_ring e;
	must(vproc_ring_exact_hk(&pl, hk, &e), "vproc_ring_exact_hk");
	size_t q = e.q;
	*T = e.T;
	vproc_ring_free(&e);
	return q;
}

static size_t greedy_q(const platform *pf, double rho)
{
	vproc_ring_platform pl = { pf->p, pf->w, pf->c, rho, 1.0 };
	vproc_ring g;
	must(vproc_ring_greedy(&pl, (size_t)-1, VPROC_RING_INSERT_DELTA, &g), "vproc_ring_greedy");
	size_t q = g.q;
	vproc_ring_free(&g);
	return q;
}

static void fig_rows(report *r, int stras, const char *paper_seq)
{
	static const double bp_lyon[1] = { 65.524086 };
	static const double bp_st[3] = { 7.957520, 37.878355, 282.026605 };
	platform pf;
	get_platform(stras, &pf);
	size_t p = pf.p, npts = r->quick ? 61 : 301;
	double d[LYON_P * LYON_P], T;
	vproc_ring_platform pl = { p, pf.w, pf.c, 1.0, 1.0 };
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j < p; j++)
			d[i * p + j] = i == j ? 0.0 : vproc_ring_d(&pl, i, j);
	vproc_ring_hk hk;
	must(vproc_ring_hk_build(p, d, &hk), "vproc_ring_hk_build");
	/* W/H from 1 to 1000, log-spaced; breakpoints by bisection. */
	double bps[16];
	size_t seq[16], nb = 0, ns = 0;
	sb_printf(&r->dat, "# W/H p_opt(exact) p(greedy) T(exact) (004 Fig %d)\n", stras ? 5 : 4);
	size_t prev = 0;
	double prho = 0;
	for (size_t k = 0; k < npts; k++) {
		double rho = pow(10.0, 3.0 * (double)k / (double)(npts - 1));
		size_t q = q_at(&pf, &hk, rho, &T);
		sb_printf(&r->dat, "%.6g %zu %zu %.6g\n", rho, q, greedy_q(&pf, rho), T);
		if (k && q != prev && nb < 16) {
			double lo = prho, hi = rho;
			for (int it = 0; it < 60; it++) {
				double mid = 0.5 * (lo + hi);
				if (q_at(&pf, &hk, mid, &T) == prev)
					lo = mid;
				else
					hi = mid;
			}
			bps[nb++] = 0.5 * (lo + hi);
		}
		if ((k == 0 || q != prev) && ns < 16)
			seq[ns++] = q;
		prev = q;
		prho = rho;
	}
	vproc_ring_hk_free(&hk);
	sbuf b = { 0 };
	for (size_t k = 0; k < ns; k++)
		sb_printf(&b, "%s%zu", k ? " -> " : "", seq[k]);
	char *ours = sb_take(&b);
	add(r, "p_opt as W/H grows (1 .. 1000)", fmt("\"%s\"", paper_seq), fmt("\"%s\"", ours),
	    strcmp(ours, paper_seq) == 0);
	free(ours);
	const double *want = stras ? bp_st : bp_lyon;
	size_t nwant = stras ? 3 : 1;
	int ok = nb == nwant;
	for (size_t k = 0; ok && k < nb; k++)
		ok = matches_printed(bps[k], want[k], 6);
	add(r, "breakpoints of W/H (notes A3, not in the paper)", jnums(want, nwant, 6),
	    jnums(bps, nb, 6), ok);
}

static void id_004_fig4(report *r)
{
	fig_rows(r, 0, "1 -> 14");
	sb_printf(&r->md, "![004 Fig 4](004-fig4.png)\n");
	note(r, "Fig 4 is lost (caption only); s6.3 says p_opt jumps from 1 to 14 on Lyon, with "
	        "the greedy at 6 in between. The correct model (exact: Held-Karp on d_ij = "
	        "c_ij/w_i + c_ji/w_j, the max term handled exactly) gives 1 -> 14 at W/H = "
	        "65.524086; ID.dat has the greedy's q too.");
}

static void id_004_fig5(report *r)
{
	fig_rows(r, 1, "1 -> 10 -> 11 -> 13");
	sb_printf(&r->md, "![004 Fig 5](004-fig5.png)\n");
	note(r, "Fig 5 is lost; s6.3 says p_opt on Strasbourg jumps from 1 to 10, 11 and 13. The "
	        "correct model gives 1 -> 6 -> 8 -> 13 (notes A3): the paper's runs used the "
	        "inverted data (notes s7: they give 1 -> 10 -> 12 -> 13), so this is an expected "
	        "mismatch.");
}

static const struct idspec IDS[] = {
	{ "004-prop1", "004 Prop 1 (s3): homogeneous links, Lyon and Strasbourg speeds", 0,
	  id_004_prop1 },
	{ "004-table5", "004 Table 5: greedy and PIP on Lyon, on the data the paper used", 1,
	  id_004_table5 },
	{ "004-table6", "004 Table 6: greedy and PIP on Strasbourg, on the data the paper used", 0,
	  id_004_table6 },
	{ "004-fig4", "004 Fig 4: optimal number of processors against W/H, Lyon", 0, id_004_fig4 },
	{ "004-fig5", "004 Fig 5: optimal number of processors against W/H, Strasbourg", 1,
	  id_004_fig5 },
};

const ex_paper EX_PAPER_004 = { "004", IDS, sizeof IDS / sizeof IDS[0], NULL };
