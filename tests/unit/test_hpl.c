/*
 * test_hpl.c -- kernel: hpl (hpl.h): the hpccinf.txt hetlaunch writes, read
 * back line by line as HPL_pdinfo and hpcc's io.c read it; the parser on
 * recorded hpccoutf.txt files (tests/data/hpcc-*.txt, see its README); and
 * kernel: exec's inputs: placeholders (inputs.h).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/hpl.h"
#include "kernels/inputs.h"
#include "kernels/testers.h"

#include "data.h"

static char *input(const hl_hpl_settings *s, const size_t *sizes, size_t ns, size_t nb,
                   size_t p, size_t q)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(hl_hpl_write_input(s, sizes, ns, nb, p, q, f), 0);
	fclose(f);
	return buf;
}

/* Line k (1-based) of text, its first value as HPL's sscanf("%s") reads it. */
static void value_of(const char *text, int k, char *out, size_t len)
{
	const char *s = text;
	for (int i = 1; i < k; i++) {
		s = strchr(s, '\n');
		assert_non_null(s);
		s++;
	}
	size_t n = strcspn(s, " \t\n");
	assert_true(n < len);
	memcpy(out, s, n);
	out[n] = '\0';
}

static void test_input_lines(void **state)
{
	(void)state;
	hl_hpl_settings s;
	hl_hpl_defaults(&s);
	const size_t sizes[] = { 400, 600 };
	char *t = input(&s, sizes, 2, 40, 2, 3);
	char v[32];
	/* HPL_pdinfo's lines: #N, Ns, #NB, NB, PMAP, #grids, P, Q, threshold */
	const struct { int line; const char *want; } lines[] = {
		{ 5, "2" }, { 6, "400" }, { 7, "1" }, { 8, "40" }, { 9, "0" }, { 10, "1" },
		{ 11, "2" }, { 12, "3" }, { 13, "16" }, { 15, "2" }, { 17, "4" }, { 19, "2" },
		{ 21, "1" }, { 23, "1" }, { 25, "1" }, { 26, "2" }, { 27, "64" }, { 30, "1" },
		{ 31, "8" }, { 33, "0" }, { 35, "0" },
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		value_of(t, lines[i].line, v, sizeof v);
		assert_string_equal(v, lines[i].want);
	}
	assert_non_null(strstr(t, "\n400 600  Ns\n"));
	/* hpcc counts its first 32 lines with fgets(buf, 82): none longer */
	int nl = 0;
	for (const char *x = t; *x; x += strcspn(x, "\n") + 1, nl++)
		assert_true(strcspn(x, "\n") < 81);
	assert_int_equal(nl, 36);
	free(t);
}

static void test_input_settings_and_limits(void **state)
{
	(void)state;
	hl_hpl_settings s;
	hl_hpl_defaults(&s);
	s.bcast = 3;
	s.depth = 0;
	s.swap = 0;
	const size_t big[HL_HPL_MAX_SIZES] = { 10000000, 10000000, 10000000, 10000000,
		                               10000000, 10000000, 10000000, 10000000 };
	char *t = input(&s, big, HL_HPL_MAX_SIZES, 32, 1, 1);
	char v[32];
	value_of(t, 23, v, sizeof v);
	assert_string_equal(v, "3");
	value_of(t, 25, v, sizeof v);
	assert_string_equal(v, "0");
	value_of(t, 26, v, sizeof v);
	assert_string_equal(v, "0");
	for (const char *x = t; *x; x += strcspn(x, "\n") + 1)
		assert_true(strcspn(x, "\n") < 81);   /* 8 sizes of 8 digits still fit */
	free(t);
	FILE *f = fopen("/dev/null", "w");
	size_t nine[HL_HPL_MAX_SIZES + 1] = { 0 };
	for (size_t i = 0; i <= HL_HPL_MAX_SIZES; i++)
		nine[i] = 100;
	assert_int_equal(hl_hpl_write_input(&s, nine, HL_HPL_MAX_SIZES + 1, 32, 1, 1, f), -1);
	assert_int_equal(hl_hpl_write_input(&s, nine, 0, 32, 1, 1, f), -1);
	assert_int_equal(hl_hpl_write_input(&s, nine, 1, 0, 1, 1, f), -1);
	fclose(f);
}

static void parse(const char *name, hl_results *r)
{
	char *t = slurp(name);
	assert_int_equal(hl_hpl_parse(HL_KERNEL_HPL, t, r), 0);
	free(t);
}

static void test_parse_passed(void **state)
{
	(void)state;
	hl_results r;
	parse("hpcc-passed-1x3-2sizes.txt", &r);
	assert_true(r.passed);
	assert_int_equal(r.nresults, 2);
	assert_int_equal(r.results[0].n, 400);
	assert_int_equal(r.results[1].n, 600);
	assert_int_equal(r.results[1].nb, 40);
	assert_int_equal(r.results[1].nprow, 1);
	assert_int_equal(r.results[1].npcol, 3);
	assert_true(fabs((r.results[1].time) - (0.52)) < 1e-9);
	assert_true(fabs((r.results[1].gflops) - (0.2759)) < 1e-9);
	assert_true(fabs((r.results[1].residual) - (0.0085114)) < 1e-12);
	assert_string_equal(r.results[1].check, "PASSED");
	/* the time behind HPL's Gflop/s, with more digits than its 0.52 */
	assert_true(fabs((r.results[1].rate_time) - (hl_hpl_flops(600) / 0.2759e9)) < 1e-12);
	assert_true(fabs(r.results[1].rate_time - 0.52) < 0.006);
	assert_int_equal(r.npassed, 2);
	assert_int_equal(r.nfailed, 0);
	assert_null(r.error);
	hl_results_free(&r);
}

static void test_parse_failed(void **state)
{
	(void)state;
	hl_results r;
	parse("hpcc-failed-thresh.txt", &r);
	assert_false(r.passed);
	assert_int_equal(r.nresults, 2);
	assert_string_equal(r.results[0].check, "FAILED");
	assert_int_equal(r.nfailed, 2);
	assert_non_null(r.error);
	assert_non_null(strstr(r.error, "FAILED"));
	assert_int_equal(r.error_is_check, 1);   /* dropped under compute: skip (run.c) */
	hl_results_free(&r);
}

static void test_parse_error_and_truncated(void **state)
{
	(void)state;
	hl_results r;
	parse("hpcc-error-grid.txt", &r);
	assert_false(r.passed);
	assert_int_equal(r.nresults, 0);
	assert_non_null(r.error);
	assert_non_null(strstr(r.error, "HPL ERROR"));
	assert_int_equal(r.error_is_check, 0);
	hl_results_free(&r);
	parse("hpcc-truncated-edited.txt", &r);
	assert_false(r.passed);
	assert_int_equal(r.nresults, 1);   /* the cut WR line is not a result */
	assert_false(r.finished);
	assert_int_equal(r.npassed, -1);   /* PTRANS's "10 tests completed" is not HPL's */
	hl_results_free(&r);
	assert_int_equal(hl_hpl_parse(HL_KERNEL_HPL, "", &r), 0);
	assert_false(r.passed);
	hl_results_free(&r);
}

static void test_mem_need(void **state)
{
	(void)state;
	/* at least the local share of [A | b], and more on fewer processes */
	size_t one = hl_hpl_mem_need(HL_KERNEL_HPL, 2000, 64, 1, 1);
	assert_true(one >= 8 * 2000 * 2001);
	assert_true(one < 8 * 2000 * 2001 * 12 / 10);   /* + two panels of 64 columns */
	assert_true(hl_hpl_mem_need(HL_KERNEL_HPL, 2000, 64, 2, 2) < one / 3);
	assert_int_equal(hl_hpl_mem_need(HL_KERNEL_HPL, 0, 64, 1, 1), 0);
}

static char *expand(const char *text, const hl_input_vars *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	int rc = hl_input_write(text, v, f);
	fclose(f);
	if (rc < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void test_inputs(void **state)
{
	(void)state;
	hl_input_vars v = { 600, 40, 2, 3, 6, "hetero" };
	char *t = expand("grid {nprow} {npcol} of {nprocs}\nn={n} nb={nb} {mapping} {{x}} }}\n", &v);
	assert_string_equal(t, "grid 2 3 of 6\nn=600 nb=40 hetero {x} }\n");
	free(t);
	size_t at;
	char bad[64];
	assert_int_equal(hl_input_check("a {n} {{b}}", &at, bad, sizeof bad), 0);
	assert_int_equal(hl_input_check("a\n{nn}", &at, bad, sizeof bad), -1);
	assert_int_equal(at, 2);
	assert_string_equal(bad, "unknown placeholder {nn}");
	assert_int_equal(hl_input_check("x { y", &at, bad, sizeof bad), -1);
	assert_non_null(strstr(bad, "unclosed"));
	assert_int_equal(hl_input_check("x } y", &at, bad, sizeof bad), -1);
	assert_int_equal(at, 2);
	assert_null(expand("{N}", &v));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_input_lines),
		cmocka_unit_test(test_input_settings_and_limits),
		cmocka_unit_test(test_parse_passed),
		cmocka_unit_test(test_parse_failed),
		cmocka_unit_test(test_parse_error_and_truncated),
		cmocka_unit_test(test_mem_need),
		cmocka_unit_test(test_inputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
