/*
 * enrol.c -- HoLM's resource selection for heterogeneous workers, beyond
 * paper 003 (its s8 leaves it as future work; notes s6.1).
 *
 * Worker i with mu_i = mu_holm(m_i) computes mu_i^2 updates per 2 mu_i
 * blocks it receives; flat out it does 1/w_i updates per unit time and so
 * keeps the master's port busy a fraction f_i = 2 c_i / (mu_i w_i) of the
 * time (plus 2 c_i / (t w_i) when C traffic is counted).  Throughput is
 * sum x_i / w_i under sum x_i f_i <= 1: a fractional knapsack whose value
 * per unit of port is (1/w_i) / f_i = mu_i / (2 c_i) (+C term), so the
 * workers go in by increasing port cost per update.  With identical workers
 * the count is ceil(1/f) = ceil(mu w / 2c), s5.1's P.
 */
#include <math.h>

#include "planner/internal.h"
#include "mw.h"

/* Workers by increasing key, ties to the lower index (a stable order). */
typedef struct {
	double key;
	size_t i;
} keyed;

static int by_key(const void *a, const void *b)
{
	const keyed *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static vproc_status sort_by_key(size_t p, const double *key, size_t *order)
{
	keyed *k = vproc_calloc(p, sizeof *k);
	if (!k)
		return VPROC_ENOMEM;
	for (size_t i = 0; i < p; i++)
		k[i] = (keyed){ key[i], i };
	qsort(k, p, sizeof *k, by_key);
	for (size_t i = 0; i < p; i++)
		order[i] = k[i].i;
	free(k);
	return VPROC_OK;
}

/* Port time per update of worker i. */
static double port_per_update(double c, double w, size_t mu, size_t t)
{
	double f = 2.0 * c / ((double)mu * w);
	if (t > 0)
		f += 2.0 * c / ((double)t * w);
	return f * w;  /* f_i / (1/w_i) */
}

vproc_status vproc_mw_enrol(size_t p, const double *c, const double *w, const size_t *m,
                            size_t t, size_t *order, double *x, size_t *count, double *rate)
{
	if (!c || !w || !m || !order || !x || !count || !rate)
		return VPROC_EINVAL;
	if (vproc_check_times(p, c) != VPROC_OK || vproc_check_times(p, w) != VPROC_OK)
		return VPROC_EINVAL;
	double *key = vproc_calloc(p, sizeof *key);
	if (!key)
		return VPROC_ENOMEM;
	for (size_t i = 0; i < p; i++) {
		size_t mu = vproc_mw_mu_holm(m[i]);
		if (mu == 0) {
			free(key);
			return VPROC_EINVAL;
		}
		key[i] = port_per_update(c[i], w[i], mu, t);
	}
	vproc_status st = sort_by_key(p, key, order);
	if (st == VPROC_OK) {
		double port = 1.0, r = 0.0;
		size_t n = 0;
		for (size_t i = 0; i < p; i++)
			x[i] = 0.0;
		for (size_t k = 0; k < p && port > 1e-12; k++) {
			size_t i = order[k];
			double f = key[i] / w[i];  /* port fraction flat out */
			x[i] = f <= port ? 1.0 : port / f;
			port -= x[i] * f;
			r += x[i] / w[i];
			n++;
		}
		*count = n;
		*rate = r;
	}
	free(key);
	return st;
}
