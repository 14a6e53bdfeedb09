/*
 * measured.c -- machine speeds from a finished run (measured.h).
 */
#include <math.h>
#include <string.h>

#include "measured_times.h"
#include "planner/internal.h"

double vproc_tg_column_work(const vproc_tg *g, size_t j)
{
	double w = vproc_tg_work(g, j, j);
	for (size_t s = 0; s < j; s++)
		w += vproc_tg_work(g, s, j);
	return w;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

vproc_status vproc_measured_times(size_t p, size_t nranks, const size_t *machine,
                                  const double *work, const double *compute, double *t)
{
	if (p == 0 || machine == NULL || work == NULL || compute == NULL || t == NULL)
		return VPROC_EINVAL;
	for (size_t r = 0; r < nranks; r++)
		if (machine[r] >= p || !isfinite(work[r]) || work[r] < 0 || !isfinite(compute[r]))
			return VPROC_EINVAL;
	double *est = vproc_calloc(nranks, sizeof *est);
	if (est == NULL)
		return VPROC_ENOMEM;
	for (size_t i = 0; i < p; i++) {
		size_t c = 0, n = 0;
		for (size_t r = 0; r < nranks; r++)
			c += machine[r] == i;
		for (size_t r = 0; r < nranks; r++)
			if (machine[r] == i && work[r] > 0 && compute[r] > 0)
				est[n++] = 2.0 * compute[r] / ((double)(c + 1) * work[r]);
		t[i] = n ? median(est, n) : 0.0;
	}
	free(est);
	return VPROC_OK;
}

vproc_status vproc_measured_busy(size_t p, size_t nranks, const size_t *machine,
                                 const double *work, const double *busy, double *t)
{
	if (p == 0 || machine == NULL || work == NULL || busy == NULL || t == NULL)
		return VPROC_EINVAL;
	for (size_t i = 0; i < p; i++)
		t[i] = 0.0;
	for (size_t r = 0; r < nranks; r++) {
		if (machine[r] >= p || !isfinite(work[r]) || work[r] < 0)
			return VPROC_EINVAL;
		t[machine[r]] += work[r];
	}
	for (size_t i = 0; i < p; i++)
		t[i] = t[i] > 0 && isfinite(busy[i]) && busy[i] > 0 ? busy[i] / t[i] : 0.0;
	return VPROC_OK;
}

vproc_status vproc_measured_fill(size_t p, const double *t_old, double *t_new)
{
	vproc_status st = vproc_check_times(p, t_old);
	if (st != VPROC_OK || t_new == NULL)
		return st != VPROC_OK ? st : VPROC_EINVAL;
	double *ratio = vproc_calloc(p, sizeof *ratio);
	if (ratio == NULL)
		return VPROC_ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < p; i++)
		if (t_new[i] > 0)
			ratio[n++] = t_new[i] / t_old[i];
	if (n == 0) {
		free(ratio);
		return VPROC_EINVAL;
	}
	double scale = median(ratio, n);
	free(ratio);
	for (size_t i = 0; i < p; i++)
		if (!(t_new[i] > 0))
			t_new[i] = t_old[i] * scale;
	return VPROC_OK;
}
