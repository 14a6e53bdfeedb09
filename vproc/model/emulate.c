/*
 * emulate.c -- the arithmetic of the emulated cluster: charging compute to
 * a machine shared by its virtual processes, the one-port network of paper
 * 003 s2.2, and the choice of absolute speeds.  Pure: the runtime
 * (vproc/runtime/) applies it to shared memory and clocks.
 */
#include <math.h>

#include "model.h"

unsigned long long vproc_emu_charge(unsigned long long busy_until, unsigned long long ready,
                                    unsigned long long work)
{
	/* First come, first served: the segment starts when both it and the
	 * machine are ready. */
	unsigned long long start = ready > busy_until ? ready : busy_until;
	return start + work;
}

unsigned long long vproc_emu_work(unsigned long long cpu_ns, double scale)
{
	double w = (double)cpu_ns * scale;
	if (!(w > 0.0))
		return 0;
	if (w >= 1.8e19)
		return 18000000000000000000ull;
	return (unsigned long long)llround(w);
}

unsigned long long vproc_emu_send(unsigned long long port_free, unsigned long long now,
                                  unsigned long long latency_ns, double bytes_per_s,
                                  unsigned long long bytes, unsigned long long *free_out)
{
	unsigned long long start = now > port_free ? now : port_free;
	unsigned long long wire = 0;
	if (bytes_per_s > 0.0)
		wire = (unsigned long long)llround((double)bytes / bytes_per_s * 1e9);
	/* The port is busy while the bytes go out; the latency is the wire's,
	 * not the port's, so the next message may leave before this one
	 * arrives. */
	*free_out = start + wire;
	return start + wire + latency_ns;
}

vproc_status vproc_emu_speeds(size_t p, const double *t, double host_mflops, unsigned cores,
                              double mflops_ref, double t_ref, double *scale, double *K)
{
	if (p == 0 || t == NULL || scale == NULL || K == NULL || !(host_mflops > 0.0) ||
	    !isfinite(host_mflops) || cores == 0)
		return VPROC_EINVAL;
	if (vproc_check_times(p, t) != VPROC_OK)
		return VPROC_EINVAL;
	double k;
	if (mflops_ref > 0.0) {
		if (!(t_ref > 0.0) || !isfinite(mflops_ref) || !isfinite(t_ref))
			return VPROC_EINVAL;
		k = mflops_ref * t_ref;
	} else {
		double inv = 0.0, tmin = t[0];
		for (size_t i = 0; i < p; i++) {
			inv += 1.0 / t[i];
			if (t[i] < tmin)
				tmin = t[i];
		}
		k = host_mflops * (double)cores / 2.0 / inv;
		/* A quarter of a core per machine: its processes also run the
		 * runtime, and small DGEMMs go slower than the measured shape
		 * (at half a core, xdlu on lhpc overran by 0-14%). */
		if (k > host_mflops / 4.0 * tmin)
			k = host_mflops / 4.0 * tmin;
	}
	for (size_t i = 0; i < p; i++) {
		scale[i] = host_mflops * t[i] / k;
		if (scale[i] < 1.0)
			return VPROC_EINVAL;
	}
	*K = k;
	return VPROC_OK;
}
