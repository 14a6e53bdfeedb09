/*
 * test_exec_result.c -- launcher/kernels/exec_result.c: a user's program
 * (kernel: exec) read by its result: patterns, or by the stock testers'
 * own lines, on the real outputs of Debian's xdlu, xdqr and dpb3tim
 * (tests/data/, see its README).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/exec_result.h"

#include "data.h"

static int parse(const hl_result_patterns *p, hl_kernel model, const char *name,
                 hl_results *r)
{
	char *log = slurp(name);
	int verdict = 7;
	hl_results_init(r);
	assert_int_equal(hl_exec_result_parse(p, model, log, r, &verdict), 0);
	free(log);
	return verdict;
}

/* No patterns: the stock testers' lines, whatever model: says (none
 * tries each tester). */
static void stock_lines(void **state)
{
	(void)state;
	hl_results r;
	assert_int_equal(parse(NULL, HL_KERNEL_EXEC, "qr-passed-1x2.txt", &r), 1);
	assert_int_equal(r.nresults, 1);
	assert_true(fabs(r.results[0].time - 0.07) < 1e-9);   /* Fact Time */
	assert_string_equal(r.results[0].check, "PASSED");
	hl_results_free(&r);
	assert_int_equal(parse(NULL, HL_KERNEL_QR, "lu-passed-1x2.txt", &r), 1);
	assert_int_equal(r.nresults, 1);
	assert_true(fabs(r.results[0].time - 0.10) < 1e-9);   /* LU Time */
	hl_results_free(&r);
	assert_int_equal(parse(NULL, HL_KERNEL_EXEC, "mm-passed-1x2.txt", &r), 1);
	assert_true(fabs(r.results[0].time - 0.060) < 1e-9);  /* PDGEMM's WALL time */
	hl_results_free(&r);
	assert_int_equal(parse(NULL, HL_KERNEL_QR, "qr-failed-thresh0.txt", &r), 0);
	assert_string_equal(r.results[0].check, "FAILED");
	hl_results_free(&r);
	/* a log of none of them: no result, no verdict (the wall time then) */
	hl_results_init(&r);
	int v = 7;
	assert_int_equal(hl_exec_result_parse(NULL, HL_KERNEL_LU, "hello\nworld\n", &r, &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(r.nresults, 0);
	hl_results_free(&r);
}

/* result: patterns on xdqr's own lines: its time column and its
 * PASSED/FAILED; the testers' parser is not asked then. */
static void patterns(void **state)
{
	(void)state;
	/* Fact Time, the 7th number of the line */
	hl_result_patterns p = {
		.time = "^WALL +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +([0-9.]+) ",
		.passed = " PASSED ", .failed = " FAILED " };
	hl_results r;
	assert_int_equal(parse(&p, HL_KERNEL_QR, "qr-passed-1x2.txt", &r), 1);
	assert_int_equal(r.nresults, 1);
	assert_true(fabs(r.results[0].time - 0.07) < 1e-9);
	assert_int_equal(r.npassed, 1);
	assert_int_equal(r.nfailed, 0);
	hl_results_free(&r);
	assert_int_equal(parse(&p, HL_KERNEL_QR, "qr-failed-thresh0.txt", &r), 0);
	assert_true(fabs(r.results[0].time - 0.08) < 1e-9);
	assert_int_equal(r.nfailed, 1);
	hl_results_free(&r);
	/* a passed: pattern never seen is a failure, as is a time: that matched nothing */
	hl_result_patterns q = { .passed = "ALL GOOD" };
	assert_int_equal(parse(&q, HL_KERNEL_QR, "qr-passed-1x2.txt", &r), 0);
	assert_int_equal(r.nresults, 0);
	hl_results_free(&r);
	hl_result_patterns t = { .time = "^Elapsed: ([0-9.]+)" };
	assert_int_equal(parse(&t, HL_KERNEL_QR, "qr-passed-1x2.txt", &r), 0);
	hl_results_free(&r);
	/* xdlu's LU Time, the 8th column of its result line */
	hl_result_patterns lu = {
		.time = "^WALL +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +([0-9.]+) ",
		.passed = "PASSED$" };
	assert_int_equal(parse(&lu, HL_KERNEL_EXEC, "lu-passed-1x2.txt", &r), 1);
	assert_true(fabs(r.results[0].time - 0.10) < 1e-9);
	hl_results_free(&r);
}

static void checks(void **state)
{
	(void)state;
	char why[160];
	assert_int_equal(hl_result_pattern_check("t ([0-9.]+) s", 1, why, sizeof why), 0);
	assert_int_equal(hl_result_pattern_check("t [0-9.]+ s", 1, why, sizeof why), -1);
	assert_non_null(strstr(why, "needs a group"));
	assert_int_equal(hl_result_pattern_check("t [0-9.]+ s", 0, why, sizeof why), 0);
	assert_int_equal(hl_result_pattern_check("(unclosed", 0, why, sizeof why), -1);
	assert_non_null(strstr(why, "not a regular expression"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stock_lines),
		cmocka_unit_test(patterns),
		cmocka_unit_test(checks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
