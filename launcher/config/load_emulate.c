/*
 * load_emulate.c -- the emulate: block (true, false, or a mapping of the
 * schema's HL_KS_EMULATE rows): its keys, the checks between them, the
 * defaults that depend on the rest of the file, and the reference speed
 * the emulation scales every machine by.
 */
#include "config/load_internal.h"

#include <stdio.h>
#include <string.h>

/* Across the keys of a mapping read without an error: the first conflict
 * (compute: and stall_timeout_s: keys, or NULL). */
static int check_emulate(diag *d, const yt_node *v, const hl_emulation *e,
                         const yt_node *compute, const yt_node *stall)
{
	/* The real clock's time moves by itself: only virtual clocks stall. */
	if (stall && !e->virtual_clock) {
		diag_error(d, stall->line, stall->col, "emulate: stall_timeout_s needs clock: virtual");
		return -1;
	}
	/* Skipped compute has no real duration to sleep off: only virtual
	 * time can charge what was not run. */
	if (e->skip_compute && !e->virtual_clock) {
		diag_error(d, compute->line, compute->col, "emulate: compute: skip needs clock: "
		           "virtual (the real clock would sleep off work that never ran)");
		return -1;
	}
	if (e->cycle_time > 0.0 && e->mflops == 0.0) {
		diag_error(d, v->line, v->col, "emulate: cycle_time needs mflops (the speed of a "
		           "machine of that cycle time)");
		return -1;
	}
	return 0;
}

/* emulate: true | false | a mapping of the schema's emulate: keys */
int cfg_load_emulate(diag *d, const yt_node *v, hl_emulation *e)
{
	char allowed[256];
	hl_key_list(allowed, sizeof allowed, HL_KS_EMULATE, NULL);
	if (v->kind == YT_SCALAR)
		return hl_cfg_bool(d, "emulate", v, &e->on);
	if (v->kind != YT_MAP) {
		diag_error(d, v->line, v->col, "emulate: expected true, false or a mapping (%s)",
		           allowed);
		return -1;
	}
	int rc = cfg_check_duplicate_keys(d, v);
	const yt_node *compute = NULL, *stall = NULL;
	e->on = 1;
	for (size_t i = 0; i < v->n; i++) {
		const yt_node *key = v->items[2 * i], *x = v->items[2 * i + 1];
		char name[CFG_KEY_NAME];
		const hl_key_def *row = cfg_section_key(d, HL_KS_EMULATE, "emulate", key, name);
		if (row == NULL || cfg_read_value(d, name, row, x, e) < 0)
			rc = -1;
		else if (strcmp(row->name, "cpu_time") == 0)   /* else its default depends on the clock */
			e->cpu_time_given = 1, e->cpu_time_loc = (hl_loc){ key->line, key->col };
		else if (strcmp(row->name, "compute") == 0)
			compute = key;
		else if (strcmp(row->name, "stall_timeout_s") == 0)
			stall = key;
	}
	if (rc == 0)
		rc = check_emulate(d, v, e, compute, stall);
	return rc < 0 ? -1 : 0;
}

/* cpu_time's default.  Under the virtual clock, the flop models only: a
 * run then gives the same times whatever else this computer is doing
 * (INTERFACE.md, "Emulation clock"), where the CPU time outside the modelled
 * BLAS moved lhpc's LU n = 1800 by 1-3% beside two CPU hogs.  kernel: exec
 * keeps it (its compute may be outside the BLAS), and so does kernel: hpl:
 * hpcc's LatencyBandwidth lengthens its loops of ping-pongs until they
 * last ten clock ticks, and between ranks of one machine they cost nothing
 * on the flop models (run.c refuses that case); so does the real clock,
 * whose times move with the load anyway. */
void cfg_emu_defaults(hl_config *cfg)
{
	hl_emulation *e = &cfg->emu;
	if (!e->cpu_time_given && e->virtual_clock && cfg->kernel != HL_KERNEL_EXEC &&
	    cfg->kernel != HL_KERNEL_HPL)
		e->no_cpu_time = 1;
}

double hl_config_emulation_tref(const hl_config *cfg)
{
	return cfg->emu.cycle_time > 0 ? cfg->emu.cycle_time : hl_config_tmin(cfg);
}

double hl_config_emulation_K(const hl_config *cfg)
{
	return cfg->emu.mflops * hl_config_emulation_tref(cfg);
}
