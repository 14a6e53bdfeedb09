/*
 * test_taskgraph.c -- the LU/QR task graph and its schedules (paper 002 s4,
 * vproc/planner/dense/taskgraph.h): tiny graphs computed by hand (M = 2, 3), the
 * static schedule against the step-by-step prediction of vproc_lu_predict
 * when communication is free, and the lower bound under every schedule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "planner/dense/measured_times.h"
#include "planner/dense/taskgraph.h"

#define EPS 1e-9
/* cmocka's assert_float_equal compares floats: too coarse here. */
#define assert_near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void graph_shape(void **state)
{
	(void)state;
	assert_int_equal(vproc_tg_ntasks(3), 6);
	/* ids: F(0) U(0,1) U(0,2) F(1) U(1,2) F(2) */
	static const size_t kk[6] = { 0, 0, 0, 1, 1, 2 }, jj[6] = { 0, 1, 2, 1, 2, 2 };
	for (size_t id = 0; id < 6; id++) {
		size_t k, j;
		vproc_tg_task(3, id, &k, &j);
		assert_int_equal(k, kk[id]);
		assert_int_equal(j, jj[id]);
		assert_int_equal(vproc_tg_id(3, k, j), id);
	}
	/* the inverse on a large graph, where sqrt rounding matters */
	size_t M = 2000, T = vproc_tg_ntasks(M);
	for (size_t id = 0; id < T; id += 997) {
		size_t k, j;
		vproc_tg_task(M, id, &k, &j);
		assert_true(j >= k && j < M);
		assert_int_equal(vproc_tg_id(M, k, j), id);
	}
	/* LU, b = 1, M = 3: F(k) = m - 1/3, U = 2m - 1 with m = M - k */
	vproc_tg lu = { VPROC_TG_LU, 3, 1, 1.0 };
	assert_near(vproc_tg_work(&lu, 0, 0), 8.0 / 3, EPS);
	assert_near(vproc_tg_work(&lu, 0, 2), 5.0, EPS);
	assert_near(vproc_tg_work(&lu, 1, 2), 3.0, EPS);
	/* QR: F = 2m - 2/3, U = 4m */
	vproc_tg qr = { VPROC_TG_QR, 3, 1, 1.0 };
	assert_near(vproc_tg_work(&qr, 1, 1), 4.0 - 2.0 / 3, EPS);
	assert_near(vproc_tg_work(&qr, 1, 2), 8.0, EPS);
	assert_near(vproc_tg_comm(&qr, 1), 2.0, EPS);
}

/* M = 3, updates-only costs (U(0,j) = 2, U(1,2) = 1), t = (1, 2), pattern
 * (0, 1, 0), beta = 1/2 per block: comm(k) = (3 - k) / 2.  Worked by hand in
 * the comments. */
static void hand_m3(void **state)
{
	(void)state;
	const double t[2] = { 1, 2 };
	const size_t pat[3] = { 0, 1, 0 };
	vproc_tg g = { VPROC_TG_UPDATES, 3, 1, 0.5 };
	vproc_tg_schedule s, d;
	vproc_tg_times tm;
	assert_int_equal(vproc_tg_static(&g, 2, pat, 3, &s), VPROC_OK);
	assert_int_equal(vproc_tg_simulate(&g, 2, t, &s, &tm), VPROC_OK);
	/* F0 m0 @0; U01 m1: 0 + 1.5 + 4 = 5.5; U02 m0: 2; F1 m1: 5.5;
	 * U12 m0: max(2, 5.5 + 1) + 1 = 7.5; F2 m0: 7.5. */
	assert_near(tm.makespan, 7.5, EPS);
	assert_near(tm.levels, 7.5, EPS);
	assert_int_equal(tm.messages, 2);
	assert_near(tm.volume, 5.0, EPS);          /* 3 + 2 blocks */
	assert_near(tm.load, 5.5, EPS);            /* m1: 4 + 1.5 */
	assert_near(tm.compute, 4.0, EPS);
	/* The heuristic: cp = (7.5, 6, 3, 2, 1, 0) on the static mapping; U01
	 * then U02 go to m0 (pct 2, 4), F1 to idle m1 (max(0, 2 + 1) = 3),
	 * U12 to m0 (max(3 + 1, 4) + 1 = 5), F2 to m0 (5). */
	assert_int_equal(vproc_tg_dynamic(&g, 2, t, &s, &d), VPROC_OK);
	static const size_t want[6] = { 0, 0, 0, 1, 0, 0 };
	for (size_t id = 0; id < 6; id++)
		assert_int_equal(d.machine[id], want[id]);
	assert_int_equal(d.order[1], 1);   /* U01 (cp 6) before U02 (cp 3) */
	assert_int_equal(vproc_tg_simulate(&g, 2, t, &d, &tm), VPROC_OK);
	assert_near(tm.makespan, 5.0, EPS);
	assert_int_equal(tm.messages, 2);   /* U01 -> F1 (2 blocks), pivot 1 -> m0 (2) */
	assert_near(tm.volume, 4.0, EPS);
	/* bound: k = 0: 0 + 5 x 2/3; k = 1: 2 + 1 x 2/3; k = 2: 3 */
	assert_near(vproc_tg_lower_bound(&g, 2, t), 10.0 / 3, EPS);
	vproc_tg_schedule_free(&s);
	vproc_tg_schedule_free(&d);
}

/* M = 2, LU in flops with b = 1 (F0 = 5/3, U01 = 3, F1 = 2/3), t = (3, 5),
 * beta = 1 per element.  The static slice (0, 1) pays one pivot message;
 * the optimized allocation and the heuristic keep all on the fast machine
 * and meet the chain bound 3 (5/3 + 3 + 2/3) = 16. */
static void hand_m2(void **state)
{
	(void)state;
	const double t[2] = { 3, 5 };
	const size_t pat[2] = { 0, 1 };
	vproc_tg g = { VPROC_TG_LU, 2, 1, 1.0 };
	vproc_tg_schedule s, o, d;
	vproc_tg_times ts, to, td;
	assert_int_equal(vproc_tg_static(&g, 2, pat, 2, &s), VPROC_OK);
	assert_int_equal(vproc_tg_optimized(&g, 2, t, 2, &o), VPROC_OK);
	assert_int_equal(vproc_tg_dynamic(&g, 2, t, &s, &d), VPROC_OK);
	assert_int_equal(vproc_tg_simulate(&g, 2, t, &s, &ts), VPROC_OK);
	assert_int_equal(vproc_tg_simulate(&g, 2, t, &o, &to), VPROC_OK);
	assert_int_equal(vproc_tg_simulate(&g, 2, t, &d, &td), VPROC_OK);
	/* F0 on m0: 5; pivot (2 elements) to m1: 7; U01: 7 + 15; F1: + 10/3 */
	assert_near(ts.makespan, 22.0 + 10.0 / 3, EPS);
	assert_near(to.makespan, 16.0, EPS);
	assert_near(td.makespan, 16.0, EPS);
	assert_int_equal(to.messages, 0);
	for (size_t id = 0; id < 3; id++)
		assert_int_equal(d.machine[id], 0);
	/* k = 0: 5 + (3 + 2/3) 15/8 = 11.875; k = 1: 16 */
	assert_near(vproc_tg_lower_bound(&g, 2, t), 16.0, EPS);
	vproc_tg_schedule_free(&s);
	vproc_tg_schedule_free(&o);
	vproc_tg_schedule_free(&d);
}

/* Free communication: the static schedule's level-synchronous time is the
 * step-by-step prediction of vproc_lu_predict (000 Figs 3, 5), for every
 * B; the dataflow time never exceeds it, and no schedule beats the bound. */
static void static_equals_prediction(void **state)
{
	(void)state;
	const double plats[3][4] = { { 3, 5, 8, 0 }, { 100, 143, 353, 0 }, { 1, 2.5, 2.5, 7 } };
	const size_t np[3] = { 3, 3, 4 };
	for (size_t q = 0; q < 3; q++) {
		const double *t = plats[q];
		for (size_t M = 1; M <= 40; M += 13) {
			for (size_t B = 1; B <= 12; B += 5) {
				vproc_slice sl;
				assert_int_equal(vproc_slice_build(np[q], t, B, VPROC_SLICE_PLAIN, &sl), VPROC_OK);
				vproc_tg g = { VPROC_TG_UPDATES, M, 1, 0.0 };
				vproc_tg_schedule s;
				vproc_tg_times tm;
				double pred;
				assert_int_equal(vproc_tg_static(&g, np[q], sl.pattern, B, &s), VPROC_OK);
				assert_int_equal(vproc_tg_simulate(&g, np[q], t, &s, &tm), VPROC_OK);
				assert_int_equal(vproc_lu_predict(np[q], t, B, sl.pattern, M, &pred), VPROC_OK);
				assert_near(tm.levels, pred, 1e-9 * (1 + pred));
				assert_true(tm.makespan <= tm.levels * (1 + 1e-12));
				assert_true(tm.makespan >= vproc_tg_lower_bound(&g, np[q], t) * (1 - 1e-12));
				assert_true(tm.load == tm.compute);   /* the messages are free */
				vproc_tg_schedule_free(&s);
				vproc_slice_free(&sl);
			}
		}
	}
}

/* Every schedule, with communication, of LU and QR: the makespan is at
 * least the lower bound and at least the busiest machine's compute, and
 * the level-synchronous time is never less than the dataflow one. */
static void bound_holds(void **state)
{
	(void)state;
	const double t[3] = { 3, 5, 8 };
	for (int kind = VPROC_TG_LU; kind <= VPROC_TG_QR; kind++) {
		for (size_t M = 2; M <= 30; M += 7) {
			vproc_tg g = { (vproc_tg_kind)kind, M, 4, 0.5 };
			double lb = vproc_tg_lower_bound(&g, 3, t);
			vproc_slice sl;
			assert_int_equal(vproc_slice_build(3, t, M, VPROC_SLICE_PLAIN, &sl), VPROC_OK);
			vproc_tg_schedule s[3];
			assert_int_equal(vproc_tg_static(&g, 3, sl.pattern, M, &s[0]), VPROC_OK);
			assert_int_equal(vproc_tg_optimized(&g, 3, t, M, &s[1]), VPROC_OK);
			assert_int_equal(vproc_tg_dynamic(&g, 3, t, &s[0], &s[2]), VPROC_OK);
			for (size_t v = 0; v < 3; v++) {
				vproc_tg_times tm;
				assert_int_equal(vproc_tg_simulate(&g, 3, t, &s[v], &tm), VPROC_OK);
				assert_true(tm.makespan >= lb * (1 - 1e-12));
				assert_true(tm.makespan >= tm.compute * (1 - 1e-12));
				assert_true(tm.levels >= tm.makespan * (1 - 1e-12));
				vproc_tg_schedule_free(&s[v]);
			}
			vproc_slice_free(&sl);
		}
	}
}

/* The best B scan picks the least of the individual simulations. */
static void best_B(void **state)
{
	(void)state;
	const double t[3] = { 3, 5, 8 };
	vproc_tg g = { VPROC_TG_LU, 20, 1, 1.0 };
	double times[20], best;
	size_t B;
	assert_int_equal(vproc_tg_best_B(&g, 3, t, 20, times, &B, &best), VPROC_OK);
	assert_true(B >= 1 && B <= 20);
	for (size_t b = 0; b < 20; b++)
		assert_true(times[b] >= best);
	assert_true(times[B - 1] == best);
}

/* The exhaustive slice: M = 3, B = 2, two machines -- the least of the
 * four patterns, each simulated here on its own; never worse than the
 * incremental slice. */
static void optimal_slice(void **state)
{
	(void)state;
	const double t[2] = { 1, 3 };
	vproc_tg g = { VPROC_TG_LU, 3, 1, 1.0 };
	double least = INFINITY, opt;
	for (size_t a = 0; a < 2; a++)
		for (size_t b = 0; b < 2; b++) {
			size_t pat[2] = { a, b };
			vproc_tg_schedule s;
			vproc_tg_times tm;
			assert_int_equal(vproc_tg_static(&g, 2, pat, 2, &s), VPROC_OK);
			assert_int_equal(vproc_tg_simulate(&g, 2, t, &s, &tm), VPROC_OK);
			least = fmin(least, tm.makespan);
			vproc_tg_schedule_free(&s);
		}
	size_t best[2];
	assert_int_equal(vproc_tg_optimal_slice(&g, 2, t, 2, best, &opt), VPROC_OK);
	assert_true(opt == least);
	/* 002 s2.2's slice on Fig 11's graph (M = 20, B = 5) is not better than the optimum */
	const double t358[3] = { 3, 5, 8 };
	vproc_tg g20 = { VPROC_TG_LU, 20, 1, 1.0 };
	vproc_slice sl;
	vproc_tg_schedule s;
	vproc_tg_times tm;
	size_t pat5[5];
	assert_int_equal(vproc_slice_build(3, t358, 5, VPROC_SLICE_PLAIN, &sl), VPROC_OK);
	assert_int_equal(vproc_tg_static(&g20, 3, sl.pattern, 5, &s), VPROC_OK);
	assert_int_equal(vproc_tg_simulate(&g20, 3, t358, &s, &tm), VPROC_OK);
	assert_int_equal(vproc_tg_optimal_slice(&g20, 3, t358, 5, pat5, &opt), VPROC_OK);
	assert_true(opt <= tm.makespan);
	vproc_tg_schedule_free(&s);
	vproc_slice_free(&sl);
	assert_int_equal(vproc_tg_optimal_slice(&g20, 3, t358, 12, pat5, &opt), VPROC_ERANGE);
}

static void bad_input(void **state)
{
	(void)state;
	const double t[2] = { 1, 2 }, bad[2] = { 1, 0 };
	const size_t pat[2] = { 0, 2 };
	vproc_tg g = { VPROC_TG_LU, 3, 1, 1.0 };
	vproc_tg_schedule s;
	vproc_tg_times tm;
	assert_int_equal(vproc_tg_static(&g, 2, pat, 2, &s), VPROC_EINVAL);
	assert_int_equal(vproc_tg_optimized(&g, 2, bad, 2, &s), VPROC_EINVAL);
	assert_int_equal(vproc_tg_optimized(&g, 2, t, 1, &s), VPROC_EINVAL);   /* s4.4: B >= 2 */
	vproc_tg g0 = { VPROC_TG_LU, 0, 1, 1.0 };
	assert_true(vproc_tg_lower_bound(&g0, 2, t) == 0.0);
	/* an order that runs a task before its predecessor */
	assert_int_equal(vproc_tg_static(&g, 2, (const size_t[]){ 0, 1 }, 2, &s), VPROC_OK);
	s.order[0] = 1;
	s.order[1] = 0;
	assert_int_equal(vproc_tg_simulate(&g, 2, t, &s, &tm), VPROC_EINVAL);
	vproc_tg_schedule_free(&s);
}

/* Measured speeds: ranks that share a machine first come first served
 * report compute = work t (c + 1) / 2; the estimate recovers t, and the
 * median ignores one disturbed rank of three. */
static void measured(void **state)
{
	(void)state;
	const size_t mach[6] = { 0, 0, 0, 1, 1, 2 };
	const double t[3] = { 1.5, 3, 7 }, work[6] = { 10, 20, 30, 5, 7, 11 };
	const size_t c[3] = { 3, 2, 1 };
	double compute[6], est[3];
	for (size_t r = 0; r < 6; r++)
		compute[r] = work[r] * t[mach[r]] * (double)(c[mach[r]] + 1) / 2;
	assert_int_equal(vproc_measured_times(3, 6, mach, work, compute, est), VPROC_OK);
	for (size_t i = 0; i < 3; i++)
		assert_near(est[i], t[i], 1e-12);
	compute[1] *= 3;   /* one slow rank on machine 0 */
	assert_int_equal(vproc_measured_times(3, 6, mach, work, compute, est), VPROC_OK);
	assert_near(est[0], t[0], 1e-12);
	/* a machine without ranks keeps its old time, scaled like the others */
	const size_t m2[2] = { 0, 1 };
	const double w2[2] = { 1, 1 }, c2[2] = { 2, 4 }, old[3] = { 1, 2, 5 };
	assert_int_equal(vproc_measured_times(3, 2, m2, w2, c2, est), VPROC_OK);
	assert_true(est[2] == 0.0);
	assert_int_equal(vproc_measured_fill(3, old, est), VPROC_OK);
	assert_near(est[2], 10.0, 1e-12);   /* both measured ratios are 2 */
	/* column work: LU, b = 1, M = 3, column 2: U(0,2) 5 + U(1,2) 3 + F(2) 2/3 */
	vproc_tg g = { VPROC_TG_LU, 3, 1, 0 };
	assert_near(vproc_tg_column_work(&g, 2), 8 + 2.0 / 3, 1e-12);
	const size_t badm[1] = { 3 };
	assert_int_equal(vproc_measured_times(3, 1, badm, w2, c2, est), VPROC_EINVAL);
	/* busy times: machine 0 did 60 units in 90 s, machine 1 12 in 36 */
	const double busy[3] = { 90, 36, 0 };
	assert_int_equal(vproc_measured_busy(3, 6, mach, work, busy, est), VPROC_OK);
	assert_near(est[0], 1.5, 1e-12);
	assert_near(est[1], 3.0, 1e-12);
	assert_true(est[2] == 0.0);   /* no busy time */
	double none[3] = { 0, 0, 0 };
	assert_int_equal(vproc_measured_fill(3, old, none), VPROC_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(graph_shape),
		cmocka_unit_test(hand_m3),
		cmocka_unit_test(hand_m2),
		cmocka_unit_test(static_equals_prediction),
		cmocka_unit_test(bound_holds),
		cmocka_unit_test(best_B),
		cmocka_unit_test(optimal_slice),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(measured),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
