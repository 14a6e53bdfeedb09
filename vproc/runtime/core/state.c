/*
 * state.c -- see state.h.
 */
#include "core.h"
#include "state.h"

vr_state vr_seg = { .machine_index = -1, .ncpu = 1 };

int vr_virtual(void)
{
	return vr_seg.virtual_clock;
}

int vr_emulating(void)
{
	return vr_seg.emulating;
}

int vr_cpus(void)
{
	return vr_seg.ncpu;
}
