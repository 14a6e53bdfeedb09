/*
 * test_balance.c -- launcher/report/balance.c's bars: a bar per machine up
 * to HL_BALANCE_BY_HOST machines, a bar per host beyond; every label says
 * the processes each run started there, and a machine the plan drops says
 * "dropped".
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/balance.h"

/* Three machines: the plan runs 2 processes on a, 1 on b, none on c. */
static void per_machine(void **state)
{
	(void)state;
	hl_machine m[3] = { { .name = "a", .host = "h1" }, { .name = "b", .host = "h1" },
		            { .name = "c", .host = "h2" } };
	hl_config cfg = { .machines = m, .nmachines = 3 };
	size_t cyc_m[3] = { 0, 1, 2 }, het_m[3] = { 0, 1, 0 };
	hl_rank_time cyc_t[3] = { { 0, 1, 3 }, { 1, 2, 2 }, { 2, 4, 0 } };
	hl_rank_time het_t[3] = { { 0, 2, 1 }, { 1, 2, 1 }, { 2, 4, 1 } };
	hl_balance_run runs[2] = { { cyc_m, cyc_t, 3 }, { het_m, het_t, 3 } };
	hl_balance_bar *b;
	assert_int_equal(hl_balance_bars(&cfg, runs, &b), 3);
	assert_string_equal(b[0].label, "a:1/2");
	assert_string_equal(b[1].label, "b:1/1");
	assert_string_equal(b[2].label, "c:dropped");
	assert_true(fabs(b[0].compute[1] - 3.0) < 1e-12);   /* (2 + 4) / 2 */
	assert_true(fabs(b[0].total[1] - 4.0) < 1e-12);
	assert_true(fabs(b[2].total[0] - 4.0) < 1e-12);
	assert_true(isnan(b[2].compute[1]));
	free(b);
}

/* 40 one-core machines on 3 hosts (16, 16, 8: the last dropped): 3 bars. */
static void per_host(void **state)
{
	(void)state;
	hl_machine m[40];
	char names[40][8];
	for (size_t i = 0; i < 40; i++) {
		snprintf(names[i], sizeof names[i], "c.%zu", i);
		m[i] = (hl_machine){ .name = names[i], .host = i < 16 ? "n1" : i < 32 ? "n2" : "n3" };
	}
	hl_config cfg = { .machines = m, .nmachines = 40 };
	size_t cyc_m[40], het_m[64];
	hl_rank_time cyc_t[40], het_t[64];
	for (size_t k = 0; k < 40; k++) {
		cyc_m[k] = k;
		cyc_t[k] = (hl_rank_time){ k, 1.0, 1.0 };
	}
	for (size_t k = 0; k < 64; k++) {   /* 3 each on n1's cores, 1 each on n2's */
		het_m[k] = k < 48 ? k / 3 : 16 + (k - 48);
		het_t[k] = (hl_rank_time){ k, k < 48 ? 1.0 : 2.0, 0.5 };
	}
	hl_balance_run runs[2] = { { cyc_m, cyc_t, 40 }, { het_m, het_t, 64 } };
	hl_balance_bar *b;
	assert_int_equal(hl_balance_bars(&cfg, runs, &b), 3);
	assert_string_equal(b[0].label, "n1[16]:16/48");
	assert_string_equal(b[1].label, "n2[16]:16/16");
	assert_string_equal(b[2].label, "n3[8]:dropped");
	assert_true(fabs(b[1].total[1] - 2.5) < 1e-12);
	assert_int_equal(b[2].procs[0], 8);
	free(b);
}

/* balance.png's title: the run's name, then lines short enough for the
 * 900-pixel picture (one long line was cut off on both sides), saying a
 * bar is one process's seconds, the mean over the machine's processes. */
static void title_lines(void **state)
{
	(void)state;
	hl_machine m[40] = { { .name = "a", .host = "h1" } };
	for (size_t nm = 1; nm <= 40; nm += 39) {
		hl_config cfg = { .name = "department-cluster", .machines = m, .nmachines = nm };
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		hl_balance_gp_title(f, &cfg);
		fclose(f);
		assert_true(strncmp(buf, "set title 'department-cluster' . \"\\n\" . '", 41) == 0);
		size_t lines = 0;
		for (char *q = buf; (q = strchr(q, '\'')) != NULL; lines++) {
			char *end = strchr(q + 1, '\'');
			while (end && end[1] == '\'')   /* '' is a quote inside */
				end = strchr(end + 2, '\'');
			assert_non_null(end);
			assert_true(end - q - 1 <= 80);
			q = end + 1;
		}
		assert_int_equal(lines, 4);
		assert_non_null(strstr(buf, nm > HL_BALANCE_BY_HOST ? "mean over the host''s processes"
		                                                    : "mean over the machine''s processes"));
		assert_non_null(strstr(buf, "a process''s seconds computing"));
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(per_machine),
		cmocka_unit_test(per_host),
		cmocka_unit_test(title_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
