/*
 * lu_predict.c -- see lu_predict.h.
 */
#include <stdlib.h>

#include "config.h"
#include "dense/lu_time.h"
#include "dense/mm_time.h"
#include "dense/qr_time.h"
#include "lu_predict.h"

/* The kernels with a seconds model (vproc/dense/), NULL for the others. */
static vproc_status (*seconds_model(hl_kernel k))(const vproc_lu_platform *, vproc_lu_seconds *)
{
	switch (k) {
	case HL_KERNEL_LU: return vproc_lu_time;
	/* HPL is right-looking LU on the same block-cyclic grid; its
	 * look-ahead and broadcast variants are not modelled (hpl.h) */
	case HL_KERNEL_HPL: return vproc_lu_time;
	case HL_KERNEL_MM: return vproc_mm_time;
	case HL_KERNEL_QR: return vproc_qr_time;
	default: return NULL;
	}
}

double hl_lu_predicted_time(const hl_plan *plan, int baseline)
{
	const hl_config *cfg = plan->cfg;
	vproc_status (*model)(const vproc_lu_platform *, vproc_lu_seconds *) =
		seconds_model(cfg->kernel);
	if (!cfg->emulate || !(cfg->emu.mflops > 0) || cfg->emu.links || model == NULL)
		return 0.0;
	size_t p = cfg->nmachines;
	double K = hl_config_emulation_K(cfg);
	double *mf = calloc(3 * p, sizeof *mf);
	hl_ranks r = { 0 };
	int rc = mf ? (baseline ? hl_ranks_cyclic(plan, &r) : hl_ranks_from_plan(plan, &r)) : -1;
	if (rc < 0) {
		free(mf);
		return 0.0;
	}
	double *lat = mf + p, *bw = mf + 2 * p;
	for (size_t i = 0; i < p; i++) {
		const hl_machine *m = &cfg->machines[i];
		mf[i] = m->emulate_mflops > 0 ? m->emulate_mflops : K / m->cycle_time;
		lat[i] = (m->latency_us > 0 ? m->latency_us : cfg->emu.latency_us) * 1e-6;
		bw[i] = (m->bandwidth_mbps > 0 ? m->bandwidth_mbps : cfg->emu.bandwidth_mbps) * 1e6 / 8.0;
	}
	vproc_lu_platform pl = { 0, cfg->nb, r.nprow, r.npcol, r.machine, p, mf, lat, bw,
	                         cfg->emu.bus, cfg->emu.latency_us * 1e-6,
	                         cfg->emu.bandwidth_mbps * 1e6 / 8.0 };
	double total = 0.0;
	for (size_t k = 0; k < cfg->nsizes; k++) {
		vproc_lu_seconds s;
		pl.n = cfg->sizes[k];
		if (model(&pl, &s) != VPROC_OK) {
			total = 0.0;
			break;
		}
		total += s.total;
	}
	hl_ranks_free(&r);
	free(mf);
	return total * K;
}

double hl_predicted_seconds(const hl_plan *plan, int baseline)
{
	double t = hl_lu_predicted_time(plan, baseline);
	return t > 0 ? t / hl_config_emulation_K(plan->cfg) : 0.0;
}

int hl_seconds_affordable(const hl_config *cfg, size_t nranks)
{
	/* The dense models walk every step and, in it, every process's blocks
	 * (vproc_cyclic_owned_from): about M^2 (P Q + machines) steps of work.
	 * 1e8 is about half a second here, and a plan runs them up to four
	 * times (layout_1d.c's order, plan.c's seconds); the loader lets n
	 * reach 10^7 with nb = 1 (make fuzz gives an input 10 s). */
	double work = 0.0;
	for (size_t k = 0; k < cfg->nsizes; k++) {
		double M = cfg->nb ? (double)cfg->sizes[k] / (double)cfg->nb + 1.0 : 0.0;
		work += M * M * (double)(nranks + cfg->nmachines);
	}
	return work <= 1e8;
}
