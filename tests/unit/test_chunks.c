/*
 * test_chunks.c -- Alg 3.1 (independent chunks): paper 002 Table 1 (= 000
 * Table 1) to the digit, optimality against brute force, and bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "paper.h"
#include "planner/planner.h"

static const double t358[3] = { 3, 5, 8 };

/* 002 Table 1: M = 78 column blocks of the 2496 x 2496 product on t = 3,5,8. */
static void table1(void **state)
{
	(void)state;
	size_t c[3];
	assert_int_equal(vproc_chunks_init(3, t358, 78, c), VPROC_OK);
	/* Init, m = 76 */
	assert_int_equal(c[0], 39);
	assert_int_equal(c[1], 23);
	assert_int_equal(c[2], 14);
	assert_int_equal(c[0] + c[1] + c[2], 76);
	assert_true(vproc_chunks_makespan(3, t358, c) == 117.0);
	/* m = 77 */
	assert_int_equal(vproc_chunks_complete(3, t358, 77, c), VPROC_OK);
	assert_int_equal(c[0], 40);
	assert_int_equal(c[1], 23);
	assert_int_equal(c[2], 14);
	assert_true(vproc_chunks_makespan(3, t358, c) == 120.0);
	/* m = M = 78 */
	assert_int_equal(vproc_chunks_complete(3, t358, 78, c), VPROC_OK);
	assert_int_equal(c[0], 40);
	assert_int_equal(c[1], 24);
	assert_int_equal(c[2], 14);
	assert_true(vproc_chunks_makespan(3, t358, c) == 120.0);
	/* Alg 3.1 whole gives the same. */
	size_t d[3];
	assert_int_equal(vproc_chunks_optimal(3, t358, 78, d), VPROC_OK);
	assert_memory_equal(c, d, sizeof c);
}

/* 000 s3.3: "five chunks should be given to P1, three to P2, and two to P3". */
static void ten_chunks(void **state)
{
	(void)state;
	size_t c[3];
	assert_int_equal(vproc_chunks_optimal(3, t358, 10, c), VPROC_OK);
	assert_int_equal(c[0], 5);
	assert_int_equal(c[1], 3);
	assert_int_equal(c[2], 2);
}

/* Prop 1 on random instances, integral (ties) and real cycle times. */
static void optimal_random(void **state)
{
	(void)state;
	srand(12345);
	for (int trial = 0; trial < 400; trial++) {
		size_t p = 1 + (size_t)(rand() % 4);
		double t[4];
		for (size_t i = 0; i < p; i++)
			t[i] = trial % 2 ? 1 + rand() % 9 : 0.1 + (double)rand() / RAND_MAX * 10;
		size_t M = (size_t)(rand() % 15);
		size_t c[4];
		assert_int_equal(vproc_chunks_optimal(p, t, M, c), VPROC_OK);
		size_t sum = 0;
		for (size_t i = 0; i < p; i++)
			sum += c[i];
		assert_int_equal(sum, M);
		assert_true(vproc_chunks_makespan(p, t, c) == brute_force_makespan(p, t, M, 0, 0.0));
	}
}

static void bad_input(void **state)
{
	(void)state;
	size_t c[3] = { 0 };
	double zero[3] = { 3, 0, 8 }, neg[3] = { 3, -1, 8 }, nan_[3] = { 3, NAN, 8 },
	       inf[3] = { 3, INFINITY, 8 };
	assert_int_equal(vproc_chunks_optimal(0, t358, 5, c), VPROC_EINVAL);
	assert_int_equal(vproc_chunks_optimal(3, NULL, 5, c), VPROC_EINVAL);
	assert_int_equal(vproc_chunks_optimal(3, t358, 5, NULL), VPROC_EINVAL);
	assert_int_equal(vproc_chunks_optimal(3, zero, 5, c), VPROC_EINVAL);
	assert_int_equal(vproc_chunks_optimal(3, neg, 5, c), VPROC_EINVAL);
	assert_int_equal(vproc_chunks_optimal(3, nan_, 5, c), VPROC_EINVAL);
	assert_int_equal(vproc_chunks_optimal(3, inf, 5, c), VPROC_EINVAL);
	size_t over[3] = { 4, 4, 4 };
	assert_int_equal(vproc_chunks_complete(3, t358, 10, over), VPROC_EINVAL);
	assert_string_equal(vproc_strerror(VPROC_EINVAL), "invalid argument");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table1),
		cmocka_unit_test(ten_chunks),
		cmocka_unit_test(optimal_random),
		cmocka_unit_test(bad_input),
	};
	return cmocka_run_group_tests_name("chunks (000 s3.1, Alg 3.1)", tests, NULL, NULL);
}
