/*
 * layout.c -- the memory layouts of paper 003 and what follows from them:
 * mu for maximum re-use (s4.1) and for HoLM (s5, Alg 1), DDOML's and the
 * BMM/OBMM squares (s6.2), the communication-to-computation bounds (s4.2),
 * the volume of a tiled product (notes s4) and HoLM's worker count (s5.1).
 */
#include <math.h>

#include "mw.h"

/* The largest x >= 0 with x^2 + k x + c0 <= m (k, c0 small constants).
 * Starts from the floating-point root and corrects it in integers, so that
 * rounding never gives an x one too large or too small. */
static size_t largest_root(size_t m, size_t k, size_t c0)
{
	if (m < c0)
		return 0;
	double d = (double)k * (double)k + 4.0 * (double)(m - c0);
	double x0 = (sqrt(d) - (double)k) / 2.0;
	size_t x = x0 > 0 ? (size_t)x0 : 0;
	while (x > 0 && x * x + k * x + c0 > m)
		x--;
	while ((x + 1) * (x + 1) + k * (x + 1) + c0 <= m)
		x++;
	return x;
}

/* s4.1: one A block, mu B blocks, mu^2 C blocks (Fig 5: m = 21 -> 4). */
size_t vproc_mw_mu_reuse(size_t m)
{
	return largest_root(m, 1, 1);
}

/* s5: mu^2 C + mu A + mu B + 2 mu for the second set; the paper's
 * floor(sqrt(4 + m)) - 2 (notes s9: its |.| are floor brackets). */
size_t vproc_mw_mu_holm(size_t m)
{
	return largest_root(m, 4, 0);
}

/* s6.2, DDOML: no second set, so mu^2 + 2 mu <= m. */
size_t vproc_mw_mu_dd(size_t m)
{
	return largest_root(m, 2, 0);
}

/* floor(sqrt(m / d)): the largest nu with d nu^2 <= m. */
static size_t square_side(size_t m, size_t d)
{
	size_t x = (size_t)sqrt((double)m / (double)d);
	while (x > 0 && d * x * x > m)
		x--;
	while (d * (x + 1) * (x + 1) <= m)
		x++;
	return x;
}

/* s6.2: BMM splits the memory in three equal squares (A, B, C), OBMM in five
 * (two A/B sets). */
size_t vproc_mw_nu_bmm(size_t m)
{
	return square_side(m, 3);
}

size_t vproc_mw_nu_obmm(size_t m)
{
	return square_side(m, 5);
}

/* A block of q x q doubles takes 8 q^2 bytes (notes s4: 512 MB at q = 80
 * gives 10485 buffers). */
size_t vproc_mw_buffers(double bytes, size_t q)
{
	if (!(bytes > 0) || q == 0 || !isfinite(bytes))
		return 0;
	return (size_t)floor(bytes / (8.0 * (double)q * (double)q));
}

/* s4.1: per mu x mu square of C, t (mu + mu) A and B blocks for t mu^2
 * updates, plus 2 mu^2 for C itself. */
double vproc_mw_ccr_reuse(size_t mu, size_t t)
{
	return 2.0 / (double)t + 2.0 / (double)mu;
}

/* s4.2, Toledo's lemma: alpha = beta = gamma = 2/3 gives k = sqrt(32/27)
 * and CCR_opt = sqrt(27 / (32 m)). */
double vproc_mw_k_toledo(void)
{
	return sqrt(32.0 / 27.0);
}

double vproc_mw_ccr_toledo(double m)
{
	return sqrt(27.0 / (32.0 * m));
}

/* s4.2, Loomis-Whitney: k = sqrt(8/27), CCR_opt = sqrt(27 / (8 m)). */
double vproc_mw_k_lw(void)
{
	return sqrt(8.0 / 27.0);
}

double vproc_mw_ccr_lw(double m)
{
	return sqrt(27.0 / (8.0 * m));
}

/* s4.2: the bound of [22] that the Loomis-Whitney one improves on. */
double vproc_mw_ccr_ref22(double m)
{
	return sqrt(1.0 / (8.0 * m));
}

static size_t ceil_div(size_t x, size_t y)
{
	return (x + y - 1) / y;
}

size_t vproc_mw_volume(size_t r, size_t t, size_t s, size_t a)
{
	if (a == 0)
		return 0;
	return 2 * r * s + t * (r * ceil_div(s, a) + s * ceil_div(r, a));
}

/* s5.1: while the master sends the 2 mu t blocks of one worker's tile to the
 * P workers in turn (2 mu t c P), the first one computes its mu^2 t updates
 * (mu^2 t w): the smallest P with 2 mu c P >= mu^2 w.  C traffic ignored. */
size_t vproc_mw_holm_workers(size_t p, size_t mu, double c, double w)
{
	if (p == 0 || mu == 0 || !(c > 0) || !(w > 0))
		return 0;
	double x = ceil((double)mu * w / (2.0 * c) - 1e-12);
	size_t P = x < 1.0 ? 1 : (x >= (double)p ? p : (size_t)x);
	return P;
}

/* s5.2: the time the first worker waits while the master serves the others
 * at the start of a round, relative to the round: 2 c P / (t w). */
double vproc_mw_holm_loss(size_t P, size_t t, double c, double w)
{
	return 2.0 * c * (double)P / ((double)t * w);
}

/* s5.2: with P = ceil(mu w / 2c) < mu w / 2c + 1, the loss is below
 * mu/t + 2c/(tw). */
double vproc_mw_holm_loss_bound(size_t mu, size_t t, double c, double w)
{
	return (double)mu / (double)t + 2.0 * c / ((double)t * w);
}

/* A lower bound on any schedule's makespan (what `hetlaunch plan` prints as
 * lower_bound), the largest of:
 *  - every block crosses the port once, C twice: (r t + t s + 2 r s) c;
 *  - the Loomis-Whitney bound of s4.2: at least sqrt(27/(8m)) blocks per
 *    update, r s t sqrt(27/(8 m)) c (with the largest m and the least c);
 *  - the updates on all p workers at once: r s t / sum(1/w_i).
 * The notes' s4 "LB" column is not reproduced (its formula is not given;
 * ours is higher on Figs 7b, 7c and 8, equal on 7a and Fig 9). */
vproc_status vproc_mw_lower_bound(const vproc_mw_problem *pb, double *lb)
{
	if (!pb || !lb || pb->p == 0 || pb->r == 0 || pb->t == 0 || pb->s == 0)
		return VPROC_EINVAL;
	double c = INFINITY, rate = 0.0, m = 0.0;
	for (size_t i = 0; i < pb->p; i++) {
		double ci = pb->ci ? pb->ci[i] : pb->c, wi = pb->wi ? pb->wi[i] : pb->w;
		double mi = (double)(pb->mi ? pb->mi[i] : pb->m);
		if (!isfinite(ci) || !(ci > 0) || !isfinite(wi) || !(wi > 0) || !(mi > 0))
			return VPROC_EINVAL;
		c = fmin(c, ci);
		rate += 1.0 / wi;
		m = fmax(m, mi);
	}
	double r = (double)pb->r, t = (double)pb->t, s = (double)pb->s;
	double once = (r * t + t * s + 2.0 * r * s) * c;
	double lw = r * s * t * vproc_mw_ccr_lw(m) * c;
	*lb = fmax(fmax(once, lw), r * s * t / rate);
	return VPROC_OK;
}
