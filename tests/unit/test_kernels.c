/*
 * test_kernels.c -- the kernel table (launcher/kernels/kernels.c), the reader of
 * hl-driver's result lines, and the driver's array sizes
 * (vproc/planner/dense/local_arrays.c) against sizes worked out by hand from NUMROC.
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

#include "kernels/kernels.h"
#include "kernels/testers.h"
#include "planner/dense/dense.h"

static void table_rows(void **state)
{
	(void)state;
	const char *names[] = { "lu", "qr", "chol", "mm", "exec" };
	for (size_t i = 0; i < 5; i++) {
		const hl_kernel_def *r = hl_kernel_find(names[i], 0);
		assert_non_null(r);
		assert_string_equal(hl_kernel_name(r->id), names[i]);
		assert_int_equal(r->stock, 0);
	}
	assert_null(hl_kernel_find("LU", 0));
	assert_null(hl_kernel_find("chol", 1));   /* no stock Cholesky tester */
	assert_null(hl_kernel_find("exec", 1));
	/* the driver by default, argv input; stock: the .dat file and TOTMEM */
	const hl_kernel_def *lu = hl_kernel_row(HL_KERNEL_LU, 0), *st = hl_kernel_row(HL_KERNEL_LU, 1);
	assert_int_equal(lu->input, HL_INPUT_ARGV);
	assert_int_equal(lu->mem_limit, 0);
	assert_int_equal(st->input, HL_INPUT_DAT);
	assert_string_equal(st->program, hl_tester_program(HL_KERNEL_LU));
	for (hl_kernel k = HL_KERNEL_LU; k <= HL_KERNEL_MM; k++)
		if (hl_kernel_find(hl_kernel_name(k), 1))
			assert_int_equal(hl_kernel_row(k, 1)->mem_limit, hl_tester_mem_limit(k));
	/* stock asked of a kernel without a stock tester: the driver's row */
	assert_int_equal(hl_kernel_row(HL_KERNEL_CHOL, 1)->stock, 0);
}

static void driver_args(void **state)
{
	(void)state;
	size_t sizes[] = { 1000, 2000, 3000 };
	char **v = hl_kernel_args(hl_kernel_row(HL_KERNEL_QR, 0), NULL, 0, sizes, 3, 64, 2, 3);
	assert_non_null(v);
	const char *want[] = { "qr", "64", "2", "3", "1000", "2000", "3000" };
	for (size_t i = 0; i < 7; i++)
		assert_string_equal(v[i], want[i]);
	assert_null(v[7]);
	hl_kernel_args_free(v);
	char *args[] = { "-x", "y z" };
	v = hl_kernel_args(hl_kernel_row(HL_KERNEL_EXEC, 0), args, 2, sizes, 3, 64, 2, 3);
	assert_string_equal(v[0], "-x");
	assert_string_equal(v[1], "y z");
	assert_null(v[2]);
	hl_kernel_args_free(v);
	v = hl_kernel_args(hl_kernel_row(HL_KERNEL_LU, 1), NULL, 0, sizes, 1, 64, 2, 3);
	assert_null(v[0]);   /* the stock tester reads LU.dat */
	hl_kernel_args_free(v);
}

static const char LOG[] =
	"hetlaunch-memory kernel=lu n=400 bytes_per_process=216384\n"
	"some stray stderr line\n"
	"hetlaunch-result routine=PDGETRF+PDGETRS kernel=lu n=400 nb=32 P=1 Q=3 time=0.5 "
	"gflops=0.0899 residual=0.0082315 passed=1 future_key=7\n"
	"hetlaunch-rank rank=0 n=400 compute=0.25 wait=0.25 wait_from=runtime\n"
	"hetlaunch-rank rank=2 n=400 compute=0.5 wait=0 wait_from=runtime\n"
	"hetlaunch-result routine=PDGETRF+PDGETRS kernel=lu n=800 nb=32 P=1 Q=3 time=2.25 "
	"gflops=0.2 residual=0.01 passed=1\n"
	"hetlaunch-rank rank=0 n=800 compute=1.5 wait=0.75\n"
	"hetlaunch-result n=900 nb=32 P=1 Q=3 passed=1\n";   /* no time: not a result */

static void parse_driver_lines(void **state)
{
	(void)state;
	hl_results r;
	assert_int_equal(hl_driver_parse(HL_KERNEL_LU, LOG, &r), 0);
	assert_int_equal(r.nresults, 2);
	assert_true(r.passed);
	assert_int_equal(r.results[0].n, 400);
	assert_int_equal(r.results[0].npcol, 3);
	assert_string_equal(r.results[0].routine, "PDGETRF+PDGETRS");
	assert_string_equal(r.results[0].check, "PASSED");
	assert_true(fabs(r.results[0].residual - 0.0082315) < 1e-12);
	assert_true(fabs(r.results[1].time - 2.25) < 1e-12);
	/* ranks: summed over the problems; rank 1 printed nothing (zeros) */
	assert_int_equal(r.nranks, 3);
	assert_true(fabs(r.ranks[0].compute - 1.75) < 1e-12);
	assert_true(fabs(r.ranks[0].wait - 1.0) < 1e-12);
	assert_true(r.ranks[1].compute == 0.0 && r.ranks[1].wait == 0.0);
	assert_true(fabs(r.ranks[2].compute - 0.5) < 1e-12);
	hl_results_free(&r);
}

static void parse_driver_failures(void **state)
{
	(void)state;
	hl_results r;
	const char *failed = "hetlaunch-result routine=PDGEQRF kernel=qr n=64 nb=16 P=1 Q=2 "
	                     "time=0.1 gflops=1 residual=nan passed=0\n";
	assert_int_equal(hl_driver_parse(HL_KERNEL_QR, failed, &r), 0);
	assert_int_equal(r.nresults, 1);
	assert_false(r.passed);
	assert_string_equal(r.results[0].check, "FAILED");
	assert_true(isnan(r.results[0].residual));
	hl_results_free(&r);
	assert_int_equal(hl_driver_parse(HL_KERNEL_EXEC, "hello\nworld\n", &r), 0);
	assert_int_equal(r.nresults, 0);
	assert_false(r.passed);   /* nothing printed is not a pass */
	hl_results_free(&r);
	/* a line cut by interleaving loses its result, never invents one */
	assert_int_equal(hl_driver_parse(HL_KERNEL_LU, "hetlaunch-result n=5 nb=1 P=1 Q=1 ti", &r), 0);
	assert_int_equal(r.nresults, 0);
	hl_results_free(&r);
}

/* NUMROC by hand: n = 100, nb = 32 is blocks of 32, 32, 32, 4.  On 1 x 2,
 * process column 0 holds blocks 0 and 2 (64 columns), column 1 blocks 1
 * and 3 (36); every process holds all 100 rows. */
static void dense_sizes_by_hand(void **state)
{
	(void)state;
	vproc_dense_local l;
	assert_int_equal(vproc_dense_layout(VPROC_DENSE_LU, 100, 32, 1, 2, 0, 0, &l), VPROC_OK);
	assert_int_equal(l.mp, 100);
	assert_int_equal(l.nq, 64);
	/* A 100 x 64, b and r 2 x 100, PDLANGE work 100 + 32, pivots 132 ints */
	assert_int_equal(l.bytes, (100 * 64 + 200 + 132) * 8 + 132 * 4);
	assert_int_equal(vproc_dense_layout(VPROC_DENSE_LU, 100, 32, 1, 2, 0, 1, &l), VPROC_OK);
	assert_int_equal(l.nq, 36);
	/* mm: three matrices, four vectors */
	assert_int_equal(vproc_dense_layout(VPROC_DENSE_MM, 100, 32, 1, 2, 0, 1, &l), VPROC_OK);
	assert_int_equal(l.bytes, (3 * 100 * 36 + 4 * 100 + 132) * 8);
	/* 2 x 2: rows split like the columns */
	assert_int_equal(vproc_dense_layout(VPROC_DENSE_CHOL, 100, 32, 2, 2, 1, 1, &l), VPROC_OK);
	assert_int_equal(l.mp, 36);
	assert_int_equal(l.nq, 36);
	assert_int_equal(l.bytes, (36 * 36 + 2 * 36 + 36 + 32) * 8);
	assert_int_equal(vproc_dense_bytes(VPROC_DENSE_CHOL, 100, 32, 2, 2),
	                 (64 * 64 + 2 * 64 + 64 + 32) * 8);
}

/* Every row and column is somewhere exactly once; (0,0) holds the most. */
static void dense_sizes_cover(void **state)
{
	(void)state;
	size_t ns[] = { 1, 31, 32, 33, 1000, 4097 }, grids[][2] = { { 1, 1 }, { 1, 9 }, { 3, 3 }, { 2, 5 } };
	for (size_t a = 0; a < 6; a++)
		for (size_t g = 0; g < 4; g++) {
			size_t p = grids[g][0], q = grids[g][1], rows = 0, cols = 0;
			size_t top = vproc_dense_bytes(VPROC_DENSE_QR, ns[a], 32, p, q);
			for (size_t i = 0; i < p; i++)
				for (size_t j = 0; j < q; j++) {
					vproc_dense_local l;
					assert_int_equal(vproc_dense_layout(VPROC_DENSE_QR, ns[a], 32, p, q, i, j,
					                                    &l), VPROC_OK);
					if (j == 0)
						rows += l.mp;
					if (i == 0)
						cols += l.nq;
					assert_true(l.bytes <= top);
				}
			assert_int_equal(rows, ns[a]);
			assert_int_equal(cols, ns[a]);
		}
	vproc_dense_local l;
	assert_int_equal(vproc_dense_layout(VPROC_DENSE_LU, 0, 32, 1, 1, 0, 0, &l), VPROC_EINVAL);
	assert_int_equal(vproc_dense_layout(VPROC_DENSE_LU, 10, 32, 1, 1, 1, 0, &l), VPROC_EINVAL);
	assert_int_equal(vproc_dense_layout(VPROC_DENSE_MM, SIZE_MAX / 2, 1, 1, 1, 0, 0, &l),
	                 VPROC_ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_rows),
		cmocka_unit_test(driver_args),
		cmocka_unit_test(parse_driver_lines),
		cmocka_unit_test(parse_driver_failures),
		cmocka_unit_test(dense_sizes_by_hand),
		cmocka_unit_test(dense_sizes_cover),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
