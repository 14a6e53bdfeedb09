/*
 * fuzz_config.c -- libFuzzer harness over what `hetlaunch plan` runs on an
 * untrusted machine list: the YAML loader (yamltree.c), the
 * schema (config/ and the layouts' keys) and, on an accepted file, the
 * planner, the ranks and the host files.  Built by `make fuzz` with clang,
 * ASan, UBSan and leak detection; a crash, a leak, a sanitizer report or a
 * timeout is a finding.
 *
 * The loader reads a path, so the input goes to a memfd once per run and
 * is loaded as /proc/self/fd/N: no file system, no temporary files.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config/config.h"
#include "util/diag.h"
#include "launch/hostfile.h"
#include "layouts/memory.h"
#include "layouts/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int input_fd = -1;
static char input_path[64];

/* A plan is only as large as a file can ask: keep the planner's work per
 * input bounded, as the loader's limits do for `hetlaunch plan`. */
static void plan_and_print(const hl_config *cfg, diag *d)
{
	hl_plan plan;
	if (hl_plan_build_checked(cfg, d, &plan) < 0)
		return;
	hl_ranks r;
	FILE *null = fopen("/dev/null", "w");
	if (null && hl_ranks_from_plan(&plan, &r) == 0) {
		diag hd;
		diag_init(&hd, cfg->file);
		if (hl_hostfile_check(HL_HOSTS_MPICH, cfg, &r, &hd) == 0)
			hl_hostfile_print(null, HL_HOSTS_MPICH, cfg, &r);
		diag_free(&hd);
		hl_ranks_free(&r);
	}
	if (null && hl_ranks_cyclic(&plan, &r) == 0) {
		hl_hostfile_print(null, HL_HOSTS_OPENMPI, cfg, &r);
		hl_ranks_free(&r);
	}
	if (null) {
		hl_plan_print_json(&plan, null);
		fclose(null);
	}
	hl_plan_free(&plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (input_fd < 0) {
		input_fd = memfd_create("hetlaunch-fuzz", 0);
		if (input_fd < 0)
			abort();
		snprintf(input_path, sizeof input_path, "/proc/self/fd/%d", input_fd);
	}
	if (ftruncate(input_fd, 0) < 0 || pwrite(input_fd, data, size, 0) != (ssize_t)size)
		abort();
	diag d;
	diag_init(&d, "fuzz.yaml");
	hl_config cfg;
	if (hl_config_load(input_path, &d, &cfg) == 0) {
		plan_and_print(&cfg, &d);
		hl_config_free(&cfg);
	}
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		diag_print(&d, null);
		fclose(null);
	}
	diag_free(&d);
	return 0;
}
